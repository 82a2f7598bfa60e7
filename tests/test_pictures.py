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


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _decoded_frames(path: Path) -> list[tuple[object, int]]:
    """Every frame of a GIF, decoded to RGB, with its duration in milliseconds."""
    from PIL import Image

    frames = []
    with Image.open(path) as image:
        for k in range(image.n_frames):
            image.seek(k)
            frames.append((image.convert("RGB"), int(image.info["duration"])))
    return frames


def _cell_color(image: object, row: int, col: int) -> tuple[int, int, int]:
    """The colour inside a cell, away from its edges, its grid lines and the vehicle's name."""
    x, y = pictures.MARGIN + col * pictures.CELL + 10, pictures.MARGIN + row * pictures.CELL + 10
    return image.getpixel((x, y))  # type: ignore[attr-defined, no-any-return]


def _check_frame(image: object, board: Board, colors: dict[str, tuple[int, int, int]]) -> None:
    """The picture shows ``board``: every vehicle's cells in its own colour, walls, empty cells."""
    owner = {cell: name for name in board.names for cell in board.cells_of(name)}
    for row in range(board.height):
        for col in range(board.width):
            seen = _cell_color(image, row, col)
            name = owner.get((row, col))
            if name is not None:
                assert colors.setdefault(name, seen) == seen, (name, row, col)
            elif (row, col) in board.walls:
                assert seen == _rgb(pictures.WALL_COLOR), (row, col)
            else:
                assert seen == _rgb(pictures.BOARD_COLOR), (row, col)


def _outlined(image: object, board: Board, name: str) -> bool:
    """Whether vehicle ``name`` is drawn with the black outline of the vehicle just moved."""
    row, col = min(board.cells_of(name))
    x, y = pictures.MARGIN + col * pictures.CELL + 5, pictures.MARGIN + row * pictures.CELL + pictures.CELL // 2
    return image.getpixel((x, y)) == (0, 0, 0)  # type: ignore[attr-defined, no-any-return]


def test_gif_frames_show_every_position_of_the_solution(tmp_path: Path) -> None:
    pytest.importorskip("PIL.Image")
    for board in boards():
        solution = solve(board)
        assert solution.solved
        path = tmp_path / "s.gif"
        moved = [None] + [m.vehicle for m in solution.moves]
        positions = solution.positions()
        pictures.write_gif(positions, str(path), highlights=moved)
        frames = _decoded_frames(path)
        assert [ms for _, ms in frames] == [700] * solution.length + [2100]
        colors: dict[str, tuple[int, int, int]] = {}
        for (image, _), position, mark in zip(frames, positions, moved, strict=True):
            assert image.size == (  # type: ignore[attr-defined]
                board.width * pictures.CELL + 2 * pictures.MARGIN,
                board.height * pictures.CELL + 2 * pictures.MARGIN,
            )
            _check_frame(image, position, colors)
            assert [n for n in position.names if _outlined(image, position, n)] == ([mark] if mark else [])
        goal = board.names[board.layout.goal]
        assert colors[goal] == _rgb(pictures.GOAL_COLOR)
        assert len(set(colors.values())) == len(colors)  # one colour a vehicle


def test_solve_gif_draws_the_solution_it_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("PIL.Image")
    from rushhour.cli import main

    line = "BBBoooooDoooAADoooooooooooxooooooooo"
    path = tmp_path / "out.gif"
    assert main(["solve", line, "--gif", str(path)]) == 0
    assert "B+3" in capsys.readouterr().out
    board = fogleman.parse_line(line)[0]
    positions = solve(board).positions()
    frames = _decoded_frames(path)
    assert len(frames) == len(positions) == 4
    colors: dict[str, tuple[int, int, int]] = {}
    for (image, _), position in zip(frames, positions, strict=True):
        _check_frame(image, position, colors)


