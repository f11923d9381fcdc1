"""The fixed cost per fit (issue 28, item 3): our NB, C4.5, IBk and RF against WEKA 3.6 in a warm JVM.

WEKA's figures come from bench/weka_warm_fit_times.json (tools/record_weka_timings.py: same cases, same
folds, thread CPU time of buildClassifier + distributionForInstance on the test fold, median over 200 fits
after 300 warm-up fits). Ours, on the same folds of the same rows, in CPU time of this process
(``time.process_time``), after a warm-up (numba compilation):
  fit    ``make_learner(name).fit(X[train], y[train]).predict_proba(X[test])`` per fold, median over folds
         and rounds;
  batch  ``fit_predict_folds`` over the case's folds repeated ``iterations_per_task(10)`` times in one
         call (a default engine task of 10-fold CV: the engine's batched path, the data encoded once per
         call), divided by the number of splits, median over rounds.
Ratios are ours / WEKA's (target: at most 1). The machine's load average is printed with the results.
Usage: ``python bench/bench_fit_cost.py [learner ...]`` (default: every learner in the fixture).
"""
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from cvrepro.datasets import load_dataset
from cvrepro.engine.planning import iterations_per_task
from cvrepro.learners import make_learner

FIXTURE = Path(__file__).resolve().parent / "weka_warm_fit_times.json"
ROUNDS = 5
TASK = iterations_per_task(10)      # iterations of 10-fold CV in one engine task (one batched call)


def case_data(case: dict):
    """``(X, y, splits)`` of a fixture case: its rows of the data set and its folds."""
    ds = load_dataset(case["dataset"])
    X, y = ds.X, ds.y
    if case["rows"] is not None:
        X, y = X.iloc[case["rows"]], y.iloc[case["rows"]]
    fold = np.asarray(case["folds"])
    splits = [(np.flatnonzero(fold != k), np.flatnonzero(fold == k)) for k in range(fold.max() + 1)]
    return X, y, splits


def per_fit(learner: str, X, y, splits, rounds: int = ROUNDS, task: int = TASK) -> tuple[float, float]:
    """Median CPU seconds per fit, fold by fold and batched (``task`` repetitions of ``splits`` per call)."""
    parts = [(X.iloc[tr], y.iloc[tr], X.iloc[te]) for tr, te in splits]
    classes = np.asarray(y.cat.categories)
    est = make_learner(learner)
    seeds = [est.get_params().get("random_state")] * len(splits) * task
    single, batch = [], []
    for _ in range(rounds):
        for Xtr, ytr, Xte in parts:
            model = make_learner(learner)
            t = time.process_time()
            model.fit(Xtr, ytr).predict_proba(Xte)
            single.append(time.process_time() - t)
        if hasattr(est, "fit_predict_folds"):
            t = time.process_time()
            est.fit_predict_folds(X, y, splits * task, seeds, classes)
            batch.append((time.process_time() - t) / len(seeds))
    return float(np.median(single)), float(np.median(batch)) if batch else float("nan")


def main(learners=()):
    doc = json.loads(FIXTURE.read_text())
    weka = {(t["case"], t["learner"]): t["cpu_ms_median"] for t in doc["timings"]}
    learners = list(learners) or list(dict.fromkeys(t["learner"] for t in doc["timings"]))
    print(f"WEKA: {doc['jar']}, {doc['java']}, one warm JVM, load when recorded {doc['load_average']}")
    print(f"ours: load {os.getloadavg()[0]:.1f} at start")
    rows = []
    for name, case in doc["cases"].items():
        X, y, splits = case_data(case)
        for learner in learners:
            per_fit(learner, X, y, splits, rounds=1, task=1)              # numba compilation, caches
            single, batch = per_fit(learner, X, y, splits)
            w = weka[name, learner]
            rows.append({"case": name, "n": case["n"], "learner": learner, "ours_ms": 1e3 * single,
                         "batched_ms": 1e3 * batch, "weka_ms": w, "ours/weka": 1e3 * single / w,
                         "batched/weka": 1e3 * batch / w})
        print(pd.DataFrame([r for r in rows if r["case"] == name]).round(3).to_string(index=False, header=False)
              if len(rows) > len(learners) else pd.DataFrame(rows).round(3).to_string(index=False), flush=True)
    table = pd.DataFrame(rows)
    gm = table.groupby("learner")[["ours/weka", "batched/weka"]].agg(lambda r: float(np.exp(np.log(r).mean())))
    print(f"\ngeometric mean per learner, ours / WEKA warm JVM per fit (target <= 1; load {os.getloadavg()[0]:.1f}):")
    print(gm.round(2).to_string())


if __name__ == "__main__":
    main(sys.argv[1:])
