"""Every hostile input that once gave a traceback, a hang, a wrong answer or a lost win, as a user
meets it: one ``error:`` line and exit status 2 for bad input, 3 for a search limit, and nothing
already saved lost."""

from __future__ import annotations

import doctest
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rushhour import numbers
from rushhour.board import Move
from rushhour.cli import main
from rushhour.errors import MoveError, ParseError, RushHourError, SaveFileError
from rushhour.formats import parse_text, read_file
from rushhour.play.saves import Saves
from rushhour.search import solve
from rushhour.search.bfs import Limits
from tests.cli import run
from tests.fuzzing import BOARD, BOARD_TEXT, kill_during_saves, wins_together

ROOT = Path(__file__).resolve().parent.parent
NINES = "9" * 5000
GRID = "# name: ok\nAA....\n......\n......\n......\n......\n......\n"


def refused(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 2) -> str:
    """Run a command that must end with one ``error:`` line; that line."""
    code, _, err = run(capsys, *argv)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == status, err
    assert lines and lines[-1].startswith("error: ") and "Traceback" not in err, err
    return lines[-1]


def shell(
    *argv: str, stdin: str = "", env: dict[str, str] | None = None, stdout: object = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "rushhour", *argv],
        input=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


# --- numbers: only ASCII digits, within bounds ----------------------------------------------------


def test_digits_that_int_refuses_are_refused_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, "show", "classic:²")
    assert "too far" in refused(capsys, "explain", "classic:1", "A+" + NINES)
    assert "cannot read size" in refused(capsys, "theorems", "--size", NINES + "x6")
    assert "left hand" in refused(capsys, "solve", "classic:1", "--hands", "1e9999,1")
    with pytest.raises(ParseError, match="not a whole number"):
        parse_text("vehicle,orientation,col,row,length\nX,H,²,1,2\n")
    # digits of other scripts, which int() reads, are no level number or seed either
    assert "not a whole number" in refused(capsys, "play", "classic", "--level", "٣", "--no-save")
    assert "not a whole number" in refused(capsys, "solve", "classic:1", "--engine", "random", "--seed", "٣")


def test_a_negative_number_is_named_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    """-1 is a number: the message says it is too small, not that it is no number."""
    assert "the number '-1' is below 1;" in refused(capsys, "generate", "--count", "-1")
    assert "the number of processes '-2' is below 1" in refused(capsys, "generate", "--jobs", "-2")
    assert "the number of seconds '-1' is negative" in refused(capsys, "solve", "classic:1", "--time-limit", "-1")
    assert "the number of seconds '-0.5' is negative" in refused(capsys, "harden", "classic:1", "--time-limit=-0.5")
    assert "'-' is not a whole number" in refused(capsys, "generate", "--jobs", "-")
    assert doctest.testmod(numbers).failed == 0


def test_a_header_number_that_is_not_ascii_is_kept_as_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "b.txt"
    path.write_text("# moves: ²\n" + GRID)
    code, out, err = run(capsys, "show", str(path), "--no-color")
    assert code == 0 and "optimal solution" not in out and not err
    code, out, err = run(capsys, "solve", "--batch", str(path))
    assert code == 0 and "1 solved" in out, err
    assert "Traceback" not in err


def test_the_game_reads_odd_digits_as_a_bad_move(tmp_path: Path) -> None:
    done = shell("play", "classic:3", "--no-save", "--no-color", stdin="²\n" + NINES + "\nq\n")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot read move '²'" in done.stdout


def test_move_notation_bounds_the_distance() -> None:
    with pytest.raises(MoveError, match="too far"):
        Move.parse("A+" + NINES)
    with pytest.raises(MoveError):
        Move.parse("A+²")
    assert Move.parse("A+999999999999999999") == Move("A", 999999999999999999)


def test_huge_option_values_are_refused_or_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    assert "too large" in refused(capsys, "solve", "classic:1", "--max-states", "99999999999999999999999")
    assert "car seconds" in refused(capsys, "solve", "classic:1", "--timed", "--car-seconds", "1e100000000")
    # play as solve: a clock setting without the clock is a mistake, never silently ignored
    assert "go with --timed" in refused(capsys, "play", "classic:1", "--car-seconds", "3", "--no-save")
    assert "car seconds" in refused(capsys, "play", "classic:1", "--timed", "--car-seconds", "1e99", "--no-save")
    refused(capsys, "solve", "classic:1", "--time-limit", "1e400")
    refused(capsys, "generate", "--count", "²")
    assert "above 256" in refused(capsys, "generate", "--jobs", "1e18")
    # a library call with a limit no search can reach is that limit, and never overflows the compiled search
    assert Limits(10**30).max_states == 10**18 - 1
    assert solve(BOARD, max_states=10**30).solved
    code, _, _ = run(capsys, "solve", "classic:1", "--max-states", "5e6")
    assert code == 0


# --- JSON and CSV readers bounded -------------------------------------------------------------------


