"""A value that begins with a dash (a negative number, cell, range or size) written after its option,
``--cell -1,2``, reaches the option's own check, as ``--cell=-1,2`` does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.cli import run

DASHED = [
    (("encoding", "classic:12", "--cell"), "-1,2", "--cell: cannot read cell '-1,2'"),
    (("solve", "classic:12", "--max-states"), "-1e6", "argument --max-states: the number '-1e6'"),
    (("solve", "classic:12", "--time-limit"), "-.5", "argument --time-limit: the number of seconds '-.5'"),
    (("solve", "classic:12", "--hands"), "-1,2", "argument --hands: left hand '-1' is negative"),
    (("prove", "~Won", "--size"), "-6x6", "cannot read size '-6x6'"),
    (("count", "--size"), "-4x4", "cannot read size '-4x4'"),
    (("theorems", "--size"), "-4x4", "cannot read size '-4x4'"),
    (("generate", "--vehicles"), "-3-5", "argument --vehicles: '-3-5' is not a count or a range"),
]


@pytest.mark.parametrize(("words", "value", "message"), DASHED, ids=[w[-1] + v for w, v, _ in DASHED])
def test_a_dashed_value_after_its_option_gets_the_options_own_message(
    capsys: pytest.CaptureFixture[str], words: tuple[str, ...], value: str, message: str
) -> None:
    for argv in ((*words, value), (*words[:-1], f"{words[-1]}={value}")):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err.startswith(f"error: {message}") and err.count("\n") == 1, err
        assert "expected one argument" not in err and "unrecognized" not in err


def test_an_option_after_an_option_is_still_no_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "encoding", "classic:12", "--cell", "--json")
    assert code == 2
    assert err == "error: argument --cell: expected one argument; try 'rushhour encoding --help'\n"
    code, _, err = run(capsys, "encoding", "classic:12", "--about", "-Won")
    assert code == 2 and "argument --about: expected one argument" in err


def test_a_dash_is_still_stdin_and_dash_dash_still_ends_the_options() -> None:
    two = "AA...B\n.....B\nCC.D..\n...D..\nEEE...\n......\n\nAA....\n......\n......\n......\n......\n......\n"
    for argv in (("moves", "--oracle", "rules", "--", "-:2"), ("moves", "-:2", "--oracle", "rules")):
        done = subprocess.run(
            [sys.executable, "-m", "rushhour", *argv], input=two, capture_output=True, text=True, timeout=60
        )
        if argv[-1] == "-:2":
            assert (done.returncode, done.stderr) == (0, "")
            assert done.stdout == "4 legal moves (moves metric, rules oracle):\nA+1 A+2 A+3 A+4\n"
        else:  # without --, a word that begins with - and : is still an option
            assert done.returncode == 2 and done.stderr.startswith("error: ")
    done = subprocess.run(
        [sys.executable, "-m", "rushhour", "moves", "-", "--oracle", "rules"],
        input=two.split("\n\n")[0] + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.startswith("15 legal moves ")
