"""Puzzle generation by rewinding from won positions.

A *try* starts from a won position: the goal car ``A`` against the exit on the right edge of the row
``(height - 1) // 2``, then a random bag of cars and trucks (and walls) placed at random around it.
*Rewinding* explores every position reachable from there (:func:`rushhour.search.analyze`) and takes
the one farthest from any win: the hardest start of that reachable set (its *cluster*).

Random bags rarely make hard puzzles, so a try samples cleverly (method ``rewind``): it then changes the
hardest position one vehicle at a time (move a vehicle elsewhere, add one, remove one, move a wall),
rewinds again, and keeps a change when the hardest distance does not drop (nor overshoot
``max_moves``), until the length is in range and reaches the try's target, or the try stalls.
Clusters larger than :func:`cluster_limit` are rejected unexplored: on 6x6 they are almost never hard.

Every kept puzzle is then solved from scratch (:func:`rushhour.search.solve`, which replays its answer)
and must need exactly the analysed number of moves.  *Every vehicle matters*: a vehicle that moves in
the optimal solution matters (without it the same solution, minus its moves, is shorter); any other
vehicle is removed and the board solved again, which must then be shorter.  A vehicle that does not
matter is dropped and the smaller board rewound again.

On open boards larger than 9x9 (more than 81 cells) most bags are too loose to rewind, and for short
targets the try climbs by the solver instead (:meth:`_Try.solver_climb`): positions whose optimum the
frontier search proves, their reachable sets unexplored.

Method ``walk`` is the literal rewind: random legal moves from the won position, asked of the SAT move
oracle (:func:`rushhour.logic.oracle.legal_moves`), and the position where the walk ends.

Each try is a pure function of the settings, the seed and the try's number (its own
``random.Random``), and the tries are accepted in the order of their numbers, so the same seed gives
the same puzzles with any number of worker processes.  Two puzzles of one run never share a cluster
(those of the solver climb, whose clusters are not explored, never share a position).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from rushhour.board import HORIZONTAL, VERTICAL, Board, Cell, Move, Target, Vehicle
from rushhour.errors import (
    ArgumentTypeError,
    LimitReachedError,
    ParameterError,
    RushHourError,
    SolverError,
    expect,
    expect_seconds,
    expect_whole,
)
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.formats.single import board_ref
from rushhour.search import Analysis, Solution, analyze, solve
from rushhour.search.analysis import KnownClusters
from rushhour.search.bfs import Limits
from rushhour.search.frontier import frontier_available, frontier_wanted, one_pass
from rushhour.search.solution import moves_of_path
from rushhour.search.tables import Tables, tables_for
from rushhour.text import listed, plural, seconds_text
from rushhour.workers import awaited, interrupt_as_flag, may_start_processes, owned_pool

METHODS = ("anneal", "rewind", "walk")
DEFAULT_METHOD = "anneal"
#: the shortest optimum asked for when none is (``rushhour generate`` and ``rushhour.generate``)
DEFAULT_MIN_MOVES = 10
MIN_SIDE, MAX_SIDE = 5, 12
MAX_VEHICLES = len(VEHICLE_CHARS)

#: chance that a new vehicle is a truck (when --trucks does not fix the count) and that it stands upright
TRUCK_CHANCE = 0.4
VERTICAL_CHANCE = 0.55
#: method rewind: changes tried without progress before a try gives up, and changes per try at most
STALL = 20
MAX_CHANGES = 300
#: method anneal: the same, counting changes since the best cluster of the try
ANNEAL_STALL = 150
ANNEAL_CHANGES = 800
#: a try of method anneal ends when this many clusters that reached the length failed their checks at
#: the checks' limits (a vehicle check or the cluster without a vehicle too large)
ANNEAL_FINISHES = 2
#: a try of method anneal from a packed bag rewinds a changed position only up to this many times the
#: cluster it comes from (a change that loosens a crowded board that much is dropped early)
ANNEAL_GROWTH = 6
#: the weight of a cluster's mean distance in the annealing's energy (see _Try.energy), and the
#: temperature at the start of a try (falling linearly to 0 at ANNEAL_CHANGES): a change that shortens
#: the hardest distance by one move is kept with a chance of exp(-1 / temperature)
SECONDARY = 0.5
TEMPERATURE = 1.5
#: positions of the largest cluster explored on a 6x6 board (scaled with the area on other sizes)
BASE_CLUSTER_LIMIT = 10_000
#: the checks of a finished puzzle from a packed bag (every vehicle matters) may explore this many
#: times more
CHECK_FACTOR = 16
#: the same for method anneal, whose tries go on annealing when a check fails
ANNEAL_CHECK_FACTOR = 2
#: method anneal rescues a puzzle that those checks drop (see _Try.rescue): each vehicle check may store
#: this many times the annealing's cluster limit (450,000 positions on 9x9), and the one analysis of the
#: board left once every vehicle that does not matter is dropped may explore this many times (900,000).
#: 4 and 8 before the cleared bound's cycles of orders made the checks' passes smaller: 20 and 40 make
#: x1.7 the 9x9 puzzles of 30+ moves a minute of one core (docs/benchmarks.md)
RESCUE_CHECK_FACTOR = 20
RESCUE_CLUSTER_FACTOR = 40


#: method anneal on boards of more cells than this (larger than 9x9), without walls and not wrap-around:
#: on a target below SOLVER_BELOW moves the try does not rewind but climbs by the solver (see
#: _Try.solver_climb), from a random bag scrambled by SOLVER_SCRAMBLE
#: legal moves: at most SOLVER_CHANGES changes, the try ending after SOLVER_STALL in a row that do not
#: lengthen the optimum; a change is a legal move with chance SOLVER_MOVE_CHANCE, else one of the
#: bag's kind; each optimum is proved by bounded passes of the compiled search storing at most
#: SOLVER_STATES positions in all, up to max_moves (else the target and SOLVER_OVERSHOOT more).  Such a
#: board's reachable set runs to millions of positions, most bags' past what a rewind explores, but the
#: frontier search proves the optimum of one of its positions in milliseconds: on 10x10 and 12x12,
#: climbing from the start makes 1.75 to 13 times the puzzles a minute of climbing only the bags too
#: loose to rewind (docs/benchmarks.md)
SOLVER_FROM = 81
SOLVER_BELOW = 20
SOLVER_CHANGES = 400
SOLVER_STALL = 120
SOLVER_MOVE_CHANCE = 0.5
SOLVER_STATES = 100_000
SOLVER_OVERSHOOT = 8
SOLVER_SCRAMBLE = 200
#: :func:`shorter_exists`: the share of its position limit that its passes of small bounds may store,
#: and the step between their bounds
SHORTER_SHARE = 0.5
SHORTER_STEP = 2


def cluster_limit(width: int, height: int) -> int:
    """The largest cluster a try explores: 10,000 positions on 6x6, growing with the square of the area
    (50,625 on 9x9): larger boards need looser clusters to hold long puzzles."""
    return int(BASE_CLUSTER_LIMIT * ((width * height) / 36) ** 2)


def anneal_cluster_limit(width: int, height: int) -> int:
    """The largest cluster a try of method anneal explores: 10,000 positions on 6x6, growing with the
    area (22,500 on 9x9, 40,000 on 12x12): an annealing rewinds hundreds of times, and long puzzles
    do not need the loosest clusters."""
    return int(BASE_CLUSTER_LIMIT * width * height / 36)


#: the longest optimum of any solvable position, by board size, of the boards a try makes without walls
#: (not wrap-around): the goal car on row (height - 1) // 2, the only horizontal vehicle there, its exit
#: on the right edge.  6x6: the complete enumeration, full lanes included (docs/enumerate.md: its longest
#: line has 51 moves, and a position of L moves leads to a line of L moves or more, by taking the hardest
#: position of the cluster and dropping the vehicles that do not matter, until both hold)
LONGEST_KNOWN = {(6, 6): 51}


def max_walls(width: int, height: int) -> int:
    """The most walls a puzzle may have: a quarter of the cells (36 on 12x12)."""
    return width * height // 4


def default_vehicles(width: int, height: int) -> tuple[int, int]:
    """Vehicles per puzzle (the goal car included) when none are asked for: 8-14 on 6x6."""
    area = width * height
    return max(3, round(area * 8 / 36)), max(4, round(area * 14 / 36))


@dataclass(frozen=True)
class Settings:
    """What to make.  ``vehicles``, ``trucks`` and ``walls`` are inclusive ranges; ``vehicles``
    counts the goal car, ``trucks`` counts the other vehicles of length 3.  Without ``vehicles`` a try
    starts from a bag of :func:`default_vehicles` and may drop the vehicles that do not matter."""

    width: int = 6
    height: int = 6
    min_moves: int = 1
    max_moves: int | None = None
    vehicles: tuple[int, int] | None = None
    trucks: tuple[int, int] | None = None
    walls: tuple[int, int] = (0, 0)
    method: str = DEFAULT_METHOD
    seed: int = 0
    #: wrap-around boards: the goal car wins with its front on the right edge (target ``ROW,W-1 east``)
    wrap: bool = False
    #: at most this many vehicles in a puzzle, the goal car included: the names the output format
    #: holds (26 letters for the Fogleman format); the default bag is cut to it
    max_vehicles: int = MAX_VEHICLES

    def checked(self) -> Settings:
        """These settings with defaults filled in; raises :class:`RushHourError` naming a bad one."""
        for name in ("width", "height", "min_moves", "seed", "max_vehicles"):
            expect_whole(getattr(self, name), name)
        expect_whole(self.max_moves, "max_moves", none=True)
        for name in ("vehicles", "trucks", "walls"):
            pair = getattr(self, name)
            if pair is None and name != "walls":
                continue
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise ArgumentTypeError(f"{{{name}}} must be a pair (least, most), not {pair!r}")
            for part in pair:
                expect_whole(part, name)
        expect(self.wrap, bool, "wrap", "True or False")
        expect(self.method, str, "method", "a method's name")
        w, h = self.width, self.height
        for label, side in (("width", w), ("height", h)):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise ParameterError(f"board {label} {side} is out of range: sizes are 5x5 to 12x12")
        if self.method not in METHODS:
            raise ParameterError(f"unknown {{method}} {self.method!r}: use {listed(METHODS, 'or')}")
        if self.min_moves < 1:
            raise ParameterError(f"{{min_moves}} must be at least 1, not {self.min_moves}")
        if self.max_moves is not None and self.max_moves < self.min_moves:
            raise ParameterError(
                f"{{max_moves}} {self.max_moves} is below {{min_moves}} {self.min_moves}: no length fits"
            )
        longest = LONGEST_KNOWN.get((w, h))
        if longest is not None and self.walls == (0, 0) and not self.wrap and self.min_moves > longest:
            raise ParameterError(
                f"{{min_moves}} {self.min_moves} asks for none: no {w}x{h} puzzle without walls needs more "
                f"than {longest} moves (the complete enumeration, docs/enumerate.md)"
            )
        if not 2 <= self.max_vehicles <= MAX_VEHICLES:
            raise ParameterError(
                f"{{max_vehicles}} {self.max_vehicles} is out of range: 2 to {MAX_VEHICLES} "
                "(the vehicle names of the grid format)"
            )
        lo, hi = self.bag
        if lo < 2 or lo > hi:
            raise ParameterError(f"{{vehicles}} {lo}-{hi} is not a range of at least 2 (the goal car counts)")
        if hi > self.max_vehicles:
            cap = (
                f"the grid format names {MAX_VEHICLES} vehicles at most"
                if self.max_vehicles == MAX_VEHICLES
                else f"{{max_vehicles}} is {self.max_vehicles}"
            )
            raise ParameterError(f"{{vehicles}} {hi} is too many: {cap}")
        trucks = self.trucks
        if trucks is not None:
            if trucks[0] < 0 or trucks[0] > trucks[1]:
                raise ParameterError(f"{{trucks}} {trucks[0]}-{trucks[1]} is not a range")
            if trucks[0] > hi - 1:
                raise ParameterError(
                    f"{{trucks}} {trucks[0]} is more than the other vehicles "
                    f"({hi - 1} at most with {{vehicles}})"
                )
        wlo, whi = self.walls
        if wlo < 0 or wlo > whi:
            raise ParameterError(f"{{walls}} {wlo}-{whi} is not a range")
        most = max_walls(w, h)
        if whi > most:
            raise ParameterError(f"{{walls}} {whi} is too many for a {w}x{h} board: {most} at most")
        if 2 * lo + (trucks[0] if trucks else 0) + wlo > w * h:
            many = f"{plural(lo, 'vehicle')} and {plural(wlo, 'wall')}"
            raise RushHourError(f"{many} do not fit on a {w}x{h} board: ask for fewer")
        return self

    @property
    def bag(self) -> tuple[int, int]:
        """How many vehicles a try starts with."""
        if self.vehicles is not None:
            return self.vehicles
        lo, hi = default_vehicles(self.width, self.height)
        hi = min(hi, self.max_vehicles)
        return min(lo, hi), hi

    @property
    def allowed(self) -> tuple[int, int]:
        """How many vehicles a puzzle may have."""
        return self.vehicles or (2, self.bag[1])


# --- a position under construction ---------------------------------------------------------------


class Piece(NamedTuple):
    """A vehicle other than the goal car, placed by its top-left cell."""

    orientation: str
    row: int
    col: int
    length: int


def _cells(piece: Piece) -> list[Cell]:
    o, r, c, length = piece
    if o == HORIZONTAL:
        return [(r, c + k) for k in range(length)]
    return [(r + k, c) for k in range(length)]


@dataclass(frozen=True)
class Sketch:
    """A position as plain data: the goal car's column, the other vehicles and the walls."""

    width: int
    height: int
    goal_col: int
    pieces: tuple[Piece, ...]
    walls: tuple[Cell, ...]
    wrap: bool = False

    @property
    def goal_row(self) -> int:
        return (self.height - 1) // 2

    def occupied(self, skip: int | None = None) -> set[Cell]:
        """The cells taken (on a wrap-around board a vehicle may run across the edge)."""
        taken = {(self.goal_row, self.goal_col), (self.goal_row, self.goal_col + 1)}
        for k, piece in enumerate(self.pieces):
            if k != skip:
                taken.update(_cells(piece))
        if self.wrap:
            taken = {(r % self.height, c % self.width) for r, c in taken}
        return taken | set(self.walls)

    def trucks(self) -> int:
        return sum(1 for p in self.pieces if p.length == 3)

    def board(self) -> Board:
        """The position, its vehicles named in an order that no move can change (orientation, lane,
        then offset: vehicles of one lane cannot pass each other), so that boards of one cluster
        always share one layout and cluster keys compare."""
        ordered = sorted(
            self.pieces,
            key=lambda p: (p.orientation, p.col if p.orientation == VERTICAL else p.row, p.row, p.col),
        )
        vehicles = [Vehicle("A", HORIZONTAL, 2, self.goal_row, self.goal_col)]
        vehicles += [Vehicle(f"V{k:02d}", o, n, r, c) for k, (o, r, c, n) in enumerate(ordered)]
        if self.wrap:
            target = Target(self.goal_row, self.width - 1, "east")
            w, h = self.width, self.height
            return Board(w, h, vehicles, walls=self.walls, goal="A", target=target, wrap=True)
        return Board(self.width, self.height, vehicles, walls=self.walls, goal="A", exit="right")

    @classmethod
    def of(cls, board: Board) -> Sketch:
        lay, g = board.layout, board.layout.goal
        # read off the layout (a piece is the vehicle's orientation, top-left cell and length)
        rows = zip(lay.orientations, lay.lanes, lay.lengths, board.state, strict=True)
        pieces = tuple(
            Piece(o, lane, at, n) if o == HORIZONTAL else Piece(o, at, lane, n)
            for i, (o, lane, n, at) in enumerate(rows)
            if i != g
        )
        goal_col = board.vehicle(board.goal).col
        return cls(board.width, board.height, goal_col, pieces, tuple(sorted(board.walls)), board.wrap)

    def without(self, k: int) -> Sketch:
        return replace(self, pieces=self.pieces[:k] + self.pieces[k + 1 :])


