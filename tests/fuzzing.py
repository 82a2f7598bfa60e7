"""Hostile inputs and hostile timing, shared by the property tests and ``bench/fuzz.py``.

* :func:`mutate` turns a valid text into a damaged one (characters inserted, deleted, repeated,
  swapped for digits that ``str.isdigit`` accepts but :func:`int` refuses, huge numbers, line breaks,
  deep brackets...).
* :func:`seeds` gives valid texts of every format to start from.
* :func:`round_trips` checks that every writer that can hold an entry gives it back.
* :func:`wins_together` runs pairs of processes that win at the same instant and counts lost wins.
* :func:`kill_during_saves` kills processes in the middle of saving and counts corrupt files and
  lost wins (a win whose save had returned must be in the file).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from rushhour.errors import FormatError, RushHourError
from rushhour.formats import Entry, csvfmt, grid, parse_text, write_board
from rushhour.levels import packs
from rushhour.play.saves import Saves

FORMATS = ("grid", "fogleman", "csv", "json")
ROOT = Path(__file__).resolve().parent.parent

#: pieces of text that broke, or could break, a reader
NASTY = [
    "²",
    "٣",
    "９",
    "Ⅻ",
    "\r",
    "\n",
    "\r\n",
    "\x00",
    "\ufeff",
    "\u2028",
    "\x85",
    "\t",
    '"',
    ",",
    ":",
    "#",
    "{",
    "[",
    "-1",
    "+3",
    "1e9999",
    "nan",
    "inf",
    "0x10",
    "1_0",
    "9" * 4301,
    "9" * 25,
    "[" * 2000,
    "{" * 2000,
    "A." * 200,
    "x" * 300,
    "# moves: 5x\n",
    "# cluster: ²\n",
    "# legend: a=AA\n",
    "# wrap: yes\n",
    "# exit: left 99999999999999999999\n",
    "# target: 2,5 east\n",
    "null",
    "true",
    "5",
    '"walls": 5,',
    '"meta": {"name": "a\\nb"},',
    "\\ud800",
    "vehicle,orientation,col,row,length\n",
]


def mutate(rng: random.Random, text: str) -> str:
    """``text`` with one to four random changes."""
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.25:
            text = text[:k] + rng.choice(NASTY) + text[k:]
        elif roll < 0.45 and text:
            j = min(len(text), k + rng.randint(1, 8))
            text = text[:k] + text[j:]
        elif roll < 0.6 and text:
            j = min(len(text), k + rng.randint(1, 12))
            text = text[:k] + text[k:j] * rng.randint(2, 6) + text[j:]
        elif roll < 0.75:
            text = (
                text[:k] + chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)])) + text[k:]
            )
        elif roll < 0.85 and text:
            j = rng.randrange(len(text))
            text = text[:j] + rng.choice("0123456789²") + text[j + 1 :]
        elif text:
            lines = text.split("\n")
            rng.shuffle(lines)
            text = "\n".join(lines)
    return text


def seeds() -> dict[str, list[str]]:
    """Valid texts of every format: the built-in levels written by every writer that holds them."""
    out: dict[str, list[str]] = {fmt: [] for fmt in FORMATS}
    for pack in packs():
        for entry in pack.levels:
            for fmt in FORMATS:
                with contextlib.suppress(RushHourError):
                    out[fmt].append(write_board(entry.board, fmt, entry.meta))
    return out


def writable_meta(fmt: str, meta: dict[str, str]) -> dict[str, str]:
    """What a writer keeps of the metadata."""
    if fmt == "grid":
        return {k: v for k, v in meta.items() if k not in grid.STRUCTURAL}
    if fmt == "csv":
        return {k: v for k, v in meta.items() if k not in {*grid.STRUCTURAL, *csvfmt.BOARD_KEYS}}
    if fmt == "json":
        return dict(meta)
    if fmt == "fogleman" and "moves" in meta and "cluster" in meta:
        return {"moves": str(int(meta["moves"])), "cluster": str(int(meta["cluster"]))}
    return {}


def round_trips(entry: Entry) -> None:
    """Every writer that can hold the entry writes text that reads back as the same board and the
    metadata the format holds.  The Fogleman format renames vehicles (the goal is A): for it the
    board read back is written and read again, and must then come back the same."""
    for fmt in FORMATS:
        try:
            text = write_board(entry.board, fmt, entry.meta)
        except FormatError:
            continue
        text.encode("utf-8")  # what is written can be printed and saved
        (back,) = parse_text(text, fmt=fmt)
        assert back.meta == writable_meta(fmt, entry.meta), (fmt, text)
        if fmt == "fogleman":
            first = back.board
            (back,) = parse_text(write_board(first, fmt, back.meta), fmt=fmt)
            assert back.board == first, (fmt, text)
        else:
            assert back.board == entry.board, (fmt, text)


# --- the progress file under hostile timing ----------------------------------------------------------

BOARD_TEXT = "AA....\n......\n......\n......\n......\n......\n"
BOARD = parse_text(BOARD_TEXT)[0].board

_WIN_AT = """
import sys, time
from rushhour.formats import parse_text
from rushhour.play.saves import Saves
path, key, at = sys.argv[1], sys.argv[2], float(sys.argv[3])
board = parse_text(sys.argv[4])[0].board
progress = Saves.load(path)
while time.time() < at:
    pass
