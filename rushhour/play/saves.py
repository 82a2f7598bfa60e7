"""The player's saves: which levels are solved, in how many moves, with how much help, and whether
perfectly.

Kept as JSON in ``$XDG_DATA_HOME/rushhour/progress.json`` (``~/.local/share/rushhour`` when
``XDG_DATA_HOME`` is unset, empty or not an absolute path).  Every write goes to a temporary file in
the same folder that then replaces the old one, so a crash never leaves half a file; a symbolic link
is followed and the file's permissions are kept.  A save reads the file, merges this game's win into
what it holds and writes it back while holding a lock (``progress.json.lock``), so that games won at
the same moment in several terminals all keep their wins; temporary files left by a killed save are
removed then.  A file that cannot be read, is not a regular file, or was written by a newer version
of rushhour is reported and left alone (nothing is saved over it); a corrupt one (not JSON, nested
absurdly deep, not a progress file) is reported and moved aside to
``progress.json.corrupt-YYYYmmdd-HHMMSS`` before a fresh file is started, except by a reader that
never writes (``rushhour levels``), which reports it and leaves it where it is.  A value that cannot
be read in a file that can (a count below 0, a wrong type, a level that is no record) is reported and
left out, the rest of the file used; a reader that will write copies the file as it was aside first.

A level is known by a key (``classic:3`` for a built-in level, ``daily:2026-11-23`` for a day's
puzzle, ``board:<grid>`` for any other board) and by its board: when a pack's level N changes, the old
record no longer counts for it.

A level's best win is the one with the least help, then the fewest moves: a win without a hint and
without seeing the solution beats any win with help, however short.  *Perfect* means won in the optimal
number of moves without help.  A game left unsolved after a hint or the solution is remembered too
(``hints_since_win``, ``solution_seen_since_win``, on a record that may have ``solved`` false): that
help counts with the next win of the level, which is then not perfect.  Records written before help
was fully recorded have no ``solution_seen`` field: their ``perfect`` is kept only when their best win
reached the optimum without a hint (the file's format is otherwise unchanged, version 1, so older
versions still read it: they pass over the fields they do not know).  Fields this version does not know,
in the file or in a record (a newer rushhour's), are kept and written back as they were.

A level keeps one position to continue (``left_moves``), the one left last.  A game forgets only its
own: the one it continued (:meth:`Saves.hold_position`) or last saved; its win or its return to the
start leaves a position that another game of the level saved since (another terminal) to be continued.
"""

from __future__ import annotations

import errno
import json
import math
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rushhour.board import Board
from rushhour.errors import ParseError, RushHourError, SaveFileError
from rushhour.files import (
    clean_temporaries,
    data_dir,
    in_the_way,
    locked,
    make_folder,
    put_aside,
    read_regular_file,
    real_target,
    write_text_atomic,
)
from rushhour.formats import grid
from rushhour.formats.jsonfmt import load_json
from rushhour.numbers import quoted

FILE_NAME = "progress.json"
FORMAT_NAME = "rushhour-progress"
VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024


class _NewerVersion(Exception):
    """A progress file written by a newer rushhour: not corrupt, only not ours to rewrite."""


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    return data_dir(environ) / FILE_NAME


def board_key(board: Board) -> str:
    """The text that identifies a board in the progress file: its grid rows joined by ``/``."""
    try:
        text = grid.write_grid(board)
    except RushHourError:
        text = "\n".join(board.rows())
    return "/".join(line for line in text.splitlines() if line)


def level_key(board: Board, pack: str | None = None, number: int | None = None) -> str:
    """``pack:N`` for a built-in level, ``board:<grid>`` for any other board."""
    if pack is not None and number is not None:
        return f"{pack}:{number}"
    return f"board:{board_key(board)}"


