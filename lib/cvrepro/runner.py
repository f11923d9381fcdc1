"""Repeated cross-validation of many learners on many data sets, cached and reproducible.

:func:`run_cv` runs the grid (data set x learner x k x iteration) for one
partitioner and returns a :class:`CVResults` with tidy tables:

``folds``       one row per fold: sizes, fit/predict seconds, every metric
``iterations``  one row per iteration: each metric averaged over the k folds
                (as the papers report), ``<metric>_pooled``, computed once
                on the iteration's pooled out-of-fold predictions, and the
                iteration's ``seconds`` (partitioning, fits, metrics)
``instances``   out-of-fold class probabilities of every iteration (float32),
                columns ``p_0 .. p_{K-1}`` in the order of ``results.classes``
``failures``    one row per fold whose learner raised, predicted NaN or met a
                single-class training fold (its metrics are NaN)
``stopping``    with a stopping rule: iterations used per cell and whether the cap was hit

Reproducibility: iteration ``i`` partitions with seed ``seed + i`` (so
``seed=0`` gives Raeder et al.'s seeds 0..N-1, the same folds for every
learner); the learner of fold ``f`` gets ``random_state`` derived from
``(seed, i, f)`` by ``numpy.random.SeedSequence`` unless its
``random_state`` was fixed (then it is kept). Nothing depends on
global random state, task order or the number of workers.

Work is cut into tasks of one (data set, learner, k) cell and a run of
iterations; tasks run in joblib (``backend="loky"``, the default) or on a
dask.distributed cluster (``backend="dask"`` uses the current client; a
scheduler address such as ``"tcp://host:8786"`` connects to one). Data sets
travel to each worker once: scattered on dask; with joblib, written once to
a temporary file that each worker reads on first use and keeps (tasks carry
only a reference). Finished tasks are written to the
store as they arrive, so an interrupted run resumes where it stopped. The
store is keyed by the data (content hash), the learner's parameters, the
partitioner, k and seed, not by the learner's code: clear it after changing
a learner's implementation.

Fitting lives in :func:`fit_predict_folds` only: a learner that offers a
batched ``fit_predict_folds(X, y, splits, random_states, classes)`` gets all
folds of a task (several iterations of one cell) in one call, with the same
results as fitting fold by fold; other learners are fitted fold by fold.
"""
from __future__ import annotations

import math
import os
import pickle
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone

from . import metrics as M
from .partition import encode, make_partitioner
from .store import ResultStore, short_hash

__all__ = ["run_cv", "CVResults", "fit_predict_folds", "FoldOutcome", "LearnerFactory",
           "learner_seed", "learner_seeds", "iterations_per_task",
           "CVFailureWarning"]

KEYS = ["dataset", "learner", "partitioner", "k"]


class CVFailureWarning(UserWarning):
    """Some folds failed; details in ``CVResults.failures``."""


# --------------------------------------------------------------------------- #
# Inputs
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class _Data:
    """One data set as the engine uses it (shipped to workers once)."""

    name: str
    X: object            # pandas DataFrame or numpy array, passed to learners as is
    y: np.ndarray        # original labels
    codes: np.ndarray    # class index 0..K-1 of every instance
    classes: np.ndarray
    fingerprint: str


def _prepare_data(item) -> _Data:
    if isinstance(item, str):
        from .datasets import load_dataset
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
    return _Data(str(name), X, ys.to_numpy(), codes, classes, fp)


def _resolve_learners(learners) -> dict:
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


class LearnerFactory:
    """Fresh, unfitted copies of one learner with a given ``random_state``.

    A dict learner is pickled once, together with its (sub-)estimators whose
    ``random_state`` is None, and unpickled per fold (cheaper than ``clone``;
    one pickle keeps the references into the copy), then the seed is set on
    each of them, as ``set_params`` would. A ``random_state`` fixed by the
    user is kept (WEKA's learners keep their ``-S`` seed in every fold). A
    learner given by name comes from ``make_learner(name, seed)``.
    """

    def __init__(self, name: str, est=None):
        self.name = name
        self.template = None
        self._example = None
        if est is not None:
            est = clone(est)
            params = est.get_params(deep=True)
            owners = [est if k == "random_state" else params[k[:-len("__random_state")]]
                      for k in params if (k == "random_state" or k.endswith("__random_state"))
                      and params[k] is None]   # a fixed seed is kept, as WEKA keeps -S
            self.template = pickle.dumps((est, owners))

    def example(self):
        """One instance, to ask what the learner offers (e.g. a batched path)."""
        if self._example is None:
            self._example = self(0)
        return self._example

    def __call__(self, seed: int):
        if self.template is None:
            from .learners import make_learner
            return make_learner(self.name, random_state=seed)
        est, owners = pickle.loads(self.template)
        for owner in owners:
            owner.random_state = seed
        return est


