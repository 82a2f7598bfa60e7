"""Arguments of the wrong type given to the board model: each is refused where it is given, with an
error of the one family (:class:`RushHourError`) that names the field and quotes the value; never a
corrupt Board, never a raw TypeError, ValueError or AttributeError from deep inside."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rushhour
import rushhour.logic
from rushhour.board import Board, Exit, Move, Target, Vehicle
from rushhour.errors import ArgumentTypeError, BoardError, RushHourError

ROW = "AA..../....../......"

#: anything but a whole number: floats (whole ones too), bools, text, None, containers
NOT_WHOLE = st.one_of(
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
    st.tuples(st.integers()),
    st.decimals(allow_nan=False, allow_infinity=False),
)
#: anything but a str
NOT_TEXT = st.one_of(
    st.integers(), st.floats(allow_nan=False), st.none(), st.booleans(), st.binary(max_size=2)
)


# --- 1. a Move's fields --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("vehicle", "distance", "field", "quoted"),
    [
        ("A", 1.5, "distance", "1.5"),
        ("A", 1.0, "distance", "1.0"),
        ("A", True, "distance", "True"),
        ("A", "2", "distance", "'2'"),
        (None, 1, "vehicle", "None"),
        (5, 1, "vehicle", "5"),
    ],
)
def test_a_move_of_wrong_field_types_is_refused_naming_the_field(
    vehicle: Any, distance: Any, field: str, quoted: str
) -> None:
    """``Move("A", 1.5)`` was taken: apply made a Board of state ``(1.5,)`` that could not be drawn,
    written or asked for its moves; ``Move(None, 1)`` failed on ``None.casefold``."""
    with pytest.raises(ArgumentTypeError) as caught:
        Move(vehicle, distance)
    assert field in str(caught.value) and quoted in str(caught.value)


def test_no_corrupt_board_from_a_float_distance() -> None:
    board = Board.from_text(ROW)
    with pytest.raises(ArgumentTypeError):
        board.apply(Move("A", 1.5))
    with pytest.raises(ArgumentTypeError):
        board.replay([Move("A", 1.5)])
    assert board.apply(Move("A", 1)).state == (1,)  # whole moves still slide


def test_a_float_move_on_a_classic_level_says_what_is_wrong() -> None:
    """Building the error message called ``format(1.5, '+d')``: ValueError instead of a refusal."""
    with pytest.raises(ArgumentTypeError, match="1.5"):
        rushhour.load("classic:1").apply(Move("A", 1.5))


def test_explain_refuses_a_float_move() -> None:
    with pytest.raises(ArgumentTypeError, match="1.5"):
        rushhour.logic.explain(Board.from_text(ROW), Move("A", 1.5))


@given(st.one_of(NOT_WHOLE, st.integers(-3, 3)), st.one_of(NOT_TEXT, st.sampled_from(["A", "a", "B", ""])))
def test_any_move_is_a_refusal_of_the_family_or_a_sound_board(distance: Any, vehicle: Any) -> None:
    """Whatever the fields, applying a move either gives a board that draws and writes itself, or
    raises a RushHourError; nothing else escapes."""
    board = Board.from_text(ROW)
    try:
        after = board.apply(Move(vehicle, distance))
    except RushHourError:
        return
    assert isinstance(distance, int) and not isinstance(distance, bool) and isinstance(vehicle, str)
    assert all(type(o) is int for o in after.state)
    assert Board.from_text(after.to_text()) == after and after.legal_moves() and repr(after)


def test_moves_the_code_makes_are_still_accepted() -> None:
    """Distance 0 is a value (runs of moves may cancel out); the board refuses to play it."""
    assert Move("A", 0).distance == 0
    assert str(Move("A", -2)) == "A-2" and Move.parse("B+3") == Move("B", 3)
    with pytest.raises(RushHourError, match="distance 0"):
        Board.from_text(ROW).apply(Move("A", 0))


# --- 2. an exit index or a target cell that is not a whole number -------------------------------
CAR = [Vehicle("A", "H", 2, 0, 0)]


@pytest.mark.parametrize(
    ("make", "quoted"),
    [
        (lambda: Board(6, 6, CAR, exit=Exit("right", 0.0)), "0.0"),
        (lambda: Board(6, 6, CAR, exit=Exit("right", False)), "False"),
        (lambda: Board(6, 6, CAR, exit=Exit("right", "0")), "'0'"),
        (lambda: Board(6, 6, CAR, target=Target(0.0, 3, "east"), wrap=True), "0.0"),
        (lambda: Board(6, 6, CAR, target=Target(0, 5.0, "east"), wrap=True), "5.0"),
        (lambda: Board(6, 6, CAR, target=Target("0", 5, "east"), wrap=True), "'0'"),
        (lambda: Board(6, 6, CAR, target=Target(0, None, "east"), wrap=True), "None"),
        (lambda: Board(6, 6, CAR, target=Target(False, 5, "east"), wrap=True), "False"),
    ],
)
def test_an_exit_or_target_of_wrong_numbers_is_refused(make: Any, quoted: str) -> None:
    """``Exit("right", 0.0)`` made a board whose JSON said ``"index": 0.0`` and could not be read back;
    ``Target("0", 5, "east")`` failed on ``0 <= "0"`` with a raw TypeError."""
    with pytest.raises(BoardError) as caught:
        make()
    assert quoted in str(caught.value)


@given(NOT_WHOLE)
def test_any_exit_index_that_is_not_whole_is_refused(index: Any) -> None:
    with pytest.raises(BoardError):
        Board(6, 6, CAR, exit=Exit("right", index))


@given(NOT_WHOLE, st.booleans())
def test_any_target_cell_that_is_not_whole_is_refused(value: Any, as_row: bool) -> None:
    target = Target(value, 5, "east") if as_row else Target(0, value, "east")
    with pytest.raises(BoardError):
        Board(6, 6, CAR, target=target, wrap=True)


def test_whole_exits_and_targets_still_round_trip() -> None:
    bounded = Board(6, 6, CAR, exit=Exit("right", 0))
    assert json.loads(bounded.to_text("json"))["exit"]["index"] == 0
    assert Board.from_text(bounded.to_text("json")) == bounded
    wrapped = Board(6, 6, CAR, target=Target(0, 3, "east"), wrap=True)
    assert "# target: 0,3 east" in wrapped.to_text("grid")
    assert Board.from_text(wrapped.to_text("grid")) == wrapped


# --- 3. cells_of and at -------------------------------------------------------------------------
@pytest.mark.parametrize("name", [5, None, 1.5, ("A",)])
def test_cells_of_refuses_a_name_that_is_no_str_as_vehicle_does(name: Any) -> None:
    board = Board.from_text(ROW)
    with pytest.raises(ArgumentTypeError) as by_vehicle:
        board.vehicle(name)
    with pytest.raises(ArgumentTypeError) as by_cells:
        board.cells_of(name)
    assert str(by_cells.value) == str(by_vehicle.value)


@pytest.mark.parametrize("cell", [(0,), (0, 1, 2), (), "ab", 5, None, (0.0, 1), (True, 0), ("0", 1)])
def test_at_refuses_a_cell_that_is_not_a_pair_of_whole_numbers(cell: Any) -> None:
    """``at((0,))`` raised ValueError from unpacking, ``at(5)`` a TypeError."""
    with pytest.raises(ArgumentTypeError, match="cell"):
        Board.from_text(ROW).at(cell)


def test_at_still_reads_cells_and_refuses_cells_off_the_board() -> None:
    board = Board.from_text(ROW)
    assert board.at((0, 1)) == "A" and board.at([0, 2]) is None
    with pytest.raises(BoardError, match=r"cell \(2, -1\) is off the 6x3 board"):
        board.at((2, -1))


@given(st.one_of(NOT_WHOLE, st.tuples(NOT_WHOLE, st.integers(0, 2)), st.tuples(st.integers(0, 2), NOT_WHOLE)))
def test_at_raises_only_errors_of_the_family(cell: Any) -> None:
    with pytest.raises(RushHourError):
        Board.from_text(ROW).at(cell)
