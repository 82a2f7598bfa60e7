"""Searches beside the game, so that the screen never freezes.

A :class:`Worker` runs one search for an optimal plan at a time and is asked, without waiting, whether
it is done (:meth:`Worker.poll`); :meth:`Worker.cancel` stops it at once.  Two kinds:

:class:`ProcessWorker`  the search runs in a child process (``fork``): the game's process keeps the
                        interpreter to itself (a search in a thread would hold the GIL for long
                        stretches and starve the keys), its memory does not grow, and a cancel is a
                        kill.  Its :meth:`~ProcessWorker.fileno` becomes readable when the search ends,
                        so a loop can wait on keys and the search together.
:class:`InlineWorker`   the search runs in :meth:`~InlineWorker.start` itself (tests, and systems without
                        ``fork``): simple, and the same answers.

The outcome says which board was searched, the plan found (None: no win can be reached) or why there is
none (``error``: a limit stopped the search, or it failed).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from rushhour.board import Board, Move
from rushhour.errors import RushHourError
from rushhour.play.game import Solver
from rushhour.workers import owned_by

#: how much lower the search's priority is than the game's (``nice``)
CHILD_NICENESS = 10


@dataclass(frozen=True)
class Outcome:
    """How a search ended: ``plan`` (None: no win) or ``error`` (the search gave up, and why)."""

    board: Board
    purpose: str
    plan: tuple[Move, ...] | None = None
    error: str | None = None
    value: object = None  # what a job other than the solver gave


Job = Callable[[Board], object]


def _search(solver: Solver, board: Board, job: Job | None = None) -> tuple[str, object]:
    """Run the solver (or ``job``); ``("plan", [(name, distance)...] | None)``, ``("value", what the job
    gave)`` or ``("error", message)``."""
    try:
        if job is not None:
            return "value", job(board)
        found = solver(board)
    except RushHourError as err:
        return "error", str(err)
    except MemoryError:
        return "error", "the search ran out of memory"
    if found is None:
        return "plan", None
    return "plan", [(m.vehicle, m.distance) for m in found]


def _outcome(board: Board, purpose: str, kind: str, value: object) -> Outcome:
    if kind == "error":
        return Outcome(board, purpose, error=str(value))
    if kind == "value":
        return Outcome(board, purpose, value=value)
    if value is None:
        return Outcome(board, purpose)
    assert isinstance(value, list)
    return Outcome(board, purpose, plan=tuple(Move(name, distance) for name, distance in value))


class Worker:
    """One search at a time: what it is for (``purpose``), on which board, since when."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.board: Board | None = None
        self.purpose = ""
        self.since = 0.0

    @property
    def busy(self) -> bool:
        return self.board is not None

    def start(self, board: Board, purpose: str, job: Job | None = None) -> None:
        """Search ``board`` for ``purpose`` (any word the caller chooses), cancelling a running search;
        ``job`` runs instead of the solver when given (its answer must pickle)."""
        raise NotImplementedError

    def poll(self) -> Outcome | None:
        """The outcome of the search, once, when it has ended; else None (never waits)."""
        raise NotImplementedError

    def wait(self, timeout: float | None = None) -> Outcome | None:
        """The outcome, waiting at most ``timeout`` seconds (None: until the search ends)."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop the search, if one runs; its outcome is never given."""
        self.board = None

    def fileno(self) -> int | None:
        """A descriptor that becomes readable when the search ends (None: nothing to wait on)."""
        return None

    def close(self) -> None:
        self.cancel()


class InlineWorker(Worker):
    """Searches in :meth:`start` itself; the outcome is ready at once."""

    def __init__(self, solver: Solver) -> None:
        super().__init__(solver)
        self._done: Outcome | None = None

    def start(self, board: Board, purpose: str, job: Job | None = None) -> None:
        self.board, self.purpose, self.since = board, purpose, time.monotonic()
        kind, value = _search(self.solver, board, job)
        self._done = _outcome(board, purpose, kind, value)

    def poll(self) -> Outcome | None:
        done, self._done = self._done, None
        if done is not None:
            self.board = None
        return done

    def wait(self, timeout: float | None = None) -> Outcome | None:
        return self.poll()

    def cancel(self) -> None:
        self._done = None
        super().cancel()


