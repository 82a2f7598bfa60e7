"""The true propositions of a position read from the reference rules alone (board.py), never from the
encoding or a solver: the second source of truth for claims, counts and explanations."""

from __future__ import annotations

from rushhour.board import HORIZONTAL, Board
from rushhour.logic.encoding import Shape


def reference_truth(board: Board) -> frozenset[str]:
    """Every proposition of the encoding that is true in ``board``, by its definition in
    docs/encoding.md, computed from the board's cells and :meth:`Board.legal_moves`."""
    lay = board.layout
    true: set[str] = set()
    taken: set[tuple[int, int]] = set(lay.walls)
    for r, c in lay.walls:
        true.add(f"Wall({r},{c})")
    legal = {(m.vehicle, m.distance) for m in board.legal_moves()}
    for i, offset in enumerate(board.state):
        cells = lay.cells(i, offset)
        taken.update(cells)
        horizontal = lay.orientations[i] == HORIZONTAL
        state = "Red" if i == lay.goal else f"{lay.orientations[i]}{lay.lengths[i]}"
        for part, (r, c) in enumerate(cells):
            true.add(f"{state}({r},{c})")
            true.add(f"Part{part}({r},{c})")
        (r0, c0), (r1, c1) = cells[0], cells[-1]
        back, fwd = ("L", "R") if horizontal else ("U", "D")
        true.add(f"End{back}({r0},{c0})")
        true.add(f"End{fwd}({r1},{c1})")
        name = lay.names[i]
        for sign, d, (r, c) in ((-1, back, (r0, c0)), (1, fwd, (r1, c1))):
            for k in range(1, max(lay.width, lay.height)):
                if (name, sign * k) in legal:
                    true.add(f"CM{d}({r},{c})" if k == 1 else f"Slide{d}({r},{c},{k})")
    for r in range(lay.height):
        for c in range(lay.width):
            if (r, c) not in taken:
                true.add(f"Empty({r},{c})")
    shape = Shape.of(board)
    if board.is_won():
        true.add("Won")
        true.add(f"Won({shape.won_cell[0]},{shape.won_cell[1]})")
    return frozenset(true)
