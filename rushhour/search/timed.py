"""Timed play: moves that take time, made by one hand or by two hands at once.

Two models, both solved exactly:

*One hand* (``rushhour solve BOARD --timed``).  Moves are made one after the other.  A move of a car
(length 2) takes ``car`` seconds, of a truck (length 3 or more) ``truck`` seconds, per cell in the
``steps`` metric (the default here) or per slide of any distance in the ``moves`` metric.  The fastest
solution is found by uniform-cost search (Dijkstra) over the positions reachable from the board, so it
is optimal for this model.

*Two hands* (``rushhour solve BOARD --hands LEFT,RIGHT``).  Each hand moves one vehicle at a time and
takes its own number of seconds per move (per cell in ``steps``, per slide in ``moves``), whatever the
vehicle.  The hands work in parallel; moves that overlap in time never move the same vehicle, and the
cells follow one of two handover models:

``strict``
    a moving vehicle holds every cell it sweeps, the cells it is leaving included, until its move
    ends; a cell it leaves can be entered from that instant on (intervals are half-open).
``relaxed``
    the cells a vehicle starts to leave are free from the instant its move starts, so another vehicle
    may follow it into them at once; the cells it enters, and any it passes over, are held until the
    move ends.

In both models a move that starts must be legal by the rules on the board where every move started
before it (or at the same instant, earlier in the schedule) has been applied, and must not enter a
cell that another moving vehicle still holds.  So two vehicles never swap cells at one instant, even
on a wrap-around lane.  A schedule is finished when its last move ends and the goal stands at its exit.

The two-hand optimum is found by A* over *(position, the move in progress and its remaining time)*
with an admissible bound: the position's distance to the nearest win in moves of the metric (every
schedule read in order of start times is a legal sequence of moves) shared out as evenly as the two
hands' speeds allow.  Starts are only tried at time 0 and at the instants a move ends (a start can
always be moved earlier to the last such instant without breaking anything), so the search is
exhaustive and its answer optimal for the model.

Every schedule is replayed in time order by :func:`verify_schedule` (:meth:`Board.apply` for the
rules, explicit cell sets for the moves in progress) before it is returned.
"""

from __future__ import annotations

import heapq
import math
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rushhour.board import Board, Layout, Move, cell_text, check_metric
from rushhour.errors import IllegalMoveError, LimitReachedError, ParameterError, SolverError
from rushhour.numbers import NumberError, decimal, is_negative, quoted
from rushhour.search.bfs import Limits
from rushhour.search.memory import DEFAULT_MAX_MEMORY
from rushhour.search.tables import tables_for

HANDOVERS = ("strict", "relaxed")
HANDS = ("left", "right")
ONE_HAND = ""
DEFAULT_CAR_SECONDS = 2
DEFAULT_TRUCK_SECONDS = 5
DEFAULT_HANDS = (3, 5)
MAX_TICKS_PER_SECOND = 1000
MAX_MOVE_SECONDS = 24 * 3600
_CHECK_EVERY = 64  # positions between two looks at the clock and the memory (0.1 to 1 ms each to expand)
_SHIFT = 24  # bits for the move count in packed (time, moves) costs

Number = int | float | str | Fraction


def json_seconds(value: Fraction) -> int | float:
    """A number of seconds as JSON gives it: a whole number as an integer (``18``), else a float."""
    return int(value) if value.denominator == 1 else float(value)


def seconds(value: Number, what: str = "duration") -> Fraction:
    """A positive duration in seconds, exactly (``2``, ``2.5``, ``"1.25"``); at most 3 decimals and
    at most :data:`MAX_MOVE_SECONDS`."""
    negative = isinstance(value, str) and is_negative(value)
    if isinstance(value, str) and negative and any(digit in "123456789" for digit in value):
        raise SolverError(f"{what} {quoted(value.strip())} is negative: a move takes more than 0 seconds")
    try:
        if negative:  # -0 and -0.0 are zero, not below it
            result = Fraction(0)
        elif isinstance(value, str):
            result = decimal(value, what)  # then more than a day is said below, as such
        elif isinstance(value, bool):  # True is no number of seconds, though Python counts it as 1
            raise TypeError
        elif isinstance(value, float):  # as written (0.1), not its binary value (0.1000000000000000055...)
            if not math.isfinite(value):
                raise ValueError
            result = Fraction(repr(value))
        else:
            result = Fraction(value)
    except (ValueError, ZeroDivisionError, TypeError, NumberError):
        raise SolverError(f"{what} {value!r} is not a number of seconds like 2 or 2.5") from None
    if result > MAX_MOVE_SECONDS:
        raise SolverError(f"{what} {value} is more than a day ({MAX_MOVE_SECONDS} s) per move")
    if result <= 0:
        raise SolverError(f"{what} must be more than 0 seconds, not {format_seconds(result)}")
    if MAX_TICKS_PER_SECOND % result.denominator:
        raise SolverError(f"{what} {value} has too many decimals: use at most 3")
    return result


