"""The search core against the reference rules: successor sets, shortest lengths and clusters on random
boards of every kind (walls, wrap-around, vertical goal cars, every exit side, 5x5 to 12x12, both
metrics), compared with a plain breadth-first search over ``Board.successors``."""

from __future__ import annotations

from collections import deque

import pytest

from rushhour.board import HORIZONTAL, VERTICAL, Board, Vehicle
from rushhour.errors import LimitReachedError, SolverError
from rushhour.search import analyze, native, solve
from rushhour.search.tables import ONE, TWO, Tables
from tests.strategies import boards_of_every_kind


def reference_cluster(board: Board, metric: str, cap: int) -> dict[Board, int] | None:
    """Every position reachable by the reference rules, with its distance from ``board``."""
    dist = {board: 0}
    queue = deque([board])
    while queue:
        b = queue.popleft()
        for _, nb in b.successors(metric):
            if nb not in dist:
                dist[nb] = dist[b] + 1
                if len(dist) > cap:
                    return None
                queue.append(nb)
    return dist


@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_successors_equal_reference_in_order(metric: str) -> None:
    kinds = set()
    for board in boards_of_every_kind(11, 300):
        tables = Tables(board.layout, metric)
        z = tables.pack(board.state)
        got = [tables.unpack(t) for t in tables.successors(z)]
        want = [b.state for _, b in board.successors(metric)]
        assert got == want, board
        for t in tables.successors(z):
            # the occupancy bits carried in the key are those of the position itself
            assert t == tables.pack(tables.unpack(t))
        kinds.add((board.wrap, board.exit.side if board.exit else board.target.heading))  # type: ignore[union-attr]
    assert len(kinds) == 8  # four exit sides, four wrap headings


@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_shortest_lengths_and_clusters_equal_reference(metric: str) -> None:
    compared = unsolvable = 0
    for board in boards_of_every_kind(23 if metric == "moves" else 29, 120, dense=True):
        ref = reference_cluster(board, metric, 1000)
        if ref is None:
            continue
        compared += 1
        wins = [b for b in ref if b.is_won()]
        analysis = analyze(board, metric=metric)
        assert analysis.cluster_size == len(ref)
        assert analysis.won_count == len(wins)
        assert analysis.cluster_key == min(b.state for b in ref)
        solution = solve(board, metric=metric)
        if not wins:
            unsolvable += 1
            assert not solution.solved and solution.optimal and solution.moves == ()
            assert solution.explored == len(ref)
            assert analysis.start_distance == analysis.hardest_distance == -1
            assert analysis.histogram == {}
            continue
        # distance to the nearest win, by a plain multi-source search over the reference cluster
        to_win = {b: 0 for b in wins}
        queue = deque(wins)
        while queue:
            b = queue.popleft()
            for _, nb in b.successors(metric):
                if nb not in to_win:
                    to_win[nb] = to_win[b] + 1
                    queue.append(nb)
        tables = Tables(board.layout, metric)
        for position, distance in to_win.items():
            if distance:
                assert_near_win_is_exact(tables, position, distance)
        assert solution.solved and solution.optimal
        assert solution.length == to_win[board] == analysis.start_distance
        if metric == "steps":
            assert all(abs(m.distance) == 1 for m in solution.moves)
        far = max(to_win.values())
        assert analysis.hardest_distance == far
        assert analysis.hardest.state == min(b.state for b, d in to_win.items() if d == far)
        histogram: dict[int, int] = {}
        for d in to_win.values():
            histogram[d] = histogram.get(d, 0) + 1
        assert analysis.histogram == histogram
    assert compared >= 40
    assert unsolvable >= 3


def assert_near_win_is_exact(tables: Tables, position: Board, distance: int) -> None:
    """The test the search makes on each discovered position: one move from a win, two moves (with the
    slides that win), or neither, against the true ``distance`` to the nearest win."""
    z = tables.pack(position.state)
    near = tables.near_win[z & tables.goal_mask]
    if distance == 1:
        assert near and near[0] == ONE
        assert tables.is_won(z + near[1])
        return
    assert not near or near[0] != ONE
    slides: tuple[int, ...] = ()
    if near and near[0] == TWO:
        slides = near[1:]
    elif near:
        slides = tables.two_moves(z, near[1:])
    if slides:
        assert distance == 2 and tables.is_won(z + slides[0] + slides[1])
        assert z + slides[0] in tables.successors(z)
    elif tables.two_moves_complete:
        assert distance > 2, position


def test_limits_stop_cleanly() -> None:
    board = Board(
        9,
        9,
        [Vehicle("A", HORIZONTAL, 2, 4, 0), Vehicle("B", VERTICAL, 2, 0, 8), Vehicle("C", VERTICAL, 3, 0, 5)]
        + [Vehicle(n, HORIZONTAL, 2, r, 0) for n, r in (("D", 0), ("E", 2), ("F", 6), ("G", 8))],
        walls=[(4, 7)],
    )
    with pytest.raises(LimitReachedError) as caught:
        solve(board, max_states=500)
    assert caught.value.explored > 500
    with pytest.raises(LimitReachedError):
        analyze(board, max_states=500)
    with pytest.raises(SolverError):
        solve(board, max_states=0)
    with pytest.raises(SolverError):
        solve(board, time_limit=-1)
    with pytest.raises(SolverError, match="unknown engine"):
        solve(board, engine="magic")


def test_shared_tables_give_the_same_answers_when_the_registry_is_emptied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Vehicle tables are shared between layouts; a full registry is emptied and searches go on (the
    Python search: the compiled one does not use the tables)."""
    import rushhour.search.tables as tables_module

    monkeypatch.setattr(native, "native_enabled", lambda: False)
    boards = [b for b in boards_of_every_kind(41, 60, dense=True) if reference_cluster(b, "moves", 1000)]
    want = [solve(b).length for b in boards]
    assert len(boards) >= 20
    monkeypatch.setattr(tables_module, "SHARED_ENTRIES", 50)
    monkeypatch.setattr(tables_module, "_SHARED", {})
    monkeypatch.setattr(tables_module, "_SHARED_COUNT", [0])
    tables_module.cached_tables.cache_clear()  # tables built from here on use the small registry
    emptied = 0
    for board, length in zip(boards, want, strict=True):
        before = tables_module._SHARED_COUNT[0]
        assert solve(board).length == length
        emptied += tables_module._SHARED_COUNT[0] < before
    assert emptied > 0  # the cap was reached and the registry started again
    assert len(tables_module._SHARED) < 200


def test_two_layouts_with_a_common_vehicle_share_its_table() -> None:
    one = Board(6, 6, [Vehicle("A", HORIZONTAL, 2, 2, 0), Vehicle("B", VERTICAL, 3, 0, 4)])
    two = Board(6, 6, [Vehicle("A", HORIZONTAL, 2, 2, 1), Vehicle("B", VERTICAL, 3, 1, 4)], walls=[(0, 0)])
    first, second = Tables(one.layout), Tables(two.layout)
    assert first.singles[1] is second.singles[1]
    assert [solve(b).length for b in (one, two)] == [2, 2]
