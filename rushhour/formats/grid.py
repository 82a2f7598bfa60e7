"""The canonical grid-text format of ``boards/``.

A document holds one or more boards separated by blank lines.  Each board is optional ``# key: value``
header lines followed by its grid, one text line per row: ``.`` or ``o`` empty, ``x`` a wall, any other
letter or digit a vehicle.  Header keys with a meaning for the board itself:

``goal``   the goal vehicle's name (default ``A``)
``exit``   ``right``/``left``/``top``/``bottom``, optionally with the line index (default: right for a
           horizontal goal vehicle, top for a vertical one)
``wrap``   ``yes`` for a wrap-around (torus) board
``target`` on a wrap-around board, ``ROW,COL HEADING`` (heading east, west, north or south)
``legend`` ``s=NAME`` pairs giving multi-character names to one-character symbols

Every other key (name, difficulty, moves, author, seed...) is kept as metadata.  A first block made of
header lines only is the document's own header (a pack's title, the command that made it...).
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from rushhour.board import HEADINGS, MAX_SIDE, MIN_SIDE, SIDES, Board, Exit, Target, default_target
from rushhour.errors import BoardError, FormatError, ParseError
from rushhour.formats.cells import (
    EMPTY_CHARS,
    VEHICLE_CHARS,
    WALL_CHARS,
    symbols_for,
    vehicles_from_grid,
)
from rushhour.formats.lines import LINE_BREAK, split_lines
from rushhour.numbers import NumberError, quoted, whole, whole_or_none
from rushhour.text import plural

STRUCTURAL = ("goal", "exit", "wrap", "target", "legend")
_KNOWN = EMPTY_CHARS | WALL_CHARS | set(VEHICLE_CHARS)
@dataclass
class Record:
    """One board of a document, with its metadata and the line its block starts on."""

    board: Board
    meta: dict[str, str] = field(default_factory=dict)
    line: int = 1


@dataclass
class Document:
    meta: dict[str, str]
    records: list[Record]


def parse_bool(value: str, source: str | None, line: int) -> bool:
    v = value.strip().lower()
    if v in ("yes", "true", "1", "on"):
        return True
    if v in ("no", "false", "0", "off"):
        return False
    raise ParseError(f"wrap must be yes or no, not {quoted(value)}", source=source, line=line)


def parse_exit(value: str, source: str | None, line: int) -> str | Exit:
    parts = value.split()
    if not parts or parts[0].lower() not in SIDES or len(parts) > 2:
        raise ParseError(
            f"exit {quoted(value)} is not a side: use right, left, top or bottom (and optionally the line)",
            source=source,
            line=line,
        )
    side = parts[0].lower()
    if len(parts) == 1:
        return side
    index = whole_or_none(parts[1])
    if index is None:
        raise ParseError(f"exit line {quoted(parts[1])} is not a number", source=source, line=line)
    return Exit(side, index)


def parse_target(value: str, source: str | None, line: int) -> Target:
    try:
        where, heading = value.split()
        row, col = (whole(p) for p in where.split(","))
    except (ValueError, NumberError):
        raise ParseError(
            f"target {quoted(value)} should read ROW,COL HEADING, e.g. '2,5 east'", source=source, line=line
        ) from None
    if heading.lower() not in HEADINGS:
        raise ParseError(
            f"target heading {quoted(heading)} is not one of {', '.join(HEADINGS)}", source=source, line=line
        )
    return Target(row, col, heading.lower())


def parse_legend(value: str, source: str | None, line: int) -> dict[str, str]:
    legend: dict[str, str] = {}
    for item in value.split():
        symbol, eq, name = item.partition("=")
        if not eq or len(symbol) != 1 or symbol not in VEHICLE_CHARS or not name.isalnum():
            raise ParseError(
                f"legend entry {quoted(item)} should read SYMBOL=NAME, e.g. a=AA", source=source, line=line
            )
        if symbol in legend:
            raise ParseError(f"legend gives symbol {symbol} twice", source=source, line=line)
        legend[symbol] = name
    return legend


#: one board's lines in a grid text: its header lines (line, key, value), its rows (line, text) and the
#: block's first line
Block = tuple[list[tuple[int, str, str]], list[tuple[int, str]], int]


def _split_block(text: str, first_line: int) -> tuple[list[tuple[int, str, str]], list[tuple[int, str]]]:
    """A block's header lines (line, key, value) and rows (line, text); ``first_line`` is its first
    line's number."""
    headers: list[tuple[int, str, str]] = []
    grid: list[tuple[int, str]] = []
    for number, raw in enumerate(split_lines(text), start=first_line):
        line = raw.rstrip()
        if line.lstrip().startswith("#"):
            entry = read_header(line)
            if entry:
                headers.append((number, *entry))
        else:
            grid.append((number, line))
    return headers, grid


