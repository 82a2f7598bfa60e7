"""The built-in level packs under ``boards/``, and resolving a BOARD argument.

A pack is a grid-text document (see :mod:`rushhour.formats.grid`) whose first block is the pack's own
header (``title``, ``order``, ``description``, and for generated packs the ``seed`` and ``command``
that made it).  Levels are numbered from 1, easiest first: by optimal moves, then by the size of the
reachable set (:func:`difficulty`).  Packs are played in their ``order``; :func:`play_order`,
:func:`next_level`, :func:`first_unsolved` and :func:`first_unsolved_in` walk through them, and
:func:`built_in_level` tells whether a resolved board is one of them.

The daily puzzle (:func:`daily`) is generated from the date: the same 6x6 puzzle of 20 to 35 moves for
everyone on that day, known as ``daily:YYYY-MM-DD``.

A BOARD argument is, in this order: a file path (with ``PATH:N`` choosing the N-th board of a file that
has several), an inline board (a Fogleman string, or grid rows separated by ``/``), a pack level
(``beginner:3``), a pack name (every level of the pack, in order: a command that takes one board
asks for one of them), a day's puzzle (``daily:2026-11-23``, or ``daily`` for
today's), or the ``name`` of a built-in level.
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from rushhour.board import Board
from rushhour.errors import BoardNotFoundError, RushHourError
from rushhour.files import data_dir, exists
from rushhour.formats import (
    STDIN,
    Entry,
    detect,
    grid,
    parse_text,
    read_board_text,
    read_boards,
    read_file,
    source_name,
)
from rushhour.formats.inline import is_inline, meant_as_inline, parse_inline
from rushhour.numbers import quoted, whole_or_none

if TYPE_CHECKING:
    from rushhour.play.saves import Saves


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
        found.append(_read_pack(item, f"boards/{item.name}"))
    found.sort(key=lambda p: (whole_or_none(p.meta.get("order", "")) or 999, p.name))
    return tuple(found)


def _read_pack(path: Path, source: str) -> Pack:
    name = path.name[: -len(".txt")]
    doc = grid.parse_document(read_board_text(str(path)), source=source)
    levels = tuple(Entry(r.board, r.meta, f"{name}:{k}") for k, r in enumerate(doc.records, start=1))
    return Pack(name, doc.meta.get("title", name), doc.meta.get("description", ""), doc.meta, levels)


# --- the player's own packs -----------------------------------------------------------------------

#: a user pack's name: letters, digits, ``-`` and ``_``, starting with a letter or digit
_PACK_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}\Z")


def user_packs_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the player's packs are: ``packs`` in the player's data folder
    (:func:`rushhour.files.data_dir`)."""
    return data_dir(environ) / "packs"


@dataclass(frozen=True)
class LeftOut:
    """A file of the player's packs folder that is not offered as a pack, and why."""

    name: str
    path: Path
    why: str


def _scan_user_packs() -> tuple[tuple[Pack, ...], tuple[LeftOut, ...]]:
    folder = user_packs_dir()
    try:
        items = sorted(folder.iterdir())
    except OSError:
        return (), ()
    found, left = [], []
    taken: dict[str, str] = {}  # the names of the packs found, folded, and as their files spell them
    for item in items:
        if not item.name.endswith(".txt"):
            continue
        name = item.name[: -len(".txt")]
        why = _taken(name)
        if why is None and name.casefold() in taken:
            why = f"your pack {taken[name.casefold()]} has this name but for case (names are matched so)"
        if why is not None:
            left.append(LeftOut(name, item, f"{item}: {why}; rename the file to play it"))
            continue
        try:
            found.append(_read_pack(item, str(item)))
        except RushHourError as err:
            left.append(LeftOut(name, item, str(err)))
            continue
        taken[name.casefold()] = name
    return tuple(found), tuple(left)


