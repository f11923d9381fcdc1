"""Metrics against the Japkowicz tutorial's worked examples and scikit-learn."""
import numpy as np
import pytest
from sklearn import metrics as skm

from cvrepro import metrics as M


def _from_confusion(cm, labels):
    """Label vectors reproducing a confusion matrix (rows true, columns predicted)."""
    cm = np.asarray(cm)
    t = np.repeat(np.repeat(labels, len(labels)), cm.ravel())
    p = np.repeat(np.tile(labels, len(labels)), cm.ravel())
    return t, p


# the tutorial's probabilistic example: f(x) = P(class 1), labels y
TUT_Y = np.array([1, 0, 1, 0, 1])
TUT_F = np.array([0.95, 0.6, 0.8, 0.75, 0.9])
TUT_P = np.c_[1 - TUT_F, TUT_F]


def test_kappa_tutorial_example():
    t, p = _from_confusion([[60, 50, 10], [10, 100, 40], [30, 10, 90]], ["A", "B", "C"])
    assert M.accuracy(t, p) == pytest.approx(0.625)
    assert round(M.kappa(t, p) * 100, 2) == 43.29


def test_rmse_tutorial_example():
    assert round(M.rmse(TUT_Y, TUT_P, [0, 1]), 4) == 0.4416


def test_information_score_tutorial_example():
    """Per-instance magnitudes are the tutorial's (0.66, 0, 0.42, 0.32, 0.59), prior
    P(1) = 3/5 from the labels. Instance 4 is misleading (P'(0) = .25 < P(0) = .4):
    Kononenko & Bratko (and WEKA) count it as -0.32, so the mean is 0.27; the
    slide drops that minus sign and prints 0.40, the mean of the magnitudes."""
    per = M.information_score(TUT_Y, TUT_P, [0, 1], per_instance=True)
    assert np.allclose(per, [0.66, 0, 0.42, -0.32, 0.59], atol=0.006)
    assert round(np.abs(per).mean(), 2) == 0.40          # the tutorial's printed value
    assert M.information_score(TUT_Y, TUT_P, [0, 1]) == pytest.approx(0.2682, abs=1e-4)
    # an explicit prior (e.g. the training fold's) replaces the label frequencies
    flat = M.information_score(TUT_Y, TUT_P, [0, 1], prior=[0.5, 0.5], per_instance=True)
    assert flat[0] == pytest.approx(np.log2(0.95 / 0.5))


def test_confusion_measures_tutorial_example():
    """'Issues with precision/recall': TP 200, FP 100, FN 300, TN 400."""
    t, p = _from_confusion([[400, 100], [300, 200]], ["neg", "pos"])
    assert M.accuracy(t, p) == pytest.approx(0.6)
    assert M.error_rate(t, p) == pytest.approx(0.4)
    assert M.precision(t, p, pos_label="pos") == pytest.approx(2 / 3)
    assert M.recall(t, p, pos_label="pos") == pytest.approx(0.4) == M.tpr(t, p, pos_label="pos")
    assert M.fpr(t, p, pos_label="pos") == pytest.approx(0.2)
    assert M.f_measure(t, p) == pytest.approx(2 * (2 / 3) * 0.4 / (2 / 3 + 0.4))


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_against_scikit_learn(n_classes):
    rng = np.random.default_rng(n_classes)
    for _ in range(20):
        n = int(rng.integers(20, 80))
        t = rng.integers(0, n_classes, n)
        t[:n_classes] = np.arange(n_classes)          # every class present
        P = rng.dirichlet(np.ones(n_classes), n)
        P = np.round(P, 1)                             # plenty of ties
        P = P / P.sum(1, keepdims=True)
        labels = np.arange(n_classes)
        pred = M.predict_labels(P, labels)
        assert np.array_equal(pred, P.argmax(1))
        avg = "binary" if n_classes == 2 else "macro"
        zd = dict(zero_division=0)
        assert M.kappa(t, pred) == pytest.approx(skm.cohen_kappa_score(t, pred)) or \
            np.isnan(skm.cohen_kappa_score(t, pred))
        assert M.precision(t, pred, labels=labels) == pytest.approx(
            skm.precision_score(t, pred, average=avg, labels=labels, **zd))
        assert M.recall(t, pred, labels=labels) == pytest.approx(
            skm.recall_score(t, pred, average=avg, labels=labels, **zd))
        assert M.f_measure(t, pred, labels=labels) == pytest.approx(
            skm.f1_score(t, pred, average=avg, labels=labels, **zd))
        if n_classes == 2:
            ref_auc = skm.roc_auc_score(t, P[:, 1])
        else:
            ref_auc = skm.roc_auc_score(t, P, multi_class="ovr", average="macro")
            assert M.auroc(t, P, labels, average="weighted") == pytest.approx(
                skm.roc_auc_score(t, P, multi_class="ovr", average="weighted"))
        assert M.auroc(t, P, labels) == pytest.approx(ref_auc)
        onehot = np.eye(n_classes)[t]
        assert M.rmse(t, P, labels) == pytest.approx(np.sqrt(skm.mean_squared_error(onehot, P)))


