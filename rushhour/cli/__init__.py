"""The ``rushhour`` command line: argparse subcommands, one module per group of commands.

This package is the only place that reads stdin or writes to the terminal.  Every
:class:`~rushhour.errors.RushHourError` becomes ``error: <message>`` on stderr and exit status 2, and so
does every usage error (one line, with a hint to the command's ``--help``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import FrameType

from rushhour import __version__
from rushhour.cli.core import Parser, UsageError, check_paths, examples
from rushhour.errors import ParameterError, RushHourError

EXIT_OK, EXIT_NO, EXIT_ERROR = 0, 1, 2


class _Version(argparse.Action):
    """``--version``: the version, and whether the compiled search is in use (or why not), worked out
    only when asked (the compiled module is not loaded for every command's parser)."""

    def __init__(
        self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None
    ) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from rushhour.search.native import native_status

        print(f"rushhour {__version__}\n{native_status()}")
        parser.exit()


def build_parser() -> Parser:
    from rushhour.cli import completion, core, edit, enumerate, generate, harden, logic, play, solve

    parser = Parser(
        prog="rushhour",
        description="Rush Hour in propositional logic: play, solve, generate and explain puzzles.",
        epilog=examples(
            "rushhour play                  # the first unsolved built-in level",
            "rushhour solve classic:12      # an optimal solution",
            "rushhour solve --help          # the options of one command",
        ),
    )
    parser.add_argument("--version", action=_Version, help="the version; whether the compiled search is used")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in (core, play, edit, logic, solve, generate, harden, enumerate, completion):
        module.register(sub)
    sub.choices["completion"].set_defaults(parser=parser)  # the command it describes (only it carries it)
    for command in sub.choices.values():  # `rushhour solve --version` works too
        command.add_argument("--version", action=_Version, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdin is None:  # started with its input closed (`<&-`): as good as an empty input
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the whole run
    if sys.stdout is None:  # started with its output closed (`>&-`): nothing can be shown
        _error("the standard output is closed: give the command an output (a file, a pipe or /dev/null)")
        return EXIT_ERROR
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_ERROR
    try:
        with _ended_as_interrupted() as ended:
            check_paths(parser.subcommand(args.command), args)
            status = int(args.func(args) or 0)
            sys.stdout.flush()  # so that a failed write (a full disk) is reported here, not at exit
        return 128 + ended[0] if ended and status == EXIT_INTERRUPTED else status
    except UsageError as err:
        _error(f"{err}; try '{parser.subcommand(args.command).prog} --help'")
        return EXIT_ERROR
    except RushHourError as err:
        _error(str(err.as_options() if isinstance(err, ParameterError) else err))
        return EXIT_ERROR
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        _drop_stdout()
        return EXIT_OK
    except OSError as err:
        if err.filename is not None:  # a file the command used, not its output
            _error(f"{err.filename}: {err.strerror or err}")
            return EXIT_ERROR
        # the output could not be written (`> /dev/full`, a disk that filled up...)
        _drop_stdout()
        _error(f"cannot write the output: {err.strerror or err}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        # on a line of its own, after the ^C a terminal shows
        on_terminal = sys.stderr is not None and sys.stderr.isatty()
        print(("\n" if on_terminal else "") + "interrupted", file=sys.stderr)
        return 128 + _ENDED[0] if _ENDED else EXIT_INTERRUPTED


EXIT_INTERRUPTED = 130  # 128 + SIGINT
#: the signal that ended the command, when it was SIGTERM or SIGHUP (their exit status is 128 + it)
_ENDED: list[int] = []


@contextlib.contextmanager
def _ended_as_interrupted() -> Iterator[list[int]]:
    """SIGTERM and SIGHUP end a command as Ctrl-C does (what it made so far kept, its workers
    stopped), with 128 + their number as the exit status: the handler Ctrl-C has at that moment
    answers them (a part of the run that holds Ctrl-C back holds them back too).  The game and the
    editor, which keep what the player did on any of them, set their own while they run."""
    _ENDED.clear()

    def end(signum: int, frame: FrameType | None) -> None:
        _ENDED[:] = [signum]
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():  # only there can a handler be set
        yield _ENDED
        return
    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    before = {number: signal.getsignal(number) for number in wanted}
    # nohup's SIGHUP stays ignored, and a handler set outside Python (getsignal: None) stays its own
    ours = [n for n in wanted if before[n] is not signal.SIG_IGN and before[n] is not None]
    for number in ours:
        signal.signal(number, end)
    try:
        yield _ENDED
    finally:
        for number in ours:
            signal.signal(number, before[number])


#: what ends a line somewhere (str.splitlines' breaks): none may split an error's one line
_LINE_BREAKS = str.maketrans({c: repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"})


def _error(message: str) -> None:
    """``error: message`` on stderr, on one line whatever the message quotes (a BOARD argument or a
    file name may hold a line break): a break is written as its escape, ``\\n``."""
    print(f"error: {message.translate(_LINE_BREAKS)}", file=sys.stderr)


def _drop_stdout() -> None:
    """Send what is left of stdout to the null device, so that the exit does not fail writing it."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
