"""Cheap baselines: random walks until won (``random``), and shortening a solution (``improve``).

``random`` makes uniformly random legal moves from the board until a position is won; a walk that
has not won after its budget starts again from the board with twice the budget.  It is seeded, so the
same seed gives the same walk.  Nothing about its length is proven.

``improve`` shortens any solution without searching beyond it: among the positions the solution
passes through, it finds the shortest chain of single moves from the board to a won one (a
breadth-first search restricted to those positions), which cuts every loop and merges slides of one
vehicle that follow each other.  Then it tries to drop each move in turn and keeps a drop when the rest
still replays to a win, and repeats both until nothing changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rushhour.board import Board, Move
from rushhour.errors import IllegalMoveError, LimitReachedError
from rushhour.search.bfs import Limits
from rushhour.search.solution import moves_of_path
from rushhour.search.tables import FIELD, Tables, tables_for

FIRST_BUDGET = 1000
DEFAULT_WALK_LIMIT = 2_000_000  # moves over all walks when no max_states is given
DROP_LIMIT = 400  # solutions longer than this skip the move-dropping pass (quadratic)


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


def shortcut(tables: Tables, path: Sequence[int]) -> list[int]:
    """The shortest chain of moves from ``path[0]`` to a won position using only positions of
    ``path`` (breadth-first over that set)."""
    on_path = set(path)
    goal_shift, won = tables.goal_shift, tables.won_offsets
    start = path[0]
    parent = {start: -1}
    frontier = [start]
    found = start if (start >> goal_shift) & FIELD in won else -1
    while frontier and found < 0:
        nxt = []
        for z in frontier:
            for t in tables.successors(z):
                if t in on_path and t not in parent:
                    parent[t] = z
                    if (t >> goal_shift) & FIELD in won:
                        found = t
                        break
                    nxt.append(t)
            if found >= 0:
                break
        frontier = nxt
    if found < 0:
        return list(path)
    out = [found]
    z = parent[found]
    while z >= 0:
        out.append(z)
        z = parent[z]
    out.reverse()
    return out


def _replays(board: Board, moves: Sequence[Move]) -> bool:
    try:
        for move in moves:
            board = board.apply(move)
    except IllegalMoveError:
        return False
    return board.is_won()


def improve(board: Board, moves: Sequence[Move], metric: str = "moves") -> list[Move]:
    """A solution no longer than ``moves`` (which must solve ``board``), usually much shorter."""
    tables = tables_for(board.layout, metric)
    current = list(moves)
    while True:
        keys = [tables.pack(board.state)]
        position = board
        for move in current:
            position = position.apply(move)
            keys.append(tables.pack(position.state))
        shorter = moves_of_path(tables, shortcut(tables, keys))
        if len(shorter) < len(current):
            current = shorter
        if len(current) > DROP_LIMIT:
            return current
        dropped = False
        k = 0
        while k < len(current):
            trial = current[:k] + current[k + 1 :]
            if _replays(board, trial):
                current = trial
                dropped = True
            else:
                k += 1
        if not dropped:
            return current
