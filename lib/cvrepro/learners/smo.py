"""Linear support vector machine as WEKA's SMO with its defaults, solver included.

Input filters as WEKA applies them: missing values replaced by the training
mean / mode, nominal attributes made binary (NominalToBinary), all
attributes normalised to [0, 1] by training ranges. Classifier: C = 1,
linear kernel (PolyKernel, exponent 1), one binary machine per pair of
classes (1-vs-1), each trained by WEKA's ``BinarySMO`` (Platt's SMO with
Keerthi et al.'s modification, tolerance 1e-3, epsilon 1e-12) on the pair's
instances (class i first, then class j) shuffled by ``java.util.Random(1)``
(WEKA's -W 1), step for step, so the weights are WEKA's (kernel values come
from a cache of kernel rows holding the same bits as WEKA's dot products).
Output without ``-M`` is WEKA's: each pair votes for one class (a pair with
only one of its classes in the training data votes for that class),
``predict_proba`` is the normalised vote count: a hard vote for two classes,
which is why WEKA's AUROC is then ``(1 + TPR - FPR) / 2``.

``probability=True`` is ``-M``: a logistic model is fitted to each pair's
training outputs and the pairs are combined by pairwise coupling, as WEKA
does. Deviation: the logistic fit is scikit-learn's (nearly unregularised,
like WEKA's ridge 1e-8) rather than WEKA's Logistic, so these probabilities
are close to WEKA's (within ~0.02 on two-class sets), not equal; the
predicted classes agreed on every set tried.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.linear_model import LogisticRegression

from .base import TabularClassifier
from .batched import MEMORY_BUDGET, encoded_folds
from .java import JavaRandom
from .preprocessing import numeric_filters_apply, numeric_filters_fit

__all__ = ["SMO", "pairwise_coupling", "binary_smo", "kernel_cache"]

_DEL = 1000 * 5e-324          # WEKA's m_Del = 1000 * Double.MIN_VALUE
_MAX = 1.7976931348623157e308


@njit(cache=True)
def _dot(a, b):
    s = 0.0
    for t in range(a.shape[0]):
        s += a[t] * b[t]
    return s


@njit(cache=True)
def _dot_row(w, S, g):
    """``_dot(w, S[g])`` without making a view of the row (which costs more here)."""
    s = 0.0
    for t in range(w.shape[0]):
        s += w[t] * S[g, t]
    return s


def kernel_cache(S: np.ndarray, budget: int = MEMORY_BUDGET // 2):
    """Linear-kernel cache over the rows of ``S``: ``(S, S transposed, kernel matrix, row filled?)``.

    Kernel rows are filled on first use; the matrix is left empty (kernel values
    then computed each time) when it would exceed ``budget`` bytes. One cache
    can serve several solver runs on rows of ``S`` (pairs of classes, folds).
    """
    S = np.ascontiguousarray(S, dtype=float)
    n = S.shape[0]
    if 8 * n * n > budget:
        return S, np.zeros((0, 0)), np.zeros((0, 0)), np.zeros(0, np.bool_)
    return S, np.ascontiguousarray(S.T), np.empty((n, n)), np.zeros(n, np.bool_)


@njit(cache=True, inline='always')
def _kernel(S, ST, G, filled, g, h):
    """Linear kernel of rows g and h of S, WEKA's bits (summed in attribute order).

    With a cache, row g is filled on first use, across all columns at once,
    attribute by attribute: per column the same products added in the same
    order as ``_dot``.
    """
    if G.shape[0] == 0:
        s = 0.0
        for t in range(S.shape[1]):
            s += S[g, t] * S[h, t]
        return s
    if not filled[g]:
        G[g, :] = 0.0
        for t in range(ST.shape[0]):
            x = S[g, t]
            for j in range(ST.shape[1]):
                G[g, j] += x * ST[t, j]
        filled[g] = True
    return G[g, h]


# --- WEKA's SMOset: doubly linked lists I0..I4, each iterated from its most recent insertion ---

@njit(cache=True)
def _place(sets, nxt, prv, first, count, i, a, y, C):
    """Move index i to the sets I0..I4 its new multiplier a puts it in (WEKA's order of updates).

    The insertions and deletions are written out here rather than called: calls
    that pass these arrays cost more than the updates.
    """
    for k in range(5):
        if k == 0:
            member = a > 0 and a < C
        elif k == 1:
            member = y == 1 and a == 0
        elif k == 2:
            member = y == -1 and a == C
        elif k == 3:
            member = y == 1 and a == C
        else:
            member = y == -1 and a == 0
        if member and not sets[k, i]:          # insert at the head
            if count[k] == 0:
                nxt[k, i] = -1
            else:
                prv[k, first[k]] = i
                nxt[k, i] = first[k]
            prv[k, i] = -1
            first[k] = i
            sets[k, i] = True
            count[k] += 1
        elif not member and sets[k, i]:        # delete
            if first[k] == i:
                first[k] = nxt[k, i]
            else:
                nxt[k, prv[k, i]] = nxt[k, i]
            if nxt[k, i] != -1:
                prv[k, nxt[k, i]] = prv[k, i]
            sets[k, i] = False
            count[k] -= 1


@njit(cache=True)
def binary_smo(cache, ids, y, C, tol, eps):
    """WEKA's BinarySMO with a linear kernel on rows ``ids`` of the data of a
    :func:`kernel_cache` (labels y = -1 / +1): returns (w, b)."""
    n, d = ids.shape[0], cache[0].shape[1]
    w = np.zeros(d)
    alpha = np.zeros(n)
    errors = np.zeros(n)
    sets = np.zeros((5, n), np.bool_)
    nxt = np.full((5, n), -1, np.int64)
    prv = np.full((5, n), -1, np.int64)
    first = np.full(5, -1, np.int64)
    count = np.zeros(5, np.int64)
    i_low, i_up = -1, -1
    for i in range(n):
        if y[i] == -1:
            i_low = i
        else:
            i_up = i
    if i_low == -1 or i_up == -1:
        return w, (-1.0 if i_up != -1 else 1.0)
    b_up, b_low = -1.0, 1.0
    errors[i_low] = 1.0
    errors[i_up] = -1.0
    for i in range(n):
        _place(sets, nxt, prv, first, count, i, 0.0, y[i], C)       # into I1 or I4
    state = np.array([b_up, b_low])
    idx = np.array([i_up, i_low])
    S = cache[0]
    num_changed = 0
    examine_all = True
    while num_changed > 0 or examine_all:
        num_changed = 0
        for i2 in range(n):
            if not examine_all and not (alpha[i2] > 0 and alpha[i2] < C):
                continue
            # examineExample(i2), written out here: a call per example costs more than its work
            y2 = y[i2]
            if sets[0, i2]:
                F2 = errors[i2]
            else:
                F2 = (_dot_row(w, S, ids[i2]) - 0.0) + 0.0 - y2
                errors[i2] = F2
                if (sets[1, i2] or sets[2, i2]) and F2 < state[0]:
                    state[0] = F2
                    idx[0] = i2
                elif (sets[3, i2] or sets[4, i2]) and F2 > state[1]:
                    state[1] = F2
                    idx[1] = i2
            optimal = True
            i1 = -1
            if sets[0, i2] or sets[1, i2] or sets[2, i2]:
                if state[1] - F2 > 2 * tol:
                    optimal = False
                    i1 = idx[1]
            if sets[0, i2] or sets[3, i2] or sets[4, i2]:
                if F2 - state[0] > 2 * tol:
                    optimal = False
                    i1 = idx[0]
            if not optimal:
                if sets[0, i2]:
                    i1 = idx[1] if state[1] - F2 > F2 - state[0] else idx[0]
                if _take_step(i1, i2, F2, cache, ids, y, C, eps, w, alpha, errors, sets, nxt, prv, first, count,
                              state, idx):
                    num_changed += 1
            if not examine_all and state[0] > state[1] - 2 * tol:
                num_changed = 0
                break
        if examine_all:
            examine_all = False
        elif num_changed == 0:
            examine_all = True
    return w, (state[1] + state[0]) / 2.0


@njit(cache=True)
def _take_step(i1, i2, F2, cache, ids, y, C, eps, w, alpha, errors, sets, nxt, prv, first, count, state, idx):
    if i1 == i2:
        return False
    C1 = C
    C2 = C
    alph1 = alpha[i1]
    alph2 = alpha[i2]
    y1 = y[i1]
    y2 = y[i2]
    F1 = errors[i1]
    s = y1 * y2
    if y1 != y2:
        L = max(0.0, alph2 - alph1)
        H = min(C2, C1 + alph2 - alph1)
    else:
        L = max(0.0, alph1 + alph2 - C1)
        H = min(C2, alph1 + alph2)
    if L >= H:
        return False
    g1, g2 = ids[i1], ids[i2]
    S, ST, G, filled = cache
    k11 = _kernel(S, ST, G, filled, g1, g1)
    k12 = _kernel(S, ST, G, filled, g1, g2)
    k22 = _kernel(S, ST, G, filled, g2, g2)
    eta = 2 * k12 - k11 - k22
    if eta < 0:
        a2 = alph2 - y2 * (F1 - F2) / eta
        if a2 < L:
            a2 = L
        elif a2 > H:
            a2 = H
    else:
        f1 = _dot_row(w, S, g1) - 0.0
        f2 = _dot_row(w, S, g2) - 0.0
        v1 = f1 + 0.0 - y1 * alph1 * k11 - y2 * alph2 * k12
        v2 = f2 + 0.0 - y1 * alph1 * k12 - y2 * alph2 * k22
        gamma = alph1 + s * alph2
        Lobj = ((gamma - s * L) + L - 0.5 * k11 * (gamma - s * L) * (gamma - s * L) - 0.5 * k22 * L * L
                - s * k12 * (gamma - s * L) * L - y1 * (gamma - s * L) * v1 - y2 * L * v2)
        Hobj = ((gamma - s * H) + H - 0.5 * k11 * (gamma - s * H) * (gamma - s * H) - 0.5 * k22 * H * H
                - s * k12 * (gamma - s * H) * H - y1 * (gamma - s * H) * v1 - y2 * H * v2)
        if Lobj > Hobj + eps:
            a2 = L
        elif Lobj < Hobj - eps:
            a2 = H
        else:
            a2 = alph2
    if abs(a2 - alph2) < eps * (a2 + alph2 + eps):
        return False
    if a2 > C2 - _DEL * C2:
        a2 = C2
    elif a2 <= _DEL * C2:
        a2 = 0.0
    a1 = alph1 + s * (alph2 - a2)
    if a1 > C1 - _DEL * C1:
        a1 = C1
    elif a1 <= _DEL * C1:
        a1 = 0.0
    _place(sets, nxt, prv, first, count, i1, a1, y1, C1)
    _place(sets, nxt, prv, first, count, i2, a2, y2, C2)
    for t in range(w.shape[0]):
        w[t] += y1 * (a1 - alph1) * S[g1, t]
    for t in range(w.shape[0]):
        w[t] += y2 * (a2 - alph2) * S[g2, t]
    errors[i1] += y1 * (a1 - alph1) * k11 + y2 * (a2 - alph2) * k12
    errors[i2] += y1 * (a1 - alph1) * k12 + y2 * (a2 - alph2) * k22
    alpha[i1] = a1
    alpha[i2] = a2
    # one pass over I0 (WEKA makes two): update each error, then compare it (same values, same order),
    # with b_up, b_low in locals; rows g1, g2 are cached by now and read directly (a call costs more)
    b_up, b_low, i_up, i_low = _MAX, -_MAX, -1, -1
    cached = G.shape[0] > 0
    j = first[0]
    while j != -1:
        if j != i1 and j != i2:
            h = ids[j]
            k1 = G[g1, h] if cached else _kernel(S, ST, G, filled, g1, h)
            k2 = G[g2, h] if cached else _kernel(S, ST, G, filled, g2, h)
            errors[j] += y1 * (a1 - alph1) * k1 + y2 * (a2 - alph2) * k2
        e = errors[j]
        if e < b_up:
            b_up, i_up = e, j
        if e > b_low:
            b_low, i_low = e, j
        j = nxt[0, j]
    state[0], state[1], idx[0], idx[1] = b_up, b_low, i_up, i_low
    for i in (i1, i2):
        if not sets[0, i]:
            if sets[3, i] or sets[4, i]:
                if errors[i] > state[1]:
                    state[1] = errors[i]
                    idx[1] = i
            else:
                if errors[i] < state[0]:
                    state[0] = errors[i]
                    idx[0] = i
    return True


@njit(cache=True)
def _outputs(Z, w, b):
    """WEKA's SVMOutput for every row: w.x summed in attribute order, minus b."""
    out = np.empty(Z.shape[0])
    for i in range(Z.shape[0]):
        out[i] = _dot(w, Z[i]) - b
    return out


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
    """WEKA SMO defaults: C=1, linear kernel, [0, 1] normalisation, 1-vs-1 hard votes.

    ``random_state`` is WEKA's -W (default 1), the seed that shuffles each pair's data.
    """

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
        seed = 1 if self.random_state is None else self.random_state
        if not isinstance(seed, (int, np.integer)):
            raise ValueError(f"random_state must be an int seed (WEKA's -W), got {seed!r}")
        # handed over by fit_predict_folds: (cache, rows), a kernel cache over a whole-data
        # filtering and the rows of it that X is; used if X filters to the same bits
        shared = self.__dict__.pop("_shared", None)
        self.filters_, Z = self.filters_fit(X)
        if shared is not None and np.asarray(Z, dtype=float).tobytes() == shared[0][0][shared[1]].tobytes():
            cache, ids = shared
        else:
            cache, ids = kernel_cache(Z), np.arange(len(y))
        K = len(self.classes_)
        rng = JavaRandom(int(seed))
        by_class = [np.flatnonzero(y == c) for c in range(K)]
        self.machines_ = {}
        for i in range(K):
            for j in range(i + 1, K):
                rows = rng.shuffle(np.concatenate([by_class[i], by_class[j]]))   # Instances.randomize
                if len(rows) == 0:
                    continue                                    # WEKA: an untrained pair does not vote
                labels = np.where(y[rows] == i, -1.0, 1.0)
                self.machines_[(i, j)] = binary_smo(cache, ids[rows], labels, float(self.C), float(self.tol), 1e-12)
        self.calibrators_ = {}
        if self.probability:
            F = self._pair_outputs(Z)
            for (i, j), f in F.items():
                m = (y == i) | (y == j)
                target = (y[m] == i).astype(int)
                if len(np.unique(target)) < 2:
                    continue
                self.calibrators_[(i, j)] = (LogisticRegression(C=1e8, max_iter=1000)
                                             .fit(f[m][:, None], target), m.sum())

    def fit_predict_folds(self, X, y, splits, random_states, classes) -> list[np.ndarray]:
        """Out-of-fold probabilities of every split, as fitting each split alone gives them.

        The data set is encoded once and also filtered as a whole. Folds whose
        training rows filter to the same bits as those rows of the whole (e.g. on
        all-nominal data) share one kernel cache over it, across pairs and folds;
        the others fill their own. A cache holds at most half of ``MEMORY_BUDGET``.
        """
        whole = []                                      # the whole data set's kernel cache, made on first use

        def share(batch, model, train):
            if not whole:
                whole.append(kernel_cache(model.filters_fit(batch.Xe)[1]))
            model._shared = (whole[0], np.asarray(train, dtype=np.int64))

        return encoded_folds(self, X, y, splits, random_states, classes, before_fit=share)

    def _pair_outputs(self, Z):
        """Per pair (i, j), i < j: minus WEKA's output w.x - b, so that >= 0 votes for class i."""
        Z = np.ascontiguousarray(Z)
        return {p: -_outputs(Z, w, b) for p, (w, b) in self.machines_.items()}

    def _predict_proba(self, X):
        K = len(self.classes_)
        if K == 1:                                      # no pair to vote: the only class seen
            return np.ones((X.shape[0], 1))
        out = np.zeros((X.shape[0], K))
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
        if K == 2:
            out[:, 0], out[:, 1] = r[:, 0, 1], r[:, 1, 0]
            return out
        return pairwise_coupling(n, r)
