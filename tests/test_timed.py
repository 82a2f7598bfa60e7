"""Timed play: one hand with durations by vehicle kind, two hands in parallel (strict and relaxed
handover).  Optimal times are checked against an independent brute force: a tick-by-tick enumeration
of every schedule (any free hand may start any legal move, or wait, at every tick), and the moves-metric
optimum with unit durations against the database's optimal move counts."""

from __future__ import annotations

import heapq
import itertools
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rushhour.board import Board, Move
from rushhour.errors import IllegalMoveError, LimitReachedError, RushHourError, SolverError
from rushhour.formats import fogleman, parse_text
from rushhour.levels import resolve_board
from rushhour.search.timed import (
    HandsSearch,
    TimedMove,
    TimeModel,
    clock,
    clock_report,
    format_seconds,
    parse_hands,
    schedule,
    seconds,
    solve_hands,
    solve_timed,
    verify_schedule,
)
from tests.strategies import boards

DATA = Path(__file__).parent / "data" / "fogleman_slice_timed.txt"


def _slice() -> list[tuple[int, Board, int]]:
    rows = []
    for line in DATA.read_text().splitlines():
        moves, _, cluster = line.split()
        rows.append((int(moves), fogleman.parse_line(line)[0], int(cluster)))
    return rows


SLICE = _slice()

# Dense small boards (drawn at random, kept when they need 5 to 8 steps); two wrap around.
DENSE = [
    "..C../AAC.E/.DC.E/.D..E/..BB.",
    "...../...../..B../AAB.C/....C",
    "..CC./AAD.E/..D.E/...BB",
    "...C/AABC/..B./....",
    "...../...BB/AA.C./...C.",
    "....D/..B.D/..BC./AABC.",
    "# wrap: yes\n.D../..BB/..C./AAC./.DC.",
    "# wrap: yes\n..CB/.DD./..C./AACB",
]


def _dense(text: str) -> Board:
    return parse_text(text.replace("/", "\n") + "\n")[0].board


SLOW_TRUCK = SLICE[-1][1]  # the fastest solution with slow trucks is not the one with the fewest steps
SMALL = [board for _, board, cluster in SLICE[:-1] if cluster <= 40]
MEDIUM = [(moves, board) for moves, board, cluster in SLICE[:-1] if cluster > 40]


# --- the brute force ---------------------------------------------------------------------------------


def _ticks(model: TimeModel, board: Board, move: Move, hand: str) -> int:
    """Durations in whole ticks, worked out here from the model's stated numbers."""
    units = abs(move.distance) if model.metric == "steps" else 1
    if model.hands is not None:
        per = model.hands[0] if hand == "left" else model.hands[1]
    else:
        per = model.car if board.vehicle(move.vehicle).length == 2 else model.truck
    value = per * units
    assert value.denominator == 1, "brute force wants whole-second durations"
    return int(value)


def _cells_swept(board: Board, move: Move) -> tuple[set, set, set]:
    sign = 1 if move.distance > 0 else -1
    old = set(board.cells_of(move.vehicle))
    swept = set(old)
    for k in range(1, abs(move.distance) + 1):
        swept |= set(board.apply(Move(move.vehicle, sign * k)).cells_of(move.vehicle))
    new = set(board.apply(move).cells_of(move.vehicle))
    return old, swept, new


def brute_force(board: Board, model: TimeModel, horizon: int) -> int | None:
    """The least whole number of seconds in which every move has ended and the goal is out, found by
    enumerating, tick by tick, every choice of every free hand; None if not within ``horizon``."""
    hands = list(model.hand_names)
    frontier: set[tuple[Board, tuple]] = {(board, tuple(None for _ in hands))}
    for t in range(horizon + 1):
        for here, active in frontier:
            if here.is_won() and all(a is None for a in active):
                return t
        following: set[tuple[Board, tuple]] = set()
        for here, active in frontier:
            for there, now_active in _starts(here, active, model, hands, t):
                ended = tuple(None if a is None or a[1] == t + 1 else a for a in now_active)
                following.add((there, ended))
        frontier = following
    return None


