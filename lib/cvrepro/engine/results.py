"""The results of :func:`cvrepro.runner.run_cv`: chunks (in memory or in the store) assembled into tables.

A :class:`Chunk` holds the folds and iterations tables of a run of
iterations of one cell; its instances table (the big one) stays in the
store and is read when asked for. :func:`assemble` keys and concatenates the
chunks into :class:`CVResults`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..store import ResultStore
from .inputs import CVData

__all__ = ["KEYS", "CVFailureWarning", "CVResults", "Chunk", "load_chunk", "chunk_instances", "assemble"]

KEYS = ["dataset", "learner", "partitioner", "k"]


class CVFailureWarning(UserWarning):
    """Some folds failed; details in ``CVResults.failures``."""


@dataclass
class Chunk:
    """A contiguous run of iterations ``first..last`` of one cell."""

    first: int
    last: int
    tables: dict = field(default_factory=dict)   # kind -> DataFrame (in memory)
    where: object = None                         # (store, store cell) when on disk


class CVResults:
    """Tidy tables of a :func:`~cvrepro.runner.run_cv` grid (described in :mod:`cvrepro.runner`)."""

    def __init__(self, folds, iterations, failures, stopping, classes, instance_parts, order):
        self.folds = folds
        self.iterations = iterations
        self.failures = failures
        self.stopping = stopping
        self.classes = classes          # dataset -> array of class labels (p_j is classes[j])
        self._instance_parts = instance_parts
        self._order = order
        self._instances = None

    @property
    def instances(self) -> pd.DataFrame:
        """Out-of-fold probabilities (read from the store on first access)."""
        if self._instances is None:
            self._instances = _keyed_concat([(cell, load()) for cell, load in self._instance_parts], self._order)
        return self._instances

    def oof(self, dataset: str, learner: str, k: int, partitioner: str | None = None) -> np.ndarray:
        """Out-of-fold probabilities of one cell as an (iterations, n, K) array.

        Reads only that cell's chunks, so it stays cheap on paper-scale stores.
        """
        parts = [load() for cell, load in self._instance_parts
                 if cell[:2] == (dataset, learner) and cell[3] == k
                 and (partitioner is None or cell[2] == partitioner)]
        if not parts:
            raise KeyError(f"no results for dataset={dataset!r}, learner={learner!r}, k={k}")
        t = pd.concat(parts, ignore_index=True).sort_values(["iteration", "instance"])
        K = len(self.classes[dataset])
        p = t[[f"p_{j}" for j in range(K)]].to_numpy()
        return p.reshape(t.iteration.nunique(), -1, K)

    def __repr__(self):
        return (f"CVResults({len(self.folds)} folds, {len(self.iterations)} iterations, "
                f"{len(self.failures)} failures)")


def _keyed_concat(parts: list[tuple[tuple, pd.DataFrame]], order: dict) -> pd.DataFrame:
    """The frames of ``parts`` ((cell, frame) pairs) one under the other, each row's cell in the key columns
    in front (categoricals over ``order``'s values, ``k`` as int16). The keys are built once for all rows,
    not frame by frame: paper runs have tens of thousands of cells and thousands of learner settings."""
    if not parts:
        return pd.DataFrame({k: pd.Categorical([], categories=order[k]) if k != "k" else
                             pd.Series([], dtype="int16") for k in KEYS})
    lengths = [len(frame) for _, frame in parts]
    keys = {}
    for i, key in enumerate(KEYS):
        values = [cell[i] for cell, _ in parts]
        if key == "k":
            keys[key] = np.repeat(np.asarray(values, dtype=np.int16), lengths)
        else:
            dtype = pd.CategoricalDtype(order[key])
            keys[key] = pd.Categorical.from_codes(np.repeat(dtype.categories.get_indexer(values), lengths),
                                                  dtype=dtype)
    return pd.concat([pd.DataFrame(keys), pd.concat([frame for _, frame in parts], ignore_index=True)], axis=1)


def load_chunk(rs: ResultStore, cell, first: int, last: int, data: CVData, k: int) -> Chunk | None:
    """A stored chunk with its folds and iterations tables, after checking all three
    files (checksums, row counts); None if damaged (the store moves it aside)."""
    its = last - first + 1
    rows = {"folds": its * k, "iterations": its, "instances": its * len(data.codes)}
    tables = {}
    for kind in ("folds", "iterations", "instances"):
        t = rs.read(cell, first, last, kind, expected_rows=rows[kind])
        if t is None:
            return None
        tables[kind] = t
    del tables["instances"]  # read again when asked for: keeps memory small
    return Chunk(first, last, tables, (rs, cell))


def chunk_instances(chunk: Chunk, data: CVData) -> pd.DataFrame:
    """The instances table of a chunk (from memory, or read back from the store)."""
    if "instances" in chunk.tables:
        return chunk.tables["instances"]
    rs, cell = chunk.where
    t = rs.read(cell, chunk.first, chunk.last, "instances",
                expected_rows=(chunk.last - chunk.first + 1) * len(data.codes))
    if t is None:
        raise RuntimeError(f"results in {rs.root / '<table>' / cell.path} were damaged during the run; "
                           "run again to recompute them")
    return t


def assemble(cells, have, limit, by_name, order) -> CVResults:
    """Iterations ``0..limit[cell]-1`` of every cell from its chunks ``have[cell]``, as tidy tables.

    Overlapping chunks (concurrent runs into one store): the first one wins.
    Warns (:class:`CVFailureWarning`) when folds failed.
    """
    folds, iters, inst_parts = [], [], []
    for c in cells:
        data, n_it = by_name[c[0]], limit[c]
        seen, use = set(), []
        for ch in sorted(have[c], key=lambda ch: ch.first):
            take = [i for i in range(ch.first, min(ch.last + 1, n_it)) if i not in seen]
            if take:                 # overlapping chunks (concurrent runs): the first one wins
                use.append((ch, take))
                seen.update(take)
        missing = set(range(n_it)) - seen
        if missing:
            raise RuntimeError(f"cell {c}: iterations {sorted(missing)[:5]} missing after the run")
        for ch, take in use:
            for kind, out in (("folds", folds), ("iterations", iters)):
                out.append((c, ch.tables[kind][ch.tables[kind].iteration.isin(take)]))
        inst_parts += [(c, _instance_loader(ch, data, take)) for ch, take in use]
    folds = _keyed_concat(folds, order).sort_values(KEYS + ["iteration", "fold"], kind="stable", ignore_index=True)
    iters = _keyed_concat(iters, order).sort_values(KEYS + ["iteration"], kind="stable", ignore_index=True)
    failed = folds.failure_kind.notna()
    failures = folds.loc[failed, KEYS + ["iteration", "fold", "failure_kind", "failure_message"]] \
        .rename(columns={"failure_kind": "kind", "failure_message": "message"}).reset_index(drop=True)
    folds = folds.drop(columns=["failure_kind", "failure_message"])
    if len(failures):
        kinds = failures.kind.value_counts().to_dict()
        warnings.warn(f"{len(failures)} of {len(folds)} fold fits failed {kinds}; "
                      "see CVResults.failures", CVFailureWarning, stacklevel=3)
    stopping = pd.DataFrame(columns=KEYS + ["n_iterations", "capped"])
    classes = {d: by_name[d].classes for d in order["dataset"]}
    return CVResults(folds, iters, failures, stopping, classes, inst_parts, order)


def _instance_loader(ch: Chunk, data: CVData, take: list):
    def load():
        t = chunk_instances(ch, data)
        return t[t.iteration.isin(take)]
    return load
