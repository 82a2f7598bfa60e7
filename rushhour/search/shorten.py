"""Shortening a solution: the plan-improvement passes of the ``improve`` engine.

A solution found by a random walk is mostly detours.  Four passes take them out, repeated until none
of them shortens the solution any more (a fixed point) or the work budget is spent:

* **loop cutting** (:func:`shortest_within` over the positions the solution passes through): the
  shortest chain of single moves through those positions, which cuts every loop and merges slides of
  one vehicle that follow each other;
* **action elimination** (:func:`eliminate`): a move is a vehicle and the offset it slides to; drop
  one move (or every move of one vehicle), replay the rest from the board, drop the moves that no
  longer apply (their slide is now blocked, or the vehicle already stands there), and keep the result
  when it still wins and is shorter.  Later moves of the same vehicle then slide from where it stands:
  two slides of one vehicle merge, moves that cancel out vanish;
* **neighbourhood search** (:func:`neighbourhood`): the positions within ``r`` moves of the
  solution's positions (r = 1, 2, ... while they number at most ``budget``), and the shortest chain
  from the board to a won position through them;
* **bounded shortcuts** (:func:`shortcuts`): from each position ``i`` of the solution, a breadth-first
  search of at most ``budget`` positions looking for any later position ``j`` closer than ``j - i``
  moves; the segment between them is replaced by the shorter route.

The passes are deterministic: the same solution gives the same answer on every machine (budgets are
counts of positions, not seconds; a ``deadline``, or a memory budget spent, only cuts the work short).
These are the improvement passes of the planning literature (action elimination and plan neighbourhood graph
search, Nakhost and Mueller, ICAPS 2010).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rushhour.board import Board, Layout, Move
from rushhour.search.memory import MemoryBudget
from rushhour.search.solution import moves_of_path
from rushhour.search.tables import FIELD, Tables

Step = tuple[int, int]  # a vehicle's index and the offset it slides to

#: positions a neighbourhood search may gather, and each bounded shortcut search may visit
NEIGHBOURHOOD_BUDGET = 50_000
SHORTCUT_BUDGET = 3_000
#: action elimination tries single moves only on solutions at most this long (it is quadratic)
ELIMINATION_LIMIT = 3_000


def _over(deadline: float | None, memory: MemoryBudget | None) -> bool:
    """Whether the work must stop: ``deadline`` passed, or the process grew past ``memory``."""
    if deadline is not None and time.perf_counter() > deadline:
        return True
    return memory is not None and memory.exceeded()


class _Rules:
    """Slides of one layout by bit masks: which offset a vehicle may slide to from where."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        w = layout.width
        self.masks: list[list[int]] = []
        for i in range(len(layout.names)):
            count = layout.span(i) if layout.wrap else layout.span(i) - layout.lengths[i] + 1
            self.masks.append([sum(1 << (r * w + c) for r, c in layout.cells(i, o)) for o in range(count)])
        self.walls = sum(1 << (r * w + c) for r, c in layout.walls)
        self.won = frozenset(
            o for o in range(len(self.masks[layout.goal])) if layout.won_offset(layout.goal, o)
        )
        self._sweeps: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}

    def occupancy(self, state: Sequence[int]) -> int:
        occ = self.walls
        for i, o in enumerate(state):
            occ |= self.masks[i][o]
        return occ

    def sweeps(self, i: int, a: int, b: int) -> tuple[tuple[int, int], ...]:
        """The ways vehicle ``i`` slides from offset ``a`` to ``b``: (signed distance, cells swept),
        shorter first (two ways round on a wrap-around lane)."""
        key = (i, a, b)
        found = self._sweeps.get(key)
        if found is not None:
            return found
        masks = self.masks[i]
        span = len(masks)
        ways: list[tuple[int, int]] = []
        if self.layout.wrap:
            forward = (b - a) % span
            distances = sorted((forward, forward - span), key=abs) if forward else []
        else:
            distances = [b - a] if b != a else []
        for d in distances:
            swept = 0
            step = 1 if d > 0 else -1
            for k in range(1, abs(d) + 1):
                swept |= masks[(a + step * k) % span]
            ways.append((d, swept & ~masks[a]))
        found = tuple(ways)
        self._sweeps[key] = found
        return found

    def replay(self, start: Sequence[int], steps: Sequence[Step], skip: set[int]) -> list[Step] | None:
        """The steps that still apply when the indices in ``skip`` are left out (the others dropped
        too), up to the first won position; None when no position is won."""
        state = list(start)
        occ = self.occupancy(state)
        goal = self.layout.goal
        if state[goal] in self.won:
            return []
        kept: list[Step] = []
        for k, (i, b) in enumerate(steps):
            if k in skip:
                continue
            a = state[i]
            if a == b:
                continue
            rest = occ & ~self.masks[i][a]
            if not any(swept & rest == 0 for _, swept in self.sweeps(i, a, b)):
                continue
            occ = rest | self.masks[i][b]
            state[i] = b
            kept.append((i, b))
            if i == goal and b in self.won:
                return kept
        return None

    def moves(self, start: Sequence[int], steps: Sequence[Step]) -> list[Move]:
        """The moves of ``steps`` (which must all apply) from ``start``."""
        state = list(start)
        occ = self.occupancy(state)
        out: list[Move] = []
        for i, b in steps:
            a = state[i]
            rest = occ & ~self.masks[i][a]
            d = next(d for d, swept in self.sweeps(i, a, b) if swept & rest == 0)
            out.append(Move(self.layout.names[i], d))
            occ = rest | self.masks[i][b]
            state[i] = b
        return out


