"""Stopping rules for repeated cross-validation, and Raeder et al.'s
reproducibility metric R.

Every rule is fed one CV iteration at a time: ``rule.update(estimate,
oof_proba)`` returns True when the rule stops.  ``estimate`` is that
iteration's performance estimate (e.g. AUROC averaged over its folds);
``oof_proba`` its out-of-fold probability estimates, one per instance (a 1-d
array of positive-class probabilities, or an n x classes matrix; an n x 2
matrix is reduced to its second column so that both binary forms agree, and
more classes are flattened instance by instance).  ``n_iterations`` counts
the iterations consumed, ``estimate`` is their mean (the reported estimate),
and ``capped`` is True when the rule stopped only because
``max_iterations`` was reached.  ``replay`` applies a rule offline to stored
iterations in a given order (Raeder et al.'s Table III: 50 random orderings
of 500 runs), and :func:`replay_reproducibility` computes a Table III row.

Papers: Raeder, Hoens & Chawla (2010), Sec. V (rank and KS criteria, R);
Moreno-Torres, Saez & Herrera (2012), Algorithm 5 (Pearson criterion).
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.utils import check_random_state

from .progress import progress_bar

DEFAULT_MAX_ITERATIONS = 500  # the number of stored runs in Raeder et al.


@dataclass(frozen=True)
class StopResult:
    """Where a replay stopped: iterations consumed, their mean estimate, capped."""
    n_iterations: int
    estimate: float
    capped: bool


def _as_proba(oof_proba):
    p = np.asarray(oof_proba, dtype=float)
    if p.ndim == 2 and p.shape[1] == 2:
        p = p[:, 1]
    elif p.ndim == 2:
        p = p.ravel()
    elif p.ndim != 1:
        raise ValueError(f"oof_proba must be 1-d or an n x classes matrix, got shape {p.shape}")
    if p.size == 0:
        raise ValueError("oof_proba is empty")
    if not np.all(np.isfinite(p)):
        raise ValueError("oof_proba contains NaN or infinite values "
                         "(every instance needs an out-of-fold estimate)")
    return p


class StoppingRule:
    """Base class: bookkeeping, the iteration cap, and offline replay."""

    needs_proba = False

    def __init__(self, max_iterations=DEFAULT_MAX_ITERATIONS):
        if int(max_iterations) != max_iterations or max_iterations < 1:
            raise ValueError(f"max_iterations must be a positive integer, got {max_iterations}")
        self.max_iterations = int(max_iterations)
        self.reset()

    def reset(self):
        """Forget all iterations seen so far."""
        self.n_iterations = 0
        self.capped = False
        self.stopped = False
        self._sum = 0.0
        self._reset_state()

    def _reset_state(self):
        pass

    def _converged(self, estimate, oof_proba):
        raise NotImplementedError

    @property
    def estimate(self):
        """Mean of the estimates consumed so far (NaN before the first)."""
        return self._sum / self.n_iterations if self.n_iterations else float("nan")

    def update(self, estimate, oof_proba=None):
        """Consume one iteration; True means stop (converged or capped)."""
        if self.stopped:
            raise RuntimeError("the rule has already stopped; call reset() to start again")
        estimate = float(estimate)
        if not np.isfinite(estimate):
            raise ValueError(f"estimate must be a finite number, got {estimate}")
        if self.needs_proba and oof_proba is None:
            raise ValueError(f"{type(self).__name__} needs the out-of-fold probabilities")
        self.n_iterations += 1
        self._sum += estimate
        try:
            converged = self._converged(estimate, oof_proba)
        except ValueError:  # bad oof_proba: the iteration does not count
            self.n_iterations -= 1
            self._sum -= estimate
            raise
        if converged:
            self.stopped = True
        elif self.n_iterations >= self.max_iterations:
            self.stopped = self.capped = True
        return self.stopped

    def replay(self, estimates, probas=None, order=None):
        """Apply the rule to stored iterations ``estimates[t]`` (and ``probas[t]``)
        taken in ``order`` (default: as stored).  Running out of stored
        iterations before the rule stops counts as capped.  Returns a StopResult."""
        estimates = np.asarray(estimates, dtype=float)
        if estimates.ndim != 1 or estimates.size == 0:
            raise ValueError(f"estimates must be a non-empty 1-d sequence, got shape {estimates.shape}")
        if probas is not None:
            probas = np.asarray(probas, dtype=float)
            if probas.shape[0] != estimates.size:
                raise ValueError(f"probas has {probas.shape[0]} iterations, estimates {estimates.size}")
        order = np.arange(estimates.size) if order is None else np.asarray(order)
        if (order.ndim != 1 or order.size == 0 or not np.issubdtype(order.dtype, np.integer)
                or order.min() < 0 or order.max() >= estimates.size
                or np.unique(order).size != order.size):
            raise ValueError("order must be distinct iteration indices into the stored sequence")
        self.reset()
        for t in order:
            if self.update(estimates[t], None if probas is None else probas[t]):
                break
        else:
            self.stopped = self.capped = True
        return StopResult(self.n_iterations, self.estimate, self.capped)

    def __repr__(self):
        params = ", ".join(f"{k}={v!r}" for k, v in self._params().items())
        return f"{type(self).__name__}({params})"

    def _params(self):
        return {"max_iterations": self.max_iterations}


class FixedIterations(StoppingRule):
    """Stop after exactly ``n`` iterations (e.g. Fixed-10, Fixed-50 in Table III)."""

    def __init__(self, n, max_iterations=None):
        if int(n) != n or n < 1:
            raise ValueError(f"n must be a positive integer, got {n}")
        self.n = int(n)
        super().__init__(self.n if max_iterations is None else max_iterations)

    def _converged(self, estimate, oof_proba):
        return self.n_iterations >= self.n

    def _params(self):
        return {"n": self.n, "max_iterations": self.max_iterations}


def _correlation(x, y):
    """Pearson correlation; identical vectors give exactly 1, and a constant
    vector against a different one gives NaN (never counted as converged)."""
    if np.array_equal(x, y):
        return 1.0
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


class _RunningMeanCorrelation(StoppingRule):
    """Correlation between the running means of the per-instance probability
    estimates after iterations k - 1 and k; stop when it reaches the threshold."""

    needs_proba = True
    rank = False  # Spearman = Pearson on ranks

    def __init__(self, threshold=0.9999, max_iterations=DEFAULT_MAX_ITERATIONS):
        if not -1 < threshold <= 1:
            raise ValueError(f"threshold must be in (-1, 1], got {threshold}")
        self.threshold = threshold
        super().__init__(max_iterations)

    def _reset_state(self):
        self._mean = None
        self._compared = None  # the running mean as correlated (ranked for Spearman)
        self.last_correlation = float("nan")

    def _converged(self, estimate, oof_proba):
        p = _as_proba(oof_proba)
        if self._mean is not None and p.shape != self._mean.shape:
            raise ValueError(f"oof_proba has {p.size} values, earlier iterations {self._mean.size}")
        first = self._mean is None
        self._mean = p.copy() if first else self._mean + (p - self._mean) / self.n_iterations
        previous = self._compared
        self._compared = stats.rankdata(self._mean) if self.rank else self._mean
        if first:
            return False
        self.last_correlation = _correlation(previous, self._compared)
        return self.last_correlation >= self.threshold

    def _params(self):
        return {"threshold": self.threshold, "max_iterations": self.max_iterations}


class RankCriterion(_RunningMeanCorrelation):
    """Raeder et al.'s rank criterion: Spearman correlation between the running
    means of the per-instance probability estimates at successive iterations;
    stop when it is at least ``threshold`` (they recommend 1 - 1e-4).  The
    first possible stop is after two iterations."""

    rank = True


class PearsonCriterion(_RunningMeanCorrelation):
    """Moreno-Torres et al.'s Algorithm 5: Pearson correlation between the
    accumulated averages after k - 1 and k iterations, stop at 0.9999; the
    returned k (``n_iterations``) is their Conv_ij.  Algorithm 5 does not say
    what the averaged vectors hold ("accumulated average performances"); as in
    the rank criterion of Raeder et al., whom they follow, we average the
    per-instance out-of-fold probability estimates (a documented choice)."""


def ks_statistic(a, b):
    """Two-sample Kolmogorov-Smirnov D, max |F_a - F_b| (the statistic of scipy's
    ``ks_2samp``, without its p-value, which costs a hundred times more)."""
    a, b = np.sort(a), np.sort(b)
    x = np.concatenate([a, b])
    f_a = np.searchsorted(a, x, side="right") / a.size
    f_b = np.searchsorted(b, x, side="right") / b.size
    return float(np.max(np.abs(f_a - f_b)))


class KSCriterion(StoppingRule):
    """Raeder et al.'s Kolmogorov-Smirnov criterion: the two-sample D statistic
    between the estimates of the odd (1st, 3rd, ...)
    and even (2nd, 4th, ...) iterations; stop when D is below ``threshold``
    (0.1 or 0.2 in their Table III).  The first possible stop is after two."""

    def __init__(self, threshold=0.1, max_iterations=DEFAULT_MAX_ITERATIONS):
        if not 0 < threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], got {threshold}")
        self.threshold = threshold
        super().__init__(max_iterations)

    def _reset_state(self):
        self._estimates = []
        self.last_statistic = float("nan")

    def _converged(self, estimate, oof_proba):
        self._estimates.append(estimate)
        if len(self._estimates) < 2:
            return False
        estimates = np.asarray(self._estimates)
        self.last_statistic = ks_statistic(estimates[1::2], estimates[0::2])
        return self.last_statistic < self.threshold

    def _params(self):
        return {"threshold": self.threshold, "max_iterations": self.max_iterations}


def reproducibility(estimates_i, estimates_j):
    """Raeder et al.'s reproducibility R (eqs. 1-2) of two learners' paired estimates.

    ``R'(i, j) = mean_a I(e_ia, e_ja)`` with I = 1 if greater, 1/2 if equal
    (exact float equality), 0 if less; ``R = max(2 R'(i, j) - 1, 2 R'(j, i) - 1)``:
    1 when one learner wins every pair, 0 when each wins half the time.
    """
    a = np.asarray(estimates_i, dtype=float)
    b = np.asarray(estimates_j, dtype=float)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:
        raise ValueError(f"need two non-empty 1-d samples of equal length, got {a.shape} and {b.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("estimates contain NaN or infinite values")
    r_ij = np.mean(np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0)))
    return float(max(2 * r_ij - 1, 2 * (1 - r_ij) - 1))


def random_orderings(n_stored, n_orderings=50, random_state=None):
    """``n_orderings`` random permutations of ``range(n_stored)`` (rows)."""
    rng = check_random_state(random_state)
    return np.array([rng.permutation(n_stored) for _ in range(n_orderings)])


def replay_orderings(rule, estimates, probas=None, orderings=None, n_orderings=50,
                     random_state=None, progress=True):
    """Replay ``rule`` on each ordering (default: ``n_orderings`` random ones).

    Returns a DataFrame with one row per ordering: ordering, n_iterations,
    estimate, capped. ``progress``: a bar when the replays take more than a
    few seconds (:mod:`cvrepro.progress`; also in :func:`replay_reproducibility`).
    """
    n_stored = np.asarray(estimates).shape[0]
    if orderings is None:
        orderings = random_orderings(n_stored, n_orderings, random_state)
    rows = [dict(ordering=i, **vars(rule.replay(estimates, probas, order)))
            for i, order in enumerate(progress_bar(orderings, desc="stopping-rule replays", unit="ordering",
                                                   enabled=progress))]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class ReplayReproducibility:
    """A Table III cell: R over the orderings, the mean stopping iteration of
    each learner, how many replays were capped, and the per-ordering runs."""
    R: float
    iterations_a: float
    iterations_b: float
    capped_a: int
    capped_b: int
    runs: pd.DataFrame


def replay_reproducibility(rule, estimates_a, estimates_b, probas_a=None, probas_b=None,
                           n_orderings=50, random_state=None, progress=True):
    """Raeder et al.'s Table III procedure for two learners' stored iterations.

    The same ``n_orderings`` random orderings are applied to both learners
    (iteration t of both comes from the same CV seed); each learner stops on
    its own, and R is computed from the ``n_orderings`` pairs of final
    estimates.  ``rule`` is reused (reset before each replay).
    """
    n_a, n_b = np.asarray(estimates_a).shape[0], np.asarray(estimates_b).shape[0]
    if n_a != n_b:
        raise ValueError(f"both learners need the same stored iterations, got {n_a} and {n_b}")
    orderings = random_orderings(n_a, n_orderings, random_state)
    a = replay_orderings(rule, estimates_a, probas_a, orderings, progress=progress)
    b = replay_orderings(rule, estimates_b, probas_b, orderings, progress=progress)
    runs = a.merge(b, on="ordering", suffixes=("_a", "_b"))
    return ReplayReproducibility(
        reproducibility(runs["estimate_a"], runs["estimate_b"]),
        float(runs["n_iterations_a"].mean()), float(runs["n_iterations_b"].mean()),
        int(runs["capped_a"].sum()), int(runs["capped_b"].sum()), runs)
