"""The SVM of Moreno-Torres et al.: KEEL's SMO (``SMO-C``) with the Puk kernel and C = 100.

Which SVM: Moreno-Torres et al. name an "SVM" run in KEEL with "the default
parameters". KEEL's C_SVM (libsvm) with its defaults of the time (linear
kernel on unscaled data, C = 100) and KEEL's SMO with its defaults (linear
kernel, C = 1) are linear machines: on banana (two interleaved moons) they
score an AUC of 0.50, where the paper's Table III gives 0.9004 (LDA, linear,
0.5171); C_SVM also scores 0.50 on crx (unscaled attributes up to 100000)
against 0.8035. KEEL's SMO with the Pearson VII (Puk) kernel, omega = sigma =
1, and C = 100, the SVM set-up that Sáez, Luengo and Herrera (co-author here)
state in their KEEL studies, reproduces the table: 0.9007 on banana, 0.7933 on
heart (0.7869), 0.6866 on bupa (0.6825), 0.5879 on saheart (0.6019), 0.9653 on
wisconsin (0.9690), 5-fold cross-validation with KEEL itself. So this is the
"SVM" here; ``C`` and the kernel's ``omega``, ``sigma`` are parameters.

What KEEL's SMO does (machinery in :mod:`cvrepro.learners.keel_smo`): KEEL's
input (numeric attributes scaled to [0, 1] by the declared ranges, nominal
ones made binary, missing values 0), one WEKA BinarySMO per pair of classes
``i < j`` (instances of class i, then j, shuffled by KEEL's random stream),
tolerance 1e-3, epsilon 1e-12; each pair votes (output > 0 for class j),
ties to the lowest class. ``solver="keel"`` takes WEKA's steps (slow at C =
100); the default ``"libsvm"`` solves each pair's dual problem with libsvm on
the same (precomputed) kernel values. Both gave KEEL's class on every recorded
test instance (tests/fixtures/keel/svm.json). ``predict_proba`` is the normalised vote (one-hot
for two classes), which is what KEEL's SMO computes; KEEL writes only the class.
"""
from __future__ import annotations

import numpy as np

from .keel_smo import PUK, KeelKernelClassifier, svm_outputs

__all__ = ["KeelSVM"]


class KeelSVM(KeelKernelClassifier):
    """KEEL's SMO with the Puk kernel (see the module docstring).

    ``bounds``: declared ``[min, max]`` per attribute (``keel_bounds`` of the
    whole data set reproduces KEEL's partitions); None: the training fold's.
    ``random_state``: KEEL's seed (None: KEEL's default graph seed).
    """

    def __init__(self, C=100.0, omega=1.0, sigma=1.0, tol=1e-3, eps=1e-12, solver="libsvm", bounds=None,
                 random_state=None):
        self.C = C
        self.omega = omega
        self.sigma = sigma
        self.tol = tol
        self.eps = eps
        self.solver = solver
        self.bounds = bounds
        self.random_state = random_state

    _POSITIVE = ("C", "omega", "sigma", "tol", "eps")

    def _kernel(self):
        factor = 2.0 * np.sqrt(2.0 ** (1.0 / float(self.omega)) - 1) / float(self.sigma)
        return PUK, factor, float(self.omega)

    def _train(self, rows, ids, codes, K, rng):
        by_class = [ids[codes == c] for c in range(K)]
        machines = []
        for i in range(K):
            for j in range(i + 1, K):
                pair = np.concatenate([by_class[i], by_class[j]])
                y = np.concatenate([np.full(len(by_class[i]), -1.0), np.full(len(by_class[j]), 1.0)])
                order = rng.shuffled(np.arange(len(pair)))
                pair, y = pair[order], y[order]
                if len(pair) == 0:
                    continue                       # WEKA: no multipliers, no vote
                alpha, b, sv = self._solve(rows, pair, y)
                coef = y[sv] * alpha[sv] if len(sv) else np.zeros(0)
                machines.append((i, j, pair[sv] if len(sv) else np.zeros(0, np.int64), coef, b))
        return machines

    def _proba(self, rows, model, test_rows, K):
        votes = np.zeros((len(test_rows), K))
        for i, j, sv, coef, b in model:
            out = svm_outputs(rows.rows(test_rows, sv), coef, b)
            votes[out > 0, j] += 1
            votes[~(out > 0), i] += 1
        total = votes.sum(axis=1, keepdims=True)
        if K == 1:
            return np.ones((len(test_rows), 1))
        return votes / np.where(total > 0, total, 1.0)
