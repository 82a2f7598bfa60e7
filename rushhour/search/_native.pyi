from collections.abc import Callable

from rushhour.search.native_spec import NativeSpec

# The record the searches read (rushhour.search.native_spec) and the constants shared with Python.
SPEC_VERSION: int
SPEC_FIELDS: tuple[str, ...]
BATCH: int
POLL_MILLISECONDS: int
STOPPED_BY_POLL: int
STAGE_FOUND: int
STAGE_DISTANCES: int
KEY_FIELD_BITS: int
NEAR_NONE: int
NEAR_ONE: int
NEAR_TWO: int
NEAR_MAYBE: int

# The compiled breadth-first search (_native.c); see rushhour.search.bfs.
def shortest(
    spec: NativeSpec,
    start: tuple[int, ...],
    max_states: int,
    seconds: float,
    poll: Callable[[int, int], object] | None = None,
) -> tuple[int, int, list[tuple[int, ...]] | None]: ...
def layers(
    spec: NativeSpec, sources: list[tuple[int, ...]], max_states: int, seconds: float
) -> tuple[int, int, list[list[int]] | None]: ...

# The cluster analysis (_analysis.c); see rushhour.search.analysis.
def analyze(
    spec: NativeSpec,
    start: tuple[int, ...],
    max_states: int,
    seconds: float,
    edge_bytes: int,
    poll: Callable[[int, int], object] | None = None,
) -> tuple[
    int,
    int,
    int | None,
    tuple[int, ...] | None,
    tuple[int, ...] | None,
    int | None,
    tuple[int, ...] | None,
]: ...

# The cluster search of rushhour.database (_clusters.c; its limits and record in _clusters.h).
ENUM_MAX_SIDE: int
ENUM_MAX_VEHICLES: int
ENUM_STATS_FIELDS: tuple[str, ...]

def clusters(
    width: int,
    height: int,
    goal_row: int,
    walls: tuple[int, ...],
    rows: tuple[tuple[tuple[int, ...], ...], ...],
    columns: tuple[tuple[tuple[int, ...], ...], ...],
    distances: bool,
) -> tuple[str, tuple[int, ...]]: ...

# The frontier search (_frontier.c); see rushhour.search.frontier.
def frontier(
    spec: NativeSpec,
    start: tuple[int, ...],
    max_states: int,
    seconds: float,
    every: bool = False,
    bound: int = 0,
    poll: Callable[[int, int], object] | None = None,
    threads: int = 1,
) -> tuple[int, int, list[tuple[int, ...]] | None, int, int]: ...
