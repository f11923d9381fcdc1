"""C4.5 (J48) and HDDT against J48's printed trees and hand-computed values.

The expected trees are what WEKA 3.6.14's J48 prints for the same data
(``java -cp weka.jar weka.classifiers.trees.J48 -t file.arff``), pasted here
as the oracle.
"""
import math

import numpy as np
import pandas as pd
import pytest

from cvrepro.datasets import load_dataset
from cvrepro.learners.tree import C45, HDDT
from cvrepro.learners.tree_kernels import (
    add_errs,
    branch_codes,
    branch_orders,
    branch_rows,
    hellinger,
    known_order,
    node_splits,
    np_sum,
    presort,
    weka_split_point,
)

J48_TREES = {
    "weather-nominal": """
outlook = sunny
|   humidity = high: no (3.0)
|   humidity = normal: yes (2.0)
outlook = overcast: yes (4.0)
outlook = rainy
|   windy = TRUE: no (2.0)
|   windy = FALSE: yes (3.0)

Number of Leaves  : \t5

Size of the tree : \t8
""",
    "weather-numeric": """
outlook = sunny
|   humidity <= 75: yes (2.0)
|   humidity > 75: no (3.0)
outlook = overcast: yes (4.0)
outlook = rainy
|   windy = TRUE: no (2.0)
|   windy = FALSE: yes (3.0)

Number of Leaves  : \t5

Size of the tree : \t8
""",
    # numeric thresholds, missing values (fractional leaf counts) and pruning
    "labor": """
wage-increase-first-year <= 2.5: bad (15.27/2.27)
wage-increase-first-year > 2.5
|   statutory-holidays <= 10: bad (10.77/4.77)
|   statutory-holidays > 10: good (30.96/1.0)

Number of Leaves  : \t3

Size of the tree : \t5
""",
    "contact-lenses": """
tear-prod-rate = reduced: none (12.0)
tear-prod-rate = normal
|   astigmatism = no: soft (6.0/1.0)
|   astigmatism = yes
|   |   spectacle-prescrip = myope: hard (3.0)
|   |   spectacle-prescrip = hypermetrope: none (3.0/1.0)

Number of Leaves  : \t4

Size of the tree : \t7
""",
}


@pytest.mark.parametrize("name", sorted(J48_TREES))
def test_c45_reproduces_j48_printed_tree(name):
    ds = load_dataset(name)
    tree = C45().fit(ds.X, ds.y)
    assert tree.to_text().strip() == J48_TREES[name].strip()


def test_c45_missing_value_prediction_by_weighted_branches():
    ds = load_dataset("weather-nominal")
    tree = C45().fit(ds.X, ds.y)
    X = ds.X.iloc[[0]].copy()
    X.loc[X.index[0], ["outlook", "humidity", "windy"]] = [np.nan, "high", "FALSE"]
    # sunny (5/14) -> humidity high -> no; overcast (4/14) -> yes; rainy (5/14) -> windy FALSE -> yes
    p = tree.predict_proba(X)[0]
    yes = list(tree.classes_).index("yes")
    assert p[yes] == pytest.approx(9 / 14)
    assert p.sum() == pytest.approx(1.0)


def test_add_errs_hand_computed():
    # e = 0: N (1 - CF^(1/N)); Quinlan's book: U_25%(0, 6) * 6 = 1.236, U_25%(0, 9) * 9 = 1.287
    assert add_errs(6, 0) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)))
    assert add_errs(6, 0) == pytest.approx(1.236, abs=2e-3)
    assert add_errs(9, 0) == pytest.approx(1.287, abs=3e-3)
    assert add_errs(1, 0) == pytest.approx(0.75)
    # normal approximation, computed by hand with z = 0.6744897501960817:
    # f = 5.5/14, r = (f + z^2/28 + z sqrt(f/14 - f^2/14 + z^2/784)) / (1 + z^2/14) = 0.4829372
    assert add_errs(14, 5) == pytest.approx(14 * 0.4829372 - 5, abs=1e-5)
    # 0 < e < 1: linear interpolation between addErrs(N, 0) and addErrs(N, 1)
    base = 10 * (1 - 0.25 ** 0.1)
    assert add_errs(10, 0.5) == pytest.approx(base + 0.5 * (add_errs(10, 1) - base))
    assert add_errs(10, 1) == pytest.approx(10 * 0.2412562 - 1, abs=1e-5)   # f = 0.15, r = 0.2412562
    # e + 0.5 >= N: N - e; CF > 0.5: no correction
    assert add_errs(3, 2.6) == pytest.approx(0.4)
    assert add_errs(5, 1, 0.6) == 0.0


