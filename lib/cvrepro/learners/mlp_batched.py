"""WEKA MultilayerPerceptron training of many models at once, vectorized across the models.

Each model (one per cross-validation split) keeps its own training set,
normalisation, shuffled order and initial weights; at step ``t`` of an epoch
every model processes its own ``t``-th instance. The models' weights are
stored with the model index innermost, so each arithmetic step of
:func:`cvrepro.learners.mlp.train` becomes a loop over models that the
compiler turns into SIMD instructions. Per model, the operations and their
order are exactly those of the one-model trainer (no fused multiply-adds, no
reassociation), so the weights are the same bits; models with fewer training
instances than the longest skip their last steps of each epoch (their state is
restored after those steps).

Speed: one training step is one compiled function (no per-step array views or
calls), the input->hidden update is fused with the next step's hidden sums,
and :func:`lanes` pads small groups with idle models so that the loops over
models vectorize.

``exp`` is fdlibm's (as in :func:`cvrepro.learners.java.java_exp`), rewritten
without branches for the sigmoid's clipped range [-45, 45], where its result
is the same.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .java import EXP_P1, EXP_P2, EXP_P3, EXP_P4, EXP_P5, INV_LN2, LN2_HI, LN2_LO

__all__ = ["train_many", "lanes", "branch_free_sigmoid"]

_HALF_LN2, _THREEHALF_LN2 = 0.5 * 0.6931471805599453, 1.5 * 0.6931471805599453


def lanes(M: int) -> int:
    """How many models to train together for ``M`` real ones (the rest idle, all-zero data).

    The compiler's vectorized loops run only from 28 models on with 256-bit
    vectors, 32 with 512-bit ones (below, scalar code is ~2-3 times slower),
    and a multiple of 8 leaves no scalar remainder with either.
    """
    return M if M < 12 else max(32, -(-M // 8) * 8)


@njit(cache=True, error_model="numpy")       # no division checks: they block SIMD
def branch_free_sigmoid(v):
    """:func:`cvrepro.learners.mlp.sigmoid` without branches, so that loops over models vectorize."""
    x = min(max(-v, -45.0), 45.0)            # fdlibm exp(x), branch-free for |x| <= 45
    ax = abs(x)
    neg = x < 0
    kk = int(INV_LN2 * x + (-0.5 if neg else 0.5))
    if ax < _THREEHALF_LN2:
        kk = -1 if neg else 1
    if ax <= _HALF_LN2:
        kk = 0
    hi = x - kk * LN2_HI
    lo = kk * LN2_LO
    r = hi - lo if kk != 0 else x
    t = r * r
    c = r - t * (EXP_P1 + t * (EXP_P2 + t * (EXP_P3 + t * (EXP_P4 + t * EXP_P5))))
    q = (r * c) / (c - 2.0)                  # fdlibm's (r*c)/(2-c) is exactly -q: one division
    y = 1.0 - ((lo + q) - hi) if kk != 0 else (1.0 + r if ax < 3.725290298461914e-09 else 1.0 - (q - r))
    e = y * np.int64((kk + 1023) << 52).view(np.float64)     # y * 2**k is ldexp(y, k) (normal range)
    return 0.0 if v < -45.0 else (1.0 if v > 45.0 else 1.0 / (1.0 + e))


@njit(cache=True, error_model="numpy")
def _hidden_sums(W1, x, v1):
    """``v1[j, m] = W1[0, j, m] + sum_a x[a, m] * W1[a + 1, j, m]``, summed in attribute order."""
    H, M = v1.shape
    for j in range(H):
        for m in range(M):
            v1[j, m] = W1[0, j, m]
    for a in range(x.shape[0]):
        for j in range(H):
            for m in range(M):
                v1[j, m] += x[a, m] * W1[a + 1, j, m]


@njit(cache=True, error_model="numpy")
def _step(S, T, t, tn, W1, dW1, W2, dW2, v1, h, v, o, d_out, d_hid, g, lr, momentum):
    """One back-propagation step of every model on its instance ``t`` (hidden sums ``v1`` given);
    leaves in ``v1`` the hidden sums of instance ``tn`` under the new weights."""
    H, K, M = W1.shape[1], W2.shape[1], W1.shape[2]
    for j in range(H):
        for m in range(M):
            h[j, m] = branch_free_sigmoid(v1[j, m])
    for c in range(K):
        for m in range(M):
            v[c, m] = W2[0, c, m]
        for j in range(H):
            for m in range(M):
                v[c, m] += h[j, m] * W2[j + 1, c, m]
    for c in range(K):
        for m in range(M):
            o[c, m] = branch_free_sigmoid(v[c, m])
    for c in range(K):
        for m in range(M):
            target = 1.0 if T[t, m] == c else 0.0
            d_out[c, m] = (target - o[c, m]) * (o[c, m] * (1.0 - o[c, m]))     # WEKA's order of operations
    for j in range(H):
        for m in range(M):
            g[j, m] = 0.0
        for c in range(K):
            for m in range(M):
                g[j, m] += d_out[c, m] * W2[j + 1, c, m]
        for m in range(M):
            d_hid[j, m] = g[j, m] * (h[j, m] * (1.0 - h[j, m]))
    for c in range(K):                       # hidden->output weights, bias first (WEKA's momentum update)
        for m in range(M):
            ch = lr * d_out[c, m] + momentum * dW2[0, c, m]
            W2[0, c, m] += ch
            dW2[0, c, m] = ch
        for j in range(H):
            for m in range(M):
                ch = (lr * d_out[c, m]) * h[j, m] + momentum * dW2[j + 1, c, m]
                W2[j + 1, c, m] += ch
                dW2[j + 1, c, m] = ch
    for j in range(H):                       # input->hidden weights, fused with the next instance's sums
        for m in range(M):
            g[j, m] = lr * d_hid[j, m]
            ch = g[j, m] + momentum * dW1[0, j, m]
            W1[0, j, m] += ch
            dW1[0, j, m] = ch
            v1[j, m] = W1[0, j, m]
    for a in range(S.shape[1]):
        for j in range(H):
            for m in range(M):
                ch = g[j, m] * S[t, a, m] + momentum * dW1[a + 1, j, m]
                new = W1[a + 1, j, m] + ch
                W1[a + 1, j, m] = new
                dW1[a + 1, j, m] = ch
                v1[j, m] += S[tn, a, m] * new


@njit(cache=True, error_model="numpy")
def train_many(S, T, n, W1, W2, epochs, lr, momentum):
    """Train M one-hidden-layer networks in place.

    S: (steps, d, M) inputs, model m's shuffled, scaled training instance at step t;
    T: (steps, M) class codes; n: (M,) training-set sizes (steps >= n[m] are skipped);
    W1: (d + 1, H, M) input->hidden, W2: (H + 1, K, M) hidden->output initial weights, bias first.
    """
    steps, M = S.shape[0], S.shape[2]
    H, K = W1.shape[1], W2.shape[1]
    dW1, dW2 = np.zeros_like(W1), np.zeros_like(W2)
    v1, h, d_hid, g = np.zeros((H, M)), np.zeros((H, M)), np.zeros((H, M)), np.zeros((H, M))
    v, o, d_out = np.zeros((K, M)), np.zeros((K, M)), np.zeros((K, M))
    shortest = n.min()
    _hidden_sums(W1, S[0], v1)
    for _ in range(epochs):
        for t in range(steps):
            tn = t + 1 if t + 1 < steps else 0
            if t < shortest:
                _step(S, T, t, tn, W1, dW1, W2, dW2, v1, h, v, o, d_out, d_hid, g, lr, momentum)
                continue
            saved = (W1.copy(), W2.copy(), dW1.copy(), dW2.copy())     # some models have finished this epoch
            _step(S, T, t, tn, W1, dW1, W2, dW2, v1, h, v, o, d_out, d_hid, g, lr, momentum)
            for m in range(M):
                if t >= n[m]:
                    W1[:, :, m], W2[:, :, m] = saved[0][:, :, m], saved[1][:, :, m]
                    dW1[:, :, m], dW2[:, :, m] = saved[2][:, :, m], saved[3][:, :, m]
            _hidden_sums(W1, S[tn], v1)
