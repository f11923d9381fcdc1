"""Scheffer & Herbrich (1997): the procedure (the channel on our C4.5, the naive and nested tuning through
the engine, the held-out truths of :mod:`.scheffer1997_truths`), the shipped tables and the cost estimate.
:mod:`.scheffer1997` is the study's public face.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import paramchannel as pc
from .. import shipped as shipped_results
from ..nested import nested_from_scores
from ..published import scheffer1997 as paper
from .scheffer1997_design import PARTS, STUDY_ID, engine_name, family_settings, make_setting
from .scheffer1997_truths import truths


# --------------------------------------------------------------------------- #
# The channel on a real learner: our C4.5 on StatLog's Landsat and DNA splits
# --------------------------------------------------------------------------- #
@dataclass
class ChannelRun:
    """One data set's channel experiment: our C4.5's test predictions, the extra hits of
    c leaked labels over random orderings of the test set, and real greedy searches."""

    dataset: str
    test_size: int
    hits: int
    classes: int
    entropy: float
    paper_c: int
    gains: pd.DataFrame           # ordering, c, extra_hits
    greedy: pd.DataFrame          # ordering, c, extra_hits (search), extra_hits (formula), trials, seconds
    fit_seconds: float
    correct: np.ndarray | None = None     # whether our C4.5 got each test object right, in the file's order


def _paper_c(dataset: str) -> int:
    row = paper.BENCHMARKS.set_index("benchmark").loc["Landsat" if dataset == "landsat" else "DNA"]
    return int(row["c"])


def _channel_gains(correct, c: int, n_orderings: int, c_max: int, seed: int) -> tuple[np.ndarray, pd.DataFrame]:
    """The random orderings of the test set (their first max(c_max, c) objects) and the extra hits of
    c = 0.. that many leaked labels on each, from ``correct`` (one bool per test object)."""
    m = len(correct)
    c_max = min(max(c_max, c), m)
    orderings = pc.random_orderings(m, n_orderings, random_state=[seed, m], length=c_max)
    return orderings, pc.channel_gains(correct, np.arange(0, c_max + 1), orderings)


def run_channel(dataset: str, n_orderings: int, n_greedy: int, c_max: int = 200, seed: int = 0) -> ChannelRun:
    """Fit our C4.5 (J48 defaults) on the StatLog training file, predict the test file, draw
    ``n_orderings`` random orderings of the test set and count the extra hits of c = 0..c_max
    leaked labels on each; on the first ``n_greedy`` orderings run the paper's greedy search
    (c x |classes| real fit/predict trials of :class:`~cvrepro.paramchannel.ParameterChannel`)
    at the paper's c."""
    from ..datasets import load_dataset
    from ..learners import make_learner

    train, test = load_dataset(dataset), load_dataset(dataset, split="test")
    started = time.perf_counter()
    model = pc.ParameterChannel(make_learner("C4.5")).fit(train.X, train.y)
    fit_seconds = time.perf_counter() - started
    y_test = test.y.to_numpy()
    correct = model.predict(test.X) == y_test
    m = len(y_test)
    c = _paper_c(dataset)
    orderings, gains = _channel_gains(correct, c, n_orderings, c_max, seed)
    rows = []
    for o in range(min(n_greedy, n_orderings)):
        head = orderings[o]     # the rest of the test set follows in its file order
        order = np.concatenate([head, np.setdiff1d(np.arange(m), head)])
        t0 = time.perf_counter()
        search = pc.greedy_channel_search(model, train.X, train.y, test.X.iloc[order], y_test[order], c)
        formula = int(c - correct[order[:c]].sum())
        rows.append({"ordering": o, "c": c, "extra_hits_search": search.extra_hits, "extra_hits_formula": formula,
                     "hits_before": search.hits_before, "trials": search.n_trials,
                     "seconds": time.perf_counter() - t0})
    greedy = pd.DataFrame(rows, columns=["ordering", "c", "extra_hits_search", "extra_hits_formula",
                                         "hits_before", "trials", "seconds"])
    return ChannelRun(dataset, m, int(correct.sum()), len(model.classes_),
                      pc.class_entropy(test.y.value_counts().to_numpy()), c, gains, greedy, fit_seconds, correct)


