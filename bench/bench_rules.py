"""Speed of WEKA's rule learners JRip and OneR against C4.5 (J48), fit time per fit on the same folds.

Target (issue 22): JRip at most 3x C4.5's time per fit, so that RIPPER stops dominating the
Moreno-Torres et al. grid. The data sets are that study's (``paper_datasets("moreno_torres2012")``);
each is split by ``StratifiedKFold(10, shuffle=True, random_state=0)`` and every training fold is
fitted by C4.5, JRip and OneR in turn (interleaved, so drift in the machine's load hits all three
alike), ``REPEATS`` times; a fit's time is the median of its repeats, in CPU seconds of this
process (``time.process_time``: other processes on a shared machine do not count). Reported per
data set: mean milliseconds per fit and the ratios to C4.5; overall: the geometric mean of the
per-data-set ratios, their maximum, and the ratio of total times (the grid's weighting).
"""
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset, paper_datasets
from cvrepro.learners import make_learner

LEARNERS = ["C4.5", "JRip", "OneR"]
N_FOLDS = 10
REPEATS = 3
TARGET = 3.0


def _fit_seconds(name, X, y):
    model = make_learner(name)
    t = time.process_time()
    model.fit(X, y)
    return time.process_time() - t


def bench_dataset(name: str) -> dict:
    """Mean CPU milliseconds per fit of each learner over the 10 training folds of data set ``name``."""
    ds = load_dataset(name)
    times = {learner: [] for learner in LEARNERS}
    for train, _ in StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(ds.X, ds.y):
        Xtr, ytr = ds.X.iloc[train], ds.y.iloc[train]
        runs = {learner: [] for learner in LEARNERS}
        for _ in range(REPEATS):
            for learner in LEARNERS:
                runs[learner].append(_fit_seconds(learner, Xtr, ytr))
        for learner in LEARNERS:
            times[learner].append(float(np.median(runs[learner])))
    row = {"dataset": name, "n": len(ds.y), "d": ds.X.shape[1]}
    for learner in LEARNERS:
        row[f"{learner}_ms"] = 1e3 * float(np.mean(times[learner]))
    for learner in LEARNERS[1:]:
        row[f"{learner}/C4.5"] = row[f"{learner}_ms"] / row["C4.5_ms"]
    return row


def main():
    names = [n for n in paper_datasets("moreno_torres2012")["dataset"].dropna().unique()]
    warm = load_dataset("crx")                     # numba compilation (numeric and nominal paths)
    for learner in LEARNERS:
        make_learner(learner).fit(warm.X, warm.y)
    rows = []
    for name in names:
        rows.append(bench_dataset(name))
        print(pd.DataFrame([rows[-1]]).round(2).to_string(index=False, header=len(rows) == 1), flush=True)
    table = pd.DataFrame(rows)
    print(f"\n{len(names)} data sets of moreno_torres2012, {N_FOLDS} training folds each, median of {REPEATS} "
          "fits per fold, CPU time")
    for learner in LEARNERS[1:]:
        ratio = table[f"{learner}/C4.5"]
        total = table[f"{learner}_ms"].sum() / table["C4.5_ms"].sum()
        print(f"{learner} / C4.5 time per fit: geometric mean {np.exp(np.log(ratio).mean()):.2f}x, "
              f"max {ratio.max():.2f}x ({table.loc[ratio.idxmax(), 'dataset']}), total time {total:.2f}x"
              + (f" (target <= {TARGET:.0f}x)" if learner == "JRip" else ""))


if __name__ == "__main__":
    main()
