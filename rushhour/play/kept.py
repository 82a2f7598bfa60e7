"""The boards the editor keeps for next time, in ``$XDG_DATA_HOME/rushhour/editor-unsaved.txt``.

A session that leaves a board unsaved adds it to the file (one grid block a board, the newest last), in
place of the kept board it opened, if any; a session that saves a board it opened from the file takes
that board out.  Sessions never overwrite each other's boards: each change is made under the file's
lock, from what the file holds at that moment.  A file that cannot be read as boards is moved aside
(``editor-unsaved.txt.corrupt-STAMP``) before a new one is started, never written over.  A file of
which only some blocks cannot be read (a board cut short, a line typed into it by hand) still gives
its other boards; the first change made to it copies the file as it was aside (the same name), then
writes it without those blocks, and says so once.

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
from dataclasses import dataclass, replace
from pathlib import Path

from rushhour.board import MAX_SIDE, Board, Exit
from rushhour.errors import FormatError, ParseError, RushHourError
from rushhour.files import (
    clean_temporaries,
    data_dir,
    exists,
    locked,
    make_folder,
    put_aside,
    real_target,
    reason,
    write_text_atomic,
)
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
def _structure(headers: list[tuple[int, str, str]], source: str | None) -> Draft:
    """An empty draft with the structure the header lines give (:class:`ParseError`: a line that is not
    one)."""
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
    if len({len(row) for row in rows}) != 1 or len(rows) > MAX_SIDE:
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


@dataclass(frozen=True)
class Unread:
    """A block of a kept file that is neither a board nor the draft of one: its first line and why."""

    line: int
    why: str


def _paragraphs(text: str) -> list[tuple[int, str, bool]]:
    """Each block of a kept file, as the grid reader finds them (:func:`grid.runs`): its first line's
    number, its text, and whether it has a row (not header lines only)."""
    return [(first, text[start:end] + "\n", rows) for start, end, first, rows in grid.runs(text)]


def _read_paragraph(first: int, text: str, source: str | None) -> Kept:
    """The kept board of one block of a kept file, its first line ``first``: errors name the file's
    lines."""
    shift = first - 1
    try:
        _, blocks = grid.document_blocks(text, source)
        headers, rows, start = blocks[0]
    except ParseError as err:
        line = None if err.line is None else err.line + shift
        raise ParseError(err.reason, source=source, line=line, column=err.column) from None
    block = ([(n + shift, k, v) for n, k, v in headers], [(n + shift, row) for n, row in rows], start + shift)
    return read_block(block, source)


def read_blocks(text: str, source: str | None = None) -> tuple[str, list[Kept | Unread]]:
    """A kept file's own header (its first block when that is header lines only, as the grid reader
    takes it; '' when there is none) and each of its blocks in turn, numbered as the grid reader numbers
    them (``FILE:N``): a kept board, or the :class:`Unread` block that is neither a board nor a draft.
    Each block is read on its own: one block spoilt does not hide the others."""
    paragraphs = _paragraphs(text)
    head = ""
    if paragraphs and not paragraphs[0][2]:  # header lines only: the file's own, as the grid reader says
        head = paragraphs.pop(0)[1]
    found: list[Kept | Unread] = []
    for first, block, _ in paragraphs:
        try:
            found.append(_read_paragraph(first, block, source))
        except RushHourError as err:
            why = err.reason if isinstance(err, ParseError) else str(err)
            line = err.line if isinstance(err, ParseError) and err.line is not None else first
            found.append(Unread(line, why))
    return head, found


def read_kept(text: str, source: str | None = None) -> tuple[list[Kept], list[Unread]]:
    """The kept boards of a kept file's text that can be read, oldest first, and the blocks that
    cannot (see :func:`read_blocks`)."""
    found = read_blocks(text, source)[1]
    return [b for b in found if not isinstance(b, Unread)], [b for b in found if isinstance(b, Unread)]


def _unread_words(unread: Sequence[Unread]) -> str:
    """The blocks that cannot be read, in words: how many, and the first one's line and reason."""
    more = f"; and {len(unread) - 1} more" if len(unread) > 1 else ""
    first = unread[0]
    return f"{plural(len(unread), 'block')} that cannot be read (line {first.line}: {first.why}{more})"


