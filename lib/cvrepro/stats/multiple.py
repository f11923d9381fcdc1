"""Many learners, many data sets (Demsar 2006): average ranks, Friedman and
Iman-Davenport, Nemenyi and Bonferroni-Dunn critical differences, Holm.

``scores`` is a table with one row per data set and one column per learner
(a DataFrame keeps the names; an array gets ``learner_0, learner_1, ...``).
Rank 1 is the best learner on a data set (``higher_is_better=False`` for
error rates).  Ties get the average of the ranks they span.
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_alpha, score_table

TIE_SLACK = 1e-9  # relative slack so that 85.91 - 85.90 counts as a gap of 0.01


def _rank_row_with_tolerance(values, tie_tolerance):
    order = np.argsort(values, kind="stable")
    # Single linkage: a new tie group starts where the gap to the previous value exceeds tol.
    gaps = np.diff(values[order])
    group = np.concatenate([[0], np.cumsum(gaps > tie_tolerance * (1 + TIE_SLACK))])
    positions = np.arange(1, values.size + 1)
    ranks = np.empty(values.size)
    ranks[order] = (np.bincount(group, positions) / np.bincount(group))[group]
    return ranks


def rank_scores(scores, higher_is_better=True, tie_tolerance=0.0):
    """Per-data-set ranks (1 = best), ties averaged.

    ``tie_tolerance``: scores that differ by at most this much are tied
    (chained: a, b, c tie if a~b and b~c; a relative slack of 1e-9 absorbs
    floating-point error).  The Japkowicz tutorial's Friedman example ranks
    85.91 and 85.90 as a tie, i.e. ``tie_tolerance=0.01``; the default 0 ties
    only equal scores.
    """
    table = score_table(scores, min_datasets=1)
    if tie_tolerance < 0:
        raise ValueError(f"tie_tolerance must be >= 0, got {tie_tolerance}")
    values = table.to_numpy() * (-1 if higher_is_better else 1)
    if tie_tolerance == 0:
        ranks = stats.rankdata(values, axis=1)
    else:
        ranks = np.vstack([_rank_row_with_tolerance(row, tie_tolerance) for row in values])
    return pd.DataFrame(ranks, index=table.index, columns=table.columns)


def average_ranks(scores, higher_is_better=True, tie_tolerance=0.0):
    """Mean rank of each learner over the data sets (a Series)."""
    return rank_scores(scores, higher_is_better, tie_tolerance).mean(axis=0)


@dataclass(frozen=True)
class FriedmanResult:
    """statistic: Friedman chi-squared (k - 1 df); pvalue; iman_davenport:
    F = (N - 1) chi2 / (N (k - 1) - chi2) with (k - 1, (k - 1)(N - 1)) df;
    iman_davenport_pvalue; average_ranks, rank_sums: Series per learner."""
    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float
    average_ranks: pd.Series
    rank_sums: pd.Series
    n_datasets: int
    n_learners: int


def friedman_test(scores, higher_is_better=True, tie_tolerance=0.0):
    """Friedman's test with the Iman-Davenport F correction, from the ranks.

    ``chi2 = 12 N / (k (k + 1)) (sum_j R_j^2 - k (k + 1)^2 / 4)`` on the average
    ranks R_j, without scipy's tie correction (Demsar 2006 and the tutorial
    use none; on tie-free data it equals ``scipy.stats.friedmanchisquare``).
    When every data set ranks the learners identically, chi2 = N (k - 1) and
    the F statistic is infinite (pvalue 0): documented, not an error.
    """
    table = score_table(scores)
    ranks = rank_scores(table, higher_is_better, tie_tolerance)
    n, k = ranks.shape
    avg = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(avg.to_numpy() ** 2) - k * (k + 1) ** 2 / 4)
    chi2 = max(float(chi2), 0.0)
    denom = n * (k - 1) - chi2
    f = (n - 1) * chi2 / denom if denom > 1e-12 * n * k else np.inf
    df1, df2 = k - 1, (k - 1) * (n - 1)
    return FriedmanResult(chi2, float(stats.chi2.sf(chi2, df1)), float(f),
                          float(stats.f.sf(f, df1, df2)), avg, ranks.sum(axis=0), n, k)


def _rank_se(k, n):
    return np.sqrt(k * (k + 1) / (6.0 * n))


def nemenyi_q(n_learners, alpha=0.05):
    """Nemenyi's q_alpha: studentized range quantile (infinite df) / sqrt(2)."""
    check_alpha(alpha)
    return float(stats.studentized_range.ppf(1 - alpha, n_learners, np.inf) / np.sqrt(2))


