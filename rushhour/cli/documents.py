"""The JSON documents of the commands (docs/json.md): one schema per command, each document on one
line with its ``schema`` name and ``version``; streams (``solve --batch``, ``generate``) are JSON Lines.
"""

from __future__ import annotations

import json
from typing import Any

from rushhour.api import board_ref
from rushhour.board import Board
from rushhour.errors import LimitReachedError
from rushhour.formats import Entry

#: the version of every document's shape; a change that removes or retypes a field raises it
VERSION = 1

#: the commands that print documents, each with its schema name ``rushhour.<command>``
SCHEMAS = (
    "solve",
    "batch",
    "timed",
    "analyze",
    "generate",
    "levels",
    "show",
    "moves",
    "explain",
    "encoding",
    "theorems",
    "enumerate",
)


def document(command: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as the ``rushhour.<command>`` document: the schema name and version first."""
    assert command in SCHEMAS, command
    return {"schema": f"rushhour.{command}", "version": VERSION, **body}


def emit(command: str, body: dict[str, Any]) -> None:
    """Print the document on one line (and flush it, for streams read line by line)."""
    print(json.dumps(document(command, body), separators=(",", ":"), ensure_ascii=False), flush=True)


def entry_ref(entry: Entry) -> dict[str, Any]:
    """The board of ``entry`` with its name and where it came from (null for a board typed inline)."""
    return board_ref(entry.board, name=entry.meta.get("name"), source=entry.label)


def expected_length(entry: Entry) -> int | None:
    """The optimal length the board's header gives (``moves``), when it gives one."""
    from rushhour.numbers import whole_or_none

    return whole_or_none(entry.meta.get("moves", ""))


def stopped(
    board: Board, engine: str | None, metric: str, err: LimitReachedError, seconds: float
) -> dict[str, Any]:
    """The ``rushhour.solve`` body of a search stopped by a limit: what it learned is kept
    (``explored``, ``lower_bound``, ``best``)."""
    return {
        "board": board_ref(board),
        "engine": engine,
        "metric": metric,
        "status": "stopped",
        "optimal": False,
        "length": None,
        "steps": None,
        "moves": [],
        "explored": err.explored,
        "seconds": round(seconds, 6),
        "lower_bound": err.lower_bound,
        "best": None if err.best is None else [str(m) for m in err.best],
        "message": str(err),
        **({"bounds": [b.to_dict() for b in err.bounds]} if engine == "portfolio" else {}),  # type: ignore[attr-defined]
    }