class KeptBoards:
    """The kept boards of ``path`` (by default :func:`kept_path`, read when asked)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else kept_path()
        #: the blocks of the file that could not be read when :meth:`boards` last read it
        self.unread: list[Unread] = []
        self._head = ""  # the file's own header lines, written back as they were

    def numbered(self) -> list[Kept | Unread]:
        """Every block of the file in turn, numbered as ``rushhour edit FILE:N`` numbers them: a kept
        board, or an :class:`Unread` block; raises :class:`RushHourError` for a file that is no boards
        at all (not text, or not one block of it readable)."""
        self.unread, self._head = [], ""
        if not exists(self.path):  # a link to a file not made yet included (a loop of links raises)
            return []
        text = read_board_text(str(self.path))
        head, found = read_blocks(text, str(self.path))
        unread = [b for b in found if isinstance(b, Unread)]
        if unread and len(unread) == len(found):
            read_text(text, str(self.path))  # the grid reader's own words for the first fault
            raise ParseError(unread[0].why, source=str(self.path), line=unread[0].line)
        self.unread, self._head = unread, head
        return found

    def boards(self) -> list[Kept]:
        """The kept boards, oldest first: a valid one as its :class:`Board`, an invalid one as its
        :class:`Draft`.  Blocks that cannot be read are passed over and listed in :attr:`unread` (see
        :meth:`unread_note`); raises :class:`RushHourError` for a file that is no boards at all (not
        text, or not one block of it readable)."""
        return [b for b in self.numbered() if not isinstance(b, Unread)]

    def unread_note(self) -> str:
        """What to tell the player of the blocks :meth:`boards` passed over ('' when none): they are not
        lost."""
        if not self.unread:
            return ""
        return (
            f"warning: the kept unsaved boards {self.path} hold {_unread_words(self.unread)}: the other "
            "boards are offered, and the file as it is will be copied aside before a board is kept or "
            "forgotten there"
        )

    def _write(self, boards: Sequence[Kept]) -> str:
        """Write ``boards`` in place of the file (under its lock, just read by :meth:`boards`); the file
        as it was is first copied aside when it held blocks that cannot be read, which the new one is
        without: what to say of that ('' when nothing was)."""
        said = ""
        if self.unread:
            aside = put_aside(self.path, copy=True)  # OSError: nothing written, the file left as it is
            verb = "is" if len(self.unread) == 1 else "are"
            said = (
                f"{_unread_words(self.unread)} {verb} left out of the file, and the file as it was is "
                f"copied to {aside}"
            )
        if boards or self._head:
            text = grid.join_document([kept_text(kept) for kept in boards]) if boards else ""
            text = f"{self._head}\n{text}" if self._head and boards else self._head or text
            write_text_atomic(self.path, text, what="the unsaved boards to ")
        else:
            real_target(self.path).unlink(missing_ok=True)  # through a link: the link stays
        self.unread = []
        return said

    def keep(self, board: Kept, replacing: Kept | None = None) -> str:
        """Add ``board`` (in place of ``replacing``, the kept board it was opened from); what was done,
        in words (a failure as a warning: the caller goes on)."""
        board = board.by_name() if isinstance(board, Draft) else board
        moved: Path | None = None
        try:
            make_folder(real_target(self.path).parent)  # through a link: the folder of the file it names
            with locked(self.path):
                clean_temporaries(self.path)  # left by a session killed while it wrote: no one writes now
                try:
                    boards = self.boards()
                except RushHourError:
                    if not self.path.is_file():  # a folder, a FIFO: not ours to move
                        raise
                    moved = put_aside(self.path)
                    boards = []
                boards = [b for b in boards if b not in (replacing, board)] + [board]
                copied = self._write(boards)
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
        if copied:
            said += f"; {copied}"
        return said

    def forget(self, board: Kept) -> str:
        """Take ``board`` out (it is saved); a warning when that fails, else nothing to say."""
        if not os.path.lexists(self.path):
            return ""
        board = board.by_name() if isinstance(board, Draft) else board
        said = ""
        try:
            with locked(self.path):
                clean_temporaries(self.path)
                boards = self.boards()
                if board in boards:
                    boards.remove(board)
                    said = self._write(boards)
        except OSError as err:
            return f"warning: the kept unsaved board {self.path} could not be forgotten: {reason(err)}"
        except RushHourError as err:
            return f"warning: the kept unsaved board {self.path} could not be forgotten: {err}"
        return f"the kept unsaved boards: {said}" if said else ""


__all__ = [
    "KEPT_NAME",
    "Kept",
    "KeptBoards",
    "Unread",
    "draft_of",
    "draft_text",
    "kept_path",
    "read_blocks",
    "read_kept",
    "read_text",
]
