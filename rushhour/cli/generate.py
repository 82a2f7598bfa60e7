"""``generate``: new verified puzzles, rewound from won positions (see :mod:`rushhour.generator`)."""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shlex
import sys
from collections.abc import Callable
from typing import Any, TextIO

from rushhour.cli.core import (
    add_format_option,
    examples,
    note_python_search,
    option_count,
    option_count_or_zero,
    option_jobs,
    option_range,
    option_seconds,
    refuse_given,
)
from rushhour.cli.documents import emit, generate_body
from rushhour.cli.progress_display import ProgressDisplay
from rushhour.errors import FormatError, RushHourError, WorkerError
from rushhour.files import check_file_target, write_text_atomic
from rushhour.formats import fogleman, grid, jsonfmt, write_board
from rushhour.generator import (
    DEFAULT_METHOD,
    DEFAULT_MIN_MOVES,
    MAX_SIDE,
    MAX_VEHICLES,
    METHODS,
    MIN_SIDE,
    Generator,
    Puzzle,
    Settings,
    Stats,
    TryResult,
    default_vehicles,
    from_database,
    max_walls,
)
from rushhour.numbers import whole_or_none
from rushhour.text import listed, plural, seconds_text

EXIT_OK, EXIT_SHORT, EXIT_INTERRUPTED = 0, 1, 130
TRIES_PER_PUZZLE = 1000
EXTENSIONS = {"grid": "txt", "fogleman": "txt", "csv": "csv", "json": "json"}
#: boards of this many cells or more (11x11, 12x12) make few puzzles of LARGE_OPEN_MOVES moves or more
#: without walls; with walls, targets past LARGE_WALLED_MOVES come slowly on 12x12 (docs/generator.md,
#: "Limits, measured")
LARGE_AREA = 121
LARGE_OPEN_MOVES = 15
LARGE_WALLED_MOVES = 20


def dimensions(text: str) -> tuple[int, int]:
    """The width and height of ``WIDTHxHEIGHT`` (any numbers: the caller bounds them)."""
    w, x, h = text.lower().partition("x")
    width, height = whole_or_none(w), whole_or_none(h)
    if not x or width is None or height is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write WIDTHxHEIGHT, like 6x6")
    return width, height


def _size(text: str) -> tuple[int, int]:
    width, height = dimensions(text)
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise argparse.ArgumentTypeError(
            f"{text} is out of range: sizes are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
        )
    return width, height


