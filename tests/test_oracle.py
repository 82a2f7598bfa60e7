"""The SAT move oracle against the reference move generator.

Over 10,000 distinct positions: random walks from boards of Fogleman's database and from generated
boards (walls, sizes 5x5 to 12x12, trucks and longer vehicles, vertical goal cars, every exit side,
wrap-around), both metrics, same moves in the same order.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from rushhour.board import HORIZONTAL, VERTICAL, Board, Move, Vehicle
from rushhour.errors import MoveError, SolverError, UnknownVehicleError
from rushhour.formats.fogleman import parse_line
from rushhour.levels import resolve_board
from rushhour.logic import oracle as oracle_mod
from rushhour.logic import sat
from rushhour.logic.encoding import Shape
from rushhour.logic.oracle import MoveOracle, legal_moves, oracle_for
from rushhour.logic.sat import KissatBackend, choose_backend, kissat_binary
from tests.boards import DATA
from tests.strategies import any_board


def database_boards() -> list[Board]:
    return [parse_line(line)[0] for line in (DATA / "fogleman_slice_logic.txt").read_text().splitlines()]


def walk(board: Board, rng: random.Random, count: int, steps: int = 400) -> list[Board]:
    """Up to ``count`` distinct positions met on a random walk by the reference rules."""
    seen = {board.state: board}
    here = board
    for _ in range(steps):
        if len(seen) >= count:
            break
        moves = here.legal_moves()
        if not moves:
            break
        here = here.apply(rng.choice(moves))
        seen.setdefault(here.state, here)
    return list(seen.values())


def check(boards: list[Board]) -> int:
    for board in boards:
        for metric in ("moves", "steps"):
            got = legal_moves(board, metric)
            want = board.legal_moves(metric)
            assert got == want, f"{metric} on\n{board}\n{board.layout}: oracle {got}, rules {want}"
    return len(boards)


def test_database_walks_agree() -> None:
    rng = random.Random(11)
    total = sum(check(walk(b, rng, 110, steps=1000)) for b in database_boards())
    assert total >= 6000


def test_generated_walks_agree() -> None:
    rng = random.Random(5)
    total = 0
    kinds = {"wrap": 0, "vertical goal": 0, "left/top/bottom exit": 0, "walls": 0, "length 4": 0}
    sizes = set()
    for _ in range(12):
        board = any_board(rng)
        sizes.add((board.width, board.height))
        lay = board.layout
        kinds["wrap"] += lay.wrap
        kinds["vertical goal"] += lay.orientations[lay.goal] == VERTICAL
        kinds["left/top/bottom exit"] += lay.exit is not None and lay.exit.side != "right"
        kinds["walls"] += bool(lay.walls)
        kinds["length 4"] += 4 in lay.lengths
        total += check(walk(board, rng, 350, steps=2000))
    assert total >= 3800
    assert all(kinds.values()), kinds
    assert min(min(s) for s in sizes) <= 6 and max(max(s) for s in sizes) >= 11


@pytest.mark.slow
def test_many_more_generated_boards_agree() -> None:
    rng = random.Random(99)
    total = 0
    for _ in range(150):
        total += check(walk(any_board(rng, min_side=3, max_side=16), rng, 300, steps=2000))
    assert total >= 30000


def test_won_positions_and_edge_lanes() -> None:
    # the goal at its exit; trucks against every edge; a crowded lane on a wrap-around board
    board = resolve_board("AA.B../...B.F/CC...F/...DD./EEE.../......").board
    for spec in ("....AA/....../......", "BBB..C/.....C/AA...C"):
        b = resolve_board(spec).board
        assert legal_moves(b) == b.legal_moves()
    wrap = Board(
        5,
        3,
        [
            Vehicle("A", HORIZONTAL, 2, 1, 4),
            Vehicle("B", HORIZONTAL, 2, 1, 1),
            Vehicle("C", VERTICAL, 2, 0, 3),
        ],
        wrap=True,
    )
    assert legal_moves(wrap) == wrap.legal_moves()
    assert legal_moves(wrap, "steps") == wrap.legal_moves("steps")
    assert legal_moves(board) == board.legal_moves()


def test_one_solver_per_shape_and_walls_are_facts() -> None:
    boards = database_boards()
    with_walls = [b for b in boards if b.walls]
    without = [b for b in boards if not b.walls]
    assert with_walls and without
    first = oracle_for(with_walls[0])
    assert all(oracle_for(b) is first for b in boards)
    before = first.queries
    legal_moves(without[0])
    assert first.queries == before + 1


def test_shape_depends_on_kinds_exit_and_wrap() -> None:
    a = resolve_board("AA.B../...B../......").board
    b = resolve_board("AA.BBBB/......./.......").board  # a horizontal length-4 vehicle: kind H4 joins
    assert Shape.of(a).kinds == (("H", 2), ("H", 3), ("V", 2), ("V", 3))
    assert ("H", 4) in Shape.of(b).kinds
    left = Board(6, 3, [Vehicle("A", HORIZONTAL, 2, 0, 2)], exit="left")
    right = Board(6, 3, [Vehicle("A", HORIZONTAL, 2, 0, 2)], exit="right")
    assert Shape.of(left) != Shape.of(right)


def test_bad_metric_and_unknown_vehicle() -> None:
    board = resolve_board("classic:2").board
    with pytest.raises(MoveError, match="unknown metric"):
        legal_moves(board, "slides")
    with pytest.raises(UnknownVehicleError, match="no vehicle named 'Z'"):
        oracle_for(board).explain(board, "Z+1")


def test_oracle_cache_is_bounded() -> None:
    rng = random.Random(3)
    oracle_mod._ORACLES.clear()
    for _ in range(oracle_mod.MAX_SHAPES + 2):
        board = any_board(rng, min_side=4, max_side=5)
        assert legal_moves(board) == board.legal_moves()
    assert len(oracle_mod._ORACLES) <= oracle_mod.MAX_SHAPES


def test_true_propositions_are_the_facts_and_their_consequences() -> None:
    board = resolve_board("classic:2").board
    o = MoveOracle(Shape.of(board))
    true = set(o.true_propositions(board))
    assert {"Red(2,0)", "Part0(2,0)", "Red(2,1)", "Part1(2,1)", "Wall(4,3)", "Empty(2,2)"} <= true
    assert "CMR(2,1)" in true and "SlideR(2,1,2)" not in true and "Won" not in true
    won = resolve_board("....AA/....../......").board
    assert "Won" in MoveOracle(Shape.of(won)).true_propositions(won)
    o.close()


# --- which SAT solver ---------------------------------------------------------------------------------
def test_backend_choice() -> None:
    assert choose_backend("auto", have_pysat=True, kissat="/bin/kissat") == "pysat"
    assert choose_backend("auto", have_pysat=False, kissat="/bin/kissat") == "kissat"
    assert choose_backend("kissat", have_pysat=True, kissat="/bin/kissat") == "kissat"
    with pytest.raises(SolverError, match="install python-sat"):
        choose_backend("auto", have_pysat=False, kissat=None)
    with pytest.raises(SolverError, match="needs python-sat"):
        choose_backend("pysat", have_pysat=False, kissat="/bin/kissat")
    with pytest.raises(SolverError, match="needs a kissat binary"):
        choose_backend("kissat", have_pysat=True, kissat=None)
    with pytest.raises(SolverError, match="unknown SAT backend 'minisat'"):
        choose_backend("minisat", have_pysat=True, kissat=None)


def test_backend_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUSHHOUR_SAT", "kissat")
    assert choose_backend(None, have_pysat=True, kissat="/x/kissat") == "kissat"
    monkeypatch.setenv("RUSHHOUR_SAT", "")
    assert choose_backend(None, have_pysat=True, kissat=None) == "pysat"


def test_an_unknown_backend_names_the_variable_only_when_it_came_from_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``backend="minisat"`` given by the caller was said to come from RUSHHOUR_SAT, even with the
    variable unset."""
    monkeypatch.delenv("RUSHHOUR_SAT", raising=False)
    with pytest.raises(SolverError) as given:
        choose_backend("minisat", have_pysat=True, kissat=None)
    assert str(given.value) == "unknown SAT backend 'minisat': use auto, pysat, kissat"
    monkeypatch.setenv("RUSHHOUR_SAT", "Minisat")
    with pytest.raises(SolverError) as read:
        choose_backend(None, have_pysat=True, kissat=None)
    assert str(read.value) == "unknown SAT backend 'minisat' (from RUSHHOUR_SAT): use auto, pysat, kissat"