def _spots(sketch: Sketch, taken: set[Cell], orientation: str, length: int) -> list[Piece]:
    """Every free place for a vehicle; horizontal vehicles stay off the goal car's row."""
    w, h, gr = sketch.width, sketch.height, sketch.goal_row
    out: list[Piece] = []
    if orientation == HORIZONTAL:
        for r in range(h):
            if r == gr:
                continue
            for c in range(w - length + 1):
                if all((r, c + k) not in taken for k in range(length)):
                    out.append(Piece(HORIZONTAL, r, c, length))
    else:
        for c in range(w):
            for r in range(h - length + 1):
                if all((r + k, c) not in taken for k in range(length)):
                    out.append(Piece(VERTICAL, r, c, length))
    return out


def _fits(sketch: Sketch, taken: set[Cell], piece: Piece) -> bool:
    """Whether ``piece`` stands on the board on free cells (a horizontal one off the goal car's row)."""
    if piece.orientation == HORIZONTAL and piece.row == sketch.goal_row:
        return False
    return all(
        0 <= y < sketch.height and 0 <= x < sketch.width and (y, x) not in taken for y, x in _cells(piece)
    )


def _place(rng: random.Random, sketch: Sketch, taken: set[Cell], length: int) -> Piece | None:
    first = VERTICAL if rng.random() < VERTICAL_CHANCE else HORIZONTAL
    for orientation in (first, HORIZONTAL if first == VERTICAL else VERTICAL):
        spots = _spots(sketch, taken, orientation, length)
        if spots:
            return rng.choice(spots)
    return None


