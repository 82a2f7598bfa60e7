"""Boards as terminal text.  Pure functions: colour is a parameter, nothing is printed here.

Every cell shows its vehicle's name, so a board reads without colour; with colour each vehicle has its
own background for the whole game (the colour follows the vehicle, not the cell), the goal vehicle is
red and walls are grey.  The exit is marked on the frame.  A 12x12 board is 38 columns wide.
"""

from __future__ import annotations

from collections.abc import Mapping

from colorama import Back, Fore, Style

from rushhour.board import EMPTY, WALL, Board

GOAL_STYLE = Back.RED + Fore.WHITE + Style.BRIGHT
WALL_STYLE = Back.LIGHTBLACK_EX + Fore.BLACK
EMPTY_STYLE = Style.DIM
RESET = Style.RESET_ALL
#: backgrounds for the other vehicles, each with a readable foreground; red is kept for the goal
PALETTE = (
    Back.GREEN + Fore.BLACK,
    Back.YELLOW + Fore.BLACK,
    Back.BLUE + Fore.WHITE,
    Back.MAGENTA + Fore.WHITE,
    Back.CYAN + Fore.BLACK,
    Back.LIGHTGREEN_EX + Fore.BLACK,
    Back.LIGHTYELLOW_EX + Fore.BLACK,
    Back.LIGHTBLUE_EX + Fore.BLACK,
    Back.LIGHTMAGENTA_EX + Fore.BLACK,
    Back.LIGHTCYAN_EX + Fore.BLACK,
    Back.WHITE + Fore.BLACK,
)
CELL = 3


def use_color(flag: bool | None, isatty: bool, environ: Mapping[str, str]) -> bool:
    """The colour decision: ``--color``/``--no-color`` win, then ``NO_COLOR``, then the terminal."""
    if flag is not None:
        return flag
    if environ.get("NO_COLOR", ""):
        return False
    return isatty


def vehicle_style(board: Board, index: int) -> str:
    if index == board.layout.goal:
        return GOAL_STYLE
    others = [i for i in range(len(board.names)) if i != board.layout.goal]
    return PALETTE[others.index(index) % len(PALETTE)]


def _cell_text(label: str) -> str:
    return f"{label[:CELL]:^{CELL}}"


def render(board: Board, *, color: bool = False, highlight: str | None = None) -> str:
    """The board in a frame, with the exit marked; ``highlight`` underlines one vehicle."""
    lay = board.layout
    w, h = lay.width, lay.height
    occ = board.occupancy()
    styles = [vehicle_style(board, i) for i in range(len(lay.names))]
    exit_ = lay.exit
    target = lay.target
    edge_h = "~" if lay.wrap else "-"
    edge_v = ":" if lay.wrap else "|"

    def border(side: str) -> str:
        cells = []
        for c in range(w):
            mark = edge_h * CELL
            if exit_ is not None and exit_.side == side and exit_.index == c:
                mark = _cell_text("^" if side == "top" else "v")
            cells.append(mark)
        return "  +" + "".join(cells) + "+"

    lines = [border("top")]
    for r in range(h):
        parts = []
        for c in range(w):
            v = occ[r * w + c]
            if v == EMPTY:
                text = _cell_text("." if not (target and (target.row, target.col) == (r, c)) else "*")
                parts.append(EMPTY_STYLE + text + RESET if color else text)
            elif v == WALL:
                text = _cell_text("#")
                parts.append(WALL_STYLE + text + RESET if color else text)
            else:
                text = _cell_text(lay.names[v])
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
                left, suffix = "<", " (exit on the left)"
        lines.append("  " + left + "".join(parts) + right + suffix)
    lines.append(border("bottom"))
    if target is not None:
        lines.append(
            f"  wrap-around board: {board.goal} wins with its front at ({target.row}, {target.col}) "
            f"heading {target.heading} (*)"
        )
    return "\n".join(lines)
