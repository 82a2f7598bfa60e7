"""The generator's two sources of truth made to disagree: every kept puzzle is solved from scratch and
must need exactly the analysed number of moves.  An analysis that is off by one (either way) must stop
the run with an error, never give a puzzle whose length is the analysis's word alone."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

import rushhour.search.analysis as analysis_module
from rushhour.errors import SolverError
from rushhour.generator import Generator, Settings
from rushhour.search import Analysis


def _off_by(delta: int, real: Callable[..., Analysis]) -> Callable[..., Analysis]:
    """``analyze`` (the one every analysis of the generator comes from) with every distance to a win ``delta`` moves off (unsolvable clusters kept as they are)."""

    def analyze(*args: object, **kwargs: object) -> Analysis:
        a = real(*args, **kwargs)
        if not a.solvable:
            return a
        return dataclasses.replace(
            a, hardest_distance=a.hardest_distance + delta, start_distance=a.start_distance + delta
        )

    return analyze


@pytest.mark.parametrize("method", ["rewind", "walk"])
def test_the_unchanged_analysis_makes_puzzles(method: str) -> None:
    """The runs below make puzzles when nothing is off: what stops them is the disagreement."""
    made = list(Generator(Settings(min_moves=4, max_moves=12, seed=5, method=method)).run(2))
    assert len(made) == 2


@pytest.mark.parametrize("method", ["rewind", "walk"])
@pytest.mark.parametrize("delta", [1, -1])
def test_an_analysis_off_by_one_stops_the_run(monkeypatch: pytest.MonkeyPatch, method: str, delta: int) -> None:
    monkeypatch.setattr(analysis_module, "analyze", _off_by(delta, analysis_module.analyze))
    with pytest.raises(SolverError, match=r"the solver needs \d+ moves on a position the analysis puts at \d+"):
        list(Generator(Settings(min_moves=4, max_moves=12, seed=5, method=method)).run(2))
