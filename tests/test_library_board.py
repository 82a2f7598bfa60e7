"""The board as a library user meets it: arguments of the wrong kind refused by name, round trips through
every text format as Board.to_text promises them, and any constructor call or move either a sound board
or an error of the RushHourError family."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rushhour
from rushhour import (
    ArgumentTypeError,
    Board,
    BoardError,
    Exit,
    FormatError,
    Move,
    ParameterError,
    Target,
    Vehicle,
)
from rushhour.formats.single import board_ref
from tests.strategies import positions

SMALL = "AA.B/...B/CC../...."
CAR = [Vehicle("A", "H", 2, 0, 0)]
FORMATS = ("grid", "fogleman", "csv", "json", "rows")


# --- arguments of the wrong kind -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Board(6, 6, None), "vehicles must be Vehicle records (a list or another iterable), not NoneType"),
        (lambda: Board(6, 6, 3), "vehicles must be Vehicle records (a list or another iterable), not int"),
        (lambda: Board(6, 6, CAR, walls=None), "walls must be cells (row, column) (a list or another iterable), not NoneType"),
        (lambda: Board(6, 6, CAR, walls=7), "walls must be cells (row, column) (a list or another iterable), not int"),
        (lambda: Board.from_text(SMALL).with_state(None), "state must be offsets, one a vehicle in the order of names, not NoneType"),
        (lambda: Board.from_text(SMALL).rows(None), "empty must be one character (a str), not NoneType"),
        (lambda: Board.from_text(SMALL, 3), "format must be a format's name (grid, fogleman, csv, json or rows) or None, not int"),
        (lambda: Board.from_text(SMALL).to_text(None), "format must be a format's name (grid, fogleman, csv, json or rows), not NoneType"),
    ],
)
def test_an_argument_of_the_wrong_kind_is_refused_by_name(call: Any, message: str) -> None:
    """None or a number where an iterable or a name belongs raised Python's own TypeError from inside
    (or an 'unknown format 3' of no subclass); each is an ArgumentTypeError that names the argument."""
    with pytest.raises(ArgumentTypeError) as caught:
        call()
    assert str(caught.value) == message


def test_the_character_of_empty_cells_is_one_character() -> None:
    """``rows("")`` drew rows of other lengths than the board's width (``['AA', '', '']`` for a 3x3)."""
    board = Board.from_text("AA./.../...")
    assert board.rows() == ["AA.", "...", "..."] and board.rows("o") == ["AAo", "ooo", "ooo"]
    for empty, count in (("", 0), ("..", 2)):
        with pytest.raises(ParameterError, match=f"^empty must be one character, not {count} characters$"):
            board.rows(empty)


@pytest.mark.parametrize(("width", "shown"), [("6", "'6'"), (6.0, "6.0"), (None, "None")])
def test_a_side_that_is_no_whole_number_is_quoted_as_given(width: object, shown: str) -> None:
    """``Board("6", 6, ...)`` said 'board width 6 is out of range: sides are 3 to 16', of a 6."""
    with pytest.raises(BoardError) as caught:
        Board(width, 6, CAR)  # type: ignore[arg-type]
    assert str(caught.value) == f"board width {shown} is out of range: sides are whole numbers 3 to 16"
    with pytest.raises(BoardError, match="^board height 17 is out of range: sides are 3 to 16$"):
        Board(6, 17, CAR)


# --- what to_text promises -------------------------------------------------------------------------
def test_fogleman_text_relabels_names_it_cannot_hold_and_keeps_the_cells() -> None:
    """Board.to_text said every format reads back as the same board; the Fogleman format renames the
    vehicles (goal A, then B, C...) when their names are not its own, as docs/formats.md says."""
    board = Board(4, 4, [Vehicle("car", "H", 2, 1, 0), Vehicle("Z", "V", 2, 0, 3)], goal="car")
    back = Board.from_text(board.to_text("fogleman"))
    assert back.names == ("A", "B") and back.goal == "A" and back != board
    assert [row.replace("A", "c").replace("B", "Z") for row in back.rows()] == board.rows()
    for fmt in ("grid", "json", "csv"):
        assert Board.from_text(board.to_text(fmt)) == board, fmt


