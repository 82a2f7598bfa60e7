"""The built-in packs in order of difficulty, walking through them (next level, first unsolved), and
the daily puzzle: the same for everyone on a day, in its band, solvable and verified."""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from rushhour import levels
from rushhour.errors import BoardNotFoundError
from rushhour.formats import Entry, fogleman
from rushhour.generator import Sketch
from rushhour.play.saves import Saves
from rushhour.search import analyze, solve, verify

DAY = datetime.date(2026, 11, 23)


@cache
def daily(day: datetime.date) -> levels.Daily:
    return levels.daily(day)


# --- packs in order of difficulty --------------------------------------------------------------------


def test_every_pack_is_in_order_of_difficulty() -> None:
    for pack in levels.packs():
        figures = [levels.difficulty(entry) for entry in pack.levels]
        assert all(moves < 10**6 and cluster < 10**9 for moves, cluster in figures), pack.name
        assert figures == sorted(figures), pack.name
        # names follow the numbers: pack-01 is level 1
        for number, entry in enumerate(pack.levels, start=1):
            assert entry.meta["name"] == f"{pack.name}-{number:02d}"


def test_the_hard_levels_no_longer_open_their_packs() -> None:
    expert = levels.pack("expert")
    assert levels.level("expert", 1).meta["moves"] != "36"
    assert int(levels.level("expert", 1).meta["moves"]) == min(int(e.meta["moves"]) for e in expert.levels)
    beginner = [int(e.meta["moves"]) for e in levels.pack("beginner").levels]
    assert beginner[0] == 3 and beginner[-1] == 8
    large = [int(e.meta["moves"]) for e in levels.pack("large").levels]
    assert large[-1] == 65 and large[:3] == sorted(large[:3])


def test_generated_packs_record_the_sorting_command() -> None:
    generated = [pack for pack in levels.packs() if "command" in pack.meta]
    assert generated  # the check below is not vacuous
    for pack in generated:
        assert " --sort " in pack.meta["command"], pack.name


def test_difficulty_reads_the_header_and_puts_unknown_figures_last() -> None:
    entry = levels.level("classic", 1)
    assert levels.difficulty(entry) == (4, 60)
    bare = Entry(entry.board, {"moves": "4"}, "x")
    assert levels.difficulty(bare) == (4, sys.maxsize)
    assert levels.difficulty(Entry(entry.board, {}, "x")) > levels.difficulty(bare)


# --- walking through the levels ----------------------------------------------------------------------


def test_play_order_runs_pack_by_pack() -> None:
    order = levels.play_order()
    assert len(order) == sum(len(p.levels) for p in levels.packs())
    assert [lv.pack for lv in order] == [p.name for p in levels.packs() for _ in p.levels]
    assert order[0].key == f"{levels.packs()[0].name}:1" and order[0].entry == levels.default_board()
    assert all(lv.entry is levels.level(lv.pack, lv.number) for lv in order[::17])


def test_next_level_within_and_across_packs() -> None:
    first, second = levels.packs()[:2]
    after = levels.next_level(first.name, 1)
    assert after is not None and after.key == f"{first.name}:2"
    across = levels.next_level(first.name, len(first.levels))
    assert across is not None and across.key == f"{second.name}:1"
    last = levels.packs()[-1]
    assert levels.next_level(last.name, len(last.levels)) is None
    with pytest.raises(BoardNotFoundError, match="levels 1 to"):
        levels.next_level(first.name, len(first.levels) + 1)
    with pytest.raises(BoardNotFoundError, match="no built-in pack"):
        levels.next_level("nosuch", 1)


