"""The portfolio: every engine on one large board at once, each doing what it is good at.

On a board the frontier search serves (larger than 6x6, no wrap-around, the compiled search built),
``solve(board, engine="portfolio")`` runs the lower bounds in the caller and the upper bounds in one
worker process beside it:

* the **caller** runs the frontier search's bounded passes (docs/solvers.md, "The bounded passes"), on every
  core (docs/solvers.md, "Threads"), from the start, so that a board the passes prove in a second costs what
  the bfs engine costs: the pass of bound U that ends without a solution proves that no solution has U moves
  or fewer; a pass that finds one has found a shortest one. Each pass starts at the best lower bound known
  to the portfolio, and none runs at a bound at or above the best solution known: when the last needed pass
  (bound best - 1) ends empty, the best solution is proven optimal without the largest pass of all. Where
  the passes would go on without a bound, they go on with bound best - 1. While a pass runs, the compiled
  search calls back every :data:`~rushhour.search.contract.POLL_MILLISECONDS`: the caller reads the worker's
  news then, shows it, and stops the pass when the bounds have met or another engine has proved more than
  the pass's bound;
* the **upper** worker, forked at the start (before the passes hold memory it would inherit) and idle
  until :data:`UPPER_DELAY` seconds (or a sixth of a shorter time limit), first runs the ``improve``
  engine with restarts (seeds ``seed``, ``seed + 1``, ...; a few seconds each) for solutions within
  seconds, then SAT planning (:func:`rushhour.logic.planner.plan`) from the best lower bound known
  upwards, its lengths capped by the best solution known, at a lower priority (:data:`SAT_NICE`): each
  length it refutes raises the lower bound, and the first plan it finds is optimal.

The caller keeps the bounds (a shared array the worker reads between lengths) and reports each
improvement (:class:`~rushhour.search.watch.Bounds`, through the ``progress`` callback); it stops
as soon as the lower bound meets the best solution.  At a limit (time, positions, memory) or when every
worker has ended without meeting, it raises :class:`~rushhour.errors.LimitReachedError` with the best
solution any engine found and the best lower bound any engine proved.  The worker is killed on every
way out (an answer, a limit, Ctrl-C, an error) and dies with the caller if it is killed (Linux).
In a process that may not start others (a worker of a ``multiprocessing`` pool, which is a daemon) the
passes run alone: the answer is the same, proven by them.

On a board the compiled passes refuse (keys of more than 128 bits: status -1, e.g. 16x16 with 60
vehicles) the caller runs the bfs engine instead, the upper worker starts at once and a lower worker
runs SAT planning from the start (:func:`_no_passes`).  At the time limit every engine stops by itself
and the caller waits at most :data:`GRACE` seconds for the workers' last news.

Every solution is replayed by the rules before it is reported; every lower bound comes from a proof
(a pass that ended empty, completed layers of a pass, refuted plan lengths, the relaxed bound).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rushhour.board import Board, Move
from rushhour.errors import LimitReachedError, RushHourError
from rushhour.search import bfs, native
from rushhour.search.bfs import Limits, native_cap, native_poll, seconds_left
from rushhour.search.contract import STOPPED_BY_POLL
from rushhour.search.frontier import (
    best_so_far,
    frontier,
    frontier_wanted,
    next_bound,
    one_pass,
)
from rushhour.search.heuristics import relaxed_bound
from rushhour.search.memory import MemoryBudget
from rushhour.search.shorten import solution_length
from rushhour.search.solution import moves_of_path, verify
from rushhour.search.tables import tables_for
from rushhour.search.walk import improve_search
from rushhour.search.watch import Bound, Bounds
from rushhour.text import plural, seconds_text
from rushhour.workers import may_start_processes, owned_by

#: seconds of the first improve restart (each one after takes twice the one before), and of all of
#: them (at most a quarter of the time limit), before the upper worker turns to SAT planning: the
#: fourth restart (32 s) gives one walk time to be shortened beside the passes on every core
RESTART_SECONDS = 4.0
IMPROVE_SECONDS = 60.0
#: the share of ``max_memory`` the frontier passes may take (the rest: SAT planning and the caller)
FRONTIER_MEMORY = 0.75
#: seconds the passes run alone before the upper worker starts (a sixth of a shorter time limit)
UPPER_DELAY = 10.0
#: whether the upper worker turns to SAT planning after its restarts (bench/large.py measures both)
SAT_PLANNING = True
#: how much the upper worker lowers its priority (``os.nice``) when it turns to SAT planning: the passes,
#: which take every core, go first, and the planner runs on what they leave (0: the same priority)
SAT_NICE = 10
#: the passes go straight to the bound best - 1 once it is at most this far above the next pass
#: (0: they never skip a bound)
JUMP = 0
#: seconds the caller waits past its deadline for the workers' last bounds before killing them (each
#: engine in a worker stops at the deadline itself; this only lets its last message through)
GRACE = 0.1
POLL = 0.05

# what the workers tell the caller: (kind, value, engine[, metric])
_LOWER, _BEST, _OPTIMAL, _UNSOLVABLE = "lower", "best", "optimal", "unsolvable"
_STOPPED = "stopped"
_FRONTIER = "frontier passes"


def wanted(board: Board, metric: str) -> bool:
    """Whether the portfolio runs its workers on this board (else it is the bfs engine)."""
    return frontier_wanted(tables_for(board.layout, metric)) and hasattr(os, "fork")


@dataclass
class _State:
    """The portfolio's bounds as they stand, in the caller."""

    began: float
    lower: int
    lower_by: str
    best: tuple[Move, ...] | None = None
    best_by: str | None = None
    explored: int = 0
    optimal: bool = False
    unsolvable: bool = False
    stopped: list[str] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)  # the engines the portfolio ended while they ran
    walked: bool = False  # whether a stopped search ran its short random walk already (best_so_far)
    history: list[Bound] = field(default_factory=list)

    @property
    def met(self) -> bool:
        return self.unsolvable or self.optimal or (self.best is not None and self.lower >= len(self.best))

    def record(self, kind: str, value: int, engine: str) -> None:
        self.history.append(Bound(kind, value, engine, time.perf_counter() - self.began))


