"""Where the tasks of :func:`cvrepro.runner.run_cv` and :func:`cvrepro.engine.taskmap.map_tasks` run:
in process, on joblib, on a dask cluster; one dispatcher, :func:`map_unordered`, for both.

:func:`map_unordered` yields ``(i, func(*calls[i]))`` as calls finish, in any
order. With ``ship_first``, the first argument of every call is a data set
(with a ``fingerprint``) that travels to each worker once: scattered on dask;
with joblib's process backends, written once to a temporary file that each
worker reads on first use and keeps (calls carry only a :class:`DataRef`).
run_cv's tasks come through the task map too (:mod:`cvrepro.engine.cvlayout`).
"""
from __future__ import annotations

import contextlib
import os
import pickle
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

import joblib

from .inputs import CVData

__all__ = ["is_dask", "n_workers", "map_unordered", "DataRef"]


def is_dask(backend) -> bool:
    """Whether ``backend`` means a dask.distributed cluster (``"dask"`` or a scheduler address)."""
    return isinstance(backend, str) and (backend == "dask" or "://" in backend)


def n_workers(n_jobs: int, backend) -> int:
    """How many tasks run at once (sizes the default tasks)."""
    if is_dask(backend):
        return joblib.cpu_count() if n_jobs < 0 else max(1, n_jobs)
    return joblib.effective_n_jobs(n_jobs)


def map_unordered(func, calls: list, n_jobs: int, backend, ship_first: bool = False) -> Iterator:
    """``(i, func(*calls[i]))`` for every call, as they finish (in process, joblib or dask);
    ``ship_first``: each call's first argument, a data set, travels to each worker once."""
    if not calls:
        return
    if is_dask(backend):
        from distributed import as_completed
        with _dask_client(backend) as client:
            if ship_first:   # each data set scattered once
                calls = _shipped(calls, lambda data: client.scatter(data, broadcast=True, hash=False))
            futures = [client.submit(_tagged, i, func, *args, pure=False) for i, args in enumerate(calls)]
            for fut in as_completed(futures):
                yield fut.result()
    elif n_jobs == 1:
        yield from (_tagged(i, func, *args) for i, args in enumerate(calls))
    elif not ship_first or backend == "threading":   # threads share our memory: nothing to ship
        yield from _parallel(n_jobs, backend)(joblib.delayed(_tagged)(i, func, *args) for i, args in enumerate(calls))
    else:
        with tempfile.TemporaryDirectory(prefix="cvrepro-data-") as folder:
            calls = _shipped(calls, lambda data: _data_file(data, folder))   # each data set written once
            yield from _parallel(n_jobs, backend)(
                joblib.delayed(_tagged)(i, func, *args) for i, args in enumerate(calls))


def _shipped(calls: list, ship) -> list:
    """``calls`` with each first argument replaced by ``ship(data)``, called once per data set."""
    sent = {}
    for data, *_ in calls:
        if data.fingerprint not in sent:
            sent[data.fingerprint] = ship(data)
    return [(sent[data.fingerprint], *rest) for data, *rest in calls]


def _data_file(data: CVData, folder: str) -> DataRef:
    """``data`` pickled into ``folder``, for process workers to read once (:func:`_worker_data`)."""
    path = os.path.join(folder, data.fingerprint + ".pkl")
    with open(path, "wb") as fh:
        pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return DataRef(data.fingerprint, path)


def _tagged(i, func, *args):
    if args and isinstance(args[0], DataRef):
        args = (_worker_data(args[0]), *args[1:])
    return i, func(*args)


def _parallel(n_jobs, backend):
    return joblib.Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered",
                           batch_size=1)   # our tasks are already coarse


@dataclass(frozen=True)
class DataRef:
    """Where a worker finds a data set it has not seen yet (see :func:`_worker_data`)."""

    fingerprint: str
    path: str


_WORKER_DATA: dict = {}   # fingerprint -> CVData, per worker process
_WORKER_DATA_MAX = 4


def _worker_data(ref: DataRef) -> CVData:
    """The data set behind ``ref``, loaded once per worker and kept for the next tasks."""
    data = _WORKER_DATA.pop(ref.fingerprint, None)
    if data is None:
        with open(ref.path, "rb") as fh:
            data = pickle.load(fh)
        while len(_WORKER_DATA) >= _WORKER_DATA_MAX:   # oldest out: memory stays bounded
            _WORKER_DATA.pop(next(iter(_WORKER_DATA)))
    _WORKER_DATA[ref.fingerprint] = data
    return data


@contextlib.contextmanager
def _dask_client(backend):
    """The running client (``"dask"``) or one connected to the scheduler address, closed after."""
    from distributed import Client, default_client
    if backend != "dask":
        with Client(backend) as client:
            yield client
        return
    try:
        client = default_client()
    except ValueError:
        raise ValueError("backend='dask' needs a running distributed.Client (create one, "
                         "e.g. Client(LocalCluster()), or pass the scheduler address)") from None
    yield client

