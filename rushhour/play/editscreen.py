"""The editor full screen, on the game's terminal layer: the board on the left, the live check beside it,
the message and the keys below; keys and the mouse go to an :class:`~rushhour.play.editor.Editor`.

The loop waits on the keys and on the editor's workers together, so that an answer of the check is
drawn as soon as it comes and a key is never kept waiting by a search.  ``p`` plays the board in the
game's own loop (:func:`rushhour.play.tui.play_in`) in the same window, then comes back.
"""

from __future__ import annotations

import curses
import os
import select
import sys
import textwrap
import time
from typing import Any

from rushhour.board import HORIZONTAL, Board, Vehicle
from rushhour.formats import Entry
from rushhour.play.draft import Draft
from rushhour.play.editor import KEYS, Editor, Mode
from rushhour.play.screen import (
    CELL_SIZES,
    Geometry,
    Painter,
    column_labels,
    label_row,
    message_lines,
    put_clipped,
    too_small_text,
)
from rushhour.play.session import Signalled, leave_on_signals
from rushhour.play.tui import (
    EOF_ERRORS,
    TICK_MS,
    MouseReport,
    full_screen,
    key_name,
    mouse_motion,
    pointer_steps,
    read_key,
    setup_window,
)
from rushhour.render.palette import Colour, vehicle_colors, wall_color
from rushhour.render.text import target_words
from rushhour.text import plural

#: columns of the panel beside the board (the live check), and the gap before it
PANEL_COLS = 36
#: lines around the board: title, column numbers, frame (2), exit word, message, keys
CHROME_ROWS = 7
#: columns beside the board: row numbers (3), the frame (2), the exit mark (7), the gap (2)
CHROME_COLS = 3 + 2 + 7 + 2
FOOTERS = (
    "c car  t truck  o rotate  w wall  x delete  g goal  e exit  u/r undo/redo  s save  p play  ? help",
    "c car  t truck  o rotate  w wall  x del  u undo  s save  p play  ? help  q quit",
    "? help  q quit",
)


def edit_geometry(draft: Draft, lines: int, cols: int) -> Geometry | None:
    """The largest cells that leave room for the panel; None when the terminal is too small."""
    narrowest = max([2, *(len(n) for n in draft.names)])
    for cell_w, cell_h in [size for size in CELL_SIZES if size[0] >= narrowest] or [(narrowest, 1)]:
        wide = draft.width * cell_w + CHROME_COLS + PANEL_COLS
        if wide <= cols and draft.height * cell_h + CHROME_ROWS <= lines:
            return Geometry(cell_w, cell_h, 3, 4)
    return None


def needed(draft: Draft) -> tuple[int, int]:
    narrowest = max([2, *(len(n) for n in draft.names)])
    return draft.width * narrowest + CHROME_COLS + PANEL_COLS, draft.height + CHROME_ROWS


def colour_board(draft: Draft) -> Board | None:
    """A board to choose colours by, even while the draft is invalid (its goal or exit wrong)."""
    if not draft.vehicles:
        return None
    goal = draft.goal if draft.vehicle(draft.goal) is not None else draft.names[0]
    try:
        return Board(draft.width, draft.height, draft.vehicles, walls=draft.walls, goal=goal, wrap=draft.wrap)
    except Exception:  # noqa: BLE001 - colours only: any board the rules refuse is drawn plain
        return None


