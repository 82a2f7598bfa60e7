"""The JSON documents of the commands (docs/json.md): one schema per command, each document on one
line with its ``schema`` name and ``version``; streams (``solve --batch``, ``generate``) are JSON Lines.

Each document is built by one function: ``solve_body`` (solved, unsolvable or stopped alike),
``timed_body``, ``analyze_body`` and ``generate_body`` here, from the results' own ``to_dict``; the
documents of one command alone are built beside it (``enumerate``'s ``puzzle_body``, ``show``,
``moves``, the logic commands, ``levels``, the ``batch`` summary).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rushhour.errors import LimitReachedError
from rushhour.formats import Entry
from rushhour.formats.single import board_ref
from rushhour.numbers import whole_or_none
from rushhour.search.timed import Schedule, json_seconds

if TYPE_CHECKING:
    from rushhour.generator import Puzzle
    from rushhour.search import Analysis, Solution
    from rushhour.search.timed import TimeModel

#: the version of every document's shape; a change that removes or retypes a field raises it
VERSION = 1

#: the commands that print documents, each with its schema name ``rushhour.<command>``
SCHEMAS = (
    "solve",
    "batch",
    "timed",
    "analyze",
    "generate",
    "harden",
    "levels",
    "show",
    "moves",
    "explain",
    "encoding",
    "constraints",
    "theorems",
    "prove",
    "count",
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
    return whole_or_none(entry.meta.get("moves", ""))


def solve_body(
    entry: Entry,
    found: Solution | LimitReachedError,
    *,
    engine: str | None = None,
    metric: str = "moves",
    seconds: float = 0.0,
) -> dict[str, Any]:
    """The ``rushhour.solve`` document of ``entry``: solved or unsolvable (``found`` is the
    :class:`Solution`), or stopped by a limit (``found`` is the error: what the search learned is kept,
    ``explored``, ``lower_bound``, ``best``).  ``engine``, ``metric`` and ``seconds`` say how a stopped
    search ran; a solution says it itself."""
    if not isinstance(found, LimitReachedError):
        body = {**found.to_dict(), "board": entry_ref(entry)}
    else:
        # the portfolio is the bfs engine on boards it runs no workers on (no bounds then)
        engine = "bfs" if engine == "portfolio" and not found.bounds else engine
        body = {
            "board": entry_ref(entry),
            "engine": engine,
            "metric": metric,
            "status": "stopped",
            "optimal": False,
            "length": None,
            "steps": None,
            "moves": [],
            "explored": found.explored,
            "seconds": round(seconds, 6),
            "lower_bound": found.lower_bound,
            "best": None if found.best is None else [str(m) for m in found.best],
            "message": str(found),
            **({"bounds": [b.to_dict() for b in found.bounds]} if engine == "portfolio" else {}),
        }
    return {**body, "expected": expected_length(entry)}


def timed_body(
    entry: Entry,
    found: Schedule | LimitReachedError,
    *,
    model: TimeModel | None = None,
    seconds: float = 0.0,
) -> dict[str, Any]:
    """The ``rushhour.timed`` document: the schedule, with the moves listed as ``solve`` lists them;
    for a search stopped by a limit (``found`` is the error, ``model`` the time model it searched in,
    ``seconds`` how long it ran), no schedule and what the search learned."""
    err = found if isinstance(found, LimitReachedError) else None
    if err is not None:
        assert model is not None, "a stopped timed search names its time model"
        found = Schedule(entry.board, model, (), Fraction(0), False, err.explored, seconds)
    assert not isinstance(found, LimitReachedError)
    data = found.to_dict()
    body: dict[str, Any] = {
        "board": entry_ref(entry),
        "status": "solved" if found.solved else "unsolvable",
        **data,
        "length": data["length"] if found.solved else None,
        "steps": found.steps if found.solved else None,
        "lower_bound": None,
        "lower_total": None,
        "message": None,
    }
    if err is not None:
        body.update(status="stopped", solved=False, total=None, length=None, steps=None)
        body.update(lower_bound=err.lower_bound, message=str(err))
        if err.lower_total is not None:
            body.update(lower_total=json_seconds(err.lower_total))
    return body


def analyze_body(
    entry: Entry, found: Analysis | LimitReachedError, *, metric: str = "moves", seconds: float = 0.0
) -> dict[str, Any]:
    """The ``rushhour.analyze`` document of ``entry``: the analysis, or an exploration stopped by a
    limit (``found`` is the error) with the same fields, null where nothing was learned; ``metric`` and
    ``seconds`` say how a stopped exploration ran."""
    if not isinstance(found, LimitReachedError):
        return {**found.to_dict(), "board": entry_ref(entry)}
    return {
        "board": entry_ref(entry),
        "metric": metric,
        "status": "stopped",
        "cluster_size": None,
        "won_count": None,
        "start_distance": None,
        "histogram": [],
        "hardest": None,
        "hardest_distance": None,
        "cluster_key": None,
        "explored": found.explored,
        "seconds": round(seconds, 6),
        "message": str(found),
    }


def generate_body(puzzle: Puzzle, name: str, source: str | None) -> dict[str, Any]:
    """The ``rushhour.generate`` document of one puzzle made, named ``name``, written to ``source``
    (a file, the N-th board of a file, or null when it is not written)."""
    board = board_ref(puzzle.board, name=name, source=source)
    return {"name": name, **puzzle.to_dict(), "board": board}
