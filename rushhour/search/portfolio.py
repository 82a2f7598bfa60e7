"""The portfolio: every engine on one large board at once, each doing what it is good at.

On a board the frontier search serves (larger than 6x6, no wrap-around, the compiled search built),
``solve(board, engine="portfolio")`` first runs the frontier search alone in the caller for
:data:`QUICK_SECONDS` (the smaller boards need no more), then two worker processes beside the caller
(the second from :data:`UPPER_DELAY` seconds on, or a sixth of a shorter time limit):

* the **lower** worker runs the frontier search's bounded passes (docs/solvers.md, "The bounded
  passes"): the pass of bound U that ends without a solution proves that no solution has U moves or
  fewer; a pass that finds one has found a shortest one.  It starts each pass at the best lower bound
  known to the portfolio, and never runs a pass of a bound at or above the best solution known: when the
  last needed pass (bound best - 1) ends empty, the best solution is proven optimal without the largest
  pass of all.  Where the passes would go on without a bound, they go on with bound best - 1;
* the **upper** worker first runs the ``improve`` engine with restarts (seeds ``seed``, ``seed + 1``,
  ...; a few seconds each) for solutions within seconds, then SAT planning
  (:func:`rushhour.logic.planner.plan`) from the best lower bound known upwards, its lengths capped by
  the best solution known: each length it refutes raises the lower bound, and the first plan it finds
  is optimal.

The caller keeps the bounds (a shared array both workers read between passes and lengths) and reports
each improvement (:class:`~rushhour.search.watch.Bounds`, through the ``progress`` callback); it stops
as soon as the lower bound meets the best solution.  At a limit (time, positions, memory) or when every
worker has ended without meeting, it raises :class:`~rushhour.errors.LimitReachedError` with the best
solution any engine found and the best lower bound any engine proved.  Workers are killed on every
way out (an answer, a limit, Ctrl-C, an error) and die with the caller if it is killed (Linux).

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
from rushhour.search.bfs import Limits
from rushhour.search.frontier import (
    GROWTH_FLOOR,
    SMALL_PASS,
    best_so_far,
    frontier,
    frontier_wanted,
    one_pass,
)
from rushhour.search.memory import MemoryBudget
from rushhour.search.shorten import solution_length
from rushhour.search.solution import moves_of_path, verify
from rushhour.search.tables import tables_for
from rushhour.search.walk import improve_search
from rushhour.search.watch import Bound, Bounds
from rushhour.workers import owned_by

#: seconds of the first improve restart (each one after takes twice the one before), and of all of
#: them (at most a quarter of the time limit), before the upper worker turns to SAT planning
RESTART_SECONDS = 4.0
IMPROVE_SECONDS = 30.0
#: the share of ``max_memory`` the frontier passes may take (the rest: SAT planning and the caller)
FRONTIER_MEMORY = 0.75
#: seconds the passes run alone before the upper worker starts (a sixth of a shorter time limit)
UPPER_DELAY = 10.0
#: seconds the frontier search runs alone in the caller before the workers start
QUICK_SECONDS = 0.5
#: whether the upper worker turns to SAT planning after its restarts (bench/large.py measures both)
SAT_PLANNING = True
#: the passes go straight to the bound best - 1 once it is at most this far above the next pass
#: (0: they never skip a bound)
JUMP = 0
#: seconds the caller waits past its deadline for the workers' last bounds before killing them
GRACE = 1.5
POLL = 0.2

# what the workers tell the caller: (kind, value, engine[, metric])
_LOWER, _BEST, _OPTIMAL, _UNSOLVABLE = "lower", "best", "optimal", "unsolvable"
_STOPPED, _EXPLORED = "stopped", "explored"
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
    from rushhour.logic.planner import relaxed_bound

    state = _State(time.perf_counter(), relaxed_bound(board, metric), "relaxed bound")
    state.record(_LOWER, state.lower, state.lower_by)
    if _quick(board, metric, limits, state):
        return (None if state.unsolvable else state.best), True, state.explored, tuple(state.history)
    if limits.deadline is not None and time.perf_counter() >= limits.deadline:
        raise _stop(state, limits, metric)
    _report(state, metric, progress)
    context = multiprocessing.get_context("fork")
    share = context.Array("q", [state.lower, 0], lock=False)  # best lower bound, best length (0: none)
    out = context.Queue()
    memory = None if limits.memory is None else limits.memory.limit
    me = os.getpid()
    lower = (board, metric, share, out, limits, memory, me)
    upper = (board, metric, share, out, limits, memory, seed or 0, me)
    workers = [
        context.Process(target=_lower_worker, args=lower, daemon=True),
        context.Process(target=_upper_worker, args=upper, daemon=True),
    ]
    try:
        workers[0].start()
        _coordinate(board, metric, state, share, out, workers, limits, progress)
    finally:
        for worker in workers:
            if worker.pid is None:
                continue
            if worker.is_alive():
                worker.kill()
            worker.join()
        out.cancel_join_thread()
        out.close()
    if state.met:
        return (None if state.unsolvable else state.best), True, state.explored, tuple(state.history)
    if state.best is None:  # stopped before any engine found one: a short random walk, as bfs reports
        tables = tables_for(board.layout, metric)
        walked = best_so_far(tables, tables.pack(board.state), limits)
        if walked is not None:
            _take(board, state, share, (_BEST, walked, "random walk", metric))
    raise _stop(state, limits, metric)


def _quick(board: Board, metric: str, limits: Limits, state: _State) -> bool:
    """The frontier search alone, in the caller, for :data:`QUICK_SECONDS`: most boards up to 9x9 need
    no more (and no worker).  True when it answered; else ``state`` holds what it proved."""
    tables = tables_for(board.layout, metric)
    start = tables.pack(board.state)
    seconds = QUICK_SECONDS
    if limits.deadline is not None:
        seconds = max(1e-3, min(seconds, limits.deadline - time.perf_counter()))
    memory = None if limits.memory is None else limits.memory.limit
    began = time.perf_counter()
    try:
        found = frontier(tables, start, Limits(limits.max_states, seconds, memory))
    except LimitReachedError as err:
        state.explored += err.explored
        if err.lower_bound is not None and err.lower_bound > state.lower:
            state.lower, state.lower_by = err.lower_bound, "frontier passes"
            state.record(_LOWER, state.lower, state.lower_by)
        if err.best is not None:
            state.best, state.best_by = err.best, "random walk"
            state.record(_BEST, solution_length(err.best, metric == "steps"), state.best_by)
        if time.perf_counter() - began < seconds:  # --max-states or the memory: stop as bfs stops
            best = err.best or best_so_far(tables, start, limits)  # the walk bfs would have made
            if best is not None and err.best is None:
                state.record(_BEST, solution_length(best, metric == "steps"), "random walk")
            raise LimitReachedError(
                str(err),
                explored=err.explored,
                lower_bound=state.lower,
                best=best,
                bounds=tuple(state.history),
            ) from None
        return False
    assert found is not None  # wanted() said the frontier search serves this board
    path, state.explored = found
    if path is None:
        state.unsolvable = True
        return True
    moves = tuple(moves_of_path(tables, path))
    state.best, state.best_by, state.optimal = moves, "frontier search", True
    state.lower, state.lower_by = solution_length(moves, metric == "steps"), "frontier search"
    state.record(_LOWER, state.lower, state.lower_by)
    state.record(_BEST, state.lower, state.best_by)
    return True


def _coordinate(
    board: Board,
    metric: str,
    state: _State,
    share: Any,
    out: Any,
    workers: list[Any],
    limits: Limits,
    progress: Callable[[Any], object] | None,
) -> None:
    """Read the workers' news until the bounds meet, the limits pass or every worker has ended."""
    upper = workers[1]
    delay = UPPER_DELAY if limits.time_limit is None else min(UPPER_DELAY, limits.time_limit / 6)
    while not state.met:
        if upper.pid is None and time.perf_counter() - state.began >= delay:
            upper.start()
        try:
            message = out.get(timeout=POLL)
        except queue.Empty:
            if limits.deadline is not None and time.perf_counter() > limits.deadline + GRACE:
                return
            if upper.pid is not None and not any(w.is_alive() for w in workers) and out.empty():
                return
            continue
        if message[0] == _STOPPED and message[2] == _FRONTIER:
            # the passes reached --max-states or their memory: the portfolio stops there, as bfs does
            _take(board, state, share, message)
            return
        if _take(board, state, share, message):
            _report(state, metric, progress)


