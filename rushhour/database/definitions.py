"""The definitions of the complete database: jobs, parts, shards and the lane rules.  The terms
(layout, cluster, shard, part, seed) are defined in :mod:`rushhour.database`; docs/enumerate.md has the
proofs."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rushhour.board import HORIZONTAL, Board
from rushhour.errors import ArgumentTypeError, EnumerateError, expect, expect_whole, whole_number
from rushhour.search.native import compiled
from rushhour.text import plural

LENGTHS = (2, 3)
GOAL_LENGTH = 2
MIN_SIDE = 3
MAX_SIDE: int = getattr(compiled, "ENUM_MAX_SIDE", 8)

Seq = tuple[int, ...]  # the lengths of a lane's vehicles, in order along it


class PartStats(NamedTuple):
    """What one part searched (the compiled search returns these fields in this order, see
    rushhour/search/_clusters.h)."""

    shards: int
    seeds: int
    positions: int  # of the clusters searched
    clusters: int  # searched: those with a won position


STATS_FIELDS = PartStats._fields



SIZE_WHAT = "a whole number of cells (the side of a square board)"


@dataclass(frozen=True)
class Job:
    """One database: a square board, its goal row, the range of walls and whether lines carry distances."""

    size: int
    goal_row: int
    walls: tuple[int, int] = (0, 0)
    distances: bool = False

    def __post_init__(self) -> None:
        expect_whole(self.size, "size", what=SIZE_WHAT)
        expect_whole(self.goal_row, "goal_row")
        if not (
            isinstance(self.walls, tuple) and len(self.walls) == 2 and all(map(whole_number, self.walls))
        ):
            raise ArgumentTypeError(f"{{walls}} must be a pair (least, most), not {self.walls!r}")
        expect(self.distances, bool, "distances", "True or False")
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
        """The middle row, or the upper of the two middle ones: where the goal car goes unless told."""
        expect_whole(size, "size", what=SIZE_WHAT)
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


def check_part(job: Job, part: Part) -> None:
    """Raise unless ``part`` is one of ``job``'s: a :class:`Part`, its walls distinct cells of the board,
    a sequence of lengths 2 and 3 or ``None`` for each row and each column."""
    expect(part, Part, "part", "a Part")
    n = job.size
    walls = part.walls
    if not (isinstance(walls, tuple) and all(whole_number(c) and 0 <= c < n * n for c in walls)):
        raise EnumerateError(f"a part's walls are cells 0 to {n * n - 1} of the board, not {walls!r}")
    if len(set(walls)) != len(walls):
        raise EnumerateError(f"a part's walls are distinct cells, not {walls!r}")
    for what, lanes in (("rows", part.rows), ("columns", part.cols)):
        if not (isinstance(lanes, tuple) and len(lanes) == n):
            raise EnumerateError(f"a part of a {n}x{n} database gives {n} {what}, not {lanes!r}")
        for seq in lanes:
            if seq is not None and not (isinstance(seq, tuple) and all(x in LENGTHS for x in seq)):
                raise EnumerateError(f"a lane of a part is None or lengths 2 and 3 in order, not {seq!r}")


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
    expect(board, Board, "board", "a Board")
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

