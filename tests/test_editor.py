"""The editor without a terminal: the draft's edits and refusals, the editor's keys and mouse, its live
check (cross-checked against the solver), saving, and the player's packs."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rushhour import Board
from rushhour.board import HORIZONTAL, VERTICAL
from rushhour.errors import BoardNotFoundError, FormatError, LimitReachedError, RushHourError
from rushhour.formats import FORMATS, read_file
from rushhour.levels import add_to_user_pack, all_packs, pack, resolve_board, user_packs
from rushhour.play.draft import Draft, EditError
from rushhour.play.editor import Editor, Mode, parse_save
from rushhour.play.kept import KeptBoards, kept_path
from rushhour.play.sources import optimal_plan
from rushhour.play.worker import InlineWorker
from rushhour.search import solve

START = "....../....../AA..../....../....../......"


def make(draft: Draft, **options: object) -> Editor:
    """An editor whose check runs in place (its answer taken at once)."""
    workers = {"checker": InlineWorker(optimal_plan), "hardener": InlineWorker(optimal_plan)}
    ed = Editor(draft, **workers, **options)  # type: ignore[arg-type]
    ed.tick()
    return ed


def keys(ed: Editor, *names: str) -> None:
    for name in names:
        ed.key(name)
        ed.tick()


# --- the draft -----------------------------------------------------------------------------------
def test_doctests() -> None:
    import doctest

    import rushhour.play.draft

    assert doctest.testmod(rushhour.play.draft).failed == 0
    page = Path(__file__).resolve().parent.parent / "docs" / "editor.md"
    assert doctest.testfile(str(page), module_relative=False).failed == 0


def test_refusals_say_why() -> None:
    d = Draft.of(Board.from_text(START))
    with pytest.raises(EditError, match=r"run off the 6x6 board at \(2,6\)"):
        d.place(2, 4, HORIZONTAL, 3)
    with pytest.raises(EditError, match="overlap vehicle A"):
        d.place(1, 1, VERTICAL, 2)
    with pytest.raises(EditError, match="a wall needs an empty cell"):
        d.toggle_wall((2, 0))
    with pytest.raises(EditError, match="lengths are 2 up to the side"):
        d.resize("A", 7)
    with pytest.raises(EditError, match="there is a vehicle A already"):
        d.place(0, 0, HORIZONTAL, 2).rename("B", "A")


def test_an_invalid_draft_says_what_is_wrong() -> None:
    d = Draft.empty(6, 6)
    assert d.problem() == "the board has no vehicles"
    d = d.place(0, 0, VERTICAL, 2, name="B")
    assert "goal vehicle A is missing" in (d.problem() or "")
    d = d.make_goal("B")
    assert d.problem() is None and d.board().exit is not None and d.board().exit.side == "top"  # type: ignore[union-attr]
    assert d.next_exit().board().exit.side == "bottom"  # type: ignore[union-attr]


EDITS = st.lists(
    st.tuples(
        st.sampled_from(["place", "shift", "rotate", "delete", "wall", "resize"]),
        st.integers(0, 5),
        st.integers(0, 5),
        st.integers(2, 3),
    ),
    max_size=25,
)


#: the names a random rename gives: long ones, the grid's own symbols, digits
NAMES = ("LONG", "x", "o", "b1", "Zz9", "7")


def one_edit(d: Draft, what: str, r: int, c: int, n: int) -> Draft:
    """One edit a person makes, chosen by ``what`` and placed by the numbers ``r``, ``c``, ``n``."""
    if what == "place":
        return d.place(r, c, HORIZONTAL if n == 2 else VERTICAL, n)
    if what == "wall":
        return d.toggle_wall((r, c))
    if what == "exit":
        return d.next_exit()
    if not d.names:
        return d
    name = d.names[(r + c) % len(d.names)]
    if what == "shift":
        return d.shift(name, r % 3 - 1, c % 3 - 1)
    if what == "rotate":
        return d.rotate(name)
    if what == "delete":
        return d.delete(name)
    if what == "rename":
        return d.rename(name, NAMES[(r * 8 + c) % len(NAMES)])
    if what == "goal":
        return d.make_goal(name)
    return d.resize(name, n)


@settings(max_examples=60, deadline=None)
@given(EDITS)
def test_any_edits_keep_every_cell_to_one_owner_and_a_valid_draft_round_trips(edits: list) -> None:  # type: ignore[type-arg]
    d = Draft.empty(6, 6)
    for what, r, c, n in edits:
        with contextlib.suppress(EditError):
            d = one_edit(d, what, r, c, n)
        cells = [cell for v in d.vehicles for cell in d.cells_of(v)] + sorted(d.walls)
        assert len(cells) == len(set(cells))  # no two things share a cell
        assert all(0 <= r < 6 and 0 <= c < 6 for r, c in cells)
    if d.problem() is None:
        board = d.board()
        assert Draft.of(board).board() == board
        for fmt in FORMATS:
            try:
                text = board.to_text(fmt)
            except FormatError:  # a format that cannot hold this board (Fogleman: 6x6, exit on the right)
                continue
            assert Board.from_text(text, fmt) == board


# --- the editor ----------------------------------------------------------------------------------
def test_keys_place_move_and_undo_and_the_check_agrees_with_the_solver() -> None:
    ed = make(Draft.empty(6, 6))
    keys(ed, "down", "down", "c", "esc", "up", "up", "right", "right", "t", "o")
    board = ed.board()
    assert board is not None and board.rows()[:3] == ["..B...", "..B...", "AAB..."]
    assert ed.check is not None and ed.check.state == "solvable"
    assert ed.check.optimum == solve(board).length == 2
    keys(ed, "down")  # B selected: it moves down
    assert ed.draft.vehicle("B").row == 1  # type: ignore[union-attr]
    keys(ed, "u", "u")
    assert ed.draft.vehicle("B").horizontal  # type: ignore[union-attr]
    keys(ed, "r")
    assert not ed.draft.vehicle("B").horizontal  # type: ignore[union-attr]


def test_the_mouse_draws_along_a_row_or_column_and_moves_a_vehicle() -> None:
    ed = make(Draft.empty(6, 6))
    ed.press((2, 0))
    ed.release((2, 1))
    ed.press((0, 3))
    ed.drag((2, 3))
    ed.release()
    ed.tick()
    assert ed.board() is not None and ed.board().rows()[:3] == ["...B..", "...B..", "AA.B.."]  # type: ignore[union-attr]
    ed.press((1, 1))
    ed.release((2, 2))
    assert ed.message.startswith("refused: draw a vehicle along one row")
    ed.press((2, 3))
    ed.release((3, 3))
    assert ed.draft.vehicle("B").row == 1  # type: ignore[union-attr]


def test_unsolvable_is_proven_and_the_hardest_position_is_jumped_to() -> None:
    ed = make(Draft.of(Board.from_text(START)))
    ed.cursor = (2, 5)
    keys(ed, "w")
    assert ed.check is not None and ed.check.state == "unsolvable" and ed.check.reachable == 4
    assert "UNSOLVABLE (proven):" in ed.status_lines()
    ed = make(Draft.of(Board.from_text("AA..../...B../...B../...B../....../......")))
    keys(ed, "j")
    hardest = ed.board()
    assert hardest is not None and solve(hardest).length == 2 == ed.check.optimum  # type: ignore[union-attr]


def test_saves_in_every_format_and_a_failed_save_loses_nothing(tmp_path: Path) -> None:
    board = Board.from_text("..B.../..B.../AAB.../....../.CC.../......")
    ed = make(Draft.of(board))
    for fmt in FORMATS:
        path = tmp_path / f"b-{fmt}.txt"
        assert ed.save(str(path), fmt)
        assert read_file(str(path))[0].board == board
    ed.cursor = (5, 5)
    keys(ed, "w")
    assert ed.dirty
    assert not ed.save(str(tmp_path / "missing" / "b.txt"), "grid")
    assert ed.message.startswith("not saved: cannot write") and ed.dirty
    assert parse_save("x.json") == ("x.json", "json") and parse_save("x.txt fogleman") == ("x.txt", "fogleman")


def test_a_save_to_one_of_the_editors_own_streams_is_refused() -> None:
    """/dev/stdout is the editor's screen, /dev/fd/N a pipe of its own: the board was written there (on
    the screen, among what it draws) and counted as saved, so that q then left without keeping it."""
    import os

    ed = make(Draft.of(Board.from_text(START)).place(0, 2, VERTICAL, 3))
    read_end, write_end = os.pipe()
    try:
        for path in (f"/dev/fd/{write_end}", "/dev/stdout"):
            ed.key("s")
            keys(ed, *path, "enter")
            said = f"not saved: {path} is one of the editor's own streams, not a file: name a file"
            assert ed.prompt_error == said and ed.mode is Mode.PROMPT and ed.dirty
            keys(ed, "esc")
        os.set_blocking(read_end, False)
        with pytest.raises(BlockingIOError):
            os.read(read_end, 100)  # nothing was written into the pipe
    finally:
        os.close(read_end)
        os.close(write_end)
    keys(ed, "q")
    assert ed.mode is Mode.CONFIRM_QUIT  # still not saved: asked


def test_a_kept_board_that_cannot_be_forgotten_does_not_end_a_good_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a save, the kept board the session opened is forgotten; where that fails (a folder in the
    kept file's place) the save still stands, said with a warning, and the editor goes on."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    board = Board.from_text(START)
    kept_path().mkdir(parents=True)
    assert KeptBoards().forget(board).startswith(f"warning: the kept unsaved board {kept_path()} could not be")
    ed = make(Draft.of(board), kept=KeptBoards(), opened_kept=board)
    ed.cursor = (5, 5)
    keys(ed, "w")
    out = tmp_path / "saved.txt"
    assert ed.save(str(out), "grid")
    assert ed.mode is Mode.EDIT and not ed.dirty and read_file(str(out))[0].board == ed.board()
    assert ed.message.startswith(f"saved to {out} (grid); warning: the kept unsaved board")


class Kept:
    """A store of kept boards in memory, saying what it was asked."""

    def __init__(self) -> None:
        self.boards: list[Board] = []

    def keep(self, board: Board, replacing: Board | None = None) -> str:
        self.boards = [b for b in self.boards if b not in (board, replacing)] + [board]
        return "kept"

    def forget(self, board: Board) -> str:
        self.boards.remove(board)
        return ""


def test_leaving_an_unsaved_board_asks_and_keeps_it() -> None:
    store = Kept()
    kept = store.boards
    ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
    keys(ed, "q")
    assert ed.mode is Mode.QUIT and store.boards == []  # nothing changed: left at once
    ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
    ed.cursor = (0, 0)
    keys(ed, "w", "q")
    assert ed.mode is Mode.CONFIRM_QUIT
    keys(ed, "n")
    assert ed.mode is Mode.EDIT
    keys(ed, "q", "y")
    assert ed.mode is Mode.QUIT and store.boards == [ed.board()]
    ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
    ed.cursor = (0, 1)
    keys(ed, "w", "ctrl-d")  # at once, kept
    assert ed.mode is Mode.QUIT and store.boards[-1] == ed.board() and not ed.interrupted
    kept = list(store.boards)
    ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
    keys(ed, "A", "o")  # upright, the goal vehicle cannot reach its exit on the right
    assert ed.dirty and "cannot leave through the right edge" in (ed.draft.problem() or "")
    keys(ed, "ctrl-c")
    assert ed.mode is Mode.QUIT and ed.interrupted
    assert store.boards == [*kept, ed.draft.by_name()]  # kept as the draft it is, not valid yet
    for k, opening in enumerate((["s"], ["k"], ["n"], ["q"], ["?"])):  # a prompt, the quit question, the help
        ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
        ed.cursor = (5, k)
        keys(ed, "w", *opening)
        assert ed.mode is not Mode.EDIT or opening == ["n"], opening
        keys(ed, "ctrl-d")
        assert ed.mode is Mode.QUIT and store.boards[-1] == ed.board() and not ed.interrupted, opening


def test_a_board_that_cannot_be_kept_is_not_left_unknowing(tmp_path: Path) -> None:
    """The quit question's y left even when the board could not be kept (a warning, the board lost):
    now the question is asked again, saying why; y then leaves without it, s saves it."""
    (tmp_path / "data").write_text("a file where the data folder should be")
    store = KeptBoards(tmp_path / "data" / "rushhour" / "editor-unsaved.txt")
    ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
    ed.cursor = (0, 0)
    keys(ed, "w", "q", "y")
    assert ed.mode is Mode.CONFIRM_QUIT and ed.dirty
    assert ed.confirm_text().startswith(f"The unsaved board could not be kept in {store.path}: ")
    assert ed.confirm_text().endswith(". y leaves without it, s saves and leaves, other keys stay")
    out = tmp_path / "saved.txt"
    keys(ed, "s", *str(out), "enter")
    assert ed.mode is Mode.QUIT and read_file(str(out))[0].board == ed.board()
    ed = make(Draft.of(Board.from_text(START)), kept=store, saved=True)
    ed.cursor = (0, 0)
    keys(ed, "w", "q", "y", "x")  # another key stays, and the next q asks as at first
    assert ed.mode is Mode.EDIT and ed.draft.walls
    keys(ed, "q")
    assert ed.confirm_text().startswith("The board is not saved: y leaves and keeps it")
    keys(ed, "y", "y")  # not kept again, said; y leaves without it
    assert ed.mode is Mode.QUIT and ed.message.startswith("warning: the unsaved board could not be kept")


def test_sessions_never_lose_each_others_kept_boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save forgot whatever board was kept, whichever board the session opened, and a new session
    leaving a board unsaved wrote over the one kept before (and over a kept file it could not read)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first, second = Board.from_text(START), Board.from_text("....../....../AA..../....../....../.....x")
    ed = make(Draft.of(first), kept=KeptBoards())  # session 1 leaves its board unsaved
    keys(ed, "ctrl-d")
    assert KeptBoards().boards() == [first]
    other = make(Draft.of(Board.from_text("....../....../AA..B./....B./....../......")), kept=KeptBoards())
    assert other.save(str(tmp_path / "other.txt"), "grid")  # session 2 saves a board of its own
    assert KeptBoards().boards() == [first]
    ed = make(Draft.of(second), kept=KeptBoards())  # session 3 keeps another: both are kept
    keys(ed, "ctrl-d")
    assert KeptBoards().boards() == [first, second] and "1 other board kept there too" in ed.message
    # a session that opened the last one, changed it and left it again keeps it in its place
    ed = make(Draft.of(second), kept=KeptBoards(), opened_kept=second)
    ed.cursor = (0, 0)
    keys(ed, "w", "ctrl-d")
    changed = ed.board()
    assert KeptBoards().boards() == [first, changed]
    ed = make(Draft.of(changed), kept=KeptBoards(), opened_kept=changed)  # saved: only it is forgotten
    assert ed.save(str(tmp_path / "changed.txt"), "grid")
    assert KeptBoards().boards() == [first]
    ed = make(Draft.of(first), kept=KeptBoards(), opened_kept=first)
    assert ed.save(str(tmp_path / "first.txt"), "grid") and not kept_path().exists()
    # a kept file that cannot be read is moved aside, never written over
    kept_path().write_text("this is not a board\n")
    ed = make(Draft.of(first), kept=KeptBoards())
    keys(ed, "ctrl-d")
    aside = list(kept_path().parent.glob("editor-unsaved.txt.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == "this is not a board\n"
    assert KeptBoards().boards() == [first] and f"was moved to {aside[0]}" in ed.message
    # a data folder that is a file: said in words
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "first.txt"))
    assert KeptBoards().keep(first) == (
        f"warning: the unsaved board could not be kept in {kept_path()}: {tmp_path / 'first.txt'} is a file, "
        "not a folder"
    )
    with pytest.raises(RushHourError, match=f"^cannot make the packs folder .*: {tmp_path / 'first.txt'} is a file"):
        add_to_user_pack("mine", first)


def test_rushhour_edit_opens_the_last_kept_board_and_says_how_to_open_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from rushhour.cli.edit import starting_draft

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first, second = Board.from_text(START), Board.from_text("....../....../AA..../....../....../.....x")
    KeptBoards().keep(first)
    KeptBoards().keep(second)
    start = starting_draft(argparse.Namespace(board=None, size=None))
    assert start.draft.board() == second and start.kept == second and start.path is None
    assert start.note == f"the unsaved board of last time (kept in {kept_path()}, with 1 other: rushhour edit {kept_path()}:N)"
    start = starting_draft(argparse.Namespace(board=f"{kept_path()}:1", size=None))
    assert start.draft.board() == first and start.kept == first and start.path is None  # never saved back there
    start = starting_draft(argparse.Namespace(board=None, size=(7, 7)))
    assert start.kept is None and start.draft.width == 7


def test_a_save_asks_before_replacing_another_file_and_never_writes_a_read_only_one(tmp_path: Path) -> None:
    """s replaced a pack of twelve levels with one board without a word, and wrote into a read-only
    file (the atomic rename does not ask the file)."""
    pack = tmp_path / "mine.txt"
    pack.write_text((Path(__file__).resolve().parent.parent / "boards" / "classic.txt").read_text())
    ed = make(Draft.of(Board.from_text(START)), saved=True)
    ed.cursor = (5, 5)
    keys(ed, "w", "s", *str(pack), "enter")
    assert ed.mode is Mode.PROMPT and ed.prompt_error == f"{pack} exists: Enter again replaces it, Esc keeps it"
    assert len(read_file(str(pack))) == 12
    keys(ed, "esc", "s", *str(pack), "enter")  # asked again after Esc
    assert ed.mode is Mode.PROMPT and len(read_file(str(pack))) == 12
    keys(ed, "enter")  # named twice in a row: replaced
    assert ed.mode is Mode.EDIT and read_file(str(pack))[0].board == ed.board() and len(read_file(str(pack))) == 1
    keys(ed, "w", "s", "enter")  # its own file now: saved back without asking
    assert ed.mode is Mode.EDIT and not ed.dirty and ed.message == f"saved to {pack} (grid)"
    locked_file = tmp_path / "ro.txt"
    locked_file.write_text("....../....../AA..../....../....../......\n")
    locked_file.chmod(0o444)
    for _ in range(2):
        assert not ed.save(str(locked_file), "grid") and ed.message == f"not saved: {locked_file} is read-only"
    assert locked_file.read_text() == "....../....../AA..../....../....../......\n"


def test_saving_back_keeps_the_header_of_the_boards_file_while_it_still_holds(tmp_path: Path) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(
        "# title: my puzzle\n# author: Ann\n# name: ann-1\n# moves: 1\n# seed: 4\n"
        + "\n".join(START.split("/"))
        + "\n"
    )
    entry = read_file(str(path))[0]
    ed = make(Draft.of(entry.board), path=str(path), fmt="grid", saved=True, meta=entry.meta)
    assert ed.save(str(path), "grid")  # unchanged: every line still holds
    assert ed.check is not None and ed.check.state == "solvable"
    assert read_file(str(path))[0].meta == {
        "title": "my puzzle", "author": "Ann", "name": "ann-1", "moves": "1", "seed": "4", "cluster": str(ed.check.reachable)
    }
    ed.cursor = (2, 3)
    keys(ed, "t", "o")  # an upright truck in the way: the optimum and how the board was made no longer hold
    assert ed.check is not None and ed.check.state == "solvable"
    assert ed.save(str(path), "grid")
    meta = read_file(str(path))[0].meta
    assert meta == {"title": "my puzzle", "author": "Ann", "name": "ann-1", "moves": str(ed.check.optimum), "cluster": str(ed.check.reachable)}
    other = tmp_path / "copy.txt"
    assert ed.save(str(other), "grid")  # another file: the live check's figures only
    figures = {"moves": str(ed.check.optimum), "cluster": str(ed.check.reachable)}
    assert read_file(str(other))[0].meta == figures
    ed.cursor = (5, 5)
    keys(ed, "w", "s", "enter")  # saved back into the copy, its own file now: nothing of the first file
    assert ed.mode is Mode.EDIT and read_file(str(other))[0].meta == {
        "moves": str(ed.check.optimum), "cluster": str(ed.check.reachable)
    }


def test_the_quit_questions_s_saves_and_then_leaves(tmp_path: Path) -> None:
    ed = make(Draft.of(Board.from_text(START)), saved=True)
    ed.cursor = (0, 0)
    keys(ed, "w", "q", "s")
    assert ed.mode is Mode.PROMPT and ed.prompt == "save"
    keys(ed, "esc")  # given up: back to the board, nothing left
    assert ed.mode is Mode.EDIT and ed.dirty
    keys(ed, "q", "s", *str(tmp_path / "missing" / "b.txt"), "enter")
    assert ed.mode is Mode.PROMPT and ed.prompt_error.startswith("not saved")  # a failed save: stay
    keys(ed, "esc", "q", "s", *str(tmp_path / "b.txt"), "enter")
    assert ed.mode is Mode.QUIT and not ed.dirty
    assert read_file(str(tmp_path / "b.txt"))[0].board == ed.board()
    # the editor's own s (not the question's) saves and stays
    ed = make(Draft.of(Board.from_text(START)), saved=True)
    keys(ed, "s", *str(tmp_path / "c.txt"), "enter")
    assert ed.mode is Mode.EDIT


def test_harden_runs_round_after_round_and_its_best_is_taken() -> None:
    ed = make(Draft.of(Board.from_text("AA..../...B../...B../...B../....../......")))
    ed.harden_seconds = 0.5
    keys(ed, "h")
    assert ed.harden_on and ed.hardened is not None
    first = ed.hardened.moves
    assert first >= 2  # never shorter than the start's hardest position
    assert any(line.startswith("best: ") for line in ed.status_lines())
    keys(ed, "h")
    assert not ed.harden_on and ed.message == "harden stopped"
    best = ed.hardened
    keys(ed, "a")
    board = ed.board()
    assert board == best.board and solve(board).length == best.moves == ed.check.optimum  # type: ignore[union-attr]
    keys(ed, "u")
    assert ed.board() == Board.from_text("AA..../...B../...B../...B../....../......")


def test_a_harden_round_too_short_to_verify_the_start_gives_way_to_a_longer_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """harden keeps to its time limit in the solve that verifies the start's hardest position: a first
    round of 0.5 s on a board whose verification takes longer stopped harden for good."""
    import rushhour.harden

    real = rushhour.harden.solve
    limits: list[float | None] = []

    def slow_to_verify(board: Board, **options: Any) -> Any:
        """A solve that needs 0.6 s: given less, it uses up its time and stops at its limit."""
        limit = options.get("time_limit")
        limits.append(limit)
        if limit is not None and limit < 0.6:
            time.sleep(limit)
            raise LimitReachedError(f"stopped at the time limit of {limit} s")
        return real(board, **options)

    monkeypatch.setattr(rushhour.harden, "solve", slow_to_verify)
    ed = make(Draft.of(Board.from_text("AA..../...B../...B../...B../....../......")))
    ed.harden_seconds = 1.0
    keys(ed, "h")
    ed.tick()  # the second round's answer (the worker here answers in place)
    assert ed.hardened is not None and ed.hardened.moves >= 2, ed.message
    assert limits[0] is not None and limits[0] <= 0.5 and max(x or 0 for x in limits) > 0.6
    # a board that no round verifies (harden's last round is its first here): harden stops, says why
    ed2 = make(Draft.of(Board.from_text("AA..../...B../...B../...B../....../......")))
    ed2.harden_seconds = 0.5
    keys(ed2, "h")
    ed2.tick()
    assert not ed2.harden_on
    assert ed2.message.startswith("harden stopped: stopped at the time limit of 0.5 s while the hardest position")


def test_harden_says_why_it_stops_on_an_unsolvable_board() -> None:
    ed = make(Draft.of(Board.from_text("AA...x/....../....../....../....../......")))
    ed.harden_seconds = 0.5
    keys(ed, "h")
    assert not ed.harden_on and ed.message.startswith("harden stopped: the board is unsolvable")


def test_a_refused_answer_keeps_the_prompt_open_with_what_was_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    ed = make(Draft.of(Board.from_text("..B.../..B.../AAB.../....../.CC.../......")), add_to_pack=add_to_user_pack)
    ed.selected = "C"
    keys(ed, "n", "B", "enter")  # a name another vehicle has: refused
    assert ed.mode is Mode.PROMPT and ed.typed == "B" and ed.draft.vehicle("C") is not None
    assert ed.prompt_text() == "new name for C: B_  (Enter: done, Esc: cancel)" and ed.prompt_error.startswith("refused: ")
    keys(ed, "backspace", "D", "enter")
    assert ed.mode is Mode.EDIT and ed.draft.vehicle("D") is not None and ed.message == "C is now D"
    missing = str(tmp_path / "missing" / "b.txt")
    keys(ed, "s", *missing, "enter")  # a folder that is not there
    assert ed.mode is Mode.PROMPT and ed.typed == missing and ed.prompt_error.startswith("not saved: cannot write")
    assert ed.dirty
    keys(ed, "esc")
    assert ed.mode is Mode.EDIT and ed.message == "cancelled" and ed.dirty
    keys(ed, "k", *"classic", "enter")  # a built-in pack's name
    assert ed.mode is Mode.PROMPT and ed.typed == "classic"
    assert ed.prompt_error.startswith("not saved: classic is the name of a built-in pack")
    keys(ed, *"-mine")  # typing clears the reason
    assert ed.prompt_text() == "add to your pack named: classic-mine_  (Enter: done, Esc: cancel)" and not ed.prompt_error
    keys(ed, "enter")
    assert ed.mode is Mode.EDIT and ed.message.startswith("saved as classic-mine:1") and not ed.dirty


# --- the player's packs --------------------------------------------------------------------------
def test_user_packs_are_offered_beside_the_built_in_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    board = Board.from_text(START)
    assert add_to_user_pack("mine", board, {"moves": "1"}) == 1
    assert add_to_user_pack("mine", board.apply("A+1")) == 2
    assert [p.name for p in user_packs()] == ["mine"]
    assert all_packs()[-1].name == "mine" and len(pack("MINE").levels) == 2
    assert resolve_board("mine:2").board == board.apply("A+1")
    # a board the pack holds already: played twice, so refused, naming its level (k pressed twice)
    with pytest.raises(RushHourError, match=r"this board is level 2 of your pack mine already \(mine:2\)"):
        add_to_user_pack("Mine", board.apply("A+1"))
    assert len(pack("mine").levels) == 2
    with pytest.raises(BoardNotFoundError, match="classic is the name of a built-in pack"):
        add_to_user_pack("classic", board)
    with pytest.raises(BoardNotFoundError, match="cannot name a pack"):
        add_to_user_pack("../evil", board)


def _add_when_told(name: str, number: int, ready: object, go: object) -> None:
    ready.release()  # type: ignore[attr-defined]
    go.wait()  # type: ignore[attr-defined]
    add_to_user_pack(name, resolve_board(f"classic:{number}").board)  # four boards: a pack holds each once


def test_players_adding_one_pack_in_several_cases_at_once_make_one_pack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock was the file's, whose name is the case asked for: four editors adding Mine, mine, MINE
    and mIne at the same moment made four files (in 8 tries of 10), each saying it made level 1."""
    import multiprocessing

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    context = multiprocessing.get_context("fork")
    folder = tmp_path / "rushhour" / "packs"
    for trial in range(3):
        names = [f"{n}{trial}" for n in ("Mine", "mine", "MINE", "mIne")]
        ready, go = context.Semaphore(0), context.Event()
        workers = [
            context.Process(target=_add_when_told, args=(n, k, ready, go)) for k, n in enumerate(names, 1)
        ]
        for w in workers:
            w.start()
        for _ in workers:
            ready.acquire()
        go.set()
        for w in workers:
            w.join(30)
            assert w.exitcode == 0
        made = [p for p in folder.glob("*.txt") if p.stem.casefold() == f"mine{trial}"]
        assert len(made) == 1 and len(read_file(str(made[0]))) == 4, made


