"""The improve engine's shortening passes and the SAT planner's bounds, against plain search."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rushhour.board import Board, Move
from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman, grid, read_file
from rushhour.logic.planner import plan, relaxed_bound
from rushhour.logic.sat import _interruptible
from rushhour.search import solve, verify
from rushhour.search.bfs import Limits
from rushhour.search.shorten import _Rules, eliminate, shorten, shortest_within, steps_of
from rushhour.search.solution import moves_of_path
from rushhour.search.tables import tables_for
from rushhour.search.walk import IMPROVE_WALKS, random_walk, walks
from tests.boards import DATA
from tests.strategies import any_board, bfs_distance

# the crowd9-04 board of bench/large/boards9.txt (optimal length 20, proved by bfs)
CROWD9 = """\
BCDDEEEFF
BCG.aaZZ.
HCGIIIJJJ
HKLMMN..O
HKL..NAAO
PKLQQQRST
PUUUVWRST
PbbYVWRST
XX.YVW...
"""


def solvable_cases(seed: int, count: int) -> Iterator[tuple[Board, str, int]]:
    """(board, metric, optimal length) of random small boards of every kind that BFS solves."""
    rng = random.Random(seed)
    for _ in range(count):
        board = any_board(rng, min_side=4, max_side=6)
        for metric in ("moves", "steps"):
            want = bfs_distance(board, metric, cap=5000)
            if want is not None and want >= 0:
                yield board, metric, want


def test_improve_replays_is_seeded_and_never_beats_bfs_on_every_kind() -> None:
    checked = 0
    for board, metric, want in solvable_cases(5, 60):
        found = solve(board, engine="improve", metric=metric, seed=3)
        assert found.solved and found.length >= want
        verify(board, found.moves)
        if metric == "steps":
            assert all(abs(m.distance) == 1 for m in found.moves)
        assert solve(board, engine="improve", metric=metric, seed=3).moves == found.moves
        checked += 1
    assert checked >= 40


def test_elimination_drops_a_vehicle_that_only_wanders_and_merges_slides() -> None:
    board = fogleman.parse_line("ooBoooooBoooAABoooooooooCCoooooooooo")[0]
    clumsy = [Move.parse(m) for m in ("C+1", "B+1", "C+2", "B-1", "C-3", "B+3", "A+4")]
    verify(board, clumsy)
    rules = _Rules(board.layout)
    kept = eliminate(rules, board.state, steps_of(board, clumsy), None)
    assert [str(m) for m in rules.moves(board.state, kept)] == ["B+3", "A+4"]


def test_improve_reaches_the_optimum_on_a_crowded_nine_by_nine() -> None:
    board = grid.parse_grid(CROWD9)
    optimum = solve(board).length
    assert optimum == 20
    walk = solve(board, engine="random", seed=1)
    assert walk.length > 3 * optimum
    shorter = shorten(board, walk.moves, tables_for(board.layout))
    verify(board, shorter)
    assert optimum <= len(shorter) <= 1.5 * optimum


def test_the_walks_give_chains_to_a_win_shortest_first_the_seed_walk_among_them() -> None:
    checked = 0
    for board, metric, want in solvable_cases(8, 30):
        if want == 0:
            continue
        tables = tables_for(board.layout, metric)
        start = tables.pack(board.state)
        chains, made = walks(tables, start, Limits(), 4, None)
        assert 1 <= len(chains) <= IMPROVE_WALKS and made > 0
        assert [len(c) for c in chains] == sorted(len(c) for c in chains)
        for chain in chains:
            assert chain[0] == start and tables.is_won(chain[-1]) and len(chain) - 1 >= want
            verify(board, moves_of_path(tables, chain))
        own, _ = random_walk(tables, start, Limits(), 4)
        assert shortest_within(tables, start, set(own)) in chains  # the random engine's walk, cut
        assert walks(tables, start, Limits(), 4, None) == (chains, made)  # seeded
        checked += 1
    assert checked >= 20


@pytest.mark.slow  # 15 to 35 s; improve is replayed and seeded by the test above in the default suite
def test_improve_on_an_open_twelve_by_twelve_board_whose_single_walk_stays_long() -> None:
    """With seed 1 the random engine's walk cuts down to about 12,700 moves, which the passes cannot
    bring near the optimum (at least 13 moves) in a minute; the other walks give short chains."""
    board = read_file(str(DATA / "open12.txt"))[0].board
    tables = tables_for(board.layout)
    start = tables.pack(board.state)
    own, _ = random_walk(tables, start, Limits(), 1)
    assert len(shortest_within(tables, start, set(own)) or own) > 10_000
    chains, _ = walks(tables, start, Limits(), 1, None)
    assert len(chains[0]) < 1000
    found = solve(board, engine="improve", seed=1, time_limit=60)
    verify(board, found.moves)
    assert 13 <= found.length <= 19  # within 1.5 times the optimum if it is 13 (no shorter exists)


def test_relaxed_bound_never_exceeds_the_optimum() -> None:
    seen = 0
    for board, metric, want in solvable_cases(21, 150):
        assert relaxed_bound(board, metric) <= want, (metric, board)
        seen += 1
    assert seen >= 100


def test_a_stopped_plan_carries_its_proven_lower_bound() -> None:
    board = fogleman.parse_line("BBBCCKDDDIoKAAHIoLGoHEELGoFFJoooooJo")[0]  # 33 moves
    with pytest.raises(LimitReachedError) as caught:
        plan(board, time_limit=0.3)
    bound = caught.value.lower_bound
    assert bound is not None and relaxed_bound(board) <= bound <= 33
    assert f"at least {bound} moves" in str(caught.value)


def test_a_ctrl_c_caught_by_the_sat_solver_is_an_interrupt_again() -> None:
    def caught() -> None:
        raise RuntimeError("Caught keyboard interrupt")

    with pytest.raises(KeyboardInterrupt):
        _interruptible(caught)
    with pytest.raises(RuntimeError, match="other"):
        _interruptible(lambda: (_ for _ in ()).throw(RuntimeError("other")))


def test_progress_records_come_from_a_long_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from rushhour.search import watch

    monkeypatch.setattr(watch, "INTERVAL", 0.0)
    board = grid.parse_grid(CROWD9)
    seen: list[watch.SearchProgress] = []
    solve(board, engine="astar", progress=seen.append)
    assert seen and all(r.engine == "astar" and r.what == "positions" for r in seen)
    counts = [r.count for r in seen]
    assert counts == sorted(counts) and counts[-1] > 1000
    assert "astar: " in seen[-1].describe() and "positions" in seen[-1].describe()


def test_the_cli_shows_progress_lines_when_asked(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from rushhour.cli import main
    from rushhour.search import watch

    monkeypatch.setattr(watch, "INTERVAL", 0.0)
    text = "/".join(CROWD9.split())
    assert main(["solve", "--engine", "astar", "--progress", text]) == 0
    err = capsys.readouterr().err
    assert "astar: " in err and "positions/s" not in err and "/s, " in err
    assert main(["solve", "--engine", "astar", text]) == 0
    assert capsys.readouterr().err == ""