def parse_hands(text: str) -> tuple[Fraction, Fraction]:
    """``"3,5"`` -> the left and the right hand's seconds per move."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise ParameterError(f"{{hands}} {text!r}: give two durations, LEFT,RIGHT, like 3,5")
    return seconds(parts[0], "left hand"), seconds(parts[1], "right hand")


def format_seconds(value: Fraction | int) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class TimeModel:
    """What a move costs.  ``hands`` None: one hand with durations by vehicle kind; otherwise the left
    and right hand's seconds per move, whatever the vehicle, under the ``handover`` cell model."""

    metric: str = "steps"
    car: Fraction = Fraction(DEFAULT_CAR_SECONDS)
    truck: Fraction = Fraction(DEFAULT_TRUCK_SECONDS)
    hands: tuple[Fraction, Fraction] | None = None
    handover: str = "strict"

    @classmethod
    def one_hand(
        cls,
        *,
        metric: str = "steps",
        car_seconds: Number = DEFAULT_CAR_SECONDS,
        truck_seconds: Number = DEFAULT_TRUCK_SECONDS,
    ) -> TimeModel:
        return cls(
            check_metric(metric), seconds(car_seconds, "car seconds"), seconds(truck_seconds, "truck seconds")
        )

    @classmethod
    def two_hands(
        cls,
        hands: Sequence[Number] | str = DEFAULT_HANDS,
        *,
        handover: str = "strict",
        metric: str = "steps",
    ) -> TimeModel:
        if isinstance(hands, str):
            pair = parse_hands(hands)
        else:
            if len(hands) != 2:
                raise SolverError(f"two hands need two durations, not {len(hands)}")
            pair = (seconds(hands[0], "left hand"), seconds(hands[1], "right hand"))
        if handover not in HANDOVERS:
            raise SolverError(f"unknown handover {handover!r}: use strict or relaxed")
        return cls(check_metric(metric), hands=pair, handover=handover)

    @property
    def hand_names(self) -> tuple[str, ...]:
        return HANDS if self.hands is not None else (ONE_HAND,)

    def units(self, move: Move) -> int:
        return abs(move.distance) if self.metric == "steps" else 1

    def kind_seconds(self, length: int) -> Fraction:
        """One hand: a car (length 2) takes ``car``, any longer vehicle ``truck``."""
        return self.car if length <= 2 else self.truck

    def duration(self, layout: Layout, move: Move, hand: str) -> Fraction:
        if self.hands is not None:
            if hand not in HANDS:
                raise SolverError(f"hand {hand!r} is not one of {', '.join(HANDS)}")
            return self.hands[HANDS.index(hand)] * self.units(move)
        return self.kind_seconds(layout.lengths[layout.index(move.vehicle)]) * self.units(move)

    def describe(self) -> str:
        per = "per cell" if self.metric == "steps" else "per move"
        if self.hands is None:
            return (
                f"one hand, car {format_seconds(self.car)} s and truck {format_seconds(self.truck)} s {per}"
            )
        left, right = self.hands
        return (
            f"two hands, left {format_seconds(left)} s and right {format_seconds(right)} s {per}, "
            f"{self.handover} handover"
        )

    def tick(self) -> Fraction:
        values = [self.car, self.truck] if self.hands is None else list(self.hands)
        denominator = math.lcm(*(v.denominator for v in values))
        return Fraction(1, denominator)


@dataclass(frozen=True, slots=True)
class TimedMove:
    """One move of a schedule: from ``start`` to ``end`` seconds, by ``hand`` ("" with one hand)."""

    start: Fraction
    end: Fraction
    hand: str
    move: Move

    @property
    def duration(self) -> Fraction:
        return self.end - self.start