def _report(state: _State, metric: str, progress: Callable[[Any], object] | None) -> None:
    """Hand the bounds as they stand to the progress callback."""
    if progress is None:
        return
    steps = metric == "steps"
    best = None if state.best is None else solution_length(state.best, steps)
    seconds = time.perf_counter() - state.began
    progress(Bounds(state.lower, state.lower_by, best, state.best_by, seconds, metric))


def _take(board: Board, state: _State, share: Any, message: tuple[Any, ...]) -> bool:
    """Take one worker's message into ``state`` and ``share``; True when a bound improved."""
    kind, value, engine = message[0], message[1], message[2]
    if kind == _EXPLORED:
        state.explored += value
        return False
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
    if limits.deadline is not None and time.perf_counter() >= limits.deadline:
        why = f"stopped at the time limit of {limits.time_limit:g} s"
    else:
        why = "; ".join(state.stopped) or "stopped: every engine ended"
    best = "no solution found"
    if state.best is not None:
        best = f"best {solution_length(state.best, unit == 'steps')} {unit} ({state.best_by})"
    return LimitReachedError(
        f"{why}; the bounds did not meet: at least {state.lower} {unit} ({state.lower_by}), {best}",
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


def _worker_limits(limits: Limits, memory: int | None) -> Limits:
    """The caller's limits, with the same deadline, in a worker (the memory budget is the worker's own)."""
    remaining = None if limits.deadline is None else max(1e-3, limits.deadline - time.perf_counter())
    return Limits(limits.max_states, remaining, memory)


def _lower_worker(
    board: Board, metric: str, share: Any, out: Any, limits: Limits, memory: int | None, owner: int
) -> None:
    _worker_start(owner)
    try:
        _passes(board, metric, share, out, _worker_limits(limits, _share(memory, FRONTIER_MEMORY)))
    except RushHourError as err:
        out.put((_STOPPED, str(err), _FRONTIER))


def _share(memory: int | None, part: float) -> int | None:
    return None if memory is None else max(1, int(memory * part))


def _passes(board: Board, metric: str, share: Any, out: Any, limits: Limits) -> None:
    """The bounded passes, from the best lower bound known, never at or above the best solution."""
    tables = tables_for(board.layout, metric)
    start = tables.pack(board.state)
    bound, last, used = 1, 0, 0
    while True:
        lower, best = share[0], share[1]
        bound = max(bound, lower) if bound else bound
        if best:
            if lower >= best:
                return
            bound = best - 1 if bound == 0 else min(bound, best - 1)
            if best - 1 - bound <= JUMP:  # near the best solution: straight to the pass that proves it
                bound = best - 1
        status, stored, keys, layers, pruned = one_pass(tables, start, limits, bound, used)
        used += stored
        out.put((_EXPLORED, stored, _FRONTIER))
        if status == 2:
            try:
                limits.check(used)
                budget = limits.memory.describe() if limits.memory else "?"
                reason = f"stopped at the memory limit of {budget} after {used:,} positions without an answer"
            except LimitReachedError as err:
                reason = str(err)
            # a pass of bound U keeps every position of every solution of at most U moves, so its
            # completed layers prove their bound only up to U + 1
            proven = min(layers, bound + 1) if bound else layers
            out.put((_LOWER, proven, _pass_name(bound) + ", completed layers"))
            out.put((_STOPPED, reason, _FRONTIER))
            return
        if keys is not None:
            out.put((_OPTIMAL, moves_of_path(tables, keys), _pass_name(bound), metric))
            return
        if not pruned:
            _unsolvable(tables, start, limits, out)
            return
        out.put((_LOWER, bound + 1, _pass_name(bound)))
        bound = 0 if stored >= SMALL_PASS and stored < last * GROWTH_FLOOR else bound + 1
        last = stored


def _pass_name(bound: int) -> str:
    return f"frontier pass {bound}" if bound else "frontier search"


def _unsolvable(tables: Any, start: int, limits: Limits, out: Any) -> None:
    """A pass that left nothing out and found no win: the board is unsolvable; its whole reachable set
    is searched once more (as the bfs engine does) so that the count is the set's size."""
    found = frontier(tables, start, limits)
    if found is not None and found[0] is None:
        out.put((_EXPLORED, found[1], "frontier search"))
        out.put((_UNSOLVABLE, None, "frontier search"))


def _upper_worker(
    board: Board,
    metric: str,
    share: Any,
    out: Any,
    limits: Limits,
    memory: int | None,
    seed: int,
    owner: int,
) -> None:
    _worker_start(owner)
    mine = _worker_limits(limits, None)
    try:
        _restarts(board, metric, share, out, mine, seed)
        if SAT_PLANNING:
            _plans(board, metric, share, out, mine, _share(memory, 1 - FRONTIER_MEMORY))
    except RushHourError as err:
        out.put((_STOPPED, str(err), "improve and sat"))


def _restarts(board: Board, metric: str, share: Any, out: Any, limits: Limits, seed: int) -> None:
    """The improve engine with seeds ``seed``, ``seed + 1``, ...: 4, 8, 16... seconds each, while the
    restarts' share of the time lasts (and the bounds have not met)."""
    began = time.perf_counter()
    budget = IMPROVE_SECONDS
    if limits.time_limit is not None:
        budget = min(budget, limits.time_limit / 4)
    k = 0
    while time.perf_counter() - began < budget:
        if share[1] and share[0] >= share[1]:
            return
        # 4 s, 8 s, 16 s, ...: a long walk needs time to be shortened on a busy machine
        seconds = max(0.5, min(RESTART_SECONDS * 2**k, budget - (time.perf_counter() - began)))
        try:
            moves, _ = improve_search(board, metric, Limits(None, seconds, None), seed + k)
            verify(board, moves)  # replayed by the rules before it is offered
        except LimitReachedError:
            moves = []
        if moves:
            out.put((_BEST, tuple(moves), f"improve, seed {seed + k}", metric))
        k += 1


def _plans(board: Board, metric: str, share: Any, out: Any, limits: Limits, memory: int | None) -> None:
    """SAT planning from the best lower bound known, its lengths capped by the best solution known."""
    from rushhour.logic.planner import plan

    budget = None if memory is None else MemoryBudget(memory)
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
