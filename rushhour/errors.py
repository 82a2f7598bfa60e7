"""The one exception family of rushhour.

Every error the library raises on purpose is a :class:`RushHourError`; the command line turns it into
``error: <message>`` and exit status 2.  This module imports nothing else of the package.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: board.py imports this module
    from fractions import Fraction

    from rushhour.board import Move
    from rushhour.search.watch import Bound


class RushHourError(Exception):
    """Base class of every error raised by rushhour on purpose."""


class BoardError(RushHourError):
    """A board that cannot exist: overlap, off the board, goal problems, bad sizes."""


class ParseError(RushHourError):
    """Input text that does not follow its format; names the source, line and column."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = message
        self.source = source
        self.line = line
        self.column = column
        where = []
        if source:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class FormatError(RushHourError):
    """A board that a format cannot hold (for instance walls in the CSV format)."""


class BoardNotFoundError(RushHourError):
    """A board argument that is neither a readable file, an inline board nor a built-in name."""


class MoveError(RushHourError):
    """A move that is malformed, names no vehicle of the board, or is not legal here."""


class UnknownVehicleError(MoveError):
    """A move or command names a vehicle that the board does not have."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in this position; the message says what blocks it in a
    player's words (``B is in the way``, ``A would leave the board``).

    ``blocker`` names what is in the way (a vehicle's name, ``#wall``, or None for the edge of the board
    or the end of a wrap-around lane) and ``cell`` the first cell the move cannot enter, when there is
    one, as ``(row, col)`` counted from 0 at the top left."""

    def __init__(
        self, message: str, *, blocker: str | None = None, cell: tuple[int, int] | None = None
    ) -> None:
        super().__init__(message)
        self.blocker = blocker
        self.cell = cell


class SolverError(RushHourError):
    """A solver could not give an answer (limits reached, engine unavailable)."""


class LimitReachedError(SolverError):
    """A search stopped at a limit (positions, time, memory) before it could answer.

    What it learned is kept: ``explored`` positions, ``lower_bound`` (a proven lower bound on the
    optimal length, or None), ``lower_total`` (a timed search's: a proven lower bound on the fastest
    schedule's total, in seconds, or None) and ``best`` (the shortest solution found so far as a tuple
    of moves that reach a win, or None).
    """

    def __init__(
        self,
        message: str,
        *,
        explored: int = 0,
        lower_bound: int | None = None,
        best: tuple[Move, ...] | None = None,
        bounds: tuple[Bound, ...] = (),
        lower_total: Fraction | None = None,
    ) -> None:
        self.explored = explored
        self.lower_bound = lower_bound
        self.lower_total = lower_total
        self.best = best
        #: the portfolio's bounds as they improved (rushhour.search.watch.Bound records; else empty)
        self.bounds = bounds
        super().__init__(message)


class WorkerError(RushHourError):
    """A worker process of a pool died (the kernel's out-of-memory killer ends one so): the work it held
    is lost, and the command stops."""


class GameError(RushHourError):
    """A play command that does not apply now: nothing to undo or redo, the level is already solved."""


class SaveFileError(RushHourError):
    """The progress file is unreadable or corrupt; it has been left untouched or moved aside.

    ``moved_to`` names where a corrupt file was moved (None when it was left where it is).
    """

    def __init__(self, message: str, *, moved_to: str | None = None) -> None:
        self.moved_to = moved_to
        super().__init__(message)


class EnumerateError(RushHourError):
    """A database request that cannot run: a bad size, wall range or board, or a directory of another job."""


class ParameterError(RushHourError):
    """A library argument out of range.

    The message names parameters as the library spells them (``min_moves must be at least 1``); the
    ``template`` marks each name as ``{min_moves}``, so that :meth:`as_options` can name them as the
    command line does (``--min-moves must be at least 1``).
    """

    def __init__(self, template: str) -> None:
        self.template = template
        super().__init__(_PARAMETER.sub(lambda m: m.group(1), template))

    def as_options(self) -> str:
        """The message with each parameter written as its command-line option."""
        return _PARAMETER.sub(lambda m: "--" + m.group(1).replace("_", "-"), self.template)


class ArgumentTypeError(ParameterError, TypeError):
    """A library argument of the wrong type (``board must be a Board or a str, not int``): a
    :class:`ParameterError`, and a ``TypeError`` as Python's own calls raise."""


def whole_number(value: object) -> bool:
    """A whole number, not a bool: ``1.0`` and ``True`` are no cell, count or length."""
    return isinstance(value, int) and not isinstance(value, bool)


def expect_whole(value: object, name: str, *, none: bool = False, what: str = "a whole number") -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` (the argument ``name``) is a whole number
    (:func:`whole_number`; ``what`` says which), or None when ``none``."""
    if none and value is None:
        return
    if not whole_number(value):
        kind = f"{what} or None" if none else what
        raise ArgumentTypeError(f"{{{name}}} must be {kind}, not {type(value).__name__}")


def expect_seconds(value: object, name: str) -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` (the argument ``name``) is None or a number of
    seconds (an int or a float, not a bool); its range is the caller's to check."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise ArgumentTypeError(f"{{{name}}} must be a number of seconds or None, not {type(value).__name__}")


def expect_callable(value: object, name: str) -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` (the argument ``name``) is None or callable."""
    if value is not None and not callable(value):
        raise ArgumentTypeError(f"{{{name}}} must be a function or None, not {type(value).__name__}")


def expect(value: object, types: type | tuple[type, ...], name: str, what: str) -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` (the argument ``name``) is one of ``types``;
    ``what`` says what it should be (``a Move or a str like 'A+2'``)."""
    if not isinstance(value, types):
        raise ArgumentTypeError(f"{{{name}}} must be {what}, not {type(value).__name__}")


_PARAMETER = re.compile(r"\{([a-z_]+)\}")
