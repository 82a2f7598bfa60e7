"""The SAT solvers behind the logic layer.

python-sat (an incremental solver kept alive, facts passed as assumptions) is the default.  Without it,
nnf's kissat backend is used if a ``kissat`` binary can be found (on the PATH or shipped with nnf):
every query then runs the binary once, which is much slower, and a warning says so once.  Without
either, a :class:`~rushhour.errors.SolverError` says what to install.

``RUSHHOUR_SAT`` chooses explicitly: ``auto`` (the default), ``pysat`` or ``kissat``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import threading
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rushhour.errors import LimitReachedError, SolverError

#: the python-sat solver used: CaDiCaL 1.5.3 (incremental, assumptions, unsatisfiable cores)
PYSAT_SOLVER = "cadical153"
#: the python-sat solver of searches that must stop at a time limit (CaDiCaL cannot be interrupted)
INTERRUPTIBLE = "glucose4"
BACKENDS = ("auto", "pysat", "kissat")
ENV = "RUSHHOUR_SAT"

_warned = False


def pysat_available() -> bool:
    try:
        return importlib.util.find_spec("pysat.solvers") is not None
    except (ImportError, ValueError):
        return False


def kissat_binary() -> str | None:
    """The kissat executable nnf's backend would run, if there is one."""
    found = shutil.which("kissat")
    if found:
        return found
    spec = importlib.util.find_spec("nnf")
    if spec is None or spec.origin is None:
        return None
    shipped = Path(spec.origin).parent / "bin" / "kissat"
    if shipped.is_file() and os.access(shipped, os.X_OK):
        return str(shipped)
    return None


def choose_backend(requested: str | None, *, have_pysat: bool, kissat: str | None) -> str:
    """Which backend to use: ``pysat`` or ``kissat``.  ``requested`` None reads ``RUSHHOUR_SAT``."""
    if requested is None:
        requested = os.environ.get(ENV, "").strip().lower() or "auto"
    if requested not in BACKENDS:
        raise SolverError(f"unknown SAT backend {requested!r} (from {ENV}): use {', '.join(BACKENDS)}")
    if requested == "pysat" or (requested == "auto" and have_pysat):
        if not have_pysat:
            raise SolverError("the pysat backend needs python-sat: pip install python-sat")
        return "pysat"
    if kissat is None:
        if requested == "kissat":
            raise SolverError("the kissat backend needs a kissat binary on the PATH")
        raise SolverError(
            "no SAT solver available: install python-sat (pip install python-sat), "
            "or put a kissat binary on the PATH"
        )
    return "kissat"


class Backend:
    """An incremental SAT solver over integer literals."""

    name = ""
    has_cores = False

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        raise NotImplementedError

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> bool:
        """Satisfiable under ``assumptions``?  Raises LimitReachedError when ``time_limit`` runs out."""
        raise NotImplementedError

    def model(self) -> list[int]:
        """After a satisfiable call: ``model()[v - 1] > 0`` iff variable ``v`` is true."""
        raise NotImplementedError

    def core(self) -> list[int] | None:
        """After an unsatisfiable call: assumptions that are unsatisfiable together (None: unknown)."""
        return None

    def close(self) -> None:
        pass


class PySatBackend(Backend):
    has_cores = True

    def __init__(self, clauses: Iterable[Sequence[int]], solver: str = PYSAT_SOLVER) -> None:
        from pysat.solvers import Solver

        self.name = f"pysat:{solver}"
        self._solver: Any = Solver(name=solver, bootstrap_with=[list(c) for c in clauses])

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            self._solver.add_clause(list(clause))

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> bool:
        if time_limit is None:
            return bool(self._solver.solve(assumptions=assumptions))
        if time_limit <= 0:
            raise LimitReachedError("time limit reached")
        timer = threading.Timer(time_limit, self._solver.interrupt)
        timer.start()
        try:
            result = self._solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            self._solver.clear_interrupt()
        if result is None:
            raise LimitReachedError(f"time limit of {time_limit:g} s reached")
        return bool(result)

    def model(self) -> list[int]:
        return list(self._solver.get_model() or [])

    def core(self) -> list[int] | None:
        found = self._solver.get_core()
        return None if found is None else list(found)

    def close(self) -> None:
        self._solver.delete()


class KissatBackend(Backend):
    """nnf's kissat interface: each call writes the whole CNF, facts as unit clauses, to the binary."""

    def __init__(self, clauses: Iterable[Sequence[int]], binary: str) -> None:
        import nnf

        self.name = "kissat"
        self._binary = binary
        self._nnf = nnf
        self._clauses: set[Any] = set()
        self._nvars = 0
        self._model: list[int] = []
        self.add_clauses(clauses)

    def _clause(self, clause: Sequence[int]) -> Any:
        nnf = self._nnf
        return nnf.Or(nnf.Var(abs(lit), lit > 0) for lit in clause)

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            self._clauses.add(self._clause(clause))
            self._nvars = max([self._nvars, *(abs(lit) for lit in clause)])

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> bool:
        from nnf import kissat

        units = {self._clause([lit]) for lit in assumptions}
        sentence = self._nnf.And(self._clauses | units)
        extra = [f"--time={max(1, int(time_limit))}"] if time_limit is not None else []
        path = os.environ.get("PATH", "")
        # nnf runs `kissat` from the PATH, or its own copy: make sure it is the one found here
        os.environ["PATH"] = os.pathsep.join([str(Path(self._binary).parent), path])
        try:
            found = kissat.solve(sentence, extra_args=extra)
        except RuntimeError as err:
            if time_limit is not None:
                raise LimitReachedError(f"time limit of {time_limit:g} s reached") from None
            raise SolverError(f"kissat failed: {str(err).splitlines()[0]}") from None
        finally:
            os.environ["PATH"] = path
        if found is None:
            return False
        values = [False] * self._nvars
        for var, value in found.items():
            values[int(var) - 1] = bool(value)  # type: ignore[call-overload]
        self._model = [v if values[v - 1] else -v for v in range(1, self._nvars + 1)]
        return True

    def model(self) -> list[int]:
        return list(self._model)


def new_backend(
    clauses: Iterable[Sequence[int]], backend: str | None = None, *, pysat_solver: str = PYSAT_SOLVER
) -> Backend:
    """A solver loaded with ``clauses``, python-sat when it is there (see the module notes);
    ``pysat_solver`` names the python-sat solver (one that can be interrupted for time limits:
    :data:`INTERRUPTIBLE`)."""
    global _warned
    binary = kissat_binary()
    have_pysat = pysat_available()
    chosen = choose_backend(backend, have_pysat=have_pysat, kissat=binary)
    if chosen == "pysat":
        return PySatBackend(clauses, pysat_solver)
    assert binary is not None
    if not _warned and not have_pysat:
        _warned = True
        warnings.warn(
            "python-sat is not available: using nnf's kissat backend, one process per query (slow)",
            RuntimeWarning,
            stacklevel=3,
        )
    return KissatBackend(clauses, binary)
