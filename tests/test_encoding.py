"""The encoding itself: forced propositions, models that are real positions, deterministic DIMACS that
other SAT solvers read."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import nnf
import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from rushhour.board import HORIZONTAL, Board, Move, Target, Vehicle
from rushhour.levels import resolve_board
from rushhour.logic.encoding import DIRECTIONS, Shape, build, encoding_for
from rushhour.logic.oracle import MoveOracle
from rushhour.logic.sat import KissatBackend, kissat_binary
from tests.strategies import any_board

ROOT = Path(__file__).resolve().parent.parent


def moves_from_true(board: Board, true: set[str]) -> list[Move]:
    """Read the legal moves off true proposition names, independently of the oracle's tables."""
    rules = encoding_for(Shape.of(board))
    lay = board.layout
    out = []
    for i, name in enumerate(lay.names):
        own = lay.cells(i, board.state[i])
        horizontal = lay.orientations[i] == HORIZONTAL
        for sign, d, cell in (
            (-1, "L" if horizontal else "U", own[0]),
            (1, "R" if horizontal else "D", own[-1]),
        ):
            for k, var in enumerate(rules.reach_vars[(d, cell)], start=1):
                if rules.names[var - 1] not in true:
                    break
                out.append(Move(name, sign * k))
    return out


def test_every_proposition_is_forced_by_the_facts() -> None:
    board = resolve_board("classic:2").board
    oracle = MoveOracle(Shape.of(board))
    facts = oracle.facts(board)
    model = oracle.model(board)
    solver = oracle.solver
    for lit in model:
        assert not solver.solve([*facts, -lit]), f"{oracle.rules.literal_text(lit)} is not forced"
    oracle.close()


def test_facts_decode_back_to_the_position() -> None:
    rng = random.Random(8)
    for _ in range(6):
        board = any_board(rng, min_side=5, max_side=8)
        rules = encoding_for(Shape.of(board))
        again = rules.decode(rules.facts(board))
        assert again.walls == board.walls
        assert [v < 0 for v in again.occupancy()] == [v < 0 for v in board.occupancy()]
        shape_of = sorted((v.orientation, v.length, v.row, v.col) for v in again.vehicles)
        assert shape_of == sorted((v.orientation, v.length, v.row, v.col) for v in board.vehicles)
        assert again.is_won() == board.is_won()


@pytest.mark.parametrize(
    "shape",
    [
        Shape.generic(6, 6),
        Shape.generic(5, 7),
        Shape.of(
            Board(
                6,
                5,
                [Vehicle("A", HORIZONTAL, 3, 2, 4), Vehicle("B", "V", 4, 0, 1)],
                target=Target(2, 1, "west"),
                wrap=True,
            )
        ),
    ],
    ids=["6x6", "5x7", "wrap"],
)
def test_random_models_of_the_rules_are_positions_with_the_reference_moves(shape: Shape) -> None:
    """Any model of the rules alone is a real position, and its move propositions are its legal moves."""
    rules = encoding_for(shape)
    rng = random.Random(4)
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in rules.clauses]) as solver:
        for _ in range(25):
            phases = [v if rng.random() < 0.5 else -v for v in range(1, len(rules.names) + 1)]
            solver.set_phases(phases)
            assert solver.solve()
            model = solver.get_model()
            board = rules.decode(model)  # the Board constructor validates it
            true = {rules.names[lit - 1] for lit in model if lit > 0}
            assert moves_from_true(board, true) == board.legal_moves()
            assert ("Won" in true) == board.is_won()


def test_names_are_unique_and_numbering_is_sorted() -> None:
    rules = encoding_for(Shape.generic(6, 6))
    assert len(set(rules.names)) == len(rules.names)
    assert rules.names[:3] == ["Empty(0,0)", "Empty(0,1)", "Empty(0,2)"]
    assert rules.names[-1] == "Won(2,5)" or rules.names[-2:] == ["Won", "Won(2,5)"]
    assert all(len(c) >= 1 and list(c) == sorted(c, key=lambda x: (abs(x), x)) for c in rules.clauses)
    # the classes are all there, and the slide classes for every direction
    for family in ("Empty", "Wall", "Red", "H2", "H3", "V2", "V3", "CMR", "CML", "CMU", "CMD", "Won"):
        assert family in rules.classes
    assert all(f"Slide{d}" in rules.classes for d in DIRECTIONS)
    # building again gives the same CNF
    assert build(Shape.generic(6, 6)).clauses == rules.clauses


