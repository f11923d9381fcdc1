"""REPTree as WEKA 3.6's ``weka.classifiers.trees.REPTree`` (nominal class), defaults
``-M 2 -V 0.001 -N 3 -S 1 -L -1``.

What WEKA does, and we do:

* Hold-out: the training set is shuffled with ``java.util.Random(seed)``
  (``Instances.randomize``), stratified into ``num_folds`` folds
  (``Instances.stratify``), fold 0 is the pruning set and the other folds,
  shuffled again with the same generator, grow the tree.
* Growing: at each node every attribute is scored by information gain
  (``entropy over columns - entropy conditioned on rows`` of its
  branch-by-class table, missing values spread over the branches in
  proportion to the known weights); nominal attributes split into one branch
  per declared value, numeric ones at the midpoint with the best gain
  (``x < split`` left). Numeric attributes are sorted once, by WEKA's
  (unstable) quicksort, and every node scans them in that order. The first
  attribute with the largest gain wins; it splits if the gain exceeds 1e-6
  and at least two branches weigh ``>= min_num``. A node is a leaf when it
  weighs less than ``2 * min_num``, is pure, or is at ``max_depth``.
  Instances with a missing value go down every branch, weighted by the
  branch's proportion.
* Reduced-error pruning: the pruning set is passed down the tree (same rule
  for missing values), each node counting its weight per class and its
  errors (its majority class, or its parent's if it is empty); bottom-up, a
  subtree becomes a leaf when its leaves' errors are not lower than the
  node's own. Then every node's class distribution is refitted on growing
  plus pruning counts ("backfitting").
* Prediction: WEKA's ``distributionForInstance`` (missing values weighted
  over the branches; an empty branch defers to its parent).

``to_text()`` prints the tree as WEKA does (``[pruning weight/errors]`` in
brackets). Regression (a numeric class) is not supported.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .base import TabularClassifier
from .batched import EncodedFolds
from .java import SMALL, java_random_seed, randomize
from .weka_format import double_to_string
from .weka_trees import (
    GrownTree,
    WekaTreeOutput,
    branch_sizes,
    cv_split,
    entropy_conditioned_on_rows,
    entropy_over_columns,
    max_index,
    more_node_arrays,
    node_arrays,
    numeric_split,
    stratify,
    weight_sum,
    weka_seed,
    weka_sort,
)

__all__ = ["REPTree", "fit_reptree", "RepTreeModel"]


@njit(cache=True)
def _root_orders(X, nominal):
    """Per attribute, the training rows in WEKA's scan order: nominal ones known first (in data
    order) then missing; numeric ones by ``Utils.sort`` (missing last)."""
    n, d = X.shape
    orders = np.empty((d, n), dtype=np.int64)
    for a in range(d):
        if nominal[a]:
            p = 0
            for i in range(n):
                if X[i, a] == X[i, a]:
                    orders[a, p] = i
                    p += 1
            for i in range(n):
                if X[i, a] != X[i, a]:
                    orders[a, p] = i
                    p += 1
        else:
            orders[a] = weka_sort(X[:, a].copy())
    return orders


@njit(cache=True)
def _attribute_split(X, y, ids, ws, a, is_nominal, n_values, K):
    """WEKA REPTree's ``distribution`` for attribute ``a``: (branch x class table with the missing
    values spread, split point, branch proportions)."""
    m = ids.shape[0]
    split = np.nan
    if is_nominal:
        dist = np.zeros((n_values, K))
        i = 0
        while i < m:
            v = X[ids[i], a]
            if v != v:
                break
            dist[int(v), y[ids[i]]] += ws[i]
            i += 1
    else:
        dist, split, i = numeric_split(X, y, ids, ws, a, K)
    nb = dist.shape[0]
    props = np.zeros(nb)
    total = 0.0
    for b in range(nb):
        s = 0.0
        for c in range(K):
            s += dist[b, c]
        props[b] = s
        total += s
    if not total > 0:
        for b in range(nb):
            props[b] = 1.0 / nb
    else:
        for b in range(nb):
            props[b] /= total
    while i < m:                                   # missing values, spread over the branches
        c = y[ids[i]]
        for b in range(nb):
            dist[b, c] += props[b] * ws[i]
        i += 1
    return dist, split, props


@njit(cache=True)
def _grow(X, y, w, nominal, n_values, K, min_num, max_depth):
    """Grow WEKA's REPTree (before pruning) on ``X, y, w``; returns the node arrays."""
    n, d = X.shape
    att, split, first, nkids, prop, dist = node_arrays(nominal, n_values, K)
    orders = _root_orders(X, nominal)
    weights = np.empty((d, n))
    for a in range(d):
        for i in range(n):
            weights[a, i] = w[orders[a, i]]
    root_probs = np.zeros(K)
    total = 0.0
    for i in range(n):
        root_probs[y[i]] += w[i]
        total += w[i]
    n_nodes = 1
    stack = [(0, orders, weights, total, root_probs, 0)]
    while len(stack) > 0:
        node, ids, ws, total_weight, class_probs, depth = stack.pop()
        m = ids.shape[1]
        if m == 0:                                  # empty: no distribution (WEKA's null)
            continue
        dist[node] = class_probs
        top = class_probs[max_index(class_probs)]
        if (total_weight < 2 * min_num or abs(top - weight_sum(class_probs)) < SMALL
                or (max_depth >= 0 and depth >= max_depth)):
            continue
        best_att = -1
        best_val = 0.0
        best_dist = np.zeros((1, K))
        best_split = np.nan
        best_props = np.zeros(1)
        for a in range(d):
            nv = n_values[a] if nominal[a] else 2
            adist, asplit, aprops = _attribute_split(X, y, ids[a], ws[a], a, nominal[a], nv, K)
            val = entropy_over_columns(adist) - entropy_conditioned_on_rows(adist)
            if best_att < 0 or val > best_val:
                best_att, best_val, best_dist, best_split, best_props = a, val, adist, asplit, aprops
        nb = best_dist.shape[0]
        count = 0
        for b in range(nb):
            if weight_sum(best_dist[b]) >= min_num:
                count += 1
        if not (best_val > SMALL and count > 1):
            continue
        # split: each attribute's scan order, restricted to each branch (missing values in every branch)
        if n_nodes + nb > att.shape[0]:
            att, split, first, nkids, prop, dist = more_node_arrays(att, split, first, nkids, prop, dist, n_nodes + nb)
        att[node] = best_att
        split[node] = best_split
        first[node] = n_nodes
        nkids[node] = nb
        prop[node, :nb] = best_props
        sizes = branch_sizes(X, ids[0], best_att, nominal[best_att], best_split, best_props)
        kid_ids = [np.empty((d, sizes[b]), dtype=np.int64) for b in range(nb)]
        kid_ws = [np.empty((d, sizes[b])) for b in range(nb)]
        for a in range(d):
            fill = np.zeros(nb, dtype=np.int64)
            for j in range(m):
                r = ids[a, j]
                v = X[r, best_att]
                if v != v:
                    for b in range(nb):
                        if best_props[b] > 0:
                            kid_ids[b][a, fill[b]] = r
                            kid_ws[b][a, fill[b]] = best_props[b] * ws[a, j]
                            fill[b] += 1
                else:
                    b = int(v) if nominal[best_att] else (0 if v < best_split else 1)
                    kid_ids[b][a, fill[b]] = r
                    kid_ws[b][a, fill[b]] = ws[a, j]
                    fill[b] += 1
        for b in range(nb - 1, -1, -1):
            stack.append((n_nodes + b, kid_ids[b], kid_ws[b], weight_sum(best_dist[b]), best_dist[b].copy(), depth + 1))
        n_nodes += nb
    has = np.zeros(n_nodes, dtype=np.bool_)
    for v in range(n_nodes):
        has[v] = weight_sum(dist[v]) > 0
    return att[:n_nodes], split[:n_nodes], first[:n_nodes], nkids[:n_nodes], prop[:n_nodes], dist[:n_nodes], has


