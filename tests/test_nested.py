"""Nested CV (cvrepro.nested) against scikit-learn's GridSearchCV inside cross_validate."""
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.tree import DecisionTreeClassifier

from cvrepro.nested import nested_cv, nested_from_scores
from cvrepro.partition import SCV

GRID = {"max_depth": [1, 2, 3, None], "min_samples_leaf": [1, 5, 20]}


@pytest.fixture(scope="module")
def data():
    return make_classification(160, 8, n_informative=3, flip_y=0.1, random_state=0)


@pytest.mark.parametrize("outer, inner", [
    (StratifiedKFold(5, shuffle=True, random_state=1), StratifiedKFold(4, shuffle=True, random_state=2)),
    (SCV(4, random_state=3), SCV(3, random_state=4)),
    (KFold(3, shuffle=True, random_state=5), 3),
])
def test_nested_and_naive_equal_scikit_learn(data, outer, inner):
    X, y = data
    est = DecisionTreeClassifier(random_state=0)
    res = nested_cv(est, GRID, X, y, outer_cv=outer, inner_cv=inner)
    cv = cross_validate(GridSearchCV(est, GRID, cv=inner), X, y, cv=outer, return_estimator=True)
    folds = res.folds()
    np.testing.assert_array_equal(folds["outer_score"], cv["test_score"])
    np.testing.assert_array_equal(folds["chosen"], [e.best_index_ for e in cv["estimator"]])
    np.testing.assert_array_equal(folds["inner_score"], [e.best_score_ for e in cv["estimator"]])
    assert res.nested_score == pytest.approx(cv["test_score"].mean())
    naive = GridSearchCV(est, GRID, cv=outer).fit(X, y)
    assert res.naive_score == naive.best_score_ and res.naive_setting == naive.best_index_
    split = np.array([naive.cv_results_[f"split{f}_test_score"] for f in range(res.n_outer)])
    assert res.per_fold_score == pytest.approx(split.max(axis=1).mean())
    assert list(res.settings["params"]) == list(naive.cv_results_["params"])


def test_invariants_and_trials(data):
    X, y = data
    res = nested_cv(DecisionTreeClassifier(random_state=0), GRID, X, y, outer_cv=4, inner_cv=3)
    assert res.per_fold_score >= res.naive_score >= res.setting_scores()["outer_mean"].max() - 1e-12
    assert res.per_fold_score >= res.nested_score
    assert res.trials() == {"naive": 4 * 12, "nested": 4 * 3 * 12 + 4}
    one = res.restrict([5])
    assert one.naive_score == one.nested_score == one.per_fold_score == pytest.approx(
        res.outer_matrix()[:, 5].mean())


def test_subset_estimates_equal_restrict(data):
    X, y = data
    res = nested_cv(DecisionTreeClassifier(random_state=0), GRID, X, y, outer_cv=3, inner_cv=3)
    rng = np.random.default_rng(0)
    masks = rng.random((25, 12)) < 0.35
    masks[~masks.any(axis=1), 0] = True
    est = res.subset_estimates(masks)
    for m, row in zip(masks, est.itertuples()):
        sub = res.restrict(np.flatnonzero(m))
        assert (sub.naive_score, sub.nested_score, sub.per_fold_score) == pytest.approx(
            (row.naive, row.nested, row.per_fold))
        assert np.flatnonzero(m)[sub.naive_setting] == row.naive_setting
    with pytest.raises(ValueError, match="at least one setting"):
        res.subset_estimates(np.zeros((1, 12), dtype=bool))


def test_ties_go_to_the_first_setting():
    outer = pd.DataFrame({"outer_fold": [0, 0, 1, 1], "setting": [0, 1, 0, 1], "score": [0.5, 0.7, 0.7, 0.5]})
    inner = pd.DataFrame({"outer_fold": [0, 0, 1, 1], "setting": [0, 1, 0, 1], "inner_fold": 0,
                          "score": [0.6, 0.6, 0.6, 0.6]})
    res = nested_from_scores(["a", "b"], outer, inner)
    assert res.naive_setting == 0 and res.naive_score == 0.6
    assert list(res.folds()["chosen"]) == [0, 0] and res.nested_score == pytest.approx(0.6)
    assert res.per_fold_score == pytest.approx(0.7)


def test_bad_score_tables_are_named():
    outer = pd.DataFrame({"outer_fold": [0, 1], "setting": [0, 0], "score": [0.5, 0.6]})
    inner = pd.DataFrame({"outer_fold": [0, 1], "setting": [0, 0], "inner_fold": [0, 0], "score": [0.5, 0.6]})
    with pytest.raises(ValueError, match="lack columns"):
        nested_from_scores(["a"], outer.drop(columns="score"), inner)
    with pytest.raises(ValueError, match="not in the grid"):
        nested_from_scores(["a"], outer.assign(setting=1), inner.assign(setting=1))
    with pytest.raises(ValueError, match="finite"):
        nested_from_scores(["a"], outer.assign(score=[np.nan, 0.5]), inner)
    with pytest.raises(ValueError, match="same outer folds"):
        nested_from_scores(["a"], outer, inner.iloc[:1])
    with pytest.raises(ValueError, match="one score per"):
        nested_from_scores(["a"], pd.concat([outer, outer]), inner)
