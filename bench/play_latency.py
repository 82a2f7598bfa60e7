"""How long a player waits in `rushhour play`, per turn.

For every level of the built-in packs (or the BOARD arguments), a seeded random walk of legal moves is
played through a Game; each turn is timed: the legal moves from the SAT oracle against the reference
rules (the baseline, measured in the same run), and the drawing.  Then the first hint of each level
(a full optimal search) and a followed hint (answered from the plan already found) are timed.

    python bench/play_latency.py [--turns 40] [--seed 7] [BOARD ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from rushhour.board import Board, Move
from rushhour.game import Game
from rushhour.levels import packs, resolve_board
from rushhour.logic.oracle import legal_moves as oracle_moves
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-hints", action="store_true", help="skip the solver timings")
    args = parser.parse_args()
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
