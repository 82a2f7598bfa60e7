"""Making boards harder (rushhour.harden, rushhour harden) and the compiled cluster analysis under it:
every board reported is solved again by the reference search and replayed; no report is shorter than
the start; seeds reproduce."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from rushhour.board import Board
from rushhour.errors import LimitReachedError, ParameterError, RushHourError
from rushhour.formats import read_file
from rushhour.generator import Settings, packed_bag, random_bag
from rushhour.harden import changed, harden, hardest_position, improvements
from rushhour.search import analysis, analyze, solve, verify
from rushhour.search.analysis import Analysis, KnownClusters, analyze_python
from tests.cli import run as run_cli
from tests.native import needs_native

SMALL = "AA.B../...B../...B../....../....../......"
LARGE = "..B...C/..B...C/AAB..../...DD../E....../E..FFF./......."
WRAP = Board.from_text("# wrap: yes\n# target: 2,5 east\n.B....\n.B....\nAA.C..\n...C..\n......\n......\n")


def reference_length(board: Board) -> int:
    """The optimal length by the Python breadth-first search, the solution replayed."""
    solution = solve(board, engine="bfs")
    assert verify(board, solution.moves).is_won()
    return solution.length


def sample_boards() -> list[Board]:
    """Boards of every kind: 6x6 random bags, packed 9x9 and 12x12 ones, walls, a wrap-around board."""
    boards = [WRAP]
    for size, walls, packed in (
        (6, (0, 0), False),
        (6, (1, 3), False),
        (9, (0, 4), True),
        (12, (0, 0), True),
    ):
        rng = random.Random(size * 10 + walls[1])
        settings = Settings(width=size, height=size, walls=walls)
        made = [(packed_bag if packed else random_bag)(rng, settings) for _ in range(12)]
        boards += [sketch.board() for sketch in made if sketch is not None]
    return boards


@needs_native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_the_compiled_analysis_agrees_with_the_python_one(metric: str) -> None:
    compared = 0
    for board in sample_boards():
        try:
            fast = analyze(board, metric=metric, max_states=60_000)
        except RushHourError:
            with pytest.raises(RushHourError):
                analyze_python(board, metric=metric, max_states=60_000)
            continue
        slow = analyze_python(board, metric=metric, max_states=60_000)
        assert replace_seconds(fast) == replace_seconds(slow)
        compared += 1
    assert compared >= 20


def replace_seconds(a: object) -> dict[str, object]:
    out = dict(vars(a))
    out.pop("seconds")
    return out


def test_the_compiled_analysis_stops_at_its_limit() -> None:
    board = Settings(width=12, height=12).checked()
    sketch = random_bag(random.Random(1), board)
    assert sketch is not None
    with pytest.raises(RushHourError, match="without an answer"):
        analyze(sketch.board(), max_states=1_000)


def outcome(ask: Callable[..., Analysis], board: Board, limit: int | None) -> dict[str, object] | str:
    """The analysis ``ask(board, max_states=limit)`` without its timing, or "limit" when it stopped at
    its limit."""
    try:
        return replace_seconds(ask(board, max_states=limit))
    except LimitReachedError:
        return "limit"


def test_known_clusters_answer_as_analyze_does_and_search_only_when_they_must() -> None:
    """Every answer kept is the one a search gives: a cluster within any limit of at least its size and
    past any smaller one, a cluster past a limit past any smaller one, the hardest position's cluster
    known with it."""
    boards = sample_boards()[:10]
    clusters, asked = KnownClusters(), 0
    rng = random.Random(5)
    for board in boards:
        a = analyze(board)
        full = a.cluster_size
        for position, limit in [(board, full - 1), (board, full), (board, full + 1), (board, None),
                                (board, full - 1), (board, 1), (a.hardest, full), (a.hardest, full - 1)] + [
            (rng.choice((board, a.hardest)), rng.randint(1, 2 * full)) for _ in range(6)
        ]:
            asked += 1
            assert outcome(clusters.analyze, position, limit) == outcome(analyze, position, limit), (
                position.rows(), limit)
    assert clusters.searches == 2 * len(boards)  # past full - 1, then the whole cluster: no search after
    assert asked == 14 * len(boards)
    past = KnownClusters()
    with pytest.raises(LimitReachedError):
        past.analyze(boards[0], max_states=3)
    with pytest.raises(LimitReachedError, match="more than 3 positions"):
        past.analyze(boards[0], max_states=2)  # known past 3, so past 2: no search
    assert past.searches == 1


def test_known_clusters_forget_the_oldest_beyond_their_size() -> None:
    boards = sample_boards()[:4]
    clusters = KnownClusters(maxsize=2)
    for board in boards:
        clusters.analyze(board)
    clusters.analyze(boards[-1])
    assert clusters.searches == 4  # the last one is known
    clusters.analyze(boards[0])
    assert clusters.searches == 5  # the first one was forgotten


def test_harden_finds_what_it_found_searching_every_candidate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answers kept (KnownClusters) save searches and change nothing found within a number of tries."""

    def run() -> list[tuple[int, tuple[str, ...]]]:
        out = []
        for board in (Board.from_text(SMALL), WRAP, Board.from_text(LARGE)):
            found = harden(board, max_tries=300, time_limit=None, seed=2)
            out += [(f.hardest.length, tuple(f.hardest.board.rows())) for f in found]
        return out

    asked, searched = [0], [0]
    ask, search = KnownClusters.analyze, analysis.analyze

    def counted_ask(self: KnownClusters, board: Board, **limits: int | float | None) -> Analysis:
        asked[0] += 1
        return ask(self, board, **limits)  # type: ignore[arg-type]

    def counted_search(board: Board, **limits: str | int | float | None) -> Analysis:
        searched[0] += 1
        return search(board, **limits)  # type: ignore[arg-type]

    monkeypatch.setattr(KnownClusters, "analyze", counted_ask)
    monkeypatch.setattr(analysis, "analyze", counted_search)
    kept = run()
    assert 0 < searched[0] < 0.8 * asked[0], (searched, asked)
    monkeypatch.setattr(analysis, "KNOWN_CLUSTERS", 0)  # nothing kept: every candidate a search
    asked[0] = searched[0] = 0
    assert run() == kept and len(kept) >= 6
    assert searched[0] == asked[0] > 0


