"""The full screens (the game and the editor) through the life of their terminal: closed under them (a
real hangup, the tty dead), stopped and continued (job control, a start in the background), started
with LINES and COLUMNS exported, and a TERM that cannot draw a full screen.  The real programs in a
pseudo-terminal, read with pyte, as in tests/test_tui_pty.py.

The level is TINY of tests/boards.py (B-1 then A+3 wins)."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest

from rushhour import Board
from tests.test_editor_pty import START
from tests.test_tui_pty import COLS, LINES, TIMEOUT, UP, Player, left_cleanly, progress

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="Linux pseudo-terminals and /proc"
)

MOTION_ON, MOTION_OFF = "\x1b[?1002h", "\x1b[?1002l"
ALT_SCREEN_OFF = "\x1b[?1049l"
#: a parent in the same session that puts the program in a process group of its own, in the foreground,
#: as a job-control shell does: a stop then really stops it (a pseudo-terminal's first process, alone in
#: an orphaned process group, would have SIGTSTP discarded by the kernel)
JOB = (
    "import os, signal, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.setpgid(0, 0)\n"
    "    signal.signal(signal.SIGTTOU, signal.SIG_IGN)\n"
    "    os.tcsetpgrp(0, os.getpgrp())\n"
    "    signal.signal(signal.SIGTTOU, signal.SIG_DFL)\n"
    "    os.execvp(sys.argv[2], sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write(str(pid))\n"
    "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
)


def program(tmp_path: Path, *args: str, errors: bool = False, **extra: str) -> Player:
    """``rushhour ARGS`` in a pseudo-terminal; with ``errors``, its stderr goes to tmp_path/stderr.txt (to
    be read after the terminal is gone)."""
    argv = [sys.executable, "-m", "rushhour", *args]
    if errors:
        argv = ["sh", "-c", 'exec "$@" 2>"$0"', str(tmp_path / "stderr.txt"), *argv]
    return Player(tmp_path, command=argv, **extra)


def hang_up(p: Player) -> int:
    """Close the terminal under the program (the kernel sends SIGHUP; the tty is dead from then on);
    its exit status (128 + the signal that killed it)."""
    p.child.ptyproc.fileobj.close()
    end = time.monotonic() + TIMEOUT
    while p.child.isalive():
        assert time.monotonic() < end, "the program did not end after its terminal closed"
        time.sleep(0.05)
    p.child.ptyproc.closed = True
    status, signalled = p.child.ptyproc.exitstatus, p.child.ptyproc.signalstatus
    return 128 + signalled if status is None else status


def stderr_text(tmp_path: Path) -> str:
    return (tmp_path / "stderr.txt").read_text()


def test_a_closed_terminal_keeps_the_games_last_move(tmp_path: Path, level: Path) -> None:
    p = program(tmp_path, "play", str(level), errors=True)
    p.wait_for("moves 0")
    p.send("B", UP)
    p.wait_for("moves 1")
    assert hang_up(p) == 128 + signal.SIGHUP  # at once: before the once-a-second save of the position
    assert "Traceback" not in stderr_text(tmp_path) and "error" not in stderr_text(tmp_path)
    (record,) = progress(tmp_path).values()
    assert record["left_moves"] == ["B-1"]


def test_a_closed_terminal_keeps_the_editors_board(tmp_path: Path) -> None:
    p = program(tmp_path, "edit", START, errors=True)
    p.wait_for("optimum: 1 move")
    p.send("c")
    p.wait_for("car B placed")
    p.send("\x1bOC")  # Right: the new car moves
    p.wait_for("(not saved)")
    assert hang_up(p) == 128 + signal.SIGHUP
    assert "Traceback" not in stderr_text(tmp_path)
    kept = tmp_path / "data" / "rushhour" / "editor-unsaved.txt"
    assert len(Board.from_text(kept.read_text()).vehicles) == 2


def job(tmp_path: Path, *args: str) -> tuple[Player, int]:
    """``rushhour ARGS`` as a foreground job that can be stopped; the player and the program's pid."""
    pid_file = tmp_path / "pid"
    command = [sys.executable, "-c", JOB, str(pid_file), sys.executable, "-m", "rushhour", *args]
    p = Player(tmp_path, command=command)
    end = time.monotonic() + TIMEOUT
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < end
        time.sleep(0.05)
    return p, int(pid_file.read_text())


def stopped(pid: int) -> bool:
    state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    return state in ("T", "t")


