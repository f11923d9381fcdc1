"""Tasks for tests/test_taskmap.py, in a module of their own so that workers and a separate process import
them by name (a task's key holds its function's module and source).

``python -c "from taskmap_tasks import main; main()" STORE OUT N DELAY`` (tests/ on PYTHONPATH): the
task map of :func:`noisy_stats` over tasks 0..N-1 into STORE, slow enough to be killed; the result's
tables, concatenated, to the pickle OUT.
"""
import os
import sys
import time

import numpy as np
import pandas as pd

from cvrepro.engine import map_tasks


def toy(n=40, seed=0):
    """Two Gaussian classes in 3 features, ``n`` rows (half each)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.repeat(["a", "b"], n // 2)
    X[y == "b"] += 0.8
    return X, y


def noisy_stats(i: int, seed: int, n: int = 40, delay: float = 0.0) -> pd.DataFrame:
    """A small table of random numbers drawn from (seed, i); appends ``i`` to $TASKMAP_LOG when computed."""
    log = os.environ.get("TASKMAP_LOG")
    if log:
        with open(log, "a") as fh:
            fh.write(f"{i}\n")
    time.sleep(delay)
    x = np.random.default_rng([seed, i]).normal(size=(n, 3))
    return pd.DataFrame({"task": i, "column": ["a", "b", "c"], "mean": x.mean(axis=0), "sd": x.std(axis=0, ddof=1)})


def tasks(n: int, delay: float = 0.0) -> list[dict]:
    return [{"i": i, "seed": 7, "delay": delay} for i in range(n)]


def computed(log) -> list[int]:
    """The tasks computed since the log was started, sorted."""
    return sorted(int(line) for line in open(log).read().split()) if os.path.exists(log) else []


def main(argv=None):
    store, out, n, delay = (argv or sys.argv[1:])
    tables = map_tasks(noisy_stats, tasks(int(n), float(delay)), store, progress=False)
    pd.concat(tables, ignore_index=True).to_pickle(out)


def cv_iterations(data, est, task) -> pd.DataFrame:
    """The iterations table of one run_cv task, without its timings: the same work as the CV store's chunk."""
    from cvrepro.engine.tasks import run_task
    return run_task(data, est, task)["iterations"].drop(columns="seconds")
