"""Speed of the WEKA ports of issue 14 against scikit-learn's nearest equivalents.

Per data set: fit on a 90 % split + predict the rest, median over repeats, for
  LR (WEKA Logistic, ridge 1e-8)        vs LogisticRegression(C=1e8, lbfgs)
  RF (WEKA RandomForest, 10 trees)      vs RandomForestClassifier(10 trees, same K)
  Bagging (10 WEKA REPTrees)            vs BaggingClassifier(10 DecisionTreeClassifier)
  REPTree, RandomTree                   vs DecisionTreeClassifier (entropy)
  Perceptron (WEKA MLP -H 0, 500 epochs) vs MLP -H 3 (ours) for scale
scikit-learn gets the same rows, nominal attributes one-hot coded, missing values
filled with the mean (it needs numbers), standardised for LogisticRegression.
Also: the batched multi-fold path (``fit_predict_folds``, data encoded once)
against fold-by-fold fitting, 10-fold CV on one data set per learner.
Last: WEKA Logistic (-R 1e-8 -M 500, Vanwinckelen's LR) per fit on N = 200 samples of kr-vs-k and
abalone drawn as that study draws them (CPU seconds, min and median, with the machine's load).
"""
import os
import time

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from timing import numeric_matrix, timed

from cvrepro.datasets import load_dataset
from cvrepro.learners import make_learner
from cvrepro.learners.random_tree import default_k
from cvrepro.studies.vanwinckelen2012 import LR_MAX_ITER, make_learners, sample_rows

DATASETS = ["pima", "vote", "crx", "glass", "credit-g", "segment", "chess", "soybean"]
REPEATS = 3
OURS = ["LR", "RF", "Bagging", "REPTree", "RandomTree", "Perceptron"]


def _sklearn(name, d):
    k = default_k(d)
    return {
        "LR": lambda: LogisticRegression(C=1e8, max_iter=5000),
        "RF": lambda: RandomForestClassifier(n_estimators=10, max_features=min(k, d), random_state=0),
        "Bagging": lambda: BaggingClassifier(DecisionTreeClassifier(), n_estimators=10, random_state=0),
        "REPTree": lambda: DecisionTreeClassifier(criterion="entropy", random_state=0),
        "RandomTree": lambda: DecisionTreeClassifier(criterion="entropy", random_state=0),
    }.get(name)


def main():
    rows = []
    for name in DATASETS:
        ds = load_dataset(name)
        perm = np.random.default_rng(0).permutation(len(ds.y))
        cut = int(0.9 * len(perm))
        tr, te = perm[:cut], perm[cut:]
        Xtr, Xte, ytr = ds.X.iloc[tr], ds.X.iloc[te], ds.y.iloc[tr]
        Z = numeric_matrix(ds.X)
        scaler = StandardScaler().fit(Z[tr])
        Ztr, Zte = Z[tr], Z[te]
        for learner in OURS:
            make_learner(learner).fit(Xtr.iloc[:60], ytr.iloc[:60])          # numba compilation
            row = {"dataset": name, "n": len(ds.y), "d": ds.X.shape[1], "learner": learner,
                   "ours_ms": 1e3 * timed(lambda learner=learner: make_learner(learner), Xtr, ytr, Xte, REPEATS,
                                           method="predict_proba")}
            sk = _sklearn(learner, Z.shape[1])
            if sk is not None:
                a, b = (scaler.transform(Ztr), scaler.transform(Zte)) if learner == "LR" else (Ztr, Zte)
                row["sklearn_ms"] = 1e3 * timed(sk, a, ytr, b, REPEATS, method="predict_proba")
                row["ours/sklearn"] = row["ours_ms"] / row["sklearn_ms"]
            rows.append(row)
        print(pd.DataFrame([r for r in rows if r["dataset"] == name]).round(2).to_string(index=False) + "\n",
              flush=True)
    table = pd.DataFrame(rows)
    ratio = table.dropna(subset=["ours/sklearn"]).groupby("learner")["ours/sklearn"].apply(
        lambda r: float(np.exp(np.log(r).mean())))
    print("\ngeometric mean fit+predict time, ours / scikit-learn's nearest equivalent:")
    print(ratio.round(2).to_string())
    print("\nbatched multi-fold path (fit_predict_folds) vs fold by fold, 10-fold CV on crx:")
    ds = load_dataset("crx")
    splits = list(StratifiedKFold(10, shuffle=True, random_state=0).split(ds.X, ds.y))
    classes = np.asarray(ds.y.cat.categories)
    for learner in OURS[:5]:
        est = make_learner(learner)
        t = time.perf_counter()
        est.fit_predict_folds(ds.X, ds.y, splits, [est.get_params().get("random_state")] * 10, classes)
        batched = time.perf_counter() - t
        t = time.perf_counter()
        for train, test in splits:
            clone(est).fit(ds.X.iloc[train], ds.y.iloc[train]).predict_proba(ds.X.iloc[test])
        single = time.perf_counter() - t
        print(f"  {learner:10s} batched {1e3 * batched:8.0f} ms, fold by fold {1e3 * single:8.0f} ms")

    lr_per_fit()


def lr_per_fit(samples=(("kr-vs-k", (0, 4, 7)), ("abalone", (0, 3))), size=200, repeats=5):
    """CPU seconds per WEKA Logistic fit on Vanwinckelen's samples (classes absent from a sample dropped)."""
    print(f"\nWEKA Logistic -R 1e-8 -M {LR_MAX_ITER} per fit, N = {size} samples "
          f"(CPU s; load {os.getloadavg()[0]:.1f}):")
    for pop, ids in samples:
        ds = load_dataset(pop)
        for s in ids:
            rows = sample_rows(len(ds.y), size, 0, pop, s)
            X, y = ds.X.iloc[rows], ds.y.iloc[rows].cat.remove_unused_categories()
            lr = make_learners(["LR"])["LR"]
            model = clone(lr).fit(X, y)
            times = []
            for _ in range(repeats):
                t = time.process_time()
                clone(lr).fit(X, y)
                times.append(time.process_time() - t)
            print(f"  {pop:8s} sample {s}: {model.coef_.size} parameters, {model.n_iter_} iterations: "
                  f"min {min(times):.4f} s, median {np.median(times):.4f} s, "
                  f"{1e3 * min(times) / model.n_iter_:.3f} ms per iteration")


if __name__ == "__main__":
    main()
