"""The board model and the reference rules."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rushhour.board import HORIZONTAL, VERTICAL, Board, Exit, Move, Target, Vehicle
from rushhour.errors import (
    ArgumentTypeError,
    BoardError,
    IllegalMoveError,
    MoveError,
    RushHourError,
    UnknownVehicleError,
)
from rushhour.formats.grid import parse_grid
from tests.strategies import boards, positions

CLASSIC = parse_grid(
    """
AA...B
.....B
CC.D..
...D..
EEE...
......
# exit: right
"""
)


def grid(text: str) -> Board:
    return parse_grid(text.strip() + "\n")


# --- Move ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["A+2", "B-1", "AA+3", "car9-12"])
def test_move_notation_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert eval(repr(move)) == move


@pytest.mark.parametrize("text", ["A", "A2", "+2", "A+", "A*2", "", "A+0", "A-0", "A +x"])
def test_malformed_moves_are_refused(text: str) -> None:
    with pytest.raises(MoveError):
        Move.parse(text)


# --- construction and validation ------------------------------------------------------------------


def test_board_is_an_immutable_hashable_value() -> None:
    a = grid("..B\nAAB\n...")
    b = grid("..B\nAAB\n...")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.state = (0, 0)  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(a)) == a
    assert a.state == (0, 0)  # A at column 0, B at row 0


def test_state_key_round_trips() -> None:
    b = CLASSIC.apply(Move("D", 2))
    assert CLASSIC.with_state(b.state) == b
    assert Board.from_layout(CLASSIC.layout, b.state) == b


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        (
            dict(vehicles=[Vehicle("A", "H", 2, 0, 0), Vehicle("B", "V", 2, 0, 1)]),
            "B overlaps vehicle A at cell (0,1)",
        ),
        (dict(vehicles=[Vehicle("A", "H", 2, 0, 5)]), "A runs off the 6x6 board at cell (0,6)"),
        (dict(vehicles=[Vehicle("A", "H", 2, 7, 0)]), "off the board"),
        (dict(vehicles=[Vehicle("B", "H", 2, 0, 0)]), "goal vehicle A is missing"),
        (dict(vehicles=[Vehicle("A", "H", 2, 0, 0), Vehicle("A", "V", 2, 2, 2)]), "vehicle A appears twice"),
        (dict(vehicles=[Vehicle("A", "H", 1, 0, 0)]), "length 1"),
        (dict(vehicles=[Vehicle("A", "H", 7, 0, 0)]), "length 7"),
        (dict(vehicles=[Vehicle("A", "D", 2, 0, 0)]), "orientation 'D'"),
        (dict(vehicles=[Vehicle("A-1", "H", 2, 0, 0)]), "letters and digits"),
        (dict(vehicles=[Vehicle("A", "H", 2, 2, 0)], exit="top"), "cannot leave through the top edge"),
        (dict(vehicles=[Vehicle("A", "H", 2, 2, 0)], exit=Exit("right", 3)), "not lined up with the exit"),
        (dict(vehicles=[Vehicle("A", "H", 2, 2, 0)], exit="north"), "unknown exit side"),
        (dict(vehicles=[Vehicle("A", "H", 2, 2, 0)], walls=[(2, 1)]), "A overlaps a wall at cell (2,1)"),
        (dict(vehicles=[Vehicle("A", "H", 2, 2, 0)], walls=[(9, 9)]), "wall at cell (9,9) is off"),
        (dict(vehicles=[]), "no vehicles"),
    ],
)
def test_invalid_boards_are_refused_precisely(kwargs: dict, fragment: str) -> None:
    with pytest.raises(BoardError) as info:
        Board(6, 6, **kwargs)
    assert fragment in str(info.value)
    assert isinstance(info.value, RushHourError)


@pytest.mark.parametrize("size", [(2, 6), (6, 17), (0, 0)])
def test_board_sizes_are_3_to_16(size: tuple[int, int]) -> None:
    with pytest.raises(BoardError, match="out of range"):
        Board(*size, [Vehicle("A", "H", 2, 0, 0)])


def test_wrap_board_errors() -> None:
    with pytest.raises(BoardError, match="fills its whole lane"):
        Board(4, 4, [Vehicle("A", "H", 4, 0, 0)], wrap=True)
    with pytest.raises(BoardError, match="heads north"):
        Board(5, 5, [Vehicle("A", "H", 2, 0, 0)], wrap=True, target=Target(0, 3, "north"))
    with pytest.raises(BoardError, match="not on the target's row"):
        Board(5, 5, [Vehicle("A", "H", 2, 0, 0)], wrap=True, target=Target(1, 3, "east"))
    with pytest.raises(BoardError, match="not an exit"):
        Board(5, 5, [Vehicle("A", "H", 2, 0, 0)], wrap=True, exit="right")
    with pytest.raises(BoardError, match="wrap-around boards"):
        Board(5, 5, [Vehicle("A", "H", 2, 0, 0)], target=Target(0, 3, "east"))


# --- winning -------------------------------------------------------------------------------------


def test_won_means_against_the_exit() -> None:
    assert not CLASSIC.is_won()
    assert grid("....AA\n......\n......").is_won()
    assert grid("# exit: left\nAA....\n......\n......").is_won()
    assert not grid("# exit: left\n.AA...\n......\n......").is_won()
    assert grid("# exit: bottom\n......\n.A....\n.A....").is_won()
    assert grid("A.....\nA.....\n......").is_won()  # vertical goal, default exit top


def test_wrap_goal_is_a_target_cell_and_heading() -> None:
    north = Board(5, 5, [Vehicle("A", "V", 2, 2, 1)], wrap=True, target=Target(2, 1, "north"))
    assert north.is_won()
    south = Board(5, 5, [Vehicle("A", "V", 2, 4, 1)], wrap=True, target=Target(0, 1, "south"))
    assert south.is_won()  # cells (4,1) and (0,1): front (0,1) heading south
    assert not south.apply("A-1").is_won()


def test_an_illegal_move_names_what_stops_it_even_in_the_first_cell_of_a_lane() -> None:
    board = Board(6, 6, [Vehicle("A", "H", 2, 2, 2), Vehicle("B", "V", 2, 2, 0)], goal="A", exit="right")
    expected = {  # the message, what is in the way and the cell it holds
        "A-2": ("A-2 is illegal: B is in the way", "B", (2, 0)),  # column 0 is on the board
        "A+3": ("A+3 is illegal: A would leave the board at the right edge (it can slide 2 right)", None, None),
        "B-3": ("B-3 is illegal: B would leave the board at the top edge (it can slide 2 up)", None, None),
        "B+3": ("B+3 is illegal: B would leave the board at the bottom edge (it can slide 2 down)", None, None),
    }
    for move, (message, blocker, cell) in expected.items():
        with pytest.raises(IllegalMoveError) as caught:
            board.apply(move)
        assert (str(caught.value), caught.value.blocker, caught.value.cell) == (message, blocker, cell)
    stuck = Board(6, 6, [Vehicle("A", "H", 2, 2, 4)], goal="A", exit="right")
    with pytest.raises(IllegalMoveError, match=r"right edge \(it cannot slide right at all\)"):
        stuck.apply("A+1")


def test_wrap_goal_heading_east_or_west_looks_at_the_right_end() -> None:
    # a horizontal goal across the edge: cells (1,4) and (1,0); east, its front is the wrapped cell
    east = Board(5, 5, [Vehicle("A", "H", 2, 1, 4)], wrap=True, target=Target(1, 0, "east"))
    assert east.is_won() and not east.apply("A-1").is_won()
    assert not Board(5, 5, [Vehicle("A", "H", 2, 1, 4)], wrap=True, target=Target(1, 4, "east")).is_won()
    west = Board(5, 5, [Vehicle("A", "H", 2, 1, 4)], wrap=True, target=Target(1, 4, "west"))
    assert west.is_won() and not west.apply("A+1").is_won()
    assert not Board(5, 5, [Vehicle("A", "H", 2, 1, 4)], wrap=True, target=Target(1, 0, "west")).is_won()


# --- moves -----------------------------------------------------------------------------------------


def test_slide_and_step_metrics() -> None:
    assert [str(m) for m in CLASSIC.legal_moves()] == [
        "A+1",
        "A+2",
        "A+3",
        "B+1",
        "B+2",
        "B+3",
        "B+4",
        "C+1",
        "D-1",
        "D-2",
        "D+1",
        "D+2",
        "E+1",
        "E+2",
        "E+3",
    ]
    assert [str(m) for m in CLASSIC.legal_moves("steps")] == ["A+1", "B+1", "C+1", "D-1", "D+1", "E+1"]
    with pytest.raises(MoveError, match="unknown metric"):
        CLASSIC.legal_moves("hops")


def test_walls_block() -> None:
    b = grid("AA.x..\n......\n......")
    assert [str(m) for m in b.legal_moves()] == ["A+1"]
    with pytest.raises(IllegalMoveError, match=r"A\+2 is illegal: a wall is in the way"):
        b.apply("A+2")


def test_illegal_moves_say_what_blocks() -> None:
    with pytest.raises(IllegalMoveError, match=r"C\+2 is illegal: D is in the way"):
        CLASSIC.apply("C+2")
    with pytest.raises(IllegalMoveError, match="A would leave the board at the left edge"):
        CLASSIC.apply("A-1")
    with pytest.raises(IllegalMoveError, match="B would leave the board at the bottom edge"):
        CLASSIC.apply("B+5")
    with pytest.raises(UnknownVehicleError, match="no vehicle named 'Z'"):
        CLASSIC.apply("Z+1")
    with pytest.raises(MoveError, match="distance 0"):
        CLASSIC.apply(Move("A", 0))


def test_wrap_moves_cross_the_edge() -> None:
    b = Board(5, 3, [Vehicle("A", "H", 2, 1, 3), Vehicle("B", "V", 2, 0, 0)], wrap=True)
    # A occupies (1,3),(1,4); B occupies (0,0),(1,0), so A is blocked on the right (across the edge)
    assert [str(m) for m in b.legal_moves()] == ["A-1", "A-2", "B-1", "B+1"]
    assert b.apply("B+1").cells_of("B") == [(1, 0), (2, 0)]
    freed = b.apply("B-1")  # B now wraps: rows 2 and 0
    assert freed.cells_of("B") == [(2, 0), (0, 0)]
    assert freed.apply("A+2").cells_of("A") == [(1, 0), (1, 1)]
    with pytest.raises(IllegalMoveError, match="at most 3 cells right"):
        freed.apply("A+4")


def test_applying_every_legal_move_gives_a_valid_board_and_back() -> None:
    for move in CLASSIC.legal_moves():
        after = CLASSIC.apply(move)
        assert after.with_state(after.state) == after  # validated constructor accepts it
        assert after.apply(Move(move.vehicle, -move.distance)) == CLASSIC


@given(positions())
def test_legal_moves_are_exactly_the_applicable_ones(board: Board) -> None:
    legal = {str(m) for m in board.legal_moves()}
    for name in board.names:
        span = board.width if board.vehicle(name).horizontal else board.height
        for d in range(-span, span + 1):
            if d == 0:
                continue
            try:
                after = board.apply(Move(name, d))
            except IllegalMoveError:
                assert f"{name}{d:+d}" not in legal
            else:
                assert f"{name}{d:+d}" in legal
                assert after.with_state(after.state) == after
    steps = {str(m) for m in board.legal_moves("steps")}
    assert steps == {str(m) for m in board.legal_moves() if abs(m.distance) == 1}


@given(positions(), st.randoms(use_true_random=False))
def test_replay_agrees_with_applying_move_by_move(board: Board, rng: random.Random) -> None:
    """replay keeps its occupancy up to date; it must end where apply does, and refuse what apply
    refuses, naming the move's number."""
    moves: list[Move] = []
    here = board
    for _ in range(rng.randrange(12)):
        options = here.legal_moves()
        if not options:
            break
        moves.append(rng.choice(options))
        here = here.apply(moves[-1])
    assert board.replay(moves) == here
    assert board.replay([str(m) for m in moves]) == here
    name = rng.choice(here.names)
    span = here.width if here.vehicle(name).horizontal else here.height
    for d in range(-span, span + 1):
        try:
            after = here.apply(Move(name, d)) if d else None
        except IllegalMoveError as err:
            with pytest.raises(IllegalMoveError) as caught:
                board.replay([*moves, Move(name, d)])
            assert str(caught.value) == f"move {len(moves) + 1} ({name}{d:+d}): {err}"
        else:
            if after is not None:
                assert board.replay([*moves, Move(name, d)]) == after


