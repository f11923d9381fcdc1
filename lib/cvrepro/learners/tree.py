"""C4.5 (WEKA J48) and HDDT: the estimators on the decision-tree engine.

:class:`C45` adds J48's collapsing and error-based pruning (subtree raising
included, compiled in :mod:`cvrepro.learners.tree_pruning`) to the engine of
:mod:`cvrepro.learners.tree_engine`; :class:`HDDT`
grows by the Hellinger distance, unpruned, with Laplace leaves. PART
(:mod:`cvrepro.learners.part`) reads rules off partial C4.5 trees.
"""
from __future__ import annotations

import numpy as np

from .java import SMALL, weka_classify
from .tree_engine import Node, TreeEngine, link_branches
from .tree_kernels import C45_CRITERION, HELLINGER_CRITERION, node_probs, predict_rows, z_score
from .tree_pruning import c45_post_grow

__all__ = ["C45", "HDDT"]


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
        """Grow (``grow_tree``), then collapse and prune (``c45_post_grow``): two compiled calls."""
        self._setup(X, y)
        self.__dict__.pop("_nodes", None)                       # an earlier fit's tree_
        presorted = self.__dict__.pop("_presorted", None)      # handed over by fit_predict_folds
        grown = self._grow_arrays(np.ones(X.shape[0]), presorted or self._presort(np.arange(X.shape[0])))
        cf = float(self.confidence)
        self._tree = c45_post_grow(self._XT, self._y, *grown, self._nominal, self._n_values, self._K,
                                   bool(self.unpruned), bool(self.subtree_raising), cf, z_score(cf))
        self._teardown()
        attr, point, leaf, empty, first, n_kids, frac, dists = self._tree[:8]
        self._model = (attr, point, leaf, empty, first, n_kids, frac, node_probs(dists, bool(self.laplace)))
        # leaf frequencies for predict when predict_proba is Laplace-corrected (see the class docstring)
        self._frequencies = node_probs(dists, False) if self.laplace else None
        self.n_leaves_, self.tree_size_ = int(leaf.sum()), len(leaf)

    @property
    def tree_(self) -> Node:
        """The fitted tree's root as :class:`~cvrepro.learners.tree_engine.Node` objects (built on first use)."""
        if "_nodes" not in self.__dict__:
            attr, point, leaf, empty, first, n_kids, frac, dists, total, wrong = self._tree
            nodes = [Node(None, None, dists[i], float(total[i]), float(wrong[i]), bool(empty[i]))
                     for i in range(len(attr))]
            self.__dict__["_nodes"] = link_branches(nodes, attr, point, frac, first, n_kids)
        return self.__dict__["_nodes"]

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
