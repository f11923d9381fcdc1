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
