"""Helpers for tests that watch processes: a pipe that holds a writer, the processes of a session."""

from __future__ import annotations

import contextlib
import os
import select
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


def read_to_end(fd: int, seconds: float) -> bytes:
    """Everything left in a pipe up to its end (every writer gone); fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    chunks = []
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the pipe is still held open by a writer"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a zombie holds nothing: it is left out)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
                found.append(int(stat.parent.name))
    return found
