"""``rushhour generate --from-db``: puzzles drawn from a database made by ``rushhour enumerate``."""

from __future__ import annotations

import collections
import os
from pathlib import Path
from typing import Any

import pytest

from rushhour.cli import main
from rushhour.database import Job, build, read_database
from rushhour.formats import fogleman
from rushhour.generator import from_database
from rushhour.search import solve


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "5x5.txt"
    lines, _ = build(Job(5, 2))
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def test_drawn_puzzles_are_database_lines_in_the_band(database: Path) -> None:
    lines = {board: (moves, cluster) for moves, board, cluster in read_database(str(database))}
    puzzles, band = from_database(str(database), min_moves=8, max_moves=12, count=20, seed=3)
    assert band == sum(1 for moves, _ in lines.values() if 8 <= moves <= 12)
    assert len(puzzles) == 20 and len({p.key for p in puzzles}) == 20
    for p in puzzles:
        moves, cluster = lines[str(p.key)]
        assert p.length == moves == solve(p.board).length and p.cluster == cluster
        assert 8 <= p.length <= 12


def test_the_same_seed_draws_the_same_puzzles(database: Path) -> None:
    a, _ = from_database(str(database), min_moves=5, max_moves=None, count=5, seed=7)
    b, _ = from_database(str(database), min_moves=5, max_moves=None, count=5, seed=7)
    c, _ = from_database(str(database), min_moves=5, max_moves=None, count=5, seed=8)
    assert [p.key for p in a] == [p.key for p in b] != [p.key for p in c]


def test_a_board_the_file_holds_twice_is_drawn_once(database: Path, tmp_path: Path) -> None:
    """A database file that holds a line twice (two files joined, a part merged twice): the draw is
    without repeats among its boards, as the command's help says, and the band counts each once."""
    lines = [ln for ln in database.read_text().splitlines() if int(ln.split()[0]) == 8]
    doubled = tmp_path / "doubled.txt"
    doubled.write_text("".join(f"{line}\n" for line in lines * 2))
    puzzles, band = from_database(str(doubled), min_moves=8, max_moves=8, count=len(lines) + 5, seed=1)
    assert band == len(lines) == len(puzzles) == len({p.key for p in puzzles})


def test_draws_are_uniform_within_the_band(database: Path) -> None:
    band = [b for m, b, _ in read_database(str(database)) if m == 3]
    seen: collections.Counter[str] = collections.Counter()
    for seed in range(300):
        puzzles, _ = from_database(str(database), min_moves=3, max_moves=3, count=1, seed=seed)
        seen[str(puzzles[0].key)] += 1
    # every line of the band is drawn, none far more often than the others
    assert set(seen) == set(band)
    expected = 300 / len(band)
    assert max(seen.values()) < 4 * expected


def test_the_command_writes_fogleman_lines_of_the_database(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--from-db", str(database), "--min-moves", "10", "--count", "3", "--seed", "1"]
    assert main([*args, "--format", "fogleman", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    for line in out:
        board, meta = fogleman.parse_line(line)
        assert int(meta["moves"]) >= 10 and solve(board).length == int(meta["moves"])


def test_a_band_too_narrow_says_so(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--from-db", str(database), "--min-moves", "99", "--count", "2", "-q"]) == 1
    assert "only 0 boards" in capsys.readouterr().err


def test_a_file_that_is_no_database_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("10 ooooAAoooooooooo 3\nnot a line\n")
    assert main(["generate", "--from-db", str(bad), "--count", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}, line 2") and err.count("\n") == 1  # the file as it was given


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda tmp: "/dev/zero", "/dev/zero is a device, not a board file"),
        (lambda tmp: (tmp / "pipe", os.mkfifo(tmp / "pipe"))[0], "is a pipe (FIFO), not a board file"),
        (lambda tmp: (tmp / "b.dat", (tmp / "b.dat").write_bytes(bytes(range(256)) * 4))[0],
         "this is a binary file, not a board"),
        (lambda tmp: (tmp / "b.dat", (tmp / "b.dat").write_bytes(b"\xff\xfe 12 AA 3\n"))[0], "this is not UTF-8 text"),
    ],
)
def test_a_database_that_is_no_text_file_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, words: str
) -> None:
    """/dev/zero was read until memory ran out, a FIFO waited for ever, a binary file gave a traceback."""
    path = make(tmp_path)
    assert main(["generate", "--from-db", str(path), "--count", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and err.count("\n") == 1


def test_a_database_with_a_byte_order_mark_is_read(database: Path, tmp_path: Path) -> None:
    marked = tmp_path / "marked.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + database.read_bytes())
    assert read_database(str(marked)) == read_database(str(database))


def test_a_band_that_runs_backwards_is_one_error_line(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--from-db", str(database), "--min-moves", "10", "--max-moves", "5"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == "error: --max-moves 5 is below --min-moves 10: no length fits\n"


def test_a_band_too_narrow_describes_the_puzzles_drawn(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With fewer boards in the band than asked, the header described the count asked for ("5 puzzles")
    over the one drawn."""
    band = [line for line in database.read_text().splitlines() if int(line.split()[0]) >= 13]
    assert 0 < len(band) < 500
    assert main(["generate", "--from-db", str(database), "--min-moves", "13", "--count", "500", "-q"]) == 1
    out = capsys.readouterr().out
    description = next(line for line in out.splitlines() if line.startswith("# description:"))
    assert description == f"# description: {len(band)} puzzle{'s' if len(band) > 1 else ''} of 13+ moves on 5x5"
    assert "--count 500" in out  # the command recorded is the one given
