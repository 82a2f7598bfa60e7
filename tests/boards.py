"""The small levels the game tests play, as level files (grid format) hold them.

``TINY``, whose name is tiny, is a 5x5 board won in 2 moves:

    .....
    ..B..        B-1 clears A's row, then A+3 wins.
    AAB..        The options at the start are B-1, C-1, C-2, C+1.
    ..CC.
    .....

``SECOND`` is a 5x5 board won in 1 move (A+2); ``TINY + "\\n" + SECOND`` is a file of two levels.
"""

from pathlib import Path

#: the data the tests read, each file with its provenance (tests/data/README.md)
DATA = Path(__file__).parent / "data"

TINY = "# name: tiny\n# moves: 2\n.....\n..B..\nAAB..\n..CC.\n.....\n"
SECOND = "# name: second\n# moves: 1\n.....\n.....\n.AA..\n.....\n.....\n"