def _dimacs_digest(seed: str) -> str:
    code = (
        "import hashlib, sys\n"
        "from rushhour.levels import resolve_board\n"
        "from rushhour.logic.oracle import oracle_for\n"
        "b = resolve_board('classic:3').board\n"
        "o = oracle_for(b)\n"
        "print(hashlib.sha256(o.rules.dimacs(o.facts(b)).encode()).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT, check=True
    )
    return out.stdout.strip()


def test_dimacs_is_identical_across_hash_seeds() -> None:
    board = resolve_board("classic:3").board
    oracle = MoveOracle(Shape.of(board))
    here = hashlib.sha256(oracle.rules.dimacs(oracle.facts(board)).encode()).hexdigest()
    assert _dimacs_digest("1") == _dimacs_digest("4242") == here
    oracle.close()


def _names_from_comments(text: str) -> dict[int, str]:
    names = {}
    for line in text.splitlines():
        parts = line.split()
        if line.startswith("c ") and len(parts) == 3 and parts[1].isdigit():
            names[int(parts[1])] = parts[2]
    return names


def test_dimacs_is_solved_by_other_solvers() -> None:
    board = resolve_board("classic:2").board
    oracle = MoveOracle(Shape.of(board))
    text = oracle.rules.dimacs(oracle.facts(board), comment="a test")
    names = _names_from_comments(text)
    assert len(names) == len(oracle.rules.names)
    cnf = CNF(from_string=text)
    assert cnf.nv == len(names)
    with Solver(name="glucose3", bootstrap_with=cnf.clauses) as other:
        assert other.solve()
        true = {names[lit] for lit in other.get_model() if lit > 0}
    assert moves_from_true(board, true) == board.legal_moves()
    binary = kissat_binary()
    if binary is not None:
        kissat = KissatBackend(cnf.clauses, binary)
        assert kissat.solve()
        true = {names[lit] for lit in kissat.model() if lit > 0}
        assert moves_from_true(board, true) == board.legal_moves()
    oracle.close()


def test_nnf_reads_the_dimacs_and_its_own_solver_agrees() -> None:
    # nnf's pure-Python solver is slow: a small board
    board = resolve_board("AA.B/...B/.CC.").board
    oracle = MoveOracle(Shape.of(board))
    text = oracle.rules.dimacs(oracle.facts(board))
    sentence = nnf.dimacs.loads(text)
    with nnf.config(sat_backend="native"):
        model = sentence.solve()
    assert model is not None
    names = _names_from_comments(text)
    true = {names[int(v)] for v, value in model.items() if value}
    assert moves_from_true(board, true) == board.legal_moves()
    oracle.close()


# The DIMACS text of two small shapes: the numbering, the clauses and their order are part of what
# other tools read, so any change to them must be deliberate (the last: clauses grouped by family, each
# constraint written as a comment before its clauses).
PINNED_DIMACS = {
    "4x3": "2943f9aa807b259ccae519fb51797a28f0ea8f382b002be5716a4cb107cb8ac0",
    "4x4 wrap": "0be95ceeb62d27bf13b0387d89906806baa6ce91b9a946daa0ce660d81416dcb",
}


def test_dimacs_of_small_shapes_is_pinned() -> None:
    wrap = Board(
        4, 4, [Vehicle("A", "H", 2, 1, 0), Vehicle("B", "V", 3, 0, 3)], goal="A",
        target=Target(1, 3, "east"), wrap=True,
    )  # fmt: skip
    for label, shape in (("4x3", Shape.generic(4, 3)), ("4x4 wrap", Shape.of(wrap))):
        text = build(shape).dimacs()
        assert hashlib.sha256(text.encode()).hexdigest() == PINNED_DIMACS[label], label
    counts = build(Shape.generic(4, 3)).constraints
    assert list(counts)[:4] == [
        "S: exactly one state per cell",
        "P1: at most one part per cell",
        "P2: a vehicle cell has a part",
        "P3: part p belongs to a vehicle of length > p",
    ]
    assert counts["R1: vehicles are whole runs of cells"] == 84
    assert counts["G3: only one red car"] == 6


def test_a_dimacs_comment_that_is_not_text_is_a_rushhour_error() -> None:
    """``encode(board).dimacs(comment=None)`` raised AttributeError from deep inside."""
    from rushhour import logic
    from rushhour.errors import ArgumentTypeError

    cnf = logic.encode(Board.from_text("AA.B/...B/CC../...."))
    with pytest.raises(ArgumentTypeError, match="comment must be a str, not NoneType"):
        cnf.dimacs(comment=None)  # type: ignore[arg-type]
    assert cnf.dimacs(comment="a\nb").startswith("c a\nc b\nc 1 Empty(0,0)\n")
