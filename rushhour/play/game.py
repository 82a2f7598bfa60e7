"""One play session as a state machine: no input, no output.

A :class:`Game` holds the start position, the moves played (for undo), the moves undone (for redo) and
the counters a player sees: moves and steps played, hints used.  Where the legal moves come from and
how an optimal continuation is found are injected, so the machine can be tested on its own:

``legal_moves``  a function ``Board -> list[Move]`` (the command line passes the SAT move oracle,
                 :func:`rushhour.logic.oracle.legal_moves`);
``solver``       a function ``Board -> Sequence[Move] | None`` giving an optimal list of moves from a
                 position to a win, or None when no win can be reached (the command line passes
                 :func:`rushhour.search.solve`).

Moves are applied by the reference rules (:meth:`Board.apply`); a typed move that the move source does
not list is refused with the reason the rules give.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rushhour.board import Board, Move
from rushhour.errors import GameError, MoveError, RushHourError
from rushhour.numbers import is_whole

MoveSource = Callable[[Board], list[Move]]
Solver = Callable[[Board], Sequence[Move] | None]


@dataclass(frozen=True)
class Result:
    """How a level was solved: ``length`` moves (``moves``, the moves themselves) of ``steps`` cells,
    against the ``optimal`` number of moves (None when unknown), with the help used."""

    length: int
    steps: int
    optimal: int | None
    hints: int
    solution_shown: bool
    earlier_hints: int = 0  # hints of games of this level left unsolved before this one
    earlier_solution: bool = False  # whether one of those games showed the solution
    moves: tuple[Move, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: every field, the moves in ``A+2`` notation, and whether the win was perfect."""
        return {
            "length": self.length,
            "steps": self.steps,
            "moves": [str(m) for m in self.moves],
            "optimal": self.optimal,
            "extra": self.extra,
            "hints": self.hints,
            "solution_shown": self.solution_shown,
            "earlier_hints": self.earlier_hints,
            "earlier_solution": self.earlier_solution,
            "perfect": self.perfect,
        }

    @property
    def helped(self) -> bool:
        """A hint was asked for or the solution was shown, in this game or one left before it."""
        return self.hints > 0 or self.solution_shown or self.earlier_hints > 0 or self.earlier_solution

    @property
    def perfect(self) -> bool:
        """Solved in the optimal number of moves without a hint and without seeing the solution."""
        return self.optimal is not None and self.length == self.optimal and not self.helped

    @property
    def extra(self) -> int | None:
        """Moves beyond the optimum (None when the optimum is unknown)."""
        return None if self.optimal is None else self.length - self.optimal


