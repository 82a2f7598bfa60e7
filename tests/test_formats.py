"""Every board format parses and writes; parse(write(board)) == board; bad input is named precisely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from rushhour.board import Board, Vehicle
from rushhour.cli import main
from rushhour.errors import BoardNotFoundError, FormatError, ParseError, RushHourError, UnknownVehicleError
from rushhour.formats import FORMATS, detect, parse_text, read_file, write_board
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.formats.csvfmt import parse_csv, write_csv
from rushhour.formats.fogleman import fogleman_names, parse_line, write_line
from rushhour.formats.grid import parse_document, parse_grid, write_document, write_grid
from rushhour.formats.jsonfmt import parse_json, write_json
from rushhour.levels import packs, resolve_all, resolve_board
from tests.strategies import boards

HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"


# --- round trips on generated boards ----------------------------------------------------------------


@given(boards())
def test_grid_round_trip(board: Board) -> None:
    assert parse_grid(write_grid(board)) == board


@given(boards())
def test_json_round_trip(board: Board) -> None:
    parsed, meta = parse_json(write_json(board, {"name": "x"}))
    assert parsed == board and meta == {"name": "x"}


@given(boards(wrap=False, square=True, letters_only=True, goal_name="A", exit_side="right"))
def test_fogleman_round_trip(board: Board) -> None:
    assert parse_line(write_line(board))[0] == board


@given(boards(wrap=False, walls=False, max_side=16))
def test_csv_round_trip(board: Board) -> None:
    text = write_csv(board, {"name": "x"})
    assert parse_text(text, fmt="csv")[0].board == board
    assert parse_text(text)[0].meta == {"name": "x"}


def _held(board: Board, fmt: str) -> Board | None:
    """The board a format reads back after writing ``board``, or None when it cannot hold it."""
    if fmt == "grid":
        return board if len(board.names) <= len(VEHICLE_CHARS) else None
    if fmt == "csv":
        return None if board.wrap or board.walls else board
    if fmt == "fogleman":
        if board.wrap or board.width != board.height or board.exit is None or board.exit.side != "right":
            return None
        if len(board.names) > 26:
            return None
        rename = fogleman_names(board)  # names other than A and single capitals are relabelled
        vehicles = [Vehicle(rename[v.name], v.orientation, v.length, v.row, v.col) for v in board.vehicles]
        return Board(board.width, board.height, vehicles, walls=board.walls, goal="A", exit="right")
    return board


@settings(max_examples=60)
@given(boards(max_side=16, max_vehicles=20))
def test_every_format_to_every_other_and_back(board: Board) -> None:
    """Random boards of every kind (walls, trucks, wrap-around, any exit, vertical goals, 3x3 to
    16x16) through each format, then each other one and back: the same board, or a FormatError from
    the writer of a format that cannot hold it."""
    for first in FORMATS:
        expected = _held(board, first)
        if expected is None:
            with pytest.raises(FormatError):
                write_board(board, first)
            continue
        (one,) = parse_text(write_board(board, first, {"name": "b"}))
        assert one.board == expected, first
        for second in FORMATS:
            if _held(expected, second) is None:
                continue
            (two,) = parse_text(write_board(one.board, second, one.meta))
            (back,) = parse_text(write_board(two.board, first, two.meta))
            assert back.board == _held(_held(expected, second) or expected, first), (first, second)


def test_grid_keeps_fifty_vehicles_and_long_names() -> None:
    vehicles = [Vehicle(f"V{k:02d}", "H", 2, k // 5, (k % 5) * 2) for k in range(50)]
    board = Board(10, 12, [*vehicles, Vehicle("A", "V", 2, 10, 0)], goal="A", exit="bottom")
    text = write_grid(board, {"name": "crowded"})
    assert "# legend:" in text
    again = parse_document(text).records[0]
    assert again.board == board and again.meta == {"name": "crowded"}
    assert len(again.board.names) == 51


def test_fogleman_database_line_and_relabelling() -> None:
    board, meta = parse_line(f"51 {HARDEST} 4780")
    assert meta == {"moves": "51", "cluster": "4780"}
    assert write_line(board, meta) == f"51 {HARDEST} 4780"
    # a board whose goal is not A is written with the goal relabelled A
    csv_board = parse_csv("vehicle,orientation,col,row,length\nX,H,1,3,2\nA,V,3,1,3\n", size=(6, 6))
    line = write_line(csv_board)
    again, _ = parse_line(line)
    assert again.goal == "A" and again.vehicle("A").row == 2 and len(again.names) == 2


def test_csv_states_size_goal_and_exit() -> None:
    board = parse_line(HARDEST)[0]
    text = write_csv(board)
    assert text.startswith("# size: 6x6\n# goal: A\nvehicle,orientation,col,row,length\n")
    assert parse_csv(text) == board  # not read back as the smallest square that holds it (3x3)
    tall = Board(
        4, 7, [Vehicle("car9", "V", 2, 3, 1), Vehicle("X", "H", 2, 0, 0)], goal="car9", exit="bottom"
    )
    text = write_csv(tall)
    assert "# size: 4x7\n# goal: car9\n# exit: bottom\n" in text
    assert parse_csv(text) == tall


def test_csv_reads_the_course_files_as_before() -> None:
    """No header lines: X is the goal, leaving to the right; the size is given, or the file name's."""
    old = "vehicle,orientation,col,row,length\nX,H,1,3,2\nA,V,3,1,3\n"
    board = parse_csv(old, size=(6, 6))
    assert board.goal == "X" and board.exit is not None and board.exit.side == "right"
    assert (board.width, board.height) == (6, 6)
    assert parse_csv(old).width == 3  # the smallest square that holds every vehicle
    # a goal of another name is no longer renamed X: the goal line names it
    assert write_csv(board).startswith("# size: 6x6\nvehicle,")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("# size: 6\nvehicle,orientation,col,row,length\nX,H,1,3,2\n", "line 1: size '6' should read"),
        (
            "# size: 20x6\nvehicle,orientation,col,row,length\nX,H,1,3,2\n",
            "line 1: board size 20x6 is out of",
        ),
        (
            "# wrap: yes\nvehicle,orientation,col,row,length\nX,H,1,3,2\n",
            "line 1: the CSV format has no 'wrap'",
        ),
        ("# exit: up\nvehicle,orientation,col,row,length\nX,H,1,3,2\n", "line 1: exit 'up' is not a side"),
        ("# goal: A\nvehicle,orientation,col,row,length\nX,H,1,3,2\n", "the goal vehicle A is missing"),
        (
            "# exit: top\nvehicle,orientation,col,row,length\nX,H,1,3,2\n",
            "line 1: goal vehicle X is horizontal",
        ),
        ("# size: 6x6\nvehicle,orientation,col,row,length\nX,H,1,3,2\nA,D,1,1,2\n", "line 4: vehicle A"),
    ],
)
def test_csv_header_line_errors(text: str, fragment: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_csv(text, source="r.csv")
    assert fragment in str(caught.value)


def test_csv_size_from_file_name(tmp_path: Path) -> None:
    path = tmp_path / "Rushhour9x9_4.csv"
    path.write_text("car,orientation,col,row,length\nX,H,1,5,2\nA,V,9,1,3\n")
    board = read_file(str(path))[0].board
    assert (board.width, board.height) == (9, 9) and board.exit is not None and board.exit.index == 4


def test_detection() -> None:
    assert detect(HARDEST) == "fogleman"
    assert detect(f"03 {HARDEST} 20\n51 {HARDEST} 4780\n") == "fogleman"
    assert detect("vehicle,orientation,col,row,length\n") == "csv"
    assert detect('{"width": 6}') == "json"
    assert detect("AA.\n...\n...") == "grid"
    # a 9-wide grid whose rows have 9 = 3x3 characters is still a grid
    assert detect("AA.......\n.........\n.........") == "grid"


def test_multi_board_documents_and_packs() -> None:
    a = parse_grid("AA.\n...\n.BB")
    b = parse_grid("# exit: left\n..AA\n....\n....")
    text = write_document([(a, {"name": "one"}), (b, {"name": "two"})], {"title": "Pack"})
    doc = parse_document(text)
    assert doc.meta == {"title": "Pack"}
    assert [(r.board, r.meta["name"]) for r in doc.records] == [(a, "one"), (b, "two")]
    entries = parse_text(text, source="p.txt")
    assert [e.label for e in entries] == ["p.txt:1", "p.txt:2"]


def test_write_board_dispatch_and_refusals() -> None:
    wrap = parse_grid("# wrap: yes\nAA..\n....\n....")
    for fmt in ("grid", "json"):
        assert parse_text(write_board(wrap, fmt), fmt=fmt)[0].board == wrap
    with pytest.raises(FormatError, match="no wrap-around"):
        write_board(wrap, "fogleman")
    with pytest.raises(FormatError, match="no walls"):
        write_board(parse_grid("AAx\n...\n..."), "csv")
    with pytest.raises(FormatError, match="square"):
        write_board(parse_grid("AA..\n....\n...."), "fogleman")
    with pytest.raises(RushHourError, match="unknown format"):
        write_board(wrap, "yaml")


# --- bad input: one precise error each ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("AA.\n..\n...", "line 2: row has 2 cells but the first row has 3"),
        ("AA.\n.\n...", "line 2: row has 1 cell but the first row has 3"),
        ("AA.\n.?.\n...", "line 2, column 2: unknown character '?'"),
        ("AA.\n.B.\n...", "line 2, column 2: vehicle B has a single cell"),
        ("AAB\n..B\n.BB", "vehicle B is not a straight line"),
        ("BB.\n...\nAA.\n...\n.BB", "vehicle B appears twice (again at line 5, column 2)"),
        ("BB.\n...\n...", "goal vehicle A is missing"),
        (
            "# exit: top\nAA.\n...\n...",
            "line 1: goal vehicle A is horizontal, so it cannot leave through the top",
        ),
        ("# exit: right 2\nAA.\n...\n...", "not lined up with the exit"),
        ("# exit: sideways\nAA.\n...\n...", "line 1: exit 'sideways' is not a side"),
        ("# wrap: maybe\nAA.\n...\n...", "wrap must be yes or no"),
        ("# target: 0 east\nAA.\n...\n...", "should read ROW,COL HEADING"),
        ("# legend: ab=AA\nAA.\n...\n...", "legend entry 'ab=AA'"),
        ("# legend: q=QQ\nAA.\n...\n...", "legend names symbol q, which is not on the grid"),
        ("# name: x\n", "only header lines"),
        ("AAx\nx..\n...\n\n# name: orphan\n", "header lines with no grid"),
        ("AA.\n...\n", "board height 2 is out of range"),
    ],
)
def test_grid_errors(text: str, fragment: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_text(text, source="b.txt", fmt="grid")
    assert fragment in str(info.value), str(info.value)
    assert str(info.value).startswith("b.txt")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFF", "not the square of a side"),
        ("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFF?", "column 36: unknown character '?'"),
        ("5x " + HARDEST + " 10", "moves field '5x' is not a number"),
        ("5 " + HARDEST, "BOARD or MOVES BOARD CLUSTER"),
        ("BBoooooooooooooooooooooooooooooooooo", "goal vehicle A is missing"),
    ],
)
def test_fogleman_errors(text: str, fragment: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_line(text, source="db.txt", line=7)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("name,x\nX,H,1,3,2\n", "line 1: the CSV header must be"),
        ("vehicle,orientation,col,row,length\nX,H,1,3\n", "line 2: expected 5 fields"),
        ("vehicle,orientation,col,row,length\nX,D,1,3,2\n", "line 2: vehicle X: orientation 'D'"),
        ("vehicle,orientation,col,row,length\nX,H,one,3,2\n", "line 2: vehicle X: col 'one'"),
        ("vehicle,orientation,col,row,length\nX,H,0,3,2\n", "count from 1"),
        ("vehicle,orientation,col,row,length\nX,H,-1,3,2\n", "line 2: vehicle X: col '-1' is negative: columns"),
        ("vehicle,orientation,col,row,length\nX,H,1,3,-2\n", "vehicle X: length '-2' is negative: a length counts cells"),
        ("vehicle,orientation,col,row,length\nX,H,1,3,2\nB,V,2,2,2\n", "B overlaps vehicle X"),
        ("vehicle,orientation,col,row,length\nA,H,1,3,2\n", "goal vehicle X is missing"),
        ("vehicle,orientation,col,row,length\n", "lists no vehicles"),
    ],
)
def test_csv_errors(text: str, fragment: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_csv(text, source="r.csv", size=(6, 6))
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ("[]", "an object with width"),
        ('{"width": 6, "height": 6}', "has no 'vehicles'"),
        ('{"width": "6", "height": 6, "vehicles": []}', "'width' has the wrong type"),
        ('{"width": 6, "height": 6, "vehicles": [{"name": "A"}]}', "vehicle A has no 'orientation'"),
        ('{"width": 6, "height": 6, "vehicles": [], "walls": [[1]]}', "wall [1] should be [row, col]"),
        ('{"width": 6, "height": 6, "vehicles": []}', "no vehicles"),
    ],
)
def test_json_errors(text: str, fragment: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_json(text, source="b.json")
    assert fragment in str(info.value)


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(BoardNotFoundError, match="no such file"):
        read_file(str(tmp_path / "missing.txt"))
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(ParseError, match="empty"):
        read_file(str(empty))
    binary = tmp_path / "board.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(ParseError, match="binary file"):
        read_file(str(binary))
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"AA\xe9\n...\n...")
    with pytest.raises(ParseError, match="not UTF-8"):
        read_file(str(latin))
    with pytest.raises(BoardNotFoundError, match="is a folder"):
        read_file(str(tmp_path))


