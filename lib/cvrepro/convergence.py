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

Three readings of Raeder et al. are ours, each with its alternative offered:

- orderings (``sampling``): their Table III reaches 1000.00 iterations from
  500 stored runs, so an ordering cannot be a permutation of the stored runs;
  we read it as runs drawn with replacement up to the rule's cap (1000 there),
  ``"replacement"``; ``"permutation"`` (each stored run once, capped at the
  number stored) and ``"cycle"`` (one permutation repeated) are offered;
- pairing (``pairing``): both learners replay the same orderings, so their
  iteration t comes from one CV seed (``"shared"``); ``"independent"`` gives
  each learner its own orderings;
- equal estimates: estimates are rounded to ``decimals`` (10) before they are
  compared, so that floating-point noise (a learner whose AUROC is the same in
  every run up to 1e-16) counts as a tie, as it would in a tool that computes
  each run's AUROC the same way.  R scores a tie 1/2 (its eq. 1).  The KS rule
  computes D of the two empirical CDFs (``ties="ecdf"``, scipy's statistic,
  where equal estimates cancel) or, to reproduce their Table III(b) (SMO on
  tic-tac-toe: Rank stops at 2, KS never, 1000.00), from the merged order
  without grouping ties (``ties="merge"``: the odd iterations' value first
  among equal ones, so two constant samples are D = 1 apart).

Papers: Raeder, Hoens & Chawla (2010), Sec. V (rank and KS criteria, R);
Moreno-Torres, Saez & Herrera (2012), Algorithm 5 (Pearson criterion).
"""
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from .progress import progress_bar

DEFAULT_MAX_ITERATIONS = 500  # the number of stored runs in Raeder et al.
ESTIMATE_DECIMALS = 10  # estimates equal to 10 decimals are ties (AUROC steps are >= 1e-8 here)
SAMPLINGS = ("replacement", "permutation", "cycle")
PAIRINGS = ("shared", "independent")
KS_TIES = ("ecdf", "merge")


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
        taken in ``order`` (default: as stored; an index may repeat, for
        orderings drawn with replacement).  Running out of ``order`` before
        the rule stops counts as capped.  Returns a StopResult."""
        estimates = np.asarray(estimates, dtype=float)
        if estimates.ndim != 1 or estimates.size == 0:
            raise ValueError(f"estimates must be a non-empty 1-d sequence, got shape {estimates.shape}")
        if probas is not None:
            probas = np.asarray(probas, dtype=float)
            if probas.shape[0] != estimates.size:
                raise ValueError(f"probas has {probas.shape[0]} iterations, estimates {estimates.size}")
        order = np.arange(estimates.size) if order is None else np.asarray(order)
        if (order.ndim != 1 or order.size == 0 or not np.issubdtype(order.dtype, np.integer)
                or order.min() < 0 or order.max() >= estimates.size):
            raise ValueError(f"order must be a non-empty sequence of iteration indices in "
                             f"0..{estimates.size - 1}")
        self.reset()
        order = order[:self.max_iterations]
        stop = self._first_stop(estimates[order], probas, order)
        if stop is not None:
            return self._replayed(estimates[order], stop)
        for t in order:
            if self.update(estimates[t], None if probas is None else probas[t]):
                break
        else:
            self.stopped = self.capped = True
        return StopResult(self.n_iterations, self.estimate, self.capped)

    def _first_stop(self, estimates, probas=None, order=None):
        """Where the rule stops on the stored iterations taken in ``order`` (``estimates``
        already in that order), as (iterations consumed, converged), computed all at
        once with the same arithmetic as :meth:`update`; None: replay one by one."""
        return None

    def _replayed(self, ordered, stop):
        """Set the state ``update`` would have left after consuming ``stop[0]`` of ``ordered``."""
        n, converged = stop
        self.n_iterations, self._sum = n, float(np.cumsum(ordered[:n])[-1])
        self.stopped, self.capped = True, not converged
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

    def _first_stop(self, estimates, probas=None, order=None):
        return (self.n, True) if estimates.size >= self.n else (estimates.size, False)

    def _params(self):
        return {"n": self.n, "max_iterations": self.max_iterations}


