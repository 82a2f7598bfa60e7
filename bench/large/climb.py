"""Make a crowded board without walls whose optimal solution is long, by searching for harder boards.

A board starts won: the goal car against the exit on the right edge of row ``(side - 1) // 2``, and
seeded random cars and trucks (no horizontal vehicle in the goal's row) on free cells until there are
``--vehicles`` of them; ``--walk`` random moves then scramble it.  Its optimal length is proved by the
``bfs`` engine (the frontier search's bounded passes) within ``--cap`` positions.  Then, for
``--steps`` changes or ``--minutes``, one change at a time is tried: a legal move of one vehicle, or one
vehicle (not the goal) taken away and a new random one put on free cells.  A change is kept when the
optimal length, proved again within the cap, does not drop and stays at most ``--max-moves``.  The
climb stops once the length reaches ``--target``.

The bfs engine replays its answer by the rules; the optimum is cross-checked afterwards by the
portfolio and, where it is feasible, by SAT planning (both recorded in the board's ``optimal`` line by
hand, with the command used).

    python bench/large/climb.py --side 12 --vehicles 44 --target 25 --max-moves 30 --seed 1 \\
        --name crowd12-01
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rushhour.board import HORIZONTAL, VERTICAL, Board, Vehicle
from rushhour.errors import LimitReachedError
from rushhour.formats import grid
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.search import solve

TRUCK_CHANCE = 0.3
PLACE_ATTEMPTS = 2000
MOVE_CHANCE = 0.5  # a change is a legal move this often, else a vehicle put elsewhere


def _place(board: Board, name: str, rng: random.Random) -> Board | None:
    """``board`` with one more random vehicle called ``name`` on free cells (None: no room found)."""
    occ = board.occupancy()
    goal = board.vehicle(board.goal)
    width, height = board.width, board.height
    for _ in range(PLACE_ATTEMPTS):
        length = 3 if rng.random() < TRUCK_CHANCE else 2
        orientation = HORIZONTAL if rng.random() < 0.5 else VERTICAL
        r, c = rng.randrange(height), rng.randrange(width)
        if orientation == HORIZONTAL and r == goal.row:
            continue
        cells = [(r, c + k) if orientation == HORIZONTAL else (r + k, c) for k in range(length)]
        if all(0 <= y < height and 0 <= x < width and occ[y * width + x] == -1 for y, x in cells):
            vehicles = [*board.vehicles, Vehicle(name, orientation, length, r, c)]
            return Board(width, height, vehicles, goal=board.goal, exit="right")
    return None


def _without(board: Board, name: str) -> Board:
    vehicles = [v for v in board.vehicles if v.name != name]
    return Board(board.width, board.height, vehicles, goal=board.goal, exit="right")


def optimum(board: Board, cap: int) -> int | None:
    """The optimal length proved within ``cap`` positions (None: unsolvable or not proved)."""
    try:
        found = solve(board, engine="bfs", max_states=cap)
    except LimitReachedError:
        return None
    return found.length if found.solved else None


def start_board(side: int, vehicles: int, walk: int, rng: random.Random) -> Board:
    row = (side - 1) // 2
    board = Board(side, side, [Vehicle("A", HORIZONTAL, 2, row, side - 2)], goal="A", exit="right")
    names = iter(ch for ch in VEHICLE_CHARS if ch != "A")
    while len(board.names) < vehicles:
        placed = _place(board, next(names), rng)
        if placed is None:
            raise SystemExit(f"error: no room for {vehicles} vehicles on {side}x{side}")
        board = placed
    for _ in range(walk):
        board = rng.choice([there for _, there in board.successors("moves")])
    return board


def change(board: Board, rng: random.Random) -> Board | None:
    if rng.random() < MOVE_CHANCE:
        return rng.choice([there for _, there in board.successors("moves")])
    gone = rng.choice([n for n in board.names if n != board.goal])
    return _place(_without(board, gone), gone, rng)


def climb(args: argparse.Namespace) -> tuple[Board, int]:
    rng = random.Random(args.seed)
    board = start_board(args.side, args.vehicles, args.walk, rng)
    best = optimum(board, args.cap)
    while best is None:
        board = start_board(args.side, args.vehicles, args.walk, rng)
        best = optimum(board, args.cap)
    ends = time.perf_counter() + args.minutes * 60
    for step in range(args.steps):
        if best >= args.target or time.perf_counter() > ends:
            break
        trial = change(board, rng)
        if trial is None:
            continue
        found = optimum(trial, args.cap)
        if found is None or not best <= found <= args.max_moves:
            continue
        if found > best:
            print(f"step {step}: {found} moves", file=sys.stderr, flush=True)
        board, best = trial, found
    return board, best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=12)
    parser.add_argument("--vehicles", type=int, required=True)
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--max-moves", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--walk", type=int, default=2000, help="random moves scrambling the start")
    parser.add_argument("--cap", type=int, default=3_000_000, help="positions a proof may store")
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--name", required=True)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    board, best = climb(args)
    print_board(board, args.name, f"{best} (proved by the bfs engine)", command_line("climb.py", args), began)
    return 0


def command_line(script: str, args: argparse.Namespace) -> str:
    """The command that makes a board again: ``python bench/large/SCRIPT`` with every option as
    parsed, but those left empty (the ``made-by`` line of the bench set)."""
    options = [
        f"--{key.replace('_', '-')} {value:g}"
        if isinstance(value, float)
        else f"--{key.replace('_', '-')} {value}"
        for key, value in vars(args).items()
        if value != ""
    ]
    return " ".join([f"python bench/large/{script}", *options])


def picked(source: str, name: str) -> Board:
    """The board called ``name`` in the pack file ``source`` (the ascent's and the growth's start)."""
    try:
        text = Path(source).read_text()
    except OSError as err:
        raise SystemExit(f"error: cannot read {source}: {err.strerror or err}") from None
    for record in grid.parse_document(text, source=source).records:
        if record.meta.get("name") == name:
            return record.board
    raise SystemExit(f"error: no board called {name} in {source}")


def print_board(board: Board, name: str, optimal: str, command: str, began: float) -> None:
    """The board in the grid format on stdout with the bench set's header lines; the time on stderr."""
    cells = sum(v.length for v in board.vehicles)
    meta = {
        "name": name,
        "vehicles": f"{len(board.names)} ({cells} of {board.width * board.height} cells covered)",
        "optimal": optimal,
        "made-by": command,
    }
    sys.stdout.write(grid.write_grid(board, meta))
    print(f"made in {time.perf_counter() - began:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