def _starts(here: Board, active: tuple, model: TimeModel, hands: list[str], t: int):
    yield here, active
    for k, hand in enumerate(hands):
        if active[k] is not None:
            continue
        moving = {a[0] for a in active if a is not None}
        held = set().union(*(a[2] for a in active if a is not None))
        for move in here.legal_moves(model.metric):
            if move.vehicle in moving:
                continue
            old, swept, new = _cells_swept(here, move)
            if (swept - old) & held:
                continue
            keeps = swept - new if model.handover == "strict" else swept - old - new
            entry = (move.vehicle, t + _ticks(model, here, move, hand), frozenset(keeps))
            yield from _starts(here.apply(move), active[:k] + (entry,) + active[k + 1 :], model, hands, t)


def _check_against_brute_force(board: Board, model: TimeModel) -> None:
    found = schedule(board, model)
    if not found.solved:
        assert found.items == () and found.optimal
        assert brute_force(board, model, 12) is None
        return
    assert found.optimal
    assert found.total.denominator == 1
    total = int(found.total)
    assert brute_force(board, model, total) == total
    assert verify_schedule(board, found.items, model).is_won()


# --- one hand ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("board", SMALL, ids=lambda b: "".join(b.rows()))
def test_one_hand_matches_brute_force(board: Board) -> None:
    _check_against_brute_force(board, TimeModel.one_hand(car_seconds=2, truck_seconds=5))
    _check_against_brute_force(board, TimeModel.one_hand(metric="moves", car_seconds=1, truck_seconds=3))


@pytest.mark.parametrize(("moves", "board"), MEDIUM, ids=lambda x: str(x) if isinstance(x, int) else "")
def test_unit_durations_in_moves_metric_give_the_database_optimum(moves: int, board: Board) -> None:
    found = solve_timed(board, metric="moves", car_seconds=1, truck_seconds=1)
    assert found.total == moves == len(found.moves)


def test_slow_trucks_make_the_fastest_solution_longer() -> None:
    fewest = solve_timed(SLOW_TRUCK, car_seconds=1, truck_seconds=1)
    fastest = solve_timed(SLOW_TRUCK, car_seconds=1, truck_seconds=5)
    priced = sum(5 if SLOW_TRUCK.vehicle(m.vehicle).length > 2 else 1 for m in fewest.moves)
    assert fastest.steps > fewest.steps
    assert fastest.total < priced
    assert fastest.total == sum(item.duration for item in fastest.items)


def test_one_hand_schedule_is_back_to_back() -> None:
    board = SMALL[0]
    found = solve_timed(board)
    assert found.items[0].start == 0
    for before, after in zip(found.items, found.items[1:], strict=False):
        assert after.start == before.end
    assert found.total == found.items[-1].end
    assert all(item.hand == "" for item in found.items)
    assert all(abs(m.distance) == 1 for m in found.moves)


def test_durations_by_kind_with_fractions() -> None:
    board = SMALL[0]  # BBB/C/AAC/D: B (truck) three cells, C (car) up, A four cells
    found = solve_timed(board, car_seconds="0.5", truck_seconds=1.25)
    assert found.total == Fraction(5, 4) * 3 + Fraction(1, 2) * 5
    assert format_seconds(found.total) == "6.25"


# --- two hands ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("handover", ["strict", "relaxed"])
@pytest.mark.parametrize("board", SMALL[:4], ids=lambda b: "".join(b.rows()))
def test_two_hands_match_brute_force(board: Board, handover: str) -> None:
    _check_against_brute_force(board, TimeModel.two_hands((1, 2), handover=handover))


@pytest.mark.parametrize("handover", ["strict", "relaxed"])
def test_two_hands_moves_metric_match_brute_force(handover: str) -> None:
    for board in SMALL[:3]:
        _check_against_brute_force(board, TimeModel.two_hands((2, 3), handover=handover, metric="moves"))


@pytest.mark.parametrize("handover", ["strict", "relaxed"])
@pytest.mark.parametrize("text", DENSE)
def test_two_hands_dense_boards_match_brute_force(text: str, handover: str) -> None:
    board = _dense(text)
    _check_against_brute_force(board, TimeModel.two_hands((1, 2), handover=handover))
    _check_against_brute_force(board, TimeModel.two_hands((2, 3), handover=handover, metric="moves"))