def portfolio(
    board: Board,
    *,
    metric: str,
    limits: Limits,
    seed: int | None,
    progress: Callable[[Any], object] | None,
) -> tuple[tuple[Move, ...] | None, bool, int, tuple[Bound, ...]]:
    """The best solution (None: the board is unsolvable), whether it is proven optimal (always, unless
    :class:`LimitReachedError` is raised), the positions the passes stored and the bounds' history."""
    state = _State(time.perf_counter(), relaxed_bound(board, metric), "relaxed bound")
    state.record(_LOWER, state.lower, state.lower_by)
    context = multiprocessing.get_context("fork")
    # best lower bound, best length (0: none), and 1 when the passes cannot run the board (_no_passes)
    share = context.Array("q", [state.lower, 0, 0], lock=False)
    out = context.Queue()
    memory = None if limits.memory is None else limits.memory.limit
    delay = UPPER_DELAY if limits.time_limit is None else min(UPPER_DELAY, limits.time_limit / 6)
    # forked now, before the passes hold any memory it would inherit; it waits for its time
    args = (board, metric, share, out, limits, memory, seed or 0, os.getpid(), state.began + delay)
    # a daemon (a pool's worker) may not start processes: its passes run alone
    alone = not may_start_processes()
    upper = None if alone else context.Process(target=_upper_worker, args=args, daemon=True)
    news = _News(board, metric, state, share, out, upper, progress)
    try:
        if upper is not None:
            upper.start()
        passes = _limits_from_now(limits, _share(memory, FRONTIER_MEMORY))
        passes.report = limits.report  # the positions the passes store, shown between the bounds
        ended = _passes(board, metric, news, passes)
        if ended is None:  # the compiled passes cannot run this board: the other engines do
            ended = _no_passes(board, metric, news, passes, (context, args), memory)
        if not ended:
            news.wait_for_last(limits)
    finally:
        news.end_workers()
        out.cancel_join_thread()
        out.close()
    if state.met:
        return (None if state.unsolvable else state.best), True, state.explored, tuple(state.history)
    # stopped before any engine found one: a short random walk, as bfs reports (once: a frontier
    # search stopped in _unsolvable has walked already)
    if state.best is None and not state.walked:
        tables = tables_for(board.layout, metric)
        walked = best_so_far(tables, tables.pack(board.state), limits)
        if walked is not None:
            _take(board, state, share, (_BEST, walked, "random walk", metric))
    raise _stop(state, limits, metric)


