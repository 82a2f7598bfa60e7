"""The complete database (rushhour.database): definitions against the published database and against an
independent plain search of every cluster; the compiled search against the Python reference."""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from rushhour.board import HORIZONTAL, VERTICAL, Board, Vehicle
from rushhour.database import (
    EnumerateError,
    Job,
    Part,
    PartStore,
    board_of,
    build,
    lane_choices,
    line_order,
    parts,
    python_part,
    read_line,
    run_part,
    sequences,
    shard_of,
)
from rushhour.errors import RushHourError
from tests.native import needs_native

DATA = Path(__file__).parent / "data"
SAMPLE = [line for line in (DATA / "fogleman_slice_enumerate.txt").read_text().splitlines() if line]


def test_lane_sequences_of_six_cells() -> None:
    assert sorted(sequences(6)) == sorted(
        [(), (2,), (3,), (2, 2), (2, 3), (3, 2), (3, 3), (2, 2, 2)]
    )


@pytest.mark.parametrize("line", SAMPLE)
def test_the_shard_of_a_published_line_gives_that_line(line: str) -> None:
    """Moves, the hardest position in the published lettering, and the cluster size, exactly."""
    job = Job(6, 2, (0, 2))
    _, board, _ = read_line(line)
    result = run_part(job, shard_of(job, board_of(board)))
    assert line in result.lines


@needs_native
def test_the_python_reference_gives_the_same_shards_as_the_compiled_search() -> None:
    job = Job(6, 2, (0, 2))
    for line in SAMPLE[::12]:
        part = shard_of(job, board_of(read_line(line)[1]))
        assert python_part(job, part).lines == sorted(run_part(job, part, native=True).lines, key=line_order)
        assert python_part(job, part).stats == run_part(job, part, native=True).stats


@needs_native
def test_a_crowded_8x8_shard_whose_offsets_do_not_fit_64_bits_is_searched_like_the_reference() -> None:
    # 25 vehicles whose offsets range over 7 values each: 7**25 does not fit 64 bits, so the compiled
    # search tells its positions apart by their bitboards instead of by their offsets' code
    rows = ["BBCCDDEI", "FFGGHHEI", "JJKKLLMQ", "ooAAooMQ", "NNOOPPUo", "RRSSTTUo", "VVWWZZoY", "oooooooY"]
    job = Job(8, 3)
    part = shard_of(job, board_of("".join(rows)))
    compiled = run_part(job, part, native=True)
    assert compiled == run_part(job, part, native=False)
    assert compiled.stats.positions > 100  # the goal car and the vertical vehicles of the right columns move


# --- an independent plain search of every 4x4 cluster, over Board.successors ---------------------------
Layout = tuple[frozenset[tuple[int, int]], frozenset[tuple[str, int, int, int]], int]


@functools.cache
def _layouts(size: int, goal_row: int, max_walls: int) -> list[Layout]:
    """Every layout: walls, the other vehicles as (orientation, length, row, col), the goal car's column."""
    cells = [(r, c) for r in range(size) for c in range(size)]
    out: list[Layout] = []

    def fill(k: int, used: frozenset[tuple[int, int]], walls: frozenset, vehicles: frozenset, goal: int) -> None:
        if k == len(cells):
            if goal >= 0 and not _full(size, goal_row, walls, vehicles):
                out.append((walls, vehicles, goal))
            return
        r, c = cells[k]
        if (r, c) in used:
            fill(k + 1, used, walls, vehicles, goal)
            return
        fill(k + 1, used, walls, vehicles, goal)
        if len(walls) < max_walls:
            fill(k + 1, used | {(r, c)}, walls | {(r, c)}, vehicles, goal)
        for length in (2, 3):
            across = [(r, c + t) for t in range(length)]
            if c + length <= size and not used & set(across):
                if r == goal_row:
                    if length == 2 and goal < 0:
                        fill(k + 1, used | set(across), walls, vehicles, c)
                else:
                    fill(k + 1, used | set(across), walls, vehicles | {(HORIZONTAL, length, r, c)}, goal)
            down = [(r + t, c) for t in range(length)]
            if r + length <= size and not used & set(down):
                fill(k + 1, used | set(down), walls, vehicles | {(VERTICAL, length, r, c)}, goal)

    fill(0, frozenset(), frozenset(), frozenset(), -1)
    return out