def test_a_pack_name_never_hides_a_built_in_board_nor_doubles_by_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BOARD arguments match names without regard to case, and mean a built-in pack, the daily puzzle
    or a built-in level's name before a pack of yours: such names are refused for a pack, a pack named
    again in another case is the same pack, and a file that clashes is left out with its reason."""
    from rushhour.levels import left_out_user_packs

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    board = Board.from_text(START)
    for name, why in [
        ("daily", "daily names the puzzle of the day"),
        ("Daily", "Daily names the puzzle of the day"),
        ("classic-07", "classic-07 is the name of a built-in level"),
        ("CLASSIC", "CLASSIC is the name of a built-in pack"),
    ]:
        with pytest.raises(BoardNotFoundError, match=f"^{why}: choose another name for yours$"):
            add_to_user_pack(name, board)
    assert add_to_user_pack("Mine", board) == 1
    assert add_to_user_pack("mine", board.apply("A+1")) == 2  # the same pack
    folder = tmp_path / "rushhour" / "packs"
    assert sorted(p.name for p in folder.glob("*.txt")) == ["Mine.txt"]
    assert resolve_board("mine:2").board == board.apply("A+1")
    # files made by hand: the clash in case and the built-in level's name are left out, said why
    (folder / "mine.txt").write_text((folder / "Mine.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "classic-07.txt").write_text((folder / "Mine.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert [p.name for p in user_packs()] == ["Mine"]
    why = {left.name: left.why for left in left_out_user_packs()}
    assert why["mine"].endswith("mine.txt: your pack Mine has this name but for case (names are matched so); "
                                "rename the file to play it")
    assert why["classic-07"].endswith("classic-07 is the name of a built-in level; rename the file to play it")
    assert resolve_board("classic-07").board == resolve_board("classic:7").board


def test_a_pack_file_left_out_is_said_so_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand-edited pack that no longer reads is not silently gone: levels names it, and play or show
    answers with the parse error (its line), not with "no such pack"."""
    from rushhour.cli import main
    from rushhour.levels import left_out_user_packs

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    add_to_user_pack("good", Board.from_text(START))
    folder = tmp_path / "rushhour" / "packs"
    (folder / "mine.txt").write_text("# title: Mine\n\nAA....\n", encoding="utf-8")
    (folder / "classic.txt").write_text((folder / "good.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "raw.txt").write_bytes(b"\xff\xfe")
    assert [p.name for p in user_packs()] == ["good"]
    assert {left.name: left.path.name for left in left_out_user_packs()} == {
        "classic": "classic.txt",
        "mine": "mine.txt",
        "raw": "raw.txt",
    }
    assert main(["levels", "--summary"]) == 0
    out, err = capsys.readouterr()
    assert "good " in out and "mine" not in out
    assert "left out: " + str(folder / "mine.txt") + ", line 3: board height 1 is out of range" in err
    assert "classic is the name of a built-in pack; rename the file" in err and "raw.txt: this is not UTF-8 text" in err
    for argv in (["show", "mine:1"], ["levels", "mine"], ["play", "MINE", "--plain", "--no-save"]):
        assert main(argv) == 2
        _, err = capsys.readouterr()
        assert err.startswith("error: your pack mine cannot be read: ") and "line 3" in err, argv
    assert main(["show", "classic:1", "--no-color"]) == 0  # the built-in pack, never the file
    assert "classic-01" in capsys.readouterr().out
    # the editor's "add to pack" into such a file: one error of the family, the file untouched
    with pytest.raises(RushHourError, match="raw.txt: this is not UTF-8 text"):
        add_to_user_pack("raw", Board.from_text(START))
    assert (folder / "raw.txt").read_bytes() == b"\xff\xfe"


def test_names_goal_exit_size_and_walls_change_by_keys() -> None:
    ed = make(Draft.of(Board.from_text("..B.../..B.../AAB.../....../....../......")))
    keys(ed, "B", "n", *"TR", "enter")
    assert ed.draft.names == ("A", "TR") and ed.selected == "TR"
    keys(ed, "-")
    assert ed.draft.vehicle("TR").length == 2  # type: ignore[union-attr]
    keys(ed, "esc", "A", "e")
    assert ed.board() is not None and ed.board().exit.side == "left"  # type: ignore[union-attr]
    keys(ed, "TR"[0])  # T: no vehicle of that name
    assert ed.message.startswith("there is no vehicle T")
    keys(ed, "tab", "g")
    assert ed.draft.goal == "TR" and ed.board().exit.side == "top"  # type: ignore[union-attr]
    keys(ed, "esc")
    ed.cursor = (5, 5)
    keys(ed, "w", "x")
    assert ed.draft.walls == frozenset()
    keys(ed, "n")
    assert ed.message == "select the vehicle to rename"


def test_a_vehicle_placed_once_the_renamed_goal_is_deleted_takes_the_goals_name() -> None:
    """The goal renamed (A to X), then deleted: every new vehicle was refused ("there is a vehicle A
    already"), being named A while the goal was X."""
    ed = make(Draft.empty(6, 6))
    keys(ed, "down", "down", "c", "n", "X", "enter")
    assert ed.draft.goal == "X" and ed.draft.names == ("X",)
    keys(ed, "esc", "up", "c")  # the first free name, the goal being there
    assert ed.message == "car A placed" and ed.draft.names == ("A", "X")
    keys(ed, "X", "x")
    assert ed.message == "X deleted" and ed.draft.problem() == "the goal vehicle X is missing (vehicles: A)"
    keys(ed, "down", "down", "c")
    assert ed.message == "car X placed (the goal vehicle: e moves its exit)"
    keys(ed, "esc", "down", "t")
    assert ed.message == "truck B placed" and ed.draft.names == ("A", "B", "X")
    assert ed.draft.problem() is None and ed.board().goal == "X"  # type: ignore[union-attr]


def test_g_on_the_goal_vehicle_keeps_a_wrap_around_boards_target() -> None:
    """g on the vehicle that is the goal already put a wrap-around board's target back to its default
    (2,2 west became 2,5 east), a change to undo."""
    board = Board.from_text("# wrap: yes\n# target: 2,2 west\n......\n......\nAA.B..\n...B..\n......\n......\n")
    ed = make(Draft.of(board), saved=True)
    keys(ed, "A", "g")
    assert ed.board() == board and not ed.dirty and ed.undo_stack == []
    keys(ed, "B", "g", "A", "g")  # another goal, then A again: the default target, undone step by step
    assert ed.board().target.heading == "east"  # type: ignore[union-attr]
    keys(ed, "u", "u")
    assert ed.board() == board and not ed.dirty


def test_the_command_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str]) -> None:
    from rushhour.cli import main

    assert main(["edit", "classic:1", "--size", "8x8"]) == 2
    assert "either a BOARD to edit or --size" in capsys.readouterr().err
    assert main(["edit", "nosuchpack:3"]) == 2
    assert "error: " in capsys.readouterr().err
    assert main(["edit"]) == 2  # not a terminal here
    err = capsys.readouterr().err
    assert err.startswith("error: the editor is full screen") and len(err.splitlines()) == 1
    with pytest.raises(SystemExit) as stop:
        main(["edit", "--size", "40x40"])
    assert stop.value.code == 2 and "out of range" in capsys.readouterr().err


