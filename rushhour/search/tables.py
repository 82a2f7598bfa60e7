"""Precomputed bitboards for fast search: one set of tables per board layout and metric.

A position's search *key* is one integer: the packed offsets (four bits per vehicle, the first vehicle
of ``layout.names`` in the most significant field) above the occupancy bits (bit ``row * width + col``
set for every wall and vehicle cell).  Comparing keys compares the ``state`` tuples lexicographically,
because the occupancy is a function of the state.

For every vehicle the tables map ``key & key_mask`` (the vehicle's own offset and the occupancy of its
lane) to the tuple of its legal slides, each one a single integer to *add* to the key: the offset
change in the vehicle's field plus the change of the occupancy (the vehicle's own cells are occupied
and the cells it moves onto are free, so the xor of the two masks is a difference of masks).  Entries
are computed on first use and memoised, so a search does one AND, one dict lookup and one addition
per move, and never rebuilds a board.

A vehicle's table depends only on the board's size, the metric, wrap-around, the vehicle's lane,
length and orientation and the position of its field in the key; walls are just occupied bits of the
key.  Tables are therefore shared by every layout that has such a vehicle (a registry of at most
:data:`SHARED_ENTRIES` memoised entries, emptied when it fills up), so a batch of boards of one size,
or the generator's stream of bags, fills them once.

The slides follow the reference rules of :meth:`rushhour.board.Board.legal_moves` (same order too);
the tests compare the successor sets on random positions of every board kind.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Generic, NamedTuple, TypeVar, cast

from rushhour.board import HORIZONTAL, Board, Layout, check_metric
from rushhour.search.contract import KEY_FIELD_BITS, NEAR_MAYBE, NEAR_ONE, NEAR_TWO
from rushhour.search.native_spec import NativeSpec, NativeVehicle

BITS = KEY_FIELD_BITS
FIELD = (1 << BITS) - 1

Slides = tuple[int, ...]
Scan = tuple[tuple[int, int], ...]  # (cell bit entered, slide to add) at distances 1, 2, ...
# vehicles looked up together: fewer lookups per position while the combined tables stay small
# (measured: pairs are best on 6x6 puzzles, fours on crowded boards of 30 vehicles or more)
GROUP, CROWDED_GROUP, CROWDED = 2, 4, 16


def group_size(vehicles: int) -> int:
    return GROUP if vehicles <= CROWDED else CROWDED_GROUP


def group_members(vehicles: int) -> tuple[tuple[int, ...], ...]:
    """The vehicles in groups of :func:`group_size`, counted from the last one (a group's fields then
    sit at the same places in the keys of boards with different numbers of vehicles, so the shared
    registry serves it to more boards), the first vehicles first as in the reference order."""
    size = group_size(vehicles)
    return tuple(reversed([tuple(range(max(0, hi - size), hi)) for hi in range(vehicles, 0, -size)]))


V = TypeVar("V")


class Memo(Generic[V]):
    """Entries computed on first use and kept: ``memo[key]`` looks ``key`` up in :attr:`table` (a
    plain dict) and fills a missing entry with ``compute``.  The search loops look up ``table``
    themselves and call :meth:`fill` on a miss: a plain dict is the fastest lookup there is."""

    __slots__ = ("table", "compute")

    def __init__(self, compute: Callable[[int], V]) -> None:
        self.table: dict[int, V] = {}
        self.compute = compute

    def __getitem__(self, key: int) -> V:
        try:
            return self.table[key]
        except KeyError:
            return self.fill(key)

    def fill(self, key: int) -> V:
        value = self.table[key] = self.compute(key)
        return value


class SharedMemo(Memo[V]):
    """A :class:`Memo` of the shared registry: it counts the entries the registry holds."""

    __slots__ = ()

    def fill(self, key: int) -> V:
        _SHARED_COUNT[0] += 1
        return super().fill(key)


# one vehicle group of a layout: the mask of its part of the key, the memoised slides, their filler
Group = tuple[int, dict[int, Slides], Callable[[int], Slides]]

SHARED_ENTRIES = 400_000  # about 60 MB of memoised slides at most


class VehicleSpec(NamedTuple):
    """Everything a vehicle's slides depend on (vehicles with equal specs share their tables)."""

    width: int
    height: int
    wrap: bool
    #: the steps metric: one cell per move
    steps: bool
    #: the shift of the vehicle's offset field in the key
    shift: int
    horizontal: bool
    lane: int
    length: int


