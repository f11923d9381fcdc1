"""Speed of KEEL's learners (Moreno-Torres et al.'s 1NN, 3NN, LDA, SVM, PDFC) on their data sets.

Per data set (incomplete rows removed, as the paper did) a 2 x 5-fold cross-validation:
the time per fold (fit + predict) of the per-fold path, of the batched path
(``fit_predict_folds`` over the 10 splits, divided by 10; the engine hands it every
split of several iterations, which is where the shared work pays), and of scikit-learn's nearest
equivalent on the same KEEL-encoded numbers: KNeighborsClassifier (k = 1, 3),
LinearDiscriminantAnalysis, SVC with the RBF kernel and C = 100 (no Puk kernel there)
for the SVM, SVC(gamma=d) for PDFC. Learners get the whole data set's ranges
(``bounds=keel_bounds(X)``), as KEEL's partitions declare them.

``python bench/bench_keel_learners.py [--all | data set ...]`` (default: ten of the
study's sets from small to large; ``--all``: all of them, mushroom and phoneme included).
"""
import sys
import time

import numpy as np
import pandas as pd
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from cvrepro.datasets import list_datasets, load_dataset
from cvrepro.learners.keel_data import keel_bounds, numeric_ranges
from cvrepro.learners.keel_knn import KeelKNN
from cvrepro.learners.keel_lda import KeelLDA
from cvrepro.learners.keel_smo import smo_input
from cvrepro.learners.keel_svm import KeelSVM
from cvrepro.learners.pdfc import PDFC
from cvrepro.learners.preprocessing import Schema

OURS = {"1NN": lambda b: KeelKNN(k=1, bounds=b), "3NN": lambda b: KeelKNN(k=3, bounds=b),
        "LDA": lambda b: KeelLDA(bounds=b), "SVM": lambda b: KeelSVM(bounds=b), "PDFC": lambda b: PDFC(bounds=b)}
SKLEARN = {"1NN": lambda: KNeighborsClassifier(1), "3NN": lambda: KNeighborsClassifier(3),
           "LDA": lambda: LinearDiscriminantAnalysis(), "SVM": lambda: SVC(C=100.0),
           "PDFC": lambda: SVC(C=100.0, gamma=0.25)}


def _encoded(X):
    """KEEL's SMO input of the whole data set (numbers for scikit-learn)."""
    schema, Xe = Schema.learn(X)
    lo, hi = numeric_ranges(Xe, schema.nominal, keel_bounds(X))
    Z = smo_input(Xe, schema.nominal, schema.n_values, lo, hi, False)
    return np.nan_to_num(Z)


def bench(name):
    ds = load_dataset(name, dropna=True)
    X, y = ds.X, ds.y.to_numpy()
    bounds = keel_bounds(X)
    splits = [s for it in range(2)
              for s in StratifiedKFold(5, shuffle=True, random_state=it).split(np.zeros(len(y)), y)]
    classes = np.unique(y)
    Z = _encoded(X)
    row = {"dataset": name, "n": len(y), "d": X.shape[1]}
    warm = np.concatenate([np.flatnonzero(y == c)[:30] for c in classes])     # every class: every code path
    for learner, make in OURS.items():
        make(bounds).fit(X.iloc[warm], y[warm]).predict(X.iloc[warm])      # numba compilation
        t = time.perf_counter()
        for train, test in splits:
            make(bounds).fit(X.iloc[train], y[train]).predict_proba(X.iloc[test])
        row[f"{learner}_fold_s"] = (time.perf_counter() - t) / len(splits)
        t = time.perf_counter()
        make(bounds).fit_predict_folds(X, y, splits, [None] * len(splits), classes)
        row[f"{learner}_batched_s"] = (time.perf_counter() - t) / len(splits)
        t = time.perf_counter()
        for train, test in splits:
            SKLEARN[learner]().fit(Z[train], y[train]).predict(Z[test])
        row[f"{learner}_sklearn_s"] = (time.perf_counter() - t) / len(splits)
    return row


def main(names):
    rows = []
    for name in names:
        rows.append(bench(name))
        print(pd.DataFrame([rows[-1]]).round(4).to_string(index=False, header=len(rows) == 1), flush=True)
    table = pd.DataFrame(rows)
    print("\nmean time per fold over the data sets (s): ours per fold / ours batched / scikit-learn")
    for learner in OURS:
        cols = [f"{learner}_{k}_s" for k in ("fold", "batched", "sklearn")]
        print(f"  {learner:5s}" + "".join(f"  {table[c].mean():8.4f}" for c in cols))


DEFAULT = ["haberman", "heart", "bupa", "crx", "tic-tac-toe", "german", "titanic", "chess", "spambase", "banana"]

if __name__ == "__main__":
    args = sys.argv[1:] if __file__.endswith(sys.argv[0].split("/")[-1]) else []
    if args == ["--all"]:
        args = sorted(list_datasets("moreno_torres2012")["name"])
    main(args or DEFAULT)
