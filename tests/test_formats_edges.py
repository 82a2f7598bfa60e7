"""Edges of the formats found by a probe: grid boards that looked like Fogleman lines, the DISTANCES
field of a database line, errors that named the wrong line, line endings, and case in the JSON reader
and in format names."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rushhour.board import Board, Vehicle
from rushhour.errors import FormatError, ParseError
from rushhour.formats import FORMATS, detect, fogleman, parse_text, write_board
from rushhour.formats.fogleman import fogleman_names
from tests.strategies import boards

# --- 1. every board the writers write reads back, detected or not ----------------------------------


def _held(board: Board, fmt: str) -> Board | None:
    """The board a format reads back after writing ``board``, or None when it cannot hold it."""
    if fmt == "csv" and (board.wrap or board.walls):
        return None
    if fmt == "fogleman":
        if board.wrap or board.width != board.height or board.exit is None or board.exit.side != "right":
            return None
        if len(board.names) > 26:
            return None
        rename = fogleman_names(board)
        vehicles = [Vehicle(rename[v.name], v.orientation, v.length, v.row, v.col) for v in board.vehicles]
        return Board(board.width, board.height, vehicles, walls=board.walls, goal="A", exit="right")
    return board


@st.composite
def goal_in_every_row(draw: st.DrawFn) -> Board:
    """A board 9 or 16 wide whose goal car ``A`` stands in every row (so that every row of its grid
    text is as long as a 3x3 or 4x4 Fogleman board and holds an ``A``), other vehicles named by
    capitals, walls here and there."""
    width = draw(st.sampled_from((9, 16)))
    height = draw(st.integers(3, 16))
    col = draw(st.integers(0, width - 1))
    vehicles = [Vehicle("A", "V", height, 0, col)]
    taken = {(r, col) for r in range(height)}
    names = iter("BCDEFGHIJKLMNPQRSTUVWYZ")
    for _ in range(draw(st.integers(0, 10))):
        r, c = draw(st.integers(0, height - 1)), draw(st.integers(0, width - 2))
        if not {(r, c), (r, c + 1)} & taken:
            taken |= {(r, c), (r, c + 1)}
            vehicles.append(Vehicle(next(names), "H", 2, r, c))
    free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
    walls = draw(st.lists(st.sampled_from(free), max_size=3, unique=True))
    exit_side = draw(st.sampled_from(("top", "bottom")))
    return Board(width, height, vehicles, walls=walls, goal="A", exit=exit_side)


def test_grid_nine_wide_with_the_goal_in_every_row_is_read_as_grid() -> None:
    text = "A........\nA........\nA........\n"
    assert detect(text) == "grid"
    (entry,) = parse_text(text)
    assert entry.board == Board(9, 3, [Vehicle("A", "V", 3, 0, 0)], goal="A", exit="top")


def test_grid_with_an_exit_header_is_read_as_grid() -> None:
    data = {
        "width": 9,
        "height": 3,
        "goal": "A",
        "exit": {"side": "bottom", "index": 0},
        "vehicles": [
            {"name": "A", "orientation": "V", "length": 3, "row": 0, "col": 0},
            {"name": "B", "orientation": "H", "length": 2, "row": 1, "col": 3},
        ],
    }
    board = Board.from_text(json.dumps(data))
    assert Board.from_text(board.to_text()) == board


def test_a_wrong_nine_wide_grid_gets_the_grid_error() -> None:
    text = "A........\nA...B....\nA........\n"
    with pytest.raises(ParseError, match="vehicle B has a single cell") as caught:
        parse_text(text)
    assert (caught.value.line, caught.value.column) == (2, 5)


def test_fogleman_lines_of_three_by_three_boards_stay_fogleman() -> None:
    text = "AAoBooBoo\nooBAAB...\n"
    assert detect(text) == "fogleman"
    assert len(parse_text(text)) == 2


@given(goal_in_every_row())
def test_goal_in_every_row_reads_back_in_every_format(board: Board) -> None:
    for fmt in ("grid", "csv", "json"):
        if _held(board, fmt) is None:
            continue
        (entry,) = parse_text(write_board(board, fmt))
        assert entry.board == board, fmt


@given(boards(max_side=16, max_vehicles=20))
def test_every_format_reads_back_detected_without_metadata(board: Board) -> None:
    """Written without metadata (no header line to hint at the format) and read back by detection."""
    for fmt in FORMATS:
        expected = _held(board, fmt)
        if expected is None:
            with pytest.raises(FormatError):
                write_board(board, fmt)
            continue
        (entry,) = parse_text(write_board(board, fmt))
        assert entry.board == expected, fmt


# --- 2. the DISTANCES field travels with moves and cluster -----------------------------------------

DB_LINE = "03 AAoBoooBooCCoooo 18 4,8,4,2"  # the hardest position of AA.B/...B/CC../.... (rushhour analyze)


def test_distances_are_written_back_in_every_format() -> None:
    (entry,) = parse_text(DB_LINE + "\n")
    assert entry.meta == {"moves": "3", "cluster": "18", "distances": "4,8,4,2"}
    assert write_board(entry.board, "fogleman", entry.meta) == DB_LINE + "\n"
    for fmt in ("grid", "json", "csv"):
        (again,) = parse_text(write_board(entry.board, fmt, entry.meta))
        assert write_board(again.board, "fogleman", again.meta) == DB_LINE + "\n", fmt


def test_distances_that_are_not_numbers_are_refused_by_the_fogleman_writer() -> None:
    (entry,) = parse_text(DB_LINE)
    with pytest.raises(FormatError, match="distances"):
        write_board(entry.board, "fogleman", {**entry.meta, "distances": "4,x"})
    # nor distances no database line can have: what is written must read back
    with pytest.raises(FormatError, match="can be written: its distances 4,8,4 go to distance 2, not to MOVES 3"):
        write_board(entry.board, "fogleman", {**entry.meta, "distances": "4,8,4"})
    with pytest.raises(FormatError, match="can be written: its cluster 0 holds no position"):
        write_board(entry.board, "fogleman", {**entry.meta, "cluster": "0", "distances": "0"})


# --- 3. errors name the line they are about ---------------------------------------------------------

CSV_HEAD = "# size: 6x6\nvehicle,orientation,col,row,length\nX,H,1,3,2\n"


@pytest.mark.parametrize(
    ("rows", "line", "reason"),
    [
        ("X,H,1,3,2\n", 4, "vehicle X appears twice"),
        ("B,V,1,1,2\nA,H,2,3,2\n", 5, "vehicle A overlaps vehicle X"),
        ("C,H,6,1,2\n", 4, "vehicle C runs off the 6x6 board"),
        ("B,V,1,1,2\nC9é,H,3,1,2\n", 5, "vehicle name 'C9é' is not letters and digits"),
    ],
)
def test_csv_board_rules_name_the_vehicle_line(rows: str, line: int, reason: str) -> None:
    with pytest.raises(ParseError, match=reason) as caught:
        parse_text(CSV_HEAD + rows, source="r.csv", fmt="csv")
    assert caught.value.line == line


def test_csv_vehicle_beyond_the_largest_board_is_blamed_not_the_size() -> None:
    text = "vehicle,orientation,col,row,length\nX,H,1,3,2\nA,V,30,1,3\n"
    with pytest.raises(ParseError, match="vehicle A") as caught:
        parse_text(text, fmt="csv")
    assert caught.value.line == 3


def test_csv_missing_goal_names_the_goal_line() -> None:
    text = "# size: 6x6\n# goal: Q\nvehicle,orientation,col,row,length\nX,H,1,3,2\n"
    with pytest.raises(ParseError, match="goal vehicle Q is missing") as caught:
        parse_text(text, fmt="csv")
    assert caught.value.line == 2


@pytest.mark.parametrize(
    ("header", "grid", "reason"),
    [
        ("# goal: Z", "AA.\n...\n...", "the goal vehicle Z is missing"),
        ("# wrap: yes\n# target: 2,2 east", "AA.\n...\n...", "not on the target's row"),
        ("# legend: a=Q", "AA.\n...\n...", "legend names symbol a"),
        ("# legend: a=B", "aa.\n..B\n..B", "vehicle B appears twice"),
        ("# exit: right 2", "AA.\n...\n...", "not lined up with the exit"),
    ],
)
def test_grid_board_rules_name_the_header_line(header: str, grid: str, reason: str) -> None:
    text = f"# name: x\n# moves: 3\n{header}\n{grid}\n"
    line = 3 + header.count("\n")
    with pytest.raises(ParseError, match=reason) as caught:
        parse_text(text, fmt="grid")
    assert caught.value.line == line


# --- 4 and 5. lines end at \n, \r\n or \r, and nowhere else ----------------------------------------


def test_csv_with_headers_and_cr_line_endings() -> None:
    board = Board.from_text("AA.B/...B/CC../....")
    text = write_board(board, "csv", {"name": "cr"})
    for ending in ("\r", "\r\n"):
        (entry,) = parse_text(text.replace("\n", ending))
        assert entry.board == board and entry.meta == {"name": "cr"}, repr(ending)


def test_csv_error_lines_count_cr_line_endings() -> None:
    text = (CSV_HEAD + "X,H,1,3,2\n").replace("\n", "\r")
    with pytest.raises(ParseError, match="appears twice") as caught:
        parse_text(text)
    assert caught.value.line == 4


def test_csv_stray_return_in_a_file_of_newlines_is_named() -> None:
    head = "vehicle,orientation,col,row,length\n"
    with pytest.raises(ParseError, match="a lone \\\\r") as caught:
        parse_text(head + "X,H,1\r2,1,2\n")
    assert caught.value.line == 2
    with pytest.raises(ParseError, match="found 3\\Z") as caught:  # a file of \r lines: a short line
        parse_text((head + "X,H,1\n2,1,2\n").replace("\n", "\r"))
    assert caught.value.line == 2


@pytest.mark.parametrize("odd", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_grid_header_value_with_an_odd_break_stays_one_line(odd: str) -> None:
    text = f"# name: a{odd}b\nAA.\n..?\n...\n"
    with pytest.raises(ParseError, match="unknown character") as caught:
        parse_text(text)
    assert (caught.value.line, caught.value.column) == (3, 3)
    (entry,) = parse_text(text.replace("?", "."))
    assert entry.meta == {"name": f"a{odd}b"}


def test_fogleman_line_numbers_ignore_odd_breaks() -> None:
    text = "# note\x0c here\nAAoBoooBCCoooooo\nAAoBoooBCCooooo?\n"
    with pytest.raises(ParseError) as caught:
        parse_text(text, fmt="fogleman")
    assert caught.value.line == 3


def test_json_error_lines_count_cr_line_endings() -> None:
    with pytest.raises(ParseError) as caught:
        parse_text('{\r"width": 4,\r"x" 3}')
    assert (caught.value.line, caught.value.column) == (3, 5)


# --- 6. case in the JSON reader and in format names -------------------------------------------------


def test_json_reader_takes_any_case_as_the_others_do() -> None:
    board = Board.from_text("# wrap: yes\n# target: 0,2 east\nAA..\n...B\n...B\n....")
    data = json.loads(board.to_text("json"))
    data["target"]["heading"] = "East"
    data["vehicles"][0]["orientation"] = "h"
    assert Board.from_text(json.dumps(data)) == board
    bounded = Board.from_text("AA.B/...B/CC../....")
    data = json.loads(bounded.to_text("json"))
    data["exit"]["side"] = "Right"
    data["vehicles"][1]["orientation"] = "v"
    assert Board.from_text(json.dumps(data)) == bounded


def test_json_reader_quotes_a_bad_orientation_as_written() -> None:
    data = json.loads(Board.from_text("AA.B/...B/CC../....").to_text("json"))
    data["vehicles"][0]["orientation"] = "d"
    with pytest.raises(ParseError, match="'d'"):
        Board.from_text(json.dumps(data))


def test_format_names_match_without_regard_to_case() -> None:
    board = Board.from_text("AA.B/...B/CC../....")
    assert board.to_text("Fogleman") == "AAoBoooBCCoooooo"
    assert Board.from_text(board.to_text("JSON"), "JSON") == board
    assert Board.from_text(board.to_text("Rows"), "ROWS") == board
    with pytest.raises(Exception, match="unknown format"):
        board.to_text("yaml")


# --- one board of a large file costs that board --------------------------------------------------------


def _count_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every board built from text from now on, by any reader, as one entry each."""
    from rushhour.formats import csvfmt, fogleman, grid, jsonfmt

    built: list[int] = []
    for module, name in ((grid, "_record"), (fogleman, "parse_line"), (jsonfmt, "board_from_dict"),
                         (csvfmt, "parse_csv_entry")):
        real = getattr(module, name)

        def counted(*args: object, _real: Any = real, **kwargs: object) -> Any:
            built.append(1)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return built


