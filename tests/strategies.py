"""Random boards of every kind for tests: sizes 3x3 to 16x16, walls, trucks and longer vehicles,
multi-character names, vertical goal cars, every exit side, wrap-around boards.

`random_board` builds one from a `random.Random`; `boards()` and `positions()` are the hypothesis
strategies over it."""

from __future__ import annotations

import random
from collections import deque

from hypothesis import strategies as st

from rushhour.board import HORIZONTAL, VERTICAL, Board, Target, Vehicle

NAME_POOL = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["AA", "AB", "Q7", "car9", "z"]
NAME_POOL += [f"v{k}" for k in range(20)]


def _cells(
    orientation: str, length: int, row: int, col: int, size: tuple[int, int], wrap: bool
) -> list[tuple[int, int]]:
    """The cells a vehicle would cover (wrapped around the edges on a wrap-around board); some may
    be off a bounded board."""
    width, height = size
    if orientation == HORIZONTAL:
        cells = [(row, col + k) for k in range(length)]
    else:
        cells = [(row + k, col) for k in range(length)]
    if wrap:
        cells = [(r % height, c % width) for r, c in cells]
    return cells


def random_board(
    rng: random.Random,
    *,
    size: tuple[int, int],
    wrap: bool,
    count: int,
    walls: int,
    letters_only: bool = False,
    goal_name: str | None = None,
    exit_side: str | None = None,
) -> Board:
    """Up to ``count`` vehicles and ``walls`` walls placed at random; the keyword arguments narrow the
    board to what a format can hold: one-letter names, a fixed goal name, a fixed exit side (the goal
    is then horizontal for right/left and vertical for top/bottom)."""
    width, height = size
    taken: set[tuple[int, int]] = set()
    vehicles: list[Vehicle] = []
    pool = [n for n in NAME_POOL if not letters_only or (len(n) == 1 and n.isupper())]
    names = iter(rng.sample([n for n in pool if n != goal_name], len(pool) - (goal_name in pool)))
    if exit_side is not None:  # the goal first, so that one of the right orientation exists
        orientations = [HORIZONTAL if exit_side in ("right", "left") else VERTICAL]
    else:
        orientations = [HORIZONTAL, VERTICAL]
    for _ in range(count * 40):
        if len(vehicles) == count:
            break
        orientation = rng.choice(orientations if not vehicles else (HORIZONTAL, VERTICAL))
        span = width if orientation == HORIZONTAL else height
        top = span - 1 if wrap else span
        length = rng.choice([n for n in (2, 2, 2, 3, 3, 4) if n <= top] or [2])
        row, col = rng.randrange(height), rng.randrange(width)
        cells = _cells(orientation, length, row, col, size, wrap)
        if any(not (0 <= r < height and 0 <= c < width) or (r, c) in taken for r, c in cells):
            continue
        name = goal_name if (goal_name and not vehicles) else next(names)
        taken.update(cells)
        vehicles.append(Vehicle(name, orientation, length, row, col))
    if not vehicles:
        orientation = orientations[0]
        vehicles.append(Vehicle(goal_name or "A", orientation, 2, 0, 0))
        taken.update({(0, 0), (0, 1)} if orientation == HORIZONTAL else {(0, 0), (1, 0)})
    free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
    wall_cells = rng.sample(free, min(walls, len(free)))
    fitting = [v for v in vehicles if v.orientation in orientations]
    goal = vehicles[0] if (goal_name or exit_side) else rng.choice(fitting)
    if wrap:
        if goal.orientation == HORIZONTAL:
            target = Target(goal.row, rng.randrange(width), rng.choice(("east", "west")))
        else:
            target = Target(rng.randrange(height), goal.col, rng.choice(("north", "south")))
        return Board(width, height, vehicles, walls=wall_cells, goal=goal.name, target=target, wrap=True)
    sides = ("right", "left") if goal.orientation == HORIZONTAL else ("top", "bottom")
    return Board(
        width, height, vehicles, walls=wall_cells, goal=goal.name, exit=exit_side or rng.choice(sides)
    )


