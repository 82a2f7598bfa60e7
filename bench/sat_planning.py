"""SAT planning with and without the canonical order of commuting moves, side by side in one run.

    .venv/bin/python bench/sat_planning.py [--repeat N] [--only NAME,...] [--hard]
                                           [--encodings canonical,plain,canonical-alone]
    .venv/bin/python bench/sat_planning.py --told [--repeat N]

Each run is a fresh subprocess (its peak resident size, ``ru_maxrss``, is its own) that plans one
board with ``rushhour.logic.planner.plan`` and prints one JSON record: the total wall-clock and CPU
seconds, the seconds spent on the last refuted length (no plan of optimum - 1 moves: the proof of the
lower bound) and on the length that is satisfiable (the plan found), and the peak resident size.  The
encodings (``canonical``: the default, ``plain``: ``canonical=False``, and on request
``canonical-alone``: the canonical formula without the plain formula's turns) alternate within each
repeat, so that they see the same load; the table shows medians and the ratio to plain of each
column.  ``--hard`` adds crowd12-01 from 16 moves (``min_moves=16``: the lengths 16 and 17 only;
about 15 minutes for the plain encoding on a shared machine).

``--told`` plans 6x6 boards of 20 to 41 moves from a told lower bound of 20 (``--min-moves 20``), the
default encoding (from a told bound the plain formula first, the canonical one joining when a length
takes more than ``HARD_CONFLICTS``) against ``told-at-once``, the rule before it and the baseline of
that table: the canonical formula taking turns from the first length when a bound is told.  Each
board is planned from the relaxed bound too, by the default encoding alone (no ratio: the rule there
did not change), for what a told bound saves or costs.

The seconds per length come from the planner's ``watch`` hook, called before each length is solved:
the time from the call for k to the call for k + 1 is the solve of k plus the building of step k + 1.
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
LARGE = HERE / "large"
# name: (board reference, min_moves)
BOARDS: dict[str, tuple[str, int | None]] = {
    "6x6-33": ("BBBCCKDDDIoKAAHIoLGoHEELGoFFJoooooJo", None),
    "6x6-36": ("BBBCCKooHDDKAAHoJLGEEEJLGooIFFoooIoo", None),
    "6x6-51": ("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo", None),
    "crowd9-01": (f"{LARGE / 'boards9.txt'}:1", None),
    "crowd12-02": (f"{LARGE / 'crowded.txt'}:2", None),
    "crowd11-01": (f"{LARGE / 'crowded.txt'}:3", None),
    "crowd10-01": (f"{LARGE / 'crowded.txt'}:4", None),
}
HARD: dict[str, tuple[str, int | None]] = {"crowd12-01@16": (f"{LARGE / 'crowded.txt'}:1", 16)}
#: 6x6 boards of 20 to 41 moves, each planned from 20 moves and from the relaxed bound
TOLD: dict[str, tuple[str, int | None]] = {
    f"{level}{at}": (level, low)
    for level in ("advanced:15", "advanced:35", "advanced:40", "expert:1", "expert:20", "expert:40")
    for at, low in (("@20", 20), ("", None))
}
ENCODINGS = ("canonical", "plain", "canonical-alone", "told-at-once")


def child(ref: str, min_moves: int | None, encoding: str) -> None:
    """Plan one board with one encoding and print one JSON record (run in a subprocess)."""
    from rushhour.levels import resolve_board
    from rushhour.logic import planner

    if encoding == "canonical-alone":  # every length, no turns of the plain formula
        planner.PROBE_CONFLICTS = 0
        planner.HARD_CONFLICTS = -1
    if encoding == "told-at-once":  # the turns from the first length, as a told bound once brought
        planner.HARD_CONFLICTS = -1
    board = resolve_board(ref).board
    stamps: dict[int, float] = {}
    began = time.perf_counter()

    def watch(refuted: int) -> None:
        stamps[len(stamps) + 1] = time.perf_counter() - began

    result = planner.plan(board, min_moves=min_moves, canonical=encoding != "plain", watch=watch)
    total = time.perf_counter() - began
    k = result.length
    usage = resource.getrusage(resource.RUSAGE_SELF)
    record = {
        "length": k,
        "optimal": result.optimal,
        "seconds": total,
        "cpu": usage.ru_utime + usage.ru_stime,
        "refute": None if k is None or k - 1 not in stamps else stamps[k] - stamps[k - 1],
        "find": None if k is None else total - stamps[k],
        "maxrss_mb": usage.ru_maxrss / 1024,
    }
    print(json.dumps(record))


def run_one(ref: str, min_moves: int | None, encoding: str) -> dict[str, object]:
    command = [sys.executable, __file__, "--child", ref, str(min_moves or 0), encoding]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"failed": tail}
    record: dict[str, object] = json.loads(lines[-1])
    return record


def median(runs: list[dict[str, object]], key: str) -> float | None:
    values = [float(r[key]) for r in runs if r.get(key) is not None]  # type: ignore[arg-type]
    return statistics.median(values) if values else None


def row(
    name: str, encoding: str, runs: dict[str, list[dict[str, object]]], baseline: str | None = "plain"
) -> str:
    """A table row: ``encoding``'s medians against ``baseline``'s (None: its medians alone)."""
    both = (encoding,) if baseline is None else (encoding, baseline)
    failed = [r for e in both for r in runs[e] if "failed" in r]
    if failed:
        return f"| {name} | {encoding} | FAILED: {failed[0]['failed']} |"
    lengths = {str(r["length"]) for e in both for r in runs[e]}
    cells = [name, encoding, "/".join(sorted(lengths))]
    for key, unit in (("refute", "s"), ("find", "s"), ("seconds", "s"), ("cpu", "s"), ("maxrss_mb", "MB")):
        new = median(runs[encoding], key)
        if baseline is None:
            cells.append("-" if new is None else f"{new:.2f} {unit}")
            continue
        old = median(runs[baseline], key)
        if new is None or old is None:
            cells.append("-")
            continue
        ratio = f" (x{new / old:.2f})" if old > 0 else ""
        cells.append(f"{new:.2f} / {old:.2f} {unit}{ratio}")
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="board names, comma-separated")
    parser.add_argument("--hard", action="store_true", help="also crowd12-01 from 16 moves")
    parser.add_argument("--encodings", default=None, help=f"from {', '.join(ENCODINGS)}")
    parser.add_argument("--told", action="store_true", help="6x6 boards from a told bound of 20 moves")
    parser.add_argument("--child", nargs=3, metavar=("REF", "MIN", "ENCODING"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        ref, low, encoding = args.child
        child(ref, int(low) or None, encoding)
        return
    boards = TOLD if args.told else dict(BOARDS) | (HARD if args.hard else {})
    if args.only:
        boards = {name: boards[name] for name in args.only.split(",")}
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    baseline = "told-at-once" if args.told else "plain"
    encodings = (args.encodings or f"canonical,{baseline}").split(",")
    if baseline not in encodings or any(e not in ENCODINGS for e in encodings):
        parser.error(f"--encodings are from {', '.join(ENCODINGS)} and hold {baseline}, the baseline")
    print("| board | encoding | length | refute optimum-1 | find the optimum | total | CPU | peak RSS |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| (each: encoding / {baseline}, medians of {args.repeat}) | | | | | | | |")
    for name, (ref, low) in boards.items():
        told_rows = args.told and low is not None
        mine = encodings if told_rows or not args.told else ["canonical"]  # from the relaxed bound: alone
        runs: dict[str, list[dict[str, object]]] = {e: [] for e in mine}
        for k in range(args.repeat):
            for encoding in mine if k % 2 == 0 else mine[::-1]:
                runs[encoding].append(run_one(ref, low, encoding))
        for encoding in mine:
            if encoding != baseline:
                print(row(name, encoding, runs, baseline if baseline in runs else None), flush=True)
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
