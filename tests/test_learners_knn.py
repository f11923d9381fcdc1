"""IBk semantics on hand-computed examples: probabilities, ties, missing values, range updates."""
import numpy as np
import pandas as pd
import pytest

from cvrepro.learners.knn import IBk


def test_probability_correction_and_mixed_attributes():
    X = pd.DataFrame({"a": [0.0, 2.0, 4.0, 10.0],
                      "b": pd.Categorical(["u", "u", "v", "v"])})
    y = pd.Series(pd.Categorical(["p", "p", "q", "q"]))
    # x = (3, u): squared distances 0.09, 0.01, 0.01 + 1, 0.49 + 1 -> nearest is row 1 (p)
    p = IBk(k=1).fit(X, y).predict_proba(pd.DataFrame({"a": [3.0], "b": pd.Categorical(["u"])}))[0]
    assert p == pytest.approx([(1 / 4 + 1) / (2 / 4 + 1), (1 / 4) / (2 / 4 + 1)])


def test_ties_at_kth_distance_are_all_neighbours():
    X = np.array([[0.0], [1.0], [3.0], [4.0]])               # normalised 0, .25, .75, 1 (exact)
    y = np.array(["p", "q", "p", "q"])
    model = IBk(k=1).fit(X, y)
    # x = 2 (0.5): rows 1 and 2 both at 0.25 -> two neighbours, one vote each
    assert model.predict_proba([[2.0]])[0] == pytest.approx([0.5, 0.5])
    assert model.predict([[2.0]])[0] == "p"                     # first maximum
    assert IBk(k=3).fit(X, y).predict_proba([[0.5]])[0] == pytest.approx([(0.25 + 2) / (0.5 + 3), (0.25 + 1) / 3.5])
    # missing value: difference is max(v, 1 - v) of the training value -> 1, .75, .75, 1
    assert model.predict_proba([[np.nan]])[0] == pytest.approx([0.5, 0.5])
    X1 = np.array([[0.0], [1.0], [4.0]])
    assert IBk(k=1).fit(X1, ["p", "q", "q"]).predict([[np.nan]])[0] == "q"   # .75 beats 1 and 1


def test_ranges_widen_with_each_classified_instance():
    X = np.array([[0.0, 0.0], [10.0, 3.0], [5.0, 10.0]])
    y = np.array(["p", "q", "p"])
    model = IBk(k=1).fit(X, y)
    # alone, (8, 0) is nearest to (10, 3): 0.2^2 + 0.3^2 < 0.8^2
    assert model.predict([[8.0, 0.0]])[0] == "q"
    # after (30, 0) the first attribute spans [0, 30]: (8, 0) is now nearest to (0, 0)
    assert list(model.predict([[30.0, 0.0], [8.0, 0.0]])) == ["q", "p"]
    assert IBk(k=1, update_ranges=False).fit(X, y).predict([[30.0, 0.0], [8.0, 0.0]])[1] == "q"
