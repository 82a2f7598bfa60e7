"""``play`` and ``levels``: the arguments of the game and of the list of levels with the player's saves.

Everything about playing lives in :mod:`rushhour.play`; this module only turns arguments into a level,
the saves and a mode (the full screen or the line mode) and starts it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from rushhour.cli.core import (
    BOARD_HELP,
    add_color_flags,
    add_move_seconds,
    color_wanted,
    examples,
    move_seconds,
    option_count_or_zero,
    refuse,
)
from rushhour.cli.documents import emit
from rushhour.errors import BoardNotFoundError, GameError
from rushhour.files import keys_from_terminal
from rushhour.levels import Pack, Shelf, pack, reads_stdin, shelf
from rushhour.numbers import whole_or_none
from rushhour.play.level import Level, choose_level, daily_level
from rushhour.play.saves import LevelRecord, Saves, level_key, open_saves, read_saves
from rushhour.play.words import clock_text
from rushhour.render.palette import color_depth
from rushhour.search.timed import DEFAULT_CAR_SECONDS, DEFAULT_TRUCK_SECONDS, TimeModel
from rushhour.text import plural


def _warn(text: str) -> None:
    print(text, file=sys.stderr)


def full_screen_wanted(args: argparse.Namespace) -> bool:
    """Full screen when both stdin and stdout are terminals that can show it, unless ``--plain`` asks
    for lines.  A terminal whose TERM cannot show it (unset, no terminfo entry, no cursor motion) gets
    the line mode with a note on stderr that says why."""
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    from rushhour.play import tui

    problem = tui.unusable_reason()
    if problem is not None:
        _warn(f"note: {problem}; playing in the line mode (--plain chooses it without this note)")
        return False
    return True


def play_full_screen(
    level: Level, saves: Saves, args: argparse.Namespace, timed: TimeModel | None, note: str | None
) -> int:
    import time

    from rushhour.play import tui
    from rushhour.play.controller import Controller
    from rushhour.play.sources import optimal_plan, oracle_moves
    from rushhour.play.worker import worker_for

    controller = Controller(
        level,
        saves=saves,
        legal_moves=oracle_moves,
        solver=optimal_plan,
        now=time.monotonic,
        timed=timed,
        worker=worker_for(optimal_plan),
        menu_shelf=shelf,
    )
    if not saves.saving and not args.no_save:  # the file could not be read: said before the screen opened
        unsaved = "Progress is not saved in this session: the progress file cannot be read."
        controller.session.unsaved_reason = unsaved
        note = f"{note} ({unsaved})" if note else unsaved
    if note:
        controller.message = note
    return tui.play(controller, color=color_wanted(args))


def time_model(args: argparse.Namespace) -> TimeModel | None:
    """The clock of ``--timed`` with its speeds, or None."""
    if args.timed:
        return TimeModel.one_hand(
            car_seconds=move_seconds(args.car_seconds, "--car-seconds", DEFAULT_CAR_SECONDS),
            truck_seconds=move_seconds(args.truck_seconds, "--truck-seconds", DEFAULT_TRUCK_SECONDS),
        )
    if args.car_seconds is not None or args.truck_seconds is not None:
        refuse("--car-seconds and --truck-seconds go with --timed")
    return None


def cmd_play(args: argparse.Namespace) -> int:
    import colorama

    colorama.just_fix_windows_console()
    saves = open_saves(args.no_save, _warn)
    if args.daily:
        if args.board is not None or args.pack is not None or args.level is not None:
            raise BoardNotFoundError("--daily plays the puzzle of the day: give no BOARD, --pack or --level")
        level, note = daily_level(), None
    else:
        level, note = choose_level(args.board, args.pack, args.level, saves)
        if args.board is not None and reads_stdin(args.board) and not keys_from_terminal():
            raise GameError("the board came on standard input, and there is no terminal for the keys")
    timed = time_model(args)
    if full_screen_wanted(args):
        return play_full_screen(level, saves, args, timed, note)
    if note:
        print(note)
    from rushhour.play.line import LineMode

    mode = LineMode(
        saves,
        color=color_wanted(args),
        echo=not sys.stdin.isatty(),
        timed=timed,
        depth=color_depth(os.environ),
    )
    return mode.run(level)


# --- levels --------------------------------------------------------------------------------------
def record_fields(record: LevelRecord | None) -> dict[str, Any]:
    """What ``levels`` shows of a level's record: solved, the best win and the help it had."""
    return {
        "solved": bool(record and record.solved),
        "best": record.best if record else None,
        "perfect": bool(record and record.perfect),
        "hints": record.hints if record else None,
        "solution_seen": bool(record and record.solution_seen),
        "best_seconds": record.best_seconds if record else None,
        "left_moves": len(record.left_moves) if record and record.left_moves else None,
    }


def level_rows(p: Pack, saves: Saves) -> list[dict[str, Any]]:
    rows = []
    for number, entry in enumerate(p.levels, start=1):
        record = saves.get(level_key(entry.board, p.name, number), entry.board)
        moves = entry.meta.get("moves", "")
        rows.append(
            {
                "level": f"{p.name}:{number}",
                "name": entry.meta.get("name", ""),
                "size": f"{entry.board.width}x{entry.board.height}",
                "optimal": whole_or_none(moves),
                **record_fields(record),
            }
        )
    return rows


