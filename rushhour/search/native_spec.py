"""The compiled searches' contract with Python: the record of a layout they read, and its version.

:class:`NativeSpec` is what ``rushhour.search._native`` (``_native.c``, ``_frontier.c``) reads, field by
field, in this order; the module exports :data:`SPEC_VERSION`, the field names and the constants it
shares with the Python search (:data:`SHARED_CONSTANTS`), and :func:`compatible` compares them at import,
so that a module built from other sources is never used (the Python search is used instead).
"""

from __future__ import annotations

from types import ModuleType
from typing import NamedTuple

SPEC_VERSION = 1


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


def compatible(module: ModuleType, constants: dict[str, int]) -> bool:
    """Whether a built module reads this record and agrees on ``constants`` (name to value)."""
    return (
        getattr(module, "SPEC_VERSION", None) == SPEC_VERSION
        and getattr(module, "SPEC_FIELDS", None) == NativeSpec._fields
        and all(getattr(module, name, None) == value for name, value in constants.items())
    )


__all__ = ["SPEC_VERSION", "NativeSpec", "NativeVehicle", "compatible"]
