"""Where the game's answers come from: the legal moves from the SAT move oracle, optimal plans from the
solver.  Both modes are given these; tests give the game simpler ones."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable

from rushhour.board import Board, Layout, Move

#: how long a hint, a solution or the optimal count may search before giving up
SOLVER_SECONDS = 60.0
#: and how much memory it may add to the process it runs in (bytes)
SOLVER_MEMORY = 1024**3


#: how often the thread that builds an oracle hands the interpreter over (seconds)
SWITCH_SECONDS = 0.0005
#: the oracles being built beside the game, by layout
_BUILDING: dict[Layout, threading.Thread] = {}


def warm_oracle(board: Board) -> None:
    """Start building the SAT oracle of ``board``'s shape in a thread (seconds on a 16x16 board), so
    that the game can start at once; :func:`oracle_moves` answers by the rules until it is ready."""
    from rushhour.logic.oracle import oracle_for

    layout = board.layout
    if layout in _BUILDING:
        return
    thread = threading.Thread(target=_build, args=(oracle_for, board), name="oracle", daemon=True)
    _BUILDING[layout] = thread
    thread.start()


def _build(oracle_for: Callable[[Board], object], board: Board) -> None:
    """Build an oracle while the game goes on: the interpreter is handed over to the game's thread
    often, and the many objects of the encoding are kept out of the collector's way (its pauses would
    be felt as slow keys)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    collecting = gc.isenabled()
    gc.disable()
    try:
        oracle_for(board)
    finally:
        gc.freeze()  # what the build made stays: never scanned again
        if collecting:
            gc.enable()
        sys.setswitchinterval(interval)


def oracle_ready(board: Board) -> bool:
    """Whether the SAT oracle of this board's shape answers; the first time a shape is seen its oracle
    starts being built (:func:`warm_oracle`) and is not ready yet."""
    warm_oracle(board)
    return not _BUILDING[board.layout].is_alive()


def wait_for_oracle(board: Board, seconds: float) -> bool:
    """Wait up to ``seconds`` for the SAT oracle of ``board``'s shape (its build started if need be);
    whether it is ready.  For the line mode, whose prompt waits for the player anyway."""
    warm_oracle(board)
    _BUILDING[board.layout].join(seconds)
    return oracle_ready(board)


def oracle_moves(board: Board) -> list[Move]:
    """The legal moves of a position, from the SAT move oracle; while it is being built for a new shape
    (:func:`warm_oracle`), from the reference rules (the same list, as the tests check on many
    positions), so that a game starts at once even on a 16x16 board."""
    from rushhour.logic.oracle import legal_moves

    if not oracle_ready(board):
        return board.legal_moves("moves")
    return legal_moves(board, "moves")


def optimal_plan(board: Board) -> list[Move] | None:
    """An optimal solution from ``board`` (None when it cannot be solved), by the solver ``rushhour
    solve`` uses: the portfolio (breadth-first search on small boards; on large ones the frontier
    passes, SAT planning and the improve walks together, which answer a 16x16 board that breadth-first
    search alone cannot hold in the memory allowed)."""
    from rushhour.search import solve

    solution = solve(board, engine="portfolio", time_limit=SOLVER_SECONDS, max_memory=SOLVER_MEMORY)
    return list(solution.moves) if solution.solved else None


__all__ = ["SOLVER_MEMORY", "SOLVER_SECONDS", "optimal_plan", "oracle_moves", "oracle_ready", "warm_oracle"]
