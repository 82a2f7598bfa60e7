"""``harden`` keeps to its time limit in every solve: the start's hardest position and each improvement
are solved again (and replayed) within the time left, and a board that cannot be solved again in time
is not reported; the run says so (text and JSON).

Before, each verifying solve ran with no time limit of its own: ``improvements(large:17,
time_limit=0.5)`` ended after 0.72 s and ``harden large:17 --time-limit 1`` (in one process) after
1.31 s, the start's 65-move hardest position solved again past the deadline; an improvement found
just before the deadline was verified past it in the same way.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import rushhour.harden as harden_module
from rushhour.board import Board
from rushhour.errors import LimitReachedError
from rushhour.harden import hardest_position, improvements
from rushhour.search import solve, verify
from tests.cli import run
from tests.test_json import check

SMALL = "AA.B../...B../...B../....../....../......"  # its hardest position: 2 moves; harden finds longer


class _Clock:
    """harden's ``time`` as the tests see it: the real clock, moved on by ``skip`` (a solve that used up
    the time it was given)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def perf_counter(self) -> float:
        return time.perf_counter() + self.ahead

    def skip(self, seconds: float) -> None:
        self.ahead += seconds


class _Verifier:
    """``solve`` as harden calls it, recording the time limit each call is given and the time left to
    the run's deadline then; from call ``fail_from`` on it stops as a solve out of time does: it uses
    up the time it was given (on ``clock``, when there is one), then stops at its limit."""

    def __init__(self, deadline: float | None, fail_from: int, clock: _Clock | None = None) -> None:
        self.deadline, self.fail_from, self.clock = deadline, fail_from, clock
        self.calls: list[tuple[float | None, float | None]] = []

    def __call__(self, board: Board, **options: Any) -> Any:
        left = None if self.deadline is None else self.deadline - time.perf_counter()
        self.calls.append((options.get("time_limit"), left))
        if len(self.calls) >= self.fail_from:
            if self.clock is not None and options.get("time_limit") is not None:
                self.clock.skip(options["time_limit"])
            raise LimitReachedError("stopped at the time limit (as a solve given too little time)")
        return solve(board, **options)


def test_every_verifying_solve_is_given_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each solve that verifies a report was called with no time limit at all."""
    began = time.perf_counter()
    verifier = _Verifier(began + 30.0, fail_from=10**9)
    monkeypatch.setattr(harden_module, "solve", verifier)
    found = list(improvements(Board.from_text(SMALL), time_limit=30.0, max_tries=150, seed=4))
    assert len(found) >= 2 and len(verifier.calls) == len(found)
    for given, left in verifier.calls:
        assert given is not None and left is not None
        assert 0 < given <= left + 1e-3, verifier.calls


def test_an_improvement_not_verified_in_time_is_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first improvement's solve runs out of time: it is not reported, and the run says its length."""
    clock = _Clock()
    monkeypatch.setattr(harden_module, "time", clock)
    verifier = _Verifier(None, fail_from=2, clock=clock)  # the start's solve succeeds, the next runs out
    monkeypatch.setattr(harden_module, "solve", verifier)
    run_ = improvements(Board.from_text(SMALL), time_limit=30.0, max_tries=150, seed=4)
    found = list(run_)
    assert [f.hardest.length for f in found] == [2]  # the start alone: nothing unverified reported
    assert len(verifier.calls) == 2  # the deadline passed in the second solve: the run ended there
    assert run_.unverified is not None and run_.unverified > 2
    # the same run with every solve real reports a board of that length or longer
    monkeypatch.setattr(harden_module, "time", time)
    monkeypatch.setattr(harden_module, "solve", solve)
    again = list(improvements(Board.from_text(SMALL), time_limit=30.0, max_tries=150, seed=4))
    assert again[1].hardest.length <= run_.unverified <= again[-1].hardest.length
    assert all(verify(f.hardest.board, f.hardest.moves).is_won() for f in again)


def test_another_limit_of_a_verifying_solve_is_a_stop_in_its_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """A verifying solve stopped with time left (by its memory) was said to be a board "not solved
    again within the time limit", even without a time limit."""

    calls = [0]

    def memory_stop(board: Board, **options: Any) -> Any:
        calls[0] += 1
        if calls[0] > 1:  # the start's solve succeeds, the first improvement's stops at its memory
            raise LimitReachedError("stopped at the memory limit of 1 MB")
        return solve(board, **options)

    monkeypatch.setattr(harden_module, "solve", memory_stop)
    for limit in (None, 30.0):
        calls[0] = 0
        with pytest.raises(LimitReachedError, match="^stopped at the memory limit of 1 MB$"):
            list(improvements(Board.from_text(SMALL), time_limit=limit, max_tries=150, seed=4))


def _out_of_time(board: Board, **options: Any) -> Any:
    """A solve that uses all the time it is given and stops at its limit."""
    time.sleep(options["time_limit"])
    raise LimitReachedError("stopped at the time limit")


def test_the_start_not_solved_again_in_time_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start's hardest position solved past the limit: now a stop of the time limit, which names it."""
    monkeypatch.setattr(harden_module, "solve", _out_of_time)
    with pytest.raises(
        LimitReachedError, match=r"^stopped at the time limit of 0.2 s while the hardest position"
    ):
        hardest_position(Board.from_text(SMALL), time_limit=0.2)
    with pytest.raises(LimitReachedError, match="2 moves by the analysis of 18 positions"):
        next(improvements(Board.from_text(SMALL), time_limit=0.2))


def test_another_limit_of_the_start_s_solve_is_said_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve stopped with time left (its memory) is not said to be the time limit."""
    monkeypatch.setattr(harden_module, "solve", _Verifier(None, fail_from=1))
    with pytest.raises(LimitReachedError, match=r"^stopped at the time limit \(as a solve given too little"):
        hardest_position(Board.from_text(SMALL), time_limit=30.0)


def test_the_command_says_a_board_was_not_verified_in_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = _Clock()
    monkeypatch.setattr(harden_module, "time", clock)
    monkeypatch.setattr(harden_module, "solve", _Verifier(None, fail_from=2, clock=clock))
    args = ("harden", SMALL, "--max-tries", "150", "--seed", "4", "--time-limit", "30", "--no-color")
    status, out, err = run(capsys, *args)
    assert status == 0
    assert "Improvement" not in out  # the start alone is shown
    lines = err.splitlines()
    assert lines[0].startswith("Not shown: a board of "), err
    assert "could not be solved again within the time limit: it is not reported" in lines[0]
    assert lines[-1].startswith("no longer board found than 2 moves")

    clock = _Clock()
    monkeypatch.setattr(harden_module, "time", clock)
    monkeypatch.setattr(harden_module, "solve", _Verifier(None, fail_from=2, clock=clock))
    status, out, err = run(capsys, *args[:-1], "--json")
    assert status == 0 and err == ""
    documents = [check(json.loads(line)) for line in out.splitlines()]  # valid by docs/json.md's schema
    assert [d["status"] for d in documents] == ["found", "unverified"]
    last = documents[-1]
    assert last["report"] == 1 and last["board"] is None and last["length"] is None and last["moves"] == []
    assert "could not be solved again within the time limit" in last["message"]