class Game:
    """A level being played: position, history, redo list, hints and the win."""

    def __init__(
        self,
        board: Board,
        *,
        legal_moves: MoveSource,
        solver: Solver,
        optimal: int | None = None,
        help_before: tuple[int, bool] = (0, False),
    ) -> None:
        self.start = board
        # the hints and whether the solution was seen in games of this level left unsolved before
        self.help_before = help_before
        self.position = board
        self._legal_moves = legal_moves
        self._solver = solver
        self._optimal = optimal
        self._optimal_known = optimal is not None
        self.optimal_gave_up = False  # a search for the optimum was stopped by a limit
        self._history: list[tuple[Move, Board]] = []  # each move with the position it was played from
        self._redo: list[Move] = []  # undone moves, the next one to redo last
        self._options: tuple[Board, list[Move]] | None = None
        self._plans: dict[Board, tuple[Move, ...] | None] = {}
        self.hints_used = 0
        self._hinted: set[Board] = set()  # the positions a hint was given in: each counts once
        self.solutions_shown = 0

    # --- what the player sees --------------------------------------------------------------------
    @property
    def history(self) -> tuple[Move, ...]:
        return tuple(move for move, _ in self._history)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The moves that :meth:`redo` would replay, next first."""
        return tuple(reversed(self._redo))

    @property
    def moves_played(self) -> int:
        return len(self._history)

    @property
    def steps_played(self) -> int:
        return sum(move.steps for move, _ in self._history)

    @property
    def won(self) -> bool:
        return self.position.is_won()

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def options(self) -> list[Move]:
        """The legal moves of the current position, from the move source (asked once per position)."""
        if self._options is None or self._options[0] != self.position:
            self._options = (self.position, list(self._legal_moves(self.position)))
        return list(self._options[1])

    def optimal(self) -> int | None:
        """The optimal number of moves from the start: given, or asked of the solver once (and again
        when a win shorter than the given figure shows it to be wrong).

        None when the start cannot be solved.  Errors of the solver (limits) propagate and are asked
        again next time.
        """
        if self._disproved():
            # a win in fewer moves than the level's header says disproves the header: ask the solver
            self._optimal_known = False
        if not self._optimal_known:
            plan = self._plan(self.start)
            self._optimal = None if plan is None else len(plan)
            self._optimal_known = True
        return self._optimal

    def _disproved(self) -> bool:
        return self._optimal is not None and self.won and self.moves_played < self._optimal

    @property
    def optimal_pending(self) -> bool:
        """Whether :meth:`optimal` would ask the solver: the optimum is neither given nor found yet
        (or this win disproves the figure given)."""
        return not self._optimal_known or self._disproved()

    def knows(self, board: Board) -> bool:
        """Whether an optimal plan from ``board`` is known, so that a hint or the solution is at once."""
        return board in self._plans

    def learn(self, board: Board, plan: Sequence[Move] | None) -> None:
        """Take an optimal plan from ``board`` found elsewhere (a search beside the game); None: no win
        can be reached from it.  The plan is checked by the rules first."""
        if plan is not None and not board.replay(plan).is_won():
            raise RushHourError("the solver's plan does not end in a win")
        self._store(board, None if plan is None else tuple(plan))
        if board == self.start:
            self._optimal = None if plan is None else len(plan)
            self._optimal_known, self.optimal_gave_up = True, False

    def give_up_optimal(self) -> None:
        """The search for the optimum was stopped (a limit, or the player): it stays unknown."""
        if self.optimal_pending:
            self._optimal = None
            self._optimal_known, self.optimal_gave_up = True, True

    def result(self) -> Result:
        """The figures of the game so far (meaningful once :attr:`won`)."""
        optimal = self._optimal if self._optimal_known else None
        return Result(
            self.moves_played,
            self.steps_played,
            optimal,
            self.hints_used,
            self.solutions_shown > 0,
            *self.help_before,
            moves=self.history,
        )

    # --- playing ---------------------------------------------------------------------------------
    def resolve(self, text: str) -> Move:
        """A typed move (``A+2``) or an option number (``3``) as a move of this position.

        Vehicle names are matched exactly, else ignoring case when that names a single vehicle.
        Raises :class:`MoveError` (malformed, unknown vehicle, no such option) or
        :class:`IllegalMoveError` saying what blocks the move.
        """
        text = text.strip()
        if is_whole(text):
            options = self.options()
            number = int(text)
            if not options:
                raise MoveError("there are no legal moves in this position")
            if not 1 <= number <= len(options):
                raise MoveError(f"no option {number}: choose 1 to {len(options)}")
            return options[number - 1]
        move = Move.parse(text)
        return Move(self._vehicle_name(move.vehicle), move.distance)

    def _vehicle_name(self, name: str) -> str:
        return self.position.layout.vehicle_name(name)

    def play(self, move: Move | str | int) -> Board:
        """Play a move (a :class:`Move`, its notation or a 1-based option number); return the position."""
        if self.won:
            raise GameError("the level is already solved: undo or reset to play on")
        if isinstance(move, int):
            move = self.resolve(str(move))
        elif isinstance(move, str):
            move = self.resolve(move)
        else:
            move = Move(self._vehicle_name(move.vehicle), move.distance)
        if move not in self.options():
            # the rules say why; if they accept it, the move source and the rules disagree
            self.position.apply(move)
            raise RushHourError(f"{move} is legal by the rules but the move oracle does not list it")
        before = self.position
        self.position = before.apply(move)
        self._history.append((move, before))
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        return self.position

    def slide(self, move: Move | str) -> Move | None:
        """Play ``move`` as the physical game counts it: a slide of the vehicle moved last joins that
        move (``A+1`` then ``A+1`` is the move ``A+2``).  Returns the move it makes or becomes, or None
        when the slide takes the vehicle back where that move found it (the move is taken away)."""
        if isinstance(move, str):
            move = self.resolve(move)
        move = Move(self._vehicle_name(move.vehicle), move.distance)
        history = self.history
        if not history or history[-1].vehicle != move.vehicle:
            self.play(move)
            return self.history[-1]
        if move not in self.options():
            self.play(move)  # the refusal of play(), with its reason
        target = self.position.apply(move)
        self.undo()
        before = self.position
        if target == before:
            return None
        joined = [m for m in self.options() if m.vehicle == move.vehicle and before.apply(m) == target]
        if joined:
            self.play(min(joined, key=lambda m: m.steps))
        else:  # cannot be one slide (it would pass through itself on a wrap-around lane): two moves
            self.redo()
            self.play(move)
        return self.history[-1]

    def undo(self) -> Move:
        """Take back the last move; it can be redone."""
        if not self._history:
            raise GameError("nothing to undo")
        move, before = self._history.pop()
        self.position = before
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last move taken back."""
        if not self._redo:
            raise GameError("nothing to redo")
        move = self._redo[-1]
        before = self.position
        self.position = before.apply(move)
        self._redo.pop()
        self._history.append((move, before))
        return move

    def reset(self) -> int:
        """Back to the start, like undoing every move (redo replays them); returns how many."""
        count = len(self._history)
        while self._history:
            self.undo()
        return count

    # --- help from the solver ------------------------------------------------------------------
    def _plan(self, board: Board) -> tuple[Move, ...] | None:
        if board not in self._plans:
            found = self._solver(board)
            self._store(board, None if found is None else tuple(found))
        return self._plans[board]

    def _store(self, board: Board, plan: tuple[Move, ...] | None) -> None:
        self._plans[board] = plan
        if plan is not None:
            # every suffix of an optimal plan is optimal from the position it starts at
            here = board
            for k, move in enumerate(plan[:-1]):
                here = here.apply(move)
                self._plans.setdefault(here, plan[k + 1 :])

    def hint(self) -> Move | None:
        """The next move of an optimal solution from here; None when no win can be reached from this
        position.

        A hint counts once per position of the game: asked again in a position it was given in (at
        once, or after moves, undos or a reset brought the game back there) it tells nothing new and
        is not counted again.
        """
        if self.won:
            raise GameError("the level is already solved")
        plan = self._plan(self.position)
        if plan is None:
            return None
        if self.position not in self._hinted:
            self._hinted.add(self.position)
            self.hints_used += 1
        return plan[0]

    def solution(self) -> list[tuple[Move, Board]] | None:
        """The rest of an optimal solution from here, each move with the position after it (the game
        itself does not move); None when no win can be reached from this position."""
        if self.won:
            raise GameError("the level is already solved")
        plan = self._plan(self.position)
        if plan is None:
            return None
        self.solutions_shown += 1
        steps = []
        here = self.position
        for move in plan:
            here = here.apply(move)
            steps.append((move, here))
        if not here.is_won():
            raise RushHourError("the solver's plan does not end in a win")
        return steps


__all__ = ["Game", "GameError", "MoveSource", "Result", "Solver"]
