"""Claims of one's own, written in the notation (:mod:`rushhour.logic.notation`), proved or refuted.

A claim C holds for every position of a shape when the rules R with ``~C`` are unsatisfiable; otherwise
a model of ``R & ~C`` is a position where C is false, decoded into a board (the counterexample), with
the literals that make C false there.  ``~C`` goes to CNF by Tseitin's transformation (new variables
after the encoding's).  Three scopes:

* ``shape``: every position of the shape (without walls unless ``walls``);
* ``position``: one board's position (its facts passed as assumptions);
* ``reachable``: every position reachable from a board by legal moves, each asked in turn.

>>> from rushhour.logic.encoding import Shape
>>> print(prove("forall i,j: CMR(i,j) -> Empty(i,j+1)", Shape.generic(4, 4)).verdict)
PROVED
>>> outcome = prove("exists j: Empty(1,j)", Shape.generic(4, 4))
>>> outcome.verdict, outcome.counterexample is not None
('REFUTED', True)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from rushhour.board import Board
from rushhour.errors import RushHourError, expect
from rushhour.formats.single import board_ref
from rushhour.logic import notation as fm
from rushhour.logic.encoding import RulesEncoding, Shape, encoding_for
from rushhour.logic.sat import Backend, new_backend
from rushhour.text import ordinal

__all__ = ["SCOPES", "Outcome", "prove"]

SCOPES = ("shape", "position", "reachable")
#: the most positions ``reachable`` visits
MAX_REACHABLE = 2_000_000


@dataclass(frozen=True)
class Outcome:
    """A claim PROVED or REFUTED, with the counterexample of a refuted one."""

    claim: str
    formula: fm.Formula
    scope: str
    shape: Shape
    walls: bool
    proved: bool
    counterexample: Board | None
    #: the literals that make the claim false in the counterexample (``CMR(2,4)``, ``~Empty(2,5)``)
    falsified_by: tuple[str, ...]
    #: positions asked (the reachable scope), None for a whole shape
    positions: int | None
    seconds: float

    @property
    def verdict(self) -> str:
        return "PROVED" if self.proved else "REFUTED"

    def where(self) -> str:
        """For which positions the claim was checked, in words."""
        size = f"{self.shape.width}x{self.shape.height}"
        if self.scope == "position":
            return "this position"
        if self.scope == "reachable":
            if self.proved:
                return f"every position reachable from this board ({self.positions:,})"
            failed = "the board itself" if self.positions == 1 else f"the {ordinal(self.positions or 0)}"
            return f"every position reachable from this board (asked nearest first: {failed} fails)"
        return f"every {size} position {'with' if self.walls else 'without'} walls ({self.shape.describe()})"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the claim, where it was checked, the verdict and a counterexample."""
        example = self.counterexample
        return {
            "claim": self.claim,
            "scope": self.scope,
            "shape": self.shape.describe(),
            "walls": self.walls,
            "verdict": self.verdict.lower(),
            "counterexample": None if example is None else board_ref(example),
            "falsified_by": list(self.falsified_by),
            "positions": self.positions,
            "propositions": len(set(fm.atoms(self.formula))),
            "seconds": round(self.seconds, 6),
        }


def prove(
    claim: str | fm.Formula,
    where: Shape | Board,
    *,
    scope: str = "shape",
    walls: bool = False,
    backend: str | None = None,
) -> Outcome:
    """Prove ``claim`` (notation text, or a ground formula) for the positions ``scope`` names: every
    position of ``where``'s shape, ``where``'s own position, or every position reachable from it."""
    started = time.perf_counter()
    if scope not in SCOPES:
        raise RushHourError(f"unknown scope {scope!r}: use {', '.join(SCOPES)}")
    expect(where, (Shape, Board), "where", "a Shape or a Board")
    expect(walls, bool, "walls", "True or False")
    board = where if isinstance(where, Board) else None
    if board is None and scope != "shape":
        raise RushHourError(f"the {scope} scope needs a board, not a size")
    shape = Shape.of(where) if isinstance(where, Board) else where
    if isinstance(claim, str):  # a mistake is reported before the shape's rules are built
        parsed = fm.parse(claim)
        fm.check_expansion(parsed, shape.width, shape.height)
        rules = encoding_for(shape)
        formula = fm.ground(parsed, rules)
    else:  # a formula built by hand: made of the rules' propositions, its constants folded
        rules = encoding_for(shape)
        formula = fm.read(claim, rules)
    text = claim if isinstance(claim, str) else fm.show(formula)
    solver = _negation_solver(rules, formula, walls or scope != "shape", backend)
    try:
        found, positions = _search(solver, rules, formula, board, scope)
    finally:
        solver.close()
    example: Board | None = None
    falsified: tuple[str, ...] = ()
    if found is not None:
        example, falsified = found
    return Outcome(
        text, formula, scope, shape, walls, example is None, example, falsified, positions,
        time.perf_counter() - started,
    )  # fmt: skip


def _negation_solver(rules: RulesEncoding, formula: fm.Formula, walls: bool, backend: str | None) -> Backend:
    """A solver holding the rules and the claim's negation (no walls unless ``walls``)."""
    clauses = [list(c) for c in rules.clauses]
    if not walls:
        cells = [(r, c) for r in range(rules.shape.height) for c in range(rules.shape.width)]
        clauses.extend([-rules.state_var("Wall", cell)] for cell in cells)
    if isinstance(formula, fm.Const):
        if formula.value:  # a claim true by itself: its negation has no model
            clauses.append([])
    else:
        extra, root = fm.to_clauses(formula, rules.ids, len(rules.names) + 1)
        clauses.extend(extra)
        clauses.append([-root])
    if any(not c for c in clauses):
        clauses = [[1], [-1]]
    return new_backend(clauses, backend)


def _search(
    solver: Backend, rules: RulesEncoding, formula: fm.Formula, board: Board | None, scope: str
) -> tuple[tuple[Board, tuple[str, ...]] | None, int | None]:
    """A position where the claim fails, if any, and how many positions were asked."""
    if scope == "shape":
        return (_counterexample(solver, rules, formula, None) if solver.solve() else None), None
    assert board is not None
    from rushhour.logic.oracle import oracle_for

    oracle = oracle_for(board)
    count = 0
    for position in _positions(board, scope):
        count += 1
        if solver.solve(oracle.facts(position)):
            return _counterexample(solver, rules, formula, position), count
    return None, count


def _counterexample(
    solver: Backend, rules: RulesEncoding, formula: fm.Formula, board: Board | None
) -> tuple[Board, tuple[str, ...]]:
    """The model's position (``board`` itself when one was asked) and the literals that make the
    claim false there (the model's values: every proposition is forced by the position)."""
    model = [lit for lit in solver.model() if abs(lit) <= len(rules.names)]
    true = {rules.names[lit - 1] for lit in model if lit > 0}
    position = board if board is not None else rules.decode(model)
    return position, tuple(dict.fromkeys(fm.reasons(formula, true, False)))


def _positions(board: Board, scope: str) -> Iterator[Board]:
    """The board alone, or every position reachable from it (breadth first, by the reference rules)."""
    yield board
    if scope != "reachable":
        return
    seen = {board.state}
    queue = deque([board])
    while queue:
        here = queue.popleft()
        for move in here.legal_moves():
            nxt = here.apply(move)
            if nxt.state not in seen:
                if len(seen) >= MAX_REACHABLE:
                    raise RushHourError(f"more than {MAX_REACHABLE:,} positions are reachable: too many")
                seen.add(nxt.state)
                queue.append(nxt)
                yield nxt
