"""The JSON documents of the commands against the schemas of docs/json.md.

The schemas and the examples are read from the page itself, so the page, the examples and the
program's real output are checked against each other.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from rushhour.board import Board, Move
from rushhour.cli import main
from rushhour.cli.documents import (
    SCHEMAS,
    analyze_body,
    document,
    generate_body,
    solve_body,
    timed_body,
)
from rushhour.errors import LimitReachedError
from rushhour.generator import Generator, Settings
from rushhour.levels import resolve_board
from rushhour.search import analyze, solve, verify
from rushhour.search.timed import TimeModel, schedule

DOC = Path(__file__).resolve().parent.parent / "docs" / "json.md"
EASY = "ooBoooooBoooAABooooooooooooooooooooo"  # B+3 A+4
UNSOLVABLE = "ooooooooooooAAoxooBoooooBooooooooooo"
HARD = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"  # 51 moves
SMALL = "AA.B/...B/CC../...."


def _blocks() -> list[dict[str, Any]]:
    text = DOC.read_text(encoding="utf-8")
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", text, re.S)]


def _schemas() -> tuple[dict[str, Draft202012Validator], list[dict[str, Any]]]:
    blocks = _blocks()
    schemas = [b for b in blocks if "$schema" in b]
    examples = [b for b in blocks if "$schema" not in b]
    registry: Registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas
    )
    validators = {}
    for schema in schemas:
        Draft202012Validator.check_schema(schema)
        name = schema["$id"].removeprefix("urn:rushhour:")
        validators[f"rushhour.{name}"] = Draft202012Validator(schema, registry=registry)
    return validators, examples


VALIDATORS, EXAMPLES = _schemas()


def check(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` is valid against the schema it names; returns it."""
    VALIDATORS[document["schema"]].validate(document)
    assert document["version"] == 1
    return document