@dataclass(frozen=True)
class Schedule:
    """A verified, optimal schedule for ``model``; ``items`` in start order (ties: the order taken)."""

    board: Board
    model: TimeModel
    items: tuple[TimedMove, ...]
    total: Fraction
    optimal: bool
    explored: int
    seconds: float

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(item.move for item in self.items)

    @property
    def steps(self) -> int:
        return sum(abs(m.distance) for m in self.moves)

    @property
    def solved(self) -> bool:
        """False only when the board is proven unsolvable (every reachable position explored)."""
        return bool(self.items) or self.board.is_won()

    def busy(self, hand: str) -> Fraction:
        """How long ``hand`` is moving in total."""
        return sum((item.duration for item in self.items if item.hand == hand), Fraction(0))

    def timeline(self) -> str:
        rows = [("start", "end", "hand", "move")]
        for item in self.items:
            rows.append(
                (format_seconds(item.start), format_seconds(item.end), item.hand or "-", str(item.move))
            )
        w0 = max(len(r[0]) for r in rows)
        w1 = max(len(r[1]) for r in rows)
        w2 = max(len(r[2]) for r in rows)
        return "\n".join(f"{a:>{w0}}  {b:>{w1}}  {c:<{w2}}  {d}".rstrip() for a, b, c, d in rows)

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON; times are numbers of seconds (floats when not whole)."""
        num = json_seconds
        model = self.model
        return {
            "model": "two hands" if model.hands is not None else "one hand",
            "metric": model.metric,
            "seconds_per_move": (
                {"left": num(model.hands[0]), "right": num(model.hands[1])}
                if model.hands is not None
                else {"car": num(model.car), "truck": num(model.truck)}
            ),
            "handover": model.handover if model.hands is not None else None,
            "solved": self.solved,
            "optimal": self.optimal,
            "total": num(self.total),
            "moves": len(self.items),
            "steps": self.steps,
            "schedule": [
                {"start": num(it.start), "end": num(it.end), "hand": it.hand, "move": str(it.move)}
                for it in self.items
            ],
            "explored": self.explored,
            "seconds": round(self.seconds, 6),
        }

    def to_dict(self) -> dict[str, object]:
        """As :meth:`as_dict`, with the names every result uses: ``moves`` the list of moves (``A+2``)
        and ``length`` their number."""
        return {**self.as_dict(), "length": len(self.items), "moves": [str(m) for m in self.moves]}

    def summary(self) -> str:
        moves = len(self.items)
        text = (
            f"{format_seconds(self.total)} s ({'optimal' if self.optimal else 'not proven optimal'}; "
            f"{moves} move{'s' if moves != 1 else ''}, {self.steps} step{'s' if self.steps != 1 else ''}; "
            f"{self.model.describe()})"
        )
        if self.model.hands is not None:
            left, right = (format_seconds(self.busy(h)) for h in HANDS)
            text += f"; hands busy: left {left} s, right {right} s"
        return text


# --- verification -----------------------------------------------------------------------------------


def _swept(layout: Layout, i: int, offset: int, distance: int) -> set[tuple[int, int]]:
    sign = 1 if distance > 0 else -1
    cells: set[tuple[int, int]] = set()
    for k in range(abs(distance) + 1):
        cells.update(layout.cells(i, offset + sign * k))
    return cells


def verify_schedule(board: Board, items: Iterable[TimedMove], model: TimeModel) -> Board:
    """Replay ``items`` in time order by the rules of ``model``; return the final board.

    Raises :class:`IllegalMoveError` when a move breaks the rules when it starts (the board, a cell
    still held by a moving vehicle, a vehicle already moving) and :class:`SolverError` when the
    schedule itself is wrong (a duration, a hand doing two things at once, the goal not reached).
    """
    items = list(items)
    for item in items:
        _check_item(board.layout, item, model)
    for hand in model.hand_names:
        _check_one_at_a_time(items, hand)
    current = _replay(board, items, model)
    if not current.is_won():
        raise SolverError(f"after the schedule {current.goal} is not at the exit")
    return current


def _check_item(layout: Layout, item: TimedMove, model: TimeModel) -> None:
    """One move on its own: a hand of the model, a start at 0 s or later, one cell in the steps
    metric, the duration the model gives it."""
    hands = model.hand_names
    if item.hand not in hands:
        named = ", ".join(repr(h) for h in hands)
        raise SolverError(f"{item.move} at {format_seconds(item.start)} s: hand {item.hand!r} is not {named}")
    if item.start < 0:
        raise SolverError(f"{item.move} starts before 0 s")
    if model.metric == "steps" and abs(item.move.distance) != 1:
        raise SolverError(f"{item.move}: in the steps metric every move slides one cell")
    expected = model.duration(layout, item.move, item.hand)
    if item.duration != expected:
        raise SolverError(
            f"{item.move} at {format_seconds(item.start)} s lasts {format_seconds(item.duration)} s, "
            f"but takes {format_seconds(expected)} s in this model"
        )


def _check_one_at_a_time(items: list[TimedMove], hand: str) -> None:
    """``hand`` starts a move only once its previous move has ended."""
    own = sorted((it for it in items if it.hand == hand), key=lambda it: it.start)
    for first, then in zip(own, own[1:], strict=False):
        if then.start < first.end:
            who = f"the {hand} hand" if hand else "the hand"
            raise SolverError(
                f"{who} starts {then.move} at {format_seconds(then.start)} s while still making "
                f"{first.move} (until {format_seconds(first.end)} s)"
            )


@dataclass(frozen=True, slots=True)
class _Moving:
    """A move in progress while a schedule is replayed: the cells it still holds."""

    item: TimedMove
    vehicle: str
    held: frozenset[tuple[int, int]]


def _replay(board: Board, items: list[TimedMove], model: TimeModel) -> Board:
    """The board after ``items``, each started at its instant (ties: in the order given) on the
    board where every earlier start has been applied; the moves still in progress hold their cells."""
    order = sorted(range(len(items)), key=lambda k: (items[k].start, k))
    times = sorted({it.start for it in items} | {it.end for it in items})
    current = board
    active: list[_Moving] = []
    nxt = 0
    for t in times:
        active = [a for a in active if a.item.end > t]
        while nxt < len(order) and items[order[nxt]].start == t:
            item = items[order[nxt]]
            nxt += 1
            after, held = _start(current, item, active, model)
            active.append(_Moving(item, item.move.vehicle, held))
            current = after
    return current


def _start(
    current: Board, item: TimedMove, active: list[_Moving], model: TimeModel
) -> tuple[Board, frozenset[tuple[int, int]]]:
    """Start ``item`` on ``current`` while ``active`` moves are in progress: the board after it and
    the cells it holds until it ends (by the model's handover)."""
    layout = current.layout
    move = item.move
    when = f"at {format_seconds(item.start)} s"
    for other in active:
        if other.vehicle == move.vehicle:
            raise IllegalMoveError(
                f"{when}: {move} moves {other.vehicle}, which is still moving ({other.item.move} until "
                f"{format_seconds(other.item.end)} s)"
            )
    i = layout.index(move.vehicle)
    offset = current.state[i]
    try:
        after = current.apply(move)
    except IllegalMoveError as err:
        raise IllegalMoveError(f"{when}: {err}") from None
    old = set(layout.cells(i, offset))
    new = set(layout.cells(i, after.state[i]))
    swept = _swept(layout, i, offset, move.distance)
    for other in active:
        clash = sorted((swept - old) & other.held)
        if clash:
            raise IllegalMoveError(
                f"{when}: {move} enters cell {cell_text(clash[0])}, still held by {other.item.move} until "
                f"{format_seconds(other.item.end)} s ({model.handover} handover)"
            )
    held = swept - new if model.handover == "strict" else swept - old - new
    return after, frozenset(held)


# --- shared machinery -------------------------------------------------------------------------------


class _Clock(Limits):
    """The limits of a timed search, as every search has them (:class:`Limits`, its checks and its
    messages), and the time since the start.  The state count is checked at every state; the clock
    and the memory every :data:`_CHECK_EVERY` states, since the searches here check state by state
    rather than batch by batch.  ``bound`` adds what the search has proven so far to the message."""

    __slots__ = ("started",)

    def __init__(
        self, time_limit: float | None, max_states: int | None, max_memory: int | None = DEFAULT_MAX_MEMORY
    ) -> None:
        self.started = time.perf_counter()
        super().__init__(max_states, time_limit, max_memory)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self, count: int, what: str = "positions", bound: Callable[[], Fraction] | None = None) -> None:
        """Raise :class:`LimitReachedError` at a limit, with what ``bound`` says the search has proven (no
        schedule finishes in less than that many seconds) in its message and its ``lower_total``."""
        if count % _CHECK_EVERY and (self.max_states is None or count <= self.max_states):
            return
        try:
            super().check(count, what)
        except LimitReachedError as err:
            proven = None if bound is None else bound()
            if not proven:
                raise
            said = f"; proven: no schedule finishes in less than {format_seconds(proven)} s"
            raise LimitReachedError(f"{err}{said}", explored=count, lower_total=proven) from None


