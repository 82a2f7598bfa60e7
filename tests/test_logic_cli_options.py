"""The options of the logic commands (``encoding``, ``prove``): an option counts as given whatever its
value, options that do not go together are usage errors, and the figures printed agree with each other
(docs/cli.md, docs/encoding.md, docs/json.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli import run

BOARD = "classic:1"


def usage_error(err: str, command: str) -> str:
    """The one line of a usage error, which ends with the help to read."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and lines[0].endswith(f"; try 'rushhour {command} --help'"), err
    return lines[0]


# --- 1. an empty --cell or --about is given, and malformed ------------------------------------------
@pytest.mark.parametrize("option", ["--cell", "--about"])
def test_an_empty_filter_with_dimacs_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str
) -> None:
    target = tmp_path / "x.cnf"
    code, out, err = run(capsys, "encoding", BOARD, "--dimacs", str(target), option, "")
    assert code == 2 and out == ""
    line = usage_error(err, "encoding")
    assert f"does not go with {option}" in line
    assert not target.exists()  # refused before any work


@pytest.mark.parametrize(
    ("option", "words"),
    [("--cell", "cannot read cell ''"), ("--about", "--about '', column 1: expected a proposition")],
)
def test_an_empty_filter_alone_is_malformed(
    capsys: pytest.CaptureFixture[str], option: str, words: str
) -> None:
    # not taken for "not given": the summary is not printed, the value is refused as --constraints does
    for argv in (["encoding", BOARD, option, ""], ["encoding", BOARD, "--constraints", option, ""]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", argv
        assert len(err.splitlines()) == 1 and err.startswith("error: ") and words in err, argv


# --- 2. options that do not go together end with the help to read -----------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["encoding", BOARD, "--dimacs", "x.cnf", "--family", "W"], "--dimacs writes the whole CNF"),
        (["encoding", BOARD, "--dimacs", "-", "--constraints"], "does not go with --constraints"),
        (["encoding", BOARD, "--dimacs", "x.cnf", "--latex"], "does not go with --latex"),
        (["encoding", BOARD, "--dimacs", "x.cnf", "--cell", "2,4"], "does not go with --cell"),
        (["encoding", BOARD, "--dimacs", "x.cnf", "--about", "Won"], "does not go with --about"),
        (["encoding", BOARD, "--json", "--dimacs", "-"], "both write to stdout"),
        (["prove", "Won"], "give BOARD or --size"),
        (["prove", "Won", BOARD, "--size", "6x6"], "give BOARD or --size"),
        (["prove", "Won", "--size", "4x4", "--position"], "--position needs a BOARD"),
        (["prove", "~Won", BOARD, "--reachable", "--walls"], "--walls does not go with --reachable"),
    ],
)
def test_options_that_do_not_go_together_point_to_the_help(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    words: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in usage_error(err, argv[0])
    assert list(tmp_path.iterdir()) == []


# --- 3. docs/json.md: how the variables are numbered -------------------------------------------------
def test_json_md_says_how_the_dimacs_numbers_the_variables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "x.cnf"
    assert run(capsys, "encoding", BOARD, "--dimacs", str(target))[0] == 0
    names = [
        line.split(" ", 2)[2] for line in target.read_text().splitlines() if re.match(r"c [0-9]+ ", line)
    ]
    assert names[0] == "Empty(0,0)" and names[36] == "Wall(0,0)" and names[-2:] == ["Won", "Won(2,5)"]
    assert names != sorted(names)  # family first, not the names' sorted order
    page = (Path(__file__).resolve().parent.parent / "docs" / "json.md").read_text()
    row = next(line for line in page.splitlines() if line.startswith("| `variables`"))
    assert "sorted name order" not in row
    assert "family by family" in row and "row, column and distance" in row


# --- 4. the summary line counts what the JSON and the DIMACS file count ------------------------------
def test_the_summary_counts_the_clauses_as_json_and_dimacs_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "encoding", BOARD, "--json")
    assert code == 0
    figures = json.loads(out)
    code, out, _ = run(capsys, "encoding", BOARD)
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("variables: "))
    assert line.startswith("variables: 890   clauses: 3,973 rules + 50 facts = 4,023   solver: ")
    rules, facts, total = (f"{figures[k]:,}" for k in ("rule_clauses", "facts", "clauses"))
    assert f"clauses: {rules} rules + {facts} facts = {total}" in line
    target = tmp_path / "x.cnf"
    code, out, _ = run(capsys, "encoding", BOARD, "--dimacs", str(target))
    assert code == 0 and out == f"wrote {target}: 890 variables, {total} clauses\n"
    assert f"p cnf 890 {figures['clauses']}" in target.read_text()


def test_encoding_md_shows_the_summary_as_printed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "encoding", BOARD)
    assert code == 0
    printed = next(line for line in out.splitlines() if line.startswith("variables: "))
    page = (Path(__file__).resolve().parent.parent / "docs" / "encoding.md").read_text()
    shown = [line for line in page.splitlines() if line.startswith("variables: ")]
    # the figures as printed (the solver named after them is the one this installation has)
    figures = printed.partition("   solver:")[0]
    assert shown and all(line.partition("   solver:")[0] == figures for line in shown)


def test_why_with_the_rules_oracle_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "moves", "classic:1", "--why", "--oracle", "rules")
    assert (code, out) == (2, "")
    assert err == (
        "error: --why reads the SAT solver's model: it does not go with --oracle rules; "
        "try 'rushhour moves --help'\n"
    )


def test_dimacs_onto_the_board_s_own_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``encoding puzzle.txt --dimacs puzzle.txt`` replaced the puzzle with the CNF and said "wrote"."""
    board = tmp_path / "puzzle.txt"
    text = "....\nAA.B\n...B\nCC..\n"
    board.write_text(text)
    (tmp_path / "link.txt").symlink_to(board)
    for target in (board, tmp_path / "link.txt"):
        code, out, err = run(capsys, "encoding", str(board), "--dimacs", str(target))
        assert code == 2 and out == "" and board.read_text() == text
        assert err.startswith("error: --dimacs '") and len(err.splitlines()) == 1
        assert err.endswith(": BOARD was read from it, and the CNF would replace the board\n")
    code, out, err = run(capsys, "encoding", str(board), "--dimacs", str(tmp_path / "puzzle.cnf"))
    assert code == 0 and out.startswith("wrote ") and board.read_text() == text
