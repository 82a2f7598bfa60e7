"""A board that is not valid yet is kept like any other: left by the quit question's y, Ctrl-C, SIGTERM
or SIGHUP, it comes back in the next ``rushhour edit`` as the invalid board it was, its reason in the
panel, to be fixed.  The real program in a pseudo-terminal, read with pyte, as in
tests/test_editor_pty.py; the kept file is then read back in the test itself.

A kept invalid board was lost: the editor kept only boards that are valid."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from rushhour import Board
from rushhour.board import HORIZONTAL, Vehicle
from rushhour.play.draft import Draft
from rushhour.play.kept import KeptBoards
from tests.test_editor_pty import START, editor, typed
from tests.test_tui_pty import DOWN, RIGHT, TAB, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

#: what the keys of :func:`make_invalid` leave: a truck renamed LONG, the exit moved to the left, the
#: goal car A deleted, a wall at (5,0)
LEFT_INVALID = Draft(
    6, 6, (Vehicle("LONG", HORIZONTAL, 3, 2, 2),), frozenset({(5, 0)}), goal="A", exit="left"
)
REASON = "the goal vehicle A is missing (vehicles: LONG)"
#: the reason as the panel folds it
FOLDED = ("the goal vehicle A is missing", "(vehicles: LONG)")


def kept_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "rushhour" / "editor-unsaved.txt"


def make_invalid(p: Player) -> None:
    """From START: a truck, renamed, the exit moved, the goal car deleted, a wall; the panel says why."""
    p.wait_for("optimum: 1 move")
    p.send(DOWN, DOWN, RIGHT, RIGHT, "t")
    p.wait_for("truck B placed")
    p.send("n")
    typed(p, "LONG")
    p.wait_for("B is now LONG")
    p.send("e")
    p.wait_for("the exit moved")
    p.send("A", "x")
    p.wait_for("A deleted")
    p.send(DOWN, DOWN, DOWN, "w")
    p.wait_for("wall placed")
    screen = p.wait_for(FOLDED[0])
    assert "INVALID" in screen and FOLDED[1] in screen and "(not saved)" in screen


def offered_again(tmp_path: Path) -> Player:
    """``rushhour edit`` with no BOARD: the kept invalid board, its reason in the panel."""
    p = editor(tmp_path)
    screen = p.wait_for("the unsaved board of last time")
    p.wait_for(FOLDED[0])
    screen = p.text
    assert FOLDED[1] in screen and "INVALID" in screen and "6x6, 1 vehicle, 1 wall" in screen and "goal A (missing)" in screen
    assert "LONG" in screen and "cannot be read" not in screen
    return p


def fix_and_keep(p: Player, tmp_path: Path, before: list[Board]) -> None:
    """The board opened is the draft it was: LONG made the goal leaves by the exit kept on the left; the
    fixed board left unsaved takes the invalid one's place in the kept file."""
    p.send(TAB, "g")
    p.wait_for("LONG is the goal vehicle")
    p.wait_for("optimum: 1 move")
    p.send("q")
    p.wait_for("The board is not saved: y leaves and keeps it")
    p.send("y")
    left_cleanly(p)
    fixed = Board(6, 6, [Vehicle("LONG", HORIZONTAL, 3, 2, 2)], walls=[(5, 0)], goal="LONG", exit="left")
    assert KeptBoards(kept_file(tmp_path)).boards() == [*before, fixed]


@pytest.mark.parametrize("how", ["SIGHUP", "SIGTERM", "ctrl-c"])
def test_an_invalid_board_left_by_a_signal_or_ctrl_c_is_kept_and_offered_again(tmp_path: Path, how: str) -> None:
    p = editor(tmp_path, START)
    make_invalid(p)
    if how == "ctrl-c":
        p.send("\x03")
        left_cleanly(p, 130)
    else:
        signum = getattr(signal, how)
        p.child.kill(signum)
        assert p.finish() == 128 + signum
        assert "Traceback" not in p.raw
    assert KeptBoards(kept_file(tmp_path)).boards() == [LEFT_INVALID]  # exactly as it was drawn
    assert f"# invalid: {REASON}" in kept_file(tmp_path).read_text()
    p = offered_again(tmp_path)
    p.send("\x04")  # Ctrl-D: left at once, kept again, in its own place
    left_cleanly(p)
    assert KeptBoards(kept_file(tmp_path)).boards() == [LEFT_INVALID]


def test_an_invalid_board_left_by_the_quit_question_is_kept_and_fixed_next_time(tmp_path: Path) -> None:
    other = Board.from_text("....../....../AA...x/....../....../......")
    KeptBoards(kept_file(tmp_path)).keep(other)  # another session's board, kept before
    p = editor(tmp_path, START)
    make_invalid(p)
    p.send("q")
    p.wait_for("The board is not saved (not valid yet): y leaves and keeps it for next time")
    p.send("y")
    left_cleanly(p)
    assert KeptBoards(kept_file(tmp_path)).boards() == [other, LEFT_INVALID]
    p = offered_again(tmp_path)
    assert "with 1 other" in " ".join(p.text.split())
    fix_and_keep(p, tmp_path, [other])


def test_a_kept_file_that_cannot_be_read_is_said_once_and_left_as_it_is(tmp_path: Path) -> None:
    kept = kept_file(tmp_path)
    kept.parent.mkdir(parents=True)
    broken = "......\n..B...\nAAB\n"  # a row cut short
    kept.write_text(broken)
    p = editor(tmp_path)
    p.wait_for("a new board")
    said = " ".join(p.text.split())
    assert said.count("cannot be read") == 1 and "rows must be equally long" in said
    assert "the file is left as it is" in said
    p.send("q")  # nothing drawn: left at once
    left_cleanly(p)
    assert kept.read_text() == broken
    p = editor(tmp_path)
    p.wait_for("a new board")
    p.send(DOWN, DOWN, "c", "\x04")  # a board kept now: the unreadable file is moved aside, not lost
    left_cleanly(p)
    (aside,) = kept.parent.glob("editor-unsaved.txt.corrupt-*")
    assert aside.read_text() == broken and len(KeptBoards(kept).boards()) == 1
