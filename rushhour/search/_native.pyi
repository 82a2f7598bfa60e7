# The compiled breadth-first search (_native.c); see rushhour.search.bfs.
def shortest(
    spec: tuple[object, ...], start: tuple[int, ...], max_states: int, seconds: float
) -> tuple[int, int, list[tuple[int, ...]] | None]: ...
def layers(
    spec: tuple[object, ...], sources: list[tuple[int, ...]], max_states: int, seconds: float
) -> tuple[int, int, list[list[int]] | None]: ...
