"""Claims of one's own: PROVED or REFUTED by the solver equals brute force over every position of the
shape (listed without the encoding, each proposition's truth taken from the reference rules), and
every counterexample is a valid board where the claim is false."""

from __future__ import annotations

import itertools
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rushhour import logic
from rushhour.board import Board
from rushhour.cli import main
from rushhour.errors import ArgumentTypeError, ParseError
from rushhour.levels import resolve_board
from rushhour.logic import claims as proving
from rushhour.logic import notation as fm
from rushhour.logic.claims import prove
from rushhour.logic.encoding import Shape
from rushhour.search import solve
from rushhour.text import ordinal
from tests.logic_truth import positions_of, reference_truth
from tests.strategies import boards

FAMILIES = ["Empty", "Wall", "Red", "H2", "V2", "H3", "V3", "Part0", "Part1", "EndR", "EndD", "CMR", "CML",
            "CMU", "CMD"]  # fmt: skip
ROWS = ["i", "i+1", "0", "1"]
COLS = ["j", "j+1", "j-1", "0", "2"]


@cache
def truths(width: int, height: int, walls: bool) -> list[frozenset[str]]:
    return [reference_truth(b) for b in positions_of(Shape.generic(width, height), walls)]


def holds(tree: fm.Tree, true: frozenset[str], env: dict[str, int], width: int, height: int) -> bool:
    """The claim's value, read straight from the parse tree (no grounding): a proposition is true when
    the reference rules make it true, so one off the board is false."""
    if isinstance(tree, fm.Const):
        return tree.value
    if isinstance(tree, fm.Prop):
        args = [a.value(env) for a in tree.args]
        return (f"{tree.family}({','.join(map(str, args))})" if args else tree.family) in true
    if isinstance(tree, fm.Quant):
        ranges = [range(height) if v == "i" else range(width) for v in tree.variables]
        values = (holds(tree.body, true, {**env, **dict(zip(tree.variables, vs, strict=True))}, width, height)
                  for vs in itertools.product(*ranges))  # fmt: skip
        return all(values) if tree.kind == "forall" else any(values)
    kids = [holds(a, true, env, width, height) for a in tree.args]
    if tree.kind == "not":
        return not kids[0]
    if tree.kind == "and":
        return all(kids)
    if tree.kind == "or":
        return any(kids)
    if tree.kind == "imp":
        return not kids[0] or kids[1]
    return kids[0] == kids[1]


@st.composite
def claims(draw: st.DrawFn) -> str:
    """A random claim: a formula over propositions of cells (i,j), (i+1,j), (1,j-1)..., with i, j bound
    by quantifiers when used."""

    def atom() -> str:
        return (
            f"{draw(st.sampled_from(FAMILIES))}({draw(st.sampled_from(ROWS))},{draw(st.sampled_from(COLS))})"
        )

    def formula(depth: int) -> str:
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            return atom() if draw(st.integers(0, 9)) else "Won"
        op = draw(st.sampled_from(["~", "&", "|", "->", "<->"]))
        if op == "~":
            return f"~{formula(depth - 1)}"
        return f"({formula(depth - 1)} {op} {formula(depth - 1)})"

    body = formula(3)
    used = [v for v in ("i", "j") if f"({v}" in body or f",{v}" in body]
    if not used:
        return body
    order = draw(st.permutations(used))
    prefix = " ".join(f"{draw(st.sampled_from(['forall', 'exists']))} {v}:" for v in order)
    return f"{prefix} {body}"


@pytest.mark.parametrize(("width", "height", "walls"), [(3, 3, True), (4, 4, False)])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_prove_equals_brute_force(width: int, height: int, walls: bool, data: st.DataObject) -> None:
    text = data.draw(claims())
    shape = Shape.generic(width, height)
    tree = fm.parse(text).tree
    everywhere = all(holds(tree, true, {}, width, height) for true in truths(width, height, walls))
    outcome = prove(text, shape, walls=walls)
    assert outcome.proved == everywhere, text
    if not outcome.proved:
        board = outcome.counterexample
        assert isinstance(board, Board) and Shape.of(board) == shape
        assert walls or not board.walls
        true = reference_truth(board)
        assert not holds(tree, true, {}, width, height), (text, board)
        assert not fm.evaluate(outcome.formula, true)
        # the literals said to falsify it are true there
        assert all(
            (lit[1:] not in true) if lit.startswith("~") else lit in true for lit in outcome.falsified_by
        )


