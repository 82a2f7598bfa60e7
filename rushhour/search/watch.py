"""Progress of a long search: a small record handed to a callback between batches of positions.

``solve(board, progress=callback)`` calls ``callback(record)`` at most every :data:`INTERVAL`
seconds while a search runs (from the limit checks every engine makes between batches), with a
:class:`SearchProgress` record: the engine, what is counted (positions, random moves), how many, the
seconds since the start, the rate and the memory the search has taken.  The callback only looks:
it must not raise (a :class:`KeyboardInterrupt` passes through, as anywhere).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rushhour.search.memory import MemoryBudget
from rushhour.text import plural

INTERVAL = 0.5  # seconds between two records at least


@dataclass(frozen=True, slots=True)
class SearchProgress:
    """Where a running search stands."""

    engine: str
    what: str  # what ``count`` counts: "positions", "random moves"
    count: int
    seconds: float
    memory: int  # bytes the search has taken (0 where it cannot be measured)

    @property
    def rate(self) -> float:
        """``count`` per second."""
        return self.count / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        """``bfs: 1,234,567 positions, 250,000/s, 120 MB, 4.9 s``."""
        return (
            f"{self.engine}: {self.count:,} {self.what}, {self.rate:,.0f}/s, "
            f"{self.memory / 1024**2:,.0f} MB, {self.seconds:.1f} s"
        )


@dataclass(frozen=True, slots=True)
class Bound:
    """A bound on a board's optimal length, proved or found by one engine of the portfolio
    (:mod:`rushhour.search.portfolio`): ``kind`` "lower" (no solution is shorter than ``value``) or
    "best" (a solution of ``value`` moves, replayed by the rules), ``seconds`` after the start."""

    kind: str
    value: int
    engine: str
    seconds: float

    def to_dict(self) -> dict[str, object]:
        seconds = round(self.seconds, 3)
        return {"kind": self.kind, "value": self.value, "engine": self.engine, "seconds": seconds}


@dataclass(frozen=True, slots=True)
class Bounds:
    """Where a portfolio stands, handed to the progress callback each time a bound improves: the best
    lower bound and the engine that proved it, the best solution's length (None: none yet) and the
    engine that found it."""

    lower: int
    lower_by: str
    best: int | None
    best_by: str | None
    seconds: float
    unit: str = "moves"

    def describe(self) -> str:
        """``bounds: at least 20 moves (frontier passes), best 25 (improve, seed 1), 12.3 s``."""
        best = "none yet" if self.best is None else f"{self.best:,} ({self.best_by})"
        lower = f"at least {plural(self.lower, self.unit[:-1])} ({self.lower_by})"
        return f"bounds: {lower}, best {best}, {self.seconds:.1f} s"


class Reporter:
    """Turns the limit checks of one search into :class:`SearchProgress` records, at most one an
    :data:`INTERVAL`."""

    __slots__ = ("engine", "callback", "began", "last", "seen", "memory", "what")

    def __init__(self, engine: str, callback: Callable[[SearchProgress], object]) -> None:
        self.engine = engine
        self.callback = callback
        self.began = self.last = self.seen = time.perf_counter()
        self.memory = MemoryBudget(1)
        # what the calls count: a search that turns to count another thing (the analysis: its
        # positions, then those given a distance) starts its seconds and rate again, from its last call
        self.what = ""

    def __call__(self, count: int, what: str) -> None:
        now = time.perf_counter()
        if what != self.what:
            if self.what:
                self.began = self.seen
            self.what = what
        self.seen = now
        if now - self.last < INTERVAL:
            return
        self.last = now
        self.callback(SearchProgress(self.engine, what, count, now - self.began, self.memory.used()))


__all__ = ["INTERVAL", "Bound", "Bounds", "Reporter", "SearchProgress"]
