"""Vanwinckelen & Blockeel (2012): Algorithm 1 (repeated CV through the engine, the conditional errors of
:mod:`.vanwinckelen2012_conditional`), the sweep over N, the shipped tables and the cost estimate.
:mod:`.vanwinckelen2012` is the study's public face.
"""
from __future__ import annotations

import itertools
import os
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .. import shipped as shipped_results
from .vanwinckelen2012_conditional import conditional_errors, conditional_task, population, sample_rows
from .vanwinckelen2012_design import (
    STUDY_ID,
    TWIN,
    check_params,
    declared,
    make_learners,
    population_samples,
    repetition_groups,
    runs_fold,
    sample_name,
    sample_repetitions,
    test_grid,
)


# --------------------------------------------------------------------------- #
# Algorithm 1
# --------------------------------------------------------------------------- #
@dataclass
class Experiment:
    """Algorithm 1's results: tidy tables, learner and population as plain strings.

    ``conditional``: population, sample, learner, error (eps_c), seconds;
    ``iterations``: population, sample, learner, k, iteration, error (one CV_k);
    ``folds``: the same per fold (error); ``failures``: the engine's failed folds.
    """

    params: dict
    conditional: pd.DataFrame
    iterations: pd.DataFrame
    folds: pd.DataFrame
    failures: pd.DataFrame
    small_classes: pd.DataFrame = field(default_factory=pd.DataFrame)
    seconds: dict = field(default_factory=dict)
    shipped: bool = False            # read from shipped paper-scale tables (cvrepro.shipped), not computed

    @property
    def repetitions(self) -> dict:
        return {int(k): int(r) for k, r in self.params["repetitions"].items()}


SMALL_CLASS_WARNING = "SCV"   # start of the partitioner's message about classes with fewer than k examples


def _quiet_workers() -> None:
    """Worker processes started from now on ignore the partitioner's small-class warning (the study
    counts those samples itself, :func:`_small_classes`). Python reads PYTHONWARNINGS at start-up;
    worker processes (loky) would otherwise print it into a notebook's output or its server's log. (LR's
    -M stops its search without a warning, as WEKA's does.)"""
    flags = [f"ignore:{SMALL_CLASS_WARNING}:UserWarning"]
    current = [f for f in os.environ.get("PYTHONWARNINGS", "").split(",") if f]
    os.environ["PYTHONWARNINGS"] = ",".join(current + [f for f in flags if f not in current])


def store_folders(store) -> tuple:
    """The engine's store (``store/cv``) and the conditional errors' (``store/conditional``); None, None without."""
    if store is None:
        return None, None
    root = Path(store)
    return str(root / "cv"), root / "conditional"


def run(params: dict, store=None, n_jobs: int = 1, backend="loky", progress: bool = True,
        shipped=None) -> Experiment:
    """Algorithm 1 at ``params`` (a profile's scale): repeated CV on every sample (the engine) and the
    conditional error of every learner on every sample. ``store``: a directory; the engine's results
    go to ``store/cv``, the conditional errors to ``store/conditional`` (both resumable). ``shipped``: a
    folder of shipped results (:mod:`cvrepro.shipped`); at the ``paper`` profile, when it holds this
    study, its tables are read (checksums verified, same design) instead of computing anything."""
    from threadpoolctl import threadpool_limits

    from ..runner import run_cv

    tables = shipped_results.tables_for(STUDY_ID, params, shipped)
    if tables is not None:
        return from_tables(params, tables)
    p = check_params(params)
    _quiet_workers()
    cv_store, cond_store = store_folders(store)
    pops = list(dict.fromkeys(p["populations"] + p["table_populations"]))
    test_pops = [x for x in p["table_populations"]] if p["twin"] else []
    models = make_learners(p["learners"])
    twin = make_learners([], twin=True) if test_pops else {}
    names, data = {}, {}
    for pop in pops:
        X, y = population(pop)
        for s in range(population_samples(p, pop)):
            rows = sample_rows(len(y), p["sample_size"], p["seed"], pop, s)
            name = sample_name(pop, p, s)
            names[name] = (pop, s)
            data[name] = (name, X.iloc[rows].reset_index(drop=True), y.iloc[rows].reset_index(drop=True))
    small = _small_classes(data, names, p)
    timings = {}
    parts = []
    started = time.perf_counter()
    # BLAS threads on these tiny problems only contend (20x slower LR under load): one per worker
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=SMALL_CLASS_WARNING, category=UserWarning)
        for k, pop in itertools.product(p["folds"], pops):
            if not runs_fold(p, pop, k):
                continue
            classes = population(pop)[1].cat.categories
            learners = {**models, **(twin if pop in test_pops and k in (2, p["test_folds"]) else {})}
            for reps, samples in repetition_groups(p, pop, k).items():
                here = [data[sample_name(pop, p, s)] for s in samples]
                parts.append(run_cv(here, declared(learners, classes), folds=(k,), iterations=reps, store=cv_store,
                                    n_jobs=n_jobs, backend=backend, seed=p["seed"], progress=progress,
                                    partitioner_params={"small_classes": "warn"}))
        timings["cv"] = time.perf_counter() - started
        started = time.perf_counter()
        conditional = conditional_errors(
            {pop: list(range(population_samples(p, pop))) for pop in pops}, models, p["sample_size"], p["seed"],
            cond_store, n_jobs, backend, progress)
        if twin:
            conditional = pd.concat([conditional, conditional_errors(
                {pop: list(range(p["n_samples"])) for pop in test_pops}, twin, p["sample_size"], p["seed"],
                cond_store, n_jobs, backend, progress)], ignore_index=True)
        timings["conditional"] = time.perf_counter() - started
    timings["cv, computed"] = float(sum(r.iterations["seconds"].sum() for r in parts))    # as recorded in the store
    timings["conditional, computed"] = float(conditional.seconds.sum())
    iterations = pd.concat([_keyed(r.iterations, names) for r in parts], ignore_index=True)
    folds = pd.concat([_keyed(r.folds, names) for r in parts], ignore_index=True)
    failures = pd.concat([r.failures for r in parts], ignore_index=True)
    iterations = iterations.rename(columns={"error_rate": "error"})[
        ["population", "sample", "learner", "k", "iteration", "error"]]
    folds = folds.rename(columns={"error_rate": "error"})[
        ["population", "sample", "learner", "k", "iteration", "fold", "n_test", "error"]]
    return Experiment(p, conditional, iterations, folds, failures, small, timings)