@dataclass
class LevelRecord:
    """What the progress file remembers of one level."""

    board: str
    solved: bool = False
    best: int | None = None  # fewest moves of a win
    best_steps: int | None = None  # steps of that win
    optimal: int | None = None
    perfect: bool = False
    hints: int | None = None  # hints used in the best win
    solution_seen: bool = False  # whether the solution was shown before the best win
    wins: int = 0
    last_solved: str | None = None
    hints_since_win: int = 0  # hints used in games left unsolved since the last win
    solution_seen_since_win: bool = False  # whether one of those games showed the solution
    best_seconds: float | None = None  # the fastest win on the stopwatch
    left_moves: list[str] | None = None  # the moves of a game left unsolved, to continue it
    left_seconds: float | None = None  # its time on the stopwatch
    left_at: str | None = None  # when it was left
    # the fields this version does not know (a newer rushhour's), kept as they were and written back
    unknown: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def left(self) -> bool:
        """Whether a game of this level was left unsolved with moves made (it can be continued)."""
        return bool(self.left_moves)


_FIELDS: dict[str, tuple[type, ...]] = {
    "board": (str,),
    "solved": (bool,),
    "best": (int, type(None)),
    "best_steps": (int, type(None)),
    "optimal": (int, type(None)),
    "perfect": (bool,),
    "hints": (int, type(None)),
    "solution_seen": (bool,),
    "wins": (int,),
    "last_solved": (str, type(None)),
    "hints_since_win": (int,),
    "solution_seen_since_win": (bool,),
    "best_seconds": (int, float, type(None)),
    "left_moves": (list, type(None)),
    "left_seconds": (int, float, type(None)),
    "left_at": (str, type(None)),
}


#: the largest count or number of seconds a record may hold (every one is 0 or more): a billion, some 31
#: years of play, so that a file changed by hand cannot hold a time that no clock can show
_MOST = 10**9


def _record_from(key: str, value: Any, problems: list[str]) -> LevelRecord | None:
    """The record of a level, its unreadable values left out (each said in ``problems``); None when it
    is no record with a board at all."""
    where = f"level {quoted(key)}"
    if not isinstance(value, dict) or not isinstance(value.get("board"), str):
        problems.append(f"{where} is not a record with a board")
        return None
    fields: dict[str, Any] = {}
    for name, types in _FIELDS.items():
        if name in value:
            item = value[name]
            if not isinstance(item, types) or (isinstance(item, bool) and bool not in types):
                problems.append(f"{where} has a bad {name!r}: {reprlib.repr(item)}")
            elif isinstance(item, int | float) and not isinstance(item, bool) and not 0 <= item <= _MOST:
                problems.append(f"{where} has {name!r} out of range: {reprlib.repr(item)}")
            elif isinstance(item, list) and not all(isinstance(m, str) for m in item):  # left_moves
                problems.append(f"{where} has a bad 'left_moves'")
            else:
                fields[name] = item
    unknown = {str(name): item for name, item in value.items() if name not in _FIELDS}
    record = LevelRecord(**fields, unknown=unknown)
    if "solution_seen" not in value:  # written before help was fully recorded: perfect only if unhelped
        record.perfect = record.perfect and record.best == record.optimal and not record.hints
    return record


def _forget_left(record: LevelRecord) -> None:
    record.left_moves, record.left_seconds, record.left_at = None, None, None


def _helped(hints: int | None, solution_seen: bool) -> bool:
    return bool(hints) or solution_seen


def _rank(record: LevelRecord) -> tuple[bool, int, int]:
    """How a best win compares: less help first, then fewer moves, then fewer hints."""
    return (_helped(record.hints, record.solution_seen), record.best or 0, record.hints or 0)


