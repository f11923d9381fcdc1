"""Shared by the KEEL rule-learner parity tests: the recorded folds and a live check against KEEL."""
import json
from pathlib import Path

import numpy as np

from cvrepro.datasets import load_dataset
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.reference import keel
from cvrepro.reference.keel_rules import declared_labels

FIXTURES = Path(__file__).parent / "fixtures" / "keel"


def live(algorithm: str) -> bool:
    """KEEL's compiled classes are available and contain ``algorithm``'s main class."""
    if not keel.available():
        return False
    classes = Path(keel.find_classes())
    main = keel.ALGORITHMS[algorithm].main.replace(".", "/") + ".class"
    return classes.is_dir() and (classes / main).exists()


def payload(key: str) -> dict:
    return json.loads((FIXTURES / f"{key}.json").read_text())


def fold(case):
    """``(X, y, train, test, bounds)`` of a recorded case."""
    ds = load_dataset(case["dataset"], dropna=case["dropna"])
    X, y = ds.X, ds.y
    if case["rows"] is not None:
        X, y = X.iloc[case["rows"]], y.iloc[case["rows"]]
    test = np.array(case["test"])
    train = np.setdiff1d(np.arange(len(y)), test)
    bounds = keel_bounds(X) if case["ranges"] == "whole" else None
    return X, y, train, test, bounds


def run_keel(algorithm, case, parse, seed):
    """KEEL's predicted classes and parsed rules on a recorded case."""
    X, y, train, test, bounds = fold(case)
    run = keel.run(algorithm, X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test], seed=seed, bounds=bounds)
    nominal, classes = declared_labels(keel.dat_header(X.iloc[train], y.iloc[train]))
    return run.test_pred, parse(run.extra[0], nominal, classes)


def as_tuples(rules):
    """JSON rule lists back to tuples (as the parsers return them)."""
    out = []
    for r in rules:
        r = list(r)
        r[-1] = [tuple(a) for a in r[-1]]
        out.append(tuple(r))
    return out


def compare_with_keel(key, learner, parse, same_rules, live_check):
    """Fit ``learner(seed=, bounds=)`` on every recorded fold of fixture ``key``; compare its rules and test
    classes with KEEL's (and, when ``live_check``, the fixture with the live KEEL).
    Returns (cases, rule sets equal, test classes equal, test instances)."""
    data = payload(key)
    agree = n = same = 0
    for case in data["cases"]:
        X, y, train, test, bounds = fold(case)
        model = learner(seed=data["seed"], bounds=bounds).fit(X.iloc[train], y.iloc[train])
        ours = y.cat.categories.get_indexer(model.predict(X.iloc[test]))
        pred, rules = np.array(case["keel_pred"]), as_tuples(case["keel_rules"])
        if live_check:
            live_pred, live_rules = run_keel(data["algorithm"], case, parse, data["seed"])
            assert np.array_equal(live_pred, pred) and live_rules == rules, f"KEEL no longer gives the fixture: {case}"
        assert same_rules(model.rules_, rules), (case["dataset"], case["fold"])
        same += 1
        agree += int((ours == pred).sum())
        n += len(test)
    return len(data["cases"]), same, agree, n


def assert_same_as_keel(key, learner, parse, same_rules, algorithm, min_cases=19):
    """``compare_with_keel`` (live when KEEL's ``algorithm`` is available): every rule set and test class
    as KEEL's, on at least ``min_cases`` recorded folds."""
    cases, same, agree, n = compare_with_keel(key, learner, parse, same_rules, live(algorithm))
    print(f"{key}: {same} rule sets, {agree}/{n} test classes as KEEL's")
    assert agree == n and same == cases >= min_cases
