"""The generator: determinism, verified optimal lengths, distinct clusters, every vehicle matters, ranges,
formats and the command line."""

from __future__ import annotations

import json
import multiprocessing
import random
import shlex
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from rushhour import generator, levels
from rushhour.board import Board
from rushhour.cli import build_parser, main
from rushhour.errors import LimitReachedError, RushHourError, SolverError
from rushhour.formats import fogleman, grid, parse_text, read_file
from rushhour.generator import (
    OUT_OF_TIME,
    Generator,
    Puzzle,
    Settings,
    Sketch,
    TryResult,
    attempt,
    generate,
    packed_bag,
    random_bag,
    reading_order,
    shorter_exists,
    solve_known,
)
from rushhour.search import Analysis, Solution, analysis, analyze, solve, verify
from rushhour.search.analysis import analyze_python
from tests.cli import run
from tests.native import needs_native

DATA = Path(__file__).parent / "data" / "fogleman_slice_generate.txt"
SMALL = Settings(min_moves=5, max_moves=9, seed=11)


@cache
def small_run(jobs: int) -> tuple[Puzzle, ...]:
    return tuple(Generator(SMALL).run(5, jobs=jobs))


def without_each(board: Board) -> Iterator[tuple[str, Board]]:
    """Each vehicle of ``board`` other than the goal car, and ``board`` without it (the same walls,
    goal and exit): a puzzle's vehicle matters when the board without it is solved in fewer moves."""
    for v in board.vehicles:
        if v.name != board.goal:
            rest = [u for u in board.vehicles if u.name != v.name]
            yield v.name, Board(board.width, board.height, rest, walls=board.walls, goal=board.goal, exit=board.exit)


def fingerprint(puzzles: tuple[Puzzle, ...]) -> list[tuple[str, dict[str, str]]]:
    return [(" ".join(p.board.rows()), p.meta()) for p in puzzles]


def cluster_id(board: Board) -> tuple[object, ...]:
    """Names do not survive the generator's renaming, so compare clusters in a name-free way: the
    smallest row picture of the reachable set (vehicles drawn by kind)."""
    seen = {board}
    todo = [board]
    while todo:
        for _, nxt in todo.pop().successors():
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)

    def picture(b: Board) -> str:
        occ = b.occupancy()
        kind = {
            i: f"{o}{n}" for i, (o, n) in enumerate(zip(b.layout.orientations, b.layout.lengths, strict=True))
        }
        return "".join(
            "." if v == -1 else "x" if v == -2 else ("A" if v == b.layout.goal else kind[v]) for v in occ
        )

    return (board.width, board.height, min(picture(b) for b in seen))


# --- determinism -----------------------------------------------------------------------------------


def test_same_seed_same_puzzles_with_one_or_two_jobs() -> None:
    one, two = small_run(1), small_run(2)
    assert len(one) == 5
    assert fingerprint(one) == fingerprint(two)
    again = tuple(Generator(SMALL).run(5))
    assert fingerprint(again) == fingerprint(one)


def _first_try_held_to_the_deadline(s: Settings, number: int, deadline: float | None = None) -> TryResult:
    """A run's try, but try 0 runs until the deadline: a long try, as a 12x12 climb's can be."""
    if number == 0 and deadline is not None:
        while time.time() < deadline:
            time.sleep(0.01)
        return TryResult(0, None, OUT_OF_TIME, 0)
    return attempt(s, number, deadline)


@pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork", reason="the workers inherit the patched try by forking"
)
def test_a_long_try_neither_idles_the_other_job_nor_drops_the_puzzles_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Results are taken in the order of the tries: while try 0 runs, the other job goes on with the
    tries after it, and when the deadline cuts try 0 short their puzzles are still the run's."""
    monkeypatch.setattr(generator, "attempt", _first_try_held_to_the_deadline)
    g = Generator(SMALL)
    made = list(g.run(1_000, jobs=2, time_limit=4.0))
    assert g.stats.stopped == "reached the time limit of 4 s"
    # about 0.1 s a try on one job for 4 s; the pool's window used to stop the other job at 7 tries
    assert g.stats.tries >= 12 and len(made) >= 5
    s = SMALL.checked()
    alone: dict[object, Puzzle] = {}  # the puzzles of those tries made one by one, each cluster once
    for n in range(1, g.stats.tries + 1):
        if (puzzle := attempt(s, n).puzzle) is not None:
            alone.setdefault(puzzle.key, puzzle)
    assert fingerprint(tuple(made)) == fingerprint(tuple(alone.values()))


def test_another_seed_other_puzzles() -> None:
    other = tuple(Generator(Settings(min_moves=5, max_moves=9, seed=12)).run(5))
    assert fingerprint(other) != fingerprint(small_run(1))


def test_a_length_the_solver_disputes_is_reported_with_a_readable_board() -> None:
    """The generator's own vehicle names (V00, V01...) would all print as V: the board in the error
    is the one a user can paste back, its vehicles in reading order."""
    board = Sketch.of(levels.level("classic", 1).board).board()
    assert {v.name[0] for v in board.vehicles} == {"A", "V"}
    d = solve(board).length
    with pytest.raises(SolverError) as err:
        generator._Try(Settings().checked(), 0).solved_again(board, d + 1, "on purpose")
    shown = str(err.value).rsplit(": ", 1)[1]
    (entry,) = parse_text("\n".join(shown.split()))
    assert entry.board.rows() == reading_order(board)[0].rows() and solve(entry.board).length == d


def test_a_try_is_a_pure_function_of_seed_and_number() -> None:
    s = SMALL.checked()
    for number in (0, 3, 17):
        a, b = attempt(s, number), attempt(s, number)
        assert a.reason == b.reason and a.analyses == b.analyses
        assert (a.puzzle is None) == (b.puzzle is None)
        if a.puzzle is not None and b.puzzle is not None:
            assert a.puzzle.board == b.puzzle.board and a.puzzle.solution == b.puzzle.solution
    made = small_run(1)[0]
    again = attempt(s, made.attempt).puzzle
    assert again is not None and again.board == made.board


