"""The built-in level packs under ``boards/``, and resolving a BOARD argument.

A pack is a grid-text document (see :mod:`rushhour.formats.grid`) whose first block is the pack's own
header (``title``, ``order``, ``description``, and for generated packs the ``seed`` and ``command``
that made it).  Levels are numbered from 1.  A BOARD argument is, in this order: a file path (with
``PATH:N`` choosing the N-th board of a file that has several), an inline board (a Fogleman string, or
grid rows separated by ``/``), a pack level (``beginner:3``), a pack name (its first level), or the
``name`` of a built-in level.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rushhour.errors import BoardNotFoundError
from rushhour.formats import Entry, fogleman, grid, parse_text, read_file
from rushhour.formats.cells import EMPTY_CHARS, VEHICLE_CHARS, WALL_CHARS
from rushhour.numbers import whole_or_none

_INLINE_GRID_CHARS = set(VEHICLE_CHARS) | EMPTY_CHARS | WALL_CHARS | {"/"}


@dataclass(frozen=True)
class Pack:
    name: str
    title: str
    description: str
    meta: dict[str, str]
    levels: tuple[Entry, ...]


def boards_dir() -> Path:
    """Where the packs are: installed beside the package, or ``boards/`` of a source checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "boards", here.parent / "boards"):
        if candidate.is_dir():
            return candidate
    raise BoardNotFoundError(f"the built-in boards are missing (looked in {here / 'boards'})")


@cache
def packs() -> tuple[Pack, ...]:
    """Every built-in pack, in play order."""
    found = []
    for item in sorted(boards_dir().iterdir()):
        if not item.name.endswith(".txt"):
            continue
        name = item.name[: -len(".txt")]
        text = item.read_text(encoding="utf-8")
        doc = grid.parse_document(text, source=f"boards/{item.name}")
        levels = tuple(Entry(r.board, r.meta, f"{name}:{k}") for k, r in enumerate(doc.records, start=1))
        found.append(
            Pack(
                name,
                doc.meta.get("title", name),
                doc.meta.get("description", ""),
                doc.meta,
                levels,
            )
        )
    found.sort(key=lambda p: (whole_or_none(p.meta.get("order", "")) or 999, p.name))
    return tuple(found)


def pack(name: str) -> Pack:
    for p in packs():
        if p.name == name:
            return p
    known = ", ".join(p.name for p in packs())
    raise BoardNotFoundError(f"no built-in pack called {name!r} (packs: {known})")


def level(pack_name: str, number: int) -> Entry:
    p = pack(pack_name)
    if not 1 <= number <= len(p.levels):
        raise BoardNotFoundError(f"pack {pack_name} has levels 1 to {len(p.levels)}, not {number}")
    return p.levels[number - 1]


def default_board() -> Entry:
    return packs()[0].levels[0]


def _split_index(spec: str) -> tuple[str, int | None]:
    head, colon, tail = spec.rpartition(":")
    index = whole_or_none(tail) if colon and head else None
    if index is not None:
        return head, index
    return spec, None


def _pick(entries: list[Entry], index: int | None, where: str) -> Entry:
    if index is None:
        if len(entries) == 1:
            return entries[0]
        raise BoardNotFoundError(
            f"{where} holds {len(entries)} boards: choose one as {where}:N (1 to {len(entries)})"
        )
    if not 1 <= index <= len(entries):
        raise BoardNotFoundError(f"{where} holds boards 1 to {len(entries)}, not {index}")
    return entries[index - 1]


def _square_token(text: str) -> bool:
    """One word as long as a square board (9 to 256 characters): read it as a Fogleman board, so that
    a typo gets the format's own precise error."""
    side = math.isqrt(len(text))
    return " " not in text and "/" not in text and side * side == len(text) and 3 <= side <= 16


def _looks_like_path(text: str) -> bool:
    return text.lower().endswith((".txt", ".csv", ".json")) or text.startswith(("/", "./", "../", "~"))


def resolve_all(spec: str) -> list[Entry]:
    """Every board a BOARD argument names (a file may hold many)."""
    path, index = _split_index(spec)
    if os.path.exists(spec):
        return read_file(spec)
    if index is not None and os.path.exists(path):
        return [_pick(read_file(path), index, path)]
    text = spec.strip()
    if "\n" not in text and fogleman.looks_like_fogleman(text):
        return parse_text(text, source="inline board", fmt="fogleman")
    if _looks_like_path(text):
        raise BoardNotFoundError(f"no such file: {spec}")
    if "/" in text and set(text) <= _INLINE_GRID_CHARS:
        return parse_text(text.replace("/", "\n"), source="inline board", fmt="grid")
    name, number = _split_index(text)
    for p in packs():
        if p.name == name:
            return [p.levels[0]] if number is None else [level(name, number)]
    for p in packs():
        for entry in p.levels:
            if entry.meta.get("name") == text:
                return [entry]
    if _square_token(text):
        return parse_text(text, source="inline board", fmt="fogleman")
    known = ", ".join(p.name for p in packs())
    raise BoardNotFoundError(f"{spec!r} is not a file, an inline board or a built-in board (packs: {known})")


def resolve_board(spec: str) -> Entry:
    """The one board a BOARD argument names."""
    return _pick(resolve_all(spec), None, spec)