def _wall_spots(sketch: Sketch, taken: set[Cell]) -> list[Cell]:
    """Free cells for a wall: not on the goal row to the right of the goal car (that would lock it)."""
    gr = sketch.goal_row
    return [
        (r, c)
        for r in range(sketch.height)
        for c in range(sketch.width)
        if (r, c) not in taken and not (r == gr and c > sketch.goal_col)
    ]


def _truck_length(rng: random.Random, s: Settings, sketch: Sketch) -> int:
    if s.trucks is None:
        return 3 if rng.random() < TRUCK_CHANCE else 2
    have = sketch.trucks()
    lo, hi = s.trucks
    if have < lo:
        return 3
    if have >= hi:
        return 2
    return 3 if rng.random() < TRUCK_CHANCE else 2


def _walled(rng: random.Random, s: Settings) -> Sketch | None:
    """The won position with the goal car alone and a random number of walls in the range asked for
    (None when they do not fit)."""
    sketch = Sketch(s.width, s.height, s.width - 2, (), (), s.wrap)
    for _ in range(rng.randint(*s.walls)):
        spots = _wall_spots(sketch, sketch.occupied())
        if not spots:
            return None
        sketch = replace(sketch, walls=(*sketch.walls, rng.choice(spots)))
    return sketch


def random_bag(rng: random.Random, s: Settings) -> Sketch | None:
    """A won position with a random bag of vehicles and walls; when the board fills up first, the
    vehicles that fit (None when they are fewer than the settings allow)."""
    sketch = _walled(rng, s)
    if sketch is None:
        return None
    least = s.bag[0] if s.trucks is None else max(s.bag[0], s.trucks[0] + 1)
    count = rng.randint(least, s.bag[1]) - 1
    if s.trucks is None:
        lengths = [3 if rng.random() < TRUCK_CHANCE else 2 for _ in range(count)]
    else:
        trucks = rng.randint(s.trucks[0], min(s.trucks[1], count))
        lengths = [3] * trucks + [2] * (count - trucks)
        rng.shuffle(lengths)
    taken = sketch.occupied()
    pieces: list[Piece] = []
    for length in lengths:
        piece = _place(rng, sketch, taken, length)
        if piece is None:
            break  # full: keep what fits, if that is enough
        pieces.append(piece)
        taken.update(_cells(piece))
    made = replace(sketch, pieces=tuple(pieces))
    if len(pieces) + 1 < s.allowed[0] or (s.trucks is not None and made.trucks() < s.trucks[0]):
        return None
    return made


def packed_bag(rng: random.Random, s: Settings) -> Sketch | None:
    """A won position packed as tight as the settings allow: the walls of :func:`random_bag`, then the
    cells in a random order, each empty one covered by a random vehicle that fits over it, until the
    bag is full.  A random bag on a large board leaves so much room that its cluster runs to millions
    of positions, all close to a win; a packed one has a small cluster, which the climb then loosens
    a vehicle at a time.  None when fewer vehicles fit than the settings allow."""
    sketch = _walled(rng, s)
    if sketch is None:
        return None
    taken = sketch.occupied()
    cells = [(r, c) for r in range(s.height) for c in range(s.width)]
    rng.shuffle(cells)
    pieces: list[Piece] = []
    trucks = 0
    for r, c in cells:
        if len(pieces) + 1 >= s.bag[1]:
            break
        if (r, c) in taken:
            continue
        lengths = (2,) if s.trucks is not None and trucks >= s.trucks[1] else (2, 3)
        options = []
        for length in lengths:
            for k in range(length):
                options.append(Piece(HORIZONTAL, r, c - k, length))
                options.append(Piece(VERTICAL, r - k, c, length))
        fits = [p for p in options if _fits(sketch, taken, p)]
        if fits:
            # trucks first: the bag holds a limited number of vehicles and should cover the board
            long = [p for p in fits if p.length == 3]
            piece = rng.choice(long if long and rng.random() < PACKED_TRUCKS else fits)
            pieces.append(piece)
            taken.update(_cells(piece))
            trucks += piece.length == 3
    made = replace(sketch, pieces=tuple(pieces))
    if len(pieces) + 1 < s.allowed[0] or (s.trucks is not None and trucks < s.trucks[0]):
        return None
    return made


#: boards of more cells than this start from a packed bag (6x6 and smaller from a random one), and
#: the chance that a packed bag takes a truck where one fits
PACKED_FROM = 36
PACKED_TRUCKS = 0.7


def _change(rng: random.Random, s: Settings, sketch: Sketch) -> Sketch | None:
    """One random change of a position: move, add or remove a vehicle, or move a wall."""
    count = len(sketch.pieces) + 1
    pick = rng.random()
    if sketch.walls and pick < 0.1:
        k = rng.randrange(len(sketch.walls))
        rest = sketch.walls[:k] + sketch.walls[k + 1 :]
        spots = _wall_spots(sketch, replace(sketch, walls=rest).occupied())
        return replace(sketch, walls=(*rest, rng.choice(spots))) if spots else None
    if pick < 0.4 and sketch.pieces:
        k = rng.randrange(len(sketch.pieces))
        piece = _place(rng, sketch, sketch.occupied(skip=k), sketch.pieces[k].length)
        if piece is None:
            return None
        return replace(sketch, pieces=sketch.pieces[:k] + (piece,) + sketch.pieces[k + 1 :])
    if pick < 0.8 and count < s.allowed[1]:
        piece = _place(rng, sketch, sketch.occupied(), _truck_length(rng, s, sketch))
        return None if piece is None else replace(sketch, pieces=(*sketch.pieces, piece))
    if count > s.allowed[0]:
        removable = [
            k
            for k, p in enumerate(sketch.pieces)
            if s.trucks is None or p.length != 3 or sketch.trucks() > s.trucks[0]
        ]
        if removable:
            return sketch.without(rng.choice(removable))
    return None


#: method anneal, on a packed bag (not wrap-around) and a target of at least SMALL_FROM moves (see
#: _Try.long): the chance that a change is a small one (see _small_change).  Long targets need the
#: annealing to climb on where it stalls, and a vehicle moved anywhere undoes much of what it built; on
#: short targets the climb is quick and small changes only keep a try among neighbours that fail their
#: checks (docs/benchmarks.md)
SMALL_CHANCE = 0.3
SMALL_FROM = 25