def iterations_per_task(k: int, base: int = 10) -> int:
    """Default task size of a k-fold cell without a stopping rule: ``base`` iterations for
    10-fold, more for smaller k, so that a task holds about as many splits whatever k."""
    return base * max(1, 10 // k)


def learner_seeds(seed: int, iteration: int, n_folds: int) -> list[int]:
    """The learners' random_state of folds 0..n_folds-1 of ``iteration`` (31-bit integers).

    Word ``f`` of ``SeedSequence([seed, iteration])``: a function of (seed,
    iteration, fold) only (the first words do not depend on ``n_folds``).
    """
    return [int(w >> 1) for w in np.random.SeedSequence([seed, iteration]).generate_state(n_folds)]


def learner_seed(seed: int, iteration: int, fold: int) -> int:
    """The learner's random_state for ``fold`` of ``iteration``."""
    return learner_seeds(seed, iteration, fold + 1)[fold]


# --------------------------------------------------------------------------- #
# The per-fold loop (a learner may later offer a batched replacement)
# --------------------------------------------------------------------------- #
@dataclass
class FoldOutcome:
    """Out-of-fold probabilities of one fold (aligned with the data set's classes) or a failure."""

    proba: np.ndarray | None
    fit_seconds: float = float("nan")
    predict_seconds: float = float("nan")
    failure: tuple[str, str] | None = None   # (kind, message)


def fit_predict_folds(make: LearnerFactory, data: _Data, splits, seeds,
                      batched: bool = True) -> list[FoldOutcome]:
    """Fit one fresh learner per ``(train, test)`` split and predict its test rows.

    This is the only place where learners are fitted. A learner that offers
    ``fit_predict_folds(X, y, splits, random_states, classes)`` (see
    :func:`batched_fit_predict`) gets every split of the task in one call when
    ``batched``; it falls back to fold-by-fold fitting if that call raises, so
    that each fold's failure is recorded on its own.
    """
    K = len(data.classes)
    out: list[FoldOutcome | None] = [None] * len(splits)
    todo = []
    for i, (train, _) in enumerate(splits):
        if np.count_nonzero(np.bincount(data.codes[train], minlength=K)) < 2:
            only = data.classes[data.codes[train[0]]]
            out[i] = FoldOutcome(None, failure=("single_class", f"training fold has only class {only!r}"))
        else:
            todo.append(i)
    if batched and todo and hasattr(make.example(), "fit_predict_folds"):
        try:
            done = batched_fit_predict(make, data, [splits[i] for i in todo], [seeds[i] for i in todo])
        except Exception:  # noqa: BLE001 - the per-fold path below records each fold's error
            done = None
        if done is not None:
            for i, o in zip(todo, done):
                out[i] = o
            todo = []
    for i in todo:
        out[i] = _fit_predict_one(make, data, splits[i], seeds[i])
    return out


def batched_fit_predict(make: LearnerFactory, data: _Data, splits, seeds) -> list[FoldOutcome]:
    """All splits through the learner's own ``fit_predict_folds`` in one call.

    The contract: ``est.fit_predict_folds(X, y, splits, random_states, classes)``
    returns one ``(len(test), len(classes))`` array per split, columns in the
    order of ``classes``, equal to fitting a copy with that ``random_state``
    on each training fold. The call's time is shared equally by its folds and
    counted as fit time (its fit and predict steps are interleaved).
    """
    est = make(seeds[0])
    states = [getattr(make(s), "random_state", s) for s in seeds]   # what each fold's copy has
    t0 = time.perf_counter()
    probas = est.fit_predict_folds(data.X, data.y, splits, states, data.classes)
    share = (time.perf_counter() - t0) / max(len(splits), 1)
    if len(probas) != len(splits):
        raise ValueError(f"fit_predict_folds returned {len(probas)} arrays for {len(splits)} splits")
    out = []
    for (_, test), raw in zip(splits, probas):
        proba = _align(np.asarray(raw, dtype=float), data.classes, data.classes, len(test))
        out.append(_checked(proba, len(test), share, 0.0))
    return out


def _fit_predict_one(make: LearnerFactory, data: _Data, split, seed) -> FoldOutcome:
    train, test = split
    X = data.X
    Xtr, Xte = (X.iloc[train], X.iloc[test]) if isinstance(X, pd.DataFrame) else (X[train], X[test])
    try:
        model = make(seed)
        t0 = time.perf_counter()
        model.fit(Xtr, data.y[train])
        t1 = time.perf_counter()
        raw = np.asarray(model.predict_proba(Xte), dtype=float)
        t2 = time.perf_counter()
        proba = _align(raw, model.classes_, data.classes, len(test))
    except Exception as exc:  # any learner error is recorded, the run goes on
        return FoldOutcome(None, failure=("error", f"{type(exc).__name__}: {exc}"))
    return _checked(proba, len(test), t1 - t0, t2 - t1)


def _checked(proba: np.ndarray, n_test: int, fit_s: float, predict_s: float) -> FoldOutcome:
    if not np.isfinite(proba).all():
        bad = int((~np.isfinite(proba)).any(axis=1).sum())
        return FoldOutcome(None, fit_s, predict_s,
                           ("nan_prediction", f"{bad} of {n_test} test rows have NaN/inf probabilities"))
    return FoldOutcome(proba, fit_s, predict_s)


def _align(raw: np.ndarray, learned, classes: np.ndarray, n: int) -> np.ndarray:
    """Columns of ``raw`` (the learner's ``classes_``) placed in the data set's class order."""
    learned = np.asarray(learned)
    if raw.shape != (n, len(learned)):
        raise ValueError(f"predict_proba returned shape {raw.shape}, expected ({n}, {len(learned)})")
    if len(learned) == len(classes) and (learned == classes).all():
        return raw
    proba = np.zeros((n, len(classes)))
    for j, c in enumerate(learned):
        hit = np.flatnonzero(classes == c)
        if not len(hit):
            raise ValueError(f"learner's class {c!r} is not a class of the data set")
        proba[:, hit[0]] = raw[:, j]
    return proba


# --------------------------------------------------------------------------- #
# One task: a run of iterations of one cell
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class _Task:
    cell: tuple            # (dataset, learner, partitioner, k)
    iterations: tuple      # contiguous iteration numbers
    seed: int
    partitioner_params: tuple
    batched: bool = True


def _run_task(data: _Data, est, task: _Task) -> dict[str, pd.DataFrame]:
    """Folds, iterations and instances tables of one task (no key columns)."""
    _, learner, partitioner, k = task.cell
    n, K = len(data.codes), len(data.classes)
    params = dict(task.partitioner_params)
    classes = np.arange(K)
    full_prior = np.bincount(data.codes, minlength=K) / n
    fold_rows, iter_rows, oofs, fold_ids = [], [], [], []
    encoded = None
    make = LearnerFactory(learner, est)
    plans = []   # (iteration, fold ids, splits, seeds, partition seconds)
    for it in task.iterations:
        started = time.perf_counter()
        splitter = make_partitioner(partitioner, k, task.seed + it, **params)
        if splitter.uses_distance and encoded is None:
            encoded = encode(data.X, data.codes, splitter.metric)
        fold_of = splitter.fold_ids(data.X, data.codes, encoded=encoded)
        splits = [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f)) for f in range(k)]
        plans.append((it, fold_of, splits, learner_seeds(task.seed, it, k), time.perf_counter() - started))
    outcomes_all = fit_predict_folds(make, data, [s for p in plans for s in p[2]],
                                     [x for p in plans for x in p[3]], task.batched)
    for n_done, (it, fold_of, splits, _, part_seconds) in enumerate(plans):
        started = time.perf_counter()
        outcomes = outcomes_all[n_done * k:(n_done + 1) * k]
        oof = np.full((n, K), np.nan)
        for (_, test), o in zip(splits, outcomes):
            if o.failure is None:
                oof[test] = o.proba
        per_fold = M.fold_metrics(data.codes, oof, fold_of, k)   # priors: training folds
        for f, ((train, test), o) in enumerate(zip(splits, outcomes)):
            kind, message = o.failure or (None, None)
            fold_rows.append({"iteration": it, "fold": f, "n_train": len(train), "n_test": len(test),
                              "fit_seconds": o.fit_seconds, "predict_seconds": o.predict_seconds,
                              "failure_kind": kind, "failure_message": message,
                              **{m: float(v[f]) for m, v in per_fold.items()}})
        agg = {m: float(np.mean(v)) for m, v in per_fold.items()}
        complete = all(o.failure is None for o in outcomes)
        pooled = (M.evaluate(data.codes, oof, classes, prior=full_prior) if complete
                  else dict.fromkeys(M.METRICS, np.nan))
        agg.update({f"{m}_pooled": v for m, v in pooled.items()})
        fitting = sum(o.fit_seconds + o.predict_seconds for o in outcomes if np.isfinite(o.fit_seconds))
        iter_rows.append({"iteration": it, "seconds": part_seconds + fitting + time.perf_counter() - started,
                          **agg})
        oofs.append(oof.astype(np.float32))
        fold_ids.append(fold_of.astype(np.int16))
    folds = _frame(fold_rows, {"iteration": np.int32, "fold": np.int16, "n_train": np.int32,
                               "n_test": np.int32, "failure_kind": object, "failure_message": object})
    iters = _frame(iter_rows, {"iteration": np.int32})
    its = np.asarray(task.iterations, dtype=np.int32)
    inst = pd.DataFrame({"iteration": np.repeat(its, n), "instance": np.tile(np.arange(n, dtype=np.int32), len(its)),
                         "fold": np.concatenate(fold_ids)})
    stacked = np.concatenate(oofs)
    for j in range(K):
        inst[f"p_{j}"] = stacked[:, j]
    return {"folds": folds, "iterations": iters, "instances": inst}


