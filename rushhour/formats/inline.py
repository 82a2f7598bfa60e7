"""Boards written on the command line: a Fogleman string, or grid rows separated by ``/``.

An inline board may be copied from the screen: besides the characters of the grid format (``.`` or
``o`` empty, ``x`` a wall, letters and digits for vehicles) it takes what a drawn board shows in its
cells, ``#`` for a wall and ``*`` for an empty target cell, and in the ``/`` form spaces between the
cells, as the screen spaces them::

    AA...B/.....B/CC.D../...D../EEE.../......
    A A . . # B / . . . . . B / ...
    GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo

Errors say exactly what is wrong, counting rows and columns from 1: ``row 2, column 3: unknown
character '?'`` (on one line, ``row 3, column 4 (character 16)``), ``row 4 has 5 cells but row 1 has
6``, ``35 characters is not a board: a one-line board is square``.
"""

from __future__ import annotations

import math
import re

from rushhour.board import MAX_SIDE, MIN_SIDE
from rushhour.errors import ParseError
from rushhour.formats import Entry, parse_text
from rushhour.formats.cells import EMPTY_CHARS, VEHICLE_CHARS, WALL_CHARS
from rushhour.formats.fogleman import looks_like_fogleman, parse_line
from rushhour.text import plural

SOURCE = "inline board"
#: what the screen draws in a cell, as the grid format writes it
DRAWN = {"#": "x", "*": "."}
_TABLE = str.maketrans(DRAWN)
CHARS = frozenset(VEHICLE_CHARS) | EMPTY_CHARS | WALL_CHARS | frozenset(DRAWN)
_FOGLEMAN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ") | EMPTY_CHARS | WALL_CHARS | frozenset(DRAWN)
_SHORTEST = 9  # a 3x3 board
_TYPOS = 2
_AGAIN = re.compile(r"\(again at line \d+, column (\d+)\)")


def is_inline(text: str) -> bool:
    """Whether a text is a well-formed inline board (a Fogleman line, or rows joined by ``/``)."""
    text = text.strip()
    if "\n" in text:
        return False
    if "/" in text:
        return set(text.replace(" ", "")) <= CHARS | {"/"}
    return looks_like_fogleman(text.translate(_TABLE))


def meant_as_inline(text: str) -> bool:
    """Whether a text that is no board name was meant as an inline board: rows joined by ``/`` (no
    ``:``, which no board holds), or one word of at least 9 characters that is as long as a square
    board or draws one (holds ``.``, ``#`` or ``*``, or is capitals with ``o`` and ``x`` as a
    Fogleman board is, but for a typo or two)."""
    text = text.strip()
    if "\n" in text or ":" in text:
        return False
    if "/" in text:
        return True
    words = text.split()
    if len(words) == 3:  # a database line, MOVES BOARD CLUSTER
        words = words[1:2]
    if len(words) != 1 or len(words[0]) < _SHORTEST:
        return False
    word = words[0]
    side = math.isqrt(len(word))
    if side * side == len(word) and side <= MAX_SIDE:
        return True
    drawn = any(ch in word for ch in ".#*")
    foreign = sum(ch not in _FOGLEMAN for ch in word)  # a typo or two in a Fogleman board
    return drawn or (foreign <= _TYPOS and any(ch.isupper() for ch in word))


def rows_as_grid(text: str) -> str:
    """Rows joined by ``/`` (spaced as the screen spaces cells, ``#`` and ``*`` as it draws them) as
    the grid format's lines."""
    return "\n".join(row.replace(" ", "") for row in text.strip().split("/")).translate(_TABLE)


def parse_inline(text: str, source: str = SOURCE) -> Entry:
    """The board of an inline text; :class:`ParseError` naming the row and column of what is wrong."""
    text = text.strip()
    if "/" not in text:
        return _parse_line(text.translate(_TABLE), source)
    rows = [row.replace(" ", "") for row in text.split("/")]
    for r, row in enumerate(rows, start=1):
        if not row:
            raise ParseError(f"row {r} is empty: write the rows with one / between them", source=source)
        for c, ch in enumerate(row, start=1):
            if ch not in CHARS:
                raise ParseError(
                    f"row {r}, column {c}: unknown character {ch!r}: use . for an empty cell, "
                    "x or # for a wall, letters or digits for vehicles",
                    source=source,
                )
        if len(row) != len(rows[0]):
            raise ParseError(
                f"row {r} has {plural(len(row), 'cell')} but row 1 has {len(rows[0])}: "
                "rows must be equally long",
                source=source,
            )
    try:
        (entry,) = parse_text(rows_as_grid(text), source=source, fmt="grid")
    except ParseError as err:  # a text line of the grid is a row here
        where = ", ".join(
            f"{label} {value}" for label, value in (("row", err.line), ("column", err.column)) if value
        )
        reason = err.reason.replace("(again at line", "(again at row")
        raise ParseError(f"{where}: {reason}" if where else reason, source=source) from None
    return entry


def _parse_line(text: str, source: str) -> Entry:
    words = text.split()
    board = words[1] if len(words) == 3 else text
    side = math.isqrt(len(board))
    if set(board) <= _FOGLEMAN and not (side * side == len(board) and MIN_SIDE <= side <= MAX_SIDE):
        raise ParseError(
            f"{len(board)} characters is not a board: a one-line board is square, the square of a side "
            f"from {MIN_SIDE} to {MAX_SIDE} (9, 16, 25, 36... characters); or write the rows separated by /",
            source=source,
        )
    try:
        found, meta = parse_line(text, source)
    except ParseError as err:  # a square board: name the row and column, not only the character
        start = text.index(board)
        k = (err.column or 0) - 1 - start
        if err.column is None or side * side != len(board) or not 0 <= k < len(board):
            raise

        def cell(k: int) -> str:
            return f"row {k // side + 1}, column {k % side + 1} (character {k + 1})"

        reason = _AGAIN.sub(lambda m: f"(again at {cell(int(m.group(1)) - 1 - start)})", err.reason)
        raise ParseError(f"{cell(k)}: {reason}", source=source) from None
    return Entry(found, meta, source)


__all__ = ["CHARS", "DRAWN", "is_inline", "meant_as_inline", "parse_inline"]
