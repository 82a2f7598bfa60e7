"""The compiled searches' contract with Python: the record of a layout they read, and its version.

:class:`NativeSpec` is what ``rushhour.search._native`` (``_native.c``, ``_frontier.c``) reads, field by
field, in this order; the module exports the field names and the constants it shares with the Python
search (:mod:`rushhour.search.contract`, defined once there and handed to the compiler by setup.py), and
:func:`compatible` compares them at import, so that a module built from other sources is never used
(the Python search is used instead).
"""

from __future__ import annotations

from types import ModuleType
from typing import NamedTuple

from rushhour.search import contract
from rushhour.search.contract import SPEC_VERSION


class NativeVehicle(NamedTuple):
    """A vehicle: the cells of its lane in order along it (``row * width + col``), its length, and
    whether it is horizontal."""

    lane: tuple[int, ...]
    length: int
    horizontal: bool


class NativeSpec(NamedTuple):
    """A layout under a metric, as the compiled searches read it."""

    width: int
    height: int
    wrap: bool
    steps: bool
    goal: int  # the goal vehicle's index
    won_offsets: tuple[int, ...]  # the goal's offsets that win
    walls: tuple[int, ...]  # wall cells
    vehicles: tuple[NativeVehicle, ...]
    groups: tuple[tuple[int, ...], ...]  # the vehicles in groups, in the order they are expanded
    two_moves_complete: bool  # whether the two-move test sees every win in two moves


#: the shared constants by name (every whole number of :mod:`rushhour.search.contract`)
CONSTANTS: dict[str, int] = {
    name: value for name, value in vars(contract).items() if name.isupper() and isinstance(value, int)
}


def compatible(module: ModuleType) -> bool:
    """Whether a built module reads this record and agrees on every shared constant."""
    return getattr(module, "SPEC_FIELDS", None) == NativeSpec._fields and all(
        getattr(module, name, None) == value for name, value in CONSTANTS.items()
    )


__all__ = ["CONSTANTS", "SPEC_VERSION", "NativeSpec", "NativeVehicle", "compatible"]
