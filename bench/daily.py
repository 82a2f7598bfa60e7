"""What starting the daily puzzle costs, and what colouring a board costs.

The daily puzzle is generated when a game starts (``rushhour.levels.daily``): this times it for
``--days`` consecutive days from ``--start`` with the compiled search, and for the first ``--python-days``
of them with the Python search in the same run (the baseline; both make the same puzzle), and reports
the median and worst time, the tries a day took, and the process's peak memory.  It also times
``vehicle_colors`` (16 colours) on every built-in level against drawing the same board without colour.
Run from the repository root:

    .venv/bin/python bench/daily.py [--days 30] [--python-days 5] [--start 2026-11-23]
"""

from __future__ import annotations

import argparse
import datetime
import resource
import statistics
import time

from rushhour import levels
from rushhour.render.palette import BASIC, vehicle_colors
from rushhour.render.text import render
from rushhour.search import native as loader


def one_day(day: datetime.date) -> tuple[float, float, int, int]:
    """Seconds (wall clock and CPU) to make the day's puzzle, its moves and the tries it took."""
    began, cpu = time.perf_counter(), time.process_time()
    puzzle = levels.daily(day)
    spent, cpu = time.perf_counter() - began, time.process_time() - cpu
    meta = puzzle.entry.meta
    return spent, cpu, int(meta["moves"]), int(meta["try"]) + 1  # the header counts tries from 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--days", type=int, default=30, help="days timed with the compiled search")
    ap.add_argument("--python-days", type=int, default=5, help="of those, days timed with the Python search")
    ap.add_argument("--start", type=datetime.date.fromisoformat, default=datetime.date(2026, 11, 23))
    args = ap.parse_args()
    days = [args.start + datetime.timedelta(days=k) for k in range(args.days)]

    native: list[float] = []
    native_cpu: list[float] = []
    tries: list[int] = []
    for day in days:
        spent, cpu, moves, n = one_day(day)
        native.append(spent)
        native_cpu.append(cpu)
        tries.append(n)
        print(
            f"{day}  {moves:2d} moves  {n:2d} tries  {spent * 1000:7.1f} ms ({cpu * 1000:.1f} ms CPU)",
            flush=True,
        )
    python: list[float] = []
    python_cpu: list[float] = []
    was = loader.use_native(False)
    try:
        for day in days[: args.python_days]:
            spent, cpu, _, _ = one_day(day)
            python.append(spent)
            python_cpu.append(cpu)
    finally:
        loader.use_native(was)

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:.0f} ms, worst {max(values) * 1000:.0f} ms"

    print()
    print(f"daily puzzle, compiled search, {len(days)} days: {ms(native)} (CPU: {ms(native_cpu)})")
    print(f"tries a day: median {statistics.median(tries):g}, 1 to {max(tries)}")
    if python:
        same = native_cpu[: len(python_cpu)]
        ratio = statistics.median(python_cpu) / statistics.median(same)
        print(
            f"Python search, first {len(python)} days: {ms(python)} (CPU: {ms(python_cpu)}); CPU median "
            f"x{ratio:.1f} the compiled search's on the same days ({statistics.median(same) * 1000:.0f} ms)"
        )

    boards = [entry.board for pack in levels.packs() for entry in pack.levels]
    colour_times, plain_times = [], []
    for board in boards:
        began = time.perf_counter()
        vehicle_colors(board, BASIC)
        colour_times.append(time.perf_counter() - began)
        began = time.perf_counter()
        render(board)
        plain_times.append(time.perf_counter() - began)
    c, p = statistics.median(colour_times), statistics.median(plain_times)
    print(
        f"vehicle_colors on {len(boards)} built-in levels: median {c * 1e6:.0f} us, worst "
        f"{max(colour_times) * 1e6:.0f} us (x{c / p:.1f} a plain drawing, {p * 1e6:.0f} us)"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
