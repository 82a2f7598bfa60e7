"""A hint asked again in a position it was given in is not counted again, in the line mode and in the
full screen: the status line, the win and the saved progress say one hint.

The level is TINY of tests/boards.py (B-1 then A+3 wins in 2 moves; the hint at the start is B-1).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.test_play_pty import PROMPT, finish, progress_file
from tests.test_play_pty import spawn as spawn_line
from tests.test_tui_pty import ENTER, RIGHT, TAB, UP, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")


def saved_hints(tmp_path: Path) -> object:
    (record,) = json.loads(progress_file(tmp_path).read_text())["levels"].values()
    return record["hints"]


def test_the_line_mode_counts_a_hint_asked_twice_in_one_position_once(tmp_path: Path, level: Path) -> None:
    child = spawn_line(tmp_path, "play", str(level))
    child.expect(PROMPT)
    for _ in range(2):
        child.sendline("h")
        child.expect(r"hint: B-1 \(B up 1\)")
        child.expect(PROMPT)
    child.sendline("")  # Enter draws the board and its status line again
    child.expect(r"hints (\d+)")
    assert child.match.group(1) == "1"
    child.expect(PROMPT)
    # played, taken back, asked again where it was given: still the one hint
    child.sendline("B-1")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect("undid B-1")
    child.expect(PROMPT)
    child.sendline("h")
    child.expect(r"hint: B-1 \(B up 1\)")
    child.expect(PROMPT)
    child.sendline("")
    child.expect(r"hints (\d+)")
    assert child.match.group(1) == "1"
    child.expect(PROMPT)
    child.sendline("B-1")
    child.expect(PROMPT)
    child.sendline("A+3")
    child.expect("SOLVED")
    child.expect(r"With (\d+) hints?")
    assert child.match.group(1) == "1"
    finish(child)
    assert saved_hints(tmp_path) == 1


def hint_count(screen: str) -> int:
    found = re.search(r"\| hints (\d+) \|", screen)
    assert found, screen
    return int(found.group(1))


def test_the_full_screen_counts_a_hint_asked_twice_in_one_position_once(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level))
    p.wait_for("moves 0")
    p.send("h")
    p.wait_for("hint: B-1 (B up 1): Enter plays it")
    p.send("h", TAB)  # the hint again, then a key whose answer shows once both were taken
    assert hint_count(p.wait_for(" selected")) == 1
    p.send("h")
    p.wait_for("hint: B-1 (B up 1): Enter plays it")
    p.send(ENTER)  # plays it
    p.wait_for("moves 1 | steps 1")
    p.send("u")
    p.wait_for("undid B-1")
    p.send("h")  # where it was given before the undo
    p.wait_for("hint: B-1 (B up 1): Enter plays it")
    p.send(TAB)
    assert hint_count(p.wait_for(" selected")) == 1
    p.send("B", UP, "A", RIGHT, RIGHT, RIGHT)
    screen = p.wait_for("*** SOLVED ***")
    p.settle()
    screen = p.text
    assert "With 1 hint." in screen and "not PERFECT: help was used" in screen, screen
    p.send("q")
    left_cleanly(p)
    assert saved_hints(tmp_path) == 1
