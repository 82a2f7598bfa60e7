"""The board model and the reference rules.

A :class:`Board` is an immutable value: a :class:`Layout` (static facts: size, walls, the vehicles'
names, orientations, lengths and lanes, the goal and its exit) plus one offset per vehicle.  Cells are
``(row, col)`` pairs counted from 0 at the top left.  A vehicle's *lane* is its fixed coordinate (the row
of a horizontal vehicle, the column of a vertical one) and its *offset* the moving one (the column of a
horizontal vehicle's leftmost cell, the row of a vertical vehicle's top cell).

A :class:`Move` slides one vehicle a signed distance, positive toward the right or down.  The reference
move generator (:meth:`Board.legal_moves`) is the source of truth that the SAT oracle and the solvers
are checked against.

The one hook: :meth:`Board.from_text` and :meth:`Board.to_text` read and write every text format, which
lives a layer above (:mod:`rushhour.formats`, which imports this module).  They reach it through
:func:`_formats`, the only import in this module of anything above it, made when a board is first read
or written as text; tests/test_layers.py allows that one edge and no other upward import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Literal

from rushhour.errors import (
    ArgumentTypeError,
    BoardError,
    IllegalMoveError,
    MoveError,
    ParameterError,
    UnknownVehicleError,
    expect,
    whole_number,
)
from rushhour.numbers import is_whole, quoted

Cell = tuple[int, int]


def _formats() -> ModuleType:
    """The hook to the text formats: :mod:`rushhour.formats.single` (``read_one``, ``write_one``),
    imported on first use because the formats build on this module."""
    from rushhour.formats import single

    return single


def _format_names() -> str:
    """The text formats' names as messages list them: ``grid, fogleman, csv, json or rows``."""
    names: str = _formats().FORMAT_NAMES
    return names


Metric = Literal["moves", "steps"]

HORIZONTAL = "H"
VERTICAL = "V"
SIDES = ("right", "left", "top", "bottom")
HEADINGS = ("east", "west", "north", "south")
MIN_SIDE, MAX_SIDE = 3, 16
METRICS = ("moves", "steps")

EMPTY = -1
WALL = -2

_NAME_RE = re.compile(r"[A-Za-z0-9]+\Z")
_MOVE_RE = re.compile(r"\s*([A-Za-z0-9]+)\s*([+-])\s*([0-9]+)\s*\Z")


def _shown(value: object, most: int = 40) -> str:
    """``value`` as a message quotes it: its repr, shortened when it is long."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def cell_text(cell: Cell) -> str:
    """How messages name a cell: ``(row,col)``, counted from 0 at the top left."""
    return f"({cell[0]},{cell[1]})"


def check_metric(metric: str) -> Metric:
    """``metric`` as the searches name it (``"Steps"`` is ``steps``); raises for any other."""
    named = metric.lower() if isinstance(metric, str) else metric
    if named not in METRICS:
        raise MoveError(f"unknown metric {metric!r}: use 'moves' or 'steps'")
    return named  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Vehicle:
    """A vehicle at a position: ``row``/``col`` is its top-left cell."""

    name: str
    orientation: str
    length: int
    row: int
    col: int

    @property
    def horizontal(self) -> bool:
        return self.orientation == HORIZONTAL

    @property
    def kind(self) -> str:
        """``H2``, ``V3``...: orientation and length, the class of its cells in the encoding."""
        return f"{self.orientation}{self.length}"

    @property
    def description(self) -> str:
        noun = {2: "car", 3: "truck"}.get(self.length, f"length-{self.length} vehicle")
        return f"{'horizontal' if self.horizontal else 'vertical'} {noun}"


@dataclass(frozen=True, slots=True)
class Exit:
    """The exit of a bounded board: a side, on the goal vehicle's own line (row or column index)."""

    side: str
    index: int

    def __str__(self) -> str:
        return f"{self.side} {self.index}"


@dataclass(frozen=True, slots=True)
class Target:
    """The goal of a wrap-around board: the goal vehicle's front cell, heading a given way."""

    row: int
    col: int
    heading: str

    def __str__(self) -> str:
        return f"{self.row},{self.col} {self.heading}"


