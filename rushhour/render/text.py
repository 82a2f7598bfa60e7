"""Boards as terminal text.  Pure functions: colour is a parameter, nothing is printed here.

Every cell shows its vehicle's name, so a board reads without colour; with colour each vehicle has its
own background (:mod:`rushhour.render.palette`: touching vehicles differ, the goal vehicle is red, walls
are grey), kept for the whole game when the caller passes the start's colours.  The exit is marked on
the frame.  Cells are three columns wide (wider when vehicle names are longer than two characters, as
far as the board still fits 80 columns), so a 12x12 board with one- or two-character names is 45
columns wide with its exit mark.
"""

from __future__ import annotations

from collections.abc import Mapping

from colorama import Style

from rushhour.board import EMPTY, WALL, Board, Target
from rushhour.render.palette import BASIC, Colour, goal_color, vehicle_colors, wall_color
from rushhour.text import plural

GOAL_STYLE = goal_color(BASIC).style()
WALL_STYLE = wall_color(BASIC).style()
EMPTY_STYLE = Style.DIM
RESET = Style.RESET_ALL
CELL = 3
#: the width a drawing should fit; the margin, the frame and the exit label take 16 columns at most
SCREEN = 80
FRAME = 16


def use_color(flag: bool | None, isatty: bool, environ: Mapping[str, str]) -> bool:
    """The colour decision: ``--color``/``--no-color`` win, then ``NO_COLOR``, then the terminal (a
    ``dumb`` one shows no colour: it would print the escapes as they are)."""
    if flag is not None:
        return flag
    if environ.get("NO_COLOR", "") or environ.get("TERM") == "dumb":
        return False
    return isatty


def cell_width(board: Board) -> int:
    """Three columns, or room for the longest name and a space while the board fits the screen."""
    longest = max(len(name) for name in board.names)
    if longest <= CELL - 1:
        return CELL
    return max(CELL, min(longest + 1, (SCREEN - FRAME) // board.width))


def _cell_text(label: str, width: int = CELL) -> str:
    return f"{label[:width]:^{width}}"


def target_words(goal: str, target: Target) -> str:
    """Where a wrap-around board's goal vehicle wins, as every screen says it.

    >>> target_words("A", Target(2, 5, "east"))
    'A wins with its front at (2,5) heading east'
    """
    return f"{goal} wins with its front at ({target.row},{target.col}) heading {target.heading}"


def board_summary(board: Board) -> str:
    """``6x6, 12 vehicles (car, truck), 0 walls, goal A, exit right``: a board in one line."""
    kinds = sorted({v.kind for v in board.vehicles})
    exit_text = f"exit {board.exit.side}" if board.exit is not None else f"target {board.target}"
    return (
        f"{board.width}x{board.height}, {plural(len(board.names), 'vehicle')} ({', '.join(kinds)}), "
        f"{plural(len(board.walls), 'wall')}, goal {board.goal}, {exit_text}"
        + (", wrap-around" if board.wrap else "")
    )


def render(
    board: Board,
    *,
    color: bool = False,
    highlight: str | None = None,
    depth: int = BASIC,
    colors: Mapping[str, Colour] | None = None,
    labels: bool = False,
) -> str:
    """The board in a frame, with the exit marked; with colour, ``highlight`` draws one vehicle's letters
    bold (the last one moved, say); with ``labels``, the rows and columns are numbered from 0, as
    messages name cells (``(row,col)``).

    Colours are those of :func:`rushhour.render.palette.vehicle_colors` at ``depth`` (16, 256 or true
    colour): pass ``colors`` computed once from a game's start so that vehicles keep their colours
    while they move; without it they are computed for ``board`` itself.
    """
    lay = board.layout
    w, h = lay.width, lay.height
    occ = board.occupancy()
    if color and colors is None:
        colors = vehicle_colors(board, depth)
    styles = [colors[name].style() for name in lay.names] if color and colors is not None else []
    wall_style = wall_color(depth).style()
    exit_ = lay.exit
    target = lay.target
    edge_h = "~" if lay.wrap else "-"
    edge_v = ":" if lay.wrap else "|"
    cw = cell_width(board)
    lw = len(str(max(w, h) - 1)) if labels else 1  # the width of a row number
    margin = " " * (lw + 1)

    def border(side: str) -> str:
        cells = []
        suffix = ""
        for c in range(w):
            mark = edge_h * cw
            if exit_ is not None and exit_.side == side and exit_.index == c:
                mark = _cell_text("^" if side == "top" else "v", cw)
                suffix = " exit"
            cells.append(mark)
        return margin + "+" + "".join(cells) + "+" + suffix

    lines = [margin + " " + "".join(_cell_text(str(c), cw) for c in range(w)).rstrip()] if labels else []
    lines.append(border("top"))
    for r in range(h):
        parts = []
        for c in range(w):
            v = occ[r * w + c]
            if v == EMPTY:
                text = _cell_text("." if not (target and (target.row, target.col) == (r, c)) else "*", cw)
                parts.append(EMPTY_STYLE + text + RESET if color else text)
            elif v == WALL:
                text = _cell_text("#", cw)
                parts.append(wall_style + text + RESET if color else text)
            else:
                text = _cell_text(lay.names[v], cw)
                if color:
                    style = styles[v] + (Style.BRIGHT if lay.names[v] == highlight else "")
                    parts.append(style + text + RESET)
                else:
                    parts.append(text)
        left = right = edge_v
        suffix = ""
        if exit_ is not None and exit_.index == r and exit_.side in ("right", "left"):
            if exit_.side == "right":
                right, suffix = ">", " exit"
            else:
                left, suffix = "<", " exit (left)"
        front = f"{r:>{lw}} " if labels else margin
        lines.append(front + left + "".join(parts) + right + suffix)
    lines.append(border("bottom"))
    if target is not None:
        lines.append(
            f"  wrap-around board: {target_words(board.goal, target)} (*)"
        )
    return "\n".join(lines)