class _News:
    """The caller's side of the workers: their messages taken into the bounds and shown, between the
    passes and every :data:`~rushhour.search.contract.POLL_MILLISECONDS` while one runs."""

    def __init__(
        self,
        board: Board,
        metric: str,
        state: _State,
        share: Any,
        out: Any,
        upper: Any,
        progress: Callable[[Any], object] | None,
    ) -> None:
        self.board, self.metric, self.state, self.share = board, metric, state, share
        self.out, self.progress = out, progress
        # the worker processes (started or not: see end_workers), with their engines
        self.workers: list[tuple[Any, str]] = [] if upper is None else [(upper, "improve and sat planning")]
        self.bound = 0  # the bound of the pass under way (0: none)
        _report(state, metric, progress)

    def take(self, message: tuple[Any, ...]) -> None:
        """One bound or answer, from a worker or from the passes."""
        if _take(self.board, self.state, self.share, message):
            _report(self.state, self.metric, self.progress)

    def poll(self) -> bool:
        """Read the workers' news; True when the pass under way has nothing left to find (the bounds
        met, or another engine proved more than its bound)."""
        while True:
            try:
                message = self.out.get_nowait()
            except queue.Empty:
                break
            self.take(message)
        return self.state.met or (self.bound > 0 and self.state.lower > self.bound)

    def wait_for_last(self, limits: Limits) -> None:
        """After the caller's own engine ended without the bounds meeting: the workers' news until the
        bounds meet or every worker has ended, for at most :data:`GRACE` seconds past the deadline
        (each engine in a worker stops at the deadline by itself; no read of the queue outlasts the
        grace).  Without a time limit the wait is the workers': their memory budget and the
        restarts' :data:`IMPROVE_SECONDS` bound it."""
        while not self.state.met and any(worker.is_alive() for worker, _ in self.workers):
            wait = POLL
            if limits.deadline is not None:
                wait = min(POLL, limits.deadline + GRACE - time.perf_counter())
                if wait <= 0:
                    break
            try:
                self.take(self.out.get(timeout=wait))
            except queue.Empty:
                continue
        self.poll()

    def end_workers(self) -> None:
        """Kill every worker still running (the portfolio ends), noting which engines it cut short."""
        for worker, engines in self.workers:
            if worker.pid is None:  # never started
                continue
            if worker.is_alive():
                worker.kill()
                self.state.cut.append(engines)
            worker.join()


def _passes(board: Board, metric: str, news: _News, limits: Limits) -> bool | None:
    """The bounded passes in the caller, from the best lower bound known, never at or above the best
    solution known, until the bounds meet.  False when the time limit stopped them; True when they
    ended otherwise (the bounds met, or ``--max-states`` or their memory stopped them: the portfolio
    then stops, as the bfs engine does); None when the compiled search cannot run them on this board
    (its keys need more than 128 bits, or a segment has more than 4,096 arrangements: status -1)."""
    state = news.state
    tables = tables_for(board.layout, metric)
    start = tables.pack(board.state)
    bound, last, used = 1, 0, 0
    steps = metric == "steps"
    while True:
        news.bound = 0
        if news.poll():  # the bounds met
            return True
        best = 0 if state.best is None else solution_length(state.best, steps)
        bound = max(bound, state.lower) if bound else bound
        if best:
            bound = best - 1 if bound == 0 else min(bound, best - 1)
            if best - 1 - bound <= JUMP:  # near the best solution: straight to the pass that proves it
                bound = best - 1
        news.bound = bound
        try:
            status, stored, keys, layers, pruned = one_pass(tables, start, limits, bound, used, news.poll)
        except LimitReachedError:  # the time limit, passed before the pass began
            return False
        if status < 0:  # not this board: the caller turns to the other engines (_no_passes)
            return None
        used += stored
        state.explored += stored
        if status == STOPPED_BY_POLL:
            continue
        if status == 2:
            # a pass of bound U keeps every position of every solution of at most U moves, so its
            # completed layers prove their bound only up to U + 1
            proven = min(layers, bound + 1) if bound else layers
            news.take((_LOWER, proven, _pass_name(bound) + ", completed layers"))
            if _out_of_time(limits, used):
                return False
            try:
                limits.check(used)
                budget = limits.memory.describe() if limits.memory else "?"
                reason = f"stopped at the memory limit of {budget} after {used:,} positions without an answer"
            except LimitReachedError as err:
                reason = str(err)
            news.take((_STOPPED, reason, _FRONTIER))
            return True
        if keys is not None:
            news.take((_OPTIMAL, moves_of_path(tables, keys), _pass_name(bound), metric))
            return True
        if not pruned:
            _unsolvable(tables, start, limits, news)
            return True
        news.take((_LOWER, bound + 1, _pass_name(bound)))
        bound, last = next_bound(bound, stored, last), stored


