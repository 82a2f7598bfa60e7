"""Rush Hour as propositional logic, written with bauhaus on python-nnf.

One :class:`RulesEncoding` describes every position of one board *shape* (size, wrap-around or not,
where the goal must stand, the goal vehicle's kind and the kinds of the other vehicles).  A position is
then a set of *facts*: for every cell its state proposition and, on vehicle cells, its part proposition.
Every other proposition (vehicle ends, one-cell moves ``CM*``, slides, ``Won``) is defined by
implications in both directions, so the facts force it.  ``docs/encoding.md`` gives every formula.

Proposition families (cells are ``(row, col)``, 0-based from the top left):

* state, exactly one per cell: ``Empty``, ``Wall``, ``Red`` (the goal vehicle), ``H2``, ``H3``, ``V2``,
  ``V3`` and ``Hk``/``Vk`` for any other length on the board;
* part: ``Part0`` .. ``Part{m-1}``: which cell of its vehicle this is, counted from the top/left;
* ends: ``EndR``/``EndL`` (right/left cell of a horizontal vehicle), ``EndD``/``EndU`` (vertical);
* one-cell moves: ``CMR``, ``CML``, ``CMU``, ``CMD``: the cell is the leading cell (the front cell in
  that direction) of a vehicle that can move one cell that way;
* slides: ``SlideR(i,j,s)`` (s >= 2): the vehicle led by (i,j) can slide s cells right, and so on;
* ``Won(i,j)`` for the goal cell and ``Won``.

Variables are numbered in a fixed order (family, row, column, distance), never by hash, so the CNF and
its DIMACS text are identical in every process.
"""

from __future__ import annotations

import gc
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import nnf
from bauhaus import Encoding, constraint, proposition
from bauhaus.core import CustomNNF

from rushhour.board import HORIZONTAL, VERTICAL, Board, Layout, Target, Vehicle
from rushhour.errors import BoardError
from rushhour.logic import counter
from rushhour.logic import notation as fm

Cell = tuple[int, int]
Kind = tuple[str, int]

#: the move directions: right, left, up, down
DIRECTIONS = ("R", "L", "U", "D")
DELTA: dict[str, Cell] = {"R": (0, 1), "L": (0, -1), "U": (-1, 0), "D": (1, 0)}
AXIS = {"R": HORIZONTAL, "L": HORIZONTAL, "U": VERTICAL, "D": VERTICAL}
SIGN = {"R": 1, "L": -1, "U": -1, "D": 1}
WORD = {"R": "right", "L": "left", "U": "up", "D": "down"}
EDGE = {"R": "right", "L": "left", "U": "top", "D": "bottom"}
#: the kinds every shape has, whether or not a board uses them
BASE_KINDS: tuple[Kind, ...] = ((HORIZONTAL, 2), (HORIZONTAL, 3), (VERTICAL, 2), (VERTICAL, 3))

FAMILY_ORDER = (
    "Empty",
    "Wall",
    "Red",
    "kind",
    "Part",
    "EndR",
    "EndL",
    "EndU",
    "EndD",
    "CMR",
    "CML",
    "CMU",
    "CMD",
    "SlideR",
    "SlideL",
    "SlideU",
    "SlideD",
    "Won",
)


def kind_label(kind: Kind) -> str:
    return f"{kind[0]}{kind[1]}"


def direction_of(orientation: str, distance: int) -> str:
    if orientation == HORIZONTAL:
        return "R" if distance > 0 else "L"
    return "D" if distance > 0 else "U"


def cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


