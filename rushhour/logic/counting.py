"""Exact model counts of the rules, as Bauhaus users count (``E.count_solutions()``,
``E.likelihood(p)``), without the ``dsharp`` binary: the counter is Ganak (``pyganak``, from the package
index), an exact model counter run on the rules' CNF.

Every model of the rules is a real position (docs/encoding.md: the state and part propositions fix the
vehicles, and every other proposition is forced by them), so the number of models of a shape's rules is
its number of positions: with the shape's vehicle kinds anywhere, exactly one red car on its row, walls
when ``walls`` is true.  A claim in the notation narrows the count to the positions where it holds; its
Tseitin variables are defined by the claim's propositions, so they add no model.

>>> from rushhour.logic.encoding import Shape
>>> count_solutions(Shape.generic(3, 3))
72
>>> count_solutions(Shape.generic(3, 3), walls=True)
986
>>> likelihood("Won", Shape.generic(3, 3))
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction

from rushhour.board import Board
from rushhour.errors import ArgumentTypeError, expect, whole_number
from rushhour.logic import notation as fm
from rushhour.logic.counter import MAX_CELLS, check_size, count_rules, counter_name, odds_rules
from rushhour.logic.encoding import RulesEncoding, Shape, encoding_for

__all__ = ["MAX_CELLS", "count_solutions", "count_with_likelihoods", "counter_name", "likelihood"]


def count_solutions(
    where: Shape | Board | tuple[int, int], claim: str | fm.Formula | None = None, *, walls: bool = False
) -> int:
    """The exact number of models of the rules of ``where``'s shape (a :class:`Shape`, a board's, or a
    ``(width, height)`` generic shape), with ``claim`` added: its number of positions where the claim
    holds.  Walls are left out unless ``walls``."""
    return count_rules(_rules(where), claim, walls=walls)


def likelihood(
    proposition: str | fm.Formula,
    where: Shape | Board | tuple[int, int],
    claim: str | fm.Formula | None = None,
    *,
    walls: bool = False,
) -> Fraction:
    """The exact fraction of the models (of the rules and ``claim``) where ``proposition`` (a
    proposition name or any formula in the notation) is true.  No model at all: an error."""
    return count_with_likelihoods(where, claim, [proposition], walls=walls)[1][0]


def count_with_likelihoods(
    where: Shape | Board | tuple[int, int],
    claim: str | fm.Formula | None,
    formulas: list[str | fm.Formula],
    *,
    walls: bool = False,
) -> tuple[int, list[Fraction]]:
    """The count of :func:`count_solutions` and the likelihood of each formula among its models (every
    formula is read before anything is counted, so a mistake is reported at once)."""
    return odds_rules(_rules(where), claim, formulas, walls=walls)


def _rules(where: Shape | Board | tuple[int, int]) -> RulesEncoding:
    if isinstance(where, tuple):
        if len(where) != 2 or not all(whole_number(x) for x in where):
            size = "a Shape, a Board or a (width, height) size"
            raise ArgumentTypeError(f"{{where}} must be {size}, not {where!r}")
        where = Shape.generic(*where)
    expect(where, (Shape, Board), "where", "a Shape, a Board or a (width, height) size")
    shape = Shape.of(where) if isinstance(where, Board) else where
    check_size(shape.width, shape.height)
    return encoding_for(shape)
