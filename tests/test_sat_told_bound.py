"""SAT planning from a told lower bound (``solve --engine sat --min-moves K``) brings in the canonical
order of commuting moves only once a length needs it, as planning from the relaxed bound does: on the
6x6 boards, where every length is settled by the plain formula, building it from the start made the
planning several times slower than starting from one move."""

from __future__ import annotations

import pytest

from rushhour.levels import resolve_board
from rushhour.logic import planner
from rushhour.logic.planner import plan


def _count_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    built: list[int] = []
    real = planner._Formula.build_canonical

    def build(self: planner._Formula) -> None:
        built.append(len(self.A))
        real(self)

    monkeypatch.setattr(planner._Formula, "build_canonical", build)
    return built


def test_a_told_bound_on_an_easy_board_stays_with_the_plain_formula(monkeypatch: pytest.MonkeyPatch) -> None:
    built = _count_builds(monkeypatch)
    entry = resolve_board("advanced:1")
    result = plan(entry.board, min_moves=18)
    assert result.length == int(entry.meta["moves"]) == 20
    assert built == []  # no length took the plain formula HARD_CONFLICTS conflicts


@pytest.mark.parametrize(
    "name", ["intermediate:1", "intermediate:25", "intermediate:40", "walls:10", "walls:30"]
)
def test_a_length_the_plain_formula_does_not_settle_brings_in_the_race(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """With a budget of a few conflicts the first length tried from a told bound is "hard": the
    canonical formula is built there and races the plain one, and the plan found is the optimum."""
    monkeypatch.setattr(planner, "HARD_CONFLICTS", 20)
    built = _count_builds(monkeypatch)
    entry = resolve_board(name)
    want = int(entry.meta["moves"])
    assert planner.relaxed_bound(entry.board, "moves") < want - 2  # so the bound told is news
    result = plan(entry.board, min_moves=want - 2)
    assert result.length == want
    assert built and built[0] == want - 2


def test_the_sat_engine_from_min_moves_gives_the_optimum(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli import run

    code, out, err = run(capsys, "solve", "advanced:1", "--engine", "sat", "--min-moves", "18")
    assert (code, err) == (0, "")
    # 18 is above the relaxed bound: the length is the optimum, not proven so here
    assert "Solution (not proven optimal): 20 moves, 30 steps (sat engine" in out
