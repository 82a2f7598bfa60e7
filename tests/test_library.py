"""The public library: the names of the package root, boards as text, consistent result types with
``to_dict``, errors that name parameters, and the doctests of the guide and of the public modules."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

import rushhour
import rushhour.api
import rushhour.board
import rushhour.formats.fogleman
import rushhour.formats.grid
import rushhour.formats.lines
import rushhour.formats.single
import rushhour.logic
import rushhour.play.screen
import rushhour.render.palette
import rushhour.render.text
import rushhour.search.analysis
import rushhour.search.memory
from rushhour import Board, Move
from rushhour.cli import main
from rushhour.play.game import Game
from rushhour.search import verify
from rushhour.search.native import native_enabled
from tests.strategies import boards

ROOT = Path(__file__).resolve().parent.parent
SMALL = "AA.B/...B/CC../...."


# --- doctests --------------------------------------------------------------------------------------
def test_the_guide_runs() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "library.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 40 and result.failed == 0


@pytest.mark.parametrize("module", [rushhour, rushhour.api, rushhour.board, rushhour.formats.fogleman, rushhour.formats.grid, rushhour.formats.single, rushhour.logic,
                                    rushhour.search.analysis, rushhour.formats.lines, rushhour.play.screen,
                                    rushhour.search.memory, rushhour.render.text, rushhour.render.palette])
def test_the_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


# --- the package root ------------------------------------------------------------------------------
def test_every_public_name_is_there() -> None:
    for name in rushhour.__all__:
        assert getattr(rushhour, name) is not None, name
    assert callable(rushhour.solve) and callable(rushhour.generate) and callable(rushhour.enumerate_database)


def test_importing_the_package_loads_nothing_heavy() -> None:
    code = "import sys, rushhour; print(sorted(m for m in sys.modules if m.startswith(('rushhour.', 'nnf', 'pysat', 'bauhaus'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    loaded = set(json.loads(out.replace("'", '"')))
    assert not loaded & {"rushhour.search", "rushhour.generator", "rushhour.logic.oracle", "rushhour.database", "nnf", "pysat"}


def test_generate_stays_the_function_once_the_generator_is_imported() -> None:
    import rushhour.generator as module

    assert rushhour.generate is rushhour.generate_puzzles and module.Settings is not None
    made = rushhour.generate(1, width=5, height=5, min_moves=2, max_moves=3, seed=2)
    assert made == rushhour.generate_puzzles(1, width=5, height=5, min_moves=2, max_moves=3, seed=2)
    assert 2 <= made[0].length <= 3


def test_generate_defaults_to_the_commands_method_and_makes_wrap_around_boards() -> None:
    from rushhour.generator import DEFAULT_METHOD, Settings, attempt

    [made] = rushhour.generate(1, min_moves=8, seed=5)
    assert made.method == DEFAULT_METHOD == "anneal"
    # the same puzzle as the command's first try that made one (rushhour generate --seed 5)
    s = Settings(min_moves=8, seed=5).checked()
    first = next(r.puzzle for r in (attempt(s, n) for n in range(100)) if r.puzzle is not None)
    assert made.board == first.board
    [looped] = rushhour.generate(1, min_moves=6, seed=2, wrap=True)
    assert looped.board.wrap and looped.board.replay(looped.solution).is_won()
    assert rushhour.solve(looped.board).length == looped.length >= 6


def test_generate_caps_the_vehicles_as_the_fogleman_format_does() -> None:
    from rushhour.formats.fogleman import MAX_VEHICLES as LETTERS

    made = rushhour.generate(2, width=9, height=9, min_moves=20, seed=1, max_vehicles=LETTERS)
    assert all(len(p.board.vehicles) <= LETTERS for p in made)
    assert all(rushhour.solve(p.board).length == p.length >= 20 for p in made)
    # each puzzle is written in the format and read back as the same board
    for p in made:
        assert Board.from_text(p.board.to_text("fogleman")).to_text() == p.board.to_text()
    with pytest.raises(rushhour.ParameterError) as caught:
        rushhour.generate(1, width=9, height=9, vehicles=(20, 30), max_vehicles=LETTERS)
    assert str(caught.value) == "vehicles 30 is too many: max_vehicles is 26"
    with pytest.raises(rushhour.ParameterError, match="^max_vehicles 61 is out of range: 2 to 60"):
        rushhour.generate(1, max_vehicles=61)


def _in_a_pool_worker(seed: int) -> tuple[list[str], tuple[str, ...], int]:
    """What a library user's pool worker (a daemon) gets from the calls that start processes of their
    own: the generator's boards (2 jobs), a database's lines (2 workers), a 9x9 board's optimum."""
    import multiprocessing

    assert multiprocessing.current_process().daemon
    made = rushhour.generate(2, min_moves=8, seed=seed, jobs=2)
    database = rushhour.enumerate_database(4, workers=2)
    return [p.board.to_text() for p in made], database.lines, rushhour.solve("large:1").length


