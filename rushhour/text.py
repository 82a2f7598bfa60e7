"""Words for counts and runs of moves, shared by every place that prints them.

>>> plural(1, "move"), plural(2, "move"), plural(2859, "position")
('1 move', '2 moves', '2,859 positions')
>>> plural(3, "plan length"), plural(1, "puzzle", grouped=False)
('3 plan lengths', '1 puzzle')
>>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 1113)]
['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd', '1,113th']
>>> from rushhour.board import Move
>>> [str(run) for run in runs([Move("M", 1), Move("M", 1), Move("A", -1), Move("M", 1)])]
['1-2. M+2', '3. A-1', '4. M+1']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from rushhour.board import Move


def plural(count: int, noun: str, *, many: str | None = None, grouped: bool = True) -> str:
    """``1 move``, ``2 moves``: the count and the noun in the number it takes.

    ``many`` is the plural when it is not the noun plus ``s``; ``grouped`` writes thousands with
    commas (``2,859``).
    """
    number = f"{count:,}" if grouped else str(count)
    if count == 1:
        return f"{number} {noun}"
    return f"{number} {many if many is not None else noun + 's'}"


def seconds_text(seconds: float) -> str:
    """``seconds`` as ``--time-limit`` reads them back, the same number: every digit, no exponent
    (which the option refuses: ``1e+06``).

    >>> seconds_text(1_000_000.0), seconds_text(2.1234567), seconds_text(0.5), seconds_text(1e-05)
    ('1000000', '2.1234567', '0.5', '0.00001')
    """
    text = format(Decimal(repr(float(seconds))), "f")
    return text.removesuffix(".0")


def listed(words: Iterable[str], last: str = "and") -> str:
    """Words as a sentence lists them: ``6x6``, ``6x6 and 7x7``, ``grid, csv or json``.

    >>> listed(["6x6"]), listed(["6x6", "7x7"]), listed(["grid", "csv", "json"], "or")
    ('6x6', '6x6 and 7x7', 'grid, csv or json')
    """
    *first, end = words
    return f"{', '.join(first)} {last} {end}" if first else end


def ordinal(count: int) -> str:
    """``1st``, ``2nd``, ``43rd``, ``1,113th``."""
    last = "th" if count % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(count % 10, "th")
    return f"{count:,}{last}"


@dataclass(frozen=True)
class Run:
    """Consecutive entries of a plan (numbered ``first`` to ``last`` from 1) that slide one vehicle
    the same way, shown as the one slide ``move`` they make together."""

    first: int
    last: int
    move: Move

    @property
    def numbers(self) -> str:
        """``7`` for one entry, ``7-9`` for three."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"

    def __str__(self) -> str:
        return f"{self.numbers}. {self.move}"


def runs(moves: Iterable[Move]) -> list[Run]:
    """The plan ``moves`` with consecutive slides of one vehicle in one direction joined, so that a
    steps-metric plan reads ``M+3`` rather than ``M+1 M+1 M+1`` while the numbers keep every entry."""
    out: list[Run] = []
    for k, move in enumerate(moves, 1):
        last = out[-1] if out else None
        if (
            last is not None
            and last.move.vehicle == move.vehicle
            and (last.move.distance > 0) == (move.distance > 0)
        ):
            out[-1] = Run(last.first, k, Move(move.vehicle, last.move.distance + move.distance))
        else:
            out.append(Run(k, k, move))
    return out
