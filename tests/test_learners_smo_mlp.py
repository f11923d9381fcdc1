"""SMO and MultilayerPerceptron against WEKA 3.6.14's own output on weather.numeric."""
import math

import numpy as np
import pytest

from cvrepro.datasets import load_dataset
from cvrepro.learners.java import JavaRandom, java_exp
from cvrepro.learners.mlp import WekaMLP
from cvrepro.learners.smo import SMO, pairwise_coupling


def test_java_random_matches_java():
    # jshell: new Random(0) -> nextDouble, nextInt(10), nextInt(7), nextInt(16), nextInt()
    r = JavaRandom(0)
    assert r.next_double() == 0.730967787376657
    assert [r.next_int(10), r.next_int(7), r.next_int(16)] == [9, 2, 10]
    assert r._next(32) == 1327362106
    r = JavaRandom(42)
    assert r.next_double() == 0.7275636800328681 and r.next_int(1000) == 248


def test_java_exp_is_strictmath_exp():
    # java.lang.StrictMath.exp (fdlibm) at arguments where the C library's exp differs in the last bit
    cases = [(-5.7744670227102635, 0.0031058525664791935), (-8.028549152229672, 0.0003260208726121042),
             (9.388200339328929, 11946.580183962655), (0.0837551723629879, 1.0873626447906979),
             (3.3460962927974176, 28.39168421040808), (-6.60071386548654, 0.0013593972642988806)]
    for x, expected in cases:
        assert java_exp(x) == expected
    assert java_exp(0.0) == 1.0 and java_exp(1e-10) == 1.0 + 1e-10 and java_exp(800.0) == math.inf
    assert java_exp(-800.0) == 0.0 and math.isnan(java_exp(math.nan))


def test_mlp_reproduces_weka_distribution():
    # MultilayerPerceptron -H 3 -t weather.numeric.arff -T weather.numeric.arff -p 0 -distribution
    weka_yes = [0.062, 0.063, 0.998, 0.956, 0.971, 0.071, 1, 0.062, 0.977, 0.965, 0.899, 0.993, 1, 0.046]
    ds = load_dataset("weather-numeric")
    model = WekaMLP(hidden_layers="3", random_state=0).fit(ds.X, ds.y)
    yes = list(model.classes_).index("yes")
    assert model.predict_proba(ds.X)[:, yes] == pytest.approx(weka_yes, abs=6e-4)
    other_seed = WekaMLP(hidden_layers="3", random_state=1).fit(ds.X, ds.y).predict_proba(ds.X)
    assert not np.allclose(other_seed[:, yes], weka_yes, atol=1e-3)


def test_mlp_hidden_layer_sizes():
    ds = load_dataset("weather-numeric")      # 6 inputs after NominalToBinary, 2 classes
    assert WekaMLP(hidden_layers="a", epochs=1).fit(ds.X, ds.y).W1_.shape == (4, 7)
    assert WekaMLP(hidden_layers="3", epochs=1).fit(ds.X, ds.y).W1_.shape == (3, 7)
    assert WekaMLP(hidden_layers="0", epochs=1).fit(ds.X, ds.y).W2_.shape == (2, 7)
    with pytest.raises(ValueError, match="hidden_layers"):
        WekaMLP(hidden_layers="3,2").fit(ds.X, ds.y)


def test_smo_weights_and_hard_vote_match_weka():
    ds = load_dataset("weather-numeric")
    model = SMO().fit(ds.X, ds.y)
    # WEKA SMO on weather.numeric: weights on normalised, binarized attributes, then bias
    weka_w = [0.8436, -0.9535, 0.1099, 0.5276, 0.771, -0.8901]
    w, b = model.machines_[(0, 1)]
    assert w == pytest.approx(weka_w, abs=5e-5)                      # WEKA prints 4 decimals
    assert b == pytest.approx(0.8683, abs=5e-5)
    P = model.predict_proba(ds.X)
    assert set(np.unique(P)) <= {0.0, 1.0}                           # hard vote without -M


def test_smo_symmetric_margin_and_calibrated_option():
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    y = np.array(["a", "a", "b", "b"])
    model = SMO().fit(X, y)
    assert list(model.predict([[1.9], [2.1]])) == ["a", "b"]
    P = SMO(probability=True).fit(X, y).predict_proba([[0.0], [1.9], [2.1], [4.0]])[:, 0]
    assert np.all(np.diff(P) < 0) and P[1] > 0.5 > P[2]


def test_pairwise_coupling_recovers_consistent_probabilities():
    p = np.array([0.5, 0.3, 0.2])
    r = p[:, None] / (p[:, None] + p[None, :])
    n = np.ones((3, 3))
    assert pairwise_coupling(n, r, tol=1e-10) == pytest.approx(p, abs=1e-6)


@pytest.mark.parametrize("probability", [False, True])
def test_smo_with_one_class_gives_it_probability_one(probability):
    """No pair to vote on: the one class seen gets probability 1 (not 0/0 = NaN)."""
    X = np.random.default_rng(0).random((10, 2))
    with np.errstate(all="raise"):
        proba = SMO(probability=probability).fit(X, np.zeros(10, int)).predict_proba(X[:3])
    assert np.array_equal(proba, np.ones((3, 1)))