def test_a_try_makes_what_it_made_searching_every_position_it_asks_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A try asks about the same positions again and again; the answers it keeps (KnownClusters) are
    those of a search, so its puzzles and reasons stay the same as when it keeps none, with fewer
    searches."""
    tries = [(SMALL.checked(), n) for n in range(6)]
    tries += [(Settings(width=9, height=9, min_moves=15, walls=(4, 4), seed=1).checked(), 0)]
    kept = [attempt(s, n) for s, n in tries]

    monkeypatch.setattr(analysis, "KNOWN_CLUSTERS", 0)  # nothing kept: every question a search
    every = [attempt(s, n) for s, n in tries]
    for a, b in zip(kept, every, strict=True):
        assert a.reason == b.reason and (a.puzzle is None) == (b.puzzle is None)
        if a.puzzle is not None and b.puzzle is not None:
            assert a.puzzle.to_dict() == b.puzzle.to_dict()
    assert sum(a.puzzle is not None for a in kept) >= 4
    assert kept[-1].analyses < 0.9 * every[-1].analyses, (kept[-1].analyses, every[-1].analyses)


# --- what every puzzle must be ---------------------------------------------------------------------


def test_every_puzzle_is_verified_optimal_and_the_hardest_of_its_cluster() -> None:
    for p in small_run(1):
        assert p.board.goal == "A" and not p.board.is_won()
        assert verify(p.board, p.solution).is_won()
        again = solve(p.board)
        assert again.optimal and again.length == p.length
        a = analyze(p.board)
        assert a.start_distance == a.hardest_distance == p.length
        assert a.cluster_size == p.cluster
        assert p.steps == sum(abs(m.distance) for m in p.solution)


def test_lengths_stay_in_range() -> None:
    assert all(5 <= p.length <= 9 for p in small_run(1))
    exact = tuple(Generator(Settings(min_moves=7, max_moves=7, seed=4)).run(3))
    assert [p.length for p in exact] == [7, 7, 7]
    at_least = tuple(Generator(Settings(min_moves=12, seed=4)).run(2))
    assert all(p.length >= 12 for p in at_least)


def test_no_two_puzzles_share_a_cluster() -> None:
    puzzles = small_run(1) + tuple(Generator(Settings(min_moves=2, max_moves=3, seed=1)).run(8))
    ids = [cluster_id(p.board) for p in puzzles]
    assert len(set(ids)) == len(ids)


def test_an_annealing_try_gives_up_at_its_second_overrun_and_rewinds_changes_within_the_growth_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the README example's settings a try stops finishing clusters after the second one whose checks
    ran into their limits (a fresh try makes more puzzles a minute), and a change of a crowded board is
    rewound no further than ANNEAL_GROWTH times the cluster it changes; the puzzles still replay."""
    finishes: list[str] = []
    grown: list[tuple[int, int]] = []
    finish, growth_limit = generator._Try.finish, generator._Try.growth_limit
    depth = [0]

    def finish_spy(self: generator._Try, a: Analysis, *, hardest: bool) -> generator.TryResult:
        depth[0] += 1
        try:
            done = finish(self, a, hardest=hardest)
        finally:
            depth[0] -= 1
        if depth[0] == 0:  # the annealing's own finishes, not the rescue's
            finishes.append(done.reason)
        return done

    def growth_spy(self: generator._Try, a: Analysis) -> int:
        limit = growth_limit(self, a)
        grown.append((limit, a.cluster_size))
        return limit

    monkeypatch.setattr(generator._Try, "finish", finish_spy)
    monkeypatch.setattr(generator._Try, "growth_limit", growth_spy)
    overran = (generator.TOO_LOOSE, generator.CHECK_TOO_LARGE)
    made, counts = 0, []
    for seed, number in ((1, 0), (3, 0), (3, 1), (3, 2)):
        s = Settings(width=9, height=9, min_moves=15, walls=(4, 4), seed=seed).checked()
        finishes.clear()
        outcome = attempt(s, number)
        counts.append(sum(reason in overran for reason in finishes))
        if outcome.puzzle is not None:
            made += 1
            assert verify(outcome.puzzle.board, outcome.puzzle.moves).is_won()
            assert solve(outcome.puzzle.board).length == outcome.puzzle.length >= 15
    assert made >= 1
    assert max(counts) == generator.ANNEAL_FINISHES  # a try ended there, and none went past it
    assert grown and all(limit <= generator.ANNEAL_GROWTH * size + 1000 for limit, size in grown)
    assert any(limit < generator.anneal_cluster_limit(9, 9) for limit, _ in grown)  # the limit bites


def test_a_try_that_reached_the_length_is_not_dropped_as_out_of_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The run's summary tells a user what to change: "length out of range" only for tries whose clusters
    never reached the length asked for; a try whose annealing reached it and whose puzzles then failed
    "every vehicle matters" names that check (widening --min-moves would not help it)."""
    reached: list[int] = []
    rewind = generator._Try.rewind

    def spy(self: generator._Try, sketch: Sketch, limit: int | None = None) -> object:
        a = rewind(self, sketch, limit)
        if a is not None and (limit is None or limit <= self.limit):  # the annealing's, not the checks'
            reached.append(a.hardest_distance)
        return a

    monkeypatch.setattr(generator._Try, "rewind", spy)
    s = Settings(width=9, height=9, min_moves=30, seed=2).checked()
    reasons = set()
    for number in (13, 7):  # try 13 reaches the length and fails its checks; try 7 stops short
        reached.clear()
        outcome = attempt(s, number)
        assert outcome.puzzle is None
        reasons.add(outcome.reason)
        if max(reached) >= s.min_moves:
            assert outcome.reason in (
                generator.TOO_LOOSE,
                generator.OUT_OF_RANGE_WITHOUT,
                generator.CHECK_TOO_LARGE,
            )
        else:
            assert outcome.reason == generator.OUT_OF_RANGE
    assert len(reasons) == 2


def test_duplicates_are_dropped() -> None:
    # tiny boards with two vehicles have few clusters: many tries land on one seen before
    g = Generator(Settings(width=5, height=5, min_moves=1, max_moves=3, vehicles=(2, 3), seed=2))
    puzzles = list(g.run(6, max_tries=400))
    assert g.stats.reasons["same cluster as an earlier puzzle"] > 0
    ids = [cluster_id(p.board) for p in puzzles]
    assert len(set(ids)) == len(ids)


def test_the_summary_counts_every_try_and_every_search() -> None:
    # the searches of a try are its rewinds, the solver climb's optima and the vehicle checks
    settings = Settings(min_moves=3, max_moves=4, walls=(1, 2), seed=3)
    g = Generator(settings)
    puzzles = list(g.run(3))
    outcomes = [generator.attempt(settings.checked(), n) for n in range(g.stats.tries)]
    searches = sum(o.analyses for o in outcomes)
    assert searches >= g.stats.tries and sum(o.puzzle is not None for o in outcomes) >= len(puzzles)
    first = g.stats.summary().splitlines()[0]
    assert first.startswith(f"made 3 puzzles in {g.stats.tries} ")
    assert first.endswith(f"a minute, {searches:,} searches)")


def test_every_vehicle_matters() -> None:
    for p in small_run(1) + tuple(Generator(Settings(min_moves=3, max_moves=4, walls=(1, 2), seed=3)).run(3)):
        for name, smaller in without_each(p.board):
            shorter = solve(smaller)
            assert shorter.length < p.length, f"{name} does not matter in {p.board!r}"


# a 9x9 try's check (seed 1 of 30+ moves): a puzzle of 31 moves less a vehicle that never moved in it
FREED = "BCDEEFFGG BCD.HIIIJ KCD.H..LJ KMMN..OLP KQRNAAOLP SQRTTUVVV SQR..UW.X S..YYZW.X aabb.ZWcc"


@needs_native  # the passes of small bounds are the compiled frontier search's
def test_a_shorter_solution_is_found_by_small_bounds_where_the_last_pass_alone_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Taking a jammed vehicle away can free a shortcut: this board needs 17 moves where its puzzle
    needed 31.  The pass bounded to 30 moves alone stores 1,202,580 positions before it finds one; the
    passes of small bounds find it within the share of a 100,000-position limit."""
    (entry,) = parse_text("\n".join(FREED.split()))
    board = entry.board
    assert solve(board, engine="bfs").length == 17
    assert shorter_exists(board, 31, max_states=100_000) is True
    monkeypatch.setattr(generator, "SHORTER_SHARE", 0.0)
    assert shorter_exists(board, 31, max_states=100_000) is None


