"""Record what WEKA 3.6's J48 -A does on one soybean fold, for tests/test_learners_j48_laplace.py.

With Laplace leaves (``-A``), J48's ``classifyInstance`` (the classes ``-p``
prints) takes the class of highest *uncorrected* probability, while its
``distributionForInstance`` and WEKA's evaluation (accuracy) use the
corrected one; on this fold 7 of 341 test instances get different classes
from the two. The fixture keeps the fold's test rows, WEKA's printed classes
and distributions (3 decimals) and the number its evaluation counts as
correct, and the full-precision distributions of WEKA's API, so every test runs without WEKA.

Run with WEKA's jar: ``CVREPRO_WEKA_JAR=.../weka.jar .venv/bin/python tools/record_j48_laplace_fixture.py``.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.reference.weka import correctly_classified, find_jar, predictions, run_folds, write_arff

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "weka" / "j48_laplace_soybean.json"
DATASET, SEED, N_SPLITS, FOLD = "soybean", 777, 2, 1
CLASSIFIER, OPTIONS = "weka.classifiers.trees.J48", ["-A"]


def fold(ds):
    """Train and test rows of the recorded fold: StratifiedKFold(2, shuffle=True, random_state=777), fold 1."""
    splits = list(StratifiedKFold(N_SPLITS, shuffle=True, random_state=SEED).split(ds.X, ds.y))
    return splits[FOLD]


def record() -> dict:
    ds = load_dataset(DATASET)
    X = ds.X.set_axis([f"a{j}" for j in range(ds.X.shape[1])], axis=1)
    train, test = fold(ds)
    with tempfile.TemporaryDirectory() as tmp:
        tr, te = Path(tmp) / "train.arff", Path(tmp) / "test.arff"
        write_arff(tr, X.iloc[train], ds.y.iloc[train])
        write_arff(te, X.iloc[test], ds.y.iloc[test])
        pred, dist = predictions(CLASSIFIER, OPTIONS, tr, te)
        correct = correctly_classified(CLASSIFIER, OPTIONS, tr, te)
    full = run_folds(CLASSIFIER, OPTIONS, X, ds.y, [(train, test)])[0].proba
    classes = [str(c) for c in ds.y.cat.categories]
    return {
        "what": "WEKA 3.6 J48 -A on one fold: -p classes (classifyInstance), distributions "
                "(distributionForInstance, printed with 3 decimals, here x 1000) and the evaluation's "
                "correctly classified count",
        "weka": Path(find_jar()).name,
        "command": f"java -cp weka.jar {CLASSIFIER} {' '.join(OPTIONS)} -t train.arff -T test.arff -p 0 -distribution",
        "dataset": DATASET,
        "split": f"StratifiedKFold({N_SPLITS}, shuffle=True, random_state={SEED}), fold {FOLD}",
        "test_rows": [int(i) for i in test],
        "classes": classes,
        "predicted": [classes[i] for i in pred],
        "distribution_per_mille": [[round(float(p) * 1000) for p in row] for row in dist],
        "correctly_classified": correct,
        "distribution": full.tolist(),   # distributionForInstance in full precision (reference.weka.run_folds)
    }


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    data = record()
    FIXTURE.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {FIXTURE} ({len(data['test_rows'])} test rows, {data['correctly_classified']} correct)")
