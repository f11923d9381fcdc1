"""Batched fit_predict_folds equals fitting each fold separately (the per-fold path)."""
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners.knn import IBk
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
