"""The portfolio (rushhour/search/portfolio.py) against plain breadth-first search by the reference
rules: the same optimal lengths on random boards of every kind, every answer replayed, every lower bound
it records (stopped or not) never above the optimum, every best solution never below it; SAT planning
from a given lower bound; no worker left behind."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import queue
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rushhour.board import Board, Move
from rushhour.errors import LimitReachedError
from rushhour.formats import read_file
from rushhour.logic.planner import plan, relaxed_bound
from rushhour.search import portfolio as portfolio_module
from rushhour.search import solve, verify
from rushhour.search.portfolio import wanted
from rushhour.search.watch import Bound, Bounds
from tests.native import needs_native
from tests.processes import ctrl_c
from tests.strategies import bfs_distance, boards_of_every_kind, random_board, random_walk
from tests.terminal import default_signals
from tests.test_json import VALIDATORS

OPEN12 = Path(__file__).parent / "data" / "open12.txt"
CROWDED9 = Path(__file__).parent / "data" / "crowded9.txt"
CROWD12 = Path(__file__).parent / "data" / "crowd12.txt"
# crowd12-04 (45 vehicles, 23 moves): its proof takes the portfolio minutes
CROWD12_LONG = Path(__file__).parent / "data" / "crowd12_long.txt"


def _boards(seed: int, number: int) -> list[tuple[Board, int]]:
    """Random boards of every kind (walls, trucks, every exit, wrap-around) with their optimum by
    plain breadth-first search over the reference rules (-1: unsolvable), those small enough."""
    out = []
    for board in boards_of_every_kind(seed, number, dense=True):
        want = bfs_distance(board, "moves", cap=30_000)
        if want is not None:
            out.append((board, want))
    return out


def _check_bounds(bounds: tuple[Bound, ...], optimum: int) -> None:
    for bound in bounds:
        if bound.kind == "lower":
            assert bound.value <= optimum, bounds
        else:
            assert bound.kind == "best" and bound.value >= optimum, bounds


def _check(board: Board, want: int, metric: str = "moves") -> int:
    """The portfolio's answer on ``board`` equals plain search's ``want``; 1 when its workers ran."""
    solution = solve(board, engine="portfolio", metric=metric)
    if want < 0:
        assert not solution.solved and solution.optimal, board
        return int(bool(solution.bounds))
    assert solution.solved and solution.optimal and solution.length == want, board
    verify(board, solution.moves)
    _check_bounds(solution.bounds, want)
    return int(bool(solution.bounds))


@needs_native
def test_the_portfolio_answers_as_plain_search_on_boards_of_every_kind() -> None:
    boards = _boards(28, 60)
    ran = sum(_check(board, want) for board, want in boards)
    assert len(boards) >= 30 and ran >= 10  # its workers served the larger boards without wrap-around


@needs_native
def test_the_portfolio_answers_as_plain_search_in_the_steps_metric() -> None:
    rng = random.Random(5)
    ran = 0
    for _ in range(6):
        board = random_walk(random_board(rng, wrap=False, size=(7, 7), count=10, walls=2), rng, 20)
        want = bfs_distance(board, "steps", cap=30_000)
        if want is not None:
            ran += _check(board, want, "steps")
    assert ran >= 3


def _in_a_pool_worker(board: Board) -> tuple[bool, int, str, list[str]]:
    """The portfolio's answer in a worker of a ``multiprocessing`` pool (a daemon, which may not start
    the upper worker): proven optimal, length (-1: unsolvable), engine, and the engines of its bounds."""
    assert multiprocessing.current_process().daemon
    solution = solve(board, engine="portfolio", time_limit=60)
    if solution.solved:
        verify(board, solution.moves)
    length = solution.length if solution.solved else -1
    return solution.optimal, length, solution.engine, [b.engine for b in solution.bounds]


@needs_native
def test_in_a_pool_worker_the_passes_answer_alone() -> None:
    """A library user's pool of workers: the portfolio there runs its passes without the upper worker
    (a daemon may not start one) and answers the optimum bfs finds."""
    crowded = read_file(str(CROWDED9))[0].board
    boards = [(crowded, 11)] + [(b, want) for b, want in _boards(28, 30) if wanted(b, "moves")][:4]
    assert len(boards) == 5
    with multiprocessing.get_context("fork").Pool(2) as pool:
        answers = pool.map(_in_a_pool_worker, [b for b, _ in boards])
    for (board, want), (optimal, length, engine, engines) in zip(boards, answers, strict=True):
        assert optimal and engine == "portfolio" and length == want, board
        assert all(e == "relaxed bound" or e.startswith("frontier pass") for e in engines), engines


@needs_native
def test_passes_polled_while_they_run_still_end_with_the_optimum() -> None:
    """crowd12-02's last passes run through several polls (every 100 ms, the worker's news read): the
    polls must let each pass finish, and the portfolio answer the optimum, as bfs does."""
    board = read_file(str(CROWD12))[0].board
    solution = solve(board, engine="portfolio", time_limit=60)
    assert solution.solved and solution.optimal and solution.length == 10
    verify(board, solution.moves)
    assert solution.bounds and solution.bounds[-1].engine == "frontier pass 10"
    # pass 9 (no solution of 9 moves) proved the bound of 10; pass 10's solution does not prove it again
    lower = [(b.value, b.engine) for b in solution.bounds if b.kind == "lower"]
    assert lower[-1] == (10, "frontier pass 9"), lower
    assert all(a[0] < b[0] for a, b in itertools.pairwise(lower)), lower  # each one a new bound


@needs_native  # the portfolio runs only compiled; and a 12x12 board takes the Python search minutes
def test_a_pass_is_stopped_only_when_it_has_nothing_left_to_find() -> None:
    """The poll's answer to the pass under way: stop when the bounds met, or when another engine proved
    more than the pass's bound; go on when the lower bound is the pass's own bound (the pass may find
    a solution of exactly that length)."""
    board = read_file(str(CROWD12))[0].board
    out: queue.Queue[tuple[object, ...]] = queue.Queue()
    state = portfolio_module._State(time.perf_counter(), 9, "relaxed bound")
    news = portfolio_module._News(board, "moves", state, [9, 0], out, None, None)
    news.bound = 9
    assert not news.poll()  # lower bound 9, pass of bound 9: it may find a solution of 9
    out.put(("lower", 10, "sat planning"))
    assert news.poll() and state.lower == 10  # no solution of 9: the pass has nothing left to find
    news.bound = 0
    assert not news.poll()  # a pass without a bound goes on
    solution = solve(board, engine="bfs")
    out.put(("optimal", tuple(solution.moves), "sat planning", "moves"))
    assert news.poll() and state.met


def _small_hard_boards(seed: int, number: int) -> list[tuple[Board, int]]:
    """Random 7x7 and 8x8 boards without wrap-around (walls, every exit side) needing 2 moves or more."""
    rng = random.Random(seed)
    out = []
    while len(out) < number:
        side = rng.choice(["right", "left", "top", "bottom"])
        size = (rng.randint(7, 8), rng.randint(7, 8))
        board = random_board(
            rng, wrap=False, size=size, count=rng.randint(12, 18), walls=rng.randint(0, 3), exit_side=side
        )
        board = random_walk(board, rng, 40)
        want = bfs_distance(board, "moves", cap=20_000)
        if want is not None and want >= 2:
            out.append((board, want))
    return out


@needs_native
def test_a_stopped_portfolio_keeps_sound_bounds_and_its_best_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped early (both workers at once, tiny time limits), every bound it recorded is checked
    against the optimum (plain search; the crowded boards' optima are checked in
    tests/test_search_frontier.py), and its best solution is replayed by the rules."""
    monkeypatch.setattr(portfolio_module, "UPPER_DELAY", 0.0)
    monkeypatch.setattr(portfolio_module, "GRACE", 0.5)
    crowded = [(read_file(str(path))[0].board, want) for path, want in ((CROWDED9, 11), (OPEN12, 14), (CROWD12_LONG, 23))]
    cases = [(b, w, 0.3) for b, w in _small_hard_boards(31, 3)] + [(b, w, 2.0) for b, w in crowded]
    stopped = 0
    for board, want, limit in cases:
        assert wanted(board, "moves")
        try:
            solution = solve(board, engine="portfolio", time_limit=limit)
        except LimitReachedError as err:
            stopped += 1
            assert err.lower_bound is not None and err.lower_bound <= want
            if err.best is not None:
                verify(board, err.best)
                assert len(err.best) >= want
            _check_bounds(err.bounds, want)  # type: ignore[arg-type]
        else:
            assert solution.length == want
            _check_bounds(solution.bounds, want)
    assert stopped >= 1
    assert not multiprocessing.active_children()  # every worker ended with the call


