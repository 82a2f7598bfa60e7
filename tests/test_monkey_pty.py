"""The monkey: random keys, clicks, drags and resizes (tiny sizes included) thrown at the real game in a
pseudo-terminal, on 6x6, 9x9, 12x12 and wrap-around boards.  Every run must end when told to (no
hang), without a traceback, with the terminal given back (the alternate screen left last).

A few runs are in the default suite; ``pytest -m slow tests/test_monkey_pty.py`` throws 240 (60 a
board), each with its own seed, so a failure names the seed that reproduces it.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from tests.test_tui_pty import ALT_SCREEN_OFF, ALT_SCREEN_ON, Player

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

DATA = Path(__file__).resolve().parent / "data"
WRAP = "# name: wrap\n# wrap: yes\n# target: 0,4 east\nA...A\n.BB..\n..C..\n..C..\n"
BOARDS = {"6x6": "classic:1", "9x9": "large:1", "12x12": str(DATA / "open12.txt"), "wrap": "wrap.txt"}
KEYS = (
    [chr(c) for c in range(ord("a"), ord("z") + 1)]
    + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    + list("0123456789?: ")
    + ["\x1bOA", "\x1bOB", "\x1bOC", "\x1bOD", "\t", "\x1b[Z", "\r", "\x1b", "\x7f"]
    + ["\x1b[5~", "\x1b[6~", "\x1bOH", "\x1bOF", "\x12", "\x19", "\x1a", "\x04"]
)
SIZES = [(30, 90), (24, 80), (13, 40), (8, 20), (5, 12), (2, 6), (50, 160), (16, 30)]
EVENTS = 40
WAIT = 30.0  # seconds a run may take to end once told to: more is a hang


def event(rng: random.Random, player: Player, lines: int, cols: int) -> tuple[int, int]:
    """One random event; the terminal's size after it."""
    kind = rng.random()
    if kind < 0.70:
        player.child.send(rng.choice(KEYS))
    elif kind < 0.90:
        x, y = rng.randint(1, cols), rng.randint(1, lines)
        button = rng.choice([0, 0, 0, 1, 2])
        player.child.send(f"\x1b[<{button};{x};{y}M")
        for _ in range(rng.randint(0, 3)):  # a drag: motion with the button held
            x, y = max(1, min(cols, x + rng.randint(-6, 6))), max(1, min(lines, y + rng.randint(-3, 3)))
            player.child.send(f"\x1b[<{32 + button};{x};{y}M")
        player.child.send(f"\x1b[<{button};{x};{y}m")
    else:
        lines, cols = rng.choice(SIZES)
        player.resize(lines, cols)
    time.sleep(rng.choice([0.0, 0.005, 0.02]))
    player._read(0)
    return lines, cols


def one_run(tmp_path: Path, board: str, seed: int) -> None:
    rng = random.Random(seed)
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "wrap.txt").write_text(WRAP)
    player = Player(tmp_path, board)  # saves kept in tmp_path: leaving and winning save for real
    player.wait_for("moves ")
    lines, cols = 30, 90
    for _ in range(EVENTS):
        if player.ended:
            break
        lines, cols = event(rng, player, lines, cols)
    if not player.ended:
        player.child.send("\x03")  # Ctrl-C leaves from any mode
    end = time.monotonic() + WAIT
    while not player.ended and time.monotonic() < end:
        player._read(0.1)
    assert player.ended, f"seed {seed} on {board}: the game did not end (a hang)"
    status = player.finish()
    raw = player.raw
    assert "Traceback" not in raw and "error: unexpected" not in raw, f"seed {seed} on {board}: {raw[-800:]!r}"
    assert status in (0, 130), f"seed {seed} on {board}: exit status {status}"
    assert raw.rindex(ALT_SCREEN_OFF) > raw.rindex(ALT_SCREEN_ON), f"seed {seed} on {board}: screen kept"


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_a_few_monkeys(tmp_path: Path, name: str) -> None:
    for seed in range(1):  # 4 runs, about 15 s (test_many_monkeys: 240 more)
        one_run(tmp_path / str(seed), BOARDS[name], seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
@pytest.mark.parametrize("batch", range(6))
def test_many_monkeys(tmp_path: Path, name: str, batch: int) -> None:
    for seed in range(100 + batch * 10, 110 + batch * 10):  # 60 runs a board, 240 in all
        one_run(tmp_path / str(seed), BOARDS[name], seed)