def test_shorter_exists_answers_as_the_reference_search_or_not_at_all() -> None:
    """Within any position limit, "is there a solution of fewer than L moves" is answered as the
    reference search's optimum says, or left open (None); with room enough it is answered, on boards
    the compiled passes serve (open, walled) and on those they do not (wrap-around)."""
    rng = random.Random(27)
    kinds = [
        Settings(seed=1),
        Settings(walls=(1, 3), seed=2),
        Settings(width=7, height=7, seed=3),
        Settings(wrap=True, seed=4),
    ]
    checked = 0
    for s in kinds:
        for board in won_bags(random_bag, s.checked(), 6):
            for _ in range(rng.randint(20, 60)):
                board = rng.choice([there for _, there in board.successors("moves")])
            optimum = solve(board, engine="bfs").length
            for length in {1, optimum - 1, optimum, optimum + 1, optimum + 2, optimum + 9} - {0, -1}:
                for limit in (1, 40, 1_000, 1_000_000):
                    found = shorter_exists(board, length, max_states=limit)
                    assert found is None or found == (optimum < length), (board, length, limit)
                    if limit == 1_000_000:
                        assert found == (optimum < length)
                    checked += 1
    assert checked > 300


def test_vehicles_trucks_and_walls_are_as_asked() -> None:
    s = Settings(min_moves=4, max_moves=8, vehicles=(7, 9), trucks=(2, 3), walls=(1, 2), seed=8)
    for p in Generator(s).run(3):
        trucks = sum(1 for v in p.board.vehicles if v.length == 3)
        assert 7 <= len(p.board.names) <= 9
        assert 2 <= trucks <= 3
        assert 1 <= len(p.board.walls) <= 2


def test_larger_boards() -> None:
    s = Settings(width=7, height=6, min_moves=4, max_moves=8, vehicles=(8, 16), seed=5)
    for p in Generator(s).run(1):
        assert (p.board.width, p.board.height) == (7, 6)
        assert p.board.layout.exit is not None and p.board.layout.exit.index == 2
        assert 4 <= p.length <= 8
        assert solve(p.board).length == p.length


def test_walk_method_uses_the_walked_position() -> None:
    s = Settings(min_moves=3, max_moves=6, method="walk", seed=6)
    for p in Generator(s).run(2, max_tries=2000):
        assert p.method == "walk" and 3 <= p.length <= 6
        assert solve(p.board).length == p.length
        assert analyze(p.board).cluster_size == p.cluster


OPEN12 = Settings(width=12, height=12, min_moves=10, seed=1)


@cache
def open12_puzzle() -> Puzzle:
    """The first puzzle of an open 12x12 run of 10+ moves: a solver climb's (see SOLVER_FROM)."""
    s = OPEN12.checked()
    return next(p for p in (attempt(s, k).puzzle for k in range(30)) if p is not None)


@needs_native  # the solver climb needs the compiled frontier search (docs/generator.md)
def test_open_12x12_short_targets_climb_by_the_solver() -> None:
    """On an open 12x12 board a packed bag is too loose to explore: the solver climbs instead, and its
    puzzle is checked by other means than the ones that made it."""
    p = open12_puzzle()
    board = p.board
    assert board.width == 12 and not board.walls and p.length >= 10
    assert p.cluster is None and p.difficulty[1] > 10**12  # too large to explore: after any explored one
    with pytest.raises(LimitReachedError):
        analyze(board, max_states=generator.anneal_cluster_limit(12, 12))
    # the optimum by SAT planning (no plan of length - 1 moves), the solution replayed by the rules
    planned = solve(board, engine="sat")
    assert planned.optimal and planned.length == p.length
    assert verify(board, list(p.moves)).is_won() and len(p.moves) == p.length
    # every vehicle matters: the board without it is solved shorter by the frontier passes
    for name, smaller in without_each(board):
        assert solve(smaller, engine="bfs").length < p.length, name
    # the file header leaves the unknown size out; JSON says null
    assert "cluster" not in p.meta("x") and p.to_dict()["cluster"] is None
    # the same seed and try, the same puzzle
    assert attempt(OPEN12.checked(), p.attempt).puzzle == p


@needs_native  # the solver climb needs the compiled frontier search (docs/generator.md)
def test_open_10x10_short_targets_climb_by_the_solver() -> None:
    """An open 10x10 board (more than 81 cells) at a short target climbs by the solver too: its first
    puzzles are proven optimal by another search, replayed, and every vehicle matters; the same seed
    and try make the same puzzle."""
    s = Settings(width=10, height=10, min_moves=8, max_moves=12, seed=3).checked()
    results = [attempt(s, k) for k in range(4)]
    puzzles = [r.puzzle for r in results if r.puzzle is not None]
    assert len(puzzles) >= 2, [r.reason for r in results]
    for p in puzzles[:2]:
        board = p.board
        assert board.width == 10 and not board.walls and 8 <= p.length <= 12
        assert solve(board, engine="bfs").length == p.length
        assert verify(board, list(p.moves)).is_won()
        for name, smaller in without_each(board):
            assert solve(smaller, engine="bfs").length < p.length, name
        assert attempt(s, p.attempt).puzzle == p


def test_the_solver_climbs_only_where_rewinding_cannot() -> None:
    """Open boards of more than 81 cells (larger than 9x9), method anneal, targets under 20 moves; the
    packs' commands (walls, wrap-around, 9x9, method rewind) make the same files as before."""

    def climbs(target: int = 10, **changes: object) -> bool:
        s = replace(OPEN12, **changes).checked()  # type: ignore[arg-type]
        return generator._Try(s, 0).solver_climbs(target)

    assert climbs() and climbs(width=11, height=11) and climbs(19)
    assert not climbs(20) and not climbs(walls=(1, 1)) and not climbs(wrap=True)
    assert climbs(width=10, height=10) and climbs(width=9, height=10) and climbs(width=12, height=7)
    assert not climbs(width=9, height=9) and not climbs(width=10, height=8) and not climbs(method="rewind")


# --- the pieces ------------------------------------------------------------------------------------


def won_bags(
    make: Callable[[random.Random, Settings], Sketch | None], s: Settings, tries: int
) -> list[Board]:
    """The boards of the bags ``make`` gives for seeds 0 to ``tries - 1``; each must be a won position
    with the goal car alone on its row."""
    out = []
    for k in range(tries):
        bag = make(random.Random(k), s)
        if bag is not None:
            board = bag.board()
            assert board.is_won()
            row = (s.height - 1) // 2
            assert [v.name for v in board.vehicles if v.horizontal and v.row == row] == ["A"]
            out.append(board)
    return out


def test_a_random_bag_is_a_won_position_that_fits() -> None:
    s = Settings(vehicles=(6, 9), walls=(0, 2), seed=1).checked()
    for board in won_bags(random_bag, s, 40):
        assert 6 <= len(board.names) <= 9 and len(board.walls) <= 2