def test_first_unsolved_follows_the_progress() -> None:
    progress = Saves.memory()
    order = levels.play_order()
    assert levels.first_unsolved(progress) == order[0]
    for item in order[:3]:
        progress.record_win(item.key, item.entry.board, moves=50, steps=60, optimal=None)
    assert levels.first_unsolved(progress) == order[3]
    # a record for another board under the same key (a renumbered level) does not count
    progress.record_win(order[3].key, order[4].entry.board, moves=9, steps=9, optimal=None)
    assert levels.first_unsolved(progress) == order[3]
    everything = Saves.memory()
    for item in order:
        everything.record_win(item.key, item.entry.board, moves=50, steps=60, optimal=None)
    assert levels.first_unsolved(everything) is None


def test_first_unsolved_in_one_pack_and_built_in_levels() -> None:
    first, second = levels.packs()[:2]
    progress = Saves.memory()
    assert levels.first_unsolved_in(progress, second.name) == levels.Level(second.name, 1, second.levels[0])
    for number in (1, 2):
        progress.record_win(
            f"{second.name}:{number}", second.levels[number - 1].board, moves=9, steps=9, optimal=None
        )
    found = levels.first_unsolved_in(progress, second.name)
    assert found is not None and found.key == f"{second.name}:3"
    assert levels.first_unsolved_in(progress, first.name) == levels.play_order()[0]  # other packs untouched
    with pytest.raises(BoardNotFoundError, match="no built-in pack"):
        levels.first_unsolved_in(progress, "nosuch")
    # a resolved BOARD argument is a built-in level when its label and board are that level's
    entry = levels.resolve_board(f"{second.name}:2")
    assert levels.built_in_level(entry) == levels.Level(second.name, 2, second.levels[1])
    assert levels.built_in_level(Entry(second.levels[1].board, {}, f"{second.name}:3")) is None
    assert levels.built_in_level(Entry(second.levels[1].board, {}, "inline board")) is None
    assert levels.built_in_level(Entry(second.levels[1].board, {}, "nosuch:2")) is None


# --- the daily puzzle --------------------------------------------------------------------------------


def test_the_same_day_gives_the_same_puzzle() -> None:
    one = daily(DAY)
    again = levels.daily(DAY)
    assert again == one and again.entry.board == one.entry.board and again.entry.meta == one.entry.meta
    assert one.key == "daily:2026-11-23" == one.entry.label
    assert one.entry.meta["seed"] == "20261123" == str(levels.daily_seed(DAY))
    # pinned: every machine and every version must agree on a day's puzzle
    assert fogleman.write_line(one.entry.board) == "BCCDDDBooEFFBAAEoGHHIJJGooIoKKoLLLMM"


def test_different_days_differ() -> None:
    days = [DAY, DAY + datetime.timedelta(days=1), datetime.date(2027, 1, 1)]
    boards = [daily(day).entry.board for day in days]
    assert len(set(boards)) == len(boards)
    assert len({daily(day).key for day in days}) == len(days)


@pytest.mark.parametrize("day", [DAY, DAY + datetime.timedelta(days=1), datetime.date(2027, 1, 1)])
def test_the_daily_puzzle_is_in_its_band_solvable_and_verified(day: datetime.date) -> None:
    puzzle = daily(day).entry
    board, meta = puzzle.board, puzzle.meta
    assert (board.width, board.height) == levels.DAILY_SIZE
    lo, hi = levels.DAILY_MOVES
    assert lo <= int(meta["moves"]) <= hi
    solution = solve(board)
    assert solution.length == int(meta["moves"])
    assert verify(board, solution.moves).is_won()
    a = analyze(Sketch.of(board).board())
    assert a.start_distance == int(meta["moves"]) and a.cluster_size == int(meta["cluster"])


def test_the_daily_puzzle_is_a_board_argument() -> None:
    assert levels.resolve_board("daily:2026-11-23").board == daily(DAY).entry.board
    with pytest.raises(BoardNotFoundError, match="is not a day"):
        levels.resolve_board("daily:2026-02-30")


