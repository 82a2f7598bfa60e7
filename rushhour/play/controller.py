"""What a key means in the game: a state machine over a :class:`~rushhour.play.game.Game`, no I/O.

The full-screen game (:mod:`rushhour.play.tui`) turns keys and mouse events into calls of
:meth:`Controller.key`, :meth:`Controller.press`, :meth:`Controller.drag` and :meth:`Controller.release`,
and draws what the controller says: the board shown, the selected vehicle and the cells it can reach,
the hint, the status line, the overlay of the current :class:`Mode`.  The clock is injected (``now``),
so the stopwatch is tested without waiting; the legal moves come from the move source given to the game
(the SAT oracle in the command line), asked again after every move; a refused slide is explained in a
player's words by the reference rules (``B is in the way``).

Counting follows the physical game: consecutive slides of the same vehicle make one move (``A+1`` then
``A+1`` is the move ``A+2``); a *step* is one cell.  Keys are named by short strings: a printable
character as itself, and ``up``, ``down``, ``left``, ``right``, ``tab``, ``shift-tab``, ``enter``,
``esc``, ``backspace``, ``home``, ``end``, ``pgup``, ``pgdn``, ``ctrl-c``, ``ctrl-d``, ``ctrl-r``,
``ctrl-y``, ``ctrl-z``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from rushhour.board import Board, Cell, Move, direction_word
from rushhour.errors import RushHourError
from rushhour.levels import LeftOut, Shelf, packs
from rushhour.play.game import MoveSource, Result, Solver
from rushhour.play.level import Level, next_level, pack_level
from rushhour.play.logic_view import LogicView, logic_view, ready_oracle
from rushhour.play.saves import LevelRecord, Saves
from rushhour.play.session import Session
from rushhour.play.sources import SOLVER_SECONDS
from rushhour.play.words import (
    NO_WIN,
    clock_text,
    describe,
    goal_text,
    optimal_text,
    refusal,
    status_parts,
    time_line,
    win_lines,
)
from rushhour.play.worker import Outcome, Worker
from rushhour.search.timed import TimeModel, clock, clock_report, format_seconds
from rushhour.text import plural

#: seconds between two positions of an animated solution
ANIMATION_SECONDS = 0.6
#: the position is saved this long after it last changed (a process killed outright loses nothing)
KEEP_SECONDS = 1.0


# --- the machine -----------------------------------------------------------------------------------
class Mode(enum.Enum):
    PLAY = "play"
    NAME = "name"  # typing a vehicle's name after ':'
    CONFIRM_RESET = "confirm-reset"
    CONFIRM_QUIT = "confirm-quit"  # q with moves made: leave the level?
    HELP = "help"
    MENU = "menu"
    PLAYBACK = "playback"  # stepping through an optimal solution
    WON = "won"
    QUIT = "quit"


#: modes in which the stopwatch does not run
PAUSED = frozenset({Mode.HELP, Mode.MENU, Mode.WON, Mode.QUIT})

#: the help overlay: every key, as the full screen lists it
KEYS: tuple[tuple[str, str], ...] = (
    ("The rule", "upper-case letters and digits select vehicles; lower-case letters are commands"),
    ("A, B, 7...", "select the vehicle of that name"),
    (":name Enter", "select a vehicle by a lower-case or longer name"),
    ("Tab / Shift-Tab", "select the next / previous vehicle that can move"),
    ("arrow keys", "slide the selected vehicle one cell"),
    ("mouse", "click selects; a free cell of its lane slides there"),
    ("u / Ctrl-Z", "undo the last move"),
    ("r / Ctrl-Y", "redo a move taken back"),
    ("Ctrl-R", "reset to the start (asks first)"),
    ("h", "hint: a vehicle and where it goes; Enter plays it"),
    ("s", "solution: arrows or space step, p plays, Esc back"),
    ("e", "the logic beside the board: propositions, a refusal's core, a hint's blockers"),
    ("n", "next level"),
    ("l", "the level menu"),
    ("?", "this help (the stopwatch waits)"),
    ("q", "leave (asks first when moves were made; the position is kept)"),
    ("Ctrl-C / Ctrl-D", "leave at once (every win is saved as it happens)"),
)

_COMMANDS = {
    "u": "undo",
    "ctrl-z": "undo",
    "r": "redo",
    "ctrl-y": "redo",
    "ctrl-r": "reset",
    "h": "hint",
    "s": "solution",
    "e": "logic",
    "?": "help",
    "n": "next",
    "l": "menu",
    "q": "quit",  # asks first when moves were made
    "ctrl-c": "leave",  # at once
    "ctrl-d": "leave",
    ":": "name",
}

#: command keys that are printable: a vehicle with one of these names is selected with ':'
COMMAND_CHARS = frozenset(k for k in _COMMANDS if len(k) == 1)

_ARROWS = {"left": ("H", -1), "right": ("H", 1), "up": ("V", -1), "down": ("V", 1)}


def _ways(horizontal: bool) -> str:
    """The two ways a vehicle slides."""
    return "left and right" if horizontal else "up and down"


def _short_why(left: LeftOut) -> str:
    """Why a file of the player's packs is left out, the file named without its folder."""
    path = str(left.path)
    return left.path.name + left.why[len(path) :] if left.why.startswith(path) else left.why


