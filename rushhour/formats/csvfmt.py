"""The course CSV format: ``vehicle,orientation,col,row,length``, one vehicle per line.

Columns and rows count from 1 at the top left; ``orientation`` is ``H`` or ``V``.  Optional
``# key: value`` lines before the CSV header state what the table cannot: ``size`` (``6x6``),
``goal`` (the goal vehicle's name, default ``X``, the red car), ``exit`` (its side, default right for
a horizontal goal and top for a vertical one) and any metadata (``name``, ``moves``...).  The writer
always states the size, so what it writes reads back as the same board.

A file without a ``size`` line (the course's own files) takes its size from the caller, else from the
file name (``Rushhour9x9_4.csv``), else it is the smallest square that holds every vehicle.  (The
header may also say ``car`` instead of ``vehicle``.)
"""

from __future__ import annotations

import csv
import io
import re

from rushhour.board import HORIZONTAL, MAX_SIDE, MIN_SIDE, VERTICAL, Board, Exit, Vehicle
from rushhour.errors import BoardError, FormatError, ParseError
from rushhour.formats.grid import STRUCTURAL, blamed_line, header_line, parse_exit, read_header
from rushhour.formats.lines import LINE_BREAK, position
from rushhour.numbers import is_negative, quoted, whole_or_none

HEADER = ("vehicle", "orientation", "col", "row", "length")
#: the goal vehicle's name when no ``goal`` line says otherwise: the course's red car
DEFAULT_GOAL = "X"
#: header keys that shape the board; every other key is metadata
BOARD_KEYS = ("size", "goal", "exit")
_SIZE_RE = re.compile(r"([0-9]+)x([0-9]+)")
_SIZE_LINE_RE = re.compile(r"([0-9]+)\s*[xX]\s*([0-9]+)\Z")


def size_from_name(name: str | None) -> tuple[int, int] | None:
    """``(width, height)`` from a file name such as ``Rushhour6x6_1.csv``."""
    if not name:
        return None
    m = _SIZE_RE.search(name.rsplit("/", 1)[-1])
    if not m:
        return None
    width, height = whole_or_none(m.group(1)), whole_or_none(m.group(2))
    return (width, height) if width is not None and height is not None else None


def _split_header(text: str) -> tuple[list[tuple[int, str]], int, str]:
    """The leading ``#`` and blank lines (numbered from 1), how many lines they take, and the rest;
    the text is read no further than its first other line, however long it is.  Lines end at
    ``\\n``, ``\\r\\n`` or ``\\r``, as an editor counts them."""
    head: list[tuple[int, str]] = []
    start = number = 0
    while start < len(text):
        found = LINE_BREAK.search(text, start)
        end = len(text) if found is None else found.end()
        stripped = text[start:end].strip()
        if stripped and not stripped.startswith("#"):
            break
        number += 1
        if stripped:
            head.append((number, stripped))
        start = end
    return head, number, text[start:]


def _stray_return(text: str) -> int | None:
    """The line (counted from 1) that the first lone ``\\r`` of a text whose other lines end at ``\\n``
    ends: a line break inside a field, most likely, rather than the end of a line; else None."""
    found = re.search(r"\r(?!\n)", text)
    if found is None or "\n" not in text:
        return None
    return position(text, found.start())[0]


def looks_like_csv(text: str) -> bool:
    first = LINE_BREAK.split(_split_header(text)[2], 1)[0].strip().lower().replace(" ", "")
    return first.startswith(("vehicle,orientation", "car,orientation"))


def _read_board_lines(
    head: list[tuple[int, str]], source: str | None
) -> tuple[tuple[int, int] | None, str, str | Exit | None, dict[str, str], dict[str, int]]:
    """The size, goal, exit and metadata the ``# key: value`` lines state, and the lines of the first
    three."""
    size: tuple[int, int] | None = None
    goal, exit_ = DEFAULT_GOAL, None
    said: dict[str, int] = {}
    meta: dict[str, str] = {}
    for number, line in head:
        entry = read_header(line)
        if entry is None:
            continue  # a plain comment
        key, value = entry
        if key in BOARD_KEYS:
            said[key] = number
        if key == "size":
            found = _SIZE_LINE_RE.match(value)
            if found is None:
                raise ParseError(
                    f"size {quoted(value)} should read WIDTHxHEIGHT, e.g. 6x6", source=source, line=number
                )
            width, height = whole_or_none(found.group(1)), whole_or_none(found.group(2))
            if width is None or height is None or not all(MIN_SIDE <= n <= MAX_SIDE for n in (width, height)):
                shown = value if len(value) <= 40 else value[:37] + "..."
                raise ParseError(
                    f"board size {shown} is out of range: sides are {MIN_SIDE} to {MAX_SIDE}",
                    source=source,
                    line=number,
                )
            size = (width, height)
        elif key == "goal":
            goal = value
        elif key == "exit":
            exit_ = parse_exit(value, source, number)
        elif key in STRUCTURAL:
            raise ParseError(
                f"the CSV format has no {key!r} line: it holds no walls, wrap-around boards or legends",
                source=source,
                line=number,
            )
        else:
            meta[key] = value
    return size, goal, exit_, meta, said


