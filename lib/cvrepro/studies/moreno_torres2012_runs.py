"""Moreno-Torres et al. (2012), the runs: :func:`run` (single experiments, true partitions, Algorithm 5's
replays and the measured shift, through the engine), the shipped tables, the recomputed slice that checks them,
and the cost estimate."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import shipped as shipped_results
from ..convergence import PearsonCriterion, random_orderings, replay_orderings
from ..partition import make_partitioner
from ..progress import progress_bar
from .moreno_torres2012_design import (
    DISTANCE,
    METRICS,
    PARTITIONERS,
    SCHEMES,
    SEED,
    STUDY_ID,
    THRESHOLD,
    TRUE_SEED,
    build_learners,
    dataset_table,
    load,
)


@dataclass
class MorenoRun:
    """The study's results: tidy tables (see :func:`run`)."""

    params: dict
    experiments: pd.DataFrame        # dataset, learner, partitioner, scheme, experiment, auc, keel_auc
    truth: pd.DataFrame              # dataset, learner, scheme, auc, keel_auc
    convergence: pd.DataFrame        # dataset, learner, partitioner, scheme, repetition, n_experiments, capped
    shift: pd.DataFrame              # dataset, partitioner, scheme, partition, nn_distance, mmd
    datasets: pd.DataFrame           # Table I, ours
    seconds: float = 0.0
    convergence_by_iteration: pd.DataFrame | None = None   # Algorithm 5 read per CV iteration, same columns
    shipped: bool = False            # read from shipped paper-scale tables (cvrepro.shipped), not computed


def experiment_auc(iterations: pd.DataFrame, repeats: int, count: int) -> pd.DataFrame:
    """Experiments from fold-averaged iteration metrics: experiment e of a k x ``repeats`` scheme is
    iterations e*repeats .. e*repeats+repeats-1; the first ``count`` experiments are returned."""
    t = iterations[iterations.iteration < count * repeats].copy()
    t["experiment"] = t.iteration // repeats
    keys = ["dataset", "learner", "experiment"]
    out = t.groupby(keys, observed=True)[list(METRICS.values())].mean().reset_index()
    return out.rename(columns={v: k for k, v in METRICS.items()})


def convergence_counts(probas, repetitions: int, seed: int = SEED, threshold: float = THRESHOLD) -> pd.DataFrame:
    """Algorithm 5 on stored experiments ``probas`` (experiments x examples: each experiment's
    out-of-fold class-1 probabilities), replayed on ``repetitions`` random orderings: one row per
    replay with ``n_experiments`` (Conv: the experiments accumulated when the Pearson correlation of
    consecutive accumulated averages first reaches ``threshold``) and ``capped`` (ran out)."""
    probas = np.asarray(probas, dtype=float)
    rule = PearsonCriterion(threshold, max_iterations=len(probas))
    t = replay_orderings(rule, np.zeros(len(probas)), probas, n_orderings=repetitions, random_state=seed,
                         progress=False)
    return t.rename(columns={"ordering": "repetition", "n_iterations": "n_experiments"})[
        ["repetition", "n_experiments", "capped"]]


