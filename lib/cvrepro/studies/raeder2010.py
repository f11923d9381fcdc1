"""Raeder, Hoens & Chawla (2010): the analyses behind every table and figure.

All functions take the engine's tidy tables (``CVResults.iterations``: one row
per dataset, learner, k, iteration with the fold-averaged ``auroc``) and
return tidy tables; the notebook only calls them and draws. Definitions:

- canonical estimate: the mean of the first ``CANONICAL_REPEATS[k]``
  iterations (5x2-fold, 2x5-fold, 1x10-fold, as the paper's "canonical");
- steady-state estimate: the mean of all iterations (500 in the paper);
- ranks: rank 1 is the highest AUROC (most optimistic), as in Table I.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from ..convergence import FixedIterations, KSCriterion, RankCriterion, replay_reproducibility
from ..runner import iterations_per_task, run_cv
from ..stats import bonferroni_dunn_test, critical_difference, friedman_test, sign_test, wilcoxon_signed_rank

__all__ = [
    "CANONICAL_REPEATS", "STOPPING_RULES", "TRUE_TEST_LEARNERS", "estimates", "table_1", "running_means",
    "settling_iterations", "lead_changes", "seed_verdicts", "opposite_seeds", "table_2", "retest_table_2",
    "distribution_summary", "table_3", "true_test_performance", "true_test_table", "mse_row",
    "claims", "stand_ins", "make_learners", "C45_LAPLACE_NOTE", "figure_1_panels", "figure_2_panels",
    "to_paper_names", "plot_running_means", "plot_distribution",
]

CANONICAL_REPEATS = {2: 5, 5: 2, 10: 1}
STOPPING_RULES = {
    "Fixed-10": lambda cap: FixedIterations(10, max_iterations=cap),
    "Fixed-50": lambda cap: FixedIterations(50, max_iterations=cap),
    "Rank": lambda cap: RankCriterion(0.9999, max_iterations=cap),
    "KS-0.1": lambda cap: KSCriterion(0.1, max_iterations=cap),
    "KS-0.2": lambda cap: KSCriterion(0.2, max_iterations=cap),
}
KEYS = ["dataset", "learner", "k"]
TRUE_TEST_LEARNERS = ("HDDT", "C4.5", "NB")     # the learners of Tables IV-V

# The paper's design at full scale: data sets (catalog names, see PAPER_DATASETS), learners, folds.
DATASETS = ["breast-w", "bupa", "crx", "heart", "ionosphere", "chess", "pima", "promoters",
            "ringnorm", "sonar", "threenorm", "tic-tac-toe", "twonorm", "vote", "vote1"]
LEARNERS = ["C4.5", "HDDT", "MLP", "5-NN", "NB", "SMO"]
TRUE_TEST_DATASETS = ["segment", "dna", "landsat"]


def _scale(datasets, iterations, true_test, learners=LEARNERS) -> dict:
    return {"datasets": datasets, "learners": learners, "folds": [2, 5, 10],
            "iterations": iterations, "true_test_datasets": true_test, "seed": 0,
            "n_orderings": 50, "c45_laplace": True}


# How each profile scales the design (the paper: 500 iterations of every cell).
SCALES = {
    "smoke": _scale(["sonar", "vote", "promoters", "breast-w"], 5, ["segment"],
                    learners=["C4.5", "HDDT", "NB", "5-NN", "SMO"]),
    "quick": _scale(DATASETS, 20, TRUE_TEST_DATASETS),
    "paper": _scale(DATASETS, 500, TRUE_TEST_DATASETS),
}

# The paper's 20 data sets and what stands in for each here (None: not available).
PAPER_DATASETS = {
    "breast-w": "breast-w", "bupa": "bupa", "NCAAF": None, "credit-a": "crx", "crx": "crx",
    "heart-c": "heart", "heart-h": "heart", "horse-colic": None, "ion": "ionosphere",
    "krkp": "chess", "pima": "pima", "promoters": "promoters", "ringnorm": "ringnorm",
    "sonar": "sonar", "threenorm": "threenorm", "tic-tac-toe": "tic-tac-toe",
    "twonorm": "twonorm", "vote": "vote", "vote1": "vote1",
}
STAND_IN_NOTES = {
    "credit-a": "KEEL crx (653 complete rows, decimal points lost) stands in for UCI credit-a",
    "crx": "KEEL crx stands in for UCI crx; credit-a and crx become one data set here",
    "heart-c": "Statlog heart (270) stands in for Cleveland heart-c",
    "heart-h": "Statlog heart (270) stands in for Hungarian heart-h",
    "ringnorm": "generated: 300 examples, Breiman/mlbench definition",
    "threenorm": "generated: 300 examples", "twonorm": "generated: 300 examples",
    "NCAAF": "not available", "horse-colic": "not available",
}


C45_LAPLACE_NOTE = (
    "C4.5 with Laplace leaf estimates (J48 -A). The paper says WEKA defaults, but its C4.5 AUROCs "
    "(Table II) match J48 -A: over the 11 shared data sets, 3 x 10-fold, our J48-default AUROC lies "
    "0.028 below the paper's on average, -A 0.010 below (mean absolute difference 0.013); real WEKA "
    "3.6 J48 on ionosphere gives 0.892 by default, 0.917 with -A, the paper 0.930.")


def make_learners(names, c45_laplace: bool = True) -> dict:
    """The study's learners by name; C4.5 with Laplace leaves unless asked otherwise."""
    from ..learners import make_learner

    models = {name: make_learner(name) for name in names}
    if c45_laplace and "C4.5" in models:
        models["C4.5"].set_params(laplace=True)
    return models


