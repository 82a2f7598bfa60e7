"""The portfolio's time limit in the fallback of a board the frontier passes cannot hold (full16:
16x16, 60 vehicles): bfs in the caller, the workers beside it.

Measured (``solve full16 --time-limit S``, in the library): S = 0.5 ended at 0.72 to 0.77 s, S = 1 at
1.18 to 1.28 s; of that, the caller's wait for the workers' last news ran up to GRACE + POLL (0.15 s)
past the deadline, as a read of their queue began just before the grace ran out; it now ends at
GRACE at most.  Once bfs has spent its share of the memory, the caller waits for the workers: at the
time limit at most GRACE past it, whatever they do.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from pathlib import Path
from typing import Any

import pytest

from rushhour.board import Board
from rushhour.errors import LimitReachedError
from rushhour.formats import read_file
from rushhour.search import portfolio as portfolio_module
from rushhour.search import solve
from rushhour.search.bfs import Limits
from tests.native import needs_native

FULL16 = Path(__file__).parent / "data" / "full16.txt"
SMALL = "AA...B/.....B/....../....../....../......"


class _Clock:
    """The portfolio's clock, moved only by the waits on the workers' queue."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.reads: list[float] = []  # the timeout of each read of the queue

    def perf_counter(self) -> float:
        return self.now


class _SilentQueue:
    """The workers' queue when they say nothing: each read waits its whole timeout."""

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock

    def get(self, timeout: float) -> Any:
        assert timeout > 0
        self.clock.reads.append(timeout)
        self.clock.now += timeout
        raise queue.Empty

    def get_nowait(self) -> Any:
        raise queue.Empty


class _Worker:
    """A worker that lives for ``reads`` reads of the queue (None: for ever)."""

    def __init__(self, clock: _Clock, reads: int | None) -> None:
        self.clock, self.reads = clock, reads

    def is_alive(self) -> bool:
        return self.reads is None or len(self.clock.reads) < self.reads


def _news(clock: _Clock, reads: int | None) -> Any:
    state = portfolio_module._State(clock.now, 4, "relaxed bound")
    worker = _Worker(clock, reads)
    return portfolio_module._News(
        Board.from_text(SMALL), "moves", state, [4, 0, 0], _SilentQueue(clock), worker, None
    )


def test_the_wait_for_silent_workers_ends_within_the_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the deadline, workers that never answer are waited for GRACE seconds, not one read more."""
    clock = _Clock(100.0)
    monkeypatch.setattr(portfolio_module, "time", clock)
    limits = Limits(None, 1.0, None)
    limits.deadline = 100.0  # the caller's own engine ended at its deadline
    _news(clock, 1000).wait_for_last(limits)  # a worker that would answer after 50 s
    assert clock.reads  # the workers' last news were waited for
    assert 100.0 + portfolio_module.GRACE - 1e-9 <= clock.now <= 100.0 + portfolio_module.GRACE + 1e-9, (
        clock.reads
    )


def test_before_the_deadline_the_wait_lasts_while_a_worker_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """With time left (or no time limit) the caller waits while a worker runs, and no longer."""
    for deadline in (200.0, None):
        clock = _Clock(100.0)
        monkeypatch.setattr(portfolio_module, "time", clock)
        limits = Limits(None, None, None)
        limits.deadline = deadline
        _news(clock, 7).wait_for_last(limits)
        assert len(clock.reads) == 7 and all(t == portfolio_module.POLL for t in clock.reads)


def _silent(*args: Any) -> None:
    """A worker that never answers."""
    time.sleep(60)


@needs_native
def test_after_bfs_spends_its_memory_the_time_limit_still_ends_the_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """full16 with a small memory limit: bfs stops at its share at once, and the caller waits for
    workers that never answer; the time limit (1 s) ends the wait, well within 20 s, and no worker
    outlives the call."""
    monkeypatch.setattr(portfolio_module, "_upper_worker", _silent)
    monkeypatch.setattr(portfolio_module, "_lower_worker", _silent)
    board = read_file(str(FULL16))[0].board
    began = time.perf_counter()
    with pytest.raises(LimitReachedError) as caught:
        solve(board, engine="portfolio", time_limit=1.0, max_memory=8 * 2**20)
    assert time.perf_counter() - began < 20
    assert str(caught.value).startswith("stopped at the time limit of 1 s;"), str(caught.value)
    assert "stopped at the memory limit" not in str(caught.value)  # bfs's stop is not the portfolio's
    assert not multiprocessing.active_children()


@needs_native
def test_planning_in_the_caller_keeps_to_the_workers_share_of_the_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a process that may not start others, SAT planning runs in the caller after bfs: it had no
    memory budget at all, where the worker that plans elsewhere has a quarter of --max-memory."""
    budgets: list[Any] = []

    def plans(board: Board, metric: str, share: Any, out: Any, limits: Limits, budget: Any) -> None:
        budgets.append(budget)

    monkeypatch.setattr(portfolio_module, "may_start_processes", lambda: False)
    monkeypatch.setattr(portfolio_module, "_plans", plans)
    board = read_file(str(FULL16))[0].board
    with pytest.raises(LimitReachedError):
        solve(board, engine="portfolio", time_limit=20.0, max_memory=8 * 2**20)
    assert len(budgets) == 1 and budgets[0] is not None
    assert budgets[0].limit == 2 * 2**20
