"""PART (Frank & Witten 1998) as WEKA's PART: a decision list of rules read off partial C4.5 trees.

Each rule comes from a partial tree grown on the instances not yet covered:
the node's split is chosen exactly as in J48 (the same kernels); its subsets
are expanded in order of increasing entropy (subsets lighter than
``min_num_obj`` are not expanded but made leaves), and expansion stops as
soon as an expanded subset does not end as a leaf. When all children of a
node are leaves, the node is replaced by a leaf if its pessimistic error
(C4.5's ``addErrs`` with ``confidence``) is no larger than the children's
plus 0.1. The rule is the path to the leaf covering the most weight.
Covered instances are removed (fractionally, for missing values: weight
``w * (1 - coverage)`` stays); prediction walks the list, summing the rules'
leaf frequencies weighted by the still-uncovered fraction, as WEKA's
``MakeDecList`` does. The whole list is built in one compiled call
(:mod:`cvrepro.learners.part_kernels`).
"""
from __future__ import annotations

import numpy as np

from .java import weka_number_text
from .part_kernels import part_rules, predict_rules
from .tree import C45
from .tree_kernels import z_score

__all__ = ["PART"]


class PART(C45):
    """WEKA PART with its defaults (CF 0.25, minNumObj 2, pruning on).

    The decision list is built in one compiled call (:func:`~cvrepro.learners.part_kernels.part_rules`);
    ``rules_`` holds per rule its tests ``(attribute, threshold, branch, training fraction)``, its class
    probabilities and its leaf's class weights.
    """

    def __init__(self, confidence=0.25, min_num_obj=2):
        self.confidence = confidence
        self.min_num_obj = min_num_obj

    laplace = False
    unpruned = False
    subtree_raising = False

    def _fit(self, X, y):
        self._setup(X, y)
        presorted = self.__dict__.pop("_presorted", None)      # handed over by fit_predict_folds
        order, known = presorted or self._presort(np.arange(X.shape[0]))
        cf = float(self.confidence)
        start, attr, point, index, frac, dists, probs = part_rules(
            self._XT, self._y, order, known, self._slot, self._numeric, self._nominal, self._n_values, self._K,
            float(self.min_num_obj), self._nlogn, self._counted, cf, z_score(cf))
        self._rules = (start, attr, point, index, frac, probs)
        bounds = start.tolist()
        tests = list(zip(attr.tolist(), point.tolist(), index.tolist(), frac.tolist()))
        self.rules_ = [(tests[lo:hi], p, d) for lo, hi, p, d in zip(bounds[:-1], bounds[1:], probs, dists)]
        self._teardown()

    # -- prediction: the decision list --
    def _predict_proba(self, X):
        return predict_rules(np.ascontiguousarray(X.T), self.schema_.nominal, *self._rules)

    def to_text(self) -> str:
        """The rules in WEKA's PART format."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))]))
        blocks = []
        for path, _, dist in self.rules_:
            conds = []
            for attr, point, index, _ in path:
                if self.schema_.nominal[attr]:
                    conds.append(f"{names[attr]} = {self.schema_.categories[attr][index]}")
                else:
                    conds.append(f"{names[attr]} {'<=' if index == 0 else '>'} {weka_number_text(point)}")
            label = self._label(dist, dist)
            blocks.append((" AND\n".join(conds) + ": " if conds else ": ") + label)
        return "\n\n".join(blocks) + f"\n\nNumber of Rules  : \t{len(self.rules_)}\n"

