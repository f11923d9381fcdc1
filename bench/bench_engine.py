"""Engine throughput against the plain scikit-learn route, and partitioner speed.

Grid: 10 shipped numeric data sets x 6 learners x 10 x 10-fold stratified CV
(6,000 model fits), run (a) through ``run_cv`` and (b) through scikit-learn's
``cross_validate`` with ``RepeatedStratifiedKFold``, both with n_jobs=-1 and
the same learners. Prints fits per second for each, their ratio (target >=
1.5), and the engine's overhead above the pure fit+predict time it measured
inside the workers (target <= 15 %):

    overhead = wall_time * n_workers / sum(fit + predict seconds) - 1

split into the part spent inside the workers' tasks and the rest (scheduling,
idle workers). On a machine shared with other jobs both numbers grow: the
measurement assumes the workers have the cores to themselves.

Then times DOB-SCV and MS-SCV on 5,000 x 20 (target: well under a second).
"""
import os
import tempfile
import time

import joblib
import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier

from cvrepro.datasets import load_dataset
from cvrepro.partition import DOBSCV, MSSCV
from cvrepro.runner import run_cv

DATASETS = ["sonar", "bupa", "pima", "heart", "wisconsin", "ionosphere", "haberman",
            "wdbc", "mammographic", "twonorm"]
LEARNERS = {
    "NB": GaussianNB(),
    "C4.5-like tree": DecisionTreeClassifier(min_samples_leaf=2, random_state=0),
    "5-NN": make_pipeline(MinMaxScaler(), KNeighborsClassifier(5)),
    "logistic": make_pipeline(MinMaxScaler(), LogisticRegression(max_iter=500)),
    "LDA": LinearDiscriminantAnalysis(),
    "tree depth 4": DecisionTreeClassifier(max_depth=4, random_state=0),
}
K, REPEATS = 10, 10


def main():
    n_workers = joblib.cpu_count()
    data = []
    for name in DATASETS:
        ds = load_dataset(name)
        data.append((name, ds.X.to_numpy(dtype=float), ds.y.to_numpy()))
    fits = len(data) * len(LEARNERS) * K * REPEATS
    print(f"grid: {len(data)} data sets x {len(LEARNERS)} learners x {REPEATS} x {K}-fold "
          f"= {fits} fits, {n_workers} workers")

    # warm up the worker pool (processes started, libraries imported in every
    # worker) so that neither route pays start-up costs
    tiny = [(name, X[::4], y[::4]) for name, X, y in data[:1]]
    for _ in range(2):
        run_cv(tiny, LEARNERS, folds=(2,), iterations=4, n_jobs=-1, progress=False)
        cross_validate(GaussianNB(), *tiny[0][1:], cv=2, n_jobs=-1)

    t0 = time.perf_counter()
    fit_predict_sk = 0.0
    for _name, X, y in data:
        for est in LEARNERS.values():
            cv = RepeatedStratifiedKFold(n_splits=K, n_repeats=REPEATS, random_state=0)
            out = cross_validate(est, X, y, cv=cv, scoring="roc_auc", n_jobs=-1)
            fit_predict_sk += out["fit_time"].sum() + out["score_time"].sum()
    sk_wall = time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as store:
        t0 = time.perf_counter()
        res = run_cv(data, LEARNERS, folds=(K,), iterations=REPEATS, partitioner="scv",
                     store=store, n_jobs=-1, progress=False)
        eng_wall = time.perf_counter() - t0
        t0 = time.perf_counter()
        run_cv(data, LEARNERS, folds=(K,), iterations=REPEATS, store=store, progress=False)
        cached_wall = time.perf_counter() - t0
    assert len(res.folds) == fits and res.failures.empty
    fit_predict = float(res.folds.fit_seconds.sum() + res.folds.predict_seconds.sum())
    in_tasks = float(res.iterations.seconds.sum())

    sk_rate, eng_rate = fits / sk_wall, fits / eng_wall
    overhead = eng_wall * n_workers / fit_predict - 1
    print(f"scikit-learn cross_validate: {sk_wall:7.2f} s  {sk_rate:8.1f} fits/s "
          f"(its fit+score time {fit_predict_sk:.2f} s)")
    print(f"cvrepro run_cv:              {eng_wall:7.2f} s  {eng_rate:8.1f} fits/s "
          f"(fit+predict time {fit_predict:.2f} s; all 10 metrics, pooled metrics, "
          f"out-of-fold probabilities stored)")
    print(f"throughput ratio engine / scikit-learn: {eng_rate / sk_rate:.2f}x  (target >= 1.5x)")
    print(f"engine overhead above pure fit+predict: {overhead * 100:.1f} %  (target <= 15 %)")
    print(f"  inside the workers (partitioning, metrics, bookkeeping): "
          f"{(in_tasks / fit_predict - 1) * 100:.1f} %; scheduling, transfer, writing and idle "
          f"workers: {(eng_wall * n_workers / in_tasks - 1) * 100:.1f} %")
    print(f"same grid again from the store: {cached_wall:.2f} s")
    per = res.folds.groupby("learner", observed=True)[["fit_seconds", "predict_seconds"]].sum()
    print("fit+predict seconds per learner:\n" + per.round(3).to_string())

    rng = np.random.default_rng(0)
    X = rng.normal(size=(5000, 20))
    y = rng.integers(0, 2, 5000)
    for cls in (DOBSCV, MSSCV):
        t0 = time.perf_counter()
        cls(10, random_state=0).fold_ids(X, y)
        print(f"{cls.__name__} on 5,000 x 20, 10 folds: {time.perf_counter() - t0:.3f} s "
              "(target: well under 1 s)")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
