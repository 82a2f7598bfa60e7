"""``enumerate``: the complete database of a board size (see :mod:`rushhour.database`)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from rushhour.cli import generate as generate_options
from rushhour.cli.core import examples, option_jobs, option_range, refuse_given
from rushhour.cli.documents import emit
from rushhour.cli.progress_display import ProgressDisplay
from rushhour.database import (
    GOAL_LENGTH,
    MAX_SIDE,
    MIN_SIDE,
    BuildProgress,
    EnumerateError,
    Job,
    PartStats,
    board_of,
    build,
    parallel,
    read_line,
    shard_of,
)
from rushhour.database.store import parts_saved
from rushhour.errors import RushHourError
from rushhour.numbers import whole_or_none
from rushhour.text import plural

EXIT_OK, EXIT_INTERRUPTED = 0, 130


def _size(text: str) -> int:
    width, height = generate_options.dimensions(text)
    if width != height:
        raise argparse.ArgumentTypeError(f"{text} is not square: the database format holds square boards")
    if not MIN_SIDE <= width <= MAX_SIDE:
        raise argparse.ArgumentTypeError(
            f"{text} is out of range: databases are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
        )
    return width


def _row(text: str) -> int:
    row = whole_or_none(text)
    if row is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a row number (0 is the top row)")
    return row


def register(sub: Any) -> None:
    p = sub.add_parser(
        "enumerate",
        help="the complete database of interesting puzzles of a board size",
        description=(
            "Enumerate every layout of cars, trucks and walls of a board size, group the positions into "
            "clusters, and write one line per cluster whose hardest position is minimal (removing any "
            "vehicle but the goal car, or any wall, shortens it): MOVES BOARD CLUSTER, as in Fogleman's "
            "database.  Output is sorted by moves (descending), then board, and is the same whatever the "
            "number of workers or the engine.  See docs/enumerate.md."
        ),
        epilog=examples(
            "rushhour enumerate --size 4x4                       # every interesting 4x4 puzzle",
            "rushhour enumerate --size 4x4 --walls 0-1 --out db4 # saved part by part (a rerun resumes)",
            "rushhour enumerate --size 4x4 --distances --workers 1 -q",
        ),
    )
    p.add_argument(
        "--size", type=_size, required=True, metavar="WxH", help="square board size, like 4x4 or 6x6"
    )
    p.add_argument(
        "--walls",
        type=option_range,
        default=(0, 0),
        metavar="A-B",
        help="walls per layout (default 0)",
    )
    p.add_argument("--goal-row", type=_row, metavar="R", help="the goal car's row (default (H-1)//2)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="save parts in DIR as they finish (a rerun resumes), and the database in DIR/database.txt",
    )
    p.add_argument("--distances", action="store_true", help="add the number of positions at each distance")
    p.add_argument(
        "--workers",
        type=option_jobs,
        metavar="N",
        help="worker processes (default: all cores)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask scheduler at ADDRESS, or 'local' "
        "to start one with --workers workers (needs Dask distributed: the cluster extra)",
    )
    p.add_argument(
        "--shard-of", metavar="LINE", help="run only the shard holding the board of LINE (a Fogleman line)"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one rushhour.enumerate document per puzzle (JSON Lines; with --out the database "
        "is written there too)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on stderr")
    p.set_defaults(func=cmd_enumerate)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def _show_parts(display: ProgressDisplay) -> Callable[[BuildProgress], None]:
    """The run on the display, at most once a second: parts done, positions, rate, time left."""

    def show(p: BuildProgress) -> None:
        rate = p.stats.positions / p.seconds if p.seconds > 0 else 0.0
        fresh = p.done - p.resumed
        left = (p.parts - p.done) * p.seconds / fresh if fresh else 0.0
        line = (
            f"enumerate: {p.done:,}/{plural(p.parts, 'part')} ({plural(p.stats.shards, 'shard')}), "
            f"{plural(p.stats.positions, 'position')}, "
            f"{rate:,.0f} positions/s, about {_duration(left)} left"
        )
        postfix = f"{plural(p.stats.shards, 'shard')}, {plural(p.stats.positions, 'position')}"
        final = p.done >= p.parts
        display.update(
            p.done, desc="enumerate", unit="part", total=p.parts, line=line, postfix=postfix, final=final
        )

    return show


def cmd_enumerate(args: argparse.Namespace) -> int:
    size = args.size
    goal_row = Job.default_goal_row(size) if args.goal_row is None else args.goal_row
    if goal_row >= size:
        raise EnumerateError(f"--goal-row {goal_row} is off a {size}x{size} board (rows 0 to {size - 1})")
    most = size * size - GOAL_LENGTH
    if args.walls[1] > most:
        low, high = args.walls
        raise EnumerateError(
            f"--walls {low}-{high} does not fit a {size}x{size} board (at most {most} walls)"
        )
    job = Job(size, goal_row, args.walls, args.distances)
    only = None
    if args.shard_of is not None:
        if args.out is not None:
            raise EnumerateError("--shard-of prints one shard; it does not go with --out")
        try:
            only = [shard_of(job, board_of(args.shard_of))]
        except RushHourError as err:
            raise EnumerateError(f"--shard-of: {err}") from None
    if args.scheduler not in (None, "local"):
        refuse_given(args, ("workers",), "starts local workers: a running Dask scheduler has its own")
    if args.scheduler is not None:
        parallel.require_dask()  # before --out is made: a run that cannot start leaves nothing
    workers = args.workers or parallel.default_workers()
    display = ProgressDisplay(enabled=not args.quiet, lines=True, every=1.0)
    report = _show_parts(display) if display.enabled else None
    started = time.perf_counter()
    try:
        lines, stats = build(
            job,
            out=args.out,
            workers=workers,
            scheduler=args.scheduler,
            only=only,
            report=report,
            note=lambda text: print(text, file=sys.stderr),
        )
    except KeyboardInterrupt:
        display.close()
        if args.out is not None and parts_saved(args.out):
            print(
                f"interrupted: the parts finished are saved in {args.out}; run the same command to resume",
                file=sys.stderr,
            )
        elif args.out is not None:
            print("interrupted before a part was finished: run the same command to start", file=sys.stderr)
        else:
            print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    display.close()
    if args.json:
        for line in lines:
            emit("enumerate", puzzle_body(size, line))
    elif args.out is None:
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        sys.stdout.flush()
    if not args.quiet:
        _summary(job, lines, stats, time.perf_counter() - started, args.out)
    return EXIT_OK


def puzzle_body(size: int, line: str) -> dict[str, Any]:
    """The ``rushhour.enumerate`` document of one database line (docs/json.md)."""
    moves, board, cluster = read_line(line)
    fields = line.split()
    distances = [int(n) for n in fields[3].split(",")] if len(fields) > 3 else None
    ref = {"text": board, "format": "fogleman", "width": size, "height": size, "name": None, "source": None}
    return {"moves": moves, "board": ref, "cluster": cluster, "distances": distances}


def _summary(job: Job, lines: list[str], stats: PartStats, seconds: float, out: str | None) -> None:
    where = f" in {out}/database.txt" if out else ""
    print(
        f"{job.size}x{job.size}, walls {job.walls[0]}-{job.walls[1]}: {plural(len(lines), 'puzzle')}{where}; "
        f"{plural(stats.shards, 'shard')}, {plural(stats.clusters, 'cluster')} with a win, "
        f"{plural(stats.positions, 'position')} in {_duration(seconds)}",
        file=sys.stderr,
    )
