"""Nothing a player made is lost from the progress file: a game reset or won in one terminal keeps the
position another game of the level saved meanwhile, fields a newer rushhour wrote are written back,
and a corrupt file behind a symbolic link is put aside without breaking the link.

The games in a pseudo-terminal play TINY of tests/boards.py (B-1 then A+3 wins; C-1 is another move)."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pexpect
import pytest

from rushhour.errors import SaveFileError
from rushhour.formats import parse_text
from rushhour.play.saves import Saves, board_key
from tests.boards import TINY
from tests.terminal import spawn_program

COMMAND = [sys.executable, "-m", "rushhour"]
TIMEOUT = 120  # generous: the machine may be loaded; a guard against a hang only
PROMPT = r"your move \(A\+2, a number, or \? for help\)> "
BOARD = parse_text(TINY)[0].board
KEY = "tiny:1"


def progress(tmp_path: Path) -> Path:
    return tmp_path / "data" / "rushhour" / "progress.json"


def spawn(tmp_path: Path, level: Path) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm", PYTHONIOENCODING="utf-8")
    return spawn_program(
        [*COMMAND, "play", str(level), "--plain"],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 100),
        cwd=str(tmp_path),
    )


def play(child: pexpect.spawn, line: str, answer: str) -> None:
    child.sendline(line)
    child.expect(answer)
    child.expect(PROMPT)  # the position is saved before each question


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")
def test_a_reset_in_one_terminal_keeps_the_position_another_game_saved_after_it(tmp_path: Path) -> None:
    """Terminal 1 played B-1; terminal 2 continued it and played C-1 (saved); terminal 1 went back to the
    start and quit; terminal 2 was killed outright.  The reset forgot the level's position, terminal 2's
    included, and the next game started afresh: two moves saved were lost.  Now a reset forgets only
    the game's own position, and the next game continues terminal 2's."""
    level = tmp_path / "tiny.txt"
    level.write_text(TINY)
    first = spawn(tmp_path, level)
    first.expect(PROMPT)
    play(first, "B-1", "moves 1 \\| steps 1")
    second = spawn(tmp_path, level)
    second.expect("continued where you left it \\(1 move\\)")
    second.expect(PROMPT)
    play(second, "C-1", "moves 2 \\| steps 2")
    assert json.loads(progress(tmp_path).read_text())["levels"].popitem()[1]["left_moves"] == ["B-1", "C-1"]
    play(first, "reset", "back to the start")
    first.sendline("q")
    first.expect(pexpect.EOF)
    first.close()
    assert first.exitstatus == 0
    second.kill(signal.SIGKILL)
    second.close()
    record = json.loads(progress(tmp_path).read_text())["levels"].popitem()[1]
    assert record["left_moves"] == ["B-1", "C-1"]
    third = spawn(tmp_path, level)
    third.expect("continued where you left it \\(2 moves\\)")
    third.expect(PROMPT)
    third.sendline("q")
    third.expect(pexpect.EOF)
    third.close()


def test_a_game_forgets_its_own_position_and_keeps_one_saved_after_it(tmp_path: Path) -> None:
    """Two games of one level on one file: the rule "the position left last is the one continued"
    stays, and a reset or a win forgets a position only when it is the game's own."""
    path = tmp_path / "progress.json"
    one, two = Saves.load(path), Saves.load(path)  # each game starts the level from its start
    one.record_left(KEY, BOARD, ["B-1"], 3.0)
    two.record_left(KEY, BOARD, ["C-1"], 4.0)  # left last: the one continued
    assert Saves.load(path).get(KEY, BOARD).left_moves == ["C-1"]  # type: ignore[union-attr]
    one.record_left(KEY, BOARD, [], 5.0)  # game one back at its start: game two's position stays
    assert Saves.load(path).get(KEY, BOARD).left_moves == ["C-1"]  # type: ignore[union-attr]
    one.record_win(KEY, BOARD, moves=2, steps=4, optimal=2)  # game one won: game two's stays too
    record = Saves.load(path).get(KEY, BOARD)
    assert record is not None and record.solved and record.left_moves == ["C-1"]
    two.record_left(KEY, BOARD, [], 6.0)  # game two back at its start: its own position is forgotten
    record = Saves.load(path).get(KEY, BOARD)
    assert record is not None and not record.left and record.solved


