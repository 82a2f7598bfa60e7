"""Exact counts checked against independent counts: a list of every position built without the
encoding (3x3, 4x4), a dynamic programme over the cells (any size), and the enumerator's own layout
count where its definitions match; likelihoods against the same lists."""

from __future__ import annotations

import importlib.util
import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from rushhour import logic
from rushhour.board import HORIZONTAL
from rushhour.cli import main
from rushhour.errors import RushHourError
from rushhour.logic import notation as fm
from rushhour.logic.counting import count_solutions, count_with_likelihoods, likelihood
from rushhour.logic.encoding import Shape
from tests.test_claims import claims, holds, truths

ROOT = Path(__file__).resolve().parent.parent


def positions_by_cells(width: int, height: int, walls: bool) -> int:
    """The number of positions of the generic shape, by a dynamic programme over the cells in reading
    order (the state: which of the next cells are covered already, and whether the red car is placed)."""
    shape = Shape.generic(width, height)
    kinds = [(o, n, False) for o, n in shape.kinds] + [(HORIZONTAL, 2, True)]

    @cache
    def ways(k: int, covered: int, red: bool) -> int:
        if k == width * height:
            return int(red)
        if covered & 1:
            return ways(k + 1, covered >> 1, red)
        r, c = divmod(k, width)
        total = ways(k + 1, covered >> 1, red) * (2 if walls else 1)  # empty, or a wall
        for o, n, is_red in kinds:
            if is_red and (red or r != shape.goal_line):
                continue
            if o == HORIZONTAL:
                bits = sum(1 << t for t in range(n)) if c + n <= width else None
            else:
                bits = sum(1 << (t * width) for t in range(n)) if r + n <= height else None
            if bits is not None and not covered & bits:
                total += ways(k + 1, (covered | bits) >> 1, red or is_red)
        return total

    return ways(0, 0, False)


@pytest.mark.parametrize(("width", "height", "walls"), [(3, 3, False), (3, 3, True), (4, 4, False)])
def test_counts_equal_the_list_of_every_position(width: int, height: int, walls: bool) -> None:
    listed = truths(width, height, walls)
    assert count_solutions((width, height), walls=walls) == len(listed)
    assert positions_by_cells(width, height, walls) == len(listed)


@pytest.mark.parametrize(
    ("width", "height", "walls"), [(4, 4, True), (3, 5, True), (5, 3, False), (4, 5, False)]
)
def test_counts_equal_the_cell_by_cell_count(width: int, height: int, walls: bool) -> None:
    assert count_solutions((width, height), walls=walls) == positions_by_cells(width, height, walls)


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "walls"), [(5, 5, True), (6, 6, False), (6, 6, True)])
def test_large_counts_equal_the_cell_by_cell_count(width: int, height: int, walls: bool) -> None:
    assert count_solutions((width, height), walls=walls) == positions_by_cells(width, height, walls)


def test_likelihoods_equal_the_shares_of_the_list() -> None:
    shape = Shape.generic(4, 4)
    listed = truths(4, 4, False)
    formulas = ["Won", "CMR(1,1)", "exists j: Empty(1,j)", "forall i: ~V3(i,0)", "Red(1,0) -> CML(1,0)"]
    total, odds = count_with_likelihoods(shape, None, formulas)
    assert total == len(listed)
    for text, share in zip(formulas, odds, strict=True):
        tree = fm.parse(text).tree
        assert share == Fraction(sum(holds(tree, t, {}, 4, 4) for t in listed), len(listed)), text
    assert likelihood("CMR(1,1)", shape, "Red(1,1)") == Fraction(
        sum("CMR(1,1)" in t for t in listed if "Red(1,1)" in t), sum("Red(1,1)" in t for t in listed)
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claims())
def test_counts_with_a_claim_equal_brute_force(text: str) -> None:
    tree = fm.parse(text).tree
    expected = sum(holds(tree, t, {}, 3, 3) for t in truths(3, 3, True))
    assert count_solutions((3, 3), text, walls=True) == expected, text