def _convergence(res, learner, repeats, count, reps, seed) -> tuple[list[dict], list[dict]]:
    """Algorithm 5 on the first ``count`` stored experiments of one engine result, read two ways:
    the unit accumulated is one k x r experiment (the text: "Estimate the performance ... using
    DOB-SCV 5x2 cross-validation, saving it in Estim"), or one k-fold iteration, its count of
    iterations converted to experiments (ceil(iterations / r))."""
    its = res.iterations[res.iterations.learner == learner]
    oof = res.oof(its.dataset.iloc[0], learner, int(its.k.iloc[0]))[: count * repeats]   # (iterations, n, K)
    proba = oof[:, :, -1].reshape(count, repeats, -1).mean(axis=1)                        # experiments x n
    by_iteration = convergence_counts(oof[:, :, -1], reps, seed)
    by_iteration["n_experiments"] = -(-by_iteration.n_experiments // repeats)
    return convergence_counts(proba, reps, seed).to_dict("records"), by_iteration.to_dict("records")


def _shift(cvdata, meter, part: str, k: int, i: int) -> dict:
    """The measured shift of partition ``i`` (seed ``SEED + i``) of an experiment store (the engine's fold ids)."""
    from ..engine import partitions

    return meter.measure(partitions.fold_ids(cvdata, PARTITIONERS[part], k, SEED + i, {"metric": DISTANCE}))


def _true_auc(iterations: pd.DataFrame, name: str, scheme: str) -> pd.DataFrame:
    """The true AUCs of one data set and scheme per learner: the mean over its true SCV partitions."""
    tr = iterations.groupby("learner", observed=True)[list(METRICS.values())].mean().reset_index()
    tr = tr.rename(columns={v: kk for kk, v in METRICS.items()})
    tr["dataset"], tr["scheme"] = name, scheme
    return tr


def run(params: dict, store=None, n_jobs: int = 1, backend="loky", progress: bool = True,
        shipped=None) -> MorenoRun:
    """Run the design at ``params`` (a ``SCALES`` entry). For each data set, partitioner and scheme:
    the single experiments (one engine run, :func:`cvrepro.runner.run_cv`, cached in ``store``);
    for SCV the true partitions (seeds from ``TRUE_SEED``); Algorithm 5's replays on the stored
    experiments, extended to ``convergence_experiments`` for the convergence data sets and learners
    (the first ones are the single experiments, read back from the store); the measured shift.
    Resumable: a killed run restarts from the store. ``shipped``: a folder of shipped results
    (:mod:`cvrepro.shipped`); at the ``paper`` profile, when it holds this study, its tables are read
    (checksums verified, same design) instead of computing anything."""
    import warnings

    from ..engine.inputs import prepare_data
    from ..runner import CVFailureWarning, run_cv
    from ..shift import ShiftMeter

    tables = shipped_results.tables_for(STUDY_ID, params, shipped)
    if tables is not None:
        return from_tables(params, tables)
    started = time.time()
    E, T = params["experiments"], params["true_partitions"]
    C = max(E, params["convergence_experiments"])
    reps, n_shift = params["convergence_repetitions"], params["shift_partitions"]
    learners = list(params["learners"])
    conv_sets = params["convergence_datasets"] or params["datasets"]
    conv_learners = [n for n in (params["convergence_learners"] or learners) if n in learners]
    exps, truths, convs, conv_its, shifts, tables = [], [], [], [], [], []
    cells = [(d, p, s) for d in params["datasets"] for p in PARTITIONERS for s in SCHEMES]
    bar = progress_bar(total=len(cells), desc="Moreno-Torres design", unit="run", enabled=progress)
    current, meter = None, None

    def engine(data, models, k, its, part, seed):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CVFailureWarning)
            return run_cv([data], models, folds=(k,), iterations=its, partitioner=PARTITIONERS[part],
                          store=store, n_jobs=n_jobs, backend=backend, seed=seed, progress=False,
                          partitioner_params={"metric": DISTANCE})

    for name, part, scheme in cells:
        if name != current:
            current, ds = name, load(name)
            data = (name, ds.X, ds.y)
            cvdata = prepare_data(data)          # the engine's view: its partitions are kept per process
            tables.append(dataset_table(name, ds))
            models = build_learners(learners, ds.X)
            codes = np.asarray(pd.Categorical(ds.y).codes)
            meter = ShiftMeter(ds.X, codes, metric=DISTANCE)
        k, r = SCHEMES[scheme]
        res = engine(data, models, k, E * r, part, SEED)
        e = experiment_auc(res.iterations, r, E)
        e["partitioner"], e["scheme"] = part, scheme
        exps.append(e)
        if part == "SCV":
            truths.append(_true_auc(engine(data, models, k, T, part, TRUE_SEED).iterations, name, scheme))
        if name in conv_sets and conv_learners:
            pool = res if C == E else engine(data, {n: models[n] for n in conv_learners}, k, C * r, part, SEED)
            for learner in conv_learners:
                key = {"dataset": name, "learner": learner, "partitioner": part, "scheme": scheme}
                by_experiment, by_iteration = _convergence(pool, learner, r, C, reps, SEED)
                convs += [{**key, **row} for row in by_experiment]
                conv_its += [{**key, **row} for row in by_iteration]
        for i in range(min(n_shift, E * r)):
            shifts.append({"dataset": name, "partitioner": part, "scheme": scheme, "partition": i,
                           **_shift(cvdata, meter, part, k, i)})
        bar.update(1)
    bar.close()
    experiments = pd.concat(exps, ignore_index=True)
    truth = pd.concat(truths, ignore_index=True)
    for t in (experiments, truth):
        t["dataset"], t["learner"] = t.dataset.astype(str), t.learner.astype(str)
    cols = ["dataset", "learner", "partitioner", "scheme", "repetition", "n_experiments", "capped"]
    return MorenoRun(params, experiments[["dataset", "learner", "partitioner", "scheme", "experiment", "auc",
                                          "keel_auc"]],
                     truth[["dataset", "learner", "scheme", "auc", "keel_auc"]], pd.DataFrame(convs, columns=cols),
                     pd.DataFrame(shifts), pd.DataFrame(tables), time.time() - started,
                     pd.DataFrame(conv_its, columns=cols))