def _frame(rows: list[dict], dtypes: dict) -> pd.DataFrame:
    """Rows of equal keys as a DataFrame, columns typed as given (else float64), built
    column by column (much cheaper than DataFrame(rows).astype(...))."""
    return pd.DataFrame({key: np.array([r[key] for r in rows], dtype=dtypes.get(key, np.float64))
                         for key in rows[0]})


# --------------------------------------------------------------------------- #
# Execution backends
# --------------------------------------------------------------------------- #
def _is_dask(backend) -> bool:
    return isinstance(backend, str) and (backend == "dask" or "://" in backend)


def _execute(jobs: list, n_jobs: int, backend) -> Iterator:
    """Run ``(data, est, task, target)`` jobs; yield ``(task, tables)`` as they finish.

    With a ``target`` (store, cell directory) the worker writes the chunk itself
    and sends back only the small tables (local backends share the disk).
    """
    if not jobs:
        return
    if _is_dask(backend):
        yield from _execute_dask(jobs, backend)
    elif n_jobs == 1:
        yield from (_run_and_tag(*job) for job in jobs)
    elif backend == "threading":   # threads share our memory: nothing to ship
        yield from _parallel(n_jobs, backend)(joblib.delayed(_run_and_tag)(*job) for job in jobs)
    else:
        with tempfile.TemporaryDirectory(prefix="cvrepro-data-") as folder:
            refs = {}
            for data, *_ in jobs:   # each data set written once, read once per worker
                if data.fingerprint not in refs:
                    path = os.path.join(folder, data.fingerprint + ".pkl")
                    with open(path, "wb") as fh:
                        pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
                    refs[data.fingerprint] = _DataRef(data.fingerprint, path)
            yield from _parallel(n_jobs, backend)(
                joblib.delayed(_run_and_tag)(refs[d.fingerprint], *rest) for d, *rest in jobs)


