"""The complete database of a board size: every interesting puzzle, as in Fogleman's published one.

Definitions (docs/enumerate.md has the proofs):

* A *layout* places vehicles of lengths 2 and 3 (horizontal or vertical) and 1x1 walls on the board;
  the goal car ``A`` (horizontal, length 2) is the only horizontal vehicle of the goal row and leaves
  through its right edge.  A position is *won* when the goal car stands against the exit.
* A *cluster* is a set of positions reachable from each other.  It gives one database line when a won
  position is reachable and its *hardest* position (the farthest from a win; ties by the least pair
  (horizontal vehicles' cells, vertical vehicles' cells) of bitboards with bit ``row * width + col``)
  is *minimal*: removing any vehicle but the goal car, or any wall, gives a shorter optimal solution.
* Moves never change a *shard*: the walls, each row's lengths of horizontal vehicles in order and each
  column's of vertical vehicles.  A *part* is the unit of work: the shards with given walls and given
  sequences in the first rows (:func:`parts`).  Parts are independent; rushhour.parallel runs them.
* Every cluster with a won position holds a *seed*: a won position where no other vehicle can move
  left or up by one cell.  A part searches clusters only from its seeds, so it never explores a
  cluster without a win.

The compiled search (rushhour/search/_clusters.c) and :func:`python_part` do the same work; the tests
compare them.  A line is ``MOVES BOARD CLUSTER`` in the fogleman format, plus the number of positions at
each distance from a win with ``distances``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rushhour.board import HORIZONTAL, Board
from rushhour.errors import BoardError, FormatError, ParseError, RushHourError
from rushhour.files import write_text_atomic
from rushhour.search.native import compiled, native_enabled
from rushhour.text import plural

LENGTHS = (2, 3)
GOAL_LENGTH = 2
MIN_SIDE = 3
MAX_SIDE: int = getattr(compiled, "ENUM_MAX_SIDE", 8)

Seq = tuple[int, ...]  # the lengths of a lane's vehicles, in order along it


class EnumerateError(RushHourError):
    """A database request that cannot run: a bad size, wall range or board, or a directory of another job."""


class PartStats(NamedTuple):
    """What one part searched (the compiled search returns these fields in this order, see
    rushhour/search/_clusters.h)."""

    shards: int
    seeds: int
    positions: int  # of the clusters searched
    clusters: int  # searched: those with a won position


STATS_FIELDS = PartStats._fields
# the compiled cluster search, when the compiled module was built with it from this version
_clusters = getattr(compiled, "clusters", None)
if _clusters is not None and tuple(getattr(compiled, "ENUM_STATS_FIELDS", ())) != STATS_FIELDS:
    _clusters = None


@dataclass(frozen=True)
class Job:
    """One database: a square board, its goal row, the range of walls and whether lines carry distances."""

    size: int
    goal_row: int
    walls: tuple[int, int] = (0, 0)
    distances: bool = False

    def __post_init__(self) -> None:
        if not MIN_SIDE <= self.size <= MAX_SIDE:
            raise EnumerateError(
                f"the database is enumerated on square boards of {MIN_SIDE}x{MIN_SIDE} to "
                f"{MAX_SIDE}x{MAX_SIDE}, not {self.size}x{self.size}"
            )
        if not 0 <= self.goal_row < self.size:
            raise EnumerateError(
                f"goal row {self.goal_row} is off a {self.size}x{self.size} board (rows 0 to {self.size - 1})"
            )
        lo, hi = self.walls
        if not 0 <= lo <= hi <= self.size * self.size - GOAL_LENGTH:
            raise EnumerateError(f"wall range {lo}-{hi} does not fit a {self.size}x{self.size} board")

    @staticmethod
    def default_goal_row(size: int) -> int:
        return (size - 1) // 2

    def describe(self) -> dict[str, object]:
        """The parameters as the manifest records them."""
        return {
            "size": f"{self.size}x{self.size}",
            "goal_row": self.goal_row,
            "walls": list(self.walls),
            "distances": self.distances,
        }


class Part(NamedTuple):
    """The shards with these walls (cells ``row * size + col``) and these sequences in the lanes where
    one is given (``None``: every sequence that fits)."""

    walls: tuple[int, ...]
    rows: tuple[Seq | None, ...]
    cols: tuple[Seq | None, ...]


class PartResult(NamedTuple):
    lines: list[str]
    stats: PartStats


# --- lanes -------------------------------------------------------------------------------------------
def sequences(span: int) -> list[Seq]:
    """Every sequence of vehicle lengths that fits a lane of ``span`` cells, in a fixed order."""
    out: list[Seq] = [()]
    for length in LENGTHS:
        if length <= span:
            out += [(length, *rest) for rest in sequences(span - length)]
    return out


def fits(seq: Seq, free: Sequence[bool]) -> bool:
    """Whether the vehicles of ``seq`` can be placed in order on the free cells of a lane."""
    pos = 0
    for length in seq:
        while pos + length <= len(free) and not all(free[pos : pos + length]):
            pos += 1
        if pos + length > len(free):
            return False
        pos += length
    return True


def _free(size: int, walls: tuple[int, ...], horizontal: bool, lane: int) -> list[bool]:
    cells = [lane * size + p if horizontal else p * size + lane for p in range(size)]
    return [c not in walls for c in cells]


def lane_choices(job: Job, part: Part) -> tuple[tuple[tuple[Seq, ...], ...], tuple[tuple[Seq, ...], ...]]:
    """The sequences allowed in every row and every column of a part: those that fit between the walls
    and leave the lane a free cell (see :func:`full_lane`)."""
    n = job.size
    rows, cols = [], []
    for r in range(n):
        free = _free(n, part.walls, True, r)
        walls = free.count(False)
        options = [(GOAL_LENGTH,)] if r == job.goal_row else sequences(n)
        fixed = part.rows[r]
        rows.append(
            tuple(
                s
                for s in options
                if (fixed is None or s == fixed) and _leaves_a_cell(s, walls, n) and fits(s, free)
            )
        )
    for c in range(n):
        free = _free(n, part.walls, False, c)
        fixed = part.cols[c]
        cols.append(
            tuple(
                s
                for s in sequences(n)
                if (fixed is None or s == fixed) and _leaves_a_cell(s, 0, n) and fits(s, free)
            )
        )
    return tuple(rows), tuple(cols)


def full_lane(size: int, walls: Sequence[int], rows: Sequence[Seq], cols: Sequence[Seq]) -> str | None:
    """The first full lane of a layout, as the published database counts them (``None`` if there is none):
    a row whose horizontal vehicles and walls cover every cell, or a column whose vertical vehicles do
    (walls do not count in columns).  Such layouts are not in the database; lengths never change in a
    lane, so whole shards are left out."""
    for r, seq in enumerate(rows):
        if not _leaves_a_cell(seq, sum(1 for w in walls if w // size == r), size):
            return f"row {r}"
    for c, seq in enumerate(cols):
        if not _leaves_a_cell(seq, 0, size):
            return f"column {c}"
    return None


def _leaves_a_cell(seq: Seq, walls: int, size: int) -> bool:
    """Whether a lane of ``size`` cells keeps a cell free of these vehicles and walls."""
    return sum(seq) + walls < size


def split_rows(size: int, walls: int) -> int:
    """How many rows (the first ones but the goal row) a part fixes: enough parts to share out and
    to resume from, few enough to list (walls make more, smaller jobs: fewer rows are fixed)."""
    return max(1, (1 if size <= 4 else 2 if size == 5 else 4) - walls)


def wall_sets(job: Job) -> Iterator[tuple[int, ...]]:
    cells = range(job.size * job.size)
    for k in range(job.walls[0], job.walls[1] + 1):
        yield from itertools.combinations(cells, k)


def parts(job: Job) -> list[Part]:
    """Every part of the job, in a fixed order: by walls, then by the sequences of the leading rows."""
    n = job.size
    out = []
    free_all: tuple[Seq | None, ...] = (None,) * n
    for walls in wall_sets(job):
        blank = Part(walls, free_all, free_all)
        rows, _ = lane_choices(job, blank)
        if not rows[job.goal_row]:
            continue
        lead_rows = [r for r in range(n) if r != job.goal_row][: split_rows(n, len(walls))]
        lead = [rows[r] if r in lead_rows else (None,) for r in range(n)]
        for chosen in itertools.product(*lead):
            out.append(Part(walls, tuple(chosen), free_all))
    return out


def shard_of(job: Job, board: Board) -> Part:
    """The part holding exactly the shard of ``board`` (its walls and its lanes' sequences)."""
    n = job.size
    if board.width != n or board.height != n or board.wrap:
        raise EnumerateError(f"the board is {board.width}x{board.height}; this database is {n}x{n}")
    goal = board.vehicle(board.goal)
    if goal.orientation != HORIZONTAL or goal.length != GOAL_LENGTH or goal.row != job.goal_row:
        raise EnumerateError(
            f"the goal car {board.goal} is not a horizontal car of length {GOAL_LENGTH} "
            f"on the goal row {job.goal_row}"
        )
    if board.exit is None or board.exit.side != "right":
        raise EnumerateError("the database's goal car leaves through the right edge")
    rows: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    cols: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for v in board.vehicles:
        if v.length not in LENGTHS:
            raise EnumerateError(
                f"vehicle {v.name} has length {v.length}; the database holds lengths 2 and 3"
            )
        if v.orientation == HORIZONTAL:
            if v.row == job.goal_row and v.name != board.goal:
                raise EnumerateError(
                    f"vehicle {v.name} shares the goal row: the database has only the goal car there"
                )
            rows[v.row].append((v.col, v.length))
        else:
            cols[v.col].append((v.row, v.length))
    walls = tuple(sorted(r * n + c for r, c in board.walls))
    lo, hi = job.walls
    if not lo <= len(walls) <= hi:
        has = plural(len(walls), "wall")
        raise EnumerateError(f"the board has {has}; the database has {lo} to {hi} walls")
    row_seqs = tuple(tuple(length for _, length in sorted(lane)) for lane in rows)
    col_seqs = tuple(tuple(length for _, length in sorted(lane)) for lane in cols)
    full = full_lane(n, walls, row_seqs, col_seqs)
    if full is not None:
        raise EnumerateError(
            f"{full} of the board is full: the database leaves out layouts with a full row "
            "(vehicles and walls) or a full column (vehicles)"
        )
    return Part(walls, row_seqs, col_seqs)


# --- running a part ----------------------------------------------------------------------------------
def run_part(job: Job, part: Part, native: bool | None = None) -> PartResult:
    """The database lines of one part (sorted, see :func:`line_order`) and what it searched, with the
    compiled search when built (and ``native`` is not False), else with :func:`python_part`."""
    if native is None:
        native = native_enabled()
    if native and _clusters is not None:
        rows, cols = lane_choices(job, part)
        try:
            text, stats = _clusters(job.size, job.size, job.goal_row, part.walls, rows, cols, job.distances)
        except ValueError as err:
            reason = str(err).removeprefix("clusters: ")
            raise EnumerateError(f"this database cannot be written: {reason}") from None
        except MemoryError:
            raise EnumerateError("out of memory while searching a part") from None
        lines = text.splitlines()
        result = PartResult(lines, PartStats(*stats))
    else:
        result = python_part(job, part)
    result.lines.sort(key=line_order)
    return result


_LINE = re.compile(r"(\d+) ([ox.A-Z]+) (\d+)( [\d,]+)?\Z")


def line_order(line: str) -> tuple[int, str]:
    """Database order: moves descending, then the board."""
    moves, board, _ = line.split(" ", 2)
    return (-int(moves), board)


def read_line(text: str, source: str | None = None, line: int | None = None) -> tuple[int, str, int]:
    """``(moves, board, cluster)`` of one database line (a trailing distances field is allowed)."""
    found = _LINE.match(text.strip())
    if not found:
        raise ParseError(
            "a database line is MOVES BOARD CLUSTER [DISTANCES], "
            "like '02 ooBoooooBoooAABooooooooooooooooooooo 14'",
            source=source,
            line=line,
        )
    return int(found[1]), found[2], int(found[3])


# --- the reference: the same search in Python --------------------------------------------------------
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
            line = f"{moves:02d} {_render(shape, job.goal_row, hardest)} {len(members)}"
            if job.distances:
                counts = [0] * (moves + 1)
                for s in members:
                    counts[seen[s]] += 1
                line += " " + ",".join(map(str, counts))
            lines.append(line)
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


# --- merging and drawing -----------------------------------------------------------------------------
def merge(results: Sequence[Sequence[str]]) -> list[str]:
    """The database from the lines of its parts, in database order."""
    return sorted(itertools.chain.from_iterable(results), key=line_order)


def read_database(path: str) -> list[tuple[int, str, int]]:
    """``(moves, board, cluster)`` of every line of a database file (blank and ``#`` lines skipped)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as err:
        raise EnumerateError(f"cannot read the database {path}: {err.strerror or err}") from None
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(read_line(line, source=os.path.basename(path), line=k))
    return out


def board_of(board_text: str) -> Board:
    """The board of a database line's BOARD field."""
    from rushhour.formats import fogleman

    try:
        board, _ = fogleman.parse_line(board_text)
    except (BoardError, FormatError) as err:
        raise EnumerateError(str(err)) from None
    return board


# --- a database directory: the manifest, one file per part, the merged database ----------------------
MANIFEST, DATABASE, PARTS = "manifest.json", "database.txt", "parts"
DIR_FORMAT = 2  # 2: layouts with a full lane are left out (format 1 held them)
_HEADER = re.compile(r"# part (\d+) " + " ".join(rf"{f}=(\d+)" for f in STATS_FIELDS) + r"\Z")


class PartStore:
    """``DIR/manifest.json`` (the job and its number of parts), ``DIR/parts/NNNNNN.txt`` (each finished
    part: a header with its statistics, then its lines) and, at the end, ``DIR/database.txt``.  Every
    file is written atomically, so a run stopped at any moment resumes from the parts on disk."""

    def __init__(self, root: str, job: Job, count: int) -> None:
        self.root, self.count = root, count
        self.parts_dir = os.path.join(root, PARTS)
        wanted = {"format": DIR_FORMAT, **job.describe(), "parts": count}
        try:
            os.makedirs(self.parts_dir, exist_ok=True)
            path = os.path.join(root, MANIFEST)
            if os.path.exists(path):
                with open(path, encoding="utf-8") as handle:
                    found = json.load(handle)
                if isinstance(found, dict) and found.get("format") != DIR_FORMAT:
                    raise EnumerateError(
                        f"{root} was written by another version of the enumerator (directory format "
                        f"{found.get('format')}, this one writes {DIR_FORMAT}): use another directory"
                    )
                if found != wanted:
                    raise EnumerateError(
                        f"{root} holds another database ({_describe(found)}); "
                        f"this one is {_describe(wanted)}: "
                        "use another directory"
                    )
            else:
                write_text_atomic(path, json.dumps(wanted, indent=2) + "\n", error=EnumerateError)
        except OSError as err:
            raise EnumerateError(f"cannot use {root}: {err.strerror or err}") from None
        except ValueError:
            raise EnumerateError(
                f"{root}/{MANIFEST} is not a manifest of this program: use another directory"
            ) from None

    def _path(self, index: int) -> str:
        return os.path.join(self.parts_dir, f"{index:06d}.txt")

    def save(self, index: int, result: PartResult) -> None:
        stats = " ".join(f"{f}={v}" for f, v in zip(STATS_FIELDS, result.stats, strict=True))
        text = "".join(f"{line}\n" for line in [f"# part {index} {stats}", *result.lines])
        write_text_atomic(self._path(index), text, error=EnumerateError)

    def load(self) -> dict[int, PartResult]:
        """The parts already finished."""
        out = {}
        for name in sorted(os.listdir(self.parts_dir)):
            if name.endswith(".tmp"):  # a part being written when a run was killed
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(self.parts_dir, name))
                continue
            if not re.fullmatch(r"\d{6}\.txt", name):
                continue
            path = os.path.join(self.parts_dir, name)
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
            head = _HEADER.match(lines[0]) if lines else None
            if head is None or int(head[1]) != int(name[:6]) or int(head[1]) >= self.count:
                raise EnumerateError(
                    f"{path}, line 1: not a part of this database (delete it to run the part again)"
                )
            for k, line in enumerate(lines[1:], 2):
                read_line(line, source=path, line=k)
            out[int(head[1])] = PartResult(lines[1:], PartStats(*(int(v) for v in head.groups()[1:])))
        return out

    def finish(self, lines: Sequence[str]) -> str:
        path = os.path.join(self.root, DATABASE)
        write_text_atomic(path, "".join(f"{line}\n" for line in lines), error=EnumerateError)
        return path


