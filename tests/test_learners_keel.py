"""Parity with KEEL's compiled algorithms, as Moreno-Torres et al. ran them: same folds, same classes.

Our KEEL learners (KNN-C for 1NN/3NN, LDA-C, SMO-C with the Puk kernel and
C = 100 for the SVM, PDFC-C) against the fixtures recorded by
tools/record_keel_fixtures.py on folds with nominal attributes, missing values,
many classes, ties and KEEL's LDA failures; and against KEEL itself when its
compiled classes are available ($CVREPRO_KEEL_CLASSES), which also checks that
the fixtures still hold. KNN and LDA reproduce KEEL's arithmetic, so every
class must agree; the SVM and PDFC solve KEEL's dual problem with libsvm by
default (solver="keel" takes WEKA's steps), so an instance on the boundary may
differ: at most 1 in 200.
"""
import json
from pathlib import Path

import numpy as np
import pytest

from cvrepro.datasets import load_dataset
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.learners.keel_knn import KeelKNN
from cvrepro.learners.keel_lda import KeelLDA
from cvrepro.learners.keel_svm import KeelSVM
from cvrepro.learners.pdfc import PDFC
from cvrepro.metrics import fold_keel_auc
from cvrepro.reference import keel

FIXTURES = Path(__file__).parent / "fixtures" / "keel"
LEARNERS = {"KeelKNN": KeelKNN, "KeelLDA": KeelLDA, "KeelSVM": KeelSVM, "PDFC": PDFC}
EXACT = {"knn1", "knn3", "lda"}
LIVE = keel.available()


def _payload(key):
    return json.loads((FIXTURES / f"{key}.json").read_text())


def _fold(case):
    ds = load_dataset(case["dataset"], dropna=case["dropna"])
    X, y = ds.X, ds.y
    if case["rows"] is not None:
        X, y = X.iloc[case["rows"]], y.iloc[case["rows"]]
    test = np.array(case["test"])
    train = np.array(case["train"]) if "train" in case else np.setdiff1d(np.arange(len(y)), test)
    bounds = keel_bounds(X) if case["ranges"] == "whole" else None
    return X, y, train, test, bounds


def _model(payload, bounds, **extra):
    cls = LEARNERS[payload["learner"]]
    params = dict(payload["learner_params"], bounds=bounds, **extra)
    if "random_state" in cls().get_params():
        params["random_state"] = payload["seed"]
    return cls(**params)


@pytest.mark.parametrize("key", ["knn1", "knn3", "lda", "svm", "pdfc"])
def test_same_classes_as_keel(key):
    payload = _payload(key)
    agree = n = 0
    for case in payload["cases"]:
        X, y, train, test, bounds = _fold(case)
        model = _model(payload, bounds).fit(X.iloc[train], y.iloc[train])
        ours = y.cat.categories.get_indexer(model.predict(X.iloc[test]))
        recorded = np.array(case["keel_pred"])
        if LIVE:
            run = keel.run(payload["algorithm"], X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test],
                           params=payload["params"], seed=payload["seed"], bounds=bounds)
            assert np.array_equal(run.test_pred, recorded), f"KEEL no longer gives the fixture's classes: {case}"
        agree += int((ours == recorded).sum())
        n += len(test)
    print(f"{key}: {agree}/{n} test instances with KEEL's class ({'live KEEL and ' if LIVE else ''}fixtures)")
    if key in EXACT:
        assert agree == n
    else:
        assert agree >= n - n // 200


@pytest.mark.parametrize("key", ["svm", "pdfc"])
def test_keel_solver_takes_keels_steps(key):
    """solver="keel" (WEKA's BinarySMO step for step) on the small cases: KEEL's classes and, for
    PDFC, KEEL's number of rules (support vectors)."""
    payload = _payload(key)
    for case in payload["cases"]:
        if case["dataset"] not in ("heart", "labor", "haberman"):
            continue
        X, y, train, test, bounds = _fold(case)
        model = _model(payload, bounds, solver="keel").fit(X.iloc[train], y.iloc[train])
        ours = y.cat.categories.get_indexer(model.predict(X.iloc[test]))
        assert np.array_equal(ours, case["keel_pred"]), case["dataset"]
        if key == "pdfc":
            rules = sum(len(centres) for centres, _, _ in model.model_)
            assert abs(rules - case["keel_rules"]) <= 1, (case["dataset"], rules, case["keel_rules"])


def test_lda_fails_where_keel_fails():
    """KEEL cannot invert crx's and mushroom's covariance matrices (crx's A4 and A5 coded as
    value indices determine each other; mushroom's veil-type is constant): it labels every
    training instance unclassified and every test instance class 0. So do we."""
    payload = _payload("lda")
    failing = {"crx", "mushroom"}
    for case in payload["cases"]:
        if "train" in case:
            continue
        X, y, train, test, bounds = _fold(case)
        model = _model(payload, bounds).fit(X.iloc[train], y.iloc[train])
        fails = case["dataset"] in failing
        assert model.failed_ == fails
        assert (case["keel_train_unclassified"] == len(train)) == fails
        if fails:
            assert (np.array(case["keel_pred"]) == 0).all()


@pytest.mark.parametrize("name", ["crx", "mushroom"])
def test_lda_keel_auc_is_exactly_one_half(name):
    """Moreno-Torres et al.'s Table III: LDA scores an AUC of 0.5000 on crx and mushroom."""
    from sklearn.model_selection import StratifiedKFold

    ds = load_dataset(name, dropna=True)
    y = ds.y.cat.codes.to_numpy()
    folds = np.zeros(len(y), dtype=np.int64)
    pred = np.zeros(len(y), dtype=np.int64)
    for f, (train, test) in enumerate(StratifiedKFold(5, shuffle=True, random_state=0).split(ds.X, y)):
        folds[test] = f
        model = KeelLDA().fit(ds.X.iloc[train], ds.y.iloc[train])
        pred[test] = model.predict_proba(ds.X.iloc[test]).argmax(axis=1)
    auc = fold_keel_auc(y, pred, folds, 5, n_classes=2)
    assert np.array_equal(auc, np.full(5, 0.5))


