"""``solve``: one front door for every engine; each answer is replayed by :func:`verify` first."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rushhour.board import Board, Move, check_metric
from rushhour.errors import LimitReachedError, ParameterError, SolverError, expect_callable, expect_whole
from rushhour.search.astar import astar
from rushhour.search.bfs import Limits, shortest
from rushhour.search.frontier import frontier, frontier_wanted
from rushhour.search.heuristics import DEFAULT_HEURISTIC, HEURISTICS
from rushhour.search.memory import DEFAULT_MAX_MEMORY
from rushhour.search.solution import Solution, moves_of_path, verify
from rushhour.search.tables import tables_for
from rushhour.search.walk import improve_search, random_walk
from rushhour.search.watch import Bound, Reporter
from rushhour.text import plural

ENGINES: tuple[str, ...] = ("portfolio", "bfs", "astar", "sat", "random", "improve")
#: the engine of ``rushhour solve`` and of the library's ``rushhour.solve`` when none is named
DEFAULT_ENGINE = "portfolio"
DEFAULT_SAT_MOVES = 120  # the sat engine's bound on the plan length when none is given

Outcome = tuple["list[Move] | None", bool, int]  # moves (None: none exist), proven, explored


class _Request:
    """What an engine is asked: the board, the metric, the limits and the engine options."""

    __slots__ = (
        "board",
        "metric",
        "limits",
        "seed",
        "heuristic",
        "min_moves",
        "max_moves",
        "time_limit",
        "progress",
        "bounds",
    )

    def __init__(self, **fields: object) -> None:
        for name, value in fields.items():
            setattr(self, name, value)

    board: Board
    metric: str
    limits: Limits
    seed: int | None
    heuristic: str
    min_moves: int | None
    max_moves: int | None
    time_limit: float | None
    progress: Callable[[Any], object] | None
    bounds: tuple[Bound, ...]


def _bfs(req: _Request) -> Outcome:
    tables = tables_for(req.board.layout, req.metric)
    start = tables.pack(req.board.state)
    found = frontier(tables, start, req.limits) if frontier_wanted(tables) else None
    path, explored = found if found is not None else shortest(tables, start, req.limits)
    if path is None:
        return None, True, explored
    return moves_of_path(tables, path), True, explored


def _astar(req: _Request) -> Outcome:
    tables = tables_for(req.board.layout, req.metric)
    path, explored = astar(tables, tables.pack(req.board.state), req.limits, req.heuristic)
    if path is None:
        return None, True, explored
    return moves_of_path(tables, path), True, explored


def _random(req: _Request) -> Outcome:
    tables = tables_for(req.board.layout, req.metric)
    path, made = random_walk(tables, tables.pack(req.board.state), req.limits, req.seed)
    moves = moves_of_path(tables, path)
    return moves, len(moves) <= 1, made


def _improve(req: _Request) -> Outcome:
    moves, made = improve_search(req.board, req.metric, req.limits, req.seed)
    return moves, len(moves) <= 1, made


def _portfolio(req: _Request) -> Outcome:
    """The bfs engine where the frontier search does not serve the board, the portfolio elsewhere."""
    from rushhour.search.portfolio import portfolio, wanted

    if req.board.is_won() or not wanted(req.board, req.metric):
        return _bfs(req)
    moves, proven, explored, req.bounds = portfolio(
        req.board, metric=req.metric, limits=req.limits, seed=req.seed, progress=req.progress
    )
    return (None if moves is None else list(moves)), proven, explored


def sat_cap(min_moves: int | None, max_moves: int | None) -> int:
    """The sat engine's longest plan: ``max_moves``, or :data:`DEFAULT_SAT_MOVES` when None.  Raises
    :class:`ParameterError` when ``min_moves`` is above it: no length would be tried."""
    cap = DEFAULT_SAT_MOVES if max_moves is None else max_moves
    if min_moves is not None and min_moves > cap:
        default = " (the default)" if max_moves is None else ""
        raise ParameterError(
            f"{{max_moves}} {cap}{default} is below {{min_moves}} {min_moves}: no length fits"
        )
    return cap


def _sat(req: _Request) -> Outcome:
    """SAT planning from ``min_moves`` (else from the relaxed bound) to :func:`sat_cap`.

    ``min_moves`` is where the lengths start, not a proof: the planner takes it as a lower bound, so
    when it is above the relaxed bound (lengths below it left untried) nothing the planner then refutes
    is proven (from a start above the optimum it refutes lengths that have plans: its formula keeps only
    plans that no shorter one could replace).  The lower bound reported is then the relaxed bound's."""
    try:
        from rushhour.logic.planner import plan
    except ImportError:
        raise SolverError("the sat engine needs rushhour.logic.planner, which is not installed") from None
    from rushhour.search.heuristics import relaxed_bound

    cap = sat_cap(req.min_moves, req.max_moves)
    least = relaxed_bound(req.board, req.metric)  # no plan is shorter: proved by the relaxation
    start = req.min_moves
    told = start is not None and start > least  # lengths below start neither tried nor proved
    try:
        result = plan(req.board, metric=req.metric, min_moves=start, max_moves=cap, time_limit=req.time_limit)
    except LimitReachedError as err:
        if not told:
            raise
        raise LimitReachedError(str(err), explored=err.explored, lower_bound=least) from None
    if result.moves is None:
        if told:
            raise LimitReachedError(
                f"no plan of {start} to {plural(cap, 'move')} found, which proves nothing: the lengths below "
                f"min_moves {start} were not tried, and from a start above the optimum the planner refutes "
                "lengths that have plans",
                lower_bound=least,
            )
        raise LimitReachedError(
            f"no plan of {plural(cap, 'move')} or fewer (the SAT planner proves lengths, "
            "not unsolvability: the bfs engine can prove a board unsolvable)",
            lower_bound=result.bound + 1,
        )
    # for this engine "explored" counts the plan lengths tried (0, or --min-moves, to k), not positions
    return (
        list(result.moves),
        result.optimal,
        len(result.moves) + 1 - min(start or 0, len(result.moves)),
    )


