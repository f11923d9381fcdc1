"""ROC curves and Drummond & Holte's cost curves of scoring classifiers.

Drummond & Holte (2006), "Cost curves: an improved method for visualizing
classifier performance", Machine Learning 65(1):95-130. A classifier operating
at ROC point (FPR, TPR) has, at probability-cost value

    PC(+) = p(+) C(-|+) / (p(+) C(-|+) + p(-) C(+|-))   in [0, 1],

the normalised expected cost ``NE = (1 - TPR) PC(+) + FPR (1 - PC(+))``: a
straight line from (0, FPR) to (1, 1 - TPR). A scoring classifier is a set of
such lines, one per threshold; its cost curve is their *lower envelope*, the
cost of the best threshold at each PC(+) (the dual of the ROC convex hull).
The trivial classifiers are the lines NE = PC(+) (always negative) and
NE = 1 - PC(+) (always positive); a point of the envelope above
min(PC, 1 - PC) is worse than doing nothing clever. Where the envelopes of two
classifiers cross, the better one changes: :func:`operating_ranges` gives the
PC(+) intervals where each of several classifiers has the lowest envelope.

ROC points come from scikit-learn's ``roc_curve`` (every threshold kept).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import roc_curve

__all__ = ["roc_points", "roc_convex_hull", "cost_lines", "lower_envelope", "cost_curve",
           "operating_ranges", "trivial_cost", "area_under_cost_curve"]


def roc_points(y_true, score, pos_label=1) -> pd.DataFrame:
    """Every ROC point of a scoring classifier: columns ``fpr``, ``tpr``, ``threshold``
    (from (0, 0) to (1, 1); tied scores make one point)."""
    y = np.asarray(y_true)
    if np.sum(y == pos_label) == 0 or np.sum(y != pos_label) == 0:
        raise ValueError("ROC points need both positive and negative examples")
    fpr, tpr, thr = roc_curve(y, np.asarray(score, dtype=float), pos_label=pos_label, drop_intermediate=False)
    return pd.DataFrame({"fpr": fpr, "tpr": tpr, "threshold": thr})


def roc_convex_hull(points: pd.DataFrame) -> pd.DataFrame:
    """The upper convex hull of ROC points (with (0, 0) and (1, 1)), left to right."""
    pts = np.unique(np.vstack([points[["fpr", "tpr"]].to_numpy(), [[0.0, 0.0], [1.0, 1.0]]]), axis=0)
    hull: list = []
    for p in pts:                                  # sorted by fpr, then tpr (np.unique)
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], p) >= 0:
            hull.pop()
        hull.append(p)
    hull = np.array(hull)
    return pd.DataFrame({"fpr": hull[:, 0], "tpr": hull[:, 1]})


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def cost_lines(points: pd.DataFrame) -> np.ndarray:
    """One cost line per ROC point: rows (NE at PC = 0, NE at PC = 1) = (FPR, 1 - TPR)."""
    return np.column_stack([points["fpr"].to_numpy(float), 1.0 - points["tpr"].to_numpy(float)])


def _check_grid(pc) -> np.ndarray:
    pc = np.asarray(pc, dtype=float)
    if pc.ndim != 1 or not len(pc) or (pc < 0).any() or (pc > 1).any():
        raise ValueError("probability-cost values must be a non-empty 1-d array in [0, 1]")
    return pc


def lower_envelope(lines: np.ndarray, pc) -> tuple[np.ndarray, np.ndarray]:
    """The lower envelope of cost lines at ``pc``: (normalised expected cost, index of the best line)."""
    pc = _check_grid(pc)
    lines = np.asarray(lines, dtype=float)
    ne = lines[:, :1] * (1.0 - pc) + lines[:, 1:] * pc     # lines x grid
    best = np.argmin(ne, axis=0)
    return ne[best, np.arange(len(pc))], best


def cost_curve(y_true, score, pos_label=1, pc=None) -> pd.DataFrame:
    """A scoring classifier's cost curve: at each PC(+) of ``pc`` (default 1001 points
    in [0, 1]) the lowest normalised expected cost and the ROC point that attains it."""
    pc = np.linspace(0.0, 1.0, 1001) if pc is None else _check_grid(pc)
    pts = roc_points(y_true, score, pos_label)
    ne, best = lower_envelope(cost_lines(pts), pc)
    return pd.DataFrame({"pc": pc, "ne": ne, "fpr": pts["fpr"].to_numpy()[best],
                         "tpr": pts["tpr"].to_numpy()[best], "threshold": pts["threshold"].to_numpy()[best]})


def trivial_cost(pc) -> np.ndarray:
    """The better trivial classifier's cost, min(PC, 1 - PC)."""
    pc = _check_grid(pc)
    return np.minimum(pc, 1.0 - pc)


def area_under_cost_curve(curve: pd.DataFrame) -> float:
    """Expected normalised cost over PC(+) uniform on [0, 1] (trapezoid rule on the curve's grid)."""
    return float(np.trapezoid(curve["ne"].to_numpy(), curve["pc"].to_numpy()))


def operating_ranges(curves: dict, tolerance: float = 1e-12) -> pd.DataFrame:
    """Where each classifier wins: the PC(+) intervals on which its cost curve is the lowest.

    ``curves`` maps a name to a :func:`cost_curve` table (all on the same grid).
    A tie goes to the classifier listed first; where no classifier is more than
    ``tolerance`` below the trivial ones (min(PC, 1 - PC)), the row says "trivial".
    Returns rows ``winner, pc_from, pc_to, max_advantage`` (the largest cost gap
    to the runner-up inside the interval).
    """
    names = list(curves)
    if not names:
        raise ValueError("no cost curves given")
    pc = curves[names[0]]["pc"].to_numpy()
    for name in names[1:]:
        if not np.array_equal(curves[name]["pc"].to_numpy(), pc):
            raise ValueError(f"cost curve {name!r} is on another PC grid")
    costs = np.vstack([curves[n]["ne"].to_numpy() for n in names])
    trivial = trivial_cost(pc)
    winner = np.argmin(costs, axis=0)                       # ties to the first listed
    best = costs[winner, np.arange(len(pc))]
    winner[best >= trivial - tolerance] = len(names)        # no classifier beats the trivial ones
    labels = names + ["trivial"]
    everyone = np.vstack([costs, trivial])
    runner_up = np.sort(everyone, axis=0)[1]
    gap = runner_up - everyone[winner, np.arange(len(pc))]
    rows = []
    start = 0
    for i in range(1, len(pc) + 1):
        if i == len(pc) or winner[i] != winner[start]:
            rows.append({"winner": labels[winner[start]], "pc_from": pc[start], "pc_to": pc[i - 1],
                         "max_advantage": float(gap[start:i].max())})
            start = i
    return pd.DataFrame(rows)
