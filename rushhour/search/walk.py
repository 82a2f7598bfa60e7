"""Cheap baselines: random walks until won (``random``), and shortening a solution (``improve``).

``random`` makes uniformly random legal moves from the board until a position is won; a walk that
has not won after its budget starts again from the board with twice the budget.  It is seeded, so the
same seed gives the same walk.  Nothing about its length is proven.

``improve`` shortens a random walk's solution by the passes of :mod:`rushhour.search.shorten`
(loop cutting, action elimination, neighbourhood search and bounded shortcuts, to a fixed point).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rushhour.board import Board, Move
from rushhour.errors import LimitReachedError
from rushhour.search.bfs import Limits
from rushhour.search.shorten import shorten
from rushhour.search.tables import FIELD, Tables, tables_for

FIRST_BUDGET = 1000
DEFAULT_WALK_LIMIT = 2_000_000  # moves over all walks when no max_states is given


def random_walk(tables: Tables, start: int, limits: Limits, seed: int | None) -> tuple[list[int], int]:
    """The keys of a random walk from ``start`` that ends on a won position, and the moves made."""
    rng = random.Random(seed)
    goal_shift, won = tables.goal_shift, tables.won_offsets
    cap = limits.max_states if limits.max_states is not None else DEFAULT_WALK_LIMIT
    made = 0
    budget = FIRST_BUDGET
    while True:
        path = [start]
        z = start
        for _ in range(budget):
            if (z >> goal_shift) & FIELD in won:
                return path, made
            options = tables.successors(z)
            if not options:
                break
            z = options[int(rng.random() * len(options))]
            path.append(z)
            made += 1
            if made % 4096 == 0:
                if made >= cap:
                    raise LimitReachedError(
                        f"random walks made {made:,} moves without reaching the exit; giving up",
                        explored=made,
                    )
                limits.check(made, "random moves")
        if (z >> goal_shift) & FIELD in won:
            return path, made
        if not options:
            # nothing can move at all: no walk will ever win
            raise LimitReachedError("no vehicle can move and the board is not won", explored=made)
        budget *= 2


def improve(
    board: Board, moves: Sequence[Move], metric: str = "moves", deadline: float | None = None
) -> list[Move]:
    """A solution no longer than ``moves`` (which must solve ``board``), usually much shorter: the
    passes of :mod:`rushhour.search.shorten` to a fixed point (``deadline`` cuts them short)."""
    return shorten(board, moves, tables_for(board.layout, metric), deadline=deadline)
