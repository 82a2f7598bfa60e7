"""How long ``rushhour solve`` takes to lay out a long solution, against the former layout in the same run.

    .venv/bin/python bench/cli_print.py [--repeat N]

The solutions are random walks (the ``random`` engine, steps and moves metrics) of thousands of moves
on built-in levels.  The baseline is the former layout, kept below: it measured the widest entry again
inside the join of every line, so its time grew with the square of the length.  For the moves metric
both layouts must print exactly the same text (checked here); in the steps metric the new one joins a
vehicle's consecutive steps.  Prints the median of N runs of each, their ratio, and the peak memory
allocated by one run of each (tracemalloc, outside the timings).
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

from rushhour.board import Move
from rushhour.cli.solve import solution_lines
from rushhour.levels import resolve_board
from rushhour.search import solve

CASES = (("classic:12", 1, "moves"), ("classic:12", 1, "steps"), ("classic:8", 2, "steps"))


def former_lines(moves: Sequence[Move]) -> str:
    """The layout before: the widest entry measured again for every entry of every line."""
    width = len(str(len(moves)))
    numbered = [f"{k:>{width}}. {m}" for k, m in enumerate(moves, 1)]
    per_line = max(1, 78 // (max(len(s) for s in numbered) + 2))
    return "\n".join(
        "  " + "  ".join(f"{s:<{len(max(numbered, key=len))}}" for s in numbered[lo : lo + per_line])
        for lo in range(0, len(numbered), per_line)
    )


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def peak_bytes(run: Callable[[], object]) -> int:
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'board':<11} {'metric':<6} {'moves':>6} {'former s':>9} {'now s':>8} {'ratio':>7} "
          f"{'former peak':>12} {'now peak':>9}")
    for name, seed, metric in CASES:
        board = resolve_board(name).board
        moves = solve(board, engine="random", seed=seed, metric=metric).moves
        if metric == "moves":  # the same text, but for the spaces that ended lines
            former_text = [line.rstrip() for line in former_lines(moves).splitlines()]
            assert former_text == solution_lines(moves, metric).splitlines(), "the layouts differ"
        former = median_seconds(lambda m=moves: former_lines(m), args.repeat)  # type: ignore[misc]
        now = median_seconds(lambda m=moves, t=metric: solution_lines(m, t), args.repeat)  # type: ignore[misc]
        former_peak = peak_bytes(lambda m=moves: former_lines(m))  # type: ignore[misc]
        now_peak = peak_bytes(lambda m=moves, t=metric: solution_lines(m, t))  # type: ignore[misc]
        print(
            f"{name:<11} {metric:<6} {len(moves):>6} {former:>9.4f} {now:>8.4f} {former / now:>6.0f}x "
            f"{former_peak / 1e6:>10.1f}MB {now_peak / 1e6:>7.1f}MB"
        )


if __name__ == "__main__":
    main()
