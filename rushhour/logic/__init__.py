"""Rush Hour as propositional logic.

* :mod:`rushhour.logic.encoding`: the bauhaus encoding of the rules of a board shape, compiled to CNF;
* :mod:`rushhour.logic.oracle`: the SAT move oracle (``legal_moves``, ``MoveOracle``, explanations);
* :mod:`rushhour.logic.theorems`: statements about the rules, proved or refuted;
* :mod:`rushhour.logic.planner`: optimal plans by bounded SAT planning;
* :mod:`rushhour.logic.sat`: the SAT solvers (python-sat, or the kissat binary as a fallback).

Nothing is imported here, so that importing one of them does not load the others.
"""