def _taken(name: str) -> str | None:
    """Why a pack of the player's may not be called ``name`` (a BOARD argument of that name means a
    built-in board already, which the pack would hide), or None."""
    folded = name.casefold()
    if any(p.name.casefold() == folded for p in packs()):
        return f"{name} is the name of a built-in pack"
    if _DAILY_RE.match(name):
        return f"{name} names the puzzle of the day"
    if _level_named(name) is not None:
        return f"{name} is the name of a built-in level"
    return _unreachable(name)


def _unreachable(name: str) -> str | None:
    """Why a BOARD argument could never name a pack called ``name`` (:func:`resolve_all` would read it
    as something else), or None."""
    if not name:
        return "a pack needs a name before .txt"
    head, number = _split_index(name)
    if number is not None:
        return f"{name} ends in ':{number}', which a BOARD argument reads as level {number} of a pack {head}"
    if name != name.strip():
        return f"{quoted(name)} begins or ends with a space, which a BOARD argument leaves out"
    if _looks_like_path(name):
        return f"{name} would be taken for a file's path"
    if is_inline(name):
        return f"{name} would be read as an inline board"
    return None


class Shelf(NamedTuple):
    """The packs offered, built-in then the player's, and the player's files left out, from one
    reading of the packs folder."""

    packs: tuple[Pack, ...]
    left_out: tuple[LeftOut, ...] = ()


def shelf() -> Shelf:
    """Every pack and every file of the player's left out (see :func:`user_packs`)."""
    found, left = _scan_user_packs()
    return Shelf(packs() + found, left)


def user_packs() -> tuple[Pack, ...]:
    """The player's packs (``NAME.txt`` in :func:`user_packs_dir`), by name; read afresh each time (the
    editor adds to them).  A file that cannot be read as a pack, or that takes a built-in pack's name,
    is left out (:func:`left_out_user_packs` says why)."""
    return _scan_user_packs()[0]


def left_out_user_packs() -> tuple[LeftOut, ...]:
    """The files of the player's packs folder that :func:`user_packs` leaves out, each with the reason
    (a parse error names its line)."""
    return _scan_user_packs()[1]


def _left_out(name: str) -> BoardNotFoundError | None:
    """The error for a name that no pack answers to but one of the player's files left out does (a
    built-in name never gets here: the built-in pack answers it first), else None."""
    folded = name.casefold()
    for left in left_out_user_packs():
        if left.name.casefold() == folded:
            return BoardNotFoundError(f"your pack {left.name} cannot be read: {left.why}")
    return None


def all_packs() -> tuple[Pack, ...]:
    """The built-in packs in play order, then the player's own."""
    return shelf().packs


def check_user_pack_name(name: str) -> str:
    """A name a user pack may take; raises for a name that is not one, or is a built-in pack's."""
    if not _PACK_NAME_RE.match(name):
        raise BoardNotFoundError(
            f"{name!r} cannot name a pack: use letters, digits, - and _ (40 at most), like mypack"
        )
    why = _taken(name)
    if why is not None:
        raise BoardNotFoundError(f"{why}: choose another name for yours")
    return name


def add_to_user_pack(name: str, board: Board, meta: dict[str, str] | None = None) -> int:
    """Add ``board`` as the last level of the user pack ``name`` (made when new); its level number.  A
    board the pack holds already is refused, naming its level."""
    from rushhour.files import locked, make_folder, reason, write_text_atomic

    check_user_pack_name(name)
    folder = user_packs_dir()
    try:
        make_folder(folder)
    except OSError as err:
        raise RushHourError(f"cannot make the packs folder {folder}: {reason(err)}") from None
    # names are matched without regard to case: a pack of this name in another case is this one (the
    # first such file in the order the packs are read, the one BOARD arguments name); one lock for the
    # folder, so that two players adding Mine and mine at once make one pack
    with locked(folder / "packs"):
        same = [f for f in sorted(folder.glob("*.txt")) if f.stem.casefold() == name.casefold()]
        path = same[0] if same else folder / f"{name}.txt"
        records, header = [], {"title": name, "description": "made with rushhour edit"}
        if path.exists():
            old = _read_pack(path, str(path))
            records = [(e.board, e.meta) for e in old.levels]
            header = old.meta
        there = next((k for k, (b, _) in enumerate(records, 1) if b == board), None)
        if there is not None:  # twice in a pack, it would be played twice
            level = f"{path.stem}:{there}"
            raise RushHourError(f"this board is level {there} of your pack {path.stem} already ({level})")
        records.append((board, dict(meta or {})))
        write_text_atomic(path, grid.write_document(records, header), what="the pack ")
    return len(records)


