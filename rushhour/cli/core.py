"""``show``, ``moves`` and ``convert``: the board itself."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from rushhour.board import METRICS, Board
from rushhour.cli.documents import emit, entry_ref
from rushhour.errors import FormatError
from rushhour.files import write_text_atomic
from rushhour.formats import FORMATS, Entry, fogleman, grid, jsonfmt, write_board
from rushhour.levels import resolve_all, resolve_board
from rushhour.numbers import MAX_WHOLE, NumberError, count, decimal, whole_or_none
from rushhour.render.palette import Colour, color_depth, vehicle_colors
from rushhour.render.text import render, use_color

#: the longest time limit an option takes: a year, in seconds (a float holds it exactly)
MAX_SECONDS = 366 * 24 * 3600
#: the most worker processes an option may ask for
MAX_JOBS = 256


def _option_count(what: str, *, least: int = 1, most: int = MAX_WHOLE) -> Callable[[str], int]:
    """An argparse type reading a count with :func:`rushhour.numbers.count`."""

    def parse(text: str) -> int:
        try:
            return count(text, what, least=least, most=most)
        except NumberError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return parse


#: argparse type: a count of at least 1 (``5000000``, ``5_000_000``, ``5,000,000`` or ``5e6``)
option_count = _option_count("the number")
#: argparse type: a number of worker processes, 1 to :data:`MAX_JOBS`
option_jobs = _option_count("the number of processes", most=MAX_JOBS)
#: argparse type: a count of at least 0
option_count_or_zero = _option_count("the number", least=0)


def option_seconds(text: str) -> float:
    """argparse type: a positive number of seconds (``10``, ``2.5``), at most a year."""
    try:
        value = float(decimal(text, "the number of seconds", most=MAX_SECONDS))
    except NumberError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def add_color_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--color",
        dest="color",
        action="store_const",
        const=True,
        default=None,
        help="colour even when stdout is not a terminal",
    )
    group.add_argument(
        "--no-color",
        dest="color",
        action="store_const",
        const=False,
        help="no colour (also when NO_COLOR is set)",
    )


def add_metric_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--metric",
        choices=METRICS,
        default="moves",
        help="moves: slide any distance (default); steps: one cell",
    )


def color_wanted(args: argparse.Namespace) -> bool:
    return use_color(args.color, sys.stdout.isatty(), os.environ)


def draw(board: Board, color: bool, **options: Any) -> str:
    """``board`` drawn for standard output: with colour at the terminal's depth when ``color``."""
    return render(board, color=color, depth=color_depth(os.environ), **options)


def fixed_colors(board: Board, color: bool) -> dict[str, Colour] | None:
    """The colours of ``board``'s vehicles, chosen once so that each keeps its colour wherever it
    moves (pass them to :func:`draw` as ``colors``); None without colour."""
    return vehicle_colors(board, color_depth(os.environ)) if color else None


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def board_summary(board: Board) -> str:
    kinds = sorted({v.kind for v in board.vehicles})
    exit_text = f"exit {board.exit.side}" if board.exit is not None else f"target {board.target}"
    return (
        f"{board.width}x{board.height}, {plural(len(board.names), 'vehicle')} ({', '.join(kinds)}), "
        f"{plural(len(board.walls), 'wall')}, goal {board.goal}, {exit_text}"
        + (", wrap-around" if board.wrap else "")
    )


def register(sub: Any) -> None:
    p = sub.add_parser("show", help="draw a board", description="Draw a board with its exit.")
    p.add_argument("board", metavar="BOARD", help="file, inline board or built-in name")
    p.add_argument("--json", action="store_true", help="the board as JSON instead")
    add_color_flags(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List every legal move in A+2 notation (positive: right or down).",
    )
    p.add_argument("board", metavar="BOARD")
    add_metric_flag(p)
    p.add_argument(
        "--oracle",
        choices=("sat", "rules"),
        default="sat",
        help="where the moves come from: the SAT encoding (default) or the reference rules",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser(
        "convert",
        help="write a board in another format",
        description="Write every board of BOARD in another format.",
    )
    p.add_argument("board", metavar="BOARD")
    p.add_argument("--to", choices=FORMATS, required=True, dest="fmt")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_convert)


def cmd_show(args: argparse.Namespace) -> int:
    entry = resolve_board(args.board)
    board = entry.board
    if args.json:
        # the board's facts as the JSON format holds them (readable back as a board), then the rest
        facts = {**jsonfmt.board_to_dict(board), "meta": dict(entry.meta)}
        emit("show", {**facts, "board": entry_ref(entry), "won": board.is_won()})
        return 0
    title = entry.meta.get("name") or entry.label
    print(f"{title}: {board_summary(board)}")
    optimal = whole_or_none(entry.meta.get("moves", ""))
    if optimal is not None:
        print(f"optimal solution: {optimal} moves")
    print(draw(board, color_wanted(args)))
    if board.is_won():
        print(f"{board.goal} is at the exit: this position is won.")
    return 0


def moves_of(board: Board, metric: str, oracle: str) -> list[str]:
    if oracle == "sat":
        from rushhour.logic.oracle import legal_moves

        return [str(m) for m in legal_moves(board, metric)]
    return [str(m) for m in board.legal_moves(metric)]


def cmd_moves(args: argparse.Namespace) -> int:
    entry = resolve_board(args.board)
    board = entry.board
    moves = moves_of(board, args.metric, args.oracle)
    if args.json:
        body = {
            "board": entry_ref(entry),
            "metric": args.metric,
            "oracle": args.oracle,
            "count": len(moves),
            "moves": moves,
            "won": board.is_won(),
        }
        emit("moves", body)
        return 0
    noun = "move" if len(moves) == 1 else "moves"
    print(f"{len(moves)} legal {noun} ({args.metric} metric, {args.oracle} oracle):")
    if moves:
        print(" ".join(moves))
    return 0


def _convert(entries: list[Entry], fmt: str) -> str:
    if fmt == "grid":
        if len(entries) == 1:
            return grid.write_grid(entries[0].board, entries[0].meta)
        return grid.write_document([(e.board, e.meta) for e in entries])
    if fmt == "fogleman":
        return "".join(fogleman.write_line(e.board, e.meta) + "\n" for e in entries)
    if fmt == "json" and len(entries) > 1:
        return (
            json.dumps([{**jsonfmt.board_to_dict(e.board), "meta": e.meta} for e in entries], indent=2) + "\n"
        )
    if len(entries) > 1:
        raise FormatError(f"the {fmt} format holds one board; this source has {len(entries)}")
    return write_board(entries[0].board, fmt, entries[0].meta)


def cmd_convert(args: argparse.Namespace) -> int:
    text = _convert(resolve_all(args.board), args.fmt)
    if args.out:
        write_text_atomic(args.out, text)
        return 0
    sys.stdout.write(text)
    return 0
