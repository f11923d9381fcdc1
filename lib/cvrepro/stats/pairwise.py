"""Two learners: McNemar (one test set), sign test and Wilcoxon signed-rank
(over folds or, more usually, over data sets).

Scores are "higher is better" (accuracy, AUROC): pass error rates negated, or
swap the learners.  Score differences are rounded to ``decimals`` places
(default 10) before ties and zeros are detected, so values that are equal in
decimal arithmetic tie as they do in the papers' hand computations; pass
``decimals=None`` to use the raw floating-point differences.
"""
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._checks import check_alpha, check_alternative, differences, paired

DECIMALS = 10


# ---------------------------------------------------------------- McNemar ---

@dataclass(frozen=True)
class McNemarResult:
    """statistic: min(b, c) (exact) or the chi-squared value; pvalue;
    b: a right and b wrong; c: a wrong and b right."""
    statistic: float
    pvalue: float
    b: int
    c: int
    exact: bool
    correction: bool


def contingency_table(y_true, y_pred_a, y_pred_b):
    """2 x 2 counts ``[[both right, only a right], [only b right, both wrong]]``."""
    y_true, y_pred_a, y_pred_b = (np.asarray(v) for v in (y_true, y_pred_a, y_pred_b))
    if not y_true.shape == y_pred_a.shape == y_pred_b.shape or y_true.ndim != 1:
        raise ValueError("y_true, y_pred_a and y_pred_b must be 1-d of equal length, got "
                         f"{y_true.shape}, {y_pred_a.shape}, {y_pred_b.shape}")
    ra, rb = y_pred_a == y_true, y_pred_b == y_true
    return np.array([[np.sum(ra & rb), np.sum(ra & ~rb)],
                     [np.sum(~ra & rb), np.sum(~ra & ~rb)]])


def mcnemar(table, exact=True, correction=True):
    """McNemar's test on a 2 x 2 table of paired right/wrong counts.

    Only the discordant cells b = ``table[0, 1]`` and c = ``table[1, 0]`` matter.
    ``exact=True``: two-sided binomial test of b out of b + c at 1/2
    (scipy's ``binomtest``).  ``exact=False``: chi-squared with one df,
    ``(|b - c| - 1)^2 / (b + c)`` with the continuity correction,
    ``(b - c)^2 / (b + c)`` without.  As in R's ``mcnemar.test``, the
    correction is applied only when b != c: b = c gives statistic 0 and
    pvalue 1 (statsmodels instead gives ``1 / (b + c)``).  With no discordant
    pair (b = c = 0) the learners never disagree: the documented result is
    statistic 0 and pvalue 1 (R gives NaN).
    """
    t = np.asarray(table)
    if t.shape != (2, 2):
        raise ValueError(f"table must be 2 x 2, got shape {t.shape}")
    if not np.all(np.isfinite(t.astype(float))) or np.any(t < 0) or np.any(t != np.round(t)):
        raise ValueError("table must hold non-negative integer counts")
    b, c = int(t[0, 1]), int(t[1, 0])
    if b + c == 0:
        return McNemarResult(0.0, 1.0, b, c, exact, correction)
    if exact:
        stat = float(min(b, c))
        p = stats.binomtest(b, b + c, 0.5).pvalue
    else:
        stat = (abs(b - c) - (1.0 if correction and b != c else 0.0)) ** 2 / (b + c)
        p = stats.chi2.sf(stat, 1)
    return McNemarResult(float(stat), float(p), b, c, exact, correction)


# -------------------------------------------------------------- sign test ---

@dataclass(frozen=True)
class SignTestResult:
    """statistic: wins of a (ties counted half); pvalue; wins_a, wins_b: wins
    with ties counted half to each side; ties; n: number of pairs;
    critical_wins: wins one learner needs for significance at ``alpha``
    (None if unreachable with n pairs)."""
    statistic: float
    pvalue: float
    wins_a: float
    wins_b: float
    ties: int
    n: int
    critical_wins: int | None
    alpha: float
    alternative: str


def sign_test_critical_wins(n, alpha=0.05, alternative="two-sided", method="exact"):
    """Smallest number of wins out of ``n`` that is significant at ``alpha``.

    ``method="exact"``: smallest w with P(X >= w) <= alpha (alpha / 2 if
    two-sided), X ~ Binomial(n, 1/2).  ``method="normal"``: Demsar's (2006)
    approximation ``ceil(n/2 + z sqrt(n)/2)``, which the Japkowicz tutorial's
    w_0.05 = 8 for ten data sets (one-tailed) follows; the exact value is 9.
    Returns None when no number of wins out of n is significant.
    """
    check_alpha(alpha)
    check_alternative(alternative)
    level = alpha / 2 if alternative == "two-sided" else alpha
    if method == "normal":
        w = math.ceil(n / 2 + stats.norm.isf(level) * math.sqrt(n) / 2)
    elif method == "exact":
        # sf(w - 1) = P(X >= w); it decreases in w.
        w = next((w for w in range(n + 1) if stats.binom.sf(w - 1, n, 0.5) <= level), None)
    else:
        raise ValueError(f"method must be 'exact' or 'normal', got {method!r}")
    return w if w is not None and w <= n else None


