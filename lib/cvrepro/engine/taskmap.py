"""A cached, checksummed, resumable map of a pure function over tasks: a study's non-CV work
(conditional errors, held-out truths, simulations) on the engine's store and backends.

:func:`map_tasks` calls ``func(**task)`` for every task and returns the
results as pandas DataFrames, in task order, whatever the backend and the
number of workers. ``func`` is a top-level function returning a DataFrame (or
a dict of equal-length 1-d arrays, taken as one). With a ``store`` (a
folder) every result is kept and only missing tasks are computed::

    <store>/<module>.<function>/<key>.<checksum>.parquet     one task's table

``<key>`` is a hash of the task's inputs: the format version, the function's
name and CODE VERSION (the SHA-256 of its module's source file, as numba's
cache does: editing that module recomputes its tasks; functions it calls in
other modules are not covered), every argument (DataFrames, Series and
arrays by content; estimators by their parameters and user-code source as
:func:`~cvrepro.engine.inputs.learner_hash`; anything else by its pickle) and
the task's extra ``key`` parts (e.g. the fingerprint of data the function
loads by name). Each file holds the key in a ``task_key`` column, is written
atomically (:func:`cvrepro.verified.write_checksummed`) by the calling process
as tasks finish (a killed run keeps every finished task) and is read only
through the gate of the results store of ``run_cv`` (:mod:`cvrepro.verified`: its
bytes hash to its name) and with its own key inside; fresh results pass the
same gate, so a cached and a fresh result are the same table. A damaged file
is reported (``RuntimeWarning`` naming it), renamed ``.<name>.damaged`` and
recomputed.
"""
from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pyarrow as pa

from ..progress import display_mode, progress_bar
from ..verified import (
    checksum,
    encode,
    remove_stale_temporaries,
    set_aside,
    short_hash,
    verified_table,
    write_checksummed,
    wrong_keys,
)
from .backends import map_unordered
from .inputs import check_backend, learner_hash

__all__ = ["Task", "map_tasks", "fingerprint", "code_version", "KEY_COLUMN", "FORMAT"]

KEY_COLUMN = "task_key"
FORMAT = 1            # part of every key: a new file format never reads an old one


@dataclass(frozen=True)
class Task:
    """One call ``func(**kwargs)``; ``key``: extra parts of its key that ``func`` does not take."""

    kwargs: dict
    key: tuple = field(default=())


def map_tasks(func, tasks, store=None, *, n_jobs: int = 1, backend="loky", progress: bool = True,
              desc: str | None = None) -> list[pd.DataFrame]:
    """``func(**task)`` for every task (a :class:`Task` or a dict of keyword arguments), as DataFrames in
    task order, computing only what ``store`` (a folder, or None: no cache) lacks. ``n_jobs``,
    ``backend``: as :func:`~cvrepro.runner.run_cv`'s ("loky", "threading", "dask" or a scheduler
    address). ``progress``: a bar over the computed tasks and a summary line (when the work lasts more
    than 2 seconds; ``CVREPRO_PROGRESS=off`` silences both)."""
    check_backend(n_jobs, backend)
    _check_function(func)
    tasks = [t if isinstance(t, Task) else Task(dict(t)) for t in tasks]
    keys = _keys(func, tasks)
    folder = None if store is None else Path(store) / f"{func.__module__}.{func.__qualname__}"
    found, damaged = _stored(folder, set(keys)) if folder is not None else ({}, 0)
    todo = list(dict.fromkeys(k for k in keys if k not in found))
    by_key = dict(zip(keys, tasks))
    desc = desc or func.__name__
    started = time.perf_counter()
    bar = progress_bar(total=len(todo), enabled=progress, desc=desc, unit="task")
    try:
        calls = [(func, by_key[k].kwargs, k) for k in todo]
        for i, data in map_unordered(_serialized, calls, n_jobs, backend):
            name = f"{todo[i]}.{checksum(data)}.parquet"
            if folder is not None and not any(folder.glob(f"{todo[i]}.*.parquet")):   # not stored meanwhile
                write_checksummed(folder, todo[i], data, store)
            found[todo[i]] = _frame(name, data, todo[i])
            bar.update(1)
    finally:
        bar.close()
    seconds = time.perf_counter() - started
    if progress and seconds >= 2 and display_mode() != "off":
        print(f"{desc}: {len(set(keys))} tasks, {len(set(keys)) - len(todo)} from the store, {len(todo)} computed "
              f"in {seconds:.1f} s" + (f", {damaged} damaged file(s) set aside" if damaged else ""),
              file=sys.stderr)
    seen: set = set()
    return [found[k].copy() if k in seen or seen.add(k) else found[k] for k in keys]   # a repeat: its own copy


