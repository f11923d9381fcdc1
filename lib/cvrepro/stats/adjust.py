"""P-value adjustments for a family of tests, and for all pairs of k learners.

:func:`adjust_pvalues`: Bonferroni, Holm, Hommel and Benjamini-Hochberg come
from ``statsmodels.stats.multitest.multipletests`` (pinned 0.15); Finner
(1993), which statsmodels lacks, is :func:`finner`. For the k (k - 1) / 2
pairwise hypotheses of k learners, whose truths are logically related, Shaffer's
static procedure (Shaffer 1986) and Bergmann & Hommel's (1988) are
:func:`shaffer` and :func:`bergmann_hommel`, as Garcia & Herrera (2008, JMLR 9) define their
adjusted p-values.
"""
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
from statsmodels.stats.multitest import multipletests

__all__ = ["ADJUSTMENTS", "PAIR_ADJUSTMENTS", "adjust_pvalues", "finner", "shaffer", "bergmann_hommel",
           "exhaustive_sets"]

_STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "hommel": "hommel", "bh": "fdr_bh"}
ADJUSTMENTS = (*_STATSMODELS, "finner")
PAIR_ADJUSTMENTS = ("shaffer", "bergmann")
MAX_BERGMANN_LEARNERS = 9


def _pvalues(pvalues):
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("pvalues must be a non-empty 1-d array of numbers in [0, 1]")
    return p


def _step_down(p, factors):
    """Sorted ``factors(p_sorted)``, made monotone (running maximum) and capped at 1; input order kept."""
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(np.maximum.accumulate(factors(p[order])), 1.0)
    out = np.empty(p.size)
    out[order] = adjusted
    return out


def finner(pvalues):
    """Finner's step-down adjustment: ``1 - (1 - p_(j)) ** (m / j)``, made monotone."""
    p = _pvalues(pvalues)
    m = p.size
    return _step_down(p, lambda ps: 1 - (1 - ps) ** (m / np.arange(1, m + 1)))


def adjust_pvalues(pvalues, method="holm"):
    """Adjusted p-values of one family, in the input order: ``method`` one of :data:`ADJUSTMENTS`
    (``"bh"``: Benjamini-Hochberg, controls the false discovery rate; the others the family-wise
    error)."""
    p = _pvalues(pvalues)
    if method == "finner":
        return finner(p)
    if method not in _STATSMODELS:
        raise ValueError(f"unknown adjustment {method!r}; use one of {ADJUSTMENTS} "
                         f"(for all pairs of learners also {PAIR_ADJUSTMENTS})")
    return multipletests(p, method=_STATSMODELS[method])[1]


def _pair_pvalues(pvalues, n_learners):
    p = _pvalues(pvalues)
    if n_learners < 2 or p.size != comb(n_learners, 2):
        raise ValueError(f"need the {comb(max(n_learners, 2), 2)} p-values of all pairs of {n_learners} "
                         f"learners (in itertools.combinations order), got {p.size}")
    return p


@cache
def _true_counts(k):
    """S(k): the possible numbers of simultaneously true pairwise hypotheses (Shaffer 1986)."""
    if k <= 1:
        return frozenset({0})
    return frozenset(comb(j, 2) + s for j in range(1, k + 1) for s in _true_counts(k - j))


def shaffer(pvalues, n_learners):
    """Shaffer's static procedure: the j-th smallest p-value times t_j, the most hypotheses that can
    be true when j - 1 are false, made monotone. ``pvalues``: all pairs in
    ``itertools.combinations(range(n_learners), 2)`` order."""
    p = _pair_pvalues(pvalues, n_learners)
    counts = np.array(sorted(_true_counts(n_learners)))
    m = p.size
    t = np.array([counts[counts <= m - j].max() for j in range(m)])
    return _step_down(p, lambda ps: t * ps)


def _set_partitions(k):
    """Every partition of range(k) as a block label per element (restricted growth strings)."""
    rows = [[0]]
    for _ in range(1, k):
        rows = [r + [b] for r in rows for b in range(max(r) + 2)]
    return np.array(rows)


@cache
def exhaustive_sets(k):
    """The exhaustive sets of pairwise hypotheses of k learners (Garcia & Herrera 2008),
    as a boolean matrix (set x pair): the pairs within the blocks of a partition of the learners;
    the empty set is left out."""
    if not 2 <= k <= MAX_BERGMANN_LEARNERS:
        raise ValueError(f"Bergmann-Hommel needs 2 to {MAX_BERGMANN_LEARNERS} learners, got {k}: use "
                         "'shaffer' for more (its steps grow with the Bell number of k)")
    labels = _set_partitions(k)
    i, j = np.array(list(combinations(range(k), 2))).T
    sets = labels[:, i] == labels[:, j]
    sets = sets[sets.any(axis=1)]
    sets.flags.writeable = False   # cached: shared by every call
    return sets


def bergmann_hommel(pvalues, n_learners, monotone=False):
    """Bergmann-Hommel: for pair i, the largest ``|I| min_{h in I} p_h`` over the exhaustive sets I
    that hold i, capped at 1: the smallest level at which the closed test rejects pair i (Garcia &
    Herrera 2008). ``monotone=True`` also takes the running maximum over the sorted raw
    p-values, as R's scmamp does (never smaller). ``pvalues`` as for :func:`shaffer`; up to 9 learners."""
    p = _pair_pvalues(pvalues, n_learners)
    sets = exhaustive_sets(n_learners)
    bound = sets.sum(axis=1) * np.where(sets, p, np.inf).min(axis=1)
    adjusted = np.minimum(np.where(sets, bound[:, None], 0.0).max(axis=0), 1.0)
    return _step_down(p, lambda ps: adjusted[np.argsort(p, kind="stable")]) if monotone else adjusted
