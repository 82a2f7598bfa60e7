"""How long a player waits in `rushhour play`, per turn.

For every level of the built-in packs (or the BOARD arguments), a seeded random walk of legal moves is
played through a Game; each turn is timed: the legal moves from the SAT oracle against the reference
rules (the baseline, measured in the same run), and the drawing.  Then the first hint of each level
(a full optimal search) and a followed hint (answered from the plan already found) are timed.

With ``--screen``, the full-screen game is timed as a player feels it instead: the real program in a
pseudo-terminal, its output read by the ``pyte`` terminal emulator, on a 6x6 level and a 12x12 board.
A vehicle is selected and slid one cell and back again by the arrow keys, ``--keys`` times; each key's
latency runs from writing the key to the moment the redrawn status line shows the new step count, so
it includes decoding the key, the move, the SAT oracle's query of the new position, drawing and the
terminal output.  The baseline, measured in the same run, is the Tab key (select the next vehicle:
the same drawing, no move and no oracle query).  The game's peak memory is read from /proc.

    python bench/play_latency.py [--turns 40] [--seed 7] [BOARD ...]
    python bench/play_latency.py --screen [--keys 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rushhour.board import Board, Move
from rushhour.levels import packs, resolve_board
from rushhour.logic.oracle import legal_moves as oracle_moves
from rushhour.play.game import Game
from rushhour.render.text import render


def optimal_plan(board: Board) -> list[Move] | None:
    from rushhour.search import solve

    solution = solve(board)
    return list(solution.moves) if solution.solved else None


def timed(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.3f} ms" if values else "       -"


# --- the full screen through a pseudo-terminal -------------------------------------------------------
LINES, COLS = 50, 160
ARROWS = {("H", 1): "\x1bOC", ("H", -1): "\x1bOD", ("V", 1): "\x1bOB", ("V", -1): "\x1bOA"}


class Terminal:
    """`rushhour play BOARD` in a pseudo-terminal, read through pyte."""

    def __init__(self, board_file: Path, data: Path) -> None:
        import pexpect
        import pyte

        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORTERM")}
        env.update(TERM="xterm-256color", XDG_DATA_HOME=str(data))
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "rushhour", "play", str(board_file), "--no-save"],
            env=env,
            encoding="utf-8",
            dimensions=(LINES, COLS),
        )
        self.child.delaybeforesend = None  # pexpect waits 50 ms before each write unless told not to
        self.screen = pyte.Screen(COLS, LINES)
        self.stream = pyte.Stream(self.screen)

    def line(self, y: int) -> str:
        row = self.screen.buffer[y]
        return "".join(row[x].data for x in range(COLS))

    def until(self, words: str, y: int = LINES - 3, limit: float = 60.0) -> None:
        """Read until line ``y`` (the status line) shows ``words``."""
        import pexpect

        end = time.perf_counter() + limit
        while words not in self.line(y):
            if time.perf_counter() > end:
                raise SystemExit(f"the screen never showed {words!r}:\n" + "\n".join(self.screen.display))
            try:
                self.stream.feed(self.child.read_nonblocking(65536, 0.5))
            except pexpect.TIMEOUT:
                continue

    def key(self, key: str, words: str, y: int = LINES - 3) -> float:
        start = time.perf_counter()
        self.child.send(key)
        self.until(words, y)
        return time.perf_counter() - start

    def peak_memory_mib(self) -> float | None:
        try:
            status = Path(f"/proc/{self.child.pid}/status").read_text()
        except OSError:
            return None
        kib = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)
        return None if kib is None else kib / 1024

    def close(self) -> None:
        self.child.send("q")
        self.child.expect(__import__("pexpect").EOF)
        self.child.close()


def screen_latency(name: str, text: str, keys: int) -> None:
    from rushhour.formats import parse_text

    board = parse_text(text, source=name, fmt="grid")[0].board
    move = next(m for m in board.legal_moves() if m.steps == 1)
    vehicle = board.vehicle(move.vehicle)
    there = ARROWS[("H" if vehicle.horizontal else "V", move.distance)]
    back = ARROWS[("H" if vehicle.horizontal else "V", -move.distance)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.txt"
        path.write_text(text)
        started = time.perf_counter()
        term = Terminal(path, Path(folder) / "data")
        term.until("steps 0")
        startup = time.perf_counter() - started
        message = LINES - 2
        term.key(f":{vehicle.name}\r", f"{vehicle.name} selected", message)
        slides: list[float] = []
        for _ in range(keys // 2):
            slides.append(term.key(there, "steps 1"))
            slides.append(term.key(back, "steps 0"))
        names = board.names
        tabs: list[float] = []
        k = names.index(vehicle.name)
        for _ in range(keys):
            k = (k + 1) % len(names)
            tabs.append(term.key("\t", f"{names[k]} selected (", message))
        memory = term.peak_memory_mib()
        term.close()
    slide_ms = statistics.median(slides) * 1000
    tab_ms = statistics.median(tabs) * 1000
    worst_slide, worst_tab = max(slides) * 1000, max(tabs) * 1000
    print(f"{name}: {board.width}x{board.height}, {len(names)} vehicles; first screen after {startup:.2f} s")
    print(f"  slide one cell (move, oracle, redraw)  median {slide_ms:7.2f} ms   worst {worst_slide:7.2f} ms")
    print(f"  Tab, select only (baseline)            median {tab_ms:7.2f} ms   worst {worst_tab:7.2f} ms")
    print(f"  slide / Tab                            {slide_ms / tab_ms:7.2f} x")
    if memory is not None:
        print(f"  the game's peak memory                 {memory:7.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-hints", action="store_true", help="skip the solver timings")
    parser.add_argument("--screen", action="store_true", help="time keys of the full-screen game in a pty")
    parser.add_argument("--keys", type=int, default=200, help="with --screen: slides timed per board")
    args = parser.parse_args()
    if args.screen:
        from solve import BIG12  # the 12x12 board of bench/solve.py

        from rushhour.formats import grid
        from rushhour.levels import level

        classic = level("classic", 12)
        print(f"{args.keys} slides and {args.keys} Tab keys per board, terminal {COLS}x{LINES}")
        screen_latency("classic:12", grid.write_grid(classic.board), args.keys)
        screen_latency("big12", BIG12, args.keys)
        return 0
    if args.boards:
        boards = [(spec, resolve_board(spec).board) for spec in args.boards]
    else:
        boards = [(f"{p.name}:{k}", e.board) for p in packs() for k, e in enumerate(p.levels, start=1)]
    rng = random.Random(args.seed)
    first_oracle: list[float] = []
    oracle: list[float] = []
    reference: list[float] = []
    drawing: list[float] = []
    first_hint: list[float] = []
    next_hint: list[float] = []
    for _, board in boards:
        first_oracle.append(timed(lambda b=board: oracle_moves(b)))
        game = Game(board, legal_moves=oracle_moves, solver=optimal_plan)
        for _ in range(args.turns):
            here = game.position
            oracle.append(timed(lambda h=here: oracle_moves(h)))
            reference.append(timed(lambda h=here: h.legal_moves()))
            drawing.append(timed(lambda h=here: render(h, color=True)))
            options = game.options()
            assert options == here.legal_moves(), f"oracle and rules disagree on {here!r}"
            if not options or game.won:
                break
            game.play(rng.choice(options))
        if not args.no_hints:
            game.reset()
            if not game.won:
                first_hint.append(timed(game.hint))
                hint = game.hint()
                if hint is not None:
                    game.play(hint)
                    if not game.won:
                        next_hint.append(timed(game.hint))
    print(f"{len(boards)} boards, {len(oracle)} turns timed (seed {args.seed})")
    print(f"  very first oracle query (compiles)      {first_oracle[0] * 1000:8.3f} ms")
    print(f"  first oracle query of a board (median) {ms(first_oracle)}")
    print(f"  legal moves, SAT oracle (median)       {ms(oracle)}")
    print(f"  legal moves, reference rules (median)  {ms(reference)}")
    if reference and oracle:
        ratio = statistics.median(oracle) / statistics.median(reference)
        print(f"  oracle / reference                      {ratio:8.1f} x")
    print(f"  drawing the board in colour (median)   {ms(drawing)}")
    if not args.no_hints:
        worst = f"   max {max(first_hint) * 1000:.1f} ms" if first_hint else ""
        print(f"  first hint: optimal search (median)    {ms(first_hint)}{worst}")
        print(f"  followed hint, from the plan (median)  {ms(next_hint)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
