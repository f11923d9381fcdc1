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

:meth:`IBk.fit_predict_folds` gives every cross-validation split's
predictions in one call, reusing one distance matrix per data set (exactly
the per-fold numbers).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .base import TabularClassifier
from .batched import MEMORY_BUDGET, FoldBatch

__all__ = ["IBk"]


@njit(cache=True)
def _norm_value(v, lo, hi):
    if v != v:
        return np.nan
    if lo != lo or hi == lo:
        return 0.0
    return (v - lo) / (hi - lo)


@njit(cache=True)
def _sq_distance(z, row, nominal):
    """Squared IBk distance between normalised instances ``z`` and ``row``, summed in attribute order."""
    s = 0.0
    for j in range(z.shape[0]):
        a = z[j]
        b = row[j]
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
    return s


@njit(cache=True)
def _kth_smallest(dist, kk):
    """The kk-th smallest value of ``dist`` (one pass, keeping the kk smallest sorted)."""
    best = np.full(kk, np.inf)
    for t in range(dist.shape[0]):
        v = dist[t]
        if v < best[kk - 1]:
            p = kk - 1
            while p > 0 and best[p - 1] > v:
                best[p] = best[p - 1]
                p -= 1
            best[p] = v
    return best[kk - 1]


@njit(cache=True)
def _vote(dist, ytr, k, K, out):
    """IBk's probabilities from squared distances to the training instances (ties at the k-th kept)."""
    n = dist.shape[0]
    kth = _kth_smallest(dist, min(k, n))
    count = 0
    for t in range(n):
        if dist[t] <= kth:
            out[ytr[t]] += 1.0
            count += 1
    for c in range(K):
        out[c] = (out[c] + 1.0 / n) / (K / n + count)


@njit(cache=True)
def _widen(lo, hi, x, nominal):
    """WEKA's addInstanceInfo: widen the ranges by instance ``x``; returns the changed attributes."""
    changed = np.zeros(x.shape[0], dtype=np.bool_)
    for j in range(x.shape[0]):
        v = x[j]
        if nominal[j] or v != v:
            continue
        if lo[j] != lo[j]:
            lo[j] = v
            hi[j] = v
            changed[j] = True
        elif v < lo[j]:
            lo[j] = v
            changed[j] = True
        elif v > hi[j]:
            hi[j] = v
            changed[j] = True
    return changed


@njit(cache=True)
def _normalise(x, nominal, lo, hi, z):
    for j in range(x.shape[0]):
        z[j] = x[j] if nominal[j] else _norm_value(x[j], lo[j], hi[j])


@njit(cache=True)
def _ibk(Xtr, ytr, Xte, nominal, lo, hi, k, K, update):
    n, d = Xtr.shape
    lo = lo.copy()
    hi = hi.copy()
    Z = np.empty((n, d))
    for t in range(n):
        _normalise(Xtr[t], nominal, lo, hi, Z[t])
    out = np.zeros((Xte.shape[0], K))
    dist = np.empty(n)
    z = np.empty(d)
    for i in range(Xte.shape[0]):
        x = Xte[i]
        if update:
            changed = _widen(lo, hi, x, nominal)
            for j in range(d):
                if changed[j]:
                    for t in range(n):
                        Z[t, j] = _norm_value(Xtr[t, j], lo[j], hi[j])
        _normalise(x, nominal, lo, hi, z)
        for t in range(n):
            dist[t] = _sq_distance(z, Z[t], nominal)  # squared, as WEKA compares them (sqrt would merge near-ties)
        _vote(dist, ytr, k, K, out[i])
    return out


def _ranges(X):
    """Per-attribute (min, max) over known values; NaN where an attribute has none."""
    lo, hi = np.full(X.shape[1], np.nan), np.full(X.shape[1], np.nan)
    known = ~np.isnan(X)
    for j in np.flatnonzero(known.any(axis=0)):
        lo[j], hi[j] = X[known[:, j], j].min(), X[known[:, j], j].max()
    return lo, hi


