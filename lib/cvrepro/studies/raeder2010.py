"""Raeder, Hoens & Chawla (2010): consequences of variability in classifier performance estimates.

Raeder, T., Hoens, T. R., & Chawla, N. V. (2010). Consequences of variability
in classifier performance estimates. ICDM 2010, pp. 421-430.

Six learners (C4.5, HDDT, MLP, 5-NN, NB, SMO; WEKA defaults) are evaluated
by 500 iterations of stratified 2-, 5- and 10-fold cross-validation on 20
data sets, with AUROC. Definitions the code relies on:

- iteration i: one run of k-fold CV whose folds come from seed ``seed + i``
  (the paper: seeds 0..499), the same folds for every learner; its estimate
  is the AUROC averaged over the k folds (multi-class: one-vs-rest average);
- canonical estimate: the mean of the first ``CANONICAL_REPEATS[k]``
  iterations (5x2-fold, 2x5-fold, 1x10-fold);
- steady-state estimate: the mean of all iterations (500 in the paper);
- ranks (Table I): rank 1 is the highest AUROC (the most optimistic estimate);
- reproducibility R (eqs. 1-2) and the stopping rules Fixed-t, Rank and KS-t
  (Sec. V): :mod:`cvrepro.convergence`;
- the true-test error (Tables IV-V): the paper's bottom row is labelled
  "MSE", but its printed values are the mean absolute error of the rows above
  (recomputed from the printed cells, the mean absolute error matches all 18
  printed values; the mean squared error would be about 20 times smaller), so
  we report the mean absolute error under the paper's label and the MSE
  beside it.

Where the paper admits more than one reading, ``READINGS`` says which one we
take (each is labelled "our reading" in the notebook, next to its result),
and the alternative is offered as a parameter.

Shared fits (counted by tools/count_fits.py, checked by tests/test_distinct_fits.py): at ``paper``
892,509 fits, all distinct. The grid and the true-test part's CV share no cell (the true-test sets are
not grid sets); Tables II-III and their replays read the stored iterations; the ``PAPER_ORDER`` steps
and the final run share one store. Repeats left: the nine true-test fits on the training sets are not
cached, so each step redoes them (54 fits, seconds); Scheffer's default MLP is this MLP, and its
outer CV on pima, sonar and ionosphere (10-fold, seeds 0-2) is 90 of our fits, in the other study's store.

This module holds the design (data sets with the paper's names and what
stands in for each, learners, partitioner, folds, seeds, iterations per
profile in ``SCALES``), the one entry point :func:`run`, the analyses behind
every table and figure (``table_*``, ``figure_*``, from tidy tables to tidy
tables and drawings), the sentences that interpret them (``describe_*``) and
:func:`claims`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from .. import shipped as shipped_results
from ..convergence import (
    KS_TIES,
    PAIRINGS,
    SAMPLINGS,
    FixedIterations,
    KSCriterion,
    RankCriterion,
    replay_reproducibility,
)
from ..datasets import paper_datasets
from ..progress import progress_bar
from ..reporting import Captioned
from ..runner import CVResults, iterations_per_task, run_cv
from ..stats import bonferroni_dunn_test, critical_difference, friedman_test, sign_test, wilcoxon_signed_rank
from ..verdicts import UNDECIDED, Claim, claims_table, from_fraction

__all__ = [
    "PAPER_DATASETS", "HEART_H_NOTE", "DATASETS", "LEARNERS", "FOLDS", "PARTITIONER", "SEED",
    "PAPER_ITERATIONS", "CANONICAL_REPEATS", "TRUE_TEST_DATASETS", "TRUE_TEST_LEARNERS", "TABLE_2_PAIR",
    "TABLE_2_FOLDS", "TABLE_3_PARTS", "REPLAY_VARIANTS", "replays", "shipped_replays", "table_3_for",
    "REPLAY_CAP", "STOPPING_RULES", "READINGS", "SCALES", "C45_LAPLACE_NOTE",
    "Results", "run", "to_tables", "from_tables", "recompute_slice", "make_learners", "stand_ins",
    "learners_table", "readings", "to_paper_names",
    "describe_stand_ins", "estimates", "table_1", "table_1_shown", "table_1_vs_paper", "table_1_side_by_side",
    "running_means", "settling_iterations", "settling_by_learner", "lead_changes", "figure_1_panels",
    "figure_1", "seed_verdicts", "opposite_seeds", "table_2", "table_2_vs_paper", "describe_table_2_seeds",
    "retest_table_2",
    "distribution_summary", "figure_2_panels", "figure_2", "figure_2_cells", "stopping_rules", "table_3",
    "table_3_vs_paper", "table_3_shown", "table_3_readings", "true_test_performance", "true_test_table",
    "error_rows", "true_test_errors_vs_paper", "claims", "describe_table_1", "describe_figure_1",
    "describe_table_2", "describe_figure_2", "describe_table_3", "distance_from_paper", "describe_true_test",
    "estimate_core_hours", "describe_paper_error_row", "describe_claims", "describe_profile", "describe_grid",
    "captioned_table_1", "captioned_figure_1", "captioned_table_2", "describe_table_3_left_out",
    "captioned_table_3", "captioned_table_3_readings", "captioned_true_test", "captioned_true_test_paper",
    "captioned_true_test_errors", "captioned_distance_from_paper",
    "TRUE_TEST_NOTE", "MAE_ROW", "MSE_ROW", "N_ORDERINGS", "FIGURE_1_PANELS",
]

# --------------------------------------------------------------------------- #
# The design
# --------------------------------------------------------------------------- #
PAPER_ITERATIONS = 500
CANONICAL_REPEATS = {2: 5, 5: 2, 10: 1}
LEARNERS = ["C4.5", "HDDT", "MLP", "5-NN", "NB", "SMO"]
FOLDS = [2, 5, 10]
STUDY_ID = "raeder2010"
# The paper run, cheapest learners first (tools/paper_run.py): MLP alone is about 40 % of the cost.
PAPER_ORDER = (("NB",), ("5-NN",), ("C4.5",), ("HDDT",), ("SMO",), ("MLP",))
PARTITIONER = "scv"          # stratified k-fold, as WEKA's cross-validation
SEED = 0                     # iteration i uses seed SEED + i


# The paper's data sets and what is used for each, from the catalog (cvrepro.datasets.paper_datasets),
# with one choice of this study: heart-h stays unavailable (HEART_H_NOTE).
HEART_H_NOTE = ("the Hungarian file is in no registry package; the catalog's nearest stand-in, Statlog heart, "
                "is not used: its 270 rows are all rows of the Cleveland data (same age, blood pressure, "
                "cholesterol and maximum heart rate), which heart-c already is")


def _paper_table() -> pd.DataFrame:
    table = paper_datasets("raeder2010")
    table = table.rename(columns={"paper_name": "paper", "dataset": "used"}).astype(object)
    table = table.where(table.notna(), None)
    heart_h = table.paper == "heart-h"
    table.loc[heart_h, ["used", "status", "note"]] = [None, "missing", HEART_H_NOTE]
    return table


PAPER_DATASETS = _paper_table()
_CV_ROWS = PAPER_DATASETS[PAPER_DATASETS.used_for.str.contains("Tables I-III") & PAPER_DATASETS.paper.notna()]
# The catalog data sets of the full design, each once, in the paper's order.
DATASETS = list(dict.fromkeys(d for d in _CV_ROWS.used if d is not None))

# Tables IV-V: the paper's true-test sets (KDDPE, college-football, compustat, ozone-1h, ozone-8h,
# text, wrds) are not available; the catalog's sets shipped with a separate test set stand in.
TRUE_TEST_DATASETS = list(PAPER_DATASETS[(PAPER_DATASETS.status == "added")
                                         & PAPER_DATASETS.used_for.str.contains("Tables IV-V")].used)
TRUE_TEST_LEARNERS = ("HDDT", "C4.5", "NB")
TRUE_TEST_NOTE = ("The paper's true-test sets (KDDPE, college-football, compustat, ozone-1h, ozone-8h, text, "
                  "wrds) are not available; segment, dna and landsat, shipped with a separate test set, stand in "
                  "(multi-class: AUROC averaged one-vs-rest). Our rows are therefore other data sets than the "
                  "paper's: only the error rows and the direction of the differences compare.")

# Table II: C4.5 against HDDT; the caption says 10-fold, the text 5-fold: 10-fold is our reading, 5-fold is run too.
TABLE_2_PAIR = ("C4.5", "HDDT")
TABLE_2_FOLDS = (10, 5)
TABLE_2_ALPHAS = (0.10, 0.05)
PAPER_TABLE_2_SEEDS = (216, 459)

# Table III: (learner a, learner b, k) of each part; 50 orderings, replays capped at 1000 iterations.
TABLE_3_PARTS = {"a": ("C4.5", "HDDT", 2), "b": ("NB", "SMO", 2), "c": ("C4.5", "HDDT", 10)}
N_ORDERINGS = 50
REPLAY_CAP = 1000


def stopping_rules(cap: int = REPLAY_CAP, ks_ties: str = "merge") -> dict:
    """Table III's five rules, each capped at ``cap`` iterations (Rank at t = 0.9999)."""
    return {"Fixed-10": FixedIterations(10, max_iterations=cap), "Fixed-50": FixedIterations(50, max_iterations=cap),
            "Rank": RankCriterion(0.9999, max_iterations=cap),
            "KS-0.1": KSCriterion(0.1, max_iterations=cap, ties=ks_ties),
            "KS-0.2": KSCriterion(0.2, max_iterations=cap, ties=ks_ties)}


STOPPING_RULES = tuple(stopping_rules())

C45_LAPLACE_NOTE = (
    "C4.5 with Laplace leaf estimates (J48 -A). The paper says WEKA defaults, but its C4.5 AUROCs "
    "(Table II) match J48 -A: over the 11 shared data sets, 3 x 10-fold, our J48-default AUROC lies "
    "0.028 below the paper's on average, -A 0.010 below (mean absolute difference 0.013); real WEKA "
    "3.6 J48 on ionosphere gives 0.892 by default, 0.917 with -A, the paper 0.930.")