def daily_rows(saves: Saves) -> list[dict[str, Any]]:
    """The daily puzzles the progress file has, oldest first."""
    return [
        {"level": key, **record_fields(record)}
        for key, record in sorted(saves.levels.items())
        if key.startswith("daily:")
    ]


def state_text(row: dict[str, Any]) -> str:
    """``solved in 12, perfect, best 0:42``, ``solved in 14 (2 hints, solution seen)``, ``left at 3
    moves`` or ``-``."""
    left = f"left at {plural(row['left_moves'], 'move')}" if row["left_moves"] else ""
    if not row["solved"]:
        return left or "-"
    help_used = []
    if row["hints"]:
        help_used.append(plural(row["hints"], "hint"))
    if row["solution_seen"]:
        help_used.append("solution seen")
    text = f"solved in {row['best']}" + (", perfect" if row["perfect"] else "")
    if row["best_seconds"] is not None:
        text += f", best {clock_text(row['best_seconds'])}"
    text += f" ({', '.join(help_used)})" if help_used else ""
    return f"{text}; {left}" if left else text


def cmd_levels(args: argparse.Namespace) -> int:
    saves = read_saves(_warn, unread="; the levels are listed without progress")
    chosen, left_out = shelf() if not args.pack else Shelf((pack(args.pack),))
    for left in left_out:
        _warn(f"left out: {left.why}")
    daily = [] if args.pack else daily_rows(saves)
    if args.json:
        data = [{"pack": p.name, "title": p.title, "levels": level_rows(p, saves)} for p in chosen]
        if daily:
            data.append({"pack": "daily", "title": "Daily puzzles", "levels": daily})
        emit("levels", {"packs": data})
        return 0
    tally = [(p, level_rows(p, saves)) for p in chosen]
    if not args.summary:
        for index, (p, rows) in enumerate(tally):
            if index:
                print()
            print(f"{p.title} ({p.name}): {counts_text(rows)}")
            if p.description:
                print(f"  {p.description}")
            for r in rows:
                optimal = plural(r["optimal"], "move") if r["optimal"] is not None else "? moves"
                print(f"  {r['level']:<16} {r['name']:<18} {r['size']:>5}  {optimal:>9}   {state_text(r)}")
        if daily:
            print()
            print(f"Daily puzzles: {len(daily)} played")
            for r in daily:
                print(f"  {r['level']:<16} {state_text(r)}")
        print()
    print("Summary:")
    for p, rows in tally:
        print(f"  {p.name:<14} {counts_text(rows)}")
    if len(tally) > 1:
        print(f"  {'all packs':<14} {counts_text([r for _, rows in tally for r in rows])}")
    return 0


def counts_text(rows: list[dict[str, Any]]) -> str:
    """``3 of 40 levels solved, 1 perfect, 2 left to continue``."""
    solved = sum(r["solved"] for r in rows)
    perfect = sum(r["perfect"] for r in rows)
    left = sum(bool(r["left_moves"]) for r in rows)
    text = f"{solved} of {plural(len(rows), 'level')} solved, {perfect} perfect"
    return text + (f", {left} left to continue" if left else "")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a level in the terminal",
        description=(
            "Play Rush Hour in the terminal.  With no BOARD: the first unsolved built-in level.  "
            "In a terminal the game is full screen (keys and mouse; ? lists the keys); with --plain, "
            "or when input or output is not a terminal, moves are typed (A+2, B-1) or picked by number."
        ),
        epilog=examples(
            "rushhour play                       # the first unsolved built-in level",
            "rushhour play classic:7 --plain     # typed moves, even in a terminal",
            "rushhour play --pack beginner --level 3 --no-save",
            "rushhour play --daily --timed       # the puzzle of the day, with a clock",
        ),
    )
    p.add_argument(
        "board", nargs="?", metavar="BOARD", help=BOARD_HELP + ", a pack (classic) or a level's name"
    )
    p.add_argument("--pack", metavar="PACK", help="play this built-in pack (its first unsolved level)")
    p.add_argument("--level", type=option_count_or_zero, metavar="N", help="level N of the pack or file")
    p.add_argument("--no-save", action="store_true", help="neither read nor write the progress file")
    p.add_argument("--daily", action="store_true", help="play the puzzle of the day (the same for everyone)")
    p.add_argument("--plain", action="store_true", help="play by typed lines, even in a terminal")
    p.add_argument("--timed", action="store_true", help="show a clock of the time your moves would take")
    add_move_seconds(p)
    add_color_flags(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "levels",
        help="list the built-in packs, yours, and their levels with your progress",
        description="List the built-in packs, then yours, and their levels, with the progress saved by "
        "`play`.  A file of your packs folder that cannot be read as a pack is named on stderr with why.",
        epilog=examples("rushhour levels", "rushhour levels --summary", "rushhour levels classic --json"),
    )
    p.add_argument("pack", nargs="?", metavar="PACK", help="only this pack")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--summary", action="store_true", help="only the line of each pack: solved, perfect, of how many"
    )
    p.set_defaults(func=cmd_levels)