@needs_native
@pytest.mark.slow
def test_many_more_boards_against_plain_search() -> None:
    boards = _boards(2028, 400)
    assert sum(_check(board, want) for board, want in boards) >= 60


def test_sat_planning_from_a_lower_bound_finds_the_optimum() -> None:
    rng = random.Random(3)
    for _ in range(6):
        board = random_walk(random_board(rng, wrap=False, size=(6, 6), count=8, walls=0), rng, 30)
        want = bfs_distance(board, "moves")
        if want is None or want < 3:
            continue
        low = relaxed_bound(board)
        told = plan(board, min_moves=want - 1)
        assert told.length == want and told.optimal == (want - 1 <= low)
        assert plan(board, min_moves=low).optimal
        # capped below the optimum: no plan, and the lengths refuted are a lower bound
        capped = plan(board, min_moves=max(low, want - 2), max_moves=want - 1)
        assert capped.moves is None and capped.bound == want - 1


def test_sat_planning_follows_the_bounds_it_is_told() -> None:
    rng = random.Random(16)
    board = random_walk(random_board(rng, wrap=False, size=(6, 6), count=9, walls=0), rng, 40)
    want = bfs_distance(board, "moves")
    assert want is not None and want >= 4
    seen: list[int] = []

    def watch(refuted: int) -> tuple[int, int | None]:
        seen.append(refuted)
        return 0, want - 1  # another engine found a solution of ``want`` moves

    result = plan(board, watch=watch)
    assert result.moves is None and result.bound == want - 1 and seen == sorted(seen)