class _Cluster:
    """Every position reachable from a board, its moves in one metric, and cell masks of each move.

    Kept compact: positions are numbered in the order found and known by their packed search keys
    (:meth:`Tables.pack`, one integer each); the moves out of position ``k`` are
    ``edge_move[edge_start[k]:edge_start[k + 1]]`` (move ids) leading to the positions
    ``edge_to[...]`` of the same slice, in flat arrays of machine integers."""

    def __init__(self, board: Board, metric: str, clock: _Clock) -> None:
        self.layout = board.layout
        self.count = 0
        self.edge_start = array("q", [0])
        self.edge_move = array("l")
        self.edge_to = array("q")
        #: (vehicle, offset, distance) -> move id; the move's vehicle, notation and cell masks by id
        self.move_ids: dict[tuple[int, int, int], int] = {}
        self.vehicle: list[int] = []
        self.moves: list[Move] = []
        self.entered: list[int] = []
        self.ghost: dict[str, list[int]] = {"strict": [], "relaxed": []}
        self.won = array("b")
        self._explore(board, metric, clock)

    def _explore(self, board: Board, metric: str, clock: _Clock) -> None:
        """Breadth-first from ``board``: number every position, record every move out of it."""
        layout = board.layout
        tables = tables_for(layout, metric)
        index: dict[int, int] = {tables.pack(board.state): 0}
        self.count = 1
        queue = deque([board.state])
        while queue:
            here = Board.from_layout(layout, queue.popleft())
            self.won.append(here.is_won())
            clock.check(len(self.won), "positions")
            for move, there in here.successors(metric):
                i = layout.index(move.vehicle)
                mid = self.move_ids.get((i, here.state[i], move.distance))
                if mid is None:
                    mid = self._new_move(i, here.state[i], move, there.state[i])
                z = tables.pack(there.state)
                k = index.get(z)
                if k is None:
                    k = index[z] = self.count
                    self.count += 1
                    queue.append(there.state)
                self.edge_move.append(mid)
                self.edge_to.append(k)
            self.edge_start.append(len(self.edge_to))

    def _new_move(self, i: int, offset: int, move: Move, after: int) -> int:
        """Number a move of vehicle ``i`` from ``offset`` to ``after``, with the cells it enters and
        the cells it holds while it moves under each handover model."""
        layout = self.layout
        w = layout.width
        mid = self.move_ids[(i, offset, move.distance)] = len(self.moves)
        old = set(layout.cells(i, offset))
        new = set(layout.cells(i, after))
        swept = _swept(layout, i, offset, move.distance)
        self.vehicle.append(i)
        self.moves.append(move)
        self.entered.append(_mask(swept - old, w))
        self.ghost["strict"].append(_mask(swept - new, w))
        self.ghost["relaxed"].append(_mask(swept - old - new, w))
        return mid

    def edges(self, k: int) -> Iterable[tuple[int, int]]:
        """(move id, next position) of every move out of position ``k``."""
        a, b = self.edge_start[k], self.edge_start[k + 1]
        return zip(self.edge_move[a:b], self.edge_to[a:b], strict=True)

    def distance_to_win(self) -> array[int]:
        """Fewest moves (of this metric) from each position to a won one; -1 when none is reachable.

        Every move can be undone, so the move graph is symmetric and one breadth-first search from all
        the won positions at once does it."""
        dist = array("l", [-1]) * self.count
        queue: deque[int] = deque()
        for k, won in enumerate(self.won):
            if won:
                dist[k] = 0
                queue.append(k)
        while queue:
            k = queue.popleft()
            for _, n in self.edges(k):
                if dist[n] < 0:
                    dist[n] = dist[k] + 1
                    queue.append(n)
        return dist


