"""The planner's canonical order of commuting moves keeps a plan to every position, at its distance.

The argument of the module notes (rushhour/logic/planner.py) is about any position, not only won ones:
the least plan (vehicle indices read as a word) among the shortest plans to a position satisfies every
added clause.  So each position at breadth-first distance exactly k is the end of some model of the
formula of k moves; that is checked here on random boards of every kind, against the reference rules.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rushhour.board import HORIZONTAL, VERTICAL, Board, Target, Vehicle
from rushhour.logic import planner
from rushhour.logic.planner import _Formula, plan
from tests.strategies import any_board, bfs_distance, boards

DEPTH = 4


def layers(board: Board, metric: str, depth: int) -> list[list[Board]]:
    """The positions at distance exactly 0, 1, ..., depth from ``board`` (reference rules)."""
    seen = {board.state}
    out = [[board]]
    for _ in range(depth):
        nxt = []
        for here in out[-1]:
            for _, after in here.successors(metric):
                if after.state not in seen:
                    seen.add(after.state)
                    nxt.append(after)
        out.append(nxt)
    return out


def reaches(formula: _Formula, k: int, position: Board) -> bool:
    ends = [formula.X[k][i][o] for i, o in enumerate(position.state)]
    formula.build_canonical()
    return formula.solver.solve([*ends, formula.switch])


def check_every_position(board: Board, metric: str) -> int:
    formula = _Formula(board, metric, None, canonical=True)
    checked = 0
    try:
        for k, positions in enumerate(layers(board, metric, DEPTH)):
            if k:
                formula.add_step()
            for position in positions[:40]:
                assert reaches(formula, k, position), f"{metric}, {k}: {position.state}\n{board}"
                checked += 1
    finally:
        formula.solver.close()
    return checked


@settings(max_examples=25, deadline=None)
@given(boards(min_side=4, max_side=7, max_vehicles=9), st.sampled_from(["moves", "steps"]))
def test_every_position_keeps_a_plan_of_its_distance(board: Board, metric: str) -> None:
    check_every_position(board, metric)


def test_every_position_on_boards_of_every_kind() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        board = any_board(rng, min_side=4, max_side=6)
        for metric in ("moves", "steps"):
            checked += check_every_position(board, metric)
    assert checked > 500


def test_the_clauses_prune() -> None:
    # three vehicles that never meet: every order of their moves is one plan of the plain formula
    board = Board.from_text("B...../B.C.../AAC.../....DD/.E..../.E.FF.")
    counts = []
    for canonical in (False, True):
        formula = _Formula(board, "moves", None, canonical=canonical)
        for _ in range(3):
            formula.add_step()
        actions = [a for step in formula.A for acts in step for a in acts.values()]
        count = 0
        formula.build_canonical()
        while formula.solver.solve([formula.switch]):
            true = set(formula.solver.model())
            formula.solver.add_clauses([[-a for a in actions if a in true]])
            count += 1
        formula.solver.close()
        counts.append(count)
    assert counts[1] < counts[0] // 2, counts


def test_both_encodings_agree_with_bfs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planner, "PROBE_CONFLICTS", 0)  # every length decided by the canonical formula
    monkeypatch.setattr(planner, "HARD_CONFLICTS", -1)
    rng = random.Random(33)
    checked = 0
    for _ in range(40):
        board = any_board(rng, min_side=4, max_side=6)
        for metric in ("moves", "steps"):
            want = bfs_distance(board, metric)
            if want is None or want < 0 or want > 12:
                continue
            for canonical in (True, False):
                result = plan(board, metric=metric, canonical=canonical)
                assert result.length == want and result.optimal, (metric, canonical, board)
            checked += 1
    assert checked >= 30


def test_from_a_told_lower_bound_the_race_finds_the_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    # from a told bound the canonical formula joins the plain one once a length takes the plain one
    # more than HARD_CONFLICTS conflicts: at 20 it joins at once, racing the plain one at every length
    monkeypatch.setattr(planner, "HARD_CONFLICTS", 20)
    rng = random.Random(8)
    checked = 0
    for _ in range(60):
        board = any_board(rng, min_side=4, max_side=6)
        for metric in ("moves", "steps"):
            want = bfs_distance(board, metric)
            if want is None or want < 2 or want > 12:
                continue
            result = plan(board, metric=metric, min_moves=want - 1)
            assert result.length == want, (metric, board)
            checked += 1
    assert checked >= 20


def test_not_on_wrap_around_boards() -> None:
    # a vehicle may go round its lane in moves that do not commute as on a bounded lane
    wrap = Board(
        5,
        4,
        [
            Vehicle("A", HORIZONTAL, 2, 1, 0),
            Vehicle("B", VERTICAL, 2, 0, 3),
            Vehicle("C", HORIZONTAL, 2, 3, 2),
        ],
        target=Target(1, 4, "east"),
        wrap=True,
    )
    assert not _Formula(wrap, "moves", None, canonical=True).canonical
    bounded = Board(5, 4, [Vehicle("A", HORIZONTAL, 2, 1, 0), Vehicle("B", VERTICAL, 2, 0, 3)])
    assert _Formula(bounded, "steps", None, canonical=True).canonical
    for metric in ("moves", "steps"):
        result = plan(wrap, metric=metric)
        assert result.length == bfs_distance(wrap, metric)