class ProcessWorker(Worker):
    """Searches in a forked child process that sends its outcome back through a pipe."""

    def __init__(self, solver: Solver) -> None:
        super().__init__(solver)
        self._pid: int | None = None
        self._fd: int | None = None
        self._data = bytearray()

    def start(self, board: Board, purpose: str, job: Job | None = None) -> None:
        self.cancel()
        read, write = os.pipe()
        # Ctrl-C waits until the child is known, so that a cancel or a close always finds it
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            owner = os.getpid()
            pid = os.fork()
            if pid == 0:  # the child: search, send, and leave without running the parent's clean-ups
                os.close(read)
                self._child(board, write, job, owner)
            os.close(write)
            self._pid, self._fd, self._data = pid, read, bytearray()
            self.board, self.purpose, self.since = board, purpose, time.monotonic()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def _child(self, board: Board, write: int, job: Job | None, owner: int) -> None:
        status = 0
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the game's to answer
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            _let_go_of_the_terminal()
            owned_by(owner)  # the search ends with the game, however the game ends (kill -9 too)
            os.nice(CHILD_NICENESS)  # on a busy machine, the game's keys come first
            data = pickle.dumps(_search(self.solver, board, job))
            view = memoryview(data)
            while view:
                view = view[os.write(write, view) :]
        except BaseException:  # noqa: BLE001 - nothing may escape into a copy of the game
            status = 1
        finally:
            os._exit(status)

    def fileno(self) -> int | None:
        return self._fd

    def poll(self) -> Outcome | None:
        if self._fd is None or self.board is None:
            return None
        while True:
            ready, _, _ = select.select([self._fd], [], [], 0)
            if not ready:
                return None
            chunk = os.read(self._fd, 1 << 16)
            if not chunk:
                return self._finish()
            self._data.extend(chunk)

    def wait(self, timeout: float | None = None) -> Outcome | None:
        end = None if timeout is None else time.monotonic() + timeout
        while self.busy and self._fd is not None:
            left = None if end is None else max(0.0, end - time.monotonic())
            ready, _, _ = select.select([self._fd], [], [], left)
            if ready:
                done = self.poll()
                if done is not None:
                    return done
            elif end is not None:
                return None
        return None

    def _finish(self) -> Outcome:
        board, purpose = self.board, self.purpose
        assert board is not None
        status = self._reap()
        try:
            kind, value = pickle.loads(bytes(self._data))
        except Exception:  # noqa: BLE001 - the child died before it could answer (killed, out of memory)
            kind, value = "error", f"the search stopped before it could answer ({status})"
        self._data = bytearray()
        return _outcome(board, purpose, kind, value)

    def _reap(self) -> str:
        """Close the pipe and collect the child; how it ended, in words."""
        pid, self._pid = self._pid, None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.board = None
        if pid is None:
            return ""
        with contextlib.suppress(ChildProcessError):
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status):
                return f"killed by signal {os.WTERMSIG(status)}"
            return f"exit status {os.WEXITSTATUS(status)}"
        return ""

    def cancel(self) -> None:
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        self._reap()
        self._data = bytearray()


def _let_go_of_the_terminal() -> None:
    """The child's standard streams go to the null device: it never writes to the game's screen, and
    the terminal (or the pipes of a program running the game) is released as soon as the game ends."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def worker_for(solver: Solver, *, background: bool = True) -> Worker:
    """A worker beside the game where the system can fork, else one that searches in place."""
    if background and hasattr(os, "fork"):
        return ProcessWorker(solver)
    return InlineWorker(solver)


__all__ = ["InlineWorker", "Job", "Outcome", "ProcessWorker", "Worker", "worker_for"]