def documents(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> list[dict[str, Any]]:
    """Run the command; every line of its output is one valid document."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == status, err
    lines = out.splitlines()
    assert lines and all(line.startswith('{"schema":"rushhour.') for line in lines), out
    return [check(json.loads(line)) for line in lines]


def one(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> dict[str, Any]:
    [document] = documents(capsys, *argv, status=status)
    return document


def test_every_command_schema_is_documented_with_an_example() -> None:
    assert set(VALIDATORS) == {f"rushhour.{name}" for name in SCHEMAS} | {"rushhour.common"}
    named = {example["schema"] for example in EXAMPLES}
    assert named == {f"rushhour.{name}" for name in SCHEMAS}
    for example in EXAMPLES:
        check(example)


@pytest.mark.parametrize(
    ("argv", "line", "timed"),
    [
        (["generate", "--size", "5x5", "--min-moves", "3", "--max-moves", "4", "--seed", "1", "--json", "-q"], 0, ()),
        (["harden", "AA...B/.....B/CC.D../...D../EEE.../......", "--max-tries", "100", "--seed", "1", "--json"], 1,
         ("seconds",)),
    ],
)
def test_the_seeded_examples_are_what_their_commands_print(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: int, timed: tuple[str, ...]
) -> None:
    """The examples of docs/json.md made by a seeded command are its output, field for field (but the
    time taken): the same seed makes the same puzzles and boards on every machine."""
    printed = documents(capsys, *argv)[line]
    [example] = [dict(e) for e in EXAMPLES if e["schema"] == printed["schema"]]
    for field in timed:
        printed.pop(field), example.pop(field)
    assert printed == example


def test_solved_unsolvable_and_stopped_have_the_same_fields(capsys: pytest.CaptureFixture[str]) -> None:
    solved = one(capsys, "solve", EASY, "--json")
    unsolvable = one(capsys, "solve", UNSOLVABLE, "--json", status=1)
    stopped = one(capsys, "solve", HARD, "--json", "--max-states", "100", status=3)
    assert list(solved) == list(unsolvable) == list(stopped)
    assert [d["status"] for d in (solved, unsolvable, stopped)] == ["solved", "unsolvable", "stopped"]
    board = Board.from_text(solved["board"]["text"])
    assert verify(board, [Move.parse(m) for m in solved["moves"]]).is_won()
    assert solved["length"] == solved["lower_bound"] == 2 and solved["steps"] == 7
    assert unsolvable["optimal"] and unsolvable["moves"] == [] and unsolvable["length"] is None
    assert stopped["explored"] >= 100 and "limit" in stopped["message"]


def test_the_board_is_identified_not_called_inline(capsys: pytest.CaptureFixture[str]) -> None:
    inline = one(capsys, "solve", SMALL, "--json")["board"]
    assert inline == {
        "text": "AAoBoooBCCoooooo",
        "format": "fogleman",
        "width": 4,
        "height": 4,
        "name": None,
        "source": None,
    }
    named = one(capsys, "solve", "classic:12", "--json", "--max-states", "100", status=3)
    assert named["board"]["name"] == "classic-12" and named["board"]["source"] == "classic:12"
    assert named["expected"] == 51
    assert Board.from_text(named["board"]["text"]) == Board.from_text(HARD)


def test_batch_is_json_lines_of_solve_documents_then_a_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text(f"{EASY}\n{UNSOLVABLE}\n{HARD}\n")
    *boards, summary = documents(
        capsys, "solve", "--batch", str(path), "--json", "--max-states", "2000", status=3
    )
    assert [d["schema"] for d in boards] == ["rushhour.solve"] * 3 and summary["schema"] == "rushhour.batch"
    assert [d["status"] for d in boards] == ["solved", "unsolvable", "stopped"]
    assert [d["board"]["source"] for d in boards] == [f"{path}:{k}" for k in (1, 2, 3)]
    single = one(capsys, "solve", EASY, "--json")
    assert list(boards[0]) == list(single) and boards[0]["moves"] == single["moves"]
    assert (summary["boards"], summary["solved"], summary["unsolvable"], summary["stopped"]) == (3, 1, 1, 1)


def test_timed_and_analyze_documents(capsys: pytest.CaptureFixture[str]) -> None:
    timed = one(capsys, "solve", "classic:1", "--hands", "3,5", "--json")
    stopped = one(capsys, "solve", "classic:12", "--timed", "--max-states", "50", "--json", status=3)
    assert list(timed) == list(stopped) and timed["total"] == 18 and stopped["total"] is None
    assert [item["move"] for item in timed["schedule"]] == timed["moves"]
    analysis = one(capsys, "analyze", SMALL, "--json")
    assert sum(analysis["histogram"]) == analysis["cluster_size"] == 18
    assert analysis["start_distance"] == 2 and analysis["hardest_distance"] == len(analysis["histogram"]) - 1
    cut = one(capsys, "analyze", HARD, "--json", "--max-states", "100", status=3)
    assert list(cut) == list(analysis) and cut["status"] == "stopped"
    lone = one(capsys, "analyze", UNSOLVABLE, "--json", status=1)
    assert lone["status"] == "unsolvable" and lone["histogram"] == [] and lone["start_distance"] is None


def test_generate_prints_one_document_per_puzzle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ("generate", "--size", "5x5", "--count", "2", "--min-moves", "3", "--max-moves", "5", "--seed", "1")
    made = documents(capsys, *argv, "--json", "-q")
    assert [d["name"] for d in made] == ["puzzle-01", "puzzle-02"]
    for d in made:
        board = Board.from_text(d["board"]["text"])
        assert verify(board, [Move.parse(m) for m in d["moves"]]).is_won() and len(d["moves"]) == d["length"]
    out = tmp_path / "two.txt"
    again = documents(capsys, *argv, "--json", "-q", "--out", str(out))
    assert [d["moves"] for d in again] == [d["moves"] for d in made]
    assert [d["board"]["source"] for d in again] == [f"{out}:1", f"{out}:2"]
    assert out.read_text().count("# name: puzzle-0") == 2


def test_enumerate_prints_one_document_per_database_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("enumerate", "--size", "4x4", "--workers", "1", "-q")
    assert main(list(argv)) == 0
    lines = capsys.readouterr().out.splitlines()
    made = documents(capsys, *argv, "--json", "--distances")
    assert len(made) == len(lines) > 10
    for line, d in zip(lines, made, strict=True):
        moves, board, cluster = line.split()
        assert (d["moves"], d["board"]["text"], d["cluster"]) == (int(moves), board, int(cluster))
        assert sum(d["distances"]) == d["cluster"] and len(d["distances"]) == d["moves"] + 1
        assert Board.from_text(board).width == 4


def test_levels_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    document = one(capsys, "levels", "--json")
    assert document["packs"][0]["levels"][0]["solved"] is False


def test_board_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shown = one(capsys, "show", "classic:1", "--json")
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(shown))
    assert Board.from_text(path.read_text()) == Board.from_text(shown["board"]["text"])  # still a board file
    moves = one(capsys, "moves", SMALL, "--json", "--oracle", "rules")
    assert moves["moves"] == [str(m) for m in Board.from_text(SMALL).legal_moves()]
    why = one(capsys, "moves", SMALL, "--why", "--json")
    assert [w["move"] for w in why["why"]] == why["moves"] == moves["moves"]
    illegal = one(capsys, "explain", SMALL, "A+2", "--json", status=1)
    assert not illegal["legal"] and illegal["core"]
    legal = one(capsys, "explain", SMALL, "A+1", "--json")
    assert legal["legal"] and legal["core"] == []
    encoding = one(capsys, "encoding", SMALL, "--json")
    assert encoding["clauses"] == encoding["rule_clauses"] + encoding["facts"]
    cnf = tmp_path / "small.cnf"
    written = one(capsys, "encoding", SMALL, "--json", "--dimacs", str(cnf))
    header = next(line for line in cnf.read_text().splitlines() if line.startswith("p cnf"))
    assert header == f"p cnf {written['variables']} {written['clauses']}" and written["dimacs"] == str(cnf)
    constraints = one(capsys, "encoding", SMALL, "--family", "cmr", "--cell", "0,1", "--json")
    assert [f["family"] for f in constraints["families"]] == ["CMR"] and constraints["count"] == 4
    assert all(cl and 0 not in cl for f in constraints["families"] for c in f["constraints"] for cl in c["clauses"])
    refuted = one(capsys, "prove", "exists j: Empty(1,j)", "--size", "4x4", "--json", status=1)
    assert refuted["verdict"] == "refuted" and refuted["counterexample"] and refuted["board"] is None
    proved = one(capsys, "prove", "~Won", SMALL, "--position", "--json")
    assert proved["verdict"] == "proved" and proved["positions"] == 1 and proved["board"]["text"]
    counted = one(capsys, "count", "--size", "3x3", "--walls", "--likelihood", "Won", "--json")
    assert counted["count"] == 986 and counted["likelihoods"][0]["denominator"] > 1
    theorems = one(capsys, "theorems", "--size", "4x4", "--json")
    assert theorems["unexpected"] == 0 and theorems["refuted"] == 2


def _timeless(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key != "seconds"}


def test_each_outcome_of_a_search_is_one_function_s_document(capsys: pytest.CaptureFixture[str]) -> None:
    """solved, unsolvable and stopped: each document is what its one function builds, and valid."""
    for text, limit, status in ((EASY, None, 0), (UNSOLVABLE, None, 1), (HARD, 100, 3)):
        entry = resolve_board(text)
        try:
            found: Any = solve(entry.board, engine="bfs", max_states=limit)
        except LimitReachedError as err:
            found = err
        built = check(document("solve", solve_body(entry, found, engine="bfs", metric="moves", seconds=0.5)))
        limits = ("--max-states", str(limit)) if limit else ()
        printed = one(capsys, "solve", text, "--json", "--engine", "bfs", *limits, status=status)
        assert _timeless(printed) == _timeless(built)
    for text, limit, status in ((SMALL, None, 0), (HARD, 100, 3)):
        entry = resolve_board(text)
        try:
            found = analyze(entry.board, max_states=limit)
        except LimitReachedError as err:
            found = err
        built = check(document("analyze", analyze_body(entry, found, metric="moves", seconds=0.5)))
        limits = ("--max-states", str(limit)) if limit else ()
        assert _timeless(one(capsys, "analyze", text, "--json", *limits, status=status)) == _timeless(built)


def test_timed_and_generate_documents_come_from_their_functions(capsys: pytest.CaptureFixture[str]) -> None:
    entry = resolve_board("classic:1")
    found = schedule(entry.board, TimeModel.two_hands("3,5"))
    timed = check(document("timed", timed_body(entry, found)))
    assert timed["total"] == 18 and timed["status"] == "solved"
    assert _timeless(one(capsys, "solve", "classic:1", "--hands", "3,5", "--json")) == _timeless(timed)
    entry = resolve_board("classic:12")
    model = TimeModel.one_hand(metric="steps", car_seconds=2, truck_seconds=5)
    try:
        schedule(entry.board, model, max_states=50)
    except LimitReachedError as err:
        stopped = check(document("timed", timed_body(entry, err, model=model, seconds=0.5)))
    printed = one(capsys, "solve", "classic:12", "--timed", "--max-states", "50", "--json", status=3)
    assert stopped["status"] == "stopped" and _timeless(printed) == _timeless(stopped)
    settings = Settings(width=5, height=5, min_moves=3, max_moves=5, seed=1)
    [puzzle] = Generator(settings).run(1)
    made = check(document("generate", generate_body(puzzle, "p-01", None)))
    assert made["name"] == made["board"]["name"] == "p-01" and made["board"]["source"] is None
    # a puzzle whose reachable set was too large to explore (the solver climb): null, still valid
    unexplored = check(document("generate", generate_body(replace(puzzle, cluster=None), "p-02", None)))
    assert unexplored["cluster"] is None and isinstance(made["cluster"], int)
