"""From a grid of symbols to vehicles: shared by the grid-text and Fogleman parsers.

Each symbol's cells must form one straight, unbroken line of at least two cells (on a wrap-around
board the line may continue across the edge).  Errors name the text line and column of the cells.
"""

from __future__ import annotations

from collections.abc import Callable

from rushhour.board import HORIZONTAL, VERTICAL, Cell, Vehicle
from rushhour.errors import ParseError

EMPTY_CHARS = frozenset(".o")
WALL_CHARS = frozenset("x")
#: characters that may stand for a vehicle in a grid (``o`` and ``x`` are taken)
VEHICLE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnpqrstuvwyz0123456789"

Locator = Callable[[Cell], tuple[int, int]]  # cell -> (text line, text column), 1-based


def _components(cells: set[Cell], width: int, height: int, wrap: bool) -> list[list[Cell]]:
    """The 4-connected parts of ``cells``, in order; linear in the cells, whatever their number."""
    left = set(cells)
    parts = []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        stack, part = [start], [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                nr, nc = r + dr, c + dc
                if wrap:
                    nr, nc = nr % height, nc % width
                if (nr, nc) in left:
                    left.discard((nr, nc))
                    stack.append((nr, nc))
                    part.append((nr, nc))
        parts.append(sorted(part))
    return sorted(parts)


def vehicles_from_grid(
    grid: list[str],
    *,
    wrap: bool,
    legend: dict[str, str],
    locate: Locator,
    source: str | None,
) -> tuple[list[Vehicle], list[Cell]]:
    """Read vehicles and walls from rows of symbols already checked to be known characters."""
    height, width = len(grid), len(grid[0])
    by_symbol: dict[str, set[Cell]] = {}
    walls: list[Cell] = []
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch in WALL_CHARS:
                walls.append((r, c))
            elif ch not in EMPTY_CHARS:
                by_symbol.setdefault(ch, set()).add((r, c))

    def fail(message: str, cell: Cell) -> ParseError:
        line, column = locate(cell)
        return ParseError(message, source=source, line=line, column=column)

    vehicles = []
    for symbol in sorted(by_symbol):
        name = legend.get(symbol, symbol)
        parts = _components(by_symbol[symbol], width, height, wrap)
        if len(parts) > 1:
            second = locate(parts[1][0])
            raise fail(
                f"vehicle {name} appears twice (again at line {second[0]}, column {second[1]})",
                parts[0][0],
            )
        cells = parts[0]
        if len(cells) == 1:
            raise fail(f"vehicle {name} has a single cell: vehicles are at least 2 cells long", cells[0])
        rows = {r for r, _ in cells}
        cols = {c for _, c in cells}
        if len(rows) == 1:
            orientation, lane_cells = HORIZONTAL, sorted(c for _, c in cells)
            span = width
        elif len(cols) == 1:
            orientation, lane_cells = VERTICAL, sorted(r for r, _ in cells)
            span = height
        else:
            raise fail(f"vehicle {name} is not a straight line of cells", cells[0])
        start = lane_cells[0]
        if wrap and len(lane_cells) < span:
            members = set(lane_cells)
            start = next(p for p in lane_cells if (p - 1) % span not in members)
        if orientation == HORIZONTAL:
            vehicles.append(Vehicle(name, orientation, len(cells), cells[0][0], start))
        else:
            vehicles.append(Vehicle(name, orientation, len(cells), start, cells[0][1]))
    return vehicles, walls


def symbols_for(names: tuple[str, ...]) -> dict[str, str]:
    """A one-character symbol for every vehicle name: the name itself when it can be one."""
    chosen: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if len(name) == 1 and name in VEHICLE_CHARS:
            chosen[name] = name
            used.add(name)
    free = iter(ch for ch in VEHICLE_CHARS if ch not in used)
    for name in names:
        if name not in chosen:
            # prefer the name's own first letter, then any free symbol
            first = name[0]
            if first in VEHICLE_CHARS and first not in used:
                chosen[name] = first
            else:
                chosen[name] = next(free)
            used.add(chosen[name])
            free = iter(ch for ch in VEHICLE_CHARS if ch not in used)
    return chosen
