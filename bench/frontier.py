"""The frontier search against the compiled hash-table search, on crowded large boards, in the same run.

    .venv/bin/python bench/frontier.py [--boards FILE ...] [--only TEXT] [--repeat R] [--time-limit S]
                                       [--max-memory MB] [--skip-baseline]

For every board (two crowded 9x9 boards written below, then every board of each FILE, e.g.
bench/large/boards9.txt), each search runs R times, each time in a fresh process so that its peak
resident size is its own: ``frontier`` (rushhour.search.frontier: sorted layers of 16-byte keys, no
parents, vehicles that cannot matter left unmoved, in bounded passes), ``one-pass`` (the same search in
one pass without a bound, as it was before the passes) and ``bfs-hash`` (rushhour.search.bfs.shortest: the
compiled search with a hash table and parents, the search every board used before).  Printed: the
optimal length (both must agree, and every path is replayed by the rules), the positions stored, the
median wall-clock and CPU seconds, the peak growth of the resident size, the bytes per stored position
(peak growth / positions) and the ratios of the baseline's figures to the frontier's.  On a machine
shared with other work, the CPU seconds are the fairer figure; nothing is asserted about them.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

# Crowded 9x9 boards (30 and 32 vehicles) made by placing random cars and trucks around the goal car
# and walking 3,000 random moves; kept for their large reachable sets.  The first is also a test board.
CROWDED = {
    "crowd9-a (30 vehicles)": Path(__file__).resolve().parent.parent / "tests" / "data" / "crowded9.txt",
}
CROWD9_B = """\
....EE.UU
eeDMJFTT.
Q.DMJF.II
Q.BBJbOZN
.YdAAbOZN
PYdWWWXXN
P.LVGG.KK
aaLVSSHRc
ffL.CCHRc
"""


def one(engine: str, text: str, time_limit: float | None, max_memory: int) -> dict[str, object]:
    """Run one search in this process and describe it (called in a child process)."""
    from rushhour.formats.grid import parse_grid
    from rushhour.search.bfs import Limits, shortest
    from rushhour.search.frontier import frontier
    from rushhour.search.memory import resident_bytes
    from rushhour.search.native import native_available
    from rushhour.search.solution import moves_of_path, verify
    from rushhour.search.tables import Tables

    assert native_available(), "the compiled search is not built (or was built from other sources)"
    board = parse_grid(text)
    tables = Tables(board.layout)
    start = tables.pack(board.state)
    before = resident_bytes() or 0
    limits = Limits(time_limit=time_limit, max_memory=max_memory)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        if engine in ("frontier", "one-pass"):
            found = frontier(tables, start, limits, bounded=engine == "frontier")
            assert found is not None, "the frontier search does not serve this board"
        else:
            found = shortest(tables, start, limits)
    except Exception as err:  # a limit: reported, not fatal
        return {"stopped": str(err), "lower_bound": getattr(err, "lower_bound", None)}
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    path, stored = found
    if path is not None:
        verify(board, moves_of_path(tables, path))
    return {
        "length": None if path is None else len(path) - 1,
        "stored": stored,
        "wall": wall,
        "cpu": cpu,
        "growth": max(0, peak - before),
    }


def measure(engine: str, text: str, repeat: int, time_limit: float | None, mb: int) -> dict[str, object]:
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, __file__, "--one", engine, "--time-limit", str(time_limit or 0)]
            + ["--max-memory", str(mb)],
            input=text,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout))
    if any("stopped" in r for r in runs):
        return runs[0]
    out = dict(runs[0])
    for key in ("wall", "cpu", "growth"):
        out[key] = statistics.median(float(r[key]) for r in runs)
    return out


def describe(name: str, r: dict[str, object]) -> str:
    if "stopped" in r:
        return f"  {name:9s} {r['stopped']} (proven lower bound: {r['lower_bound']})"
    stored = int(r["stored"])  # type: ignore[call-overload]
    growth = float(r["growth"])  # type: ignore[arg-type]
    return (
        f"  {name:9s} length {r['length']}  {stored:,} positions  wall {r['wall']:.2f} s  "
        f"cpu {r['cpu']:.2f} s  peak +{growth / 2**20:,.0f} MB  {growth / max(stored, 1):.1f} bytes/position"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", nargs="*", default=[], help="grid files of more boards")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=600.0, help="per search (0: none)")
    parser.add_argument("--max-memory", type=int, default=4096, metavar="MB", help="per search")
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--only", default="", metavar="TEXT", help="only the boards whose name holds TEXT")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    limit = args.time_limit or None
    if args.one:
        print(json.dumps(one(args.one, sys.stdin.read(), limit, args.max_memory * 2**20)))
        return
    from rushhour.formats import read_file
    from rushhour.formats.grid import write_grid

    boards = {name: write_grid(read_file(str(path))[0].board) for name, path in CROWDED.items()}
    boards["crowd9-b (32 vehicles)"] = CROWD9_B
    for path in args.boards:
        for entry in read_file(path):
            boards[f"{Path(path).name}: {entry.meta.get('name') or entry.label}"] = write_grid(entry.board)
    for name, text in boards.items():
        if args.only not in name:
            continue
        print(name)
        ours = measure("frontier", text, args.repeat, limit, args.max_memory)
        print(describe("frontier", ours), flush=True)
        if args.skip_baseline:
            continue
        for baseline in ("one-pass", "bfs-hash"):
            base = measure(baseline, text, args.repeat, limit, args.max_memory)
            print(describe(baseline, base), flush=True)
            if "stopped" not in ours and "stopped" not in base:
                assert ours["length"] == base["length"], "the searches disagree"
                print(
                    f"  ratios {baseline} / frontier: wall x{float(base['wall']) / float(ours['wall']):.2f}  "  # type: ignore[arg-type]
                    f"cpu x{float(base['cpu']) / float(ours['cpu']):.2f}  "  # type: ignore[arg-type]
                    f"peak memory x{float(base['growth']) / max(float(ours['growth']), 1):.2f}",  # type: ignore[arg-type]
                    flush=True,
                )


if __name__ == "__main__":
    main()
