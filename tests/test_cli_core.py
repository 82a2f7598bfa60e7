"""`rushhour show`, `moves` and `convert` as a user runs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rushhour.cli import main
from rushhour.formats import parse_text
from tests.cli import run

HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"


def test_show_draws_the_board_with_its_exit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", HARDEST, "--no-color")
    assert code == 0
    assert "| G  H  I  A  A  M > exit" in out
    assert "\x1b[" not in out
    code, out, _ = run(capsys, "show", HARDEST, "--color")
    assert "\x1b[41m" in out  # the goal car on red


def test_show_labels_numbers_rows_and_columns_as_messages_name_cells(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "show", HARDEST, "--no-color", "--labels")
    lines = out.splitlines()
    assert code == 0 and lines[1].split() == ["0", "1", "2", "3", "4", "5"]
    assert "2 | G  H  I  A  A  M > exit" in out
    row = next(line for line in lines if line.startswith("4 |"))
    assert row.split("|")[1].split()[4] == "D"  # cell (4,4) is D's
    _, plain, _ = run(capsys, "show", HARDEST, "--no-color")
    assert plain.splitlines()[1].strip().startswith("+")  # without --labels: no numbers


def test_show_json_is_the_json_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "classic:12", "--json")
    data = json.loads(out)
    assert code == 0 and data["meta"]["moves"] == "51" and len(data["vehicles"]) == 13


def test_moves_lists_legal_moves_in_both_metrics(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "AA...B/.....B/CC.D../...D../EEE.../......", "--oracle", "rules")
    assert code == 0
    assert out.splitlines() == [
        "15 legal moves (moves metric, rules oracle):",
        "A+1 A+2 A+3 B+1 B+2 B+3 B+4 C+1 D-1 D-2 D+1 D+2 E+1 E+2 E+3",
    ]
    code, out, _ = run(capsys, "moves", HARDEST, "--metric", "steps", "--json", "--oracle", "rules")
    data = json.loads(out)
    assert data.pop("board")["text"] == HARDEST
    assert data == {
        "schema": "rushhour.moves",
        "version": 1,
        "metric": "steps",
        "oracle": "rules",
        "count": 3,
        "moves": ["B+1", "F+1", "M-1"],
        "won": False,
    }


@pytest.mark.parametrize("fmt", ["grid", "fogleman", "csv", "json"])
def test_convert_round_trips_through_every_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
) -> None:
    out_file = tmp_path / f"board.{fmt}"
    code, _, _ = run(capsys, "convert", HARDEST, "--to", fmt, "--out", str(out_file))
    assert code == 0
    again = parse_text(out_file.read_text(), fmt=fmt, size=(6, 6))[0].board
    original = parse_text(HARDEST)[0].board
    assert again == original


def test_convert_a_database_file_to_a_grid_pack(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "db.txt"
    src.write_text(f"51 {HARDEST} 4780\n03 BBBoooooCoooAACoooooDoooooDoooooDooo 20\n")
    code, out, _ = run(capsys, "convert", str(src), "--to", "grid")
    entries = parse_text(out)
    assert code == 0 and [e.meta["moves"] for e in entries] == ["51", "3"]
    code, _, err = run(capsys, "convert", str(src), "--to", "csv")
    assert code == 2 and "holds one board; this source has 2: convert one of them (BOARD:N, 1 to 2)" in err
    code, out, _ = run(capsys, "convert", f"{src}:2", "--to", "csv")  # as the message says
    assert code == 0 and parse_text(out, fmt="csv")[0].board == entries[1].board


def test_convert_keeps_a_packs_header_and_says_what_a_format_leaves_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A pack converted to grid is the pack's file again, its header (title, description, the command
    that made it) included; a format without a place for a header line says which ones it leaves out."""
    from rushhour.levels import boards_dir

    for name in ("classic", "walls"):
        code, out, err = run(capsys, "convert", name, "--to", "grid")
        assert (code, err) == (0, "")
        assert out == (boards_dir() / f"{name}.txt").read_text()
    copy = tmp_path / "walls.txt"
    shutil.copy(boards_dir() / "walls.txt", copy)
    code, out, _ = run(capsys, "convert", str(copy), "--to", "grid")
    assert code == 0 and out == copy.read_text()
    code, out, err = run(capsys, "convert", "walls", "--to", "fogleman")
    assert code == 0 and out.count("\n") == 30
    assert err.count("\n") == 1 and err.startswith("note: the Fogleman format has no place for the boards' name, ")
    assert "the file's header (title, order, description, seed, command)" in err
    code, _, err = run(capsys, "convert", "walls", "--to", "json")
    assert code == 0 and err.startswith("note: the JSON format has no place for the file's header (title, ")
    # a JSON board's meta that no grid or CSV header can hold beside the board's own
    board = json.loads(run(capsys, "convert", "classic:1", "--to", "json")[1])
    board["meta"].update({"exit": "left 2", "goal": "B"})
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(board))
    for fmt in ("grid", "csv"):
        code, out, err = run(capsys, "convert", str(odd), "--to", fmt)
        assert code == 0 and parse_text(out)[0].board == parse_text(odd.read_text())[0].board
        assert err == f"note: the {'grid' if fmt == 'grid' else 'CSV'} format has no place for the board's exit, goal: left out\n"
    # a database line keeps what it holds: nothing to say
    src = tmp_path / "db.txt"
    src.write_text(f"51 {HARDEST} 4780\n")
    assert run(capsys, "convert", str(src), "--to", "fogleman") == (0, f"51 {HARDEST} 4780\n", "")