# --------------------------------------------------------------------------- #
# Sec. 5 measured: naive tuning against nested CV, on real learners
# --------------------------------------------------------------------------- #
@dataclass
class TuningRun:
    """Scores of every setting of every family on every unit: a sample of a large pool (with a
    held-out truth) or a small data set (repetitions of the outer CV)."""

    params: dict
    units: pd.DataFrame                                  # unit, dataset, kind, size, holdout, repetitions
    settings: dict                                       # family -> list of settings
    results: dict = field(default_factory=dict)          # (unit, iteration, family) -> NestedCVResult
    truth: dict = field(default_factory=dict)            # (unit, family) -> held-out accuracy per setting
    fit_seconds: pd.DataFrame | None = None              # family, route, seconds, fits
    failures: pd.DataFrame | None = None
    seconds: float = 0.0


def _units(params: dict):
    from ..datasets import load_dataset

    units = []
    for name in params["pool_datasets"]:
        ds = load_dataset(name)
        n = len(ds.y)
        if params["sample_size"] >= n / 2:
            raise ValueError(f"pool {name!r} has {n} rows: too few for samples of {params['sample_size']} "
                             "with a larger held-out part")
        for s in range(params["pool_samples"]):
            rng = np.random.default_rng([params["seed"], s])
            pick = np.zeros(n, dtype=bool)
            pick[rng.choice(n, params["sample_size"], replace=False)] = True
            units.append({"unit": f"{name}~{s}", "dataset": name, "kind": "pool", "repetitions": 1,
                          "X": ds.X[pick].reset_index(drop=True), "y": ds.y[pick].reset_index(drop=True),
                          "X_hold": ds.X[~pick].reset_index(drop=True), "y_hold": ds.y[~pick].reset_index(drop=True)})
    for name in params["cv_datasets"]:
        ds = load_dataset(name)
        units.append({"unit": name, "dataset": name, "kind": "cv", "repetitions": params["cv_repetitions"],
                      "X": ds.X, "y": ds.y, "X_hold": None, "y_hold": None})
    return units