def _find_pack(name: str) -> Pack | None:
    """The pack called ``name`` (built-in first, then the player's), matched without regard to case."""
    folded = name.casefold()
    return next((p for p in all_packs() if p.name.casefold() == folded), None)


def pack(name: str) -> Pack:
    """The pack called ``name``: a built-in one (``Classic`` and ``CLASSIC`` name ``classic`` too) or
    one of the player's (:func:`user_packs`)."""
    found = _find_pack(name)
    if found is not None:
        return found
    left = _left_out(name)
    if left is not None:
        raise left
    head, number = _split_index(name)
    holder = _find_pack(head) if number is not None else None
    if holder is not None and number is not None and not 1 <= number <= len(holder.levels):
        holder = None
    if holder is None:
        holder = next((p for p in packs() for e in p.levels if e.meta.get("name") == name), None)
    if holder is not None:  # classic:3, classic-03: a level where a pack is asked for
        what = f"{name} is a level of the pack {holder.name}"
        raise BoardNotFoundError(f"{what}, not a pack: give {holder.name}")
    known = ", ".join(p.name for p in all_packs())
    raise BoardNotFoundError(f"no built-in pack called {name!r}, nor a pack of yours (packs: {known})")


def level(pack_name: str, number: int) -> Entry:
    p = pack(pack_name)
    if not 1 <= number <= len(p.levels):
        raise BoardNotFoundError(f"pack {pack_name} has levels 1 to {len(p.levels)}, not {number}")
    return p.levels[number - 1]


def default_board() -> Entry:
    return packs()[0].levels[0]


def difficulty(entry: Entry) -> tuple[int, int]:
    """How hard a level is, from its header: optimal moves, then the size of its reachable set (a
    missing figure counts as harder than any)."""

    def figure(name: str) -> int:
        value = whole_or_none(entry.meta.get(name, "").strip())
        return sys.maxsize if value is None else value

    return figure("moves"), figure("cluster")


@dataclass(frozen=True)
class Level:
    """One built-in level: its pack, its number there (from 1) and its board and header."""

    pack: str
    number: int
    entry: Entry

    @property
    def key(self) -> str:
        """``pack:N``, how the progress file and a BOARD argument name it."""
        return f"{self.pack}:{self.number}"


def play_order() -> tuple[Level, ...]:
    """Every built-in level, pack by pack in the packs' order, easiest first within a pack."""
    return tuple(Level(p.name, k, entry) for p in packs() for k, entry in enumerate(p.levels, start=1))


def next_level(pack_name: str, number: int) -> Level | None:
    """The level after ``pack_name:number``: the next of its pack, else the first of the next pack;
    None after the last level of the last pack."""
    level(pack_name, number)  # raises for an unknown level
    order = play_order()
    if not any(item.pack == pack_name for item in order):  # a pack of the player's: its own levels
        order = tuple(Level(pack_name, k, e) for k, e in enumerate(pack(pack_name).levels, start=1))
    here = next(k for k, item in enumerate(order) if (item.pack, item.number) == (pack_name, number))
    return order[here + 1] if here + 1 < len(order) else None


def first_unsolved(saves: Saves) -> Level | None:
    """The first level in play order that ``saves`` has no win of (for its current board); None
    when every level is solved."""
    for item in play_order():
        if not saves.is_solved(item.key, item.entry.board):
            return item
    return None


def first_unsolved_in(saves: Saves, pack_name: str) -> Level | None:
    """The first level of one pack that ``saves`` has no win of (for its current board); None
    when every level of the pack is solved.  Only that pack is walked."""
    for number, entry in enumerate(pack(pack_name).levels, start=1):
        item = Level(pack_name, number, entry)
        if not saves.is_solved(item.key, entry.board):
            return item
    return None


