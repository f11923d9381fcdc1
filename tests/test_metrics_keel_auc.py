"""KEEL's AUC from crisp predictions (cvrepro.metrics.keel_auc, fold_keel_auc), on hand-worked examples."""
import numpy as np
import pytest

from cvrepro.metrics import auroc, fold_keel_auc, keel_auc


def test_binary_hand_worked():
    # 3 positives (a), 5 negatives (b): TP = 2, FN = 1, FP = 1, TN = 4
    # TPR = 2/3, FPR = 1/5, AUC = (1 + 2/3 - 1/5) / 2 = 11/15
    y = ["a", "a", "a", "b", "b", "b", "b", "b"]
    p = ["a", "a", "b", "a", "b", "b", "b", "b"]
    assert keel_auc(y, p) == pytest.approx(11 / 15, abs=1e-15)


def test_symmetric_in_the_positive_class():
    y = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    p = np.array([0, 0, 1, 0, 1, 1, 1, 1])
    assert keel_auc(y, p) == pytest.approx(keel_auc(1 - y, 1 - p), abs=1e-15)


def test_is_the_roc_area_of_a_crisp_classifier():
    """(1 + TPR - FPR) / 2 is the trapezoid under (0,0), (FPR,TPR), (1,1): the AUROC of a 0/1 score."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    p = np.where(rng.random(200) < 0.8, y, 1 - y)
    proba = np.eye(2)[p]
    assert keel_auc(y, p) == pytest.approx(auroc(y, proba, [0, 1]), abs=1e-12)


def test_one_class_predicted_is_one_half():
    """Moreno-Torres et al.'s LDA on crx and mushroom: KEEL gives class 0 to everything."""
    assert keel_auc([0, 1, 1, 0, 1], [0, 0, 0, 0, 0]) == 0.5
    assert keel_auc([0, 1, 1, 0, 1], [1, 1, 1, 1, 1]) == 0.5


def test_fold_without_a_class_scores_zero_as_in_keel():
    assert keel_auc(["a", "a"], ["a", "b"], labels=["a", "b"]) == 0.0
    with pytest.raises(ValueError, match="two classes"):
        keel_auc(["a", "a"], ["a", "a"])


def test_unclassified_instances_are_left_out():
    # without the unclassified one: TP = 1, FN = 0, FP = 1, TN = 1 -> (1 + 1 - 1/2) / 2
    assert keel_auc([0, 0, 1, 1], [0, None, 1, 0]) == 0.75
    assert keel_auc([0.0, 0.0, 1.0, 1.0], [0.0, np.nan, 1.0, 0.0]) == 0.75


def test_more_classes_average_one_vs_rest():
    # class 0: TPR 1, FPR 0 -> 1; class 1: TPR 1, FPR 1/3 -> 5/6; class 2: TPR 1/2, FPR 0 -> 3/4
    assert keel_auc([0, 1, 2, 2], [0, 1, 2, 1]) == pytest.approx((1 + 5 / 6 + 3 / 4) / 3, abs=1e-15)


def test_fold_version_equals_per_fold_calls():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    p = np.where(rng.random(300) < 0.7, y, 1 - y)
    folds = rng.integers(0, 5, 300)
    got = fold_keel_auc(y, p, folds, 6, n_classes=2)
    for f in range(5):
        assert got[f] == pytest.approx(keel_auc(y[folds == f], p[folds == f], labels=[0, 1]), abs=1e-15)
    assert np.isnan(got[5])                       # a fold with no instance


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="differ in length"):
        fold_keel_auc([0, 1], [0], [0, 0], 1)
    with pytest.raises(ValueError, match="class indices"):
        fold_keel_auc([0, 3], [0, 1], [0, 0], 1, n_classes=2)
    with pytest.raises(ValueError, match="y_pred has labels not in"):
        keel_auc(["a", "b"], ["a", "c"], labels=["a", "b"])
