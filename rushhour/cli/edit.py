"""``edit``: the arguments of the board editor (everything else is in :mod:`rushhour.play.editor`).

A board left unsaved is kept in ``$XDG_DATA_HOME/rushhour/editor-unsaved.txt``
(:mod:`rushhour.play.kept`), one that is not valid yet as the draft it is; ``rushhour edit`` with no
BOARD opens the last one kept again (and forgets it once it is saved), an invalid one as it was left.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rushhour.board import Board
from rushhour.cli.core import BOARD_HELP, UsageError, add_color_flags, color_wanted, examples
from rushhour.cli.generate import dimensions
from rushhour.errors import RushHourError
from rushhour.text import plural

if TYPE_CHECKING:
    from rushhour.play.draft import Draft

FIRST_KEYS = "c places a car, t a truck, ? lists the keys"


def board_size(text: str) -> tuple[int, int]:
    from rushhour.board import MAX_SIDE, MIN_SIDE

    width, height = dimensions(text)
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise argparse.ArgumentTypeError(
            f"{text} is out of range: sizes are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
        )
    return width, height


def new_file(board: str) -> bool:
    """Whether BOARD names a board file that does not exist yet (to be drawn and saved there)."""
    suffixes = (".txt", ".csv", ".json", ".fog")
    return board.lower().endswith(suffixes) and not os.path.exists(board) and ":" not in board


@dataclass
class Start:
    """What the editor starts with: the draft, its file (or None), whether it is saved, a note, the
    kept board it is (or None) and its file's header."""

    draft: Any
    path: str | None
    saved: bool
    note: str
    kept: Board | Draft | None = None
    meta: dict[str, str] = field(default_factory=dict)


def _in_kept_file(spec: str) -> bool:
    """Whether BOARD (``FILE`` or ``FILE:N``) names a board of the kept boards' file."""
    from rushhour.play.kept import kept_path

    name = spec if os.path.isfile(spec) else spec.rpartition(":")[0]
    try:
        return bool(name) and os.path.samefile(name, kept_path())
    except OSError:  # either is not there
        return False


def starting_draft(args: argparse.Namespace) -> Start:
    from rushhour.levels import reads_stdin, resolve_board
    from rushhour.play.draft import Draft
    from rushhour.play.kept import KeptBoards, draft_of

    if args.board is not None and new_file(args.board):
        width, height = args.size or (6, 6)
        note = f"a new board for {args.board} (s saves it there): {FIRST_KEYS}"
        return Start(Draft.empty(width, height), args.board, False, note)
    if args.board is not None:
        if args.size is not None:
            raise UsageError("give either a BOARD to edit or --size for a new board, not both")
        if _in_kept_file(args.board):  # a kept board: saved elsewhere, it is forgotten there
            kept = _kept_board(args.board)
            store = KeptBoards()
            with contextlib.suppress(RushHourError):  # read whole by _kept_board: its blocks left out
                store.boards()
            note = "; ".join(part for part in (_invalid_note(kept), store.unread_note()) if part)
            return Start(draft_of(kept), None, False, note, kept=kept)
        entry = resolve_board(args.board)
        path = args.board if os.path.isfile(args.board) and not reads_stdin(args.board) else None
        return Start(Draft.of(entry.board), path, True, "", meta=entry.meta if path else {})
    width, height = args.size or (6, 6)
    new = Start(Draft.empty(width, height), None, False, f"a new board: {FIRST_KEYS}")
    if args.size is not None:
        return new
    store = KeptBoards()
    try:
        boards = store.boards()
    except RushHourError as err:
        new.note = (
            f"the kept unsaved boards cannot be read ({err}); the file is left as it is (moved aside, "
            "never written over, if a board is kept this time): a new board"
        )
        return new
    if not boards:
        return new
    note = f"the unsaved board of last time (kept in {store.path}"
    if len(boards) > 1:
        note += f", with {plural(len(boards) - 1, 'other')}: rushhour edit {store.path}:N"
    invalid = _invalid_note(boards[-1])
    note += ")" + (f"; {invalid}" if invalid else "")
    unread = store.unread_note()  # blocks of the file that cannot be read: kept aside, never lost
    if unread:
        note += f"; {unread}"
    return Start(draft_of(boards[-1]), None, False, note, kept=boards[-1])


def _invalid_note(kept: Board | Draft) -> str:
    """What the note adds of a kept board that is not valid yet (its reason is in the panel)."""
    return "" if isinstance(kept, Board) else "not valid yet, as it was left: fix it, then s saves it"


def _kept_board(spec: str) -> Board | Draft:
    """The board ``FILE`` or ``FILE:N`` names in the kept boards' file, one not valid yet included
    (another command refuses it); errors as for any BOARD."""
    from rushhour.levels import resolve_board
    from rushhour.play.draft import Draft
    from rushhour.play.kept import KeptBoards

    try:
        return resolve_board(spec).board
    except RushHourError as err:
        name, _, number = (spec, "", "") if os.path.isfile(spec) else spec.rpartition(":")
        try:
            blocks = KeptBoards(Path(name)).numbered()  # numbered as the file's blocks, unread ones too
        except RushHourError:
            raise err from None
        index = int(number) if number.isdigit() else 1 if not number and len(blocks) == 1 else 0
        if not 1 <= index <= len(blocks):
            raise
        chosen = blocks[index - 1]
        if not isinstance(chosen, Draft):
            raise
        return chosen


def _label(board: str) -> str:
    """What the title calls a board without a file: its BOARD argument (classic:12), or stdin."""
    from rushhour.formats import source_name
    from rushhour.levels import reads_stdin

    return source_name("-") + board[1:] if reads_stdin(board) else board


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
    from rushhour.files import keys_from_terminal
    from rushhour.levels import add_to_user_pack, reads_stdin
    from rushhour.play import editscreen, tui
    from rushhour.play.editor import Editor
    from rushhour.play.kept import KeptBoards
    from rushhour.play.sources import optimal_plan
    from rushhour.play.worker import worker_for

    start = starting_draft(args)
    fmt = file_format(start.path)
    if args.board is not None and reads_stdin(args.board) and not keys_from_terminal():
        raise UsageError("the board came on standard input, and there is no terminal for the keys")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("the editor is full screen: run it in a terminal (a terminal's input and output)")
    problem = tui.unusable_reason()
    if problem is not None:  # a terminal, but its TERM cannot draw the editor
        raise UsageError(f"the editor is full screen, and {problem}")
    editor = Editor(
        start.draft,
        checker=worker_for(optimal_plan),
        hardener=worker_for(optimal_plan),
        path=start.path,
        fmt=fmt,
        label=_label(args.board) if args.board is not None and start.path is None else "new board",
        saved=start.saved,
        kept=KeptBoards(),
        opened_kept=start.kept,
        meta=start.meta,
        add_to_pack=add_to_user_pack,
    )
    editor.message = start.note
    status = editscreen.run(editor, color=color_wanted(args))
    if said_after(editor.message):
        tui.say(editor.message)  # nothing said after a hangup: the terminal is gone
    return status


def said_after(message: str) -> bool:
    """Whether the editor's last message is said again once the screen is closed: where the board was
    kept, a warning, or what became of the kept boards' file (blocks left out of it, the file copied
    aside), which the last save before leaving may have said on a screen no longer there."""
    return message.startswith("the unsaved board is kept") or any(
        words in message for words in ("warning:", "the kept unsaved boards")
    )


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


__all__ = ["cmd_edit", "register"]