def test_a_packed_bag_is_a_won_position_that_covers_most_of_a_large_board() -> None:
    s = Settings(width=9, height=9, trucks=(2, 9), walls=(1, 3)).checked()
    packed = won_bags(packed_bag, s, 30)
    assert len(packed) >= 20
    for board in packed:
        trucks = sum(1 for v in board.vehicles if v.length == 3)
        assert 2 <= trucks <= 9 and 1 <= len(board.walls) <= 3
        assert len(board.names) <= s.allowed[1]
        assert sum(v.length for v in board.vehicles) + len(board.walls) >= 60
    loose = won_bags(random_bag, s, 30)

    def median_cover(boards: list[Board]) -> float:
        return statistics.median(sum(v.length for v in b.vehicles) for b in boards)

    assert median_cover(packed) >= median_cover(loose) + 8  # far tighter than random bags


def test_a_small_change_moves_one_vehicle_to_a_neighbouring_lane_or_resizes_it() -> None:
    s = Settings(width=9, height=9, trucks=(2, 12), walls=(0, 3)).checked()
    seen = set()
    for k in range(40):
        rng = random.Random(k)
        bag = (packed_bag, random_bag)[k % 2](rng, s)  # crowded and roomy
        if bag is None:
            continue
        for _ in range(10):
            changed = generator._small_change(rng, s, bag)
            if changed is None:
                continue
            changed.board()  # a valid position: on the board, no overlap, off the goal car's row
            [(old, new)] = [(p, q) for p, q in zip(bag.pieces, changed.pieces, strict=True) if p != q]
            assert old.orientation == new.orientation
            lane, offset = (0, 1) if old.orientation == "H" else (1, 0)  # (row, col): lane then offset
            if new.length == old.length:
                assert abs(new[1 + lane] - old[1 + lane]) == 1 and new[1 + offset] == old[1 + offset]
                seen.add("lane")
            else:
                assert abs(new.length - old.length) == 1 and new[1 + lane] == old[1 + lane]
                short, long = sorted((old, new), key=lambda p: p.length)
                assert set(generator._cells(short)) < set(generator._cells(long))  # one end kept
                seen.add("resize")
            trucks = changed.trucks()
            assert 2 <= trucks <= 12 and changed.walls == bag.walls
    assert seen == {"lane", "resize"}


def test_a_packed_bag_too_loose_to_explore_gets_cars_made_trucks_until_its_cluster_fits() -> None:
    """A packed 12x12 bag holds as many vehicles as fit and still leaves pockets of free cells whose
    moves multiply its cluster past the limit; method anneal covers them a cell at a time (a car made a
    truck) when it aims at 25 moves or more; shorter targets and method rewind stop there as before (the
    packs their commands made stay the same)."""
    s = Settings(width=12, height=12, min_moves=30, seed=1).checked()
    t = generator._Try(s, 0)
    bag = packed_bag(t.rng, s)
    assert bag is not None and t.rewind(bag) is None
    assert generator._Try(replace(s, method="rewind"), 0).tighter(bag, 30) is None
    assert t.tighter(bag, 24) is None  # a short target: as before (the `huge` pack's command)
    grown = 0
    while (a := t.rewind(bag)) is None:
        tighter = t.tighter(bag, 30)
        assert tighter is not None
        [(car, truck)] = [(p, q) for p, q in zip(bag.pieces, tighter.pieces, strict=True) if p != q]
        assert (car.length, truck.length) == (2, 3) and set(generator._cells(car)) < set(
            generator._cells(truck)
        )
        tighter.board()  # a valid position
        bag, grown = tighter, grown + 1
    assert grown >= 1 and a.cluster_size <= t.limit


@pytest.mark.parametrize(
    ("size", "least", "small"), [(9, 30, True), (9, 15, False), (6, 30, False), (9, 30, None)]
)
def test_small_changes_are_drawn_on_crowded_boards_for_long_targets_only(
    monkeypatch: pytest.MonkeyPatch, size: int, least: int, small: bool | None
) -> None:
    """Method anneal draws small changes from packed bags when the target is SMALL_FROM moves or more;
    shorter targets, 6x6 boards and wrap-around boards anneal as before (their packs' commands make
    the same files)."""
    calls: list[int] = []
    real = generator._small_change

    def spy(rng: random.Random, s: Settings, sketch: Sketch) -> Sketch | None:
        calls.append(1)
        return real(rng, s, sketch)

    monkeypatch.setattr(generator, "_small_change", spy)
    wrap = small is None
    attempt(Settings(width=size, height=size, min_moves=least, wrap=wrap, seed=2).checked(), 2)
    assert bool(calls) is bool(small)


def test_a_long_target_starts_at_small_from_moves() -> None:
    """The small changes and the tightening by trucks start at a target of SMALL_FROM moves exactly,
    on packed bags of method anneal only."""
    s = Settings(width=9, height=9, min_moves=30).checked()
    t = generator._Try(s, 0)
    assert t.long(generator.SMALL_FROM) and not t.long(generator.SMALL_FROM - 1)
    assert not generator._Try(replace(s, method="rewind"), 0).long(generator.SMALL_FROM)
    assert not generator._Try(replace(s, wrap=True), 0).long(generator.SMALL_FROM)
    assert not generator._Try(replace(s, width=6, height=6), 0).long(generator.SMALL_FROM)


@pytest.mark.slow
def test_a_nine_by_nine_try_climbs_from_a_packed_bag() -> None:
    """A run of seed 3 anneals from packed 9x9 bags to a puzzle of 12+ moves in which every vehicle
    matters (a few seconds)."""
    s = Settings(width=9, height=9, min_moves=12, seed=3).checked()
    puzzle = next(Generator(s).run(1, max_tries=12), None)
    assert puzzle is not None
    assert puzzle.board.width == 9 and puzzle.length >= 12
    assert solve(puzzle.board).length == puzzle.length
    sketch = Sketch.of(puzzle.board)
    for k in range(len(sketch.pieces)):
        assert solve(sketch.without(k).board(), engine="astar").length < puzzle.length


def test_the_naming_is_the_same_across_a_cluster() -> None:
    rng = random.Random(5)
    for line in DATA.read_text().splitlines()[:12]:
        board = Sketch.of(fogleman.parse_line(line)[0]).board()
        key = analyze(board).cluster_key
        for _ in range(5):
            for _ in range(rng.randint(1, 30)):
                board = board.apply(rng.choice(board.legal_moves()))
            renamed = Sketch.of(board).board()
            assert renamed.layout == board.layout
            assert analyze(renamed).cluster_key == key


def test_rewinding_a_database_puzzle_finds_it_as_the_hardest() -> None:
    for line in DATA.read_text().splitlines():
        board, meta = fogleman.parse_line(line)
        a = analyze(Sketch.of(board).board())
        assert a.hardest_distance == a.start_distance == int(meta["moves"]), line
        assert a.cluster_size == int(meta["cluster"]), line


