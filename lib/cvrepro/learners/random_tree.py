"""RandomTree as WEKA 3.6's ``weka.classifiers.trees.RandomTree`` (nominal class), defaults
``-K 0 -M 1.0 -S 1`` (no depth limit, no backfitting).

What WEKA does, and we do:

* The random generator: ``java.util.Random(seed)`` picks one training
  instance, and the generator is reseeded with the Java hash code of that
  instance's text (``Instances.getRandomNumberGenerator``: nominal values
  quoted as in ARFF, numbers with up to 6 decimals, ``?`` for missing) plus
  the seed. So the tree depends on the data's values as text, as in WEKA.
* Growing, depth first: a node is a leaf when it weighs less than
  ``2 * min_num``, is pure, or is at ``max_depth``. Otherwise attributes are
  drawn without replacement from a window shared by the whole tree (WEKA's
  ``attIndicesWindow``, whose order the draws keep permuting) until ``K``
  were examined and one of them had a gain above 1e-6 (or none is left).
  ``K = 0`` means ``int(log2(attributes)) + 1``, the class not counted (so in
  WEKA 3.6.14's bytecode; the 3.6.10 source counted the class). Each is
  scored by information gain (missing values spread in proportion to the
  known weights); a numeric attribute at its best midpoint, after sorting the
  node's instances by it (WEKA's unstable quicksort, which also reorders the
  node's instances for what follows). The largest gain wins (ties: lower
  attribute index); the node splits if it exceeds 1e-6. Instances with a
  missing value go down every branch, weighted by the branch's proportion.
* A node keeps its class counts only if it is a leaf or one of its children
  keeps none (an empty child, or an inner node); prediction is WEKA's
  ``distributionForInstance``: normalised counts, missing values weighted
  over the branches, an empty branch deferring to its parent.

``to_text()`` prints the tree as WEKA does.
"""
from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from .base import TabularClassifier
from .batched import EncodedFolds
from .java import SMALL, java_random_next_int, java_random_seed
from .weka_format import double_to_string, java_string_hash, quote
from .weka_trees import (
    GrownTree,
    WekaTreeOutput,
    branch_sizes,
    entropy_conditioned_on_rows,
    entropy_over_columns,
    max_index,
    more_node_arrays,
    node_arrays,
    numeric_split,
    weight_sum,
    weka_seed,
    weka_sort,
)

__all__ = ["RandomTree", "fit_random_tree", "RandomTreeModel", "instance_text", "default_k"]


def default_k(n_attributes: int) -> int:
    """WEKA 3.6.14's ``int(log2(attributes)) + 1`` (attributes without the class; WEKA 3.6.10 and
    earlier counted the class too)."""
    return int(math.log(n_attributes) / math.log(2)) + 1


@njit(cache=True)
def _distribution(X, y, ids, ws, a, is_nominal, n_values, K):
    """WEKA RandomTree's ``distribution``: (table with missing values spread, split point, proportions,
    the node's instance order afterwards (a numeric attribute sorts the node))."""
    m = ids.shape[0]
    split = np.nan
    first_missing = m
    if is_nominal:
        dist = np.zeros((n_values, K))
        for i in range(m):
            v = X[ids[i], a]
            if v != v:
                if first_missing == m:
                    first_missing = i
                continue
            dist[int(v), y[ids[i]]] += ws[i]
    else:
        order = weka_sort(X[ids, a])                 # Instances.sort: the node's instances reordered
        ids = ids[order]
        ws = ws[order]
        dist, split, first_missing = numeric_split(X, y, ids, ws, a, K)
    nb = dist.shape[0]
    props = np.zeros(nb)
    for b in range(nb):
        props[b] = weight_sum(dist[b])
    total = weight_sum(props)
    if abs(total) < SMALL:
        for b in range(nb):
            props[b] = 1.0 / nb
    else:
        for b in range(nb):
            props[b] /= total
    for i in range(first_missing, m):
        v = X[ids[i], a]
        if v != v:
            c = y[ids[i]]
            for b in range(nb):
                dist[b, c] += props[b] * ws[i]
    return dist, split, props, ids, ws


