"""Admissible lower bounds on the number of moves (or steps) left, for the A* engine.

A *route* is one way for the goal vehicle to reach a winning offset: on a bounded board the one
straight slide to its exit, on a wrap-around lane the way forward or the way back round to each
winning offset.  Its *sweep* is the set of cells the goal must cover on the way, beyond its own.  Any
solution takes the goal along one route, so the smallest bound over the routes is a bound.

``blockers``
    For a route: the goal must move (1 move; in steps, its distance along the route), and every
    vehicle that now stands on a cell of the sweep must leave that cell before the goal gets there,
    so it moves at least once (in steps, at least the distance to its nearest offset clear of that
    cell).  Different vehicles, different moves: the sum is a lower bound.  A vehicle in the goal's
    own lane on the sweep, or a wall on the sweep, makes the route impossible (nothing can pass it).
``blocked``
    ``blockers`` plus one when some blocker is *boxed in*: on both sides, the cells it must slide
    across to clear the goal's way hold a wall, run off the board, or hold a vehicle that is neither
    the goal nor a blocker.  Then a vehicle counted nowhere else must move first (at least one more
    move, or one more step).  Still a lower bound.
``zero``
    0 everywhere: A* is then a uniform-cost search.

Each bound is admissible, so A* with them returns optimal solutions (the engine also re-opens a
position reached again more cheaply, which keeps it optimal without relying on consistency).  The
proofs are spelled out in docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Callable

from rushhour.search.tables import FIELD, Tables

HEURISTICS = ("blocked", "blockers", "zero")
DEFAULT_HEURISTIC = "blocked"
IMPOSSIBLE = 1 << 20  # a route nothing can clear: expanded last, never preferred

# a crossing vehicle's way off one cell: (steps to slide, cells it sweeps) for each side it can go
Escapes = tuple[tuple[int, int], ...]


class _Route:
    __slots__ = ("sweep", "goal_cost", "crossing", "same_lane")

    def __init__(self, sweep: int, goal_cost: int) -> None:
        self.sweep = sweep
        self.goal_cost = goal_cost
        # (vehicle, shift, per-offset escapes or None when the offset does not cover the sweep)
        self.crossing: list[tuple[int, int, list[Escapes | None]]] = []
        self.same_lane: list[tuple[int, list[int]]] = []  # (shift, masks per offset)


def heuristic(tables: Tables, name: str = DEFAULT_HEURISTIC) -> Callable[[int], int]:
    """The bound ``name`` for positions of ``tables`` (a function of the packed key)."""
    if name == "zero":
        return lambda z: 0
    boxed = name == "blocked"
    steps = tables.metric == "steps"
    layout = tables.layout
    g = layout.goal
    g_span = layout.span(g)
    gshift = tables.shifts[g]
    masks = tables.masks
    wins = sorted(tables.won_offsets)
    n = tables.n
    routes_by_offset: list[list[_Route] | None] = []  # None: a winning offset
    escape_cache: dict[tuple[int, int], list[Escapes | None]] = {}
    for o in range(len(masks[g])):
        if o in tables.won_offsets:
            routes_by_offset.append(None)
            continue
        routes: list[_Route] = []
        for t in wins:
            ways = (1, -1) if layout.wrap else ((1,) if t > o else (-1,))
            for way in ways:
                distance = ((t - o) * way) % g_span if layout.wrap else abs(t - o)
                sweep = 0
                for k in range(1, distance + 1):
                    sweep |= masks[g][(o + way * k) % g_span if layout.wrap else o + way * k]
                sweep &= ~masks[g][o]
                if sweep & tables.walls:
                    continue
                route = _Route(sweep, distance if steps else 1)
                for i in range(n):
                    if i == g:
                        continue
                    if layout.orientations[i] == layout.orientations[g]:
                        if layout.lanes[i] == layout.lanes[g]:
                            route.same_lane.append((tables.shifts[i], masks[i]))
                        continue
                    if not any(m & sweep for m in masks[i]):
                        continue
                    cell = sweep & _lane_mask(tables, i)
                    key = (i, cell)
                    if key not in escape_cache:
                        escape_cache[key] = [_escapes(tables, i, oi, cell) for oi in range(len(masks[i]))]
                    route.crossing.append((i, tables.shifts[i], escape_cache[key]))
                routes.append(route)
        routes_by_offset.append(routes)

    cells = (1 << tables.cells) - 1
    # what the bound depends on: the offsets of the goal and of the vehicles that can cross its way or
    # stand in its lane, and the cells of the crossing vehicles' lanes (where their escapes run)
    relevant = FIELD << gshift
    for per_offset in routes_by_offset:
        for route in per_offset or ():
            for sh, _ in route.same_lane:
                relevant |= FIELD << sh
            for i, sh, _ in route.crossing:
                relevant |= (FIELD << sh) | _lane_mask(tables, i)
    memo: dict[int, int] = {}

    def memoised(z: int) -> int:
        key = z & relevant
        value = memo.get(key)
        if value is None:
            value = memo[key] = bound(z)
        return value

    def bound(z: int) -> int:
        routes = routes_by_offset[(z >> gshift) & FIELD]
        if routes is None:
            return 0
        best = IMPOSSIBLE
        for route in routes:
            sweep = route.sweep
            if any(lane_masks[(z >> sh) & FIELD] & sweep for sh, lane_masks in route.same_lane):
                continue
            cost = route.goal_cost
            if z & sweep:
                blockers = []
                for i, sh, escapes in route.crossing:
                    oi = (z >> sh) & FIELD
                    ways = escapes[oi]
                    if ways is None:
                        continue
                    if not ways:
                        cost = IMPOSSIBLE
                        break
                    blockers.append((i, oi, ways))
                    cost += min(d for d, _ in ways) if steps else 1
                if cost >= IMPOSSIBLE:
                    continue
                if boxed and blockers:
                    others = z & cells & ~masks[g][(z >> gshift) & FIELD]
                    for i, oi, _ in blockers:
                        others &= ~masks[i][oi]
                    if any(all(swept & others for _, swept in ways) for _, _, ways in blockers):
                        cost += 1
            if cost < best:
                best = cost
        return best

    return memoised


def _lane_mask(tables: Tables, i: int) -> int:
    m = 0
    for mask in tables.masks[i]:
        m |= mask
    return m


def _escapes(tables: Tables, i: int, offset: int, cell: int) -> Escapes | None:
    """How vehicle ``i`` at ``offset`` can stop covering ``cell``: for each side, the steps to the
    nearest offset clear of it and the cells swept on the way (walls make a side impossible).  None
    when it does not cover ``cell``."""
    layout = tables.layout
    masks = tables.masks[i]
    if not masks[offset] & cell:
        return None
    span = layout.span(i)
    out = []
    for way in (-1, 1):
        swept = 0
        k = 0
        while True:
            k += 1
            new = offset + way * k
            if layout.wrap:
                if k >= span:  # round the lane once: one slide is short, but several go on
                    break
                new %= span
            elif not 0 <= new < len(masks):
                break
            swept |= masks[new] & ~masks[offset]
            if swept & tables.walls:
                break
            if not masks[new] & cell:
                out.append((k, swept))
                break
    return tuple(out)
