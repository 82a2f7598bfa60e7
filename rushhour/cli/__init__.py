"""The ``rushhour`` command line: argparse subcommands, one module per group of commands.

This package is the only place that reads stdin or writes to the terminal.  Every
:class:`~rushhour.errors.RushHourError` becomes ``error: <message>`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from rushhour import __version__
from rushhour.errors import ParameterError, RushHourError

EXIT_OK, EXIT_NO, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors follow the house style: ``error: ...`` and status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(EXIT_ERROR)


def build_parser() -> argparse.ArgumentParser:
    from rushhour.cli import core, enumerate, generate, logic, play, solve

    parser = _Parser(
        prog="rushhour",
        description="Rush Hour in propositional logic: play, solve, generate and explain puzzles.",
    )
    parser.add_argument("--version", action="version", version=f"rushhour {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (core, play, logic, solve, generate, enumerate):
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_ERROR
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # so that a failed write (a full disk) is reported here, not at exit
        return status
    except RushHourError as err:
        print(f"error: {err.as_options() if isinstance(err, ParameterError) else err}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        _drop_stdout()
        return EXIT_OK
    except OSError as err:
        if err.filename is not None:  # a file the command used, not its output
            print(f"error: {err.filename}: {err.strerror or err}", file=sys.stderr)
            return EXIT_ERROR
        # the output could not be written (`> /dev/full`, a disk that filled up...)
        _drop_stdout()
        print(f"error: cannot write the output: {err.strerror or err}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _drop_stdout() -> None:
    """Send what is left of stdout to the null device, so that the exit does not fail writing it."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