def test_hardest_position_is_the_farthest_and_solved_again() -> None:
    h = hardest_position(Board.from_text(SMALL))
    assert (h.length, h.reachable) == (2, 18)
    assert reference_length(h.board) == h.length == len(h.moves)
    a = analyze(Board.from_text(SMALL))
    assert h.board == a.hardest and a.cluster_size == h.reachable


def test_hardest_position_of_a_wrap_around_board() -> None:
    h = hardest_position(WRAP)
    assert h.board.wrap and reference_length(h.board) == h.length >= 1


def test_an_unsolvable_board_has_no_hardest_position() -> None:
    blocked = Board.from_text("AA.BB./....../....../....../....../......")
    h = hardest_position(blocked)
    assert not h.solvable and h.length == -1 and h.moves == ()
    with pytest.raises(RushHourError, match="unsolvable"):
        harden(blocked, max_tries=5, time_limit=None)


def test_harden_reports_longer_and_longer_verified_boards() -> None:
    found = harden(Board.from_text(SMALL), max_tries=150, time_limit=None, seed=4)
    lengths = [f.hardest.length for f in found]
    assert lengths[0] == 2 and len(lengths) >= 3
    assert lengths == sorted(set(lengths))  # strictly longer each time: never shorter than the start
    for f in found:
        assert reference_length(f.hardest.board) == f.hardest.length
        assert verify(f.hardest.board, f.hardest.moves).is_won()
        assert analyze(f.hardest.board).hardest_distance == f.hardest.length


def test_harden_reproduces_with_its_seed_and_differs_with_another() -> None:
    def run(seed: int) -> list[tuple[str, ...]]:
        found = harden(Board.from_text(SMALL), max_tries=80, time_limit=None, seed=seed)
        return [tuple(f.hardest.board.rows()) for f in found]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_harden_on_a_board_larger_than_6x6_weighs_the_reachable_set() -> None:
    # beyond 6x6 the annealing judges a candidate by its energy (length, mean distance, the set's size)
    # and explores it up to twice the current set: still every report verified and longer than the last
    board = Board.from_text(LARGE)
    start = hardest_position(board)
    found = harden(board, max_tries=120, time_limit=None, seed=2)
    lengths = [f.hardest.length for f in found]
    assert lengths[0] == start.length and len(lengths) >= 2
    assert lengths == sorted(set(lengths))
    for f in found:
        assert reference_length(f.hardest.board) == f.hardest.length
        assert verify(f.hardest.board, f.hardest.moves).is_won()
        assert analyze(f.hardest.board).hardest_distance == f.hardest.length
    assert [tuple(f.hardest.board.rows()) for f in harden(board, max_tries=120, time_limit=None, seed=2)] == [
        tuple(f.hardest.board.rows()) for f in found
    ]


def test_the_mean_distance_the_annealings_weigh_is_the_reference_one() -> None:
    board = Board.from_text(SMALL)
    reference = analyze_python(board)
    assert reference.histogram == {0: 4, 1: 12, 2: 2}  # 18 positions: 4 won, 12 one move away, 2 two
    assert reference.mean_distance == analyze(board).mean_distance == (12 + 2 * 2) / 18


