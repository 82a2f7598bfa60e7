"""Generator throughput: puzzles a minute of the default method (anneal) against the baseline (method
rewind, the generator before anneal) in the same run, and the longest optimum reached on each size.

Rates: each scenario runs ``--repeats`` times (seeds 1, 2, ...) for ``--seconds`` seconds each with
``--jobs`` worker processes and each method, and reports the median rate, the runs, the puzzles made and
the longest optimum among them.

Longest (``--longest SECONDS``): on each size, a ratchet: generate one puzzle of at least M moves (M
from ``SIZES``: 30 on 6x6 and 9x9, 25 on 12x12; round k on seed k), then of at least one move more
than the last one made, until the time is spent; the
last one made is the longest optimum reached (every one verified as the generator verifies them).  A
size stops early at the longest optimum it has (``rushhour.generator.LONGEST_KNOWN``: 51 moves on 6x6).
With ``--kept``, instead: one run at that first M for the whole time, keeping the longest puzzle it
makes.  A try aiming at M finishes the clusters it meets from M moves on, and dropping the vehicles
that do not matter from one can join it to a cluster far harder (docs/benchmarks.md, "a 106-move 9x9
puzzle"), which a try aiming higher never finishes; which of the two reaches further in a given time
is the seeds' luck (the same page: 79 moves by the ratchet, 74 kept, on 9x9 in ten minutes).

The machine's load (``os.getloadavg``) is printed beside the figures, and the peak memory of this
process and of the largest worker at the end.  Run from the repository root:

    python bench/generate.py [--seconds 60] [--repeats 3] [--jobs 2] [--only 9x9-30] [--methods anneal]
                             [--longest 600] [--kept] [--no-rates] [--size 9]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from dataclasses import dataclass, replace

from rushhour.generator import LONGEST_KNOWN, Generator, Settings


@dataclass(frozen=True)
class Scenario:
    label: str
    settings: Settings


SCENARIOS = (
    Scenario("6x6-35", Settings(min_moves=35)),
    Scenario("9x9-30", Settings(width=9, height=9, min_moves=30)),
    Scenario("12x12-30", Settings(width=12, height=12, min_moves=30)),
    # open boards larger than 9x9 at short targets: the solver climb (method anneal; the baseline rewind
    # does not climb)
    Scenario("10x10-10", Settings(width=10, height=10, min_moves=10)),
    Scenario("10x10-15", Settings(width=10, height=10, min_moves=15)),
    Scenario("12x12-10", Settings(width=12, height=12, min_moves=10)),
    Scenario("12x12-15", Settings(width=12, height=12, min_moves=15)),
    Scenario("9x9-20-walls", Settings(width=9, height=9, min_moves=20, walls=(4, 4))),
    Scenario("6x6-20-wrap", Settings(min_moves=20, wrap=True)),
)
SIZES = ((6, 30), (9, 30), (12, 25))


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def rate(settings: Settings, seconds: float, jobs: int) -> tuple[float, list[int]]:
    """Puzzles a minute and the lengths made in one timed run."""
    g = Generator(settings)
    began = time.perf_counter()
    lengths = [p.length for p in g.run(10_000, jobs=jobs, time_limit=seconds)]
    return len(lengths) / (time.perf_counter() - began) * 60, lengths


def rates(args: argparse.Namespace) -> None:
    chosen = [s for s in SCENARIOS if not args.only or s.label in args.only]
    print(f"{args.repeats} runs of {args.seconds:g} s per scenario and method, {args.jobs} jobs")
    print(f"{'scenario':13} {'method':7} {'a minute':>8} {'runs':>20} {'made':>5} {'longest':>8}  load")
    for sc in chosen:
        for method in args.methods or ("anneal", "rewind"):
            runs, made = [], []
            for k in range(args.repeats):
                s = replace(sc.settings, seed=k + 1, method=method)
                r, lengths = rate(s, args.seconds, args.jobs)
                runs.append(r)
                made += lengths
            shown = " ".join(f"{r:.1f}" for r in runs)
            top = max(made, default=0)
            median = statistics.median(runs)
            print(f"{sc.label:13} {method:7} {median:8.1f} {shown:>20} {len(made):5} {top:8}  {load()}")


def longest(args: argparse.Namespace) -> None:
    how = "one run of --min-moves M, seed 1" if args.kept else "a ratchet"
    print(f"longest optimum in {args.longest:g} s per size, {args.jobs} jobs (method anneal, {how})")
    for size, start in SIZES:
        if args.size and size not in args.size:
            continue
        if args.kept:
            kept(args, size, start)
            continue
        began, floor, best, rounds = time.perf_counter(), start, 0, 0
        while (left := args.longest - (time.perf_counter() - began)) > 1:
            rounds += 1
            if floor > LONGEST_KNOWN.get((size, size), floor):
                print(f"  {size}x{size}: no longer puzzle exists (the complete enumeration)", flush=True)
                break
            s = Settings(width=size, height=size, min_moves=floor, seed=rounds)
            made = next(Generator(s).run(1, jobs=args.jobs, time_limit=left), None)
            if made is not None:
                best, floor = made.length, made.length + 1
                spent = time.perf_counter() - began
                print(f"  {size}x{size}: {made.length} moves after {spent:.0f} s", flush=True)
        print(f"{size}x{size}: longest {best} moves in {args.longest:g} s  {load()}", flush=True)


def kept(args: argparse.Namespace, size: int, start: int) -> None:
    began, best, made = time.perf_counter(), 0, 0
    known = LONGEST_KNOWN.get((size, size))
    g = Generator(Settings(width=size, height=size, min_moves=start, seed=1))
    for p in g.run(1_000_000, jobs=args.jobs, time_limit=args.longest):
        made += 1
        if p.length > best:
            best = p.length
            spent = time.perf_counter() - began
            print(f"  {size}x{size}: {best} moves after {spent:.0f} s (puzzle {made})", flush=True)
            if best == known:
                print(f"  {size}x{size}: no longer puzzle exists (the complete enumeration)", flush=True)
                break
    summary = f"{args.longest:g} s, {made} puzzle{'' if made == 1 else 's'} of {start}+"
    print(f"{size}x{size}: longest {best} moves in {summary}  {load()}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=3, help="runs per scenario and method (median reported)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--only", action="append", help="run only these scenarios (by label)")
    ap.add_argument(
        "--methods",
        action="append",
        choices=("anneal", "rewind"),
        help="run only these methods (default both: anneal and the baseline rewind)",
    )
    ap.add_argument("--longest", type=float, default=0.0, metavar="S", help="longest optimum in S s per size")
    ap.add_argument("--kept", action="store_true", help="--longest: one run at the first M, its longest kept")
    ap.add_argument("--no-rates", action="store_true", help="skip the rates")
    ap.add_argument("--size", type=int, action="append", help="--longest on these sizes only (6, 9, 12)")
    args = ap.parse_args()
    if args.kept and args.longest <= 0:
        ap.error("--kept measures the longest optimum: give it --longest S")
    print(load())
    if not args.no_rates:
        rates(args)
    if args.longest > 0:
        longest(args)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: {own:.1f} MiB in this process, {workers:.1f} MiB in the largest worker")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
