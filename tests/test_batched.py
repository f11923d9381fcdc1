"""Batched fit_predict_folds equals fitting each fold separately (the per-fold path)."""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners.knn import IBk
from cvrepro.learners.mlp import WekaMLP
from cvrepro.learners.naive_bayes import WekaNaiveBayes


def _splits(y, iterations=2, k=5):
    out = []
    for it in range(iterations):
        out += [(tr, te) for tr, te in StratifiedKFold(k, shuffle=True, random_state=it).split(np.zeros(len(y)), y)]
    return out


def per_fold(est, X, y, splits, seeds, classes):
    """The reference: a fresh clone per split, columns placed by classes_."""
    out = []
    for (train, test), rs in zip(splits, seeds):
        m = clone(est)
        if "random_state" in m.get_params():
            m.set_params(random_state=rs)
        Xtr, Xte = (X.iloc[train], X.iloc[test]) if hasattr(X, "iloc") else (X[train], X[test])
        m.fit(Xtr, y[train])
        raw = m.predict_proba(Xte)
        full = np.zeros((len(test), len(classes)))
        for j, c in enumerate(m.classes_):
            full[:, list(classes).index(c)] = raw[:, j]
        out.append(full)
    return out


def _data(name):
    ds = load_dataset(name)
    y = ds.y.to_numpy()          # as the engine passes it: plain labels
    return ds.X, y, np.unique(y)


def assert_batched_equals_per_fold(est, name, atol=1e-12, splits=None):
    X, y, classes = _data(name)
    splits = splits if splits is not None else _splits(y)
    seeds = [1000 + i for i in range(len(splits))]
    got = est.fit_predict_folds(X, y, splits, seeds, classes)
    want = per_fold(est, X, y, splits, seeds, classes)
    assert len(got) == len(splits)
    for g, w, (_, test) in zip(got, want, splits):
        assert g.shape == (len(test), len(classes))
        np.testing.assert_allclose(g, w, rtol=0, atol=atol)


DATASETS = ["vote", "crx", "sonar", "iris"]


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("k", [1, 5])
def test_ibk(name, k):
    assert_batched_equals_per_fold(IBk(k=k), name)


@pytest.mark.parametrize("name", DATASETS)
def test_ibk_fixed_ranges(name):
    assert_batched_equals_per_fold(IBk(k=3, update_ranges=False), name)


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("kernel", [True, False])
def test_naive_bayes(name, kernel):
    assert_batched_equals_per_fold(WekaNaiveBayes(kernel=kernel), name)


def test_ibk_small_memory_budget_same_result(monkeypatch):
    import cvrepro.learners.knn as knn
    monkeypatch.setattr(knn, "MEMORY_BUDGET", 8 * 435 * 7)       # 7 rows of the distance matrix at a time
    assert_batched_equals_per_fold(IBk(k=5), "vote")


def _iris_splits_with_absent_class():
    """2 x 5-fold on iris, plus splits whose training folds lack a class (its column must be 0)."""
    _, y, _ = _data("iris")
    splits = _splits(y)
    no_first = np.flatnonzero(y != y[0])
    rng = np.random.default_rng(0)
    perm = rng.permutation(no_first)
    splits.append((np.sort(perm[:70]), np.setdiff1d(np.arange(len(y)), perm[:70])))
    splits.append((np.sort(perm[30:]), np.sort(perm[:30])))
    return splits


@pytest.mark.parametrize("make", [lambda: IBk(k=3), lambda: WekaNaiveBayes(), lambda: WekaMLP(hidden_layers="3"),
                                  lambda: WekaMLP(hidden_layers="a", epochs=50)])
def test_training_fold_without_a_class(make):
    assert_batched_equals_per_fold(make(), "iris", splits=_iris_splits_with_absent_class())


@pytest.mark.parametrize("name", ["vote", "crx"])
def test_mlp_weka_options(name):
    # bit-identical: the batched trainer performs each model's operations in the per-fold order
    assert_batched_equals_per_fold(WekaMLP(hidden_layers="3"), name, atol=0)


def test_mlp_small_memory_budget_and_other_options(monkeypatch):
    import cvrepro.learners.batched as batched
    monkeypatch.setattr(batched, "MEMORY_BUDGET", 1)              # one model per group
    assert_batched_equals_per_fold(WekaMLP(hidden_layers="2", epochs=30, learning_rate=0.1, momentum=0.5), "sonar",
                                   atol=0, splits=_splits(_data("sonar")[1])[:3])


def test_branch_free_sigmoid_is_the_scalar_sigmoid():
    from cvrepro.learners.mlp import sigmoid
    from cvrepro.learners.mlp_batched import branch_free_sigmoid
    rng = np.random.default_rng(0)
    edges = [0.5 * 0.6931471805599453, 1.5 * 0.6931471805599453, 3.725290298461914e-09, 45.0]
    near = [np.nextafter(s * e, t) for e in edges for s in (-1, 1) for t in (-np.inf, np.inf)]
    v = np.concatenate([rng.uniform(-50, 50, 20000), rng.normal(0, 1, 20000), rng.normal(0, 1e-8, 1000),
                        near, [0.0, -0.0, 45.0, -45.0, 46.0, -46.0]])
    assert all(branch_free_sigmoid(x) == sigmoid(x) for x in v)


def _encoded_learners():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression

    from cvrepro.learners.part import PART
    from cvrepro.learners.smo import SMO
    from cvrepro.learners.tree import C45, HDDT
    from cvrepro.learners.wrapped import Wrapped
    return {"SMO": SMO(), "C4.5": C45(), "HDDT": HDDT(), "PART": PART(),
            "LDA": Wrapped(LinearDiscriminantAnalysis(solver="lsqr")),
            "LR": Wrapped(LogisticRegression(C=1e8, max_iter=2000), normalize=True, random_state=3)}


@pytest.mark.parametrize("learner,name", [(lrn, ds) for lrn in _encoded_learners() for ds in ("vote", "crx", "iris")
                                          if (lrn, ds) != ("LR", "crx")])   # slow fits
def test_encoded_once_learners(learner, name):
    assert_batched_equals_per_fold(_encoded_learners()[learner], name)


def test_text_columns_fall_back_to_per_fold():
    # string attributes get their values from each training fold, so they are not encoded once
    X, y, classes = _data("vote")
    X = X.astype(object).where(X.notna(), None)
    splits = _splits(y)[:3]
    for est in (IBk(k=3), WekaNaiveBayes(), WekaMLP(hidden_layers="2", epochs=5)):
        got = est.fit_predict_folds(X, y, splits, [0, 1, 2], classes)
        want = per_fold(est, X, y, splits, [0, 1, 2], classes)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-12)


@pytest.mark.parametrize("make", [lambda: IBk(k=5), lambda: WekaNaiveBayes(kernel=False),
                                  lambda: WekaMLP(hidden_layers="3", epochs=20)])
def test_numeric_array_input(make):
    X, y, classes = _data("sonar")
    Xa, splits = X.to_numpy(dtype=float), _splits(y)[:4]
    est = make()
    got = est.fit_predict_folds(Xa, y, splits, [5, 6, 7, 8], classes)
    for g, w in zip(got, per_fold(est, Xa, y, splits, [5, 6, 7, 8], classes)):
        np.testing.assert_allclose(g, w, rtol=0, atol=1e-12)
