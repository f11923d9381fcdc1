"""Two learners, one data set: the Bayesian correlated t-test on repeated k-fold CV scores.

Corani & Benavoli (2015), "A Bayesian approach for comparing cross-validated
algorithms on multiple data sets" (Machine Learning 100), Sec. 3, and
Benavoli, Corani, Demsar & Zaffalon (2017), "Time for a change" (JMLR 18).
For n = r k paired scores of r repetitions of k-fold CV with differences
d = a - b, the posterior of the mean difference (Jeffreys-like prior, with
the correlation rho = 1/k between scores that share training data) is a
Student t with n - 1 degrees of freedom, location mean(d) and scale
``sqrt((1/n + rho/(1 - rho)) var(d))``; rho/(1 - rho) = 1/(k - 1) is Nadeau
& Bengio's n_test/n_train. With a region of practical equivalence (rope) of
half-width ``rope``, the posterior gives three probabilities: a is better by
more than the rope, the two are practically equivalent, b is better.

The same computation as ``baycomp.CorrelatedTTest`` (baycomp 1.0.3; its
``diff`` is ``y - x``, so its ``p_left`` is our ``p_a_better`` when
``x = a``); tests/test_stats_bayesian.py checks the two against each other.
We keep our own so that the result has the shape of the other tests here and
bad input fails with a clear error: differences constant up to floating-point
noise (R's ``t.test`` rule, see :mod:`.ttests`) are a ``ValueError``
(baycomp returns a point mass, or P = 1 from noise), as for the t-tests.
"""
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._checks import as_scores, require_spread

__all__ = ["BayesianTTestResult", "bayesian_correlated_ttest"]


@dataclass(frozen=True)
class BayesianTTestResult:
    """Posterior of the mean difference ``a - b``: a Student t (``df``, ``mean_difference``,
    ``scale``). ``p_a_better``: P(difference > rope); ``p_rope``: P(|difference| <= rope);
    ``p_b_better``: P(difference < -rope). ``rope``: the half-width used."""
    p_a_better: float
    p_rope: float
    p_b_better: float
    mean_difference: float
    scale: float
    df: float
    rope: float

    @property
    def posterior(self):
        """The posterior distribution of the mean difference (a frozen scipy.stats.t)."""
        return stats.t(self.df, loc=self.mean_difference, scale=self.scale)

    def decision(self, threshold: float = 0.95) -> str:
        """``"a"`` or ``"b"`` (better with posterior probability above ``threshold``),
        ``"equivalent"`` (rope above it) or ``"undecided"``."""
        if not 0.5 <= threshold < 1:
            raise ValueError(f"threshold must lie in [0.5, 1), got {threshold}")
        if self.p_a_better > threshold:
            return "a"
        if self.p_b_better > threshold:
            return "b"
        if self.p_rope > threshold:
            return "equivalent"
        return "undecided"


def bayesian_correlated_ttest(scores_a, scores_b, n_folds, rope=0.0):
    """Bayesian correlated t-test of ``a - b`` on r x k per-fold scores.

    ``scores_a``, ``scores_b``: the two learners' scores on the same folds
    (r repetitions of ``n_folds``-fold CV, any order, flattened if 2-d);
    higher is better when read as "a better". ``rope``: half-width of the
    region of practical equivalence, in the scores' unit (0: no rope, then
    ``p_rope`` is 0). Returns a :class:`BayesianTTestResult`.
    """
    a = as_scores(np.asarray(scores_a, dtype=float).ravel(), "scores_a", min_size=2)
    b = as_scores(np.asarray(scores_b, dtype=float).ravel(), "scores_b", min_size=2)
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have equal length, got {a.size} and {b.size}")
    if not isinstance(n_folds, (int, np.integer)) or isinstance(n_folds, bool) or n_folds < 2:
        raise ValueError(f"n_folds must be an integer >= 2, got {n_folds!r}")
    if a.size % n_folds:
        raise ValueError(f"expected r x {n_folds} per-fold scores, got {a.size} values")
    if not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be a finite number >= 0, got {rope}")
    d = a - b
    n = d.size
    require_spread(d)
    var = d.var(ddof=1)
    scale = float(np.sqrt((1.0 / n + 1.0 / (n_folds - 1)) * var))
    mean = float(d.mean())
    p_b = float(stats.t.cdf(-rope, n - 1, loc=mean, scale=scale))   # the posterior, without freezing it (slow)
    p_a = float(stats.t.sf(rope, n - 1, loc=mean, scale=scale))
    return BayesianTTestResult(p_a, max(0.0, 1.0 - p_a - p_b), p_b, mean, scale, float(n - 1), float(rope))
