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

The slides follow the reference rules of :meth:`rushhour.board.Board.legal_moves` (same order too);
the tests compare the successor sets on random positions of every board kind.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from rushhour.board import HORIZONTAL, Board, Layout, check_metric

BITS = 4
FIELD = (1 << BITS) - 1

Slides = tuple[int, ...]
# vehicles looked up together: fewer lookups per position while the combined tables stay small
# (measured: pairs are best on 6x6 puzzles, fours on crowded boards of 30 vehicles or more)
GROUP, CROWDED_GROUP, CROWDED = 2, 4, 16


def group_size(vehicles: int) -> int:
    return GROUP if vehicles <= CROWDED else CROWDED_GROUP


class Memo(dict[int, Slides]):
    """A dict that computes a missing entry with ``compute`` and keeps it."""

    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[int], Slides]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: int) -> Slides:
        value = self.compute(key)
        self[key] = value
        return value


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
        "goal_group",
        "other_groups",
        "_lanes",
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
        masks: list[list[int]] = []
        lanes: list[list[int]] = []
        key_masks: list[int] = []
        for i in range(n):
            length, lane = layout.lengths[i], layout.lanes[i]
            if layout.orientations[i] == HORIZONTAL:
                bits = [1 << (lane * w + pos) for pos in range(w)]
            else:
                bits = [1 << (pos * w + lane) for pos in range(h)]
            span = len(bits)
            lanes.append(bits)
            count = span if layout.wrap else span - length + 1
            vmasks = []
            for o in range(count):
                m = 0
                for k in range(o, o + length):
                    m |= bits[k % span]
                vmasks.append(m)
            masks.append(vmasks)
            key_masks.append((FIELD << self.shifts[i]) | sum(bits))
        self.masks = masks
        self._lanes = lanes
        self.key_masks = tuple(key_masks)
        self.singles = tuple(Memo(self._slides_of(i)) for i in range(n))
        g = layout.goal
        self.groups = self._grouped(range(n))
        self.goal_group = (self.key_masks[g], self.singles[g])
        self.other_groups = self._grouped([i for i in range(n) if i != g])
        self.goal = g
        self.goal_shift = self.shifts[layout.goal]
        self.won_offsets = frozenset(layout.goal_offsets())

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
    def _slides_of(self, i: int) -> Callable[[int], Slides]:
        sh = self.shifts[i]
        masks = self.masks[i]
        bits = self._lanes[i]
        span = len(bits)
        length = self.layout.lengths[i]
        wrap = self.layout.wrap
        steps = self.metric == "steps"

        def compute(key: int) -> Slides:
            offset = (key >> sh) & FIELD
            own = masks[offset]
            out: list[int] = []
            for way in (-1, 1):
                # how far the vehicle may slide this way, and the cell entered at each distance
                room = span - length if wrap else (offset if way < 0 else span - length - offset)
                if steps:
                    room = min(room, 1)
                front = offset - 1 if way < 0 else offset + length
                for d in range(1, room + 1):
                    if key & bits[(front + way * (d - 1)) % span]:
                        break
                    new = (offset + way * d) % span if wrap else offset + way * d
                    # own cells are occupied and the newly covered ones free: the xor is a difference
                    out.append(((new - offset) << sh) + masks[new] - own)
            return tuple(out)

        return compute

    def _grouped(self, members: Sequence[int]) -> tuple[tuple[int, Memo], ...]:
        out = []
        size = group_size(self.n)
        for lo in range(0, len(members), size):
            part = [(self.key_masks[i], self.singles[i]) for i in members[lo : lo + size]]
            mask = 0
            for m, _ in part:
                mask |= m

            def compute(key: int, part: list[tuple[int, Memo]] = part) -> Slides:
                slides: Slides = ()
                for m, table in part:
                    slides += table[key & m]
                return slides

            out.append((mask, Memo(compute)))
        return tuple(out)

    def slides(self, i: int, z: int) -> Slides:
        """The slides of vehicle ``i`` in position ``z`` (nearest first, backward then forward)."""
        return self.singles[i][z & self.key_masks[i]]

    def successors(self, z: int) -> list[int]:
        """The key of every position one move away, in the reference order."""
        out: list[int] = []
        for m, table in zip(self.key_masks, self.singles, strict=True):
            out.extend(z + d for d in table[z & m])
        return out


_CACHE: OrderedDict[tuple[Layout, str], Tables] = OrderedDict()
_CACHE_SIZE = 64


def tables_for(layout: Layout, metric: str = "moves") -> Tables:
    """The tables of ``layout`` under ``metric``, built once and kept in a small LRU cache."""
    key = (layout, metric)
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    made = Tables(layout, metric)
    _CACHE[key] = made
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return made
