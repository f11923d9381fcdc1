"""Performance measures with the definitions of Japkowicz's tutorial (and WEKA).

Label-based measures take ``(y_true, y_pred)``; probability-based ones take
``(y_true, proba, classes)`` where column ``j`` of ``proba`` is the estimated
probability of ``classes[j]``. Binary measures (precision, recall/TPR, FPR,
F-measure) use ``pos_label`` (default: the second class, as in scikit-learn);
with more than two classes they are macro-averaged one-vs-rest.

Pinned-down choices:

* AUROC: Mann-Whitney statistic with average ranks for ties (equivalently
  the trapezoid under the ROC curve). Multiclass: one-vs-rest AUROC of each
  class present in ``y_true``, averaged unweighted (``average="macro"``) or
  by prevalence (``"weighted"``, Provost & Domingos, WEKA's weighted AUC).
  Fewer than two classes present gives NaN.
* Precision with nothing predicted positive is 0, and F with precision =
  recall = 0 is 0 (WEKA's convention; scikit-learn's ``zero_division=0``).
* RMSE: ``sqrt(mean_i (1/K) sum_c (p_ic - [y_i = c])^2)``: the tutorial's
  formula for two classes (``f(x)`` = probability of the positive class) and
  WEKA's for more.
* Information score (Kononenko & Bratko 1991), in bits, averaged over
  instances: ``log2 P'(y) - log2 P(y)`` when the posterior ``P'(y)`` of the
  true class is at least its prior ``P(y)``, else ``-(log2(1 - P'(y)) -
  log2(1 - P(y)))`` (negative: misleading). The tutorial's slide prints the
  second branch without its minus sign, so its worked example averages to
  0.40 where the definition (and WEKA) gives 0.27; the per-instance
  magnitudes agree. The prior defaults to the class frequencies of
  ``y_true`` (as in the tutorial's example); per fold (:func:`fold_metrics`,
  the engine) it is WEKA's: the training folds' class counts plus one,
  normalised, so a class absent from the training folds has a prior above 0
  and a finite score.
* Predicted label = the class of highest probability, ties to the first.
* KEEL's AUC (:func:`keel_auc`, ``keel_auc`` in :data:`METRICS`): the AUC
  that KEEL's experiments report, computed from crisp predicted labels (the
  balanced accuracy), as Moreno-Torres et al. report it; see its docstring.
  The engine reports it per fold (its fold-average is KEEL's number) and
  pooled; a fold without one of the two classes scores 0, as in KEEL.
"""
from __future__ import annotations

import numpy as np

from . import libm

__all__ = [
    "METRICS_VERSION",
    "accuracy", "error_rate", "kappa", "precision", "recall", "tpr", "fpr",
    "f_measure", "auroc", "rmse", "information_score", "confusion",
    "predict_labels", "evaluate", "fold_metrics", "keel_auc", "fold_keel_auc",
    "METRICS", "HIGHER_IS_BETTER",
]

# The definitions of the fold metrics, as a number stored with every results store: a store written
# under other definitions is refused rather than mixed with new numbers. 2: info_score's prior is WEKA's
# Laplace-corrected training-class prior (was: the plain training frequencies, +inf for a class absent there).
METRICS_VERSION = 2
METRICS = ("accuracy", "error_rate", "kappa", "auroc", "rmse", "precision",
           "recall", "fpr", "f_measure", "info_score", "keel_auc")
HIGHER_IS_BETTER = {m: m not in ("error_rate", "rmse", "fpr") for m in METRICS}


