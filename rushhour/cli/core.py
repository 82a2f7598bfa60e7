"""The conventions every command keeps, and ``show``, ``moves`` and ``convert``: the board itself.

The conventions (docs/cli.md): the :class:`Parser` of every command (a usage error is one line,
``error: ... try 'rushhour solve --help'``, exit status 2), help with examples, one description of
BOARD, the options shared by several commands, and :func:`refuse` for options that do not go with the
mode chosen.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from rushhour.board import METRICS, Board
from rushhour.cli.documents import emit, entry_ref
from rushhour.errors import FormatError, RushHourError
from rushhour.files import check_path, exists, write_text_atomic
from rushhour.formats import FORMATS, Entry, grid, jsonfmt, parse_text, write_board
from rushhour.levels import document_header, resolve_all, resolve_board
from rushhour.numbers import MAX_WHOLE, NumberError, count, decimal, whole_or_none
from rushhour.render.palette import Colour, color_depth, vehicle_colors
from rushhour.render.text import board_summary, render, use_color
from rushhour.text import plural

EXIT_ERROR = 2

#: what a BOARD argument may be, said in the help of every command that takes one
BOARD_HELP = (
    "a board file (grid, Fogleman, CSV or JSON), an inline board (a Fogleman line, or grid rows "
    "joined by /), a built-in level (classic:12), or - to read standard input"
)


#: the metavars of arguments that name a file or a folder (a BOARD may also be inline or built in)
PATH_METAVARS = ("FILE", "DIR", "FILE|DIR")


def check_paths(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a careless path given to any argument of ``parser`` that takes one (by its metavar):
    an empty or blank path, control characters, a loop of symbolic links; a BOARD only for a loop,
    as it may be an inline board."""
    for action in parser._actions:
        metavar = action.metavar if isinstance(action.metavar, str) else None
        value = getattr(args, action.dest, None)
        if metavar is None or not isinstance(value, str):
            continue
        if metavar in PATH_METAVARS:
            check_path(value, name=action.option_strings[-1] if action.option_strings else metavar)
        elif metavar == "BOARD":
            exists(value)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but lines of a description or epilog indented by two spaces (the
    examples) are kept as written while the other lines are filled as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        prose: list[str] = []

        def flush() -> None:
            if prose:
                out.append(super(HelpFormatter, self)._fill_text(" ".join(prose), width, indent))
                prose.clear()

        for line in text.splitlines():
            if line.startswith("  ") or not line.strip():
                flush()
                out.append(indent + line if line.strip() else "")
            else:
                prose.append(line.strip())
        flush()
        return "\n".join(out)


#: a word that is a value even though it begins with a dash: a negative number, cell, range or size
_DASHED_VALUE = re.compile(r"-\.?[0-9]")


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line in the house style, ``error: ...`` with a hint to the
    command's ``--help``, and exit status 2, for the top level and every subcommand alike."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def _parse_optional(self, arg_string: str) -> Any:
        """As argparse, but a word that begins with ``-`` and a digit or ``.`` followed by a digit
        (``-1,2``, ``-1e6``, ``-3-5``, ``-.5``, ``-6x6``) is a value, never an option: ``--cell -1,2``
        gives the option its value and the option's own check says what is wrong with it, where
        argparse took only plain negative numbers (``-1``, ``-0.5``) so and said ``expected one
        argument`` for the rest.  No option of this program is a dash and a digit."""
        if _DASHED_VALUE.match(arg_string) and arg_string not in self._option_string_actions:
            return None
        return super()._parse_optional(arg_string)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message}; try '{self.prog} --help'\n")
        raise SystemExit(EXIT_ERROR)

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """As argparse, but arguments left over are refused by the subcommand that was given, so that
        the message names it (``try 'rushhour solve --help'``)."""
        tokens = list(sys.argv[1:] if args is None else args)
        parsed, extras = self.parse_known_args(tokens, namespace)
        command = self.subcommand(getattr(parsed, "command", None))
        if extras:
            command.error(f"unrecognized arguments: {' '.join(extras)}")
        parsed.given_options = _given(command, tokens)
        return parsed

    def subcommand(self, name: str | None) -> argparse.ArgumentParser:
        """The parser of subcommand ``name`` (this parser when there is none by that name)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and name in action.choices:
                parser: argparse.ArgumentParser = action.choices[name]
                return parser
        return self


def _given(parser: argparse.ArgumentParser, tokens: Sequence[str]) -> frozenset[str]:
    """The destinations of the options written in ``tokens`` (abbreviations included), whatever their
    values: what the user asked for, as opposed to the defaults."""
    actions = parser._option_string_actions
    longs = [name for name in actions if name.startswith("--")]
    found = set()
    for token in tokens:
        if token == "--":
            break
        if not token.startswith("-") or token == "-" or token[1:2].isdigit():
            continue
        name = token.partition("=")[0]
        if not name.startswith("--"):
            name = name[:2]  # -q, or -qN
        if name in actions:
            found.add(actions[name].dest)
            continue
        matches = [option for option in longs if option.startswith(name)] if name.startswith("--") else []
        if len(matches) == 1:
            found.add(actions[matches[0]].dest)
    return frozenset(found)


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the option stored in ``dest`` was written on the command line (not left to its
    default).  Without the parser's record (a namespace made by hand), whether it is set at all."""
    record = getattr(args, "given_options", None)
    if record is not None:
        return dest in record
    return getattr(args, dest, None) not in (None, False)


