"""``play`` and ``levels``: the game in the terminal, and the packs with the player's progress.

The game itself is :class:`rushhour.game.Game`; this module reads the player's lines, draws the board
and keeps the progress file.  The legal moves come from the SAT move oracle and hints from the solver.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from colorama import Fore, Style

from rushhour import levels
from rushhour.board import Board, Move
from rushhour.cli.core import (
    BOARD_HELP,
    add_color_flags,
    board_summary,
    color_wanted,
    examples,
    option_count_or_zero,
)
from rushhour.cli.documents import emit
from rushhour.controller import (
    NO_WIN,
    Controller,
    Level,
    Signalled,
    describe,
    leave_on_signals,
    next_level,
    pack_level,
    record_win,
    status_parts,
    win_lines,
)
from rushhour.errors import BoardNotFoundError, RushHourError, SaveFileError
from rushhour.game import Game, MoveSource, Solver
from rushhour.levels import Pack, pack, packs, resolve_all
from rushhour.numbers import is_whole, whole_or_none
from rushhour.progress import LevelRecord, Progress, default_path, level_key
from rushhour.render.palette import BASIC, Colour, color_depth, vehicle_colors
from rushhour.render.text import render
from rushhour.search.timed import (
    DEFAULT_CAR_SECONDS,
    DEFAULT_TRUCK_SECONDS,
    TimeModel,
    clock,
    clock_report,
    format_seconds,
)
from rushhour.text import plural

#: how long a hint, a solution or the optimal count may search before giving up
SOLVER_SECONDS = 60.0
OPTIONS_WIDTH = 78

HELP = """\
Type a move as a vehicle and a signed distance (A+2 slides A two cells right or down, B-1 one cell
left or up), or the number of one of the listed moves.  Commands:
  u  undo        take back the last move        r  redo      play again a move taken back
  h  hint        the next move of an optimal solution from here
  s  solve       show the rest of an optimal solution, move by move (the board stays as it is)
  reset          back to the start (r replays the moves)
  ?  help        this text                      q  quit      leave (also Ctrl-D or Ctrl-C)