@njit(cache=True)
def _same(a, b):
    return (a == b) or (a != a and b != b)


@njit(cache=True)
def _n_differ(lo, hi, glo, ghi, nominal):
    """How many numeric attributes have ranges other than the whole data set's."""
    differ = 0
    for j in range(lo.shape[0]):
        if not nominal[j] and not (_same(lo[j], glo[j]) and _same(hi[j], ghi[j])):
            differ += 1
    return differ


@njit(cache=True)
def _fold_direct(X, train, ytr, test, nominal, lo, hi, glo, ghi, k, K, update, out, deferred):
    """One split, IBk's own loop, except that test instances whose current ranges are the
    whole data set's are only marked in ``deferred`` (their distances come from the shared matrix)."""
    n, d = train.shape[0], X.shape[1]
    lo = lo.copy()
    hi = hi.copy()
    differ = _n_differ(lo, hi, glo, ghi, nominal)
    Z = np.empty((n, d))
    ready = False
    dist = np.empty(n)
    z = np.empty(d)
    for i in range(test.shape[0]):
        x = X[test[i]]
        if update:
            changed = _widen(lo, hi, x, nominal)
            if changed.any():
                differ = _n_differ(lo, hi, glo, ghi, nominal)
                if ready:
                    for j in range(d):
                        if changed[j]:
                            for t in range(n):
                                Z[t, j] = _norm_value(X[train[t], j], lo[j], hi[j])
        if differ == 0:
            deferred[i] = True
            continue
        if not ready:
            for t in range(n):
                _normalise(X[train[t]], nominal, lo, hi, Z[t])
            ready = True
        _normalise(x, nominal, lo, hi, z)
        for t in range(n):
            dist[t] = _sq_distance(z, Z[t], nominal)
        _vote(dist, ytr, k, K, out[i])


@njit(cache=True)
def _shared_rows(ZgT, rows, nominal, D):
    """Squared distances of instances ``rows`` to every instance under the whole data set's
    ranges (``ZgT``: normalised data, attribute-major); :func:`_sq_distance`'s arithmetic and
    order, written branch-free over instances so that it vectorizes."""
    d, n = ZgT.shape
    for r in range(rows.shape[0]):
        out = D[r]
        out[:] = 0.0
        for j in range(d):
            a = ZgT[j, rows[r]]
            col = ZgT[j]
            if nominal[j]:
                for t in range(n):
                    out[t] += 1.0 if a != col[t] else 0.0
            elif a != a:
                for t in range(n):
                    b = col[t]
                    diff = 1.0 if b != b else (b if b >= 0.5 else 1.0 - b)
                    out[t] += diff * diff
            else:
                alt = a if a >= 0.5 else 1.0 - a
                for t in range(n):
                    b = col[t]
                    diff = alt if b != b else a - b
                    out[t] += diff * diff


@njit(cache=True)
def _shared_votes(D, local, split, pos, trains, toff, ytrs, Ks, k, outs, ooff):
    """Votes of deferred test instances from rows ``local`` of ``D``."""
    buf = np.empty(D.shape[1])
    for e in range(local.shape[0]):
        s = split[e]
        tr = trains[toff[s]:toff[s + 1]]
        dist = buf[:tr.shape[0]]
        for t in range(tr.shape[0]):
            dist[t] = D[local[e], tr[t]]
        row = outs[ooff[s] + pos[e]]
        _vote(dist, ytrs[toff[s]:toff[s + 1]], k, Ks[s], row[:Ks[s]])


