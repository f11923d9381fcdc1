"""Cross-validation and measures exactly as WEKA 3.6's Explorer (and ``-t`` command line) computes them.

The Japkowicz tutorial's tables come from WEKA's Explorer: "Cross-validation,
10 folds", random seed 1. What WEKA does there (``Evaluation.crossValidateModel``,
also the Explorer's classifier panel and the Experimenter's
``CrossValidationResultProducer`` with run r as the seed):

1. ``Random random = new Random(seed)``; ``data.randomize(random)`` shuffles
   the rows (from the last position down, ``nextInt(j + 1)``);
2. ``data.stratify(k)`` groups the rows by class (WEKA's swap pass) and deals
   them out with stride k;
3. fold i tests rows ``testCV(k, i)`` (a contiguous block of that order) and
   trains on ``trainCV(k, i, random)``: the other rows, shuffled again by the
   *same* ``random``. The training order matters to order-dependent learners
   (IBk's ties, Bagging's and RandomForest's bootstrap indices, SMO, JRip);
4. one ``Evaluation`` pools every fold's test predictions; before each fold
   ``setPriors(train)`` sets the class priors to the training counts plus one.

:class:`WekaStratifiedKFold` yields exactly those splits (train rows in WEKA's
order). :func:`weka_cross_validate` fits any scikit-learn classifier on them
and keeps the out-of-fold probabilities in WEKA's evaluation order with each
fold's priors; :func:`weka_measures` computes WEKA's pooled measures from them
(not the mean of per-fold measures): percent correct, kappa, MAE, RMSE, per-class
TP rate, FP rate, precision, recall, F-measure, ROC area (``ThresholdCurve``),
and Kononenko & Bratko's information score in bits (summed, as WEKA prints
"K&B Information Score"), with WEKA's conventions (predicted class: the first
of highest probability, none when every probability is 0).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import BaseCrossValidator

from . import libm
from .learners.java import JavaRandom
from .learners.weka_trees import cv_split, stratify

__all__ = ["WekaStratifiedKFold", "WekaCVPredictions", "weka_cross_validate", "weka_measures",
           "weka_roc_area", "MEASURES"]

# The tutorial's nine measures (per-class ones of the positive class), plus kappa.
MEASURES = ("accuracy", "rmse", "tpr", "fpr", "precision", "recall", "f_measure", "auc", "info_score",
            "kappa", "mae")


class WekaStratifiedKFold(BaseCrossValidator):
    """WEKA's stratified k-fold cross-validation with ``java.util.Random(seed)``.

    ``split`` yields ``(train, test)`` row indices in WEKA's order: ``test`` is
    ``testCV(k, i)`` of the randomized, stratified data, ``train`` is
    ``trainCV(k, i, random)`` (shuffled again by the same generator, fold by
    fold). ``stratified=False`` skips ``stratify`` (WEKA does so for a numeric
    class only). The Explorer's default is ``n_splits=10, seed=1``; the
    Experimenter's run r uses ``seed=r``.
    """

    def __init__(self, n_splits: int = 10, seed: int = 1, stratified: bool = True):
        self.n_splits = n_splits
        self.seed = seed
        self.stratified = stratified

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits

    def order(self, y) -> np.ndarray:
        """Row indices after ``randomize`` and ``stratify``: fold i is a contiguous block of them."""
        codes = _codes(y)
        self._check(len(codes))
        order = JavaRandom(self.seed).shuffle(np.arange(len(codes), dtype=np.int64))
        if self.stratified:
            stratify(order, codes, self.n_splits)
        return order

    def split(self, X, y, groups=None):
        codes = _codes(y)
        self._check(len(codes))
        random = JavaRandom(self.seed)
        order = random.shuffle(np.arange(len(codes), dtype=np.int64))
        if self.stratified:
            stratify(order, codes, self.n_splits)
        for fold in range(self.n_splits):
            train, test = cv_split(order, self.n_splits, fold)
            yield random.shuffle(train.copy()), test

    def _iter_test_indices(self, X=None, y=None, groups=None):
        for _, test in self.split(X, y, groups):
            yield test

    def fold_ids(self, y) -> np.ndarray:
        """The test fold of every row."""
        folds = np.empty(len(_codes(y)), dtype=np.int64)
        for fold, (_, test) in enumerate(self.split(None, y)):
            folds[test] = fold
        return folds

    def _check(self, n: int) -> None:
        if not isinstance(self.n_splits, (int, np.integer)) or self.n_splits < 2:
            raise ValueError(f"n_splits must be an integer >= 2, got {self.n_splits!r}")
        if self.n_splits > n:
            raise ValueError(f"cannot have more folds ({self.n_splits}) than instances ({n})")

    def __repr__(self):
        return f"WekaStratifiedKFold(n_splits={self.n_splits}, seed={self.seed})"


def _codes(y) -> np.ndarray:
    if y is None:
        raise ValueError("WEKA's folds need the class labels y")
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        codes = y.cat.codes.to_numpy()
    else:
        _, codes = np.unique(np.asarray(y), return_inverse=True)
    if (codes < 0).any():
        raise ValueError("y has missing class labels; WEKA's evaluation skips them, drop them first")
    return codes.astype(np.int64)


@dataclass(frozen=True)
class WekaCVPredictions:
    """Out-of-fold predictions of one WEKA-style cross-validation.

    ``rows``: the data set's row of each prediction, in WEKA's evaluation order
    (fold 0's test rows first); ``y``: their class codes; ``proba``: the
    classifier's distribution over ``classes`` (the data set's categories);
    ``fold``: the fold of each prediction; ``priors``: per fold, WEKA's class
    priors (training counts + 1, normalised).
    """

    rows: np.ndarray
    y: np.ndarray
    proba: np.ndarray
    fold: np.ndarray
    priors: np.ndarray
    classes: np.ndarray

    def in_data_order(self) -> np.ndarray:
        """The probabilities indexed by data-set row."""
        out = np.empty_like(self.proba)
        out[self.rows] = self.proba
        return out

    def predicted(self) -> np.ndarray:
        """WEKA's predicted class code per prediction (-1: unclassified, every probability 0)."""
        return _predicted(self.proba)


