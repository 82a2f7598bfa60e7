"""Cut a square out of a board of the bench set, or set a smaller board back into a larger one's frame.

``--crop N``: the N x N square of the board ``--pick`` of ``--source`` whose top-left cell is
(``--row``, ``--col``); the vehicles the square cuts are left out.  Its optimal length is proved by the
bfs engine within ``--cap`` positions.

``--into NAME``: the board ``--pick`` set at (``--row``, ``--col``) of the board ``NAME`` of
``--frame-source``, whose vehicles wholly outside that square are kept (renamed to letters the smaller
board does not use, in reading order).  When the goal car's exit stays on the same edge, every move
of the smaller board stays legal, so its optimal length ``L`` is at most what it was; one bounded pass of
bound ``L - 1`` (:func:`rushhour.search.frontier.one_pass`) then gives the length exactly: a shorter
solution when one exists, else the proof that none has fewer than ``L`` moves.

    python bench/large/frame.py --source bench/large/crowded.txt --pick crowd12-04 --crop 11 --row 1 \\
        --col 1 --name crop11
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from climb import command_line, optimum, picked, print_board

from rushhour.board import Board
from rushhour.formats import grid
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.search.bfs import Limits
from rushhour.search.frontier import one_pass
from rushhour.search.tables import tables_for


def rows_of(board: Board) -> list[str]:
    return [line for line in grid.write_grid(board, {}).splitlines() if line and not line.startswith("#")]


def crop(board: Board, row: int, col: int, side: int) -> Board:
    rows = rows_of(board)
    square = [line[col : col + side] for line in rows[row : row + side]]
    whole = Counter(ch for line in rows for ch in line)
    inside = Counter(ch for line in square for ch in line)
    kept = ["".join(ch if ch == "." or inside[ch] == whole[ch] else "." for ch in line) for line in square]
    return grid.parse_grid("\n".join(kept))


def into(small: Board, frame: Board, row: int, col: int) -> Board:
    inner, outer = rows_of(small), rows_of(frame)
    cells = [["." for _ in line] for line in outer]
    for r, line in enumerate(inner):
        for c, ch in enumerate(line):
            cells[row + r][col + c] = ch
    spots: dict[str, list[tuple[int, int]]] = {}
    for r, line in enumerate(outer):
        for c, ch in enumerate(line):
            if ch != ".":
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
        tables = tables_for(made.layout, "moves")
        start = tables.pack(made.state)
        status, stored, keys, _, _ = one_pass(tables, start, Limits(args.cap, None), before - 1)
        if status == 2:
            optimal = f"at most {before} (the pass of bound {before - 1} reached the cap)"
        elif keys is not None:
            optimal = f"{len(keys) - 1} (proved by the frontier pass of bound {before - 1})"
        else:
            optimal = (
                f"{before} (the {args.pick} board's solution stays legal; no solution of {before - 1} moves: "
                f"frontier pass {before - 1}, {stored:,} positions)"
            )
    else:
        raise SystemExit("error: give --crop N or --into NAME")
    print_board(made, args.name, optimal, command_line("frame.py", args), began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