# --------------------------------------------------------------------------- #
# Shipped results: the paper profile's tables
# --------------------------------------------------------------------------- #
def _tested_folds(p: dict, folds: pd.DataFrame) -> pd.DataFrame:
    """The per-fold errors :func:`test_decisions` reads: the table populations' ``test_folds``-fold CV up
    to the largest repetitions of its grid, and their first five repetitions of 2-fold CV (5x2cv)."""
    r = max(test_grid(p), default=0)
    keep = folds.population.isin(p["table_populations"]) & (
        ((folds.k == p["test_folds"]) & (folds.iteration < r)) | ((folds.k == 2) & (folds.iteration < 5)))
    return folds[keep].reset_index(drop=True)


def to_tables(exp: Experiment) -> dict[str, pd.DataFrame]:
    """The smallest tables the notebook needs (what is shipped for the paper profile): every conditional
    error, every CV estimate (one per sample, learner, k and repetition), the per-fold errors the tests
    read (:func:`_tested_folds`), the failed folds, the small classes and the run's seconds."""
    failures = exp.failures.astype({c: str for c, t in exp.failures.dtypes.items() if t == "category"})
    return {"conditional": exp.conditional, "iterations": exp.iterations, "folds": _tested_folds(exp.params, exp.folds),
            "failures": failures, "small_classes": exp.small_classes,
            "seconds": pd.DataFrame({"part": list(exp.seconds), "seconds": list(exp.seconds.values())})}


def from_tables(params: dict, tables: dict[str, pd.DataFrame]) -> Experiment:
    """What :func:`run` returns, rebuilt from :func:`to_tables`' tables (nothing is fitted; ``folds`` holds
    only the folds the tests read)."""
    seconds = dict(zip(tables["seconds"].part, tables["seconds"].seconds.astype(float)))
    return Experiment(check_params(params), tables["conditional"], tables["iterations"], tables["folds"],
                      tables["failures"], tables["small_classes"], seconds, shipped=True)


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0) -> pd.DataFrame:
    """Recompute from scratch, beside the shipped numbers, ``n_cells`` CV estimates (population, sample,
    learner, k and repetition drawn from ``tables["iterations"]``: that repetition's k fits on the sample)
    and ``n_cells`` conditional errors (drawn from ``tables["conditional"]``: one fit on the sample, the
    population predicted): the check that shipped numbers are what the ``paper`` profile computes."""
    from ..engine.inputs import prepare_data
    from ..engine.tasks import Task, run_task

    p = check_params(params)
    models = {**make_learners(p["learners"]), **make_learners([], twin=True)}
    rows = []
    for r in tables["iterations"].sample(n_cells, random_state=random_state).itertuples():
        X, y = population(r.population)
        idx = sample_rows(len(y), p["sample_size"], p["seed"], r.population, r.sample)
        name = sample_name(r.population, p, r.sample)
        data = prepare_data((name, X.iloc[idx].reset_index(drop=True), y.iloc[idx].reset_index(drop=True)))
        est = declared({r.learner: models[r.learner]}, y.cat.categories)[r.learner]
        task = Task((name, r.learner, "scv", int(r.k)), (int(r.iteration),), p["seed"], (("small_classes", "warn"),))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            again = run_task(data, est, task)["iterations"]["error_rate"].iloc[0]
        rows.append({"cell": f"{name}, {r.learner}, {r.k}-fold CV, repetition {r.iteration}: error",
                     "shipped": repr(float(r.error)), "recomputed": repr(float(again))})
    for r in tables["conditional"].sample(n_cells, random_state=random_state).itertuples():
        again = conditional_task(r.population, r.learner, models[r.learner], [int(r.sample)], p["sample_size"],
                                  p["seed"])["error"].iloc[0]
        rows.append({"cell": f"{r.population} sample {r.sample}, {r.learner}: conditional error",
                     "shipped": repr(float(r.error)), "recomputed": repr(float(again))})
    return pd.DataFrame(rows)


