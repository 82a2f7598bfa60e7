"""The progress file's lock (rushhour.play.saves), tested so that it fails without it, every time: one session is held
inside its read-merge-write (after reading the file, before writing it back) until a second session
either finishes its own save (no lock kept it out: its win is then overwritten) or is found waiting
for the lock.  No timing is involved; the waits only guard against a hang."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import rushhour.play.saves as saves_module
from rushhour.formats import parse_text
from rushhour.play.saves import Saves

fcntl = pytest.importorskip("fcntl")  # the lock on Windows (msvcrt) is not instrumented here

ONE = parse_text("BBBCCFoooDoFAAoDoooooEoooooEoooooEoo", fmt="fogleman")[0].board
TWO = parse_text("BBBoooooCoooAACoooooDoooooDoooooDooo", fmt="fogleman")[0].board
GUARD = 60  # seconds: only a broken test waits this long


class Held:
    """Holds the first session inside its save until the second is done or stuck on the lock."""

    def __init__(self) -> None:
        self.first_inside = threading.Event()
        self.second_done_or_waiting = threading.Event()
        self.second: threading.Thread | None = None
        self.second_waited = False

    def read_levels(self, real: Callable[..., object]) -> Callable[..., object]:
        def read(*args: object, **kwargs: object) -> object:
            found = real(*args, **kwargs)
            if threading.current_thread() is not self.second and not self.first_inside.is_set():
                self.first_inside.set()
                assert self.second_done_or_waiting.wait(GUARD), "the second session neither ended nor waited"
            return found

        return read

    def flock(self, real: Callable[[int, int], None]) -> Callable[[int, int], None]:
        def lock(fd: int, operation: int) -> None:
            if threading.current_thread() is self.second and not operation & fcntl.LOCK_UN:
                try:
                    real(fd, operation | fcntl.LOCK_NB)
                    return  # taken at once, while the first session holds it: no exclusion
                except BlockingIOError:
                    self.second_waited = True
                    self.second_done_or_waiting.set()
            real(fd, operation)

        return lock


def _concurrent_saves(
    path: Path, monkeypatch: pytest.MonkeyPatch, first: Callable[[Saves], object], second: Callable[[Saves], object]
) -> Held:
    held = Held()
    monkeypatch.setattr(saves_module, "read_levels", held.read_levels(saves_module.read_levels))
    monkeypatch.setattr(fcntl, "flock", held.flock(fcntl.flock))
    errors: list[BaseException] = []

    def run(save: Callable[[Saves], object], then: threading.Event) -> None:
        try:
            save(Saves(path))
        except BaseException as err:  # reported by the test thread
            errors.append(err)
        finally:
            then.set()

    one = threading.Thread(target=run, args=(first, held.first_inside))  # set here too if it fails first
    one.start()
    assert held.first_inside.wait(GUARD)
    assert not errors, errors
    held.second = threading.Thread(target=run, args=(second, held.second_done_or_waiting))
    held.second.start()
    for thread in (one, held.second):
        thread.join(GUARD)
        assert not thread.is_alive()
    assert not errors, errors
    return held


def test_a_save_waits_for_the_one_inside_its_read_merge_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "progress.json"
    held = _concurrent_saves(
        path,
        monkeypatch,
        lambda p: p.record_win("classic:1", ONE, moves=4, steps=7, optimal=4),
        lambda p: p.record_win("classic:2", TWO, moves=3, steps=3, optimal=3),
    )
    monkeypatch.undo()
    merged = Saves.load(path)
    assert merged.is_solved("classic:1", ONE) and merged.is_solved("classic:2", TWO)
    assert held.second_waited  # and not by luck: the second session found the lock taken


def test_an_attempt_and_a_win_of_the_same_level_both_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.json"
    Saves(path).record_win("classic:1", ONE, moves=6, steps=9, optimal=4)
    _concurrent_saves(
        path,
        monkeypatch,
        lambda p: p.record_attempt("classic:1", ONE, hints=2, solution_seen=False),
        lambda p: p.record_win("classic:1", ONE, moves=5, steps=8, optimal=4),
    )
    monkeypatch.undo()
    record = Saves.load(path).get("classic:1", ONE)
    # the attempt's two hints went with the win after it: not a better best than 6 moves without help
    assert record is not None and (record.wins, record.best, record.hints_since_win) == (2, 6, 0)
