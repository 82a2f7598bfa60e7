"""Every `rushhour generate` example of the README, docs/generator.md and `generate --help` makes a
puzzle within 30 seconds (run with `--time-limit 30` added; the pack commands of docs/generator.md, which
rewrite boards/, are left out).  The 6x6 ones run in CI; the larger boards are slow checks."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from rushhour.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
LIMIT = "30"


def examples() -> list[str]:
    found = []
    texts = [(ROOT / "README.md").read_text(), (ROOT / "docs" / "generator.md").read_text()]
    texts.append(build_parser().subcommand("generate").epilog or "")
    for text in texts:
        for line in text.replace("\\\n", " ").splitlines():
            match = re.search(r"rushhour generate [^`|]*", line)
            if match and "[" not in line and "--from-db" not in line and "boards/" not in line:
                found.append(shlex.join(shlex.split(match.group(0), comments=True)))
    return sorted(set(found))


def large(example: str) -> bool:
    return "--size" in example and "--size 6x6" not in example and "--size 5x5" not in example


@pytest.mark.parametrize(
    "example", [pytest.param(e, marks=pytest.mark.slow) if large(e) else e for e in examples()]
)
def test_every_generate_example_makes_a_puzzle_within_30_seconds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(example)[1:] + ["--time-limit", LIMIT]
    code = main(argv)
    _, err = capsys.readouterr()
    made = re.search(r"made (\d+) puzzle", err)
    assert code in (0, 1) and made is not None and int(made.group(1)) >= 1, (example, err)


def test_the_examples_are_found() -> None:
    found = examples()
    assert len(found) >= 8 and any("--size 9x9" in e for e in found) and any("--wrap" in e for e in found)
