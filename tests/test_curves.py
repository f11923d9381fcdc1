"""ROC and cost curves (cvrepro.curves) against Drummond & Holte's definitions, brute force and scikit-learn."""
import numpy as np
import pandas as pd
import pytest

from cvrepro.curves import (
    area_under_cost_curve,
    cost_curve,
    cost_lines,
    lower_envelope,
    operating_ranges,
    roc_convex_hull,
    roc_points,
    trivial_cost,
)


def test_one_roc_point_is_a_line_from_fpr_to_one_minus_tpr():
    lines = cost_lines(pd.DataFrame({"fpr": [0.2], "tpr": [0.7]}))
    ne, _ = lower_envelope(lines, [0.0, 0.5, 1.0])
    assert ne.tolist() == pytest.approx([0.2, 0.25, 0.3])


def test_envelope_is_the_best_threshold_by_brute_force():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    s = y * 0.5 + rng.random(200)
    pc = np.linspace(0, 1, 101)
    curve = cost_curve(y, s, pc=pc)
    thresholds = np.concatenate([[np.inf], np.unique(s)])
    P, N = (y == 1).sum(), (y == 0).sum()
    best = np.full(len(pc), np.inf)
    for t in thresholds:                                     # predict positive when score >= t
        tpr = ((s >= t) & (y == 1)).sum() / P
        fpr = ((s >= t) & (y == 0)).sum() / N
        best = np.minimum(best, (1 - tpr) * pc + fpr * (1 - pc))
    assert curve["ne"].to_numpy() == pytest.approx(best, abs=1e-12)
    assert (curve["ne"].to_numpy() <= trivial_cost(pc) + 1e-12).all()


def test_envelope_uses_only_roc_hull_vertices():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 150)
    s = y * 0.3 + rng.random(150)
    hull = roc_convex_hull(roc_points(y, s))
    used = cost_curve(y, s)[["fpr", "tpr"]].drop_duplicates()
    vertices = set(map(tuple, np.round(hull[["fpr", "tpr"]].to_numpy(), 12)))
    assert set(map(tuple, np.round(used.to_numpy(), 12))) <= vertices


def test_perfect_and_uninformative_classifiers():
    y = np.array([0, 0, 1, 1])
    perfect = cost_curve(y, [0.1, 0.2, 0.8, 0.9])
    assert perfect["ne"].max() == 0.0 and area_under_cost_curve(perfect) == 0.0
    blind = cost_curve(y, [0.5, 0.5, 0.5, 0.5])
    assert blind["ne"].to_numpy() == pytest.approx(trivial_cost(blind["pc"].to_numpy()))
    assert area_under_cost_curve(blind) == pytest.approx(0.25, abs=1e-6)


def test_operating_ranges_of_two_crossing_classifiers():
    """A is better at low PC(+) (few false positives), B at high PC(+) (few false negatives); their lines
    (0.1, 0.5) and (0.4, 0.1) cross at PC = 3/7."""
    pc = np.linspace(0, 1, 701)

    def curve(fpr, tpr):
        ne, _ = lower_envelope(cost_lines(pd.DataFrame({"fpr": [0, fpr, 1], "tpr": [0, tpr, 1]})), pc)
        return pd.DataFrame({"pc": pc, "ne": ne})

    ranges = operating_ranges({"A": curve(0.1, 0.5), "B": curve(0.4, 0.9)})
    clever = ranges[ranges.winner != "trivial"]
    assert clever.winner.tolist() == ["A", "B"]
    assert clever.pc_to.iloc[0] == pytest.approx(3 / 7, abs=2e-3)
    assert ranges.winner.iloc[0] == "trivial" and ranges.winner.iloc[-1] == "trivial"
    with pytest.raises(ValueError, match="another PC grid"):
        operating_ranges({"A": curve(0.1, 0.5), "B": curve(0.4, 0.9).iloc[:10]})


def test_bad_inputs():
    with pytest.raises(ValueError, match="both positive and negative"):
        roc_points([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        lower_envelope(np.array([[0.1, 0.2]]), [1.5])