@njit(cache=True)
def _grow(X, y, w, nominal, n_values, K, k_value, min_num, max_depth, state):
    """Grow WEKA's RandomTree on ``X, y, w`` (rows in WEKA's order), drawing from ``state``."""
    n, d = X.shape
    att, split, first, nkids, prop, dist = node_arrays(nominal, n_values, K)
    nonempty = np.zeros(64, dtype=np.bool_)
    window = np.arange(d)
    root_probs = np.zeros(K)
    for i in range(n):
        root_probs[y[i]] += w[i]
    n_nodes = 1
    stack = [(0, np.arange(n), w.copy(), root_probs, 0)]
    while len(stack) > 0:
        node, ids, ws, class_probs, depth = stack.pop()
        if ids.shape[0] == 0:
            continue
        nonempty[node] = True
        dist[node] = class_probs
        total = weight_sum(class_probs)
        if (total < 2 * min_num or abs(class_probs[max_index(class_probs)] - total) < SMALL
                or (max_depth > 0 and depth >= max_depth)):
            continue
        val = -1.7976931348623157e308
        best_att = 0
        best_split = -1.7976931348623157e308
        best_dist = np.zeros((1, K))
        best_props = np.zeros(1)
        size = d
        k = k_value
        gain_found = False
        while size > 0 and (k > 0 or not gain_found):
            k -= 1
            chosen = java_random_next_int(state, size)
            a = window[chosen]
            window[chosen] = window[size - 1]
            window[size - 1] = a
            size -= 1
            nv = n_values[a] if nominal[a] else 2
            adist, asplit, aprops, ids, ws = _distribution(X, y, ids, ws, a, nominal[a], nv, K)
            cur = entropy_over_columns(adist) - entropy_conditioned_on_rows(adist)
            if cur > SMALL:
                gain_found = True
            if cur > val or (cur == val and a < best_att):
                val = cur
                best_att = a
                best_split = asplit
                best_props = aprops
                best_dist = adist
        if not val > SMALL:
            continue
        nb = best_dist.shape[0]
        if n_nodes + nb > att.shape[0]:
            att, split, first, nkids, prop, dist = more_node_arrays(att, split, first, nkids, prop, dist, n_nodes + nb)
            nonempty = np.concatenate((nonempty, np.zeros(att.shape[0] - nonempty.shape[0], dtype=np.bool_)))
        att[node] = best_att
        split[node] = best_split
        first[node] = n_nodes
        nkids[node] = nb
        prop[node, :nb] = best_props
        sizes = branch_sizes(X, ids, best_att, nominal[best_att], best_split, best_props)
        kid_ids = [np.empty(sizes[b], dtype=np.int64) for b in range(nb)]
        kid_ws = [np.empty(sizes[b]) for b in range(nb)]
        fill = np.zeros(nb, dtype=np.int64)
        for j in range(ids.shape[0]):
            r = ids[j]
            v = X[r, best_att]
            if v != v:
                for b in range(nb):
                    if best_props[b] > 0:
                        kid_ids[b][fill[b]] = r
                        kid_ws[b][fill[b]] = best_props[b] * ws[j]
                        fill[b] += 1
            else:
                b = int(v) if nominal[best_att] else (0 if v < best_split else 1)
                kid_ids[b][fill[b]] = r
                kid_ws[b][fill[b]] = ws[j]
                fill[b] += 1
        for b in range(nb - 1, -1, -1):
            stack.append((n_nodes + b, kid_ids[b], kid_ws[b], best_dist[b].copy(), depth + 1))
        n_nodes += nb
    # WEKA keeps a node's counts at leaves and where a child keeps none (children come after parents)
    keeps = nonempty[:n_nodes].copy()
    for node in range(n_nodes - 1, -1, -1):
        if att[node] >= 0:
            keeps[node] = False
            for b in range(nkids[node]):
                if not keeps[first[node] + b]:
                    keeps[node] = True
    return att[:n_nodes], split[:n_nodes], first[:n_nodes], nkids[:n_nodes], prop[:n_nodes], dist[:n_nodes], keeps


@njit(cache=True)
def _normalized_rows(dist, keeps):
    out = np.zeros_like(dist)
    for v in range(dist.shape[0]):
        if keeps[v]:
            s = weight_sum(dist[v])
            for c in range(dist.shape[1]):
                out[v, c] = dist[v, c] / s
    return out


def instance_text(row: np.ndarray, label: int, nominal, categories, classes) -> str:
    """WEKA's text of one instance without its weight (``Instance.toStringNoWeight``)."""
    parts = []
    for j, v in enumerate(row):
        if v != v:
            parts.append("?")
        elif nominal[j]:
            parts.append(quote(str(categories[j][int(v)])))
        else:
            parts.append(double_to_string(v, 6))
    parts.append(quote(str(classes[label])))
    return ",".join(parts)


