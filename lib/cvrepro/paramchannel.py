"""Scheffer & Herbrich (1997): how much tuning parameters on the test set can
inflate a result ("the parameter channel").

A learner whose parameters can encode the labels of c test instances makes
those c instances hits.  If its honest hypothesis h had X hits among them,
the gain is c - X.  All distributions here are of the *total* number of extra
hits and are returned as pandas Series indexed by that number.

* Sec. 2, one test set of size m with ``hits`` hits: X is hypergeometric
  (:func:`one_shot_probability`).
* Sec. 3, n-fold CV with parameters tuned per fold: the gain is the sum of
  the folds' gains, computed by dynamic programming over the folds
  (convolution, :func:`cv_gain_pmf`); success means an average of z extra
  hits per fold, i.e. a total of at least n z.
* Sec. 4, n-fold CV with one parameter setting for all folds (two classes):
  at each of the c positions the parameters can only give the majority label
  over the n folds, worth Y extra hits with eq. 14; the lost hits are the
  folds' hypergeometric X_i (:func:`fixed_parameter_probability`).

The cost: ``c * n_classes`` trials of a greedy parameter search and
``c * H`` bits of parameters, H the class entropy of the test set.

The channel on a real learner: :class:`ParameterChannel` gives any
classifier c extra parameters, the labels of the first c objects it
classifies, and :func:`greedy_channel_search` tunes them with the paper's
greedy search (Sec. 2.2).  :func:`random_orderings` and :func:`channel_gains`
give the extra hits over many orderings of a test set at once, the same
numbers the search finds on each ordering.
"""
import hashlib
import math
from dataclasses import dataclass

import joblib
import numpy as np
import pandas as pd
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone


def even_folds(n_instances, n_hits, n_folds):
    """Fold sizes and per-fold hits when ``n_instances`` and ``n_hits`` are spread
    as evenly as integers allow (the first folds get the remainders)."""
    if n_folds < 1 or not 0 <= n_hits <= n_instances:
        raise ValueError("need n_folds >= 1 and 0 <= n_hits <= n_instances")

    def spread(total):
        q, r = divmod(int(total), n_folds)
        return [q + 1] * r + [q] * (n_folds - r)
    return spread(n_instances), spread(n_hits)


def _folds(c, fold_sizes, fold_hits):
    sizes, hits = np.atleast_1d(fold_sizes), np.atleast_1d(fold_hits)
    if sizes.shape != hits.shape or sizes.ndim != 1 or sizes.size == 0:
        raise ValueError("fold_sizes and fold_hits must be equal-length, non-empty sequences")
    if int(c) != c or c < 0:
        raise ValueError(f"c must be a non-negative integer, got {c}")
    for m, h in zip(sizes, hits):
        if int(m) != m or int(h) != h or not 0 <= h <= m:
            raise ValueError(f"each fold needs integer 0 <= hits <= size, got hits={h}, size={m}")
        if c > m:
            raise ValueError(f"c = {c} exceeds a test fold of {m} instances")
    return int(c), sizes.astype(int), hits.astype(int)


def _lost_hits_pmf(c, fold_sizes, fold_hits):
    """P(sum_i X_i = k), k = 0..n c: hits h had on the c leaked instances of each fold."""
    pmf = np.array([1.0])
    for m, h in zip(fold_sizes, fold_hits):
        pmf = np.convolve(pmf, stats.hypergeom.pmf(np.arange(c + 1), m, h, c))
    return pmf


def _at_least(pmf, threshold):
    return float(pmf[pmf.index >= threshold - 1e-9].sum())


def cv_gain_pmf(c, fold_sizes, fold_hits):
    """Distribution of the total gain ``sum_i (c - X_i)`` with c leaked labels per
    fold (Sec. 3; one fold is Sec. 2's one-shot train/test)."""
    c, sizes, hits = _folds(c, fold_sizes, fold_hits)
    lost = _lost_hits_pmf(c, sizes, hits)
    total = c * sizes.size
    return pd.Series(lost[::-1], index=pd.RangeIndex(0, total + 1, name="extra_hits"))