def to_tables(result: MorenoRun) -> dict[str, pd.DataFrame]:
    """The smallest tables the notebook needs (what is shipped for the paper profile): every single
    experiment's AUCs, the true AUCs, Algorithm 5's counts (per experiment and per CV iteration), the
    measured shift, Table I's data sets and the run's seconds (no per-instance predictions)."""
    return {"experiments": result.experiments, "truth": result.truth, "convergence": result.convergence,
            "convergence_by_iteration": result.convergence_by_iteration, "shift": result.shift,
            "datasets": result.datasets, "seconds": pd.DataFrame({"seconds": [result.seconds]})}


def from_tables(params: dict, tables: dict[str, pd.DataFrame]) -> MorenoRun:
    """What :func:`run` returns, rebuilt from :func:`to_tables`' tables (nothing is fitted)."""
    return MorenoRun(params, tables["experiments"], tables["truth"], tables["convergence"], tables["shift"],
                     tables["datasets"], float(tables["seconds"]["seconds"].iloc[0]),
                     tables["convergence_by_iteration"], shipped=True)


CHEAP_LEARNERS = ("1NN", "3NN", "LDA")   # the learners whose cells the recomputed slice draws its costly rows from
SMALL = 1000                             # ... on data sets of at most this many examples


def _task(name: str, learner: str, part: str, k: int, iterations, seed: int) -> dict[str, pd.DataFrame]:
    """Iterations ``iterations`` of one experiment store computed from scratch as the engine's task does: its
    folds, iterations (with data set and learner) and instances (out-of-fold probabilities) tables."""
    from ..engine.inputs import prepare_data
    from ..engine.tasks import Task, run_task

    ds = load(name)
    task = Task((name, learner, PARTITIONERS[part], k), tuple(iterations), seed, (("metric", DISTANCE),))
    out = run_task(prepare_data((name, ds.X, ds.y)), build_learners([learner], ds.X)[learner], task)
    return {**out, "iterations": out["iterations"].assign(dataset=name, learner=learner)}


