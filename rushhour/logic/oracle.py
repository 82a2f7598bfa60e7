"""The SAT move oracle: legal moves read from a model of the rules plus a position's facts.

The rules of a board shape are compiled to CNF once (:mod:`rushhour.logic.encoding`) and loaded into
one incremental SAT solver that stays alive; each position is asked as assumptions (its facts), and the
moves are read from the forced ``CM*`` and ``Slide*`` propositions at the vehicles' leading cells.
:func:`legal_moves` gives the same moves in the same order as :meth:`Board.legal_moves`, so either can
stand in for the other.  An illegal move is explained from an unsatisfiable core of the facts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import Concatenate, ParamSpec, TypeVar

from rushhour.board import HORIZONTAL, Board, Layout, Move, check_metric
from rushhour.errors import IllegalMoveError, MoveError, SolverError
from rushhour.logic.encoding import (
    EDGE,
    WORD,
    RulesEncoding,
    Shape,
    cell_text,
    direction_of,
    encoding_for,
)
from rushhour.logic.sat import Backend, new_backend
from rushhour.lru import ClosingLRU

__all__ = ["MoveOracle", "Obstacle", "Verdict", "legal_moves", "oracle_for"]

MAX_SHAPES = 16
MAX_LAYOUTS = 256


@dataclass
class _Plan:
    """Per-layout tables: literals and reach variables of every vehicle at every offset."""

    wall_lits: list[int]
    empty_lit: list[int]
    wall_mask: bytes
    facts: list[list[list[int]]]
    cells: list[list[list[int]]]
    back: list[list[list[int]]]
    fwd: list[list[list[int]]]


@dataclass(frozen=True)
class Obstacle:
    """One thing in the way of a move: a vehicle's or a wall's cell, the edge of the board, the end of
    a wrap-around lane; with a minimal unsatisfiable core that shows it (none past the edge, where the
    rules have no proposition: ``text`` says so)."""

    cell: tuple[int, int] | None
    #: the blocking vehicle's name, ``wall``, ``the right edge``..., ``end of the lane``
    what: str
    core: tuple[str, ...]
    text: str = ""

    def __str__(self) -> str:
        where = f"{cell_text(self.cell)} {self.what}" if self.cell else self.what
        if self.core:
            return f"{where}: {{{', '.join(self.core)}}} is unsatisfiable with the rules"
        return f"{where}: {self.text}" if self.text else where

    def to_dict(self) -> dict[str, object]:
        return {
            "cell": list(self.cell) if self.cell else None,
            "what": self.what,
            "core": list(self.core),
            "text": str(self),
        }


@dataclass(frozen=True)
class Verdict:
    """Whether a move is legal, why, and the propositions the answer rests on."""

    move: Move
    legal: bool
    #: the player's words: the reference rules' message for an illegal move
    reason: str
    #: the move's proposition (``CMR(2,1)``, ``SlideR(2,1,3)``), None when the rules have none
    proposition: str | None
    #: the first obstacle's minimal unsatisfiable core (illegal moves), as proposition names
    core: tuple[str, ...]
    #: every obstacle on the way, nearest first (illegal moves)
    obstacles: tuple[Obstacle, ...] = ()
    #: the true propositions a legal move rests on (its reach chain, the vehicle's end, the empty cells)
    support: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.move} is {'legal' if self.legal else 'illegal'}: {self.reason}"

    def logic(self) -> list[str]:
        """The answer in the logic's words, one line each."""
        if self.legal:
            return [f"{' & '.join(self.support)}, forced by the rules and this position's facts"]
        return [str(o) for o in self.obstacles]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the move in ``A+2`` notation, the verdict, the reason, the proposition, the
        first core, every obstacle and the propositions a legal move rests on."""
        return {
            "move": str(self.move),
            "legal": self.legal,
            "reason": self.reason,
            "proposition": self.proposition,
            "core": list(self.core),
            "obstacles": [o.to_dict() for o in self.obstacles],
            "support": list(self.support),
        }


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _one_at_a_time(
    method: Callable[Concatenate[MoveOracle, _P], _R],
) -> Callable[Concatenate[MoveOracle, _P], _R]:
    """A question to the oracle's one SAT solver, asked by one thread at a time: a solver answers its
    last call (its model, its core), which another thread's call would replace."""

    @wraps(method)
    def locked(self: MoveOracle, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._lock:
            return method(self, *args, **kwargs)

    return locked


class MoveOracle:
    """The compiled rules of one board shape and one SAT solver kept alive for them.  The oracles are
    shared (:func:`oracle_for`); each answers one thread at a time."""

    def __init__(self, shape: Shape, backend: str | None = None) -> None:
        self.shape = shape
        self.rules: RulesEncoding = encoding_for(shape)
        self.solver: Backend = new_backend(self.rules.clauses, backend)
        self.queries = 0
        self._plan = lru_cache(maxsize=MAX_LAYOUTS)(self._make_plan)
        self._lock = threading.RLock()

    @property
    def backend(self) -> str:
        return self.solver.name

    @_one_at_a_time
    def close(self) -> None:
        self.solver.close()

    # --- facts --------------------------------------------------------------------------------
    def _make_plan(self, layout: Layout) -> _Plan:
        """The literals of ``layout``'s walls, cells and vehicles (kept for MAX_LAYOUTS layouts)."""
        rules = self.rules
        rules.check_layout(layout)
        w, h = layout.width, layout.height
        wall_mask = bytearray(w * h)
        for r, c in layout.walls:
            wall_mask[r * w + c] = 1
        facts, cells, back, fwd = [], [], [], []
        for i in range(len(layout.names)):
            span = layout.span(i)
            count = span if layout.wrap else span - layout.lengths[i] + 1
            horizontal = layout.orientations[i] == HORIZONTAL
            f_i, c_i, b_i, w_i = [], [], [], []
            for offset in range(count):
                own = layout.cells(i, offset)
                f_i.append(rules.vehicle_facts(layout, i, offset))
                c_i.append([r * w + c for r, c in own])
                b_i.append(rules.reach_vars[("L" if horizontal else "U", own[0])])
                w_i.append(rules.reach_vars[("R" if horizontal else "D", own[-1])])
            facts.append(f_i)
            cells.append(c_i)
            back.append(b_i)
            fwd.append(w_i)
        return _Plan(
            wall_lits=[rules.state_var("Wall", cell) for cell in sorted(layout.walls)],
            empty_lit=[rules.state_var("Empty", (k // w, k % w)) for k in range(w * h)],
            wall_mask=bytes(wall_mask),
            facts=facts,
            cells=cells,
            back=back,
            fwd=fwd,
        )

    def facts(self, board: Board) -> list[int]:
        """The position as assumptions: one state literal per cell, one part literal per vehicle cell."""
        plan = self._plan(board.layout)
        covered = bytearray(plan.wall_mask)
        lits = list(plan.wall_lits)
        for i, offset in enumerate(board.state):
            lits.extend(plan.facts[i][offset])
            for k in plan.cells[i][offset]:
                covered[k] = 1
        empty = plan.empty_lit
        lits.extend(empty[k] for k in range(len(covered)) if not covered[k])
        return lits

    @_one_at_a_time
    def model(self, board: Board) -> list[int]:
        """The model of the rules with the position's facts (every proposition is forced by them)."""
        facts = self.facts(board)
        self.queries += 1
        if not self.solver.solve(facts):
            raise SolverError(f"the rules reject this position, which cannot happen: {board!r}")
        return self.solver.model()

    def true_propositions(self, board: Board) -> list[str]:
        """Every true proposition of the position, in variable order."""
        names = self.rules.names
        return [names[lit - 1] for lit in self.model(board) if lit > 0]

    # --- moves --------------------------------------------------------------------------------
    @_one_at_a_time
    def legal_moves(self, board: Board, metric: str = "moves") -> list[Move]:
        """Same moves, same order as ``board.legal_moves(metric)``."""
        metric = check_metric(metric)
        plan = self._plan(board.layout)
        model = self.model(board)
        names = board.layout.names
        moves: list[Move] = []
        one = metric == "steps"
        for i, offset in enumerate(board.state):
            name = names[i]
            for sign, chain in ((-1, plan.back[i][offset]), (1, plan.fwd[i][offset])):
                for d, var in enumerate(chain, start=1):
                    if model[var - 1] < 0:
                        break
                    moves.append(Move(name, sign * d))
                    if one:
                        break
        return moves

    # --- explanation --------------------------------------------------------------------------
    @_one_at_a_time
    def explain(self, board: Board, move: Move | str) -> Verdict:
        """Whether ``move`` is legal here, and why: in the player's words (the reference rules'
        message) and in the logic's (a minimal unsatisfiable core for every obstacle on the way, or
        the propositions a legal move rests on)."""
        if isinstance(move, str):
            move = Move.parse(move)
        if move.distance == 0:
            raise MoveError(f"move {move} has distance 0: a move slides at least one cell")
        lay = board.layout
        i = lay.index(move.vehicle)
        own = lay.cells(i, board.state[i])
        d = direction_of(lay.orientations[i], move.distance)
        lead = own[-1] if d in ("R", "D") else own[0]
        steps = abs(move.distance)
        chain = self.rules.reach_vars[(d, lead)]
        prop = self.rules.names[chain[steps - 1] - 1] if steps <= len(chain) else None
        facts = self.facts(board)
        self.queries += 1
        if prop is not None and self.solver.solve(facts + [chain[steps - 1]]):
            support = self.support(board, i, d, steps)
            cells = ", ".join(cell_text(c) for c in self._path(board, i, d, steps))
            verb = "are" if steps > 1 else "is"
            return Verdict(move, True, f"{prop} is true: {cells} {verb} empty", prop, (), support=support)
        obstacles = self._obstacles(board, i, d, chain[:steps][-1:], facts)
        if prop is None and not any(o.cell is None for o in obstacles):  # the edge not said yet
            obstacles.append(self._end_of_lane(board, i, d, lead, steps, len(chain)))
        core = obstacles[0].core
        return Verdict(move, False, _players_words(board, move), prop, core, obstacles=tuple(obstacles))

    @_one_at_a_time
    def why(self, board: Board, metric: str = "moves") -> list[tuple[Move, tuple[str, ...]]]:
        """Every legal move (as :meth:`legal_moves`) with the true propositions it rests on, all read
        from one model of the rules and the position's facts."""
        lay = board.layout
        model = self.model(board)
        out = []
        for move in self.legal_moves(board, metric):
            i = lay.index(move.vehicle)
            d = direction_of(lay.orientations[i], move.distance)
            out.append((move, self.support(board, i, d, abs(move.distance), model)))
        return out

    def support(
        self, board: Board, i: int, d: str, steps: int, model: list[int] | None = None
    ) -> tuple[str, ...]:
        """The true propositions a legal move of ``steps`` cells rests on, read from the model: the
        move's chain of reach propositions (``CMR(2,1)``, ``SlideR(2,1,2)``...), the vehicle's end and
        the ``Empty`` cells on its way."""
        rules = self.rules
        lay = board.layout
        own = lay.cells(i, board.state[i])
        lead = own[-1] if d in ("R", "D") else own[0]
        chain = rules.reach_vars[(d, lead)][:steps]
        wanted = [rules.var(f"End{d}{cell_text(lead)}")] + chain
        wanted += [rules.state_var("Empty", c) for c in self._path(board, i, d, steps)]
        model = self.model(board) if model is None else model
        if any(model[v - 1] < 0 for v in wanted):
            raise SolverError(f"the solver's model does not support a legal move: {board!r}")
        return tuple(rules.names[v - 1] for v in wanted)

    def _obstacles(self, board: Board, i: int, d: str, var: list[int], facts: list[int]) -> list[Obstacle]:
        """Every obstacle on the way of the longest reach proposition ``var``, nearest first, each with
        a minimal unsatisfiable core: the proposition with that cell's facts and the vehicle's own."""
        if not var or self.solver.solve(facts + var):  # nothing in the way as far as the rules go
            return []
        if not self.solver.solve(var):  # the proposition alone: the board's edge, or the lane's end
            return [Obstacle(None, _edge_word(board, i, d), self._names(var))]
        rules = self.rules
        lay = board.layout
        own = lay.cells(i, board.state[i])
        own_facts = rules.vehicle_facts(lay, i, board.state[i])
        steps = rules.reach_vars[(d, own[-1] if d in ("R", "D") else own[0])].index(var[0]) + 1
        fact_set = set(facts)
        out: list[Obstacle] = []
        for cell in self._path(board, i, d, steps):
            if rules.state_var("Empty", cell) in fact_set:
                continue
            mine = cell in own
            candidates = own_facts if mine else facts_of_cell(rules, cell, fact_set) + own_facts
            if self.solver.solve(var + candidates):
                continue
            what = _edge_word(board, i, d) if mine else board.at(cell) or ""
            core = self._minimal(var[0], candidates)
            out.append(Obstacle(cell, "wall" if what == "#wall" else what, self._names(core)))
            if mine:
                break
        if not out:  # pragma: no cover - every refusal has an obstacle on the way
            out.append(Obstacle(None, "", self._names(self._core(board, i, d, var[0], facts))))
        return out

    def _minimal(self, var: int, candidates: list[int]) -> list[int]:
        """``var`` and a minimal subset of ``candidates`` unsatisfiable with it (deletion)."""
        kept = list(candidates)
        for lit in reversed(candidates):
            trial = [x for x in kept if x != lit]
            if not self.solver.solve([var, *trial]):
                kept = trial
        return [var, *kept]

    def _names(self, lits: list[int]) -> tuple[str, ...]:
        return tuple(self.rules.names[abs(x) - 1] for x in lits)

    def _end_of_lane(
        self, board: Board, i: int, d: str, lead: tuple[int, int], steps: int, room: int
    ) -> Obstacle:
        """The obstacle past the last cell the rules have a proposition for: the edge of a bounded
        board, the end of a wrap-around lane."""
        name = f"Slide{d}({lead[0]},{lead[1]},{steps})" if steps > 1 else f"CM{d}{cell_text(lead)}"
        text = f"the rules have no {name}: from {cell_text(lead)} a slide {WORD[d]} goes at most "
        text += plural_cells(room)
        return Obstacle(None, _edge_word(board, i, d), (), text)

    def _path(self, board: Board, i: int, d: str, steps: int) -> list[tuple[int, int]]:
        lay = board.layout
        offset = board.state[i]
        sign = 1 if d in ("R", "D") else -1
        length = lay.lengths[i]
        out = []
        for k in range(1, steps + 1):
            pos = offset + length - 1 + k if sign > 0 else offset - k
            if lay.wrap:
                pos %= lay.span(i)
            elif not 0 <= pos < lay.span(i):
                break
            out.append((lay.lanes[i], pos) if lay.orientations[i] == HORIZONTAL else (pos, lay.lanes[i]))
        return out

    def _core(self, board: Board, i: int, d: str, var: int, facts: list[int]) -> list[int]:
        """A minimal unsatisfiable subset of ``facts`` with the move's proposition ``var``, preferring
        the cells nearest the vehicle: the shortest unsatisfiable prefix of the facts ordered by
        relevance, then deletion of every fact not needed."""
        rules = self.rules
        lay = board.layout
        path = self._path(board, i, d, lay.span(i) - lay.lengths[i])
        first: list[int] = []
        seen: set[int] = set()
        fact_set = set(facts)
        for cell in path:
            for lit in facts_of_cell(rules, cell, fact_set):
                if lit not in seen:
                    seen.add(lit)
                    first.append(lit)
        for lit in rules.vehicle_facts(lay, i, board.state[i]):
            if lit not in seen:
                seen.add(lit)
                first.append(lit)
        ordered = first + [lit for lit in facts if lit not in seen]
        solve = self.solver.solve
        prefix: list[int] = []
        if solve([var]):
            for lit in ordered:
                prefix.append(lit)
                if not solve([var, *prefix]):
                    break
            else:  # pragma: no cover - the caller saw this unsatisfiable
                raise SolverError("the move's facts are satisfiable after all")
        kept = list(prefix)
        for lit in reversed(prefix):
            trial = [x for x in kept if x != lit]
            if not solve([var, *trial]):
                kept = trial
        return [var, *kept]


def plural_cells(n: int) -> str:
    return f"{n} cell{'s' if n != 1 else ''}"


def _edge_word(board: Board, i: int, d: str) -> str:
    """What ends a lane: the edge of a bounded board, the vehicle itself on a wrap-around lane."""
    if board.layout.wrap:
        return f"{board.layout.names[i]} itself (the lane wraps around)"
    return f"the {EDGE[d]} edge"


def _blocking_cell(
    rules: RulesEncoding, core: list[int], own: set[tuple[int, int]]
) -> tuple[int, int] | None:
    """The cell whose state fact in ``core`` is not empty and not the vehicle's own."""
    for lit in core[1:]:
        state, _, rest = rules.names[lit - 1].partition("(")
        if state.startswith("Part") or state == "Empty":
            continue
        r, c = (int(x) for x in rest.rstrip(")").split(","))
        if (r, c) not in own:
            return r, c
    return None


def _players_words(board: Board, move: Move) -> str:
    """The reference rules' message for an illegal move, without the leading ``A+2 is illegal: ``."""
    try:
        board.apply(move)
    except IllegalMoveError as err:
        text = str(err)
        return text.split(" is illegal: ", 1)[1] if " is illegal: " in text else text
    raise SolverError(f"the solver refuses {move}, which the reference rules allow: {board!r}")


def facts_of_cell(rules: RulesEncoding, cell: tuple[int, int], facts: set[int]) -> list[int]:
    """The facts about one cell: its state literal and, on a vehicle cell, its part literal."""
    out = [rules.state_var(s, cell) for s in rules.states if rules.state_var(s, cell) in facts]
    out += [rules.part_var(p, cell) for p in range(rules.max_length) if rules.part_var(p, cell) in facts]
    return out


#: the oracles of the latest shapes; a dropped oracle's solver is closed
_ORACLES: ClosingLRU[tuple[Shape, str | None], MoveOracle] = ClosingLRU(MAX_SHAPES)


@lru_cache(maxsize=4 * MAX_LAYOUTS)
def shape_of(layout: Layout) -> Shape:
    return Shape.of(layout)


def oracle_for(board: Board | Layout, backend: str | None = None) -> MoveOracle:
    """The cached oracle of a board's shape (built on first use)."""
    shape = shape_of(board.layout if isinstance(board, Board) else board)
    return _ORACLES.get((shape, backend), lambda: MoveOracle(shape, backend))


def legal_moves(board: Board, metric: str = "moves") -> list[Move]:
    """The SAT oracle's legal moves: the same moves, in the same order, as ``board.legal_moves``."""
    metric = check_metric(metric)
    return oracle_for(board).legal_moves(board, metric)