def steps_of(board: Board, moves: Sequence[Move]) -> list[Step]:
    """The moves as (vehicle, offset reached) pairs."""
    out: list[Step] = []
    position = board
    index = board.layout.index
    for move in moves:
        position = position.apply(move)
        i = index(move.vehicle)
        out.append((i, position.state[i]))
    return out


def eliminate(
    rules: _Rules,
    start: Sequence[int],
    steps: list[Step],
    deadline: float | None,
    memory: MemoryBudget | None = None,
) -> list[Step]:
    """Action elimination: drop every move of one vehicle, then single moves, while the rest still
    wins (see the module notes); repeated until nothing drops."""
    current = rules.replay(start, steps, set()) or steps
    changed = True
    while changed:
        changed = False
        for vehicle in sorted({i for i, _ in current}):
            trial = rules.replay(start, current, {k for k, (i, _) in enumerate(current) if i == vehicle})
            if trial is not None and len(trial) < len(current):
                current, changed = trial, True
        if len(current) > ELIMINATION_LIMIT:
            break
        k = 0
        while k < len(current):
            if _over(deadline, memory):
                return current
            trial = rules.replay(start, current, {k})
            if trial is not None and len(trial) < len(current):
                current, changed = trial, True
            else:
                k += 1
    return current


def shortest_within(tables: Tables, start: int, allowed: set[int]) -> list[int] | None:
    """The keys of a shortest chain of moves from ``start`` to a won position through ``allowed``
    only (breadth-first); None when there is none."""
    if tables.is_won(start):
        return [start]
    goal_shift, won = tables.goal_shift, tables.won_offsets
    parent = {start: -1}
    frontier = [start]
    while frontier:
        nxt = []
        for z in frontier:
            for t in tables.successors(z):
                if t in allowed and t not in parent:
                    parent[t] = z
                    if (t >> goal_shift) & FIELD in won:
                        out = [t]
                        while parent[out[-1]] >= 0:
                            out.append(parent[out[-1]])
                        out.reverse()
                        return out
                    nxt.append(t)
        frontier = nxt
    return None


def neighbourhood(
    tables: Tables, keys: list[int], budget: int, deadline: float | None, memory: MemoryBudget | None = None
) -> list[int]:
    """The shortest chain through the positions within r moves of ``keys``, r growing while the
    neighbourhood holds fewer than ``budget`` positions (the last ring may be partial)."""
    allowed = set(keys)
    frontier = list(keys)
    while frontier and len(allowed) < budget:
        if _over(deadline, memory):
            break
        nxt = []
        for z in frontier:
            for t in tables.successors(z):
                if t not in allowed:
                    allowed.add(t)
                    nxt.append(t)
            if len(allowed) >= budget:
                break
        frontier = nxt
    found = shortest_within(tables, keys[0], allowed)
    return keys if found is None or len(found) >= len(keys) else found