def stand_ins() -> pd.DataFrame:
    """The paper's data sets, the catalog set used for each, and why."""
    return pd.DataFrame([{"paper": p, "used here": c or "-", "note": STAND_IN_NOTES.get(p, "same data")}
                         for p, c in PAPER_DATASETS.items()])


def to_paper_names(table: pd.DataFrame, column: str = "dataset") -> pd.DataFrame:
    """Rows keyed by the paper's names (a catalog set standing in for two names appears twice)."""
    rows = [(p, c) for p, c in PAPER_DATASETS.items() if c is not None]
    mapping = pd.DataFrame(rows, columns=["paper", column])
    return mapping.merge(table, on=column).drop(columns=column).rename(columns={"paper": column})


def _sorted(iterations: pd.DataFrame) -> pd.DataFrame:
    t = iterations.copy()
    for c in ("dataset", "learner"):
        t[c] = t[c].astype(str)
    return t.sort_values(KEYS + ["iteration"])


def estimates(iterations: pd.DataFrame, metric: str = "auroc") -> pd.DataFrame:
    """Canonical and steady-state estimate per (dataset, learner, k)."""
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
    significant: differs from the control at ``alpha``, friedman_pvalue) and a
    dict with the critical distance and the number of data sets.
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
    return pd.DataFrame(rows), {"critical_distance": cd, "n_datasets": n_datasets, "alpha": alpha}


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
    ``tolerance`` of its final value (how long an estimate takes to settle)."""
    rows = []
    for (d, l, k), g in _sorted(iterations).groupby(KEYS, sort=False):
        means = g[metric].expanding().mean().to_numpy()
        outside = np.flatnonzero(np.abs(means - means[-1]) > tolerance)
        rows.append({"dataset": d, "learner": l, "k": k, "n_iterations": len(means),
                     "settles_at": int(outside[-1] + 2) if outside.size else 1})
    return pd.DataFrame(rows)


def lead_changes(means: pd.DataFrame) -> int:
    """How often the leading learner changes along running means (ties ignored)."""
    leader = means.to_numpy().argmax(axis=1)
    return int(np.count_nonzero(np.diff(leader)))


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
        mine = verdicts[verdicts.leader == who]
        best[who] = None if mine.empty else mine.loc[mine.pvalue.idxmin()]
    found = all(r is not None and r.pvalue < alpha for r in best.values())
    sig = verdicts.pvalue < alpha
    counts = {f"{a} significantly better": int((sig & (verdicts.leader == a)).sum()),
              f"{b} significantly better": int((sig & (verdicts.leader == b)).sum()),
              "no significant difference": int((~sig).sum()), "seeds": len(verdicts)}
    return {"found": found, "seeds": {w: (None if r is None else int(r.seed)) for w, r in best.items()},
            "pvalues": {w: (None if r is None else float(r.pvalue)) for w, r in best.items()},
            "counts": counts, "alpha": alpha}


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


def table_2(iterations: pd.DataFrame, seeds, a: str = "C4.5", b: str = "HDDT", k: int = 10,
            metric: str = "auroc") -> pd.DataFrame:
    """Per-data-set AUROC of ``a`` and ``b`` at the given seeds, plus average ranks."""
    t = _sorted(iterations)
    t = t[(t.k == k) & t.learner.isin([a, b])]
    parts = []
    for seed in seeds:
        wide = t[t.iteration == seed].pivot(index="dataset", columns="learner", values=metric)[[a, b]]
        wide.columns = [f"{c}@{seed}" for c in wide.columns]
        parts.append(wide)
    table = pd.concat(parts, axis=1)
    ranks = pd.concat([p.rank(axis=1, ascending=False).mean() for p in parts])
    table.loc["avg. rank"] = ranks
    return table


def distribution_summary(iterations: pd.DataFrame, k: int = 2, metric: str = "auroc") -> pd.DataFrame:
    """Mean, median and skewness of the per-iteration estimates (Figure 2)."""
    t = _sorted(iterations)
    t = t[t.k == k]
    g = t.groupby(["dataset", "learner"], sort=False)[metric]
    out = g.agg(mean="mean", median="median", std="std", n="size").reset_index()
    out["skewness"] = g.apply(lambda s: float(sps.skew(s, bias=False)) if s.nunique() > 2 else 0.0).to_numpy()
    return out


def table_3(results, datasets, a: str, b: str, k: int, n_orderings: int = 50,
            random_state: int = 0, rules=None, metric: str = "auroc") -> pd.DataFrame:
    """Reproducibility R and mean stopping iteration of each rule (Table III).

    Each rule is replayed on ``n_orderings`` random orderings of the stored
    iterations of both learners (the same orderings for both, so iteration t
    of each comes from one CV seed). The cap is the number of stored iterations.
    """
    rules = rules or STOPPING_RULES
    t = _sorted(results.iterations)
    rows = []
    for dataset in datasets:
        cell = t[(t.dataset == dataset) & (t.k == k)]
        est = {l: cell[cell.learner == l][metric].to_numpy() for l in (a, b)}
        proba = {l: results.oof(dataset, l, k) for l in (a, b)}
        proba = {l: p[:, :, 1] if p.shape[2] == 2 else p.reshape(p.shape[0], -1)
                 for l, p in proba.items()}
        cap = len(est[a])
        row = {"dataset": dataset}
        for name, make in rules.items():
            r = replay_reproducibility(make(cap), est[a], est[b], proba[a], proba[b],
                                       n_orderings=n_orderings, random_state=random_state)
            row[f"R {name}"] = r.R
            if not name.startswith("Fixed"):
                row[f"{a}-{name}"] = r.iterations_a
                row[f"{b}-{name}"] = r.iterations_b
                row[f"capped {name}"] = r.capped_a + r.capped_b
        rows.append(row)
    return pd.DataFrame(rows)


def true_test_table(est: pd.DataFrame, actual: pd.DataFrame, kind: str,
                    learners=TRUE_TEST_LEARNERS) -> pd.DataFrame:
    """Tables IV (``kind="canonical"``) and V (``"steady_state"``): the k-fold
    estimates beside the true-test AUROC, one row per data set, plus the MSE row."""
    est = est[est.learner.isin(learners)]
    wide = est.pivot_table(index="dataset", columns=["k", "learner"], values=kind)
    wide.columns = [f"{k}-fold {l}" for k, l in wide.columns]
    truth = actual.pivot(index="dataset", columns="learner", values="auroc")
    truth.columns = [f"actual {c}" for c in truth.columns]
    table = wide.join(truth, how="inner")
    order = [f"{k}-fold {l}" for k in sorted(est.k.unique()) for l in learners] + \
            [f"actual {l}" for l in learners]
    table = table[[c for c in order if c in table.columns]]
    table.loc["MSE"] = mse_row(table, learners)
    return table


def mse_row(table: pd.DataFrame, learners) -> pd.Series:
    """Mean squared difference of each estimate column from its learner's actual column."""
    out = {}
    for col in table.columns:
        if col.startswith("actual"):
            out[col] = np.nan
            continue
        learner = col.split(" ", 1)[1]
        diff = table[col] - table[f"actual {learner}"]
        out[col] = float(np.mean(diff.dropna() ** 2))
    return pd.Series(out)


