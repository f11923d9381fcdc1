"""OneR (Holte 1993) as WEKA 3.6 implements it: ``OneR(min_bucket_size=6)`` is ``-B 6``.

For each attribute WEKA builds a one-attribute rule and keeps the first with
the most training instances right. A nominal attribute predicts, per value, its
majority class (lowest class index on ties; a value never seen predicts class
0). A numeric attribute is sorted, each distinct value is a bucket with its
class counts, and buckets are merged left to right while the previous one has
the same majority class or fewer than ``min_bucket_size`` instances of its
majority class; then neighbouring buckets with the same majority class are
merged again. Breakpoints are midpoints between neighbouring distinct values
(``x < breakpoint`` goes left). Missing values are their own value: they
predict their majority class (and count as right), or class 0 when training had
none. Probabilities are 0/1, as in WEKA. ``to_text()`` prints the rule as WEKA
does.
"""
from __future__ import annotations

import numbers

import numpy as np
from numba import njit

from .base import TabularClassifier
from .weka_format import java_double

__all__ = ["OneR"]


@njit(cache=True)
def _numeric_buckets(values, classes, n_classes, min_bucket):
    """Merged buckets of one numeric attribute (``values`` ascending, no NaN).

    Returns the upper breakpoints (the last is +inf's stand-in ``DBL_MAX``), each
    bucket's majority class and the number of training instances right.
    """
    n = values.shape[0]
    dists = np.zeros((n, n_classes), dtype=np.int64)
    bounds = np.empty(n)
    k = -1
    for i in range(n):
        if i == 0 or values[i] > values[i - 1]:
            if i > 0:
                bounds[k] = (values[i - 1] + values[i]) / 2.0
            k += 1
        dists[k, classes[i]] += 1
    bounds[k] = np.finfo(np.float64).max
    count = k + 1
    # first pass: merge into the next bucket while the classes agree or the previous bucket is too small
    out = 0
    for b in range(count):
        if out > 0:
            prev = dists[out - 1]
            top = np.argmax(prev)
            if np.argmax(dists[b]) == top or prev[top] < min_bucket:
                dists[b] += prev
                out -= 1
        dists[out] = dists[b]
        bounds[out] = bounds[b]
        out += 1
    # second pass: merge neighbours with the same majority class
    correct = 0
    count, out = out, 0
    for b in range(count):
        correct += dists[b, np.argmax(dists[b])]
        if out > 0 and np.argmax(dists[b]) == np.argmax(dists[out - 1]):
            dists[b] += dists[out - 1]
            out -= 1
        dists[out] = dists[b]
        bounds[out] = bounds[b]
        out += 1
    majority = np.empty(out, dtype=np.int64)
    for b in range(out):
        majority[b] = np.argmax(dists[b])
    return bounds[:out].copy(), majority, correct


class OneR(TabularClassifier):
    """WEKA 3.6's OneR: the best one-attribute rule, numeric attributes bucketed (``-B min_bucket_size``)."""

    def __init__(self, min_bucket_size=6):
        self.min_bucket_size = min_bucket_size

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True       # one attribute cannot separate scikit-learn's test blobs
        return tags

    def _fit(self, X, y):
        if not isinstance(self.min_bucket_size, numbers.Integral) or isinstance(self.min_bucket_size, bool):
            raise ValueError(f"min_bucket_size must be an integer, got {self.min_bucket_size!r}")
        K = len(self.classes_)
        best = None
        for j in range(X.shape[1]):
            rule = self._rule(X[:, j], y, K, j)
            if rule is not None and (best is None or rule["correct"] > best["correct"]):
                best = rule
        if best is None:
            raise ValueError("OneR found no attribute to work with (every attribute is missing in all training "
                             "instances), as WEKA reports")
        self.rule_ = best
        self.n_train_ = X.shape[0]

    def _rule(self, col, y, K, j):
        missing = np.isnan(col)
        missing_counts = np.bincount(y[missing], minlength=K)
        if self.schema_.nominal[j]:
            counts = np.zeros((self.schema_.n_values[j], K), dtype=np.int64)
            np.add.at(counts, (col[~missing].astype(np.int64), y[~missing]), 1)
            classes = counts.argmax(axis=1)
            rule = {"attr": j, "classes": classes, "breakpoints": None,
                    "correct": int(counts[np.arange(len(classes)), classes].sum())}
        else:
            if missing.all():
                return None                   # WEKA skips an attribute with only missing values
            order = np.argsort(col[~missing], kind="stable")
            values = np.ascontiguousarray(col[~missing][order])
            bounds, classes, correct = _numeric_buckets(values, y[~missing][order], K, int(self.min_bucket_size))
            rule = {"attr": j, "classes": classes, "breakpoints": bounds[:-1], "correct": int(correct)}
        top = int(np.argmax(missing_counts))
        rule["missing_class"] = top if missing_counts[top] > 0 else -1
        if missing_counts[top] > 0:
            rule["correct"] += int(missing_counts[top])
        return rule

    def _predict_codes(self, X):
        rule = self.rule_
        x = X[:, rule["attr"]]
        missing = np.isnan(x)
        if rule["breakpoints"] is None:
            bucket = np.where(missing, 0, x).astype(np.int64)
        else:
            bucket = np.searchsorted(rule["breakpoints"], np.where(missing, 0, x), side="right")
        out = rule["classes"][bucket]
        return np.where(missing, max(rule["missing_class"], 0), out)

    def _predict_proba(self, X):
        P = np.zeros((X.shape[0], len(self.classes_)))
        P[np.arange(X.shape[0]), self._predict_codes(X)] = 1.0
        return P

    def to_text(self) -> str:
        """The rule as WEKA's OneR prints it."""
        rule = self.rule_
        j = rule["attr"]
        default = [f"x{i}" for i in range(len(self.schema_.nominal))]
        names = [str(c) for c in getattr(self, "feature_names_in_", default)]
        lines = [f"{names[j]}:"]
        bps = rule["breakpoints"]
        for v, c in enumerate(rule["classes"]):
            if bps is None:
                cond = str(self.schema_.categories[j][v])
            elif v < len(bps):
                cond = "< " + java_double(float(bps[v]))
            elif v > 0:
                cond = ">= " + java_double(float(bps[v - 1]))
            else:
                cond = "not ?"
            lines.append(f"\t{cond}\t-> {self.classes_[c]}")
        if rule["missing_class"] != -1:
            lines.append(f"\t?\t-> {self.classes_[rule['missing_class']]}")
        lines.append(f"({rule['correct']}/{self.n_train_} instances correct)")
        return "\n".join(lines) + "\n"
