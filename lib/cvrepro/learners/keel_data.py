"""What KEEL's data reader (``keel.Dataset``) makes of a training and a test fold.

KEEL's algorithms read ``.dat`` files whose header declares every attribute:
nominal ones with their list of values (an instance's value becomes its index
in that list: our category codes), numeric ones with a range ``[min, max]``.
While reading the training file the range widens to take in every training
value; while reading the test file, numeric values outside the range are
clamped into it. A missing value (``?``) reads as 0.0 in the numeric view
every algorithm here uses (before any normalisation).

The declared range is therefore part of a KEEL experiment. KEEL's own
partitions (and those of Moreno-Torres et al.) declare the whole data set's
ranges in every fold: :func:`keel_bounds` computes them, and the KEEL
learners take them as ``bounds``. With ``bounds=None`` a learner uses the
training fold's own ranges, which is what KEEL does when the fold's header
states the training fold's ranges.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .preprocessing import Schema

__all__ = ["keel_bounds", "check_bounds", "numeric_ranges", "read_values"]


def keel_bounds(X) -> np.ndarray:
    """``(n_attributes, 2)`` array of each numeric attribute's ``[min, max]`` over the known
    values of ``X`` (NaN for nominal attributes and for attributes with no known value)."""
    schema, Xe = Schema.learn(X)
    out = np.full((Xe.shape[1], 2), np.nan)
    for j in np.flatnonzero(~schema.nominal):
        known = Xe[~np.isnan(Xe[:, j]), j]
        if known.size:
            out[j] = known.min(), known.max()
    return out


def check_bounds(bounds, n_features: int) -> np.ndarray | None:
    """``bounds`` as a float ``(n_features, 2)`` array (None stays None); a clear error otherwise."""
    if bounds is None:
        return None
    if isinstance(bounds, pd.DataFrame):
        bounds = bounds.to_numpy()
    try:
        b = np.asarray(bounds, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"bounds must be numbers, an (n_features, 2) array of [min, max]: {err}") from None
    if b.shape != (n_features, 2):
        raise ValueError(f"bounds must have shape ({n_features}, 2) ([min, max] per attribute), got {b.shape}")
    bad = np.isfinite(b).all(axis=1) & (b[:, 0] > b[:, 1])
    if bad.any():
        raise ValueError(f"bounds of attribute {int(np.flatnonzero(bad)[0])} have min > max")
    return b


def numeric_ranges(Xe: np.ndarray, nominal: np.ndarray, bounds) -> tuple[np.ndarray, np.ndarray]:
    """KEEL's ``[min, max]`` of each numeric attribute after reading the training fold ``Xe``:
    the declared bounds (if finite) widened by the known training values, else the training
    values' range; 0 for an attribute with neither (nominal attributes: 0)."""
    d = Xe.shape[1]
    lo, hi = np.zeros(d), np.zeros(d)
    for j in np.flatnonzero(~nominal):
        col = Xe[:, j]
        known = col[~np.isnan(col)]
        declared = bounds is not None and np.isfinite(bounds[j]).all()
        if declared:
            lo[j], hi[j] = bounds[j]
            if known.size:
                lo[j], hi[j] = min(lo[j], known.min()), max(hi[j], known.max())
        elif known.size:
            lo[j], hi[j] = known.min(), known.max()
    return lo, hi


def read_values(Xe: np.ndarray, nominal: np.ndarray, lo: np.ndarray, hi: np.ndarray, test: bool) -> np.ndarray:
    """The numbers KEEL's reader gives an algorithm: nominal codes, numeric values (clamped into
    ``[lo, hi]`` when reading a test fold), missing values as 0.0."""
    X = np.array(Xe, dtype=float, copy=True)
    if test:
        numeric = ~nominal
        X[:, numeric] = np.clip(X[:, numeric], lo[numeric], hi[numeric])   # NaN stays NaN
    X[np.isnan(X)] = 0.0
    return X