# Where the paper admits more than one reading: what it says, the reading we take, what else is offered.
READINGS = pd.DataFrame([
    ("MLP", "an MLP \"with 3 hidden layers\"",
     "one hidden layer of 3 units (WEKA MultilayerPerceptron -H 3)",
     "none: WEKA's -H 3 is one layer of 3 units; three layers would be -H a,b,c"),
    ("C4.5", "WEKA defaults", "J48 with Laplace leaf estimates (-A), which matches the paper's C4.5 AUROCs",
     "c45_laplace=False: J48 defaults"),
    ("Table II folds", "caption: 10-fold; text: 5-fold", "10-fold (the caption, and Table II's values)",
     "the same search at 5-fold is shown beside it"),
    ("Table II seeds", "two iterations, 216 and 459, with opposite significant verdicts",
     "over every stored seed, the seed where C4.5 wins with the smallest Wilcoxon p and the one where HDDT "
     "does (the paper does not say how it chose them)", "the verdict of every seed is tabulated"),
    ("Figure 2 data sets", "breast-w and three data sets it does not name; (f) NB against MLP",
     "breast-w, pima, sonar and tic-tac-toe for C4.5 and HDDT; NB against MLP on breast-w",
     "any data set of the run (figure_2_panels)"),
    ("Table III orderings", "50 random orderings of the 500 stored runs; some replays reach 1000.00",
     "each ordering draws stored runs with replacement, up to 1000 draws",
     "replay_sampling='permutation' (each run once, capped at the number stored) or 'cycle'"),
    ("Table III pairing", "R compares the two learners' final estimates over the 50 orderings",
     "both learners replay the same orderings (iteration t of both from one CV seed)",
     "replay_pairing='independent': separate orderings per learner"),
    ("KS criterion, equal estimates", "SMO on tic-tac-toe: Rank stops at 2.00, KS at 1000.00",
     "estimates rounded to 10 decimals; D from the merged order without grouping ties, so a constant "
     "sample never converges (this reproduces the 1000.00)",
     "ks_ties='ecdf': the textbook D, where a constant sample converges at once"),
    ("Tables IV-V error row", "labelled \"MSE\"", "the mean absolute error, which its printed values are",
     "the mean squared error is shown beside it"),
], columns=["point", "the paper", "our reading", "alternative"])


def _scale(datasets, iterations, true_test, learners=LEARNERS) -> dict:
    return {"datasets": datasets, "learners": learners, "folds": FOLDS, "iterations": iterations,
            "true_test_datasets": true_test, "seed": SEED, "n_orderings": N_ORDERINGS, "c45_laplace": True,
            "replay_sampling": "replacement", "replay_pairing": "shared", "ks_ties": "merge"}


# How each profile scales the design (the paper: 500 iterations of every cell).
SCALES = {
    "smoke": {**_scale(["sonar", "vote", "promoters", "breast-w"], 5, ["segment"],
                       learners=["C4.5", "HDDT", "NB", "5-NN", "SMO"]), "n_orderings": 10},
    "quick": _scale(DATASETS, 20, TRUE_TEST_DATASETS),
    "paper": _scale(DATASETS, PAPER_ITERATIONS, TRUE_TEST_DATASETS),
}


# --------------------------------------------------------------------------- #
# Running the experiments
# --------------------------------------------------------------------------- #
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

    @property
    def iterations(self) -> pd.DataFrame:
        """One row per data set, learner, k and iteration: the fold-averaged AUROC."""
        return self.cv.iterations


def make_learners(names, c45_laplace: bool = True) -> dict:
    """The study's learners by name; C4.5 with Laplace leaves unless asked otherwise."""
    from ..learners import make_learner

    models = {name: make_learner(name) for name in names}
    if c45_laplace and "C4.5" in models:
        models["C4.5"].set_params(laplace=True)
    return models


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
    out-of-fold probabilities, hundreds of MB at paper, so their results are shipped instead)."""
    tables = {"iterations": _estimates_only(results.cv.iterations), "failures": results.cv.failures,
              "replays": replays(results) if results.replays is None else results.replays}
    if results.true_test_cv is not None:
        tables.update(true_test_iterations=_estimates_only(results.true_test_cv.iterations),
                      true_test_failures=results.true_test_cv.failures, true_test=results.true_test)
    return tables


SHIPPED_COLUMNS = ("dataset", "learner", "partitioner", "k", "iteration", "auroc")


def _estimates_only(iterations: pd.DataFrame) -> pd.DataFrame:
    """The AUROC estimate of each iteration (the paper's only measure), without the run's other metrics."""
    return iterations[list(SHIPPED_COLUMNS)]


def from_tables(params: dict, tables: dict[str, pd.DataFrame]) -> Results:
    """:class:`Results` rebuilt from :func:`to_tables`' tables (no per-instance predictions)."""
    def cv(prefix):
        return CVResults(None, tables[f"{prefix}iterations"], tables[f"{prefix}failures"], None, {}, [], None)
    if "true_test" not in tables:
        return Results(params, cv(""), replays=tables.get("replays"))
    return Results(params, cv(""), cv("true_test_"), tables["true_test"], tables.get("replays"))


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0) -> pd.DataFrame:
    """Recompute ``n_cells`` iterations of the grid chosen by ``random_state`` (data set, learner, k and
    iteration drawn from ``tables["iterations"]``) from scratch, beside the shipped AUROC: the check that
    shipped numbers are what the ``paper`` profile computes (iteration i is CV with seed ``seed + i``)."""
    shipped_rows = tables["iterations"].sample(n_cells, random_state=random_state)
    rows = []
    for r in shipped_rows.itertuples():
        learner = make_learners([r.learner], params["c45_laplace"])
        cv = run_cv([r.dataset], learner, folds=(int(r.k),), iterations=1, partitioner=PARTITIONER,
                    seed=params["seed"] + int(r.iteration), progress=False)
        rows.append({"dataset": r.dataset, "learner": r.learner, "k": int(r.k), "iteration": int(r.iteration),
                     "shipped": r.auroc, "recomputed": float(cv.iterations.auroc.iloc[0])})
    return pd.DataFrame(rows)


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


# --------------------------------------------------------------------------- #
# Stand-ins and readings
# --------------------------------------------------------------------------- #
def stand_ins() -> pd.DataFrame:
    """The paper's data sets (Tables I-III), the catalog data set used for each, its status and why."""
    return pd.DataFrame({"paper": _CV_ROWS.paper, "used here": _CV_ROWS.used.fillna("-"),
                         "status": _CV_ROWS.status, "note": _CV_ROWS.note}).reset_index(drop=True)


def learners_table(names, c45_laplace: bool = True) -> pd.DataFrame:
    """The learners of the run as the catalog describes them, with our readings of the paper."""
    from ..learners import list_learners

    table = list_learners().set_index("name").loc[list(names), ["description", "status", "note"]]
    if c45_laplace and "C4.5" in table.index:
        table.loc["C4.5", "note"] = C45_LAPLACE_NOTE
    if "MLP" in table.index:
        table.loc["MLP", "note"] = ("our reading of the paper's \"3 hidden layers\": WEKA -H 3, one hidden layer "
                                    "of 3 units; " + table.loc["MLP", "note"])
    return table.reset_index()


def describe_stand_ins(datasets) -> str:
    """One sentence counting the paper's data sets by status, and which this run uses."""
    table = stand_ins()
    counts = table.status.value_counts()
    used = [d for d in DATASETS if d in datasets]
    return (f"Of the paper's {len(table)} data sets, {counts.get('original', 0)} are used as they are, "
            f"{counts.get('stand-in', 0)} through a stand-in and {counts.get('missing', 0)} are missing "
            f"({', '.join(table[table.status == 'missing'].paper)}); this run uses {len(used)} catalog data sets"
            + ("" if len(used) == len(DATASETS) else f" of the design's {len(DATASETS)}") + ".")


def readings() -> pd.DataFrame:
    """Where the paper admits more than one reading: what it says, ours, and the alternative offered."""
    return READINGS.copy()


def to_paper_names(table: pd.DataFrame, column: str = "dataset") -> pd.DataFrame:
    """Rows keyed by the paper's names (a catalog set standing in for two names appears twice)."""
    mapping = _CV_ROWS[_CV_ROWS.used.notna()][["paper", "used"]].set_axis(["paper", column], axis=1)
    return mapping.merge(table, on=column).drop(columns=column).rename(columns={"paper": column})


# --------------------------------------------------------------------------- #
# Table I: canonical and steady-state estimates, ranked
# --------------------------------------------------------------------------- #
KEYS = ["dataset", "learner", "k"]


def _sorted(iterations: pd.DataFrame) -> pd.DataFrame:
    t = iterations.copy()
    for c in ("dataset", "learner"):
        t[c] = t[c].astype(str)
    return t.sort_values(KEYS + ["iteration"])


def estimates(iterations: pd.DataFrame, metric: str = "auroc") -> pd.DataFrame:
    """Canonical and steady-state estimate per (dataset, learner, k), and the iterations they use."""
    t = _sorted(iterations)

    def one(g):
        k = int(g["k"].iloc[0])
        values = g[metric].to_numpy()
        return pd.Series({"canonical": values[:CANONICAL_REPEATS.get(k, 1)].mean(),
                          "steady_state": values.mean(), "n_iterations": len(values)})

    return t.groupby(KEYS, sort=False)[["k", metric]].apply(one).reset_index()


def table_1(est: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, dict]:
    """Average ranks of the k-fold estimates per learner, Friedman and Bonferroni-Dunn.

    Returns a long table (estimate, folds, learner, average_rank,
    significant: differs from the control at ``alpha``, control,
    friedman_pvalue) and a dict with the critical distance, the number of data
    sets and iterations.
    """
    rows, n_datasets = [], None
    for kind, control in (("canonical", 2), ("steady_state", 10)):
        for learner, g in est.groupby("learner", sort=False):
            scores = g.pivot(index="dataset", columns="k", values=kind).dropna()
            scores.columns = [f"{k}-fold" for k in scores.columns]
            n_datasets = len(scores)
            fried = friedman_test(scores)
            bd = bonferroni_dunn_test(scores, f"{control}-fold", alpha=alpha)
            for col in scores.columns:
                rows.append({"estimate": kind.replace("_", "-"), "folds": int(col.split("-")[0]),
                             "learner": learner, "average_rank": fried.average_ranks[col],
                             "significant": bool(bd.reject.get(col, False)),
                             "control": col == f"{control}-fold",
                             "friedman_pvalue": fried.pvalue})
    n_folds = est["k"].nunique()
    cd = critical_difference(n_folds, n_datasets, alpha, "bonferroni-dunn")
    return pd.DataFrame(rows), {"critical_distance": cd, "n_datasets": n_datasets, "alpha": alpha,
                                "n_iterations": int(est["n_iterations"].min())}


def table_1_shown(ranks: pd.DataFrame, learners) -> pd.DataFrame:
    """Table I as printed: average ranks per estimate and folds, a ``*`` where the
    estimate differs significantly from the control (2-fold canonical, 10-fold steady-state)."""
    shown = ranks.assign(rank=ranks.average_rank.map("{:.2f}".format) + np.where(ranks.significant, "*", ""))
    table = shown.pivot(index=["estimate", "folds"], columns="learner", values="rank")
    return table[[c for c in learners if c in table.columns]].reset_index()


