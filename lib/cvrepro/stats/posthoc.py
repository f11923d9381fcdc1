"""All pairs of learners over many data sets: rank statistics and adjusted p-values.

The pairwise z statistics of Friedman's test (Demsar 2006), of
Friedman's aligned ranks and of Quade's test (Garcia et al. 2010,
Information Sciences 180, pp. 2051-2054), each with a two-sided normal
p-value, then one adjustment of :mod:`.adjust` over the k (k - 1) / 2 pairs:
Holm, Hommel, Finner, Benjamini-Hochberg, Bonferroni, Shaffer's static
procedure or Bergmann-Hommel.
"""
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_alpha, score_table
from .adjust import ADJUSTMENTS, PAIR_ADJUSTMENTS, adjust_pvalues, bergmann_hommel, shaffer
from .multiple import average_ranks
from .ranktests import aligned_ranks, quade_mean_ranks

__all__ = ["RANK_TESTS", "pairwise_rank_statistics", "posthoc_test"]

RANK_TESTS = ("friedman", "aligned", "quade")


def _mean_ranks_and_se(table, test, higher_is_better):
    n, k = table.shape
    if test == "friedman":
        return average_ranks(table, higher_is_better), np.sqrt(k * (k + 1) / (6.0 * n))
    if test == "aligned":
        return aligned_ranks(table, higher_is_better).mean(axis=0), np.sqrt(k * (n * k + 1) / 6.0)
    if test == "quade":
        se = np.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))
        return quade_mean_ranks(table, higher_is_better), se
    raise ValueError(f"unknown rank test {test!r}; use one of {RANK_TESTS}")


def pairwise_rank_statistics(scores, test="friedman", higher_is_better=True):
    """Per pair (a, b) in column order: mean ranks, ``z = (R_a - R_b) / se`` (negative: a ranked
    better) and the unadjusted two-sided p-value."""
    table = score_table(scores)
    ranks, se = _mean_ranks_and_se(table, test, higher_is_better)
    rows = [{"a": a, "b": b, "rank_a": ranks[a], "rank_b": ranks[b], "z": (ranks[a] - ranks[b]) / se}
            for a, b in combinations(table.columns, 2)]
    out = pd.DataFrame(rows)
    out["p"] = 2 * stats.norm.sf(np.abs(out.z))
    return out


def posthoc_test(scores, test="friedman", adjust="holm", alpha=0.05, higher_is_better=True):
    """All pairs of learners: :func:`pairwise_rank_statistics` plus ``p_adjusted`` (``adjust``: one of
    :data:`~cvrepro.stats.adjust.ADJUSTMENTS` or ``"shaffer"``, ``"bergmann"``) and ``reject``
    (p_adjusted < alpha); ``attrs`` name the test and the adjustment."""
    check_alpha(alpha)
    table = score_table(scores)
    out = pairwise_rank_statistics(table, test, higher_is_better)
    k = table.shape[1]
    if adjust == "shaffer":
        out["p_adjusted"] = shaffer(out.p.to_numpy(), k)
    elif adjust == "bergmann":
        out["p_adjusted"] = bergmann_hommel(out.p.to_numpy(), k)
    elif adjust in ADJUSTMENTS:
        out["p_adjusted"] = adjust_pvalues(out.p.to_numpy(), adjust)
    else:
        raise ValueError(f"unknown adjustment {adjust!r}; use one of {ADJUSTMENTS + PAIR_ADJUSTMENTS}")
    out["reject"] = out.p_adjusted < alpha
    out.attrs.update(test=test, adjust=adjust, alpha=alpha)
    return out
