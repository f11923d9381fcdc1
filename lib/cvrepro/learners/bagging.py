"""WEKA 3.6's ``Bagging`` (of REPTrees) and ``RandomForest`` (bagged RandomTrees).

What WEKA 3.6.14 does, and we do:

* ``Bagging -P 100 -S 1 -I 10 -W REPTree``: one ``java.util.Random(seed)``
  draws every bag and every member's seed. Per iteration: a bootstrap sample
  of the training set by ``Instances.resampleWithWeights`` (Walker's alias
  method over the instance weights, one ``nextDouble`` per drawn instance,
  the bag in draw order; with ``bag_size_percent < 100`` the bag is then
  shuffled and cut), then the member's seed ``random.nextInt()``, then the
  member is trained on the bag. Probabilities: the members' distributions
  summed and normalised.
* ``RandomForest -I 10 -K 0 -S 1``: the same bagging (with the out-of-bag
  bookkeeping, which draws the same bags) of RandomTrees considering
  ``K = int(log2(attributes)) + 1`` attributes per node. The out-of-bag
  error is what WEKA prints.

WEKA versions: the studies (2010-2012) ran WEKA 3.6.2-3.6.8. Those drew the
bootstrap bags by sorted cumulative uniforms instead of Walker's method (3.6.9
on; same distribution of bags, other bags for a given seed), and their
RandomForest counted the class attribute in ``K = int(log2(attributes + 1)) +
1`` (changed in 2014; differs only when attributes + 1 is a power of two).
RandomForest's default of 10 trees (``n_trees``) is theirs; WEKA 3.6.14's is
100. We follow 3.6.14, the WEKA we can check against, with the studies' 10
trees.

``to_text()`` prints the model as WEKA does (Bagging: every member tree;
RandomForest: the summary line with the out-of-bag error).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .base import TabularClassifier
from .batched import EncodedFolds
from .java import java_random_next_double, java_random_next_int32, java_random_seed, randomize
from .random_tree import default_k, fit_random_tree
from .reptree import fit_reptree
from .weka_format import double_to_string
from .weka_trees import max_index, weka_seed

__all__ = ["Bagging", "RandomForest", "resample_with_weights"]


@njit(cache=True)
def resample_with_weights(weights, state):
    """``Instances.resampleWithWeights``: indices of a bootstrap sample (Walker's alias method)."""
    M = weights.shape[0]
    P = weights.copy()
    s = 0.0
    for i in range(M):
        s += P[i]
    for i in range(M):
        P[i] /= s
    Q = np.empty(M)
    A = np.zeros(M, dtype=np.int64)
    W = np.zeros(M, dtype=np.int64)
    nn = -1
    np_ = M
    for i in range(M):
        Q[i] = M * P[i]
        if Q[i] < 1.0:
            nn += 1
            W[nn] = i
        else:
            np_ -= 1
            W[np_] = i
    if nn > -1 and np_ < M:
        for s_ in range(M - 1):
            i = W[s_]
            j = W[np_]
            A[i] = j
            Q[j] += Q[i] - 1.0
            if Q[j] < 1.0:
                np_ += 1
            if np_ >= M:
                break
    for i in range(M):
        Q[i] += i
    out = np.empty(M, dtype=np.int64)
    for k in range(M):
        U = M * java_random_next_double(state)
        i = int(U)
        out[k] = i if U < Q[i] else A[i]
    return out


def _bags(n, n_iterations, bag_size_percent, seed):
    """WEKA's bags (row indices, in draw order) and member seeds, from ``Random(seed)``."""
    state = java_random_seed(seed)
    bag_size = n * bag_size_percent // 100
    bags, seeds = [], []
    for _ in range(n_iterations):
        bag = resample_with_weights(np.ones(n), state)
        if bag_size < n:
            randomize(bag, state)
            bag = bag[:bag_size]
        bags.append(bag)
        seeds.append(int(java_random_next_int32(state)))
    return bags, seeds


def _average(distributions):
    """Bagging's ``distributionForInstance``: members' distributions summed, normalised unless all 0."""
    total = np.zeros_like(distributions[0])
    for d in distributions:
        total += d
    s = np.zeros(total.shape[0])
    for c in range(total.shape[1]):
        s += total[:, c]
    zero = np.abs(s) < 1e-6
    return np.where(zero[:, None], total, total / np.where(zero, 1.0, s)[:, None])


@njit(cache=True)
def _oob_wrong(votes, y):
    """How many rows the normalised ``votes`` misclassify (``Utils.maxIndex``; all-zero votes stay 0)."""
    wrong = 0.0
    for i in range(votes.shape[0]):
        v = votes[i]
        s = 0.0
        for c in range(v.shape[0]):
            s += v[c]
        if abs(s) >= 1e-6:
            v = v / s
        wrong += max_index(v) != y[i]
    return wrong


def _check_int(name, value, low):
    if not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


class Bagging(EncodedFolds, TabularClassifier):
    """WEKA 3.6 ``Bagging -P bag_size_percent -S random_state -I n_iterations -W REPTree`` (REPTree defaults)."""

    def __init__(self, n_iterations=10, bag_size_percent=100, random_state=1):
        self.n_iterations = n_iterations
        self.bag_size_percent = bag_size_percent
        self.random_state = random_state

    def _fit(self, X, y):
        _check_int("n_iterations", self.n_iterations, 1)
        _check_int("bag_size_percent", self.bag_size_percent, 1)
        seed = weka_seed(self.random_state)
        nominal, n_values, K = self.schema_.nominal, self.schema_.n_values, len(self.classes_)
        bags, seeds = _bags(len(y), int(self.n_iterations), int(self.bag_size_percent), seed)
        self.members_ = [fit_reptree(X[bag], y[bag], np.ones(len(bag)), nominal, n_values, K, member_seed)
                         for bag, member_seed in zip(bags, seeds)]

    def _predict_proba(self, X):
        return _average([m.tree.distribution(X, self.schema_.nominal) for m in self.members_])

    def to_text(self) -> str:
        """The model as WEKA 3.6 prints it: every member REPTree."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))]))
        classes = [str(c) for c in self.classes_]
        trees = "".join(m.to_text(names, self.schema_.categories, self.schema_.nominal, classes) + "\n\n"
                        for m in self.members_)
        return "All the base classifiers: \n\n" + trees


class RandomForest(EncodedFolds, TabularClassifier):
    """WEKA 3.6 ``RandomForest -I n_trees -K n_features -S random_state -depth max_depth``.

    ``n_features=0`` is WEKA's default ``int(log2(attributes)) + 1``.
    Attribute ``oob_error_``: the out-of-bag error WEKA prints.
    """

    def __init__(self, n_trees=10, n_features=0, random_state=1, max_depth=0):
        self.n_trees = n_trees
        self.n_features = n_features
        self.random_state = random_state
        self.max_depth = max_depth

    def _fit(self, X, y):
        _check_int("n_trees", self.n_trees, 1)
        _check_int("n_features", self.n_features, 0)
        _check_int("max_depth", self.max_depth, 0)
        seed = weka_seed(self.random_state)
        d = X.shape[1]
        k = int(self.n_features) if self.n_features >= 1 else default_k(d)
        self.k_value_ = k
        nominal, n_values, categories = self.schema_.nominal, self.schema_.n_values, self.schema_.categories
        classes = [str(c) for c in self.classes_]
        bags, seeds = _bags(len(y), int(self.n_trees), 100, seed)
        self.members_ = [fit_random_tree(X[bag], y[bag], np.ones(len(bag)), nominal, n_values, categories, classes,
                                         member_seed, k, 1.0, int(self.max_depth))
                         for bag, member_seed in zip(bags, seeds)]
        self.oob_error_ = self._oob_error(X, y, bags)

    def _oob_error(self, X, y, bags):
        """WEKA's out-of-bag error: each instance voted on by the trees whose bag missed it."""
        votes = np.zeros((len(y), len(self.classes_)))
        for m, bag in zip(self.members_, bags):
            out = np.ones(len(y), dtype=bool)
            out[bag] = False
            if out.any():
                votes[out] += m.tree.distribution(X[out], self.schema_.nominal)
        return _oob_wrong(votes, y) / len(y)

    def _predict_proba(self, X):
        return _average([m.tree.distribution(X, self.schema_.nominal) for m in self.members_])

    def to_text(self) -> str:
        """The model as WEKA 3.6 prints it (no trees, the out-of-bag error)."""
        k = self.k_value_
        depth = f"Max. depth of trees: {self.max_depth}\n" if self.max_depth > 0 else ""
        return (f"Random forest of {self.n_trees} trees, each constructed while considering {k} random "
                f"feature{'' if k == 1 else 's'}.\nOut of bag error: {double_to_string(self.oob_error_, 4)}\n"
                f"{depth}\n")
