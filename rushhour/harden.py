"""Making a board harder: the hardest position of its reachable set, then nearby boards that are longer.

:func:`hardest_position` explores a board's whole reachable set (its *cluster*, by the compiled
analysis when built) and returns the position farthest from any win, its optimal solution (found again
by the solver and replayed) and the size of the set.

:func:`harden` then searches nearby boards by simulated annealing: a random small change (a vehicle
shifted, moved elsewhere, turned, made longer or shorter, added or removed; a wall moved) is kept when
the hardest position of the changed board's reachable set is not shorter, by chance when it is (on
boards larger than 6x6: when its energy is not worse, see :data:`SIZE_WEIGHT`), and each board whose
hardest position is longer than every one before is verified (solved again from scratch, its solution
replayed) and reported as an improvement.  Every search, the verifying solves included, keeps to what is
left of ``time_limit``: a board found too late to be solved again in time is not reported
(:attr:`Hardening.unverified` says its length).  With ``keep_vehicles`` only the places change: the same
vehicles (names, lengths) and the same walls.  An improvement is never shorter than the start: the
first report is the start's own hardest position.

Both run without holding the interpreter lock in the compiled search, take a ``should_stop`` callable
(checked between candidates) and a ``time_limit``, so a screen can run them beside its keys and cancel
them.  Everything random comes from ``seed``: the same seed, the same improvements (given the time to
reach them: a time limit may stop a run earlier on a slower machine).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from rushhour.board import HORIZONTAL, VERTICAL, Board, Move, Vehicle
from rushhour.errors import (
    LimitReachedError,
    ParameterError,
    RushHourError,
    SolverError,
    expect,
    expect_callable,
    expect_seconds,
    expect_whole,
)
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.generator import PACKED_FROM, SECONDARY
from rushhour.search import Analysis, analyze, solve
from rushhour.search.analysis import KnownClusters
from rushhour.text import plural, seconds_text

#: the positions a candidate's reachable set may hold: this many times the start's (at least
#: :data:`MIN_CANDIDATE_STATES`), so that a change cannot make a search much longer than the start's
CANDIDATE_FACTOR = 4
MIN_CANDIDATE_STATES = 50_000
#: the annealing's starting temperature (falling linearly over ``ANNEAL_STEPS`` candidates, then
#: starting again from the best board): a change one move shorter is kept with chance exp(-1 / T)
TEMPERATURE = 1.5
ANNEAL_STEPS = 400
#: boards of more cells than this (larger than 6x6: :data:`rushhour.generator.PACKED_FROM`) have
#: reachable sets of a hundred thousand positions and more, where changes judged by the length alone
#: wander into loose boards whose every exploration is long.  There, as in the generator's annealing,
#: a board's energy also counts the mean distance of its positions to a win (weighted by
#: :data:`rushhour.generator.SECONDARY`) and the size of its reachable set: ten times larger costs
#: ``SIZE_WEIGHT`` of a move; and a candidate is explored up to ``GROWTH`` times the current board's set
#: (and a thousand positions).  On 6x6 both would cost length (docs/benchmarks.md, harden)
SIZE_WEIGHT = 0.5
GROWTH = 2
#: the chance of each kind of change when every kind is allowed
CHANGES = (("shift", 0.3), ("move", 0.2), ("turn", 0.1), ("resize", 0.1), ("add", 0.12), ("remove", 0.12))


@dataclass(frozen=True)
class Hardest:
    """The hardest position of a board's reachable set: ``board``, its optimal solution ``moves``
    (``length`` of them, -1 when no win is reachable: then ``board`` is the position given and
    ``moves`` is empty) and the ``reachable`` set's size."""

    board: Board
    length: int
    moves: tuple[Move, ...]
    reachable: int

    @property
    def solvable(self) -> bool:
        return self.length >= 0

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the board as one line of text, the length, the moves and the set's size."""
        from rushhour.formats.single import board_ref

        return {
            "board": board_ref(self.board),
            "length": self.length if self.solvable else None,
            "moves": [str(m) for m in self.moves],
            "reachable": self.reachable,
        }


def hardest_position(
    board: Board, *, max_states: int | None = None, time_limit: float | None = None
) -> Hardest:
    """The position of ``board``'s reachable set farthest from a win, solved again from scratch.

    >>> from rushhour import Board
    >>> h = hardest_position(Board.from_text("AA.B../...B../...B../....../....../......"))
    >>> h.length, h.reachable, h.board.rows()[0]
    (2, 18, 'AA.B..')

    Raises :class:`~rushhour.errors.LimitReachedError` when a limit stops the exploration, or when
    ``time_limit`` runs out before the hardest position is solved again."""
    expect(board, Board, "board", "a Board")
    return _explored(board, max_states, time_limit)[0]


