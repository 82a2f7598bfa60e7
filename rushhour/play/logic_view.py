"""The logic beside the board: what the SAT oracle says about the position the player sees.

:func:`logic_view` is a pure function from the game's state (the position, the vehicle shown as
selected, the last refused slide, the hint) and a :class:`~rushhour.logic.oracle.MoveOracle` to the
lines of the view and the cells it names, which the screen highlights on the board.  It shows, in the
notation of :mod:`rushhour.logic.notation` (``Red(2,0)``, ``CMR(2,1)``, ``SlideR(2,1,2)``):

* after a refused slide, the refusal in the logic's words: every obstacle on its way with a minimal
  unsatisfiable core, and the first core's cells highlighted (:meth:`MoveOracle.explain`);
* with a hint, why the hinted move is legal (the true propositions it rests on) and the blockers that
  must move before the goal vehicle reaches the exit, each with its core (their cells highlighted);
* for the selected vehicle, its cells' state propositions (true or false), the part and end
  propositions true there, and its ``CM*``/``Slide*`` propositions in both ways, true or false, all
  read from one model of the rules with the position's facts.

The game's status line keeps to the player's words; the encoding's words are here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rushhour.board import HORIZONTAL, Board, Cell, Move

if TYPE_CHECKING:
    from rushhour.logic.oracle import MoveOracle

__all__ = ["Line", "LogicView", "cells_named", "goal_move", "logic_view", "ready_oracle"]

#: the first line of the view
TITLE = "Logic (e closes)"
#: said while the rules of a new shape are compiled beside the game
COMPILING = "the rules of this board's shape are being compiled; the logic shows when they are ready"

_CELL = re.compile(r"\((\d+),(\d+)")


@dataclass(frozen=True)
class Line:
    """One line of the view: its text, and the truth of the propositions it lists (None: a heading or
    a sentence)."""

    text: str
    truth: bool | None = None
    heading: bool = False

    def __str__(self) -> str:
        if self.truth is None:
            return self.text
        return f"{'T' if self.truth else 'F'} {self.text}"


@dataclass(frozen=True)
class LogicView:
    """The lines of the view and the board cells they name (drawn highlighted)."""

    lines: tuple[Line, ...]
    cells: frozenset[Cell] = frozenset()

    def text(self) -> list[str]:
        """The lines as plain text (``T``/``F`` before propositions)."""
        return [str(line) for line in self.lines]


def cells_named(names: Sequence[str]) -> frozenset[Cell]:
    """The cells the propositions name: ``(2,1)`` of ``SlideR(2,1,2)``, none of ``Won``."""
    found = (_CELL.match(name[name.find("(") :]) for name in names if "(" in name)
    return frozenset((int(m.group(1)), int(m.group(2))) for m in found if m)


def ready_oracle(board: Board) -> MoveOracle | None:
    """The SAT oracle of ``board``'s shape, or None while it is being compiled beside the game."""
    from rushhour.logic.oracle import oracle_for
    from rushhour.play.sources import oracle_ready

    return oracle_for(board) if oracle_ready(board) else None


def goal_move(board: Board) -> Move | None:
    """The slide that would bring the goal vehicle to the exit (or its target), None when it is there:
    on a wrap-around lane, the way it faces."""
    lay = board.layout
    g = lay.goal
    offset = board.state[g]
    wins = lay.goal_offsets()
    if offset in wins or not wins:
        return None
    if not lay.wrap:
        return Move(lay.names[g], wins[0] - offset)
    forward = lay.target is not None and lay.target.heading in ("east", "south")
    span = lay.span(g)
    distance = min(((w - offset) % span if forward else -((offset - w) % span)) for w in wins)
    return Move(lay.names[g], distance)


def logic_view(
    board: Board,
    selected: str | None,
    refused: Move | None,
    hint: Move | None,
    oracle: MoveOracle | None,
) -> LogicView:
    """The view of ``board``: a refused slide's cores, a hint's support and blockers, the selected
    vehicle's propositions (see the module's docstring); only a heading while ``oracle`` is None."""
    if oracle is None:
        return LogicView((Line(TITLE, heading=True), Line(COMPILING)))
    return _cached(board, selected, refused, hint, oracle)


@lru_cache(maxsize=16)  # a redraw without a change (the stopwatch's) asks the solver nothing
def _cached(
    board: Board, selected: str | None, refused: Move | None, hint: Move | None, oracle: MoveOracle
) -> LogicView:
    lines = [Line(TITLE, heading=True)]
    cells: frozenset[Cell] = frozenset()
    if refused is not None:
        more, cells = refusal_lines(board, refused, oracle)
        lines += more
    if hint is not None:
        more, blockers = hint_lines(board, hint, oracle)
        lines += more
        cells |= blockers
    if selected is not None and selected in board.names:
        lines += vehicle_lines(board, selected, oracle)
    return LogicView(tuple(lines), cells)