def shortcuts(
    tables: Tables, keys: list[int], budget: int, deadline: float | None, memory: MemoryBudget | None = None
) -> list[int]:
    """Bounded breadth-first searches from each position of ``keys`` for a later one that is nearer
    than the path makes it (see the module notes); the path with every shortcut found."""
    path = list(keys)
    where = {z: j for j, z in enumerate(path)}  # the last index of each position of the path
    i = 0
    while i < len(path) - 2:
        if _over(deadline, memory):
            break
        parent = {path[i]: -1}
        frontier = [path[i]]
        depth = 0
        best: tuple[int, int] | None = None  # (gain, key reached)
        # a key found at depth d saves j - i - d moves: stop when no deeper key can save more
        while frontier and len(parent) < budget and (best is None or depth + 1 < len(path) - i - best[0]):
            depth += 1
            nxt = []
            for z in frontier:
                for t in tables.successors(z):
                    if t in parent:
                        continue
                    parent[t] = z
                    nxt.append(t)
                    j = where.get(t)
                    if j is not None and j - i - depth > 0 and (best is None or j - i - depth > best[0]):
                        best = (j - i - depth, t)
            frontier = nxt
        if best is None:
            i += 1
            continue
        t = best[1]
        route = [t]
        while parent[route[-1]] >= 0:
            route.append(parent[route[-1]])
        route.reverse()
        path = path[:i] + route + path[where[t] + 1 :]
        where = {z: j for j, z in enumerate(path)}
    return path


def shorten(
    board: Board,
    moves: Sequence[Move],
    tables: Tables,
    *,
    deadline: float | None = None,
    neighbourhood_budget: int = NEIGHBOURHOOD_BUDGET,
    shortcut_budget: int = SHORTCUT_BUDGET,
    memory: MemoryBudget | None = None,
) -> list[Move]:
    """A solution no longer than ``moves`` (which must solve ``board``), by the passes of the module
    notes repeated to a fixed point.  In the steps metric (``tables.metric``) every move of the
    answer is a single step.  ``deadline`` and ``memory`` (a budget the process must not grow past)
    cut the passes short: the shortest solution so far is returned."""
    rules = _Rules(board.layout)
    start = board.state
    steps_metric = tables.metric == "steps"
    current = list(moves)
    while True:
        before = solution_length(current, steps_metric)
        keys = _keys(tables, board, current)
        keys = shortest_within(tables, keys[0], set(keys)) or keys
        if not steps_metric:
            current = moves_of_path(tables, keys)
            current = rules.moves(start, eliminate(rules, start, steps_of(board, current), deadline, memory))
            keys = _keys(tables, board, current)
        keys = neighbourhood(tables, keys, neighbourhood_budget, deadline, memory)
        keys = shortcuts(tables, keys, shortcut_budget, deadline, memory)
        current = moves_of_path(tables, keys)
        if solution_length(current, steps_metric) >= before or _over(deadline, memory):
            return current


def solution_length(moves: Sequence[Move], steps_metric: bool) -> int:
    """The length of a solution: its steps in the steps metric, else its moves."""
    return sum(abs(m.distance) for m in moves) if steps_metric else len(moves)


def _keys(tables: Tables, board: Board, moves: Sequence[Move]) -> list[int]:
    """The keys of the positions ``moves`` pass through; in the steps metric a slide of several
    cells passes through each cell on the way.  Each key is the previous one plus the change of one
    vehicle's field and cells (see :mod:`rushhour.search.tables`)."""
    layout = tables.layout
    state = list(board.state)
    z = tables.pack(board.state)
    keys = [z]
    index = {name: i for i, name in enumerate(layout.names)}
    masks, shifts = tables.masks, tables.shifts
    unit = tables.metric == "steps"
    for move in moves:
        i = index[move.vehicle]
        span = len(masks[i]) if layout.wrap else None
        parts = [1 if move.distance > 0 else -1] * abs(move.distance) if unit else [move.distance]
        for d in parts:
            a = state[i]
            b = a + d if span is None else (a + d) % span
            z += ((b - a) << shifts[i]) + masks[i][b] - masks[i][a]
            state[i] = b
            keys.append(z)
    return keys