def _no_passes(
    board: Board,
    metric: str,
    news: _News,
    limits: Limits,
    fork: tuple[Any, tuple[Any, ...]],
    memory: int | None,
) -> bool:
    """The portfolio on a board the compiled passes cannot run (:func:`_passes` answered None): the
    upper worker starts at once with its ``improve`` restarts, a lower worker forked now runs SAT
    planning from the start, and the caller runs the bfs engine (the compiled breadth-first search)
    within the passes' share of the memory, stopped when the bounds meet.  Where bfs fits it proves
    the optimum, or that the board is unsolvable; where it does not (its share of the memory used up)
    the workers go on.  Without workers (in a pool's worker) the caller plans after bfs.  False when
    the time limit stopped bfs, or when bfs ended and the workers are left to finish; True when the
    bounds met or ``--max-states`` stopped bfs (the portfolio then stops, as the passes do).  Planning
    in the caller keeps to the workers' share of the memory, measured from its start, as theirs does."""
    news.share[2] = 1  # the upper worker: start now, and leave SAT planning to the lower worker
    context, args = fork
    if news.workers:
        lower = context.Process(target=_lower_worker, args=args, daemon=True)
        lower.start()
        news.workers.append((lower, "sat planning"))
    try:
        ended = _bfs(board, metric, news, limits)
    except LimitReachedError as err:
        if _out_of_time(limits, err.explored or 0):
            return False
        news.take((_STOPPED, str(err), "bfs"))
        ended = limits.max_states is not None and (err.explored or 0) >= limits.max_states
    if ended or news.workers:
        return ended
    try:  # alone: SAT planning in the caller, its news taken at once, within the workers' share
        mine = _limits_from_now(limits, _share(memory, 1 - FRONTIER_MEMORY))  # the workers' share
        _plans(board, metric, news.share, _Caller(news), mine, mine.memory)
    except LimitReachedError as err:
        news.take((_STOPPED, str(err), "sat planning"))
    return news.state.met or not _out_of_time(limits, 0)


def _bfs(board: Board, metric: str, news: _News, limits: Limits) -> bool:
    """The compiled breadth-first search in the caller, asked every
    :data:`~rushhour.search.contract.POLL_MILLISECONDS` whether the bounds have met; True when it
    proved the optimum or that the board is unsolvable (``explored``: the reachable set's size), or
    another engine met the bounds meanwhile.  Its positions are not counted in ``explored`` otherwise:
    that is what the passes stored (none here)."""
    compiled = native.compiled
    assert compiled is not None
    tables = tables_for(board.layout, metric)
    news.bound = 0
    status, explored, path = compiled.shortest(
        tables.native_spec(),
        tables.unpack(tables.pack(board.state)),
        native_cap(limits, tables.n, False),
        seconds_left(limits),
        native_poll(limits, then=news.poll),
    )
    if path is not None:
        keys = [tables.pack(state) for state in path]
        news.take((_OPTIMAL, moves_of_path(tables, keys), "bfs", metric))
        return True
    if status == 0:  # its whole reachable set searched: no won position
        news.state.explored = explored
        news.take((_UNSOLVABLE, None, "bfs"))
        return True
    if news.poll():  # stopped because the bounds met
        return True
    bfs.stopped_at_limit(limits, explored)  # raises


class _Caller:
    """A queue whose messages the caller takes at once (SAT planning run in the caller)."""

    def __init__(self, news: _News) -> None:
        self.news = news

    def put(self, message: tuple[Any, ...]) -> None:
        self.news.take(message)


def _report(state: _State, metric: str, progress: Callable[[Any], object] | None) -> None:
    """Hand the bounds as they stand to the progress callback."""
    if progress is None:
        return
    steps = metric == "steps"
    best = None if state.best is None else solution_length(state.best, steps)
    seconds = time.perf_counter() - state.began
    progress(Bounds(state.lower, state.lower_by, best, state.best_by, seconds, metric))


