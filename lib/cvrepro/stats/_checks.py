"""Input checks shared by the tests: clear errors instead of silent wrong numbers."""
import math

import numpy as np
import pandas as pd


def as_scores(x, name, ndim=1, min_size=1):
    """``x`` as a float array of the given dimension, with no NaN or infinity."""
    arr = np.asarray(x, dtype=float)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{name} needs at least {min_size} values, got {arr.size}")
    bad = ~np.isfinite(arr)
    if bad.any():
        where = np.argwhere(bad)[:5].tolist()
        raise ValueError(f"{name} contains NaN or infinite values at positions {where}")
    return arr


def paired(a, b, min_size=2):
    """Two equal-length 1-d score samples (e.g. per fold or per data set)."""
    a = as_scores(a, "scores_a", min_size=min_size)
    b = as_scores(b, "scores_b", min_size=min_size)
    if a.shape != b.shape:
        raise ValueError(
            f"paired samples must have equal length, got {a.size} and {b.size}")
    return a, b


def differences(a, b, decimals):
    """``a - b``, rounded to ``decimals`` places (None: unrounded).

    Rounding removes floating-point noise (``0.7 - 0.6 != 0.8 - 0.7``) so that
    differences equal in decimal arithmetic tie or vanish as they do by hand.
    """
    d = a - b
    return d if decimals is None else np.round(d, decimals)


def require_spread(d, what="score differences"):
    """Refuse differences ``d`` that are constant up to floating-point noise.

    R's ``t.test`` rule: the standard error ``sd(d) / sqrt(n)`` below
    ``10 * eps * |mean(d)|`` (eps = 2.2e-16), or zero, means "data are
    essentially constant" (e.g. accuracies c/50 against (c-1)/50, whose
    differences are 1/50 up to rounding); any t statistic would be noise.
    """
    se = d.std(ddof=1) / np.sqrt(d.size)
    if se <= 0 or se < 10 * np.finfo(float).eps * abs(d.mean()):
        raise ValueError(
            f"the {what} have zero variance: they are essentially constant (identical, or equal up "
            f"to floating-point rounding: mean {d.mean():.6g}, standard error {se:.3g}); the t statistic "
            "is undefined, as in R's t.test. Compare the learners with a sign or Wilcoxon test, or "
            "report the constant difference")


def score_table(scores, min_datasets=2, min_learners=2):
    """Scores as a DataFrame: rows are data sets, columns are learners."""
    if isinstance(scores, pd.DataFrame):
        table = scores.astype(float)
    else:
        arr = np.asarray(scores, dtype=float)
        if arr.ndim != 2:
            raise ValueError(
                f"scores must be a 2-d table (data sets x learners), got shape {arr.shape}")
        table = pd.DataFrame(arr, columns=[f"learner_{j}" for j in range(arr.shape[1])])
    n, k = table.shape
    if n < min_datasets:
        raise ValueError(f"need at least {min_datasets} data sets (rows), got {n}")
    if k < min_learners:
        raise ValueError(f"need at least {min_learners} learners (columns), got {k}")
    bad = ~np.isfinite(table.to_numpy())
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"scores contain NaN or infinite values, first at data set "
            f"{table.index[i]!r}, learner {table.columns[j]!r}")
    if not table.columns.is_unique:
        raise ValueError("learner names (columns) must be unique")
    return table


def check_alpha(alpha):
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    return alpha


def check_alternative(alternative):
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(
            f"alternative must be 'two-sided', 'greater' or 'less', got {alternative!r}")
    return alternative


def round_noise(x, digits=12):
    """``x`` rounded to ``digits`` significant digits of its largest magnitude, so that values equal in
    decimal arithmetic (0.9 - 0.7 and 0.8 - 0.6) tie as they do by hand instead of differing by 1e-16."""
    x = np.asarray(x, dtype=float)
    top = np.max(np.abs(x)) if x.size else 0.0
    if top == 0:
        return x
    return np.round(x, int(digits - math.ceil(math.log10(top))))      # the C library's log10: every machine's
