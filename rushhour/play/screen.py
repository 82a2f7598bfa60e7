"""Drawing the controller's state on a curses window: the board large and centred, the status line,
the overlays (help, level menu, win), and a message when the terminal is too small.

Nothing here decides what a key means; everything drawn is read from the
:class:`~rushhour.play.controller.Controller`.
"""

from __future__ import annotations

import curses
import textwrap
import unicodedata
from contextlib import suppress
from dataclasses import dataclass, replace

from rushhour.board import EMPTY, WALL, Board, Cell
from rushhour.play.controller import KEYS, Controller, Mode, menu_layout
from rushhour.play.logic_view import LogicView
from rushhour.render.palette import (
    BASIC,
    TRUE_COLOR,
    XTERM_256,
    Colour,
    palette,
    vehicle_colors,
    wall_color,
)
from rushhour.render.text import target_words

#: cell sizes to try, largest first: (columns, rows)
CELL_SIZES = ((8, 4), (7, 3), (6, 3), (5, 2), (4, 2), (3, 1), (2, 1))
#: lines used around the board: title, blank, the board's frame (2), blank, status, message, keys
CHROME_ROWS = 7
#: columns beside the board: the frame (2) and the exit mark with its word (6 at most)
CHROME_COLS = 2 + 7
#: the key reminder at the bottom, the longest that fits
FOOTERS = (
    "Tab select  arrows slide  u undo  r redo  h hint  s solution  e logic  l levels  ? help  q quit",
    "arrows slide  u undo  r redo  h hint  s solve  e logic  l levels  ? help  q quit",
    "Tab select  arrows slide  u undo  h hint  s solve  ? help  q quit",
    "? help  q quit",
)
#: the key reminder over a win, and during the solution's playback
WON_FOOTERS = (
    "Enter next level  v the board  u undo  Ctrl-R play again  l levels  ? help  q quit",
    "Enter next level  v the board  u undo  ? help  q quit",
    "? help  q quit",
)
PLAYBACK_FOOTERS = (
    "right step  left back  p animate  Esc your position  a game key plays on  ? help  q quit",
    "right step  left back  p animate  Esc your position  ? help  q quit",
    "? help  q quit",
)


@dataclass(frozen=True)
class Geometry:
    """Where the board goes: cell size and the top-left corner of the first cell."""

    cell_w: int
    cell_h: int
    top: int
    left: int

    def cell_at(self, board: Board, y: int, x: int) -> Cell | None:
        """The board cell under a screen position, if any."""
        if y < self.top or x < self.left:
            return None
        row, col = (y - self.top) // self.cell_h, (x - self.left) // self.cell_w
        if row < board.height and col < board.width:
            return (row, col)
        return None


def cell_sizes(board: Board) -> list[tuple[int, int]]:
    """The cell sizes this board may be drawn with, largest first: those of :data:`CELL_SIZES` wide
    enough for its longest vehicle name, else one line as wide as that name."""
    narrowest = max(2, max(len(n) for n in board.names))
    return [size for size in CELL_SIZES if size[0] >= narrowest] or [(narrowest, 1)]