def test_resolving_board_arguments(tmp_path: Path) -> None:
    assert resolve_board(HARDEST).board == parse_line(HARDEST)[0]
    assert resolve_board("AA./.../...").board == parse_grid("AA.\n...\n...")
    path = tmp_path / "two.txt"
    path.write_text(f"03 {HARDEST} 20\n51 {HARDEST} 4780\n")
    with pytest.raises(BoardNotFoundError, match=r"holds 2 boards: choose one as .*:N"):
        resolve_board(str(path))
    assert resolve_board(f"{path}:2").meta["moves"] == "51"
    with pytest.raises(BoardNotFoundError, match="boards 1 to 2, not 3"):
        resolve_board(f"{path}:3")
    assert len(resolve_all(str(path))) == 2
    assert resolve_board("classic:12").meta["moves"] == "51"
    assert resolve_board("classic-12").board == resolve_board("classic:12").board
    with pytest.raises(BoardNotFoundError, match="not a file, an inline board or a built-in board"):
        resolve_board("no-such-thing")
    with pytest.raises(BoardNotFoundError, match="no such file"):
        resolve_board("missing/dir/board.txt")
    with pytest.raises(BoardNotFoundError, match="levels 1 to"):
        resolve_board("classic:99")


ROWS = "AA...B/.....B/CC.D../...D../EEE.../......"


