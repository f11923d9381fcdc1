"""Speed of WEKA's PART (ours) against our C4.5 (J48) and against WEKA's PART in a warm JVM.

Targets (issue 28, point 2): PART at most 2x C4.5's time per fit on the Moreno-Torres et al. data sets
(``paper_datasets("moreno_torres2012")``, each split by ``StratifiedKFold(10, shuffle=True,
random_state=0)``, every training fold fitted by both, interleaved, ``REPEATS`` times), and no slower
per fit than WEKA 3.6's PART in a warm JVM on credit-g, a 2,000-row kr-vs-k sample and a 5,000-row
adult sample (rows drawn by ``default_rng(0).permutation``, kept in file order). A fit's time is the
CPU time of this process (``time.process_time``), the minimum and median of its repeats; the machine's
load average is printed with the results.
"""
import os
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset, paper_datasets
from cvrepro.learners import make_learner

LEARNERS = ["C4.5", "PART"]
N_FOLDS = 10
REPEATS = 3
SAMPLE_REPEATS = 7
TARGET = 2.0
# WEKA 3.6.14's PART per fit in a warm JVM, CPU seconds (the minimum of 15-21 fits after 20-30 warm-up fits,
# ThreadMXBean CPU time, OpenJDK 17, on these samples; this machine, 2 cores, load average 6-20)
SAMPLES = {("credit-g", None): 0.0367, ("kr-vs-k", 2000): 0.0431, ("adult", 5000): 0.446}


def sample(name, n):
    """The data set ``name``, or ``n`` of its rows (a seeded draw, in file order)."""
    ds = load_dataset(name)
    if n is None or n >= len(ds.y):
        return ds.X, ds.y
    rows = np.sort(np.random.default_rng(0).permutation(len(ds.y))[:n])
    return ds.X.iloc[rows], ds.y.iloc[rows]


def _fit_seconds(name, X, y):
    model = make_learner(name)
    t = time.process_time()
    model.fit(X, y)
    return time.process_time() - t


def _times(X, y, repeats):
    runs = {learner: [] for learner in LEARNERS}
    for _ in range(repeats):
        for learner in LEARNERS:
            runs[learner].append(_fit_seconds(learner, X, y))
    return runs


def bench_samples() -> pd.DataFrame:
    """PART and C4.5 per fit on the issue's three samples, with WEKA's PART for reference."""
    rows = []
    for (name, n), weka in SAMPLES.items():
        X, y = sample(name, n)
        runs = _times(X, y, SAMPLE_REPEATS)
        rows.append({"dataset": name, "n": len(y), "PART_min_ms": 1e3 * min(runs["PART"]),
                     "PART_med_ms": 1e3 * float(np.median(runs["PART"])), "C4.5_min_ms": 1e3 * min(runs["C4.5"]),
                     "WEKA_PART_ms": 1e3 * weka, "PART/WEKA": min(runs["PART"]) / weka})
    return pd.DataFrame(rows)


def bench_dataset(name: str) -> dict:
    """Mean CPU milliseconds per fit (median of repeats) of each learner over the 10 training folds."""
    ds = load_dataset(name)
    times = {learner: [] for learner in LEARNERS}
    for train, _ in StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(ds.X, ds.y):
        runs = _times(ds.X.iloc[train], ds.y.iloc[train], REPEATS)
        for learner in LEARNERS:
            times[learner].append(float(np.median(runs[learner])))
    row = {"dataset": name, "n": len(ds.y), "d": ds.X.shape[1]}
    for learner in LEARNERS:
        row[f"{learner}_ms"] = 1e3 * float(np.mean(times[learner]))
    row["PART/C4.5"] = row["PART_ms"] / row["C4.5_ms"]
    return row


def main(names=None):
    warm = load_dataset("crx")                     # numba compilation (numeric and nominal paths)
    for learner in LEARNERS:
        make_learner(learner).fit(warm.X, warm.y)
    print(bench_samples().round(2).to_string(index=False), flush=True)
    print(f"(min / median of {SAMPLE_REPEATS} fits, CPU time; load average {os.getloadavg()[0]:.1f})\n", flush=True)
    names = names or list(paper_datasets("moreno_torres2012")["dataset"].dropna().unique())
    rows = []
    for name in names:
        rows.append(bench_dataset(name))
        print(pd.DataFrame([rows[-1]]).round(2).to_string(index=False, header=len(rows) == 1), flush=True)
    table = pd.DataFrame(rows)
    ratio = table["PART/C4.5"]
    print(f"\n{len(names)} data sets of moreno_torres2012, {N_FOLDS} training folds each, median of {REPEATS} "
          f"fits per fold, CPU time, load average {os.getloadavg()[0]:.1f}")
    print(f"PART / C4.5 time per fit: geometric mean {np.exp(np.log(ratio).mean()):.2f}x, max {ratio.max():.2f}x "
          f"({table.loc[ratio.idxmax(), 'dataset']}), total time "
          f"{table['PART_ms'].sum() / table['C4.5_ms'].sum():.2f}x (target <= {TARGET:.0f}x)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:] or None)