def _check_function(func) -> None:
    if not callable(func) or getattr(func, "__qualname__", "") != getattr(func, "__name__", None) \
            or func.__name__ == "<lambda>":
        raise TypeError(f"func must be a top-level function of a module (so that workers can import it and "
                        f"its source versions its results), got {func!r}")


def _keys(func, tasks: list[Task]) -> list[str]:
    """The key of every task (arguments passed twice, e.g. one data set to many tasks, hashed once)."""
    memo: dict = {}

    def digest(value) -> str:
        if id(value) not in memo:
            memo[id(value)] = (fingerprint(value), value)   # the value kept: its id stays its own
        return memo[id(value)][0]

    base = [FORMAT, func.__module__, func.__qualname__, code_version(func)]
    return [hashlib.sha256(repr(base + [f"{name}={digest(v)}" for name, v in sorted(t.kwargs.items())]
                                + [digest(v) for v in t.key]).encode()).hexdigest()[:16] for t in tasks]


def fingerprint(value) -> str:
    """A content hash of a task input: DataFrames and Series by their values, columns and dtypes
    (categories included), arrays by bytes, dtype and shape, estimators by
    :func:`~cvrepro.engine.inputs.learner_hash`, anything else by ``joblib.hash`` (its pickle)."""
    if isinstance(value, (pd.DataFrame, pd.Series)):
        frame = value.to_frame() if isinstance(value, pd.Series) else value
        cats = [repr(frame[c].cat.categories.tolist()) for c in frame.columns
                if isinstance(frame[c].dtype, pd.CategoricalDtype)]
        return short_hash(pd.util.hash_pandas_object(value, index=False).to_numpy().tobytes(),
                          repr(list(frame.columns)), repr(frame.dtypes.astype(str).tolist()), *cats)
    if isinstance(value, np.ndarray) and value.dtype != object:
        return short_hash(np.ascontiguousarray(value).tobytes(), str(value.dtype), str(value.shape))
    if hasattr(value, "get_params") and hasattr(value, "fit"):
        return learner_hash(type(value).__name__, value)
    return joblib.hash(value)


def code_version(func) -> str:
    """SHA-256 (16 hex digits) of the source file of ``func``'s module, else ``TypeError`` naming the fix."""
    try:
        path = inspect.getsourcefile(sys.modules[func.__module__])
        source = Path(path).read_bytes()
    except (KeyError, TypeError, OSError):
        raise TypeError(f"the source of {func.__module__}.{func.__qualname__} cannot be read, so its results "
                        "could not be keyed by its code; define it in a module file") from None
    return hashlib.sha256(source).hexdigest()[:16]


def _serialized(func, kwargs: dict, key: str) -> bytes:
    """``func(**kwargs)`` as the bytes of a Parquet file, the key in its first column."""
    result = func(**kwargs)
    if isinstance(result, dict):
        result = pd.DataFrame(result)
    if not isinstance(result, pd.DataFrame):
        raise TypeError(f"{func.__qualname__} must return a pandas DataFrame (or a dict of 1-d arrays) for "
                        f"map_tasks, got {type(result).__name__}")
    if KEY_COLUMN in result.columns:
        raise ValueError(f"{func.__qualname__} returned a column {KEY_COLUMN!r}, the name map_tasks keeps "
                         "for the task's key; rename it")
    return encode(result, [(pa.field(KEY_COLUMN, pa.string()), pa.array([key] * len(result), pa.string()))])


def _frame(name: str, data: bytes, key: str) -> pd.DataFrame:
    """The table of a task file through the store's gate (checksum), its key column checked and dropped."""
    table = verified_table(name, data)
    if wrong_keys(table, {KEY_COLUMN: key}):
        raise ValueError(f"its {KEY_COLUMN} column is not the key {key} of its name")
    return table.drop_columns([KEY_COLUMN]).to_pandas()


def _stored(folder: Path, wanted: set) -> tuple[dict, int]:
    """key -> table of every wanted task held intact in ``folder``, and how many damaged files were set aside."""
    found, damaged = {}, 0
    if not folder.is_dir():
        return found, damaged
    remove_stale_temporaries(folder)   # a killed writer's files
    for name in sorted(os.listdir(folder)):
        path = folder / name
        key = name.split(".", 1)[0]
        if key not in wanted or key in found or name.startswith("."):
            continue
        try:
            found[key] = _frame(name, path.read_bytes(), key)
        except (OSError, pa.ArrowException, ValueError) as exc:
            warnings.warn(f"damaged task file {path} ({exc}); it is set aside as .{name}.damaged and "
                          "recomputed", RuntimeWarning, stacklevel=3)
            with contextlib.suppress(OSError):
                set_aside(path)
            damaged += 1
    return found, damaged