@dataclass(frozen=True)
class Shape:
    """What the rules depend on.  Walls are not part of it: a wall is a fact, like a vehicle."""

    width: int
    height: int
    wrap: bool
    goal_kind: Kind
    goal_line: int
    won_cell: Cell
    won_part: int
    kinds: tuple[Kind, ...]
    goal_text: str

    @classmethod
    def of(cls, board: Board | Layout) -> Shape:
        lay = board.layout if isinstance(board, Board) else board
        g = lay.goal
        goal_kind = (lay.orientations[g], lay.lengths[g])
        length = lay.lengths[g]
        if lay.target is not None:
            t = lay.target
            won_cell = (t.row, t.col)
            won_part = length - 1 if t.heading in ("east", "south") else 0
            goal_text = f"target {t.row},{t.col} {t.heading}"
        else:
            assert lay.exit is not None
            side, line = lay.exit.side, lay.exit.index
            won_cell = {
                "right": (line, lay.width - 1),
                "left": (line, 0),
                "bottom": (lay.height - 1, line),
                "top": (0, line),
            }[side]
            won_part = length - 1 if side in ("right", "bottom") else 0
            goal_text = f"exit {side} {line}"
        others = {(lay.orientations[i], lay.lengths[i]) for i in range(len(lay.names)) if i != g}
        return cls(
            width=lay.width,
            height=lay.height,
            wrap=lay.wrap,
            goal_kind=goal_kind,
            goal_line=lay.lanes[g],
            won_cell=won_cell,
            won_part=won_part,
            kinds=_kinds(lay.width, lay.height, lay.wrap, others),
            goal_text=goal_text,
        )

    @classmethod
    def generic(cls, width: int, height: int) -> Shape:
        """A bounded board with a horizontal red car leaving on the right of the middle row (row 2 of
        a 6x6 board) and cars and trucks of both orientations."""
        for label, side in (("width", width), ("height", height)):
            if not 3 <= side <= 16:
                raise BoardError(f"board {label} {side} is out of range: sides are 3 to 16")
        line = (height - 1) // 2
        return cls(
            width=width,
            height=height,
            wrap=False,
            goal_kind=(HORIZONTAL, 2),
            goal_line=line,
            won_cell=(line, width - 1),
            won_part=1,
            kinds=_kinds(width, height, False, set()),
            goal_text=f"exit right {line}",
        )

    def span(self, orientation: str) -> int:
        return self.width if orientation == HORIZONTAL else self.height

    def describe(self) -> str:
        kinds = " ".join(kind_label(k) for k in self.kinds)
        return (
            f"{self.width}x{self.height}{' wrap-around' if self.wrap else ''}, "
            f"goal {kind_label(self.goal_kind)} ({self.goal_text}), kinds {kinds}"
        )


def _kinds(width: int, height: int, wrap: bool, present: set[Kind]) -> tuple[Kind, ...]:
    def fits(kind: Kind) -> bool:
        span = width if kind[0] == HORIZONTAL else height
        return kind[1] < span if wrap else kind[1] <= span

    return tuple(sorted(k for k in set(BASE_KINDS) | present if fits(k)))


@dataclass(frozen=True)
class Constraint:
    """One constraint of the rules as it was written: its family (``CMR``), the family's title, the
    formula in the notation of :mod:`rushhour.logic.notation`, and the clauses bauhaus compiled it to
    (the solver's clauses are the union of these)."""

    family: str
    title: str
    formula: fm.Formula
    clauses: tuple[tuple[int, ...], ...]

    @property
    def text(self) -> str:
        return fm.show(self.formula)


class _Prop:
    """Base of every proposition class: a family name and integer arguments."""

    family = ""

    def __init__(self, *args: int) -> None:
        self.args = args
        self.name = f"{self.family}({','.join(str(a) for a in args)})" if args else self.family

    def _prop_name(self) -> str:
        return self.name


