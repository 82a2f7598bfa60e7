"""Cluster analysis: the reachable set of a board and every position's distance to the nearest win.

Two breadth-first passes over packed keys: one from the board collects its reachable set (its
*cluster*), one from all the won positions of the cluster at once gives each position's distance to
its nearest win.  Moves are reversible (a slide can always be undone), so distances "to" a win are
distances "from" the set of wins, and the cluster of every position in it is the same set.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rushhour.board import Board, check_metric
from rushhour.errors import LimitReachedError, expect_callable
from rushhour.formats.single import board_ref
from rushhour.search import native
from rushhour.search.bfs import (
    Limits,
    layers,
    memory_left,
    native_cap,
    native_poll,
    reachable,
    seconds_left,
    stopped_at_limit,
)
from rushhour.search.contract import STAGE_DISTANCES, STAGE_FOUND
from rushhour.search.memory import DEFAULT_MAX_MEMORY
from rushhour.search.tables import native_spec_for, tables_for
from rushhour.search.watch import Reporter, SearchProgress
from rushhour.text import plural

#: the name of the analysis in its progress records, and what it counts at each stage of the compiled
#: analysis (see _analysis.c): the cluster's positions as they are found, then those given a distance
ANALYSIS = "analysis"
STAGES = {STAGE_FOUND: "positions", STAGE_DISTANCES: "positions with a distance"}

#: memory the compiled analysis may keep the cluster's moves in (4 bytes a move), so that its second
#: pass (the distances) walks them instead of making every move again: 8.4 million moves, the clusters
#: of a generator's tries many times over; a larger cluster's moves are made twice
EDGE_BYTES = 32 << 20

#: the positions a :class:`KnownClusters` keeps answers about by default (a few kilobytes each); 0 keeps
#: none, so that every question is a search (the baseline of bench/known_clusters.py and of the tests)
KNOWN_CLUSTERS = 4096


@dataclass(frozen=True)
class Analysis:
    """The reachable set of ``board`` under ``metric``.

    ``histogram`` maps a distance to the nearest win to the number of positions at that distance (empty
    when no win is reachable).  ``hardest`` is a position farthest from any win (the smallest state
    among ties; for an unsolvable cluster the smallest state of the set), at ``hardest_distance``
    (-1 if unsolvable).  ``start_distance`` is the board's own optimal solution length (-1 if
    unsolvable).  ``cluster_key`` is the smallest state of the set: two boards lie in the same cluster
    exactly when their layouts and cluster keys are equal.
    """

    board: Board
    metric: str
    cluster_size: int
    won_count: int
    histogram: dict[int, int]
    hardest: Board
    hardest_distance: int
    start_distance: int
    cluster_key: tuple[int, ...]
    seconds: float = field(default=0.0, compare=False)

    @property
    def solvable(self) -> bool:
        return self.start_distance >= 0

    @property
    def mean_distance(self) -> float:
        """The mean distance of the set's positions to the nearest win (0 for an unsolvable set); the
        annealings of the generator and of harden weigh it."""
        return sum(d * n for d, n in self.histogram.items()) / self.cluster_size

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, in the shape of the ``rushhour.analyze`` document (docs/json.md) without its
        ``schema`` and ``version``.  ``histogram[d]`` counts the positions ``d`` from the nearest win;
        distances are null for an unsolvable cluster."""
        solvable = self.solvable
        top = max(self.histogram, default=-1)
        return {
            "board": board_ref(self.board),
            "metric": self.metric,
            "status": "solvable" if solvable else "unsolvable",
            "cluster_size": self.cluster_size,
            "won_count": self.won_count,
            "start_distance": self.start_distance if solvable else None,
            "histogram": [self.histogram.get(d, 0) for d in range(top + 1)],
            "hardest": board_ref(self.hardest),
            "hardest_distance": self.hardest_distance if solvable else None,
            "cluster_key": list(self.cluster_key),
            "explored": self.cluster_size,
            "seconds": round(self.seconds, 6),
            "message": None,
        }


def analyze(
    board: Board,
    *,
    metric: str = "moves",
    max_states: int | None = None,
    time_limit: float | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    progress: Callable[[SearchProgress], object] | None = None,
) -> Analysis:
    """Explore the whole cluster of ``board``; raises LimitReachedError when a limit is hit.  The
    compiled analysis (rushhour/search/_analysis.c) is used when it was built: the same answer as
    :func:`analyze_python`, without handing every position back to Python.  ``progress`` is called
    now and then with a :class:`~rushhour.search.watch.SearchProgress` record of the ``analysis``:
    the positions found, then the positions given their distance to the nearest win."""
    metric = check_metric(metric)
    expect_callable(progress, "progress")
    if native.native_enabled():
        limits = Limits(max_states, time_limit, max_memory)
        if progress is not None:
            limits.report = Reporter(ANALYSIS, progress)
        return _analyze_native(board, metric, limits)
    return analyze_python(board, metric=metric, max_states=max_states, time_limit=time_limit,
                          max_memory=max_memory, progress=progress)


