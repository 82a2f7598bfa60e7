"""The boards the editor keeps for next time, in ``$XDG_DATA_HOME/rushhour/editor-unsaved.txt``.

A session that leaves a board unsaved adds it to the file (one grid block a board, the newest last), in
place of the kept board it opened, if any; a session that saves a board it opened from the file takes
that board out.  Sessions never overwrite each other's boards: each change is made under the file's
lock, from what the file holds at that moment.  A file that cannot be read as boards is moved aside
(``editor-unsaved.txt.corrupt-STAMP``) before a new one is started, never written over.

A board that is not valid yet (its goal vehicle deleted, an exit its goal vehicle cannot reach, walls
and no vehicles) is kept too, as the grid text of its :class:`~rushhour.play.draft.Draft`: the same
header lines and grid a valid board is written with (``goal``, ``exit``, ``wrap``, ``target``,
``legend``), and an ``invalid`` line saying why.  Other commands refuse such a block as they refuse any
invalid board; the editor reads it leniently, as the draft it was:

>>> from rushhour.board import HORIZONTAL
>>> d = Draft.empty(6, 6).place(2, 0, HORIZONTAL, 3).rename("A", "TRUCK").place(0, 0, HORIZONTAL, 2)
>>> d = d.make_goal("A").delete("A").toggle_wall((5, 5))
>>> print(draft_text(d), end="")
# invalid: the goal vehicle A is missing (vehicles: TRUCK)
# legend: T=TRUCK
......
......
TTT...
......
......
.....x
>>> read_text(draft_text(d)) == [d.by_name()]
True
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rushhour.board import MAX_SIDE, Board, Exit
from rushhour.errors import FormatError, ParseError, RushHourError
from rushhour.files import aside_name, data_dir, locked, make_folder, reason, write_text_atomic
from rushhour.formats import grid, read_board_text
from rushhour.formats.cells import EMPTY_CHARS, VEHICLE_CHARS, WALL_CHARS, vehicles_from_grid
from rushhour.play.draft import Draft
from rushhour.text import plural

KEPT_NAME = "editor-unsaved.txt"

#: what the file keeps: a valid board as its :class:`Board`, an invalid one as its draft (its vehicles
#: in the order of their names: :meth:`Draft.by_name`)
Kept = Board | Draft


def kept_path() -> Path:
    return data_dir() / KEPT_NAME


def draft_of(kept: Kept) -> Draft:
    """The draft the editor opens a kept board as."""
    return kept if isinstance(kept, Draft) else Draft.of(kept)


# --- writing ---------------------------------------------------------------------------------------
def draft_text(draft: Draft) -> str:
    """An invalid board's grid block: its structure as header lines, its cells as a grid."""
    names = draft.names
    symbols = grid.grid_symbols(names)
    lines = []
    problem = draft.problem()
    if problem is not None:
        with contextlib.suppress(FormatError):  # only words for a person: left out when no line holds them
            lines.append(grid.header_line("invalid", problem))
    if draft.goal != "A":
        lines.append(grid.header_line("goal", draft.goal))
    if draft.exit is not None:
        lines.append(f"# exit: {draft.exit}")
    if draft.wrap:
        lines.append("# wrap: yes")
    if draft.target is not None:
        lines.append(f"# target: {draft.target}")
    legend = grid.legend_line(names, symbols)
    if legend:
        lines.append(legend)
    owners = draft.owners()
    for r in range(draft.height):
        row = (owners.get((r, c)) for c in range(draft.width))
        lines.append("".join("." if o is None else "x" if o == "#" else symbols[o] for o in row))
    return "\n".join(lines) + "\n"


def kept_text(kept: Kept) -> str:
    return draft_text(kept) if isinstance(kept, Draft) else grid.write_grid(kept)


# --- reading ---------------------------------------------------------------------------------------
def _structure(headers: list[tuple[int, str, str]], source: str | None) -> Draft | None:
    """An empty draft with the structure the header lines give (None: a line that is not one)."""
    found = {key: value for _, key, value in headers}
    exit_: str | Exit | None = grid.parse_exit(found["exit"], source, 0) if "exit" in found else None
    wrap = grid.parse_bool(found["wrap"], source, 0) if "wrap" in found else False
    target = grid.parse_target(found["target"], source, 0) if "target" in found else None
    side = exit_.side if isinstance(exit_, Exit) else exit_
    return Draft(3, 3, goal=found.get("goal", "A"), exit=side, wrap=wrap, target=target)