class EditScreen:
    """Draws an editor on a curses window."""

    def __init__(self, window: curses.window, editor: Editor, color: bool) -> None:
        self.window = window
        self.editor = editor
        self.painter = Painter(color)
        self.geometry: Geometry | None = None
        self._colours: tuple[tuple[str, ...], dict[str, Colour]] = ((), {})
        self._target: tuple[int, int] | None = None  # a wrap-around board's target cell
        editor.unshown = self.unshown  # a change that would make the board too large to show is refused

    def colours(self) -> dict[str, Colour]:
        """Colours chosen again only when the vehicles change, so that they stay while one moves."""
        draft = self.editor.draft
        key = (*draft.names, draft.goal)
        if key != self._colours[0]:
            board = colour_board(draft)
            self._colours = (key, {} if board is None else vehicle_colors(board, self.painter.depth))
        return self._colours[1]

    def unshown(self, draft: Draft) -> str | None:
        """Why ``draft`` could not be drawn in the terminal as it is now (its names too long), else None."""
        lines, cols = self.window.getmaxyx()
        if edit_geometry(draft, lines, cols) is not None:
            return None
        need_cols, need_lines = needed(draft)
        needs = f"it needs {need_cols}x{need_lines}, the terminal is {cols}x{lines}"
        return f"the board would not fit in the terminal: {needs}"

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        if x >= 0:
            put_clipped(self.window, y, x, text, attr)

    def draw(self) -> None:
        win = self.window
        win.erase()
        lines, cols = win.getmaxyx()
        ed = self.editor
        self.geometry = edit_geometry(ed.draft, lines, cols)
        if ed.mode is Mode.HELP:
            self.draw_help(lines, cols)
        elif self.geometry is None:
            self.draw_too_small(lines, cols)
        else:
            self.draw_editor(lines, cols, self.geometry)
        win.noutrefresh()
        curses.doupdate()

    def draw_too_small(self, lines: int, cols: int) -> None:
        need_cols, need_lines = needed(self.editor.draft)
        said = [
            "terminal too small for this board",
            f"the editor needs {need_cols}x{need_lines}, the terminal is {cols}x{lines}",
            "make it larger to edit; the board is kept (q leaves, s saves)",
        ]
        if self.editor.mode is not Mode.EDIT:
            said.append(self.message_text())
        if self.editor.mode is Mode.PROMPT and self.editor.prompt_error:
            said.append(self.editor.prompt_error)
        short = ["too small:", f"needs {need_cols}x{need_lines}", "q leaves, s saves", *said[3:]]
        text = too_small_text(said, short, lines, cols)
        top = max(0, (lines - len(text)) // 2)
        for k, line in enumerate(text):
            self.put(top + k, max(0, (cols - len(line)) // 2), line)

    def draw_help(self, lines: int, cols: int) -> None:
        rows = ["Editor keys (Esc or any other key: back)", ""]
        for key, what in KEYS:
            rows += textwrap.wrap(f"{key:<14} {what}", max(20, cols - 4), subsequent_indent=" " * 15)
        room = max(1, lines - 1)
        top = min(self.editor.help_top, max(0, len(rows) - room))
        self.editor.help_top = top
        for k, line in enumerate(rows[top : top + room]):
            self.put(k, 1, line, curses.A_BOLD if k + top == 0 else 0)

    def draw_editor(self, lines: int, cols: int, geo: Geometry) -> None:
        ed = self.editor
        title = "rushhour edit: " + (ed.path or ed.label) + (" (not saved)" if ed.dirty else "")
        self.put(0, 1, title, curses.A_BOLD)
        self.draw_board(geo)
        x = geo.left + ed.draft.width * geo.cell_w + 10
        panel = self.panel_lines(cols - x - 1)
        for k, line in enumerate(panel):
            bold = k == 0 or line.startswith(("INVALID", "UNSOLVABLE", "optimum"))
            self.put(geo.top - 1 + k, x, line, curses.A_BOLD if bold else 0)
        # a long message (a kept board's path and how to open the others) wraps into the free rows
        used = max(geo.top + ed.draft.height * geo.cell_h + 2, geo.top - 1 + len(panel))  # frame, exit word
        said = message_lines(self.message_text(), cols - 2, lines - 2 - used)
        for k, line in enumerate(said):
            self.put(lines - 1 - len(said) + k, 1, line, curses.A_BOLD)
        if ed.mode is Mode.PROMPT and ed.prompt_error:  # why the answer was refused, under the prompt
            self.put(lines - 1, 1, ed.prompt_error)
        else:
            self.put(lines - 1, 1, next((f for f in FOOTERS if len(f) < cols - 1), ""), curses.A_DIM)

    def panel_lines(self, width: int) -> list[str]:
        ed = self.editor
        d = ed.draft
        head = [f"{d.width}x{d.height}, {plural(len(d.vehicles), 'vehicle')}, {plural(len(d.walls), 'wall')}"]
        goal = d.vehicle(d.goal)
        head.append(f"goal {d.goal}" + ("" if goal is not None else " (missing)"))
        board = ed.board()
        if board is not None and board.target is not None:  # a wrap-around board: where the goal wins
            t = board.target
            head.append(f"wrap-around: {target_words(d.goal, t)}")
        if ed.selected is not None:
            v = d.vehicle(ed.selected)
            if v is not None:
                head.append(f"selected {v.name}: {v.description} at ({v.row},{v.col})")
        out = []
        for line in [*head, "", *ed.status_lines()]:
            out += textwrap.wrap(line, max(10, width)) or [""]
        return out

    def message_text(self) -> str:
        ed = self.editor
        if ed.mode is Mode.PROMPT:
            return ed.prompt_text()
        if ed.mode is Mode.CONFIRM_QUIT:
            return ed.confirm_text()
        return ed.message

    def draw_board(self, geo: Geometry) -> None:
        ed = self.editor
        d = ed.draft
        w, h, top, left = geo.cell_w, geo.cell_h, geo.top, geo.left
        edge, side = ("~", ":") if d.wrap else ("-", "|")
        self.put(top - 1, left - 1, "+" + edge * (d.width * w) + "+")
        self.put(top + d.height * h, left - 1, "+" + edge * (d.width * w) + "+")
        for y in range(top, top + d.height * h):
            self.put(y, left - 1, side)
            self.put(y, left + d.width * w, side)
        for offset, text in column_labels(d.width, w):
            self.put(top - 2, left + offset, text, curses.A_DIM)
        for r in range(d.height):
            self.put(top + r * h + label_row(h), 0, f"{r:>2}", curses.A_DIM)
        self.draw_exit(geo)
        owners = d.owners()
        board = ed.board()
        target = None if board is None else board.target
        self._target = None if target is None else (target.row, target.col)
        for r in range(d.height):
            for c in range(d.width):
                self.draw_cell(geo, r, c, owners)

    def draw_cell(self, geo: Geometry, r: int, c: int, owners: dict[tuple[int, int], str]) -> None:
        ed = self.editor
        w, h = geo.cell_w, geo.cell_h
        y, x = geo.top + r * h, geo.left + c * w
        here = owners.get((r, c))
        cursor = (r, c) == ed.cursor
        if here is None:
            label, attr = ("+", curses.A_BOLD) if cursor else (".", curses.A_DIM)
            if not cursor and (r, c) == self._target:
                label = "*"  # where a wrap-around board's goal vehicle wins
            gap_left, gap_up = 0, 0
        elif here == "#":
            label, attr = "#" * min(w, 3), self.painter.fill(wall_color(self.painter.depth))
            gap_left, gap_up = 0, 0
        else:
            colour = self.colours().get(here)
            attr = self.painter.fill(colour) if colour is not None else curses.A_REVERSE
            chosen = here == ed.selected
            label = f"[{here}]" if chosen and w >= len(here) + 2 else here
            attr |= curses.A_BOLD if chosen else 0
            gap_left = 0 if owners.get((r, c - 1)) == here or w < 4 else 1
            gap_up = 0 if owners.get((r - 1, c)) == here or h < 3 else 1
        if cursor and here is not None:
            attr |= curses.A_UNDERLINE
            label = f">{label}<" if w >= len(label) + 2 and not label.startswith("[") else label
        start = max(gap_left, (w - len(label) + 1) // 2)
        middle = label_row(h)
        for dy in range(gap_up, h):
            line = (" " * start + label).ljust(w)[:w] if dy == middle else " " * w
            self.put(y + dy, x + gap_left, line[gap_left:], attr)

    def draw_exit(self, geo: Geometry) -> None:
        d = self.editor.draft
        v = d.vehicle(d.goal)
        if v is None or d.wrap:
            return
        side = d.exit or ("right" if v.horizontal else "top")
        if (side in ("right", "left")) != v.horizontal:
            return
        w, h, top, left = geo.cell_w, geo.cell_h, geo.top, geo.left
        mid_y, mid_x = top + v.row * h + label_row(h), left + v.col * w + w // 2
        if side == "right":
            self.put(mid_y, left + d.width * w, "> exit", curses.A_BOLD)
        elif side == "left":
            self.put(mid_y, left - 1, "<", curses.A_BOLD)
        elif side == "top":
            self.put(top - 1, mid_x, "^", curses.A_BOLD)
        else:
            self.put(top + d.height * h, mid_x, "v", curses.A_BOLD)


# --- the loop --------------------------------------------------------------------------------------
def run(editor: Editor, *, color: bool) -> int:
    """Edit full screen until the editor is left; the exit status (0, 130 after Ctrl-C, 128 + the
    signal's number after SIGTERM or SIGHUP, the board kept as on a leave)."""
    os.environ.setdefault("ESCDELAY", "25")
    try:
        with leave_on_signals():
            full_screen(_main, editor, color)
    except Signalled as sig:
        _leave_now(editor)
        return 128 + sig.signum
    except KeyboardInterrupt:
        _leave_now(editor)
        return 130
    finally:
        editor.close()
    return 130 if editor.interrupted else 0


def _main(window: curses.window, editor: Editor, color: bool) -> None:
    setup_window(window)
    screen = EditScreen(window, editor, color)
    errors = 0
    try:
        screen.draw()
        while editor.mode is not Mode.QUIT:
            try:
                key = read_key(window)  # a click in the classic encoding whole, never as keys
            except curses.error:
                errors = _wait(editor, screen, errors)
                if errors < 0:
                    break
                continue
            errors = 0
            _one_key(key, editor, screen)
            if editor.mode is Mode.PLAY:
                _play(window, editor, color)
                setup_window(window)
                window.clear()
            screen.draw()  # the key answered first; then the check it asks for starts
            if editor.tick():
                screen.draw()
    except (Signalled, KeyboardInterrupt):
        _leave_now(editor)  # the board kept first: what comes next touches a terminal that may be gone
        raise
    finally:
        mouse_motion(False)


def _leave_now(editor: Editor) -> None:
    """A signal or Ctrl-C: leave without asking, an unsaved board kept (unless left already)."""
    if editor.mode is not Mode.QUIT:
        editor.interrupted = True
        editor.leave()


def _wait(editor: Editor, screen: EditScreen, errors: int) -> int:
    """Wait for a key or a worker's answer; the count of empty reads so far (-1: the input has ended)."""
    waits: list[Any] = [sys.stdin]
    for worker in (editor.checker, editor.hardener):
        fd = worker.fileno()
        if fd is not None:
            waits.append(fd)
    ready, _, _ = select.select(waits, [], [], TICK_MS / 1000)
    if sys.stdin in ready:
        if errors + 1 >= EOF_ERRORS:  # no one to answer a question: the board kept, left
            editor.leave_now()
            return -1
        return errors + 1
    if editor.tick() or editor.busy():
        screen.draw()
    return 0


#: the keys the editor answers while the terminal is too small to show the board: none that changes
#: the board unseen (leave, save, add to a pack, help, stop the check)
HIDDEN_BOARD_KEYS = frozenset({"q", "ctrl-c", "ctrl-d", "s", "k", "?", "esc"})


def _one_key(key: int | str | MouseReport, editor: Editor, screen: EditScreen) -> None:
    if isinstance(key, MouseReport):
        _pointer(screen, editor, key)
        return
    if key == curses.KEY_RESIZE:
        curses.update_lines_cols()
        return
    if key == curses.KEY_MOUSE:
        _mouse(screen, editor)
        return
    name = "backspace" if key == curses.KEY_DC else key_name(key)
    if name is None:
        return
    if screen.geometry is None and editor.mode is Mode.EDIT and name not in HIDDEN_BOARD_KEYS:
        return  # the board is not on the screen: a key typed blind does not change it
    editor.key(name)


def _mouse(screen: EditScreen, editor: Editor) -> None:
    try:
        _, x, y, _, state = curses.getmouse()
    except curses.error:
        return
    _pointer(screen, editor, MouseReport(x, y, state))


def _pointer(screen: EditScreen, editor: Editor, report: MouseReport) -> None:
    geo = screen.geometry
    d = editor.draft
    cell = None if geo is None else geo.cell_at(_shape_only(d), report.y, report.x)
    for step in pointer_steps(report.state):
        if step == "release":
            editor.release(cell)
        elif cell is not None:
            (editor.press if step == "press" else editor.drag)(cell)


def _shape_only(draft: Draft) -> Board:
    """A board of the draft's size, for :meth:`Geometry.cell_at` (it reads only the sides)."""
    return Board(draft.width, draft.height, [Vehicle("A", HORIZONTAL, 2, 0, 0)])


def _play(window: curses.window, editor: Editor, color: bool) -> None:
    """Play the board in the game's loop, in this window; back to editing when the game is left."""
    from rushhour.levels import Shelf
    from rushhour.play.controller import Controller
    from rushhour.play.level import Level
    from rushhour.play.saves import Saves
    from rushhour.play.sources import optimal_plan, oracle_moves
    from rushhour.play.tui import play_in
    from rushhour.play.worker import worker_for

    editor.mode = Mode.EDIT
    board = editor.board()
    if board is None:
        return
    level = Level(Entry(board, {}, "the board being edited"))
    controller = Controller(
        level,
        saves=Saves.memory(),
        legal_moves=oracle_moves,
        solver=optimal_plan,
        now=time.monotonic,
        worker=worker_for(optimal_plan),
        menu_shelf=lambda: Shelf(()),
    )
    window.clear()
    if play_in(window, controller, color):
        editor.message = "back from playing (Ctrl-C left the game)"
    else:
        editor.message = "back from playing the board"


__all__ = ["EditScreen", "edit_geometry", "run"]