def test_reading_order_names() -> None:
    board = fogleman.parse_line("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")[0]
    named, rename = reading_order(board)
    assert named.rows()[:3] == ["BCC.D.", "BEF.DG", "BEFAAG"]
    assert rename["A"] == "A" and rename["G"] == "B" and rename["B"] == "C"
    assert solve(named).length == 51


@pytest.mark.parametrize(
    "settings",
    [
        Settings(width=4),
        Settings(width=13),
        Settings(min_moves=0),
        Settings(min_moves=9, max_moves=8),
        Settings(vehicles=(1, 4)),
        Settings(vehicles=(9, 70)),
        Settings(trucks=(12, 13), vehicles=(8, 10)),
        Settings(walls=(3, 20)),
        Settings(vehicles=(16, 18), width=5, height=5),
        Settings(method="teleport"),
    ],
)
def test_bad_settings_are_refused(settings: Settings) -> None:
    with pytest.raises(RushHourError):
        Generator(settings)


def test_a_length_no_6x6_puzzle_has_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    # the bound of the complete enumeration is reached: the published longest 6x6 puzzle needs it
    longest = generator.LONGEST_KNOWN[(6, 6)]
    published = levels.level("classic", 12).board
    assert not published.walls and solve(published).length == longest
    Settings(min_moves=longest).checked()
    with pytest.raises(RushHourError, match=f"no 6x6 puzzle without walls needs more than {longest} moves"):
        Generator(Settings(min_moves=longest + 1))
    # walls, wrap-around boards and other sizes have no bound known: they are asked for as before
    for other in (Settings(min_moves=60, walls=(1, 1)), Settings(min_moves=60, wrap=True), Settings(width=7, min_moves=60)):
        other.checked()
    status, out, err = run(capsys, "generate", "--min-moves", str(longest + 1))
    assert status == 2 and out == ""
    assert err == (
        f"error: --min-moves {longest + 1} asks for none: no 6x6 puzzle without walls needs more than {longest} "
        "moves (the complete enumeration, docs/enumerate.md)\n"
    )


# --- the command line ------------------------------------------------------------------------------


def test_cli_output_is_the_same_with_one_or_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("generate", "--count", "3", "--min-moves", "4", "--max-moves", "8", "--seed", "21")
    status1, out1, err1 = run(capsys, *base, "--jobs", "1")
    status2, out2, _ = run(capsys, *base, "--jobs", "2")
    assert status1 == status2 == 0
    assert out1 != "" and out2.replace(" --jobs 2", "") == out1  # only the recorded command differs
    doc = parse_text(out1)
    assert len(doc) == 3
    for entry in doc:
        assert 4 <= int(entry.meta["moves"]) <= 8
        assert solve(entry.board).length == int(entry.meta["moves"])
        assert entry.meta["seed"] == "21"
    assert "made 3 puzzles in" in err1 and "lengths:" in err1
    assert "rushhour generate --size 6x6 --count 3 --min-moves 4 --max-moves 8" in out1


def test_cli_recorded_command_makes_the_same_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "generate", "--count", "2", "--min-moves", "5", "--max-moves", "6", "--seed", "9"
    )
    assert status == 0
    command = next(line for line in out.splitlines() if line.startswith("# command: "))
    argv = shlex.split(command[len("# command: rushhour ") :])
    status, again, _ = run(capsys, *argv)
    assert status == 0 and again == out


def test_cli_sort_writes_the_same_puzzles_easiest_first(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("generate", "--count", "6", "--min-moves", "3", "--max-moves", "9", "--seed", "5", "--name", "p")
    status, plain, _ = run(capsys, *base)
    assert status == 0
    status, ordered, _ = run(capsys, *base, "--sort")
    assert status == 0
    made, easiest = parse_text(plain), parse_text(ordered)
    figures = [(int(e.meta["moves"]), int(e.meta["cluster"])) for e in easiest]
    assert figures == sorted(figures) and len(set(figures)) > 1
    assert sorted(fogleman.write_line(e.board) for e in made) == sorted(
        fogleman.write_line(e.board) for e in easiest
    )
    assert [e.meta["name"] for e in easiest] == [f"p-{k:02d}" for k in range(1, 7)]
    assert figures != [(int(e.meta["moves"]), int(e.meta["cluster"])) for e in made]  # the order did change
    # the recorded command asks for the sorting, and makes the same file again
    command = next(line for line in ordered.splitlines() if line.startswith("# command: "))
    assert " --seed 5 --sort " in command
    status, again, _ = run(capsys, *shlex.split(command[len("# command: rushhour ") :]))
    assert status == 0 and again == ordered


def test_cli_fogleman_lines(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "generate", "--count", "2", "--min-moves", "3", "--seed", "4", "--format", "fogleman"
    )
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2
    for line in lines:
        moves, text, cluster = line.split()
        board, meta = fogleman.parse_line(line)
        assert len(moves) >= 2 and len(text) == 36
        assert solve(board).length == int(meta["moves"])
        assert analyze(board).cluster_size == int(cluster)


def test_the_fogleman_format_caps_the_vehicles_at_its_letters(capsys: pytest.CaptureFixture[str]) -> None:
    # a packed 10x10 bag holds more vehicles than the format has letters; the cap cuts the bag to them
    free, capped = (Settings(width=10, height=10, max_vehicles=m).checked() for m in (60, 26))
    assert capped.bag == (22, 26) and capped.allowed == (2, 26) and free.bag == (22, 39)
    free_bags = [packed_bag(random.Random(k), free) for k in range(4)]
    capped_bags = [packed_bag(random.Random(k), capped) for k in range(4)]
    assert all(b is not None and len(b.pieces) + 1 > 26 for b in free_bags)
    assert all(b is not None and len(b.pieces) + 1 <= 26 for b in capped_bags)
    # the CLI caps a run in the format, and its command (the format included) makes the same lines
    argv = ("generate", "--size", "9x9", "--min-moves", "5", "--count", "2", "--seed", "3")
    status, out, err = run(capsys, *argv, "--format", "fogleman")
    assert status == 0 and len(out.splitlines()) == 2
    for line in out.splitlines():
        board, meta = fogleman.parse_line(line)
        assert len(board.vehicles) <= 26 and solve(board).length == int(meta["moves"])
    command = next(line for line in err.splitlines() if line.startswith("seed 3: "))
    assert command.endswith(" --format fogleman --seed 3")
    status, again, _ = run(capsys, *shlex.split(command[len("seed 3: rushhour ") :]), "-q")
    assert status == 0 and again == out
    # an explicit range past the letters is refused before any work
    status, out, err = run(capsys, *argv, "--format", "fogleman", "--vehicles", "10-30")
    assert status == 2 and out == "" and "the Fogleman format names the vehicles by the 26 letters" in err


def test_cli_writes_a_file_and_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "pack.txt"
    status, out, err = run(
        capsys,
        "generate",
        "--count",
        "2",
        "--min-moves",
        "3",
        "--seed",
        "2",
        "--out",
        str(pack),
        "--title",
        "Test pack",
        "--order",
        "55",
        "--name",
        "tp",
        "-q",
    )
    assert status == 0 and out == "" and err == ""
    entries = read_file(str(pack))
    assert [e.meta["name"] for e in entries] == ["tp-01", "tp-02"]
    text = pack.read_text()
    assert text.startswith("# title: Test pack\n# order: 55\n")
    command = next(line for line in text.splitlines() if line.startswith("# command: "))
    assert command.endswith(f"--seed 2 --name tp --title 'Test pack' --order 55 --out {pack}")
    folder = tmp_path / "many"
    status, _, _ = run(
        capsys,
        "generate",
        "--count",
        "2",
        "--min-moves",
        "3",
        "--seed",
        "2",
        "--format",
        "json",
        "--out",
        f"{folder}/",
        "-q",
    )
    assert status == 0
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["puzzle-01.json", "puzzle-02.json"]
    data = json.loads((folder / "puzzle-01.json").read_text())
    assert data["meta"]["moves"] == entries[0].meta["moves"]
    status, out, _ = run(
        capsys, "generate", "--count", "2", "--min-moves", "3", "--seed", "2", "--format", "json"
    )
    assert status == 0 and len(json.loads(out)) == 2


def test_cli_stops_at_max_tries_with_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "generate", "--min-moves", "51", "--max-tries", "2", "--seed", "1")
    assert status == 1 and out == ""
    assert "only 0 of 1 puzzles made" in err and "--max-tries 2" in err


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["--size", "12x12"], "try a wider --min-moves/--max-moves range, other --vehicles, or more --max-tries"),
        # seed 2: its first try stalls in 0.2 s (seed 1's runs for 25 s; the advice is the same)
        (
            ["--size", "12x12", "--min-moves", "15", "--seed", "2"],
            "12x12 boards without walls make few puzzles of 15 moves or more",
        ),
        (["--size", "11x11", "--min-moves", "30"], "add walls, e.g. --walls 30 --vehicles 12-24 --min-moves 15"),
        (["--size", "12x12", "--walls", "36", "--min-moves", "60"], "try a wider --min-moves/--max-moves range"),
        (["--size", "10x10", "--min-moves", "60"], "try a wider --min-moves/--max-moves range"),
        (["--size", "12x12", "--wrap", "--min-moves", "60"], "try a wider --min-moves/--max-moves range"),
    ],
)
def test_cli_short_run_names_what_to_change_on_large_boards(
    capsys: pytest.CaptureFixture[str], argv: list[str], hint: str
) -> None:
    """11x11 and 12x12 boards without walls make few puzzles of 15 moves or more (docs/generator.md,
    "Limits, measured"): there the advice names walls (and a shorter target past 20 moves), not a wider
    range; shorter targets come by the solver climb, and more tries are what a short run lacks."""
    seed = [] if "--seed" in argv else ["--seed", "1"]
    status, out, err = run(capsys, "generate", *argv, "--max-tries", "1", *seed, "-q")
    assert status == 1 and out == ""
    assert "only 0 of 1 puzzles made (reached --max-tries 1)" in err and hint in err