def _mask(cells: Iterable[tuple[int, int]], width: int) -> int:
    m = 0
    for r, c in cells:
        m |= 1 << (r * width + c)
    return m


def _unsolvable(board: Board, model: TimeModel, explored: int, clock: _Clock) -> Schedule:
    """The answer for a board whose whole reachable set holds no win: proven unsolvable."""
    return Schedule(board, model, (), Fraction(0), True, explored, clock.elapsed())


def _finish(
    board: Board,
    model: TimeModel,
    starts: list[tuple[int, str, Move]],
    tick: Fraction,
    explored: int,
    clock: _Clock,
) -> Schedule:
    items = []
    for start, hand, move in starts:
        begin = start * tick
        items.append(TimedMove(begin, begin + model.duration(board.layout, move, hand), hand, move))
    items.sort(key=lambda it: it.start)  # stable: ties keep the order they were taken in
    verify_schedule(board, items, model)
    total = max((it.end for it in items), default=Fraction(0))
    return Schedule(board, model, tuple(items), total, True, explored, clock.elapsed())


# --- one hand: uniform-cost search -----------------------------------------------------------------


def solve_timed(
    board: Board,
    *,
    metric: str = "steps",
    car_seconds: Number = DEFAULT_CAR_SECONDS,
    truck_seconds: Number = DEFAULT_TRUCK_SECONDS,
    max_states: int | None = None,
    time_limit: float | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
) -> Schedule:
    """The solution of least total time with one hand (see the module docstring).  For an unsolvable
    board: a schedule with no moves and ``solved`` False; :class:`LimitReachedError` at a limit."""
    model = TimeModel.one_hand(metric=metric, car_seconds=car_seconds, truck_seconds=truck_seconds)
    return schedule(board, model, max_states=max_states, time_limit=time_limit, max_memory=max_memory)


