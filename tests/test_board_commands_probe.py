"""What ``encoding``, ``count`` and their kin say about input that is wrong: one line naming the option
and what is wrong with it, exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import run


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("9,9", "--cell: cell (9,9) is off the 6x6 board"),
        ("2,6", "--cell: cell (2,6) is off the 6x6 board"),
        ("6,0", "--cell: cell (6,0) is off the 6x6 board"),
        ("2", "--cell: cannot read cell '2': write ROW,COLUMN, like 2,4"),
        ("-1,2", "--cell: cannot read cell '-1,2': write ROW,COLUMN, like 2,4"),
    ],
)
def test_a_bad_cell_names_the_option(capsys: pytest.CaptureFixture[str], value: str, message: str) -> None:
    for extra in ((), ("--constraints",), ("--family", "CMR", "--json")):
        code, out, err = run(capsys, "encoding", "classic:1", *extra, "--cell", value)
        assert (code, out, err) == (2, "", f"error: {message}\n")


def test_the_last_cell_of_a_board_is_on_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "encoding", "classic:1", "--family", "S", "--cell", "5,5")
    assert (code, err) == (0, "") and "Empty(5,5)" in out


@pytest.mark.parametrize(
    ("size", "article"), [("8x6", "an"), ("11x4", "an"), ("7x7", "a"), ("9x5", "a"), ("16x3", "a")]
)
def test_a_size_too_large_to_count_reads_as_english(
    capsys: pytest.CaptureFixture[str], size: str, article: str
) -> None:
    code, out, err = run(capsys, "count", "--size", size)
    width, height = (int(side) for side in size.split("x"))
    assert (code, out) == (2, "")
    assert err.startswith(
        f"error: {article} {size} board has {width * height} cells: exact counts go up to 42"
    )


def test_converting_to_fogleman_does_not_count_the_boards_own_line_as_left_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The classic pack keeps each board's Fogleman line as its ``fogleman`` header: that line is what
    the conversion writes, so the note names only what is really left out."""
    code, out, err = run(capsys, "convert", "classic:12", "--to", "fogleman")
    assert (code, out) == (0, "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780\n")
    assert err == "note: the Fogleman format has no place for the board's name: left out\n"
    # a header that merely holds another board's line is still left out, and so is a figure that
    # happens to equal one of the line's fields
    board = tmp_path / "b.txt"
    board.write_text(
        "# seed: 4\n# moves: 4\n# cluster: 60\n# fogleman: GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo\n"
        "BBBCCF\n...D.F\nAA.D..\n...E..\n...E..\n...E..\n"
    )
    code, out, err = run(capsys, "convert", str(board), "--to", "fogleman")
    assert (code, out) == (0, "04 BBBCCFoooDoFAAoDoooooEoooooEoooooEoo 60\n")
    assert err == "note: the Fogleman format has no place for the board's seed, fogleman: left out\n"