def _lenient(block: grid.Block, source: str | None) -> Draft | None:
    """The draft a block holds, read without the board's rules (None: the block is no draft either)."""
    headers, lines, _ = block
    try:
        shape = _structure(headers, source)
        legend = grid.parse_legend({k: v for _, k, v in headers}.get("legend", ""), source, 0)  # the last
    except ParseError:
        return None
    rows = [line.strip() for _, line in lines]
    known = EMPTY_CHARS | WALL_CHARS | set(VEHICLE_CHARS)
    if shape is None or len({len(row) for row in rows}) != 1 or len(rows) > MAX_SIDE:
        return None
    if len(rows[0]) > MAX_SIDE or any(ch not in known for row in rows for ch in row):
        return None
    try:
        vehicles, walls = vehicles_from_grid(
            rows, wrap=shape.wrap, legend=legend, locate=lambda cell: (0, 0), source=source
        )
        draft = replace(shape, width=len(rows[0]), height=len(rows))
        Draft.empty(draft.width, draft.height)  # its sides in range
        for cell in walls:
            draft = draft.toggle_wall(cell)
        for v in sorted(vehicles, key=lambda v: v.name):  # each one checked as the editor places it
            draft = draft.place(v.row, v.col, v.orientation, v.length, v.name)
    except RushHourError:
        return None
    return draft


def read_block(block: grid.Block, source: str | None = None) -> Kept:
    """A kept board: a valid block's board, else the draft of an invalid board the editor kept; a block
    that is neither raises the grid reader's :class:`~rushhour.errors.ParseError`."""
    try:
        return grid.parse_block(block, source).board
    except ParseError as err:
        draft = _lenient(block, source)
        if draft is None or draft.problem() is None:  # no draft, or not the board the text says
            raise err from None
        return draft


def read_text(text: str, source: str | None = None) -> list[Kept]:
    """Every kept board of a kept file's text, oldest first."""
    _, blocks = grid.document_blocks(text, source)
    return [read_block(block, source) for block in blocks]


class KeptBoards:
    """The kept boards of ``path`` (by default :func:`kept_path`, read when asked)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else kept_path()

    def boards(self) -> list[Kept]:
        """The kept boards, oldest first: a valid one as its :class:`Board`, an invalid one as its
        :class:`Draft`; raises :class:`RushHourError` for a file that is no boards."""
        if not os.path.lexists(self.path):
            return []
        return read_text(read_board_text(str(self.path)), str(self.path))

    def _write(self, boards: Sequence[Kept]) -> None:
        if boards:
            text = grid.join_document([kept_text(kept) for kept in boards])
            write_text_atomic(self.path, text, what="the unsaved boards to ")
        else:
            self.path.unlink(missing_ok=True)

    def keep(self, board: Kept, replacing: Kept | None = None) -> str:
        """Add ``board`` (in place of ``replacing``, the kept board it was opened from); what was done,
        in words (a failure as a warning: the caller goes on)."""
        board = board.by_name() if isinstance(board, Draft) else board
        moved: Path | None = None
        try:
            make_folder(self.path.parent)
            with locked(self.path):
                try:
                    boards = self.boards()
                except RushHourError:
                    if not self.path.is_file():  # a folder, a FIFO: not ours to move
                        raise
                    moved = aside_name(self.path)
                    os.replace(self.path, moved)
                    boards = []
                boards = [b for b in boards if b not in (replacing, board)] + [board]
                self._write(boards)
        except OSError as err:
            return f"warning: the unsaved board could not be kept in {self.path}: {reason(err)}"
        except RushHourError as err:
            return f"warning: the unsaved board could not be kept: {err}"
        said = f"the unsaved board is kept in {self.path}: rushhour edit opens it again"
        if len(boards) > 1:
            others = plural(len(boards) - 1, "other board")
            said += f" ({others} kept there too: rushhour edit {self.path}:N opens board N)"
        if isinstance(board, Draft):
            said += f"; not valid yet, it opens as it was: {board.problem()}"
        if moved is not None:
            said += f"; what the file held could not be read, and was moved to {moved}"
        return said

    def forget(self, board: Kept) -> str:
        """Take ``board`` out (it is saved); a warning when that fails, else nothing to say."""
        if not os.path.lexists(self.path):
            return ""
        board = board.by_name() if isinstance(board, Draft) else board
        try:
            with locked(self.path):
                boards = self.boards()
                if board in boards:
                    boards.remove(board)
                    self._write(boards)
        except OSError as err:
            return f"warning: the kept unsaved board {self.path} could not be forgotten: {reason(err)}"
        except RushHourError as err:
            return f"warning: the kept unsaved board {self.path} could not be forgotten: {err}"
        return ""


__all__ = [
    "KEPT_NAME",
    "Kept",
    "KeptBoards",
    "draft_of",
    "draft_text",
    "kept_path",
    "read_text",
]