class IBk(TabularClassifier):
    """WEKA IBk with ``k`` neighbours, unweighted votes, normalised Euclidean distance."""

    def __init__(self, k=1, update_ranges=True):
        self.k = k
        self.update_ranges = update_ranges

    def _fit(self, X, y):
        self._check_k()
        self.X_ = X
        self.y_ = y
        self.lo_, self.hi_ = _ranges(X)

    def _check_k(self):
        if not isinstance(self.k, (int, np.integer)) or self.k < 1:
            raise ValueError(f"k must be a positive integer, got {self.k!r}")

    def _predict_proba(self, X):
        return _ibk(self.X_, self.y_, np.ascontiguousarray(X), self.schema_.nominal, self.lo_, self.hi_,
                    int(self.k), len(self.classes_), bool(self.update_ranges))

    def fit_predict_folds(self, X, y, splits, random_states, classes):
        """Out-of-fold probabilities of every split (see :mod:`cvrepro.learners.batched`).

        Exactly the per-fold numbers. A test instance whose normalisation ranges
        (training ranges, widened by the test instances before it) are the whole
        data set's takes its distances from a matrix computed once per data set,
        in row chunks, for all splits; the others (a fold missing an extreme
        value) are computed as the per-fold path does.
        """
        self._check_k()
        batch = FoldBatch(X, y, classes)
        if not batch.exact:
            return batch.per_fold(self, splits, random_states)
        Xe, nominal = np.ascontiguousarray(batch.Xe), batch.schema.nominal
        n, d = Xe.shape
        glo, ghi = _ranges(Xe)
        k, update = int(self.k), bool(self.update_ranges)
        trains, ytrs, Ks, folds, toff, ooff = [], [], [], [], [0], [0]
        deferred = []
        for train, test in splits:
            train, test = np.asarray(train, np.int64), np.asarray(test, np.int64)
            fold_classes, codes = batch.target(train)
            lo, hi = _ranges(Xe[train])
            out = np.zeros((len(test), len(fold_classes)))
            mark = np.zeros(len(test), dtype=np.bool_)
            _fold_direct(Xe, train, codes, test, nominal, lo, hi, glo, ghi, k, len(fold_classes), update, out, mark)
            trains.append(train), ytrs.append(codes), Ks.append(len(fold_classes))
            folds.append((fold_classes, out)), deferred.append(mark)
            toff.append(toff[-1] + len(train)), ooff.append(ooff[-1] + len(test))
        split = np.concatenate([np.full(m.sum(), s) for s, m in enumerate(deferred)]).astype(np.int64)
        pos = np.concatenate([np.flatnonzero(m) for m in deferred]).astype(np.int64)
        if len(pos):
            rows = np.concatenate([np.asarray(t, np.int64)[m] for (_, t), m in zip(splits, deferred)])
            flat = np.zeros((ooff[-1], max(Ks)))
            Zg = np.empty_like(Xe)
            for t in range(n):
                _normalise(Xe[t], nominal, glo, ghi, Zg[t])
            ZgT = np.ascontiguousarray(Zg.T)
            order = np.argsort(rows, kind="stable")
            split, pos, rows = split[order], pos[order], rows[order]
            needed = np.unique(rows)
            chunk = max(1, MEMORY_BUDGET // (8 * n))
            T, Y = np.concatenate(trains), np.concatenate(ytrs)
            Ka, to, oo = np.array(Ks, np.int64), np.array(toff, np.int64), np.array(ooff, np.int64)
            buffer = np.empty((min(chunk, len(needed)), n))
            for c0 in range(0, len(needed), chunk):
                block = needed[c0:c0 + chunk]
                D = buffer[:len(block)]
                _shared_rows(ZgT, block, nominal, D)
                a, b = np.searchsorted(rows, [block[0], block[-1] + 1])
                local = np.searchsorted(block, rows[a:b])
                _shared_votes(D, local, split[a:b], pos[a:b], T, to, Y, Ka, k, flat, oo)
            for s, ((fold_classes, out), m) in enumerate(zip(folds, deferred)):
                out[m] = flat[ooff[s]:ooff[s + 1]][m, :len(fold_classes)]
        return [batch.place(out, fold_classes) for fold_classes, out in folds]
