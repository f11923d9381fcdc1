"""KeelPART against KEEL's PART (PART-C): same rule lists, default rules and classes on recorded folds.

Fixtures from tools/record_keel_part.py (Moreno-Torres et al.'s data sets with
whole-data ranges, nominal attributes, missing values, many classes, ties);
against KEEL itself too when its compiled classes are available
($CVREPRO_KEEL_CLASSES), which also checks that the fixtures still hold.
"""
import numpy as np
import pandas as pd
import pytest
from keel_rule_cases import as_tuples, fold, live, payload

from cvrepro.learners import make_learner
from cvrepro.learners.keel_part import KeelPART
from cvrepro.reference import keel
from cvrepro.reference.keel_rules import declared_labels, parse_part, same_ripper_rules


def _keel_now(case):
    X, y, train, test, bounds = fold(case)
    run = keel.run("PART-C", X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test], bounds=bounds)
    nominal, classes = declared_labels(keel.dat_header(X.iloc[train], y.iloc[train]))
    return run.test_pred, parse_part(run.extra[0], nominal, classes)


def test_same_rules_and_classes_as_keel():
    data = payload("part")
    check_live = live("PART-C")
    agree = n = same = 0
    for case in data["cases"]:
        X, y, train, test, bounds = fold(case)
        model = KeelPART(bounds=bounds).fit(X.iloc[train], y.iloc[train])
        ours = y.cat.categories.get_indexer(model.predict(X.iloc[test]))
        pred, rules = np.array(case["keel_pred"]), as_tuples(case["keel_rules"])
        if check_live:
            live_pred, live_rules = _keel_now(case)
            assert np.array_equal(live_pred, pred) and live_rules == rules, f"KEEL no longer gives the fixture: {case}"
        assert same_ripper_rules(model.rules_ + [(model.default_, [])], rules), (case["dataset"], case["fold"])
        same += 1
        agree += int((ours == pred).sum())
        n += len(test)
    print(f"part: {same} rule lists, {agree}/{n} test classes as KEEL's")
    cases = data["cases"]
    assert agree == n and same == len(cases) >= 30
    assert len({c["dataset"] for c in cases}) >= 15
    assert sum(len(c["keel_rules"]) > 1 for c in cases) >= 15        # most folds learn rules, not the default only


def _steps(minority_low):
    """30 values of one attribute; the 10 of the minority class lowest (or highest)."""
    X = pd.DataFrame({"a": np.arange(30.0)})
    low, high = ("p", "q") if minority_low else ("q", "p")
    y = pd.Series(pd.Categorical([low] * 10 + [high] * 20 if minority_low else [low] * 20 + [high] * 10,
                                 categories=["p", "q"]))
    return X, y


def test_keel_stops_when_the_first_leaf_covers_most():
    """KEEL keeps the best-covering leaf only if it is not the first one: when the '<=' leaf covers most,
    the default rule (the majority class) is all; mirrored, the '>' leaf becomes a rule."""
    X, y = _steps(minority_low=False)                  # a <= 19: q (20 instances), a > 19: p (10)
    model = KeelPART().fit(X, y)
    assert model.rules_ == [] and model.classes_[model.default_] == "q"
    assert set(model.predict(X)) == {"q"}
    X, y = _steps(minority_low=True)                   # a <= 9: p (10), a > 9: q (20)
    model = KeelPART().fit(X, y)
    assert model.rules_ == [(1, [(0, ">", 9.0)])] and model.classes_[model.default_] == "p"
    assert np.array_equal(model.predict(X), y.to_numpy())


def test_missing_values_satisfy_no_condition_and_proba_is_one_hot():
    X, y = _steps(minority_low=True)
    model = KeelPART().fit(X, y)
    test = pd.DataFrame({"a": [20.0, np.nan, 3.0]})
    assert model.predict(test).tolist() == ["q", "p", "p"]
    assert np.array_equal(model.predict_proba(test), [[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])


def test_registry_names_keels_part_apart_from_wekas():
    assert isinstance(make_learner("PART-C"), KeelPART)
    assert type(make_learner("PART")).__name__ == "PART"


@pytest.mark.parametrize("bad", [{"min_itemsets": 0}, {"min_itemsets": 1.5}, {"min_itemsets": True},
                                 {"bounds": [[2.0, 1.0]]}, {"bounds": [[0, 1], [0, 1]]}])
def test_bad_parameters(bad):
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0]})
    with pytest.raises(ValueError):
        KeelPART(**bad).fit(X, ["p", "q", "p", "q"])
