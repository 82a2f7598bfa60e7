"""Nothing a puzzle maker kept is lost: a kept-boards file (``editor-unsaved.txt``) with one block that
cannot be read still gives its other boards, and the file as it was is copied aside before it is written
without that block, said once.

That file was unreadable as a whole: ``rushhour edit`` offered none of its boards (a new board instead),
and keeping a board moved the whole file aside, its good boards with it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import rushhour.play.kept as kept_module
from rushhour import Board
from rushhour.play.kept import KeptBoards
from tests.test_editor_pty import editor
from tests.test_tui_pty import left_cleanly

FIRST = Board.from_text("....../....../AA...x/....../....../......")
SECOND = Board.from_text("....../....../AA..B./....B./....../......")
NEW = Board.from_text("....../....../.AA.../....../....../......")
#: a block cut short (its fourth row), between two boards that can be read
BROKEN = "......\n..B...\nAAB\n......\n......\n......\n"


def spoilt_file(folder: Path) -> tuple[Path, str]:
    """A kept file of FIRST, a block cut short (lines 8 to 13), then SECOND; and its text."""
    path = folder / "data" / "rushhour" / "editor-unsaved.txt"
    path.parent.mkdir(parents=True)
    store = KeptBoards(path)
    store.keep(FIRST)
    store.keep(SECOND)
    first, second = path.read_text().split("\n\n")
    text = f"{first}\n\n{BROKEN}\n{second}"
    path.write_text(text)
    return path, text


def asides(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.corrupt-*"))


def test_the_readable_boards_of_a_file_with_a_spoilt_block_are_read() -> None:
    boards, unread = kept_module.read_kept("......\n......\nAA...x\n......\n......\n......\n\n" + BROKEN + "\n# goal: Q\n")
    assert boards == [FIRST]
    assert [u.line for u in unread] == [10, 15]  # the row cut short, the header lines with no grid
    assert "rows must be equally long" in unread[0].why and "only header lines" in unread[1].why
    assert isinstance(unread[0], kept_module.Unread)


def test_keeping_a_board_keeps_the_readable_ones_and_copies_the_file_aside_first(tmp_path: Path) -> None:
    path, text = spoilt_file(tmp_path)
    store = KeptBoards(path)
    assert store.boards() == [FIRST, SECOND]
    assert "1 block that cannot be read (line 10:" in store.unread_note()
    said = store.keep(NEW)
    (aside,) = asides(path)
    assert aside.read_text() == text  # the block that cannot be read is not lost
    assert KeptBoards(path).boards() == [FIRST, SECOND, NEW]
    assert f"copied to {aside}" in said and said.count("cannot be read") == 1
    again = KeptBoards(path)
    assert again.boards() == [FIRST, SECOND, NEW] and again.unread_note() == ""
    assert "cannot be read" not in again.keep(FIRST)  # said once: nothing more to copy
    assert len(asides(path)) == 1


def test_forgetting_a_board_copies_the_file_aside_first(tmp_path: Path) -> None:
    path, text = spoilt_file(tmp_path)
    said = KeptBoards(path).forget(SECOND)
    (aside,) = asides(path)
    assert aside.read_text() == text and f"copied to {aside}" in said
    assert KeptBoards(path).boards() == [FIRST]


def test_a_file_that_cannot_be_copied_aside_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, text = spoilt_file(tmp_path)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "copyfile", full)
    said = KeptBoards(path).keep(NEW)
    assert said.startswith("warning: the unsaved board could not be kept") and "No space left" in said
    assert path.read_text() == text and asides(path) == []


def test_a_kept_file_behind_a_link_keeps_its_link(tmp_path: Path) -> None:
    """A link to a kept file not made yet was "a file that cannot be read": no board could be kept
    there; and the last kept board forgotten removed the link itself, not the file it names."""
    real = tmp_path / "sync" / "editor-unsaved.txt"
    real.parent.mkdir()
    link = tmp_path / "editor-unsaved.txt"
    link.symlink_to(real)
    KeptBoards(link).keep(FIRST)
    assert real.is_file() and link.is_symlink()
    KeptBoards(link).forget(FIRST)
    assert link.is_symlink() and not real.exists()
    KeptBoards(link).keep(SECOND)
    assert link.is_symlink() and KeptBoards(real).boards() == [SECOND]


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")
def test_rushhour_edit_offers_a_readable_board_of_a_file_with_a_spoilt_block(tmp_path: Path) -> None:
    path, text = spoilt_file(tmp_path)
    p = editor(tmp_path)
    p.wait_for("the unsaved board of last time")
    assert "cannot be read" not in " ".join(p.text.split())
    p.send("\x04")  # Ctrl-D: left at once, the board kept again in its own place
    left_cleanly(p)
    (aside,) = asides(path)
    assert aside.read_text() == text
    assert KeptBoards(path).boards() == [FIRST, SECOND]
    assert "copied to" in " ".join(p.raw.split())


def test_a_temporary_file_left_by_a_killed_session_is_removed(tmp_path: Path) -> None:
    """A session killed while it wrote the kept file left its temporary file there for good."""
    path = tmp_path / "editor-unsaved.txt"
    left = tmp_path / ".editor-unsaved.txt.0123456789ab.tmp"
    left.write_text("......\n")
    KeptBoards(path).keep(FIRST)
    assert not left.exists() and KeptBoards(path).boards() == [FIRST]


def test_the_blocks_are_numbered_as_rushhour_edit_numbers_them_and_a_header_is_kept(tmp_path: Path) -> None:
    """A kept file's own header lines (a first block of header lines only, which the grid reader takes
    as the file's header) were dropped when a board was kept; and with a block spoilt, board N of the
    file must still be the file's block N."""
    path = tmp_path / "editor-unsaved.txt"
    text = "# title: my drafts\n\n" + "......\n......\nAA...x\n......\n......\n......\n\n" + BROKEN
    path.write_text(text)
    KeptBoards(path).keep(NEW)
    assert path.read_text().startswith("# title: my drafts\n\n") and KeptBoards(path).boards() == [FIRST, NEW]
    KeptBoards(path).forget(FIRST)
    KeptBoards(path).forget(NEW)
    assert path.read_text() == "# title: my drafts\n"
    path.write_text(text)
    found = KeptBoards(path).numbered()
    assert found[0] == FIRST and isinstance(found[1], kept_module.Unread) and len(found) == 2


