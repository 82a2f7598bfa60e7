"""``rushhour solve`` and ``rushhour analyze``: output, exit status, limits, batch and exports."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from rushhour.board import Move
from rushhour.formats import fogleman
from rushhour.search import verify
from tests.cli import run

EASY = "ooBoooooBoooAABooooooooooooooooooooo"  # B+3 A+4
HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
UNSOLVABLE = "ooooooooooooAAoxooBoooooBooooooooooo"


def test_solve_prints_an_optimal_solution(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", HARDEST, "--no-color")
    assert status == 0 and err == ""
    assert "Optimal solution: 51 moves, 81 steps (bfs engine, moves metric)" in out
    assert " 1. " in out and "51. A+3" in out
    assert "positions explored in" in out


def test_a_one_move_solution_is_said_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "....../....../.AA.../....../....../......", "--no-color")
    assert status == 0 and "Optimal solution: 1 move, 3 steps (bfs engine, moves metric)" in out


def test_solve_json_replays(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", HARDEST, "--json", "--engine", "astar")
    data = json.loads(out)
    assert status == 0 and data["status"] == "solved" and data["optimal"] and data["length"] == 51
    board = fogleman.parse_line(HARDEST)[0]
    verify(board, [Move.parse(m) for m in data["moves"]])
    assert data["steps"] == sum(Move.parse(m).steps for m in data["moves"])


def test_solve_steps_metric_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", EASY, "--metric", "steps", "--show", "--no-color")
    assert status == 0
    assert "7 moves, 7 steps" in out
    assert out.count("+---") >= 2 * 8  # the start and the seven positions after each step


def test_unsolvable_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", UNSOLVABLE, "--no-color")
    assert status == 1 and "Unsolvable: all 8 reachable positions" in out
    status, out, _ = run(capsys, "solve", UNSOLVABLE, "--json")
    assert status == 1 and json.loads(out)["status"] == "unsolvable" and json.loads(out)["optimal"] is True


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "no-such-board-anywhere"],
        ["solve", "AAoo"],
        ["solve", EASY, "--max-states", "0"],
        ["solve", EASY, "--time-limit", "soon"],
        ["solve", EASY, "--engine", "magic"],
        ["solve"],
        ["solve", EASY, "--batch", "x.txt"],
        ["solve", EASY, "--jobs", "2"],
        ["analyze", EASY, "--time-limit", "-1"],
    ],
)
def test_bad_input_exits_2_without_traceback(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert "error:" in err and "Traceback" not in err


def test_limits_stop_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", HARDEST, "--max-states", "50")
    assert status == 3 and "the limit is 50" in err and "--max-states" in err
    status, out, _ = run(capsys, "solve", HARDEST, "--max-states", "50", "--json")
    assert status == 3 and json.loads(out)["status"] == "stopped"
    status, _, err = run(capsys, "analyze", HARDEST, "--max-states", "50")
    assert status == 3 and "without an answer" in err
    status, _, err = run(capsys, "solve", HARDEST, "--time-limit", "0.000001")
    assert status == 3 and "time limit" in err


def test_batch_lines_summary_and_jobs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = (Path(__file__).parent / "data" / "fogleman_slice_solve.txt").read_text().splitlines()[:12]
    path = tmp_path / "some.txt"
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "solve", "--batch", str(path))
    assert status == 0
    rows = out.splitlines()
    assert len(rows) == 13 and "12/12 lengths agree with the file" in rows[-1]
    assert "12 boards: 12 solved, 0 unsolvable, 0 stopped" in rows[-1]
    status, out2, _ = run(capsys, "solve", "--batch", str(path), "--jobs", "2", "--json")
    assert status == 0
    records = [json.loads(line) for line in out2.splitlines()]
    assert records[-1]["agree"] == 12 and records[-1]["jobs"] == 2
    assert [r["length"] for r in records[:-1]] == [int(line.split()[0]) for line in lines]


def test_batch_status_reflects_the_worst_board(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text(f"{EASY}\n{UNSOLVABLE}\n")
    status, out, _ = run(capsys, "solve", "--batch", str(path))
    assert status == 1 and "unsolvable" in out
    path.write_text(f"{EASY}\n{HARDEST}\n")
    status, out, _ = run(capsys, "solve", "--batch", str(path), "--max-states", "100")
    assert status == 3 and "stopped by a limit" in out


def test_csv_and_svg_exports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = tmp_path / "moves.csv"
    folder = tmp_path / "frames"
    status, _, _ = run(capsys, "solve", EASY, "--csv", str(table), "--svg", str(folder))
    assert status == 0
    with table.open() as handle:
        assert list(csv.reader(handle)) == [["vehicle", "move"], ["B", "+3"], ["A", "+4"]]
    frames = sorted(folder.glob("*.svg"))
    assert [f.name for f in frames] == ["step-000.svg", "step-001.svg", "step-002.svg"]
    root = ElementTree.parse(frames[-1]).getroot()
    assert root.tag.endswith("svg")
    # an unsolvable board: the verdict and its exit status, nothing written (the old table stays)
    status, out, err = run(capsys, "solve", UNSOLVABLE, "--csv", str(table))
    assert status == 1 and "Unsolvable: " in out
    assert err == "note: the board is unsolvable: there is no solution to write (--csv)\n"
    assert table.read_text() == "vehicle,move\nB,+3\nA,+4\n"
    status, out, err = run(capsys, "solve", UNSOLVABLE, "--gif", str(tmp_path / "u.gif"), "--json")
    assert status == 1 and json.loads(out)["status"] == "unsolvable" and not (tmp_path / "u.gif").exists()


def test_an_output_that_cannot_be_written_is_refused_before_the_search(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A folder, a device or a missing folder given to --gif or --csv was found after the search, and
    the solution was lost with it (while the other exports were written); a name ending in / became a
    file of that name."""
    (tmp_path / "adir").mkdir()
    table = tmp_path / "ok.csv"
    for target, why in [
        (tmp_path / "adir", "it is a folder, not a regular file"),
        ("/dev/full", "it is a device, not a regular file"),
        (tmp_path / "nodir" / "x.gif", f"the folder {tmp_path / 'nodir'} does not exist"),
        (f"{tmp_path / 'new'}/", "it ends in /, the name of a folder, where a file is wanted"),
    ]:
        status, out, err = run(capsys, "solve", EASY, "--csv", str(table), "--gif", str(target))
        assert (status, out) == (2, "") and err == f"error: cannot write {target}: {why}\n"
        assert not table.exists() and not (tmp_path / "new").exists()
    status, _, err = run(capsys, "solve", EASY, "--svg", str(table.with_suffix(".txt")), "--csv", str(table))
    assert status == 0, err
    status, _, err = run(capsys, "solve", EASY, "--svg", str(table))
    assert status == 2 and err == f"error: cannot write the frames into {table}: it is not a folder\n"


