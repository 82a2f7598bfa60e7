"""Vehicle colours: touching vehicles differ, the goal vehicle is red, walls are grey.

A terminal offers one of three colour depths: the 16 basic colours (:data:`BASIC`), the xterm
256-colour table (:data:`XTERM_256`) or 24-bit colour (:data:`TRUE_COLOR`).  :func:`color_depth` reads
which one from the environment; whether to colour at all (``NO_COLOR``, ``--no-color``, a terminal or
not) is the caller's decision (see :func:`rushhour.render.text.use_color`).

Every vehicle but the goal gets a colour from a palette of *hue families* (green, yellow, blue, purple,
cyan, grey, and at 256 colours and beyond orange too), none of them red-like: red is kept for the goal
vehicle alone.  The choice is a graph colouring of the position's contact graph (two vehicles are
joined when a cell of one is edge-adjacent to a cell of the other, across the edge on a wrap-around
board): touching vehicles always get different families.  Vehicles are coloured in smallest-last
order, so that each meets at most five coloured neighbours when the graph is planar (rectangles
touching on a flat board always are) and a free family is always left.  Among the free families the
choice avoids, in this order, the families of vehicles that touch at a corner, those of vehicles that
could touch after one slide, and the families used most so far; everything is decided by the board
alone, so the same board gets the same colours everywhere.

Colours are computed for one position: a game computes them once, from its start, and keeps them, so
that a vehicle keeps its colour while it moves.

>>> from rushhour.formats import parse_text
>>> board = parse_text("AA.\\nB..\\nB..", fmt="grid")[0].board
>>> colours = vehicle_colors(board, BASIC)
>>> colours["A"].name, colours["A"].sgr()
('red', '\\x1b[41m')
>>> colours["B"].family != "red" and colours["B"].index != 1
True
>>> vehicle_colors(board, TRUE_COLOR)["A"].sgr(background=False)
'\\x1b[38;2;215;0;0m'
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from rushhour.board import Board
from rushhour.errors import ParameterError, expect

BASIC = 16
XTERM_256 = 256
TRUE_COLOR = 1 << 24
DEPTHS = (BASIC, XTERM_256, TRUE_COLOR)

RGB = tuple[int, int, int]

#: the RGB values of the 16 basic colours in xterm's default scheme (terminals differ a little)
_BASIC_RGB: tuple[RGB, ...] = (
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
    (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
    (255, 0, 255), (0, 255, 255), (255, 255, 255),
)  # fmt: skip
_CUBE = (0, 95, 135, 175, 215, 255)


@dataclass(frozen=True)
class Colour:
    """A colour at a depth: ``index`` is its xterm number (0-15 for the basic colours, 0-255 else; the
    nearest one for a true colour), usable as a curses colour number; ``rgb`` its 24-bit value."""

    name: str
    family: str
    index: int
    rgb: RGB
    depth: int

    def sgr(self, *, background: bool = True) -> str:
        """The escape sequence that selects this colour as the background (or the foreground)."""
        if self.depth == BASIC:
            base = (40 if background else 30) if self.index < 8 else (100 if background else 90)
            return f"\x1b[{base + self.index % 8}m"
        if self.depth == XTERM_256:
            return f"\x1b[{48 if background else 38};5;{self.index}m"
        r, g, b = self.rgb
        return f"\x1b[{48 if background else 38};2;{r};{g};{b}m"

    @property
    def ink(self) -> Colour:
        """Black or white, whichever contrasts more with this colour (WCAG's contrast ratio)."""
        dark = ink_for(self.rgb) == (0, 0, 0)
        if self.depth == BASIC:
            return _basic("black", "black", 0) if dark else _basic("white", "white", 15)
        rgb = (0, 0, 0) if dark else (255, 255, 255)
        name = "black" if dark else "white"
        return Colour(name, name, _xterm_index(rgb), rgb, self.depth)

    def style(self) -> str:
        """This colour as the background with its ink as the foreground: how a cell is drawn."""
        return self.sgr() + self.ink.sgr(background=False)


def _luminance(rgb: RGB) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_for(rgb: RGB) -> RGB:
    """Black or white, whichever contrasts more with ``rgb`` (WCAG's contrast ratio): the colour of a
    name written on it."""
    light = _luminance(rgb)
    return (0, 0, 0) if (light + 0.05) / 0.05 > 1.05 / (light + 0.05) else (255, 255, 255)


def contrast(one: RGB, other: RGB) -> float:
    """WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black and white)."""
    a, b = sorted((_luminance(one), _luminance(other)))
    return (b + 0.05) / (a + 0.05)


def red_like(rgb: RGB) -> bool:
    """A saturated colour whose hue is within 20 degrees of red (pink-reds and orange-reds too)."""
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return s >= 0.35 and v >= 0.3 and min(h, 1 - h) * 360 < 20


def _xterm_index(rgb: RGB) -> int:
    """The nearest colour of xterm's 6x6x6 cube or grey ramp."""

    def level(v: int) -> int:
        return min(range(6), key=lambda k: abs(_CUBE[k] - v))

    cube = tuple(level(v) for v in rgb)
    cube_rgb = tuple(_CUBE[k] for k in cube)
    grey = min(range(24), key=lambda k: abs(8 + 10 * k - sum(rgb) // 3))
    grey_rgb = (8 + 10 * grey,) * 3

    def distance(other: tuple[int, ...]) -> int:
        return sum((a - b) ** 2 for a, b in zip(rgb, other, strict=True))

    if distance(grey_rgb) < distance(cube_rgb):
        return 232 + grey
    return 16 + 36 * cube[0] + 6 * cube[1] + cube[2]


def _basic(name: str, family: str, index: int) -> Colour:
    return Colour(name, family, index, _BASIC_RGB[index], BASIC)


def _rich(name: str, family: str, rgb: RGB, depth: int) -> Colour:
    return Colour(name, family, _xterm_index(rgb), rgb, depth)


#: the vehicle palette of the basic colours: six hue families, each plain and bright
_BASIC_VEHICLES = (
    ("green", "green", 2), ("yellow", "yellow", 3), ("blue", "blue", 4), ("magenta", "purple", 5),
    ("cyan", "cyan", 6), ("white", "grey", 7), ("bright green", "green", 10),
    ("bright yellow", "yellow", 11), ("bright blue", "blue", 12), ("bright magenta", "purple", 13),
    ("bright cyan", "cyan", 14), ("bright white", "grey", 15),
)  # fmt: skip
#: the palette of 256 and true colours (every value is in xterm's cube, so both depths agree)
_RICH_VEHICLES: tuple[tuple[str, str, RGB], ...] = (
    ("green", "green", (0, 175, 0)), ("yellow", "yellow", (255, 215, 0)), ("blue", "blue", (0, 95, 215)),
    ("purple", "purple", (135, 95, 215)), ("cyan", "cyan", (0, 215, 215)),
    ("orange", "orange", (255, 135, 0)), ("silver", "grey", (175, 175, 175)),
    ("lime", "green", (175, 255, 95)), ("olive", "yellow", (175, 175, 0)), ("sky", "blue", (95, 175, 255)),
    ("violet", "purple", (175, 95, 255)), ("teal", "cyan", (0, 135, 135)), ("brown", "orange", (175, 95, 0)),
    ("white", "grey", (255, 255, 255)), ("navy", "blue", (0, 0, 175)), ("magenta", "purple", (215, 0, 215)),
    ("mint", "green", (95, 215, 175)),
)  # fmt: skip


@cache
def palette(depth: int) -> tuple[Colour, ...]:
    """The colours vehicles other than the goal can get at a depth (none of them red-like)."""
    if depth == BASIC:
        return tuple(_basic(*entry) for entry in _BASIC_VEHICLES)
    return tuple(_rich(name, family, rgb, _check_depth(depth)) for name, family, rgb in _RICH_VEHICLES)


class DepthError(ParameterError, ValueError):
    """A colour depth other than 16, 256 or 2**24: a :class:`ParameterError`, and a ``ValueError`` as
    Python's own calls raise."""


def _check_depth(depth: int) -> int:
    if isinstance(depth, bool) or depth not in DEPTHS:
        raise DepthError(f"unknown colour depth {depth!r}: use 16, 256 or {TRUE_COLOR}")
    return depth


def goal_color(depth: int) -> Colour:
    """Red, for the goal vehicle."""
    if _check_depth(depth) == BASIC:
        return _basic("red", "red", 1)
    return _rich("red", "red", (215, 0, 0), depth)


def wall_color(depth: int) -> Colour:
    """Dark grey, for walls (no vehicle is ever that dark a grey)."""
    if _check_depth(depth) == BASIC:
        return _basic("bright black", "wall", 8)
    return Colour("dark grey", "wall", 240, (88, 88, 88), depth)


#: a terminfo entry of direct colour (ncurses: ``NAME-direct``, ``NAME-direct2``, ``NAME-direct16``...)
_DIRECT_TERM = re.compile(r"-direct[0-9]*$")


def color_depth(environ: Mapping[str, str]) -> int:
    """The colour depth a terminal offers, from ``COLORTERM`` (``truecolor``/``24bit``) and ``TERM``
    (a direct-colour entry, ``xterm-direct`` or ``konsole-direct16``; containing ``256color``); the
    16 basic colours otherwise.

    >>> color_depth({"COLORTERM": "truecolor"}) == TRUE_COLOR, color_depth({"TERM": "xterm-256color"})
    (True, 256)
    >>> color_depth({"TERM": "xterm-direct"}) == TRUE_COLOR
    True
    """
    expect(environ, Mapping, "environ", "a mapping of names to values, like os.environ")
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return TRUE_COLOR
    if _DIRECT_TERM.search(environ.get("TERM", "")):
        return TRUE_COLOR
    if "256color" in environ.get("TERM", ""):
        return XTERM_256
    return BASIC


def _neighbour_cells(board: Board, cell: tuple[int, int], *, diagonal: bool) -> list[tuple[int, int]]:
    r, c = cell
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    out = []
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        if board.wrap:
            rr, cc = rr % board.height, cc % board.width
        if 0 <= rr < board.height and 0 <= cc < board.width:
            out.append((rr, cc))
    return out


def _contacts(
    board: Board, cells: Mapping[str, list[tuple[int, int]]], *, diagonal: bool
) -> dict[str, set[str]]:
    owner = {cell: name for name, own in cells.items() for cell in own}
    found: dict[str, set[str]] = {name: set() for name in cells}
    for name, own in cells.items():
        for cell in own:
            for other in _neighbour_cells(board, cell, diagonal=diagonal):
                who = owner.get(other)
                if who is not None and who != name:
                    found[name].add(who)
                    found[who].add(name)
    return found


def contact_graph(board: Board) -> dict[str, set[str]]:
    """For every vehicle, the vehicles it touches (an edge-adjacent cell)."""
    expect(board, Board, "board", "a Board")
    return _contacts(board, {name: board.cells_of(name) for name in board.names}, diagonal=False)


def _swept_contacts(board: Board) -> dict[str, set[str]]:
    """The vehicles whose cells could touch after one slide of either (all of the slides' cells)."""
    swept = {name: list(board.cells_of(name)) for name in board.names}
    lay = board.layout
    for move in board.legal_moves():
        i = lay.index(move.vehicle)
        swept[move.vehicle].extend(lay.cells(i, board.state[i] + move.distance))
    return _contacts(board, swept, diagonal=False)


def _smallest_last(graph: Mapping[str, set[str]], order: list[str]) -> list[str]:
    """A colouring order in which every vertex meets as few coloured neighbours as possible."""
    left = {name: set(graph[name]) for name in order}
    removed: list[str] = []
    while left:
        name = min(left, key=lambda n: (len(left[n]), order.index(n)))
        removed.append(name)
        for other in left.pop(name):
            left[other].discard(name)
    return removed[::-1]


def vehicle_colors(board: Board, depth: int = BASIC) -> dict[str, Colour]:
    """A colour for every vehicle of ``board``: the goal red, touching vehicles in different hue
    families, at ``depth`` (:data:`BASIC`, :data:`XTERM_256` or :data:`TRUE_COLOR`)."""
    expect(board, Board, "board", "a Board")
    choices = palette(_check_depth(depth))
    others = [name for name in board.names if name != board.goal]
    cells = {name: board.cells_of(name) for name in board.names}
    touching = _contacts(board, cells, diagonal=False)
    near = {"corner": _contacts(board, cells, diagonal=True), "slide": _swept_contacts(board)}
    chosen: dict[str, Colour] = {board.goal: goal_color(depth)}
    for name in _smallest_last({n: touching[n] - {board.goal} for n in others}, others):
        chosen[name] = _choose(choices, chosen, touching[name], near["corner"][name], near["slide"][name])
    return {name: chosen[name] for name in board.names}


def _choose(
    choices: tuple[Colour, ...],
    chosen: Mapping[str, Colour],
    touching: set[str],
    corner: set[str],
    slide: set[str],
) -> Colour:
    """The colour for one vehicle: a family no touching vehicle has, then the one fewest vehicles at
    its corners, then after a slide, then anywhere have; within it the variant no touching vehicle has,
    then the one least used nearby, then anywhere."""

    def around(group: set[str]) -> list[Colour]:
        return [chosen[n] for n in sorted(group) if n in chosen]

    families = list(dict.fromkeys(c.family for c in choices))
    taken = {c.family for c in around(touching)}
    corners = [c.family for c in around(corner)]
    slides = [c.family for c in around(slide)]
    everywhere = [c.family for c in chosen.values()]

    def cost(family: str) -> tuple[bool, int, int, int, int]:
        counts = (corners.count(family), slides.count(family), everywhere.count(family))
        return (family in taken, *counts, families.index(family))

    family = min(families, key=cost)
    touched, nearby, everyone = around(touching), around(touching | corner | slide), list(chosen.values())
    variants = [c for c in choices if c.family == family]
    return min(variants, key=lambda c: (touched.count(c), nearby.count(c), everyone.count(c)))


__all__ = [
    "BASIC",
    "DEPTHS",
    "TRUE_COLOR",
    "XTERM_256",
    "Colour",
    "DepthError",
    "color_depth",
    "contact_graph",
    "contrast",
    "goal_color",
    "ink_for",
    "palette",
    "red_like",
    "vehicle_colors",
    "wall_color",
]