def _cheap(table: pd.DataFrame, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The rows of ``table`` for a learner of :data:`CHEAP_LEARNERS` on a data set of at most :data:`SMALL` examples."""
    small = set(tables["datasets"].query(f"examples <= {SMALL}").dataset)
    return table[table.learner.isin(CHEAP_LEARNERS) & table.dataset.isin(small)]


def _replay_row(params: dict, c, per_iteration: bool) -> dict:
    """Row ``c`` of the shipped Algorithm 5 counts (``convergence``, or ``convergence_by_iteration`` when
    ``per_iteration``) recomputed from scratch, as :func:`run` replays: ordering ``c.repetition`` of the pool's
    experiments (or iterations) drawn from ``SEED``, Pearson's rule with the pool as the cap. A replay reads
    its ordering only up to where it stops, so only that prefix is fitted (the shipped ``n_experiments``
    experiments, or ``n_experiments * r`` iterations): a count too low leaves the rule unconverged (capped),
    one too high lets it stop earlier, and a changed ``capped`` differs either way."""
    k, r = SCHEMES[c.scheme]
    unit = 1 if per_iteration else r                       # iterations accumulated per step of the replay
    pool = max(params["experiments"], params["convergence_experiments"]) * r // unit
    order = random_orderings(pool, params["convergence_repetitions"], SEED)[int(c.repetition)]
    order = order[: max(1, int(c.n_experiments) * r // unit)]
    wanted = [u * unit + j for u in order for j in range(unit)]
    needed = sorted(set(wanted))
    inst = _task(c.dataset, c.learner, c.partitioner, k, needed, SEED)["instances"]
    p = inst.sort_values(["iteration", "instance"]).filter(regex="^p_").to_numpy()[:, -1].reshape(len(needed), -1)
    at = {it: i for i, it in enumerate(needed)}
    proba = p[[at[it] for it in wanted]].reshape(len(order), unit, -1).mean(axis=1)   # as run's float32 means
    stop = PearsonCriterion(THRESHOLD, max_iterations=pool).replay(np.zeros(len(order)), proba)
    reading = "single iterations, counted in experiments" if per_iteration else "experiments"
    return {"cell": f"{c.dataset}, {c.learner}, {c.partitioner} {c.scheme}, replay {c.repetition}: "
                    f"Algorithm 5's {reading} to converge, capped",
            "shipped": repr((int(c.n_experiments), bool(c.capped))),
            "recomputed": repr((-(-stop.n_iterations * unit // r), bool(stop.capped)))}


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0) -> pd.DataFrame:
    """Recompute from scratch, beside the shipped numbers, ``n_cells`` single experiments (data set,
    classifier, partitioner, scheme and experiment drawn from ``tables["experiments"]``: its r
    iterations' fits, both AUCs), one true AUC of a cheap cell (1NN, 3NN or LDA on a data set of at most
    1,000 examples, where the design has one: its ``true_partitions`` SCV partitions), one row of each of
    Algorithm 5's shipped tables (``convergence``, ``convergence_by_iteration``) of a cheap cell, where
    there is one (:func:`_replay_row`: one replay's count and cap) and one measured shift: the check
    that shipped numbers are what the ``paper`` profile computes."""
    from ..engine.inputs import prepare_data
    from ..shift import ShiftMeter

    rows = []
    for r in tables["experiments"].sample(n_cells, random_state=random_state).itertuples():
        k, reps = SCHEMES[r.scheme]
        its = _task(r.dataset, r.learner, r.partitioner, k, range(r.experiment * reps, (r.experiment + 1) * reps),
                    SEED)["iterations"]
        again = experiment_auc(its, reps, r.experiment + 1).iloc[0]
        rows.append({"cell": f"{r.dataset}, {r.learner}, {r.partitioner} {r.scheme}, experiment {r.experiment}: "
                             "AUC, KEEL's AUC", "shipped": repr((float(r.auc), float(r.keel_auc))),
                     "recomputed": repr((float(again.auc), float(again.keel_auc)))})
    cheap = _cheap(tables["truth"], tables)
    for t in cheap.sample(min(1, len(cheap)), random_state=random_state).itertuples():
        its = _task(t.dataset, t.learner, "SCV", SCHEMES[t.scheme][0], range(params["true_partitions"]),
                    TRUE_SEED)["iterations"]
        again = its.groupby("learner")[list(METRICS.values())].mean().iloc[0]
        rows.append({"cell": f"{t.dataset}, {t.learner}, {t.scheme}: true AUC, KEEL's AUC",
                     "shipped": repr((float(t.auc), float(t.keel_auc))),
                     "recomputed": repr((float(again[METRICS["auc"]]), float(again[METRICS["keel_auc"]])))})
    for name in ("convergence", "convergence_by_iteration"):
        cheap = _cheap(tables[name], tables)
        rows += [_replay_row(params, c, name == "convergence_by_iteration")
                 for c in cheap.sample(min(1, len(cheap)), random_state=random_state).itertuples()]
    s = tables["shift"].sample(1, random_state=random_state).iloc[0]
    ds = load(s.dataset)
    meter = ShiftMeter(ds.X, np.asarray(pd.Categorical(ds.y).codes), metric=DISTANCE)
    got = _shift(prepare_data((s.dataset, ds.X, ds.y)), meter, s.partitioner, SCHEMES[s.scheme][0],
                 int(s.partition))
    rows.append({"cell": f"{s.dataset}, {s.partitioner} {s.scheme}, partition {s.partition}: shift",
                 "shipped": repr({m: float(s[m]) for m in got}),
                 "recomputed": repr({m: float(v) for m, v in got.items()})})
    return pd.DataFrame(rows)


def estimate_core_hours(params: dict, n_jobs: int = 2, iterations: int = 2) -> pd.Series:
    """Core-hours of a run at ``params`` per (data set, learner), plus a ``partitioning`` row per data set.

    Measured in CPU time (``time.process_time``, so the machine's load does not inflate it) on the path
    the run takes: the engine's fitting step (:func:`cvrepro.engine.tasks.fit_predict_folds`: a learner's
    batched ``fit_predict_folds`` when it has one, all folds of a task in one call) on ``iterations``
    DOB-SCV partitions of the whole data set per scheme, scaled by the fits the run makes per scheme:
    ``len(PARTITIONERS) * experiments * 10`` stored single experiments (10 fits each, whatever the scheme)
    plus ``true_partitions * k`` true SCV fits (plus the extra stored experiments of the convergence data
    sets and learners when ``convergence_experiments > experiments``). What a learner keeps across calls
    in a process (:mod:`cvrepro.learners.keel_cache`: the SVM's kernel matrix, the kNN's neighbour order)
    is timed apart: the first call on a data set is timed again once warm, the difference is the one-off
    cost, counted once per worker (``n_jobs``) and data set; the rest is per fit. The partitioning row
    times the engine's partitions (:mod:`cvrepro.engine.partitions`, kept per worker process and reused
    by every learner's task): the first draw on the data set, which also encodes it and computes its
    classes' distance blocks, once per worker; then ``iterations`` draws per partitioner and scheme,
    scaled by the draws of the run, each drawn once per worker (``min(n_jobs, learners)``: tasks of the
    same iterations for different learners run on different workers, so each worker ends up drawing
    about every partition)."""

    from ..engine import partitions
    from ..engine.inputs import prepare_data
    from ..engine.tasks import LearnerFactory, fit_predict_folds, learner_seeds
    from ..learners import keel_cache

    E, T = params["experiments"], params["true_partitions"]
    C = max(E, params["convergence_experiments"])
    conv_sets = params["convergence_datasets"] or params["datasets"]
    conv_learners = params["convergence_learners"] or params["learners"]

    def cpu(fn, *args, **kwargs):
        t0 = time.process_time()
        fn(*args, **kwargs)
        return time.process_time() - t0

    rows = {}
    for name in params["datasets"]:
        ds = load(name)
        data = prepare_data((name, ds.X, ds.y))
        codes = data.codes
        plans = {}
        for k, _ in SCHEMES.values():
            splits, seeds = [], []
            for i in range(iterations):
                folds = make_partitioner("dobscv", k, SEED + i, metric=DISTANCE).fold_ids(ds.X, codes)
                splits += [(np.flatnonzero(folds != f), np.flatnonzero(folds == f)) for f in range(k)]
                seeds += learner_seeds(SEED, i, k)
            plans[k] = (splits, seeds)
        warm = plans[2][0][:2], plans[2][1][:2]
        few = np.concatenate([np.flatnonzero(codes == c)[:30] for c in range(len(data.classes))])
        for learner, est in build_learners(params["learners"], ds.X).items():
            make = LearnerFactory(learner, est)
            make(0).fit(data.X.iloc[few], data.y[few]).predict_proba(data.X.iloc[few])   # compile (numba)
            keel_cache.clear()
            cold = cpu(fit_predict_folds, make, data, *warm)
            once = max(0.0, cold - cpu(fit_predict_folds, make, data, *warm))
            seconds = once * n_jobs
            for k, _ in SCHEMES.values():
                experiments = E + (C - E) * (name in conv_sets and learner in conv_learners)
                fits = len(PARTITIONERS) * experiments * 10 + T * k
                splits, seeds = plans[k]
                seconds += cpu(fit_predict_folds, make, data, splits, seeds) / len(splits) * fits
            rows[(name, learner)] = seconds / 3600
        keel_cache.clear()
        # the engine's path (cvrepro.engine.partitions): the first draw on a data set also encodes it and
        # computes its classes' distance blocks (once per worker); later draws reuse them
        partitions.clear()
        part_seconds = cpu(partitions.fold_ids, data, "dobscv", 2, SEED, {"metric": DISTANCE}) * n_jobs
        for k, r in SCHEMES.values():
            for key in PARTITIONERS.values():
                draw = sum(cpu(partitions.fold_ids, data, key, k, SEED + 1 + i, {"metric": DISTANCE})
                           for i in range(iterations)) / iterations
                draws = C * r + (T if key == "scv" else 0)
                part_seconds += draw * draws * min(n_jobs, len(params["learners"]))
        partitions.clear()
        rows[(name, "partitioning")] = part_seconds / 3600
    return pd.Series(rows, name="core_hours")
