"""Theorems about the rules: proved as entailments, or refuted with a counterexample position."""

from __future__ import annotations

import nnf
import pytest

from rushhour.errors import SolverError
from rushhour.logic.encoding import RulesEncoding, Shape, cell_text
from rushhour.logic.theorems import FALSE_ON_PURPOSE, THEOREMS, Theorem, check, check_all


@pytest.mark.parametrize("size", [(6, 6), (5, 7), (8, 4)])
def test_the_theorems_are_proved(size: tuple[int, int]) -> None:
    outcomes = check_all(*size, theorems=THEOREMS)
    assert [o.verdict for o in outcomes] == ["PROVED"] * len(THEOREMS)
    assert all(o.counterexample is None for o in outcomes)


def test_the_theorems_hold_with_walls_too() -> None:
    outcomes = check_all(6, 6, theorems=THEOREMS, walls=True)
    assert all(o.proved for o in outcomes)


def test_false_statements_are_refuted_with_real_counterexamples() -> None:
    some_move, one_move = check_all(6, 6, theorems=FALSE_ON_PURPOSE)
    assert not some_move.proved and some_move.as_expected
    board = some_move.counterexample
    assert board is not None and board.legal_moves() == []
    assert not one_move.proved and one_move.counterexample is not None
    b = one_move.counterexample
    red = [m for m in b.legal_moves() if m.vehicle == b.goal and m.distance > 0]
    assert red, "the red car can move right"
    assert not any(b.apply(m).is_won() for m in red), "yet no single move of it wins"


def _cmr_two_ahead(rules: RulesEncoding) -> nnf.NNF:
    """Deliberately false: a vehicle that can move right has TWO empty cells ahead."""
    parts = []
    s = rules.shape
    for r in range(s.height):
        for c in range(s.width - 2):
            parts.append(
                nnf.Var(f"CMR{cell_text((r, c))}").negate() | nnf.Var(f"Empty{cell_text((r, c + 2))}")
            )
    return nnf.And(parts)


def test_a_deliberately_false_statement() -> None:
    outcome = check(Theorem("CMR(i,j) implies (i,j+2) is empty", _cmr_two_ahead), Shape.generic(6, 6))
    assert outcome.verdict == "REFUTED" and not outcome.as_expected
    board = outcome.counterexample
    assert board is not None
    # by the reference rules: some vehicle moves right exactly one cell, and no further
    ones = {m.vehicle for m in board.legal_moves() if m.distance == 1}
    twos = {m.vehicle for m in board.legal_moves() if m.distance == 2}
    assert ones - twos


def test_a_statement_naming_an_unknown_proposition() -> None:
    theorem = Theorem("nonsense", lambda rules: nnf.Var("CMR(9,9)") | nnf.Var("Won"))
    with pytest.raises(SolverError, match=r"CMR\(9,9\)"):
        check(theorem, Shape.generic(6, 6))