_SHARED: dict[object, SharedMemo[object]] = {}
_SHARED_COUNT = [0]
# a vehicle's occupancy mask at each offset and the mask of its lane (a few thousand specs at most)
_MASKS: dict[VehicleSpec, tuple[list[int], int]] = {}


def _shared(key: object, make: Callable[[], Callable[[int], V]]) -> Memo[V]:
    """The registry's memo for ``key``, computing with ``make()`` when it is not there yet."""
    found = _SHARED.get(key)
    if found is None:
        if _SHARED_COUNT[0] > SHARED_ENTRIES:
            # tables already handed out keep working; they are just no longer shared
            _SHARED.clear()
            _SHARED_COUNT[0] = 0
        found = _SHARED[key] = SharedMemo(make())
    return cast(Memo[V], found)


def lane_bits(width: int, height: int, horizontal: bool, lane: int) -> list[int]:
    """The occupancy bit of every cell of a lane, in order along it."""
    if horizontal:
        return [1 << (lane * width + pos) for pos in range(width)]
    return [1 << (pos * width + lane) for pos in range(height)]


def offset_masks(bits: list[int], length: int, wrap: bool) -> list[int]:
    """The occupancy mask of a vehicle of ``length`` at each offset of a lane."""
    span = len(bits)
    out = []
    for o in range(span if wrap else span - length + 1):
        m = 0
        for k in range(o, o + length):
            m |= bits[k % span]
        out.append(m)
    return out


def vehicle_slides(spec: VehicleSpec) -> Callable[[int], Slides]:
    """The function from ``key & key_mask`` to the slides of the vehicle described by ``spec``."""
    wrap, steps, sh, length = spec.wrap, spec.steps, spec.shift, spec.length
    bits = lane_bits(spec.width, spec.height, spec.horizontal, spec.lane)
    masks = offset_masks(bits, length, wrap)
    span = len(bits)
    # for every offset and both ways: the cell entered at each distance and the slide to add
    scans: list[tuple[Scan, Scan]] = []
    for offset, own in enumerate(masks):
        ways: list[Scan] = []
        for way in (-1, 1):
            room = span - length if wrap else (offset if way < 0 else span - length - offset)
            if steps:
                room = min(room, 1)
            front = offset - 1 if way < 0 else offset + length
            scan = []
            for d in range(1, room + 1):
                new = (offset + way * d) % span if wrap else offset + way * d
                # own cells are occupied and the newly covered ones free: the xor is a difference
                slide = ((new - offset) << sh) + masks[new] - own
                scan.append((bits[(front + way * (d - 1)) % span], slide))
            ways.append(tuple(scan))
        scans.append((ways[0], ways[1]))

    def compute(key: int) -> Slides:
        back, forward = scans[(key >> sh) & FIELD]
        out: list[int] = []
        for bit, slide in back:
            if key & bit:
                break
            out.append(slide)
        for bit, slide in forward:
            if key & bit:
                break
            out.append(slide)
        return tuple(out)

    return compute


# What the goal's key (its offset and the occupancy of its lane) says about a win within two moves:
Near = tuple[int, ...]
# (ONE, slide), (TWO, slide, slide), (MAYBE, cell, cell, ...)
ONE, TWO, MAYBE = NEAR_ONE, NEAR_TWO, NEAR_MAYBE


def _winning(goal: Memo[Slides], shift: int, won: tuple[int, ...]) -> Callable[[int], Slides]:
    """The function from a goal key to ``(slide,)`` when one slide of the goal wins, else ``()``."""

    def compute(key: int) -> Slides:
        for slide in goal[key]:
            if ((key + slide) >> shift) & FIELD in won:
                return (slide,)
        return ()

    return compute


def _near(
    goal: Memo[Slides], winning: Memo[Slides], masks: list[int], spec: tuple[VehicleSpec, tuple[int, ...]]
) -> Callable[[int], Near]:
    """The function from a goal key to ``(ONE, slide)`` when a slide of the goal wins; else to
    ``(TWO, slide, slide)`` when two slides of the goal win; else to ``(MAYBE, cell, ...)`` with the
    occupied cells of the lane that, once free, would let the goal win in one slide; else to ``()``.

    A move changes the occupancy of its own lane only, and more occupied cells never make a win
    possible, so a vehicle crossing the goal's lane can open the way in one move only by leaving
    the one cell it shares with the lane, and only if that cell is listed.  ``()`` therefore means
    that no position with this goal key is won in two moves (but see :meth:`Tables._crossing`)."""
    goal_spec = spec[0]
    shift = goal_spec.shift
    lane_cells = lane_bits(goal_spec.width, goal_spec.height, goal_spec.horizontal, goal_spec.lane)

    def compute(key: int) -> Near:
        win = winning[key]
        if win:
            return (ONE, win[0])
        for slide in goal[key]:
            after = winning[key + slide]
            if after:
                return (TWO, slide, after[0])
        own = masks[(key >> shift) & FIELD]
        cells = tuple(c for c in lane_cells if key & c and not own & c and winning[key & ~c])
        return (MAYBE, *cells) if cells else ()

    return compute


