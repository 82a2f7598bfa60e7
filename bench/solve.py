"""Solver speed and memory against a plain breadth-first baseline, measured in the same run.

    .venv/bin/python bench/solve.py [--sample PATH] [--limit N] [--baseline-every K] [--skip-big]

1. The whole reference sample (9,034 puzzles): ``bfs``, ``astar`` and ``analyze`` on every puzzle,
   each checked against the MOVES and CLUSTER columns; median and total time per puzzle, positions
   per second.  ``bfs`` and ``analyze`` use the compiled search when it is built; ``bfs-python`` is
   the same search in Python (the two must explore the same number of positions).  The baseline (a plain
   breadth-first search over ``Board.successors``, written below) runs on every K-th puzzle, and the
   ratio compares it with ``bfs`` on those same puzzles.
2. The hardest 51-move puzzle ``GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo``: median of repeated runs.
3. Big boards: a 9x9 board with 32 vehicles whose reachable set has 313,128 positions (found by
   thinning random crowded boards; see BIG9) and a 12x12 board with over 20 vehicles, solved to proven
   optimality, with the peak of memory allocated during the search (tracemalloc, in a separate run so
   that its overhead stays out of the timings) and the process's peak resident size.

Times are wall-clock medians on whatever machine runs this, with the CPU time of this process beside
them (on a machine shared with other work the CPU time is the fairer figure); nothing is asserted
about them.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
import tracemalloc
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rushhour.board import Board
from rushhour.formats import fogleman, grid
from rushhour.search import analyze, solve
from rushhour.search.bfs import Limits, reachable
from rushhour.search.native import native_available, use_native
from rushhour.search.tables import cached_tables, tables_for

T = TypeVar("T")

HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
DEFAULT_SAMPLE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "fogleman_sample.txt"

# A 9x9 board with 32 vehicles (the goal A leaves on the right of the middle row), found by removing
# random vehicles from a random crowded board until its reachable set grew past 250,000 positions.
# The set has 313,128 positions; this is its position farthest from any win (10 moves).
BIG9 = """\
# name: big9
..GGQQXX.
...CCCZZY
ggEEEPPLY
VVbDD..LH
h.bAA..cH
hJJSSNNcB
ITfFFUUMB
ITf.OeeMB
IKK.OddWW
"""

# A 12x12 board with 40 vehicles (a random crowded board after 300 random moves): its optimal solution
# is short, but proving it takes about half a million positions.
BIG12 = """\
# name: big12
.444e..00bb7
HHH.e...CG.7
DDD.e...CGYY
.UU.nn..BG..
VVV1gga.B.ww
.QQ1uua8.Jyy
i.AA..a8.J..
iff.........
..v.kkssS...
zOv...XXS.F.
zO.pLLTmm.Fr
jjjp..T....r
"""


def baseline_bfs(board: Board) -> int | None:
    """The plain baseline: breadth-first over Board.successors with a parent dict and a deque."""
    if board.is_won():
        return 0
    parent: dict[Board, Board | None] = {board: None}
    queue = deque([board])
    while queue:
        here = queue.popleft()
        for _, there in here.successors():
            if there in parent:
                continue
            parent[there] = here
            if there.is_won():
                length = 0
                step: Board | None = there
                while step is not None and step != board:
                    step = parent[step]
                    length += 1
                return length
            queue.append(there)
    return None


def clock(fn: Callable[[], T]) -> tuple[T, float]:
    """The result and the wall-clock seconds; the CPU seconds of the call go to CPU_SECONDS."""
    began, cpu = time.perf_counter(), time.process_time()
    result = fn()
    CPU_SECONDS.append(time.process_time() - cpu)
    return result, time.perf_counter() - began


CPU_SECONDS: list[float] = []


def median_of(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall-clock and median CPU seconds of ``repeat`` runs."""
    del CPU_SECONDS[:]
    wall = statistics.median(clock(fn)[1] for _ in range(repeat))
    return wall, statistics.median(CPU_SECONDS)


