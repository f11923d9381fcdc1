"""Vanwinckelen & Blockeel (2012): what repeated cross-validation estimates.

Vanwinckelen, G., & Blockeel, H. Look before you leap: some insights into
learner evaluation with cross-validation (extended version of their
BeneLearn 2012 paper "On estimating model accuracy with repeated
cross-validation").

Definitions (Secs. 2-3 of the paper), for a learner L and a large data set D
standing for the population:

- a sample T is N rows of D drawn without replacement; D \\ T is the rest;
- the conditional error eps_c(L, T) is the error on D \\ T of the model L
  learns from T (Def. 5); the unconditional error eps_u(L, N) is its mean
  over samples (Def. 6), here over the run's samples;
- CV_k(L, T, pi) is the error of stratified k-fold CV on T with the random
  partition pi (Def. 11); RCV_r is the mean of r such estimates with
  independent partitions (Def. 12);
- internal variance: Var_pi of the estimate on one sample; sample variance:
  Var_T of its mean over partitions; the total variance is their sum (the
  law of total variance, Sec. 3). Bias: E_{T,pi}[estimate] - eps_u, which
  equals E[estimate - eps_c(L, T)] since eps_u is the mean of eps_c (Def. 16).

Algorithm 1 (Sec. 5.1) is :func:`run`: for every population and sample, the
engine (:func:`cvrepro.runner.run_cv`) runs repeated stratified k-fold CV on
T for every learner (the same partitions for all learners, iteration i with
seed ``seed + i``), and :func:`conditional_errors` fits each learner once on
T and predicts the whole population once (the rows of T are then dropped),
so that nothing is fitted twice. Both are cached in ``store`` and resumable;
every sample, partition and learner seed derives from ``seed``, so the
numbers do not depend on the number of workers. Counted at ``paper``
(tools/count_fits.py): 2,212,620 fits, all distinct: one store cell per
sample, learner and k (the curve samples' 50 repetitions and the other
table samples' 30 are runs on different samples), the conditional fits on
whole samples (no CV fold has those rows), the RF twin with its own seed.

What the paper leaves open, and what we chose:

- N, the sample size, is not stated. Default 200: at N = 200 the accuracies
  of the six panels of Figure 2 (conditional error and the CV curves) fall
  inside the ranges of the panels' vertical axes, which they do not at 100
  or 500 (:func:`figure_2_calibration`, and the sweep over N in the notebook).
- The paper names no software; we choose WEKA 3.6's learners of its names
  (NaiveBayes, IBk with k = 4 and 10, Logistic, J48, RandomForest) and
  use the collection's WEKA-faithful ports of them with WEKA's defaults
  (``LR`` is WEKA's Logistic, ``RF`` WEKA's RandomForest with 10 trees;
  :func:`stand_ins` lists each with its status). One option is ours:
  LR = WEKA Logistic ``-R 1e-8 -M 500``, a WEKA option (the optimiser's
  maximum iterations) that WEKA's default leaves unbounded; chosen by
  measurement (``LR_MAX_ITER``). NB is WEKA's default
  NaiveBayes (normal densities: ``NB-normal``), identical to the kernel NB
  on the nominal populations (kr-vs-k, mushroom, nursery).
- Classes: every learner is told the population's classes, as WEKA is when
  it reads the population's file (:class:`PopulationClasses`, ``CLASSES``);
  with them our LR and NB predict as WEKA 3.6 on the study's samples
  (tools/record_vanwinckelen_weka.py), without them LR does not on kr-vs-k.
- 30-fold CV is left out where ``skip_folds`` says: the paper had none on
  kr-vs-k for its tables (time restrictions, Tables 1-3's footnote); no
  profile runs it there unless the extension ``"kr-vs-k 30-fold"`` is on
  (``EXTENSIONS``: what goes beyond the paper's design, each switched on by
  name; the ``paper`` profile runs none).
- adult is the UCI training and test files together (48,842 rows, missing
  values kept); mushroom is KEEL's 5,644 complete rows (a named stand-in).
- Samples are nested in N (sample s of size N is the first N rows of one
  random permutation of D, in file order), and the same samples serve the
  tables without and with repetition: the r-repetition estimate is the mean
  of the first r iterations of one run (the paper drew new samples for its
  30-repetition tables, whose conditional-error totals differ from the
  others'). Ties: "CV picks L1" means a strictly lower CV error, "L1 wins"
  a strictly lower conditional error; ties count for L2, as the paper's
  "<=" rows do. Ties are counted separately too.
"""
from __future__ import annotations

import itertools
import os
import time
import warnings
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from .. import shipped as shipped_results
from ..published import vanwinckelen2012 as paper
from ..reporting import Captioned
from ..verdicts import DOES_NOT_HOLD, HOLDS, PARTLY, UNDECIDED, Claim, claims_table, from_fraction

__all__ = [
    "POPULATIONS", "TABLE_POPULATIONS", "LEARNERS", "CATALOG_LEARNERS", "TWIN", "FOLDS", "SAMPLE_SIZE",
    "R_GRID", "TESTS", "LR_MAX_ITER", "SCALES", "EXTENSIONS", "PopulationClasses", "declared",
    "sample_repetitions", "win_shares", "win_shares_by_n", "win_share_distances", "describe_win_shares",
    "Experiment", "population", "sample_rows", "runs_fold", "make_learners",
    "stand_ins", "run", "conditional_errors", "unconditional", "running_estimates", "figure_2_table",
    "figure_2_calibration", "plot_figure_2", "plot_curves_grid", "decomposition", "plot_decomposition",
    "contingency", "table_contingency", "wide_contingency", "PAPER_TABLES", "pairs",
    "reading_summary", "conditional_probabilities", "pair_groups",
    "test_decisions", "rejection_rates", "plot_rejections", "pick_rates", "claims", "sweep",
    "sweep_summary", "plot_sweep", "estimate_core_hours", "describe_profile", "describe_stand_ins",
    "captioned_unconditional", "describe_experiment", "captioned_win_shares", "describe_figure_2",
    "captioned_curves_grid", "final_estimates", "describe_final_estimates", "captioned_decomposition_figure",
    "describe_decomposition", "captioned_contingency", "describe_pick_rates", "describe_reading_summary",
    "describe_conditional_probabilities", "GROUP_NAMES", "naive_rejections", "null_rejections", "describe_rejections",
    "captioned_sweep", "describe_sweep", "describe_conclusion", "STUDY_ID", "PAPER_ORDER", "to_tables",
    "from_tables", "recompute_slice",
]

POPULATIONS = paper.POPULATIONS                  # Section 5.1: the data populations
TABLE_POPULATIONS = paper.TABLE_POPULATIONS      # Section 5.2, Tables 1-3
LEARNERS = paper.LEARNERS                        # NB, C4.5 (the tables' DT), 4NN, 10NN, LR, RF
CATALOG_LEARNERS = {"NB": "NB-normal", "C4.5": "C4.5", "4NN": "4NN", "10NN": "10NN", "LR": "LR", "RF": "RF"}
TWIN = "RF'"            # RF with another seed: equal unconditional error by construction (Sec. 4-6 tests)
FOLDS = paper.FOLDS
SAMPLE_SIZE = 200       # N: not stated in the paper; see the module docstring
R_GRID = (1, 2, 3, 5, 10, 20, 30, 50)            # repetitions at which the tests are evaluated
TESTS = ("paired t (naive)", "corrected repeated k-fold t", "Bayesian correlated t", "5x2cv paired t",
         "5x2cv combined F")
CHUNK_ROWS = 65_536     # predict the population in chunks of at most this many rows (all of D at once here)
SAMPLES_PER_TASK = 10   # samples per conditional-error task
# Every learner is told the population's classes (WEKA reads the population's file and declares them all,
# present in the sample or not): :class:`PopulationClasses` in CV, the population's categorical labels in
# the conditional errors. Part of the conditional errors' cache key.
CLASSES = "population"

# LR's -M (WEKA Logistic's maximum iterations of its optimiser). WEKA's default -M -1 searches until the
# optimiser's stopping rule fires, restarting every 200 iterations; on kr-vs-k (18 classes) and abalone
# (28) at N = 200 the data are nearly separable, ridge 1e-8 leaves the optimum almost undefined, and the
# search runs for thousands to tens of thousands of iterations. WEKA's -M m stops after m iterations and
# keeps the last iterate (tests/fixtures/weka/Logistic-M20--*: bit-identical to WEKA 3.6.14). Measured by
# tools/measure_vanwinckelen_lr_cap.py (20 samples of N = 200 per population; eps_c on D \ T and one
# stratified 10-fold CV on T, each against -M -1's; CPU seconds per fit, measured at load 8-12 on 2
# cores, so above an idle machine's; "capped": share of fits the cap stopped, for -M -1 the port's
# 100,000 iterations):
#
#   population    -M   s/fit  capped  mean|d eps_c|  max|d eps_c|  mean|d CV|  max|d CV|
#   abalone       -1   5.800     8%         0.0000        0.0000      0.0000     0.0000
#   abalone      100   0.028   100%         0.0036        0.0083      0.0102     0.0300
#   abalone      200   0.050   100%         0.0023        0.0058      0.0068     0.0150
#   abalone      500   0.099    38%         0.0011        0.0030      0.0042     0.0100
#   abalone     1000   0.129    20%         0.0021        0.0080      0.0045     0.0150
#   kr-vs-k       -1   2.318     1%         0.0000        0.0000      0.0000     0.0000
#   kr-vs-k      100   0.110    93%         0.0023        0.0117      0.0075     0.0200
#   kr-vs-k      200   0.199    68%         0.0022        0.0206      0.0055     0.0150
#   kr-vs-k      500   0.377    46%         0.0023        0.0202      0.0050     0.0200
#   kr-vs-k     1000   0.554    27%         0.0029        0.0191      0.0057     0.0200
#
# No m meets mean |d eps_c| <= 0.002 on both populations: on abalone only 500 does; on kr-vs-k none
# does over all 20 samples, because on one sample (14) -M -1 itself ran into the port's 100,000-iteration
# safety stop (3 of its 11 fits, 275 s) and every cap lands 0.02 away from it; without that sample
# 100/200/500/1000 give 0.0018/0.0013/0.0014/0.0020. The differences do not shrink steadily with m:
# they are where a search on an almost flat objective stops, not a convergence error (-M -1 is itself
# such a stop). We take 500 as the trade-off: the closest to -M -1 on abalone (median 0.0009 on both),
# the CV estimates within about one row of 200 on average (0.004-0.005), and LR 6x (kr-vs-k) and 60x
# (abalone) cheaper than -M -1, with no fit of minutes.
LR_MAX_ITER = 500


def _scale(populations, table_populations, n_samples, curve_samples, repetitions, table_repetitions, folds,
           sample_size, sweep_sizes, sweep_samples, sweep_repetitions, sweep_populations, skip_folds,
           extensions=()) -> dict:
    return {"populations": list(populations), "table_populations": list(table_populations),
            "learners": list(LEARNERS), "sample_size": sample_size, "n_samples": n_samples,
            "curve_samples": curve_samples, "repetitions": dict(repetitions),
            "table_repetitions": table_repetitions, "folds": list(folds),
            "skip_folds": {pop: list(ks) for pop, ks in skip_folds.items()}, "seed": 0, "test_folds": 10,
            "alpha": 0.05, "rope": 0.01, "twin": True, "sweep_sizes": list(sweep_sizes),
            "sweep_samples": sweep_samples, "sweep_repetitions": dict(sweep_repetitions),
            "sweep_populations": list(sweep_populations), "extensions": list(extensions)}


# What goes beyond the paper's design, each with its own switch (``params["extensions"]``, the notebook's
# ``extensions`` parameter); the ``paper`` profile runs none of them.
EXTENSIONS = {
    "sweep": "Algorithm 1 at several N on a small scale (Section 7; the paper states no N)",
    "kr-vs-k 30-fold": "30-fold CV on kr-vs-k (the paper has none: 'time restrictions', footnote 3)",
    "curves on every sample": "repetitions[k] (the curves' 50) on every table sample instead of the tables' 30",
}

