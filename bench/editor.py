"""How long the editor keeps a key waiting, and how soon its live check shows the optimum.

The real program (`rushhour edit BOARD`) in a pseudo-terminal, its output read by the ``pyte`` terminal
emulator.  A vehicle is selected and moved one cell and back by the arrow keys, ``--keys`` times; each
key's latency runs from writing the key to the moment the panel beside the board shows the vehicle's
new place (decoding the key, the edit and its validation, cancelling the check under way and starting
the next one in a forked worker, drawing, the terminal output).  The baseline, measured in the same
run, is Tab (select the next vehicle: the same drawing, no edit, no check started).

First the editor's own share, in its process without a terminal (the key, starting the check, its
answer), then through the terminal, on these boards:

- 6x6: the built-in 6x6 levels with the longest optimum (the live check's whole reachable set
  explored after every key); besides the key, the time from the key to the panel showing the new
  board's optimum ("at once": the target is within the 50 ms of a key);
- 12x12 and 16x16 (``tests/data/open12.txt``, ``tests/data/full16.txt``): reachable sets far too
  large to explore between two keys, so every key lands while a check runs beside the editor (it is
  cancelled and started again); only keys answered while the panel still said "exploring" count.

    python bench/editor.py [--keys 100]
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rushhour.board import Board
from rushhour.levels import packs
from rushhour.play.draft import Draft

LINES, COLS = 50, 160
ARROWS = {(-1, 0): "\x1bOA", (1, 0): "\x1bOB", (0, 1): "\x1bOC", (0, -1): "\x1bOD"}
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


class Terminal:
    """`rushhour edit BOARD` in a pseudo-terminal, read through pyte."""

    def __init__(self, board: str, data: Path) -> None:
        import pexpect
        import pyte

        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORTERM")}
        env.update(TERM="xterm-256color", XDG_DATA_HOME=str(data))
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "rushhour", "edit", board],
            env=env,
            encoding="utf-8",
            dimensions=(LINES, COLS),
        )
        self.child.delaybeforesend = None
        self.screen = pyte.Screen(COLS, LINES)
        self.stream = pyte.Stream(self.screen)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def until(self, *words: str, limit: float = 60.0) -> None:
        """Read until the screen shows every one of ``words``."""
        import pexpect

        end = time.perf_counter() + limit
        while not all(w in self.text for w in words):
            if time.perf_counter() > end:
                raise SystemExit(f"the screen never showed {words!r}:\n{self.text}")
            try:
                self.stream.feed(self.child.read_nonblocking(65536, 0.5))
            except pexpect.TIMEOUT:
                continue

    def key(self, key: str, *words: str) -> float:
        start = time.perf_counter()
        self.child.send(key)
        self.until(*words)
        return time.perf_counter() - start

    def close(self) -> None:
        import pexpect

        self.child.send("q")
        self.child.send("y")
        self.child.expect(pexpect.EOF)
        self.child.close()


def a_free_step(board: Board) -> tuple[str, tuple[int, int]]:
    """A vehicle and a one-cell step the editor can make (any direction) and undo."""
    draft = Draft.of(board)
    for v in board.vehicles:
        for step in ARROWS:
            try:
                draft.shift(v.name, *step)
            except Exception:  # noqa: BLE001, S112 - refused: try the next one
                continue
            return v.name, step
    raise SystemExit("no vehicle of the board can move one cell")


def where(board: Board, name: str, step: tuple[int, int], k: int) -> str:
    v = board.vehicle(name)
    return f"at ({v.row + step[0] * k},{v.col + step[1] * k})"


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.2f} ms   worst {max(values) * 1000:7.2f} ms"


def hardest_6x6() -> tuple[str, Board]:
    best = max(
        ((f"{p.name}:{k}", e) for p in packs() for k, e in enumerate(p.levels, 1) if e.board.width == 6),
        key=lambda item: int(item[1].meta.get("moves", "0") or 0),
    )
    return best[0], best[1].board


def small_board(keys: int) -> None:
    name, board = hardest_6x6()
    vehicle, step = a_free_step(board)
    back = (-step[0], -step[1])
    moved, optimum, tabs = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        term = Terminal(name, Path(folder) / "data")
        term.until("optimum:")
        startup = time.perf_counter() - started
        term.key(vehicle, f"selected {vehicle}:")
        for k in range(keys):
            there, arrow = (1, ARROWS[step]) if k % 2 == 0 else (0, ARROWS[back])
            start = time.perf_counter()
            term.child.send(arrow)
            term.until(where(board, vehicle, step, there))
            moved.append(time.perf_counter() - start)
            term.until("optimum:", where(board, vehicle, step, there))
            optimum.append(time.perf_counter() - start)
        names = board.names
        i = names.index(vehicle)
        for _ in range(keys):
            i = (i + 1) % len(names)
            tabs.append(term.key("\t", f"selected {names[i]}:"))
        term.close()
    print(f"{name}: 6x6, {len(board.names)} vehicles; first check shown after {startup:.2f} s")
    print(f"  move a vehicle, key answered      {ms(moved)}")
    print(f"  move a vehicle, optimum shown     {ms(optimum)}")
    print(f"  Tab, select only (baseline)       {ms(tabs)}")
    print(f"  key answered / Tab                {statistics.median(moved) / statistics.median(tabs):7.2f} x")


def large_board(path: Path, keys: int) -> None:
    board = Board.from_text(path.read_text())
    vehicle, step = a_free_step(board)
    back = (-step[0], -step[1])
    moved, tabs = [], []
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        term = Terminal(str(path), Path(folder) / "data")
        term.until("exploring the reachable set")
        startup = time.perf_counter() - started
        term.key(vehicle, f"selected {vehicle}:")
        for k in range(keys):
            there, arrow = (1, ARROWS[step]) if k % 2 == 0 else (0, ARROWS[back])
            took = term.key(arrow, where(board, vehicle, step, there))
            if "exploring the reachable set" in term.text:
                moved.append(took)
        names = board.names
        i = names.index(vehicle)
        for _ in range(keys):
            i = (i + 1) % len(names)
            took = term.key("\t", f"selected {names[i]}:")
            if "exploring the reachable set" in term.text:
                tabs.append(took)
        esc = term.key("\x1b", "check stopped")
        term.close()
    print(
        f"{path.name}: {board.width}x{board.height}, {len(board.names)} vehicles; "
        f"first screen {startup:.2f} s"
    )
    print(f"  move a vehicle while exploring    {ms(moved)}   ({len(moved)} of {keys} keys)")
    print(f"  Tab while exploring (baseline)    {ms(tabs)}   ({len(tabs)} of {keys} keys)")
    print(f"  Esc, the check stopped            {esc * 1000:7.2f} ms")


def in_process(keys: int) -> None:
    """The editor's own share, without a terminal: the key (edit and validation), then starting the
    check (cancelling the one under way, forking the worker), then the wait for its answer."""
    from rushhour.play.editor import Editor
    from rushhour.play.sources import optimal_plan
    from rushhour.play.worker import ProcessWorker

    name, board = hardest_6x6()
    vehicle, step = a_free_step(board)
    names = {(-1, 0): "up", (1, 0): "down", (0, 1): "right", (0, -1): "left"}
    ed = Editor(Draft.of(board), checker=ProcessWorker(optimal_plan), hardener=ProcessWorker(optimal_plan))
    ed.key(vehicle)
    edit, launch, answer = [], [], []
    for k in range(keys):
        arrow = names[step] if k % 2 == 0 else names[(-step[0], -step[1])]
        t0 = time.perf_counter()
        ed.key(arrow)
        t1 = time.perf_counter()
        ed.launch()
        t2 = time.perf_counter()
        while ed.check is not None and ed.check.state == "checking":
            fd = ed.checker.fileno()
            select.select([] if fd is None else [fd], [], [], 1.0)
            ed.tick()
        t3 = time.perf_counter()
        assert ed.check is not None and ed.check.state == "solvable"
        edit.append(t1 - t0)
        launch.append(t2 - t1)
        answer.append(t3 - t2)
    ed.close()
    print(f"{name} in the editor's process (no terminal):")
    print(f"  the key: edit and validation      {ms(edit)}")
    print(f"  cancel and fork the check         {ms(launch)}")
    print(f"  the check's answer (optimum, set) {ms(answer)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=100, help="keys timed per board (default 100)")
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    in_process(args.keys)
    small_board(args.keys)
    for name in ("open12.txt", "full16.txt"):
        large_board(DATA / name, args.keys)


if __name__ == "__main__":
    main()
