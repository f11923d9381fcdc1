"""Drawn partitions kept per worker process, so that every learner's task reuses them.

A partition depends only on the data set, the partitioner, its parameters, k
and the seed, yet the engine's tasks are per learner (:mod:`.tasks`): a grid
of nine learners would draw each partition nine times. The distance-based
partitioners (DB-SCV, DOB-SCV, MS-SCV of :mod:`cvrepro.partition`) are the
costly ones: each draw computes the pairwise distances within each class
(most of its time) and walks their neighbours. Here every drawn fold
assignment is kept under the key (data fingerprint, partitioner class, its
parameters, k, seed), and a data set's encoding for a distance
(:func:`cvrepro.partition.encode`), with its classes' distance blocks
(``keep_class_blocks``), under (data fingerprint, metric): a worker draws
each partition once whatever the number of learners, and computes each
class's distances once per data set and metric whatever the number of
partitions. An entry holds exactly what a fresh computation returns (fold ids
are kept as small integers and handed out as int64, as drawn): results, and
what the engine stores, do not depend on the cache.

Memory: at most :data:`CACHE_BUDGET` bytes per process (each worker of a
parallel run has its own), least recently used entries evicted first; an
encoding keeps class blocks only up to half the budget. A fold assignment
costs one byte per example (k <= 127); the class blocks of the largest of
Moreno-Torres et al.'s sets take 130 MiB (Phoneme, 5,404 examples; Mushroom
128 MiB), so the default 320 MiB keeps them and about 30,000 partitions of
such a set: all the partitions of a study's engine run.
``CACHE_BUDGET = 0`` turns the cache off; :func:`clear` empties it.
"""
from __future__ import annotations

import numpy as np

from ..budget_cache import BudgetCache
from ..partition import encode, make_partitioner
from .inputs import CVData

__all__ = ["CACHE_BUDGET", "fold_ids", "clear", "stats"]

CACHE_BUDGET = 320 << 20      # bytes per process
_entries = BudgetCache(lambda: CACHE_BUDGET)
_stats = {"hits": 0, "draws": 0}          # fold assignments reused / drawn since the last clear()


def fold_ids(data: CVData, partitioner: str, k: int, seed: int, params: dict) -> np.ndarray:
    """Fold (0..k-1, int64) of every example of ``data`` drawn by ``partitioner`` with ``seed``."""
    splitter = make_partitioner(partitioner, k, seed, **params)
    key = ("folds", data.fingerprint, type(splitter).__name__, repr(sorted(params.items())), int(k), int(seed))
    kept = _get(key)
    if kept is not None:
        return kept.astype(np.int64)
    encoded = None
    if splitter.uses_distance:
        ekey = ("encoded", data.fingerprint, splitter.metric)
        encoded = _get(ekey)
        if encoded is None:
            encoded = encode(data.X, data.codes, splitter.metric)
            size = _nbytes(encoded)
            size += encoded.keep_class_blocks(data.codes, max_bytes=CACHE_BUDGET / 2 - size)
            _entries.put(ekey, encoded, size)
    folds = splitter.fold_ids(data.X, data.codes, encoded=encoded)
    small = folds.astype(np.int8 if k <= np.iinfo(np.int8).max else np.int16)
    small.flags.writeable = False
    _entries.put(key, small, small.nbytes)
    return folds


def clear() -> None:
    """Forget every kept partition and encoding of this process (and reset :func:`stats`)."""
    _entries.clear()
    _stats.update(hits=0, draws=0)


def stats() -> dict:
    """This process's partitions drawn and reused since the last :func:`clear`, and bytes kept."""
    return {**_stats, "bytes": _entries.nbytes, "entries": len(_entries)}


def _get(key):
    value = _entries.get(key)
    if key[0] == "folds":
        _stats["hits" if value is not None else "draws"] += 1   # a miss: the caller draws it
    return value


def _nbytes(encoded) -> int:
    """Bytes of the arrays an encoding holds."""
    arrays = [encoded.dense, encoded.codes] + [a for pair in encoded.sparse for a in pair]
    return sum(a.nbytes for a in arrays if a is not None)
