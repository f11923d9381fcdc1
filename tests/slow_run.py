"""A cross-validation run slow enough to be killed or raced, run as a separate process by the
store tests (tests/test_runner.py, tests/test_store.py).

``python tests/slow_run.py STORE OUT TABLE [--n N] [--sleep S] [--folds K ...] [--batch-size B]``:
12 iterations of Gaussian NB, each fit sleeping S seconds, on N toy instances (two shifted
classes, seed 0) into the store STORE; writes the result's TABLE (iterations, instances) to
the Parquet file OUT.
"""
import argparse
import time

import numpy as np
from sklearn.naive_bayes import GaussianNB

from cvrepro.runner import run_cv


class SlowNB(GaussianNB):
    """Gaussian NB whose fit sleeps ``delay`` seconds first."""

    delay = 0.05

    def fit(self, X, y):
        time.sleep(self.delay)
        return super().fit(X, y)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("store")
    p.add_argument("out")
    p.add_argument("table", choices=["iterations", "instances"])
    p.add_argument("--n", type=int, default=80)
    p.add_argument("--sleep", type=float, default=0.05)
    p.add_argument("--folds", type=int, nargs="+", default=[2])
    p.add_argument("--batch-size", type=int, default=1)
    a = p.parse_args(argv)
    SlowNB.delay = a.sleep
    rng = np.random.default_rng(0)
    X = rng.normal(size=(a.n, 3))
    y = np.repeat([0, 1], a.n // 2)
    X[y == 1] += 1
    folds = a.folds[0] if len(a.folds) == 1 else tuple(a.folds)
    res = run_cv([("toy", X, y)], {"nb": SlowNB()}, folds=folds, iterations=12,
                 batch_size=a.batch_size, store=a.store, progress=False)
    getattr(res, a.table).to_parquet(a.out)


if __name__ == "__main__":
    main()