def built_in_level(entry: Entry) -> Level | None:
    """The level of a pack (built-in or the player's) a resolved entry is (labelled ``pack:N`` and
    holding that level's board), or None for a board from anywhere else."""
    name, _, number = entry.label.rpartition(":")
    n = whole_or_none(number)
    if n is None:
        return None
    for p in all_packs():
        if p.name == name and 1 <= n <= len(p.levels) and p.levels[n - 1].board == entry.board:
            return Level(p.name, n, p.levels[n - 1])
    return None


# --- the daily puzzle ------------------------------------------------------------------------------

DAILY_SIZE = (6, 6)
DAILY_MOVES = (20, 35)
#: enough tries that no day goes without a puzzle (30 days measured took 1 to 14)
DAILY_TRIES = 2000
_DAILY_RE = re.compile(r"daily(?::(.*))?\Z", re.IGNORECASE | re.DOTALL)


def daily_key(day: datetime.date) -> str:
    """``daily:YYYY-MM-DD``: the day's puzzle as the progress file and a BOARD argument name it."""
    return f"daily:{day.isoformat()}"


def daily_seed(day: datetime.date) -> int:
    """The generator's seed of a day: the date as the number YYYYMMDD."""
    return int(day.strftime("%Y%m%d"))


@dataclass(frozen=True)
class Daily:
    """A day's puzzle: the day and the puzzle (labelled with its key, its header like a generated
    pack level's: moves, steps, cluster, seed and try)."""

    day: datetime.date
    entry: Entry

    @property
    def key(self) -> str:
        return daily_key(self.day)


def daily(day: datetime.date) -> Daily:
    """The day's puzzle: the first puzzle the generator makes on 6x6 with 20 to 35 optimal moves and
    :func:`daily_seed` as its seed, the same on every machine and every run."""
    from rushhour.generator import Generator, Settings

    width, height = DAILY_SIZE
    lo, hi = DAILY_MOVES
    settings = Settings(
        width=width, height=height, min_moves=lo, max_moves=hi, method="rewind", seed=daily_seed(day)
    )
    made = next(Generator(settings).run(1, max_tries=DAILY_TRIES), None)
    if made is None:
        raise RushHourError(f"no puzzle for {day.isoformat()} in {DAILY_TRIES} tries")
    return Daily(day, Entry(made.board, made.meta(f"daily-{day.isoformat()}"), daily_key(day)))


def _daily_spec(text: str) -> Daily | None:
    found = _DAILY_RE.match(text)
    if found is None:
        return None
    if found.group(1) is None:
        return daily(datetime.date.today())
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", found.group(1)):  # fromisoformat takes 20261123 too
            raise ValueError
        day = datetime.date.fromisoformat(found.group(1))
    except ValueError:
        raise BoardNotFoundError(
            f"{quoted(text)} is not a day: write daily:YYYY-MM-DD, like daily:2026-11-23"
        ) from None
    return daily(day)


def _split_index(spec: str) -> tuple[str, int | None]:
    head, colon, tail = spec.rpartition(":")
    index = whole_or_none(tail) if colon and head else None
    if index is not None:
        return head, index
    return spec, None


def reads_stdin(spec: str) -> bool:
    """Whether a BOARD argument reads standard input (``-``, ``-:N``)."""
    return _split_index(spec)[0] == STDIN


def _a_file(path: str) -> bool:
    """Whether a BOARD argument (or its part before ``:N``) names a file: one that exists, or ``-``,
    standard input."""
    return path == STDIN or exists(path, error=BoardNotFoundError)


def _pick(entries: Sequence[Entry], index: int | None, where: str) -> Entry:
    if index is None:
        if len(entries) == 1:
            return entries[0]
        after = ", after -- (-- -:2)" if where == STDIN else ""  # else -:2 reads as an option
        raise BoardNotFoundError(
            f"{source_name(where)} holds {len(entries)} boards: choose one as {where}:N (1 to {len(entries)})"
            f"{after}; "
            "convert and solve --batch take them all"
        )
    if not 1 <= index <= len(entries):
        raise BoardNotFoundError(f"{where} holds boards 1 to {len(entries)}, not {index}")
    return entries[index - 1]