"""

COMMANDS = {
    "u": "undo",
    "undo": "undo",
    "r": "redo",
    "redo": "redo",
    "reset": "reset",
    "h": "hint",
    "hint": "hint",
    "s": "solve",
    "solve": "solve",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
    "?": "help",
    "help": "help",
    "": "show",
}


# --- the real move source and solver -------------------------------------------------------------
def oracle_moves(board: Board) -> list[Move]:
    """The legal moves of a position, from the SAT move oracle."""
    from rushhour.logic.oracle import legal_moves

    return legal_moves(board, "moves")


def optimal_plan(board: Board) -> list[Move] | None:
    """An optimal solution from ``board`` (None when it cannot be solved), by the solver."""
    from rushhour.search import solve

    solution = solve(board, time_limit=SOLVER_SECONDS)
    return list(solution.moves) if solution.solved else None


# --- levels and where play starts -----------------------------------------------------------------
def _play_level(found: levels.Level | None) -> Level | None:
    """The level to play for a built-in level that :mod:`rushhour.levels` found."""
    return None if found is None else pack_level(pack(found.pack), found.number)


def choose_level(
    board: str | None, pack_name: str | None, number: int | None, progress: Progress
) -> tuple[Level, str | None]:
    """The level to start with, and a note for the player (or None)."""
    if board is not None and pack_name is not None:
        raise BoardNotFoundError("give either a BOARD or --pack, not both")
    if number is not None and number < 1:
        raise BoardNotFoundError(f"levels are numbered from 1, not {number}")
    if board is not None:
        if any(p.name == board for p in packs()):
            pack_name = board
        else:
            entries = resolve_all(board)
            if number is not None:
                if number > len(entries):
                    raise BoardNotFoundError(f"{board} holds boards 1 to {len(entries)}, not {number}")
                index = number - 1
            else:
                index = 0
            found = _play_level(levels.built_in_level(entries[index])) if len(entries) == 1 else None
            if found is not None:
                return found, None
            if len(entries) == 1 and entries[0].label.startswith("daily:"):  # `play daily:2026-11-23`
                return Level(entries[0], key_override=entries[0].label), None
            return Level(entries[index], None, index + 1, len(entries), tuple(entries)), None
    if pack_name is not None:
        chosen = pack(pack_name)
        if number is not None:
            return pack_level(chosen, number), None
        first = _play_level(levels.first_unsolved_in(progress, chosen.name))
        if first is None:
            return pack_level(chosen, 1), f"every level of {chosen.name} is solved: starting again at level 1"
        return first, None
    all_packs = packs()
    if not all_packs or not all_packs[0].levels:
        raise BoardNotFoundError("there are no built-in levels")
    if number is not None:
        return pack_level(all_packs[0], number), None
    unsolved = _play_level(levels.first_unsolved(progress))
    if unsolved is None:
        return pack_level(all_packs[0], 1), "every built-in level is solved: starting again at the first"
    return unsolved, None


# --- drawing ---------------------------------------------------------------------------------------
def format_options(options: Sequence[Move], width: int = OPTIONS_WIDTH) -> list[str]:
    """The numbered legal moves in columns."""
    if not options:
        return ["no legal moves here"]
    cells = [f"{k:>2}) {move}" for k, move in enumerate(options, start=1)]
    cell_width = max(len(c) for c in cells) + 3
    per_line = max(1, (width - 2) // cell_width)
    lines = []
    for start in range(0, len(cells), per_line):
        row = cells[start : start + per_line]
        lines.append("  " + "".join(c.ljust(cell_width) for c in row).rstrip())
    return lines


def status_line(game: Game, extra: Sequence[str] = ()) -> str:
    return " | ".join([*status_parts(game), *extra])


def _write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


# --- the session -----------------------------------------------------------------------------------
class Quit(Exception):
    """The player asked to leave."""


class PlaySession:
    """The game loop: reads lines with ``read``, writes text with ``write``."""

    def __init__(
        self,
        progress: Progress,
        *,
        color: bool,
        legal_moves: MoveSource | None = None,
        solver: Solver | None = None,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] | None = None,
        echo: bool = False,
        timed: TimeModel | None = None,
        depth: int = BASIC,
    ) -> None:
        self.progress = progress
        self.timed = timed  # with --timed: a clock of the time the moves would take
        self.color = color
        self.depth = depth  # the terminal's colour depth (16, 256 or true colour)
        self.colors: dict[str, Colour] | None = None  # the level's vehicle colours, from its start
        self.legal_moves = legal_moves or oracle_moves
        self.solver = solver or optimal_plan
        self._read = read
        self._write = write or _write_stdout
        self.echo = echo

    # small helpers
    def say(self, text: str = "") -> None:
        self._write(text + "\n")

    def ask(self, prompt: str) -> str:
        line = self._read(prompt)
        if self.echo:
            self._write(line + "\n")
        return line

    def styled(self, text: str, style: str) -> str:
        return style + text + Style.RESET_ALL if self.color else text

    def render(self, board: Board, highlight: str | None) -> str:
        """A position of the level, each vehicle in the colour it had at the start."""
        return render(board, color=self.color, highlight=highlight, depth=self.depth, colors=self.colors)

    def draw(self, game: Game, level: Level, highlight: str | None = None, *, first: bool = False) -> None:
        self.say()
        about = f": {board_summary(level.board)}" if first else ""
        self.say(self.styled(level.title, Style.BRIGHT) + about)
        self.say(self.render(game.position, highlight))
        clock_part = (
            []
            if self.timed is None
            else [f"clock {format_seconds(clock(game.start, game.history, self.timed))} s"]
        )
        self.say(status_line(game, clock_part))

    def show_options(self, game: Game) -> None:
        options = game.options()
        if not options:
            self.say("no legal moves here" + (": undo or reset" if game.can_undo else ""))
            return
        self.say("legal moves:")
        for line in format_options(options):
            self.say(line)

    # the loop
    def run(self, level: Level) -> int:
        """Play from ``level`` on until the player leaves; the exit status (130 after Ctrl-C, 128 + the
        signal's number after SIGTERM or SIGHUP)."""
        current: Level | None = level
        try:
            with leave_on_signals():
                while current is not None:
                    won = self.play_level(current)
                    if not won:
                        return 0
                    current = self.offer_next(current)
        except Signalled as sig:
            return 128 + sig.signum
        except Quit:
            self.say("bye")
        except EOFError:
            self.say()
            self.say("bye")
        except KeyboardInterrupt:
            self.say()
            self.say("bye")
            return 130
        return 0

    def offer_next(self, level: Level) -> Level | None:
        following = next_level(level)
        if following is None:
            self.say("That was the last level here. Well done!")
            return None
        optimal = following.known_optimal
        about = f", {plural(optimal, 'move')}" if optimal is not None else ""
        while True:
            answer = self.ask(f"Next level: {following.title}{about}. Play it? [Y/n] ").strip().lower()
            if answer in ("", "y", "yes"):
                return following
            if answer in ("n", "no", "q", "quit"):
                return None
            self.say("please answer y or n")

    def play_level(self, level: Level) -> bool:
        """Play one level; True when it was won.  A level left unsolved after help (by ``q``, the end of
        input, Ctrl-C, SIGTERM or SIGHUP) is remembered with that help, which its next win counts."""
        game = Game(
            level.board,
            legal_moves=self.legal_moves,
            solver=self.solver,
            optimal=level.known_optimal,
            help_before=self.progress.help_before(level.key, level.board),
        )
        try:
            return self._play(game, level)
        finally:
            if not game.won:
                self.save_help(game, level)

    def save_help(self, game: Game, level: Level) -> None:
        """Remember the hints and the solution a level left unsolved had."""
        if not (game.hints_used or game.solutions_shown) or not self.progress.saving:
            return
        try:
            self.progress.record_attempt(
                level.key, level.board, hints=game.hints_used, solution_seen=game.solutions_shown > 0
            )
        except SaveFileError as err:
            with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
                self.say(f"warning: {err}")

    def _play(self, game: Game, level: Level) -> bool:
        # chosen once from the start, so that a vehicle keeps its colour wherever it moves
        self.colors = vehicle_colors(level.board, self.depth) if self.color else None
        self.draw(game, level, first=True)
        if game.won:
            self.say(f"{level.board.goal} already stands at the exit: nothing to play.")
            return False
        self.show_options(game)
        while True:
            line = self.ask("your move (A+2, a number, or ? for help)> ")
            word = line.strip().lower()
            if word in COMMANDS:
                if self.command(COMMANDS[word], game, level):
                    self.draw(game, level)
                    self.show_options(game)
                continue
            try:
                move = game.resolve(line)
                game.play(move)
            except RushHourError as err:
                self.say(f"{err} (? for help)")
                continue
            if is_whole(line.strip()):  # a number picked from the list: say which move it was
                self.say(f"played {line.strip()}) {move}")
            self.draw(game, level, highlight=move.vehicle)
            if game.won:
                self.win(game, level)
                return True
            self.show_options(game)

    def command(self, name: str, game: Game, level: Level) -> bool:
        """Run a command; True when the board should be drawn again."""
        if name == "quit":
            raise Quit
        if name == "help":
            self.say(HELP.rstrip())
            return False
        if name == "show":
            return True
        try:
            if name == "undo":
                self.say(f"undid {game.undo()}")
                return True
            if name == "redo":
                self.say(f"redid {game.redo()}")
                return True
            if name == "reset":
                count = game.reset()
                self.say(f"back to the start ({plural(count, 'move')} taken back; r replays)")
                return True
            if name == "hint":
                self.say("thinking...")
                hint = game.hint()
                if hint is None:
                    self.say(NO_WIN)
                else:
                    number = game.options().index(hint) + 1 if hint in game.options() else None
                    which = f" (option {number})" if number is not None else ""
                    self.say(f"hint: {describe(game.position, hint)}{which}")
                return False
            if name == "solve":
                return self.show_solution(game)
        except RushHourError as err:
            self.say(str(err))
        return False

    def show_solution(self, game: Game) -> bool:
        """Show the rest of an optimal solution; True when the board should be drawn again."""
        self.say("thinking...")
        steps = game.solution()
        if steps is None:
            self.say(NO_WIN)
            return False
        self.say(f"An optimal solution from here, {plural(len(steps), 'move')}:")
        self.say("  " + " ".join(str(move) for move, _ in steps))
        before = game.position
        for k, (move, after) in enumerate(steps, start=1):
            self.say()
            self.say(f"{k}. {describe(before, move)}")
            self.say(self.render(after, move.vehicle))
            before = after
        self.say()
        self.say("That was the solution; the board is back where you left it: play on.")
        return True

    def win(self, game: Game, level: Level) -> None:
        with contextlib.suppress(RushHourError):
            game.optimal()  # asked of the solver when not known, or when this win disproves it
        result = game.result()
        self.say()
        self.say(self.styled("*** SOLVED ***", Fore.GREEN + Style.BRIGHT))
        for k, line in enumerate(win_lines(result)):
            self.say(self.styled(line, Fore.GREEN + Style.BRIGHT) if k == 1 and result.perfect else line)
        if self.timed is not None:
            self.say(clock_report(game.start, game.history, self.timed, time_limit=SOLVER_SECONDS))
        if not self.progress.saving:
            return
        try:
            record_win(self.progress, level, result)
            self.say("progress saved")
        except SaveFileError as err:
            self.say(f"warning: {err}")


def open_progress(no_save: bool) -> Progress:
    """The player's progress file, or in-memory progress with ``--no-save`` or when it cannot be read."""
    if no_save:
        return Progress.memory()
    try:
        return Progress.load()
    except SaveFileError as err:
        print(f"warning: {err}", file=sys.stderr)
        if err.moved_to is not None:
            return Progress(default_path())
        print("warning: progress will not be saved in this session", file=sys.stderr)
        return Progress.memory()


def oracle_explain(board: Board, move: Move) -> str:
    """Why the SAT oracle refuses a move: the reason read from its unsatisfiable core."""
    from rushhour.logic.oracle import oracle_for

    return oracle_for(board).explain(board, move).reason


def daily_level() -> Level:
    """The puzzle of the day, known to the progress file by its date."""
    from datetime import date

    from rushhour.levels import daily

    puzzle = daily(date.today())
    return Level(puzzle.entry, key_override=puzzle.key)


def full_screen_wanted(args: argparse.Namespace) -> bool:
    """Full screen when both stdin and stdout are terminals that can show it, unless ``--plain`` asks
    for lines."""
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    from rushhour import tui

    return tui.usable()


def play_full_screen(
    level: Level, progress: Progress, args: argparse.Namespace, timed: TimeModel | None, note: str | None
) -> int:
    import time

    from rushhour import tui

    controller = Controller(
        level,
        progress=progress,
        legal_moves=oracle_moves,
        solver=optimal_plan,
        explain=oracle_explain,
        now=time.monotonic,
        timed=timed,
    )
    if not progress.saving and not args.no_save:  # the file could not be read: said before the screen opened
        controller.unsaved_reason = "Progress is not saved in this session: the progress file cannot be read."
        note = f"{note} ({controller.unsaved_reason})" if note else controller.unsaved_reason
    if note:
        controller.message = note
    try:
        status = tui.run(controller, color=color_wanted(args))
    except RushHourError:
        raise
    except Exception as err:  # the terminal is restored by now: report the error on one line
        print(f"error: unexpected {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    if controller.save_note.startswith("warning: "):  # the last win could not be saved: say it again
        print(controller.save_note, file=sys.stderr)
    return status


def cmd_play(args: argparse.Namespace) -> int:
    import colorama

    colorama.just_fix_windows_console()
    progress = open_progress(args.no_save)
    if args.daily:
        if args.board is not None or args.pack is not None or args.level is not None:
            raise BoardNotFoundError("--daily plays the puzzle of the day: give no BOARD, --pack or --level")
        level, note = daily_level(), None
    else:
        level, note = choose_level(args.board, args.pack, args.level, progress)
    timed = None
    if args.timed:
        timed = TimeModel.one_hand(
            car_seconds=args.car_seconds or DEFAULT_CAR_SECONDS,
            truck_seconds=args.truck_seconds or DEFAULT_TRUCK_SECONDS,
        )
    elif args.car_seconds is not None or args.truck_seconds is not None:
        raise RushHourError("--car-seconds and --truck-seconds go with --timed")
    if full_screen_wanted(args):
        return play_full_screen(level, progress, args, timed, note)
    if note:
        print(note)
    session = PlaySession(
        progress,
        color=color_wanted(args),
        echo=not sys.stdin.isatty(),
        timed=timed,
        depth=color_depth(os.environ),
    )
    return session.run(level)


# --- levels --------------------------------------------------------------------------------------
def record_fields(record: LevelRecord | None) -> dict[str, Any]:
    """What ``levels`` shows of a level's record: solved, the best win and the help it had."""
    return {
        "solved": bool(record and record.solved),
        "best": record.best if record else None,
        "perfect": bool(record and record.perfect),
        "hints": record.hints if record else None,
        "solution_seen": bool(record and record.solution_seen),
    }


def level_rows(p: Pack, progress: Progress) -> list[dict[str, Any]]:
    rows = []
    for number, entry in enumerate(p.levels, start=1):
        record = progress.get(level_key(entry.board, p.name, number), entry.board)
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


def daily_rows(progress: Progress) -> list[dict[str, Any]]:
    """The daily puzzles the progress file has, oldest first."""
    return [
        {"level": key, **record_fields(record)}
        for key, record in sorted(progress.levels.items())
        if key.startswith("daily:")
    ]


def state_text(row: dict[str, Any]) -> str:
    """``solved in 12, perfect``, ``solved in 14 (2 hints, solution seen)`` or ``-``."""
    if not row["solved"]:
        return "-"
    help_used = []
    if row["hints"]:
        help_used.append(plural(row["hints"], "hint"))
    if row["solution_seen"]:
        help_used.append("solution seen")
    text = f"solved in {row['best']}" + (", perfect" if row["perfect"] else "")
    return text + (f" ({', '.join(help_used)})" if help_used else "")


def read_progress() -> Progress:
    """The player's progress, only read: a file that cannot be read or is corrupt is reported and left
    as it is (never moved or changed), and the levels are listed without it."""
    try:
        return Progress.load(move_aside=False)
    except SaveFileError as err:
        print(f"warning: {err}; the levels are listed without progress", file=sys.stderr)
        return Progress.memory()


def cmd_levels(args: argparse.Namespace) -> int:
    progress = read_progress()
    chosen = [pack(args.pack)] if args.pack else list(packs())
    daily = [] if args.pack else daily_rows(progress)
    if args.json:
        data = [{"pack": p.name, "title": p.title, "levels": level_rows(p, progress)} for p in chosen]
        if daily:
            data.append({"pack": "daily", "title": "Daily puzzles", "levels": daily})
        emit("levels", {"packs": data})
        return 0
    for index, p in enumerate(chosen):
        rows = level_rows(p, progress)
        solved = sum(r["solved"] for r in rows)
        perfect = sum(r["perfect"] for r in rows)
        if index:
            print()
        print(f"{p.title} ({p.name}): {plural(len(rows), 'level')}, {solved} solved, {perfect} perfect")
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
    return 0


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
    p.add_argument(
        "--car-seconds",
        metavar="S",
        help=f"with --timed: seconds per cell for a car (default {DEFAULT_CAR_SECONDS})",
    )
    p.add_argument(
        "--truck-seconds",
        metavar="S",
        help=f"with --timed: per cell for a truck (default {DEFAULT_TRUCK_SECONDS})",
    )
    add_color_flags(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "levels",
        help="list the built-in packs and levels with your progress",
        description="List the built-in packs and their levels, with the progress saved by `play`.",
        epilog=examples("rushhour levels", "rushhour levels classic --json"),
    )
    p.add_argument("pack", nargs="?", metavar="PACK", help="only this pack")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_levels)