def test_the_calls_that_start_processes_work_in_a_pool_worker() -> None:
    """A daemon may not start processes: there the generator's tries and the enumerator's parts run in
    the worker itself, with the same answers, and the portfolio runs its passes alone."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        boards, lines, length = pool.apply(_in_a_pool_worker, (4,))
    assert boards == [p.board.to_text() for p in rushhour.generate(2, min_moves=8, seed=4)]
    assert lines == rushhour.enumerate_database(4).lines
    assert length == rushhour.solve("large:1", engine="bfs").length


def test_solve_defaults_to_the_commands_engine(capsys: pytest.CaptureFixture[str]) -> None:
    from rushhour.search import DEFAULT_ENGINE

    assert DEFAULT_ENGINE == "portfolio"
    large = rushhour.load("large:1")  # 9x9: the portfolio runs there (compiled: else the bfs engine)
    found = rushhour.solve(large)
    assert found.engine == ("portfolio" if native_enabled() else "bfs") and found.optimal
    assert found.length == rushhour.solve(large, engine="bfs").length
    assert main(["solve", "large:1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == found.engine
    # on 6x6 the portfolio is the bfs engine, and says so
    assert rushhour.solve("classic:1").engine == "bfs"


def test_analyze_takes_a_memory_bound_as_solve_does() -> None:
    """The compiled analysis turns the bound into positions; the Python one measures how much the
    process grows, which memory freed by earlier work in the process can hide: its bound is shown on
    a board whose analysis takes more than any earlier test freed (large:17, 9x9)."""
    with pytest.raises(rushhour.LimitReachedError):
        rushhour.analyze("classic:12" if native_enabled() else "large:17", max_memory=1)
    assert rushhour.analyze("classic:12", max_memory=None).cluster_size == rushhour.analyze("classic:12").cluster_size


def test_generate_with_no_settings_makes_the_commands_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    """rushhour.generate(1, seed=5) and rushhour generate --seed 5: the same defaults (10 moves or more,
    method anneal), so the same puzzle."""
    from rushhour.generator import DEFAULT_MIN_MOVES

    [made] = rushhour.generate(1, seed=5)
    assert main(["generate", "--seed", "5", "--json", "-q"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert made.length == document["length"] >= DEFAULT_MIN_MOVES == 10
    assert made.board == Board.from_text(document["board"]["text"])


# --- boards as text --------------------------------------------------------------------------------
@given(boards())
def test_from_text_reads_back_what_to_text_writes(board: Board) -> None:
    for fmt in ("grid", "json"):
        assert Board.from_text(board.to_text(fmt)) == board
        assert Board.from_text(board.to_text(fmt), fmt) == board
    try:
        rows = board.to_text("rows")
    except rushhour.FormatError:
        return
    assert "\n" not in rows and Board.from_text(rows) == board


@given(boards() | boards(square=True, letters_only=True, goal_name="A", exit_side="right", wrap=False))
def test_one_line_text_identifies_the_board(board: Board) -> None:
    text, fmt = rushhour.formats.single.one_line(board)
    assert "\n" not in text and Board.from_text(text, fmt) == board and Board.from_text(text) == board


def test_from_text_detects_each_format() -> None:
    board = Board.from_text(SMALL)
    assert Board.from_text("AAoBoooBCCoooooo") == board  # fogleman
    assert Board.from_text("02 AAoBoooBCCoooooo 18") == board  # a database line
    assert Board.from_text("# name: small\nAA.B\n...B\nCC..\n....\n") == board  # grid with a header
    assert Board.from_text(board.to_text("json")) == board


def test_from_text_refuses_clearly() -> None:
    with pytest.raises(rushhour.ParseError, match="2 boards, not one"):
        Board.from_text("AAoBoooBCCoooooo\nAAoBoooBooCCoooo\n")
    with pytest.raises(rushhour.ParameterError, match="unknown format 'fen'"):
        Board.from_text(SMALL, "fen")
    with pytest.raises(rushhour.ParseError, match="line 2"):
        Board.from_text("AA.B/..B/....")
    named = Board(4, 4, [rushhour.Vehicle("AA", "H", 2, 0, 0)], goal="AA")
    with pytest.raises(rushhour.FormatError, match="rows form cannot hold"):
        named.to_text("rows")


def test_load_takes_what_board_takes(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text("AAoBoooBCCoooooo\nAAoBoooBooCCoooo\n")
    assert rushhour.load(f"{path}:2") == Board.from_text("AAoBoooBooCCoooo")
    assert rushhour.load("classic:12") == Board.from_text("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")
    with pytest.raises(rushhour.BoardNotFoundError):
        rushhour.load("no-such-level")


# --- consistent results ----------------------------------------------------------------------------
def test_a_count_of_moves_is_length_and_moves_are_moves() -> None:
    board = Board.from_text(SMALL)
    solution = rushhour.solve(board)
    [puzzle] = rushhour.generate(1, width=5, height=5, min_moves=3, max_moves=4, seed=1)
    game = Game(board, legal_moves=Board.legal_moves, solver=lambda b: rushhour.solve(b).moves)
    for move in solution.moves:
        game.play(move)
    result = game.result()
    for item in (solution, puzzle, result):
        assert isinstance(item.length, int) and isinstance(item.moves, tuple)
        assert item.length == len(item.moves) and all(isinstance(m, Move) for m in item.moves)
    assert result.moves == solution.moves and puzzle.solution == puzzle.moves
    assert board.layout.goal_index == board.names.index(board.goal)


def test_to_dict_is_json_and_reads_back() -> None:
    board = rushhour.load("classic:1")
    solution = rushhour.solve(board)
    analysis = rushhour.analyze(board)
    [puzzle] = rushhour.generate(1, width=5, height=5, min_moves=3, max_moves=4, seed=1)
    cnf = rushhour.logic.encode(board)
    database = rushhour.enumerate_database(3)
    verdict = rushhour.logic.explain(board, "A+1")
    for item in (solution, analysis, puzzle, cnf, database, verdict):
        data = json.loads(json.dumps(item.to_dict()))
        assert data == item.to_dict()
    for item in (solution, puzzle):
        data = item.to_dict()
        start = Board.from_text(data["board"]["text"])
        assert start == item.board and verify(start, data["moves"]).is_won()
        assert data["length"] == item.length and data["steps"] == item.steps
    data = analysis.to_dict()
    assert sum(data["histogram"]) == data["cluster_size"] == analysis.cluster_size
    assert Board.from_text(data["hardest"]["text"]) == analysis.hardest
    game = Game(board, legal_moves=Board.legal_moves, solver=lambda b: rushhour.solve(b).moves)
    for move in solution.moves:
        game.play(move)
    result = game.result().to_dict()
    assert result["moves"] == [str(m) for m in solution.moves] and result["length"] == 4
    assert json.loads(json.dumps(result)) == result


def test_to_dict_is_the_commands_document_but_what_only_the_command_knows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/library.md lists what a command's document adds to the result's to_dict(): kept true here."""
    from rushhour import logic

    def document(*argv: str) -> dict[str, Any]:
        assert main(list(argv)) in (0, 1)
        return dict(json.loads(capsys.readouterr().out.splitlines()[0]))

    board = "AA...B/.....B/CC.D../...D../EEE.../......"
    pairs = {
        "expected": (rushhour.solve(board), document("solve", board, "--json")),
        "": (rushhour.analyze(board), document("analyze", board, "--json")),
        "name": (
            rushhour.generate(1, width=5, height=5, min_moves=3, max_moves=4, seed=1)[0],
            document("generate", "--size", "5x5", "--min-moves", "3", "--max-moves", "4", "--seed", "1", "--json", "-q"),
        ),
        "board solver": (logic.explain(rushhour.load(board), "A+1"), document("explain", board, "A+1", "--json")),
        "dimacs": (logic.encode(rushhour.load(board)), document("encoding", board, "--json")),
    }
    for added, (result, printed) in pairs.items():
        mine = result.to_dict()  # type: ignore[attr-defined]
        assert set(printed) - set(mine) == {"schema", "version", *added.split()}, added
        differ = {key for key in mine if printed[key] != mine[key]}
        if "board" in differ and printed["board"]["text"] == mine["board"]["text"]:
            differ.remove("board")  # the same board, which the command names (puzzle-01)
        assert differ <= {"seconds"}, (added, differ)  # the time each took


