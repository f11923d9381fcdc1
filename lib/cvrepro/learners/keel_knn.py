"""k-nearest neighbours as KEEL's KNN classifier (``KNN-C``), the 1NN and 3NN of Moreno-Torres et al.

What KEEL's KNN does, with its defaults (k = 1, Euclidean distance):

* Input as KEEL's reader gives it (:mod:`cvrepro.learners.keel_data`): a
  missing value is 0.0; test values are clamped into the declared ranges.
* Every attribute is scaled to [0, 1]: numeric ones by ``(x - min) / (max -
  min)`` over the declared (or training) range; a nominal one by its value
  index over ``(number of declared values - 1)``, so nominal attributes are
  ordinal numbers (``u, y, l`` become 0, 0.5, 1), not 0/1 mismatches as in
  WEKA's IBk. A numeric attribute of zero range gives 0/0 = NaN.
* Distance: Euclidean (``sqrt`` of the sum of squares, in attribute order), or
  Manhattan.
* Neighbours: training instances in training order; one at distance 0 (or
  NaN) is skipped (KEEL's "leave-one-out" rule, applied to test instances
  too: a training duplicate of a test instance is never its neighbour); a
  nearer one is inserted before every farther or equal one (earlier training
  instances win ties); slots that no instance fills point at the first
  training instance.
* Vote: one per neighbour; the class with most votes, ties to the lowest
  class index.

KEEL's KNN outputs a class only, so ``predict_proba`` is one-hot (and AUROC
over it is the crisp AUC, :func:`cvrepro.metrics.keel_auc`).

:meth:`KeelKNN.fit_predict_folds` computes the distances once per data set
for every fold whose ranges are the whole data set's (all folds when
``bounds`` covers the data); other folds are computed as the per-fold path does.
When the training instances of those folds are in data order (as the engine's
folds are), each instance's distances are sorted once, stably, and kept across
calls (:mod:`cvrepro.learners.keel_cache`): its neighbours in a fold are then the
first training instances of that order at a distance that is neither 0 nor NaN,
which is what KEEL's insertion finds (nearer first, earlier training instances
first among equals), read in a few steps instead of a pass over the training set.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import keel_cache
from .base import TabularClassifier
from .batched import MEMORY_BUDGET, FoldBatch
from .keel_data import check_bounds, numeric_ranges, read_values

__all__ = ["KeelKNN", "keel_scale", "neighbour_order"]

_MAX = 1.7976931348623157e308       # Double.MAX_VALUE, KEEL's initial neighbour distance


def keel_scale(V: np.ndarray, nominal: np.ndarray, n_values: np.ndarray, lo, hi) -> np.ndarray:
    """KEEL's [0, 1] scaling of read values ``V`` (see the module docstring)."""
    Z = np.array(V, dtype=float, copy=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        num = ~nominal
        Z[:, num] = (Z[:, num] - lo[num]) / (hi[num] - lo[num])
        many = nominal & (n_values > 1)
        Z[:, many] = Z[:, many] / (n_values[many] - 1)
    return Z


@njit(cache=True)
def _distance(a, b, manhattan):
    s = 0.0
    if manhattan:
        for j in range(a.shape[0]):
            s += abs(a[j] - b[j])
        return s
    for j in range(a.shape[0]):
        diff = a[j] - b[j]
        s += diff * diff
    return np.sqrt(s)


@njit(cache=True)
def _select(dist, ytr, k, K, near, best, votes):
    """KEEL's neighbour insertion over ``dist`` (training order) and its vote; returns the class."""
    for j in range(k):
        near[j] = 0
        best[j] = _MAX
    for i in range(dist.shape[0]):
        d = dist[i]
        if d > 0.0:
            for j in range(k):
                if d < best[j]:
                    for m in range(k - 1, j, -1):
                        best[m] = best[m - 1]
                        near[m] = near[m - 1]
                    best[j] = d
                    near[j] = i
                    break
    votes[:] = 0
    for j in range(k):
        votes[ytr[near[j]]] += 1
    pred = 0
    for c in range(1, K):
        if votes[c] > votes[pred]:
            pred = c
    return pred


@njit(cache=True)
def _classify(Ztr, ytr, Zte, k, K, manhattan):
    n = Ztr.shape[0]
    out = np.empty(Zte.shape[0], dtype=np.int64)
    dist = np.empty(n)
    near = np.empty(k, dtype=np.int64)
    best = np.empty(k)
    votes = np.empty(K, dtype=np.int64)
    for i in range(Zte.shape[0]):
        for t in range(n):
            dist[t] = _distance(Ztr[t], Zte[i], manhattan)
        out[i] = _select(dist, ytr, k, K, near, best, votes)
    return out


@njit(cache=True)
def _distance_rows(ZT, rows, manhattan, D):
    """Distances of instances ``rows`` to every instance (``ZT``: scaled data, attribute-major),
    :func:`_distance`'s arithmetic and order, vectorised over instances."""
    d, n = ZT.shape
    for r in range(rows.shape[0]):
        out = D[r]
        out[:] = 0.0
        for j in range(d):
            a = ZT[j, rows[r]]
            col = ZT[j]
            if manhattan:
                for t in range(n):
                    out[t] += abs(col[t] - a)
            else:
                for t in range(n):
                    diff = col[t] - a
                    out[t] += diff * diff
        if not manhattan:
            for t in range(n):
                out[t] = np.sqrt(out[t])


@njit(cache=True)
def _shared_votes(D, local, split, pos, trains, toff, ytrs, Ks, k, preds, ooff):
    buf = np.empty(D.shape[1])
    near = np.empty(k, dtype=np.int64)
    best = np.empty(k)
    votes = np.empty(Ks.max(), dtype=np.int64)
    for e in range(local.shape[0]):
        s = split[e]
        tr = trains[toff[s]:toff[s + 1]]
        dist = buf[:tr.shape[0]]
        for t in range(tr.shape[0]):
            dist[t] = D[local[e], tr[t]]
        preds[ooff[s] + pos[e]] = _select(dist, ytrs[toff[s]:toff[s + 1]], k, Ks[s], near, best, votes[:Ks[s]])


@njit(cache=True)
def _ordered_votes(order, first, last, rows, in_train, code_of, fallback, k, K, preds):
    """KEEL's vote for test instances ``rows`` from each instance's sorted neighbour ``order``
    (its valid candidates at positions ``first .. last - 1``): the first ``k`` training
    instances (``in_train``) vote; slots left empty vote for class ``fallback`` (KEEL's
    unfilled slots point at the first training instance)."""
    votes = np.empty(K, dtype=np.int64)
    for e in range(rows.shape[0]):
        r = rows[e]
        votes[:] = 0
        got = 0
        for p in range(first[r], last[r]):
            t = order[r, p]
            if in_train[t]:
                votes[code_of[t]] += 1
                got += 1
                if got == k:
                    break
        votes[fallback] += k - got
        pred = 0
        for c in range(1, K):
            if votes[c] > votes[pred]:
                pred = c
        preds[e] = pred


def neighbour_order(ZT: np.ndarray, manhattan: bool):
    """``(order, first, last)``: per instance (rows of ``ZT.T``) the others stably sorted by
    distance (:func:`_distance_rows`' numbers; equal distances in data order), and the
    positions of the first candidate (distance > 0) and after the last one (distance below
    KEEL's initial ``Double.MAX_VALUE``; NaN sorts last)."""
    n = ZT.shape[1]
    order = np.empty((n, n), dtype=np.int32)
    first, last = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    chunk = max(1, MEMORY_BUDGET // (8 * n))
    D = np.empty((min(chunk, n), n))
    for c0 in range(0, n, chunk):
        block = np.arange(c0, min(n, c0 + chunk), dtype=np.int64)
        Dc = D[:len(block)]
        _distance_rows(ZT, block, manhattan, Dc)
        order[block] = np.argsort(Dc, axis=1, kind="stable")
        first[block] = np.count_nonzero(Dc <= 0.0, axis=1)
        last[block] = np.count_nonzero(Dc < _MAX, axis=1)
    return order, first, last


class KeelKNN(TabularClassifier):
    """KEEL's KNN classifier (``KNN-C``): ``k`` neighbours, Euclidean or Manhattan distance.

    ``bounds``: declared ``[min, max]`` per attribute (``keel_bounds`` of the
    whole data set reproduces KEEL's partitions); None: the training fold's ranges.
    ``predict_proba`` is one-hot (KEEL's KNN outputs a class only).
    """

    def __init__(self, k=1, distance="euclidean", bounds=None):
        self.k = k
        self.distance = distance
        self.bounds = bounds

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # KEEL never takes a training instance at distance 0 as a neighbour, so predicting the
        # training set is a leave-one-out prediction (duplicates excluded): its accuracy can be low
        tags.classifier_tags.poor_score = True
        return tags

    def _check(self, n_features):
        if not isinstance(self.k, (int, np.integer)) or isinstance(self.k, bool) or self.k < 1:
            raise ValueError(f"k must be a positive integer, got {self.k!r}")
        if self.distance not in ("euclidean", "manhattan"):
            raise ValueError(f"distance must be 'euclidean' or 'manhattan', got {self.distance!r}")
        return check_bounds(self.bounds, n_features)

    def _fit(self, X, y):
        bounds = self._check(X.shape[1])
        nominal, n_values = self.schema_.nominal, self.schema_.n_values
        self.lo_, self.hi_ = numeric_ranges(X, nominal, bounds)
        self.Z_ = np.ascontiguousarray(keel_scale(read_values(X, nominal, self.lo_, self.hi_, False),
                                                  nominal, n_values, self.lo_, self.hi_))
        self.y_ = np.ascontiguousarray(y, dtype=np.int64)

    def _predict_codes(self, X):
        nominal, n_values = self.schema_.nominal, self.schema_.n_values
        Z = keel_scale(read_values(X, nominal, self.lo_, self.hi_, True), nominal, n_values, self.lo_, self.hi_)
        return _classify(self.Z_, self.y_, np.ascontiguousarray(Z), int(self.k), len(self.classes_),
                         self.distance == "manhattan")

    def _predict_proba(self, X):
        return np.eye(len(self.classes_))[self._predict_codes(X)]

    def fit_predict_folds(self, X, y, splits, random_states, classes):
        """Out-of-fold one-hot predictions of every split (see :mod:`cvrepro.learners.batched`),
        the per-fold numbers exactly, with one distance computation per data set where the
        fold's ranges are the whole data set's."""
        batch = FoldBatch(X, y, classes)
        if not batch.exact:
            return batch.per_fold(self, splits, random_states)
        Xe, nominal, n_values = batch.Xe, batch.schema.nominal, batch.schema.n_values
        bounds = self._check(Xe.shape[1])
        k, manhattan = int(self.k), self.distance == "manhattan"
        glo, ghi = numeric_ranges(Xe, nominal, bounds)
        folds, shared = [], []
        for train, test in splits:
            train, test = np.asarray(train, np.int64), np.asarray(test, np.int64)
            fold_classes, codes = batch.target(train)
            lo, hi = numeric_ranges(Xe[train], nominal, bounds)
            same = bool(np.array_equal(lo, glo) and np.array_equal(hi, ghi))
            if same:
                pred = np.zeros(len(test), dtype=np.int64)
            else:
                Ztr = keel_scale(read_values(Xe[train], nominal, lo, hi, False), nominal, n_values, lo, hi)
                Zte = keel_scale(read_values(Xe[test], nominal, lo, hi, True), nominal, n_values, lo, hi)
                pred = _classify(np.ascontiguousarray(Ztr), codes, np.ascontiguousarray(Zte), k,
                                 len(fold_classes), manhattan)
            folds.append((train, test, fold_classes, codes, pred))
            shared.append(same)
        if any(shared):
            todo = [f for f, s in zip(folds, shared) if s]
            n = Xe.shape[0]
            ordered = all(np.all(np.diff(f[0]) > 0) for f in todo) and 4 * n * n <= keel_cache.CACHE_BUDGET
            (self._ordered if ordered else self._shared)(Xe, nominal, n_values, glo, ghi, k, manhattan, todo)
        return [batch.place(np.eye(len(fc))[pred], fc) for _, _, fc, _, pred in folds]

    @staticmethod
    def _ordered(Xe, nominal, n_values, lo, hi, k, manhattan, folds):
        """Predictions of ``folds`` (ranges ``lo``, ``hi``; training instances in data order) from
        the data set's neighbour order, computed once per process (:func:`neighbour_order`)."""
        n = Xe.shape[0]
        ZT = np.ascontiguousarray(keel_scale(read_values(Xe, nominal, lo, hi, False), nominal, n_values, lo, hi).T)
        key = keel_cache.digest("keel_knn order", ZT, manhattan)
        order, first, last = keel_cache.cached(key, 4 * n * n + 16 * n, lambda: neighbour_order(ZT, manhattan))
        in_train = np.zeros(n, dtype=np.bool_)
        code_of = np.zeros(n, dtype=np.int64)
        for train, test, fold_classes, codes, pred in folds:
            in_train[:] = False
            in_train[train] = True
            code_of[train] = codes
            _ordered_votes(order, first, last, test, in_train, code_of, int(codes[0]), k, len(fold_classes), pred)

    @staticmethod
    def _shared(Xe, nominal, n_values, lo, hi, k, manhattan, folds):
        """Predictions of ``folds`` (whose ranges are ``lo``, ``hi``) from shared distance rows."""
        n = Xe.shape[0]
        ZT = np.ascontiguousarray(keel_scale(read_values(Xe, nominal, lo, hi, False), nominal, n_values, lo, hi).T)
        toff, ooff = [0], [0]
        for train, test, *_ in folds:
            toff.append(toff[-1] + len(train))
            ooff.append(ooff[-1] + len(test))
        trains = np.concatenate([f[0] for f in folds])
        ytrs = np.concatenate([f[3] for f in folds])
        Ks = np.array([len(f[2]) for f in folds], np.int64)
        rows = np.concatenate([f[1] for f in folds])
        split = np.concatenate([np.full(len(f[1]), s) for s, f in enumerate(folds)]).astype(np.int64)
        pos = np.concatenate([np.arange(len(f[1])) for f in folds]).astype(np.int64)
        order = np.argsort(rows, kind="stable")
        rows, split, pos = rows[order], split[order], pos[order]
        needed = np.unique(rows)
        chunk = max(1, MEMORY_BUDGET // (8 * n))
        preds = np.zeros(ooff[-1], dtype=np.int64)
        buffer = np.empty((min(chunk, len(needed)), n))
        to, oo = np.array(toff, np.int64), np.array(ooff, np.int64)
        for c0 in range(0, len(needed), chunk):
            block = needed[c0:c0 + chunk]
            D = buffer[:len(block)]
            _distance_rows(ZT, block, manhattan, D)
            a, b = np.searchsorted(rows, [block[0], block[-1] + 1])
            local = np.searchsorted(block, rows[a:b])
            _shared_votes(D, local, split[a:b], pos[a:b], trains, to, ytrs, Ks, k, preds, oo)
        for s, f in enumerate(folds):
            f[4][:] = preds[ooff[s]:ooff[s + 1]]
