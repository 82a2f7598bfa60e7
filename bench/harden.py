"""How far `rushhour harden` takes a board in a fixed time, on 6x6, 9x9 and 12x12 boards.

For each board and each seed, ``rushhour.harden.improvements`` runs for ``--seconds`` (one run a
process, ``--jobs`` at a time).  The baseline, measured in the same run, is the board's own hardest
position (the first report: what the exploration of its reachable set gives without any search); the
figure is the best length reached, its gain over that baseline in moves and as a ratio, the candidate
boards tried a second, and the peak memory of the runs.  Every reported board is verified by harden
itself (solved again from scratch, its solution replayed).  Run from the repository root:

    .venv/bin/python bench/harden.py [--seconds 20] [--seeds 3] [--first-seed 1] [--jobs 2] [--only large:9]

The build before a change: the same script with ``PYTHONPATH`` set to a checkout of it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time

from rushhour.harden import improvements
from rushhour.levels import level

#: 6x6 without and with walls, wrap-around, 9x9, 12x12 with walls (the built-in packs' boards)
BOARDS = ("classic:6", "walls:1", "wrap:1", "large:1", "large:9", "huge:1", "huge:4")


def one(job: tuple[str, int, float]) -> tuple[str, int, int, int, int, float, int]:
    """Board, seed, the start's length, the best length, candidates tried, seconds, peak RSS (KiB)."""
    ref, seed, seconds = job
    name, number = ref.split(":")
    search = improvements(level(name, int(number)).board, time_limit=seconds, seed=seed)
    found = list(search)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # a build before the search counted its candidates (--before) gives the tries of its last report
    tried = getattr(search, "tried", found[-1].tried)
    seconds = getattr(search, "seconds", found[-1].seconds)
    return ref, seed, found[0].hardest.length, found[-1].hardest.length, tried, seconds, peak


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="time a run (default 20)")
    ap.add_argument("--seeds", type=int, default=3, help="runs a board (default 3)")
    ap.add_argument("--first-seed", type=int, default=1, help="the seeds are this one and the next ones")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    ap.add_argument("--only", action="append", help="only this board (repeatable)")
    args = ap.parse_args()
    boards = args.only or list(BOARDS)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = [(ref, seed, args.seconds) for ref in boards for seed in seeds]
    began = time.perf_counter()
    # one fresh process a run, so that each peak is its own run's
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=1) as pool:
        results = pool.map(one, jobs, chunksize=1)
    spent = time.perf_counter() - began
    print(f"{len(jobs)} runs of {args.seconds:g} s, {args.jobs} at a time, in {spent:.0f} s")
    print(
        f"{'board':<11} {'size':>5} {'start':>5}  {'best (by seed)':<18} {'median':>6} {'gain':>5} "
        f"{'ratio':>5} {'boards/s':>8} {'peak MiB':>8}"
    )
    for ref in boards:
        rows = [r for r in results if r[0] == ref]
        name, number = ref.split(":")
        board = level(name, int(number)).board
        start = rows[0][2]
        best = [r[3] for r in rows]
        median = statistics.median(best)
        rate = statistics.median(r[4] / r[5] for r in rows if r[5] > 0)
        peak = max(r[6] for r in rows) / 1024
        size = f"{board.width}x{board.height}"
        print(
            f"{ref:<11} {size:>5} {start:>5}  {', '.join(map(str, best)):<18} "
            f"{median:>6g} {median - start:>+5g} {median / start:>5.2f} {rate:>8.0f} {peak:>8.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