def runs(text: str) -> Iterator[tuple[int, int, int, bool]]:
    r"""Each run of non-blank lines of ``text`` (a board's block, or a header block): where it starts
    and ends (character offsets, the end's line break left out), its first line's number, and whether
    one of its lines is a row (not a ``#`` line).

    >>> list(runs("# title: t\n\nAA.\n...\n\n\n..A\n"))
    [(0, 10, 1, False), (12, 19, 3, True), (22, 25, 7, True)]
    """
    start = end = line_of = -1  # the open run's span and first line; -1: none open
    grid = False
    position = 0
    for number, found in enumerate(itertools.chain(LINE_BREAK.finditer(text), [None]), start=1):
        if found is None and position >= len(text):
            break  # the text ends with a line break: no last line after it
        stop = len(text) if found is None else found.start()
        line = text[position:stop]
        if not line.strip():
            if start >= 0:
                yield start, end, line_of, grid
                start = -1
        else:
            if start < 0:
                start, line_of, grid = position, number, False
            end = stop
            grid = grid or not line.lstrip().startswith("#")
        position = len(text) if found is None else found.end()
    if start >= 0:
        yield start, end, line_of, grid


class _Blocks(Sequence[Block]):
    """The boards' blocks of a grid text, found in one pass that keeps only where each one is (its
    first and last characters, its first line): a block's lines are read when it is asked for."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.starts, self.ends, self.lines = array("q"), array("q"), array("q")
        self.meta: dict[str, str] = {}  # the file's own header: a first block of header lines only
        first_block: int | None = None  # the first non-blank line of the text
        for start, end, line_of, grid in runs(text):
            if first_block is None:
                first_block = line_of
            if grid:
                self.starts.append(start)
                self.ends.append(end)
                self.lines.append(line_of)
            elif line_of == first_block:
                self.meta = {k: v for _, k, v in _split_block(text[start:end], line_of)[0]}
            else:
                raise ParseError("header lines with no grid below them", source=source, line=line_of)
        if first_block is None:
            raise ParseError("no board here: the text is empty", source=source)
        if not self.starts:
            raise ParseError("no board here: only header lines", source=source, line=first_block)

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> Block: ...
    @overload
    def __getitem__(self, index: slice) -> list[Block]: ...
    def __getitem__(self, index: int | slice) -> Block | list[Block]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        headers, grid = _split_block(self.text[self.starts[index] : self.ends[index]], self.lines[index])
        return headers, grid, self.lines[index]


def read_header(line: str) -> tuple[str, str] | None:
    body = line.lstrip()[1:].strip()
    key, colon, value = body.partition(":")
    if not colon or not key.strip() or " " in key.strip():
        return None  # a plain comment
    return key.strip().lower(), value.strip()


def document_blocks(text: str, source: str | None = None) -> tuple[dict[str, str], Sequence[Block]]:
    """The file's own header and each board's lines, without building the boards (so one board of a
    large file costs that board: :func:`parse_block`)."""
    blocks = _Blocks(text, source)
    return blocks.meta, blocks


def parse_block(block: Block, source: str | None = None) -> Record:
    """The board (and its header) of one block of :func:`document_blocks`."""
    headers, grid, first_line = block
    return _record(headers, grid, first_line, source)


def parse_document(text: str, source: str | None = None) -> Document:
    """Parse every board of a grid-text document."""
    doc_meta, blocks = document_blocks(text, source)
    return Document(doc_meta, [parse_block(block, source) for block in blocks])


def _record(
    headers: list[tuple[int, str, str]],
    grid: list[tuple[int, str]],
    first_line: int,
    source: str | None,
) -> Record:
    meta: dict[str, str] = {}
    goal, exit_, target, wrap, legend = "A", None, None, False, {}
    said: dict[str, int] = {}  # the line of each header that shapes the board
    for number, key, value in headers:
        if key in STRUCTURAL:
            said[key] = number
        if key == "goal":
            goal = value
        elif key == "exit":
            exit_ = parse_exit(value, source, number)
        elif key == "wrap":
            wrap = parse_bool(value, source, number)
        elif key == "target":
            target = parse_target(value, source, number)
        elif key == "legend":
            legend = parse_legend(value, source, number)
        else:
            meta[key] = value
    rows = [line.strip() for _, line in grid]
    indents = [len(line) - len(line.lstrip()) for _, line in grid]
    width = len(rows[0])
    for label, side in (("width", width), ("height", len(rows))):
        if side > MAX_SIDE:  # said before any cell is read, so that no text is too long to refuse
            raise ParseError(
                f"board {label} {side} is out of range: sides are {MIN_SIDE} to {MAX_SIDE}",
                source=source,
                line=first_line,
            )
    for (number, _), row, indent in zip(grid, rows, indents, strict=True):
        for col, ch in enumerate(row):
            if ch not in _KNOWN:
                raise ParseError(
                    f"unknown character {ch!r}: use . or o for empty, x for a wall, "
                    "letters or digits for vehicles",
                    source=source,
                    line=number,
                    column=indent + col + 1,
                )
        if len(row) != width:
            raise ParseError(
                f"row has {plural(len(row), 'cell')} but the first row has {width}: "
                "rows must be equally long",
                source=source,
                line=number,
            )

    def locate(cell: tuple[int, int]) -> tuple[int, int]:
        r, c = cell
        return grid[r][0], indents[r] + c + 1

    vehicles, walls = vehicles_from_grid(rows, wrap=wrap, legend=legend, locate=locate, source=source)
    for symbol in legend:
        if not any(v.name == legend[symbol] for v in vehicles):
            raise ParseError(
                f"legend names symbol {symbol}, which is not on the grid", source=source, line=said["legend"]
            )
    try:
        board = Board(
            width,
            len(rows),
            vehicles,
            walls=walls,
            goal=goal,
            exit=exit_,
            target=target,
            wrap=wrap,
        )
    except BoardError as err:
        named = {name: said["legend"] for name in legend.values()}  # a vehicle named by the legend
        line = blamed_line(str(err), said, first_line, named)
        raise ParseError(str(err), source=source, line=line) from None
    return Record(board, meta, first_line)


def blamed_line(
    reason: str, said: dict[str, int], default: int | None, vehicles: dict[str, int] | None = None
) -> int | None:
    """The line a board rule's complaint (a :class:`BoardError`'s message) is about, else ``default``.

    ``said`` maps the header keys that shape the board (``goal``, ``exit``, ``wrap``, ``target``,
    ``legend``, ``size``) to their lines, ``vehicles`` each vehicle's name to the line that gives it.
    A missing goal vehicle blames the goal line; a goal that cannot reach its exit the exit (or
    target) line; a target or exit out of place its own line; a vehicle rule the vehicle's line."""
    if reason.startswith("the goal vehicle"):
        order: tuple[str, ...] = ("goal",)
    elif reason.startswith("goal vehicle"):
        order = ("target", "exit", "wrap", "goal")
    elif "target" in reason or reason.startswith("unknown heading"):
        order = ("target", "wrap")
    elif "exit" in reason:
        order = ("exit", "wrap")
    elif reason.startswith("board "):
        order = ("size",)
    elif reason.startswith("vehicle"):
        for name, line in (vehicles or {}).items():
            if reason.startswith((f"vehicle {name} ", f"vehicle name {name!r} ")):
                return line
        order = ()
    else:
        order = ()
    return next((said[key] for key in order if key in said), default)


