"""The results store of :func:`cvrepro.runner.run_cv` (:class:`cvrepro.store.ResultStore`) as a layout of the
task map (:func:`cvrepro.engine.taskmap.iter_tasks`), so that run_cv's tasks run through the task map.

A task of run_cv is ``{"data", "est", "task"}`` for :func:`run_cv_task`; its key is ``(cell, first, last)``:
its (data set, learner, partitioner, k) cell and its run of iterations. The store's own layout and keys
are kept as they were (hive folders per cell, three tables per chunk, locks: :mod:`cvrepro.store`), with no
code digest in them, so that stores written before read back with nothing recomputed. A task's result is
the list of :class:`~cvrepro.engine.results.Chunk` it gave: one, or the runs of iterations that a
concurrent run into the same store had not written first.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

from ..store import ResultStore
from . import tasks
from .results import Chunk, load_chunk

__all__ = ["ChunkLayout", "run_cv_task", "kept"]


def run_cv_task(data, est, task) -> dict:
    """One task of run_cv: :func:`cvrepro.engine.tasks.run_task`, looked up when called."""
    return tasks.run_task(data, est, task)


def kept(target, tables: dict) -> tuple[dict, list | None]:
    """In a worker: a task's ``tables`` and the runs of iterations it stored, or None when ``target``
    (store, store cell, first, last) is None. A stored chunk's instances table stays on disk."""
    if target is None:
        return tables, None
    store, cell, first, last = target
    written = store.write(cell, first, last, tables)
    del tables["instances"]
    return tables, written


class ChunkLayout:
    """run_cv's chunks in ``store`` (a :class:`~cvrepro.store.ResultStore`, or None: kept in memory);
    ``cells``: grid cell -> its store :class:`~cvrepro.store.Cell`; ``by_name``: data set name -> data.
    The methods of a layout are :class:`~cvrepro.engine.taskmap.FlatLayout`'s."""

    def __init__(self, store: ResultStore | None, cells: dict, by_name: dict):
        self.store, self.cells, self.by_name = store, cells, by_name
        self.root = None if store is None else store.root
        self.writable = store is None or store.writable

    def keys(self, func, tasks: list) -> list[tuple]:
        return [(t.kwargs["task"].cell, t.kwargs["task"].iterations[0], t.kwargs["task"].iterations[-1])
                for t in tasks]

    def chunks(self, cell: tuple, wanted: Callable = lambda first, last: True) -> tuple[list[Chunk], int]:
        """The intact stored chunks (first, last) of grid cell ``cell`` that are ``wanted(first, last)``, and how
        many damaged ones were set aside (the store warns and moves them aside)."""
        if self.store is None:
            return [], 0
        out, damaged = [], 0
        for first, last in self.store.chunks(self.cells[cell]):
            if wanted(first, last):
                chunk = load_chunk(self.store, self.cells[cell], first, last, self.by_name[cell[0]], cell[3])
                damaged += chunk is None
                out += [chunk] if chunk is not None else []
        return out, damaged

    def stored(self, keys: list[tuple]) -> tuple[dict, int]:
        """The tasks whose exact run of iterations is stored (by a concurrent run, since the plan was made)."""
        by_cell: dict = {}
        for cell, first, last in keys:
            by_cell.setdefault(cell, set()).add((first, last))
        found, damaged = {}, 0
        for cell, ranges in by_cell.items():
            chunks, bad = self.chunks(cell, functools.partial(_among, ranges))
            found.update({(cell, ch.first, ch.last): [ch] for ch in chunks})
            damaged += bad
        return found, damaged

    def packer(self, func, key: tuple, shared_disk: bool):
        """The worker writes its chunk where it shares our disk (and sends back the small tables only)."""
        cell, first, last = key
        write = self.store is not None and shared_disk
        return functools.partial(kept, (self.store, self.cells[cell], first, last) if write else None)

    def unpack(self, key: tuple, packed: tuple) -> list[Chunk]:
        """The chunks of a finished task: written (unless the worker did), their folds and iterations kept."""
        cell, first, last = key
        tables, written = packed
        if self.store is None:
            return [Chunk(first, last, tables)]
        where = (self.store, self.cells[cell])
        if written is None:
            written = self.store.write(where[1], first, last, tables)
        return [Chunk(a, b, {kind: tables[kind] if (a, b) == (first, last)
                             else tables[kind][(tables[kind].iteration >= a) & (tables[kind].iteration <= b)]
                             for kind in ("folds", "iterations")}, where)
                for a, b in written]

    def describe(self, key: tuple) -> str:
        cell, first, last = key
        return f"{cell}, iterations {first}..{last}"


def _among(ranges: set, first: int, last: int) -> bool:
    return (first, last) in ranges