# --- errors ----------------------------------------------------------------------------------------
def test_library_errors_name_parameters_and_the_command_line_names_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(rushhour.ParameterError) as caught:
        rushhour.generate(1, min_moves=9, max_moves=3)
    assert str(caught.value) == "max_moves 3 is below min_moves 9: no length fits"
    with pytest.raises(rushhour.ParameterError, match="^count must be at least 1"):
        rushhour.generate(0)
    assert main(["generate", "--min-moves", "9", "--max-moves", "3"]) == 2
    assert capsys.readouterr().err == "error: --max-moves 3 is below --min-moves 9: no length fits\n"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Board.from_text(None), "text must be a str, not NoneType"),
        (lambda: rushhour.load(12), "name_or_path must be a str (a built-in name, a file or an inline board), not int"),
        (lambda: rushhour.solve(42), "board must be a Board or a str (a built-in name, a file or an inline board), not int"),
        (lambda: rushhour.analyze(None), "board must be a Board or a str (a built-in name, a file or an inline board), not NoneType"),
        (lambda: rushhour.load("classic:1").apply(None), "move must be a Move or a str like 'A+2', not NoneType"),
        (lambda: rushhour.load("classic:1").replay([Move("F", 3), 7]), "move must be a Move or a str like 'A+2', not int"),
        (lambda: rushhour.load("classic:1").replay(None), "moves must be moves (Move or 'A+2') or one str of them, not NoneType"),
        (lambda: Move.parse(None), "text must be a str like 'A+2', not NoneType"),
        (lambda: rushhour.load("classic:1").vehicle(None), "name must be a vehicle name, not NoneType"),
        (lambda: rushhour.logic.explain(rushhour.load("classic:1"), None),
         "move must be a Move or a str like 'A+2', not NoneType"),
        (lambda: rushhour.logic.prove(None, (4, 4)),
         "claim must be a formula, like 'forall i,j: CMR(i,j) -> Empty(i,j+1)', not NoneType"),
        (lambda: rushhour.logic.count_solutions((4, 4.0)), "where must be a board or a (width, height) size, not (4, 4.0)"),
    ],
)
def test_an_argument_of_the_wrong_type_is_one_clear_error(call: Any, message: str) -> None:
    with pytest.raises(rushhour.ArgumentTypeError) as caught:
        call()
    assert str(caught.value) == message
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, rushhour.RushHourError)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rushhour.solve("classic:1", max_states="10"), "max_states must be a whole number of positions or None, not str"),
        (lambda: rushhour.solve("classic:1", max_states=1.5), "max_states must be a whole number of positions or None, not float"),
        (lambda: rushhour.solve("classic:1", time_limit=True), "time_limit must be a number of seconds or None, not bool"),
        (lambda: rushhour.analyze("classic:1", max_memory=float("nan")), "max_memory must be a whole number of bytes or None"),
        (lambda: rushhour.solve("classic:1", progress=1), "progress must be a function or None, not int"),
        (lambda: rushhour.analyze("classic:1", progress="x"), "progress must be a function or None, not str"),
        (lambda: rushhour.generate(1.5), "count must be a whole number, not float"),
        (lambda: rushhour.generate(1, width=6.0), "width must be a whole number, not float"),
        (lambda: rushhour.generate(1, vehicles=5), "vehicles must be a pair (least, most), not 5"),
        (lambda: rushhour.generate(1, wrap="yes"), "wrap must be True or False, not str"),
        (lambda: rushhour.generate(1, jobs=True), "jobs must be a whole number, not bool"),
        (lambda: rushhour.solve("classic:1", engine="sat", max_moves="3"), "max_moves must be a whole number of moves"),
        (lambda: rushhour.solve("classic:1", engine="random", seed="x"), "seed must be a whole number or None, not str"),
        (lambda: rushhour.enumerate_database("4"), "size must be a whole number of cells (the side of a square board)"),
        (lambda: rushhour.enumerate_database(4, walls=5), "walls must be a pair (least, most), not 5"),
        (lambda: rushhour.enumerate_database(4, goal_row=1.0), "goal_row must be a whole number, not float"),
        (lambda: rushhour.enumerate_database(3, out=5), "out must be a directory's path (a str) or None, not int"),
    ],
)
def test_a_number_of_the_wrong_type_is_refused_by_name(call: Any, message: str) -> None:
    with pytest.raises(rushhour.ArgumentTypeError) as caught:
        call()
    assert str(caught.value).startswith(message)


