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


def positions_of(shape: Shape, walls: bool) -> list[Board]:
    """Every position of a generic shape (a horizontal red car of length 2 on its goal row leaving on
    the right; cars and trucks of both orientations anywhere; walls if ``walls``), listed cell by cell
    without the encoding: each free cell is empty, a wall, or the top/left cell of a vehicle."""
    from rushhour.board import Vehicle

    width, height, row = shape.width, shape.height, shape.goal_line
    out: list[Board] = []
    kinds = [(o, n) for o, n in shape.kinds]

    def place(k: int, taken: frozenset[tuple[int, int]], vehicles: list[tuple[str, int, int, int, bool]],
              wall_cells: list[tuple[int, int]]) -> None:  # fmt: skip
        if k == width * height:
            if sum(red for *_, red in vehicles) == 1:
                out.append(_board(width, height, vehicles, wall_cells, Vehicle))
            return
        cell = divmod(k, width)
        if cell in taken:
            place(k + 1, taken, vehicles, wall_cells)
            return
        place(k + 1, taken, vehicles, wall_cells)  # empty
        if walls:
            place(k + 1, taken | {cell}, vehicles, [*wall_cells, cell])
        choices = [(o, n, False) for o, n in kinds]
        if cell[0] == row and not any(red for *_, red in vehicles):
            choices.append((HORIZONTAL, 2, True))
        for o, n, red in choices:
            cells = [(cell[0], cell[1] + t) if o == HORIZONTAL else (cell[0] + t, cell[1]) for t in range(n)]
            if all(r < height and c < width and (r, c) not in taken for r, c in cells):
                place(k + 1, taken | set(cells), [*vehicles, (o, n, *cell, red)], wall_cells)

    place(0, frozenset(), [], [])
    return out


def _board(width: int, height: int, vehicles: list[tuple[str, int, int, int, bool]],
           wall_cells: list[tuple[int, int]], make: type) -> Board:  # fmt: skip
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    made = [make("A" if red else next(letters), o, n, r, c) for o, n, r, c, red in vehicles]
    return Board(width, height, made, walls=wall_cells, goal="A", exit="right")