def layers_of(board: Board) -> list[list[Board]]:
    """Every position reachable from ``board`` by the reference rules, by distance (breadth first)."""
    seen = {board.state}
    layers = [[board]]
    while True:
        nxt = []
        for here in layers[-1]:
            for move in here.legal_moves():
                there = here.apply(move)
                if there.state not in seen:
                    seen.add(there.state)
                    nxt.append(there)
        if not nxt:
            return layers
        layers.append(nxt)


@settings(max_examples=20, deadline=None)
@given(boards(min_side=3, max_side=5, wrap=False, walls=False, max_vehicles=6), st.data())
def test_position_and_reachable_scopes_equal_the_reference(board: Board, data: st.DataObject) -> None:
    shape = Shape.of(board)
    if shape.goal_kind != ("H", 2):
        return
    text = data.draw(claims())
    tree = fm.parse(text).tree
    try:
        here = prove(text, board, scope="position")
    except ParseError as err:  # a claim naming a kind this shape has not: an error, as for the CLI
        assert "unknown proposition" in str(err)
        return
    w, h = board.width, board.height
    assert here.proved == holds(tree, reference_truth(board), {}, w, h)
    around = prove(text, board, scope="reachable")
    reachable = [b for layer in layers_of(board) for b in layer]
    assert around.proved == all(holds(tree, reference_truth(b), {}, w, h) for b in reachable)
    if around.proved:
        assert around.positions == len(reachable)
    else:
        assert around.counterexample is not None and around.counterexample.state in {b.state for b in reachable}


def test_prove_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "forall i,j: CMR(i,j) -> Empty(i,j+1)", "--size", "5x5"]) == 0
    assert capsys.readouterr().out.startswith("PROVED  forall i,j: CMR(i,j) -> Empty(i,j+1)\nfor every 5x5")
    assert main(["prove", "exists j: Empty(2,j)", "--size", "5x5", "--no-color"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("REFUTED  exists j: Empty(2,j)") and "false there because of: ~Empty(2,0)" in out
    assert main(["prove", "~Won", "classic:1", "--reachable"]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["prove", "CMR(2,4) -> ", "--size", "6x6"], "column 13: expected a proposition, found the end"),
        (["prove", "Foo(1,2)", "--size", "6x6"], "unknown proposition Foo"),
        (["prove", "CMR(7,1)", "--size", "6x6"], "cell (7,1) is off the 6x6 board"),
        (["prove", "Won", "--size", "6x17"], "the height must be 3 to 16"),
        (["prove", "Won"], "give BOARD or --size"),
        (["prove", "Won", "--size", "4x4", "--reachable"], "needs a BOARD"),
        (["prove", "~Won", "classic:1", "--position", "--walls"], "--walls does not go with --position"),
        (["prove", "~Won", "classic:1", "--reachable", "--walls"], "--walls does not go with --reachable"),
        (
            ["prove", "forall a,b: forall c,d: forall e,f: Empty(a,b) | Empty(c,d) | Empty(e,f)", "--size", "16x16"],
            "column 1: the formula expands to 50,331,648 propositions, more than 1,000,000",
        ),
    ],
)
def test_prove_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and message in err and len(err.splitlines()) == 1


def test_a_mistake_is_reported_before_the_rules_are_built(monkeypatch: pytest.MonkeyPatch) -> None:
    def build(shape: Shape) -> None:
        raise AssertionError(f"the rules of {shape.width}x{shape.height} were built")

    monkeypatch.setattr(proving, "encoding_for", build)
    with pytest.raises(ParseError, match="column 13: expected a proposition"):
        prove("CMR(2,4) -> ", Shape.generic(16, 16))
    with pytest.raises(ParseError, match="expands to 50,331,648 propositions"):
        prove("forall a,b: forall c,d: forall e,f: Empty(a,b) | Empty(c,d) | Empty(e,f)", Shape.generic(16, 16))


