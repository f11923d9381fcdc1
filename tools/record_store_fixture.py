"""Record tests/fixtures/store_v2: a small results store of run_cv as a given cvrepro writes it.

The fixture in the repository was written by cvrepro at commit 7030fd4 (store format version 2, before
ResultStore and map_tasks shared :mod:`cvrepro.verified`); tests/test_verified.py checks that the current
code reads it back without recomputing anything and that its numbers are the ones computed now.
Run with that cvrepro on the path: ``PYTHONPATH=<its lib> python tools/record_store_fixture.py``.
"""
import shutil
import sys
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "store_v2"


def run_arguments() -> dict:
    """The run_cv arguments of the fixture's store (a batched WEKA naive Bayes on 40 rows, k 2 and 3)."""
    from cvrepro.learners.naive_bayes import WekaNaiveBayes
    rng = np.random.default_rng(31)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] + rng.normal(size=40) > 0, "yes", "no")
    return {"datasets": [("toy", X, y)], "learners": {"nb": WekaNaiveBayes()}, "folds": (2, 3),
            "iterations": 3, "batch_size": 2, "seed": 5, "progress": False}


def main() -> None:
    from cvrepro.runner import run_cv
    shutil.rmtree(FIXTURE, ignore_errors=True)
    run_cv(**run_arguments(), store=FIXTURE)
    for lock in FIXTURE.rglob(".lock"):
        lock.unlink()
    print(f"{len(list(FIXTURE.rglob('*.parquet')))} files written to {FIXTURE}", file=sys.stderr)


if __name__ == "__main__":
    main()
