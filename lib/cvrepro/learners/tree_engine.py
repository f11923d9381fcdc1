"""The decision-tree engine shared by C4.5 (WEKA J48), HDDT and PART: growing, prediction, printing.

The engine grows a tree the way WEKA 3.6's J48 (its
``weka.classifiers.trees.j48.C45PruneableClassifierTree``) does:
multiway splits on nominal attributes (one branch per declared value, empty
branches kept), binary splits on numeric ones, fractional instances for
missing values (in training an instance goes down every branch with weight
``w * n_b / n``; in testing the children's predictions are summed with those
weights, skipping empty children), and leaf class frequencies as
probabilities. The split criterion is the subclass's choice
(:mod:`cvrepro.learners.tree` has the estimators).

Growing and prediction run in compiled kernels
(:mod:`cvrepro.learners.tree_kernels`), and so do C4.5's collapsing and
pruning (:mod:`cvrepro.learners.tree_pruning`); printing walks :class:`Node`
objects in Python, built from the tree's arrays.
"""
from __future__ import annotations

import contextlib
import sys

import numpy as np

from .base import TabularClassifier
from .batched import encoded_folds
from .java import SMALL, weka_number_text, weka_round_text
from .tree_kernels import (
    C45_CRITERION,
    find_split,
    grow_tree,
    nlogn_table,
    node_probs,
    partition_rows,
    predict_rows,
    presort,
    restrict_presort,
    stops_growing,
)

__all__ = ["TreeEngine", "Node", "deep_recursion", "link_branches"]


def _num_incorrect(dist) -> float:
    v = dist.tolist() if isinstance(dist, np.ndarray) else dist
    return float(sum(v) - v[_max_index(v)])


def _max_index(v) -> int:
    """Index of the largest value; ties (within 1e-6) to the lowest index, as WEKA's Utils.gr loop."""
    best, best_v = 0, 0.0
    for i, x in enumerate(v.tolist() if isinstance(v, np.ndarray) else v):
        if x - best_v > SMALL:
            best, best_v = i, x
    return best


class Node:
    """One tree node; ``rows``/``w`` are the training instances (and weights) that reached it.

    A leaf has ``is_leaf`` set; an internal node tests attribute ``attr`` (a
    nominal one has a branch per value, a numeric one ``<= point`` / ``> point``
    with WEKA's tolerance: ``x - point < 1e-6`` goes to the first branch, as
    C45Split.whichSubset's Utils.smOrEq) and has ``children`` and their
    training fractions ``frac``.
    """

    __slots__ = ("dist", "attr", "point", "children", "is_leaf", "is_empty", "frac", "rows", "w", "index",
                 "uid", "total", "wrong", "sub_wrong")

    def __init__(self, rows, w, dist, total=None, wrong=None, is_empty=False):
        """A leaf; ``total``/``wrong`` as ``set_dist`` computes them, when already known (``grow_tree``)."""
        self.rows, self.w = rows, w
        if total is None:
            self.set_dist(dist)
        else:
            self.dist, self.total, self.wrong = dist, total, wrong
        self.make_leaf()
        self.is_empty = is_empty

    def set_dist(self, dist):
        """Class weights at the node, with their total and training errors (cached for pruning)."""
        self.dist = dist
        v = dist.tolist()
        self.total = float(sum(v))
        self.wrong = self.total - v[_max_index(v)]

    def make_leaf(self):
        self.attr, self.point, self.children, self.frac = -1, np.nan, None, None
        self.is_leaf = True

    def leaves(self):
        if self.is_leaf:
            yield self
        else:
            for c in self.children:
                yield from c.leaves()

    def n_nodes(self) -> int:
        return 1 if self.is_leaf else 1 + sum(c.n_nodes() for c in self.children)


def link_branches(nodes: list, attr, point, frac, first, n_kids) -> Node:
    """Give the leaves ``nodes`` (one per node of a tree's arrays) the tests and branches of the arrays'
    internal nodes (``attr >= 0``); returns the root."""
    for i in np.flatnonzero(np.asarray(attr) >= 0).tolist():
        node, lo, k = nodes[i], int(first[i]), int(n_kids[i])
        node.is_leaf, node.attr, node.point, node.frac = False, int(attr[i]), float(point[i]), frac[i, :k]
        node.children = nodes[lo:lo + k]
    return nodes[0]


