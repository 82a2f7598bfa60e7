"""Solvers and cluster analysis against the reference database, and the solution replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from rushhour.board import Board, Move
from rushhour.errors import IllegalMoveError, SolverError
from rushhour.formats import fogleman
from rushhour.search import Solution, analyze, solve, verify

DATA = Path(__file__).parent / "data" / "fogleman_slice_solve.txt"
HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"


def database() -> list[tuple[Board, int, int]]:
    out = []
    for number, line in enumerate(DATA.read_text().splitlines(), start=1):
        board, meta = fogleman.parse_line(line, str(DATA), number)
        out.append((board, int(meta["moves"]), int(meta["cluster"])))
    return out


def test_slice_is_the_expected_one() -> None:
    rows = database()
    assert len(rows) == 160
    assert any(b.walls for b, _, _ in rows)
    assert max(m for _, m, _ in rows) == 60


def test_bfs_gives_the_database_moves() -> None:
    for board, moves, _ in database():
        solution = solve(board)
        assert solution.solved and solution.optimal
        assert solution.length == moves, board
        assert solution.engine == "bfs" and solution.metric == "moves"
        assert solution.positions()[-1].is_won()
        assert len(solution.positions()) == moves + 1


def test_analyze_gives_the_database_clusters() -> None:
    for board, moves, cluster in database():
        analysis = analyze(board)
        assert analysis.cluster_size == cluster, board
        assert analysis.start_distance == moves
        assert analysis.hardest_distance >= moves
        assert sum(analysis.histogram.values()) == cluster
        assert analysis.histogram[0] == analysis.won_count
        assert analysis.hardest_distance == max(analysis.histogram)


def test_hardest_position_and_cluster_key_are_consistent() -> None:
    board = fogleman.parse_line(HARDEST)[0]
    analysis = analyze(board)
    assert analysis.hardest_distance == 51 and analysis.cluster_size == 4780
    again = analyze(analysis.hardest)
    assert again.cluster_key == analysis.cluster_key
    assert again.start_distance == 51
    assert solve(analysis.hardest).length == 51
    # the cluster key is itself a position of the cluster, with the same key
    keyed = analyze(board.with_state(analysis.cluster_key))
    assert keyed.cluster_key == analysis.cluster_key and keyed.cluster_size == 4780


def test_won_board_needs_no_moves() -> None:
    board = fogleman.parse_line("ooooooooooooooooAAoooooooooooooooooo")[0]
    solution = solve(board)
    assert solution.solved and solution.optimal and solution.moves == () and solution.steps == 0
    assert analyze(board).start_distance == 0


def test_unsolvable_board_is_proved_so() -> None:
    # a wall between the goal car and the exit
    board = fogleman.parse_line("ooooooooooooAAoxooBoooooBooooooooooo")[0]
    solution = solve(board)
    assert not solution.solved and solution.optimal and solution.moves == ()
    analysis = analyze(board)
    assert solution.explored == analysis.cluster_size == 8
    assert analysis.start_distance == -1 and analysis.hardest_distance == -1
    assert analysis.histogram == {} and analysis.won_count == 0
    assert analysis.hardest.state == analysis.cluster_key
    assert "unsolvable" in solution.describe()


def test_verify_replays_by_the_reference_rules() -> None:
    board = fogleman.parse_line("ooBoooooBoooAABooooooooooooooooooooo")[0]
    final = verify(board, [Move("B", 3), Move.parse("A+4")])
    assert final.is_won()
    with pytest.raises(IllegalMoveError, match="move 1"):
        verify(board, [Move("A", 1)])
    with pytest.raises(SolverError, match="not at its exit"):
        verify(board, [Move("B", 3)])
    solution = solve(board)
    assert isinstance(solution, Solution)
    assert [str(m) for m in solution.moves] == ["B+3", "A+4"]
    assert solution.steps == sum(abs(m.distance) for m in solution.moves)


def test_steps_metric_counts_single_cells() -> None:
    board = fogleman.parse_line("ooBoooooBoooAABooooooooooooooooooooo")[0]
    solution = solve(board, metric="steps")
    assert solution.length == solution.steps == 7 and all(m.steps == 1 for m in solution.moves)
    assert analyze(board, metric="steps").start_distance == 7
