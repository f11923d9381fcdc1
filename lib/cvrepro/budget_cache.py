"""A least-recently-used cache within a byte budget, for work kept per process.

Used for what workers share across tasks: KEEL's kernel matrices and neighbour
orders (:mod:`cvrepro.learners.keel_cache`) and drawn partitions
(:mod:`cvrepro.engine.partitions`). The budget is read at every insertion (a
callable), so a module's budget setting can change at run time; an entry
larger than the budget is not kept. Thread-safe: the threading backend shares
one process between tasks.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

__all__ = ["BudgetCache"]


class BudgetCache:
    """Entries ``key -> value`` of a stated size in bytes, least recently used evicted first."""

    def __init__(self, budget: Callable[[], int]):
        self.budget = budget
        self._entries: OrderedDict = OrderedDict()     # key -> (value, bytes)
        self.nbytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable):
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value, nbytes: int) -> None:
        """Keep ``value`` (about ``nbytes`` bytes) unless it exceeds the budget or ``key`` is kept already."""
        with self._lock:
            budget = self.budget()
            if nbytes > budget or key in self._entries:
                return
            self._entries[key] = (value, nbytes)
            self.nbytes += nbytes
            while self.nbytes > budget:
                self.nbytes -= self._entries.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.nbytes = 0

    def keys(self) -> list:
        """Keys kept now, least recently used first."""
        with self._lock:
            return list(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