def flag(dest: str) -> str:
    """The option of a destination: ``max_states`` is ``--max-states``."""
    return "--" + dest.replace("_", "-")


def refuse_given(args: argparse.Namespace, dests: Sequence[str], why: str) -> None:
    """Refuse the first option of ``dests`` that was given: ``--show does not go with --json``."""
    for dest in dests:
        if given(args, dest):
            refuse(f"{flag(dest)} {why}")


def refuse_color_without_drawing(args: argparse.Namespace, mode: str) -> None:
    """``--color``/``--no-color`` colour drawings: refused where ``mode`` (``--json``) draws none."""
    if given(args, "color"):
        refuse(f"--color and --no-color colour the drawings: they do not go with {mode}")


def note_python_search(width: int, height: int, what: str) -> None:
    """Say on stderr, once, that a board larger than 6x6 is searched without the compiled search: the
    frontier passes and the portfolio exist only compiled, so ``what`` may take minutes there."""
    from rushhour.search.native import native_enabled

    if width * height > 36 and not native_enabled():
        print(
            f"note: the compiled search is not in use (rushhour --version says why): {what} a "
            f"{width}x{height} board runs in Python, which may take minutes and gigabytes where the "
            "compiled search takes seconds",
            file=sys.stderr,
        )


def add_move_seconds(parser: Any) -> None:
    """``--car-seconds`` and ``--truck-seconds``, the speeds of ``--timed`` (``solve`` and ``play``);
    read with :func:`move_seconds`."""
    from rushhour.search.timed import DEFAULT_CAR_SECONDS, DEFAULT_TRUCK_SECONDS

    car = f"with --timed: a car's seconds per cell (default {DEFAULT_CAR_SECONDS})"
    parser.add_argument("--car-seconds", metavar="S", help=car)
    truck = f"with --timed: a truck's (length 3+; default {DEFAULT_TRUCK_SECONDS})"
    parser.add_argument("--truck-seconds", metavar="S", help=truck)


def move_seconds(text: str | None, option: str, default: int) -> Fraction:
    """The seconds per move of ``option`` (``--car-seconds``, ``--truck-seconds``): ``default`` when
    it is not given; a value given that is no duration, the empty one too, is a usage error (ends with
    the help to read, as argparse's errors), never the default."""
    from rushhour.search.timed import seconds

    if text is None:
        return Fraction(default)
    try:
        return seconds(text, option[2:].replace("-", " "))
    except RushHourError as err:
        raise UsageError(f"argument {option}: {err}") from None


