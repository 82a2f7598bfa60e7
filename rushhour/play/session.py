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
from dataclasses import replace
from types import FrameType

from rushhour.errors import RushHourError
from rushhour.play.game import Game, MoveSource, Result, Solver
from rushhour.play.level import Level
from rushhour.play.saves import Saves
from rushhour.play.worker import InlineWorker, Outcome, Worker

#: what the player is told when a win was saved
SAVED = "Progress saved."


class Session:
    """The saves, the level being played and its game, and what leaving and winning record."""

    def __init__(
        self, saves: Saves, *, legal_moves: MoveSource, solver: Solver, worker: Worker | None = None
    ) -> None:
        self.saves = saves
        self.legal_moves = legal_moves
        self.solver = solver
        # the searches for an optimal plan (the optimum, a hint, the solution): beside the game with a
        # ProcessWorker, in place with the InlineWorker
        self.worker = worker or InlineWorker(solver)
        # why wins are not saved when the saves are kept in memory against the player's wish (the file
        # could not be read); said where a win would say it was saved
        self.unsaved_reason = ""
        self._help_saved = (0, False)
        self._hints_pending = 0  # hints of this game saved as left unsolved, that the next win counts
        self._win_saved: tuple[tuple[object, ...], int, bool] | None = None
        self._position_kept: tuple[object, ...] = ()
        self.first_run = not saves.levels  # nothing saved yet: a player new to the game

    def start(self, level: Level) -> Game:
        """A new game of ``level``, counting the help of its games left unsolved before (a search for
        the level before is stopped)."""
        self.worker.cancel()
        self.level = level
        self.game = Game(
            level.board,
            legal_moves=self.legal_moves,
            solver=self.solver,
            optimal=level.known_optimal,
            help_before=self.saves.help_before(level.key, level.board),
        )
        self._help_saved = (0, False)  # the hints and the solution of this game a save holds
        self._hints_pending = 0  # of those, the hints saved without a win (the file's hints_since_win)
        # the help of games left unsolved that this game's wins were saved with: every win of it counts it
        self._earlier = (0, False)
        self._win_saved = None  # the win of this game a save holds: its moves and help
        record = self.saves.get(level.key, level.board)
        # the position continued (if any) is this game's own: its win or a reset forgets it, never one
        # that a game of the level in another terminal saves meanwhile
        self.saves.hold_position(level.key, level.board)
        self.best_seconds = None if record is None else record.best_seconds  # before this game
        self.resumed_seconds, self.resume_note = 0.0, ""
        if record is not None and record.left_moves:
            self._resume(record.left_moves, record.left_seconds or 0.0)
        self._position_kept = tuple(self.game.history)  # the position the saves hold already
        return self.game

    def _resume(self, moves: list[str], seconds: float) -> None:
        """Play again the moves of the game of this level left unsolved, to continue it."""
        try:
            for move in moves:
                self.game.play(move)
        except RushHourError:  # not a game of this board after all: start afresh
            self.game.reset()
            self.resume_note = "the game left here could not be continued: a fresh start"
            return
        if self.game.won:  # a saved position cannot be a win; never mind it
            self.game.reset()
            return
        self.resumed_seconds = seconds
        count = len(moves)
        self.resume_note = f"continued where you left it ({count} move{'s' if count != 1 else ''})"

    # --- searches ----------------------------------------------------------------------------------
    def take(self, done: Outcome) -> None:
        """What a search found becomes the game's: a plan learnt, or an optimum that stays unknown."""
        if done.error is None:
            self.game.learn(done.board, done.plan)
        elif done.purpose == "optimum":
            self.game.give_up_optimal()

    def resume_optimum(self) -> bool:
        """Search for the optimum from the start when it is not known and nothing else is searched
        for; True when a search started."""
        game = self.game
        if self.worker.busy or not game.optimal_pending or game.optimal_gave_up:
            return False
        self.worker.start(game.start, "optimum")
        return True

    def plan_now(self, purpose: str) -> Outcome | None:
        """Wait for an optimal plan from the current position (for a hint or the solution): the running
        search when it is for this position, else a new one.  None when the plan was known already."""
        position = self.game.position
        if self.game.knows(position):
            return None
        if not (self.worker.busy and self.worker.board == position):
            self.worker.start(position, purpose)
        done = self.worker.wait()
        if done is not None:
            self.take(done)
        return done

    def optimum_now(self) -> None:
        """Wait for the optimum (a win compares with it)."""
        if not self.game.optimal_pending:
            return
        if not (self.worker.purpose == "optimum" and self.worker.board == self.game.start):
            self.worker.cancel()
        if self.worker.busy or self.resume_optimum():
            done = self.worker.wait()
            if done is not None:
                self.take(done)

    def close(self) -> None:
        """Stop any search: the game is left."""
        self.worker.close()

    # --- the end of a game -------------------------------------------------------------------------
    def win(self, seconds: float | None = None) -> tuple[Result, str]:
        """The won game's result (the optimum searched for when not known, or when this win disproves
        it) and what became of it: :data:`SAVED`, why it is not saved, or a warning.
        ``seconds``: the game's time on the stopwatch (the fastest win is kept)."""
        game = self.game
        self.optimum_now()  # the modes wait for it (or give it up) first: then this waits for nothing
        result = game.result()
        if not self.saves.saving:
            return result, self.unsaved_reason
        won = (game.history, game.hints_used, game.solutions_shown > 0)
        if won == self._win_saved:  # won again after an undo: a position kept meanwhile is forgotten
            result = self._with_earlier(result)
            record = self.saves.get(self.level.key, self.level.board)
            if record is not None and record.left_moves:
                try:
                    self.saves.record_left(self.level.key, self.level.board, [], 0.0)
                except RushHourError as err:
                    return result, save_warning(err)
            self._position_kept = tuple(game.history)
            return result, SAVED
        self._help_saved = (game.hints_used, game.solutions_shown > 0)
        try:
            self.saves.record_win(
                self.level.key,
                self.level.board,
                moves=result.length,
                steps=result.steps,
                optimal=result.optimal,
                hints=result.hints + self._earlier[0],
                solution_seen=result.solution_shown or self._earlier[1],
                seconds=seconds,
                hints_saved=self._hints_pending,
            )
        except RushHourError as err:
            return result, save_warning(err)
        self._hints_pending = 0
        self._win_saved = won
        # the help of games left unsolved that the file counted with this win (one left in another
        # terminal since this game started too): the win says what the file holds
        hints, seen = self.saves.earlier_help
        self._earlier = (self._earlier[0] + hints, self._earlier[1] or seen)
        return self._with_earlier(result), SAVED

    def _with_earlier(self, result: Result) -> Result:
        """The result with the help of earlier games that its saved win counted."""
        return replace(result, earlier_hints=self._earlier[0], earlier_solution=self._earlier[1])

    def leave(self, seconds: float = 0.0) -> str:
        """Leave the level: when it is unsolved, save its position (its moves, and ``seconds`` on the
        stopwatch) to continue it next time, and the help this game had that no save holds yet; when
        it is won and the win is not saved yet (left while the optimum was searched for: a signal,
        Ctrl-C), save the win without the optimum.  Returns a warning when that could not be saved,
        else ''."""
        if self.game.won:  # a level won at the start, where nothing was played, is left alone
            return self._keep_win(seconds) if self.game.history else ""
        return self._keep_position(seconds) or self._keep_help()

    def _keep_win(self, seconds: float) -> str:
        game = self.game
        if (game.history, game.hints_used, game.solutions_shown > 0) == self._win_saved:
            return ""
        if game.optimal_pending:  # not waited for on the way out
            self.worker.cancel()
            game.give_up_optimal()
        _, note = self.win(seconds)
        return note if note.startswith("warning: ") else ""

    def keep_position(self, seconds: float) -> str:
        """Save the position of the game in play (its moves and ``seconds`` on the stopwatch) and the
        help it had (hints, the solution seen) when they changed since they were last saved, so that a
        process killed outright loses nothing: called while the player pauses (the full screen a
        second after the last change, line mode before each question).  A warning, or ''."""
        history = tuple(self.game.history)
        if self.game.won:
            return ""
        warning = ""
        if history != self._position_kept:
            self._position_kept = history
            warning = self._keep_position(seconds)
        return warning or self._keep_help()

    def _keep_position(self, seconds: float) -> str:
        game, level = self.game, self.level
        if game.won or not self.saves.saving:
            return ""
        record = self.saves.get(level.key, level.board)
        moves = [str(m) for m in game.history]
        if not moves and not (record is not None and record.left):
            return ""
        try:
            self.saves.record_left(level.key, level.board, moves, seconds)
        except RushHourError as err:
            return save_warning(err)
        return ""

    def _keep_help(self) -> str:
        game = self.game
        hints = game.hints_used - self._help_saved[0]
        seen = game.solutions_shown > 0 and not self._help_saved[1]
        if game.won or not (hints or seen) or not self.saves.saving:
            return ""
        self._help_saved = (game.hints_used, game.solutions_shown > 0)
        try:
            self.saves.record_attempt(self.level.key, self.level.board, hints=hints, solution_seen=seen)
        except RushHourError as err:
            if getattr(err, "moved_to", None) is not None:  # saved in a fresh file all the same
                self._hints_pending += hints
            return save_warning(err)
        self._hints_pending += hints
        return ""


def save_warning(err: RushHourError) -> str:
    """A failed save in words: a file found corrupt and moved aside was saved anew, anything else was
    not saved at all (a lock or a folder that cannot be written), which the player must hear."""
    if getattr(err, "moved_to", None) is not None:
        return f"warning: {err}"
    return f"warning: the progress was not saved: {err}"


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
