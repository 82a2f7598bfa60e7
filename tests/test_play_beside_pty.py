"""The game never freezes: searches (the optimum, a hint, the solution) run beside the screen, in the
real program in a pseudo-terminal.

The boards are large on purpose: ``tests/data/crowd12_long.txt`` (12x12, 45 vehicles, no ``# moves:``
header: its optimum of 23 moves takes the solver minutes) and ``tests/data/full16.txt`` (16x16, 60 vehicles,
whose search the solver's limits stop).  No test waits for those searches to end: each shows that the
game answers while they run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from tests.terminal import spawn_program
from tests.test_tui_pty import ESC, TAB, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

DATA = Path(__file__).resolve().parent / "data"
LONG12 = str(DATA / "crowd12_long.txt")
FULL16 = str(DATA / "full16.txt")


def test_a_board_with_an_unknown_optimum_is_playable_at_once(tmp_path: Path) -> None:
    p = Player(tmp_path, LONG12, "--no-save")
    p.wait_for("optimal ... | hints 0")  # drawn while the optimum is searched for
    p.send(TAB)
    p.wait_for("E selected")
    p.send("q")
    left_cleanly(p)


def test_a_long_hint_is_cancelled_with_esc_while_keys_keep_answering(tmp_path: Path) -> None:
    p = Player(tmp_path, LONG12, "--no-save")
    p.wait_for("optimal ...")
    p.send("h")
    p.wait_for("finding a hint")
    p.send(TAB)  # answered while the hint is searched for
    p.wait_for("E selected")
    p.send("h")
    p.wait_for("finding a hint")
    p.send(ESC)
    p.wait_for("cancelled")
    assert "hints 0" in p.text  # a cancelled hint is not counted
    p.send("q")
    left_cleanly(p)


def test_the_stopwatch_runs_while_a_hint_is_searched_for(tmp_path: Path) -> None:
    p = Player(tmp_path, LONG12, "--no-save")
    p.wait_for("time 0:00")
    p.send("h")
    p.wait_for("finding a hint")
    p.wait_for("time 0:02")  # the seconds go on on their own
    assert "finding a hint" in p.text
    p.send("q")
    left_cleanly(p)


def test_ctrl_c_leaves_with_130_during_a_search(tmp_path: Path) -> None:
    p = Player(tmp_path, LONG12, "--no-save")
    p.wait_for("optimal ...")
    p.send("s")
    p.wait_for("finding an optimal solution")
    p.send("\x03")
    left_cleanly(p, 130)


def test_the_line_mode_prompts_at_once_on_a_16x16_board(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), TERM="xterm")
    child = spawn_program(
        [sys.executable, "-m", "rushhour", "play", FULL16, "--plain", "--no-save"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 100),
        cwd=str(tmp_path),
    )
    child.expect("optimal \\.\\.\\.")  # the status line, before the optimum is known
    child.expect("your move")
    child.sendline("A+1")  # played by the rules while the oracle is built
    child.expect("your move")
    child.sendline("q")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
