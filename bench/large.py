"""Large boards: every engine on the bench set of crowded 9x9, open 12x12 and crowded 10x10 to 12x12
boards without walls (bench/large/).

    .venv/bin/python bench/large.py [--boards 9,12,crowded] [--engines portfolio,bfs,astar,improve,sat]
                                    [--repeat N] [--time-limit SEC] [--time-limit-12 SEC]
                                    [--time-limit-crowded SEC] [--max-memory MB]
                                    [--only NAME,...] [--no-baseline]

Each run is a fresh subprocess (so that its peak resident size, ``ru_maxrss``, is its own and no
cache carries over) that solves one board with one engine under the limits and prints one JSON
record: wall-clock seconds, positions explored, the answer's length, whether it is proven optimal,
and when a limit stopped it the proven lower bound and the best solution so far (length).  Each
(board, engine) pair runs ``--repeat`` times; the table shows medians.  ``improve`` runs with the
seeds 1..N (one per repeat); its ratio to the optimum is shown wherever the optimum is known (proven
by an engine in this run, or the ``optimal`` header of the board file, which says how it was proven).

Before the large boards, ``bench/solve.py --skip-big`` runs in the same process group on the 6x6
reference sample (its first ``--sample-limit`` puzzles and the hardest 51-move puzzle) as the baseline
of this run: on a shared machine only figures of one run compare.

The SAT planner runs on the 9x9 and the crowded boards only (``sat`` on the open 12x12 boards is listed
as not feasible: its formula has about 10^5 variables per move there).

``portfolio`` (the default engine of ``rushhour solve``) also shows, from the history of its bounds,
when it first held a solution within 1.1 times the optimum and a lower bound within 3 moves of it; its
peak memory is the caller's plus its largest worker's (each worker's own ``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOARD_FILES = {
    "9": HERE / "large" / "boards9.txt",
    "12": HERE / "large" / "boards12.txt",
    "crowded": HERE / "large" / "crowded.txt",
}
ENGINES = ("portfolio", "bfs", "astar", "improve", "sat")  # and portfolio-nosat
SAT_SIDES = {9}


def child(path: str, name: str, engine: str, time_limit: float, max_memory: int, seed: int) -> None:
    """Solve one board with one engine and print one JSON record (run in a subprocess)."""
    from rushhour.errors import LimitReachedError
    from rushhour.formats import grid
    from rushhour.search import portfolio, solve

    if engine == "portfolio-nosat":  # the portfolio without SAT planning, for a side-by-side figure
        portfolio.SAT_PLANNING = False
        engine = "portfolio"

    document = grid.parse_document(Path(path).read_text(), source=path)
    board = next(r.board for r in document.records if r.meta.get("name") == name)
    record: dict[str, object] = {"engine": engine}
    began = time.perf_counter()
    try:
        solution = solve(
            board, engine=engine, time_limit=time_limit, max_memory=max_memory, seed=seed, max_moves=None
        )
        record.update(
            length=solution.length if solution.solved else None,
            proven=solution.optimal,
            explored=solution.explored,
            stopped=None,
            bounds=[b.to_dict() for b in solution.bounds],
        )
    except LimitReachedError as err:
        record.update(
            length=None,
            proven=False,
            explored=err.explored,
            stopped=str(err),
            lower_bound=err.lower_bound,
            best=None if err.best is None else len(err.best),
            bounds=[b.to_dict() for b in err.bounds],  # type: ignore[attr-defined]
        )
    record["seconds"] = time.perf_counter() - began
    record["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # the portfolio's workers: the largest one's peak (they are joined before the answer)
    record["workers_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps(record))


def milestones(bounds: list[dict[str, object]], optimum: int | None) -> str:
    """When the portfolio first had a solution within 1.1x of the optimum, and a lower bound within 3
    moves of it (from the history of its bounds)."""
    if not bounds or optimum is None:
        return ""
    within = [float(b["seconds"]) for b in bounds if b["kind"] == "best" and int(b["value"]) <= 1.1 * optimum]  # type: ignore[call-overload, arg-type]
    near = [float(b["seconds"]) for b in bounds if b["kind"] == "lower" and int(b["value"]) >= optimum - 3]  # type: ignore[call-overload, arg-type]
    first = f"{min(within):.1f} s" if within else "never"
    second = f"{min(near):.1f} s" if near else "never"
    return f"1.1x at {first}, lower bound within 3 at {second}"


def run_one(path: Path, name: str, engine: str, limit: float, memory_mb: int, seed: int) -> dict[str, object]:
    command = [
        sys.executable,
        __file__,
        "--child",
        str(path),
        name,
        engine,
        str(limit),
        str(memory_mb),
        str(seed),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=limit * 3 + 120, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"engine": engine, "failed": tail}
    result: dict[str, object] = json.loads(lines[-1])
    return result


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def summarise(name: str, engine: str, runs: list[dict[str, object]], optimum: int | None) -> str:
    failed = [r for r in runs if "failed" in r]
    if failed:
        return f"{name:12s} {engine:8s} FAILED: {failed[0]['failed']}"
    secs = median([float(r["seconds"]) for r in runs])  # type: ignore[arg-type]
    rss = median([float(r["maxrss_mb"]) + float(r.get("workers_mb", 0)) for r in runs])  # type: ignore[arg-type]
    explored = median([float(r["explored"]) for r in runs])  # type: ignore[arg-type]
    lengths = [int(r["length"]) for r in runs if r.get("length") is not None]  # type: ignore[call-overload]
    stopped = [r for r in runs if r.get("stopped")]
    parts = [f"{name:12s} {engine:8s} {secs:8.2f} s  {explored:>13,.0f} pos  {rss:7.0f} MB"]
    if lengths:
        length = statistics.median(lengths)
        proven = all(bool(r["proven"]) for r in runs if r.get("length") is not None)
        parts.append(f"length {length:g}{' proven' if proven else ''}")
        if optimum and engine not in ("bfs", "astar", "portfolio", "portfolio-nosat"):
            parts.append(
                f"x{length / optimum:.2f} of the optimum {optimum} (worst x{max(lengths) / optimum:.2f})"
            )
    if engine.startswith("portfolio"):
        parts.append("; ".join(milestones(r.get("bounds") or [], optimum) for r in runs))  # type: ignore[arg-type]
    if stopped:
        bounds = [r.get("lower_bound") for r in stopped]
        best = [r.get("best") for r in stopped]
        parts.append(
            f"stopped {len(stopped)}/{len(runs)}: lower bound {bounds[0]}, best so far {best[0]} "
            f"({str(stopped[0]['stopped'])[:60]})"
        )
    return "  ".join(parts)


def baseline(sample_limit: int, sample: str | None) -> None:
    print("== baseline of this run: bench/solve.py --skip-big (6x6) ==", flush=True)
    command = [
        sys.executable,
        str(HERE / "solve.py"),
        "--skip-big",
        "--limit",
        str(sample_limit),
        "--repeat",
        "11",
        *(["--sample", sample] if sample else []),
    ]
    subprocess.run(command, check=False)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        path, name, engine, limit, memory, seed = sys.argv[2:8]
        child(path, name, engine, float(limit), int(memory) * 1024**2, int(seed))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="9,12,crowded", help="board sets: 9, 12, crowded (default all)")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run on 9x9 (default 60)")
    parser.add_argument("--time-limit-12", type=float, default=600.0, help="seconds per run on 12x12 (600)")
    parser.add_argument(
        "--time-limit-crowded", type=float, default=180.0, help="seconds per run on crowded.txt (180)"
    )
    parser.add_argument("--max-memory", type=int, default=8192, help="MB a run may add (default 8192)")
    parser.add_argument("--only", default="", help="board names, comma-separated")
    parser.add_argument("--sample-limit", type=int, default=2000, help="6x6 sample puzzles of the baseline")
    parser.add_argument(
        "--sample", help="the 6x6 reference sample of the baseline (bench/solve.py's default)"
    )
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    from rushhour.formats import grid

    began = time.time()
    print(
        f"bench/large.py on {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the start "
        "(a shared machine: compare ratios within this run)"
    )
    if not args.no_baseline:
        baseline(args.sample_limit, args.sample)
    only = {n for n in args.only.split(",") if n}
    engines = [e for e in args.engines.split(",") if e]
    for side in args.boards.split(","):
        board_file = BOARD_FILES[side]
        limit = args.time_limit if side == "9" else args.time_limit_12
        if side == "crowded":
            limit = args.time_limit_crowded
        print(
            f"== {board_file.name}: limits {limit:g} s, {args.max_memory} MB per run; "
            f"medians of {args.repeat} =="
        )
        for record in grid.parse_document(board_file.read_text(), source=str(board_file)).records:
            name = record.meta.get("name", "?")
            if only and name not in only:
                continue
            board = record.board
            known = record.meta.get("optimal")
            optimum = int(known.split()[0]) if known else None
            print(
                f"-- {name}: {board.width}x{board.height}, {len(board.names)} vehicles, "
                f"optimum {known or 'unknown'}"
            )
            for engine in engines:
                if engine == "sat" and board.width not in SAT_SIDES and side != "crowded":
                    print(f"{name:12s} {engine:8s} not run (not feasible on {board.width}x{board.height})")
                    continue
                runs = [
                    run_one(board_file, name, engine, limit, args.max_memory, seed)
                    for seed in range(
                        1,
                        (
                            args.repeat
                            if engine in ("improve", "bfs", "astar", "portfolio", "portfolio-nosat")
                            else 1
                        )
                        + 1,
                    )
                ]
                for r in runs:
                    if (
                        engine in ("bfs", "astar", "portfolio")
                        and r.get("proven")
                        and r.get("length") is not None
                    ):
                        if optimum is not None and optimum != r["length"]:
                            print(f"!! {engine} proves {r['length']} but the file says {optimum}")
                        optimum = int(r["length"])  # type: ignore[call-overload]
                print(summarise(name, engine, runs, optimum), flush=True)
    print(f"total {time.time() - began:.0f} s")


if __name__ == "__main__":
    main()
