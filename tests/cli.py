"""Running the command line in the test's own process, as every CLI test does, and its bash completion."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from rushhour.cli import build_parser, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``rushhour ARGV``: its exit status (argparse's too: usage errors, --help), stdout and stderr."""
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse: --help, --version and usage errors
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def complete_in_bash(folder: Path, words: list[str]) -> list[str]:
    """What the bash script (made now, with the packs of now) offers for ``words``, the last being the
    word at the cursor as typed (quotes and backslashes included); the script registered as
    ``complete -o filenames -F _rushhour rushhour``."""
    from rushhour.cli.completion import script

    script_file = folder / "rushhour.bash"
    script_file.write_text(script("bash", build_parser()))
    array = " ".join(shlex.quote(w) for w in words)
    program = (
        f"source {shlex.quote(str(script_file))} && "
        "[ \"$(complete -p rushhour)\" = 'complete -o filenames -F _rushhour rushhour' ] && "
        f"COMP_WORDS=({array}) && COMP_CWORD={len(words) - 1} && _rushhour && "
        "printf '%s\\0' \"${COMPREPLY[@]}\""
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True, cwd=folder
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return sorted(w for w in done.stdout.split("\0") if w)
