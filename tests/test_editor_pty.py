"""The board editor, the real program in a pseudo-terminal read with pyte: drawing by keys and by mouse,
refusals with their reasons, the live check (unsolvable proven, a large board's search beside the keys),
saving in every format and into a user pack that ``levels`` and ``play`` then offer, and nothing lost
when something goes wrong."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rushhour import Board
from rushhour.formats import read_file
from rushhour.play.draft import Draft
from rushhour.play.editscreen import edit_geometry
from tests.test_tui_pty import COLS, DOWN, ESC, LEFT, LINES, RIGHT, UP, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

DATA = Path(__file__).resolve().parent / "data"
ENTER = "\r"
#: a 6x6 board: A on row 2, a vertical truck B in column 2 in its way
START = "....../....../AA..../....../....../......"


def editor(tmp_path: Path, *args: str) -> Player:
    return Player(tmp_path, command=[sys.executable, "-m", "rushhour", "edit", *args])


def typed(p: Player, text: str) -> None:
    p.send(*text, ENTER)


def cell_xy(cell: tuple[int, int], width: int = 6, height: int = 6) -> tuple[int, int]:
    """The terminal's (column, line), from 1, of a cell's middle."""
    geo = edit_geometry(Draft.empty(width, height), LINES, COLS)
    assert geo is not None
    y = geo.top + cell[0] * geo.cell_h + geo.cell_h // 2
    x = geo.left + cell[1] * geo.cell_w + geo.cell_w // 2
    return x + 1, y + 1


def drag(p: Player, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press on ``start``, move to ``end`` with the button held, release there (SGR reports)."""
    (x0, y0), (x1, y1) = cell_xy(start), cell_xy(end)
    p.send(f"\x1b[<0;{x0};{y0}M", f"\x1b[<32;{x1};{y1}M", f"\x1b[<0;{x1};{y1}m")


def save(p: Player, what: str) -> str:
    p.send("s", "\x7f" * 300)  # the prompt offers the board's file: cleared first
    typed(p, what)
    return p.wait_for(" saved to ")


def leave_saved(p: Player) -> None:
    p.send("q")
    left_cleanly(p)


def test_a_board_drawn_by_keys_is_checked_and_saved(tmp_path: Path) -> None:
    p = editor(tmp_path)
    p.wait_for("a new board")
    assert "INVALID" in p.text and "no vehicles" in p.text
    p.send(DOWN, DOWN, "c")  # car A at (2,0): the goal vehicle
    p.wait_for("car A placed")
    p.wait_for("optimum: 1 move")
    p.send(ESC, UP, UP, RIGHT, RIGHT, "t", "o")  # truck B at (0,2), turned upright
    p.wait_for("B rotated")
    p.wait_for("optimum: 2 moves")
    assert "reachable set: 14 positions" in p.text
    save(p, "drawn.txt")
    rows = Board.from_text((tmp_path / "drawn.txt").read_text()).rows()
    assert rows == ["..B...", "..B...", "AAB...", "......", "......", "......"]
    leave_saved(p)


def test_a_board_drawn_by_mouse(tmp_path: Path) -> None:
    p = editor(tmp_path)
    p.wait_for("a new board")
    drag(p, (2, 0), (2, 1))  # along a row: a car
    p.wait_for("car A placed")
    drag(p, (0, 3), (2, 3))  # down a column: a truck
    p.wait_for("truck B placed")
    drag(p, (3, 0), (4, 1))  # neither a row nor a column: refused
    p.wait_for("refused: draw a vehicle along one row or one column")
    drag(p, (0, 3), (1, 3))  # B dragged down by one
    p.wait_for("B moved")
    p.wait_for("optimum: 2 moves")
    save(p, "mouse.txt")
    rows = Board.from_text((tmp_path / "mouse.txt").read_text()).rows()
    assert rows == ["......", "...B..", "AA.B..", "...B..", "......", "......"]
    leave_saved(p)


