"""The full-screen game played as a person plays it: the real program in a pseudo-terminal, its screen
read through the ``pyte`` terminal emulator.

The level is TINY of tests/boards.py (B-1 then A+3 wins in 2 moves):

    .....
    ..B..
    AAB..
    ..CC.
    .....
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from rushhour.formats import parse_text
from rushhour.levels import packs
from rushhour.play.screen import geometry, needed_size
from tests.boards import SECOND, TINY
from tests.terminal import spawn_program

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

TIMEOUT = 60  # generous: the machine may be loaded, and the move oracle compiles on first use
LINES, COLS = 30, 90
UP, DOWN, RIGHT, LEFT = "\x1bOA", "\x1bOB", "\x1bOC", "\x1bOD"  # what xterm sends in keypad mode
ENTER, ESC, TAB = "\r", "\x1b", "\t"
ALT_SCREEN_ON, ALT_SCREEN_OFF = "\x1b[?1049h", "\x1b[?1049l"
WIN = ("B", UP, "A", RIGHT, RIGHT, RIGHT)  # B-1 then A+3, slide by slide


class Player:
    """`rushhour play ...` in a pseudo-terminal, with the screen it shows."""

    def __init__(self, tmp_path: Path, *args: str, command: list[str] | None = None, **extra: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLORTERM")}
        env.update(XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm-256color", PYTHONIOENCODING="utf-8")
        env.update(extra)
        argv = command or [sys.executable, "-m", "rushhour", "play", *args]
        self.child = spawn_program(
            argv, env=env, encoding="utf-8", dimensions=(LINES, COLS), cwd=str(tmp_path)
        )
        self.screen = pyte.Screen(COLS, LINES)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self.ended = False

    def _read(self, wait: float) -> None:
        try:
            data = self.child.read_nonblocking(65536, wait)
        except pexpect.TIMEOUT:
            return
        except pexpect.EOF:
            self.ended = True
            return
        self.raw += data
        self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, words: str) -> str:
        """Read until the screen shows ``words``; the screen's text."""
        end = time.monotonic() + TIMEOUT
        while words not in self.text:
            if self.ended or time.monotonic() > end:
                raise AssertionError(f"{words!r} never appeared; the screen:\n{self.text}")
            self._read(0.05)
        return self.text

    def settle(self, quiet: float = 0.3) -> None:
        """Read until the program has drawn nothing for ``quiet`` seconds (a redraw is complete)."""
        end = time.monotonic() + TIMEOUT
        while not self.ended and time.monotonic() < end:
            before = len(self.raw)
            self._read(quiet)
            if len(self.raw) == before:
                return

    def send(self, *keys: str) -> None:
        for key in keys:
            self.child.send(key)
            time.sleep(0.03)  # an Esc alone must not be read as the start of the next key's sequence

    def coloured(self) -> bool:
        """Whether any character on the screen has a colour."""
        cells = [char for line in self.screen.buffer.values() for char in line.values()]
        return any(char.bg != "default" or char.fg != "default" for char in cells)

    def resize(self, lines: int, cols: int) -> None:
        self.screen.resize(lines, cols)
        self.child.setwinsize(lines, cols)

    def finish(self) -> int:
        """Wait for the end; the exit status (or 128 + the signal that ended it)."""
        end = time.monotonic() + TIMEOUT
        while not self.ended and time.monotonic() < end:
            self._read(0.1)
        self.child.close()
        status = self.child.exitstatus
        return 128 + self.child.signalstatus if status is None else status

    def click(
        self, board_text: str, cell: tuple[int, int], code: int = 0, release: bool = True, together: bool = False
    ) -> None:
        """A click (SGR mouse report) in the middle of a board cell; ``together``: its press and release
        in one write, as a quick tap or a slow link delivers them."""
        board = parse_text(board_text, source="test", fmt="grid")[0].board
        geo = geometry(board, LINES, COLS)
        assert geo is not None
        y = geo.top + cell[0] * geo.cell_h + geo.cell_h // 2
        x = geo.left + cell[1] * geo.cell_w + geo.cell_w // 2
        press, up = f"\x1b[<{code};{x + 1};{y + 1}M", f"\x1b[<{code};{x + 1};{y + 1}m"
        if together:
            self.send(press + up)
            return
        self.send(press)
        if release:
            self.send(up)