def test_inline_boards_take_what_the_screen_draws() -> None:
    plain = resolve_board(ROWS).board
    # '#' is a wall as the screen draws it, the same board as with 'x'
    assert (
        resolve_board(ROWS.replace("AA...B", "AA..#B")).board
        == resolve_board(ROWS.replace("AA...B", "AA..xB")).board
    )
    assert resolve_board(ROWS.replace("AA...B", "AA..#B")).board.walls == {(0, 4)}
    # cells spaced as on the screen, and '*' (an empty target cell) for '.'
    spaced = " / ".join("  ".join(row) for row in ROWS.split("/"))
    assert resolve_board(spaced).board == plain
    assert resolve_board(ROWS.replace("EEE...", "EEE.*.")).board == plain
    assert resolve_board(HARDEST.replace("o", "*")).board == resolve_board(HARDEST).board
    assert resolve_board(HARDEST[:3] + "#" + HARDEST[4:]).board.walls == {(0, 3)}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (HARDEST[:-1], "inline board: 35 characters is not a board: a one-line board is square"),
        (HARDEST.replace("o", ".")[:-1], "35 characters is not a board"),
        (ROWS.replace("EEE...", "EEE...."), "inline board: row 5 has 7 cells but row 1 has 6"),
        (ROWS.replace("CC.D..", "CC?D.."), "inline board: row 3, column 3: unknown character '?'"),
        (ROWS.replace("/", "//", 1), "inline board: row 2 is empty"),
        (ROWS.replace("...D..", "...DD."), "inline board: row 3, column 4: vehicle D is not a straight line"),
        (HARDEST[:-1] + "?", "inline board: row 6, column 6 (character 36): unknown character '?'"),
        (HARDEST[:5] + "?" + HARDEST[6:-1], "inline board, column 6: unknown character '?'"),
        (HARDEST.replace("L", "a"), "inline board: row 1, column 5 (character 5): unknown character 'a'"),
        (
            f"51 {HARDEST.replace('C', 'B')} 4780",
            "row 1, column 2 (character 2): vehicle B appears twice (again at row 4, column 1 (character 19))",
        ),
    ],
)
def test_inline_board_errors_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        resolve_board(spec)
    assert message in str(caught.value)


