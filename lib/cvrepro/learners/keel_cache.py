"""Work that KEEL's batched learners share across calls: a bounded per-process cache.

The engine hands a batched learner one task per call (a run of iterations of
one data set, :mod:`cvrepro.engine.tasks`); a study such as Moreno-Torres et
al.'s makes about 150 such calls per data set and learner (partitioners,
schemes, the true partitions), and each call would recompute the same kernel
matrix (the SVM's, :mod:`cvrepro.learners.keel_smo`; libsvm's RBF values for
PDFC, :mod:`cvrepro.learners.libsvm_rbf`) or the same neighbour order
(:mod:`cvrepro.learners.keel_knn`). Here each such product is kept under a key
made of a digest of the arrays it is computed from and its parameters, so an
entry is reused only for identical inputs, and it holds exactly what a
fresh computation would (the learners' results do not depend on the cache).

Memory: at most :data:`CACHE_BUDGET` bytes per process (each worker of a
parallel run has its own), least recently used entries evicted first; a
product larger than the budget is computed and not kept. Mushroom (5,644
complete examples), the largest of Moreno-Torres et al.'s sets, needs 0.64 GB
(two 0.25 GB kernel matrices and a 0.13 GB neighbour order); a worker fitting
SVM, PDFC and the kNNs on it peaked at 1.7 GB resident. :func:`clear` frees it.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np

from ..budget_cache import BudgetCache

__all__ = ["CACHE_BUDGET", "digest", "cached", "clear", "cached_keys"]

CACHE_BUDGET = 1 << 30        # bytes per process: e.g. mushroom's kernel matrix (0.25 GB) and neighbour order
_entries = BudgetCache(lambda: CACHE_BUDGET)


def digest(*parts) -> str:
    """A key for ``parts``: arrays by dtype, shape and bytes, anything else by ``repr``."""
    h = hashlib.blake2b(digest_size=20)
    for p in parts:
        if isinstance(p, np.ndarray):
            a = np.ascontiguousarray(p)
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
        else:
            h.update(repr(p).encode())
        h.update(b"|")
    return h.hexdigest()


def cached(key: str, nbytes: int, build: Callable[[], object]):
    """The entry ``key``, built by ``build()`` (about ``nbytes`` bytes) if it is not kept yet."""
    value = _entries.get(key)
    if value is None:
        value = build()
        _entries.put(key, value, nbytes)
    return value


def clear() -> None:
    """Forget every entry."""
    _entries.clear()


def cached_keys() -> list[str]:
    """Keys kept now, least recently used first."""
    return _entries.keys()
