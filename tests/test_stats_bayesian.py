"""The Bayesian correlated t-test: against baycomp (the reference implementation), against the
corrected repeated k-fold t-test it shares its statistic with, and on bad input."""
import baycomp
import numpy as np
import pytest
from scipy import stats

from cvrepro.stats import bayesian_correlated_ttest, corrected_repeated_kfold_ttest


def _scores(seed, r=10, k=10, shift=0.01):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.7, 0.9, size=r * k)
    a = base + rng.normal(shift, 0.02, size=r * k)
    b = base + rng.normal(0.0, 0.02, size=r * k)
    return a, b


@pytest.mark.parametrize("seed,r,k,rope", [(0, 10, 10, 0.01), (1, 1, 10, 0.005), (2, 5, 2, 0.02),
                                            (3, 3, 30, 0.0), (4, 10, 10, 0.05)])
def test_probabilities_equal_baycomps(seed, r, k, rope):
    a, b = _scores(seed, r, k)
    ours = bayesian_correlated_ttest(a, b, k, rope=rope)
    # baycomp's difference is y - x: with x = b, y = a it is a - b, and p_right is "a better"
    theirs = baycomp.two_on_single(b, a, rope=rope, runs=r)
    if rope == 0:
        left, right = theirs
        assert ours.p_rope == pytest.approx(0.0, abs=1e-12)
    else:
        left, middle, right = theirs
        assert ours.p_rope == pytest.approx(middle, abs=1e-12)
    assert ours.p_a_better == pytest.approx(right, abs=1e-12)
    assert ours.p_b_better == pytest.approx(left, abs=1e-12)
    post = baycomp.CorrelatedTTest(b, a, rope=rope, runs=r)
    assert ours.mean_difference == pytest.approx(post.mean, rel=1e-12)
    assert ours.scale ** 2 == pytest.approx(post.var, rel=1e-12)
    assert ours.df == post.df


def test_without_rope_it_is_the_one_sided_corrected_t_test():
    a, b = _scores(7, r=10, k=10, shift=0.004)
    bayes = bayesian_correlated_ttest(a, b, 10)
    t = corrected_repeated_kfold_ttest(a, b, 10, alternative="greater")
    assert bayes.p_b_better == pytest.approx(t.pvalue, rel=1e-10)   # P(a - b < 0) = one-sided p of "a > b"
    assert bayes.scale == pytest.approx(t.std_error, rel=1e-12)
    assert bayes.posterior.cdf(0) == pytest.approx(bayes.p_b_better, rel=1e-12)


def test_worked_numbers():
    # two scores per fold, 1 x 2-fold: d = (0.1, 0.3), mean 0.2, var 0.02, scale sqrt((1/2 + 1) 0.02)
    res = bayesian_correlated_ttest([0.9, 0.8], [0.8, 0.5], 2, rope=0.05)
    scale = np.sqrt(1.5 * 0.02)
    assert res.mean_difference == pytest.approx(0.2) and res.scale == pytest.approx(scale) and res.df == 1
    assert res.p_a_better == pytest.approx(stats.t.sf((0.05 - 0.2) / scale, 1))
    assert res.p_b_better == pytest.approx(stats.t.cdf((-0.05 - 0.2) / scale, 1))


def test_decisions():
    a, b = _scores(11, shift=0.05)
    assert bayesian_correlated_ttest(a, b, 10, rope=0.01).decision() == "a"
    assert bayesian_correlated_ttest(b, a, 10, rope=0.01).decision() == "b"
    same = np.linspace(0.8, 0.9, 100)
    tiny = same + np.tile([1e-4, -1e-4], 50)
    assert bayesian_correlated_ttest(same, tiny, 10, rope=0.01).decision() == "equivalent"
    close = bayesian_correlated_ttest(*_scores(3, r=1, k=10, shift=0.0), 10, rope=0.01)
    assert close.decision(0.99) in ("undecided", "equivalent")
    with pytest.raises(ValueError, match="threshold"):
        close.decision(1.0)


def test_bad_input_is_a_clear_error():
    a, b = _scores(0)
    with pytest.raises(ValueError, match="zero variance"):
        bayesian_correlated_ttest(a, a, 10)
    with pytest.raises(ValueError, match="r x 10"):
        bayesian_correlated_ttest(a[:15], b[:15], 10)
    with pytest.raises(ValueError, match="n_folds"):
        bayesian_correlated_ttest(a, b, 1)
    with pytest.raises(ValueError, match="rope"):
        bayesian_correlated_ttest(a, b, 10, rope=-0.1)
    with pytest.raises(ValueError, match="equal length"):
        bayesian_correlated_ttest(a, b[:50], 10)
    with pytest.raises(ValueError, match="NaN"):
        bayesian_correlated_ttest(np.r_[a[:-1], np.nan], b, 10)