def _full(size: int, goal_row: int, walls: frozenset, vehicles: frozenset) -> bool:
    """Whether a row is covered by its horizontal vehicles and walls, or a column by its vertical vehicles
    (the published database has no such layout)."""
    across = [sum(length for o, length, r, _ in vehicles if o == HORIZONTAL and r == row) for row in range(size)]
    across[goal_row] += 2
    down = [sum(length for o, length, _, c in vehicles if o == VERTICAL and c == col) for col in range(size)]
    return any(across[r] + sum(1 for w in walls if w[0] == r) >= size for r in range(size)) or max(down) >= size


def _board(size: int, goal_row: int, layout: Layout) -> Board:
    walls, vehicles, goal = layout
    cars = [Vehicle("A", HORIZONTAL, 2, goal_row, goal)]
    for k, (orientation, length, r, c) in enumerate(sorted(vehicles)):
        cars.append(Vehicle(f"V{k:02d}", orientation, length, r, c))
    return Board(size, size, cars, walls=walls, goal="A", exit="right")


def _key(board: Board) -> Layout:
    others = frozenset((v.orientation, v.length, v.row, v.col) for v in board.vehicles if v.name != board.goal)
    return (board.walls, others, board.vehicle(board.goal).col)


def _bitboards(board: Board) -> tuple[int, int]:
    h = v = 0
    for vehicle in board.vehicles:
        for r, c in board.cells_of(vehicle.name):
            if vehicle.orientation == HORIZONTAL:
                h |= 1 << (r * board.width + c)
            else:
                v |= 1 << (r * board.width + c)
    return h, v


def _plain_database(size: int, walls: int) -> list[tuple[int, Layout, int]]:
    """(moves, hardest layout, cluster size) of every interesting cluster, by plain searches."""
    goal_row = (size - 1) // 2
    distance: dict[Layout, int] = {}
    clusters: list[list[Board]] = []
    seen: set[Layout] = set()
    for layout in _layouts(size, goal_row, walls):
        if layout in seen:
            continue
        start = _board(size, goal_row, layout)
        members, queue, moves = [start], deque([start]), {start: [b for _, b in start.successors()]}
        while queue:
            for after in moves[queue.popleft()]:
                if after not in moves:
                    moves[after] = [b for _, b in after.successors()]
                    members.append(after)
                    queue.append(after)
        seen.update(_key(b) for b in members)
        clusters.append(members)
        # distances to a win: breadth-first from all won positions at once
        dist = {b: 0 for b in members if b.is_won()}
        queue = deque(dist)
        while queue:
            b = queue.popleft()
            for after in moves[b]:
                if after not in dist:
                    dist[after] = dist[b] + 1
                    queue.append(after)
        for b in members:
            distance[_key(b)] = dist.get(b, -1)
    out = []
    for members in clusters:
        moves = max(distance[_key(b)] for b in members)
        if distance[_key(members[0])] < 0:
            continue
        hardest = min((b for b in members if distance[_key(b)] == moves), key=_bitboards)
        walls_, vehicles, goal = _key(hardest)
        # minimal: every layout with one vehicle or one wall fewer is nearer a win (all are listed above)
        smaller = [(walls_, vehicles - {v}, goal) for v in vehicles] + [(walls_ - {w}, vehicles, goal) for w in walls_]
        if all(distance[s] < moves for s in smaller):
            out.append((moves, _key(hardest), len(members)))
    return out