def _take(board: Board, state: _State, share: Any, message: tuple[Any, ...]) -> bool:
    """Take one message (a worker's, or the passes') into ``state`` and ``share``; True when a bound
    improved."""
    kind, value, engine = message[0], message[1], message[2]
    if kind == _STOPPED:
        state.stopped.append(f"{value} ({engine})")
        return False
    if kind == _UNSOLVABLE:
        state.unsolvable = True
        return False
    if kind == _LOWER:
        if value <= state.lower:
            return False
        state.lower, state.lower_by = value, engine
        share[0] = value
        state.record(_LOWER, value, engine)
        return True
    moves = tuple(value)
    verify(board, moves)  # every answer, whoever found it, replayed by the rules
    steps = len(message) > 3 and message[3] == "steps"
    if kind == _OPTIMAL:
        state.optimal = True
        if solution_length(moves, steps) > state.lower:  # else an engine before proved it already
            state.lower, state.lower_by = solution_length(moves, steps), engine
            state.record(_LOWER, state.lower, engine)
    elif state.best is not None and solution_length(moves, steps) >= solution_length(state.best, steps):
        return False
    state.best, state.best_by = moves, engine
    share[1] = solution_length(moves, steps)
    state.record(_BEST, share[1], engine)
    return True


def _stop(state: _State, limits: Limits, metric: str) -> LimitReachedError:
    """The error of a portfolio stopped before its bounds met: what every engine learned."""
    unit = "moves" if metric == "moves" else "steps"
    stopped_by_time = limits.deadline is not None and time.perf_counter() >= limits.deadline
    if stopped_by_time and limits.time_limit is not None:
        why = f"stopped at the time limit of {seconds_text(limits.time_limit)} s"
    else:
        why = "; ".join(state.stopped)
        if not why:
            cut = " and ".join(state.cut)
            why = f"stopped: {cut} ended by the portfolio" if cut else "stopped: every engine ended"
    best = "no solution found"
    if state.best is not None:
        best = f"best {plural(solution_length(state.best, unit == 'steps'), unit[:-1])} ({state.best_by})"
    lower = f"at least {plural(state.lower, unit[:-1])} ({state.lower_by})"
    return LimitReachedError(
        f"{why}; the bounds did not meet: {lower}, {best}",
        explored=state.explored,
        lower_bound=state.lower,
        best=state.best,
        bounds=tuple(state.history),
    )


# --- the workers (child processes) ------------------------------------------------------------------


