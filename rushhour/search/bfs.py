"""Breadth-first search over packed keys: shortest solutions, reachable sets, distances to a win.

The inner loops are written out by hand (no helper call per position) because they are the hot path
of every solver and of the generator; rushhour/search/_native.c does the same searches, compiled, and
is used when it was built (see :mod:`rushhour.search.native`).  Limits are checked between batches of
:data:`BATCH` positions, so a search stops at most one batch past ``max_states`` and never runs the
machine out of memory.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import NoReturn

from rushhour.errors import LimitReachedError, SolverError, expect_seconds, expect_whole
from rushhour.numbers import MAX_WHOLE
from rushhour.search import native
from rushhour.search.contract import BATCH  # the compiled searches use the same batches
from rushhour.search.memory import DEFAULT_MAX_MEMORY, MemoryBudget
from rushhour.search.tables import ONE, TWO, Tables
from rushhour.text import plural, seconds_text


class Limits:
    """``max_states``, ``time_limit`` and ``max_memory`` (bytes the search may add to the process,
    :data:`DEFAULT_MAX_MEMORY` by default, None for no bound) of one search, checked between batches.

    A state limit beyond :data:`~rushhour.numbers.MAX_WHOLE` is that many: no search gets there, and
    the compiled search takes it as a 64-bit number."""

    __slots__ = ("max_states", "deadline", "time_limit", "memory", "report")

    def __init__(
        self,
        max_states: int | None = None,
        time_limit: float | None = None,
        max_memory: int | None = DEFAULT_MAX_MEMORY,
    ) -> None:
        expect_whole(max_states, "max_states", none=True, what="a whole number of positions")
        expect_whole(max_memory, "max_memory", none=True, what="a whole number of bytes")
        expect_seconds(time_limit, "time_limit")
        if max_states is not None and max_states < 1:
            raise SolverError(f"the state limit must be at least 1, not {max_states}")
        if time_limit is not None and not 0 < time_limit < math.inf:  # NaN too
            raise SolverError(f"the time limit must be a positive number of seconds, not {time_limit}")
        if max_memory is not None and max_memory < 1:
            raise SolverError(f"the memory limit must be at least 1 byte, not {max_memory}")
        # far beyond any machine: as good as none, and still a 64-bit number for the compiled search
        max_memory = None if max_memory is None else min(max_memory, MAX_WHOLE)
        self.max_states = None if max_states is None else min(max_states, MAX_WHOLE)
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.memory = None if max_memory is None else MemoryBudget(max_memory)
        # called with (count, what) at each check: the progress display (rushhour.search.watch)
        self.report: Callable[[int, str], None] | None = None

    def check(self, count: int, what: str = "positions") -> None:
        if self.report is not None:
            self.report(count, what)
        counted = plural(count, what.removesuffix("s"), many=what)  # "1 position", "2 timed states"
        if self.max_states is not None and count > self.max_states:
            raise LimitReachedError(
                f"stopped after {counted} (the limit is {self.max_states:,}) without an answer",
                explored=count,
            )
        if self.deadline is not None and time.perf_counter() > self.deadline:
            assert self.time_limit is not None
            raise LimitReachedError(
                f"stopped at the time limit of {seconds_text(self.time_limit)} s after {counted} "
                "without an answer",
                explored=count,
            )
        if self.memory is not None and self.memory.exceeded():
            raise LimitReachedError(
                f"stopped at the memory limit of {self.memory.describe()} after {counted} without an answer",
                explored=count,
            )


def shortest(tables: Tables, start: int, limits: Limits) -> tuple[list[int] | None, int]:
    """The keys of a shortest path from ``start`` to a won position (None when there is none), and
    how many positions were discovered (the whole reachable set when there is no path).

    Each position is tested as it is discovered for a win within two moves (see
    :attr:`Tables.near_win`), so the search stops up to two layers before the won positions: the
    first position found one move from a win ends the search at once; one found two moves from a
    win ends it when its layer is complete, since a position of that layer may still be one move
    from a win.  Positions of earlier layers were all tested, so the path is a shortest one.

    The compiled search (see :mod:`rushhour.search.native`) does exactly what :func:`shortest_python`
    does, position for position, and is used when it was built.
    """
    if tables.is_won(start):
        return [start], 1
    if native.native_enabled():
        return _shortest_native(tables, start, limits)
    return shortest_python(tables, start, limits)


def _shortest_native(tables: Tables, start: int, limits: Limits) -> tuple[list[int] | None, int]:
    """:func:`shortest_python`, compiled: the same positions in the same order, the same answer."""
    assert native.compiled is not None
    status, explored, path = native.compiled.shortest(
        tables.native_spec(),
        tables.unpack(start),
        native_cap(limits, tables.n, False),
        seconds_left(limits),
        native_poll(limits),
    )
    if status == 2:
        stopped_at_limit(limits, explored)
    if path is None:
        return None, explored
    return [tables.pack(state) for state in path], explored


def native_bytes(vehicles: int, keys: bool) -> int:
    """Bytes a position costs the compiled search at most: its offsets, parent and hash (the arrays
    grow by doubling) and two hash-table slots; with ``keys``, also the Python integer in a list and
    a set that each position becomes when the search hands every position back."""
    return 2 * (vehicles + 8 + 8 + 8) + (160 if keys else 0)


def memory_left(limits: Limits) -> int | None:
    """Bytes the memory limit still lets a search add to the process (None: no limit)."""
    return None if limits.memory is None else limits.memory.limit - limits.memory.used()


def native_cap(
    limits: Limits, vehicles: int, keys: bool, reserved: int = 0, left: int | None = None
) -> int:
    """The state limit of a compiled search (0: none): ``max_states``, and no more positions than
    the memory left holds (the compiled search cannot measure the process, so it counts), less
    ``reserved`` bytes that it may take besides its positions.  ``left``: :func:`memory_left`, when
    the caller has it already."""
    cap = limits.max_states or 0
    if left is None:
        left = memory_left(limits)
    if left is not None:
        room = max(1, (left - reserved) // native_bytes(vehicles, keys))
        cap = room if cap == 0 else min(cap, room)
    return cap


def stopped_at_limit(limits: Limits, count: int) -> NoReturn:
    """A compiled search stopped at a limit after ``count`` positions: the error the Python one gives."""
    limits.check(count)
    if limits.memory is not None:  # the states the memory left holds: see native_cap
        raise LimitReachedError(
            f"stopped at the memory limit of {limits.memory.describe()} after {plural(count, 'position')} "
            "without an answer",
            explored=count,
        )
    raise LimitReachedError(f"stopped after {plural(count, 'position')} without an answer", explored=count)


def native_poll(
    limits: Limits,
    what: Callable[[int], str] = lambda stage: "positions",
    used: int = 0,
    then: Callable[[], bool] | None = None,
) -> Callable[[int, int], bool] | None:
    """The ``poll(stage, count)`` a compiled search calls between its batches (None when there is
    nothing to do): ``count`` (plus ``used``, the positions of the passes before) shown through the
    limits' progress report as ``what(stage)``, then ``then()`` asked whether to stop."""
    report = limits.report
    if report is None and then is None:
        return None

    def poll(stage: int, count: int) -> bool:
        if report is not None:
            report(used + count, what(stage))
        return then is not None and bool(then())

    return poll