def test_convert_names_the_board_a_format_cannot_hold(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(run(capsys, "convert", "classic:1", "--to", "grid")[1] + "\n"
                     + run(capsys, "convert", "wrap:1", "--to", "grid")[1])
    code, out, err = run(capsys, "convert", str(mixed), "--to", "fogleman")
    assert (code, out) == (2, "")
    assert err == f"error: {mixed}:2: the Fogleman format holds no wrap-around boards\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "nosuch.txt"], "error: no such file: nosuch.txt"),
        (["show", "AAB/..B/.B."], "vehicle B appears twice"),
        (["moves", HARDEST[:-1] + "?"], "row 6, column 6 (character 36): unknown character '?'"),
        (["convert", "classic:2", "--to", "csv"], "the CSV format holds no walls"),
        (["show", "classic:0"], "levels 1 to 12, not 0"),
        (["show", "classic:-1"], "error: pack classic has levels 1 to 12, not '-1'"),
        (["show", "Classic:abc"], "error: pack classic has levels 1 to 12, not 'abc'"),
        (["show", "daily:2026-1-5"], "error: 'daily:2026-1-5' is not a day: write daily:YYYY-MM-DD"),
        (["show", "daily:20261123"], "error: 'daily:20261123' is not a day: write daily:YYYY-MM-DD"),
    ],
)
def test_bad_input_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.startswith("error: ") and "Traceback" not in err


def test_unwritable_output_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "convert", HARDEST, "--to", "grid", "--out", str(tmp_path / "no" / "x.txt"))
    assert code == 2 and err.startswith("error: cannot write")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["moves", HARDEST, "--metric", "hops"])
    assert info.value.code == 2
    assert "error: argument --metric" in capsys.readouterr().err


def test_console_script_and_module_entry_points(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    module = subprocess.run(
        [sys.executable, "-m", "rushhour", "show", "classic:1"], capture_output=True, text=True, env=env
    )
    assert module.returncode == 0 and "> exit" in module.stdout and "\x1b[" not in module.stdout
    script = shutil.which("rushhour", path=os.path.dirname(sys.executable))
    assert script, "the rushhour console script is installed beside the interpreter"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01binary")
    result = subprocess.run([script, "show", str(bad)], capture_output=True, text=True, env=env)
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {bad}: this is a binary file, not a board"


def test_a_pack_is_every_level_where_a_board_list_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    from rushhour.levels import pack

    classic = pack("classic")
    code, out, _ = run(capsys, "convert", "classic", "--to", "fogleman")
    assert code == 0 and len(out.splitlines()) == len(classic.levels) > 1  # every level, not the first
    assert parse_text(out, source="out", fmt="fogleman")[-1].board == classic.levels[-1].board
    code, out, _ = run(capsys, "solve", "--batch", "beginner")
    assert code == 0 and f"{len(pack('beginner').levels)} boards:" in out
    for command in ("analyze", "show", "solve"):  # one board: a pack is refused, never its first level
        code, _, err = run(capsys, command, "classic")
        assert code == 2 and f"classic holds {len(classic.levels)} boards: choose one as classic:N" in err


@pytest.mark.parametrize("board", ["/\n~", "nosuch\r.txt", "a\u2028b", "x\x0cy.txt"])
def test_an_error_quoting_a_line_break_is_still_one_line(capsys: pytest.CaptureFixture[str], board: str) -> None:
    code, out, err = run(capsys, "show", board)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and len(err.splitlines()) == 1, err


def test_a_boards_json_text_is_a_board_argument(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/json.md: a document's ``text`` is read back by ``rushhour show TEXT``; a wrap-around board's
    text is its JSON object, which was taken for an unknown name."""
    code, out, _ = run(capsys, "show", "wrap:2", "--json")
    text = json.loads(out)["board"]["text"]
    assert code == 0 and text.startswith("{")
    code, again, _ = run(capsys, "show", text, "--json")
    assert code == 0 and json.loads(again)["board"]["text"] == text
    code, _, err = run(capsys, "show", '{"width": 6')
    assert code == 2 and err.startswith("error: inline board, line 1, column 12: not valid JSON")


def test_show_refuses_labels_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--labels numbers a drawing: with --json, which draws nothing, it was ignored in silence."""
    code, out, err = run(capsys, "show", "classic:1", "--labels", "--json")
    assert (code, out) == (2, "")
    assert err.startswith("error: --labels numbers the drawing's rows and columns: it does not go with --json")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["generate", "--seed", "1.5"], "the number '1.5' is not a whole number"),
        (["solve", "classic:1", "--max-states", "2.0"], "the number '2.0' is not a whole number"),
        (["generate", "--count", "3.25"], "the number '3.25' is not a whole number"),
        (["solve", "classic:1", "--max-states", "9" * 30], f"the number '{'9' * 30}' is too large"),
        (["solve", "classic:1", "--time-limit", "1." + "5" * 30], "has too many digits"),
    ],
)
def test_a_number_with_a_point_where_a_whole_one_is_wanted_is_said_so(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """``--seed 1.5`` (and every count) said the number '1.5' is too large."""
    from tests.cli import run

    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "") and words in err and len(err.splitlines()) == 1