# --- a refused slide ---------------------------------------------------------------------------------
def refusal_lines(board: Board, move: Move, oracle: MoveOracle) -> tuple[list[Line], frozenset[Cell]]:
    """A refused slide in the logic's words: every obstacle with its minimal unsatisfiable core; the
    cells of the first core, which the board shows highlighted."""
    verdict = oracle.explain(board, move)
    if verdict.legal:  # the rules allow it here (the view is of another position than the refusal's)
        return [], frozenset()
    lines = [Line(f"{move} refused: {verdict.reason}", heading=True)]
    lines += [Line(text) for text in verdict.logic()]
    if verdict.core:
        lines.append(Line(f"core: {', '.join(verdict.core)} (cells marked ! on the board)"))
    return lines, cells_named(verdict.core)


# --- a hint ------------------------------------------------------------------------------------------
def hint_lines(board: Board, hint: Move, oracle: MoveOracle) -> tuple[list[Line], frozenset[Cell]]:
    """Why the hinted move is legal (the propositions it rests on), then the blockers that must move
    before the goal vehicle can reach the exit, each with its core; the blockers' cells."""
    verdict = oracle.explain(board, hint)
    lines = [Line(f"hint {hint}: {verdict.proposition or 'legal'}", heading=True)]
    if verdict.legal:
        lines.append(Line(", ".join(verdict.support), True))
    else:  # a hint for another position than the one shown
        lines += [Line(text) for text in verdict.logic()]
    goal = goal_move(board)
    if goal is None:
        return lines, frozenset()
    to_exit = oracle.explain(board, goal)
    if to_exit.legal:
        lines.append(Line(f"nothing blocks {goal.vehicle}: {goal} wins"))
        return lines, frozenset()
    blockers = [o for o in to_exit.obstacles if o.cell is not None and o.what != goal.vehicle]
    names = ", ".join(dict.fromkeys(o.what for o in blockers)) or "none"
    lines.append(Line(f"blockers that must move for {goal}: {names}", heading=True))
    lines += [Line(str(o)) for o in to_exit.obstacles]
    return lines, frozenset(o.cell for o in blockers if o.cell is not None)


# --- the selected vehicle ------------------------------------------------------------------------------
def vehicle_lines(board: Board, name: str, oracle: MoveOracle) -> list[Line]:
    """The vehicle's cells and moves as propositions, true or false in the model of the position."""
    rules = oracle.rules
    model = oracle.model(board)

    def true(prop: str) -> bool:
        return model[rules.var(prop) - 1] > 0

    lay = board.layout
    i = lay.index(name)
    own = lay.cells(i, board.state[i])
    vehicle = board.vehicle(name)
    goal = ", the goal vehicle" if name == board.goal else ""
    lines = [Line(f"{name}: {vehicle.description}{goal}", heading=True), Line("its cells:")]
    for cell in own:
        at = f"({cell[0]},{cell[1]})"
        props = [f"{s}{at}" for s in rules.states]
        named = (f"{family}{at}" for family in _cell_families(rules.max_length))
        props += [p for p in named if p in rules.ids]
        lines.append(Line(" ".join(p for p in props if true(p)), True))
        lines.append(Line(" ".join(p for p in props[: len(rules.states)] if not true(p)), False))
    lines.append(Line("its moves:"))
    horizontal = lay.orientations[i] == HORIZONTAL
    for d in ("L", "R") if horizontal else ("U", "D"):
        lead = own[-1] if d in ("R", "D") else own[0]
        chain = [rules.names[v - 1] for v in rules.reach_vars.get((d, lead), [])]
        lines += chain_lines(chain, [true(p) for p in chain])
    return lines


def _cell_families(max_length: int) -> list[str]:
    return [f"Part{k}" for k in range(max_length)] + ["EndL", "EndR", "EndU", "EndD"]


def chain_lines(chain: list[str], truth: list[bool]) -> list[Line]:
    """One way's ``CM*``/``Slide*`` propositions, each true or false; a run of false ones after the
    last true one in one line."""
    lines: list[Line] = []
    k = 0
    while k < len(chain):
        rest = truth[k:]
        if not truth[k] and k + 2 < len(chain) and not any(rest):
            lines.append(Line(f"{chain[k]} .. {chain[-1]}", False))
            break
        lines.append(Line(chain[k], truth[k]))
        k += 1
    return lines