def test_keep_vehicles_keeps_the_vehicles_and_walls() -> None:
    board = Board.from_text("AA.B../...B../x..B../..CC.x/....../.DDD..")
    kinds = sorted((v.name, v.length) for v in board.vehicles)
    for f in harden(board, max_tries=120, time_limit=None, keep_vehicles=True, seed=2):
        assert sorted((v.name, v.length) for v in f.hardest.board.vehicles) == kinds
        assert f.hardest.board.walls == board.walls
    rng = random.Random(3)
    for _ in range(200):
        after = changed(board, rng, keep_vehicles=True)
        assert after is None or sorted((v.name, v.length) for v in after.vehicles) == kinds


def test_max_vehicles_keeps_harden_from_adding_past_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = Board.from_text(SMALL)  # 2 vehicles
    rng, capped = random.Random(5), random.Random(5)
    grown = [changed(board, rng) for _ in range(200)]
    kept = [changed(board, capped, max_vehicles=2) for _ in range(200)]
    assert any(b is not None and len(b.vehicles) > 2 for b in grown)  # the cap is what keeps them at 2
    assert all(b is None or len(b.vehicles) <= 2 for b in kept)
    for f in harden(board, max_tries=150, time_limit=None, seed=3, max_vehicles=2):
        assert len(f.hardest.board.vehicles) <= 2
    with pytest.raises(RushHourError, match="max_vehicles"):
        improvements(board, max_vehicles=1)
    # --out in a format that cannot hold the board: refused before any work, nothing written
    out = tmp_path / "best.txt"
    status, text, err = run_cli(capsys, "harden", "wrap:1", "--format", "fogleman", "--out", str(out))
    assert status == 2 and text == "" and err == "error: the Fogleman format holds no wrap-around boards\n"
    assert not out.exists()


def full_board() -> Board:
    """A 16x16 board of 60 vehicles, as many as the grid format names: six rows of cars, three cars
    across the goal car's row, a last row of cars, and room between for more."""
    names = "BCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnpqrstuvwy"
    rows = ["".join(c * 2 for c in names[8 * r : 8 * r + 8]) for r in range(6)]
    rows += ["....z...0...1...", "AA..z...0...1...", *["." * 16] * 7, "2233445566778899"]
    return Board.from_text("/".join(rows))


def test_harden_adds_no_vehicle_past_the_names_of_the_grid_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = full_board()
    assert len(board.vehicles) == 60
    rng = random.Random(1)
    grown = [changed(board, rng) for _ in range(300)]
    assert all(b is None or len(b.vehicles) <= 60 for b in grown)
    assert any(b is not None and len(b.vehicles) == 59 for b in grown)  # other changes still happen
    # a 61st vehicle (named V60) made a longer board that no format could write: the run failed
    start, out = tmp_path / "full.txt", tmp_path / "best.txt"
    start.write_text("\n".join(board.rows()) + "\n")
    argv = ("harden", str(start), "--max-tries", "1500", "--seed", "1", "--out", str(out), "--no-color")
    status, _, err = run_cli(capsys, *argv)
    best = read_file(str(out))[0]
    assert status == 0 and "error" not in err and len(best.board.vehicles) <= 60
    assert int(best.meta["moves"]) == reference_length(best.board)


def test_harden_calls_back_and_can_be_cancelled() -> None:
    seen = []
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 10

    found = harden(
        Board.from_text(SMALL), time_limit=None, seed=1, on_improvement=seen.append, should_stop=stop
    )
    assert seen == found and len(calls) == 11
    assert next(improvements(Board.from_text(SMALL), max_tries=0)).hardest.length == 2


def test_the_search_says_how_far_it_went() -> None:
    search = improvements(Board.from_text(SMALL), max_tries=40, time_limit=None, seed=4)
    assert search.tried == 0 and search.seconds == 0
    found = list(search)
    assert search.tried == 40 and found[-1].tried <= 40 and search.seconds >= found[-1].seconds