@njit(cache=True)
def _normalized(v):
    s = weight_sum(v)
    return v / s


@njit(cache=True)
def _insert_holdout(X, y, w, nominal, att, split, first, nkids, prop, probs, has, K):
    """Pass the pruning set down the tree: per node its weight per class and its errors."""
    n_nodes = att.shape[0]
    hold = np.zeros((n_nodes, K))
    errors = np.zeros(n_nodes)
    for i in range(X.shape[0]):
        stack = [(0, w[i], 0)]
        while len(stack) > 0:
            node, wt, parent = stack.pop()
            hold[node, y[i]] += wt
            pred = max_index(probs[node]) if has[node] else max_index(probs[parent])
            if pred != y[i]:
                errors[node] += wt
            a = att[node]
            if a >= 0:
                v = X[i, a]
                if v != v:
                    for b in range(nkids[node] - 1, -1, -1):
                        if prop[node, b] > 0:
                            stack.append((first[node] + b, wt * prop[node, b], node))
                else:
                    b = int(v) if nominal[a] else (0 if v < split[node] else 1)
                    stack.append((first[node] + b, wt, node))
    return hold, errors


@njit(cache=True)
def _prune(att, first, nkids, errors):
    """Reduced-error pruning, bottom-up (children have larger ids than their parent); in place."""
    pruned = np.zeros(att.shape[0])
    for node in range(att.shape[0] - 1, -1, -1):
        if att[node] < 0:
            pruned[node] = errors[node]
            continue
        tree = 0.0
        for b in range(nkids[node]):
            tree += pruned[first[node] + b]
        if tree >= errors[node]:
            att[node] = -1
            pruned[node] = errors[node]
        else:
            pruned[node] = tree