def geometry(board: Board, lines: int, cols: int) -> Geometry | None:
    """The largest cell size that fits the terminal, the board centred; None when even the smallest
    does not fit."""
    side = board.exit.side if board.exit is not None else ""
    # the columns left of the first cell and right of the last one that the frame and the exit mark take
    before, after = (7, 1) if side == "left" else (1, 6) if side == "right" else (1, 1)
    for cell_w, cell_h in cell_sizes(board):
        width = board.width * cell_w + CHROME_COLS
        height = board.height * cell_h + CHROME_ROWS
        if width <= cols and height <= lines:
            top = max(2, (lines - height) // 2 + 2)
            centred = (cols - board.width * cell_w) // 2
            left = max(before, min(centred, cols - board.width * cell_w - after))
            return Geometry(cell_w, cell_h, top, left)
    return None


#: the columns the logic view takes beside the board, at least
LOGIC_COLS = 36


def logic_geometry(board: Board, lines: int, cols: int) -> Geometry | None:
    """Where the board goes with the logic view open: the largest cells that leave :data:`LOGIC_COLS`
    columns on the right, the board near the left edge; the board alone when the terminal is too
    narrow for both."""
    geo = geometry(board, lines, cols - LOGIC_COLS)
    if geo is None:
        return geometry(board, lines, cols)
    numbers = len(str(max(board.width, board.height) - 1))
    room = 8 if board.exit is not None and board.exit.side == "left" else numbers + 3
    return replace(geo, left=min(geo.left, room))


def label_row(cell_h: int) -> int:
    """The line of a cell that holds its label: below the gap of a tall cell."""
    return cell_h // 2 if cell_h >= 3 else 0


def column_labels(width: int, cell_w: int) -> list[tuple[int, str]]:
    """The column numbers over a board of ``width`` columns ``cell_w`` wide: each number's offset from
    the board's left edge, centred in its column.  Where the numbers would run together (two digits in
    cells two wide: ``101112``), every other column is numbered.

    >>> column_labels(4, 3)
    [(1, '0'), (4, '1'), (7, '2'), (10, '3')]
    >>> [text for _, text in column_labels(16, 2)]
    ['0', '2', '4', '6', '8', '10', '12', '14']
    """
    step = 1 if len(str(width - 1)) < cell_w else 2
    out = []
    for c in range(0, width, step):
        text = str(c)[:cell_w * step]
        out.append((c * cell_w + (cell_w - len(text) + 1) // 2, text))
    return out


#: the status line's words in a terminal too narrow for them: each part keeps its figure
_SHORT_WORDS = (("moves ", "mv "), ("steps ", "st "), ("optimal ", "opt "), ("hints ", "h "), ("time ", ""))


def fitted_status(parts: list[str], width: int) -> str:
    """The status line's parts (``moves 3``, ``steps 5``...) in ``width`` columns: as they are, else
    with short words, so that the hints and the stopwatch are not the parts cut off.

    >>> parts = ["moves 12", "steps 20", "optimal 51", "hints 1", "time 1:05"]
    >>> fitted_status(parts, 80)
    'moves 12 | steps 20 | optimal 51 | hints 1 | time 1:05'
    >>> fitted_status(parts, 40)
    'mv 12 | st 20 | opt 51 | h 1 | 1:05'
    """
    text = " | ".join(parts)
    if len(text) <= width:
        return text
    short = []
    for part in parts:
        for word, brief in _SHORT_WORDS:
            if part.startswith(word):
                part = brief + part[len(word) :]
                break
        short.append(part)
    return " | ".join(short)


def needed_size(board: Board) -> tuple[int, int]:
    """The smallest terminal (columns, lines) the board fits."""
    cell_w, cell_h = cell_sizes(board)[-1]
    return board.width * cell_w + CHROME_COLS, board.height * cell_h + CHROME_ROWS


def too_small_text(said: list[str], short: list[str], lines: int, cols: int) -> list[str]:
    """The lines that say the terminal is too small, folded to its width (never cut off): ``said``
    when it fits its height, else the ``short`` form, else as much of that as fits."""
    width = max(8, cols - 2)
    for sentences in (said, short):
        text = [part for line in sentences for part in textwrap.wrap(line, width)]
        if len(text) <= lines:
            return text
    return text[:lines]


class Painter:
    """Colours as curses attributes: one colour pair per (ink, background), made on first use."""

    def __init__(self, color: bool) -> None:
        self.color = color and curses.has_colors()
        self.depth = BASIC
        self._pairs: dict[tuple[int, int], int] = {}
        self._fills: dict[Colour, int] = {}
        if curses.has_colors():  # even without colour: the terminal's own colours, not white on black
            curses.start_color()
            curses.use_default_colors()
        if self.color:
            colours = curses.COLORS
            self.depth = TRUE_COLOR if colours >= TRUE_COLOR else XTERM_256 if colours >= 256 else BASIC

    def number(self, colour: Colour) -> int:
        """A colour as a curses colour number at this terminal's depth."""
        if self.depth == TRUE_COLOR:
            r, g, b = colour.rgb
            return (r << 16) | (g << 8) | b
        if curses.COLORS < 16:
            return colour.index % 8
        return colour.index

    def pair(self, fg: int, bg: int) -> int:
        key = (fg, bg)
        found = self._pairs.get(key)
        if found is None:
            number = len(self._pairs) + 1
            if number >= curses.COLOR_PAIRS:
                return 0
            try:
                curses.init_pair(number, fg, bg)
            except curses.error:  # a colour this curses cannot set (direct colour without extended pairs)
                self._pairs[key] = 0
                return 0
            found = self._pairs[key] = number
        return curses.color_pair(found)

    def fill(self, colour: Colour) -> int:
        """A cell of this colour with its readable ink; without colour, reverse video, so that every
        vehicle still shows as a block of its own."""
        if not self.color:
            return curses.A_REVERSE
        found = self._fills.get(colour)
        if found is None:  # working out the ink takes a while: once per colour
            found = self._fills[colour] = self.pair(self.number(colour.ink), self.number(colour))
        return found

    def ink(self, colour: Colour) -> int:
        """Text in this colour on the terminal's background."""
        if not self.color:
            return curses.A_NORMAL
        return self.pair(self.number(colour), -1)


def columns(char: str) -> int:
    """The terminal columns a character takes: 2 for a wide one (CJK, most emoji), 0 for one that
    combines with the character before it or has no width, else 1."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def clip(text: str, width: int) -> str:
    """The longest start of ``text`` that takes at most ``width`` terminal columns."""
    used = 0
    for index, char in enumerate(text):
        used += columns(char)
        if used > width:
            return text[:index]
    return text


def message_lines(text: str, width: int, spare: int) -> list[str]:
    """A message as the lines it takes at ``width`` columns: one line when it fits; else wrapped on up to
    ``spare`` + 1 lines (the rows free between the board and the status line, which moves up), the
    last one ending in ``...`` when even those are too few."""
    if width < 1:
        return [""]
    if len(clip(text, width)) == len(text):
        return [text]
    lines = textwrap.wrap(text, width) or [text]
    most = max(1, spare + 1)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = clip(lines[-1], width - 3) + "..."
    return [clip(line, width) for line in lines]


def put_clipped(window: curses.window, y: int, x: int, text: str, attr: int = 0) -> None:
    """``text`` at ``(y, x)``, cut to the window by the columns it takes on the terminal, not by its
    characters (a wide character takes two: cut by characters, a line of them ran over the next
    rows); curses refuses to write into the very last cell."""
    lines, cols = window.getmaxyx()
    if not 0 <= y < lines or x >= cols:
        return
    if x < 0:
        text, x = text[-x:], 0
    text = clip(text, cols - x - (1 if y == lines - 1 else 0))
    if text:
        with suppress(curses.error):  # a wide character across the last column
            window.addstr(y, x, text, attr)


class Screen:
    """Draws a controller on a curses window."""

    def __init__(self, window: curses.window, controller: Controller, color: bool) -> None:
        self.window = window
        self.controller = controller
        self.painter = Painter(color)
        self.geometry: Geometry | None = None
        self.note = ""
        self.marked: frozenset[Cell] = frozenset()  # cells the logic view names, marked ! on the board
        self._colours: tuple[Board, dict[str, Colour]] | None = None
        self._scrolled: tuple[Mode, int, int] | None = None

    def colours(self) -> dict[str, Colour]:
        """The vehicles' colours, chosen once per level from its start so that they follow the vehicles."""
        start = self.controller.game.start
        if self._colours is None or self._colours[0] != start:
            self._colours = (start, vehicle_colors(start, self.painter.depth))
        return self._colours[1]

    # --- the whole screen ------------------------------------------------------------------------
    def draw(self, note: str = "") -> None:
        """Draw everything; ``note`` replaces the message line (what the game is busy with)."""
        self.note = note
        win = self.window
        ctrl = self.controller
        scrolled = (ctrl.mode, ctrl.help_top, ctrl.menu_index)
        if scrolled != self._scrolled and ctrl.mode in (Mode.HELP, Mode.MENU):
            # lines move up or down: draw them all again rather than let curses scroll the terminal
            # (CSI S/T, which some terminals and emulators do not honour)
            win.redrawwin()
        self._scrolled = scrolled
        win.erase()
        lines, cols = win.getmaxyx()
        ctrl = self.controller
        board = ctrl.board
        view = ctrl.logic_view() if ctrl.mode is not Mode.MENU else None
        self.marked = view.cells if view is not None else frozenset()
        self.geometry = geometry(board, lines, cols) if view is None else logic_geometry(board, lines, cols)
        if ctrl.mode is Mode.MENU:
            self.draw_menu(lines, cols)
        elif self.geometry is None:
            self.draw_too_small(lines, cols)
        else:
            self.draw_game(lines, cols, self.geometry)
            if view is not None:
                self.draw_logic(view, board, lines, cols, self.geometry)
            if ctrl.mode is Mode.HELP:
                most = self.draw_box(
                    ["Keys", ""] + [f"{k:<22} {v}" for k, v in KEYS] + ["", "other keys: back to the game"],
                    hang=23,
                    scroll=ctrl.help_top,
                )
                ctrl.help_top = min(ctrl.help_top, most)
            elif ctrl.mode is Mode.WON and not ctrl.box_hidden:
                self.draw_box(["*** SOLVED ***", "", *ctrl.win_text()], bold_first=True)
        win.noutrefresh()
        curses.doupdate()

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        """Write text clipped to the window (curses refuses to write past the last cell)."""
        put_clipped(self.window, y, x, text, attr)

    def draw_too_small(self, lines: int, cols: int) -> None:
        need_cols, need_lines = needed_size(self.controller.board)
        said = [
            "terminal too small",
            f"this board needs {need_cols}x{need_lines}, the terminal is {cols}x{lines}",
            "make it larger to play on (q quits)",
        ]
        short = ["too small:", f"needs {need_cols}x{need_lines}", "q quits"]
        text = too_small_text(said, short, lines, cols)
        top = max(0, (lines - len(text)) // 2)
        for k, line in enumerate(text):
            self.put(top + k, max(0, (cols - len(line)) // 2), line)

    def draw_game(self, lines: int, cols: int, geo: Geometry) -> None:
        ctrl = self.controller
        board = ctrl.board
        self.put(0, 1, ctrl.level.title, curses.A_BOLD)
        busy = ctrl.busy_text()  # what a search beside the game is doing, beside the title
        if busy:
            self.put(0, len(ctrl.level.title) + 4, busy)
        self.draw_board(board, geo)
        status = fitted_status(ctrl.status_parts()[1:], cols - 2)
        below_board = geo.top + board.height * geo.cell_h + 1  # the first row under the frame
        if board.target is not None or (board.exit is not None and board.exit.side == "bottom"):
            below_board += 1  # that row says where the goal car wins: the message never covers it
        said = message_lines(self.message_text(), cols - 2, lines - 3 - below_board)
        self.put(lines - 2 - len(said), 1, status)
        for k, line in enumerate(said):
            self.put(lines - 1 - len(said) + k, 1, line, curses.A_BOLD)
        footers = {Mode.WON: WON_FOOTERS, Mode.PLAYBACK: PLAYBACK_FOOTERS}.get(ctrl.mode, FOOTERS)
        footer = next((f for f in footers if len(f) < cols - 1), "")
        self.put(lines - 1, 1, footer, curses.A_DIM)

    def message_text(self) -> str:
        ctrl = self.controller
        if self.note:
            return self.note
        if ctrl.mode is Mode.NAME:
            return f"select: :{ctrl.typed}_  (Enter selects, Esc cancels)"
        if ctrl.mode is Mode.CONFIRM_RESET:
            return "Reset to the start? (y: yes, any other key: no)"
        if ctrl.mode is Mode.CONFIRM_QUIT:
            return "Leave this level? It is kept for next time. (Enter or q: leave, other keys: stay)"
        if ctrl.mode is Mode.PLAYBACK:
            return ctrl.playback_text()
        if ctrl.mode is Mode.WON and ctrl.box_hidden:
            return "SOLVED: v shows the result again, Enter plays the next level"
        return ctrl.message

    # --- the board -------------------------------------------------------------------------------
    def draw_board(self, board: Board, geo: Geometry) -> None:
        ctrl = self.controller
        colours = self.colours()
        painter = self.painter
        wall = wall_color(painter.depth)
        w, h = geo.cell_w, geo.cell_h
        top, left = geo.top, geo.left
        edge = "~" if board.wrap else "-"
        side = ":" if board.wrap else "|"
        self.put(top - 1, left - 1, "+" + edge * (board.width * w) + "+")
        self.put(top + board.height * h, left - 1, "+" + edge * (board.width * w) + "+")
        for y in range(top, top + board.height * h):
            self.put(y, left - 1, side)
            self.put(y, left + board.width * w, side)
        self.draw_exit(board, geo)
        self.draw_labels(board, geo)
        if board.target is not None:  # a wrap-around board has no exit: say where the goal car wins
            t = board.target
            room = self.window.getmaxyx()[1] - left
            said = (
                f"{target_words(board.goal, t)} (* when empty)",
                target_words(board.goal, t),
                f"goal: {board.goal} at ({t.row},{t.col}) heading {t.heading}",
                f"goal: ({t.row},{t.col}) {t.heading}",
            )
            goal = next((line for line in said if len(line) <= room), said[-1])
            self.put(top + board.height * h + 1, left - 1, goal)
        highlighted = ctrl.highlighted
        reachable = ctrl.reachable()
        hinted = ctrl.hint_cells()
        target = board.target
        occupancy = board.occupancy()
        names = board.names
        width = board.width
        for r in range(board.height):
            for c in range(width):
                y, x = top + r * h, left + c * w
                here = occupancy[r * width + c]
                marked = (r, c) in self.marked
                if here == WALL:
                    beside = c > 0 and occupancy[r * width + c - 1] == WALL
                    text = "!#!" if marked and w >= 3 else "#" * min(w, 3)
                    attr = painter.fill(wall) | (curses.A_BOLD if marked else 0)
                    self.paint(y, x, geo, text, attr, beside, False)
                    continue
                if here == EMPTY:
                    mark, attr = ".", curses.A_DIM
                    if (r, c) in hinted and ctrl.hint is not None:
                        mark, attr = "*", curses.A_BOLD | painter.ink(colours[ctrl.hint.vehicle])
                    elif (r, c) in reachable and ctrl.selected is not None:
                        mark, attr = "o", curses.A_BOLD | painter.ink(colours[ctrl.selected])
                        if target is not None and (r, c) == (target.row, target.col):
                            mark = "*"  # the target stays marked where the vehicle could go
                    elif target is not None and (r, c) == (target.row, target.col):
                        mark = "*"
                    if marked:
                        mark, attr = "!", curses.A_BOLD
                    self.paint(y, x, geo, mark, attr, False, False)
                    continue
                name = names[here]
                chosen = name == highlighted
                label = f"[{name}]" if chosen and w >= len(name) + 2 else name
                if marked:  # as much of !B! as the cell has room for
                    label = f"!{name}!" if w >= len(name) + 2 else f"!{name}" if w > len(name) else name
                attr = painter.fill(colours[name]) | (curses.A_BOLD if chosen or marked else 0)
                if chosen and painter.color:
                    attr |= curses.A_UNDERLINE
                same_left = c > 0 and occupancy[r * width + c - 1] == here
                same_up = r > 0 and occupancy[(r - 1) * width + c] == here
                self.paint(y, x, geo, label, attr, same_left, same_up)

    def paint(
        self, y: int, x: int, geo: Geometry, label: str, attr: int, same_left: bool, same_up: bool
    ) -> None:
        """One cell: filled, its label on the middle line; a gap on the left and on top where it meets
        something else, so that every vehicle shows its own shape."""
        w, h = geo.cell_w, geo.cell_h
        gap_left = 0 if same_left or w < 4 else 1
        gap_up = 0 if same_up or h < 3 else 1
        start = max(gap_left, (w - len(label) + 1) // 2)  # one-letter names line up with bracketed ones
        middle = label_row(h)
        for dy in range(gap_up, h):
            line = (" " * start + label).ljust(w)[:w] if dy == middle else " " * w
            self.put(y + dy, x + gap_left, line[gap_left:], attr)

    def draw_labels(self, board: Board, geo: Geometry) -> None:
        """Row and column numbers from 0 (as messages name cells), where there is room beside the frame
        and no exit mark is there."""
        numbers = len(str(max(board.width, board.height) - 1))
        side = board.exit.side if board.exit is not None else ""
        if geo.top < 3 or geo.left < numbers + 2 or side in ("top", "left"):
            return
        for offset, text in column_labels(board.width, geo.cell_w):
            self.put(geo.top - 2, geo.left + offset, text, curses.A_DIM)
        for r in range(board.height):
            y = geo.top + r * geo.cell_h + label_row(geo.cell_h)
            self.put(y, geo.left - 2 - numbers, f"{r:>{numbers}}", curses.A_DIM)

    def draw_exit(self, board: Board, geo: Geometry) -> None:
        exit_ = board.exit
        if exit_ is None:
            return
        w, h = geo.cell_w, geo.cell_h
        top, left = geo.top, geo.left
        mid_y = top + exit_.index * h + label_row(h)
        mid_x = left + exit_.index * w + w // 2
        if exit_.side == "right":
            self.put(mid_y, left + board.width * w, "> exit", curses.A_BOLD)
        elif exit_.side == "left":
            self.put(mid_y, max(0, left - 7), "exit <", curses.A_BOLD)
        elif exit_.side == "top":
            self.put(top - 1, mid_x, "^", curses.A_BOLD)
            self.put(top - 2, mid_x - 2, "exit", curses.A_BOLD)
        else:
            self.put(top + board.height * h, mid_x, "v", curses.A_BOLD)
            self.put(top + board.height * h + 1, mid_x - 2, "exit", curses.A_BOLD)

    # --- the logic view ---------------------------------------------------------------------------
    def draw_logic(self, view: LogicView, board: Board, lines: int, cols: int, geo: Geometry) -> None:
        """The logic view on the right of the board, folded to the columns left; a heading in bold,
        true propositions in green (bold without colour), false ones dim."""
        x = geo.left + board.width * geo.cell_w + 8  # past the frame and the exit mark
        width = cols - x - 1
        if width < 20:
            self.put(lines - 2, 1, "logic view: widen the terminal", curses.A_BOLD)
            return
        rows: list[tuple[str, int]] = []
        for line in view.lines:
            attr = self.logic_attr(line.truth, line.heading)
            hang = "  " if line.truth is None else "    "
            rows += [(part, attr) for part in textwrap.wrap(str(line), width, subsequent_indent=hang)]
        room = max(1, lines - 6)
        if len(rows) > room:
            rows = rows[: room - 1] + [("... (a taller terminal shows the rest)", curses.A_DIM)]
        for k, (text, attr) in enumerate(rows):
            self.put(2 + k, x, text, attr)

    def logic_attr(self, truth: bool | None, heading: bool) -> int:
        if heading:
            return curses.A_BOLD
        if truth is None:
            return curses.A_NORMAL
        if not truth:
            return curses.A_DIM
        if not self.painter.color:
            return curses.A_BOLD
        green = next(c for c in palette(self.painter.depth) if c.name == "green")
        return self.painter.ink(green)

    # --- overlays --------------------------------------------------------------------------------
    def draw_box(self, text: list[str], *, bold_first: bool = False, hang: int = 0, scroll: int = 0) -> int:
        """A framed box of ``text`` in the middle of the screen.  In a small terminal the lines are
        folded (continuations indented by ``hang`` where that leaves room), blank lines go first, and
        the lines scroll (from line ``scroll``) with the last line (how to leave the box) always
        shown.  Returns the largest useful ``scroll`` (0 when everything fits)."""
        lines, cols = self.window.getmaxyx()
        width = min(cols - 2, max(len(t) for t in text) + 4)
        inner = max(1, width - 4)
        indent = " " * (hang if inner >= hang + 20 else 2 if inner > 20 else 0)
        rows = [
            (part, bold_first and k == 0)
            for k, line in enumerate(text)
            for part in (textwrap.wrap(line, inner, subsequent_indent=indent) or [""])
        ]
        room = max(1, lines - 4)
        if len(rows) > room:
            rows = [row for row in rows if row[0]]
        most = 0
        if len(rows) > room:
            body, last = rows[:-1], rows[-1]
            shown = max(1, room - 2)
            most = max(0, len(body) - shown)
            first = min(max(0, scroll), most)
            more = f"lines {first + 1}-{first + shown} of {len(body)}: up/down scroll"
            rows = body[first : first + shown] + [(more, False), last][: room - shown]
        height = len(rows) + 2
        top = max(0, (lines - height) // 2)
        left = max(0, (cols - width) // 2)
        for y in range(top, top + height):  # a clear band: no piece of the board beside the box
            self.put(y, 0, " " * cols)
        self.put(top, left, "+" + "-" * (width - 2) + "+")
        for k, (line, bold) in enumerate(rows):
            attr = curses.A_BOLD if bold else 0
            self.put(top + 1 + k, left, "| " + line[:inner].ljust(inner) + " |", attr)
        self.put(top + height - 1, left, "+" + "-" * (width - 2) + "+")
        return most

    def draw_menu(self, lines: int, cols: int) -> None:
        """The level menu: a line a level, its columns fitted to the width; the other lines (pack
        titles, the files of the player's packs left out and why) folded to it.  The chosen level is
        kept in the middle where the lines around it allow; the last one goes up as far as the notes
        after it need."""
        ctrl = self.controller
        title = next((t for t in MENU_TITLES if len(t) <= cols - 2), MENU_TITLES[-1])
        self.put(0, 1, title, curses.A_BOLD)
        rows = ctrl.menu_rows
        layout = menu_layout(rows, cols - 4)
        shown: list[tuple[int, str, int]] = []  # a screen line each: its row, its text, its attribute
        for index, row in enumerate(rows):
            if row.level is None:
                shown += [(index, part, curses.A_BOLD) for part in fold_note(row.text, cols - 2)]
                continue
            mark = ">" if index == ctrl.menu_index else " "
            attr = curses.A_REVERSE if index == ctrl.menu_index else 0
            shown.append((index, f"{mark} {row.fitted(cols - 4, layout)}", attr))
        room = max(1, lines - 3)
        chosen = next((k for k, line in enumerate(shown) if line[0] == ctrl.menu_index), 0)
        # the last level at the top if need be, so that every note after it can be read
        last = ctrl.menu_index == max((k for k, row in enumerate(rows) if row.level is not None), default=-1)
        first = max(0, min(chosen if last else chosen - room // 2, len(shown) - room))
        for k, (_, text, attr) in enumerate(shown[first : first + room]):
            self.put(2 + k, 1, text, attr)


#: the level menu's first line, the shorter ones for narrow terminals (Enter and Esc kept the longest)
MENU_TITLES = (
    "Levels: up/down choose, Enter plays, Esc returns",
    "Levels: Enter plays, Esc returns",
    "Enter plays, Esc returns",
    "Enter plays",
)


def fold_note(text: str, width: int) -> list[str]:
    """A line of the level menu that is not a level, folded to ``width`` columns: its continuations
    are indented two more than it, so that each file left out reads as one item.

    >>> fold_note("  mine.txt, line 3: board height 1 is out of range", 24)
    ['  mine.txt, line 3:', '    board height 1 is', '    out of range']
    """
    body = text.lstrip(" ")
    lead = " " * (len(text) - len(body))
    width = max(width, len(lead) + 4)  # a terminal too narrow for the indents: a few letters a line
    return textwrap.wrap(body, width, initial_indent=lead, subsequent_indent=lead + "  ") or [text]
