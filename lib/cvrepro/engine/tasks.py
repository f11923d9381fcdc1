"""One task of :func:`cvrepro.runner.run_cv`: a run of iterations of one cell, partitioned, fitted, scored.

Iteration ``i`` partitions with seed ``seed + i`` (drawn once per worker
process and reused by every learner's task, :mod:`.partitions`); the learner of fold ``f``
gets ``random_state`` :func:`learner_seed` ``(seed, i, f)`` unless its
``random_state`` was fixed (then it is kept).

Fitting lives in :func:`fit_predict_folds` only: a learner that offers a
batched ``fit_predict_folds(X, y, splits, random_states, classes)`` gets all
folds of a task in one call, with the same results as fitting fold by fold;
other learners are fitted fold by fold.
"""
from __future__ import annotations

import pickle
import time
from dataclasses import dataclass

import cloudpickle
import numpy as np
import pandas as pd
from sklearn.base import clone

from .. import metrics as M
from . import partitions
from .inputs import CVData

__all__ = ["LearnerFactory", "learner_seeds", "learner_seed", "FoldOutcome", "fit_predict_folds",
           "batched_fit_predict", "Task", "run_task"]


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
            # cloudpickle: a class defined in a script or notebook (``__main__``) is pickled by
            # value, so that a worker that received it can copy it again; others by reference
            self.template = cloudpickle.dumps((est, owners), protocol=pickle.HIGHEST_PROTOCOL)

    def example(self):
        """One instance, to ask what the learner offers (e.g. a batched path)."""
        if self._example is None:
            self._example = self(0)
        return self._example

    def __call__(self, seed: int):
        if self.template is None:
            from ..learners import make_learner
            return make_learner(self.name, random_state=seed)
        est, owners = pickle.loads(self.template)
        for owner in owners:
            owner.random_state = seed
        return est


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
# Fitting: fold by fold, or all folds in one batched call
# --------------------------------------------------------------------------- #
@dataclass
class FoldOutcome:
    """Out-of-fold probabilities of one fold (aligned with the data set's classes) or a failure."""

    proba: np.ndarray | None
    fit_seconds: float = float("nan")
    predict_seconds: float = float("nan")
    failure: tuple[str, str] | None = None   # (kind, message)


def fit_predict_folds(make: LearnerFactory, data: CVData, splits, seeds,
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


def batched_fit_predict(make: LearnerFactory, data: CVData, splits, seeds) -> list[FoldOutcome]:
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


def _fit_predict_one(make: LearnerFactory, data: CVData, split, seed) -> FoldOutcome:
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


PROBA_TOLERANCE = 1e-6   # rows must sum to 1 within this; entries lie in [-tol, 1 + tol]


def _checked(proba: np.ndarray, n_test: int, fit_s: float, predict_s: float) -> FoldOutcome:
    """The fold's probabilities, or a failure if they are not probabilities (NaN, outside [0, 1],
    rows not summing to 1): such rows would give silently wrong RMSE and information scores."""
    if not np.isfinite(proba).all():
        bad = int((~np.isfinite(proba)).any(axis=1).sum())
        return FoldOutcome(None, fit_s, predict_s,
                           ("nan_prediction", f"{bad} of {n_test} test rows have NaN/inf probabilities"))
    tol = PROBA_TOLERANCE
    rows = ((proba < -tol) | (proba > 1 + tol)).any(axis=1) | (np.abs(proba.sum(axis=1) - 1) > tol)
    if rows.any():
        i = int(np.argmax(rows))
        return FoldOutcome(None, fit_s, predict_s, (
            "bad_probabilities", f"{int(rows.sum())} of {n_test} test rows of predict_proba are not "
            f"probabilities (each row must lie in [0, 1] and sum to 1), e.g. {np.round(proba[i], 6).tolist()} "
            f"(sum {proba[i].sum():.6g}); normalise the learner's output"))
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
class Task:
    """A run of iterations of one cell, as shipped to a worker."""

    cell: tuple            # (dataset, learner, partitioner, k)
    iterations: tuple      # contiguous iteration numbers
    seed: int
    partitioner_params: tuple
    batched: bool = True


def run_task(data: CVData, est, task: Task) -> dict[str, pd.DataFrame]:
    """Folds, iterations and instances tables of one task (no key columns)."""
    _, learner, partitioner, k = task.cell
    n, K = len(data.codes), len(data.classes)
    params = dict(task.partitioner_params)
    classes = np.arange(K)
    full_prior = np.bincount(data.codes, minlength=K) / n
    fold_rows, iter_rows, oofs, fold_ids = [], [], [], []
    make = LearnerFactory(learner, est)
    plans = []   # (iteration, fold ids, splits, seeds, partition seconds)
    for it in task.iterations:
        started = time.perf_counter()
        fold_of = partitions.fold_ids(data, partitioner, k, task.seed + it, params)   # kept per worker
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
        per_fold = M.fold_metrics(data.codes, oof, fold_of, k)   # priors: training folds + 1 (WEKA)
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
