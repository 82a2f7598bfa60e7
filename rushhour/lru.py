"""A small least-recently-used cache whose evicted values are closed.

:func:`functools.lru_cache` serves wherever a dropped value needs nothing more than to be forgotten.
A value that holds a resource (a SAT solver kept alive for a board shape) must be closed when it is
dropped, which ``lru_cache`` cannot do: :class:`ClosingLRU` keeps at most ``maxsize`` values and calls
``close`` on each one it evicts or clears.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, Protocol, TypeVar


class Closable(Protocol):
    def close(self) -> None: ...


K = TypeVar("K", bound=Hashable)
V = TypeVar("V", bound=Closable)


class ClosingLRU(Generic[K, V]):
    """At most ``maxsize`` values, the least recently used closed and dropped first.

    >>> class Solver:
    ...     def __init__(self, name): self.name, self.closed = name, False
    ...     def close(self): self.closed = True
    >>> cache = ClosingLRU(2)
    >>> a = cache.get("a", lambda: Solver("a"))
    >>> b = cache.get("b", lambda: Solver("b"))
    >>> cache.get("a", lambda: Solver("again")) is a     # a is now the most recently used
    True
    >>> c = cache.get("c", lambda: Solver("c"))          # so b is evicted, and closed
    >>> b.closed, a.closed, len(cache)
    (True, False, 2)
    """

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"an LRU cache holds at least one value, not {maxsize}")
        self.maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``, made by ``make()`` when it is not held."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            return found
        made = self._items[key] = make()
        if len(self._items) > self.maxsize:
            _, old = self._items.popitem(last=False)
            old.close()
        return made

    def clear(self) -> None:
        """Close and drop every value."""
        while self._items:
            _, old = self._items.popitem(last=False)
            old.close()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)