def seconds_left(limits: Limits) -> float:
    """The time left for a compiled search (0: no limit); raises when it is already used up."""
    if limits.deadline is None:
        return 0.0
    seconds = limits.deadline - time.perf_counter()
    if seconds <= 0:
        limits.check(1)
    return max(seconds, 1e-9)


def shortest_python(tables: Tables, start: int, limits: Limits) -> tuple[list[int] | None, int]:
    """:func:`shortest` in Python (used when the compiled search is not built)."""
    if tables.is_won(start):
        return [start], 1
    parent: dict[int, int] = {start: -1}
    found = _near_win_first(tables, start) or _first_near_win(tables, parent, limits)
    if found is None:
        return None, len(parent)
    z, slides = found
    path = [z]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    path.reverse()
    for slide in slides:
        path.append(path[-1] + slide)
    return path, len(parent)


Found = tuple[int, tuple[int, ...]]  # a discovered key and the slides that win from it


def _near_win_first(tables: Tables, z: int) -> Found | None:
    """``(z, slides)`` when one or two slides win from ``z`` (two only when that test is complete)."""
    near = tables.near_win[z & tables.goal_mask]
    if near and near[0] == ONE:
        return z, near[1:]
    if not near or not tables.two_moves_complete:
        return None
    slides = near[1:] if near[0] == TWO else tables.two_moves(z, near[1:])
    return (z, slides) if slides else None