def test_a_path_is_still_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    for spec in (str(tmp_path / "boards" / "nothing"), "./AA...B", "missing/dir/board.txt"):
        with pytest.raises(BoardNotFoundError, match="no such file"):
            resolve_board(spec)
    with pytest.raises(BoardNotFoundError, match="not a file, an inline board or a built-in board"):
        resolve_board("intermedate")  # a misspelt pack is not read as a board


def test_names_match_without_regard_to_case() -> None:
    twelve = resolve_board("classic:12")
    for spec in ("Classic:12", "CLASSIC:12", "Classic-12", "CLASSIC-12"):
        again = resolve_board(spec)
        assert again.board == twelve.board and again.meta == twelve.meta
    assert resolve_all("BEGINNER") == resolve_all("beginner") == list(packs()[0].levels)
    assert resolve_board("Daily:2026-11-23").label == "daily:2026-11-23"


def test_json_meta_survives() -> None:
    board = parse_line(HARDEST)[0]
    data = json.loads(write_json(board, {"moves": "51"}))
    assert data["meta"] == {"moves": "51"} and data["exit"] == {"side": "right", "index": 2}


def test_vehicle_names_in_moves_match_without_regard_to_case() -> None:
    board = resolve_board("classic:12").board
    assert board.apply("m-1") == board.apply("M-1")
    first = board.legal_moves()[0]
    second = board.apply(first).legal_moves()[-1]
    typed = [str(first).lower(), str(second).lower()]
    assert board.replay(typed) == board.replay([first, second]) != board
    assert board.layout.vehicle_name("g") == "G"
    # where two names differ only in case, each is its own vehicle and none is guessed
    mixed = parse_grid("AA...\n.....\nbbB..\n..B..\n.....")
    assert mixed.layout.vehicle_name("b") == "b" and mixed.layout.vehicle_name("B") == "B"
    assert mixed.layout.vehicle_name("a") == "A"  # only one name is A in any case
    ab = Board(6, 6, [Vehicle("Ab", "H", 2, 2, 0), Vehicle("aB", "H", 2, 0, 0)], goal="Ab")
    with pytest.raises(UnknownVehicleError, match="Ab and aB differ only in case"):
        ab.apply("ab+1")


