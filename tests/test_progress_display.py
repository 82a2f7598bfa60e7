"""The one progress display of the long commands: tqdm on a terminal where installed, else one line
rewritten in place; plain lines off a terminal only when asked; nothing with -q; never on stdout."""

from __future__ import annotations

import io
import re
import sys
from typing import Any

import pytest

from rushhour.cli import main
from rushhour.cli.progress_display import ProgressDisplay
from rushhour.search import watch
from tests.terminal import spawn_program

CROWD9 = "BCDDEEEFF/BCG.aaZZ./HCGIIIJJJ/HKLMMN..O/HKL..NAAO/PKLQQQRST/PUUUVWRST/PbbYVWRST/XX.YVW..."
#: one frame of the line rewritten in place: back to the start of the line, the text, the rest erased
FRAME = re.compile(r"\r([^\r\n\x1b]+)\x1b\[K")
CLEAR = "\r\x1b[K"


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class FakeBar:
    """Stands for tqdm's bar: records what it is told."""

    made: list[FakeBar] = []

    def __init__(self, **options: Any) -> None:
        self.options, self.n, self.postfix, self.closed = options, 0, "", False
        FakeBar.made.append(self)

    def update(self, k: int) -> None:
        self.n += k

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.postfix = text

    def set_description_str(self, text: str, refresh: bool = True) -> None:
        self.options["desc"] = text

    def close(self) -> None:
        self.closed = True


def _show(display: ProgressDisplay, count: int = 1, **options: Any) -> None:
    display.update(count, desc="generate", unit="puzzle", total=3, line=f"generate: {count}/3", **options)


def _bar_after_an_update(**options: Any) -> Any:
    display = ProgressDisplay(**options)
    _show(display)
    bar = display.bar
    display.close()
    return bar


