"""Bad input gets a clear error naming the problem; good input of every accepted form works."""
import numpy as np
import pandas as pd
import pytest

from cvrepro.datasets import load_dataset
from cvrepro.learners import make_learner


@pytest.fixture(scope="module")
def labor():
    return load_dataset("labor")


def test_missing_class_labels_are_rejected(labor):
    y = labor.y.copy()
    y.iloc[0] = np.nan
    with pytest.raises(ValueError, match="missing class labels"):
        make_learner("C4.5").fit(labor.X, y)


def test_row_count_mismatch(labor):
    with pytest.raises(ValueError, match="57 rows but y has 56"):
        make_learner("NB").fit(labor.X, labor.y.iloc[:-1])


def test_predict_needs_the_fitted_columns(labor):
    model = make_learner("C4.5").fit(labor.X, labor.y)
    with pytest.raises(ValueError, match="feature names"):
        model.predict(labor.X.iloc[:, ::-1])
    with pytest.raises(ValueError, match="DataFrame with the same columns"):
        model.predict(np.zeros((2, labor.X.shape[1])))


def test_type_change_between_fit_and_predict(labor):
    model = make_learner("5-NN").fit(labor.X, labor.y)
    X = labor.X.copy()
    X["duration"] = X["duration"].astype("category")
    with pytest.raises(ValueError, match="'duration' was numeric at fit time"):
        model.predict(X)


def test_infinite_values_are_rejected():
    X = np.array([[0.0, 1.0], [1.0, np.inf], [2.0, 0.0]])
    with pytest.raises(ValueError, match="[Ii]nfinity"):
        make_learner("C4.5").fit(X, [0, 1, 0])


def test_string_columns_count_as_nominal_and_category_order_may_differ(labor):
    X = labor.X.copy()
    name = "pension"
    model = make_learner("C4.5").fit(X, labor.y)
    shuffled = X.copy()
    shuffled[name] = shuffled[name].cat.reorder_categories(shuffled[name].cat.categories[::-1])
    assert (model.predict_proba(shuffled) == model.predict_proba(X)).all()
    as_text = X.copy()
    as_text[name] = as_text[name].astype(object)
    assert (model.predict_proba(as_text) == model.predict_proba(X)).all()


def test_classes_keep_declared_categories_even_if_absent(labor):
    y = pd.Series(pd.Categorical(labor.y.astype(str), categories=["bad", "good", "unknown"]))
    model = make_learner("NB").fit(labor.X, y)
    assert list(model.classes_) == ["bad", "good", "unknown"]
    assert model.predict_proba(labor.X).shape == (57, 3)