@needs_native
def test_the_passes_positions_are_reported_between_the_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress callback gets each bound improved (Bounds) and, while a pass runs, the positions
    the passes have stored (SearchProgress records of the portfolio)."""
    from rushhour.search import watch

    monkeypatch.setattr(watch, "INTERVAL", 0.0)
    board = read_file(str(CROWD12_LONG))[0].board
    seen: list[object] = []
    with pytest.raises(LimitReachedError):
        solve(board, engine="portfolio", time_limit=3, progress=seen.append)
    counts = [r for r in seen if isinstance(r, watch.SearchProgress)]
    assert any(isinstance(r, Bounds) for r in seen)
    assert len(counts) >= 2 and all(r.engine == "portfolio" and r.what == "positions" for r in counts)
    assert counts[-1].count > counts[0].count > 0


@needs_native
def test_the_bounds_are_shown_and_a_stopped_portfolio_answers_in_json() -> None:
    command = [
        sys.executable,
        "-m",
        "rushhour",
        "solve",
        str(OPEN12),
        "--time-limit",
        "8",
        "--progress",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 3), done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("bounds: at least")]
    assert lines and all("(" in line for line in lines)
    document = json.loads(done.stdout)
    assert done.returncode == (3 if document["status"] == "stopped" else 0)
    board = read_file(str(OPEN12))[0].board
    VALIDATORS["rushhour.solve"].validate(document)  # the schema of docs/json.md
    assert document["engine"] == "portfolio" and document["bounds"]
    kinds = {b["kind"] for b in document["bounds"]}
    assert kinds <= {"lower", "best"} and all(b["engine"] for b in document["bounds"])
    if document["status"] == "stopped":
        assert document["lower_bound"] <= 14  # the optimum (tests/data/open12.txt)
        assert document["best"], "a stopped portfolio reports the best solution any engine found"
        verify(board, [Move.parse(m) for m in document["best"]])
        assert len(document["best"]) >= 14
    else:
        assert document["length"] == 14


def _alive_with(marker: str) -> list[int]:
    """Processes whose command line holds ``marker`` (a worker is forked: it has its caller's)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


@needs_native
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_leaves_no_worker_behind(tmp_path: Path) -> None:
    board = tmp_path / "crowd12-ctrl-c.txt"
    board.write_text(CROWD12_LONG.read_text())
    child = subprocess.Popen(
        [sys.executable, "-m", "rushhour", "solve", str(board), "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,  # a shell's background jobs ignore SIGINT, and so would the command
    )
    assert child.stderr is not None
    first = child.stderr.readline()  # the first bound: the workers are running
    assert first.startswith("bounds:"), first
    time.sleep(1.5)  # the second worker too
    out, err = ctrl_c(child)
    assert child.returncode == 130, (out, err)
    assert "Traceback" not in err
    time.sleep(0.5)
    assert _alive_with(str(board)) == []


def test_the_bounds_record_describes_itself() -> None:
    record = Bounds(20, "frontier pass 19", 25, "improve, seed 1", 12.34)
    assert record.describe() == (
        "bounds: at least 20 moves (frontier pass 19), best 25 (improve, seed 1), 12.3 s"
    )
    assert Bound("lower", 20, "sat planning", 1.23456).to_dict() == {
        "kind": "lower",
        "value": 20,
        "engine": "sat planning",
        "seconds": 1.235,
    }


@needs_native
def test_the_memory_limit_stops_the_portfolio_with_what_it_proved() -> None:
    board = read_file(str(CROWD12_LONG))[0].board
    with pytest.raises(LimitReachedError) as stopped:
        solve(board, engine="portfolio", max_memory=8 * 1024**2)
    err = stopped.value
    assert "memory" in str(err) and err.lower_bound is not None and err.lower_bound <= 23
    assert not multiprocessing.active_children()


@needs_native
def test_the_upper_worker_lowers_its_priority_when_it_turns_to_sat_planning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The passes take every core; SAT planning runs on what they leave: the worker calls ``os.nice``
    with ``SAT_NICE`` once its ``improve`` restarts are over, and not before (crowd12-04, stopped at
    its time limit long before its proof)."""
    told = tmp_path / "nice.txt"

    def nice(increment: int) -> int:  # in the forked worker: noted where the test can read it
        with told.open("a") as out:
            out.write(f"{increment} {time.perf_counter()}\n")
        return increment

    monkeypatch.setattr(portfolio_module, "UPPER_DELAY", 0.0)
    monkeypatch.setattr(portfolio_module, "IMPROVE_SECONDS", 1.0)
    monkeypatch.setattr(portfolio_module, "GRACE", 0.5)
    monkeypatch.setattr(os, "nice", nice)
    board = read_file(str(CROWD12_LONG))[0].board
    began = time.perf_counter()
    with pytest.raises(LimitReachedError):
        solve(board, engine="portfolio", time_limit=5.0)
    calls = told.read_text().split()
    assert calls[0] == str(portfolio_module.SAT_NICE) and len(calls) == 2  # once
    assert float(calls[1]) - began >= 1.0  # after the restarts' second
    monkeypatch.setattr(portfolio_module, "SAT_PLANNING", False)
    told.unlink()
    with pytest.raises(LimitReachedError):
        solve(board, engine="portfolio", time_limit=3.0)
    assert not told.exists()  # no planning, no change of priority


@needs_native
def test_an_unsolvable_board_stopped_keeps_the_portfolios_bounds() -> None:
    """open12-02 with a wall before its exit: no win, and a reachable set too large for 3 s. The stop is
    the portfolio's, with its bounds and the time limit asked for (it was the bfs engine's, without them,
    naming the time left when the last search began)."""
    board = read_file(str(OPEN12))[0].board
    rows = board.rows()
    rows[5] = rows[5][:9] + "x" + rows[5][10:]  # the cell between A and the exit, empty in open12-02
    walled = Board.from_text("/".join(rows))
    with pytest.raises(LimitReachedError) as caught:
        solve(walled, engine="portfolio", time_limit=3)
    stop = caught.value
    assert str(stop).startswith("stopped at the time limit of 3 s; the bounds did not meet: at least ")
    assert stop.bounds and stop.best is None and stop.lower_bound >= 1
