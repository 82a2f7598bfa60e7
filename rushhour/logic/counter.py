"""The exact model counter behind :mod:`rushhour.logic.counting`, on one rules encoding: Ganak
(``pyganak``, from the package index) run on the encoding's CNF, with a claim's clauses added.

This module works on a :class:`~rushhour.logic.encoding.RulesEncoding` it is handed and imports the
encoding only for typing, so that the encoding's own ``count_solutions`` and ``likelihood`` methods can
call it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from rushhour.errors import RushHourError, expect
from rushhour.logic import notation as fm

_T = TypeVar("_T")

if TYPE_CHECKING:
    from rushhour.logic.encoding import RulesEncoding

__all__ = ["MAX_CELLS", "count_rules", "counter_name", "odds_rules"]

#: the largest board, in cells, counted: 6x6 counts in at most 12.2 s on the development machine, 6x7 and
#: 7x6 in under a minute, 7x7 in minutes (docs/benchmarks.md, "Logic: proving and counting")
MAX_CELLS = 42


def check_size(width: int, height: int) -> None:
    """Refuse a shape larger than :data:`MAX_CELLS` cells, with the reason."""
    cells = width * height
    if cells > MAX_CELLS:
        article = "an" if width in (8, 11) else "a"  # an 8x6, an 11x3
        raise RushHourError(
            f"{article} {width}x{height} board has {cells} cells: exact counts go up to {MAX_CELLS} "
            "cells (7x6 or 6x7); larger shapes take the counter minutes to hours"
        )


def count_rules(rules: RulesEncoding, claim: str | fm.Formula | None = None, *, walls: bool = False) -> int:
    """The exact number of models of ``rules`` with ``claim`` added (walls only if ``walls``)."""
    check_size(rules.shape.width, rules.shape.height)
    expect(walls, bool, "walls", "True or False")
    return _count(rules, _clauses(rules, claim, walls))


def odds_rules(
    rules: RulesEncoding,
    claim: str | fm.Formula | None,
    formulas: list[str | fm.Formula],
    *,
    walls: bool = False,
) -> tuple[int, list[Fraction]]:
    """The count of :func:`count_rules` and the likelihood of each formula among its models (every
    formula is read before anything is counted, so a mistake is reported at once)."""
    check_size(rules.shape.width, rules.shape.height)
    expect(walls, bool, "walls", "True or False")
    expect(formulas, (list, tuple), "formulas", "a list of formulas")
    read = [fm.read(f, rules, "likelihood formula", "formula") for f in formulas]
    base = _clauses(rules, claim, walls)
    total = _count(rules, base)
    if read and total == 0:
        raise RushHourError("no position satisfies the rules and the claim: a likelihood is undefined")
    odds = []
    for formula in read:
        extra = _asserted(rules, formula, len(rules.names) + 1 + _aux(base, rules))
        odds.append(Fraction(_count(rules, base + extra), total))
    return total, odds


def counter_name() -> str:
    """The model counter and its version: ``ganak (pyganak 2.8.0)``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"ganak (pyganak {version('pyganak')})"
    except PackageNotFoundError:  # pragma: no cover - a dependency of the package
        return "ganak"


def _clauses(rules: RulesEncoding, claim: str | fm.Formula | None, walls: bool) -> list[list[int]]:
    out = [list(c) for c in rules.clauses]
    if not walls:
        cells = [(r, c) for r in range(rules.shape.height) for c in range(rules.shape.width)]
        out.extend([-rules.state_var("Wall", cell)] for cell in cells)
    if claim is not None:
        out.extend(_asserted(rules, claim, len(rules.names) + 1))
    return out


def _aux(clauses: list[list[int]], rules: RulesEncoding) -> int:
    """How many variables past the encoding's the clauses use (a claim's Tseitin variables)."""
    top = max((abs(lit) for clause in clauses for lit in clause), default=0)
    return max(0, top - len(rules.names))


def _asserted(rules: RulesEncoding, claim: str | fm.Formula, first_free: int) -> list[list[int]]:
    """Clauses that assert ``claim`` (a formula or notation text), new variables from ``first_free``."""
    formula = fm.read(claim, rules)
    if isinstance(formula, fm.Const):
        return [] if formula.value else [[1], [-1]]
    extra, root = fm.to_clauses(formula, rules.ids, first_free)
    return [*extra, [root]]


def _count(rules: RulesEncoding, clauses: list[list[int]]) -> int:
    """Ganak's exact count of the models of ``clauses`` over the encoding's variables and the claim's."""
    try:
        from pyganak import Counter
    except ImportError as err:  # pragma: no cover - a dependency of the package
        raise RushHourError("exact counting needs pyganak: pip install pyganak") from err
    units = {c[0] for c in clauses if len(c) == 1}
    if any(-lit in units for lit in units):  # a claim false by itself
        return 0
    counter = Counter()
    counter.new_vars(len(rules.names) + _aux(clauses, rules))
    counter.add_clauses(clauses)
    with _quiet():
        return int(_interruptible(counter.count))


def _interruptible(work: Callable[[], _T]) -> _T:
    """``work()`` (Ganak's count, which lets go of the interpreter while it counts) on a thread of its
    own, waited for here, so that Ctrl-C stops the wait at once (it ran on for many seconds, to the end
    of the count): the count is then left to the thread, which ends with the process."""
    answer: list[_T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(work())
        except BaseException as err:  # handed to the caller
            failed.append(err)

    thread = threading.Thread(target=run, name="rushhour-count", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.1)
    if failed:
        raise failed[0]
    return answer[0]


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Ganak writes a line (``c o ...``) on the standard output for some formulas: send the process's
    file descriptor 1 to the null device while it counts."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no standard output to protect
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
