"""Repeated cross-validation of many learners on many data sets, cached and reproducible.

:func:`run_cv` runs the grid (data set x learner x k x iteration) for one
partitioner and returns a :class:`CVResults` with tidy tables:

``folds``       one row per fold: sizes, fit/predict seconds, every metric
``iterations``  one row per iteration: each metric averaged over the k folds
                (as the papers report), ``<metric>_pooled``, computed once
                on the iteration's pooled out-of-fold predictions, and the
                iteration's ``seconds`` (partitioning, fits, metrics)
``instances``   out-of-fold class probabilities of every iteration (float32),
                columns ``p_0 .. p_{K-1}`` in the order of ``results.classes``
``failures``    one row per fold whose learner raised, predicted NaN or
                improper probabilities, or met a single-class training fold
                (its metrics are NaN)
``stopping``    with a stopping rule: iterations used per cell and whether the cap was hit

Reproducibility: iteration ``i`` partitions with seed ``seed + i`` (so
``seed=0`` gives Raeder et al.'s seeds 0..N-1, the same folds for every
learner); the learner of fold ``f`` gets ``random_state`` derived from
``(seed, i, f)`` by ``numpy.random.SeedSequence`` unless its
``random_state`` was fixed (then it is kept). Nothing depends on
global random state, task order or the number of workers.

Work is cut into tasks of one (data set, learner, k) cell and a run of
iterations; tasks run in joblib (``backend="loky"``, the default) or on a
dask.distributed cluster (``backend="dask"`` uses the current client; a
scheduler address such as ``"tcp://host:8786"`` connects to one). Data sets
travel to each worker once: scattered on dask; with joblib, written once to
a temporary file that each worker reads on first use and keeps (tasks carry
only a reference). Finished tasks are written to the
store as they arrive, so an interrupted run resumes where it stopped. The
store (:mod:`cvrepro.store`: hive-style Parquet that DuckDB and pandas read
directly, every file checksummed) is keyed by the data (content hash), the
learner's parameters (and, for a learner class that is user code, its
source), the partitioner, k and seed; after changing the code of a learner
of cvrepro or of an installed package, clear it. Learners may be
classes defined in a script or notebook (``__main__``): workers get them by
value (cloudpickle).

Fitting lives in :func:`fit_predict_folds` only: a learner that offers a
batched ``fit_predict_folds(X, y, splits, random_states, classes)`` gets all
folds of a task (several iterations of one cell) in one call, with the same
results as fitting fold by fold; other learners are fitted fold by fold.

:func:`run_cv` reads like scikit-learn's ``cross_validate``: check the inputs
(:mod:`cvrepro.engine.inputs`), plan the tasks (:mod:`cvrepro.engine.planning`),
run each round of them through the task map (:func:`cvrepro.engine.taskmap.iter_tasks`, on a backend
of :mod:`cvrepro.engine.backends`, its results kept in the store by
:class:`cvrepro.engine.cvlayout.ChunkLayout`; one task is :func:`cvrepro.engine.tasks.run_task`),
assemble the results
(:mod:`cvrepro.engine.results`).
"""
from __future__ import annotations

from collections.abc import Callable

from .engine.backends import n_workers
from .engine.cvlayout import run_cv_task
from .engine.inputs import check_inputs, check_run_arguments
from .engine.planning import Plan, iterations_per_task
from .engine.results import CVFailureWarning, CVResults, assemble
from .engine.taskmap import iter_tasks
from .engine.tasks import FoldOutcome, LearnerFactory, fit_predict_folds, learner_seed, learner_seeds
from .progress import progress_bar
from .store import ResultStore

__all__ = ["run_cv", "CVResults", "fit_predict_folds", "FoldOutcome", "LearnerFactory",
           "learner_seed", "learner_seeds", "iterations_per_task",
           "CVFailureWarning"]


def run_cv(datasets, learners, folds=(2, 5, 10), iterations: int = 10, partitioner: str = "scv",
           store=None, n_jobs: int = 1, backend="loky", seed: int = 0,
           stopping: Callable | None = None, progress: bool = True, *,
           stopping_metric: str = "auroc", batch_size: int | None = None,
           partitioner_params: dict | None = None, batched: bool = True) -> CVResults:
    """Repeated k-fold CV of every learner on every data set, for each k in ``folds``.

    ``datasets``: catalog names, ``(name, X, y)`` tuples or ``Dataset`` objects.
    ``learners``: dict name -> unfitted estimator, or a list of names for
    :func:`cvrepro.learners.make_learner`. ``iterations``: repetitions per
    cell (the cap when ``stopping`` is given). ``store``: directory of the
    Parquet results cache, or None. ``stopping``: a factory of stopping rules
    (objects with ``reset()`` and ``update(estimate, oof_proba) -> bool``); a
    fresh rule is fed each cell's iterations in order, ``estimate`` being the
    fold-averaged ``stopping_metric`` and ``oof_proba`` the out-of-fold
    probability of the second class (binary) or the n x K matrix; the cell
    stops at the first iteration where it returns True. ``batch_size``:
    iterations per task (default: at most 10, and at least two tasks per
    worker; without ``stopping``, scaled by :func:`iterations_per_task`).
    ``partitioner_params``: extra arguments of the partitioner
    (e.g. ``{"metric": "hvdm"}``). ``batched``: let learners that offer
    ``fit_predict_folds`` fit all folds of a task in one call (same results;
    False forces fold-by-fold fitting). ``progress``: a progress bar
    (:mod:`cvrepro.progress`) once the run lasts more than 2 seconds. Every
    argument is checked before any work (:mod:`cvrepro.engine.inputs`).
    """
    check_run_arguments(iterations, n_jobs, backend, seed, batch_size, store, progress, batched, stopping,
                        partitioner_params)
    grid = check_inputs(datasets, learners, folds, iterations, partitioner, partitioner_params,
                        stopping, stopping_metric)
    plan = Plan(grid, ResultStore(store) if store is not None else None, iterations, seed, stopping,
                stopping_metric, batch_size, n_workers(n_jobs, backend), batched)
    bar = _progress(progress)
    try:
        while plan.active:
            jobs = plan.next_jobs()
            for i, chunks in iter_tasks(run_cv_task, jobs, layout=plan.layout, n_jobs=n_jobs, backend=backend,
                                        progress=bar, ship="data"):   # each data set travels once per worker
                plan.record(jobs[i]["task"], chunks)
            plan.end_round()
    finally:
        bar.close()
    results = assemble(plan.cells, plan.have, plan.limits(), grid.by_name, grid.order)
    if stopping is not None:
        results.stopping = plan.stopping_table()
    return results


def _progress(enabled: bool):
    return progress_bar(total=0, enabled=enabled, unit="task", desc="cross-validation")