def true_test_performance(datasets, learners: dict, metric: str = "auroc") -> pd.DataFrame:
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


def _verdict(fraction: float, holds_at: float = 1.0) -> str:
    """holds when the share of cases agreeing reaches ``holds_at`` (1 for "every",
    less for "tends to" claims), partly from one half, else does not hold."""
    return "holds" if fraction >= holds_at - 1e-9 else "partly" if fraction >= 0.5 else "does not hold"


def claims(rank_table: pd.DataFrame, settle: pd.DataFrame, leads: dict, search: dict,
           dists: pd.DataFrame, stopping: dict, true_test: dict | None,
           n_orderings: int = 50) -> pd.DataFrame:
    """Each claim of the paper as a check on our results: verdict and evidence.

    ``rank_table`` is :func:`table_1`'s long table; ``leads`` maps a Figure 1
    panel to its number of lead changes; ``search`` is :func:`opposite_seeds`;
    ``dists`` is :func:`distribution_summary`; ``stopping`` maps "a"/"b"/"c"
    to :func:`table_3` tables; ``true_test`` maps "canonical"/"steady_state"
    to :func:`true_test_table` tables (None when no true-test set was run).
    A claim whose evidence is mostly capped replays is "undecided".
    """
    rows = []

    def add(claim, where, fraction, evidence, holds_at=1.0, undecided=False):
        verdict = "undecided: too few iterations" if undecided else _verdict(fraction, holds_at)
        rows.append({"claim": claim, "where": where, "verdict": verdict, "evidence": evidence})

    ranks = rank_table.pivot_table(index=["estimate", "learner"], columns="folds", values="average_rank")
    canon, steady = ranks.loc["canonical"], ranks.loc["steady-state"]
    worst2 = (canon[2] >= canon.max(axis=1) - 1e-12)
    add("2-fold CV is the most pessimistic canonical estimator for every classifier", "Table I",
        worst2.mean(), f"2-fold ranks last for {worst2.sum()} of {len(worst2)} classifiers")
    sig = rank_table[(rank_table.estimate == "canonical") & (rank_table.folds == 5)]
    add("canonical 2-fold is significantly more pessimistic than 5-fold (all classifiers)",
        "Table I", sig.significant.mean(), f"significant for {sig.significant.sum()} of {len(sig)}")
    best10 = (steady[10] <= steady.min(axis=1) + 1e-12)
    add("steady-state 10-fold is the most optimistic estimator for every classifier", "Table I",
        best10.mean(), f"10-fold ranks first for {best10.sum()} of {len(best10)} classifiers")
    spread = settle.groupby("learner").settles_at.median()
    varies = settle.settles_at.nunique() > 1 and settle.settles_at.max() >= 2 * max(settle.settles_at.min(), 1)
    add("estimates settle only after a number of iterations that depends on classifier and data set",
        "Figure 1", 1.0 if varies else 0.0,
        "median settling iteration per learner: " + ", ".join(f"{l} {v:.0f}" for l, v in spread.items())
        + f"; range {settle.settles_at.min()}-{settle.settles_at.max()}")
    changed = sum(v > 0 for v in leads.values())
    add("with few iterations the leading classifier changes", "Figure 1", changed / max(len(leads), 1),
        ", ".join(f"{p}: {v} lead changes" for p, v in leads.items()))
    c = search["counts"]
    add("two seeds give opposite significant Wilcoxon verdicts for C4.5 vs HDDT", "Table II",
        1.0 if search["found"] else 0.0,
        f"seeds {search['seeds']} p {search['pvalues']}; over {c['seeds']} seeds: " +
        ", ".join(f"{k} {v}" for k, v in c.items() if k != "seeds"))
    good = dists[dists["mean"] >= dists["mean"].median()]
    rho = sps.spearmanr(dists["mean"], dists["skewness"]).statistic if len(dists) > 2 else np.nan
    add("estimate distributions of good classifiers are left-skewed", "Figure 2",
        float((good.skewness < 0).mean()),
        f"{(good.skewness < 0).sum()} of {len(good)} above-median cells left-skewed; "
        f"Spearman(mean, skewness) = {rho:.2f}", holds_at=0.75)
    a = stopping.get("a")
    if a is not None and len(a):
        iters = [c for c in a.columns if c.endswith("-Rank")]
        ks = [c for c in a.columns if c.endswith("-KS-0.1")]
        earlier = (a[iters].mean(axis=1).to_numpy() < a[ks].mean(axis=1).to_numpy())
        close = (a["R Rank"] >= a["R KS-0.1"] - 0.1)
        replays = 2 * n_orderings * len(a)   # two learners per ordering and data set
        capped = (a["capped Rank"].sum() + a["capped KS-0.1"].sum()) / (2 * replays)
        add("Rank stops earlier than KS-0.1 with comparable R", "Table III(a)",
            float((earlier & close).mean()),
            f"earlier on {earlier.sum()} of {len(a)} data sets; R within 0.1 on {close.sum()}; "
            f"{capped:.0%} of the replays hit the cap", holds_at=0.75, undecided=capped > 0.5)
        r_cols = [c for c in a.columns if c.startswith("R ")]
        mean_r = a[r_cols].mean()
        lowest = mean_r["R Fixed-10"] < mean_r.drop("R Fixed-10").min()
        add("Fixed-10 is the least reproducible rule for the unstable pair", "Table III(a)",
            1.0 if lowest else 0.0,
            "mean R: " + ", ".join(f"{c[2:]} {v:.2f}" for c, v in a[r_cols].mean().items()))
    if true_test:
        steady = true_test["steady_state"]
        mse = steady.loc["MSE"].dropna()
        learners = sorted({c.split(" ", 1)[1] for c in mse.index})
        best = [mse[[c for c in mse.index if c.endswith(" " + l)]].idxmin().startswith("10-fold")
                for l in learners]
        add("10-fold steady-state estimates have the lowest MSE against true test sets", "Table V",
            float(np.mean(best)), "lowest MSE column per learner: " + ", ".join(
                mse[[c for c in mse.index if c.endswith(" " + l)]].idxmin() for l in learners))
        body = steady.drop(index="MSE")
        under = [(body[c] < body[f"actual {c.split(' ', 1)[1]}"]).mean()
                 for c in body.columns if not c.startswith("actual")]
        add("cross-validation tends to underestimate true-test performance", "Tables IV-V",
            float(np.mean(under)),
            f"{np.mean(under):.0%} of steady-state estimates lie below the true-test AUROC", holds_at=0.75)
    return pd.DataFrame(rows)


