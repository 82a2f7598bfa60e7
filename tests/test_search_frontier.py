"""The frontier search (sorted layers of 16-byte keys, no parents) against plain breadth-first search:
the same optimal lengths, the same reachable-set sizes on unsolvable boards, every path replayed by the
rules, and a stopped search's lower bound never above the optimum."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from rushhour.board import Board, Move
from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman, read_file
from rushhour.formats.grid import parse_grid
from rushhour.search import bfs, native, solve
from rushhour.search.bfs import Limits, reachable, shortest_python
from rushhour.search.contract import POLL_MILLISECONDS, STOPPED_BY_POLL
from rushhour.search.frontier import frontier, frontier_wanted, one_pass
from rushhour.search.native_spec import CONSTANTS, SPEC_VERSION, NativeSpec, compatible
from rushhour.search.solution import moves_of_path, verify
from rushhour.search.tables import BITS, Tables, native_spec_for
from tests.boards import DATA
from tests.native import needs_native
from tests.processes import ctrl_c
from tests.strategies import boards_of_every_kind, random_board, random_walk
from tests.terminal import default_signals


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


# A crowded 9x9 board (30 vehicles): 11 moves, 4,853,023 positions in one pass (seconds), 16,257 over
# the bounded passes.
CROWDED9 = Path(__file__).parent / "data" / "crowded9.txt"
# A 12x12 board of 40 vehicles whose shortest solution has 14 moves (64,000 positions over the passes).
OPEN12 = Path(__file__).parent / "data" / "open12.txt"
# crowd12-04 of bench/large/crowded.txt: 45 vehicles, 23 moves; a blocker's requirements chain deep, and
# its passes of bounds 19 to 22 store 113,160, 1.1 million, 7.2 million and 37 million positions.
CROWD12_LONG = Path(__file__).parent / "data" / "crowd12_long.txt"


@needs_native
@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_ctrl_c_stops_the_compiled_searches_with_status_130(command: str) -> None:
    board = CROWD12_LONG if command == "solve" else CROWDED9
    child = subprocess.Popen(
        [sys.executable, "-m", "rushhour", command, str(board), "--max-memory", "4000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,  # a shell's background jobs ignore SIGINT, and so would the command
    )
    time.sleep(1.5)  # well inside the search (the imports take about 0.3 s)
    out, err = ctrl_c(child)
    assert child.returncode == 130, (out, err)
    assert "Traceback" not in err


@needs_native
def test_a_stopped_solve_prints_its_lower_bound() -> None:
    board = CROWDED9
    command = [sys.executable, "-m", "rushhour", "solve", str(board), "--max-states", "2000"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    lines = done.stderr.splitlines()
    assert len(lines) == 3 and lines[0].startswith("stopped after 2")
    # the optimum is 11: a bound is proven by the bounded passes, and never above it
    # (the default engine, the portfolio, says which of its engines proved it and found the best)
    proven = re.fullmatch(
        r"Proven: no solution is shorter than (\d+) moves \(by frontier [^)]*\)\.", lines[1]
    )
    assert proven is not None and 2 <= int(proven.group(1)) <= 11
    # and the best solution found so far: its first moves on stderr, all of them in the JSON document
    count, shown = re.sub(r"^Best found \(by [^)]*\): ", "", lines[2]).split(" moves: ")
    assert int(count) >= 11
    assert shown.endswith(f" ... ({int(count) - 20:,} more: --json lists them all)") or int(count) <= 20
    document = json.loads(
        subprocess.run(command + ["--json"], capture_output=True, text=True, timeout=60).stdout
    )
    found = [Move.parse(m) for m in document["best"]]
    assert len(found) == int(count) and shown.split(" ...")[0].split() == document["best"][:20]
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
    module = native.compiled
    assert compatible(module)
    assert NativeSpec._fields == module.SPEC_FIELDS
    assert (module.BATCH, module.KEY_FIELD_BITS) == (bfs.BATCH, BITS)
    assert set(CONSTANTS) == {
        "SPEC_VERSION",
        "BATCH",
        "ANALYSIS_CHUNK",
        "POLL_MILLISECONDS",
        "STOPPED_BY_POLL",
        "STAGE_FOUND",
        "STAGE_DISTANCES",
        "FRONTIER_THREADS",
        "KEY_FIELD_BITS",
        "NEAR_NONE",
        "NEAR_ONE",
        "NEAR_TWO",
        "NEAR_MAYBE",
    }
    stale = types.ModuleType("stale")
    stale.__dict__.update(vars(module))
    stale.SPEC_VERSION = SPEC_VERSION + 1  # type: ignore[attr-defined]
    assert not compatible(stale)
    stale.SPEC_VERSION = SPEC_VERSION  # type: ignore[attr-defined]
    stale.BATCH = bfs.BATCH + 1  # type: ignore[attr-defined]
    assert not compatible(stale)


@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_the_record_built_from_a_layout_alone_is_the_one_the_python_tables_describe(metric: str) -> None:
    # the compiled analysis reads native_spec_for(layout) without building the Python tables: its
    # lanes, winning offsets, groups and two-move test must be theirs, vehicle by vehicle
    boards = boards_of_every_kind(47, 150, dense=True)
    incomplete = 0
    for board in boards:
        tables = Tables(board.layout, metric)
        spec = native_spec_for(board.layout, metric)
        w = board.width
        assert (spec.width, spec.height, spec.wrap, spec.steps) == (w, board.height, board.wrap, metric == "steps")
        assert spec.goal == tables.goal and spec.won_offsets == tuple(sorted(tables.won_offsets)), board
        assert spec.walls == tuple(sorted(r * w + c for r, c in board.walls))
        assert spec.groups == tables.group_members
        # the two-move test misses wins only where a vehicle shares the goal's lane cells and its
        # orientation on a wrap-around board: read off the tables' own masks
        cells = (1 << tables.cells) - 1
        goal_lane = tables.key_masks[tables.goal] & cells
        lay = board.layout
        shares = any(
            i != tables.goal and lay.orientations[i] == lay.orientations[tables.goal]
            and goal_lane & tables.key_masks[i] & cells
            for i in range(tables.n)
        )
        assert spec.two_moves_complete == tables.two_moves_complete == (not (board.wrap and shares)), board
        incomplete += not spec.two_moves_complete
        for i, vehicle in enumerate(spec.vehicles):
            lane = sum(1 << cell for cell in vehicle.lane)
            assert lane == tables.key_masks[i] & ((1 << tables.cells) - 1), board
            # the cells in order along the lane: the vehicle's occupancy at each offset is a run of them
            runs = [sum(1 << vehicle.lane[(o + k) % len(vehicle.lane)] for k in range(vehicle.length))
                    for o in range(len(tables.masks[i]))]
            assert runs == tables.masks[i], board
            assert (vehicle.length, vehicle.horizontal) == (board.layout.lengths[i], tables.specs[i].horizontal)
    assert incomplete > 0  # wrap-around boards with a vehicle in the goal's lane were among them


def _reference(board: Board, metric: str) -> tuple[Tables, int, int | None] | None:
    """(tables, start, optimal length or None when unsolvable) by plain breadth-first search; None when
    the board is won already or its search is too large for a test."""
    tables = Tables(board.layout, metric)
    start = tables.pack(board.state)
    if tables.is_won(start):
        return None
    try:
        return tables, start, _length(shortest_python(tables, start, Limits(max_states=20_000))[0])
    except LimitReachedError:
        return None


def _one_pass(tables: Tables, start: int, bound: int, cap: int = 0) -> tuple[int, int | None, int, int]:
    """(status, length or None, pruned, positions stored) of one pass of the compiled frontier search with
    this bound (stopped after ``cap`` positions, when not 0)."""
    module = native.compiled
    assert module is not None
    spec, state = tables.native_spec(), tables.unpack(start)
    status, stored, path, _, pruned = module.frontier(spec, state, cap, 0.0, False, bound)
    return status, None if path is None else len(path) - 1, pruned, stored


@needs_native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_a_pass_with_a_bound_finds_a_shortest_solution_exactly_when_one_fits(metric: str) -> None:
    """The pass of bound U finds a solution iff the optimum is at most U, and then the optimum itself;
    a pass that leaves nothing out and ends without a solution means none is reachable."""
    checked = 0
    for board in boards_of_every_kind(47 if metric == "moves" else 53, 160, dense=True):
        reference = None if board.wrap else _reference(board, metric)
        if reference is None:
            continue
        tables, start, want = reference
        if want is None:
            status, got, pruned, _ = _one_pass(tables, start, 1000)
            assert got is None and not pruned, board
            continue
        for bound in range(1, want + 3):
            status, got, pruned, _ = _one_pass(tables, start, bound)
            if bound < want:
                assert got is None and status in (0, 3) and pruned, (board, bound)
            else:
                assert got == want, (board, bound)
        checked += 1
    assert checked >= 30


@needs_native
def test_the_passes_and_one_pass_agree_and_the_passes_store_far_less_on_a_crowded_board() -> None:
    board = read_file(str(CROWDED9))[0].board
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    passes = frontier(tables, start, Limits())
    single = frontier(tables, start, Limits(), bounded=False)
    assert passes is not None and single is not None and passes[0] is not None and single[0] is not None
    assert len(passes[0]) - 1 == len(single[0]) - 1 == 11
    verify(board, moves_of_path(tables, passes[0]))
    assert passes[1] * 100 < single[1]  # 16,257 against 4,853,023
    # the pass of bound 10 proves that no solution has 10 moves or fewer
    assert _one_pass(tables, start, 10)[:2] == (0, None)


@needs_native
def test_a_search_stopped_during_the_passes_reports_the_bound_they_proved() -> None:
    board = read_file(str(CROWD12_LONG))[0].board
    tables = Tables(board.layout)
    with pytest.raises(LimitReachedError) as stopped:
        frontier(tables, tables.pack(board.state), Limits(max_states=400_000))
    # the passes of bounds up to 19 end within 120,000 positions, each proving its bound; the pass of
    # bound 20 (1.1 million) is stopped, its completed layers proving less
    assert stopped.value.lower_bound == 20


@needs_native
def test_a_pass_calls_its_poll_while_it_runs_and_stops_when_asked() -> None:
    """The portfolio reads its workers' news through ``poll`` while a pass runs in the caller: it is
    called every POLL_MILLISECONDS, a true answer stops the pass (what it stored is counted, nothing
    is claimed), and an error it raises comes through as Ctrl-C's does."""
    board = read_file(str(OPEN12))[0].board
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    calls: list[float] = []

    def stop_after_three() -> bool:
        calls.append(time.perf_counter())
        return len(calls) == 3

    began = time.perf_counter()
    status, stored, keys, _, _ = one_pass(tables, start, Limits(), 0, poll=stop_after_three)
    assert status == native.compiled.STOPPED_BY_POLL == STOPPED_BY_POLL
    assert keys is None and stored > 1 and len(calls) == 3
    gaps = [b - a for a, b in zip([began, *calls], calls, strict=False)]
    assert all(gap >= POLL_MILLISECONDS / 1000 * 0.9 for gap in gaps), gaps

    class Raised(Exception):
        pass

    def raise_at_once() -> bool:
        raise Raised

    with pytest.raises(Raised):
        one_pass(tables, start, Limits(), 0, poll=raise_at_once)
    # a poll that never asks changes nothing: the pass of bound 13 proves 13 too short
    quiet = one_pass(tables, start, Limits(), 13, poll=lambda: False)
    assert quiet[0] == 0 and quiet[2] is None and quiet[1] == one_pass(tables, start, Limits(), 13)[1]


