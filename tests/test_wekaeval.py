"""WEKA's Explorer cross-validation and pooled measures (cvrepro.wekaeval): structure, hand-computed
measures and cross-checks; the parity with WEKA's own cross-validation is tested in
tests/test_study_japkowicz2011.py against recorded WEKA outputs."""
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier

from cvrepro import metrics
from cvrepro.learners.java import JavaRandom
from cvrepro.wekaeval import WekaCVPredictions, WekaStratifiedKFold, weka_cross_validate, weka_measures, weka_roc_area


def _labels(counts):
    return pd.Series(pd.Categorical(np.repeat(list("abc")[:len(counts)], counts), categories=list("abc")[:len(counts)]))


def test_folds_partition_the_rows_and_stratify():
    y = _labels([37, 20])
    cv = WekaStratifiedKFold(10, seed=1)
    seen = []
    for train, test in cv.split(None, y):
        assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == len(y)
        seen.append(test)
        counts = np.bincount(y.cat.codes.to_numpy()[test], minlength=2)
        assert abs(counts[0] - 3.7) < 1 and abs(counts[1] - 2.0) <= 1
    assert np.array_equal(np.sort(np.concatenate(seen)), np.arange(len(y)))
    assert [len(t) for t in seen] == [6] * 7 + [5] * 3          # WEKA's testCV: the first n % k folds get one more


def test_folds_are_blocks_of_wekas_order_and_train_is_reshuffled():
    """Fold i tests a contiguous block of randomize + stratify; its training rows are trainCV shuffled by the
    same generator, which continues after randomize (the exact order is checked against WEKA's own
    cross-validation in tests/test_study_japkowicz2011.py)."""
    y = _labels([8, 5])
    cv = WekaStratifiedKFold(3, seed=7)
    order = cv.order(y)
    assert np.array_equal(np.sort(order), np.arange(13))
    rng = JavaRandom(7)
    rng.shuffle(np.arange(13))
    (train0, test0), (train1, test1), _ = list(cv.split(None, y))
    assert np.array_equal(test0, order[:5]) and np.array_equal(test1, order[5:9])
    assert np.array_equal(train0, rng.shuffle(order[5:].copy()))
    assert np.array_equal(train1, rng.shuffle(np.concatenate([order[:5], order[9:]])))
    codes = y.cat.codes.to_numpy()
    assert [np.bincount(codes[t], minlength=2).tolist() for t in (test0, test1)] == [[3, 2], [3, 1]]


def test_splitter_works_with_scikit_learn_and_is_deterministic():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = pd.Series(pd.Categorical((X[:, 0] > 0).astype(int)))
    a = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=WekaStratifiedKFold(5, 3))
    b = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=WekaStratifiedKFold(5, 3))
    assert np.array_equal(a, b) and len(a) == 5
    assert not np.array_equal(WekaStratifiedKFold(5, 3).fold_ids(y), WekaStratifiedKFold(5, 4).fold_ids(y))


@pytest.mark.parametrize("bad, message", [(WekaStratifiedKFold(1), "n_splits must be an integer >= 2"),
                                          (WekaStratifiedKFold(20), "more folds")])
def test_bad_splitters_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        list(bad.split(None, _labels([5, 5])))


def test_missing_or_plain_labels_are_refused():
    y = pd.Series(pd.Categorical(["a", None, "b", "a"]))
    with pytest.raises(ValueError, match="missing class labels"):
        list(WekaStratifiedKFold(2).split(None, y))
    with pytest.raises(TypeError, match="categorical"):
        weka_cross_validate(DecisionTreeClassifier(), pd.DataFrame({"x": [1.0, 2, 3, 4]}), pd.Series([0, 1, 0, 1]))


def test_roc_area_is_mann_whitney_with_ties():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 1)                       # many ties
    assert weka_roc_area(y == 1, s) == pytest.approx(roc_auc_score(y, s), abs=1e-15)
    assert weka_roc_area(y == 1, s) == pytest.approx(metrics.auroc(y, np.column_stack([1 - s, s]), [0, 1]))
    assert np.isnan(weka_roc_area(np.ones(3, bool), [0.1, 0.2, 0.3]))


def _pred(y, P, fold, priors):
    y = np.asarray(y)
    return WekaCVPredictions(np.arange(len(y)), y, np.asarray(P, float), np.asarray(fold), np.asarray(priors, float),
                             np.array(["neg", "pos"]))


def test_measures_by_hand():
    """Four predictions, two folds with priors (2+1)/(3+2)... written out."""
    y = [1, 0, 1, 0]
    P = [[0.2, 0.8], [0.6, 0.4], [0.7, 0.3], [0.5, 0.5]]     # the last is a tie: WEKA predicts class 0
    priors = [[0.4, 0.6], [0.5, 0.5]]
    m = weka_measures(_pred(y, P, [0, 0, 1, 1], priors), positive=1)
    assert m["confusion"].tolist() == [[2, 0], [1, 1]]
    assert m["accuracy"] == 75.0 and m["tpr"] == 0.5 and m["fpr"] == 0.0 and m["precision"] == 1.0
    assert m["rmse"] == pytest.approx(np.sqrt(np.mean([0.04, 0.16, 0.49, 0.25])))
    assert m["mae"] == pytest.approx(np.mean([0.2, 0.4, 0.7, 0.5]))
    info = [np.log2(0.8 / 0.6), np.log2(0.6 / 0.4), -(np.log2(0.7) - np.log2(0.5)), 0.0]
    assert m["info_score"] == pytest.approx(sum(info))
    assert m["kappa"] == pytest.approx(metrics.kappa(np.array(y), np.array([1, 0, 0, 0])))
    assert m["auc"] == pytest.approx(roc_auc_score(y, np.array(P)[:, 1]))


def test_all_zero_distribution_is_unclassified():
    m = weka_measures(_pred([1, 0], [[0.0, 0.0], [1.0, 0.0]], [0, 0], [[0.5, 0.5]]))
    assert m["unclassified"] == 1 and m["accuracy"] == 50.0 and m["confusion"].sum() == 1
    assert m["rmse"] == 0.0                                  # the unclassified instance is left out, as in WEKA


def test_cross_validate_keeps_every_class_column():
    """A training fold without class c still yields a column for c (zero), in the data set's class order."""
    X = pd.DataFrame({"x": np.arange(12.0)})
    y = pd.Series(pd.Categorical(["a"] * 10 + ["c"] * 2, categories=["a", "b", "c"]))
    pred = weka_cross_validate(DecisionTreeClassifier(random_state=0), X, y, n_folds=2)
    assert pred.proba.shape == (12, 3) and (pred.proba[:, 1] == 0).all()
    assert np.allclose(pred.priors.sum(axis=1), 1) and pred.priors.shape == (2, 3)
    assert np.array_equal(np.sort(pred.rows), np.arange(12))
