"""`rushhour play` driven as a person plays it: through a pseudo-terminal, and with piped input.

The level is TINY of tests/boards.py written to a temporary file, so each game is short:

    .....
    ..B..        B-1 clears A's row, then A+3 wins: 2 moves.
    AAB..        The options at the start are B-1, C-1, C-2, C+1.
    ..CC.
    .....
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from rushhour.errors import RushHourError
from rushhour.formats import parse_text
from rushhour.levels import packs
from rushhour.play.saves import Saves, level_key
from tests.boards import SECOND, TINY
from tests.terminal import spawn_program

COMMAND = [sys.executable, "-m", "rushhour"]
TIMEOUT = 120  # generous: the machine may be loaded, and the move oracle compiles on first use
PROMPT = r"your move \(A\+2, a number, or \? for help\)> "
ANSI = "\x1b["

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm", PYTHONIOENCODING="utf-8")
    env.update(extra)
    return env


def spawn(tmp_path: Path, *args: str, **extra: str) -> pexpect.spawn:
    """The line mode in a terminal (``--plain``; the full screen is tested in tests/test_tui_pty.py)."""
    return spawn_program(
        [*COMMAND, *args, "--plain"],
        env=environment(tmp_path, **extra),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 100),
        cwd=str(tmp_path),
    )


def finish(child: pexpect.spawn, status: int = 0) -> str:
    """Wait for the end; return everything printed since the last expect; check a clean exit with
    ``status``."""
    child.expect(pexpect.EOF)
    rest = child.before or ""
    child.close()
    assert child.exitstatus == status, rest
    assert "Traceback" not in rest
    return rest


def option_number(child: pexpect.spawn, move: str) -> str:
    """The number listed for a move in the options just printed."""
    text = (child.before or "") + (child.after or "")
    found = re.search(r"(\d+)\) " + re.escape(move) + r"\b", text)
    assert found, text
    return found.group(1)


def progress_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "rushhour" / "progress.json"


def test_typed_moves_win_and_save_progress(tmp_path: Path, level: Path) -> None:
    child = spawn(tmp_path, "play", str(level))
    child.expect("moves 0 \\| steps 0 \\| optimal 2 \\| hints 0")
    assert ANSI in child.before  # a terminal gets colour
    child.expect(PROMPT)
    assert "1) B-1" in child.before and "4) C+1" in child.before
    child.sendline("b-1")  # vehicle names ignore case when that is unambiguous
    child.expect("moves 1 \\| steps 1")
    child.expect(PROMPT)
    child.sendline("A+3")
    child.expect("SOLVED")
    child.expect("PERFECT")
    child.expect("Progress saved.")
    rest = finish(child)
    assert "last level here" in rest
    data = json.loads(progress_file(tmp_path).read_text())
    (key,) = data["levels"]
    assert key.startswith("board:")
    record = data["levels"][key]
    assert (record["best"], record["best_steps"], record["perfect"], record["hints"]) == (2, 4, True, 0)


def test_numbered_options_undo_redo_and_no_save(tmp_path: Path, level: Path) -> None:
    child = spawn(tmp_path, "play", str(level), "--no-save", "--no-color")
    child.expect(PROMPT)
    number = option_number(child, "C+1")
    child.sendline(number)
    child.expect(f"played {number}\\) C\\+1")  # a number is answered with the move it stands for
    child.expect("moves 1 \\| steps 1")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect("undid C\\+1")
    child.expect("moves 0 \\| steps 0")
    child.expect(PROMPT)
    child.sendline("r")
    child.expect("redid C\\+1")
    child.expect("moves 1")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect(PROMPT)
    child.sendline(option_number(child, "B-1"))
    child.expect(PROMPT)
    child.sendline("A+9")
    child.expect("A\\+9 is illegal")
    child.expect(PROMPT)
    child.sendline("nonsense")
    child.expect("cannot read move 'nonsense'")
    child.expect(PROMPT)
    child.sendline("")  # an empty line draws the board and the options again
    child.expect("legal moves:")
    child.expect(PROMPT)
    child.sendline(option_number(child, "A+3"))
    child.expect("Solved in 2 moves \\(4 steps\\)")
    rest = finish(child)
    assert ANSI not in rest
    assert not progress_file(tmp_path).exists()
    assert not (tmp_path / "data").exists()


def test_hints_followed_to_the_win(tmp_path: Path, level: Path) -> None:
    child = spawn(tmp_path, "play", str(level), "--no-save")
    child.expect(PROMPT)
    child.sendline("C+1")  # a detour: the hints must start from where the player is
    for expected in ("hints 1", "SOLVED"):
        child.expect(PROMPT)
        child.sendline("h")
        child.expect(r"hint: ([A-Z][+-]\d+) \([A-Z] (?:up|down|left|right) \d\) \(option \d+\)")
        move = child.match.group(1)
        child.expect(PROMPT)
        child.sendline(move)
        child.expect(expected)
    child.expect("The optimum is 2 moves: 1 more than needed")
    child.expect("With 2 hints")
    finish(child)


def test_solve_shows_the_rest_and_leaves_the_board(tmp_path: Path, level: Path) -> None:
    child = spawn(tmp_path, "play", str(level), "--no-save", "--no-color")
    child.expect(PROMPT)
    child.sendline("s")
    child.expect("An optimal solution from here, 2 moves:")
    child.expect("1\\. B-1 \\(B up 1\\)")
    child.expect("2\\. A\\+3 \\(A right 3\\)")
    child.expect("the board is back where you left it")
    child.expect("moves 0 \\| steps 0")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("u  undo")
    child.expect(PROMPT)
    child.sendline("q")
    finish(child)


def test_the_logic_says_why_a_move_was_refused_and_shows_a_vehicle(tmp_path: Path, level: Path) -> None:
    """``l`` in the line mode: the last refused slide's unsatisfiable core from the SAT oracle (the
    full screen's logic view, as lines), then a vehicle's propositions; a refusal is forgotten once a
    move is played, and the goal vehicle is shown then."""
    child = spawn(tmp_path, "play", str(level), "--no-save", "--no-color")
    child.expect(PROMPT)
    child.sendline("A+1")
    child.expect("A\\+1 is illegal: B is in the way \\(l: why")
    child.expect(PROMPT)
    child.sendline("l")
    child.expect("A\\+1 refused: B is in the way")
    child.expect("core: CMR\\(2,1\\), V2\\(2,2\\)")
    child.expect(PROMPT)
    child.sendline("l c")  # names ignore case, as moves do
    child.expect("A\\+1 refused")  # still this position's refusal
    child.expect("C: horizontal car")
    child.expect("T H2\\(3,2\\) Part0\\(3,2\\) EndL\\(3,2\\)")
    child.expect("its moves:")
    child.expect(PROMPT)
    child.sendline("l Q")
    child.expect("no vehicle named 'Q'")
    child.expect(PROMPT)
    child.sendline("B-1")
    child.expect(PROMPT)
    child.sendline("logic")
    child.expect("Logic, from the SAT oracle")
    child.expect("A: horizontal car, the goal vehicle")
    assert "refused" not in (child.before or "")  # a move was played since
    child.expect("T CMR\\(2,1\\)")  # B has gone: A can move right, up to the exit
    child.expect("T SlideR\\(2,1,3\\)")
    child.expect(PROMPT)
    child.sendline("q")
    finish(child)


def test_end_of_input_leaves_cleanly(tmp_path: Path, level: Path) -> None:
    child = spawn(tmp_path, "play", str(level))
    child.expect(PROMPT)
    child.sendeof()
    assert "bye" in finish(child)


def _killed_then_won(tmp_path: Path, level: Path, *first: tuple[str, str]) -> pexpect.spawn:
    """A line-mode game of ``level`` given ``first`` (each a line and what it answers), then B-1, then
    killed outright (SIGKILL); played again, continued where it was and won by A+3: that game."""
    child = spawn(tmp_path, "play", str(level))
    child.expect(PROMPT)
    for line, answer in first:
        child.sendline(line)
        child.expect(answer)
        child.expect(PROMPT)
    child.sendline("B-1")
    child.expect("moves 1 \\| steps 1")
    child.expect(PROMPT)
    child.kill(signal.SIGKILL)
    child.close()
    again = spawn(tmp_path, "play", str(level))
    again.expect("continued where you left it \\(1 move\\)")
    again.expect(PROMPT)
    again.sendline("A+3")
    again.expect("SOLVED")
    return again


def test_a_line_mode_game_killed_outright_is_continued_where_it_was(tmp_path: Path, level: Path) -> None:
    """kill -9 lost the game: its position was saved on leaving only; it is now saved before each
    question."""
    finish(_killed_then_won(tmp_path, level))


def test_the_solution_seen_in_a_line_mode_game_killed_outright_counts_with_the_next_win(
    tmp_path: Path, level: Path
) -> None:
    """kill -9 after `s`: the position came back, the solution seen did not, and the win was PERFECT."""
    again = _killed_then_won(tmp_path, level, ("s", "That was the solution"))
    again.expect("not PERFECT")
    again.expect("Help in earlier games of this level: the solution")
    finish(again)
    record = json.loads(progress_file(tmp_path).read_text())["levels"].popitem()[1]
    assert (record["perfect"], record["solution_seen"], record["hints"]) == (False, True, 0)


def test_ctrl_c_leaves_cleanly(tmp_path: Path, level: Path) -> None:
    child = spawn(tmp_path, "play", str(level))
    child.expect(PROMPT)
    child.sendintr()
    assert "bye" in finish(child, 130)  # the exit status of an interrupt


@pytest.mark.parametrize(
    "flags,extra,coloured",
    [
        ((), {}, True),
        (("--no-color",), {}, False),
        ((), {"NO_COLOR": "1"}, False),
        (("--color",), {"NO_COLOR": "1"}, True),
    ],
    ids=["terminal", "no-color", "NO_COLOR", "forced"],
)
def test_colour_on_off_and_no_color(
    tmp_path: Path, level: Path, flags: tuple[str, ...], extra: dict[str, str], coloured: bool
) -> None:
    child = spawn(tmp_path, "play", str(level), *flags, **extra)
    child.expect(PROMPT)
    drawn = child.before
    child.sendline("q")
    finish(child)
    assert (ANSI in drawn) is coloured
    assert "A  A  B" in re.sub(r"\x1b\[[0-9;]*m", "", drawn)


def run_piped(tmp_path: Path, args: list[str], script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        input=script,
        capture_output=True,
        text=True,
        env=environment(tmp_path),
        cwd=str(tmp_path),
        timeout=TIMEOUT,
    )


def test_piped_script_plays_a_game_and_the_next_level(tmp_path: Path) -> None:
    two = tmp_path / "two.txt"
    two.write_text(TINY + "\n" + SECOND)
    done = run_piped(tmp_path, ["play", str(two)], "B-1\nA+3\ny\nA+2\n")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert ANSI not in out  # stdout is not a terminal
    assert out.count("SOLVED") == 2
    assert "Next level: second (2 of 2), 1 move. Play it? [Y/n]" in out
    assert "last level here" in out
    levels = json.loads(progress_file(tmp_path).read_text())["levels"]
    assert len(levels) == 2


def test_a_piped_line_is_echoed_without_its_control_characters(tmp_path: Path) -> None:
    """The line mode writes back what it read from a pipe: a control character in it is shown, not
    sent on to the reader's terminal (an escape that would clear it)."""
    two = tmp_path / "two.txt"
    two.write_text(TINY + "\n" + SECOND)
    done = run_piped(tmp_path, ["play", str(two), "--no-save"], "B-1\x1b[2J\x00\x7f\nq\n")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x00" not in done.stdout and "\x7f" not in done.stdout
    assert "> B-1\\x1b[2J\\x00\\x7f\n" in done.stdout


