"""``solve`` and ``analyze``: optimal solutions, proofs of unsolvability, cluster analysis, exports.

Exit status of ``solve``: 0 solved, 1 proved unsolvable, 2 bad input, 3 stopped by ``--max-states``,
``--time-limit`` or ``--max-moves`` before an answer.  With ``--batch`` the status is the worst one
met over the file (3 over 1 over 0).
"""

from __future__ import annotations

import argparse
import csv
import io
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rushhour.board import Board, Move
from rushhour.cli.core import (
    BOARD_HELP,
    UsageError,
    add_board,
    add_color_flags,
    add_metric_flag,
    add_move_seconds,
    board_summary,
    color_wanted,
    draw,
    examples,
    fixed_colors,
    given,
    move_seconds,
    note_python_search,
    option_count,
    option_count_or_zero,
    option_jobs,
    option_seconds,
    refuse,
    refuse_color_without_drawing,
    refuse_given,
)
from rushhour.cli.documents import analyze_body, emit, expected_length, solve_body, timed_body
from rushhour.cli.progress_display import ProgressDisplay
from rushhour.errors import FormatError, LimitReachedError, RushHourError
from rushhour.files import check_file_target, write_text_atomic
from rushhour.formats import Entry, fogleman
from rushhour.levels import resolve_all, resolve_board
from rushhour.search import DEFAULT_ENGINE, ENGINES, HEURISTICS, Solution, analyze, solve
from rushhour.search.engines import sat_cap
from rushhour.search.memory import DEFAULT_MAX_MEMORY, MEGABYTE
from rushhour.search.timed import (
    DEFAULT_CAR_SECONDS,
    DEFAULT_TRUCK_SECONDS,
    HANDOVERS,
    Schedule,
    TimedMove,
    TimeModel,
    format_seconds,
    parse_hands,
    schedule,
)
from rushhour.search.watch import Bounds, SearchProgress
from rushhour.text import plural, runs
from rushhour.workers import awaited, interrupt_as_flag, owned_pool

EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_ERROR, EXIT_STOPPED = 0, 1, 2, 3
DEFAULT_MAX_MEMORY_MB = DEFAULT_MAX_MEMORY // MEGABYTE
#: moves of a stopped search's best solution printed on stderr (the JSON document has them all)
BEST_SHOWN = 20


def register(sub: Any) -> None:
    p = sub.add_parser(
        "solve",
        help="solve a board (optimal by default) or every board of a file",
        description=(
            "Find a solution of BOARD, prove it unsolvable, or solve every board of a file (--batch). "
            "Exit status: 0 solved, 1 proved unsolvable, 2 bad input, 3 stopped by a limit."
        ),
        epilog=examples(
            "rushhour solve classic:12                      # an optimal solution",
            "rushhour solve classic:12 --engine astar --metric steps --show",
            "rushhour solve classic:12 --json --csv moves.csv --svg frames",
            "rushhour solve classic:12 --hands 3,5 --handover relaxed   # two hands, as a timeline",
        ),
    )
    p.add_argument("board", metavar="BOARD", nargs="?", help=BOARD_HELP + "; or --batch FILE")
    add_search_options(p)
    p.add_argument(
        "--heuristic",
        choices=HEURISTICS,
        type=str.lower,
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
    p.add_argument(
        "--min-moves",
        type=option_count_or_zero,
        default=None,
        metavar="K",
        help="sat engine: start at plans of K moves, a lower bound known elsewhere (no shorter plan is "
        "looked for: the answer is proven optimal only when K is at most the relaxed bound, and longer "
        "than the optimum when K is above it; at most --max-moves)",
    )
    p.add_argument("--show", action="store_true", help="draw the position after every move")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--csv", metavar="FILE", help="write the solution as vehicle,move lines")
    p.add_argument("--gif", metavar="FILE", help="draw the solution as an animated GIF (needs Pillow)")
    p.add_argument("--svg", metavar="DIR", help="draw every position of the solution as SVG files in DIR")
    p.add_argument(
        "--batch",
        metavar="FILE",
        help="solve every board of FILE (or of a PACK; - reads standard input), one result line each",
    )
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
        epilog=examples("rushhour analyze classic:12", "rushhour analyze classic:1 --metric steps --json"),
    )
    add_board(p)
    add_search_options(p, engines=False)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_color_flags(p)
    p.set_defaults(func=cmd_analyze)


