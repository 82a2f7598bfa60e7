"""The conventions every command keeps: one-line usage errors, examples that run, completion scripts,
options refused where they do not apply, counts in words, joined steps, a read-only `levels`."""

from __future__ import annotations

import argparse
import doctest
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rushhour
import rushhour.files
import rushhour.levels
import rushhour.text
from rushhour.board import Board, Move
from rushhour.cli import build_parser
from rushhour.cli.completion import commands, script
from rushhour.cli.core import PATH_METAVARS
from rushhour.cli.solve import solution_lines
from rushhour.levels import packs
from rushhour.search.native import native_available, native_status, use_native
from rushhour.text import plural, runs
from tests.cli import complete_in_bash, run

LINE = "BBBoooooCoooAACoooooDoooooDoooooDooo"  # B+3 C-1 A+4: 3 moves, 8 steps


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


SUBCOMMANDS = sorted(subparsers())


def one_error_line(err: str, command: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, err
    prog = f"rushhour {command}" if command else "rushhour"
    assert lines[0].startswith("error: ") and lines[0].endswith(f"; try '{prog} --help'")


# --- usage errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_an_unknown_option_is_one_line_naming_the_subcommand(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    valid = {
        "completion": ["bash"],
        "convert": ["classic:1", "--to", "json"],
        "count": ["--size", "3x3"],
        "enumerate": ["--size", "4x4"],
        "explain": ["classic:1", "A+1"],
        "generate": [],
        "levels": ["classic"],
        "prove": ["Won", "--size", "3x3"],
        "theorems": [],
    }
    code, out, err = run(capsys, command, *valid.get(command, ["classic:1"]), "--bogus")
    assert code == 2 and out == ""
    one_error_line(err, command)
    assert "--bogus" in err


@pytest.mark.parametrize(
    ("argv", "command", "words"),
    [
        (["solve", "classic:1", "--engine", "quick"], "solve", "invalid choice: 'quick'"),
        (["solve", "classic:1", "--max-states", "lots"], "solve", "--max-states"),
        (["convert", "classic:1"], "convert", "--to"),
        (["explain", "classic:1"], "explain", "MOVE"),
        (["generate", "--size", "6by6"], "generate", "not a size"),
        (["completion", "tcsh"], "completion", "invalid choice"),
        (["enumerate"], "enumerate", "--size"),
        (["frobnicate"], "", "invalid choice"),
    ],
)
def test_usage_errors_are_one_line_with_exit_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], command: str, words: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    one_error_line(err, command)
    assert words in err


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_version_is_accepted_after_every_subcommand(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, err = run(capsys, command, "--version")
    assert (code, out.splitlines()[0], err) == (0, f"rushhour {rushhour.__version__}", "")
    assert out.splitlines()[1] == native_status()


# the compiled module as Python finds it: not built (the import fails), built from other sources (a module
# without the record's fields), and built but turned off
_VERSION_WITH = {
    "not built": "import sys; sys.modules['rushhour.search._native'] = None",
    "other sources": "import sys, types; sys.modules['rushhour.search._native'] = types.ModuleType('_native')",
    "turned off": "import os; os.environ['RUSHHOUR_NATIVE'] = '0'",
}


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("not built", "compiled search: not built (no C compiler at the install); the searches run in Python"),
        ("other sources", "compiled search: built from other sources (install the package again); the searches"),
        ("turned off", "compiled search: built, turned off (RUSHHOUR_NATIVE=0); the searches run in Python"),
    ],
)
def test_version_says_whether_the_compiled_search_is_used(case: str, says: str) -> None:
    code = f"{_VERSION_WITH[case]}\nfrom rushhour.cli import main\nraise SystemExit(main(['--version']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    first, second = done.stdout.splitlines()
    assert first == f"rushhour {rushhour.__version__}"
    if case == "turned off" and not native_available():
        assert "not built" in second
    else:
        assert second.startswith(says)


@pytest.mark.skipif(not native_available(), reason="the compiled search is not built")
def test_version_says_the_compiled_search_is_in_use_when_built(capsys: pytest.CaptureFixture[str]) -> None:
    before = use_native(True)
    try:
        assert run(capsys, "--version")[1].splitlines()[1] == "compiled search: in use"
    finally:
        use_native(before)