@pytest.mark.slow  # 13 to 26 s; the advice itself is checked by the test above
def test_cli_large_board_advice_makes_a_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    """The advice given for a wall-free 12x12 board is a command that makes a puzzle."""
    argv = ["--size", "12x12", "--min-moves", "15", "--max-tries", "1", "--seed", "1", "-q"]
    status, _, err = run(capsys, "generate", *argv)
    assert status == 1
    suggested = err.rsplit("e.g. ", 1)[1].split()
    status, out, _ = run(capsys, "generate", *argv[:4], *suggested, "--seed", "3", "--max-tries", "200")
    assert status == 0
    (entry,) = parse_text(out)
    board = entry.board
    assert board.width == 12 and len(board.walls) == 36 and len(board.vehicles) <= 24
    assert solve(board).length == int(entry.meta["moves"]) >= 15


@pytest.mark.parametrize(
    "argv",
    [
        ["--size", "4x4"],
        ["--size", "13x6"],
        ["--size", "six"],
        ["--count", "0"],
        ["--count", "x"],
        ["--min-moves", "10", "--max-moves", "5"],
        ["--vehicles", "9-3"],
        ["--vehicles", "1"],
        ["--trucks", "a"],
        ["--walls", "40"],
        ["--seed", "-1"],
        ["--jobs", "0"],
        ["--time-limit", "0"],
        ["--method", "teleport"],
        ["--format", "png"],
        ["--format", "fogleman", "--size", "7x6"],
        ["--format", "csv", "--count", "2"],
        ["--format", "csv", "--walls", "1"],
        ["--out", "/no/such/folder/x.txt"],
    ],
)
def test_cli_bad_options_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run(capsys, "generate", *argv)
    assert status == 2 and out == ""
    assert "error: " in err and "Traceback" not in err


# --- the built-in packs made by the generator --------------------------------------------------------

GENERATED = {"beginner": (3, 8), "intermediate": (11, 19), "advanced": (20, 29), "expert": (30, 99)}


def generated_packs() -> list[levels.Pack]:
    return [p for p in levels.packs() if "command" in p.meta and "rushhour generate" in p.meta["command"]]


def test_the_generated_packs_are_there() -> None:
    found = {p.name: p for p in generated_packs()}
    for name, (lo, hi) in GENERATED.items():
        pack = found[name]
        assert len(pack.levels) == 40
        assert all(lo <= int(e.meta["moves"]) <= hi for e in pack.levels)
        assert all((e.board.width, e.board.height) == (6, 6) for e in pack.levels)
    assert any(p.levels[0].board.width >= 9 for p in found.values())
    assert any(p.levels[0].board.walls for p in found.values() if p.levels[0].board.width == 6)
    for pack in found.values():
        assert {"title", "order", "description", "seed", "command"} <= set(pack.meta)
        assert f"--seed {pack.meta['seed']}" in pack.meta["command"]


def test_every_pack_level_has_its_optimal_length_and_cluster() -> None:
    ids = set()
    for pack in generated_packs():
        for entry in pack.levels:
            board, meta = entry.board, entry.meta
            a = analyze(Sketch.of(board).board())
            assert a.start_distance == a.hardest_distance == int(meta["moves"]), entry.label
            assert a.cluster_size == int(meta["cluster"]), entry.label
            ids.add((a.board.layout, a.cluster_key))
            assert {"name", "moves", "steps", "cluster"} <= set(meta)
    assert len(ids) == sum(len(p.levels) for p in generated_packs())


def test_pack_solutions_replay() -> None:
    for pack in generated_packs():
        for entry in pack.levels[::8]:
            solution = solve(entry.board)
            assert solution.length == int(entry.meta["moves"])
            assert verify(entry.board, solution.moves).is_won()
            assert int(entry.meta["steps"]) >= solution.length


def test_wrap_around_puzzles_are_verified_and_reproduce() -> None:
    s = Settings(min_moves=8, max_moves=12, seed=3, wrap=True)
    made = generate(s, 3, max_tries=40)
    assert len(made) == 3
    for puzzle in made:
        board = puzzle.board
        assert board.wrap and board.target is not None
        solution = solve(board, engine="bfs")
        assert solution.length == puzzle.length and verify(board, puzzle.moves).is_won()
        a = analyze(board)
        assert a.start_distance == a.hardest_distance == puzzle.length
    assert [p.board for p in generate(s, 3, max_tries=40, jobs=2)] == [p.board for p in made]


