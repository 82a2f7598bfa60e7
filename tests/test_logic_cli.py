"""`rushhour moves` (SAT oracle by default), `encoding`, `explain` and `theorems` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from rushhour.board import HORIZONTAL, Board, Move
from rushhour.errors import IllegalMoveError
from rushhour.formats import parse_text
from rushhour.levels import resolve_board
from tests.cli import run

ROOT = Path(__file__).resolve().parent.parent
HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
WRAP = "# wrap: yes\n# target: 0,4 east\nA...A\n.BB..\n..C..\n..C.."


@pytest.mark.parametrize("board", [HARDEST, "classic:2", "AA.B../...B.F/CC...F/...DD./EEE.../x....."])
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_moves_sat_is_the_default_and_matches_the_rules(
    capsys: pytest.CaptureFixture[str], board: str, metric: str
) -> None:
    code, sat, _ = run(capsys, "moves", board, "--metric", metric)
    code2, rules, _ = run(capsys, "moves", board, "--metric", metric, "--oracle", "rules")
    assert code == code2 == 0
    assert "sat oracle" in sat and "rules oracle" in rules
    assert sat.replace("sat oracle", "rules oracle") == rules
    _, js, _ = run(capsys, "moves", board, "--metric", metric, "--json")
    _, jr, _ = run(capsys, "moves", board, "--metric", metric, "--json", "--oracle", "rules")
    a, b = json.loads(js), json.loads(jr)
    assert a["oracle"] == "sat" and b["oracle"] == "rules"
    assert a["moves"] == b["moves"] and a["count"] == b["count"]


def test_moves_on_a_wrap_around_board(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "wrap.txt"
    path.write_text(WRAP + "\n")
    board = resolve_board(str(path)).board
    code, out, _ = run(capsys, "moves", str(path))
    assert code == 0 and out.splitlines()[1].split() == [str(m) for m in board.legal_moves()]
    code, out, _ = run(capsys, "explain", str(path), "B+4")
    assert code == 1 and out.startswith(
        "B+4 is illegal: B can slide at most 3 cells right on this wrap-around lane"
    )
    code, out, _ = run(capsys, "explain", str(path), "C+3")
    assert code == 1 and out.startswith("C+3 is illegal: B is in the way\n") and "(1,2) B:" in out


def test_encoding_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "encoding", "classic:2")
    assert code == 0
    assert "propositions by class (890 variables):" in out
    assert "  Red         36  Red(0,0) .. Red(5,5)" in out
    assert "constraints by family" in out and "S: exactly one state per cell" in out
    assert "variables: 890   clauses: 3,973 rules + 54 facts = 4,027" in out
    # the state grid: row 2 holds the red car, then an empty cell, then G's top part
    row2 = next(line for line in out.splitlines() if line.startswith("   2 "))
    assert row2.split() == ["2", "Red.0", "Red.1", "Empty", "V2.0", "V2.1", "Empty"]
    assert "  CMR(2,1)   A can move right up to 1" in out
    assert "Won is false" in out


def test_dimacs_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "b.cnf"
    code, out, _ = run(capsys, "encoding", "classic:2", "--dimacs", str(target))
    assert code == 0 and out.startswith(f"wrote {target}: 890 variables")
    text = target.read_text()
    assert "c 1 Empty(0,0)" in text and "c 890 Won(2,5)" in text
    code, out, _ = run(capsys, "encoding", "classic:2", "--dimacs", "-")
    assert out == text
    names = {
        int(p[1]): p[2]
        for p in (ln.split() for ln in text.splitlines())
        if len(p) == 3 and p[0] == "c" and p[1].isdigit()
    }
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as other:
        assert other.solve()
        true = {names[lit] for lit in other.get_model() if lit > 0}
    assert {"CMR(2,1)", "CML(1,1)", "CMD(1,5)"} == {n for n in true if n.startswith("CM")}


def test_dimacs_bytes_do_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    outs = []
    for seed in ("0", "977"):
        target = tmp_path / f"{seed}.cnf"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-m", "rushhour", "encoding", HARDEST, "--dimacs", str(target)],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        outs.append(target.read_bytes())
    assert outs[0] == outs[1] and len(outs[0]) > 10000


def test_dimacs_unwritable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "encoding", "classic:2", "--dimacs", str(tmp_path / "no" / "such" / "f.cnf"))
    assert code == 2 and err.startswith("error: cannot write")


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "classic:2", "A+2")
    assert code == 1
    assert out.splitlines() == [
        "A+2 is illegal: G is in the way",
        "in the logic, every obstacle on the way (nearest first):",
        "  (2,3) G: {SlideR(2,1,2), V2(2,3)} is unsatisfiable with the rules",
        "unsatisfiable core: SlideR(2,1,2), V2(2,3)",
    ]
    code, out, _ = run(capsys, "explain", "classic:2", "A+1")
    assert code == 0 and out.startswith("A+1 is legal: CMR(2,1) is true: (2,2) is empty")
    code, out, _ = run(capsys, "explain", "classic:2", "G+1")
    assert code == 1 and "G+1 is illegal: a wall is in the way" in out and "(4,3) wall:" in out and "Wall(4,3)" in out
    code, out, _ = run(capsys, "explain", "classic:2", "I-1")
    assert code == 1 and "I would leave the board at the top edge" in out and "CMU(0,5)" in out
    code, out, _ = run(capsys, "explain", "classic:2", "G-3")
    assert code == 1 and "G-3 is illegal: D is in the way" in out and "(1,3) D:" in out


def test_explain_agrees_with_the_rules_on_every_move() -> None:
    """Legal as the rules say; the player's words are the rules' own message; the logic's first
    obstacle is the cell (or the edge) that message names, and every later one is listed."""
    from rushhour.logic.oracle import oracle_for

    boards = [resolve_board(spec).board for spec in ("classic:2", "classic:7", HARDEST)]
    boards.append(parse_text(WRAP)[0].board)
    for board in boards:
        oracle = oracle_for(board)
        legal = set(board.legal_moves())
        for name in board.names:
            for d in range(-6, 7):
                if d == 0:
                    continue
                move = Move(name, d)
                verdict = oracle.explain(board, move)
                assert verdict.legal == (move in legal), move
                if verdict.legal:
                    assert verdict.support and not verdict.obstacles
                    continue
                with pytest.raises(IllegalMoveError) as caught:
                    board.apply(move)
                assert str(verdict) == str(caught.value)
                first = verdict.obstacles[0]
                if caught.value.cell is not None:  # a blocking cell: the solver's first obstacle is it
                    assert first.cell == caught.value.cell, (move, first)
                    blocker = caught.value.blocker
                    assert first.what == ("wall" if blocker == "#wall" else blocker), (move, first)
                else:  # the edge of the board, or the end of a wrap-around lane
                    assert first.cell is None or first.cell in board.layout.cells(
                        board.layout.index(name), board.state[board.layout.index(name)]
                    )
                assert expected_obstacles(board, move) == [
                    (o.cell, o.what) for o in verdict.obstacles if o.core
                ], move


def expected_obstacles(board: Board, move: Move) -> list[tuple[tuple[int, int] | None, str]]:
    """What stands on the way of ``move``, read off the board cell by cell (no solver): every taken
    cell up to the move's length or the edge, then the edge when the move would go past it."""
    lay = board.layout
    i = board.layout.index(move.vehicle)
    own = lay.cells(i, board.state[i])
    step = 1 if move.distance > 0 else -1
    horizontal = lay.orientations[i] == HORIZONTAL
    lead = own[-1] if step > 0 else own[0]
    out: list[tuple[tuple[int, int] | None, str]] = []
    room = (
        lay.span(i) - 1 - (lead[1] if horizontal else lead[0])
        if step > 0
        else (lead[1] if horizontal else lead[0])
    )
    if lay.wrap:  # the rules' slides go up to the lane's length minus the shortest kind (a car)
        room = lay.span(i) - 2
    for k in range(1, min(abs(move.distance), room) + 1):
        r, c = (lead[0], lead[1] + step * k) if horizontal else (lead[0] + step * k, lead[1])
        cell = (r % lay.height, c % lay.width)
        what = board.at(cell)
        if cell in own:
            out.append((cell, f"{move.vehicle} itself (the lane wraps around)"))
            break
        if what is not None:
            out.append((cell, "wall" if what == "#wall" else what))
    if not lay.wrap and room == 0:
        edge = ("right" if step > 0 else "left") if horizontal else ("bottom" if step > 0 else "top")
        out.append((None, f"the {edge} edge"))
    return out


