"""The play session as a state machine, apart from the terminal.

The move source and the solver are injected: the reference rules (Board.legal_moves) and a small
breadth-first search written here, so these tests check the game alone; optimal counts are compared
with the reference database slice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rushhour.board import Board, Move
from rushhour.errors import GameError, IllegalMoveError, MoveError, RushHourError, UnknownVehicleError
from rushhour.formats import parse_text
from rushhour.play.game import Game
from tests.native import needs_native

DATA = Path(__file__).parent / "data" / "fogleman_slice_play.txt"


def read_slice() -> list[tuple[int, Board, int]]:
    out = []
    for line in DATA.read_text().splitlines():
        moves, text, cluster = line.split()
        out.append((int(moves), parse_text(text, fmt="fogleman")[0].board, int(cluster)))
    return out


SLICE = read_slice()


def reference_moves(board: Board) -> list[Move]:
    return board.legal_moves("moves")


def bfs_plan(board: Board) -> list[Move] | None:
    """Shortest list of moves to a win (test helper only), or None."""
    if board.is_won():
        return []
    parent: dict[Board, tuple[Board, Move] | None] = {board: None}
    queue = deque([board])
    while queue:
        here = queue.popleft()
        for move, nxt in here.successors("moves"):
            if nxt in parent:
                continue
            parent[nxt] = (here, move)
            if nxt.is_won():
                plan = []
                node: Board = nxt
                while (link := parent[node]) is not None:
                    node, step = link
                    plan.append(step)
                return plan[::-1]
            queue.append(nxt)
    return None


class Counting:
    """Wraps a move source or solver and counts calls per board."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.calls: list[Board] = []

    def __call__(self, board: Board):  # type: ignore[no-untyped-def]
        self.calls.append(board)
        return self.inner(board)


def new_game(board: Board, optimal: int | None = None, **kw) -> Game:  # type: ignore[no-untyped-def]
    return Game(
        board,
        legal_moves=kw.get("legal_moves", reference_moves),
        solver=kw.get("solver", bfs_plan),
        optimal=optimal,
    )


def grid(text: str) -> Board:
    return parse_text(text.replace("/", "\n"), fmt="grid")[0].board


EASY = SLICE[3][1]  # 4 moves: BBBCCF/...D.F/AA.D../...E../...E../...E..
STUCK = grid("....../....../AAx.../....../....../......")


def test_slice_is_the_database_slice() -> None:
    assert len(SLICE) == 39
    assert str(EASY) == "BBBCCF\n...D.F\nAA.D..\n...E..\n...E..\n...E.."


@pytest.mark.parametrize("moves,board,cluster", SLICE, ids=[str(m) for m, _, _ in SLICE])
def test_optimal_and_hints_reach_the_database_optimum(moves: int, board: Board, cluster: int) -> None:
    solver = Counting(bfs_plan)
    game = new_game(board, solver=solver)
    assert game.optimal() == moves
    while not game.won:
        hint = game.hint()
        assert hint is not None
        assert hint in game.options()
        game.play(hint)
    assert game.moves_played == moves
    assert game.hints_used == moves
    result = game.result()
    assert result.optimal == moves and result.extra == 0
    assert result.helped and not result.perfect  # optimal, but every move was a hint
    # the optimal plan from the start is reused along the way: one solver call in all
    assert solver.calls == [board]


def test_options_come_from_the_source_once_per_position() -> None:
    source = Counting(reference_moves)
    game = new_game(EASY, legal_moves=source)
    assert game.options() == EASY.legal_moves()
    assert game.options() == EASY.legal_moves()
    assert source.calls == [EASY]
    game.play("F+1")
    game.options()
    game.undo()
    game.options()
    assert len(source.calls) == 3


def test_typed_numbered_and_case_folded_moves() -> None:
    game = new_game(EASY)
    options = game.options()
    assert game.resolve("1") == options[0]
    assert game.resolve(f" {len(options)} ") == options[-1]
    assert game.resolve("f+2") == Move("F", 2)
    game.play(3)
    assert game.history == (options[2],)
    game.undo()
    game.play("f+2")
    assert game.position == EASY.apply("F+2")


def test_exact_names_win_over_case_folding() -> None:
    board = grid("...../....b/AA..b/aa.../cc...")
    game = new_game(board)
    assert game.resolve("a+1") == Move("a", 1)
    assert game.resolve("A+1") == Move("A", 1)
    assert game.resolve("B+1") == Move("b", 1)
    assert game.resolve("C+1") == Move("c", 1)
    with pytest.raises(UnknownVehicleError, match="no vehicle named 'Z'"):
        game.resolve("Z+1")