progress.record_win(key, board, moves=1, steps=1, optimal=1)
"""

_SAVE_FOREVER = """
import sys
from rushhour.formats import parse_text
from rushhour.play.saves import Saves
path = sys.argv[1]
board = parse_text(sys.argv[2])[0].board
progress = Saves.load(path)
k = 0
while True:
    progress.record_win(f"level:{k}", board, moves=1, steps=1, optimal=1)
    print(k, flush=True)
    k += 1
"""


def _python(code: str, *args: str, **kwargs: object) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", code, *args], env=env, text=True, **kwargs
    )


def wins_together(folder: Path, pairs: int) -> int:
    """Pairs of processes that win two different levels at the same instant, each pair on a fresh
    progress file; how many wins were lost (0 when every save kept the other's win)."""
    lost = 0
    for n in range(pairs):
        path = folder / f"together-{n}" / "progress.json"
        at = time.time() + 1.0  # both processes are loaded and spinning by then
        procs = [_python(_WIN_AT, str(path), f"level:{side}", str(at), BOARD_TEXT) for side in (1, 2)]
        for proc in procs:
            proc.wait(timeout=60)
        saved = Saves.load(path).levels
        lost += sum(1 for side in (1, 2) if f"level:{side}" not in saved)
    return lost


def kill_during_saves(folder: Path, kills: int, seed: int = 0) -> tuple[int, int, int]:
    """Start a process that saves win after win and kill it (SIGKILL) at a random instant, ``kills``
    times on one progress file.  Returns (corrupt files, lost wins, stale temporary files left after
    the next save): a save that returned must be in the file, and the file must always read."""
    rng = random.Random(seed)
    path = folder / "killed" / "progress.json"
    corrupt = lost = 0
    for _ in range(kills):
        proc = _python(_SAVE_FOREVER, str(path), BOARD_TEXT, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the first save is done: the process is in its loop
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        rest = proc.stdout.read()
        proc.wait()
        done = {f"level:{line.split()[0]}" for line in (first + rest).splitlines() if line.strip()}
        try:
            saved = Saves.load(path).levels
        except RushHourError:
            corrupt += 1
            path.unlink(missing_ok=True)
            continue
        lost += len(done - set(saved))
        path.unlink()  # the next process starts afresh, its first save removes stale temporaries
    Saves.load(path).record_win("last", BOARD, moves=1, steps=1, optimal=1)
    prefix = f".{path.name}."
    stale = sum(1 for p in path.parent.iterdir() if p.name.startswith(prefix) and p.name.endswith(".tmp"))
    return corrupt, lost, stale
