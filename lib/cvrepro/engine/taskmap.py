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

That file per task is the default layout, :class:`FlatLayout`; the
``layout`` argument takes any object with its methods (keys, what is stored,
what a worker sends back, how the caller keeps it). :func:`iter_tasks`, the
iterator form, yields results as they come: :func:`cvrepro.runner.run_cv`
runs each round of its plan through it, on its own layout
(:class:`cvrepro.engine.cvlayout.ChunkLayout`).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import sys
import time
import warnings
from collections.abc import Iterator
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
from .backends import is_dask, map_unordered
from .inputs import check_backend, learner_hash

__all__ = ["Task", "map_tasks", "iter_tasks", "FlatLayout", "fingerprint", "code_version", "KEY_COLUMN", "FORMAT"]

KEY_COLUMN = "task_key"
FORMAT = 1            # part of every key: a new file format never reads an old one


@dataclass(frozen=True)
class Task:
    """One call ``func(**kwargs)``; ``key``: extra parts of its key that ``func`` does not take."""

    kwargs: dict
    key: tuple = field(default=())


def map_tasks(func, tasks, store=None, *, layout=None, n_jobs: int = 1, backend="loky", progress: bool = True,
              desc: str | None = None, ship: str | None = None) -> list:
    """``func(**task)`` for every task (a :class:`Task` or a dict of keyword arguments), as DataFrames (or
    what ``layout`` keeps) in task order, computing only what ``store`` (a folder, or None: no cache) lacks. ``n_jobs``,
    ``backend``: as :func:`~cvrepro.runner.run_cv`'s ("loky", "threading", "dask" or a scheduler
    address). ``progress``: a bar over the computed tasks and a summary line (when the work lasts more
    than 2 seconds; ``CVREPRO_PROGRESS=off`` silences both). ``layout``, ``ship``: see :func:`iter_tasks`."""
    tasks = list(tasks)
    out: list = [None] * len(tasks)
    for i, result in iter_tasks(func, tasks, store, layout=layout, n_jobs=n_jobs, backend=backend,
                                progress=progress, desc=desc, ship=ship):
        out[i] = result
    seen: set = set()
    return [r.copy() if id(r) in seen or seen.add(id(r)) else r for r in out]   # a repeat: its own copy


def iter_tasks(func, tasks, store=None, *, layout=None, n_jobs: int = 1, backend="loky", progress=True,
               desc: str | None = None, ship: str | None = None) -> Iterator[tuple[int, object]]:
    """:func:`map_tasks` as ``(i, result of tasks[i])`` pairs, for every task: the stored ones first (in
    task order), then the computed ones as they finish (tasks of one key together, one result object).

    ``layout``: where and how results are kept (default :class:`FlatLayout` ``(store)``; an object with
    the methods of :class:`FlatLayout`, e.g. :class:`cvrepro.engine.cvlayout.ChunkLayout`, run_cv's store).
    ``ship``: the name of a keyword argument (a data set with a ``fingerprint``) that travels to each
    worker once (:func:`~cvrepro.engine.backends.map_unordered`'s ``ship_first``). ``progress``: True,
    False, or a bar the caller owns (its total grows by the tasks computed; no summary line)."""
    check_backend(n_jobs, backend)
    if layout is not None and store is not None:
        raise TypeError("pass a store or a layout, not both")
    layout = FlatLayout(store) if layout is None else layout
    tasks = [t if isinstance(t, Task) else Task(dict(t)) for t in tasks]
    keys = layout.keys(func, tasks)
    where: dict = {}
    for i, k in enumerate(keys):
        where.setdefault(k, []).append(i)
    found, damaged = layout.stored(list(where))
    todo = [k for k in where if k not in found]
    if todo and not layout.writable:
        raise PermissionError(f"store {str(layout.root)!r} is read-only and lacks {len(todo)} task(s) of results "
                              f"(e.g. {layout.describe(todo[0])}); ask only for what it holds, make it writable, "
                              "or pass another store")
    for k, result in found.items():
        yield from ((i, result) for i in where[k])
    shared_disk = not is_dask(backend)   # dask workers may not share our disk: the caller writes
    calls = [_call_of(func, tasks[where[k][0]], ship, layout.packer(func, k, shared_disk)) for k in todo]
    own = not hasattr(progress, "update")   # else a bar the caller owns
    bar = progress_bar(total=len(todo), enabled=progress, desc=desc or func.__name__, unit="task") if own \
        else progress
    if not own:
        bar.total += len(todo)
        bar.refresh()
    started = time.perf_counter()
    try:
        for j, packed in map_unordered(_call, calls, n_jobs, backend, ship_first=ship is not None):
            result = layout.unpack(todo[j], packed)
            bar.update(1)
            yield from ((i, result) for i in where[todo[j]])
    finally:
        if own:
            bar.close()
    if own and progress:
        _summary(desc or func.__name__, len(where), len(todo), time.perf_counter() - started, damaged)