def _parallel(n_jobs, backend):
    return joblib.Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered",
                           batch_size=1)   # our tasks are already coarse


@dataclass(frozen=True)
class _DataRef:
    """Where a worker finds a data set it has not seen yet (see :func:`_worker_data`)."""

    fingerprint: str
    path: str


_WORKER_DATA: dict = {}   # fingerprint -> _Data, per worker process
_WORKER_DATA_MAX = 4


def _worker_data(ref: _DataRef) -> _Data:
    """The data set behind ``ref``, loaded once per worker and kept for the next tasks."""
    data = _WORKER_DATA.pop(ref.fingerprint, None)
    if data is None:
        with open(ref.path, "rb") as fh:
            data = pickle.load(fh)
        while len(_WORKER_DATA) >= _WORKER_DATA_MAX:   # oldest out: memory stays bounded
            _WORKER_DATA.pop(next(iter(_WORKER_DATA)))
    _WORKER_DATA[ref.fingerprint] = data
    return data


def _run_and_tag(data, est, task, target=None):
    if isinstance(data, _DataRef):
        data = _worker_data(data)
    tables = _run_task(data, est, task)
    if target is not None:
        rs, cell_dir = target
        rs.write(cell_dir, task.iterations[0], task.iterations[-1], tables)
        del tables["instances"]
    return task, tables


