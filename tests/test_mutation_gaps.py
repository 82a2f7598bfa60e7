"""Faults a hand-mutation pass over the kept boards, the progress file, the classic mouse reports, dashed
option values, harden's deadline, SAT planning from a told bound, the enumerator's scheduler addresses
and the level menu found the other tests letting pass: each test here fails when the fault named in its
docstring is put back (docs/testing.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rushhour import Board
from rushhour.play import kept as kept_module
from rushhour.play.draft import Draft
from rushhour.play.kept import KeptBoards
from tests.cli import run

VALID = Board.from_text("....../....../AA...x/....../....../......")


def test_a_first_kept_board_with_header_lines_is_a_board_not_the_files_header(tmp_path: Path) -> None:
    """The file's own header is a first block of ``#`` lines only: an oldest board that is not valid yet
    (its ``# invalid:`` line and a grid) is offered, not taken for the header and hidden."""
    draft = Draft.of(VALID).delete("A")
    assert draft.problem() is not None
    path = tmp_path / "editor-unsaved.txt"
    store = KeptBoards(path)
    store.keep(draft)
    store.keep(VALID)
    assert path.read_text().startswith("# invalid:")
    head, found = kept_module.read_blocks(path.read_text())
    assert head == "" and found == [draft.by_name(), VALID]
    assert KeptBoards(path).boards() == [draft.by_name(), VALID]


def test_a_block_with_a_row_cut_short_is_unread_even_when_it_would_be_an_invalid_draft() -> None:
    """Rows of unequal length are no grid, for the lenient reader too: a block without its goal car
    and a row cut short is a block that cannot be read, not a draft padded with empty cells."""
    ragged = "......\n..B...\n..B\n......\n......\n......\n"
    boards, unread = kept_module.read_kept(ragged)
    assert boards == []
    assert [u.line for u in unread] == [3] and "rows must be equally long" in unread[0].why


def test_a_copy_aside_of_the_same_size_but_other_bytes_is_not_taken_for_the_file(tmp_path: Path) -> None:
    """A copy is made once per content: an earlier copy of the same length that holds other bytes is no
    copy of the file as it is now, so a new one is made and both stay as they were."""
    from rushhour.files import put_aside

    path = tmp_path / "progress.json"
    path.write_text("first text")
    one = put_aside(path, copy=True)
    assert put_aside(path, copy=True) == one  # the same bytes: that copy serves
    path.write_text("other text")  # as long, other bytes
    two = put_aside(path, copy=True)
    assert two != one
    assert (one.read_text(), two.read_text()) == ("first text", "other text")


def test_a_wheel_turn_in_the_classic_encoding_is_a_report_of_nothing() -> None:
    """The wheel's reports set the bit 64 of the button byte: a turn up (its low bits those of the first
    button) is no press, and a turn down no release."""
    from rushhour.play.tui import x10_report

    assert x10_report([32 + 64, 43, 37]).state == 0  # up
    assert x10_report([32 + 65, 43, 37]).state == 0  # down
    assert x10_report([32 + 64 + 32, 43, 37]).state == 0  # up, with a button held (mode 1002)


def test_a_dash_a_point_and_a_digit_is_a_value_where_argparse_takes_no_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``-.5e1`` is no number to argparse's own rule (``-.5`` is): it is still a value, so the option's
    check answers, not ``expected one argument``."""
    code, out, err = run(capsys, "solve", "classic:12", "--time-limit", "-.5e1")
    assert (code, out) == (2, "")
    assert err.startswith("error: argument --time-limit: the number of seconds '-.5e1'"), err


def test_a_told_bound_loses_the_plain_formulas_budget_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """From a told bound the plain formula gets HARD_CONFLICTS conflicts at the first length only: once a
    length needed more, every later length is hard from its start (the race), never probed again."""
    from rushhour.levels import resolve_board
    from rushhour.logic import planner

    monkeypatch.setattr(planner, "HARD_CONFLICTS", 20)
    entered: list[tuple[int, bool]] = []
    real = planner._Formula.solve

    def solve(self: planner._Formula, k: int, time_limit: float | None) -> bool:
        entered.append((k, self.hard))
        return real(self, k, time_limit)

    monkeypatch.setattr(planner._Formula, "solve", solve)
    entry = resolve_board("intermediate:1")
    want = int(entry.meta["moves"])
    assert planner.plan(entry.board, min_moves=want - 2).length == want
    assert [k for k, _ in entered] == [want - 2, want - 1, want]
    assert [hard for _, hard in entered] == [False, True, True]


def test_a_told_bounds_race_gets_the_time_left_after_the_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe of the plain formula spends part of a length's time limit: the race that follows gets
    what is left of it, never the whole limit again."""
    from rushhour.levels import resolve_board
    from rushhour.logic import planner

    monkeypatch.setattr(planner, "HARD_CONFLICTS", 20)
    given: list[float | None] = []
    raced: list[float | None] = []
    real_solve, real_race = planner._Formula.solve, planner._Formula._race

    def solve(self: planner._Formula, k: int, time_limit: float | None) -> bool:
        given.append(time_limit)
        return real_solve(self, k, time_limit)

    def race(self: planner._Formula, goal: int, time_limit: float | None) -> bool:
        raced.append(time_limit)
        return real_race(self, goal, time_limit)

    monkeypatch.setattr(planner._Formula, "solve", solve)
    monkeypatch.setattr(planner._Formula, "_race", race)
    entry = resolve_board("intermediate:1")
    want = int(entry.meta["moves"])
    assert planner.plan(entry.board, min_moves=want - 2, time_limit=600).length == want
    first = given[0]
    assert first is not None and raced[0] is not None
    assert raced[0] < first  # the first length: probed, then raced with the rest


def test_a_verifying_solve_with_no_time_left_is_a_stop_at_the_time_limit() -> None:
    """A hardest position to verify when the deadline has passed is a stop at the time limit
    (:class:`LimitReachedError`), not a solve asked to keep to no time at all (a refused argument)."""
    import time

    from rushhour import harden
    from rushhour.errors import LimitReachedError
    from rushhour.levels import resolve_board

    board = resolve_board("advanced:1").board
    with pytest.raises(LimitReachedError):
        harden._verified(board, 20, 1, time.perf_counter() - 1)


@pytest.mark.parametrize("port", [0, 65536])
def test_a_port_just_out_of_range_is_said(port: int, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    from rushhour.cli import main

    address = f"tcp://127.0.0.1:{port}"
    code = main(["enumerate", "--size", "4x4", "-q", "--scheduler", address])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(
        f"error: cannot reach the Dask scheduler at {address}: port {port} is out of range (1 to 65535)"
    ), err


def test_a_timeout_whose_last_try_was_cut_short_is_said_refused_when_the_port_refuses() -> None:
    """Dask keeps only its last try's error: a time-out without a refusal among its causes is still said
    as refused when a plain connection to the port is refused now."""
    import socket

    from rushhour.database import parallel

    with socket.socket() as taken:  # bound and not listening: a connection to it is refused
        taken.bind(("127.0.0.1", 0))
        where = ("127.0.0.1", taken.getsockname()[1])
        assert parallel._refused(where)
        said = parallel._why_not(OSError("Timed out trying to connect to tcp://x after 2 s"), where)
    assert said.startswith(f"nothing accepts connections at 127.0.0.1:{where[1]} (connection refused")


@pytest.mark.parametrize("width", [-1, 0, 1, 3, 5])
def test_a_menu_note_folds_on_a_terminal_narrower_than_its_indents(width: int) -> None:
    """The level menu is drawn on a terminal of any width: on one of a column or two (``cols - 2`` up to
    0 or less) a note is still folded, a few letters a line, every letter kept."""
    from rushhour.play.screen import fold_note

    text = "  mine.txt, line 3: board height 1 is out of range"
    parts = fold_note(text, width)
    assert all(part.startswith("  ") for part in parts)
    assert "".join(part.replace(" ", "") for part in parts) == text.replace(" ", "")


def test_a_warning_the_editor_left_with_is_said_after_the_screen_closes() -> None:
    """A board that could not be kept (or forgotten) is said again on the terminal, where it stays to be
    read, whatever else the message holds."""
    from rushhour.cli.edit import said_after

    assert said_after(
        "warning: the unsaved board could not be kept in /x/editor-unsaved.txt: Permission denied"
    )
    assert said_after(
        "warning: the kept unsaved board /x/editor-unsaved.txt could not be forgotten: No space"
    )
    assert said_after("the unsaved board is kept in /x/editor-unsaved.txt: rushhour edit opens it again")
    assert said_after("the kept unsaved boards: 1 block that cannot be read (line 3: bad) is left out")
    assert not said_after("saved to board.txt (grid)")


def test_only_a_file_is_in_the_way_of_a_folder(tmp_path: Path) -> None:
    """Folders that are there are not in the way; a folder that cannot be made for another reason (a
    name too long) is not said to be a file."""
    from rushhour.files import in_the_way, make_folder

    assert in_the_way(tmp_path / "new" / "deeper") is None
    (tmp_path / "plain").write_text("")
    assert in_the_way(tmp_path / "plain" / "deeper") == tmp_path / "plain"
    with pytest.raises(OSError) as refused:
        make_folder(tmp_path / ("x" * 300) / "deeper")
    assert "is a file" not in str(refused.value)
