"""KEEL learners: batched fit_predict_folds equals fitting each fold separately, bit for bit.

With the whole data set's ranges declared (bounds=keel_bounds(X), KEEL's partitions) every fold
shares the batched work (one neighbour order or distance matrix, one encoding and kernel matrix;
PDFC: libsvm's RBF values, cvrepro.learners.libsvm_rbf), and later calls on the same data reuse it
(cvrepro.learners.keel_cache); with the training folds' ranges (bounds=None) folds missing an
extreme value take the per-fold path.
"""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners import batched, keel_cache
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


def _check(est, name, dropna=False, iterations=2, k=5, shuffle_train=False):
    ds = load_dataset(name, dropna=dropna)
    X, y = ds.X, ds.y.to_numpy()                       # as the engine passes it: plain labels
    classes = np.unique(y)
    splits = _splits(y, iterations, k)
    if shuffle_train:                                  # training instances not in data order
        rng = np.random.default_rng(0)
        splits = [(rng.permutation(train), test) for train, test in splits]
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


@pytest.mark.parametrize("name", ["titanic", "monk-2"])
@pytest.mark.parametrize("shuffle_train", [False, True], ids=["data-order", "shuffled-train"])
@pytest.mark.parametrize("k", [1, 3])
def test_knn_ties_and_duplicates(name, shuffle_train, k):
    """Data sets with many equal distances and duplicates (titanic: 2201 rows, 3 nominal
    attributes): KEEL's tie rule (earlier training instance first) and its skipping of
    distance 0, through the sorted neighbour order (data order) and through the pass over
    the training set (shuffled training instances)."""
    keel_cache.clear()
    _check(KeelKNN(k=k, bounds=keel_bounds(load_dataset(name).X)), name, iterations=1, k=2,
           shuffle_train=shuffle_train)


def test_knn_order_reused_across_calls(monkeypatch):
    """A second call on the same data (other splits, another k-fold) reads the kept neighbour
    order instead of sorting again, with the per-fold numbers; without room to keep it,
    every call computes it, same numbers."""
    import cvrepro.learners.keel_knn as keel_knn

    built = []
    original = keel_knn.neighbour_order
    monkeypatch.setattr(keel_knn, "neighbour_order", lambda *a: (built.append(1), original(*a))[1])
    keel_cache.clear()
    est = KeelKNN(k=3, bounds=keel_bounds(load_dataset("crx", dropna=True).X))
    _check(est, "crx", dropna=True)
    _check(est, "crx", dropna=True, iterations=1, k=10)
    assert built == [1]
    monkeypatch.setattr(keel_cache, "CACHE_BUDGET", 1000)
    keel_cache.clear()
    _check(est, "crx", dropna=True)
    _check(est, "crx", dropna=True, iterations=1, k=10)
    assert built == [1]                                # too big to keep: the pass over the training set


def test_kernel_matrix_reused_across_calls(monkeypatch):
    """The SVM's kernel matrix is built once for two calls on the same data (the second one finds
    the rows the first filled) and the results stay the per-fold ones; another kernel gets its own."""
    from cvrepro.learners.keel_smo import KeelKernelClassifier

    shared = []
    original = KeelKernelClassifier._shared_rows
    monkeypatch.setattr(KeelKernelClassifier, "_shared_rows",
                        lambda self, Z: (shared.append(original(self, Z)), shared[-1])[1])
    keel_cache.clear()
    bounds = keel_bounds(load_dataset("crx", dropna=True).X)
    _check(KeelSVM(bounds=bounds), "crx", dropna=True)
    filled = int(shared[0].filled.sum())
    _check(KeelSVM(bounds=bounds), "crx", dropna=True, iterations=1, k=10)
    assert shared[1] is shared[0] and filled > 0
    _check(KeelSVM(sigma=2.0, bounds=bounds), "crx", dropna=True, iterations=1, k=2)
    assert shared[2] is not shared[0]


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
    original = KeelKNN._ordered
    monkeypatch.setattr(KeelKNN, "_ordered", staticmethod(
        lambda *args: (shared_folds.append(len(args[-1])), original(*args))[1]))
    KeelKNN(bounds=keel_bounds(ds.X)).fit_predict_folds(ds.X, y, splits, [0] * len(splits), np.unique(y))
    assert shared_folds == [len(splits)]
    built = []
    original_init = keel_smo.KernelRows.__init__
    monkeypatch.setattr(keel_smo.KernelRows, "__init__",
                        lambda self, *a, **k: (built.append(len(a[0])), original_init(self, *a, **k))[1])
    PDFC(bounds=keel_bounds(ds.X)).fit_predict_folds(ds.X, y, splits, [0] * len(splits), np.unique(y))
    assert built == [len(y)]


