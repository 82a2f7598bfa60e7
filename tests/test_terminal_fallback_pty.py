"""TERM and the full screen: a terminal with a direct-colour terminfo entry (``TERM=xterm-direct``) gets
the full screen in 24-bit colour; one whose TERM has no terminfo entry gets the line mode, and a note
that says why (it fell back without a word).

``xterm-direct`` is in ncurses' full terminal database (Debian's ncurses-term), not in its base one;
the test compiles the entry itself (ncurses' own ``xterm+direct`` definition over ``xterm-256color``)
with ``tic`` into a folder of its own, named by ``TERMINFO``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pyte
import pytest

from rushhour.formats import parse_text
from rushhour.play.screen import geometry
from rushhour.render.palette import TRUE_COLOR, vehicle_colors
from tests.boards import TINY
from tests.test_tui_pty import ALT_SCREEN_ON, COLS, LINES, Player, left_cleanly

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals need a POSIX system")

#: ncurses' terminfo.src: xterm+direct, over xterm-256color
XTERM_DIRECT = r"""xterm-direct|xterm with direct-color indexing,
	RGB,
	colors#0x1000000,
	pairs#0x10000,
	initc@,
	oc@,
	op=\E[39;49m,
	setab=\E[%?%p1%{8}%<%t4%p1%d%e48\:2\:\:%p1%{65536}%/%d\:%p1%{256}%/%{255}%&%d\:%p1%{255}%&%d%;m,
	setaf=\E[%?%p1%{8}%<%t3%p1%d%e38\:2\:\:%p1%{65536}%/%d\:%p1%{256}%/%{255}%&%d\:%p1%{255}%&%d%;m,
	setb@,
	setf@,
	use=xterm-256color,
"""


def compiled_entry(tmp_path: Path) -> Path:
    tic = shutil.which("tic")
    if tic is None:
        pytest.skip("tic (ncurses) is not installed")
    source = tmp_path / "xterm-direct.src"
    source.write_text(XTERM_DIRECT)
    folder = tmp_path / "terminfo"
    done = subprocess.run([tic, "-x", "-o", str(folder), str(source)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"tic could not compile xterm-direct: {done.stderr.strip()}")
    return folder


def semicolons(raw: str) -> str:
    """Direct-colour SGR with colons (``48:2::R:G:B``, ISO 8613-6) as pyte reads it (``48;2;R;G;B``)."""
    return re.sub(r"\x1b\[[0-9:;]*m", lambda m: m.group(0).replace("::", ";").replace(":", ";"), raw)


def test_xterm_direct_plays_full_screen_in_24_bit_colour(tmp_path: Path, level: Path) -> None:
    folder = compiled_entry(tmp_path)
    p = Player(tmp_path, str(level), "--no-save", TERM="xterm-direct", TERMINFO=str(folder))
    p.wait_for("moves 0")
    p.settle()
    assert ALT_SCREEN_ON in p.raw  # the full screen, not the line mode
    board = parse_text(TINY, source="test", fmt="grid")[0].board
    colours = vehicle_colors(board, TRUE_COLOR)
    r, g, b = colours["A"].rgb
    assert f"\x1b[48:2::{r}:{g}:{b}m" in p.raw  # the goal car's own colour, by the direct-colour rule
    screen = pyte.Screen(COLS, LINES)
    pyte.Stream(screen).feed(semicolons(p.raw))
    geo = geometry(board, LINES, COLS)
    assert geo is not None
    for name in board.names:  # the middle of each cell of each vehicle, in the vehicle's colour
        for row, col in board.cells_of(name):
            y, x = geo.top + row * geo.cell_h + geo.cell_h // 2, geo.left + col * geo.cell_w + geo.cell_w // 2
            assert screen.buffer[y][x].bg == "{:02x}{:02x}{:02x}".format(*colours[name].rgb), (name, row, col)
    p.send("q")
    left_cleanly(p)


def test_a_term_without_a_terminfo_entry_says_why_it_plays_in_lines(tmp_path: Path, level: Path) -> None:
    p = Player(tmp_path, str(level), "--no-save", TERM="rushhour-no-such-terminal")
    p.child.expect("your move")
    said = p.child.before or ""
    assert (
        "note: no terminfo entry for TERM 'rushhour-no-such-terminal': the full screen cannot be drawn; "
        "playing in the line mode (--plain chooses it without this note)"
    ) in " ".join(said.split())
    p.child.sendline("q")
    assert p.finish() == 0
    assert ALT_SCREEN_ON not in p.raw + said