def test_a_click_read_whole_selects_a_vehicle(tmp_path: Path) -> None:
    """A press and its release read together (a quick tap) reach the editor as one click, which it
    ignored."""
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    x, y = cell_xy((2, 0))
    p.send(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m")
    p.wait_for("selected A")
    leave_saved(p)


def test_an_overlap_is_refused_with_its_reason_and_undo_redo(tmp_path: Path) -> None:
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    p.send(DOWN, DOWN, RIGHT, "t")  # a truck from (2,1) would cover A's second cell
    p.wait_for("refused: a truck at (2,1) would overlap vehicle A at cell (2,1)")
    assert "(not saved)" not in p.text  # nothing changed
    p.send(RIGHT, "t", "o")  # at (2,2) it fits, turned upright
    p.wait_for("optimum: 2 moves")
    p.send("u")
    p.wait_for("undone")
    p.send("u")
    p.wait_for("optimum: 1 move")
    p.send("r", "r")
    p.wait_for("optimum: 2 moves")
    p.send("q")
    p.wait_for("The board is not saved")
    p.send("n")  # stay
    p.send("x")  # B is selected: deleted
    p.wait_for("B deleted")
    p.send("q", "y")
    left_cleanly(p)


def test_an_unsolvable_board_is_shown_as_proven_unsolvable(tmp_path: Path) -> None:
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    p.send(DOWN, DOWN, *[RIGHT] * 5, "w")  # a wall before the exit
    p.wait_for("UNSOLVABLE (proven)")
    assert "none of the 4 reachable positions wins" in p.text
    p.send("w")
    p.wait_for("optimum: 1 move")
    p.send("q")
    left_cleanly(p)


@pytest.mark.parametrize(
    ("typed_path", "name", "fmt"),
    [
        ("b.txt", "b.txt", "grid"),
        ("b.txt fogleman", "b.txt", "fogleman"),
        ("b.csv", "b.csv", "csv"),
        ("b.json", "b.json", "json"),
    ],
)
def test_save_and_reload_in_every_format(tmp_path: Path, typed_path: str, name: str, fmt: str) -> None:
    board = Board.from_text("..B.../..B.../AAB.../....../.CC.../......")
    p = editor(tmp_path, "..B.../..B.../AAB.../....../.CC.../......")
    p.wait_for("optimum:")
    said = save(p, typed_path)
    assert f"({fmt})" in said
    leave_saved(p)
    (entry,) = read_file(str(tmp_path / name))
    assert entry.board == board
    again = editor(tmp_path, str(tmp_path / name))  # edited again from the file: the same board
    again.wait_for("optimum: 3 moves")
    assert f"rushhour edit: {tmp_path / name}" in again.text
    leave_saved(again)


def test_the_user_pack_is_listed_and_played(tmp_path: Path) -> None:
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    p.send("k")
    typed(p, "classic")  # a built-in pack's name: refused, nothing lost, the prompt still open
    p.wait_for("not saved: classic is the name of a built-in pack")  # under the prompt, still open
    assert "add to your pack named: classic_" in p.text
    assert "(not saved)" not in p.text  # the board as it was
    p.send("\x7f" * 7)
    typed(p, "mypack")
    p.wait_for("saved as mypack:1 (rushhour play mypack:1)")
    p.send("p")  # the board played, then back
    p.wait_for("moves 0")
    p.send("A", RIGHT, RIGHT, RIGHT, RIGHT)
    p.wait_for("SOLVED")
    p.send("q")
    p.wait_for("back from playing")
    leave_saved(p)
    pack = tmp_path / "data" / "rushhour" / "packs" / "mypack.txt"
    (entry,) = read_file(str(pack))
    assert entry.board == Board.from_text(START) and entry.meta["moves"] == "1"
    listing = Player(tmp_path, command=[sys.executable, "-m", "rushhour", "levels", "mypack"])
    listing.wait_for("mypack:1")
    assert "1 move" in listing.text
    assert listing.finish() == 0
    game = Player(tmp_path, "mypack:1", "--no-save")
    game.wait_for("mypack:1 of 1")
    game.send("q")
    left_cleanly(game)


def test_a_file_that_cannot_be_written_loses_nothing(tmp_path: Path) -> None:
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    p.send(DOWN, DOWN, RIGHT, RIGHT, "t")
    p.wait_for("truck B placed")
    p.send("s")
    typed(p, "no-such-folder/b.txt")  # relative to the folder the editor runs in
    p.wait_for("not saved: cannot write")
    assert "(not saved)" in p.text and "save to (PATH or PATH FORMAT): " in p.text  # asked again
    p.send(ESC)
    p.wait_for("cancelled")
    p.send("q")
    p.wait_for("The board is not saved")
    p.send("y")
    left_cleanly(p)
    assert "the unsaved board is kept in" in p.raw
    again = editor(tmp_path)  # the unsaved board is opened again
    again.wait_for("the unsaved board of last time")
    again.wait_for("UNSOLVABLE (proven)")
    save(again, "b.txt")
    leave_saved(again)
    assert Board.from_text((tmp_path / "b.txt").read_text()).rows()[2] == "AABBB."
    assert not (tmp_path / "data" / "rushhour" / "editor-unsaved.txt").exists()  # forgotten once saved


def test_a_board_too_large_for_the_terminal_says_so_and_is_kept(tmp_path: Path) -> None:
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    p.send(DOWN, DOWN, RIGHT, RIGHT, "t")
    p.wait_for("truck B placed")
    p.resize(12, 40)
    p.wait_for("terminal too small for this board")
    p.send("x", LEFT, "t")  # typed blind: neither deletes nor places a vehicle
    p.send("s")  # saving is answered: its question shows under the message
    p.wait_for("save to")
    p.send(ESC)
    p.resize(8, 20)  # too small for the whole sentence: the short one, whole
    p.wait_for("q leaves, s saves")
    assert "too small:" in p.text and "needs " in p.text
    p.resize(LINES, COLS)
    p.wait_for("6x6, 2 vehicles")  # the board as it was
    p.send("q")
    p.wait_for("The board is not saved")
    p.send("y")
    left_cleanly(p)


def test_the_hardest_position_is_jumped_to(tmp_path: Path) -> None:
    p = editor(tmp_path, "AA..../...B../...B../...B../....../......")
    p.wait_for("hardest: 2 moves")
    assert "optimum: 1 move" in p.text and "rushhour edit: AA..../...B../" in p.text
    p.send("j")
    p.wait_for("the hardest position: 2 moves")
    p.wait_for("optimum: 2 moves")
    p.send("j")
    p.wait_for("this is the hardest position already")
    p.send("u")
    p.wait_for("optimum: 1 move")
    p.send("q")
    left_cleanly(p)


def test_harden_runs_beside_the_keys(tmp_path: Path) -> None:
    p = editor(tmp_path, "AA..../...B../...B../...B../....../......")
    p.wait_for("optimum: 1 move")
    p.send("h")
    p.wait_for("harden: round")
    p.send("\t")  # answered while harden runs
    p.wait_for("selected A")
    p.wait_for("best: ")
    p.send("h")
    p.wait_for("harden stopped")
    p.send("a")
    p.wait_for("harden's best board")
    p.send("u", "q")
    left_cleanly(p)


def test_a_large_board_is_checked_beside_the_keys_and_esc_stops_it(tmp_path: Path) -> None:
    p = editor(tmp_path, str(DATA / "open12.txt"))
    p.wait_for("exploring the reachable set")
    p.send("\t")  # answered while the set is explored
    p.wait_for("selected A")
    assert "exploring the reachable set" in p.text
    p.send(ESC)
    p.wait_for("check stopped: stopped by Esc")
    p.send("q")
    left_cleanly(p)


def test_ctrl_c_keeps_the_board(tmp_path: Path) -> None:
    p = editor(tmp_path, START)
    p.wait_for("optimum: 1 move")
    p.send(DOWN, DOWN, RIGHT, RIGHT, "t")
    p.wait_for("truck B placed")
    p.send("\x03")
    left_cleanly(p, 130)
    kept = tmp_path / "data" / "rushhour" / "editor-unsaved.txt"
    assert Board.from_text(kept.read_text()).rows()[2] == "AABBB."


def test_a_wrap_around_board_moves_across_its_edges(tmp_path: Path) -> None:
    board = tmp_path / "w.txt"
    board.write_text("# wrap: yes\n......\n......\nAA.B..\n...B..\n......\n......\n")
    p = editor(tmp_path, str(board))
    p.wait_for("wrap-around: A wins with its front at")  # folded in the panel
    p.wait_for("optimum: 1 move")
    assert "(2,5) heading east" in p.text and "AA.B.*" in p.text.replace(" ", "")  # the target cell
    p.send("B", DOWN, DOWN, DOWN, DOWN)  # down off the bottom edge and in again at the top
    p.wait_for("selected B: vertical car at (0,3)")
    save(p, str(board))
    leave_saved(p)
    again = Board.from_text(board.read_text())
    assert again.wrap and again.vehicle("B").row == 0


def test_a_name_too_long_for_the_terminal_is_refused(tmp_path: Path) -> None:
    """A vehicle renamed with a long name made the board too wide to show, and then ``u`` (a key that
    changes a board not shown) was ignored: the board could not be seen again, nor the name undone."""
    p = editor(tmp_path, "..B.../..B.../AAB.../....../....../......")
    p.wait_for("optimum: 2 moves")
    p.send("B", "n")
    typed(p, "LONGNAME12")
    p.wait_for("refused: the board would not fit in the terminal: it needs 110x13, the terminal is 90x30")
    assert "new name for B: LONGNAME12_" in p.text and "terminal too small" not in p.text
    p.send(*"\x7f" * 7, ENTER)  # LON: three letters fit
    p.wait_for("B is now LON")
    assert "selected LON: vertical truck at (0,2)" in p.text and "(not saved)" in p.text
    p.send("u")
    p.wait_for("undone")
    assert "(not saved)" not in p.text  # the name undone: the board as opened
    leave_saved(p)
