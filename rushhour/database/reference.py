"""The reference: what the compiled search (rushhour/search/_clusters.c) does for one part, written in
Python (slow; for small boards).  The tests compare the two on every part of small databases."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator
from typing import NamedTuple

from rushhour.database.definitions import (
    GOAL_LENGTH,
    EnumerateError,
    Job,
    Part,
    PartResult,
    PartStats,
    Seq,
    lane_choices,
)
from rushhour.formats.fogleman import DatabaseLine


class _Shape(NamedTuple):
    size: int
    walls: int
    horizontal: tuple[bool, ...]
    lengths: tuple[int, ...]
    bits: tuple[tuple[int, ...], ...]  # the cell along each vehicle's lane
    goal: int
    won: int


def _cell(size: int, horizontal: bool, lane: int, pos: int) -> int:
    return 1 << (lane * size + pos if horizontal else pos * size + lane)


def _mask(shape: _Shape, i: int, offset: int) -> int:
    m = 0
    for t in range(shape.lengths[i]):
        m |= shape.bits[i][offset + t]
    return m


def _successors(shape: _Shape, state: tuple[int, ...], occ: int) -> Iterator[tuple[int, int]]:
    """(vehicle, new offset) of every move, as the compiled search orders them."""
    for i, o in enumerate(state):
        bits, length = shape.bits[i], shape.lengths[i]
        p = o - 1
        while p >= 0 and not occ & bits[p]:
            yield i, p
            p -= 1
        p = o + 1
        while p + length <= len(bits) and not occ & bits[p + length - 1]:
            yield i, p
            p += 1


def _occupancy(shape: _Shape, state: tuple[int, ...]) -> tuple[int, int]:
    h = v = 0
    for i, o in enumerate(state):
        if shape.horizontal[i]:
            h |= _mask(shape, i, o)
        else:
            v |= _mask(shape, i, o)
    return h, v


def _shorter(shape: _Shape, start: tuple[int, ...], limit: int) -> bool:
    """Whether a won position is less than ``limit`` moves from ``start``."""
    seen = {start}
    layer = [start]
    for _ in range(1, limit):
        nxt = []
        for state in layer:
            h, v = _occupancy(shape, state)
            for i, p in _successors(shape, state, shape.walls | h | v):
                after = state[:i] + (p,) + state[i + 1 :]
                if after in seen:
                    continue
                if i == shape.goal and p == shape.won:
                    return True
                seen.add(after)
                nxt.append(after)
        layer = nxt
    return False


def _minimal(shape: _Shape, state: tuple[int, ...], moves: int) -> bool:
    for i in range(len(state)):
        if i == shape.goal:
            continue
        keep = [j for j in range(len(state)) if j != i]
        smaller = shape._replace(
            horizontal=tuple(shape.horizontal[j] for j in keep),
            lengths=tuple(shape.lengths[j] for j in keep),
            bits=tuple(shape.bits[j] for j in keep),
            goal=shape.goal - (i < shape.goal),
        )
        if not _shorter(smaller, tuple(state[j] for j in keep), moves):
            return False
    cells = shape.walls
    while cells:
        wall = cells & -cells
        cells ^= wall
        if not _shorter(shape._replace(walls=shape.walls & ~wall), state, moves):
            return False
    return True


def _render(shape: _Shape, goal_row: int, state: tuple[int, ...]) -> str:
    """The position in the published lettering: ``A`` the goal car; ``B``, ``C``... first for the
    walls of the goal row, then for the horizontal vehicles and the walls of the other rows, row by
    row from the top in reading order (a wall takes a letter and shows as ``x``), then for the
    vertical vehicles column by column, top to bottom."""
    n = shape.size
    first: dict[int, int] = {}  # the first cell of each vehicle -> the vehicle
    for i, o in enumerate(state):
        first[(shape.bits[i][o]).bit_length() - 1] = i
    rows = [goal_row] + [r for r in range(n) if r != goal_row]
    order = []
    for r in rows:
        for c in range(r * n, (r + 1) * n):
            if shape.walls >> c & 1:
                order.append(("wall", c))
            elif c in first and shape.horizontal[first[c]]:
                order.append(("vehicle", first[c]))
    order += [("vehicle", i) for i in range(len(state)) if not shape.horizontal[i]]
    out = ["o"] * (n * n)
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for kind, k in order:
        if kind == "wall":
            out[k] = "x"
            next(letters)
            continue
        letter = "A" if k == shape.goal else next(letters)
        m = _mask(shape, k, state[k])
        for c in range(n * n):
            if m >> c & 1:
                out[c] = letter
    return "".join(out)


def _entries(
    size: int, walls: int, horizontal: bool, lane: int, seqs: tuple[Seq, ...]
) -> list[tuple[int, int, int]]:
    """(sequence index, cells, cells before a vehicle that something across must fill) of every
    placement of every sequence of a lane."""
    out = []

    def place(sq: int, seq: Seq, k: int, pos: int, mask: int, need: int) -> None:
        if k == len(seq):
            out.append((sq, mask, need))
            return
        for p in range(pos, size - seq[k] + 1):
            m = 0
            for t in range(seq[k]):
                m |= _cell(size, horizontal, lane, p + t)
            if m & walls:
                continue
            before = _cell(size, horizontal, lane, p - 1) if p > 0 else 0
            place(sq, seq, k + 1, p + seq[k], mask | m, need | (before & ~mask & ~walls))

    for sq, seq in enumerate(seqs):
        place(sq, seq, 0, 0, 0, 0)
    return out


def _seeds(
    job: Job, walls: int, rows: tuple[tuple[Seq, ...], ...], cols: tuple[tuple[Seq, ...], ...]
) -> list[tuple[tuple[int, ...], tuple[int, ...], int, int]]:
    """Every seed of the part: (rows' sequence ids, columns' sequence ids, h, v)."""
    n = job.size
    row_entries = [_entries(n, walls, True, r, rows[r]) for r in range(n)]
    # the goal car (last in the goal row) at the exit, and the cell before it need not be filled
    exit_cell = _cell(n, True, job.goal_row, n - 1)
    before = _cell(n, True, job.goal_row, n - GOAL_LENGTH - 1)
    row_entries[job.goal_row] = [
        (sq, m, need & ~before) for sq, m, need in row_entries[job.goal_row] if m & exit_cell
    ]
    col_entries = [_entries(n, walls, False, c, cols[c]) for c in range(n)]
    out = []

    def fill_columns(
        c: int, h: int, v: int, need: int, row_ids: tuple[int, ...], col_ids: tuple[int, ...]
    ) -> None:
        if c == n:
            out.append((row_ids, col_ids, h, v))
            return
        column = sum(_cell(n, False, c, r) for r in range(n))
        for sq, mask, up in col_entries[c]:
            if mask & h or up & ~h or need & column & ~mask:
                continue
            fill_columns(c + 1, h, v | mask, need, row_ids, col_ids + (sq,))

    def fill_rows(r: int, h: int, need: int, row_ids: tuple[int, ...]) -> None:
        if r == n:
            fill_columns(0, h, 0, need, row_ids, ())
            return
        for sq, mask, left in row_entries[r]:
            fill_rows(r + 1, h | mask, need | left, row_ids + (sq,))

    fill_rows(0, 0, 0, ())
    return out


def python_part(job: Job, part: Part) -> PartResult:
    """The reference: what the compiled search does, written in Python (slow; for small boards)."""
    n = job.size
    rows, cols = lane_choices(job, part)
    walls = sum(1 << c for c in part.walls)
    packed = sorted(_seeds(job, walls, rows, cols), key=lambda p: (p[0][::-1], p[1][::-1], p[2], p[3]))
    lines: list[str] = []
    shards = positions = clusters = 0
    for (row_ids, col_ids), group in itertools.groupby(packed, key=lambda p: (p[0], p[1])):
        shards += 1
        horizontal: list[bool] = []
        lengths: list[int] = []
        bits: list[tuple[int, ...]] = []
        goal = -1
        for d, (lanes, ids) in enumerate(((rows, row_ids), (cols, col_ids))):
            for lane, sq in enumerate(ids):
                seq = lanes[lane][sq]
                for k, length in enumerate(seq):
                    if d == 0 and lane == job.goal_row and k == len(seq) - 1:
                        goal = len(lengths)
                    horizontal.append(d == 0)
                    lengths.append(length)
                    bits.append(tuple(_cell(n, d == 0, lane, p) for p in range(n)))
        if len(lengths) - 1 + len(part.walls) > 25:  # B to Z for the other vehicles and the walls
            raise EnumerateError("this database cannot be written: more vehicles and walls than letters A-Z")
        shape = _Shape(n, walls, tuple(horizontal), tuple(lengths), tuple(bits), goal, n - GOAL_LENGTH)
        seen: dict[tuple[int, ...], int] = {}
        for _, _, h, v in group:
            state = _offsets(shape, h, v)
            if state in seen:
                continue
            members = [state]
            seen[state] = -1
            for s in members:
                hh, vv = _occupancy(shape, s)
                for i, p in _successors(shape, s, walls | hh | vv):
                    after = s[:i] + (p,) + s[i + 1 :]
                    if after not in seen:
                        seen[after] = -1
                        members.append(after)
            clusters += 1
            positions += len(members)
            won = [s for s in members if s[goal] == shape.won]
            queue = deque(won)
            for s in won:
                seen[s] = 0
            while queue:
                s = queue.popleft()
                hh, vv = _occupancy(shape, s)
                for i, p in _successors(shape, s, walls | hh | vv):
                    after = s[:i] + (p,) + s[i + 1 :]
                    if seen[after] < 0:
                        seen[after] = seen[s] + 1
                        queue.append(after)
            moves = max(seen[s] for s in members)
            hardest = min((s for s in members if seen[s] == moves), key=lambda s: _occupancy(shape, s))
            if not _minimal(shape, hardest, moves):
                continue
            distances = None
            if job.distances:
                counts = [0] * (moves + 1)
                for s in members:
                    counts[seen[s]] += 1
                distances = tuple(counts)
            board = _render(shape, job.goal_row, hardest)
            lines.append(DatabaseLine(moves, board, len(members), distances).text())
    return PartResult(lines, PartStats(shards, len(packed), positions, clusters))


def _offsets(shape: _Shape, h: int, v: int) -> tuple[int, ...]:
    """A shard's position from its two bitboards (a lane's vehicles keep their order)."""
    out = []
    lane_key: tuple[bool, int] | None = None
    pos = 0
    for i, length in enumerate(shape.lengths):
        key = (shape.horizontal[i], shape.bits[i][0])
        if key != lane_key:
            lane_key, pos = key, 0
        cells = h if shape.horizontal[i] else v
        while not cells & shape.bits[i][pos]:
            pos += 1
        out.append(pos)
        pos += length
    return tuple(out)


