"""The game's logic view (rushhour/play/logic_view.py) against a second source of truth: the reference
rules of rushhour/board.py.  A vehicle's ``CM*``/``Slide*`` propositions are true exactly when the rules
allow the slide; its cells' state propositions say what the board holds there; a refusal's core names
the cell the rules say is in the way; a hint's blockers are the vehicles and walls on the goal's way,
read off the board cell by cell.  The full screen is tested in tests/test_logic_view_pty.py."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rushhour.board import HORIZONTAL, Board, Move
from rushhour.errors import IllegalMoveError
from rushhour.formats import parse_text
from rushhour.levels import resolve_board
from rushhour.logic.oracle import MoveOracle, oracle_for
from rushhour.play.controller import Controller, Mode
from rushhour.play.logic_view import (
    COMPILING,
    TITLE,
    Line,
    LogicView,
    cells_named,
    chain_lines,
    goal_move,
    logic_view,
)
from tests.boards import TINY
from tests.strategies import boards_of_every_kind
from tests.test_controller import make as make_controller

WRAP = "# wrap: yes\n# target: 0,4 east\nA...A\n.BB..\n..C..\n..C.."


def boards() -> list[Board]:
    named = [resolve_board(spec).board for spec in ("classic:2", "classic:7", "classic:12")]
    named.append(parse_text(WRAP)[0].board)
    named.append(parse_text(TINY)[0].board)
    return named + boards_of_every_kind(25, 4, dense=True)


def expand(view: LogicView, oracle: MoveOracle) -> dict[str, bool]:
    """Every proposition the view gives a truth to: ``T X`` / ``F X`` lines, ``F X .. Y`` runs of a
    move chain expanded to each proposition of the chain from X to Y."""
    chains = [[oracle.rules.names[v - 1] for v in chain] for chain in oracle.rules.reach_vars.values()]
    out: dict[str, bool] = {}
    for line in view.lines:
        if line.truth is None:
            continue
        if " .. " in line.text:
            first, last = line.text.split(" .. ")
            chain = next(c for c in chains if first in c and last in c)
            for name in chain[chain.index(first) : chain.index(last) + 1]:
                out[name] = line.truth
            continue
        for name in re.findall(r"\w+\([\d,]+\)|\bWon\b", line.text):
            assert out.get(name, line.truth) == line.truth, name
            out[name] = line.truth
    return out


def rules_truth(board: Board, name: str, oracle: MoveOracle) -> dict[str, bool]:
    """Each move proposition of the vehicle, true when the reference rules allow its slide."""
    lay = board.layout
    i = lay.index(name)
    own = lay.cells(i, board.state[i])
    legal = set(board.legal_moves())
    out = {}
    for d, sign in (("L", -1), ("R", 1)) if lay.orientations[i] == HORIZONTAL else (("U", -1), ("D", 1)):
        lead = own[-1] if sign > 0 else own[0]
        for k, var in enumerate(oracle.rules.reach_vars.get((d, lead), []), start=1):
            out[oracle.rules.names[var - 1]] = Move(name, sign * k) in legal
    return out


def state_word(board: Board, name: str) -> str:
    vehicle = board.vehicle(name)
    if name == board.goal:
        return "Red"
    return f"{'H' if vehicle.horizontal else 'V'}{vehicle.length}"


def test_every_vehicle_s_propositions_match_the_rules() -> None:
    for board in boards():
        oracle = oracle_for(board)
        for name in board.names:
            view = logic_view(board, name, None, None, oracle)
            truth = expand(view, oracle)
            moves = rules_truth(board, name, oracle)
            assert {p: truth[p] for p in moves} == moves, (board, name)
            state = state_word(board, name)
            for part, cell in enumerate(board.cells_of(name)):
                at = f"({cell[0]},{cell[1]})"
                assert truth[f"{state}{at}"] and truth[f"Part{part}{at}"], (board, name, cell)
                others = [s for s in oracle.rules.states if s != state]
                assert not any(truth[f"{s}{at}"] for s in others), (board, name, cell)
            assert view.cells == frozenset()  # nothing refused, no hint: nothing marked


def test_a_refusal_s_core_names_the_cell_the_rules_refuse_with() -> None:
    checked = 0
    for board in boards():
        oracle = oracle_for(board)
        legal = set(board.legal_moves())
        for name in board.names:
            for distance in (-3, -1, 1, 2, 4):
                move = Move(name, distance)
                if move in legal:
                    continue
                with pytest.raises(IllegalMoveError) as caught:
                    board.apply(move)
                view = logic_view(board, name, move, None, oracle)
                heading = next(line.text for line in view.lines if "refused" in line.text)
                assert heading == str(caught.value).replace(" is illegal: ", " refused: ")
                core = next((line.text for line in view.lines if line.text.startswith("core: ")), None)
                if core is None:  # past the end of a lane: the rules have no proposition, no core
                    assert not view.cells and caught.value.cell is None, (board, move, view.text())
                    continue
                names = core.removeprefix("core: ").split(" (cells")[0].split(", ")
                assert view.cells == cells_named(names)
                if caught.value.cell is not None:  # the blocking cell the rules name is marked
                    assert caught.value.cell in view.cells, (board, move, view.text())
                checked += 1
    assert checked > 50


def blockers_on_the_way(board: Board, goal: Move) -> set[str]:
    """What stands between the goal vehicle and its winning place, read off the board cell by cell."""
    lay = board.layout
    i = lay.goal
    offset = board.state[i]
    step = 1 if goal.distance > 0 else -1
    out: set[str] = set()
    for k in range(1, abs(goal.distance) + 1):
        cells = lay.cells(i, (offset + step * k) % lay.span(i) if lay.wrap else offset + step * k)
        for cell in cells:
            what = board.at(cell)
            if what not in (None, goal.vehicle):
                out.add("wall" if what == "#wall" else what)
    return out


def test_a_hint_s_blockers_are_those_on_the_goal_s_way() -> None:
    seen = 0
    for board in boards():
        oracle = oracle_for(board)
        goal = goal_move(board)
        if goal is None or not board.legal_moves():
            continue
        hint = board.legal_moves()[0]
        view = logic_view(board, None, None, hint, oracle)
        text = view.text()
        assert f"hint {hint}: " in text[1]
        assert text[2].startswith("T ") and "End" in text[2]  # the propositions the hinted move rests on
        expected = blockers_on_the_way(board, goal)
        if not expected:
            if goal in board.legal_moves():
                assert f"nothing blocks {goal.vehicle}: {goal} wins" in text
            continue
        line = next(t for t in text if t.startswith("blockers that must move for "))
        assert set(line.split(": ", 1)[1].split(", ")) == expected, (board, text)
        marked = {board.at(cell) for cell in view.cells}
        assert {"wall" if m == "#wall" else m for m in marked} == expected
        seen += 1
    assert seen >= 3


def test_goal_move_reaches_the_exit_or_the_target() -> None:
    for board in boards():
        goal = goal_move(board)
        if goal is None:
            assert board.is_won()
            continue
        lay = board.layout
        i = lay.goal
        offset = board.state[i] + goal.distance
        assert lay.won_offset(i, offset % lay.span(i) if lay.wrap else offset), (board, goal)


def test_the_view_waits_for_the_oracle() -> None:
    board = parse_text(TINY)[0].board
    view = logic_view(board, "A", Move("A", 1), None, None)
    assert view.text() == [TITLE, COMPILING] and not view.cells


@given(st.lists(st.booleans(), min_size=1, max_size=14))
def test_chain_lines_give_every_proposition_its_truth(truth: list[bool]) -> None:
    chain = [f"SlideR(0,0,{k})" for k in range(1, len(truth) + 1)]
    lines = chain_lines(chain, truth)
    shown: list[tuple[str, bool]] = []
    for line in lines:
        assert line.truth is not None
        if " .. " in line.text:
            first, last = line.text.split(" .. ")
            shown += [(c, line.truth) for c in chain[chain.index(first) : chain.index(last) + 1]]
        else:
            shown.append((line.text, line.truth))
    assert shown == list(zip(chain, truth, strict=True))


def test_cells_named() -> None:
    assert cells_named(["SlideR(2,1,3)", "V2(2,3)", "Won", "Won(2,5)"]) == {(2, 1), (2, 3), (2, 5)}
    assert str(Line("CMR(2,1)", True)) == "T CMR(2,1)" and str(Line("x", None)) == "x"


# --- the controller's hooks ------------------------------------------------------------------------------
def view_of(c: Controller) -> LogicView:
    """The controller's view once the oracle of the board's shape is ready (built beside the game)."""
    for _ in range(600):
        view = c.logic_view()
        assert view is not None
        if view.text()[1:] != [COMPILING]:
            return view
        time.sleep(0.05)
    raise AssertionError("the oracle was never ready")


def test_e_toggles_the_view_and_a_refusal_lasts_as_long_as_its_position() -> None:
    c, _ = make_controller()
    assert c.logic_view() is None
    c.key("e")
    assert c.logic_open and c.message == "the logic view: e closes it"
    c.key("right")  # A+1: B is in the way
    assert c.message == "A cannot slide right 1: B is in the way"
    assert "A+1 refused: B is in the way" in view_of(c).text() and view_of(c).cells == {(2, 1), (2, 2)}
    c.key("B")
    assert "B: vertical car" in view_of(c).text() and "A+1 refused: B is in the way" in view_of(c).text()
    c.key("up")  # B-1: another position, where the refusal no longer holds
    assert not any("refused" in t for t in view_of(c).text()) and not view_of(c).cells
    c.key("e")
    assert c.logic_view() is None and c.message == "logic view closed"


def test_in_the_solution_s_playback_the_view_follows_the_position_shown() -> None:
    c, _ = make_controller()
    c.key("s")
    assert c.mode is Mode.PLAYBACK
    c.key("e")
    assert c.logic_open and view_of(c).text()[1] == "A: horizontal car, the goal vehicle"
    c.key("right")  # position 1 of the solution: B-1 played, B shown as the vehicle moved
    text = view_of(c).text()
    assert text[1] == "B: vertical car" and "T V2(0,2) Part0(0,2) EndU(0,2)" in text