def _small_change(rng: random.Random, s: Settings, sketch: Sketch) -> Sketch | None:
    """One random small change of a position: a vehicle to a neighbouring lane at the same offset, or a
    car made a truck (a truck a car) at either end; None when the one drawn does not fit."""
    if not sketch.pieces:
        return None
    k = rng.randrange(len(sketch.pieces))
    p = sketch.pieces[k]
    if p.orientation == HORIZONTAL:
        options = [p._replace(row=p.row - 1), p._replace(row=p.row + 1)]
    else:
        options = [p._replace(col=p.col - 1), p._replace(col=p.col + 1)]
    other = 5 - p.length
    if (
        s.trucks is None
        or (other == 3 and sketch.trucks() < s.trucks[1])
        or (other == 2 and sketch.trucks() > s.trucks[0])
    ):
        shift = p.length - other  # a truck reaches one cell back, a car starts one cell on
        options.append(p._replace(length=other))
        if p.orientation == HORIZONTAL:
            options.append(p._replace(length=other, col=p.col + shift))
        else:
            options.append(p._replace(length=other, row=p.row + shift))
    rng.shuffle(options)
    taken = sketch.occupied(skip=k)
    for q in options:
        if _fits(sketch, taken, q):
            return replace(sketch, pieces=sketch.pieces[:k] + (q,) + sketch.pieces[k + 1 :])
    return None


# --- one try -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """A verified puzzle: the start position (vehicles named in reading order, the goal car ``A``), its
    optimal solution ``moves`` (``length`` of them, ``steps`` cells in all), the size of its reachable
    set (``cluster``; None when it was too large to explore, see :data:`SOLVER_FROM`), and where it
    came from (``seed``, ``attempt``, ``method``)."""

    board: Board
    moves: tuple[Move, ...]
    cluster: int | None
    seed: int
    attempt: int
    method: str
    #: equal for two puzzles of the same cluster (the layout in a move-invariant naming + cluster key)
    key: Hashable = field(compare=False, repr=False)

    @property
    def length(self) -> int:
        """The number of moves of the optimal solution."""
        return len(self.moves)

    @property
    def solution(self) -> tuple[Move, ...]:
        """The optimal solution: the same as :attr:`moves` (the older name)."""
        return self.moves

    @property
    def steps(self) -> int:
        return sum(abs(m.distance) for m in self.moves)

    @property
    def difficulty(self) -> tuple[int, int]:
        """How hard the puzzle is: its optimal moves, then the size of its reachable set (one too large
        to explore counts as larger than any)."""
        return (self.length, sys.maxsize if self.cluster is None else self.cluster)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the board (one line of text and its size), the optimal solution and the
        puzzle's origin."""
        return {
            "board": board_ref(self.board),
            "length": self.length,
            "steps": self.steps,
            "moves": [str(m) for m in self.moves],
            "cluster": self.cluster,
            "seed": self.seed,
            "attempt": self.attempt,
            "method": self.method,
        }

    def meta(self, name: str | None = None) -> dict[str, str]:
        """The header of the puzzle in a board file."""
        out = {"name": name} if name else {}
        out["moves"] = str(self.length)
        out["steps"] = str(self.steps)
        if self.cluster is not None:
            out["cluster"] = str(self.cluster)
        out["seed"] = str(self.seed)
        out["try"] = str(self.attempt)
        out["method"] = self.method
        return out


@dataclass(frozen=True)
class TryResult:
    """What one try gave: a puzzle, or the reason it was dropped; ``analyses`` counts its searches: the
    rewinds, the solver climb's optima and the vehicle checks."""

    attempt: int
    puzzle: Puzzle | None
    reason: str
    analyses: int


class _OutOfTime(Exception):
    """The run's deadline passed during a try."""


#: the reason of a try cut short by the run's --time-limit (not counted: the run stops there)
OUT_OF_TIME = "stopped at the time limit"
#: the reason of a try whose puzzle, once a vehicle that does not matter is dropped, has a cluster
#: larger than the checks may explore
TOO_LOOSE = "cluster too large without a vehicle that does not matter"
#: the reasons of a try whose hardest distance is out of the range asked for, at once or once a vehicle
#: that does not matter is dropped
OUT_OF_RANGE = "length out of range"
OUT_OF_RANGE_WITHOUT = "length out of range without a vehicle that does not matter"
#: the reason of a try whose vehicle check (does the board need fewer moves without it?) hit its limit
CHECK_TOO_LARGE = "vehicle check too large"
#: the reason of a solver climb (see SOLVER_FROM) that stalled short of its target
SOLVER_SHORT = "solver climb stalled short"
#: the reasons of a finish that stopped at the checks' limits (see ANNEAL_FINISHES)
OVERRUNS = (TOO_LOOSE, CHECK_TOO_LARGE)


