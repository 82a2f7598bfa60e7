"""What showing a long search's progress costs: the compiled searches with a progress callback against
the same searches without one, in the same run.

The compiled analysis (``analyze``), breadth-first search (``solve --engine bfs`` on a wrap-around
board, which the frontier search does not serve) and frontier passes (``solve --engine bfs`` on a
12x12 board) call back between their batches when they are given a callback; without one they make
no call.  Each case runs ``--repeat`` times each way, alternating; the answers of the two ways are
compared (the same cluster size and distances, the same solution length or the same stop), and the
medians, their ratio (with / without) and the records the callback got (one each half second) are
printed, with the process's peak memory.
Run from the repository root:

    .venv/bin/python bench/progress.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rushhour.board import Board
from rushhour.errors import LimitReachedError
from rushhour.formats import read_file
from rushhour.levels import resolve_board
from rushhour.search import analyze, solve
from rushhour.search.watch import SearchProgress

ROOT = Path(__file__).resolve().parent.parent



def _analysis(board: Board, max_states: int | None = None) -> Callable[[Any], object]:
    def run(progress: Any) -> object:
        try:
            a = analyze(board, max_states=max_states, progress=progress)
        except LimitReachedError as stop:
            return "stopped", stop.explored
        return a.cluster_size, a.histogram

    return run


def _bfs(board: Board, max_states: int | None = None) -> Callable[[Any], object]:
    def run(progress: Any) -> object:
        try:
            return solve(board, engine="bfs", max_states=max_states, progress=progress).length
        except LimitReachedError as stop:
            return "stopped", stop.lower_bound

    return run


def cases() -> list[tuple[str, Callable[[Any], object]]]:
    data = ROOT / "tests" / "data"
    open12 = read_file(str(data / "open12.txt"))[0].board
    crowd12 = read_file(str(data / "crowd12_long.txt"))[0].board
    wrapped = read_file(str(data / "wrap8_loose.txt"))[0].board  # the compiled bfs serves it
    return [
        ("analyze large:17 (9x9, 544,763 positions)", _analysis(resolve_board("large:17").board)),
        ("analyze open12-02 (12x12), to 8,000,000 positions", _analysis(open12, 8_000_000)),
        ("bfs, compiled: 8x8 wrap-around, to 4,000,000 positions", _bfs(wrapped, 4_000_000)),
        ("bfs, frontier passes: crowd12-04 (12x12), to 8,000,000", _bfs(crowd12, 8_000_000)),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each case each way")
    args = ap.parse_args()
    print(f"{'case':55s} {'without':>10s} {'with':>10s} {'ratio':>7s} {'records':>8s}")
    for name, run in cases():
        without: list[float] = []
        with_: list[float] = []
        records: list[SearchProgress] = []
        answers = set()
        for _ in range(args.repeat):
            for shown in (False, True):
                seen: list[SearchProgress] = []
                began = time.perf_counter()
                answer = run(seen.append if shown else None)
                (with_ if shown else without).append(time.perf_counter() - began)
                answers.add(repr(answer))
                if shown:
                    records = seen
        if len(answers) != 1:
            print(f"{name}: the answers differ: {sorted(answers)}")
            return 1
        a, b = statistics.median(without), statistics.median(with_)
        print(f"{name:55s} {a * 1000:8.1f}ms {b * 1000:8.1f}ms {b / a:7.3f} {len(records):8d}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:,.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
