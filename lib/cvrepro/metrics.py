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
  ``y_true`` (as in the tutorial's example); the engine passes the training
  fold's frequencies. WEKA instead uses Laplace-corrected training counts.
* Predicted label = the class of highest probability, ties to the first.
"""
from __future__ import annotations

import numpy as np

__all__ = [
    "accuracy", "error_rate", "kappa", "precision", "recall", "tpr", "fpr",
    "f_measure", "auroc", "rmse", "information_score", "confusion",
    "predict_labels", "evaluate", "METRICS", "HIGHER_IS_BETTER",
]

METRICS = ("accuracy", "error_rate", "kappa", "auroc", "rmse", "precision",
           "recall", "fpr", "f_measure", "info_score")
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
    return _kappa(cm)


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
    cm = np.bincount(t * K + pred, minlength=K * K).reshape(K, K)
    pos = _pos_index(classes, pos_label)
    prec, rec, fp, f = _binary_from_cm(cm, pos)
    acc = np.trace(cm) / cm.sum()
    return {
        "accuracy": float(acc),
        "error_rate": float(1.0 - acc),
        "kappa": _kappa(cm),
        "auroc": _auroc(t, P, "macro"),
        "rmse": _rmse(t, P),
        "precision": prec,
        "recall": rec,
        "fpr": fp,
        "f_measure": f,
        "info_score": float(_info(t, P, _prior(t, K, prior)).mean()),
    }


# --------------------------------------------------------------------------- #
# Internals (integer-coded classes 0..K-1)
# --------------------------------------------------------------------------- #
def _kappa(cm: np.ndarray) -> float:
    n = int(cm.sum())
    p0 = int(np.trace(cm)) / n
    pe = int(cm.sum(0) @ cm.sum(1)) / n**2
    if pe == 1.0:
        return float("nan")  # a single label on both sides: kappa undefined
    return float((p0 - pe) / (1.0 - pe))


def _binary_from_cm(cm: np.ndarray, pos: int | None):
    """(precision, recall, fpr, F) of class ``pos``, or macro one-vs-rest if None."""
    if pos is None:
        present = np.flatnonzero(cm.sum(1))
        per = np.array([_one_vs_rest(cm, c) for c in present])
        return tuple(float(v) for v in per.mean(0))
    return _one_vs_rest(cm, pos)


def _one_vs_rest(cm: np.ndarray, c: int):
    n = int(cm.sum())
    tp = int(cm[c, c])
    predicted = int(cm[:, c].sum())
    actual = int(cm[c].sum())
    prec = tp / predicted if predicted else 0.0
    rec = tp / actual if actual else float("nan")
    fpr_ = (predicted - tp) / (n - actual) if n > actual else float("nan")
    f = 2 * prec * rec / (prec + rec) if prec + rec > 0 else (0.0 if actual else float("nan"))
    return prec, rec, fpr_, f


def _binary(y_true, y_pred, pos_label, labels):
    cm, labels = confusion(y_true, y_pred, labels)
    if len(labels) < 2:
        raise ValueError(f"need at least two labels for a binary measure, got {labels.tolist()}")
    return _binary_from_cm(cm, _pos_index(labels, pos_label))


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
    post = P[np.arange(len(t)), t]
    pri = prior[t]
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.log2(post) - np.log2(pri)
        loss = -(np.log2(1.0 - post) - np.log2(1.0 - pri))
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
