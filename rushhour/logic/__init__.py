"""Rush Hour as propositional logic.

* :mod:`rushhour.logic.encoding`: the bauhaus encoding of the rules of a board shape, compiled to CNF;
* :mod:`rushhour.logic.notation`: the one notation of formulas (``~ & | -> <->``, quantifiers), printed
  and parsed;
* :mod:`rushhour.logic.claims`: claims in that notation, proved or refuted (``prove``);
* :mod:`rushhour.logic.counting`: exact model counts and likelihoods (``count_solutions``, ``likelihood``);
* :mod:`rushhour.logic.oracle`: the SAT move oracle (``legal_moves``, ``MoveOracle``, explanations);
* :mod:`rushhour.logic.theorems`: statements about the rules, proved or refuted;
* :mod:`rushhour.logic.planner`: optimal plans by bounded SAT planning;
* :mod:`rushhour.logic.sat`: the SAT solvers (python-sat, or the kissat binary as a fallback).

The functions below are the front door; each imports what it needs when called, so that
importing this package loads none of the modules above.

>>> from rushhour import Board, logic
>>> board = Board.from_text("AA.B/...B/CC../....")
>>> logic.legal_moves(board) == board.legal_moves()
True
>>> cnf = logic.encode(board)
>>> cnf.dimacs().splitlines()[-1] == f"{cnf.facts[-1]} 0"
True
>>> print(logic.explain(board, "A+2"))
A+2 is illegal: B is in the way
>>> logic.prove("forall i,j: CMR(i,j) -> Empty(i,j+1)", board).verdict
'PROVED'
>>> logic.count_solutions((3, 3)), logic.likelihood("Won", (3, 3))
(72, Fraction(1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

    from rushhour.board import Board, Move
    from rushhour.logic.claims import Outcome
    from rushhour.logic.encoding import RulesEncoding
    from rushhour.logic.oracle import Verdict


def _board(board: Board) -> Board:
    """``board``, checked to be one (the layer below the built-in levels cannot look a name up: load it
    with :func:`rushhour.load`)."""
    from rushhour.board import Board
    from rushhour.errors import expect

    expect(board, Board, "board", "a Board (rushhour.load gives the board of a name)")
    return board


def _where(where: Board | tuple[int, int]) -> Board | tuple[int, int]:
    """A board, or a ``(width, height)`` size of two whole numbers."""
    if isinstance(where, tuple):
        from rushhour.errors import ArgumentTypeError, whole_number

        if len(where) != 2 or not all(whole_number(x) for x in where):
            raise ArgumentTypeError(f"where must be a board or a (width, height) size, not {where!r}")
        return where
    return _board(where)


def legal_moves(board: Board, metric: str = "moves") -> list[Move]:
    """The legal moves of ``board`` as the SAT oracle finds them: the same moves, in the same order, as
    the reference rules' :meth:`Board.legal_moves` (the tests check that they agree)."""
    from rushhour.logic.oracle import legal_moves as ask

    return ask(_board(board), metric)


def explain(board: Board, move: Move | str) -> Verdict:
    """Whether ``move`` (a :class:`Move` or ``"A+2"``) is legal in ``board``; an illegal move is
    explained from an unsatisfiable core of the rules and the position's facts (``.core``)."""
    from rushhour.board import Move
    from rushhour.errors import expect
    from rushhour.logic.oracle import oracle_for

    board = _board(board)
    expect(move, (Move, str), "move", "a Move or a str like 'A+2'")
    return oracle_for(board).explain(board, move)


def prove(
    claim: str, where: Board | tuple[int, int], *, scope: str = "shape", walls: bool = False
) -> Outcome:
    """Prove ``claim`` (a formula in the notation of docs/encoding.md) for every position of a board's
    shape or of a ``(width, height)`` size (``scope="shape"``), for the board's position alone
    (``"position"``) or for every position reachable from it (``"reachable"``); or refute it with a
    counterexample (:class:`~rushhour.logic.claims.Outcome`)."""
    from rushhour.errors import expect
    from rushhour.logic.claims import prove as run
    from rushhour.logic.encoding import Shape

    expect(claim, str, "claim", "a formula, like 'forall i,j: CMR(i,j) -> Empty(i,j+1)'")
    where = _where(where)
    return run(claim, Shape.generic(*where) if isinstance(where, tuple) else where, scope=scope, walls=walls)


def count_solutions(
    where: Board | tuple[int, int], claim: str | None = None, *, walls: bool = False
) -> int:
    """The exact number of positions of a board's shape or of a ``(width, height)`` size (the models of
    the rules), where ``claim`` holds when one is given; walls only if ``walls``.  Bauhaus's
    ``count_solutions`` without dsharp: the counter is Ganak (pyganak)."""
    from rushhour.logic.counting import count_solutions as run

    return run(_where(where), claim, walls=walls)


def likelihood(
    formula: str, where: Board | tuple[int, int], claim: str | None = None, *, walls: bool = False
) -> Fraction:
    """The exact fraction of those positions where ``formula`` (a proposition like ``"Won"`` or any
    formula in the notation) holds, as Bauhaus's ``likelihood``."""
    from rushhour.logic.counting import likelihood as run

    return run(formula, _where(where), claim, walls=walls)


@dataclass(frozen=True)
class Encoding:
    """The rules of ``board``'s shape in CNF (``rules``), and the position's facts: one literal per
    cell's state and per vehicle cell's part.  Variables are numbered from 1 family by family (states,
    kinds, parts, ends, ``CM*``, slides, ``Won``), then by row, column and distance."""

    board: Board
    rules: RulesEncoding
    facts: tuple[int, ...]

    @property
    def variables(self) -> int:
        return len(self.rules.names)

    @property
    def clauses(self) -> int:
        """The rules' clauses plus one unit clause per fact."""
        return len(self.rules.clauses) + len(self.facts)

    def dimacs(self, comment: str = "") -> str:
        """DIMACS CNF text: the rules, then the facts as unit clauses (``c`` lines name the
        variables)."""
        from rushhour.errors import expect

        expect(comment, str, "comment", "a str")
        return self.rules.dimacs(self.facts, comment=comment)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready figures: the shape, the variables and clauses, propositions by class and
        constraints by family."""
        from rushhour.formats.single import board_ref

        rules = self.rules
        return {
            "board": board_ref(self.board),
            "shape": rules.shape.describe(),
            "variables": self.variables,
            "clauses": self.clauses,
            "rule_clauses": len(rules.clauses),
            "facts": len(self.facts),
            "classes": {family: len(names) for family, names in rules.classes.items()},
            "constraints": dict(rules.constraints),
        }


def encode(board: Board) -> Encoding:
    """The CNF of ``board``: its shape's rules (compiled once per shape) and its position's facts.

    A model of ``encode(board).dimacs()`` is the position with the propositions it forces: which
    vehicle can move where, and whether the position is won.
    """
    from rushhour.logic.oracle import oracle_for

    board = _board(board)
    oracle = oracle_for(board)
    return Encoding(board, oracle.rules, tuple(sorted(oracle.facts(board), key=abs)))


__all__ = ["Encoding", "count_solutions", "encode", "explain", "legal_moves", "likelihood", "prove"]