def _worker_start(owner: int) -> None:
    """In a worker: end with the caller ``owner`` however it ends (:func:`rushhour.workers.owned_by`),
    leave Ctrl-C to the caller (which kills the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    owned_by(owner)


def _limits_from_now(limits: Limits, memory: int | None) -> Limits:
    """The caller's limits with the same deadline and a budget of ``memory`` bytes measured from now
    (in the worker, or for the passes' share in the caller)."""
    remaining = None if limits.deadline is None else max(1e-3, limits.deadline - time.perf_counter())
    return Limits(limits.max_states, remaining, memory)


def _share(memory: int | None, part: float) -> int | None:
    return None if memory is None else max(1, int(memory * part))


def _out_of_time(limits: Limits, used: int) -> bool:
    """Whether a pass that stopped at a limit stopped at the time limit (not at ``--max-states`` or
    its memory)."""
    if limits.max_states is not None and used >= limits.max_states:
        return False
    return limits.deadline is not None and time.perf_counter() >= limits.deadline


def _pass_name(bound: int) -> str:
    return f"frontier pass {bound}" if bound else "frontier search"


def _unsolvable(tables: Any, start: int, limits: Limits, news: _News) -> None:
    """A pass that left nothing out and found no win: the board is unsolvable; its whole reachable set
    is searched once more (as the bfs engine does) so that the count is the set's size."""
    try:
        found = frontier(tables, start, limits)
    except LimitReachedError as err:  # the portfolio stops with every bound it has (see _stop)
        # stopped within a pass (it carries its lower bound), it ran best_so_far's walk: not walked again
        news.state.walked = err.lower_bound is not None
        if err.best is not None:
            news.take((_BEST, err.best, "random walk", news.metric))
        news.take((_STOPPED, str(err), _FRONTIER))
        return
    if found is None:  # cannot happen after a pass ran; never read as "every engine ended"
        news.take((_STOPPED, "the frontier search could not search the whole reachable set", _FRONTIER))
    elif found[0] is None:
        news.state.explored = found[1]
        news.take((_UNSOLVABLE, None, "frontier search"))


def _upper_worker(
    board: Board,
    metric: str,
    share: Any,
    out: Any,
    limits: Limits,
    memory: int | None,
    seed: int,
    owner: int,
    start_at: float,
) -> None:
    _worker_start(owner)
    # the passes alone until then (unless they cannot run the board: share[2], see _no_passes)
    while not share[2] and time.perf_counter() < start_at:
        time.sleep(min(POLL, max(0.0, start_at - time.perf_counter())))
    if share[1] and share[0] >= share[1]:
        return
    # the restarts and SAT planning share what the passes leave of the memory, measured from here
    mine = _limits_from_now(limits, _share(memory, 1 - FRONTIER_MEMORY))
    try:
        _restarts(board, metric, share, out, mine, seed)
        if SAT_PLANNING and not share[2]:  # else the lower worker plans (_no_passes)
            if SAT_NICE:
                os.nice(SAT_NICE)
            _plans(board, metric, share, out, mine, mine.memory)
    except RushHourError as err:
        out.put((_STOPPED, str(err), "improve and sat"))


def _lower_worker(
    board: Board,
    metric: str,
    share: Any,
    out: Any,
    limits: Limits,
    memory: int | None,
    seed: int,
    owner: int,
    start_at: float,
) -> None:
    """SAT planning from the start, on a board the passes cannot run (:func:`_no_passes`; the
    upper worker's arguments, of which ``seed`` and ``start_at`` are not used)."""
    del seed, start_at
    _worker_start(owner)
    try:
        mine = _limits_from_now(limits, _share(memory, 1 - FRONTIER_MEMORY))
        _plans(board, metric, share, out, mine, mine.memory)
    except RushHourError as err:
        out.put((_STOPPED, str(err), "sat planning"))


def _restarts(board: Board, metric: str, share: Any, out: Any, limits: Limits, seed: int) -> None:
    """The improve engine with seeds ``seed``, ``seed + 1``, ...: 4, 8, 16... seconds each, while the
    restarts' share of the time lasts (and the bounds have not met), within the memory budget of
    ``limits``: a restart stops shortening when the process has grown past it, and none follows."""
    began = time.perf_counter()
    budget = IMPROVE_SECONDS
    if limits.time_limit is not None:
        budget = min(budget, limits.time_limit / 4)
    k = 0
    while time.perf_counter() - began < budget:
        if share[1] and share[0] >= share[1]:
            return
        if limits.memory is not None and limits.memory.exceeded():
            return
        # 4 s, 8 s, 16 s, ...: a long walk needs time to be shortened on a busy machine (the exponent
        # capped: quick restarts of a small board are many, and 2**k past 1023 is no float)
        seconds = max(0.5, min(RESTART_SECONDS * 2 ** min(k, 16), budget - (time.perf_counter() - began)))
        if limits.deadline is not None:  # never past the deadline: the caller stops there
            seconds = min(seconds, limits.deadline - time.perf_counter())
            if seconds <= 0.01:
                return
        restart = Limits(None, seconds, None)
        restart.memory = limits.memory  # the worker's budget, measured from its start
        try:
            moves, _ = improve_search(board, metric, restart, seed + k)
            verify(board, moves)  # replayed by the rules before it is offered
        except LimitReachedError:
            moves = []
        if moves:
            out.put((_BEST, tuple(moves), f"improve, seed {seed + k}", metric))
        k += 1


def _plans(
    board: Board, metric: str, share: Any, out: Any, limits: Limits, budget: MemoryBudget | None
) -> None:
    """SAT planning from the best lower bound known, its lengths capped by the best solution known,
    stopped when the process has grown past ``budget`` (None: no bound)."""
    from rushhour.logic.planner import plan

    told = [share[0]]

    def watch(refuted: int) -> tuple[int, int | None]:
        if refuted + 1 > told[0]:
            told[0] = refuted + 1
            out.put((_LOWER, refuted + 1, "sat planning"))
        if budget is not None and budget.exceeded():
            raise LimitReachedError(f"sat planning reached its memory budget of {budget.describe()}")
        return share[0], (share[1] - 1 if share[1] else None)

    remaining = None if limits.deadline is None else limits.deadline - time.perf_counter()
    if remaining is not None and remaining <= 0:
        return
    cap = share[1] - 1 if share[1] else None
    result = plan(board, metric=metric, min_moves=share[0], max_moves=cap, time_limit=remaining, watch=watch)
    if result.moves is not None:
        out.put((_OPTIMAL, result.moves, "sat planning", metric))
    elif cap is not None or share[1]:
        out.put((_LOWER, result.bound + 1, "sat planning"))
