"""scikit-learn learners made to take the catalog's frames, as stand-ins for tools we do not port.

:class:`Wrapped` applies WEKA-style preprocessing (missing values replaced by
mean/mode, nominal attributes made binary, optionally [0, 1] normalisation)
and then fits any scikit-learn classifier on the resulting numeric matrix.
Probability columns follow ``classes_`` even when a class is absent from the
training fold (its column is 0).
"""
from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from .base import TabularClassifier
from .batched import EncodedFolds
from .preprocessing import numeric_filters_apply, numeric_filters_fit

__all__ = ["Wrapped"]


class Wrapped(EncodedFolds, TabularClassifier):
    """A scikit-learn ``estimator`` behind WEKA-style input filters.

    Parameters
    ----------
    estimator : scikit-learn classifier (cloned at fit); default LogisticRegression.
    normalize : bool, scale every (binarized) attribute to [0, 1] by training ranges.
    random_state : int or None, passed to the estimator if it has that parameter.
    """

    def __init__(self, estimator=None, normalize=False, random_state=None):
        self.estimator = estimator
        self.normalize = normalize
        self.random_state = random_state

    def _filters_fit(self, X):
        self.filters_, Z = numeric_filters_fit(X, self.schema_, scale=self.normalize)
        return Z

    def _filters_apply(self, X):
        return numeric_filters_apply(X, self.schema_, self.filters_)

    def _fit(self, X, y):
        present = np.unique(y)
        if len(present) == 1:                # nothing to learn: predict the only class seen
            self.estimator_ = None
            self.only_class_ = int(present[0])
            self._filters_fit(X)
            return
        est = clone(self.estimator if self.estimator is not None else LogisticRegression(max_iter=1000))
        if "random_state" in est.get_params():
            est.set_params(random_state=self.random_state)
        self.estimator_ = est.fit(self._filters_fit(X), y)

    def _predict_proba(self, X):
        out = np.zeros((X.shape[0], len(self.classes_)))
        if self.estimator_ is None:
            out[:, self.only_class_] = 1.0
            return out
        Z = self._filters_apply(X)
        cols = self.estimator_.classes_.astype(np.int64)
        if hasattr(self.estimator_, "predict_proba"):
            out[:, cols] = self.estimator_.predict_proba(Z)
        else:
            out[np.arange(len(Z)), self.estimator_.predict(Z).astype(np.int64)] = 1.0
        return out

    def _predict_codes(self, X):
        if self.estimator_ is None:
            return np.full(X.shape[0], self.only_class_)
        return self.estimator_.predict(self._filters_apply(X)).astype(np.int64)