@pytest.mark.parametrize(("size", "least"), [(6, 12), pytest.param(9, 12, marks=pytest.mark.slow)])
def test_anneal_puzzles_are_solved_again_and_replayed(size: int, least: int) -> None:
    [puzzle] = generate(Settings(width=size, height=size, min_moves=least, seed=5), 1, max_tries=30)
    assert puzzle.method == "anneal" and puzzle.length >= least
    assert solve(puzzle.board, engine="bfs").length == puzzle.length
    assert verify(puzzle.board, puzzle.moves).is_won()
    sketch = Sketch.of(puzzle.board)
    for k in range(len(sketch.pieces)):  # every vehicle matters
        assert solve(sketch.without(k).board(), engine="bfs").length < puzzle.length


@needs_native  # the one pass is the compiled frontier search's; in Python the search is from scratch
@pytest.mark.parametrize("number", [1, 2, 5])
def test_a_position_of_known_distance_is_solved_by_one_pass_as_the_bfs_engine_solves_it(number: int) -> None:
    board = levels.level("large", number).board  # 9x9: the bfs engine runs the frontier passes
    reference = solve(board)
    known = solve_known(board, reference.length)
    assert known.solved and known.optimal
    assert known.moves == reference.moves  # the packs' recorded steps stay the same
    assert board.replay(known.moves).is_won()
    # a wrong distance never gives a longer solution: none within a shorter one, the shortest within a longer
    assert not solve_known(board, reference.length - 1).solved
    assert solve_known(board, reference.length + 2).length == reference.length


@pytest.mark.parametrize(
    ("seed", "number"), [(1, 30), (3, 9), (3, 15), (8, 36)]
)  # 8, 36: a harder position left
def test_a_puzzle_the_checks_dropped_is_rescued_by_dropping_its_vehicles_in_one_pass(
    monkeypatch: pytest.MonkeyPatch, seed: int, number: int
) -> None:
    """Method anneal: when dropping a vehicle that does not matter leaves a cluster too large (or a check
    hits its limit), the try checks every vehicle the solution leaves still in one pass, drops those
    that do not matter and analyses the board left once.  The puzzle made that way is a hardest position
    of its cluster, solved again in the length it records, and none of its vehicles can go without the
    solution getting shorter."""
    rescued: list[str] = []
    asked: list[tuple[Board, Solution, str]] = []
    rescue = generator._Try.rescue

    def spy(self: generator._Try, start: Board, solution: Solution, reason: str) -> generator.TryResult:
        asked.append((start, solution, reason))
        outcome = rescue(self, start, solution, reason)
        rescued.append(outcome.reason)
        return outcome

    monkeypatch.setattr(generator._Try, "rescue", spy)
    outcome = attempt(Settings(min_moves=15, seed=seed).checked(), number)
    puzzle = outcome.puzzle
    assert puzzle is not None and rescued[-1] == "made"  # these tries make their puzzle by the rescue
    a = analyze(Sketch.of(puzzle.board).board())
    assert a.start_distance == a.hardest_distance == puzzle.length >= 15
    assert a.cluster_size == puzzle.cluster
    assert verify(puzzle.board, puzzle.moves).is_won() and len(puzzle.moves) == puzzle.length
    assert solve(puzzle.board, engine="bfs").length == puzzle.length
    sketch = Sketch.of(puzzle.board)
    for k in range(len(sketch.pieces)):
        assert solve(sketch.without(k).board(), engine="bfs").length < puzzle.length
    # the other methods keep the checks' reason: the packs their commands made stay the same
    start, solution, reason = asked[-1]
    other = generator._Try(Settings(min_moves=15, seed=seed, method="rewind").checked(), number)
    assert rescue(other, start, solution, reason).reason == reason


class _Clock:
    """The generator's ``time`` module with a clock that a test moves: long before the deadline until
    reading ``at``, which finds a hair of the run left (a search given that much stops at its first look
    at the clock, or finishes first when it is small), then past the deadline for good.  ``at`` None:
    long before the deadline throughout, readings counted."""

    def __init__(self, deadline: float, at: int | None) -> None:
        self.deadline, self.at, self.readings = deadline, at, 0

    def time(self) -> float:
        self.readings += 1
        if self.at is None or self.readings < self.at:
            return self.deadline - 1_000.0
        return self.deadline - 1e-9 if self.readings == self.at else self.deadline + 1.0

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


@pytest.mark.parametrize(
    ("s", "number"),
    [
        (SMALL.checked(), 0),  # a 6x6 bag annealed, finished by the vehicle checks
        (Settings(width=12, height=12, min_moves=10, seed=1).checked(), 1),  # the solver climb's passes
        (Settings(width=9, height=9, min_moves=30, seed=1).checked(), 57),  # annealed, then rescued
    ],
    ids=["6x6", "12x12-climb", "9x9-rescue"],
)
def test_a_deadline_anywhere_in_a_try_ends_it_stopped_or_as_it_would_have_ended(
    monkeypatch: pytest.MonkeyPatch, s: Settings, number: int
) -> None:
    """A run's --time-limit is read at every step of a try (searches, checks, the solve that verifies);
    wherever it passes, the try ends as stopped at the time limit, without an error and without a
    puzzle cut short, or, past its last reading, with the answer it has without a deadline."""
    deadline = time.time() + 10_000.0
    counting = _Clock(deadline, None)
    monkeypatch.setattr(generator, "time", counting)
    whole = attempt(s, number, deadline)
    assert whole.reason != OUT_OF_TIME and counting.readings > 20
    rng = random.Random(number)
    readings = sorted({1, 2, 3, counting.readings, *rng.sample(range(4, counting.readings), 12)})
    for at in readings:
        monkeypatch.setattr(generator, "time", _Clock(deadline, at))
        cut = attempt(s, number, deadline)
        if cut.reason != OUT_OF_TIME:
            assert (cut.reason, cut.puzzle) == (whole.reason, whole.puzzle), at
        else:
            assert cut.puzzle is None, at


LONG9 = Path(__file__).parent / "data" / "long9_106.txt"


@cache
def _long9() -> generator.Puzzle:
    made = attempt(Settings(width=9, height=9, min_moves=30, seed=2).checked(), 121).puzzle
    assert made is not None
    return made


def test_the_longest_9x9_puzzle_made_is_made_again_and_the_reference_searches_agree() -> None:
    """tests/data/long9_106.txt: seed 2's try 121 of 9x9 at 30+ moves makes it again, its 106 moves are
    replayed, the bfs engine finds no shorter solution, and the Python analysis of its reachable set
    puts it at the hardest position, as the generator's compiled analysis did."""
    p = _long9()
    stored = read_file(str(LONG9))[0].board
    assert p.board.state == stored.state and p.board.vehicles == stored.vehicles
    assert p.length == 106 and verify(p.board, list(p.moves)).is_won()
    assert solve(p.board, engine="bfs").length == 106
    a = analyze_python(p.board)
    assert (a.cluster_size, a.hardest_distance, a.start_distance) == (p.cluster, 106, 106) == (64_451, 106, 106)