def test_an_empty_out_is_refused_not_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for out in ("", "  "):
        with pytest.raises(rushhour.RushHourError, match="out is (empty|blank): give a path"):
            rushhour.enumerate_database(3, out=out)
    assert list(tmp_path.iterdir()) == []
    database = rushhour.enumerate_database(4, walls=[0, 0])  # a list as a pair
    assert repr(database) == "<Database 4x4: 32 puzzles>"
    assert repr(rushhour.enumerate_database(3)) == "<Database 3x3: 1 puzzle>"


def test_limits_out_of_range_are_refused_and_a_huge_memory_bound_is_none() -> None:
    with pytest.raises(rushhour.SolverError, match="the time limit must be a positive number of seconds, not nan"):
        rushhour.solve("classic:1", time_limit=float("nan"))
    with pytest.raises(rushhour.ParameterError, match="^time_limit must be a positive number of seconds, not nan"):
        rushhour.generate(1, time_limit=float("nan"))
    with pytest.raises(rushhour.ParameterError, match="^max_vehicles 0 is out of range: 2 to 60"):
        rushhour.generate(1, max_vehicles=0)
    assert rushhour.solve("classic:12", max_memory=10**30).length == 51


def test_the_logic_takes_a_board_and_says_how_to_get_one_from_a_name() -> None:
    board = rushhour.load("classic:1")
    assert rushhour.logic.legal_moves(board) == board.legal_moves()
    for call in (
        lambda: rushhour.logic.legal_moves("classic:1"),
        lambda: rushhour.logic.encode("classic:1"),
        lambda: rushhour.logic.prove("~Won", "classic:1", scope="position"),
    ):
        with pytest.raises(rushhour.ArgumentTypeError, match=r"board must be a Board \(rushhour.load gives"):
            call()