# walls 1: 14 s; the compiled search's parts with walls 0 and 1 are compared with the Python reference
# part by part below
@pytest.mark.parametrize("walls", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_4x4_database_equals_a_plain_search_of_every_cluster(walls: int) -> None:
    expected = _plain_database(4, walls)
    lines, stats = build(Job(4, 1, (0, walls)))
    found = []
    for line in lines:
        moves, board, cluster = read_line(line)
        found.append((moves, _key(board_of(board)), cluster))
    assert len(found) == len(expected) and set(found) == set(expected)
    assert lines == sorted(lines, key=line_order)
    assert stats.clusters >= len(expected)


@needs_native
def test_4x4_python_reference_equals_the_compiled_search_part_by_part() -> None:
    job = Job(4, 1, (0, 1), distances=True)
    for part in parts(job):
        assert run_part(job, part, native=False) == run_part(job, part, native=True)


def test_distances_count_every_position_of_the_cluster() -> None:
    lines, _ = build(Job(4, 1, (0, 0), distances=True))
    for line in lines:
        moves, _, cluster = read_line(line)
        counts = [int(x) for x in line.split()[3].split(",")]
        assert len(counts) == moves + 1 and sum(counts) == cluster and all(counts)


def test_the_shards_union_is_the_whole_database() -> None:
    job = Job(4, 1, (0, 1))
    whole, _ = build(job)
    shards = {shard_of(job, board_of(read_line(line)[1])) for line in whole}
    union: set[str] = set()
    for part in shards:
        union |= set(run_part(job, part).lines)
    assert union == set(whole)
    # and the parts partition the layouts: no line twice
    assert len(set(whole)) == len(whole)


def test_a_shard_is_fixed_by_walls_and_lane_sequences() -> None:
    job = Job(6, 2, (0, 2))
    board = board_of("GBBoJKGxIoJKAAIooKDDDooooHEEFFoHoooo")
    part = shard_of(job, board)
    assert part.walls == (7,)
    assert part.rows == ((2,), (), (2,), (3,), (2, 2), ())
    assert part.cols == ((2,), (2,), (2,), (), (2,), (3,))
    # a move keeps the shard
    for _, after in board.successors():
        assert shard_of(job, after) == part


def test_boards_outside_the_database_are_refused() -> None:
    job = Job(6, 2, (0, 0))
    with pytest.raises(EnumerateError, match="walls"):
        shard_of(job, board_of("oooooxooooooAAoooooooooooooooooooooo"))
    with pytest.raises(EnumerateError, match="goal row"):
        shard_of(job, board_of("oooooooooooooooooooooooooooooooooAAo"[:36]))
    with pytest.raises(EnumerateError, match="shares the goal row"):
        shard_of(job, board_of("ooooooooooooBBAAoooooooooooooooooooo"))
    with pytest.raises(EnumerateError):
        Job(9, 4)


def test_layouts_with_a_full_lane_are_left_out_as_in_the_published_database() -> None:
    job = Job(6, 2, (0, 2))
    with pytest.raises(EnumerateError, match="row 0 of the board is full"):
        shard_of(job, board_of("BBBCCCooHDDDooHAAJooHEEJoooIFFGGGIoo"))
    with pytest.raises(EnumerateError, match="row 5 of the board is full"):  # walls count in a row
        shard_of(job, board_of("oooooo" * 2 + "AAoooo" + "oooooo" * 2 + "BBxCCx"))
    with pytest.raises(EnumerateError, match="column 0 of the board is full"):
        shard_of(job, board_of("Booooo" * 2 + "BAAooo" + "Cooooo" * 3))
    # a wall does not fill a column: this published line has vertical vehicles over five cells of
    # column 0 and a wall in the sixth
    line = "07 GxCCJKGooIJKGAAIoKHoDDDoHooEEoxooooo 362"
    assert line in run_part(job, shard_of(job, board_of(line.split()[1]))).lines
    # and no part holds a full lane
    for size in (4, 5):
        every = Job(size, Job.default_goal_row(size), (0, 1))
        for part in parts(every):
            rows, cols = lane_choices(every, part)
            assert all(sum(seq) < size for lane in cols for seq in lane)
            assert all(
                sum(seq) + sum(1 for w in part.walls if w // size == r) < size
                for r, lane in enumerate(rows)
                for seq in lane
            )


def test_a_directory_of_another_job_is_refused(tmp_path: Path) -> None:
    PartStore(str(tmp_path), Job(4, 1, (0, 0)), 4).close()
    with pytest.raises(EnumerateError, match="another database"):
        PartStore(str(tmp_path), Job(4, 1, (0, 1)), 62)


@pytest.mark.parametrize("manifest", ["[]", "null", '"x"', "NaN", "[" * 100_000])
def test_a_manifest_that_is_no_object_is_refused(tmp_path: Path, manifest: str) -> None:
    (tmp_path / "manifest.json").write_text(manifest)
    with pytest.raises(EnumerateError, match="manifest.json is not a manifest of this program: use another"):
        PartStore(str(tmp_path), Job(4, 1), 3)


def test_parts_without_a_manifest_are_not_taken_for_this_database(tmp_path: Path) -> None:
    """With manifest.json gone, a 5x5 run took the parts of a 4x4 one as its own (a database of both)."""
    build(Job(4, 1), out=str(tmp_path))
    (tmp_path / "manifest.json").unlink()
    with pytest.raises(EnumerateError, match="parts holds parts but .* has no manifest.json: they may be"):
        build(Job(5, 2), out=str(tmp_path))


def test_one_run_a_directory(tmp_path: Path) -> None:
    """A second run into the same directory removed the first one's part being written (the first then
    failed), and would take its parts for its own."""
    job = Job(4, 1, (0, 0))
    with (
        PartStore(str(tmp_path), job, len(parts(job))),
        pytest.raises(EnumerateError, match="is in use by another run .*manifest.json.lock"),
    ):
        build(job, out=str(tmp_path))
    lines, _ = build(job, out=str(tmp_path))  # free again once the first has ended
    assert lines == build(job)[0]


def test_a_directory_of_an_earlier_format_is_refused(tmp_path: Path) -> None:
    # format 1 held the layouts with a full lane: its parts are not this database's
    manifest = {"format": 1, **Job(4, 1).describe(), "parts": 4}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(EnumerateError, match="another version of the enumerator .*format 1, this one writes 2"):
        PartStore(str(tmp_path), Job(4, 1), 3)


def test_a_rerun_resumes_from_the_saved_parts(tmp_path: Path) -> None:
    job = Job(4, 1, (0, 1))
    whole, _ = build(job)
    every = parts(job)
    # half the parts done by a first run that stopped
    with PartStore(str(tmp_path), job, len(every)) as store:
        for index in range(0, len(every), 2):
            store.save(index, run_part(job, every[index]))
    ran: list[int] = []
    lines, _ = build(job, out=str(tmp_path), report=lambda p: ran.append(p.done))
    assert lines == whole
    assert len(ran) == len(every) // 2
    assert (tmp_path / "database.txt").read_text() == "".join(f"{line}\n" for line in whole)


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (lambda path: path.write_bytes(b"\xff\xfe junk"), "is not UTF-8 text: not a part of this database"),
        (lambda path: (path.unlink(), os.mkfifo(path)), "is a pipe (FIFO), not a part of this database"),
    ],
)
def test_a_part_file_that_is_no_text_is_refused_on_resume(tmp_path: Path, spoil: Any, words: str) -> None:
    """A part that is no UTF-8 text gave a traceback, a FIFO in its place waited for ever; so did a FIFO
    in the manifest's place."""
    job = Job(4, 1, (0, 0))
    build(job, out=str(tmp_path))
    spoil(tmp_path / "parts" / "000001.txt")
    with pytest.raises(EnumerateError, match=f"000001.txt {re.escape(words)}"):
        build(job, out=str(tmp_path))
    manifest = tmp_path / "manifest.json"
    manifest.unlink()
    os.mkfifo(manifest)
    with pytest.raises(EnumerateError, match=r"manifest.json is a pipe \(FIFO\), not a database's manifest"):
        build(job, out=str(tmp_path))