@dataclass(frozen=True)
class MenuRow:
    """One line of the level menu: a pack's title (``level`` None) or a level with its progress."""

    text: str
    level: Level | None = None
    solved: bool = False
    perfect: bool = False
    best: int | None = None
    # the columns of a level's line: where, name, size, optimum, your record; the screen leaves out the
    # name, then the size, when the terminal is narrow
    columns: tuple[str, ...] = ()

    def layouts(self) -> list[str]:
        """The line with all its columns, then without the name, then without the size too."""
        where, name, size, optimal, state = self.columns
        return [
            " ".join(parts).rstrip()
            for parts in (
                (f"{where:<14}", f"{name:<18}", f"{size:>5}", optimal, state),
                (f"{where:<14}", f"{size:>5}", optimal, state),
                (f"{where:<12}", optimal, state),
            )
        ]

    def fitted(self, width: int, layout: int | None = None) -> str:
        """The line in at most ``width`` columns, leaving out the columns that matter least first; with
        ``layout`` (:func:`menu_layout`), the columns every line of the menu shows, so that they line up."""
        if not self.columns:
            return self.text
        lines = self.layouts()
        if layout is not None:
            return lines[layout]
        return next((line for line in lines if len(line) <= width), lines[-1])


def menu_layout(rows: list[MenuRow], width: int) -> int:
    """The columns the level menu's lines show in ``width`` columns: the most that every level's line
    can show, one layout for all so that the columns line up (a long record no longer drops its own
    line's name column alone)."""
    most = 0
    for row in rows:
        if row.columns:
            lines = row.layouts()
            most = max(most, next((k for k, line in enumerate(lines) if len(line) <= width), len(lines) - 1))
    return most


def record_text(record: LevelRecord | None) -> str:
    """A level's record in a few words: ``solved in 12, perfect, best 0:42`` or ``left at 5 moves``."""
    if record is None:
        return ""
    parts = []
    if record.solved:
        parts.append(f"solved in {record.best}" + (", perfect" if record.perfect else ""))
        if record.best_seconds is not None:
            parts.append(f"best {clock_text(record.best_seconds)}")
    if record.left_moves:
        parts.append(f"left at {plural(len(record.left_moves), 'move')}")
    return ", ".join(parts)