def _parse(text: str, problems: list[str], unknown: dict[str, Any] | None = None) -> dict[str, LevelRecord]:
    """The records of a progress file's text; a value or a record that cannot be read is left out and
    said in ``problems``; the file's own fields that this version does not know go to ``unknown``.
    Raises :class:`ValueError` (or :class:`ParseError`) when the text is no
    progress file at all, :class:`_NewerVersion` for a newer format."""
    data = load_json(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise ValueError("it is not a rushhour progress file")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise _NewerVersion(version)
    if not isinstance(version, int) or version < 1:
        raise ValueError(f"unknown version {reprlib.repr(version)}")
    levels = data.get("levels")
    if not isinstance(levels, dict):
        raise ValueError("it has no levels table")
    records = {str(key): _record_from(str(key), value, problems) for key, value in levels.items()}
    if unknown is not None:
        unknown.update((str(k), v) for k, v in data.items() if k not in ("format", "version", "levels"))
    return {key: record for key, record in records.items() if record is not None}


def tenths(seconds: float) -> float:
    """A stopwatch reading kept to a tenth of a second, cut rather than rounded: a stopwatch shows
    whole seconds cut (12.96 s is 0:12), and the time kept must read the same."""
    return math.floor(seconds * 10) / 10


def read_levels(
    path: Path,
    *,
    move_aside: bool = True,
    problems: list[str] | None = None,
    unknown: dict[str, Any] | None = None,
) -> dict[str, LevelRecord]:
    """The records of a progress file; an absent file has none.  A value that cannot be read (a wrong
    type, a count out of range) or a level that is no record is left out, said in ``problems``; the
    rest of the file is read.  The file's own fields this version does not know (a newer rushhour's)
    go to ``unknown``, a record's to its :attr:`LevelRecord.unknown`: a save writes them back.

    Raises :class:`SaveFileError`: for an unreadable file (left where it is, ``moved_to`` None), or for
    a corrupt one after moving it aside (``moved_to`` names where); with ``move_aside`` False (a
    reader that will not write, like ``rushhour levels``) a corrupt file is left where it is too.
    """
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES, what="a progress file", error=SaveFileError)
    except FileNotFoundError:
        return {}
    except OSError as err:
        why = _why(path, err)
        raise SaveFileError(f"cannot read the progress file {path}: {why}; it is left as it is") from None
    except SaveFileError as err:
        raise SaveFileError(f"cannot read the progress file: {err}; it is left as it is") from None
    try:
        return _parse(raw.decode("utf-8"), [] if problems is None else problems, unknown)
    except _NewerVersion as err:
        raise SaveFileError(
            f"the progress file {path} was written by a newer version of rushhour (format version "
            f"{err.args[0]}, this one reads up to {VERSION}); it is left as it is"
        ) from None
    except (UnicodeDecodeError, ValueError, TypeError, ParseError) as err:
        reason = str(err) if not isinstance(err, UnicodeDecodeError) else "it is not UTF-8 text"
        if isinstance(err, ParseError):
            where = f" at line {err.line}, column {err.column}" if err.line is not None else ""
            detail = err.reason.removeprefix("not valid JSON: ").removeprefix("not valid JSON here: ")
            reason = f"it is not valid JSON ({detail}{where})"
        if not move_aside:
            raise SaveFileError(
                f"the progress file {path} is corrupt ({reason}); it is left as it is"
            ) from None
        failed = f"the progress file {path} is corrupt ({reason}) and could not be moved"
        aside = _aside(path, failed, copy=False)
        raise SaveFileError(
            f"the progress file {path} was corrupt ({reason}); it was moved to {aside.name} "
            "and a fresh one is started",
            moved_to=str(aside),
        ) from None


def _record_data(record: LevelRecord) -> dict[str, Any]:
    """A record as the file holds it: its fields, then those this version does not know."""
    data = asdict(record)
    del data["unknown"]
    data.update((name, item) for name, item in record.unknown.items() if name not in data)
    return data


def _why(path: Path, err: OSError) -> str:
    """Why ``path`` cannot be read, in words: a file where one of its folders should be is named."""
    if err.errno == errno.ENOTDIR:
        there = in_the_way(path.parent)
        if there is not None:
            return f"{there} is a file, not a folder"
    return str(err.strerror or err)


def write_levels(
    path: Path, levels: Mapping[str, LevelRecord], unknown: Mapping[str, Any] | None = None
) -> None:
    """Write the records (and ``unknown``, the file's own fields a newer rushhour wrote, as they were)
    atomically: a temporary file in the same folder, then :func:`os.replace`."""
    data: dict[str, Any] = {"format": FORMAT_NAME, "version": VERSION}
    data.update((k, v) for k, v in (unknown or {}).items() if k not in ("format", "version", "levels"))
    data["levels"] = {key: _record_data(levels[key]) for key in sorted(levels)}
    text = json.dumps(data, indent=2) + "\n"
    _make_folder(path)
    write_text_atomic(path, text, what="the progress file ", error=SaveFileError)