def _execute_dask(jobs, backend):
    from distributed import Client, as_completed, default_client
    if backend == "dask":
        try:
            client = default_client()
        except ValueError:
            raise ValueError("backend='dask' needs a running distributed.Client (create one, "
                             "e.g. Client(LocalCluster()), or pass the scheduler address)") from None
        own = False
    else:
        client, own = Client(backend), True
    try:
        shipped = {}
        for data, *_ in jobs:  # each data set travels to the workers once
            if data.fingerprint not in shipped:
                shipped[data.fingerprint] = client.scatter(data, broadcast=True, hash=False)
        futures = [client.submit(_run_and_tag, shipped[d.fingerprint], e, t, pure=False)
                   for d, e, t, _ in jobs]   # workers may not share our disk: we write
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        if own:
            client.close()


# --------------------------------------------------------------------------- #
# Results
# --------------------------------------------------------------------------- #
@dataclass
class _Chunk:
    first: int
    last: int
    tables: dict = field(default_factory=dict)   # kind -> DataFrame (in memory)
    where: object = None                         # (store, cell_dir) when on disk


class CVResults:
    """Tidy tables of a :func:`run_cv` grid (see the module docstring)."""

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
            frames = [_keyed(load(), cell, self._order) for cell, load in self._instance_parts]
            self._instances = _concat(frames, self._order)
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


def _keyed(frame: pd.DataFrame, cell: tuple, order: dict) -> pd.DataFrame:
    frame = frame.copy()
    for i, (key, value) in enumerate(zip(KEYS, cell)):
        if key == "k":
            frame.insert(i, key, np.int16(value))
        else:
            frame.insert(i, key, pd.Categorical([value] * len(frame), categories=order[key]))
    return frame


def _concat(frames: list, order: dict) -> pd.DataFrame:
    if frames:
        return pd.concat(frames, ignore_index=True)
    return pd.DataFrame({k: pd.Categorical([], categories=order[k]) if k != "k" else
                         pd.Series([], dtype="int16") for k in KEYS})