def sign_test(scores_a, scores_b, alpha=0.05, alternative="two-sided",
              critical="exact", decimals=DECIMALS):
    """Sign test: counts of wins, ties counted half to each side (as the
    Japkowicz tutorial and Demsar 2006 do).

    The p-value is the binomial test (scipy's ``binomtest``) on the wins after
    splitting ties evenly; with an odd number of ties one tie is ignored
    (Demsar 2006), so all ties give pvalue 1.  ``alternative="greater"``: a
    is better.  ``critical`` is the method of :func:`sign_test_critical_wins`.
    """
    a, b = paired(scores_a, scores_b)
    check_alpha(alpha)
    check_alternative(alternative)
    d = differences(a, b, decimals)
    pos, neg = int(np.sum(d > 0)), int(np.sum(d < 0))
    ties = d.size - pos - neg
    p = stats.binomtest(pos + ties // 2, d.size - ties % 2, 0.5, alternative=alternative).pvalue
    wins_a = pos + ties / 2
    return SignTestResult(wins_a, float(p), wins_a, neg + ties / 2, ties, d.size,
                          sign_test_critical_wins(d.size, alpha, alternative, critical),
                          alpha, alternative)


# ------------------------------------------------------ Wilcoxon signed-rank ---

@dataclass(frozen=True)
class WilcoxonResult:
    """statistic: T = min(R+, R-); pvalue (scipy's ``wilcoxon``); r_plus,
    r_minus: rank sums of positive / negative differences (a better / b
    better); n: pairs entering the test; critical_value: the exact critical T
    for n pairs at ``alpha`` without ties (reject when T <= it; None if none)."""
    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    critical_value: int | None
    zero_method: str
    alpha: float
    alternative: str


def wilcoxon_critical_value(n, alpha=0.05, alternative="two-sided"):
    """Largest t with P(T <= t) <= alpha (alpha / 2 if two-sided) under the exact
    no-ties null distribution of T for n pairs; None if even T = 0 is not."""
    check_alpha(alpha)
    check_alternative(alternative)
    level = alpha / 2 if alternative == "two-sided" else alpha
    # P(sum of a random subset of {1..n} = s), built one rank at a time.
    pmf = np.zeros(n * (n + 1) // 2 + 1)
    pmf[0] = 1.0
    for r in range(1, n + 1):
        pmf[r:] = 0.5 * (pmf[r:] + pmf[:-r])
        pmf[:r] *= 0.5
    below = np.flatnonzero(np.cumsum(pmf) <= level * (1 + 1e-12))
    return int(below[-1]) if below.size else None


def _signed_rank_sums(d, zero_method):
    if zero_method == "wilcox":
        d = d[d != 0]
    ranks = stats.rankdata(np.abs(d))
    r_plus, r_minus = ranks[d > 0].sum(), ranks[d < 0].sum()
    if zero_method == "zsplit":
        zero = ranks[d == 0].sum() / 2
        r_plus, r_minus = r_plus + zero, r_minus + zero
    n = d.size if zero_method != "pratt" else int(np.sum(d != 0))
    return float(r_plus), float(r_minus), n


def wilcoxon_signed_rank(scores_a, scores_b, zero_method="wilcox", alternative="two-sided",
                         alpha=0.05, method="auto", decimals=DECIMALS):
    """Wilcoxon signed-rank test with R+, R- and T = min(R+, R-).

    Zero differences (equal scores): ``"wilcox"`` (default) removes them
    before ranking, as the Japkowicz tutorial does; ``"zsplit"`` ranks them
    and splits their ranks evenly between R+ and R-, and with an odd number
    of zeros first ignores one of them (Demsar 2006, Sec. 3.1.3; ``n`` then
    counts the pairs kept); ``"pratt"`` ranks them and drops their ranks.  The p-value is scipy's
    ``wilcoxon`` with the same zero method (``method="auto"``: exact for up
    to 50 pairs without ties or zeros).  All differences zero is a
    ``ValueError``: there is nothing to rank.
    """
    a, b = paired(scores_a, scores_b)
    check_alpha(alpha)
    check_alternative(alternative)
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError(f"zero_method must be 'wilcox', 'pratt' or 'zsplit', got {zero_method!r}")
    d = differences(a, b, decimals)
    if not np.any(d):
        raise ValueError("all score differences are zero: the Wilcoxon test is undefined")
    zeros = np.flatnonzero(d == 0)
    if zero_method == "zsplit" and zeros.size % 2:
        d = np.delete(d, zeros[0])   # Demsar: with an odd number of zeros, one is ignored
    r_plus, r_minus, n = _signed_rank_sums(d, zero_method)
    p = stats.wilcoxon(d, zero_method=zero_method, alternative=alternative, method=method).pvalue
    return WilcoxonResult(min(r_plus, r_minus), float(p), r_plus, r_minus, n,
                          wilcoxon_critical_value(n, alpha, alternative), zero_method,
                          alpha, alternative)