def add_search_options(p: argparse.ArgumentParser, engines: bool = True) -> None:
    if engines:
        p.add_argument(
            "--engine",
            choices=ENGINES,
            type=str.lower,
            default=DEFAULT_ENGINE,
            help="portfolio (default; on boards larger than 6x6 the frontier passes, improve and SAT "
            "planning together until the bounds meet; elsewhere bfs), bfs and astar: optimal; "
            "sat: SAT planning, optimal; random, improve: baselines",
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


def _show_search(display: ProgressDisplay) -> Callable[[SearchProgress | Bounds], None]:
    """The search's records on the display: the engine, its count (positions, random moves), the memory;
    each bound the portfolio improves on a line of its own that stays."""

    def show(record: SearchProgress | Bounds) -> None:
        if isinstance(record, Bounds):
            display.note(record.describe())
            return
        memory = f"{record.memory / 1024**2:,.0f} MB"
        unit = f" {record.what}"
        display.update(record.count, desc=record.engine, unit=unit, line=record.describe(), postfix=memory)

    return show


def _solve(args: argparse.Namespace, board: Board) -> Solution:
    asked = getattr(args, "progress", False)
    display = ProgressDisplay(enabled=asked or not getattr(args, "batch", None), lines=asked)
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
            min_moves=args.min_moves,
            progress=_show_search(display) if display.enabled else None,
        )
    finally:
        display.close()


# --- solve ---------------------------------------------------------------------------------------
def cmd_solve(args: argparse.Namespace) -> int:
    check_solve_options(args)
    if args.timed or args.hands is not None:
        return cmd_timed(args)
    args.metric = args.metric or "moves"
    if args.batch is not None:
        return _batch(args)
    if args.board is None:
        raise RushHourError("no board: give BOARD, or --batch FILE to solve every board of a file")
    entry = resolve_board(args.board)
    board = entry.board
    if args.engine in ("portfolio", "bfs"):
        note_python_search(board.width, board.height, "solving")
    began = time.perf_counter()
    try:
        solution = _solve(args, board)
    except LimitReachedError as err:
        took = time.perf_counter() - began
        body = _solve_body(entry, err, engine=args.engine, metric=args.metric, seconds=took)
        return _stopped(args, "solve", body)
    if args.json:
        emit("solve", _solve_body(entry, solution, metric=solution.metric))
    else:
        _print_solution(args, entry, solution)
    _export(args, solution)  # after the answer: a file that cannot be written does not lose it
    return EXIT_SOLVED if solution.solved else EXIT_UNSOLVABLE


def expected(entry: Entry, metric: str) -> int | None:
    """The optimal length the board's header gives in ``metric``: its ``moves`` (an optimum of the
    moves metric).  None in the steps metric: a pack's ``steps`` header counts the cells slid by the
    moves-optimal solution it records, which is no optimum of the steps metric (a solution of fewer
    steps may take more moves)."""
    return expected_length(entry) if metric == "moves" else None


def _solve_body(
    entry: Entry, found: Solution | LimitReachedError, *, metric: str, **how: Any
) -> dict[str, Any]:
    """The ``rushhour.solve`` document, its ``expected`` length that of ``metric`` (:func:`expected`)."""
    body = solve_body(entry, found, metric=metric, **how)
    return {**body, "expected": expected(entry, metric)}


