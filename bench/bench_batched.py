"""Batched multi-fold fitting: three routes through the same grid.

Grid: Raeder et al.'s learners (C4.5, HDDT, NB, MLP, 5-NN, SMO) on six shipped
data sets, 10 x 10-fold stratified CV (3,600 fits), run
  (a) through scikit-learn's ``cross_validate`` with ``RepeatedStratifiedKFold``,
  (b) through ``run_cv`` fold by fold (``batched=False``),
  (c) through ``run_cv`` batched (learners' ``fit_predict_folds`` where they have it),
all with n_jobs=2. Prints fits per second, the ratios (targets: (c) >= 5 x (a)
overall and >= 10 x for the MLP), the per-learner breakdown, and the estimated
core-hours of the ``paper`` profile of every study that offers
``estimate_core_hours(params)`` (a Series by data set and learner, measured on
tasks of the size the paper run uses: batched learners are faster per fit on
bigger tasks), and their total for the collection.
"""
import time

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate

from cvrepro.datasets import load_dataset
from cvrepro.profiles import get_profile
from cvrepro.runner import run_cv
from cvrepro.studies import STUDY_IDS, load_study
from cvrepro.studies.raeder2010 import make_learners

DATASETS = ["breast-w", "bupa", "ionosphere", "pima", "sonar", "vote"]
LEARNERS = ["C4.5", "HDDT", "NB", "MLP", "5-NN", "SMO"]
K, REPEATS, N_JOBS = 10, 10, 2


def route_sklearn(learner: str) -> float:
    """Seconds for the grid of one learner through cross_validate."""
    model = make_learners([learner])[learner]
    start = time.perf_counter()
    for name in DATASETS:
        ds = load_dataset(name)
        cv = RepeatedStratifiedKFold(n_splits=K, n_repeats=REPEATS, random_state=0)
        cross_validate(model, ds.X, ds.y.astype(str), cv=cv, scoring="roc_auc_ovr", n_jobs=N_JOBS)
    return time.perf_counter() - start


def route_engine(learner: str, batched: bool) -> float:
    start = time.perf_counter()
    run_cv(DATASETS, make_learners([learner]), folds=(K,), iterations=REPEATS, n_jobs=N_JOBS,
           progress=False, batched=batched)
    return time.perf_counter() - start


def main():
    fits = len(DATASETS) * K * REPEATS
    print(f"grid per learner: {len(DATASETS)} data sets x {REPEATS} x {K}-fold = {fits} fits; "
          f"{len(LEARNERS)} learners; n_jobs={N_JOBS}")
    rows = []
    for learner in LEARNERS:
        a = route_sklearn(learner)
        b = route_engine(learner, batched=False)
        c = route_engine(learner, batched=True)
        rows.append((learner, a, b, c))
        print(f"  {learner:5s}  (a) {fits / a:7.1f} fits/s  (b) {fits / b:7.1f}  (c) {fits / c:7.1f}"
              f"   c/a = {a / c:5.1f}x  c/b = {b / c:5.1f}x", flush=True)
    total = np.array([r[1:] for r in rows]).sum(axis=0)
    all_fits = fits * len(LEARNERS)
    print(f"all learners: (a) {all_fits / total[0]:.1f} fits/s, (b) {all_fits / total[1]:.1f}, "
          f"(c) {all_fits / total[2]:.1f}; (c)/(a) = {total[0] / total[2]:.1f}x (target >= 5), "
          f"(c)/(b) = {total[1] / total[2]:.1f}x")
    mlp = next(r for r in rows if r[0] == "MLP")
    print(f"MLP: (c)/(a) = {mlp[1] / mlp[3]:.1f}x (target >= 10)")
    total_hours = 0.0
    for study_id in STUDY_IDS:
        try:
            study = load_study(study_id)
        except ModuleNotFoundError:
            continue
        if not hasattr(study, "estimate_core_hours"):
            continue
        hours = study.estimate_core_hours(get_profile("paper").study(study_id), n_jobs=N_JOBS)
        total_hours += hours.sum()
        print(f"estimated core-hours of the paper profile of {study_id}: {hours.sum():.2f}")
        print("  by learner: " + ", ".join(f"{k} {v:.2f}" for k, v in hours.groupby(level=1).sum().items()))
        top = hours.groupby(level=0).sum().sort_values(ascending=False).head(5)
        print("  costliest data sets: " + ", ".join(f"{k} {v:.2f}" for k, v in top.items()), flush=True)
    print(f"estimated core-hours of the whole collection at the paper profile: {total_hours:.2f} (target <= 8)")


if __name__ == "__main__":
    main()
