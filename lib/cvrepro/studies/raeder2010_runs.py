"""Raeder et al. (2010), the runs: :func:`run` (the CV grid and the true-test part through the engine), the
shipped tables, the recomputed slice that checks them, and the cost estimate."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import shipped as shipped_results
from ..runner import CVResults, iterations_per_task, run_cv
from .raeder2010_design import (
    N_ORDERINGS,
    PARTITIONER,
    READING_COLUMNS,
    REPLAY_VARIANTS,
    STUDY_ID,
    TABLE_3_PARTS,
    TABLE_3_STORED,
    TRUE_TEST_LEARNERS,
    make_learners,
)
from .raeder2010_tables import table_3, table_3_by_stored


@dataclass
class Results:
    """What :func:`run` returns: the parameters, the CV grid, and the true-test part
    (its CV runs and the AUROC of each learner trained on the training set and
    scored on the test set), or None when no true-test data set was asked for."""

    params: dict
    cv: CVResults
    true_test_cv: CVResults | None = None
    true_test: pd.DataFrame | None = None
    replays: pd.DataFrame | None = None      # Table III's replays, when read from shipped tables
    replays_by_stored: pd.DataFrame | None = None   # the same on the first n stored runs (shipped)

    @property
    def iterations(self) -> pd.DataFrame:
        """One row per data set, learner, k and iteration: the fold-averaged AUROC."""
        return self.cv.iterations


def run(params: dict, store=None, n_jobs: int = 1, backend="loky", progress: bool = True,
        shipped=None) -> Results:
    """Run the experiments of ``params`` (a profile's parameters, see ``SCALES``).

    Every data set, learner and k in ``params`` gets ``params["iterations"]``
    iterations of stratified CV (seeds ``seed``, ``seed + 1``, ...); the
    true-test data sets get the same for :data:`TRUE_TEST_LEARNERS`, plus one
    fit on the training set scored on the test set. ``store`` caches every
    iteration (resumable after a kill, same numbers whatever ``n_jobs``).
    ``shipped``: a folder of shipped results (:mod:`cvrepro.shipped`); at the
    ``paper`` profile, when it holds this study, its tables are read (checksums
    verified, same design) instead of computing anything.
    """
    tables = shipped_results.tables_for(STUDY_ID, params, shipped)
    if tables is not None:
        return from_tables(params, tables)
    models = make_learners(params["learners"], params["c45_laplace"])
    common = dict(folds=tuple(params["folds"]), iterations=params["iterations"], partitioner=PARTITIONER,
                  store=store, n_jobs=n_jobs, backend=backend, seed=params["seed"], progress=progress)
    cv = run_cv(params["datasets"], models, **common)
    if not params.get("true_test_datasets"):
        return Results(params, cv)
    tt_models = make_learners(TRUE_TEST_LEARNERS, params["c45_laplace"])
    tt_cv = run_cv(params["true_test_datasets"], tt_models, **common)
    actual = true_test_performance(params["true_test_datasets"], tt_models)
    return Results(params, cv, tt_cv, actual)


def to_tables(results: Results) -> dict[str, pd.DataFrame]:
    """The smallest tables the notebook needs (what is shipped for the paper profile): the
    per-iteration AUROC estimates and failed folds of the grid and of the true-test part, the
    true-test AUROCs, and Table III's replays (:func:`replays`: they read every iteration's
    out-of-fold probabilities, hundreds of MB at paper, so their results are shipped instead), and the
    same replays on fewer stored runs (:func:`replays_by_stored`)."""
    tables = {"iterations": _estimates_only(results.cv.iterations), "failures": results.cv.failures,
              "replays": replays(results) if results.replays is None else results.replays,
              "replays_by_stored": (replays_by_stored(results) if results.replays_by_stored is None
                                    else results.replays_by_stored)}
    if results.true_test_cv is not None:
        tables.update(true_test_iterations=_estimates_only(results.true_test_cv.iterations),
                      true_test_failures=results.true_test_cv.failures, true_test=results.true_test)
    return tables


SLICE_REPLAY_WORK = 1200       # instances x k of a replay the slice check recomputes (see recompute_replay)
SHIPPED_COLUMNS = ("dataset", "learner", "partitioner", "k", "iteration", "auroc")


def _estimates_only(iterations: pd.DataFrame) -> pd.DataFrame:
    """The AUROC estimate of each iteration (the paper's only measure), without the run's other metrics."""
    return iterations[list(SHIPPED_COLUMNS)]


def from_tables(params: dict, tables: dict[str, pd.DataFrame]) -> Results:
    """:class:`Results` rebuilt from :func:`to_tables`' tables (no per-instance predictions)."""
    def cv(prefix):
        return CVResults(None, tables[f"{prefix}iterations"], tables[f"{prefix}failures"], None, {}, [], None)
    replayed = {"replays": tables.get("replays"), "replays_by_stored": tables.get("replays_by_stored")}
    if "true_test" not in tables:
        return Results(params, cv(""), **replayed)
    return Results(params, cv(""), cv("true_test_"), tables["true_test"], **replayed)


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0, replay: bool = True) -> pd.DataFrame:
    """Recompute ``n_cells`` iterations of the grid chosen by ``random_state`` (data set, learner, k and
    iteration drawn from ``tables["iterations"]``) from scratch, beside the shipped AUROC: the check that
    shipped numbers are what the ``paper`` profile computes (iteration i is CV with seed ``seed + i``).
    ``replay``: also one row of Table III's replays (:func:`recompute_replay`), one row per quantity."""
    shipped_rows = tables["iterations"].sample(n_cells, random_state=random_state)
    rows = []
    for r in shipped_rows.itertuples():
        learner = make_learners([r.learner], params["c45_laplace"])
        cv = run_cv([r.dataset], learner, folds=(int(r.k),), iterations=1, partitioner=PARTITIONER,
                    seed=params["seed"] + int(r.iteration), progress=False)
        rows.append({"dataset": r.dataset, "learner": r.learner, "k": int(r.k), "iteration": int(r.iteration),
                     "shipped": r.auroc, "recomputed": float(cv.iterations.auroc.iloc[0])})
    cells = pd.DataFrame(rows)
    if not replay or tables.get("replays") is None or not len(tables["replays"]):
        return cells
    return pd.concat([cells, recompute_replay(params, tables, random_state)], ignore_index=True)


