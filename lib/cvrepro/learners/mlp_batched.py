"""WEKA MultilayerPerceptron training of many models at once, vectorized across the models.

Each model (one per cross-validation split) keeps its own training set,
normalisation, shuffled order and initial weights; at step ``t`` of an epoch
every model processes its own ``t``-th instance. The models' weights are
stored with the model index innermost, so each arithmetic step of
:func:`cvrepro.learners.mlp._train` becomes a loop over models that the
compiler turns into SIMD instructions. Per model, the operations and their
order are exactly those of the one-model trainer (no fused multiply-adds, no
reassociation), so the weights are the same bits; models with fewer training
instances than the longest skip their last steps of each epoch (their state is
restored after those steps).

``exp`` is fdlibm's (as in :func:`cvrepro.learners.mlp.java_exp`), rewritten
without branches for the sigmoid's clipped range [-45, 45], where its result
is the same.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .mlp import _INV_LN2, _LN2_HI, _LN2_LO, _P1, _P2, _P3, _P4, _P5

__all__ = ["train_many", "sigmoid_many"]

_HALF_LN2, _THREEHALF_LN2 = 0.5 * 0.6931471805599453, 1.5 * 0.6931471805599453


@njit(cache=True, error_model="numpy")       # no division checks: they block SIMD
def sigmoid_many(v, out, k, y):
    """``out[m] = _sigmoid(v[m])`` for every model (``k``, ``y``: scratch arrays of len(v))."""
    M = v.shape[0]
    for m in range(M):                       # fdlibm exp(-v), branch-free for |x| <= 45
        x = min(max(-v[m], -45.0), 45.0)
        ax = abs(x)
        neg = x < 0
        kk = int(_INV_LN2 * x + (-0.5 if neg else 0.5))
        if ax < _THREEHALF_LN2:
            kk = -1 if neg else 1
        if ax <= _HALF_LN2:
            kk = 0
        hi = x - kk * _LN2_HI
        lo = kk * _LN2_LO
        r = hi - lo if kk != 0 else x
        t = r * r
        c = r - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
        small = 1.0 - ((r * c) / (c - 2.0) - r)
        big = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
        y[m] = big if kk != 0 else (1.0 + r if ax < 3.725290298461914e-09 else small)
        k[m] = (kk + 1023) << 52
    scale = k.view(np.float64)               # 2**k, so that y * 2**k is ldexp(y, k) (normal range)
    for m in range(M):
        e = y[m] * scale[m]
        s = 1.0 / (1.0 + e)
        out[m] = 0.0 if v[m] < -45.0 else (1.0 if v[m] > 45.0 else s)


@njit(cache=True, error_model="numpy")
def _weighted_sum(w, x, v):
    """``v[m] = w[0, m] + sum_a x[a, m] * w[a + 1, m]``, summed in attribute order (per model)."""
    M = v.shape[0]
    for m in range(M):
        v[m] = w[0, m]
    for a in range(x.shape[0]):
        for m in range(M):
            v[m] += x[a, m] * w[a + 1, m]


@njit(cache=True, error_model="numpy")
def _update(w, dw, x, delta, lr, momentum, g):
    """WEKA's momentum update of one unit's weights (bias first) towards inputs ``x``."""
    M = g.shape[0]
    for m in range(M):
        g[m] = lr * delta[m]
        ch = g[m] + momentum * dw[0, m]
        w[0, m] += ch
        dw[0, m] = ch
    for a in range(x.shape[0]):
        for m in range(M):
            ch = g[m] * x[a, m] + momentum * dw[a + 1, m]
            w[a + 1, m] += ch
            dw[a + 1, m] = ch


@njit(cache=True, error_model="numpy")
def _update_and_sum(w, dw, x, delta, lr, momentum, g, x_next, v_next):
    """:func:`_update`, fused with the next step's :func:`_weighted_sum` over the new weights."""
    M = g.shape[0]
    for m in range(M):
        g[m] = lr * delta[m]
        ch = g[m] + momentum * dw[0, m]
        w[0, m] += ch
        dw[0, m] = ch
        v_next[m] = w[0, m]
    for a in range(x.shape[0]):
        for m in range(M):
            ch = g[m] * x[a, m] + momentum * dw[a + 1, m]
            new = w[a + 1, m] + ch
            w[a + 1, m] = new
            dw[a + 1, m] = ch
            v_next[m] += x_next[a, m] * new


@njit(cache=True, error_model="numpy")
def train_many(S, T, n, W1, W2, epochs, lr, momentum):
    """Train M one-hidden-layer networks in place.

    S: (steps, d, M) inputs, model m's shuffled, scaled training instance at step t;
    T: (steps, M) class codes; n: (M,) training-set sizes (steps >= n[m] are skipped);
    W1: (H, d + 1, M), W2: (K, H + 1, M) initial weights, bias first.
    """
    steps, d, M = S.shape
    H, K = W1.shape[0], W2.shape[0]
    dW1 = np.zeros_like(W1)
    dW2 = np.zeros_like(W2)
    h = np.zeros((H, M))
    o = np.zeros((K, M))
    d_out = np.zeros((K, M))
    d_hid = np.zeros((H, M))
    v = np.zeros(M)
    s = np.zeros(M)
    g = np.zeros(M)
    shortest = n.min()
    k = np.zeros(M, dtype=np.int64)
    y = np.zeros(M)
    v1 = np.zeros((H, M))                    # hidden units' weighted sums of the current instance
    for j in range(H):
        _weighted_sum(W1[j], S[0], v1[j])
    for _ in range(epochs):
        for t in range(steps):
            x = S[t]
            x_next = S[t + 1] if t + 1 < steps else S[0]
            if t >= shortest:                # some models have finished this epoch: keep their state
                saved = (W1.copy(), W2.copy(), dW1.copy(), dW2.copy())
            for j in range(H):
                sigmoid_many(v1[j], h[j], k, y)
            for c in range(K):
                _weighted_sum(W2[c], h, v)
                sigmoid_many(v, o[c], k, y)
            for c in range(K):
                for m in range(M):
                    target = 1.0 if T[t, m] == c else 0.0
                    d_out[c, m] = (target - o[c, m]) * (o[c, m] * (1.0 - o[c, m]))
            for j in range(H):
                for m in range(M):
                    s[m] = 0.0
                for c in range(K):
                    for m in range(M):
                        s[m] += d_out[c, m] * W2[c, j + 1, m]
                for m in range(M):
                    d_hid[j, m] = s[m] * (h[j, m] * (1.0 - h[j, m]))
            for c in range(K):
                _update(W2[c], dW2[c], h, d_out[c], lr, momentum, g)
            for j in range(H):
                _update_and_sum(W1[j], dW1[j], x, d_hid[j], lr, momentum, g, x_next, v1[j])
            if t >= shortest:
                for m in range(M):
                    if t >= n[m]:
                        W1[:, :, m], W2[:, :, m] = saved[0][:, :, m], saved[1][:, :, m]
                        dW1[:, :, m], dW2[:, :, m] = saved[2][:, :, m], saved[3][:, :, m]
                for j in range(H):
                    _weighted_sum(W1[j], x_next, v1[j])