def _explored(board: Board, max_states: int | None, time_limit: float | None) -> tuple[Hardest, Analysis]:
    """:func:`hardest_position`, and the analysis it comes from, both within ``time_limit``."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    a = analyze(board, max_states=max_states, time_limit=time_limit)
    if not a.solvable:
        return Hardest(board, -1, (), a.cluster_size), a
    try:
        return _verified(a.hardest, a.hardest_distance, a.cluster_size, deadline), a
    except LimitReachedError:
        if deadline is None or time_limit is None or time.perf_counter() < deadline:
            raise  # another limit of the solve (its memory): as it says it
        raise LimitReachedError(
            f"stopped at the time limit of {seconds_text(time_limit)} s while the hardest position found "
            f"({plural(a.hardest_distance, 'move')} by the analysis of {plural(a.cluster_size, 'position')}) "
            "was solved again",
            explored=a.cluster_size,
        ) from None


def _verified(board: Board, length: int, reachable: int, deadline: float | None = None) -> Hardest:
    """The hardest position of an analysis, solved again (the solver replays its answer), which must
    agree with the analysis; the solve stops at ``deadline`` (:data:`time.perf_counter` seconds, None:
    no limit) with :class:`~rushhour.errors.LimitReachedError`."""
    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        raise LimitReachedError("no time left to solve the hardest position again")
    solution = solve(board, time_limit=left)
    if not solution.solved or solution.length != length:
        raise SolverError(
            f"the solver needs {solution.length} moves on a position the analysis puts at {length}: "
            f"{' '.join(board.rows())}"
        )
    return Hardest(board, length, tuple(solution.moves), reachable)


@dataclass(frozen=True)
class Improvement:
    """One report of :func:`harden`: the best board so far (its hardest position), how many candidate
    boards were tried before it and the seconds since the start."""

    hardest: Hardest
    tried: int
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return {**self.hardest.to_dict(), "tried": self.tried, "seconds": round(self.seconds, 3)}


def harden(
    board: Board,
    *,
    time_limit: float | None = 10.0,
    max_tries: int | None = None,
    keep_vehicles: bool = False,
    seed: int = 0,
    on_improvement: Callable[[Improvement], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_vehicles: int | None = None,
) -> list[Improvement]:
    """Every improvement found within ``time_limit`` seconds (None: no limit) and ``max_tries``
    candidates, the start's hardest position first; ``on_improvement`` is called with each as it is
    found, and the search ends early when ``should_stop()`` is true.  With ``max_vehicles`` no vehicle
    is added to a board that has that many (the Fogleman format's 26 letters, say).

    >>> from rushhour import Board
    >>> found = harden(Board.from_text("AA.B../...B../...B../....../....../......"), max_tries=60,
    ...                time_limit=None, seed=1)
    >>> found[0].hardest.length, found[-1].hardest.length > found[0].hardest.length
    (2, True)
    >>> all(a.hardest.length < b.hardest.length for a, b in zip(found, found[1:]))
    True
    """
    expect_callable(on_improvement, "on_improvement")
    out = []
    for found in improvements(
        board,
        time_limit=time_limit,
        max_tries=max_tries,
        keep_vehicles=keep_vehicles,
        seed=seed,
        should_stop=should_stop,
        max_vehicles=max_vehicles,
    ):
        out.append(found)
        if on_improvement is not None:
            on_improvement(found)
    return out


def improvements(
    board: Board,
    *,
    time_limit: float | None = 10.0,
    max_tries: int | None = None,
    keep_vehicles: bool = False,
    seed: int = 0,
    should_stop: Callable[[], bool] | None = None,
    max_vehicles: int | None = None,
) -> Hardening:
    """:func:`harden` as an iterator: the start's hardest position, then each verified improvement.  The
    iterator also says how far the search went (:attr:`Hardening.tried`, :attr:`Hardening.seconds`)."""
    expect(board, Board, "board", "a Board")
    expect_seconds(time_limit, "time_limit")
    expect_whole(max_tries, "max_tries", none=True)
    expect_whole(seed, "seed")
    expect_whole(max_vehicles, "max_vehicles", none=True)
    expect_callable(should_stop, "should_stop")
    if time_limit is not None and not 0 < time_limit < math.inf:  # NaN too
        raise ParameterError(f"{{time_limit}} must be a positive number of seconds, not {time_limit}")
    if max_tries is not None and max_tries < 0:
        raise ParameterError(f"{{max_tries}} must be at least 0, not {max_tries}")
    if max_vehicles is not None and len(board.vehicles) > max_vehicles:
        raise ParameterError(
            f"the board has {len(board.vehicles)} vehicles, more than {{max_vehicles}} {max_vehicles}"
        )
    return Hardening(board, time_limit, max_tries, keep_vehicles, seed, should_stop, max_vehicles)


class Hardening(Iterator[Improvement]):
    """One run of :func:`improvements`: iterating it searches.  ``tried`` counts the candidate boards
    tried so far and ``seconds`` the time since the search began (0 before the first report);
    ``unverified`` the length (by its analysis) of a board longer than every one reported that was found
    so near the deadline that it could not be solved again before it, and so was not reported (None:
    none); the run ends there.  Another limit that stops a verifying solve (its memory) stops the run
    with that solve's :class:`~rushhour.errors.LimitReachedError`."""

    def __init__(
        self,
        board: Board,
        time_limit: float | None,
        max_tries: int | None,
        keep_vehicles: bool,
        seed: int,
        should_stop: Callable[[], bool] | None,
        max_vehicles: int | None = None,
    ) -> None:
        self._board, self._time_limit, self._max_tries = board, time_limit, max_tries
        self._max_vehicles = max_vehicles
        self._keep, self._seed, self._should_stop = keep_vehicles, seed, should_stop
        self._steps = self._run()
        self._search: _Annealing | None = None
        self._began: float | None = None
        self._ended: float | None = None

    @property
    def tried(self) -> int:
        return 0 if self._search is None else self._search.tried

    @property
    def seconds(self) -> float:
        if self._began is None:
            return 0.0
        return (self._ended or time.perf_counter()) - self._began

    @property
    def unverified(self) -> int | None:
        search = self._search
        if search is None or search.unverified is None or search.unverified <= search.best.length:
            return None
        return search.unverified

    def __next__(self) -> Improvement:
        return next(self._steps)

    def _run(self) -> Iterator[Improvement]:
        began = self._began = time.perf_counter()
        deadline = None if self._time_limit is None else began + self._time_limit
        start, analysis = _explored(self._board, None, self._time_limit)
        if not start.solvable:
            raise RushHourError("the board is unsolvable: no reachable position has its goal at the exit")
        yield Improvement(start, 0, time.perf_counter() - began)
        rng = random.Random(f"rushhour-harden:{self._seed}")
        search = self._search = _Annealing(start, analysis, self._keep, rng, deadline, self._max_vehicles)
        while not search.done(self._max_tries, self._should_stop):
            found = search.step()
            if found is not None:
                yield Improvement(found, search.tried, time.perf_counter() - began)
        self._ended = time.perf_counter()


class _Annealing:
    """The state of one :func:`harden` run."""

    def __init__(
        self,
        start: Hardest,
        analysis: Analysis,
        keep: bool,
        rng: random.Random,
        deadline: float | None,
        max_vehicles: int | None = None,
    ) -> None:
        self.rng, self.keep, self.deadline, self.max_vehicles = rng, keep, deadline, max_vehicles
        self.limit = max(MIN_CANDIDATE_STATES, CANDIDATE_FACTOR * start.reachable)
        self.large = start.board.width * start.board.height > PACKED_FROM
        self.best = self.current = start
        self.best_energy = self.energy = self.energy_of(analysis)
        self.tried = self.step_in_round = 0
        self.seen: set[tuple[str, ...]] = {tuple(start.board.rows())}
        self.clusters = KnownClusters()  # the annealing meets the same candidates again and again
        self.unverified: int | None = None  # the longest board found that could not be solved again

    def energy_of(self, a: Analysis) -> float:
        """How bad a board is (lower is better): minus its hardest length, and on a large board (see
        :data:`SIZE_WEIGHT`) less a fraction of a move for the mean distance to a win, plus one for the
        reachable set's size."""
        if not self.large:
            return -a.hardest_distance
        d = a.hardest_distance
        return -d - SECONDARY * a.mean_distance / (d + 1) + SIZE_WEIGHT * math.log10(a.cluster_size)

    def done(self, max_tries: int | None, should_stop: Callable[[], bool] | None) -> bool:
        if max_tries is not None and self.tried >= max_tries:
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        return should_stop is not None and should_stop()

    def step(self) -> Hardest | None:
        """Try one candidate; the verified hardest position when it beats the best so far."""
        self.tried += 1
        self.step_in_round += 1
        if self.step_in_round > ANNEAL_STEPS:  # a new round from the best board, hot again
            self.step_in_round, self.current, self.energy = 1, self.best, self.best_energy
        candidate = changed(
            self.current.board, self.rng, keep_vehicles=self.keep, max_vehicles=self.max_vehicles
        )
        if candidate is None:
            return None
        a = self.analyse(candidate)
        if a is None:
            return None
        energy = self.energy_of(a)
        if not self.accept(energy):
            return None
        length, hardest, reachable = a.hardest_distance, a.hardest, a.cluster_size
        self.current, self.energy = Hardest(hardest, length, (), reachable), energy
        if length <= self.best.length or tuple(hardest.rows()) in self.seen:
            return None
        self.seen.add(tuple(hardest.rows()))
        try:  # within the time left: a board that cannot be verified in time is not reported
            self.best = self.current = _verified(hardest, length, reachable, self.deadline)
        except LimitReachedError:
            if self.deadline is None or time.perf_counter() < self.deadline:
                raise  # another limit of the solve (its memory): a stop, in its own words
            self.unverified = max(length, self.unverified or 0)  # the run ends here: it is said
            return None
        self.best_energy = energy
        return self.best

    def analyse(self, board: Board) -> Analysis | None:
        left = None if self.deadline is None else self.deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        limit = self.limit
        if self.large:
            limit = min(limit, GROWTH * self.current.reachable + 1000)
        try:
            a = self.clusters.analyze(board, max_states=limit, time_limit=left)
        except LimitReachedError:
            return None
        return a if a.solvable else None

    def accept(self, energy: float) -> bool:
        drop = energy - self.energy
        if drop <= 0:
            return True
        heat = TEMPERATURE * (1 - self.step_in_round / ANNEAL_STEPS)
        return heat > 0 and self.rng.random() < math.exp(-drop / heat)


# --- small changes of a board --------------------------------------------------------------------


def changed(
    board: Board, rng: random.Random, *, keep_vehicles: bool = False, max_vehicles: int | None = None
) -> Board | None:
    """``board`` after one random small change (see :func:`harden`), or None when the change drawn
    does not fit (a vehicle over another, off the board, a goal that cannot leave, a vehicle added
    to a board of ``max_vehicles``, or of as many vehicles as the grid format names: a board no
    format could write)."""
    expect(board, Board, "board", "a Board")
    expect(rng, random.Random, "rng", "a random.Random")
    kinds = [(k, p) for k, p in CHANGES if not keep_vehicles or k in ("shift", "move")]
    if board.walls and not keep_vehicles:
        kinds.append(("wall", 0.06))
    kind = rng.choices([k for k, _ in kinds], weights=[p for _, p in kinds])[0]
    others = [v for v in board.vehicles if v.name != board.goal]
    vehicles = list(board.vehicles)
    walls = set(board.walls)
    if kind == "add":
        name = _free_name(board)
        if name is None or (max_vehicles is not None and len(vehicles) >= max_vehicles):
            return None
        vehicles.append(_random_vehicle(board, rng, name))
    elif kind == "wall":
        walls.remove(rng.choice(sorted(walls)))
        walls.add((rng.randrange(board.height), rng.randrange(board.width)))
    elif not others:
        return None
    else:
        pick = rng.choice(others)
        k = vehicles.index(pick)
        if kind == "remove":
            del vehicles[k]
        else:
            vehicles[k] = _changed_vehicle(board, pick, kind, rng)
    return _board_or_none(board, vehicles, walls)


def _changed_vehicle(board: Board, v: Vehicle, kind: str, rng: random.Random) -> Vehicle:
    if kind == "shift":
        step = rng.choice((-1, 1))
        return replace(v, row=v.row + step) if rng.random() < 0.5 else replace(v, col=v.col + step)
    if kind == "turn":
        return replace(v, orientation=VERTICAL if v.orientation == HORIZONTAL else HORIZONTAL)
    if kind == "resize":
        return replace(v, length=5 - v.length if v.length in (2, 3) else 2)
    return replace(_random_vehicle(board, rng, v.name), length=v.length, orientation=v.orientation)


def _random_vehicle(board: Board, rng: random.Random, name: str) -> Vehicle:
    orientation = rng.choice((HORIZONTAL, VERTICAL))
    return Vehicle(
        name, orientation, rng.choice((2, 2, 3)), rng.randrange(board.height), rng.randrange(board.width)
    )


def _free_name(board: Board) -> str | None:
    """A name for a new vehicle among those the grid format writes; None when every one is taken."""
    used = set(board.names)
    return next((ch for ch in VEHICLE_CHARS if ch not in used), None)


def _board_or_none(board: Board, vehicles: list[Vehicle], walls: set[tuple[int, int]]) -> Board | None:
    if any(board.goal == v.name for v in vehicles) is False:
        return None
    try:
        return Board(
            board.width,
            board.height,
            vehicles,
            walls=walls,
            goal=board.goal,
            exit=board.exit,
            target=board.target,
            wrap=board.wrap,
        )
    except RushHourError:
        return None


__all__ = ["Hardening", "Hardest", "Improvement", "changed", "harden", "hardest_position", "improvements"]
