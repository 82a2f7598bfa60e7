"""The notation of the logic: printed constraints parse back to themselves and are equivalent, family by
family, to the clauses the solver uses; the parser's errors name the column; quantifiers and cell
arithmetic ground as documented."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.formula import CNF
from pysat.solvers import Solver

from rushhour.board import HORIZONTAL, Board, Target, Vehicle
from rushhour.errors import ParseError
from rushhour.logic import notation as fm
from rushhour.logic.encoding import RulesEncoding, Shape, encoding_for

SHAPES = [
    Shape.generic(3, 3),
    Shape.generic(6, 6),
    Shape.generic(5, 7),
    Shape.of(
        Board(
            5,
            4,
            [Vehicle("A", HORIZONTAL, 2, 1, 0), Vehicle("B", "V", 3, 0, 3)],
            goal="A",
            target=Target(1, 4, "east"),
            wrap=True,
        )
    ),
]


def equivalent(rules: RulesEncoding, left: fm.Formula, clauses: list[tuple[int, ...]]) -> bool:
    """Whether ``left`` and the conjunction of ``clauses`` have the same models, by SAT."""
    right = fm.conjoin(
        fm.disjoin(
            fm.Atom(rules.names[abs(x) - 1]) if x > 0 else fm.Not(fm.Atom(rules.names[-x - 1]))
            for x in clause
        )
        for clause in clauses
    )
    out, root = fm.to_clauses(fm.Not(fm.Iff(left, right)), rules.ids, len(rules.names) + 1)
    with Solver(name="cadical153", bootstrap_with=out + [[root]]) as solver:
        return not solver.solve()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.describe())
def test_every_printed_constraint_parses_back_to_itself(shape: Shape) -> None:
    rules = encoding_for(shape)
    for item in rules.written:
        assert fm.parse_ground(item.text, rules) == item.formula, item.text


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.describe())
def test_each_family_as_printed_is_equivalent_to_its_clauses(shape: Shape) -> None:
    rules = encoding_for(shape)
    union: set[tuple[int, ...]] = set()
    for family in rules.families():
        items = [item for item in rules.written if item.family == family]
        printed = fm.conjoin(fm.parse_ground(item.text, rules) for item in items)
        clauses = sorted({cl for item in items for cl in item.clauses})
        union.update(clauses)
        assert equivalent(rules, printed, clauses), family
    assert union == set(rules.clauses)


def test_a_wrong_formula_is_not_equivalent() -> None:
    rules = encoding_for(Shape.generic(3, 3))
    item = next(i for i in rules.written if i.family == "CMR" and i.clauses and len(i.clauses) > 1)
    assert not equivalent(rules, item.formula, list(item.clauses[:-1]))


def test_dimacs_groups_the_clauses_by_family_and_keeps_them_all() -> None:
    rules = encoding_for(Shape.generic(4, 4))
    text = rules.dimacs([1, -2])
    comments = [line for line in text.splitlines() if line.startswith("c family ")]
    assert [c.removeprefix("c family ").partition(":")[0] for c in comments] == rules.families()
    assert "c CMR: CMR(1,2) -> EndR(1,2) & Empty(1,3)" in text.splitlines()
    cnf = CNF(from_string=text)
    assert sorted(map(tuple, cnf.clauses)) == sorted([*rules.clauses, (1,), (-2,)])
    assert cnf.nv == len(rules.names)


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("CMR(2,4) -> (Empty(2,5)", 24, "expected ')', found the end"),
        ("CMR(2,4) && Empty(2,5)", 11, "expected a proposition, found '&'"),
        ("CMR(2,4) Empty(2,5)", 10, "expected a connective or the end"),
        ("forall i: CMR(i,j)", 17, "unknown variable j"),
        ("forall i,i: CMR(i,i)", 10, "bound twice"),
        ("CMR(2,4) -> Empty(2,4+)", 23, "expected a number or a variable, found ')'"),
        ("CMR(2,4) # Empty(2,5)", 10, "unexpected character '#'"),
        ("forall: CMR(1,1)", 7, "expected a variable name"),
    ],
)
def test_syntax_errors_name_the_column(text: str, column: int, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        fm.parse(text)
    assert caught.value.column == column and words in str(caught.value)


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("Foo(1,1) | Empty(0,0)", 1, "unknown proposition Foo"),
        ("Empty(0,0) -> CMR(4,1)", 15, "cell (4,1) is off the 4x4 board"),
        ("SlideR(1,0,9)", 1, "the rules have no proposition SlideR(1,0,9)"),
        ("CMR(1)", 1, "CMR takes 2 arguments, not 1"),
        ("forall i,j: Empty(i,i)", 1, "variable j is bound but never used"),
    ],
)
def test_meaning_errors_name_the_column(text: str, column: int, words: str) -> None:
    rules = encoding_for(Shape.generic(4, 4))
    with pytest.raises(ParseError) as caught:
        fm.parse_ground(text, rules)
    assert caught.value.column == column and words in str(caught.value)


def test_quantifiers_range_over_rows_columns_and_distances() -> None:
    rules = encoding_for(Shape.generic(5, 3))
    every = fm.parse_ground("forall i,j: ~Wall(i,j)", rules)
    assert isinstance(every, fm.And) and len(every.args) == 15
    assert fm.show(fm.parse_ground("exists j: Red(1,j+3)", rules)) == "Red(1,3) | Red(1,4)"
    slides = fm.parse_ground("exists s: SlideR(1,0,s)", rules)
    assert fm.show(slides) == "SlideR(1,0,2) | SlideR(1,0,3) | SlideR(1,0,4)"
    # a proposition off the board under a quantifier is false; the constants are folded away
    assert fm.show(fm.parse_ground("forall i: CMD(i,0) -> Empty(i+1,0)", rules)) == (
        "(CMD(0,0) -> Empty(1,0)) & (CMD(1,0) -> Empty(2,0)) & ~CMD(2,0)"
    )
    assert (
        fm.show(fm.parse_ground("exists j: SlideR(1,j,4-j)", rules))
        == "SlideR(1,0,4) | SlideR(1,1,3) | SlideR(1,2,2)"
    )
    nested = fm.parse_ground("forall i: exists j: Empty(i,j)", rules)
    assert isinstance(nested, fm.And) and all(isinstance(a, fm.Or) for a in nested.args)


def test_precedence_and_grouping() -> None:
    rules = encoding_for(Shape.generic(3, 3))
    a, b, c = (fm.Atom(f"Empty(0,{k})") for k in range(3))
    assert fm.parse_ground("Empty(0,0) | Empty(0,1) & Empty(0,2)", rules) == fm.Or((a, fm.And((b, c))))
    assert fm.parse_ground("Empty(0,0) -> Empty(0,1) -> Empty(0,2)", rules) == fm.Implies(a, fm.Implies(b, c))
    assert fm.parse_ground("~Empty(0,0) & Empty(0,1) <-> Empty(0,2)", rules) == fm.Iff(
        fm.And((fm.Not(a), b)), c
    )
    assert fm.show(fm.Implies(fm.Implies(a, b), c)) == "(Empty(0,0) -> Empty(0,1)) -> Empty(0,2)"
    assert fm.parse_ground("true & Won", rules) == fm.Atom("Won")


NAMES = ["Empty(0,0)", "Red(1,0)", "CMR(1,1)", "Won", "H2(2,2)"]


def formulas() -> st.SearchStrategy[fm.Formula]:
    leaves = st.sampled_from(NAMES).map(fm.Atom)

    def grow(inner: st.SearchStrategy[fm.Formula]) -> st.SearchStrategy[fm.Formula]:
        pair = st.tuples(inner, inner)
        many = st.lists(inner, min_size=2, max_size=3).map(tuple)
        return st.one_of(
            inner.map(fm.Not),
            many.map(fm.And),
            many.map(fm.Or),
            pair.map(lambda p: fm.Implies(*p)),
            pair.map(lambda p: fm.Iff(*p)),
        )

    return st.recursive(leaves, grow, max_leaves=8)


def _flat(f: fm.Formula) -> fm.Formula:
    """The formula as the parser builds it: nested conjunctions (disjunctions) merged."""
    if isinstance(f, fm.Not):
        return fm.Not(_flat(f.arg))
    if isinstance(f, fm.And | fm.Or):
        kind = type(f)
        args: list[fm.Formula] = []
        for a in map(_flat, f.args):
            args.extend(a.args if isinstance(a, kind) else (a,))
        return kind(tuple(args))
    if isinstance(f, fm.Implies | fm.Iff):
        return type(f)(_flat(f.left), _flat(f.right))
    return f


@settings(max_examples=150, deadline=None)
@given(formulas())
def test_any_formula_prints_and_parses_back(formula: fm.Formula) -> None:
    rules = encoding_for(Shape.generic(3, 3))
    assert fm.parse_ground(fm.show(formula), rules) == _flat(formula)


def test_the_encoding_guide_runs() -> None:
    """docs/encoding.md teaches with examples that run."""
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "encoding.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0


@pytest.mark.parametrize("name", ["notation", "claims", "counting", "theorems"])
def test_the_logic_modules_docstring_examples_run(name: str) -> None:
    """No test ran them: the notation module's own example printed ``(CMR(1,3) -> false)``, which the
    grounding folds to ``~CMR(1,3)``."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"rushhour.logic.{name}"), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    "text",
    ["~" * 300 + "Won", "(" * 300 + "Won" + ")" * 300, " -> ".join(["Won"] * 600), " <-> ".join(["Won"] * 600),
     " ".join(f"forall v{k}:" for k in range(400)) + " Won"],
)  # fmt: skip
def test_deep_nesting_is_an_error_not_a_crash(text: str) -> None:
    with pytest.raises(ParseError, match="nests deeper than"):
        fm.parse(text)