# How each profile scales the design. The paper's design: 100 samples of adult, kr-vs-k and nursery for
# Tables 1-3 with 1 and 30 repetitions of 2-, 10- and 30-fold CV, no 30-fold CV on kr-vs-k (footnote 3);
# Figure 2's curves with 50 repetitions on "a random selection" of samples of all five populations (about
# 10 here). ``n_samples``: samples of the table populations; ``curve_samples``: the samples with
# ``repetitions[k]`` (the first ones of every population; the only ones of abalone and mushroom); the
# other table samples get ``min(table_repetitions, repetitions[k])`` (:func:`sample_repetitions`).
# ``skip_folds``: population -> values of k not run there. LR is the costly learner on kr-vs-k and abalone
# (about 0.1 s per fit with -M LR_MAX_ITER; uncapped 0.4 and 1.7 s with outliers of minutes), every other
# learner about 0.01 s. estimate_core_hours(SCALES["paper"]): 13.0 core-hours, LR 10.8 of them (kr-vs-k 7.4,
# abalone 1.7), every other learner together 2.2 (one sample per population and learner, process CPU time,
# classes declared; measured on a shared 2-core machine at load 21-24, so above an idle machine's); at load
# 5-8 on 2026-11-27, 6.05 (LR 4.03: kr-vs-k 2.40, abalone 0.68; per step: PAPER_ORDER). The
# former paper profile (30-fold CV on kr-vs-k, 50 repetitions on all 100 samples) measured 80 (issue 34).
SCALES = {
    "smoke": _scale(["adult", "nursery"], ["adult", "nursery"], 4, 4, {2: 5, 10: 3}, 3, [2, 10], 100,
                    [50, 100], 2, {2: 2, 10: 1}, ["nursery"], {}, ["sweep"]),
    "quick": _scale(POPULATIONS, TABLE_POPULATIONS, 16, 5, {2: 10, 10: 5, 30: 3},
                    10, FOLDS, SAMPLE_SIZE, [50, 100, 200, 500], 8, {2: 3, 10: 2}, ["adult", "nursery"],
                    {"kr-vs-k": [30]}, ["sweep"]),
    "paper": _scale(POPULATIONS, TABLE_POPULATIONS, paper.N_SAMPLES, 10, dict.fromkeys(FOLDS, 50),
                    30, FOLDS, SAMPLE_SIZE, [50, 100, 200, 500, 1000], 30, {2: 10, 10: 10},
                    TABLE_POPULATIONS, {"kr-vs-k": [30]}),
}


# --------------------------------------------------------------------------- #
# Populations, samples, learners
# --------------------------------------------------------------------------- #
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


def _conditional_seed(seed: int, population_name: str, sample: int) -> int:
    """random_state of the model fitted on the whole sample (randomised learners only)."""
    return int(np.random.SeedSequence([seed, _key(population_name), sample, 1]).generate_state(1)[0] >> 1)


def make_learners(names=LEARNERS, twin: bool = False) -> dict:
    """The study's learners by the paper's names (unfitted), plus the RF twin with another seed."""
    from ..learners import make_learner

    unknown = [n for n in names if n not in CATALOG_LEARNERS]
    if unknown:
        raise ValueError(f"unknown learner(s) {unknown}; the paper's learners are {', '.join(LEARNERS)}")
    models = {name: make_learner(CATALOG_LEARNERS[name]) for name in names}
    if "LR" in models:
        models["LR"].set_params(max_iter=LR_MAX_ITER)
    if twin:
        models[TWIN] = _twin(make_learner("RF"))
    return models


def _twin(rf):
    """The RF with a fixed seed other than the engine's per-fold seeds (or WEKA's -S 1 plus one)."""
    current = rf.get_params().get("random_state")
    return rf.set_params(random_state=2012 if current is None else int(current) + 1)


class PopulationClasses(ClassifierMixin, BaseEstimator):
    """``estimator`` told the population's classes, as WEKA is when it reads the population's file.

    WEKA declares every class of the file's class attribute, present in the training set or not,
    and its learners model them all: LR keeps a score for each (the last declared class is the
    reference), NB's Laplace prior counts them. ``fit`` hands ``estimator`` the labels as a
    categorical with ``classes`` declared (our learners then do what WEKA does: on kr-vs-k samples
    LR is bit-identical to WEKA 3.6 only so, tests/fixtures/vanwinckelen2012/weka-samples.json.gz).
    ``predict_proba`` returns the columns of the classes present in the training labels (the CV engine scores a
    sample against the classes it holds), renormalised to sum to 1; a row whose most probable declared class is
    absent from the training labels is scored by the most probable present one (rare: on two kr-vs-k and two
    nursery samples of N = 200, LR's model votes for a class absent from T on 0-3 of 1,300-2,800 rows of D \\ T,
    the other learners on none). Declaring changes LR's predictions (on 3-18 % of those rows), not NB's, C4.5's,
    IBk's nor RF's once ties go to the population's class order, as they do here.
    ``estimator_.predict_proba`` has every declared class.
    """

    def __init__(self, estimator=None, classes=()):
        self.estimator = estimator
        self.classes = classes

    @property
    def random_state(self):
        """The wrapped learner's seed (what the engine reads to seed batched folds as single ones)."""
        return self.estimator.get_params().get("random_state")

    def _declared(self, y) -> pd.Series:
        declared = list(self.classes)
        labels = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y, dtype=object)
        unknown = sorted(set(labels) - set(declared), key=str)
        if unknown:
            raise ValueError(f"labels {unknown[:5]} are not among the declared classes {declared}; pass the "
                             "population's classes (classes=population(name)[1].cat.categories)")
        return pd.Series(pd.Categorical(labels, categories=declared))

    def fit(self, X, y):
        from sklearn.base import clone

        yd = self._declared(y)
        self.estimator_ = clone(self.estimator).fit(X, yd)
        present = np.bincount(yd.cat.codes.to_numpy(), minlength=len(self.classes)) > 0
        self.columns_ = np.flatnonzero(present)
        self.classes_ = np.asarray(list(self.classes), dtype=object)[present]
        return self

    def predict_proba(self, X) -> np.ndarray:
        return _given_present(np.asarray(self.estimator_.predict_proba(X))[:, self.columns_])

    def predict(self, X) -> np.ndarray:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def fit_predict_folds(self, X, y, splits, random_states, classes) -> list:
        """The wrapped learner's batched path with the classes declared; columns in the order of
        ``classes`` (the engine's), a class absent from a split's training labels at 0, as in ``fit``."""
        if not hasattr(self.estimator, "fit_predict_folds"):
            raise AttributeError(f"{type(self.estimator).__name__} has no batched path")
        yd = self._declared(y)
        declared = np.asarray(list(self.classes), dtype=object)
        probas = self.estimator.fit_predict_folds(X, yd, splits, random_states, declared)
        codes = yd.cat.codes.to_numpy()
        where = [int(np.flatnonzero(declared == c)[0]) for c in classes]
        out = []
        for (train, _), p in zip(splits, probas):
            present = np.bincount(codes[np.asarray(train)], minlength=len(declared)) > 0
            out.append(_given_present(np.where(present[where], np.asarray(p, dtype=float)[:, where], 0.0)))
        return out


def _given_present(p: np.ndarray) -> np.ndarray:
    """Probabilities of the present classes given that the class is one of them (rows renormalised to sum to
    1, as the engine requires; a row with no mass on any present class becomes uniform over them)."""
    total = p.sum(axis=1, keepdims=True)
    return np.divide(p, total, out=np.full_like(p, 1.0 / p.shape[1]), where=total > 0)


def declared(models: dict, classes) -> dict:
    """Every learner of ``models`` told the population's ``classes`` (:class:`PopulationClasses`)."""
    return {name: PopulationClasses(est, tuple(classes)) for name, est in models.items()}


def stand_ins() -> pd.DataFrame:
    """The paper's populations and learners, what is used for each here, and its status."""
    from ..datasets import paper_datasets
    from ..learners import list_learners

    pops = paper_datasets("vanwinckelen2012")
    rows = [{"kind": "population", "paper": r.paper_name, "used here": r.dataset, "status": r.status,
             "note": r.note + ("; used as one population of 48,842 rows" if r.dataset == "adult" else "")}
            for r in pops.itertuples()]
    catalog = list_learners().set_index("name")
    for name in LEARNERS:
        entry = catalog.loc[CATALOG_LEARNERS[name]]
        note = entry["note"]
        if name == "NB":
            note = ("the paper does not say which NB; WEKA's default NaiveBayes (normal densities), "
                    "the same as the kernel NB on the nominal populations")
        description = entry["description"]
        if name == "LR":
            description = description.replace("-M -1", f"-M {LR_MAX_ITER}")
            note = (f"our reading: the paper names no LR tool nor its options; WEKA's Logistic with -M {LR_MAX_ITER} "
                    "(at most that many iterations of its optimiser; WEKA's default -M -1 runs until convergence: "
                    "thousands to tens of thousands of iterations on kr-vs-k and abalone, where the optimum is "
                    "almost undefined); there eps_c moves by 0.001-0.002 on average from -M -1's (measured: "
                    "LR_MAX_ITER in the study module); WEKA-exact with -M (recorded parity cases)")
        status = entry["status"] + (f" with our -M {LR_MAX_ITER}" if name == "LR" else "")
        rows.append({"kind": "learner", "paper": "DT (C4.5)" if name == "C4.5" else name,
                     "used here": f"{CATALOG_LEARNERS[name]}: {description}", "status": status,
                     "note": note})
    return pd.DataFrame(rows)


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


def _check_params(params: dict) -> dict:
    p = dict(params)
    p["repetitions"] = {int(k): int(r) for k, r in p["repetitions"].items()}
    missing = [k for k in p["folds"] if k not in p["repetitions"]]
    if missing:
        raise ValueError(f"repetitions gives no count for k = {missing}; it maps each k of folds to a count, "
                         f"e.g. {{2: 10, 10: 10, 30: 3}}")
    if any(r < 1 for r in p["repetitions"].values()):
        raise ValueError(f"repetitions must be positive, got {p['repetitions']}")
    for key in ("populations", "table_populations"):
        bad = [x for x in p[key] if x not in POPULATIONS]
        if bad:
            raise ValueError(f"{key}: unknown population(s) {bad}; the paper's are {', '.join(POPULATIONS)}")
    for key in ("n_samples", "curve_samples"):
        if p[key] < 2:
            raise ValueError(f"{key} must be at least 2, got {p[key]}")
    if p["table_repetitions"] < 1:
        raise ValueError(f"table_repetitions must be positive, got {p['table_repetitions']}")
    p["extensions"] = list(p.get("extensions", []))
    bad = [x for x in p["extensions"] if x not in EXTENSIONS]
    if bad:
        raise ValueError(f"extensions: unknown {bad}; the extensions are {', '.join(map(repr, EXTENSIONS))}")
    p["skip_folds"] = {pop: [int(k) for k in ks] for pop, ks in p.get("skip_folds", {}).items()}
    bad = [x for x in p["skip_folds"] if x not in POPULATIONS]
    if bad:
        raise ValueError(f"skip_folds: unknown population(s) {bad}; the paper's are {', '.join(POPULATIONS)}")
    return p


SMALL_CLASS_WARNING = "SCV"   # start of the partitioner's message about classes with fewer than k examples


def _quiet_workers() -> None:
    """Worker processes started from now on ignore the partitioner's small-class warning (the study
    counts those samples itself, :func:`_small_classes`). Python reads PYTHONWARNINGS at start-up;
    worker processes (loky) would otherwise print it into a notebook's output or its server's log. (LR's
    -M stops its search without a warning, as WEKA's does.)"""
    flags = [f"ignore:{SMALL_CLASS_WARNING}:UserWarning"]
    current = [f for f in os.environ.get("PYTHONWARNINGS", "").split(",") if f]
    os.environ["PYTHONWARNINGS"] = ",".join(current + [f for f in flags if f not in current])


def _n_samples(p: dict, pop: str) -> int:
    return p["n_samples"] if pop in p["table_populations"] else p["curve_samples"]


def runs_fold(p: dict, pop: str, k: int) -> bool:
    """Whether k-fold CV runs on population ``pop`` (``skip_folds`` names the cells left out; the
    extension ``"kr-vs-k 30-fold"`` puts that one back)."""
    if pop == "kr-vs-k" and int(k) == 30 and "kr-vs-k 30-fold" in p.get("extensions", []):
        return k in p["folds"]
    return k in p["folds"] and int(k) not in {int(x) for x in p.get("skip_folds", {}).get(pop, [])}


def _stores(store) -> tuple:
    if store is None:
        return None, None
    root = Path(store)
    return str(root / "cv"), root / "conditional"


