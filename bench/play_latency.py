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

With ``--background``, the keys are timed while a search runs beside the game: on a 12x12 board with
no known optimum (``tests/data/open12.txt``, whose optimal search takes many seconds), ``h`` asks for a
hint, then Tab keys (the hint still searched for) and slides (the optimum still searched for) are timed;
the figures count only keys answered while the search was still running, and the worst one is the
figure to hold against the target of 50 ms.  The time to the first screen is also given for the 16x16
board of ``tests/data/full16.txt``.

    python bench/play_latency.py [--turns 40] [--seed 7] [BOARD ...]
    python bench/play_latency.py --screen [--keys 200]
    python bench/play_latency.py --background [--keys 100]
    python bench/play_latency.py --logic [--keys 60]

With ``--logic``, the logic view (``e``) is timed, key to redraw, on the same two boards: a walk of
``--keys`` positions, never one seen before (so that no view is answered from the view's cache), each
reached by selecting a vehicle (its propositions are read from the solver), a slide the rules refuse
(its minimal cores are found) and a slide to the next position; at each position ``e`` closes and
opens the view.  The baseline is the same walk in a second game with the view closed, in the same run;
each game is played twice, in the order closed, open, open, closed.
The view's own computation (no terminal) is timed on a walk of every built-in level, cache left out.
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

    def until_anywhere(self, words: str, limit: float = 60.0) -> None:
        """Read until the screen shows ``words`` on any line."""
        import pexpect

        end = time.perf_counter() + limit
        while not any(words in row for row in self.screen.display):
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

    def tab(self, y: int) -> float:
        """Tab: the time until line ``y`` says that another vehicle is selected (Tab passes the vehicles
        that cannot move, so which one is read from the screen)."""
        before = self.line(y)
        start = time.perf_counter()
        self.child.send("\t")
        end = start + 60.0
        while self.line(y) == before or " selected (" not in self.line(y):
            if time.perf_counter() > end:
                raise SystemExit("Tab was never answered:\n" + "\n".join(self.screen.display))
            try:
                self.stream.feed(self.child.read_nonblocking(65536, 0.5))
            except __import__("pexpect").TIMEOUT:
                continue
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
        for _ in range(keys):
            tabs.append(term.tab(message))
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


DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def first_screen(path: Path) -> float:
    """Seconds from starting the game to its first complete status line."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        term = Terminal(path, Path(folder) / "data")
        term.until("steps 0")
        seconds = time.perf_counter() - started
        term.close()
    return seconds


def background_latency(keys: int) -> None:
    """Keys timed while a search runs beside the game (see the module's docstring)."""
    path = DATA / "open12.txt"
    board = resolve_board(str(path)).board
    names = board.names
    move = next(m for m in board.legal_moves() if m.steps == 1)
    vehicle = board.vehicle(move.vehicle)
    there = ARROWS[("H" if vehicle.horizontal else "V", move.distance)]
    back = ARROWS[("H" if vehicle.horizontal else "V", -move.distance)]
    message = LINES - 2
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        term = Terminal(path, Path(folder) / "data")
        term.until("steps 0")
        startup = time.perf_counter() - started
        term.key("h", "finding a hint", 0)
        tabs: list[float] = []
        for _ in range(keys):
            took = term.tab(message)
            if "finding a hint" in term.line(0):
                tabs.append(took)
        term.key(f":{vehicle.name}\r", f"{vehicle.name} selected", message)
        slides: list[float] = []
        for _ in range(keys // 2):
            for key, steps in ((there, "steps 1"), (back, "steps 0")):
                took = term.key(key, steps)
                if "optimal ..." in term.line(LINES - 3):
                    slides.append(took)
        memory = term.peak_memory_mib()
        term.close()
    full16 = first_screen(DATA / "full16.txt")
    print(f"open12: 12x12, {len(names)} vehicles, optimum unknown; first screen after {startup:.2f} s")
    print(f"  full16 (16x16, 60 vehicles): first screen after {full16:.2f} s")
    rows = (("Tab while a hint is searched for", tabs), ("slide while the optimum is searched", slides))
    for what, values in rows:
        if values:
            print(
                f"  {what:<38} {len(values):4d} keys  median {statistics.median(values) * 1000:7.2f} ms"
                f"   worst {max(values) * 1000:7.2f} ms"
            )
        else:
            print(f"  {what:<38} none: the search ended first")
    if memory is not None:
        print(f"  the game's peak memory (the search's child apart) {memory:7.1f} MiB")
    line_mode_memory(DATA / "full16.txt")


def peak_mib(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    kib = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)
    return None if kib is None else kib / 1024


def line_mode_memory(path: Path, seconds: float = 20.0) -> None:
    """The line mode on a board whose optimum is searched for beside it: the time to the prompt, and the
    peak memory of the game and of the search's child after ``seconds``."""
    import pexpect

    started = time.perf_counter()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rushhour", "play", str(path), "--plain", "--no-save", "--no-color"],
        encoding="utf-8",
        dimensions=(LINES, COLS),
        timeout=120,
    )
    child.expect("your move")
    prompt = time.perf_counter() - started
    kids = Path(f"/proc/{child.pid}/task/{child.pid}/children")
    biggest, end = 0.0, time.perf_counter() + seconds
    while time.perf_counter() < end:  # the search's child, sampled while it lives
        pids = [int(p) for p in kids.read_text().split()] if kids.exists() else []
        biggest = max([biggest, *(m for m in map(peak_mib, pids) if m is not None)])
        time.sleep(0.25)
    game = peak_mib(child.pid)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    print(f"line mode on {path.name}: the prompt after {prompt:.2f} s; after {seconds:.0f} s more:")
    print(f"  the game's peak memory {game or 0:7.1f} MiB; the search's child {biggest:7.1f} MiB")


# --- the logic view ------------------------------------------------------------------------------------
Walk = list[tuple[str, Move | None, Move]]
ARROW_OF = {(True, 1): "\x1bOC", (True, -1): "\x1bOD", (False, 1): "\x1bOB", (False, -1): "\x1bOA"}


def select_key(name: str) -> str:
    """The keys that select a vehicle: its letter, or ``:name`` Enter for a lower-case or long name."""
    return name if len(name) == 1 and not name.islower() else f":{name}\r"


def logic_walk(board: Board, count: int, seed: int) -> Walk:
    """``count`` steps of a walk of one-cell slides to positions never seen, never the vehicle moved last
    (so that moves never join): the vehicle, a one-cell slide the rules refuse there (None when it has
    none) and the slide played."""
    rng = random.Random(seed)
    seen = {board}
    out: Walk = []
    last = ""
    while len(out) < count:
        legal = board.legal_moves("steps")
        fresh = [m for m in legal if m.vehicle != last and board.apply(m) not in seen]
        if not fresh:
            break
        refusable = [m for m in fresh if Move(m.vehicle, -m.distance) not in legal]
        move = rng.choice(refusable or fresh)
        refused = Move(move.vehicle, -move.distance) if refusable else None
        out.append((move.vehicle, refused, move))
        board = board.apply(move)
        seen.add(board)
        last = move.vehicle
    return out


def logic_walk_times(path: Path, board: Board, walk: Walk, view: bool) -> dict[str, list[float]]:
    """Each key of the walk timed in the real game, the logic view open or not."""
    message = LINES - 2
    times: dict[str, list[float]] = {"select": [], "refused": [], "slide": [], "e": []}
    with tempfile.TemporaryDirectory() as folder:
        term = Terminal(path, Path(folder) / "data")
        term.until("steps 0")
        if view:
            term.child.send("e")
            term.until_anywhere("its moves:")
        for k, (name, refused, move) in enumerate(walk, start=1):
            horizontal = board.vehicle(name).horizontal
            times["select"].append(term.key(select_key(name), f"{name} selected (", message))
            if refused is not None:
                arrow = ARROW_OF[(horizontal, refused.distance)]
                times["refused"].append(term.key(arrow, f"{name} cannot slide", message))
            times["slide"].append(term.key(ARROW_OF[(horizontal, move.distance)], f"steps {k} |"))
            board = board.apply(move)
            if view:
                times["e"].append(term.key("e", "logic view closed", message))
                times["e"].append(term.key("e", "the logic view: e closes it", message))
        term.child.send("q")  # moves were made: the game asks first, and the second q leaves
        term.close()
    return times


def logic_latency(name: str, text: str, keys: int, seed: int) -> dict[str, float]:
    """The logic view's key-to-redraw medians (ms) on one board, printed against the baseline."""
    from rushhour.formats import parse_text

    board = parse_text(text, source=name, fmt="grid")[0].board
    walk = logic_walk(board, keys, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.txt"
        path.write_text(text)
        closed = logic_walk_times(path, board, walk, view=False)
        opened = logic_walk_times(path, board, walk, view=True)
        for got, view in ((opened, True), (closed, False)):  # again in the other order: A B B A
            for what, values in logic_walk_times(path, board, walk, view=view).items():
                got[what] += values
    print(f"{name}: {board.width}x{board.height}, {len(board.names)} vehicles, {len(walk)} new positions")
    print(f"  {'key to redraw':<36} {'view open':>22} {'view closed':>22}  ratio")
    medians: dict[str, float] = {}
    for what, label in (
        ("select", "select a vehicle (its propositions)"),
        ("refused", "a refused slide (its cores)"),
        ("slide", "a slide (the new position's view)"),
        ("e", "e, close or open the view"),
    ):
        got, base = opened[what], closed.get(what, [])
        if not got:
            continue
        medians[what] = statistics.median(got) * 1000
        worst = max(got) * 1000
        line = f"  {label:<36} {medians[what]:7.2f} ms (max {worst:6.1f})"
        if base:
            b = statistics.median(base) * 1000
            line += f" {b:7.2f} ms (max {max(base) * 1000:6.1f})  {medians[what] / b:5.2f} x"
        print(line)
    return medians


def logic_view_compute(turns: int, seed: int) -> list[float]:
    """The view's own computation (selected vehicle, a refusal and a hint), cache left out, on a random
    walk of every built-in level; seconds per view."""
    from rushhour.play import logic_view as lv

    rng = random.Random(seed)
    times: list[float] = []
    for p in packs():
        for entry in p.levels:
            board = entry.board
            oracle = oracle_for_board(board)
            for _ in range(turns):
                options = board.legal_moves()
                name = rng.choice(board.names)
                refused = next((m for m in (Move(name, 1), Move(name, -1)) if m not in options), None)
                hint = rng.choice(options) if options else None
                start = time.perf_counter()
                lv._cached.__wrapped__(board, name, refused, hint, oracle)
                times.append(time.perf_counter() - start)
                if not options:
                    break
                board = board.apply(rng.choice(options))
    return times


def oracle_for_board(board: Board) -> object:
    from rushhour.logic.oracle import oracle_for

    return oracle_for(board)


def bench_logic(keys: int, seed: int) -> dict[str, float]:
    """The logic view section: key to redraw in the real game on a 6x6 level and a 12x12 board, and
    the view's own computation; the medians (ms) by what was timed."""
    from solve import BIG12  # the 12x12 board of bench/solve.py

    from rushhour.formats import grid
    from rushhour.levels import level

    print(f"the logic view: walks of {keys} new positions per board, terminal {COLS}x{LINES}")
    found = {}
    classic = grid.write_grid(level("classic", 12).board)
    for name, text in (("classic:12", classic), ("big12", BIG12)):
        for what, value in logic_latency(name, text, keys, seed).items():
            found[f"{name} {what}"] = value
    computed = logic_view_compute(30, seed)
    median, worst = statistics.median(computed) * 1000, max(computed) * 1000
    print(f"  the view computed alone (no terminal, no cache), {len(computed)} positions of every level:")
    print(f"  median {median:.3f} ms, worst {worst:.2f} ms")
    found["computed"] = median
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-hints", action="store_true", help="skip the solver timings")
    parser.add_argument("--screen", action="store_true", help="time keys of the full-screen game in a pty")
    parser.add_argument(
        "--keys", type=int, help="keys timed per board (--screen and --background 200, --logic 60)"
    )
    parser.add_argument(
        "--background", action="store_true", help="time keys while a search runs beside the game"
    )
    parser.add_argument("--logic", action="store_true", help="time the logic view's keys (e) in a pty")
    args = parser.parse_args()
    if args.logic:
        bench_logic(args.keys or 60, args.seed)
        return 0
    if args.background:
        background_latency(args.keys or 200)
        return 0
    if args.screen:
        args.keys = args.keys or 200
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
