"""The texts both modes show: the status line's figures, the win's lines, a stopwatch reading, a move
described in words."""

from __future__ import annotations

from rushhour.board import Board, Move, direction_word
from rushhour.errors import IllegalMoveError, RushHourError
from rushhour.play.game import Game, Result
from rushhour.text import plural

#: what hints and the solution say when the position cannot be won
NO_WIN = "No win can be reached from here: undo or reset."


def optimal_text(game: Game, *, ask: bool = True) -> str:
    """``optimal 12``, ``unsolvable``, ``optimal ?`` (a limit stopped the search) or, with ``ask``
    False while the optimum is not known yet, ``optimal ...`` (it is being searched for)."""
    if game.optimal_gave_up:
        return "optimal ?"
    if game.optimal_pending and not ask:
        return "optimal ..."
    try:
        optimal = game.optimal()
    except RushHourError:  # the search gave up (limits) or could not run
        return "optimal ?"
    return "unsolvable" if optimal is None else f"optimal {optimal}"


def status_parts(game: Game, optimal: str | None = None) -> list[str]:
    """Moves, steps, the optimum (``optimal``, else :func:`optimal_text`) and the hints: the part of
    the status line both modes show."""
    return [
        f"moves {game.moves_played}",
        f"steps {game.steps_played}",
        optimal_text(game) if optimal is None else optimal,
        f"hints {game.hints_used}",
    ]


def win_lines(result: Result) -> list[str]:
    lines = [f"Solved in {plural(result.length, 'move')} ({plural(result.steps, 'step')})."]
    if result.optimal is None:
        lines.append("The optimal number of moves of this level is not known.")
    elif result.perfect:
        lines.append(f"PERFECT: {plural(result.length, 'move')}, the optimum!")
    elif result.length == result.optimal:
        lines.append(f"{plural(result.length, 'move')}, the optimum, but not PERFECT: help was used.")
    else:
        extra = result.length - result.optimal
        lines.append(f"The optimum is {plural(result.optimal, 'move')}: {extra} more than needed.")
    notes = []
    if result.hints:
        notes.append(plural(result.hints, "hint"))
    if result.solution_shown:
        notes.append("after seeing the solution")
    if notes:
        lines.append("With " + ", ".join(notes) + ".")
    earlier = []
    if result.earlier_hints:
        earlier.append(plural(result.earlier_hints, "hint"))
    if result.earlier_solution:
        earlier.append("the solution")
    if earlier:
        lines.append("Help in earlier games of this level: " + ", ".join(earlier) + ".")
    return lines


def clock_text(seconds: float) -> str:
    """A stopwatch reading: ``0:42``, ``12:05``, ``1:02:03``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def describe(board: Board, move: Move) -> str:
    """``A+2 (A right 2)``."""
    try:
        orientation = board.vehicle(move.vehicle).orientation
    except RushHourError:
        return str(move)
    return f"{move} ({move.vehicle} {direction_word(orientation, move.distance)} {move.steps})"


def goal_text(board: Board) -> str:
    """What winning means on this board: ``drive A out through the exit on the right``."""
    if board.exit is not None:
        return f"drive {board.goal} out through the exit on the {board.exit.side}"
    t = board.target
    assert t is not None
    return f"bring {board.goal}'s front to ({t.row},{t.col}) heading {t.heading} (marked *)"


def time_line(seconds: float, best: float | None) -> str:
    """The win's time against the fastest win before it: ``Time: 0:42, your best yet.``"""
    text = f"Time: {clock_text(seconds)}"
    if best is None:
        return text + "."
    if seconds < best:
        return f"{text}, your best yet (it was {clock_text(best)})."
    return f"{text} (your best: {clock_text(best)})."


def refusal(board: Board, move: Move) -> str:
    """Why the rules refuse ``move`` here, in a player's words: ``B is in the way``."""
    try:
        board.apply(move)
    except IllegalMoveError as err:
        return str(err).split(" is illegal: ", 1)[-1]
    return "the move oracle does not list it"


__all__ = [
    "NO_WIN",
    "clock_text",
    "describe",
    "goal_text",
    "optimal_text",
    "refusal",
    "status_parts",
    "time_line",
    "win_lines",
]
