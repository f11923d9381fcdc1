"""WEKA NaiveBayes -K: kernels, widths and posteriors against WEKA's own printout."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.base import clone
from sklearn.model_selection import KFold

from cvrepro.datasets import load_dataset
from cvrepro.learners import naive_bayes
from cvrepro.learners.naive_bayes import WekaNaiveBayes, _kernel_prob, attribute_precision


def _kernel(model, j, c):
    values, weights, offsets, sumw, sd, prec = model.estimators_[j][1]
    a, b = offsets[c], offsets[c + 1]
    return values[a:b], weights[a:b], sumw[c], sd[c], prec


def test_kernels_match_weka_model_printout_on_labor():
    ds = load_dataset("labor")
    model = WekaNaiveBayes(kernel=True).fit(ds.X, ds.y)
    j = list(ds.X.columns).index("wage-increase-first-year")
    # WEKA 3.6.14 `NaiveBayes -K -t labor.arff` prints for this attribute:
    # precision 0.3125; bad: std. dev 0.559, 8 kernels; good: std. dev 0.8333, 13 kernels
    v, w, W, sd, prec = _kernel(model, j, 0)
    assert prec == pytest.approx(0.3125)
    assert sd == pytest.approx(0.559, abs=5e-4) and len(v) == 8
    assert list(v[:3]) == pytest.approx([1.875, 2.1875, 2.5]) and list(w[:3]) == [8, 1, 4]
    v, w, W, sd, prec = _kernel(model, j, 1)
    assert sd == pytest.approx(0.8333, abs=5e-4) and len(v) == 13
    assert list(v[-2:]) == pytest.approx([6.25, 6.875]) and list(w[-2:]) == [1, 2]
    # posteriors WEKA prints for the first training instances (-T labor.arff -p 0 -distribution)
    good = model.predict_proba(ds.X.iloc[:7])[:, 1]
    assert good == pytest.approx([0.656, 1, 0.985, 1, 1, 0.49, 1], abs=6e-4)


def test_kernel_density_is_wekas_formula():
    # few kernels close together: WEKA's early stop never triggers, so the value is the full sum
    values, weights = np.array([1.0, 1.5, 2.5]), np.array([2.0, 1.0, 3.0])
    W, prec, sd = 6.0, 0.5, 1.5 / np.sqrt(6.0)
    for x in [0.2, 1.5, 1.9, 3.3]:
        direct = np.sum(weights * (norm.cdf((values - x + prec / 2) / sd)
                                   - norm.cdf((values - x - prec / 2) / sd))) / W
        assert _kernel_prob(x, values, weights, W, sd, prec) == pytest.approx(direct, rel=1e-12)
    # many kernels: the early stop (MAX_ERROR = 0.01) keeps the value within a few percent
    rng = np.random.default_rng(0)
    values = np.unique(np.round(rng.normal(size=300), 2))
    weights = np.ones_like(values)
    W, prec = len(values), 0.01
    sd = (values[-1] - values[0]) / np.sqrt(W)
    x = 0.3
    direct = np.sum(norm.cdf((values - x + prec / 2) / sd) - norm.cdf((values - x - prec / 2) / sd)) / W
    assert _kernel_prob(x, values, weights, W, sd, prec) == pytest.approx(direct, rel=0.03)


def test_precision_sd_and_nominal_laplace_counts():
    col = np.array([0.0, 0.5, 0.5, 2.0, np.nan])
    assert attribute_precision(col) == pytest.approx(1.0)           # (2 - 0) / (3 - 1)
    assert attribute_precision(np.array([3.0, 3.0])) == 0.01          # WEKA's default
    X = pd.DataFrame({"a": pd.Categorical(["u", "u", "v", np.nan, "w"], categories=["u", "v", "w"]),
                      "b": [1.0, 1.0, 1.0, 2.0, 4.0]})
    y = pd.Series(pd.Categorical(["p", "p", "p", "q", "q"], categories=["p", "q"]))
    model = WekaNaiveBayes().fit(X, y)
    assert model.prior_ == pytest.approx([4 / 7, 3 / 7])
    # class p: a = u, u, v -> (2+1, 1+1, 0+1) / (3 + 3); class q: only w known -> (1, 1, 2) / 4
    assert model.estimators_[0][1] == pytest.approx(np.array([[3, 2, 1], [1, 1, 2]]) / np.array([[6], [4]]))
    v, w, W, sd, prec = _kernel(model, 1, 0)
    assert prec == pytest.approx(1.5)                                 # (4 - 1) / (3 - 1)
    assert sd == pytest.approx(1.5 / 6)                               # one rounded value: precision / 6
    v, w, W, sd, prec = _kernel(model, 1, 1)
    assert sd == pytest.approx(max(3.0 / np.sqrt(2), 0.25))           # rounded 1.5 and 4.5


def test_missing_values_are_skipped():
    ds = load_dataset("labor")
    model = WekaNaiveBayes().fit(ds.X, ds.y)
    row = ds.X.iloc[[0]].copy()
    all_missing = row.copy()
    all_missing.iloc[0, :] = np.nan
    assert model.predict_proba(all_missing)[0] == pytest.approx(model.prior_)


def _per_fold(est, X, y, splits, classes):
    """Reference: fit and predict each split alone, columns placed by classes."""
    out = []
    for train, test in splits:
        m = clone(est).fit(X.iloc[train], y.iloc[train])
        full = np.zeros((len(test), len(classes)))
        full[:, [list(classes).index(c) for c in m.classes_]] = m.predict_proba(X.iloc[test])
        out.append(full)
    return out


def _awkward_data():
    """Integer, binary and continuous values, missing cells, an attribute known in 3 rows only, one
    constant in most training folds, far outliers (densities floored at 1e-75, products rescaled),
    a declared class no row has, and a class only in rows 0-2 (absent from the last training fold)."""
    rng = np.random.default_rng(1)
    n = 80
    y = pd.Series(pd.Categorical(rng.choice(["a", "b"], n), categories=["a", "b", "c", "unused"]))
    y.iloc[:3] = "c"
    X = pd.DataFrame({f"int{j}": rng.integers(0, 6, n).astype(float) for j in range(3)})
    X["cont"] = rng.normal(size=n).round(3) + (y == "b") * 1.5
    X["nom"] = pd.Categorical(rng.choice(["u", "v", "w"], n), categories=["u", "v", "w", "z"])
    X["rare"] = np.nan
    X.loc[[5, 40, 41], "rare"] = [0.5, 2.0, 7.0]
    X["bin"] = rng.integers(0, 2, n).astype(float)
    X["const"] = 3.0                                  # but near 3 in rows 0-2
    X.loc[:2, "const"] = [3.004, 2.999, 3.0]
    X = X.mask(rng.random(X.shape) < 0.1)
    far = pd.DataFrame({f"far{j}": rng.normal(size=n) for j in range(30)})
    far.iloc[:6] = 1e6
    splits = [s for it in range(2) for s in KFold(4, shuffle=True, random_state=it).split(X)]
    return pd.concat([X, far], axis=1), y, splits + [(np.arange(3, n), np.arange(3))]


@pytest.mark.parametrize("kernel", [True, False])
@pytest.mark.parametrize("name", ["labor", "awkward", "labor, over the memory budget", "pima"])
def test_fit_predict_folds_is_bit_identical_to_fold_by_fold(name, kernel, monkeypatch):
    if name.endswith("budget"):
        monkeypatch.setattr(naive_bayes, "MEMORY_BUDGET", 1)     # falls back to fitting fold by fold
    if name == "awkward":
        X, y, splits = _awkward_data()
    else:
        ds = load_dataset(name.split(",")[0])
        X, y = ds.X, ds.y
        splits = [s for it in range(2) for s in KFold(4, shuffle=True, random_state=it).split(X)]
    est = WekaNaiveBayes(kernel=kernel)
    # categorical y keeps its declared classes in every fold; plain labels only those a fold has
    for labels in [y, y.astype(str)]:
        classes = np.unique(labels) if labels is not y else y.cat.categories
        got = est.fit_predict_folds(X, labels, splits, [0] * len(splits), classes)
        for g, w in zip(got, _per_fold(est, X, labels, splits, classes)):
            np.testing.assert_array_equal(g, w)

