"""Cheap baselines: random walks until won (``random``), and shortening a solution (``improve``).

``random`` makes uniformly random legal moves from the board until a position is won; a walk that
has not won after its budget starts again from the board with twice the budget.  It is seeded, so the
same seed gives the same walk.  Nothing about its length is proven.

``improve`` runs several random walks (:func:`walks`: the first with the seed itself, the others with
seeds drawn from it), takes from each the shortest chain of moves to a win through its positions, and
shortens the shortest few chains in turn (while there is time; the shortest answer wins) by the passes
of :mod:`rushhour.search.shorten` (loop cutting, action elimination, neighbourhood search and bounded
shortcuts, to a fixed point).  One walk is a lottery:
on an open 12x12 board one seed's walk cuts down to 28 moves and shortens to 15 in seconds, another's
cuts to 12,756 moves that the passes cannot shorten enough in a minute.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from rushhour.board import Board, Move
from rushhour.errors import LimitReachedError
from rushhour.search.bfs import Limits
from rushhour.search.memory import MemoryBudget
from rushhour.search.shorten import shorten, shortest_within, solution_length
from rushhour.search.solution import moves_of_path
from rushhour.search.tables import FIELD, Tables, tables_for

FIRST_BUDGET = 1000
DEFAULT_WALK_LIMIT = 2_000_000  # moves over all walks when no max_states is given
#: the improve engine's walks: at most this many, each of at most WALK_MOVES moves (the first one
#: excepted: it may go on to the usual limit, so that there is always a solution to shorten)
IMPROVE_WALKS = 8
WALK_MOVES = 50_000
#: the shortest chains of the walks that are shortened, in turn, while there is time
IMPROVE_CHAINS = 3


#: seconds the improve engine spends shortening when no time limit is given (the passes usually
#: reach their fixed point well before; when they do not, the answer depends on the machine's speed)
IMPROVE_SECONDS = 40.0
#: the share of the time the walks take (the first one is always run to its end)
WALK_SHARE = 0.25


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
    board: Board,
    moves: Sequence[Move],
    metric: str = "moves",
    deadline: float | None = None,
    memory: MemoryBudget | None = None,
) -> list[Move]:
    """A solution no longer than ``moves`` (which must solve ``board``), usually much shorter: the
    passes of :mod:`rushhour.search.shorten` to a fixed point (``deadline``, or the process grown past
    the ``memory`` budget, cuts them short)."""
    return shorten(board, moves, tables_for(board.layout, metric), deadline=deadline, memory=memory)


def walks(
    tables: Tables, start: int, limits: Limits, seed: int | None, until: float | None
) -> tuple[list[list[int]], int]:
    """Chains of moves from ``start`` to a win, each the shortest through the positions of one random
    walk, shortest first; and the moves the walks made.  The first walk is the ``random`` engine's own
    (same seed, same limits); then up to :data:`IMPROVE_WALKS` - 1 more, each with a seed drawn from
    ``seed`` and at most :data:`WALK_MOVES` moves, while the clock is before ``until`` and ``limits``
    allow (their memory budget too)."""
    path, made = random_walk(tables, start, limits, seed)
    found = [shortest_within(tables, start, set(path)) or path]
    draw = random.Random(seed)
    for _ in range(IMPROVE_WALKS - 1):
        if until is not None and time.perf_counter() > until:
            break
        if _spent(limits):
            break
        room = WALK_MOVES if limits.max_states is None else min(WALK_MOVES, limits.max_states - made)
        if room <= 0:
            break
        mine = Limits(room, None, None)
        mine.memory = limits.memory  # the same budget, measured from where it was set
        try:
            path, more = random_walk(tables, start, mine, draw.getrandbits(32))
        except LimitReachedError as err:
            made += err.explored or 0
            continue
        made += more
        found.append(shortest_within(tables, start, set(path)) or path)
    found.sort(key=len)
    return found, made


def _spent(limits: Limits) -> bool:
    return limits.memory is not None and limits.memory.exceeded()


def improve_search(board: Board, metric: str, limits: Limits, seed: int | None) -> tuple[list[Move], int]:
    """The improve engine: random walks to a win, each shortened (:func:`improve`) until the limits'
    deadline (:data:`IMPROVE_SECONDS` when they have none) or until the process has grown past their
    memory budget; the shortest solution found and how many positions the walks visited."""
    tables = tables_for(board.layout, metric)
    deadline = limits.deadline
    if deadline is None:
        deadline = time.perf_counter() + IMPROVE_SECONDS
    until = time.perf_counter() + WALK_SHARE * (deadline - time.perf_counter())
    chains, made = walks(tables, tables.pack(board.state), limits, seed, until)
    best: list[Move] | None = None
    steps = metric == "steps"
    for path in chains[:IMPROVE_CHAINS]:
        if best is not None and (time.perf_counter() > deadline or _spent(limits)):
            break
        moves = improve(board, moves_of_path(tables, path), metric, deadline, limits.memory)
        if best is None or solution_length(moves, steps) < solution_length(best, steps):
            best = moves
    assert best is not None
    return best, made
