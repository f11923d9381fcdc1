"""Naive Bayes as WEKA's NaiveBayes: kernel density (-K) or normal estimators.

Per numeric attribute, WEKA computes a precision from the training data
(``(max - min) / (number of distinct values - 1)``, default 0.01) and rounds
values to multiples of it. With ``kernel=True`` each class gets a
``KernelEstimator``: one normal kernel per distinct rounded value, weighted by
its count, of width ``sigma = max(range / sqrt(W), precision / 6)``, and
``P(x)`` is the kernel mass of the interval ``x +- precision / 2``. WEKA sums
the kernels outward from the nearest stored value and stops once the
remaining weight cannot add 1 % (``MAX_ERROR = 0.01``); we do the same, so our
densities are WEKA's, not the exact sum. With ``kernel=False`` each class gets
a ``NormalEstimator`` (mean and standard deviation of the rounded values).
Nominal attributes use Laplace counts ``(n_vc + 1) / (n_c + |V|)``, the prior
is ``(n_c + 1) / (N + K)``; missing values are skipped in training and
prediction. Probabilities are floored at 1e-75 and rescaled as WEKA does.

:meth:`WekaNaiveBayes.fit_predict_folds` serves many cross-validation
splits of one data set at once: each attribute's value counts per class are
taken once from the whole data set, and a training fold's counts are those
minus the test fold's. From them each fold gets its precision, rounded
kernels and widths as ``fit`` computes them (normal estimators: the means and
standard deviations of its rows, summed in numpy's pairwise order, one
compiled call per fold), and each distinct test value's density is computed
once per class (test rows share values). Same operations in the same order,
so the same numbers.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .base import TabularClassifier
from .batched import MEMORY_BUDGET, FoldBatch
from .tree_kernels import np_sum

__all__ = ["WekaNaiveBayes", "attribute_precision"]

_MAX_ERROR = 0.01
_SQRT2 = math.sqrt(2.0)


def attribute_precision(col: np.ndarray) -> float:
    """WEKA's numeric precision of one attribute over non-missing training values."""
    return _precision(np.unique(col[~np.isnan(col)]))


@njit(cache=True)
def _precision(distinct):
    """WEKA's precision from an attribute's distinct values (ascending)."""
    n = distinct.shape[0]
    if n < 2:
        return 0.01
    gaps = 0.0              # WEKA sums the gaps one by one; the rounding matters for values at x.5 * precision
    for i in range(1, n):
        gaps += distinct[i] - distinct[i - 1]
    return max(gaps / (n - 1), 1e-6)


@njit(cache=True)
def _phi(z):
    return 0.5 * math.erfc(-z / _SQRT2)