def table_1_vs_paper(ranks: pd.DataFrame) -> pd.DataFrame:
    """Our average ranks beside the paper's (Table I), with the difference."""
    from ..published import raeder2010 as paper
    from ..reporting import beside

    published = paper.table_1().melt(id_vars=["estimate", "folds"], var_name="learner",
                                     value_name="average_rank")
    return beside(ranks, published, ["estimate", "folds", "learner"], ["average_rank"])


def table_1_side_by_side(vs: pd.DataFrame, learners) -> pd.DataFrame:
    """:func:`table_1_vs_paper` as a wide table: per learner, our average rank and the paper's."""
    wide = vs.dropna().pivot(index=["estimate", "folds"], columns="learner",
                             values=["average_rank ours", "average_rank paper"])
    out = wide.index.to_frame(index=False)
    for learner in [l for l in learners if ("average_rank ours", l) in wide.columns]:
        out[f"{learner} ours"] = wide[("average_rank ours", learner)].to_numpy()
        out[f"{learner} paper"] = wide[("average_rank paper", learner)].to_numpy()
    return out


def _table_1_checks(ranks: pd.DataFrame, cd: float) -> dict:
    """The Table I facts the claims use, from a long rank table (ours or the paper's)."""
    wide = ranks.pivot_table(index=["estimate", "learner"], columns="folds", values="average_rank")
    canon, steady = wide.loc["canonical"], wide.loc["steady-state"]
    return {"canonical 2 last": canon[2] >= canon.max(axis=1) - 1e-12,
            "steady 2 last": steady[2] >= steady.max(axis=1) - 1e-12,
            "steady 10 first": steady[10] <= steady.min(axis=1) + 1e-12,
            "canonical 2 vs 5": canon[2] - canon[5] > cd,
            "canonical 5 ~ 10": (canon[5] - canon[10]).abs() <= cd}


def _paper_table_1_long() -> pd.DataFrame:
    from ..published import raeder2010 as paper

    return paper.table_1().melt(id_vars=["estimate", "folds"], var_name="learner", value_name="average_rank")


def describe_table_1(ranks: pd.DataFrame, info: dict) -> str:
    """Two sentences reading Table I: where 2-fold and 10-fold rank, and against the paper."""
    ours = _table_1_checks(ranks, info["critical_distance"])
    n = len(ours["canonical 2 last"])
    vs = table_1_vs_paper(ranks).dropna()
    return (f"Over {info['n_datasets']} data sets and {info['n_iterations']} iterations, 2-fold CV gives the lowest "
            f"(most pessimistic) canonical estimate for {int(ours['canonical 2 last'].sum())} of {n} learners and "
            f"the lowest steady-state estimate for {int(ours['steady 2 last'].sum())} of {n}; steady-state 10-fold "
            f"ranks first for {int(ours['steady 10 first'].sum())} of {n} (critical distance "
            f"{info['critical_distance']:.3f}). Our average ranks lie within {vs['average_rank diff'].abs().max():.2f} "
            f"of the paper's (mean absolute difference {vs['average_rank diff'].abs().mean():.2f}).")


# --------------------------------------------------------------------------- #
# Figure 1: running means
# --------------------------------------------------------------------------- #
# (data set, learners, k, iterations shown) of the paper's four panels.
FIGURE_1_PANELS = (("twonorm", ("C4.5", "HDDT"), 10, 500), ("vote", ("C4.5", "MLP", "5-NN"), 5, 50),
                   ("crx", ("C4.5", "MLP", "5-NN"), 2, 100), ("crx", ("C4.5", "MLP", "5-NN"), 2, 30))


def running_means(iterations: pd.DataFrame, dataset: str, learners, k: int,
                  n_iterations: int | None = None, metric: str = "auroc") -> pd.DataFrame:
    """Running mean of ``metric`` over iterations (Figure 1), one column per learner."""
    t = _sorted(iterations)
    t = t[(t.dataset == dataset) & (t.k == k) & t.learner.isin(list(learners))]
    wide = t.pivot(index="iteration", columns="learner", values=metric)[list(learners)]
    if n_iterations is not None:
        wide = wide.iloc[:n_iterations]
    means = wide.expanding().mean()
    means.index = np.arange(1, len(means) + 1)
    means.index.name = "iterations"
    return means


def settling_iterations(iterations: pd.DataFrame, tolerance: float = 0.002,
                        metric: str = "auroc") -> pd.DataFrame:
    """Per cell, the iteration after which the running mean stays within
    ``tolerance`` of its final value (how long an estimate takes to settle);
    ``censored`` when that is in the second half of the run (the run is too
    short to tell whether the estimate has settled)."""
    rows = []
    for (d, l, k), g in _sorted(iterations).groupby(KEYS, sort=False):
        means = g[metric].expanding().mean().to_numpy()
        outside = np.flatnonzero(np.abs(means - means[-1]) > tolerance)
        settles = int(outside[-1] + 2) if outside.size else 1
        rows.append({"dataset": d, "learner": l, "k": k, "n_iterations": len(means),
                     "settles_at": settles, "censored": settles > len(means) / 2})
    return pd.DataFrame(rows)


def settling_by_learner(settle: pd.DataFrame) -> pd.DataFrame:
    """Median settling iteration per learner (rows) and k (columns ``2-fold``, ...)."""
    wide = settle.pivot_table(index="learner", columns="k", values="settles_at", aggfunc="median")
    wide.columns = [f"{k}-fold" for k in wide.columns]
    return wide.reset_index()


def lead_changes(means: pd.DataFrame) -> int:
    """How often the leading learner changes along running means (ties ignored)."""
    leader = means.to_numpy().argmax(axis=1)
    return int(np.count_nonzero(np.diff(leader)))


def figure_1_panels(datasets, learners, n_iterations: int) -> list[dict]:
    """Figure 1's panels with what this run has: twonorm 500 x 10-fold (C4.5, HDDT),
    vote 50 x 5-fold, crx 100 x 2-fold and its first 30 (C4.5, MLP, 5-NN).

    Each panel shows at most ``n_iterations``; a panel that would repeat an
    earlier one (crx's first 30 when the run has 30 iterations or fewer) is
    left out with a note. A missing data set is replaced by the run's first;
    missing learners are dropped."""
    catalog = dict(zip(_CV_ROWS.paper, _CV_ROWS.used))
    panels, shown = [], set()
    for dataset, wanted, k, n in FIGURE_1_PANELS:
        name = catalog.get(dataset) or dataset
        used = name if name in datasets else datasets[0]
        have = [l for l in wanted if l in learners] or list(learners[:3])
        n_shown = min(n, n_iterations)
        notes = ([] if used == dataset else [f"the paper's {dataset}"] if used == name
                 else [f"{used} in place of {dataset}"])
        if n_shown < n:
            notes.append(f"{n_shown} of the paper's {n} iterations")
        key = (used, tuple(have), k, n_shown)
        panel = {"dataset": used, "learners": have, "k": k, "n_iterations": n_shown, "paper_iterations": n,
                 "note": "; ".join(notes), "repeats": key in shown}
        shown.add(key)
        panels.append(panel)
    return panels


def _lead_holders(means: pd.DataFrame) -> list[str]:
    leader = means.to_numpy().argmax(axis=1)
    return [means.columns[i] for i in dict.fromkeys(leader)]


def figure_1(iterations: pd.DataFrame, panels: list[dict]):
    """Figure 1: running-mean AUROC against iterations, one panel per shown panel.

    Returns the figure and a table with, per panel, the lead changes and which
    learners led at some point (within the first 15 iterations too, as the paper
    reads its panel (b))."""
    from ..reporting import learner_colors, legend_outside, panel_grid

    drawn = [p for p in panels if not p["repeats"]]
    fig, axes = panel_grid(len(drawn), 2, (5.5, 4.0))
    colors = learner_colors([l for p in drawn for l in p["learners"]])
    rows = []
    for ax, p, letter in zip(axes, drawn, "abcd"):
        means = running_means(iterations, p["dataset"], p["learners"], p["k"], p["n_iterations"])
        title = f"({letter}) {p['dataset']}, {len(means)} x {p['k']}-fold"
        for learner in means.columns:
            ax.plot(means.index, means[learner], label=learner, lw=1.2, color=colors[learner])
        ax.set(title=title + (f"\n({p['note']})" if p["note"] else ""), xlabel="iterations",
               ylabel="running mean AUROC")
        ax.xaxis.get_major_locator().set_params(integer=True)
        rows.append({"panel": title, "dataset": p["dataset"], "k": p["k"], "lead changes": lead_changes(means),
                     "learners that led": ", ".join(_lead_holders(means)),
                     "led within 15 iterations": ", ".join(_lead_holders(means.iloc[:15]))})
    legend_outside(fig)
    return fig, pd.DataFrame(rows)


def describe_figure_1(leads: pd.DataFrame, settle: pd.DataFrame, panels: list[dict]) -> str:
    """Sentences reading Figure 1 and the settling iterations."""
    changed = int((leads["lead changes"] > 0).sum())
    skipped = [p for p in panels if p["repeats"]]
    text = (f"The leading learner changes in {changed} of {len(leads)} panels. Over all cells of the run, "
            f"the running mean stays within 0.002 of its final value after a median of "
            f"{settle.settles_at.median():.0f} iterations (range {settle.settles_at.min()}-"
            f"{settle.settles_at.max()}); in {int(settle.censored.sum())} of {len(settle)} cells it still moves "
            f"in the second half of the run, so the run is too short to tell when those settle.")
    if skipped:
        text += (f" Panel (d), the first 30 iterations of {skipped[0]['dataset']}, is left out: this run has "
                 f"{skipped[0]['n_iterations']} iterations, so it would repeat panel (c).")
    return text