def recompute_replay(params: dict, tables: dict[str, pd.DataFrame], random_state: int = 0,
                     max_work: int = SLICE_REPLAY_WORK) -> pd.DataFrame:
    """One row of Table III (part and data set drawn by ``random_state`` from the shipped replays under the
    run's reading) recomputed from scratch: every stored iteration of its two learners fitted again, then
    replayed; one row per quantity (R and iterations of each rule, capped, exhausted), shipped beside
    recomputed. Only rows whose data set's instances times k is at most ``max_work`` are drawn (at ``paper``,
    500 iterations: 8-17 s of CPU for the rows tried; the 10-fold part then has promoters only)."""
    from ..datasets import load_dataset

    reading = (params["replay_sampling"], params["replay_pairing"], params["ks_ties"])
    shipped = tables["replays"]
    shipped = shipped[(shipped[READING_COLUMNS[1:]] == pd.Series(reading, index=READING_COLUMNS[1:])).all(axis=1)]
    for _, row in shipped.sample(frac=1, random_state=random_state).iterrows():
        a, b, k = TABLE_3_PARTS[row.part]
        if len(load_dataset(row.dataset).y) * k <= max_work:
            break
    else:
        raise ValueError(f"no shipped Table III row has instances x k <= {max_work}: raise max_work")
    cv = run_cv([row.dataset], make_learners([a, b], params["c45_laplace"]), folds=(k,),
                iterations=params["iterations"], partitioner=PARTITIONER, seed=params["seed"], progress=False)
    again = table_3(cv, a, b, k, [row.dataset], params["n_orderings"], 0, *reading, progress=False).iloc[0]
    quantities = [c for c in again.index if c != "dataset"]
    return pd.DataFrame({"dataset": row.dataset, "learner": f"{a} vs {b}", "k": k, "part": row.part,
                         "quantity": quantities, "shipped": row[quantities].astype(float).to_numpy(),
                         "recomputed": again[quantities].astype(float).to_numpy()})


def true_test_performance(datasets, learners: dict) -> pd.DataFrame:
    """AUROC of each learner trained on the whole training set, on the true test set."""
    from sklearn.base import clone

    from ..datasets import load_dataset
    from ..metrics import auroc

    rows = []
    for name in datasets:
        train, test = load_dataset(name), load_dataset(name, split="test")
        classes = np.asarray(train.y.cat.categories)
        for learner, estimator in learners.items():
            model = clone(estimator).fit(train.X, train.y)
            proba = model.predict_proba(test.X)
            order = [list(map(str, model.classes_)).index(c) for c in map(str, classes)]
            rows.append({"dataset": name, "learner": learner,
                         "auroc": auroc(test.y.astype(str).to_numpy(), proba[:, order], classes.astype(str))})
    return pd.DataFrame(rows)


