"""``rushhour harden``: the hardest position of a board's reachable set, then nearby boards that are
longer (rushhour.harden), each improvement printed as it is found."""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from rushhour.cli.core import (
    add_board,
    add_color_flags,
    add_format_option,
    board_summary,
    color_wanted,
    draw,
    examples,
    given,
    option_count_or_zero,
    option_seconds,
    refuse,
    refuse_color_without_drawing,
)
from rushhour.cli.documents import emit, entry_ref
from rushhour.errors import LimitReachedError
from rushhour.files import check_file_target, write_text_atomic
from rushhour.formats import fogleman, write_board
from rushhour.harden import Hardening, Improvement, improvements
from rushhour.levels import resolve_board
from rushhour.text import plural

DEFAULT_SECONDS = 10.0
EXIT_DONE, EXIT_STOPPED = 0, 3


def register(sub: Any) -> None:
    p = sub.add_parser(
        "harden",
        help="make a board harder: its hardest position, then longer boards nearby",
        description=(
            "Print the hardest position of BOARD's reachable set (the position farthest from a win), then "
            "search nearby boards (a vehicle shifted, moved, turned, resized, added or removed; a wall "
            "moved) for longer optimal solutions, printing each improvement as it is found, solved again "
            "and replayed. Exit status: 0, 2 for bad input (an unsolvable board), 3 when the time limit "
            "stops the exploration of BOARD's reachable set before its hardest position is known."
        ),
        epilog=examples(
            "rushhour harden classic:1 --time-limit 2",
            "rushhour harden classic:5 --keep-vehicles --max-tries 200 --seed 3",
            "rushhour harden classic:12 --time-limit 2 --json --out harder.txt",
        ),
    )
    add_board(p)
    p.add_argument(
        "--time-limit",
        type=option_seconds,
        default=DEFAULT_SECONDS,
        metavar="S",
        help=f"search for S seconds (default {DEFAULT_SECONDS:g})",
    )
    p.add_argument(
        "--max-tries", type=option_count_or_zero, metavar="N", help="stop after N candidate boards"
    )
    p.add_argument(
        "--keep-vehicles",
        action="store_true",
        help="change only where the vehicles stand: the same vehicles (names, lengths) and walls",
    )
    p.add_argument(
        "--seed", type=option_count_or_zero, metavar="S", help="random seed (default: a fresh one, reported)"
    )
    p.add_argument("--json", action="store_true", help="one rushhour.harden document per report (JSON Lines)")
    p.add_argument("--out", metavar="FILE", help="write the best board to FILE, again at each improvement")
    add_format_option(p, "the format of --out (default grid)")
    add_color_flags(p)
    p.set_defaults(func=cmd_harden)


def cmd_harden(args: argparse.Namespace) -> int:
    if args.json:
        refuse_color_without_drawing(args, "--json")
    if given(args, "fmt") and not args.out:
        refuse("--format is the format of --out: it does not go without --out FILE")
    if args.out:
        check_file_target(args.out)
    entry = resolve_board(args.board)
    if args.out:  # a board the format of --out cannot hold is refused before any work
        write_board(entry.board, args.fmt, {"name": "hardened"})
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    found = improvements(
        entry.board,
        time_limit=args.time_limit,
        max_tries=args.max_tries,
        keep_vehicles=args.keep_vehicles,
        seed=seed,
        # the Fogleman format names the vehicles by its letters: no board of --out gets more
        max_vehicles=fogleman.MAX_VEHICLES if args.out and args.fmt == "fogleman" else None,
    )
    report = _Report(args, entry, seed)
    began = time.perf_counter()
    number = 0
    try:
        for number, step in enumerate(found, 1):
            report.show(number - 1, step)
    except LimitReachedError as err:  # the exploration of BOARD itself: every report so far is kept
        report.stopped(number, err, time.perf_counter() - began, found.tried)
        return EXIT_STOPPED
    report.close(number, found)
    return EXIT_DONE


