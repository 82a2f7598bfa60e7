"""The logic you can question and count, measured: `prove` latency on 6x6, exact counts per shape, and
the in-game logic view's redraw.

* prove, one board: a claim checked at one position of the 6x6 database slice (the rules, the claim's
  negation, the position's facts as assumptions); the baseline in the same run is one query of the SAT
  move oracle on the same position.  Target: median at most 100 ms.
* prove, the 6x6 shape: the same claims for every 6x6 position (no facts: the solver looks for a
  counterexample anywhere), and for every position reachable from a board.
* count: the exact number of positions (models of the rules) of every shape from 3x3 to 6x6, without
  and with walls, by Ganak; target at most 30 s each.  ``--beyond`` also counts 6x7, 7x6 and 7x7 (minutes).
* the in-game logic view: see :func:`view_redraw_latency`.

    python bench/logic.py [--boards 60] [--repeat 3] [--beyond] [--only prove|count|view]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from pathlib import Path

from rushhour.board import Board
from rushhour.formats.fogleman import parse_line
from rushhour.logic.claims import prove
from rushhour.logic.counting import count_solutions, counter_name
from rushhour.logic.encoding import Shape, encoding_for
from rushhour.logic.oracle import oracle_for

ROOT = Path(__file__).resolve().parent.parent
SLICE = ROOT / "tests" / "data" / "fogleman_slice_logic.txt"
CLAIMS = (
    "forall i,j: CMR(i,j) -> Empty(i,j+1)",
    "forall i: (forall j: ~Empty(i,j)) -> (forall j: ~CMR(i,j) & ~CML(i,j))",
    "exists j: Empty(2,j)",
    "(exists j: Red(2,j) & CMR(2,j)) -> Won | (exists j: Red(2,j) & SlideR(2,j,5-j))",
    "forall i,j: V3(i,j) & Part0(i,j) -> ~CMU(i,j) | Empty(i-1,j)",
)
PROVE_TARGET_MS = 100.0
COUNT_TARGET_S = 30.0


def boards(count: int) -> list[Board]:
    lines = [ln for ln in SLICE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return [parse_line(ln)[0] for ln in lines[:count]]


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.2f} ms"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_prove(count: int, repeat: int) -> None:
    chosen = boards(count)
    shape = Shape.of(chosen[0])
    encoding_for(shape)  # built once per process, as in a session: not part of a claim's latency
    oracle = oracle_for(chosen[0])
    oracle.legal_moves(chosen[0])
    print(f"prove on 6x6 ({len(chosen)} boards of the database slice, {len(CLAIMS)} claims, {repeat} runs)")
    print(f"{'claim':<58} {'one board':>10} {'oracle':>9} {'ratio':>6} {'shape':>10}  verdict")
    every_board: list[float] = []
    for claim in CLAIMS:
        one, base, whole = [], [], []
        for _ in range(repeat):
            for board in chosen:
                started = time.perf_counter()
                prove(claim, board, scope="position")
                one.append(time.perf_counter() - started)
                started = time.perf_counter()
                oracle.legal_moves(board)
                base.append(time.perf_counter() - started)
            started = time.perf_counter()
            outcome = prove(claim, shape)
            whole.append(time.perf_counter() - started)
        every_board.extend(one)
        ratio = statistics.median(one) / statistics.median(base)
        text = claim if len(claim) <= 56 else claim[:53] + "..."
        print(f"{text:<58} {ms(one):>10} {ms(base):>9} {ratio:>5.0f}x {ms(whole):>10}  {outcome.verdict}")
    median = statistics.median(every_board) * 1000
    verdict = "met" if median <= PROVE_TARGET_MS else "MISSED"
    print(f"one board, every claim: median {median:.2f} ms (target <= {PROVE_TARGET_MS:.0f} ms: {verdict})")
    lines = [ln for ln in SLICE.read_text().splitlines() if ln.strip()]
    biggest = max(lines, key=lambda ln: int(ln.split()[2]))
    board = parse_line(biggest)[0]
    started = time.perf_counter()
    outcome = prove("forall i,j: CMR(i,j) -> Empty(i,j+1)", board, scope="reachable")
    took = time.perf_counter() - started
    asked = outcome.positions or 1
    print(
        f"every position reachable from {biggest.split()[1]} ({outcome.verdict}): {asked:,} positions, "
        f"{took:.2f} s ({took / asked * 1e6:.0f} us each)"
    )
    print(f"peak memory: {peak_mb():.0f} MB")


def shapes(beyond: bool) -> list[tuple[int, int]]:
    out = [(w, h) for h in range(3, 7) for w in range(3, 7)]
    return out + ([(6, 7), (7, 6), (7, 7)] if beyond else [])


def bench_count(beyond: bool) -> None:
    print(f"exact counts by {counter_name()} (every shape up to 6x6{', then beyond' if beyond else ''})")
    header = f"{'positions without walls':>26} {'time':>8} {'positions with walls':>32} {'time':>8}"
    print(f"{'shape':<6} {header}")
    slowest = 0.0
    for width, height in shapes(beyond):
        cells = []
        for walls in (False, True):
            started = time.perf_counter()
            count = _count_unlimited((width, height), walls)
            took = time.perf_counter() - started
            if width * height <= 36:
                slowest = max(slowest, took)
            cells.append(f"{count:>{26 if not walls else 32},} {took:>7.2f}s")
        print(f"{width}x{height:<4} " + " ".join(cells), flush=True)
    verdict = "met" if slowest <= COUNT_TARGET_S else "MISSED"
    print(f"slowest shape up to 6x6: {slowest:.1f} s (target <= {COUNT_TARGET_S:.0f} s: {verdict})")
    print(f"peak memory: {peak_mb():.0f} MB")


def _count_unlimited(size: tuple[int, int], walls: bool) -> int:
    """A count past the command's size limit, for the figures beyond 6x6 (--beyond)."""
    from rushhour.logic import counting

    limit = counting.MAX_CELLS
    counting.MAX_CELLS = max(limit, size[0] * size[1])
    try:
        return count_solutions(size, walls=walls)
    finally:
        counting.MAX_CELLS = limit


# --- the in-game logic view ------------------------------------------------------------------------
def view_redraw_latency() -> dict[str, float] | None:
    """Key to redraw of the game's logic view (the `e` key of issue 25), median in ms, measured as
    bench/play_latency.py measures the game's other keys (``play_latency.py --logic``: the real game in
    a pseudo-terminal, a walk of new positions, the same walk with the view closed as the baseline)."""
    from play_latency import bench_logic  # bench/ is the script's directory

    return bench_logic(60, 7)


def bench_view() -> None:
    found = view_redraw_latency()
    if found is None:
        print("in-game logic view: not measured (the game has no logic view in this tree yet)")
        return
    print("in-game logic view, medians: " + ", ".join(f"{k} {v:.2f} ms" for k, v in found.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=60, help="6x6 boards for the prove latency")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each claim")
    parser.add_argument("--beyond", action="store_true", help="also count 6x7, 7x6 and 7x7 (minutes)")
    parser.add_argument("--only", choices=("prove", "count", "view"), help="one section")
    args = parser.parse_args()
    if args.only in (None, "prove"):
        bench_prove(args.boards, args.repeat)
    if args.only in (None, "count"):
        bench_count(args.beyond)
    if args.only in (None, "view"):
        bench_view()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