@pytest.mark.slow
def test_every_vehicle_of_the_longest_9x9_puzzle_matters_by_the_bfs_engine() -> None:
    """The generator's frontier passes found a shorter solution without each vehicle of
    long9_106.txt; the bfs engine must too (about 15 s)."""
    p = _long9()
    for name, smaller in without_each(p.board):
        assert solve(smaller, engine="bfs").length < p.length, name


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--title", "a\nb", "error: argument --title: the grid format cannot hold the header 'title'"),
        ("--description", "d\n# moves: 99", "error: argument --description: the grid format cannot hold"),
        ("--name", "x\ny", "error: argument --name: the grid format cannot hold the header 'name'"),
        ("--name", "../esc", "error: argument --name: '../esc' cannot start level and file names"),
        ("--order", "x", "error: argument --order: the number 'x' is not a whole number"),
        # an empty one was taken for the option left out, and the default written
        ("--title", "", "error: argument --title: the title is empty: give one, or leave the option out"),
        ("--description", " ", "error: argument --description: the description is empty"),
    ],
)
def test_header_values_are_refused_before_any_puzzle_is_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str, value: str, message: str
) -> None:
    """A line break in --title made a file that did not read back (or, with --out, lost every puzzle
    made when the header was refused at the end); --name ../esc wrote outside --out DIR/."""

    with pytest.raises(SystemExit) as ended:
        main(["generate", "--count", "2", "--min-moves", "5", "--out", str(tmp_path / "dir") + "/", option, value])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_run_stopped_early_describes_the_puzzles_it_made(tmp_path: Path) -> None:
    out = tmp_path / "few.txt"
    assert main(["generate", "--count", "500", "--min-moves", "3", "--max-tries", "3", "--seed", "1", "-q",
                 "--out", str(out)]) == 1
    made = parse_text(out.read_text())
    header = grid.parse_document(out.read_text()).meta
    assert 0 < len(made) < 500
    assert header["description"] == f"{len(made)} puzzle{'s' if len(made) > 1 else ''} of 3+ moves on 6x6"


def test_a_seed_is_read_as_every_count_is(capsys: pytest.CaptureFixture[str]) -> None:
    """solve and harden took --seed 1_000 and 1e3, generate refused them: one rule for whole numbers."""
    for seed in ("1_000", "1,000", "1e3"):
        assert main(["generate", "--seed", seed, "--count", "1", "--min-moves", "3", "-q"]) == 0
        assert "# seed: 1000" in capsys.readouterr().out


@pytest.mark.parametrize("seconds", ["1000000", "2.1234567", "30.000001"])
def test_cli_recorded_command_keeps_the_time_limit_as_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seconds: str
) -> None:
    """The header's command holds --time-limit as the option reads it (not 1e+06, which it refuses,
    nor 2.12346, another limit)."""
    out = tmp_path / "made.txt"
    argv = ("generate", "--min-moves", "3", "--seed", "2", "--time-limit", seconds, "--out", str(out), "-q")
    status, _, _ = run(capsys, *argv)
    header = next(line for line in out.read_text().splitlines() if line.startswith("# command: "))
    assert status == 0 and f" --time-limit {seconds} " in header
    parsed = build_parser().parse_args(shlex.split(header[len("# command: rushhour ") :]))
    assert parsed.time_limit == float(seconds)


def test_generator_doctests_run() -> None:
    import doctest

    assert doctest.testmod(generator).failed == 0


DATABASE = (
    "# a database of three lines\n"
    "02 ooBoooooBoooAABooooooooooooooooooooo 14\n"
    "04 oooooooooooxAAoooEoooooEoCCDDDoooooo 22\n"
    "06 BBBxooooIoooAAIoooHDDEEEHoooooFFFGGo 68\n"
)


def test_cli_from_db_recorded_command_makes_the_same_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The command in the header of a document drawn from a database holds the options of the output
    too (--sort, --name, --title, --out), as a generated document's does."""
    db, out = tmp_path / "db.txt", tmp_path / "drawn.txt"
    db.write_text(DATABASE)
    argv = ["generate", "--from-db", str(db), "--min-moves", "1", "--count", "3", "--seed", "1"]
    argv += ["--sort", "--name", "lvl", "--title", "Drawn ones", "--out", str(out), "-q"]
    status, _, _ = run(capsys, *argv)
    first = out.read_text()
    header = next(line for line in first.splitlines() if line.startswith("# command: "))
    assert status == 0 and " --sort --name lvl --title 'Drawn ones' --out " in header
    out.unlink()
    status, _, _ = run(capsys, *shlex.split(header[len("# command: rushhour ") :]))
    assert status == 0 and out.read_text() == first


def test_cli_from_db_refuses_wrap(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "db.txt"
    db.write_text(DATABASE)
    status, out, err = run(capsys, "generate", "--from-db", str(db), "--min-moves", "1", "--wrap")
    assert status == 2 and out == ""
    assert err.startswith("error: --wrap shapes puzzles being made: it does not go with --from-db")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "02 ooBoooooBoooAABooooooooooooooooooooo 99",
            "db.txt, line 3: the database gives ooBoooooBoooAABooooooooooooooooooooo a reachable set of 99 "
            "positions, the analysis finds 14",
        ),
        (
            "02 ooBoooooBoooAABooooooooooooooooooooo 5",
            "db.txt, line 3: the database gives ooBoooooBoooAABooooooooooooooooooooo a reachable set of 5 "
            "positions, the analysis finds more than 5",
        ),
        ("02 ooBoooooBoooAABoooooooooooooooooooo 14", "db.txt, line 3: a Fogleman board is square: 35 characters"),
        ("02 ooBoooooooooAABooooBoooooooooooooooo 14", "db.txt, line 3, column 6: vehicle B appears twice"),
        (
            "03 ooBoooooBoooAABooooooooooooooooooooo 14",
            "db.txt, line 3: the database gives ooBoooooBoooAABooooooooooooooooooooo 3 moves, the solver "
            "finds 2 moves",
        ),
    ],
)
def test_a_wrong_database_line_is_named_by_its_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    """Every line drawn is checked against the solver and the analysis (its moves and its cluster, which
    the puzzle's header repeats), and a wrong one is named where it is in the file."""
    db = tmp_path / "db.txt"
    db.write_text(f"# one line\n\n{line}\n")
    with pytest.raises(RushHourError) as caught:
        generator.from_database(str(db), min_moves=1, max_moves=None, count=1, seed=1)
    assert str(caught.value).startswith(f"{tmp_path}/{message}")  # the file named as it was given


def test_cli_a_name_too_long_for_the_files_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With --out DIR/, a --name the file system cannot hold in a file name was refused only at the first
    puzzle's write, after the work, and the puzzle was lost; the folder was made too."""
    out = tmp_path / "made"
    status, text, err = run(capsys, "generate", "--count", "2", "--out", f"{out}/", "--name", "a" * 250)
    assert (status, text) == (2, "") and not out.exists()
    assert err == (
        f"error: --name is too long for the files of {out}/: a file name there has at most 255 bytes, "
        "and the puzzles' would have 257\n"
    )