def cpu_note() -> str:
    """The CPU time of the last clocked call: on a loaded machine it is the fairer figure."""
    return f"cpu {CPU_SECONDS[-1]:.2f} s"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def peak_mib(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def bench_sample(path: Path, limit: int | None, every: int) -> None:
    lines = [ln for ln in path.read_text().splitlines() if ln.strip()][:limit]
    print(f"== reference sample: {len(lines):,} puzzles ({path.name}) ==")
    names = ["bfs", "bfs-python", "astar", "analyze"] if native_available() else ["bfs", "astar", "analyze"]
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    explored = dict.fromkeys(names, 0)
    base_pairs: list[tuple[float, float]] = []
    wrong = 0
    for k, line in enumerate(lines):
        board, meta = fogleman.parse_line(line)
        moves, cluster = int(meta["moves"]), int(meta["cluster"])
        cached_tables.cache_clear()  # each bfs pass builds its tables, as a first solve of a board does
        s, t = clock(lambda board=board: solve(board))
        times["bfs"].append(t)
        cpu["bfs"].append(CPU_SECONDS[-1])
        explored["bfs"] += s.explored
        wrong += s.length != moves
        if "bfs-python" in times:
            use_native(False)
            cached_tables.cache_clear()
            p_s, t = clock(lambda board=board: solve(board))
            use_native(True)
            times["bfs-python"].append(t)
            cpu["bfs-python"].append(CPU_SECONDS[-1])
            explored["bfs-python"] += p_s.explored
            wrong += p_s.length != moves or p_s.explored != s.explored
        a_s, t = clock(lambda board=board: solve(board, engine="astar"))
        times["astar"].append(t)
        cpu["astar"].append(CPU_SECONDS[-1])
        explored["astar"] += a_s.explored
        wrong += a_s.length != moves
        an, t = clock(lambda board=board: analyze(board))
        times["analyze"].append(t)
        cpu["analyze"].append(CPU_SECONDS[-1])
        explored["analyze"] += 2 * an.cluster_size
        wrong += an.cluster_size != cluster or an.start_distance != moves
        if every and k % every == 0:
            length, base = clock(lambda board=board: baseline_bfs(board))
            wrong += length != moves
            base_pairs.append((base, times["bfs"][-1]))
    print(f"answers that differ from the database: {wrong} (bfs and astar lengths, analyze clusters)")
    print(f"compiled search: {'built, used by bfs' if native_available() else 'not built'}")
    for name, values in times.items():
        total = sum(values)
        print(
            f"{name:10s} median {ms(statistics.median(values))}  mean {ms(total / len(values))}  "
            f"total {total:.1f} s  {explored[name] / total:,.0f} positions/s  "
            f"(cpu: median {ms(statistics.median(cpu[name]))}, total {sum(cpu[name]):.1f} s)"
        )
    if base_pairs:
        base = statistics.median(b for b, _ in base_pairs)
        ours = statistics.median(o for _, o in base_pairs)
        ratio = statistics.median(b / o for b, o in base_pairs)
        print(
            f"baseline (plain BFS over Board.successors) on {len(base_pairs)} puzzles (every {every}th): "
            f"median {ms(base)} vs bfs {ms(ours)}; median speed-up x{ratio:.1f}"
        )


def bench_hardest(repeat: int) -> None:
    board = fogleman.parse_line(HARDEST)[0]
    print(f"== hardest sample puzzle {HARDEST} (51 moves, 4,780 positions), median of {repeat} ==")
    solution = solve(board)
    assert solution.length == 51
    bfs, bfs_cpu = median_of(lambda: solve(board), repeat)
    use_native(False)
    python, python_cpu = median_of(lambda: solve(board), repeat)
    ana_python, ana_python_cpu = median_of(lambda: analyze(board), repeat)
    use_native(native_available())
    star, star_cpu = median_of(lambda: solve(board, engine="astar"), repeat)
    ana, ana_cpu = median_of(lambda: analyze(board), repeat)
    base, base_cpu = median_of(lambda: baseline_bfs(board), max(1, repeat // 5))
    rate = solution.explored / bfs
    print(f"bfs      {ms(bfs)} (cpu {ms(bfs_cpu)})  {solution.explored:,} positions, {rate:,.0f} positions/s")
    if native_available():
        faster = f"the compiled search is x{python / bfs:.1f} faster"
        print(f"bfs in Python {ms(python)} (cpu {ms(python_cpu)}): {faster}")
    print(f"astar    {ms(star)} (cpu {ms(star_cpu)})  {solve(board, engine='astar').explored:,} positions")
    print(f"analyze  {ms(ana)} (cpu {ms(ana_cpu)})  4,780 positions, two passes")
    if native_available():
        print(f"analyze in Python {ms(ana_python)} (cpu {ms(ana_python_cpu)})")
    print(f"baseline {ms(base)} (cpu {ms(base_cpu)})  -> bfs is x{base / bfs:.1f} faster")


def bench_big(name: str, text: str, baseline: bool, whole: bool) -> None:
    """Solve (bfs and astar, which must agree); with ``whole``, also explore the whole reachable set."""
    board = grid.parse_document(text, source=name).records[0].board
    print(f"== {name}: {board.width}x{board.height}, {len(board.names)} vehicles ==")
    solution, bfs_t = clock(lambda: solve(board))
    bfs_cpu = cpu_note()
    star, star_t = clock(lambda: solve(board, engine="astar"))
    assert solution.optimal and star.optimal and star.length == solution.length
    print(f"optimal solution {solution.length} moves (bfs and astar agree)")
    rate = solution.explored / bfs_t
    print(f"bfs      {bfs_t:.2f} s ({bfs_cpu})  {solution.explored:,} positions, {rate:,.0f}/s")
    print(f"astar    {star_t:.2f} s ({cpu_note()})  {star.explored:,} positions")
    memory = f"peak memory allocated: bfs {peak_mib(lambda: solve(board)):.0f} MiB"
    if whole:
        analysis, ana_t = clock(lambda: analyze(board))
        print(f"analyze  {ana_t:.2f} s ({cpu_note()})  2 x {analysis.cluster_size:,} positions")
        tables = tables_for(board.layout)
        cluster, once_t = clock(lambda: reachable(tables, tables.pack(board.state), Limits()))
        rate = len(cluster) / once_t
        print(f"the whole reachable set once: {once_t:.2f} s ({cpu_note()}), {rate:,.0f} positions/s")
        memory += f", analyze {peak_mib(lambda: analyze(board)):.0f} MiB"
        if native_available():
            use_native(False)
            _, python_t = clock(lambda: analyze(board))
            print(f"analyze in Python {python_t:.2f} s ({cpu_note()})")
            use_native(True)
    print(memory)
    if baseline:
        length, base_t = clock(lambda: baseline_bfs(board))
        assert length == solution.length
        print(f"baseline {base_t:.2f} s ({cpu_note()}) -> bfs is x{base_t / bfs_t:.1f} faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=Path, default=DEFAULT_SAMPLE)
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles of the sample")
    parser.add_argument("--baseline-every", type=int, default=30, help="baseline on every K-th puzzle")
    parser.add_argument("--repeat", type=int, default=21, help="runs of the hardest puzzle")
    parser.add_argument("--skip-big", action="store_true", help="leave out the 9x9 and 12x12 boards")
    args = parser.parse_args()
    bench_hardest(args.repeat)
    if not args.skip_big:
        bench_big("big9", BIG9, baseline=True, whole=True)
        bench_big("big12", BIG12, baseline=False, whole=False)
    if args.sample.exists():
        bench_sample(args.sample, args.limit, args.baseline_every)
    else:
        print(f"(no sample at {args.sample}: give --sample PATH)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident size of this process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
