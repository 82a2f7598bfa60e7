"""Helpers for tests that watch processes: a pipe that holds a writer, the processes of a session, a
command stopped by Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from pathlib import Path


def full_pipe() -> tuple[int, int]:
    """A pipe whose buffer is already full: a process given its write end as stdout or stderr stops at
    its first write there (once its own buffer is flushed), for as long as nobody reads."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    with contextlib.suppress(BlockingIOError):
        while True:
            os.write(write_end, b"x" * 4096)
    os.set_blocking(write_end, True)  # the flag belongs to the open file, which the child shares
    return read_end, write_end


def read_to_end(fds: list[int], seconds: float) -> list[bytes]:
    """Everything left in pipes up to their end (every writer gone), read side by side as a caller's
    ``communicate`` does (a writer may wait on one pipe before closing the other); fails after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    chunks: dict[int, list[bytes]] = {fd: [] for fd in fds}
    open_fds = list(fds)
    while open_fds:
        left = deadline - time.monotonic()
        assert left > 0, "a pipe is still held open by a writer"
        ready, _, _ = select.select(open_fds, [], [], left)
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if chunk:
                chunks[fd].append(chunk)
            else:
                open_fds.remove(fd)
    return [b"".join(chunks[fd]) for fd in fds]


def session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a zombie holds nothing: it is left out)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
                found.append(int(stat.parent.name))
    return found


def ctrl_c(child: subprocess.Popen[str], seconds: float = 30) -> tuple[str, str]:
    """Send SIGINT to ``child`` (started with :func:`tests.terminal.default_signals`) and return its
    stdout and stderr once it ends; when it does not end within ``seconds``, kill it (its workers end
    with it) so that a failing test leaves nothing running beside the rest of the suite, and fail."""
    child.send_signal(signal.SIGINT)
    try:
        return child.communicate(timeout=seconds)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