@settings(max_examples=25)
@given(
    board=boards(min_side=3, max_side=4, max_vehicles=4, walls=True),
    hands=st.sampled_from([(1, 1), (1, 2), (2, 3)]),
    handover=st.sampled_from(["strict", "relaxed"]),
    metric=st.sampled_from(["steps", "moves"]),
)
def test_two_hands_random_small_boards(
    board: Board, hands: tuple[int, int], handover: str, metric: str
) -> None:
    _check_against_brute_force(board, TimeModel.two_hands(hands, handover=handover, metric=metric))


@settings(max_examples=15)
@given(board=boards(min_side=3, max_side=4, max_vehicles=4), metric=st.sampled_from(["steps", "moves"]))
def test_one_hand_random_small_boards(board: Board, metric: str) -> None:
    _check_against_brute_force(board, TimeModel.one_hand(metric=metric, car_seconds=1, truck_seconds=2))


def _fastest_then_fewest(board: Board, model: TimeModel) -> tuple[Fraction, int] | None:
    """The least time of a finished schedule and, among the fastest, the fewest moves, by Dijkstra
    over (position, what each hand is doing: vehicle, ticks left, cells held) in steps of one tick
    of the durations' greatest common divisor: at every tick the free hands start any legal moves, in
    any order, or wait.  Worked out from docs/timed.md alone (no event jumps, no masks, no bound),
    and for durations that are not whole seconds.  None when no schedule finishes."""
    per = list(model.hands) if model.hands is not None else [model.car, model.truck]
    tick = Fraction(math.gcd(*(p.numerator for p in per)), math.lcm(*(p.denominator for p in per)))
    free: tuple = (None,) * len(model.hand_names)
    best = {(board, free): (0, 0)}
    heap = [(0, 0, 0, board, free)]
    order = itertools.count(1)
    while heap:
        ticks, moves, _, here, active = heapq.heappop(heap)
        if best[here, active] != (ticks, moves):
            continue
        if here.is_won() and active == free:
            return ticks * tick, moves
        for there, doing, started in _any_starts(here, active, model, tick):
            if doing == free:
                continue  # both hands idle: waiting changes nothing
            later = tuple(None if a is None or a[1] == 1 else (a[0], a[1] - 1, a[2]) for a in doing)
            cost = (ticks + 1, moves + started)
            if cost < best.get((there, later), (math.inf, 0)):
                best[there, later] = cost
                heapq.heappush(heap, (*cost, next(order), there, later))
    return None


def _any_starts(here: Board, active: tuple, model: TimeModel, tick: Fraction):
    """Every way the free hands may start moves at one instant (none, one, or one after the other in
    either order): the board, what each hand is doing, how many moves were started."""
    yield here, active, 0
    moving = {a[0] for a in active if a is not None}
    held = set().union(*(a[2] for a in active if a is not None))
    for k in range(len(active)):
        if active[k] is not None:
            continue
        for move in here.legal_moves(model.metric):
            old, swept, new = _cells_swept(here, move)
            if move.vehicle in moving or (swept - old) & held:
                continue
            keeps = swept - old - new if model.handover == "relaxed" and model.hands else swept - new
            ticks = (model.hands[k] if model.hands else _kind(model, here, move)) * _units(model, move) / tick
            doing = active[:k] + ((move.vehicle, int(ticks), frozenset(keeps)),) + active[k + 1 :]
            for there, after, started in _any_starts(here.apply(move), doing, model, tick):
                yield there, after, started + 1


def _kind(model: TimeModel, board: Board, move: Move) -> Fraction:
    return model.car if board.vehicle(move.vehicle).length == 2 else model.truck


def _units(model: TimeModel, move: Move) -> int:
    return abs(move.distance) if model.metric == "steps" else 1