def _uniform_cost(board: Board, model: TimeModel, clock: _Clock) -> Schedule:
    """Dijkstra over positions numbered in the order found: a position is its packed key in one
    dictionary, and its best cost, its parent and the move from it are machine integers in arrays;
    the queue holds (cost, number) pairs, the number breaking ties in the order found."""
    layout = board.layout
    tables = tables_for(layout, model.metric)
    tick = model.tick()
    cost_of = [int(model.kind_seconds(length) / tick) for length in layout.lengths]
    number: dict[int, int] = {tables.pack(board.state): 0}
    keys = [tables.pack(board.state)]
    best = array("q", [0])
    parent = array("q", [-1])
    via = array("l", [0])  # vehicle index * 512 + distance + 256 of the move that reached it
    heap: list[tuple[int, int]] = [(0, 0)]
    expanded = 0
    taken = [0]  # the time of the position taken last, in ticks

    def proven() -> Fraction:  # positions are taken in order of time: no schedule finishes sooner
        return taken[0] * tick

    while heap:
        g, k = heapq.heappop(heap)
        if g > best[k]:
            continue
        here = Board.from_layout(layout, tables.unpack(keys[k]))
        if here.is_won():
            starts = _one_after_another(layout, _path_to(layout, k, parent, via), model, cost_of)
            return _finish(board, model, starts, tick, expanded, clock)
        expanded += 1
        taken[0] = g
        clock.check(expanded, "positions", proven)
        for move, there in here.successors(model.metric):
            i = layout.index(move.vehicle)
            cost = g + cost_of[i] * model.units(move)
            z = tables.pack(there.state)
            n = number.get(z)
            if n is None:
                n = number[z] = len(keys)
                keys.append(z)
                best.append(cost)
                parent.append(k)
                via.append(i * 512 + move.distance + 256)
            elif cost < best[n]:
                best[n], parent[n], via[n] = cost, k, i * 512 + move.distance + 256
            else:
                continue
            heapq.heappush(heap, (cost, n))
    return _unsolvable(board, model, expanded, clock)


def _path_to(layout: Layout, k: int, parent: array[int], via: array[int]) -> list[Move]:
    """The moves from the start to position ``k`` (its parents, and the move that reached each one
    packed as vehicle * 512 + distance + 256)."""
    path: list[Move] = []
    while parent[k] >= 0:
        i, distance = divmod(via[k], 512)
        path.append(Move(layout.names[i], distance - 256))
        k = parent[k]
    path.reverse()
    return path


def _one_after_another(
    layout: Layout, path: list[Move], model: TimeModel, cost_of: list[int]
) -> list[tuple[int, str, Move]]:
    """The start of each move in ticks when one hand makes them without a pause."""
    starts, clock_at = [], 0
    for move in path:
        starts.append((clock_at, ONE_HAND, move))
        clock_at += cost_of[layout.index(move.vehicle)] * model.units(move)
    return starts


# --- two hands: A* over (position, move in progress) -------------------------------------------------


def solve_hands(
    board: Board,
    hands: Sequence[Number] | str = DEFAULT_HANDS,
    *,
    handover: str = "strict",
    metric: str = "steps",
    max_states: int | None = None,
    time_limit: float | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
) -> Schedule:
    """The schedule of least total time with two hands (see the module docstring)."""
    model = TimeModel.two_hands(hands, handover=handover, metric=metric)
    return schedule(board, model, max_states=max_states, time_limit=time_limit, max_memory=max_memory)