# --------------------------------------------------------------------------- #
# Table II: one seed against another
# --------------------------------------------------------------------------- #
def seed_verdicts(iterations: pd.DataFrame, a: str = "C4.5", b: str = "HDDT", k: int = 10,
                  metric: str = "auroc") -> pd.DataFrame:
    """Wilcoxon signed-rank test of ``a`` against ``b`` over data sets, per seed.

    One row per iteration (seed): R+ (a's wins), R-, p-value, the leader and
    the average ranks, as Table II reports them for two seeds.
    """
    t = _sorted(iterations)
    t = t[(t.k == k) & t.learner.isin([a, b])]
    rows = []
    for seed, g in t.groupby("iteration"):
        wide = g.pivot(index="dataset", columns="learner", values=metric).dropna()
        if wide.shape[1] < 2 or len(wide) < 2:
            continue
        ranks = wide[[a, b]].rank(axis=1, ascending=False).mean()
        try:
            w = wilcoxon_signed_rank(wide[a], wide[b])
            r_plus, r_minus, p = w.r_plus, w.r_minus, w.pvalue
        except ValueError:  # every difference zero: no verdict
            r_plus = r_minus = 0.0
            p = 1.0
        rows.append({"seed": int(seed), "n_datasets": len(wide), "R+": r_plus, "R-": r_minus,
                     "pvalue": p, "leader": a if r_plus > r_minus else b if r_minus > r_plus else "tie",
                     f"rank {a}": ranks[a], f"rank {b}": ranks[b]})
    return pd.DataFrame(rows)


def opposite_seeds(verdicts: pd.DataFrame, a: str = "C4.5", b: str = "HDDT",
                   alpha: float = 0.05) -> dict:
    """The seed where ``a`` wins most significantly and the one where ``b`` does.

    ``found`` is True when both are significant at ``alpha`` (the paper's
    Table II); ``counts`` tells how often each verdict occurs over all seeds.
    """
    best = {}
    for who in (a, b):
        mine = verdicts[verdicts.leader == who] if len(verdicts) else verdicts
        best[who] = None if mine.empty else mine.loc[mine.pvalue.idxmin()]
    found = all(r is not None and r.pvalue < alpha for r in best.values())
    sig = verdicts.pvalue < alpha if len(verdicts) else pd.Series(dtype=bool)
    leader = verdicts.leader if len(verdicts) else pd.Series(dtype=str)
    counts = {f"{a} significantly better": int((sig & (leader == a)).sum()),
              f"{b} significantly better": int((sig & (leader == b)).sum()),
              "no significant difference": int((~sig).sum()), "seeds": len(verdicts)}
    return {"found": found, "seeds": {w: (None if r is None else int(r.seed)) for w, r in best.items()},
            "pvalues": {w: (None if r is None else float(r.pvalue)) for w, r in best.items()},
            "counts": counts, "alpha": alpha}


def table_2(iterations: pd.DataFrame, verdicts: pd.DataFrame, a: str = "C4.5", b: str = "HDDT", k: int = 10,
            alphas=TABLE_2_ALPHAS, metric: str = "auroc") -> pd.DataFrame:
    """Table II: per-data-set AUROC of ``a`` and ``b`` at the two seeds with opposite verdicts
    (the seeds :func:`opposite_seeds` picks at the largest alpha), their average ranks,
    and one row per alpha marking the seed whose leader is significantly better ("yes")."""
    chosen = opposite_seeds(verdicts, a, b, alpha=max(alphas))["seeds"]
    seeds = list(dict.fromkeys(s for s in chosen.values() if s is not None))
    t = _sorted(iterations)
    t = t[(t.k == k) & t.learner.isin([a, b])]
    parts = []
    for seed in seeds:
        wide = t[t.iteration == seed].pivot(index="dataset", columns="learner", values=metric)[[a, b]]
        wide.columns = [f"{c}, seed {seed}" for c in wide.columns]
        parts.append(wide)
    if not parts:
        return pd.DataFrame()
    table = pd.concat(parts, axis=1)
    table.loc["avg. rank"] = pd.concat([p.rank(axis=1, ascending=False).mean() for p in parts])
    table = table.astype(object)            # the significance rows hold text
    by_seed = verdicts.set_index("seed")
    for alpha in alphas:
        table.loc[f"significant at alpha = {alpha:.2f}"] = [
            "yes" if by_seed.loc[int(c.split("seed ")[1]), "pvalue"] < alpha
            and by_seed.loc[int(c.split("seed ")[1]), "leader"] == c.split(",")[0] else ""
            for c in table.columns]
    return table.rename_axis("dataset").reset_index()


def table_2_vs_paper(ours: pd.DataFrame) -> pd.DataFrame:
    """Our Table II data rows beside the paper's (its seeds 216 and 459), by the paper's data set names."""
    from ..published import raeder2010 as paper

    body = ours[~ours.dataset.isin(["avg. rank"]) & ~ours.dataset.str.startswith("significant")]
    published = paper.table_2()
    published.columns = ["dataset"] + [f"paper {c.replace('@', ', seed ')}" for c in published.columns[1:]]
    return to_paper_names(body).merge(published, on="dataset", how="right")


def retest_table_2(published: pd.DataFrame, a: str = "C4.5", b: str = "HDDT") -> pd.DataFrame:
    """The paper's own Table II values re-tested: Wilcoxon (R+, R-, p) and sign test per seed."""
    rows = []
    for seed in sorted({int(c.split("@")[1]) for c in published.columns if "@" in c}):
        x, y = published[f"{a}@{seed}"], published[f"{b}@{seed}"]
        w, s = wilcoxon_signed_rank(x, y), sign_test(x, y)
        rows.append({"seed": seed, "R+": w.r_plus, "R-": w.r_minus, "wilcoxon p": w.pvalue,
                     f"{a} wins": int((x > y).sum()), f"{b} wins": int((y > x).sum()),
                     "sign test p": s.pvalue})
    return pd.DataFrame(rows)


def describe_table_2_seeds(verdicts: pd.DataFrame, a: str = "C4.5", b: str = "HDDT", alpha: float = 0.10) -> str:
    """Which seeds :func:`table_2` shows and why, for its caption (``alpha``: the largest of Table II's)."""
    s = opposite_seeds(verdicts, a, b, alpha=alpha)
    parts = []
    for who in (a, b):
        seed, p = s["seeds"][who], s["pvalues"][who]
        parts.append(f"{who} leads at no seed" if seed is None else
                     f"seed {seed}, where {who} leads with the smallest Wilcoxon p ({p:.3f})")
    return "Shown: " + "; ".join(parts) + "."


def describe_table_2(searches: dict, a: str = "C4.5", b: str = "HDDT") -> str:
    """Sentences reading the seed search: ``searches`` maps k to :func:`opposite_seeds` at alpha 0.05."""
    parts = []
    for k, s in searches.items():
        c = s["counts"]
        reading = " (our reading of the paper's fold count)" if k == TABLE_2_FOLDS[0] else ""
        outcome = (f"so seeds {s['seeds'][a]} (p = {s['pvalues'][a]:.3f}) and {s['seeds'][b]} "
                   f"(p = {s['pvalues'][b]:.3f}) give opposite significant verdicts, as the paper's seeds 216 and 459 "
                   "do" if s["found"] else "so no two seeds give opposite significant verdicts")
        parts.append(f"At {k}-fold{reading}, over {c['seeds']} seeds, {a} is significantly better "
                     f"(Wilcoxon, alpha = {s['alpha']:.2f}) at {c[f'{a} significantly better']}, {b} at "
                     f"{c[f'{b} significantly better']}, neither at {c['no significant difference']}: {outcome}.")
    return " ".join(parts)


# --------------------------------------------------------------------------- #
# Figure 2: distributions of the estimates
# --------------------------------------------------------------------------- #
FIGURE_2_TREE_DATASETS = ("breast-w", "pima", "sonar", "tic-tac-toe")   # breast-w named; three are our reading


def distribution_summary(iterations: pd.DataFrame, k: int = 2, metric: str = "auroc") -> pd.DataFrame:
    """Mean, median, skewness of the per-iteration estimates (Figure 2), and D'Agostino's
    test of zero skewness (``skew_pvalue``, NaN below 8 iterations)."""
    t = _sorted(iterations)
    t = t[t.k == k]
    g = t.groupby(["dataset", "learner"], sort=False)[metric]
    out = g.agg(mean="mean", median="median", std="std", n="size").reset_index()
    out["skewness"] = g.apply(lambda s: float(sps.skew(s, bias=False)) if s.nunique() > 2 else 0.0).to_numpy()
    out["skew_pvalue"] = g.apply(
        lambda s: float(sps.skewtest(s).pvalue) if len(s) >= 8 and s.nunique() > 2 else np.nan).to_numpy()
    return out


def figure_2_panels(datasets, learners) -> list[dict]:
    """Figure 2: C4.5 and HDDT on four data sets, panels (a)-(d), and NB against MLP on one, panel (f)
    as the paper letters it (its text does not describe a panel (e), which is left out); 2-fold."""
    trees = [l for l in ("C4.5", "HDDT") if l in learners]
    chosen = [d for d in FIGURE_2_TREE_DATASETS if d in datasets] + \
             [d for d in datasets if d not in FIGURE_2_TREE_DATASETS]
    panels = [{"dataset": d, "learners": trees, "letter": letter}
              for d, letter in zip(chosen[:4], "abcd")] if trees else []
    pair = [l for l in ("NB", "MLP") if l in learners]
    if pair:
        panels.append({"dataset": chosen[0], "learners": pair, "letter": "f"})
    return panels


