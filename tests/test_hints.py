"""A hint counts once per position of a game: asking again where one was given tells nothing new.

The level is TINY of tests/boards.py (B-1 then A+3 wins in 2 moves); the searches run in place.
"""

from __future__ import annotations

from collections.abc import Sequence

from rushhour.board import Board, Move
from rushhour.formats import parse_text
from rushhour.logic.oracle import legal_moves
from rushhour.play.game import Game
from rushhour.search import solve
from tests.boards import TINY


def optimal_moves(board: Board) -> Sequence[Move] | None:
    solution = solve(board)
    return solution.moves if solution.solved else None


def tiny_game() -> Game:
    board = parse_text(TINY, source="test", fmt="grid")[0].board
    return Game(board, legal_moves=legal_moves, solver=optimal_moves)


def hinted(game: Game) -> Move:
    move = game.hint()
    assert move is not None
    return move


def test_a_hint_asked_twice_in_one_position_counts_once() -> None:
    game = tiny_game()
    first = game.hint()
    assert game.hint() == first == Move("B", -1)
    assert game.hints_used == 1


def test_a_hint_asked_again_after_an_undo_brought_the_game_back_counts_once() -> None:
    game = tiny_game()
    game.hint()
    game.play("B-1")
    game.undo()
    assert game.hint() == Move("B", -1)
    assert game.hints_used == 1
    game.play("C+1")
    game.reset()  # back to the start another way
    game.hint()
    assert game.hints_used == 1


def test_a_hint_in_each_new_position_counts_and_the_win_says_how_many() -> None:
    game = tiny_game()
    game.play(hinted(game))
    game.hint()
    game.hint()
    assert game.hints_used == 2
    game.play(hinted(game))
    result = game.result()
    assert game.won and result.hints == 2 and not result.perfect
