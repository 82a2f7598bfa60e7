"""The level menu's lines for the pack files of the player's left out fold to the terminal's width,
as the other long texts of the screen do: they were cut at its edge, the reason half said.

A file under ``$XDG_DATA_HOME/rushhour/packs/`` that cannot be read as a pack is listed at the
menu's end: the folder once, then the file by its name and why.
"""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

from rushhour.levels import packs
from rushhour.play import screen as screen_module
from tests.boards import TINY
from tests.test_tui_pty import Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

NARROW = 44
END = "\x1bOF"  # what xterm sends in keypad mode
WHY = "mine.txt, line 1: board height 1 is out of range: sides are 3 to 16"


def menu_at_its_last_level(tmp_path: Path, names: list[str]) -> Player:
    """The game in a narrow terminal, with the pack files ``names`` that are no packs (a board one row
    high), its level menu open at the last level: the notes after it in view."""
    folder = tmp_path / "data" / "rushhour" / "packs"
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_text("....\n")
    level = tmp_path / "tiny.txt"
    level.write_text(TINY)
    p = Player(tmp_path, str(level), "--no-save")
    p.wait_for("moves 0")
    p.resize(30, NARROW)
    p.settle()
    p.send("l")
    p.wait_for("Levels:")
    p.send(END)
    last = packs()[-1]
    p.wait_for(f"> {last.name}:{len(last.levels)}")
    p.settle()
    return p


def test_the_reason_a_pack_file_is_left_out_folds_to_a_narrow_terminal(tmp_path: Path) -> None:
    p = menu_at_its_last_level(tmp_path, ["mine.txt"])
    lines = p.text.splitlines()
    assert all(len(line) <= NARROW for line in lines)
    start = next(k for k, line in enumerate(lines) if line.strip().startswith("mine.txt"))
    told = " ".join(" ".join(lines[start:]).split())
    assert WHY in told, p.text
    assert lines[start + 1].startswith("    ")  # a continuation, indented under the file's name
    # the first line says how to play and leave, shortened to the width rather than cut
    assert lines[0].strip() == "Levels: Enter plays, Esc returns"
    p.send("\x1b")  # Esc: back to the game
    p.wait_for("mv 0 | st 0")
    p.send("q")
    left_cleanly(p)


def test_every_file_left_out_can_be_read_below_the_last_level(tmp_path: Path) -> None:
    """More notes than half the screen: with the last level chosen, they all come into view (the last
    level was kept in the middle, the notes past the screen's foot out of reach)."""
    names = [f"broken{k}.txt" for k in range(8)]
    p = menu_at_its_last_level(tmp_path, names)
    screen = p.text
    assert all(f"{name}, line 1:" in screen for name in names), screen
    assert screen.rstrip().endswith("3 to 16"), screen  # the end of the last note
    p.send("q")  # leaves from the menu: nothing was played
    left_cleanly(p)


def test_the_screen_doctests_fold_a_note() -> None:
    result = doctest.testmod(screen_module)
    assert result.attempted and not result.failed