def test_replay_names_the_move_that_is_wrong() -> None:
    with pytest.raises(UnknownVehicleError, match=r"^move 2 \(Z\+1\): no vehicle named 'Z'"):
        CLASSIC.replay(["B+1", "Z+1"])
    with pytest.raises(MoveError, match=r"^move 1 \(A\+0\): move A\+0 has distance 0"):
        CLASSIC.replay([Move("A", 0)])
    with pytest.raises(MoveError, match="cannot read move"):
        CLASSIC.replay(["A2"])
    assert CLASSIC.replay([]) == CLASSIC


@given(boards())
def test_generated_boards_are_consistent(board: Board) -> None:
    occ = board.occupancy()
    assert sum(v >= 0 for v in occ) == sum(v.length for v in board.vehicles)
    assert sum(v == -2 for v in occ) == len(board.walls)
    assert (
        Board(
            board.width,
            board.height,
            board.vehicles,
            walls=board.walls,
            goal=board.goal,
            exit=board.exit,
            target=board.target,
            wrap=board.wrap,
        )
        == board
    )


def test_a_layout_pickled_in_another_process_hashes_like_a_fresh_one(tmp_path: Path) -> None:
    """Layouts cache their hash; string hashes differ between processes, so unpickling recomputes it."""
    board = Board(6, 6, [Vehicle("A", HORIZONTAL, 2, 2, 0), Vehicle("Cab", VERTICAL, 3, 0, 4)])
    dumped = tmp_path / "board.pickle"
    dumped.write_bytes(pickle.dumps(board))
    script = (
        "import pickle, sys\n"
        "from rushhour.board import Board, Vehicle, HORIZONTAL, VERTICAL\n"
        f"b = pickle.loads(open({str(dumped)!r}, 'rb').read())\n"
        "c = Board(6, 6, [Vehicle('A', HORIZONTAL, 2, 2, 0), Vehicle('Cab', VERTICAL, 3, 0, 4)])\n"
        "sys.exit(0 if {b: 1}.get(c) == 1 and hash(b.layout) == hash(c.layout) else 1)\n"
    )
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        assert subprocess.run([sys.executable, "-c", script], env=env).returncode == 0


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Board(4, 4, [Vehicle("A", "H", 2, 1.0, 0)]), BoardError, "vehicle A has row 1.0: a whole number"),
        (lambda: Board(4, 4, [Vehicle("A", "H", True, 1, 0)]), BoardError, "vehicle A has length True"),
        (lambda: Board(4, 4, [Vehicle("A", "H", 2, True, 0)]), BoardError, "vehicle A has row True: a whole number"),
        (lambda: Board(True, 4, [Vehicle("A", "H", 2, 1, 0)]), BoardError, "board width True is out of range"),
        (lambda: Board(4, 4, [Vehicle("A", "H", 2, 1, 0)], walls=[(0, 0.5)]), BoardError,
         "wall (0, 0.5) is not a cell"),
        (lambda: Board(4, 4, [None]), ArgumentTypeError, "vehicles must be made of Vehicle records, not NoneType"),
        (lambda: Board(4, 4, [Vehicle("A", "H", 2, 1, 0)], wrap="no"), ArgumentTypeError,
         "wrap must be True or False, not str"),
        (lambda: Board(4, 4, [Vehicle("A", "H", 2, 1, 0)], exit=5), ArgumentTypeError, "exit must be a side"),
        (lambda: Board.from_text("AA.B/...B/CC../....").with_state((1,)), BoardError,
         "1 offsets for the 3 vehicles of the board"),
        (lambda: Board.from_text("AA.B/...B/CC../....").at((2, -1)), BoardError, "cell (2, -1) is off the 4x4 board"),
    ],
)
def test_a_board_of_wrong_parts_is_refused_at_once(make: Any, error: type[Exception], message: str) -> None:
    """A float cell or a bool length was taken, and the board failed later, or broke the cached cells of
    equal boards made after it (1.0 == 1): each is refused where it is given."""
    with pytest.raises(error) as caught:
        make()
    assert str(caught.value).startswith(message)
    assert Board.from_text("..../AA../..../....").rows()[1] == "AA.."  # nothing cached from the refusals


def test_a_board_is_immutable_even_by_del() -> None:
    board = Board.from_text("AA.B/...B/CC../....")
    with pytest.raises(AttributeError, match="immutable"):
        del board.state  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        board.state = (0, 0, 0)  # type: ignore[misc]
    assert board.state == Board.from_text("AA.B/...B/CC../....").state