class Tables:
    """The bitboards of one layout under one metric (see the module docstring)."""

    __slots__ = (
        "layout",
        "metric",
        "n",
        "cells",
        "shifts",
        "masks",
        "walls",
        "goal",
        "goal_shift",
        "won_offsets",
        "state_mask",
        "key_masks",
        "singles",
        "groups",
        "group_members",
        "goal_mask",
        "winning_slide",
        "near_win",
        "crossing",
        "two_moves_complete",
        "specs",
    )

    def __init__(self, layout: Layout, metric: str = "moves") -> None:
        check_metric(metric)
        self.layout = layout
        self.metric = metric
        w, h = layout.width, layout.height
        n = self.n = len(layout.names)
        cells = self.cells = w * h
        self.shifts = tuple(cells + BITS * (n - 1 - i) for i in range(n))
        self.state_mask = ((1 << (BITS * n)) - 1) << cells
        walls = 0
        for r, c in layout.walls:
            walls |= 1 << (r * w + c)
        self.walls = walls
        steps = metric == "steps"
        specs: list[VehicleSpec] = []
        masks: list[list[int]] = []
        key_masks: list[int] = []
        for i in range(n):
            horizontal = layout.orientations[i] == HORIZONTAL
            spec = VehicleSpec(
                w, h, layout.wrap, steps, self.shifts[i], horizontal, layout.lanes[i], layout.lengths[i]
            )
            found = _MASKS.get(spec)
            if found is None:
                bits = lane_bits(w, h, horizontal, layout.lanes[i])
                found = _MASKS[spec] = (offset_masks(bits, layout.lengths[i], layout.wrap), sum(bits))
            masks.append(found[0])
            key_masks.append((FIELD << self.shifts[i]) | found[1])
            specs.append(spec)
        self.masks = masks
        self.key_masks = tuple(key_masks)
        self.specs = tuple(specs)
        self.singles = tuple(_shared(spec, partial(vehicle_slides, spec)) for spec in specs)
        g = layout.goal
        self.group_members = self._group_members()
        self.groups = self._grouped()
        self.goal = g
        self.goal_shift = self.shifts[g]
        self.won_offsets = frozenset(layout.goal_offsets())
        self.goal_mask = self.key_masks[g]
        # the goal's tables depend only on its spec and its winning offsets: shared like the others
        goal = (self.specs[g], tuple(sorted(self.won_offsets)))
        goal_slides = self.singles[g]
        self.winning_slide = _shared(("win", goal), partial(_winning, goal_slides, self.goal_shift, goal[1]))
        near = partial(_near, goal_slides, self.winning_slide, masks[g], goal)
        self.near_win = _shared(("near", goal), near)
        self.crossing, self.two_moves_complete = self._crossing()

    # --- packing -------------------------------------------------------------------------------
    def pack(self, state: tuple[int, ...]) -> int:
        """The search key of a state: the packed offsets above the occupancy bits."""
        s = 0
        occ = self.walls
        for i, o in enumerate(state):
            s = (s << BITS) | o
            occ |= self.masks[i][o]
        return (s << self.cells) | occ

    def unpack(self, z: int) -> tuple[int, ...]:
        return tuple((z >> sh) & FIELD for sh in self.shifts)

    def board(self, z: int) -> Board:
        return Board.from_layout(self.layout, self.unpack(z))

    def is_won(self, z: int) -> bool:
        return (z >> self.goal_shift) & FIELD in self.won_offsets

    # --- slides --------------------------------------------------------------------------------
    def _group_members(self) -> tuple[tuple[int, ...], ...]:
        return group_members(self.n)

    def _grouped(self) -> tuple[Group, ...]:
        """The mask and the shared slides table of each group of :attr:`group_members`."""
        out = []
        for chosen in self.group_members:
            part = [(self.key_masks[i], self.singles[i]) for i in chosen]
            mask = 0
            for m, _ in part:
                mask |= m

            def make(part: list[tuple[int, Memo[Slides]]] = part) -> Callable[[int], Slides]:
                def compute(key: int) -> Slides:
                    slides: Slides = ()
                    for m, table in part:
                        slides += table[key & m]
                    return slides

                return compute

            memo = _shared(tuple(self.specs[i] for i in chosen), make)
            out.append((mask, memo.table, memo.fill))
        return tuple(out)

    def _crossing(self) -> tuple[dict[int, tuple[tuple[int, Memo[Slides]], ...]], bool]:
        """For each cell of the goal's lane, the vehicles crossing the lane there (their key masks and
        slides); and :func:`two_moves_complete`."""
        lay, g = self.layout, self.goal
        cells = (1 << self.cells) - 1
        goal_lane = self.goal_mask & cells
        crossing: dict[int, list[tuple[int, Memo[Slides]]]] = {}
        for i in range(self.n):
            shared = goal_lane & self.key_masks[i] & cells
            if i == g or not shared or lay.orientations[i] == lay.orientations[g]:
                continue
            crossing.setdefault(shared, []).append((self.key_masks[i], self.singles[i]))
        return {cell: tuple(found) for cell, found in crossing.items()}, two_moves_complete(lay)

    def native_spec(self) -> NativeSpec:
        """The layout as the compiled searches read it (see :func:`native_spec_for`)."""
        return native_spec_for(self.layout, self.metric)

    def two_moves(self, z: int, cells: tuple[int, ...]) -> Slides:
        """The slides of a crossing vehicle and then of the goal that win from ``z``, or ``()``: the
        crossing vehicles tried are those on ``cells`` (see :func:`_near`)."""
        gmask, winning = self.goal_mask, self.winning_slide
        for cell in cells:
            for mask, memo in self.crossing.get(cell, ()):
                for slide in memo[z & mask]:
                    after = winning[(z + slide) & gmask]
                    if after:
                        return (slide, after[0])
        return ()

    def slides(self, i: int, z: int) -> Slides:
        """The slides of vehicle ``i`` in position ``z`` (nearest first, backward then forward)."""
        return self.singles[i][z & self.key_masks[i]]

    def successors(self, z: int) -> list[int]:
        """The key of every position one move away, in the reference order (the groups' order)."""
        out: list[int] = []
        push = out.append
        for mask, table, fill in self.groups:
            k = z & mask
            try:
                slides = table[k]
            except KeyError:
                slides = fill(k)
            for d in slides:
                push(z + d)
        return out