class Controller:
    """One player's session: the level being played, the selection, the mode and the stopwatch."""

    def __init__(
        self,
        level: Level,
        *,
        saves: Saves,
        legal_moves: MoveSource,
        solver: Solver,
        now: Callable[[], float],
        timed: TimeModel | None = None,
        menu_shelf: Callable[[], Shelf] = lambda: Shelf(packs()),
        worker: Worker | None = None,
    ) -> None:
        self.session = Session(saves, legal_moves=legal_moves, solver=solver, worker=worker)
        self.worker = self.session.worker
        self.waiting = ""  # what the player waits for: "hint", "solution", or ""
        self.settling = False  # a win waits for the optimum to compare it with
        self._now = now
        self.timed = timed
        self._menu_shelf = menu_shelf  # the packs of the level menu, and the files left out (said at its end)
        self.message = ""
        self.save_note = ""
        self.menu_rows: list[MenuRow] = []
        self.menu_index = 0
        self.clock_line = ""
        self.help_top = 0  # the first line of the help shown (it scrolls in a small terminal)
        self.box_hidden = False  # the win's box put away to see the final position
        self.logic_open = False  # the logic view beside the board (e)
        self._help_from = Mode.PLAY  # where the help goes back to
        self._start(level)

    @property
    def saves(self) -> Saves:
        return self.session.saves

    # --- starting a level ------------------------------------------------------------------------
    def _start(self, level: Level) -> None:
        self.level = level
        self.waiting, self.settling = "", False
        self.game = self.session.start(level)
        self.mode = Mode.PLAY
        self.selected: str | None = level.board.goal
        self.hint: Move | None = None
        self.playback: list[tuple[Move, Board]] = []
        self.playback_index = 0
        self.animating = False
        self._next_frame = 0.0
        self.typed = ""
        self.refused: tuple[Board, Move] | None = None  # the last refused slide, for the logic view
        self.result: Result | None = None
        self._grab: Cell | None = None
        self._elapsed = self.session.resumed_seconds  # a game continued keeps its time
        self._since: float | None = self._now()
        self._history_seen, self._changed_at = tuple(self.game.history), self._now()  # saved already
        self.game.options()  # the oracle is asked for every position, the first one too
        self.optimal_label = optimal_text(self.game, ask=False)
        self._resume_optimum()  # an optimum not known yet is searched for beside the game
        if self.game.won:
            self.message = (
                f"{level.board.goal} already stands at the exit: nothing to play here (n: next level)"
            )
        else:
            self.message = "? for help: Tab or a name selects, arrows slide"
            if self.session.first_run:
                goal = goal_text(level.board)
                self.message = f"Goal: {goal}. Tab or a vehicle's letter selects, arrows slide; ? for help"
        if self.session.resume_note:
            self.message = f"{self.session.resume_note}; Ctrl-R starts again"

    def go_to(self, level: Level) -> None:
        """Leave this level (remembering the help it had if it is left unsolved) and play ``level``."""
        self._leave()
        self._start(level)

    # --- what is drawn -------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The position shown: the game's, or the solution's during playback."""
        watching = self.mode is Mode.PLAYBACK or (self.mode is Mode.HELP and self._help_from is Mode.PLAYBACK)
        if watching and self.playback_index:
            return self.playback[self.playback_index - 1][1]
        return self.game.position

    @property
    def highlighted(self) -> str | None:
        """The vehicle drawn as selected: the chosen one, the hint's, or the one the solution moves."""
        if self.mode is Mode.PLAYBACK:
            return self.playback[self.playback_index - 1][0].vehicle if self.playback_index else None
        if self.hint is not None:
            return self.hint.vehicle
        return self.selected

    def reachable(self) -> set[Cell]:
        """The free cells the selected vehicle can reach (from the oracle's legal moves)."""
        playing = (Mode.PLAY, Mode.NAME, Mode.CONFIRM_RESET, Mode.CONFIRM_QUIT)
        shown = self.mode in playing and self.hint is None
        if not shown or self.selected is None:  # a hint shows its own destination instead
            return set()
        board = self.game.position
        own = set(board.cells_of(self.selected))
        out: set[Cell] = set()
        for move in self.game.options():
            if move.vehicle == self.selected:
                out.update(set(board.apply(move).cells_of(self.selected)) - own)
        return out

    def toggle_logic(self) -> None:
        """``e``: open or close the logic view beside the board."""
        self.logic_open = not self.logic_open
        if self.mode is Mode.PLAY:
            self.message = "the logic view: e closes it" if self.logic_open else "logic view closed"

    def logic_view(self) -> LogicView | None:
        """What the logic view shows (None when it is closed): the position drawn, the vehicle drawn as
        selected, the last slide refused in this position and the hint, from the SAT oracle."""
        if not self.logic_open:
            return None
        board = self.board
        refused = self.refused[1] if self.refused and self.refused[0] == board else None
        hint = self.hint if board == self.game.position else None
        shown = self.highlighted or self.selected
        return logic_view(board, shown, refused, hint, ready_oracle(board))

    def hint_cells(self) -> set[Cell]:
        """Where the hinted vehicle goes."""
        if self.hint is None:
            return set()
        return set(self.game.position.apply(self.hint).cells_of(self.hint.vehicle))

    def elapsed(self) -> float:
        """Seconds on the stopwatch: real time spent playing this level, help and menus left out."""
        running = 0.0 if self._since is None else self._now() - self._since
        return self._elapsed + running

    def status_parts(self) -> list[str]:
        parts = [
            self.level.title,
            *status_parts(self.game, self.optimal_label),
            f"time {clock_text(self.elapsed())}",
        ]
        if self.timed is not None:
            parts.append(f"clock {format_seconds(clock(self.game.start, self.game.history, self.timed))} s")
        return parts

    def win_text(self) -> list[str]:
        """The lines of the win screen."""
        if self.result is None:
            return []
        lines = win_lines(self.result)
        if self.settling:
            lines[1:2] = ["Finding the optimum to compare (Esc: save the win without it)..."]
        lines.append(time_line(self.elapsed(), self.session.best_seconds))
        if self.clock_line:
            lines.append(self.clock_line)
        if self.save_note:
            lines.append(self.save_note)
        following = next_level(self.level)
        if following is None:
            lines.append("That was the last level here. Well done!")
            lines.append("l: the level menu, v: see the board, u: undo, q: quit")
        else:
            optimal = following.known_optimal
            about = f", {plural(optimal, 'move')}" if optimal is not None else ""
            lines.append(f"Next: {following.title}{about}.")
            lines.append("Enter or n: play it, l: the level menu, v: see the board, u: undo, q: quit")
        return lines

    def playback_text(self) -> str:
        k, total = self.playback_index, len(self.playback)
        text = f"solution: position {k} of {total}"
        if k:
            text += f", {k}. {describe(self._before(k), self.playback[k - 1][0])}"
        keys = "p stops" if self.animating else "arrows/space, p plays, Esc back"
        return f"{text}  ({keys})"

    def _before(self, k: int) -> Board:
        return self.playback[k - 2][1] if k > 1 else self.game.position

    # --- the clock --------------------------------------------------------------------------------
    def _set_mode(self, mode: Mode) -> None:
        was_paused = self.mode in PAUSED
        self.mode = mode
        paused = mode in PAUSED
        if paused and not was_paused and self._since is not None:
            self._elapsed += self._now() - self._since
            self._since = None
        elif not paused and was_paused and self.result is None:
            self._since = self._now()

    def not_played(self, seconds: float) -> None:
        """The process was stopped for ``seconds`` (job control): taken off the stopwatch, which measures
        play.  Never more than the stopwatch has run since it last started."""
        if self._since is not None and seconds > 0:
            self._since = min(self._since + seconds, self._now())

    def tick(self) -> bool:
        """Take the outcome of a search that has ended, advance an animated solution when its time
        has come, save a position left alone for a moment; True when something changed."""
        changed = self.poll()
        self._keep_position()
        return self._animate() or changed

    def _keep_position(self) -> None:
        """Save the position :data:`KEEP_SECONDS` after it last changed: between the keys of a burst
        of moves nothing is written, and a process killed outright loses at most that last second."""
        history, now = tuple(self.game.history), self._now()
        if history != self._history_seen:
            self._history_seen, self._changed_at = history, now
        elif now - self._changed_at >= KEEP_SECONDS:
            warning = self.session.keep_position(self.elapsed())
            if warning:
                self.message = warning

    def _animate(self) -> bool:
        if self.mode is not Mode.PLAYBACK or not self.animating or self._now() < self._next_frame:
            return False
        if self.playback_index < len(self.playback):
            self.playback_index += 1
            self._next_frame = self._now() + ANIMATION_SECONDS
        if self.playback_index >= len(self.playback):
            self.animating = False
        return True

    # --- searches beside the game ------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Whether a search runs (the screen shows a spinner and redraws it)."""
        return self.worker.busy

    def busy_text(self) -> str:
        """What the running search is for, with a spinner and its time, or '' when the player waits for
        nothing (the optimum searched for quietly shows in the status line)."""
        if not self.worker.busy or not (self.waiting or self.settling):
            return ""
        seconds = max(0.0, self._now() - self.worker.since)
        spinner = "|/-\\"[int(seconds * 5) % 4]
        what = {
            "hint": "finding a hint",
            "solution": "finding an optimal solution",
        }.get(self.waiting, "finding the optimum to compare your win with")
        return f"{spinner} {what} ({int(seconds)} s; Esc cancels, keys still work)"

    def poll(self) -> bool:
        """Take the outcome of a search that has ended; True when there was one."""
        done = self.worker.poll()
        if done is None:
            return False
        self._take(done)
        return True

    def _search(self, board: Board, purpose: str) -> None:
        self.worker.start(board, purpose)
        self.poll()  # a worker that searches in place is done already

    def _take(self, done: Outcome) -> None:
        game = self.game
        if done.purpose == "clock":
            self.clock_line = str(done.value) if done.error is None else f"Clock: {done.error}"
            return
        self.session.take(done)
        self.optimal_label = optimal_text(game, ask=False)
        if self.waiting and done.board == game.position:
            waited, self.waiting = self.waiting, ""
            if done.error is not None:
                self.message = f"no {waited}: {done.error}"
            elif waited == "hint":
                self._ask_hint()
            else:
                self._open_playback()
        if self.settling and not game.optimal_pending:
            self._settle()
        self._resume_optimum()

    def _resume_optimum(self) -> None:
        """Search for the optimum when it is not known and nothing else is searched for."""
        if self.session.resume_optimum():
            self.poll()  # a worker that searches in place is done already

    def _request(self, purpose: str) -> None:
        """Wait for an optimal plan from here, for a hint or the solution: the running search when it is
        for this position, else a new one (the optimum's search waits)."""
        self.waiting = purpose
        position = self.game.position
        if not (self.worker.busy and self.worker.board == position):
            self._search(position, purpose)
        if self.waiting:
            self.message = ""

    def cancel_wait(self, why: str) -> None:
        """Stop waiting for a hint or the solution (its search is stopped, unless it is the optimum's)."""
        if not self.waiting:
            return
        self.waiting = ""
        if self.worker.purpose != "optimum":
            self.worker.cancel()
            self._resume_optimum()
        self.message = why

    def close(self) -> None:
        """Stop any search (the game is left)."""
        self.session.close()

    # --- keys --------------------------------------------------------------------------------------
    def key(self, name: str) -> None:
        """Do what a key means in the current mode; a refused key leaves a message, never an error."""
        try:
            handler = {
                Mode.PLAY: self._key_play,
                Mode.NAME: self._key_name,
                Mode.CONFIRM_RESET: self._key_confirm,
                Mode.CONFIRM_QUIT: self._key_confirm_quit,
                Mode.HELP: self._key_help,
                Mode.MENU: self._key_menu,
                Mode.PLAYBACK: self._key_playback,
                Mode.WON: self._key_won,
                Mode.QUIT: lambda _: None,
            }[self.mode]
            handler(name)
        except RushHourError as err:
            self.message = str(err)

    def _key_play(self, name: str) -> None:
        if name in _ARROWS:
            self._arrow(name)
            return
        if name == "enter" and self.hint is not None:
            hint, self.hint = self.hint, None
            self.selected = hint.vehicle
            self._play(hint)
            return
        if name == "enter":  # it plays a hint shown: there is none
            self.message = "Enter plays a hint: h asks for one"
            return
        if name in ("tab", "shift-tab"):
            self._cycle(1 if name == "tab" else -1)
            return
        if name == "esc":
            self.hint = None
            self.message = ""
            self.cancel_wait("cancelled")
            return
        command = _COMMANDS.get(name)
        if command is not None:
            self._command(command)
            return
        if len(name) == 1 and name.isalnum():
            self._name_key(name)
            return
        shown = name if len(name) > 1 else repr(name)
        self.message = f"{shown} is neither a key of the game nor a vehicle here (? for help)"

    def _name_key(self, name: str) -> None:
        """An upper-case letter or a digit selects the vehicle of that name; a lower-case letter that is
        no command says how to select a vehicle named so."""
        names = self.game.position.names
        if not name.islower():
            if name in names:
                self._select(name)
            else:
                self.message = f"no vehicle named {name} here (? for help)"
            return
        ways = []
        if name.upper() in names:
            ways.append(f"{name.upper()} (Shift+{name}) selects {name.upper()}")
        if name in names:
            ways.append(f":{name} Enter selects {name}")
        how = "; ".join(ways) if ways else "? lists them"
        self.message = f"{name} is not a command: lower-case letters are commands ({how})"

    def _command(self, command: str) -> None:
        game = self.game
        self.hint = None
        if command == "quit":
            self._quit_key()
        elif command == "leave":
            self.quit()
        elif command == "help":
            self.open_help()
        elif command == "menu":
            self.open_menu()
        elif command == "next":
            following = next_level(self.level)
            if following is None:
                self.message = "that was the last level here (l: the level menu)"
            else:
                self.go_to(following)
        elif command == "name":
            self.typed = ""
            self._set_mode(Mode.NAME)
        elif command == "undo":
            self._undo()
        elif command == "redo":
            move = game.redo()
            self.message = f"redid {move}"
            self._after_move()
        elif command == "reset":
            if not game.can_undo:
                self.message = "already at the start"
            else:
                self._set_mode(Mode.CONFIRM_RESET)
        elif command == "hint":
            self._ask_hint()
        elif command == "solution":
            self._open_playback()
        elif command == "logic":
            self.toggle_logic()

    def _key_name(self, name: str) -> None:
        if name == "esc":
            self.typed = ""
            self._set_mode(Mode.PLAY)
        elif name == "backspace":
            self.typed = self.typed[:-1]
        elif name == "enter":
            typed, self.typed = self.typed, ""
            self._set_mode(Mode.PLAY)
            found = self._find_vehicle(typed)
            if not typed:  # nothing typed: Enter cancels, as Esc does
                self.message = ""
            elif found is None:
                self.message = f"no vehicle named {typed!r} here (vehicles: {', '.join(self.board.names)})"
            else:
                self._select(found)
        elif name in ("ctrl-c", "ctrl-d"):
            self.quit()
        elif len(name) == 1 and name.isalnum():
            self.typed += name

    def _quit_key(self) -> None:
        """``q``: leave, after asking when the level has moves made and is not won."""
        if self.game.moves_played and not self.game.won and self.mode is not Mode.CONFIRM_QUIT:
            self._set_mode(Mode.CONFIRM_QUIT)
        else:
            self.quit()

    def _key_confirm_quit(self, name: str) -> None:
        if name in ("enter", "q", "y", "ctrl-c", "ctrl-d"):
            self.quit()
        else:
            self._set_mode(Mode.PLAY)
            self.message = "staying: play on"

    def _key_confirm(self, name: str) -> None:
        self._set_mode(Mode.PLAY)
        if name in ("y", "Y", "enter"):
            count = self.game.reset()
            self.cancel_wait("")  # a hint or the solution searched for is for another position now
            self.game.options()
            self.message = f"back to the start ({plural(count, 'move')} taken back; r replays them)"
        elif name in ("ctrl-c", "ctrl-d"):
            self.quit()
        elif name == "q":
            self._quit_key()
        else:
            self.message = "reset cancelled"

    def open_help(self) -> None:
        """``?``: the help over the game, the solution's playback or the win; any key goes back there."""
        self.help_top = 0
        self.animating = False
        self._help_from = self.mode if self.mode in (Mode.PLAYBACK, Mode.WON) else Mode.PLAY
        self._set_mode(Mode.HELP)

    def _key_help(self, name: str) -> None:
        steps = {"up": -1, "down": 1, "pgup": -10, "pgdn": 10, "home": -1000, "end": 1000}
        if name in steps:  # the screen keeps it within the help's length
            self.help_top = max(0, self.help_top + steps[name])
        elif name in ("ctrl-c", "ctrl-d"):
            self.quit()
        elif name == "q":
            self._set_mode(self._help_from)
            self.key("q")  # as q means where the help was opened
        else:
            self._set_mode(self._help_from)

    def _key_playback(self, name: str) -> None:
        if name in ("right", "down", " ", "enter"):
            self.animating = False
            self.playback_index = min(len(self.playback), self.playback_index + 1)
        elif name in ("left", "up", "backspace"):
            self.animating = False
            self.playback_index = max(0, self.playback_index - 1)
        elif name == "home":
            self.playback_index = 0
        elif name == "e":
            self.toggle_logic()
        elif name == "end":
            self.playback_index = len(self.playback)
        elif name == "p":
            self.animating = not self.animating
            if self.animating:
                if self.playback_index >= len(self.playback):
                    self.playback_index = 0
                self._next_frame = self._now() + ANIMATION_SECONDS
        elif name in ("esc", "s"):
            self._close_playback()
            self.message = "back where you were: play on"
        elif name in ("ctrl-c", "ctrl-d"):
            self.quit()
        elif name == "q":
            self._close_playback()
            self._quit_key()
        elif name == "?":
            self.open_help()
        elif name in _COMMANDS or name in ("tab", "shift-tab") or (name.isalnum() and not name.islower()):
            # a key of the game (undo, a hint, the next level, a vehicle...): back to your own position,
            # where the key does what it always does
            self._close_playback()
            self._key_play(name)

    def _close_playback(self) -> None:
        """Leave the solution's playback: the position shown is the game's again."""
        self.animating = False
        self.playback, self.playback_index = [], 0
        self._set_mode(Mode.PLAY)

    def _key_won(self, name: str) -> None:
        if name == "v":  # the final position without the box over it, and back
            self.box_hidden = not self.box_hidden
            return
        if name == "?":
            self.open_help()
            return
        if name in ("u", "ctrl-z") and self.settling:  # no win any more: nothing to save
            self.settling = False
        elif name in ("esc", "enter", "n", " ", "l", "q", "ctrl-c", "ctrl-d"):
            self._stop_settling()
        if name in ("enter", "n", " "):
            following = next_level(self.level)
            if following is not None:
                self.go_to(following)
        elif name == "l":
            self.open_menu()
        elif name in ("u", "ctrl-z"):
            self.result = None
            self._set_mode(Mode.PLAY)  # the stopwatch runs again
            self._undo()
        elif name == "ctrl-r":  # the level again from its start: the win is saved, nothing is lost
            self._stop_settling()
            self.go_to(self.level)
            self.message = "the level again from the start (your win is kept)"
        elif name in ("q", "ctrl-c", "ctrl-d"):
            self.quit()

    # --- the level menu ------------------------------------------------------------------------
    def open_menu(self) -> None:
        rows: list[MenuRow] = []
        level = self.level
        if level.pack is None and len(level.siblings) > 1:
            rows.append(MenuRow(f"this file: {level.entry.label or 'boards'}"))
            for k, entry in enumerate(level.siblings, start=1):
                rows.append(self._menu_row(Level(entry, None, k, len(level.siblings), level.siblings)))
        offered = self._menu_shelf()
        for p in offered.packs:
            rows.append(MenuRow(f"{p.title} ({p.name})"))
            rows.extend(self._menu_row(pack_level(p, k)) for k in range(1, len(p.levels) + 1))
        if offered.left_out:
            # the folder once, then each file by its name: a line a file fits the menu's width
            rows.append(MenuRow(f"left out of your packs ({offered.left_out[0].path.parent}):"))
            rows.extend(MenuRow(f"  {_short_why(left)}") for left in offered.left_out)
        choosable = [k for k, r in enumerate(rows) if r.level is not None]
        if not choosable:  # a board played on its own (the editor's p): no menu to open
            self.message = "no other levels here: this board is played on its own"
            return
        self.menu_rows = rows
        current = [k for k, r in enumerate(rows) if r.level is not None and r.level.key == level.key]
        self.menu_index = current[0] if current else (choosable[0] if choosable else 0)
        self._set_mode(Mode.MENU)

    def _menu_row(self, level: Level) -> MenuRow:
        record = self.saves.get(level.key, level.board)
        optimal = level.known_optimal
        number = f"{level.pack}:{level.number}" if level.pack else f"{level.number}"
        name = level.entry.meta.get("name", "")
        size = f"{level.board.width}x{level.board.height}"
        moves = f"{optimal if optimal is not None else '?':>3} moves"
        solved = bool(record and record.solved)
        perfect = bool(record and record.perfect)
        best = record.best if record else None
        state = record_text(record)
        columns = (number, name, size, moves, f"  {state}" if state else "")
        return MenuRow(MenuRow("", columns=columns).fitted(200), level, solved, perfect, best, columns)

    def _key_menu(self, name: str) -> None:
        choosable = [k for k, r in enumerate(self.menu_rows) if r.level is not None]
        if name in ("esc", "l"):
            self._set_mode(Mode.WON if self.result is not None else Mode.PLAY)
            return
        if name in ("ctrl-c", "ctrl-d"):
            self.quit()
            return
        if name == "q":
            self._set_mode(Mode.WON if self.result is not None else Mode.PLAY)
            self._quit_key()
            return
        if not choosable:
            return
        here = choosable.index(self.menu_index) if self.menu_index in choosable else 0
        moves = {"up": -1, "down": 1, "pgup": -10, "pgdn": 10, "home": -len(choosable), "end": len(choosable)}
        if name in moves:
            here = max(0, min(len(choosable) - 1, here + moves[name]))
            self.menu_index = choosable[here]
        elif name == "enter":
            chosen = self.menu_rows[self.menu_index].level
            if chosen is not None:
                self.go_to(chosen)

    # --- selection -------------------------------------------------------------------------------
    def _find_vehicle(self, text: str) -> str | None:
        names = self.game.position.names
        if text in names:
            return text
        folded = [n for n in names if n.lower() == text.lower()]
        return folded[0] if len(folded) == 1 else None

    def _select(self, name: str) -> None:
        self.selected = name
        vehicle = self.game.position.vehicle(name)
        count = sum(1 for m in self.game.options() if m.vehicle == name)
        can = f"{plural(count, 'legal move')}" if count else "no legal move here"
        self.message = f"{name} selected ({vehicle.description}, slides {_ways(vehicle.horizontal)}; {can})"

    def _cycle(self, step: int) -> None:
        """Tab: the next vehicle that can move (every vehicle when none can)."""
        names = self.game.position.names
        movable = {m.vehicle for m in self.game.options()}
        k = names.index(self.selected) if self.selected in names else (-1 if step > 0 else 0)
        for _ in names:
            k = (k + step) % len(names)
            if names[k] in movable or not movable:
                break
        self._select(names[k])

    # --- moving ----------------------------------------------------------------------------------
    def _arrow(self, name: str) -> None:
        self.hint = None
        if self.selected is None:
            self.message = "select a vehicle first: Tab or its name"
            return
        axis, sign = _ARROWS[name]
        vehicle = self.game.position.vehicle(self.selected)
        if (axis == "H") != vehicle.horizontal:
            ways = _ways(vehicle.horizontal)
            self.message = f"{vehicle.name} slides {ways} only (Tab or a name selects another vehicle)"
            return
        self.slide(Move(vehicle.name, sign))

    def slide(self, move: Move) -> bool:
        """Slide a vehicle if the oracle lists the move; else say why not.  True when it moved."""
        if self.game.won:
            return False
        if move not in self.game.options():
            board = self.game.position
            way = direction_word(board.vehicle(move.vehicle).orientation, move.distance)
            self.message = f"{move.vehicle} cannot slide {way} {move.steps}: {refusal(board, move)}"
            self.refused = (board, move)
            return False
        self._play(move)
        return True

    def _play(self, move: Move) -> None:
        """Play a legal move; a slide of the vehicle moved last joins that move (:meth:`Game.slide`)."""
        made = self.game.slide(move)
        if made is None:
            self.message = f"{move.vehicle} is back where it was"
            return
        self.message = f"{made}"
        self._after_move()

    def _after_move(self) -> None:
        self.cancel_wait("")  # a hint asked for before this move would be for another position
        self.game.options()  # re-encode the position and ask the oracle for its legal moves
        if self.game.won:
            self._win()

    def _undo(self) -> None:
        """Take back the last move; a hint or the solution searched for is for another position now."""
        move = self.game.undo()
        self.cancel_wait("")
        self.game.options()  # the oracle is asked for every position shown
        self.message = f"undid {move}"

    def _ask_hint(self) -> None:
        if self.game.won:
            return
        if not self.game.knows(self.game.position):
            self._request("hint")
            return
        hint = self.game.hint()
        if hint is None:
            self.message = NO_WIN
            return
        self.hint = hint
        self.message = f"hint: {describe(self.game.position, hint)}: Enter plays it"

    def _open_playback(self) -> None:
        if self.game.won:
            return
        if not self.game.knows(self.game.position):
            self._request("solution")
            return
        steps = self.game.solution()
        if steps is None:
            self.message = NO_WIN
            return
        self.playback = steps
        self.playback_index = 0
        self.animating = False
        self._set_mode(Mode.PLAYBACK)
        self.message = ""

    # --- the mouse -------------------------------------------------------------------------------
    def press(self, cell: Cell) -> None:
        """A button pressed on a cell of the board."""
        try:
            self._press(cell)
        except RushHourError as err:
            self.message = str(err)

    def _press(self, cell: Cell) -> None:
        board = self.game.position
        if self.mode is not Mode.PLAY or not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
            return
        name = board.at(cell)
        if name is not None and cell in board.walls:
            self.message = f"cell ({cell[0]},{cell[1]}) is a wall"
            return
        if name is not None:
            self.hint = None
            if name != self.selected:
                self._select(name)
            self._grab = cell
            return
        if self.selected is None:
            self.message = "click a vehicle first, then a free cell of its lane"
            return
        distance = self._distance_to(self.selected, cell)
        if distance is None:
            self.message = f"cell ({cell[0]},{cell[1]}) is not in {self.selected}'s lane"
            return
        reaching = [
            m
            for m in self.game.options()
            if m.vehicle == self.selected and cell in board.apply(m).cells_of(self.selected)
        ]
        if reaching:
            self.hint = None
            self._play(min(reaching, key=lambda m: m.steps))
        else:
            self.slide(Move(self.selected, distance))

    def drag(self, cell: Cell) -> None:
        """The pointer moved to a cell with a button held: the grabbed vehicle follows as far as it may."""
        if self._grab is None or self.mode is not Mode.PLAY or self.selected is None:
            return
        try:
            vehicle = self.game.position.vehicle(self.selected)
            along = 1 if vehicle.horizontal else 0
            if cell[1 - along] != self._grab[1 - along]:
                return
            wanted = cell[along] - self._grab[along]
            if not wanted:
                return
            same_way = [
                m
                for m in self.game.options()
                if m.vehicle == vehicle.name and m.distance * wanted > 0 and m.steps <= abs(wanted)
            ]
            if not same_way:
                return
            move = max(same_way, key=lambda m: m.steps)
            grab = list(self._grab)
            grab[along] += move.distance
            self._grab = (grab[0], grab[1])
            self._play(move)
        except RushHourError as err:
            self.message = str(err)

    def release(self) -> None:
        self._grab = None

    def _distance_to(self, name: str, cell: Cell) -> int | None:
        """The signed slide that brings the vehicle's nearer end onto ``cell``; None off its lane."""
        vehicle = self.game.position.vehicle(name)
        if vehicle.horizontal:
            if cell[0] != vehicle.row:
                return None
            first, last, at = vehicle.col, vehicle.col + vehicle.length - 1, cell[1]
        else:
            if cell[1] != vehicle.col:
                return None
            first, last, at = vehicle.row, vehicle.row + vehicle.length - 1, cell[0]
        if at > last:
            return at - last
        if at < first:
            return at - first
        return None

    # --- the end of a level --------------------------------------------------------------------------
    def _win(self) -> None:
        self.hint = None
        self.box_hidden = False
        self.clock_line = ""  # with the clock: the time the moves took against the fastest solution
        self.result = self.game.result()
        self._set_mode(Mode.WON)
        self.message = "SOLVED"
        self.save_note = ""
        if not self.game.optimal_pending:
            self._settle()
            return
        self.settling = True  # the optimum is searched for first, then the win is saved with it
        if self.worker.purpose != "optimum" or self.worker.board != self.game.start:
            self.worker.cancel()
        self._resume_optimum()

    def _settle(self) -> None:
        """Save the win, the optimum known (or given up); with the clock, compare it with the fastest
        solution (searched for beside the game)."""
        self.settling = False
        self.result, self.save_note = self.session.win(self.elapsed())
        if self.timed is not None and not self.clock_line:
            self.clock_line = "Clock: finding the fastest solution to compare..."
            self.worker.start(self.game.start, "clock", self._clock_job())
            self.poll()

    def _clock_job(self) -> Callable[[Board], object]:
        start, history, model = self.game.start, self.game.history, self.timed
        assert model is not None

        def report(board: Board) -> str:
            return clock_report(start, history, model, time_limit=SOLVER_SECONDS)

        return report

    def _stop_settling(self) -> None:
        """The player does not wait for the optimum: the win is saved without it."""
        if self.settling:
            self.worker.cancel()
            self.game.give_up_optimal()
            self.optimal_label = optimal_text(self.game, ask=False)
            self._settle()

    def quit(self) -> None:
        """Leave: a win was saved when it happened; a level left unsolved after help is remembered
        with that help, which the next win of the level counts."""
        self._leave()
        self._set_mode(Mode.QUIT)

    def _leave(self) -> None:
        warning = self.session.leave(self.elapsed())
        if warning:
            self.save_note = warning


__all__ = ["COMMAND_CHARS", "KEYS", "Controller", "MenuRow", "Mode"]
