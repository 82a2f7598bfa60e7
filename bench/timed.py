"""Timed play on the hardest puzzles of the sample database: optimal moves and steps, the one-hand
timed optimum, and the two-hand optimum under both handover models, with run times.

    .venv/bin/python bench/timed.py [--repeat 3] [--time-limit 600] [--hands 3,5]

One-hand figures are the median of ``--repeat`` runs (wall-clock seconds); two-hand searches run
once.  The baseline, measured in the same run, is the one-hand uniform-cost search in the steps metric
with unit durations (the fewest steps); ratios are run times against it.  A two-hand search that
reaches the time limit prints the best lower bound it proved instead of an optimum.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rushhour.errors import LimitReachedError
from rushhour.formats import fogleman
from rushhour.search.timed import HandsSearch, Schedule, TimeModel, format_seconds, parse_hands, solve_timed

# The hardest lines of the reference sample (MOVES BOARD CLUSTER, the database's own figures), and the
# configuration known as the hardest standard one (49 moves, 24,132 positions).
PUZZLES = [
    "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332",
    "55 ooBBMxDDDKMoAAJKoNooJEENIFFLooIGGLox 9712",
    "54 oxCCMoDDDKMoAAJKooooJLEEIFFLoNIGGoxN 6355",
    "53 ooBBoxDDDKooAAJKoMooJEEMIFFLooIGGLox 4102",
    "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780",
    "49 BBBKLMHCCKLMHoAALMDDJooooIJEEooIFFGG 24132",
]


def timed(fn: Callable[[], Schedule], repeat: int) -> tuple[Schedule, float]:
    runs, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        runs.append(time.perf_counter() - t)
    assert result is not None
    return result, statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--hands", default="3,5")
    parser.add_argument("--only", type=int, default=None, help="only the puzzle of this many moves")
    args = parser.parse_args()
    hands = parse_hands(args.hands)
    for line in PUZZLES:
        moves, text, cluster = line.split()
        if args.only is not None and int(moves) != args.only:
            continue
        board, _ = fogleman.parse_line(line)
        print(f"{text}  (database: {int(moves)} moves, {cluster} positions)")
        base, base_t = timed(lambda b=board: solve_timed(b, car_seconds=1, truck_seconds=1), args.repeat)
        print(f"  fewest steps        {len(base.items):>4}        {base_t:7.2f} s  (baseline)")
        mv, mv_t = timed(
            lambda b=board: solve_timed(b, metric="moves", car_seconds=1, truck_seconds=1), args.repeat
        )
        print(f"  fewest moves        {len(mv.items):>4}        {mv_t:7.2f} s  x{mv_t / base_t:.2f}")
        for metric in ("steps", "moves"):
            one, one_t = timed(lambda b=board, m=metric: solve_timed(b, metric=m), args.repeat)
            print(
                f"  one hand 2/5 {metric:<6} {format_seconds(one.total):>4} s      {one_t:7.2f} s  "
                f"x{one_t / base_t:.2f}  ({len(one.items)} moves, {one.steps} steps)"
            )
        for metric, handover in (
            ("steps", "relaxed"),
            ("steps", "strict"),
            ("moves", "relaxed"),
            ("moves", "strict"),
        ):
            model = TimeModel.two_hands(hands, handover=handover, metric=metric)
            label = f"  hands {args.hands} {metric:<5} {handover:<7}"
            search = HandsSearch(board, model)
            t = time.perf_counter()
            try:
                found = search.run(time_limit=args.time_limit)
            except LimitReachedError as err:
                spent = time.perf_counter() - t
                print(
                    f"{label} >= {format_seconds(search.bound)} s  {spent:7.2f} s  "
                    f"(time limit; {err.explored} states; best bound proven)"
                )
                continue
            spent = time.perf_counter() - t
            left, right = format_seconds(found.busy("left")), format_seconds(found.busy("right"))
            print(
                f"{label} {format_seconds(found.total):>4} s  {spent:7.2f} s  x{spent / base_t:.2f}  "
                f"({len(found.items)} moves, {found.steps} steps; busy left {left} s, right {right} s; "
                f"{found.explored} states)"
            )
        print(flush=True)


if __name__ == "__main__":
    main()
