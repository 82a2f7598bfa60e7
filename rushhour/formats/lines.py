"""Lines as an editor counts them, the one rule every reader of the package follows.

A line ends at ``\\n``, ``\\r\\n`` or ``\\r``, and nowhere else: not at the form feeds, separators and
other characters :meth:`str.splitlines` also breaks at, so that every line number an error names is
the line an editor shows.

>>> split_lines("# name: a\\x0cb\\rAA.\\r\\n...\\n")
['# name: a\\x0cb', 'AA.', '...']
>>> position("ab\\r\\ncd\\ref", 8)
(3, 2)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: one line break: ``\r\n`` before a lone ``\r``, so that a Windows line ending is one break
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``; a final line break ends the last line rather than starting an empty one."""
    lines = LINE_BREAK.split(text)
    return lines[:-1] if lines and not lines[-1] else lines


def iter_lines(text: str) -> Iterator[str]:
    """:func:`split_lines`, one line at a time: a text is read only as far as its reader goes.

    >>> text = "# name: a\\x0cb\\rAA.\\r\\n...\\n"
    >>> list(iter_lines(text)) == split_lines(text)
    True
    """
    start = 0
    for found in LINE_BREAK.finditer(text):
        yield text[start : found.start()]
        start = found.end()
    if start < len(text):
        yield text[start:]


def position(text: str, offset: int) -> tuple[int, int]:
    """The line and column (both counted from 1) of the character at ``offset`` of ``text``."""
    breaks = list(LINE_BREAK.finditer(text, 0, offset))
    return len(breaks) + 1, offset - (breaks[-1].end() if breaks else 0) + 1


__all__ = ["LINE_BREAK", "iter_lines", "position", "split_lines"]
