"""Faults of the portfolio (rushhour/search/portfolio.py) found by a probe, each kept fixed:

* a board the compiled frontier passes cannot run (full16: 60 vehicles, keys of 173 bits where the
  passes take 128) was read as "the passes pruned nothing", the other engines were killed before they
  began and the portfolio stopped with "every engine ended" and exit status 3, without any limit;
* at ``--time-limit`` the caller waited 1.5 s past the deadline for a worker busy in a last improve
  restart (of at least 0.5 s, whatever the time left) or SAT planning: the portfolio overshot its
  limit by 0.6 to 1.2 s where the other engines stop within 0.1 to 0.4 s;
* the upper worker's improve restarts had no memory budget: ``solve full16 --max-memory 1`` ran them
  for 60 s after bfs had stopped at its share and peaked at 1.1 GB (each restart grows the tables).
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest

from rushhour.board import Board
from rushhour.errors import LimitReachedError
from rushhour.formats import read_file
from rushhour.search import frontier as frontier_module
from rushhour.search import native, solve, verify
from rushhour.search import portfolio as portfolio_module
from rushhour.search.bfs import Limits
from rushhour.search.memory import MemoryBudget
from rushhour.search.tables import tables_for
from tests.native import needs_native

DATA = Path(__file__).parent / "data"
FULL16 = DATA / "full16.txt"  # 16x16, 60 vehicles, 9 moves (SAT planning proves it in about a second)
OPEN12 = DATA / "open12.txt"  # open12-02, 14 moves
CROWD12_LONG = DATA / "crowd12_long.txt"  # crowd12-04: its proof takes minutes
SMALL = "AA...B/.....B/....../....../....../......"
# bench/time_limits.py's board (its "solve" row, the default engine): unsolvable (a wall before the exit),
# a reachable set of millions
WALLED8 = "B.C.D.../B.C.D.../AA....x./......../.E..F.../.E..F..G/HH.....G/..II.JJ."


def _board(path: Path) -> Board:
    return read_file(str(path))[0].board


def _cannot_run(*args: Any, **kwargs: Any) -> tuple[int, int, None, int, int]:
    """A frontier pass on a board the compiled search refuses (status -1, nothing stored)."""
    return -1, 0, None, 0, 0


# --- fault 1: a board the frontier passes cannot run ------------------------------------------------


@needs_native
def test_full16_is_beyond_the_passes_keys() -> None:
    """Why the passes cannot run full16: the compiled frontier search refuses it (status -1), as its
    keys would need more than 128 bits; the portfolio still takes the board (larger than 6x6)."""
    board = _board(FULL16)
    tables = tables_for(board.layout, "moves")
    assert native.compiled is not None
    status, stored, path, _, pruned = native.compiled.frontier(
        tables.native_spec(), tables.unpack(tables.pack(board.state)), 0, 5.0, False, 0, None, 1
    )
    assert (status, stored, path, pruned) == (-1, 0, None, 0)
    assert portfolio_module.wanted(board, "moves")


@needs_native
def test_the_default_engine_solves_full16_optimally_without_any_limit() -> None:
    """It stopped after a second with "every engine ended" (exit status 3); SAT planning proves the
    optimum of 9 moves in about a second once it is given the chance."""
    board = _board(FULL16)
    solution = solve(board, engine="portfolio")
    assert solution.solved and solution.optimal and solution.length == 9
    verify(board, solution.moves)
    assert all(b.value <= 9 for b in solution.bounds if b.kind == "lower")
    assert not multiprocessing.active_children()


@needs_native
def test_the_command_says_what_solved_a_board_without_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """The summary said "0 positions stored by the frontier passes" of passes that never ran."""
    from rushhour.cli import main

    assert main(["solve", str(FULL16), "--no-color"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("Portfolio: ") and "frontier passes" not in last
    assert last.endswith("found by sat planning, proven optimal by sat planning")


@needs_native
def test_a_limit_on_a_board_without_passes_is_named_not_every_engine_ended() -> None:
    """Stopped by ``max_states`` (the bfs engine in the caller, where the passes would be), the
    portfolio names that limit: its workers were ended by it, they did not all end by themselves."""
    with pytest.raises(LimitReachedError) as caught:
        solve(_board(FULL16), engine="portfolio", max_states=1000)
    message = str(caught.value)
    assert "every engine ended" not in message
    assert "(the limit is 1,000)" in message, message
    assert not multiprocessing.active_children()


def test_engines_cut_short_are_never_reported_as_ended() -> None:
    """The portfolio's stop without a reason of its own and workers it killed names them."""
    state = portfolio_module._State(time.perf_counter(), 4, "relaxed bound")
    state.cut.append("improve and sat planning")
    message = str(portfolio_module._stop(state, Limits(), "moves"))
    assert "every engine ended" not in message
    assert message.startswith("stopped: improve and sat planning ended by the portfolio")


