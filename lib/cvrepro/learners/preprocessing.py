"""Input handling shared by every learner, and WEKA's attribute filters.

:class:`Schema` remembers, at fit time, which attributes are nominal (pandas
categoricals, strings) and their declared values, and encodes any later frame
the same way: one float matrix with nominal values as category codes and NaN
for missing values. Plain numeric numpy arrays are all-numeric attributes.

The filters reproduce what WEKA's IBk, SMO and MultilayerPerceptron do to
their input; each is split into a ``fit`` part (statistics of the training
set) and an ``apply`` part, so a batched cross-validation path can compute
the statistics once per fold and reuse them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.utils import check_array

__all__ = [
    "Schema", "values_learned_per_fit", "encode_target", "replace_missing_stats", "replace_missing",
    "nominal_to_binary", "range_stats", "normalize", "numeric_filters_fit", "numeric_filters_apply",
]


@dataclass(frozen=True)
class Schema:
    """Attribute types of a training set: which are nominal and with which values."""

    nominal: np.ndarray              # bool per attribute
    categories: tuple                # per attribute: tuple of values (nominal) or None
    from_frame: bool
    dtypes: tuple = field(default=(), compare=False)   # per attribute: its categorical dtype at fit time, or None

    @property
    def n_values(self) -> np.ndarray:
        """Number of declared values per attribute (0 for numeric ones)."""
        return np.array([0 if c is None else len(c) for c in self.categories], dtype=np.int64)

    @classmethod
    def learn(cls, X) -> tuple[Schema, np.ndarray]:
        """Schema of ``X`` and ``X`` encoded as a float matrix."""
        if isinstance(X, pd.DataFrame):
            cats, dtypes = [], []
            for j, dtype in enumerate(X.dtypes):          # dtypes, not columns: a column access costs ~50 us
                categorical = isinstance(dtype, pd.CategoricalDtype)
                dtypes.append(dtype if categorical else None)
                if categorical:
                    cats.append(tuple(dtype.categories))
                elif _is_text_dtype(dtype):
                    cats.append(tuple(sorted(X.iloc[:, j].dropna().unique())))
                else:
                    cats.append(None)
            schema = cls(np.array([c is not None for c in cats], dtype=bool), tuple(cats), True, tuple(dtypes))
        else:
            Xa = _numeric_array(X)
            schema = cls(np.zeros(Xa.shape[1], dtype=bool), (None,) * Xa.shape[1], False)
            return schema, Xa
        return schema, schema.encode(X)

    def encode(self, X) -> np.ndarray:
        """``X`` as a float matrix (nominal values as codes of the training categories)."""
        if not isinstance(X, pd.DataFrame):
            if self.nominal.any():
                raise ValueError(
                    "this learner was fitted on a DataFrame with nominal (categorical) "
                    "attributes; pass a DataFrame with the same columns to predict")
            return _numeric_array(X)
        if X.shape[1] != len(self.categories):
            raise ValueError(f"X has {X.shape[1]} columns, the learner was fitted on {len(self.categories)}")
        if X.shape[0] == 0:
            raise ValueError("X has 0 samples; at least 1 is required")
        out = np.empty(X.shape, dtype=np.float64)
        numeric = np.flatnonzero(~self.nominal)
        dtypes = X.dtypes
        if len(numeric):
            bad = [X.columns[j] for j in numeric
                   if isinstance(dtypes.iloc[j], pd.CategoricalDtype) or _is_text_dtype(dtypes.iloc[j])]
            if bad:
                raise ValueError(f"attribute {bad[0]!r} was numeric at fit time but is nominal now")
            block = X if len(numeric) == X.shape[1] else X.iloc[:, numeric]
            out[:, numeric] = _numeric_array(block.to_numpy(dtype=np.float64, na_value=np.nan))
        if self.nominal.any():
            for j, (name, col) in enumerate(X.items()):       # cheaper per column than X.iloc[:, j]
                if self.nominal[j]:
                    out[:, j] = self._codes(name, col, self.categories[j], self.dtypes[j] if self.dtypes else None)
        return out

    @staticmethod
    def _codes(name, col: pd.Series, cats: tuple, fitted=None) -> np.ndarray:
        if isinstance(col.dtype, pd.CategoricalDtype):
            values = col.array
            if col.dtype is fitted or (len(values.categories) == len(cats)      # the fitted dtype (rows of the
                                       and all(a == b for a, b in zip(values.categories, cats))):  # same frame)
                codes = values.codes                          # the usual case: same declared values
                return np.where(codes < 0, np.nan, codes)
            values = col.astype(object)
        elif _is_text_dtype(col.dtype):
            values = col
        else:
            raise ValueError(f"attribute {name!r} was nominal at fit time but is numeric now")
        codes = pd.Index(cats).get_indexer(values)
        unknown = (codes < 0) & values.notna().to_numpy()
        if unknown.any():
            bad = sorted(set(map(str, values[unknown])))[:5]
            raise ValueError(f"attribute {name!r} has values not seen in its categories at fit time: {bad}")
        return np.where(codes < 0, np.nan, codes)


def _is_text_dtype(dtype) -> bool:
    return pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)


def values_learned_per_fit(X) -> bool:
    """Whether :meth:`Schema.learn` takes nominal values from the data itself (a frame with text columns).

    Then a training fold may know fewer values than the whole data set, so
    encoding the whole data set once is not what fitting on each fold sees.
    """
    return isinstance(X, pd.DataFrame) and any(
        _is_text_dtype(t) and not isinstance(t, pd.CategoricalDtype) for t in X.dtypes)


def _numeric_array(X) -> np.ndarray:
    return check_array(X, dtype=np.float64, ensure_all_finite="allow-nan", order="C")


def encode_target(y) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, codes)`` of a class vector.

    A pandas categorical keeps all its declared categories, in declared order
    (as WEKA's class attribute does, so that ties break the same way and
    probability columns are the same in every fold); other vectors use the
    sorted distinct labels, as scikit-learn does.
    """
    if isinstance(y, pd.DataFrame) and y.shape[1] == 1:
        y = y.iloc[:, 0]
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        if y.isna().any():
            raise ValueError("y has missing class labels; drop those rows first")
        return np.asarray(y.cat.categories, dtype=object), y.cat.codes.to_numpy(dtype=np.int64)
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import column_or_1d

    y = column_or_1d(y, warn=True)
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64)


