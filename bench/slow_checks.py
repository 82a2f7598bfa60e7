"""Run the long cross-checks that CI leaves out (tests marked ``slow``) and report how long they took.

    python bench/slow_checks.py [--sample FILE] [extra pytest arguments]

They compare the SAT oracle with the reference move generator on over 30,000 positions of generated
boards from 3x3 to 16x16, and the reference generator's reachable sets and distances with the first
2,000 puzzles of the reference sample (``--sample FILE``, else ``$RUSHHOUR_SAMPLE``, else
../shared/data/fogleman_sample.txt beside the checkout); and the others marked ``slow`` (a larger 6x6
shard against an independent search, enumerations run many times).  A check that cannot run says why
in the summary (``-rs``): a skipped check is not a passed one.  docs/testing.md records the last run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    args = sys.argv[1:]
    env = dict(os.environ)
    if args[:1] == ["--sample"] and len(args) > 1:
        env["RUSHHOUR_SAMPLE"] = str(Path(args[1]).resolve())
        args = args[2:]
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "slow", "-rs", "--durations=0", *args], cwd=ROOT, env=env
    )
    print(f"slow checks: exit status {result.returncode} after {time.perf_counter() - start:.1f} s")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
