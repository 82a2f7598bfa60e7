"""Where the game's answers come from: the legal moves from the SAT move oracle, optimal plans from
the solver, and why a move is refused from the oracle's unsatisfiable core.  Both modes are given
these; tests give the game simpler ones."""

from __future__ import annotations

from rushhour.board import Board, Move

#: how long a hint, a solution or the optimal count may search before giving up
SOLVER_SECONDS = 60.0


def oracle_moves(board: Board) -> list[Move]:
    """The legal moves of a position, from the SAT move oracle."""
    from rushhour.logic.oracle import legal_moves

    return legal_moves(board, "moves")


def optimal_plan(board: Board) -> list[Move] | None:
    """An optimal solution from ``board`` (None when it cannot be solved), by the solver."""
    from rushhour.search import solve

    solution = solve(board, time_limit=SOLVER_SECONDS)
    return list(solution.moves) if solution.solved else None


def oracle_explain(board: Board, move: Move) -> str:
    """Why the SAT oracle refuses a move: the reason read from its unsatisfiable core."""
    from rushhour.logic.oracle import oracle_for

    return oracle_for(board).explain(board, move).reason


__all__ = ["SOLVER_SECONDS", "optimal_plan", "oracle_explain", "oracle_moves"]