def weka_cross_validate(estimator, X: pd.DataFrame, y: pd.Series, n_folds: int = 10, seed: int = 1,
                        cv: BaseCrossValidator | None = None) -> WekaCVPredictions:
    """Fit a clone of ``estimator`` on every WEKA fold; out-of-fold class distributions in WEKA's order.

    ``y`` is a pandas categorical (its categories are the classes, in WEKA's
    declared order, whether or not a fold's training rows contain each).
    ``cv`` defaults to ``WekaStratifiedKFold(n_folds, seed)``.
    """
    if not (isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype)):
        raise TypeError("y must be a pandas categorical Series (its categories are the classes)")
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    classes = np.asarray(y.cat.categories)
    codes = _codes(y)
    cv = cv if cv is not None else WekaStratifiedKFold(n_folds, seed)
    K = len(classes)
    rows, probas, folds, priors = [], [], [], []
    for fold, (train, test) in enumerate(cv.split(X, y)):
        model = clone(estimator).fit(X.iloc[train], y.iloc[train])
        got = np.asarray(model.predict_proba(X.iloc[test]), dtype=float)
        proba = np.zeros((len(test), K))
        known = [str(c) for c in classes]
        for j, c in enumerate(model.classes_):
            proba[:, known.index(str(c))] = got[:, j]
        counts = np.bincount(codes[train], minlength=K) + 1.0
        rows.append(test)
        probas.append(proba)
        folds.append(np.full(len(test), fold))
        priors.append(counts / counts.sum())
    rows = np.concatenate(rows)
    return WekaCVPredictions(rows, codes[rows], np.vstack(probas), np.concatenate(folds), np.array(priors),
                             classes)


