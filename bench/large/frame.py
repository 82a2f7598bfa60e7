"""Cut a square out of a board of the bench set, or set a smaller board back into a larger one's frame.

``--crop N``: the N x N square of the board ``--pick`` of ``--source`` whose top-left cell is
(``--row``, ``--col``); the vehicles the square cuts are left out.  Its optimal length is proved by the
bfs engine within ``--cap`` positions.

``--into NAME``: the board ``--pick`` set at (``--row``, ``--col``) of the board ``NAME`` of
``--frame-source``, whose vehicles and walls wholly outside that square are kept (the vehicles renamed
to letters the smaller board does not use, in reading order).  The square must reach the frame's right
edge, so that the goal car's exit stays on it: then every move of the smaller board stays legal, its
optimal length ``L`` is at most what it was, and one bounded pass of bound ``L - 1``
(:func:`optimum_upto` of ``ascend.py``) gives the length exactly: a shorter solution when one exists,
else the proof that none has fewer than ``L`` moves.

Both take boards of the grid format's defaults (the goal car ``A``, its exit on the right edge), as
every board of the bench set is; walls (``x``) are kept where they stand.

    python bench/large/frame.py --source bench/large/crowded.txt --pick crowd12-04 --crop 11 --row 1 \\
        --col 1 --name crop11
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from ascend import optimum_upto
from climb import command_line, optimum, picked, print_board

from rushhour.board import Board
from rushhour.errors import RushHourError
from rushhour.formats import grid
from rushhour.formats.cells import VEHICLE_CHARS, WALL_CHARS

KEPT = {".", *WALL_CHARS}  # cells that are no vehicle: kept as they are


def rows_of(board: Board) -> list[str]:
    """The board's grid lines; only boards the grid writes without header lines (the default goal car
    and exit), since the square and the frame keep the exit on the right edge."""
    lines = [line for line in grid.write_grid(board, {}).splitlines() if line]
    if any(line.startswith("#") for line in lines):
        raise SystemExit("error: frame.py takes boards with the goal car A and its exit on the right edge")
    return lines


def crop(board: Board, row: int, col: int, side: int) -> Board:
    rows = rows_of(board)
    if min(row, col) < 0 or row + side > len(rows) or col + side > len(rows[0]):
        raise SystemExit(f"error: a {side}x{side} square at row {row}, column {col} runs off the board")
    square = [line[col : col + side] for line in rows[row : row + side]]
    whole = Counter(ch for line in rows for ch in line)
    inside = Counter(ch for line in square for ch in line)
    kept = ["".join(ch if ch in KEPT or inside[ch] == whole[ch] else "." for ch in line) for line in square]
    return grid.parse_grid("\n".join(kept))


def into(small: Board, frame: Board, row: int, col: int) -> Board:
    inner, outer = rows_of(small), rows_of(frame)
    if row < 0 or row + len(inner) > len(outer) or col + len(inner[0]) != len(outer[0]):
        raise SystemExit(
            f"error: a {len(inner[0])}x{len(inner)} board at row {row}, column {col} must lie inside the "
            f"{len(outer[0])}x{len(outer)} frame and reach its right edge (the exit's)"
        )
    cells = [[ch if ch in WALL_CHARS else "." for ch in line] for line in outer]
    for r, line in enumerate(inner):
        for c, ch in enumerate(line):
            cells[row + r][col + c] = ch
    spots: dict[str, list[tuple[int, int]]] = {}
    for r, line in enumerate(outer):
        for c, ch in enumerate(line):
            if ch not in KEPT:
                spots.setdefault(ch, []).append((r, c))
    free = iter(ch for ch in VEHICLE_CHARS if ch not in set("".join(inner)))
    for where in spots.values():
        inside = any(row <= r < row + len(inner) and col <= c < col + len(inner[0]) for r, c in where)
        if not inside:
            name = next(free)
            for r, c in where:
                cells[r][c] = name
    return grid.parse_grid("\n".join("".join(line) for line in cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--pick", required=True, help="the name of the board in --source")
    parser.add_argument("--crop", type=int, default=0, help="the side of the square to cut out")
    parser.add_argument("--into", default="", help="the name of the larger board in --frame-source")
    parser.add_argument("--frame-source", default="")
    parser.add_argument("--row", type=int, required=True)
    parser.add_argument("--col", type=int, required=True)
    parser.add_argument("--cap", type=int, default=400_000_000, help="positions a search may store")
    parser.add_argument("--name", required=True)
    args = parser.parse_args()
    try:
        return make(args)
    except RushHourError as err:  # a square that cuts the goal car, or a board file that does not parse
        raise SystemExit(f"error: {err}") from None


def make(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    board = picked(args.source, args.pick)
    if args.crop:
        made = crop(board, args.row, args.col, args.crop)
        length = optimum(made, args.cap)
        optimal = f"{length} (proved by the bfs engine)" if length else "not proved within the cap"
    elif args.into:
        made = into(board, picked(args.frame_source, args.into), args.row, args.col)
        before = optimum(board, args.cap)
        if before is None:
            raise SystemExit(f"error: the optimum of {args.pick} is not proved within {args.cap:,} positions")
        length = optimum_upto(made, before - 1, args.cap)
        if length is None:
            optimal = f"at most {before} (the pass of bound {before - 1} reached the cap)"
        elif length < before:
            optimal = f"{length} (proved by the frontier pass of bound {before - 1})"
        else:
            optimal = (
                f"{before} (the {args.pick} board's solution stays legal; no solution of {before - 1} moves: "
                f"frontier pass {before - 1})"
            )
    else:
        raise SystemExit("error: give --crop N or --into NAME")
    print_board(made, args.name, optimal, command_line("frame.py", args), began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