# --------------------------------------------------------------------------- #
# Label-based measures
# --------------------------------------------------------------------------- #
def confusion(y_true, y_pred, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Confusion matrix (rows: true, columns: predicted) and its label order."""
    y_true, y_pred = _pair(y_true, y_pred)
    if labels is None:
        labels = np.unique(np.concatenate([y_true, y_pred]))
    labels = np.asarray(labels)
    t = _index(y_true, labels, "y_true")
    p = _index(y_pred, labels, "y_pred")
    m = len(labels)
    return np.bincount(t * m + p, minlength=m * m).reshape(m, m), labels


def accuracy(y_true, y_pred) -> float:
    """(TP + TN) / (P + N): the fraction of correct labels."""
    y_true, y_pred = _pair(y_true, y_pred)
    return float(np.mean(y_true == y_pred))


def error_rate(y_true, y_pred) -> float:
    """1 - accuracy."""
    return 1.0 - accuracy(y_true, y_pred)


def kappa(y_true, y_pred) -> float:
    """Cohen's kappa: (P0 - Pe) / (1 - Pe), Pe from the row and column margins."""
    cm, _ = confusion(y_true, y_pred)
    return float(_cm_metrics(cm[None], None)["kappa"][0])


def precision(y_true, y_pred, pos_label=None, labels=None) -> float:
    """TP / (TP + FP) of ``pos_label`` (macro one-vs-rest with > 2 classes)."""
    return _binary(y_true, y_pred, pos_label, labels)[0]


def recall(y_true, y_pred, pos_label=None, labels=None) -> float:
    """Recall = TP rate = TP / P."""
    return _binary(y_true, y_pred, pos_label, labels)[1]


tpr = recall


def fpr(y_true, y_pred, pos_label=None, labels=None) -> float:
    """FP rate = FP / N."""
    return _binary(y_true, y_pred, pos_label, labels)[2]


def f_measure(y_true, y_pred, pos_label=None, labels=None) -> float:
    """F1 = 2 precision recall / (precision + recall)."""
    return _binary(y_true, y_pred, pos_label, labels)[3]


# --------------------------------------------------------------------------- #
# Probability-based measures
# --------------------------------------------------------------------------- #
def auroc(y_true, proba, classes, average: str = "macro") -> float:
    """Area under the ROC curve; one-vs-rest averaged for more than two classes."""
    t, P = _probabilistic(y_true, proba, classes)
    return _auroc(t, P, average)


def rmse(y_true, proba, classes) -> float:
    """Root mean squared error of the class-probability estimates."""
    t, P = _probabilistic(y_true, proba, classes)
    return _rmse(t, P)


def information_score(y_true, proba, classes, prior=None, per_instance: bool = False):
    """Kononenko-Bratko information score in bits (mean, or per instance).

    ``prior``: class probabilities aligned with ``classes``; default the
    class frequencies of ``y_true``.
    """
    t, P = _probabilistic(y_true, proba, classes)
    prior = _prior(t, P.shape[1], prior)
    scores = _info(t, P, prior)
    return scores if per_instance else float(scores.mean())


def predict_labels(proba, classes) -> np.ndarray:
    """The class of highest probability per row (ties to the first class)."""
    P = np.asarray(proba, dtype=float)
    return np.asarray(classes)[np.argmax(P, axis=1)]


def evaluate(y_true, proba, classes, prior=None, pos_label=None) -> dict[str, float]:
    """Every measure in :data:`METRICS` for one test set, from one pass.

    This is what the engine calls per fold and on the pooled out-of-fold
    predictions; the results equal those of the individual functions.
    """
    t, P = _probabilistic(y_true, proba, classes)
    K = P.shape[1]
    pred = np.argmax(P, axis=1)
    cm = np.bincount(t * K + pred, minlength=K * K).reshape(1, K, K)
    out = {m: float(v[0]) for m, v in _cm_metrics(cm, _pos_index(classes, pos_label)).items()}
    out.update(auroc=_auroc(t, P, "macro"), rmse=_rmse(t, P),
               info_score=float(_info(t, P, _prior(t, K, prior)).mean()),
               keel_auc=float(fold_keel_auc(t, pred, np.zeros(len(t), dtype=np.int64), 1, K)[0]))
    return {m: out[m] for m in METRICS}


def fold_metrics(y_codes, proba, folds, n_folds: int, priors=None) -> dict[str, np.ndarray]:
    """Every measure of :data:`METRICS` for every fold at once (vectorized).

    ``y_codes``: class index (0..K-1) per instance; ``proba``: n x K
    out-of-fold probabilities; ``folds``: test fold of each instance;
    ``priors``: n_folds x K prior per fold (default: WEKA's Laplace-corrected
    training-set class frequencies ``(count + 1) / (n_train + K)``, as the
    engine uses; a class the training folds lack gets ``1 / (n_train + K)``,
    not 0). Rows whose probabilities are NaN
    (a failed fold) make that fold's measures NaN. Equal to calling
    :func:`evaluate` per fold (tested), at a fraction of the cost.
    """
    t = np.asarray(y_codes, dtype=np.int64)
    P = np.asarray(proba, dtype=float)
    f = np.asarray(folds, dtype=np.int64)
    n, K = P.shape
    bad = np.bincount(f, weights=np.isnan(P).any(axis=1), minlength=n_folds) > 0
    if priors is None:
        per_fold = np.bincount(f * K + t, minlength=n_folds * K).reshape(n_folds, K)
        train = per_fold.sum(0) - per_fold
        priors = (train + 1) / (train.sum(1, keepdims=True) + K)   # WEKA's Evaluation.setPriors
    ok = ~bad[f]
    t, P, f = t[ok], P[ok], f[ok]
    counts = np.bincount(f * K + t, minlength=n_folds * K).reshape(n_folds, K)
    n_test = np.maximum(counts.sum(1), 1)
    pred = np.argmax(P, axis=1)
    cms = np.bincount((f * K + t) * K + pred, minlength=n_folds * K * K).reshape(n_folds, K, K)
    out = _cm_metrics(cms, 1 if K == 2 else None)
    target = np.zeros_like(P)
    target[np.arange(len(t)), t] = 1.0
    sq = ((P - target) ** 2).mean(axis=1)
    out["rmse"] = np.sqrt(np.bincount(f, weights=sq, minlength=n_folds) / n_test)
    info = _info_rows(t, P, np.asarray(priors, dtype=float)[f])
    out["info_score"] = np.bincount(f, weights=info, minlength=n_folds) / n_test
    out["auroc"] = _fold_auroc(t, P, f, n_folds, counts)
    out["keel_auc"] = fold_keel_auc(t, pred, f, n_folds, K)
    empty = bad | (counts.sum(1) == 0)
    return {m: np.where(empty, np.nan, out[m]) for m in METRICS}


def _fold_auroc(t, P, f, n_folds, counts) -> np.ndarray:
    """Per-fold AUROC (one-vs-rest macro for K > 2) from one sort per class."""
    K = P.shape[1]
    per_class = []
    for c in ([1] if K == 2 else range(K)):
        s = P[:, c]
        order = np.lexsort((s, f))
        fs, ss = f[order], s[order]
        new = np.empty(len(s), dtype=bool)
        new[:1] = True
        new[1:] = (fs[1:] != fs[:-1]) | (ss[1:] != ss[:-1])
        starts = np.flatnonzero(new)
        sizes = np.diff(np.append(starts, len(s)))
        fold_start = np.searchsorted(fs, fs[starts])           # first position of the fold
        avg = (starts - fold_start) + (sizes + 1) / 2
        ranks = np.empty(len(s))
        ranks[order] = np.repeat(avg, sizes)
        is_c = t == c
        n1 = counts[:, c].astype(float)
        n0 = counts.sum(1) - n1
        r1 = np.bincount(f[is_c], weights=ranks[is_c], minlength=n_folds)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_class.append(np.where((n1 > 0) & (n0 > 0), (r1 - n1 * (n1 + 1) / 2) / (n1 * n0), np.nan))
    if K == 2:
        return per_class[0]
    A = np.array(per_class)                                     # K x n_folds
    present = counts.T > 0
    with np.errstate(invalid="ignore"):
        mean = np.nansum(np.where(present, A, 0.0), axis=0) / present.sum(0)
    return np.where(present.sum(0) >= 2, mean, np.nan)


# --------------------------------------------------------------------------- #
# KEEL's AUC from crisp predictions
# --------------------------------------------------------------------------- #
def keel_auc(y_true, y_pred, labels=None) -> float:
    """The AUC of KEEL's experiments (imbalanced-classification statistics modules), from labels.

    KEEL reads each test fold's ``expected predicted`` pairs, builds the
    two-class confusion matrix, and reports per fold

        AUC = (1 + TPR - FPR) / 2,  TPR = TP / (TP + FN),  FPR = FP / (FP + TN),

    the area under the ROC "curve" of a single crisp classifier (the points
    (0, 0), (FPR, TPR), (1, 1)), i.e. the balanced accuracy (TPR + TNR) / 2.
    It is symmetric in the two classes up to rounding (KEEL's positive class,
    kept here, is class 0 unless the first fold holds more instances of class
    0 than of class 1). Conventions kept from KEEL:

    * a fold without instances of one of the two classes scores 0 (not NaN);
    * instances KEEL marks unclassified (``None`` or NaN in ``y_pred``) are left
      out of the confusion matrix;
    * a classifier that predicts one class for everything scores exactly 0.5
      (Moreno-Torres et al.'s LDA on crx and mushroom, whose covariance matrix
      KEEL cannot invert, see :mod:`cvrepro.learners.keel_lda`).

    KEEL reports the mean of this per-fold value over the folds of a
    cross-validation (:func:`fold_keel_auc` computes all folds at once).

    KEEL defines it for two classes only (pairs involving a third class are
    skipped with an error message). For more classes this function returns
    the unweighted mean of the one-vs-rest values over the classes present in
    ``y_true`` (our extension, not KEEL's). ``labels``: the classes (default:
    those of ``y_true`` and ``y_pred``; pass both classes when a fold may hold
    only one).

    >>> keel_auc(["a", "a", "b", "b"], ["a", "b", "b", "b"])   # TPR 1/2, FPR 0
    0.75
    """
    t, p = _crisp_pair(y_true, y_pred)
    keep = np.array([v is not None and v == v for v in p], dtype=bool) if p.dtype.kind in "Of" else \
        np.ones(len(p), dtype=bool)
    if labels is None:
        labels = np.unique(np.concatenate([t, p[keep]]))
    labels = np.asarray(labels)
    ti = _index(t, labels, "y_true")
    pi = np.full(len(p), -1)
    pi[keep] = _index(p[keep], labels, "y_pred")
    return float(fold_keel_auc(ti, pi, np.zeros(len(t), dtype=np.int64), 1, len(labels))[0])


def fold_keel_auc(y_codes, pred_codes, folds, n_folds: int, n_classes: int | None = None) -> np.ndarray:
    """:func:`keel_auc` of every fold at once, from class indices (``pred_codes`` -1: unclassified).

    ``folds``: test fold of each instance. Returns one value per fold (NaN for
    a fold with no instance); KEEL's reported AUC is their mean.
    """
    t = np.asarray(y_codes, dtype=np.int64)
    p = np.asarray(pred_codes, dtype=np.int64)
    f = np.asarray(folds, dtype=np.int64)
    if not (len(t) == len(p) == len(f)):
        raise ValueError(f"y_codes, pred_codes and folds differ in length: {len(t)}, {len(p)}, {len(f)}")
    K = int(max(t.max(initial=-1), p.max(initial=-1)) + 1) if n_classes is None else int(n_classes)
    if K < 2:
        raise ValueError("KEEL's AUC needs two classes; pass n_classes (or labels) when a fold holds one")
    if (t < 0).any() or (t >= K).any() or (p >= K).any() or (p < -1).any():
        raise ValueError(f"class indices must lie in 0..{K - 1} (predictions: -1 for unclassified)")
    ok = p >= 0
    cms = np.bincount((f[ok] * K + t[ok]) * K + p[ok], minlength=n_folds * K * K).reshape(n_folds, K, K)
    cms = cms.astype(float)
    actual = cms.sum(axis=2)
    total = actual.sum(axis=1)
    diag = np.diagonal(cms, axis1=1, axis2=2)
    predicted = cms.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = diag / actual
        fpr = (predicted - diag) / (total[:, None] - actual)
        per_class = np.where((actual > 0) & (total[:, None] - actual > 0), (1.0 + tpr - fpr) / 2.0, 0.0)
    if K == 2:
        # symmetric up to rounding; KEEL takes class 0 as positive unless the first fold has
        # more (classified) instances of class 0 than of class 1
        first = int(f.min()) if len(f) else 0
        out = per_class[:, 1 if actual[first, 0] > actual[first, 1] else 0]
    else:
        present = actual > 0
        with np.errstate(invalid="ignore"):
            out = np.where(present.sum(1) >= 2, np.where(present, per_class, 0.0).sum(1) / present.sum(1), 0.0)
    seen = np.bincount(f, minlength=n_folds) > 0
    return np.where(seen, out, np.nan)


def _crisp_pair(y_true, y_pred):
    t = _labels(y_true, "y_true")
    p = np.asarray(y_pred)
    if p.ndim != 1:
        raise ValueError(f"y_pred must be one-dimensional, got shape {p.shape}")
    if len(t) != len(p):
        raise ValueError(f"y_true has {len(t)} labels but y_pred has {len(p)}")
    if len(t) == 0:
        raise ValueError("no labels to score")
    return t, p


# --------------------------------------------------------------------------- #
# Internals (integer-coded classes 0..K-1)
# --------------------------------------------------------------------------- #
def _cm_metrics(cms: np.ndarray, pos: int | None) -> dict[str, np.ndarray]:
    """Confusion-matrix measures of a stack of matrices (m x K x K, rows true).

    Binary measures of class ``pos``, or macro one-vs-rest over the classes
    present (row sum > 0) when ``pos`` is None.
    """
    cms = np.asarray(cms, dtype=float)
    n = cms.sum(axis=(1, 2))
    diag = np.diagonal(cms, axis1=1, axis2=2)
    predicted, actual = cms.sum(axis=1), cms.sum(axis=2)
    nan = np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = diag.sum(1) / n
        pe = (predicted * actual).sum(1) / n**2
        kappa_ = np.where(pe < 1.0, (acc - pe) / (1.0 - pe), nan)  # pe = 1: one label only
        prec = np.where(predicted > 0, diag / predicted, 0.0)
        rec = np.where(actual > 0, diag / actual, nan)
        negatives = n[:, None] - actual
        fpr_ = np.where(negatives > 0, (predicted - diag) / negatives, nan)
        f = np.where(prec + rec > 0, 2 * prec * rec / (prec + rec), np.where(actual > 0, 0.0, nan))
    if pos is not None:
        per = [v[:, pos] for v in (prec, rec, fpr_, f)]
    else:
        present = actual > 0
        with np.errstate(invalid="ignore"):
            per = [np.where(present, v, 0.0).sum(1) / present.sum(1) for v in (prec, rec, fpr_, f)]
    return {"accuracy": acc, "error_rate": 1.0 - acc, "kappa": kappa_, "precision": per[0],
            "recall": per[1], "fpr": per[2], "f_measure": per[3]}


def _binary(y_true, y_pred, pos_label, labels):
    cm, labels = confusion(y_true, y_pred, labels)
    if len(labels) < 2:
        raise ValueError(f"need at least two labels for a binary measure, got {labels.tolist()}")
    m = _cm_metrics(cm[None], _pos_index(labels, pos_label))
    return tuple(float(m[k][0]) for k in ("precision", "recall", "fpr", "f_measure"))


def _pos_index(classes, pos_label):
    classes = np.asarray(classes)
    if pos_label is None:
        return 1 if len(classes) == 2 else None
    hits = np.flatnonzero(classes == pos_label)
    if not len(hits):
        raise ValueError(f"pos_label {pos_label!r} is not one of the classes {classes.tolist()}")
    return int(hits[0])


def _binary_auc(is_pos: np.ndarray, score: np.ndarray) -> float:
    n_pos = int(is_pos.sum())
    n_neg = len(is_pos) - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = _average_ranks(score)
    return float((ranks[is_pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _average_ranks(x: np.ndarray) -> np.ndarray:
    """1-based ranks with ties averaged (scipy.stats.rankdata, without its per-call overhead)."""
    order = np.argsort(x, kind="mergesort")
    xs = x[order]
    new = np.empty(len(x), dtype=bool)
    new[0] = True
    np.not_equal(xs[1:], xs[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, len(x)))
    ranks = np.empty(len(x))
    ranks[order] = np.repeat(starts + (counts + 1) / 2, counts)
    return ranks


def _auroc(t: np.ndarray, P: np.ndarray, average: str) -> float:
    K = P.shape[1]
    if K == 2:
        return _binary_auc(t == 1, P[:, 1])
    if average not in ("macro", "weighted"):
        raise ValueError(f"average must be 'macro' or 'weighted', got {average!r}")
    counts = np.bincount(t, minlength=K)
    present = np.flatnonzero(counts)
    if len(present) < 2:
        return float("nan")
    aucs = np.array([_binary_auc(t == c, P[:, c]) for c in present])
    w = counts[present] if average == "weighted" else np.ones(len(present))
    return float(aucs @ w / w.sum())


def _rmse(t: np.ndarray, P: np.ndarray) -> float:
    target = np.zeros_like(P)
    target[np.arange(len(t)), t] = 1.0
    return float(np.sqrt(np.mean((P - target) ** 2)))


def _prior(t: np.ndarray, K: int, prior) -> np.ndarray:
    if prior is None:
        return np.bincount(t, minlength=K) / len(t)
    prior = np.asarray(prior, dtype=float)
    if prior.shape != (K,) or (prior < 0).any() or abs(prior.sum() - 1.0) > 1e-9:
        raise ValueError(f"prior must be {K} probabilities summing to 1, got {prior.tolist()}")
    return prior


def _info(t: np.ndarray, P: np.ndarray, prior: np.ndarray) -> np.ndarray:
    return _info_rows(t, P, np.broadcast_to(prior, P.shape))


def _info_rows(t: np.ndarray, P: np.ndarray, priors: np.ndarray) -> np.ndarray:
    """Information score per instance, with a prior row per instance."""
    rows = np.arange(len(t))
    post = P[rows, t]
    pri = priors[rows, t]
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = libm.log2(post) - libm.log2(pri)
        loss = -(libm.log2(1.0 - post) - libm.log2(1.0 - pri))
    return np.where(post >= pri, gain, loss)


def _pair(y_true, y_pred):
    y_true = _labels(y_true, "y_true")
    y_pred = _labels(y_pred, "y_pred")
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} labels but y_pred has {len(y_pred)}")
    if len(y_true) == 0:
        raise ValueError("no labels to score")
    return y_true, y_pred


def _labels(y, what):
    a = np.asarray(y)
    if a.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional, got shape {a.shape}")
    if a.dtype.kind == "f" and np.isnan(a).any():
        raise ValueError(f"{what} contains NaN")
    if a.dtype.kind == "O" and any(v is None or v != v for v in a):
        raise ValueError(f"{what} contains missing values")
    return a


def _index(values, labels, what):
    order = np.argsort(labels, kind="stable")
    pos = np.searchsorted(labels, values, sorter=order)
    pos = np.clip(pos, 0, len(labels) - 1)
    idx = order[pos]
    bad = labels[idx] != values
    if np.any(bad):
        raise ValueError(f"{what} has labels not in {labels.tolist()}: {np.unique(values[bad]).tolist()[:5]}")
    return idx


def _probabilistic(y_true, proba, classes):
    classes = np.asarray(classes)
    y_true = _labels(y_true, "y_true")
    P = np.asarray(proba, dtype=float)
    if P.ndim != 2 or P.shape != (len(y_true), len(classes)):
        raise ValueError(f"proba must have shape (n_samples, n_classes) = "
                         f"({len(y_true)}, {len(classes)}), got {P.shape}")
    if len(classes) < 2:
        raise ValueError("need at least two classes")
    if len(y_true) == 0:
        raise ValueError("no labels to score")
    if not np.isfinite(P).all():
        raise ValueError("proba contains NaN or infinite values")
    return _index(y_true, classes, "y_true"), P
