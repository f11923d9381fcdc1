"""Effect sizes with magnitude labels.

Cohen's d (:func:`~cvrepro.stats.cohens_d`; paired: d_z = mean(d) / sd(d))
labelled by Cohen's (1988) thresholds 0.2 / 0.5 / 0.8, and Cliff's delta
(Cliff 1993), ``P(a > b) - P(a < b)`` over all pairs of values, labelled by
Hess & Kromrey's (2004) thresholds 0.147 / 0.33 / 0.474: the conventions of
R's effsize package (0.8.1) and of autorank. Cliff's delta assumes neither
normality nor a common scale of the values; d_z respects the pairing.
"""
from dataclasses import dataclass

import numpy as np

from ._checks import as_scores
from .resampling import cohens_d

__all__ = ["EffectSize", "MAGNITUDES", "cliffs_delta", "effect_size", "magnitude"]

MAGNITUDES = ("negligible", "small", "medium", "large")
_THRESHOLDS = {"cohen": (0.2, 0.5, 0.8), "cohen_paired": (0.2, 0.5, 0.8), "cliff": (0.147, 0.33, 0.474)}


@dataclass(frozen=True)
class EffectSize:
    """value (positive: a larger), its magnitude label and the measure's name."""
    value: float
    magnitude: str
    measure: str


def magnitude(value, measure):
    """``"negligible"``, ``"small"``, ``"medium"`` or ``"large"``: |value| against the measure's
    thresholds, each threshold belonging to the larger class (R's ``findInterval``)."""
    if measure not in _THRESHOLDS:
        raise ValueError(f"unknown effect size {measure!r}; use one of {tuple(_THRESHOLDS)}")
    return MAGNITUDES[int(np.searchsorted(_THRESHOLDS[measure], abs(value), side="right"))]


def cliffs_delta(scores_a, scores_b):
    """Cliff's delta: (#{a_i > b_j} - #{a_i < b_j}) / (n_a n_b), in [-1, 1]."""
    a = as_scores(scores_a, "scores_a")
    b = as_scores(scores_b, "scores_b")
    sign = np.sign(a[:, None] - b[None, :])
    return float(sign.mean())


def effect_size(scores_a, scores_b, measure="cliff"):
    """``measure``: ``"cliff"`` (Cliff's delta), ``"cohen"`` (Cohen's d, pooled standard deviation)
    or ``"cohen_paired"`` (d_z of the paired differences); returns an :class:`EffectSize`."""
    if measure == "cliff":
        value = cliffs_delta(scores_a, scores_b)
    elif measure in ("cohen", "cohen_paired"):
        value = cohens_d(scores_a, scores_b, paired_samples=measure == "cohen_paired")
    else:
        raise ValueError(f"unknown effect size {measure!r}; use one of {tuple(_THRESHOLDS)}")
    return EffectSize(value, magnitude(value, measure), measure)
