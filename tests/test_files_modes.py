"""Files written by rushhour get the permissions the user's umask asks for (0666 less the umask), as
any other program's; a file that is replaced keeps its own permissions."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rushhour.cli import main
from rushhour.files import write_text_atomic
from rushhour.play.saves import LevelRecord, write_levels

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    """Set the process umask for the test; the old one comes back afterwards."""
    old = os.umask(0o022)
    try:
        yield os.umask
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _convert(path: Path) -> None:
    assert main(["convert", "classic:1", "--to", "csv", "--out", str(path)]) == 0


def _dimacs(path: Path) -> None:
    assert main(["encoding", "beginner:1", "--dimacs", str(path)]) == 0


def _solution(path: Path) -> None:
    assert main(["solve", "beginner:1", "--csv", str(path)]) == 0


def _generate(path: Path) -> None:
    argv = [
        "generate",
        "--size",
        "5x5",
        "--count",
        "1",
        "--min-moves",
        "2",
        "--seed",
        "3",
        "--out",
        str(path),
    ]
    assert main(argv) == 0


def _progress(path: Path) -> None:
    write_levels(path, {"beginner:1": LevelRecord(board="x", solved=True, best=3)})


WRITERS = {
    "convert --out": _convert,
    "encoding --dimacs": _dimacs,
    "solve --csv": _solution,
    "generate --out": _generate,
    "progress file": _progress,
}


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002], ids=oct)
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_new_file_gets_0666_less_the_umask(
    umask: Callable[[int], None],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    writer: str,
    mask: int,
) -> None:
    target = tmp_path / "out.txt"
    umask(mask)
    WRITERS[writer](target)
    capsys.readouterr()
    assert mode(target) == 0o666 & ~mask, oct(mode(target))


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_replaced_file_keeps_its_mode(
    umask: Callable[[int], None], capsys: pytest.CaptureFixture[str], tmp_path: Path, writer: str
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    umask(0o077)
    WRITERS[writer](target)
    capsys.readouterr()
    assert mode(target) == 0o640 and target.read_text() != "old\n"


def test_writing_through_a_link_keeps_the_linked_file_mode(
    umask: Callable[[int], None], tmp_path: Path
) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    real.chmod(0o604)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text_atomic(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n" and mode(real) == 0o604


def test_no_temporary_file_is_left_behind(umask: Callable[[int], None], tmp_path: Path) -> None:
    umask(0o077)
    write_text_atomic(tmp_path / "a.txt", "text\n")
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_an_output_named_as_this_processs_own_stream_is_written_there(tmp_path: Path) -> None:
    """`solve --csv /dev/stdout > out.txt` replaced out.txt with the CSV alone (the file behind the
    stream was replaced, and the solution printed before it was lost); through a pipe it failed with
    'No such file or directory'."""
    import subprocess

    command = [sys.executable, "-m", "rushhour", "solve", "classic:1", "--csv", "/dev/stdout", "--no-color"]
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        done = subprocess.run(command, stdout=handle, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "vehicle,move\nF,+3\nC,+1\nD,-1\nA,+4\n" in text and "Optimal solution: 4 moves" in text
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0, piped.stderr
    assert "vehicle,move\nF,+3\n" in piped.stdout and "Optimal solution: 4 moves" in piped.stdout
