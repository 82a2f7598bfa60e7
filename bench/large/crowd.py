"""Make a crowded board from a generated one: seeded random cars and trucks are added to its free
cells one at a time, and an addition is kept when the board stays solvable with an optimal solution
of at least ``--min-moves`` moves (proved by the bfs engine), until the board has ``--vehicles``
vehicles.  The boards of boards/large.txt (made by ``rushhour generate``, the command is in that
file's header) are the starting points.

    python bench/large/crowd.py --source boards/large.txt --pick large-13 --vehicles 30 \\
        --min-moves 20 --seed 1 --name crowd9-01

prints the board in the grid format, with header lines saying how it was made and its optimal length.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from rushhour.board import HORIZONTAL, VERTICAL, Board, Vehicle
from rushhour.errors import LimitReachedError
from rushhour.formats import grid
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.search import solve

TRUCK_CHANCE = 0.3
CHECK_LIMIT = 2_000_000  # positions a check may explore
ATTEMPTS = 4000


def optimum(board: Board) -> int | None:
    """The optimal length (None: unsolvable or too big to check)."""
    try:
        found = solve(board, max_states=CHECK_LIMIT)
    except LimitReachedError:
        return None
    return found.length if found.solved else None


def crowd(board: Board, total: int, min_moves: int, seed: int) -> tuple[Board, int]:
    rng = random.Random(seed)
    best = optimum(board)
    if best is None:
        raise SystemExit("error: the source board is not solvable within the check's limit")
    names = iter(ch for ch in VEHICLE_CHARS if ch not in set(board.names))
    name = next(names)
    for _ in range(ATTEMPTS):
        if len(board.names) >= total:
            return board, best
        occ = board.occupancy()
        length = 3 if rng.random() < TRUCK_CHANCE else 2
        orientation = HORIZONTAL if rng.random() < 0.5 else VERTICAL
        r, c = rng.randrange(board.height), rng.randrange(board.width)
        cells = [(r, c + k) if orientation == HORIZONTAL else (r + k, c) for k in range(length)]
        if not all(
            0 <= y < board.height and 0 <= x < board.width and occ[y * board.width + x] == -1
            for y, x in cells
        ):
            continue
        goal = board.vehicle(board.goal)
        if orientation == HORIZONTAL and r == goal.row:
            continue  # a car in the goal's row between it and the exit would make it unsolvable
        trial = Board(
            board.width,
            board.height,
            [*board.vehicles, Vehicle(name, orientation, length, r, c)],
            walls=board.walls,
            goal=board.goal,
            exit="right",
        )
        length_now = optimum(trial)
        if length_now is not None and length_now >= min_moves:
            board, best, name = trial, length_now, next(names)
    raise SystemExit(f"error: no {total} vehicles after {ATTEMPTS} attempts (reached {len(board.names)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--pick", required=True)
    parser.add_argument("--vehicles", type=int, required=True)
    parser.add_argument("--min-moves", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--name", required=True)
    args = parser.parse_args(argv)
    document = grid.parse_document(args.source.read_text(), source=str(args.source))
    found = [r for r in document.records if r.meta.get("name") == args.pick]
    if not found:
        raise SystemExit(f"error: no board named {args.pick} in {args.source}")
    board, best = crowd(found[0].board, args.vehicles, args.min_moves, args.seed)
    command = (
        f"python bench/large/crowd.py --source {args.source} --pick {args.pick} --vehicles {args.vehicles} "
        f"--min-moves {args.min_moves} --seed {args.seed} --name {args.name}"
    )
    meta = {
        "name": args.name,
        "vehicles": str(len(board.names)),
        "optimal": f"{best} (proved by the bfs engine)",
        "made-by": command,
    }
    sys.stdout.write(grid.write_grid(board, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
