"""SIGTERM and SIGHUP end a command as Ctrl-C does: what it made so far kept, one line, and 128 + the
signal's number as the exit status (SIGTERM killed `generate --out` with every puzzle made lost)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rushhour.formats import parse_text
from tests.terminal import default_signals

COMMAND = [sys.executable, "-m", "rushhour"]


def _environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, **{f"XDG_{k}_HOME": str(tmp_path / k.lower()) for k in ("DATA", "CONFIG", "STATE")}}


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_generate_keeps_the_puzzles_made_when_terminated(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "made.txt"
    run = subprocess.Popen(
        [*COMMAND, "generate", "--count", "100000", "--min-moves", "3", "--seed", "1", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(tmp_path),
        preexec_fn=default_signals,
    )
    time.sleep(4)  # puzzles of 3 moves come many a second
    run.send_signal(signum)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 128 + signum, err
    assert "stopped early: interrupted" in err and "Traceback" not in err
    made = parse_text(out.read_text())
    assert made and all(int(entry.meta["moves"]) >= 3 for entry in made)


def test_a_search_terminated_says_so_in_one_line(tmp_path: Path) -> None:
    run = subprocess.Popen(
        [*COMMAND, "analyze", "tests/data/open12.txt"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(tmp_path),
        preexec_fn=default_signals,
    )
    time.sleep(3)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 128 + signal.SIGTERM and "Traceback" not in err
    assert err.endswith("\ninterrupted\n") or err == "interrupted\n"  # after the pure path's note, if any
