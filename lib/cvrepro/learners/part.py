"""PART (Frank & Witten 1998) as WEKA's PART: a decision list of rules read off partial C4.5 trees.

Each rule comes from a partial tree grown on the instances not yet covered:
the node's split is chosen exactly as in J48 (the same engine and
``_select``); its subsets are expanded in order of increasing entropy
(subsets lighter than ``min_num_obj`` are not expanded but made leaves), and
expansion stops as soon as an expanded subset does not end as a leaf. When
all children of a node are leaves, the node is replaced by a leaf if its
pessimistic error (C4.5's ``addErrs`` with ``confidence``) is no larger than
the children's plus 0.1. The rule is the path to the leaf covering the most
weight. Covered instances are removed (fractionally, for missing values:
weight ``w * (1 - coverage)`` stays); prediction walks the list, summing the
rules' leaf frequencies weighted by the still-uncovered fraction, as WEKA's
``MakeDecList`` does.
"""
from __future__ import annotations

import numpy as np

from .java import SMALL, weka_number_text
from .tree import C45
from .tree_engine import Node, deep_recursion
from .tree_kernels import xlog2x

__all__ = ["PART"]


class PART(C45):
    """WEKA PART with its defaults (CF 0.25, minNumObj 2, pruning on)."""

    def __init__(self, confidence=0.25, min_num_obj=2):
        self.confidence = confidence
        self.min_num_obj = min_num_obj

    laplace = False
    unpruned = False
    subtree_raising = False

    def _fit(self, X, y):
        self._setup(X, y)
        rows, w = np.arange(X.shape[0]), np.ones(X.shape[0])
        self.rules_ = []
        while len(rows) > 0:
            with deep_recursion():
                root = self._build_dec(rows, w, leaf=False)
            path, leaf = self._rule_path(root)
            self.rules_.append((path, self._leaf_probs(leaf.dist), leaf.dist))
            cover = self._coverage(path, self._X[rows])
            keep = cover - 1 < -SMALL
            rows, w = rows[keep], w[keep] * (1 - cover[keep])
        self._teardown()

    # -- one partial tree --
    def _build_dec(self, rows, w, leaf):
        dist = self._dist(rows, w)
        node = Node(rows, w, dist)
        node.index = 0
        attr = -1 if (leaf or self._stops(dist)) else self._select(rows, w)
        if attr < 0:
            node.is_empty = abs(dist.sum()) < SMALL
            return node
        parts = self._make_split(node, attr, rows, w)
        bags = [self._dist(r, ww) for r, ww in parts]
        sons = [None] * len(parts)
        expanded = 0
        while True:
            expanded += 1
            ind = self._choose_index(sons, bags)
            if ind < 0:
                for j, son in enumerate(sons):
                    if son is None:
                        sons[j] = self._build_dec(*parts[j], leaf=True)
                break
            sons[ind] = self._build_dec(*parts[ind], leaf=False)
            if not (expanded < len(parts) and sons[ind].is_leaf):
                break
        node.children = sons
        if all(s is not None and s.is_leaf for s in sons):
            errors_tree = sum(self._estimate(s.total, s.wrong) for s in sons)
            if self._estimate(node.total, node.wrong) - (errors_tree + 0.1) < SMALL:
                node.make_leaf()
                return node
        node.index = self._choose_last_index(sons, bags)
        return node

    def _choose_index(self, sons, bags):
        """Unexpanded subset of lowest entropy (a pure one at once); -1 if all are too light."""
        best, best_val = -1, np.inf
        for i, son in enumerate(sons):
            if son is not None:
                continue
            n = bags[i].sum()
            if n - self.min_num_obj < -SMALL:
                value = np.inf
            else:
                value = (-sum(xlog2x(c) for c in bags[i]) + xlog2x(n)) / n
            if value < SMALL:
                return i
            if value - best_val < -SMALL:
                best, best_val = i, value
        return best

    def _choose_last_index(self, sons, bags):
        """The expanded subset whose rule leaf covers the most weight."""
        best, best_val = 0, np.inf
        for i, son in enumerate(sons):
            if son is None or bags[i].sum() - self.min_num_obj <= -SMALL:
                continue
            size = -self._rule_path(son)[1].total
            if size - best_val < -SMALL:
                best, best_val = i, size
        return best

    def _rule_path(self, node):
        path = []
        while not node.is_leaf:
            path.append((node.attr, node.point, node.index, node.frac[node.index]))
            node = node.children[node.index]
        return path, node

    def _coverage(self, path, X):
        """Fraction of each row covered by a rule (missing values: the branch's training fraction)."""
        cover = np.ones(X.shape[0])
        for attr, point, index, frac in path:
            col = X[:, attr]
            miss = np.isnan(col)
            if self.schema_.nominal[attr]:
                hit = col == index
            else:
                hit = (col - point >= SMALL) if index == 1 else (col - point < SMALL)   # WEKA's Utils.smOrEq
            cover *= np.where(miss, frac, hit.astype(float))
        return cover

    # -- prediction: the decision list --
    def _predict_proba(self, X):
        out = np.zeros((X.shape[0], len(self.classes_)))
        weight = np.ones(X.shape[0])
        for path, probs, _ in self.rules_:
            active = weight > SMALL
            if not active.any():
                break
            cover = self._coverage(path, X)
            fire = active & (cover > SMALL)
            out[fire] += (weight[fire] * cover[fire])[:, None] * probs[None, :]
            weight[fire] *= 1 - cover[fire]
        return out

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

