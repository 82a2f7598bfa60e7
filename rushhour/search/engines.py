"""``solve``: one front door for every engine; each answer is replayed by :func:`verify` first."""

from __future__ import annotations

import time
from collections.abc import Callable

from rushhour.board import Board, Move, check_metric
from rushhour.errors import SolverError
from rushhour.search.bfs import Limits, shortest
from rushhour.search.solution import Solution, moves_of_path, verify
from rushhour.search.tables import tables_for

ENGINES: tuple[str, ...] = ("bfs",)

# an engine returns (moves or None when there is none, proven optimal / proven unsolvable, explored)
Engine = Callable[[Board, str, Limits, "int | None"], tuple["list[Move] | None", bool, int]]


def _bfs(board: Board, metric: str, limits: Limits, seed: int | None) -> tuple[list[Move] | None, bool, int]:
    tables = tables_for(board.layout, metric)
    path, explored = shortest(tables, tables.pack(board.state), limits)
    if path is None:
        return None, True, explored
    return moves_of_path(tables, path), True, explored


_ENGINES: dict[str, Engine] = {"bfs": _bfs}


def solve(
    board: Board,
    *,
    engine: str = "bfs",
    metric: str = "moves",
    max_states: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
) -> Solution:
    """Solve ``board`` with ``engine`` (see :data:`ENGINES`) under ``metric`` ("moves" or "steps").

    Returns a :class:`Solution`; an unsolvable board gives ``solved=False`` (with ``optimal=True`` when
    the engine proved it).  Raises :class:`LimitReachedError` when ``max_states`` positions or
    ``time_limit`` seconds are used up first.
    """
    began = time.perf_counter()
    check_metric(metric)
    run = _ENGINES.get(engine)
    if run is None:
        raise SolverError(f"unknown engine {engine!r}: use one of {', '.join(ENGINES)}")
    limits = Limits(max_states, time_limit)
    moves, proven, explored = run(board, metric, limits, seed)
    if moves is None:
        return Solution(board, (), False, proven, engine, metric, explored, time.perf_counter() - began)
    verify(board, moves)
    if metric == "steps" and any(abs(m.distance) != 1 for m in moves):
        raise SolverError(f"the {engine} engine returned a slide longer than one step in the steps metric")
    return Solution(board, tuple(moves), True, proven, engine, metric, explored, time.perf_counter() - began)