# --------------------------------------------------------------------------- #
# The driver
# --------------------------------------------------------------------------- #
def run_cv(datasets, learners, folds=(2, 5, 10), iterations: int = 10, partitioner: str = "scv",
           store=None, n_jobs: int = 1, backend="loky", seed: int = 0,
           stopping: Callable | None = None, progress: bool = True, *,
           stopping_metric: str = "auroc", batch_size: int | None = None,
           partitioner_params: dict | None = None, batched: bool = True) -> CVResults:
    """Repeated k-fold CV of every learner on every data set, for each k in ``folds``.

    ``datasets``: catalog names, ``(name, X, y)`` tuples or ``Dataset`` objects.
    ``learners``: dict name -> unfitted estimator, or a list of names for
    :func:`cvrepro.learners.make_learner`. ``iterations``: repetitions per
    cell (the cap when ``stopping`` is given). ``store``: directory of the
    Parquet results cache, or None. ``stopping``: a factory of stopping rules
    (objects with ``reset()`` and ``update(estimate, oof_proba) -> bool``); a
    fresh rule is fed each cell's iterations in order, ``estimate`` being the
    fold-averaged ``stopping_metric`` and ``oof_proba`` the out-of-fold
    probability of the second class (binary) or the n x K matrix; the cell
    stops at the first iteration where it returns True. ``batch_size``:
    iterations per task (default: at most 10, and at least two tasks per
    worker; without ``stopping``, scaled by :func:`iterations_per_task`).
    ``partitioner_params``: extra arguments of the partitioner
    (e.g. ``{"metric": "hvdm"}``). ``batched``: let learners that offer
    ``fit_predict_folds`` fit all folds of a task in one call (same results;
    False forces fold-by-fold fitting).
    """
    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
    folds = (folds,) if isinstance(folds, (int, np.integer)) else tuple(folds)
    if not folds or any(not isinstance(k, (int, np.integer)) or k < 2 for k in folds):
        raise ValueError(f"folds must be integers >= 2, got {folds!r}")
    if stopping is not None and stopping_metric not in M.METRICS:
        raise ValueError(f"stopping_metric must be one of {M.METRICS}, got {stopping_metric!r}")
    partitioner = type(make_partitioner(partitioner, 2)).__name__.lower()  # validated, canonical
    pparams = tuple(sorted((partitioner_params or {}).items()))
    datas = [_prepare_data(d) for d in (datasets if isinstance(datasets, (list, tuple)) else [datasets])]
    names = [d.name for d in datas]
    if not names:
        raise ValueError("no data sets given")
    if len(set(names)) != len(names):
        raise ValueError(f"data set names must be unique, got {names}")
    ests = _resolve_learners(learners)
    _check_class_sizes(datas, folds, dict(pparams))
    n_workers = joblib.cpu_count() if _is_dask(backend) and n_jobs < 0 else \
        max(1, n_jobs) if _is_dask(backend) else joblib.effective_n_jobs(n_jobs)
    order = {"dataset": names, "learner": list(ests), "partitioner": [partitioner]}
    rs = ResultStore(store) if store is not None else None
    by_name = {d.name: d for d in datas}

    cells = [(d.name, ln, partitioner, int(k)) for d in datas for ln in ests for k in folds]
    cell_dirs, have = {}, {}
    for cell in cells:
        data, k = by_name[cell[0]], cell[3]
        have[cell] = []
        if rs is not None:
            cell_dirs[cell] = rs.cell_dir(cell[0], data.fingerprint, cell[1],
                                          _learner_hash(cell[1], ests[cell[1]]), partitioner,
                                          k, seed, short_hash(repr(pparams)))
            for first, last in rs.chunks(cell_dirs[cell]):
                chunk = _load_chunk(rs, cell_dirs[cell], first, last, data, k)
                if chunk is not None:
                    have[cell].append(chunk)
    if batch_size is None:
        # big tasks make batched learners faster per fit; two per worker keep the workers busy
        total = len(cells) * iterations
        batch_size = max(1, min(10, math.ceil(total / (2 * n_workers))))
        # without a stopping rule, small k gets more iterations per task: as many splits as 10-fold
        batch = {c: batch_size if stopping else iterations_per_task(c[3], batch_size) for c in cells}
    else:
        batch = dict.fromkeys(cells, batch_size)

    rules = {c: _fresh_rule(stopping) for c in cells} if stopping is not None else {}
    stopped_at = dict.fromkeys(cells)            # iteration at which the rule said stop
    fed = dict.fromkeys(cells, 0)                # iterations already shown to the rule
    active = list(cells)
    bar = _progress(progress)
    try:
        while active:
            # what each active cell needs now: everything, or its next batch when stopping
            want = {c: range(fed[c], min(iterations, fed[c] + batch[c]) if stopping else iterations)
                    for c in active}
            jobs = []
            for c in active:
                done = {i for ch in have[c] for i in range(ch.first, ch.last + 1)}
                target = None if rs is None or _is_dask(backend) else (rs, cell_dirs[c])
                for first, last in _runs([i for i in want[c] if i not in done], batch[c]):
                    jobs.append((by_name[c[0]], ests[c[1]],
                                 _Task(c, tuple(range(first, last + 1)), seed, pparams, batched), target))
            # biggest tasks first (rows x folds x iterations): less idle time at the end of the run
            jobs.sort(key=lambda job: -len(job[0].codes) * job[2].cell[3] * len(job[2].iterations))
            bar.total += len(jobs)
            bar.refresh()
            for task, tables in _execute(jobs, n_jobs, backend):
                first, last = task.iterations[0], task.iterations[-1]
                if rs is not None:
                    if "instances" in tables:   # not yet written by the worker
                        rs.write(cell_dirs[task.cell], first, last, tables)
                        tables = {kind: tables[kind] for kind in ("folds", "iterations")}
                    have[task.cell].append(_Chunk(first, last, tables, (rs, cell_dirs[task.cell])))
                else:
                    have[task.cell].append(_Chunk(first, last, tables))
                bar.update(1)
            if stopping is None:
                break
            still = []
            for c in active:
                stop = _feed(rules[c], have[c], by_name[c[0]], want[c], stopping_metric)
                fed[c] += len(want[c])
                if stop is not None:
                    stopped_at[c] = stop
                elif fed[c] < iterations:
                    still.append(c)
            active = still
    finally:
        bar.close()
    limit = {c: iterations if stopped_at[c] is None else stopped_at[c] + 1 for c in cells}
    results = _assemble(cells, have, limit, by_name, order)
    if rules:
        results.stopping = pd.DataFrame(
            [{"dataset": c[0], "learner": c[1], "partitioner": c[2], "k": c[3],
              "n_iterations": limit[c],
              "capped": stopped_at[c] is None or bool(getattr(rules[c], "capped", False))}
             for c in cells])
    return results