@pytest.mark.parametrize("walls", ["5", "null", "true", '"x"', "{}"])
def test_json_walls_of_the_wrong_type(walls: str) -> None:
    text = json.dumps({"width": 6, "height": 6, "vehicles": []}).replace("}", f', "walls": {walls}}}', 1)
    with pytest.raises(ParseError, match="walls"):
        parse_text(text)


def test_json_nested_deep_or_with_huge_numbers_is_refused() -> None:
    with pytest.raises(ParseError, match="nested too deeply"):
        parse_text("[" * 100_000)
    with pytest.raises(ParseError, match="more than 18 digits"):
        parse_text('{"width": ' + "1" * 4301 + "}")
    with pytest.raises(ParseError, match="meta"):
        parse_text('{"width": 6, "height": 6, "vehicles": [], "meta": {"a": [1]}}')
    with pytest.raises(ParseError, match="lone surrogate"):  # it could not be printed or written
        parse_text('{"width": 6, "height": 6, "vehicles": [], "meta": {"name": "\\ud800"}}')


def test_csv_line_break_in_a_field_and_huge_fields() -> None:
    head = "vehicle,orientation,col,row,length\n"
    with pytest.raises(ParseError, match="line break inside a field"):
        parse_text(head + "X,H,1\r2,1,2\n")
    with pytest.raises(ParseError, match="field larger"):
        parse_text(head + "X,H," + "1" * 200_000 + ",1,2\n")


# --- writers refuse what they cannot write back ------------------------------------------------------


def test_fogleman_writer_refuses_moves_or_cluster_it_cannot_hold(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for header in ("# moves: 5x\n# cluster: 9\n", "# moves: 5\n# cluster: 9x\n"):
        path = tmp_path / "b.txt"
        path.write_text(header + GRID)
        assert "cannot hold" in refused(capsys, "convert", str(path), "--to", "fogleman")
    path.write_text("# moves: 05\n# cluster: 9\n" + GRID)
    code, out, _ = run(capsys, "convert", str(path), "--to", "fogleman")
    assert code == 0 and parse_text(out)[0].meta == {"moves": "5", "cluster": "9"}


def test_a_name_with_a_line_break_never_becomes_another_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = json.loads(main_json(capsys))
    board["meta"] = {"name": "x\nBB....\n"}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board))
    assert "cannot hold the header" in refused(capsys, "convert", str(path), "--to", "grid")
    for key in ("Name", "two words", "a:b"):
        board["meta"] = {key: "v"}
        path.write_text(json.dumps(board))
        refused(capsys, "convert", str(path), "--to", "grid")


def main_json(capsys: pytest.CaptureFixture[str]) -> str:
    code, out, _ = run(capsys, "show", "classic:1", "--json")
    assert code == 0
    return out


# --- linear-time parsing ----------------------------------------------------------------------------


def test_a_huge_grid_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "q.txt"
    path.write_text("A." * 64000 + "\n")
    with pytest.raises(ParseError, match="width 128000 is out of range"):
        read_file(str(path))
    # many parts of one symbol inside the size bounds: the parts are found in one pass
    with pytest.raises(ParseError, match="appears twice"):
        parse_text("A.A.A.A.A.A.A.A\n" * 16)


# --- special files and output errors ---------------------------------------------------------------