STUDY_ID = "vanwinckelen2012"
# The paper run in steps, cheapest learners first (tools/paper_run.py). estimate_core_hours(SCALES["paper"]),
# measured 2026-11-27 (process CPU time, one BLAS thread, load 5-8 on 2 cores): 6.05 core-hours, LR 4.03 of
# them. Per step: NB, C4.5, 4NN, 10NN 0.90 plus RF's twin 0.31 (every step with a table population runs the
# twin; the first computes it); RF 0.81; LR on abalone 0.68; on adult, mushroom and nursery 0.94; on kr-vs-k 2.40.
PAPER_ORDER = ({"learners": ["NB", "C4.5", "4NN", "10NN"]},
               {"learners": ["RF"]},
               {"learners": ["LR"], "populations": ["abalone"], "table_populations": []},
               {"learners": ["LR"], "populations": ["adult", "mushroom", "nursery"],
                "table_populations": ["adult", "nursery"]},
               {"learners": ["LR"], "populations": ["kr-vs-k"], "table_populations": ["kr-vs-k"]})


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
    p = _check_params(params)
    _quiet_workers()
    cv_store, cond_store = _stores(store)
    pops = list(dict.fromkeys(p["populations"] + p["table_populations"]))
    test_pops = [x for x in p["table_populations"]] if p["twin"] else []
    models = make_learners(p["learners"])
    twin = make_learners([], twin=True) if test_pops else {}
    names, data = {}, {}
    for pop in pops:
        X, y = population(pop)
        for s in range(_n_samples(p, pop)):
            rows = sample_rows(len(y), p["sample_size"], p["seed"], pop, s)
            name = _sample_name(pop, p, s)
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
            for reps, samples in _repetition_groups(p, pop, k).items():
                here = [data[_sample_name(pop, p, s)] for s in samples]
                parts.append(run_cv(here, declared(learners, classes), folds=(k,), iterations=reps, store=cv_store,
                                    n_jobs=n_jobs, backend=backend, seed=p["seed"], progress=progress,
                                    partitioner_params={"small_classes": "warn"}))
        timings["cv"] = time.perf_counter() - started
        started = time.perf_counter()
        conditional = conditional_errors(
            {pop: list(range(_n_samples(p, pop))) for pop in pops}, models, p["sample_size"], p["seed"],
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
    r = max(_test_grid(p), default=0)
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
    return Experiment(_check_params(params), tables["conditional"], tables["iterations"], tables["folds"],
                      tables["failures"], tables["small_classes"], seconds, shipped=True)


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0) -> pd.DataFrame:
    """Recompute from scratch, beside the shipped numbers, ``n_cells`` CV estimates (population, sample,
    learner, k and repetition drawn from ``tables["iterations"]``: that repetition's k fits on the sample)
    and ``n_cells`` conditional errors (drawn from ``tables["conditional"]``: one fit on the sample, the
    population predicted): the check that shipped numbers are what the ``paper`` profile computes."""
    from ..engine.inputs import prepare_data
    from ..engine.tasks import Task, run_task

    p = _check_params(params)
    models = {**make_learners(p["learners"]), **make_learners([], twin=True)}
    rows = []
    for r in tables["iterations"].sample(n_cells, random_state=random_state).itertuples():
        X, y = population(r.population)
        idx = sample_rows(len(y), p["sample_size"], p["seed"], r.population, r.sample)
        name = _sample_name(r.population, p, r.sample)
        data = prepare_data((name, X.iloc[idx].reset_index(drop=True), y.iloc[idx].reset_index(drop=True)))
        est = declared({r.learner: models[r.learner]}, y.cat.categories)[r.learner]
        task = Task((name, r.learner, "scv", int(r.k)), (int(r.iteration),), p["seed"], (("small_classes", "warn"),))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            again = run_task(data, est, task)["iterations"]["error_rate"].iloc[0]
        rows.append({"cell": f"{name}, {r.learner}, {r.k}-fold CV, repetition {r.iteration}: error",
                     "shipped": repr(float(r.error)), "recomputed": repr(float(again))})
    for r in tables["conditional"].sample(n_cells, random_state=random_state).itertuples():
        again = _conditional_task(r.population, r.learner, models[r.learner], [int(r.sample)], p["sample_size"],
                                  p["seed"])["error"].iloc[0]
        rows.append({"cell": f"{r.population} sample {r.sample}, {r.learner}: conditional error",
                     "shipped": repr(float(r.error)), "recomputed": repr(float(again))})
    return pd.DataFrame(rows)


def _sample_name(pop: str, p: dict, sample: int) -> str:
    return f"{pop}#N{p['sample_size']}#s{sample:03d}"


def sample_repetitions(p: dict, pop: str, k: int, sample: int) -> int:
    """Repetitions of k-fold CV on one sample: ``repetitions[k]`` on the curve samples (the first
    ``curve_samples``) and, with the extension ``"curves on every sample"``, on all; the other table
    samples get ``min(table_repetitions, repetitions[k])`` (the paper: 50 for its curves on a few
    samples, 30 for its tables)."""
    full = p["repetitions"][k]
    if sample < p["curve_samples"] or "curves on every sample" in p.get("extensions", []):
        return full
    return min(p["table_repetitions"], full)


def _repetition_groups(p: dict, pop: str, k: int) -> dict:
    """repetitions -> sample numbers of population ``pop`` at k-fold CV."""
    groups: dict = {}
    for s in range(_n_samples(p, pop)):
        groups.setdefault(sample_repetitions(p, pop, k, s), []).append(s)
    return groups


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
# Conditional errors: one fit per (sample, learner), one prediction of the population
# --------------------------------------------------------------------------- #
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
    tables = map_tasks(_conditional_task, tasks, store, n_jobs=n_jobs, backend=backend, progress=progress,
                       desc="conditional errors")
    out = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(
        columns=["population", "sample", "learner", "error", "seconds"])
    return out.sort_values(["population", "learner", "sample"]).reset_index(drop=True)


@lru_cache(maxsize=8)
def _fingerprint(pop: str) -> str:
    from ..engine.taskmap import fingerprint

    X, y = population(pop)
    return fingerprint(X) + fingerprint(y)


def _conditional_task(pop, learner, est, chunk, sample_size, seed) -> pd.DataFrame:
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
            model = make(_conditional_seed(seed, pop, s))
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


# --------------------------------------------------------------------------- #
# eps_u, repeated-CV curves, Figure 2
# --------------------------------------------------------------------------- #
def unconditional(exp: Experiment) -> pd.DataFrame:
    """eps_u per population and learner: the mean conditional error over the samples, with the
    sample standard deviation of eps_c (Def. 15) and the number of samples."""
    g = exp.conditional.groupby(["population", "learner"], sort=False)["error"]
    return g.agg(eps_u="mean", sd_eps_c="std", samples="size").reset_index()


def running_estimates(exp: Experiment) -> pd.DataFrame:
    """RCV_r for r = 1..R on every sample (the mean of the first r iterations), with eps_c and eps_u."""
    t = exp.iterations.sort_values(["population", "learner", "k", "sample", "iteration"]).copy()
    t["r"] = t.groupby(["population", "learner", "k", "sample"]).cumcount() + 1
    t["rcv"] = t.groupby(["population", "learner", "k", "sample"])["error"].cumsum() / t["r"]
    cond = exp.conditional[["population", "sample", "learner", "error"]].rename(columns={"error": "eps_c"})
    t = t.merge(cond, on=["population", "sample", "learner"], how="left")
    return t.merge(unconditional(exp)[["population", "learner", "eps_u"]], on=["population", "learner"], how="left")


def figure_2_table(exp: Experiment, sample: int = 0) -> pd.DataFrame:
    """Figure 2's panels in numbers (accuracy, %): for the drawn sample, CV after one and after all
    repetitions and eps_c; over all samples, the mean of RCV_R and of eps_c (eps_u); and the
    published panel's axis range. ``in range``: eps_u and the mean RCV_R both lie inside it."""
    run = running_estimates(exp)
    rows = []
    for panel in paper.figure_2().itertuples():
        cell = run[(run.population == panel.population) & (run.learner == panel.learner) & (run.k == panel.k)]
        if cell.empty:
            continue
        last = cell[cell.r == cell.r.max()]
        one = cell[cell["sample"] == sample]
        rows.append({"panel": f"{panel.learner} on {panel.population}, {panel.k}fcv",
                     "repetitions": int(cell.r.max()),
                     "CV (1 rep.), sample": 100 * (1 - one[one.r == 1].rcv.iloc[0]),
                     f"RCV_R, sample {sample}": 100 * (1 - one[one.r == one.r.max()].rcv.iloc[0]),
                     f"eps_c, sample {sample}": 100 * (1 - one.eps_c.iloc[0]),
                     "RCV_R, mean over samples": 100 * (1 - last.rcv.mean()),
                     "eps_u": 100 * (1 - last.eps_u.iloc[0]),
                     "paper axis low": panel.axis_low, "paper axis high": panel.axis_high})
    t = pd.DataFrame(rows)
    if len(t):
        t["in range"] = [bool(r["paper axis low"] <= min(r["eps_u"], r["RCV_R, mean over samples"]) and
                              max(r["eps_u"], r["RCV_R, mean over samples"]) <= r["paper axis high"])
                         for _, r in t.iterrows()]
    return t


def figure_2_calibration(exp: Experiment) -> float:
    """Share of Figure 2's panels (present in the run) whose eps_u and mean RCV_R accuracies lie
    inside the published panel's vertical axis range: how well N matches the paper's."""
    t = figure_2_table(exp)
    return float(t["in range"].mean()) if len(t) else float("nan")


def _panel(ax, cell, title, ylabel=True):
    ax.plot(cell.r, 100 * (1 - cell.rcv), color="C0", lw=1.4, label="repeated CV")
    ax.axhline(100 * (1 - cell.eps_c.iloc[0]), color="C2", lw=1.4, label="conditional")
    ax.axhline(100 * (1 - cell.eps_u.iloc[0]), color="C3", lw=1.4, label="unconditional")
    ax.set_title(title, fontsize=9)
    ax.xaxis.get_major_locator().set_params(integer=True)         # repetitions are whole numbers
    if ylabel:
        ax.set_ylabel("accuracy (%)")


