"""The frontier search (sorted layers of 16-byte keys, no parents) against plain breadth-first search:
the same optimal lengths, the same reachable-set sizes on unsolvable boards, every path replayed by the
rules, and a stopped search's lower bound never above the optimum."""

from __future__ import annotations

import random

import pytest

from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman
from rushhour.search import solve
from rushhour.search.bfs import Limits, native_available, shortest_python
from rushhour.search.frontier import frontier, frontier_wanted
from rushhour.search.solution import moves_of_path, verify
from rushhour.search.tables import Tables
from tests.strategies import random_board, random_walk
from tests.test_search_core import boards_of_every_kind
from tests.test_search_native import DATA

needs_native = pytest.mark.skipif(not native_available(), reason="the compiled search is not built")


def _length(path: list[int] | None) -> int | None:
    return None if path is None else len(path) - 1


@needs_native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_same_lengths_as_breadth_first_on_boards_of_every_kind(metric: str) -> None:
    served = solved = 0
    for board in boards_of_every_kind(41 if metric == "moves" else 43, 160, dense=True):
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
    assert served >= 60 and solved >= 30


@needs_native
def test_same_lengths_as_the_reference_slice() -> None:
    for line in DATA.read_text().splitlines()[:150]:
        board, meta = fogleman.parse_line(line)
        tables = Tables(board.layout)
        found = frontier(tables, tables.pack(board.state), Limits())
        assert found is not None and found[0] is not None
        assert len(found[0]) - 1 == int(meta["moves"]), line
        verify(board, moves_of_path(tables, found[0]))


@needs_native
def test_a_stopped_search_reports_a_proven_lower_bound() -> None:
    checked = 0
    for line in DATA.read_text().splitlines()[:60]:
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
        assert f"no solution is shorter than {bound} moves" in str(stopped.value)
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
