"""Speed of KEEL's rule learners (Moreno-Torres et al.'s RIPPER, FURIA and PART-C) against our C4.5.

Per data set of the study (``paper_datasets("moreno_torres2012")``, incomplete
rows removed as the paper did), one 10-fold cross-validation (StratifiedKFold,
shuffled, seed 1): the time per fold of each learner to fit the training fold
and give the test fold's probabilities, as the engine does. The learners take
turns fold by fold (C4.5, RIPPER, FURIA, PART-C, C4.5, ...) and the clock is the
process's CPU time, so that other work on a shared machine slows each of them
alike. The KEEL learners get the whole data set's ranges
(``bounds=keel_bounds(X)``), as KEEL's partitions declare them. Numba
compilation is done before timing. The target (issue 22): at most 3 x C4.5's
time per fit, over the study's data sets (every data set has the same number
of fits in the study's design, so the ratio of the mean times is the ratio of
the grid's core-hours).

``python bench/bench_rules_keel.py [--all | data set ...]`` (default: ten of the
study's sets from small to large; ``--all``: all of them).
"""
import sys
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset, paper_datasets
from cvrepro.learners.furia import FURIA
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.learners.keel_part import KeelPART
from cvrepro.learners.keel_ripper import KeelRipper
from cvrepro.learners.tree import C45

LEARNERS = {"C4.5": lambda b: C45(), "RIPPER": lambda b: KeelRipper(bounds=b), "FURIA": lambda b: FURIA(bounds=b),
            "PART-C": lambda b: KeelPART(bounds=b)}
DEFAULT = ["haberman", "bupa", "heart", "breast", "sonar-keel", "crx", "german", "titanic", "banana", "spambase"]


def bench(name):
    ds = load_dataset(name, dropna=True)
    X, y = ds.X, ds.y
    bounds = keel_bounds(X)
    folds = list(StratifiedKFold(10, shuffle=True, random_state=1).split(np.zeros(len(y)), y))
    spent = dict.fromkeys(LEARNERS, 0.0)
    for train, test in folds:
        Xt, yt, Xs = X.iloc[train], y.iloc[train], X.iloc[test]
        for learner, make in LEARNERS.items():
            t = time.process_time()
            make(bounds).fit(Xt, yt).predict_proba(Xs)
            spent[learner] += time.process_time() - t
    row = {"dataset": name, "n": len(y), "d": X.shape[1]}
    row.update({f"{k}_s": v / len(folds) for k, v in spent.items()})
    return row


def main(names):
    warm = load_dataset("labor")
    for make in LEARNERS.values():                     # numba compilation (or loading the cache)
        make(None).fit(warm.X, warm.y).predict_proba(warm.X)
    print("CPU seconds per fold (fit + test-fold probabilities), 10-fold CV:")
    rows = []
    for name in names:
        rows.append(bench(name))
        print(pd.DataFrame([rows[-1]]).round(4).to_string(index=False, header=len(rows) == 1), flush=True)
    table = pd.DataFrame(rows)
    mean = {k: table[f"{k}_s"].mean() for k in LEARNERS}
    print(f"\nmean time per fold over {len(table)} data sets (CPU s): "
          + ", ".join(f"{k} {v:.4f}" for k, v in mean.items()))
    for k in ("RIPPER", "FURIA", "PART-C"):
        ratio = table[f"{k}_s"] / table["C4.5_s"]
        print(f"{k}: {mean[k] / mean['C4.5']:.2f} x C4.5 (target <= 3); per data set: "
              f"median {ratio.median():.2f}, max {ratio.max():.2f} ({table['dataset'][ratio.idxmax()]})")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--all"]:
        args = [d for d in paper_datasets("moreno_torres2012")["dataset"] if d is not None]
    main(args or DEFAULT)