class _Try:
    def __init__(self, s: Settings, attempt: int, deadline: float | None = None) -> None:
        self.s = s
        self.attempt = attempt
        self.deadline = deadline  # time.time() by which the run ends, None for no limit
        self.rng = random.Random(f"rushhour-generate:{s.seed}:{attempt}")
        self.limit = (anneal_cluster_limit if s.method == "anneal" else cluster_limit)(s.width, s.height)
        self.analyses = 0
        self.clusters = KnownClusters()  # a try asks about the same positions again and again

    def in_range(self, d: int) -> bool:
        hi = self.s.max_moves
        return d >= self.s.min_moves and (hi is None or d <= hi)

    def score(self, d: int) -> int:
        """The distance, but an overshoot past max_moves counts as far below it."""
        hi = self.s.max_moves
        return d if hi is None or d <= hi else 2 * hi - d

    def energy(self, a: Analysis) -> float:
        """How bad a cluster is for the annealing (lower is better): minus its hardest distance (see
        :meth:`score`), less a fraction of a move for the mean distance of its positions to a win, which
        guides the annealing across changes that keep the hardest distance."""
        return -self.score(a.hardest_distance) - SECONDARY * a.mean_distance / (a.hardest_distance + 1)

    def time_left(self) -> float | None:
        """Seconds until the run's deadline (None without one); :class:`_OutOfTime` once it passed."""
        if self.deadline is None:
            return None
        left = self.deadline - time.time()
        if left <= 0:
            raise _OutOfTime
        return left

    def rewind(self, sketch: Sketch, limit: int | None = None) -> Analysis | None:
        """The cluster of a position; None when it is larger than ``limit`` (by default the cluster
        limit) or holds no win.  An answer the try had already is given again without a search (see
        :class:`KnownClusters`): the same answers, and so the same puzzles of each seed."""
        searches = self.clusters.searches
        try:
            cap = limit or self.limit
            a = self.clusters.analyze(sketch.board(), max_states=cap, time_limit=self.time_left())
        except LimitReachedError:
            self.time_left()  # the deadline, rather than the cluster limit, may have stopped it
            return None
        finally:
            self.analyses += self.clusters.searches - searches
        return a if a.hardest_distance >= 0 else None

    def out(self, reason: str, puzzle: Puzzle | None = None) -> TryResult:
        return TryResult(self.attempt, puzzle, reason, self.analyses)

    @property
    def packed(self) -> bool:
        """Whether tries start from a packed bag (see :data:`PACKED_FROM`)."""
        return self.s.method != "walk" and self.s.width * self.s.height > PACKED_FROM

    @property
    def check_limit(self) -> int:
        """Positions a finishing check may explore: more for packed bags, whose dropped vehicles free
        room (random bags keep the cluster limit, so the 6x6 packs' commands make them again)."""
        if self.s.method == "anneal":
            return int(ANNEAL_CHECK_FACTOR * self.limit)
        return CHECK_FACTOR * self.limit if self.packed else self.limit

    def run(self) -> TryResult:
        try:
            return self._run()
        except _OutOfTime:
            return self.out(OUT_OF_TIME)

    def _run(self) -> TryResult:
        bag = (packed_bag if self.packed else random_bag)(self.rng, self.s)
        if bag is None:
            return self.out("no room for the bag")
        if self.s.method == "walk":
            return self.walk(bag)
        return self.climb(bag)

    def climb(self, bag: Sketch) -> TryResult:
        s, rng = self.s, self.rng
        target = s.min_moves if s.max_moves is None else rng.randint(s.min_moves, s.max_moves)
        if self.solver_climbs(target):
            return self.solver_climb(bag, target)
        a = self.rewind(bag)
        while a is None:  # too loose: add vehicles until the cluster is small enough to explore
            tighter = self.tighter(bag, target)
            if tighter is None:
                return self.out("cluster too large")
            bag = tighter
            a = self.rewind(bag)
        if s.method == "anneal":
            return self.anneal(a, target)
        return self.finish(self.hill_climb(a, target), hardest=True)

    def long(self, target: int) -> bool:
        """Whether a try of method anneal aims long on a crowded board: a packed bag (not wrap-around)
        and a target of :data:`SMALL_FROM` moves or more.  Such tries draw small changes and tighten
        their bag by trucks (:meth:`tighter`); the others, the packs' commands among them, do as
        before."""
        s = self.s
        return s.method == "anneal" and self.packed and not s.wrap and target >= SMALL_FROM

    def tighter(self, bag: Sketch, target: int) -> Sketch | None:
        """``bag`` with one more vehicle, or once none fits (on a :meth:`long` try) a car made a truck:
        a packed 12x12 bag leaves pockets of free cells whose moves multiply its cluster past ten
        million positions, and each cell covered divides it.  None when neither fits."""
        s, rng = self.s, self.rng
        if len(bag.pieces) + 1 < s.allowed[1]:
            piece = _place(rng, bag, bag.occupied(), _truck_length(rng, s, bag))
            if piece is not None:
                return replace(bag, pieces=(*bag.pieces, piece))
        if not self.long(target) or (s.trucks is not None and bag.trucks() >= s.trucks[1]):
            return None
        grown = []
        for k, p in enumerate(bag.pieces):
            if p.length == 2:
                taken = bag.occupied(skip=k)
                back = p._replace(col=p.col - 1) if p.orientation == HORIZONTAL else p._replace(row=p.row - 1)
                for q in (p._replace(length=3), back._replace(length=3)):
                    if _fits(bag, taken, q):
                        grown.append(replace(bag, pieces=bag.pieces[:k] + (q,) + bag.pieces[k + 1 :]))
        return rng.choice(grown) if grown else None

    def hill_climb(self, a: Analysis, target: int) -> Analysis:
        """Method ``rewind``: a random change of the hardest position is kept when the hardest distance
        does not drop, until it reaches the target or :data:`STALL` changes in a row make no progress."""
        s, rng = self.s, self.rng
        best = self.score(a.hardest_distance)
        stalled = 0
        for _ in range(MAX_CHANGES):
            d = a.hardest_distance
            if (self.in_range(d) and d >= target) or stalled >= STALL:
                break
            changed = _change(rng, s, Sketch.of(a.hardest))
            if changed is None:
                stalled += 1
                continue
            b = self.rewind(changed)
            if b is None or self.score(b.hardest_distance) < best:
                stalled += 1
                continue
            stalled = 0 if self.score(b.hardest_distance) > best else stalled + 1
            best = self.score(b.hardest_distance)
            a = b
        return a

    def anneal(self, a: Analysis, target: int) -> TryResult:
        """Simulated annealing from cluster ``a``: a random change of its hardest position is kept when
        it does not make the cluster worse (see :meth:`energy`), or by chance when it does, the more
        likely the less worse and the earlier in the try.  Each cluster met whose hardest distance
        reaches the target is finished (:meth:`finish`); one that fails its checks (a vehicle that does
        not matter and whose removal frees too much room) is left behind and the annealing goes on,
        until a puzzle is made, :data:`ANNEAL_STALL` changes pass without a new best, or
        :data:`ANNEAL_FINISHES` clusters failed their checks at the checks' limits (the boards around
        them mostly do too, and a fresh try is cheaper than their checks: docs/benchmarks.md).  A change
        is rewound up to :meth:`growth_limit`."""
        s, rng = self.s, self.rng
        best, best_e = a, self.energy(a)
        e, since = best_e, 0
        failed: dict[tuple[int, ...], str] = {}  # clusters that reached the target, why their checks failed
        small_changes = self.long(target)
        for step in range(ANNEAL_CHANGES):
            d = a.hardest_distance
            if self.in_range(d) and d >= target and a.cluster_key not in failed:
                done = self.finish(a, hardest=True)
                if done.puzzle is not None:
                    return done
                failed[a.cluster_key] = done.reason
                if sum(why in OVERRUNS for why in failed.values()) >= ANNEAL_FINISHES:
                    return done  # the boards near this one overrun too: a new try does better
            if since >= ANNEAL_STALL:
                break
            since += 1
            small = small_changes and rng.random() < SMALL_CHANCE
            changed = (_small_change if small else _change)(rng, s, Sketch.of(a.hardest))
            b = None if changed is None else self.rewind(changed, self.growth_limit(a))
            if b is None:
                continue
            f = self.energy(b)
            heat = TEMPERATURE * (1 - step / ANNEAL_CHANGES)
            if f > e and (heat <= 0 or rng.random() >= math.exp((e - f) / heat)):
                continue
            a, e = b, f
            if f < best_e:
                best, best_e, since = b, f, 0
        if best.cluster_key in failed:
            # the length was reached: the checks, not the length, dropped the try
            return self.out(failed[best.cluster_key])
        return self.finish(best, hardest=True)

    def solver_climbs(self, target: int) -> bool:
        """Whether the try climbs by the solver instead of rewinding (see :data:`SOLVER_FROM`)."""
        s = self.s
        large = s.width * s.height > SOLVER_FROM and s.walls[1] == 0 and not s.wrap
        return s.method == "anneal" and large and target < SOLVER_BELOW

    def solver_climb(self, bag: Sketch, target: int) -> TryResult:
        """Climb from a random bag (``bag`` if none fits) by the solver: a random
        change (a legal move, or one of the bag's kind) is kept when the optimum of the position it
        makes, proved by :meth:`solver_optimum`, does not drop, until it reaches ``target`` or the climb
        stalls (see :data:`SOLVER_FROM`).  Then :meth:`solver_finish`."""
        s = self.s
        bound = s.max_moves if s.max_moves is not None else target + SOLVER_OVERSHOOT
        fresh = random_bag(self.rng, s)  # a packed bag leaves the climb too little room
        board = (bag if fresh is None else fresh).board()
        for _ in range(SOLVER_SCRAMBLE):  # away from the win first, as method walk does
            after = [there for _, there in board.successors("moves")]
            if not after:
                break
            board = self.rng.choice(after)
        board = Sketch.of(board).board()
        d = self.solver_optimum(board, 0, bound)
        since = 0
        for _ in range(SOLVER_CHANGES):
            if d >= target or since >= SOLVER_STALL:
                break
            since += 1
            trial = self.solver_change(board)
            if trial is None:
                continue
            e = self.solver_optimum(trial, max(d, 0), bound)
            if e < 0:
                continue
            if e > d:
                since = 0
            board, d = trial, e
        if d < target:
            return self.out(SOLVER_SHORT)
        return self.solver_finish(board, d)

    def solver_change(self, board: Board) -> Board | None:
        """A legal move of ``board`` (see :data:`SOLVER_MOVE_CHANCE`), else a change of the bag's kind."""
        if self.rng.random() < SOLVER_MOVE_CHANCE:
            after = [there for _, there in board.successors("moves")]
            return Sketch.of(self.rng.choice(after)).board() if after else None
        changed = _change(self.rng, self.s, Sketch.of(board))
        return None if changed is None else changed.board()

    def solver_optimum(self, board: Board, floor: int, bound: int) -> int:
        """The optimum of ``board`` when it is ``floor`` to ``bound`` moves; -1 when it is shorter or
        longer, the board unsolvable, or the searches stored :data:`SOLVER_STATES` positions first.
        Passes of the compiled frontier search bounded to ``floor - 1``, ``floor``, ``floor + 1``... (at
        least 1: a pass of bound 0 has none; a pass finds a shortest solution when one of at most its
        bound exists, and a tight bound leaves out most positions), one thread; where it does not serve
        the board, the ``bfs`` engine."""
        self.analyses += 1
        tables = tables_for(board.layout, "moves")
        start = tables.pack(board.state)
        if tables.is_won(start):
            return 0 if floor <= 0 else -1
        if frontier_available(tables):
            depths = range(max(floor - 1, 1), bound + 1)
            outcome, length = _passes(tables, start, depths, SOLVER_STATES, self.time_left)
            if outcome == STOPPED:
                self.time_left()  # the deadline, rather than the positions, may have stopped it
            if outcome != UNSERVED:  # else the engine below
                return length if outcome == FOUND and length >= floor else -1
        try:
            found = solve(board, engine="bfs", max_states=SOLVER_STATES, time_limit=self.time_left())
        except LimitReachedError:
            self.time_left()
            return -1
        return found.length if found.solved and floor <= found.length <= bound else -1

    def solver_finish(self, board: Board, d: int) -> TryResult:
        """Make a puzzle of ``board``, whose optimum the climb put at ``d``: a shortest solution found
        again (and replayed), every vehicle that does not matter dropped as :meth:`rescue` does, and
        the solution replayed on the board left, whose optimum the checks proved to be ``d``.  Its
        reachable set is explored when it is small enough after all (then its hardest position is
        finished as any other try's); else the puzzle is the position itself, its reachable set
        unknown."""
        solution = self.solved_again(board, d, "where a pass found them")
        if solution is None:
            return self.out("solver limit")
        kept = self.without_useless(board, solution)
        if kept is None:
            return self.out(CHECK_TOO_LARGE)
        if not self.counts_ok(kept):
            return self.out("a vehicle does not matter")
        b = self.rewind(kept)
        if b is not None:
            return self.finish(b, hardest=True)
        # the optimum of the board left is proven already: the check that dropped its last vehicle
        # found no shorter solution (none dropped: the climb's passes), and the solution, which moves
        # none of the dropped vehicles, still wins there in d moves.  Solving it again instead, with
        # an unbounded search on a board that lost its still vehicles, took 137 s of one 12x12 try.
        start = kept.board()
        moves = _renamed(solution.moves, board, start)
        if not start.replay(moves).is_won():
            went = "the solution does not win once the vehicles that do not matter went"
            raise SolverError(f"{went}: {_picture(start)}")
        return self.out("made", self.puzzle(None, start, moves))

    def solved_again(self, board: Board, d: int, why: str) -> Solution | None:
        """A shortest solution of ``board`` (replayed), which must have ``d`` moves (``why`` says why in
        the :class:`SolverError` when it does not); None when the run's deadline stopped the search."""
        try:
            solution = solve_known(board, d, time_limit=self.time_left())
        except LimitReachedError:
            self.time_left()  # the run's deadline stopped it: _OutOfTime
            return None
        if not solution.solved or solution.length != d:
            found = f"the solver needs {solution.length} moves, not {d} {why}"
            raise SolverError(f"{found}: {_picture(board)}")
        return solution

    def growth_limit(self, a: Analysis) -> int:
        """The cluster limit of a change of ``a``'s hardest position in the annealing: on a packed bag,
        at most :data:`ANNEAL_GROWTH` times ``a``'s cluster (and a thousand positions); rewinds that
        run into the limit were a third of a 9x9 try's time, each as long as the largest cluster."""
        if not self.packed:
            return self.limit
        return min(self.limit, ANNEAL_GROWTH * a.cluster_size + 1000)

    def walk(self, bag: Sketch) -> TryResult:
        from rushhour.logic.oracle import legal_moves

        s, rng = self.s, self.rng
        target = s.min_moves if s.max_moves is None else rng.randint(s.min_moves, s.max_moves)
        board = bag.board()
        for _ in range(rng.randint(4 * target, 12 * target + 8)):
            moves = legal_moves(board)
            if not moves:
                break
            board = board.apply(rng.choice(moves))
        a = self.rewind(Sketch.of(board))
        if a is None:
            return self.out("cluster too large")
        return self.finish(a, hardest=False)

    def finish(self, a: Analysis, *, hardest: bool) -> TryResult:
        """Verify, make every vehicle matter, check the range; ``hardest`` takes the cluster's hardest
        position, else the analysed board itself."""
        for dropped in range(MAX_VEHICLES):
            start = a.hardest if hardest else a.board
            d = a.hardest_distance if hardest else a.start_distance
            if not self.in_range(d):
                return self.out(OUT_OF_RANGE_WITHOUT if dropped else OUT_OF_RANGE)
            try:
                solution = solve_known(start, d, time_limit=self.time_left())
            except LimitReachedError:
                self.time_left()  # the run's deadline stopped it: _OutOfTime
                return self.out("solver limit")
            if not solution.solved or solution.length != d:
                raise SolverError(
                    f"the solver needs {solution.length} moves on a position the analysis puts at {d}: "
                    f"{_picture(start)}"
                )
            useless = self.useless_vehicle(start, solution)
            if useless is None:
                return self.out("made", self.puzzle(a, start, solution.moves))
            if useless < 0:
                return self.rescue(start, solution, CHECK_TOO_LARGE)
            sketch = Sketch.of(start)
            smaller = sketch.without(useless)
            if not self.counts_ok(smaller):
                return self.out("a vehicle does not matter")
            # the puzzle is long already: its checks may explore more than the climb's rewinds
            b = self.rewind(smaller, self.check_limit)
            if b is None:
                return self.rescue(start, solution, TOO_LOOSE)
            a = b
        return self.out(CHECK_TOO_LARGE)

    def rescue(self, start: Board, solution: Solution, reason: str) -> TryResult:
        """Method anneal, when the checks of :meth:`finish` hit their limits (``reason``) on ``start``:
        check the vehicles that ``solution`` leaves still in one pass, with larger limits, dropping each
        one that does not matter as it is found, and analyse the board left once.  A crowded board's
        cluster grows with the first vehicle taken away and often shrinks again when the other free
        vehicles go too, so the one-at-a-time way of :meth:`finish` stops where this one does not.
        Dropping vehicles that do not matter keeps the solution and its length (a vehicle that matters
        still does once another goes: taking vehicles away never lengthens a solution), so the position
        left is a puzzle of the same length; when its cluster holds a harder position, that one is
        finished in turn.  Other methods keep ``reason``: their packs' commands make the same files."""
        if self.s.method != "anneal":
            return self.out(reason)
        kept = self.without_useless(start, solution)
        if kept is None:
            return self.out(reason)
        if not self.counts_ok(kept):
            return self.out("a vehicle does not matter")
        b = self.rewind(kept, RESCUE_CLUSTER_FACTOR * self.limit)
        if b is None:
            return self.out(reason)
        if b.hardest_distance == solution.length:
            # the position left is a hardest one of its cluster, its vehicles checked already
            board = b.board
            return self.out("made", self.puzzle(b, board, _renamed(solution.moves, start, board)))
        return self.finish(b, hardest=True)

    def without_useless(self, board: Board, solution: Solution) -> Sketch | None:
        """``board`` less every vehicle that does not matter (see :meth:`rescue`), None when a check
        hit its limit."""
        moved = {m.vehicle for m in solution.moves}
        pieces = [
            Piece(v.orientation, v.row, v.col, v.length)
            for v in board.vehicles
            if v.name != board.goal and v.name not in moved
        ]
        sketch = Sketch.of(board)
        for piece in pieces:
            smaller = sketch.without(sketch.pieces.index(piece))
            self.analyses += 1
            matters = self.matters(smaller.board(), solution.length, RESCUE_CHECK_FACTOR * self.limit)
            if matters is None:
                return None
            if not matters:
                sketch = smaller
        return sketch

    def counts_ok(self, sketch: Sketch) -> bool:
        """Whether a position still has the vehicles and trucks asked for."""
        s = self.s
        if len(sketch.pieces) + 1 < s.allowed[0]:
            return False
        return s.trucks is None or sketch.trucks() >= s.trucks[0]

    def useless_vehicle(self, board: Board, solution: Solution) -> int | None:
        """The index among the non-goal vehicles (Sketch order) of one that does not matter, None when
        all matter, -1 when a check hit the cluster limit."""
        moved = {m.vehicle for m in solution.moves}
        sketch = Sketch.of(board)
        others = [v for v in board.vehicles if v.name != board.goal]
        for k, v in enumerate(others):
            if v.name in moved:
                continue  # without it, the same solution minus its moves is shorter
            self.analyses += 1
            matters = self.matters(sketch.without(k).board(), solution.length)
            if matters is None:
                return -1
            if not matters:
                return k
        return None

    def matters(self, smaller: Board, length: int, limit: int | None = None) -> bool | None:
        """Whether ``smaller`` (a puzzle of ``length`` moves less a vehicle) has a shorter solution;
        None when the check hit its limit (``limit`` positions, by default :attr:`check_limit`).  Method
        ``anneal`` asks the compiled search bounded to ``length - 1`` moves (when it serves the board),
        the others search ``smaller`` in full."""
        limit = limit or self.check_limit
        if self.s.method == "anneal":
            found = shorter_exists(smaller, length, max_states=limit, time_limit=self.time_left())
            if found is None:
                self.time_left()
            return found
        engine = "astar" if self.packed else "bfs"
        try:
            shorter = solve(smaller, engine=engine, max_states=limit, time_limit=self.time_left())
        except LimitReachedError:
            self.time_left()
            return None
        return shorter.length < length

    def puzzle(self, a: Analysis | None, start: Board, solution: tuple[Move, ...]) -> Puzzle:
        """The puzzle of ``start``, in cluster ``a`` (None: a reachable set too large to explore, when
        the position itself is its key)."""
        named, rename = reading_order(start)
        moves = tuple(Move(rename[m.vehicle], m.distance) for m in solution)
        s = self.s
        if a is None:
            return Puzzle(named, moves, None, s.seed, self.attempt, s.method, (named.layout, named.state))
        key = (a.board.layout, a.cluster_key)
        return Puzzle(named, moves, a.cluster_size, s.seed, self.attempt, s.method, key)