def progress(tmp_path: Path) -> dict[str, dict[str, object]]:
    data = json.loads((tmp_path / "data" / "rushhour" / "progress.json").read_text())
    return data["levels"]  # type: ignore[no-any-return]


def left_cleanly(player: Player, status: int = 0) -> None:
    assert player.finish() == status
    assert ALT_SCREEN_ON in player.raw
    assert player.raw.rindex(ALT_SCREEN_OFF) > player.raw.rindex(ALT_SCREEN_ON)  # the screen is given back
    assert "Traceback" not in player.raw


def test_select_slide_refuse_undo_redo_and_reset(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    screen = p.wait_for("moves 0 | steps 0 | optimal 2 | hints 0 | time 0:0")
    assert "tiny" in screen and "[A]" in screen  # the goal car is selected to start with
    assert p.coloured()
    p.send(TAB)
    p.wait_for("B selected (vertical car")
    p.send(DOWN)
    p.wait_for("B cannot slide down 1: C is in the way")
    p.send(UP)
    p.wait_for("moves 1 | steps 1")
    p.send("C", LEFT, LEFT)  # two slides of C: one move
    p.wait_for("moves 2 | steps 3")
    p.send("u")
    p.wait_for("undid C-2")
    p.send("\x19")  # Ctrl-Y
    p.wait_for("redid C-2")
    p.send("\x12")  # Ctrl-R
    p.wait_for("Reset to the start? (y: yes")
    p.send("y")
    p.wait_for("back to the start (2 moves taken back")
    p.send(":", "C", ENTER)
    p.wait_for("C selected")
    p.send("?")
    assert "undo the last move" in p.wait_for("this help (the stopwatch waits)")
    p.send("q")
    left_cleanly(p)


def test_a_win_without_help_is_perfect_and_saved(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level))
    p.wait_for("moves 0 | steps 0")
    p.send(*WIN)
    screen = p.wait_for("*** SOLVED ***")
    assert "Solved in 2 moves (4 steps)." in screen and "PERFECT: 2 moves, the optimum!" in screen
    assert "Time: 0:0" in screen and "Progress saved." in screen
    assert screen.splitlines()[-1].strip().startswith("Enter next level  v the board  u undo")  # the win's keys
    p.send("q")
    left_cleanly(p)
    (record,) = progress(tmp_path).values()
    assert (record["best"], record["perfect"], record["hints"], record["solution_seen"]) == (2, True, 0, False)


def test_progress_that_cannot_be_read_is_said_on_the_screen_and_at_the_win(tmp_path: Path, level: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")  # the progress file would be under a file: it cannot be read
    p = Player(tmp_path, str(level), XDG_DATA_HOME=str(blocked))
    p.wait_for("Progress is not saved in this session")
    p.send(*WIN)
    screen = p.wait_for("*** SOLVED ***")
    p.settle()
    assert "Progress is not saved in this session" in " ".join(p.text.split())
    assert "Progress saved." not in screen
    p.send("q")
    left_cleanly(p)


def test_a_hint_is_played_with_enter_and_the_win_is_not_perfect(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level))
    p.wait_for("moves 0")
    p.send("h")
    p.wait_for("hint: B-1 (B up 1): Enter plays it")
    p.send(ENTER)
    p.wait_for("hints 1")
    p.wait_for("moves 1 | steps 1")
    p.send("A", RIGHT, RIGHT, RIGHT)
    screen = p.wait_for("*** SOLVED ***")
    assert "the optimum, but not PERFECT: help was used" in screen and "With 1 hint." in screen
    p.send("q")
    left_cleanly(p)
    (record,) = progress(tmp_path).values()
    assert (record["perfect"], record["hints"]) == (False, 1)