@settings(max_examples=40, deadline=None)
@given(
    board=boards(min_side=3, max_side=5, max_vehicles=5, walls=True),
    hands=st.sampled_from([None, ("1.5", "2.5"), ("0.5", "1"), ("2", "2")]),
    handover=st.sampled_from(["strict", "relaxed"]),
    metric=st.sampled_from(["steps", "moves"]),
)
def test_fastest_and_fewest_moves_match_dijkstra(
    board: Board, hands: tuple[str, str] | None, handover: str, metric: str
) -> None:
    """Boards of every kind (walls, trucks, longer vehicles, vertical goals, every exit side,
    wrap-around), durations in half seconds: the optimum, and with two hands the fewest moves among
    the fastest schedules, as the Dijkstra above finds them; every schedule replayed."""
    if hands is None:
        model = TimeModel.one_hand(metric=metric, car_seconds="1.5", truck_seconds="2.5")
    else:
        model = TimeModel.two_hands(hands, handover=handover, metric=metric)
    found = schedule(board, model)
    expected = _fastest_then_fewest(board, model)
    if expected is None:
        assert not found.solved and found.items == () and found.optimal
        return
    assert found.solved and found.optimal
    assert found.total == expected[0] == max((it.end for it in found.items), default=0)
    if model.hands is not None:
        assert len(found.items) == expected[1]
    assert verify_schedule(board, found.items, model).is_won()
    assert found.steps == sum(abs(m.distance) for m in found.moves)
    assert found.to_dict()["moves"] == [str(m) for m in found.moves]


@pytest.mark.parametrize("handover", ["strict", "relaxed"])
@pytest.mark.parametrize("text", DENSE)
def test_dense_boards_in_half_seconds_match_dijkstra(text: str, handover: str) -> None:
    board = _dense(text)
    model = TimeModel.two_hands(("1.5", "2.5"), handover=handover)
    found = schedule(board, model)
    assert (found.total, len(found.items)) == _fastest_then_fewest(board, model)


@pytest.mark.parametrize("board", SMALL, ids=lambda b: "".join(b.rows()))
def test_relaxed_strict_and_one_hand_are_ordered(board: Board) -> None:
    relaxed = solve_hands(board, (3, 5), handover="relaxed")
    strict = solve_hands(board, (3, 5), handover="strict")
    alone = solve_timed(board, car_seconds=3, truck_seconds=3)  # the left hand alone
    assert relaxed.total <= strict.total <= alone.total
    steps = solve_timed(board, car_seconds=1, truck_seconds=1).total  # the fewest steps
    assert relaxed.steps >= steps and strict.steps >= steps
    # the bound of the search: the fewest steps shared out perfectly between 3 s and 5 s hands
    t = 0
    while t // 3 + t // 5 < steps:
        t += 1
    assert relaxed.total >= t


def test_two_hands_timeline_shape() -> None:
    board = SMALL[0]
    found = solve_hands(board, "3,5", handover="relaxed")
    lines = found.timeline().splitlines()
    assert lines[0].split() == ["start", "end", "hand", "move"]
    assert len(lines) == len(found.items) + 1
    for line, item in zip(lines[1:], found.items, strict=True):
        start, end, hand, move = line.split()
        assert (Fraction(start), Fraction(end), hand, Move.parse(move)) == (
            item.start,
            item.end,
            item.hand,
            item.move,
        )
        assert item.duration == (3 if hand == "left" else 5)
    assert "relaxed handover" in found.summary()


def test_already_won_board_needs_no_time() -> None:
    board = resolve_board("..../..AA/....").board
    for found in (solve_timed(board), solve_hands(board)):
        assert found.items == () and found.total == 0 and found.solved


# --- the verifier ------------------------------------------------------------------------------------

FOLLOW = "BB../C.../CAA."  # B leaves (0,0) to the right while C moves up into it


def _items(*rows: tuple[int, int, str, str]) -> list[TimedMove]:
    return [TimedMove(Fraction(s), Fraction(e), h, Move.parse(m)) for s, e, h, m in rows]