def test_a_link_to_a_kept_file_in_a_folder_not_made_yet(tmp_path: Path) -> None:
    """The folder made was the link's, not the one of the file it names: no board could be kept."""
    link = tmp_path / "editor-unsaved.txt"
    link.symlink_to(tmp_path / "sync" / "drafts" / "editor-unsaved.txt")
    said = KeptBoards(link).keep(FIRST)
    assert said.startswith("the unsaved board is kept") and link.is_symlink()
    assert KeptBoards(link).boards() == [FIRST]


def test_rushhour_edit_says_at_start_that_a_block_is_left_unread_and_numbers_blocks_as_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start's note said nothing of a block that cannot be read (it was said only once a board was
    kept); and ``edit FILE:N`` counted the readable boards, so that with a block spoilt before it,
    board N of the file opened another one."""
    import argparse

    from rushhour.cli.edit import starting_draft
    from rushhour.play.draft import Draft

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path, _ = spoilt_file(tmp_path)  # FIRST, a spoilt block, SECOND
    draft = Draft.of(NEW).delete("A")  # not valid yet: kept as grid text the board reader refuses
    with path.open("a") as out:
        out.write("\n" + kept_module.draft_text(draft))
    start = starting_draft(argparse.Namespace(board=None, size=None))
    assert start.kept == draft.by_name()
    assert "warning: the kept unsaved boards" in start.note and "1 block that cannot be read (line 10:" in start.note
    fourth = starting_draft(argparse.Namespace(board=f"{path}:4", size=None))  # block 4 of the file
    assert fourth.kept == draft.by_name()
    with pytest.raises(Exception, match="line 10"):  # block 2 is the spoilt one, not SECOND
        starting_draft(argparse.Namespace(board=f"{path}:2", size=None))


def test_what_became_of_a_kept_file_is_said_however_the_board_was_opened_and_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``edit KEPT:N`` said nothing of the blocks that cannot be read, and a save just before leaving
    (the quit question's ``s``) said the file was copied aside on a screen that then closed."""
    import argparse

    from rushhour.cli.edit import said_after, starting_draft
    from rushhour.play.editor import Editor
    from rushhour.play.sources import optimal_plan
    from rushhour.play.worker import InlineWorker

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path, text = spoilt_file(tmp_path)  # FIRST, a spoilt block, SECOND
    start = starting_draft(argparse.Namespace(board=f"{path}:1", size=None))
    assert start.kept == FIRST and "1 block that cannot be read (line 10:" in start.note
    editor = Editor(
        start.draft, checker=InlineWorker(optimal_plan), hardener=InlineWorker(optimal_plan),
        kept=KeptBoards(), opened_kept=start.kept,
    )
    assert editor.save(str(tmp_path / "saved.txt"), "grid")
    assert "copied to" in editor.message and said_after(editor.message)
    (aside,) = asides(path)
    assert aside.read_text() == text and KeptBoards(path).boards() == [SECOND]
    assert not said_after(f"saved to {tmp_path / 'saved.txt'} (grid)")
