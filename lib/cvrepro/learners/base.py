"""Common scikit-learn plumbing of our learners: input checks and encoding."""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .preprocessing import Schema, encode_target

__all__ = ["TabularClassifier"]


class TabularClassifier(ClassifierMixin, BaseEstimator):
    """Base of learners that take the catalog's frames (categoricals, NaN) or numeric arrays.

    Subclasses implement ``_fit(X, y)`` on the encoded float matrix (nominal
    attributes as codes, see ``self.schema_``) and integer class codes, and
    ``_predict_proba(X)``. ``predict`` is the argmax of ``predict_proba`` with
    ties to the lowest class index (WEKA's ``Utils.maxIndex``) unless a
    subclass overrides ``_predict_codes``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags

    def fit(self, X, y):
        schema, Xe = Schema.learn(X)
        validate_data(self, X if hasattr(X, "columns") else Xe, skip_check_array=True, reset=True)
        classes, codes = encode_target(y)
        if len(codes) != Xe.shape[0]:
            raise ValueError(f"X has {Xe.shape[0]} rows but y has {len(codes)} labels")
        self.schema_ = schema
        self.classes_ = classes
        self._fit(Xe, codes)
        return self

    def _encode(self, X) -> np.ndarray:
        check_is_fitted(self, "schema_")
        if hasattr(X, "columns"):
            validate_data(self, X, skip_check_array=True, reset=False)
            Xe = self.schema_.encode(X)
        else:
            Xe = self.schema_.encode(X)
            validate_data(self, Xe, skip_check_array=True, reset=False)
        if Xe.shape[1] != len(self.schema_.nominal):
            raise ValueError(
                f"X has {Xe.shape[1]} features, but {type(self).__name__} is expecting "
                f"{len(self.schema_.nominal)} features as input")
        return Xe

    def predict_proba(self, X) -> np.ndarray:
        return self._predict_proba(self._encode(X))

    def predict(self, X) -> np.ndarray:
        codes = self._predict_codes(self._encode(X))
        return self.classes_[codes]

    def _predict_codes(self, Xe: np.ndarray) -> np.ndarray:
        return np.argmax(self._predict_proba(Xe), axis=1)
