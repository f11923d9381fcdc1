"""Compare KEEL's C45-C and PART-C with our C4.5 and PART (WEKA's) on Moreno-Torres et al.'s data sets.

``CVREPRO_KEEL_CLASSES=... python tools/compare_keel_c45_part.py [data set ...]`` trains both on the same
training folds (DOB-SCV, k=5, seed 0, the study's partitions; KEEL's files carry the whole data set's
ranges, as in KEEL's partitions) and writes, per data set and learner, the share of test instances on
which KEEL and we predict the same class, and KEEL's crisp AUC (``cvrepro.metrics.keel_auc``, the fold
mean) of each, to ``tests/fixtures/moreno_torres2012/keel_c45_part.csv``. Table II of the study reads it
(``cvrepro.studies.moreno_torres2012.keel_tree_agreement``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from cvrepro.learners import make_learner
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.metrics import keel_auc
from cvrepro.partition import make_partitioner
from cvrepro.reference import keel
from cvrepro.studies import moreno_torres2012 as study

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "moreno_torres2012" / "keel_c45_part.csv"
DATASETS = ["Haberman", "Heart", "Bupa", "Pima", "Sonar", "Wisconsin", "Australian", "Monk-2"]
PAIRS = {"C4.5": "C45-C", "PART": "PART-C"}   # ours (WEKA's J48 / PART) -> KEEL's method
K = 5


def compare(name: str) -> list[dict]:
    ds = study.load(name)
    codes = np.asarray(pd.Categorical(ds.y).codes)
    folds = make_partitioner("dobscv", K, study.SEED, metric=study.DISTANCE).fold_ids(ds.X, codes)
    bounds = keel_bounds(ds.X)
    rows = []
    for ours_name, keel_name in PAIRS.items():
        same, n, auc_ours, auc_keel = 0, 0, [], []
        for f in range(K):
            train, test = np.flatnonzero(folds != f), np.flatnonzero(folds == f)
            run = keel.run(keel_name, ds.X.iloc[train], ds.y.iloc[train], ds.X.iloc[test], ds.y.iloc[test],
                           bounds=bounds)
            ours = make_learner(ours_name).fit(ds.X.iloc[train], ds.y.iloc[train])
            pred = ours.predict(ds.X.iloc[test])
            classes = list(run.classes)
            ours_idx = np.array([classes.index(p) for p in pred])
            truth = np.array([classes.index(v) for v in ds.y.iloc[test]])
            same += int((ours_idx == run.test_pred).sum())
            n += len(test)
            keel_pred = np.where(run.test_pred >= 0, run.test_pred, np.nan)
            auc_ours.append(keel_auc(truth, ours_idx, labels=[0, 1]))
            auc_keel.append(keel_auc(truth, keel_pred, labels=[0, 1]))
        rows.append({"dataset": name, "learner": ours_name, "keel": keel_name, "test_instances": n,
                     "agreement": same / n, "keel_auc_ours": float(np.mean(auc_ours)),
                     "keel_auc_keel": float(np.mean(auc_keel))})
        print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    if not keel.available():
        sys.exit("KEEL is not available: set CVREPRO_KEEL_CLASSES to KEEL's compiled classes")
    names = sys.argv[1:] or DATASETS
    table = pd.DataFrame([r for name in names for r in compare(name)])
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False, float_format="%.6g")
    print(table.to_string())
