"""Writing files so that a reader never sees half of one: a temporary file beside the target, flushed
to disk, then renamed over it.  A failed write leaves the old file as it was."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from rushhour.errors import RushHourError


def write_text_atomic(
    path: str | Path,
    text: str,
    *,
    what: str = "",
    error: type[RushHourError] = RushHourError,
) -> None:
    """Write ``text`` to ``path`` atomically; on failure raise ``error`` saying
    ``cannot write {what}{path}: {reason}``."""
    target = Path(path)
    tmp_name: str | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
        tmp_name = None
    except OSError as err:
        raise error(f"cannot write {what}{path}: {err.strerror or err}") from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