def cv_probability(z, c, fold_sizes, fold_hits):
    """P(average gain per fold >= z), i.e. P(sum_i (c - X_i) >= n z) (Sec. 3)."""
    return _at_least(cv_gain_pmf(c, fold_sizes, fold_hits), z * np.size(fold_sizes))


def one_shot_probability(z, c, test_size, hits):
    """P(c - X >= z): at least z extra hits from c leaked labels on one test set
    of ``test_size`` instances where h has ``hits`` hits (Sec. 2)."""
    return cv_probability(z, c, [test_size], [hits])


def majority_extra_hits_pmf(n_folds, default_rate):
    """Eq. 14: P(Y = y) for the extra hits at one position over n folds when the
    label given is the majority one, y ~ max(B, n - B), B ~ Binomial(n, p)."""
    if not 0 <= default_rate <= 1:
        raise ValueError(f"default_rate must be a probability, got {default_rate}")
    y = np.arange(n_folds + 1)
    b, b_flip = stats.binom.pmf(y, n_folds, default_rate), stats.binom.pmf(y, n_folds, 1 - default_rate)
    pmf = np.where(2 * y > n_folds, b + b_flip, np.where(2 * y == n_folds, b, 0.0))
    return pd.Series(pmf, index=pd.Index(y, name="extra_hits"))


def fixed_parameter_gain_pmf(c, fold_sizes, fold_hits, default_rate):
    """Distribution of the total gain ``sum_j Y_j - sum_i X_i`` (Sec. 4, two
    classes): Y_j from eq. 14 for each of the c positions, X_i hypergeometric
    lost hits of fold i.  Like the paper, it treats the labels at a position
    as binomial with the default (majority) class rate ``default_rate``."""
    c, sizes, hits = _folds(c, fold_sizes, fold_hits)
    gained = np.array([1.0])
    y = majority_extra_hits_pmf(sizes.size, default_rate).to_numpy()
    for _ in range(c):
        gained = np.convolve(gained, y)
    lost = _lost_hits_pmf(c, sizes, hits)
    total = np.convolve(gained, lost[::-1])  # index i <-> gain i - n c
    n_c = c * sizes.size
    return pd.Series(total, index=pd.RangeIndex(-n_c, n_c + 1, name="extra_hits"))


def fixed_parameter_probability(z, c, fold_sizes, fold_hits, default_rate):
    """P(sum_j Y_j - sum_i X_i >= n z): an average of z extra hits per fold (Sec. 4)."""
    return _at_least(fixed_parameter_gain_pmf(c, fold_sizes, fold_hits, default_rate),
                     z * np.size(fold_sizes))


def class_entropy(class_counts):
    """H in bits of a class distribution (counts or proportions)."""
    counts = np.asarray(class_counts, dtype=float)
    if counts.ndim != 1 or counts.size == 0 or np.any(counts < 0) or counts.sum() <= 0:
        raise ValueError("class_counts must be non-negative with a positive total")
    return float(stats.entropy(counts, base=2))


def trials_needed(c, n_classes):
    """Learning trials of the greedy search that finds the c labels: c x |classes|."""
    return int(c) * int(n_classes)


def channel_bits(c, entropy):
    """Parameter-channel capacity needed to transmit c labels: c x H bits."""
    return float(c) * float(entropy)


def smallest_c(probability, target=0.9, c_max=1000):
    """Smallest c >= 1 with ``probability(c) >= target`` (None if none up to
    ``c_max``), e.g. ``smallest_c(lambda c: one_shot_probability(6, c, 2000, 1700))``."""
    if not 0 < target <= 1:
        raise ValueError(f"target must be in (0, 1], got {target}")
    for c in range(1, int(c_max) + 1):
        if probability(c) >= target:
            return c
    return None


