"""``solve`` and ``analyze``: optimal solutions, proofs of unsolvability, cluster analysis, exports.

Exit status of ``solve``: 0 solved, 1 proved unsolvable, 2 bad input, 3 stopped by ``--max-states``,
``--time-limit`` or ``--max-moves`` before an answer.  With ``--batch`` the status is the worst one
met over the file (3 over 1 over 0).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rushhour.board import Board
from rushhour.cli.core import (
    add_color_flags,
    add_metric_flag,
    board_summary,
    color_wanted,
    draw,
    fixed_colors,
    option_count,
    option_count_or_zero,
    option_jobs,
    option_seconds,
    plural,
)
from rushhour.errors import FormatError, LimitReachedError, RushHourError
from rushhour.files import write_text_atomic
from rushhour.formats import Entry, fogleman, read_file
from rushhour.levels import resolve_board
from rushhour.numbers import whole_or_none
from rushhour.search import ENGINES, HEURISTICS, Analysis, Solution, analyze, solve
from rushhour.search.memory import DEFAULT_MAX_MEMORY, MEGABYTE
from rushhour.search.timed import HANDOVERS, TimeModel, schedule
from rushhour.search.watch import Progress

EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_ERROR, EXIT_STOPPED = 0, 1, 2, 3
DEFAULT_MAX_MEMORY_MB = DEFAULT_MAX_MEMORY // MEGABYTE


def register(sub: Any) -> None:
    p = sub.add_parser(
        "solve",
        help="solve a board (optimal by default) or every board of a file",
        description=(
            "Find a solution of BOARD, prove it unsolvable, or solve every board of a file (--batch). "
            "Exit status: 0 solved, 1 proved unsolvable, 2 bad input, 3 stopped by a limit."
        ),
    )
    p.add_argument("board", metavar="BOARD", nargs="?", help="file, inline board or built-in name")
    add_search_options(p)
    p.add_argument(
        "--heuristic",
        choices=HEURISTICS,
        default="blocked",
        help="the lower bound of the astar engine (default: blocked)",
    )
    p.add_argument(
        "--seed", type=option_count_or_zero, default=None, help="seed of the random and improve engines"
    )
    p.add_argument(
        "--max-moves",
        type=option_count_or_zero,
        default=None,
        metavar="K",
        help="sat engine: try plans of up to K moves",
    )
    p.add_argument("--show", action="store_true", help="draw the position after every move")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--csv", metavar="FILE", help="write the solution as vehicle,move lines")
    p.add_argument("--gif", metavar="FILE", help="draw the solution as an animated GIF (needs Pillow)")
    p.add_argument("--svg", metavar="DIR", help="draw every position of the solution as SVG files in DIR")
    p.add_argument("--batch", metavar="FILE", help="solve every board of FILE, one result line each")
    p.add_argument(
        "--jobs", type=option_jobs, default=1, metavar="J", help="with --batch: spread over J processes"
    )
    add_timed_options(p)
    add_color_flags(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser(
        "analyze",
        help="explore the whole reachable set of a board",
        description=(
            "Explore every position reachable from BOARD: how many, how many are won, the histogram of "
            "distances to the nearest win, and the hardest position (farthest from a win)."
        ),
    )
    p.add_argument("board", metavar="BOARD", help="file, inline board or built-in name")
    add_search_options(p, engines=False)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_color_flags(p)
    p.set_defaults(func=cmd_analyze)


def add_search_options(p: argparse.ArgumentParser, engines: bool = True) -> None:
    if engines:
        p.add_argument(
            "--engine",
            choices=ENGINES,
            default="bfs",
            help="bfs (default) and astar: optimal; sat: SAT planning, optimal; random, improve: baselines",
        )
    add_metric_flag(p)
    p.add_argument(
        "--max-states",
        type=option_count,
        default=None,
        metavar="N",
        help="stop after N positions (default: no limit; --max-memory bounds the search)",
    )
    p.add_argument(
        "--max-memory",
        type=option_count,
        default=DEFAULT_MAX_MEMORY_MB,
        metavar="MB",
        help=f"stop when the search has taken MB megabytes of memory (default {DEFAULT_MAX_MEMORY_MB:,}: "
        "half of the memory available)",
    )
    p.add_argument(
        "--time-limit", type=option_seconds, default=None, metavar="S", help="stop after S seconds"
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="show the search's progress on stderr even when it is not a terminal (a terminal shows it)",
    )


def _board_text(board: Board) -> str:
    """The board on one line: a Fogleman string when the format holds it, grid rows otherwise."""
    try:
        return fogleman.write_line(board)
    except FormatError:
        return "/".join(board.rows())


class _ProgressLine:
    """The progress of a long search on stderr: one line rewritten in place on a terminal, plain
    lines otherwise (asked for with --progress)."""

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.shown = False

    def __call__(self, record: Progress) -> None:
        if self.terminal:
            sys.stderr.write("\r\x1b[K" + record.describe())
        else:
            sys.stderr.write(record.describe() + "\n")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown and self.terminal:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _solve(args: argparse.Namespace, board: Board) -> Solution:
    show = getattr(args, "progress", False) or (sys.stderr.isatty() and not getattr(args, "batch", None))
    line = _ProgressLine() if show else None
    try:
        return solve(
            board,
            engine=args.engine,
            metric=args.metric,
            max_states=args.max_states,
            time_limit=args.time_limit,
            max_memory=args.max_memory * MEGABYTE,
            seed=args.seed,
            heuristic=args.heuristic,
            max_moves=args.max_moves,
            progress=line,
        )
    finally:
        if line is not None:
            line.close()


# --- solve ---------------------------------------------------------------------------------------
def cmd_solve(args: argparse.Namespace) -> int:
    if any(getattr(args, flag) is not None for flag in TIMED_FLAGS) or args.timed:
        return cmd_timed(args)
    args.metric = args.metric or "moves"
    if args.batch is not None:
        if args.board is not None:
            raise RushHourError("give either BOARD or --batch FILE, not both")
        for flag in ("csv", "gif", "svg"):
            if getattr(args, flag):
                raise RushHourError(f"--{flag} draws one solution: it does not go with --batch")
        return _batch(args)
    if args.board is None:
        raise RushHourError("no board: give BOARD, or --batch FILE to solve every board of a file")
    if args.jobs != 1:
        raise RushHourError("--jobs goes with --batch")
    entry = resolve_board(args.board)
    board = entry.board
    try:
        solution = _solve(args, board)
    except LimitReachedError as err:
        return _stopped(args, err)
    _export(args, solution)
    if args.json:
        print(json.dumps(solution_dict(solution, entry.label)))
    else:
        _print_solution(args, entry, solution)
    return EXIT_SOLVED if solution.solved else EXIT_UNSOLVABLE


# --- timed play (rushhour.search.timed, docs/timed.md) -------------------------------------------
TIMED_FLAGS = ("hands", "handover", "car_seconds", "truck_seconds")


def add_timed_options(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("timed play (docs/timed.md)")
    group.add_argument(
        "--timed",
        action="store_true",
        help="the fastest solution by one hand, moves taking time by vehicle kind (steps metric by default)",
    )
    group.add_argument(
        "--car-seconds", metavar="S", help="with --timed: a car's seconds per cell (default 2)"
    )
    group.add_argument("--truck-seconds", metavar="S", help="with --timed: a truck's (length 3+; default 5)")
    group.add_argument(
        "--hands", metavar="LEFT,RIGHT", help="the fastest schedule by two hands at once, e.g. 3,5 s per move"
    )
    group.add_argument(
        "--handover",
        choices=HANDOVERS,
        help="with --hands: strict (default: a cell being left is held until the move ends) or relaxed",
    )
    p.set_defaults(metric=None)  # timed play counts steps unless --metric moves; the rest, moves


def cmd_timed(args: argparse.Namespace) -> int:
    if args.hands is None and not args.timed:
        raise RushHourError("--handover goes with --hands; --car-seconds and --truck-seconds with --timed")
    if args.hands is not None and (args.timed or args.car_seconds or args.truck_seconds):
        raise RushHourError("hands take their own time whatever the vehicle: --hands goes without --timed")
    if args.timed and args.handover:
        raise RushHourError("--handover goes with --hands")
    for flag in ("batch", "csv", "gif", "svg"):
        if getattr(args, flag):
            raise RushHourError(f"--{flag} does not go with --timed or --hands")
    if args.board is None:
        raise RushHourError("no board: give BOARD")
    metric = args.metric or "steps"
    if args.hands is not None:
        model = TimeModel.two_hands(args.hands, handover=args.handover or "strict", metric=metric)
    else:
        model = TimeModel.one_hand(
            metric=metric, car_seconds=args.car_seconds or 2, truck_seconds=args.truck_seconds or 5
        )
    entry = resolve_board(args.board)
    try:
        found = schedule(
            entry.board,
            model,
            max_states=args.max_states,
            time_limit=args.time_limit,
            max_memory=args.max_memory * MEGABYTE,
        )
    except LimitReachedError as err:
        return _stopped(args, err)
    status = EXIT_SOLVED if found.solved else EXIT_UNSOLVABLE
    if args.json:
        print(json.dumps({"board": entry.label, "position": _board_text(entry.board), **found.as_dict()}))
        return status
    print(f"{entry.meta.get('name') or entry.label}: {board_summary(entry.board)}")
    print(draw(entry.board, color_wanted(args)))
    if not found.solved:
        print(
            f"Unsolvable: none of the {found.explored:,} reachable positions has "
            f"{entry.board.goal} at the exit."
        )
        return status
    print(f"Fastest: {found.summary()}")
    if found.items:
        print(found.timeline())
    print(f"{found.explored:,} states explored in {_ms(found.seconds)}; the schedule replayed in time order.")
    return status


def solution_dict(solution: Solution, label: str = "") -> dict[str, object]:
    return {
        "board": label,
        "position": _board_text(solution.board),
        "engine": solution.engine,
        "metric": solution.metric,
        "solved": solution.solved,
        "optimal": solution.optimal,
        "moves": [str(m) for m in solution.moves],
        "length": solution.length,
        "steps": solution.steps,
        "explored": solution.explored,
        "seconds": round(solution.seconds, 6),
    }


def _stopped(args: argparse.Namespace, err: LimitReachedError) -> int:
    if args.json:
        print(json.dumps({"stopped": True, "message": str(err), "explored": err.explored}))
    else:
        print(f"{err} (see --max-states, --time-limit and --max-memory)", file=sys.stderr)
    return EXIT_STOPPED


def _print_solution(args: argparse.Namespace, entry: Entry, solution: Solution) -> None:
    board = solution.board
    color = color_wanted(args)
    print(f"{entry.meta.get('name') or entry.label}: {board_summary(board)}")
    colors = fixed_colors(board, color)
    print(draw(board, color, colors=colors))
    took = f"{solution.explored:,} positions explored in {_ms(solution.seconds)}"
    if solution.engine == "sat":
        took = f"SAT planning: {solution.explored} plan lengths tried in {_ms(solution.seconds)}"
        if solution.optimal and solution.length:
            took += f"; no plan of {solution.length - 1} moves or fewer exists"
    if not solution.solved:
        print(
            f"Unsolvable: all {solution.explored:,} reachable positions were explored and none has "
            f"{board.goal} at the exit ({_ms(solution.seconds)})."
        )
        return
    if not solution.moves:
        print(f"Already solved: {board.goal} is at the exit.")
        return
    quality = "Optimal solution" if solution.optimal else "Solution (not proven optimal)"
    print(
        f"{quality}: {plural(solution.length, 'move')}, {plural(solution.steps, 'step')} "
        f"({solution.engine} engine, {solution.metric} metric)"
    )
    if args.show:
        for k, (move, position) in enumerate(zip(solution.moves, solution.positions()[1:], strict=True), 1):
            print(f"{k:3d}. {move}")
            print(draw(position, color, highlight=move.vehicle, colors=colors))
    else:
        width = len(str(solution.length))
        numbered = [f"{k:>{width}}. {m}" for k, m in enumerate(solution.moves, 1)]
        per_line = max(1, 78 // (max(len(s) for s in numbered) + 2))
        for lo in range(0, len(numbered), per_line):
            print(
                "  " + "  ".join(f"{s:<{len(max(numbered, key=len))}}" for s in numbered[lo : lo + per_line])
            )
    print(took)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _export(args: argparse.Namespace, solution: Solution) -> None:
    if not (args.csv or args.gif or args.svg):
        return
    if not solution.solved:
        raise RushHourError("the board is unsolvable: there is no solution to write")
    if args.csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["vehicle", "move"])
        for move in solution.moves:
            writer.writerow([move.vehicle, f"{move.distance:+d}"])
        write_text_atomic(args.csv, buffer.getvalue())
    if args.gif or args.svg:
        from rushhour.render import pictures

        positions = solution.positions()
        moved = [None] + [m.vehicle for m in solution.moves]
        if args.svg:
            pictures.write_svg_frames(positions, args.svg, highlights=moved)
        if args.gif:
            pictures.write_gif(positions, args.gif, highlights=moved)


# --- batch ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BatchRow:
    label: str
    board: str
    status: int
    length: int
    steps: int
    explored: int
    seconds: float
    optimal: bool
    expected: int | None
    message: str = ""


def _batch_one(job: tuple[argparse.Namespace, Entry]) -> BatchRow:
    args, entry = job
    expected = whole_or_none(entry.meta.get("moves", ""))
    text = _board_text(entry.board)
    began = time.perf_counter()
    try:
        s = _solve(args, entry.board)
    except LimitReachedError as err:
        took = time.perf_counter() - began
        return BatchRow(
            entry.label, text, EXIT_STOPPED, -1, -1, err.explored, took, False, expected, str(err)
        )
    status = EXIT_SOLVED if s.solved else EXIT_UNSOLVABLE
    length, steps = (s.length, s.steps) if s.solved else (-1, -1)
    return BatchRow(entry.label, text, status, length, steps, s.explored, s.seconds, s.optimal, expected)


def _batch(args: argparse.Namespace) -> int:
    entries = read_file(args.batch)
    jobs = [(args, entry) for entry in entries]
    began = time.perf_counter()
    rows: list[BatchRow] = []
    if args.jobs > 1 and len(jobs) > 1:
        context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        with context.Pool(min(args.jobs, len(jobs))) as pool:
            for row in pool.imap(_batch_one, jobs, chunksize=max(1, min(64, len(jobs) // (8 * args.jobs)))):
                rows.append(row)
                _batch_line(args, row)
    else:
        for job in jobs:
            row = _batch_one(job)
            rows.append(row)
            _batch_line(args, row)
    return _batch_summary(args, rows, time.perf_counter() - began)


def _batch_line(args: argparse.Namespace, row: BatchRow) -> None:
    if args.json:
        data = {k: v for k, v in row.__dict__.items() if k != "status"}
        data["result"] = {EXIT_SOLVED: "solved", EXIT_UNSOLVABLE: "unsolvable", EXIT_STOPPED: "stopped"}[
            row.status
        ]
        print(json.dumps(data), flush=True)
        return
    if row.status == EXIT_SOLVED:
        result = f"{row.length:4d} moves {row.steps:4d} steps"
        if not row.optimal:
            result += " (not proven optimal)"
    elif row.status == EXIT_UNSOLVABLE:
        result = "unsolvable"
    else:
        result = "stopped by a limit"
    check = ""
    if row.expected is not None and row.status == EXIT_SOLVED:
        check = "" if row.length == row.expected else f"  (the file says {row.expected})"
    print(
        f"{row.label}  {row.board}  {result}  {row.explored:,} positions  {row.seconds * 1000:.1f} ms{check}",
        flush=True,
    )


def _batch_summary(args: argparse.Namespace, rows: Sequence[BatchRow], wall: float) -> int:
    solved = [r for r in rows if r.status == EXIT_SOLVED]
    unsolvable = sum(r.status == EXIT_UNSOLVABLE for r in rows)
    stopped = sum(r.status == EXIT_STOPPED for r in rows)
    checked = [r for r in solved if r.expected is not None]
    agree = sum(r.length == r.expected for r in checked)
    times = [r.seconds for r in rows]
    summary = {
        "boards": len(rows),
        "solved": len(solved),
        "unsolvable": unsolvable,
        "stopped": stopped,
        "checked": len(checked),
        "agree": agree,
        "positions": sum(r.explored for r in rows),
        "median_ms": round(statistics.median(times) * 1000, 3) if times else 0.0,
        "seconds": round(wall, 3),
        "jobs": args.jobs,
    }
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        line = (
            f"{len(rows)} boards: {len(solved)} solved, {unsolvable} unsolvable, {stopped} stopped; "
            f"median {summary['median_ms']} ms per board, {wall:.2f} s in all with {args.jobs} "
            f"job{'s' if args.jobs != 1 else ''}"
        )
        if checked:
            line += f"; {agree}/{len(checked)} lengths agree with the file"
        print(line)
    if stopped:
        return EXIT_STOPPED
    if unsolvable or (checked and agree != len(checked)):
        return EXIT_UNSOLVABLE
    return EXIT_SOLVED


# --- analyze -------------------------------------------------------------------------------------
def analysis_dict(analysis: Analysis, label: str = "") -> dict[str, object]:
    return {
        "board": label,
        "position": _board_text(analysis.board),
        "metric": analysis.metric,
        "cluster_size": analysis.cluster_size,
        "won_count": analysis.won_count,
        "start_distance": analysis.start_distance,
        "histogram": {str(k): v for k, v in sorted(analysis.histogram.items())},
        "hardest": _board_text(analysis.hardest),
        "hardest_rows": analysis.hardest.rows(),
        "hardest_distance": analysis.hardest_distance,
        "cluster_key": list(analysis.cluster_key),
        "seconds": round(analysis.seconds, 6),
    }


def cmd_analyze(args: argparse.Namespace) -> int:
    entry = resolve_board(args.board)
    try:
        analysis = analyze(
            entry.board,
            metric=args.metric,
            max_states=args.max_states,
            time_limit=args.time_limit,
            max_memory=args.max_memory * MEGABYTE,
        )
    except LimitReachedError as err:
        return _stopped(args, err)
    if args.json:
        print(json.dumps(analysis_dict(analysis, entry.label)))
        return EXIT_SOLVED if analysis.solvable else EXIT_UNSOLVABLE
    board = entry.board
    color = color_wanted(args)
    unit = "moves" if args.metric == "moves" else "steps"
    print(f"{entry.meta.get('name') or entry.label}: {board_summary(board)}")
    colors = fixed_colors(board, color)
    print(draw(board, color, colors=colors))
    print(f"Reachable positions: {analysis.cluster_size:,} ({analysis.won_count:,} won)")
    if not analysis.solvable:
        print(f"Unsolvable: no reachable position has {board.goal} at the exit.")
        print(f"Explored in {_ms(analysis.seconds)}.")
        return EXIT_UNSOLVABLE
    print(f"This board: {analysis.start_distance} {unit} from the nearest win.")
    print(f"Distance to the nearest win ({unit}): positions")
    top = max(analysis.histogram.values())
    for distance, count in sorted(analysis.histogram.items()):
        bar = "#" * max(1, round(40 * count / top))
        mark = "  <- this board" if distance == analysis.start_distance else ""
        print(f"  {distance:4d}: {count:>9,} {bar}{mark}")
    print(f"Hardest position ({analysis.hardest_distance} {unit} from a win):")
    print(draw(analysis.hardest, color))
    print(f"  {_board_text(analysis.hardest)}")
    print(f"Explored in {_ms(analysis.seconds)}.")
    return EXIT_SOLVED