def test_evaluate_equals_individual_functions():
    rng = np.random.default_rng(0)
    t = np.array(list("abcabcabcaab"))
    P = rng.dirichlet(np.ones(3), len(t))
    classes = ["a", "b", "c"]
    pred = M.predict_labels(P, classes)
    got = M.evaluate(t, P, classes, prior=[0.5, 0.25, 0.25])
    assert set(got) == set(M.METRICS)
    assert got["accuracy"] == M.accuracy(t, pred)
    assert got["kappa"] == pytest.approx(M.kappa(t, pred))
    assert got["auroc"] == pytest.approx(M.auroc(t, P, classes))
    assert got["precision"] == pytest.approx(M.precision(t, pred, labels=classes))
    assert got["fpr"] == pytest.approx(M.fpr(t, pred, labels=classes))
    assert got["info_score"] == pytest.approx(
        M.information_score(t, P, classes, prior=[0.5, 0.25, 0.25]))
    assert got["keel_auc"] == M.keel_auc(t, pred, labels=classes)


def test_fpr_is_one_minus_specificity():
    t = np.array([0, 0, 0, 0, 1, 1])
    p = np.array([0, 1, 1, 0, 1, 0])
    assert M.fpr(t, p) == pytest.approx(0.5)
    assert M.fpr(t, p) == pytest.approx(1 - skm.recall_score(t, p, pos_label=0))


def test_undefined_cases_are_nan_not_numbers():
    assert np.isnan(M.auroc([1, 1, 1], np.array([[0.2, 0.8]] * 3), [0, 1]))
    assert np.isnan(M.kappa(["a", "a"], ["a", "a"]))
    assert M.precision([0, 1], [0, 0]) == 0.0    # nothing predicted positive (WEKA)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="shape"):
        M.auroc([0, 1], np.ones((2, 3)) / 3, [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        M.rmse([0, 1], np.array([[np.nan, 1], [0.5, 0.5]]), [0, 1])
    with pytest.raises(ValueError, match="not in"):
        M.rmse([0, 2], np.array([[0.5, 0.5], [0.5, 0.5]]), [0, 1])
    with pytest.raises(ValueError, match="labels"):
        M.accuracy([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="pos_label"):
        M.precision([0, 1], [0, 1], pos_label=7)
    with pytest.raises(ValueError, match="prior"):
        M.information_score([0, 1], np.array([[0.5, 0.5]] * 2), [0, 1], prior=[0.9, 0.9])


@pytest.mark.parametrize("n_classes", [2, 3])
def test_fold_metrics_equal_evaluate_per_fold(n_classes):
    """The engine's vectorized per-fold path against evaluate() fold by fold,
    WEKA's priors from the training folds (counts + 1); a fold with NaN probabilities (a failed
    fit) is NaN throughout and leaves the others alone."""
    rng = np.random.default_rng(7)
    for rep in range(15):
        n, k = int(rng.integers(30, 150)), int(rng.integers(2, 7))
        t = rng.integers(0, n_classes, n)
        P = np.round(rng.dirichlet(np.ones(n_classes), n), 1)
        P = P / P.sum(1, keepdims=True)
        folds = rng.integers(0, k, n)
        if rep % 3 == 0:
            P[folds == 0] = np.nan
        got = M.fold_metrics(t, P, folds, k)
        for j in range(k):
            test = folds == j
            if np.isnan(P[test]).any() or not test.any():
                assert all(np.isnan(got[m][j]) for m in M.METRICS)
                continue
            prior = (np.bincount(t[~test], minlength=n_classes) + 1) / ((~test).sum() + n_classes)
            ref = M.evaluate(t[test], P[test], np.arange(n_classes), prior=prior)
            for m in M.METRICS:
                assert got[m][j] == pytest.approx(ref[m], nan_ok=True), (m, j)
            # KEEL's AUC of the fold = keel_auc on the fold's crisp predictions (up to the last bit:
            # the per-fold path keeps one positive class for all folds, as KEEL does)
            pred = M.predict_labels(P[test], np.arange(n_classes))
            assert got["keel_auc"][j] == pytest.approx(M.keel_auc(t[test], pred, labels=np.arange(n_classes)),
                                                       abs=1e-15), j


def test_fold_metrics_keel_auc_keeps_keel_conventions():
    """A fold without one of the two classes scores 0 (KEEL), a fold predicting one class 0.5,
    and the fold average is fold_keel_auc's: KEEL's reported number."""
    t = np.array([0, 0, 0, 1, 1, 0, 1, 1, 0, 1])
    folds = np.array([0, 0, 0, 0, 0, 1, 1, 1, 2, 2])
    P = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7], [0.1, 0.9],
                  [0.7, 0.3], [0.8, 0.2], [0.6, 0.4], [0.9, 0.1], [0.4, 0.6]])
    got = M.fold_metrics(t, P, folds, 3)["keel_auc"]
    # fold 0: TPR(0) = 2/3, FPR(0) = 0 -> 5/6; fold 1: everything class 0 -> 1/2; fold 2: perfect
    assert got == pytest.approx([5 / 6, 0.5, 1.0], abs=1e-15)
    only = M.fold_metrics(np.array([0, 0, 1, 1]), np.eye(2)[[0, 1, 1, 1]], np.array([0, 0, 1, 1]), 2)
    assert only["keel_auc"].tolist() == [0.0, 0.0]   # each fold holds one class: KEEL's 0, not NaN
    assert np.isnan(only["auroc"]).all()
    pred = P.argmax(1)
    assert got == pytest.approx(M.fold_keel_auc(t, pred, folds, 3, 2), abs=0)