@pytest.mark.parametrize(
    "text,error,words",
    [
        ("0", MoveError, "no option 0"),
        ("99", MoveError, "choose 1 to"),
        ("A+", MoveError, "cannot read move"),
        ("A+0", MoveError, "distance 0"),
        ("banana", MoveError, "cannot read move"),
        ("Q+1", UnknownVehicleError, "no vehicle named 'Q'"),
    ],
)
def test_bad_input_is_a_clear_error(text: str, error: type[Exception], words: str) -> None:
    game = new_game(EASY)
    with pytest.raises(error, match=words):
        game.play(text)
    assert game.moves_played == 0 and game.position == EASY


def test_illegal_move_says_what_blocks() -> None:
    game = new_game(EASY)
    with pytest.raises(IllegalMoveError, match=r"A\+2 is illegal: D is in the way"):
        game.play("A+2")
    with pytest.raises(IllegalMoveError, match="leave the board"):
        game.play("B-1")


def test_a_source_that_disagrees_with_the_rules_is_caught() -> None:
    game = new_game(EASY, legal_moves=lambda b: [m for m in b.legal_moves() if m.vehicle != "F"])
    with pytest.raises(RushHourError, match="oracle does not list it"):
        game.play("F+1")
    assert game.position == EASY


def test_counters_undo_redo_and_reset() -> None:
    game = new_game(EASY)
    assert not game.can_undo and not game.can_redo
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()
    with pytest.raises(GameError, match="nothing to redo"):
        game.redo()
    game.play("F+3")
    game.play("C+1")
    assert (game.moves_played, game.steps_played) == (2, 4)
    after_two = game.position
    assert game.undo() == Move("C", 1)
    assert game.redo_moves == (Move("C", 1),)
    assert game.undo() == Move("F", 3)
    assert game.position == EASY
    assert game.redo_moves == (Move("F", 3), Move("C", 1))
    assert game.redo() == Move("F", 3)
    assert game.redo() == Move("C", 1)
    assert game.position == after_two and not game.can_redo
    assert game.reset() == 2
    assert game.position == EASY and game.moves_played == 0 and game.steps_played == 0
    # playing the move that redo would play keeps the rest of the redo list
    game.play("F+3")
    assert game.redo_moves == (Move("C", 1),)
    # any other move forgets it
    game.play("F-1")
    assert not game.can_redo


def test_slides_of_the_vehicle_moved_last_join_its_move() -> None:
    """Game.slide counts as the physical game does (both the full screen and the line mode use it):
    F+1 three times is the move F+3, a slide back takes the move away, another vehicle starts a move."""
    game = new_game(EASY, optimal=4)
    assert game.slide("F+1") == Move("F", 1)
    assert game.slide("f+1") == Move("F", 2) and game.slide(Move("F", 1)) == Move("F", 3)
    assert game.history == (Move("F", 3),) and game.steps_played == 3
    assert game.slide("C+1") == Move("C", 1) and game.slide("C-1") is None  # back: no move left of C
    assert game.history == (Move("F", 3),)
    with pytest.raises(IllegalMoveError, match="would leave the board"):
        game.slide("F+2")  # off the board: refused as play refuses it, the move kept
    assert game.history == (Move("F", 3),)
    for move in ("C+1", "D-1", "A+4"):
        game.slide(move)
    result = game.result()
    assert game.won and result.perfect and (result.length, result.steps) == (4, 9)


def test_win_ends_play_and_reports_the_result() -> None:
    game = new_game(EASY, optimal=4)
    for move in ("F+3", "C+1", "D-1", "A+4"):
        assert not game.won
        game.play(move)
    assert game.won
    result = game.result()
    assert (result.length, result.steps, result.optimal, result.hints) == (4, 9, 4, 0)
    assert result.perfect and not result.solution_shown
    with pytest.raises(GameError, match="already solved"):
        game.play("A-1")
    with pytest.raises(GameError, match="already solved"):
        game.hint()
    with pytest.raises(GameError, match="already solved"):
        game.solution()
    game.undo()
    assert not game.won


def test_help_costs_the_perfect_score() -> None:
    """The optimum reached after one hint, or after the solution was shown (even when the player then
    undoes back to the start), is a win but not a perfect one."""
    hinted = new_game(EASY, optimal=4)
    assert hinted.hint() == Move("F", 3)
    for move in ("F+3", "C+1", "D-1", "A+4"):
        hinted.play(move)
    result = hinted.result()
    assert result.length == 4 and result.extra == 0 and result.hints == 1
    assert result.helped and not result.perfect
    shown = new_game(EASY, optimal=4)
    steps = shown.solution()
    assert steps is not None and steps[-1][1].is_won()
    shown.play("F+1")
    shown.reset()
    for move, _ in steps:
        shown.play(move)
    result = shown.result()
    assert result.solution_shown and result.hints == 0 and result.extra == 0
    assert result.helped and not result.perfect


def test_a_longer_win_is_not_perfect() -> None:
    game = new_game(EASY, optimal=4)
    for move in ("F+1", "F+2", "C+1", "D-1", "A+4"):
        game.play(move)
    result = game.result()
    assert result.length == 5 and result.extra == 1 and not result.perfect


