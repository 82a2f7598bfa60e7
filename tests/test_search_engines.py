"""The engines against each other: astar and sat lengths equal bfs lengths, the bounds are admissible,
random and improve give replayable solutions, and limits stop every engine cleanly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rushhour.board import HORIZONTAL, VERTICAL, Board, Move, Vehicle
from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman
from rushhour.search import ENGINES, HEURISTICS, analyze, improve, solve, verify
from rushhour.search.bfs import Limits, layers, reachable, shortest_python
from rushhour.search.heuristics import IMPOSSIBLE, heuristic
from rushhour.search.memory import MemoryBudget
from rushhour.search.shorten import _keys, neighbourhood, shortcuts
from rushhour.search.tables import Tables
from rushhour.search.walk import improve_search, random_walk

from .test_search_core import boards_of_every_kind

DATA = Path(__file__).parent / "data" / "fogleman_slice_solve.txt"


def database(every: int = 1) -> list[tuple[Board, int]]:
    lines = DATA.read_text().splitlines()[::every]
    return [(fogleman.parse_line(line)[0], int(fogleman.parse_line(line)[1]["moves"])) for line in lines]


def test_engines_are_the_contract() -> None:
    assert ENGINES == ("portfolio", "bfs", "astar", "sat", "random", "improve")
    assert set(HEURISTICS) == {"blocked", "blockers", "zero"}


@pytest.mark.parametrize("name", ["blocked", "blockers"])
def test_astar_gives_the_database_moves(name: str) -> None:
    for board, moves in database(every=2):
        solution = solve(board, engine="astar", heuristic=name)
        assert solution.solved and solution.optimal and solution.length == moves, board


@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_bounds_are_admissible_and_astar_optimal_on_every_kind(metric: str) -> None:
    """Every bound is at most the true distance to a win, on every position of small clusters of
    every board kind; astar's length equals bfs's."""
    checked = 0
    for board in boards_of_every_kind(41 if metric == "moves" else 43, 90, dense=True):
        tables = Tables(board.layout, metric)
        start = tables.pack(board.state)
        try:
            cluster = reachable(tables, start, Limits(max_states=600))
        except LimitReachedError:
            continue
        checked += 1
        wins = sorted(z for z in cluster if tables.is_won(z))
        distance = {z: d for d, ring in enumerate(layers(tables, wins, Limits())) for z in ring}
        bounds = [heuristic(tables, name) for name in ("blockers", "blocked")]
        for z in cluster:
            low, high = bounds[0](z), bounds[1](z)
            assert low <= high
            if z in distance:
                assert high <= distance[z], (board, tables.board(z))
            else:
                assert high <= IMPOSSIBLE
        bfs = solve(board, metric=metric)
        for name in HEURISTICS:
            star = solve(board, engine="astar", metric=metric, heuristic=name)
            assert star.solved == bfs.solved and star.length == bfs.length and star.optimal
            if not bfs.solved:
                assert star.explored == bfs.explored == len(cluster)
    assert checked >= 25


def test_bounds_see_boxed_in_blockers() -> None:
    # B stands in A's way and can only clear it by going down, where C sits: one more move at least
    board = Board(
        6,
        6,
        [
            Vehicle("A", HORIZONTAL, 2, 2, 0),
            Vehicle("B", VERTICAL, 3, 0, 3),
            Vehicle("C", HORIZONTAL, 2, 3, 2),
            Vehicle("D", HORIZONTAL, 2, 0, 4),
        ],
        walls=[(1, 2)],
    )
    tables = Tables(board.layout)
    z = tables.pack(board.state)
    assert heuristic(tables, "blockers")(z) == 2
    assert heuristic(tables, "blocked")(z) == 3
    assert solve(board).length == 3


def test_sat_agrees_with_bfs_on_small_boards() -> None:
    pytest.importorskip("rushhour.logic.planner")
    for board, moves in database(every=16):
        if moves > 12:
            continue
        solution = solve(board, engine="sat", time_limit=60)
        assert solution.solved and solution.optimal and solution.length == moves
    small = Board(5, 5, [Vehicle("A", VERTICAL, 2, 3, 1), Vehicle("B", HORIZONTAL, 2, 1, 0)], exit="top")
    for metric in ("moves", "steps"):
        assert solve(small, engine="sat", metric=metric).length == solve(small, metric=metric).length


def test_sat_stops_at_its_move_bound() -> None:
    pytest.importorskip("rushhour.logic.planner")
    board = database()[-1][0]
    with pytest.raises(LimitReachedError, match="no plan of 3 moves or fewer"):
        solve(board, engine="sat", max_moves=3)


@pytest.mark.slow  # 15 s; test_shorten replays and seeds improve in the default suite
def test_random_and_improve_replay_and_are_seeded() -> None:
    for board, moves in database(every=20):
        walk = solve(board, engine="random", seed=7)
        assert walk.solved and walk.length >= moves
        verify(board, walk.moves)
        again = solve(board, engine="random", seed=7)
        assert again.moves == walk.moves
        better = solve(board, engine="improve", seed=7)
        assert better.solved and moves <= better.length <= walk.length
        assert not better.optimal or better.length <= 1
        shorter = improve(board, walk.moves)
        assert len(shorter) == better.length
        verify(board, shorter)


def test_improve_cuts_loops_and_merges_slides() -> None:
    board = fogleman.parse_line("ooBoooooBoooAABooooooooooooooooooooo")[0]
    clumsy = [Move.parse(m) for m in ("B+1", "B-1", "B+1", "B+1", "B+1", "A+2", "A+2")]
    verify(board, clumsy)
    assert [str(m) for m in improve(board, clumsy)] == ["B+3", "A+4"]
    steps = [Move.parse(m) for m in ("B+1", "B+1", "B-1", "B+1", "B+1", "A+1", "A+1", "A+1", "A+1")]
    assert len(improve(board, steps, "steps")) == 7


class _Spent(MemoryBudget):
    """A memory budget the process has grown past already (the improve engine's passes must stop)."""

    def exceeded(self) -> bool:
        return True


def test_improve_stops_shortening_past_its_memory_budget() -> None:
    """The improve engine kept to its walks' memory only: its extra walks and the shortening passes
    (tables, neighbourhoods of up to 50,000 positions, shortcut searches) ignored ``max_memory``, so
    ``solve full16 --engine improve --max-memory 100`` grew the process by about 180 MB; past the
    budget it now makes no more walks and cuts the passes short, the solution so far replayed."""
    board = fogleman.parse_line("ooBoooooBoooAABooooooooooooooooooooo")[0]
    tables = Tables(board.layout, "moves")
    limits = Limits(None, 30.0, None)
    limits.memory = _Spent(1)
    moves, made = improve_search(board, "moves", limits, 7)
    verify(board, moves)
    _, first = random_walk(tables, tables.pack(board.state), Limits(None, 30.0, None), 7)
    assert made == first  # the first walk alone: no other walk once the budget is spent
    clumsy = [Move.parse(m) for m in ("B+1", "B-1", "B+1", "B+1", "B+1", "A+2", "A+2")]
    keys = _keys(tables, board, clumsy)
    # the passes that search (neighbourhoods, shortcuts) do nothing once the budget is spent
    assert neighbourhood(tables, keys, 50_000, None, _Spent(1)) == neighbourhood(tables, keys, 0, None)
    assert shortcuts(tables, keys, 3_000, None, _Spent(1)) == keys
    assert len(shortcuts(tables, keys, 3_000, None)) < len(keys)


def test_random_gives_up_cleanly() -> None:
    board = fogleman.parse_line("ooooooooooooAAoxooBoooooBooooooooooo")[0]  # unsolvable
    with pytest.raises(LimitReachedError) as caught:
        solve(board, engine="random", max_states=10_000, seed=1)
    assert caught.value.explored >= 10_000


@pytest.mark.parametrize("engine", ["bfs", "astar"])
def test_limits_of_the_exhaustive_engines(engine: str) -> None:
    board = database()[-1][0]
    with pytest.raises(LimitReachedError):
        solve(board, engine=engine, max_states=100)
    assert analyze(board).cluster_size > 100


def test_big_boards_solve_to_proven_optimality() -> None:
    """A 9x9 board with 22 vehicles and a 12x12 board with 30: bfs and astar agree, optimal."""
    rng = random.Random(2024)
    for size, count, seed in ((9, 22, 5), (12, 30, 8)):
        board = _crowded(rng, size, count, seed)
        assert len(board.names) == count
        bfs = solve(board, max_states=400_000)
        star = solve(board, engine="astar", max_states=400_000)
        assert bfs.solved and bfs.optimal and star.optimal and star.length == bfs.length >= 3


def _crowded(rng: random.Random, size: int, count: int, seed: int) -> Board:
    """A crowded solvable board: random vehicles around a goal car on the middle row."""
    rng.seed(seed)
    while True:
        row = size // 2
        vehicles = [Vehicle("A", HORIZONTAL, 2, row, 0)]
        taken = {(row, 0), (row, 1)}
        names = iter([chr(c) for c in range(ord("B"), ord("Z") + 1)] + [f"v{k}" for k in range(40)])
        tries = 0
        while len(vehicles) < count and tries < 5000:
            tries += 1
            horizontal = rng.random() < 0.5
            length = rng.choice((2, 2, 3))
            r, c = rng.randrange(size), rng.randrange(size)
            cells = [(r, c + k) if horizontal else (r + k, c) for k in range(length)]
            if horizontal and r == row:
                continue
            if any(not (0 <= a < size and 0 <= b < size) or (a, b) in taken for a, b in cells):
                continue
            taken.update(cells)
            vehicles.append(Vehicle(next(names), HORIZONTAL if horizontal else VERTICAL, length, r, c))
        board = Board(size, size, vehicles)
        try:
            found = solve(board, max_states=200_000)
        except LimitReachedError:
            continue
        if found.solved and found.length >= 3:
            return board


BIG9 = [
    "..GGQQXX.",
    "...CCCZZY",
    "ggEEEPPLY",
    "VVbDD..LH",
    "h.bAA..cH",
    "hJJSSNNcB",
    "ITfFFUUMB",
    "ITf.OeeMB",
    "IKK.OddWW",
]


def test_nine_by_nine_with_32_vehicles() -> None:
    """The farthest position from a win of a 9x9 cluster of 313,128 positions (see bench/solve.py)."""
    from rushhour.levels import resolve_board

    board = resolve_board("/".join(BIG9)).board
    assert (board.width, board.height, len(board.names)) == (9, 9, 32)
    bfs = solve(board)
    star = solve(board, engine="astar")
    assert bfs.optimal and star.optimal and bfs.length == star.length == 10
    # A*'s bound spares most of a plain breadth-first search's work (the bfs engine, on boards larger
    # than 6x6, runs bounded passes of its own: bench/frontier.py compares them)
    tables = Tables(board.layout)
    plain = shortest_python(tables, tables.pack(board.state), Limits())
    assert plain[0] is not None and len(plain[0]) - 1 == 10
    assert plain[1] > 2 * star.explored
