"""The one loader of the compiled search (``rushhour.search._native``: ``_native.c``, ``_frontier.c``,
``_clusters.c``): every module that uses it imports it from here.

:data:`compiled` is the compiled module, or None when the package was built without a C compiler or
the module was built from other sources (another record, other constants: see
:func:`~rushhour.search.native_spec.compatible`).  :func:`native_enabled` says whether the searches
use it now; ``RUSHHOUR_NATIVE=0`` in the environment, or :func:`use_native` ``(False)``, keeps every
search (solvers, frontier, database) to the Python code, which does the same work, slower.
"""

from __future__ import annotations

import os

from rushhour.search.native_spec import compatible

try:
    from rushhour.search import _native as compiled
except ImportError:  # built without a C compiler: the Python search does the same work, slower
    compiled = None  # type: ignore[assignment]
    _why = "not built (no C compiler at the install)"
if compiled is not None and not compatible(compiled):
    compiled = None  # type: ignore[assignment]
    _why = "built from other sources (install the package again)"

_state = {"enabled": compiled is not None and os.environ.get("RUSHHOUR_NATIVE", "1") != "0"}


def native_available() -> bool:
    """Whether the compiled search was built with the package (from these sources)."""
    return compiled is not None


def native_enabled() -> bool:
    """Whether the searches use the compiled code now."""
    return _state["enabled"]


def native_status() -> str:
    """One line on the compiled search for a person (``rushhour --version``): in use, or why not."""
    if compiled is None:
        return f"compiled search: {_why}; the searches run in Python, the same answers, slower"
    if not native_enabled():
        return "compiled search: built, turned off (RUSHHOUR_NATIVE=0); the searches run in Python"
    return "compiled search: in use"


def use_native(enabled: bool) -> bool:
    """Let the searches use the compiled code (when built) or not; returns the previous choice."""
    before = _state["enabled"]
    _state["enabled"] = enabled and compiled is not None
    return before


__all__ = ["compiled", "native_available", "native_enabled", "native_status", "use_native"]