@dataclass
class RulesEncoding:
    """The rules of one shape compiled to CNF over integers, with the names of the propositions.

    The bauhaus :class:`~bauhaus.Encoding` is built, compiled and dropped by :func:`build` (while it
    is built, ``build`` holds strong references to every proposition: bauhaus keeps weak ones)."""

    shape: Shape
    #: variable number - 1 -> proposition name
    names: list[str]
    ids: dict[str, int]
    clauses: list[tuple[int, ...]]
    #: proposition class -> names, in variable order
    classes: dict[str, list[str]]
    #: constraint family -> number of constraints added to the bauhaus encoding
    constraints: dict[str, int]
    #: state labels in order: Empty, Wall, Red, then the kinds
    states: tuple[str, ...]
    max_length: int
    #: (direction, cell) -> [CM var, Slide 2 var, Slide 3 var, ...]
    reach_vars: dict[tuple[str, Cell], list[int]] = field(default_factory=dict)
    #: every constraint in the order the families add them
    written: list[Constraint] = field(default_factory=list)

    # --- lookups ------------------------------------------------------------------------------
    @staticmethod
    def is_a_family(name: str) -> bool:
        """Whether ``name`` is a family of propositions on some shape (``V3``, ``Part2``, ``SlideU``),
        had by this one or not."""
        if name in FAMILY_ORDER:
            return name not in ("kind", "Part")
        return re.fullmatch(r"[HV][1-9][0-9]?|Part[0-9]{1,2}", name) is not None

    def var(self, name: str) -> int:
        return self.ids[name]

    def state_var(self, state: str, cell: Cell) -> int:
        return self.ids[f"{state}{cell_text(cell)}"]

    def part_var(self, part: int, cell: Cell) -> int:
        return self.ids[f"Part{part}{cell_text(cell)}"]

    def literal_text(self, literal: int) -> str:
        name = self.names[abs(literal) - 1]
        return name if literal > 0 else f"~{name}"

    def vehicle_state(self, layout: Layout, i: int) -> str:
        if i == layout.goal:
            return "Red"
        return kind_label((layout.orientations[i], layout.lengths[i]))

    def check_layout(self, layout: Layout) -> None:
        if Shape.of(layout) != self.shape:
            raise BoardError(f"this board does not have the shape {self.shape.describe()}")

    def vehicle_facts(self, layout: Layout, i: int, offset: int) -> list[int]:
        """The state and part literals of vehicle ``i`` standing at ``offset``."""
        state = self.vehicle_state(layout, i)
        out = []
        for part, cell in enumerate(layout.cells(i, offset)):
            out.append(self.state_var(state, cell))
            out.append(self.part_var(part, cell))
        return out

    def facts(self, board: Board) -> list[int]:
        """The position as positive literals: one state per cell, one part per vehicle cell."""
        self.check_layout(board.layout)
        lay = board.layout
        out: list[int] = []
        covered: set[Cell] = set(lay.walls)
        for cell in sorted(lay.walls):
            out.append(self.state_var("Wall", cell))
        for i, offset in enumerate(board.state):
            out.extend(self.vehicle_facts(lay, i, offset))
            covered.update(lay.cells(i, offset))
        for r in range(lay.height):
            for c in range(lay.width):
                if (r, c) not in covered:
                    out.append(self.state_var("Empty", (r, c)))
        return out

    def decode(self, model: Sequence[int] | set[int]) -> Board:
        """The position a model describes (vehicles named A for the goal, then B, C, ...)."""
        shape = self.shape
        true = set(model)
        walls = []
        vehicles: list[Vehicle] = []
        letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ" + "abcdefghijklmnopqrstuvwxyz")
        cells = [(r, c) for r in range(shape.height) for c in range(shape.width)]
        for cell in cells:
            state = next(s for s in self.states if self.state_var(s, cell) in true)
            if state == "Wall":
                walls.append(cell)
            if state in ("Empty", "Wall") or self.part_var(0, cell) not in true:
                continue
            if state == "Red":
                orientation, length = shape.goal_kind
                name = "A"
            else:
                orientation, length = state[0], int(state[1:])
                name = next(letters, None) or f"v{len(vehicles)}"
            vehicles.append(Vehicle(name, orientation, length, cell[0], cell[1]))
        if shape.wrap:
            o = shape.goal_kind[0]
            heading = (
                ("east" if shape.won_part else "west")
                if o == HORIZONTAL
                else ("south" if shape.won_part else "north")
            )
            target = Target(shape.won_cell[0], shape.won_cell[1], heading)
            return Board(shape.width, shape.height, vehicles, walls=walls, goal="A", target=target, wrap=True)
        r, c = shape.won_cell
        if shape.goal_kind[0] == HORIZONTAL:
            side = "right" if c == shape.width - 1 and shape.won_part else "left"
        else:
            side = "bottom" if r == shape.height - 1 and shape.won_part else "top"
        return Board(shape.width, shape.height, vehicles, walls=walls, goal="A", exit=side)

    def dimacs(self, extra_units: Iterable[int] = (), comment: str = "") -> str:
        """DIMACS CNF text: a ``c`` line naming every variable, the rules grouped by family (a ``c`` line
        before each family and before each constraint's clauses, the constraint in the notation), then
        ``extra_units`` as unit clauses.  A clause two constraints share is written under the first."""
        units = [(lit,) for lit in extra_units]
        lines = [f"c {line}".rstrip() for line in comment.splitlines()]
        lines.extend(f"c {k} {name}" for k, name in enumerate(self.names, start=1))
        lines.append(f"p cnf {len(self.names)} {len(self.clauses) + len(units)}")
        written: set[tuple[int, ...]] = set()
        title = ""
        for item in self.written:
            if item.title != title:
                title = item.title
                lines.append(f"c family {title}")
            fresh = [cl for cl in item.clauses if cl not in written]
            written.update(fresh)
            lines.append(f"c {item.family}: {item.text}" + ("" if fresh else "  (clauses above)"))
            lines.extend(" ".join(str(lit) for lit in clause) + " 0" for clause in fresh)
        if units:
            lines.append("c the position's facts")
        lines.extend(f"{lit} 0" for (lit,) in units)
        return "\n".join(lines) + "\n"

    def count_solutions(self, claim: str | fm.Formula | None = None, *, walls: bool = False) -> int:
        """The exact number of models of these rules (with ``claim``; walls only if ``walls``), as
        Bauhaus's ``Encoding.count_solutions``: see :func:`rushhour.logic.counter.count_rules`."""
        return counter.count_rules(self, claim, walls=walls)

    def likelihood(
        self, formula: str | fm.Formula, claim: str | fm.Formula | None = None, *, walls: bool = False
    ) -> Fraction:
        """The exact share of those models where ``formula`` holds, as Bauhaus's ``likelihood``."""
        return counter.odds_rules(self, claim, [formula], walls=walls)[1][0]

    def families(self) -> list[str]:
        """The constraint families (``S``, ``P1`` .. ``CMR`` .. ``W``) in the order they are added."""
        return list(dict.fromkeys(item.family for item in self.written))

    def select(
        self, families: Sequence[str] = (), cell: Cell | None = None, about: str | None = None
    ) -> list[Constraint]:
        """The constraints of the given families (any, when none is given; case does not matter) that
        name a proposition of ``cell`` and the proposition ``about``."""
        known = {f.lower(): f for f in self.families()}
        wanted = set()
        for name in families:
            if name.lower() not in known:
                raise BoardError(
                    f"no constraint family {name!r}: the families are {', '.join(known.values())}"
                )
            wanted.add(known[name.lower()])
        if cell is not None and not (0 <= cell[0] < self.shape.height and 0 <= cell[1] < self.shape.width):
            raise BoardError(
                f"cell {cell_text(cell)} is off the {self.shape.width}x{self.shape.height} board"
            )
        out = []
        for item in self.written:
            if wanted and item.family not in wanted:
                continue
            names = set(fm.atoms(item.formula))
            if about is not None and about not in names:
                continue
            if cell is not None and not any(_at_cell(name, cell) for name in names):
                continue
            out.append(item)
        return out

    def theory(self) -> nnf.And:
        """The rules as an nnf CNF sentence over the proposition names (for nnf's own solvers)."""
        return nnf.And(
            nnf.Or(nnf.Var(self.names[abs(lit) - 1], lit > 0) for lit in clause) for clause in self.clauses
        )