_ENGINES: dict[str, Callable[[_Request], Outcome]] = {
    "portfolio": _portfolio,
    "bfs": _bfs,
    "astar": _astar,
    "sat": _sat,
    "random": _random,
    "improve": _improve,
}


def solve(
    board: Board,
    *,
    engine: str = "bfs",
    metric: str = "moves",
    max_states: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    heuristic: str = DEFAULT_HEURISTIC,
    max_moves: int | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    progress: Callable[[Any], object] | None = None,
    min_moves: int | None = None,
) -> Solution:
    """Solve ``board`` with ``engine`` (see :data:`ENGINES`) under ``metric`` ("moves" or "steps").

    Returns a :class:`Solution`; an unsolvable board gives ``solved=False`` with ``optimal=True`` (the
    whole reachable set was explored).  Raises :class:`LimitReachedError` when ``max_states``
    positions (for ``random``/``improve``: moves of the walks) or ``time_limit`` seconds are used up
    first, when the search has grown the process by ``max_memory`` bytes (None: no bound), or when the
    ``sat`` engine finds no plan of ``max_moves`` moves or fewer (``ParameterError`` when ``min_moves`` is
    above ``max_moves``, or above 120 when ``max_moves`` is None: no length would be tried).  ``seed`` drives
    ``random`` and ``improve``; ``heuristic`` (see :data:`HEURISTICS`) is the bound ``astar`` uses.
    ``progress`` is called with a :class:`~rushhour.search.watch.SearchProgress` record now and then while
    the search runs (see :mod:`rushhour.search.watch`); the ``portfolio`` engine calls it with a
    :class:`~rushhour.search.watch.Bounds` record each time a bound improves.  ``min_moves`` starts
    the ``sat`` engine's lengths there (:func:`rushhour.logic.planner.plan`): shorter plans are not looked
    for, so the plan has at least ``min_moves`` moves (more than the optimum when ``min_moves`` is above
    it) and is ``optimal`` only when ``min_moves`` is at most the relaxed bound; above that bound a stop
    reports only the relaxed bound as ``lower_bound``, nothing the lengths tried seemed to show.

    ``portfolio`` (:mod:`rushhour.search.portfolio`) runs the frontier passes, improve and SAT planning
    together on boards larger than 6x6 and stops when the bounds meet; elsewhere it is ``bfs`` (and the
    answer names that engine).  A stopped portfolio's :class:`LimitReachedError` carries the best
    solution and lower bound of any engine, and ``bounds``, their history.
    """
    began = time.perf_counter()
    # names are matched without regard to case: "BFS", "Steps"
    engine, metric, heuristic = (n.lower() if isinstance(n, str) else n for n in (engine, metric, heuristic))
    metric = check_metric(metric)
    run = _ENGINES.get(engine)
    if run is None:
        raise SolverError(f"unknown engine {engine!r}: use one of {', '.join(ENGINES)}")
    if heuristic not in HEURISTICS:
        raise SolverError(f"unknown heuristic {heuristic!r}: use one of {', '.join(HEURISTICS)}")
    expect_whole(min_moves, "min_moves", none=True, what="a whole number of moves")
    expect_whole(max_moves, "max_moves", none=True, what="a whole number of moves")
    expect_whole(seed, "seed", none=True)
    for value in (min_moves, max_moves):
        if value is not None and value < 0:
            raise SolverError(f"the move bound must be 0 or more, not {value}")
    limits = Limits(max_states, time_limit, max_memory)
    expect_callable(progress, "progress")
    if progress is not None:
        limits.report = Reporter(engine, progress)
    request = _Request(
        board=board,
        metric=metric,
        limits=limits,
        seed=seed,
        heuristic=heuristic,
        min_moves=min_moves,
        max_moves=max_moves,
        time_limit=time_limit,
        progress=progress,
        bounds=(),
    )
    moves, proven, explored = run(request)
    if engine == "portfolio" and not request.bounds:
        engine = "bfs"  # the board was not one for the portfolio: the bfs engine answered alone
    took = time.perf_counter() - began
    if moves is None:
        return Solution(board, (), False, proven, engine, metric, explored, took, request.bounds)
    verify(board, moves)
    if metric == "steps" and any(abs(m.distance) != 1 for m in moves):
        raise SolverError(f"the {engine} engine returned a slide longer than one step in the steps metric")
    return Solution(board, tuple(moves), True, proven, engine, metric, explored, took, request.bounds)
