"""The inputs of :func:`cvrepro.runner.run_cv` checked and prepared: data sets, learners, the grid.

Every bad argument fails here, before any work, with an error that names it.
"""
from __future__ import annotations

import functools
import inspect
import os
import sys
import sysconfig
import warnings
from dataclasses import dataclass

import cloudpickle
import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone

from .. import metrics as M
from ..partition import METRICS, make_partitioner
from ..verified import short_hash

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # lib/cvrepro

__all__ = ["CVData", "Grid", "check_inputs", "check_run_arguments", "check_backend", "prepare_data", "check_features",
           "resolve_learners", "check_class_sizes", "learner_hash", "results_revisions"]


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
    X = check_features(name, X)
    y = _check_labels(name, X, y)
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


def _check_labels(name, X, y):
    """``y`` as a 1-d Series or array matching ``X`` row by row, else an error naming the fix."""
    if isinstance(y, pd.DataFrame) or np.ndim(y) != 1:
        shape = getattr(y, "shape", np.shape(y))
        fix = "y.iloc[:, 0]" if isinstance(y, pd.DataFrame) else "np.ravel(y)"
        raise ValueError(f"data set {name!r}: y must be one-dimensional (one label per row), got "
                         f"{type(y).__name__} of shape {shape}; pass {fix}")
    if len(X) != len(y):
        raise ValueError(f"data set {name!r}: X has {len(X)} rows but y has {len(y)} labels")
    if len(y) == 0:
        raise ValueError(f"data set {name!r} has no rows")
    if isinstance(X, pd.DataFrame) and isinstance(y, pd.Series) and not X.index.equals(y.index):
        raise ValueError(f"data set {name!r}: y's index differs from X's (e.g. X {list(X.index[:3])}, "
                         f"y {list(y.index[:3])}); rows are matched by position only if you say so: "
                         "align them (y = y.loc[X.index]) or pass y.to_numpy()")
    return y


def check_features(name, X):
    """``X`` if every column is numeric (or boolean) or a pandas categorical, else a ``TypeError``
    that names the first other column and says how to declare it categorical.

    A text column would be encoded per training fold (its values learned from
    that fold), so a value seen only in a test fold fails every fold; the
    engine asks for the values to be declared once, as a categorical.
    """
    if isinstance(X, pd.DataFrame):
        if X.shape[1] == 0:
            raise ValueError(f"data set {name!r}: X has no columns (no features to learn from)")
        if not X.columns.is_unique:
            dup = X.columns[X.columns.duplicated()].unique().tolist()
            raise ValueError(f"data set {name!r}: X has duplicated column names {dup[:5]}; rename them "
                             "(e.g. X.columns = [f'{c}_{i}' for i, c in enumerate(X.columns)])")
        for col, dtype in X.dtypes.items():
            if isinstance(dtype, pd.CategoricalDtype) or (pd.api.types.is_numeric_dtype(dtype)
                                                          and not pd.api.types.is_complex_dtype(dtype)):
                continue
            values = X[col].dropna()
            examples = ", ".join(repr(v) for v in values.unique()[:3])
            raise TypeError(
                f"data set {name!r}: column {col!r} ({dtype}, {values.nunique()} distinct values, e.g. "
                f"{examples}) is neither numeric nor categorical; declare its values with "
                f"X[{col!r}] = X[{col!r}].astype('category'), or convert it to numbers "
                f"(pd.to_numeric) if it holds numbers")
        return X
    try:
        X = np.asarray(X)
    except ValueError as exc:
        raise TypeError(f"data set {name!r}: X is not a table ({exc})") from None
    if X.ndim != 2:
        raise ValueError(f"data set {name!r}: X must be 2-d (rows x columns), got shape {X.shape}")
    if X.shape[1] == 0:
        raise ValueError(f"data set {name!r}: X has no columns (no features to learn from)")
    if X.dtype.kind in "biuf":
        return X
    for j in range(X.shape[1]):
        try:
            pd.to_numeric(pd.Series(X[:, j]), errors="raise")
        except (TypeError, ValueError):
            raise TypeError(
                f"data set {name!r}: column {j} of X ({X.dtype}) is not numeric (e.g. {X[0, j]!r}); "
                "pass a pandas DataFrame whose nominal columns are categoricals "
                "(X[c] = X[c].astype('category'))") from None
    return X


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
        if est is None:
            from ..learners import make_learner
            make_learner(name)   # an unknown name fails now, not after other learners' tasks
        elif not (hasattr(est, "fit") and hasattr(est, "predict_proba")):
            raise TypeError(f"learner {name!r} must have fit and predict_proba, got {type(est).__name__}")
    return out