def test_a_game_that_continued_a_position_forgets_it_when_won(tmp_path: Path) -> None:
    """The position a game continued is its own: its win forgets it (not continued again)."""
    path = tmp_path / "progress.json"
    Saves.load(path).record_left(KEY, BOARD, ["B-1"], 3.0)
    again = Saves.load(path)
    again.hold_position(KEY, BOARD)
    again.record_win(KEY, BOARD, moves=2, steps=4, optimal=2)
    record = Saves.load(path).get(KEY, BOARD)
    assert record is not None and record.solved and not record.left


def test_fields_a_newer_rushhour_wrote_are_kept_when_this_one_saves(tmp_path: Path) -> None:
    """A newer rushhour adds fields to version 1 (as `left_moves` was added); an older one passed over
    them when reading but dropped them when it saved: a continued game, say, was lost by playing
    another level with the older version.  Now they are written back as they were."""
    path = tmp_path / "progress.json"
    theirs = {"board": board_key(BOARD), "solved": True, "wins": 1, "rating": {"elo": 1500}, "tags": ["x"]}
    data = {"format": "rushhour-progress", "version": 1, "profile": "ann", "levels": {KEY: theirs}}
    path.write_text(json.dumps(data))
    saves = Saves.load(path)
    assert saves.note == ""  # nothing to warn of: the fields are not unreadable, only unknown
    saves.record_win("other:1", BOARD, moves=2, steps=4, optimal=2)
    saves.record_win(KEY, BOARD, moves=2, steps=4, optimal=2)
    written = json.loads(path.read_text())
    assert written["profile"] == "ann"
    record = written["levels"][KEY]
    assert record["rating"] == {"elo": 1500} and record["tags"] == ["x"] and record["wins"] == 2
    assert "rating" not in written["levels"]["other:1"]


def test_a_corrupt_progress_file_behind_a_link_is_put_aside_and_the_link_stays(tmp_path: Path) -> None:
    """The corrupt file was put aside by renaming the link itself: a fresh regular file took its
    place, and the player's link (to a synchronised folder, say) was gone."""
    real = tmp_path / "sync" / "progress.json"
    real.parent.mkdir()
    real.write_text("{not json")
    link = tmp_path / "data" / "progress.json"
    link.parent.mkdir()
    link.symlink_to(real)
    saves = Saves(link)
    with pytest.raises(SaveFileError, match="was corrupt"):
        saves.record_win(KEY, BOARD, moves=2, steps=4, optimal=2)
    assert link.is_symlink() and os.path.realpath(link) == str(real)
    assert Saves.load(link).get(KEY, BOARD) is not None  # the fresh file is the link's target
    aside = [p.name for p in real.parent.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and (real.parent / aside[0]).read_text() == "{not json"


def test_a_file_where_the_data_folder_should_be_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$XDG_DATA_HOME/rushhour`` a file: the warning said only "Not a directory"."""
    from rushhour.play.saves import open_saves

    (tmp_path / "rushhour").write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    warnings: list[str] = []
    saves = open_saves(False, warnings.append)
    assert not saves.saving
    assert f"{tmp_path / 'rushhour'} is a file, not a folder; it is left as it is" in warnings[0]
    assert warnings[1] == "warning: progress will not be saved in this session"
    assert (tmp_path / "rushhour").read_text() == "not a folder"


def test_a_file_with_a_bad_value_is_copied_aside_once_however_often_it_is_opened(tmp_path: Path) -> None:
    """Each start of the game (``rushhour play`` then q) copied the file aside again: as many identical
    ``progress.json.corrupt-*`` files as starts.  A copy made is used again while the file is unchanged;
    a file changed since is copied again."""
    path = tmp_path / "progress.json"
    levels = {"a:1": {"board": "x", "wins": -1}}
    path.write_text(json.dumps({"format": "rushhour-progress", "version": 1, "levels": levels}))
    notes = [Saves.load(path).note for _ in range(3)]
    (aside,) = tmp_path.glob("progress.json.corrupt-*")
    assert all(note.endswith(f"copied to {aside.name}") for note in notes)
    levels["b:1"] = {"board": "y", "wins": -2}
    path.write_text(json.dumps({"format": "rushhour-progress", "version": 1, "levels": levels}))
    Saves.load(path)
    assert len(list(tmp_path.glob("progress.json.corrupt-*"))) == 2
