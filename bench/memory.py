"""Memory per position of every search, measured: each search runs in a process of its own up to
``--states`` positions on a board with a reachable set of millions (a wall before the exit, so no
search ends early), and the process's peak resident size less its size before the search is divided
by the positions.  Also the stop at ``--max-memory``: how far past its budget a search got.

    .venv/bin/python bench/memory.py [--states 200000] [--repeat 3] [--budget 64]

The baseline, measured in the same run, is the breadth-first search (compiled when built); ratios are
bytes per position against it.  Figures are medians of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARD = "B.C.D.../B.C.D.../AA....x./......../.E..F.../.E..F..G/HH.....G/..II.JJ."

CHILD = """
import json, resource, sys, time
from rushhour.errors import LimitReachedError
from rushhour.formats import parse_text
from rushhour.search import solve
from rushhour.search.timed import TimeModel, schedule
engine, states, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
board = parse_text(sys.argv[4].replace("/", "\\n"))[0].board
memory = None if budget == 0 else budget * 1024 * 1024
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
began = time.perf_counter()
message = ""
try:
    if engine == "timed":
        schedule(board, TimeModel.one_hand(), max_states=states, max_memory=memory)
    elif engine == "hands":
        schedule(board, TimeModel.two_hands("3,5"), max_states=states, max_memory=memory)
    else:
        solve(board, engine=engine, max_states=states, max_memory=memory)
except LimitReachedError as err:
    message = str(err)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
seconds = time.perf_counter() - began
print(json.dumps({"grown": (peak - before) * 1024, "seconds": seconds, "message": message}))
"""


def child(engine: str, states: int, budget: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, engine, str(states), str(budget), BOARD],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=int, default=64, help="MB for the --max-memory stops")
    args = parser.parse_args()
    print(f"{args.states:,} positions each, median of {args.repeat} runs; board {BOARD}")
    print("| search | bytes a position | ratio to bfs | seconds |")
    print("|---|---:|---:|---:|")
    base = None
    for engine in ("bfs", "astar", "timed", "hands"):
        runs = [child(engine, args.states, 0) for _ in range(args.repeat)]
        per = statistics.median(float(r["grown"]) / args.states for r in runs)  # type: ignore[arg-type]
        secs = statistics.median(float(r["seconds"]) for r in runs)  # type: ignore[arg-type]
        base = base or per
        print(f"| {engine} | {per:,.0f} | x{per / base:.1f} | {secs:.1f} |")
    print(f"\nstopped by --max-memory {args.budget} (states unbounded): peak growth against the budget")
    print("| search | grown (MB) | over budget | message |")
    print("|---|---:|---:|---|")
    for engine in ("bfs", "astar", "timed", "hands"):
        r = child(engine, 10**12, args.budget)
        grown = float(r["grown"]) / 2**20  # type: ignore[arg-type]
        print(f"| {engine} | {grown:.0f} | {grown / args.budget - 1:+.0%} | {str(r['message'])[:70]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
