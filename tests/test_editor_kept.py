"""Kept boards that are not valid yet, without a terminal: any draft the editor can hold is kept and read
back exactly (same size, vehicles, names, walls, goal, exit, wrap-around target), offered again by
``rushhour edit`` and by ``rushhour edit KEPT:N``; a block that is neither a board nor such a draft is
refused as the grid reader refuses it."""

from __future__ import annotations

import argparse
import contextlib
import doctest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rushhour import Board
from rushhour.board import HORIZONTAL, Vehicle
from rushhour.errors import BoardNotFoundError, ParseError, RushHourError
from rushhour.play import kept as kept_module
from rushhour.play.draft import Draft, EditError
from rushhour.play.editor import Mode
from rushhour.play.kept import KeptBoards, draft_text, kept_path, read_text
from tests.test_editor import START, keys, make, one_edit

EDITS = st.lists(
    st.tuples(
        st.sampled_from(["place"] * 6 + ["shift", "rotate", "delete", "wall", "resize", "rename", "goal", "exit"]),
        st.integers(0, 7),
        st.integers(0, 7),
        st.integers(2, 4),
    ),
    max_size=30,
)
def broken(d: Draft, how: str) -> Draft:
    """``d`` made invalid as a person makes a board invalid in the editor."""
    goal = d.vehicle(d.goal)
    if goal is None:
        return d
    if how == "delete the goal":  # the goal vehicle missing, the other vehicles there
        return d.delete(d.goal)
    if how == "rename it, then delete it":  # a goal name no vehicle has, and no vehicle takes
        return d.rename(d.goal, "Q9").delete("Q9")
    if how == "turn it past its exit" and not d.wrap:  # an exit its goal vehicle cannot use
        return d.rotate(d.goal) if d.exit is not None else d.next_exit().rotate(d.goal)
    return d


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([(6, 6), (8, 5), (3, 7)]),
    st.booleans(),
    EDITS,
    st.sampled_from(["delete the goal", "rename it, then delete it", "turn it past its exit", "as it is"]),
)
def test_any_invalid_draft_is_kept_and_read_back_exactly(
    size: tuple[int, int], wrap: bool, edits: list, how: str  # type: ignore[type-arg]
) -> None:
    d = Draft(*size, wrap=wrap)
    for what, r, c, n in [*edits, ("place", 1, 1, 2)]:
        with contextlib.suppress(EditError):
            d = one_edit(d, what, r, c, n)
    with contextlib.suppress(EditError):
        d = broken(d, how)
    if d.problem() is None:
        return
    (again,) = read_text(draft_text(d))
    assert again == d.by_name()  # every field: size, vehicles and their names, walls, goal, exit, wrap, target
    assert again.problem() == d.problem()


def test_a_wrap_around_draft_keeps_its_target() -> None:
    board = Board.from_text("# wrap: yes\n# target: 2,3 east\n......\n......\nAA.B..\n...B..\n......\n......\n")
    d = Draft.of(board).delete("A")
    assert d.target is not None and d.problem() is not None
    text = draft_text(d)
    assert "# wrap: yes" in text and "# target: 2,3 east" in text
    assert read_text(text) == [d]


def test_a_vehicle_placed_past_the_edge_of_a_wrap_around_board_stands_where_it_shows() -> None:
    """``place`` kept a first cell past the edge of a wrap-around board as given ((0,6) of a 6x6 board):
    the draft said its cells were on the board, the board's rules said the vehicle was off it, and it
    read back kept as another draft."""
    d = Draft(6, 6, wrap=True).place(0, 6, HORIZONTAL, 2)
    assert d.vehicle("A") == Vehicle("A", HORIZONTAL, 2, 0, 0) and d.problem() is None
    assert d.move_to("A", 7, -1).vehicle("A") == Vehicle("A", HORIZONTAL, 2, 1, 5)


def test_the_doctests_of_kept_run() -> None:
    assert doctest.testmod(kept_module).failed == 0