def average_ranks(rows):
    """1-based ranks of each row of ``rows`` (2-d), ties given their average rank
    (``scipy.stats.rankdata(..., axis=1)``, computed for many rows at once)."""
    m = np.asarray(rows, dtype=float)
    n_rows, n = m.shape
    order = np.argsort(m, axis=1, kind="stable")
    ordered = np.take_along_axis(m, order, axis=1)
    new = np.ones((n_rows, n), dtype=bool)
    new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    starts = np.flatnonzero(new)                      # tie groups never span two rows
    sizes = np.diff(np.append(starts, n_rows * n))
    first = starts % n                                # 0-based position of the group in its row
    ranks = np.empty((n_rows, n))
    np.put_along_axis(ranks, order, np.repeat(first + (sizes + 1) / 2, sizes).reshape(n_rows, n), axis=1)
    return ranks


def row_correlations(x, y):
    """Pearson correlation of each row of ``x`` with the same row of ``y``; identical
    rows give exactly 1, and a constant row against a different one NaN (never
    counted as converged)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        xc = x - x.mean(axis=1, keepdims=True)
        yc = y - y.mean(axis=1, keepdims=True)
        r = np.sum(xc * yc, axis=1) / np.sqrt(np.sum(xc * xc, axis=1) * np.sum(yc * yc, axis=1))
    r[(np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0)] = np.nan
    r[np.all(x == y, axis=1)] = 1.0
    return r


class _RunningMeanCorrelation(StoppingRule):
    """Correlation between the running means of the per-instance probability
    estimates after iterations k - 1 and k; stop when it reaches the threshold.
    The running mean after k iterations is the running sum divided by k."""

    needs_proba = True
    rank = False  # Spearman = Pearson on ranks

    def __init__(self, threshold=0.9999, max_iterations=DEFAULT_MAX_ITERATIONS):
        if not -1 < threshold <= 1:
            raise ValueError(f"threshold must be in (-1, 1], got {threshold}")
        self.threshold = threshold
        super().__init__(max_iterations)

    def _reset_state(self):
        self._total = None
        self._compared = None  # the running mean as correlated (ranked for Spearman)
        self.last_correlation = float("nan")

    def _compare(self, means):
        return average_ranks(means) if self.rank else means

    def _converged(self, estimate, oof_proba):
        p = _as_proba(oof_proba)
        if self._total is not None and p.shape != self._total.shape:
            raise ValueError(f"oof_proba has {p.size} values, earlier iterations {self._total.size}")
        first = self._total is None
        self._total = p.copy() if first else self._total + p
        previous = self._compared
        self._compared = self._compare((self._total / self.n_iterations)[None, :])
        if first:
            return False
        self.last_correlation = float(row_correlations(previous, self._compared)[0])
        return self.last_correlation >= self.threshold

    def _first_stop(self, estimates, probas=None, order=None):
        if probas is None:
            return None
        length = 64
        while True:   # short prefixes first: most replays stop early
            rows = probas[order[:min(length, estimates.size)]]
            rows = rows[..., 1] if rows.ndim == 3 and rows.shape[2] == 2 else rows.reshape(rows.shape[0], -1)
            if not np.all(np.isfinite(rows)):
                raise ValueError("oof_proba contains NaN or infinite values "
                                 "(every instance needs an out-of-fold estimate)")
            compared = self._compare(np.cumsum(rows, axis=0) / np.arange(1, len(rows) + 1)[:, None])
            r = row_correlations(compared[:-1], compared[1:])       # r[i]: after iteration i + 2
            hits = np.flatnonzero(r >= self.threshold)
            if hits.size or len(rows) >= estimates.size:
                break
            length *= 4
        if hits.size:
            self.last_correlation = float(r[hits[0]])
            return int(hits[0]) + 2, True
        self.last_correlation = float(r[-1]) if r.size else float("nan")
        return len(rows), False

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


def ks_statistic(a, b, ties="ecdf"):
    """Two-sample Kolmogorov-Smirnov D.

    ``ties="ecdf"``: max |F_a - F_b| over the two empirical CDFs (the statistic
    of scipy's ``ks_2samp``, without its p-value, which costs a hundred times
    more); equal values cancel, so two equal samples are 0 apart.
    ``ties="merge"``: the running difference of the two CDFs along the merged
    sorted sample, one value at a time, ``a``'s first among equal values (ties
    not grouped): two constant samples of one value are 1 apart.  Both agree
    when no value occurs in both samples.
    """
    gap, n_a, n_b = _ks_gap(a, b, ties)
    return float(gap / (n_a * n_b))


def _ks_gap(a, b, ties):
    """D of two samples as an exact integer fraction ``gap / (n_a n_b)``: ``(gap, n_a, n_b)``."""
    if ties not in KS_TIES:
        raise ValueError(f"ties must be one of {KS_TIES}, got {ties!r}")
    a, b = np.sort(np.asarray(a, dtype=float)), np.sort(np.asarray(b, dtype=float))
    if a.size == 0 or b.size == 0:
        raise ValueError("both samples need at least one value")
    x = np.unique(np.concatenate([a, b]))
    c_a = np.searchsorted(a, x, side="right") * b.size
    gap = np.abs(c_a - np.searchsorted(b, x, side="right") * a.size)
    if ties == "merge":  # also where a's copies of a value are in and b's not yet
        gap = np.maximum(gap, np.abs(c_a - np.searchsorted(b, x, side="left") * a.size))
    return int(np.max(gap)), a.size, b.size


def _below(gap, n_a, n_b, threshold):
    """``gap / (n_a n_b) < threshold`` decided exactly (threshold read as the decimal it prints as):
    D = 0.6 - 0.4 is 1/5, not below 0.2, though the float difference is 0.19999999999999996."""
    t = Fraction(repr(float(threshold)))
    big = np.asarray(gap, dtype=object)   # Python integers: no overflow for any threshold's digits
    return np.asarray(big * t.denominator < t.numerator * np.asarray(n_a, dtype=object) * n_b, dtype=bool)


def ks_path(estimates, ties="ecdf"):
    """The KS criterion's D after each iteration of ``estimates`` (odd iterations against
    even ones, as :func:`ks_statistic`), all at once; entry 0 (one iteration) is NaN."""
    gap, n_odd, n_even = _ks_gap_path(estimates, ties)
    d = np.full(gap.size, np.nan)
    d[1:] = gap[1:] / (n_odd[1:] * n_even[1:])
    return d


def _ks_gap_path(estimates, ties):
    """:func:`ks_path` as exact fractions ``gap / (n_odd n_even)`` per prefix (integer arrays)."""
    v = np.asarray(estimates, dtype=float)
    t = np.arange(v.size)
    values, index = np.unique(v, return_inverse=True)
    odd = t % 2 == 0                        # the 1st, 3rd, ... iterations
    counts = {}
    for name, rows in (("odd", odd), ("even", ~odd)):
        c = np.zeros((v.size, values.size))
        c[t[rows], index[rows]] = 1
        counts[name] = np.cumsum(np.cumsum(c, axis=0), axis=1).astype(np.int64)   # [t, j]: how many <= values[j]
    n_odd, n_even = ((t + 2) // 2)[:, None], ((t + 1) // 2)[:, None]
    c_odd = counts["odd"] * n_even
    gap = np.abs(c_odd - counts["even"] * n_odd).max(axis=1)
    if ties == "merge":
        below = np.hstack([np.zeros((v.size, 1), np.int64), counts["even"][:, :-1]])   # how many < values[j]
        gap = np.maximum(gap, np.abs(c_odd - below * n_odd).max(axis=1))
    return gap, n_odd[:, 0], n_even[:, 0]


class KSCriterion(StoppingRule):
    """Raeder et al.'s Kolmogorov-Smirnov criterion: the two-sample D statistic
    between the estimates of the odd (1st, 3rd, ...)
    and even (2nd, 4th, ...) iterations; stop when D is below ``threshold``
    (0.1 or 0.2 in their Table III).  The first possible stop is after two.
    D is a difference of two fractions and is compared exactly: D = 3/5 - 2/5
    is not below 0.2 (its float value 0.19999999999999996 would be).

    Estimates are rounded to ``decimals`` first (None: compared as they are),
    and ``ties`` says how equal estimates count (see :func:`ks_statistic`):
    ``"ecdf"`` stops at once on a constant sequence, ``"merge"`` never does.
    """

    def __init__(self, threshold=0.1, max_iterations=DEFAULT_MAX_ITERATIONS, ties="ecdf",
                 decimals=ESTIMATE_DECIMALS):
        if not 0 < threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], got {threshold}")
        if ties not in KS_TIES:
            raise ValueError(f"ties must be one of {KS_TIES}, got {ties!r}")
        if decimals is not None and (int(decimals) != decimals or decimals < 0):
            raise ValueError(f"decimals must be a non-negative integer or None, got {decimals!r}")
        self.threshold = threshold
        self.ties = ties
        self.decimals = decimals
        super().__init__(max_iterations)

    def _reset_state(self):
        self._estimates = []
        self.last_statistic = float("nan")

    def _first_stop(self, estimates, probas=None, order=None):
        values = estimates if self.decimals is None else np.round(estimates, self.decimals)
        length = 64
        while True:   # short prefixes first: most replays stop early
            gap, n_odd, n_even = _ks_gap_path(values[:length], self.ties)
            below = np.flatnonzero(_below(gap[1:], n_odd[1:], n_even[1:], self.threshold)) + 1
            d = np.where(n_even > 0, gap / np.maximum(n_odd * n_even, 1), np.nan)
            if below.size or length >= values.size:
                break
            length *= 4
        if below.size:
            self.last_statistic = float(d[below[0]])
            return int(below[0]) + 1, True
        self.last_statistic = float(d[-1])
        return values.size, False

    def _converged(self, estimate, oof_proba):
        self._estimates.append(estimate if self.decimals is None else float(np.round(estimate, self.decimals)))
        if len(self._estimates) < 2:
            return False
        estimates = np.asarray(self._estimates)
        gap, n_a, n_b = _ks_gap(estimates[0::2], estimates[1::2], self.ties)
        self.last_statistic = float(gap / (n_a * n_b))
        return bool(_below(gap, n_a, n_b, self.threshold))

    def _params(self):
        return {"threshold": self.threshold, "max_iterations": self.max_iterations, "ties": self.ties,
                "decimals": self.decimals}


def reproducibility(estimates_i, estimates_j, decimals=ESTIMATE_DECIMALS):
    """Raeder et al.'s reproducibility R (eqs. 1-2) of two learners' paired estimates.

    ``R'(i, j) = mean_a I(e_ia, e_ja)`` with I = 1 if greater, 1/2 if equal
    (equal once rounded to ``decimals``; None: exact float equality), 0 if
    less; ``R = max(2 R'(i, j) - 1, 2 R'(j, i) - 1)``: 1 when one learner wins
    every pair, 0 when each wins half the time.
    """
    a = np.asarray(estimates_i, dtype=float)
    b = np.asarray(estimates_j, dtype=float)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:
        raise ValueError(f"need two non-empty 1-d samples of equal length, got {a.shape} and {b.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("estimates contain NaN or infinite values")
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    r_ij = np.mean(np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0)))
    return float(max(2 * r_ij - 1, 2 * (1 - r_ij) - 1))


def random_orderings(n_stored, n_orderings=50, random_state=None, sampling="permutation", length=None):
    """``n_orderings`` random orderings of the stored runs ``0..n_stored-1`` (rows).

    ``sampling="permutation"``: each a permutation (``length`` at most
    ``n_stored``, default all); ``"replacement"``: ``length`` runs drawn with
    replacement; ``"cycle"``: a permutation repeated to ``length``.
    """
    if sampling not in SAMPLINGS:
        raise ValueError(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    if int(n_stored) != n_stored or n_stored < 1:
        raise ValueError(f"n_stored must be a positive integer, got {n_stored!r}")
    length = n_stored if length is None else length
    if int(length) != length or length < 1 or (sampling == "permutation" and length > n_stored):
        raise ValueError(f"length must be a positive integer (at most n_stored={n_stored} for a "
                         f"permutation), got {length!r}")
    rng = check_random_state(random_state)
    if sampling == "replacement":
        return rng.randint(0, n_stored, size=(n_orderings, length))
    perms = np.array([rng.permutation(n_stored) for _ in range(n_orderings)]).reshape(n_orderings, n_stored)
    if sampling == "permutation":
        return perms[:, :length]
    return np.tile(perms, (1, -(-length // n_stored)))[:, :length]


def replay_orderings(rule, estimates, probas=None, orderings=None, n_orderings=50,
                     random_state=None, progress=True):
    """Replay ``rule`` on each ordering (default: ``n_orderings`` random permutations).

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
    each learner, how many replays were capped (stopped by the cap, not the
    rule), how many used at least as many draws as there are stored runs
    (``exhausted``: at a small scale such a replay is trivial or reuses runs),
    and the per-ordering runs."""
    R: float
    iterations_a: float
    iterations_b: float
    capped_a: int
    capped_b: int
    exhausted_a: int
    exhausted_b: int
    runs: pd.DataFrame


def replay_reproducibility(rule, estimates_a, estimates_b, probas_a=None, probas_b=None,
                           n_orderings=50, random_state=None, sampling="replacement",
                           pairing="shared", progress=True):
    """Raeder et al.'s Table III procedure for two learners' stored iterations.

    Each learner replays ``n_orderings`` random orderings of its stored runs
    and stops on its own; R is computed from the ``n_orderings`` pairs of
    final estimates.  ``sampling`` (see :func:`random_orderings`): with
    ``"replacement"`` or ``"cycle"`` an ordering is ``rule.max_iterations``
    long (the paper's cap of 1000 iterations from 500 runs); a permutation
    holds each stored run once.  ``pairing="shared"``: the same orderings for
    both learners (iteration t of both comes from one CV seed);
    ``"independent"``: learner b gets its own.  ``rule`` is reused (reset
    before each replay).
    """
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {PAIRINGS}, got {pairing!r}")
    n_a, n_b = np.asarray(estimates_a).shape[0], np.asarray(estimates_b).shape[0]
    if n_a != n_b:
        raise ValueError(f"both learners need the same stored iterations, got {n_a} and {n_b}")
    length = None if sampling == "permutation" else rule.max_iterations
    rng = check_random_state(random_state)
    orderings_a = random_orderings(n_a, n_orderings, rng, sampling, length)
    orderings_b = orderings_a if pairing == "shared" else random_orderings(n_a, n_orderings, rng, sampling, length)
    a = replay_orderings(rule, estimates_a, probas_a, orderings_a, progress=progress)
    b = replay_orderings(rule, estimates_b, probas_b, orderings_b, progress=progress)
    runs = a.merge(b, on="ordering", suffixes=("_a", "_b"))
    return ReplayReproducibility(
        reproducibility(runs["estimate_a"], runs["estimate_b"]),
        float(runs["n_iterations_a"].mean()), float(runs["n_iterations_b"].mean()),
        int(runs["capped_a"].sum()), int(runs["capped_b"].sum()),
        int((runs["n_iterations_a"] >= n_a).sum()), int((runs["n_iterations_b"] >= n_a).sum()), runs)