def test_format_engine_and_metric_names_match_without_regard_to_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["convert", "classic:12", "--to", "JSON"]) == 0
    assert json.loads(capsys.readouterr().out)["width"] == 6
    assert main(["solve", "beginner:1", "--engine", "AStar", "--metric", "Steps"]) == 0
    assert main(["solve", "beginner:1"]) == 0
    assert capsys.readouterr().out  # both solved
    assert main(["explain", "classic:12", "m-1"]) == 0
    assert capsys.readouterr().out.startswith("M-1 is legal")
    assert write_board(parse_grid("AA.\n...\n..."), "Grid") == write_grid(parse_grid("AA.\n...\n..."))
    assert parse_text(HARDEST, fmt="FOGLEMAN")[0].board == parse_line(HARDEST)[0]


SQUARE = "BB..C../....C../AA..C../.DD..../....EE./F....../F.GGG.."  # 7x7: every format holds it
TALL = "# goal: Q\n# exit: bottom\n# name: tall\nBB.Q.\n...Q.\nCC...\n..D..\n..D..\n.....\nEE...\n....."
EXTENSION = {"grid": "txt", "fogleman": "txt", "csv": "csv", "json": "json"}


def _shown(capsys: pytest.CaptureFixture[str], spec: str) -> str:
    """What ``show`` prints of a board, without its label (a file's name differs from the board's)."""
    assert main(["show", spec, "--no-color"]) == 0
    out = capsys.readouterr().out
    return out.split(": ", 1)[1]


@pytest.mark.parametrize("first", FORMATS)
@pytest.mark.parametrize("second", FORMATS)
def test_convert_to_every_format_and_back_shows_the_same_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, first: str, second: str
) -> None:
    tall = tmp_path / "tall.txt"
    tall.write_text(TALL)
    for source in (SQUARE, str(tall)):
        wanted = _shown(capsys, source)
        paths = [tmp_path / f"one.{EXTENSION[first]}", tmp_path / f"two.{EXTENSION[second]}"]
        paths.append(tmp_path / f"three.{EXTENSION[first]}")
        steps = [
            (source, first, paths[0]),
            (str(paths[0]), second, paths[1]),
            (str(paths[1]), first, paths[2]),
        ]
        for spec, fmt, out in steps:
            code = main(["convert", spec, "--to", fmt, "--out", str(out)])
            err = capsys.readouterr().err
            if fmt == "fogleman" and source != SQUARE:  # not square, and the goal leaves at the bottom
                assert code == 2 and err == "error: the Fogleman format holds square boards only, not 5x8\n"
                break
            assert code == 0, err
        else:
            assert _shown(capsys, str(paths[2])) == wanted, (source, first, second)