def test_special_files_are_refused_before_reading(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "is a device" in refused(capsys, "show", "/dev/zero")
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    assert "FIFO" in refused(capsys, "show", str(fifo))  # and does not block waiting for a writer
    assert "folder" in refused(capsys, "show", str(tmp_path))


def test_out_never_replaces_a_device_node(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "not a regular file" in refused(
        capsys, "convert", "classic:1", "--to", "json", "--out", "/dev/null"
    )
    refused(capsys, "generate", "--count", "1", "--seed", "1", "--min-moves", "3", "--out", "/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    refused(capsys, "convert", "classic:1", "--to", "json", "--out", str(fifo))
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_out_follows_a_symlink_and_keeps_the_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, _, _ = run(capsys, "convert", "classic:1", "--to", "json", "--out", str(link))
    assert code == 0 and link.is_symlink()
    assert json.loads(real.read_text())["width"] == 6
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_error_line() -> None:
    with open("/dev/full", "w") as full:
        done = shell("show", "classic:1", stdout=full)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"


# --- searches bounded by memory --------------------------------------------------------------------


def test_every_search_stops_at_its_memory_limit() -> None:
    # in a process of its own: the memory a search adds is measured on the process
    # an unsolvable board (a wall at the exit) with a reachable set of millions of positions
    board = "B.C.D.../B.C.D.../AA....x./......../.E..F.../.E..F..G/HH.....G/..II.JJ."
    for extra in (["--timed"], ["--hands", "3,5"], ["--engine", "astar"], ["--engine", "bfs"]):
        done = shell("solve", board, "--max-memory", "1", "--max-states", "1e9", *extra)
        assert done.returncode == 3, (extra, done.stderr)
        assert "stopped at the memory limit of 1 MB" in done.stderr and "Traceback" not in done.stderr


def test_random_walks_say_how_many_moves_they_made(capsys: pytest.CaptureFixture[str]) -> None:
    for engine in ("random", "improve"):
        code, _, err = run(
            capsys,
            "solve",
            "AA...x/....../....../....../....../......",
            "--engine",
            engine,
            "--time-limit",
            "0.2",
        )
        assert code == 3
        assert "after 0 " not in err and "random moves" in err


def test_the_default_limits_are_told_truthfully(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out, _ = capsys.readouterr()
    from rushhour.search.memory import DEFAULT_MAX_MEMORY, MEGABYTE

    text = " ".join(out.split())
    assert "1 GB" not in out and "--max-memory MB" in out
    assert f"default {DEFAULT_MAX_MEMORY // MEGABYTE:,}: half of the memory available" in text
    assert "default: no limit" in text  # --max-states


# --- the progress file ---------------------------------------------------------------------------


def test_simultaneous_wins_are_all_kept(tmp_path: Path) -> None:
    assert wins_together(tmp_path, pairs=3) == 0


def test_kills_during_saves_lose_nothing(tmp_path: Path) -> None:
    assert kill_during_saves(tmp_path, kills=4) == (0, 0, 0)


def test_a_deeply_nested_progress_file_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text("[" * 100_000)
    with pytest.raises(SaveFileError, match="nested too deeply") as caught:
        Saves.load(path)
    assert caught.value.moved_to is not None and not path.exists()
    done = shell("levels", env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert done.returncode == 0


def test_a_newer_progress_file_is_left_in_place(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    text = '{"format": "rushhour-progress", "version": 2, "levels": {}}'
    path.write_text(text)
    with pytest.raises(SaveFileError, match="newer version") as caught:
        Saves.load(path)
    assert caught.value.moved_to is None
    with pytest.raises(SaveFileError, match="newer version"):
        Saves(path).record_win("k", BOARD, moves=1, steps=1, optimal=1)
    assert path.read_text() == text and sorted(p.name for p in tmp_path.iterdir())[0] == "progress.json"


def test_a_save_follows_a_symlink_keeps_the_mode_and_cleans_stale_temporaries(tmp_path: Path) -> None:
    real = tmp_path / "store" / "progress.json"
    real.parent.mkdir()
    Saves.load(real).record_win("a", BOARD, moves=1, steps=1, optimal=1)
    real.chmod(0o600)
    stale = real.parent / ".progress.json.dead1234.tmp"
    stale.write_text("half a fi")
    link = tmp_path / "progress.json"
    link.symlink_to(real)
    Saves.load(link).record_win("b", BOARD, moves=1, steps=1, optimal=1)
    assert link.is_symlink() and set(Saves.load(real).levels) == {"a", "b"}
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert not stale.exists()


def test_a_progress_file_that_is_a_fifo_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    os.mkfifo(path)
    with pytest.raises(SaveFileError, match="FIFO"):
        Saves.load(path)
    assert stat.S_ISFIFO(os.stat(path).st_mode)


def test_library_errors_stay_in_the_family() -> None:
    for text in ("A+²", "A+" + NINES, "²"):
        with pytest.raises(RushHourError):
            Move.parse(text)
    assert parse_text(BOARD_TEXT)[0].board == BOARD


# wrap-around boards where a vehicle of the goal's own lane stands on its way: the bounds called the
# route impossible although the vehicle can go round the lane (found by comparing them with the
# optimum on random boards)
WRAP_SAME_LANE = (
    "# wrap: yes\n# target: 1,2 north\nBBB.B\nF.M.F\n..M..\nDDA.D\n..A..\n",
    "# wrap: yes\n# target: 2,4 west\n...LND\n.BBxND\nCCAAA.\n...L..\nEE.LNx\n",
    "# wrap: yes\n# target: 0,4 west\nF.AAF\n...xH\n..EEH\nCG.BH\nCG.B.\nC....\n",
    "# wrap: yes\n# target: 0,2 east\nAAJJJ.\nE.BBBx\nE....F\nCx.x.F\nC..x..\n",
)


@pytest.mark.parametrize("text", WRAP_SAME_LANE)
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_the_bounds_stay_below_the_optimum_when_the_goals_lane_wraps(text: str, metric: str) -> None:
    from rushhour.board import Board
    from rushhour.search.heuristics import HEURISTICS, heuristic
    from rushhour.search.tables import tables_for

    board = Board.from_text(text)
    optimum = solve(board, metric=metric)
    assert optimum.solved and optimum.optimal
    tables = tables_for(board.layout, metric)
    key = tables.pack(board.state)
    for name in HEURISTICS:
        assert heuristic(tables, name)(key) <= optimum.length, name
        found = solve(board, engine="astar", heuristic=name, metric=metric)
        assert found.length == optimum.length, name
