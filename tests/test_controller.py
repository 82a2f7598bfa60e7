"""The game's controller (what a key means) driven without a terminal, on the real SAT oracle.

The level is TINY of tests/boards.py:

    .....
    ..B..        B-1 clears A's row, then A+3 wins: 2 moves.
    AAB..
    ..CC.
    .....
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rushhour.board import Board, Move, Vehicle
from rushhour.errors import LimitReachedError
from rushhour.formats import Entry, parse_text
from rushhour.levels import LeftOut, Shelf, packs
from rushhour.logic.oracle import legal_moves
from rushhour.play.controller import COMMAND_CHARS, Controller, Mode
from rushhour.play.game import Result
from rushhour.play.level import Level, next_level
from rushhour.play.saves import Saves
from rushhour.play.words import clock_text, win_lines
from rushhour.play.worker import ProcessWorker
from rushhour.search import solve
from rushhour.search.timed import TimeModel
from tests.boards import SECOND, TINY


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def solver(board: Board) -> list[Move] | None:
    solution = solve(board)
    return list(solution.moves) if solution.solved else None


def level_of(text: str = TINY) -> Level:
    entries = parse_text(text, source="test", fmt="grid")
    return Level(entries[0], None, 1, len(entries), tuple(entries))


def make(
    level: Level | None = None, *, saves: Saves | None = None, timed: TimeModel | None = None
) -> tuple[Controller, FakeClock]:
    clock = FakeClock()
    controller = Controller(
        level or level_of(),
        saves=saves or Saves.memory(),
        legal_moves=legal_moves,
        solver=solver,
        now=clock,
        timed=timed,
    )
    return controller, clock


def press(controller: Controller, *keys: str) -> None:
    for key in keys:
        controller.key(key)


# --- selection -------------------------------------------------------------------------------------
def test_the_goal_car_is_selected_first_and_tab_cycles_both_ways() -> None:
    c, _ = make()
    assert c.selected == "A" and c.mode is Mode.PLAY
    press(c, "tab")
    assert c.selected == "B" and "B selected (vertical car" in c.message
    press(c, "tab", "tab")
    assert c.selected == "B"  # B, C and round again: A cannot move, Tab passes it
    press(c, "shift-tab")
    assert c.selected == "C"
    press(c, "A")  # a name still selects a vehicle that cannot move
    assert c.selected == "A" and "no legal move here" in c.message


def test_upper_case_selects_and_lower_case_is_a_command() -> None:
    c, _ = make()
    press(c, "C")
    assert c.selected == "C"
    press(c, "b")  # lower case is never a vehicle: the player is told how to select B
    assert c.selected == "C" and "B (Shift+b) selects B" in c.message
    press(c, "B")
    assert c.selected == "B"
    press(c, "Z")
    assert c.selected == "B" and "no vehicle named Z here" in c.message
    press(c, "\x00")
    assert "neither a key of the game nor a vehicle" in c.message


def test_q_asks_before_leaving_a_level_with_moves_on_a_board_with_a_vehicle_q() -> None:
    board = Board(
        6,
        6,
        [Vehicle("A", "H", 2, 2, 0), Vehicle("Q", "V", 2, 0, 3), Vehicle("P", "H", 2, 4, 0)],
    )
    c, _ = make(Level(Entry(board, {}, "inline")))
    press(c, "Q")
    assert c.selected == "Q" and c.mode is Mode.PLAY
    press(c, "P", "right")
    assert c.game.moves_played == 1
    press(c, "q")
    assert c.mode is Mode.CONFIRM_QUIT  # asked, not left
    press(c, "x")
    assert c.mode is Mode.PLAY and c.message == "staying: play on"
    press(c, "q", "q")
    assert c.mode is Mode.QUIT
    fresh, _ = make(Level(Entry(board, {}, "inline")))
    press(fresh, "q")  # no move made: nothing to lose, no question
    assert fresh.mode is Mode.QUIT
    again, _ = make(Level(Entry(board, {}, "inline")))
    press(again, "P", "right", "q", "enter")
    assert again.mode is Mode.QUIT
    for key in ("ctrl-c", "ctrl-d"):  # leave at once, moves or not
        hurried, _ = make(Level(Entry(board, {}, "inline")))
        press(hurried, "P", "right", key)
        assert hurried.mode is Mode.QUIT


def test_colon_selects_lower_case_and_long_names() -> None:
    board = Board(
        6,
        6,
        [
            Vehicle("A", "H", 2, 2, 0),
            Vehicle("h", "V", 2, 0, 3),
            Vehicle("TT", "V", 3, 3, 4),
        ],
    )
    c, _ = make(Level(Entry(board, {}, "inline")))
    press(c, "h")  # h is the hint key
    assert c.selected == "A" and c.hint is not None
    press(c, "esc", ":", "h", "enter")
    assert c.selected == "h" and c.mode is Mode.PLAY
    press(c, ":", "T", "T", "X", "backspace")
    assert c.typed == "TT" and c.mode is Mode.NAME
    press(c, "enter")
    assert c.selected == "TT"
    press(c, ":", "Q", "enter")
    assert c.selected == "TT" and "no vehicle named 'Q'" in c.message
    press(c, ":", "h", "esc")
    assert c.selected == "TT" and c.mode is Mode.PLAY
    press(c, ":", "Q", "backspace", "enter")  # an empty name is no mistake: nothing changes
    assert c.selected == "TT" and c.mode is Mode.PLAY and "no vehicle" not in c.message


# --- sliding -------------------------------------------------------------------------------------
def test_arrows_slide_and_a_refused_slide_gives_the_oracle_reason() -> None:
    c, _ = make()
    press(c, "right")
    assert c.message == "A cannot slide right 1: B is in the way"
    assert c.game.moves_played == 0
    press(c, "up")
    assert "A slides left and right only" in c.message
    press(c, "B", "down")
    assert "C is in the way" in c.message
    press(c, "up")
    assert c.game.history == (Move("B", -1),)
    press(c, "up")
    assert "B would leave the board at the top edge" in c.message
    assert c.game.history == (Move("B", -1),)


def test_consecutive_slides_of_one_vehicle_are_one_move() -> None:
    c, _ = make()
    press(c, "C", "left", "left")
    assert c.game.history == (Move("C", -2),)
    assert (c.game.moves_played, c.game.steps_played) == (1, 2)
    press(c, "right")
    assert c.game.history == (Move("C", -1),)
    press(c, "right")
    assert c.game.history == () and "C is back where it was" in c.message
    press(c, "left", "B", "up", "C", "left")  # another vehicle between: a new move
    assert c.game.history == (Move("C", -1), Move("B", -1), Move("C", -1))


def test_reachable_cells_come_from_the_legal_moves() -> None:
    c, _ = make()
    assert c.reachable() == set()  # A is blocked
    press(c, "C")
    assert c.reachable() == {(3, 0), (3, 1), (3, 4)}
    press(c, "B")
    assert c.reachable() == {(0, 2)}


def test_undo_redo_and_reset_with_confirmation() -> None:
    c, _ = make()
    press(c, "C", "left", "B", "up")
    press(c, "u")
    assert c.game.history == (Move("C", -1),) and c.message == "undid B-1"
    press(c, "ctrl-z")
    assert c.game.history == ()
    press(c, "r", "ctrl-y")
    assert c.game.history == (Move("C", -1), Move("B", -1))
    press(c, "ctrl-r")
    assert c.mode is Mode.CONFIRM_RESET
    press(c, "n")
    assert c.mode is Mode.PLAY and c.game.moves_played == 2 and "cancelled" in c.message
    press(c, "ctrl-r", "y")
    assert c.game.moves_played == 0 and "2 moves taken back" in c.message
    press(c, "u")
    assert "nothing to undo" in c.message


# --- winning, hints and the solution ---------------------------------------------------------------
def test_a_win_without_help_is_perfect_and_saved(tmp_path: Path) -> None:
    progress = Saves(tmp_path / "progress.json")
    c, clock = make(saves=progress)
    clock.now += 5
    press(c, "B", "up", "A", "right", "right")
    clock.now += 7
    press(c, "right")
    assert c.mode is Mode.WON and c.game.history == (Move("B", -1), Move("A", 3))
    assert c.result is not None and c.result.perfect
    clock.now += 60  # the stopwatch stopped at the win
    assert c.elapsed() == 12
    text = "\n".join(c.win_text())
    assert "PERFECT" in text and "Time: 0:12." in text and "Progress saved." in text
    record = Saves.load(tmp_path / "progress.json").get(c.level.key, c.level.board)
    assert record is not None and record.perfect and (record.best, record.best_steps) == (2, 4)
    assert record.wins == 1
    press(c, "u", "r")  # the same win again by undo and redo: not a second win
    assert c.mode is Mode.WON and "Progress saved." in "\n".join(c.win_text())
    again = Saves.load(tmp_path / "progress.json").get(c.level.key, c.level.board)
    assert again is not None and again.wins == 1


def test_an_undo_on_the_win_screen_starts_the_stopwatch_again() -> None:
    c, clock = make()
    press(c, "B", "up", "A", "right", "right")
    clock.now += 4
    press(c, "right")
    assert c.mode is Mode.WON
    clock.now += 60  # the win screen: the stopwatch waits
    press(c, "u")
    assert c.mode is Mode.PLAY and c.result is None and c.elapsed() == 4
    clock.now += 3
    assert c.elapsed() == 7


def test_a_hint_highlights_plays_on_enter_and_takes_perfect_away(tmp_path: Path) -> None:
    progress = Saves(tmp_path / "progress.json")
    c, _ = make(saves=progress)
    press(c, "h")
    assert c.hint == Move("B", -1) and c.highlighted == "B"
    assert c.hint_cells() == {(0, 2), (1, 2)}
    assert "hint: B-1 (B up 1): Enter plays it" in c.message
    press(c, "enter")
    assert c.game.history == (Move("B", -1),) and c.hint is None
    press(c, "A", "right", "right", "right")
    assert c.mode is Mode.WON and c.result is not None
    assert c.result.length == 2 and not c.result.perfect
    assert "not PERFECT: help was used" in "\n".join(c.win_text())
    record = progress.get(c.level.key, c.level.board)
    assert record is not None and not record.perfect and record.hints == 1


# --- searches beside the game ----------------------------------------------------------------------
UNKNOWN = TINY.replace("# moves: 2\n", "")  # no header: the optimum is searched for


def slow_solver(board: Board) -> list[Move] | None:
    """The solver, after a pause long enough for the test to act while it runs."""
    time.sleep(0.6)
    return solver(board)


def give_up(board: Board) -> list[Move] | None:
    raise LimitReachedError("the search reached its time limit (1 s)")


def make_beside(
    text: str, search: Callable[[Board], list[Move] | None], saves: Saves | None = None
) -> Controller:
    return Controller(
        level_of(text),
        saves=saves or Saves.memory(),
        legal_moves=legal_moves,
        solver=search,
        now=time.monotonic,
        worker=ProcessWorker(search),
    )


def settle(c: Controller, seconds: float = 30.0) -> None:
    """Let the controller take the outcome of its search."""
    end = time.monotonic() + seconds
    while c.busy and time.monotonic() < end:
        search = c.worker.fileno()
        if search is not None:
            select.select([search], [], [], 0.1)
        c.tick()
    c.tick()


def test_the_keys_that_search_are_answered_while_the_search_runs() -> None:
    c = make_beside(TINY, slow_solver)
    press(c, "h")
    assert c.waiting == "hint" and c.busy and "finding a hint" in c.busy_text()
    press(c, "tab")  # keys still work meanwhile
    assert c.selected == "B" and c.waiting == "hint"
    settle(c)
    assert c.hint == Move("B", -1) and c.game.hints_used == 1 and not c.busy
    press(c, ":", "h")
    assert c.mode is Mode.NAME and not c.busy  # typed as part of a name: no search
    c.close()


def test_esc_cancels_a_hint_and_nothing_is_counted() -> None:
    c = make_beside(TINY, slow_solver)
    press(c, "h")
    assert c.busy
    press(c, "esc")
    assert not c.waiting and not c.busy and c.game.hints_used == 0 and c.hint is None
    press(c, "s", "B", "up")  # a move while waiting for the solution stops waiting for it
    assert not c.waiting and c.game.moves_played == 1 and c.mode is Mode.PLAY
    c.close()


@pytest.mark.parametrize("keys", [("u",), ("ctrl-z",), ("ctrl-r", "y")])
def test_taking_moves_back_stops_waiting_for_a_plan_of_the_position_left(keys: tuple[str, ...]) -> None:
    """The solution asked for after a move, then the move taken back: the search is for a position no
    longer shown.  It used to go on, and the optimum's search from the start then opened the playback
    by itself, counted as help (no PERFECT for a win without help)."""
    c = make_beside(UNKNOWN, slow_solver)
    press(c, "C", "left", "s")
    assert c.waiting == "solution"
    press(c, *keys)
    assert not c.waiting and c.game.moves_played == 0 and not c.busy_text()
    settle(c)
    settle(c)
    assert c.mode is Mode.PLAY and c.optimal_label == "optimal 2"
    assert not c.game.result().solution_shown and c.game.hints_used == 0
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON and c.result is not None and c.result.perfect
    c.close()


def test_an_unknown_optimum_is_searched_beside_the_game_and_filled_in() -> None:
    c = make_beside(UNKNOWN, slow_solver)
    assert c.optimal_label == "optimal ..." and c.busy  # playable at once
    press(c, "B", "up")
    assert c.game.moves_played == 1
    settle(c)
    assert c.optimal_label == "optimal 2" and not c.busy
    c.close()


def test_a_limit_leaves_the_optimum_unknown() -> None:
    c = make_beside(UNKNOWN, give_up)
    settle(c)
    assert c.optimal_label == "optimal ?" and not c.busy
    press(c, "h")
    settle(c)
    assert c.hint is None and "no hint: the search reached its time limit" in c.message
    c.close()


def test_a_win_waits_for_the_optimum_then_saves_it(tmp_path: Path) -> None:
    saves = Saves(tmp_path / "progress.json")
    c = make_beside(UNKNOWN, slow_solver, saves)
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON and c.settling
    assert "Finding the optimum" in "\n".join(c.win_text()) and saves.get(c.level.key, c.level.board) is None
    settle(c)
    assert not c.settling and c.result is not None and c.result.perfect
    record = saves.get(c.level.key, c.level.board)
    assert record is not None and record.perfect and record.optimal == 2
    c.close()


def test_esc_on_a_win_saves_it_without_the_optimum(tmp_path: Path) -> None:
    saves = Saves(tmp_path / "progress.json")
    c = make_beside(UNKNOWN, slow_solver, saves)
    press(c, "B", "up", "A", "right", "right", "right", "esc")
    assert not c.settling and not c.busy and c.optimal_label == "optimal ?"
    record = saves.get(c.level.key, c.level.board)
    assert record is not None and record.solved and record.optimal is None
    c.close()


def test_a_win_left_while_its_optimum_is_searched_for_is_saved_without_it(tmp_path: Path) -> None:
    """SIGTERM, SIGHUP or Ctrl-C while the game waited for the optimum to compare a win with: the
    game was left (its win already counted as saved) and the progress file never heard of it."""
    saves = Saves(tmp_path / "progress.json")
    c = make_beside(UNKNOWN, slow_solver, saves)
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON and c.settling and saves.get(c.level.key, c.level.board) is None
    c.quit()  # what a signal and Ctrl-C do
    record = Saves.load(tmp_path / "progress.json").get(c.level.key, c.level.board)  # on disk
    assert record is not None and record.solved and record.optimal is None and record.best_steps == 4
    assert not c.busy
    c.close()


def test_a_win_that_cannot_be_saved_says_it_was_not_saved(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the data folder goes\n")
    c, _ = make(level_of(UNKNOWN), saves=Saves(tmp_path / "data" / "progress.json"))
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON and c.save_note == (
        f"warning: the progress was not saved: cannot save the progress file {tmp_path / 'data' / 'progress.json'}: "
        f"{tmp_path / 'data'} is a file, not a folder"
    )


def test_solution_playback_steps_animates_and_returns() -> None:
    c, clock = make()
    press(c, "C", "left")
    press(c, "s")
    assert c.mode is Mode.PLAYBACK and c.board == c.game.position
    plan = [move for move, _ in c.playback]
    assert c.game.position.replay(plan).is_won()
    press(c, "right")
    assert c.board == c.game.position.apply(plan[0]) and "1. " in c.playback_text()
    press(c, " ", "left", "left")
    assert c.playback_index == 0
    press(c, "p")
    assert c.animating and not c.tick()
    for k in range(1, len(plan) + 1):
        clock.now += 1
        assert c.tick() and c.playback_index == k
    assert not c.animating and c.board.is_won()
    press(c, "esc")
    assert c.mode is Mode.PLAY and c.game.history == (Move("C", -1),)
    assert c.game.result().solution_shown


def test_the_keys_of_the_game_work_during_the_solution_playback() -> None:
    """? opens the help over the playback and goes back to it; a key of the game (undo, reset, a hint,
    a vehicle) leaves the playback for your own position and does what it does there.  They did
    nothing at all."""
    c, _ = make()
    press(c, "C", "left", "s", "right")
    shown = c.board
    press(c, "?")
    assert c.mode is Mode.HELP and c.board == shown
    press(c, "x")
    assert c.mode is Mode.PLAYBACK and c.playback_index == 1 and c.board == shown
    press(c, "u")
    assert c.mode is Mode.PLAY and c.game.moves_played == 0 and c.message == "undid C-1"
    press(c, "r", "s", "ctrl-r")
    assert c.mode is Mode.CONFIRM_RESET
    press(c, "y", "s", "B")
    assert c.mode is Mode.PLAY and c.selected == "B" and not c.playback
    press(c, "s", "h")
    assert c.mode is Mode.PLAY and c.hint == Move("B", -1)
    press(c, "s", "?", "q")
    assert c.mode is Mode.QUIT  # q in the help over the playback leaves, as q in the playback does


def test_the_help_opens_over_the_win_and_goes_back_to_it() -> None:
    c, _ = make()
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON
    press(c, "?")
    assert c.mode is Mode.HELP
    press(c, "down", "x")
    assert c.mode is Mode.WON and c.result is not None and c.result.perfect


def test_enter_without_a_hint_says_what_it_does() -> None:
    """Enter plays the hint shown; without one it said "enter is neither a key of the game nor a vehicle
    here", of a key the help lists."""
    c, _ = make()
    press(c, "enter")
    assert c.message == "Enter plays a hint: h asks for one" and c.game.moves_played == 0