# --- WEKA filters ---------------------------------------------------------

def replace_missing_stats(X: np.ndarray, nominal: np.ndarray) -> np.ndarray:
    """What WEKA's ReplaceMissingValues puts in: mean (numeric) or mode (nominal, lowest code on ties)."""
    fill = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        col = X[:, j]
        known = col[~np.isnan(col)]
        if known.size == 0:
            continue
        if nominal[j]:
            fill[j] = np.argmax(np.bincount(known.astype(np.int64)))
        else:
            fill[j] = np.cumsum(known)[-1] / known.size      # summed in row order, as WEKA does
    return fill


def replace_missing(X: np.ndarray, fill: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(X), fill, X)


def nominal_to_binary(X: np.ndarray, nominal: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """WEKA's NominalToBinary: a nominal attribute with k > 2 values becomes k 0/1
    indicator attributes (in place, in attribute order); with 2 values, one 0/1 attribute."""
    blocks = []
    for j in range(X.shape[1]):
        col = X[:, j]
        if nominal[j] and n_values[j] > 2:
            block = (col[:, None] == np.arange(n_values[j])[None, :]).astype(np.float64)
            block[np.isnan(col)] = np.nan
            blocks.append(block)
        else:
            blocks.append(col[:, None])
    return np.hstack(blocks) if blocks else X


def range_stats(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-attribute minimum and maximum over non-missing training values (NaN if none)."""
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.nanmin(X, axis=0), np.nanmax(X, axis=0)


def normalize(X: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """WEKA's Normalize filter: (x - min) / (max - min); constant attributes become 0."""
    width = hi - lo
    safe = np.where((width > 0) & np.isfinite(width), width, 1.0)
    Z = (X - lo) / safe
    return np.where((width > 0) & np.isfinite(width), Z, np.where(np.isnan(X), np.nan, 0.0))


def numeric_filters_fit(X: np.ndarray, schema: Schema, scale: bool = True):
    """WEKA's chain for learners that need numbers (SMO's order): ReplaceMissingValues,
    NominalToBinary, then (``scale``) Normalize. Returns ``(state, transformed X)``."""
    fill = replace_missing_stats(X, schema.nominal)
    Z = nominal_to_binary(replace_missing(X, fill), schema.nominal, schema.n_values)
    lo, hi = range_stats(Z) if scale else (None, None)
    state = (fill, lo, hi)
    return state, (normalize(Z, lo, hi) if scale else Z)


def numeric_filters_apply(X: np.ndarray, schema: Schema, state) -> np.ndarray:
    """Apply the chain fitted by :func:`numeric_filters_fit` to new data."""
    fill, lo, hi = state
    Z = nominal_to_binary(replace_missing(X, fill), schema.nominal, schema.n_values)
    return Z if lo is None else normalize(Z, lo, hi)