def plot_running_means(means: pd.DataFrame, ax, title: str) -> None:
    """One Figure 1 panel: running-mean estimates against iterations."""
    for learner in means.columns:
        ax.plot(means.index, means[learner], label=learner, lw=1.2)
    ax.set(title=title, xlabel="iterations", ylabel="running mean AUROC")
    ax.legend(fontsize=8)


def plot_distribution(values: dict, ax, title: str) -> None:
    """One Figure 2 panel: histograms of per-iteration estimates, mean (dashed) and median (dotted)."""
    for i, (learner, v) in enumerate(values.items()):
        color = f"C{i}"
        skew = sps.skew(v, bias=False) if np.unique(v).size > 2 else 0.0
        ax.hist(v, bins=min(30, max(5, len(v) // 5)), alpha=0.45, color=color, density=True,
                label=f"{learner} (skew {skew:+.2f})")
        ax.axvline(np.mean(v), color=color, ls="--", lw=1)
        ax.axvline(np.median(v), color=color, ls=":", lw=1.5)
    ax.set(title=title, xlabel="AUROC estimate", ylabel="density")
    ax.legend(fontsize=7)


def figure_1_panels(datasets, learners) -> list[dict]:
    """Figure 1's panels, with what this run has: twonorm 500 x 10-fold (C4.5, HDDT),
    vote 50 x 5-fold, crx 100 x 2-fold and its first 30 (C4.5, MLP, 5-NN).
    A missing data set is replaced by the run's first; missing learners are dropped."""
    spec = [("twonorm", ["C4.5", "HDDT"], 10, None), ("vote", ["C4.5", "MLP", "5-NN"], 5, 50),
            ("crx", ["C4.5", "MLP", "5-NN"], 2, 100), ("crx", ["C4.5", "MLP", "5-NN"], 2, 30)]
    panels = []
    for dataset, wanted, k, n in spec:
        used = dataset if dataset in datasets else datasets[0]
        have = [l for l in wanted if l in learners] or list(learners[:3])
        panels.append({"dataset": used, "learners": have, "k": k, "n_iterations": n,
                       "stand_in": None if used == dataset else f"{used} in place of {dataset}"})
    return panels


def figure_2_panels(datasets, learners) -> list[dict]:
    """Figure 2: C4.5 and HDDT on four data sets, NB against MLP on one (500 x 2-fold)."""
    trees = [l for l in ("C4.5", "HDDT") if l in learners]
    preferred = ["breast-w", "pima", "sonar", "tic-tac-toe"]
    chosen = [d for d in preferred if d in datasets] + [d for d in datasets if d not in preferred]
    panels = [{"dataset": d, "learners": trees} for d in chosen[:4]] if trees else []
    pair = [l for l in ("NB", "MLP") if l in learners]
    if pair:
        panels.append({"dataset": chosen[0], "learners": pair})
    return panels


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
