"""The frontier search: breadth-first over sorted layers of 16-byte keys, compiled (_frontier.c).

It finds the same optimal lengths as :func:`rushhour.search.bfs.shortest` with far less memory: a
position is stored once, as a 16-byte rank of its lane arrangements, and no parent is kept (the path
is recovered backwards through the layers).  It serves boards without wrap-around whose keys fit in
128 bits, when the compiled search is built; :func:`frontier` returns None elsewhere and the caller
uses :func:`~rushhour.search.bfs.shortest`.  docs/solvers.md explains the keys, the layers and why the
answer is optimal.

A stopped search raises :class:`~rushhour.errors.LimitReachedError` carrying its proven lower bound
(every position of the completed layers was tested for a win in one slide of the goal, so no solution
is shorter than the last completed layer's depth plus two) and the best solution found so far by a
short random walk run once the search has stopped (:func:`best_so_far`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from rushhour.board import Move
from rushhour.errors import LimitReachedError
from rushhour.search import bfs, native
from rushhour.search.bfs import Limits
from rushhour.search.contract import FRONTIER_THREADS
from rushhour.search.native_spec import NativeSpec
from rushhour.search.shorten import shortest_within
from rushhour.search.solution import moves_of_path, verify
from rushhour.search.tables import Tables
from rushhour.search.walk import random_walk
from rushhour.workers import usable_cores

#: boards of more cells than this are solved by the frontier search (on the classic 6x6 board the
#: search of rushhour.search.bfs is faster: its hash table stays in the cache)
FRONTIER_CELLS = 36
BEST_WALK_MOVES = 200_000  # the random walk run for a best solution so far when a search stops
BEST_SECONDS = 2.0
UNSOLVABLE_FROZEN = 3  # the compiled search's status for "unsolvable, some vehicles left unmoved"
#: bytes a stored position costs at most: its 16-byte key, plus the runs and the sort buffer of the
#: layer being built (measured in docs/benchmarks.md; used to turn a memory budget into a count)
BYTES_PER_POSITION = 24
#: the bounded passes end (one pass without a bound finishes the search) when a pass of at least
#: SMALL_PASS positions stores fewer than GROWTH_FLOOR times the positions of the pass before: the
#: bound then leaves little out, and each pass still to come would cost about as much as the last
#: (docs/solvers.md, "When the passes end"; 1.25 before the cleared bound's cycles of orders, whose
#: smaller passes grow faster for longer: 1.5 takes the 9x9 bench boards from 0.40 s to 0.26 s)
SMALL_PASS = 10_000
GROWTH_FLOOR = 1.5


def next_bound(bound: int, stored: int, last: int) -> int:
    """The bound of the pass after one of bound ``bound`` that stored ``stored`` positions, the one
    before it ``last``: one more, or 0 (no bound: the last pass) once a pass of at least
    :data:`SMALL_PASS` positions grows by less than :data:`GROWTH_FLOOR` (docs/solvers.md, "When the
    passes end")."""
    return 0 if stored >= SMALL_PASS and stored < last * GROWTH_FLOOR else bound + 1


def pass_threads() -> int:
    """The threads a frontier pass expands its layers on: every core this process may use, at most
    :data:`~rushhour.search.contract.FRONTIER_THREADS`.  A layer is the same set on any number of
    threads, and so is the answer (docs/solvers.md, "Threads")."""
    return min(FRONTIER_THREADS, usable_cores())


def frontier_available(tables: Tables) -> bool:
    """Whether :func:`frontier` can serve this layout at all (compiled search built, no wrap-around)."""
    return native.native_enabled() and not tables.layout.wrap


def frontier_wanted(tables: Tables) -> bool:
    """Whether the ``bfs`` engine uses the frontier search for this layout: a board larger than
    :data:`FRONTIER_CELLS` cells that it can serve."""
    return tables.cells > FRONTIER_CELLS and frontier_available(tables)


def frontier(
    tables: Tables, start: int, limits: Limits, bounded: bool = True
) -> tuple[list[int] | None, int] | None:
    """The keys of a shortest path from ``start`` to a won position (None when there is none) and how
    many positions were stored (over every pass; on an unsolvable board, its reachable set); None when
    the frontier search does not serve this board.

    The search runs in *bounded passes* first: the pass of bound U keeps only the positions whose depth
    plus a lower bound on their remaining moves is at most U, so it finds a shortest solution when one
    of at most U moves exists, and otherwise proves that none does.  U starts at 1 and grows by one; when
    a pass barely grows on the one before (the bound no longer leaves much out), one pass without a
    bound finishes the search (docs/solvers.md, "The bounded passes").  With ``bounded`` False that
    one pass runs alone (the frontier search as it was before the passes, kept for comparison)."""
    if not frontier_available(tables):
        return None
    if tables.is_won(start):
        return [start], 1
    spec, state = tables.native_spec(), tables.unpack(start)
    explored = last = 0
    lower = 1  # proven: no solution has fewer moves
    bound = 1 if bounded else 0
    while True:
        status, stored, path, layers_bound, pruned = _pass(spec, state, limits, explored, bound)
        explored += stored
        if status < 0:
            return None
        if status == 2:
            # the completed layers of a pass of bound U prove their bound only up to U + 1: a solution
            # of U + 1 moves may pass through positions the bound left out
            layers_bound = min(layers_bound, bound + 1) if bound else layers_bound
            _stopped(tables, start, limits, explored, max(lower, layers_bound))
        if path is not None:
            return [tables.pack(s) for s in path], explored
        if not pruned:  # nothing was left out: no won position is reachable
            if status == UNSOLVABLE_FROZEN or bound:
                # searched again without the bound and with every vehicle, so that ``stored`` is the
                # whole reachable set, as for the other searches
                status, stored, path, layers_bound, pruned = _pass(spec, state, limits, explored, 0, True)
                if status == 2:
                    _stopped(tables, start, limits, explored + stored, max(lower, layers_bound))
            return None, stored
        lower = bound + 1
        bound, last = next_bound(bound, stored, last), stored


def one_pass(
    tables: Tables,
    start: int,
    limits: Limits,
    bound: int,
    used: int = 0,
    poll: Callable[[], bool] | None = None,
    threads: int | None = None,
) -> tuple[int, int, list[int] | None, int, int]:
    """One bounded pass of bound ``bound`` (0: none) from ``start``, as :func:`frontier` runs them:
    the compiled search's status (2: stopped by a limit; ``STOPPED_BY_POLL`` of
    :mod:`~rushhour.search.contract`: stopped by ``poll``), the positions it stored, the keys of a
    shortest solution when one of at most ``bound`` moves exists (else None), the depth bound its
    completed layers prove, and how many positions the bound left out.  ``used``: positions stored by
    passes before (``limits.max_states`` counts them all).  ``poll``, when given, is called every
    ``POLL_MILLISECONDS`` while the pass runs (the caller's chance to read news and show progress);
    it answers True to stop the pass.  ``threads``: how many to expand its layers on (None:
    :func:`pass_threads`; 1 in a worker of a pool, which shares the cores with the others)."""
    spec, state = tables.native_spec(), tables.unpack(start)
    status, stored, path, layers_bound, pruned = _pass(
        spec, state, limits, used, bound, poll=poll, threads=threads
    )
    keys = None if path is None else [tables.pack(s) for s in path]
    return status, stored, keys, layers_bound, pruned


def _pass(
    spec: NativeSpec,
    state: tuple[int, ...],
    limits: Limits,
    used: int,
    bound: int,
    every: bool = False,
    poll: Callable[[], bool] | None = None,
    threads: int | None = None,
) -> tuple[int, int, list[tuple[int, ...]] | None, int, int]:
    """One call of the compiled search, within what is left of the limits (``used``: positions stored
    by the passes before), on ``threads`` threads (None: :func:`pass_threads`)."""
    compiled = native.compiled
    assert compiled is not None
    cap = 0
    if limits.max_states is not None:
        cap = max(1, limits.max_states - used)
    if limits.memory is not None:
        room = max(1, (limits.memory.limit - limits.memory.used()) // BYTES_PER_POSITION)
        cap = room if cap == 0 else min(cap, room)
    threads = pass_threads() if threads is None else threads
    asked = bfs.native_poll(limits, used=used, then=poll)  # the progress shown, then the caller's poll
    return compiled.frontier(spec, state, cap, bfs.seconds_left(limits), every, bound, asked, threads)


def _stopped(tables: Tables, start: int, limits: Limits, stored: int, bound: int) -> NoReturn:
    """The limit that stopped a frontier search, with its proven lower bound and the best solution
    found by a short random walk (see :func:`best_so_far`)."""
    try:
        bfs.stopped_at_limit(limits, stored)
    except LimitReachedError as err:
        best = best_so_far(tables, start, limits)
        raise LimitReachedError(str(err), explored=stored, lower_bound=bound, best=best) from None


def best_so_far(tables: Tables, start: int, limits: Limits) -> tuple[Move, ...] | None:
    """A solution to report when a search stops at a limit: a seeded random walk of at most
    :data:`BEST_WALK_MOVES` moves and :data:`BEST_SECONDS` seconds (a tenth of the time limit when it
    is shorter), cut to the shortest chain through the positions it visited and replayed by the rules;
    None when the walk does not win within that."""
    seconds = BEST_SECONDS if limits.time_limit is None else min(BEST_SECONDS, limits.time_limit / 10)
    try:
        path, _ = random_walk(tables, start, Limits(BEST_WALK_MOVES, seconds, None), seed=0)
    except LimitReachedError:
        return None
    moves = moves_of_path(tables, shortest_within(tables, start, set(path)) or path)
    verify(tables.board(start), moves)
    return tuple(moves)
