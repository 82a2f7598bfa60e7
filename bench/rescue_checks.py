"""The generator's rescue (method anneal, step 5 of docs/generator.md) on tries that it drops because a
vehicle check ran past its limit: each such check asked again with a far larger one, to learn what the
limit hides and what finishing the rescue would cost.

    python bench/rescue_checks.py [--size 12] [--min-moves 30] [--seed 1] [--tries 9 34]
                                  [--states 40000000] [--seconds 300] [--jobs 2]

Each try of ``--tries`` (of ``--seed``, ``--size`` boards, ``--min-moves``) runs as the generator runs
it, but every vehicle check of a rescue that stops at its limit is asked again with ``--states``
positions and ``--seconds`` of its own, and the rescue goes on with that answer.  Printed: each rescue
(the puzzle's length, its vehicles, those its solution leaves still), each check (its answer and
seconds; for a check at its limit, the answer and seconds of the larger one), how the rescue ended (the
vehicles left, and whether their reachable set fits the rescue's analysis), and per try the CPU seconds
the larger checks added.  The summary counts the checks at their limit by the larger one's answer,
with the median and longest seconds.  One process a try, ``--jobs`` at a time; peak memory of the
largest process at the end.  Run from the repository root.

It measures the generator's own code as it runs (its ``_Try`` methods wrapped, nothing else changed),
so it follows the generator as it is; the figures and what they mean are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time
from typing import Any

from rushhour import generator

Row = tuple[str, Any]


def one_try(job: tuple[generator.Settings, int, int, float]) -> tuple[int, list[Row], float, str]:
    """Try ``number`` with the larger checks; its log, the larger checks' CPU seconds, its reason."""
    settings, number, states, seconds = job
    log: list[Row] = []
    extra = [0.0]
    depth = [0]
    cls = generator._Try
    matters, rescue, without, rewind = cls.matters, cls.rescue, cls.without_useless, cls.rewind

    def checked(self: Any, smaller: Any, length: int, limit: int | None = None) -> bool | None:
        began = time.process_time()
        answer = matters(self, smaller, length, limit)
        spent = time.process_time() - began
        if not depth[0]:
            return answer
        if answer is not None:
            log.append(("check", (answer, spent)))
            return answer
        began = time.process_time()
        answer = generator.shorter_exists(smaller, length, max_states=states, time_limit=seconds)
        again = time.process_time() - began
        extra[0] += again
        log.append(("limit", (spent, answer, again)))
        return answer

    def rescued(self: Any, start: Any, solution: Any, reason: str) -> Any:
        moved = {m.vehicle for m in solution.moves}
        still = len(start.vehicles) - 1 - len(moved)
        log.append(("rescue", (solution.length, len(start.vehicles), still)))
        depth[0] += 1
        try:
            return rescue(self, start, solution, reason)
        finally:
            depth[0] -= 1

    def kept(self: Any, board: Any, solution: Any) -> Any:
        sketch = without(self, board, solution)
        log.append(("left", None if sketch is None else len(sketch.pieces) + 1))
        return sketch

    def rewound(self: Any, sketch: Any, limit: int | None = None) -> Any:
        a = rewind(self, sketch, limit)
        if depth[0]:
            log.append(("rewind", (limit, None if a is None else a.cluster_size)))
        return a

    cls.matters, cls.rescue, cls.without_useless, cls.rewind = checked, rescued, kept, rewound  # type: ignore[method-assign]
    result = generator.attempt(settings, number)
    return number, log, extra[0], result.reason


def show(number: int, log: list[Row], extra: float, reason: str) -> None:
    print(f"try {number}: {reason}; the larger checks took {extra:.1f} s of CPU")
    for kind, value in log:
        if kind == "rescue":
            length, vehicles, still = value
            print(f"  rescue: {length} moves, {vehicles} vehicles, {still} still in its solution")
        elif kind == "check":
            answer, spent = value
            print(f"    check: {'matters' if answer else 'does not matter'} ({spent:.2f} s)")
        elif kind == "limit":
            spent, answer, again = value
            truth = {True: "matters", False: "does not matter", None: "still past the limit"}[answer]
            print(f"    check at its limit after {spent:.2f} s; the larger one: {truth} ({again:.1f} s)")
        elif kind == "left":
            print(f"  vehicles left: {'none (a check past the larger limit)' if value is None else value}")
        elif kind == "rewind":
            limit, size = value
            fits = "past the limit" if size is None else f"{size:,} positions"
            print(f"  their reachable set (limit {limit:,}): {fits}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=12)
    parser.add_argument("--min-moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, nargs="+", default=[9, 34])
    parser.add_argument("--states", type=int, default=40_000_000)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings = generator.Settings(
        width=args.size, height=args.size, min_moves=args.min_moves, seed=args.seed
    ).checked()
    jobs = [(settings, n, args.states, args.seconds) for n in args.tries]
    outcomes: dict[object, list[float]] = {}
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=1) as pool:
        for number, log, extra, reason in pool.imap(one_try, jobs):
            show(number, log, extra, reason)
            for kind, value in log:
                if kind == "limit":
                    outcomes.setdefault(value[1], []).append(value[2])
    print(f"the checks at their limit, asked again ({args.states:,} positions, {args.seconds:g} s):")
    for answer, label in ((False, "does not matter"), (True, "matters"), (None, "still past the limit")):
        times = outcomes.get(answer, [])
        if times:
            print(
                f"  {label}: {len(times)}, median {statistics.median(times):.1f} s, "
                f"longest {max(times):.1f} s"
            )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: {peak:.1f} MiB in the largest try's process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
