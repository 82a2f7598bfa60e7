"""A database built: its parts run (:mod:`rushhour.database.parallel`), saved as they finish
(:mod:`rushhour.database.store`) and merged in database order."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from rushhour.database import parallel
from rushhour.database.definitions import EnumerateError, Job, Part, PartResult, PartStats, check_part, parts
from rushhour.database.lines import merge
from rushhour.database.store import PartStore
from rushhour.errors import ParameterError, expect, expect_callable, expect_whole
from rushhour.files import check_path


class BuildProgress(NamedTuple):
    """Where a run stands: parts done (of ``parts``), what they searched, the seconds spent."""

    done: int
    parts: int
    resumed: int
    stats: PartStats
    seconds: float


def total(results: Sequence[PartStats]) -> PartStats:
    return (
        PartStats(*(sum(column) for column in zip(*results, strict=True)))
        if results
        else PartStats(0, 0, 0, 0)
    )


def build(
    job: Job,
    *,
    out: str | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    native: bool | None = None,
    only: Sequence[Part] | None = None,
    report: Callable[[BuildProgress], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> tuple[list[str], PartStats]:
    """The database of ``job`` (or of the parts ``only``): its lines in database order and what was
    searched.  With ``out``, parts are saved there as they finish, a run resumes from the parts found
    there, and the database is written to ``out/database.txt``.  ``note`` hears what a person waiting
    for the run should know (a Dask scheduler without workers)."""
    expect(job, Job, "job", "a Job")
    expect_whole(workers, "workers")
    expect(scheduler, (str, type(None)), "scheduler", "a Dask scheduler's address (a str), 'local' or None")
    expect_callable(report, "report")
    expect_callable(note, "note")
    if workers < 1:
        raise ParameterError(f"{{workers}} must be at least 1, not {workers}")
    if out is not None:  # "" would be the current directory, by accident
        expect(out, str, "out", "a directory's path (a str) or None")
        check_path(out, name="out", error=EnumerateError)
    todo_parts = list(only) if only is not None else parts(job)
    for part in todo_parts:  # before any part runs (in a worker, or on a cluster)
        check_part(job, part)
    store = PartStore(out, job, len(todo_parts)) if out is not None else None
    try:
        return _build(job, todo_parts, store, workers, scheduler, native, report, note)
    finally:
        if store is not None:
            store.close()


def _build(
    job: Job,
    todo_parts: list[Part],
    store: PartStore | None,
    workers: int,
    scheduler: str | None,
    native: bool | None,
    report: Callable[[BuildProgress], None] | None,
    note: Callable[[str], None] | None,
) -> tuple[list[str], PartStats]:
    results: dict[int, PartResult] = store.load() if store is not None else {}
    resumed = len(results)
    started = time.perf_counter()
    fresh = total([])  # what the parts run now searched, kept as they finish

    def on_result(index: int, result: PartResult) -> None:
        nonlocal fresh
        if store is not None:
            store.save(index, result)
        results[index] = result
        fresh = total([fresh, result.stats])
        if report is not None:
            seconds = time.perf_counter() - started
            report(BuildProgress(len(results), len(todo_parts), resumed, fresh, seconds))

    todo = [(i, p) for i, p in enumerate(todo_parts) if i not in results]
    try:
        parallel.run(job, todo, on_result, workers=workers, scheduler=scheduler, native=native, note=note)
    except EnumerateError as err:
        if store is None or not results:  # nothing saved to resume from (an address that is wrong)
            raise
        saved = f"the parts finished are saved in {store.root}: run the same command to resume"
        raise EnumerateError(f"{err}; {saved}") from None
    lines = merge([results[i].lines for i in sorted(results)])
    if store is not None:
        try:
            store.finish(lines)
        except EnumerateError as err:  # a disk that filled up at the last file: the parts stay
            raise EnumerateError(
                f"{err}; every part is saved in {store.root}: run the same command to write it again"
            ) from None
    return lines, total([r.stats for r in results.values()])