class RepTreeModel:
    """One fitted REPTree: the tree, its growing and pruning counts, and WEKA's printout."""

    def __init__(self, tree: GrownTree, dist: np.ndarray, hold: np.ndarray):
        self.tree, self.dist, self.hold = tree, dist, hold

    def leaf_text(self, classes):
        def text(node, parent):
            probs = self.tree.probs[node] if self.tree.has_probs[node] else self.tree.probs[parent]
            top = max_index(probs)
            d, h = self.dist[node], self.hold[node]
            sd, sh = weight_sum(d), weight_sum(h)
            return (f" : {classes[top]} ({double_to_string(sd, 2)}/{double_to_string(sd - d[top], 2)})"
                    f" [{double_to_string(sh, 2)}/{double_to_string(sh - h[top], 2)}]")
        return text

    def to_text(self, names, categories, nominal, classes) -> str:
        """WEKA's ``REPTree.toString()``."""
        leaf = self.leaf_text(classes)
        if self.tree.attribute[0] < 0:
            body = leaf(0, 0)
        else:
            body = "\n" + "\n".join(self.tree.lines(names, categories, nominal, leaf))
        return f"\nREPTree\n============\n{body}\n\nSize of the tree : {self.tree.n_nodes()}"


def fit_reptree(X, y, w, nominal, n_values, K, seed=1, min_num=2.0, num_folds=3, pruning=True,
                max_depth=-1) -> RepTreeModel:
    """WEKA's ``REPTree.buildClassifier`` on encoded data (rows in WEKA's order)."""
    n = X.shape[0]
    state = java_random_seed(seed)
    order = np.arange(n)
    randomize(order, state)
    stratify(order, y, num_folds)
    if pruning:
        if num_folds > n:
            raise ValueError(f"REPTree's {num_folds} pruning folds need at least {num_folds} training instances; "
                             f"got {n} sample{'s' if n != 1 else ''}")
        train, prune = cv_split(order, num_folds, 0)
        randomize(train, state)
    else:
        train, prune = order, order[:0]
    Xt = np.ascontiguousarray(X[train])
    att, split, first, nkids, prop, dist, has = _grow(Xt, y[train], w[train], nominal, n_values, K,
                                                      float(min_num), int(max_depth))
    probs = np.array([_normalized(d) if h else np.zeros(K) for d, h in zip(dist, has)]).reshape(len(att), K)
    hold = np.zeros_like(dist)
    if pruning:
        hold, errors = _insert_holdout(np.ascontiguousarray(X[prune]), y[prune], w[prune], nominal, att, split,
                                       first, nkids, prop, probs, has, K)
        _prune(att, first, nkids, errors)
        both = dist + hold
        has = both.sum(axis=1) > 0
        probs = np.array([_normalized(b) if h else np.zeros(K) for b, h in zip(both, has)]).reshape(len(att), K)
    tree = GrownTree(att, split, first, nkids, prop, probs, has)
    return RepTreeModel(tree, dist, hold)


class REPTree(WekaTreeOutput, EncodedFolds, TabularClassifier):
    """WEKA 3.6 ``REPTree -M min_num -N num_folds -S random_state -L max_depth`` (``-P``: ``pruning=False``).

    ``random_state`` is WEKA's ``-S`` (default 1): the seed of the hold-out split.
    """

    def __init__(self, min_num=2.0, num_folds=3, random_state=1, pruning=True, max_depth=-1):
        self.min_num = min_num
        self.num_folds = num_folds
        self.random_state = random_state
        self.pruning = pruning
        self.max_depth = max_depth

    def _check_options(self):
        if not isinstance(self.num_folds, (int, np.integer)) or self.num_folds < 2:
            raise ValueError(f"num_folds must be an integer >= 2, got {self.num_folds!r}")
        if not self.min_num >= 0:
            raise ValueError(f"min_num must be >= 0, got {self.min_num!r}")
        if not isinstance(self.max_depth, (int, np.integer)):
            raise ValueError(f"max_depth must be an integer (-1: no limit), got {self.max_depth!r}")
        return weka_seed(self.random_state)

    def _fit(self, X, y):
        seed = self._check_options()
        self.model_ = fit_reptree(X, y, np.ones(len(y)), self.schema_.nominal, self.schema_.n_values,
                                  len(self.classes_), seed, self.min_num, int(self.num_folds), bool(self.pruning),
                                  int(self.max_depth))
