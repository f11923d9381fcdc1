"""AdaBoostM1 with DecisionStump, as WEKA's defaults (the Japkowicz tutorial's "Boosting").

DecisionStump (WEKA): one test on one attribute with three branches: for a
nominal attribute ``= v`` / ``!= v`` / missing, for a numeric one
``<= t`` / ``> t`` / missing (t a midpoint between neighbouring values); the
split minimises the class entropy conditioned on the branches (missing
branch included); each branch predicts its normalised weighted class
counts (a branch without training weight takes the missing branch's, which
without missing values is the whole distribution). First best attribute
and first best split win (strict comparisons).

AdaBoostM1 (WEKA, ``-I 10``, reweighting): weighted error ``e`` of each
stump on the training set; stop when ``e >= 0.5`` or ``e == 0`` (keeping the
first stump if it is the first); misclassified weights times ``(1 - e) / e``,
then renormalised to the old sum; a stump votes ``log((1 - e) / e)`` for its
class; probabilities are the normalised ``exp`` of the vote sums (a single
stump gives its own distribution).

Deviation: WEKA sorts instances with its own quicksort before scanning a
numeric attribute, which changes the order in which weights are summed; we
scan in a stable order, so exactly tied splits may break differently.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .. import libm
from .base import TabularClassifier
from .tree_kernels import known_order

__all__ = ["AdaBoostM1", "DecisionStump"]

_LN2 = math.log(2.0)

@njit(cache=True)
def _lnf(x):
    return 0.0 if x < 1e-6 else x * math.log(x)


@njit(cache=True)
def _cond_entropy(dist):
    """WEKA ContingencyTables.entropyConditionedOnRows."""
    value = 0.0
    total = 0.0
    for i in range(dist.shape[0]):
        row = 0.0
        for j in range(dist.shape[1]):
            value = value + _lnf(dist[i, j])
            row += dist[i, j]
        value = value - _lnf(row)
        total += row
    if abs(total) < 1e-6:
        return 0.0
    return -value / (total * _LN2)


@njit(cache=True)
def _fit_stump(X, y, w, nominal, n_values, K):
    """Best (attribute, split point, 3 x K branch distribution) of WEKA's DecisionStump."""
    n, d = X.shape
    best_val = np.inf
    best_att = -1
    best_point = -1.7976931348623157e308
    best_dist = np.zeros((3, K))
    split_point = best_point
    for a in range(d):
        dist = np.zeros((3, K))
        cur_best = np.zeros((3, K))
        val = np.inf
        if nominal[a]:
            nv = n_values[a]
            counts = np.zeros((nv + 1, K))
            missing = 0
            for i in range(n):
                v = X[i, a]
                if v != v:
                    missing += 1
                    counts[nv, y[i]] += w[i]
                else:
                    counts[int(v), y[i]] += w[i]
            sums = np.zeros(K)
            for v in range(nv):
                for c in range(K):
                    sums[c] += counts[v, c]
            dist[2] = counts[nv]
            for v in range(nv):
                for c in range(K):
                    dist[0, c] = counts[v, c]
                    dist[1, c] = sums[c] - counts[v, c]
                cur = _cond_entropy(dist)
                if cur < val:
                    val = cur
                    split_point = float(v)
                    cur_best[:, :] = dist
            if missing == 0:
                cur_best[2] = sums
        else:
            missing = 0
            for i in range(n):
                if X[i, a] != X[i, a]:
                    dist[2, y[i]] += w[i]
                    missing += 1
                else:
                    dist[1, y[i]] += w[i]
            total = dist[1].copy()
            cur_best[:, :] = dist
            col = X[:, a]
            order = known_order(col)
            m = order.shape[0]
            for t in range(m - 1):
                i, j = order[t], order[t + 1]
                dist[0, y[i]] += w[i]
                dist[1, y[i]] -= w[i]
                if col[i] < col[j]:
                    cut = (col[i] + col[j]) / 2.0
                    cur = _cond_entropy(dist)
                    if cur < val:
                        split_point = cut
                        val = cur
                        cur_best[:, :] = dist
            if missing == 0:
                cur_best[2] = total
        if a == 0 or val < best_val:
            best_val = val
            best_att = a
            best_point = split_point
            best_dist[:, :] = cur_best
    for b in range(3):
        s = best_dist[b].sum()
        if s == 0:
            best_dist[b] = best_dist[2] / best_dist[2].sum()
        else:
            best_dist[b] = best_dist[b] / s
    return best_att, best_point, best_dist


class DecisionStump(TabularClassifier):
    """WEKA's DecisionStump (nominal class): one three-way test on the best attribute."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True       # one test cannot separate three classes
        return tags

    def _fit(self, X, y, w=None):
        w = np.ones(len(y)) if w is None else w
        self.attribute_, self.split_point_, self.distribution_ = _fit_stump(
            np.ascontiguousarray(X), y, w, self.schema_.nominal, self.schema_.n_values, len(self.classes_))

    def _branch(self, X):
        col = X[:, self.attribute_]
        if self.schema_.nominal[self.attribute_]:
            branch = np.where(col == self.split_point_, 0, 1)
        else:
            branch = np.where(col <= self.split_point_, 0, 1)
        return np.where(np.isnan(col), 2, branch)

    def _predict_proba(self, X):
        return self.distribution_[self._branch(X)]


class AdaBoostM1(TabularClassifier):
    """WEKA AdaBoostM1 (``-I n_iterations``, reweighting) over DecisionStump."""

    def __init__(self, n_iterations=10):
        self.n_iterations = n_iterations

    def _fit(self, X, y):
        if not isinstance(self.n_iterations, (int, np.integer)) or self.n_iterations < 1:
            raise ValueError(f"n_iterations must be a positive integer, got {self.n_iterations!r}")
        w = np.ones(len(y))
        self.stumps_, self.betas_ = [], []
        for it in range(self.n_iterations):
            stump = DecisionStump()
            stump.schema_, stump.classes_ = self.schema_, self.classes_
            stump._fit(X, y, w)
            wrong = stump._predict_codes(X) != y
            error = w[wrong].sum() / w.sum()
            if error >= 0.5 - 1e-6 or abs(error) < 1e-6:
                if it == 0:
                    self.stumps_.append(stump)
                    self.betas_.append(0.0)
                break
            self.stumps_.append(stump)
            self.betas_.append(math.log((1 - error) / error))
            old = w.sum()
            w = np.where(wrong, w * ((1 - error) / error), w)
            w = w * old / w.sum()

    def _predict_proba(self, X):
        if len(self.stumps_) == 1:
            return self.stumps_[0]._predict_proba(X)
        sums = np.zeros((X.shape[0], len(self.classes_)))
        for stump, beta in zip(self.stumps_, self.betas_):
            sums[np.arange(X.shape[0]), stump._predict_codes(X)] += beta
        P = libm.exp(sums - sums.max(axis=1, keepdims=True))
        return P / P.sum(axis=1, keepdims=True)
