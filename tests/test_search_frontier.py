"""The frontier search (sorted layers of 16-byte keys, no parents) against plain breadth-first search:
the same optimal lengths, the same reachable-set sizes on unsolvable boards, every path replayed by the
rules, and a stopped search's lower bound never above the optimum."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from rushhour.board import Move
from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman, read_file
from rushhour.formats.grid import parse_grid
from rushhour.search import bfs, solve
from rushhour.search.bfs import Limits, native_available, reachable, shortest_python
from rushhour.search.frontier import frontier, frontier_wanted
from rushhour.search.native_spec import CONSTANTS, SPEC_VERSION, NativeSpec, compatible
from rushhour.search.solution import moves_of_path, verify
from rushhour.search.tables import BITS, Tables
from tests.boards import DATA
from tests.strategies import boards_of_every_kind, random_board, random_walk

needs_native = pytest.mark.skipif(not native_available(), reason="the compiled search is not built")


def _length(path: list[int] | None) -> int | None:
    return None if path is None else len(path) - 1


@needs_native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_same_lengths_as_breadth_first_on_boards_of_every_kind(metric: str) -> None:
    served = solved = 0
    for board in boards_of_every_kind(41 if metric == "moves" else 43, 100, dense=True):
        tables = Tables(board.layout, metric)
        start = tables.pack(board.state)
        try:
            want = shortest_python(tables, start, Limits(max_states=20_000))
        except LimitReachedError:
            continue
        got = frontier(tables, start, Limits())
        if board.wrap:
            assert got is None  # lanes that wrap around have no order to rank
            continue
        assert got is not None, board
        served += 1
        assert _length(got[0]) == _length(want[0]), board
        if got[0] is None:
            assert got[1] == want[1]  # the whole reachable set, counted once
            continue
        solved += 1
        moves = moves_of_path(tables, got[0])
        verify(board, moves)
        if metric == "steps":
            assert all(abs(m.distance) == 1 for m in moves)
    assert served >= 40 and solved >= 20


@needs_native
def test_same_lengths_as_the_reference_slice() -> None:
    for line in (DATA / "fogleman_slice_solve.txt").read_text().splitlines()[:150]:
        board, meta = fogleman.parse_line(line)
        tables = Tables(board.layout)
        found = frontier(tables, tables.pack(board.state), Limits())
        assert found is not None and found[0] is not None
        assert len(found[0]) - 1 == int(meta["moves"]), line
        verify(board, moves_of_path(tables, found[0]))


@needs_native
def test_a_stopped_search_reports_a_proven_lower_bound() -> None:
    checked = 0
    for line in (DATA / "fogleman_slice_solve.txt").read_text().splitlines()[:60]:
        board, meta = fogleman.parse_line(line)
        tables = Tables(board.layout)
        start = tables.pack(board.state)
        full = frontier(tables, start, Limits())
        assert full is not None and full[0] is not None
        if full[1] < 1000:
            continue
        with pytest.raises(LimitReachedError) as stopped:
            frontier(tables, start, Limits(max_states=full[1] // 3))
        bound = stopped.value.lower_bound
        assert bound is not None and 2 <= bound <= int(meta["moves"])
        checked += 1
    assert checked >= 10


@needs_native
def test_the_bfs_engine_uses_it_on_boards_larger_than_six_by_six() -> None:
    rng = random.Random(9)
    board = random_walk(random_board(rng, wrap=False, size=(8, 8), count=14, walls=0), rng, 30)
    tables = Tables(board.layout)
    assert frontier_wanted(tables)
    solution = solve(board)
    want = shortest_python(tables, tables.pack(board.state), Limits())
    assert solution.optimal and solution.length == _length(want[0])


# A crowded 9x9 board (30 vehicles) whose search takes seconds: 11 moves, about 4.6 million positions.
CROWDED9 = Path(__file__).parent / "data" / "crowded9.txt"


@needs_native
@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_ctrl_c_stops_the_compiled_searches_with_status_130(command: str) -> None:
    board = CROWDED9
    child = subprocess.Popen(
        [sys.executable, "-m", "rushhour", command, str(board), "--max-memory", "4000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)  # well inside the search (the imports take about 0.3 s)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, (out, err)
    assert "Traceback" not in err


@needs_native
def test_a_stopped_solve_prints_its_lower_bound() -> None:
    board = CROWDED9
    done = subprocess.run(
        [sys.executable, "-m", "rushhour", "solve", str(board), "--max-states", "200000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    lines = done.stderr.splitlines()
    assert len(lines) == 3 and lines[0].startswith("stopped after 2")
    # the optimum is 11: a bound is proven from the completed layers, and never above it
    proven = lines[1].removeprefix("Proven: no solution is shorter than ").removesuffix(" moves.")
    assert 2 <= int(proven) <= 11
    # and the best solution found so far, which the rules replay to a win
    count, moves = lines[2].removeprefix("Best found: ").split(" moves: ")
    found = [Move.parse(m) for m in moves.split()]
    assert len(found) == int(count) >= 11
    verify(read_file(str(CROWDED9))[0].board, found)


# Below the wall row, D, E, F and G move freely but never meet a vehicle that can reach the goal's way.
FENCED = """\
..B......
..B..C...
AA...C...
xxxxxxxxx
.DD..EE..
.FF...GG.
"""


@needs_native
def test_vehicles_that_cannot_matter_are_left_unmoved() -> None:
    board = parse_grid(FENCED)
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    found = frontier(tables, start, Limits())
    want = shortest_python(tables, start, Limits())
    assert found is not None and found[0] is not None and want[0] is not None
    assert len(found[0]) == len(want[0]) == 3  # C leaves the way, A exits
    assert found[1] * 20 < len(reachable(tables, start, Limits()))  # the fenced vehicles stay put
    verify(board, moves_of_path(tables, found[0]))
    # unsolvable: the whole reachable set is still counted
    blocked = parse_grid(FENCED.replace("..B......", "..B..x..."))
    tables = Tables(blocked.layout)
    start = tables.pack(blocked.state)
    assert frontier(tables, start, Limits()) == shortest_python(tables, start, Limits())


@needs_native
def test_the_compiled_module_reads_this_record_and_shares_these_constants() -> None:
    module = bfs._native
    assert compatible(module)
    assert NativeSpec._fields == module.SPEC_FIELDS
    assert (module.BATCH, module.KEY_FIELD_BITS) == (bfs.BATCH, BITS)
    assert set(CONSTANTS) == {"SPEC_VERSION", "BATCH", "KEY_FIELD_BITS", "NEAR_NONE", "NEAR_ONE", "NEAR_TWO", "NEAR_MAYBE"}
    stale = types.ModuleType("stale")
    stale.__dict__.update(vars(module))
    stale.SPEC_VERSION = SPEC_VERSION + 1  # type: ignore[attr-defined]
    assert not compatible(stale)
    stale.SPEC_VERSION = SPEC_VERSION  # type: ignore[attr-defined]
    stale.BATCH = bfs.BATCH + 1  # type: ignore[attr-defined]
    assert not compatible(stale)