def _check_partitioner_params(partitioner: str, params: dict) -> None:
    """Unknown keys and values of ``partitioner_params`` fail here, not in the first task."""
    try:
        splitter = make_partitioner(partitioner, 2, **params)
    except TypeError as exc:
        allowed = sorted(inspect.signature(type(make_partitioner(partitioner, 2))).parameters)
        allowed = [a for a in allowed if a not in ("n_splits", "random_state")]
        raise ValueError(f"partitioner_params {sorted(params)} for {partitioner!r}: {exc}; its parameters "
                         f"are {allowed}") from None
    for key, choices in (("metric", METRICS), ("small_classes", ("error", "warn"))):
        if key in params and getattr(splitter, key, None) not in choices:
            raise ValueError(f"partitioner_params[{key!r}] must be one of {choices}, got {params[key]!r}")


def _check_picklable(ests: dict) -> None:
    """Every learner object can be copied to a worker (it is pickled even with n_jobs=1)."""
    for name, est in ests.items():
        if est is None:
            continue
        try:
            cloudpickle.dumps(clone(est))
        except Exception as exc:   # noqa: BLE001 - pickling raises many kinds
            raise TypeError(f"learner {name!r} cannot be pickled ({type(exc).__name__}: {exc}); the engine "
                            "copies each learner per fold and to workers: make its parameters picklable "
                            "(e.g. no open files, locks or lambdas inside local objects)") from None


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
    """Short hash of a learner's parameters (by name: of ``make_learner(name)``), part of its store key.

    A learner whose class (or a nested estimator's class) is user code (defined
    in a script, notebook or any module outside installed packages and
    cvrepro) is also keyed by the source of that class and its user-code base
    classes, so that editing its body or defaults recomputes its results.
    Where that source cannot be read, a ``UserWarning`` says that its results
    are keyed by parameters only. Functions the class calls are not covered.
    A library learner is keyed by its parameters and by its class's
    ``results_revision`` when above 0 (:func:`results_revisions`).
    """
    if est is None:
        from ..learners import make_learner
        est = make_learner(name, random_state=0)
    return short_hash(joblib.hash(clone(est)), *_user_sources(name, est), *results_revisions(est))


def results_revisions(est) -> list[str]:
    """The ``results_revision`` of every class in ``est`` (itself and nested estimators) that sets one above 0.

    The rule for cvrepro's own learners, whose store keys carry no digest of their code (stores of many
    core-hours stay valid across refactors; their results are pinned by the WEKA and KEEL oracle tests): a
    change that alters a learner's results on purpose (a fidelity fix) raises its class's
    ``results_revision``, which re-keys, and so recomputes, that learner's stored results only."""
    objs = [est] + [v for v in est.get_params(deep=True).values() if hasattr(v, "get_params")]
    return sorted({f"{type(o).__module__}.{type(o).__qualname__} results revision {r}"
                   for o in objs if (r := getattr(type(o), "results_revision", 0))})


def _user_sources(name, est) -> list[str]:
    """The source of every user-code class in ``est`` (itself and nested estimators), sorted."""
    objs = [est] + [v for v in est.get_params(deep=True).values() if hasattr(v, "get_params")]
    classes = {c for o in objs for c in type(o).__mro__ if _is_user_code(c)}
    sources = []
    for cls in sorted(classes, key=lambda c: (c.__module__, c.__qualname__)):
        try:
            sources.append(f"{cls.__module__}.{cls.__qualname__}\n{inspect.getsource(cls)}")
        except (OSError, TypeError):
            warnings.warn(f"learner {name!r}: the source of {cls.__qualname__} cannot be read, so its stored "
                          "results are keyed by its parameters only; clear the store (or rename the learner) "
                          "after changing its code", UserWarning, stacklevel=4)
    return sources


def _is_user_code(cls) -> bool:
    """Defined in ``__main__`` or in a module outside site-packages, the standard library and cvrepro."""
    if cls.__module__ == "__main__":
        return True
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    if not path:
        return False
    path = os.path.realpath(path)
    return not any(path.startswith(p + os.sep) for p in _system_paths()) and "site-packages" not in path \
        and "dist-packages" not in path


