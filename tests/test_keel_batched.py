"""KEEL learners: batched fit_predict_folds equals fitting each fold separately, bit for bit.

With the whole data set's ranges declared (bounds=keel_bounds(X), KEEL's partitions) every fold
shares the batched work (one distance matrix, one encoding and kernel matrix); with the
training folds' ranges (bounds=None) folds missing an extreme value take the per-fold path.
"""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners import batched
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.learners.keel_knn import KeelKNN
from cvrepro.learners.keel_lda import KeelLDA
from cvrepro.learners.keel_svm import KeelSVM
from cvrepro.learners.pdfc import PDFC


def _splits(y, iterations=2, k=5):
    out = []
    for it in range(iterations):
        out += list(StratifiedKFold(k, shuffle=True, random_state=it).split(np.zeros(len(y)), y))
    return out


def _per_fold(est, X, y, splits, seeds, classes):
    out = []
    for (train, test), rs in zip(splits, seeds):
        m = clone(est)
        if "random_state" in m.get_params():
            m.set_params(random_state=rs)
        m.fit(X.iloc[train], y[train])
        raw = m.predict_proba(X.iloc[test])
        full = np.zeros((len(test), len(classes)))
        for j, c in enumerate(m.classes_):
            full[:, list(classes).index(c)] = raw[:, j]
        out.append(full)
    return out


def _check(est, name, dropna=False):
    ds = load_dataset(name, dropna=dropna)
    X, y = ds.X, ds.y.to_numpy()                       # as the engine passes it: plain labels
    classes = np.unique(y)
    splits = _splits(y)
    seeds = [1000 + i for i in range(len(splits))]
    got = est.fit_predict_folds(X, y, splits, seeds, classes)
    want = _per_fold(est, X, y, splits, seeds, classes)
    for g, w in zip(got, want):
        assert np.array_equal(g, w)


CASES = [("crx", True), ("glass", False), ("labor", False)]      # nominal + numeric; 6 classes; missing values


@pytest.mark.parametrize("name,dropna", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("whole", [True, False], ids=["whole-ranges", "fold-ranges"])
@pytest.mark.parametrize("make", [lambda b: KeelKNN(k=1, bounds=b), lambda b: KeelKNN(k=3, bounds=b),
                                  lambda b: KeelLDA(bounds=b), lambda b: KeelSVM(bounds=b),
                                  lambda b: PDFC(bounds=b)],
                         ids=["1NN", "3NN", "LDA", "SVM", "PDFC"])
def test_batched_equals_per_fold(make, whole, name, dropna):
    bounds = keel_bounds(load_dataset(name, dropna=dropna).X) if whole else None
    _check(make(bounds), name, dropna)


def test_knn_small_memory_budget_same_result(monkeypatch):
    monkeypatch.setattr(batched, "MEMORY_BUDGET", 8 * 300 * 7)
    import cvrepro.learners.keel_knn as keel_knn
    monkeypatch.setattr(keel_knn, "MEMORY_BUDGET", 8 * 300 * 7)
    _check(KeelKNN(k=3, bounds=keel_bounds(load_dataset("crx", dropna=True).X)), "crx", dropna=True)


def test_kernel_computed_on_the_fly_same_result(monkeypatch):
    """Without room for the kernel matrix the values are computed each time: same numbers."""
    import cvrepro.learners.keel_smo as keel_smo
    monkeypatch.setattr(keel_smo, "MEMORY_BUDGET", 0)
    monkeypatch.setattr(keel_smo.KernelRows.__init__, "__defaults__", (1.0, 0))
    _check(KeelSVM(bounds=keel_bounds(load_dataset("glass").X)), "glass")
    _check(PDFC(solver="keel", bounds=keel_bounds(load_dataset("iris").X)), "iris")


def test_whole_ranges_share_the_work(monkeypatch):
    """With the whole data set's ranges every fold takes the shared path: one distance
    computation for all folds (KNN), one kernel matrix for all folds (SVM, PDFC)."""
    import cvrepro.learners.keel_smo as keel_smo

    ds = load_dataset("crx", dropna=True)
    y = ds.y.to_numpy()
    splits = _splits(y)
    shared_folds = []
    original = KeelKNN._shared
    monkeypatch.setattr(KeelKNN, "_shared", staticmethod(
        lambda *args: (shared_folds.append(len(args[-1])), original(*args))[1]))
    KeelKNN(bounds=keel_bounds(ds.X)).fit_predict_folds(ds.X, y, splits, [0] * len(splits), np.unique(y))
    assert shared_folds == [len(splits)]
    built = []
    original_init = keel_smo.KernelRows.__init__
    monkeypatch.setattr(keel_smo.KernelRows, "__init__",
                        lambda self, *a, **k: (built.append(len(a[0])), original_init(self, *a, **k))[1])
    PDFC(bounds=keel_bounds(ds.X)).fit_predict_folds(ds.X, y, splits, [0] * len(splits), np.unique(y))
    assert built == [len(y)]
