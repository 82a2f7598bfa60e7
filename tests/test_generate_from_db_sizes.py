"""``generate --from-db FILE`` where FILE holds boards of several sizes (databases of several sizes
joined): the puzzles are drawn from all of them, and what is written describes each truly.

Before, the header's description named the size of the first puzzle drawn alone
(``6 puzzles of 1+ moves on 6x6`` for a document of 6x6, 7x7 and 8x8 puzzles).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rushhour.formats import read_file
from rushhour.search import solve
from tests.cli import run

# database lines (MOVES BOARD CLUSTER) of three sizes, each checked by the command when drawn
MIXED = (
    "# 6x6, 7x7 and 8x8 lines in one file\n"
    "02 ooBoooooBoooAABooooooooooooooooooooo 14\n"
    "04 oooooooooooxAAoooEoooooEoCCDDDoooooo 22\n"
    "06 oooBooooooBCCCoooBooDoooAAoDEooFFoDEooooGGEHHHIII 27408\n"
    "07 oooooooBooooooCBoooooDCEoooAADCEooooFooEooooFoooooooFGGGoooooooo 37966\n"
)


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.db"
    path.write_text(MIXED)
    return path


def _header(text: str) -> dict[str, str]:
    pairs = (line[2:].split(": ", 1) for line in text.splitlines() if line.startswith("# "))
    return {key: value for key, value in pairs}


def test_the_description_names_every_size_drawn(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "drawn.txt"
    status, _, err = run(
        capsys,
        "generate",
        "--from-db",
        str(mixed),
        "--min-moves",
        "1",
        "--count",
        "4",
        "--seed",
        "2",
        "--out",
        str(out),
    )
    assert status == 0
    entries = read_file(str(out))
    sizes = sorted({(e.board.width, e.board.height) for e in entries})
    assert sizes == [(6, 6), (7, 7), (8, 8)]
    for entry in entries:  # each puzzle as the database gives it
        assert solve(entry.board).length == int(entry.meta["moves"])
    assert _header(out.read_text())["description"] == "4 puzzles of 1+ moves on 6x6, 7x7 and 8x8"
    assert "4 puzzles (2 on 6x6, 1 on 7x7, 1 on 8x8) drawn from 4 in the band (seed 2)" in err


def test_a_band_of_one_size_in_a_mixed_file_is_described_by_it(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The boards of 6 moves or more are 7x7 and 8x8 only: no 6x6 is named, and a band of the 8x8 line
    alone says 8x8."""
    out = tmp_path / "drawn.txt"
    argv = ["generate", "--from-db", str(mixed), "--seed", "1", "--out", str(out)]
    status, _, _ = run(capsys, *argv, "--min-moves", "6", "--count", "2")
    assert status == 0
    assert _header(out.read_text())["description"] == "2 puzzles of 6+ moves on 7x7 and 8x8"
    status, _, err = run(capsys, *argv, "--min-moves", "7", "--count", "1")
    assert status == 0
    assert _header(out.read_text())["description"] == "1 puzzle of 7+ moves on 8x8"
    assert "1 puzzle drawn from 1 in the band (seed 1)" in err  # one size: the summary as before
