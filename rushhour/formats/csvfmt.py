"""The course CSV format: ``vehicle,orientation,col,row,length``, one vehicle per line.

Columns and rows count from 1 at the top left; ``orientation`` is ``H`` or ``V``; ``X`` is the red
car, which leaves through the right edge of its row.  The file does not state the board's size: it is
taken from the caller, else from the file name (``Rushhour9x9_4.csv``), else it is the smallest square
that holds every vehicle.  (The header may also say ``car`` instead of ``vehicle``.)
"""

from __future__ import annotations

import csv
import io
import re

from rushhour.board import HORIZONTAL, MAX_SIDE, MIN_SIDE, VERTICAL, Board, Vehicle
from rushhour.errors import BoardError, FormatError, ParseError
from rushhour.numbers import whole_or_none

HEADER = ("vehicle", "orientation", "col", "row", "length")
_SIZE_RE = re.compile(r"([0-9]+)x([0-9]+)")


def size_from_name(name: str | None) -> tuple[int, int] | None:
    """``(width, height)`` from a file name such as ``Rushhour6x6_1.csv``."""
    if not name:
        return None
    m = _SIZE_RE.search(name.rsplit("/", 1)[-1])
    if not m:
        return None
    width, height = whole_or_none(m.group(1)), whole_or_none(m.group(2))
    return (width, height) if width is not None and height is not None else None


def looks_like_csv(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0].strip().lower().replace(" ", "")
    return first.startswith(("vehicle,orientation", "car,orientation"))


def parse_csv(text: str, source: str | None = None, size: tuple[int, int] | None = None) -> Board:
    reader = csv.reader(io.StringIO(text))
    try:
        rows = list(reader)
    except csv.Error as err:  # a line break inside a field, a field over the size limit...
        reason = str(err).split(" - ")[0]
        if reason.startswith("new-line character"):
            reason = "a line break inside a field that is not quoted"
        raise ParseError(f"not valid CSV: {reason}", source=source, line=reader.line_num) from None
    numbered = [(n, [f.strip() for f in row]) for n, row in enumerate(rows, start=1) if any(row)]
    if not numbered:
        raise ParseError("no board here: the CSV file is empty", source=source)
    n0, header = numbered[0]
    if [h.lower() for h in header] not in (list(HEADER), ["car", *HEADER[1:]]):
        raise ParseError(
            f"the CSV header must be {','.join(HEADER)}, not {','.join(header)!r}",
            source=source,
            line=n0,
        )
    vehicles = []
    for number, fields in numbered[1:]:
        if len(fields) != 5:
            raise ParseError(
                f"expected 5 fields ({','.join(HEADER)}), found {len(fields)}", source=source, line=number
            )
        name, orientation, col, row, length = fields
        if orientation.upper() not in (HORIZONTAL, VERTICAL):
            raise ParseError(
                f"vehicle {name}: orientation {orientation!r} must be H or V", source=source, line=number
            )
        values = []
        for label, value in (("col", col), ("row", row), ("length", length)):
            whole_value = whole_or_none(value)
            if whole_value is None:
                raise ParseError(
                    f"vehicle {name}: {label} {value!r} is not a whole number", source=source, line=number
                )
            values.append(whole_value)
        c, r, n = values
        if c < 1 or r < 1:
            raise ParseError(
                f"vehicle {name}: columns and rows count from 1, not 0", source=source, line=number
            )
        vehicles.append(Vehicle(name, orientation.upper(), n, r - 1, c - 1))
    if not vehicles:
        raise ParseError("the CSV file lists no vehicles", source=source)
    if size is None:
        size = size_from_name(source)
    if size is None:
        side = max(
            max(v.col + (v.length if v.horizontal else 1), v.row + (1 if v.horizontal else v.length))
            for v in vehicles
        )
        side = max(side, MIN_SIDE)
        size = (side, side)
    width, height = size
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ParseError(f"board size {width}x{height} is out of range", source=source)
    try:
        return Board(width, height, vehicles, goal="X", exit="right")
    except BoardError as err:
        raise ParseError(str(err), source=source) from None


def write_csv(board: Board) -> str:
    if board.wrap or board.walls:
        raise FormatError("the CSV format holds no walls and no wrap-around boards")
    if board.exit is None or board.exit.side != "right":
        raise FormatError("the CSV format holds boards whose red car leaves through the right edge")
    # The red car is X in this format: swap names with whatever vehicle is called X now.
    swap = {board.goal: "X", "X": board.goal}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for v in board.vehicles:
        writer.writerow((swap.get(v.name, v.name), v.orientation, v.col + 1, v.row + 1, v.length))
    return out.getvalue()
