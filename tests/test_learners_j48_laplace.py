"""J48 -A (Laplace leaves) against WEKA 3.6: predict is classifyInstance, predict_proba is the corrected distribution.

Oracle: WEKA's own output on one soybean fold (StratifiedKFold(2, shuffle=True,
random_state=777), fold 1), recorded by tools/record_j48_laplace_fixture.py
in tests/fixtures/weka/j48_laplace_soybean.json (printed classes and
distributions, the evaluation's count, and the full-precision distributions),
so that no test needs the jar. On this fold 7 of 341 instances get another
class from the uncorrected distribution (WEKA's ``-p``) than from the
corrected one (WEKA's evaluation, our engine's metrics).
"""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cvrepro import metrics as M
from cvrepro.datasets import load_dataset
from cvrepro.learners.java import weka_classify
from cvrepro.learners.tree import C45

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "weka" / "j48_laplace_soybean.json").read_text())


@pytest.fixture(scope="module")
def fold():
    """The recorded fold (attributes renamed a0.. as in the ARFF files) and C4.5 -A fitted on it."""
    ds = load_dataset(FIXTURE["dataset"])
    X = ds.X.set_axis([f"a{j}" for j in range(ds.X.shape[1])], axis=1)
    test = np.array(FIXTURE["test_rows"])
    train = np.setdiff1d(np.arange(len(X)), test)
    assert [str(c) for c in ds.y.cat.categories] == FIXTURE["classes"]
    model = C45(laplace=True).fit(X.iloc[train], ds.y.iloc[train])
    return X, ds.y, train, test, model


def test_predict_is_wekas_classify_instance(fold):
    X, y, _, test, model = fold
    ours = model.predict(X.iloc[test])
    assert (ours.astype(str) == np.array(FIXTURE["predicted"])).all()
    # the fold shows the difference: the corrected distribution's argmax differs on 7 rows
    by_proba = model.classes_[model.predict_proba(X.iloc[test]).argmax(axis=1)]
    assert (by_proba != ours).sum() == 7


def test_predict_proba_is_the_laplace_distribution(fold):
    X, _, _, test, model = fold
    weka = np.array(FIXTURE["distribution_per_mille"]) / 1000
    assert np.abs(model.predict_proba(X.iloc[test]) - weka).max() <= 5e-4 + 1e-12   # WEKA prints 3 decimals


def test_engine_accuracy_is_wekas_evaluation_accuracy(fold):
    """WEKA's evaluation counts the corrected distribution's class; so do our metrics."""
    X, y, _, test, model = fold
    codes = pd.Categorical(y.iloc[test], categories=model.classes_).codes
    acc = M.accuracy(codes, M.predict_labels(model.predict_proba(X.iloc[test]), np.arange(len(model.classes_))))
    assert acc == FIXTURE["correctly_classified"] / len(test)
    assert (model.predict(X.iloc[test]) == y.iloc[test].to_numpy()).mean() != acc   # -p's classes score otherwise


def test_without_laplace_predict_is_classify_instance_of_the_frequencies(fold):
    """Without -A, predict is still classifyInstance of the (uncorrected) probabilities."""
    X, y, train, test, _ = fold
    plain = C45().fit(X.iloc[train], y.iloc[train])
    P = plain.predict_proba(X.iloc[test])
    assert (plain.predict(X.iloc[test]) == plain.classes_[weka_classify(P)]).all()


def test_weka_classify_chains_ties_as_wekas_loop():
    P = np.array([[0.5, 0.5000005, 0.5000012],     # 1 is within 1e-6 of 0, 2 is not within 1e-6 of 0
                  [0.3, 0.3 + 5e-7, 0.1],            # tie within 1e-6: the lower class
                  [0.0, 0.0, 0.0],                   # nothing: class 0
                  [0.2, 0.3, 0.5]])
    assert weka_classify(P).tolist() == [2, 0, 0, 2]


def test_predict_proba_equals_wekas_full_precision_distribution(fold):
    """WEKA's distributionForInstance in full precision (recorded with reference.weka.run_folds):
    this replaces the live comparison, so the test runs without WEKA's jar."""
    X, _, _, test, model = fold
    weka = np.array(FIXTURE["distribution"])
    assert np.abs(model.predict_proba(X.iloc[test]) - weka).max() <= 1e-12
    assert (weka.argmax(axis=1) == model.predict_proba(X.iloc[test]).argmax(axis=1)).all()