class HandsSearch:
    """The two-hand A*; after a :class:`LimitReachedError`, :attr:`bound` is the best lower bound
    proven (in seconds): no schedule finishes sooner."""

    def __init__(self, board: Board, model: TimeModel) -> None:
        if model.hands is None:
            raise SolverError("the two-hand search needs a model with two hands")
        self.board = board
        self.model = model
        self.tick = model.tick()
        self.speed = tuple(int(s / self.tick) for s in model.hands)
        self.bound = Fraction(0)
        self.explored = 0
        self.positions = 0
        self._bounds: dict[tuple[int, int, int], int] = {}

    def _lower(self, hand: int, rem: int, d: int) -> int:
        """Least T (ticks) by which ``d`` more moves can be made when ``hand`` is busy for ``rem``
        more ticks (``hand`` -1: both free) and the hands could work without ever waiting."""
        key = (hand, rem, d)
        found = self._bounds.get(key)
        if found is not None:
            return found
        # the moves made grow with the time: bisect, not tick by tick (a day is 86.4 million ticks)
        low = 0 if hand < 0 else rem
        high = low + d * min(self.speed)  # by then the faster hand alone has made d moves
        while low < high:
            middle = (low + high) // 2
            if self._made(hand, rem, middle) >= d:
                high = middle
            else:
                low = middle + 1
        self._bounds[key] = low
        return low

    def _made(self, hand: int, rem: int, t: int) -> int:
        """How many moves the two hands can have made by ``t`` ticks (``t >= rem``) when ``hand`` is
        busy for ``rem`` more ticks (``hand`` -1: both free)."""
        s = self.speed
        if hand < 0:
            return t // s[0] + t // s[1]
        return t // s[1 - hand] + (t - rem) // s[hand]

    def run(
        self,
        *,
        max_states: int | None = None,
        time_limit: float | None = None,
        max_memory: int | None = DEFAULT_MAX_MEMORY,
    ) -> Schedule:
        """Search; ``max_states`` bounds the positions of the board and, separately, the timed
        states expanded; ``max_memory`` the bytes the search may add to the process."""
        clock = _Clock(time_limit, max_states, max_memory)
        cluster = _Cluster(self.board, self.model.metric, clock)
        self.positions = cluster.count
        dist = cluster.distance_to_win()
        if dist[0] < 0:
            return _unsolvable(self.board, self.model, cluster.count, clock)
        return self._search(cluster, dist, clock)

    def _search(self, cluster: _Cluster, dist: array[int], clock: _Clock) -> Schedule:
        """A* over the timed states of ``cluster`` (``dist``: each position's fewest moves to a win).

        Costs are lexicographic, (time, moves) packed as time << SHIFT | moves: the fastest schedule,
        and among the fastest one with the fewest moves.  The bound adds the fewest moves left.

        A state (position p, busy hand h or -1, move id m in progress or -1, ticks r left of it) is
        one integer, ((p * 3 + h + 1) * moves + m + 1) * ticks + r; what reached it, (the previous
        state, the hand and move started then or -1, -1, and the instant) another,
        ((now * 3 + hand + 1) * moves + move + 1) * states + previous state, so that the search holds
        two integers per state in its dictionaries."""
        speed, shift, lower = self.speed, _SHIFT, self._lower
        edges, vehicle, entered = cluster.edges, cluster.vehicle, cluster.entered
        ghost = cluster.ghost[self.model.handover]
        n_moves, n_ticks = len(cluster.moves) + 1, max(speed) + 1
        n_states = cluster.count * 3 * n_moves * n_ticks
        start = 0  # position 0, both hands free
        best: dict[int, int] = {start: 0}
        parent: dict[int, int] = {start: -1}
        heap: list[tuple[int, int, int, int]] = [((lower(-1, 0, dist[0]) << shift) + dist[0], 0, 0, start)]
        counter = 0
        expanded = 0

        def proven() -> Fraction:
            return Fraction(self.bound)

        def push(p: int, h: int, m: int, r: int, g: int, came: int) -> None:
            nonlocal counter
            state = ((p * 3 + h + 1) * n_moves + m + 1) * n_ticks + r
            if g < best.get(state, g + 1):
                d = dist[p]
                best[state] = g
                parent[state] = came
                counter += 1
                heapq.heappush(heap, (g + (lower(h, r, d) << shift) + d, -g, counter, state))

        def start_one(p: int, g: int, state: int) -> None:
            """Both hands free: either hand starts any move."""
            now = (g >> shift) * 3
            for h in (0, 1):
                for m, q in edges(p):
                    push(q, h, m, speed[h], g + 1, ((now + h + 1) * n_moves + m + 1) * n_states + state)

        def go_on(p: int, hand: int, mid: int, rem: int, g: int, state: int) -> None:
            """``hand`` is making move ``mid`` for ``rem`` more ticks: let it finish, or let the other
            hand start a move that does not clash with it (and see which of the two ends first)."""
            now = (g >> shift) * 3
            push(p, -1, -1, 0, g + (rem << shift), now * n_moves * n_states + state)
            other = 1 - hand
            mine = speed[other]
            busy_vehicle, busy_ghost = vehicle[mid], ghost[mid]
            for m, q in edges(p):
                if vehicle[m] == busy_vehicle or entered[m] & busy_ghost:
                    continue
                came = ((now + other + 1) * n_moves + m + 1) * n_states + state
                if mine < rem:
                    push(q, hand, mid, rem - mine, g + (mine << shift) + 1, came)
                elif mine > rem:
                    push(q, other, m, mine - rem, g + (rem << shift) + 1, came)
                else:
                    push(q, -1, -1, 0, g + (rem << shift) + 1, came)

        while heap:
            f, neg_g, _, state = heapq.heappop(heap)
            g = -neg_g
            if g > best[state]:
                continue
            self.bound = max(self.bound, (f >> shift) * self.tick)
            rest, rem = divmod(state, n_ticks)
            rest, mid = divmod(rest, n_moves)
            p, hand = divmod(rest, 3)
            mid, hand = mid - 1, hand - 1
            if hand < 0 and cluster.won[p]:
                return self._schedule(state, parent, n_moves, n_states, cluster, expanded, clock)
            expanded += 1
            self.explored = expanded
            clock.check(expanded, "timed states", proven)
            if hand < 0:
                start_one(p, g, state)
            else:
                go_on(p, hand, mid, rem, g, state)
        raise SolverError("the two-hand search ran out of states before a win")  # pragma: no cover

    def _schedule(
        self,
        goal: int,
        parent: dict[int, int],
        n_moves: int,
        n_states: int,
        cluster: _Cluster,
        expanded: int,
        clock: _Clock,
    ) -> Schedule:
        starts: list[tuple[int, str, Move]] = []
        came = parent[goal]
        while came >= 0:
            rest, prev = divmod(came, n_states)
            rest, mid = divmod(rest, n_moves)
            when, hand = divmod(rest, 3)
            if hand > 0:
                starts.append((when, HANDS[hand - 1], cluster.moves[mid - 1]))
            came = parent[prev]
        starts.reverse()
        return _finish(self.board, self.model, starts, self.tick, expanded, clock)