@contextlib.contextmanager
def deep_recursion(limit: int = 20000):
    """Pruning and printing (and PART's partial trees) recurse once per tree level: allow deep trees."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class TreeEngine(TabularClassifier):
    """Grows a tree and predicts with it; subclasses fix the criterion (``_criterion``), the leaves
    (``_laplace``) and what follows growing (``_post_grow``: C4.5's pruning)."""

    _criterion = C45_CRITERION

    # -- growing --
    def _fit(self, X, y):
        self._setup(X, y)
        rows = np.arange(X.shape[0])
        presorted = self.__dict__.pop("_presorted", None)      # handed over by fit_predict_folds
        with deep_recursion():
            self.tree_ = self._grow(np.ones(X.shape[0]), presorted or self._presort(rows))
            self._post_grow()
            self._teardown()
            self._strip(self.tree_)
            self._model = self._model_arrays()
            self.n_leaves_ = sum(1 for _ in self.tree_.leaves())
            self.tree_size_ = self.tree_.n_nodes()

    def fit_predict_folds(self, X, y, splits, random_states, classes) -> list[np.ndarray]:
        """Out-of-fold probabilities of every split, as fitting each split alone gives them.

        As :func:`~cvrepro.learners.batched.encoded_folds`, and the numeric
        attributes are sorted once: each fold's presort is read off the whole
        data set's (for training rows in increasing order, as the engine gives).
        """
        whole = []                                     # the whole data set's presort, made on first use

        def presorted(batch, model, train):
            if not whole:
                XT = np.ascontiguousarray(batch.Xe.T)
                whole.extend(presort(XT, np.arange(XT.shape[1]), np.flatnonzero(~batch.schema.nominal)))
            if len(train) and (np.diff(train) > 0).all():
                model._presorted = restrict_presort(*whole, train)

        return encoded_folds(self, X, y, splits, random_states, classes, before_fit=presorted)

    def _setup(self, X, y):
        """Training-time state shared by the growing routines (dropped after fit)."""
        if self.min_num_obj < 1:
            raise ValueError(f"min_num_obj must be >= 1, got {self.min_num_obj!r}")
        self._X = X
        self._XT = np.ascontiguousarray(X.T)
        self._y = y
        self._K = len(self.classes_)
        self._nominal = self.schema_.nominal
        self._n_values = self.schema_.n_values
        self._nlogn = nlogn_table(X.shape[0])
        self._counted = np.ones(len(self._nominal), np.bool_)     # attributes in C4.5's average gain
        self._numeric = np.flatnonzero(~self._nominal)
        self._slot = np.full(len(self._nominal), -1, np.int64)
        self._slot[self._numeric] = np.arange(len(self._numeric))

    def _presort(self, rows):
        return presort(self._XT, rows, self._numeric)

    def _teardown(self):
        del self._X, self._XT, self._y, self._nlogn
        self.__dict__.pop("_flat", None)
        self.__dict__.pop("_all_sorted", None)

    def _stops(self, dist) -> bool:
        """J48's leaf rule: too little weight (< 2 min_num_obj) or a pure node."""
        return stops_growing(dist, float(self.min_num_obj))

    def _post_grow(self):
        pass

    def _dist(self, rows, w):
        return np.bincount(self._y[rows], weights=w, minlength=self._K).astype(np.float64)

    def _grow_arrays(self, w, presorted):
        """``grow_tree``'s arrays of the tree on all rows with weights ``w`` (``presorted`` as ``presort`` gives it)."""
        return grow_tree(self._XT, self._y, w, self._dist(np.arange(len(w)), w), *presorted, self._slot,
                         self._numeric, self._nominal, self._n_values, self._K, float(self.min_num_obj),
                         self._criterion, self._nlogn, self._counted)

    def _grow(self, w, presorted):
        """The tree on all rows with weights ``w`` as :class:`Node` objects."""
        rows, ws, start, dists, total, wrong, empty, attr, point, frac, first, n_kids = self._grow_arrays(w, presorted)
        start = start.tolist()
        nodes = [Node(rows[lo:hi], ws[lo:hi], dist, *rest)
                 for lo, hi, dist, *rest in zip(start[:-1], start[1:], dists, total.tolist(), wrong.tolist(),
                                                empty.tolist())]
        return link_branches(nodes, attr, point, frac, first, n_kids)

    def _make_split(self, node, attr, rows, w):
        """Turn ``node`` into a test on ``attr`` (chosen by ``_select``); return the branches' data."""
        node.is_leaf, node.attr = False, attr
        if not self._nominal[attr]:
            node.point = self._point
        return self._split(node, rows, w)

    def _split(self, node, rows, w):
        """The branches' (rows, w) under the node's test (``partition_rows``); sets the node's fractions."""
        nominal = self._nominal[node.attr]
        _, node.frac, r, ww, off = partition_rows(self._XT[node.attr], rows, w, nominal, node.point,
                                                    self._n_values[node.attr] if nominal else 2)
        return [(r[off[b]:off[b + 1]], ww[off[b]:off[b + 1]]) for b in range(len(off) - 1)]

    def _select(self, rows, w):
        """The attribute to split on (-1: none; PART's, node by node); its threshold goes to ``self._point``."""
        order, known = self._presort(rows)
        if "_all_sorted" not in self.__dict__:
            self._all_sorted = self._presort(np.arange(len(self._y)))
        best, self._point = find_split(self._XT, self._y, rows, w, order, known, self._slot, self._nominal,
                                        self._n_values, self._K, float(self.min_num_obj), self._criterion,
                                        self._nlogn, self._counted, *self._all_sorted)
        return best

    def _strip(self, node):
        node.rows = node.w = None
        if not node.is_leaf:
            for c in node.children:
                self._strip(c)

    # -- prediction --
    def _predict_proba(self, X):
        return predict_rows(X, self.schema_.nominal, *self._model)

    def _model_arrays(self):
        """The fitted tree as arrays for ``predict_rows`` (per node: test, branches, fractions, probabilities)."""
        nodes, first = self._bfs()
        frac = np.zeros((len(nodes), max(len(n.children) if n.children else 0 for n in nodes) or 1))
        for i, n in enumerate(nodes):
            if not n.is_leaf:
                frac[i, :len(n.children)] = n.frac
        return (np.array([n.attr for n in nodes]), np.array([n.point for n in nodes]),
                np.array([n.is_leaf for n in nodes]), np.array([n.is_empty for n in nodes]), first,
                np.array([0 if n.is_leaf else len(n.children) for n in nodes]), frac,
                self._node_probs(nodes))

    def _node_probs(self, nodes, laplace=None):
        """Class probabilities of ``nodes`` (in ``_bfs`` order), one row per node (``node_probs``):
        Laplace-smoothed if ``laplace`` (default: the learner's ``_laplace``), else frequencies."""
        return node_probs(np.array([n.dist for n in nodes], dtype=np.float64),
                          bool(self._laplace if laplace is None else laplace))

    def _bfs(self):
        """The nodes breadth first (numbered by ``uid``; siblings consecutive) and each one's first branch."""
        nodes, first = [self.tree_], []
        for i, node in enumerate(nodes):        # grows while we walk it
            node.uid = i
            first.append(len(nodes))
            if not node.is_leaf:
                nodes.extend(node.children)
        return nodes, np.array(first)

    def _predict_codes(self, X):
        P = self._predict_proba(X)
        top = P.max(axis=1, keepdims=True)
        return np.argmax(P > top - SMALL, axis=1)

    # -- printing --
    def to_text(self) -> str:
        """The tree in J48's printed format (``J48 pruned tree`` body and sizes)."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))]))
        lines = []
        if self.tree_.is_leaf:
            lines.append(": " + self._label(self.tree_.dist, self.tree_.dist))
        else:
            with deep_recursion():
                self._dump(self.tree_, 0, names, lines)
        body = "".join(lines)
        return (f"{body}\n\nNumber of Leaves  : \t{self.n_leaves_}\n\n"
                f"Size of the tree : \t{self.tree_size_}\n")

    def _label(self, dist, parent_dist):
        cls = self.classes_[_max_index(dist if dist.sum() > SMALL else parent_dist)]
        text = f"{cls} ({weka_round_text(dist.sum())}"
        wrong = _num_incorrect(dist)
        if wrong > SMALL:
            text += f"/{weka_round_text(wrong)}"
        return text + ")"

    def _dump(self, node, depth, names, lines):
        for b, child in enumerate(node.children):
            lines.append("\n" + "|   " * depth + str(names[node.attr]))
            if self.schema_.nominal[node.attr]:
                lines.append(f" = {self.schema_.categories[node.attr][b]}")
            else:
                lines.append((" <= " if b == 0 else " > ") + weka_number_text(node.point))
            if child.is_leaf:
                lines.append(": " + self._label(child.dist, node.dist))
            else:
                self._dump(child, depth + 1, names, lines)