def _renamed(moves: tuple[Move, ...], board: Board, other: Board) -> tuple[Move, ...]:
    """``moves`` of ``board`` with the names that the same vehicles (by their cells) have in ``other``,
    a position holding some of ``board``'s vehicles where they stand in ``board``."""

    def names(b: Board) -> dict[tuple[str, int, int, int], str]:
        return {(v.orientation, v.row, v.col, v.length): v.name for v in b.vehicles}

    theirs = names(other)
    rename = {name: theirs[place] for place, name in names(board).items() if place in theirs}
    return tuple(Move(rename[m.vehicle], m.distance) for m in moves)


def _picture(board: Board) -> str:
    """The rows of ``board`` on one line, its vehicles renamed in reading order: the generator's own
    names (``V00``, ``V01``...) would all show as ``V``."""
    return " ".join(reading_order(board)[0].rows())


#: the outcomes of :func:`_passes`
FOUND, NO_WIN, PASSED, STOPPED, UNSERVED = "found", "no win", "passed", "stopped", "unserved"


def _passes(
    tables: Tables,
    start: int,
    bounds: Iterable[int],
    max_states: int | None,
    seconds: Callable[[], float | None],
) -> tuple[str, int]:
    """Passes of the compiled frontier search from ``start``, bounded to each of ``bounds`` in turn
    until one answers, storing at most ``max_states`` positions in all, ``seconds()`` the time left
    before each pass (None: no limit); one thread, since the generator's jobs share the cores already.
    A pass of bound U finds a shortest solution when one of at most U moves exists, and leaves out
    every position that cannot lead to one.  Returns (outcome, moves): (:data:`FOUND`, the solution's
    moves); (:data:`NO_WIN`, 0) when a pass left nothing out and found no win, none being reachable;
    (:data:`PASSED`, 0) when no bound held a solution; (:data:`STOPPED`, 0) at the limit or the time;
    (:data:`UNSERVED`, 0) where the compiled search does not serve the board."""
    used = 0
    for bound in bounds:
        left = seconds()
        if left is not None and left <= 0:
            return STOPPED, 0
        try:
            limits = Limits(max_states, left)
            status, stored, keys, _, pruned = one_pass(tables, start, limits, bound, used, threads=1)
        except LimitReachedError:  # the time ran out before the pass began
            return STOPPED, 0
        if status < 0:
            return UNSERVED, 0
        if status == 2:
            return STOPPED, 0
        if keys is not None:
            return FOUND, len(keys) - 1
        if not pruned:
            return NO_WIN, 0
        used += stored
    return PASSED, 0


