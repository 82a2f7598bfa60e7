"""rushhour: Rush Hour in propositional logic, played, solved, generated and explained.

>>> import rushhour
>>> board = rushhour.Board.from_text("AA...B/.....B/CC.D../...D../EEE.../......")
>>> board.legal_moves()[:3]
[Move('A', +1), Move('A', +2), Move('A', +3)]
>>> solution = rushhour.solve(board)
>>> solution.length, solution.optimal, [str(m) for m in solution.moves]
(2, True, ['B+1', 'A+4'])

The names a program needs are here: :func:`load`, :class:`Board` (``from_text``, ``to_text``,
``legal_moves``), :class:`Move`, :func:`solve`, :func:`analyze`, :func:`generate`,
:func:`enumerate_database`, the :mod:`rushhour.logic` layer and the :class:`RushHourError` family.
Nothing heavy is imported until it is used.  docs/library.md is the guide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rushhour.api import Database, analyze, enumerate_database, generate_puzzles, load, solve
from rushhour.api import generate_puzzles as generate
from rushhour.board import Board, Exit, Layout, Move, Target, Vehicle
from rushhour.errors import (
    ArgumentTypeError,
    BoardError,
    BoardNotFoundError,
    EnumerateError,
    FormatError,
    GameError,
    IllegalMoveError,
    LimitReachedError,
    MoveError,
    ParameterError,
    ParseError,
    RushHourError,
    SolverError,
    UnknownVehicleError,
)
from rushhour.version import __version__

# ``rushhour.logic`` is imported on first use (the generator itself is :mod:`rushhour.generator`)
_LAZY_MODULES = ("logic",)

if TYPE_CHECKING:
    # what a type checker sees of the names imported on first use; it does not see __getattr__, which
    # would make every other name of the package (a typo, ``rushhour.slove``) a valid one of type Any
    from rushhour import logic
    from rushhour.search import Analysis, Solution
else:

    def __getattr__(name: str) -> Any:
        import importlib

        if name in _LAZY_MODULES:
            return importlib.import_module(f"rushhour.{name}")
        if name in ("Solution", "Analysis"):
            return getattr(importlib.import_module("rushhour.search"), name)
        raise AttributeError(f"module 'rushhour' has no attribute {name!r}")


def __dir__() -> list[str]:
    # the names imported on first use are listed too, as completion and help() look for them here
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Analysis",
    "ArgumentTypeError",
    "Board",
    "BoardError",
    "BoardNotFoundError",
    "Database",
    "EnumerateError",
    "Exit",
    "FormatError",
    "GameError",
    "IllegalMoveError",
    "Layout",
    "LimitReachedError",
    "Move",
    "MoveError",
    "ParameterError",
    "ParseError",
    "RushHourError",
    "Solution",
    "SolverError",
    "Target",
    "UnknownVehicleError",
    "Vehicle",
    "__version__",
    "analyze",
    "enumerate_database",
    "generate",
    "generate_puzzles",
    "load",
    "logic",
    "solve",
]