def _looks_like_path(text: str) -> bool:
    """Whether a text that names no file was meant as one: a board file's suffix, a leading ``/``,
    ``./``, ``../`` or ``~``, or a folder that exists before its last ``/``."""
    if text.lower().endswith((".txt", ".csv", ".json")) or text.startswith(("/", "./", "../", "~")):
        return True
    head = os.path.dirname(text)
    return bool(head) and ":" not in text and os.path.isdir(head)


def _named(text: str) -> list[Entry] | None:
    """The boards a name gives: a pack level (``classic:12``), a pack (every level), a day's puzzle,
    or a level's ``name``; matched without regard to case."""
    name, number = _split_index(text)
    found = _find_pack(name)
    if found is not None:
        return list(found.levels) if number is None else [level(found.name, number)]
    day = _daily_spec(text)
    if day is not None:
        return [day.entry]
    return _level_named(text)


def _level_named(text: str) -> list[Entry] | None:
    exact = [e for p in packs() for e in p.levels if e.meta.get("name") == text]
    if exact:
        return exact[:1]
    folded = text.casefold()
    loose = [e for p in packs() for e in p.levels if e.meta.get("name", "").casefold() == folded]
    return loose if len(loose) == 1 else None


def resolve_all(spec: str) -> list[Entry]:
    """Every board a BOARD argument names (a file may hold many)."""
    path, index = _split_index(spec)
    if _a_file(spec):
        return read_file(spec)
    if spec.lstrip().startswith("{"):  # a board's JSON text, as the commands' documents give it
        return parse_text(spec, source="inline board", fmt="json")
    if index is not None and _a_file(path):
        return [_pick(read_boards(path), index, source_name(path))]  # that board alone is built
    head, colon, tail = spec.rpartition(":")
    if colon and head and tail.strip() and _a_file(head):
        # FILE:N with an N that is no board number (-1, 20 digits): said of the file, which exists
        count = len(read_boards(head))
        raise BoardNotFoundError(f"{source_name(head)} holds boards 1 to {count}, not {quoted(tail)}")
    text = spec.strip()
    if _looks_like_path(text):
        raise BoardNotFoundError(f"no such file: {spec}")
    if is_inline(text):
        return [parse_inline(text)]
    named = _named(text)
    if named is not None:
        return named
    if meant_as_inline(text):
        return [parse_inline(text)]
    left = _left_out(_split_index(text)[0])
    if left is not None:
        raise left
    head, colon, tail = text.rpartition(":")
    found = _find_pack(head) if colon and head else None
    if found is not None:  # PACK:N with an N that is no level number (-1, abc, 1.0)
        raise BoardNotFoundError(f"pack {found.name} has levels 1 to {len(found.levels)}, not {quoted(tail)}")
    known = ", ".join(p.name for p in all_packs())
    raise BoardNotFoundError(f"{spec!r} is not a file, an inline board or a built-in board (packs: {known})")


def document_header(spec: str) -> dict[str, str]:
    """The header of the whole file or pack a BOARD argument names (its first block of header lines
    only: title, order, description, seed, command); empty for one board of it, or a source without
    one."""
    if _a_file(spec):
        text = read_board_text(spec)
        if spec.lower().endswith(".csv") or detect(text) != "grid":
            return {}
        # the header alone: no board is built
        return dict(grid.document_blocks(text, source=source_name(spec))[0])
    if _split_index(spec)[1] is not None:
        return {}
    found = _find_pack(spec.strip())
    return dict(found.meta) if found is not None else {}


def resolve_board(spec: str) -> Entry:
    """The one board a BOARD argument names; a file of several boards, or a pack, is refused with the
    way to name one of them (never a silent first board)."""
    if _a_file(spec):  # a file of many boards is refused before they are built
        return _pick(read_boards(spec), None, spec)
    return _pick(resolve_all(spec), None, spec)