def figure_2(iterations: pd.DataFrame, panels: list[dict], k: int = 2):
    """Figure 2: histograms of the per-iteration estimates, mean dashed, median dotted."""
    from ..reporting import learner_colors, legend_outside, panel_grid

    t = _sorted(iterations)
    t = t[t.k == k]
    fig, axes = panel_grid(max(len(panels), 1), 3, (4.7, 4.0))
    colors = learner_colors([l for p in panels for l in p["learners"]])
    if not panels:
        axes[0].text(0.5, 0.5, "no panel: the run lacks C4.5 and HDDT, and NB and MLP", ha="center",
                     transform=axes[0].transAxes)
        axes[0].set_axis_off()
    for ax, p, letter in zip(axes, panels, "abcdef"):
        letter = p.get("letter", letter)
        cell = t[t.dataset == p["dataset"]]
        skews = []
        for learner in p["learners"]:
            v = cell[cell.learner == learner].auroc.to_numpy()
            skews.append(f"{learner} {sps.skew(v, bias=False) if np.unique(v).size > 2 else 0.0:+.2f}")
            ax.hist(v, bins=min(30, max(5, len(v) // 5)), alpha=0.45, color=colors[learner], density=True,
                    label=learner)
            ax.axvline(np.mean(v), color=colors[learner], ls="--", lw=1)
            ax.axvline(np.median(v), color=colors[learner], ls=":", lw=1.5)
        ax.set(title=f"({letter}) {p['dataset']}, {cell.iteration.nunique()} x {k}-fold\n"
                     f"skewness {', '.join(skews)}", xlabel="AUROC estimate", ylabel="density")
    if panels:
        axes[-1].plot([], [], color="0.3", ls="--", lw=1, label="mean")      # listed after the learners
        axes[-1].plot([], [], color="0.3", ls=":", lw=1.5, label="median")
        legend_outside(fig)
    return fig


def figure_2_cells(dists: pd.DataFrame, panels: list[dict]) -> pd.DataFrame:
    """The rows of :func:`distribution_summary` drawn in Figure 2's panels."""
    keep = {(p["dataset"], l) for p in panels for l in p["learners"]}
    return dists[[(d, l) in keep for d, l in zip(dists.dataset, dists.learner)]].reset_index(drop=True)


def _skew_evidence(dists: pd.DataFrame) -> dict:
    good = dists[dists["mean"] >= dists["mean"].median()]
    significant = good["skew_pvalue"] < 0.05
    return {"good": len(good), "left": int((good.skewness < 0).sum()),
            "significant": int(significant.sum()),
            "significant left": int((significant & (good.skewness < 0)).sum()),
            "n": int(dists["n"].min()) if len(dists) else 0}


def describe_figure_2(dists: pd.DataFrame) -> str:
    """Sentences reading the skewness of the estimate distributions."""
    e = _skew_evidence(dists)
    rho = sps.spearmanr(dists["mean"], dists["skewness"]).statistic if len(dists) > 2 else np.nan
    return (f"Of the {e['good']} 2-fold cells with an above-median mean AUROC, {e['left']} are left-skewed "
            f"(mean below median); with {e['n']} iterations per cell, {e['significant']} have a skewness "
            f"that D'Agostino's test tells from zero at 0.05 ({e['significant left']} of them left). Across all "
            f"cells, Spearman's correlation between mean and skewness is {rho:.2f}.")


# --------------------------------------------------------------------------- #
# Table III: stopping rules and reproducibility
# --------------------------------------------------------------------------- #
def _check_reading(name, value, options):
    if value not in options:
        raise ValueError(f"{name} must be one of {options}, got {value!r}")


def table_3(cv, a: str, b: str, k: int, datasets=None, n_orderings: int = N_ORDERINGS,
            random_state: int = 0, sampling: str = "replacement", pairing: str = "shared",
            ks_ties: str = "merge", cap: int = REPLAY_CAP, metric: str = "auroc",
            progress: bool = True) -> pd.DataFrame:
    """Reproducibility R and mean stopping iteration of each rule (Table III).

    Each rule is replayed on ``n_orderings`` random orderings of the stored
    iterations of ``a`` and ``b`` (``sampling``, ``pairing``, ``ks_ties``:
    see :mod:`cvrepro.convergence`; with sampling "permutation" the cap is the
    number stored). Per rule: ``R <rule>``, the mean iterations of each
    learner (``<learner>-<rule>``, adaptive rules as in the paper, fixed ones
    too), ``capped <rule>`` (replays, of both learners, stopped by the cap) and
    ``exhausted <rule>`` (replays that used at least as many draws as there are
    stored runs: trivial or reusing runs at this scale). ``progress``: one bar
    over the data sets (:mod:`cvrepro.progress`), shown when the replays take a while.
    """
    _check_reading("sampling", sampling, SAMPLINGS)
    _check_reading("pairing", pairing, PAIRINGS)
    _check_reading("ks_ties", ks_ties, KS_TIES)
    t = _sorted(cv.iterations)
    datasets = list(dict.fromkeys(t.dataset)) if datasets is None else list(datasets)
    rows = []
    for dataset in progress_bar(datasets, desc=f"Table III replays, {a} vs {b}, {k}-fold", unit="data set",
                                enabled=progress):
        cell = t[(t.dataset == dataset) & (t.k == k)]
        est = {l: cell[cell.learner == l][metric].to_numpy() for l in (a, b)}
        if min(len(v) for v in est.values()) == 0:
            continue
        proba = {}
        for l in (a, b):
            p = cv.oof(dataset, l, k)
            proba[l] = p[:, :, 1] if p.shape[2] == 2 else p.reshape(p.shape[0], -1)
        n_stored = len(est[a])
        rules = stopping_rules(n_stored if sampling == "permutation" else cap, ks_ties)
        row = {"dataset": dataset, "stored": n_stored}
        for name, rule in rules.items():
            r = replay_reproducibility(rule, est[a], est[b], proba[a], proba[b], n_orderings=n_orderings,
                                       random_state=random_state, sampling=sampling, pairing=pairing,
                                       progress=False)
            row[f"R {name}"] = r.R
            row[f"{a}-{name}"] = r.iterations_a
            row[f"{b}-{name}"] = r.iterations_b
            row[f"capped {name}"] = r.capped_a + r.capped_b
            row[f"exhausted {name}"] = r.exhausted_a + r.exhausted_b
        rows.append(row)
    out = pd.DataFrame(rows)
    order = ["dataset", "stored"] + [f"R {n}" for n in STOPPING_RULES] + \
        [f"{l}-{n}" for n in STOPPING_RULES for l in (a, b)] + \
        [f"{f} {n}" for f in ("capped", "exhausted") for n in STOPPING_RULES]
    return out[order] if len(out) else out


def table_3_vs_paper(ours: pd.DataFrame, part: str) -> pd.DataFrame:
    """Table III (``part`` a, b or c): our R and mean iterations beside the paper's, by the paper's names."""
    from ..published import raeder2010 as paper
    from ..reporting import beside

    published = paper.table_3(part)
    vs = beside(to_paper_names(ours), published, "dataset")
    order = {d: i for i, d in enumerate(published.dataset)}
    return vs.sort_values("dataset", key=lambda s: s.map(order).fillna(len(order))).reset_index(drop=True)


def table_3_shown(vs: pd.DataFrame, what: str = "R") -> pd.DataFrame:
    """A readable slice of :func:`table_3_vs_paper`: R of each rule (``what="R"``) or the mean
    iterations of the adaptive rules (``"iterations"``), ours beside the paper's, rounded to 2 decimals."""
    if what == "R":
        cols = [f"R {r}" for r in STOPPING_RULES]
    elif what == "iterations":
        cols = [c[:-len(" paper")] for c in vs.columns if c.endswith(" paper") and not c.startswith("R ")]
    else:
        raise ValueError(f"what must be 'R' or 'iterations', got {what!r}")
    out = vs[["dataset"]].copy()
    for c in cols:
        for side in ("ours", "paper"):
            out[f"{c} {side}"] = vs[f"{c} {side}"].round(2)
    return out


def _rule_flags(table: pd.DataFrame, rules, n_orderings: int) -> dict:
    """Share of the replays (both learners) of each rule that were capped or exhausted the stored runs."""
    out = {}
    for rule in rules:
        col = f"exhausted {rule}"
        out[rule] = float(table[col].sum()) / (2 * n_orderings * len(table)) if col in table and len(table) else 0.0
    return out


REPLAY_VARIANTS = [("ours: replacement, shared, KS merge", "replacement", "shared", "merge"),
                   ("permutation (capped at the runs stored)", "permutation", "shared", "merge"),
                   ("independent orderings per learner", "replacement", "independent", "merge"),
                   ("KS ties by the ECDF", "replacement", "shared", "ecdf")]
READING_COLUMNS = ["part", "sampling", "pairing", "ks_ties"]


def replays(results: Results) -> pd.DataFrame:
    """Table III of every part the run allows (as the notebook computes it), under the run's reading and,
    for parts (a) and (b), each alternative reading: one long table keyed by ``READING_COLUMNS``."""
    p = results.params
    frames = []
    for part, (a, b, k) in TABLE_3_PARTS.items():
        if a not in p["learners"] or b not in p["learners"] or k not in p["folds"]:
            continue
        readings = [(p["replay_sampling"], p["replay_pairing"], p["ks_ties"])]
        readings += [v[1:] for v in REPLAY_VARIANTS if part in ("a", "b")]
        for sampling, pairing, ties in dict.fromkeys(readings):
            t = table_3(results.cv, a, b, k, p["datasets"], p["n_orderings"], 0, sampling, pairing, ties,
                        progress=False)
            frames.append(t.assign(part=part, sampling=sampling, pairing=pairing, ks_ties=ties))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=READING_COLUMNS)


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


def table_3_readings(cv, a: str, b: str, k: int, datasets=None, n_orderings: int = N_ORDERINGS,
                     random_state: int = 0, reuse: dict | None = None, progress: bool = True) -> pd.DataFrame:
    """Table III under each reading of the replays: mean R and mean iterations per rule
    over the data sets, for our reading (with replacement, shared orderings, KS
    ties merged) and each alternative changed one at a time. ``reuse`` maps a
    reading ``(sampling, pairing, ks_ties)`` to its :func:`table_3` computed
    before (same ``n_orderings`` and ``random_state``), which is not recomputed."""
    reuse = reuse or {}
    rows = []
    for label, sampling, pairing, ties in progress_bar(REPLAY_VARIANTS, desc=f"Table III readings, {a} vs {b}",
                                                       unit="reading", enabled=progress):
        t = reuse.get((sampling, pairing, ties))
        if t is None:
            t = table_3(cv, a, b, k, datasets, n_orderings, random_state, sampling, pairing, ties,
                        progress=False)
        for rule in STOPPING_RULES:
            rows.append({"reading": label, "rule": rule, "mean R": t[f"R {rule}"].mean(),
                         f"{a} iterations": t[f"{a}-{rule}"].mean(), f"{b} iterations": t[f"{b}-{rule}"].mean(),
                         "replays exhausting the stored runs":
                             t[f"exhausted {rule}"].sum() / (2 * n_orderings * len(t))})
    return pd.DataFrame(rows)


def describe_table_3(tables: dict, n_orderings: int = N_ORDERINGS) -> str:
    """Sentences reading Table III: the least and most reproducible rules, and what is capped."""
    parts = []
    for part, t in tables.items():
        a, b, k = TABLE_3_PARTS[part]
        mean_r = {r: t[f"R {r}"].mean() for r in STOPPING_RULES}
        flags = _rule_flags(t, STOPPING_RULES, n_orderings)
        short = [r for r, f in flags.items() if f > 0.5]
        rank_its = np.mean([t[f"{a}-Rank"].mean(), t[f"{b}-Rank"].mean()])
        ks_its = np.mean([t[f"{a}-KS-0.1"].mean(), t[f"{b}-KS-0.1"].mean()])
        low, high = min(mean_r, key=mean_r.get), max(mean_r, key=mean_r.get)
        spread = (f"every rule has mean R {mean_r[low]:.2f}" if mean_r[high] - mean_r[low] < 0.005 else
                  f"mean R is lowest for {low} ({mean_r[low]:.2f}) and highest for {high} ({mean_r[high]:.2f})")
        text = (f"({part}) {a} vs {b}, {k}-fold: {spread}; Rank stops after {rank_its:.1f} iterations on average, "
                f"KS-0.1 after {ks_its:.1f}.")
        if short:
            text += (f" With {int(t['stored'].min())} stored runs, most replays of {', '.join(short)} use at least "
                     f"as many draws as there are runs: their R is trivial or reuses runs at this scale.")
        if part == "b" and "tic-tac-toe" in set(t.dataset):
            row = t.set_index("dataset").loc["tic-tac-toe"]
            text += (f" SMO on tic-tac-toe, whose AUROC is the same in every run, stops after {row['SMO-Rank']:.2f} "
                     f"iterations under Rank and {row['SMO-KS-0.1']:.2f} under KS-0.1 (the paper: 2.00 and 1000.00).")
        parts.append(text)
    return " ".join(parts)


# --------------------------------------------------------------------------- #
# Tables IV-V: estimates against a true test set
# --------------------------------------------------------------------------- #
MAE_ROW = "MSE (paper's label) = mean absolute error"
MSE_ROW = "mean squared error"


def true_test_table(est: pd.DataFrame, actual: pd.DataFrame, kind: str,
                    learners=TRUE_TEST_LEARNERS) -> pd.DataFrame:
    """Tables IV (``kind="canonical"``) and V (``"steady_state"``): the k-fold estimates beside
    the true-test AUROC, one row per data set, then the error rows (:func:`error_rows`)."""
    est = est[est.learner.isin(learners)]
    wide = est.pivot_table(index="dataset", columns=["k", "learner"], values=kind)
    wide.columns = [f"{k}-fold {l}" for k, l in wide.columns]
    truth = actual.pivot(index="dataset", columns="learner", values="auroc")
    truth.columns = [f"actual {c}" for c in truth.columns]
    table = wide.join(truth, how="inner")
    order = [f"{k}-fold {l}" for k in sorted(est.k.unique()) for l in learners] + \
            [f"actual {l}" for l in learners]
    table = table[[c for c in order if c in table.columns]]
    return pd.concat([table, error_rows(table)]).rename_axis("dataset").reset_index()


def error_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The error of each estimate column against its learner's ``actual`` column: the mean
    absolute error (what the paper prints under "MSE") and the mean squared error."""
    mae, mse = {}, {}
    for col in table.columns:
        if col.startswith("actual") or col == "dataset":
            continue
        learner = col.split(" ", 1)[1]
        diff = (table[col] - table[f"actual {learner}"]).dropna()
        mae[col], mse[col] = float(np.mean(np.abs(diff))), float(np.mean(diff ** 2))
    return pd.DataFrame([mae, mse], index=[MAE_ROW, MSE_ROW], columns=table.columns)


def true_test_errors_vs_paper(ours: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Per estimate column: our mean absolute error beside the paper's printed "MSE" row (which is
    a mean absolute error), the difference, and both mean squared errors (the paper's recomputed
    from its cells)."""
    ours = ours.set_index("dataset")
    body = published.set_index("dataset")
    printed = body.loc["MSE"]
    recomputed = error_rows(body.drop(index="MSE"))
    rows = []
    for col in [c for c in ours.columns if not c.startswith("actual")]:
        rows.append({"column": col, "MAE ours": ours.loc[MAE_ROW, col], "MAE paper (printed 'MSE')": printed[col],
                     "MAE diff": ours.loc[MAE_ROW, col] - printed[col], "MSE ours": ours.loc[MSE_ROW, col],
                     "MSE paper (recomputed)": recomputed.loc[MSE_ROW, col]})
    return pd.DataFrame(rows)


def describe_paper_error_row(published: pd.DataFrame) -> str:
    """How the paper's printed "MSE" row compares with the errors recomputed from its printed cells."""
    body = published.set_index("dataset")
    printed = body.loc["MSE"].dropna()
    rows = error_rows(body.drop(index="MSE")).loc[:, printed.index].astype(float)
    mae, mse = rows.loc[MAE_ROW], rows.loc[MSE_ROW]
    exact = int((mae.round(3) == printed).sum())
    return (f"Recomputed from the paper's printed cells, the mean absolute error gives {exact} of its "
            f"{len(printed)} \"MSE\" values to the third decimal and all within {(mae - printed).abs().max():.4f} "
            f"(the cells are rounded to 0.001), while the mean squared error would be {mse.min():.4f} to "
            f"{mse.max():.4f}: the row is a mean absolute error.")


def describe_true_test(tables: dict) -> str:
    """Sentences reading Tables IV-V: which k has the lowest error, and how often CV underestimates."""
    parts = []
    for kind, table in tables.items():
        t = table.set_index("dataset")
        mae = t.loc[MAE_ROW].dropna()
        learners = [c.split(" ", 1)[1] for c in mae.index if c.startswith("2-fold")]
        best = {l: mae[[c for c in mae.index if c.endswith(" " + l)]].idxmin().split(" ")[0] for l in learners}
        body = t.drop(index=[MAE_ROW, MSE_ROW])
        under = np.mean([(body[c] < body[f"actual {c.split(' ', 1)[1]}"]).mean()
                         for c in body.columns if not c.startswith("actual")])
        parts.append(f"{kind.replace('_', '-').capitalize()}: the lowest mean absolute error is at "
                     + ", ".join(f"{k} for {l}" for l, k in best.items())
                     + f"; {under:.0%} of the estimates lie below the true-test AUROC.")
    return " ".join(parts)


# --------------------------------------------------------------------------- #
# What the notebook shows: each table and figure with its caption, and the run's sentences
# --------------------------------------------------------------------------- #
def describe_profile(params: dict, profile: str) -> str:
    """The notebook's opening sentence: what this profile runs, against the paper's design."""
    return (f"Profile **{profile}**: {len(params['datasets'])} data sets, learners {', '.join(params['learners'])}, "
            f"{', '.join(map(str, params['folds']))}-fold CV, {params['iterations']} iterations from seed "
            f"{params['seed']} (the paper: {PAPER_ITERATIONS}); true-test sets: "
            f"{', '.join(params['true_test_datasets']) or 'none'}.")


def describe_grid(results: Results) -> str:
    """How many CV iterations the grid holds and how many folds failed."""
    failed = len(results.cv.failures)
    return (f"{len(results.iterations)} CV iterations (data set x learner x k x iteration) "
            + (f"and {len(results.true_test_cv.iterations)} on the true-test sets; " if results.true_test_cv
               else "; ")
            + (f"{failed} folds failed (listed in `failures.csv`)." if failed else "no fold failed."))


def captioned_table_1(ranks: pd.DataFrame, info: dict, learners) -> Captioned:
    """Table I (ours) as shown, with its caption."""
    from ..published import raeder2010 as published

    return Captioned(table_1_shown(ranks, learners), "table_1",
                     f"Table I (ours). Average rank of the 2-, 5- and 10-fold AUROC estimates of each learner over "
                     f"{info['n_datasets']} data sets, rank 1 = highest (most optimistic). Canonical = 5x2, 2x5, "
                     f"1x10-fold; steady-state = mean of all {info['n_iterations']} iterations. `*`: differs from the "
                     f"control (2-fold canonical, 10-fold steady-state) by more than the Bonferroni-Dunn critical "
                     f"distance {info['critical_distance']:.3f} (alpha 0.05; the paper: "
                     f"{published.TABLE_1_CRITICAL_DISTANCE} with 20 data sets).")


def captioned_figure_1(fig, panels: list[dict], n_iterations: int) -> Captioned:
    """Figure 1 (from :func:`figure_1`) with its caption, which says whether panel (d) is drawn."""
    d = (", (d) its first 30 iterations" if not panels[-1]["repeats"] else
         " (the paper's (d), its first 30 iterations, would repeat (c) with this run's "
         f"{n_iterations} iterations and is left out)")
    return Captioned(fig, "figure_1",
                     "Figure 1. Running mean of the AUROC estimate against the number of CV iterations averaged, "
                     "as the paper's panels: (a) twonorm 10-fold, C4.5 and HDDT; (b) vote 5-fold, (c) crx (UCI "
                     f"credit-a) 2-fold{d}, C4.5, MLP (one hidden layer of 3 units: our reading) and 5-NN; each "
                     "learner has one colour in every panel. Where lines cross, the leading learner changes; a flat "
                     "line has settled. Panels show at most the iterations of this run (noted in their titles).")


def captioned_table_2(table: pd.DataFrame, verdicts: pd.DataFrame, k: int) -> Captioned:
    """Table II (ours) at ``k`` folds with its caption: which reading ``k`` is, and the seeds shown."""
    reading = "our reading of the paper's fold count" if k == TABLE_2_FOLDS[0] else "the paper's text"
    return Captioned(table, "table_2" if k == TABLE_2_FOLDS[0] else f"table_2_{k}fold",
                     f"Table II (ours, {k}-fold: {reading}). {k}-fold AUROC of C4.5 and HDDT at the seed most "
                     "favourable to each, their average rank (1 = better) and whether the leader of that seed is "
                     "significantly better (Wilcoxon signed-rank over the data sets) at alpha 0.10 and 0.05. "
                     + describe_table_2_seeds(verdicts))


def describe_table_3_left_out(part: str) -> str:
    """Why Table III(``part``) is not in this run."""
    a, b, k = TABLE_3_PARTS[part]
    return f"Table III({part}) is left out: it needs {a}, {b} and {k}-fold."


def captioned_table_3(vs: pd.DataFrame, part: str, what: str, n_orderings: int, n_iterations: int) -> Captioned:
    """Table III(``part``)'s reproducibility R (``what="R"``) or stopping iterations, ours beside the paper's."""
    a, b, k = TABLE_3_PARTS[part]
    caption = (f"Table III({part}), reproducibility R: {a} vs {b}, {k}-fold, ours beside the paper's, per rule. "
               f"{n_orderings} orderings of {n_iterations} stored runs (the paper: {N_ORDERINGS} of "
               f"{PAPER_ITERATIONS}); rows by the paper's names." if what == "R" else
               f"Table III({part}), mean stopping iteration of the adaptive rules per learner, ours beside the "
               f"paper's (capped at {REPLAY_CAP}).")
    return Captioned(table_3_shown(vs, what), f"table_3{part}_{what}", caption, digits=2)


def captioned_table_3_readings(table: pd.DataFrame, part: str) -> Captioned:
    """Table III(``part``) under each reading of the replays (:func:`table_3_readings`)."""
    return Captioned(table, f"table_3{part}_readings",
                     f"Table III({part}) under each reading: mean R over the data sets, mean stopping iteration per "
                     "learner, and the share of replays that use at least as many draws as there are stored runs.",
                     digits=2)


def _true_test_label(kind: str, n_iterations: int) -> str:
    return ("canonical (5x2, 2x5, 1x10-fold)" if kind == "canonical" else
            f"steady-state ({n_iterations} iterations)")


def captioned_true_test(table: pd.DataFrame, kind: str, n_iterations: int) -> Captioned:
    """Table IV (``kind="canonical"``) or V (``"steady_state"``), ours, with its caption."""
    number = "IV" if kind == "canonical" else "V"
    return Captioned(table, f"table_{number.lower()}",
                     f"Table {number} (ours): {_true_test_label(kind, n_iterations)} AUROC estimates of HDDT, C4.5 "
                     "and NB beside the AUROC of the model trained on the whole training set and scored on the test "
                     "set ('actual'). Bottom rows: the mean absolute error of each column against its learner's "
                     "actual AUROC (what the paper prints under 'MSE') and the mean squared error.", digits=5)


def captioned_true_test_paper(table: pd.DataFrame, kind: str) -> Captioned:
    """The paper's Table IV or V, for comparison with ours."""
    number = "IV" if kind == "canonical" else "V"
    return Captioned(table, f"table_{number.lower()}_paper",
                     f"Table {number} (paper): its {kind.replace('_', '-')} estimates on its seven true-test data "
                     "sets, for comparison with ours above (other data sets); its bottom row, labelled 'MSE', is a "
                     "mean absolute error.", digits=3)


def captioned_true_test_errors(errors: pd.DataFrame, kind: str, paper_table: pd.DataFrame) -> Captioned:
    """Table IV's or V's error row, ours beside the paper's (:func:`true_test_errors_vs_paper`)."""
    number = "IV" if kind == "canonical" else "V"
    return Captioned(errors, f"table_{number.lower()}_errors_vs_paper",
                     f"Table {number}'s error row, ours beside the paper's (other data sets: compare sizes, not "
                     "values). " + describe_paper_error_row(paper_table) + " Its mean squared error, recomputed "
                     "from the same cells, is shown beside ours.", digits=5)


def captioned_distance_from_paper(table: pd.DataFrame, profile: str, n_iterations: int) -> Captioned:
    """:func:`distance_from_paper` with its caption, naming the run's scale."""
    return Captioned(table, "distance_from_paper",
                     f"How far our numbers lie from the published ones, table by table, at the {profile} profile "
                     f"({n_iterations} iterations; the paper: {PAPER_ITERATIONS}): cells compared, mean and largest "
                     "absolute difference. Table II is left out (other seeds); Tables IV-V compare other data sets.",
                     digits=3)


# --------------------------------------------------------------------------- #
# Claims
# --------------------------------------------------------------------------- #
def _claim(claim, where, fraction, evidence, holds_at=1.0, partly_at=0.5, undecided=None) -> Claim:
    """A claim judged from the share of cases that agree; ``undecided`` (a reason) overrides."""
    if undecided:
        return Claim(claim, where, UNDECIDED, f"{undecided}. {evidence}")
    return Claim(claim, where, from_fraction(fraction, holds_at, partly_at), evidence)


def _count(mask) -> str:
    return f"{int(np.sum(mask))} of {len(mask)}"


def claims(ranks: pd.DataFrame, info: dict, settle: pd.DataFrame, leads: pd.DataFrame, seed_searches: dict,
           dists: pd.DataFrame, stopping: dict, true_test: dict | None,
           n_orderings: int = N_ORDERINGS) -> pd.DataFrame:
    """Each claim of the paper checked on our results: claim, where, verdict, evidence.

    ``ranks``/``info``: :func:`table_1`; ``settle``: :func:`settling_iterations`;
    ``leads``: :func:`figure_1`'s table; ``seed_searches``: k -> :func:`opposite_seeds`
    at alpha 0.05; ``dists``: :func:`distribution_summary`; ``stopping``: part ->
    :func:`table_3`; ``true_test``: kind -> :func:`true_test_table` (None: not run).
    A claim is undecided when the evidence it compares is capped or trivial at the
    run's scale (the reason comes first in its evidence).
    """
    out = []
    n_it = info["n_iterations"]
    cd = info["critical_distance"]
    ours = _table_1_checks(ranks, cd)
    theirs = _table_1_checks(_paper_table_1_long(), 0.709)
    trivial_steady = (f"with {n_it} iterations the steady-state estimate is no longer than the canonical 5x2-fold "
                      "one" if n_it <= CANONICAL_REPEATS[2] else None)
    table_1_claims = [   # (claim, where, column of _table_1_checks, evidence before the counts, undecided)
        ("2-fold CV gives the most pessimistic canonical estimate for every classifier", "Table I",
         "canonical 2 last", "2-fold ranks last for", None),
        ("2-fold CV gives the most pessimistic steady-state estimate for every classifier", "Table I",
         "steady 2 last", "2-fold ranks last for", trivial_steady),
        ("canonical 2-fold is significantly more pessimistic than canonical 5-fold for every classifier",
         "Table I, Sec. III", "canonical 2 vs 5", f"rank difference above the critical distance ({cd:.3f}) for",
         None),
        ("canonical 5-fold and 10-fold are statistically indistinguishable", "Table I, Sec. III",
         "canonical 5 ~ 10", "rank difference within the critical distance for", None),
        ("steady-state 10-fold is the most optimistic estimate for every classifier", "Table I",
         "steady 10 first", "10-fold ranks first for", trivial_steady),
    ]
    for claim, where, column, evidence, undecided in table_1_claims:
        paper = ("the paper's own Table I, critical distance 0.709" if column == "canonical 2 vs 5"
                 else "the paper's Table I")
        out.append(_claim(claim, where, ours[column].mean(),
                          f"{evidence} {_count(ours[column])} classifiers ({paper}: {_count(theirs[column])})",
                          undecided=undecided))

    # Figure 1
    censored = settle.censored.mean() if len(settle) else 1.0
    varies = settle.settles_at.nunique() > 1 and settle.settles_at.max() >= 2 * max(settle.settles_at.min(), 1)
    spread = settle.groupby("learner").settles_at.median()
    out.append(_claim("estimates settle only after a number of iterations that differs by classifier and data set",
                      "Figure 1, Sec. IV-A", 1.0 if varies else 0.0,
                      "median settling iteration (within 0.002 of the final running mean) per learner: "
                      + ", ".join(f"{l} {v:.0f}" for l, v in spread.items())
                      + f"; range {settle.settles_at.min()}-{settle.settles_at.max()}",
                      undecided=(f"in {censored:.0%} of the cells the running mean still moves in the second half "
                                 f"of the {n_it} iterations" if censored > 0.5 else None)))
    run_learners = set(settle.learner)
    lacking = [l for l in ("C4.5", "MLP", "5-NN") if l not in run_learners]
    vote = leads[(leads.dataset == "vote") & (leads.k == 5)]
    holders = vote.iloc[0]["led within 15 iterations"].split(", ") if len(vote) else []
    out.append(_claim("on vote (5-fold), each of C4.5, MLP and 5-NN leads at some point in the first 15 "
                      "iterations", "Figure 1(b), Sec. IV-A", len(holders) / 3,
                      f"learners leading within the first 15 iterations: {', '.join(holders) or 'none'}",
                      partly_at=0.6,
                      undecided=(f"the run has {n_it} iterations, fewer than 15" if n_it < 15 else
                                 "vote is not in this run" if not len(vote) else
                                 f"the run lacks {', '.join(lacking)}" if lacking else None)))
    changed = (leads["lead changes"] > 0).to_numpy()
    out.append(_claim("with few iterations, the leading classifier changes", "Figure 1, Sec. IV-A",
                      changed.mean() if len(changed) else np.nan,
                      "; ".join(f"{p}: {n} lead change{'' if n == 1 else 's'}"
                                for p, n in zip(leads.panel, leads["lead changes"])),
                      undecided=f"the run has {n_it} iterations, fewer than 15" if n_it < 15 else None))

    # Table II
    k0 = TABLE_2_FOLDS[0]
    if k0 in seed_searches:
        s = seed_searches[k0]
        others = [f"at {k}-fold: {'found' if v['found'] else 'not found'} over {v['counts']['seeds']} seeds"
                  for k, v in seed_searches.items() if k != k0]
        evidence = (f"{k0}-fold (our reading): " + (
            f"seed {s['seeds']['C4.5']} (C4.5 better, p = {s['pvalues']['C4.5']:.3f}) and seed "
            f"{s['seeds']['HDDT']} (HDDT better, p = {s['pvalues']['HDDT']:.3f})" if s["found"] else
            "no seed pair with opposite significant verdicts") + f" over {s['counts']['seeds']} seeds; "
            + "; ".join(others) + ". The paper's own Table II values give Wilcoxon p = 0.23 for its seed 459")
        out.append(_claim("two seeds give opposite significant Wilcoxon verdicts (alpha 0.05) for C4.5 vs HDDT over "
                          "the data sets", "Table II", 1.0 if s["found"] else 0.0, evidence,
                          undecided=(f"only {s['counts']['seeds']} of the paper's {PAPER_ITERATIONS} seeds searched"
                                     if not s["found"] and s["counts"]["seeds"] < PAPER_ITERATIONS else None)))

    # Figure 2
    e = _skew_evidence(dists)
    out.append(_claim("the estimate distributions of well-performing classifiers are left-skewed",
                      "Figure 2, Sec. IV-B",
                      e["left"] / e["good"] if e["good"] else np.nan,
                      f"{e['left']} of {e['good']} above-median 2-fold cells have negative skewness; "
                      f"{e['significant']} have a skewness significantly different from 0 (D'Agostino, 0.05), "
                      f"{e['significant left']} of them left", holds_at=0.75,
                      undecided=(f"with {e['n']} iterations per cell, only {e['significant']} of {e['good']} "
                                 "skewnesses are distinguishable from zero"
                                 if e["significant"] < e["good"] / 2 else None)))

    # Table III
    out += _table_3_claims(stopping, n_orderings)

    # Tables IV-V
    if true_test:
        out += _true_test_claims(true_test, trivial_steady)
    else:
        for claim, where in (("10-fold steady-state estimates have the lowest error against true test sets",
                              "Table V, Sec. VI"),
                             ("cross-validation tends to underestimate true-test performance", "Tables IV-V")):
            out.append(Claim(claim, where, UNDECIDED, "no true-test data set in this run"))
    return claims_table(out)


def distance_from_paper(table1_vs: pd.DataFrame, table3_vs: dict, errors_vs: dict) -> pd.DataFrame:
    """How far our numbers lie from the published ones, table by table: the number of cells
    compared and the mean and largest absolute difference (``*_vs_paper`` tables as input)."""
    rows = []

    def add(table, quantity, diffs):
        d = np.abs(pd.Series(diffs, dtype=float).dropna())
        if len(d):
            rows.append({"table": table, "quantity": quantity, "cells": len(d), "mean |ours - paper|": d.mean(),
                         "max |ours - paper|": d.max()})

    add("Table I", "average rank", table1_vs["average_rank diff"])
    for part, vs in table3_vs.items():
        add(f"Table III({part})", "R", vs[[c for c in vs.columns if c.startswith("R ") and c.endswith(" diff")]]
            .to_numpy().ravel())
        for rule in ("Rank", "KS-0.1", "KS-0.2"):
            cols = [c for c in vs.columns if c.endswith(f"-{rule} diff")]
            add(f"Table III({part})", f"mean iterations, {rule}", vs[cols].to_numpy().ravel())
    for kind, vs in errors_vs.items():
        add("Table IV" if kind == "canonical" else "Table V", "error row (other data sets)", vs["MAE diff"])
    return pd.DataFrame(rows)


def describe_claims(claims: pd.DataFrame, profile: str, n_iterations: int) -> str:
    """The notebook's conclusion: the verdict counts, then each claim by verdict with where the paper
    makes it and our evidence (for an undecided claim: why it is undecided)."""
    from ..verdicts import summary_sentence

    lines = [summary_sentence(claims)]
    for verdict, label in (("holds", "Holds"), ("partly", "Holds partly"), ("does not hold", "Does not hold"),
                           ("undecided", "Undecided")):
        for r in claims[claims.verdict == verdict].itertuples():
            shown = r.evidence.split(". ")[0] if verdict == "undecided" else r.evidence
            lines.append(f"- **{label}**: {r.claim} (*{r.where}*): {shown.rstrip('.')}.")
    if (claims.verdict == "undecided").any():
        lines.append(f"\nA claim is undecided when the evidence it compares is capped or trivial at the `{profile}` "
                     f"profile ({n_iterations} iterations; the paper: {PAPER_ITERATIONS}) or missing from this run; "
                     "the `paper` profile decides those that depend on the scale.")
    return "\n".join(lines)


def _paper_table_3(part: str) -> pd.DataFrame:
    from ..published import raeder2010 as paper

    return paper.table_3(part)


def _table_3_claims(stopping: dict, n_orderings: int) -> list[Claim]:
    out = []

    def missing(parts):
        absent = [p for p in parts if p not in stopping or not len(stopping[p])]
        return f"Table III({', '.join(absent)}) not run (needs its learners and folds)" if absent else None

    def short(parts, rules):
        worst = {}
        for p in parts:
            if p in stopping and len(stopping[p]):
                for r, f in _rule_flags(stopping[p], rules, n_orderings).items():
                    worst[r] = max(worst.get(r, 0.0), f)
        bad = {r: f for r, f in worst.items() if f > 0.5}
        if not bad:
            return None
        stored = min(int(stopping[p]["stored"].min()) for p in parts if p in stopping and len(stopping[p]))
        return (f"with {stored} stored runs, " + ", ".join(f"{f:.0%} of the {r} replays" for r, f in bad.items())
                + " use at least as many draws as there are runs (trivial or reused)")

    def mean_r(t):
        return {r: t[f"R {r}"].mean() for r in STOPPING_RULES}

    # Fixed-10 the least reproducible, parts (a) and (c)
    parts = ["a", "c"]
    why = missing(parts) or short(parts, STOPPING_RULES)
    lowest = {p: min(mean_r(stopping[p]), key=mean_r(stopping[p]).get) for p in parts
              if p in stopping and len(stopping[p])}
    paper_lowest = {p: min(mean_r(_paper_table_3(p)), key=mean_r(_paper_table_3(p)).get) for p in parts}
    out.append(_claim("Fixed-10 is the least reproducible rule for C4.5 vs HDDT (2- and 10-fold)", "Table III(a), (c)",
                      np.mean([v == "Fixed-10" for v in lowest.values()]) if lowest else np.nan,
                      "lowest mean R: " + ", ".join(f"({p}) {v}" for p, v in lowest.items())
                      + "; the paper's: " + ", ".join(f"({p}) {v}" for p, v in paper_lowest.items()), undecided=why))

    # Fixed-50 about as reproducible as the adaptive rules
    parts = ["a", "b", "c"]
    adaptive = ["Rank", "KS-0.1", "KS-0.2"]
    why = missing(parts) or short(parts, ["Fixed-50"] + adaptive)

    def close50(t):
        m = mean_r(t)
        return abs(m["Fixed-50"] - np.mean([m[r] for r in adaptive])) <= 0.1, m

    checks = {p: close50(stopping[p]) for p in parts if p in stopping and len(stopping[p])}
    out.append(_claim("with 50 fixed iterations, reproducibility is similar to the adaptive rules'",
                      "Table III, Sec. V",
                      np.mean([c for c, _ in checks.values()]) if checks else np.nan,
                      "mean R of Fixed-50 vs the mean of Rank, KS-0.1, KS-0.2: " + ", ".join(
                          f"({p}) {m['Fixed-50']:.2f} vs {np.mean([m[r] for r in adaptive]):.2f}"
                          for p, (_, m) in checks.items()), undecided=why))

    # Rank stops earlier than KS-0.1 with comparable R, part (a)
    why = missing(["a"]) or short(["a"], ["Rank", "KS-0.1"])

    def rank_vs_ks(t):
        iters = [c for c in t.columns if c.endswith("-Rank")]
        ks = [c for c in t.columns if c.endswith("-KS-0.1")]
        earlier = t[iters].mean(axis=1).to_numpy() < t[ks].mean(axis=1).to_numpy()
        close = (t["R Rank"] >= t["R KS-0.1"] - 0.1).to_numpy()
        return earlier, close

    if "a" in stopping and len(stopping["a"]):
        earlier, close = rank_vs_ks(stopping["a"])
        pe, pc = rank_vs_ks(_paper_table_3("a"))
        out.append(_claim("Rank stops earlier than KS-0.1 with comparable reproducibility (C4.5 vs HDDT, 2-fold)",
                          "Table III(a)", float((earlier & close).mean()),
                          f"earlier on {_count(earlier)} data sets, R within 0.1 of KS-0.1's on {_count(close)} "
                          f"(the paper: {_count(pe)} and {_count(pc)})", holds_at=0.75, undecided=why))
    else:
        out.append(Claim("Rank stops earlier than KS-0.1 with comparable reproducibility (C4.5 vs HDDT, 2-fold)",
                         "Table III(a)", UNDECIDED, missing(["a"])))

    # KS-0.2 less reproducible than Rank, part (a)
    why = missing(["a"]) or short(["a"], ["Rank", "KS-0.2"])
    if "a" in stopping and len(stopping["a"]):
        t = stopping["a"]
        worse = (t["R KS-0.2"] <= t["R Rank"]).to_numpy()
        pw = (_paper_table_3("a")["R KS-0.2"] <= _paper_table_3("a")["R Rank"]).to_numpy()
        out.append(_claim("KS-0.2 almost always gives lower reproducibility than Rank (C4.5 vs HDDT, 2-fold)",
                          "Table III(a), Sec. V", float(worse.mean()),
                          f"R KS-0.2 at most R Rank on {_count(worse)} data sets (the paper: {_count(pw)})",
                          holds_at=0.75, undecided=why))
    else:
        out.append(Claim("KS-0.2 almost always gives lower reproducibility than Rank (C4.5 vs HDDT, 2-fold)",
                         "Table III(a), Sec. V", UNDECIDED, missing(["a"])))

    # stable pair: Rank stops well before 50; unstable pair: often beyond 50
    for part, claim, where, test, holds_at, partly_at in (
            ("b", "for the stable pair NB and SMO, the Rank rule stops well before 50 iterations",
             "Table III(b), Sec. V", lambda v: v < 50, 0.75, 0.5),
            ("a", "for the unstable pair C4.5 and HDDT, the Rank rule often goes beyond 50 iterations",
             "Table III(a), Sec. V", lambda v: v > 50, 0.5, 0.25)):
        a, b, _ = TABLE_3_PARTS[part]
        if part not in stopping or not len(stopping[part]):
            out.append(Claim(claim, where, UNDECIDED, missing([part])))
            continue
        t = stopping[part]
        values = np.concatenate([t[f"{a}-Rank"].to_numpy(), t[f"{b}-Rank"].to_numpy()])
        paper_t = _paper_table_3(part)
        pv = np.concatenate([paper_t[f"{a}-Rank"].to_numpy(), paper_t[f"{b}-Rank"].to_numpy()])
        out.append(_claim(claim, where, float(test(values).mean()),
                          f"mean Rank iterations {'below' if part == 'b' else 'above'} 50 for {_count(test(values))} "
                          f"(data set, learner) cells (the paper: {_count(test(pv))})",
                          holds_at=holds_at, partly_at=partly_at, undecided=short([part], ["Rank"])))
    return out


def _true_test_claims(true_test: dict, trivial_steady: str | None) -> list[Claim]:
    out = []
    steady = true_test["steady_state"].set_index("dataset")
    mae = steady.loc[MAE_ROW].dropna()
    learners = [c.split(" ", 1)[1] for c in mae.index if c.startswith("2-fold")]
    best = {l: mae[[c for c in mae.index if c.endswith(" " + l)]].idxmin() for l in learners}
    out.append(_claim("10-fold steady-state estimates have the lowest error against true test sets",
                      "Table V, Sec. VI", float(np.mean([v.startswith("10-fold") for v in best.values()])),
                      "lowest mean absolute error (the paper's \"MSE\") per learner: " + ", ".join(best.values())
                      + " (the paper: 10-fold for HDDT and NB, 5- and 10-fold tie for C4.5)",
                      undecided=trivial_steady))
    body = steady.drop(index=[MAE_ROW, MSE_ROW])
    under = [(body[c] < body[f"actual {c.split(' ', 1)[1]}"]).mean() for c in body.columns
             if not c.startswith("actual")]
    out.append(_claim("cross-validation tends to underestimate true-test performance", "Tables IV-V, Sec. VI",
                      float(np.mean(under)),
                      f"{np.mean(under):.0%} of the steady-state estimates lie below the true-test AUROC "
                      f"(on {len(body)} stand-in data sets)", holds_at=0.75))
    return out


# --------------------------------------------------------------------------- #
# Cost
# --------------------------------------------------------------------------- #
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