def test_a_large_board_searched_in_python_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """Without the compiled search a 12x12 board that takes 0.2 s compiled ran for minutes in silence."""
    before = use_native(False)
    try:
        code, _, err = run(capsys, "solve", "tests/data/crowded9.txt", "--max-states", "1000", "--json")
        assert code == 3 and err.startswith("note: the compiled search is not in use (rushhour --version says why): ")
        assert "solving a 9x9 board runs in Python" in err
        code, _, err = run(capsys, "solve", "classic:1", "--json")  # 6x6: the same search either way
        assert code == 0 and err == ""
    finally:
        use_native(before)
    if native_available():
        before = use_native(True)
        try:
            code, _, err = run(capsys, "solve", "tests/data/crowded9.txt", "--json")
            assert code == 0 and "note:" not in err
        finally:
            use_native(before)


# --- help: examples and BOARD ------------------------------------------------------------------------
def example_commands() -> list[tuple[str, str]]:
    """(subcommand, the rushhour command of an example line) for every example of every help."""
    found = []
    for name, parser in subparsers().items():
        epilog = parser.epilog or ""
        assert epilog.startswith("examples:"), f"{name} has no examples"
        lines = epilog.splitlines()[1:]
        assert 2 <= len(lines) <= 4, name
        for line in lines:
            match = re.search(r"rushhour (?:'[^']*'|[^)>|'])*", line)  # a quoted claim may hold ) > |
            assert match is not None, line
            found.append((name, shlex.join(shlex.split(match.group(0), comments=True))))
    return found


@pytest.mark.parametrize(("command", "example"), example_commands())
def test_every_example_in_the_help_runs_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, example: str
) -> None:
    argv = shlex.split(example)[1:]
    assert argv[0] == command
    build_parser().parse_args(argv)  # parses, whatever the command
    if command in ("play", "edit"):  # a game or the editor waits for a player: parsing is what can be checked
        return
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    code, _, err = run(capsys, *argv)
    assert code in (0, 1) and "error" not in err, (example, err)
    if command == "explain":
        assert code == (1 if "A+1" in argv else 0)


@pytest.mark.parametrize("command", ["show", "moves", "convert", "encoding", "explain", "solve", "analyze", "play"])
def test_board_is_described_wherever_it_is_taken(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "BOARD a board file" in text and "an inline board" in text and "built-in level (classic:12)" in text


# --- completion --------------------------------------------------------------------------------------
def test_the_parser_walk_finds_fixed_choices_and_files() -> None:
    _, found = commands(build_parser())
    by_name = {c.name: c for c in found}
    solve = {flag: option for option in by_name["solve"].options for flag in option.flags}
    assert solve["--engine"].value is not None and "astar" in solve["--engine"].value.choices
    assert solve["--metric"].value is not None and solve["--metric"].value.choices == ("moves", "steps")
    assert solve["--csv"].value is not None and solve["--csv"].value.kind == "file"
    assert solve["--svg"].value is not None and solve["--svg"].value.kind == "dir"
    assert solve["--show"].value is None
    assert by_name["solve"].positionals[0][1].kind == "board"
    assert by_name["levels"].positionals[0][1].kind == "pack"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_script_mentions_every_subcommand(capsys: pytest.CaptureFixture[str], shell: str) -> None:
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    for command in SUBCOMMANDS:
        assert re.search(rf"\b{command}\b", out), (shell, command)
    for words in (["bfs", "astar", "sat", "random", "improve"], ["grid", "fogleman", "csv", "json"]):
        # in a row, or (fish) each with its description after a tab
        assert " ".join(words) in out or all(f"{w}\t" in out for w in words), (shell, words)
    assert all(p.name in out for p in packs())


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_options_values_and_files(tmp_path: Path) -> None:
    (tmp_path / "my-board.txt").write_text("")
    assert complete_in_bash(tmp_path, ["rushhour", "so"]) == ["solve"]
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--eng"]) == ["--engine"]
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "classic:1", "--engine", "a"]) == ["astar"]
    assert complete_in_bash(tmp_path, ["rushhour", "convert", "x", "--to", ""]) == sorted(
        ["grid", "fogleman", "csv", "json"]
    )
    assert complete_in_bash(tmp_path, ["rushhour", "show", "my"]) == ["my-board.txt"]
    assert complete_in_bash(tmp_path, ["rushhour", "show", "cla"]) == ["classic"]
    assert complete_in_bash(tmp_path, ["rushhour", "levels", "beg"]) == ["beginner"]
    assert complete_in_bash(tmp_path, ["rushhour", "completion", ""]) == ["bash", "fish", "zsh"]
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--max-states", ""]) == []
    # --option=value, which bash splits at the =, and the words after -- (files, never options)
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--engine", "=", "a"]) == ["astar"]
    assert "astar" in complete_in_bash(tmp_path, ["rushhour", "solve", "--engine", "="])
    (tmp_path / "-dash.txt").write_text("")
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--", "-"]) == ["-dash.txt"]
    assert "--engine" in complete_in_bash(tmp_path, ["rushhour", "solve", "-"])


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_each_positional_argument_as_what_it_is(tmp_path: Path) -> None:
    """prove's CLAIM is free text, and its BOARD comes second: packs were offered at the claim, and
    files at explain's MOVE; an option's value is not a positional argument."""
    (tmp_path / "my-board.txt").write_text("")
    assert complete_in_bash(tmp_path, ["rushhour", "prove", "cla"]) == []
    assert complete_in_bash(tmp_path, ["rushhour", "prove", "exit", "cla"]) == ["classic"]
    assert complete_in_bash(tmp_path, ["rushhour", "prove", "--json", "exit", "my"]) == ["my-board.txt"]
    assert complete_in_bash(tmp_path, ["rushhour", "explain", "my"]) == ["my-board.txt"]
    assert complete_in_bash(tmp_path, ["rushhour", "explain", "my-board.txt", "my"]) == []
    # the value of --engine (and of --engine=...) is not the board
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--engine", "bfs", "my"]) == ["my-board.txt"]
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--engine", "=", "bfs", "cla"]) == ["classic"]
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "classic:1", "my"]) == []
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--", "-x", "my"]) == []
    # --shard-of takes a Fogleman line, not a pack or a file
    assert complete_in_bash(tmp_path, ["rushhour", "enumerate", "--shard-of", "cla"]) == []