def test_an_output_onto_the_board_s_own_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``solve puzzle.txt --csv puzzle.txt`` replaced the puzzle with the solution's CSV."""
    board = tmp_path / "puzzle.txt"
    board.write_text("AA.B\n...B\nCC..\n....\n")
    (tmp_path / "link.csv").symlink_to(board)
    for target in (board, tmp_path / "link.csv"):
        status, out, err = run(capsys, "solve", str(board), "--csv", str(target))
        assert (status, out) == (2, "")
        assert err == f"error: cannot write {target}: BOARD was read from it, and the output would replace the board\n"
        assert board.read_text() == "AA.B\n...B\nCC..\n....\n"
    status, _, err = run(capsys, "solve", str(board), "--csv", str(tmp_path / "solution.csv"))
    assert status == 0, err


def test_gif_needs_pillow(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    status, _, err = run(capsys, "solve", EASY, "--gif", str(tmp_path / "s.gif"))
    assert status == 2 and "pip install Pillow" in err
    assert not (tmp_path / "s.gif").exists()


def test_analyze_prints_the_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", HARDEST, "--no-color")
    assert status == 0
    assert "Reachable positions: 4,780 (199 won)" in out
    assert "This board: 51 moves from the nearest win." in out
    assert "Hardest position (51 moves from a win):" in out
    status, out, _ = run(capsys, "analyze", HARDEST, "--json")
    data = json.loads(out)
    assert data["cluster_size"] == 4780 and sum(data["histogram"]) == 4780
    assert data["hardest_distance"] == 51 and data["hardest"]["width"] == 6
    status, out, _ = run(capsys, "analyze", UNSOLVABLE, "--no-color")
    assert status == 1 and "Unsolvable" in out


def test_other_engines_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    for engine in ("random", "improve"):
        status, out, _ = run(capsys, "solve", EASY, "--engine", engine, "--seed", "3", "--json")
        data = json.loads(out)
        assert status == 0 and data["status"] == "solved" and data["engine"] == engine
        verify(fogleman.parse_line(EASY)[0], [Move.parse(m) for m in data["moves"]])