def _at_cell(name: str, cell: Cell) -> bool:
    """Whether the proposition ``name`` (``SlideR(2,1,3)``) is about ``cell`` (its first two arguments)."""
    return name.endswith(f"({cell[0]},{cell[1]})") or f"({cell[0]},{cell[1]}," in name


# --- building -------------------------------------------------------------------------------------
def _step(shape: Shape, cell: Cell, direction: str, distance: int = 1) -> Cell | None:
    dr, dc = DELTA[direction]
    r, c = cell[0] + dr * distance, cell[1] + dc * distance
    if shape.wrap:
        return r % shape.height, c % shape.width
    if 0 <= r < shape.height and 0 <= c < shape.width:
        return r, c
    return None


def _max_slide(shape: Shape, cell: Cell, direction: str, min_length: int) -> int:
    """The largest distance a vehicle whose leading cell is ``cell`` could ever slide that way."""
    orientation = AXIS[direction]
    span = shape.span(orientation)
    if shape.wrap:
        return span - min_length
    r, c = cell
    return {"R": span - 1 - c, "L": c, "U": r, "D": span - 1 - r}[direction]


def build(shape: Shape) -> RulesEncoding:
    """The bauhaus encoding of ``shape``, compiled once to CNF."""
    # Tens of thousands of small objects are made and all stay alive: the cyclic garbage collector
    # would walk them again and again (it triples the time on a 12x12 board) and find nothing.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _build(shape)
    finally:
        if was_enabled:
            gc.enable()