def test_bad_harden_arguments_are_refused() -> None:
    with pytest.raises(RushHourError, match="time_limit"):
        harden(Board.from_text(SMALL), time_limit=0)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda b: harden(b, time_limit="5", max_tries=3), "time_limit"),  # type: ignore[arg-type]
        (lambda b: harden(b, time_limit=float("inf"), max_tries=3), "time_limit"),
        (lambda b: harden(b, max_tries="3"), "max_tries"),  # type: ignore[arg-type]
        (lambda b: harden(b, max_tries=2.5, time_limit=None), "max_tries"),  # type: ignore[arg-type]
        (lambda b: harden(b, max_tries=True, time_limit=None), "max_tries"),
        (lambda b: harden(b, max_vehicles="3", max_tries=3), "max_vehicles"),  # type: ignore[arg-type]
        (lambda b: harden(b, seed=1.5, max_tries=3), "seed"),  # type: ignore[arg-type]
        (lambda b: harden(b, seed=[1], max_tries=3), "seed"),  # type: ignore[arg-type]
        (lambda b: harden(b, max_tries=3, on_improvement=5), "on_improvement"),  # type: ignore[arg-type]
        (lambda b: harden(b, max_tries=3, should_stop=5), "should_stop"),  # type: ignore[arg-type]
        (lambda b: harden(SMALL, max_tries=3), "board"),  # type: ignore[arg-type]
        (lambda b: improvements(None), "board"),  # type: ignore[arg-type]
        (lambda b: hardest_position(SMALL), "board"),  # type: ignore[arg-type]
        (lambda b: changed(b, None), "rng"),  # type: ignore[arg-type]
        (lambda b: changed(SMALL, random.Random(1)), "board"),  # type: ignore[arg-type]
    ],
)
def test_harden_arguments_of_the_wrong_type_are_parameter_errors(call: Callable[[Board], object], name: str) -> None:
    """The library raises its own errors, naming the argument, before any search."""
    with pytest.raises(ParameterError, match=rf"^{name} must be"):
        call(Board.from_text(SMALL))


def test_cli_harden_text_json_and_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = ("harden", SMALL, "--max-tries", "100", "--seed", "4", "--no-color")
    status, text, err = run_cli(capsys, *base)
    assert status == 0 and "Hardest position of its reachable set (18 positions): 2 moves" in text
    assert "Improvement 1:" in text and "every board shown was solved again" in err
    assert "moves, from 2, 100 candidate boards in " in err and "(seed 4)" in err
    out = tmp_path / "best.txt"
    status, lines, _ = run_cli(
        capsys, "harden", SMALL, "--max-tries", "100", "--seed", "4", "--json", "--out", str(out)
    )
    docs = [json.loads(line) for line in lines.splitlines()]
    assert status == 0 and docs[0]["schema"] == "rushhour.harden" and docs[0]["start"] is True
    assert [d["length"] for d in docs] == sorted({d["length"] for d in docs})
    assert text.count("Improvement ") == len(docs) - 1  # the same run in text and JSON
    best = read_file(str(out))[0]
    assert int(best.meta["moves"]) == docs[-1]["length"] == reference_length(best.board)
    assert int(best.meta["cluster"]) == docs[-1]["reachable"] == analyze(best.board).cluster_size
    # in the Fogleman format the file is a database line: moves, board, cluster
    line = tmp_path / "best.fog"
    status, _, _ = run_cli(
        capsys, "harden", SMALL, "--max-tries", "100", "--seed", "4", "--format", "fogleman", "--out", str(line)
    )
    moves, board, cluster = line.read_text().split()
    assert status == 0 and (int(moves), int(cluster)) == (docs[-1]["length"], docs[-1]["reachable"])


@pytest.mark.parametrize(
    "argv",
    [
        ["harden", "nosuchboard"],
        ["harden", SMALL, "--time-limit", "0"],
        ["harden", SMALL, "--seed", "x"],
        ["harden", "AA.BB./....../....../....../....../......", "--max-tries", "3"],
        ["harden", SMALL, "--json", "--color"],
        ["harden", SMALL, "--format", "csv"],  # the format of --out, without --out
        ["harden", SMALL, "--out", "/no/such/folder/best.txt"],
        ["harden", SMALL, "--out", "."],  # a folder
    ],
)
def test_cli_harden_bad_input_is_one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")


def test_cli_harden_refuses_an_out_it_cannot_write_before_the_search(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for out, why in (
        (tmp_path, "it is a folder, not a regular file"),
        (tmp_path / "none" / "best.txt", f"the folder {tmp_path / 'none'} does not exist"),
        (f"{tmp_path / 'new'}/", "it ends in /, the name of a folder, where a file is wanted"),
        ("/dev/full", "it is a device, not a regular file"),
    ):
        status, text, err = run_cli(capsys, "harden", SMALL, "--out", str(out), "--max-tries", "3")
        assert (status, text, err) == (2, "", f"error: cannot write {out}: {why}\n")


def test_the_generator_guide_runs() -> None:
    import doctest

    guide = Path(__file__).resolve().parent.parent / "docs" / "generator.md"
    result = doctest.testfile(str(guide), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_cli_harden_documents_follow_their_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_json import documents

    docs = documents(capsys, "harden", SMALL, "--max-tries", "60", "--seed", "2", "--json")
    assert docs[0]["start"] and docs[0]["report"] == 0 and all(not d["start"] for d in docs[1:])
