"""The complete database enumerator: time, positions per second per core, puzzles by length.

    .venv/bin/python bench/enumerate.py [--sample N] [--wall-sample K] [--seed S] [--full6 DIR] [--workers W]
    .venv/bin/python bench/enumerate.py --check DIR   # saved 6x6 wall-free parts against the reference sample
    .venv/bin/python bench/enumerate.py --shards FILE [--lines OUT]   # the shards of the boards in FILE

1. Complete 4x4 and 5x5 databases with 0, 0-1 and 0-2 walls, in this process (one core): wall and CPU
   time, layouts (counted independently), positions searched, positions per CPU second, puzzles by
   length.  Baseline in the same run: the Python reference (rushhour.database.reference.python_part) on
   the 4x4 jobs (and 5x5 without walls with --reference-5x5), which must give the same lines; the ratio is its
   CPU time over the compiled search's.
2. 6x6 without walls: N parts drawn at random (seeded) among the 1,296, run one by one: CPU time and
   positions per part, and the whole database extrapolated (mean per part x parts, with the standard
   error of the mean); puzzles by length in the sample.
3. 6x6 with 0-2 walls: K parts drawn at random among those with one wall and K among those with two,
   extrapolated the same way per wall count; every line of the reference sample whose shard lies in a
   part run must appear in that part's output with the same moves and cluster size (and the same board);
   then the parts of a few reference lines with walls drawn at random, with the same check.
4. With --full6 DIR: the complete 6x6 database without walls by the process pool (``--workers``),
   saved in DIR (a rerun resumes): wall time, the CPU time of the workers, positions, puzzles by length.

With --shards FILE: only the shards of the boards listed in FILE (a board per line, the last field of
the line, `.` or `o` for empty cells; blank and `#` lines skipped), each alone and one after the other,
in this process: CPU time per shard, and the lines found (to stdout, or to --lines OUT) so that another
enumerator's output on the same shards can be compared with them line for line.

Times are measured on whatever machine runs this; on a machine shared with other work the CPU time is
the fair figure (per-core rates use it), and the wall time says how busy the machine was.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import math
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import NoReturn

from rushhour.database import (
    Job,
    Part,
    board_of,
    build,
    parts,
    python_part,
    read_line,
    run_part,
    shard_of,
    split_rows,
    total,
)
from rushhour.errors import RushHourError
from rushhour.search.native import native_available

DEFAULT_SAMPLE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "fogleman_sample.txt"


def layouts(size: int, max_walls: int) -> dict[int, int]:
    """The number of layouts of the database by number of walls, counted independently of the
    enumerator.  A cell-by-cell dynamic programme over (for each column, the cells still covered by a
    vertical vehicle from above; the cells still covered by the horizontal vehicle on the left; the cells
    of the row taken by horizontal vehicles and walls so far; walls used; goal car placed) leaves out full
    rows; full columns (of vertical vehicles) are left out by inclusion and exclusion over the set of
    columns forced full."""
    ways_full = _compositions(size)  # the ways vertical vehicles fill a whole column
    out: dict[int, int] = collections.defaultdict(int)
    for k in range(size + 1):
        for blocked in itertools.combinations(range(size), k):
            sign = (-1) ** k * ways_full**k
            for walls, count in _layouts_blocked(size, max_walls, frozenset(blocked)).items():
                out[walls] += sign * count
    return {k: v for k, v in sorted(out.items()) if v}


def _compositions(n: int) -> int:
    """The number of sequences of 2s and 3s summing to n."""
    ways = [1] + [0] * n
    for span in range(1, n + 1):
        ways[span] = sum(ways[span - length] for length in (2, 3) if length <= span)
    return ways[n]


def _layouts_blocked(size: int, max_walls: int, blocked: frozenset[int]) -> dict[int, int]:
    """Layouts without a full row, with the columns of ``blocked`` taken whole (by vertical vehicles)."""
    goal_row = (size - 1) // 2
    State = tuple[tuple[int, ...], int, int, int, bool]
    states: dict[State, int] = {((0,) * size, 0, 0, 0, False): 1}
    for r in range(size):
        for c in range(size):
            new: dict[State, int] = collections.defaultdict(int)
            across_blocked = {length: bool(blocked & set(range(c, c + length))) for length in (2, 3)}
            for (carry, left, fill, walls, goal), count in states.items():
                if c == 0:
                    left, fill = 0, 0
                if c in blocked:
                    if not left:
                        new[(carry, 0, fill, walls, goal)] += count
                    continue
                below = list(carry)
                if below[c]:  # covered from above
                    if left:
                        continue
                    below[c] -= 1
                    new[(tuple(below), 0, fill, walls, goal)] += count
                    continue
                if left:  # covered from the left
                    new[(carry, left - 1, fill, walls, goal)] += count
                    continue
                new[(carry, 0, fill, walls, goal)] += count  # empty
                if walls < max_walls:
                    new[(carry, 0, fill + 1, walls + 1, goal)] += count
                for length in (2, 3):
                    if c + length <= size and not across_blocked[length]:
                        if r != goal_row:
                            new[(carry, length - 1, fill + length, walls, goal)] += count
                        elif length == 2 and not goal:
                            new[(carry, 1, fill + 2, walls, True)] += count
                    if r + length <= size:
                        down = below[:]
                        down[c] = length - 1
                        new[(tuple(down), 0, fill, walls, goal)] += count
            if c == size - 1:  # the row is done: no full row
                kept = {st: n for st, n in new.items() if st[2] < size and not st[1]}
                new = collections.defaultdict(int, kept)
            states = new
    out: dict[int, int] = collections.defaultdict(int)
    for (carry, left, _fill, walls, goal), count in states.items():
        if goal and not any(carry) and not left:
            out[walls] += count
    return dict(out)


def cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def lengths(lines: list[str]) -> str:
    counts = collections.Counter(read_line(line)[0] for line in lines)
    return " ".join(f"{m}:{counts[m]}" for m in sorted(counts, reverse=True)[:8]) + (
        " ..." if len(counts) > 8 else ""
    )


def complete(size: int, walls: tuple[int, int], reference_5x5: bool) -> None:
    job = Job(size, Job.default_goal_row(size), walls)
    t0, c0 = time.perf_counter(), cpu()
    lines, stats = build(job, workers=1)
    wall, used = time.perf_counter() - t0, cpu() - c0
    every = sum(count for k, count in layouts(size, walls[1]).items() if k >= walls[0])
    rate = stats.positions / max(used, 1e-9)
    row = (
        f"| {size}x{size} | {walls[0]}-{walls[1]} | {len(parts(job)):,} | {every:,} | {stats.positions:,} | "
        f"{len(lines):,} | {wall:.2f} s | {used:.2f} s | {rate:,.0f} |"
    )
    if size <= 4 or (size == 5 and reference_5x5 and walls[1] == 0):
        c1 = cpu()
        reference = sorted(line for p in parts(job) for line in python_part(job, p).lines)
        slow = cpu() - c1
        assert reference == sorted(lines), "the Python reference disagrees with the compiled search"
        row += f" {slow:.1f} s (x{slow / max(used, 1e-9):.0f}) |"
    else:
        row += " |"
    print(row, flush=True)
    if lines:
        print(f"    longest: {lines[0]}; by length {lengths(lines)}", flush=True)


def sample_parts(job: Job, chosen: list[Part], count: int, label: str) -> tuple[list[str], float, float]:
    """Run ``chosen`` one by one; print the extrapolation to ``count`` parts; return the lines, the
    positions per CPU second and the extrapolated CPU seconds of all ``count`` parts."""
    seconds, results = [], []
    lines: list[str] = []
    for part in chosen:
        c0 = cpu()
        result = run_part(job, part)
        seconds.append(cpu() - c0)
        results.append(result.stats)
        lines += result.lines
    stats = total(results)
    mean = statistics.fmean(seconds)
    error = statistics.stdev(seconds) / math.sqrt(len(seconds)) if len(seconds) > 1 else 0.0
    positions = statistics.fmean(r.positions for r in results) * count
    print(
        f"  {label}: {len(chosen)} of {count:,} parts in {sum(seconds):.1f} CPU s, "
        f"{stats.positions:,} positions ({stats.positions / max(sum(seconds), 1e-9):,.0f} per CPU second), "
        f"{len(lines):,} puzzles; the whole: {mean * count / 3600:.2f} +- {error * count / 3600:.2f} "
        f"CPU hours, about {positions:,.0f} positions, {len(lines) / len(chosen) * count:,.0f} puzzles",
        flush=True,
    )
    return lines, stats.positions / max(sum(seconds), 1e-9), mean * count


def six_walls(rng: random.Random, n: int, sample_path: Path) -> None:
    job = Job(6, 2, (0, 2))
    every = parts(job)
    by_walls: dict[int, list[Part]] = collections.defaultdict(list)
    for part in every:
        by_walls[len(part.walls)].append(part)
    reference = []
    if sample_path.exists():
        reference = [line for line in sample_path.read_text().splitlines() if line.strip()]
    lead = {k: [r for r in range(6) if r != job.goal_row][: split_rows(6, k)] for k in range(3)}
    hours = 0.0
    checked = missing = 0
    for k in (1, 2):
        chosen = rng.sample(by_walls[k], min(n, len(by_walls[k])))
        lines, _, cpu_seconds = sample_parts(job, chosen, len(by_walls[k]), f"{k} wall{'s' if k > 1 else ''}")
        hours += cpu_seconds / 3600
        found = set(lines)
        keys = {(p.walls, p.rows) for p in chosen}
        for line in reference:
            board = board_of(read_line(line)[1])
            if len(board.walls) != k:
                continue
            shard = shard_of(job, board)
            rows = tuple(shard.rows[r] if r in lead[k] else None for r in range(6))
            if (shard.walls, rows) in keys:
                checked += 1
                missing += line not in found
    print(f"  reference lines in the parts run: {checked}, missing or different: {missing}", flush=True)
    print(f"  1-2 walls extrapolated from the samples: {hours:.1f} CPU hours", flush=True)


def reference_parts(rng: random.Random, k: int, sample_path: Path) -> None:
    """The parts of ``k`` reference lines with walls drawn at random (half with one wall, half with two):
    every reference line that falls into them must be in their output, exactly."""
    job = Job(6, 2, (0, 2))
    lines = [line for line in sample_path.read_text().splitlines() if line.strip()]
    lead = {w: [r for r in range(6) if r != job.goal_row][: split_rows(6, w)] for w in range(3)}

    def part_of(line: str) -> Part:
        shard = shard_of(job, board_of(read_line(line)[1]))
        w = len(shard.walls)
        return Part(
            shard.walls, tuple(shard.rows[r] if r in lead[w] else None for r in range(6)), (None,) * 6
        )

    walled = {w: [line for line in lines if read_line(line)[1].count("x") == w] for w in (1, 2)}
    chosen = {part_of(line) for w in (1, 2) for line in rng.sample(walled[w], k // 2)}
    inside = collections.defaultdict(list)
    for line in lines:
        inside[part_of(line)].append(line)
    checked = missing = 0
    c0 = cpu()
    for part in chosen:
        found = set(run_part(job, part).lines)
        for line in inside[part]:
            checked += 1
            missing += line not in found
    print(
        f"  the parts of {len(chosen)} reference lines with walls ({cpu() - c0:.1f} CPU s): "
        f"{checked} reference lines fall into them, missing or different: {missing}",
        flush=True,
    )


def check_against_sample(root: Path, sample_path: Path) -> None:
    """Every wall-free line of the reference sample whose part is saved in ``root`` (a database directory
    of the 6x6 wall-free job, complete or not) must be among that part's lines, with the same moves,
    board and cluster size; and no saved line may give another number of moves or another cluster size
    for a board of the sample."""
    job = Job(6, 2)
    index = {part: i for i, part in enumerate(parts(job))}
    lead = [r for r in range(6) if r != job.goal_row][: split_rows(6, 0)]
    saved: dict[int, set[str]] = {}
    for path in sorted((root / "parts").glob("*.txt")):
        lines = path.read_text().splitlines()
        saved[int(path.stem)] = set(lines[1:])
    reference = [line for line in sample_path.read_text().splitlines() if line.strip()]
    wall_free = [line for line in reference if "x" not in read_line(line)[1]]
    checked = missing = 0
    for line in wall_free:
        shard = shard_of(job, board_of(read_line(line)[1]))
        part = Part((), tuple(shard.rows[r] if r in lead else None for r in range(6)), (None,) * 6)
        found = saved.get(index[part])
        if found is not None:
            checked += 1
            missing += line not in found
    published = {read_line(line)[1]: read_line(line) for line in reference}
    contradictions = sum(
        1
        for lines in saved.values()
        for line in lines
        if read_line(line)[1] in published and read_line(line) != published[read_line(line)[1]]
    )
    print(
        f"  {len(saved):,} of {len(index):,} parts saved; wall-free reference lines: {len(wall_free):,}, "
        f"{checked:,} of them in the parts saved, missing or different: {missing}; saved lines that "
        f"contradict the reference: {contradictions}",
        flush=True,
    )


def bad_input(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def time_shards(path: Path, out: Path | None) -> None:
    """Run the shard of every board listed in ``path`` alone; print the CPU time of each and the total."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        bad_input(f"cannot read {path}: {err.strerror or err}")
    found: list[str] = []
    times: list[float] = []
    positions = 0
    for k, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            board = board_of(raw.split()[-1])
            job = Job(board.width, board.vehicle(board.goal).row, (len(board.walls), len(board.walls)))
            part = shard_of(job, board)
        except RushHourError as err:
            bad_input(f"{path}, line {k}: {err}")
        c0 = time.process_time()
        result = run_part(job, part, native=True)
        times.append(time.process_time() - c0)
        positions += result.stats.positions
        found.extend(result.lines)
        print(
            f"  line {k}: {times[-1]:.4f} CPU s, {result.stats.positions:,} positions, "
            f"{len(result.lines)} lines",
            file=sys.stderr,
        )
    if not times:
        bad_input(f"{path} lists no board")
    found.sort()
    if out is None:
        print("\n".join(found))
    else:
        try:
            out.write_text("".join(line + "\n" for line in found), encoding="utf-8")
        except OSError as err:
            bad_input(f"cannot write {out}: {err.strerror or err}")
    print(
        f"{len(times):,} shards: {sum(times):.3f} CPU s in all, "
        f"median {statistics.median(times) * 1000:.3f} ms, "
        f"{positions:,} positions ({positions / max(sum(times), 1e-9):,.0f} per CPU second), "
        f"{len(found):,} lines",
        file=sys.stderr,
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=40, help="parts drawn per 6x6 estimate (default 40)")
    ap.add_argument("--wall-sample", type=int, default=8, help="parts drawn per number of walls (default 8)")
    ap.add_argument("--reference-parts", type=int, default=6, help="parts of reference lines run (default 6)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--reference", type=Path, default=DEFAULT_SAMPLE)
    ap.add_argument(
        "--full6", type=Path, help="run the complete 6x6 wall-free database, saved in this folder"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--check",
        type=Path,
        help="only check the parts saved in this 6x6 wall-free database folder against the reference sample",
    )
    ap.add_argument("--shards", type=Path, help="only time the shards of the boards listed in this file")
    ap.add_argument("--lines", type=Path, help="with --shards: write the lines found to this file")
    ap.add_argument("--skip-complete", action="store_true", help="skip the 4x4 and 5x5 runs")
    ap.add_argument("--reference-5x5", action="store_true", help="the Python reference on 5x5 too (slow)")
    args = ap.parse_args()
    if not native_available():
        print(
            "the compiled search is not built: these figures would be the Python reference's", file=sys.stderr
        )
    if args.check is not None:
        check_against_sample(args.check, args.reference)
        return 0
    if args.shards is not None:
        time_shards(args.shards, args.lines)
        return 0
    rng = random.Random(args.seed)
    if not args.skip_complete:
        print("1. complete databases, one core")
        print(
            "| board | walls | parts | layouts | positions searched | puzzles | wall | CPU "
            "| positions per CPU s | Python reference CPU |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for size in (4, 5):
            for walls in ((0, 0), (0, 1), (0, 2)):
                complete(size, walls, args.reference_5x5)
    print("2. 6x6 without walls, a random sample of parts")
    job = Job(6, 2)
    every = parts(job)
    lines, rate, _ = sample_parts(job, rng.sample(every, args.sample), len(every), "0 walls")
    six = layouts(6, 2)
    print(f"    layouts of 6x6 by number of walls (independent count): {six}")
    for k, count in sorted(six.items()):
        print(
            f"    {k} walls: {count:,} layouts; at {rate:,.0f} positions per CPU second, searching "
            f"them all (an upper bound: clusters without a win are skipped) takes "
            f"{count / rate / 3600:,.1f} CPU hours"
        )
    print(f"    sample puzzles by length: {lengths(sorted(lines, key=lambda s: -int(s[:2])))}")
    print("3. 6x6 with one or two walls, random samples of parts")
    six_walls(rng, args.wall_sample, args.reference)
    if args.reference.exists():
        reference_parts(rng, args.reference_parts, args.reference)
    print(f"peak resident size of this process: {peak_mb():.0f} MB")
    if args.full6 is not None:
        print("4. the complete 6x6 database without walls, process pool")
        t0, c0 = time.perf_counter(), cpu()
        full, stats = build(job, out=str(args.full6), workers=args.workers)
        wall, used = time.perf_counter() - t0, cpu() - c0
        print(
            f"  {len(full):,} puzzles, {stats.positions:,} positions, {wall / 60:.1f} min wall, "
            f"{used / 60:.1f} CPU min ({stats.positions / max(used, 1e-9):,.0f} positions per CPU second)"
        )
        print(f"  by length: {lengths(full)}")
        if args.reference.exists():
            check_against_sample(args.full6, args.reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