def test_the_python_search_makes_the_same_daily_puzzle() -> None:
    """Without the compiled search the day's puzzle is the same (the two searches agree)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "RUSHHOUR_NATIVE": "0", "PYTHONPATH": str(root)}
    code = (
        "import datetime; from rushhour import levels; from rushhour.formats import fogleman; "
        "from rushhour.search.native import native_enabled; assert not native_enabled(); "
        "d = levels.daily(datetime.date(2026, 11, 23)); "
        "print(fogleman.write_line(d.entry.board), d.entry.meta['moves'], d.entry.meta['cluster'])"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    expected = daily(DAY).entry
    board_line = fogleman.write_line(expected.board)
    assert out.stdout.split() == [board_line, expected.meta["moves"], expected.meta["cluster"]]


def test_levels_ends_with_a_line_per_pack(tmp_path: Path) -> None:
    packs = levels.packs
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "rushhour", "levels", "--summary"], capture_output=True, text=True, env=env
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0] == "Summary:" and len(lines) == len(packs()) + 2
    total = sum(len(p.levels) for p in packs())
    assert lines[-1].split() == ["all", "packs", "0", "of", str(total), "levels", "solved,", "0", "perfect"]


@pytest.mark.parametrize("number", ["-1", "99999999999999999999", "abc"])
def test_a_board_number_of_a_file_that_is_none_names_the_file(tmp_path: Path, number: str) -> None:
    """FILE:N where N is no board number: said of the file (it was 'not a file, an inline board or a
    built-in board', though the file is there)."""
    path = tmp_path / "cl.txt"
    path.write_text(Path("boards/classic.txt").read_text())
    with pytest.raises(BoardNotFoundError) as caught:
        levels.resolve_board(f"{path}:{number}")
    assert str(caught.value) == f"{path} holds boards 1 to 12, not '{number}'"


# --- the player's packs: names a BOARD argument can reach --------------------------------------------


@pytest.mark.parametrize(
    ("stem", "words"),
    [
        ("", "a pack needs a name before .txt"),
        ("a:1", "a:1 ends in ':1', which a BOARD argument reads as level 1 of a pack a"),
        (" pad", "' pad' begins or ends with a space"),
        ("x.json", "x.json would be taken for a file's path"),
        ("~home", "~home would be taken for a file's path"),
        ("ooooAAoooooooooo", "ooooAAoooooooooo would be read as an inline board"),
    ],
)
def test_a_pack_file_no_board_argument_can_name_is_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stem: str, words: str
) -> None:
    """``.txt`` was offered as a pack with an empty name (a blank line in ``levels``, and ``show ''``
    answered with it); ``a:1.txt`` as a pack ``a:1`` that ``show a:1`` could not find; a name read as
    a path or an inline board likewise: offered, but never played."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = levels.user_packs_dir()
    folder.mkdir(parents=True)
    (folder / f"{stem}.txt").write_text(Path("boards/classic.txt").read_text())
    (folder / "fine.txt").write_text(Path("boards/classic.txt").read_text())
    assert [p.name for p in levels.user_packs()] == ["fine"]
    (left,) = levels.left_out_user_packs()
    assert left.name == stem and words in left.why and left.why.endswith("rename the file to play it")
    with pytest.raises(BoardNotFoundError):  # nor may the editor make one (ooooAAoooooooooo it did)
        levels.check_user_pack_name(stem)
    with pytest.raises(BoardNotFoundError):
        levels.resolve_board("")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("classic:3", "classic:3 is a level of the pack classic, not a pack: give classic"),
        ("Classic:12", "Classic:12 is a level of the pack classic, not a pack"),
        ("classic-03", "classic-03 is a level of the pack classic, not a pack"),
        ("classic:13", "no built-in pack called 'classic:13'"),  # classic has 12 levels
        ("nope", "no built-in pack called 'nope'"),
    ],
)
def test_a_level_given_where_a_pack_is_asked_for_is_named_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, words: str
) -> None:
    """``rushhour levels classic:3`` said there is no pack called classic:3, as of a name never seen."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(BoardNotFoundError, match=re.escape(words)):
        levels.pack(name)