def test_knn_zero_distance_rule():
    """KEEL's KNN never takes a training instance at distance 0 (a duplicate) as a neighbour."""
    import pandas as pd
    X = pd.DataFrame({"a": [0.0, 0.0, 1.0, 0.4]})
    y = pd.Series(pd.Categorical(["p", "q", "q", "q"]))
    model = KeelKNN(k=1).fit(X, y)
    # a test instance at 0.0 is a duplicate of the first two: its neighbour is the instance at 0.4
    assert model.predict(pd.DataFrame({"a": [0.0]}))[0] == "q"
    # with every slot unfilled (all training instances at distance 0), KEEL votes for the first instance
    same = pd.DataFrame({"a": [0.0, 0.0]})
    assert KeelKNN(k=1).fit(same, pd.Series(pd.Categorical(["q", "p"]))).predict(same.iloc[:1])[0] == "q"


def test_knn_nominal_values_are_ordinal():
    """KEEL scales a nominal value index to [0, 1]: the first and last of three values are
    farther apart than neighbouring ones (WEKA's IBk would count each mismatch as 1)."""
    import pandas as pd
    cat = pd.CategoricalDtype(["u", "y", "l"])
    X = pd.DataFrame({"a": pd.Series(["u", "l"], dtype=cat)})
    y = pd.Series(pd.Categorical(["first", "last"]))
    model = KeelKNN(k=1).fit(X, y)
    assert model.predict(pd.DataFrame({"a": pd.Series(["y"], dtype=cat)}))[0] == "first"   # tie: earlier wins


def test_bad_input_is_named():
    import pandas as pd
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0]})
    y = pd.Series(pd.Categorical(["p", "q", "p", "q"]))
    with pytest.raises(ValueError, match="k must be a positive integer"):
        KeelKNN(k=0).fit(X, y)
    with pytest.raises(ValueError, match="bounds must have shape"):
        KeelLDA(bounds=[[0, 1], [0, 1]]).fit(X, y)
    with pytest.raises(ValueError, match="min > max"):
        KeelKNN(bounds=[[2, 1]]).fit(X, y)
    with pytest.raises(ValueError, match="C must be a positive number"):
        KeelSVM(C=0).fit(X, y)
    with pytest.raises(ValueError, match="solver must be"):
        PDFC(solver="smo").fit(X, y)
    with pytest.raises(ValueError, match="random_state must be an int"):
        PDFC(random_state=np.random.RandomState(0)).fit(X, y)


def test_declared_bounds_clamp_test_values():
    """KEEL clamps a test value into the declared range (here onto the training instance at 10,
    which is then at distance 0 and skipped); declared wider, the range leaves it alone."""
    import pandas as pd
    X = pd.DataFrame({"a": [0.0, 10.0]})
    y = pd.Series(pd.Categorical(["low", "high"]))
    far = pd.DataFrame({"a": [1000.0]})
    assert KeelKNN(bounds=[[0.0, 2000.0]]).fit(X, y).predict(far)[0] == "high"
    assert KeelKNN().fit(X, y).predict(far)[0] == "low"


def test_list_learners_counts_the_recorded_keel_runs():
    """list_learners() says against which KEEL algorithm, on how many recorded runs and test
    instances each KEEL learner was checked: the fixtures' counts."""
    from cvrepro.learners import list_learners

    table = list_learners().set_index("name")
    for name, key in (("1NN", "knn1"), ("3NN", "knn3"), ("LDA", "lda"), ("SVM", "svm"), ("PDFC", "pdfc"),
                      ("RIPPER", "ripper"), ("FURIA", "furia"), ("PART-C", "part")):
        payload = _payload(key)
        cases = payload["cases"]
        row = table.loc[name]
        assert row["reference"].startswith(f"KEEL {payload['algorithm']}"), name
        assert row["parity_cases"] == len(cases), name
        assert f"all {sum(len(c['test']) for c in cases)} test instances ({len({c['dataset'] for c in cases})} " \
               "data sets)" in row["parity"], name


def test_keel_logistic_reaches_the_ridge_optimum_when_it_exists():
    """Overlapping classes: KEEL's quasi-Newton search ends at the penalised maximum likelihood
    (the same objective minimised by scikit-learn to a tight tolerance)."""
    from sklearn.linear_model import LogisticRegression

    from cvrepro.learners.keel_logistic import fit_logistic

    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(-1, 1, 150), rng.normal(1, 1, 100)])
    second = np.arange(250) >= 150
    model = fit_logistic(x, second)
    z = (x - x.mean()) / x.std(ddof=1)
    ref = LogisticRegression(C=1 / (2 * 1e-8), tol=1e-12, max_iter=10000).fit(z[:, None], second)
    slope = -ref.coef_[0, 0] / x.std(ddof=1)                       # P(class 0) = sigmoid(b0 + b1 x)
    intercept = -ref.intercept_[0] - slope * x.mean()
    assert model.b1 == pytest.approx(slope, rel=1e-5)          # the search stops at a scaled gradient of 1.5e-8
    assert model.b0 == pytest.approx(intercept, rel=1e-5)
    P = model.proba(x)
    assert np.allclose(P.sum(axis=1), 1.0)