def test_solution_playback_steps_and_returns(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.send("s")
    screen = p.wait_for("solution: position 0 of 2")
    # the key line says the playback's keys (it listed the game's, Tab select and arrows slide)
    assert screen.splitlines()[-1].strip().startswith("right step  left back  p animate  Esc your position")
    p.send(RIGHT)
    p.wait_for("solution: position 1 of 2, 1. B-1 (B up 1)")
    p.send(" ")
    p.wait_for("position 2 of 2, 2. A+3 (A right 3)")
    p.send(LEFT)
    p.wait_for("position 1 of 2")
    p.send("p")
    p.wait_for("position 2 of 2")  # animated
    p.send(ESC)
    screen = p.wait_for("back where you were: play on")
    assert "moves 0 | steps 0" in screen
    p.send("q")
    left_cleanly(p)


def test_a_terminal_whose_mouse_curses_cannot_read_is_not_asked_for_reports(
    tmp_path: Path, level: Path
) -> None:
    """TERM=vt100 describes no mouse: a terminal asked for motion reports (mode 1002) would send a
    click all the same, and curses would hand its bytes over as keys (Esc, [, M, then letters that
    may be q or u).  So it is not asked, and keys alone play the game."""
    p = Player(tmp_path, str(level), "--no-save", TERM="vt100")
    p.wait_for("moves 0")
    p.send("\t")
    p.wait_for("selected")
    p.send("q")
    assert p.finish() == 0
    assert "\x1b[?1002" not in p.raw and "\x1b[?1000h" not in p.raw


def test_mouse_click_selects_and_slides(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    assert "\x1b[?1002h" in p.raw  # dragging is reported where the terminal can
    p.click(TINY, (3, 3))
    p.wait_for("C selected")
    p.click(TINY, (3, 0))
    p.wait_for("moves 1 | steps 2")
    p.click(TINY, (3, 1), release=False)  # grab C by its right cell and drag it two cells right
    p.click(TINY, (3, 2), code=32, release=False)
    p.click(TINY, (3, 3), code=32)
    p.wait_for("moves 0 | steps 0")  # back where it was: no move left
    p.click(TINY, (2, 1))  # A
    p.click(TINY, (2, 4))
    p.wait_for("A cannot slide right 3: B is in the way")
    p.send("q")
    left_cleanly(p)


def test_a_click_read_whole_selects_and_slides(tmp_path: Path, level: Path) -> None:
    """A press and its release read together reach the game as one click (ncurses' BUTTON1_CLICKED),
    which the game ignored: a quick tap did nothing."""
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.click(TINY, (3, 3), together=True)
    p.wait_for("C selected")
    p.click(TINY, (3, 0), together=True)
    p.wait_for("moves 1 | steps 2")
    p.send("q")
    p.wait_for("Leave this level?")
    p.send("q")
    left_cleanly(p)


def test_wide_characters_typed_stay_on_their_line(tmp_path: Path, level: Path) -> None:
    """Text was cut to the screen by characters, not by the columns they take: 90 wide characters
    typed at the name prompt ran over the key line."""
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    keys_line = p.text.splitlines()[-1]
    p.send(":", "中" * 90)
    p.settle()
    assert p.text.splitlines()[-1] == keys_line
    assert "中" in p.text
    p.send(ESC, "q")
    left_cleanly(p)


def test_a_message_longer_than_the_screen_wraps_under_the_board(tmp_path: Path, level: Path) -> None:
    """The first game's goal line is longer than 90 columns: it was cut, and its end ('? for help')
    never shown."""
    p = Player(tmp_path, str(level), "--no-save")
    screen = p.wait_for("? for help")
    rows = screen.splitlines()
    assert rows[-3].strip().startswith("Goal: drive A out") and rows[-4].strip().startswith("moves 0 | steps 0")
    p.send("q")
    left_cleanly(p)


def test_the_level_menu_and_next_level(tmp_path: Path) -> None:
    two = tmp_path / "two.txt"
    two.write_text(TINY + "\n" + SECOND)
    p = Player(tmp_path, str(two), "--no-save")
    p.wait_for("tiny (1 of 2)")
    p.send("n")
    p.wait_for("second (2 of 2)")
    p.send("l")
    p.wait_for("Levels: up/down choose, Enter plays, Esc returns")
    p.settle()  # the whole menu drawn
    screen = p.text
    first = packs()[0]
    assert f"{first.title} ({first.name})" in screen and f"{first.name}:1" in screen
    p.send(DOWN)
    p.wait_for(f"> {first.name}:1 ")
    p.send(ENTER)
    p.wait_for(f"({first.name}:1 of {len(first.levels)})")
    p.send("q")
    left_cleanly(p)


def test_no_argument_opens_the_first_unsolved_level_and_timed_shows_the_clock(tmp_path: Path) -> None:
    first = packs()[0]
    p = Player(tmp_path, "--timed")
    p.wait_for(f"({first.name}:1 of {len(first.levels)})")
    p.wait_for("| clock 0 s")
    p.send("q")
    left_cleanly(p)


def test_a_resize_redraws_and_too_small_waits(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.resize(8, 20)
    p.wait_for("terminal too small")
    p.settle()
    shown = " ".join(p.text.split())  # folded over several lines, nothing cut off
    assert "the terminal is 20x8" in shown and "(q quits)" in shown
    p.send("B")  # keys wait too
    p.resize(LINES, COLS)
    p.wait_for("moves 0")
    assert "too small" not in p.text
    p.send("q")
    left_cleanly(p)


@pytest.mark.parametrize("name", ["A", "CAR", "CAR1", "LONGCAR", "VERYLONGNAME"])
def test_the_size_a_board_needs_is_the_smallest_it_is_drawn_in(name: str) -> None:
    vehicles = [
        {"name": name, "orientation": "H", "length": 2, "row": 2, "col": 0},
        {"name": "B", "orientation": "V", "length": 2, "row": 0, "col": 3},
    ]
    text = json.dumps({"width": 6, "height": 6, "vehicles": vehicles, "goal": name})
    board = parse_text(text, source="test", fmt="json")[0].board
    cols, lines = needed_size(board)
    geo = geometry(board, lines, cols)
    assert geo is not None and geo.cell_w >= len(name)
    assert geometry(board, lines - 1, cols) is None and geometry(board, lines, cols - 1) is None


def test_the_help_in_a_small_terminal_folds_its_lines_and_says_how_to_leave(
    tmp_path: Path, level: Path
) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.resize(LINES, 60)
    p.wait_for("moves 0")
    p.send("?")
    p.wait_for("other keys: back to the game")
    p.settle()
    inside = " ".join(" ".join(line.strip(" |") for line in p.text.splitlines()).split())
    assert "The rule upper-case letters and digits select" in inside  # the rule first
    p.send("\x1b[6~", "\x1b[6~")  # PgDn: the help scrolls to its last lines
    p.wait_for("other keys: back to the game")
    p.settle()
    inside = " ".join(" ".join(line.strip(" |") for line in p.text.splitlines()).split())
    assert "leave at once (every win is saved as it happens)" in inside  # folded, not cut at the frame
    p.send("x")
    p.wait_for("moves 0")
    p.send("q")
    left_cleanly(p)


@pytest.mark.parametrize(
    "way,status",
    [("q", 0), ("\x03", 130), ("\x04", 0), (signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGHUP, 128 + 1)],
    ids=["q", "ctrl-c", "ctrl-d", "sigterm", "sighup"],
)
def test_every_way_out_restores_the_terminal(tmp_path: Path, level: Path, way: str | int, status: int) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    if isinstance(way, str):
        p.send(way)
    else:
        p.child.kill(way)
    left_cleanly(p, status)


def test_an_unexpected_error_restores_the_terminal_then_says_one_line(tmp_path: Path, level: Path) -> None:
    crash = (
        "import sys\n"
        "from rushhour import cli\n"
        "from rushhour.play import controller\n"
        "def broken(self, name):\n"
        "    raise RuntimeError('the machine broke')\n"
        "controller.Controller.key = broken\n"
        f"sys.exit(cli.main(['play', {str(level)!r}, '--no-save']))\n"
    )
    p = Player(tmp_path, command=[sys.executable, "-c", crash])
    p.wait_for("moves 0")
    p.send("x")
    left_cleanly(p, 1)
    after = p.raw[p.raw.rindex(ALT_SCREEN_OFF) :]
    assert "error: unexpected RuntimeError: the machine broke" in after


def test_no_color_keeps_names_and_shapes(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save", NO_COLOR="1")
    screen = p.wait_for("moves 0")
    assert "[A]" in screen and " B " in screen and " C " in screen
    assert not p.coloured()
    # the shapes: every cell of a vehicle in reverse video, the empty cells not
    rows = [p.screen.buffer[y] for y in range(LINES)]
    reversed_labels = {cell.data for row in rows for cell in row.values() if cell.reverse and cell.data.strip()}
    assert {"A", "B", "C"} <= reversed_labels and "." not in reversed_labels
    p.send("q")
    left_cleanly(p)


def test_a_terminal_that_cannot_show_the_full_screen_gets_the_line_mode(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save", TERM="dumb")
    p.child.expect("your move")
    p.child.sendline("q")
    assert p.finish() == 0
    assert ALT_SCREEN_ON not in p.raw + (p.child.before or "")


def test_the_solution_seen_then_quit_takes_perfect_from_the_next_win(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level))
    p.wait_for("moves 0")
    p.send("s")
    p.wait_for("solution: position 0 of 2")
    p.send(ESC)
    p.wait_for("back where you were: play on")
    p.send("q")
    left_cleanly(p)
    (record,) = progress(tmp_path).values()
    assert (record["solved"], record["solution_seen_since_win"]) == (False, True)
    again = Player(tmp_path, str(level))
    again.wait_for("moves 0 | steps 0")
    again.send(*WIN)
    screen = again.wait_for("*** SOLVED ***")
    assert "2 moves, the optimum, but not PERFECT: help was used." in screen
    assert "Help in earlier games of this level: the solution." in screen
    again.send("q")
    left_cleanly(again)
    (record,) = progress(tmp_path).values()
    assert (record["solved"], record["perfect"], record["solution_seen"]) == (True, False, True)


def test_the_end_of_input_leaves_cleanly_and_keeps_the_help_had(tmp_path: Path, level: Path) -> None:
    """The keys come from a terminal of their own, whose other end the test then closes: the game reads
    the end of its input (the screen stays on the first terminal, so the game sees no hangup)."""
    import tty

    keys, keys_end = os.openpty()
    tty.setraw(keys_end)  # the game switches only its screen's terminal to raw keys
    script = 'exec "$0" -m rushhour play "$1" < "$2"'
    p = Player(tmp_path, command=["sh", "-c", script, sys.executable, str(level), os.ttyname(keys_end)])
    os.close(keys_end)
    p.wait_for("moves 0")
    os.write(keys, b"h")
    p.wait_for("Enter plays it")
    os.close(keys)  # the end of input
    left_cleanly(p, 0)
    (record,) = progress(tmp_path).values()
    assert (record["solved"], record["hints_since_win"]) == (False, 1)


def test_rows_and_columns_are_labelled_and_a_first_game_says_the_goal(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level))  # saves kept, none yet: a first game
    p.wait_for("Goal: drive A out through the exit on the right")
    p.settle()
    lines = p.text.splitlines()
    assert any(line.split() == ["0", "1", "2", "3", "4"] for line in lines)  # the columns, above the frame
    assert any(line.strip().startswith("2 |") and "[A]" in line for line in lines)  # A's row, numbered
    p.send("B", UP, "q", "q")  # asked, then left: the position is kept
    left_cleanly(p)
    again = Player(tmp_path, str(level))
    again.wait_for("continued where you left it (1 move)")
    assert "moves 1" in again.text and "Goal:" not in again.text  # no longer a first game
    again.send(*WIN[1:])  # A then three slides right: B is out of the way already
    again.wait_for("*** SOLVED ***")
    again.settle()
    assert "Time: 0:0" in again.text
    again.send("v")  # the box put away: the final position
    again.wait_for("SOLVED: v shows the result again")
    again.send("q")
    left_cleanly(again)


def test_q_on_a_board_with_a_vehicle_q_asks_before_leaving(tmp_path: Path) -> None:
    board = tmp_path / "q.txt"
    board.write_text("# name: queue\n.....\n...Q.\nAA.Q.\n.PP..\n.....\n")
    p = Player(tmp_path, str(board), "--no-save")
    p.wait_for("moves 0")
    p.send("Q")
    p.wait_for("Q selected")
    p.send("p")  # lower case: a command key or a word on how to select, never a vehicle
    p.wait_for("P (Shift+p) selects P")
    p.send("P", RIGHT, "q")
    p.wait_for("Leave this level?")
    p.send("x")
    p.wait_for("staying: play on")
    p.send("q")
    p.wait_for("Leave this level?")
    p.send(ENTER)
    left_cleanly(p)


def test_a_timed_win_gives_the_clock_against_the_fastest_and_the_best_time(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--timed")
    p.wait_for("clock 0 s")
    p.send(*WIN)
    p.wait_for("the fastest possible!")  # B-1 then A+3 is the fastest solution too
    assert "Time: 0:0" in p.text
    p.send("q")
    left_cleanly(p)
    again = Player(tmp_path, str(level), "--timed")
    again.wait_for("clock 0 s")
    again.send(*WIN)
    again.wait_for("Clock: ")
    again.settle()
    assert "your best" in " ".join(again.text.split())  # the time against the first win's
    again.send("q")
    left_cleanly(again)


def test_at_40x13_the_help_scrolls_to_every_key(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.resize(13, 40)
    p.send("?")
    p.wait_for("up/down scroll")
    seen = set()
    for _ in range(40):  # down, line by line, to the end
        p.settle(0.1)
        seen.update(line.strip(" |") for line in p.text.splitlines())
        p.send(DOWN)
    text = " ".join(seen)
    assert "Ctrl-C / Ctrl-D" in text and "The rule" in text and "u / Ctrl-Z" in text
    p.send("x")
    p.send("q")
    left_cleanly(p)


@pytest.mark.parametrize("side", ["left", "right"])
def test_the_exit_mark_fits_beside_the_board_at_every_width(side: str) -> None:
    """A centred board used to leave too few columns for ``exit <`` (which then covered the frame and
    the first column) or for ``> exit`` (cut to ``> exi`` at the smallest width)."""
    text = f"# exit: {side}\n......\n......\n..AA..\n......\n......\n......\n"
    board_ = parse_text(text, source="t", fmt="grid")[0].board
    need_cols, need_lines = needed_size(board_)
    for cols in range(need_cols, 100):
        geo = geometry(board_, need_lines + 10, cols)
        assert geo is not None
        right = geo.left + board_.width * geo.cell_w  # the right frame's column
        if side == "left":
            assert geo.left - 7 >= 0 and right < cols, cols  # `exit <` then the frame, left of the cells
        else:
            assert geo.left - 1 >= 0 and right + len("> exit") <= cols, cols


@pytest.mark.parametrize(
    ("text", "below"),
    [
        ("# name: down\n# exit: bottom\n......\n..A...\n..A...\n......\n......\n......\n", "exit"),
        ("# name: torus\n# wrap: yes\n......\n......\nAA....\n......\n......\n......\n", "(2,5) heading east"),
    ],
)
def test_the_line_under_the_board_is_never_covered_by_the_message(tmp_path: Path, text: str, below: str) -> None:
    """The word ``exit`` under a bottom exit, and a wrap-around board's goal, were written over by the
    status line when the message took two lines."""
    path = tmp_path / "board.txt"
    path.write_text(text)
    p = Player(tmp_path, str(path))  # a first game: the long goal message
    p.resize(20, 40)
    p.wait_for("mv 0")  # the status line in 40 columns: short words
    p.settle()
    lines = p.text.splitlines()
    frame = max(k for k, line in enumerate(lines) if line.strip().startswith("+"))
    assert below in lines[frame + 1] and "Goal:" in p.text
    p.send("q")
    left_cleanly(p)


def test_the_column_numbers_of_a_wide_board_in_narrow_cells_do_not_run_together(tmp_path: Path) -> None:
    """full16 in cells two columns wide: its numbers ran together (``0123456789101112131415``); every
    other column is numbered there."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLORTERM")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    full16 = str(Path(__file__).parent / "data" / "full16.txt")
    child = spawn_program(
        [sys.executable, "-m", "rushhour", "play", full16, "--no-save"],
        env=env, encoding="utf-8", dimensions=(30, 50), cwd=str(tmp_path),
    )
    screen = pyte.Screen(50, 30)
    stream = pyte.Stream(screen)
    end = time.monotonic() + TIMEOUT
    while not any("mv 0" in line for line in screen.display):  # the status line in 50 columns
        assert time.monotonic() < end, "\n".join(screen.display)
        with contextlib.suppress(pexpect.TIMEOUT):
            stream.feed(child.read_nonblocking(65536, 0.1))
    numbers = next(line for line in screen.display if line.strip().startswith("0 "))
    assert numbers.split() == ["0", "2", "4", "6", "8", "10", "12", "14"], numbers
    child.send("q")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
