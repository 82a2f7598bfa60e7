"""Fuzzing every input path: mutated boards through the public loader, the move parser and the game's
command reader; hostile command lines; games winning at the same instant; kills during saves.

    .venv/bin/python bench/fuzz.py [--inputs 100000] [--cli 500] [--pairs 50] [--kills 500] [--seed 1]

Counts printed per part (target: 0 other, 0 hangs, 0 lost wins, 0 corrupt files):

* in-process inputs: ``tried`` texts, ``accepted`` (loaded, and every writer that can hold what was
  loaded gives it back), ``refused`` (a RushHourError), ``other`` (any other exception, or a failed
  round trip), ``hangs`` (over ``--input-seconds`` for one input), and the inputs per second;
* command lines: ``tried``, exit 0/1 ``accepted``, 2 ``refused`` with one ``error:`` line, 3
  ``stopped`` by a limit, ``other`` (a traceback, another status, a refusal without its error line),
  ``hangs`` (over ``--cli-seconds``), and the median run time;
* simultaneous wins: pairs of processes winning two levels at once on a fresh file; lost wins;
* kills during saves: a process saving win after win killed with SIGKILL at a random instant; corrupt
  files, lost wins (saves that had returned), temporary files left after the next save.

The baseline of the in-process part, measured in the same run, is the loader on the unmutated seeds
(the built-in levels in every format): the ratio says what hostile input costs per text.  Peak memory
is the process's own maximum resident size.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rushhour.board import Move  # noqa: E402
from rushhour.errors import RushHourError  # noqa: E402
from rushhour.formats import parse_text  # noqa: E402
from rushhour.play.game import Game  # noqa: E402
from tests.fuzzing import (  # noqa: E402
    FORMATS,
    kill_during_saves,
    mutate,
    round_trips,
    seeds,
    wins_together,
)


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def fuzz_inputs(
    label: str,
    texts: Callable[[random.Random], str],
    check: Callable[[str], bool],
    n: int,
    seed: int,
    limit: float,
) -> tuple[Counter[str], float]:
    """Feed ``n`` texts to ``check`` (True: accepted); count the outcomes."""
    rng = random.Random(f"{seed}:{label}")
    counts: Counter[str] = Counter()
    began = time.perf_counter()
    for _ in range(n):
        text = texts(rng)
        counts["tried"] += 1
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            counts["accepted" if check(text) else "refused"] += 1
        except Hang:
            counts["hangs"] += 1
            print(f"  hang: {text[:80]!r}", file=sys.stderr)
        except RushHourError:
            counts["refused"] += 1
        except Exception as err:  # noqa: BLE001 - counting exactly these is the point
            counts["other"] += 1
            if counts["other"] <= 5:
                print(f"  other: {type(err).__name__}: {err} on {text[:80]!r}", file=sys.stderr)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return counts, time.perf_counter() - began


def loader(fmt: str) -> Callable[[str], bool]:
    def check(text: str) -> bool:
        for entry in parse_text(text, fmt=fmt):
            round_trips(entry)
        return True

    return check


def move_check(text: str) -> bool:
    move = Move.parse(text)
    if Move.parse(str(move)) != move:
        raise AssertionError(f"{move} does not parse back")
    return True


def command_reader(games: list[Game]) -> Callable[[str], bool]:
    def check(text: str) -> bool:
        game = games[zlib.crc32(text.encode("utf-8", "replace")) % len(games)]
        move = game.resolve(text)
        if move.vehicle not in game.position.names:
            raise AssertionError(f"{move} names no vehicle")
        return True

    return check


def row(label: str, counts: Counter[str], seconds: float, base_rate: float | None = None) -> str:
    rate = counts["tried"] / seconds if seconds else 0.0
    ratio = f"x{rate / base_rate:.2f}" if base_rate else "-"
    return (
        f"| {label} | {counts['tried']:,} | {counts['accepted']:,} | {counts['refused']:,} | "
        f"{counts['other']} | {counts['hangs']} | {rate:,.0f} | {ratio} |"
    )


# --- hostile command lines ---------------------------------------------------------------------------

HOSTILE_NUMBERS = [
    "²",
    "9" * 5000,
    "99999999999999999999999",
    "1e9999",
    "1e100000000",
    "-1",
    "0",
    "nan",
    "inf",
    "1_000",
    "5e6",
    "0.0001",
    "3.14159",
    "",
    " ",
    "0x10",
    "٣",
    "1e6",
]


def hostile_files(folder: Path, rng: random.Random, texts: dict[str, list[str]]) -> list[str]:
    fifo = folder / "fifo.txt"
    if not fifo.exists():
        os.mkfifo(fifo)
    big = folder / "big.txt"
    if not big.exists():
        big.write_text("A." * 64000 + "\n")
    deep = folder / "deep.json"
    if not deep.exists():
        deep.write_text("[" * 100_000)
    out = [str(fifo), str(big), str(deep), "/dev/zero", "/dev/null", str(folder), "/nonexistent/x.txt"]
    for k in range(40):
        fmt = rng.choice(FORMATS)
        path = folder / f"m{k}.{'csv' if fmt == 'csv' else 'json' if fmt == 'json' else 'txt'}"
        path.write_text(mutate(rng, rng.choice(texts[fmt])))
        out.append(str(path))
    return out


def hostile_command(rng: random.Random, files: list[str], folder: Path) -> tuple[list[str], str]:
    """A command line and its stdin."""
    board = rng.choice(
        [
            *files,
            "classic:1",
            "classic:²",
            "classic:" + "9" * 5000,
            "beginner:0",
            "x" * 300,
            "AA....\n" * 6,
            mutate(rng, "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"),
        ]
    )
    number = rng.choice(HOSTILE_NUMBERS)
    limit = ["--time-limit", "5"]
    choices: list[tuple[list[str], str]] = [
        (["show", board], ""),
        (["show", board, "--json"], ""),
        (["moves", board, "--oracle", rng.choice(["sat", "rules"])], ""),
        (["convert", board, "--to", rng.choice(FORMATS)], ""),
        (
            ["convert", "classic:1", "--to", "json", "--out", rng.choice([*files, str(folder / "new.json")])],
            "",
        ),
        (["solve", board, *limit], ""),
        (["solve", "classic:1", "--max-states", number], ""),
        (["solve", "classic:1", "--max-memory", number, *limit], ""),
        (["solve", "classic:1", "--time-limit", number, "--max-states", "200000"], ""),
        (["solve", "classic:1", "--timed", "--car-seconds", number, *limit], ""),
        (["solve", "classic:1", "--hands", f"{number},{rng.choice(HOSTILE_NUMBERS)}", *limit], ""),
        (["solve", "classic:1", "--engine", rng.choice(["random", "improve"]), "--seed", number, *limit], ""),
        (["solve", "classic:1", "--engine", "sat", "--max-moves", number, *limit], ""),
        (["analyze", board, *limit], ""),
        (["explain", "classic:1", rng.choice(["A+" + number, number, "A" + number, mutate(rng, "A+1")])], ""),
        (["encoding", board], ""),
        (["theorems", "--size", rng.choice([f"{number}x6", f"6x{number}", "3x3", mutate(rng, "4x4")])], ""),
        (
            [
                "generate",
                "--size",
                rng.choice(["6x6", f"{number}x6"]),
                "--count",
                rng.choice(["1", number]),
                "--time-limit",
                rng.choice(["2", number]),
                "--max-tries",
                "50",
            ],
            "",
        ),
        (["generate", "--seed", number, "--max-tries", "5", "--time-limit", "3"], ""),
        (
            ["play", board, "--no-save", "--no-color"],
            "\n".join(
                rng.choice(["²", "9" * 5000, "A+1", "1", "u", "?", number, mutate(rng, "B-2"), "\x00"])
                for _ in range(6)
            )
            + "\nq\n",
        ),
        (["levels"], ""),
        # the commands of puzzle making and of the logic views
        (["harden", board, "--time-limit", "2"], ""),
        (["harden", "classic:1", "--time-limit", number], ""),
        (["harden", "classic:1", "--max-tries", number, "--seed", rng.choice(["1", number]), *limit], ""),
        (
            [
                "harden",
                board,
                "--max-tries",
                "20",
                "--out",
                rng.choice([*files, str(folder / "hard.txt"), ""]),
                "--format",
                rng.choice([*FORMATS, mutate(rng, "json")]),
                *rng.choice([[], ["--json"], ["--keep-vehicles"]]),
            ],
            "",
        ),
        (["edit", board], ""),  # no terminal: refused before any screen is drawn
        (["edit", "--size", rng.choice([f"{number}x6", mutate(rng, "9x9"), "16x16"])], ""),
        (["generate", "--walls", number, "--max-tries", "5", *limit], ""),
        (
            [
                "generate",
                "--vehicles",
                rng.choice([f"{number}-9", f"4-{number}", mutate(rng, "8-12")]),
                *limit,
            ],
            "",
        ),
        (
            ["generate", "--min-moves", number, "--max-moves", rng.choice(["3", number]), "--max-tries", "5"],
            "",
        ),
        (["generate", "--trucks", number, "--wrap", "--max-tries", "5", *limit], ""),
        (
            [
                "generate",
                "--method",
                rng.choice(["anneal", "rewind", "walk", mutate(rng, "anneal")]),
                "--max-tries",
                "5",
                "--out",
                rng.choice([*files, str(folder / "made"), ""]),
                "--format",
                rng.choice(FORMATS),
                "--name",
                rng.choice(["mine", "classic", "x" * 300, mutate(rng, "mine"), "../up"]),
                *limit,
            ],
            "",
        ),
        (["generate", "--jobs", number, "--max-tries", "3", *limit], ""),
        (["levels", rng.choice(["classic", "mine", mutate(rng, "classic"), "x" * 300])], ""),
        (["play", rng.choice(["mine:1", "mine:" + number, mutate(rng, "mine:3")]), "--no-save"], "q\n"),
        (
            [
                "count",
                "--size",
                rng.choice(["3x3", f"{number}x3", mutate(rng, "4x3")]),
                *rng.choice([[], ["--likelihood", mutate(rng, "CMR(1,1)")], [mutate(rng, "Won")]]),
            ],
            "",
        ),
        (["prove", mutate(rng, "Won -> Red(2,5)"), "--size", rng.choice(["3x3", "4x4", number])], ""),
        (["prove", mutate(rng, "~(H2(0,0) & V2(0,0))"), board, "--position"], ""),
        (["--version"], ""),
    ]
    return rng.choice(choices)


def fuzz_cli(n: int, seed: int, limit: float, texts: dict[str, list[str]]) -> tuple[Counter[str], float]:
    rng = random.Random(f"{seed}:cli")
    counts: Counter[str] = Counter()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = hostile_files(folder, rng, texts)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(folder / "data")}
        for _ in range(n):
            argv, stdin = hostile_command(rng, files, folder)
            argv = [a.replace("\x00", "") for a in argv]  # no command line can carry a NUL byte
            counts["tried"] += 1
            began = time.perf_counter()
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "rushhour", *argv],
                    input=stdin,
                    capture_output=True,
                    text=True,
                    timeout=limit,
                    env=env,
                    errors="replace",
                )
            except subprocess.TimeoutExpired:
                counts["hangs"] += 1
                print(f"  hang: {[a[:40] for a in argv]}", file=sys.stderr)
                continue
            times.append(time.perf_counter() - began)
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            code = done.returncode
            if "Traceback" in done.stderr or code not in (0, 1, 2, 3):
                kind = "other"
            elif code == 2:
                kind = "refused" if lines and lines[-1].startswith("error: ") else "other"
            elif code == 3:
                kind = "stopped"
            else:
                kind = "accepted"
            counts[kind] += 1
            if kind == "other" and counts["other"] <= 5:
                print(f"  other ({code}): {[a[:40] for a in argv]}: {done.stderr[-300:]!r}", file=sys.stderr)
    return counts, statistics.median(times) if times else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="mutated inputs per target")
    parser.add_argument("--cli", type=int, default=500, help="hostile command lines")
    parser.add_argument("--pairs", type=int, default=50, help="simultaneous-win pairs")
    parser.add_argument("--kills", type=int, default=500, help="kills during saves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--input-seconds", type=float, default=5.0, help="one input over this: a hang")
    parser.add_argument("--cli-seconds", type=float, default=60.0, help="one command over this: a hang")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    texts = seeds()
    grids = [parse_text(t)[0] for t in texts["grid"]]
    games = [
        Game(e.board, legal_moves=lambda b: b.legal_moves("moves"), solver=lambda b: None) for e in grids
    ]
    total = Counter[str]()

    print(f"in-process inputs ({args.inputs:,} per target, seed {args.seed}):")
    print("| target | tried | accepted | refused | other | hangs | inputs/s | rate vs baseline |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    all_seeds = [t for fmt in FORMATS for t in texts[fmt]]
    base, base_s = fuzz_inputs(
        "baseline",
        lambda r: r.choice(all_seeds),
        loader(None),
        min(args.inputs, 5000),  # type: ignore[arg-type]
        args.seed,
        args.input_seconds,
    )
    print(row("baseline: unmutated seeds, detected", base, base_s, base["tried"] / base_s))
    base_rate = base["tried"] / base_s
    for fmt in FORMATS:
        for detect in (False, True):
            label = f"{fmt} {'detected' if detect else 'as ' + fmt}"
            counts, s = fuzz_inputs(
                label,
                lambda r, f=fmt: mutate(r, r.choice(texts[f])),
                loader(None if detect else fmt),
                args.inputs,
                args.seed,
                args.input_seconds,
            )  # type: ignore[arg-type]
            total.update(counts)
            print(row(label, counts, s, base_rate))
    moves = ["A+1", "B-2", "AA+3", "car9-1", "X+12", "Q7+1"]
    counts, s = fuzz_inputs(
        "moves", lambda r: mutate(r, r.choice(moves)), move_check, args.inputs, args.seed, args.input_seconds
    )
    total.update(counts)
    print(row("move notation", counts, s))
    lines = ["A+1", "B-2", "3", "12", "a+1", "C+1"]
    counts, s = fuzz_inputs(
        "commands",
        lambda r: mutate(r, r.choice(lines)),
        command_reader(games),
        args.inputs,
        args.seed,
        args.input_seconds,
    )
    total.update(counts)
    print(row("game command reader", counts, s))

    print(f"\nhostile command lines ({args.cli}, {args.cli_seconds:g} s each at most):")
    cli, median = fuzz_cli(args.cli, args.seed, args.cli_seconds, texts)
    print("| tried | accepted (0/1) | refused (2) | stopped (3) | other | hangs | median run |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {cli['tried']} | {cli['accepted']} | {cli['refused']} | {cli['stopped']} | {cli['other']} | "
        f"{cli['hangs']} | {median:.2f} s |"
    )

    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        lost = wins_together(Path(tmp), args.pairs)
        print(
            f"\nsimultaneous wins: {args.pairs} pairs, {lost} lost wins ({time.perf_counter() - began:.0f} s)"
        )
        began = time.perf_counter()
        corrupt, lost_k, stale = kill_during_saves(Path(tmp), args.kills, args.seed)
        print(
            f"kills during saves: {args.kills} kills, {corrupt} corrupt files, {lost_k} lost wins, "
            f"{stale} temporary files left ({time.perf_counter() - began:.0f} s)"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of the in-process part: {peak:.0f} MB")
    bad = total["other"] + total["hangs"] + cli["other"] + cli["hangs"] + lost + corrupt + lost_k + stale
    print("target met" if bad == 0 else f"TARGET MISSED: {bad} bad outcomes")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