def test_ctrl_r_on_the_win_plays_the_level_again_from_its_start() -> None:
    """The help lists Ctrl-R as "reset to the start"; on the win screen it did nothing."""
    c, _ = make()
    start = c.game.position
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON and c.result is not None
    press(c, "ctrl-r")
    assert c.mode is Mode.PLAY and c.result is None and c.game.position == start and not c.game.won
    assert c.message == "the level again from the start (your win is kept)"


def test_the_stopwatch_waits_while_help_or_the_menu_is_open() -> None:
    c, clock = make()
    clock.now += 3
    press(c, "?")
    assert c.mode is Mode.HELP
    clock.now += 100
    press(c, "x")  # any key closes the help
    assert c.mode is Mode.PLAY
    clock.now += 2
    press(c, "l")
    assert c.mode is Mode.MENU
    clock.now += 50
    press(c, "esc")
    clock.now += 1
    assert c.elapsed() == 6
    assert "time 0:06" in c.status_parts()
    assert clock_text(3725) == "1:02:05" and clock_text(59.9) == "0:59"


def test_the_timed_clock_adds_the_time_of_the_moves() -> None:
    c, _ = make(timed=TimeModel.one_hand(car_seconds="2", truck_seconds="5"))
    assert c.status_parts()[-1] == "clock 0 s"
    press(c, "C", "left", "left")
    assert c.status_parts()[-1].startswith("clock ") and c.status_parts()[-1] != "clock 0 s"
    assert c.status_parts()[-1] == "clock 4 s"  # two cells of a car at 2 s a cell


