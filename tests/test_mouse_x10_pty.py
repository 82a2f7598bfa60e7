"""Mouse reports in the classic (X10) encoding, ``CSI M`` and three bytes (button + 32, column + 33,
line + 33), as a terminal sends them when it ignores the SGR mode (1006) the game asks for with
``TERM=xterm-256color``: curses hands their bytes over as keys, and the game took them for keys
(``'!'`` a key of nothing, a ``q`` among them leaving the game).  Each is one click now.

The level is TINY of tests/boards.py.
"""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

from rushhour.formats import parse_text
from rushhour.play import tui
from rushhour.play.screen import geometry
from tests.boards import TINY
from tests.test_tui_pty import COLS, LINES, TAB, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

PRESS, RELEASE, MOTION, WHEEL_UP = 0, 3, 32, 64


def x10(code: int, x: int, y: int) -> str:
    """The classic report of ``code`` at screen column ``x`` and line ``y`` (from 0)."""
    return "\x1b[M" + chr(32 + code) + chr(33 + x) + chr(33 + y)


def cell_middle(cell: tuple[int, int]) -> tuple[int, int]:
    board = parse_text(TINY, source="test", fmt="grid")[0].board
    geo = geometry(board, LINES, COLS)
    assert geo is not None
    return geo.left + cell[1] * geo.cell_w + geo.cell_w // 2, geo.top + cell[0] * geo.cell_h + geo.cell_h // 2


def click(player: Player, cell: tuple[int, int]) -> None:
    x, y = cell_middle(cell)
    player.send(x10(PRESS, x, y) + x10(RELEASE, x, y))


def test_an_x10_click_selects_and_slides(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    assert "\x1b[?1006;1000h" in p.raw  # SGR reports asked for: the terminal of this test ignores it
    click(p, (3, 3))
    screen = p.wait_for("C selected")
    assert "neither" not in screen and "no vehicle" not in screen
    click(p, (3, 0))
    p.wait_for("moves 1 | steps 2")
    # grab C by its right cell and drag it two cells right: button motion (mode 1002) reports
    x1, y = cell_middle((3, 1))
    x2, _ = cell_middle((3, 2))
    x3, _ = cell_middle((3, 3))
    p.send(x10(PRESS, x1, y) + x10(MOTION, x2, y) + x10(MOTION, x3, y) + x10(RELEASE, x3, y))
    p.wait_for("moves 0 | steps 0")  # back where it was: no move left
    p.send(TAB)
    p.wait_for(" selected")
    p.settle()
    assert "neither a key" not in p.text and "no vehicle" not in p.text
    p.send("q")
    left_cleanly(p)


def test_an_x10_report_whose_bytes_hold_q_does_not_leave(tmp_path: Path, level: Path) -> None:
    """Column 80 is sent as the byte ``q`` (80 + 33), off the board: the click is on nothing."""
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    assert chr(33 + 80) == "q"
    p.send(x10(PRESS, 80, 0) + x10(RELEASE, 80, 0) + x10(WHEEL_UP, 80, 1))
    p.send(TAB)  # a key after the reports: its answer shows they were all read
    p.wait_for("B selected")
    p.settle()
    assert not p.ended
    screen = p.text
    assert "Leave this level?" not in screen and "neither a key" not in screen and "no vehicle" not in screen
    p.send("q")
    left_cleanly(p)


def test_a_report_past_column_94_is_read_whole(tmp_path: Path, level: Path) -> None:
    """Column 100 is the byte 133 (100 + 33), not a character in UTF-8: read as the start of one, it
    swallowed the reports after it (the click on C did nothing)."""
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.resize(LINES, 140)
    p.wait_for("moves 0")
    p.settle()
    board = parse_text(TINY, source="test", fmt="grid")[0].board
    geo = geometry(board, LINES, 140)
    assert geo is not None
    x, y = geo.left + 3 * geo.cell_w + geo.cell_w // 2, geo.top + 3 * geo.cell_h + geo.cell_h // 2
    far = b"\x1b[M" + bytes([32, 33 + 100, 33 + 3]) + b"\x1b[M" + bytes([35, 33 + 100, 33 + 3])
    near = b"\x1b[M" + bytes([32, 33 + x, 33 + y]) + b"\x1b[M" + bytes([35, 33 + x, 33 + y])
    os.write(p.child.child_fd, far + near)  # raw bytes: the test's terminal encoding would re-encode 133
    p.wait_for("C selected")
    p.send("q")
    left_cleanly(p)


def test_an_esc_alone_and_keys_after_it_still_work(tmp_path: Path, level: Path) -> None:
    """Keys read after an Esc to see whether a report follows are not lost: Esc then ``C`` in one write."""
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.send("h")
    p.wait_for("hint: B-1")
    p.send("\x1bC")
    p.wait_for("C selected")
    p.send("q")
    left_cleanly(p)


def test_the_classic_report_decoding_doctests() -> None:
    result = doctest.testmod(tui)
    assert result.attempted and not result.failed


def test_the_editor_draws_and_refuses_by_x10_reports(tmp_path: Path) -> None:
    """The editor's own loop read the classic reports as keys too: Esc, ``[``, ``M`` and bytes such as
    ``q`` (which asked to leave) or ``u`` (which took back the last change)."""
    from rushhour import Board
    from tests.test_editor_pty import cell_xy, editor, leave_saved, save

    def at(cell: tuple[int, int]) -> tuple[int, int]:
        x, y = cell_xy(cell)  # from 1: the report's bytes count from 0 + 33
        return x - 1, y - 1

    def drag(start: tuple[int, int], end: tuple[int, int]) -> str:
        (x0, y0), (x1, y1) = at(start), at(end)
        return x10(PRESS, x0, y0) + x10(MOTION, x1, y1) + x10(RELEASE, x1, y1)

    p = editor(tmp_path)
    p.wait_for("a new board")
    p.send(drag((2, 0), (2, 1)))  # along a row: a car
    p.wait_for("car A placed")
    p.send(drag((0, 3), (2, 3)))  # down a column: a truck
    p.wait_for("truck B placed")
    p.wait_for("optimum: 2 moves")
    # off the board at column 80 (the byte q) and line 84 (the byte u): a click on nothing
    p.send(x10(PRESS, 80, 84) + x10(RELEASE, 80, 84))
    p.send(drag((3, 0), (4, 1)))  # neither a row nor a column: refused, its bytes no keys
    p.wait_for("refused: draw a vehicle along one row or one column")
    p.settle()
    assert not p.ended and "y leaves" not in p.text  # no question to leave: no byte q was a key
    save(p, "x10.txt")  # the drawn board, nothing taken back by a byte u
    rows = Board.from_text((tmp_path / "x10.txt").read_text()).rows()
    assert rows == ["...B..", "...B..", "AA.B..", "......", "......", "......"]
    leave_saved(p)