def test_a_family_the_shape_has_none_of_is_false_under_a_quantifier() -> None:
    """docs/encoding.md: under a quantifier, a proposition the rules do not have is false; a family a
    shape has none of (no truck upright, no slide up on a board 3 high) was refused as unknown."""
    board = Board.from_text("# wrap: yes\n# target: 0,3 east\nAA..\n.B..\n.B..\n")
    assert prove("forall i,j,s: SlideU(i,j,s) -> CMU(i,j)", board).proved
    assert prove("forall i,j: ~V3(i,j)", board).proved
    assert not prove("exists i,j: V3(i,j)", board).proved
    with pytest.raises(ParseError, match="column 2: the rules of this shape have no V3: they have CMD, "):
        prove("~V3(1,1)", board)
    with pytest.raises(ParseError, match="unknown proposition Foo"):
        prove("forall i,j: ~Foo(i,j)", board)
    with pytest.raises(ParseError, match="V3 takes 2 arguments, not 1"):
        prove("forall i: ~V3(i)", board)


def test_a_board_s_own_shape_is_its_scope() -> None:
    board = resolve_board("classic:1").board
    assert prove("forall i,j: Red(i,j) -> ~CMU(i,j)", board).proved
    assert not prove("~Won", board, scope="reachable").proved


def test_a_reachable_counterexample_is_one_of_the_nearest() -> None:
    """Positions are asked nearest first: refuting ~Won finds a won position exactly the board's
    optimum away, after every position nearer than that (distances by the reference rules)."""
    board = resolve_board("classic:6").board
    outcome = prove("~Won", board, scope="reachable")
    example = outcome.counterexample
    assert example is not None and example.is_won()
    distance = {b.state: k for k, layer in enumerate(layers_of(board)) for b in layer}
    assert distance[example.state] == solve(board).length
    nearer = sum(1 for d in distance.values() if d < distance[example.state])
    assert nearer < outcome.positions <= nearer + sum(1 for d in distance.values() if d == distance[example.state])
    assert f"asked nearest first: the {ordinal(outcome.positions)} fails" in outcome.where()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda s: prove(fm.Atom("Foo(1,1)"), s), ParseError, "the rules have no proposition 'Foo(1,1)'"),
        (lambda s: prove(fm.Not(3), s), ArgumentTypeError, "claim must be a formula"),  # type: ignore[arg-type]
        (lambda s: prove(3, s), ArgumentTypeError, "claim must be a formula"),  # type: ignore[arg-type]
        (lambda s: prove("Won", (3, 3)), ArgumentTypeError, "where must be a Shape or a Board, not tuple"),  # type: ignore[arg-type]
        (lambda s: prove("Won", s, walls="no"), ArgumentTypeError, "walls must be True or False, not str"),  # type: ignore[arg-type]
        (lambda s: logic.prove("Won", (3, 3), walls=1), ArgumentTypeError, "walls must be True or False, not int"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_a_claim_of_the_wrong_type_is_a_rushhour_error(
    call: Any, error: type[Exception], message: str
) -> None:
    """A formula built by hand naming a proposition the rules lack raised KeyError, a node that is no
    formula AttributeError, a size given as a tuple AttributeError; walls="no" proved with walls."""
    with pytest.raises(error, match=re.escape(message)):
        call(Shape.generic(3, 3))


def test_a_formula_built_by_hand_is_folded_and_proved_as_its_text() -> None:
    """Constants inside a hand-built formula reached Tseitin's transformation, which refused them with
    a ValueError."""
    shape = Shape.generic(3, 3)
    outcome = prove(fm.And((fm.Atom("Won"), fm.Const(True))), shape)
    assert (outcome.verdict, outcome.claim) == (prove("Won", shape).verdict, "Won")
    assert prove(fm.Or((fm.Atom("Won"), fm.Not(fm.Const(False)))), shape).proved
