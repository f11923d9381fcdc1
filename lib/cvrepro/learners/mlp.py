"""Multilayer perceptron as WEKA's MultilayerPerceptron (default options, one hidden layer).

What WEKA (3.6) does, and we do: nominal attributes made binary
(NominalToBinary; a missing value makes all its indicators missing); every
attribute scaled to [-1, 1] by its training range (``(x - mid) / half_range``;
a constant attribute becomes ``x - mid``); a missing input feeds 0 to the
network (the middle of the range; no mean imputation); sigmoid hidden and output units (one output
per class, targets 0/1, inputs clipped at +-45); weights drawn uniformly from
[-0.05, 0.05] and the training set shuffled once with Java's
``java.util.Random(seed)`` in WEKA's order (instances first, then output
biases, hidden biases, input->hidden and hidden->output weights); per-instance
back-propagation of the squared error with learning rate 0.3 and momentum
0.2, for 500 epochs, instances in the shuffled order every epoch; the output
activations normalised to sum to 1 are the class probabilities.

``hidden_layers`` follows WEKA's ``-H``: ``"a"`` = (attributes + classes) / 2
units, an integer string = that many units (Raeder et al.'s ``-H 3``), ``"0"``
= no hidden layer. Only a single hidden layer is supported.

The arithmetic is WEKA's operation for operation, ``exp`` included (fdlibm's,
which is Java's ``StrictMath.exp``): over 500 epochs our weights are bit for
bit those of WEKA 3.6.14 run with ``java -XX:+UnlockDiagnosticVMOptions
-XX:-UseLibmIntrinsic``. A default HotSpot JVM replaces ``Math.exp`` by an
intrinsic that differs in the last bit for ~10 % of arguments, and
per-instance training amplifies such differences: against WEKA on a default
OpenJDK 17, probabilities agree to WEKA's 3 printed decimals on most of
Raeder et al.'s sets, while on long trainings (chess, dna) 94-99 % of
predictions agree. WEKA's own results thus depend on the JVM. The parity
tests and their fixtures (tools/record_weka_fixtures.py) therefore use the
strict JVM as the reference: its ``exp`` is fdlibm's, which Java specifies
for ``StrictMath`` and which gives the same bits on every machine, whereas
the intrinsic depends on the JVM build and the CPU.

:meth:`WekaMLP.fit_predict_folds` trains the models of many
cross-validation splits together, vectorized across models
(:mod:`cvrepro.learners.mlp_batched`), with the same weights bit for bit.

Deviation: WEKA restarts training with half the learning rate if the error
becomes NaN; with clipped sigmoids this does not happen, so we raise instead.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .base import TabularClassifier
from .batched import MEMORY_BUDGET, FoldBatch
from .java import JavaRandom, java_exp
from .mlp_batched import lanes, train_many
from .preprocessing import nominal_to_binary, range_stats

__all__ = ["WekaMLP", "sigmoid", "train"]


@njit(cache=True)
def sigmoid(v):
    """WEKA's sigmoid unit: ``1 / (1 + exp(-v))`` with Java's exp, clipped to 0 / 1 beyond +-45."""
    if v < -45.0:
        return 0.0
    if v > 45.0:
        return 1.0
    return 1.0 / (1.0 + java_exp(-v))


@njit(cache=True)
def _forward(x, W1, W2, h, o):
    H = W1.shape[0]
    for j in range(H):
        v = W1[j, 0]
        for a in range(x.shape[0]):
            v += x[a] * W1[j, a + 1]
        h[j] = sigmoid(v)
    for c in range(W2.shape[0]):
        v = W2[c, 0]
        if H > 0:
            for j in range(H):
                v += h[j] * W2[c, j + 1]
        else:
            for a in range(x.shape[0]):
                v += x[a] * W2[c, a + 1]
        o[c] = sigmoid(v)


@njit(cache=True)
def train(X, y, W1, W2, epochs, lr, momentum):
    """Train one network in place: per-instance back-propagation with momentum, WEKA's update rule.

    ``X``: the shuffled, scaled training instances; ``y``: their class codes;
    ``W1`` (H, d + 1) input->hidden and ``W2`` (K, H + 1) hidden->output
    weights, bias first (``H = 0``: no hidden layer, ``W2`` is (K, d + 1)).
    """
    n = X.shape[0]
    H, K = W1.shape[0], W2.shape[0]
    dW1 = np.zeros_like(W1)
    dW2 = np.zeros_like(W2)
    h = np.zeros(H)
    o = np.zeros(K)
    d_out = np.zeros(K)
    d_hid = np.zeros(H)
    for _ in range(epochs):
        for i in range(n):
            x = X[i]
            _forward(x, W1, W2, h, o)
            for c in range(K):
                t = 1.0 if y[i] == c else 0.0
                d_out[c] = (t - o[c]) * (o[c] * (1.0 - o[c]))     # WEKA's order of operations
            for j in range(H):
                s = 0.0
                for c in range(K):
                    s += d_out[c] * W2[c, j + 1]
                d_hid[j] = s * (h[j] * (1.0 - h[j]))
            for c in range(K):
                g = lr * d_out[c]
                ch = g + momentum * dW2[c, 0]
                W2[c, 0] += ch
                dW2[c, 0] = ch
                inputs = h if H > 0 else x
                for j in range(inputs.shape[0]):
                    ch = g * inputs[j] + momentum * dW2[c, j + 1]
                    W2[c, j + 1] += ch
                    dW2[c, j + 1] = ch
            for j in range(H):
                g = lr * d_hid[j]
                ch = g + momentum * dW1[j, 0]
                W1[j, 0] += ch
                dW1[j, 0] = ch
                for a in range(x.shape[0]):
                    ch = g * x[a] + momentum * dW1[j, a + 1]
                    W1[j, a + 1] += ch
                    dW1[j, a + 1] = ch


@njit(cache=True)
def _predict(X, W1, W2):
    out = np.zeros((X.shape[0], W2.shape[0]))
    h = np.zeros(W1.shape[0])
    for i in range(X.shape[0]):
        _forward(X[i], W1, W2, h, out[i])
    return out


def _check_finite(W1, W2):
    if not (np.isfinite(W1).all() and np.isfinite(W2).all()):
        raise FloatingPointError("MLP training diverged; try a smaller learning_rate")


def _probabilities(out):
    """Output activations normalised to sum to 1 (uniform if all are 0)."""
    s = out.sum(axis=1, keepdims=True)
    return np.where(s > 0, out / np.where(s > 0, s, 1.0), 1.0 / out.shape[1])


class WekaMLP(TabularClassifier):
    """WEKA MultilayerPerceptron: ``-L 0.3 -M 0.2 -N 500 -S random_state -H hidden_layers``."""

    def __init__(self, hidden_layers="a", learning_rate=0.3, momentum=0.2, epochs=500, random_state=0):
        self.hidden_layers = hidden_layers
        self.learning_rate = learning_rate
        self.momentum = momentum
        self.epochs = epochs
        self.random_state = random_state

    # the filters are separate so that a batched path can share them across folds
    def filters_fit(self, X):
        Z = nominal_to_binary(X, self.schema_.nominal, self.schema_.n_values)
        base, half = self._scale_params(Z)
        return (base, half), self._scale(Z, base, half)

    @staticmethod
    def _scale_params(Z):
        """Centre and half-range of each column of the training inputs ``Z`` (WEKA's [-1, 1] scaling)."""
        lo, hi = range_stats(Z)
        lo, hi = np.nan_to_num(lo), np.nan_to_num(hi)
        return (hi + lo) / 2, (hi - lo) / 2

    @staticmethod
    def _scale(Z, base, half):
        """WEKA's [-1, 1] scaling; a missing input then feeds 0 (WEKA's NeuralEnd does so)."""
        S = np.where(half != 0, (Z - base) / np.where(half != 0, half, 1.0), Z - base)
        return np.ascontiguousarray(np.nan_to_num(S, nan=0.0))

    def filters_apply(self, X):
        base, half = self.filters_
        return self._scale(nominal_to_binary(X, self.schema_.nominal, self.schema_.n_values), base, half)

    def _n_hidden(self, n_inputs: int, n_classes: int) -> int:
        spec = str(self.hidden_layers).strip()
        if spec == "a":
            return (n_inputs + n_classes) // 2
        if "," in spec or not spec.isdigit():
            raise ValueError(f"hidden_layers must be 'a' or a non-negative integer (one layer), got {spec!r}")
        return int(spec)

    @staticmethod
    def _initial_state(n, d, K, H, seed):
        """WEKA's shuffled instance order and initial weights, drawn from ``java.util.Random(seed)``."""
        rng = JavaRandom(seed)
        order = rng.shuffle(np.arange(n))                  # Instances.randomize
        draw = lambda: rng.next_double() * 0.1 - 0.05     # noqa: E731
        W2 = np.zeros((K, (H if H > 0 else d) + 1))
        W1 = np.zeros((H, d + 1))
        for c in range(K):
            W2[c, 0] = draw()
        for j in range(H):
            W1[j, 0] = draw()
        if H > 0:
            for a in range(d):
                for j in range(H):
                    W1[j, a + 1] = draw()
            for j in range(H):
                for c in range(K):
                    W2[c, j + 1] = draw()
        else:
            for a in range(d):
                for c in range(K):
                    W2[c, a + 1] = draw()
        return order, W1, W2

    def _check_options(self):
        if self.epochs < 1 or not self.learning_rate > 0:
            raise ValueError("epochs must be >= 1 and learning_rate > 0")

    @staticmethod
    def _seed(random_state) -> int:
        """WEKA's -S for ``random_state`` (its default 0 when None)."""
        seed = 0 if random_state is None else random_state
        if not isinstance(seed, (int, np.integer)):
            raise ValueError(f"random_state must be an int seed (WEKA's -S), got {seed!r}")
        return int(seed)

    def _fit(self, X, y):
        self._check_options()
        seed = self._seed(self.random_state)
        self.filters_, Z = self.filters_fit(X)
        K, d = len(self.classes_), Z.shape[1]
        H = self._n_hidden(d, K)
        order, W1, W2 = self._initial_state(len(y), d, K, H, seed)
        train(Z[order], y[order], W1, W2, int(self.epochs), float(self.learning_rate), float(self.momentum))
        _check_finite(W1, W2)
        self.W1_, self.W2_ = W1, W2

    def _predict_proba(self, X):
        return _probabilities(_predict(self.filters_apply(X), self.W1_, self.W2_))

    def fit_predict_folds(self, X, y, splits, random_states, classes):
        """Out-of-fold probabilities of every split (see :mod:`cvrepro.learners.batched`).

        The models of all splits are trained together by
        :func:`cvrepro.learners.mlp_batched.train_many` (vectorized across
        models, each with its own normalisation, seed, shuffle and weights),
        in groups sized to the memory budget. Same weights, bit for bit, as
        fitting each split alone.
        """
        batch = FoldBatch(X, y, classes)
        if not batch.exact:
            return batch.per_fold(self, splits, random_states)
        self._check_options()
        nom, nv = batch.schema.nominal, batch.schema.n_values
        Zb = nominal_to_binary(batch.Xe, nom, nv)
        d = Zb.shape[1]
        models = []                                   # (split index, fold classes, codes, H)
        for s, (train, _) in enumerate(splits):
            fold_classes, codes = batch.target(np.asarray(train))
            models.append((s, fold_classes, codes, self._n_hidden(d, len(fold_classes))))
        if any(H == 0 for *_, H in models):          # no hidden layer: trained fold by fold
            return batch.fit_each(self, splits, random_states)
        out = [None] * len(splits)
        groups = {}
        for mdl in models:
            groups.setdefault((len(mdl[1]), mdl[3]), []).append(mdl)
        steps = max(len(t) for t, _ in splits)
        per_model = steps * (d + 1) * 8
        size = int(max(1, min(256, MEMORY_BUDGET // per_model)))
        for (K, H), members in groups.items():
            for g0 in range(0, len(members), size):
                self._train_group(batch, Zb, splits, random_states, members[g0:g0 + size], K, H, steps, out)
        return out

    def _train_group(self, batch, Zb, splits, random_states, members, K, H, steps, out):
        """Train the models of ``members`` together; their test probabilities go to ``out``."""
        M, d = len(members), Zb.shape[1]
        Mp = lanes(M)                                 # idle extra models (all-zero data) keep SIMD loops busy
        S = np.zeros((steps, d, Mp))
        T = np.zeros((steps, Mp), dtype=np.int64)
        n = np.full(Mp, steps, dtype=np.int64)
        W1, W2 = np.zeros((d + 1, H, Mp)), np.zeros((H + 1, K, Mp))
        filters = []
        for m, (s, _fold_classes, codes, _) in enumerate(members):
            seed = self._seed(random_states[s])
            train = np.asarray(splits[s][0])
            Ztr = Zb[train]
            base, half = self._scale_params(Ztr)
            filters.append((base, half))
            order, w1, w2 = self._initial_state(len(train), d, K, H, seed)
            S[:len(train), :, m] = self._scale(Ztr, base, half)[order]
            T[:len(train), m] = codes[order]
            n[m] = len(train)
            W1[:, :, m], W2[:, :, m] = w1.T, w2.T
        S32 = S.astype(np.float32)                    # half the memory traffic when exact (e.g. binary inputs)
        S = S32 if (S32 == S).all() else S
        train_many(S, T, n, W1, W2, int(self.epochs), float(self.learning_rate), float(self.momentum))
        _check_finite(W1[:, :, :M], W2[:, :, :M])
        for m, (s, fold_classes, _, _) in enumerate(members):
            base, half = filters[m]
            test = np.asarray(splits[s][1])
            raw = _predict(self._scale(Zb[test], base, half), np.ascontiguousarray(W1[:, :, m].T),
                           np.ascontiguousarray(W2[:, :, m].T))
            out[s] = batch.place(_probabilities(raw), fold_classes)
