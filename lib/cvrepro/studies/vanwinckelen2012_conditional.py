"""Vanwinckelen & Blockeel (2012): the populations, their samples and the conditional errors: one fit per
(sample, learner), one prediction of the population, as tasks of :func:`cvrepro.engine.map_tasks` (keyed by
this module's source: what a conditional error depends on lives here, apart from the tables and the text).
"""
from __future__ import annotations

import time
import warnings
import zlib
from functools import lru_cache

import numpy as np
import pandas as pd

from .vanwinckelen2012_design import POPULATIONS

CHUNK_ROWS = 65_536     # predict the population in chunks of at most this many rows (all of D at once here)
SAMPLES_PER_TASK = 10   # samples per conditional-error task
# Every learner is told the population's classes (WEKA reads the population's file and declares them all,
# present in the sample or not): :class:`PopulationClasses` in CV, the population's categorical labels in
# the conditional errors. Part of the conditional errors' cache key.
CLASSES = "population"


@lru_cache(maxsize=8)
def population(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """The population D: the catalog set (adult: its training and test files together)."""
    from ..datasets import load_dataset

    if name not in POPULATIONS:
        raise ValueError(f"unknown population {name!r}; the paper's populations are {', '.join(POPULATIONS)}")
    ds = load_dataset(name)
    X, y = ds.X, ds.y
    if name == "adult":
        test = load_dataset(name, split="test")
        X = pd.concat([X, test.X], ignore_index=True)
        y = pd.concat([y, test.y], ignore_index=True)
    y = y if isinstance(y.dtype, pd.CategoricalDtype) else y.astype("category")
    return X.reset_index(drop=True), y.reset_index(drop=True).rename("class")


def _key(name: str) -> int:
    return zlib.crc32(name.encode())


def sample_rows(n_population: int, size: int, seed: int, population_name: str, sample: int) -> np.ndarray:
    """Rows (in file order) of sample ``sample`` of ``size`` rows: the first ``size`` of a random
    permutation of the population seeded by (seed, population, sample), so samples are nested in N."""
    if not 2 <= size <= n_population // 2:
        raise ValueError(f"sample size must lie in [2, {n_population // 2}] for {population_name!r} "
                         f"({n_population} rows: D \\ T must stay the larger part), got {size}")
    rng = np.random.default_rng(np.random.SeedSequence([seed, _key(population_name), sample]))
    return np.sort(rng.permutation(n_population)[:size])


def conditional_seed(seed: int, population_name: str, sample: int) -> int:
    """random_state of the model fitted on the whole sample (randomised learners only)."""
    return int(np.random.SeedSequence([seed, _key(population_name), sample, 1]).generate_state(1)[0] >> 1)


def conditional_errors(samples: dict, learners: dict, sample_size: int, seed: int, store=None, n_jobs: int = 1,
                       backend="loky", progress: bool = True) -> pd.DataFrame:
    """eps_c of every learner on every sample: fit on T, predict D once (in chunks of at most
    ``CHUNK_ROWS`` rows, i.e. in one call for these populations, so that IBk widens its ranges
    over the held-out rows in file order as WEKA's evaluation does), score the rows of D \\ T.

    ``samples``: population -> sample numbers. ``store``: the folder of the task map
    (:func:`cvrepro.engine.map_tasks`; one task per population, learner and run of samples, keyed by
    the population's content, the learner's parameters, N, seed and this module's code), so an
    interrupted run resumes. Returns population, sample, learner, error, seconds (process time of
    the fit and the prediction).
    """
    from ..engine import Task, map_tasks

    tasks = [Task(dict(pop=pop, learner=learner, est=est, chunk=list(numbers[a:a + SAMPLES_PER_TASK]),
                       sample_size=sample_size, seed=seed), key=(_fingerprint(pop), CHUNK_ROWS, CLASSES))
             for pop, numbers in samples.items() for learner, est in learners.items()
             for a in range(0, len(numbers), SAMPLES_PER_TASK)]
    tables = map_tasks(conditional_task, tasks, store, n_jobs=n_jobs, backend=backend, progress=progress,
                       desc="conditional errors")
    out = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(
        columns=["population", "sample", "learner", "error", "seconds"])
    return out.sort_values(["population", "learner", "sample"]).reset_index(drop=True)


@lru_cache(maxsize=8)
def _fingerprint(pop: str) -> str:
    from ..engine.taskmap import fingerprint

    X, y = population(pop)
    return fingerprint(X) + fingerprint(y)


def conditional_task(pop, learner, est, chunk, sample_size, seed) -> pd.DataFrame:
    """eps_c of ``learner`` on the samples ``chunk`` of ``pop``: one task of :func:`conditional_errors`."""
    from threadpoolctl import threadpool_limits

    from ..runner import LearnerFactory

    X, y = population(pop)
    labels = y.to_numpy()
    order = np.asarray(y.cat.categories) if isinstance(y.dtype, pd.CategoricalDtype) else np.unique(labels)
    make = LearnerFactory(learner, est)
    rows = []
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in chunk:
            idx = sample_rows(len(labels), sample_size, seed, pop, s)
            started = time.process_time()
            model = make(conditional_seed(seed, pop, s))
            model.fit(X.iloc[idx].reset_index(drop=True), y.iloc[idx].reset_index(drop=True))   # classes declared
            pred = np.concatenate([_predict_labels(model, X.iloc[a:a + CHUNK_ROWS], order)
                                   for a in range(0, len(labels), CHUNK_ROWS)])
            held = np.ones(len(labels), dtype=bool)
            held[idx] = False
            rows.append({"population": pop, "sample": int(s), "learner": learner,
                         "error": float(np.mean(pred[held] != labels[held])),
                         "seconds": time.process_time() - started})
    return pd.DataFrame(rows)


def _predict_labels(model, X, order) -> np.ndarray:
    """Class of highest probability, ties to the first class in the population's class order
    (as the engine scores the CV folds)."""
    proba = np.asarray(model.predict_proba(X), dtype=float)
    learned = np.asarray(model.classes_)
    ranked = sorted(range(len(learned)), key=lambda j: int(np.flatnonzero(order == learned[j])[0]))
    return learned[ranked][np.argmax(proba[:, ranked], axis=1)]