def tree_seed(X, y, seed: int, nominal, categories, classes) -> int:
    """The seed of WEKA's ``Instances.getRandomNumberGenerator(seed)`` on these data."""
    state = java_random_seed(seed)
    pick = java_random_next_int(state, X.shape[0])
    row, label = np.asarray(X[pick], dtype=np.float64), int(y[pick])
    try:                        # the forest's trees and the folds of one data set pick the same rows again
        return _instance_hash(row.tobytes(), label, np.asarray(nominal, dtype=np.bool_).tobytes(),
                              categories, tuple(classes)) + seed
    except TypeError:           # unhashable categories: not remembered
        return java_string_hash(instance_text(row, label, nominal, categories, classes)) + seed


@functools.lru_cache(maxsize=4096)
def _instance_hash(row: bytes, label: int, nominal: bytes, categories, classes) -> int:
    """``String.hashCode`` of the instance's WEKA text (arguments as bytes and tuples, to be remembered)."""
    return java_string_hash(instance_text(np.frombuffer(row), label, np.frombuffer(nominal, dtype=np.bool_),
                                          categories, classes))


class RandomTreeModel:
    """One fitted RandomTree: the tree, its class counts and WEKA's printout."""

    def __init__(self, tree: GrownTree, dist: np.ndarray, k_value: int, max_depth: int):
        self.tree, self.dist, self.k_value, self.max_depth = tree, dist, k_value, max_depth

    def to_text(self, names, categories, nominal, classes) -> str:
        """WEKA's ``RandomTree.toString()``."""
        def leaf(node, parent):
            d = self.dist[node] if self.tree.has_probs[node] else np.zeros(len(classes))
            top = max_index(d)
            s = weight_sum(d)
            return f" : {classes[top]} ({double_to_string(s, 2)}/{double_to_string(s - d[top], 2)})"
        body = leaf(0, 0) if self.tree.attribute[0] < 0 else \
            "\n" + "\n".join(self.tree.lines(names, categories, nominal, leaf))
        depth = f"\nMax depth of tree: {self.max_depth}" if self.max_depth > 0 else ""
        return f"\nRandomTree\n==========\n{body}\n\nSize of the tree : {self.tree.n_nodes()}{depth}"


def fit_random_tree(X, y, w, nominal, n_values, categories, classes, seed=1, k_value=0, min_num=1.0,
                    max_depth=0) -> RandomTreeModel:
    """WEKA's ``RandomTree.buildClassifier`` on encoded data (rows in WEKA's order)."""
    d = X.shape[1]
    if k_value > d:
        k_value = d
    if k_value < 1:
        k_value = default_k(d)
    state = java_random_seed(tree_seed(X, y, seed, nominal, categories, classes))
    K = len(classes)
    att, split, first, nkids, prop, dist, keeps = _grow(np.ascontiguousarray(X), y, np.asarray(w, dtype=float),
                                                        nominal, n_values, K, k_value, float(min_num),
                                                        int(max_depth), state)
    tree = GrownTree(att, split, first, nkids, prop, _normalized_rows(dist, keeps), keeps)
    return RandomTreeModel(tree, dist, k_value, max_depth)


class RandomTree(WekaTreeOutput, EncodedFolds, TabularClassifier):
    """WEKA 3.6 ``RandomTree -K k_value -M min_num -S random_state -depth max_depth``.

    ``k_value=0`` is WEKA's default ``int(log2(attributes)) + 1``;
    ``random_state`` is WEKA's ``-S`` (default 1); ``max_depth=0``: unlimited.
    """

    def __init__(self, k_value=0, min_num=1.0, random_state=1, max_depth=0):
        self.k_value = k_value
        self.min_num = min_num
        self.random_state = random_state
        self.max_depth = max_depth

    def _check_options(self):
        if not isinstance(self.k_value, (int, np.integer)):
            raise ValueError(f"k_value must be an integer (0: WEKA's default), got {self.k_value!r}")
        if not self.min_num >= 0:
            raise ValueError(f"min_num must be >= 0, got {self.min_num!r}")
        if not isinstance(self.max_depth, (int, np.integer)) or self.max_depth < 0:
            raise ValueError(f"max_depth must be a non-negative integer (0: no limit), got {self.max_depth!r}")
        return weka_seed(self.random_state)

    def _fit(self, X, y):
        seed = self._check_options()
        self.model_ = fit_random_tree(X, y, np.ones(len(y)), self.schema_.nominal, self.schema_.n_values,
                                      self.schema_.categories, [str(c) for c in self.classes_], seed,
                                      int(self.k_value), self.min_num, int(self.max_depth))
