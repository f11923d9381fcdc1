"""Breiman's (1996) synthetic two-class problems, as R mlbench defines them.

They give unlimited samples from a known population, which is what
Vanwinckelen & Blockeel's conditional/unconditional error study needs, and
Raeder et al. list them among their data sets. Each function returns
``(X, y)`` with ``X`` of shape (n_samples, n_features) and ``y`` in {1, 2};
the two classes have exactly ``n_samples // 2`` and ``n_samples - n_samples // 2``
examples (as mlbench makes them), in random order.

- twonorm: N(a 1, I) against N(-a 1, I), a = 2 / sqrt(d). Bayes error 2.3 % at d = 20.
- threenorm: class 1 is N(a 1, I) or N(-a 1, I) with probability 1/2 each;
  class 2 is N((a, -a, a, ...), I); a = 2 / sqrt(d). Bayes error about 10.5 %.
- ringnorm: class 1 N(0, 4 I); class 2 N(a 1, I) with a = 1 / sqrt(d), as in
  mlbench (DELVE's description uses 2 / sqrt(d)); Bayes error about 1.5 %.
"""
from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["make_twonorm", "make_threenorm", "make_ringnorm"]


def _labels(n_samples: int, rng) -> np.ndarray:
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    y = np.repeat([1, 2], [n_samples // 2, n_samples - n_samples // 2])
    return rng.permutation(y)


def _check_features(n_features: int) -> None:
    if not isinstance(n_features, (int, np.integer)) or n_features < 1:
        raise ValueError(f"n_features must be a positive integer, got {n_features!r}")


def make_twonorm(n_samples: int = 300, n_features: int = 20, random_state=None):
    """Two unit-covariance Gaussians centred at +a and -a on every axis."""
    _check_features(n_features)
    rng = check_random_state(random_state)
    y = _labels(n_samples, rng)
    a = 2.0 / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features)) + np.where(y == 1, a, -a)[:, None]
    return X, y


def make_threenorm(n_samples: int = 300, n_features: int = 20, random_state=None):
    """Class 1 is a mixture of two Gaussians, class 2 one Gaussian on the alternating corner."""
    _check_features(n_features)
    rng = check_random_state(random_state)
    y = _labels(n_samples, rng)
    a = 2.0 / np.sqrt(n_features)
    alternating = np.where(np.arange(n_features) % 2 == 0, a, -a)
    sign = np.where(rng.random_sample(n_samples) < 0.5, 1.0, -1.0)
    means = np.where((y == 1)[:, None], sign[:, None] * a, alternating[None, :])
    return rng.standard_normal((n_samples, n_features)) + means, y


def make_ringnorm(n_samples: int = 300, n_features: int = 20, random_state=None):
    """A wide zero-centred Gaussian (variance 4) around a unit Gaussian at a 1."""
    _check_features(n_features)
    rng = check_random_state(random_state)
    y = _labels(n_samples, rng)
    a = 1.0 / np.sqrt(n_features)
    Z = rng.standard_normal((n_samples, n_features))
    X = np.where((y == 1)[:, None], 2.0 * Z, Z + a)
    return X, y