def _aside(path: Path, failed: str, *, copy: bool) -> Path:
    """``path`` moved aside (or, with ``copy``, copied) to ``progress.json.corrupt-...``: where it went.
    Raises :class:`SaveFileError` saying ``failed``, why, and that the file is left as it is."""
    try:
        aside = put_aside(path, copy=copy)
    except OSError as err:
        raise SaveFileError(f"{failed} aside ({err.strerror or err}); it is left as it is") from None
    return aside


def _left_out(path: Path, problems: list[str], copy: bool) -> tuple[str, str | None]:
    """What to say of the values of the progress file left out, and where the file as it was was
    copied: with ``copy`` only (raising :class:`SaveFileError` when it cannot be)."""
    more = f"; and {len(problems) - 1} more" if len(problems) > 1 else ""
    what = f"the progress file {path} holds values that cannot be read ({problems[0]}{more})"
    if not copy:
        return f"{what}; they are left out here, and the file is left as it is", None
    aside = _aside(path, f"{what} and could not be copied", copy=True)
    kept = f"{what}; they are left out, the rest is kept, and the file as it was is copied to {aside.name}"
    return kept, str(aside)


def _make_folder(path: Path) -> None:
    try:
        make_folder(real_target(path).parent)
    except OSError as err:
        raise SaveFileError(f"cannot save the progress file {path}: {err.strerror or err}") from None


