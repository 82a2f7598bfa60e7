"""``edit``: the arguments of the board editor (everything else is in :mod:`rushhour.play.editor`).

A board left unsaved is kept in ``$XDG_DATA_HOME/rushhour/editor-unsaved.txt``; ``rushhour edit`` with
no BOARD opens it again (and forgets it once it is saved).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from rushhour.board import Board
from rushhour.cli.core import BOARD_HELP, UsageError, add_color_flags, color_wanted, examples
from rushhour.cli.generate import dimensions
from rushhour.errors import RushHourError
from rushhour.files import data_dir, write_text_atomic

KEPT_NAME = "editor-unsaved.txt"


def board_size(text: str) -> tuple[int, int]:
    from rushhour.board import MAX_SIDE, MIN_SIDE

    width, height = dimensions(text)
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise argparse.ArgumentTypeError(
            f"{text} is out of range: sizes are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
        )
    return width, height


def kept_path() -> Path:
    return data_dir() / KEPT_NAME


def keep(board: Board | None) -> str:
    """Keep an unsaved board for next time (None: forget the one kept); what was done, in words."""
    path = kept_path()
    if board is None:
        try:
            path.unlink(missing_ok=True)
        except OSError as err:  # a folder in its place, a data folder that is a file: it is not ours
            return f"warning: the kept unsaved board {path} could not be forgotten: {err.strerror or err}"
        return ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, board.to_text("grid"), what="the unsaved board to ")
    except (OSError, RushHourError) as err:
        return f"warning: the unsaved board could not be kept: {err}"
    return f"the unsaved board is kept in {path}: rushhour edit opens it again"


def new_file(board: str) -> bool:
    """Whether BOARD names a board file that does not exist yet (to be drawn and saved there)."""
    suffixes = (".txt", ".csv", ".json", ".fog")
    return board.lower().endswith(suffixes) and not os.path.exists(board) and ":" not in board


def starting_draft(args: argparse.Namespace) -> tuple[Any, str | None, bool, str]:
    """The draft to start with, its file (or None), whether it is saved, and a note."""
    from rushhour.levels import resolve_board
    from rushhour.play.draft import Draft

    if args.board is not None and new_file(args.board):
        width, height = args.size or (6, 6)
        note = f"a new board for {args.board} (s saves it there): c places a car, t a truck, ? lists the keys"
        return Draft.empty(width, height), args.board, False, note
    if args.board is not None:
        if args.size is not None:
            raise UsageError("give either a BOARD to edit or --size for a new board, not both")
        entry = resolve_board(args.board)
        path = args.board if os.path.isfile(args.board) else None
        return Draft.of(entry.board), path, True, ""
    kept = kept_path()
    if args.size is None and kept.is_file():
        try:
            board = Board.from_text(kept.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, RushHourError) as err:
            return Draft.empty(6, 6), None, False, f"the kept unsaved board cannot be read ({err})"
        return Draft.of(board), None, False, f"the unsaved board of last time (kept in {kept})"
    width, height = args.size or (6, 6)
    return Draft.empty(width, height), None, False, "a new board: c places a car, t a truck, ? lists the keys"


def file_format(path: str | None) -> str | None:
    """The format of an existing board file (saved back in it), None for a new one."""
    from rushhour.formats import detect

    if path is None or not os.path.isfile(path):
        return None
    try:
        return "csv" if path.lower().endswith(".csv") else detect(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def cmd_edit(args: argparse.Namespace) -> int:
    from rushhour.levels import add_to_user_pack
    from rushhour.play import editscreen, tui
    from rushhour.play.editor import Editor
    from rushhour.play.sources import optimal_plan
    from rushhour.play.worker import worker_for

    draft, path, saved, note = starting_draft(args)
    fmt = file_format(path)
    if not (sys.stdin.isatty() and sys.stdout.isatty()) or not tui.usable():
        raise UsageError("the editor is full screen: run it in a terminal (a terminal's input and output)")
    editor = Editor(
        draft,
        checker=worker_for(optimal_plan),
        hardener=worker_for(optimal_plan),
        path=path,
        fmt=fmt,
        label=args.board if args.board is not None and path is None else "new board",
        saved=saved,
        keep=keep,
        add_to_pack=add_to_user_pack,
    )
    editor.message = note
    status = editscreen.run(editor, color=color_wanted(args))
    if editor.message.startswith(("the unsaved board is kept", "warning:")):
        print(editor.message, file=sys.stderr)
    return status


def register(sub: Any) -> None:
    p = sub.add_parser(
        "edit",
        help="draw or change a board, checked as you draw it",
        description=(
            "Draw a board full screen, or change one: place cars, trucks and walls with keys or the mouse, "
            "choose the goal vehicle and its exit.  Beside the board, live: valid or not and why, the "
            "optimum and the reachable set's size (or unsolvable, proven), its hardest position.  Save to "
            "a file in any format or into a pack of your own (then `rushhour play NAME:N`).  "
            "? lists the keys."
        ),
        epilog=examples(
            "rushhour edit                      # a new 6x6 board (or the one left unsaved)",
            "rushhour edit --size 8x8",
            "rushhour edit classic:12           # start from a built-in level",
            "rushhour edit mine.txt             # a board file, new or to change (s saves it)",
        ),
    )
    p.add_argument("board", nargs="?", metavar="BOARD", help=BOARD_HELP + ", or a new file to draw")
    p.add_argument(
        "--size", type=board_size, metavar="WxH", help="a new empty board of this size (default 6x6)"
    )
    add_color_flags(p)
    p.set_defaults(func=cmd_edit)


__all__ = ["cmd_edit", "keep", "kept_path", "register"]
