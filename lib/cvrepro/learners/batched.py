"""Batched cross-validation: fit and predict many folds of one data set in one call.

A learner offering ``fit_predict_folds(X, y, splits, random_states, classes)``
lets the engine hand it a whole data set and every ``(train, test)`` split of
several iterations at once. It returns, per split, the out-of-fold
probabilities with columns in the order of ``classes``: the same numbers as
``clone(learner).set_params(random_state=rs).fit(X[train], y[train])
.predict_proba(X[test])`` with columns placed by ``classes_`` (a class absent
from the training fold gets probability 0).

:class:`FoldBatch` does what every batched learner needs: the data set is
encoded once (instead of once per fit and once per prediction), and each
split's class labels and codes are derived as the per-fold ``fit`` would
derive them. :func:`encoded_folds` (:meth:`FoldBatch.fit_each`) is the simplest batched path: per split it
runs the learner's own ``_fit`` / ``_predict_proba`` on slices of the encoded
matrix, skipping the per-call input validation and encoding (same arithmetic,
so the same numbers). Learners with a real batched algorithm (IBk, the MLP)
use :class:`FoldBatch` directly.

Memory: batched algorithms size their chunks by :data:`MEMORY_BUDGET` bytes.
"""
from __future__ import annotations

import copy

import numpy as np
import pandas as pd
from sklearn.base import clone

from .preprocessing import Schema, encode_target, values_learned_per_fit

__all__ = ["FoldBatch", "EncodedFolds", "encoded_folds", "MEMORY_BUDGET"]

MEMORY_BUDGET = 256 * 2 ** 20       # bytes of working arrays a batched call may hold at once


class FoldBatch:
    """One data set encoded once, plus what a per-fold ``fit`` would derive per split.

    ``exact`` is False when per-fold encoding could differ from whole-data
    encoding (a DataFrame with text columns: their values are learned per
    training fold); batched learners then fall back to fitting fold by fold.
    """

    def __init__(self, X, y, classes):
        self.X, self.y = X, y
        self.classes = np.asarray(classes)
        self.exact = not values_learned_per_fit(X)
        if self.exact:
            self.schema, self.Xe = Schema.learn(X)
        self.all_classes, self.codes = encode_target(y)
        # a categorical y keeps its declared classes in every fold; otherwise a fold has the labels it sees
        self.declared = isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype)
        self.columns = {}
        self.templates = {}

    def target(self, train) -> tuple[np.ndarray, np.ndarray]:
        """``(classes_, codes)`` that ``fit`` derives from ``y[train]``."""
        codes = self.codes[train]
        if self.declared:
            return self.all_classes, codes
        present = np.unique(codes)
        return self.all_classes[present], np.searchsorted(present, codes)

    def place(self, proba: np.ndarray, fold_classes: np.ndarray) -> np.ndarray:
        """Columns of ``proba`` (``fold_classes``) moved to the order of ``self.classes``."""
        key = tuple(fold_classes.tolist())
        cols = self.columns.get(key)
        if cols is None:
            cols = np.array([np.flatnonzero(self.classes == c)[0] for c in fold_classes], dtype=np.int64)
            self.columns[key] = cols
        if len(cols) == len(self.classes) and (cols == np.arange(len(cols))).all():
            return proba
        out = np.zeros((proba.shape[0], len(self.classes)))
        out[:, cols] = proba
        return out

    def model(self, est, random_state, fold_classes):
        """A fresh copy of ``est`` seeded as the per-fold path seeds it, set up as ``fit`` sets it up."""
        m = self.fresh(est, random_state)
        m.schema_, m.classes_ = self.schema, fold_classes
        m.n_features_in_ = self.Xe.shape[1]
        if isinstance(self.X, pd.DataFrame):
            m.feature_names_in_ = np.asarray(self.X.columns, dtype=object)
        return m

    def fresh(self, est, random_state):
        """A fresh copy of ``est`` with ``random_state`` set, if it has one (as the per-fold path seeds it):
        ``clone`` once per batch, then a shallow copy per split (an unfitted estimator holds only its
        parameters, which fitting does not change)."""
        if id(est) not in self.templates:
            template = clone(est)
            self.templates[id(est)] = (template, "random_state" in template.get_params(deep=False))
        template, seeded = self.templates[id(est)]
        m = copy.copy(template)
        if seeded:
            m.random_state = random_state          # what set_params does for a plain parameter
        return m

    def fit_each(self, est, splits, random_states, before_fit=None) -> list[np.ndarray]:
        """Per split, ``est``'s own ``_fit`` / ``_predict_proba`` on this batch's encoded data.

        ``before_fit(batch, model, train)``, if given, runs before each ``_fit``
        (to hand the model something computed once per data set).
        """
        if not self.exact:
            return self.per_fold(est, splits, random_states)
        out = []
        for (train, test), rs in zip(splits, random_states):
            train, test = np.asarray(train), np.asarray(test)
            fold_classes, codes = self.target(train)
            m = self.model(est, rs, fold_classes)
            if before_fit is not None:
                before_fit(self, m, train)
            m._fit(self.Xe[train], codes)
            out.append(self.place(np.asarray(m._predict_proba(self.Xe[test]), dtype=float), fold_classes))
        return out

    def per_fold(self, est, splits, random_states) -> list[np.ndarray]:
        """The plain per-fold path (fallback): fit a fresh copy on each split."""
        out = []
        take = (lambda idx: self.X.iloc[idx]) if isinstance(self.X, pd.DataFrame) else (lambda idx: self.X[idx])
        for (train, test), rs in zip(splits, random_states):
            m = self.fresh(est, rs)
            m.fit(take(train), self.y.iloc[train] if isinstance(self.y, pd.Series) else np.asarray(self.y)[train])
            out.append(self.place(np.asarray(m.predict_proba(take(test)), dtype=float), np.asarray(m.classes_)))
        return out


def encoded_folds(est, X, y, splits, random_states, classes, before_fit=None) -> list[np.ndarray]:
    """Per split, ``est``'s own ``_fit`` / ``_predict_proba`` on the once-encoded data
    (:meth:`FoldBatch.fit_each` on a fresh batch)."""
    return FoldBatch(X, y, classes).fit_each(est, splits, random_states, before_fit)


class EncodedFolds:
    """Mixin: ``fit_predict_folds`` by :func:`encoded_folds` (the data set encoded once per call)."""

    def fit_predict_folds(self, X, y, splits, random_states, classes) -> list[np.ndarray]:
        """Out-of-fold probabilities of every split, as fitting each split alone gives them."""
        return encoded_folds(self, X, y, splits, random_states, classes)
