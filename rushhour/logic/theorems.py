"""Statements about the rules, proved or refuted by the SAT solver.

A statement S is an entailment of the rules R when R & ~S is unsatisfiable: then it is PROVED for
every position of the board size.  Otherwise a model of R & ~S is a position where S fails: REFUTED,
with that position as the counterexample, drawn as a board.  Statements are nnf formulas over the
encoding's proposition names; their negation goes to CNF by nnf's Tseitin transformation.

The positions are those of :meth:`Shape.generic` without walls: a red car leaving through the right
edge of the middle row, horizontal and vertical cars and trucks.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import nnf
from nnf import tseitin

from rushhour.board import Board
from rushhour.errors import SolverError
from rushhour.formats.single import board_ref
from rushhour.logic.encoding import DIRECTIONS, RulesEncoding, Shape, cell_text, encoding_for
from rushhour.logic.sat import new_backend

__all__ = ["FALSE_ON_PURPOSE", "THEOREMS", "Proof", "Theorem", "check", "check_all"]

Statement = Callable[[RulesEncoding], nnf.NNF]


@dataclass(frozen=True)
class Theorem:
    title: str
    statement: Statement
    #: what the solver should find: True for a theorem, False for a statement shown false on purpose
    expected: bool = True


@dataclass(frozen=True)
class Proof:
    theorem: Theorem
    proved: bool
    counterexample: Board | None
    seconds: float

    @property
    def as_expected(self) -> bool:
        return self.proved == self.theorem.expected

    @property
    def verdict(self) -> str:
        return "PROVED" if self.proved else "REFUTED"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the statement, ``proved`` or ``refuted`` against what was expected, and the
        counterexample of a refuted statement as a one-line board."""
        example = self.counterexample
        return {
            "title": self.theorem.title,
            "verdict": self.verdict.lower(),
            "expected": "proved" if self.theorem.expected else "refuted",
            "as_expected": self.as_expected,
            "counterexample": None if example is None else board_ref(example),
            "seconds": round(self.seconds, 6),
        }


def _v(name: str) -> nnf.Var:
    return nnf.Var(name)


def _cells(rules: RulesEncoding) -> list[tuple[int, int]]:
    s = rules.shape
    return [(r, c) for r in range(s.height) for c in range(s.width)]


def _implies(a: nnf.NNF, b: nnf.NNF) -> nnf.NNF:
    return a.negate() | b


def _all(items: Sequence[nnf.NNF]) -> nnf.NNF:
    return nnf.And(items)


def _exists(items: Sequence[nnf.NNF]) -> nnf.NNF:
    return nnf.Or(items)


def _exactly_one_state(rules: RulesEncoding) -> nnf.NNF:
    parts: list[nnf.NNF] = []
    for cell in _cells(rules):
        states = [_v(f"{s}{cell_text(cell)}") for s in rules.states]
        parts.append(nnf.Or(states))
        parts.extend(~a | ~b for a, b in itertools.combinations(states, 2))
    return _all(parts)


def _full_line_blocks(rules: RulesEncoding, horizontal: bool) -> nnf.NNF:
    s = rules.shape
    lines = range(s.height) if horizontal else range(s.width)
    length = s.width if horizontal else s.height
    moves = ("CMR", "CML") if horizontal else ("CMU", "CMD")
    parts: list[nnf.NNF] = []
    for line in lines:
        cells = [(line, k) if horizontal else (k, line) for k in range(length)]
        full = _all([~_v(f"Empty{cell_text(c)}") for c in cells])
        still = _all([~_v(f"{m}{cell_text(c)}") for c in cells for m in moves])
        parts.append(_implies(full, still))
    return _all(parts)


def _cmr_needs_empty(rules: RulesEncoding) -> nnf.NNF:
    s = rules.shape
    parts: list[nnf.NNF] = []
    for r, c in _cells(rules):
        cm = _v(f"CMR{cell_text((r, c))}")
        parts.append(_implies(cm, _v(f"Empty{cell_text((r, c + 1))}")) if c + 1 < s.width else ~cm)
    return _all(parts)


def _red_at_exit_wins(rules: RulesEncoding) -> nnf.NNF:
    return _implies(_v(f"Red{cell_text(rules.shape.won_cell)}"), _v("Won"))


def _won_means_red_at_exit(rules: RulesEncoding) -> nnf.NNF:
    r, c = rules.shape.won_cell
    length = rules.shape.goal_kind[1]
    return _implies(_v("Won"), _all([_v(f"Red{cell_text((r, c - k))}") for k in range(length)]))


def _slides_are_monotone(rules: RulesEncoding) -> nnf.NNF:
    parts: list[nnf.NNF] = []
    for chain in rules.reach_vars.values():
        names = [rules.names[v - 1] for v in chain]
        parts.extend(_implies(_v(longer), _v(shorter)) for shorter, longer in itertools.pairwise(names))
    return _all(parts)