def _hand_example():
    """20 instances, 4 positive; A: (4+,2-) vs (0+,14-); B: (2+,0-) vs (2+,16-); C: no information."""
    y = np.array(["pos"] * 4 + ["neg"] * 16)
    A = ["a1"] * 4 + ["a1"] * 2 + ["a2"] * 14
    B = ["b1"] * 2 + ["b2"] * 2 + ["b2"] * 16
    C = ["c1", "c2", "c1", "c2"] + ["c1"] * 8 + ["c2"] * 8
    X = pd.DataFrame({"A": A, "B": B, "C": C}).astype("category")
    return X, pd.Series(pd.Categorical(y, categories=["pos", "neg"]))


def test_hddt_split_choice_hand_computed():
    X, y = _hand_example()
    d_A = math.sqrt((1 - math.sqrt(2 / 16)) ** 2 + (0 - math.sqrt(14 / 16)) ** 2)    # 1.1370
    d_B = math.sqrt((math.sqrt(2 / 4) - 0) ** 2 + (math.sqrt(2 / 4) - 1) ** 2)        # 0.7654
    model = HDDT().fit(X, y)
    XT = np.ascontiguousarray(model.schema_.encode(X).T)
    codes = y.cat.codes.to_numpy(np.int64)
    none = np.zeros((0, 20), np.int64)
    n_sub, score, _, _ = node_splits(XT, codes, np.arange(20), np.ones(20), none, none[:, 0], np.full(3, -1),
                                      model.schema_.nominal, model.schema_.n_values, 2, 2.0, 1,
                                      np.zeros(1))
    assert score[0] == pytest.approx(d_A) and score[1] == pytest.approx(d_B)
    assert score[2] == pytest.approx(0.0)
    assert model.tree_.attr == 0                      # HDDT splits on A ...
    # ... while C4.5 takes B: average gain (0.4464 + 0.2689 + 0) / 3 lets B in, and B's
    # gain ratio 0.2689 / H(0.1) = 0.573 beats A's 0.4464 / H(0.3) = 0.507
    assert C45(unpruned=True).fit(X, y).tree_.attr == 1


def test_hddt_leaves_are_laplace_smoothed():
    X, y = _hand_example()
    model = HDDT().fit(X, y)
    # the a2 branch is pure (0 pos, 14 neg): Laplace gives (0 + 1) / (14 + 2) for pos
    X2 = X.iloc[[19]]
    assert model.predict_proba(X2)[0, 0] == pytest.approx(1 / 16)


def test_tree_accepts_numpy_and_rejects_unknown_category():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    assert (C45().fit(X, y).predict(X) == y).mean() > 0.9
    ds = load_dataset("weather-nominal")
    tree = C45().fit(ds.X, ds.y)
    bad = ds.X.astype(object).iloc[:2].copy()
    bad.iloc[0, 0] = "foggy"
    with pytest.raises(ValueError, match="foggy"):
        tree.predict(bad)


def test_hddt_multiclass_uses_largest_one_vs_rest_distance():

    # value a: classes (4, 2, 0); value b: (0, 2, 4). One-vs-rest: A -> sqrt((1-.5)^2 + .75) = 1,
    # B -> 0 (same profile as the rest), C -> 1. The multi-class HDDT takes the largest.
    bags = np.array([[4.0, 2.0, 0.0], [0.0, 2.0, 4.0]])
    assert hellinger(bags, bags.sum(axis=0)) == pytest.approx(1.0)
    two = np.array([[3.0, 1.0], [1.0, 3.0]])             # binary: the plain d_H
    expected = math.sqrt(2 * (math.sqrt(3 / 4) - math.sqrt(1 / 4)) ** 2)
    assert hellinger(two, two.sum(axis=0)) == pytest.approx(expected)


