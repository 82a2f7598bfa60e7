"""The cache that closes what it drops: the SAT oracles of board shapes."""

from __future__ import annotations

import doctest
import random

import pytest

import rushhour.logic.oracle as oracle_mod
import rushhour.lru
from rushhour.logic.oracle import MoveOracle, legal_moves
from rushhour.lru import ClosingLRU
from tests.strategies import any_board


class Held:
    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(rushhour.lru)
    assert tried > 0 and failures == 0


def test_the_least_recently_used_value_is_closed_first() -> None:
    cache: ClosingLRU[int, Held] = ClosingLRU(3)
    held = [cache.get(k, lambda k=k: Held(str(k))) for k in range(3)]  # type: ignore[misc]
    assert cache.get(0, lambda: Held("again")) is held[0]
    cache.get(3, lambda: Held("3"))
    assert [h.closed for h in held] == [False, True, False]
    assert list(cache) == [2, 0, 3]
    cache.clear()
    assert all(h.closed for h in held) and len(cache) == 0
    with pytest.raises(ValueError):
        ClosingLRU(0)


def test_an_evicted_oracle_has_its_solver_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    oracle_mod._ORACLES.clear()  # the oracles other tests left, closed before counting starts
    closed: list[MoveOracle] = []
    real_close = MoveOracle.close

    def close(self: MoveOracle) -> None:
        closed.append(self)
        real_close(self)

    monkeypatch.setattr(MoveOracle, "close", close)
    rng = random.Random(3)
    shapes = set()
    while len(shapes) <= oracle_mod.MAX_SHAPES:
        board = any_board(rng, min_side=4, max_side=5)
        assert legal_moves(board) == board.legal_moves()
        shapes.add(oracle_mod.shape_of(board.layout))
    assert len(oracle_mod._ORACLES) == oracle_mod.MAX_SHAPES
    assert len(closed) == len(shapes) - oracle_mod.MAX_SHAPES
    assert all(oracle.shape not in {key[0] for key in oracle_mod._ORACLES} for oracle in closed)
    oracle_mod._ORACLES.clear()
