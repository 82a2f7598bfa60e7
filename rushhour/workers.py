"""Worker processes owned by the command that starts them.

A command that starts worker processes owns them: when it ends, however it ends (SIGKILL included,
which runs no code of its own), its workers end within a second and let go of what they inherited
from it (its stdout and stderr among them), so that a program reading the command's output sees the
end of it instead of waiting for orphans.

Every pool of the package is an :func:`owned_pool`: its workers start with :func:`owned_by` (the
pool's initializer), given the command's process id, and are ended (:func:`stop_workers`) when the
block that uses the pool ends.  :func:`owned_by` ends them with the command too, however it ends:

* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker as soon as its parent
  ends.  With the fork and spawn start methods the parent is the command itself;
* a thread that waits for the command to end and then ends the worker: on Linux by a pidfd (which
  becomes readable the moment the process ends), elsewhere by asking every half second whether the
  process id is still there.  It covers the forkserver start method, whose workers are children of
  the forkserver, not of the command.

:func:`context` gives the start method of the enumerator's pool: the forkserver on POSIX systems,
which is told to die with the command too (it imports :mod:`rushhour._forkserver`).  With its
workers gone it would end by itself anyway (they hold the pipe that keeps it alive), and so does
multiprocessing's resource tracker once nobody holds its pipe.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.context
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from rushhour.errors import WorkerError

if TYPE_CHECKING:  # imported where a pool starts: every command imports this module
    from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 0.5
#: the exit status of a worker that ends because the command that owned it has ended
ORPHANED = 70


def usable_cores() -> int:
    """The cores this process may use (its affinity on Linux, else every core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def die_with_parent() -> bool:
    """Ask the kernel to kill this process (SIGKILL) when its parent process ends; whether it was
    done (Linux only: elsewhere there is no such request)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def wait_for_end(pid: int) -> None:
    """Return when process ``pid`` has ended (at once if there is no such process)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        while _exists(pid):
            time.sleep(POLL_SECONDS)
        return
    try:
        select.select([fd], [], [])
    finally:
        os.close(fd)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's: the id was taken again
        return False
    return True


def watch(owner: int) -> threading.Thread:
    """A daemon thread that ends this process (status :data:`ORPHANED`) as soon as process ``owner``
    ends."""

    def run() -> None:
        wait_for_end(owner)
        os._exit(ORPHANED)

    thread = threading.Thread(target=run, name=f"rushhour-owner-{owner}", daemon=True)
    thread.start()
    return thread


def owned_by(owner: int) -> None:
    """The initializer of a pool's worker: it ends when process ``owner`` (the command) ends, and at
    SIGTERM or SIGHUP as a process does.  (A forked worker inherits the command's handlers of those,
    which end the command as Ctrl-C does: in a worker, they raised KeyboardInterrupt into its work,
    and a pool that ends its workers with SIGTERM, one of them killed, waited for ever.)"""
    if os.name != "posix":
        return
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    die_with_parent()
    if os.getppid() != owner and not _exists(owner):
        os._exit(ORPHANED)  # the command ended before the death signal was asked for
    watch(owner)


def may_start_processes() -> bool:
    """Whether this process may start others: not in a worker of a ``multiprocessing`` pool (a daemon),
    where the library's pools run their work in the caller instead (``jobs``/``workers`` 1)."""
    return not multiprocessing.current_process().daemon


def context() -> multiprocessing.context.BaseContext:
    """The start method of the enumerator's pool: the forkserver on POSIX systems, told to die with the
    command; spawn elsewhere."""
    if os.name != "posix":
        return multiprocessing.get_context("spawn")
    forkserver = multiprocessing.get_context("forkserver")
    with contextlib.suppress(AttributeError, ValueError):
        forkserver.set_forkserver_preload(["__main__", "rushhour._forkserver"])
    return forkserver


POLL_RESULTS = 0.1  # seconds; how soon a held Ctrl-C is answered while results are awaited
T = TypeVar("T")


@contextlib.contextmanager
def interrupt_as_flag() -> Iterator[threading.Event]:
    """Within the block, Ctrl-C (SIGINT) sets the event it gives instead of raising
    ``KeyboardInterrupt`` wherever the main thread happens to be; the block checks the event between
    its waits (:func:`awaited`).  A Ctrl-C the block did not answer is raised as it ends.  Where
    SIGINT is not Python's default (ignored, or another handler's) or off the main thread, nothing
    changes and the event is never set."""
    flag = threading.Event()
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield flag
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: flag.set())
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)
    if flag.is_set():
        raise KeyboardInterrupt


def awaited(get: Callable[[float], T], interrupted: threading.Event) -> T:
    """``get(timeout)`` (a pool's ``AsyncResult.get``, ``IMapIterator.next``, a future's ``result``)
    asked again every :data:`POLL_RESULTS` seconds until it answers; ``KeyboardInterrupt`` once
    ``interrupted`` is set."""
    while True:
        if interrupted.is_set():
            raise KeyboardInterrupt
        try:
            return get(POLL_RESULTS)
        except (multiprocessing.TimeoutError, TimeoutError):
            continue


@contextlib.contextmanager
def owned_pool(
    workers: int, context: multiprocessing.context.BaseContext, doing: str
) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes started by ``context``, owned by this process (:func:`owned_by`),
    whose unfinished work is dropped when the block ends, however it ends (:func:`stop_workers`).  A
    worker that dies makes the block's wait for its answer raise :class:`WorkerError`, which says what
    the pool was ``doing``."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(workers, context, owned_by, (os.getpid(),))
    try:
        yield pool
    except BrokenProcessPool:
        raise WorkerError(f"a worker process died while {doing} (is the machine out of memory?)") from None
    finally:
        stop_workers(pool)
        # waited for: the pool's own thread is gone before the interpreter exits, which else may find
        # its pipe half closed ("Exception ignored in: <module 'threading'>...")
        pool.shutdown(wait=True, cancel_futures=True)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the worker processes of ``pool`` now: ``shutdown()`` alone lets each finish the call it
    runs, which may take minutes.  Follow it with ``shutdown(wait=True, cancel_futures=True)``.

    The pools that drop unfinished work are executors rather than ``multiprocessing.Pool``: a worker
    ended by ``Pool.terminate()`` while it hands back a result dies holding the lock of the pool's
    result queue, and the pool's task thread then waits for that lock for ever (the generator's runs
    hung so at their time limit, when every running try returns at once), and a worker that dies (the
    out-of-memory killer) leaves a ``Pool`` waiting for its answer for ever.  An executor's own thread
    notices a worker gone by its process: the waits raise ``BrokenProcessPool``, and it shuts down."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, AttributeError):
            process.terminate()


__all__ = [
    "ORPHANED",
    "POLL_RESULTS",
    "awaited",
    "context",
    "die_with_parent",
    "interrupt_as_flag",
    "may_start_processes",
    "owned_by",
    "owned_pool",
    "stop_workers",
    "wait_for_end",
    "watch",
]
