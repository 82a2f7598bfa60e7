"""The library's front door: the few functions a program needs, re-exported by :mod:`rushhour`.

>>> import rushhour
>>> board = rushhour.load("classic:1")
>>> solution = rushhour.solve(board)
>>> solution.length, solution.optimal, solution.moves
(4, True, (Move('F', +3), Move('C', +1), Move('D', -1), Move('A', +4)))
>>> rushhour.Board.from_text(board.to_text("fogleman")) == board
True

Importing this module is cheap: the solvers, the generator and the enumerator are imported when a
function that needs them is first called.  Every error is a :class:`~rushhour.errors.RushHourError`.
docs/library.md is the guide.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from rushhour.board import Board
from rushhour.errors import expect, expect_whole
from rushhour.text import plural

if TYPE_CHECKING:
    from rushhour.database import PartStats
    from rushhour.generator import Puzzle
    from rushhour.search import Analysis, Solution
    from rushhour.search.watch import SearchProgress

# --- the public functions ------------------------------------------------------------------------
def load(name_or_path: str) -> Board:
    """The board that a file, an inline board or a built-in name stands for (what ``BOARD`` means on
    the command line: ``classic:12``, ``boards/classic.txt:3``, ``AA...B/.....B/...``).

    >>> board = load("classic:12")
    >>> board.width, board.height, board.goal
    (6, 6, 'A')
    >>> load("AA.B/...B/CC../....").names
    ('A', 'B', 'C')
    """
    from rushhour.levels import resolve_board

    expect(name_or_path, str, "name_or_path", "a str (a built-in name, a file or an inline board)")
    return resolve_board(name_or_path).board


def as_board(board: Board | str) -> Board:
    """``board`` itself, or the board a name stands for (:func:`load`): what every function taking a
    board takes."""
    expect(board, (Board, str), "board", "a Board or a str (a built-in name, a file or an inline board)")
    return load(board) if isinstance(board, str) else board


def solve(
    board: Board | str,
    *,
    engine: str | None = None,
    metric: str = "moves",
    max_states: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    heuristic: str = "blocked",
    max_moves: int | None = None,
    max_memory: int | Literal["auto"] | None = "auto",
    progress: Callable[[SearchProgress], None] | None = None,
) -> Solution:
    """Solve ``board`` (a :class:`Board`, or a name for :func:`load`); the answer is replayed by the
    reference rules before it is returned.

    ``engine`` defaults to ``portfolio``, as ``rushhour solve``: on boards larger than 6x6 the
    frontier passes, improve and SAT planning run together, in worker processes, until their bounds
    meet; elsewhere it is ``bfs`` (and the answer names that engine).  The others: ``bfs`` or
    ``astar`` (optimal, in this process), ``sat`` (SAT planning, optimal up to ``max_moves``),
    ``random`` or ``improve`` (``seed``); ``metric`` ``moves`` (slide any distance)
    or ``steps`` (one cell).  An unsolvable board gives ``solved`` False with ``optimal`` True.  A
    search stopped by ``max_states`` or ``time_limit`` raises
    :class:`~rushhour.errors.LimitReachedError` (with ``explored``, ``lower_bound`` and ``best``);
    so does a search that grows the process by ``max_memory`` bytes (``"auto"``: half of the memory
    available when the package was loaded; None: no bound).  ``progress`` is called now and then with
    a :class:`~rushhour.search.watch.SearchProgress` record while the search runs.

    >>> solution = solve("AA.B/...B/CC../....")
    >>> solution.moves, solution.length, solution.steps, solution.optimal
    ((Move('B', +1), Move('A', +2)), 2, 3, True)
    >>> solve("classic:1", metric="steps").length
    9
    """
    from rushhour.search import DEFAULT_ENGINE
    from rushhour.search import solve as run

    return run(
        as_board(board),
        engine=DEFAULT_ENGINE if engine is None else engine,
        metric=metric,
        max_states=max_states,
        time_limit=time_limit,
        seed=seed,
        heuristic=heuristic,
        max_moves=max_moves,
        progress=progress,
        **_memory_bound(max_memory),
    )


def analyze(
    board: Board | str,
    *,
    metric: str = "moves",
    max_states: int | None = None,
    time_limit: float | None = None,
    max_memory: int | Literal["auto"] | None = "auto",
    progress: Callable[[SearchProgress], None] | None = None,
) -> Analysis:
    """Explore every position reachable from ``board``: how many, how many are won, each one's
    distance to the nearest win, and the hardest one.  A set larger than ``max_states`` positions, or
    than ``time_limit`` seconds or ``max_memory`` bytes allow (as :func:`solve`), raises
    :class:`~rushhour.errors.LimitReachedError`.  ``progress`` is called now and then with a
    :class:`~rushhour.search.watch.SearchProgress` record (engine ``analysis``): the positions found,
    then the positions given their distance to the nearest win.

    >>> analysis = analyze("AA.B/...B/CC../....")
    >>> analysis.cluster_size, analysis.won_count, analysis.start_distance, analysis.histogram
    (18, 4, 2, {0: 4, 1: 8, 2: 4, 3: 2})
    """
    from rushhour.search import analyze as run

    return run(
        as_board(board),
        metric=metric,
        max_states=max_states,
        time_limit=time_limit,
        progress=progress,
        **_memory_bound(max_memory),
    )


def _memory_bound(max_memory: object) -> dict[str, Any]:
    """The keyword that passes ``max_memory`` on to the search: none for ``"auto"`` (the search's own
    default), else the bound, refused by name unless it is a whole number of bytes or None."""
    if isinstance(max_memory, str) and max_memory == "auto":
        return {}
    if max_memory is not None:
        what = "a whole number of bytes or None (or 'auto', the default)"
        expect_whole(max_memory, "max_memory", what=what)
    return {"max_memory": max_memory}


def generate_puzzles(
    count: int = 1,
    *,
    width: int = 6,
    height: int = 6,
    min_moves: int | None = None,
    max_moves: int | None = None,
    vehicles: tuple[int, int] | None = None,
    trucks: tuple[int, int] | None = None,
    walls: tuple[int, int] = (0, 0),
    method: str | None = None,
    seed: int = 0,
    jobs: int = 1,
    max_tries: int | None = None,
    time_limit: float | None = None,
    wrap: bool = False,
    max_vehicles: int | None = None,
) -> list[Puzzle]:
    """``count`` new puzzles of ``min_moves`` to ``max_moves`` optimal moves, the same for the same
    ``seed`` on every machine (fewer when ``max_tries`` or ``time_limit`` runs out first).  Also
    called as ``rushhour.generate(...)``; :mod:`rushhour.generator` holds the generator itself.
    Each puzzle's solution is proven optimal.  ``min_moves`` and ``method`` default as the command's
    (10 moves, ``anneal``); ``wrap`` makes wrap-around boards; ``max_vehicles`` caps
    every puzzle's vehicles (by default the 60 names of the grid format; 26 keeps the puzzles
    writable in the Fogleman format, as ``rushhour generate --format fogleman``).

    >>> [puzzle] = generate_puzzles(1, min_moves=4, max_moves=6, seed=3)
    >>> 4 <= puzzle.length <= 6, solve(puzzle.board).length == puzzle.length
    (True, True)
    """
    from rushhour.generator import DEFAULT_METHOD, DEFAULT_MIN_MOVES, MAX_VEHICLES, Generator, Settings

    settings = Settings(
        width=width,
        height=height,
        min_moves=DEFAULT_MIN_MOVES if min_moves is None else min_moves,
        max_moves=max_moves,
        vehicles=vehicles,
        trucks=trucks,
        walls=walls,
        method=DEFAULT_METHOD if method is None else method,
        seed=seed,
        wrap=wrap,
        max_vehicles=MAX_VEHICLES if max_vehicles is None else max_vehicles,
    )
    run = Generator(settings).run(count, jobs=jobs, max_tries=max_tries, time_limit=time_limit)
    return list(run)


class Database:
    """The result of :func:`enumerate_database`: the database lines (``MOVES BOARD CLUSTER``, hardest
    first) and what was searched."""

    def __init__(self, size: int, lines: Sequence[str], stats: PartStats) -> None:
        self.size = size
        self.lines = tuple(lines)
        self.stats = stats

    def __len__(self) -> int:
        return len(self.lines)

    def __repr__(self) -> str:
        return f"<Database {self.size}x{self.size}: {plural(len(self.lines), 'puzzle')}>"

    def puzzles(self) -> list[tuple[int, Board, int]]:
        """Every line as ``(moves, board, cluster size)``."""
        from rushhour.database import board_of, read_line

        out = []
        for number, line in enumerate(self.lines, start=1):
            moves, text, cluster = read_line(line, None, number)
            out.append((moves, board_of(text), cluster))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the size, the lines and the search figures."""
        return {"size": self.size, "lines": list(self.lines), **self.stats._asdict()}