def random_walk(board: Board, rng: random.Random, steps: int) -> Board:
    """The position after up to ``steps`` random legal moves."""
    for _ in range(steps):
        moves = board.legal_moves()
        if not moves:
            break
        board = board.apply(rng.choice(moves))
    return board


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
    width = draw(st.integers(min_side, max_side))
    height = width if square else draw(st.integers(min_side, max_side))
    return random_board(
        draw(st.randoms(use_true_random=False)),
        size=(width, height),
        wrap=draw(st.booleans()) if wrap is None else wrap,
        count=draw(st.integers(1, max_vehicles)),
        walls=draw(st.integers(0, 4)) if walls else 0,
        letters_only=letters_only,
        goal_name=goal_name,
        exit_side=exit_side,
    )


@st.composite
def positions(draw: st.DrawFn, **kwargs: object) -> Board:
    """A board, then a random walk of legal moves from it."""
    board = draw(boards(**kwargs))  # type: ignore[arg-type]
    return random_walk(board, draw(st.randoms(use_true_random=False)), draw(st.integers(0, 12)))


def any_board(rng: random.Random, *, min_side: int = 5, max_side: int = 12) -> Board:
    """A valid board of any kind (the SAT oracle's tests): size, walls, vehicle lengths 2 to 4, goal
    orientation, exit, wrap."""
    width, height = rng.randint(min_side, max_side), rng.randint(min_side, max_side)
    wrap = rng.random() < 0.3
    taken: set[tuple[int, int]] = set()
    vehicles: list[Vehicle] = []
    names = iter([chr(c) for c in range(ord("B"), ord("Z") + 1)] + [f"V{k}" for k in range(200)])

    def place(name: str, orientation: str, length: int, row: int, col: int) -> bool:
        cells = _cells(orientation, length, row, col, (width, height), wrap)
        if any(not (0 <= r < height and 0 <= c < width) or (r, c) in taken for r, c in cells):
            return False
        taken.update(cells)
        vehicles.append(Vehicle(name, orientation, length, row, col))
        return True

    goal_o = rng.choice((HORIZONTAL, VERTICAL))
    span = width if goal_o == HORIZONTAL else height
    goal_len = rng.choice((2, 2, 3)) if span > 3 else 2
    if goal_o == HORIZONTAL:
        place(
            "A", goal_o, goal_len, rng.randrange(height), rng.randrange(width - (0 if wrap else goal_len - 1))
        )
    else:
        place(
            "A", goal_o, goal_len, rng.randrange(height - (0 if wrap else goal_len - 1)), rng.randrange(width)
        )
    for _ in range(width * height // 2):
        orientation = rng.choice((HORIZONTAL, VERTICAL))
        length = rng.choice((2, 2, 2, 3, 3, 4))
        lane_span = width if orientation == HORIZONTAL else height
        if length >= lane_span:
            continue
        placed = place(next(names), orientation, length, rng.randrange(height), rng.randrange(width))
        if placed and len(vehicles) >= width * height // 4:
            break
    free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
    walls = rng.sample(free, min(len(free), rng.randint(0, 4)))
    goal = vehicles[0]
    if wrap:
        if goal_o == HORIZONTAL:
            target = Target(goal.row, rng.randrange(width), rng.choice(("east", "west")))
        else:
            target = Target(rng.randrange(height), goal.col, rng.choice(("north", "south")))
        return Board(width, height, vehicles, walls=walls, target=target, wrap=True)
    side = rng.choice(("right", "left") if goal_o == HORIZONTAL else ("top", "bottom"))
    return Board(width, height, vehicles, walls=walls, exit=side)


def boards_of_every_kind(seed: int, number: int, dense: bool = False) -> list[Board]:
    """Random positions; ``dense`` boards are crowded enough to keep their clusters small."""
    rng = random.Random(seed)
    out = []
    for k in range(number):
        wrap = k % 3 == 0
        top = 8 if dense else 12
        size = (rng.randint(5, top), rng.randint(5, top))
        area = size[0] * size[1]
        count = rng.randint(area // 6, area // 3) if dense else rng.randint(3, 16)
        board = random_board(rng, wrap=wrap, size=size, count=count, walls=rng.randint(0, 4))
        out.append(random_walk(board, rng, rng.randint(0, 10)))
    return out


def bfs_distance(board: Board, metric: str, cap: int = 20000) -> int | None:
    """Moves to the nearest won position by the reference rules; -1 unsolvable; None over ``cap``."""
    seen = {board.state}
    queue = deque([(board, 0)])
    while queue:
        here, d = queue.popleft()
        if here.is_won():
            return d
        for _, after in here.successors(metric):
            if after.state not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(after.state)
                queue.append((after, d + 1))
    return -1