@pytest.mark.parametrize("fmt", ["grid", "fogleman", "json"])
def test_one_board_of_a_file_of_many_builds_that_board_alone(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``FILE:N`` built every board of the file before picking one: a 4 MB file of small boards took
    8.6 s and 506 MB, and a file at the 64 MiB limit minutes and gigabytes."""
    from rushhour.cli import main
    from rushhour.formats import write_board

    boards = [Board.from_text(f"{'.' * k}AA{'.' * (4 - k)}" + "/......" * 5) for k in range(5)] * 400
    path = tmp_path / f"many.{'json' if fmt == 'json' else 'txt'}"
    if fmt == "json":
        path.write_text(json.dumps([json.loads(write_board(b, "json")) for b in boards]))
    else:
        path.write_text(("\n" if fmt == "grid" else "").join(write_board(b, fmt) for b in boards))
    built = _count_builds(monkeypatch)
    assert main(["show", f"{path}:1999", "--no-color"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}:1999: 6x6")
    assert len(built) == 1
    assert main(["show", str(path)]) == 2  # several boards, refused before any is built
    assert f"holds 2000 boards: choose one as {path}:N (1 to 2000)" in capsys.readouterr().err
    assert main(["show", f"{path}:2001"]) == 2
    assert "holds boards 1 to 2000, not 2001" in capsys.readouterr().err
    assert len(built) == 1
    assert [e.board for e in parse_text(path.read_text())] == boards  # all of them, as before


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("07 BBoFAAoFECCCEDDD 0", "cluster 0 holds no position"),
        ("03 AAoooooooooooooo 4 1,1,1", "distances 1,1,1 go to distance 2, not to MOVES 3"),
        ("03 AAoooooooooooooo 4 1,1,1,2", "distances 1,1,1,2 add up to 5, not to CLUSTER 4"),
        ("03 AAoooooooooooooo 4 1,1,2,0", "distances 1,1,2,0 count no position at distance 3"),
    ],
)
def test_a_database_line_that_cannot_be_is_refused(line: str, words: str) -> None:
    """A cluster holds its own board, and DISTANCES count the cluster's positions at distances 0 to
    MOVES: a line of cluster 0 was read (and generate --from-db wrote 'cluster: 0'), and distances that
    do not add up were kept and written back."""
    with pytest.raises(ParseError, match=re.escape(words)):
        fogleman.parse_database_line(line)
    with pytest.raises(ParseError, match=re.escape(words)):
        Board.from_text(line)
    assert fogleman.parse_database_line("03 AAoooooooooooooo 4 1,1,1,1").distances == (1, 1, 1, 1)