@pytest.mark.parametrize(
    "text",
    ["~" * 100 + "Won", "(" * 100 + "Won" + ")" * 100, " -> ".join(["Won"] * 101), " <-> ".join(["Won"] * 101)],
)
def test_a_hundred_levels_as_a_reader_counts_them_are_read(text: str) -> None:
    """The limit counts the levels a reader sees (a parenthesis, a ~, a quantifier, the right side of
    -> or <->): 33 parentheses were refused as deeper than 100 levels, the parser's own layers counted."""
    fm.parse(text)
    with pytest.raises(ParseError, match="nests deeper than 100 levels"):
        fm.parse({"~": "~" + text, "(": "(" + text + ")"}.get(text[0], text + " -> Won"))


def test_a_coordinate_of_too_many_digits_is_refused_and_the_claim_quoted_short() -> None:
    """A 5,000-digit number gave a traceback (Python refuses int() of it); the message quotes the
    claim's beginning only."""
    with pytest.raises(ParseError) as caught:
        fm.parse("CMR(1," + "9" * 5000 + ")")
    message = str(caught.value)
    assert "column 7: the number 999999999999... has more than 18 digits" in message and len(message) < 200


def test_a_claim_too_large_once_expanded_is_an_error() -> None:
    # 256 cells to the third power, three propositions each: refused from the grid alone, before the
    # rules are built or any of it is written, at the quantifier whose expansion alone is too large
    claim = fm.parse("forall a,b: forall c,d: forall e,f: Empty(a,b) | Empty(c,d) | Empty(e,f)")
    with pytest.raises(ParseError, match=r"column 1: the formula expands to 50,331,648 propositions, more than 1,000,000"):
        fm.check_expansion(claim, 16, 16)
    fm.check_expansion(claim, 6, 6)  # 36 cubed, three each: 139,968
    inner = fm.parse("Red(0,0) | (forall a,b: forall c,d: forall e,f: Empty(a,b) | Empty(c,d) | Empty(e,f))")
    with pytest.raises(ParseError, match=r"column 13: the formula expands to 50,331,649 propositions"):
        fm.check_expansion(inner, 16, 16)


def test_the_expansion_limit_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = encoding_for(Shape.generic(6, 6))
    monkeypatch.setattr(fm, "MAX_GROUND", 144)
    four = "forall a,b: Empty(a,b) | Empty(a,b) | Empty(a,b) | Empty(a,b)"
    assert sum(1 for _ in fm.atoms(fm.parse_ground(four, rules))) == 144
    with pytest.raises(ParseError, match="expands to 145 propositions, more than 144"):
        fm.parse_ground(f"Empty(0,0) & ({four})", rules)
