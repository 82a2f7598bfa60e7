"""The line mode and the commands at the edges of a terminal: a prompt that `2>/dev/null` must not hide,
colours put back after Ctrl-C, a closed input or output, a ``dumb`` terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
from colorama import Style

from rushhour.play.level import choose_level
from rushhour.play.line import LineMode
from rushhour.play.saves import Saves
from rushhour.render.text import use_color
from tests.terminal import spawn_program

COMMAND = [sys.executable, "-m", "rushhour"]
TIMEOUT = 120  # generous: the machine may be loaded, and the move oracle compiles on first use


def _environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    folders = {f"XDG_{k}_HOME": str(tmp_path / k.lower()) for k in ("DATA", "CONFIG", "STATE", "CACHE")}
    return {**os.environ, **folders, "TERM": "xterm", **extra}


def test_the_line_modes_prompt_is_on_the_terminals_output(tmp_path: Path) -> None:
    """In a terminal, Python's input() wrote its prompt to stderr: `play --plain 2>/dev/null` showed
    the board and never asked for a move."""
    shell = f"{' '.join(COMMAND)} play classic:1 --no-save --plain --no-color 2>/dev/null"
    child = spawn_program(["/bin/sh", "-c", shell], env=_environment(tmp_path), dimensions=(40, 100))
    try:
        child.expect("your move .*> ", timeout=TIMEOUT)
        child.sendline("F+3")
        child.expect("F\\+3.*your move .*> ", timeout=TIMEOUT)
        child.sendeof()
        child.expect("bye", timeout=TIMEOUT)
        child.expect(pexpect.EOF, timeout=TIMEOUT)
    finally:
        child.close(force=True)


def test_ctrl_c_in_the_middle_of_a_coloured_drawing_puts_the_colours_back() -> None:
    level = choose_level("classic:1", None, None, Saves.memory())[0]
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append("\x1b[102m")  # the drawing cut off inside a coloured cell, as a Ctrl-C leaves it
        raise KeyboardInterrupt

    mode = LineMode(Saves.memory(), color=True, legal_moves=lambda b: b.legal_moves("moves"),
                    solver=lambda b: None, read=read, write=out.append)
    assert mode.run(level) == 130
    written = "".join(out)
    assert written.endswith(Style.RESET_ALL + "\nbye\n")
    assert written.rindex(Style.RESET_ALL) > written.rindex("\x1b[102m")


def test_a_closed_input_or_output_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    program = " ".join(COMMAND)
    closed_out = subprocess.run(["/bin/sh", "-c", f"{program} show classic:1 >&-"], capture_output=True,
                                text=True, env=env, timeout=TIMEOUT)
    assert closed_out.returncode == 2
    assert closed_out.stderr == (
        "error: the standard output is closed: give the command an output (a file, a pipe or /dev/null)\n"
    )
    closed_in = subprocess.run(["/bin/sh", "-c", f"{program} play classic:1 --no-save <&-"],
                               capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert closed_in.returncode == 0 and "Traceback" not in closed_in.stderr, closed_in.stderr
    assert closed_in.stdout.rstrip().endswith("bye")  # as an empty input: the line mode, at its end


def test_a_dumb_terminal_gets_no_colour_unless_asked() -> None:
    assert use_color(None, True, {"TERM": "xterm"}) is True
    assert use_color(None, True, {"TERM": "dumb"}) is False
    assert use_color(True, True, {"TERM": "dumb"}) is True  # --color wins
