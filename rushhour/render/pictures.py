"""Boards as pictures: SVG (no dependency) and animated GIF (Pillow, the optional ``pictures`` extra).

Both draw the same geometry: the board's frame with a gap and an arrow at the exit (on wrap-around
boards the target cell outlined, with an arrow for its heading), walls as dark squares, every vehicle
as a rounded bar in its own colour (the goal in red) with its name, and the vehicle just moved
outlined.  A vehicle that wraps round the edge of a wrap-around board is drawn as two bars.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from rushhour.board import WALL, Board
from rushhour.errors import ParameterError, RushHourError, expect, expect_whole
from rushhour.render.palette import ink_for

#: the name of one frame of :func:`write_svg_frames`
_FRAME_RE = re.compile(r"step-\d{3,}\.svg")

CELL = 48
MARGIN = 24
#: the sizes of a cell in pixels that draw (a vehicle is inset 4 pixels and rounded by 8)
MIN_CELL, MAX_CELL = 16, 256
#: how long a GIF shows a position, in milliseconds (GIF counts hundredths of a second, in 16 bits)
MIN_FRAME_MS, MAX_FRAME_MS = 10, 60_000
GOAL_COLOR = "#d62728"
WALL_COLOR = "#555555"
BOARD_COLOR = "#f4f1e8"
FRAME_COLOR = "#333333"
PALETTE = (
    "#1f77b4",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#7f7f7f",
    "#aec7e8",
    "#98df8a",
    "#ffbb78",
    "#c5b0d5",
)
PICTURES_HINT = (
    "drawing a GIF needs Pillow: install it with  pip install Pillow  (or rushhour with its "
    "'pictures' extra:  pip install 'rushhour[pictures]',  '.[pictures]' in its source folder)"
)


def require_pillow() -> None:
    """Raise the error saying how to install Pillow when it is missing, or what is wrong when it is
    there but cannot draw (its compiled core missing or built for another Python)."""
    try:
        import PIL
    except ImportError:
        raise RushHourError(PICTURES_HINT) from None
    try:
        from PIL import Image, ImageDraw  # noqa: F401
    except ImportError as err:
        where = os.path.dirname(PIL.__file__ or "") or "its folder"
        raise RushHourError(
            f"drawing a GIF needs Pillow, which is installed ({where}) but cannot be loaded: {err}; "
            "reinstall it with  pip install --force-reinstall Pillow"
        ) from None


Rect = tuple[int, int, int, int]  # x, y, width, height in pixels


def _check_cell(cell: int) -> None:
    expect_whole(cell, "cell")
    if not MIN_CELL <= cell <= MAX_CELL:
        raise ParameterError(f"{{cell}} must be from {MIN_CELL} to {MAX_CELL} pixels, not {cell}")


def _drawn(board: Board, highlight: str | None) -> str | None:
    """The board's own spelling of the vehicle ``highlight`` names (``a`` is ``A``), or None; a board
    that is no Board, or a name of no vehicle of it, is refused here rather than drawn without its mark."""
    expect(board, Board, "board", "a Board (rushhour.load gives the board of a name)")
    expect(highlight, (str, type(None)), "highlight", "a vehicle name or None")
    return None if highlight is None else board.layout.vehicle_name(highlight)


def _check_frames(positions: Sequence[Board], highlights: Sequence[str | None] | None) -> None:
    """One picture a position: at least one position, and one highlight (or None) for each, naming a
    vehicle of its position."""
    expect(positions, Sequence, "positions", "a sequence of Boards")
    expect(highlights, (Sequence, type(None)), "highlights", "a sequence of vehicle names (or None) or None")
    for k, board in enumerate(positions):
        _drawn(board, None if highlights is None or k >= len(highlights) else highlights[k])
    if not positions:
        raise ParameterError("{positions} is empty: there is no position to draw")
    if highlights is not None and len(highlights) != len(positions):
        raise ParameterError(
            f"{{highlights}} has {len(highlights)} entries for {len(positions)} positions: "
            "give one a position (None where no vehicle was moved)"
        )


def _color(board: Board, index: int) -> str:
    if index == board.layout.goal:
        return GOAL_COLOR
    others = [i for i in range(len(board.names)) if i != board.layout.goal]
    return PALETTE[others.index(index) % len(PALETTE)]


def _ink(color: str) -> str:
    """The colour of a name written on ``color``: black or white, whichever reads better."""
    r, g, b = ink_for(_hex(color))
    return f"#{r:02x}{g:02x}{b:02x}"


def _size(board: Board, cell: int) -> tuple[int, int]:
    return board.width * cell + 2 * MARGIN, board.height * cell + 2 * MARGIN


def _bars(board: Board, index: int, cell: int) -> list[Rect]:
    """The vehicle's cells as one or two bars (two when it wraps round an edge)."""
    cells = board.layout.cells(index, board.state[index])
    runs: list[list[tuple[int, int]]] = [[cells[0]]]
    for prev, cur in zip(cells, cells[1:], strict=False):
        if abs(cur[0] - prev[0]) + abs(cur[1] - prev[1]) == 1:
            runs[-1].append(cur)
        else:
            runs.append([cur])
    out = []
    for run in runs:
        rows = [r for r, _ in run]
        cols = [c for _, c in run]
        x, y = MARGIN + min(cols) * cell, MARGIN + min(rows) * cell
        out.append((x, y, (max(cols) - min(cols) + 1) * cell, (max(rows) - min(rows) + 1) * cell))
    return out