def _analyze_native(board: Board, metric: str, limits: Limits) -> Analysis:
    assert native.compiled is not None
    began = time.perf_counter()
    spec = native_spec_for(board.layout, metric)
    left = memory_left(limits)  # the moves kept come out of the memory the limit leaves
    edges = EDGE_BYTES if left is None else max(0, min(EDGE_BYTES, left // 4))
    status, size, won, hist, hardest, start_distance, smallest = native.compiled.analyze(
        spec,
        board.state,
        native_cap(limits, len(spec.vehicles), False, reserved=edges, left=left),
        seconds_left(limits),
        edges,
        native_poll(limits, STAGES.__getitem__),
    )
    if status == 2:
        stopped_at_limit(limits, size)
    assert won is not None and hist is not None and hardest is not None and smallest is not None
    assert start_distance is not None
    return Analysis(
        board=board,
        metric=metric,
        cluster_size=size,
        won_count=won,
        histogram=dict(enumerate(hist)),
        hardest=Board.from_layout(board.layout, hardest),
        hardest_distance=len(hist) - 1,
        start_distance=start_distance,
        cluster_key=smallest,
        seconds=time.perf_counter() - began,
    )


def analyze_python(
    board: Board,
    *,
    metric: str = "moves",
    max_states: int | None = None,
    time_limit: float | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    progress: Callable[[SearchProgress], object] | None = None,
) -> Analysis:
    """:func:`analyze` by the Python breadth-first searches (compiled layers when built)."""
    began = time.perf_counter()
    metric = check_metric(metric)
    limits = Limits(max_states, time_limit, max_memory)
    if progress is not None:
        limits.report = Reporter(ANALYSIS, progress)
    tables = tables_for(board.layout, metric)
    start = tables.pack(board.state)
    cluster = reachable(tables, start, limits)
    shift, won_offsets = tables.goal_shift, tables.won_offsets
    wins = sorted(z for z in cluster if (z >> shift) & 15 in won_offsets)
    smallest = min(cluster)
    key = tables.unpack(smallest)
    if not wins:
        return Analysis(
            board=board,
            metric=metric,
            cluster_size=len(cluster),
            won_count=0,
            histogram={},
            hardest=tables.board(smallest),
            hardest_distance=-1,
            start_distance=-1,
            cluster_key=key,
            seconds=time.perf_counter() - began,
        )
    rings = layers(tables, wins, limits)  # the same positions again: within max_states by now
    histogram = {d: len(ring) for d, ring in enumerate(rings)}
    start_distance = next(d for d, ring in enumerate(rings) if start in ring)
    return Analysis(
        board=board,
        metric=metric,
        cluster_size=len(cluster),
        won_count=len(wins),
        histogram=histogram,
        hardest=tables.board(min(rings[-1])),
        hardest_distance=len(rings) - 1,
        start_distance=start_distance,
        cluster_key=key,
        seconds=time.perf_counter() - began,
    )


class KnownClusters:
    """The analyses of one run that asks about the same positions again and again (an annealing draws
    the same change of a board it did not leave, or comes back to a board by another change: a quarter
    of a 9x9 generator try's analyses, docs/benchmarks.md).  :meth:`analyze` answers as
    :func:`analyze` does, without a search where an answer kept settles the question: a cluster
    explored is within any limit of at least its size and past any smaller one (a search stops once it
    holds more positions than its limit), and one that stopped at a limit is past any smaller limit.
    The hardest position of a cluster explored is kept with it, as an analysis from there would give
    it.  Keeps the answers about the ``maxsize`` positions asked about or met last (by default
    :data:`KNOWN_CLUSTERS`): one object a run.

    >>> clusters = KnownClusters()
    >>> board = Board.from_text("AA.B../...B../...B../....../....../......")
    >>> a = clusters.analyze(board)
    >>> a.cluster_size, a.start_distance, a.hardest_distance
    (18, 2, 2)
    >>> clusters.analyze(board, max_states=10)
    Traceback (most recent call last):
    ...
    rushhour.errors.LimitReachedError: the cluster holds more than 17 positions (the limit is 10)
    >>> clusters.analyze(a.hardest).start_distance, clusters.searches
    (2, 1)
    """

    def __init__(self, metric: str = "moves", maxsize: int | None = None) -> None:
        self.metric = metric
        self.maxsize = KNOWN_CLUSTERS if maxsize is None else maxsize
        #: the analyses made so far (the others were answered by one kept)
        self.searches = 0
        # by position: its cluster's analysis, or None and a limit that the cluster is larger than
        self._known: OrderedDict[Board, tuple[Analysis | None, int]] = OrderedDict()

    def _keep(self, board: Board, answer: tuple[Analysis | None, int]) -> None:
        self._known[board] = answer
        self._known.move_to_end(board)
        if len(self._known) > self.maxsize:
            self._known.popitem(last=False)

    def analyze(self, board: Board, *, max_states: int | None = None, time_limit: float | None = None
                ) -> Analysis:
        """:func:`analyze` with ``max_states`` and ``time_limit``, an answer kept where it settles it;
        raises :class:`LimitReachedError` as it does (``explored`` 0 when no search ran)."""
        entry = self._known.get(board)
        if entry is not None:  # asked about before: the most recently used now
            self._known.move_to_end(board)
        known, past = entry or (None, 0)
        if known is not None and (max_states is None or known.cluster_size <= max_states):
            return known
        if known is not None or (max_states is not None and max_states <= past):
            assert max_states is not None
            more = known.cluster_size - 1 if known is not None else past
            raise LimitReachedError(
                f"the cluster holds more than {plural(more, 'position')} (the limit is {max_states:,})")
        self.searches += 1
        try:
            a = analyze(board, metric=self.metric, max_states=max_states, time_limit=time_limit)
        except LimitReachedError as stopped:
            if max_states is not None and stopped.explored > max_states:  # not the time or the memory
                self._keep(board, (None, max(max_states, past)))
            raise
        if a.hardest != board and a.hardest not in self._known:
            there = replace(a, board=a.hardest, start_distance=a.hardest_distance)
            self._keep(a.hardest, (there, a.cluster_size))
        self._keep(board, (a, a.cluster_size))
        return a