@pytest.mark.parametrize(
    ("job", "line", "words"),
    [
        (Job(4, 1), "05 GBBoJKGxIoJKAAIooKDDDooooHEEFFoHoooo 9", "a board of 36 cells is not one of this 4x4"),
        (Job(4, 1), "07 BBoFAAoFECCCEDDD 20 2,2,3,4,2,3,3,1", "distances where this database has none"),
        (Job(4, 1, distances=True), "07 BBoFAAoFECCCEDDD 20", "no distances field"),
        (Job(4, 1, distances=True), "07 BBoFAAoFECCCEDDD 20 2,2,3", "go to distance 2, not to MOVES 7"),
        (Job(4, 1, distances=True), "07 BBoFAAoFECCCEDDD 21 2,2,3,4,2,3,3,1", "add up to 20, not to CLUSTER 21"),
        (Job(4, 1), "07 BBoFAAoFECCCEDDD 0", "cluster 0 holds no position"),
    ],
)
def test_a_part_line_of_another_database_is_refused_on_resume(
    tmp_path: Path, job: Job, line: str, words: str
) -> None:
    """A part holding a line of another size (or with distances where the job has none) was taken on
    resume, and the merged database.txt held it beside the job's own lines."""
    build(job, out=str(tmp_path))
    part = tmp_path / "parts" / "000001.txt"
    part.write_text(part.read_text() + line + "\n")
    with pytest.raises(EnumerateError, match=f"000001.txt, line \\d+: .*{re.escape(words)}.*delete it"):
        build(job, out=str(tmp_path))


