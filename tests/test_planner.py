"""The SAT planner against a plain breadth-first search over the reference rules."""

from __future__ import annotations

import random

import pytest

from rushhour.board import HORIZONTAL, VERTICAL, Board, Target, Vehicle
from rushhour.errors import LimitReachedError, MoveError, SolverError
from rushhour.formats.fogleman import parse_line
from rushhour.levels import resolve_board
from rushhour.logic.planner import plan
from tests.boards import DATA
from tests.strategies import any_board, bfs_distance


def replays_to_win(board: Board, moves: list) -> bool:
    for move in moves:
        board = board.apply(move)
    return board.is_won()


def test_agrees_with_bfs_on_small_generated_boards() -> None:
    rng = random.Random(21)
    checked = {"moves": 0, "steps": 0}
    unsolvable = 0
    for _ in range(90):
        board = any_board(rng, min_side=4, max_side=6)
        for metric in ("moves", "steps"):
            want = bfs_distance(board, metric)
            if want is None or want > 14:
                continue
            if want < 0:
                result = plan(board, metric=metric, max_moves=6)
                assert result.moves is None and result.bound == 6 and not result.optimal
                unsolvable += 1
                continue
            result = plan(board, metric=metric)
            assert result.moves is not None, board
            assert len(result.moves) == want, f"{metric}: SAT {result.moves}, BFS {want}\n{board}"
            assert result.optimal and result.bound == want - 1
            assert replays_to_win(board, result.moves)
            if metric == "steps":
                assert all(abs(m.distance) == 1 for m in result.moves)
            checked[metric] += 1
    assert checked["moves"] >= 60 and checked["steps"] >= 60 and unsolvable >= 1, (checked, unsolvable)


def test_database_optimal_lengths() -> None:
    lines = (DATA / "fogleman_slice_logic.txt").read_text().splitlines()
    short = sorted(lines, key=lambda line: int(line.split()[0]))[:8]
    for line in short:
        board, meta = parse_line(line)
        result = plan(board)
        assert result.moves is not None and len(result.moves) == int(meta["moves"])
        assert result.optimal and replays_to_win(board, result.moves)


def test_wrap_around_and_vertical_goal() -> None:
    wrap = Board(
        5,
        4,
        [
            Vehicle("A", HORIZONTAL, 2, 1, 0),
            Vehicle("B", VERTICAL, 2, 0, 3),
            Vehicle("C", HORIZONTAL, 2, 3, 2),
        ],
        target=Target(1, 4, "east"),
        wrap=True,
    )
    vertical = Board(
        5, 5, [Vehicle("A", VERTICAL, 2, 3, 1), Vehicle("B", HORIZONTAL, 3, 1, 0)], goal="A", exit="top"
    )
    for board in (wrap, vertical):
        for metric in ("moves", "steps"):
            result = plan(board, metric=metric)
            assert result.moves is not None
            assert len(result.moves) == bfs_distance(board, metric)
            assert replays_to_win(board, result.moves)


def test_won_board_needs_no_move() -> None:
    board = resolve_board("....AA/....../......").board
    result = plan(board)
    assert result.moves == [] and result.optimal and result.bound == -1


def test_limits() -> None:
    hardest = parse_line("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")[0]
    with pytest.raises(LimitReachedError, match="time limit"):
        plan(hardest, time_limit=0.05)
    result = plan(hardest, max_moves=3)
    assert result.moves is None and result.bound == 3 and not result.optimal
    with pytest.raises(SolverError, match="max_moves"):
        plan(hardest, max_moves=-1)
    with pytest.raises(MoveError, match="unknown metric"):
        plan(hardest, metric="jumps")


def test_wall_on_the_exit_cell() -> None:
    board = Board(5, 3, [Vehicle("A", HORIZONTAL, 2, 1, 0)], walls=[(1, 4)])
    result = plan(board, max_moves=4)
    assert result.moves is None and not result.optimal