def run_tuning(params: dict, store=None, n_jobs: int = 1, backend="loky", progress: bool = True) -> TuningRun:
    """Every setting of every family on the outer folds of each unit and on the inner folds of
    each outer training set, through the engine (stratified folds, cached in ``store``), plus
    the held-out truth of each pool sample. Identical settings of two families run once."""
    from ..runner import run_cv

    started = time.perf_counter()
    settings = family_settings(params["grids"], params["seeds"])
    names = {(f, i): engine_name(f, s) for f, ss in settings.items() for i, s in enumerate(ss)}
    learners = {}
    for (f, i), name in names.items():
        learners.setdefault(name, make_setting(f, settings[f][i]))
    units = _units(params)
    n_outer, n_inner, seed = params["outer_folds"], params["inner_folds"], params["seed"]
    common = {"partitioner": "scv", "store": store, "n_jobs": n_jobs, "backend": backend, "progress": progress}

    outer_parts, fold_of = [], {}
    for kind in ("pool", "cv"):
        group = [u for u in units if u["kind"] == kind]
        if not group:
            continue
        res = run_cv([(u["unit"], u["X"], u["y"]) for u in group], learners, folds=n_outer,
                     iterations=group[0]["repetitions"], seed=seed, **common)
        outer_parts.append(res)
        inst = res.instances
        first = inst[inst["learner"] == inst["learner"].iloc[0]]
        for (unit, it), g in first.groupby(["dataset", "iteration"], observed=True):
            fold_of[(str(unit), int(it))] = g.sort_values("instance")["fold"].to_numpy()
    by_unit = {u["unit"]: u for u in units}
    inner_sets = []
    for (unit, it), folds in fold_of.items():
        u = by_unit[unit]
        for f in range(n_outer):
            train = np.flatnonzero(folds != f)
            inner_sets.append((f"{unit}|{it}|{f}", u["X"].iloc[train].reset_index(drop=True),
                               u["y"].iloc[train].reset_index(drop=True)))
    inner = run_cv(inner_sets, learners, folds=n_inner, iterations=1, seed=seed, **common)

    outer_folds = pd.concat([r.folds for r in outer_parts], ignore_index=True)
    inner_folds = inner.folds
    for t in (outer_folds, inner_folds):
        for c in ("dataset", "learner"):
            t[c] = t[c].astype(str)
    parts = inner_folds["dataset"].str.rsplit("|", n=2, expand=True)
    inner_folds = inner_folds.assign(unit=parts[0], iteration=parts[1].astype(int), outer_fold=parts[2].astype(int))
    run = TuningRun(params=dict(params), settings=settings,
                    units=pd.DataFrame([{k: u[k] for k in ("unit", "dataset", "kind", "repetitions")}
                                        | {"size": len(u["y"]),
                                           "holdout": 0 if u["y_hold"] is None else len(u["y_hold"])}
                                        for u in units]))
    outer_by = {k: g for k, g in outer_folds.groupby(["dataset", "iteration", "learner"])}
    inner_by = {k: g for k, g in inner_folds.groupby(["unit", "iteration", "learner"])}
    for (unit, it) in fold_of:
        for family, ss in settings.items():
            o, i = [], []
            for s in range(len(ss)):
                go = outer_by[(unit, it, names[(family, s)])]
                o.append(pd.DataFrame({"outer_fold": go["fold"].to_numpy(), "setting": s,
                                       "score": go["accuracy"].to_numpy()}))
                gi = inner_by[(unit, it, names[(family, s)])]
                i.append(pd.DataFrame({"outer_fold": gi["outer_fold"].to_numpy(), "setting": s,
                                       "inner_fold": gi["fold"].to_numpy(), "score": gi["accuracy"].to_numpy()}))
            run.results[(unit, it, family)] = nested_from_scores(ss, pd.concat(o), pd.concat(i))
    run.truth = truths(units, settings, store, n_jobs, backend, progress, fold_of)
    run.failures = pd.concat([r.failures for r in outer_parts] + [inner.failures], ignore_index=True)
    seconds = []
    for route, t in (("outer", outer_folds), ("inner", inner_folds)):
        sec = (t["fit_seconds"] + t["predict_seconds"]).groupby(t["learner"]).agg(["sum", "count"])
        for (f, s), name in names.items():
            if name in sec.index:
                seconds.append({"family": f, "setting": s, "route": route, "seconds": sec.loc[name, "sum"],
                                "fits": sec.loc[name, "count"]})
    run.fit_seconds = pd.DataFrame(seconds)
    run.seconds = time.perf_counter() - started
    return run


def run(params: dict, store=None, n_jobs: int = 1, backend="loky", progress: bool = True, shipped=None) -> dict:
    """Everything of a profile that costs compute: the channel on our C4.5 (``channel``: one
    :class:`ChannelRun` per data set) and the tuning experiment (``tuning``: :class:`TuningRun`).
    ``params["parts"]`` (default: both of :data:`PARTS`) limits the run to those (the other is None).
    ``shipped``: a folder of shipped results (:mod:`cvrepro.shipped`); at the ``paper`` profile, when it
    holds this study, its tables are read (checksums verified, same design) instead of computing anything."""
    tables = shipped_results.tables_for(STUDY_ID, params, shipped)
    if tables is not None:
        return from_tables(params, tables)
    parts = params.get("parts") or PARTS
    if set(parts) - set(PARTS):
        raise ValueError(f"unknown parts {sorted(set(parts) - set(PARTS))} in params['parts']; "
                         f"known: {', '.join(PARTS)}")
    channel = [run_channel(d, params["mc_orderings"], params["greedy_orderings"], params["c_max_one_shot"],
                           params["seed"]) for d in params["channel_datasets"]] if "channel" in parts else None
    tuning = run_tuning(params, store, n_jobs, backend, progress) if "tuning" in parts else None
    return {"channel": channel, "tuning": tuning}