def register(sub: Any) -> None:
    p = sub.add_parser(
        "generate",
        help="make new verified puzzles",
        description=(
            "Make new puzzles: vehicles placed at random around a won position, then rewound to the "
            "position farthest from any win.  Every puzzle is solved before it is written (its optimal "
            "length goes into its header), no two share a reachable set (on open boards of more than "
            "81 cells, where short puzzles come from a climb by the solver, a position), and every "
            "vehicle matters.  The same --seed gives the same puzzles with any --jobs."
        ),
        epilog=examples(
            "rushhour generate --count 2 --min-moves 15 --seed 7       # grid text on stdout",
            "rushhour generate --size 5x5 --count 3 --min-moves 8 --format fogleman --seed 1",
            "rushhour generate --count 3 --min-moves 10 --walls 1 --seed 2 --out puzzles/",
        ),
    )
    p.add_argument("--size", type=_size, default=(6, 6), metavar="WxH", help="board size (default 6x6)")
    p.add_argument("--count", type=option_count, default=1, metavar="N", help="how many puzzles (default 1)")
    p.add_argument(
        "--min-moves",
        type=option_count,
        default=DEFAULT_MIN_MOVES,
        metavar="M",
        help=f"shortest (default {DEFAULT_MIN_MOVES})",
    )
    p.add_argument("--max-moves", type=option_count, metavar="M", help="longest optimal solution kept")
    p.add_argument(
        "--vehicles",
        type=option_range,
        metavar="A-B",
        help="vehicles per puzzle, the red car included (6x6: 8-14)",
    )
    p.add_argument(
        "--trucks", type=option_range, metavar="K", help="trucks (length 3) per puzzle, or a range"
    )
    p.add_argument(
        "--walls", type=option_range, default=(0, 0), metavar="K", help="walls per puzzle (default 0)"
    )
    p.add_argument(
        "--seed", type=option_count_or_zero, metavar="S", help="random seed (default: a fresh one, reported)"
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        type=str.lower,
        default=DEFAULT_METHOD,
        help="anneal: the hardest start of the reachable set, its vehicles changed by simulated "
        "annealing (default); rewind: the same by a short hill climb (the packs made before anneal); "
        "walk: random moves back from the won position, asked of the SAT move oracle",
    )
    p.add_argument(
        "--wrap",
        action="store_true",
        help="wrap-around boards: vehicles slide across the edges; the red car wins with its front on "
        "the right edge",
    )
    p.add_argument("--out", metavar="FILE|DIR", help="write to FILE, or one file per puzzle into DIR/")
    add_format_option(p, "board format (default grid)")
    p.add_argument("--jobs", type=option_jobs, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument(
        "--max-tries",
        type=option_count,
        metavar="N",
        help=f"give up after N tries (default {TRIES_PER_PUZZLE} per puzzle asked)",
    )
    p.add_argument("--time-limit", type=option_seconds, metavar="SEC", help="stop after SEC seconds")
    p.add_argument(
        "--name",
        type=option_level_name,
        default="puzzle",
        help="level names are NAME-01, NAME-02... (default puzzle)",
    )
    p.add_argument("--title", type=option_header("title"), help="title in the document header (grid format)")
    p.add_argument(
        "--description",
        type=option_header("description"),
        help="description in the document header (grid format)",
    )
    p.add_argument(
        "--order", type=option_count_or_zero, help="pack order in the document header (grid format)"
    )
    p.add_argument(
        "--sort",
        action="store_true",
        help="write the puzzles easiest first (optimal moves, then reachable-set size; ties in the "
        "order made), all at the end instead of one by one",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON document per puzzle on stdout, as it is made (the boards go to --out if given)",
    )
    p.add_argument(
        "--from-db",
        metavar="FILE",
        help="draw the puzzles from a database (rushhour enumerate) instead: uniformly among its lines "
        "of --min-moves to --max-moves moves, without repeats (the board size is the database's)",
    )
    p.set_defaults(func=cmd_generate)


def command_line(s: Settings, count: int, fmt: str = "grid") -> str:
    """The command that makes the same puzzles again (every option that shapes them, spelt out).
    The Fogleman format shapes them too: its 26 letters cap the vehicles (``Settings.max_vehicles``)."""
    parts = [
        "rushhour generate",
        f"--size {s.width}x{s.height}",
        f"--count {count}",
        f"--min-moves {s.min_moves}",
    ]
    if s.max_moves is not None:
        parts.append(f"--max-moves {s.max_moves}")
    if s.vehicles is not None:
        parts.append(f"--vehicles {s.vehicles[0]}-{s.vehicles[1]}")
    if s.trucks is not None:
        parts.append(f"--trucks {s.trucks[0]}-{s.trucks[1]}")
    if s.walls != (0, 0):
        parts.append(f"--walls {s.walls[0]}-{s.walls[1]}")
    if s.wrap:
        parts.append("--wrap")
    if s.method != DEFAULT_METHOD:
        parts.append(f"--method {s.method}")
    if fmt == "fogleman":
        parts.append("--format fogleman")
    parts.append(f"--seed {s.seed}")
    return " ".join(parts)


def exact_command(args: argparse.Namespace, s: Settings, count: int) -> str:
    """The command as given: the puzzles' options (:func:`command_line`, with the seed even when it
    was drawn) and the options of the output."""
    extra = _output_options(args)
    return command_line(s, count, args.fmt) + ("" if not extra else " " + shlex.join(extra))


def _output_options(args: argparse.Namespace) -> list[str]:
    """The options of a command that do not shape the puzzles but what is written (and how long the
    run may take), as given."""
    extra: list[str] = ["--sort"] if args.sort else []
    if args.fmt not in ("grid", "fogleman"):  # fogleman is in command_line: it caps the vehicles
        extra += ["--format", args.fmt]
    if args.jobs != 1:
        extra += ["--jobs", str(args.jobs)]
    if args.name != "puzzle":
        extra += ["--name", args.name]
    for option, value in (
        ("--title", args.title),
        ("--description", args.description),
        ("--order", args.order),
    ):
        if value is not None:
            extra += [option, str(value)]
    if args.max_tries is not None:
        extra += ["--max-tries", str(args.max_tries)]
    if args.time_limit is not None:
        extra += ["--time-limit", seconds_text(args.time_limit)]
    if args.out:
        extra += ["--out", args.out]
    return extra


def _check_format(fmt: str, s: Settings, count: int, to_dir: bool) -> None:
    """Refuse, before any work, a format that cannot hold what was asked for."""
    if fmt in ("fogleman", "csv") and s.wrap:
        raise FormatError(f"the {fmt} format holds no wrap-around boards: choose another --format")
    if fmt == "fogleman" and s.width != s.height:
        raise FormatError(f"the Fogleman format holds square boards only, not {s.width}x{s.height}")
    if fmt == "fogleman" and s.vehicles is not None and s.vehicles[1] > fogleman.MAX_VEHICLES:
        raise FormatError(
            f"the Fogleman format names the vehicles by the {fogleman.MAX_VEHICLES} letters: --vehicles "
            f"{s.vehicles[1]} is too many; ask for {fogleman.MAX_VEHICLES} at most or choose another "
            "--format"
        )
    if fmt == "csv" and s.walls[1] > 0:
        raise FormatError("the CSV format holds no walls: choose another --format or --walls 0")
    if fmt == "csv" and count > 1 and not to_dir:
        raise FormatError("the CSV format holds one board per file: use --out DIR/ for several puzzles")


def _is_dir(out: str | None) -> bool:
    return out is not None and (os.path.isdir(out) or out.endswith(("/", os.sep)))


def option_header(key: str) -> Callable[[str], str]:
    """argparse type: a value the header line ``key`` can hold (one line of text), refused at once
    rather than when the puzzles are written."""

    def parse(text: str) -> str:
        if not text.strip():  # else taken for the option left out, and the default written
            raise argparse.ArgumentTypeError(f"the {key} is empty: give one, or leave the option out")
        try:
            grid.header_line(key, text)
        except FormatError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        return text

    return parse


def option_level_name(text: str) -> str:
    """argparse type: the start of the levels' names, which are also file names in ``--out DIR/``:
    one line of text, no folder in it."""
    text = option_header("name")(text)
    if not text or any(c in text for c in "/\\") or text.startswith("."):
        raise argparse.ArgumentTypeError(
            f"{text!r} cannot start level and file names: no / or \\, not empty, not starting with ."
        )
    return text


def _check_file_names(folder: str, longest: str) -> None:
    """Refuse, before any work or folder is made, a --name whose files' names (``longest`` the longest)
    the file system of ``folder`` cannot hold: else the first puzzle made would be lost at its write."""
    where = os.path.abspath(folder)
    while not os.path.isdir(where) and os.path.dirname(where) != where:  # the folder may not be there yet
        where = os.path.dirname(where)
    try:
        most = os.pathconf(where, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # not a POSIX system: the common limit
        most = 255
    size = len(os.fsencode(longest))
    if size > most:
        raise RushHourError(
            f"--name is too long for the files of {folder}: a file name there has at most {most} bytes, "
            f"and the puzzles' would have {size}"
        )


class _Writer:
    """Where the puzzles go: stdout (streamed), one FILE (written at the end) or one file each in DIR."""

    def __init__(
        self, args: argparse.Namespace, settings: Settings, count: int, sizes: list[str] | None = None
    ) -> None:
        self.fmt: str = args.fmt
        self.out: str | None = args.out
        self.json: bool = args.json
        self.count = count
        self.to_dir = _is_dir(self.out)
        self.prefix: str = args.name
        self.made: list[tuple[Puzzle, dict[str, str]]] = []
        self.sort: bool = args.sort
        self.pending: list[Puzzle] = []  # held back until close when sorting
        self.header: dict[str, str] = {"title": args.title or "Generated puzzles"}
        if args.order is not None:
            self.header["order"] = str(args.order)
        self.settings = settings
        # the sizes the puzzles have, when they are not the settings' (drawn from a database): each
        # size is named ("on 6x6 and 7x7"), none when there are no puzzles
        self.sizes = sizes
        self.described = args.description is None  # the description says how many: kept true
        self.header["description"] = args.description or self.describe(count)
        self.header["seed"] = str(settings.seed)
        self.header["command"] = exact_command(args, settings, count)
        if self.to_dir and self.out is not None:
            _check_file_names(self.out, f"{self.prefix}-{count:02d}.{EXTENSIONS[self.fmt]}")
            try:
                os.makedirs(self.out, exist_ok=True)
            except OSError as err:
                raise RushHourError(f"cannot make the folder {self.out}: {err.strerror}") from None

    def add(self, puzzle: Puzzle) -> None:
        if self.sort:
            self.pending.append(puzzle)
        else:
            self._emit(puzzle)

    def _emit(self, puzzle: Puzzle) -> None:
        meta = puzzle.meta(f"{self.prefix}-{len(self.made) + 1:02d}")
        self.made.append((puzzle, meta))
        # where the board is written: its own file, the N-th board of --out FILE, or nowhere
        source = self.out if self.count == 1 or self.out is None else f"{self.out}:{len(self.made)}"
        if self.to_dir and self.out is not None:
            source = os.path.join(self.out, f"{meta['name']}.{EXTENSIONS[self.fmt]}")
            write_text_atomic(source, write_board(puzzle.board, self.fmt, meta))
        elif self.out is None and self.fmt in ("grid", "fogleman") and not self.json:
            self._stream(sys.stdout, len(self.made) - 1)
        if self.json:
            emit("generate", generate_body(puzzle, meta["name"], source))

    def _stream(self, handle: TextIO, k: int) -> None:
        puzzle, meta = self.made[k]
        if self.fmt == "fogleman":
            handle.write(fogleman.write_line(puzzle.board, meta) + "\n")
        else:
            if k == 0:
                handle.write("\n".join(f"# {key}: {v}" for key, v in self.header.items()) + "\n")
            handle.write("\n" + grid.write_grid(puzzle.board, meta))
        handle.flush()

    def describe(self, count: int) -> str:
        """The default description: ``40 puzzles of 30+ moves on 6x6``."""
        settings = self.settings
        least, most = settings.min_moves, settings.max_moves
        span = f"{least}+" if most is None else f"{least}-{most}"
        sizes = [f"{settings.width}x{settings.height}"] if self.sizes is None else self.sizes
        on = "" if not sizes else " on " + listed(sizes)
        return f"{plural(count, 'puzzle')} of {span} moves{on}"

    def text(self) -> str:
        if self.described:  # a run stopped early (Ctrl-C, --time-limit) made fewer than asked
            self.header["description"] = self.describe(len(self.made))
        fmt = self.fmt
        if fmt == "grid":
            return grid.write_document([(p.board, m) for p, m in self.made], self.header)
        if fmt == "fogleman":
            return "".join(fogleman.write_line(p.board, m) + "\n" for p, m in self.made)
        if fmt == "json" and len(self.made) != 1:
            items = [{**jsonfmt.board_to_dict(p.board), "meta": m} for p, m in self.made]
            return json.dumps(items, indent=2) + "\n"
        puzzle, meta = self.made[0]
        return write_board(puzzle.board, fmt, meta)

    def close(self) -> None:
        for puzzle in sorted(self.pending, key=lambda p: p.difficulty):  # stable: ties as made
            self._emit(puzzle)
        self.pending.clear()
        if self.to_dir or not self.made:
            return
        if self.out is None:
            if self.fmt not in ("grid", "fogleman") and not self.json:
                sys.stdout.write(self.text())
            return
        write_text_atomic(self.out, self.text())


def _show_tries(display: ProgressDisplay, count: int) -> Callable[[TryResult, Stats], None]:
    """Each try of the generator on the display: the puzzles made of ``count``, the tries."""

    def show(outcome: TryResult, stats: Stats) -> None:
        line = f"generate: {stats.made:,}/{count:,} puzzles, {plural(stats.tries, 'try', many='tries')}"
        postfix = f"tries={stats.tries}"
        display.update(stats.made, desc="generate", unit="puzzle", total=count, line=line, postfix=postfix)

    return show


def check_generate_options(args: argparse.Namespace) -> None:
    """Refuse the options that would go unused (exit status 2)."""
    if args.from_db is not None:
        refuse_given(
            args,
            ("size", "vehicles", "trucks", "walls", "wrap", "method", "jobs", "max_tries", "time_limit"),
            "shapes puzzles being made: it does not go with --from-db (the puzzles come from the database)",
        )
    if args.fmt != "grid" or _is_dir(args.out):
        where = f"--format {args.fmt}" if args.fmt != "grid" else "--out DIR/ (one file per puzzle)"
        why = f"goes in the header of a grid document, not with {where}"
        refuse_given(args, ("title", "description", "order"), why)


def cmd_generate(args: argparse.Namespace) -> int:
    check_generate_options(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    if args.from_db is not None:
        return _generate_from_database(args, seed)
    width, height = args.size
    settings = Settings(
        width=width,
        height=height,
        min_moves=args.min_moves,
        max_moves=args.max_moves,
        vehicles=args.vehicles,
        trucks=args.trucks,
        walls=args.walls,
        method=args.method,
        seed=seed,
        wrap=args.wrap,
        max_vehicles=fogleman.MAX_VEHICLES if args.fmt == "fogleman" else MAX_VEHICLES,
    )
    count = args.count
    _check_format(args.fmt, settings, count, _is_dir(args.out))  # the format's refusals, named first
    generator = Generator(settings)  # checks the settings
    settings = generator.settings
    note_python_search(width, height, "generating on")
    if args.out and not _is_dir(args.out):
        check_file_target(args.out)
    writer = _Writer(args, settings, count)
    progress = ProgressDisplay(enabled=not args.quiet, every=0.5)
    on_try = _show_tries(progress, count) if progress.enabled else None
    max_tries = args.max_tries if args.max_tries is not None else TRIES_PER_PUZZLE * count
    status = EXIT_OK
    try:
        for puzzle in generator.run(
            count, jobs=args.jobs, max_tries=max_tries, time_limit=args.time_limit, on_try=on_try
        ):
            if sys.stdout.isatty():  # the puzzle starts on a clean line, not after the display's
                progress.close()
            writer.add(puzzle)
    except KeyboardInterrupt:
        generator.stats.stopped = "interrupted"
        status = EXIT_INTERRUPTED
    except WorkerError:
        writer.close()  # the puzzles made before the worker died are written, then the error
        raise
    finally:
        progress.close()
    writer.close()
    stats = generator.stats
    if not args.quiet:
        print(stats.summary(), file=sys.stderr)
        print(f"seed {seed}: {command_line(settings, count, args.fmt)}", file=sys.stderr)
    if status == EXIT_OK and stats.made < count:
        why = stats.stopped
        if args.max_tries is not None and stats.tries >= args.max_tries:
            why = f"reached --max-tries {args.max_tries}"
        elif args.time_limit is not None and why and "time limit" in why:
            why = f"reached --time-limit {seconds_text(args.time_limit)} s"
        print(f"only {stats.made} of {count} puzzles made ({why}): {advice(settings)}", file=sys.stderr)
        status = EXIT_SHORT
    return status


def advice(s: Settings) -> str:
    """What to change when a run makes fewer puzzles than asked.  On 11x11 and 12x12 boards without
    walls puzzles of 15 moves or more are rare (docs/generator.md, "Limits, measured"): a wider range
    would not help there, walls do."""
    w, h = s.width, s.height
    if w * h >= LARGE_AREA and not s.wrap and s.walls[1] == 0 and s.min_moves >= LARGE_OPEN_MOVES:
        shorter = " --min-moves 15" if s.min_moves > LARGE_WALLED_MOVES else ""
        return (
            f"{w}x{h} boards without walls make few puzzles of {LARGE_OPEN_MOVES} moves or more "
            f'(docs/generator.md, "Limits, measured"): add walls, e.g. --walls {max_walls(w, h)} '
            f"--vehicles 12-24{shorter}"
        )
    if s.vehicles is None and s.walls[1] == 0 and default_vehicles(w, h)[1] > s.max_vehicles:
        return (
            f"the Fogleman format's {s.max_vehicles} letters are fewer vehicles than fill a {w}x{h} board, "
            f"and a loose board is rarely hard: add walls (e.g. --walls {max_walls(w, h) // 2}) or choose "
            "another --format"
        )
    return "try a wider --min-moves/--max-moves range, other --vehicles, or more --max-tries"


def _sizes(puzzles: list[Puzzle]) -> list[str]:
    """The sizes of ``puzzles``, smallest first: ``["6x6", "7x7"]``."""
    shapes = sorted({(p.board.width, p.board.height) for p in puzzles}, key=lambda s: (s[0] * s[1], s))
    return [f"{w}x{h}" for w, h in shapes]


def _generate_from_database(args: argparse.Namespace, seed: int) -> int:
    """``generate --from-db FILE``: puzzles drawn from a database rather than rewound.  A file of
    boards of several sizes (databases joined) is drawn from as one: the header's description names
    every size the puzzles drawn have, and the summary how many of each."""
    puzzles, band = from_database(
        args.from_db, min_moves=args.min_moves, max_moves=args.max_moves, count=args.count, seed=seed
    )
    side = puzzles[0].board.width if puzzles else args.size[0]
    walls = max((len(p.board.walls) for p in puzzles), default=0)
    settings = Settings(
        width=side,
        height=side,
        min_moves=args.min_moves,
        max_moves=args.max_moves,
        walls=(0, walls),
        seed=seed,
    )
    _check_format(args.fmt, settings, args.count, _is_dir(args.out))
    sizes = _sizes(puzzles)
    writer = _Writer(args, settings, len(puzzles), sizes)  # as many as were drawn: the header describes them
    command = ["rushhour generate", f"--from-db {shlex.quote(args.from_db)}", f"--min-moves {args.min_moves}"]
    if args.max_moves is not None:
        command.append(f"--max-moves {args.max_moves}")
    if args.fmt == "fogleman":  # as command_line spells it; the other formats are output options
        command.append("--format fogleman")
    command += [f"--count {args.count}", f"--seed {seed}"]
    extra = _output_options(args)
    writer.header["command"] = " ".join(command) + ("" if not extra else " " + shlex.join(extra))
    for puzzle in puzzles:
        writer.add(puzzle)
    writer.close()
    if not args.quiet:
        drawn = plural(len(puzzles), "puzzle")
        if len(sizes) > 1:  # a file of several sizes: how many of each
            each = collections.Counter(f"{p.board.width}x{p.board.height}" for p in puzzles)
            drawn += " (" + ", ".join(f"{each[size]:,} on {size}" for size in sizes) + ")"
        print(f"{drawn} drawn from {band:,} in the band (seed {seed})", file=sys.stderr)
    if len(puzzles) < args.count:
        print(
            f"only {plural(band, 'board')} of the database {'is' if band == 1 else 'are'} in the band: "
            "try a wider --min-moves/--max-moves range",
            file=sys.stderr,
        )
        return EXIT_SHORT
    return EXIT_OK