def schedule(
    board: Board,
    model: TimeModel,
    *,
    max_states: int | None = None,
    time_limit: float | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
) -> Schedule:
    """The optimal schedule of ``board`` in ``model`` (one hand or two), verified by replay; for an
    unsolvable board a schedule with no moves and ``solved`` False."""
    if model.hands is None:
        return _uniform_cost(board, model, _Clock(time_limit, max_states, max_memory))
    return HandsSearch(board, model).run(max_states=max_states, time_limit=time_limit, max_memory=max_memory)


# --- the clock of a game ----------------------------------------------------------------------------


def clock(board: Board, moves: Iterable[Move], model: TimeModel) -> Fraction:
    """The time one hand spends making ``moves`` from ``board``: each move costs its vehicle kind's
    duration per cell (``steps`` metric) or per slide (``moves``).  The moves are not checked here."""
    if model.hands is not None:
        raise SolverError("the clock of a game counts one hand")
    return sum((model.duration(board.layout, move, ONE_HAND) for move in moves), Fraction(0))


def clock_report(board: Board, moves: Sequence[Move], model: TimeModel, *, time_limit: float = 60.0) -> str:
    """A sentence for the end of a timed game: the time spent, and the fastest solution of ``board``."""
    spent = format_seconds(clock(board, moves, model))
    try:
        best = schedule(board, model, time_limit=time_limit)
    except SolverError:  # a limit: say only what is known
        best = None
    if best is None or not best.solved:
        return f"Clock: {spent} s ({model.describe()})."
    fastest = format_seconds(best.total)
    verdict = (
        "the fastest possible!" if clock(board, moves, model) == best.total else f"the fastest is {fastest} s"
    )
    return f"Clock: {spent} s, {verdict} ({model.describe()})."
