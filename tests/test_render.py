"""Terminal drawing: letters in every cell, colours that follow the vehicle, the exit on the frame,
80 columns for boards up to 12x12, and the colour decision."""

from __future__ import annotations

import re

import pytest
from colorama import Back, Style
from hypothesis import given
from hypothesis import strategies as st

from rushhour.board import EMPTY, WALL, Board, Vehicle
from rushhour.formats import parse_text
from rushhour.render.palette import contact_graph, vehicle_colors
from rushhour.render.text import GOAL_STYLE, RESET, WALL_STYLE, cell_width, render, use_color
from tests.strategies import boards, positions

ANSI = re.compile(r"\x1b\[[0-9;]*m")
STYLED_CELL = re.compile(r"((?:\x1b\[[0-9;]*m)+)([^\x1b]+?)(?=\x1b\[0m)")


def grid(text: str) -> Board:
    return parse_text(text, fmt="grid")[0].board


CLASSIC = grid("BBBCCK\n.DDDJK\n..AAJK\nEEEI..\nH..I..\nHFFFGG\n")


def row_lines(board: Board, text: str) -> list[str]:
    lines = text.splitlines()
    return lines[1 : 1 + board.height]


def plain_cells(board: Board, text: str) -> list[list[str]]:
    """The text of every cell of a colourless drawing."""
    cw = cell_width(board)
    out = []
    for line in row_lines(board, text):
        body = line[3 : 3 + cw * board.width]
        out.append([body[k * cw : (k + 1) * cw].strip() for k in range(board.width)])
    return out


def styled_cells(board: Board, text: str) -> list[list[tuple[str, str]]]:
    """(style, text) of every cell of a coloured drawing."""
    out = []
    for line in row_lines(board, text):
        cells = [(style.removeprefix(RESET), body.strip()) for style, body in STYLED_CELL.findall(line)]
        assert len(cells) == board.width, line
        out.append(cells)
    return out


def expected_labels(board: Board) -> list[list[str]]:
    cw = cell_width(board)
    occ = board.occupancy()
    rows = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            v = occ[r * board.width + c]
            if v == WALL:
                row.append("#")
            elif v == EMPTY:
                t = board.target
                row.append("*" if t is not None and (t.row, t.col) == (r, c) else ".")
            else:
                row.append(board.names[v][:cw])
        rows.append(row)
    return rows


def test_classic_board_without_colour() -> None:
    text = render(CLASSIC)
    assert "\x1b" not in text
    assert text.splitlines() == [
        "  +------------------+",
        "  | B  B  B  C  C  K |",
        "  | .  D  D  D  J  K |",
        "  | .  .  A  A  J  K > exit",
        "  | E  E  E  I  .  . |",
        "  | H  .  .  I  .  . |",
        "  | H  F  F  F  G  G |",
        "  +------------------+",
    ]


@pytest.mark.parametrize(
    "header,rows,line,mark",
    [
        ("# exit: left\n", "......\n......\n.BBAA.\n......\n", 3, "  < .  B  B  A  A  . | exit (left)"),
        ("# goal: C\n", "..C...\n..C...\n......\n", 0, "  +------ ^ ---------+ exit"),
        ("# goal: C\n# exit: bottom\n", "......\n..C...\n..C...\n", 4, "  +------ v ---------+ exit"),
    ],
)
def test_exit_is_marked_on_the_frame(header: str, rows: str, line: int, mark: str) -> None:
    board = grid(header + rows)
    assert render(board).splitlines()[line] == mark


def test_wrap_board_shows_its_target() -> None:
    board = grid("# wrap: yes\n# target: 1,0 west\n.....\nAA...\n.....\n")
    lines = render(board).splitlines()
    assert lines[0] == "  +~~~~~~~~~~~~~~~+"
    assert lines[2] == "  : A  A  .  .  . :"
    assert "A wins with its front at (1,0) heading west" in lines[-1]  # as the screens write a cell
    moved = render(board.apply("A+1")).splitlines()
    assert moved[2] == "  : *  A  A  .  . :"