def _call_of(func, task: Task, ship: str | None, pack) -> tuple:
    """The arguments of :func:`_call` for ``task``: its shipped argument first (or None)."""
    if ship is None:
        return None, func, task.kwargs, None, pack
    rest = {name: v for name, v in task.kwargs.items() if name != ship}
    return task.kwargs[ship], func, rest, ship, pack


def _call(shipped, func, kwargs: dict, ship: str | None, pack):
    """In a worker: ``func(**kwargs)`` (``shipped`` as argument ``ship``), passed through ``pack``."""
    result = func(**kwargs) if ship is None else func(**kwargs, **{ship: shipped})
    return result if pack is None else pack(result)


def _summary(desc: str, n: int, computed: int, seconds: float, damaged: int) -> None:
    if seconds >= 2 and display_mode() != "off":
        print(f"{desc}: {n} tasks, {n - computed} from the store, {computed} computed in {seconds:.1f} s"
              + (f", {damaged} damaged file(s) set aside" if damaged else ""), file=sys.stderr)


class FlatLayout:
    """The task map's own store: one file per task, ``<store>/<module>.<function>/<key>.<checksum>.parquet``
    (or no store: results pass the same gate in memory). The interface of a layout:

    ``keys(func, tasks)``        the key of every task (hashable)
    ``stored(keys)``             key -> result of every key held intact, and how many damaged ones were set aside
    ``packer(func, key, shared_disk)``  a picklable callable that a worker applies to ``func``'s result (or None)
    ``unpack(key, packed)``      in the caller: the packed result kept (written unless the worker did) and returned
    ``writable``, ``root``, ``describe(key)``: for the error of a read-only store that lacks results
    """

    def __init__(self, store=None):
        self.root = None if store is None else Path(store)
        self.folder = None
        near = self.root
        while near is not None and not near.exists() and near != near.parent:
            near = near.parent
        self.writable = near is None or os.access(near, os.W_OK)

    def keys(self, func, tasks: list[Task]) -> list[str]:
        _check_function(func)
        if self.root is not None:
            self.folder = self.root / f"{func.__module__}.{func.__qualname__}"
        return _keys(func, tasks)

    def stored(self, keys: list[str]) -> tuple[dict, int]:
        return _stored(self.folder, set(keys)) if self.folder is not None else ({}, 0)

    def packer(self, func, key: str, shared_disk: bool):
        return functools.partial(_serialized, func.__qualname__, key)

    def unpack(self, key: str, data: bytes) -> pd.DataFrame:
        if self.folder is not None and not any(self.folder.glob(f"{key}.*.parquet")):   # not stored meanwhile
            write_checksummed(self.folder, key, data, self.root)
        return _frame(f"{key}.{checksum(data)}.parquet", data, key)

    def describe(self, key: str) -> str:
        return f"task {key}"


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


def _serialized(name: str, key: str, result) -> bytes:
    """The result of function ``name`` as the bytes of a Parquet file, the key in its first column."""
    if isinstance(result, dict):
        result = pd.DataFrame(result)
    if not isinstance(result, pd.DataFrame):
        raise TypeError(f"{name} must return a pandas DataFrame (or a dict of 1-d arrays) for "
                        f"map_tasks, got {type(result).__name__}")
    if KEY_COLUMN in result.columns:
        raise ValueError(f"{name} returned a column {KEY_COLUMN!r}, the name map_tasks keeps "
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
                          "recomputed", RuntimeWarning, stacklevel=5)
            with contextlib.suppress(OSError):
                set_aside(path)
            damaged += 1
    return found, damaged