@settings(max_examples=120)
@given(positions(max_side=16, max_vehicles=20))
def test_every_format_reads_back_as_to_text_promises(board: Board) -> None:
    """Through each format the same board (Fogleman: the same cells, renamed), read with the format
    named in any case or detected; written again, the same text; or the writer's FormatError."""
    for fmt in FORMATS:
        try:
            text = board.to_text(fmt)
        except FormatError:
            assert fmt in ("fogleman", "csv", "rows"), fmt
            continue
        back = Board.from_text(text)
        assert Board.from_text(text, fmt.upper()) == back and back.to_text(fmt) == text, fmt
        if fmt == "fogleman":
            assert _same_cells(back, board)
        else:
            assert back == board and hash(back) == hash(board), fmt
    ref = board_ref(board)  # the board of every result's to_dict() and every JSON document
    assert Board.from_text(ref["text"]) == board and len(ref["text"]) >= 9


def _same_cells(one: Board, other: Board) -> bool:
    """The same walls, and vehicles of the same shapes at the same cells, whatever their names."""
    def shapes(b: Board) -> set[tuple[str, int, tuple[tuple[int, int], ...]]]:
        return {(v.orientation, v.length, tuple(b.cells_of(v.name))) for v in b.vehicles}

    goal_cells = lambda b: tuple(b.cells_of(b.goal))  # noqa: E731
    return one.walls == other.walls and shapes(one) == shapes(other) and goal_cells(one) == goal_cells(other)


@settings(max_examples=80)
@given(positions(max_side=16, max_vehicles=20))
def test_a_board_is_a_value(board: Board) -> None:
    """str and repr as documented, equal boards hash equal (rebuilt from parts, pickled, copied), and
    every legal move round-trips its notation and is undone by the opposite move."""
    assert str(board) == "\n".join(board.rows())
    assert repr(board) == f"<Board {board.width}x{board.height} {' '.join(board.rows())}>"
    rebuilt = Board(
        board.width, board.height, board.vehicles, walls=board.walls, goal=board.goal,
        exit=board.exit, target=board.target, wrap=board.wrap,
    )
    for same in (rebuilt, pickle.loads(pickle.dumps(board)), copy.deepcopy(board), board.with_state(board.state)):
        assert same == board and hash(same) == hash(board)
    for move in board.legal_moves():
        assert Move.parse(str(move)) == move
        after = board.apply(move)
        assert after.apply(Move(move.vehicle, -move.distance)) == board
        assert board.replay(str(move)) == after == board.replay([move])


# --- any call: a sound board or an error of the family ---------------------------------------------
ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.floats(allow_nan=True), st.text(max_size=3),
    st.tuples(st.integers(-1, 6), st.integers(-1, 6)),
)
NUMBERS = st.one_of(st.integers(-2, 18), ANYTHING)
VEHICLES = st.builds(
    Vehicle,
    st.one_of(st.sampled_from(["A", "B", "car9", "a"]), ANYTHING),
    st.one_of(st.sampled_from(["H", "V"]), ANYTHING),
    st.one_of(st.integers(1, 5), ANYTHING),
    NUMBERS,
    NUMBERS,
)


@settings(max_examples=300)
@given(
    width=NUMBERS,
    height=NUMBERS,
    vehicles=st.one_of(st.lists(VEHICLES, max_size=4), ANYTHING),
    walls=st.one_of(st.lists(ANYTHING, max_size=3), ANYTHING),
    goal=st.one_of(st.sampled_from(["A", "B", "a"]), ANYTHING),
    exit=st.one_of(st.sampled_from(["right", "left", "top", "bottom", "up"]), st.builds(Exit, ANYTHING, NUMBERS), ANYTHING),
    target=st.one_of(st.none(), st.builds(Target, NUMBERS, NUMBERS, st.sampled_from(["east", "west", "north", "south", "up"]))),
    wrap=st.one_of(st.booleans(), ANYTHING),
)
def test_any_constructor_call_is_a_sound_board_or_a_refusal_of_the_family(
    width: Any, height: Any, vehicles: Any, walls: Any, goal: Any, exit: Any, target: Any, wrap: Any
) -> None:
    try:
        board = Board(width, height, vehicles, walls=walls, goal=goal, exit=exit, target=target, wrap=wrap)
    except rushhour.RushHourError:
        return
    assert Board.from_text(board.to_text()) == board == Board.from_text(board.to_text("json"))
    assert all(type(o) is int for o in board.state) and board.legal_moves() is not None


