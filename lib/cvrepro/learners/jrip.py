"""JRip: RIPPER (Cohen 1995) as WEKA 3.6 implements it, with WEKA's defaults.

``JRip(folds=3, min_no=2.0, optimizations=2, random_state=1)`` is WEKA's
``-F 3 -N 2.0 -O 2 -S 1`` with pruning and the error-rate check on. Classes are
learned from the least to the most frequent (ties broken as WEKA's ClassOrder
filter breaks them: a seeded shuffle, then WEKA's quicksort), each against the
classes not yet covered; the most frequent class is the default rule. Each rule
is grown with FOIL's information gain on two thirds of the stratified
remaining data and pruned on the last third; rule sets stop by description
length (MDL) and go through ``optimizations`` rounds of replacement/revision.

WEKA's randomness is reproduced: the generator is ``java.util.Random(seed)``
reseeded with the hash code of one training instance as WEKA prints it, and
drives the same shuffles; the data flow, including WEKA's quirks (the rule
after an early stop of the optimisation is dropped; zero-coverage old rules are
kept until the final DL reduction), follows WEKA 3.6's JRip. Missing values
never satisfy a condition. ``predict_proba`` is the class distribution of the
training instances the first covering rule covered, as WEKA's
``distributionForInstance``; ``to_text()`` prints the rule list as WEKA does.

The work after the class order is fixed runs in one compiled call
(:mod:`cvrepro.learners.jrip_kernels`).
"""
from __future__ import annotations

import numbers

import numpy as np

from .base import TabularClassifier
from .java import java_random_next, java_random_seed, randomize
from .jrip_kernels import first_covering_rule, fit_rules
from .random_tree import tree_seed
from .weka_format import double_to_string, java_double
from .weka_trees import weka_sort

__all__ = ["JRip"]


class JRip(TabularClassifier):
    """WEKA 3.6's JRip (RIPPER): ``-F folds -N min_no -O optimizations -S random_state``.

    ``check_error_rate=False`` is WEKA's ``-E``, ``use_pruning=False`` its ``-P``.
    ``random_state`` is WEKA's seed (an int, default 1 as WEKA's), not a
    scikit-learn RandomState: the same data and seed give WEKA's rules.
    """

    def __init__(self, folds=3, min_no=2.0, optimizations=2, random_state=1, check_error_rate=True,
                 use_pruning=True):
        self.folds = folds
        self.min_no = min_no
        self.optimizations = optimizations
        self.random_state = random_state
        self.check_error_rate = check_error_rate
        self.use_pruning = use_pruning

    def _check_params(self):
        if not isinstance(self.folds, numbers.Integral) or self.folds < 2:
            raise ValueError(f"folds must be an integer >= 2, got {self.folds!r}")
        if not isinstance(self.optimizations, numbers.Integral) or self.optimizations < 0:
            raise ValueError(f"optimizations must be an integer >= 0, got {self.optimizations!r}")
        if not isinstance(self.min_no, numbers.Real) or not np.isfinite(self.min_no) or self.min_no < 0:
            raise ValueError(f"min_no must be a finite number >= 0, got {self.min_no!r}")
        if not isinstance(self.random_state, numbers.Integral) or isinstance(self.random_state, bool):
            raise ValueError(f"random_state is WEKA's seed (-S) and must be an integer, got {self.random_state!r}")

    # --- WEKA's preliminaries: seed, class order, number of conditions ---

    def _random_state(self, X, y) -> np.ndarray:
        """``Instances.getRandomNumberGenerator(seed)``: reseeded with one instance's hash code."""
        nominal = np.asarray(self.schema_.nominal, dtype=np.bool_)
        return java_random_seed(tree_seed(X, y, int(self.random_state), nominal, self.schema_.categories,
                                          self.classes_))

    @staticmethod
    def _class_order(counts, state) -> np.ndarray:
        """WEKA's ClassOrder (FREQ_ASCEND): new class i is original class ``order[i]``."""
        shuffle = java_random_seed(int(java_random_next(state, 32)))
        order = np.arange(len(counts))
        randomize(order, shuffle)
        return order[weka_sort(counts[order])]

    def _fit(self, X, y):
        self._check_params()
        n = X.shape[0]
        if n < self.folds:
            raise ValueError(f"JRip needs at least folds={self.folds} training instances (WEKA's minimum); "
                             f"got n_samples={n}")
        state = self._random_state(X, y)
        counts = np.bincount(y, minlength=len(self.classes_)).astype(float)
        order = self._class_order(counts, state)
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        nominal = np.asarray(self.schema_.nominal, dtype=np.bool_)
        n_values = self.schema_.n_values
        total_conds = float(sum(n_values[j] if nominal[j] else 2 * len(np.unique(X[~np.isnan(X[:, j]), j]))
                                for j in range(X.shape[1])))
        flat, offsets, printed, dists = fit_rules(
            np.ascontiguousarray(X.T), rank[y].astype(np.int64), nominal, n_values.astype(np.int64), counts[order],
            state, int(self.folds), float(self.min_no), int(self.optimizations), bool(self.check_error_rate),
            bool(self.use_pruning), total_conds)
        sums = dists.sum(axis=1)
        if (sums == 0).any():
            raise ValueError("WEKA's JRip cannot build this model: a rule (the default rule) covers no training "
                             "instance, and WEKA fails normalising its class distribution")
        proba = np.empty_like(dists)
        proba[:, order] = dists / sums[:, None]            # back to the original class indices
        self.class_order_ = order
        self.rules_flat_, self.rule_offsets_ = flat, offsets
        self.rule_counts_ = printed
        self.rule_proba_ = proba

    def _predict_proba(self, X):
        rule = first_covering_rule(self.rules_flat_, self.rule_offsets_, np.ascontiguousarray(X.T),
                                   np.asarray(self.schema_.nominal, dtype=np.bool_))
        return self.rule_proba_[rule]

    @property
    def n_rules_(self) -> int:
        return len(self.rule_offsets_) - 1

    def rules(self) -> list:
        """The rule list: per rule ``(conditions, class label)``, conditions as ``(attribute, op, value)``."""
        names = self._names()
        out = []
        for i in range(self.n_rules_):
            rule = self.rules_flat_[self.rule_offsets_[i]:self.rule_offsets_[i + 1]]
            conds = []
            for a in range((len(rule) - 1) // 3):
                j, value, split = int(rule[1 + 3 * a]), rule[2 + 3 * a], rule[3 + 3 * a]
                if self.schema_.nominal[j]:
                    conds.append((names[j], "=", self.schema_.categories[j][int(value)]))
                else:
                    conds.append((names[j], "<=" if value == 0 else ">=", float(split)))
            out.append((conds, self.classes_[self.class_order_[int(rule[0])]]))
        return out

    def _names(self):
        return [str(c) for c in getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))])]

    def to_text(self, class_name: str = "class") -> str:
        """The rule list as WEKA's JRip prints it (``class_name``: the class attribute's name)."""
        lines = ["JRIP rules:", "===========", ""]
        for (conds, label), (cover, fp) in zip(self.rules(), self.rule_counts_):
            text = " and ".join(f"({name} {op} {value if op == '=' else double_to_string(value, 6)})"
                                for name, op, value in conds)
            lines.append(f"{text} => {class_name}={label} "
                         f"({java_double(float(cover))}/{java_double(float(fp))})")
        lines += ["", f"Number of Rules : {self.n_rules_}", ""]
        return "\n".join(lines)
