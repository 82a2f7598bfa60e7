"""Explanations checked by a second solver: every obstacle's core is unsatisfiable with the rules and
minimal, every legal move's support is true in the position as the reference rules see it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from rushhour.board import Board, Move
from rushhour.logic.oracle import oracle_for
from tests.logic_truth import reference_truth
from tests.strategies import boards


def satisfiable(clauses: list[tuple[int, ...]], assumptions: list[int]) -> bool:
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        return bool(solver.solve(assumptions=assumptions))


@settings(max_examples=25, deadline=None)
@given(boards(min_side=3, max_side=7), st.integers(-6, 6).filter(bool), st.data())
def test_every_obstacle_core_is_unsatisfiable_and_minimal(
    board: Board, distance: int, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(board.names))
    move = Move(name, distance)
    oracle = oracle_for(board)
    verdict = oracle.explain(board, move)
    rules = oracle.rules
    assert verdict.legal == (move in board.legal_moves())
    if verdict.legal:
        truth = reference_truth(board)
        assert set(verdict.support) <= truth and verdict.proposition in verdict.support
        return
    assert verdict.obstacles and verdict.core == verdict.obstacles[0].core
    assert sum(o.cell is None for o in verdict.obstacles) <= 1  # the edge is said once
    own = set(board.layout.cells(board.layout.index(name), board.state[board.layout.index(name)]))
    for obstacle in verdict.obstacles:
        if obstacle.cell is not None and obstacle.cell not in own:  # a blocker: its core names its cell
            r, c = obstacle.cell
            assert any(p.endswith(f"({r},{c})") for p in obstacle.core[1:]), obstacle
        if not obstacle.core:  # past the edge: the rules have no proposition for the move
            assert verdict.proposition is None and obstacle is verdict.obstacles[-1]
            continue
        lits = [rules.var(p) for p in obstacle.core]
        assert set(lits[1:]) <= set(oracle.facts(board))  # the move's proposition, then facts
        assert not satisfiable(rules.clauses, lits)
        for k in range(len(lits)):
            assert satisfiable(rules.clauses, lits[:k] + lits[k + 1 :]), (obstacle, k)


@settings(max_examples=25, deadline=None)
@given(boards(min_side=3, max_side=8))
def test_the_solver_model_is_the_reference_truth(board: Board) -> None:
    oracle = oracle_for(board)
    assert set(oracle.true_propositions(board)) == reference_truth(board)


@settings(max_examples=25, deadline=None)
@given(boards(min_side=3, max_side=8), st.sampled_from(["moves", "steps"]))
def test_moves_why_gives_true_supports_of_every_legal_move(board: Board, metric: str) -> None:
    found = oracle_for(board).why(board, metric)
    assert [m for m, _ in found] == board.legal_moves(metric)
    truth = reference_truth(board)
    for move, props in found:
        steps = abs(move.distance)
        assert set(props) <= truth
        assert sum(p.startswith("Empty(") for p in props) == steps, (move, props)
        assert sum(p.startswith(("CM", "Slide")) for p in props) == steps, (move, props)


def test_the_edge_is_one_obstacle_said_once_and_a_blocker_s_core_names_its_cell() -> None:
    """A vehicle against the edge, asked to slide two cells: the edge was listed twice, the second
    time as "a slide goes at most 1 cell" where it goes none; on a lane too short for the slide, the
    core of the slide alone was shown as the core of a vehicle in the way."""
    board = Board.from_text("AA.B/...B/CC../....")
    verdict = oracle_for(board).explain(board, Move("A", -2))
    assert [(o.cell, o.what, o.core) for o in verdict.obstacles] == [(None, "the left edge", ("CML(0,0)",))]
    wrap = Board.from_text("# goal: A\n# wrap: yes\n# target: 2,0 north\nssss.\nA.MMM\nA1OxY\nA1O.Y\n")
    verdict = oracle_for(wrap).explain(wrap, Move("A", -2))
    assert [(o.cell, o.core) for o in verdict.obstacles] == [(None, ("SlideU(1,0,2)",))]
    assert verdict.obstacles[0].what == "A itself (the lane wraps around)"
    short = Board.from_text(".AA.B/....B/CC.../.....")
    verdict = oracle_for(short).explain(short, Move("A", -3))
    assert len(verdict.obstacles) == 1 and "goes at most 1 cell" in verdict.obstacles[0].text
