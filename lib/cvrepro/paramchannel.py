"""Scheffer & Herbrich (1997): how much tuning parameters on the test set can
inflate a result ("the parameter channel").

A learner whose parameters can encode the labels of c test instances makes
those c instances hits.  If its honest hypothesis h had X hits among them,
the gain is c - X.  All distributions here are of the *total* number of extra
hits and are returned as pandas Series indexed by that number.

* Sec. 2, one test set of size m with ``hits`` hits: X is hypergeometric
  (:func:`one_shot_probability`).
* Sec. 3, n-fold CV with parameters tuned per fold: the gain is the sum of
  the folds' gains, computed by dynamic programming over the folds
  (convolution, :func:`cv_gain_pmf`); success means an average of z extra
  hits per fold, i.e. a total of at least n z.
* Sec. 4, n-fold CV with one parameter setting for all folds (two classes):
  at each of the c positions the parameters can only give the majority label
  over the n folds, worth Y extra hits with eq. 14; the lost hits are the
  folds' hypergeometric X_i (:func:`fixed_parameter_probability`).

The cost: ``c * n_classes`` trials of a greedy parameter search and
``c * H`` bits of parameters, H the class entropy of the test set.
"""
import math

import numpy as np
import pandas as pd
from scipy import stats


def even_folds(n_instances, n_hits, n_folds):
    """Fold sizes and per-fold hits when ``n_instances`` and ``n_hits`` are spread
    as evenly as integers allow (the first folds get the remainders)."""
    if n_folds < 1 or not 0 <= n_hits <= n_instances:
        raise ValueError("need n_folds >= 1 and 0 <= n_hits <= n_instances")

    def spread(total):
        q, r = divmod(int(total), n_folds)
        return [q + 1] * r + [q] * (n_folds - r)
    return spread(n_instances), spread(n_hits)


def _folds(c, fold_sizes, fold_hits):
    sizes, hits = np.atleast_1d(fold_sizes), np.atleast_1d(fold_hits)
    if sizes.shape != hits.shape or sizes.ndim != 1 or sizes.size == 0:
        raise ValueError("fold_sizes and fold_hits must be equal-length, non-empty sequences")
    if int(c) != c or c < 0:
        raise ValueError(f"c must be a non-negative integer, got {c}")
    for m, h in zip(sizes, hits):
        if int(m) != m or int(h) != h or not 0 <= h <= m:
            raise ValueError(f"each fold needs integer 0 <= hits <= size, got hits={h}, size={m}")
        if c > m:
            raise ValueError(f"c = {c} exceeds a test fold of {m} instances")
    return int(c), sizes.astype(int), hits.astype(int)


def _lost_hits_pmf(c, fold_sizes, fold_hits):
    """P(sum_i X_i = k), k = 0..n c: hits h had on the c leaked instances of each fold."""
    pmf = np.array([1.0])
    for m, h in zip(fold_sizes, fold_hits):
        pmf = np.convolve(pmf, stats.hypergeom.pmf(np.arange(c + 1), m, h, c))
    return pmf


def _at_least(pmf, threshold):
    return float(pmf[pmf.index >= threshold - 1e-9].sum())


def cv_gain_pmf(c, fold_sizes, fold_hits):
    """Distribution of the total gain ``sum_i (c - X_i)`` with c leaked labels per
    fold (Sec. 3; one fold is Sec. 2's one-shot train/test)."""
    c, sizes, hits = _folds(c, fold_sizes, fold_hits)
    lost = _lost_hits_pmf(c, sizes, hits)
    total = c * sizes.size
    return pd.Series(lost[::-1], index=pd.RangeIndex(0, total + 1, name="extra_hits"))


def cv_probability(z, c, fold_sizes, fold_hits):
    """P(average gain per fold >= z), i.e. P(sum_i (c - X_i) >= n z) (Sec. 3)."""
    return _at_least(cv_gain_pmf(c, fold_sizes, fold_hits), z * np.size(fold_sizes))


def one_shot_probability(z, c, test_size, hits):
    """P(c - X >= z): at least z extra hits from c leaked labels on one test set
    of ``test_size`` instances where h has ``hits`` hits (Sec. 2)."""
    return cv_probability(z, c, [test_size], [hits])


def majority_extra_hits_pmf(n_folds, default_rate):
    """Eq. 14: P(Y = y) for the extra hits at one position over n folds when the
    label given is the majority one, y ~ max(B, n - B), B ~ Binomial(n, p)."""
    if not 0 <= default_rate <= 1:
        raise ValueError(f"default_rate must be a probability, got {default_rate}")
    y = np.arange(n_folds + 1)
    b, b_flip = stats.binom.pmf(y, n_folds, default_rate), stats.binom.pmf(y, n_folds, 1 - default_rate)
    pmf = np.where(2 * y > n_folds, b + b_flip, np.where(2 * y == n_folds, b, 0.0))
    return pd.Series(pmf, index=pd.Index(y, name="extra_hits"))


def fixed_parameter_gain_pmf(c, fold_sizes, fold_hits, default_rate):
    """Distribution of the total gain ``sum_j Y_j - sum_i X_i`` (Sec. 4, two
    classes): Y_j from eq. 14 for each of the c positions, X_i hypergeometric
    lost hits of fold i.  Like the paper, it treats the labels at a position
    as binomial with the default (majority) class rate ``default_rate``."""
    c, sizes, hits = _folds(c, fold_sizes, fold_hits)
    gained = np.array([1.0])
    y = majority_extra_hits_pmf(sizes.size, default_rate).to_numpy()
    for _ in range(c):
        gained = np.convolve(gained, y)
    lost = _lost_hits_pmf(c, sizes, hits)
    total = np.convolve(gained, lost[::-1])  # index i <-> gain i - n c
    n_c = c * sizes.size
    return pd.Series(total, index=pd.RangeIndex(-n_c, n_c + 1, name="extra_hits"))


def fixed_parameter_probability(z, c, fold_sizes, fold_hits, default_rate):
    """P(sum_j Y_j - sum_i X_i >= n z): an average of z extra hits per fold (Sec. 4)."""
    return _at_least(fixed_parameter_gain_pmf(c, fold_sizes, fold_hits, default_rate),
                     z * np.size(fold_sizes))


def class_entropy(class_counts):
    """H in bits of a class distribution (counts or proportions)."""
    counts = np.asarray(class_counts, dtype=float)
    if counts.ndim != 1 or counts.size == 0 or np.any(counts < 0) or counts.sum() <= 0:
        raise ValueError("class_counts must be non-negative with a positive total")
    return float(stats.entropy(counts, base=2))


def trials_needed(c, n_classes):
    """Learning trials of the greedy search that finds the c labels: c x |classes|."""
    return int(c) * int(n_classes)


def channel_bits(c, entropy):
    """Parameter-channel capacity needed to transmit c labels: c x H bits."""
    return float(c) * float(entropy)


def smallest_c(probability, target=0.9, c_max=1000):
    """Smallest c >= 1 with ``probability(c) >= target`` (None if none up to
    ``c_max``), e.g. ``smallest_c(lambda c: one_shot_probability(6, c, 2000, 1700))``."""
    if not 0 < target <= 1:
        raise ValueError(f"target must be in (0, 1], got {target}")
    for c in range(1, int(c_max) + 1):
        if probability(c) >= target:
            return c
    return None


def parameters_for_bits(bits, n_values):
    """Parameters with ``n_values`` values each that carry at least ``bits`` bits."""
    return math.ceil(bits / math.log2(n_values) - 1e-12)