def test_a_save_says_what_the_format_changes(tmp_path: Path) -> None:
    """Saved as Fogleman, the vehicles were renamed A, B... and the file's name left out, while the save
    said only 'saved to x (fogleman)': reopened, the board had other names than the ones drawn."""
    path = tmp_path / "mine.txt"
    path.write_text("# name: mine\n..p...\n..p...\nAAp...\n......\n.qq...\n......\n")
    entry = read_file(str(path))[0]
    ed = make(Draft.of(entry.board), path=str(path), fmt="grid", saved=True, meta=dict(entry.meta))
    assert ed.save(str(path), "grid") and ed.message == f"saved to {path} (grid)"  # it keeps everything
    assert ed.save(str(path), "fogleman")
    assert ed.message == (
        f"saved to {path} (fogleman); the vehicles are named as the format names them (A, B, C); "
        "the format has no place for the board's name"
    )
    assert sorted(read_file(str(path))[0].board.names) == ["A", "B", "C"]


def test_undoing_a_rename_keeps_the_vehicle_selected() -> None:
    """The selection was dropped when an undo or a redo took a rename back: the vehicle selected had
    another name."""
    ed = make(Draft.of(Board.from_text("..B.../..B.../AAB.../....../....../......")))
    keys(ed, "B", "n", *"TR", "enter")
    assert ed.selected == "TR"
    keys(ed, "u")
    assert ed.draft.names == ("A", "B") and ed.selected == "B"
    keys(ed, "r")
    assert ed.draft.names == ("A", "TR") and ed.selected == "TR"
