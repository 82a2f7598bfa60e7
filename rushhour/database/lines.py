"""The database's lines: ``MOVES BOARD CLUSTER [DISTANCES]`` in the fogleman format, whose one parser
and writer is :mod:`rushhour.formats.fogleman` (:func:`~rushhour.formats.fogleman.parse_database_line`,
:func:`~rushhour.formats.fogleman.database_line`); here, the database's order, its files and the board
of a line.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

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
    return [entry for _, _, entry in database_lines(path)]


def database_lines(path: str) -> Iterator[tuple[int, str, tuple[int, str, int]]]:
    """Each line of a database file with its number and its fields ``(moves, board, cluster)``; blank
    and ``#`` lines skipped, errors naming the file as given and the line."""
    from rushhour.formats import read_board_text, source_name
    from rushhour.formats.lines import split_lines

    # a regular file of text within the size a board file may have: a device, a FIFO, a binary file
    # is refused before it is read, as every file the program reads
    text = read_board_text(path)
    for k, line in enumerate(split_lines(text), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield k, line, read_line(line, source=source_name(path), line=k)


def board_of(board_text: str) -> Board:
    """The board of a database line's BOARD field."""
    expect(board_text, str, "board_text", "a str")
    try:
        board, _ = fogleman.parse_line(board_text)
    except (BoardError, FormatError) as err:
        raise EnumerateError(str(err)) from None
    return board

