"""The progress file: where it lives, atomic writes, merging, corrupt and unreadable files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rushhour.play.saves as progress_module
from rushhour.board import Board
from rushhour.errors import SaveFileError
from rushhour.formats import parse_text
from rushhour.play.saves import (
    Saves,
    board_key,
    data_dir,
    default_path,
    level_key,
    open_saves,
    read_levels,
    read_saves,
)


def board_of(text: str) -> Board:
    return parse_text(text, fmt="fogleman")[0].board


ONE = board_of("BBBCCFoooDoFAAoDoooooEoooooEoooooEoo")
TWO = board_of("BBBoooooCoooAACoooooDoooooDoooooDooo")


def test_data_dir_follows_xdg_then_home(tmp_path: Path) -> None:
    assert data_dir({"XDG_DATA_HOME": str(tmp_path), "HOME": "/nowhere"}) == tmp_path / "rushhour"
    assert data_dir({"HOME": str(tmp_path)}) == tmp_path / ".local" / "share" / "rushhour"
    # empty or relative XDG_DATA_HOME is ignored, as the XDG rules say
    assert data_dir({"XDG_DATA_HOME": "", "HOME": "/h"}) == Path("/h/.local/share/rushhour")
    assert data_dir({"XDG_DATA_HOME": "rel/dir", "HOME": "/h"}) == Path("/h/.local/share/rushhour")
    assert default_path({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "rushhour" / "progress.json"


def test_keys() -> None:
    assert level_key(ONE, "classic", 3) == "classic:3"
    assert level_key(ONE) == "board:BBBCCF/...D.F/AA.D../...E../...E../...E.."
    assert board_key(ONE) != board_key(TWO)


def test_missing_file_is_empty_progress(tmp_path: Path) -> None:
    progress = Saves.load(tmp_path / "none" / "progress.json")
    assert progress.levels == {} and progress.saving


def test_win_is_saved_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "progress.json"
    progress = Saves.load(path)
    record = progress.record_win("classic:1", ONE, moves=6, steps=9, optimal=4, hints=1)
    assert record.solved and record.best == 6 and not record.perfect and record.wins == 1
    data = json.loads(path.read_text())
    assert data["format"] == "rushhour-progress" and data["version"] == 1
    assert data["levels"]["classic:1"]["best"] == 6
    again = Saves.load(path)
    assert again.is_solved("classic:1", ONE)
    assert not again.is_solved("classic:1", TWO)  # the level changed: the record is for another board
    assert not again.is_solved("classic:2", TWO)
    # a better win keeps the best; perfect stays once earned
    again.record_win("classic:1", ONE, moves=4, steps=7, optimal=4, hints=0)
    again.record_win("classic:1", ONE, moves=9, steps=12, optimal=4, hints=3)
    final = Saves.load(path).get("classic:1", ONE)
    assert final is not None
    assert (final.best, final.best_steps, final.hints, final.perfect, final.wins) == (4, 7, 0, True, 3)
    # no temporary files are left behind (the lock file stays: see rushhour.files.locked)
    assert sorted(p.name for p in path.parent.iterdir()) == ["progress.json", "progress.json.lock"]


def test_a_time_is_kept_as_the_stopwatch_showed_it(tmp_path: Path) -> None:
    """The win's box said 0:12 for 12.96 s, which was kept rounded as 13.0: levels then said 0:13."""
    from rushhour.play.words import clock_text

    path = tmp_path / "progress.json"
    Saves.load(path).record_win("classic:1", ONE, moves=6, steps=9, optimal=4, hints=0, seconds=12.96)
    record = Saves.load(path).get("classic:1", ONE)
    assert record is not None and record.best_seconds == 12.9
    assert clock_text(record.best_seconds) == clock_text(12.96) == "0:12"
    Saves.load(path).record_left("classic:2", TWO, ["A+1"], 59.99)
    left = Saves.load(path).get("classic:2", TWO)
    assert left is not None and left.left_seconds == 59.9 and clock_text(left.left_seconds) == "0:59"


