"""Linear discriminant analysis as KEEL's ``LDA-C`` (``ClassifierADLinear``), Moreno-Torres et al.'s LDA.

What KEEL's LDA does:

* Input as KEEL's reader gives it (:mod:`cvrepro.learners.keel_data`), with
  no scaling: numeric values as they are (test values clamped into the
  declared ranges), nominal attributes as their value index (0, 1, 2, ...),
  missing values as 0.0.
* Classes: ``0 .. m`` where ``m`` is the highest class index in the training
  fold (a higher declared class absent from training is never predicted).
* Class means: the class's values summed in training order, times
  ``1 / n_c`` rounded to single precision (KEEL's ``1.0f / n``); an absent
  class below ``m`` gets 0 * inf = NaN.
* Pooled covariance: the outer products of each instance's deviation from its
  class mean summed in training order, times ``1.0f / n`` (single precision).
* Inversion by Crout's LU decomposition with implicit partial pivoting (as in
  Numerical Recipes), which fails when an attribute's row is all zero or a
  pivot is below 1e-10 in absolute value.
* Discriminant of class ``s``: ``-x'A x / 2 + (A m_s)' x - m_s' A m_s / 2 +
  log(det A) / 2 + log(n_s / n)``, ``A`` the inverse covariance, ``det A`` by
  the same LU decomposition (which fails as above); the class of largest
  discriminant wins, ties and NaN to the lowest index.
* Failure: when the covariance matrix cannot be inverted (a constant
  attribute, two attributes that determine each other, such as crx's A4 and
  A5 coded as value indices, or mushroom's constant veil-type), or the
  determinant of its inverse cannot be computed, KEEL's test loop stops at
  its first instance and every test instance is given class 0 (its result
  array's initial value). That is why Moreno-Torres et al.'s LDA scores an
  AUC of exactly 0.5000 on crx and mushroom. We reproduce it: ``failed_`` is
  True and every prediction is class 0.

Probabilities: the discriminants are log posteriors up to a constant, so
``predict_proba`` is their softmax (KEEL outputs only the class, which is
their argmax; the column of KEEL's class is nudged up by one ulp where
rounding would otherwise tie it with an earlier one). A failed model, or
discriminants that are not all finite, give one-hot rows of KEEL's class.

:meth:`KeelLDA.fit_predict_folds` encodes the data set once and fits each fold
on slices of it. Per-fold sufficient statistics from whole-data sums would be
faster but would not add in KEEL's order (training order, each instance
centred by its class mean before the outer product), so the numbers, and on
near-singular folds the failures, would differ from KEEL's.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import libm
from .base import TabularClassifier
from .batched import EncodedFolds
from .keel_data import check_bounds, numeric_ranges, read_values

__all__ = ["KeelLDA", "keel_inverse"]

_MINPIVOT = 1.0e-10


@njit(cache=True)
def _ludcmp(M, indx):
    """Crout LU of ``M`` in place with implicit partial pivoting; returns (sign, ok)."""
    n = M.shape[0]
    vv = np.empty(n)
    d = 1.0
    for i in range(n):
        big = 0.0
        for j in range(n):
            t = abs(M[i, j])
            if t > big:
                big = t
        if big == 0.0:
            return d, False
        vv[i] = 1.0 / big
    for j in range(n):
        for i in range(j):
            s = M[i, j]
            for k in range(i):
                s -= M[i, k] * M[k, j]
            M[i, j] = s
        big = 0.0
        imax = -1
        for i in range(j, n):
            s = M[i, j]
            for k in range(j):
                s -= M[i, k] * M[k, j]
            M[i, j] = s
            dum = vv[i] * abs(s)
            if dum >= big:
                big = dum
                imax = i
        if imax < 0:
            return d, False
        if j != imax:
            for k in range(n):
                t = M[imax, k]
                M[imax, k] = M[j, k]
                M[j, k] = t
            d = -d
            vv[imax] = vv[j]
        indx[j] = imax
        if abs(M[j, j]) < _MINPIVOT:
            return d, False
        if j != n - 1:
            dum = 1.0 / M[j, j]
            for i in range(j + 1, n):
                M[i, j] *= dum
    return d, True


@njit(cache=True)
def _lubksb(M, indx, b):
    n = M.shape[0]
    first = -1
    for i in range(n):
        ip = indx[i]
        s = b[ip]
        b[ip] = b[i]
        if first >= 0:
            for j in range(first, i):
                s -= M[i, j] * b[j]
        elif s != 0.0:
            first = i
        b[i] = s
    for i in range(n - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, n):
            s -= M[i, j] * b[j]
        b[i] = s / M[i, i]


@njit(cache=True)
def _lu_of_transpose(A):
    """``(LU, row permutation, sign of the permutation, ok)`` of A transposed (KEEL indexes its
    matrices column-wise)."""
    M = np.ascontiguousarray(A.T).copy()
    indx = np.zeros(A.shape[0], dtype=np.int64)
    d, ok = _ludcmp(M, indx)
    return M, indx, d, ok


@njit(cache=True)
def _inverse(A):
    """(inverse of A, ok): LU of A transposed, one solve per unit vector."""
    n = A.shape[0]
    M, indx, _, ok = _lu_of_transpose(A)
    Y = np.zeros((n, n))
    if not ok:
        return Y, False
    col = np.empty(n)
    for j in range(n):
        col[:] = 0.0
        col[j] = 1.0
        _lubksb(M, indx, col)
        Y[j, :] = col
    return Y, True


@njit(cache=True)
def _determinant(A):
    n = A.shape[0]
    M, _, d, ok = _lu_of_transpose(A)
    if not ok:
        return 0.0, False
    for j in range(n):
        d *= M[j, j]
    return d, True


def keel_inverse(A: np.ndarray) -> np.ndarray | None:
    """KEEL's matrix inverse (Crout LU, pivots below 1e-10 refused): the inverse, or None if KEEL fails."""
    Y, ok = _inverse(np.ascontiguousarray(A, dtype=float))
    return Y if ok else None


