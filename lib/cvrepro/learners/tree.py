"""C4.5 (WEKA J48) and HDDT: the estimators on the decision-tree engine.

:class:`C45` adds J48's collapsing and error-based pruning (subtree raising
included) to the engine of :mod:`cvrepro.learners.tree_engine`; :class:`HDDT`
grows by the Hellinger distance, unpruned, with Laplace leaves. PART
(:mod:`cvrepro.learners.part`) reads rules off partial C4.5 trees.
"""
from __future__ import annotations

import numpy as np

from .java import SMALL, weka_classify
from .tree_engine import TreeEngine
from .tree_kernels import (
    C45_CRITERION,
    HELLINGER_CRITERION,
    pessimistic_errors,
    predict_rows,
    subtree_errors,
    z_score,
)

__all__ = ["C45", "HDDT"]


def _max_bag(perbag: np.ndarray) -> int:
    """WEKA ``Distribution.maxBag``: ties go to the LAST branch (its loop uses grOrEq)."""
    best, best_v = -1, 0.0
    for i, x in enumerate(perbag):
        if x > best_v - SMALL:
            best, best_v = i, x
    return best


class C45(TreeEngine):
    """C4.5 decision tree following WEKA J48 (release 8) with its defaults.

    Gain ratio with the average-gain filter and the MDL correction for numeric
    thresholds, multiway nominal splits, fractional instances for missing
    values, collapsing, error-based pruning (confidence ``confidence``) with
    subtree raising, ``min_num_obj`` instances per branch, leaf frequencies as
    probabilities (``laplace=True``: J48 -A).

    ``predict`` is J48's ``classifyInstance``: the class of highest leaf
    frequency, even with ``laplace=True`` (WEKA ignores the Laplace correction
    there, and ties within 1e-6 go to the lower class), while
    ``predict_proba`` is J48's ``distributionForInstance`` (corrected with
    ``laplace=True``). The two can disagree when a test instance with missing
    values reaches several leaves. WEKA's own evaluation (its accuracy,
    confusion matrix, cross-validation summary) takes the class of highest
    ``distributionForInstance``, as :func:`cvrepro.metrics.predict_labels`
    does on our probabilities: so :func:`cvrepro.runner.run_cv` reports the
    accuracy WEKA reports for J48 -A, and ``predict`` gives the classes of
    WEKA's ``-p`` output.

    ``unpruned=True`` is J48 -U (no pruning; the tree is still collapsed, as
    WEKA 3.6 does). ``to_text()`` prints the tree as J48 does; on all 52
    catalog data sets our trees print identically to WEKA 3.6.14's. Possible
    deviation: WEKA decides ties of floating-point scores with its 1e-6
    tolerance, as we do, but may sum weights in another order, so scores
    equal up to the last bits could break differently.
    """

    _criterion = C45_CRITERION

    def __init__(self, confidence=0.25, min_num_obj=2, laplace=False, unpruned=False,
                 subtree_raising=True):
        self.confidence = confidence
        self.min_num_obj = min_num_obj
        self.laplace = laplace
        self.unpruned = unpruned
        self.subtree_raising = subtree_raising

    @property
    def _laplace(self):
        return self.laplace

    def _fit(self, X, y):
        super()._fit(X, y)
        # leaf frequencies for predict when predict_proba is Laplace-corrected (see the class docstring)
        self._frequencies = self._node_probs(self._bfs()[0], laplace=False) if self.laplace else None

    def _predict_codes(self, X):
        """J48's ``classifyInstance``: :func:`~cvrepro.learners.java.weka_classify` of the uncorrected
        class probabilities."""
        if getattr(self, "_frequencies", None) is None:
            return weka_classify(self._predict_proba(X))
        return weka_classify(predict_rows(X, self.schema_.nominal, *self._model[:-1], self._frequencies))

    def _setup(self, X, y):
        if not 0 < self.confidence <= 0.5:
            raise ValueError(f"confidence must be in (0, 0.5], got {self.confidence!r}")
        super()._setup(X, y)
        # the average gain leaves out nominal attributes with many values (>= 30 % of the instances), unless all are
        many = self._nominal & (self._n_values - 0.3 * X.shape[0] >= -SMALL)
        self._counted = ~many | bool(many.all())

    def _post_grow(self):
        self._collapse(self.tree_)          # WEKA 3.6 collapses even with -U
        if not self.unpruned:
            if self.subtree_raising:
                self._flatten()
            self._prune(self.tree_)

    # -- pruning (C45PruneableClassifierTree) --
    def _training_errors(self, node):
        """Training errors of the subtree's leaves, cached in ``sub_wrong`` for collapse."""
        node.sub_wrong = node.wrong if node.is_leaf else sum(self._training_errors(c) for c in node.children)
        return node.sub_wrong

    def _collapse(self, node, top=True):
        if top:
            self._training_errors(node)
        if node.is_leaf:
            return
        if node.sub_wrong >= node.wrong - 1e-3:
            node.make_leaf()
        else:
            for c in node.children:
                self._collapse(c, top=False)

    def _estimate(self, total, wrong):
        """C4.5's pessimistic errors: e + addErrs(N, e, CF); 0 for an empty distribution."""
        return pessimistic_errors(total, wrong, float(self.confidence), z_score(float(self.confidence)))

    def _flatten(self):
        """The tree's tests as arrays for ``subtree_errors``."""
        nodes, first = self._bfs()
        self._flat = (np.array([n.attr for n in nodes]), np.array([n.point for n in nodes]),
                      np.array([n.is_leaf for n in nodes]), first)

    def _errors_for_branch(self, node, rows, w):
        cf = float(self.confidence)
        return subtree_errors(self._XT, self._y, rows, w, node.uid, *self._flat, self._nominal, self._n_values,
                               self._K, cf, z_score(cf))

    def _new_distribution(self, node, rows, w):
        node.rows, node.w = rows, w
        node.set_dist(self._dist(rows, w))
        if node.is_leaf:
            if abs(w.sum()) >= SMALL:
                node.is_empty = False
            return
        for c, (r, ww) in zip(node.children, self._split(node, rows, w)):
            self._new_distribution(c, r, ww)

    def _prune(self, node) -> float:
        """WEKA's prune(); returns the estimated errors of the pruned subtree."""
        err_leaf = self._estimate(node.total, node.wrong)
        if node.is_leaf:
            return err_leaf
        err_tree = sum(self._prune(c) for c in node.children)
        largest = _max_bag([c.total for c in node.children])
        if self.subtree_raising:
            err_branch = self._errors_for_branch(node.children[largest], node.rows, node.w)
        else:
            err_branch = np.inf
        if err_leaf - (err_tree + 0.1) < SMALL and err_leaf - (err_branch + 0.1) < SMALL:
            node.make_leaf()
            if self.subtree_raising:
                self._flat[2][node.uid] = True
            return err_leaf
        if err_branch - (err_tree + 0.1) < SMALL:
            child = node.children[largest]
            node.attr, node.point, node.children = child.attr, child.point, child.children
            node.is_leaf = child.is_leaf
            for a in self._flat:
                a[node.uid] = a[child.uid]
            self._new_distribution(node, node.rows, node.w)
            return self._prune(node)
        return err_tree


class HDDT(TreeEngine):
    """Hellinger distance decision tree (Cieslak & Chawla 2008), on the C4.5 engine.

    Choices where the papers leave room (documented, tested):

    - split score: Hellinger distance between the two classes' branch
      distributions; with more than two classes, the largest one-vs-rest
      distance (Hoens, Qian, Chawla et al., PAKDD 2012, multi-class HDDT);
    - nominal attributes: multiway split (one branch per value, as C4.5);
      numeric attributes: every threshold between distinct values (binary;
      values closer than 1e-5 are not separated, as in J48);
    - missing values: C4.5's fractional instances; the distance is computed
      on known values and multiplied by the known fraction (as WEKA's HTree);
    - stopping: as J48 (pure node, or weight < 2 * ``min_num_obj``; each
      branch of a numeric split and two branches of a nominal one need
      ``min_num_obj``); no MDL correction, no gain-ratio filter;
    - unpruned, no collapse; leaves give Laplace-smoothed frequencies
      (C4.4 style), thresholds are moved to actual training values as in J48.
    """

    _criterion = HELLINGER_CRITERION
    _laplace = True

    def __init__(self, min_num_obj=2):
        self.min_num_obj = min_num_obj