def test_following_is_relaxed_only() -> None:
    board = resolve_board(FOLLOW).board
    items = _items((0, 1, "left", "B+1"), (0, 2, "right", "C-1"), (1, 2, "left", "A+1"))
    relaxed = TimeModel.two_hands((1, 2), handover="relaxed")
    strict = TimeModel.two_hands((1, 2), handover="strict")
    assert verify_schedule(board, items, relaxed).is_won()
    with pytest.raises(IllegalMoveError, match=r"at 0 s: C-1 enters cell \(0,0\), still held by B\+1"):
        verify_schedule(board, items, strict)
    # the same moves, C waiting for B to end, pass under strict
    later = _items((0, 1, "left", "B+1"), (1, 3, "right", "C-1"), (1, 2, "left", "A+1"))
    assert verify_schedule(board, later, strict).is_won()
    for handover in ("strict", "relaxed"):
        assert solve_hands(board, (1, 2), handover=handover).moves == (Move("A", 1),)


@pytest.mark.parametrize(
    ("rows", "error", "message"),
    [
        ([(0, 1, "left", "A+1"), (0, 2, "right", "A+1")], IllegalMoveError, "A, which is still moving"),
        ([(0, 2, "left", "A+1")], SolverError, "lasts 2 s, but takes 1 s"),
        ([(0, 1, "left", "B+1"), (0, 1, "left", "A+1")], SolverError, "the left hand starts"),
        ([(0, 1, "left", "B+1")], SolverError, "not at the exit"),
        ([(0, 1, "left", "C+1")], IllegalMoveError, r"at 0 s: C\+1 is illegal"),
        ([(0, 1, "both", "A+1")], SolverError, "hand 'both'"),
        ([(0, 2, "right", "B+2")], SolverError, "slides one cell"),
        ([(0, 1, "left", "Z+1")], RushHourError, "no vehicle named 'Z'"),
    ],
)
def test_verifier_rejects(rows: list, error: type[Exception], message: str) -> None:
    board = resolve_board(FOLLOW).board
    with pytest.raises(error, match=message):
        verify_schedule(board, _items(*rows), TimeModel.two_hands((1, 2), handover="relaxed"))


def test_verifier_one_hand_rejects_overlap() -> None:
    board = resolve_board(FOLLOW).board
    items = [
        TimedMove(Fraction(0), Fraction(2), "", Move("B", 1)),
        TimedMove(Fraction(1), Fraction(3), "", Move("A", 1)),
    ]
    with pytest.raises(SolverError, match="the hand starts A\\+1 at 1 s while still making B\\+1"):
        verify_schedule(board, items, TimeModel.one_hand(car_seconds=2))


# --- errors and limits -------------------------------------------------------------------------------


def test_bad_durations_and_hands() -> None:
    for bad in ("0", "-1", "abc", "0.0001", ""):
        with pytest.raises(SolverError):
            seconds(bad)
    for bad in ("3", "3,5,7", "3,", "x,5", "3;5"):
        with pytest.raises(RushHourError, match="hand"):
            parse_hands(bad)
    with pytest.raises(SolverError, match="handover"):
        TimeModel.two_hands((3, 5), handover="loose")
    with pytest.raises(RushHourError, match="metric"):
        TimeModel.one_hand(metric="cells")
    assert parse_hands(" 3 , 4.5 ") == (3, Fraction(9, 2))


def test_unsolvable_board() -> None:
    board = resolve_board("AAB./..B./....").board
    blocked = resolve_board("....../AA.BB./......").board  # B stands in A's row for good
    for solver in (solve_timed, solve_hands):
        found = solver(blocked)
        assert not found.solved and found.items == () and found.optimal and found.explored > 0
    assert solve_timed(board).solved


def test_two_hand_bound_is_bisected_not_counted_tick_by_tick() -> None:
    """Hands of a day per cell with millisecond decimals make a move 86.4 million ticks; the bound of
    the search was found by counting tick by tick, minutes of work before the first state that
    --time-limit never interrupted.  It is bisected: a few dozen divisions by a hand's speed."""
    board = resolve_board(LINE).board
    search = HandsSearch(board, TimeModel.two_hands(("86400", "86399.999")))
    divisions = 0

    class Ticks(int):
        def __rfloordiv__(self, other: int) -> int:
            nonlocal divisions
            divisions += 1
            assert divisions < 100_000, "the bound is counted tick by tick"
            return int(other) // int(self)

    search.speed = (Ticks(search.speed[0]), Ticks(search.speed[1]))
    found = search.run()
    assert found.optimal and found.total == Fraction("691199.992")  # all 8 steps by the faster hand
    assert {item.hand for item in found.items} == {"right"}