def _exit_marks(board: Board, cell: int) -> tuple[Rect | None, list[tuple[int, int]]]:
    """The gap in the frame (or the target cell on wrap boards) and an arrow as a polygon."""
    w, h = board.width * cell, board.height * cell
    x0, y0 = MARGIN, MARGIN
    if board.exit is not None:
        side, k = board.exit.side, board.exit.index
        if side == "right":
            gap = (x0 + w - 3, y0 + k * cell + 4, 6, cell - 8)
            cx, cy, dx, dy = x0 + w + MARGIN // 2, y0 + k * cell + cell // 2, 1, 0
        elif side == "left":
            gap = (x0 - 3, y0 + k * cell + 4, 6, cell - 8)
            cx, cy, dx, dy = x0 - MARGIN // 2, y0 + k * cell + cell // 2, -1, 0
        elif side == "top":
            gap = (x0 + k * cell + 4, y0 - 3, cell - 8, 6)
            cx, cy, dx, dy = x0 + k * cell + cell // 2, y0 - MARGIN // 2, 0, -1
        else:
            gap = (x0 + k * cell + 4, y0 + h - 3, cell - 8, 6)
            cx, cy, dx, dy = x0 + k * cell + cell // 2, y0 + h + MARGIN // 2, 0, 1
    else:
        assert board.target is not None
        t = board.target
        gap = None
        cx, cy = x0 + t.col * cell + cell // 2, y0 + t.row * cell + cell // 2
        dx, dy = {"east": (1, 0), "west": (-1, 0), "north": (0, -1), "south": (0, 1)}[t.heading]
    s = MARGIN // 3
    tip = (cx + dx * s, cy + dy * s)
    left = (cx - dx * s - dy * s, cy - dy * s + dx * s)
    right = (cx - dx * s + dy * s, cy - dy * s - dx * s)
    return gap, [tip, left, right]