WIN = ("B", "up", "A", "right", "right", "right")  # B-1 then A+3


def test_a_timed_win_gives_the_clock_against_the_fastest_solution() -> None:
    c, _ = make(timed=TimeModel.one_hand(car_seconds="2", truck_seconds="5"))
    press(c, *WIN)
    assert c.mode is Mode.WON
    clock_line = next(line for line in c.win_text() if line.startswith("Clock: "))
    assert "the fastest possible!" in clock_line or "the fastest is" in clock_line
    slow, _ = make(timed=TimeModel.one_hand(car_seconds="2", truck_seconds="5"))
    press(slow, "C", "left", "B", "up", "C", "right", "A", "right", "right", "right")  # a detour of C
    assert any("the fastest is" in line for line in slow.win_text())


def test_a_search_that_gives_up_is_not_started_again_at_every_redraw() -> None:
    from rushhour.errors import RushHourError

    calls = []

    def gives_up(board: Board) -> list[Move] | None:
        calls.append(board)
        raise RushHourError("the search stopped at its limit")

    no_header = parse_text(".....\n..B..\nAAB..\n..CC.\n.....\n", source="test", fmt="grid")[0]
    c = Controller(
        Level(no_header),
        saves=Saves.memory(),
        legal_moves=legal_moves,
        solver=gives_up,
        now=FakeClock(),
    )
    for _ in range(5):
        assert "optimal ?" in c.status_parts()
    assert len(calls) == 1