def examples(*lines: str) -> str:
    """An epilog of example commands, one a line (``command  # what it does``)."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def add_board(parser: argparse.ArgumentParser, *, more: str = "") -> None:
    """The BOARD argument, described the same way in every command."""
    parser.add_argument("board", metavar="BOARD", help=BOARD_HELP + more)


class UsageError(RushHourError):
    """Options given together that do not go together (the command line reports it with a hint to
    the command's ``--help``)."""


def refuse(message: str) -> NoReturn:
    """A combination of options that does not go together: an error, exit status 2."""
    raise UsageError(message)


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


def option_range(text: str) -> tuple[int, int]:
    """argparse type: a count or a range of counts (``3``, ``8-12``)."""
    lo, dash, hi = text.partition("-")
    a = whole_or_none(lo)
    b = whole_or_none(hi) if dash else a
    if a is None or b is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count or a range like 3 or 8-12")
    if b < a:
        raise argparse.ArgumentTypeError(f"{text!r} runs backwards: write the smaller number first")
    return a, b


def option_seconds(text: str) -> float:
    """argparse type: a positive number of seconds (``10``, ``2.5``), at most a year."""
    try:
        value = float(decimal(text, "the number of seconds", most=MAX_SECONDS))
    except NumberError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def add_format_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--format`` (``args.fmt``): the board format a command writes, grid by default."""
    parser.add_argument("--format", choices=FORMATS, type=str.lower, default="grid", dest="fmt", help=help)


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
        type=str.lower,
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


def register(sub: Any) -> None:
    p = sub.add_parser(
        "show",
        help="draw a board",
        description="Draw a board with its exit, and its known optimum.",
        epilog=examples(
            "rushhour show classic:12",
            "rushhour show classic:12 --labels   # rows and columns numbered, as messages name cells",
            "rushhour show GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo --no-color",
            "rushhour show 'AA...B/.....B/CC.D../...D../EEE.../......' --json",
        ),
    )
    add_board(p)
    p.add_argument("--json", action="store_true", help="the board as JSON instead")
    p.add_argument(
        "--labels", action="store_true", help="number the rows and columns from 0, as messages name cells"
    )
    add_color_flags(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List every legal move in A+2 notation (positive: right or down).",
        epilog=examples(
            "rushhour moves classic:12                      # from the SAT move oracle",
            "rushhour moves classic:12 --oracle rules --metric steps --json",
            "rushhour moves classic:12 --why                # the propositions that make each move legal",
        ),
    )
    add_board(p)
    add_metric_flag(p)
    p.add_argument(
        "--oracle",
        choices=("sat", "rules"),
        type=str.lower,
        default="sat",
        help="where the moves come from: the SAT encoding (default) or the reference rules",
    )
    p.add_argument(
        "--why",
        action="store_true",
        help="for each move the true propositions that make it legal, read from the SAT solver",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser(
        "convert",
        help="write a board in another format",
        description="Write every board of BOARD in another format (see docs/formats.md).",
        epilog=examples(
            "rushhour convert classic:12 --to fogleman",
            "rushhour convert classic --to fogleman --out classic.txt   # a whole pack",
            "rushhour convert classic:12 --to json --out board.json",
        ),
    )
    add_board(p, more="; a file or pack of many boards converts them all")
    p.add_argument(
        "--to", choices=FORMATS, type=str.lower, required=True, dest="fmt", help="the format to write"
    )
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_convert)


def cmd_show(args: argparse.Namespace) -> int:
    if args.json:
        refuse_color_without_drawing(args, "--json")
        refuse_given(args, ("labels",), "numbers the drawing's rows and columns: it does not go with --json")
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
        print(f"optimal solution: {plural(optimal, 'move')}")
    print(draw(board, color_wanted(args), labels=args.labels))
    if board.is_won():
        print(f"{board.goal} is at the exit: this position is won.")
    return 0


def moves_of(board: Board, metric: str, oracle: str) -> list[str]:
    if oracle == "sat":
        from rushhour.logic.oracle import legal_moves

        return [str(m) for m in legal_moves(board, metric)]
    return [str(m) for m in board.legal_moves(metric)]


def moves_why(args: argparse.Namespace, entry: Entry) -> int:
    """``moves --why``: the legal moves, each with the true propositions that make it legal."""
    if args.oracle != "sat":
        refuse("--why reads the SAT solver's model: it does not go with --oracle rules")
    from rushhour.logic.oracle import oracle_for

    board = entry.board
    found = oracle_for(board).why(board, args.metric)
    if args.json:
        body = {
            "board": entry_ref(entry),
            "metric": args.metric,
            "oracle": "sat",
            "count": len(found),
            "moves": [str(m) for m, _ in found],
            "won": board.is_won(),
            "why": [{"move": str(m), "propositions": list(props)} for m, props in found],
        }
        emit("moves", body)
        return 0
    print(f"{plural(len(found), 'legal move')} ({args.metric} metric, sat oracle), each with the true")
    print("propositions that make it legal (the vehicle's end, its CM/Slide chain, the empty cells):")
    width = max((len(str(m)) for m, _ in found), default=0)
    for move, props in found:
        print(f"  {str(move):<{width}}  {' & '.join(props)}")
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    entry = resolve_board(args.board)
    board = entry.board
    if args.why:
        return moves_why(args, entry)
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
    print(f"{plural(len(moves), 'legal move')} ({args.metric} metric, {args.oracle} oracle):")
    if moves:
        print(" ".join(moves))
    return 0


def _each(entries: list[Entry], write: Callable[[Entry], str]) -> list[str]:
    """Every entry written; a board the format cannot hold is named when the source has several."""
    out = []
    for entry in entries:
        try:
            out.append(write(entry))
        except FormatError as err:
            if len(entries) > 1:
                raise FormatError(f"{entry.label}: {err}") from None
            raise
    return out


#: a format's name in a sentence, as the formats' own errors write it
FORMAT_TITLES = {"grid": "grid", "fogleman": "Fogleman", "csv": "CSV", "json": "JSON"}


def _left_out(entries: list[Entry], written: list[str], fmt: str, header: dict[str, str]) -> str | None:
    """What the conversion leaves out that the source says, as one ``note:`` line (``None`` when it
    keeps everything): the file's header where the format has none, and each board's header lines that
    do not read back from what was written (the Fogleman format keeps a database line's figures only;
    a JSON board's ``exit`` or ``goal`` in its meta is no header a grid can hold beside the board's
    own).  ``written``: each board as written (none for a JSON list, which keeps every meta entry)."""
    lost: dict[str, int] = {}
    for entry, text in zip(entries, written, strict=False):
        if not entry.meta:
            continue
        kept = parse_text(text, fmt=fmt)[0].meta
        line = write_board(entry.board, fmt, {}).strip() if fmt == "fogleman" else None
        for key, value in entry.meta.items():
            if str(value) == line:  # the board's own line (the classic pack's `fogleman`): written
                continue
            if key not in kept or str(kept[key]) != str(value):
                lost[key] = lost.get(key, 0) + 1
    parts = []
    if lost:
        total = len(entries)
        keys = ", ".join(key if n == total else f"{key} ({n} of {total})" for key, n in lost.items())
        parts.append(f"the boards' {keys}" if len(entries) > 1 else f"the board's {keys}")
    if header and fmt != "grid":
        parts.append(f"the file's header ({', '.join(header)})")
    if not parts:
        return None
    where = FORMAT_TITLES[fmt]
    return f"note: the {where} format has no place for {'; '.join(parts)}: left out"


def _convert(entries: list[Entry], fmt: str, header: dict[str, str] | None = None) -> tuple[str, list[str]]:
    """The boards in format ``fmt``, with the source's ``header`` where the format holds one (grid), and
    each board as written (for :func:`_left_out`; none for a JSON list)."""
    if fmt == "json" and len(entries) > 1:
        items = [{**jsonfmt.board_to_dict(e.board), "meta": e.meta} for e in entries]
        return json.dumps(items, indent=2) + "\n", []
    if len(entries) > 1 and fmt not in ("grid", "fogleman"):
        raise FormatError(
            f"the {fmt} format holds one board; this source has {len(entries)}: convert one of them "
            f"(BOARD:N, 1 to {len(entries)}), or all of them to grid, fogleman or json"
        )
    written = _each(entries, lambda e: write_board(e.board, fmt, e.meta))
    if fmt == "grid" and (len(entries) > 1 or header):
        return grid.join_document(written, header), written
    return "".join(written), written


def cmd_convert(args: argparse.Namespace) -> int:
    entries = resolve_all(args.board)
    header = document_header(args.board)
    text, written = _convert(entries, args.fmt, header)
    left_out = _left_out(entries, written, args.fmt, header)
    if left_out is not None:
        print(left_out, file=sys.stderr)
    if args.out:
        write_text_atomic(args.out, text)
        return 0
    sys.stdout.write(text)
    return 0
