"""The logic view of the full-screen game (key ``e``), played in a pseudo-terminal and read with pyte:
opening and closing it, a selected vehicle's propositions true or false as the reference rules say, a
refused slide's core with the cells it names marked ``!`` on the board, a hint's blockers.

The level is TINY of tests/boards.py (B-1 then A+3 wins):

    .....
    ..B..
    AAB..
    ..CC.
    .....
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rushhour.formats import parse_text
from rushhour.logic.oracle import oracle_for
from rushhour.play.logic_view import TITLE
from rushhour.play.screen import logic_geometry
from tests.boards import TINY
from tests.test_logic_view import rules_truth
from tests.test_tui_pty import COLS, ENTER, LINES, RIGHT, TAB, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

BOARD = parse_text(TINY)[0].board


def panel(p: Player) -> list[str]:
    """The logic view's lines as the screen shows them, folded lines joined again."""
    rows = p.screen.display
    top = next(k for k, row in enumerate(rows) if TITLE in row)
    x = rows[top].index(TITLE)
    out: list[str] = []
    for row in rows[top : LINES - 3]:
        text = row[x:].rstrip()
        if text.startswith("  ") and out:
            out[-1] += " " + text.strip()
        elif text:
            out.append(text)
    return out


def truths(lines: list[str], name: str) -> dict[str, bool]:
    """The truth the view gives each move proposition of vehicle ``name`` (runs ``X .. Y`` expanded)."""
    oracle = oracle_for(BOARD)
    chains = [[oracle.rules.names[v - 1] for v in chain] for chain in oracle.rules.reach_vars.values()]
    start = lines.index(next(line for line in lines if line.startswith(f"{name}: ")))
    out: dict[str, bool] = {}
    for line in lines[start:]:
        found = re.fullmatch(r"([TF]) ((?:CM|Slide)\w\([\d,]+\))(?: \.\. (\S+))?", line)
        if not found:
            continue
        first, last = found.group(2), found.group(3) or found.group(2)
        chain = next(c for c in chains if first in c and last in c)
        for prop in chain[chain.index(first) : chain.index(last) + 1]:
            out[prop] = found.group(1) == "T"
    return out


def cell_text(p: Player, cell: tuple[int, int]) -> str:
    """What the board shows on the label line of a cell, with the logic view open."""
    geo = logic_geometry(BOARD, LINES, COLS)
    assert geo is not None
    y = geo.top + cell[0] * geo.cell_h + geo.cell_h // 2
    x = geo.left + cell[1] * geo.cell_w
    return p.screen.display[y][x : x + geo.cell_w].strip()


def test_e_opens_and_closes_the_view_and_the_help_lists_it(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("steps 0")
    assert TITLE not in p.text
    p.send("e")
    p.wait_for("its moves:")  # the oracle answers (built beside the game)
    assert "the logic view: e closes it" in p.text
    p.send("e")
    p.wait_for("logic view closed")
    p.settle()
    assert TITLE not in p.text and "its moves:" not in p.text
    p.send("?")
    p.wait_for("the logic beside the board")
    p.send("x", "q")
    left_cleanly(p)


def test_each_vehicle_s_propositions_are_true_as_the_rules_say(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("steps 0")
    p.send("e")
    p.wait_for("its moves:")
    p.settle()
    lines = panel(p)
    assert "A: horizontal car, the goal vehicle" in lines
    assert "T Red(2,0) Part0(2,0) EndL(2,0)" in lines
    assert "F Empty(2,0) Wall(2,0) H2(2,0) H3(2,0) V2(2,0) V3(2,0)" in lines
    for name in ("A", "B", "C"):
        if name != "A":
            p.send(TAB)
            p.wait_for(f"{name}: ")
            p.settle()
        lines = panel(p)
        assert truths(lines, name) == rules_truth(BOARD, name, oracle_for(BOARD)), lines
    p.send("q")
    left_cleanly(p)


def test_a_refused_slide_shows_its_core_and_marks_its_cells(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("steps 0")
    p.send("e")
    p.wait_for("its moves:")
    p.send(RIGHT)  # A+1: B is in the way
    p.wait_for("A+1 refused: B is in the way")
    p.settle()
    lines = panel(p)
    assert "(2,2) B: {CMR(2,1), V2(2,2)} is unsatisfiable with the rules" in lines
    assert "core: CMR(2,1), V2(2,2) (cells marked ! on the board)" in lines
    assert "A cannot slide right 1: B is in the way" in p.text  # the message keeps to the player's words
    assert "V2(" not in p.screen.display[LINES - 2]
    assert cell_text(p, (2, 2)) == "!B!" and cell_text(p, (2, 1)) == "!A!"
    assert cell_text(p, (1, 2)) == "B" and cell_text(p, (2, 0)) == "[A]"  # cells the core does not name
    p.send("q")
    left_cleanly(p)


def test_a_hint_shows_the_blockers_that_must_move(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("steps 0")
    p.send("e")
    p.wait_for("its moves:")
    p.send("h")
    p.wait_for("blockers that must move for A+3: B")
    p.settle()
    lines = panel(p)
    assert "hint B-1: CMU(1,2)" in lines and "T EndU(1,2), CMU(1,2), Empty(0,2)" in lines
    assert "(2,2) B: {SlideR(2,1,3), V2(2,2)} is unsatisfiable with the rules" in lines
    assert cell_text(p, (2, 2)) == "!B!"
    p.send(ENTER)  # the hint played: nothing blocks A any more, and the rules say it can go
    p.wait_for("moves 1")
    p.send("A")
    p.wait_for("A selected")
    p.settle()
    lines = panel(p)
    assert not any(line.startswith("blockers") for line in lines)
    after = BOARD.apply("B-1")
    assert truths(lines, "A") == rules_truth(after, "A", oracle_for(after)) and "T SlideR(2,1,3)" in lines
    assert cell_text(p, (2, 2)) == "o"  # a cell A can reach, no longer marked
    p.send("q", "q")
    left_cleanly(p)


def test_a_terminal_too_narrow_for_the_view_says_so(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("steps 0")
    p.send("e")
    p.wait_for("its moves:")
    p.resize(LINES, 40)
    p.wait_for("logic view: widen the terminal")
    assert TITLE not in p.text and "st 0" in p.text  # the board and the status line (short words) stay
    p.resize(LINES, COLS)
    p.wait_for(TITLE)
    p.send("q")
    left_cleanly(p)