def test_gif_without_pillow_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(RushHourError, match=r"pip install Pillow") as caught:
        pictures.write_gif(boards()[:1], str(tmp_path / "x.gif"))
    # the extra by the package's name too: an install from a wheel has no source folder
    assert "pip install 'rushhour[pictures]'" in str(caught.value)


def test_pictures_are_written_whole_to_regular_files_only(tmp_path: Path) -> None:
    """A GIF is a GIF whatever its name says, a device or a FIFO is refused (a FIFO frame hung the
    command), a failed write leaves the file as it was, and a folder of frames holds one solution."""
    import os
    import subprocess

    pytest.importorskip("PIL.Image")
    positions = solve(boards()[0]).positions()
    named = tmp_path / "movie"  # no extension: Pillow alone could not tell the format
    pictures.write_gif(positions, str(named))
    assert named.read_bytes()[:6] == b"GIF89a"
    with pytest.raises(RushHourError, match="it is a device, not a regular file"):
        pictures.write_gif(positions, "/dev/null")
    frames = tmp_path / "frames"
    frames.mkdir()
    os.mkfifo(frames / "step-001.svg")
    with pytest.raises(RushHourError, match="it is a pipe"):
        pictures.write_svg_frames(positions, str(frames))
    (frames / "step-001.svg").unlink()
    long = solve(fogleman.parse_line("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")[0]).positions()
    pictures.write_svg_frames(long, str(frames))
    (frames / "notes.txt").write_text("mine")
    pictures.write_svg_frames(positions, str(frames))
    assert sorted(p.name for p in frames.iterdir()) == sorted(
        [f"step-{k:03d}.svg" for k in range(len(positions))] + ["notes.txt"]
    )
    # a write cut short by the file size limit leaves the GIF there as it was
    before = named.read_bytes()
    script = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096));"
        "from rushhour.cli import main; sys.exit(main(['solve', 'classic:12', '--gif', sys.argv[1]]))"
    )
    done = subprocess.run([sys.executable, "-c", script, str(named)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: cannot write ") and "Traceback" not in done.stderr
    assert named.read_bytes() == before


def test_gif_with_a_broken_pillow_is_refused_before_the_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Pillow whose drawing modules cannot be loaded (its compiled core missing, or built for
    another Python) is said as such before the search, not as a missing Pillow after it."""
    pil = pytest.importorskip("PIL")
    from rushhour.cli import main

    monkeypatch.delattr(pil, "ImageDraw", raising=False)
    monkeypatch.setitem(sys.modules, "PIL.ImageDraw", None)
    assert main(["solve", "BBBoooooDoooAADoooooooooooxooooooooo", "--gif", str(tmp_path / "s.gif")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (tmp_path / "s.gif").exists()
    assert err.startswith("error: drawing a GIF needs Pillow, which is installed (")
    assert "but cannot be loaded: " in err and err.count("\n") == 1


GIF, FRAMES = "x.gif", "frames"


@pytest.mark.parametrize(
    ("draw", "message"),
    [
        (lambda tmp: pictures.write_gif([], str(tmp / GIF)), "positions is empty: there is no position to draw"),
        (lambda tmp: pictures.write_svg_frames([], str(tmp / FRAMES)), "positions is empty"),
        (
            lambda tmp: pictures.write_gif(boards()[:2], str(tmp / GIF), highlights=[None]),
            "highlights has 1 entries for 2 positions",
        ),
        (
            lambda tmp: pictures.write_svg_frames(boards()[:1], str(tmp / FRAMES), highlights=[]),
            "highlights has 0 entries for 1 positions",
        ),
        (lambda tmp: pictures.write_gif(boards()[:1], str(tmp / GIF), frame_ms=0), "frame_ms must be from 10 to 60,000, not 0"),
        (lambda tmp: pictures.write_gif(boards()[:1], str(tmp / GIF), frame_ms=10**9), "frame_ms must be from 10"),
        (lambda tmp: pictures.write_gif(boards()[:1], str(tmp / GIF), frame_ms=0.5), "frame_ms must be a whole number"),
        (lambda tmp: pictures.svg(boards()[0], cell=0), "cell must be from 16 to 256 pixels, not 0"),
        (lambda tmp: pictures.svg(boards()[0], cell=-48), "cell must be from 16 to 256 pixels, not -48"),
        (lambda tmp: pictures.frame(boards()[0], cell=4), "cell must be from 16 to 256 pixels, not 4"),
        (lambda tmp: pictures.svg(boards()[0], cell=True), "cell must be a whole number"),
    ],
)
def test_drawing_arguments_out_of_range_are_refused(tmp_path: Path, draw: object, message: str) -> None:
    """The library's errors are RushHourErrors naming the argument, where these gave an IndexError, an
    OverflowError from Pillow, or an SVG of negative sizes; and an empty folder of frames is refused
    before the frames already there are removed."""
    pytest.importorskip("PIL.Image")
    frames = tmp_path / FRAMES
    frames.mkdir()
    (frames / "step-000.svg").write_text("an earlier solution")
    with pytest.raises(RushHourError, match=message):
        draw(tmp_path)  # type: ignore[operator]
    assert (frames / "step-000.svg").read_text() == "an earlier solution"
    assert not (tmp_path / GIF).exists()


def _every_colour() -> Board:
    """The goal and one vehicle of each colour of the pictures' palette, side by side."""
    names = [f"V{k}" for k in range(len(pictures.PALETTE))]
    vehicles = [Vehicle("A", HORIZONTAL, 2, 0, 0)] + [Vehicle(n, VERTICAL, 2, 1, k) for k, n in enumerate(names)]
    return Board(len(names), 3, vehicles, exit="right")


def test_names_are_written_in_the_colour_that_reads_best_on_their_vehicle(tmp_path: Path) -> None:
    """White names on the light colours (sky blue, light green, peach, lilac) were hard to read: a
    name is black or white, whichever contrasts more with its vehicle (WCAG: 4.5 for normal text)."""
    from rushhour.render.palette import contrast

    board = _every_colour()
    root = ElementTree.fromstring(pictures.svg(board))
    bars = [r for r in root.iter(f"{SVG}rect") if r.get("rx") == "8"]
    labels = list(root.iter(f"{SVG}text"))
    assert len(bars) == len(labels) == len(board.names)
    inks = set()
    for bar, label in zip(bars, labels, strict=True):
        ink = {"white": "#ffffff", "black": "#000000"}.get(label.get("fill", ""), label.get("fill", ""))
        ratio = contrast(_rgb(bar.get("fill", "")), _rgb(ink))
        assert ratio >= 4.5, (label.text, bar.get("fill"), label.get("fill"), ratio)
        inks.add(ink)
    assert inks == {"#000000", "#ffffff"}
    pytest.importorskip("PIL.Image")
    path = tmp_path / "c.gif"
    pictures.write_gif([board], str(path))
    (image, _), = _decoded_frames(path)
    for index, name in enumerate(board.names):
        bar = _rgb(pictures._color(board, index))
        black = contrast(bar, (0, 0, 0)) > contrast(bar, (255, 255, 255))
        (row, col), vertical = board.cells_of(name)[0], board.vehicle(name).orientation == VERTICAL
        x0, y0 = pictures.MARGIN + col * pictures.CELL, pictures.MARGIN + row * pictures.CELL
        x1 = x0 + pictures.CELL * (1 if vertical else 2) - 8
        y1 = y0 + pictures.CELL * (2 if vertical else 1) - 8
        inside = {image.getpixel((x, y)) for x in range(x0 + 8, x1) for y in range(y0 + 8, y1)}  # type: ignore[attr-defined]
        text = min(inside, key=sum) if black else max(inside, key=sum)  # the name's most inked pixel
        assert contrast(bar, text) >= 3, (name, bar, text)