def svg(board: Board, *, cell: int = CELL, highlight: str | None = None, title: str | None = None) -> str:
    """The board as a standalone SVG document; ``highlight`` names the vehicle to outline, ``title``
    is the document's title."""
    _check_cell(cell)
    highlight = _drawn(board, highlight)
    expect(title, (str, type(None)), "title", "a str or None")
    width, height = _size(board, cell)
    w, h = board.width * cell, board.height * cell
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>')
    out.append(
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{w}" height="{h}" fill="{BOARD_COLOR}" '
        f'stroke="{FRAME_COLOR}" stroke-width="4"/>'
    )
    for r in range(board.height):
        for c in range(board.width):
            out.append(
                f'<rect x="{MARGIN + c * cell}" y="{MARGIN + r * cell}" width="{cell}" height="{cell}" '
                'fill="none" stroke="#d8d3c4" stroke-width="1"/>'
            )
    gap, arrow = _exit_marks(board, cell)
    if gap is not None:
        out.append(
            f'<rect x="{gap[0]}" y="{gap[1]}" width="{gap[2]}" height="{gap[3]}" fill="{BOARD_COLOR}"/>'
        )
    else:
        t = board.target
        assert t is not None
        out.append(
            f'<rect x="{MARGIN + t.col * cell + 2}" y="{MARGIN + t.row * cell + 2}" width="{cell - 4}" '
            f'height="{cell - 4}" fill="none" stroke="{GOAL_COLOR}" stroke-width="3" stroke-dasharray="6 4"/>'
        )
    occ = board.occupancy()
    for k, v in enumerate(occ):
        if v == WALL:
            r, c = divmod(k, board.width)
            out.append(
                f'<rect x="{MARGIN + c * cell + 2}" y="{MARGIN + r * cell + 2}" width="{cell - 4}" '
                f'height="{cell - 4}" fill="{WALL_COLOR}"/>'
            )
    font = max(10, cell * 4 // 10)
    for i, name in enumerate(board.names):
        color = _color(board, i)
        stroke = ' stroke="black" stroke-width="4"' if name == highlight else ""
        for x, y, bw, bh in _bars(board, i, cell):
            out.append(
                f'<rect x="{x + 4}" y="{y + 4}" width="{bw - 8}" height="{bh - 8}" rx="8" '
                f'fill="{color}"{stroke}/>'
            )
            out.append(
                f'<text x="{x + bw // 2}" y="{y + bh // 2}" font-family="sans-serif" font-size="{font}" '
                f'font-weight="bold" fill="{_ink(color)}" text-anchor="middle" dominant-baseline="central">'
                f"{escape(name)}</text>"
            )
    points = " ".join(f"{x},{y}" for x, y in arrow)
    out.append(f'<polygon points="{points}" fill="{GOAL_COLOR}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svg_frames(
    positions: Sequence[Board], directory: str, *, highlights: Sequence[str | None] | None = None
) -> list[str]:
    """One SVG per position (``step-000.svg`` is the start), in ``directory`` (made if missing), each
    written whole or not at all; the frames of an earlier solution there that this one has not (a
    longer one's ``step-*.svg``) are removed, so that the folder holds one solution."""
    from rushhour.files import write_text_atomic

    _check_frames(positions, highlights)  # before the folder is made or its frames removed
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as err:
        raise RushHourError(f"cannot make the folder {directory}: {err.strerror}") from None
    digits = max(3, len(str(len(positions) - 1)))
    paths = []
    for k, board in enumerate(positions):
        path = os.path.join(directory, f"step-{k:0{digits}d}.svg")
        mark = highlights[k] if highlights is not None else None
        title = "start" if k == 0 else f"after move {k}"
        write_text_atomic(path, svg(board, highlight=mark, title=title))
        paths.append(path)
    written = {os.path.basename(p) for p in paths}
    for stale in Path(directory).glob("step-*.svg"):
        if _FRAME_RE.fullmatch(stale.name) and stale.name not in written and stale.is_file():
            with contextlib.suppress(OSError):
                stale.unlink()
    return paths


def _hex(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def frame(board: Board, *, cell: int = CELL, highlight: str | None = None) -> object:
    """The board as a Pillow image (raises a clear error when Pillow is missing)."""
    require_pillow()
    from PIL import Image, ImageDraw

    _check_cell(cell)
    highlight = _drawn(board, highlight)
    width, height = _size(board, cell)
    w, h = board.width * cell, board.height * cell
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle(
        (MARGIN, MARGIN, MARGIN + w, MARGIN + h), fill=_hex(BOARD_COLOR), outline=_hex(FRAME_COLOR), width=4
    )
    for r in range(board.height):
        for c in range(board.width):
            x, y = MARGIN + c * cell, MARGIN + r * cell
            draw.rectangle((x, y, x + cell, y + cell), outline=(216, 211, 196), width=1)
    gap, arrow = _exit_marks(board, cell)
    if gap is not None:
        draw.rectangle((gap[0], gap[1], gap[0] + gap[2], gap[1] + gap[3]), fill=_hex(BOARD_COLOR))
    else:
        t = board.target
        assert t is not None
        x, y = MARGIN + t.col * cell, MARGIN + t.row * cell
        draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), outline=_hex(GOAL_COLOR), width=3)
    for k, v in enumerate(board.occupancy()):
        if v == WALL:
            r, c = divmod(k, board.width)
            x, y = MARGIN + c * cell, MARGIN + r * cell
            draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), fill=_hex(WALL_COLOR))
    for i, name in enumerate(board.names):
        for x, y, bw, bh in _bars(board, i, cell):
            box = (x + 4, y + 4, x + bw - 4, y + bh - 4)
            outline = (0, 0, 0) if name == highlight else None
            draw.rounded_rectangle(box, radius=8, fill=_hex(_color(board, i)), outline=outline, width=4)
            draw.text((x + bw // 2, y + bh // 2), name, fill=ink_for(_hex(_color(board, i))), anchor="mm")
    draw.polygon(arrow, fill=_hex(GOAL_COLOR))
    return image


def write_gif(
    positions: Sequence[Board],
    path: str,
    *,
    highlights: Sequence[str | None] | None = None,
    frame_ms: int = 700,
) -> None:
    """An animated GIF of the positions, ``frame_ms`` milliseconds each (the last one three times as
    long)."""
    _check_frames(positions, highlights)
    expect_whole(frame_ms, "frame_ms")
    if not MIN_FRAME_MS <= frame_ms <= MAX_FRAME_MS:
        raise ParameterError(f"{{frame_ms}} must be from {MIN_FRAME_MS} to {MAX_FRAME_MS:,}, not {frame_ms}")
    images = [
        frame(board, highlight=highlights[k] if highlights is not None else None)
        for k, board in enumerate(positions)
    ]
    durations = [frame_ms] * len(images)
    durations[-1] = frame_ms * 3
    from rushhour.files import write_bytes_atomic

    first = images[0]
    out = io.BytesIO()  # a GIF whatever the file's name says, written whole or not at all
    first.save(  # type: ignore[attr-defined]
        out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=False
    )
    write_bytes_atomic(path, out.getvalue())
