"""How closely every command honours ``--time-limit``: wall-clock time of whole command lines that the
limit stops (a search on a reachable set of millions; a 12x12 generator that cannot finish), against
the limit.  The baseline, measured in the same run for each command, is the same command line on a
board it answers at once (one try of a small generator): its start-up and its output, the part of the
wall time no limit can cut.

    .venv/bin/python bench/time_limits.py [--limits 2 10] [--repeat 3] [--only LABEL ...]

Prints the median wall time of ``--repeat`` runs, the overshoot past the limit, and the overshoot once
the start-up is taken off (the target is 10% at most).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIG = "B.C.D.../B.C.D.../AA....x./......../.E..F.../.E..F..G/HH.....G/..II.JJ."

SMALL = "AA...B/.....B/....../....../....../......"
GENERATE = ["generate", "--count", "100", "--seed", "7", "-q"]
QUICK = ["generate", "--size", "6x6", "--min-moves", "1", "--max-tries", "1", "--seed", "7", "-q"]
BOUNDS = ["--max-states", "1e12", "--max-memory", "8000"]
#: 16x16, 60 vehicles: the frontier passes cannot hold it, and the portfolio waits for its workers
FULL16 = str(ROOT / "tests" / "data" / "full16.txt")
#: label: (the command the limit stops, the same command answered at once)
COMMANDS = {
    "solve (portfolio)": (["solve", BIG, *BOUNDS], ["solve", SMALL, *BOUNDS]),
    "solve bfs": (["solve", BIG, "--engine", "bfs", *BOUNDS], ["solve", SMALL, "--engine", "bfs", *BOUNDS]),
    "solve astar": (["solve", BIG, "--engine", "astar", *BOUNDS], ["solve", SMALL, "--engine", "astar"]),
    "solve --timed": (["solve", BIG, "--timed", *BOUNDS], ["solve", SMALL, "--timed", *BOUNDS]),
    "solve --hands": (["solve", BIG, "--hands", "3,5", *BOUNDS], ["solve", SMALL, "--hands", "3,5"]),
    "solve random": (["solve", BIG, "--engine", "random", *BOUNDS], ["solve", SMALL, "--engine", "random"]),
    "analyze": (["analyze", BIG, *BOUNDS], ["analyze", SMALL, *BOUNDS]),
    "solve (portfolio) full16": (["solve", FULL16, "--max-memory", "300"], ["solve", SMALL]),
    "harden": (["harden", "large:17"], ["harden", SMALL, "--max-tries", "1"]),
    "generate 12x12, 1 job": ([*GENERATE, "--size", "12x12"], QUICK),
    "generate 12x12, 2 jobs": ([*GENERATE, "--size", "12x12", "--jobs", "2"], [*QUICK, "--jobs", "2"]),
}


def wall(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rushhour", *argv],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[2.0, 10.0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="+", default=None, help="the labels of the commands to run")
    args = parser.parse_args()
    commands = COMMANDS if args.only is None else {label: COMMANDS[label] for label in args.only}
    startup = {
        label: statistics.median(wall(quick) for _ in range(args.repeat))
        for label, (_, quick) in commands.items()
    }
    print(f"median of {args.repeat} runs; the machine may be shared (compare the columns of one run)")
    print(
        "| command | limit | wall (median) | over the limit | start-up (baseline) "
        "| over, start-up taken off |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    worst = 0.0
    for limit in args.limits:
        for label, (argv, _) in commands.items():
            runs = [wall([*argv, "--time-limit", f"{limit:g}"]) for _ in range(args.repeat)]
            median = statistics.median(runs)
            net = (median - startup[label]) / limit - 1
            worst = max(worst, net)
            print(
                f"| {label} | {limit:g} s | {median:.2f} s | {median / limit - 1:+.0%} | "
                f"{startup[label]:.2f} s | {net:+.0%} |"
            )
    print(f"worst overshoot with the start-up taken off: {worst:+.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
