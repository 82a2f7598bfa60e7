"""The reference move generator against independent figures: Fogleman's database.

From each start, a breadth-first search over `Board.successors` must reach exactly CLUSTER positions,
and the nearest won position must be exactly MOVES moves away.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

import pytest

from rushhour.board import Board
from rushhour.formats.fogleman import parse_line

DATA = Path(__file__).parent / "data"


def cluster_and_distance(board: Board, metric: str = "moves") -> tuple[int, int]:
    seen = {board.state: 0}
    queue = deque([board])
    nearest = -1
    while queue:
        here = queue.popleft()
        d = seen[here.state]
        if nearest < 0 and here.is_won():
            nearest = d
        for _, after in here.successors(metric):
            if after.state not in seen:
                seen[after.state] = d + 1
                queue.append(after)
    return len(seen), nearest


def load(name: str) -> list[tuple[int, str, int]]:
    rows = []
    for line in (DATA / name).read_text().splitlines():
        moves, board, cluster = line.split()
        rows.append((int(moves), board, int(cluster)))
    return rows


@pytest.mark.parametrize(("moves", "board", "cluster"), load("fogleman_slice_core.txt"))
def test_reachable_set_and_distance_match_the_database(moves: int, board: str, cluster: int) -> None:
    start, _ = parse_line(board)
    assert cluster_and_distance(start) == (cluster, moves)


def test_step_metric_reaches_the_same_set() -> None:
    # one-cell steps reach exactly the positions that slides reach
    _, board, cluster = load("fogleman_slice_core.txt")[-1]
    size, distance = cluster_and_distance(parse_line(board)[0], "steps")
    assert size == cluster and distance >= 1


def reference_sample() -> Path:
    """The full reference sample: ``$RUSHHOUR_SAMPLE``, else ``../shared/data`` beside the checkout."""
    given = os.environ.get("RUSHHOUR_SAMPLE")
    if given:
        return Path(given)
    return Path(__file__).resolve().parents[2] / "shared" / "data" / "fogleman_sample.txt"


@pytest.mark.slow
def test_whole_sample_clusters() -> None:
    sample = reference_sample()
    if not sample.exists():
        pytest.skip(f"the full reference sample is not at {sample} (set RUSHHOUR_SAMPLE)")
    for line in sample.read_text().splitlines()[:2000]:
        moves, board, cluster = line.split()
        assert cluster_and_distance(parse_line(board)[0]) == (int(cluster), int(moves)), board
