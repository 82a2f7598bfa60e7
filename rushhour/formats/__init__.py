"""Board formats: one module each, and the front door that detects, reads and writes them.

========== ============================================ ==========================
format      what it is                                    module
========== ============================================ ==========================
grid        canonical text of ``boards/`` (header+grid)    :mod:`.grid`
fogleman    one line per board, ``MOVES BOARD CLUSTER``    :mod:`.fogleman`
csv         ``vehicle,orientation,col,row,length``         :mod:`.csvfmt`
json        every fact, for programs                       :mod:`.jsonfmt`
========== ============================================ ==========================
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from rushhour.board import MAX_SIDE, MIN_SIDE, Board
from rushhour.errors import BoardNotFoundError, ParseError, RushHourError
from rushhour.files import read_regular_file
from rushhour.formats import csvfmt, fogleman, grid, jsonfmt
from rushhour.formats.lines import iter_lines, split_lines

FORMATS = ("grid", "fogleman", "csv", "json")
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass
class Entry:
    """A board read from somewhere, with its metadata and a label saying where it came from."""

    board: Board
    meta: dict[str, str] = field(default_factory=dict)
    label: str = ""


def detect(text: str) -> str:
    """Which format a text is in."""
    body = text.lstrip()
    if body.startswith(("{", "[")):
        return "json"
    if csvfmt.looks_like_csv(body):
        return "csv"
    # Fogleman lines, one board each, and # comments: every line a board, or a database whose first
    # line says so (MOVES BOARD CLUSTER: no grid row has fields), so that a bad line further down is
    # named by its number rather than the whole file read as a grid
    def boards() -> Iterator[str]:  # the lines that are no comment, read as far as needed
        return (ln for ln in iter_lines(text) if ln.strip() and not ln.lstrip().startswith("#"))

    first = next(boards(), None)
    if first is None:
        return "grid"
    if len(first.split()) in (3, 4) and fogleman.looks_like_fogleman(first):
        return "fogleman"
    if all(fogleman.looks_like_fogleman(ln) and "A" in ln for ln in boards()):
        return "grid" if _grid_rows(text, list(boards())) else "fogleman"
    return "grid"


def _grid_rows(text: str, lines: list[str]) -> bool:
    """Whether lines that each look like a Fogleman board are the rows of a grid board instead.

    Only a 3x3 or a 4x4 Fogleman board (9 or 16 characters) is as narrow as a grid row, and the two
    readings never both hold: a goal car ``A`` in every row of a grid (three rows at least) is a
    vertical line of single cells, which no Fogleman line can hold.  So the text is a grid when it
    has a header that shapes a grid board (``# exit: bottom``: the Fogleman format has none), or reads
    as a grid without an error, or has its ``A`` cells in one column, one a row (a grid with a wrong
    cell elsewhere: its errors are a grid's, as no Fogleman line holds a single ``A``)."""
    rows = [ln.strip() for ln in lines]
    if any(len(row) > MAX_SIDE for row in rows):
        return False
    one_column = len({row.index("A") for row in rows}) == 1
    if len(rows) >= MIN_SIDE and one_column and all(row.count("A") == 1 for row in rows):
        return True
    for line in split_lines(text):
        if line.lstrip().startswith("#") and (grid.read_header(line) or ("",))[0] in grid.STRUCTURAL:
            return True
    try:
        grid.parse_document(text)
    except RushHourError:
        return False
    return True


class Boards(Sequence[Entry]):
    """The boards of a text, each built when asked for (and not kept: read it into a list to hold them):
    ``FILE:N`` of a file of many boards costs that one board (and a count of the others), not all of
    them.  The text's syntax around the boards (blocks, lines, the JSON list) is read at once; a board's
    own errors come when it is built."""

    def __init__(self, label: str, build: Callable[[int], tuple[Board, dict[str, str]]], count: int) -> None:
        self.label = label
        self._build = build
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Entry: ...
    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...
    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        board, meta = self._build(index)
        return Entry(board, meta, f"{self.label}:{index + 1}" if self._count > 1 else self.label)


def boards_of_text(
    text: str,
    source: str | None = None,
    fmt: str | None = None,
    size: tuple[int, int] | None = None,
) -> Boards:
    """The boards of a text, in the given format or the detected one, each built when asked for."""
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise ParseError("this is a binary file, not a board", source=source)
    if not text.strip():
        raise ParseError("no board here: the text is empty", source=source)
    fmt = fmt.lower() if fmt else detect(text)
    label = source or "board"
    if fmt == "json":
        data = jsonfmt.load_json(text, source)
        if not isinstance(data, list):  # one board
            one = jsonfmt.board_from_dict(data, source)
            return Boards(label, lambda _: one, 1)
        if not data:  # several boards, as convert and generate write them: a list of boards
            raise ParseError("no board here: the JSON list is empty", source=source)
        items: list[object] = data
        where = source or "board"
        return Boards(
            label,
            lambda k: jsonfmt.board_from_dict(items[k], f"{where}, board {k + 1} of {len(items)}"),
            len(items),
        )
    if fmt == "csv":
        one = csvfmt.parse_csv_entry(text, source, size)
        return Boards(label, lambda _: one, 1)
    if fmt == "fogleman":
        lines = [
            (number, line)
            for number, line in enumerate(split_lines(text), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        if not lines:
            raise ParseError("no board here: only comments", source=source)
        return Boards(label, lambda k: fogleman.parse_line(lines[k][1], source, lines[k][0]), len(lines))
    if fmt == "grid":
        blocks = grid.document_blocks(text, source)[1]

        def block(k: int) -> tuple[Board, dict[str, str]]:
            record = grid.parse_block(blocks[k], source)
            return record.board, record.meta

        return Boards(label, block, len(blocks))
    raise RushHourError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")


def parse_text(
    text: str,
    source: str | None = None,
    fmt: str | None = None,
    size: tuple[int, int] | None = None,
) -> list[Entry]:
    """Every board of a text, in the given format or the detected one."""
    return list(boards_of_text(text, source, fmt, size))


#: the file name that stands for standard input (``rushhour solve -``, ``solve --batch -``, ``show -:2``)
STDIN = "-"
_stdin_text: list[str] = []  # read once: a command may ask for its BOARD more than once


def source_name(path: str) -> str:
    """How errors name a board file: ``stdin`` for :data:`STDIN`, else its path."""
    return "stdin" if path == STDIN else path


def _read_stdin() -> str:
    """The text of standard input, read whole the first time (at most :data:`MAX_FILE_BYTES`)."""
    if not _stdin_text:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise BoardNotFoundError("standard input is closed: there is no board to read from -")
        try:
            data = stream.read(MAX_FILE_BYTES + 1)
        except OSError as err:
            raise BoardNotFoundError(f"cannot read standard input: {err.strerror or err}") from None
        if len(data) > MAX_FILE_BYTES:
            raise BoardNotFoundError(
                f"standard input is too large to be a board file (more than {MAX_FILE_BYTES:,} bytes)"
            )
        _stdin_text.append(_text_of(data, "stdin"))
    return _stdin_text[0]


def read_board_text(path: str) -> str:
    """The text of a board file (:data:`STDIN`: standard input); a missing, unreadable, too large,
    binary or non-UTF-8 file raises a clear error (:class:`BoardNotFoundError` or :class:`ParseError`)."""
    if path == STDIN:
        return _read_stdin()
    try:
        data = read_regular_file(path, MAX_FILE_BYTES, what="a board file", error=BoardNotFoundError)
    except FileNotFoundError:
        raise BoardNotFoundError(f"no such file: {path}") from None
    except OSError as err:
        raise BoardNotFoundError(f"cannot read {path}: {err.strerror or err}") from None
    return _text_of(data, path)


def _text_of(data: bytes, path: str) -> str:
    if b"\x00" in data:
        raise ParseError("this is a binary file, not a board", source=path)
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, which some editors write first, is not text
    except UnicodeDecodeError as err:
        raise ParseError(
            f"this is not UTF-8 text (byte {err.start + 1}): is it a binary file?", source=path
        ) from None


def read_boards(path: str, fmt: str | None = None) -> Boards:
    """The boards of a file, each built when asked for; a missing, unreadable, binary or empty file
    raises a clear error."""
    text = read_board_text(path)
    if fmt is None and path.lower().endswith(".csv"):
        fmt = "csv"
    return boards_of_text(text, source=source_name(path), fmt=fmt)


def read_file(path: str, fmt: str | None = None) -> list[Entry]:
    """Every board of a file; a missing, unreadable, binary or empty file raises a clear error."""
    return list(read_boards(path, fmt))


def write_board(board: Board, fmt: str, meta: dict[str, str] | None = None) -> str:
    """The board in format ``fmt`` (raises :class:`FormatError` where the format cannot hold it);
    format names match without regard to case."""
    fmt = fmt.lower()
    if fmt == "grid":
        return grid.write_grid(board, meta)
    if fmt == "fogleman":
        return fogleman.write_line(board, meta) + "\n"
    if fmt == "csv":
        return csvfmt.write_csv(board, meta)
    if fmt == "json":
        return jsonfmt.write_json(board, meta)
    raise RushHourError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")


__all__ = [
    "FORMATS",
    "STDIN",
    "Boards",
    "Entry",
    "boards_of_text",
    "detect",
    "parse_text",
    "read_board_text",
    "read_boards",
    "read_file",
    "source_name",
    "write_board",
]
