"""The pieces of WEKA 3.6.14 our Logistic, REPTree, RandomTree, Bagging and RandomForest rebuild,
checked against values printed by WEKA 3.6.14 on OpenJDK 17 (the Java calls are quoted in each test),
plus properties of the learners (optimum, batched path, bad input)."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners.bagging import Bagging, RandomForest, resample_with_weights
from cvrepro.learners.java import java_random_next_int, java_random_seed, randomize
from cvrepro.learners.java_math import java_log
from cvrepro.learners.logistic import WekaLogistic, gradient, objective, remove_useless, standardize
from cvrepro.learners.preprocessing import Schema, encode_target
from cvrepro.learners.random_tree import RandomTree, default_k, instance_text, tree_seed
from cvrepro.learners.reptree import REPTree
from cvrepro.learners.weka_format import double_to_string, java_double, java_string_hash, quote
from cvrepro.learners.weka_trees import cv_split, stratify, weka_sort


def test_java_log_is_strictmath_log():
    # StrictMath.log(x) for x = 0.5, 1.0000001, 3, 7.389, 1e-300, 123456.789, 0.9999999999, 2
    xs = [0.5, 1.0000001, 3.0, 7.389, 1e-300, 123456.789, 0.9999999999, 2.0]
    expected = [-0.6931471805599453, 9.999999505838704e-08, 1.0986122886681096, 1.9999924078065106,
                -690.7755278982137, 11.723646487185881, -1.000000082790371e-10, 0.6931471805599453]
    assert [java_log(x) for x in xs] == expected
    assert java_log(1.0) == 0.0 and java_log(0.0) == -math.inf and math.isnan(java_log(-1.0))


def test_weka_sort_is_utils_sort_unstable_with_nan_last():
    # Utils.sort({3, 1, 2, 1, NaN, 3, 0, 2, 1, 5, 3, 2, NaN, 0})
    v = np.array([3, 1, 2, 1, np.nan, 3, 0, 2, 1, 5, 3, 2, np.nan, 0])
    assert weka_sort(v).tolist() == [6, 13, 1, 3, 8, 11, 2, 7, 5, 10, 0, 9, 4, 12]


def _ids_data(n=11):
    """WEKA data set 'id' (0..n-1, numeric) with class (7 i) mod 3 in {x, y, z}."""
    X = pd.DataFrame({"id": np.arange(n, dtype=float)})
    y = pd.Series(pd.Categorical.from_codes((np.arange(n) * 7) % 3, ["x", "y", "z"]))
    return X, y


def test_resample_randomize_stratify_and_folds_are_wekas():
    # d.resampleWithWeights(new Random(1)); r = new Random(1); s.randomize(r); s.stratify(3);
    # s.trainCV(3, 0, r); s.testCV(3, 0)   (printing the ids)
    _, y = _ids_data()
    assert resample_with_weights(np.ones(11), java_random_seed(1)).tolist() == [8, 4, 2, 3, 10, 0, 10, 10, 10,
                                                                                  10, 4]
    state = java_random_seed(1)
    order = np.arange(11)
    randomize(order, state)
    stratify(order, y.cat.codes.to_numpy(), 3)
    assert order.tolist() == [0, 3, 8, 7, 9, 5, 10, 4, 6, 2, 1]
    train, test = cv_split(order, 3, 0)
    randomize(train, state)
    assert train.tolist() == [6, 1, 4, 9, 10, 5, 2] and test.tolist() == [0, 3, 8, 7]


def test_random_tree_seed_is_get_random_number_generator():
    # d.getRandomNumberGenerator(1).nextInt(1000) == 464; the instance it hashes prints as "4,y"
    X, y = _ids_data()
    schema, Xe = Schema.learn(X)
    classes, codes = encode_target(y)
    assert instance_text(Xe[4], codes[4], schema.nominal, schema.categories, list(classes)) == "4,y"
    seed = tree_seed(Xe, codes, 1, schema.nominal, schema.categories, list(classes))
    assert java_random_next_int(java_random_seed(seed), 1000) == 464
    assert java_string_hash("hello") == 99162322


def test_weka_number_formats():
    # Utils.doubleToString(x, 2), Utils.doubleToString(x, 12, 4), Double.toString(x)
    cases = [(0.125, "0.13", "      0.125 ", "0.125"), (2.675, "2.68", "      2.675 ", "2.675"),
             (-0.004, "0", "     -0.004 ", "-0.004"), (1234.5678, "1234.57", "   1234.5678", "1234.5678"),
             (1e-7, "0", "      0     ", "1.0E-7"), (3.0, "3", "      3     ", "3.0"),
             (0.995, "1", "      0.995 ", "0.995"), (-12.3456789, "-12.35", "    -12.3457", "-12.3456789"),
             (1e20, "1.0E20", "1.0E20", "1.0E20")]
    for x, two, aligned, java in cases:
        assert (double_to_string(x, 2), double_to_string(x, 4, 12), java_double(x)) == (two, aligned, java)
    assert quote("a b") == "'a b'" and quote("x") == "x" and quote("it's") == "'it\\'s'" and quote("?") == "'?'"


def test_random_forest_k_is_weka_3_6_14s():
    # 3.6.14 bytecode: (int) Utils.log2(numAttributes - 1) + 1
    assert [default_k(d) for d in (1, 2, 3, 7, 8, 15, 16, 60)] == [1, 2, 2, 3, 4, 4, 5, 6]


def test_logistic_reaches_the_ridge_optimum_scipy_finds():
    """Where the optimum is well defined (pima), WEKA's optimiser and scipy's L-BFGS-B agree."""
    ds = load_dataset("pima")
    model = WekaLogistic().fit(ds.X, ds.y)
    Z = model.filters_apply(model.schema_.encode(ds.X))
    data, mean, sd = standardize(Z, np.ones(len(Z)))
    cls = encode_target(ds.y)[1]
    w = np.ones(len(cls))
    res = minimize(objective, np.zeros(data.shape[1]), args=(data, cls, w, 1e-8, 1), jac=gradient,
                   method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-10, "maxiter": 10000})
    assert -model.log_likelihood_ <= res.fun + 1e-7
    scipy_par = res.x[1:] / sd[1:]
    assert np.allclose(model.coef_[1:, 0], scipy_par, rtol=1e-5, atol=1e-8)


def test_logistic_max_iter_stops_one_search_and_says_so():
    """WEKA's -M m: one search of at most m iterations (no restarts), ``converged_`` False when m stopped it;
    -M -1 restarts until the stopping rule fires (its probabilities: tests/fixtures/weka/Logistic*)."""
    ds = load_dataset("glass")
    capped, free = WekaLogistic(max_iter=20).fit(ds.X, ds.y), WekaLogistic().fit(ds.X, ds.y)
    assert (capped.n_iter_, capped.n_restarts_, capped.converged_) == (20, 0, False)
    assert free.converged_ and free.n_iter_ > 20
    roomy = WekaLogistic(max_iter=free.n_iter_ + 500).fit(ds.X, ds.y)
    assert roomy.converged_ and roomy.n_iter_ <= free.n_iter_ + 500


def test_logistic_filters_drop_useless_attributes_and_binarize():
    X = pd.DataFrame({"num": [1.0, 2.0, np.nan, 4.0, 5.0, 6.0],
                      "const": [3.0] * 6,
                      "colour": pd.Categorical(["r", "g", "b", "r", None, "g"], categories=["r", "g", "b"]),
                      "ident": pd.Categorical(list("abcdef")),
                      "flag": pd.Categorical(["t", "f", "t", "t", "f", "f"], categories=["t", "f"])})
    y = pd.Series(pd.Categorical(["p", "n", "p", "n", "p", "n"]))
    model = WekaLogistic().fit(X, y)
    assert model.attribute_names() == ["num", "colour=r", "colour=g", "colour=b", "flag"]
    assert remove_useless(np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([True, False])).tolist() == [False, False]
    assert np.allclose(model.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize("est", [WekaLogistic(), REPTree(), RandomTree(), Bagging(n_iterations=3),
                                 RandomForest(n_trees=3)], ids=lambda e: type(e).__name__)
def test_batched_folds_equal_fitting_each_fold(est):
    ds = load_dataset("vote")
    splits = list(StratifiedKFold(3, shuffle=True, random_state=1).split(ds.X, ds.y))
    batched = est.fit_predict_folds(ds.X, ds.y, splits, [est.get_params().get("random_state")] * 3,
                                    np.asarray(ds.y.cat.categories))
    for (train, test), P in zip(splits, batched):
        alone = clone(est).fit(ds.X.iloc[train], ds.y.iloc[train]).predict_proba(ds.X.iloc[test])
        assert np.array_equal(P, alone)


def test_seeds_change_the_randomised_learners():
    ds = load_dataset("glass")
    train, test = np.arange(0, 214, 2), np.arange(1, 214, 2)
    X, y, Xt = ds.X.iloc[train], ds.y.iloc[train], ds.X.iloc[test]
    for make in (lambda s: REPTree(random_state=s), lambda s: RandomTree(random_state=s),
                 lambda s: Bagging(random_state=s), lambda s: RandomForest(random_state=s)):
        a, b = make(1).fit(X, y), make(2).fit(X, y)
        assert not np.array_equal(a.predict_proba(Xt), b.predict_proba(Xt))
        assert np.array_equal(a.predict_proba(Xt), make(1).fit(X, y).predict_proba(Xt))


def test_bad_options_and_inputs_are_named():
    ds = load_dataset("iris")
    with pytest.raises(ValueError, match="ridge"):
        WekaLogistic(ridge=-1).fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="max_iter"):
        WekaLogistic(max_iter=0).fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="num_folds"):
        REPTree(num_folds=1).fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="random_state"):
        RandomTree(random_state="a").fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="n_iterations"):
        Bagging(n_iterations=0).fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="n_trees"):
        RandomForest(n_trees=0).fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="pruning folds need at least 3"):
        REPTree().fit(ds.X.iloc[:2], ds.y.iloc[[0, 100]])
    assert np.isfinite(WekaLogistic(max_iter=3).fit(ds.X, ds.y).predict_proba(ds.X)).all()


def test_missing_values_follow_the_branch_proportions():
    """A row missing the root's attribute gets the branches' predictions weighted by their training share."""
    ds = load_dataset("vote")
    tree = REPTree(pruning=False).fit(ds.X, ds.y)
    flat = tree.model_.tree
    col = ds.X.columns[flat.attribute[0]]
    cats = ds.X[col].cat.categories
    row = ds.X.iloc[[5]].copy()
    row[col] = pd.Categorical([None], categories=cats)
    expected = np.zeros(2)
    for b, value in enumerate(cats):
        filled = row.copy()
        filled[col] = pd.Categorical([value], categories=cats)
        expected += flat.prop[0, b] * tree.predict_proba(filled)[0]
    assert 0 < flat.prop[0].max() < 1
    assert np.allclose(tree.predict_proba(row)[0], expected)


# WEKA 3.6.14's Optimization.updateCholeskyFactor and solveTriangle, transcribed loop for loop (L lower
# triangular, L[r][j], as in the Java), the reference for the restructured kernels of cvrepro.learners.logistic.
def _weka_update(L, D, v, coeff):
    n = len(v)
    vp = list(v)
    if coeff > 0.0:
        t = coeff
        for j in range(n):
            p, d = vp[j], D[j]
            dbarj = d + t * p * p
            D[j] = dbarj
            b = p * t / dbarj
            t *= d / dbarj
            for r in range(j + 1, n):
                el = L[r][j]
                vp[r] -= p * el
                L[r][j] = el + b * vp[r]
        return
    P = _weka_solve(L, list(v), True)
    t = 0.0
    for i in range(n):
        t += P[i] * P[i] / D[i]
    root = 1.0 + coeff * t
    root = 0.0 if root < 0.0 else np.sqrt(root)
    alpha, sigma = coeff, coeff / (1.0 + root)
    for j in range(n):
        d = D[j]
        p = P[j] * P[j] / d
        theta = 1.0 + sigma * p
        t = max(t - p, 0.0)
        plus = sigma * sigma * p * t
        if j < n - 1 and plus <= 1.4901161193847656e-08:
            plus = 1.4901161193847656e-08
        rho = theta * theta + plus
        D[j] = rho * d
        b = alpha * P[j] / (rho * d)
        alpha /= rho
        rho = np.sqrt(rho)
        sigma *= (1.0 + rho) / (rho * (theta + rho))
        for r in range(j + 1, n):
            el = L[r][j]
            vp[r] -= P[j] * el
            L[r][j] = el + b * vp[r]


def _weka_solve(T, b, lower):
    n, out = len(b), [0.0] * len(b)
    for j in (range(n) if lower else range(n - 1, -1, -1)):
        num = b[j]
        for k in (range(j) if lower else range(j + 1, n)):
            num -= (T[j][k] if lower else T[k][j]) * out[k]
        out[j] = num / T[j][j]
    return out


@pytest.mark.parametrize("c1", [0.7, 0.0])          # 0.0: WEKA's coeff <= 0 branch for the first update
def test_logistic_bfgs_step_is_wekas_update_update_solve_solve(c1):
    """The fused sweeps over the packed factor give WEKA's L, D and search direction bit for bit."""
    from cvrepro.learners.logistic import _update_and_direction, _update_cholesky
    n, rng = 23, np.random.default_rng(5)
    L, D = np.eye(n).tolist(), [1.0] * n
    U = np.zeros(n * (n + 1) // 2)
    U[[j * n - j * (j - 1) // 2 for j in range(n)]] = 1.0
    Dp = np.ones(n)
    for _ in range(4):                                   # a factor with full rows
        v = rng.normal(size=n)
        _weka_update(L, D, v.tolist(), 0.9)
        _update_cholesky(U, Dp, v, 0.9)
    dgrad, old_grad, grad = rng.normal(size=n), rng.normal(size=n), rng.normal(size=n)
    _weka_update(L, D, dgrad.tolist(), c1)
    _weka_update(L, D, old_grad.tolist(), -0.01)
    LD = [[L[j][k] * D[k] for k in range(n)] for j in range(n)]
    direct = _weka_solve(L, _weka_solve(LD, (-grad).tolist(), True), False)
    ours = _update_and_direction(U, Dp, dgrad, c1, old_grad, -0.01, grad)
    assert ours.tolist() == direct and Dp.tolist() == D
    assert U.tolist() == [L[r][j] for j in range(n) for r in range(j, n)]


def test_logistic_gradient_after_objective_elsewhere_is_the_fresh_gradient():
    """The kept exponentials serve only the point they were computed at."""
    from cvrepro.learners.logistic import _evaluate, _gradient, _workspace
    rng = np.random.default_rng(2)
    data, cls, w = rng.normal(size=(40, 5)), rng.integers(0, 3, 40), np.ones(40)
    x, y = rng.normal(size=10), rng.normal(size=10)
    ws = _workspace(40, 5, 2)
    assert _evaluate(x, data, cls, w, 1e-8, 2, ws) == objective(x, data, cls, w, 1e-8, 2)
    assert np.array_equal(_gradient(y, data, cls, w, 1e-8, 2, ws), gradient(y, data, cls, w, 1e-8, 2))
    assert np.array_equal(_gradient(x, data, cls, w, 1e-8, 2, ws), gradient(x, data, cls, w, 1e-8, 2))
    assert _evaluate(y, data, cls, w, 1e-8, 2, ws) == objective(y, data, cls, w, 1e-8, 2)
