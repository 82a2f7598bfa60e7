"""The mark of the tests that need the compiled search in use: built with the package, and not turned
off (``RUSHHOUR_NATIVE=0`` runs the whole suite on the Python path, as an install without a compiler
does)."""

from __future__ import annotations

import pytest

from rushhour.search.native import native_enabled

needs_native = pytest.mark.skipif(
    not native_enabled(), reason="the compiled search is not in use (not built, or RUSHHOUR_NATIVE=0)"
)
