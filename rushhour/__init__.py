"""rushhour: Rush Hour in propositional logic, played, solved, generated and explained."""

from rushhour.board import Board, Exit, Layout, Move, Target, Vehicle
from rushhour.errors import (
    BoardError,
    BoardNotFoundError,
    FormatError,
    IllegalMoveError,
    MoveError,
    ParseError,
    RushHourError,
    UnknownVehicleError,
)

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BoardError",
    "BoardNotFoundError",
    "Exit",
    "FormatError",
    "IllegalMoveError",
    "Layout",
    "Move",
    "MoveError",
    "ParseError",
    "RushHourError",
    "Target",
    "UnknownVehicleError",
    "Vehicle",
    "__version__",
]
