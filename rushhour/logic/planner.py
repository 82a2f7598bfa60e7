"""Bounded planning with a SAT solver: the shortest k such that "k moves reach a won position" is
satisfiable.  The formula for k is unsatisfiable for every smaller k, which certifies that the plan is
optimal (the solver proved it for each bound in turn).

The planning formula is built directly over integers (it is specific to one board, not to a shape):

* ``X[t][i][o]``: vehicle ``i`` stands at offset ``o`` after ``t`` moves; exactly one per (t, i),
  and the offsets whose cells hold a wall are left out;
* ``Occ[t][c]``: cell ``c`` is taken after ``t`` moves (``X[t][i][o]`` implies it for each cell the
  vehicle covers);
* ``A[t][i][d]``: move ``t+1`` slides vehicle ``i`` by ``d`` (``d = +-1`` only in the steps metric);
  exactly one move per step (``M[t][i]``, "vehicle i moves", at most one per step, one of its slides
  when it moves);
* effect: ``A[t][i][d] & X[t][i][o] -> X[t+1][i][o+d]`` and every cell swept on the way is free
  (``-Occ[t][c]``); frame: a vehicle that does not move stays where it is;
* in the moves metric on a bounded board the same vehicle never moves twice in a row (two such moves
  merge into one or cancel out, so a shortest plan never does it): this prunes without losing
  optimality.  Not on wrap-around boards, where a vehicle may go round its lane in several moves
  that no single slide can replace;
* goal after k moves: the goal vehicle at a winning offset, passed as an assumption so that one
  incremental solver serves every k.

**Commuting moves in one order** (bounded boards, both metrics; ``canonical=True``).  On a crowded
board most consecutive moves are of vehicles that do not interact, and every order of them is a plan
that a refutation must rule out.  A move *touches* the cells its vehicle covers before it or after it
and every cell it passes over; it *sweeps* the cells it enters or passes over.

* Swap: if move s+1 sweeps no cell that move s touched, the two can be made in the other order, and
  both orders reach the same position.  The cells move s+1 sweeps were free after move s, which
  vacated none of them, so they were free before it; the cells move s sweeps were free before it and
  move s+1 enters none of them (they are touched by move s), so they stay free.
* So a move of vehicle j at s whose swept cells no move of m, ..., s-1 touched (j not among their
  vehicles) can be made just before move m, by swaps.  The formula refuses it when move m was by a
  vehicle of larger index than j (the swaps give a plan of the same length to the same position that
  is smaller, reading its vehicles' indices as a word), or, in the moves metric, when j itself made the
  move just before m (j's two moves become adjacent and merge into one slide or cancel out: a shorter
  plan).  In the steps metric a window ends at j's own move, which the next one depends on.
* Optimality: among the shortest plans to a position (a won one in particular) take the smallest as
  such a word.  Each refused move would give a smaller plan of the same length, or a shorter one, so
  that plan breaks none of the added clauses: the formula of the optimal length stays satisfiable.
  The clauses only remove plans, so every shorter length stays unsatisfiable, and the first length
  found satisfiable is still the optimum.  (A length above the optimum may lose all its plans; the
  planner never tries one without having refuted every shorter length.)
* Variables: ``below[t][i][q]`` / ``above[t][i][q]`` (vehicle i's offset after t moves is at most / at
  least q; implied by ``X``); ``touched[t][c]`` (true only if move t+1 touched c: a vehicle of length
  L going from offset o to o' touches place p of its lane unless both offsets are at most p - L or
  both at least p + 1); ``larger[t][j]`` (implied when move t+1 is by a vehicle of index above j);
  ``window[t][j][c]`` (implied when, since the last move that touched c, a move by a vehicle above j
  that did not touch c was made, or in the moves metric a move by j).  A slide of j whose swept cells
  all have ``window`` true is refused.  Each variable is bounded only in the direction the clauses
  need; with every variable at its exact value the smallest shortest plan satisfies them all.
* When: the clauses pay only where refutations are long (crowd12-01: the length 16 refuted in a
  quarter of the CPU time), and cost where they are short (more variables to propagate; plans are found sooner
  by the plain formula, where every order of a plan is a plan).  So they are built only once a length
  has taken the plain formula more than :data:`HARD_CONFLICTS` conflicts.  When the caller tells a lower
  bound (``min_moves``) the plain formula gets at most that many conflicts at a length, and the
  canonical one is built as soon as a length needs more: from a told bound on a 6x6 board every
  length is settled by the plain formula in far fewer (expert:20 from 20 moves: 3.05 s of CPU so,
  10.64 s with the canonical formula from the start, 2.89 s from the relaxed bound; docs/benchmarks.md,
  ``bench/sat_planning.py --told``), where
  the lengths of a crowded large board soon need more and lose only that budget once (crowd12-01
  from 16 moves: 2.7 s, in a planning of some 47 s).  They hold under a switch literal;
  from then on, at each length, the plain formula (switch false) and the canonical one (switch
  true) take turns in the same solver with doubling budgets of conflicts: a plan of either is a
  plan, and either one unsatisfiable refutes the length.  Figures: docs/benchmarks.md (SAT
  planning: commuting moves in one order).
* Not on wrap-around boards: there a vehicle's range between two offsets is not an interval of its
  lane (it may go either way round), and the clauses are left out.

Every plan is replayed by the reference rules (:meth:`Board.apply`) before it is returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rushhour.board import Board, Layout, Move, check_metric
from rushhour.errors import IllegalMoveError, LimitReachedError, SolverError
from rushhour.logic.sat import INTERRUPTIBLE, Backend, new_backend
from rushhour.search.heuristics import relaxed_bound
from rushhour.text import plural, seconds_text

__all__ = ["PlanResult", "plan", "relaxed_bound"]

#: the first budget of conflicts of the plain formula at each length (0: the canonical formula alone)
PROBE_CONFLICTS = 1000
#: the canonical formula's budget at each turn, in budgets of the plain formula
CANONICAL_SHARE = 4
#: a length refuted by the plain formula in more conflicts than this brings in the canonical one (-1: at once)
HARD_CONFLICTS = 50_000


@dataclass(frozen=True)
class PlanResult:
    """``moves`` None: no plan up to the bound.  ``optimal``: every shorter bound was proved
    unsatisfiable.  ``bound``: the largest k proved impossible (-1 if none)."""

    moves: list[Move] | None
    optimal: bool
    bound: int
    seconds: float

    @property
    def length(self) -> int | None:
        return None if self.moves is None else len(self.moves)


class _Formula:
    """The planning formula of one board, grown one step at a time in one solver."""

    def __init__(self, board: Board, metric: str, backend: str | None, canonical: bool = True) -> None:
        self.board = board
        self.layout: Layout = board.layout
        self.steps_metric = metric == "steps"
        lay = self.layout
        self.top = 0
        self.w = lay.width
        n = len(lay.names)
        # the offsets of each vehicle whose cells hold no wall
        self.offsets: list[list[int]] = []
        for i in range(n):
            span = lay.span(i)
            count = span if lay.wrap else span - lay.lengths[i] + 1
            self.offsets.append([o for o in range(count) if not set(lay.cells(i, o)) & lay.walls])
        # the slide distances of each vehicle
        self.distances: list[list[int]] = []
        for i in range(n):
            most = 1 if self.steps_metric else lay.span(i) - lay.lengths[i]
            self.distances.append([d for k in range(1, most + 1) for d in (-k, k)])
        self.X: list[list[dict[int, int]]] = []
        self.Occ: list[dict[tuple[int, int], int]] = []
        self.A: list[list[dict[int, int]]] = []
        self.M: list[list[int]] = []
        # the canonical order of commuting moves (module notes); not on wrap-around lanes
        self.canonical = canonical and not lay.wrap
        self.lane_cells = self._lane_cells() if self.canonical else {}
        self.below: list[list[list[int]]] = []  # below[t][i][q]: offset of i after t moves <= q
        self.above: list[list[list[int]]] = []  # above[t][i][q]: that offset >= q
        self.touched: list[dict[tuple[int, int], int]] = []  # touched[t][c]: move t+1 touched c
        self.larger: list[list[int]] = []  # larger[t][j]: move t+1 is by a vehicle of index > j
        self.window: list[list[dict[tuple[int, int], int]]] = []  # window[t][j][c]: see _add_window
        self.switch = self.new_var()  # assumed true: the clauses of the canonical order hold
        self.hard = False  # the lengths are hard: the canonical formula takes part (solve)
        self.told = False  # a lower bound was told: the plain formula has a budget before the race
        self.solver: Backend = new_backend([], backend, pysat_solver=INTERRUPTIBLE)
        self._add_position_layer()
        start = [[self.X[0][i][o]] for i, o in enumerate(board.state)]
        self.solver.add_clauses(start)

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def _add_position_layer(self) -> None:
        lay = self.layout
        clauses: list[list[int]] = []
        xs: list[dict[int, int]] = []
        occ: dict[tuple[int, int], int] = {}
        for i, offsets in enumerate(self.offsets):
            here = {o: self.new_var() for o in offsets}
            xs.append(here)
            vs = list(here.values())
            clauses.append(vs)
            clauses.extend([-a, -b] for k, a in enumerate(vs) for b in vs[k + 1 :])
            for o, v in here.items():
                for cell in lay.cells(i, o):
                    if cell not in occ:
                        occ[cell] = self.new_var()
                    clauses.append([-v, occ[cell]])
        self.X.append(xs)
        self.Occ.append(occ)
        self.solver.add_clauses(clauses)

    def _lane_cells(self) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """For each free cell, the vehicles whose lane holds it, with its place along that lane."""
        lay = self.layout
        found: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for i in range(len(lay.names)):
            for p in range(lay.span(i)):
                cell = (lay.lanes[i], p) if lay.orientations[i] == "H" else (p, lay.lanes[i])
                if cell not in lay.walls:
                    found.setdefault(cell, []).append((i, p))
        return found

    def build_canonical(self) -> None:
        """Add the canonical order's variables and clauses to every step not yet given them (they are
        built only once the lengths get hard: before that they would only slow the plain formula)."""
        if not self.canonical:
            return
        while len(self.below) < len(self.X):
            self._add_ladders(len(self.below))
        while len(self.touched) < len(self.A):
            self._add_canonical(len(self.touched))

    def _add_ladders(self, t: int) -> None:
        """Order variables of the newest position: ``below[q]`` (offset <= q) and ``above[q]``
        (offset >= q), implied by the offset (only that way: they occur negated, so a spurious true
        only forbids more, never a canonical plan)."""
        lay = self.layout
        clauses: list[list[int]] = []
        below: list[list[int]] = []
        above: list[list[int]] = []
        for i, here in enumerate(self.X[t]):
            top = lay.span(i) - lay.lengths[i]
            low = [self.new_var() for _ in range(top + 1)]
            high = [self.new_var() for _ in range(top + 1)]
            for o, x in here.items():
                clauses.extend(([-x, low[o]], [-x, high[o]]))
            for q in range(top):
                clauses.extend(([-low[q], low[q + 1]], [-high[q + 1], high[q]]))
            below.append(low)
            above.append(high)
        self.below.append(below)
        self.above.append(above)
        self.solver.add_clauses(clauses)

    def _add_touched(self, t: int) -> None:
        """``touched[t][c]`` may be true only if move t+1 (from position t) touched cell c: the
        moving vehicle covered c before it or after it, or passed over it.  A vehicle of length L
        going from offset o to o' touches place p of its lane iff not both offsets are <= p - L
        (wholly before p) and not both are >= p + 1 (wholly after)."""
        lay = self.layout
        moved = self.M[t]
        clauses: list[list[int]] = []
        touched: dict[tuple[int, int], int] = {}
        for cell, lanes in self.lane_cells.items():
            u = touched[cell] = self.new_var()
            clauses.append([-u, *(moved[i] for i, _ in lanes)])
            for i, p in lanes:
                length, top = lay.lengths[i], lay.span(i) - lay.lengths[i]
                if p - length >= 0:
                    clauses.append(
                        [-u, -moved[i], -self.below[t][i][p - length], -self.below[t + 1][i][p - length]]
                    )
                if p + 1 <= top:
                    clauses.append([-u, -moved[i], -self.above[t][i][p + 1], -self.above[t + 1][i][p + 1]])
        self.touched.append(touched)
        self.solver.add_clauses(clauses)

    def _add_larger(self, t: int) -> None:
        """``larger[t][j]``: implied when move t+1 is by a vehicle of index above j."""
        moved = self.M[t]
        larger = [self.new_var() for _ in moved]
        clauses = [[-moved[j + 1], larger[j]] for j in range(len(moved) - 1)]
        clauses.extend([-larger[j + 1], larger[j]] for j in range(len(moved) - 1))
        self.larger.append(larger)
        self.solver.add_clauses(clauses)

    def _add_canonical(self, t: int) -> None:
        """The clauses of move t+1 that put commuting moves in one order, and the variables they need
        (module notes)."""
        self._add_touched(t)
        self._add_larger(t)
        if t >= 1:
            self._forbid(t)
        self._add_window(t)

    def _forbid(self, t: int) -> None:
        """Forbid each slide of move t+1 (by j) whose swept cells are all in j's window: the move
        could come earlier, or be merged with j's previous move.  Each clause holds only under the
        switch literal (an assumption), so that the same solver also serves the plain formula."""
        lay = self.layout
        clauses: list[list[int]] = []
        for j, acts in enumerate(self.A[t]):
            window = self.window[t][j]
            for o, x in self.X[t][j].items():
                for d, a in acts.items():
                    target = o + d
                    if not 0 <= target <= lay.span(j) - lay.lengths[j] or target not in self.X[t + 1][j]:
                        continue
                    cells = self._swept(j, o, d)
                    if all(c in window for c in cells):  # else a wall on the way: already forbidden
                        clauses.append([-self.switch, -a, -x, *(-window[c] for c in cells)])
        self.solver.add_clauses(clauses)

    def _add_window(self, t: int) -> None:
        """``window[t+1][j][c]``: implied when, since the last move that touched c, a move was made by
        a vehicle of index above j that did not touch c, or (moves metric) by j itself."""
        lay = self.layout
        touched, larger, moved = self.touched[t], self.larger[t], self.M[t]
        before = self.window[t] if t < len(self.window) else None
        clauses: list[list[int]] = []
        after: list[dict[tuple[int, int], int]] = []
        for j in range(len(lay.names)):
            here: dict[tuple[int, int], int] = {}
            for p in range(lay.span(j)):
                c = (lay.lanes[j], p) if lay.orientations[j] == "H" else (p, lay.lanes[j])
                if c in lay.walls:
                    continue
                w = here[c] = self.new_var()
                if not self.steps_metric:
                    clauses.append([-moved[j], w])
                if j + 1 < len(lay.names):
                    clauses.append([touched[c], -larger[j], w])
                if before is not None:
                    # in the steps metric the window ends at j's own move (its next depends on it)
                    clauses.append([touched[c], -before[j][c], w, *([moved[j]] if self.steps_metric else [])])
            after.append(here)
        if not self.window:
            self.window.append([{} for _ in after])
        self.window.append(after)
        self.solver.add_clauses(clauses)

    def _swept(self, i: int, o: int, d: int) -> list[tuple[int, int]]:
        lay = self.layout
        length, span, lane = lay.lengths[i], lay.span(i), lay.lanes[i]
        positions = [o + length + k for k in range(d)] if d > 0 else [o - 1 - k for k in range(-d)]
        if lay.wrap:
            positions = [p % span for p in positions]
        return [(lane, p) if lay.orientations[i] == "H" else (p, lane) for p in positions]

    def add_step(self) -> None:
        """Add move number t+1 (from positions t to t+1)."""
        lay = self.layout
        t = len(self.X) - 1
        self._add_position_layer()
        before, after, occ = self.X[t], self.X[t + 1], self.Occ[t]
        clauses: list[list[int]] = []
        actions: list[dict[int, int]] = []
        moved: list[int] = []
        for i, dists in enumerate(self.distances):
            acts = {d: self.new_var() for d in dists}
            m = self.new_var()
            actions.append(acts)
            moved.append(m)
            clauses.append([-m, *acts.values()])
            vs = list(acts.values())
            for v in vs:
                clauses.append([-v, m])
            clauses.extend([-a, -b] for k, a in enumerate(vs) for b in vs[k + 1 :])
            span = lay.span(i)
            for o, x in before[i].items():
                # frame: a vehicle that does not move stays
                clauses.append([-x, after[i][o], m])
                for d, a in acts.items():
                    target = o + d
                    if lay.wrap:
                        target %= span
                    cells = self._swept(i, o, d)
                    if (
                        target not in after[i]
                        or any(c in lay.walls for c in cells)
                        or (not lay.wrap and not 0 <= target <= span - lay.lengths[i])
                    ):
                        clauses.append([-a, -x])
                        continue
                    clauses.append([-a, -x, after[i][target]])
                    for c in cells:
                        if c in occ:
                            clauses.append([-a, -x, -occ[c]])
        clauses.append(moved)
        clauses.extend([-a, -b] for k, a in enumerate(moved) for b in moved[k + 1 :])
        if not self.steps_metric and not lay.wrap and self.M:
            clauses.extend([-p, -q] for p, q in zip(self.M[-1], moved, strict=True))
        self.A.append(actions)
        self.M.append(moved)
        self.solver.add_clauses(clauses)

    def goal_offsets(self) -> list[int]:
        g = self.layout.goal
        return [o for o in self.layout.goal_offsets() if o in self.offsets[g]]

    def goal(self, t: int) -> int:
        """A literal true iff the goal vehicle wins after ``t`` moves."""
        g = self.layout.goal
        wins = [self.X[t][g][o] for o in self.goal_offsets()]
        if len(wins) == 1:
            return wins[0]
        selector = self.new_var()
        self.solver.add_clauses([[-selector, *wins]])
        return selector

    def solve(self, k: int, time_limit: float | None) -> bool:
        """Is there a plan of ``k`` moves?  The plain formula alone while lengths are refuted in fewer
        than :data:`HARD_CONFLICTS` conflicts; from then on (or from the start when ``hard``) the
        canonical one too (:meth:`_race`).  Either answer is sound (module notes)."""
        goal = self.goal(k)
        if not self.canonical:
            return self.solver.solve([goal], time_limit)
        if not self.hard and self.told and self.solver.has_budget:
            # told a lower bound: the plain formula first, with the budget that makes a length hard
            started = time.perf_counter()
            found = self.solver.probe([goal, -self.switch], HARD_CONFLICTS, time_limit)
            if found is not None:
                return found
            self.hard = True
            if time_limit is not None:
                time_limit -= time.perf_counter() - started
        elif not self.hard:
            before = self.solver.conflicts()
            found = self.solver.solve([goal, -self.switch], time_limit)
            self.hard = not found and self.solver.conflicts() - before > HARD_CONFLICTS
            return found
        self.build_canonical()
        if PROBE_CONFLICTS <= 0 or not self.solver.has_budget:
            return self.solver.solve([goal, self.switch], time_limit)
        return self._race(goal, time_limit)

    def _race(self, goal: int, time_limit: float | None) -> bool:
        """The plain formula and the canonical one take turns, with budgets of conflicts that double
        each round (one to :data:`CANONICAL_SHARE`): a plan is often found sooner by the plain
        formula, where every order of it is a plan, and a length refuted sooner by the canonical one."""
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        budget = PROBE_CONFLICTS
        while True:
            for assumptions, share in (([goal, -self.switch], 1), ([goal, self.switch], CANONICAL_SHARE)):
                left = None if deadline is None else deadline - time.perf_counter()
                found = self.solver.probe(assumptions, budget * share, left)
                if found is not None:
                    return found
            budget *= 2

    def extract(self, k: int) -> list[Move]:
        model = self.solver.model()
        true = {lit for lit in model if lit > 0}
        moves = []
        for t in range(k):
            found = [
                Move(self.layout.names[i], d)
                for i, acts in enumerate(self.A[t])
                for d, a in acts.items()
                if a in true
            ]
            if len(found) != 1:
                raise SolverError(f"the plan has {len(found)} moves at step {t + 1}")
            moves.append(found[0])
        return moves


#: called before each length is tried with the largest length refuted so far (-1: none); answers the
#: lengths still worth trying as (least, most): another engine may have proved that no plan is shorter
#: than ``least`` moves, or found one of ``most + 1`` moves (None: no new news)
Watch = Callable[[int], "tuple[int, int | None] | None"]


def plan(
    board: Board,
    *,
    metric: str = "moves",
    min_moves: int | None = None,
    max_moves: int | None = None,
    time_limit: float | None = None,
    backend: str | None = None,
    watch: Watch | None = None,
    canonical: bool = True,
) -> PlanResult:
    """A shortest plan by bounded SAT planning (see the module notes).

    Tries k = b, b + 1, ... up to ``max_moves`` (no bound when None: an unsolvable board then runs
    until ``time_limit``), where b is :func:`relaxed_bound`: shorter plans cannot exist, so their
    formulas are added to the solver without being solved.  Raises :class:`LimitReachedError` when
    ``time_limit`` (seconds) runs out, with ``lower_bound`` the proven lower bound on the optimal
    length (one more than the largest k proved impossible) and ``explored`` the lengths solved.

    ``min_moves`` starts the lengths tried there instead (a lower bound proved elsewhere: the answer is
    then a shortest plan, and ``optimal`` only when ``min_moves`` is at most the relaxed bound; from a
    ``min_moves`` above the optimum a length that has plans may be refuted, since the formula keeps
    only plans that no shorter plan could replace).  The ``bound`` of the result and the
    ``lower_bound`` of a stop count the lengths below ``min_moves`` as refuted: they hold only when
    ``min_moves`` is a true lower bound, which the caller vouches for (the sat engine of
    ``rushhour.search.solve`` does not take its ``min_moves`` as proven: it reports only the relaxed
    bound then); with ``min_moves`` above ``max_moves`` no length is tried.  ``watch`` (see
    :data:`Watch`) is asked before each length, so that a caller running other engines beside can move
    both ends while the planner works.  ``canonical`` False leaves out the clauses that put commuting
    moves in one order (for measuring them).
    """
    check_metric(metric)
    started = time.perf_counter()
    if max_moves is not None and max_moves < 0:
        raise SolverError(f"max_moves must be 0 or more, not {max_moves}")
    if time_limit is not None and time_limit <= 0:
        raise SolverError(f"time_limit must be positive, not {time_limit:g}")
    if board.is_won():
        return PlanResult([], True, -1, time.perf_counter() - started)
    formula = _Formula(board, metric, backend, canonical)
    if not formula.goal_offsets():
        # the winning offset holds a wall: no plan of any length
        formula.solver.close()
        return PlanResult(None, False, -1 if max_moves is None else max_moves, time.perf_counter() - started)
    # plans shorter than the relaxed bound cannot exist: not solved, only proved by the bound
    bound = relaxed_bound(board, metric) - 1
    claimed = bound if min_moves is None else max(bound, min_moves - 1)  # proved here, or told
    told = claimed + 1  # the least length not known impossible, by the relaxation or as told
    if max_moves is not None:
        bound = min(bound, max_moves)
        claimed = min(claimed, max_moves)
    solved = 0
    # told a lower bound: the lengths from there on may be hard ones (a length that the plain formula
    # does not settle in HARD_CONFLICTS brings in the canonical one at once, without waiting for it;
    # a solver without budgets of conflicts takes the canonical one from the start, as it cannot probe)
    formula.told = claimed > bound
    formula.hard = HARD_CONFLICTS < 0 or (formula.told and not formula.solver.has_budget)
    try:
        k = 0
        while max_moves is None or k < max_moves:
            k += 1
            formula.add_step()
            if watch is not None:
                news = watch(max(bound, claimed))
                if news is not None:
                    claimed = max(claimed, news[0] - 1)
                    told = max(told, news[0])
                    if news[1] is not None:
                        max_moves = news[1] if max_moves is None else min(max_moves, news[1])
                        if k > max_moves:
                            break
            if k <= max(bound, claimed):
                continue
            remaining = None
            if time_limit is not None:
                remaining = time_limit - (time.perf_counter() - started)
            try:
                if remaining is not None and remaining <= 0:
                    raise LimitReachedError("time limit")
                sat = formula.solve(k, remaining)
            except LimitReachedError:
                limit = seconds_text(time_limit or 0.0)  # the only limit of a plan: its time
                raise LimitReachedError(
                    f"time limit of {limit} s reached: {_refuted(bound, claimed, told)}",
                    explored=solved,
                    lower_bound=max(bound, claimed) + 1,
                ) from None
            solved += 1
            if sat:
                moves = formula.extract(k)
                _replay(board, moves)
                return PlanResult(moves, bound == k - 1, k - 1, time.perf_counter() - started)
            if bound == k - 1:  # every length up to k refuted here, not only told
                bound = k
            claimed = max(claimed, k)
        return PlanResult(None, False, max(bound, claimed), time.perf_counter() - started)
    finally:
        formula.solver.close()


def _refuted(bound: int, claimed: int, told: int) -> str:
    """What a stopped :func:`plan` knows: every length up to ``bound`` refuted here (or by the relaxed
    bound), up to ``claimed`` refuted or told; ``told``, the lower bound it was told."""
    refuted = max(bound, claimed)
    if claimed <= bound:
        return (
            f"no plan of {plural(refuted, 'move')} or fewer exists "
            f"(the optimal solution has at least {plural(refuted + 1, 'move')})"
        )
    # the lengths below the told bound were not tried: a refutation above it holds only if it is true
    return (
        f"no plan of {plural(refuted, 'move')} or fewer, if none has fewer than {plural(told, 'move')} "
        f"as told (min_moves: not tried here); proven here: none of {plural(bound, 'move')} or fewer"
    )


def _replay(board: Board, moves: list[Move]) -> None:
    here = board
    try:
        for move in moves:
            here = here.apply(move)
    except IllegalMoveError as err:
        raise SolverError(f"the SAT plan does not replay by the rules: {err}") from None
    if not here.is_won():
        raise SolverError("the SAT plan does not end in a won position")
