"""Run the long cross-checks that CI leaves out (tests marked ``slow``) and report how long they took.

    python bench/slow_checks.py [extra pytest arguments]

They compare the SAT oracle with the reference move generator on over 30,000 positions of generated
boards from 3x3 to 16x16, and the reference generator's reachable sets and distances with the first
2,000 puzzles of the reference sample (read from ../shared/data beside the checkout when it is there).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "slow", "--durations=0", *sys.argv[1:]], cwd=ROOT
    )
    print(f"slow checks: exit status {result.returncode} after {time.perf_counter() - start:.1f} s")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