def test_the_editor_keeps_an_invalid_board_and_rushhour_edit_opens_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rushhour.cli.edit import starting_draft

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    valid = Board.from_text("....../....../AA...x/....../....../......")
    KeptBoards().keep(valid)
    ed = make(Draft.of(Board.from_text(START)), kept=KeptBoards(), saved=True)
    keys(ed, "A", "o")  # upright: the goal car cannot leave through the right edge
    problem = "goal vehicle A is vertical, so it cannot leave through the right edge"
    assert ed.draft.problem() == problem
    keys(ed, "q")
    assert ed.confirm_text() == (
        "The board is not saved (not valid yet): y leaves and keeps it for next time, other keys stay"
    )
    keys(ed, "y")
    assert ed.mode is Mode.QUIT
    assert ed.message.startswith(f"the unsaved board is kept in {kept_path()}: rushhour edit opens it again")
    assert ed.message.endswith(f"; not valid yet, it opens as it was: {problem}")
    assert KeptBoards().boards() == [valid, ed.draft.by_name()]
    start = starting_draft(argparse.Namespace(board=None, size=None))
    assert start.draft == ed.draft.by_name() and start.kept == ed.draft.by_name() and start.path is None
    assert start.note.endswith("; not valid yet, as it was left: fix it, then s saves it")
    second = starting_draft(argparse.Namespace(board=f"{kept_path()}:2", size=None))
    assert second.draft == ed.draft.by_name() and second.kept == ed.draft.by_name()
    start = starting_draft(argparse.Namespace(board=f"{kept_path()}:1", size=None))
    assert start.draft.board() == valid and start.kept == valid
    with pytest.raises(BoardNotFoundError, match="holds boards 1 to 2, not 3"):
        starting_draft(argparse.Namespace(board=f"{kept_path()}:3", size=None))
    # fixed and saved, it is forgotten; the other session's board stays
    fixed = make(second.draft, kept=KeptBoards(), opened_kept=second.kept)
    keys(fixed, "A", "o")
    assert fixed.board() is not None
    assert fixed.save(str(tmp_path / "fixed.txt"), "grid")
    assert KeptBoards().boards() == [valid]


def test_an_edited_block_that_reads_as_another_board_is_refused_as_the_reader_refuses_it() -> None:
    """A block the strict reader refuses is read leniently only as the invalid draft it says: an exit on a
    line the goal car is not on (a hand edit) is no draft the editor made, and is refused with the
    reader's own words."""
    with pytest.raises(ParseError, match="exit"):
        read_text("# exit: right 5\n......\n......\nAA....\n......\n......\n......\n")
    for broken in ("......\n..B...\nAAB\n", "......\n..?...\nAA....\n", "# legend: A=\nAA....\n......\n......\n"):
        with pytest.raises(RushHourError):
            read_text(broken)


def test_a_draft_the_grid_cannot_hold_is_said_when_it_cannot_be_kept(tmp_path: Path) -> None:
    """More vehicles than the grid has symbols: the keep fails with a warning, and the quit question
    says so (y then leaves without it), as for any board that cannot be kept."""
    d = Draft.empty(16, 16)
    for r in range(16):
        for c in range(0, 16, 2):
            d = d.place(r, c, HORIZONTAL, 2, name=f"V{r}x{c}")
    store = KeptBoards(tmp_path / "editor-unsaved.txt")
    said = store.keep(d)
    why = "the grid format holds at most 60 vehicles; this board has 128"
    assert said == f"warning: the unsaved board could not be kept: {why}"
    assert not store.path.exists()
    ed = make(d, kept=store)
    keys(ed, "q", "y")  # asked again, saying why; s is not offered for a board that cannot be saved
    assert ed.mode is Mode.CONFIRM_QUIT
    assert ed.confirm_text() == f"The unsaved board could not be kept: {why}. y leaves without it, other keys stay"
    keys(ed, "y")
    assert ed.mode is Mode.QUIT and not store.path.exists()