@pytest.mark.parametrize(
    ("move", "message"),
    [("Z+1", "no vehicle named 'Z'"), ("A+0", "distance 0"), ("A2", "cannot read move")],
)
def test_explain_bad_moves(capsys: pytest.CaptureFixture[str], move: str, message: str) -> None:
    code, out, err = run(capsys, "explain", "classic:2", move)
    assert code == 2 and out == "" and err.startswith("error:") and message in err
    assert "Traceback" not in err


def test_theorems(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "theorems", "--size", "5x5", "--no-color")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Statements about every 5x5 position without walls")
    assert any(ln.startswith("PROVED   a full row allows no horizontal move") for ln in lines)
    assert any(ln.startswith("REFUTED  (false on purpose) every position allows some move") for ln in lines)
    assert "counterexample:" in out and "> exit" in out
    assert lines[-1] == "9 proved, 2 refuted, 0 unexpected"


@pytest.mark.parametrize("size", ["6", "2x9", "axb", "6x17"])
def test_theorems_bad_size(capsys: pytest.CaptureFixture[str], size: str) -> None:
    code, _, err = run(capsys, "theorems", "--size", size)
    assert code == 2 and err.startswith("error:") and "size" in err


def test_moves_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "classic:12", "--why")
    assert code == 0
    assert out.splitlines()[2:] == [
        "  B+1  EndR(0,2) & CMR(0,2) & Empty(0,3)",
        "  F+1  EndR(5,4) & CMR(5,4) & Empty(5,5)",
        "  M-1  EndU(1,5) & CMU(1,5) & Empty(0,5)",
    ]
    code, out, err = run(capsys, "moves", "classic:12", "--why", "--oracle", "rules")
    assert code == 2 and out == "" and err.startswith("error: --why reads the SAT solver")