def test_float_durations_are_read_as_written() -> None:
    """0.1 s is one decimal, though the float 0.1 is not exactly a tenth; True is no duration."""
    assert seconds(0.1) == Fraction(1, 10) and seconds(1.1) == Fraction(11, 10) and seconds(0.001) == Fraction(1, 1000)
    found = solve_timed(SMALL[0], car_seconds=0.1, truck_seconds=1.1)  # B three cells, C one, A four
    assert found.total == Fraction(11, 10) * 3 + Fraction(1, 10) * 5
    assert solve_hands(SMALL[0], (0.1, 0.3)).total == solve_hands(SMALL[0], "0.1,0.3").total
    with pytest.raises(SolverError, match="too many decimals"):
        seconds(0.0001)
    for bad in (True, False):
        with pytest.raises(SolverError, match="is not a number of seconds"):
            seconds(bad)


def test_limits_report_the_bound() -> None:
    _, board = MEDIUM[-1]
    with pytest.raises(LimitReachedError, match=r"after 51 positions \(the limit is 50\)") as caught:
        solve_timed(board, max_states=50)
    assert caught.value.explored == 51
    search = HandsSearch(board, TimeModel.two_hands((3, 5)))
    with pytest.raises(LimitReachedError, match=r"no schedule finishes in less than \d+ s"):
        search.run(max_states=1000)  # the board's positions fit, the timed states do not
    assert search.bound > 0
    assert search.bound <= solve_hands(board, (3, 5)).total


# --- play --timed ------------------------------------------------------------------------------------


def _fewest_moves(board: Board) -> list[Move] | None:
    found = solve_timed(board, metric="moves", car_seconds=1, truck_seconds=1)
    return list(found.moves) if found.solved else None


def test_play_timed_shows_the_clock() -> None:
    from rushhour.formats import Entry
    from rushhour.play.level import Level
    from rushhour.play.line import LineMode
    from rushhour.play.saves import Saves

    board = SMALL[0]  # BBB/C/AAC/D: B three cells (truck), C up (car), A four cells (car)
    lines = iter(["B+3", "C-1", "A+1", "A+3"])
    out: list[str] = []
    session = LineMode(
        Saves.memory(),
        color=False,
        legal_moves=lambda b: b.legal_moves("moves"),
        solver=_fewest_moves,
        read=lambda prompt: next(lines),
        write=out.append,
        timed=TimeModel.one_hand(car_seconds=2, truck_seconds=5),
    )
    assert session.play_level(Level(Entry(board, {}, "test"))) is True
    text = "".join(out)
    assert "clock 0 s" in text and "clock 15 s" in text and "clock 17 s" in text and "clock 19 s" in text
    assert "Clock: 25 s, the fastest possible! (one hand, car 2 s and truck 5 s per cell)." in text


def test_play_timed_clock_counts_the_line_played() -> None:
    board = SMALL[0]
    model = TimeModel.one_hand(car_seconds=2, truck_seconds=5)
    assert clock(board, [Move("B", 3), Move("C", -1)], model) == 17
    assert clock(board, [Move("B", 3)], TimeModel.one_hand(metric="moves")) == 5
    assert "the fastest is 25 s" in clock_report(
        board, [Move("B", 1), Move("B", 2), Move("C", -1), Move("A", 4), Move("B", -1)], model
    )


# --- solve --timed / --hands -------------------------------------------------------------------------

LINE = "BBBoooooCoooAACoooooDoooooDoooooDooo"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from rushhour.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_timed_prints_the_timeline(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "solve", LINE, "--timed", "--no-color")
    assert status == 0
    assert "Fastest: 25 s (optimal; 8 moves, 8 steps; one hand, car 2 s and truck 5 s per cell)" in out
    rows = [line.split() for line in out.splitlines() if line[:1] == " " and line.split()[0].isdigit()]
    # consecutive steps of one vehicle are one row, their steps counted
    assert rows[0] == ["0", "15", "-", "B+3", "(3", "steps)"]
    assert rows[-1] == ["17", "25", "-", "A+4", "(4", "steps)"]
    status, out, _ = _run(capsys, "solve", LINE, "--timed", "--metric", "moves", "--truck-seconds", "1.5")
    assert status == 0 and "Fastest: 5.5 s" in out  # B+3 1.5 s, C-1 2 s, A+4 2 s
    status, out, _ = _run(capsys, "solve", LINE)  # the plain solver still counts moves
    assert status == 0 and "3 moves, 8 steps" in out and "moves metric" in out


