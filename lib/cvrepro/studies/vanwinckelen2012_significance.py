"""Vanwinckelen & Blockeel (2012), Sections 4-6 measured: the tests on repeated-CV scores, their decisions on
every sample and their rejection rates per group of pairs.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .vanwinckelen2012_design import TESTS, TWIN, test_grid
from .vanwinckelen2012_picks import pairs
from .vanwinckelen2012_runs import Experiment


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
    the first five repetitions of 2-fold CV (one verdict per sample that has them). A zero variance of the
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
    keys = ["population", "learner", "k", "sample"]
    ordered = exp.folds.sort_values(keys + ["iteration", "fold"])
    runs = {key: (g.iteration.to_numpy(), 1 - g.error.to_numpy())
            for key, g in ordered.groupby(keys, sort=False, observed=True)}
    grid = test_grid(p)
    rows = []

    def scores(pop, learner, kk, s, reps):
        """The per-fold accuracies of the first ``reps`` repetitions, in (repetition, fold) order."""
        iteration, acc = runs[(pop, learner, kk, s)]
        return acc[iteration < reps]

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
            a, b = (scores(pair.population, learner, 2, s, 5) for learner in (pair.L1, pair.L2)) if with_5x2 \
                else ((), ())
            if len(a) == len(b) == 10:   # a sample outside the curves may have fewer than 5 repetitions
                a, b = a.reshape(5, 2), b.reshape(5, 2)
                for test, fn in five_by_two.items():
                    pv = _pvalue(fn, a, b, 2)
                    rows.append({**key, "sample": s, "repetitions": 5, "test": test, "pvalue": pv,
                                 "reject": bool(pv < alpha)})
    return pd.DataFrame(rows)


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
