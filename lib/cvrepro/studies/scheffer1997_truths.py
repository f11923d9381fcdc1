"""Scheffer & Herbrich (1997): the held-out truth at the training size of every tuned setting, the study's
task of :func:`cvrepro.engine.map_tasks` (keyed by this module's source; kept apart from the tables and the text,
so that editing those recomputes nothing).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .scheffer1997_design import engine_name, make_setting


def truth_at_training_size(family, setting, X, y, folds, X_hold, y_hold) -> float:
    """Held-out accuracy of ``setting`` fitted on each outer training set (rows whose ``folds`` differ from
    the fold), averaged over the folds: the truth of what the outer CV's mean estimates."""
    acc = []
    for f in np.unique(folds):
        train = folds != f
        model = make_setting(family, setting).fit(X[train].reset_index(drop=True), y[train].reset_index(drop=True))
        acc.append(np.mean(np.asarray(model.predict(X_hold)) == y_hold.to_numpy()))
    return float(np.mean(acc))


def _truth_task(family, setting, X, y, folds, X_hold, y_hold) -> dict:
    return {"accuracy": [truth_at_training_size(family, setting, X, y, folds, X_hold, y_hold)]}


def truths(units, settings, store, n_jobs, backend, progress, fold_of) -> dict:
    """Held-out accuracy at the training size of every setting on each pool sample (its outer folds,
    ``fold_of``; a pool sample has one repetition): one task per (sample, setting) of the task map,
    cached in ``store/truth-train-size`` and keyed also by the learner's full parameters."""
    from ..engine import Task, map_tasks

    pool = [(u, fold_of[min(k for k in fold_of if k[0] == u["unit"])]) for u in units if u["kind"] == "pool"]
    names = {(f, i): engine_name(f, s) for f, ss in settings.items() for i, s in enumerate(ss)}
    jobs: dict = {}   # (unit, engine name) -> task: a setting two families share (MLP's default) runs once
    for u, folds in pool:
        for (f, i), name in names.items():
            jobs.setdefault((u["unit"], name), Task(dict(family=f, setting=settings[f][i], X=u["X"], y=u["y"],
                                                         folds=folds, X_hold=u["X_hold"], y_hold=u["y_hold"]),
                                                    key=(name,)))
    tables = map_tasks(_truth_task, list(jobs.values()), None if store is None else Path(store) /
                       "truth-train-size", n_jobs=n_jobs, backend=backend, progress=progress, desc="held-out truths")
    accuracy = {job: table["accuracy"].iloc[0] for job, table in zip(jobs, tables)}
    return {(u["unit"], f): np.asarray([accuracy[(u["unit"], names[(f, i)])] for i in range(len(ss))])
            for u, _ in pool for f, ss in settings.items()}