@needs_native
def test_without_passes_bfs_or_the_workers_prove_the_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board whose passes are refused (as full16's) is still proven: open12-02 (14 moves), by bfs in
    the caller or SAT planning beside it, whichever ends first."""
    monkeypatch.setattr(portfolio_module, "one_pass", _cannot_run)
    board = _board(OPEN12)
    solution = solve(board, engine="portfolio", time_limit=60)
    assert solution.solved and solution.optimal and solution.length == 14
    verify(board, solution.moves)
    assert not multiprocessing.active_children()


@needs_native
def test_without_passes_an_unsolvable_board_is_proven_unsolvable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a search of the whole reachable set proves a board unsolvable: bfs does it in the caller."""
    monkeypatch.setattr(portfolio_module, "one_pass", _cannot_run)
    walled = Board.from_text("..B..../..B..../AAB..x./......./.CC..../......./.......")
    assert portfolio_module.wanted(walled, "moves")
    solution = solve(walled, engine="portfolio", time_limit=60)
    assert not solution.solved and solution.optimal and solution.explored > 1
    assert not multiprocessing.active_children()


# --- fault 2: the time limit ------------------------------------------------------------------------


def test_an_improve_restart_never_runs_past_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each restart was given at least 0.5 s whatever the time left: the caller then waited for it."""
    asked: list[tuple[float, float]] = []  # (the restart's time, the time left to the deadline then)
    limits = Limits(None, 0.3, None)

    def improve_search(board: Board, metric: str, given: Limits, seed: int) -> tuple[list[Any], int]:
        left = limits.deadline - time.perf_counter()  # type: ignore[operator]
        asked.append((given.time_limit or 0.0, left))
        time.sleep(given.time_limit or 0.0)
        raise LimitReachedError("no walk won in time")

    monkeypatch.setattr(portfolio_module, "improve_search", improve_search)
    share = [0, 0, 0]
    portfolio_module._restarts(Board.from_text(SMALL), "moves", share, None, limits, 0)
    assert asked and all(seconds <= left + 1e-3 for seconds, left in asked), asked


def _silent(*args: Any) -> None:
    """A worker that never answers (as SAT planning building a large formula past the deadline)."""
    time.sleep(60)


@needs_native
def test_at_the_time_limit_a_silent_worker_is_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller waited up to 1.5 s past its deadline for the worker's last bounds; it now waits
    ``GRACE`` at most, and the stop is the time limit's, with no worker left behind."""
    monkeypatch.setattr(portfolio_module, "_upper_worker", _silent)
    assert portfolio_module.GRACE <= 0.3  # the wait past the deadline (no timing asserted: the mechanism)
    with pytest.raises(LimitReachedError) as caught:
        solve(_board(CROWD12_LONG), engine="portfolio", time_limit=1.0)
    assert str(caught.value).startswith("stopped at the time limit of 1 s;"), str(caught.value)
    assert not multiprocessing.active_children()  # the silent worker was ended, not waited for


@needs_native
def test_at_the_time_limit_no_worker_outlives_the_call() -> None:
    """The real workers, on a board whose passes cannot run in time: the stop names the time limit and
    every worker has ended with the call."""
    with pytest.raises(LimitReachedError) as caught:
        solve(_board(CROWD12_LONG), engine="portfolio", time_limit=1.0)
    assert str(caught.value).startswith("stopped at the time limit of 1 s;")
    assert not multiprocessing.active_children()


@needs_native
def test_a_stopped_portfolio_walks_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its passes proved nothing pruned, the search of the whole reachable set was stopped by the time
    limit and ran its short random walk (a tenth of the limit); the portfolio then walked a second time
    for a best solution, past the deadline."""
    walks: list[float] = []

    def counted(walk: Any) -> Any:
        def best_so_far(*args: Any) -> Any:
            walks.append(time.perf_counter())
            return walk(*args)

        return best_so_far

    monkeypatch.setattr(frontier_module, "best_so_far", counted(frontier_module.best_so_far))
    monkeypatch.setattr(portfolio_module, "best_so_far", counted(portfolio_module.best_so_far))
    with pytest.raises(LimitReachedError) as caught:
        solve(Board.from_text(WALLED8), engine="portfolio", time_limit=1.0)
    assert str(caught.value).startswith("stopped at the time limit of 1 s;")
    assert len(walks) == 1
    assert not multiprocessing.active_children()


# --- fault 3: the improve restarts beyond the memory limit ------------------------------------------


class _Spent(MemoryBudget):
    """A budget the worker has grown past already."""

    def exceeded(self) -> bool:
        return True


def test_improve_restarts_keep_to_the_workers_memory_budget() -> None:
    """Each restart ran with ``Limits(None, seconds, None)``, whatever the worker's budget: with the
    budget spent, no restart runs and nothing is offered."""
    board = Board.from_text(SMALL)
    share = multiprocessing.get_context("fork").Array("q", [1, 0, 0], lock=False)
    out: list[Any] = []

    class _Out:
        def put(self, message: Any) -> None:
            out.append(message)

    limits = Limits(None, 4.0, None)
    limits.memory = _Spent(1)
    began = time.perf_counter()
    portfolio_module._restarts(board, "moves", share, _Out(), limits, 0)
    assert out == []
    assert time.perf_counter() - began < 0.5
    limits.memory = None  # without a budget, a restart offers its solution (the test can fail)
    portfolio_module._restarts(board, "moves", share, _Out(), Limits(None, 2.0, None), 0)
    assert out and out[0][0] == "best"


def test_quick_improve_restarts_never_overflow_their_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart's seconds were ``4 * 2**k``: past 1,024 quick restarts (a board improve settles at
    once) that is no float, and the worker died of an OverflowError."""
    calls: list[int] = []

    def instant(board: Board, metric: str, limits: Limits, seed: int) -> tuple[list[Any], int]:
        calls.append(seed)
        raise LimitReachedError("no solution in time")

    monkeypatch.setattr(portfolio_module, "improve_search", instant)
    share = multiprocessing.get_context("fork").Array("q", [1, 0, 0], lock=False)
    portfolio_module._restarts(Board.from_text(SMALL), "moves", share, None, Limits(None, 2.0, None), 0)
    assert len(calls) > 1100