def test_a_manifest_without_a_format_is_not_taken_for_another_version(tmp_path: Path) -> None:
    """``{}`` was said to be a directory 'written by another version of the enumerator (directory format
    None ...)'."""
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(EnumerateError, match="manifest.json is not a manifest of this program"):
        PartStore(str(tmp_path), Job(4, 1), 3)


def test_a_manifest_of_another_number_of_parts_says_how_they_differ(tmp_path: Path) -> None:
    """Said 'holds another database (4x4, ...); this one is 4x4, ...' with the same words both sides."""
    PartStore(str(tmp_path), Job(4, 1), 3).close()
    with pytest.raises(EnumerateError, match="distances False, 3 parts\\); this one is .* 4 parts"):
        PartStore(str(tmp_path), Job(4, 1), 4)


_BLANK4 = (None,) * 4


@pytest.mark.parametrize(
    ("part", "words"),
    [
        (Part((99,), _BLANK4, _BLANK4), "a part's walls are cells 0 to 15 of the board, not (99,)"),
        (Part((3, 3), _BLANK4, _BLANK4), "a part's walls are distinct cells, not (3, 3)"),
        (Part((), (None,), _BLANK4), "a part of a 4x4 database gives 4 rows, not (None,)"),
        (Part((), _BLANK4, ((4,), None, None, None)), "a lane of a part is None or lengths 2 and 3 in order"),
    ],
)
@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_native)])
def test_a_part_that_is_none_of_the_job_is_refused_by_both_searches(
    part: Part, words: str, compiled: bool
) -> None:
    """The Python reference searched a wall off the board as no wall and printed lines, where the
    compiled search refused it; a part with too few lanes was an IndexError in both."""
    job = Job(4, 1, (0, 2))
    with pytest.raises(EnumerateError, match=re.escape(words)):
        run_part(job, part, native=compiled)
    with pytest.raises(EnumerateError, match=re.escape(words)):  # before any part runs
        build(job, only=[*parts(job)[:2], part])


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: build(Job(4, 1), workers="2"), "workers must be a whole number, not str"),
        (lambda: build(Job(4, 1), workers=2.5), "workers must be a whole number, not float"),
        (lambda: build(Job(4, 1), only=[1]), "part must be a Part, not int"),
        (lambda: build(Job(4, 1), scheduler=8786), "scheduler must be a Dask scheduler's address"),
        (lambda: Job(4, 1, (0, 0), "yes"), "distances must be True or False, not str"),  # type: ignore[arg-type]
        (lambda: shard_of(Job(4, 1), "BBoFAAoFECCCEDDD"), "board must be a Board, not str"),
        (lambda: board_of(5), "board_text must be a str, not int"),
        (lambda: read_line(5), "text must be a str, not int"),
    ],
)
def test_library_arguments_of_the_wrong_type_are_rushhour_errors(call: Any, words: str) -> None:
    """These were TypeError, AttributeError or IndexError; Job(distances='yes') went into the manifest."""
    with pytest.raises(RushHourError, match=re.escape(words)):
        call()