def test_replay_takes_one_str_of_moves_and_enumerate_refuses_no_workers() -> None:
    start = rushhour.load("classic:1")
    assert start.replay("F+3, C+1 D-1,A+4") == start.replay(["F+3", "C+1", "D-1", "A+4"])
    assert start.replay("F+3 C+1 D-1 A+4").is_won()
    with pytest.raises(rushhour.IllegalMoveError, match=r"^move 2 \(C\+9\)"):
        start.replay("F+3 C+9")
    with pytest.raises(rushhour.ParameterError, match="^workers must be at least 1, not 0$"):
        rushhour.enumerate_database(4, workers=0)


def test_engine_metric_and_heuristic_names_in_any_case() -> None:
    board = rushhour.load("classic:1")
    assert rushhour.solve(board, engine="ASTAR", metric="Steps", heuristic="Blocked").moves == (
        rushhour.solve(board, engine="astar", metric="steps").moves
    )
    with pytest.raises(rushhour.SolverError, match="unknown engine"):
        rushhour.solve(board, engine="bfs2")
    # the metric in any case everywhere a metric is taken
    upper, lower = rushhour.analyze(board, metric="Steps"), rushhour.analyze(board, metric="steps")
    assert upper.metric == "steps" and upper.histogram == lower.histogram
    assert board.legal_moves("STEPS") == board.legal_moves("steps") == rushhour.logic.legal_moves(board, "Steps")
