"""KeelRipper against KEEL's Ripper (Ripper-C): same rule lists and classes on recorded folds.

Fixtures from tools/record_keel_rules.py (nominal attributes, missing values,
many classes, ties; training-fold and whole-data ranges); against KEEL itself
too when its compiled classes are available ($CVREPRO_KEEL_CLASSES), which
also checks that the fixtures still hold.
"""
import numpy as np
import pandas as pd
import pytest
from keel_rule_cases import assert_same_as_keel

from cvrepro.learners.keel_random import mt_new, mt_randint, mt_randint_closed, mt_res53
from cvrepro.learners.keel_ripper import KEEL_DEFAULT_SEED, KeelRipper
from cvrepro.reference.keel_rules import parse_ripper, same_ripper_rules


def test_same_rules_and_classes_as_keel():
    assert_same_as_keel("ripper", KeelRipper, parse_ripper, same_ripper_rules, "Ripper-C")


def test_keel_random_is_mt19937():
    """KEEL's Randomize is MT19937 with init_genrand and genrand_res53: numpy's RandomState stream."""
    st = mt_new(KEEL_DEFAULT_SEED)
    assert np.array_equal([mt_res53(st) for _ in range(1000)],
                          np.random.RandomState(KEEL_DEFAULT_SEED).random_sample(1000))
    st = mt_new(7)
    draws = [mt_randint(st, 0, 10) for _ in range(2000)] + [mt_randint_closed(st, 0, 3) for _ in range(2000)]
    assert set(draws[:2000]) == set(range(10)) and set(draws[2000:]) == set(range(4))


def test_rules_semantics():
    """Ordered rule sets by increasing class frequency, the most frequent class as default; a missing
    value never satisfies a condition; one-hot probabilities."""
    X = pd.DataFrame({"a": [0.0, 1, 2, 3, 4, 5, 6, 7, 8, 9] * 3})
    y = pd.Series(pd.Categorical((["p"] * 3 + ["q"] * 7) * 3, categories=["q", "p"]))
    model = KeelRipper().fit(X, y)
    assert model.rules_ and all(c == 1 for c, _ in model.rules_)          # rules for the minority class p
    assert model.predict(pd.DataFrame({"a": [1.0, 8.0, np.nan]})).tolist() == ["p", "q", "q"]
    P = model.predict_proba(pd.DataFrame({"a": [1.0, 8.0]}))
    assert np.array_equal(P, [[0.0, 1.0], [1.0, 0.0]])


@pytest.mark.parametrize("bad", [{"grow_pct": 1.5}, {"K": -1}, {"K": 1.5}, {"seed": "x"},
                                 {"bounds": [[2.0, 1.0]]}, {"bounds": [[0, 1], [0, 1]]}])
def test_bad_parameters(bad):
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0]})
    with pytest.raises(ValueError):
        KeelRipper(**bad).fit(X, ["p", "q", "p", "q"])


@pytest.mark.parametrize("with_missing", [False, True])
def test_cut_point_lists_are_the_covered_known_values_in_stable_order(with_missing):
    """rule_growing's cut-point lists, built by filtering the presort or by sorting the few covered
    instances, and filtered again as coverage shrinks: numpy's stable argsort of the covered known values."""
    from cvrepro.learners.keel_ripper import bundle, keel_data
    from cvrepro.learners.rule_growing import cut_lists, filter_cut_lists, sorting_is_cheaper

    rng = np.random.default_rng(3)
    X = rng.integers(0, 6, size=(400, 3)).astype(float)           # many ties
    if with_missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    nominal = np.array([False, True, False])
    D = bundle(*keel_data(X), nominal, np.array([0, 6, 0]))
    XT, MT = D[2], (D[3] if with_missing else None)
    for m in (5, 40, 300):                                          # few (sorted) and many (presort filtered)
        act = np.sort(rng.choice(400, m, replace=False))
        lab = np.zeros(400, dtype=np.int8)
        lab[act] = 1 + (rng.random(m) < 0.5)
        L = np.zeros(3, dtype=np.int64)
        S, SV = cut_lists(XT, MT, nominal, D[6], D[7], D[8], act, m, lab, L)
        keep = act[rng.random(m) < 0.5]                             # a new condition: half stay covered
        lab2 = np.zeros_like(lab)
        lab2[keep] = lab[keep]
        for a in (0, 2):
            known = act[~np.isnan(X[act, a])]
            expected = known[np.argsort(X[known, a], kind="stable")]
            assert np.array_equal(S[a, :L[a]], expected) and np.array_equal(SV[a, :L[a]], X[expected, a])
        filter_cut_lists(S, SV, L, lab2, nominal)
        for a in (0, 2):
            known = keep[~np.isnan(X[keep, a])]
            assert np.array_equal(S[a, :L[a]], known[np.argsort(X[known, a], kind="stable")])
    assert sorting_is_cheaper(5, 400) and not sorting_is_cheaper(300, 400)