def _predicted(P: np.ndarray) -> np.ndarray:
    """Evaluation's predicted class: the first index of the highest probability; -1 if all are 0."""
    best = np.argmax(P, axis=1)
    return np.where(P[np.arange(len(P)), best] > 0, best, -1)


def weka_roc_area(is_positive, score) -> float:
    """``ThresholdCurve.getROCArea``: the trapezoid under the ROC curve with one point per distinct score.

    Equal to the Mann-Whitney statistic with tied scores counted half; NaN
    when either class is absent (WEKA prints NaN).
    """
    pos = np.asarray(is_positive, dtype=bool)
    s = np.asarray(score, dtype=float)
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    values, inverse = np.unique(s, return_inverse=True)
    tp = np.bincount(inverse, weights=pos, minlength=len(values))          # lowest scores first
    fp = np.bincount(inverse, weights=~pos, minlength=len(values))
    cum_fp = np.concatenate([[0.0], np.cumsum(fp)[:-1]])
    return float(np.sum(tp * (cum_fp + 0.5 * fp)) / (n_pos * n_neg))


def weka_measures(pred: WekaCVPredictions, positive: int | str = 1) -> dict:
    """WEKA's pooled evaluation of ``pred``: the tutorial's measures of class ``positive``.

    Keys (:data:`MEASURES`): ``accuracy`` (percent correct), ``rmse``,
    ``mae``, ``kappa``, ``info_score`` (K&B information score, bits, summed
    over the instances), and for class ``positive`` (a code or a class name):
    ``tpr``, ``fpr``, ``precision``, ``recall``, ``f_measure``, ``auc``.
    Also ``confusion`` (rows true, columns predicted), ``n``, ``unclassified``,
    ``info_score_per_instance`` and ``kappa``.
    """
    P, t = pred.proba, pred.y
    K = P.shape[1]
    pos = positive if isinstance(positive, (int, np.integer)) else [str(c) for c in pred.classes].index(str(positive))
    guess = _predicted(P)
    classified = guess >= 0
    n = len(t)
    cm = np.zeros((K, K))
    np.add.at(cm, (t[classified], guess[classified]), 1.0)
    correct = np.trace(cm)
    rows = np.arange(n)
    tiny = np.nextafter(0.0, 1.0)                                      # Java's Double.MIN_VALUE
    post = np.maximum(P[rows, t], tiny)
    prior = np.maximum(pred.priors[pred.fold, t], tiny)
    with np.errstate(divide="ignore", invalid="ignore"):      # the branch np.where does not take may be inf/NaN
        info = np.where(post >= prior, libm.log2(post) - libm.log2(prior),
                        -(libm.log2(1.0 - post) - libm.log2(1.0 - prior)))
    target = np.zeros_like(P)
    target[rows, t] = 1.0
    sq = ((P - target) ** 2).sum(axis=1) / K
    ab = np.abs(P - target).sum(axis=1) / K
    m = max(int(classified.sum()), 1)
    total = cm.sum()
    pe = (cm.sum(0) * cm.sum(1)).sum() / total**2 if total else np.nan
    p0 = correct / total if total else np.nan
    tp = cm[pos, pos]
    actual, predicted = cm[pos].sum(), cm[:, pos].sum()
    negatives = total - actual
    precision = tp / predicted if predicted > 0 else 0.0
    recall = tp / actual if actual > 0 else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {
        "accuracy": 100.0 * correct / n,
        "rmse": float(np.sqrt(sq[classified].sum() / m)),
        "tpr": recall,
        "fpr": (predicted - tp) / negatives if negatives > 0 else 0.0,
        "precision": precision,
        "recall": recall,
        "f_measure": f,
        "auc": weka_roc_area(t == pos, P[:, pos]),
        "info_score": float(info[classified].sum()),
        "kappa": float((p0 - pe) / (1 - pe)) if pe < 1 else 0.0,
        "mae": float(ab[classified].sum() / m),
        "info_score_per_instance": float(info[classified].sum() / n),
        "confusion": cm.astype(int),
        "n": n,
        "unclassified": int(n - classified.sum()),
    }
