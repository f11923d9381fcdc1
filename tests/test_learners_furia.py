"""FURIA against KEEL's FURIA (FURIA-C): same fuzzy rules, certainty factors and classes on recorded folds.

Fixtures from tools/record_keel_rules.py (nominal attributes, missing values,
many classes, ties; training-fold and whole-data ranges); against KEEL itself
too when its compiled classes are available ($CVREPRO_KEEL_CLASSES). KEEL
prints split points and supports with 6 decimals and certainty factors with 2:
the rules are compared to that precision, the classes exactly.
"""
import numpy as np
import pandas as pd
import pytest
from keel_rule_cases import assert_same_as_keel

from cvrepro.learners.furia import FURIA
from cvrepro.reference.keel_rules import parse_furia, same_furia_rules


def test_same_rules_and_classes_as_keel():
    assert_same_as_keel("furia", FURIA, parse_furia, same_furia_rules, "FURIA-C")


def test_fuzzy_rules_and_stretching():
    """Trapezoid memberships, certainty-weighted votes, and rule stretching for uncovered instances."""
    rng = np.random.default_rng(0)
    a = np.round(rng.uniform(0, 10, 200), 2)
    b = np.round(rng.uniform(0, 10, 200), 2)
    X = pd.DataFrame({"a": a, "b": b})
    y = pd.Series(pd.Categorical(np.where((a > 5) & (b > 5), "in", "out")))
    model = FURIA().fit(X, y)
    rules = model.rules_
    assert any(r[0] == 0 for r in rules)                                   # rules for class "in"
    for _, cf, antds in rules:
        assert 0 < cf < 1
        for _, op, split, support in antds:
            assert op in ("<=", ">=")
            if not np.isnan(support):                                       # support beyond the core
                assert (support > split) if op == "<=" else (support < split)
    P = model.predict_proba(X)
    assert np.allclose(P.sum(axis=1), 1.0)
    assert (model.predict(X) == y).mean() > 0.9


@pytest.mark.parametrize("bad", [{"optimizations": -1}, {"folds": 1}, {"folds": 2.5}, {"seed": 1.5}])
def test_bad_parameters(bad):
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0]})
    with pytest.raises(ValueError):
        FURIA(**bad).fit(X, ["p", "q", "p", "q"])
