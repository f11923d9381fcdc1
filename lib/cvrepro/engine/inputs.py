"""The inputs of :func:`cvrepro.runner.run_cv` checked and prepared: data sets, learners, the grid.

Every bad argument fails here, before any work, with an error that names it.
"""
from __future__ import annotations

from dataclasses import dataclass

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone

from .. import metrics as M
from ..partition import make_partitioner
from ..store import short_hash

__all__ = ["CVData", "Grid", "check_inputs", "prepare_data", "resolve_learners", "check_class_sizes",
           "learner_hash"]


@dataclass(frozen=True)
class CVData:
    """One data set as the engine uses it (shipped to workers once)."""

    name: str
    X: object            # pandas DataFrame or numpy array, passed to learners as is
    y: np.ndarray        # original labels
    codes: np.ndarray    # class index 0..K-1 of every instance
    classes: np.ndarray
    fingerprint: str


def prepare_data(item) -> CVData:
    """A catalog name, ``(name, X, y)`` tuple or ``Dataset`` as :class:`CVData`, labels checked."""
    if isinstance(item, str):
        from ..datasets import load_dataset
        ds = load_dataset(item)
        name, X, y = item, ds.X, ds.y
    elif isinstance(item, tuple) and len(item) == 3:
        name, X, y = item
    elif all(hasattr(item, a) for a in ("name", "X", "y")):
        name, X, y = item.name, item.X, item.y
    else:
        raise TypeError("each data set must be a catalog name, a (name, X, y) tuple or a "
                        f"Dataset, got {type(item).__name__}")
    if len(X) != len(y):
        raise ValueError(f"data set {name!r}: X has {len(X)} rows but y has {len(y)} labels")
    ys = y if isinstance(y, pd.Series) else pd.Series(np.asarray(y))
    if ys.isna().any():
        raise ValueError(f"data set {name!r}: y has {int(ys.isna().sum())} missing labels")
    cat = pd.Categorical(ys)
    present = np.unique(cat.codes)
    classes = np.asarray(cat.categories)[present]
    codes = np.searchsorted(present, cat.codes).astype(np.int64)
    if len(classes) < 2:
        raise ValueError(f"data set {name!r} has a single class")
    if isinstance(X, pd.DataFrame):
        X = X.reset_index(drop=True)
        fp = short_hash(pd.util.hash_pandas_object(X, index=False).to_numpy().tobytes(),
                        repr(list(X.columns)), repr(X.dtypes.astype(str).tolist()))
    else:
        X = np.asarray(X)
        content = joblib.hash(X) if X.dtype == object else np.ascontiguousarray(X).tobytes()
        fp = short_hash(content, str(X.dtype), str(X.shape))
    fp = short_hash(fp, codes.tobytes(), repr(classes.tolist()))
    return CVData(str(name), X, ys.to_numpy(), codes, classes, fp)


def resolve_learners(learners) -> dict:
    """name -> unfitted estimator, or name -> None for names built by make_learner."""
    if isinstance(learners, dict):
        out = dict(learners)
    elif isinstance(learners, (list, tuple)) and all(isinstance(n, str) for n in learners):
        out = {n: None for n in learners}
    else:
        raise TypeError("learners must be a dict name -> estimator or a list of learner names")
    if not out:
        raise ValueError("no learners given")
    for name, est in out.items():
        if est is not None and not (hasattr(est, "fit") and hasattr(est, "predict_proba")):
            raise TypeError(f"learner {name!r} must have fit and predict_proba, got {type(est).__name__}")
    return out


def check_class_sizes(datas, folds, pparams):
    """Every class has at least k examples for every k, unless ``small_classes="warn"`` allows fewer."""
    if pparams.get("small_classes") == "warn":
        return
    for d in datas:
        counts = np.bincount(d.codes)
        for k in folds:
            if counts.min() < k:
                raise ValueError(f"data set {d.name!r}: class {d.classes[counts.argmin()]!r} has "
                                 f"{counts.min()} examples, fewer than k={k} folds (pass "
                                 "partitioner_params={'small_classes': 'warn'} to allow it)")


def learner_hash(name, est) -> str:
    """Short hash of a learner's parameters (by name: of ``make_learner(name)``), part of its store key."""
    if est is None:
        from ..learners import make_learner
        est = make_learner(name, random_state=0)
    return short_hash(joblib.hash(clone(est)))


@dataclass(frozen=True)
class Grid:
    """The checked grid: data sets x learners x k, for one partitioner."""

    datas: tuple              # CVData, in the order given
    learners: dict            # name -> unfitted estimator, or None (built by make_learner)
    folds: tuple              # the k values
    partitioner: str          # canonical name
    partitioner_params: tuple  # sorted (name, value) pairs

    @property
    def by_name(self) -> dict:
        return {d.name: d for d in self.datas}

    @property
    def cells(self) -> list[tuple]:
        """``(dataset, learner, partitioner, k)`` of every cell, data set first, then learner, then k."""
        return [(d.name, ln, self.partitioner, int(k)) for d in self.datas for ln in self.learners
                for k in self.folds]

    @property
    def order(self) -> dict:
        """The categories of the results' key columns, in the order given."""
        return {"dataset": [d.name for d in self.datas], "learner": list(self.learners),
                "partitioner": [self.partitioner]}


def check_inputs(datasets, learners, folds, iterations, partitioner, partitioner_params,
                 stopping, stopping_metric) -> Grid:
    """The grid of :func:`~cvrepro.runner.run_cv` after checking every argument."""
    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
    folds = (folds,) if isinstance(folds, (int, np.integer)) else tuple(folds)
    if not folds or any(not isinstance(k, (int, np.integer)) or k < 2 for k in folds):
        raise ValueError(f"folds must be integers >= 2, got {folds!r}")
    if stopping is not None and stopping_metric not in M.METRICS:
        raise ValueError(f"stopping_metric must be one of {M.METRICS}, got {stopping_metric!r}")
    partitioner = type(make_partitioner(partitioner, 2)).__name__.lower()  # validated, canonical
    pparams = tuple(sorted((partitioner_params or {}).items()))
    datas = [prepare_data(d) for d in (datasets if isinstance(datasets, (list, tuple)) else [datasets])]
    names = [d.name for d in datas]
    if not names:
        raise ValueError("no data sets given")
    if len(set(names)) != len(names):
        raise ValueError(f"data set names must be unique, got {names}")
    ests = resolve_learners(learners)
    check_class_sizes(datas, folds, dict(pparams))
    return Grid(tuple(datas), ests, folds, partitioner, pparams)