def enumerate_database(
    size: int,
    *,
    goal_row: int | None = None,
    walls: tuple[int, int] = (0, 0),
    distances: bool = False,
    workers: int = 1,
    out: str | None = None,
) -> Database:
    """Every interesting puzzle of a ``size`` x ``size`` board, 3 to 8 (what ``rushhour enumerate``
    writes): one line per cluster whose hardest position is minimal, hardest first.  ``goal_row`` is the
    goal car's row (by default ``(size - 1) // 2``), ``walls`` the least and most walls (a pair),
    ``distances`` adds each line's positions at each distance from a win, ``workers`` runs the parts in
    that many processes (the same lines), and ``out`` names a folder (made when missing) where the parts
    are saved as they finish, a run resumes from the parts found there, and ``database.txt`` is written.

    >>> database = enumerate_database(4)
    >>> len(database), database.lines[0]
    (32, '07 BBBFEAAFEoCCEDDD 8')
    >>> moves, board, cluster = database.puzzles()[0]
    >>> solve(board).length == moves
    True
    """
    from rushhour.database import Job, build

    row = Job.default_goal_row(size) if goal_row is None else goal_row
    job = Job(size, row, tuple(walls) if isinstance(walls, list) else walls, distances)
    lines, stats = build(job, out=out, workers=workers)
    return Database(size, lines, stats)


__all__ = [
    "Database",
    "analyze",
    "enumerate_database",
    "generate_puzzles",
    "load",
    "solve",
]