@njit(cache=True)
def _fit(X, y, K):
    """(means, inverse covariance, log det term, class counts, ok) as KEEL computes them."""
    n, d = X.shape
    counts = np.zeros(K, dtype=np.int64)
    for i in range(n):
        counts[y[i]] += 1
    means = np.zeros((K, d))
    for i in range(n):
        for j in range(d):
            means[y[i], j] = means[y[i], j] + X[i, j]
    for s in range(K):
        f = np.float64(np.float32(1.0) / np.float32(counts[s])) if counts[s] > 0 else np.inf
        for j in range(d):
            means[s, j] = means[s, j] * f
    cov = np.zeros((d, d))
    dev = np.empty(d)
    for i in range(n):
        for j in range(d):
            dev[j] = X[i, j] + means[y[i], j] * -1.0
        for a in range(d):
            for b in range(d):
                cov[a, b] = cov[a, b] + (0.0 + dev[a] * dev[b])
    f = np.float64(np.float32(1.0) / np.float32(n))
    for a in range(d):
        for b in range(d):
            cov[a, b] = cov[a, b] * f
    inv, ok = _inverse(cov)
    if not ok:
        return means, cov, 0.0, counts, False
    det, ok = _determinant(inv)
    if not ok:
        return means, inv, 0.0, counts, False
    return means, inv, 0.5 * np.log(det), counts, True


@njit(cache=True)
def _discriminants(X, means, inv, half_logdet, counts, n):
    """KEEL's discriminant of each class (rows: instances), and its argmax (ties and NaN to the first)."""
    m, d = X.shape
    K = means.shape[0]
    lin = np.empty((K, d))                # (A m_s) per class
    const = np.empty(K)
    for s in range(K):
        for i in range(d):
            t = 0.0
            for k in range(d):
                t += inv[i, k] * means[s, k]
            lin[s, i] = t
        c1 = 0.0
        for i in range(d):
            c1 += means[s, i] * lin[s, i]
        const[s] = c1 * -0.5
    out = np.empty((m, K))
    pred = np.zeros(m, dtype=np.int64)
    ax = np.empty(d)
    for r in range(m):
        x = X[r]
        for i in range(d):
            t = 0.0
            for k in range(d):
                t += inv[i, k] * x[k]
            ax[i] = t
        quad = 0.0
        for i in range(d):
            quad += x[i] * ax[i]
        g0 = quad * -0.5
        for s in range(K):
            w = 0.0
            for i in range(d):
                w += lin[s, i] * x[i]
            out[r, s] = (g0 + w) + const[s] + half_logdet + np.log(counts[s] / n)
        best = 0
        for s in range(1, K):
            if out[r, s] > out[r, best]:
                best = s
        pred[r] = best
    return out, pred


class KeelLDA(EncodedFolds, TabularClassifier):
    """KEEL's linear discriminant analysis (``LDA-C``), failures included (see the module docstring).

    ``bounds``: declared ``[min, max]`` per attribute; only test values outside
    them matter (KEEL clamps them). None: the training fold's ranges.
    """

    def __init__(self, bounds=None):
        self.bounds = bounds

    def _fit(self, X, y):
        bounds = check_bounds(self.bounds, X.shape[1])
        nominal = self.schema_.nominal
        self.lo_, self.hi_ = numeric_ranges(X, nominal, bounds)
        V = np.ascontiguousarray(read_values(X, nominal, self.lo_, self.hi_, False))
        y = np.asarray(y, dtype=np.int64)
        K = int(y.max()) + 1
        self.means_, self.precision_, self.half_logdet_, self.counts_, ok = _fit(V, y, K)
        self.failed_ = not ok
        self.n_train_ = len(y)

    def _scores(self, X):
        V = np.ascontiguousarray(read_values(X, self.schema_.nominal, self.lo_, self.hi_, True))
        if self.failed_:
            return None, np.zeros(V.shape[0], dtype=np.int64)
        return _discriminants(V, self.means_, self.precision_, self.half_logdet_, self.counts_, self.n_train_)

    def discriminants(self, X):
        """KEEL's discriminant per class (columns ``classes_``; -inf for classes KEEL does not model,
        NaN for all if the model failed)."""
        scores, pred = self._scores(self._encode(X))
        out = np.full((len(pred), len(self.classes_)), -np.inf if scores is not None else np.nan)
        if scores is not None:
            out[:, :scores.shape[1]] = scores
        return out

    def _predict_codes(self, X):
        return self._scores(X)[1]

    def _predict_proba(self, X):
        scores, pred = self._scores(X)
        K = len(self.classes_)
        P = np.zeros((len(pred), K))
        if scores is None:
            P[np.arange(len(pred)), pred] = 1.0
            return P
        finite = np.isfinite(scores).all(axis=1)
        s = scores[finite]
        e = libm.exp(s - s.max(axis=1, keepdims=True))
        P[np.flatnonzero(finite)[:, None], np.arange(s.shape[1])] = e / e.sum(axis=1, keepdims=True)
        rows = np.flatnonzero(~finite)
        P[rows, pred[rows]] = 1.0
        wrong = np.flatnonzero(np.argmax(P, axis=1) != pred)
        for r in wrong:                       # rounding tied KEEL's class with an earlier one
            P[r, pred[r]] = np.nextafter(P[r].max(), 2.0)
        return P
