"""Make a crowded board's optimal solution longer, one change at a time, each length proved.

From a board of a pack (``--source FILE --pick NAME``), whose optimal length ``L`` the frontier search
proves first, the ascent tries neighbours of the board in a seeded random order: every legal move of
one vehicle, and as many boards with one vehicle (not the goal) taken away and a new random one put on
free cells.  One bounded pass of bound ``L`` (:func:`rushhour.search.frontier.one_pass`, the passes of
the ``bfs`` engine) answers for each: it returns a shortest solution when one of at most ``L`` moves
exists, so it gives the neighbour's optimal length exactly when that is at most ``L``, and proves it
longer otherwise.  A neighbour one move away needs at most ``L + 1`` moves (its move undone, then the
board's solution), so an empty pass proves exactly ``L + 1``; a neighbour with a vehicle put elsewhere
is then solved again by the ``bfs`` engine (its passes, bound after bound).  The first longer
neighbour is kept; when none is longer, the ascent steps to one of the first ``PLATEAU`` neighbours of
the same length.

Only ``--cap`` (positions a pass may store) limits a pass, never the time, so a seed gives the same
boards on any machine.  Every printed length is the length of a solution the pass found, or the proof
that none shorter exists; each board is cross-checked afterwards by the bfs engine and the portfolio
(the ``optimal`` line of bench/large/crowded.txt says which).

    python bench/large/ascend.py --source bench/large/crowded.txt --pick crowd12-01 --target 25 \\
        --max-moves 30 --seed 1 --name crowd12-03
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator

from climb import _place, _without, command_line, optimum, picked, print_board

from rushhour.board import Board
from rushhour.search.bfs import Limits
from rushhour.search.frontier import one_pass
from rushhour.search.tables import tables_for

PLATEAU = 8  # neighbours of the same length collected before one is stepped to
LIMIT = 2  # the compiled pass's status when a limit stopped it


def optimum_upto(board: Board, bound: int, cap: int) -> int | None:
    """The optimal length of ``board`` when it is at most ``bound``, ``bound + 1`` when it is longer (or
    the board unsolvable), None when the pass reached ``cap`` positions."""
    tables = tables_for(board.layout, "moves")
    status, _, keys, _, _ = one_pass(tables, tables.pack(board.state), Limits(cap, None), bound)
    if status == LIMIT:
        return None
    return bound + 1 if keys is None else len(keys) - 1


def neighbours(board: Board, rng: random.Random) -> Iterator[tuple[str, Board]]:
    moves = [there for _, there in board.successors("moves")]
    out = [("move", there) for there in moves]
    others = [n for n in board.names if n != board.goal]
    for _ in range(len(moves)):
        gone = rng.choice(others)
        placed = _place(_without(board, gone), gone, rng)
        if placed is not None:
            out.append(("place", placed))
    rng.shuffle(out)
    yield from out


def step(board: Board, length: int, args: argparse.Namespace, rng: random.Random) -> tuple[Board, int, str]:
    """The first longer neighbour (or one of the same length: a plateau step); ``length`` unchanged
    and ``board`` itself when neither was found."""
    same: list[Board] = []
    for kind, there in neighbours(board, rng):
        found = optimum_upto(there, length, args.cap)
        if found is None:
            continue
        if found > length and kind == "place":
            found = optimum(there, args.cap)
            if found is None or found > args.max_moves:
                continue
        if found > length:
            return there, found, kind
        if found == length:
            same.append(there)
            if len(same) >= PLATEAU:
                break
    if not same:
        return board, length, "stuck"
    return rng.choice(same), length, "plateau"


def start(args: argparse.Namespace) -> tuple[Board, int]:
    board = picked(args.source, args.pick)
    length = optimum(board, args.cap)
    if length is None or length > args.max_moves:
        raise SystemExit(f"error: {args.pick}: no optimal length proved within the cap")
    return board, length


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--pick", required=True, help="the name of the starting board in --source")
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--max-moves", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cap", type=int, default=40_000_000, help="positions a pass may store")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--name", required=True)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    rng = random.Random(args.seed)
    board, length = start(args)
    print(f"start: {length} moves", file=sys.stderr, flush=True)
    reached = board
    try:
        for k in range(args.steps):
            if length >= args.target:
                break
            board, length, kind = step(board, length, args, rng)
            seconds = time.perf_counter() - began
            print(f"step {k + 1}: {length} moves ({kind}, {seconds:.0f} s)", file=sys.stderr, flush=True)
            if kind != "plateau":
                reached = board
            if kind == "stuck":
                break
    except KeyboardInterrupt:  # the first board of the length reached: --target set to it makes it again
        print(f"interrupted at {length} moves", file=sys.stderr)
        board, args.target = reached, length
    command = command_line("ascend.py", args)
    print_board(board, args.name, f"{length} (proved by the frontier passes)", command, began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
