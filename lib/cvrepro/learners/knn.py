"""k-nearest neighbours as WEKA's IBk (default options apart from k).

Distance: Euclidean over all attributes; numeric ones normalised to [0, 1] by
the ranges of the training data; nominal ones differ by 0 or 1 (1 if either
is missing); a numeric difference with one value missing is the larger of
``v`` and ``1 - v`` for the known normalised value ``v``, with both missing 1.
Every training instance at a distance no larger than the k-th smallest is a
neighbour (ties at the k-th distance are all kept). Class probabilities are
``(1/N + votes_c) / (K/N + number of neighbours)``; prediction is the first
maximum.

WEKA's IBk widens its normalisation ranges with every instance it classifies
(``addInstanceInfo``), in the order they come; so do we, by default, in row
order of ``X`` (``update_ranges=False`` keeps the training ranges).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .base import TabularClassifier

__all__ = ["IBk"]


@njit(cache=True)
def _norm_col(col, lo, hi, out):
    for t in range(col.shape[0]):
        v = col[t]
        if v != v:
            out[t] = np.nan
        elif lo != lo or hi == lo:
            out[t] = 0.0
        else:
            out[t] = (v - lo) / (hi - lo)


@njit(cache=True)
def _ibk(Xtr, ytr, Xte, nominal, lo, hi, k, K, update):
    n, d = Xtr.shape
    lo = lo.copy()
    hi = hi.copy()
    Z = np.empty((n, d))
    for j in range(d):
        if not nominal[j]:
            _norm_col(Xtr[:, j], lo[j], hi[j], Z[:, j])
        else:
            Z[:, j] = Xtr[:, j]
    out = np.zeros((Xte.shape[0], K))
    dist = np.empty(n)
    z = np.empty(d)
    for i in range(Xte.shape[0]):
        x = Xte[i]
        if update:
            for j in range(d):
                v = x[j]
                if nominal[j] or v != v:
                    continue
                changed = False
                if lo[j] != lo[j]:
                    lo[j] = v
                    hi[j] = v
                    changed = True
                elif v < lo[j]:
                    lo[j] = v
                    changed = True
                elif v > hi[j]:
                    hi[j] = v
                    changed = True
                if changed:
                    _norm_col(Xtr[:, j], lo[j], hi[j], Z[:, j])
        for j in range(d):
            v = x[j]
            if nominal[j]:
                z[j] = v
            elif v != v:
                z[j] = np.nan
            elif lo[j] != lo[j] or hi[j] == lo[j]:
                z[j] = 0.0
            else:
                z[j] = (v - lo[j]) / (hi[j] - lo[j])
        for t in range(n):
            s = 0.0
            for j in range(d):
                a = z[j]
                b = Z[t, j]
                if nominal[j]:
                    diff = 1.0 if (a != a or b != b or int(a) != int(b)) else 0.0
                elif a != a or b != b:
                    if a != a and b != b:
                        diff = 1.0
                    else:
                        diff = b if a != a else a
                        if diff < 0.5:
                            diff = 1.0 - diff
                else:
                    diff = a - b
                s += diff * diff
            dist[t] = s          # squared, as WEKA compares them (sqrt would merge near-ties)
        kk = min(k, n)
        kth = np.partition(dist, kk - 1)[kk - 1]
        count = 0
        for t in range(n):
            if dist[t] <= kth:
                out[i, ytr[t]] += 1.0
                count += 1
        for c in range(K):
            out[i, c] = (out[i, c] + 1.0 / n) / (K / n + count)
    return out


class IBk(TabularClassifier):
    """WEKA IBk with ``k`` neighbours, unweighted votes, normalised Euclidean distance."""

    def __init__(self, k=1, update_ranges=True):
        self.k = k
        self.update_ranges = update_ranges

    def _fit(self, X, y):
        if not isinstance(self.k, (int, np.integer)) or self.k < 1:
            raise ValueError(f"k must be a positive integer, got {self.k!r}")
        self.X_ = X
        self.y_ = y
        lo, hi = np.full(X.shape[1], np.nan), np.full(X.shape[1], np.nan)
        known = ~np.isnan(X)
        for j in np.flatnonzero(known.any(axis=0)):
            lo[j], hi[j] = X[known[:, j], j].min(), X[known[:, j], j].max()
        self.lo_, self.hi_ = lo, hi

    def _predict_proba(self, X):
        return _ibk(self.X_, self.y_, np.ascontiguousarray(X), self.schema_.nominal, self.lo_, self.hi_,
                    int(self.k), len(self.classes_), bool(self.update_ranges))
