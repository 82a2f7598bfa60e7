"""Make a crowded board's optimum longer by adding vehicles, each length proved by SAT planning.

Adding a vehicle never makes a board easier: take any solution of the board with the new vehicle
``v`` and drop the moves of ``v``; every other move sweeps the same cells, free then and still free
without ``v``, so what is left solves the board without it, in no more moves (two moves of one vehicle
that become neighbours merge).  So if the board ``B`` needs ``L`` moves, ``B + v`` needs at least
``L``.  It needs exactly ``L`` only when some optimal solution of ``B`` never covers a cell of ``v``
(a solution of ``L`` moves of ``B + v`` in which ``v`` moved would leave, without those moves, a
solution of ``B`` shorter than ``L``).

From a board of a pack (``--source FILE --pick NAME``), whose optimum ``L`` the portfolio proves
first, the growth tries every way to add one car or truck on free cells (no horizontal vehicle in the
goal's row), in a seeded random order, each answered by the cheapest test that can:

1. a *pool* of known optimal solutions of ``B``, replayed by the rules on ``B + v``: one that still
   plays means ``L`` (free);
2. the ``improve`` engine for a few seconds: a solution of ``L`` moves means ``L`` (it joins the pool:
   ``v`` did not move in it, so it solves ``B``);
3. SAT planning for exactly ``L`` moves (:func:`rushhour.logic.planner.plan`, told the lower bound
   ``L``, which holds by the argument above) within ``--sat-seconds``: a plan means ``L`` (it joins
   the pool), a refutation proves at least ``L + 1``; a test out of time leaves the candidate.

A candidate proved harder is solved by SAT planning from ``L + 1`` up (the first plan it finds is
optimal), and becomes the board.  The growth stops at ``--target`` moves, ``--max-vehicles``, or when
no candidate is harder.  Every length printed is a plan found, or a refutation; the bench set's
``optimal`` line records each board's cross-check by the portfolio (``rushhour solve``).

    python bench/large/grow.py --source bench/large/crowded.txt --pick crowd12-03 --target 22 \\
        --max-vehicles 46 --seed 1 --name crowd12-04
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator

from climb import command_line, picked, print_board

from rushhour.board import HORIZONTAL, VERTICAL, Board, Move, Vehicle
from rushhour.errors import LimitReachedError, RushHourError
from rushhour.formats.cells import VEHICLE_CHARS
from rushhour.logic.planner import plan
from rushhour.search import solve
from rushhour.search.bfs import Limits
from rushhour.search.solution import verify
from rushhour.search.walk import improve_search

IMPROVE_SECONDS = 4.0
IMPROVE_SEEDS = 2


def log(message: str, began: float) -> None:
    print(f"{time.perf_counter() - began:7.0f} s  {message}", file=sys.stderr, flush=True)


def additions(board: Board, rng: random.Random) -> Iterator[Board]:
    """Every board of one more car or truck on free cells (none horizontal in the goal's row), in a
    seeded random order."""
    occ = board.occupancy()
    width, height = board.width, board.height
    goal = board.vehicle(board.goal)
    name = next(ch for ch in VEHICLE_CHARS if ch not in board.names)
    found = []
    for orientation in (HORIZONTAL, VERTICAL):
        for length in (2, 3):
            for r in range(height):
                for c in range(width):
                    if orientation == HORIZONTAL and r == goal.row:
                        continue
                    cells = [(r, c + k) if orientation == HORIZONTAL else (r + k, c) for k in range(length)]
                    if all(0 <= y < height and 0 <= x < width and occ[y * width + x] == -1 for y, x in cells):
                        found.append(Vehicle(name, orientation, length, r, c))
    rng.shuffle(found)
    for vehicle in found:
        yield Board(width, height, [*board.vehicles, vehicle], goal=board.goal, exit=board.exit)


def plays(board: Board, moves: tuple[Move, ...]) -> bool:
    try:
        verify(board, moves)
    except RushHourError:
        return False
    return True


def harder(there: Board, length: int, pool: list[tuple[Move, ...]], args: argparse.Namespace) -> str:
    """``"same"`` (``length`` moves), ``"harder"`` (at least ``length + 1``, proved) or ``"unknown"``."""
    if any(plays(there, moves) for moves in pool):
        return "same"
    for seed in range(IMPROVE_SEEDS):
        try:
            moves, _ = improve_search(there, "moves", Limits(None, IMPROVE_SECONDS, None), args.seed + seed)
        except LimitReachedError:
            continue
        if len(moves) == length:
            pool.append(tuple(moves))
            return "same"
    try:
        result = plan(there, metric="moves", min_moves=length, max_moves=length, time_limit=args.sat_seconds)
    except LimitReachedError:
        return "unknown"
    if result.moves is not None:
        pool.append(tuple(result.moves))
        return "same"
    return "harder"


def optimum_from(board: Board, lower: int, args: argparse.Namespace) -> tuple[int, tuple[Move, ...]] | None:
    """The optimum of ``board`` known to be at least ``lower``: SAT planning from ``lower`` up."""
    try:
        result = plan(
            board, metric="moves", min_moves=lower, max_moves=args.max_moves, time_limit=args.solve_seconds
        )
    except LimitReachedError:
        return None
    if result.moves is None:
        return None
    moves = tuple(result.moves)
    verify(board, moves)
    return len(moves), moves


def start(args: argparse.Namespace, began: float) -> tuple[Board, int, list[tuple[Move, ...]]]:
    board = picked(args.source, args.pick)
    found = solve(board, engine="portfolio")
    log(f"{args.pick}: {found.length} moves, proved by the portfolio", began)
    return board, found.length, [tuple(found.moves)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--pick", required=True, help="the name of the starting board in --source")
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--max-moves", type=int, default=30)
    parser.add_argument("--max-vehicles", type=int, default=46)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument(
        "--sat-seconds", type=float, default=90.0, help="SAT planning's time for one candidate"
    )
    parser.add_argument("--solve-seconds", type=float, default=1800.0, help="for the optimum of a harder one")
    parser.add_argument("--name", required=True)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    rng = random.Random(args.seed)
    board, length, pool = start(args, began)
    try:
        while length < args.target and len(board.names) < args.max_vehicles:
            counts = {"same": 0, "unknown": 0}
            for there in additions(board, rng):
                verdict = harder(there, length, pool, args)
                if verdict != "harder":
                    counts[verdict] += 1
                    continue
                added = there.vehicles[-1]
                log(
                    f"{added.name} {added.orientation}{added.length} at ({added.row},{added.col}): "
                    f"no plan of {length} moves",
                    began,
                )
                found = optimum_from(there, length + 1, args)
                if found is None:
                    log("  its optimum was not found in time (or it is unsolvable): left", began)
                    continue
                board, length, pool = there, found[0], [found[1]]
                log(f"  optimum {length} moves (SAT planning); {len(board.names)} vehicles", began)
                break
            else:
                log(f"no addition is harder ({counts['same']} as long, {counts['unknown']} unknown)", began)
                break
    except KeyboardInterrupt:
        log(f"interrupted at {length} moves", began)
    optimal = f"{length} (SAT planning: a plan of {length}, none of {length - 1})"
    print_board(board, args.name, optimal, command_line("grow.py", args), began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
