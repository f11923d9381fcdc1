"""Confidence intervals for the mean difference between two learners.

Across data sets (one score per data set and learner): the paired t interval.
On one data set from r x k cross-validation folds: the same interval with
Nadeau & Bengio's (2003) corrected variance ``(1 / n + n_test / n_train)
var(d)`` (n_test / n_train = 1 / (k - 1) for k-fold CV, Bouckaert & Frank
2004), the interval the corrected t-test inverts: it excludes 0 exactly
when that test's two-sided p-value is below 1 - confidence.
"""
from dataclasses import dataclass

from scipy import stats

from .ttests import corrected_repeated_kfold_ttest, paired_ttest

__all__ = ["DifferenceInterval", "paired_difference_ci", "corrected_difference_ci"]


@dataclass(frozen=True)
class DifferenceInterval:
    """mean_difference (a - b) and its interval [low, high] at ``confidence``; se and df of the t."""
    mean_difference: float
    low: float
    high: float
    se: float
    df: float
    confidence: float


def _interval(test, confidence):
    half = stats.t.isf((1 - confidence) / 2, test.df) * test.std_error
    m = test.mean_difference
    return DifferenceInterval(m, m - half, m + half, test.std_error, test.df, confidence)


def _check(confidence):
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def paired_difference_ci(scores_a, scores_b, confidence=0.95):
    """Paired t interval of mean(a - b) (R's ``t.test(a, b, paired = TRUE)$conf.int``)."""
    _check(confidence)
    return _interval(paired_ttest(scores_a, scores_b), confidence)


def corrected_difference_ci(scores_a, scores_b, n_folds, confidence=0.95):
    """Corrected interval of mean(a - b) over the r x ``n_folds`` fold scores of repeated k-fold CV."""
    _check(confidence)
    return _interval(corrected_repeated_kfold_ttest(scores_a, scores_b, n_folds), confidence)