# --------------------------------------------------------------------------- #
# Shipped results: the paper profile's tables
# --------------------------------------------------------------------------- #
_CHANNEL_FIELDS = ("test_size", "hits", "classes", "entropy", "paper_c", "fit_seconds")


def to_tables(results: dict) -> dict[str, pd.DataFrame]:
    """The smallest tables the notebook needs (what is shipped for the paper profile). The channel:
    each data set's facts, our C4.5's test hits object by object (``channel_correct``; the orderings'
    extra hits follow from it and the seed) and the greedy searches. The tuning: every setting's
    outer- and inner-fold accuracies of every nested CV, the held-out truths, the units, fit times,
    failures and the run's seconds."""
    runs, tuning = results["channel"], results["tuning"]
    tables = {"channel": pd.DataFrame([{"dataset": r.dataset, **{f: getattr(r, f) for f in _CHANNEL_FIELDS}}
                                       for r in runs]),
              "channel_correct": pd.concat([pd.DataFrame({"dataset": r.dataset, "correct": r.correct})
                                            for r in runs], ignore_index=True),
              "channel_greedy": pd.concat([r.greedy.assign(dataset=r.dataset) for r in runs], ignore_index=True)}
    keys = list(tuning.results)
    for route in ("outer", "inner"):
        tables[f"tuning_{route}"] = pd.concat(
            [getattr(tuning.results[k], route).assign(unit=k[0], iteration=k[1], family=k[2]) for k in keys],
            ignore_index=True)
    tables["tuning_truth"] = pd.DataFrame([{"unit": u, "family": f, "setting": i, "accuracy": a}
                                           for (u, f), acc in tuning.truth.items() for i, a in enumerate(acc)],
                                          columns=["unit", "family", "setting", "accuracy"])
    failures = tuning.failures.astype({c: str for c, t in tuning.failures.dtypes.items() if t == "category"})
    tables.update(tuning_units=tuning.units, tuning_fit_seconds=tuning.fit_seconds, tuning_failures=failures,
                  tuning_seconds=pd.DataFrame({"seconds": [tuning.seconds]}))
    return tables


