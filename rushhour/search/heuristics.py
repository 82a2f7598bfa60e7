"""Admissible lower bounds on the number of moves (or steps) left, for the A* engine, and the
relaxed bound (:func:`relaxed_bound`) SAT planning and the portfolio start from.

A *route* is one way for the goal vehicle to reach a winning offset: on a bounded board the one
straight slide to its exit, on a wrap-around lane the way forward or the way back round to each
winning offset.  Its *sweep* is the set of cells the goal must cover on the way, beyond its own.  Any
solution takes the goal along one route, so the smallest bound over the routes is a bound.

``blockers``
    For a route: the goal must move (1 move; in steps, its distance along the route), and every
    vehicle that now stands on a cell of the sweep must leave that cell before the goal gets there,
    so it moves at least once (in steps, at least the distance to its nearest offset clear of that
    cell).  Different vehicles, different moves: the sum is a lower bound.  A wall on the sweep, or
    a vehicle in the goal's own bounded lane on the sweep, makes the route impossible (nothing can
    pass it); on a wrap-around lane such a vehicle can go round, and counts one move like a blocker.
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

from rushhour.board import Board, check_metric
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
    routes_by_offset = _routes(tables)
    return _memoised(_bound(tables, routes_by_offset, name == "blocked"), _relevant(tables, routes_by_offset))


Routes = list["list[_Route] | None"]  # per goal offset: its routes, or None for a winning offset


def _routes(tables: Tables) -> Routes:
    """The routes of the goal from each of its offsets (None at a winning offset)."""
    layout = tables.layout
    masks = tables.masks[layout.goal]
    escape_cache: dict[tuple[int, int], list[Escapes | None]] = {}
    out: Routes = []
    for o in range(len(masks)):
        if o in tables.won_offsets:
            out.append(None)
            continue
        routes: list[_Route] = []
        for t in sorted(tables.won_offsets):
            for way in (1, -1) if layout.wrap else ((1,) if t > o else (-1,)):
                route = _route(tables, o, t, way, escape_cache)
                if route is not None:
                    routes.append(route)
        out.append(routes)
    return out


def _route(
    tables: Tables, o: int, t: int, way: int, escape_cache: dict[tuple[int, int], list[Escapes | None]]
) -> _Route | None:
    """The goal's route from offset ``o`` to the winning offset ``t`` going ``way`` (+1 or -1) with
    the vehicles that can cross it or stand in its lane; None when a wall is on it."""
    layout = tables.layout
    g, masks = layout.goal, tables.masks
    g_span = layout.span(g)
    distance = ((t - o) * way) % g_span if layout.wrap else abs(t - o)
    sweep = 0
    for k in range(1, distance + 1):
        sweep |= masks[g][(o + way * k) % g_span if layout.wrap else o + way * k]
    sweep &= ~masks[g][o]
    if sweep & tables.walls:
        return None
    route = _Route(sweep, distance if tables.metric == "steps" else 1)
    for i in range(tables.n):
        if i == g:
            continue
        if layout.orientations[i] == layout.orientations[g]:
            if layout.lanes[i] == layout.lanes[g]:
                route.same_lane.append((tables.shifts[i], masks[i]))
            continue
        if not any(m & sweep for m in masks[i]):
            continue
        key = (i, sweep & _lane_mask(tables, i))
        if key not in escape_cache:
            escape_cache[key] = [_escapes(tables, i, oi, key[1]) for oi in range(len(masks[i]))]
        route.crossing.append((i, tables.shifts[i], escape_cache[key]))
    return route


def _relevant(tables: Tables, routes_by_offset: Routes) -> int:
    """The part of the key the bound depends on: the offsets of the goal and of the vehicles that can
    cross its way or stand in its lane, and the cells of the crossing vehicles' lanes (their escapes)."""
    relevant = FIELD << tables.shifts[tables.layout.goal]
    for per_offset in routes_by_offset:
        for route in per_offset or ():
            for sh, _ in route.same_lane:
                relevant |= FIELD << sh
            for i, sh, _ in route.crossing:
                relevant |= (FIELD << sh) | _lane_mask(tables, i)
    return relevant


def _memoised(bound: Callable[[int], int], relevant: int) -> Callable[[int], int]:
    """``bound`` computed once per value of the key's ``relevant`` bits."""
    memo: dict[int, int] = {}

    def memoised(z: int) -> int:
        key = z & relevant
        value = memo.get(key)
        if value is None:
            value = memo[key] = bound(z)
        return value

    return memoised


def _bound(tables: Tables, routes_by_offset: Routes, boxed: bool) -> Callable[[int], int]:
    """The smallest cost over the routes of the goal's offset (``blockers``; ``blocked`` with
    ``boxed``): see the module docstring."""
    steps = tables.metric == "steps"
    wrap = tables.layout.wrap
    g = tables.layout.goal
    gshift, masks = tables.shifts[g], tables.masks
    cells = (1 << tables.cells) - 1

    def is_boxed(z: int, blockers: list[tuple[int, int, Escapes]]) -> bool:
        """Whether some blocker has, on every side, a vehicle counted nowhere else (or a wall) to pass."""
        others = z & cells & ~masks[g][(z >> gshift) & FIELD]
        for i, oi, _ in blockers:
            others &= ~masks[i][oi]
        return any(all(swept & others for _, swept in ways) for _, _, ways in blockers)

    def bound(z: int) -> int:
        routes = routes_by_offset[(z >> gshift) & FIELD]
        if routes is None:
            return 0
        best = IMPOSSIBLE
        for route in routes:
            sweep = route.sweep
            # a vehicle of the goal's lane on its way: never passed on a bounded lane; on a
            # wrap-around lane it can go round, which takes at least one move of its own
            in_lane = sum(1 for sh, lane_masks in route.same_lane if lane_masks[(z >> sh) & FIELD] & sweep)
            if in_lane and not wrap:
                continue
            cost = route.goal_cost + in_lane
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
                # (a vehicle of the goal's lane, counted above, could be the one boxing a blocker in)
                if boxed and blockers and not in_lane and is_boxed(z, blockers):
                    cost += 1
            if cost < best:
                best = cost
        return best

    return bound


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


def relaxed_bound(board: Board, metric: str = "moves") -> int:
    """A lower bound on the optimal length from a relaxation (every other rule dropped): the goal
    vehicle must reach a winning offset along its lane, which takes one move (in steps, one step per
    cell), and every other vehicle standing on a cell it must cross moves at least once.  The least
    over the winning offsets; 0 on a won board, 1 on wrap-around lanes (two ways round)."""
    check_metric(metric)
    if board.is_won():
        return 0
    lay = board.layout
    g = lay.goal
    if lay.wrap:
        return 1
    here = board.state[g]
    owner = {cell: i for i, o in enumerate(board.state) if i != g for cell in lay.cells(i, o)}
    best: int | None = None
    for w in lay.goal_offsets():
        lo, hi = min(here, w), max(here, w) + lay.lengths[g] - 1
        line = [
            (lay.lanes[g], p) if lay.orientations[g] == "H" else (p, lay.lanes[g]) for p in range(lo, hi + 1)
        ]
        if any(cell in lay.walls for cell in line):
            continue
        blockers = {owner[cell] for cell in line if cell in owner}
        cost = (abs(w - here) if metric == "steps" else 1) + len(blockers)
        best = cost if best is None else min(best, cost)
    return 1 if best is None else best