def test_engine_tasks_reuse_the_kept_work_with_per_fold_numbers():
    """Through the engine (one process): several run_cv calls on one data set (DOB-SCV, 2- and
    5-fold, as the Moreno-Torres study makes them) give the same out-of-fold probabilities
    batched, reusing what earlier tasks kept, as fitted fold by fold."""
    from cvrepro.runner import run_cv
    from cvrepro.studies.moreno_torres2012 import build_learners

    ds = load_dataset("haberman")
    learners = build_learners(["1NN", "3NN", "SVM", "PDFC"], ds.X)
    keel_cache.clear()
    for k in (2, 5, 2):
        args = dict(folds=(k,), iterations=2, partitioner="dobscv", partitioner_params={"metric": "hvdm"},
                    progress=False)
        batched_run = run_cv([("haberman", ds.X, ds.y)], learners, **args)
        per_fold = run_cv([("haberman", ds.X, ds.y)], learners, batched=False, **args)
        for name in learners:
            assert np.array_equal(batched_run.oof("haberman", name, k), per_fold.oof("haberman", name, k))
    assert len(keel_cache.cached_keys()) == 3          # the SVM's and PDFC's kernel matrices, the kNN's order


@pytest.mark.parametrize("name", ["heart", "crx", "glass", "mushroom", "spambase"])
def test_libsvm_rbf_matrix_gives_libsvms_rbf_solution(name):
    """SVC(kernel="precomputed") on LibsvmRBFRows' values finds SVC(kernel="rbf")'s solution bit for
    bit (support vectors, dual coefficients, intercept): PDFC's training is unchanged by solving on
    the kept matrix. Rows in a shuffled order, as PDFC's binary problems have them."""
    from sklearn.svm import SVC

    from cvrepro.learners.keel_data import numeric_ranges
    from cvrepro.learners.keel_smo import smo_input
    from cvrepro.learners.libsvm_rbf import LibsvmRBFRows
    from cvrepro.learners.preprocessing import Schema

    ds = load_dataset(name, dropna=True)
    schema, Xe = Schema.learn(ds.X)
    lo, hi = numeric_ranges(Xe, schema.nominal, keel_bounds(ds.X))
    Z = smo_input(Xe, schema.nominal, schema.n_values, lo, hi, False)
    codes = np.asarray(ds.y.astype("category").cat.codes)
    rng = np.random.default_rng(1)
    ids = rng.permutation(len(codes))[:min(len(codes), 700)]
    y = np.where(codes[ids] == 0, 1.0, -1.0)
    rows = LibsvmRBFRows(Z, 0.25)
    for gamma_rows, gamma in [(rows, 0.25), (LibsvmRBFRows(Z, 0.7, budget=0), 0.7)]:   # kept matrix; none
        want = SVC(C=100.0, kernel="rbf", gamma=gamma, tol=1e-3).fit(Z[ids], y)
        got = SVC(C=100.0, kernel="precomputed", tol=1e-3).fit(gamma_rows.rows(ids, ids), y)
        assert np.array_equal(got.support_, want.support_)
        assert np.array_equal(got.dual_coef_, want.dual_coef_)
        assert np.array_equal(got.intercept_, want.intercept_)


def test_pdfc_keeps_libsvms_kernel_across_calls():
    """PDFC's batched path keeps libsvm's RBF matrix per data set: a second call reuses it (and the
    rows the first one filled), with the per-fold numbers."""
    keel_cache.clear()
    est = PDFC(bounds=keel_bounds(load_dataset("crx", dropna=True).X))
    _check(est, "crx", dropna=True)
    keys = keel_cache.cached_keys()
    assert len(keys) == 1
    _check(est, "crx", dropna=True, iterations=1, k=10)
    assert keel_cache.cached_keys() == keys