class _Report:
    """Prints each report (text or JSON) and keeps --out up to date."""

    def __init__(self, args: argparse.Namespace, entry: Any, seed: int) -> None:
        self.args, self.entry, self.seed = args, entry, seed
        self.color = not args.json and color_wanted(args)
        self.first: Improvement | None = None
        self.last: Improvement | None = None

    def show(self, number: int, step: Improvement) -> None:
        self.first = self.first or step
        self.last = step
        h = step.hardest
        if self.args.out:
            meta = {
                "name": "hardened",
                "moves": str(h.length),
                "cluster": str(h.reachable),  # as generate's headers say it: a Fogleman line needs it
                "seed": str(self.seed),
            }
            write_text_atomic(self.args.out, write_board(h.board, self.args.fmt, meta))
        if self.args.json:
            body = {
                "source": entry_ref(self.entry),
                "report": number,
                "start": number == 0,
                "seed": self.seed,
                "status": "found",
            }
            emit("harden", {**body, **step.to_dict(), "message": None})
            return
        if number == 0:
            print(f"{self.entry.meta.get('name') or self.entry.label}: {board_summary(self.entry.board)}")
            where = f"Hardest position of its reachable set ({plural(h.reachable, 'position')})"
            print(f"{where}: {plural(h.length, 'move')}")
        else:
            print(
                f"Improvement {number}: {plural(h.length, 'move')} "
                f"({plural(h.reachable, 'reachable position')}), "
                f"after {plural(step.tried, 'candidate')} in {step.seconds:.1f} s"
            )
        print(draw(h.board, self.color))
        print("Solution: " + " ".join(str(m) for m in h.moves), flush=True)

    def _unverified(self, number: int, note: str, search: Hardening) -> None:
        """The last document of a run that found a board it could not verify in time: nothing reported
        (``board``, ``length`` and ``reachable`` null), the note in ``message``."""
        body = {
            "source": entry_ref(self.entry),
            "report": number,
            "start": False,
            "seed": self.seed,
            "status": "unverified",
            "board": None,
            "length": None,
            "moves": [],
            "reachable": None,
            "tried": search.tried,
            "seconds": round(search.seconds, 3),
            "message": note,
        }
        emit("harden", body)

    def stopped(self, number: int, err: LimitReachedError, seconds: float, tried: int) -> None:
        """A limit stopped the work (the exploration of BOARD's reachable set): with ``--json`` a last
        document with ``status`` stopped and nothing found, else the message on stderr, as ``analyze``
        says it."""
        if self.args.json:
            body = {
                "source": entry_ref(self.entry),
                "report": number,
                "start": False,
                "seed": self.seed,
                "status": "stopped",
                "board": None,
                "length": None,
                "moves": [],
                "reachable": None,
                "tried": tried,
                "seconds": round(seconds, 3),
                "message": str(err),
            }
            emit("harden", body)
            return
        print(f"{err} (see --time-limit)", file=sys.stderr)

    def close(self, number: int, search: Hardening) -> None:
        """The run's end: a board found too late to be solved again is said (with ``--json`` in a last
        document of ``status`` unverified), then, as text, where the search got and what it cost."""
        late = search.unverified
        if late is not None:
            note = (
                f"a board of {plural(late, 'move')} (by the analysis of its reachable set) was found but "
                "could not be solved again within the time limit: it is not reported"
            )
            if self.args.json:
                self._unverified(number, note, search)
            else:
                print(f"Not shown: {note}", file=sys.stderr)
        if self.args.json or self.first is None or self.last is None:
            return
        a, b = self.first.hardest.length, self.last.hardest.length
        verdict = (
            f"best {plural(b, 'move')}, from {a}"
            if b > a
            else f"no longer board found than {plural(a, 'move')}"
        )
        effort = f"{plural(search.tried, 'candidate board')} in {search.seconds:.1f} s"
        print(
            f"{verdict}, {effort} (seed {self.seed}); every board shown was solved again and its solution "
            "replayed",
            file=sys.stderr,
        )