@given(positions())
def test_every_cell_shows_its_vehicle_letter(board: Board) -> None:
    assert plain_cells(board, render(board)) == expected_labels(board)


@given(positions(min_side=5, max_side=12))
def test_boards_of_5_to_12_fit_80_columns(board: Board) -> None:
    for color in (False, True):
        text = render(board, color=color)
        assert max(len(ANSI.sub("", line)) for line in text.splitlines()) <= 80


def test_long_names_get_wider_cells_and_still_fit() -> None:
    vehicles = [Vehicle("car9", "H", 2, 2, 0), Vehicle("truck", "V", 3, 0, 11), Vehicle("B", "V", 2, 5, 3)]
    board = Board(12, 12, vehicles, goal="car9")
    text = render(board)
    assert cell_width(board) == 5
    assert max(len(line) for line in text.splitlines()) <= 80
    assert plain_cells(board, text)[2][:2] == ["car9", "car9"]
    assert plain_cells(board, text)[0][11] == "truck"


@given(positions(), st.data())
def test_colours_follow_the_vehicle(board: Board, data: st.DataObject) -> None:
    """Each vehicle has one style over all its cells, different from the vehicles it touches, and
    keeps it after any move when the start's colours are passed."""
    colours = vehicle_colors(board)

    def styles(b: Board) -> dict[str, str]:
        found: dict[str, set[str]] = {}
        occ = b.occupancy()
        for r, row in enumerate(styled_cells(b, render(b, color=True, colors=colours))):
            for c, (style, label) in enumerate(row):
                v = occ[r * b.width + c]
                if v == WALL:
                    assert style == WALL_STYLE and label == "#"
                elif v >= 0:
                    found.setdefault(b.names[v], set()).add(style)
        assert all(len(s) == 1 for s in found.values())
        return {name: s.pop() for name, s in found.items()}

    before = styles(board)
    assert before[board.goal] == GOAL_STYLE
    assert all(style != GOAL_STYLE for name, style in before.items() if name != board.goal)
    touching = contact_graph(board)
    assert all(before[a] != before[b] for a in touching for b in touching[a])
    assert render(board, color=True) == render(board, color=True, colors=colours)
    moves = board.legal_moves()
    if moves:
        after = styles(board.apply(data.draw(st.sampled_from(moves))))
        assert after == before


def test_colour_codes_and_highlight() -> None:
    text = render(CLASSIC, color=True)
    assert Back.RED in text and RESET in text
    assert ANSI.sub("", text) == render(CLASSIC)
    lit = styled_cells(CLASSIC, render(CLASSIC, color=True, highlight="J"))
    assert lit[1][4][0].endswith(Style.BRIGHT) and lit[1][4][1] == "J"
    assert not lit[1][3][0].endswith(Style.BRIGHT)
    # highlight has no effect without colour
    assert render(CLASSIC, highlight="J") == render(CLASSIC)


def test_richer_colour_depths_use_their_own_escapes() -> None:
    for depth, escape in ((256, "\x1b[48;5;"), (1 << 24, "\x1b[48;2;")):
        text = render(CLASSIC, color=True, depth=depth)
        colours = vehicle_colors(CLASSIC, depth)
        assert escape in text and colours["A"].sgr() in text and Back.RED not in text
        assert ANSI.sub("", text) == render(CLASSIC)


@given(boards(wrap=False))
def test_colour_strips_to_the_plain_drawing(board: Board) -> None:
    assert ANSI.sub("", render(board, color=True)) == render(board)


@pytest.mark.parametrize(
    "flag,isatty,env,expected",
    [
        (None, True, {}, True),
        (None, False, {}, False),
        (None, True, {"NO_COLOR": "1"}, False),
        (None, True, {"NO_COLOR": ""}, True),
        (True, False, {"NO_COLOR": "1"}, True),
        (False, True, {}, False),
    ],
)
def test_use_color(flag: bool | None, isatty: bool, env: dict[str, str], expected: bool) -> None:
    assert use_color(flag, isatty, env) is expected