def parameters_for_bits(bits, n_values):
    """Parameters with ``n_values`` values each that carry at least ``bits`` bits."""
    return math.ceil(bits / math.log2(n_values) - 1e-12)


# ---------------------------------------------------------------- the channel on a real learner ---

def _fingerprint(*objects) -> str:
    """A content hash of data (arrays, Series, DataFrames) and estimators: numeric columns by
    their bytes (fast), anything else by joblib's pickling hash."""
    h = hashlib.sha1(usedforsecurity=False)

    def add(obj):
        if isinstance(obj, pd.DataFrame):
            h.update(repr((list(obj.columns), [str(d) for d in obj.dtypes], obj.shape)).encode())
            if all(dtype.kind in "biuf" for dtype in obj.dtypes):
                add(obj.to_numpy())
            else:
                for name in obj.columns:
                    add(obj[name])
        elif isinstance(obj, pd.Series):
            if isinstance(obj.dtype, pd.CategoricalDtype):
                h.update(repr(list(obj.cat.categories)).encode())
                add(obj.cat.codes.to_numpy())
            else:
                add(obj.to_numpy())
        elif isinstance(obj, np.ndarray) and obj.dtype.kind in "biuf":
            h.update(repr((obj.dtype.str, obj.shape)).encode())
            h.update(np.ascontiguousarray(obj).tobytes())
        else:
            h.update(joblib.hash(obj).encode())

    for obj in objects:
        add(obj)
    return h.hexdigest()


class ParameterChannel(ClassifierMixin, BaseEstimator):
    """Any classifier plus c parameters: the labels it gives the first c objects it classifies.

    ``labels``: a sequence whose i-th entry is the class given to the i-th
    object of every ``predict`` call (None: the classifier's own prediction).
    This is the learner of Scheffer & Herbrich's Sec. 2.2: the parameters
    encode test labels, so tuning them on the test set buys hits.  The labels
    do not affect training, so a refit that changes only the labels reuses the
    fitted classifier (checked by a hash of the data and the classifier's
    parameters), which makes the c x |classes| trials of the search cheap.
    """

    def __init__(self, estimator=None, labels=()):
        self.estimator = estimator
        self.labels = labels

    def fit(self, X, y):
        if self.estimator is None:
            raise ValueError("ParameterChannel needs an estimator to wrap")
        key = _fingerprint(X, y, self.estimator)
        if getattr(self, "fit_key_", None) != key:
            self.estimator_ = clone(self.estimator).fit(X, y)
            self.classes_ = self.estimator_.classes_
            self.fit_key_ = key
            self.predict_key_ = None
        return self

    def own_predict(self, X):
        """The wrapped classifier's predictions (reused while ``X`` is the same)."""
        key = _fingerprint(X)
        if getattr(self, "predict_key_", None) != key:
            self.own_predictions_ = np.asarray(self.estimator_.predict(X))
            self.predict_key_ = key
        return self.own_predictions_

    def predict(self, X):
        if not hasattr(self, "estimator_"):
            raise ValueError("this ParameterChannel is not fitted yet; call fit first")
        out = self.own_predict(X).copy()
        known = set(self.classes_.tolist())
        for i, label in enumerate(list(self.labels)[:len(out)]):
            if label is None:
                continue
            if label not in known:
                raise ValueError(f"label {label!r} at position {i} is not a class of the training data "
                                 f"({sorted(known, key=str)})")
            out[i] = label
        return out


@dataclass(frozen=True)
class ChannelSearch:
    """Result of :func:`greedy_channel_search`: the labels found, every trial, hits before and after."""

    labels: tuple
    trials: pd.DataFrame        # trial, position, label, hits, accuracy
    hits_before: int
    hits_after: int
    test_size: int

    @property
    def extra_hits(self) -> int:
        return self.hits_after - self.hits_before

    @property
    def n_trials(self) -> int:
        return len(self.trials)


