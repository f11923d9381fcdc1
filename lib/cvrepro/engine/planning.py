"""Which tasks :func:`cvrepro.runner.run_cv` runs: what the store already holds, task sizes, stopping.

Work is cut into tasks of one (data set, learner, k) cell and a run of
iterations. A :class:`Plan` knows, per cell, the chunks it has (read from
the store, or computed in this run) and hands out the tasks still needed:
all iterations at once, or, with a stopping rule, one batch per round, each
round's iterations shown to the cell's rule in order until it says stop.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import pandas as pd

from ..store import ResultStore
from ..verified import short_hash
from .cvlayout import ChunkLayout
from .inputs import Grid, learner_hash
from .results import Chunk, chunk_instances
from .tasks import Task

__all__ = ["iterations_per_task", "Plan"]


def iterations_per_task(k: int, base: int = 10) -> int:
    """Default task size of a k-fold cell without a stopping rule: ``base`` iterations for
    10-fold, more for smaller k, so that a task holds about as many splits whatever k."""
    return base * max(1, 10 // k)


class Plan:
    """The cells of a grid, the chunks each one has, and the tasks still to run.

    ``store`` (a :class:`~cvrepro.store.ResultStore` or None) is read for
    chunks computed before; ``n_workers`` sizes the default tasks (big
    tasks make batched learners faster per fit; two per worker keep the
    workers busy).
    """

    def __init__(self, grid: Grid, store: ResultStore | None, iterations: int, seed: int,
                 stopping: Callable | None, stopping_metric: str, batch_size: int | None, n_workers: int,
                 batched: bool):
        self.grid, self.store, self.iterations, self.seed = grid, store, iterations, seed
        self.stopping, self.stopping_metric, self.batched = stopping, stopping_metric, batched
        self.cells = grid.cells
        self.by_name = grid.by_name
        self.store_cells, self.have = {}, {}
        pparams = grid.partitioner_params
        hashes = ({name: learner_hash(name, est) for name, est in grid.learners.items()}   # once per learner
                  if store is not None else {})
        self.layout = ChunkLayout(store, self.store_cells, self.by_name)   # how tasks' results are kept
        for cell in self.cells:
            if store is not None:
                self.store_cells[cell] = store.cell(cell[0], self.by_name[cell[0]].fingerprint, cell[1],
                                                    hashes[cell[1]],
                                                    grid.partitioner, cell[3], seed, short_hash(repr(pparams)))
            self.have[cell] = self.layout.chunks(cell)[0]
        if batch_size is None:
            total = len(self.cells) * iterations
            batch_size = max(1, min(10, math.ceil(total / (2 * n_workers))))
            # without a stopping rule, small k gets more iterations per task: as many splits as 10-fold
            self.batch = {c: batch_size if stopping else iterations_per_task(c[3], batch_size)
                          for c in self.cells}
        else:
            self.batch = dict.fromkeys(self.cells, batch_size)
        self.rules = {c: _fresh_rule(stopping) for c in self.cells} if stopping is not None else {}
        self.stopped_at = dict.fromkeys(self.cells)      # iteration at which the rule said stop
        self.fed = dict.fromkeys(self.cells, 0)          # iterations already shown to the rule
        self.active = list(self.cells)
        self.want = {}

    def next_jobs(self) -> list[dict]:
        """The tasks of this round for :func:`~cvrepro.engine.cvlayout.run_cv_task` (``data``, ``est``,
        ``task``), biggest first."""
        # what each active cell needs now: everything, or its next batch when stopping
        self.want = {c: range(self.fed[c], min(self.iterations, self.fed[c] + self.batch[c]) if self.stopping
                              else self.iterations)
                     for c in self.active}
        jobs = []
        for c in self.active:
            done = {i for ch in self.have[c] for i in range(ch.first, ch.last + 1)}
            for first, last in _runs([i for i in self.want[c] if i not in done], self.batch[c]):
                task = Task(c, tuple(range(first, last + 1)), self.seed, self.grid.partitioner_params, self.batched)
                jobs.append({"data": self.by_name[c[0]], "est": self.grid.learners[c[1]], "task": task})
        # biggest tasks first (rows x folds x iterations): less idle time at the end of the run
        jobs.sort(key=lambda job: -len(job["data"].codes) * job["task"].cell[3] * len(job["task"].iterations))
        return jobs

    def record(self, task: Task, chunks: list[Chunk]) -> None:
        """A finished task's chunks (:meth:`ChunkLayout.unpack`). Iterations that a concurrent run stored
        first were not written again: its chunks are read instead."""
        self.have[task.cell].extend(chunks)
        first, last = task.iterations[0], task.iterations[-1]
        if self.store is not None and [(ch.first, ch.last) for ch in chunks] != [(first, last)]:
            known = {(ch.first, ch.last) for ch in self.have[task.cell]}
            adopted, _ = self.layout.chunks(task.cell, lambda a, b: (a, b) not in known and a <= last and b >= first)
            self.have[task.cell].extend(adopted)

    def end_round(self) -> None:
        """After a round: without stopping rules, done; else each rule sees its cell's new iterations."""
        if self.stopping is None:
            self.active = []
            return
        still = []
        for c in self.active:
            stop = _feed(self.rules[c], self.have[c], self.by_name[c[0]], self.want[c], self.stopping_metric)
            self.fed[c] += len(self.want[c])
            if stop is not None:
                self.stopped_at[c] = stop
            elif self.fed[c] < self.iterations:
                still.append(c)
        self.active = still

    def limits(self) -> dict:
        """Iterations each cell reports: all, or up to the one its rule stopped at."""
        return {c: self.iterations if self.stopped_at[c] is None else self.stopped_at[c] + 1 for c in self.cells}

    def stopping_table(self) -> pd.DataFrame:
        """Per cell: iterations used and whether the cap was hit (``CVResults.stopping``)."""
        limit = self.limits()
        return pd.DataFrame(
            [{"dataset": c[0], "learner": c[1], "partitioner": c[2], "k": c[3],
              "n_iterations": limit[c],
              "capped": self.stopped_at[c] is None or bool(getattr(self.rules[c], "capped", False))}
             for c in self.cells])


def _fresh_rule(factory):
    rule = factory()
    if not (hasattr(rule, "update") and hasattr(rule, "reset")):
        raise TypeError("stopping must be a factory of rules with reset() and update(estimate, oof_proba)")
    rule.reset()
    return rule


def _runs(its: list, batch: int) -> Iterator[tuple[int, int]]:
    """Contiguous runs of ``its`` cut at multiples of ``batch`` (stable chunk names)."""
    start = prev = None
    for i in its:
        if start is not None and (i != prev + 1 or i % batch == 0):
            yield start, prev
            start = None
        if start is None:
            start = i
        prev = i
    if start is not None:
        yield start, prev


def _feed(rule, chunks, data, its, metric):
    """Show iterations ``its`` to the rule in order; the first one it stops at, or None."""
    K = len(data.classes)
    cols = [f"p_{j}" for j in range(K)]
    loaded = {}
    for i in its:
        ch = next(ch for ch in chunks if ch.first <= i <= ch.last)
        if id(ch) not in loaded:
            loaded[id(ch)] = chunk_instances(ch, data).sort_values(["iteration", "instance"])
        inst = loaded[id(ch)]
        est = ch.tables["iterations"].set_index("iteration").at[i, metric]
        p = inst.loc[inst.iteration == i, cols].to_numpy(dtype=float)
        if rule.update(float(est), p[:, 1] if K == 2 else p):
            return i
    return None