def test_the_line_mode_counts_moves_as_the_full_screen_does(tmp_path: Path) -> None:
    """Typed slides of the vehicle moved last join its move: F+1 three times is one move, and the game
    is won in the optimum, PERFECT."""
    done = run_piped(tmp_path, ["play", "classic:1", "--no-save"], "F+1\nF+1\nF+1\nC+1\nC-1\nC+1\nD-1\nA+4\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "F+1 joins the move before: F+2" in out and "F+1 joins the move before: F+3" in out
    assert "C is back where it was: its move is taken away" in out
    assert "Solved in 4 moves (9 steps)." in out and "PERFECT: 4 moves, the optimum!" in out


def test_no_argument_starts_the_first_unsolved_built_in_level(tmp_path: Path) -> None:
    first = packs()[0]
    progress = Saves.load(progress_file(tmp_path))
    one = first.levels[0]
    progress.record_win(level_key(one.board, first.name, 1), one.board, moves=9, steps=9, optimal=None)
    done = run_piped(tmp_path, ["play"], "q\n")
    assert done.returncode == 0, done.stderr
    assert f"({first.name}:2 of {len(first.levels)})" in done.stdout
    listing = run_piped(tmp_path, ["levels", first.name], "")
    assert listing.returncode == 0, listing.stderr
    rows = listing.stdout.splitlines()
    assert any(row.split()[0] == f"{first.name}:1" and "solved in 9" in row for row in rows)
    assert any(row.split()[0] == f"{first.name}:2" and row.rstrip().endswith("-") for row in rows)
    as_json = run_piped(tmp_path, ["levels", "--json"], "")
    assert as_json.returncode == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    assert document["schema"] == "rushhour.levels" and as_json.stdout.count("\n") == 1
    listed = document["packs"]
    assert [p["pack"] for p in listed] == [p.name for p in packs()]
    solved = [row["level"] for p in listed for row in p["levels"] if row["solved"]]
    assert solved == [f"{first.name}:1"]
    assert listed[0]["levels"][0]["best"] == 9 and not listed[0]["levels"][0]["perfect"]


def test_corrupt_progress_is_reported_and_moved_aside(tmp_path: Path, level: Path) -> None:
    path = progress_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("{ this is not json")
    done = run_piped(tmp_path, ["play", str(level)], "B-1\nA+3\n")
    assert done.returncode == 0, done.stderr
    assert "warning: the progress file" in done.stderr and "moved to progress.json.corrupt-" in done.stderr
    aside = [p for p in path.parent.iterdir() if p.name.startswith("progress.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == "{ this is not json"
    assert json.loads(path.read_text())["format"] == "rushhour-progress"


@pytest.mark.parametrize(
    "args,words",
    [
        (["play", "no-such-file.txt"], "no such file"),
        (["play", "--pack", "nonexistent"], "no built-in pack called 'nonexistent'"),
        (["play", "--level", "999"], "levels 1 to"),
        (["levels", "nonexistent"], "no built-in pack"),
    ],
)
def test_bad_arguments_are_one_clear_error(tmp_path: Path, args: list[str], words: str) -> None:
    done = run_piped(tmp_path, args, "")
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and words in done.stderr
    assert "Traceback" not in done.stderr


# --- where play starts and what comes next (in-process, no terminal) -------------------------------
def test_choose_level_follows_progress_and_arguments(tmp_path: Path) -> None:
    from rushhour.play.level import choose_level

    first = packs()[0]
    progress = Saves.memory()
    assert choose_level(None, None, None, progress)[0].key == f"{first.name}:1"
    for number, entry in enumerate(first.levels[:2], start=1):
        progress.record_win(
            level_key(entry.board, first.name, number), entry.board, moves=5, steps=5, optimal=None
        )
    chosen, note = choose_level(None, None, None, progress)
    assert chosen.key == f"{first.name}:3" and note is None
    assert choose_level(None, first.name, None, progress)[0].key == f"{first.name}:3"
    assert choose_level(None, first.name, 2, progress)[0].key == f"{first.name}:2"
    assert choose_level(first.name, None, 2, progress)[0].key == f"{first.name}:2"
    assert choose_level(f"{first.name}:2", None, None, progress)[0].key == f"{first.name}:2"
    named = first.levels[1].meta.get("name")
    if named:
        assert choose_level(named, None, None, progress)[0].key == f"{first.name}:2"
    with pytest.raises(RushHourError, match="either a BOARD or --pack"):
        choose_level(first.name, first.name, None, progress)
    with pytest.raises(RushHourError, match="numbered from 1"):
        choose_level(None, None, 0, progress)


def test_play_with_no_board_continues_the_level_left_last() -> None:
    from rushhour.play.level import choose_level

    saves = Saves.memory()
    classic, large = packs()[-1], next(p for p in packs() if p.name == "large")
    saves.record_left(f"{classic.name}:5", classic.levels[4].board, ["A+1"], 12.0)
    saves.record_left("large:2", large.levels[1].board, ["A+1"], 3.0)  # the later one
    assert choose_level(None, None, None, saves)[0].key == "large:2"
    entry = large.levels[1]
    saves.record_win("large:2", entry.board, moves=9, steps=9, optimal=None)  # a win forgets it
    assert choose_level(None, None, None, saves)[0].key == f"{classic.name}:5"


def test_play_with_no_board_continues_a_built_in_level_left_before_other_boards(tmp_path: Path) -> None:
    """A game left later on a file's board, an inline board or the day's puzzle does not hide the
    built-in level left before it; a hand-edited key that only looks like a level is passed over."""
    from rushhour.play.level import choose_level

    saves = Saves(tmp_path / "progress.json")
    classic = packs()[-1]
    saves.record_left(f"{classic.name}:5", classic.levels[4].board, ["A+1"], 12.0)
    board = parse_text(TINY, source="test", fmt="grid")[0].board
    saves.record_left(level_key(board), board, ["B-1"], 3.0)
    saves.record_left("daily:2026-11-23", board, ["B-1"], 3.0)
    saves.record_left(f"{classic.name}:\u00b2", board, ["B-1"], 3.0)  # '²' is a digit to str.isdigit
    assert choose_level(None, None, None, Saves.load(tmp_path / "progress.json"))[0].key == f"{classic.name}:5"


def test_every_level_solved_starts_again_with_a_note() -> None:
    from rushhour.play.level import choose_level

    first = packs()[0]
    progress = Saves.memory()
    for number, entry in enumerate(first.levels, start=1):
        progress.record_win(
            level_key(entry.board, first.name, number), entry.board, moves=5, steps=5, optimal=None
        )
    chosen, note = choose_level(None, first.name, None, progress)
    assert chosen.key == f"{first.name}:1" and note is not None and "solved" in note


def test_next_level_walks_the_pack_then_the_next_pack(tmp_path: Path) -> None:
    from rushhour.play.level import choose_level, next_level

    order = packs()
    last_of_first = choose_level(None, order[0].name, len(order[0].levels), Saves.memory())[0]
    following = next_level(last_of_first)
    if len(order) > 1:
        assert following is not None and following.key == f"{order[1].name}:1"
    else:
        assert following is None
    two = tmp_path / "two.txt"
    two.write_text(TINY + "\n" + SECOND)
    start = choose_level(str(two), None, None, Saves.memory())[0]
    second = next_level(start)
    assert second is not None and second.entry.meta["name"] == "second" and second.title == "second (2 of 2)"
    assert next_level(second) is None
    assert choose_level(str(two), None, 2, Saves.memory())[0].entry.meta["name"] == "second"


def test_a_board_without_a_win_says_so(tmp_path: Path) -> None:
    done = run_piped(
        tmp_path, ["play", "....../....../AAx.../....../....../......", "--no-save"], "h\ns\nu\nq\n"
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "unsolvable" in out and "no legal moves here" in out
    assert out.count("No win can be reached from here") == 2
    assert "nothing to undo" in out and out.rstrip().endswith("bye")


def test_the_daily_puzzle_is_played_and_remembered_by_its_date(tmp_path: Path) -> None:
    import datetime

    from rushhour.levels import daily
    from rushhour.search import solve

    today = daily(datetime.date.today())
    solution = solve(today.entry.board)
    assert solution.solved
    script = "".join(f"{move}\n" for move in solution.moves)
    done = run_piped(tmp_path, ["play", "--daily"], script)
    assert done.returncode == 0, done.stderr
    assert f"daily-{today.day.isoformat()}" in done.stdout and "PERFECT" in done.stdout
    record = json.loads(progress_file(tmp_path).read_text())["levels"][today.key]
    assert record["perfect"] and record["best"] == len(solution.moves)
    listing = run_piped(tmp_path, ["levels"], "")
    assert f"{today.key}" in listing.stdout and "perfect" in listing.stdout.split("Daily puzzles")[1]
    refused = run_piped(tmp_path, ["play", "--daily", "classic:1"], "")
    assert refused.returncode == 2 and refused.stderr.startswith("error: --daily plays the puzzle of the day")


def test_levels_shows_the_help_a_win_had(tmp_path: Path) -> None:
    first = packs()[0]
    progress = Saves.load(progress_file(tmp_path))
    one, two = first.levels[0], first.levels[1]
    progress.record_win(level_key(one.board, first.name, 1), one.board, moves=9, steps=9, optimal=9, hints=2)
    progress.record_win(
        level_key(two.board, first.name, 2), two.board, moves=9, steps=9, optimal=9, solution_seen=True
    )
    listing = run_piped(tmp_path, ["levels", first.name], "")
    rows = {row.split()[0]: row for row in listing.stdout.splitlines() if row.startswith("  ")}
    assert rows[f"{first.name}:1"].endswith("solved in 9 (2 hints)")
    assert rows[f"{first.name}:2"].endswith("solved in 9 (solution seen)")
    as_json = json.loads(run_piped(tmp_path, ["levels", first.name, "--json"], "").stdout)["packs"]
    row = as_json[0]["levels"][1]
    assert (row["hints"], row["solution_seen"], row["perfect"]) == (0, True, False)


# --- colours stay with their vehicles ----------------------------------------------------------------
#: a board whose colouring, worked out afresh for some positions of its solution, would change
#: (C-1, B-1, D-2, A+4: after D-2 the contacts differ from the start's)
RECOLOURED = "....BB/....CC/AA...D/.....D/.EEEFF/......"


def vehicle_styles(text: str) -> dict[str, set[str]]:
    """Every vehicle's colour codes in a drawing (bold, the highlight of the last move, left out)."""
    found: dict[str, set[str]] = {}
    for codes, name in re.findall(r"((?:\x1b\[[0-9;]*m)+) ([A-Za-z0-9]+) \x1b\[0m", text):
        found.setdefault(name, set()).add(codes.replace("\x1b[0m", "").replace("\x1b[1m", ""))
    return found


def test_the_line_mode_keeps_every_vehicle_in_its_colour() -> None:
    from rushhour.play.level import choose_level
    from rushhour.play.line import LineMode
    from rushhour.render.palette import BASIC, XTERM_256

    level = choose_level(RECOLOURED, None, None, Saves.memory())[0]
    for depth in (BASIC, XTERM_256):
        lines = iter(["C-1", "B-1", "D-2", "A+4"])
        out: list[str] = []
        session = LineMode(
            Saves.memory(),
            color=True,
            legal_moves=lambda b: b.legal_moves("moves"),
            solver=lambda b: None,
            read=lambda prompt, lines=lines: next(lines),
            write=out.append,
            depth=depth,
        )
        assert session.play_level(level) is True
        styles = vehicle_styles("".join(out))
        assert set(styles) == {"A", "B", "C", "D", "E", "F"}
        assert all(len(codes) == 1 for codes in styles.values()), styles


def test_solve_show_keeps_every_vehicle_in_its_colour(tmp_path: Path) -> None:
    for term in ("xterm", "xterm-256color"):
        done = subprocess.run(
            [*COMMAND, "solve", RECOLOURED, "--show", "--color"],
            capture_output=True,
            text=True,
            env=environment(tmp_path, TERM=term),
            timeout=TIMEOUT,
        )
        assert done.returncode == 0, done.stderr
        playback = done.stdout.split("  1. ")[1]  # the positions of the solution, the last one won
        assert playback.count("+---") == 8
        styles = vehicle_styles(playback)
        assert set(styles) == {"A", "B", "C", "D", "E", "F"}
        assert all(len(codes) == 1 for codes in styles.values()), styles


def test_a_line_mode_win_after_seeing_the_solution_is_not_perfect(tmp_path: Path) -> None:
    from rushhour.search import solve

    first = packs()[0]
    board = first.levels[0].board
    solution = solve(board)
    assert solution.solved and solution.optimal
    script = "s\n" + "".join(f"{move}\n" for move in solution.moves) + "n\n"
    done = run_piped(tmp_path, ["play", f"{first.name}:1"], script)
    assert done.returncode == 0, done.stderr
    assert "SOLVED" in done.stdout and "PERFECT" not in done.stdout.replace("not PERFECT", "")
    assert "after seeing the solution" in done.stdout
    record = json.loads(progress_file(tmp_path).read_text())["levels"][f"{first.name}:1"]
    assert record["best"] == len(solution.moves) == record["optimal"]
    assert (record["perfect"], record["solution_seen"], record["hints"]) == (False, True, 0)
    listing = run_piped(tmp_path, ["levels", first.name], "")
    row = next(r for r in listing.stdout.splitlines() if r.split()[:1] == [f"{first.name}:1"])
    assert re.search(rf"solved in {len(solution.moves)}, best 0:\d\d \(solution seen\)$", row), row
    assert "perfect" not in row
    as_json = json.loads(run_piped(tmp_path, ["levels", first.name, "--json"], "").stdout)["packs"]
    assert (as_json[0]["levels"][0]["perfect"], as_json[0]["levels"][0]["solution_seen"]) == (False, True)


def test_help_in_a_line_mode_game_left_unsolved_counts_with_the_next_win(tmp_path: Path, level: Path) -> None:
    seen = run_piped(tmp_path, ["play", str(level)], "s\nq\n")
    assert seen.returncode == 0, seen.stderr
    (record,) = json.loads(progress_file(tmp_path).read_text())["levels"].values()
    assert (record["solved"], record["solution_seen_since_win"]) == (False, True)
    won = run_piped(tmp_path, ["play", str(level)], "B-1\nA+3\n")
    assert won.returncode == 0, won.stderr
    assert "not PERFECT: help was used" in won.stdout and "earlier games of this level: the solution" in won.stdout
    (record,) = json.loads(progress_file(tmp_path).read_text())["levels"].values()
    assert (record["solved"], record["perfect"], record["solution_seen"]) == (True, False, True)


@pytest.mark.parametrize("how", ["sigterm", "sighup", "ctrl-c", "end of input"])
def test_every_way_out_of_the_line_mode_keeps_the_help_had(tmp_path: Path, level: Path, how: str) -> None:
    import signal

    child = spawn(tmp_path, "play", str(level))
    child.expect(PROMPT)
    child.sendline("h")
    child.expect("hint: B-1")
    child.expect(PROMPT)
    status = 0
    if how == "sigterm":
        child.kill(signal.SIGTERM)
        status = 128 + signal.SIGTERM
    elif how == "sighup":
        child.kill(signal.SIGHUP)
        status = 128 + signal.SIGHUP
    elif how == "ctrl-c":
        child.sendintr()
        status = 130
    else:
        child.sendeof()
    finish(child, status)
    (record,) = json.loads(progress_file(tmp_path).read_text())["levels"].values()
    assert (record["solved"], record["hints_since_win"], record["solution_seen_since_win"]) == (False, 1, False)


def test_the_line_mode_continues_a_level_left_and_keeps_the_best_time(tmp_path: Path, level: Path) -> None:
    left = run_piped(tmp_path, ["play", str(level)], "B-1\nq\n")
    assert left.returncode == 0 and "Goal: drive A out through the exit on the right" in left.stdout
    record = json.loads(progress_file(tmp_path).read_text())["levels"]
    (key,) = record
    assert record[key]["left_moves"] == ["B-1"] and not record[key]["solved"]
    won = run_piped(tmp_path, ["play", str(level)], "A+3\n")
    assert "continued where you left it (1 move); reset starts again" in won.stdout
    assert "Goal:" not in won.stdout  # a first game only
    assert "Solved in 2 moves" in won.stdout and re.search(r"Time: \d+:\d\d\.", won.stdout)
    record = json.loads(progress_file(tmp_path).read_text())["levels"][key]
    assert record["solved"] and record["left_moves"] is None and record["best_seconds"] is not None
