"""A board being drawn: vehicles, walls, the goal vehicle and its exit, changed one edit at a time.

A :class:`Draft` is an immutable value, like a :class:`~rushhour.board.Board`, but it may be a board
that is not valid yet (no vehicles, no goal vehicle, an exit the goal vehicle cannot reach).  Every edit
returns a new draft or raises :class:`EditError` saying why it is refused; the one rule an edit never
breaks is that every vehicle lies on the board and no two things share a cell.  :meth:`Draft.board`
is the board the draft draws, or the :class:`~rushhour.errors.BoardError` saying what is missing.

>>> d = Draft.empty(6, 6).place(2, 0, HORIZONTAL, 2)
>>> d.names, d.goal
(('A',), 'A')
>>> d = d.place(0, 2, VERTICAL, 3)
>>> d.board().rows()[:3]
['..B...', '..B...', 'AAB...']
>>> d.place(1, 1, HORIZONTAL, 2)
Traceback (most recent call last):
...
rushhour.play.draft.EditError: a car at (1,1) would overlap vehicle B at cell (1,2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rushhour.board import HORIZONTAL, MAX_SIDE, MIN_SIDE, SIDES, VERTICAL, Board, Cell, Target, Vehicle
from rushhour.errors import BoardError, RushHourError

#: names given to new vehicles, in order (the goal vehicle is A, as in the published puzzles)
NAME_ORDER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#: the exit sides a goal vehicle can use, by its orientation
EXITS = {HORIZONTAL: ("right", "left"), VERTICAL: ("top", "bottom")}


class EditError(RushHourError):
    """An edit that is refused, and why."""


def noun(length: int) -> str:
    return {2: "car", 3: "truck"}.get(length, f"length-{length} vehicle")


def vehicle_cells(v: Vehicle, width: int, height: int, wrap: bool) -> list[Cell]:
    cells = [(v.row, v.col + k) if v.horizontal else (v.row + k, v.col) for k in range(v.length)]
    return [(r % height, c % width) for r, c in cells] if wrap else cells


@dataclass(frozen=True)
class Draft:
    """What the editor holds: a board that may not be valid yet."""

    width: int
    height: int
    vehicles: tuple[Vehicle, ...] = ()
    walls: frozenset[Cell] = frozenset()
    goal: str = "A"
    exit: str | None = None  # None: the default side for the goal vehicle
    wrap: bool = False
    target: Target | None = None

    @classmethod
    def empty(cls, width: int, height: int) -> Draft:
        for label, side in (("width", width), ("height", height)):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise EditError(f"board {label} {side} is out of range: sides are {MIN_SIDE} to {MAX_SIDE}")
        return cls(width, height)

    @classmethod
    def of(cls, board: Board) -> Draft:
        """The draft of a valid board (its vehicles where they stand now)."""
        exit_ = board.exit
        return cls(
            board.width,
            board.height,
            board.vehicles,
            board.walls,
            board.goal,
            exit_.side if exit_ is not None else None,
            board.wrap,
            board.target,
        )

    # --- reading ----------------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(v.name for v in self.vehicles))

    def vehicle(self, name: str) -> Vehicle | None:
        return next((v for v in self.vehicles if v.name == name), None)

    def cells_of(self, v: Vehicle) -> list[Cell]:
        return vehicle_cells(v, self.width, self.height, self.wrap)

    def owners(self) -> dict[Cell, str]:
        """Who holds each taken cell: a vehicle's name, or ``#`` for a wall."""
        out: dict[Cell, str] = dict.fromkeys(self.walls, "#")
        for v in self.vehicles:
            out.update(dict.fromkeys(self.cells_of(v), v.name))
        return out

    def at(self, cell: Cell) -> str | None:
        return self.owners().get(cell)

    def board(self) -> Board:
        """The board drawn; raises :class:`~rushhour.errors.BoardError` saying what is wrong."""
        goal = self.vehicle(self.goal)
        target = self.target if self.wrap and goal is not None and self._target_fits(goal) else None
        return Board(
            self.width,
            self.height,
            self.vehicles,
            walls=self.walls,
            goal=self.goal,
            exit=None if self.wrap else self.exit,
            target=target,
            wrap=self.wrap,
        )

    def _target_fits(self, goal: Vehicle) -> bool:
        t = self.target
        if t is None:
            return False
        if goal.horizontal:
            return t.heading in ("east", "west") and t.row == goal.row
        return t.heading in ("north", "south") and t.col == goal.col

    def problem(self) -> str | None:
        """Why the draft is not a valid board (None when it is)."""
        try:
            self.board()
        except BoardError as err:
            return str(err)
        return None

    def free_name(self) -> str:
        """The name of a new vehicle: the goal vehicle's while it is missing (``A`` on a new board: the
        new vehicle is the goal), else the first of :data:`NAME_ORDER` that no vehicle has."""
        taken = set(self.names)
        if self.goal not in taken:
            return self.goal
        found = next((n for n in NAME_ORDER if n not in taken), None)
        if found is None:
            raise EditError(f"every name from {NAME_ORDER[0]} to {NAME_ORDER[-1]} is taken")
        return found

    # --- edits ------------------------------------------------------------------------------------
    def _fitted(self, v: Vehicle, what: str) -> None:
        """Refuse a vehicle that leaves the board or meets something (``what`` names it)."""
        span = self.width if v.horizontal else self.height
        if not 2 <= v.length <= span:
            raise EditError(f"{what} cannot be {v.length} cells long: lengths are 2 up to the side ({span})")
        if self.wrap and v.length == span:
            raise EditError(f"{what} would fill its whole lane on a wrap-around board")
        owners = {c: o for c, o in self.owners().items() if o != v.name}
        for r, c in vehicle_cells(v, self.width, self.height, self.wrap):
            if not (0 <= r < self.height and 0 <= c < self.width):
                raise EditError(f"{what} would run off the {self.width}x{self.height} board at ({r},{c})")
            if (r, c) in owners:
                other = "a wall" if owners[(r, c)] == "#" else f"vehicle {owners[(r, c)]}"
                raise EditError(f"{what} would overlap {other} at cell ({r},{c})")

    def place(self, row: int, col: int, orientation: str, length: int, name: str | None = None) -> Draft:
        """A new vehicle with its first cell at (row, col); named with the first free name."""
        row, col = self._wrapped(row, col)
        v = Vehicle(name or self.free_name(), orientation, length, row, col)
        if self.vehicle(v.name) is not None:
            raise EditError(f"there is a vehicle {v.name} already")
        self._fitted(v, f"a {noun(length)} at ({row},{col})")
        return replace(self, vehicles=(*self.vehicles, v))

    def _changed(self, old: Vehicle, new: Vehicle) -> Draft:
        self._fitted(new, f"vehicle {old.name}")
        return replace(self, vehicles=tuple(new if v.name == old.name else v for v in self.vehicles))

    def _need(self, name: str) -> Vehicle:
        v = self.vehicle(name)
        if v is None:
            raise EditError(f"there is no vehicle {name}")
        return v

    def shift(self, name: str, drow: int, dcol: int) -> Draft:
        """Vehicle ``name`` moved by (drow, dcol) cells, in any direction."""
        v = self._need(name)
        row, col = self._wrapped(v.row + drow, v.col + dcol)
        return self._changed(v, replace(v, row=row, col=col))

    def move_to(self, name: str, row: int, col: int) -> Draft:
        v = self._need(name)
        row, col = self._wrapped(row, col)
        return self._changed(v, replace(v, row=row, col=col))

    def _wrapped(self, row: int, col: int) -> Cell:
        """A first cell given past an edge of a wrap-around board, as the cell it stands for."""
        return (row % self.height, col % self.width) if self.wrap else (row, col)

    def rotate(self, name: str) -> Draft:
        """Vehicle ``name`` turned about its first cell."""
        v = self._need(name)
        turned = replace(v, orientation=VERTICAL if v.horizontal else HORIZONTAL)
        return self._changed(v, turned)

    def resize(self, name: str, length: int) -> Draft:
        v = self._need(name)
        return self._changed(v, replace(v, length=length))

    def delete(self, name: str) -> Draft:
        self._need(name)
        return replace(self, vehicles=tuple(v for v in self.vehicles if v.name != name))

    def rename(self, name: str, new: str) -> Draft:
        v = self._need(name)
        if new == name:
            return self
        if not new.isascii() or not new.isalnum():
            raise EditError(f"a name is letters and digits, not {new!r}")
        if self.vehicle(new) is not None:
            raise EditError(f"there is a vehicle {new} already")
        goal = new if self.goal == name else self.goal
        vehicles = tuple(replace(v, name=new) if x is v else x for x in self.vehicles)
        return replace(self, vehicles=vehicles, goal=goal)

    def toggle_wall(self, cell: Cell) -> Draft:
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise EditError(f"cell ({r},{c}) is off the board")
        if cell in self.walls:
            return replace(self, walls=self.walls - {cell})
        owner = self.at(cell)
        if owner is not None:
            raise EditError(f"cell ({r},{c}) holds vehicle {owner}: a wall needs an empty cell")
        return replace(self, walls=self.walls | {cell})

    def make_goal(self, name: str) -> Draft:
        v = self._need(name)
        if name == self.goal:  # already the goal: its exit, or its target, stays
            return self
        side = self.exit if self.exit in EXITS[v.orientation] else None
        return replace(self, goal=name, exit=side, target=None)

    def next_exit(self) -> Draft:
        """The goal vehicle's exit on the other side of its lane."""
        v = self.vehicle(self.goal)
        if v is None:
            raise EditError(f"there is no goal vehicle {self.goal}: choose one with g")
        if self.wrap:
            raise EditError("a wrap-around board has a target, not an exit")
        first, second = EXITS[v.orientation]
        side = self.exit if self.exit in SIDES else first
        return replace(self, exit=second if side == first else first)

    def by_name(self) -> Draft:
        """The same draft with its vehicles in the order of their names: two drafts of the same board
        being drawn are then equal, whatever order the vehicles were placed in (as a kept draft is read
        back)."""
        return replace(self, vehicles=tuple(sorted(self.vehicles, key=lambda v: v.name)))

    def with_positions(self, board: Board) -> Draft:
        """The vehicles where ``board`` (a position of this draft's board) has them."""
        return replace(self, vehicles=board.vehicles)


__all__ = ["EXITS", "Draft", "EditError", "noun", "vehicle_cells"]