@dataclass(frozen=True, slots=True)
class Move:
    """One vehicle slid a signed distance: positive is right (horizontal) or down (vertical)."""

    vehicle: str
    distance: int

    def __post_init__(self) -> None:
        # every way a move reaches the rules (apply, replay, logic.explain, the players) starts here:
        # a float distance made a Board of state (1.5,) that could be neither drawn nor written
        if not isinstance(self.vehicle, str):
            raise ArgumentTypeError(
                f"a Move's vehicle must be a vehicle name (a str), "
                f"not {type(self.vehicle).__name__} {_shown(self.vehicle)}"
            )
        if not whole_number(self.distance):
            raise ArgumentTypeError(
                f"a Move's distance must be a whole number of cells (an int), "
                f"not {type(self.distance).__name__} {_shown(self.distance)}"
            )

    def __str__(self) -> str:
        return f"{self.vehicle}{self.distance:+d}"

    def __repr__(self) -> str:
        return f"Move({self.vehicle!r}, {self.distance:+d})"

    @property
    def steps(self) -> int:
        return abs(self.distance)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``A+2``, ``B-1``, ``AA+3``; raise :class:`MoveError` naming what is wrong."""
        expect(text, str, "text", "a str like 'A+2'")
        m = _MOVE_RE.match(text)
        if not m:
            raise MoveError(
                f"cannot read move {quoted(text.strip())}: "
                "write a vehicle and a signed distance, like A+2 or B-1"
            )
        if not is_whole(m.group(3)):
            raise MoveError(
                f"move {m.group(1)}{m.group(2)}{m.group(3)[:12]}... slides too far: no board is that long"
            )
        distance = int(m.group(3)) * (1 if m.group(2) == "+" else -1)
        if distance == 0:
            raise MoveError(f"move {text.strip()!r} has distance 0: a move slides at least one cell")
        return cls(m.group(1), distance)


def direction_word(orientation: str, distance: int) -> str:
    if orientation == HORIZONTAL:
        return "right" if distance > 0 else "left"
    return "down" if distance > 0 else "up"


@dataclass(frozen=True, slots=True)
class Layout:
    """The static facts of a board, shared by every position reachable from it."""

    width: int
    height: int
    walls: frozenset[Cell]
    names: tuple[str, ...]
    orientations: tuple[str, ...]
    lengths: tuple[int, ...]
    lanes: tuple[int, ...]
    goal: int
    exit: Exit | None
    target: Target | None
    wrap: bool
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        # a layout is hashed with every position of a search: compute it once
        fields = (self.width, self.height, self.walls, self.names, self.orientations, self.lengths)
        rest = (self.lanes, self.goal, self.exit, self.target, self.wrap)
        object.__setattr__(self, "_hash", hash(fields + rest))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Layout], tuple[object, ...]]:
        # rebuilt through the constructor: string hashes differ from one process to another
        fields = (self.width, self.height, self.walls, self.names, self.orientations, self.lengths)
        return Layout, fields + (self.lanes, self.goal, self.exit, self.target, self.wrap)

    def index(self, name: str) -> int:
        """The index of the vehicle called ``name``: the vehicle of exactly that name, else the one
        whose name differs only in case (``a`` for ``A``); never a guess between two such names."""
        try:
            return self.names.index(name)
        except ValueError:
            pass
        folded = name.casefold()
        found = [k for k, known in enumerate(self.names) if known.casefold() == folded]
        if len(found) == 1:
            return found[0]
        known = ", ".join(self.names)
        why = f"; {' and '.join(self.names[k] for k in found)} differ only in case" if found else ""
        raise UnknownVehicleError(f"no vehicle named {name!r} on this board (vehicles: {known}){why}")

    def vehicle_name(self, name: str) -> str:
        """The board's own spelling of a vehicle name (see :meth:`index`)."""
        return self.names[self.index(name)]

    def span(self, i: int) -> int:
        """How many cells the lane of vehicle ``i`` has."""
        return self.width if self.orientations[i] == HORIZONTAL else self.height

    def cells(self, i: int, offset: int) -> list[Cell]:
        length, lane = self.lengths[i], self.lanes[i]
        if self.orientations[i] == HORIZONTAL:
            if self.wrap:
                return [(lane, (offset + k) % self.width) for k in range(length)]
            return [(lane, offset + k) for k in range(length)]
        if self.wrap:
            return [((offset + k) % self.height, lane) for k in range(length)]
        return [(offset + k, lane) for k in range(length)]

    def won_offset(self, i: int, offset: int) -> bool:
        """Whether vehicle ``i`` at ``offset`` satisfies the goal (only meaningful for the goal)."""
        length = self.lengths[i]
        if self.target is not None:
            t = self.target
            if t.heading in ("east", "west"):
                if self.lanes[i] != t.row:
                    return False
                front = (offset + length - 1) % self.width if t.heading == "east" else offset
                return front == t.col
            if self.lanes[i] != t.col:
                return False
            front = (offset + length - 1) % self.height if t.heading == "south" else offset
            return front == t.row
        assert self.exit is not None
        side = self.exit.side
        if side == "right":
            return offset + length == self.width
        if side == "bottom":
            return offset + length == self.height
        return offset == 0

    @property
    def goal_index(self) -> int:
        """The goal vehicle's index in :attr:`names` (``Board.goal`` is its name)."""
        return self.goal

    def goal_offsets(self) -> list[int]:
        """Every offset of the goal vehicle that wins (one, except on tiny wrap lanes)."""
        g = self.goal
        limit = self.span(g) if self.wrap else self.span(g) - self.lengths[g] + 1
        return [o for o in range(limit) if self.won_offset(g, o)]