# --- levels --------------------------------------------------------------------------------------
def test_next_level_and_the_level_menu() -> None:
    entries = parse_text(TINY + "\n" + SECOND, source="two", fmt="grid")
    first = Level(entries[0], None, 1, 2, tuple(entries))
    c, _ = make(first)
    press(c, "n")
    assert c.level.entry.meta["name"] == "second" and c.game.moves_played == 0
    press(c, "n")
    assert "last level here" in c.message
    press(c, "l")
    rows = c.menu_rows
    assert rows[0].level is None and rows[0].text.startswith("this file")
    assert rows[c.menu_index].level is not None and rows[c.menu_index].level.key == c.level.key
    built_in = [r.level.key for r in rows if r.level is not None and r.level.pack is not None]
    assert built_in == [f"{p.name}:{k}" for p in packs() for k in range(1, len(p.levels) + 1)]
    press(c, "up", "enter")
    assert c.mode is Mode.PLAY and c.level.entry.meta["name"] == "tiny"
    press(c, "l", "end", "enter")
    last = packs()[-1]
    assert c.level.key == f"{last.name}:{len(last.levels)}"
    assert next_level(c.level) is None


def offering(shelf: Shelf) -> Controller:
    """A game whose level menu offers ``shelf``."""
    return Controller(
        level_of(), saves=Saves.memory(), legal_moves=legal_moves, solver=solver, now=FakeClock(),
        menu_shelf=lambda: shelf,
    )


