"""Theorems about the rules: proved as entailments, or refuted with a counterexample position."""

from __future__ import annotations

import pytest

from rushhour.errors import ParseError
from rushhour.logic import notation
from rushhour.logic.encoding import Shape, encoding_for
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


@pytest.mark.parametrize("size", [(3, 3), (3, 6), (4, 3)])
def test_every_statement_is_as_expected_on_narrow_boards(size: tuple[int, int]) -> None:
    """On a board 3 wide the red car that can move right is always one move from its exit: that
    statement, false on purpose elsewhere, is proved there, which theorems called unexpected (exit 1)."""
    outcomes = check_all(*size)
    assert all(o.as_expected for o in outcomes), [o.theorem.title for o in outcomes if not o.as_expected]
    one_move = outcomes[-1]
    assert one_move.proved == (size[0] == 3) and one_move.to_dict()["expected"] == ("proved" if size[0] == 3 else "refuted")


def test_a_deliberately_false_statement() -> None:
    """Deliberately false: a vehicle that can move right has TWO empty cells ahead."""
    outcome = check(
        Theorem("CMR(i,j) implies (i,j+2) is empty", lambda r: "forall i,j: CMR(i,j) -> Empty(i,j+2)"),
        Shape.generic(6, 6),
    )
    assert outcome.verdict == "REFUTED" and not outcome.as_expected
    board = outcome.counterexample
    assert board is not None
    # by the reference rules: some vehicle moves right exactly one cell, and no further
    ones = {m.vehicle for m in board.legal_moves() if m.distance == 1}
    twos = {m.vehicle for m in board.legal_moves() if m.distance == 2}
    assert ones - twos
    # the literals that falsify it: a CMR, and the cell two ahead not empty (none past the edge)
    cmr, *empty = outcome.falsified_by
    assert cmr.startswith("CMR(") and all(e.startswith("~Empty(") for e in empty) and len(empty) <= 1


def test_a_statement_naming_an_unknown_proposition() -> None:
    theorem = Theorem("nonsense", lambda rules: "CMR(9,9) | Won")
    with pytest.raises(ParseError, match=r"cell \(9,9\) is off the 6x6 board"):
        check(theorem, Shape.generic(6, 6))


@pytest.mark.parametrize("size", [(6, 6), (4, 5)])
def test_every_theorem_formula_is_printed_and_parses(size: tuple[int, int]) -> None:
    rules = encoding_for(Shape.generic(*size))
    for theorem in THEOREMS + FALSE_ON_PURPOSE:
        text = theorem.formula(rules)
        assert notation.parse_ground(text, rules) is not None, text
