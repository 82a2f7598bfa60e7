"""Options of ``solve`` and ``harden`` that once answered wrongly: the sat engine's ``--min-moves``
(no lower bound claimed for lengths never tried), ``--batch --metric steps`` (compared with a header of
another metric), empty ``--car-seconds``/``--truck-seconds`` (taken as the default), and ``harden``
stopped by its time limit (reported as bad input)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rushhour.board import Board
from rushhour.errors import LimitReachedError, ParameterError
from rushhour.levels import resolve_board
from rushhour.search import solve
from tests.cli import run
from tests.test_json import check

OPEN12 = str(Path(__file__).resolve().parent / "data" / "open12.txt")  # a reachable set of millions
CLASSIC3_OPTIMUM = 12  # classic:3's optimal moves (its header); its relaxed bound is 3


def documents(out: str) -> list[dict[str, Any]]:
    return [check(json.loads(line)) for line in out.splitlines()]


# --- 1. the sat engine's --min-moves ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        (["--min-moves", "1000"], "--max-moves 120 (the default) is below --min-moves 1000: no length fits"),
        (["--min-moves", "121"], "--max-moves 120 (the default) is below --min-moves 121: no length fits"),
        (
            ["--min-moves", "30", "--max-moves", "20"],
            "--max-moves 20 is below --min-moves 30: no length fits",
        ),
    ],
)
def test_min_moves_above_max_moves_is_refused(
    capsys: pytest.CaptureFixture[str], bounds: list[str], message: str
) -> None:
    # it once tried no length at all and said "Proven: no solution is shorter than 121 moves"
    code, out, err = run(capsys, "solve", "classic:3", "--engine", "sat", *bounds, "--json")
    assert (code, out, err) == (2, "", f"error: {message}\n")


def test_the_library_refuses_min_moves_above_max_moves() -> None:
    board = resolve_board("classic:3").board
    with pytest.raises(ParameterError, match="max_moves 20 is below min_moves 30: no length fits"):
        solve(board, engine="sat", min_moves=30, max_moves=20)
    with pytest.raises(ParameterError, match=r"max_moves 120 \(the default\) is below min_moves 1000"):
        solve(board, engine="sat", min_moves=1000)


def test_lengths_refuted_from_an_untried_start_prove_no_lower_bound(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # one move wins, and no plan of exactly 2 moves exists: refuting 2 from an untried start proves
    # nothing about the lengths below it
    board = "AA./.../..."
    code, out, err = run(capsys, "solve", board, "--engine", "sat", "--min-moves", "2", "--max-moves", "2")
    assert code == 3 and out == ""
    assert "proves nothing" in err and "no solution is shorter than 3" not in err
    [proven] = [line for line in err.splitlines() if line.startswith("Proven:")]
    assert int(proven.split()[-2]) <= 1
    code, out, _ = run(
        capsys, "solve", board, "--engine", "sat", "--min-moves", "2", "--max-moves", "2", "--json"
    )
    [body] = documents(out)
    assert code == 3 and body["status"] == "stopped" and body["lower_bound"] <= 1
    with pytest.raises(LimitReachedError) as caught:
        solve(Board.from_text(board), engine="sat", min_moves=2, max_moves=2)
    assert caught.value.lower_bound is not None and caught.value.lower_bound <= 1


def test_a_time_limit_after_an_untried_start_proves_no_lower_bound(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the clock runs out while the 120 steps are built: no length was solved at all
    argv = ["solve", "classic:3", "--engine", "sat", "--min-moves", "120", "--max-moves", "120"]
    code, out, _ = run(capsys, *argv, "--time-limit", "0.001", "--json")
    [body] = documents(out)
    assert code == 3 and body["lower_bound"] <= CLASSIC3_OPTIMUM
    assert "optimal solution has at least" not in body["message"]


def test_min_moves_above_the_optimum_answers_a_longer_plan_not_proven_optimal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "solve", "classic:3", "--engine", "sat", "--min-moves", "20", "--json")
    [body] = documents(out)
    assert code == 0 and body["length"] >= 20 > CLASSIC3_OPTIMUM
    assert (
        body["optimal"] is False and body["lower_bound"] is None and "not proven optimal" in body["message"]
    )
    code, out, _ = run(capsys, "solve", "classic:3", "--engine", "sat", "--min-moves", "20", "--no-color")
    assert code == 0 and "Solution (not proven optimal)" in out and "no shorter plan was looked for" in out
    # from at most the relaxed bound the answer is still proven optimal
    code, out, _ = run(capsys, "solve", "classic:3", "--engine", "sat", "--min-moves", "3", "--json")
    [body] = documents(out)
    assert (body["length"], body["optimal"], body["lower_bound"]) == (
        CLASSIC3_OPTIMUM,
        True,
        CLASSIC3_OPTIMUM,
    )


# --- 2. --batch --metric steps ------------------------------------------------------------------------


@pytest.mark.parametrize("pack", ["classic", "beginner"])
def test_batch_in_the_steps_metric_compares_nothing_with_the_moves_header(
    capsys: pytest.CaptureFixture[str], pack: str
) -> None:
    # `# moves:` is an optimum of the moves metric and `# steps:` the cells slid by the moves-optimal
    # solution recorded: neither is a steps optimum
    code, out, err = run(capsys, "solve", "--batch", pack, "--metric", "steps")
    assert code == 0, out + err
    assert "the file says" not in out and "agree with the file" not in out
    code, out, _ = run(capsys, "solve", "--batch", pack, "--metric", "steps", "--json")
    *boards, summary = documents(out)
    assert code == 0 and all(b["expected"] is None for b in boards)
    assert (summary["checked"], summary["agree"]) == (0, 0)


def test_batch_in_the_moves_metric_still_checks_the_header(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--batch", "classic")
    assert code == 0 and "12/12 lengths agree with the file" in out
    code, out, _ = run(capsys, "solve", "classic:3", "--metric", "steps", "--json")
    assert documents(out)[0]["expected"] is None
    code, out, _ = run(capsys, "solve", "classic:3", "--json")
    assert documents(out)[0]["expected"] == CLASSIC3_OPTIMUM


# --- 3. empty --car-seconds / --truck-seconds ------------------------------------------------------------


@pytest.mark.parametrize("option", ["--car-seconds", "--truck-seconds"])
@pytest.mark.parametrize("value", ["", " ", "x"])
@pytest.mark.parametrize("command", ["solve", "play"])
def test_a_malformed_move_time_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], command: str, option: str, value: str
) -> None:
    extra = ["--json"] if command == "solve" else ["--no-save", "--plain"]
    code, out, err = run(capsys, command, "classic:3", "--timed", option, value, *extra)
    assert code == 2 and out == ""
    [line] = err.splitlines()
    kind = option[2:].replace("-", " ")
    assert line.startswith(f"error: argument {option}: {kind} ")
    assert line.endswith(f"; try 'rushhour {command} --help'")


def test_given_move_times_are_used(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "solve", "classic:3", "--timed", "--car-seconds", "1.5", "--truck-seconds", "4", "--json"
    )
    assert code == 0 and json.loads(out)["seconds_per_move"] == {"car": 1.5, "truck": 4}
    code, out, _ = run(capsys, "solve", "classic:3", "--timed", "--json")
    assert code == 0 and json.loads(out)["seconds_per_move"] == {"car": 2, "truck": 5}


# --- 4. harden stopped by its time limit -------------------------------------------------------------


def test_harden_stopped_by_its_time_limit_exits_3_with_analyzes_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "harden", OPEN12, "--time-limit", "0.05", "--seed", "1")
    assert code == 3 and out == ""
    [line] = err.splitlines()
    assert not line.startswith("error:")
    assert line.startswith("stopped at the time limit of 0.05 s after ") and line.endswith(
        "without an answer (see --time-limit)"
    )


def test_harden_stopped_by_its_time_limit_prints_a_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "harden", OPEN12, "--time-limit", "0.05", "--seed", "1", "--json")
    assert code == 3 and err == ""
    [body] = documents(out)
    assert body["status"] == "stopped" and body["report"] == 0 and body["seed"] == 1
    assert body["board"] is None and body["length"] is None and body["moves"] == []
    assert body["message"].startswith("stopped at the time limit of 0.05 s")


def test_harden_reports_say_found(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "harden", "classic:1", "--max-tries", "20", "--seed", "1", "--json")
    reports = documents(out)
    assert code == 0 and reports and all(r["status"] == "found" and r["message"] is None for r in reports)


def test_play_refuses_move_seconds_without_timed_as_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "classic:1", "--car-seconds", "3", "--no-save")
    assert code == 2
    assert err == "error: --car-seconds and --truck-seconds go with --timed; try 'rushhour play --help'\n"


def test_a_batch_by_an_engine_that_proves_nothing_is_not_held_to_the_optimum(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A random walk is longer than the optimum the file gives: that is no disagreement (it exited 1);
    a walk shorter than the file's optimum would be one."""
    code, out, _ = run(capsys, "solve", "--batch", "beginner", "--engine", "random", "--seed", "1")
    assert code == 0 and "(the file says" not in out
    assert out.rstrip().endswith("40/40 lengths agree with the file")


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_a_stop_message_gives_its_time_limit_as_written_and_counts_in_their_number(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """``--time-limit 0.00001`` was said "the time limit of 1e-05 s after 1 positions"."""
    from tests.cli import run

    status, _, err = run(capsys, command, "classic:1", "--time-limit", "0.00001")
    assert status == 3
    assert err.startswith("stopped at the time limit of 0.00001 s after 1 position without an answer")
