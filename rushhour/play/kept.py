"""The boards the editor keeps for next time, in ``$XDG_DATA_HOME/rushhour/editor-unsaved.txt``.

A session that leaves a board unsaved adds it to the file (one grid block a board, the newest last), in
place of the kept board it opened, if any; a session that saves a board it opened from the file takes
that board out.  Sessions never overwrite each other's boards: each change is made under the file's
lock, from what the file holds at that moment.  A file that cannot be read as boards is moved aside
(``editor-unsaved.txt.corrupt-STAMP``) before a new one is started, never written over.
"""

from __future__ import annotations

import os
from pathlib import Path

from rushhour.board import Board
from rushhour.errors import RushHourError
from rushhour.files import aside_name, data_dir, locked, make_folder, reason, write_text_atomic
from rushhour.formats import grid, read_file
from rushhour.text import plural

KEPT_NAME = "editor-unsaved.txt"


def kept_path() -> Path:
    return data_dir() / KEPT_NAME


class KeptBoards:
    """The kept boards of ``path`` (by default :func:`kept_path`, read when asked)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else kept_path()

    def boards(self) -> list[Board]:
        """The kept boards, oldest first; raises :class:`RushHourError` for a file that is no boards."""
        if not os.path.lexists(self.path):
            return []
        return [entry.board for entry in read_file(str(self.path), "grid")]

    def _write(self, boards: list[Board]) -> None:
        if boards:
            text = grid.write_document([(board, {}) for board in boards])
            write_text_atomic(self.path, text, what="the unsaved boards to ")
        else:
            self.path.unlink(missing_ok=True)

    def keep(self, board: Board, replacing: Board | None = None) -> str:
        """Add ``board`` (in place of ``replacing``, the kept board it was opened from); what was done,
        in words (a failure as a warning: the caller goes on)."""
        moved: Path | None = None
        try:
            make_folder(self.path.parent)
            with locked(self.path):
                try:
                    boards = self.boards()
                except RushHourError:
                    if not self.path.is_file():  # a folder, a FIFO: not ours to move
                        raise
                    moved = aside_name(self.path)
                    os.replace(self.path, moved)
                    boards = []
                boards = [b for b in boards if b not in (replacing, board)] + [board]
                self._write(boards)
        except OSError as err:
            return f"warning: the unsaved board could not be kept in {self.path}: {reason(err)}"
        except RushHourError as err:
            return f"warning: the unsaved board could not be kept: {err}"
        said = f"the unsaved board is kept in {self.path}: rushhour edit opens it again"
        if len(boards) > 1:
            others = plural(len(boards) - 1, "other board")
            said += f" ({others} kept there too: rushhour edit {self.path}:N opens board N)"
        if moved is not None:
            said += f"; what the file held could not be read, and was moved to {moved}"
        return said

    def forget(self, board: Board) -> str:
        """Take ``board`` out (it is saved); a warning when that fails, else nothing to say."""
        if not os.path.lexists(self.path):
            return ""
        try:
            with locked(self.path):
                boards = self.boards()
                if board in boards:
                    boards.remove(board)
                    self._write(boards)
        except OSError as err:
            return f"warning: the kept unsaved board {self.path} could not be forgotten: {reason(err)}"
        except RushHourError as err:
            return f"warning: the kept unsaved board {self.path} could not be forgotten: {err}"
        return ""


__all__ = ["KEPT_NAME", "KeptBoards", "kept_path"]