def test_part_type_is_a_value() -> None:
    part = Part((), ((2,),), ((),))
    assert part == Part((), ((2,),), ((),)) and hash(part) == hash(Part((), ((2,),), ((),)))


def test_all_layouts_of_the_plain_search_are_distinct() -> None:
    layouts = _layouts(4, 1, 1)
    assert len(layouts) == len(set(layouts))
    assert all(len(w) <= 1 for w, _, _ in layouts)
    # every layout is a legal board
    for layout in itertools.islice(layouts, 0, None, 97):
        _board(4, 1, layout)


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_native)])
def test_more_pieces_than_letters_is_refused_by_both_searches(compiled: bool) -> None:
    job = Job(6, 2, (28, 28))
    part = shard_of(job, board_of("xxxxxoxxxxxoxxxAAoxxxxxoxxxxxoxxxxxo"))  # no row full
    with pytest.raises(EnumerateError, match="more vehicles and walls than letters"):
        run_part(job, part, native=compiled)


def test_a_part_left_half_written_by_a_killed_run_is_dropped(tmp_path: Path) -> None:
    job = Job(4, 1, (0, 0))
    PartStore(str(tmp_path), job, len(parts(job))).close()
    (tmp_path / "parts" / "000002.txt.4242.tmp").write_text("# part 2 shards=1\n07 BBB")
    lines, _ = build(job, out=str(tmp_path))
    assert lines == build(job)[0]
    assert sorted(p.name for p in (tmp_path / "parts").iterdir()) == [f"{i:06d}.txt" for i in range(3)]
    with PartStore(str(tmp_path), job, len(parts(job))) as store:
        assert store.load().keys() == {0, 1, 2}