@lru_cache(maxsize=256)
def _flat_cells(layout: Layout) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every vehicle and every offset of its lane, its cells as row-major indices."""
    w, wrap = layout.width, layout.wrap
    out = []
    for i, lane in enumerate(layout.lanes):
        length, span = layout.lengths[i], layout.span(i)
        # the index of the cell at each position along the lane
        along = (
            [lane * w + pos for pos in range(span)]
            if layout.orientations[i] == HORIZONTAL
            else [pos * w + lane for pos in range(span)]
        )
        count = span if wrap else span - length + 1
        out.append(tuple(tuple(along[(o + k) % span] for k in range(length)) for o in range(count)))
    return tuple(out)


class Board:
    """An immutable Rush Hour position.  Equal boards hash equal.

    Build one with the constructor (which validates everything) or with :meth:`with_state` from a
    known-good board.  The compact search key is :attr:`state`, one offset per vehicle, in the order
    of :attr:`names` (sorted by name).
    """

    __slots__ = ("layout", "state", "_hash")

    layout: Layout
    state: tuple[int, ...]
    _hash: int

    def __init__(
        self,
        width: int,
        height: int,
        vehicles: Iterable[Vehicle],
        *,
        walls: Iterable[Cell] = (),
        goal: str = "A",
        exit: str | Exit | None = None,
        target: Target | None = None,
        wrap: bool = False,
    ) -> None:
        expect(vehicles, Iterable, "vehicles", "Vehicle records (a list or another iterable)")
        expect(walls, Iterable, "walls", "cells (row, column) (a list or another iterable)")
        layout, state = _validate(width, height, list(vehicles), walls, goal, exit, target, wrap)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "_hash", hash((layout, state)))

    @classmethod
    def from_layout(cls, layout: Layout, state: tuple[int, ...]) -> Board:
        """A position of ``layout`` without re-validation (``state`` must come from legal play)."""
        board = cls.__new__(cls)
        object.__setattr__(board, "layout", layout)
        object.__setattr__(board, "state", state)
        object.__setattr__(board, "_hash", hash((layout, state)))
        return board

    @classmethod
    def from_text(cls, text: str, format: str | None = None) -> Board:
        """The one board of ``text``, in ``format`` or the format detected when it is None.

        Every format the project reads is read: ``grid`` (rows, optionally after ``# key: value``
        headers), ``fogleman`` (a string or a database line), ``csv``, ``json``, and ``rows``: grid rows
        joined by ``/`` on one line; a format's name matches without regard to case.  Raises
        :class:`~rushhour.errors.ParseError` (with the line and column) or :class:`BoardError`; a text
        holding several boards is refused too.

        >>> board = Board.from_text("AA...B/.....B/CC.D../...D../EEE.../......")
        >>> board.width, board.height, board.goal, board.names
        (6, 6, 'A', ('A', 'B', 'C', 'D', 'E'))
        >>> Board.from_text("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo").vehicle("A")
        Vehicle(name='A', orientation='H', length=2, row=2, col=3)
        """
        expect(text, str, "text", "a str")
        expect(format, (str, type(None)), "format", f"a format's name ({_format_names()}) or None")
        board: Board = _formats().read_one(text, format)
        return board

    def to_text(self, format: str = "grid") -> str:
        """The board written in ``format``: ``grid``, ``fogleman``, ``csv``, ``json`` or ``rows``
        (grid rows joined by ``/``).  :meth:`from_text` reads every one of them back as this board,
        except that the Fogleman format names the goal ``A`` and the others ``B``, ``C``... when the
        names are not single capitals with the goal ``A`` (the same cells, relabelled); a format that
        cannot hold the board (walls in CSV, a wrap-around board in Fogleman) raises
        :class:`~rushhour.errors.FormatError`.

        >>> board = Board.from_text("AA...B/.....B/CC.D../...D../EEE.../......")
        >>> board.to_text("fogleman")
        'AAoooBoooooBCCoDoooooDooEEEooooooooo'
        >>> print(board.to_text(), end="")
        AA...B
        .....B
        CC.D..
        ...D..
        EEE...
        ......
        >>> Board.from_text(board.to_text("json")) == board
        True
        >>> small = Board(4, 4, [Vehicle("car", "H", 2, 1, 0), Vehicle("Z", "V", 2, 0, 3)], goal="car")
        >>> small.to_text("fogleman"), Board.from_text(small.to_text("fogleman")).names
        ('oooBAAoBoooooooo', ('A', 'B'))
        """
        expect(format, str, "format", f"a format's name ({_format_names()})")
        text: str = _formats().write_one(self, format)
        return text

    def with_state(self, state: Iterable[int], *, check: bool = True) -> Board:
        """The same layout at other offsets; with ``check`` the position is validated."""
        expect(state, Iterable, "state", "offsets, one a vehicle in the order of names")
        state = tuple(state)
        if check:
            if len(state) != len(self.layout.names):
                count = len(self.layout.names)
                raise BoardError(f"{len(state)} offsets for the {count} vehicles of the board")
            return Board(
                self.width,
                self.height,
                [self._vehicle(i, o) for i, o in enumerate(state)],
                walls=self.walls,
                goal=self.goal,
                exit=self.layout.exit,
                target=self.layout.target,
                wrap=self.wrap,
            )
        return Board.from_layout(self.layout, state)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Board is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.state == other.state and self.layout == other.layout

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"<Board {self.width}x{self.height} {' '.join(self.rows())}>"

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __reduce__(self) -> tuple[object, ...]:
        return (Board.from_layout, (self.layout, self.state))

    # --- static facts -------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.layout.width

    @property
    def height(self) -> int:
        return self.layout.height

    @property
    def walls(self) -> frozenset[Cell]:
        return self.layout.walls

    @property
    def wrap(self) -> bool:
        return self.layout.wrap

    @property
    def names(self) -> tuple[str, ...]:
        return self.layout.names

    @property
    def goal(self) -> str:
        return self.layout.names[self.layout.goal]

    @property
    def exit(self) -> Exit | None:
        return self.layout.exit

    @property
    def target(self) -> Target | None:
        return self.layout.target

    def _vehicle(self, i: int, offset: int) -> Vehicle:
        lay = self.layout
        if lay.orientations[i] == HORIZONTAL:
            return Vehicle(lay.names[i], HORIZONTAL, lay.lengths[i], lay.lanes[i], offset)
        return Vehicle(lay.names[i], VERTICAL, lay.lengths[i], offset, lay.lanes[i])

    @property
    def vehicles(self) -> tuple[Vehicle, ...]:
        return tuple(self._vehicle(i, o) for i, o in enumerate(self.state))

    def vehicle(self, name: str) -> Vehicle:
        expect(name, str, "name", "a vehicle name")
        i = self.layout.index(name)
        return self._vehicle(i, self.state[i])

    def cells_of(self, name: str) -> list[Cell]:
        expect(name, str, "name", "a vehicle name")
        i = self.layout.index(name)
        return self.layout.cells(i, self.state[i])

    # --- derived ------------------------------------------------------------------------------
    def occupancy(self) -> list[int]:
        """Row-major list of ``width*height`` entries: vehicle index, ``EMPTY`` or ``WALL``."""
        lay = self.layout
        w = lay.width
        occ = [EMPTY] * (w * lay.height)
        for r, c in lay.walls:
            occ[r * w + c] = WALL
        for i, cells in enumerate(_flat_cells(lay)):
            for cell in cells[self.state[i]]:
                occ[cell] = i
        return occ

    def at(self, cell: Cell) -> str | None:
        """The vehicle name at ``cell``, ``'#wall'`` for a wall, or None when empty."""
        if not (isinstance(cell, tuple | list) and len(cell) == 2 and all(whole_number(x) for x in cell)):
            raise ArgumentTypeError(
                f"cell must be (row, column), two whole numbers, not {type(cell).__name__} {_shown(cell)}"
            )
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise BoardError(f"cell {cell!r} is off the {self.width}x{self.height} board")
        v = self.occupancy()[r * self.width + c]
        if v == WALL:
            return "#wall"
        return None if v == EMPTY else self.layout.names[v]

    def rows(self, empty: str = ".") -> list[str]:
        """The grid as text rows; vehicle names longer than one character show their first letter, a
        wall is ``x`` and an empty cell ``empty`` (one character)."""
        expect(empty, str, "empty", "one character (a str)")
        if len(empty) != 1:
            raise ParameterError(f"{{empty}} must be one character, not {len(empty)} characters")
        occ = self.occupancy()
        w = self.width
        symbols = [name[0] for name in self.layout.names]
        out = []
        for r in range(self.height):
            line = []
            for c in range(w):
                v = occ[r * w + c]
                line.append(empty if v == EMPTY else "x" if v == WALL else symbols[v])
            out.append("".join(line))
        return out

    def is_won(self) -> bool:
        g = self.layout.goal
        return self.layout.won_offset(g, self.state[g])

    # --- rules --------------------------------------------------------------------------------
    def _reach(self, i: int, occ: list[int]) -> tuple[int, int]:
        """How far vehicle ``i`` can slide (backward, forward) from where it stands."""
        lay = self.layout
        w, h = lay.width, lay.height
        length, lane, offset = lay.lengths[i], lay.lanes[i], self.state[i]
        horizontal = lay.orientations[i] == HORIZONTAL
        span = w if horizontal else h
        reach = []
        for sign in (-1, 1):
            k = 0
            limit = span - length if lay.wrap else (offset if sign < 0 else span - length - offset)
            while k < limit:
                pos = offset - k - 1 if sign < 0 else offset + length + k
                if lay.wrap:
                    pos %= span
                cell = lane * w + pos if horizontal else pos * w + lane
                if occ[cell] != EMPTY:
                    break
                k += 1
            reach.append(k)
        return reach[0], reach[1]

    def legal_moves(self, metric: str = "moves") -> list[Move]:
        """Every legal move, in vehicle order, nearest first.  ``steps`` lists only distance 1.

        These are the reference rules; :func:`rushhour.logic.legal_moves` asks the SAT encoding and
        gives the same list.

        >>> board = Board.from_text("AA.B/...B/CC../....")
        >>> board.legal_moves()
        [Move('A', +1), Move('B', +1), Move('B', +2), Move('C', +1), Move('C', +2)]
        >>> board.legal_moves("steps")
        [Move('A', +1), Move('B', +1), Move('C', +1)]
        """
        metric = check_metric(metric)
        occ = self.occupancy()
        moves: list[Move] = []
        for i, name in enumerate(self.layout.names):
            back, fwd = self._reach(i, occ)
            if metric == "steps":
                back, fwd = min(back, 1), min(fwd, 1)
            moves.extend(Move(name, -d) for d in range(1, back + 1))
            moves.extend(Move(name, d) for d in range(1, fwd + 1))
        return moves

    def successors(self, metric: str = "moves") -> Iterator[tuple[Move, Board]]:
        for move in self.legal_moves(metric):
            yield move, self._slide(self.layout.index(move.vehicle), move.distance)

    def _slide(self, i: int, distance: int) -> Board:
        state = list(self.state)
        new = state[i] + distance
        if self.layout.wrap:
            new %= self.layout.span(i)
        state[i] = new
        return Board.from_layout(self.layout, tuple(state))

    def apply(self, move: Move | str) -> Board:
        """The position after ``move``; :class:`IllegalMoveError` says what blocks an illegal one."""
        expect(move, (Move, str), "move", "a Move or a str like 'A+2'")
        if isinstance(move, str):
            move = Move.parse(move)
        return self._slide(self._checked(move, self.occupancy()), move.distance)

    def replay(self, moves: Iterable[Move | str] | str) -> Board:
        """The position after ``moves`` (or a str of moves between spaces or commas: ``"B+1 A+4"``),
        each checked by the rules of :meth:`apply`.  The occupancy is updated move by move instead of
        rebuilt, so long solutions replay quickly.  An illegal or unreadable move raises the error
        :meth:`apply` gives, prefixed with the move's number.

        >>> board = Board.from_text("AA.B/...B/CC../....")
        >>> board.replay("B+1 A+2").is_won()
        True
        >>> board.replay("B+1, A+1, A2")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        rushhour.errors.MoveError: move 3: cannot read move 'A2': write a vehicle and a signed distance...
        """
        if isinstance(moves, str):
            moves = moves.replace(",", " ").split()
        expect(moves, Iterable, "moves", "moves (Move or 'A+2') or one str of them")
        cells = _flat_cells(self.layout)
        occ = self.occupancy()
        position = self
        for count, move in enumerate(moves, start=1):
            expect(move, (Move, str), "move", "a Move or a str like 'A+2'")
            if isinstance(move, str):
                try:
                    move = Move.parse(move)
                except MoveError as err:  # which of a long list it is, as for an illegal one
                    raise type(err)(f"move {count}: {err}") from None
            try:
                i = position._checked(move, occ)
            except MoveError as err:
                raise type(err)(f"move {count} ({move}): {err}") from None
            for cell in cells[i][position.state[i]]:
                occ[cell] = EMPTY
            position = position._slide(i, move.distance)
            for cell in cells[i][position.state[i]]:
                occ[cell] = i
        return position

    def _checked(self, move: Move, occ: list[int]) -> int:
        """The index of the vehicle ``move`` slides, when the move is legal here (``occ`` is this
        position's occupancy); otherwise the error that says why not."""
        if move.distance == 0:
            raise MoveError(f"move {move} has distance 0: a move slides at least one cell")
        i = self.layout.index(move.vehicle)
        back, fwd = self._reach(i, occ)
        reach = fwd if move.distance > 0 else back
        if abs(move.distance) > reach:
            reason, blocker, cell = self._blocker(i, move.distance, reach)
            raise IllegalMoveError(f"{move} is illegal: {reason}", blocker=blocker, cell=cell)
        return i

    def _blocker(self, i: int, distance: int, reach: int) -> tuple[str, str | None, Cell | None]:
        """Why vehicle ``i`` cannot slide ``distance`` when it can slide ``reach`` that way, in a player's
        words (``B is in the way``, ``a wall is in the way``, ``A would leave the board at the right
        edge``), with what is in the way and its cell (None at an edge)."""
        lay = self.layout
        way = direction_word(lay.orientations[i], distance)
        name = lay.names[i]
        length, offset, span = lay.lengths[i], self.state[i], lay.span(i)
        pos = offset - reach - 1 if distance < 0 else offset + length + reach
        if lay.wrap:
            if reach == span - length:
                most = f"{name} can slide at most {span - length} cells {way} on this wrap-around lane"
                return most, None, None
            pos %= span
        elif pos < 0 or pos >= span:
            edge = {"right": "right", "left": "left", "down": "bottom", "up": "top"}[way]
            can = f"it can slide {reach} {way}" if reach else f"it cannot slide {way} at all"
            return f"{name} would leave the board at the {edge} edge ({can})", None, None
        lane = lay.lanes[i]
        cell = (lane, pos) if lay.orientations[i] == HORIZONTAL else (pos, lane)
        what = self.at(cell) or ""
        if what == "#wall":
            return "a wall is in the way", what, cell
        return f"{what} is in the way", what, cell


def default_target(goal: Vehicle, width: int) -> Target:
    """A wrap-around board's target when none is given: the right edge heading east (horizontal goal),
    the top edge heading north (vertical goal)."""
    return Target(goal.row, width - 1, "east") if goal.horizontal else Target(0, goal.col, "north")


def _validate(
    width: int,
    height: int,
    vehicles: list[Vehicle],
    walls: Iterable[Cell],
    goal: str,
    exit: str | Exit | None,
    target: Target | None,
    wrap: bool,
) -> tuple[Layout, tuple[int, ...]]:
    """The layout and state of a board, each rule checked in turn (the first broken one is raised)."""
    _check_sides(width, height)
    _check_types(vehicles, goal, exit, target, wrap)
    if not vehicles:
        raise BoardError("the board has no vehicles")
    walls = list(walls)
    for cell in walls:
        if not (isinstance(cell, tuple | list) and len(cell) == 2 and all(whole_number(x) for x in cell)):
            raise BoardError(f"wall {cell!r} is not a cell: write (row, column), two whole numbers")
    wall_set = frozenset((r, c) for r, c in walls)
    _check_walls(wall_set, width, height)
    owner: dict[Cell, str] = {cell: "a wall" for cell in wall_set}
    seen: set[str] = set()
    for v in vehicles:
        _check_vehicle(v, seen, width, height, wrap)
        seen.add(v.name)
        _place_vehicle(v, owner, width, height, wrap)
    ordered = sorted(vehicles, key=lambda v: v.name)
    names = tuple(v.name for v in ordered)
    if goal not in seen:
        raise BoardError(f"the goal vehicle {goal} is missing (vehicles: {', '.join(names) or 'none'})")
    g = names.index(goal)
    exit_obj: Exit | None = None
    if wrap:
        target = _check_target(ordered[g], exit, target, width, height)
    else:
        exit_obj = _check_exit(ordered[g], exit, target)
    layout = Layout(
        width=width,
        height=height,
        walls=wall_set,
        names=names,
        orientations=tuple(v.orientation for v in ordered),
        lengths=tuple(v.length for v in ordered),
        lanes=tuple(v.row if v.horizontal else v.col for v in ordered),
        goal=g,
        exit=exit_obj,
        target=target,
        wrap=wrap,
    )
    state = tuple(
        (v.col % width if wrap else v.col) if v.horizontal else (v.row % height if wrap else v.row)
        for v in ordered
    )
    return layout, state


def _check_types(
    vehicles: list[Vehicle], goal: str, exit: str | Exit | None, target: Target | None, wrap: bool
) -> None:
    """The arguments that are not numbers are of their types (a wrong type is a mistake of the caller's,
    said as such, not a board error found later)."""
    for v in vehicles:
        expect(v, Vehicle, "vehicles", "made of Vehicle records")
    expect(goal, str, "goal", "a vehicle name")
    expect(exit, (str, Exit, type(None)), "exit", "a side (right, left, top, bottom), an Exit or None")
    expect(target, (Target, type(None)), "target", "a Target or None")
    expect(wrap, bool, "wrap", "True or False")


def _check_sides(width: int, height: int) -> None:
    """Both sides are whole numbers from MIN_SIDE to MAX_SIDE."""
    for label, side in (("width", width), ("height", height)):
        if not whole_number(side):  # quoted: a width '6' is no 6
            sides = f"sides are whole numbers {MIN_SIDE} to {MAX_SIDE}"
            raise BoardError(f"board {label} {_shown(side)} is out of range: {sides}")
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise BoardError(f"board {label} {side} is out of range: sides are {MIN_SIDE} to {MAX_SIDE}")


def _check_walls(walls: frozenset[Cell], width: int, height: int) -> None:
    """Every wall stands on the board."""
    for r, c in sorted(walls):
        if not (0 <= r < height and 0 <= c < width):
            raise BoardError(f"wall at cell ({r},{c}) is off the {width}x{height} board")


def _check_vehicle(v: Vehicle, seen: set[str], width: int, height: int, wrap: bool) -> None:
    """A vehicle on its own: a new name of letters and digits, an orientation, a length that fits its
    lane (and leaves room to move on a wrap-around lane), a first cell on the board."""
    if not isinstance(v.name, str) or not _NAME_RE.match(v.name):
        raise BoardError(f"vehicle name {v.name!r} is not letters and digits")
    if v.name in seen:
        raise BoardError(f"vehicle {v.name} appears twice")
    if v.orientation not in (HORIZONTAL, VERTICAL):
        raise BoardError(f"vehicle {v.name} has orientation {v.orientation!r}: use H or V")
    for part in ("length", "row", "col"):
        if not whole_number(getattr(v, part)):
            raise BoardError(f"vehicle {v.name} has {part} {getattr(v, part)!r}: a whole number")
    span = width if v.orientation == HORIZONTAL else height
    if not 2 <= v.length <= span:
        raise BoardError(f"vehicle {v.name} has length {v.length}: lengths are 2 up to the side ({span})")
    if wrap and v.length == span:
        raise BoardError(f"vehicle {v.name} fills its whole lane ({v.length} cells) on a wrap-around board")
    if not (0 <= v.row < height and 0 <= v.col < width):
        raise BoardError(f"vehicle {v.name} starts at cell ({v.row},{v.col}), off the board")


def _place_vehicle(v: Vehicle, owner: dict[Cell, str], width: int, height: int, wrap: bool) -> None:
    """Every cell of the vehicle is on the board and free (``owner``: who holds each cell so far)."""
    cells = (
        [(v.row, v.col + k) for k in range(v.length)]
        if v.orientation == HORIZONTAL
        else [(v.row + k, v.col) for k in range(v.length)]
    )
    if wrap:
        cells = [(r % height, c % width) for r, c in cells]
    for cell in cells:
        r, c = cell
        if not (0 <= r < height and 0 <= c < width):
            raise BoardError(f"vehicle {v.name} runs off the {width}x{height} board at cell ({r},{c})")
        if cell in owner:
            raise BoardError(f"vehicle {v.name} overlaps {owner[cell]} at cell ({r},{c})")
        owner[cell] = f"vehicle {v.name}"


def _check_target(
    gv: Vehicle, exit: str | Exit | None, target: Target | None, width: int, height: int
) -> Target:
    """A wrap-around board's target: a known heading, a cell on the board, on the goal vehicle's lane
    and along its axis (the default: :func:`default_target`)."""
    goal = gv.name
    if isinstance(exit, (str, Exit)):
        raise BoardError("a wrap-around board has a target cell and heading, not an exit")
    if target is None:
        target = default_target(gv, width)
    if target.heading not in HEADINGS:
        raise BoardError(f"unknown heading {target.heading!r}: use {', '.join(HEADINGS)}")
    for part in ("row", "col"):
        if not whole_number(getattr(target, part)):
            raise BoardError(f"target has {part} {_shown(getattr(target, part))}: a whole number")
    if not (0 <= target.row < height and 0 <= target.col < width):
        raise BoardError(f"target cell ({target.row},{target.col}) is off the board")
    if gv.horizontal != (target.heading in ("east", "west")):
        raise BoardError(f"goal vehicle {goal} is {gv.description.split()[0]} but heads {target.heading}")
    if gv.horizontal and target.row != gv.row:
        raise BoardError(f"goal vehicle {goal} is on row {gv.row}, not on the target's row {target.row}")
    if not gv.horizontal and target.col != gv.col:
        raise BoardError(
            f"goal vehicle {goal} is in column {gv.col}, not in the target's column {target.col}"
        )
    return target


def _check_exit(gv: Vehicle, exit: str | Exit | None, target: Target | None) -> Exit:
    """A bounded board's exit: a known side along the goal vehicle's axis, lined up with its lane
    (the default: right for a horizontal goal vehicle, top for a vertical one)."""
    goal = gv.name
    if target is not None:
        raise BoardError("a target cell belongs to wrap-around boards; bounded boards have an exit")
    if exit is None:
        exit = "right" if gv.horizontal else "top"
    if isinstance(exit, str):
        if exit not in SIDES:
            raise BoardError(f"unknown exit side {exit!r}: use {', '.join(SIDES)}")
        exit = Exit(exit, gv.row if exit in ("right", "left") else gv.col)
    if exit.side not in SIDES:
        raise BoardError(f"unknown exit side {exit.side!r}: use {', '.join(SIDES)}")
    if not whole_number(exit.index):
        raise BoardError(f"exit on the {exit.side} edge has index {_shown(exit.index)}: a whole number")
    along_rows = exit.side in ("right", "left")
    if gv.horizontal != along_rows:
        raise BoardError(
            f"goal vehicle {goal} is {'horizontal' if gv.horizontal else 'vertical'}, "
            f"so it cannot leave through the {exit.side} edge"
        )
    line = gv.row if along_rows else gv.col
    if exit.index != line:
        what = "row" if along_rows else "column"
        raise BoardError(
            f"goal vehicle {goal} is on {what} {line}, not lined up with the exit on "
            f"{what} {exit.index} of the {exit.side} edge"
        )
    return exit