def solve_known(board: Board, distance: int, *, time_limit: float | None = None) -> Solution:
    """A shortest solution of ``board``, whose optimum its cluster's analysis puts at ``distance``: one
    pass of the compiled frontier search bounded to ``distance`` moves (it finds a shortest solution
    when one of at most ``distance`` moves exists, so a wrong ``distance`` shows as a different length
    or none, never as a longer solution) instead of the ``bfs`` engine's passes from bound 1: the same
    solution, in a sixth of the time on the clusters of 9x9 tries.  On the boards where the ``bfs``
    engine does not run the frontier search (6x6 and smaller, wrap-around), that engine: its solutions
    are the ones the packs record.  Raises :class:`LimitReachedError` at the time limit."""
    tables = tables_for(board.layout, "moves")
    if distance < 1 or not frontier_wanted(tables):
        return solve(board, time_limit=time_limit)
    began = time.perf_counter()
    limits = Limits(None, time_limit)
    status, stored, keys, _, _ = one_pass(tables, tables.pack(board.state), limits, distance, threads=1)
    if status == 2:
        raise LimitReachedError(f"stopped by a limit after {stored:,} positions", explored=stored)
    moves = () if keys is None else tuple(moves_of_path(tables, keys))
    if keys is not None and not board.replay(moves).is_won():
        raise SolverError(f"a solution of the bounded search does not win: {_picture(board)}")
    return Solution(
        board, moves, keys is not None, keys is not None, "bfs", "moves", stored, time.perf_counter() - began
    )


def shorter_exists(
    board: Board, length: int, *, max_states: int | None = None, time_limit: float | None = None
) -> bool | None:
    """Whether ``board`` has a solution of fewer than ``length`` moves; None when ``max_states`` or the
    time ran out first.  The compiled frontier search answers when it serves the board: first passes of
    small bounds (1, 1 + :data:`SHORTER_STEP`...) while they store at most :data:`SHORTER_SHARE` of
    ``max_states`` in all, then the pass bounded to ``length - 1`` moves with ``max_states`` of its own.
    A pass of bound U leaves out every position that cannot lead to a solution of U moves, so the
    small passes find a solution much shorter than ``length`` (a vehicle taken away that frees a
    shortcut) at a fraction of the last pass's positions; a board with none pays at most the share
    more (docs/benchmarks.md).  Else a full search answers."""
    if board.is_won():  # the compiled passes look for a win among the moves made, not at the start
        return length > 0
    tables = tables_for(board.layout, "moves")
    if length > 1 and frontier_available(tables):
        began = time.perf_counter()

        def seconds() -> float | None:
            return None if time_limit is None else time_limit - (time.perf_counter() - began)

        start = tables.pack(board.state)
        outcome = PASSED
        early = int(SHORTER_SHARE * max_states) if max_states else 0
        if early:
            outcome, _ = _passes(tables, start, range(1, length - 1, SHORTER_STEP), early, seconds)
            if outcome in (FOUND, NO_WIN):
                return outcome == FOUND
        if outcome != UNSERVED:  # past the share, or no solution so short: the last pass
            outcome, _ = _passes(tables, start, (length - 1,), max_states, seconds)
            if outcome != UNSERVED:
                return None if outcome == STOPPED else outcome == FOUND
    try:
        solution = solve(board, engine="bfs", max_states=max_states, time_limit=time_limit)
    except LimitReachedError:
        return None
    return solution.solved and solution.length < length


def reading_order(board: Board) -> tuple[Board, dict[str, str]]:
    """The board with its goal car named ``A`` and the others ``B``, ``C``... in reading order (by
    their top-left cell, row by row), and the renaming."""
    symbols = iter(ch for ch in VEHICLE_CHARS if ch != "A")
    rename = {board.goal: "A"}
    for v in sorted(board.vehicles, key=lambda v: (v.row, v.col)):
        if v.name != board.goal:
            rename[v.name] = next(symbols)
    vehicles = [replace(v, name=rename[v.name]) for v in board.vehicles]
    return (
        Board(
            board.width,
            board.height,
            vehicles,
            walls=board.walls,
            goal="A",
            exit=board.exit,
            target=board.target,
            wrap=board.wrap,
        ),
        rename,
    )


def attempt(s: Settings, number: int, deadline: float | None = None) -> TryResult:
    """Try number ``number`` of a run with settings ``s`` (already checked): a pure function, unless
    the ``deadline`` (a :func:`time.time`) passes first: then its reason is :data:`OUT_OF_TIME`."""
    if deadline is not None and time.time() >= deadline:
        return TryResult(number, None, OUT_OF_TIME, 0)  # not begun: a try may draw its bag for seconds
    return _Try(s, number, deadline).run()


# --- a run ---------------------------------------------------------------------------------------