def test_the_zsh_and_fish_scripts_hold_every_pack_and_close_every_description(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fish cut its list of packs at 70 characters (the player's packs were lost), and a zsh description
    cut after an escaping backslash left its bracket open."""
    from rushhour.cli.completion import _zsh_text
    from rushhour.levels import add_to_user_pack

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    board = Board.from_text("AA.B/...B/CC../....")
    for name in ("mypack", "another-long-pack-name", "third_pack_name"):
        add_to_user_pack(name, board)
    fish = script("fish", build_parser())
    line = next(ln for ln in fish.splitlines() if "-l pack" in ln)
    assert all(name in line for name in ("classic", "mypack", "another-long-pack-name", "third_pack_name"))
    text = _zsh_text("x" * 69 + ": the rest")  # the cut falls on the colon
    assert not re.search(r"(?<!\\)\\$", text) and len(text) <= 71


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_loads_the_script_and_registers_the_function(tmp_path: Path) -> None:
    script_file = tmp_path / "_rushhour"
    script_file.write_text(script("zsh", build_parser()))
    subprocess.run(["zsh", "-n", str(script_file)], check=True)
    program = (
        f"autoload -Uz compinit && compinit -u -d {tmp_path / 'zcompdump'}; "
        f"source {script_file}; print -r -- $_comps[rushhour]"
    )
    done = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "_rushhour"


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_commands_values_and_packs(tmp_path: Path) -> None:
    script_file = tmp_path / "rushhour.fish"
    script_file.write_text(script("fish", build_parser()))

    def complete(line: str) -> list[str]:
        program = f"source {shlex.quote(str(script_file))}; complete -C {shlex.quote(line)}"
        done = subprocess.run(["fish", "-c", program], capture_output=True, text=True, check=True, cwd=tmp_path)
        assert "complete:" not in done.stderr, done.stderr
        return sorted(line.split("\t")[0] for line in done.stdout.splitlines())

    assert complete("rushhour so") == ["solve"]
    assert complete("rushhour solve --metric ") == ["moves", "steps"]
    assert "classic" in complete("rushhour show cla")
    assert complete("rushhour levels beg") == ["beginner"]


# --- options that do not apply -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", LINE, "--hands", "3,5", "--engine", "sat"], "--engine does not go with --timed or --hands"),
        (["solve", LINE, "--timed", "--jobs", "2"], "--jobs does not go with --timed or --hands"),
        (["solve", LINE, "--timed", "--show"], "--show does not go with --timed or --hands"),
        (["solve", "--batch", "x.txt", "--show"], "--show draws one solution: it does not go with --batch"),
        (["solve", LINE, "--jobs", "2"], "--jobs goes with --batch"),
        (["solve", LINE, "--heuristic", "zero"], "--heuristic is the lower bound of the astar engine"),
        (["solve", LINE, "--engine", "bfs", "--seed", "3"], "--seed drives the random, improve and portfolio"),
        (["solve", LINE, "--max-moves", "9"], "--max-moves bounds the plans of the sat engine"),
        (["solve", LINE, "--engine", "sat", "--max-states", "9"], "--max-states does not bound the sat engine"),
        (["solve", LINE, "--json", "--show"], "--show draws the positions: it does not go with --json"),
        (["solve", LINE, "--car-seconds", "3"], "--car-seconds goes with --timed"),
        (["solve", LINE, "--json", "--no-color"], "--color and --no-color colour the drawings"),
        (["solve", "--batch", "x.txt", "--color"], "they do not go with --batch"),
        (["show", LINE, "--json", "--color"], "they do not go with --json"),
        (["analyze", LINE, "--json", "--no-color"], "they do not go with --json"),
        (["theorems", "--json", "--color"], "they do not go with --json"),
        (["prove", "Won", "--size", "4x4", "--json", "--no-color"], "they do not go with --json"),
        (["generate", "--from-db", "db.txt", "--size", "5x5"], "--size shapes puzzles being made"),
        (["generate", "--from-db", "db.txt", "--jobs", "2"], "--jobs shapes puzzles being made"),
        (["generate", "--format", "fogleman", "--title", "T"], "--title goes in the header of a grid document"),
        (["generate", "--out", "dir/", "--order", "3"], "--order goes in the header of a grid document"),
        (["enumerate", "--size", "4x4", "--scheduler", "tcp://h:1", "--workers", "2"], "--workers starts local"),
    ],
)
def test_options_that_do_not_apply_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    one_error_line(err, argv[0])
    assert words in err
    assert list(tmp_path.iterdir()) == []  # refused before any work


def test_an_option_left_to_its_default_is_not_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # --engine has a default (bfs), which timed play does not refuse; an abbreviation counts as given
    assert run(capsys, "solve", LINE, "--timed")[0] == 0
    code, _, err = run(capsys, "solve", LINE, "--timed", "--eng", "bfs")
    assert code == 2 and "--engine does not go with --timed" in err
    code, out, _ = run(capsys, "solve", LINE, "--engine", "random", "--seed", "3")
    assert code == 0 and "random engine" in out


# --- words for counts, joined steps ------------------------------------------------------------------
def test_the_text_helpers_doctests() -> None:
    assert doctest.testmod(rushhour.text).failed == 0


def test_plural_agrees_with_the_count() -> None:
    assert [plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert plural(1, "try", many="tries") == "1 try" and plural(12, "try", many="tries") == "12 tries"
    assert plural(12345, "position") == "12,345 positions"


def test_one_move_and_one_position_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    one = "....../....../.AA.../....../....../......"
    code, out, _ = run(capsys, "solve", one, "--engine", "sat")
    assert code == 0 and "1 move, 3 steps" in out and "plan lengths tried" in out
    code, out, _ = run(capsys, "moves", "AAB/.CB/.C.", "--oracle", "rules")
    assert out.startswith("1 legal move (moves metric, rules oracle):")
    code, out, _ = run(capsys, "solve", "AAB/.CB/.C.")
    assert "2 moves, 2 steps" in out and "\n1 position explored in " in out
    code, out, _ = run(capsys, "solve", one, "--metric", "steps")
    assert "3 moves, 3 steps" in out


def test_runs_join_consecutive_steps_of_one_vehicle_one_way() -> None:
    moves = [Move.parse(m) for m in ["M+1", "M+1", "M+1", "A-1", "A+1", "B-1", "B-2", "M+1"]]
    assert [str(r) for r in runs(moves)] == ["1-3. M+3", "4. A-1", "5. A+1", "6-7. B-3", "8. M+1"]
    assert sum(r.last - r.first + 1 for r in runs(moves)) == len(moves)


def test_a_steps_solution_is_listed_with_joined_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", LINE, "--metric", "steps", "--no-color")
    assert code == 0 and "8 moves, 8 steps" in out
    listing = [line.split() for line in out.splitlines() if "1-3." in line]
    assert listing == [["1-3.", "B+3", "4.", "C-1", "5-8.", "A+4"]]
    code, out, _ = run(capsys, "solve", LINE, "--no-color")  # the moves metric lists moves as found
    assert "1. B+3  2. C-1  3. A+4" in out


def test_the_listing_keeps_every_entry_in_columns() -> None:
    moves = [Move("A", 1), Move("B", -1)] * 600  # never two steps of one vehicle in a row
    text = solution_lines(moves, "steps")
    entries = text.split()
    assert entries[0] == "1." and entries[-2:] == ["1200.", "B-1"] and len(entries) == 2400
    assert max(len(line) for line in text.splitlines()) <= 78


def test_timed_timelines_join_a_hands_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", LINE, "--hands", "3,5", "--no-color")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line[:1] == " " and line.split()[0].isdigit()]
    joined = [r for r in rows if len(r) == 6]
    assert joined and all(r[5] == "steps)" and int(r[4][1:]) == Move.parse(r[3]).steps for r in joined)
    assert sum(Move.parse(r[3]).steps for r in rows) == 8  # every step of the schedule, in one row or another


# --- levels only reads -------------------------------------------------------------------------------
def test_levels_leaves_a_corrupt_progress_file_as_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "rushhour"
    folder.mkdir()
    progress = folder / "progress.json"
    progress.write_bytes(b'{"format": "rushhour-progress", "version": 1, "levels": [')
    before = progress.read_bytes()
    for argv in (["levels"], ["levels", "classic", "--json"]):
        code, out, err = run(capsys, *argv)
        assert code == 0 and "classic:12" in out
        assert err.startswith("warning: the progress file") and "it is left as it is" in err
        assert len(err.splitlines()) == 1
        assert sorted(p.name for p in folder.iterdir()) == ["progress.json"]
        assert progress.read_bytes() == before


# --- careless paths ----------------------------------------------------------------------------------
#: the other arguments each command needs, so that only the path is at fault
PATH_COMMANDS = {
    "convert": ["classic:1", "--to", "json"],
    "encoding": ["classic:1"],
    "solve": ["classic:1"],
    "generate": ["--count", "1"],
    "enumerate": ["--size", "3x3", "-q"],
    "harden": ["classic:1", "--time-limit", "1"],
}


def path_options() -> list[tuple[str, str]]:
    """Every (command, option) whose value names a file or a folder, found by walking the parser."""
    return [
        (name, action.option_strings[-1])
        for name, parser in sorted(subparsers().items())
        for action in parser._actions
        if action.option_strings and action.metavar in PATH_METAVARS
    ]


def test_the_table_of_path_commands_covers_every_path_option() -> None:
    found = path_options()
    assert {"--out", "--csv", "--gif", "--svg", "--batch", "--dimacs", "--from-db"} <= {o for _, o in found}
    assert {name for name, _ in found} == set(PATH_COMMANDS)


@pytest.mark.parametrize(("command", "option"), path_options())
@pytest.mark.parametrize(
    ("value", "words"),
    [("", "is empty"), ("  ", "is blank"), ("db\nx", "control character"), ("loop", "loop of symbolic links")],
)
def test_a_careless_path_is_refused_with_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    option: str,
    value: str,
    words: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop").symlink_to("loop")
    code, out, err = run(capsys, command, *PATH_COMMANDS[command], f"{option}={value}")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"]  # nothing written anywhere


@pytest.mark.parametrize("command", ["show", "moves", "analyze", "play", "solve"])
@pytest.mark.parametrize("loop", ["self", "loop1.txt", "loop1.txt:2", "self/board.txt"])
def test_a_board_path_in_a_loop_of_links_is_named_as_such(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, loop: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "self").symlink_to("self")
    (tmp_path / "loop1.txt").symlink_to("loop2.txt")
    (tmp_path / "loop2.txt").symlink_to("loop1.txt")
    code, out, err = run(capsys, command, loop)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.endswith("is a loop of symbolic links\n"), err


def test_the_batch_file_and_the_library_name_a_loop_too(tmp_path: Path) -> None:
    from rushhour.errors import RushHourError
    from rushhour.files import read_regular_file, write_text_atomic
    from rushhour.formats import read_file

    (tmp_path / "self").symlink_to("self")
    loop = str(tmp_path / "self")
    for call in (
        lambda: read_file(loop),
        lambda: read_regular_file(loop, 100),
        lambda: write_text_atomic(loop, "x"),
        lambda: rushhour.levels.resolve_all(loop),
    ):
        with pytest.raises(RushHourError, match="a loop of symbolic links"):
            call()


def test_the_files_doctests() -> None:
    assert doctest.testmod(rushhour.files).failed == 0


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize(
    "setup",
    [
        "COMP_WORDS=(); COMP_CWORD=0",
        "COMP_WORDS=(); unset COMP_CWORD",
        "unset COMP_WORDS COMP_CWORD",
        "COMP_WORDS=(rushhour); COMP_CWORD=1",
        "COMP_WORDS=(rushhour solve --csv); COMP_CWORD=3",
        "COMP_WORDS=(rushhour '' solve); COMP_CWORD=3",
    ],
)
def test_bash_completion_is_safe_under_set_u(tmp_path: Path, setup: str) -> None:
    script_file = tmp_path / "rushhour.bash"
    script_file.write_text(script("bash", build_parser()))
    program = f"set -euo pipefail; source {shlex.quote(str(script_file))}; {setup}; _rushhour; echo done"
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "done"