class Saves:
    """The player's records, read from ``path`` (None: kept in memory only, nothing is saved)."""

    def __init__(self, path: Path | None, levels: dict[str, LevelRecord] | None = None) -> None:
        self.path = path
        self.levels: dict[str, LevelRecord] = dict(levels or {})
        # what the player must hear of the file read: values in it that could not be read, left out
        self.note = ""
        self._left_out: list[str] = []  # those values, said and copied aside already
        # the help of games left unsolved that the last win recorded counted (hints, solution seen)
        self.earlier_help: tuple[int, bool] = (0, False)
        # for each level, when the saved position this player's game holds was saved (its left_at):
        # the one a win or a return to the start may forget (see :meth:`hold_position`)
        self._positions = {key: r.left_at for key, r in self.levels.items() if r.left}

    @classmethod
    def load(cls, path: Path | str | None = None, *, move_aside: bool = True) -> Saves:
        """Read the progress file (the default one when ``path`` is None).  May raise
        :class:`SaveFileError`, see :func:`read_levels`.

        Values in it that cannot be read are left out and said in :attr:`note`; the rest is read.  With
        ``move_aside`` (a reader that will write the file) the file as it was is first copied aside
        (``progress.json.corrupt-...``), since the next save writes it without them; when that copy
        cannot be made, :class:`SaveFileError` is raised and the file left as it is."""
        where = default_path() if path is None else Path(path)
        problems: list[str] = []
        saves = cls(where, read_levels(where, move_aside=move_aside, problems=problems))
        if problems:
            saves.note = _left_out(where, problems, move_aside)[0]
            saves._left_out = problems
        return saves

    @classmethod
    def memory(cls) -> Saves:
        """Saves kept in memory only, never written (``--no-save``)."""
        return cls(None)

    @property
    def saving(self) -> bool:
        return self.path is not None

    def get(self, key: str, board: Board) -> LevelRecord | None:
        """The record of a level, if it is for this very board."""
        record = self.levels.get(key)
        if record is None or record.board != board_key(board):
            return None
        return record

    def is_solved(self, key: str, board: Board) -> bool:
        record = self.get(key, board)
        return record is not None and record.solved

    def record_win(
        self,
        key: str,
        board: Board,
        *,
        moves: int,
        steps: int,
        optimal: int | None,
        hints: int = 0,
        solution_seen: bool = False,
        seconds: float | None = None,
        hints_saved: int = 0,
    ) -> LevelRecord:
        """Remember a win (and its time on the stopwatch, ``seconds``) and save: under the file's lock,
        read what the file holds now (other sessions' wins included), merge this win into it, write it
        back.  A game of the level left unsolved is forgotten; the fastest win is kept.

        The win becomes the level's best when it had less help, or as little help and fewer moves (or
        as many moves and fewer hints); it makes the level perfect when it took the optimal number of
        moves without a hint and without the solution.  ``hints`` are the game's own; ``hints_saved``
        of them were saved already by :meth:`record_attempt` while it was played (so that a process
        killed outright would not forget them), and are not counted twice.

        Raises :class:`SaveFileError` when the file cannot be read or written (nothing is saved over
        it), or when it had become corrupt (then it was moved aside and the progress saved afresh
        before the error is raised).
        """
        return self._save(
            lambda: self._merge_win(
                key, board, moves=moves, steps=steps, optimal=optimal, hints=hints,
                solution_seen=solution_seen, seconds=seconds, hints_saved=hints_saved,
            )
        )

    def record_attempt(self, key: str, board: Board, *, hints: int, solution_seen: bool) -> LevelRecord:
        """Remember the help a game had that was left without a win, and save (as :meth:`record_win`
        does): the next win of the level counts it, so that it is not perfect.

        Raises :class:`SaveFileError` as :meth:`record_win` does.
        """
        return self._save(lambda: self._merge_attempt(key, board, hints=hints, solution_seen=solution_seen))

    def record_left(self, key: str, board: Board, moves: list[str], seconds: float) -> LevelRecord:
        """Remember the position of a game left unsolved (its moves, in ``A+2`` notation, and its time)
        so that it can be continued; no moves forget it.  Saves as :meth:`record_win` does."""
        return self._save(lambda: self._merge_left(key, board, moves, seconds))

    def hold_position(self, key: str, board: Board) -> None:
        """A game of the level starts from the position these saves hold of it (continued), or from
        its start when they hold none: that position is the game's own, which its win or its return to
        the start forgets.  A position another game saves after that (another terminal) is not: it
        stays, to be continued."""
        record = self.get(key, board)
        self._positions[key] = record.left_at if record is not None and record.left else None

    def _forget_own_left(self, key: str, record: LevelRecord) -> None:
        """Forget the level's saved position when it is this game's own; one that another game saved
        since (its ``left_at`` is not the one this game holds) stays, to be continued."""
        if not record.left or record.left_at == self._positions.get(key):
            _forget_left(record)
        self._positions[key] = None

    def _merge_left(self, key: str, board: Board, moves: list[str], seconds: float) -> LevelRecord:
        record = self._record_of(key, board)
        if not moves:
            self._forget_own_left(key, record)
            return record
        record.left_moves, record.left_seconds = list(moves), tenths(seconds)
        record.left_at = datetime.now().isoformat(timespec="microseconds")  # orders games left close together
        self._positions[key] = record.left_at
        return record

    def last_left(self) -> str | None:
        """The key of the level whose game was left last (a game to continue), if any."""
        left = self.left_keys()
        return left[0] if left else None

    def left_keys(self) -> list[str]:
        """The keys of the levels with a game left unsolved to continue, the one left last first."""
        left = sorted(((r.left_at or "", key) for key, r in self.levels.items() if r.left), reverse=True)
        return [key for _, key in left]

    def help_before(self, key: str, board: Board) -> tuple[int, bool]:
        """The help of games of this level left unsolved since its last win: hints, and whether the
        solution was seen."""
        record = self.get(key, board)
        if record is None:
            return 0, False
        return record.hints_since_win, record.solution_seen_since_win

    def _save(self, merge: Callable[[], LevelRecord]) -> LevelRecord:
        """Under the file's lock: read what the file holds now (other sessions' records included),
        ``merge`` one record into it, write it back."""
        if self.path is None:
            return merge()
        _make_folder(self.path)
        late_error: SaveFileError | None = None
        with locked(self.path, error=SaveFileError):
            clean_temporaries(self.path)  # left by a save that was killed: no one else writes now
            problems: list[str] = []
            unknown: dict[str, Any] = {}  # the file's own fields a newer rushhour wrote: written back
            try:
                self.levels.update(read_levels(self.path, problems=problems, unknown=unknown))
            except SaveFileError as err:
                if err.moved_to is None:
                    raise
                late_error = err
            if problems and problems != self._left_out:  # changed since it was read: copied aside first
                note, aside = _left_out(self.path, problems, True)
                late_error = SaveFileError(note, moved_to=aside)
            record = merge()
            write_levels(self.path, self.levels, unknown)
            self._left_out = []
        if late_error is not None:
            raise late_error
        return record

    def _record_of(self, key: str, board: Board) -> LevelRecord:
        """The record of a level for this very board; a new one when there is none."""
        fingerprint = board_key(board)
        record = self.levels.get(key)
        if record is None or record.board != fingerprint:
            record = LevelRecord(board=fingerprint)
        self.levels[key] = record
        return record

    def _merge_attempt(self, key: str, board: Board, *, hints: int, solution_seen: bool) -> LevelRecord:
        record = self._record_of(key, board)
        record.hints_since_win += hints
        record.solution_seen_since_win = record.solution_seen_since_win or solution_seen
        return record

    def _merge_win(
        self,
        key: str,
        board: Board,
        *,
        moves: int,
        steps: int,
        optimal: int | None,
        hints: int,
        solution_seen: bool,
        seconds: float | None,
        hints_saved: int = 0,
    ) -> LevelRecord:
        record = self._record_of(key, board)
        self._forget_own_left(key, record)  # won: this game is not to be continued (another may be)
        if seconds is not None and (record.best_seconds is None or seconds < record.best_seconds):
            record.best_seconds = tenths(seconds)
        # the help of games left unsolved since the last win counts with this one (this game's own hints
        # saved with them are not counted twice; another session's win may have taken them already)
        self.earlier_help = (max(0, record.hints_since_win - hints_saved), record.solution_seen_since_win)
        hints += self.earlier_help[0]
        solution_seen = solution_seen or record.solution_seen_since_win
        record.hints_since_win, record.solution_seen_since_win = 0, False
        record.solved = True
        helped = _helped(hints, solution_seen)
        if record.best is None or (helped, moves, hints) < _rank(record):
            record.best, record.best_steps = moves, steps
            record.hints, record.solution_seen = hints, solution_seen
        if optimal is not None:
            record.optimal = optimal
            record.perfect = record.perfect or (moves == optimal and not helped)
        record.wins += 1
        record.last_solved = datetime.now().isoformat(timespec="seconds")
        return record


