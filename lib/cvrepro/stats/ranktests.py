"""Many learners, many data sets: two alternatives to Friedman's test.

Friedman's aligned ranks test (Hodges & Lehmann 1962): each score minus its
data set's mean across learners, ranked over the whole table, so that data
sets are compared with each other; and Quade's test (Quade 1979): within-data
set ranks weighted by the rank of the data set's range, so that data sets on
which the learners differ more count more. Both as Garcia, Fernandez, Luengo &
Herrera (2010, Information Sciences 180, pp. 2051-2052) write them; their pairwise
post-hoc statistics are in :mod:`.posthoc`. ``scores`` as for
:func:`~cvrepro.stats.friedman_test` (rows data sets, columns learners).
"""
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from ._checks import round_noise, score_table
from .multiple import rank_scores

__all__ = ["RankTestResult", "aligned_ranks", "aligned_ranks_test", "quade_mean_ranks", "quade_test", "quade_weights"]


@dataclass(frozen=True)
class RankTestResult:
    """statistic and pvalue (chi-squared with ``df`` for aligned ranks; F with ``df`` = (k - 1,
    (k - 1)(N - 1)) for Quade); average_ranks: the learners' mean (aligned or Quade-weighted)
    rank, 1 = best; test: its name."""
    statistic: float
    pvalue: float
    df: tuple
    average_ranks: pd.Series
    test: str


def aligned_ranks(scores, higher_is_better=True):
    """Ranks 1..kN of the aligned scores (score minus its data set's mean), 1 = best, ties averaged."""
    table = score_table(scores)
    values = table.to_numpy() * (1 if higher_is_better else -1)
    aligned = round_noise(values - values.mean(axis=1, keepdims=True))
    ranks = stats.rankdata(-aligned.ravel()).reshape(aligned.shape)
    return pd.DataFrame(ranks, index=table.index, columns=table.columns)


def aligned_ranks_test(scores, higher_is_better=True):
    """Friedman's aligned ranks test: ``T = (k - 1) (sum_j R_j^2 - (k N^2 / 4)(k N + 1)^2) /
    (k N (k N + 1)(2 k N + 1) / 6 - sum_i R_i^2 / k)`` with learners' and data sets' rank totals
    R_j, R_i; chi-squared with k - 1 df."""
    ranks = aligned_ranks(scores, higher_is_better)
    n, k = ranks.shape
    kn = k * n
    r_j, r_i = ranks.sum(axis=0).to_numpy(), ranks.sum(axis=1).to_numpy()
    num = (k - 1) * (np.sum(r_j ** 2) - (kn * n / 4.0) * (kn + 1) ** 2)
    den = kn * (kn + 1) * (2 * kn + 1) / 6.0 - np.sum(r_i ** 2) / k
    t = float(num / den)
    return RankTestResult(t, float(stats.chi2.sf(t, k - 1)), (k - 1,), ranks.mean(axis=0), "aligned ranks")


def quade_weights(scores):
    """Q_i: the rank of each data set's range (max - min over learners), ties averaged."""
    table = score_table(scores)
    values = table.to_numpy()
    return pd.Series(stats.rankdata(round_noise(values.max(axis=1) - values.min(axis=1))), index=table.index)


def quade_mean_ranks(scores, higher_is_better=True):
    """T_j = W_j / (N (N + 1) / 2), W_j = sum_i Q_i r_ij: the learners' weighted mean ranks, 1 = best."""
    table = score_table(scores)
    n = table.shape[0]
    w = quade_weights(table).to_numpy()[:, None] * rank_scores(table, higher_is_better).to_numpy()
    return pd.Series(w.sum(axis=0) / (n * (n + 1) / 2.0), index=table.columns)


def quade_test(scores, higher_is_better=True):
    """Quade's test as R's ``stats::quade.test`` (Conover 1999): ``S_ij = Q_i (r_ij - (k + 1) / 2)``,
    ``A = sum_ij S_ij^2`` (without ties ``N (N + 1)(2N + 1) k (k + 1)(k - 1) / 72``, the form Garcia et al.
    print), ``B = sum_j S_j^2 / N``, ``F = (N - 1) B / (A - B)`` with (k - 1, (k - 1)(N - 1)) df; the
    average ranks reported are :func:`quade_mean_ranks`. A = B (every data set ranks the learners alike
    and all ranges tie) gives F = NaN and p = (k!)^(1 - N), as R."""
    table = score_table(scores)
    n, k = table.shape
    r = rank_scores(table, higher_is_better).to_numpy()
    s = quade_weights(table).to_numpy()[:, None] * (r - (k + 1) / 2.0)
    a, b = np.sum(s ** 2), np.sum(s.sum(axis=0) ** 2) / n
    df = (k - 1, (k - 1) * (n - 1))
    if a == b:
        f, p = np.nan, math.exp((1 - n) * special.gammaln(k + 1))
    else:
        f = float((n - 1) * b / (a - b))
        p = float(stats.f.sf(f, *df))
    return RankTestResult(f, p, df, quade_mean_ranks(table, higher_is_better), "quade")
