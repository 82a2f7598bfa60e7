"""Latency of the SAT move oracle against the reference move generator, measured in the same run.

For 6x6 boards (random walks from the database slice in tests/data), and generated 9x9 and 12x12
boards: the median time per position of `rushhour.logic.oracle.legal_moves` and of
`Board.legal_moves` (the baseline) with their ratio, and the first query's latency: building the
bauhaus encoding, compiling it to CNF and starting the solver (caches emptied; median of --cold runs).

    python bench/oracle.py [--positions 600] [--cold 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from rushhour.board import HORIZONTAL, VERTICAL, Board, Vehicle
from rushhour.formats.fogleman import parse_line
from rushhour.logic import encoding, oracle
from rushhour.logic.oracle import legal_moves

ROOT = Path(__file__).resolve().parent.parent
SLICE = ROOT / "tests" / "data" / "fogleman_slice_logic.txt"
TARGETS = {6: (1.0, 250.0), 9: (None, None), 12: (5.0, 2000.0)}


def generated(size: int, rng: random.Random) -> Board:
    """A crowded bounded board: the red car on the row above the middle, leaving right."""
    row = (size - 1) // 2
    taken = {(row, 0), (row, 1)}
    vehicles = [Vehicle("A", HORIZONTAL, 2, row, 0)]
    names = iter([chr(c) for c in range(ord("B"), ord("Z") + 1)] + [f"V{k}" for k in range(200)])
    for _ in range(size * size * 2):
        if len(vehicles) >= size * size // 4:
            break
        orientation = rng.choice((HORIZONTAL, VERTICAL))
        length = rng.choice((2, 2, 3))
        r, c = rng.randrange(size), rng.randrange(size)
        if orientation == HORIZONTAL and r == row:
            continue
        cells = [(r, c + k) if orientation == HORIZONTAL else (r + k, c) for k in range(length)]
        if any(not (0 <= a < size and 0 <= b < size) or (a, b) in taken for a, b in cells):
            continue
        taken.update(cells)
        vehicles.append(Vehicle(next(names), orientation, length, r, c))
    free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken and r != row]
    return Board(size, size, vehicles, walls=rng.sample(free, 3))


def walk(board: Board, rng: random.Random, count: int) -> list[Board]:
    out, here = [board], board
    while len(out) < count:
        moves = here.legal_moves()
        if not moves:
            break
        here = here.apply(rng.choice(moves))
        out.append(here)
    return out


def per_call(func: object, positions: list[Board]) -> list[float]:
    times = []
    for p in positions:
        start = time.perf_counter()
        func(p)  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return times


def cold(board: Board, runs: int) -> float:
    times = []
    for _ in range(runs):
        encoding.encoding_for.cache_clear()
        oracle._ORACLES.clear()  # closes every oracle's solver
        start = time.perf_counter()
        legal_moves(board)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=600, help="positions per size (default 600)")
    parser.add_argument("--cold", type=int, default=5, help="first-query runs per size (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    starts = {6: [parse_line(line)[0] for line in SLICE.read_text().splitlines()]}
    for size in (9, 12):
        starts[size] = [generated(size, rng) for _ in range(3)]
    print(
        f"{'size':>5} {'positions':>9} {'oracle ms':>10} {'rules ms':>9} {'ratio':>7} {'first query ms':>15}"
    )
    failures = []
    for size, boards in starts.items():
        per_board = max(1, args.positions // len(boards))
        positions = [p for b in boards for p in walk(b, rng, per_board)]
        first = cold(boards[0], args.cold) * 1000
        for p in positions[:50]:  # warm every layout's tables
            legal_moves(p)
        sat_times = per_call(legal_moves, positions)
        ref_times = per_call(lambda p: p.legal_moves(), positions)
        agree = all(legal_moves(p) == p.legal_moves() for p in positions)
        sat_ms = statistics.median(sat_times) * 1000
        ref_ms = statistics.median(ref_times) * 1000
        print(
            f"{size}x{size:<3} {len(positions):>9} {sat_ms:>10.3f} {ref_ms:>9.3f} {sat_ms / ref_ms:>6.1f}x "
            f"{first:>15.0f}" + ("" if agree else "   DISAGREE")
        )
        per_target, first_target = TARGETS[size]
        if per_target is not None and sat_ms > per_target:
            failures.append(f"{size}x{size}: {sat_ms:.3f} ms per position > {per_target} ms")
        if first_target is not None and first > first_target:
            failures.append(f"{size}x{size}: first query {first:.0f} ms > {first_target:.0f} ms")
        if not agree:
            failures.append(f"{size}x{size}: the oracle disagrees with the rules")
    print("targets: <= 1 ms per 6x6 position, <= 5 ms per 12x12 position;")
    print("         first query <= 250 ms (6x6), <= 2 s (12x12)")
    for failure in failures:
        print(f"MISSED {failure}")
    if not failures:
        print("all targets met")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