@settings(max_examples=200)
@given(positions(max_side=10), st.one_of(st.sampled_from(["A", "B", "a", "car9", "v1"]), st.text(max_size=3)),
       st.one_of(st.integers(-20, 20), st.integers()))
def test_any_move_is_legal_exactly_when_the_rules_list_it(board: Board, name: str, distance: int) -> None:
    move = Move(name, distance)
    legal = [(board.layout.index(m.vehicle), m.distance) for m in board.legal_moves()]
    try:
        after = board.apply(move)
    except rushhour.MoveError:
        try:
            index = board.layout.index(name)
        except rushhour.UnknownVehicleError:
            return
        assert (index, distance) not in legal
        return
    assert (board.layout.index(name), distance) in legal and after != board


def test_replay_names_the_move_it_cannot_read() -> None:
    """An unreadable move of a long list was refused without its number, where an illegal one has it."""
    board = Board.from_text("AA...B/.....B/CC.D../...D../EEE.../......")
    with pytest.raises(rushhour.MoveError) as caught:
        board.replay("B+1, A+1, A2")
    assert str(caught.value) == "move 3: cannot read move 'A2': write a vehicle and a signed distance, like A+2 or B-1"
    with pytest.raises(rushhour.MoveError, match=r"^move 2: move 'A\+0' has distance 0"):
        board.replay(["B+1", "A+0"])
    with pytest.raises(rushhour.IllegalMoveError, match=r"^move 2 \(A\+9\): A\+9 is illegal"):
        board.replay(["B+1", "A+9"])
    assert board.replay("B+1 A+4").is_won()


@pytest.mark.parametrize("value", ["Auto", "auto ", "1G", True, 1.5])
def test_a_memory_bound_of_the_wrong_kind_names_auto_among_what_it_may_be(value: object) -> None:
    """``max_memory="Auto"`` was told 'must be a whole number of bytes or None', leaving out the
    default it misspelt."""
    for call in (rushhour.solve, rushhour.analyze):
        with pytest.raises(ArgumentTypeError) as caught:
            call("classic:1", max_memory=value)  # type: ignore[arg-type]
        assert str(caught.value) == (
            f"max_memory must be a whole number of bytes or None (or 'auto', the default), not {type(value).__name__}"
        )
    assert rushhour.solve("classic:1", max_memory="auto").length == rushhour.solve("classic:1", max_memory=None).length == 4


def test_settings_out_of_range_are_parameter_errors() -> None:
    """An unknown format's name, an unknown generator method and a size the generator does not make were
    bare RushHourErrors, of no class a program could catch apart from every other failure."""
    with pytest.raises(rushhour.ParameterError, match=r"^unknown format 'xml': use one of grid, fogleman"):
        Board.from_text("AA.B/...B/CC../....", "xml")
    with pytest.raises(rushhour.ParameterError, match=r"^unknown format 'xml'"):
        Board.from_text("AA.B/...B/CC../....").to_text("xml")
    with pytest.raises(rushhour.ParameterError, match=r"^unknown method 'x': use anneal, rewind or walk$"):
        rushhour.generate(1, method="x")
    with pytest.raises(rushhour.ParameterError, match=r"^board width 13 is out of range: sizes are 5x5 to 12x12$"):
        rushhour.generate(1, width=13)


def test_enumerate_error_is_the_library_s_own() -> None:
    """EnumerateError lived in rushhour.database.definitions, which tracebacks named, and the package
    did not export it."""
    with pytest.raises(rushhour.EnumerateError) as caught:
        rushhour.enumerate_database(9)
    assert type(caught.value).__module__ == "rushhour.errors"
    assert isinstance(caught.value, rushhour.RushHourError)
