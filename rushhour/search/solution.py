"""What a solver returns, and the replay that every answer goes through before it is returned."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rushhour.board import Board, Move
from rushhour.errors import IllegalMoveError, SolverError
from rushhour.formats.single import board_ref
from rushhour.search.tables import BITS, FIELD, Tables
from rushhour.text import plural


@dataclass(frozen=True)
class Solution:
    """A solver's answer for ``board``.

    ``solved`` says whether ``moves`` reach a won position.  ``optimal`` is True when the length is
    proven minimal, or, for an unsolvable board (``solved`` False, no moves), when the whole reachable
    set was explored, which proves there is no solution.  ``explored`` counts the positions the
    engine looked at (the size of the reachable set for an unsolvable board).
    """

    board: Board
    moves: tuple[Move, ...]
    solved: bool
    optimal: bool
    engine: str
    metric: str
    explored: int
    seconds: float

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def steps(self) -> int:
        return sum(abs(m.distance) for m in self.moves)

    def positions(self) -> list[Board]:
        """The start position, then the position after each move."""
        out = [self.board]
        for move in self.moves:
            out.append(out[-1].apply(move))
        return out

    @property
    def status(self) -> str:
        """``solved`` or ``unsolvable`` (a search stopped by a limit raises instead of returning)."""
        return "solved" if self.solved else "unsolvable"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, in the shape of the ``rushhour.solve`` document (docs/json.md) without its
        ``schema`` and ``version``: ``length`` and ``steps`` are null for an unsolvable board, and
        ``lower_bound`` is the length when it is proven optimal."""
        solved = self.solved
        return {
            "board": board_ref(self.board),
            "engine": self.engine,
            "metric": self.metric,
            "status": self.status,
            "optimal": self.optimal,
            "length": self.length if solved else None,
            "steps": self.steps if solved else None,
            "moves": [str(m) for m in self.moves],
            "explored": self.explored,
            "seconds": round(self.seconds, 6),
            "lower_bound": self.length if solved and self.optimal else None,
            "best": None,
            "message": self.describe(),
        }

    def describe(self) -> str:
        """One line: what was found, and how."""
        if not self.solved:
            if self.optimal:
                return f"unsolvable: all {self.explored:,} reachable positions explored, none is won"
            return "no solution found"
        quality = "optimal" if self.optimal else "not proven optimal"
        how = f"{quality}, {self.engine} engine, {self.metric} metric"
        return f"{plural(self.length, 'move')}, {plural(self.steps, 'step')} ({how})"


def verify(board: Board, moves: Iterable[Move | str]) -> Board:
    """Replay ``moves`` from ``board`` by the reference rules and return the final position.

    Raises :class:`IllegalMoveError` (saying which move, and what blocks it) on an illegal move and
    :class:`SolverError` when the final position is not won.
    """
    played = list(moves)
    position = board.replay(played)
    if not position.is_won():
        noun = "move" if len(played) == 1 else "moves"
        raise SolverError(f"after {len(played)} {noun} the goal vehicle {board.goal} is not at its exit")
    return position


def moves_of_path(tables: Tables, path: Sequence[int]) -> list[Move]:
    """The moves between consecutive packed positions of ``path`` (each step moves one vehicle).

    On a bounded board a step's move is the change of offset.  On wrap-around lanes the same new
    offset is reached both ways round; the shorter legal slide is taken (in the ``steps`` metric that
    is the single step the search made), which takes a replay by the reference rules.  Callers replay
    the whole answer with :func:`verify` before reporting it.
    """
    layout = tables.layout
    n, cells = tables.n, tables.cells
    board = tables.board(path[0]) if path and layout.wrap else None
    moves: list[Move] = []
    for a, b in zip(path, path[1:], strict=False):
        # the highest differing bit of the offsets names the field that changed: it must be the only one
        fields = (a ^ b) >> cells
        top = (fields.bit_length() - 1) // BITS
        i = n - 1 - top
        if not fields or fields & ((1 << (top * BITS)) - 1):
            raise SolverError("internal error: a step of the search moved other than one vehicle")
        shift = tables.shifts[i]
        before, after = (a >> shift) & FIELD, (b >> shift) & FIELD
        if board is None:
            moves.append(Move(layout.names[i], after - before))
            continue
        span = layout.span(i)
        forward = (after - before) % span
        for distance in sorted((forward, forward - span), key=abs):
            move = Move(layout.names[i], distance)
            try:
                board = board.apply(move)
            except IllegalMoveError:
                continue
            moves.append(move)
            break
        else:
            raise SolverError(f"internal error: no legal move of {layout.names[i]} matches a search step")
    return moves
