"""Statements about the rules, proved or refuted by the SAT solver.

A statement S is an entailment of the rules R when R & ~S is unsatisfiable: then it is PROVED for
every position of the board size.  Otherwise a model of R & ~S is a position where S fails: REFUTED,
with that position as the counterexample, drawn as a board.  Every statement is a formula in the
notation of :mod:`rushhour.logic.notation` (quantifiers over the grid, cell arithmetic), written for the
shape at hand (the goal cell and row, the vehicle kinds), and proved by :func:`rushhour.logic.claims.prove`.

The positions are those of :meth:`Shape.generic` without walls: a red car leaving through the right
edge of the middle row, horizontal and vertical cars and trucks.

>>> from rushhour.logic.encoding import Shape, encoding_for
>>> print(THEOREMS[3].formula(encoding_for(Shape.generic(6, 6))))
forall i,j: CMR(i,j) -> Empty(i,j+1)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from rushhour.board import Board
from rushhour.formats.single import board_ref
from rushhour.logic.encoding import RulesEncoding, Shape, encoding_for

__all__ = ["FALSE_ON_PURPOSE", "THEOREMS", "Proof", "Theorem", "check", "check_all"]

#: a statement: its formula in the notation, for the rules of a shape
Statement = Callable[[RulesEncoding], str]


@dataclass(frozen=True)
class Theorem:
    title: str
    statement: Statement
    #: what the solver should find: True for a theorem, False for a statement shown false on purpose;
    #: a function of the shape for a statement false on most shapes only
    expected: bool | Callable[[Shape], bool] = True

    def formula(self, rules: RulesEncoding) -> str:
        """The statement in the notation, for ``rules``' shape."""
        return self.statement(rules)

    def expects(self, shape: Shape) -> bool:
        """Whether the statement should be proved on ``shape``."""
        return self.expected if isinstance(self.expected, bool) else self.expected(shape)


@dataclass(frozen=True)
class Proof:
    theorem: Theorem
    proved: bool
    counterexample: Board | None
    seconds: float
    #: the statement as it was proved, in the notation
    formula: str = ""
    #: the literals that make the statement false in the counterexample
    falsified_by: tuple[str, ...] = ()
    #: what the solver should find on the shape proved for (:meth:`Theorem.expects`)
    expected: bool = True

    @property
    def as_expected(self) -> bool:
        return self.proved == self.expected

    @property
    def verdict(self) -> str:
        return "PROVED" if self.proved else "REFUTED"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the statement and its formula, ``proved`` or ``refuted`` against what was
        expected, and the counterexample of a refuted statement as a one-line board."""
        example = self.counterexample
        return {
            "title": self.theorem.title,
            "formula": self.formula,
            "verdict": self.verdict.lower(),
            "expected": "proved" if self.expected else "refuted",
            "as_expected": self.as_expected,
            "counterexample": None if example is None else board_ref(example),
            "falsified_by": list(self.falsified_by),
            "seconds": round(self.seconds, 6),
        }


def _exactly_one_state(rules: RulesEncoding) -> str:
    states = [f"{s}(i,j)" for s in rules.states]
    pairs = [f"~({a} & {b})" for a, b in itertools.combinations(states, 2)]
    return f"forall i,j: ({' | '.join(states)}) & " + " & ".join(pairs)


def _full_line_blocks(rules: RulesEncoding, horizontal: bool) -> str:
    if horizontal:
        return "forall i: (forall j: ~Empty(i,j)) -> (forall j: ~CMR(i,j) & ~CML(i,j))"
    return "forall j: (forall i: ~Empty(i,j)) -> (forall i: ~CMU(i,j) & ~CMD(i,j))"


def _cmr_needs_empty(rules: RulesEncoding) -> str:
    return "forall i,j: CMR(i,j) -> Empty(i,j+1)"


def _red_at_exit_wins(rules: RulesEncoding) -> str:
    r, c = rules.shape.won_cell
    return f"Red({r},{c}) -> Won"


def _won_means_red_at_exit(rules: RulesEncoding) -> str:
    r, c = rules.shape.won_cell
    length = rules.shape.goal_kind[1]
    return "Won -> " + " & ".join(f"Red({r},{c - k})" for k in range(length))


def _slides_are_monotone(rules: RulesEncoding) -> str:
    longer = " & ".join(f"(Slide{d}(i,j,s+1) -> Slide{d}(i,j,s))" for d in "RLUD")
    first = " & ".join(f"(Slide{d}(i,j,2) -> CM{d}(i,j))" for d in "RLUD")
    return f"(forall i,j,s: {longer}) & (forall i,j: {first})"


def _one_axis_per_cell(rules: RulesEncoding) -> str:
    return "forall i,j: ~((CMR(i,j) | CML(i,j)) & (CMU(i,j) | CMD(i,j)))"


def _red_stays_on_its_row(rules: RulesEncoding) -> str:
    return "forall i,j: Red(i,j) -> ~CMU(i,j) & ~CMD(i,j)"


def _some_move(rules: RulesEncoding) -> str:
    return "exists i,j: CMR(i,j) | CML(i,j) | CMU(i,j) | CMD(i,j)"


def _red_can_move_right_means_one_move(rules: RulesEncoding) -> str:
    r, c = rules.shape.won_cell
    return (
        f"(exists j: Red({r},j) & CMR({r},j)) -> "
        f"Won | Red({r},{c - 1}) & CMR({r},{c - 1}) | (exists j: Red({r},j) & SlideR({r},j,{c}-j))"
    )


def _red_is_one_move_from_its_exit(shape: Shape) -> bool:
    """Whether a red car that can move right always wins with that move, so that the statement holds:
    on a board as wide as the car and one more cell (3 wide for a car), where it cannot stand two
    cells from its exit."""
    return shape.width < shape.goal_kind[1] + 2


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
        "(false on purpose, but on boards 3 wide) if the red car can move right, it can reach the exit "
        "in one move",
        _red_can_move_right_means_one_move,
        expected=_red_is_one_move_from_its_exit,
    ),
)


def check(theorem: Theorem, shape: Shape, *, walls: bool = False, backend: str | None = None) -> Proof:
    """Prove ``theorem`` for every position of ``shape`` (wall-free unless ``walls``), or refute it."""
    from rushhour.logic.claims import prove

    started = time.perf_counter()
    formula = theorem.formula(encoding_for(shape))
    outcome = prove(formula, shape, walls=walls, backend=backend)
    return Proof(
        theorem, outcome.proved, outcome.counterexample, time.perf_counter() - started, formula,
        outcome.falsified_by, theorem.expects(shape),
    )  # fmt: skip


def check_all(
    width: int = 6, height: int = 6, *, theorems: tuple[Theorem, ...] | None = None, walls: bool = False
) -> list[Proof]:
    shape = Shape.generic(width, height)
    chosen = THEOREMS + FALSE_ON_PURPOSE if theorems is None else theorems
    return [check(t, shape, walls=walls) for t in chosen]