def test_given_optimal_is_not_asked_of_the_solver() -> None:
    solver = Counting(bfs_plan)
    game = new_game(EASY, optimal=4, solver=solver)
    assert game.optimal() == 4
    assert solver.calls == []


def test_a_win_shorter_than_the_given_optimum_asks_the_solver() -> None:
    """A header claiming 6 moves for a 4-move level is disproved by a 4-move win: the win is judged
    against the solver's optimum, so it is perfect and never 'minus two more than needed'."""
    solver = Counting(bfs_plan)
    game = new_game(EASY, optimal=6, solver=solver)
    assert game.optimal() == 6 and solver.calls == []
    for move in ("F+3", "C+1", "D-1", "A+4"):
        game.play(move)
    assert game.optimal() == 4 and solver.calls == [EASY]
    result = game.result()
    assert result.optimal == 4 and result.extra == 0 and result.perfect


def test_solution_shows_the_rest_without_moving() -> None:
    game = new_game(EASY)
    game.play("F+1")
    steps = game.solution()
    assert steps is not None
    assert steps[-1][1].is_won()
    assert len(steps) == len(bfs_plan(game.position) or [])
    here = game.position
    for move, after in steps:
        here = here.apply(move)
        assert here == after
    assert game.position == EASY.apply("F+1") and game.moves_played == 1
    assert game.result().solution_shown


def test_unsolvable_board() -> None:
    game = new_game(STUCK)
    assert game.optimal() is None
    assert game.hint() is None
    assert game.solution() is None
    assert game.hints_used == 0
    assert game.result().optimal is None and not game.result().perfect


def test_hint_after_a_detour_is_optimal_from_there() -> None:
    moves, board, _ = SLICE[10]
    game = new_game(board, optimal=moves)
    detour = next(m for m in game.options() if bfs_plan(board.apply(m)) is not None)
    game.play(detour)
    rest = bfs_plan(game.position)
    assert rest is not None
    hint = game.hint()
    assert hint is not None
    assert len(bfs_plan(game.position.apply(hint)) or []) == len(rest) - 1


def test_solver_errors_propagate_and_are_asked_again() -> None:
    calls = []

    def failing(board: Board) -> Sequence[Move] | None:
        calls.append(board)
        raise RushHourError("search stopped")

    game = new_game(EASY, solver=failing)
    with pytest.raises(RushHourError, match="search stopped"):
        game.optimal()
    with pytest.raises(RushHourError, match="search stopped"):
        game.hint()
    assert len(calls) == 2 and game.hints_used == 0


@given(st.lists(st.one_of(st.just("u"), st.just("r"), st.just("reset"), st.integers(1, 12)), max_size=40))
def test_random_sessions_keep_history_and_position_consistent(actions: list[object]) -> None:
    moves, board, _ = SLICE[12]
    game = new_game(board, optimal=moves)
    for action in actions:
        if game.won:
            break
        try:
            if action == "u":
                game.undo()
            elif action == "r":
                game.redo()
            elif action == "reset":
                game.reset()
            else:
                assert isinstance(action, int)
                game.play(str(action))
        except (GameError, MoveError):
            pass
        replay = board
        for move in game.history:
            replay = replay.apply(move)
        assert replay == game.position
        assert game.moves_played == len(game.history)
        assert game.steps_played == sum(m.steps for m in game.history)
        # redo would lead through legal positions too
        ahead = game.position
        for move in game.redo_moves:
            ahead = ahead.apply(move)


@needs_native  # the portfolio runs only compiled
def test_the_games_solver_answers_a_16x16_board_as_the_command_does() -> None:
    """The game's hint and solution searched by breadth-first search alone: on full16 (16x16, 60
    vehicles) it stopped at its memory limit of 1 GiB ("optimal ?", no hint), where `rushhour solve`
    answers 9 moves, proven, in seconds. The game now asks the command's solver."""
    from rushhour.formats import read_file
    from rushhour.play.sources import optimal_plan
    from rushhour.search import solve, verify

    board = read_file(str(Path(__file__).parent / "data" / "full16.txt"))[0].board
    plan = optimal_plan(board)
    assert plan is not None and len(plan) == 9 == solve(board, engine="portfolio").length
    verify(board, tuple(plan))


@pytest.mark.parametrize("index", [0, 3, 9, 17, 30])
def test_the_real_oracle_and_solver_drive_the_game(index: int) -> None:
    """With the command line's move source and solver: the SAT oracle lists the reference moves in the
    reference order at every position of the way, and the hints win in the database's optimum."""
    from rushhour.play.sources import optimal_plan, oracle_moves

    moves, board, _ = SLICE[index]
    game = Game(board, legal_moves=oracle_moves, solver=optimal_plan)
    assert game.optimal() == moves
    while not game.won:
        assert game.options() == game.position.legal_moves("moves")
        hint = game.hint()
        assert hint is not None
        game.play(hint)
    assert game.result().extra == 0 and game.moves_played == moves and not game.result().perfect