def check_solve_options(args: argparse.Namespace) -> None:
    """Refuse every option that does not apply to the mode chosen (exit status 2), rather than
    leaving it unused: each engine's own options, and what one solution, a batch or timed play take."""
    if args.hands is None and not args.timed:
        refuse_given(args, ("car_seconds", "truck_seconds"), "goes with --timed")
        refuse_given(args, ("handover",), "goes with --hands")
    elif args.hands is not None:
        if any(given(args, dest) for dest in ("timed", "car_seconds", "truck_seconds")):
            refuse(
                "hands take their own time whatever the vehicle: "
                "--hands goes without --timed, --car-seconds and --truck-seconds"
            )
    else:
        refuse_given(args, ("handover",), "goes with --hands")
    if args.timed or args.hands is not None:
        refuse_given(
            args,
            (
                "batch",
                "csv",
                "gif",
                "svg",
                "jobs",
                "show",
                "engine",
                "heuristic",
                "seed",
                "max_moves",
                "min_moves",
            ),
            "does not go with --timed or --hands (timed play has its own search and output)",
        )
        return
    engine = args.engine
    if engine != "astar":
        refuse_given(args, ("heuristic",), f"is the lower bound of the astar engine, not of {engine}")
    if engine not in ("random", "improve", "portfolio"):
        refuse_given(args, ("seed",), f"drives the random, improve and portfolio engines, not {engine}")
    if engine != "sat":
        refuse_given(args, ("max_moves", "min_moves"), f"bounds the plans of the sat engine, not {engine}")
    else:
        refuse_given(
            args,
            ("max_states", "max_memory"),
            "does not bound the sat engine: it explores plan lengths (use --max-moves and --time-limit)",
        )
        sat_cap(args.min_moves, args.max_moves)  # no length from --min-moves to --max-moves: refused
    if args.batch is not None:
        if args.board is not None:
            refuse("give either BOARD or --batch FILE, not both")
        refuse_given(args, ("csv", "gif", "svg", "show"), "draws one solution: it does not go with --batch")
    else:
        refuse_given(args, ("jobs",), "goes with --batch")
    if args.json:
        refuse_given(args, ("show",), "draws the positions: it does not go with --json")
        refuse_color_without_drawing(args, "--json")
    elif args.batch is not None:
        refuse_color_without_drawing(args, "--batch")
    if args.gif:
        from rushhour.render.pictures import require_pillow

        require_pillow()  # before the search, so that a missing Pillow costs nothing
    # before the search too: an output that cannot be written is found after it, and lost it
    for target in (args.csv, args.gif):
        if target:
            check_file_target(target, board=args.board)
    if args.svg and os.path.exists(args.svg) and not os.path.isdir(args.svg):
        raise RushHourError(f"cannot write the frames into {args.svg}: it is not a folder")


# --- timed play (rushhour.search.timed, docs/timed.md) -------------------------------------------


