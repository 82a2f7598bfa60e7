"""How much memory a search has taken: the process's resident memory, measured, not estimated.

Every search checks it with its other limits (see :class:`rushhour.search.bfs.Limits`): a search may
grow the process by at most ``max_memory`` bytes (:data:`DEFAULT_MAX_MEMORY` unless asked otherwise:
half of the memory the system had available, ``MemAvailable`` of ``/proc/meminfo``, when rushhour was
imported; 2 GiB where that cannot be read) and stops like at ``--max-states``.  On Linux the figure
is read from ``/proc/self/statm`` (about 10 microseconds); elsewhere from ``resource.getrusage`` (the
peak, which only grows); where neither exists, memory is not bounded.
"""

from __future__ import annotations

import os

MEGABYTE = 1024**2
FALLBACK_MAX_MEMORY = 2 * 1024**3  # where the available memory cannot be read


def available_bytes(meminfo: str = "/proc/meminfo") -> int | None:
    """The memory the system can give without swapping (``MemAvailable``), None where unknown."""
    try:
        with open(meminfo, "rb") as handle:
            for line in handle:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def default_max_memory(meminfo: str = "/proc/meminfo") -> int:
    """Half of the memory available when rushhour starts (:data:`FALLBACK_MAX_MEMORY` where that is
    unknown): a search stops before it pushes the machine into swap, and leaves room for the rest."""
    found = available_bytes(meminfo)
    return FALLBACK_MAX_MEMORY if not found else max(MEGABYTE, found // 2)


#: bytes a search may add to the process unless told otherwise: half of the available memory
DEFAULT_MAX_MEMORY = default_max_memory()

try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # pragma: no cover - not a POSIX system
    _PAGE = 4096


def _statm() -> int | None:
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _rusage() -> int | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if os.uname().sysname == "Darwin" else peak * 1024


def resident_bytes() -> int | None:
    """The process's resident memory in bytes (None where it cannot be measured)."""
    found = _statm()
    return found if found is not None else _rusage()


class MemoryBudget:
    """At most ``limit`` bytes more than the process held when the budget was made."""

    __slots__ = ("base", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.base = resident_bytes()

    def used(self) -> int:
        """Bytes taken since the start (0 where memory cannot be measured)."""
        now = resident_bytes()
        return 0 if now is None or self.base is None else max(0, now - self.base)

    def exceeded(self) -> bool:
        return self.used() > self.limit

    def describe(self) -> str:
        """The limit in megabytes, as people write them; below 1 MB in kilobytes or bytes (a quarter
        of ``--max-memory 1`` is ``256 KB``, not ``0 MB``).

        >>> [MemoryBudget(n).describe() for n in (3 * MEGABYTE, MEGABYTE // 4, 100)]
        ['3 MB', '256 KB', '100 bytes']
        """
        if self.limit >= MEGABYTE:
            return f"{self.limit / MEGABYTE:,.0f} MB"
        return f"{self.limit / 1024:,.0f} KB" if self.limit >= 1024 else f"{self.limit} bytes"


__all__ = [
    "DEFAULT_MAX_MEMORY",
    "MEGABYTE",
    "MemoryBudget",
    "available_bytes",
    "default_max_memory",
    "resident_bytes",
]
