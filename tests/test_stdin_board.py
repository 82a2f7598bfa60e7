"""``-`` as a BOARD (or ``--batch`` FILE) reads standard input, so that commands join in a pipe
(``rushhour generate ... | rushhour solve -``); ``play -`` and ``edit -`` then take their keys from
the terminal, as pagers do.

The commands run as processes: standard input is the point."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.terminal import spawn_program

TWO = "# title: two\n\nAA.B\n...B\nCC..\n....\n\n# name: second\nAA..\n....\n....\n....\n"
ONE = "AA.B\n...B\nCC..\n....\n"


def rushhour(*argv: str, stdin: str | None = None, **options: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "rushhour", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        **options,  # type: ignore[arg-type]
    )


def test_solve_reads_the_board_from_standard_input() -> None:
    done = rushhour("solve", "-", "--json", stdin=ONE)
    assert done.returncode == 0, done.stderr
    assert '"length":2' in done.stdout.replace(" ", "")


def test_a_pipe_of_two_commands() -> None:
    """What the text of one command gives, the next reads: generate's puzzles solved again."""
    made = rushhour("generate", "--count", "2", "--min-moves", "8", "--seed", "3", "-q")
    assert made.returncode == 0, made.stderr
    done = rushhour("solve", "--batch", "-", stdin=made.stdout)
    assert done.returncode == 0, done.stderr
    assert "2 boards: 2 solved" in done.stderr + done.stdout
    assert "lengths agree with the file" in done.stderr + done.stdout


def test_errors_name_standard_input_and_its_line() -> None:
    done = rushhour("show", "-", stdin="AA.B\n...B\nCZ..\n....\n")
    assert (done.returncode, done.stderr) == (2, "error: stdin, line 3, column 1: vehicle C has a single "
                                              "cell: vehicles are at least 2 cells long\n")
    assert rushhour("show", "-", stdin="").stderr == "error: stdin: no board here: the text is empty\n"
    done = subprocess.run(
        [sys.executable, "-m", "rushhour", "show", "-"], stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (2, "error: stdin: no board here: the text is empty\n")


def test_one_board_of_several_is_chosen_after_a_double_dash() -> None:
    done = rushhour("show", "-", stdin=TWO)
    assert done.returncode == 2
    assert "stdin holds 2 boards: choose one as -:N (1 to 2), after -- (-- -:2)" in done.stderr
    done = rushhour("show", "--", "-:2", stdin=TWO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("second: 4x4, 1 vehicle")


def test_convert_keeps_what_standard_input_held() -> None:
    done = rushhour("convert", "-", "--to", "grid", stdin=TWO)
    assert done.returncode == 0, done.stderr
    assert done.stdout == TWO


@pytest.mark.parametrize("command", [["play", "-", "--no-save"], ["edit", "-"]])
def test_play_and_edit_without_a_terminal_for_the_keys_say_so(command: list[str]) -> None:
    done = rushhour(*command, stdin=ONE, start_new_session=True)  # no controlling terminal
    assert done.returncode == 2
    assert done.stderr.startswith("error: the board came on standard input, and there is no terminal for the keys")


def _screen_of(child: pexpect.spawn, screen: pyte.Screen, stream: pyte.Stream, words: str) -> str:
    end = time.monotonic() + 30
    while True:
        text = "\n".join(line.rstrip() for line in screen.display)
        if words in text:
            return text
        if time.monotonic() > end:
            raise AssertionError(f"{words!r} never appeared; the screen:\n{text}")
        try:
            stream.feed(child.read_nonblocking(65536, 0.1))
        except pexpect.TIMEOUT:
            continue


@pytest.mark.parametrize("command", ["play", "edit"])
def test_play_and_edit_take_the_board_from_a_pipe_and_the_keys_from_the_terminal(
    tmp_path: Path, command: str
) -> None:
    board = tmp_path / "board.txt"
    board.write_text(ONE)
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    line = f"cat board.txt | {sys.executable} -m rushhour {command} -"
    child = spawn_program(
        ["sh", "-c", line + "; echo status=$?"], env=env, encoding="utf-8", dimensions=(30, 100), cwd=str(tmp_path)
    )
    screen = pyte.Screen(100, 30)
    stream = pyte.Stream(screen)
    if command == "play":
        _screen_of(child, screen, stream, "moves 0")
        child.send("C")  # a key of the terminal: C selected
        _screen_of(child, screen, stream, "C selected")
    else:
        text = _screen_of(child, screen, stream, "optimum: 2 moves")
        assert "rushhour edit: stdin" in text  # the title names where the board came from
    child.send("q")
    child.expect("status=0", timeout=30)