def test_the_menu_names_the_pack_files_left_out() -> None:
    why = "/data/packs/mine.txt, line 3: board height 1 is out of range"
    c = offering(Shelf(packs(), (LeftOut("mine", Path("/data/packs/mine.txt"), why),)))
    press(c, "l")
    heading, last = c.menu_rows[-2:]
    assert heading.level is None and heading.text == "left out of your packs (/data/packs):"
    assert last.level is None and last.text == "  mine.txt, line 3: board height 1 is out of range"
    press(c, "end")
    assert c.menu_rows[c.menu_index].level is not None  # a note is read, never chosen


def test_a_board_played_on_its_own_has_no_menu_to_open() -> None:
    """The editor's p plays the board alone (no packs offered): l says so rather than opening an empty
    menu."""
    c = offering(Shelf(()))
    press(c, "l")
    assert c.mode is Mode.PLAY and c.message == "no other levels here: this board is played on its own"


def test_the_menu_shows_progress(tmp_path: Path) -> None:
    progress = Saves(tmp_path / "progress.json")
    p = packs()[0]
    one = p.levels[0]
    progress.record_win(f"{p.name}:1", one.board, moves=40, steps=50, optimal=None)
    c, _ = make(saves=progress)
    press(c, "l")
    row = next(r for r in c.menu_rows if r.level is not None and r.level.key == f"{p.name}:1")
    assert row.solved and row.best == 40 and "solved in 40" in row.text