@pytest.mark.parametrize("nominal,missing", [(False, 0.2), (True, 0.2), (False, 0.0)])
def test_branch_orders_equal_a_fresh_sort_of_each_branch(nominal, missing):
    """The orders handed down to the branches are what sorting each branch's rows gives.

    Many ties and missing values: within a run of equal values the missing rows
    (appended to every branch) must come after the branch's known rows.
    """
    rng = np.random.default_rng(3)
    n = 300
    XT = rng.integers(0, 4, size=(4, n)).astype(float)
    XT[rng.random(XT.shape) < missing] = np.nan
    numeric = np.array([0, 2, 3])
    rows = rng.permutation(n)[:200]
    w = rng.random(200)
    order, known = presort(XT, rows, numeric)
    split = 1 if nominal else 2
    sub, perbag = branch_codes(XT[split], rows, w, nominal, 1.5, 4 if nominal else 2)
    assert (sub == -1).any() == (missing > 0) and (sub >= 0).any()
    frac = perbag / perbag.sum()
    r, ww, off = branch_rows(rows, w, sub, frac)
    child_order, child_known = branch_orders(XT, rows, order, known, numeric, sub, frac, off)
    for b in range(len(off) - 1):
        ref_order, ref_known = presort(XT, r[off[b]:off[b + 1]], numeric)
        np.testing.assert_array_equal(child_known[b], ref_known)
        block = child_order[3 * off[b]:3 * off[b + 1]].reshape(3, -1)
        for s_, k in enumerate(ref_known):
            np.testing.assert_array_equal(block[s_, :k], ref_order[s_, :k])


def test_np_sum_is_numpys_summation_order():
    """Pruning sums class counts in numba; it must round as ``np.sum`` does (pairwise, not left to right)."""
    rng = np.random.default_rng(0)
    differs = 0
    for n in [1, 7, 8, 9, 17, 100, 128, 129, 300, 1000]:
        a = rng.random(n) * 10.0 ** rng.uniform(-8, 8, n)
        assert np_sum(a) == a.sum()
        differs += sum(a.tolist()) != a.sum()
    assert differs > 0          # left to right would round differently here


@pytest.mark.parametrize("make", [lambda: C45(laplace=True), HDDT])
def test_fit_predict_folds_equals_fold_by_fold_with_missing_numeric_values(make):
    """The folds' presorts are read off one whole-data sort; ties and missing values must not change a bit."""
    rng = np.random.default_rng(5)
    n = 240
    X = pd.DataFrame({"a": rng.integers(0, 5, n) * 0.5, "b": rng.integers(0, 3, n) * 1.0, "c": rng.normal(size=n)})
    y = np.where(X["a"] + X["b"] + rng.normal(size=n) > 2.2, "p", "q")
    X = X.mask(rng.random(X.shape) < 0.2)
    folds = rng.integers(0, 3, n)
    splits = [(np.flatnonzero(folds != f), np.flatnonzero(folds == f)) for f in range(3)]
    splits.append((rng.permutation(np.flatnonzero(folds != 0)), np.flatnonzero(folds == 0)))   # unsorted rows
    est = make()
    got = est.fit_predict_folds(X, y, splits, [0] * 4, np.array(["p", "q"]))
    for g, (train, test) in zip(got, splits):
        m = make().fit(X.iloc[train], y[train])
        np.testing.assert_array_equal(g, m.predict_proba(X.iloc[test]))
        assert m.tree_size_ >= 5


