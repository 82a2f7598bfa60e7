"""The complete database of a board size: every interesting puzzle, as in Fogleman's published one.

Definitions (docs/enumerate.md has the proofs):

* A *layout* places vehicles of lengths 2 and 3 (horizontal or vertical) and 1x1 walls on the board;
  the goal car ``A`` (horizontal, length 2) is the only horizontal vehicle of the goal row and leaves
  through its right edge.  A position is *won* when the goal car stands against the exit.
* A *cluster* is a set of positions reachable from each other.  It gives one database line when a won
  position is reachable and its *hardest* position (the farthest from a win; ties by the least pair
  (horizontal vehicles' cells, vertical vehicles' cells) of bitboards with bit ``row * width + col``)
  is *minimal*: removing any vehicle but the goal car, or any wall, gives a shorter optimal solution.
* Moves never change a *shard*: the walls, each row's lengths of horizontal vehicles in order and each
  column's of vertical vehicles.  A *part* is the unit of work: the shards with given walls and given
  sequences in the first rows (:func:`parts`).  Parts are independent; :mod:`.parallel` runs them.
* Every cluster with a won position holds a *seed*: a won position where no other vehicle can move
  left or up by one cell.  A part searches clusters only from its seeds, so it never explores a
  cluster without a win.

The compiled search (rushhour/search/_clusters.c) and :func:`~rushhour.database.reference.python_part`
do the same work; the tests compare them.  A line is ``MOVES BOARD CLUSTER`` in the fogleman format,
plus the number of positions at each distance from a win with ``distances``.

The modules, bottom to top: :mod:`.definitions` (jobs, parts, shards, lanes), :mod:`.lines` (the line
format's order and files; its parser and writer are :mod:`rushhour.formats.fogleman`'s),
:mod:`.reference` (the search in Python), :mod:`.part` (one part, compiled or Python), :mod:`.store`
(the directory and its manifest), :mod:`.parallel` (a process pool or Dask) and :mod:`.build`.
"""

from rushhour.database.build import BuildProgress, build, total
from rushhour.database.definitions import (
    GOAL_LENGTH,
    LENGTHS,
    MAX_SIDE,
    MIN_SIDE,
    STATS_FIELDS,
    EnumerateError,
    Job,
    Part,
    PartResult,
    PartStats,
    Seq,
    lane_choices,
    parts,
    sequences,
    shard_of,
    split_rows,
)
from rushhour.database.lines import board_of, line_order, merge, read_database, read_line
from rushhour.database.part import run_part
from rushhour.database.reference import python_part
from rushhour.database.store import PartStore

__all__ = [
    "GOAL_LENGTH",
    "LENGTHS",
    "MAX_SIDE",
    "MIN_SIDE",
    "STATS_FIELDS",
    "BuildProgress",
    "EnumerateError",
    "Job",
    "Part",
    "PartResult",
    "PartStats",
    "PartStore",
    "Seq",
    "board_of",
    "build",
    "lane_choices",
    "line_order",
    "merge",
    "parts",
    "python_part",
    "read_database",
    "read_line",
    "run_part",
    "sequences",
    "shard_of",
    "split_rows",
    "total",
]
