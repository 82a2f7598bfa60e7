"""Make a 12x12 board with open areas from a crowded 9x9 one: the 9x9 board is set into the 12x12 grid
(rows 1-9, columns 3-11, so that its goal row is the 12x12 goal row and its exit the 12x12 exit), and
the margin around it (columns 0-2, row 0, rows 10-11: 63 cells) gets seeded random cars and trucks
until the board has ``--vehicles`` vehicles.  The margin vehicles move freely in the open margin and
the 9x9 board's vehicles may slide into it, so the reachable set is the 9x9 one multiplied by the
margin's many arrangements: the kind of board where a plain breadth-first search runs out of memory.

Every move of the 9x9 board stays legal in the 12x12 one (the margin only adds cells), so the 12x12
board is solvable in at most the 9x9 board's optimal number of moves (often far fewer: the 9x9
board's vehicles escape into the margin).  With ``--fence`` the margin's cells next to the 9x9 board
are walls (column 2 of rows 1-9, rows 0 and 10 of columns 3-11): no vehicle crosses between the two,
so the optimal length is exactly the 9x9 board's, while the margin's vehicles still move freely.

    python bench/large/make_open.py --core bench/large/boards9.txt --pick large9-03 \\
        --vehicles 44 --seed 7 --name open12-01

prints the board in the grid format, with header lines saying how it was made.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from rushhour.board import HORIZONTAL, VERTICAL, Board, Vehicle
from rushhour.formats import grid
from rushhour.formats.cells import VEHICLE_CHARS

SIDE = 12
ROW0, COL0 = 1, 3  # where the 9x9 board's top-left cell goes
TRUCK_CHANCE = 0.25


def margin_cells() -> set[tuple[int, int]]:
    inside = {(r, c) for r in range(ROW0, ROW0 + 9) for c in range(COL0, COL0 + 9)}
    return {(r, c) for r in range(SIDE) for c in range(SIDE)} - inside


def fence_cells() -> set[tuple[int, int]]:
    """The margin's cells next to the 9x9 board."""
    side = {(r, COL0 - 1) for r in range(ROW0, ROW0 + 9)}
    return side | {(r, c) for r in (ROW0 - 1, ROW0 + 9) for c in range(COL0, COL0 + 9)}


def embed(core: Board, total: int, seed: int, fence: bool = False) -> Board:
    """``core`` (9x9, exit on the right of row 4) set into a 12x12 board with ``total`` vehicles."""
    if (core.width, core.height) != (9, 9):
        raise SystemExit(f"error: the core board is {core.width}x{core.height}, not 9x9")
    vehicles = [Vehicle(v.name, v.orientation, v.length, v.row + ROW0, v.col + COL0) for v in core.vehicles]
    walls = [(r + ROW0, c + COL0) for r, c in core.walls]
    free = margin_cells()
    if fence:
        free -= fence_cells()
        walls += sorted(fence_cells())
    rng = random.Random(seed)
    names = iter(ch for ch in VEHICLE_CHARS if ch not in {v.name for v in vehicles})
    tries = 0
    while len(vehicles) < total:
        tries += 1
        if tries > 100_000:
            raise SystemExit(f"error: the margin does not hold {total} vehicles")
        length = 3 if rng.random() < TRUCK_CHANCE else 2
        orientation = HORIZONTAL if rng.random() < 0.5 else VERTICAL
        r, c = rng.randrange(SIDE), rng.randrange(SIDE)
        cells = [(r, c + k) if orientation == HORIZONTAL else (r + k, c) for k in range(length)]
        if not all(cell in free for cell in cells):
            continue
        free.difference_update(cells)
        vehicles.append(Vehicle(next(names), orientation, length, r, c))
    return Board(SIDE, SIDE, vehicles, walls=walls, goal=core.goal, exit="right")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core", type=Path, required=True, help="a grid file of 9x9 boards")
    parser.add_argument("--pick", required=True, help="the name of the 9x9 board in that file")
    parser.add_argument("--vehicles", type=int, required=True, help="vehicles of the 12x12 board")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--fence", action="store_true", help="walls between the 9x9 board and the margin")
    args = parser.parse_args(argv)
    document = grid.parse_document(args.core.read_text(), source=str(args.core))
    found = [r for r in document.records if r.meta.get("name") == args.pick]
    if not found:
        raise SystemExit(f"error: no board named {args.pick} in {args.core}")
    board = embed(found[0].board, args.vehicles, args.seed, args.fence)
    command = (
        f"python bench/large/make_open.py --core {args.core} --pick {args.pick} "
        f"--vehicles {args.vehicles} --seed {args.seed} --name {args.name}"
    ) + (" --fence" if args.fence else "")
    meta = {"name": args.name, "vehicles": str(len(board.names))}
    if args.fence and "optimal" in found[0].meta:
        meta["optimal"] = (
            f"{found[0].meta['optimal'].split()[0]} (the fenced 9x9 board's, which the fence keeps)"
        )
    meta["made-by"] = command
    sys.stdout.write(grid.write_grid(board, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