def _one_axis_per_cell(rules: RulesEncoding) -> nnf.NNF:
    parts: list[nnf.NNF] = []
    for cell in _cells(rules):
        across = _v(f"CMR{cell_text(cell)}") | _v(f"CML{cell_text(cell)}")
        down = _v(f"CMU{cell_text(cell)}") | _v(f"CMD{cell_text(cell)}")
        parts.append(across.negate() | down.negate())
    return _all(parts)


def _red_stays_on_its_row(rules: RulesEncoding) -> nnf.NNF:
    parts: list[nnf.NNF] = []
    for cell in _cells(rules):
        vertical = _v(f"CMU{cell_text(cell)}") | _v(f"CMD{cell_text(cell)}")
        parts.append(_implies(_v(f"Red{cell_text(cell)}"), vertical.negate()))
    return _all(parts)


def _some_move(rules: RulesEncoding) -> nnf.NNF:
    return _exists([_v(f"CM{d}{cell_text(cell)}") for d in DIRECTIONS for cell in _cells(rules)])


def _red_can_move_right_means_one_move(rules: RulesEncoding) -> nnf.NNF:
    r, c = rules.shape.won_cell
    starts: list[nnf.NNF] = []
    reaches: list[nnf.NNF] = [_v("Won")]
    for k in range(c):
        red = _v(f"Red{cell_text((r, k))}")
        chain = rules.reach_vars[("R", (r, k))]
        starts.append(red & _v(rules.names[chain[0] - 1]))
        if len(chain) >= c - k:
            reaches.append(red & _v(rules.names[chain[c - k - 1] - 1]))
    return _implies(_exists(starts), _exists(reaches))


THEOREMS: tuple[Theorem, ...] = (
    Theorem("every cell has exactly one state", _exactly_one_state),
    Theorem("a full row allows no horizontal move", lambda r: _full_line_blocks(r, True)),
    Theorem("a full column allows no vertical move", lambda r: _full_line_blocks(r, False)),
    Theorem("CMR(i,j) implies (i,j+1) is empty (and is false on the right edge)", _cmr_needs_empty),
    Theorem("the red car at the exit means the game is won", _red_at_exit_wins),
    Theorem("a won game has the red car against the exit", _won_means_red_at_exit),
    Theorem("a vehicle that can slide s cells can slide s-1 cells", _slides_are_monotone),
    Theorem("no cell leads both a horizontal and a vertical move", _one_axis_per_cell),
    Theorem("the red car never moves up or down", _red_stays_on_its_row),
)

#: statements that are false, shown with their counterexample
FALSE_ON_PURPOSE: tuple[Theorem, ...] = (
    Theorem("(false on purpose) every position allows some move", _some_move, expected=False),
    Theorem(
        "(false on purpose) if the red car can move right, it can reach the exit in one move",
        _red_can_move_right_means_one_move,
        expected=False,
    ),
)


def check(theorem: Theorem, shape: Shape, *, walls: bool = False, backend: str | None = None) -> Proof:
    """Prove ``theorem`` for every position of ``shape`` (wall-free unless ``walls``), or refute it."""
    started = time.perf_counter()
    rules = encoding_for(shape)
    negation = tseitin.to_CNF(theorem.statement(rules).negate())
    ids = dict(rules.ids)
    clauses = [list(c) for c in rules.clauses]
    if not walls:
        clauses.extend([-rules.state_var("Wall", cell)] for cell in _cells(rules))
    extra: dict[object, int] = {}
    for clause in negation:
        out = []
        for lit in clause:
            name = lit.name
            if isinstance(name, str):  # a proposition of the encoding
                if name not in ids:
                    raise SolverError(f"the statement names {name}, which this encoding does not have")
                v = ids[name]
            else:  # an auxiliary variable of the Tseitin transformation
                v = extra.setdefault(name, len(ids) + len(extra) + 1)
            out.append(v if lit.true else -v)
        clauses.append(out)
    solver = new_backend(clauses, backend)
    try:
        if not solver.solve():
            return Proof(theorem, True, None, time.perf_counter() - started)
        model = [lit for lit in solver.model() if abs(lit) <= len(rules.names)]
    finally:
        solver.close()
    board = rules.decode(model)
    return Proof(theorem, False, board, time.perf_counter() - started)


def check_all(
    width: int = 6, height: int = 6, *, theorems: tuple[Theorem, ...] | None = None, walls: bool = False
) -> list[Proof]:
    shape = Shape.generic(width, height)
    chosen = THEOREMS + FALSE_ON_PURPOSE if theorems is None else theorems
    return [check(t, shape, walls=walls) for t in chosen]