def parse_grid(text: str, source: str | None = None) -> Board:
    """Parse a document holding exactly one board."""
    doc = parse_document(text, source)
    if len(doc.records) != 1:
        raise ParseError(f"expected one board, found {len(doc.records)}", source=source)
    return doc.records[0].board


def structural_header(board: Board) -> dict[str, str]:
    """The header keys a board needs beyond its grid (empty for the defaults)."""
    head: dict[str, str] = {}
    goal = board.vehicle(board.goal)
    if board.goal != "A":
        head["goal"] = board.goal
    if board.wrap:
        head["wrap"] = "yes"
        default = default_target(goal, board.width)
        if board.target != default:
            head["target"] = str(board.target)
    elif board.exit is not None and board.exit.side != ("right" if goal.horizontal else "top"):
        head["exit"] = board.exit.side
    return head


def header_line(key: str, value: str, fmt: str = "grid") -> str:
    """``# key: value``, or :class:`FormatError` when that line would not read back as this key and
    value (a key with spaces or capitals, a value with a line break or spaces at an end...) in the
    ``fmt`` format (grid or csv, which share their headers)."""
    line = f"# {key}: {value}".rstrip()
    why = "a header key is one lower-case word without a colon, its value one line of text"
    refused = f"the {fmt} format cannot hold the header {key!r}: {quoted(value)} ({why})"
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no text file can hold it
        raise FormatError(refused) from None
    if len(line.splitlines()) != 1 or "\x00" in line or read_header(line) != (key, value):
        raise FormatError(refused)
    return line