def bonferroni_dunn_q(n_learners, alpha=0.05):
    """Bonferroni-Dunn's q_alpha: two-sided normal quantile at alpha / (k - 1)."""
    check_alpha(alpha)
    return float(stats.norm.isf(alpha / (2 * (n_learners - 1))))


def critical_difference(n_learners, n_datasets, alpha=0.05, test="nemenyi"):
    """``CD = q_alpha sqrt(k (k + 1) / (6 N))``: average ranks further apart differ."""
    q = {"nemenyi": nemenyi_q, "bonferroni-dunn": bonferroni_dunn_q}
    if test not in q:
        raise ValueError(f"test must be 'nemenyi' or 'bonferroni-dunn', got {test!r}")
    if n_learners < 2 or n_datasets < 2:
        raise ValueError("need at least 2 learners and 2 data sets")
    return q[test](n_learners, alpha) * float(_rank_se(n_learners, n_datasets))


@dataclass(frozen=True)
class NemenyiResult:
    """statistic: pairwise |R_i - R_j| / sqrt(k (k + 1) / (6 N)); pvalue: the
    pairwise p-values (studentized range, as scikit-posthocs); reject:
    pvalue < alpha; critical_difference, q_alpha; average_ranks."""
    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    reject: pd.DataFrame
    critical_difference: float
    q_alpha: float
    average_ranks: pd.Series
    alpha: float


def nemenyi_test(scores, alpha=0.05, higher_is_better=True, tie_tolerance=0.0):
    """Nemenyi post-hoc test: all pairs of learners."""
    table = score_table(scores)
    n, k = table.shape
    avg = average_ranks(table, higher_is_better, tie_tolerance)
    r = avg.to_numpy()
    z = np.abs(r[:, None] - r[None, :]) / _rank_se(k, n)
    p = stats.studentized_range.sf(z * np.sqrt(2), k, np.inf)
    np.fill_diagonal(p, 1.0)
    frame = lambda m: pd.DataFrame(m, index=avg.index, columns=avg.index)  # noqa: E731
    return NemenyiResult(frame(z), frame(p), frame(p < alpha),
                         critical_difference(k, n, alpha, "nemenyi"), nemenyi_q(k, alpha),
                         avg, alpha)


def holm(pvalues, alpha=0.05):
    """Holm's step-down adjustment: (adjusted p-values, reject flags), input order kept."""
    check_alpha(alpha)
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("pvalues must be a 1-d array of numbers in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted_sorted = np.minimum(np.maximum.accumulate((m - np.arange(m)) * p[order]), 1.0)
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return adjusted, adjusted < alpha


@dataclass(frozen=True)
class ControlResult:
    """Comparisons with a control learner.  statistic: z = (R_i - R_control) /
    sqrt(k (k + 1) / (6 N)) (positive: ranked worse than the control);
    pvalue: adjusted p-values (Bonferroni or Holm); reject: pvalue < alpha;
    critical_difference: Bonferroni-Dunn CD (None for Holm)."""
    statistic: pd.Series
    pvalue: pd.Series
    reject: pd.Series
    critical_difference: float | None
    average_ranks: pd.Series
    control: str
    alpha: float
    method: str


def _versus_control(scores, control, higher_is_better, tie_tolerance):
    table = score_table(scores)
    if control not in table.columns:
        raise ValueError(f"control {control!r} is not one of the learners {list(table.columns)}")
    n, k = table.shape
    avg = average_ranks(table, higher_is_better, tie_tolerance)
    others = avg.drop(control)
    z = (others - avg[control]) / _rank_se(k, n)
    return z, pd.Series(2 * stats.norm.sf(np.abs(z)), index=z.index), avg, n, k


def bonferroni_dunn_test(scores, control, alpha=0.05, higher_is_better=True, tie_tolerance=0.0):
    """Bonferroni-Dunn: each learner against ``control``, p-values times (k - 1)."""
    check_alpha(alpha)
    z, p, avg, n, k = _versus_control(scores, control, higher_is_better, tie_tolerance)
    adjusted = np.minimum(p * (k - 1), 1.0)
    return ControlResult(z, adjusted, adjusted < alpha,
                         critical_difference(k, n, alpha, "bonferroni-dunn"), avg, control,
                         alpha, "bonferroni-dunn")


def holm_test(scores, control, alpha=0.05, higher_is_better=True, tie_tolerance=0.0):
    """Holm's step-down procedure: each learner against ``control`` (Demsar 2006)."""
    check_alpha(alpha)
    z, p, avg, n, k = _versus_control(scores, control, higher_is_better, tie_tolerance)
    adjusted, reject = holm(p.to_numpy(), alpha)
    return ControlResult(z, pd.Series(adjusted, index=z.index), pd.Series(reject, index=z.index),
                         None, avg, control, alpha, "holm")