def _describe(manifest: dict[str, object]) -> str:
    walls = manifest.get("walls")
    ranged = f"{walls[0]}-{walls[1]}" if isinstance(walls, list) and len(walls) == 2 else "?"
    size, row, distances = manifest.get("size"), manifest.get("goal_row"), manifest.get("distances")
    return f"{size}, goal row {row}, walls {ranged}, distances {distances}"


class Progress(NamedTuple):
    """Where a run stands: parts done (of ``parts``), what they searched, the seconds spent."""

    done: int
    parts: int
    resumed: int
    stats: PartStats
    seconds: float


def total(results: Sequence[PartStats]) -> PartStats:
    return (
        PartStats(*(sum(column) for column in zip(*results, strict=True)))
        if results
        else PartStats(0, 0, 0, 0)
    )


def build(
    job: Job,
    *,
    out: str | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    native: bool | None = None,
    only: Sequence[Part] | None = None,
    report: Callable[[Progress], None] | None = None,
) -> tuple[list[str], PartStats]:
    """The database of ``job`` (or of the parts ``only``): its lines in database order and what was
    searched.  With ``out``, parts are saved there as they finish, a run resumes from the parts found
    there, and the database is written to ``out/database.txt``."""
    from rushhour import parallel

    todo_parts = list(only) if only is not None else parts(job)
    store = PartStore(out, job, len(todo_parts)) if out is not None else None
    results: dict[int, PartResult] = store.load() if store is not None else {}
    resumed = len(results)
    started = time.perf_counter()
    fresh = total([])  # what the parts run now searched, kept as they finish

    def on_result(index: int, result: PartResult) -> None:
        nonlocal fresh
        if store is not None:
            store.save(index, result)
        results[index] = result
        fresh = total([fresh, result.stats])
        if report is not None:
            report(Progress(len(results), len(todo_parts), resumed, fresh, time.perf_counter() - started))

    todo = [(i, p) for i, p in enumerate(todo_parts) if i not in results]
    parallel.run(job, todo, on_result, workers=workers, scheduler=scheduler, native=native)
    lines = merge([results[i].lines for i in sorted(results)])
    if store is not None:
        store.finish(lines)
    return lines, total([r.stats for r in results.values()])
