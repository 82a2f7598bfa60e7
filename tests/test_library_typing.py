"""The library's type hints as a program built on it sees them: the front-door modules and a small program
that uses the documented API the documented way pass ``mypy --strict``, and a misuse is caught."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = '''
from __future__ import annotations

import rushhour
from rushhour import Board, Exit, Move, Target, Vehicle, logic


def main() -> None:
    board: Board = rushhour.load("classic:12")
    same = Board.from_text(board.to_text("fogleman"), "fogleman")
    text: str = board.to_text()
    moves: list[Move] = board.legal_moves("steps")
    after: Board = board.apply(moves[0]).replay("").replay([Move("A", 0)][:0])
    car: Vehicle = board.vehicle("A")
    exit: Exit | None = board.exit
    target: Target | None = board.target
    custom = Board(6, 6, [Vehicle("A", "H", 2, 2, 0)], walls=[(5, 5)], exit="right")
    wrap = Board(5, 5, [Vehicle("A", "H", 2, 2, 4)], wrap=True, target=Target(2, 4, "east"))
    rows: list[str] = custom.rows()
    solution: rushhour.Solution = rushhour.solve(board, engine="bfs", max_states=10**6, time_limit=60.0)
    length: int = solution.length
    analysis: rushhour.Analysis = rushhour.analyze(wrap, progress=lambda record: None)
    puzzles = rushhour.generate(1, min_moves=2, max_moves=4, seed=7, walls=(0, 1))
    first_board: Board = puzzles[0].board
    database: rushhour.Database = rushhour.enumerate_database(4)
    triples: list[tuple[int, Board, int]] = database.puzzles()
    verdict = logic.explain(board, "A+4")
    reason: str = verdict.reason
    try:
        rushhour.solve("classic:12", max_states=100)
    except rushhour.LimitReachedError as stop:
        explored: int = stop.explored
        print(explored, stop.lower_bound, stop.best)
    except rushhour.RushHourError as err:
        print(err)
    print(same, text, after, car, exit, target, rows, length, analysis.cluster_size, first_board,
          triples, reason, rushhour.__version__, solution.to_dict(), car.row + car.col)
'''


def _mypy(folder: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` on ``targets``, the package read from this tree (``MYPYPATH``); imports
    followed silently, so that only the targets' own errors count."""
    command = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
               "--cache-dir", str(folder / "cache"), *targets]
    env = {"MYPYPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env, timeout=600)


def test_a_program_using_the_documented_api_passes_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    (tmp_path / "program.py").write_text(PROGRAM)
    done = _mypy(tmp_path, "program.py")
    assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "program.py").write_text(PROGRAM + '\nrushhour.solve("classic:1", engine=3)\n')
    done = _mypy(tmp_path, "program.py")
    assert done.returncode == 1 and 'Argument "engine" to "solve" has incompatible type "int"' in done.stdout


def test_a_name_the_package_does_not_have_is_an_error_not_any(tmp_path: Path) -> None:
    """The package's __getattr__ (which imports ``logic``, ``Solution`` and ``Analysis`` on first use)
    made every name valid for mypy: ``rushhour.slove(board)`` passed ``--strict`` as a call of Any."""
    pytest.importorskip("mypy")
    (tmp_path / "typo.py").write_text(
        "import rushhour\nfrom rushhour import Solution, logic\n"
        "solution: Solution = rushhour.slove('classic:1')\n"
        "moves = logic.legal_moves(rushhour.load('classic:1'))\n"
    )
    done = _mypy(tmp_path, "typo.py")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        'typo.py:3: error: Module has no attribute "slove"; maybe "solve"?  [attr-defined]'
    ), done.stdout


def test_the_front_door_modules_pass_mypy_strict(tmp_path: Path) -> None:
    """Board.from_text and Board.to_text returned what the untyped format hook gave (Any), which
    ``--strict`` refuses as a return of a function declared to give a Board or a str."""
    pytest.importorskip("mypy")
    modules = ("rushhour", "rushhour.api", "rushhour.board", "rushhour.errors", "rushhour.numbers", "rushhour.text")
    done = _mypy(tmp_path, *[arg for module in modules for arg in ("-m", module)])
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_package_says_it_is_typed_and_ships_the_marker() -> None:
    """Without ``py.typed`` a type checker skips an installed ``rushhour`` ("module is installed, but
    missing library stubs or py.typed marker"), so a program built on it cannot be checked at all."""
    import tomllib

    assert (ROOT / "rushhour" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["rushhour"]
