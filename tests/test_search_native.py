"""The compiled breadth-first searches against the Python ones: the same positions discovered, the same
path, the same count, the same layers in the same order, the same limits, on the reference slice and
on random boards of every kind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rushhour.board import Board
from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman, read_file
from rushhour.formats.grid import parse_grid
from rushhour.search import analysis as analysis_module
from rushhour.search import analyze, solve
from rushhour.search import native as loader
from rushhour.search.analysis import Analysis
from rushhour.search.bfs import (
    Limits,
    _spread,
    shortest,
    shortest_python,
)
from rushhour.search.contract import ANALYSIS_CHUNK
from rushhour.search.native import native_available, use_native
from rushhour.search.tables import Tables
from tests.native import needs_native
from tests.strategies import boards_of_every_kind

DATA = Path(__file__).parent / "data" / "fogleman_slice_solve.txt"


def both(tables: Tables, start: int, limits: dict[str, float]) -> tuple[object, object]:
    """What the compiled and the Python search answer (or the message of the limit that stopped them)."""
    answers = []
    for search in (shortest, shortest_python):
        try:
            answers.append(search(tables, start, Limits(**limits)))  # type: ignore[arg-type]
        except LimitReachedError as err:
            answers.append((str(err), err.explored))
    return answers[0], answers[1]


def test_the_compiled_search_is_built_where_a_c_compiler_is() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) here: the Python search is used")
    assert native_available()


@needs_native
def test_same_answers_on_the_reference_slice() -> None:
    for line in DATA.read_text().splitlines():
        board, meta = fogleman.parse_line(line)
        tables = Tables(board.layout)
        native, python = both(tables, tables.pack(board.state), {})
        assert native == python, line
        path, _ = native  # type: ignore[misc]
        assert len(path) - 1 == int(meta["moves"])


@needs_native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_same_answers_on_boards_of_every_kind(metric: str) -> None:
    compared = limited = 0
    for board in boards_of_every_kind(41, 150) + boards_of_every_kind(43, 150, dense=True):
        tables = Tables(board.layout, metric)
        native, python = both(tables, tables.pack(board.state), {"max_states": 3000})
        assert native == python, board
        compared += 1
        limited += isinstance(native[0], str)  # type: ignore[index]
    assert compared == 300 and limited >= 5


# a wall before the exit and five free cars: millions of positions, none of them won
WALLED = """\
AA.......x
BB........
..........
CC........
..........
DD........
..........
EE........
..........
FF........
# exit: right
"""


@needs_native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_same_layers_on_boards_of_every_kind(metric: str) -> None:
    """The whole reachable set, layer by layer in the same order, and the same limit messages."""
    limited = 0
    for board in boards_of_every_kind(47, 100) + boards_of_every_kind(53, 100, dense=True):
        tables = Tables(board.layout, metric)
        start = tables.pack(board.state)
        sources = [start, *tables.successors(start), start]  # several sources, one of them twice
        answers = []
        for native in (True, False):
            before = use_native(native)
            try:
                answers.append(_spread(tables, sources, Limits(max_states=4000)))
            except LimitReachedError as err:
                answers.append((str(err), err.explored))  # type: ignore[arg-type]
            finally:
                use_native(before)
        assert answers[0] == answers[1], board
        limited += isinstance(answers[0][0], str)
    assert limited >= 5


def _both_analyses(board: Board) -> Analysis:
    """The compiled analysis of ``board``, once it was found equal to the Python one."""
    native = analyze(board)
    before = use_native(False)
    try:
        python = analyze(board)
    finally:
        use_native(before)
    assert native == python
    return native


def _analyses_agree(every: int) -> None:
    """On every ``every``-th board of the reference slice, the compiled analysis is the Python one, and
    its cluster the slice's."""
    for line in DATA.read_text().splitlines()[::every]:
        board, meta = fogleman.parse_line(line)
        assert _both_analyses(board).cluster_size == int(meta["cluster"])


@needs_native
def test_analysis_is_the_same_with_and_without_the_compiled_search() -> None:
    _analyses_agree(8)


