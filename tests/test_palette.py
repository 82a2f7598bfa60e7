"""Vehicle colours: touching vehicles never share a colour (nor a hue family) on any built-in level at
any depth, the goal is red and nothing else is red-like, walls are apart, the escapes are well formed,
and the terminal's colour depth is read from the environment."""

from __future__ import annotations

import doctest
import itertools
import re

import pytest
from hypothesis import given

from rushhour import levels
from rushhour.board import Board
from rushhour.errors import RushHourError
from rushhour.formats import parse_text
from rushhour.render import palette
from rushhour.render.palette import (
    BASIC,
    DEPTHS,
    TRUE_COLOR,
    XTERM_256,
    color_depth,
    contact_graph,
    goal_color,
    red_like,
    vehicle_colors,
    wall_color,
)
from tests.strategies import positions

CLASSIC_12 = parse_text("GBB.L.\nGHI.LM\nGHIAAM\nCCCK.M\n..JKDD\nEEJFF.\n", fmt="grid")[0].board


def touching_pairs(board: Board) -> list[tuple[str, str]]:
    graph = contact_graph(board)
    return [(a, b) for a in graph for b in graph[a] if a < b]


@pytest.mark.parametrize("depth", DEPTHS)
def test_every_built_in_level_colours_touching_vehicles_apart(depth: int) -> None:
    checked = 0
    for pack in levels.packs():
        for entry in pack.levels:
            board = entry.board
            colours = vehicle_colors(board, depth)
            assert set(colours) == set(board.names)
            assert colours[board.goal] == goal_color(depth), entry.name
            for a, b in touching_pairs(board):
                assert colours[a] != colours[b], (entry.name, a, b)
                assert colours[a].family != colours[b].family, (entry.name, a, b)
            checked += 1
    assert checked == sum(len(p.levels) for p in levels.packs()) > 200


def test_classic_12_neighbours_that_shared_a_hue_now_differ() -> None:
    colours = vehicle_colors(CLASSIC_12, BASIC)
    touching = contact_graph(CLASSIC_12)
    for a, b in (("E", "J"), ("F", "K"), ("C", "H")):
        assert colours[a].family != colours[b].family
    assert "J" in touching["E"] and "K" in touching["F"]


@given(positions())
def test_random_positions_colour_touching_vehicles_apart(board: Board) -> None:
    colours = vehicle_colors(board, BASIC)
    assert colours[board.goal].name == "red"
    for a, b in touching_pairs(board):
        assert colours[a] != colours[b]
    # the same board always gets the same colours
    assert vehicle_colors(Board.from_layout(board.layout, board.state), BASIC) == colours


@pytest.mark.parametrize("depth", DEPTHS)
def test_only_the_goal_is_red_and_walls_stand_apart(depth: int) -> None:
    choices = palette.palette(depth)
    assert red_like(goal_color(depth).rgb)
    assert not any(red_like(c.rgb) for c in choices)
    assert not red_like(wall_color(depth).rgb)
    assert wall_color(depth) not in choices and wall_color(depth).index not in {c.index for c in choices}
    # different families are far apart in RGB; every colour has its own xterm number
    for a, b in itertools.combinations(choices, 2):
        if a.family != b.family:
            assert sum((x - y) ** 2 for x, y in zip(a.rgb, b.rgb, strict=True)) ** 0.5 >= 75, (a, b)
    assert len({c.index for c in choices}) == len(choices)
    assert all(0 <= c.index < (16 if depth == BASIC else 256) for c in choices)


def test_escape_sequences_per_depth() -> None:
    green = palette.palette(BASIC)[0]
    bright = next(c for c in palette.palette(BASIC) if c.index >= 8)
    assert green.sgr() == "\x1b[42m" and green.sgr(background=False) == "\x1b[32m"
    assert bright.sgr() == f"\x1b[{100 + bright.index - 8}m"
    rich = palette.palette(XTERM_256)[0]
    assert rich.sgr() == f"\x1b[48;5;{rich.index}m"
    true = palette.palette(TRUE_COLOR)[0]
    assert true.sgr() == "\x1b[48;2;{};{};{}m".format(*true.rgb)
    # the 256 and true-colour palettes name the same colours, all in xterm's table
    assert [c.index for c in palette.palette(XTERM_256)] == [c.index for c in palette.palette(TRUE_COLOR)]
    for depth in DEPTHS:
        for c in palette.palette(depth):
            ink = c.ink
            assert c.style() == c.sgr() + ink.sgr(background=False)
            assert re.fullmatch(r"(\x1b\[[0-9;]+m){2}", c.style())
            assert ink.name in ("black", "white") and ink.depth == depth


def test_ink_reads_on_its_background() -> None:
    """Black on light colours, white on dark ones: WCAG's contrast ratio is at least 4.5 everywhere."""
    for depth in DEPTHS:
        for c in (*palette.palette(depth), goal_color(depth), wall_color(depth)):
            lo, hi = sorted((palette._luminance(c.rgb), palette._luminance(c.ink.rgb)))
            assert (hi + 0.05) / (lo + 0.05) >= 4.5, c


@pytest.mark.parametrize(
    ("environ", "depth"),
    [
        ({"COLORTERM": "truecolor", "TERM": "xterm"}, TRUE_COLOR),
        ({"COLORTERM": "24bit"}, TRUE_COLOR),
        ({"TERM": "xterm-256color"}, XTERM_256),
        ({"TERM": "screen-256color", "COLORTERM": ""}, XTERM_256),
        ({"TERM": "xterm-direct"}, TRUE_COLOR),  # a direct-colour entry: its colours are 24-bit
        ({"TERM": "konsole-direct16"}, TRUE_COLOR),
        ({"TERM": "xterm-directory"}, BASIC),
        ({"TERM": "xterm"}, BASIC),
        ({}, BASIC),
    ],
)
def test_colour_depth_from_the_environment(environ: dict[str, str], depth: int) -> None:
    assert color_depth(environ) == depth


def test_unknown_depth_is_refused() -> None:
    """As the library's errors are: a RushHourError (a ValueError too, as before)."""
    for depth in (8, "16", None, 16.5):
        message = f"unknown colour depth {depth!r}: use 16, 256 or 16777216"
        with pytest.raises(RushHourError, match=message):
            vehicle_colors(CLASSIC_12, depth)  # type: ignore[arg-type]
        with pytest.raises(RushHourError, match=message):
            palette.goal_color(depth)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown colour depth 8"):
        vehicle_colors(CLASSIC_12, 8)


def test_the_module_examples_run() -> None:
    failures, tried = doctest.testmod(palette)
    assert tried >= 5 and failures == 0
