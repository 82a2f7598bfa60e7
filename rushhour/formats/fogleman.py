"""Fogleman's one-line format: a square board as one string, row-major from the top left.

``o`` (or ``.``) is empty, ``x`` a wall, ``A`` the goal car (horizontal, leaving through the right edge
of its row), ``B``..``Z`` the other vehicles.  A database line adds the optimal number of moves before
the board and the size of its reachable set after it: ``MOVES BOARD CLUSTER``, and in a database built
with distances the number of positions at each distance from a win (``DISTANCES``, ``1,4,2``).
:func:`parse_database_line` and :class:`DatabaseLine` are the one parser and writer of those lines
(:mod:`rushhour.database` reads and writes its files with them).

>>> entry = parse_database_line("03 AAoBoooBooCCoooo 18 4,8,4,2")
>>> entry.moves, entry.board, entry.cluster, entry.distances
(3, 'AAoBoooBooCCoooo', 18, (4, 8, 4, 2))
>>> entry.text()
'03 AAoBoooBooCCoooo 18 4,8,4,2'
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from rushhour.board import MAX_SIDE, MIN_SIDE, Board
from rushhour.errors import BoardError, FormatError, ParseError
from rushhour.formats.cells import vehicles_from_grid
from rushhour.numbers import is_whole

_ALLOWED = set("ox.ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the most vehicles a board of the format holds: one letter each
MAX_VEHICLES = len(_LETTERS)
_BOARD_RE = re.compile(r"[ox.A-Z]+\Z")
_DISTANCES_RE = re.compile(r"\d+(,\d+)*\Z")
_EXAMPLE = "'02 ooBoooooBoooAABooooooooooooooooooooo 14'"


class DatabaseLine(NamedTuple):
    """One database line: the optimal number of moves, the BOARD field (not yet read as a board), the
    size of the cluster and, in a database with distances, the positions at each distance from a win."""

    moves: int
    board: str
    cluster: int
    distances: tuple[int, ...] | None = None

    def text(self) -> str:
        """The line as a database holds it: ``MOVES BOARD CLUSTER[ DISTANCES]``, MOVES on two digits."""
        line = f"{self.moves:02d} {self.board} {self.cluster}"
        return line if self.distances is None else line + " " + ",".join(map(str, self.distances))


def _senseless(moves: int, cluster: int, distances: tuple[int, ...] | None) -> str | None:
    """Why no database line can have these fields, or None: a cluster holds its own board, and the
    DISTANCES count its positions at distances 0 to MOVES (the farthest), each at least one."""
    if cluster < 1:
        return f"cluster {cluster} holds no position: a cluster holds its own board at least"
    if distances is None:
        return None
    field = ",".join(map(str, distances))
    if len(distances) != moves + 1:
        return f"distances {field} go to distance {len(distances) - 1}, not to MOVES {moves}"
    if sum(distances) != cluster:
        return f"distances {field} add up to {sum(distances):,}, not to CLUSTER {cluster:,}"
    if 0 in distances:
        return f"distances {field} count no position at distance {distances.index(0)}"
    return None


def looks_like_fogleman(text: str) -> bool:
    """Whether one line of text is a Fogleman board or database line."""
    parts = text.split()
    if len(parts) == 4 and all(is_whole(d) for d in parts[3].split(",")):  # with its distances
        parts = parts[:3]
    if len(parts) == 3 and is_whole(parts[0]) and is_whole(parts[2]):
        parts = [parts[1]]
    if len(parts) != 1 or not _BOARD_RE.match(parts[0]):
        return False
    side = math.isqrt(len(parts[0]))
    return side * side == len(parts[0]) and MIN_SIDE <= side <= MAX_SIDE


def parse_database_line(text: str, source: str | None = None, line: int | None = None) -> DatabaseLine:
    """The fields of ``MOVES BOARD CLUSTER [DISTANCES]``; BOARD is checked to hold only the format's
    characters (:func:`parse_line` reads it as a board)."""
    parts = text.split()
    if len(parts) not in (3, 4):
        raise ParseError(
            f"a database line is MOVES BOARD CLUSTER [DISTANCES], like {_EXAMPLE} ({len(parts)} fields here)",
            source=source,
            line=line,
        )
    moves, board_text, cluster = parts[:3]
    for label, value in (("moves", moves), ("cluster", cluster)):
        if not is_whole(value):
            message = f"database line {label} field {value!r} is not a number"
            raise ParseError(message, source=source, line=line)
    _check_characters(board_text, text.index(board_text), source, line)
    distances = None
    if len(parts) == 4:
        if not _DISTANCES_RE.match(parts[3]):
            raise ParseError(
                f"database line distances field {parts[3]!r} is not a list of numbers like 1,4,2",
                source=source,
                line=line,
            )
        distances = tuple(int(d) for d in parts[3].split(","))
    why = _senseless(int(moves), int(cluster), distances)
    if why is not None:
        raise ParseError(f"database line {why}", source=source, line=line)
    return DatabaseLine(int(moves), board_text, int(cluster), distances)


def _check_characters(board_text: str, start: int, source: str | None, line: int | None) -> None:
    """Refuse a BOARD field (starting at ``start`` in its line) with a character the format lacks."""
    for k, ch in enumerate(board_text):
        if ch not in _ALLOWED:
            raise ParseError(
                f"unknown character {ch!r} in a Fogleman board: use o, x and A-Z",
                source=source,
                line=line,
                column=start + k + 1,
            )


def parse_line(text: str, source: str | None = None, line: int | None = None) -> tuple[Board, dict[str, str]]:
    """Parse ``BOARD`` or ``MOVES BOARD CLUSTER [DISTANCES]``; metadata holds ``moves`` and
    ``cluster``, and ``distances`` (``4,8,4,2``) when the line has them."""
    parts = text.split()
    meta: dict[str, str] = {}
    if len(parts) in (3, 4):
        entry = parse_database_line(text, source, line)
        board_text = entry.board
        meta = {"moves": str(entry.moves), "cluster": str(entry.cluster)}
        if entry.distances is not None:
            meta["distances"] = ",".join(map(str, entry.distances))
    elif len(parts) == 1:
        board_text = parts[0]
    else:
        raise ParseError(
            f"a Fogleman line is BOARD or MOVES BOARD CLUSTER [DISTANCES] ({len(parts)} fields here)",
            source=source,
            line=line,
        )
    start = text.index(board_text) if board_text else 0
    _check_characters(board_text, start, source, line)
    side = math.isqrt(len(board_text))
    if side * side != len(board_text) or not MIN_SIDE <= side <= MAX_SIDE:
        raise ParseError(
            f"a Fogleman board is square: {len(board_text)} characters is not the square of a side "
            f"from {MIN_SIDE} to {MAX_SIDE}",
            source=source,
            line=line,
        )
    rows = [board_text[r * side : (r + 1) * side] for r in range(side)]

    def locate(cell: tuple[int, int]) -> tuple[int, int]:
        return (line or 1), start + cell[0] * side + cell[1] + 1

    vehicles, walls = vehicles_from_grid(rows, wrap=False, legend={}, locate=locate, source=source)
    try:
        board = Board(side, side, vehicles, walls=walls, goal="A", exit="right")
    except BoardError as err:
        raise ParseError(str(err), source=source, line=line) from None
    return board, meta


def fogleman_names(board: Board) -> dict[str, str]:
    """How a board's vehicles are named in the format: themselves when they can be, else relabelled
    (the goal as ``A`` and the others ``B``, ``C``... in order)."""
    names = board.names
    if board.goal == "A" and all(len(n) == 1 and n in _LETTERS for n in names):
        return {n: n for n in names}
    if len(names) > MAX_VEHICLES:
        raise FormatError(
            f"the Fogleman format holds at most {MAX_VEHICLES} vehicles; this board has {len(names)}"
        )
    others = iter(_LETTERS[1:])
    return {n: ("A" if n == board.goal else next(others)) for n in names}


def write_line(board: Board, meta: dict[str, str] | None = None) -> str:
    """The board as one string; a database line when ``meta`` has ``moves`` and ``cluster`` (with
    its DISTANCES field when ``meta`` has ``distances`` too)."""
    if board.wrap:
        raise FormatError("the Fogleman format holds no wrap-around boards")
    if board.width != board.height:
        raise FormatError(f"the Fogleman format holds square boards only, not {board.width}x{board.height}")
    if board.exit is None or board.exit.side != "right":
        raise FormatError("the Fogleman format holds boards whose goal car leaves through the right edge")
    rename = fogleman_names(board)
    occ = board.occupancy()
    text = "".join("o" if v == -1 else "x" if v == -2 else rename[board.names[v]] for v in occ)
    if meta and "moves" in meta and "cluster" in meta:
        for label in ("moves", "cluster"):
            if not is_whole(meta[label]):
                raise FormatError(
                    f"a Fogleman database line cannot hold {label} {meta[label]!r}: not a number"
                )
        distances = meta.get("distances")
        if distances is not None and not _DISTANCES_RE.match(distances):
            raise FormatError(
                f"a Fogleman database line cannot hold distances {distances!r}: not numbers like 1,4,2"
            )
        counts = None if distances is None else tuple(int(d) for d in distances.split(","))
        why = _senseless(int(meta["moves"]), int(meta["cluster"]), counts)
        if why is not None:
            raise FormatError(f"no Fogleman database line can be written: its {why}")
        return DatabaseLine(int(meta["moves"]), text, int(meta["cluster"]), counts).text()
    return text
