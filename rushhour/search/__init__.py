"""Solvers, proofs of unsolvability and cluster analysis.

``solve(board, engine=..., metric=...)`` returns a :class:`Solution` replayed by :func:`verify`;
``analyze(board)`` explores a board's whole reachable set (:class:`Analysis`).  The engines search
packed positions with precomputed bitboards (:mod:`rushhour.search.tables`).
"""

from rushhour.search.analysis import Analysis, analyze
from rushhour.search.engines import DEFAULT_ENGINE, ENGINES, solve
from rushhour.search.heuristics import HEURISTICS
from rushhour.search.solution import Solution, verify
from rushhour.search.walk import improve

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "HEURISTICS",
    "Analysis",
    "Solution",
    "analyze",
    "improve",
    "solve",
    "verify",
]
