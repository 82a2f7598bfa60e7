"""JSON, for programs: every fact of a board, nothing derived.

The reader takes an orientation, exit side and heading in any case (``"h"``, ``"Right"``, ``"East"``),
as the grid and CSV readers do; the writer writes them as below.

{"width": 6, "height": 6, "wrap": false, "goal": "A",
 "exit": {"side": "right", "index": 2},          (bounded boards)
 "target": {"row": 2, "col": 5, "heading": "east"},  (wrap-around boards, instead of exit)
 "walls": [[row, col], ...],
 "vehicles": [{"name": "A", "orientation": "H", "length": 2, "row": 2, "col": 0}, ...]}
"""

from __future__ import annotations

import json
import math
import reprlib
from typing import Any

from rushhour.board import HEADINGS, HORIZONTAL, SIDES, VERTICAL, Board, Exit, Target, Vehicle
from rushhour.errors import BoardError, ParseError
from rushhour.formats.lines import position
from rushhour.numbers import MAX_DIGITS, quoted


def board_to_dict(board: Board) -> dict[str, Any]:
    data: dict[str, Any] = {
        "width": board.width,
        "height": board.height,
        "wrap": board.wrap,
        "goal": board.goal,
    }
    if board.exit is not None:
        data["exit"] = {"side": board.exit.side, "index": board.exit.index}
    if board.target is not None:
        t = board.target
        data["target"] = {"row": t.row, "col": t.col, "heading": t.heading}
    data["walls"] = [list(cell) for cell in sorted(board.walls)]
    data["vehicles"] = [
        {"name": v.name, "orientation": v.orientation, "length": v.length, "row": v.row, "col": v.col}
        for v in board.vehicles
    ]
    return data


def write_json(board: Board, meta: dict[str, str] | None = None) -> str:
    data = board_to_dict(board)
    if meta:
        data["meta"] = dict(meta)
    return json.dumps(data, indent=2) + "\n"


def _folded(value: str, words: tuple[str, ...]) -> str:
    """``value`` as one of ``words`` when it is one without regard to case, else as it is (so that
    an error quotes it)."""
    return next((word for word in words if word.lower() == value.lower()), value)


def _need(
    data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, source: str | None
) -> Any:
    if key not in data:
        raise ParseError(f"{where} has no {key!r}", source=source)
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ParseError(f"{where}: {key!r} has the wrong type ({type(value).__name__})", source=source)
    return value


def board_from_dict(data: Any, source: str | None = None) -> tuple[Board, dict[str, str]]:
    if not isinstance(data, dict):
        raise ParseError("a JSON board is an object with width, height and vehicles", source=source)
    width = _need(data, "width", int, "the board", source)
    height = _need(data, "height", int, "the board", source)
    raw_vehicles = _need(data, "vehicles", list, "the board", source)
    vehicles = []
    for k, item in enumerate(raw_vehicles):
        where = f"vehicle #{k + 1}"
        if not isinstance(item, dict):
            raise ParseError(f"{where} is not an object", source=source)
        name = _need(item, "name", str, where, source)
        where = f"vehicle {name}"
        vehicles.append(
            Vehicle(
                name,
                _folded(_need(item, "orientation", str, where, source), (HORIZONTAL, VERTICAL)),
                _need(item, "length", int, where, source),
                _need(item, "row", int, where, source),
                _need(item, "col", int, where, source),
            )
        )
    walls = []
    raw_walls = data.get("walls", [])
    if not isinstance(raw_walls, list):
        raise ParseError("'walls' should be a list of [row, col] cells", source=source)
    for cell in raw_walls:
        if not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
            raise ParseError(f"wall {reprlib.repr(cell)} should be [row, col]", source=source)
        walls.append((cell[0], cell[1]))
    exit_: Exit | None = None
    target: Target | None = None
    if "exit" in data:
        e = data["exit"]
        if not isinstance(e, dict):
            raise ParseError("'exit' should be an object with side and index", source=source)
        side = _folded(_need(e, "side", str, "the exit", source), SIDES)
        exit_ = Exit(side, _need(e, "index", int, "the exit", source))
    if "target" in data:
        t = data["target"]
        if not isinstance(t, dict):
            raise ParseError("'target' should be an object with row, col and heading", source=source)
        target = Target(
            _need(t, "row", int, "the target", source),
            _need(t, "col", int, "the target", source),
            _folded(_need(t, "heading", str, "the target", source), HEADINGS),
        )
    wrap = data.get("wrap", False)
    if not isinstance(wrap, bool):
        raise ParseError("'wrap' should be true or false", source=source)
    goal = data.get("goal", "A")
    if not isinstance(goal, str):
        raise ParseError("'goal' should be a vehicle name", source=source)
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise ParseError("'meta' should be an object", source=source)
    for key, value in meta.items():
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise ParseError(f"meta {quoted(key)} should be text or a whole number", source=source)
        for text in (key, value):
            if isinstance(text, str) and not _is_text(text):
                raise ParseError(
                    f"meta {quoted(key)} holds a lone surrogate (a \\ud800-\\udfff escape), "
                    "which is not text",
                    source=source,
                )
    try:
        board = Board(width, height, vehicles, walls=walls, goal=goal, exit=exit_, target=target, wrap=wrap)
    except BoardError as err:
        raise ParseError(str(err), source=source) from None
    return board, {str(k): str(v) for k, v in meta.items()}


def _is_text(value: str) -> bool:
    """Whether a string can be written as UTF-8 (JSON escapes can make lone surrogates, which cannot)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"the number {text[:12]}... has more than {MAX_DIGITS} digits")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:12]} is too large")
    return value


def _json_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def load_json(text: str, source: str | None = None) -> Any:
    """JSON text as Python values, within bounds: numbers of at most :data:`MAX_DIGITS` digits, finite
    (``NaN``, ``Infinity`` and ``1e400`` are refused), and arrays and objects nested no deeper than the
    interpreter's recursion limit; else ParseError."""
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except json.JSONDecodeError as err:
        # lines counted as an editor counts them (json counts \n alone: a file of \r lines is one line)
        line, column = position(text, err.pos)
        raise ParseError(f"not valid JSON: {err.msg}", source=source, line=line, column=column) from None
    except RecursionError:
        raise ParseError("not valid JSON here: arrays or objects nested too deeply", source=source) from None
    except ValueError as err:
        raise ParseError(f"not valid JSON here: {err}", source=source) from None


def parse_json(text: str, source: str | None = None) -> tuple[Board, dict[str, str]]:
    return board_from_dict(load_json(text, source), source)
