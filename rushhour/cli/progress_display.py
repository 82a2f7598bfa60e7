"""The one progress display of the long commands (``solve``, ``analyze``, ``generate``, ``enumerate``).

Where a long command stands goes to stderr, never to stdout, where the answer and the JSON documents
go.  On a terminal it is a tqdm bar when the ``progress`` extra is installed
(``pip install '.[progress]'``), else one line rewritten in place; off a terminal nothing, or plain
lines where the command asks for them (``solve --progress``, ``analyze --progress``, ``enumerate``).
``-q`` shows nothing.
The line, rewritten or plain, is the command's own: ``bfs: 1,234 positions, ...``; the display is
cleared when the work ends, so the command's summary starts on a clean line.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def _tqdm() -> Any:
    """tqdm's bar class, or None when the ``progress`` extra is not installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


class ProgressDisplay:
    """Where a long command stands, on stderr (see the module's text for when it shows).

    ``enabled`` is False with ``-q``; ``lines`` asks for plain lines when stderr is not a terminal;
    ``every`` is the least time in seconds between two lines (a tqdm bar paces itself).
    """

    __slots__ = ("stream", "terminal", "enabled", "every", "tqdm", "bar", "desc", "unit", "last")

    def __init__(
        self, *, enabled: bool = True, lines: bool = False, every: float = 0.0, stream: TextIO | None = None
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.terminal = self.stream.isatty()
        self.enabled = enabled and (self.terminal or lines)
        self.every = every
        self.tqdm: Any = _tqdm() if self.enabled and self.terminal else None
        self.bar: Any = None
        self.desc = self.unit = ""
        self.last: float | None = None  # when the last line was written

    def update(
        self,
        count: int,
        *,
        desc: str,
        unit: str,
        line: str,
        total: int | None = None,
        postfix: str = "",
        final: bool = False,
    ) -> None:
        """``count`` of ``total`` (None: no end known) ``unit`` done; ``line`` says it in words.
        A ``final`` update is written whatever ``every`` says."""
        if not self.enabled:
            return
        if self.tqdm is not None:
            self._bar(count, desc, unit, total, postfix)
            return
        now = time.monotonic()
        if self.last is not None and now - self.last < self.every and not final:
            return
        self.last = now
        self.stream.write(f"\r{line}\x1b[K" if self.terminal else line + "\n")
        self.stream.flush()

    def note(self, line: str) -> None:
        """A line that stays (a bound proved, a milestone), above the bar or the line rewritten in place;
        shown where the display shows anything."""
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
            return
        self.stream.write(("\r\x1b[K" if self.terminal else "") + line + "\n")
        self.stream.flush()

    def _bar(self, count: int, desc: str, unit: str, total: int | None, postfix: str) -> None:
        if self.bar is not None and unit != self.unit:  # a new stage counts something else: a new bar
            self.bar.close()
            self.bar = None
        if self.bar is None:  # made at the first update, which names the work and its unit
            scale = total is None
            self.bar = self.tqdm(
                total=total, file=self.stream, desc=desc, unit=unit, unit_scale=scale, leave=False
            )
            self.desc, self.unit = desc, unit
        elif desc != self.desc:
            self.bar.set_description_str(desc, refresh=False)
            self.desc = desc
        if postfix:
            self.bar.set_postfix_str(postfix, refresh=False)
        if count != self.bar.n:
            self.bar.update(count - self.bar.n)

    def close(self) -> None:
        """Clear the bar or the line rewritten in place (plain lines stay)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.last is not None and self.terminal:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        self.last = None


__all__ = ["ProgressDisplay"]