def from_tables(params: dict, tables: dict[str, pd.DataFrame]) -> dict:
    """What :func:`run` returns, rebuilt from :func:`to_tables`' tables (the orderings' extra hits are
    recomputed from each data set's hits and the seed: seconds, no fitting)."""
    runs = []
    for r in tables["channel"].to_dict("records"):
        correct = tables["channel_correct"].query("dataset == @r['dataset']")["correct"].to_numpy()
        _, gains = _channel_gains(correct, int(r["paper_c"]), params["mc_orderings"], params["c_max_one_shot"],
                                  params["seed"])
        greedy = tables["channel_greedy"].query("dataset == @r['dataset']").drop(columns="dataset")
        runs.append(ChannelRun(r["dataset"], gains=gains, greedy=greedy.reset_index(drop=True), correct=correct,
                               **{f: r[f] for f in _CHANNEL_FIELDS}))
    settings = family_settings(params["grids"], params["seeds"])
    inner = {k: g for k, g in tables["tuning_inner"].groupby(["unit", "iteration", "family"], sort=False)}
    results = {k: nested_from_scores(settings[k[2]], g, inner[k])
               for k, g in tables["tuning_outer"].groupby(["unit", "iteration", "family"], sort=False)}
    truth = {k: g.sort_values("setting")["accuracy"].to_numpy()
             for k, g in tables["tuning_truth"].groupby(["unit", "family"], sort=False)}
    tuning = TuningRun(dict(params), tables["tuning_units"], settings, results, truth, tables["tuning_fit_seconds"],
                       tables["tuning_failures"], float(tables["tuning_seconds"]["seconds"].iloc[0]))
    return {"channel": runs, "tuning": tuning}


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0) -> pd.DataFrame:
    """Recompute from scratch, beside the shipped numbers, ``n_cells`` outer-fold accuracies of the tuning
    design (unit, repetition, learner, setting and fold drawn from ``tables["tuning_outer"]``) and our C4.5's
    test hits on one channel data set: the check that shipped numbers are what the ``paper`` profile computes."""
    from ..runner import run_cv

    settings = family_settings(params["grids"], params["seeds"])
    units = {u["unit"]: u for u in _units(params)}
    rows = []
    for r in tables["tuning_outer"].sample(n_cells, random_state=random_state).itertuples():
        u, setting = units[r.unit], settings[r.family][r.setting]
        res = run_cv([(r.unit, u["X"], u["y"])], {engine_name(r.family, setting): make_setting(r.family, setting)},
                     folds=params["outer_folds"], iterations=r.iteration + 1, seed=params["seed"],
                     partitioner="scv", progress=False).folds
        got = res[(res.iteration == r.iteration) & (res.fold == r.outer_fold)]["accuracy"]
        rows.append({"cell": f"{r.unit} repetition {r.iteration}, {r.family} setting {r.setting}, outer fold "
                             f"{r.outer_fold}: accuracy", "shipped": repr(float(r.score)),
                     "recomputed": repr(float(got.iloc[0]))})
    channel = tables["channel"].sample(1, random_state=random_state).iloc[0]
    again = run_channel(channel["dataset"], 1, 0, seed=params["seed"])
    shipped_ = tables["channel_correct"].query("dataset == @channel['dataset']")["correct"].to_numpy()
    rows.append({"cell": f"channel: our C4.5's hits on {channel['dataset']}'s test objects",
                 "shipped": str(np.flatnonzero(~shipped_).tolist()),
                 "recomputed": str(np.flatnonzero(~again.correct).tolist())})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- #
# Cost of the paper profile (make bench)
# --------------------------------------------------------------------------- #
def estimate_core_hours(params: dict, n_jobs: int = 2) -> pd.Series:
    """Core-hours of the tuning experiment at ``params`` per (data set, learner family): every
    setting fitted and scored once on a training set of the inner folds' size, scaled by the
    number of such fits the run makes (outer, inner and held-out). The channel part (seconds)
    is left out. ``n_jobs`` is accepted for the bench's interface; the timing runs serially."""
    from ..datasets import load_dataset

    settings = family_settings(params["grids"], params["seeds"])
    n, m = params["outer_folds"], params["inner_folds"]
    rows = {}
    for name in params["pool_datasets"] + params["cv_datasets"]:
        ds = load_dataset(name)
        pool = name in params["pool_datasets"]
        size = params["sample_size"] if pool else len(ds.y)
        units = params["pool_samples"] if pool else params["cv_repetitions"]
        rng = np.random.default_rng(0)
        idx = rng.choice(len(ds.y), size, replace=False)
        train_size = int(size * (n - 1) / n * (m - 1) / m)
        tr, te = idx[:train_size], idx[train_size:]
        for family, ss in settings.items():
            make_setting(family, ss[0]).fit(ds.X.iloc[tr[:50]], ds.y.iloc[tr[:50]])    # compile outside the timing
            started = time.perf_counter()
            for s in ss:
                make_setting(family, s).fit(ds.X.iloc[tr], ds.y.iloc[tr]).predict(ds.X.iloc[te])
            per_setting = (time.perf_counter() - started) / len(ss)
            fits = len(ss) * units * (n + n * m + (n if pool else 0))      # outer, inner, truth at training size
            rows[(name, family)] = per_setting * fits / 3600
    return pd.Series(rows, name="core_hours")