def add_timed_options(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("timed play (docs/timed.md)")
    group.add_argument(
        "--timed",
        action="store_true",
        help="the fastest solution by one hand, moves taking time by vehicle kind (steps metric by default)",
    )
    add_move_seconds(group)
    group.add_argument(
        "--hands", metavar="LEFT,RIGHT", help="the fastest schedule by two hands at once, e.g. 3,5 s per move"
    )
    group.add_argument(
        "--handover",
        choices=HANDOVERS,
        type=str.lower,
        help="with --hands: strict (default: a cell being left is held until the move ends) or relaxed",
    )
    p.set_defaults(metric=None)  # timed play counts steps unless --metric moves; the rest, moves


def hands_seconds(text: str) -> tuple[Fraction, Fraction]:
    """``--hands LEFT,RIGHT``: the two hands' seconds per move; a usage error when malformed."""
    try:
        return parse_hands(text)
    except RushHourError as err:
        raise UsageError(f"argument --hands: {err}") from None


def cmd_timed(args: argparse.Namespace) -> int:
    if args.board is None:
        raise RushHourError("no board: give BOARD")
    metric = args.metric or "steps"
    if args.hands is not None:
        hands = hands_seconds(args.hands)
        model = TimeModel.two_hands(hands, handover=args.handover or "strict", metric=metric)
    else:
        car = move_seconds(args.car_seconds, "--car-seconds", DEFAULT_CAR_SECONDS)
        truck = move_seconds(args.truck_seconds, "--truck-seconds", DEFAULT_TRUCK_SECONDS)
        model = TimeModel.one_hand(metric=metric, car_seconds=car, truck_seconds=truck)
    entry = resolve_board(args.board)
    began = time.perf_counter()
    try:
        found = schedule(
            entry.board,
            model,
            max_states=args.max_states,
            time_limit=args.time_limit,
            max_memory=args.max_memory * MEGABYTE,
        )
    except LimitReachedError as err:
        took = time.perf_counter() - began
        return _stopped(args, "timed", timed_body(entry, err, model=model, seconds=took))
    status = EXIT_SOLVED if found.solved else EXIT_UNSOLVABLE
    if args.json:
        emit("timed", timed_body(entry, found))
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
        print(timeline(found))
    print(
        f"{plural(found.explored, 'state')} explored in {_ms(found.seconds)}; "
        "the schedule replayed in time order."
    )
    return status


def _stopped(args: argparse.Namespace, command: str, body: dict[str, Any]) -> int:
    """A search stopped by a limit: the document with ``--json``, else the message on stderr."""
    if args.json:
        emit(command, body)
    else:
        sat = body.get("engine") == "sat"
        limits = "--time-limit and --max-moves" if sat else "--max-states, --time-limit and --max-memory"
        print(f"{body['message']} (see {limits})", file=sys.stderr)
        if body.get("lower_bound") is not None:
            bound = plural(body["lower_bound"], (args.metric or "moves")[:-1])
            print(f"Proven: no solution is shorter than {bound}{_by(body, 'lower')}.", file=sys.stderr)
        if body.get("best"):
            best = body["best"]
            shown = " ".join(best[:BEST_SHOWN])
            if len(best) > BEST_SHOWN:
                shown += f" ... ({len(best) - BEST_SHOWN:,} more: --json lists them all)"
            print(f"Best found{_by(body, 'best')}: {plural(len(best), 'move')}: {shown}", file=sys.stderr)
    return EXIT_STOPPED


def _by(body: dict[str, Any], kind: str) -> str:
    """`` (by ENGINE)``: the engine of the portfolio that proved or found the last bound of ``kind``."""
    found = [b for b in body.get("bounds") or () if b["kind"] == kind]
    return f" (by {found[-1]['engine']})" if found else ""


def _print_solution(args: argparse.Namespace, entry: Entry, solution: Solution) -> None:
    board = solution.board
    color = color_wanted(args)
    print(f"{entry.meta.get('name') or entry.label}: {board_summary(board)}")
    colors = fixed_colors(board, color)
    print(draw(board, color, colors=colors))
    took = f"{plural(solution.explored, 'position')} explored in {_ms(solution.seconds)}"
    if solution.engine == "portfolio":
        lower = [b for b in solution.bounds if b.kind == "lower"]
        best = [b for b in solution.bounds if b.kind == "best"]
        stored = plural(solution.explored, "position")
        passes = any(b.engine.startswith("frontier") for b in solution.bounds)
        took = (
            f"Portfolio: {stored} stored by the frontier passes in {_ms(solution.seconds)}"
            if passes or solution.explored
            else f"Portfolio: {_ms(solution.seconds)}"
        )
        if lower and best:
            took += f"; found by {best[-1].engine}, proven optimal by {lower[-1].engine}"
    if solution.engine == "sat":
        took = f"SAT planning: {plural(solution.explored, 'plan length')} tried in {_ms(solution.seconds)}"
        if solution.optimal and solution.length:
            took += f"; no plan of {plural(solution.length - 1, 'move')} or fewer exists"
        elif args.min_moves is not None and solution.length:
            took += f"; from --min-moves {args.min_moves}: no shorter plan was looked for"
    if not solution.solved:
        if solution.explored == 1:  # no vehicle can move
            said = f"no vehicle can move, and {board.goal} is not at the exit"
        else:
            every = f"all {solution.explored:,} reachable positions"
            said = f"{every} were explored and none has {board.goal} at the exit"
        print(f"Unsolvable: {said} ({_ms(solution.seconds)}).")
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
        print(solution_lines(solution.moves, solution.metric))
    print(took)


def solution_lines(moves: Sequence[Move], metric: str, width: int = 78) -> str:
    """The numbered moves in columns.  In the steps metric, consecutive steps of one vehicle are
    joined (``10-12. M+3``) and the numbers still count every step."""
    if metric == "steps":
        numbered = [(run.numbers, run.move) for run in runs(moves)]
    else:
        numbered = [(str(k), move) for k, move in enumerate(moves, 1)]
    number_width = max((len(n) for n, _ in numbered), default=1)
    cells = [f"{n:>{number_width}}. {move}" for n, move in numbered]
    cell_width = max((len(c) for c in cells), default=0)  # measured once: the listing is linear
    per_line = max(1, width // (cell_width + 2))
    return "\n".join(
        "  " + "  ".join(c.ljust(cell_width) for c in cells[lo : lo + per_line]).rstrip()
        for lo in range(0, len(cells), per_line)
    )


def timeline(found: Schedule) -> str:
    """A schedule as a table of start, end, hand and move, in start order.  In the steps metric a
    hand's consecutive steps of one vehicle the same way, each starting as the one before ends, are
    one row (``M+3``), with the steps it joins counted."""
    rows: list[tuple[TimedMove, int]] = []  # an item (steps joined) and how many steps it joins
    last_of_hand: dict[str, int] = {}
    for item in found.items:
        k = last_of_hand.get(item.hand)
        if found.model.metric == "steps" and k is not None:
            before, count = rows[k]
            if (
                before.move.vehicle == item.move.vehicle
                and (before.move.distance > 0) == (item.move.distance > 0)
                and before.end == item.start
            ):
                joined = Move(item.move.vehicle, before.move.distance + item.move.distance)
                rows[k] = (TimedMove(before.start, item.end, item.hand, joined), count + 1)
                continue
        last_of_hand[item.hand] = len(rows)
        rows.append((item, 1))
    table = [("start", "end", "hand", "move")]
    for item, count in rows:
        move = str(item.move) + (f" ({count} steps)" if count > 1 else "")
        table.append((format_seconds(item.start), format_seconds(item.end), item.hand or "-", move))
    widths = [max(len(r[c]) for r in table) for c in range(3)]
    return "\n".join(
        f"{a:>{widths[0]}}  {b:>{widths[1]}}  {c:<{widths[2]}}  {d}".rstrip() for a, b, c, d in table
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _export(args: argparse.Namespace, solution: Solution) -> None:
    if not (args.csv or args.gif or args.svg):
        return
    if not solution.solved:
        asked = ", ".join(f"--{name}" for name in ("csv", "gif", "svg") if getattr(args, name))
        print(f"note: the board is unsolvable: there is no solution to write ({asked})", file=sys.stderr)
        return
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
    #: the board's ``rushhour.solve`` document (with ``--json`` only)
    body: dict[str, Any] | None = None

    def agrees(self) -> bool:
        """Whether the length found agrees with the file's optimum: the same, or, from an engine that
        proves nothing (random, improve), no shorter (a longer walk says nothing against the file)."""
        if self.expected is None or self.status != EXIT_SOLVED:
            return True
        return self.length == self.expected if self.optimal else self.length >= self.expected


def _batch_one(job: tuple[argparse.Namespace, Entry]) -> BatchRow:
    args, entry = job
    wanted = expected(entry, args.metric)
    text = _board_text(entry.board)
    began = time.perf_counter()
    try:
        s = _solve(args, entry.board)
    except LimitReachedError as err:
        took = time.perf_counter() - began
        body = None
        if args.json:
            body = _solve_body(entry, err, engine=args.engine, metric=args.metric, seconds=took)
        return BatchRow(
            entry.label, text, EXIT_STOPPED, -1, -1, err.explored, took, False, wanted, str(err), body
        )
    status = EXIT_SOLVED if s.solved else EXIT_UNSOLVABLE
    length, steps = (s.length, s.steps) if s.solved else (-1, -1)
    body = _solve_body(entry, s, metric=s.metric) if args.json else None
    return BatchRow(
        entry.label, text, status, length, steps, s.explored, s.seconds, s.optimal, wanted, "", body
    )


def _batch_chunk(jobs: list[tuple[argparse.Namespace, Entry]]) -> list[BatchRow]:
    return [_batch_one(job) for job in jobs]


def _batch(args: argparse.Namespace) -> int:
    entries = resolve_all(args.batch)
    jobs = [(args, entry) for entry in entries]
    began = time.perf_counter()
    rows: list[BatchRow] = []
    if args.jobs > 1 and len(jobs) > 1:
        context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        with (
            interrupt_as_flag() as interrupted,
            owned_pool(min(args.jobs, len(jobs)), context, "solving") as pool,
        ):
            size = max(1, min(64, len(jobs) // (8 * args.jobs)))
            chunks = [jobs[k : k + size] for k in range(0, len(jobs), size)]
            answers = [pool.submit(_batch_chunk, chunk) for chunk in chunks]
            for answer in answers:  # in order
                for row in awaited(answer.result, interrupted):
                    rows.append(row)
                    _batch_line(args, row)
    else:
        for job in jobs:
            row = _batch_one(job)
            rows.append(row)
            _batch_line(args, row)
    return _batch_summary(args, rows, time.perf_counter() - began)


def _batch_line(args: argparse.Namespace, row: BatchRow) -> None:
    if row.body is not None:
        emit("solve", row.body)
        return
    if row.status == EXIT_SOLVED:
        result = f"{plural(row.length, 'move'):>10} {plural(row.steps, 'step'):>10}"
        if not row.optimal:
            result += " (not proven optimal)"
    elif row.status == EXIT_UNSOLVABLE:
        result = "unsolvable"
    else:
        result = "stopped by a limit"
    check = ""
    if row.expected is not None and row.status == EXIT_SOLVED:
        check = "" if row.agrees() else f"  (the file says {row.expected})"
    print(
        f"{row.label}  {row.board}  {result}  {plural(row.explored, 'position')}  "
        f"{row.seconds * 1000:.1f} ms{check}",
        flush=True,
    )


def _batch_summary(args: argparse.Namespace, rows: Sequence[BatchRow], wall: float) -> int:
    solved = [r for r in rows if r.status == EXIT_SOLVED]
    unsolvable = sum(r.status == EXIT_UNSOLVABLE for r in rows)
    stopped = sum(r.status == EXIT_STOPPED for r in rows)
    checked = [r for r in solved if r.expected is not None]
    agree = sum(r.agrees() for r in checked)
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
        emit("batch", {"source": args.batch, **summary})
    else:
        line = (
            f"{plural(len(rows), 'board')}: {len(solved)} solved, {unsolvable} unsolvable, "
            f"{stopped} stopped; median {summary['median_ms']} ms per board, {wall:.2f} s in all with "
            f"{plural(args.jobs, 'job')}"
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
def cmd_analyze(args: argparse.Namespace) -> int:
    if args.json:
        refuse_color_without_drawing(args, "--json")
    entry = resolve_board(args.board)
    note_python_search(entry.board.width, entry.board.height, "analysing")
    began = time.perf_counter()
    display = ProgressDisplay(lines=args.progress)
    try:
        analysis = analyze(
            entry.board,
            metric=args.metric,
            max_states=args.max_states,
            time_limit=args.time_limit,
            max_memory=args.max_memory * MEGABYTE,
            progress=_show_search(display) if display.enabled else None,
        )
    except LimitReachedError as err:
        display.close()  # the stop's message starts on a clean line
        took = time.perf_counter() - began
        return _stopped(args, "analyze", analyze_body(entry, err, metric=args.metric, seconds=took))
    finally:
        display.close()
    if args.json:
        emit("analyze", analyze_body(entry, analysis))
        return EXIT_SOLVED if analysis.solvable else EXIT_UNSOLVABLE
    board = entry.board
    color = color_wanted(args)
    unit = "move" if args.metric == "moves" else "step"
    print(f"{entry.meta.get('name') or entry.label}: {board_summary(board)}")
    colors = fixed_colors(board, color)
    print(draw(board, color, colors=colors))
    print(f"Reachable positions: {analysis.cluster_size:,} ({analysis.won_count:,} won)")
    if not analysis.solvable:
        print(f"Unsolvable: no reachable position has {board.goal} at the exit.")
        print(f"Explored in {_ms(analysis.seconds)}.")
        return EXIT_UNSOLVABLE
    print(f"This board: {plural(analysis.start_distance, unit)} from the nearest win.")
    print(f"Distance to the nearest win ({unit}s): positions")
    top = max(analysis.histogram.values())
    for distance, count in sorted(analysis.histogram.items()):
        bar = "#" * max(1, round(40 * count / top))
        mark = "  <- this board" if distance == analysis.start_distance else ""
        print(f"  {distance:4d}: {count:>9,} {bar}{mark}")
    print(f"Hardest position ({plural(analysis.hardest_distance, unit)} from a win):")
    print(draw(analysis.hardest, color))
    print(f"  {_board_text(analysis.hardest)}")
    print(f"Explored in {_ms(analysis.seconds)}.")
    return EXIT_SOLVED