def greedy_channel_search(model, X_train, y_train, X_test, y_test, c: int) -> ChannelSearch:
    """Sec. 2.2: for objects 1..c, try every label, keep the one with the best test accuracy.

    ``model``: a :class:`ParameterChannel` (its ``labels`` are overwritten) or
    any classifier, which is wrapped.  Every trial sets the parameters, fits and
    predicts the whole test set in its given order: c x |classes| trials.
    Ties keep the first label in class order.
    """
    if not isinstance(model, ParameterChannel):
        model = ParameterChannel(model)
    y_test = np.asarray(y_test)
    if int(c) != c or not 0 <= c <= len(y_test):
        raise ValueError(f"c must be an integer in 0..{len(y_test)} (the test set's size), got {c}")
    c = int(c)

    def hits(labels):
        model.set_params(labels=tuple(labels))
        return int(np.sum(model.fit(X_train, y_train).predict(X_test) == y_test))

    before = hits(())
    labels, rows = [None] * c, []
    for i in range(c):
        best, best_hits = None, -1
        for label in model.classes_:
            labels[i] = label
            h = hits(labels)
            rows.append({"trial": len(rows) + 1, "position": i, "label": label, "hits": h,
                         "accuracy": h / len(y_test)})
            if h > best_hits:
                best, best_hits = label, h
        labels[i] = best
    after = hits(labels) if c else before
    trials = pd.DataFrame(rows, columns=["trial", "position", "label", "hits", "accuracy"])
    return ChannelSearch(tuple(labels), trials, before, after, len(y_test))


def random_orderings(test_size: int, n_orderings: int, random_state=None, length: int | None = None) -> np.ndarray:
    """``n_orderings`` uniformly random orderings of ``range(test_size)``, one per row; only the
    first ``length`` objects of each (all when None), which is all the extra hits depend on."""
    if test_size < 1 or n_orderings < 1:
        raise ValueError("test_size and n_orderings must be positive")
    length = test_size if length is None else int(length)
    if not 0 <= length <= test_size:
        raise ValueError(f"length must lie in 0..{test_size}, got {length}")
    rng = np.random.default_rng(random_state)
    chunk = max(1, 2_000_000 // test_size)
    parts = [rng.permuted(np.tile(np.arange(test_size), (min(chunk, n_orderings - i), 1)), axis=1)[:, :length]
             for i in range(0, n_orderings, chunk)]
    return np.concatenate(parts)


def channel_gains(correct, c_values, orderings) -> pd.DataFrame:
    """Extra hits from c leaked labels on each ordering of a test set: c minus the hits
    that h (``correct``: one bool per test object) had on the first c objects.

    ``orderings``: rows of test-object indices, each the start (at least max c
    long) of an ordering.  Returns ``ordering, c, extra_hits``; the greedy
    search finds exactly these (it labels the first c objects correctly,
    which is c - X more hits).
    """
    correct = np.asarray(correct, dtype=bool)
    orderings = np.atleast_2d(orderings)
    c_values = np.atleast_1d(np.asarray(c_values, dtype=int))
    if orderings.size and (orderings.min() < 0 or orderings.max() >= correct.size):
        raise ValueError(f"orderings must index the {correct.size} test objects")
    if np.any(c_values < 0) or np.any(c_values > orderings.shape[1]):
        raise ValueError(f"every c must lie in 0..{orderings.shape[1]} (the orderings' length)")
    head = np.concatenate([np.zeros((len(orderings), 1), dtype=int),
                           np.cumsum(correct[orderings], axis=1)], axis=1)
    extra = c_values[None, :] - head[:, c_values]
    return pd.DataFrame({"ordering": np.repeat(np.arange(len(orderings)), len(c_values)),
                         "c": np.tile(c_values, len(orderings)), "extra_hits": extra.ravel()})
