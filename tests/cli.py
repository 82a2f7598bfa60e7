"""Running the command line in the test's own process, as every CLI test does."""

from __future__ import annotations

import pytest

from rushhour.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``rushhour ARGV``: its exit status (argparse's too: usage errors, --help), stdout and stderr."""
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse: --help, --version and usage errors
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
