"""Claims of docs/library.md and docs/json.md that its doctests do not show, kept true here: the names
of the package root as a program (or an editor's completion) finds them, and what a command's document
adds to a result's to_dict()."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rushhour
from rushhour.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_dir_lists_every_public_name_without_importing_them() -> None:
    """``dir(rushhour)`` left out ``logic``, ``Solution`` and ``Analysis``, which are imported on first
    use; listing them imports nothing."""
    code = (
        "import sys, rushhour; names = dir(rushhour); "
        "print(all(n in names for n in rushhour.__all__), 'rushhour.search' in sys.modules, "
        "'rushhour.logic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["True", "False", "False"]
    assert set(rushhour.__all__) <= set(dir(rushhour))


def _document(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) in (0, 1)
    return dict(json.loads(capsys.readouterr().out.splitlines()[0]))


@pytest.mark.parametrize(
    ("claim", "board", "board_field"),
    [
        ("exists j: Empty(2,j)", None, None),
        ("~Won", "classic:1", "classic:1"),
    ],
)
def test_a_proof_as_data_is_the_prove_document_but_its_board(
    capsys: pytest.CaptureFixture[str], claim: str, board: str | None, board_field: str | None
) -> None:
    """docs/library.md: the prove command's document adds the board given (null for a size) to
    logic.prove(...).to_dict()."""
    if board is None:
        mine = rushhour.logic.prove(claim, (6, 6)).to_dict()
        printed = _document(capsys, "prove", claim, "--size", "6x6", "--json")
    else:
        mine = rushhour.logic.prove(claim, rushhour.load(board)).to_dict()
        printed = _document(capsys, "prove", claim, board, "--json")
    assert set(printed) - set(mine) == {"schema", "version", "board"}
    assert (printed["board"] or {}).get("source") == board_field
    assert {key for key in mine if printed[key] != mine[key]} <= {"seconds"}
    counterexample = mine["counterexample"]
    if counterexample is not None:  # a board as every document gives one: its text reads back
        assert isinstance(counterexample, dict)
        assert rushhour.Board.from_text(counterexample["text"]).width == counterexample["width"] == 6
