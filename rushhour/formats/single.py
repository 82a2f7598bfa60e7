"""One board as text: what :meth:`Board.from_text <rushhour.board.Board.from_text>` and
:meth:`Board.to_text <rushhour.board.Board.to_text>` do (``board.py`` reaches this module through its
one hook, :func:`rushhour.board.text_formats`), and how a JSON document names a board on one line.

Every layer above the formats uses these helpers; they live here, not in the library's front door
(:mod:`rushhour.api`), so that nothing below the front door imports it.

>>> board = read_one("AA.B/...B/CC../....")
>>> write_one(board, "fogleman")
'AAoBoooBCCoooooo'
>>> read_one(write_one(board, "json")) == board
True
"""

from __future__ import annotations

import json
from typing import Any

from rushhour.board import Board
from rushhour.errors import FormatError, ParameterError, ParseError, RushHourError
from rushhour.formats import parse_text, write_board
from rushhour.formats.fogleman import fogleman_names
from rushhour.formats.inline import SOURCE as INLINE
from rushhour.formats.inline import rows_as_grid
from rushhour.formats.jsonfmt import board_to_dict
from rushhour.text import listed

#: the formats :meth:`Board.from_text` reads and :meth:`Board.to_text` writes
TEXT_FORMATS = ("grid", "fogleman", "csv", "json", "rows")
#: their names as a message lists them: ``grid, fogleman, csv, json or rows``
FORMAT_NAMES = listed(TEXT_FORMATS, "or")


def _rows_text(text: str) -> bool:
    """Whether ``text`` is grid rows joined by ``/`` on one line."""
    body = text.strip()
    return "\n" not in body and "/" in body and not body.startswith(("{", "["))


def _format_name(format: str | None) -> str | None:
    """A format's name in lower case (names match without regard to case); else as it is, for the
    caller to refuse."""
    return format.lower() if isinstance(format, str) else format


def read_one(text: str, format: str | None = None) -> Board:
    """The one board of ``text`` (see :meth:`Board.from_text`); ``format`` matches without regard to
    case, as everywhere else."""
    format = _format_name(format)
    if format is not None and format not in TEXT_FORMATS:
        raise ParameterError(f"unknown format {format!r}: use one of {', '.join(TEXT_FORMATS)}")
    if format == "rows" or (format is None and _rows_text(text)):
        text, format = rows_as_grid(text), "grid"  # what the screen draws is read as on the command line
    entries = parse_text(text, fmt=format)
    if len(entries) != 1:
        raise ParseError(
            f"the text holds {len(entries)} boards, not one (rushhour.formats.parse_text reads them all)"
        )
    return entries[0].board


def write_one(board: Board, format: str = "grid") -> str:
    """``board`` in ``format`` (see :meth:`Board.to_text`), named without regard to case."""
    format = _format_name(format) or format
    if format == "fogleman":
        return write_board(board, format).rstrip("\n")
    if format == "rows":
        text = "/".join(board.rows())
        try:
            holds = read_one(text, "rows") == board
        except RushHourError:  # the rows alone name no goal vehicle, or one that cannot leave
            holds = False
        if not holds:
            raise FormatError(
                "the rows form cannot hold this board (its names, goal, exit or wrap need a header): "
                "use the grid or json format"
            )
        return text
    if format not in TEXT_FORMATS:
        raise ParameterError(f"unknown format {format!r}: use one of {', '.join(TEXT_FORMATS)}")
    return write_board(board, format)


def one_line(board: Board) -> tuple[str, str]:
    """``board`` as one line of text and the format of that line: a Fogleman string when that format
    holds the board, else grid rows joined by ``/``, else compact JSON.  :meth:`Board.from_text` reads
    the line back as ``board``.

    >>> one_line(Board.from_text("AA.B/...B/CC../...."))
    ('AAoBoooBCCoooooo', 'fogleman')
    >>> one_line(Board.from_text("AA.B./...B./CC.../....."))
    ('AA.B./...B./CC.../.....', 'rows')
    """
    try:
        text = write_one(board, "fogleman")
        # the format maps cells to names one to one: it holds the board when it keeps every name
        if all(old == new for old, new in fogleman_names(board).items()):
            return text, "fogleman"
    except FormatError:
        pass
    try:
        return write_one(board, "rows"), "rows"
    except FormatError:
        pass

    return json.dumps(board_to_dict(board), separators=(",", ":")), "json"


def board_ref(board: Board, *, name: str | None = None, source: str | None = None) -> dict[str, Any]:
    """How a JSON document identifies a board: its text on one line (and that text's format), its
    size, and the name and the source (file, ``pack:N``) it came from when known (else null).

    >>> board_ref(Board.from_text("AA.B/...B/CC../...."), source="inline board")["source"] is None
    True
    """
    text, fmt = one_line(board)
    return {
        "text": text,
        "format": fmt,
        "width": board.width,
        "height": board.height,
        "name": name or None,
        "source": None if source in (None, "", INLINE) else source,
    }


__all__ = ["FORMAT_NAMES", "TEXT_FORMATS", "board_ref", "one_line", "read_one", "write_one"]