@functools.lru_cache(maxsize=1)
def _system_paths() -> tuple:
    """The standard library's, site-packages' and cvrepro's folders (looked up once: sysconfig is slow)."""
    paths = sysconfig.get_paths()
    return tuple(os.path.realpath(p) for p in (paths["stdlib"], paths["purelib"], paths["platlib"], _PACKAGE))


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


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _check_int(name: str, value, low: int, high: int | None = None, what: str = "") -> None:
    """``value`` is an integer in ``[low, high]``: else a TypeError or ValueError naming ``name``."""
    what = what or (f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]")
    if not _is_int(value):
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be {what}, got {value!r}")


def check_backend(n_jobs, backend) -> None:
    """``n_jobs`` (an integer, not 0) and ``backend`` (a joblib backend, ``"dask"`` or a scheduler address)."""
    if not _is_int(n_jobs):
        raise TypeError(f"n_jobs must be an integer (1: in process, -1: all cores), got {n_jobs!r} "
                        f"({type(n_jobs).__name__})")
    if n_jobs == 0:
        raise ValueError("n_jobs must not be 0 (1: in process, -1: all cores)")
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a string ('loky', 'threading', 'dask' or a scheduler address "
                        f"such as 'tcp://host:8786'), got {type(backend).__name__}")
    if backend != "dask" and "://" not in backend and backend not in joblib.parallel.BACKENDS:
        raise ValueError(f"backend must be one of {sorted(joblib.parallel.BACKENDS)}, 'dask' or a "
                         f"scheduler address such as 'tcp://host:8786', got {backend!r}")


def check_run_arguments(iterations, n_jobs, backend, seed, batch_size, store, progress, batched,
                        stopping, partitioner_params) -> None:
    """The scalar arguments of :func:`~cvrepro.runner.run_cv`, type and range, each error naming its parameter."""
    _check_int("iterations", iterations, 1)
    check_backend(n_jobs, backend)
    _check_int("seed", seed, 0, 2**32 - 1 - int(iterations),
               "an integer in [0, 2**32 - 1 - iterations] (iteration i uses seed + i)")
    if batch_size is not None:
        _check_int("batch_size", batch_size, 1, what="None or an integer >= 1")
    if store is not None and not isinstance(store, (str, os.PathLike)):
        raise TypeError(f"store must be None or a directory path, got {type(store).__name__}")
    for name, flag in (("progress", progress), ("batched", batched)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if stopping is not None and not callable(stopping):
        raise TypeError("stopping must be None or a factory (e.g. a class or lambda) of stopping rules, "
                        f"got {type(stopping).__name__}")
    if partitioner_params is not None and not isinstance(partitioner_params, dict):
        raise TypeError(f"partitioner_params must be None or a dict, got {type(partitioner_params).__name__}")


def check_inputs(datasets, learners, folds, iterations, partitioner, partitioner_params,
                 stopping, stopping_metric) -> Grid:
    """The grid of :func:`~cvrepro.runner.run_cv` after checking every argument."""
    _check_int("iterations", iterations, 1)
    folds = (folds,) if _is_int(folds) else tuple(folds) if isinstance(folds, (list, tuple, range)) else folds
    if not isinstance(folds, tuple) or not folds or any(not _is_int(k) or k < 2 for k in folds):
        raise ValueError(f"folds must be an integer >= 2 or a sequence of them, got {folds!r}")
    if stopping is not None and stopping_metric not in M.METRICS:
        raise ValueError(f"stopping_metric must be one of {M.METRICS}, got {stopping_metric!r}")
    partitioner = type(make_partitioner(partitioner, 2)).__name__.lower()  # validated, canonical
    pparams = tuple(sorted((partitioner_params or {}).items()))
    _check_partitioner_params(partitioner, dict(pparams))
    datas = [prepare_data(d) for d in (datasets if isinstance(datasets, (list, tuple)) else [datasets])]
    names = [d.name for d in datas]
    if not names:
        raise ValueError("no data sets given")
    if len(set(names)) != len(names):
        raise ValueError(f"data set names must be unique, got {names}")
    ests = resolve_learners(learners)
    _check_picklable(ests)
    check_class_sizes(datas, folds, dict(pparams))
    return Grid(tuple(datas), ests, folds, partitioner, pparams)