@needs_native
@pytest.mark.parametrize("metric", ["moves", pytest.param("steps", marks=pytest.mark.slow)])  # steps: 15 s
def test_the_cleared_bound_never_hides_a_shortest_solution_on_crowded_boards(metric: str) -> None:
    """Crowded boards, where a blocker waits for vehicles that wait for others (the cleared bound's chains
    of requirements): the pass whose bound is the optimum finds it, the pass below finds nothing."""
    rng = random.Random(59 if metric == "moves" else 61)
    checked = 0
    for _ in range(600):
        size = (rng.randint(6, 8), rng.randint(6, 8))
        area = size[0] * size[1]
        board = random_board(
            rng, wrap=False, size=size, count=rng.randint(area // 4, area // 3), walls=rng.randint(0, 3)
        )
        board = random_walk(board, rng, rng.randint(0, 6))
        reference = _reference(board, metric)
        if reference is None or reference[2] is None or reference[2] < 2:
            continue
        tables, start, want = reference
        assert _one_pass(tables, start, want)[1] == want, board
        below = _one_pass(tables, start, want - 1)
        assert below[1] is None and below[2], board
        checked += 1
        if checked == 40:
            break
    assert checked == 40


@needs_native
def test_the_cleared_bound_is_never_above_the_distance_from_any_position_of_a_reachable_set() -> None:
    """The pass of bound d from a position at distance d to its nearest win finds a solution of d
    moves, and the pass of bound d - 1 finds none, for positions of every distance in the reachable sets
    of crowded boards (distances by breadth-first layers from the won positions): the bound, with its
    cycles of orders (one move more each), never exceeds what is left at any position a pass reaches."""
    rng = random.Random(71)
    positions = boards = tight = 0
    for _ in range(2_000):
        size = (rng.randint(6, 7), rng.randint(6, 7))
        area = size[0] * size[1]
        board = random_board(rng, wrap=False, size=size, count=rng.randint(area // 4, area // 3), walls=rng.randint(0, 2))
        tables = Tables(board.layout, "moves")
        start = tables.pack(board.state)
        try:
            every = reachable(tables, start, Limits(max_states=3_000))
        except LimitReachedError:
            continue
        won = [z for z in every if tables.is_won(z)]
        if not won or len(every) < 50:
            continue
        rings = bfs.layers(tables, won, Limits())
        deepest = len(rings) - 1
        if deepest < 6:
            continue
        boards += 1
        for distance, ring in enumerate(rings):
            if distance < 2:
                continue
            for z in ring[:: max(1, len(ring) // 40)]:
                assert _one_pass(tables, z, distance)[1] == distance, (board, tables.unpack(z), distance)
                below = _one_pass(tables, z, distance - 1)
                assert below[1] is None, (board, tables.unpack(z), distance)
                # a pass of bound d - 1 that stores the position alone: its successors' bounds are tight
                tight += below[3] == 1
                positions += 1
        if boards == 25:
            break
    assert boards == 25 and positions > 2_000
    assert tight > 1_000  # the bound is tested where it is tight: 4,962 of 7,147 positions


# A 12x12 board of 42 vehicles whose goal's blockers leave only by pushing vehicles of their own lanes.
OPEN12_PUSHED = Path(__file__).parent / "data" / "open12_pushed.txt"


@needs_native
def test_the_cleared_bound_follows_the_vehicles_a_blocker_pushes_along_its_lane() -> None:
    """On open12-05 the cleared bound at the start's successors is 13 (5 without the pushes): the pass of
    bound 13 leaves the start unexpanded, and the pass of bound 14 proves within a thousand positions
    that no solution has 14 moves or fewer (the optimum is 15)."""
    board = read_file(str(OPEN12_PUSHED))[0].board
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    cap = 100_000  # a weaker bound would make these passes run for minutes: stop them early instead
    assert _one_pass(tables, start, 13, cap) == (0, None, True, 1)
    status, got, pruned, stored = _one_pass(tables, start, 14, cap)
    assert (status, got, pruned) == (0, None, True) and 1 < stored < 1_000


@needs_native
def test_the_cleared_bound_is_searched_only_as_far_as_a_pass_needs() -> None:
    """A pass asks whether a position's cleared bound exceeds what its depth leaves, so the search over
    the sides stops every choice there: its budget then covers every choice, and the bound is the full
    one, with the cycles of orders counted.  On crowd12-04 the
    passes of bounds 18 and 19 prove their bound within 10,000 and 150,000 positions (6,616 and
    113,160; with each vehicle counted once, 1,320,975 and 7,143,451, and 25,355,870 for bound 18 when
    the budget ran out first), and the pass of bound 16 keeps the start only."""
    board = read_file(str(CROWD12_LONG))[0].board
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    assert _one_pass(tables, start, 16, 1_000) == (0, None, True, 1)
    status, got, pruned, stored = _one_pass(tables, start, 18, 10_000)
    assert (status, got, pruned) == (0, None, True) and stored > 1_000
    assert _one_pass(tables, start, 19, 150_000)[:3] == (0, None, True)


def _threaded(tables: Tables, start: int, bound: int, threads: int, cap: int = 0) -> tuple[object, ...]:
    """What one pass on ``threads`` threads answers: status, path, proven bound, pruned, and the positions
    stored when it ended without a solution (with one, the count of the layer under way depends on how
    far the other threads had got in it)."""
    module = native.compiled
    assert module is not None
    spec, state = tables.native_spec(), tables.unpack(start)
    status, stored, path, proven, pruned = module.frontier(spec, state, cap, 0.0, False, bound, None, threads)
    return status, path, proven, pruned, None if path else stored


@needs_native
def test_a_pass_answers_the_same_on_any_number_of_threads() -> None:
    """The threads expand a layer's positions in blocks and merge what they gather: the layers are the
    same sets, so a pass stores the same positions, proves the same bound and finds the same shortest
    solution (the one of the first position in the layer's order) on one thread as on two or three, with
    and without a bound.  Boards whose layers are large enough to be shared between threads."""
    module = native.compiled
    assert module is not None
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        size = (rng.randint(7, 9), rng.randint(7, 9))
        board = random_board(rng, wrap=False, size=size, count=rng.randint(14, 22), walls=rng.randint(0, 2))
        tables = Tables(board.layout, "moves")
        start = tables.pack(board.state)
        if tables.is_won(start):
            continue
        status, stored = module.frontier(tables.native_spec(), tables.unpack(start), 200_000, 0.0)[:2]
        if status != 1 or stored < 60_000:  # layers of thousands of positions are shared between threads
            continue
        alone = _threaded(tables, start, 0, 1)
        assert alone == _threaded(tables, start, 0, 2) == _threaded(tables, start, 0, 3), board
        path = alone[1]
        assert isinstance(path, list)
        verify(board, moves_of_path(tables, [tables.pack(s) for s in path]))
        optimum = len(path) - 1
        for bound in (optimum - 1, optimum):
            assert _threaded(tables, start, bound, 1) == _threaded(tables, start, bound, 3), (board, bound)
        checked += 1
        if checked == 3:
            break
    assert checked == 3
    # a pass of crowd12-04 that ends empty, its bound leaving out most positions
    board = read_file(str(CROWD12_LONG))[0].board
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    alone = _threaded(tables, start, 19, 1)
    assert alone[:2] == (0, None) and alone[3] and int(alone[4]) > 100_000  # type: ignore[call-overload]
    assert _threaded(tables, start, 19, 3) == alone


@needs_native
def test_a_pass_on_several_threads_stops_close_to_max_states() -> None:
    """Every thread counts the others' buffers and sorts its own out as the count nears ``max_states``,
    so a pass stopped by it on two or three threads stores at most a few blocks' successors more than the
    limit (about 4,000 for each block of 256 positions on this board; three threads on two cores wait
    for each other), as on one (the pass of bound 21 on crowd12-04 would store 7 million)."""
    board = read_file(str(CROWD12_LONG))[0].board
    tables = Tables(board.layout)
    module = native.compiled
    assert module is not None
    spec, state = tables.native_spec(), tables.unpack(tables.pack(board.state))
    for threads in (1, 2, 3):
        status, stored, path, _, _ = module.frontier(spec, state, 300_000, 0.0, False, 21, None, threads)
        assert status == 2 and path is None
        assert 300_000 < stored <= 320_000, (threads, stored)


@needs_native
def test_the_bounded_passes_hand_over_to_one_pass_without_a_bound_once_a_pass_barely_grows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a board whose reachable set is small, each pass ends up holding most of it and the passes still
    to come would cost more than one search without a bound: the first pass of at least ``SMALL_PASS``
    positions that stores fewer than ``GROWTH_FLOOR`` times the one before is the last bounded one, the
    next has no bound, and that one finds the optimum.  (crowd9-03, 25 moves: with the floor the passes
    hand over at bound 20, five short of the optimum.)"""
    from rushhour.search import frontier as frontier_module

    passes: list[tuple[int, int]] = []
    run = frontier_module._pass

    def spy(*args: object, **kwargs: object) -> tuple[int, int, list[int] | None, int, int]:
        answer = run(*args, **kwargs)  # type: ignore[arg-type]
        passes.append((int(args[4]), answer[1]))  # type: ignore[call-overload]
        return answer

    monkeypatch.setattr(frontier_module, "_pass", spy)
    board = read_file(str(DATA / "crowd9_small_set.txt"))[0].board
    tables = Tables(board.layout)
    found = frontier(tables, tables.pack(board.state), Limits())
    assert found is not None and found[0] is not None
    assert verify(board, moves_of_path(tables, found[0])).is_won() and len(found[0]) - 1 == 25
    bounds = [bound for bound, _ in passes]
    assert bounds[-1] == 0 and 0 not in bounds[:-1]  # one pass without a bound, the last
    stored = [n for _, n in passes[:-1]]
    floor, small = frontier_module.GROWTH_FLOOR, frontier_module.SMALL_PASS
    barely = [k for k in range(1, len(stored)) if stored[k] >= small and stored[k] < floor * stored[k - 1]]
    assert barely == [len(stored) - 1]  # the hand-over came at the first pass that barely grew
    assert bounds[-2] <= 25 - 4  # well before the bounded passes reach the optimum (22 with a floor of 1.25)
