"""The cluster analyses a run keeps (``KnownClusters`` of rushhour.search.analysis) against searching
every position it asks about, in the same process.

    python bench/known_clusters.py [--size 9] [--min-moves 30] [--seed 1] [--tries 20]
                                   [--harden large:9 --harden classic:6] [--harden-tries 300] [--rounds 3]

First ``--tries`` generator tries of ``--seed`` (``--size`` boards, ``--min-moves``), then ``harden`` on
each ``--harden`` board for ``--harden-tries`` candidates (seed 1), each way in turn, ``--rounds``
times: the baseline keeps no answer (``KNOWN_CLUSTERS`` 0: every position asked about is searched),
the subject keeps them as the program does.  Printed for each: the median CPU seconds of a round, the
ratio of the baseline's median to the subject's, the searches made and the positions asked about.  The
two ways must make the same puzzles and the same reports, or the bench says so and exits 1.  Peak
memory of the process at the end.  Run from the repository root.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rushhour import generator
from rushhour.board import Board
from rushhour.errors import RushHourError
from rushhour.harden import harden
from rushhour.levels import level
from rushhour.search import analysis
from rushhour.search.analysis import Analysis, KnownClusters

Work = Callable[[], list[object]]


class Count:
    """Positions asked about and searches made while the bench's work runs."""

    def __init__(self) -> None:
        self.asked = self.searched = 0


@contextmanager
def counted(count: Count, keep: bool) -> Iterator[None]:
    """KnownClusters as it is (``keep``) or keeping nothing (every question a search), the questions and
    the searches counted."""
    ask, search, size = KnownClusters.analyze, analysis.analyze, analysis.KNOWN_CLUSTERS

    def counted_ask(self: KnownClusters, board: Board, **limits: int | float | None) -> Analysis:
        count.asked += 1
        return ask(self, board, **limits)  # type: ignore[arg-type]

    def counted_search(board: Board, **limits: str | int | float | None) -> Analysis:
        count.searched += 1
        return search(board, **limits)  # type: ignore[arg-type]

    KnownClusters.analyze = counted_ask  # type: ignore[method-assign]
    analysis.analyze = counted_search
    analysis.KNOWN_CLUSTERS = size if keep else 0
    try:
        yield
    finally:
        KnownClusters.analyze = ask  # type: ignore[method-assign]
        analysis.analyze = search
        analysis.KNOWN_CLUSTERS = size


def generator_work(settings: generator.Settings, tries: int) -> Work:
    def work() -> list[object]:
        out: list[object] = []
        for number in range(tries):
            done = generator.attempt(settings, number)
            out.append((done.reason, None if done.puzzle is None else done.puzzle.to_dict()))
        return out

    return work


def harden_work(ref: str, tries: int) -> Work:
    name, _, number = ref.partition(":")
    if not number.isdigit():
        raise RushHourError(f"--harden takes a built-in board as PACK:NUMBER, not {ref!r}")
    board = level(name, int(number)).board

    def work() -> list[object]:
        found = harden(board, max_tries=tries, time_limit=None, seed=1)
        return [(f.hardest.length, tuple(f.hardest.board.rows())) for f in found]

    return work


def measure(label: str, work: Work, rounds: int) -> bool:
    """Both ways ``rounds`` times in turn; prints the line of ``label``; False when they disagree."""
    times: dict[bool, list[float]] = {True: [], False: []}
    counts: dict[bool, Count] = {}
    answers: dict[bool, list[object]] = {}
    for _ in range(rounds):
        for keep in (False, True):
            count = Count()
            with counted(count, keep):
                began = time.process_time()
                answers[keep] = work()
                times[keep].append(time.process_time() - began)
            counts[keep] = count
    base, kept = statistics.median(times[False]), statistics.median(times[True])
    same = answers[True] == answers[False]
    print(f"{label:<22} {base:9.2f} {kept:9.2f} {base / kept:6.2f}  {counts[False].searched:9,} "
          f"{counts[True].searched:9,} {counts[True].asked:9,}  {'same' if same else 'DIFFERENT'}")
    return same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=9, help="generator board side")
    ap.add_argument("--min-moves", type=int, default=30, help="generator target")
    ap.add_argument("--seed", type=int, default=1, help="generator seed")
    ap.add_argument("--tries", type=int, default=20, help="generator tries (0: none)")
    ap.add_argument("--harden", action="append", help="a board to harden (default large:9 and classic:6)")
    ap.add_argument("--harden-tries", type=int, default=300, help="candidate boards a harden run tries")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of each way")
    args = ap.parse_args()
    try:
        if args.tries < 0 or args.harden_tries < 1 or args.rounds < 1:
            raise RushHourError("--tries must be at least 0, --harden-tries and --rounds at least 1")
        settings = generator.Settings(width=args.size, height=args.size, min_moves=args.min_moves,
                                      seed=args.seed).checked()
        refs = args.harden or ["large:9", "classic:6"]
        label = f"generate {args.size}x{args.size} {args.min_moves}+"
        jobs = [(label, generator_work(settings, args.tries))] if args.tries else []
        jobs += [(f"harden {ref}", harden_work(ref, args.harden_tries)) for ref in refs]
    except RushHourError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"{args.rounds} rounds of each way; CPU seconds a round (median)")
    head = f"{'every':>9} {'kept':>9} {'ratio':>6}  {'searches':>9} {'kept':>9} {'asked':>9}"
    print(f"{'work':<22} {head}  answers")
    same = all([measure(label, work, args.rounds) for label, work in jobs])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.1f} MiB")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