@pytest.mark.parametrize("fmt", ["grid", "json", "csv", "fogleman"])
def test_a_byte_order_mark_is_not_part_of_the_board(tmp_path: Path, fmt: str) -> None:
    """Some editors write a byte-order mark first: the board reads as without it, in every format."""
    board = Board.from_text("..B.../..B.../AAB.../....../.CC.../......")
    plain, marked = tmp_path / f"plain.{fmt}", tmp_path / f"marked.{fmt}"
    plain.write_text(write_board(board, fmt), encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert read_file(str(marked))[0].board == read_file(str(plain))[0].board == board
    assert parse_text("\ufeff" + plain.read_text(encoding="utf-8"), fmt=None)[0].board == board


def test_a_json_file_of_several_boards_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """convert and generate write several boards as a JSON list: it reads back, board for board, with
    each one's header (it was refused: a JSON board is an object)."""
    out = tmp_path / "pack.json"
    assert main(["convert", "classic", "--to", "json", "--out", str(out)]) == 0
    capsys.readouterr()
    original, again = read_file("boards/classic.txt"), read_file(str(out))
    assert [e.board for e in again] == [e.board for e in original]
    assert [e.meta.get("name") for e in again] == [e.meta.get("name") for e in original]
    assert [e.label for e in again][:2] == [f"{out}:1", f"{out}:2"]
    assert main(["show", f"{out}:3", "--no-color"]) == 0
    assert capsys.readouterr().out.startswith("classic-03: 6x6")
    (tmp_path / "empty.json").write_text("[]")
    with pytest.raises(ParseError, match="no board here: the JSON list is empty"):
        read_file(str(tmp_path / "empty.json"))
    one = '{"width": 4, "height": 4, "vehicles": [{"name": "A", "orientation": "H", "length": 2, "row": 0, "col": 0}]}'
    (tmp_path / "bad.json").write_text(f"[{one}, 3]")
    with pytest.raises(ParseError, match="board 2 of 2: a JSON board is an object"):
        read_file(str(tmp_path / "bad.json"))


def test_a_fogleman_file_with_comments_distances_or_a_bad_line_is_read_as_one(tmp_path: Path) -> None:
    """A file of database lines was read as a grid as soon as one line was not a plain Fogleman line: a
    # comment, the distances enumerate --distances writes, a typo (then reported as line 1, board
    width 36)."""
    lines = ["07 BBBFEAAFEoCCEDDD 8 1,1,1,1,1,1,1,1", "# a comment", "07 BBoFAAoFECCCEDDD 20"]
    path = tmp_path / "db.txt"
    path.write_text("\n".join(lines) + "\n")
    entries = read_file(str(path))
    assert [e.meta["moves"] for e in entries] == ["7", "7"]
    assert [e.board.to_text("fogleman") for e in entries] == ["BBBFEAAFEoCCEDDD", "BBoFAAoFECCCEDDD"]
    path.write_text("07 BBBFEAAFEoCCEDDD 8\n07 BBBFEAAFEoCCEDD? 8\n07 BBoFAAoFECCCEDDD 20\n")
    with pytest.raises(ParseError, match=r"line 2, column 19: unknown character '\?' in a Fogleman board"):
        read_file(str(path))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("h1.txt", "# exit: right {N}\nAA..\n....\n....\n....\n"),
        ("h2.txt", "# target: 1,{N} east\n# wrap: yes\nAA..\n....\n....\n....\n"),
        ("c1.csv", "# size: {N}x6\nvehicle,orientation,col,row,length\nA,H,1,3,2\n"),
        ("c2.csv", "# size: 6x6\nvehicle,orientation,col,row,length\nA,H,{N},3,2\n"),
    ],
)
def test_a_huge_number_in_a_header_or_field_is_quoted_short(tmp_path: Path, name: str, text: str) -> None:
    """A 5,000-digit number was quoted whole: an error line of over 5,000 characters."""
    path = tmp_path / name
    path.write_text(text.replace("{N}", "9" * 5000))
    with pytest.raises(ParseError) as caught:
        read_file(str(path))
    said = str(caught.value)
    assert "9" * 30 in said and "..." in said and len(said) < 300