@njit(cache=True)
def _kernel_prob(x, values, weights, sumw, sd, prec):
    """WEKA KernelEstimator.getProbability, including its early stop."""
    n = values.shape[0]
    if n == 0:
        return _phi((x + prec / 2) / sd) - _phi((x - prec / 2) / sd)
    lo, hi = 0, n                       # findNearestValue: first index with value >= x
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] == x:
            lo = mid
            break
        if values[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    start = lo
    s = 0.0
    wsum = 0.0
    for i in range(start, n):
        delta = values[i] - x
        p = _phi((delta + prec / 2) / sd) - _phi((delta - prec / 2) / sd)
        s += p * weights[i]
        wsum += weights[i]
        if p * (sumw - wsum) < s * _MAX_ERROR:
            break
    for i in range(start - 1, -1, -1):
        delta = values[i] - x
        p = _phi((delta + prec / 2) / sd) - _phi((delta - prec / 2) / sd)
        s += p * weights[i]
        wsum += weights[i]
        if p * (sumw - wsum) < s * _MAX_ERROR:
            break
    return s / sumw


@njit(cache=True)
def _kernel_column(x, values, weights, offsets, sumw, sd, prec, out):
    """Densities of column ``x`` under each class's estimator (out: n x K; NaN rows skipped)."""
    K = sumw.shape[0]
    for r in range(x.shape[0]):
        if x[r] != x[r]:
            continue
        for c in range(K):
            a, b = offsets[c], offsets[c + 1]
            out[r, c] = _kernel_prob(x[r], values[a:b], weights[a:b], sumw[c], sd[c], prec)


@njit(cache=True)
def _kernel_fit(distinct, counts, prec):
    """WEKA's KernelEstimators of one attribute: per class the distinct rounded values (ascending) and their
    counts, from the attribute's distinct values (ascending) and their counts per class (K x values)."""
    K, n = counts.shape
    rounded = np.rint(distinct / prec) * prec
    values, weights = np.empty(K * n), np.empty(K * n)
    offsets = np.zeros(K + 1, dtype=np.int64)
    sumw = np.zeros(K)
    sd = np.full(K, prec / 6)
    p = 0
    for c in range(K):
        first = p
        for v in range(n):
            if counts[c, v] == 0:
                continue
            if p > first and values[p - 1] == rounded[v]:
                weights[p - 1] += counts[c, v]
            else:
                values[p] = rounded[v]
                weights[p] = counts[c, v]
                p += 1
            sumw[c] += counts[c, v]
        offsets[c + 1] = p
        if p - first > 1:
            sd[c] = max((values[p - 1] - values[first]) / math.sqrt(sumw[c]), prec / 6)
    return values[:p], weights[:p], offsets, sumw, sd


@njit(cache=True)
def _laplace(counts):
    """Nominal estimators: ``(n_vc + 1) / (n_c + |V|)`` from the counts per class and value (K x values)."""
    out = counts + 1.0
    for c in range(out.shape[0]):
        out[c] /= out[c].sum()
    return out


@njit(cache=True)
def _fold_densities(counts, numeric, offsets, values, queried, kernel, precs, out):
    """One training fold's class-conditional probabilities, as ``_fit`` and ``_densities`` compute them.

    ``counts`` (K x values) are the fold's class counts of every attribute's
    values (``offsets`` delimit the attributes; numeric ones list their
    distinct values ascending in ``values``). Nominal attributes fill every
    column of ``out``; numeric ones get their precision in ``precs`` and, with
    ``kernel``, their kernel densities at the ``queried`` values.
    """
    K = counts.shape[0]
    for j in range(offsets.shape[0] - 1):
        a, b = offsets[j], offsets[j + 1]
        if not numeric[j]:
            out[:, a:b] = _laplace(counts[:, a:b])
            continue
        present = counts[:, a:b].sum(axis=0) > 0
        distinct = values[a:b][present]
        prec = _precision(distinct)
        precs[j] = prec
        if not kernel:
            continue
        kv, kw, koff, sumw, sd = _kernel_fit(distinct, np.ascontiguousarray(counts[:, a:b][:, present]), prec)
        for v in range(a, b):
            if queried[v]:
                for c in range(K):
                    lo, hi = koff[c], koff[c + 1]
                    out[c, v] = _kernel_prob(values[v], kv[lo:hi], kw[lo:hi], sumw[c], sd[c], prec)


@njit(cache=True)
def _normal_fit(XT, codes, K, precs, mean, sd):
    """NormalEstimators of the numeric attributes (rows of ``XT``, training rows in order; NaN skipped) with
    precisions ``precs``: per class the mean and standard deviation of the rounded values, as ``_fit``."""
    m, n = XT.shape
    v, vv = np.empty(n), np.empty(n)
    for j in range(m):
        prec = precs[j]
        for c in range(K):
            mean[c, j], sd[c, j] = 0.0, prec / 6
            w = 0
            for r in range(n):
                x = XT[j, r]
                if codes[r] == c and x == x:
                    v[w] = np.rint(x / prec) * prec
                    vv[w] = v[w] * v[w]
                    w += 1
            if w == 0:
                continue
            W = float(w)
            S = np_sum(v[:w])
            mean[c, j] = S / W
            s = math.sqrt(abs(np_sum(vv[:w]) - mean[c, j] * S) / W)
            if s > 1e-10:
                sd[c, j] = max(prec / 6, s)


@njit(cache=True)
def _posterior(prior, cells, dens):
    """``_predict_proba`` before normalising: ``cells`` (rows x attributes) index ``dens`` columns, -1 missing."""
    n, m = cells.shape
    K = prior.shape[0]
    P = np.empty((n, K))
    for r in range(n):
        P[r] = prior
        for j in range(m):
            v = cells[r, j]
            if v < 0:           # unchanged row: its top is >= 1e-75 since the last rescale
                continue
            top = 0.0
            for c in range(K):
                d = dens[c, v]
                P[r, c] *= 1e-75 if d < 1e-75 else d
                top = max(top, P[r, c])
            if top > 0 and top < 1e-75:
                for c in range(K):
                    P[r, c] *= 1e75
    return P


def _value_cells(Xe, nominal, n_values):
    """Each cell's column in a table of all attributes' values (-1: missing), the numeric values and offsets."""
    cells = np.full(Xe.shape, -1, dtype=np.int64)
    values, offsets = [], [0]
    for j in range(Xe.shape[1]):
        col = Xe[:, j]
        known = ~np.isnan(col)
        if nominal[j]:
            distinct, local = np.arange(n_values[j], dtype=float), col[known].astype(np.int64)
        else:
            distinct, local = np.unique(col[known], return_inverse=True)
        cells[known, j] = offsets[-1] + local
        values.append(distinct)
        offsets.append(offsets[-1] + len(distinct))
    return cells, np.concatenate(values), np.array(offsets, dtype=np.int64)


class WekaNaiveBayes(TabularClassifier):
    """WEKA NaiveBayes; ``kernel=True`` is ``-K`` (Raeder et al.'s NB), False the default.

    Deviation: none known; Phi is computed with ``erfc`` rather than WEKA's
    own Cephes port (differences in the last bits).
    """

    def __init__(self, kernel=True):
        self.kernel = kernel

    def _fit(self, X, y):
        K = len(self.classes_)
        nom, nv = self.schema_.nominal, self.schema_.n_values
        self.prior_ = (np.bincount(y, minlength=K) + 1.0) / (len(y) + K)
        self.estimators_ = []
        for j in range(X.shape[1]):
            col = X[:, j]
            known = ~np.isnan(col)
            yk = y[known]
            if nom[j]:
                counts = np.bincount(yk * nv[j] + col[known].astype(np.int64), minlength=K * nv[j])
                self.estimators_.append(("nominal", _laplace(counts.reshape(K, nv[j]))))
                continue
            if self.kernel:
                distinct, codes = np.unique(col[known], return_inverse=True)
                prec = _precision(distinct)
                counts = np.bincount(yk * len(distinct) + codes, minlength=K * len(distinct))
                self.estimators_.append(("kernel", _kernel_fit(distinct, counts.reshape(K, len(distinct)), prec)
                                         + (prec,)))
            else:
                prec = attribute_precision(col)
                r = np.rint(col[known] / prec) * prec
                mean, sd = np.zeros(K), np.full(K, prec / 6)
                for c in range(K):
                    v = r[yk == c]
                    if len(v) == 0:
                        continue
                    W, S, SS = float(len(v)), v.sum(), (v * v).sum()
                    mean[c] = S / W
                    s = math.sqrt(abs(SS - mean[c] * S) / W)
                    if s > 1e-10:
                        sd[c] = max(prec / 6, s)
                self.estimators_.append(("normal", (mean, sd, prec)))

    def _densities(self, j, col):
        """(n, K) conditional probabilities of attribute j's values (NaN rows: 1)."""
        kind, est = self.estimators_[j]
        K = len(self.classes_)
        out = np.ones((len(col), K))
        known = ~np.isnan(col)
        if kind == "nominal":
            out[known] = est[:, col[known].astype(np.int64)].T
        elif kind == "kernel":
            values, weights, offsets, sumw, sd, prec = est
            _kernel_column(col, values, weights, offsets, sumw, sd, prec, out)
        else:
            from scipy.special import ndtr

            mean, sd, prec = est
            x = np.rint(col[known] / prec)[:, None] * prec
            out[known] = ndtr((x - mean + prec / 2) / sd) - ndtr((x - mean - prec / 2) / sd)
        return out

    def _predict_proba(self, X):
        P = np.tile(self.prior_, (X.shape[0], 1))
        for j in range(X.shape[1]):
            known = ~np.isnan(X[:, j])
            P[known] *= np.maximum(self._densities(j, X[:, j])[known], 1e-75)
            top = P.max(axis=1)
            tiny = (top > 0) & (top < 1e-75)
            P[tiny] *= 1e75
        return P / P.sum(axis=1, keepdims=True)

    def fit_predict_folds(self, X, y, splits, random_states, classes) -> list[np.ndarray]:
        """Out-of-fold probabilities of every split, as fitting each split alone gives them.

        From the whole data set's value counts minus each test fold's (see the
        module docstring); normal estimators from each training fold's rows in
        one compiled call per fold.
        """
        batch = FoldBatch(X, y, classes)
        if not batch.exact:
            return batch.per_fold(self, splits, random_states)
        schema = batch.schema
        cells, values, offsets = _value_cells(batch.Xe, schema.nominal, schema.n_values)
        n_all, width = len(batch.all_classes), len(values)
        if 3 * n_all * width * 8 > MEMORY_BUDGET:
            return batch.fit_each(self, splits, random_states)
        numeric = ~schema.nominal
        normal = _NormalDensities(batch.Xe, numeric, offsets, values) if not self.kernel and numeric.any() else None
        keys = batch.codes[:, None] * width + cells

        def counts(rows):
            k = keys[rows]
            return np.bincount(k[cells[rows] >= 0], minlength=n_all * width).reshape(n_all, width)

        whole = counts(np.arange(len(batch.codes)))
        column = {c: i for i, c in enumerate(batch.all_classes)}
        precs = np.zeros(len(numeric))
        out = []
        for train, test in splits:
            train, test = np.asarray(train), np.asarray(test)
            fold_classes, codes = batch.target(train)
            K = len(fold_classes)
            held_out = counts(test)
            fold = (whole - held_out)[[column[c] for c in fold_classes]]
            dens = np.ones((K, width))
            queried = held_out.sum(axis=0) > 0
            _fold_densities(fold, numeric, offsets, values, queried, bool(self.kernel), precs, dens)
            if normal is not None:
                normal.fill(dens, train, codes, K, precs, queried)
            prior = (np.bincount(codes, minlength=K) + 1.0) / (len(codes) + K)
            P = _posterior(prior, cells[test], dens)
            out.append(batch.place(P / P.sum(axis=1, keepdims=True), fold_classes))
        return out


class _NormalDensities:
    """The normal estimators' densities of one training fold at the queried values, as ``_densities``."""

    def __init__(self, Xe, numeric, offsets, values):
        self.attrs = np.flatnonzero(numeric)
        self.XT = np.ascontiguousarray(Xe[:, self.attrs].T)
        position = np.full(len(numeric), -1)
        position[self.attrs] = np.arange(len(self.attrs))
        self.attr_of_value = np.repeat(position, np.diff(offsets))     # numeric position of each value (-1)
        self.values = values

    def fill(self, dens, train, codes, K, precs, queried):
        from scipy.special import ndtr

        prec = precs[self.attrs]
        mean, sd = np.empty((K, len(self.attrs))), np.empty((K, len(self.attrs)))
        _normal_fit(np.ascontiguousarray(self.XT[:, train]), codes, K, prec, mean, sd)
        q = np.flatnonzero(queried & (self.attr_of_value >= 0))
        j = self.attr_of_value[q]
        p = prec[j]
        x = np.rint(self.values[q] / p) * p
        m, s = mean[:, j], sd[:, j]
        dens[:, q] = ndtr((x - m + p / 2) / s) - ndtr((x - m - p / 2) / s)