def _build(shape: Shape) -> RulesEncoding:
    b = _Builder(shape)
    # state and part propositions first, so that their variables come first
    for cell in b.cells:
        for s in b.states:
            b.prop(s, *cell)
    for cell in b.cells:
        for p in range(b.max_len):
            b.prop(f"Part{p}", *cell)
    _exactly_one_state(b)
    _parts(b)
    _runs(b)
    _goal_vehicle(b)
    for d in DIRECTIONS:
        _ends(b, d)
    chains: dict[tuple[str, Cell], list[Any]] = {}
    for d in DIRECTIONS:
        _one_cell_moves(b, d, chains)
        _slides(b, d, chains)
    _won(b)
    return _compile(b, chains)


class _Builder:
    """The bauhaus encoding of a shape while it is built: its propositions (held strongly, bauhaus
    keeps weak references), the number of constraints of each family, and the shape's facts that
    every family uses."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.E = Encoding()
        self.props: dict[tuple[str, tuple[int, ...]], Any] = {}
        self.counts: dict[str, int] = {}
        self._factories: dict[str, Any] = {}
        #: (group, bauhaus formula) or (group, builder kind, propositions), in the order added
        self.records: list[tuple[str, Any, tuple[Any, ...]]] = []
        self.cells: list[Cell] = [(r, c) for r in range(shape.height) for c in range(shape.width)]
        goal_o, goal_len = shape.goal_kind
        self.states: tuple[str, ...] = ("Empty", "Wall", "Red", *(kind_label(k) for k in shape.kinds))
        #: every vehicle state with its orientation and length (Red has the goal's)
        self.vehicle_states: list[tuple[str, str, int]] = [("Red", goal_o, goal_len)] + [
            (kind_label(k), k[0], k[1]) for k in shape.kinds
        ]
        self.max_len = max(length for _, _, length in self.vehicle_states)

    def prop(self, name: str, *args: int) -> Any:
        found = self.props.get((name, args))
        if found is None:
            factory = self._factories.get(name)
            if factory is None:
                factory = self._factories[name] = proposition(self.E)(type(name, (_Prop,), {"family": name}))
            found = self.props[(name, args)] = factory(*args)
        return found

    def add(self, group: str, formula: Any) -> None:
        self.E.add_constraint(formula)
        self.records.append((group, formula, ()))
        self.counts[group] = self.counts.get(group, 0) + 1

    def add_builder(self, group: str, kind: Any, items: list[Any]) -> None:
        if items:
            kind(self.E, items)
            self.records.append((group, kind.__name__.removeprefix("add_"), tuple(items)))
            self.counts[group] = self.counts.get(group, 0) + 1

    def on_goal_lane(self, cell: Cell) -> bool:
        shape = self.shape
        return (cell[0] if shape.goal_kind[0] == HORIZONTAL else cell[1]) == shape.goal_line


def _exactly_one_state(b: _Builder) -> None:
    """S: exactly one state per cell."""
    for cell in b.cells:
        b.add_builder(
            "S: exactly one state per cell", constraint.add_exactly_one, [b.prop(s, *cell) for s in b.states]
        )


def _parts(b: _Builder) -> None:
    """P1: at most one part per cell; P2: a vehicle cell has a part; P3: a part belongs to a vehicle
    long enough to have it."""
    for cell in b.cells:
        parts = [b.prop(f"Part{p}", *cell) for p in range(b.max_len)]
        b.add_builder("P1: at most one part per cell", constraint.add_at_most_one, parts)
        for label, _o, length in b.vehicle_states:
            b.add("P2: a vehicle cell has a part", b.prop(label, *cell) >> _any(parts[:length]))
        for p in range(b.max_len):
            owners = [b.prop(label, *cell) for label, _o, length in b.vehicle_states if length > p]
            b.add("P3: part p belongs to a vehicle of length > p", parts[p] >> _any(owners))


def _runs(b: _Builder) -> None:
    """R1: vehicles are whole runs of cells (part p is followed by part p+1 and preceded by part p-1 of
    the same state); R2: no vehicle runs off the board."""
    off_board: list[Any] = []
    for cell in b.cells:
        for label, o, length in b.vehicle_states:
            if label == "Red" and not b.on_goal_lane(cell):
                continue
            forward, backward = ("R", "L") if o == HORIZONTAL else ("D", "U")
            for p in range(length):
                nxt = _step(b.shape, cell, forward) if p < length - 1 else cell
                prv = _step(b.shape, cell, backward) if p > 0 else cell
                if nxt is None or prv is None:
                    off_board.append(b.prop(label, *cell) & b.prop(f"Part{p}", *cell))
                    continue
                needs = []
                if p < length - 1:
                    needs += [b.prop(label, *nxt), b.prop(f"Part{p + 1}", *nxt)]
                if p > 0:
                    needs += [b.prop(label, *prv), b.prop(f"Part{p - 1}", *prv)]
                if needs:
                    b.add(
                        "R1: vehicles are whole runs of cells",
                        (b.prop(label, *cell) & b.prop(f"Part{p}", *cell)) >> _all(needs),
                    )
    for item in off_board:
        b.add("R2: no vehicle runs off the board", ~item)


def _goal_vehicle(b: _Builder) -> None:
    """G1: the red car stays on its lane; G2: there is a red car; G3: only one red car."""
    lane = [cell for cell in b.cells if b.on_goal_lane(cell)]
    b.add_builder(
        "G1: the red car stays on its lane",
        constraint.add_none_of,
        [b.prop("Red", *cell) for cell in b.cells if not b.on_goal_lane(cell)],
    )
    b.add("G2: there is a red car", _any(b.prop("Red", *cell) for cell in lane))
    for first, second in itertools.combinations(lane, 2):
        b.add(
            "G3: only one red car",
            (b.prop("Red", *first) & b.prop("Part0", *first) & b.prop("Red", *second))
            >> ~b.prop("Part0", *second),
        )


def _ends(b: _Builder, d: str) -> None:
    """End{d}: the cell is the end of a vehicle in direction ``d`` (an equivalence written as three
    implications)."""
    mine = [(label, length) for label, vo, length in b.vehicle_states if vo == AXIS[d]]
    group = f"End{d}: the {EDGE[d]} end of a vehicle"
    if not mine:
        b.add_builder(group, constraint.add_none_of, [b.prop(f"End{d}", *cell) for cell in b.cells])
        return
    for cell in b.cells:
        end = b.prop(f"End{d}", *cell)
        for label, length in mine:
            part = b.prop(f"Part{length - 1 if d in ('R', 'D') else 0}", *cell)
            b.add(group, (b.prop(label, *cell) & part) >> end)
            b.add(group, (end & b.prop(label, *cell)) >> part)
        b.add(group, end >> _any(b.prop(label, *cell) for label, _ in mine))


def _one_cell_moves(b: _Builder, d: str, chains: dict[tuple[str, Cell], list[Any]]) -> None:
    """CM{d}: the vehicle led by a cell can move one cell in direction ``d``; each cell's chain of
    reach propositions starts with it."""
    group = f"CM{d}: the vehicle led by (i,j) can move one cell {WORD[d]}"
    stuck = []
    for cell in b.cells:
        cm = b.prop(f"CM{d}", *cell)
        chains[(d, cell)] = [cm]
        nxt = _step(b.shape, cell, d)
        if nxt is None:
            stuck.append(cm)
            continue
        end = b.prop(f"End{d}", *cell)
        b.add(group, cm >> (end & b.prop("Empty", *nxt)))
        b.add(group, (end & b.prop("Empty", *nxt)) >> cm)
    b.add_builder(group, constraint.add_none_of, stuck)


def _slides(b: _Builder, d: str, chains: dict[tuple[str, Cell], list[Any]]) -> None:
    """Slide{d}: the vehicle led by a cell can slide s >= 2 cells in direction ``d``, defined from the
    slide of s - 1 cells (the cell's chain, extended)."""
    group = f"Slide{d}: the vehicle led by (i,j) can slide s cells {WORD[d]}"
    axis = AXIS[d]
    min_len = min((length for _, vo, length in b.vehicle_states if vo == axis), default=2)
    for cell in b.cells:
        if _step(b.shape, cell, d) is None:
            continue
        chain = chains[(d, cell)]
        previous = chain[0]
        for dist in range(2, _max_slide(b.shape, cell, d, min_len) + 1):
            target = _step(b.shape, cell, d, dist)
            assert target is not None
            slide = b.prop(f"Slide{d}", *cell, dist)
            b.add(group, slide >> (previous & b.prop("Empty", *target)))
            b.add(group, (previous & b.prop("Empty", *target)) >> slide)
            chain.append(slide)
            previous = slide


def _won(b: _Builder) -> None:
    """W: the red car stands at its exit: ``Won(t) <-> Red(t) & Part_f(t)`` and ``Won <-> Won(t)``."""
    shape = b.shape
    won_cell = b.prop("Won", *shape.won_cell)
    won = b.prop("Won")
    red, front = b.prop("Red", *shape.won_cell), b.prop(f"Part{shape.won_part}", *shape.won_cell)
    group = "W: the red car stands at its exit"
    b.add(group, won_cell >> (red & front))
    b.add(group, (red & front) >> won_cell)
    b.add(group, won >> won_cell)
    b.add(group, won_cell >> won)


def _variable_order(key: tuple[str, tuple[int, ...]]) -> tuple[int, str, tuple[int, ...]]:
    """The numbering's sort key: family (:data:`FAMILY_ORDER`), part index or kind, then arguments."""
    fam, args = key
    if fam in _FAMILY_RANK:
        return _FAMILY_RANK[fam], "", args
    if fam.startswith("Part"):
        return _FAMILY_RANK["Part"], f"{int(fam[4:]):04d}", args
    return _FAMILY_RANK["kind"], fam, args


_FAMILY_RANK = {name: k for k, name in enumerate(FAMILY_ORDER)}


def _compile(b: _Builder, chains: dict[tuple[str, Cell], list[Any]]) -> RulesEncoding:
    """Number the propositions in the fixed order and turn the compiled theory into clauses."""
    b.E.compile()  # fills the encoding's debug_constraints: each constraint's compiled form
    props = b.props
    keys = sorted(props, key=_variable_order)
    names = [props[key].name for key in keys]
    ids = {name: k for k, name in enumerate(names, start=1)}
    by_object = {id(props[key]): k for k, key in enumerate(keys, start=1)}
    written = _written(b, by_object)
    clauses = sorted({cl for item in written for cl in item.clauses}, key=_clause_order)
    classes: dict[str, list[str]] = {}
    for key in keys:
        classes.setdefault(key[0], []).append(props[key].name)
    reach_vars = {key: [by_object[id(p)] for p in chain] for key, chain in chains.items()}
    # Only the CNF is kept.  Each proposition and its nnf variable point at each other; break that
    # cycle so that the bauhaus objects are freed now rather than by a slow full garbage collection.
    for item in props.values():
        item.__dict__.pop("_var", None)
    return RulesEncoding(
        shape=b.shape,
        names=names,
        ids=ids,
        clauses=clauses,
        classes=classes,
        constraints=b.counts,
        states=b.states,
        max_length=b.max_len,
        reach_vars=reach_vars,
        written=written,
    )


def _clause_order(clause: tuple[int, ...]) -> tuple[int, list[int], tuple[int, ...]]:
    return len(clause), [abs(x) for x in clause], clause


_BUILDERS = {"exactly_one": fm.exactly_one, "at_most_one": fm.at_most_one, "none_of": fm.none_of}


def _written(b: _Builder, ids: dict[int, int]) -> list[Constraint]:
    """Every constraint as written, with the clauses bauhaus compiled it to (read from the encoding's
    ``debug_constraints``, which ``compile`` fills)."""
    compiled = b.E.debug_constraints
    built = {
        (key._constraint.__name__, tuple(p.name for p in key._vars)): value
        for key, value in compiled.items()
        if not isinstance(key, CustomNNF)
    }
    out = []
    for group, item, props in b.records:
        if props:
            formula = _BUILDERS[item]([fm.Atom(p.name) for p in props])
            theory = built[(item, tuple(p.name for p in props))]
        else:
            formula, theory = _formula(item), compiled[item]
        clauses = tuple(sorted(set(_clauses(theory, ids)), key=_clause_order))
        out.append(Constraint(group.partition(":")[0], group, formula, clauses))
    first = {family: k for k, family in reversed(list(enumerate(item.family for item in out)))}
    return sorted(out, key=lambda item: first[item.family])  # grouped by family, each in its order


def _formula(node: Any) -> fm.Formula:
    """A bauhaus formula (``&``, ``|``, ``~``, ``>>`` over propositions) in the notation."""
    if not isinstance(node, CustomNNF):
        return fm.Atom(node.name)
    if node.typ == "var":
        return fm.Atom(node.args[0].name.name)
    kids = [_formula(a) for a in node.args]
    if node.typ == "not":
        return fm.Not(kids[0])
    if node.typ == "imp":
        return fm.Implies(kids[0], kids[1])
    return (fm.And if node.typ == "and" else fm.Or)(tuple(kids))


def _any(items: Iterable[Any]) -> Any:
    """The disjunction of bauhaus propositions (one item: itself)."""
    it = iter(items)
    out = next(it)
    for item in it:
        out = out | item
    return out


def _all(items: Iterable[Any]) -> Any:
    """The conjunction of bauhaus propositions (one item: itself)."""
    it = iter(items)
    out = next(it)
    for item in it:
        out = out & item
    return out


def _clauses(node: nnf.NNF, ids: dict[int, int]) -> list[tuple[int, ...]]:
    """Clauses of a compiled bauhaus theory, by distribution (the formulas are small implications),
    so that no auxiliary variable with a random name appears.  Tautologies are dropped."""
    out: list[tuple[int, ...]] = []
    for clause in _distribute(node, ids):
        lits = set(clause)
        if any(-lit in lits for lit in lits):
            continue
        out.append(tuple(sorted(lits, key=lambda x: (abs(x), x))))
    return out


def _distribute(node: nnf.NNF, ids: dict[int, int]) -> list[list[int]]:
    if isinstance(node, nnf.Var):
        v = ids[id(node.name)]
        return [[v if node.true else -v]]
    if isinstance(node, nnf.And):
        result: list[list[int]] = []
        for child in node.children:
            result.extend(_distribute(child, ids))
        return result
    if isinstance(node, nnf.Or):
        if all(isinstance(child, nnf.Var) for child in node.children):
            return [[ids[id(c.name)] if c.true else -ids[id(c.name)] for c in node.children]]
        acc: list[list[int]] = [[]]
        for child in node.children:
            parts = _distribute(child, ids)
            acc = [a + b for a in acc for b in parts]
        return acc
    raise TypeError(f"unexpected node in the compiled theory: {node!r}")  # pragma: no cover


@lru_cache(maxsize=32)
def encoding_for(shape: Shape) -> RulesEncoding:
    """The compiled rules of ``shape`` (built once per process, the 32 latest kept)."""
    return build(shape)