# --- whole 6x6 shards against an independent search over Board.successors -----------------------------
def _lane_placements(size: int, blocked: frozenset[int], seq: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to put a lane's vehicles, in this order, on its cells but the ``blocked`` ones: the
    first cell of each."""
    if not seq:
        return [()]
    out = []
    for start in range(size - seq[0] + 1):
        if not blocked & set(range(start, start + seq[0])):
            later = frozenset(range(start + seq[0])) | blocked
            out += [(start, *rest) for rest in _lane_placements(size, later, seq[1:])]
    return out


def _shard_layouts(size: int, goal_row: int, part: Part) -> list[Board]:
    """Every position of one shard (its walls and the sequences of every lane), won or not."""
    walls = frozenset(divmod(cell, size) for cell in part.walls)
    lanes: list[list[list[Vehicle]]] = []
    for row, seq in enumerate(part.rows):
        assert seq is not None
        blocked = frozenset(c for r, c in walls if r == row)
        lanes.append(
            [
                [
                    Vehicle("A" if row == goal_row else f"H{row}{k}", HORIZONTAL, length, row, col)
                    for k, (length, col) in enumerate(zip(seq, starts, strict=True))
                ]
                for starts in _lane_placements(size, blocked, seq)
            ]
        )
    for col, seq in enumerate(part.cols):
        assert seq is not None
        lanes.append(
            [
                [Vehicle(f"V{col}{k}", VERTICAL, length, row, col) for k, (length, row) in enumerate(zip(seq, starts, strict=True))]
                for starts in _lane_placements(size, frozenset(), seq)
            ]
        )
    boards = []
    for choice in itertools.product(*lanes):
        vehicles = [v for lane in choice for v in lane]
        cells = [_cell_of(v, t) for v in vehicles for t in range(v.length)] + list(walls)
        if len(cells) == len(set(cells)):
            boards.append(Board(size, size, vehicles, walls=walls, goal="A", exit="right"))
    return boards


def _cell_of(v: Vehicle, t: int) -> tuple[int, int]:
    return (v.row, v.col + t) if v.orientation == HORIZONTAL else (v.row + t, v.col)


def _distances(members: list[Board], moves: dict[Board, list[Board]]) -> dict[Board, int]:
    """Each position's distance to a win, breadth-first from every won one (unreachable: absent)."""
    dist = {b: 0 for b in members if b.is_won()}
    queue = deque(dist)
    while queue:
        b = queue.popleft()
        for after in moves[b]:
            if after not in dist:
                dist[after] = dist[b] + 1
                queue.append(after)
    return dist


def _wins_within(board: Board, limit: int) -> bool:
    """Whether ``board`` is won within ``limit`` moves."""
    layer, seen = [board], {board}
    for _ in range(limit + 1):
        if any(b.is_won() for b in layer):
            return True
        fresh = {a for b in layer for _, a in b.successors()} - seen
        seen |= fresh
        layer = list(fresh)
    return False


def _without(board: Board, name: str | None = None, wall: tuple[int, int] | None = None) -> Board:
    vehicles = [v for v in board.vehicles if v.name != name]
    return Board(board.width, board.height, vehicles, walls=board.walls - {wall}, goal="A", exit="right")


def _independent_shard(size: int, goal_row: int, part: Part) -> list[tuple[int, Layout, int]]:
    """(moves, hardest layout, cluster size) of every cluster of the shard that makes a database line,
    by plain searches over the reference rules."""
    out, seen = [], set()
    for start in _shard_layouts(size, goal_row, part):
        if start in seen:
            continue
        members, moves = [start], {start: [b for _, b in start.successors()]}
        for b in members:
            for after in moves[b]:
                if after not in moves:
                    moves[after] = [a for _, a in after.successors()]
                    members.append(after)
        seen.update(members)
        dist = _distances(members, moves)
        if not dist:
            continue
        most = max(dist.values())
        hardest = min((b for b in members if dist[b] == most), key=_bitboards)
        smaller = [_without(hardest, name=v.name) for v in hardest.vehicles if v.name != "A"]
        smaller += [_without(hardest, wall=w) for w in hardest.walls]
        if all(_wins_within(s, most - 1) for s in smaller):
            out.append((most, _key(hardest), len(members)))
    return out


# shards of published lines where clusters with a win are left out as not minimal (the ones a search
# that forgot a minimality check would add), one with walls, one with a single cluster
SHARDS = [
    "ooooooooGxIJAAGoIJoFxDDJoFoHoooFoHEE",  # 7 clusters with a win, 1 line
    pytest.param("oHIJBBoHIJKooHAAKLooxDDLEEFFoLGGoooo", marks=pytest.mark.slow),  # 8 clusters, 1 line
    "HBBBooHooJCCHAAJoKIxEExKIoooGGoooooo",  # 4 clusters, 2 walls
    "oEBBBooEooFooEAAFooooxDDoooooooooooo",  # 3 clusters
    "oooooEooooxEAAooDEooooDoooCCCooooooo",  # 1 cluster
]


@pytest.mark.parametrize("board", SHARDS)
def test_a_6x6_shard_equals_an_independent_search_line_for_line(board: str) -> None:
    """The whole shard, not one line of it: a line too many (a cluster that is not minimal, or whose
    hardest position is not the hardest) fails here as well as a line missing."""
    job = Job(6, 2, (0, 2))
    part = shard_of(job, board_of(board))
    expected = sorted(_independent_shard(6, 2, part))
    result = run_part(job, part)
    found = sorted((moves, _key(board_of(b)), cluster) for moves, b, cluster in map(read_line, result.lines))
    assert found == expected and found
    assert python_part(job, part).lines == result.lines  # the reference in Python, line for line too
    if board != "oooooEooooxEAAooDEooooDoooCCCooooooo":
        assert result.stats.clusters > len(found)  # some clusters with a win were left out