def _first_near_win(tables: Tables, parent: dict[int, int], limits: Limits) -> Found | None:
    """Breadth-first from the one key of ``parent`` (not within two moves of a win), recording each
    discovered key's parent, until a key within two moves of a win is discovered (see
    :func:`shortest`); None when the reachable set has none."""
    gmask, groups = tables.goal_mask, tables.groups
    near, near_fill = tables.near_win.table, tables.near_win.fill
    two_moves = tables.two_moves
    # once a key two moves from a win is found (or when that test is incomplete), only one-move
    # wins are looked for until the end of the layer
    two: Found | None = None if tables.two_moves_complete else (-1, ())
    frontier = list(parent)
    while frontier:
        nxt: list[int] = []
        push = nxt.append
        for lo in range(0, len(frontier), BATCH):
            chunk = frontier[lo : lo + BATCH]
            # vehicles in the outer loop: one table and one mask for the whole chunk; plain dict
            # lookups with the filler called on a miss, and a return as soon as the answer is known
            for mask, table, fill in groups:
                for z in chunk:
                    k = z & mask
                    try:
                        slides = table[k]
                    except KeyError:
                        slides = fill(k)
                    for d in slides:
                        t = z + d
                        if t not in parent:
                            parent[t] = z
                            g = t & gmask
                            try:
                                win = near[g]
                            except KeyError:
                                win = near_fill(g)
                            if win:
                                if win[0] == ONE:
                                    return t, win[1:]
                                if two is None:
                                    after = win[1:] if win[0] == TWO else two_moves(t, win[1:])
                                    if after:
                                        two = t, after
                            push(t)
            limits.check(len(parent))
        if two is not None and two[0] >= 0:
            return two
        frontier = nxt
    return None


def reachable(tables: Tables, start: int, limits: Limits) -> set[int]:
    """The keys of every position reachable from ``start``, itself included."""
    return _spread(tables, [start], limits)[1]


def layers(tables: Tables, sources: list[int], limits: Limits) -> list[list[int]]:
    """Breadth-first layers from several sources at once: layer k holds the keys at distance k from
    the nearest source.  Moves are reversible, so from the won positions of a reachable set this gives
    every position's distance to its nearest win."""
    sources = list(dict.fromkeys(sources))
    if native.native_enabled():
        return _layers_native(tables, sources, limits)
    return _spread_python(tables, sources, limits)[0]


def _layers_native(tables: Tables, sources: list[int], limits: Limits) -> list[list[int]]:
    assert native.compiled is not None
    states = [tables.unpack(z) for z in sources]
    cap = native_cap(limits, tables.n, True)
    _, count, rings = native.compiled.layers(tables.native_spec(), states, cap, seconds_left(limits))
    if rings is None:
        stopped_at_limit(limits, count)
    return list(rings)


def _spread(tables: Tables, sources: list[int], limits: Limits) -> tuple[list[list[int]], set[int]]:
    """Breadth-first search from ``sources``: its layers and the set of every key seen (compiled when
    built: the same layers, in the same order)."""
    sources = list(dict.fromkeys(sources))
    if native.native_enabled():
        rings = _layers_native(tables, sources, limits)
        seen: set[int] = set()
        for ring in rings:
            seen.update(ring)
        return rings, seen
    return _spread_python(tables, sources, limits)


def _spread_python(tables: Tables, sources: list[int], limits: Limits) -> tuple[list[list[int]], set[int]]:
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
            for mask, table, fill in groups:
                for z in chunk:
                    k = z & mask
                    try:
                        slides = table[k]
                    except KeyError:
                        slides = fill(k)
                    for d in slides:
                        t = z + d
                        if t not in seen:
                            add(t)
                            push(t)
            limits.check(len(seen))
        frontier = nxt
    return out, seen
