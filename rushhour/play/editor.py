"""The board editor's state machine: what a key or the mouse does to the :class:`~rushhour.play.draft.Draft`,
and the live check beside it.

Nothing here touches the terminal (:mod:`rushhour.play.editscreen` draws and reads keys).  Every change
is checked at once (a refused edit says why and changes nothing; an invalid board says what is wrong),
and a valid board's reachable set is explored by a :class:`~rushhour.play.worker.Worker` beside the keys:
its optimum and size, or unsolvable (proven: the whole set was explored), and its hardest position.  A
change cancels the exploration under way and starts the next one; Esc stops it.  Harden runs in a
second worker, round after round from the best board so far, until ``h`` stops it.

Key rule, as in the game: upper-case letters and digits select vehicles, lower-case letters are
commands.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from rushhour.board import HORIZONTAL, VERTICAL, Board, Cell
from rushhour.errors import LimitReachedError, RushHourError, SolverError
from rushhour.formats import write_board
from rushhour.play.draft import Draft, EditError, noun
from rushhour.play.worker import Outcome, Worker
from rushhour.search import analyze, solve  # imported here, so that a worker forked from the editor has it
from rushhour.search.tables import tables_for
from rushhour.text import plural

#: the limits of the live check's exploration (a larger set says so and is not explored further)
CHECK_STATES = 20_000_000
CHECK_SECONDS = 300.0
#: boards up to this many cells get their search tables made in the editor before a check is forked
#: (at most about 2 ms; a 16x16 board's take 17 ms, which the worker spends instead)
WARM_CELLS = 144
#: the seconds of one round of harden, once the first short rounds are over (its best is shown after
#: each round)
HARDEN_ROUND = 5.0
#: the file formats a board is saved in, by the suffix of the file's name (anything else: grid)
SUFFIX_FORMATS = {".csv": "csv", ".json": "json", ".fog": "fogleman"}
FORMAT_WORDS = ("grid", "fogleman", "csv", "json")

KEYS: tuple[tuple[str, str], ...] = (
    ("arrows", "move the cursor; with a vehicle selected, move the vehicle"),
    ("A-Z 0-9, Tab", "select a vehicle (Enter or a click selects the one under the cursor)"),
    ("Esc", "stop the check under way, else unselect"),
    ("c  t", "place a car (2 cells) or a truck (3 cells) at the cursor, across"),
    ("o", "rotate the selected vehicle (about its first cell)"),
    ("+  -", "make the selected vehicle longer or shorter"),
    ("x  Backspace", "delete the selected vehicle, else what is under the cursor"),
    ("w", "put a wall at the cursor, or take it away"),
    ("g", "make the selected vehicle the goal vehicle"),
    ("e", "move the exit to the other end of the goal vehicle's lane"),
    ("n", "rename the selected vehicle (type the name, Enter)"),
    ("u  r", "undo, redo (Ctrl-Z, Ctrl-Y too)"),
    ("j", "jump to the hardest position of the reachable set"),
    ("h", "harden in the background (h again stops); a takes its best board"),
    ("s", "save to a file (PATH, or PATH FORMAT: grid, fogleman, csv, json)"),
    ("k", "add the board to a pack of yours (play it as NAME:N)"),
    ("p", "play the board, then come back"),
    (
        "mouse",
        "click selects; drag from an empty cell along a row or column draws a vehicle; "
        "drag a vehicle moves it",
    ),
    ("?", "this help"),
    ("q", "leave (asks when the board is not saved)"),
    ("Ctrl-D, Ctrl-C", "leave at once, an unsaved board kept for next time"),
)


class Mode(enum.Enum):
    EDIT = "edit"
    HELP = "help"
    PROMPT = "prompt"  # typing a name, a path or a pack name
    CONFIRM_QUIT = "confirm-quit"
    PLAY = "play"  # the screen plays the board, then sets EDIT again
    QUIT = "quit"


@dataclass(frozen=True)
class Check:
    """What the live check knows of one board: ``state`` is ``checking``, ``solvable``, ``unsolvable``
    (proven), ``stopped`` (cancelled or a limit: ``reason``)."""

    board: Board
    state: str
    optimum: int | None = None
    reachable: int | None = None
    hardest: Board | None = None
    hardest_moves: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class Hardened:
    """Harden's best board so far: its hardest position and that position's optimum."""

    board: Board
    moves: int
    reachable: int


def explore(board: Board) -> tuple[int, int, Board, int]:
    """The live check's job: the board's optimum (-1: unsolvable, the whole set explored), the size of
    its reachable set, its hardest position and that position's optimum.

    Both optima are found again by the solver (its plan replayed), which must agree with the
    exploration; an unsolvable board is proven by the exploration of its whole reachable set."""
    a = analyze(board, max_states=CHECK_STATES, time_limit=CHECK_SECONDS)
    if a.solvable:
        for position, length in ((board, a.start_distance), (a.hardest, a.hardest_distance)):
            found = solve(position, time_limit=CHECK_SECONDS).length
            if found != length:
                raise SolverError(f"the solver needs {found} moves where the exploration found {length}")
    return a.start_distance, a.cluster_size, a.hardest, a.hardest_distance


def harden_round(board: Board, seed: int, seconds: float = HARDEN_ROUND) -> tuple[Board, int, int] | str:
    """One round of harden from ``board``: the hardest position of the best board it found (verified
    by harden: solved again and replayed), its optimum and its reachable set's size; or, when a limit
    stopped the round before the start's hardest position was verified (the analysis or its solve
    took longer than ``seconds``), why, so that a longer round may try again."""
    from rushhour.harden import harden

    try:
        found = harden(board, time_limit=seconds, seed=seed)
    except LimitReachedError as err:
        return str(err)
    best = found[-1].hardest
    return best.board, best.length, best.reachable


#: header keys that say something of the board itself (its optimum, how it was made): dropped once
#: the board is changed
DESCRIBE_THE_BOARD = frozenset(
    {"moves", "cluster", "distances", "steps", "fogleman", "method", "seed", "try", "command", "source",
     "hardest"}
)


#: a kept board: a valid one as its board, one not valid yet as its draft (:mod:`rushhour.play.kept`)
Kept = Board | Draft


class KeptStore(Protocol):
    """Where unsaved boards are kept for next time (:class:`rushhour.play.kept.KeptBoards`)."""

    def keep(self, board: Kept, replacing: Kept | None = None) -> str: ...

    def forget(self, board: Kept) -> str: ...


def parse_save(text: str) -> tuple[str, str]:
    """``PATH`` or ``PATH FORMAT`` typed at the save prompt: the path and the format."""
    words = text.strip().rsplit(None, 1)
    if len(words) == 2 and words[1].lower() in FORMAT_WORDS:
        return os.path.expanduser(words[0]), words[1].lower()
    path = os.path.expanduser(text.strip())
    return path, SUFFIX_FORMATS.get(Path(path).suffix.lower(), "grid")


def _what_changes(board: Board, header: dict[str, str], text: str, fmt: str) -> str:
    """What a format does to the board it writes, read back from ``text``, for the save's message: the
    vehicles it names its own way (the Fogleman format: A for the goal, B, C...), the header lines it
    has no place for; '' when it keeps everything."""
    from rushhour.formats import parse_text

    again = parse_text(text, fmt=fmt)[0]
    said = []
    if sorted(again.board.names) != sorted(board.names):
        said.append(f"the vehicles are named as the format names them ({', '.join(again.board.names)})")
    lost = [key for key, value in header.items() if str(again.meta.get(key)) != str(value)]
    if lost:
        said.append(f"the format has no place for the board's {', '.join(lost)}")
    return "; " + "; ".join(said) if said else ""


class Editor:
    """The editor's state: the draft, its history, the cursor and selection, the live check."""

    def __init__(
        self,
        draft: Draft,
        *,
        checker: Worker,
        hardener: Worker,
        path: str | None = None,
        fmt: str | None = None,
        saved: bool = False,
        label: str = "new board",
        kept: KeptStore | None = None,
        opened_kept: Kept | None = None,
        meta: dict[str, str] | None = None,
        add_to_pack: Callable[[str, Board, dict[str, str]], int] | None = None,
    ) -> None:
        self.draft = draft
        self.undo_stack: list[Draft] = []
        self.redo_stack: list[Draft] = []
        self.saved_draft: Draft | None = draft if saved else None
        self.path, self.fmt = path, fmt  # the board's file and its format
        self.label = label  # what the title calls a board without a file (a new board, classic:12)
        self.cursor: Cell = (0, 0)
        self.selected: str | None = None
        self.mode = Mode.EDIT
        self.message = ""
        self.prompt = ""  # what the prompt asks for: "name", "save", "pack"
        self.leave_when_saved = False  # the save prompt was opened by the quit question: leave once saved
        self.typed = ""
        self.prompt_error = ""  # why what was typed was refused: the prompt stays open with it
        self.help_top = 0
        self.checker, self.hardener = checker, hardener
        self.check: Check | None = None
        self.hardened: Hardened | None = None
        self.harden_on = False
        self.harden_rounds = 0
        self.harden_seconds = HARDEN_ROUND
        self._kept = kept
        self.opened_kept = opened_kept  # the kept board this session opened: saved, it is forgotten
        self.opened = draft  # as opened: the header of its file still holds while the board is this
        self.meta = dict(meta or {})  # the header of the board's file, written back into it
        self._replacing = ""  # a file that exists, named twice at the save prompt: replaced
        self._add_to_pack = add_to_pack
        self._press: Cell | None = None
        self._dragged: Cell | None = None
        self.interrupted = False
        self.keep_failed = ""  # why the board could not be kept when the quit question's y tried
        #: why the screen could not show a draft (None: it can); set by the screen, which knows its size
        self.unshown: Callable[[Draft], str | None] = lambda draft: None
        self._pending = False
        self.recheck()

    # --- reading ---------------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        return self.draft != self.saved_draft

    def board(self) -> Board | None:
        try:
            return self.draft.board()
        except RushHourError:
            return None

    def status_lines(self) -> list[str]:
        """The live check, for the panel beside the board."""
        problem = self.draft.problem()
        if problem is not None:
            return ["INVALID", problem]
        check = self.check
        lines = ["valid"]
        if check is None:
            return lines
        if check.state == "checking":
            lines.append("exploring the reachable set... (Esc stops)")
        elif check.state == "stopped":
            lines.append(f"check stopped: {check.reason}")
        elif check.state == "unsolvable":
            size = plural(check.reachable or 0, "reachable position")
            lines += ["UNSOLVABLE (proven):", f"none of the {size} wins"]
        else:
            lines += [
                f"optimum: {plural(check.optimum or 0, 'move')}",
                f"reachable set: {plural(check.reachable or 0, 'position')}",
                f"hardest: {plural(check.hardest_moves or 0, 'move')} (j jumps there)",
            ]
        return lines + self.harden_lines()

    def harden_lines(self) -> list[str]:
        if not self.harden_on and self.hardened is None:
            return []
        state = f"harden: round {self.harden_rounds + 1}..." if self.harden_on else "harden: stopped"
        lines = ["", state]
        if self.hardened is not None:
            h = self.hardened
            lines += [f"best: {plural(h.moves, 'move')} ({plural(h.reachable, 'position')})", "a takes it"]
        return lines

    def busy(self) -> bool:
        return self.checker.busy or self.hardener.busy

    # --- the live check --------------------------------------------------------------------------
    def recheck(self) -> None:
        """Check the draft again: the check is started by :meth:`launch`, once the screen has answered
        the key (the check under way, of another board, is cancelled then)."""
        board = self.board()
        same = board is not None and self.check is not None and self.check.board == board
        if same and self.check is not None and self.check.state != "stopped":
            return  # the same board (an edit undone): its answer stands, or is on its way
        self.check = None if board is None else Check(board, "checking")
        self._pending = True

    def launch(self) -> None:
        """Start the check asked for by :meth:`recheck`, cancelling the one under way."""
        if not self._pending:
            return
        self._pending = False
        self.checker.cancel()
        if self.check is not None and self.check.state == "checking":
            board = self.check.board
            if board.width * board.height <= WARM_CELLS:
                # the board's tables made here, kept for the next check of the same lanes: a worker
                # forked from this process starts with them
                tables_for(board.layout, "moves")
            self.checker.start(board, "check", explore)

    def tick(self) -> bool:
        """Start a check asked for, take the answers of the workers that have ended; True when something
        changed."""
        self.launch()
        changed = False
        done = self.checker.poll()
        if done is not None:
            self._checked(done)
            changed = True
        done = self.hardener.poll()
        if done is not None:
            self._hardened(done)
            changed = True
        return changed

    def _checked(self, done: Outcome) -> None:
        if self.check is None or done.board != self.check.board:
            return
        if done.error is not None:
            self.check = Check(done.board, "stopped", reason=done.error)
            return
        assert isinstance(done.value, tuple)
        optimum, size, hardest, far = done.value
        if optimum < 0:
            self.check = Check(done.board, "unsolvable", reachable=size)
        else:
            self.check = Check(done.board, "solvable", optimum, size, hardest, far)

    def _hardened(self, done: Outcome) -> None:
        if done.error is not None:
            self.harden_on = False
            self.message = f"harden stopped: {done.error}"
            return
        if isinstance(done.value, str):  # a round too short to verify the start: a longer one, if any
            if self._round_seconds() >= self.harden_seconds:
                self.harden_on = False
                self.message = f"harden stopped: {done.value}"
                return
            self.harden_rounds += 1
            self._harden_next()
            return
        assert isinstance(done.value, tuple)
        board, moves, size = done.value
        if self.hardened is None or moves > self.hardened.moves:
            self.hardened = Hardened(board, moves, size)
        self.harden_rounds += 1
        if self.harden_on:
            self._harden_next()

    def _harden_next(self) -> None:
        start = self.hardened.board if self.hardened is not None else self.board()
        if start is None:
            self.harden_on = False
            return
        seed, seconds = self.harden_rounds, self._round_seconds()
        self.hardener.start(start, "harden", lambda b: harden_round(b, seed, seconds))

    def _round_seconds(self) -> float:
        """The time of the round under way: 0.5, 1, 2, 4 seconds, then ``harden_seconds`` (a first best
        is shown soon)."""
        return min(self.harden_seconds, 0.5 * 2**self.harden_rounds)

    def stop(self) -> bool:
        """Esc: stop the check under way; True when there was one."""
        if self.check is not None and self.check.state == "checking":
            self._pending = False
            self.checker.cancel()
            self.check = Check(self.check.board, "stopped", reason="stopped by Esc (any change checks again)")
            return True
        return False

    def close(self) -> None:
        self.checker.close()
        self.hardener.close()

    # --- changing the draft ----------------------------------------------------------------------
    def change(self, edit: Callable[[Draft], Draft], said: str = "") -> bool:
        """Apply an edit; a refused one leaves everything as it was and says why."""
        try:
            new = edit(self.draft)
        except EditError as err:
            self.message = f"refused: {err}"
            return False
        if new == self.draft:
            return False
        unshown = self.unshown(new)
        if unshown is not None and self.unshown(self.draft) is None:  # it could not be seen, nor undone
            self.message = f"refused: {unshown}"
            return False
        self.undo_stack.append(self.draft)
        self.redo_stack.clear()
        self.draft = new
        self.message = said
        self.recheck()
        return True

    def undo(self) -> None:
        if not self.undo_stack:
            self.message = "nothing to undo"
            return
        self.redo_stack.append(self.draft)
        self.draft = self.undo_stack.pop()
        self._after_history("undone", self.redo_stack[-1])

    def redo(self) -> None:
        if not self.redo_stack:
            self.message = "nothing to redo"
            return
        self.undo_stack.append(self.draft)
        self.draft = self.redo_stack.pop()
        self._after_history("redone", self.undo_stack[-1])

    def _after_history(self, said: str, before: Draft) -> None:
        """After an undo or a redo from ``before``: a selected vehicle gone under its name (a rename
        taken back) stays selected under the name it has now, the vehicle where it stood."""
        if self.selected is not None and self.draft.vehicle(self.selected) is None:
            was = before.vehicle(self.selected)
            here = self.draft.at(before.cells_of(was)[0]) if was is not None else None
            self.selected = here if here not in (None, "#") else None
        self.message = said
        self.recheck()

    def target(self) -> str | None:
        """The vehicle a command acts on: the selected one, else the one under the cursor."""
        if self.selected is not None:
            return self.selected
        here = self.draft.at(self.cursor)
        return None if here in (None, "#") else here

    # --- keys ------------------------------------------------------------------------------------
    def key(self, name: str) -> None:
        if name == "ctrl-c":
            self.interrupted = True
            self.leave()
            return
        if name == "ctrl-d":  # in every mode, a question or a prompt too
            self.leave_now()
            return
        if self.mode is Mode.HELP:
            self._help_key(name)
        elif self.mode is Mode.PROMPT:
            self._prompt_key(name)
        elif self.mode is Mode.CONFIRM_QUIT:
            self._confirm_key(name)
        elif self.mode is Mode.EDIT:
            self._edit_key(name)

    def _help_key(self, name: str) -> None:
        if name in ("up", "down", "pgup", "pgdn"):
            step = {"up": -1, "down": 1, "pgup": -10, "pgdn": 10}[name]
            self.help_top = max(0, self.help_top + step)
            return
        self.mode = Mode.EDIT

    def _edit_key(self, name: str) -> None:
        self.message = ""
        if name in ("up", "down", "left", "right"):
            self._arrow(name)
        elif len(name) == 1 and (name.isupper() or name.isdigit()):
            self.select(name)
        else:
            action = self._commands().get(name)
            if action is None:
                self.message = f"{name}: not a key of the editor (? lists them)"
            else:
                action()

    def _commands(self) -> dict[str, Callable[[], None]]:
        return {
            "esc": self._escape,
            "enter": self._select_here,
            " ": self._select_here,
            "tab": self._next_vehicle,
            "c": lambda: self.place(2),
            "t": lambda: self.place(3),
            "o": self.rotate,
            "+": lambda: self.resize(1),
            "-": lambda: self.resize(-1),
            "x": self.delete,
            "backspace": self.delete,
            "w": self.wall,
            "g": self.goal,
            "e": self.next_exit,
            "n": self._ask_name,
            "u": self.undo,
            "ctrl-z": self.undo,
            "r": self.redo,
            "ctrl-y": self.redo,
            "j": self.jump,
            "h": self.toggle_harden,
            "a": self.take_hardened,
            "s": lambda: self.ask("save", self.save_default()),
            "k": lambda: self.ask("pack", ""),
            "p": self.play,
            "?": self._help,
            "q": self.leave,
        }

    def _help(self) -> None:
        self.mode, self.help_top = Mode.HELP, 0

    def _escape(self) -> None:
        if not self.stop():
            self.selected = None

    def _arrow(self, name: str) -> None:
        dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[name]
        if self.selected is not None:
            chosen = self.selected
            if self.change(lambda d: d.shift(chosen, dr, dc)):
                v = self.draft.vehicle(chosen)
                assert v is not None
                self.cursor = (v.row, v.col)
            return
        r, c = self.cursor
        self.cursor = (min(max(0, r + dr), self.draft.height - 1), min(max(0, c + dc), self.draft.width - 1))

    def select(self, name: str) -> None:
        v = self.draft.vehicle(name)
        if v is None:
            self.message = f"there is no vehicle {name} (c places a car, t a truck)"
            return
        self.selected, self.cursor = name, (v.row, v.col)

    def _select_here(self) -> None:
        here = self.draft.at(self.cursor)
        if here in (None, "#") or here == self.selected:
            self.selected = None
        else:
            self.selected = here

    def _next_vehicle(self) -> None:
        names = self.draft.names
        if not names:
            self.message = "there are no vehicles yet (c places a car, t a truck)"
            return
        k = names.index(self.selected) + 1 if self.selected in names else 0
        self.select(names[k % len(names)])

    def place(self, length: int, orientation: str = HORIZONTAL) -> None:
        row, col = self.cursor
        before = set(self.draft.names)
        if self.change(lambda d: d.place(row, col, orientation, length)):
            (name,) = set(self.draft.names) - before
            self.selected = name
            goal = " (the goal vehicle: e moves its exit)" if name == self.draft.goal else ""
            self.message = f"{noun(length)} {name} placed{goal}"

    def rotate(self) -> None:
        name = self.target()
        if name is None:
            self.message = "select a vehicle to rotate"
            return
        self.change(lambda d: d.rotate(name), f"{name} rotated")

    def resize(self, step: int) -> None:
        name = self.target()
        v = None if name is None else self.draft.vehicle(name)
        if name is None or v is None:
            self.message = "select a vehicle to resize"
            return
        self.change(lambda d: d.resize(name, v.length + step), f"{name} is {v.length + step} cells long")

    def delete(self) -> None:
        name = self.target()
        if name is not None:
            if self.change(lambda d: d.delete(name), f"{name} deleted"):
                self.selected = None
            return
        if self.cursor in self.draft.walls:
            cell = self.cursor
            self.change(lambda d: d.toggle_wall(cell), "wall taken away")
            return
        self.message = "nothing to delete here"

    def wall(self) -> None:
        cell = self.cursor
        adding = cell not in self.draft.walls
        self.change(lambda d: d.toggle_wall(cell), "wall placed" if adding else "wall taken away")

    def goal(self) -> None:
        name = self.target()
        if name is None:
            self.message = "select the vehicle that should leave by the exit"
            return
        self.change(lambda d: d.make_goal(name), f"{name} is the goal vehicle")

    def next_exit(self) -> None:
        self.change(lambda d: d.next_exit(), "the exit moved")

    def jump(self) -> None:
        check = self.check
        if check is None or check.hardest is None or check.state != "solvable":
            self.message = "the hardest position is known once the check has ended"
            return
        hardest = check.hardest
        said = f"the hardest position: {plural(check.hardest_moves or 0, 'move')}"
        if self.change(lambda d: d.with_positions(hardest), said):
            return
        self.message = "this is the hardest position already"

    def toggle_harden(self) -> None:
        if self.harden_on:
            self.harden_on = False
            self.hardener.cancel()
            self.message = "harden stopped"
            return
        if self.board() is None:
            self.message = "harden needs a valid board"
            return
        self.harden_on, self.harden_rounds, self.hardened = True, 0, None
        self._harden_next()
        self.message = "hardening in the background (h stops, a takes the best board)"

    def take_hardened(self) -> None:
        h = self.hardened
        if h is None:
            self.message = "harden has found nothing yet (h starts it)"
            return
        new = Draft.of(h.board)
        if self.change(lambda d: new, f"harden's best board: {h.moves} moves"):
            self.selected = None

    def play(self) -> None:
        problem = self.draft.problem()
        if problem is not None:
            self.message = f"cannot play an invalid board: {problem}"
            return
        self.mode = Mode.PLAY

    # --- prompts ---------------------------------------------------------------------------------
    def ask(self, what: str, typed: str) -> None:
        if what in ("save", "pack") and self.board() is None:
            self.message = f"cannot save an invalid board: {self.draft.problem()}"
            return
        self.mode, self.prompt, self.typed, self.prompt_error = Mode.PROMPT, what, typed, ""
        self._replacing = ""
        self.leave_when_saved = False  # set by the quit question's s

    def _ask_name(self) -> None:
        name = self.target()
        if name is None:
            self.message = "select the vehicle to rename"
            return
        self.selected = name
        self.ask("name", "")

    def prompt_text(self) -> str:
        asked = {
            "name": f"new name for {self.selected}",
            "save": "save to (PATH or PATH FORMAT)",
            "pack": "add to your pack named",
        }[self.prompt]
        return f"{asked}: {self.typed}_  (Enter: done, Esc: cancel)"

    def _prompt_key(self, name: str) -> None:
        if name == "esc":
            self.mode, self.message = Mode.EDIT, "cancelled"
        elif name == "backspace":
            self.typed, self.prompt_error = self.typed[:-1], ""
        elif name == "enter":
            self.mode = Mode.EDIT
            done = {"name": self._renamed, "save": self._save_typed, "pack": self._pack_typed}[self.prompt]()
            if not done:  # refused: the prompt stays open with what was typed, and says why
                self.mode, self.prompt_error = Mode.PROMPT, self.message
            elif self.leave_when_saved and not self.dirty:  # the quit question's s: saved, so leave
                self.mode = Mode.QUIT
        elif len(name) == 1:
            self.typed, self.prompt_error = self.typed + name, ""

    def _renamed(self) -> bool:
        """Rename the selected vehicle to what was typed; False when the name is refused."""
        old, new = self.selected, self.typed.strip()
        if old is None or not new or new == old:
            return True
        if not self.change(lambda d: d.rename(old, new), f"{old} is now {new}"):
            return False
        self.selected = new
        return True

    def save_default(self) -> str:
        """What the save prompt offers: the board's file, with its format when the name does not say it."""
        if self.path is None:
            return ""
        if self.fmt is None or parse_save(self.path)[1] == self.fmt:
            return self.path
        return f"{self.path} {self.fmt}"

    def _save_typed(self) -> bool:
        """Save where the prompt says; False when the file cannot be written."""
        if not self.typed.strip():
            self.message = "no file name given: nothing saved"
            return True
        path, fmt = parse_save(self.typed)
        return self.save(path, fmt)

    def _own_file(self, path: str) -> bool:
        if self.path is None:
            return False
        try:
            return os.path.samefile(path, self.path)
        except OSError:
            return os.path.abspath(path) == os.path.abspath(self.path)

    def _check_figures(self, board: Board) -> dict[str, str]:
        """The optimum and reachable set of the live check, when it is this board's."""
        if self.check is not None and self.check.state == "solvable" and self.check.board == board:
            return {"moves": str(self.check.optimum), "cluster": str(self.check.reachable)}
        return {}

    def header(self, board: Board, path: str) -> dict[str, str]:
        """The header lines written with the board: those of its own file that still hold (all of them
        while it is the board opened; its title, name and the like once changed), and the live check's
        optimum and reachable set."""
        meta: dict[str, str] = {}
        if self._own_file(path):
            same = self.draft == self.opened
            meta = {k: v for k, v in self.meta.items() if same or k not in DESCRIBE_THE_BOARD}
        return meta | self._check_figures(board)

    def save(self, path: str, fmt: str) -> bool:
        """Write the board to ``path`` in ``fmt``; a failure is said and nothing is lost.  A file other
        than the board's own is replaced only when named twice in a row; a read-only one never."""
        from rushhour.files import own_stream, write_text_atomic

        board = self.board()
        if board is None:
            return False
        if own_stream(path) is not None:  # written there, the board would land on the screen or a pipe
            self.message = f"not saved: {path} is one of the editor's own streams, not a file: name a file"
            return False
        if os.path.isfile(path):
            if not os.access(path, os.W_OK) or not os.stat(path).st_mode & 0o222:
                self.message = f"not saved: {path} is read-only"
                return False
            if not self._own_file(path) and self._replacing != path:
                self._replacing = path
                self.message = f"{path} exists: Enter again replaces it, Esc keeps it"
                return False
        header = self.header(board, path)
        try:
            text = write_board(board, fmt, header)
            write_text_atomic(path, text, what="")
        except RushHourError as err:
            self.message = f"not saved: {err}"
            return False
        self.path, self.fmt, self.saved_draft = path, fmt, self.draft
        self.meta, self.opened = header, self.draft  # the file's header now, of the board as saved
        self.message = f"saved to {path} ({fmt}){_what_changes(board, header, text, fmt)}"
        self._forget_kept()
        return True

    def _pack_typed(self) -> bool:
        """Add the board to the pack named at the prompt; False when the pack refuses it."""
        board = self.board()
        if board is None or self._add_to_pack is None:
            return True
        name = self.typed.strip()
        try:
            number = self._add_to_pack(name, board, self._check_figures(board))
        except RushHourError as err:
            self.message = f"not saved: {err}"
            return False
        self.saved_draft = self.draft
        self.message = f"saved as {name}:{number} (rushhour play {name}:{number})"
        self._forget_kept()
        return True

    # --- leaving ---------------------------------------------------------------------------------
    def leave(self) -> None:
        """q: leave at once when the board is saved; else ask (after Ctrl-C: keep it without asking)."""
        if self.interrupted:
            self.leave_now()
        elif not self.dirty or not self.draft.vehicles and not self.draft.walls:  # nothing to lose
            self.mode = Mode.QUIT
        else:
            self.mode, self.keep_failed = Mode.CONFIRM_QUIT, ""

    def leave_now(self) -> None:
        """Ctrl-C, Ctrl-D, a signal, the end of input: leave without asking, an unsaved board kept."""
        if self.dirty and (self.draft.vehicles or self.draft.walls):
            self._keep_unsaved()
        self.mode = Mode.QUIT

    def confirm_text(self) -> str:
        problem = self.draft.problem()
        if self.keep_failed:
            why = self.keep_failed[0].upper() + self.keep_failed[1:]
            if problem is not None:  # s cannot save an invalid board
                return f"{why}. y leaves without it, other keys stay"
            return f"{why}. y leaves without it, s saves and leaves, other keys stay"
        if problem is not None:
            return (
                "The board is not saved (not valid yet): y leaves and keeps it for next time, other keys stay"
            )
        return (
            "The board is not saved: y leaves and keeps it for next time, s saves and leaves, other keys stay"
        )

    def _confirm_key(self, name: str) -> None:
        self.mode = Mode.EDIT
        if name in ("y", "q", "enter"):
            if not self.keep_failed and not self._keep_unsaved():  # asked again, saying why
                self.keep_failed = self.message.removeprefix("warning: ")
                self.mode = Mode.CONFIRM_QUIT
                return
            self.mode = Mode.QUIT
        elif name == "s":
            self.ask("save", self.save_default())
            self.leave_when_saved = self.mode is Mode.PROMPT

    def _keep_unsaved(self) -> bool:
        """Keep the board for next time, in place of the kept board it was opened from: a valid board as
        its board, one not valid yet as its draft (with its vehicles in the order of their names, as it
        is read back); False when keeping it failed (said)."""
        board = self.board()
        kept: Kept = board if board is not None else self.draft.by_name()
        if self._kept is not None:
            self.message = self._kept.keep(kept, self.opened_kept)
            if self.message.startswith("warning:"):
                return False
            self.opened_kept = kept
        return True

    def _forget_kept(self) -> None:
        """The board is saved: the kept board it was opened from is not needed (a failure is only
        said); the boards other sessions kept stay."""
        if self._kept is not None and self.opened_kept is not None:
            said = self._kept.forget(self.opened_kept)
            self.opened_kept = None
            if said:
                self.message = f"{self.message}; {said}"

    # --- the mouse -------------------------------------------------------------------------------
    def press(self, cell: Cell) -> None:
        if self.mode is not Mode.EDIT:
            return
        self._press, self._dragged = cell, None
        self.cursor = cell

    def drag(self, cell: Cell) -> None:
        if self._press is not None:
            self._dragged = cell

    def release(self, cell: Cell | None = None) -> None:
        start, end = self._press, cell or self._dragged
        self._press = self._dragged = None
        if start is None or self.mode is not Mode.EDIT:
            return
        if end is None or end == start:
            self.cursor = start
            here = self.draft.at(start)
            self.selected = None if here in (None, "#") else here
            return
        here = self.draft.at(start)
        if here is not None and here != "#":
            self._drag_vehicle(here, start, end)
        else:
            self._draw(start, end)

    def _drag_vehicle(self, name: str, start: Cell, end: Cell) -> None:
        dr, dc = end[0] - start[0], end[1] - start[1]
        self.selected = name
        if self.change(lambda d: d.shift(name, dr, dc), f"{name} moved"):
            self.cursor = end

    def _draw(self, start: Cell, end: Cell) -> None:
        (r0, c0), (r1, c1) = start, end
        if r0 != r1 and c0 != c1:
            self.message = "refused: draw a vehicle along one row or one column"
            return
        orientation = HORIZONTAL if r0 == r1 else VERTICAL
        length = abs(c1 - c0) + 1 if r0 == r1 else abs(r1 - r0) + 1
        self.cursor = (min(r0, r1), min(c0, c1))
        self.place(length, orientation)


__all__ = ["KEYS", "Check", "Editor", "Hardened", "Mode", "explore", "harden_round", "parse_save"]