def grid_symbols(names: Sequence[str]) -> dict[str, str]:
    """Each vehicle's one-character symbol in a grid; :class:`FormatError` past the grid's symbols."""
    if len(names) > len(VEHICLE_CHARS):
        raise FormatError(
            f"the grid format holds at most {len(VEHICLE_CHARS)} vehicles; this board has {len(names)}"
        )
    return symbols_for(tuple(names))


def legend_line(names: Sequence[str], symbols: dict[str, str]) -> str | None:
    """The ``# legend:`` line that names the vehicles whose symbol is not their name (None: none)."""
    legend = {symbols[n]: n for n in names if symbols[n] != n}
    if not legend:
        return None
    return "# legend: " + " ".join(f"{s}={n}" for s, n in sorted(legend.items()))


def write_grid(board: Board, meta: dict[str, str] | None = None) -> str:
    """One board as header lines and grid, ending with a newline."""
    names = board.names
    symbols = grid_symbols(names)
    legend = legend_line(names, symbols)
    lines = [header_line(k, v) for k, v in (meta or {}).items() if k not in STRUCTURAL]
    lines += [f"# {k}: {v}" for k, v in structural_header(board).items()]
    if legend:
        lines.append(legend)
    occ = board.occupancy()
    w = board.width
    for r in range(board.height):
        row = []
        for c in range(w):
            v = occ[r * w + c]
            row.append("." if v == -1 else "x" if v == -2 else symbols[names[v]])
        lines.append("".join(row))
    return "\n".join(lines) + "\n"


def write_document(records: list[tuple[Board, dict[str, str]]], meta: dict[str, str] | None = None) -> str:
    """Several boards (a pack), with an optional document header block."""
    return join_document([write_grid(board, m) for board, m in records], meta)


def join_document(boards: list[str], meta: dict[str, str] | None = None) -> str:
    """Boards already written by :func:`write_grid`, as one document with an optional header block."""
    parts = ["\n".join(header_line(k, v) for k, v in meta.items()) + "\n"] if meta else []
    return "\n".join([*parts, *boards])
