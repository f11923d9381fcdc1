"""Record KEEL's Ripper and FURIA on chosen folds: classes and rule sets (tests/fixtures/keel/*.json).

Needs java and KEEL's compiled classes ($CVREPRO_KEEL_CLASSES, see
cvrepro.reference.keel). For each case (data set, fold, declared ranges) it
writes the fold (test positions; training = the rest, in order), KEEL's
predicted class index per test instance and KEEL's printed rule set, parsed
(cvrepro.reference.keel_rules). tests/test_learners_keel_rules.py compares
KeelRipper and FURIA with these fixtures, and with KEEL itself when it is
available.

The cases cover nominal attributes, missing values (labor, vote, soybean,
breast-cancer), many classes (glass, zoo, soybean: 19), ties and duplicates
(tic-tac-toe, zoo), and both kinds of declared ranges (the training fold's,
the whole data set's). Seed: KEEL's first experiment seed (1286082570).

    CVREPRO_KEEL_CLASSES=/path/to/classes python tools/record_keel_rules.py [ripper] [furia]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from record_keel_fixtures import folds, subset

from cvrepro.datasets import load_dataset
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.learners.keel_ripper import KEEL_DEFAULT_SEED
from cvrepro.reference import keel
from cvrepro.reference.keel_rules import declared_labels, parse_furia, parse_ripper

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "keel"

# (data set, dropna, subsample size or None, declared ranges, folds to record)
RULE_SETS = [("iris", False, None, "train", 2), ("glass", False, None, "train", 2),
             ("labor", False, None, "train", 2), ("vote", False, None, "train", 2),
             ("soybean", False, None, "train", 2), ("breast-cancer", False, None, "whole", 2),
             ("zoo", False, None, "whole", 2), ("crx", True, None, "whole", 1),
             ("heart", False, None, "whole", 1), ("tic-tac-toe", False, None, "train", 1),
             ("haberman", False, None, "whole", 1), ("banana", False, 600, "train", 1)]

ALGORITHMS = {  # fixture file: (KEEL algorithm, our learner, rule parser)
    "ripper": ("Ripper-C", "KeelRipper", parse_ripper),
    "furia": ("FURIA-C", "FURIA", parse_furia),
}


def record(key):
    algorithm, learner, parse = ALGORITHMS[key]
    cases = []
    for name, dropna, size, ranges, n_folds in RULE_SETS:
        ds = load_dataset(name, dropna=dropna)
        rows = subset(ds, size)
        X = ds.X if rows is None else ds.X.iloc[rows]
        y = ds.y if rows is None else ds.y.iloc[rows]
        bounds = keel_bounds(X) if ranges == "whole" else None
        for f, test in enumerate(folds(y, n_folds)):
            train = np.setdiff1d(np.arange(len(y)), test)
            run = keel.run(algorithm, X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test],
                           seed=KEEL_DEFAULT_SEED, bounds=bounds)
            nominal, classes = declared_labels(keel.dat_header(X.iloc[train], y.iloc[train]))
            rules = parse(run.extra[0], nominal, classes)
            cases.append({"dataset": name, "dropna": dropna, "rows": rows, "fold": f, "ranges": ranges,
                          "test": [int(i) for i in test], "keel_pred": run.test_pred.tolist(), "keel_rules": rules})
            print(f"{key} {name} fold {f}: {len(test)} test instances, {len(rules)} rules", flush=True)
    payload = {"algorithm": algorithm, "params": dict(keel.ALGORITHMS[algorithm].parameters),
               "seed": KEEL_DEFAULT_SEED, "learner": learner, "cases": cases}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{key}.json").write_text(json.dumps(payload, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if not keel.available():
        sys.exit("KEEL is not available: set CVREPRO_KEEL_CLASSES to KEEL's compiled classes")
    for key in sys.argv[1:] or ALGORITHMS:
        record(key)