def replays(results: Results) -> pd.DataFrame:
    """Table III of every part the run allows (as the notebook computes it), under the run's reading and,
    for parts (a) and (b), each alternative reading: one long table keyed by ``READING_COLUMNS``."""
    p = results.params
    frames = []
    for part in _parts(p):
        a, b, k = TABLE_3_PARTS[part]
        readings = [(p["replay_sampling"], p["replay_pairing"], p["ks_ties"])]
        readings += [v[1:] for v in REPLAY_VARIANTS if part in ("a", "b")]
        for sampling, pairing, ties in dict.fromkeys(readings):
            t = table_3(results.cv, a, b, k, p["datasets"], p["n_orderings"], 0, sampling, pairing, ties,
                        progress=False)
            frames.append(t.assign(part=part, sampling=sampling, pairing=pairing, ks_ties=ties))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=READING_COLUMNS)


def _parts(params: dict) -> list[str]:
    """The parts of Table III whose two learners and k the run has."""
    return [part for part, (a, b, k) in TABLE_3_PARTS.items()
            if a in params["learners"] and b in params["learners"] and k in params["folds"]]


def replays_by_stored(results: Results) -> pd.DataFrame:
    """Table III of every part the run allows, under the run's reading, replayed on the first n stored runs
    for each n of ``TABLE_3_STORED`` below the number stored (:func:`table_3_by_stored`); keyed by ``part``."""
    p = results.params
    frames = [table_3_by_stored(results.cv, part, p["datasets"], TABLE_3_STORED, p["n_orderings"],
                                p["replay_sampling"], p["replay_pairing"], p["ks_ties"]).assign(part=part)
              for part in _parts(p)]
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["part", "dataset", "stored"])


def table_3_by_stored_for(results: Results, tables3: dict) -> pd.DataFrame:
    """Table III of each part in ``tables3`` (part -> the run's table, all stored runs) with its replays on
    fewer stored runs (shipped at ``paper``; none at other profiles): one long table keyed by part and ``stored``."""
    shipped = results.replays_by_stored
    frames = []
    for part, table in tables3.items():
        if shipped is not None and len(shipped):
            frames.append(shipped[shipped.part == part].dropna(axis=1, how="all"))
        frames.append(table.assign(part=part))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["part", "dataset", "stored"])


def shipped_replays(results: Results, part: str) -> dict:
    """Part ``part``'s shipped Table III under each reading ``(sampling, pairing, ks_ties)`` (empty when
    the run computed rather than read its results): what :func:`table_3_for` and the readings reuse."""
    if results.replays is None:
        return {}
    rows = results.replays[results.replays.part == part]
    return {key: t.drop(columns=READING_COLUMNS).reset_index(drop=True)
            for key, t in rows.groupby(READING_COLUMNS[1:], sort=False)}


def table_3_for(results: Results, part: str, datasets=None, n_orderings: int = N_ORDERINGS,
                sampling: str = "replacement", pairing: str = "shared", ks_ties: str = "merge") -> pd.DataFrame:
    """Table III(``part``): read from the shipped replays when the run was, else :func:`table_3`."""
    shipped = shipped_replays(results, part).get((sampling, pairing, ks_ties))
    if shipped is not None:
        return shipped
    a, b, k = TABLE_3_PARTS[part]
    return table_3(results.cv, a, b, k, datasets, n_orderings, 0, sampling, pairing, ks_ties)


def estimate_core_hours(params: dict, n_jobs: int = 2) -> pd.Series:
    """Core-hours of a run at ``params`` (e.g. the ``paper`` scale) per (data set, learner),
    measured on one task per cell of the size the real run uses
    (:func:`~cvrepro.runner.iterations_per_task`) and scaled up; for ``make bench``."""
    grids = [(params["datasets"], params["learners"])]
    if params.get("true_test_datasets"):
        grids.append((params["true_test_datasets"], list(TRUE_TEST_LEARNERS)))
    parts = []
    for datasets, learners in grids:
        for k in params["folds"]:
            its = min(params["iterations"], iterations_per_task(k))
            res = run_cv(datasets, make_learners(learners, params["c45_laplace"]), folds=(k,), iterations=its,
                         batch_size=its, n_jobs=n_jobs, progress=False)
            f = res.folds
            seconds = (f.fit_seconds + f.predict_seconds).groupby([f.dataset.astype(str),
                                                                   f.learner.astype(str)]).sum()
            parts.append(seconds * params["iterations"] / its / 3600)
    return pd.concat(parts).groupby(level=[0, 1]).sum()
