"""Partition-induced covariate shift, measured (Moreno-Torres, Saez & Herrera 2012).

A partition of a data set into k folds induces covariate shift when a test
fold's examples lie where its training folds have none of their class.
Two measures of one partition, each averaged over its k folds:

``nn_distance``  mean distance from a test example to its nearest training
                 example of the same class (the partitioners' own distance,
                 HVDM or HEOM, see :mod:`cvrepro.partition`): large when test
                 regions are missing from training (MS-SCV), small when every
                 test example has a training neighbour (DB-SCV, DOB-SCV).
``mmd``          squared maximum mean discrepancy between the training and the
                 test covariates (unbiased U-statistic, Gaussian kernel on the
                 same distance, bandwidth the median pairwise distance of the
                 whole data set): a class-blind two-sample distance, near 0
                 (and possibly slightly negative) without shift.

:class:`ShiftMeter` computes the pairwise distances of a data set once and
then measures any number of partitions (fold ids, as
``BaseCrossValidator``s of :mod:`cvrepro.partition` give them by
``fold_ids``); :func:`partition_shift` measures one partition.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from numba import njit

from .partition import encode

__all__ = ["ShiftMeter", "partition_shift", "fold_kernel_sums", "gaussian_kernel", "SHIFT_MEASURES"]

SHIFT_MEASURES = ("nn_distance", "mmd")


class ShiftMeter:
    """Covariate shift of partitions of one data set ``(X, y)``.

    ``metric``: ``"keel"`` (the distance KEEL's DOB-SCV computes, the default), ``"hvdm"`` or ``"heom"``
    (:mod:`cvrepro.partition`). ``bandwidth``:
    the Gaussian kernel's width for the MMD (default: the median distance
    between distinct examples). Memory: two n x n float32 matrices.
    """

    def __init__(self, X, y, metric: str = "keel", bandwidth: float | None = None):
        labels = np.asarray(pd.Categorical(np.asarray(y)).codes, dtype=np.int64)
        if (labels < 0).any():
            raise ValueError("y has missing labels")
        n = len(labels)
        if len(X) != n:
            raise ValueError(f"X has {len(X)} rows but y has {n} labels")
        if n < 2:
            raise ValueError("need at least two examples to measure shift")
        squared = encode(X, labels, metric).block(np.arange(n))
        np.maximum(squared, 0.0, out=squared)
        self.metric, self.n, self.labels = metric, n, labels
        self.distances = np.sqrt(squared).astype(np.float32)
        if bandwidth is None:
            upper = self.distances[np.triu_indices(n, 1)]
            positive = upper[upper > 0]
            bandwidth = float(np.median(positive)) if positive.size else 1.0
        if not bandwidth > 0:
            raise ValueError(f"bandwidth must be positive, got {bandwidth}")
        self.bandwidth = float(bandwidth)
        self.kernel = gaussian_kernel(squared, 2.0 * self.bandwidth ** 2)

    def _folds(self, folds) -> tuple[np.ndarray, int]:
        f = np.asarray(folds)
        if f.shape != (self.n,):
            raise ValueError(f"folds must hold one fold id per example ({self.n}), got shape {f.shape}")
        if not np.issubdtype(f.dtype, np.integer) or f.min() < 0:
            raise ValueError("fold ids must be non-negative integers")
        k = int(f.max()) + 1
        sizes = np.bincount(f, minlength=k)
        if k < 2 or (sizes == 0).any():
            raise ValueError(f"need at least two non-empty folds numbered 0..k-1, got sizes {sizes.tolist()}")
        return f, k

    def nn_distance(self, folds) -> float:
        """Mean over folds of the mean distance from a test example to its nearest
        same-class training example (NaN for examples whose class has no training example)."""
        f, k = self._folds(folds)
        per_fold = []
        for fold in range(k):
            test = f == fold
            nearest = np.full(int(test.sum()), np.nan)
            test_rows = np.flatnonzero(test)
            for c in np.unique(self.labels[test]):
                rows = test_rows[self.labels[test_rows] == c]
                train = np.flatnonzero(~test & (self.labels == c))
                if train.size:
                    nearest[np.searchsorted(test_rows, rows)] = self.distances[np.ix_(rows, train)].min(axis=1)
            per_fold.append(np.nanmean(nearest) if np.isfinite(nearest).any() else np.nan)
        return float(np.nanmean(per_fold))

    def mmd(self, folds) -> float:
        """Mean over folds of the unbiased squared MMD between training and test covariates."""
        f, k = self._folds(folds)
        block = fold_kernel_sums(self.kernel, f.astype(np.int64), k)    # k x k: kernel sums between folds
        total, by_fold = block.sum(), block.sum(axis=1)
        sizes = np.bincount(f, minlength=k).astype(np.float64)
        values = []
        for fold in range(k):
            m, r = sizes[fold], self.n - sizes[fold]
            if m < 2 or r < 2:
                values.append(np.nan)
                continue
            tt = block[fold, fold] - m                             # diagonal terms are exp(0) = 1
            rr = total - 2 * by_fold[fold] + block[fold, fold] - r
            tr = by_fold[fold] - block[fold, fold]
            values.append(tt / (m * (m - 1)) + rr / (r * (r - 1)) - 2 * tr / (m * r))
        return float(np.nanmean(values))

    def measure(self, folds) -> dict[str, float]:
        """Both measures of one partition: ``{"nn_distance": ..., "mmd": ...}``."""
        return {"nn_distance": self.nn_distance(folds), "mmd": self.mmd(folds)}


@njit(cache=True)
def gaussian_kernel(squared: np.ndarray, scale: float) -> np.ndarray:
    """``exp(-squared / scale)`` as float32, each element with the C library's ``exp`` (:mod:`cvrepro.libm`):
    the same on every machine (numpy's AVX-512 ``exp`` differs in the last bit; after the float32 rounding not
    one of the 131 million elements of Moreno-Torres's 27 data sets differed, checked on 28 Nov 2026)."""
    out = np.empty(squared.shape, dtype=np.float32)
    for i in range(squared.shape[0]):
        for j in range(squared.shape[1]):
            out[i, j] = np.float32(math.exp(-squared[i, j] / scale))
    return out


@njit(cache=True)
def fold_kernel_sums(kernel: np.ndarray, folds: np.ndarray, k: int) -> np.ndarray:
    """``block[a, b]``: the sum of ``kernel[i, j]`` over examples ``i`` of fold ``a`` and ``j`` of fold ``b``,
    in float64 and in one fixed order (row by row, each row's columns in order), so the same on every machine
    (a float32 matrix product's rounding depends on the CPU's BLAS kernel: 1e-7 apart between machines)."""
    n = kernel.shape[0]
    block, row = np.zeros((k, k)), np.zeros(k)
    for i in range(n):
        row[:] = 0.0
        for j in range(n):
            row[folds[j]] += kernel[i, j]
        for b in range(k):
            block[folds[i], b] += row[b]
    return block


def partition_shift(X, y, folds, metric: str = "keel") -> dict[str, float]:
    """:meth:`ShiftMeter.measure` of one partition (builds the distances; use a
    :class:`ShiftMeter` to measure many partitions of the same data)."""
    return ShiftMeter(X, y, metric).measure(folds)
