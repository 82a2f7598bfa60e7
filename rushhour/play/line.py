"""The line mode: the game by typed lines, for pipes, scripts and terminals without a full screen.

A move is typed (``A+2``) or picked by its number in the list of legal moves; commands are words
(``u``, ``h``, ``s``, ``q``...).  What a win or a level left unsolved records is the shared
:class:`~rushhour.play.session.Session`'s business, as in the full screen.
"""

from __future__ import annotations

import contextlib
import sys
import textwrap
import time
from collections.abc import Callable, Sequence

from colorama import Fore, Style

from rushhour.board import Board, Move
from rushhour.errors import RushHourError
from rushhour.numbers import is_whole
from rushhour.play.game import Game, MoveSource, Solver
from rushhour.play.level import Level, next_level
from rushhour.play.logic_view import logic_view, ready_oracle
from rushhour.play.saves import Saves
from rushhour.play.session import Session, Signalled, leave_on_signals
from rushhour.play.sources import SOLVER_SECONDS, optimal_plan, oracle_moves, oracle_ready, wait_for_oracle
from rushhour.play.words import NO_WIN, describe, goal_text, optimal_text, status_parts, time_line, win_lines
from rushhour.play.worker import Worker, worker_for
from rushhour.render.palette import BASIC, Colour, vehicle_colors
from rushhour.render.text import board_summary, render
from rushhour.search.timed import TimeModel, clock, clock_report, format_seconds
from rushhour.text import plural

OPTIONS_WIDTH = 78
#: how long the first drawing of a level waits for its optimum before it is left to search beside
OPTIMUM_GRACE = 0.3
#: how long ``l`` (the logic) waits for the SAT oracle of a new shape to be compiled
ORACLE_WAIT = 30.0

