"""SVG and GIF drawings of boards of every kind."""

from __future__ import annotations

import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from rushhour.board import HORIZONTAL, VERTICAL, Board, Target, Vehicle
from rushhour.errors import RushHourError
from rushhour.formats import fogleman
from rushhour.render import pictures
from rushhour.search import solve

SVG = "{http://www.w3.org/2000/svg}"


def boards() -> list[Board]:
    return [
        fogleman.parse_line("BBBoooooDoooAADoooooooooooxooooooooo")[0],
        Board(5, 7, [Vehicle("A", VERTICAL, 2, 3, 1), Vehicle("Car9", HORIZONTAL, 3, 1, 2)], exit="bottom"),
        Board(
            6,
            5,
            [Vehicle("A", HORIZONTAL, 2, 1, 5), Vehicle("B", VERTICAL, 3, 3, 2)],
            wrap=True,
            target=Target(1, 2, "west"),
        ),
    ]


def test_svg_draws_every_vehicle_and_wall() -> None:
    for board in boards():
        root = ElementTree.fromstring(pictures.svg(board, highlight=board.names[0]))
        labels = [t.text for t in root.iter(f"{SVG}text")]
        for name in board.names:
            assert name in labels
        width, height = int(root.get("width", "0")), int(root.get("height", "0"))
        assert width == board.width * pictures.CELL + 2 * pictures.MARGIN
        assert height == board.height * pictures.CELL + 2 * pictures.MARGIN
        walls = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == pictures.WALL_COLOR]
        assert len(walls) == len(board.walls)
        assert len(list(root.iter(f"{SVG}polygon"))) == 1  # the exit arrow


def test_wrapped_vehicle_is_two_bars() -> None:
    board = boards()[2]  # A covers (1, 5) and (1, 0)
    root = ElementTree.fromstring(pictures.svg(board))
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert labels.count("A") == 2 and labels.count("B") == 2


def test_names_are_escaped_in_titles() -> None:
    text = pictures.svg(boards()[0], title="a <b> & c")
    assert "a &lt;b&gt; &amp; c" in text


def test_svg_frames_and_unwritable_folder(tmp_path: Path) -> None:
    board = fogleman.parse_line("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")[0]
    solution = solve(board)
    paths = pictures.write_svg_frames(solution.positions(), str(tmp_path / "out"))
    assert len(paths) == solution.length + 1 == 52
    assert Path(paths[0]).name == "step-000.svg"
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(RushHourError, match="cannot make the folder"):
        pictures.write_svg_frames(solution.positions(), str(blocker / "sub"))


def test_gif_frames(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    for board in boards():
        solution = solve(board)
        assert solution.solved
        path = tmp_path / "s.gif"
        moved = [None] + [m.vehicle for m in solution.moves]
        pictures.write_gif(solution.positions(), str(path), highlights=moved)
        with image_module.open(path) as image:
            assert image.n_frames == solution.length + 1
            assert image.size == (
                board.width * pictures.CELL + 2 * pictures.MARGIN,
                board.height * pictures.CELL + 2 * pictures.MARGIN,
            )


def test_gif_without_pillow_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(RushHourError, match=r"pip install Pillow"):
        pictures.write_gif(boards()[:1], str(tmp_path / "x.gif"))
