"""Linear support vector machine as WEKA's SMO with its defaults.

Input filters as WEKA applies them: missing values replaced by the training
mean / mode, nominal attributes made binary (NominalToBinary), all
attributes normalised to [0, 1] by training ranges. Classifier: C = 1,
linear kernel (PolyKernel, exponent 1), one binary machine per pair of
classes (1-vs-1). Output without ``-M`` is WEKA's: each pair votes for one
class, ``predict_proba`` is the normalised vote count (a hard vote for two
classes, which is why WEKA's AUROC is then ``(1 + TPR - FPR) / 2``).

``probability=True`` is ``-M``: a logistic model is fitted to each pair's
training outputs and the pairs are combined by pairwise coupling, as WEKA does.

Deviation: the quadratic program is solved by libsvm (scikit-learn's SVC,
tolerance 1e-3) instead of WEKA's implementation of Platt's SMO; both find
the same optimum up to the tolerance, so decisions can differ only for
instances on the margin of numerical precision.
"""
from __future__ import annotations

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from .base import TabularClassifier
from .preprocessing import numeric_filters_apply, numeric_filters_fit

__all__ = ["SMO", "pairwise_coupling"]


def pairwise_coupling(n: np.ndarray, r: np.ndarray, tol: float = 1e-3, max_iter: int = 1000) -> np.ndarray:
    """Hastie & Tibshirani's pairwise coupling, as WEKA's ``SMO.pairwiseCoupling``.

    ``n[i, j]``: training size of pair (i, j); ``r[..., i, j]``: P(i | i or j)
    for one instance (K x K) or many (m x K x K). Each sweep updates every
    ``p_i`` from the previous sweep's ratios, then normalises; an instance
    stops when no ``p_i`` moved by more than ``tol``.
    """
    R = np.asarray(r, dtype=float)
    single = R.ndim == 2
    R = R[None] if single else R
    K = n.shape[0]
    off = ~np.eye(K, dtype=bool)
    first = (n[None] * R * off).sum(axis=2)
    p = np.full((R.shape[0], K), 1.0 / K)
    active = np.ones(R.shape[0], dtype=bool)
    for _ in range(max_iter):
        if not active.any():
            break
        q = p[active]
        pair = q[:, :, None] + q[:, None, :]
        second = (n[None] * off * q[:, :, None] / np.where(pair > 0, pair, 1.0)).sum(axis=2)
        new = np.where(second > 0, q * first[active] / np.where(second > 0, second, 1.0), q)
        moved = (np.abs(new - q) > tol).any(axis=1)
        p[active] = new / new.sum(axis=1, keepdims=True)
        idx = np.flatnonzero(active)
        active[idx[~moved]] = False
    return p[0] if single else p


class SMO(TabularClassifier):
    """WEKA SMO defaults: C=1, linear kernel, [0, 1] normalisation, 1-vs-1 hard votes."""

    def __init__(self, C=1.0, tol=1e-3, probability=False, random_state=None):
        self.C = C
        self.tol = tol
        self.probability = probability
        self.random_state = random_state

    # the filters are separate so that a batched path can share them across folds
    def filters_fit(self, X):
        return numeric_filters_fit(X, self.schema_, scale=True)

    def filters_apply(self, X):
        return numeric_filters_apply(X, self.schema_, self.filters_)

    def _fit(self, X, y):
        if not self.C > 0:
            raise ValueError(f"C must be positive, got {self.C!r}")
        self.filters_, Z = self.filters_fit(X)
        present = np.unique(y)
        self.svc_ = None
        if len(present) > 1:
            self.svc_ = SVC(kernel="linear", C=self.C, tol=self.tol, decision_function_shape="ovo").fit(Z, y)
        self.present_ = present
        self.calibrators_ = {}
        if self.probability and self.svc_ is not None:
            F = self._pair_outputs(Z)
            for (i, j), f in F.items():
                m = (y == i) | (y == j)
                target = (y[m] == i).astype(int)
                if len(np.unique(target)) < 2:
                    continue
                self.calibrators_[(i, j)] = (LogisticRegression(C=1e8, max_iter=1000)
                                             .fit(f[m][:, None], target), m.sum())

    def _pair_outputs(self, Z):
        """Decision value of each pair (i, j), i < j: positive means class i (libsvm's sign)."""
        D = self.svc_.decision_function(Z)
        if D.ndim == 1:
            D = -D[:, None]       # binary SVC: positive means the second class
        pairs = [(int(a), int(b)) for k, a in enumerate(self.present_) for b in self.present_[k + 1:]]
        return {p: D[:, k] for k, p in enumerate(pairs)}

    def _predict_proba(self, X):
        K = len(self.classes_)
        out = np.zeros((X.shape[0], K))
        if self.svc_ is None:
            out[:, self.present_[0]] = 1.0
            return out
        F = self._pair_outputs(self.filters_apply(X))
        if not self.probability:
            for (i, j), f in F.items():
                out[f >= 0, i] += 1       # WEKA: output <= 0 votes for the lower class index
                out[f < 0, j] += 1
            return out / out.sum(axis=1, keepdims=True)
        n = np.zeros((K, K))
        r = np.zeros((X.shape[0], K, K))
        for (i, j), f in F.items():
            if (i, j) in self.calibrators_:
                lr, size = self.calibrators_[(i, j)]
                pi = lr.predict_proba(f[:, None])[:, 1]
            else:
                pi = (f >= 0).astype(float)
                size = 1
            n[i, j] = n[j, i] = size
            r[:, i, j], r[:, j, i] = pi, 1 - pi
        if len(self.present_) == 2:
            i, j = self.present_
            out[:, i], out[:, j] = r[:, i, j], r[:, j, i]
            return out
        return pairwise_coupling(n, r)