def test_cli_hands_json_replays(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    status, out, _ = _run(capsys, "solve", LINE, "--hands", "3,5", "--handover", "relaxed", "--json")
    assert status == 0
    data = json.loads(out)
    assert (data["total"], data["handover"], data["metric"], data["optimal"]) == (
        21,
        "relaxed",
        "steps",
        True,
    )
    items = [
        TimedMove(Fraction(r["start"]), Fraction(r["end"]), r["hand"], Move.parse(r["move"]))
        for r in data["schedule"]
    ]
    model = TimeModel.two_hands((3, 5), handover="relaxed")
    assert verify_schedule(fogleman.parse_line(LINE)[0], items, model).is_won()
    assert max(item.end for item in items) == 21


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hands", "3"], "give two durations"),
        (["--hands", "3,0"], "right hand must be more than 0"),
        (["--handover", "relaxed"], "--handover goes with --hands"),
        (["--hands", "3,5", "--timed"], "--hands goes without --timed"),
        (["--hands", "3,5", "--car-seconds", "1"], "--hands goes without --timed"),
        (["--timed", "--handover", "strict"], "--handover goes with --hands"),
        (["--timed", "--csv", "x.csv"], "--csv does not go with --timed"),
        (["--timed", "--car-seconds", "fast"], "not a number of seconds"),
        # a number out of range is said as such, not as no number
        (["--timed", "--car-seconds", "-1"], "car seconds '-1' is negative: a move takes more than 0 seconds"),
        (["--timed", "--truck-seconds", "99999999"], "truck seconds 99999999 is more than a day (86400 s) per move"),
        (["--hands=-3,5"], "left hand '-3' is negative"),
        # zero written with a minus is zero, not a negative number
        (["--timed", "--car-seconds", "-0"], "car seconds must be more than 0 seconds, not 0"),
        (["--hands=5,-0.0"], "right hand must be more than 0 seconds, not 0"),
        (["--hands", "99999,1"], "left hand 99999 is more than a day"),
    ],
)
def test_cli_timed_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = _run(capsys, "solve", LINE, *argv)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_cli_timed_unsolvable_and_limits(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "solve", "....../AA.BB./......", "--hands", "3,5")
    assert status == 1 and "Unsolvable: none of the 6 reachable positions" in out
    status, _, err = _run(capsys, "solve", LINE, "--hands", "3,5", "--max-states", "5")
    assert status == 3 and "(the limit is 5)" in err


@pytest.mark.parametrize(("options", "states"), [(["--timed"], 2000), (["--hands", "3,5"], 20000)])
def test_a_stopped_timed_search_says_what_it_proved_in_its_json(
    capsys: pytest.CaptureFixture[str], options: list[str], states: int
) -> None:
    """The bound a stopped timed search proved was in its message only (``lower_bound`` counts moves,
    and was null): ``lower_total`` now gives it in seconds, and it is no more than the fastest
    schedule's total."""
    import json

    from tests.cli import run
    from tests.test_json import VALIDATORS

    status, out, _ = run(capsys, "solve", "classic:12", *options, "--json", "--max-states", str(states))
    stopped = json.loads(out)
    VALIDATORS["rushhour.timed"].validate(stopped)
    assert status == 3 and stopped["status"] == "stopped" and stopped["lower_total"] > 0
    assert f"no schedule finishes in less than {stopped['lower_total']} s" in stopped["message"]
    status, out, _ = run(capsys, "solve", "classic:12", *options, "--json")
    solved = json.loads(out)
    VALIDATORS["rushhour.timed"].validate(solved)
    assert status == 0 and solved["lower_total"] is None and stopped["lower_total"] <= solved["total"]