@pytest.mark.parametrize(
    "args,shown", [(("play", "LEVEL", "--no-save"), "moves 0"), (("edit", START), "optimum: 1 move")]
)
def test_a_stop_releases_the_mouse_and_a_continue_takes_it_back(
    tmp_path: Path, level: Path, args: tuple[str, ...], shown: str
) -> None:
    p, pid = job(tmp_path, *(str(level) if a == "LEVEL" else a for a in args))
    p.wait_for(shown)
    p.settle()
    mark = len(p.raw)
    os.kill(pid, signal.SIGTSTP)
    end = time.monotonic() + TIMEOUT
    while not stopped(pid) or ALT_SCREEN_OFF not in p.raw[mark:]:
        assert time.monotonic() < end, f"not stopped; written: {p.raw[mark:]!r}"
        p._read(0.05)
    given_back = p.raw[mark:]
    assert MOTION_OFF in given_back[: given_back.index(ALT_SCREEN_OFF)]  # the shell gets no mouse reports
    p.screen.reset()
    mark = len(p.raw)
    os.kill(pid, signal.SIGCONT)  # fg
    p.wait_for(shown)  # drawn again
    p.settle()
    assert MOTION_ON in p.raw[mark:]
    p.send("q")
    left_cleanly(p)


def shown_seconds(p: Player) -> int:
    found = re.search(r"time (\d+):(\d\d)", p.text)
    assert found, p.text
    return int(found[1]) * 60 + int(found[2])


def test_time_stopped_is_not_play_time(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.settle()
    before = shown_seconds(p)
    p.child.kill(signal.SIGSTOP)  # no handler can see this one: the continue takes the gap off
    time.sleep(5)
    p.child.kill(signal.SIGCONT)
    p.send("B")  # a redraw now
    p.wait_for("B selected")
    assert shown_seconds(p) - before < 4  # not the 5 s stopped
    p.send("q")
    left_cleanly(p)


#: a parent that starts the program as a background job (it stops at its first change to the terminal,
#: SIGTTOU), then after a while brings it to the foreground and continues it, as ``fg`` does
BACKGROUND = (
    "import os, signal, sys, time\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.setpgid(0, 0)\n"
    "    os.execvp(sys.argv[1], sys.argv[1:])\n"
    "os.setpgid(pid, pid)\n"
    "while True:\n"
    "    st = os.waitpid(pid, os.WUNTRACED)[1]\n"
    "    if not os.WIFSTOPPED(st):\n"
    "        sys.exit(os.waitstatus_to_exitcode(st))\n"
    "    time.sleep(4)\n"
    "    signal.signal(signal.SIGTTOU, signal.SIG_IGN)\n"
    "    os.tcsetpgrp(0, pid)\n"
    "    os.killpg(pid, signal.SIGCONT)\n"
)


def test_a_game_started_in_the_background_counts_from_its_fg(tmp_path: Path, level: Path) -> None:
    game = [sys.executable, "-m", "rushhour", "play", str(level), "--no-save"]
    p = Player(tmp_path, command=[sys.executable, "-c", BACKGROUND, *game])
    p.wait_for("moves 0")
    p.settle()
    assert shown_seconds(p) < 3  # not the 4 s stopped before it could take the terminal
    p.send("q")
    left_cleanly(p)


@pytest.mark.parametrize(
    "args,shown", [(("play", "LEVEL", "--no-save"), "moves 0"), (("edit", START), "optimum: 1 move")]
)
def test_exported_lines_and_columns_do_not_override_the_terminals_size(
    tmp_path: Path, level: Path, args: tuple[str, ...], shown: str
) -> None:
    p = program(tmp_path, *(str(level) if a == "LEVEL" else a for a in args), LINES="60", COLUMNS="200")
    p.wait_for(shown)
    p.settle()
    assert p.screen.display[-1].strip(), p.text  # the keys on the last line: drawn for 90x30
    p.resize(LINES + 4, COLS + 10)
    p.screen.reset()
    p.wait_for(shown)
    p.settle()
    assert p.screen.display[-1].strip(), p.text  # and for the new size
    p.send("q")
    left_cleanly(p)


@pytest.mark.parametrize(
    "term,words",
    [
        (None, "TERM is not set"),
        ("", "TERM is not set"),
        ("dumb", "TERM 'dumb' cannot draw a full screen"),
        ("xyz", "no terminfo entry for TERM 'xyz'"),
    ],
)
def test_a_terminal_type_that_cannot_draw_is_named(tmp_path: Path, term: str | None, words: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TERM"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    if term is not None:
        env["TERM"] = term
    child = pexpect.spawn(
        sys.executable, ["-m", "rushhour", "edit", "classic:1"], env=env, encoding="utf-8", timeout=TIMEOUT
    )
    child.expect(pexpect.EOF)
    said = " ".join((child.before or "").split())
    child.close()
    assert child.exitstatus == 2, said
    assert words in said and "run it in a terminal" not in said
