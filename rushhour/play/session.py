"""The policy both modes share: what starting a level, leaving it and winning it record in the saves.

A :class:`Session` is one player's visit.  It starts a :class:`~rushhour.play.game.Game` of a level
with the help of earlier unsolved games of that level counted in, records a win in the player's
:class:`~rushhour.play.saves.Saves` once (an undo and a redo of the last move reach the same win, which
is not counted again), and remembers the help of a level left unsolved, so that the next win of the
level counts it.  The full screen (:mod:`rushhour.play.controller`) and the line mode
(:mod:`rushhour.play.line`) both go through it, so they cannot disagree on what a win records.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

from rushhour.errors import RushHourError
from rushhour.play.game import Game, MoveSource, Result, Solver
from rushhour.play.level import Level
from rushhour.play.saves import Saves

#: what the player is told when a win was saved
SAVED = "Progress saved."


class Session:
    """The saves, the level being played and its game, and what leaving and winning record."""

    def __init__(self, saves: Saves, *, legal_moves: MoveSource, solver: Solver) -> None:
        self.saves = saves
        self.legal_moves = legal_moves
        self.solver = solver
        # why wins are not saved when the saves are kept in memory against the player's wish (the file
        # could not be read); said where a win would say it was saved
        self.unsaved_reason = ""
        self._help_saved = (0, False)
        self._win_saved: tuple[tuple[object, ...], int, bool] | None = None

    def start(self, level: Level) -> Game:
        """A new game of ``level``, counting the help of its games left unsolved before."""
        self.level = level
        self.game = Game(
            level.board,
            legal_moves=self.legal_moves,
            solver=self.solver,
            optimal=level.known_optimal,
            help_before=self.saves.help_before(level.key, level.board),
        )
        self._help_saved = (0, False)  # the hints and the solution of this game a save holds
        self._win_saved = None  # the win of this game a save holds: its moves and help
        return self.game

    def win(self) -> tuple[Result, str]:
        """The won game's result (the optimum asked of the solver when not known, or when this win
        disproves it) and what became of it: :data:`SAVED`, why it is not saved, or a warning."""
        game = self.game
        with contextlib.suppress(RushHourError):
            game.optimal()
        result = game.result()
        if not self.saves.saving:
            return result, self.unsaved_reason
        won = (game.history, game.hints_used, game.solutions_shown > 0)
        if won == self._win_saved:
            return result, SAVED
        self._help_saved = (game.hints_used, game.solutions_shown > 0)
        try:
            self.saves.record_win(
                self.level.key,
                self.level.board,
                moves=result.length,
                steps=result.steps,
                optimal=result.optimal,
                hints=result.hints,
                solution_seen=result.solution_shown,
            )
        except RushHourError as err:
            return result, f"warning: {err}"
        self._win_saved = won
        return result, SAVED

    def leave(self) -> str:
        """Leave the level: when it is unsolved, save the help this game had that no save holds yet.
        Returns a warning when that could not be saved, else ''."""
        game = self.game
        hints = game.hints_used - self._help_saved[0]
        seen = game.solutions_shown > 0 and not self._help_saved[1]
        if game.won or not (hints or seen) or not self.saves.saving:
            return ""
        self._help_saved = (game.hints_used, game.solutions_shown > 0)
        try:
            self.saves.record_attempt(self.level.key, self.level.board, hints=hints, solution_seen=seen)
        except RushHourError as err:
            return f"warning: {err}"
        return ""


class Signalled(Exception):
    """SIGTERM or SIGHUP arrived: leave the game the way a quit does."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def leave_on_signals() -> Iterator[None]:
    """While inside: SIGTERM and SIGHUP raise :class:`Signalled`, so that the game is left cleanly."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Signalled(signum)

    wanted = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]
    old = {s: signal.signal(s, handler) for s in wanted}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


__all__ = ["SAVED", "Session", "Signalled", "leave_on_signals"]