def plot_figure_2(exp: Experiment, sample: int = 0):
    """Figure 2: the six published panels for one sample: RCV accuracy against repetitions (blue),
    the sample's conditional accuracy (green), the unconditional accuracy (red)."""
    import matplotlib.pyplot as plt

    run = running_estimates(exp)
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5))
    for ax, panel in zip(axes.flat, paper.figure_2().itertuples()):
        cell = run[(run.population == panel.population) & (run.learner == panel.learner) &
                   (run.k == panel.k) & (run["sample"] == sample)]
        title = f"{panel.learner} on {panel.population}, {panel.k}fcv"
        if cell.empty:
            ax.text(0.5, 0.5, f"{title}:\nnot in this run", ha="center", va="center", transform=ax.transAxes)
            ax.axis("off")
            continue
        _panel(ax, cell, f"{title}\n(paper's axis: {panel.axis_low}-{panel.axis_high} %)")
        ax.set_xlabel("repetitions")
    drawn = [ax for ax in axes.flat if ax.lines]
    handles, labels = drawn[0].get_legend_handles_labels() if drawn else ([], [])
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def plot_curves_grid(exp: Experiment, population_name: str, sample: int = 0):
    """Figure 2 for every learner (columns) and k (rows) on one population and sample."""
    import matplotlib.pyplot as plt

    run = running_estimates(exp)
    run = run[(run.population == population_name) & (run["sample"] == sample)]
    ks = sorted(run.k.unique())
    learners = [l for l in exp.params["learners"] if l in set(run.learner)]
    fig, axes = plt.subplots(len(ks), len(learners), figsize=(2.3 * len(learners), 1.9 * len(ks) + 0.6),
                             squeeze=False, sharex=True)
    for i, k in enumerate(ks):
        for j, learner in enumerate(learners):
            cell = run[(run.k == k) & (run.learner == learner)]
            _panel(axes[i, j], cell, f"{learner}, {k}fcv", ylabel=j == 0)
            axes[i, j].tick_params(labelsize=7)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False, fontsize=8)
    fig.suptitle(f"{population_name}, sample {sample}", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


# --------------------------------------------------------------------------- #
# Figure 1 made concrete: bias, internal and sample variance
# --------------------------------------------------------------------------- #
def decomposition(exp: Experiment) -> pd.DataFrame:
    """The single CV estimate's error decomposed per population, learner and k (Sec. 3).

    ``bias`` = E[CV] - eps_u (= E[CV - eps_c]); ``internal var`` = E_T[Var_pi(CV)];
    ``sample var`` = Var_T(E_pi[CV]), estimated without the internal variance left in a mean of R
    partitions (Var_T of the means minus internal / R; negative by chance when it is small);
    ``total var`` = internal + sample (law of total variance); ``var_eps_c`` = Var_T(eps_c) (Def. 15);
    ``mse_u`` = bias^2 + total, the mean squared error for eps_u; ``mse_c`` = E[(CV - eps_c)^2];
    ``corr`` = correlation over samples of E_pi[CV] and eps_c. Variances in squared percentage
    points, bias in percentage points.
    """
    t = exp.iterations.merge(exp.conditional[["population", "sample", "learner", "error"]]
                             .rename(columns={"error": "eps_c"}), on=["population", "sample", "learner"])
    rows = []
    for (pop, learner, k), g in t.groupby(["population", "learner", "k"], sort=False):
        per = g.groupby("sample").agg(mean=("error", "mean"), var=("error", "var"), n=("error", "size"),
                                      eps_c=("eps_c", "first"))
        R = int(per.n.min())
        internal = float(per["var"].mean()) if R > 1 else float("nan")
        sample = float(per["mean"].var() - (internal / R if R > 1 else 0.0))
        eps_u = float(per.eps_c.mean())
        bias = float(g.error.mean() - eps_u)
        total = internal + sample
        rows.append({"population": pop, "learner": learner, "k": int(k), "samples": len(per), "repetitions": R,
                     "eps_u": 100 * eps_u, "bias": 100 * bias, "internal var": 1e4 * internal,
                     "sample var": 1e4 * sample, "total var": 1e4 * total, "var_eps_c": 1e4 * float(per.eps_c.var()),
                     "mse_u": 1e4 * (bias ** 2 + total), "mse_c": 1e4 * float(((g.error - g.eps_c) ** 2).mean()),
                     "internal share": internal / total if total > 0 else float("nan"),
                     "corr": float(np.corrcoef(per["mean"], per.eps_c)[0, 1]) if per.eps_c.std() > 0
                     and per["mean"].std() > 0 else float("nan")})
    return pd.DataFrame(rows)


def plot_decomposition(dec: pd.DataFrame):
    """Bar chart of the decomposition: per population, learner and k, the single CV's mean squared
    error for eps_u as bias^2 + internal variance + sample variance (squared percentage points)."""
    import matplotlib.pyplot as plt

    pops = list(dict.fromkeys(dec.population))
    fig, axes = plt.subplots(len(pops), 1, figsize=(11, 2.4 * len(pops) + 0.5), squeeze=False)
    colors = {"bias^2": "C3", "internal": "C0", "sample": "C1"}
    for ax, pop in zip(axes[:, 0], pops):
        d = dec[dec.population == pop]
        learners = list(dict.fromkeys(d.learner))
        ks = sorted(d.k.unique())
        width = 0.8 / len(ks)
        for i, learner in enumerate(learners):
            for j, k in enumerate(ks):
                row = d[(d.learner == learner) & (d.k == k)]
                if row.empty:
                    continue
                r = row.iloc[0]
                x = i + (j - (len(ks) - 1) / 2) * width
                bottom = 0.0
                for part, value in (("bias^2", r["bias"] ** 2), ("internal", r["internal var"]),
                                    ("sample", max(r["sample var"], 0.0))):
                    value = 0.0 if not np.isfinite(value) else value
                    ax.bar(x, value, width * 0.92, bottom=bottom, color=colors[part],
                           label=part if (i == 0 and j == 0) else None)
                    bottom += value
                ax.text(x, bottom, str(k), ha="center", va="bottom", fontsize=6)
        ax.set_xticks(range(len(learners)), learners)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.08)                 # room for the k labels on top
        ax.set_ylabel("pp$^2$")
        ax.set_title(pop, fontsize=9, loc="left")
    axes[0, 0].legend(fontsize=8, ncol=3, loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- #
# Tables 1-3: which model does CV pick?
# --------------------------------------------------------------------------- #
def pairs(learners=LEARNERS) -> list[tuple[str, str]]:
    """The learner pairs of Tables 1-3, in the paper's order."""
    return list(itertools.combinations(learners, 2))


def _cv_at(exp: Experiment, reps: int, k: int, pops) -> pd.DataFrame:
    """Per population, sample and learner: the mean CV error of the first ``reps`` iterations."""
    it = exp.iterations[(exp.iterations.k == k) & exp.iterations.population.isin(pops) &
                        (exp.iterations.iteration < reps)]
    return it.groupby(["population", "sample", "learner"])["error"].mean().unstack("learner")


def contingency(exp: Experiment) -> pd.DataFrame:
    """The 2x2 tables of Tables 1-3 on our samples: per pair, table population, k, and without
    repetition (``repeated`` False) and with ``min(table_repetitions, repetitions[k])``.

    ``cv L1, true L1`` counts samples where CV picks L1 (strictly lower CV error) and L1 has the
    lower conditional error, and so on (reading A of :mod:`cvrepro.published.vanwinckelen2012`);
    ``cv ties`` / ``true ties``: samples with equal CV / conditional errors (counted for L2).
    """
    p = exp.params
    cond = exp.conditional.pivot_table(index=["population", "sample"], columns="learner", values="error")
    rows = []
    for k in p["folds"]:
        reps_max = exp.repetitions[k]
        for repeated, reps in ((False, 1), (True, min(p["table_repetitions"], reps_max))):
            cv = _cv_at(exp, reps, k, p["table_populations"])
            for pop in p["table_populations"]:
                if not runs_fold(p, pop, k):
                    continue
                c, e = cv.loc[pop], cond.loc[pop]
                for l1, l2 in pairs(p["learners"]):
                    cv1 = (c[l1] < c[l2]).to_numpy()
                    true1 = (e[l1] < e[l2]).reindex(c.index).to_numpy()
                    rows.append({"L1": l1, "L2": l2, "population": pop, "k": int(k), "repeated": repeated,
                                 "repetitions": reps, "samples": len(c),
                                 paper.READING_A[0]: int((cv1 & true1).sum()),
                                 paper.READING_A[1]: int((cv1 & ~true1).sum()),
                                 paper.READING_A[2]: int((~cv1 & true1).sum()),
                                 paper.READING_A[3]: int((~cv1 & ~true1).sum()),
                                 "cv ties": int((c[l1] == c[l2]).sum()),
                                 "true ties": int((e[l1] == e[l2]).reindex(c.index).sum())})
    return pd.DataFrame(rows)


def _matrix(a, b, c, d) -> str:
    return f"{a:g} {b:g} / {c:g} {d:g}"


def table_contingency(ours: pd.DataFrame) -> pd.DataFrame:
    """Our tables (as counts per 100 samples) beside the published ones, by pair, population, k and
    repetition. ``picks winner``: % of samples where CV picks the learner with the lower eps_c (a + d);
    ``distance``: half the summed absolute differences of the four cells (per 100 samples) with the
    table as printed and with its rows flipped; ``closer``: which reading of the printed table is
    nearer ours."""
    pub = paper.contingency_tables()
    pub["repeated"] = pub["repetitions"] > 1
    cells = list(paper.READING_A)
    merged = ours.merge(pub[["L1", "L2", "population", "k", "repeated", "repetitions", *cells]],
                        on=["L1", "L2", "population", "k", "repeated"], how="left", suffixes=("", " paper"))
    rows = []
    for d in merged.to_dict("records"):
        scale = 100.0 / d["samples"]
        o = np.array([d[c] for c in cells], dtype=float) * scale
        row = {"L1": d["L1"], "L2": d["L2"], "population": d["population"], "k": d["k"],
               "repetitions": d["repetitions"], "ours (per 100)": _matrix(*np.round(o, 1)),
               "picks winner ours": o[0] + o[3]}
        if pd.isna(d["repetitions paper"]):
            row.update({"paper": "", "picks winner paper": np.nan, "picks winner diff": np.nan,
                        "distance": np.nan, "distance rows flipped": np.nan, "closer": ""})
        else:
            q = np.array([d[c + " paper"] for c in cells], dtype=float)
            flipped = q[[2, 3, 0, 1]]
            dist, dist_f = np.abs(o - q).sum() / 2, np.abs(o - flipped).sum() / 2
            row.update({"paper": _matrix(*q.astype(int)) + f" ({int(d['repetitions paper'])} rep.)",
                        "picks winner paper": q[0] + q[3], "picks winner diff": o[0] + o[3] - q[0] - q[3],
                        "distance": dist, "distance rows flipped": dist_f,
                        "closer": "as printed" if dist < dist_f else "rows flipped" if dist_f < dist else "tie"})
        rows.append(row)
    return pd.DataFrame(rows)


PAPER_TABLES = {1: ("NB",), 2: ("C4.5",), 3: ("4NN", "10NN", "LR")}   # L1 of the pairs in Tables 1-3


def wide_contingency(table: pd.DataFrame, number: int) -> pd.DataFrame:
    """One of the paper's Tables 1-3 laid out as printed: a row per pair, population and
    repetition; per k, ours (per 100 samples) and the paper's table, and the difference in the
    share of samples where CV picks the winner (pp)."""
    t = table[table.L1.isin(PAPER_TABLES[number])].copy()
    t["pair"] = t.L1 + "-" + t.L2
    t["rep."] = np.where(t.repetitions > 1, "R", "1")
    rows = []
    for (pair, pop, _), g in t.groupby(["pair", "population", "rep."], sort=False):
        row = {"pair": pair, "population": pop, "repetitions": "/".join(map(str, sorted(set(g.repetitions))))}
        for r in g.itertuples(index=False):
            row[f"{r.k}-fold ours"] = r[list(t.columns).index("ours (per 100)")]
            row[f"{r.k}-fold paper"] = r.paper or "-"
            row[f"{r.k}-fold diff"] = r[list(t.columns).index("picks winner diff")]
        rows.append(row)
    return pd.DataFrame(rows)


def reading_summary(table: pd.DataFrame) -> pd.DataFrame:
    """How our tables compare with the published ones: mean distance (per 100 samples) as printed
    and with rows flipped, and how many tables each reading fits better, by population."""
    t = table.dropna(subset=["distance"])
    g = t.groupby("population", sort=False)
    out = g.agg(tables=("distance", "size"), distance=("distance", "mean"),
                **{"distance rows flipped": ("distance rows flipped", "mean")},
                **{"picks winner ours": ("picks winner ours", "mean")},
                **{"picks winner paper": ("picks winner paper", "mean")}).reset_index()
    counts = t.groupby(["population", "closer"]).size().unstack(fill_value=0)
    for c in ("as printed", "rows flipped", "tie"):
        out[f"closer: {c}"] = out["population"].map(counts[c] if c in counts else {}).fillna(0).astype(int)
    return out


_EVENTS = {
    "P(L1 wins | CV picks L1)": ("true1", "cv1"), "P(L2 wins | CV picks L1)": ("true2", "cv1"),
    "P(L1 wins | CV picks L2)": ("true1", "cv2"), "P(L2 wins | CV picks L2)": ("true2", "cv2"),
    "P(CV picks L1 | L1 wins)": ("cv1", "true1"), "P(CV picks L2 | L1 wins)": ("cv2", "true1"),
    "P(CV picks L1 | L2 wins)": ("cv1", "true2"), "P(CV picks L2 | L2 wins)": ("cv2", "true2"),
}


def conditional_probabilities(ours: pd.DataFrame) -> pd.DataFrame:
    """Sec. 5.2's two worked examples (2-fold, no repetition) on our samples beside the printed values."""
    pub = paper.conditional_probabilities()
    rows = []
    for r in pub.itertuples(index=False):
        cell = ours[(ours.L1 == r.L1) & (ours.L2 == r.L2) & (ours.population == r.population) &
                    (ours.k == r.k) & ~ours.repeated]
        value, frac = np.nan, ""
        if len(cell):
            c = cell.iloc[0]
            n = {"cv1": c[paper.READING_A[0]] + c[paper.READING_A[1]],
                 "cv2": c[paper.READING_A[2]] + c[paper.READING_A[3]],
                 "true1": c[paper.READING_A[0]] + c[paper.READING_A[2]],
                 "true2": c[paper.READING_A[1]] + c[paper.READING_A[3]]}
            joint = {("true1", "cv1"): c[paper.READING_A[0]], ("true2", "cv1"): c[paper.READING_A[1]],
                     ("true1", "cv2"): c[paper.READING_A[2]], ("true2", "cv2"): c[paper.READING_A[3]]}
            event, given = _EVENTS[r.event]
            num = joint.get((event, given), joint.get((given, event)))
            value = num / n[given] if n[given] else np.nan
            frac = f"{num}/{n[given]}"
        rows.append({"comparison": f"{r.L1} vs {r.L2}, {r.population}, {r.k}-fold", "event": r.event,
                     "ours": value, "ours (fraction)": frac, "paper": r.value,
                     "paper (fraction)": f"{r.numerator}/{r.denominator}", "diff": value - r.value,
                     "note": r.note})
    return pd.DataFrame(rows)


def win_shares(conditional: pd.DataFrame, sample_size: int) -> pd.DataFrame:
    """Per table population and pair: the share of samples on which L1 has the strictly lower
    conditional error, ours (from ``conditional``: population, sample, learner, error) beside the
    paper's (its tables' first column, a + c, the same under either reading of the rows; mean, min
    and max over its no-repetition and 30-repetition tables). eps_c does not depend on CV."""
    pub = paper.contingency_tables().assign(share=lambda t: (t.a + t.c) / 100)
    pub = pub.groupby(["population", "L1", "L2"], sort=False).share.agg(["mean", "min", "max"])
    cond = conditional.pivot_table(index=["population", "sample"], columns="learner", values="error")
    rows = []
    for pop in [x for x in TABLE_POPULATIONS if x in cond.index.get_level_values(0)]:
        c = cond.loc[pop]
        for l1, l2 in pairs([x for x in LEARNERS if x in c.columns]):
            theirs = pub.loc[(pop, l1, l2)]
            ours = float((c[l1] < c[l2]).mean())
            rows.append({"population": pop, "N": int(sample_size), "samples": len(c), "L1": l1, "L2": l2,
                         "ours": ours, "paper": theirs["mean"], "paper min": theirs["min"],
                         "paper max": theirs["max"], "distance": abs(ours - theirs["mean"])})
    return pd.DataFrame(rows)


def win_shares_by_n(exp: Experiment, store=None, n_jobs: int = 1, backend="loky") -> pd.DataFrame:
    """:func:`win_shares` at the run's N (its samples) and, with the extension ``"sweep"``, at each N of
    ``sweep_sizes`` on the ``sweep_samples`` samples of the table populations among ``sweep_populations``
    (conditional errors only, no CV; cached in ``store/conditional`` as the sweep's are)."""
    p = exp.params
    parts = [win_shares(exp.conditional, p["sample_size"])]
    if "sweep" in p.get("extensions", []):
        pops = [x for x in p["sweep_populations"] if x in TABLE_POPULATIONS]
        _, cond_store = _stores(store)
        for size in [n for n in p["sweep_sizes"] if int(n) != int(p["sample_size"])]:
            cond = conditional_errors({pop: list(range(p["sweep_samples"])) for pop in pops},
                                      make_learners(p["learners"]), int(size), p["seed"], cond_store, n_jobs,
                                      backend, False)
            parts.append(win_shares(cond, int(size)))
    return pd.concat(parts, ignore_index=True).sort_values(["population", "N"], kind="stable", ignore_index=True)


def win_share_distances(shares: pd.DataFrame) -> pd.DataFrame:
    """Per population and N: the mean |ours - paper| of the win shares over the 15 pairs, and how many
    pairs fall inside the range of the paper's tables (widened by 0.1 for our sampling noise)."""
    inside = (shares.ours >= shares["paper min"] - 0.1) & (shares.ours <= shares["paper max"] + 0.1)
    g = shares.assign(inside=inside).groupby(["population", "N"], sort=False)
    return g.agg(samples=("samples", "first"), pairs=("distance", "size"), distance=("distance", "mean"),
                 **{"pairs near the paper": ("inside", "sum")}).reset_index()


# What WEKA 3.6 itself does on our samples (tools/record_vanwinckelen_weka.py, N = 200, 1,000 rows of
# D \ T each; our LR and NB, told the population's classes, predict the same class on every row).
WEKA_EVIDENCE = (
    "WEKA 3.6's own Logistic (-R 1e-8 -M 500, trained on the sample as an ARFF file that declares the "
    "population's classes) gives the same predictions as ours on adult and kr-vs-k samples of N = 200 "
    "(tests/fixtures/vanwinckelen2012/weka-samples.json.gz), and so does its NaiveBayes: the matchups are "
    "WEKA's at this N, not a defect of our ports. On adult WEKA's LR is 74-79 % accurate (majority rate "
    "76-78 %) while predicting the minority class on 17-33 % of the rows: not the majority class, but a "
    "model of about 100 binary inputs (NominalToBinary of adult's nominal attributes) fitted on 200 rows "
    "with a ridge of 1e-8, which overfits; NaiveBayes is 82 % accurate on the same rows")


# eps_c win shares against the paper's, measured by tools/measure_vanwinckelen_win_shares.py (mean
# |ours - paper| over the 15 pairs; classes declared; load 15-27 on 2 cores, so few samples):
#
#   population  N     samples  distance  pairs within 0.1 of the paper's range   mean accuracy NB / LR / RF / C4.5
#   adult       200   20       0.53      2                                       0.827 / 0.760 / 0.801 / 0.796
#   adult       1000  10       0.32      6                                       0.833 / 0.831 / 0.820 / 0.835
#   adult       3000  10       -         (NB and C4.5 only)                      0.829 /   -   /   -   / 0.845
#   kr-vs-k     200   10       0.53      1                                       0.243 / 0.196 / 0.203 / 0.212
#   kr-vs-k     1000  10       0.48      1                                       0.303 / 0.334 / 0.316 / 0.291
#
# Declaring the classes moves kr-vs-k's distance from 0.52 (LR told only the sample's classes) to 0.53 and
# leaves adult's (two classes, always both in the sample). On adult the paper's order (RF and LR ahead of
# C4.5, NB and 4NN behind) is not ours at 200 (NB ahead) nor at 1000 (four learners within 0.5 pp); LR
# catches up with NB as N grows (0.760 -> 0.831). On kr-vs-k the paper's shares lie between 0.28 and 0.57
# for every pair, where ours are at least 0.8 or at most 0.1 for 14 of 15 pairs at N = 200 and at 1000:
# its learners are nearly even from sample to sample, ours are not (NB 4 pp ahead of RF at N = 200, the
# order reversed at 1000; RF's 31.6 % at 1000 leaves Figure 2's 20-30 % axis, its 20.3 % at 200 does not).


def describe_win_shares(dist: pd.DataFrame) -> str:
    """The win-share distances in words, with what WEKA itself does on the same samples."""
    parts = [f"{r.population} at N = {r.N}: {r.distance:.2f} ({r['pairs near the paper']} of {r.pairs} pairs within "
             "0.1 of the paper's range)" for _, r in dist.iterrows()]
    best = dist.loc[dist.groupby("population").distance.idxmin()]
    closest = ("; the closest N per population: " + ", ".join(f"{r.population} N = {r.N} ({r.distance:.2f})"
                                                              for r in best.itertuples())
               if dist.N.nunique() > 1 else "")
    return ("Mean distance between our win shares and the paper's: " + "; ".join(parts) + closest + ". "
            + WEKA_EVIDENCE + ". The paper states no N; its matchups are those of the learners at its N and "
            "settings, which these distances do not pin down.")


def pick_rates(ours: pd.DataFrame) -> pd.DataFrame:
    """Share of samples on which CV picks the learner with the lower conditional error, per
    population, k and repetition (mean over the pairs), ours and the paper's under three readings
    of its tables: as printed (a + d, reading A), every table's rows flipped (b + c, the second
    worked example's reading), and each table in the orientation with the larger diagonal."""
    t = ours.assign(picks=(ours[paper.READING_A[0]] + ours[paper.READING_A[3]]) / ours["samples"])
    mine = t.groupby(["population", "k", "repeated"], as_index=False).agg(ours=("picks", "mean"))
    pub = paper.contingency_tables()
    readings = {"paper": (pub.a + pub.d) / 100, "paper, rows flipped": (pub.b + pub.c) / 100}
    readings["paper, larger diagonal"] = np.maximum(*readings.values())
    pub = pub.assign(repeated=pub.repetitions > 1, **readings)
    theirs = pub.groupby(["population", "k", "repeated"], as_index=False)[list(readings)].mean()
    out = mine.merge(theirs, on=["population", "k", "repeated"], how="left")
    out["diff"] = out["ours"] - out["paper"]
    return out


# --------------------------------------------------------------------------- #
# Sections 4-6 measured: tests on repeated-CV scores
# --------------------------------------------------------------------------- #
def pair_groups(exp: Experiment) -> pd.DataFrame:
    """Every tested pair per table population with its eps_u difference and group.

    ``effect`` = |mean over samples of eps_c(L1) - eps_c(L2)| / their standard deviation.
    Groups: ``same learner, another seed`` (RF against RF': equal eps_u by construction);
    ``near-equal eps_u`` (effect < 0.25: the eps_u difference is small against the sample-to-sample
    spread); ``different eps_u`` (effect >= 1); ``in between``.
    """
    cond = exp.conditional.pivot_table(index=["population", "sample"], columns="learner", values="error")
    rows = []
    candidates = pairs(exp.params["learners"]) + ([("RF", TWIN)] if TWIN in cond.columns else [])
    for pop in exp.params["table_populations"]:
        c = cond.loc[pop]
        for l1, l2 in candidates:
            if l1 not in c or l2 not in c or c[l2].isna().all():
                continue
            d = (c[l1] - c[l2]).dropna()
            sd = float(d.std())
            effect = abs(float(d.mean())) / sd if sd > 0 else (0.0 if d.mean() == 0 else np.inf)
            group = ("same learner, another seed" if l2 == TWIN else "near-equal eps_u" if effect < 0.25
                     else "different eps_u" if effect >= 1 else "in between")
            rows.append({"population": pop, "L1": l1, "L2": l2, "delta_u": 100 * float(d.mean()),
                         "sd_delta_c": 100 * sd, "effect": effect, "group": group})
    return pd.DataFrame(rows)


def test_decisions(exp: Experiment, groups: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each test's verdict on every sample and pair of :func:`pair_groups`: reject (a difference
    declared at ``alpha``; the Bayesian test: a learner better beyond the rope with posterior
    probability above 1 - alpha) and the p-value (Bayesian: 1 - that probability).

    The t-tests and the Bayesian test use the per-fold accuracies of the first r repetitions of
    ``test_folds``-fold CV for each r of ``R_GRID`` up to the run's repetitions; the 5x2cv tests use
    the first five repetitions of 2-fold CV (one verdict per sample). A zero variance of the
    differences (identical scores) counts as no rejection.
    """
    from ..stats import (
        bayesian_correlated_ttest,
        combined_ftest_5x2cv,
        corrected_repeated_kfold_ttest,
        paired_ttest,
        paired_ttest_5x2cv,
    )

    p = exp.params
    groups = pair_groups(exp) if groups is None else groups
    k = p["test_folds"]
    alpha, rope = p["alpha"], p["rope"]
    folds = exp.folds
    acc = folds.assign(acc=1 - folds.error).set_index(["population", "learner", "k", "sample"]).sort_index()
    grid = _test_grid(p)
    rows = []

    def scores(pop, learner, kk, s, reps):
        g = acc.loc[(pop, learner, kk, s)]
        g = g[g.iteration < reps].sort_values(["iteration", "fold"])
        return g.acc.to_numpy()

    def bayes(a, b, k):
        res = bayesian_correlated_ttest(a, b, k, rope)
        return 1 - max(res.p_a_better, res.p_b_better)

    repeated = {"paired t (naive)": lambda a, b, k: paired_ttest(a, b).pvalue,
                "corrected repeated k-fold t": lambda a, b, k: corrected_repeated_kfold_ttest(a, b, k).pvalue,
                "Bayesian correlated t": bayes}
    five_by_two = {"5x2cv paired t": lambda a, b, _: paired_ttest_5x2cv(a, b).pvalue,
                   "5x2cv combined F": lambda a, b, _: combined_ftest_5x2cv(a, b).pvalue}
    with_5x2 = exp.repetitions.get(2, 0) >= 5 and 2 in p["folds"]
    for pair in groups.itertuples(index=False):
        key = {"population": pair.population, "L1": pair.L1, "L2": pair.L2, "group": pair.group}
        for s in range(p["n_samples"]):
            for r in grid:
                a, b = scores(pair.population, pair.L1, k, s, r), scores(pair.population, pair.L2, k, s, r)
                for test, fn in repeated.items():
                    pv = _pvalue(fn, a, b, k)
                    rows.append({**key, "sample": s, "repetitions": r, "test": test, "pvalue": pv,
                                 "reject": bool(pv < alpha)})
            if with_5x2:
                a = scores(pair.population, pair.L1, 2, s, 5).reshape(5, 2)
                b = scores(pair.population, pair.L2, 2, s, 5).reshape(5, 2)
                for test, fn in five_by_two.items():
                    pv = _pvalue(fn, a, b, 2)
                    rows.append({**key, "sample": s, "repetitions": 5, "test": test, "pvalue": pv,
                                 "reject": bool(pv < alpha)})
    return pd.DataFrame(rows)


def _test_grid(p: dict) -> list[int]:
    """The repetitions of ``test_folds``-fold CV the tests are evaluated at: ``R_GRID`` up to what every
    table sample has."""
    k = p["test_folds"]
    r_max = min((sample_repetitions(p, pop, k, s) for pop in p["table_populations"] if runs_fold(p, pop, k)
                 for s in range(p["n_samples"])), default=0)
    return [r for r in R_GRID if r <= r_max]


def _pvalue(fn, a, b, k) -> float:
    try:
        return float(fn(a, b, k))
    except ValueError:           # zero variance of the differences: identical scores, no difference shown
        return 1.0


def rejection_rates(decisions: pd.DataFrame) -> pd.DataFrame:
    """Share of samples on which each test declares a difference, per group, test and repetitions."""
    g = decisions.groupby(["group", "test", "repetitions"], sort=False)
    return g.agg(rejection_rate=("reject", "mean"), cases=("reject", "size")).reset_index()


def plot_rejections(rates: pd.DataFrame, alpha: float = 0.05):
    """Rejection rate against repetitions, one panel per group of pairs, one line per test
    (the 5x2cv tests, which use five repetitions of 2-fold CV, as points at r = 5), with 95 % Wilson
    intervals over the samples (bands, bars); one legend below the panels."""
    from scipy.stats import binomtest

    from ..reporting import legend_outside, panel_grid

    order = ["same learner, another seed", "near-equal eps_u", "in between", "different eps_u"]
    groups = [g for g in order if g in set(rates.group)]
    fig, axes = panel_grid(len(groups), len(groups), (4.2, 3.6))
    markers = {"5x2cv paired t": "s", "5x2cv combined F": "^"}
    for ax, group in zip(axes, groups):
        d = rates[rates.group == group]
        for i, test in enumerate(TESTS):
            t = d[d.test == test].sort_values("repetitions")
            if t.empty:
                continue
            ci = np.array([binomtest(int(round(r * n)), int(n)).proportion_ci(method="wilson")
                           for r, n in zip(t.rejection_rate, t.cases)])
            if test in markers:                   # both 5x2cv tests sit at r = 5: nudged apart
                nudge = 0.94 if test == "5x2cv paired t" else 1.06
                ax.errorbar(t.repetitions * nudge, t.rejection_rate,
                            yerr=np.abs(ci.T - t.rejection_rate.to_numpy()), fmt=markers[test], color=f"C{i}",
                            label=test, ms=7, capsize=3)
            else:
                ax.plot(t.repetitions, t.rejection_rate, "-o", color=f"C{i}", label=test, ms=3)
                ax.fill_between(t.repetitions, ci[:, 0], ci[:, 1], color=f"C{i}", alpha=0.15, lw=0)
        ax.axhline(alpha, color="grey", ls="--", lw=1)
        ax.set(title=group, xlabel="repetitions of 10-fold CV", ylim=(-0.02, 1.02))
        ax.set_xscale("log")
        ticks = sorted(set(d.repetitions))
        ax.set_xticks(ticks, [str(int(r)) for r in ticks])
        ax.minorticks_off()
    axes[0].set_ylabel("rejection rate")
    for ax in axes[1:]:
        ax.sharey(axes[0])
    legend_outside(fig)
    return fig


# --------------------------------------------------------------------------- #
# What the notebook shows: captions and sentences computed from the results
# --------------------------------------------------------------------------- #
def describe_profile(params: dict, profile: str) -> str:
    """The notebook's opening sentence: the samples, repetitions, learners and extensions of this profile."""
    others = [p for p in params["populations"] if p not in params["table_populations"]]
    left_out = [p for p in POPULATIONS if p not in params["populations"] + params["table_populations"]]
    skipped = "".join(f" No {', '.join(map(str, ks))}-fold CV on {pop}"
                      + (" (as in the paper's tables)" if pop == "kr-vs-k" else "") + "."
                      for pop, ks in params["skip_folds"].items() if ks and pop in params["populations"])
    return (f"Profile **{profile}**: samples of N = {params['sample_size']} rows; {params['n_samples']} samples of "
            f"{', '.join(params['table_populations'])} (the tables' populations)"
            + (f" and {params['curve_samples']} of {', '.join(others)}" if others else "") + "; "
            "stratified k-fold CV with " + ", ".join(f"k = {k}: {r} repetitions" for k, r in
                                                     params["repetitions"].items())
            + f" on the first {params['curve_samples']} samples of each population (the curves), "
            f"{params['table_repetitions']} (fewer where k has fewer) on the other table samples; the tables use 1 "
            f"and {params['table_repetitions']} repetitions; learners {', '.join(params['learners'])} (LR = WEKA "
            f"Logistic -R 1e-8 -M {LR_MAX_ITER}: the iteration cap is our reading, Table 0)." + skipped
            + (f" {', '.join(left_out)} {'is' if len(left_out) == 1 else 'are'} left out at this profile (quick and "
               "paper run every population)." if left_out else "")
            + " Extensions beyond the paper's design: "
            + (", ".join(f"{e} ({EXTENSIONS[e]})" for e in params["extensions"]) or "none") + ".")


def describe_stand_ins(sample_size: int) -> str:
    """Table 0 read: which learners are WEKA's with its defaults, which carry an option of ours."""
    status = stand_ins().query("kind == 'learner'")
    capped = status[status.status.str.contains("our -M")]
    stand = status[(status.status != "faithful") & ~status.paper.isin(capped.paper)]
    return (f"{(status.status == 'faithful').sum()} of {len(status)} learners are WEKA 3.6's with its defaults, "
            + ", ".join(f"{r.paper} is WEKA's with an option of ours ({r.status.split('with ')[-1]}: the iteration "
                        "cap)" for r in capped.itertuples()) + "; "
            + (f"{', '.join(stand.paper)} {'is a stand-in' if len(stand) == 1 else 'are stand-ins'}."
               if len(stand) else "none is a stand-in.")
            + " adult is one population of its training and test files together; the paper's N is not stated, "
            f"so N = {sample_size} here (Section 7 shows why, and what changes with N).")


def captioned_unconditional(eps: pd.DataFrame, learners) -> Captioned:
    """Table A: the unconditional accuracy per learner and population (from :func:`unconditional`)."""
    wide = eps.assign(accuracy=100 * (1 - eps.eps_u)).pivot(index="learner", columns="population",
                                                            values="accuracy")
    wide = wide.reindex([lr for lr in [*learners, TWIN] if lr in set(eps.learner)])
    return Captioned(wide.reset_index(), "unconditional_accuracy",
                     "Table A. Unconditional accuracy 100 (1 - eps_u) per learner and population (mean of the "
                     f"conditional accuracy over the samples; {TWIN} is RF with another seed; LR = WEKA Logistic "
                     f"-R 1e-8 -M {LR_MAX_ITER}, our reading).", digits=2)


def describe_experiment(exp: Experiment, eps: pd.DataFrame) -> str:
    """Algorithm 1's cost and size, the small classes, and the spread of the unconditional accuracy."""
    sec = exp.seconds
    small = ", ".join(f"{r.population} k={r.k} {r.with_small_class}/{r.samples}"
                      for r in exp.small_classes.itertuples() if r.with_small_class)
    spread = eps.groupby("population").eps_u.agg(lambda s: 100 * (s.max() - s.min()))
    return (f"Algorithm 1's results took {sec['cv, computed']:,.0f} s of cross-validation and "
            f"{sec['conditional, computed']:,.0f} s of conditional errors to compute (worker seconds, as recorded "
            "when each result was computed"
            + ("; read here from the shipped paper-scale tables, nothing fitted" if exp.shipped else
               f"; this session: {sec['cv'] + sec['conditional']:,.0f} s of wall time, reading the store where it "
               "held them")
            + f"; {len(exp.iterations):,} CV estimates, "
            f"{len(exp.conditional):,} conditional errors; {len(exp.failures)} failed folds). Samples with a class "
            "of fewer than k examples (stratification spreads it over fewer folds): " + (small or "none") + ".\n\n"
            "Across learners, the unconditional accuracy spans "
            + ", ".join(f"{v:.1f} pp on {p}" for p, v in spread.items()) + "; the sample-to-sample standard "
            f"deviation of the conditional error is {100 * eps.sd_eps_c.median():.2f} pp (median over learners and "
            "populations).")


def captioned_win_shares(shares: pd.DataFrame, sample_size: int) -> Captioned:
    """Table A2: the eps_c win shares at the run's N, ours beside the paper's."""
    return Captioned(shares[shares.N == sample_size].drop(columns=["N", "samples"]), "win_shares_at_n",
                     f"Table A2. Share of samples on which L1 has the lower conditional error at N = {sample_size}: "
                     "ours beside the paper's (a + c of its tables; mean, min, max) and their distance.", digits=2)


def describe_figure_2(fig2: pd.DataFrame) -> str:
    """Figure 2 read (Table B): how far sample 0's final RCV lies from eps_c and eps_u, and the panels in range."""
    rcv = fig2[next(c for c in fig2.columns if c.startswith("RCV_R, sample"))]
    gap_c = (rcv - fig2[next(c for c in fig2.columns if c.startswith("eps_c, sample"))]).abs()
    gap_u = (rcv - fig2.eps_u).abs()
    return (f"On sample 0 the final repeated-CV accuracy differs from the sample's conditional accuracy by "
            f"{gap_c.min():.1f} to {gap_c.max():.1f} pp over the panels and from the unconditional one by "
            f"{gap_u.min():.1f} to {gap_u.max():.1f} pp. {int(fig2['in range'].sum())} of {len(fig2)} panels lie "
            "inside the paper's axis ranges.")


def captioned_curves_grid(exp: Experiment, population_name: str) -> Captioned:
    """Figure 2 for every learner and k on one population (:func:`plot_curves_grid`), with its caption."""
    return Captioned(plot_curves_grid(exp, population_name), f"curves_{population_name}",
                     f"Figure 2 for every learner and k on {population_name} (sample 0): repeated CV (blue), "
                     "conditional (green), unconditional (red) accuracy.")


def final_estimates(exp: Experiment) -> pd.DataFrame:
    """The repeated-CV estimate after all repetitions, per population, learner, k and sample."""
    run_est = running_estimates(exp)
    last = run_est.groupby(["population", "learner", "k", "sample"]).r.transform("max")
    return run_est[run_est.r == last]


def describe_final_estimates(final: pd.DataFrame) -> str:
    """Where repeated CV settles: closer to eps_c or to eps_u, and how far from each."""
    to_c, to_u = (final.rcv - final.eps_c).abs(), (final.rcv - final.eps_u).abs()
    return (f"Over every population, learner, k and sample, the final repeated-CV estimate lies closer to the "
            f"sample's conditional error than to the unconditional error in {float((to_c < to_u).mean()):.0%} of "
            f"the cases; its median distance is {100 * to_c.median():.2f} pp from eps_c and "
            f"{100 * to_u.median():.2f} pp from eps_u.")


def captioned_decomposition_figure(dec: pd.DataFrame) -> Captioned:
    """:func:`plot_decomposition` with its caption, naming the k of the bars."""
    return Captioned(plot_decomposition(dec), "figure_1_decomposition",
                     "Figure 1 made concrete: the single CV's mean squared error for eps_u as bias^2 (red) + "
                     "internal variance (blue) + sample variance (orange), per learner; bars left to right are "
                     f"k = {', '.join(map(str, sorted(dec.k.unique())))} (labelled on top).")


def describe_decomposition(dec: pd.DataFrame) -> str:
    """The decomposition read: the internal share of the variance, squared bias against variance, corr."""
    share = dec.groupby("k")["internal share"].median()
    return ("The internal variance is " + ", ".join(f"{v:.0%} of the total at k = {k}" for k, v in share.items())
            + " (median over populations and learners): what repeated CV removes is "
            + ("most" if share.median() > 0.5 else "the smaller part") + " of the estimator's variance; the rest, "
            "the sample variance, no repetition on one sample can reduce. The squared bias is larger than the "
            f"variance in {(dec.bias ** 2 > dec['total var']).mean():.0%} of the cells. Over samples, E_pi[CV] "
            f"correlates with eps_c at a median {dec['corr'].median():+.2f}: "
            + ("a sample on which the model is good is not reliably one on which CV says so."
               if dec["corr"].median() < 0.5 else "a sample on which the model is good is mostly one on which CV "
               "says so."))


def captioned_contingency(table: pd.DataFrame, number: int) -> Captioned:
    """Table ``number`` (1-3) of the paper, ours beside it (:func:`wide_contingency`)."""
    return Captioned(wide_contingency(table, number), f"table_{number}",
                     f"Table {number} (ours beside the paper). Per k: our table (per 100 samples), the paper's, and "
                     "the difference in the share of samples on which CV picks the winner (a + d, pp). Repetitions: "
                     "1, and ours / the paper's repeated count (the paper: 30). LR = WEKA Logistic -R 1e-8 "
                     f"-M {LR_MAX_ITER} (our reading).", digits=1)


def describe_pick_rates(rates: pd.DataFrame) -> str:
    """Table D read: how often CV picks the winner without repetition, ours and the paper's."""
    single = rates[~rates.repeated]

    def listing(column, fmt):
        wide = single.pivot(index="population", columns="k", values=column)
        return "; ".join(f"{pop}: " + ", ".join(fmt(k, v) for k, v in row.dropna().items())
                         for pop, row in wide.iterrows())

    return ("Without repetition, CV picks the winner in " + listing("ours", lambda k, v: f"{v:.0%} at {k}-fold")
            + " of the samples (the paper: " + listing("paper", lambda k, v: f"{v:.0%}") + ").")


def describe_reading_summary(readings: pd.DataFrame, n_samples: int) -> str:
    """Table E read: our tables' distance from the paper's under each reading, and which fits better."""
    printed = readings.distance.mean() < readings["distance rows flipped"].mean()
    return ("Read as printed, our tables are on average " + ", ".join(
        f"{r['distance']:.0f} samples in 100 away from the paper's on {r['population']} (rows flipped: "
        f"{r['distance rows flipped']:.0f})" for _, r in readings.iterrows()) + ". "
        + ("The printed reading fits better overall." if printed else "The row-flipped reading fits better overall.")
        + " The paper does not state its sample size N; with few samples per table, a count moves by "
        f"{100 / n_samples:.0f} per 100 samples with each sample, so distances of that order are noise.")


def describe_conditional_probabilities(probs: pd.DataFrame, table_populations) -> str:
    """Sec. 5.2's worked examples read: P(CV picks the winner), ours beside the printed values."""
    def recall(g, event):
        r = g.loc[event]
        ours = "no sample" if pd.isna(r["ours"]) else f"{r['ours']:.0%} ({r['ours (fraction)']})"
        return f"{ours}; paper {r['paper']:.0%} ({r['paper (fraction)']})"

    lines = []
    for comparison, g in probs.groupby("comparison", sort=False):
        g = g.set_index("event")
        if g.ours.isna().all():
            lines.append(f"**{comparison}**: not in this run (its population is not among "
                         f"{', '.join(table_populations)}).")
        else:
            lines.append(f"**{comparison}**: when L1 wins, CV picks it in {recall(g, 'P(CV picks L1 | L1 wins)')}; "
                         f"when L2 wins, CV picks L2 in {recall(g, 'P(CV picks L2 | L2 wins)')}.")
    return "\n\n".join(lines)


GROUP_NAMES = {"same learner, another seed": "RF against itself with another seed",
               "near-equal eps_u": "pairs with near-equal eps_u", "in between": "pairs in between",
               "different eps_u": "pairs with different eps_u"}


def naive_rejections(rates: pd.DataFrame) -> list[str]:
    """The naive paired t-test's rejection rate at the fewest and the most repetitions, per group of pairs."""
    naive = rates[rates.test == "paired t (naive)"]
    lines = []
    for g in [g for g in GROUP_NAMES if g in set(naive.group)]:
        d = naive[naive.group == g].sort_values("repetitions")
        lines.append(f"{GROUP_NAMES[g]}: {d.rejection_rate.iloc[0]:.0%} at r = {d.repetitions.iloc[0]}, "
                     f"{d.rejection_rate.iloc[-1]:.0%} at r = {d.repetitions.iloc[-1]}")
    return lines


def null_rejections(rates: pd.DataFrame) -> pd.Series:
    """Per test, the largest rejection rate at the most repetitions over the null pairs (equal or near-equal
    eps_u)."""
    top = rates.sort_values("repetitions").groupby(["group", "test"], sort=False).tail(1)
    null_top = top[top.group.isin(["same learner, another seed", "near-equal eps_u"])]
    return null_top.groupby("test").rejection_rate.max().reindex([t for t in TESTS if t in set(null_top.test)])


def describe_rejections(rates: pd.DataFrame, alpha: float) -> str:
    """Table H read: the naive test against repetitions, the largest null rejection rate per test, power."""
    top = rates.sort_values("repetitions").groupby(["group", "test"], sort=False).tail(1)
    kept = null_rejections(rates)
    power = top[top.group == "different eps_u"].set_index("test").rejection_rate
    return ("The naive paired t-test declares a difference on " + "; ".join(naive_rejections(rates))
            + ". At the most repetitions, the largest rejection rate on the null pairs is "
            + ", ".join(f"{t} {v:.0%}" for t, v in kept.items())
            + f"; tests within twice the nominal {alpha:.0%}: {', '.join(kept[kept <= 2 * alpha].index) or 'none'}. "
            "Power on the pairs that differ: " + ", ".join(f"{t} {power[t]:.0%}" for t in TESTS if t in power.index)
            + ".")


def captioned_sweep(summary: pd.DataFrame, params: dict) -> Captioned:
    """Table I: the findings against N (:func:`sweep_summary`), with the sweep's scale in its caption."""
    return Captioned(summary, "sweep_sample_size",
                     f"Table I. The findings against N ({params['sweep_samples']} samples of "
                     f"{', '.join(params['sweep_populations'])}, repetitions {params['sweep_repetitions']}).",
                     digits=3)


def describe_sweep(summary: pd.DataFrame) -> str:
    """Table I read: how the findings move from the smallest to the largest N."""
    lo, hi = summary.iloc[0], summary.iloc[-1]
    return (f"From N = {int(lo.N)} to N = {int(hi.N)}, the mean unconditional accuracy "
            f"{'rises' if hi['accuracy (eps_u)'] > lo['accuracy (eps_u)'] else 'falls'} from "
            f"{lo['accuracy (eps_u)']:.1f} % to {hi['accuracy (eps_u)']:.1f} %, the mean absolute bias of CV changes "
            f"from {lo['|bias| (pp)']:.2f} to {hi['|bias| (pp)']:.2f} pp and the internal share of the variance from "
            f"{lo['internal share']:.0%} to {hi['internal share']:.0%}; "
            + ", ".join(f"{c.split(', ')[1]} CV picks the winner {lo[c]:.0%} -> {hi[c]:.0%}"
                        for c in summary.columns if c.startswith("picks winner"))
            + ". Figure 2's panels inside the paper's ranges: " + ", ".join(
                f"N = {int(r['N'])}: {r['Figure 2 panels in range']:.0%}" for _, r in summary.iterrows())
            + " (the panels on the sweep's populations).")


def describe_conclusion(claims_: pd.DataFrame, final: pd.DataFrame, dec: pd.DataFrame, rates: pd.DataFrame,
                        rejections: pd.DataFrame, sample_size: int, alpha: float = 0.05) -> str:
    """The notebook's conclusion, every number computed: verdicts, where RCV settles, the picks, the tests."""
    from ..verdicts import summary_sentence

    verdict = claims_.set_index("claim")["verdict"]
    test_verdict = verdict[[c for c in verdict.index if c.startswith("A test that uses only the internal")][0]]
    single = rates[~rates.repeated]
    kept = null_rejections(rejections)
    return (summary_sentence(claims_) + f" At N = {sample_size} and this profile's scale, repeated CV settles "
            f"{100 * (final.rcv - final.eps_c).abs().median():.1f} pp (median) from the sample's conditional error "
            f"and {100 * (final.rcv - final.eps_u).abs().median():.1f} pp from the unconditional error; the internal "
            f"variance it removes is {dec['internal share'].median():.0%} (median) of the single estimate's "
            f"variance; CV picks the model with the lower conditional error in {single.ours.mean():.0%} of the "
            f"samples without repetition (the paper: {single.paper.mean():.0%} with its tables read as printed, "
            f"{single['paper, rows flipped'].mean():.0%} with every table's rows flipped, "
            f"{single['paper, larger diagonal'].mean():.0%} with each table in the orientation that favours CV). "
            "The paper's warning that a test on the internal variance rejects a true null more often as "
            f"repetitions grow: **{test_verdict}** here (the naive paired t-test on "
            f"{'; '.join(naive_rejections(rejections)[:2])}); tests that stay within twice the nominal level on the "
            f"null pairs: {', '.join(kept[kept <= 2 * alpha].index) or 'none'}. On one sample, repetition buys a "
            "more precise estimate of that sample's CV value, not evidence about the learners.")


# --------------------------------------------------------------------------- #
# Claims
# --------------------------------------------------------------------------- #
def _converged_elsewhere(exp: Experiment) -> tuple[float, int, float, float]:
    """Share of (population, learner, k, sample) cells whose RCV_R lies more than two internal
    standard errors from eps_c and from eps_u; their count; and the median distances (pp)."""
    run = running_estimates(exp)
    last = run[run.r == run.groupby(["population", "learner", "k", "sample"]).r.transform("max")]
    spread = exp.iterations.groupby(["population", "learner", "k", "sample"])["error"].agg(["std", "size"])
    last = last.merge(spread.reset_index(), on=["population", "learner", "k", "sample"])
    last = last[last["size"] > 1]
    se = last["std"] / np.sqrt(last["size"])
    away_c = (last.rcv - last.eps_c).abs() > 2 * se
    away_u = (last.rcv - last.eps_u).abs() > 2 * se
    both = away_c & away_u
    return (float(both.mean()) if len(both) else float("nan"), len(both),
            100 * float((last.rcv - last.eps_c).abs().median()), 100 * float((last.rcv - last.eps_u).abs().median()))


def claims(exp: Experiment, dec: pd.DataFrame, ours: pd.DataFrame, probs: pd.DataFrame,
           rates: pd.DataFrame) -> pd.DataFrame:
    """Each claim of the paper checked on our results (verdict and evidence)."""
    p = exp.params
    out = []
    # 1. repeated CV reduces the internal variance
    run = running_estimates(exp)
    R = run.groupby(["population", "learner", "k", "sample"]).r.transform("max")
    long = run[R >= 4]                       # cells with enough repetitions to see convergence
    R = R[R >= 4]
    last = long[long.r == R].set_index(["population", "learner", "k", "sample"]).rcv
    first = long[long.r == 1].set_index(["population", "learner", "k", "sample"]).rcv
    half = long[long.r == np.maximum(1, R // 2)].set_index(["population", "learner", "k", "sample"]).rcv
    if long.empty:
        out.append(Claim("Repeated CV reduces the internal variance: the estimate converges as repetitions grow",
                         "Sec. 5.1, Fig. 2", UNDECIDED, "fewer than 4 repetitions in every cell"))
    else:
        r_min = int(R.min())
        d1, dh = float((first - last).abs().median()), float((half - last).abs().median())
        internal = dec["internal var"].median()
        out.append(Claim(
            "Repeated CV reduces the internal variance: the estimate converges as repetitions grow",
            "Sec. 5.1, Fig. 2", HOLDS if dh < d1 else DOES_NOT_HOLD,
            f"median distance to the final RCV: {100 * d1:.2f} pp after one repetition, {100 * dh:.2f} pp "
            f"after half of them (cells with {r_min} or more repetitions); a single CV's internal standard "
            f"deviation is {np.sqrt(internal):.2f} pp (median over cells), {np.sqrt(internal / r_min):.2f} pp for "
            f"the mean of {r_min}"))
    # 2. converges to a value that is neither eps_c nor eps_u
    share, n, med_c, med_u = _converged_elsewhere(exp)
    out.append(Claim(
        "Repeated CV converges to a value that is neither the conditional nor the unconditional error",
        "Sec. 5.1, Fig. 2", from_fraction(share, holds_at=0.75),
        f"in {share:.0%} of {n} sample cells the final RCV lies more than two internal standard errors from "
        f"both eps_c and eps_u (median distance {med_c:.2f} pp from eps_c, {med_u:.2f} pp from eps_u)"))
    # 3. the bias differs per problem
    t = exp.iterations.merge(exp.conditional[["population", "sample", "learner", "error"]]
                             .rename(columns={"error": "eps_c"}), on=["population", "sample", "learner"])
    per_sample = t.assign(d=t.error - t.eps_c).groupby(["population", "learner", "k", "sample"]).d.mean()
    cell = per_sample.groupby(["population", "learner", "k"]).agg(["mean", "std", "size"])
    se = cell["std"] / np.sqrt(cell["size"])
    z = (cell["mean"] - cell["mean"].mean()) / se
    from scipy import stats as sps
    chi2 = float((z ** 2).sum())
    pv = float(sps.chi2.sf(chi2, len(cell) - 1)) if len(cell) > 1 else float("nan")
    pessimistic = float((cell["mean"] > 0).mean())
    out.append(Claim(
        "The estimator's bias differs per problem (population, learner, k)", "Sec. 5.1",
        UNDECIDED if not np.isfinite(pv) else HOLDS if pv < 0.01 else DOES_NOT_HOLD,
        f"bias (CV minus eps_c) ranges from {100 * cell['mean'].min():+.2f} to {100 * cell['mean'].max():+.2f} pp "
        f"over {len(cell)} cells; homogeneity test chi2 = {chi2:.0f} on {len(cell) - 1} df, p = {pv:.2g}"))
    out.append(Claim(
        "CV is pessimistically biased for the conditional error (its training sets are smaller)", "Sec. 4.1",
        from_fraction(pessimistic, holds_at=0.75),
        f"the mean CV error exceeds the mean eps_c in {pessimistic:.0%} of {len(cell)} cells"))
    # 4. 10- and 30-fold pick the winner more often than 2-fold
    shares = win_shares(exp.conditional, p["sample_size"])
    matchups = (f"; on our matchups, whose eps_c win shares lie a mean {shares.distance.mean():.2f} from the "
                "paper's (Table A3)") if len(shares) else ""
    rates_k = pick_rates(ours)
    single = rates_k[~rates_k.repeated].pivot(index="population", columns="k", values="ours")
    ks = [k for k in (10, 30) if k in single.columns]
    if 2 in single.columns and ks:
        better = [(single[k] > single[2]).mean() for k in ks]
        frac = float(np.mean([(single[k] > single[2]).to_numpy() for k in ks]))
        mean_k = {k: single[k].mean() for k in single.columns}
        per_pair = ours[~ours.repeated].assign(
            picks=(ours[paper.READING_A[0]] + ours[paper.READING_A[3]]) / ours.samples
        ).pivot_table(index=["population", "L1", "L2"], columns="k", values="picks")
        pair_frac = float(np.mean([(per_pair[k] >= per_pair[2]).mean() for k in ks]))
        out.append(Claim(
            "10- and 30-fold CV pick the model with the lower conditional error more often than 2-fold",
            "Sec. 5.2, Tables 1-3", from_fraction(frac),
            "mean share of samples where CV picks the winner (no repetition): " +
            ", ".join(f"{k}-fold {v:.1%}" for k, v in mean_k.items()) +
            f"; higher than 2-fold in {frac:.0%} of the population x k comparisons "
            f"({', '.join(f'{k}-fold: {b:.0%}' for k, b in zip(ks, better))}); at least as high for "
            f"{pair_frac:.0%} of the pairs" + matchups))
    else:
        out.append(Claim("10- and 30-fold CV pick the model with the lower conditional error more often than "
                         "2-fold", "Sec. 5.2, Tables 1-3", UNDECIDED, "the run has no 2-fold or no 10/30-fold CV"))
    # 5. repetition helps slightly
    rep = rates_k.pivot_table(index=["population", "k"], columns="repeated", values="ours")
    if True in rep.columns and False in rep.columns and (ours[ours.repeated].repetitions > 1).any():
        gain = rep[True] - rep[False]
        n_reps = sorted(ours[ours.repeated].repetitions.unique())
        verdict = (HOLDS if 0 < gain.mean() <= 0.05 and (gain > 0).mean() >= 0.5 else
                   PARTLY if gain.mean() > 0 else DOES_NOT_HOLD)
        out.append(Claim(
            "Repeated CV picks the winner slightly more often than a single CV", "Sec. 5.2, Tables 1-3", verdict,
            f"with {'/'.join(map(str, n_reps))} repetitions the share of samples where CV picks the winner changes "
            f"by {100 * gain.mean():+.1f} pp on average (from {100 * gain.min():+.1f} to {100 * gain.max():+.1f} pp "
            f"over {len(gain)} population x k cells; higher in {(gain > 0).mean():.0%})" + matchups))
    # 6. bias toward the majority winner (asymmetry of the conditional probabilities)
    asym = _asymmetry(ours)
    if len(asym) == 0:
        out.append(Claim("When one learner wins on most samples, CV picks it more readily than the other "
                         "(asymmetric conditional probabilities)", "Sec. 5.2", UNDECIDED,
                         "no table with a clear majority winner and at least 3 minority wins"))
    else:
        frac = float((asym.majority_recall > asym.minority_recall).mean())
        out.append(Claim(
            "When one learner wins on most samples, CV picks it more readily than the other "
            "(asymmetric conditional probabilities)", "Sec. 5.2", from_fraction(frac, holds_at=0.75),
            f"in {frac:.0%} of {len(asym)} tables with a majority winner (60-97 % of the samples, no repetition), "
            f"P(CV picks the winner | it wins) is higher for the majority winner (median "
            f"{asym.majority_recall.median():.2f}) than for the minority winner ({asym.minority_recall.median():.2f})"
            + matchups))
    # 7. worked examples
    out.append(_worked_examples_claim(probs, shares))
    # 8. tests on internal variance reject a true null more often as repetitions grow
    out.extend(_test_claims(rates, p))
    # 9. ten to twenty repetitions give a more accurate estimate than none
    out.append(_mse_claim(run))
    return claims_table(out)


def _worked_examples_claim(probs: pd.DataFrame, shares: pd.DataFrame | None = None, min_cases: int = 5) -> Claim:
    """The printed probabilities against ours: is each printed value inside the 95 % Clopper-Pearson
    interval of our fraction? Fractions over fewer than ``min_cases`` samples are not judged, nor the
    examples whose matchup is not the paper's: the share of samples on which L1 wins in the example's
    printed table (2-fold, a + c) outside the 95 % interval of ours (``shares``, :func:`win_shares`); the
    conditional probabilities depend on that share, so they then test our matchup, not the paper's."""
    from scipy.stats import binomtest

    claim = "The two worked examples' conditional probabilities (NB vs C4.5 on adult, NB vs RF on kr-vs-k, 2-fold)"
    inside, judged, other = [], 0, {}
    tables = paper.contingency_tables().query("k == 2 and repetitions == 1").set_index(["L1", "L2", "population"])
    for comparison in probs.comparison.unique():
        l1, rest = comparison.split(" vs ")
        l2, pop = rest.split(", ")[:2]
        row = None if shares is None else shares[(shares.L1 == l1) & (shares.L2 == l2) & (shares.population == pop)]
        if row is None or row.empty:
            continue
        t = tables.loc[(l1, l2, pop)]
        theirs, n = (t.a + t.c) / 100, int(row.samples.iloc[0])
        ci = binomtest(int(round(row.ours.iloc[0] * n)), n).proportion_ci(0.95)
        if not ci.low <= theirs <= ci.high:
            other[comparison] = f"{l1} wins on {row.ours.iloc[0]:.0%} of our samples, {theirs:.0%} of the paper's"
    for r in probs.dropna(subset=["ours"]).to_dict("records"):
        num, den = (int(x) for x in r["ours (fraction)"].split("/"))
        if den < min_cases or r["comparison"] in other:
            continue
        judged += 1
        ci = binomtest(num, den).proportion_ci(0.95)
        inside.append(ci.low <= r["paper"] <= ci.high)
    apart = ("; not judged, the matchup being not the paper's: " + "; ".join(f"{c} ({v})" for c, v in other.items())
             if other else "")
    if not judged:
        return Claim(claim, "Sec. 5.2", UNDECIDED,
                     f"no probability rests on {min_cases} or more samples of a matchup like the paper's" + apart)
    frac = float(np.mean(inside))
    return Claim(claim, "Sec. 5.2", from_fraction(frac, holds_at=0.75),
                 f"{sum(inside)} of {judged} printed probabilities (those resting on {min_cases} or more of our "
                 f"samples, of {len(probs)}) lie inside the 95 % interval of ours" + apart)


def _asymmetry(ours: pd.DataFrame) -> pd.DataFrame:
    """Per table (no repetition) with a majority winner: the recall of CV for the majority and the
    minority winner (P(CV picks X | X wins))."""
    rows = []
    a, b, c, d = paper.READING_A
    for v in ours[~ours.repeated].to_dict("records"):
        n1 = v[a] + v[c]           # L1 wins
        n2 = v[b] + v[d]           # L2 wins (or tie)
        n = n1 + n2
        if n == 0:
            continue
        major_is_1 = n1 > n2
        share = max(n1, n2) / n
        minority = min(n1, n2)
        if not 0.6 <= share <= 0.97 or minority < 3:
            continue
        rec1, rec2 = v[a] / n1, v[d] / n2
        rows.append({"L1": v["L1"], "L2": v["L2"], "population": v["population"], "k": v["k"],
                     "majority_share": share, "majority_recall": rec1 if major_is_1 else rec2,
                     "minority_recall": rec2 if major_is_1 else rec1})
    return pd.DataFrame(rows)


def _test_claims(rates: pd.DataFrame, p: dict) -> list[Claim]:
    out = []
    naive = rates[rates.test == "paired t (naive)"]
    where = "Secs. 4.2, 6"
    claim = "A test that uses only the internal variance rejects a true null more often as repetitions grow"
    parts, verdicts = [], []
    for group in ("same learner, another seed", "near-equal eps_u"):
        g = naive[naive.group == group].sort_values("repetitions")
        if len(g) < 2:
            continue
        lo, hi = g.iloc[0], g.iloc[-1]
        grows = hi.rejection_rate > lo.rejection_rate and hi.rejection_rate > p["alpha"]
        verdicts.append(grows)
        parts.append(f"{group}: {lo.rejection_rate:.0%} at r = {int(lo.repetitions)}, {hi.rejection_rate:.0%} at "
                     f"r = {int(hi.repetitions)} ({int(hi.cases)} cases)")
    if not verdicts:
        out.append(Claim(claim, where, UNDECIDED, "no null pair or fewer than two repetition counts in this run"))
    else:
        verdict = HOLDS if all(verdicts) else PARTLY if any(verdicts) else DOES_NOT_HOLD
        out.append(Claim(claim, where, verdict, "naive paired t-test's rejection rate, " + "; ".join(parts)))
    # which test keeps its level: a two-sided binomial test of each null group's rejection count against alpha
    from scipy.stats import binomtest

    null = rates[rates.group.isin(["same learner, another seed", "near-equal eps_u"])]
    if len(null):
        departs, parts = {}, []
        order = {"same learner, another seed": 0, "near-equal eps_u": 1}
        for test, g in null.groupby("test", sort=False):
            g = g.sort_values("repetitions").groupby("group", sort=False).tail(1)   # each group at its most r
            g = g.sort_values("group", key=lambda c: c.map(order))             # in the order the evidence names
            off = []
            for r in g.itertuples():
                hits = int(round(r.rejection_rate * r.cases))
                if binomtest(hits, int(r.cases), p["alpha"]).pvalue < 0.05:
                    off.append("liberal" if r.rejection_rate > p["alpha"] else "conservative")
            departs[test] = bool(off)
            parts.append(f"{test} " + "/".join(f"{v:.0%}" for v in g.rejection_rate) +
                         (f" ({', '.join(sorted(set(off)))})" if off else " (nominal)"))
        share = float(np.mean(list(departs.values())))
        out.append(Claim(
            "No variance estimate from one sample is reliable: every test's type I error departs from the nominal "
            "level on some null pairs", "Sec. 4.2 (Bengio & Grandvalet)",
            HOLDS if share == 1 else PARTLY if share > 0 else DOES_NOT_HOLD,
            f"rejection rate on the null pairs (same learner with another seed / near-equal eps_u, at the most "
            f"repetitions; binomial test against {p['alpha']:.0%} at 0.05): " + "; ".join(parts)))
    return out


def _mse_claim(run: pd.DataFrame) -> Claim:
    """Ten to twenty repetitions give a more accurate estimate of eps_c and eps_u than one."""
    R = int(run.r.max())
    target = 10 if R >= 10 else R
    if R < 2:
        return Claim("Ten to twenty repetitions give a more accurate estimate of eps_c and eps_u than none",
                     "Sec. 6", UNDECIDED, "one repetition only")
    reached = run.groupby(["population", "learner", "k", "sample"]).r.transform("max") >= target
    at = {r: run[(run.r == r) & reached] for r in (1, target)}        # the same cells at 1 and at target
    mse = {(r, e): float(((t.rcv - t[e]) ** 2).mean()) for r, t in at.items() for e in ("eps_c", "eps_u")}
    cells = run[run.r == 1].groupby(["population", "learner", "k"]).size()
    better = []
    for key in cells.index:
        sel = {r: t[(t.population == key[0]) & (t.learner == key[1]) & (t.k == key[2])] for r, t in at.items()}
        if len(sel[target]) and len(sel[target]) == len(sel[1]):
            mse_r = ((sel[target].rcv - sel[target].eps_c) ** 2).mean()
            better.append(mse_r < ((sel[1].rcv - sel[1].eps_c) ** 2).mean())
    frac = float(np.mean(better)) if better else float("nan")
    return Claim(
        "Ten to twenty repetitions give a more accurate estimate of eps_c and eps_u than none", "Sec. 6",
        from_fraction(frac, holds_at=0.75) if target >= 10 else UNDECIDED,
        f"mean squared error against eps_c {1e4 * mse[(1, 'eps_c')]:.2f} pp^2 after one repetition, "
        f"{1e4 * mse[(target, 'eps_c')]:.2f} after {target}; against eps_u {1e4 * mse[(1, 'eps_u')]:.2f} and "
        f"{1e4 * mse[(target, 'eps_u')]:.2f}; lower after {target} repetitions in {frac:.0%} of the "
        f"{len(better)} population x learner x k cells" + ("" if target >= 10 else
                                                             f" (only {R} repetitions: undecided)"))


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


def sweep_summary(experiments: dict) -> pd.DataFrame:
    """Per N: eps_u (accuracy, mean over learners and populations), the mean bias of CV against eps_c,
    the internal share of the single CV's variance, how often CV picks the winner per k, the RF twin-free
    share of Figure 2's panels inside the paper's axis ranges."""
    rows = []
    for size, exp in sorted(experiments.items()):
        dec = decomposition(exp)
        ours = contingency(exp)
        picks = pick_rates(ours)
        row = {"N": size, "accuracy (eps_u)": 100 * (1 - unconditional(exp).eps_u.mean()),
               "bias (pp)": dec.bias.mean(), "|bias| (pp)": dec.bias.abs().mean(),
               "internal share": dec["internal share"].mean(),
               "sd of eps_c (pp)": float(np.sqrt(dec.var_eps_c.mean()))}
        for k, g in picks[~picks.repeated].groupby("k"):
            row[f"picks winner, {k}-fold"] = g.ours.mean()
        row["Figure 2 panels in range"] = figure_2_calibration(exp)
        rows.append(row)
    return pd.DataFrame(rows)


def plot_sweep(summary: pd.DataFrame):
    """The findings against N: accuracy, bias, internal share, pick rates (legends below their panels)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(15, 3.8))
    s = summary.sort_values("N")
    below = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.2), "ncols": 2, "fontsize": 8, "frameon": False}
    axes[0].plot(s.N, s["accuracy (eps_u)"], "-o")
    axes[0].set(ylabel="mean unconditional accuracy (%)")
    axes[1].plot(s.N, s["bias (pp)"], "-o", label="mean bias")
    axes[1].plot(s.N, s["|bias| (pp)"], "-o", label="mean |bias|")
    axes[1].axhline(0, color="grey", lw=0.8)
    axes[1].set(ylabel="CV minus eps_c (pp)")
    axes[1].legend(**below)
    axes[2].plot(s.N, s["internal share"], "-o")          # above 1 where the sample variance is negative by chance
    axes[2].set(ylabel="internal / total variance", ylim=(0, max(1.0, 1.05 * float(s["internal share"].max()))))
    for c in [c for c in s.columns if c.startswith("picks winner")]:
        axes[3].plot(s.N, s[c], "-o", label=c.replace("picks winner, ", ""))
    axes[3].set(ylabel="CV picks the winner (share)", ylim=(0.4, 1.0))
    axes[3].legend(**below)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xticks(list(s.N), [str(int(n)) for n in s.N])
        ax.minorticks_off()
        ax.set_xlabel("sample size N")
    fig.tight_layout()
    return fig


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

    p = _check_params(params)
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
                total_fits = sum(k * sample_repetitions(p, pop, k, s) for k in ks for s in range(_n_samples(p, pop)))
                cond = conditional_errors({pop: [0]}, {name: est}, p["sample_size"], p["seed"], None, 1, "loky", False)
                seconds = cv / sum(ks) * total_fits + float(cond.seconds.iloc[0]) * _n_samples(p, pop)
                rows[(pop, name)] = seconds / 3600
    return pd.Series(rows, name="core_hours")
