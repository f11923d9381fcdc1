"""The batched MLP trainer equals the one-model trainer, model by model, bit for bit."""
import numpy as np
import pytest

from cvrepro.learners.mlp import train
from cvrepro.learners.mlp_batched import lanes, train_many


@pytest.mark.parametrize("M,H,K,binary", [(3, 1, 2, False), (13, 3, 2, False), (9, 4, 3, False),
                                          (30, 3, 2, True), (41, 2, 3, True)])
def test_train_many_is_train_per_model(M, H, K, binary):
    # models with different training-set sizes (the shorter skip the last steps), idle padding lanes;
    # binary inputs (as NominalToBinary gives) are passed as float32, as fit_predict_folds does
    rng = np.random.default_rng(M)
    d, steps, epochs = 5, 40, 3
    n = rng.integers(steps - 3, steps + 1, M)
    X = rng.choice([-1.0, 0.0, 1.0], (steps, d, M)) if binary else rng.normal(0, 1.5, (steps, d, M))
    y = rng.integers(0, K, (steps, M))
    W1 = rng.uniform(-0.05, 0.05, (H, d + 1, M))
    W2 = rng.uniform(-0.05, 0.05, (K, H + 1, M))
    Mp = lanes(M)
    S, T, nb = np.zeros((steps, d, Mp)), np.zeros((steps, Mp), np.int64), np.full(Mp, steps)
    S[:, :, :M], T[:, :M], nb[:M] = X, y, n
    B1, B2 = np.zeros((d + 1, H, Mp)), np.zeros((H + 1, K, Mp))
    B1[:, :, :M], B2[:, :, :M] = W1.transpose(1, 0, 2), W2.transpose(1, 0, 2)
    train_many(S.astype(np.float32) if binary else S, T, nb, B1, B2, epochs, 0.3, 0.2)
    for m in range(M):
        w1, w2 = W1[:, :, m].copy(), W2[:, :, m].copy()
        train(X[:n[m], :, m].copy(), y[:n[m], m].copy(), w1, w2, epochs, 0.3, 0.2)
        assert (B1[:, :, m].T == w1).all() and (B2[:, :, m].T == w2).all()
        assert not (w1 == W1[:, :, m]).all()                          # it did train

