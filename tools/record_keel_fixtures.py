"""Record KEEL's outputs on chosen folds as small fixtures (tests/fixtures/keel/*.json).

Needs java and KEEL's compiled classes ($CVREPRO_KEEL_CLASSES, see
cvrepro.reference.keel). For each case (algorithm, data set, fold, declared
ranges) it writes the fold (test positions; training = the rest, in order),
KEEL's predicted class index per test instance and, for PDFC, its printed
number of rules. tests/test_learners_keel.py compares our learners with these
fixtures, and with KEEL itself when it is available.

The cases cover nominal attributes, missing values (labor, vote, breast-w,
soybean), many classes (glass, zoo, soybean: 19), ties and duplicates
(tic-tac-toe, zoo, housevotes), KEEL's LDA failures (crx, mushroom) and both
kinds of declared ranges (the training fold's, the whole data set's).

    CVREPRO_KEEL_CLASSES=/path/to/classes python tools/record_keel_fixtures.py
"""
from __future__ import annotations

import numpy as np
from keel_fixture_cases import fold_cases, main, write_fixture

from cvrepro.datasets import load_dataset
from cvrepro.reference import keel

SEED = 12345678
SVM_PARAMS = {"KERNELtype": "Puk", "C": 100.0, "FitLogisticModels": "True"}

# (data set, dropna, subsample size or None, declared ranges, folds to record)
KNN_SETS = [("crx", True, None, "whole", 2), ("tic-tac-toe", False, None, "train", 2),
            ("zoo", False, None, "whole", 2), ("soybean", False, None, "train", 2),
            ("labor", False, None, "train", 2), ("breast-w", False, None, "whole", 1),
            ("banana", False, 600, "train", 1), ("glass", False, None, "train", 2)]
LDA_SETS = [("crx", True, None, "whole", 2), ("mushroom", True, 600, "whole", 2),
            ("australian", False, None, "train", 2), ("glass", False, None, "train", 2),
            ("housevotes", False, None, "whole", 2), ("vote", False, None, "train", 2),
            ("breast-w", False, None, "train", 1), ("heart", False, None, "whole", 2),
            ("iris", False, None, "train", 2)]
SVM_SETS = [("heart", False, None, "whole", 2), ("crx", True, None, "whole", 1),
            ("glass", False, None, "train", 2), ("housevotes", False, None, "train", 2),
            ("labor", False, None, "train", 2), ("bupa", False, None, "whole", 1),
            ("zoo", False, None, "train", 1)]
PDFC_SETS = [("heart", False, None, "whole", 2), ("crx", True, None, "whole", 1),
             ("glass", False, None, "train", 2), ("tic-tac-toe", False, 400, "whole", 1),
             ("labor", False, None, "train", 2), ("haberman", False, None, "whole", 1),
             ("iris", False, None, "train", 2), ("vote", False, None, "train", 1)]

ALGORITHMS = {  # fixture file: (KEEL algorithm, KEEL parameters, our learner, its parameters, data sets)
    "knn1": ("KNN-C", {"K Value": 1}, "KeelKNN", {"k": 1}, KNN_SETS),
    "knn3": ("KNN-C", {"K Value": 3}, "KeelKNN", {"k": 3}, KNN_SETS),
    "lda": ("LDA-C", {}, "KeelLDA", {}, LDA_SETS),
    "svm": ("SMO-C", SVM_PARAMS, "KeelSVM", {}, SVM_SETS),
    "pdfc": ("PDFC-C", {}, "PDFC", {}, PDFC_SETS),
}


# a training fold without one class (KEEL's LDA then models classes 0..max only, and an
# absent class below the highest gets NaN discriminants): iris trained without class c, tested on all
ABSENT = {"lda": (0, 1), "svm": (0, 1), "pdfc": (0, 1), "knn1": (1,), "knn3": (1,)}


def record_absent(key, algorithm, params):
    ds = load_dataset("iris")
    cases = []
    for drop in ABSENT.get(key, ()):
        train = np.flatnonzero(ds.y.cat.codes.to_numpy() != drop)
        test = np.arange(len(ds.y))
        run = keel.run(algorithm, ds.X.iloc[train], ds.y.iloc[train], ds.X, ds.y, params=params, seed=SEED)
        cases.append({"dataset": "iris", "dropna": False, "rows": None, "fold": f"without class {drop}",
                      "ranges": "train", "train": train.tolist(), "test": test.tolist(),
                      "keel_pred": run.test_pred.tolist(), "keel_train_unclassified": int((run.train_pred < 0).sum())})
        print(f"{key} iris without class {drop}", flush=True)
    return cases


def record(key):
    algorithm, params, learner, learner_params, sets = ALGORITHMS[key]
    cases = record_absent(key, algorithm, params)
    for case, X, y, train, test, bounds in fold_cases(sets):
        run = keel.run(algorithm, X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test], params=params,
                       seed=SEED, bounds=bounds)
        case.update({"keel_pred": run.test_pred.tolist(), "keel_train_unclassified": int((run.train_pred < 0).sum())})
        if run.extra and "Number of rules" in run.extra[0]:
            case["keel_rules"] = int(run.extra[0].split(":")[1])
        cases.append(case)
        print(f"{key} {case['dataset']} fold {case['fold']}: {len(test)} test instances", flush=True)
    write_fixture(key, {"algorithm": algorithm, "params": params, "seed": SEED, "learner": learner,
                        "learner_params": learner_params, "cases": cases})


if __name__ == "__main__":
    main(record, ALGORITHMS)