def test_help_never_earns_perfect_and_is_saved(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    record = progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4, hints=1)
    assert record.best == 4 and record.hints == 1 and not record.perfect
    record = progress.record_win("classic:2", TWO, moves=3, steps=3, optimal=3, solution_seen=True)
    assert record.best == 3 and record.solution_seen and not record.perfect
    saved = json.loads(path.read_text())["levels"]
    assert saved["classic:1"]["hints"] == 1 and saved["classic:1"]["solution_seen"] is False
    assert saved["classic:2"]["solution_seen"] is True and saved["classic:2"]["perfect"] is False
    again = Saves.load(path).get("classic:2", TWO)
    assert again is not None and again.solution_seen and not again.perfect


def test_a_win_without_help_improves_a_record_with_help(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4, solution_seen=True)
    # longer, but without help: it is the better win
    record = progress.record_win("classic:1", ONE, moves=6, steps=8, optimal=4)
    assert (record.best, record.best_steps, record.hints, record.solution_seen) == (6, 8, 0, False)
    assert not record.perfect
    # a shorter win with help does not replace it
    record = progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4, hints=2)
    assert (record.best, record.hints, record.perfect) == (6, 0, False)
    # the optimum without help is perfect, and stays so
    record = progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    assert (record.best, record.hints, record.perfect) == (4, 0, True)
    record = progress.record_win("classic:1", ONE, moves=5, steps=7, optimal=4)
    assert (record.best, record.perfect, record.wins) == (4, True, 5)


@pytest.mark.parametrize(
    "best,hints,perfect_after",
    [(4, 0, True), (4, 2, False), (4, None, True), (5, 0, False)],
    ids=["unhelped-optimum", "hinted-optimum", "hints-unknown", "not-optimal"],
)
def test_records_of_the_first_format_are_read_honestly(
    tmp_path: Path, best: int, hints: int | None, perfect_after: bool
) -> None:
    """Files written before help was fully recorded (no ``solution_seen``) stay readable; a perfect
    mark stays only where the best win reached the optimum without a hint."""
    path = tmp_path / "progress.json"
    old = {"board": board_key(ONE), "solved": True, "best": best, "best_steps": 9, "optimal": 4,
           "perfect": True, "hints": hints, "wins": 2, "last_solved": "2026-01-02T03:04:05"}
    path.write_text(json.dumps({"format": "rushhour-progress", "version": 1, "levels": {"classic:1": old}}))
    progress = Saves.load(path)
    record = progress.get("classic:1", ONE)
    assert record is not None and record.solved and record.best == best and record.wins == 2
    assert record.perfect is perfect_after and not record.solution_seen
    # saving keeps version 1 and adds the new field
    progress.record_win("classic:2", TWO, moves=3, steps=3, optimal=3)
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["levels"]["classic:1"]["perfect"] is perfect_after
    assert data["levels"]["classic:1"]["solution_seen"] is False