def open_saves(no_save: bool, warn: Callable[[str], None]) -> Saves:
    """The saves a game keeps: the player's file; in memory only with ``no_save`` or when the file cannot
    be read (each problem told to ``warn``)."""
    if no_save:
        return Saves.memory()
    try:
        saves = Saves.load()
    except SaveFileError as err:
        warn(f"warning: {err}")
        if err.moved_to is not None:
            return Saves(default_path())
        warn("warning: progress will not be saved in this session")
        return Saves.memory()
    if saves.note:
        warn(f"warning: {saves.note}")
    return saves


def read_saves(warn: Callable[[str], None], *, unread: str = "") -> Saves:
    """The player's saves, only read: a file that cannot be read or is corrupt is told to ``warn``
    (followed by ``unread``, what the caller does without it) and left as it is (never moved or
    changed); the saves are then empty."""
    try:
        saves = Saves.load(move_aside=False)
    except SaveFileError as err:
        warn(f"warning: {err}{unread}")
        return Saves.memory()
    if saves.note:
        warn(f"warning: {saves.note}")
    return saves


__all__ = [
    "FILE_NAME",
    "LevelRecord",
    "Saves",
    "board_key",
    "data_dir",
    "default_path",
    "level_key",
    "open_saves",
    "read_saves",
    "read_levels",
    "write_levels",
]
