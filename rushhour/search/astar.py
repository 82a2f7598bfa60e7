"""A*: best-first search on moves made plus an admissible bound (:mod:`rushhour.search.heuristics`).

Ties on ``f`` go to the deeper position.  A position reached again by a shorter path is pushed again
(re-opened), so the answer is optimal for any admissible bound, consistent or not.  The goal test is
made when a position is taken off the queue, which is what makes the first answer optimal.
"""

from __future__ import annotations

import heapq

from rushhour.search.bfs import Limits
from rushhour.search.heuristics import DEFAULT_HEURISTIC, heuristic
from rushhour.search.tables import FIELD, Tables

CHECK_EVERY = 64  # expansions between two checks of the limits


def astar(
    tables: Tables, start: int, limits: Limits, name: str = DEFAULT_HEURISTIC
) -> tuple[list[int] | None, int]:
    """The keys of an optimal path to a won position (None if there is none) and the number of
    positions discovered (the whole reachable set when there is no path)."""
    bound = heuristic(tables, name)
    goal_shift, won = tables.goal_shift, tables.won_offsets
    successors = tables.successors
    best: dict[int, int] = {start: 0}
    parent: dict[int, int] = {start: -1}
    heap = [(bound(start), 0, start)]
    pop, push = heapq.heappop, heapq.heappush
    count = 0
    while heap:
        _, neg, z = pop(heap)
        g = -neg
        if g > best[z]:
            continue  # a stale entry: z was reached more cheaply since
        if (z >> goal_shift) & FIELD in won:
            path = [z]
            p = parent[z]
            while p >= 0:
                path.append(p)
                p = parent[p]
            path.reverse()
            return path, len(best)
        count += 1
        if count % CHECK_EVERY == 0:
            limits.check(len(best))
        g += 1
        for t in successors(z):
            old = best.get(t)
            if old is None or g < old:
                best[t] = g
                parent[t] = z
                push(heap, (g + bound(t), -g, t))
    return None, len(best)
