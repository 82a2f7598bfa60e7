"""The numbers the Python search and the compiled one (``rushhour.search._native``) share, defined here
once.

setup.py reads this file (without importing the package) and hands every constant below to the C
compiler as a macro of the same name; the C sources define none of them.  The built module exports
them back, and :func:`rushhour.search.native_spec.compatible` refuses, at import, a module built with
other numbers (the Python search is then used).  Only whole-number assignments belong here.
"""

#: the version of the record the compiled searches read (:class:`~rushhour.search.native_spec.NativeSpec`)
#: and of how they call back (3: ``poll(stage, count)``, where 2 called ``poll()``)
SPEC_VERSION = 3
#: positions expanded between two checks of the limits (time, positions, memory, Ctrl-C)
BATCH = 512
#: milliseconds between two calls of a frontier pass's ``poll`` callable (its caller's news, while it runs)
POLL_MILLISECONDS = 100
#: the frontier search's status when its ``poll`` callable answered true (asked it to stop)
STOPPED_BY_POLL = 4
#: the stage a compiled search names when it calls ``poll(stage, count)``: the positions found (the
#: breadth-first search, the frontier passes, the cluster analysis's first pass), then the positions
#: given their distance to a win (the analysis's second pass)
STAGE_FOUND = 0
STAGE_DISTANCES = 1
#: moves of one position the compiled cluster analysis gathers before it looks them up in its table
#: (their table slots are fetched from memory together: rushhour/search/_analysis.c)
ANALYSIS_CHUNK = 64
#: threads a frontier pass expands a layer on, at most (:func:`rushhour.search.frontier.pass_threads`)
FRONTIER_THREADS = 16
#: bits of one vehicle's offset in a search key (:data:`rushhour.search.tables.BITS`)
KEY_FIELD_BITS = 4
#: what the two-moves-from-a-win table holds for a goal key: nothing, one winning slide, two slides
#: of the goal, or the lane cells that would each, once free, let the goal win
NEAR_NONE = 0
NEAR_ONE = 1
NEAR_TWO = 2
NEAR_MAYBE = 3