def _keyed(table: pd.DataFrame, names: dict) -> pd.DataFrame:
    t = table.copy()
    ds = t["dataset"].astype(str)
    t["population"] = ds.map(lambda d: names[d][0])
    t["sample"] = ds.map(lambda d: names[d][1]).astype(int)
    t["learner"] = t["learner"].astype(str)
    t["k"] = t["k"].astype(int)
    return t.drop(columns=["dataset"])


def _small_classes(data: dict, names: dict, p: dict) -> pd.DataFrame:
    """Per population and k: samples with a class of fewer than k examples (stratification spreads such
    a class over fewer folds; the engine allows it here)."""
    rows = []
    for name, (_, _, y) in data.items():
        counts = y.value_counts()
        counts = counts[counts > 0]
        for k in [k for k in p["folds"] if runs_fold(p, names[name][0], k)]:
            rows.append({"population": names[name][0], "k": k, "small": bool((counts < k).any())})
    t = pd.DataFrame(rows)
    return t.groupby(["population", "k"], as_index=False).agg(samples=("small", "size"),
                                                              with_small_class=("small", "sum"))


# --------------------------------------------------------------------------- #
# The sample size N
# --------------------------------------------------------------------------- #
def sweep(params: dict, store=None, n_jobs: int = 1, backend="loky", progress: bool = False) -> dict:
    """Algorithm 1 at each N of ``params["sweep_sizes"]`` on a small scale (``sweep_samples``
    samples, ``sweep_repetitions``, the ``sweep_populations``, no RF twin). Returns N -> Experiment;
    empty unless the extension ``"sweep"`` is on."""
    out = {}
    if "sweep" not in params.get("extensions", []):
        return out
    for size in params["sweep_sizes"]:
        reps = {int(k): int(r) for k, r in params["sweep_repetitions"].items()}
        q = {**params, "sample_size": int(size), "n_samples": params["sweep_samples"],
             "curve_samples": params["sweep_samples"], "repetitions": reps,
             "folds": sorted(reps), "table_repetitions": max(reps.values()),
             "populations": list(params["sweep_populations"]), "table_populations": list(params["sweep_populations"]),
             "twin": False}
        out[int(size)] = run(q, store=store, n_jobs=n_jobs, backend=backend, progress=progress)
    return out


# --------------------------------------------------------------------------- #
# Cost
# --------------------------------------------------------------------------- #
def estimate_core_hours(params: dict, n_jobs: int = 2) -> pd.Series:
    """Core-hours of Algorithm 1 at ``params`` (e.g. the ``paper`` scale) per (population, learner):
    the CPU time of one sample's repeated CV (two repetitions of every k, after a warm-up) and of
    one conditional error, scaled to the run's samples and repetitions. Process CPU time, in
    process with one BLAS thread, so that a loaded machine does not inflate it; ``n_jobs`` is
    accepted for the bench's interface."""
    from threadpoolctl import threadpool_limits

    from ..runner import run_cv

    p = check_params(params)
    pops = list(dict.fromkeys(p["populations"] + p["table_populations"]))
    models = make_learners(p["learners"], twin=p["twin"])
    rows = {}
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for pop in pops:
            X, y = population(pop)
            rows_ = sample_rows(len(y), p["sample_size"], p["seed"], pop, 0)
            data = (f"{pop}#bench", X.iloc[rows_].reset_index(drop=True), y.iloc[rows_].reset_index(drop=True))
            for name, est in models.items():
                if name == TWIN and pop not in p["table_populations"]:
                    continue
                ks = [k for k in p["folds"] if runs_fold(p, pop, k) and (name != TWIN or k in (2, p["test_folds"]))]
                learner = declared({name: est}, y.cat.categories)
                run_cv([data], learner, folds=(2,), iterations=1, progress=False,
                       partitioner_params={"small_classes": "warn"})          # warm-up (compilation)
                started = time.process_time()
                run_cv([data], learner, folds=tuple(ks), iterations=2, progress=False,
                       partitioner_params={"small_classes": "warn"})
                cv = (time.process_time() - started) / 2     # seconds for one repetition of every k
                total_fits = sum(k * sample_repetitions(p, pop, k, s) for k in ks
                                 for s in range(population_samples(p, pop)))
                cond = conditional_errors({pop: [0]}, {name: est}, p["sample_size"], p["seed"], None, 1, "loky", False)
                seconds = cv / sum(ks) * total_fits + float(cond.seconds.iloc[0]) * population_samples(p, pop)
                rows[(pop, name)] = seconds / 3600
    return pd.Series(rows, name="core_hours")