def test_progress_bar_needs_a_terminal_and_tqdm(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _bar_after_an_update(enabled=True) is None  # stderr is not a terminal under pytest
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if the extra were not installed
    assert _bar_after_an_update(enabled=True) is None
    assert _bar_after_an_update(enabled=False) is None


def test_a_terminal_with_tqdm_gets_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = type(sys)("tqdm")
    fake.tqdm = FakeBar  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    FakeBar.made.clear()
    stream = Terminal()
    display = ProgressDisplay(stream=stream)
    _show(display, 1, postfix="tries=4")
    _show(display, 2, postfix="tries=9")
    [bar] = FakeBar.made
    assert bar.options == {
        "total": 3, "file": stream, "desc": "generate", "unit": "puzzle", "unit_scale": False, "leave": False
    }
    assert bar.n == 2 and bar.postfix == "tries=9" and not bar.closed
    display.close()
    assert bar.closed and stream.getvalue() == ""  # the bar writes itself; the line is not written


def test_a_new_unit_gets_a_new_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis counts its positions, then those given a distance: each stage a bar of its own."""
    fake = type(sys)("tqdm")
    fake.tqdm = FakeBar  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    FakeBar.made.clear()
    display = ProgressDisplay(stream=Terminal())
    for count, unit in [(10, " positions"), (20, " positions"), (5, " positions with a distance")]:
        display.update(count, desc="analysis", unit=unit, line=f"analysis: {count}{unit}")
    first, second = FakeBar.made
    assert first.closed and first.n == 20 and first.options["unit"] == " positions"
    assert not second.closed and second.n == 5 and second.options["unit"] == " positions with a distance"
    display.close()
    assert second.closed


def test_the_fallback_on_a_terminal_rewrites_one_line_and_clears_it() -> None:
    stream = Terminal()
    display = ProgressDisplay(stream=stream, lines=True)
    _show(display, 1)
    _show(display, 2)
    display.close()
    text = stream.getvalue()
    assert FRAME.findall(text) == ["generate: 1/3", "generate: 2/3"]
    assert text.endswith(CLEAR) and "\n" not in text


def test_off_a_terminal_plain_lines_only_when_asked() -> None:
    quiet, asked = io.StringIO(), io.StringIO()
    for stream, lines in ((quiet, False), (asked, True)):
        display = ProgressDisplay(stream=stream, lines=lines)
        _show(display, 1)
        _show(display, 2)
        display.close()
    assert quiet.getvalue() == "" and asked.getvalue() == "generate: 1/3\ngenerate: 2/3\n"


def test_quiet_shows_nothing_even_on_a_terminal() -> None:
    stream = Terminal()
    display = ProgressDisplay(stream=stream, enabled=False, lines=True)
    _show(display, 1)
    display.close()
    assert stream.getvalue() == "" and not display.enabled


def test_lines_are_paced_but_the_last_is_written() -> None:
    stream = io.StringIO()
    display = ProgressDisplay(stream=stream, lines=True, every=3600.0)
    for count in (1, 2):
        _show(display, count)
    _show(display, 3, final=True)
    assert stream.getvalue() == "generate: 1/3\ngenerate: 3/3\n"


def _on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the command with stderr a terminal without tqdm; its stderr (stdout has no frame)."""
    stream = Terminal()
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(sys, "stderr", stream)
    assert main(argv) == 0
    assert not FRAME.search(capsys.readouterr().out)
    monkeypatch.undo()
    return stream.getvalue()


@pytest.mark.parametrize(
    ("argv", "label"),
    [
        (["solve", "--engine", "astar", CROWD9], "astar"),
        (["analyze", "large:17"], "analysis"),
        (["generate", "--count", "2", "--min-moves", "3", "--max-moves", "6", "--seed", "1"], "generate"),
        (["enumerate", "--size", "3x3", "--workers", "1"], "enumerate"),
    ],
)
def test_every_long_command_shows_the_one_display(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], label: str
) -> None:
    seen: list[str] = []
    update = ProgressDisplay.update

    def spy(self: ProgressDisplay, count: int, **options: Any) -> None:
        seen.append(options["desc"])
        update(self, count, **options)

    monkeypatch.setattr(watch, "INTERVAL", 0.0)
    monkeypatch.setattr(ProgressDisplay, "update", spy)
    err = _on_a_terminal(monkeypatch, capsys, argv)
    if err.startswith("note: "):  # the Python path's word on a large board (RUSHHOUR_NATIVE=0), before any frame
        err = err.split("\n", 1)[1]
    assert seen and set(seen) == {label}
    frames = FRAME.findall(err)
    assert frames and all(frame.startswith(f"{label}: ") for frame in frames), err
    shown = err[: err.rindex(CLEAR) + len(CLEAR)]
    assert shown.endswith(CLEAR) and "\n" not in shown  # cleared before anything else is written
    if argv[0] not in ("solve", "analyze"):  # no -q: their display shows on a terminal or with --progress
        assert not FRAME.search(_on_a_terminal(monkeypatch, capsys, [*argv, "-q"]))


#: the program without the ``progress`` extra, whatever this environment has installed
WITHOUT_TQDM = "import sys; sys.modules['tqdm'] = None; from rushhour.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.mark.parametrize(
    ("argv", "label"),
    [
        (["generate", "--count", "2", "--min-moves", "3", "--max-moves", "6", "--seed", "1"], "generate"),
        (["enumerate", "--size", "3x3", "--workers", "1"], "enumerate"),
    ],
)
def test_in_a_pseudo_terminal_the_line_is_cleared_before_the_output(argv: list[str], label: str) -> None:
    child = spawn_program([sys.executable, "-c", WITHOUT_TQDM, *argv], encoding="utf-8", timeout=60)
    text = child.read()
    child.close()
    assert child.exitstatus == 0, text
    frames = FRAME.findall(text)
    assert frames and all(frame.startswith(f"{label}: ") for frame in frames), text
    for frame in re.finditer(FRAME, text):  # every frame is cleared before anything else is written
        assert text[frame.end() :].startswith(("\r", CLEAR)), text
    rest = text[text.rindex(CLEAR) + len(CLEAR) :]
    assert rest.strip() and not FRAME.search(rest) and "\x1b" not in rest
