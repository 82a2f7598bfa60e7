"""One part searched: with the compiled cluster search (rushhour/search/_clusters.c) when it was built
from these sources and is enabled (:mod:`rushhour.search.native`), else with the Python reference."""

from __future__ import annotations

from rushhour.database.definitions import (
    STATS_FIELDS,
    EnumerateError,
    Job,
    Part,
    PartResult,
    PartStats,
    check_part,
    lane_choices,
)
from rushhour.database.lines import line_order
from rushhour.database.reference import python_part
from rushhour.search.native import compiled, native_enabled

# the compiled cluster search, when the compiled module was built with it from this version
_clusters = getattr(compiled, "clusters", None)
if _clusters is not None and tuple(getattr(compiled, "ENUM_STATS_FIELDS", ())) != STATS_FIELDS:
    _clusters = None


def run_part(job: Job, part: Part, native: bool | None = None) -> PartResult:
    """The database lines of one part (sorted, see :func:`line_order`) and what it searched, with the
    compiled search when built (and ``native`` is not False), else with :func:`python_part`."""
    check_part(job, part)
    if native is None:
        native = native_enabled()
    if native and _clusters is not None:
        rows, cols = lane_choices(job, part)
        try:
            text, stats = _clusters(job.size, job.size, job.goal_row, part.walls, rows, cols, job.distances)
        except ValueError as err:
            reason = str(err).removeprefix("clusters: ")
            raise EnumerateError(f"this database cannot be written: {reason}") from None
        except MemoryError:
            raise EnumerateError("out of memory while searching a part") from None
        lines = text.splitlines()
        result = PartResult(lines, PartStats(*stats))
    else:
        result = python_part(job, part)
    result.lines.sort(key=line_order)
    return result