def _bench_layouts() -> object:
    spec = importlib.util.spec_from_file_location("bench_enumerate", ROOT / "bench" / "enumerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.layouts


def enumerator_claim(size: int) -> str:
    """The enumerator's layouts as a claim (docs/enumerate.md): the goal car is the only horizontal
    vehicle of its row, no row is full of horizontal vehicles and walls, no column of vertical ones."""
    g = (size - 1) // 2
    return (
        f"(forall j: ~H2({g},j) & ~H3({g},j)) & (forall i: exists j: ~Red(i,j) & ~H2(i,j) & ~H3(i,j) & ~Wall(i,j))"
        " & (forall j: exists i: ~V2(i,j) & ~V3(i,j))"
    )


def test_the_enumerator_layouts_without_walls_are_counted_with_its_definitions() -> None:
    layouts = _bench_layouts()
    assert count_solutions((4, 4), enumerator_claim(4)) == layouts(4, 0)[0] == 9304  # type: ignore[operator]


@pytest.mark.slow
@pytest.mark.parametrize("size", [5, 6])
def test_the_enumerator_layouts_of_larger_boards(size: int) -> None:
    layouts = _bench_layouts()
    assert count_solutions((size, size), enumerator_claim(size)) == layouts(size, 0)[0]  # type: ignore[operator]


def test_a_claim_false_by_itself_counts_nothing() -> None:
    assert count_solutions((3, 3), "false") == count_solutions((3, 3), "Won & ~Won") == 0
    with pytest.raises(RushHourError, match="undefined"):
        likelihood("Won", (3, 3), "false")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: count_solutions((3, 3), fm.Atom("Foo(1,1)")), "claim: the rules have no proposition 'Foo(1,1)'"),
        (lambda: likelihood(fm.Atom("Foo"), (3, 3)), "likelihood formula: the rules have no proposition 'Foo'"),
        (lambda: logic.count_solutions((3, 3), 5), "claim must be a formula"),  # type: ignore[arg-type]
        (lambda: logic.likelihood(None, (3, 3)), "formula must be a formula"),  # type: ignore[arg-type]
        (lambda: likelihood(["Won"], (3, 3)), "formula must be a formula"),  # type: ignore[arg-type]
        (lambda: count_with_likelihoods((3, 3), None, "Won"), "formulas must be a list of formulas, not str"),  # type: ignore[arg-type]
        (lambda: logic.count_solutions((3, 3), walls="no"), "walls must be True or False, not str"),  # type: ignore[arg-type]
        (lambda: count_solutions((3, 3.0)), "where must be a Shape, a Board or a (width, height) size"),  # type: ignore[arg-type]
        (lambda: count_solutions("3x3"), "where must be a Shape, a Board or a (width, height) size, not str"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_arguments_of_the_wrong_type_are_rushhour_errors(call: Any, message: str) -> None:
    """They raised KeyError, AttributeError or TypeError; walls="no" counted the positions with walls."""
    with pytest.raises(RushHourError, match=re.escape(message)):
        call()


def test_a_formula_built_by_hand_counts_as_its_text() -> None:
    """A constant inside a hand-built formula reached Tseitin's transformation: a ValueError."""
    assert count_solutions((3, 3), fm.And((fm.Atom("Won"), fm.Const(True)))) == count_solutions((3, 3), "Won")
    assert likelihood(fm.Or((fm.Atom("Won"), fm.Const(False))), (3, 3)) == likelihood("Won", (3, 3))


def test_count_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "--size", "3x3", "--walls", "--likelihood", "Won"]) == 0
    out = capsys.readouterr().out
    assert "count: 986\n" in out and "likelihood of Won: " in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "--size", "7x7"], "a 7x7 board has 49 cells: exact counts go up to"),
        (["count", "CMR(", "--size", "4x4"], "claim 'CMR(', column 5: expected a number or a variable"),
        (["count", "--size", "4x4", "--likelihood", "Foo(1,1)"], "likelihood formula 'Foo(1,1)', column 1: unknown"),
        (["count", "--size", "4x4", "--likelihood", "Won &"], "likelihood formula 'Won &', column 6: expected"),
        (["count", "Empty(4,0)", "--size", "4x4"], "cell (4,0) is off the 4x4 board"),
        (["count", "--size", "4x"], "cannot read size"),
    ],
)
def test_count_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and message in err and len(err.splitlines()) == 1


def test_ctrl_c_stops_a_long_count_at_once() -> None:
    """Counting the 6x7 positions takes Ganak many seconds; Ctrl-C stopped the command only when the count
    was done. Now: status 130 within a second, the one word of an interrupt."""
    import subprocess
    import sys
    import time

    from tests.processes import ctrl_c
    from tests.terminal import default_signals

    child = subprocess.Popen(
        [sys.executable, "-m", "rushhour", "count", "--size", "6x7"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,  # a shell's background jobs ignore SIGINT, and so would the command
    )
    time.sleep(3)  # the rules built, Ganak counting
    assert child.poll() is None
    began = time.monotonic()
    out, err = ctrl_c(child, seconds=10)
    assert child.returncode == 130 and time.monotonic() - began < 2, (out, err)
    assert "Traceback" not in err and "count:" not in out
