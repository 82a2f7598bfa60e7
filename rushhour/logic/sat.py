"""The SAT solvers behind the logic layer.

python-sat (an incremental solver kept alive, facts passed as assumptions) is the default.  Without it,
the kissat binary shipped with nnf (its kissat backend), or one on the PATH, is used: every query then
runs the binary once on the whole CNF, which is much slower, and a warning says so once.  Without
either, a :class:`~rushhour.errors.SolverError` says what to install.

``RUSHHOUR_SAT`` chooses explicitly: ``auto`` (the default), ``pysat`` or ``kissat``.
"""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import subprocess
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from rushhour.errors import LimitReachedError, SolverError
from rushhour.text import seconds_text

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
    """The kissat executable: nnf's own copy, else one on the PATH."""
    spec = importlib.util.find_spec("nnf")
    if spec is not None and spec.origin is not None:
        shipped = Path(spec.origin).parent / "bin" / "kissat"
        if shipped.is_file() and os.access(shipped, os.X_OK):
            return str(shipped)
    return shutil.which("kissat")


def choose_backend(requested: str | None, *, have_pysat: bool, kissat: str | None) -> str:
    """Which backend to use: ``pysat`` or ``kissat``.  ``requested`` None reads ``RUSHHOUR_SAT``."""
    source = ""
    if requested is None:
        requested = os.environ.get(ENV, "").strip().lower() or "auto"
        source = f" (from {ENV})"
    if requested not in BACKENDS:
        raise SolverError(f"unknown SAT backend {requested!r}{source}: use {', '.join(BACKENDS)}")
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
    has_budget = False  # probe() can stop after a number of conflicts

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        raise NotImplementedError

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> bool:
        """Satisfiable under ``assumptions``?  Raises LimitReachedError when ``time_limit`` runs out."""
        raise NotImplementedError

    def probe(
        self, assumptions: Sequence[int], conflicts: int, time_limit: float | None = None
    ) -> bool | None:
        """Like :meth:`solve`, but giving up (None) after about ``conflicts`` conflicts; None at once
        where the solver has no such budget."""
        return None

    def conflicts(self) -> int:
        """The conflicts met by every call so far (0 where the solver does not count them)."""
        return 0

    def model(self) -> list[int]:
        """After a satisfiable call: ``model()[v - 1] > 0`` iff variable ``v`` is true."""
        raise NotImplementedError

    def core(self) -> list[int] | None:
        """After an unsatisfiable call: assumptions that are unsatisfiable together (None: unknown)."""
        return None

    def close(self) -> None:
        pass


def _interruptible(call: Callable[[], Any]) -> Any:
    """``call()``, with python-sat's own error for a Ctrl-C during a solve turned back into
    :class:`KeyboardInterrupt` (python-sat catches the signal in its C code and raises an error
    that says so)."""
    try:
        return call()
    except KeyboardInterrupt:
        raise
    except Exception as err:
        if "keyboard interrupt" in str(err).lower():
            raise KeyboardInterrupt from None
        raise


class PySatBackend(Backend):
    has_cores = True
    has_budget = True

    def __init__(self, clauses: Iterable[Sequence[int]], solver: str = PYSAT_SOLVER) -> None:
        from pysat.solvers import Solver

        self.name = f"pysat:{solver}"
        self._solver: Any = Solver(name=solver, bootstrap_with=[list(c) for c in clauses])

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            self._solver.add_clause(list(clause))

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> bool:
        if time_limit is None:
            return bool(_interruptible(lambda: self._solver.solve(assumptions=assumptions)))
        result = self._limited(assumptions, time_limit)
        assert result is not None  # no conflict budget: only the time limit stops it
        return result

    def probe(
        self, assumptions: Sequence[int], conflicts: int, time_limit: float | None = None
    ) -> bool | None:
        self._solver.conf_budget(conflicts)
        try:
            return self._limited(assumptions, time_limit)
        finally:
            self._solver.conf_budget(-1)  # no budget for the calls after

    def _limited(self, assumptions: Sequence[int], time_limit: float | None) -> bool | None:
        """A call stopped by the conflict budget (None) or by ``time_limit`` (LimitReachedError)."""
        if time_limit is not None and time_limit <= 0:
            raise LimitReachedError("time limit reached")
        fired = threading.Event()

        def stop() -> None:
            fired.set()
            self._solver.interrupt()

        timer = threading.Timer(time_limit, stop) if time_limit is not None else None
        if timer is not None:
            timer.start()
        try:
            result = _interruptible(
                lambda: self._solver.solve_limited(
                    assumptions=assumptions, expect_interrupt=timer is not None
                )
            )
        finally:
            if timer is not None:
                timer.cancel()
                self._solver.clear_interrupt()
        if result is None and fired.is_set():  # the timer fired: there was a time limit
            raise LimitReachedError(f"time limit of {seconds_text(time_limit or 0.0)} s reached")
        return None if result is None else bool(result)

    def conflicts(self) -> int:
        return int((self._solver.accum_stats() or {}).get("conflicts", 0))

    def model(self) -> list[int]:
        return list(self._solver.get_model() or [])

    def core(self) -> list[int] | None:
        found = self._solver.get_core()
        return None if found is None else list(found)

    def close(self) -> None:
        self._solver.delete()


class KissatBackend(Backend):
    """The kissat binary that nnf ships (or one on the PATH), run once per call on the whole CNF with
    the assumptions as unit clauses.  nnf's own wrapper (``nnf.kissat``) is not called: it asserts
    that a binary found on the PATH is a file relative to the working directory, so it fails there."""

    def __init__(self, clauses: Iterable[Sequence[int]], binary: str) -> None:
        self.name = "kissat"
        self._binary = binary
        self._lines: list[str] = []
        self._nvars = 0
        self._model: list[int] = []
        self.add_clauses(clauses)

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            self._lines.append(" ".join(str(lit) for lit in clause) + " 0\n")
            self._nvars = max([self._nvars, *(abs(lit) for lit in clause)])

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> bool:
        nvars = max([self._nvars, *(abs(lit) for lit in assumptions)])
        units = [f"{lit} 0\n" for lit in assumptions]
        text = f"p cnf {nvars} {len(self._lines) + len(units)}\n" + "".join(self._lines) + "".join(units)
        args = [self._binary, "-q"]
        if time_limit is not None:
            args.append(f"--time={max(1, math.ceil(time_limit))}")
        try:
            proc = subprocess.run(args, input=text, capture_output=True, text=True, check=False)
        except OSError as err:
            raise SolverError(f"cannot run kissat ({self._binary}): {err.strerror}") from None
        if proc.returncode == 20:
            return False
        if proc.returncode != 10:
            if time_limit is not None and proc.returncode == 0:
                raise LimitReachedError(f"time limit of {seconds_text(time_limit)} s reached")
            raise SolverError(f"kissat failed with exit status {proc.returncode}")
        values = [False] * nvars
        for line in proc.stdout.splitlines():
            if line.startswith("v "):
                for token in line[2:].split():
                    lit = int(token)
                    if lit > 0:
                        values[lit - 1] = True
        self._model = [v if values[v - 1] else -v for v in range(1, nvars + 1)]
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
