"""The database's lines: ``MOVES BOARD CLUSTER [DISTANCES]`` in the fogleman format, whose one parser
and writer is :mod:`rushhour.formats.fogleman` (:func:`~rushhour.formats.fogleman.parse_database_line`,
:func:`~rushhour.formats.fogleman.database_line`); here, the database's order, its files and the board
of a line.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence

from rushhour.board import Board
from rushhour.database.definitions import EnumerateError
from rushhour.errors import BoardError, FormatError, expect
from rushhour.formats import fogleman


def line_order(line: str) -> tuple[int, str]:
    """Database order: moves descending, then the board."""
    moves, board, _ = line.split(" ", 2)
    return (-int(moves), board)


def read_line(text: str, source: str | None = None, line: int | None = None) -> tuple[int, str, int]:
    """``(moves, board, cluster)`` of one database line (a trailing distances field is allowed)."""
    expect(text, str, "text", "a str")
    entry = fogleman.parse_database_line(text, source, line)
    return entry.moves, entry.board, entry.cluster


def merge(results: Sequence[Sequence[str]]) -> list[str]:
    """The database from the lines of its parts, in database order."""
    return sorted(itertools.chain.from_iterable(results), key=line_order)


def read_database(path: str) -> list[tuple[int, str, int]]:
    """``(moves, board, cluster)`` of every line of a database file (blank and ``#`` lines skipped)."""
    from rushhour.formats import read_board_text

    # a regular file of text within the size a board file may have: a device, a FIFO, a binary file
    # is refused before it is read, as every file the program reads
    text = read_board_text(path)
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(read_line(line, source=os.path.basename(path), line=k))
    return out


def board_of(board_text: str) -> Board:
    """The board of a database line's BOARD field."""
    expect(board_text, str, "board_text", "a str")
    try:
        board, _ = fogleman.parse_line(board_text)
    except (BoardError, FormatError) as err:
        raise EnumerateError(str(err)) from None
    return board