def test_a_replaced_level_starts_a_new_record(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    record = progress.record_win("classic:1", TWO, moves=5, steps=5, optimal=3)
    assert record.best == 5 and record.wins == 1 and not record.perfect


def test_two_sessions_do_not_lose_each_others_wins(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    first, second = Saves.load(path), Saves.load(path)
    first.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    second.record_win("classic:2", TWO, moves=3, steps=3, optimal=3)
    merged = Saves.load(path)
    assert merged.is_solved("classic:1", ONE) and merged.is_solved("classic:2", TWO)


def test_memory_progress_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    progress = Saves.memory()
    progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    assert progress.is_solved("classic:1", ONE) and not progress.saving
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "content,reason",
    [
        (b"{not json", "not valid JSON"),
        (b'{"levels": {}}', "not a rushhour progress file"),
        (b'{"format": "rushhour-progress", "version": 1, "levels": []}', "no levels table"),
        (b'{"format": "rushhour-progress", "version": 0, "levels": {}}', "unknown version"),
        (b"\xff\xfe garbage", "not UTF-8"),
        # times and counts no clock or count can show: refused, not a crash when they are shown
        (
            b'{"format": "rushhour-progress", "version": 1, "levels": {"a:1": {"board": "x", "best_seconds": 1e400}}}',
            "the number 1e400 is too large",
        ),
        (
            b'{"format": "rushhour-progress", "version": 1, "levels": {"a:1": {"board": "x", "left_seconds": NaN}}}',
            "NaN is not a JSON number",
        ),
    ],
)
def test_corrupt_file_is_reported_and_moved_aside(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "progress.json"
    path.write_bytes(content)
    with pytest.raises(SaveFileError, match=reason) as caught:
        Saves.load(path)
    moved = caught.value.moved_to
    assert moved is not None and "moved to progress.json.corrupt-" in str(caught.value)
    assert not path.exists()
    aside = Path(moved)
    assert aside.parent == tmp_path and aside.name.startswith("progress.json.corrupt-")
    assert aside.read_bytes() == content
    # a fresh file can now be written without touching the old one
    Saves(path).record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    assert aside.read_bytes() == content and Saves.load(path).is_solved("classic:1", ONE)


@pytest.mark.parametrize(
    "value,reason",
    [
        ('{"board": "x", "best": "six", "solved": true}', "bad 'best'"),
        ('{"board": "x", "wins": true, "solved": true}', "bad 'wins'"),
        ('{"board": "x", "wins": -1, "solved": true}', "'wins' out of range"),
        ('{"board": "x", "best": -4, "solved": true}', "'best' out of range"),
        ('{"board": "x", "best_seconds": 1e300, "solved": true}', "'best_seconds' out of range"),
        ('{"board": "x", "hints": "2", "solved": true}', "bad 'hints'"),
        ('{"board": "x", "left_moves": [1, 2], "solved": true}', "bad 'left_moves'"),
        ('{"board": "x", "left_moves": null, "solved": true, "future": {"a": 1}}', ""),  # all readable
        ("[]", "'a:1' is not a record with a board"),
    ],
)
def test_a_value_that_cannot_be_read_is_left_out_and_the_rest_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, reason: str
) -> None:
    """One bad value (a count below 0, a wrong type) moved the whole file aside: every level's progress
    was gone from the game.  Now only that value is left out, said in one line, and the file as it was
    is copied aside before the next save writes it without it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = default_path()
    folder = path.parent
    folder.mkdir()
    good = json.dumps({"board": board_key(ONE), "solved": True, "best": 4, "wins": 1})
    levels = f'{{"a:1": {value}, "classic:1": {good}}}'
    content = f'{{"format": "rushhour-progress", "version": 1, "levels": {levels}}}'
    path.write_text(content)
    warnings: list[str] = []
    read = read_saves(warnings.append)  # a reader only: nothing copied or changed
    assert read.is_solved("classic:1", ONE) and sorted(p.name for p in folder.iterdir()) == ["progress.json"]
    saves = open_saves(False, warnings.append)
    assert saves.saving and saves.is_solved("classic:1", ONE)
    if not reason:
        assert warnings == [] and saves.levels["a:1"].solved
        return
    assert len(warnings) == 2 and all(reason in w and w.startswith("warning: ") for w in warnings)
    assert "left out here, and the file is left as it is" in warnings[0]
    assert ("a:1" in saves.levels) == (value != "[]")
    if value != "[]":
        assert saves.levels["a:1"].solved  # the values around the bad one are kept
    aside = [p for p in folder.iterdir() if p.name.startswith("progress.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == content and aside[0].name in warnings[1]
    saves.record_win("classic:2", TWO, moves=8, steps=9, optimal=8)
    again = Saves.load(path)
    assert again.note == "" and again.is_solved("classic:1", ONE) and again.is_solved("classic:2", TWO)
    assert len([p for p in folder.iterdir() if p.name.startswith("progress.json.corrupt-")]) == 1


def test_a_value_spoilt_during_play_is_copied_aside_before_the_save(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    saves = Saves(path)
    saves.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    text = path.read_text().replace('"wins": 1', '"wins": -7')
    path.write_text(text)
    with pytest.raises(SaveFileError, match="'wins' out of range: -7") as caught:
        saves.record_win("classic:2", TWO, moves=8, steps=9, optimal=8)
    assert caught.value.moved_to is not None and Path(caught.value.moved_to).read_text() == text
    again = Saves.load(path)
    assert again.is_solved("classic:1", ONE) and again.is_solved("classic:2", TWO) and again.note == ""


def test_two_corrupt_files_in_the_same_second_keep_both(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    moved = []
    for text in ("first{", "second{"):
        path.write_text(text)
        with pytest.raises(SaveFileError) as caught:
            read_levels(path)
        moved.append(caught.value.moved_to)
    assert len(set(moved)) == 2
    assert sorted(Path(m).read_text() for m in moved if m) == ["first{", "second{"]


def test_file_corrupted_during_play_is_moved_aside_when_saving(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    path.write_text("garbage")
    with pytest.raises(SaveFileError, match="moved to") as caught:
        progress.record_win("classic:2", TWO, moves=3, steps=3, optimal=3)
    assert Path(caught.value.moved_to or "").read_text() == "garbage"
    fresh = Saves.load(path)
    assert fresh.is_solved("classic:1", ONE) and fresh.is_solved("classic:2", TWO)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs file permissions that bind")
def test_unreadable_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text('{"format": "rushhour-progress", "version": 1, "levels": {}}')
    path.chmod(0)
    try:
        with pytest.raises(SaveFileError, match="cannot read the progress file") as caught:
            Saves.load(path)
        assert caught.value.moved_to is None
        assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.json", "progress.json.lock"]
    finally:
        path.chmod(0o600)


def test_read_error_is_reported_and_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.json"
    path.write_text("anything")

    def denied(*args: object, **kwargs: object) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(progress_module, "read_regular_file", denied)
    with pytest.raises(SaveFileError, match="cannot read the progress file .*Permission denied") as caught:
        Saves.load(path)
    monkeypatch.undo()
    assert caught.value.moved_to is None and path.read_text() == "anything"


def test_a_folder_in_the_way_is_unreadable_not_moved(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.mkdir()
    with pytest.raises(SaveFileError, match="cannot read") as caught:
        Saves.load(path)
    assert caught.value.moved_to is None and path.is_dir()
    # and saving into it fails with a clear error, not a traceback
    with pytest.raises(SaveFileError, match="cannot"):
        Saves(path).record_win("classic:1", ONE, moves=4, steps=7, optimal=4)


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveFileError, match="cannot write the progress file .*No space left"):
        progress.record_win("classic:2", TWO, moves=3, steps=3, optimal=3)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.json", "progress.json.lock"]


# --- help in games left unsolved ---------------------------------------------------------------------
def test_help_in_a_game_left_unsolved_counts_with_the_next_win(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    assert progress.help_before("classic:1", ONE) == (0, False)
    record = progress.record_attempt("classic:1", ONE, hints=2, solution_seen=False)
    assert not record.solved and record.best is None and not record.perfect
    progress.record_attempt("classic:1", ONE, hints=1, solution_seen=True)
    saved = json.loads(path.read_text())
    assert saved["version"] == 1
    left = saved["levels"]["classic:1"]
    assert (left["solved"], left["hints_since_win"], left["solution_seen_since_win"]) == (False, 3, True)
    again = Saves.load(path)  # a record without a win is read back, and is not a win
    assert not again.is_solved("classic:1", ONE) and again.help_before("classic:1", ONE) == (3, True)
    assert again.help_before("classic:1", TWO) == (0, False)  # the level changed: that help was for another board
    # the next win, in the optimum and without help of its own, is not perfect: it counts the earlier help
    record = again.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    assert record.solved and not record.perfect and (record.best, record.hints, record.solution_seen) == (4, 3, True)
    assert (record.hints_since_win, record.solution_seen_since_win) == (0, False)
    assert Saves.load(path).help_before("classic:1", ONE) == (0, False)
    # that help is counted once: a later win without help is a win without help
    record = again.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    assert record.perfect and (record.hints, record.solution_seen, record.wins) == (0, False, 2)


def test_help_left_unsolved_after_a_perfect_win_keeps_it_perfect(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    progress = Saves.load(path)
    progress.record_win("classic:1", ONE, moves=4, steps=7, optimal=4)
    record = progress.record_attempt("classic:1", ONE, hints=0, solution_seen=True)
    assert record.solved and record.perfect and record.best == 4 and record.solution_seen_since_win
    record = progress.record_win("classic:1", ONE, moves=6, steps=8, optimal=4)
    assert record.perfect and (record.best, record.hints, record.solution_seen) == (4, 0, False)


def test_an_attempt_is_merged_under_the_lock_with_other_sessions_wins(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    first, second = Saves.load(path), Saves.load(path)
    first.record_win("classic:2", TWO, moves=3, steps=3, optimal=3)
    second.record_attempt("classic:1", ONE, hints=1, solution_seen=False)
    final = Saves.load(path)
    assert final.is_solved("classic:2", TWO) and final.help_before("classic:1", ONE) == (1, False)


def test_memory_progress_remembers_an_attempt_without_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    progress = Saves.memory()
    progress.record_attempt("classic:1", ONE, hints=1, solution_seen=True)
    assert progress.help_before("classic:1", ONE) == (1, True)
    assert list(tmp_path.iterdir()) == []


def test_levels_lists_the_readable_progress_of_a_file_with_a_bad_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rushhour levels`` said "the levels are listed without progress" of a file whose one bad value
    is left out, while it listed the rest of its progress."""
    from tests.cli import run

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = default_path()
    path.parent.mkdir()
    classic1 = parse_text(Path("boards/classic.txt").read_text())[0].board
    good = json.dumps({"board": board_key(classic1), "solved": True, "best": 4, "wins": 1})
    levels = f'{{"a:1": {{"board": "x", "wins": -1}}, "classic:1": {good}}}'
    path.write_text(f'{{"format": "rushhour-progress", "version": 1, "levels": {levels}}}')
    status, out, err = run(capsys, "levels", "classic")
    assert status == 0 and "classic:1" in out and "solved in 4" in out
    assert "'wins' out of range" in err and "without progress" not in err
    path.write_text("{not json")  # unreadable as a whole: then it is listed without progress
    status, out, err = run(capsys, "levels", "classic")
    assert status == 0 and "solved in 4" not in out and err.rstrip().endswith("listed without progress")


def test_a_file_that_cannot_be_put_aside_is_left_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A corrupt file, or one with a value that cannot be read, is moved or copied aside before a fresh
    one is written; when that fails (a full disk, a folder that cannot be written) the file is left as
    it is and nothing is saved over it."""
    import shutil

    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    path = tmp_path / "progress.json"
    path.write_text("{not json")
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(SaveFileError, match=r"could not be moved aside \(No space left on device\); it is left"):
        Saves.load(path)
    assert path.read_text() == "{not json"
    monkeypatch.undo()
    good = json.dumps({"board": board_key(ONE), "solved": True, "best": 4, "wins": 1})
    content = f'{{"format": "rushhour-progress", "version": 1, "levels": {{"a:1": [], "classic:1": {good}}}}}'
    path.write_text(content)
    monkeypatch.setattr(shutil, "copyfile", refuse)
    with pytest.raises(SaveFileError, match=r"could not be copied aside \(No space left on device\); it is left"):
        Saves.load(path)
    assert path.read_text() == content