HELP = """\
Type a move as a vehicle and a signed distance (A+2 slides A two cells right or down, B-1 one cell
left or up), or the number of one of the listed moves.  Commands:
  u  undo        take back the last move        r  redo      play again a move taken back
  h  hint        the next move of an optimal solution from here
  s  solve       show the rest of an optimal solution, move by move (the board stays as it is)
  reset          back to the start (r replays the moves)
  l  logic       the SAT oracle's words: why the last move was refused (its unsatisfiable cores),
                 else the goal vehicle's propositions; l B shows vehicle B's
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
    "l": "logic",
    "logic": "logic",
    "": "show",
}


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
    """Moves, steps, the optimum (``optimal ...`` while it is searched for) and hints, then ``extra``."""
    return " | ".join([*status_parts(game, optimal_text(game, ask=False)), *extra])


def _write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _read_stdin(prompt: str) -> str:
    """A typed line, after ``prompt`` on the standard output.  (``input(prompt)`` writes the prompt
    to stderr when both ends are a terminal and Python's readline is not loaded: `2>/dev/null` hid
    the question.)"""
    _write_stdout(prompt)
    return input()


# --- the session -----------------------------------------------------------------------------------
class Quit(Exception):
    """The player asked to leave."""


class LineMode:
    """The game loop by lines: reads lines with ``read``, writes text with ``write``."""

    def __init__(
        self,
        saves: Saves,
        *,
        color: bool,
        legal_moves: MoveSource | None = None,
        solver: Solver | None = None,
        read: Callable[[str], str] = _read_stdin,
        write: Callable[[str], None] | None = None,
        echo: bool = False,
        timed: TimeModel | None = None,
        depth: int = BASIC,
        worker: Worker | None = None,
    ) -> None:
        solver = solver or optimal_plan
        self.session = Session(
            saves, legal_moves=legal_moves or oracle_moves, solver=solver, worker=worker or worker_for(solver)
        )
        self.timed = timed  # with --timed: a clock of the time the moves would take
        self.color = color
        self.depth = depth  # the terminal's colour depth (16, 256 or true colour)
        self.colors: dict[str, Colour] | None = None  # the level's vehicle colours, from its start
        self._read = read
        self._write = write or _write_stdout
        self.echo = echo
        self.started = time.monotonic()  # when the level being played was started
        self.refused: tuple[Board, Move] | None = None  # the last refused slide and its position

    # small helpers
    def say(self, text: str = "") -> None:
        self._write(text + "\n")

    def reset_colour(self) -> None:
        """The terminal's colours as they were: a drawing cut off by Ctrl-C or a signal stops in the
        middle of a coloured cell, and what follows would be written in its colour."""
        if self.color:
            self._write(Style.RESET_ALL)

    def ask(self, prompt: str) -> str:
        line = self._read(prompt)
        if self.echo:  # what was typed, its control characters shown rather than sent to the terminal
            self._write("".join(c if c.isprintable() else repr(c)[1:-1] for c in line) + "\n")
        return line

    def styled(self, text: str, style: str) -> str:
        return style + text + Style.RESET_ALL if self.color else text

    def render(self, board: Board, highlight: str | None) -> str:
        """A position of the level, each vehicle in the colour it had at the start."""
        return render(
            board, color=self.color, highlight=highlight, depth=self.depth, colors=self.colors, labels=True
        )

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
        self.poll()
        self.say(status_line(game, clock_part))

    def show_options(self, game: Game) -> None:
        options = game.options()
        if not options:
            self.say("no legal moves here" + (": undo or reset" if game.can_undo else ""))
            return
        self.say("legal moves:")
        for line in format_options(options):
            self.say(line)

    def clock_report(self, game: Game) -> str:
        """The clock of the moves against the fastest solution, searched for by the worker."""
        model = self.timed
        assert model is not None
        start, history = game.start, game.history

        def report(board: Board) -> str:
            return clock_report(start, history, model, time_limit=SOLVER_SECONDS)

        worker = self.session.worker
        worker.start(start, "clock", report)
        done = worker.wait()
        if done is None or done.error is not None:
            return f"Clock: {format_seconds(clock(start, history, model))} s."
        return str(done.value)

    def seconds(self) -> float:
        """The level's time so far: since it was started (or continued, with the time it had)."""
        return time.monotonic() - self.started

    def poll(self) -> None:
        """Take what a search beside the game found, without waiting."""
        done = self.session.worker.poll()
        if done is not None:
            self.session.take(done)
            self.session.resume_optimum()

    def plan_here(self, purpose: str) -> bool:
        """Make sure an optimal plan from the position is known (searching for it, the player told);
        False when the search gave up (said)."""
        if self.session.game.knows(self.session.game.position):
            return True
        self.say("thinking...")
        done = self.session.plan_now(purpose)
        self.session.resume_optimum()
        if done is not None and done.error is not None:
            self.say(f"no {purpose}: {done.error}")
            return False
        return True

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
            self.reset_colour()
            return 128 + sig.signum
        except Quit:
            self.say("bye")
        except EOFError:
            self.say()
            self.say("bye")
        except KeyboardInterrupt:
            self.reset_colour()
            self.say()
            self.say("bye")
            return 130
        finally:
            self.session.close()
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
        game = self.session.start(level)
        self.started = time.monotonic() - self.session.resumed_seconds
        if self.session.resume_note:
            self.say(f"{self.session.resume_note}; reset starts again")
        if self.session.first_run:
            about = (
                f"Goal: {goal_text(level.board)}.  Type a move as a vehicle and a distance (A+2 slides "
                "A two cells right or down, B-1 one cell left or up) or the number of a listed move; "
                "? for help."
            )
            self.say("\n".join(textwrap.wrap(about, OPTIONS_WIDTH)))
        if self.session.resume_optimum():  # a quick search is waited for, a long one runs beside
            done = self.session.worker.wait(OPTIMUM_GRACE)
            if done is not None:
                self.session.take(done)
        try:
            return self._play(game, level)
        finally:
            warning = self.session.leave(self.seconds())
            if warning:
                with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
                    self.say(warning)

    def _play(self, game: Game, level: Level) -> bool:
        # chosen once from the start, so that a vehicle keeps its colour wherever it moves
        self.colors = vehicle_colors(level.board, self.depth) if self.color else None
        self.draw(game, level, first=True)
        if game.won:
            self.say(f"{level.board.goal} already stands at the exit: nothing to play.")
            return False
        self.show_options(game)
        while True:
            warning = self.session.keep_position(self.seconds())  # a killed process loses nothing
            if warning:
                self.say(warning)
            line = self.ask("your move (A+2, a number, or ? for help)> ")
            word = line.strip().lower()
            first, _, rest = line.strip().partition(" ")
            if COMMANDS.get(first.lower()) == "logic":
                self.show_logic(game, rest.strip() or None)
                continue
            if word in COMMANDS:
                if self.command(COMMANDS[word], game, level):
                    self.draw(game, level)
                    self.show_options(game)
                continue
            try:
                move = game.resolve(line)
            except RushHourError as err:
                self.say(f"{err} (? for help)")
                continue
            try:
                made = game.slide(move)  # a slide of the vehicle moved last joins that move
            except RushHourError as err:
                self.refused = (game.position, move)
                self.say(f"{err} (l: why, in the logic's words; ? for help)")
                continue
            if is_whole(line.strip()):  # a number picked from the list: say which move it was
                self.say(f"played {line.strip()}) {move}")
            if made is None:
                self.say(f"{move.vehicle} is back where it was: its move is taken away")
            elif made != move:
                self.say(f"{move} joins the move before: {made}")
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
                if not self.plan_here("hint"):
                    return False
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

    def show_logic(self, game: Game, name: str | None) -> None:
        """The logic view of the full screen, as lines: the last refused slide's cores (while the
        position is the one it was refused in), then vehicle ``name``'s propositions (the goal
        vehicle's when none is named)."""
        board = game.position
        refused = self.refused[1] if self.refused is not None and self.refused[0] == board else None
        try:
            shown = board.layout.vehicle_name(name) if name is not None else None
        except RushHourError as err:
            self.say(f"{err} (l B shows vehicle B)")
            return
        if shown is None and refused is None:
            shown = board.goal
        if not oracle_ready(board):
            self.say("compiling the rules of this board's shape (once a shape)...")
            if not wait_for_oracle(board, ORACLE_WAIT):
                self.say(f"not ready after {ORACLE_WAIT:g} s: ask again in a moment")
                return
        view = logic_view(board, shown, refused, None, ready_oracle(board))
        self.say("Logic, from the SAT oracle (T true, F false in the position's model):")
        for line in view.text()[1:]:  # below the full screen's title; no marks on this board
            line = line.replace(" (cells marked ! on the board)", "")
            self.say("\n".join(textwrap.wrap(line, OPTIONS_WIDTH, subsequent_indent="    ")))

    def show_solution(self, game: Game) -> bool:
        """Show the rest of an optimal solution; True when the board should be drawn again."""
        if not self.plan_here("solution"):
            return False
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
        if game.optimal_pending:
            self.say("finding the optimum to compare...")
            self.session.optimum_now()
        seconds = self.seconds()
        result, note = self.session.win(seconds)
        self.say()
        self.say(self.styled("*** SOLVED ***", Fore.GREEN + Style.BRIGHT))
        for k, line in enumerate(win_lines(result)):
            self.say(self.styled(line, Fore.GREEN + Style.BRIGHT) if k == 1 and result.perfect else line)
        self.say(time_line(seconds, self.session.best_seconds))
        if self.timed is not None:
            self.say(self.clock_report(game))
        if note:
            self.say(note)


__all__ = ["COMMANDS", "HELP", "LineMode", "Quit", "format_options", "status_line"]
