"""Generator throughput: puzzles per minute at 15+, 25+ and 30+ moves on 6x6 and 20+ on 9x9.

Each scenario runs ``--repeats`` times (seeds 1, 2, ...) for ``--seconds`` seconds each with ``--jobs``
worker processes, and reports the median rate.  The baseline, measured in the same run, is the same
generator without its sampling: each try rewinds its random bag once and keeps the hardest start only if
it is long enough (no changes of vehicles).  Run from the repository root:

    .venv/bin/python bench/generate.py [--seconds 60] [--repeats 3] [--jobs 2] [--only 6x6-25]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass

import rushhour.generator as gen
from rushhour.generator import Generator, Settings


@dataclass(frozen=True)
class Scenario:
    label: str
    settings: Settings


SCENARIOS = (
    Scenario("6x6-15", Settings(min_moves=15)),
    Scenario("6x6-25", Settings(min_moves=25)),
    Scenario("6x6-30", Settings(min_moves=30)),
    Scenario("9x9-20", Settings(width=9, height=9, min_moves=20)),
    Scenario("9x9-20-walls", Settings(width=9, height=9, min_moves=20, vehicles=(14, 32), walls=(8, 8))),
)


def rate(settings: Settings, seconds: float, jobs: int, changes: int) -> tuple[float, int, int]:
    """Puzzles a minute, puzzles made and tries in one timed run."""
    saved = gen.MAX_CHANGES
    gen.MAX_CHANGES = changes  # worker processes are forked after this, so they see it too
    try:
        g = Generator(settings)
        began = time.perf_counter()
        made = sum(1 for _ in g.run(10_000, jobs=jobs, time_limit=seconds))
        spent = time.perf_counter() - began
    finally:
        gen.MAX_CHANGES = saved
    return made / spent * 60, made, g.stats.tries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=3, help="runs per scenario (median reported)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--only", action="append", help="run only these scenarios (by label)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the random-bag baseline")
    args = ap.parse_args()
    chosen = [s for s in SCENARIOS if not args.only or s.label in args.only]
    print(f"{args.repeats} runs of {args.seconds:g} s per scenario, {args.jobs} jobs; puzzles a minute")
    print(f"{'scenario':14} {'median':>8} {'runs':>24} {'made':>6} {'tries':>7} {'baseline':>9} {'ratio':>7}")
    for sc in chosen:
        runs, made, tries, base_runs = [], 0, 0, []
        for k in range(args.repeats):
            s = Settings(**{**sc.settings.__dict__, "seed": k + 1})
            r, m, t = rate(s, args.seconds, args.jobs, gen.MAX_CHANGES)
            runs.append(r)
            made += m
            tries += t
            if not args.no_baseline:
                base_runs.append(rate(s, args.seconds, args.jobs, 0)[0])
            sys.stdout.flush()
        med = statistics.median(runs)
        base = statistics.median(base_runs) if base_runs else float("nan")
        if not base_runs:
            ratio = "      -"
        else:
            ratio = f"{med / base:7.1f}" if base > 0 else ("    inf" if med > 0 else "      -")
        shown = " ".join(f"{r:.1f}" for r in runs)
        print(f"{sc.label:14} {med:8.1f} {shown:>24} {made:6} {tries:7} {base:9.2f} {ratio}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