@dataclass
class Stats:
    """What a run did so far."""

    tries: int = 0
    made: int = 0
    analyses: int = 0
    seconds: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    stopped: str = ""

    def summary(self) -> str:
        rate = self.made / self.seconds * 60 if self.seconds > 0 else 0.0
        lines = [
            f"made {plural(self.made, 'puzzle')} in {plural(self.tries, 'try', many='tries')}, "
            f"{self.seconds:.1f} s ({rate:.1f} a minute, {plural(self.analyses, 'search', many='searches')})"
        ]
        if self.lengths:
            lines.append(
                "lengths: " + ", ".join(f"{plural(d, 'move')} x{n}" for d, n in sorted(self.lengths.items()))
            )
        dropped = {k: v for k, v in self.reasons.items() if k != "made"}
        if dropped:
            lines.append("dropped: " + ", ".join(f"{k} {v}" for k, v in sorted(dropped.items())))
        if self.stopped:
            lines.append(f"stopped early: {self.stopped}")
        return "\n".join(lines)


#: tries a run on several jobs may have begun past the oldest one it waits for, a job: results are
#: taken in the order of the tries, so a long try holds up those after it, and with too short a lead
#: the other jobs run out of tries and wait too (with 4 a job, a 12x12 run of 15+ moves on 2 jobs did
#: 1 try in a minute where one try took 137 s; with 32, 22: docs/benchmarks.md)
LOOKAHEAD = 32


class Generator:
    """Makes ``count`` distinct puzzles; :attr:`stats` tells how it went."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings.checked()
        self.stats = Stats()

    def run(
        self,
        count: int,
        *,
        jobs: int = 1,
        max_tries: int | None = None,
        time_limit: float | None = None,
        on_try: Callable[[TryResult, Stats], None] | None = None,
    ) -> Iterator[Puzzle]:
        """Yield puzzles in the order of the tries that made them (the same for any ``jobs``)."""
        expect_whole(count, "count")
        expect_whole(jobs, "jobs")
        expect_whole(max_tries, "max_tries", none=True)
        expect_seconds(time_limit, "time_limit")
        if count < 1:
            raise ParameterError(f"{{count}} must be at least 1, not {count}")
        if jobs < 1:
            raise ParameterError(f"{{jobs}} must be at least 1, not {jobs}")
        if max_tries is not None and max_tries < 1:
            raise ParameterError(f"{{max_tries}} must be at least 1, not {max_tries}")
        if time_limit is not None and not 0 < time_limit < math.inf:  # NaN too
            raise ParameterError(f"{{time_limit}} must be a positive number of seconds, not {time_limit}")
        began = time.perf_counter()
        # every search of every try gets the time left, so a try stops at the deadline too
        deadline = None if time_limit is None else time.time() + time_limit
        stats = self.stats
        seen: set[Hashable] = set()
        for outcome in self._outcomes(jobs, max_tries, deadline):
            if outcome.reason == OUT_OF_TIME:
                continue  # cut short: later tries that ended before the deadline still count
            stats.tries += 1
            stats.analyses += outcome.analyses
            reason = outcome.reason
            puzzle = outcome.puzzle
            if puzzle is not None and puzzle.key in seen:
                reason, puzzle = "same cluster as an earlier puzzle", None
            stats.reasons[reason] += 1
            if puzzle is not None:
                seen.add(puzzle.key)
                stats.made += 1
                stats.lengths[puzzle.length] += 1
            stats.seconds = time.perf_counter() - began
            if on_try is not None:
                on_try(outcome, stats)
            if puzzle is not None:
                yield puzzle
            if stats.made >= count:
                break
            if max_tries is not None and stats.tries >= max_tries:
                stats.stopped = f"reached the limit of {max_tries:,} tries"
                break
        else:
            if time_limit is not None and deadline is not None and time.time() >= deadline:
                stats.stopped = f"reached the time limit of {seconds_text(time_limit)} s"
        stats.seconds = time.perf_counter() - began

    def _outcomes(self, jobs: int, max_tries: int | None, deadline: float | None) -> Iterator[TryResult]:
        """The tries' results in the order of their numbers, until ``max_tries`` or the ``deadline``."""
        s = self.settings
        numbers = iter(range(max_tries)) if max_tries is not None else _count()
        if jobs == 1 or not may_start_processes():  # the same tries, in a pool's worker too
            for n in numbers:
                yield attempt(s, n, deadline)
                if deadline is not None and time.time() >= deadline:
                    return
            return
        # the tries still running when the run ends are dropped: its pool ends at once
        with (
            interrupt_as_flag() as interrupted,
            owned_pool(jobs, multiprocessing.get_context(), "making puzzles") as pool,
        ):
            window: deque[Future[TryResult]] = deque()
            for n in numbers:
                if deadline is not None and time.time() >= deadline:
                    break
                window.append(pool.submit(attempt, s, n, deadline))
                if len(window) >= LOOKAHEAD * jobs:
                    yield awaited(window.popleft().result, interrupted)
            if deadline is not None and time.time() >= deadline:
                # the tries not started yet are dropped, the running ones stop at the deadline, and
                # those that ended before it still give their results, in order
                for future in window:
                    future.cancel()
            while window:
                future = window.popleft()
                if not future.cancelled():
                    yield awaited(future.result, interrupted)


def _count() -> Iterator[int]:
    n = 0
    while True:
        yield n
        n += 1


def generate(settings: Settings, count: int, *, jobs: int = 1, max_tries: int | None = None) -> list[Puzzle]:
    """``count`` puzzles (fewer if ``max_tries`` runs out first)."""
    return list(Generator(settings).run(count, jobs=jobs, max_tries=max_tries))


__all__ = [
    "METHODS",
    "Generator",
    "TryResult",
    "Puzzle",
    "Settings",
    "Sketch",
    "Stats",
    "attempt",
    "cluster_limit",
    "generate",
    "max_walls",
    "packed_bag",
    "random_bag",
    "reading_order",
    "shorter_exists",
    "solve_known",
]


def from_database(
    path: str, *, min_moves: int, max_moves: int | None, count: int, seed: int
) -> tuple[list[Puzzle], int]:
    """Up to ``count`` puzzles drawn from a database file (``rushhour enumerate``), uniformly and without
    repeats among its boards of ``min_moves`` to ``max_moves`` moves (a board the file holds twice is one),
    and how many boards that band holds.
    Each one is solved again, and its length must be the database's; its reachable set is explored, and
    its size must be the database's cluster.  An error names the file and the line."""
    from rushhour.database.lines import database_lines
    from rushhour.formats import fogleman, source_name

    if max_moves is not None and max_moves < min_moves:
        raise ParameterError(f"{{max_moves}} {max_moves} is below {{min_moves}} {min_moves}: no length fits")
    source = source_name(path)
    firsts: dict[str, tuple[int, str, int]] = {}  # each board once, however often the file holds it
    lines: dict[str, tuple[int, str]] = {}  # where each board of the band is: its line number and text
    for k, line, entry in database_lines(path):
        if entry[0] >= min_moves and (max_moves is None or entry[0] <= max_moves):
            firsts.setdefault(entry[1], entry)
            lines.setdefault(entry[1], (k, line))
    band = list(firsts.values())
    rng = random.Random(f"rushhour-from-db:{seed}")
    puzzles = []
    for attempt, (moves, text, cluster) in enumerate(rng.sample(band, min(count, len(band))), 1):
        k, line = lines[text]
        board, _ = fogleman.parse_line(line, source=source, line=k)
        where = f"{source}, line {k}: the database gives {text}"
        solution = solve(board)
        if not solution.solved or solution.length != moves:
            found = f"{solution.length} moves" if solution.solved else "no solution"
            raise RushHourError(f"{where} {plural(moves, 'move')}, the solver finds {found}")
        try:  # a reachable set larger than the line says is a wrong line: explored no further
            size = f"{analyze(board, max_states=cluster + 1).cluster_size:,}"
        except LimitReachedError:
            size = f"more than {cluster:,}"
        if size != f"{cluster:,}":
            told = f"a reachable set of {cluster:,} positions, the analysis finds {size}"
            raise RushHourError(f"{where} {told}")
        puzzles.append(Puzzle(board, solution.moves, cluster, seed, attempt, "database", key=text))
    return puzzles, len(band)
