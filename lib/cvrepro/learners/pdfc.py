"""PDFC, the positive definite fuzzy classifier (Chen & Wang 2003), as KEEL's ``PDFC-C`` runs it.

A fuzzy rule base learned as a support vector machine: with positive-definite
reference functions as membership functions (here KEEL's default, Gaussian
``a(u) = exp(-d u^2)`` with ``d = 0.25``), the product of an instance's
memberships to a rule's centre is a kernel, and the SVM's support vectors
become the rules. KEEL's defaults: C = 100, tolerance 1e-3, epsilon 1e-12,
numeric attributes normalised to [0, 1], nominal ones made binary.

What KEEL's PDFC does (machinery in :mod:`cvrepro.learners.keel_smo`):

* one WEKA BinarySMO per class ``c`` (one-vs-rest; only class 0's for two
  classes): the instances of class c (label +1), then those of every other
  class in class order (label -1), shuffled by KEEL's random stream;
* its support vectors (``alpha > 0``, in the shuffled order) become rules
  with centres ``z_i`` and consequents ``alpha_i y_i``, and ``b0 = -b``;
* output of a rule base: ``(b0 + sum_i alpha_i y_i K(x, z_i)) / (1 + sum_i
  K(x, z_i))``; two classes: class 1 if it is negative, else class 0; more:
  the class whose rule base outputs most (ties to the lowest class).

Solver: ``solver="keel"`` takes WEKA's BinarySMO steps with KEEL's product
of memberships (slow: C = 100 needs many steps); the default ``"libsvm"``
solves the same dual problem with libsvm (scikit-learn's SVC, RBF kernel
``exp(-d |x - z|^2)``, the same function up to rounding) and evaluates the
rules with that kernel. libsvm reads its RBF values from a precomputed matrix
of exactly the values it would compute (:mod:`cvrepro.learners.libsvm_rbf`:
``SVC(kernel="rbf")``'s solution bit for bit), which the batched path keeps per
data set, so the folds and tasks of a cross-validation share it. Both gave KEEL's class on every recorded test
instance (tests/fixtures/keel/pdfc.json).

KEEL's PDFC writes only the class, so ``predict_proba`` is one-hot;
:meth:`PDFC.rule_outputs` gives the rule bases' outputs (a score).
"""
from __future__ import annotations

import numpy as np

from .keel_smo import PDRF_GAUSSIAN, RBF, KeelKernelClassifier, fuzzy_outputs

__all__ = ["PDFC"]


class PDFC(KeelKernelClassifier):
    """KEEL's PDFC with Gaussian reference functions (see the module docstring).

    ``bounds``: declared ``[min, max]`` per attribute (``keel_bounds`` of the
    whole data set reproduces KEEL's partitions); None: the training fold's.
    ``random_state``: KEEL's seed (None: KEEL's default graph seed).
    """

    def __init__(self, C=100.0, d=0.25, tol=1e-3, eps=1e-12, solver="libsvm", bounds=None,
                 random_state=None):
        self.C = C
        self.d = d
        self.tol = tol
        self.eps = eps
        self.solver = solver
        self.bounds = bounds
        self.random_state = random_state

    _POSITIVE = ("C", "d", "tol", "eps")

    def _kernel(self):
        # KEEL's product of memberships for KEEL's steps; with libsvm, which trains on exp(-d |u|^2),
        # the same function with one exp per pair (equal up to rounding)
        return (PDRF_GAUSSIAN if self.solver == "keel" else RBF), float(self.d), 1.0

    def _shared_budget(self):
        return 0 if self.solver != "keel" else super()._shared_budget()

    def _train(self, rows, ids, codes, K, rng):
        by_class = [ids[codes == c] for c in range(K)]
        bases = []
        for c in range(1 if K == 2 else K):
            others = [by_class[j] for j in range(K) if j != c]
            data = np.concatenate([by_class[c]] + others)
            y = np.concatenate([np.full(len(by_class[c]), 1.0), -np.ones(len(data) - len(by_class[c]))])
            order = rng.shuffled(np.arange(len(data)))
            data, y = data[order], y[order]
            alpha, b, *_ = self._solve(rows, data, y)
            rules = np.flatnonzero(alpha > 0)
            bases.append((data[rules], alpha[rules] * y[rules], -b))
        return bases

    def _outputs(self, rows, model, test_rows):
        return np.column_stack([fuzzy_outputs(rows.rows(test_rows, centres), coef, b0)
                                for centres, coef, b0 in model])

    def _proba(self, rows, model, test_rows, K):
        out = self._outputs(rows, model, test_rows)
        if K == 1:
            return np.ones((len(test_rows), 1))
        if K == 2:
            pred = (np.sign(out[:, 0]) < 0).astype(np.int64)
        else:
            pred = np.zeros(len(test_rows), dtype=np.int64)
            best = out[:, 0].copy()
            for j in range(1, K):
                better = out[:, j] > best
                pred[better] = j
                best[better] = out[better, j]
        return np.eye(K)[pred]

    def rule_outputs(self, X) -> np.ndarray:
        """Output of each rule base (columns: class 0's only for two classes, else one per class)."""
        rows, test_rows = self.test_rows(self._encode(X))
        return self._outputs(rows, self.model_, test_rows)
