"""Hypothesis strategies for boards of every kind: sizes 3x3 to 12x12, walls, trucks and longer
vehicles, multi-character names, vertical goal cars, every exit side, wrap-around boards."""

from __future__ import annotations

from hypothesis import strategies as st

from rushhour.board import HORIZONTAL, VERTICAL, Board, Target, Vehicle

NAME_POOL = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["AA", "AB", "Q7", "car9", "z"]


@st.composite
def boards(
    draw: st.DrawFn,
    *,
    min_side: int = 3,
    max_side: int = 12,
    wrap: bool | None = None,
    walls: bool = True,
    max_vehicles: int = 14,
    square: bool = False,
    letters_only: bool = False,
    goal_name: str | None = None,
    exit_side: str | None = None,
) -> Board:
    """Boards of every kind; the keyword arguments narrow them to what a format can hold: square
    sides, one-letter names, a fixed goal name, a fixed exit side (the goal is then horizontal for
    right/left and vertical for top/bottom)."""
    width = draw(st.integers(min_side, max_side))
    height = width if square else draw(st.integers(min_side, max_side))
    is_wrap = draw(st.booleans()) if wrap is None else wrap
    taken: set[tuple[int, int]] = set()
    vehicles: list[Vehicle] = []
    pool = [n for n in NAME_POOL if (len(n) == 1 and n.isupper()) or not letters_only]
    names = iter(draw(st.permutations([n for n in pool if n != goal_name])))
    count = draw(st.integers(1, max_vehicles))
    for _ in range(count * 3):
        if len(vehicles) == count:
            break
        orientation = draw(st.sampled_from((HORIZONTAL, VERTICAL)))
        span = width if orientation == HORIZONTAL else height
        top = span - 1 if is_wrap else span
        if top < 2:
            continue
        length = draw(st.sampled_from([n for n in (2, 2, 2, 3, 3, 4) if n <= top] or [2]))
        row = draw(st.integers(0, height - 1))
        col = draw(st.integers(0, width - 1))
        if orientation == HORIZONTAL:
            cells = [(row, col + k) for k in range(length)]
        else:
            cells = [(row + k, col) for k in range(length)]
        if is_wrap:
            cells = [(r % height, c % width) for r, c in cells]
        if any(not (0 <= r < height and 0 <= c < width) or (r, c) in taken for r, c in cells):
            continue
        taken.update(cells)
        vehicles.append(Vehicle(next(names), orientation, length, row, col))
    if not vehicles:
        vehicles.append(Vehicle("A", HORIZONTAL, 2, 0, 0))
        taken.update({(0, 0), (0, 1)})
    wall_cells = []
    if walls:
        free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
        if free:
            wall_cells = draw(st.lists(st.sampled_from(free), max_size=4, unique=True))
    if exit_side is not None:
        wanted = HORIZONTAL if exit_side in ("right", "left") else VERTICAL
        fitting = [v for v in vehicles if v.orientation == wanted]
        if not fitting:
            return draw(
                boards(
                    min_side=min_side,
                    max_side=max_side,
                    wrap=wrap,
                    walls=walls,
                    max_vehicles=max_vehicles,
                    square=square,
                    letters_only=letters_only,
                    goal_name=goal_name,
                    exit_side=exit_side,
                )
            )
        goal = draw(st.sampled_from(fitting))
    else:
        goal = draw(st.sampled_from(vehicles))
    if goal_name is not None:
        renamed = Vehicle(goal_name, goal.orientation, goal.length, goal.row, goal.col)
        vehicles = [renamed if v is goal else v for v in vehicles]
        goal = renamed
    if is_wrap:
        if goal.orientation == HORIZONTAL:
            heading = draw(st.sampled_from(("east", "west")))
            target = Target(goal.row, draw(st.integers(0, width - 1)), heading)
        else:
            heading = draw(st.sampled_from(("north", "south")))
            target = Target(draw(st.integers(0, height - 1)), goal.col, heading)
        return Board(width, height, vehicles, walls=wall_cells, goal=goal.name, target=target, wrap=True)
    sides = ("right", "left") if goal.orientation == HORIZONTAL else ("top", "bottom")
    side = exit_side or draw(st.sampled_from(sides))
    return Board(width, height, vehicles, walls=wall_cells, goal=goal.name, exit=side)


@st.composite
def positions(draw: st.DrawFn, **kwargs: object) -> Board:
    """A board, then a random walk of legal moves from it."""
    board = draw(boards(**kwargs))  # type: ignore[arg-type]
    for _ in range(draw(st.integers(0, 12))):
        moves = board.legal_moves()
        if not moves:
            break
        board = board.apply(draw(st.sampled_from(moves)))
    return board