def _check_class_sizes(datas, folds, pparams):
    if pparams.get("small_classes") == "warn":
        return
    for d in datas:
        counts = np.bincount(d.codes)
        for k in folds:
            if counts.min() < k:
                raise ValueError(f"data set {d.name!r}: class {d.classes[counts.argmin()]!r} has "
                                 f"{counts.min()} examples, fewer than k={k} folds (pass "
                                 "partitioner_params={'small_classes': 'warn'} to allow it)")


def _learner_hash(name, est) -> str:
    if est is None:
        from .learners import make_learner
        est = make_learner(name, random_state=0)
    return short_hash(joblib.hash(clone(est)))


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


def _load_chunk(rs: ResultStore, cell_dir, first: int, last: int, data: _Data, k: int):
    """A stored chunk with its folds and iterations tables, after checking all three
    files (checksums, row counts); None if damaged (the store moves it aside)."""
    its = last - first + 1
    rows = {"folds": its * k, "iterations": its, "instances": its * len(data.codes)}
    tables = {}
    for kind in ("folds", "iterations", "instances"):
        t = rs.read(cell_dir, first, last, kind, expected_rows=rows[kind])
        if t is None:
            return None
        tables[kind] = t
    del tables["instances"]  # read again when asked for: keeps memory small
    return _Chunk(first, last, tables, (rs, cell_dir))


def _instances(chunk: _Chunk, data: _Data) -> pd.DataFrame:
    if "instances" in chunk.tables:
        return chunk.tables["instances"]
    rs, cell_dir = chunk.where
    t = rs.read(cell_dir, chunk.first, chunk.last, "instances",
                expected_rows=(chunk.last - chunk.first + 1) * len(data.codes))
    if t is None:
        raise RuntimeError(f"results in {cell_dir} were damaged during the run; run again to recompute them")
    return t


def _feed(rule, chunks, data, its, metric):
    """Show iterations ``its`` to the rule in order; the first one it stops at, or None."""
    K = len(data.classes)
    cols = [f"p_{j}" for j in range(K)]
    loaded = {}
    for i in its:
        ch = next(ch for ch in chunks if ch.first <= i <= ch.last)
        if id(ch) not in loaded:
            loaded[id(ch)] = _instances(ch, data).sort_values(["iteration", "instance"])
        inst = loaded[id(ch)]
        est = ch.tables["iterations"].set_index("iteration").at[i, metric]
        p = inst.loc[inst.iteration == i, cols].to_numpy(dtype=float)
        if rule.update(float(est), p[:, 1] if K == 2 else p):
            return i
    return None


def _assemble(cells, have, limit, by_name, order) -> CVResults:
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
                t = ch.tables[kind]
                out.append(_keyed(t[t.iteration.isin(take)], c, order))
            inst_parts.append((c, _instance_loader(ch, data, take)))
    folds = _concat(folds, order).sort_values(KEYS + ["iteration", "fold"], kind="stable", ignore_index=True)
    iters = _concat(iters, order).sort_values(KEYS + ["iteration"], kind="stable", ignore_index=True)
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


def _instance_loader(ch: _Chunk, data: _Data, take: list):
    def load():
        t = _instances(ch, data)
        return t[t.iteration.isin(take)]
    return load


def _progress(enabled: bool):
    from tqdm.auto import tqdm
    return tqdm(total=0, disable=not enabled, unit="task", desc="cross-validation", delay=1)
