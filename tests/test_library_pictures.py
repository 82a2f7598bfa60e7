"""The drawing functions called as a program might call them: a board that is no Board, a highlight that
names no vehicle, a title that is no text are refused by name (nothing written), and a highlight in the
other case outlines its vehicle as the board's own name does."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from rushhour import ArgumentTypeError, Board, UnknownVehicleError
from rushhour.render import palette, pictures

SVG = "{http://www.w3.org/2000/svg}"
BOARD = Board.from_text("AA.B/...B/CC../....")


def _outlined(document: str) -> list[str]:
    """The names of the vehicles an SVG outlines in black (the vehicle just moved)."""
    root = ElementTree.fromstring(document)
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("rx") == "8"]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    return [name for rect, name in zip(rects, texts, strict=True) if rect.get("stroke") == "black"]


def test_a_highlight_in_the_other_case_outlines_its_vehicle() -> None:
    """``highlight="b"`` drew no outline at all, where everywhere else ``b`` names vehicle B."""
    assert _outlined(pictures.svg(BOARD, highlight="B")) == ["B"]
    assert _outlined(pictures.svg(BOARD, highlight="b")) == ["B"]
    assert _outlined(pictures.svg(BOARD)) == []


@pytest.mark.parametrize(
    ("draw", "error", "message"),
    [
        (lambda tmp: pictures.svg(None), ArgumentTypeError, "board must be a Board (rushhour.load gives the board of a name), not NoneType"),
        (lambda tmp: pictures.svg("classic:1"), ArgumentTypeError, "board must be a Board (rushhour.load gives the board of a name), not str"),
        (lambda tmp: pictures.svg(BOARD, highlight="Z"), UnknownVehicleError, "no vehicle named 'Z' on this board (vehicles: A, B, C)"),
        (lambda tmp: pictures.svg(BOARD, highlight=3), ArgumentTypeError, "highlight must be a vehicle name or None, not int"),
        (lambda tmp: pictures.svg(BOARD, title=3), ArgumentTypeError, "title must be a str or None, not int"),
        (lambda tmp: pictures.write_svg_frames([BOARD, None], str(tmp / "frames")), ArgumentTypeError,
         "board must be a Board (rushhour.load gives the board of a name), not NoneType"),
        (lambda tmp: pictures.write_svg_frames([BOARD], str(tmp / "frames"), highlights=["Q"]), UnknownVehicleError,
         "no vehicle named 'Q' on this board (vehicles: A, B, C)"),
        (lambda tmp: pictures.write_svg_frames(None, str(tmp / "frames")), ArgumentTypeError,
         "positions must be a sequence of Boards, not NoneType"),
        (lambda tmp: palette.vehicle_colors(None), ArgumentTypeError, "board must be a Board, not NoneType"),
        (lambda tmp: palette.contact_graph("AA.B/...B/CC../...."), ArgumentTypeError, "board must be a Board, not str"),
        (lambda tmp: palette.color_depth(None), ArgumentTypeError,
         "environ must be a mapping of names to values, like os.environ, not NoneType"),
    ],
)
def test_what_cannot_be_drawn_is_refused_by_name_before_anything_is_written(
    tmp_path: Path, draw: Any, error: type[Exception], message: str
) -> None:
    """Each raised an AttributeError from inside (``'NoneType' object has no attribute 'width'``), or
    drew the board without the outline asked for; a folder of frames is left as it was."""
    with pytest.raises(error) as caught:
        draw(tmp_path)
    assert str(caught.value) == message
    assert not (tmp_path / "frames").exists()


def test_a_gif_refuses_a_highlight_of_no_vehicle_before_writing(tmp_path: Path) -> None:
    pytest.importorskip("PIL.Image")
    gif = tmp_path / "s.gif"
    with pytest.raises(UnknownVehicleError, match="^no vehicle named 'Z' on this board"):
        pictures.write_gif([BOARD, BOARD.apply("B+1")], str(gif), highlights=[None, "Z"])
    with pytest.raises(ArgumentTypeError, match="^board must be a Board"):
        pictures.frame(None)  # type: ignore[arg-type]
    assert not gif.exists()
    pictures.write_gif([BOARD, BOARD.apply("B+1")], str(gif), highlights=[None, "b"])
    assert gif.read_bytes()[:6] == b"GIF89a"