# --- the mouse ------------------------------------------------------------------------------------
def test_click_selects_and_click_on_the_lane_slides() -> None:
    c, _ = make()
    c.press((3, 3))
    c.release()
    assert c.selected == "C"
    c.press((3, 0))  # C's lane, two cells to the left: one move of two steps
    assert c.game.history == (Move("C", -2),)
    c.press((0, 0))
    assert "is not in C's lane" in c.message
    c.press((2, 0))
    c.release()
    c.press((2, 4))  # A's lane, but B stands in the way
    assert c.message == "A cannot slide right 3: B is in the way"
    assert c.game.moves_played == 1


def test_a_click_on_a_wall_says_so() -> None:
    walled = parse_text(".....\n.x...\nAA...\n.....\n.....\n", source="walled", fmt="grid")[0]
    c, _ = make(Level(walled))
    c.press((1, 1))
    assert c.message == "cell (1,1) is a wall" and c.selected == "A"


def test_drag_follows_the_pointer_as_far_as_the_lane_is_free() -> None:
    c, _ = make()
    c.press((3, 2))  # grab C by its left cell
    c.drag((3, 1))
    c.drag((3, 0))
    c.drag((3, -1))
    c.release()
    assert c.game.history == (Move("C", -2),)
    c.press((3, 1))  # now C's right cell
    c.drag((3, 4))  # three cells right: as far as the edge allows
    c.release()
    assert c.game.position.cells_of("C") == [(3, 3), (3, 4)] and c.game.history == (Move("C", 1),)


# --- never a crash ----------------------------------------------------------------------------------
KEYS = sorted(COMMAND_CHARS - {"q"}) + [
    "A",
    "B",
    "C",
    "a",
    "z",
    "p",
    "y",
    "up",
    "down",
    "left",
    "right",
    "tab",
    "shift-tab",
    "enter",
    "esc",
    "backspace",
    "home",
    "end",
    "pgup",
    "pgdn",
    "ctrl-r",
    "ctrl-y",
    "ctrl-z",
    " ",
    "\x00",
]
EVENTS = st.one_of(
    st.sampled_from(KEYS).map(lambda k: ("key", k)),
    st.tuples(st.sampled_from(["press", "drag"]), st.tuples(st.integers(-1, 5), st.integers(-1, 5))),
    st.just(("release", None)),
)


WRAP = "# wrap: yes\n# target: 0,4 east\nA...A\n.BB..\n..C..\n..C.."
WALLS = "# name: walled\n..x...\n.BBB.x\nAA..C.\n..D.C.\n..D...\nx.EE..\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([TINY, WRAP, WALLS]), st.lists(EVENTS, max_size=40))
def test_no_key_or_click_sequence_breaks_the_game(text: str, events: list[tuple[str, object]]) -> None:
    c, clock = make(level_of(text))
    for kind, value in events:
        clock.now += 0.7
        if kind == "key":
            c.key(str(value))
        elif kind == "press":
            c.press(value)  # type: ignore[arg-type]
        elif kind == "drag":
            c.drag(value)  # type: ignore[arg-type]
        else:
            c.release()
        c.tick()
        game = c.game
        assert game.start.replay(game.history) == game.position
        assert all(a.vehicle != b.vehicle for a, b in zip(game.history, game.history[1:], strict=False))
        assert game.steps_played == sum(m.steps for m in game.history)
        assert c.mode is not Mode.QUIT
        assert c.board is not None and c.status_parts()


@pytest.mark.parametrize("key", ["q", "ctrl-c", "ctrl-d"])
def test_every_way_out_quits(key: str) -> None:
    c, _ = make()
    press(c, "?", key)
    assert c.mode is Mode.QUIT
    c, _ = make()
    press(c, key)
    assert c.mode is Mode.QUIT