def parse_csv(text: str, source: str | None = None, size: tuple[int, int] | None = None) -> Board:
    return parse_csv_entry(text, source, size)[0]


def parse_csv_entry(
    text: str, source: str | None = None, size: tuple[int, int] | None = None
) -> tuple[Board, dict[str, str]]:
    """The board of a CSV text and the metadata of its ``# key: value`` lines; ``size`` (width,
    height) overrides the text's own ``size`` line."""
    head, skipped, body = _split_header(text)
    stated_size, goal, exit_, meta, lines_of = _read_board_lines(head, source)
    reader = csv.reader(io.StringIO(body, newline=""))  # lines end at \n, \r\n or \r
    try:
        rows = list(reader)
    except csv.Error as err:  # a line break inside a field, a field over the size limit...
        reason = str(err).split(" - ")[0]
        if reason.startswith("new-line character"):
            reason = "a line break inside a field that is not quoted"
        raise ParseError(f"not valid CSV: {reason}", source=source, line=skipped + reader.line_num) from None
    numbered = [(skipped + n, [f.strip() for f in row]) for n, row in enumerate(rows, start=1) if any(row)]
    if not numbered:
        raise ParseError("no board here: the CSV file is empty", source=source)
    n0, header = numbered[0]
    if [h.lower() for h in header] not in (list(HEADER), ["car", *HEADER[1:]]):
        raise ParseError(
            f"the CSV header must be {','.join(HEADER)}, not {quoted(','.join(header))}",
            source=source,
            line=n0,
        )
    vehicles = []
    lines: dict[str, list[int]] = {}  # the lines that give each vehicle name
    for number, fields in numbered[1:]:
        if len(fields) != 5:
            said = f"expected 5 fields ({','.join(HEADER)}), found {len(fields)}"
            if _stray_return(body) == number - skipped:
                said += ": a line break inside a field that is not quoted (a lone \\r) ends the line"
            raise ParseError(said, source=source, line=number)
        name, orientation, col, row, length = fields
        if orientation.upper() not in (HORIZONTAL, VERTICAL):
            said = f"vehicle {name}: orientation {quoted(orientation)} must be H or V"
            raise ParseError(said, source=source, line=number)
        values = []
        for label, value in (("col", col), ("row", row), ("length", length)):
            whole_value = whole_or_none(value)
            if whole_value is None:
                counted = "a length counts cells" if label == "length" else "columns and rows count from 1"
                kind = f"is negative: {counted}" if is_negative(value) else "is not a whole number"
                said = f"vehicle {name}: {label} {quoted(value)} {kind}"
                raise ParseError(said, source=source, line=number)
            values.append(whole_value)
        c, r, n = values
        if c < 1 or r < 1:
            raise ParseError(
                f"vehicle {name}: columns and rows count from 1, not 0", source=source, line=number
            )
        vehicles.append(Vehicle(name, orientation.upper(), n, r - 1, c - 1))
        lines.setdefault(name, []).append(number)
    if not vehicles:
        raise ParseError("the CSV file lists no vehicles", source=source)
    if size is None:
        size = stated_size or size_from_name(source)
    if size is None:
        side = max(
            max(v.col + (v.length if v.horizontal else 1), v.row + (1 if v.horizontal else v.length))
            for v in vehicles
        )
        # no larger than the largest board: a vehicle beyond it is then refused on its own line
        side = min(max(side, MIN_SIDE), MAX_SIDE)
        size = (side, side)
    width, height = size
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ParseError(f"board size {width}x{height} is out of range", source=source)
    try:
        board = Board(width, height, vehicles, goal=goal, exit=exit_)
    except BoardError as err:
        reason = str(err)
        # a name given twice is refused on its second line; any other vehicle rule on its first
        twice = reason.endswith("appears twice")
        named = {name: found[1] if twice and len(found) > 1 else found[0] for name, found in lines.items()}
        line = blamed_line(reason, lines_of, None, named)
        if line is None and reason.startswith("goal vehicle"):  # the default exit: the goal's own line
            line = named.get(goal)
        raise ParseError(reason, source=source, line=line) from None
    return board, meta


def write_csv(board: Board, meta: dict[str, str] | None = None) -> str:
    """The board as ``# size``, ``# goal`` and ``# exit`` lines (the last two when they differ from
    the defaults), the metadata's lines, and the table; :class:`FormatError` for walls, a wrap-around
    board or metadata that would not read back."""
    if board.wrap or board.walls:
        raise FormatError("the CSV format holds no walls and no wrap-around boards")
    lines = [header_line("size", f"{board.width}x{board.height}")]
    if board.goal != DEFAULT_GOAL:
        lines.append(header_line("goal", board.goal))
    goal = board.vehicle(board.goal)
    if board.exit is not None and board.exit.side != ("right" if goal.horizontal else "top"):
        lines.append(header_line("exit", board.exit.side))
    board_keys = {*STRUCTURAL, *BOARD_KEYS}
    lines += [header_line(k, v, "csv") for k, v in (meta or {}).items() if k not in board_keys]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for v in board.vehicles:
        writer.writerow((v.name, v.orientation, v.col + 1, v.row + 1, v.length))
    return "\n".join(lines) + "\n" + out.getvalue()