#: the tables of the 64 latest (layout, metric) pairs (``cached_tables.cache_clear()`` drops them)
cached_tables = lru_cache(maxsize=64)(Tables)


def two_moves_complete(layout: Layout) -> bool:
    """Whether the two-move test (:meth:`Tables.two_moves`) sees every win in two moves: not when a
    vehicle shares the goal's lane on a wrap-around board (it can change several of the lane's cells
    at once; on a bounded board it stays on one side of the goal for good)."""
    g = layout.goal
    return not layout.wrap or not any(
        i != g and layout.orientations[i] == layout.orientations[g] and layout.lanes[i] == layout.lanes[g]
        for i in range(len(layout.names))
    )


@lru_cache(maxsize=4096)
def _native_vehicle(width: int, height: int, horizontal: bool, lane: int, length: int) -> NativeVehicle:
    """A vehicle as the compiled searches read it: the cells of its lane in order along it."""
    cells = tuple(bit.bit_length() - 1 for bit in lane_bits(width, height, horizontal, lane))
    return NativeVehicle(cells, length, horizontal)


@lru_cache(maxsize=256)
def native_spec_for(layout: Layout, metric: str = "moves") -> NativeSpec:
    """The layout as the compiled searches read it (see rushhour.search.native_spec), built from the
    layout alone: a compiled search needs none of the Python search's tables (the generator asks for
    thousands of layouts, each searched once)."""
    check_metric(metric)
    w, h = layout.width, layout.height
    g = layout.goal
    vehicles = tuple(
        _native_vehicle(w, h, o == HORIZONTAL, lane, length)
        for o, lane, length in zip(layout.orientations, layout.lanes, layout.lengths, strict=True)
    )
    return NativeSpec(
        width=w,
        height=h,
        wrap=layout.wrap,
        steps=metric == "steps",
        goal=g,
        won_offsets=tuple(sorted(set(layout.goal_offsets()))),
        walls=tuple(r * w + c for r, c in sorted(layout.walls)),
        vehicles=vehicles,
        groups=group_members(len(layout.names)),
        two_moves_complete=two_moves_complete(layout),
    )


def tables_for(layout: Layout, metric: str = "moves") -> Tables:
    """The tables of ``layout`` under ``metric``, built once and kept in a small LRU cache."""
    return cached_tables(layout, metric)
