"""Levels to play: a board with where it comes from (a pack, a file, the day's puzzle), how the saves know
it, which level comes next, and which level ``rushhour play`` starts with."""

from __future__ import annotations

from dataclasses import dataclass

from rushhour import levels
from rushhour.board import Board
from rushhour.errors import BoardNotFoundError
from rushhour.formats import Entry
from rushhour.levels import Pack, all_packs, pack, packs, resolve_all
from rushhour.numbers import is_whole, whole_or_none
from rushhour.play.saves import Saves, level_key


@dataclass(frozen=True)
class Level:
    """A board to play, where it comes from and how the progress file knows it."""

    entry: Entry
    pack: str | None = None  # built-in pack name
    number: int | None = None  # 1-based, in its pack or file
    total: int | None = None  # levels in that pack or file
    siblings: tuple[Entry, ...] = ()  # the other boards of the same file, for "next level"
    key_override: str | None = None  # a key of its own (the daily puzzle)

    @property
    def board(self) -> Board:
        return self.entry.board

    @property
    def key(self) -> str:
        if self.key_override is not None:
            return self.key_override
        return level_key(self.board, self.pack, self.number)

    @property
    def title(self) -> str:
        name = self.entry.meta.get("name")
        if self.pack is not None:
            where = f"{self.pack}:{self.number} of {self.total}"
            return f"{name} ({where})" if name else where
        label = name or self.entry.label or "board"
        if self.total and self.total > 1:
            label += f" ({self.number} of {self.total})"
        return label

    @property
    def known_optimal(self) -> int | None:
        value = self.entry.meta.get("moves", "").strip()
        return whole_or_none(value)


def pack_level(p: Pack, number: int) -> Level:
    if not 1 <= number <= len(p.levels):
        raise BoardNotFoundError(f"pack {p.name} has levels 1 to {len(p.levels)}, not {number}")
    return Level(p.levels[number - 1], p.name, number, len(p.levels))


def next_level(level: Level) -> Level | None:
    """The level after this one: the next of its pack or file, then the first of the next pack."""
    if level.pack is not None and level.number is not None:
        found = levels.next_level(level.pack, level.number)
        return None if found is None else pack_level(levels.pack(found.pack), found.number)
    if level.number is not None and level.number < len(level.siblings):
        return Level(level.siblings[level.number], None, level.number + 1, level.total, level.siblings)
    return None


def _play_level(found: levels.Level | None) -> Level | None:
    """The level to play for a built-in level that :mod:`rushhour.levels` found."""
    return None if found is None else pack_level(pack(found.pack), found.number)


def choose_level(
    board: str | None, pack_name: str | None, number: int | None, saves: Saves
) -> tuple[Level, str | None]:
    """The level to start with, and a note for the player (or None)."""
    if board is not None and pack_name is not None:
        raise BoardNotFoundError("give either a BOARD or --pack, not both")
    if number is not None and number < 1:
        raise BoardNotFoundError(f"levels are numbered from 1, not {number}")
    if board is not None:
        if any(p.name == board for p in all_packs()):
            pack_name = board
        else:
            entries = resolve_all(board)
            if number is not None:
                if number > len(entries):
                    raise BoardNotFoundError(f"{board} holds boards 1 to {len(entries)}, not {number}")
                index = number - 1
            else:
                index = 0
            found = _play_level(levels.built_in_level(entries[index])) if len(entries) == 1 else None
            if found is not None:
                return found, None
            if len(entries) == 1 and entries[0].label.startswith("daily:"):  # `play daily:2026-11-23`
                return Level(entries[0], key_override=entries[0].label), None
            return Level(entries[index], None, index + 1, len(entries), tuple(entries)), None
    if pack_name is not None:
        chosen = pack(pack_name)
        if number is not None:
            return pack_level(chosen, number), None
        first = _play_level(levels.first_unsolved_in(saves, chosen.name))
        if first is None:
            return pack_level(chosen, 1), f"every level of {chosen.name} is solved: starting again at level 1"
        return first, None
    built_in = packs()
    if not built_in or not built_in[0].levels:
        raise BoardNotFoundError("there are no built-in levels")
    if number is not None:
        return pack_level(built_in[0], number), None
    left = left_level(saves)
    if left is not None:
        return left, None
    unsolved = _play_level(levels.first_unsolved(saves))
    if unsolved is None:
        return pack_level(built_in[0], 1), "every built-in level is solved: starting again at the first"
    return unsolved, None


def left_level(saves: Saves) -> Level | None:
    """The built-in level whose game was left last, unsolved, to continue it (None: there is none).
    Games left on other boards (a file, an inline board, a day's puzzle) are passed over: a built-in
    level left before them is still continued."""
    for key in saves.left_keys():
        name, _, number = key.partition(":")
        found = next((p for p in all_packs() if p.name == name), None)
        if found is None or not is_whole(number) or not 1 <= int(number) <= len(found.levels):
            continue
        level = pack_level(found, int(number))
        if saves.get(level.key, level.board) is not None:
            return level
    return None


def daily_level() -> Level:
    """The puzzle of the day, known to the progress file by its date."""
    from datetime import date

    from rushhour.levels import daily

    puzzle = daily(date.today())
    return Level(puzzle.entry, key_override=puzzle.key)


__all__ = ["Level", "choose_level", "daily_level", "left_level", "next_level", "pack_level"]
