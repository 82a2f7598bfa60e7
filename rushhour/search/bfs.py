"""Breadth-first search over packed keys: shortest solutions, reachable sets, distances to a win.

The inner loops are written out by hand (no helper call per position) because they are the hot path
of every solver and of the generator.  Limits are checked between batches of :data:`BATCH` positions,
so a search stops at most one batch past ``max_states`` and never runs the machine out of memory.
"""

from __future__ import annotations

import time

from rushhour.errors import LimitReachedError, SolverError
from rushhour.search.tables import Tables

BATCH = 512


class Limits:
    """``max_states`` and ``time_limit`` of one search, checked between batches."""

    __slots__ = ("max_states", "deadline", "time_limit")

    def __init__(self, max_states: int | None = None, time_limit: float | None = None) -> None:
        if max_states is not None and max_states < 1:
            raise SolverError(f"the state limit must be at least 1, not {max_states}")
        if time_limit is not None and not time_limit > 0:
            raise SolverError(f"the time limit must be a positive number of seconds, not {time_limit}")
        self.max_states = max_states
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit

    def check(self, count: int) -> None:
        if self.max_states is not None and count > self.max_states:
            raise LimitReachedError(
                f"stopped after {count:,} positions (the limit is {self.max_states:,}) without an answer",
                explored=count,
            )
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitReachedError(
                f"stopped at the time limit of {self.time_limit:g} s after {count:,} positions "
                "without an answer",
                explored=count,
            )


def shortest(tables: Tables, start: int, limits: Limits) -> tuple[list[int] | None, int]:
    """The keys of a shortest path from ``start`` to a won position (None when there is none), and
    how many positions were discovered (the whole reachable set when there is no path).

    A position is tested as it is discovered: if one slide of the goal vehicle wins from it, the
    path ends with that slide.  Layer by layer, the first such position lies on a shortest path, so
    the search stops one layer earlier than a test of won positions would.
    """
    if tables.is_won(start):
        return [start], 1
    gmask, winning = tables.goal_mask, tables.winning_slide
    parent: dict[int, int] = {start: -1}
    groups = tables.groups
    frontier = [start]
    found = start if winning[start & gmask] else -1
    while frontier and found < 0:
        nxt: list[int] = []
        push = nxt.append
        for lo in range(0, len(frontier), BATCH):
            chunk = frontier[lo : lo + BATCH]
            # vehicles in the outer loop: one table and one mask for the whole chunk
            for mask, table in groups:
                for z in chunk:
                    for d in table[z & mask]:
                        t = z + d
                        if t not in parent:
                            parent[t] = z
                            if winning[t & gmask]:
                                found = t
                                break
                            push(t)
                    if found >= 0:
                        break
                if found >= 0:
                    break
            if found >= 0:
                break
            limits.check(len(parent))
        frontier = nxt
    if found < 0:
        return None, len(parent)
    path = [found + winning[found & gmask][0]]
    z = found
    while z >= 0:
        path.append(z)
        z = parent[z]
    path.reverse()
    return path, len(parent)


def reachable(tables: Tables, start: int, limits: Limits) -> set[int]:
    """The keys of every position reachable from ``start``, itself included."""
    return _spread(tables, [start], limits)[1]


def layers(tables: Tables, sources: list[int], limits: Limits) -> list[list[int]]:
    """Breadth-first layers from several sources at once: layer k holds the keys at distance k from
    the nearest source.  Moves are reversible, so from the won positions of a reachable set this gives
    every position's distance to its nearest win."""
    return _spread(tables, sources, limits)[0]


def _spread(tables: Tables, sources: list[int], limits: Limits) -> tuple[list[list[int]], set[int]]:
    """Breadth-first search from ``sources``: its layers and the set of every key seen."""
    seen = set(sources)
    frontier = list(sources)
    out = []
    groups = tables.groups
    add = seen.add
    while frontier:
        out.append(frontier)
        nxt: list[int] = []
        push = nxt.append
        for lo in range(0, len(frontier), BATCH):
            chunk = frontier[lo : lo + BATCH]
            for mask, table in groups:
                for z in chunk:
                    for d in table[z & mask]:
                        t = z + d
                        if t not in seen:
                            add(t)
                            push(t)
            limits.check(len(seen))
        frontier = nxt
    return out, seen