def test_fallback_without_python_sat_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    if kissat_binary() is None:
        pytest.skip("no kissat binary here")
    monkeypatch.setattr(sat, "pysat_available", lambda: False)
    monkeypatch.setattr(sat, "_warned", False)
    with pytest.warns(RuntimeWarning, match="python-sat is not available"):
        first = sat.new_backend([[1, 2]])
    assert isinstance(first, KissatBackend)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sat.new_backend([[1]])  # no second warning
    monkeypatch.setattr(sat, "kissat_binary", lambda: None)
    with pytest.raises(SolverError, match="no SAT solver available"):
        sat.new_backend([[1]])


def test_kissat_oracle_agrees_with_the_rules() -> None:
    if kissat_binary() is None:
        pytest.skip("no kissat binary here")
    rng = random.Random(2)
    board = database_boards()[0]
    oracle = MoveOracle(Shape.of(board), backend="kissat")
    assert oracle.backend == "kissat"
    for position in walk(board, rng, 8):
        for metric in ("moves", "steps"):
            assert oracle.legal_moves(position, metric) == position.legal_moves(metric)
    illegal = next(Move(n, d) for n in board.names for d in (1, -1) if Move(n, d) not in board.legal_moves())
    assert not oracle.explain(board, illegal).legal


def test_cli_with_the_kissat_backend() -> None:
    if kissat_binary() is None:
        pytest.skip("no kissat binary here")
    env = {**os.environ, "RUSHHOUR_SAT": "kissat"}
    root = Path(__file__).resolve().parent.parent
    sat_out = subprocess.run(
        [sys.executable, "-m", "rushhour", "moves", "classic:2"],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
    )
    rules_out = subprocess.run(
        [sys.executable, "-m", "rushhour", "moves", "classic:2", "--oracle", "rules"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert sat_out.returncode == 0
    assert sat_out.stdout.replace("sat oracle", "rules oracle") == rules_out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "rushhour", "moves", "classic:2"],
        env={**os.environ, "RUSHHOUR_SAT": "nope"},
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown SAT backend 'nope'")


def test_the_oracle_lists_slides_unless_told_otherwise() -> None:
    board = resolve_board("classic:2").board
    assert oracle_for(board).legal_moves(board) == board.legal_moves() == board.legal_moves("moves")
    assert oracle_for(board).legal_moves(board, "steps") == board.legal_moves("steps")


def test_the_shared_oracle_answers_threads_one_at_a_time() -> None:
    """The oracle of a shape is shared: threads asking it at once each get their own position's answer
    (its one SAT solver answers its last call: two calls at once gave another position's moves, or
    stopped the process), explain included."""
    import threading

    from rushhour.levels import resolve_board
    from rushhour.logic import explain

    start = resolve_board("classic:12").board
    positions = [start] + [start.apply(m) for m in start.legal_moves()]
    wrong: list[Board] = []

    def ask() -> None:
        for _ in range(100):
            for p in positions:
                if legal_moves(p) != p.legal_moves():
                    wrong.append(p)
            assert not explain(start, "A+1").legal

    threads = [threading.Thread(target=ask) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
