"""Two learners, one data set: t-tests on paired per-fold scores.

All functions take the two learners' scores on the same folds (same order)
and test the mean difference ``scores_a - scores_b``.  Differences that are constant,
or constant up to floating-point noise (R's ``t.test`` rule: standard error
below ``10 eps |mean|``, e.g. accuracies c/50 against (c-1)/50), make the t
statistic undefined: that is a ``ValueError``, as R's "data are essentially
constant", never a silent p-value.
"""
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._checks import as_scores, check_alternative, paired, require_spread


@dataclass(frozen=True)
class TTestResult:
    """statistic: t; pvalue; df: degrees of freedom; mean_difference: mean of
    ``a - b``; std_error: the (possibly corrected) standard error of that mean."""
    statistic: float
    pvalue: float
    df: float
    mean_difference: float
    std_error: float
    alternative: str = "two-sided"


@dataclass(frozen=True)
class FTestResult:
    """statistic: F; pvalue; df_num, df_den: degrees of freedom."""
    statistic: float
    pvalue: float
    df_num: int
    df_den: int


def _t_pvalue(t, df, alternative):
    if alternative == "greater":
        return float(stats.t.sf(t, df))
    if alternative == "less":
        return float(stats.t.cdf(t, df))
    return float(2 * stats.t.sf(abs(t), df))


def paired_ttest(scores_a, scores_b, alternative="two-sided"):
    """Plain paired t-test over folds (scipy's ``ttest_rel``), df = n - 1.

    Known to be optimistic on cross-validation folds because the training sets
    overlap (Dietterich 1998); see the corrected tests below.
    """
    a, b = paired(scores_a, scores_b)
    check_alternative(alternative)
    d = a - b
    require_spread(d)
    res = stats.ttest_rel(a, b, alternative=alternative)
    se = d.std(ddof=1) / np.sqrt(d.size)
    return TTestResult(float(res.statistic), float(res.pvalue), float(d.size - 1),
                       float(d.mean()), float(se), alternative)


def corrected_resampled_ttest(scores_a, scores_b, test_train_ratio, alternative="two-sided"):
    """Nadeau & Bengio's (2003) corrected resampled t-test.

    For J paired resampling scores, ``t = mean(d) / sqrt((1/J + n_test/n_train) var(d))``
    with J - 1 degrees of freedom; ``test_train_ratio`` is n_test / n_train.
    With ``test_train_ratio=0`` it is the plain paired t-test.
    """
    a, b = paired(scores_a, scores_b)
    check_alternative(alternative)
    if test_train_ratio < 0:
        raise ValueError(f"test_train_ratio must be >= 0, got {test_train_ratio}")
    d = a - b
    require_spread(d)
    var = d.var(ddof=1)
    se = float(np.sqrt((1.0 / d.size + test_train_ratio) * var))
    t = float(d.mean() / se)
    df = d.size - 1
    return TTestResult(t, _t_pvalue(t, df, alternative), float(df), float(d.mean()), se,
                       alternative)


def corrected_repeated_kfold_ttest(scores_a, scores_b, n_folds, alternative="two-sided"):
    """Bouckaert & Frank's (2004) corrected repeated k-fold cv test.

    The scores are the r x k per-fold scores of r repetitions of k-fold
    cross-validation (any order, flattened if 2-d).  It is the corrected
    resampled t-test with n_test / n_train = 1 / (k - 1) and k r - 1 degrees
    of freedom, which is WEKA's "Paired T-Tester (corrected)" when each fold
    holds exactly 1/k of the data (WEKA uses the actual instance counts).
    """
    a = np.asarray(scores_a, dtype=float).ravel()
    b = np.asarray(scores_b, dtype=float).ravel()
    if n_folds < 2:
        raise ValueError(f"n_folds must be >= 2, got {n_folds}")
    if a.size % n_folds or b.size % n_folds:
        raise ValueError(
            f"expected r x {n_folds} per-fold scores, got {a.size} and {b.size} values")
    return corrected_resampled_ttest(a, b, 1.0 / (n_folds - 1), alternative)


def _five_by_two(scores_a, scores_b):
    a = as_scores(scores_a, "scores_a", ndim=2)
    b = as_scores(scores_b, "scores_b", ndim=2)
    if a.shape != (5, 2) or b.shape != (5, 2):
        raise ValueError(
            "5x2cv tests need scores of shape (5, 2) (replication x fold), "
            f"got {a.shape} and {b.shape}")
    d = a - b
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if s2.sum() <= 0:
        raise ValueError("the two folds of every replication have equal score "
                         "differences: the 5x2cv variance estimate is zero")
    return d, s2


def paired_ttest_5x2cv(scores_a, scores_b):
    """Dietterich's (1998) 5x2cv paired t-test (two-sided).

    ``scores_*[i, j]``: score on fold j of replication i.  The statistic is the
    first difference ``d[0, 0]`` over ``sqrt(mean_i s_i^2)``, 5 df.
    """
    d, s2 = _five_by_two(scores_a, scores_b)
    se = float(np.sqrt(s2.mean()))
    t = float(d[0, 0] / se)
    return TTestResult(t, _t_pvalue(t, 5, "two-sided"), 5.0, float(d[0, 0]), se)


def combined_ftest_5x2cv(scores_a, scores_b):
    """Alpaydin's (1999) combined 5x2cv F-test: ``sum d^2 / (2 sum s_i^2)`` ~ F(10, 5)."""
    d, s2 = _five_by_two(scores_a, scores_b)
    f = float((d ** 2).sum() / (2 * s2.sum()))
    return FTestResult(f, float(stats.f.sf(f, 10, 5)), 10, 5)