@pytest.mark.parametrize("criterion", [0, 1])
def test_node_split_scores_of_an_attribute_do_not_depend_on_the_others(criterion):
    """Each attribute scored alone (a one-column table) scores as in the full table, mixed types and all."""
    rng = np.random.default_rng(7)
    n, K = 150, 3
    XT = np.vstack([rng.integers(0, 5, n), rng.normal(size=n), rng.integers(0, 4, n), rng.integers(0, 9, n) * 0.5])
    XT[rng.random(XT.shape) < 0.1] = np.nan
    nominal, n_values = np.array([True, False, True, False]), np.array([5, 0, 4, 0])
    y = (np.nan_to_num(XT[1]) + (XT[0] == 2) + rng.normal(size=n) > 0.5).astype(np.int64) + (XT[3] > 3)
    rows, w = np.arange(n), rng.uniform(0.5, 1.5, n)
    numeric = np.flatnonzero(~nominal)
    slot = np.full(4, -1)
    slot[numeric] = np.arange(len(numeric))
    order, known = presort(XT, rows, numeric)
    nlogn = np.zeros(1)
    full = node_splits(XT, y, rows, w, order, known, slot, nominal, n_values, K, 2.0, criterion, nlogn)
    assert (full[0] > 0).all()
    for a in range(4):
        s_ = slot[a]
        one = node_splits(XT[a:a + 1], y, rows, w, order[max(s_, 0):max(s_, 0) + 1], known[max(s_, 0):max(s_, 0) + 1],
                           np.array([0 if s_ >= 0 else -1]), nominal[a:a + 1], n_values[a:a + 1], K, 2.0, criterion,
                           nlogn)
        for got, want in zip(one, full):
            np.testing.assert_array_equal(got, want[a:a + 1])


def test_weka_split_point_equals_wekas_scan():
    """The bisection shortcut gives the threshold of WEKA's scan in row order, near-ties (< 1e-6) and all."""
    def scan(values, point):
        best = -np.inf
        for v in values:
            if v == v and v - best > 1e-6 and v - point < 1e-6:
                best = v
        return best if best > -np.inf else point

    rng = np.random.default_rng(11)
    for _trial in range(300):
        n = int(rng.integers(1, 40))
        values = rng.integers(0, 6, n) * 0.5 + rng.choice([0.0, 3e-7, 8e-7, 2e-6], n)
        values[rng.random(n) < 0.15] = np.nan
        for point in [-1.0, 0.0, 0.25, 1.0 + 5e-7, 1.2500004, 2.0, 9.0, float(np.nan_to_num(values[0]))]:
            assert weka_split_point(values, known_order(values), point) == scan(values, point)


def test_near_ties_give_splits_that_divide_their_rows():
    """Values closer than WEKA's 1e-6 once gave a threshold that sent a node's rows all one way (an
    exact ``>`` where WEKA's C45Split.whichSubset compares with Utils.smOrEq), and the growing hit
    MAX_DEPTH (RecursionError). With WEKA's comparison the trees are finite and classify."""
    rng = np.random.default_rng(0)
    n = 150
    X = pd.DataFrame({"a": np.round(rng.normal(size=n), 1), "c": np.round(rng.uniform(size=n) * 3, 0)
                      + 1e-7 * rng.integers(0, 3, n), "e": rng.normal(size=n)})
    X.loc[rng.uniform(size=n) < 0.1, "a"] = np.nan
    y = np.where(X["a"].fillna(0) + 0.5 * rng.normal(size=n) > 0, "p", "q")
    for model in (HDDT().fit(X, y), C45().fit(X, y)):
        assert (model.predict(X) == y).mean() > 0.7


def test_refit_replaces_the_printed_tree():
    """tree_ (built on first use from the fitted arrays) follows a second fit of the same estimator."""
    X = pd.DataFrame({"a": [0.0, 1, 2, 3, 4, 5, 6, 7], "b": [5.0, 3, 1, 7, 2, 8, 4, 6]})
    model = C45(min_num_obj=1)
    first = model.fit(X, [0, 0, 0, 0, 1, 1, 1, 1]).to_text()
    second = model.fit(X, [0, 1, 0, 1, 0, 1, 0, 1]).to_text()
    assert second == C45(min_num_obj=1).fit(X, [0, 1, 0, 1, 0, 1, 0, 1]).to_text() != first