@needs_native
@pytest.mark.parametrize("edge_bytes", [0, 64, 20_000, 1 << 30])
def test_the_compiled_analysis_answers_the_same_whether_it_keeps_the_moves_or_not(
    edge_bytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kept (1 GiB), dropped at the start (64 bytes) or on the way (20,000 bytes: a few thousand moves, a
    part of each cluster), or never kept (0): the answers of the Python analysis."""
    monkeypatch.setattr(analysis_module, "EDGE_BYTES", edge_bytes)
    _analyses_agree(40)


#: a 16x16 wrap-around board of three free vehicles: 66 moves from the start, 3,942 positions
OPEN_WRAP = """\
# wrap: yes
# target: 7,15 east
................
................
................
................
................
................
..............ED
AA............ED
..............E.
................
................
................
................
................
................
................
"""


@needs_native
@pytest.mark.parametrize("edge_bytes", [0, 1 << 30])
def test_the_compiled_analysis_visits_every_move_of_a_position_of_more_moves_than_a_chunk(
    edge_bytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled analysis looks a position's moves up ANALYSIS_CHUNK at a time: where a position has
    more, every chunk is visited (the Python analysis's cluster, distances and hardest position)."""
    board = Board.from_text(OPEN_WRAP)
    assert len(board.legal_moves()) > ANALYSIS_CHUNK
    monkeypatch.setattr(analysis_module, "EDGE_BYTES", edge_bytes)
    native = _both_analyses(board)
    assert native.cluster_size == 3942 and native.histogram == {0: 182, 1: 2730, 2: 952, 3: 78}


@pytest.mark.parametrize("compiled", [True, False])
def test_the_analysis_reports_its_progress_and_answers_the_same(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``analyze(progress=...)``: records of the ``analysis``, the positions found (never more than
    the cluster) and, for the compiled analysis, then the positions given their distance, each stage
    counting up; the same answer as without it."""
    if compiled and not native_available():
        pytest.skip("the compiled search is not built")
    from rushhour.search import watch

    monkeypatch.setattr(watch, "INTERVAL", 0.0)
    # large:17, 9x9: 544,763 positions, half a second for the compiled analysis
    board = Board.from_text("BoCDDDEEEBoCFFGGGoBoCHooIooJJJHooIKKoLMHAAINoOLMPPPQNROLMooSQoROTTUVSQoRoWWUVSXXX")
    seen: list[watch.SearchProgress] = []
    before = use_native(compiled)
    try:
        found = analyze(board, progress=seen.append)
        plain = analyze(board)
    finally:
        use_native(before)
    assert found.cluster_size == plain.cluster_size and found.histogram == plain.histogram
    assert found.hardest == plain.hardest
    assert seen and all(r.engine == "analysis" and 0 < r.count <= found.cluster_size for r in seen)
    stages = [r.what for r in seen]
    assert stages[0] == "positions"
    if compiled:  # the stages in order, each counting up
        order = list(analysis_module.STAGES.values())
        assert stages == sorted(stages, key=order.index) and set(stages) == set(order)
        for stage in order:
            counts = [r.count for r in seen if r.what == stage]
            assert counts == sorted(counts)


@needs_native
@pytest.mark.parametrize(
    ("data", "max_states", "ordered"),
    [
        ("wrap8_loose.txt", 1_000_000, True),  # wrap-around: the compiled bfs
        ("crowd12_long.txt", 3_000_000, False),  # 12x12: the frontier passes, on every core
    ],
)
def test_the_compiled_bfs_and_the_passes_report_their_progress(
    data: str, max_states: int, ordered: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``solve(..., engine="bfs", progress=...)``: the compiled breadth-first search and the frontier
    passes call back between their batches, as the Python search does, with the positions stored so
    far (the passes' count over every pass; their threads' merges may lower it a little as they shed
    duplicates), up to the count they stopped at."""
    from rushhour.search import watch

    monkeypatch.setattr(watch, "INTERVAL", 0.0)
    board = read_file(str(Path(__file__).parent / "data" / data))[0].board
    seen: list[watch.SearchProgress] = []
    with pytest.raises(LimitReachedError) as caught:
        solve(board, engine="bfs", max_states=max_states, progress=seen.append)
    counts = [r.count for r in seen]
    assert len(seen) >= 2 and all(r.engine == "bfs" and r.what == "positions" for r in seen)
    assert all(0 < c <= caught.value.explored for c in counts)
    assert counts[-1] > max(counts[0], caught.value.explored // 2)
    assert counts == sorted(counts) or not ordered


@needs_native
def test_time_limit_and_state_limit_stop_the_compiled_search() -> None:
    board = parse_grid(WALLED)
    with pytest.raises(LimitReachedError, match="the limit is 100,000") as caught:
        solve(board, max_states=100_000)
    assert 100_000 < caught.value.explored <= 100_000 + 512 * 40  # one batch late at most
    with pytest.raises(LimitReachedError, match="time limit of 0.02 s") as caught:
        solve(board, time_limit=0.02)
    assert caught.value.explored > 1000
    with pytest.raises(LimitReachedError, match="the limit is 50,000"):
        analyze(board, max_states=50_000)
    with pytest.raises(LimitReachedError, match="time limit of 0.02 s"):
        analyze(board, time_limit=0.02)


@needs_native
def test_the_python_search_can_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """use_native(False) and RUSHHOUR_NATIVE=0 keep every search off the compiled code."""

    class Refusing:
        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"the compiled {name} was called")

    board = fogleman.parse_line("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")[0]
    native = solve(board)
    monkeypatch.setattr(loader, "compiled", Refusing())
    with pytest.raises(AssertionError, match="compiled shortest"):
        solve(board)
    before = use_native(False)
    try:
        python = solve(board)
        assert analyze(board).cluster_size == 4780
    finally:
        use_native(before)
    assert python.moves == native.moves and python.explored == native.explored
    code = "from rushhour.search import native; print(native.native_available(), native.native_enabled())"
    for value, used in (("0", "False"), ("1", "True")):
        env = {**os.environ, "RUSHHOUR_NATIVE": value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.split() == ["True", used]