# --- help in a level left unsolved --------------------------------------------------------------------
@pytest.mark.parametrize("way", ["q", "ctrl-c", "ctrl-d", "quit()", "n"])
def test_a_level_left_unsolved_after_help_is_remembered_and_the_next_win_is_not_perfect(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "progress.json"
    level = level_of(TINY + "\n" + SECOND)
    c, _ = make(level, saves=Saves(path))
    press(c, "s")  # the solution is seen, then the level left unsolved
    assert c.mode is Mode.PLAYBACK
    press(c, "esc", "h")
    if way == "quit()":  # how SIGTERM, SIGHUP and the end of input leave
        c.quit()
    else:
        press(c, way)
    assert (c.mode is Mode.QUIT) is (way != "n")
    c.quit()  # leaving twice saves that help once
    record = Saves.load(path).get(level.key, level.board)
    assert record is not None and not record.solved
    assert (record.hints_since_win, record.solution_seen_since_win) == (1, True)
    # played again and won in the optimum without help: not PERFECT, the earlier help is said and saved
    again, _ = make(level, saves=Saves.load(path))
    press(again, "B", "up", "A", "right", "right", "right")
    assert again.mode is Mode.WON and again.result is not None and again.result.length == 2
    assert not again.result.perfect
    text = "\n".join(again.win_text())
    assert "not PERFECT: help was used" in text and "Help in earlier games of this level: 1 hint, the solution." in text
    record = Saves.load(path).get(level.key, level.board)
    assert record is not None and record.solved and not record.perfect
    assert (record.hints, record.solution_seen, record.hints_since_win) == (1, True, 0)


def test_a_level_left_is_continued_with_its_moves_and_time(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    c, clock = make(saves=Saves(path))
    press(c, "B", "up")
    clock.now += 42
    press(c, "q", "enter")
    again, clock = make(saves=Saves.load(path))
    assert again.game.history == (Move("B", -1),) and int(again.elapsed()) == 42
    assert "continued where you left it (1 move)" in again.message
    clock.now += 3
    press(again, "A", "right", "right", "right")
    assert again.mode is Mode.WON and again.result is not None and again.result.length == 2
    assert "Time: 0:45." in again.win_text()
    record = Saves.load(path).get(again.level.key, again.level.board)
    assert record is not None and record.solved and not record.left and record.best_seconds == 45.0
    fresh, clock = make(saves=Saves.load(path))  # won: nothing to continue, a fresh start
    assert fresh.game.moves_played == 0 and "continued" not in fresh.message
    clock.now += 30
    press(fresh, "B", "up", "A", "right", "right", "right")
    assert "Time: 0:30, your best yet (it was 0:45)." in fresh.win_text()
    assert Saves.load(path).get(fresh.level.key, fresh.level.board).best_seconds == 30.0  # type: ignore[union-attr]


def test_the_position_is_saved_a_moment_after_it_changes_so_a_killed_game_loses_nothing(tmp_path: Path) -> None:
    """kill -9 (or a crash, a power cut) lost the whole game: the position was saved on leaving only."""
    path = tmp_path / "progress.json"
    c, clock = make(saves=Saves(path))

    def on_disk() -> list[str] | None:
        record = Saves.load(path).get(c.level.key, c.level.board) if path.exists() else None
        return None if record is None else record.left_moves

    c.tick()
    clock.now += 5
    c.tick()
    assert on_disk() is None  # nothing played: nothing written
    press(c, "B", "up")
    c.tick()
    clock.now += 0.5
    c.tick()
    assert on_disk() is None  # between the keys of a burst of moves, nothing is written
    clock.now += 0.6
    c.tick()
    assert on_disk() == ["B-1"]
    press(c, "u")
    c.tick()
    clock.now += 1.1
    c.tick()
    assert on_disk() in (None, [])  # back at the start: nothing to continue
    press(c, "B", "up")
    c.tick()
    clock.now += 1.1
    c.tick()
    again, _ = make(saves=Saves.load(path))  # the process killed here, started again
    assert again.game.history == (Move("B", -1),) and "continued where you left it (1 move)" in again.message
    press(c, "A", "right", "right", "right")
    c.tick()
    clock.now += 1.1
    c.tick()
    record = Saves.load(path).get(c.level.key, c.level.board)
    assert record is not None and record.solved and not record.left  # won: nothing to continue


def test_the_help_is_saved_a_moment_after_it_is_had_so_a_killed_game_keeps_it(tmp_path: Path) -> None:
    """The solution seen, then kill -9: the position came back but the help did not (it was saved on
    leaving only), and the win that followed was PERFECT.  The help is now saved as the position is,
    and counted once by a win in the same game."""
    path = tmp_path / "progress.json"
    c, clock = make(saves=Saves(path))
    press(c, "s", "esc", "B", "up")
    c.tick()
    clock.now += 1.1
    c.tick()
    again, _ = make(saves=Saves.load(path))  # the process killed here, started again
    assert again.game.history == (Move("B", -1),)
    press(again, "A", "right", "right", "right")
    assert again.mode is Mode.WON and again.result is not None and not again.result.perfect
    record = Saves.load(path).get(again.level.key, again.level.board)
    assert record is not None and record.solution_seen and not record.perfect
    # hints saved while playing, then a win in the same game: each hint counted once
    path = tmp_path / "other.json"
    c, clock = make(saves=Saves(path))
    press(c, "h", "enter")
    c.tick()
    clock.now += 1.1
    c.tick()
    assert Saves.load(path).get(c.level.key, c.level.board).hints_since_win == 1  # type: ignore[union-attr]
    press(c, "h", "enter")
    assert c.mode is Mode.WON and c.result is not None and c.result.hints == 2
    record = Saves.load(path).get(c.level.key, c.level.board)
    assert record is not None and (record.hints, record.hints_since_win, record.wins) == (2, 0, 1)


def test_a_win_says_the_help_of_a_game_of_the_level_left_in_another_terminal_as_the_file_does(
    tmp_path: Path,
) -> None:
    """Two terminals on one level: the solution seen in the first, which is left; the second then wins
    in the optimum.  The file counted that help with the win (not perfect) while the win box said
    PERFECT.  A second win of the same game still counts it."""
    path = tmp_path / "progress.json"
    first, _ = make(saves=Saves.load(path))
    second, _ = make(saves=Saves.load(path))
    press(first, "s", "esc", "q")
    press(second, "B", "up", "A", "right", "right", "right")
    assert second.mode is Mode.WON and second.result is not None
    record = Saves.load(path).get(second.level.key, second.level.board)
    assert record is not None and record.solution_seen and not record.perfect
    assert not second.result.perfect and second.result.earlier_solution
    assert any("earlier games" in line and "the solution" in line for line in second.win_text())
    press(second, "u", "u", "C", "right", "B", "up", "A", "right", "right", "right")  # another win
    assert second.game.moves_played == 3 and Saves.load(path).levels[second.level.key].wins == 2
    assert second.mode is Mode.WON and second.result is not None and not second.result.perfect
    assert not Saves.load(path).get(second.level.key, second.level.board).perfect  # type: ignore[union-attr]


def test_a_level_won_at_the_start_is_left_without_a_win_recorded(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    c, clock = make(level_of("......\n....AA\n..B...\n..B...\n......\n......\n"), saves=Saves(path))
    assert c.game.won and "already stands at the exit" in c.message
    clock.now += 5
    c.tick()
    press(c, "q")
    assert not path.exists() or Saves.load(path).get(c.level.key, c.level.board) is None


def test_a_win_undone_and_played_again_forgets_the_position_kept_meanwhile(tmp_path: Path) -> None:
    """The position undone after a win was saved a second later; the same win played again was found
    saved already, and the solved level kept a game to continue, one move short."""
    path = tmp_path / "progress.json"
    c, clock = make(saves=Saves(path))
    press(c, "B", "up", "A", "right", "right", "right")
    assert c.mode is Mode.WON
    press(c, "u")
    c.tick()
    clock.now += 2
    c.tick()
    assert Saves.load(path).get(c.level.key, c.level.board).left_moves  # type: ignore[union-attr]
    press(c, "r")
    assert c.mode is Mode.WON
    press(c, "q")
    record = Saves.load(path).get(c.level.key, c.level.board)
    assert record is not None and record.solved and not record.left_moves
    again, _ = make(saves=Saves.load(path))
    assert again.game.moves_played == 0 and "continued" not in again.message


def test_leaving_without_help_or_after_a_win_saves_no_attempt(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    c, _ = make(saves=Saves(path))
    press(c, "B", "up", "q", "q")
    left = Saves.load(path).get(c.level.key, c.level.board)
    assert left is not None and left.hints_since_win == 0 and not left.solution_seen_since_win  # no help
    assert left.left_moves == ["B-1"] and not left.solved  # the position is kept, not a win
    c, _ = make(saves=Saves(path))
    press(c, "h", "enter", "A", "right", "right", "right")
    assert c.mode is Mode.WON
    press(c, "q")
    record = Saves.load(path).get(c.level.key, c.level.board)
    assert record is not None and record.hints == 1 and record.hints_since_win == 0  # the win holds the hint
    c, _ = make(saves=Saves.memory())
    press(c, "s", "esc", "q")
    assert c.saves.levels == {}  # --no-save keeps nothing, as for wins


def test_the_win_lines_count_one_move_in_the_singular() -> None:
    text = "\n".join(win_lines(Result(1, 1, 1, 0, False)))
    assert "Solved in 1 move (1 step)." in text and "PERFECT: 1 move, the optimum!" in text
    assert "1 moves" not in text


def test_the_level_menus_columns_line_up_when_one_record_is_long() -> None:
    """Each line chose its own columns: the one with a long record dropped its name column alone, and
    the columns of the menu no longer lined up."""
    from rushhour.play.controller import MenuRow, menu_layout

    short = MenuRow("", columns=("classic:2", "classic-02", "6x6", "8 moves", ""))
    long = MenuRow("", columns=("classic:1", "classic-01", "6x6", "4 moves", "solved in 4, perfect, best 0:02"))
    layout = menu_layout([short, long], 76)
    lines = [row.fitted(76, layout) for row in (short, long)]
    assert all(len(line) <= 76 for line in lines)
    assert lines[0].index("8 moves") == lines[1].index("4 moves")  # one column for the optimum
    assert "classic-01" not in lines[1] and "classic-02" not in lines[0]  # the name left out of both
    assert short.fitted(76) != lines[0]  # alone, the short line would have kept its name
