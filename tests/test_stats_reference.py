"""Cross-checks on random inputs against reference implementations: scipy,
statsmodels (McNemar, Holm), mlxtend (5x2cv tests), scikit-posthocs (Nemenyi)."""
import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from mlxtend.evaluate import combined_ftest_5x2cv as mlx_ftest
from mlxtend.evaluate import paired_ttest_5x2cv as mlx_ttest
from scipy import stats
from sklearn.dummy import DummyClassifier
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

from cvrepro.stats import (
    bonferroni_dunn_test,
    combined_ftest_5x2cv,
    contingency_table,
    corrected_repeated_kfold_ttest,
    corrected_resampled_ttest,
    friedman_test,
    holm,
    holm_test,
    mcnemar,
    nemenyi_test,
    paired_ttest,
    paired_ttest_5x2cv,
    rank_scores,
    sign_test,
    wilcoxon_signed_rank,
)

SEEDS = range(8)


@pytest.mark.parametrize("seed", SEEDS)
def test_mcnemar_matches_statsmodels(seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 40, size=(2, 2))
    table[0, 1] += 1  # at least one discordant pair
    for exact, correction in [(True, True), (False, True), (False, False)]:
        ours = mcnemar(table, exact=exact, correction=correction)
        ref = sm_mcnemar(table, exact=exact, correction=correction)
        assert ours.statistic == pytest.approx(ref.statistic)
        assert ours.pvalue == pytest.approx(ref.pvalue)


def test_contingency_table_counts():
    y = np.array([0, 0, 1, 1, 1, 0])
    a = np.array([0, 1, 1, 1, 0, 0])  # right, wrong, right, right, wrong, right
    b = np.array([0, 0, 0, 1, 0, 1])  # right, right, wrong, right, wrong, wrong
    np.testing.assert_array_equal(contingency_table(y, a, b), [[2, 2], [1, 1]])


class _ScriptedScorer:
    """Feeds prescribed fold scores to mlxtend in the order it asks for them."""

    def __init__(self, est_a, scores_a, scores_b):
        self.est_a = est_a
        self.queue = {True: list(scores_a.ravel()), False: list(scores_b.ravel())}

    def __call__(self, estimator, X, y):
        return self.queue[estimator is self.est_a].pop(0)


@pytest.mark.parametrize("seed", SEEDS)
def test_5x2cv_tests_match_mlxtend(seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.6, 0.9, size=(5, 2))
    b = a + rng.normal(0.01, 0.03, size=(5, 2))
    X, y = np.zeros((20, 1)), np.tile([0, 1], 10)
    est_a, est_b = DummyClassifier(), DummyClassifier()
    t_ref = mlx_ttest(est_a, est_b, X, y, scoring=_ScriptedScorer(est_a, a, b), random_seed=1)
    f_ref = mlx_ftest(est_a, est_b, X, y, scoring=_ScriptedScorer(est_a, a, b), random_seed=1)
    t, f = paired_ttest_5x2cv(a, b), combined_ftest_5x2cv(a, b)
    assert (t.statistic, t.pvalue) == pytest.approx(t_ref)
    assert (f.statistic, f.pvalue) == pytest.approx(f_ref)
    assert (t.df, f.df_num, f.df_den) == (5, 10, 5)


@pytest.mark.parametrize("seed", SEEDS)
def test_nemenyi_matches_scikit_posthocs(seed):
    rng = np.random.default_rng(seed)
    k, n = 3 + seed % 4, 8 + seed
    scores = pd.DataFrame(rng.normal(size=(n, k)) + np.linspace(0, 1, k),
                          columns=[f"L{j}" for j in range(k)])
    ref = sp.posthoc_nemenyi_friedman(scores.to_numpy())
    ours = nemenyi_test(scores)
    np.testing.assert_allclose(ours.pvalue.to_numpy(), ref.to_numpy(), atol=1e-10)
    cd = ours.critical_difference
    gaps = np.abs(ours.average_ranks.to_numpy()[:, None] - ours.average_ranks.to_numpy())
    np.testing.assert_array_equal(ours.reject.to_numpy(), gaps > cd + 1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_friedman_matches_scipy_without_ties(seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(6 + seed, 3 + seed % 3))
    ours = friedman_test(scores)
    ref = stats.friedmanchisquare(*scores.T)
    assert ours.statistic == pytest.approx(ref.statistic)
    assert ours.pvalue == pytest.approx(ref.pvalue)
    n, k = scores.shape
    f = (n - 1) * ref.statistic / (n * (k - 1) - ref.statistic)
    assert ours.iman_davenport == pytest.approx(f)
    assert ours.iman_davenport_pvalue == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))


@pytest.mark.parametrize("seed", SEEDS)
def test_holm_and_bonferroni_match_statsmodels(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.2, size=6)
    adjusted, reject = holm(p, 0.05)
    ref_reject, ref_adjusted, _, _ = multipletests(p, 0.05, method="holm")
    np.testing.assert_allclose(adjusted, ref_adjusted)
    np.testing.assert_array_equal(reject, ref_reject)

    scores = pd.DataFrame(rng.normal(size=(12, 4)) + [0, 0.3, 0.6, 1.2], columns=list("abcd"))
    h, bd = holm_test(scores, "d"), bonferroni_dunn_test(scores, "d")
    raw = 2 * stats.norm.sf(np.abs(h.statistic))
    np.testing.assert_allclose(h.pvalue, multipletests(raw, method="holm")[1])
    np.testing.assert_allclose(bd.pvalue, multipletests(raw, method="bonferroni")[1])
    # Bonferroni-Dunn rejects exactly where the rank gap exceeds its CD.
    gap = (bd.average_ranks.drop("d") - bd.average_ranks["d"]).abs()
    np.testing.assert_array_equal(bd.reject, gap > bd.critical_difference)


@pytest.mark.parametrize("seed", SEEDS)
def test_ttests_against_scipy_and_formula(seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.7, 0.9, size=20)
    b = a + rng.normal(0.005, 0.02, size=20)
    ref = stats.ttest_rel(a, b)
    plain = paired_ttest(a, b)
    assert (plain.statistic, plain.pvalue, plain.df) == pytest.approx((ref.statistic, ref.pvalue, 19))
    zero = corrected_resampled_ttest(a, b, 0.0)
    assert (zero.statistic, zero.pvalue) == pytest.approx((ref.statistic, ref.pvalue))
    # Nadeau & Bengio with n_test / n_train = 1/9: 10 x 10-fold CV.
    d = a - b
    t = d.mean() / np.sqrt((1 / 20 + 1 / 9) * d.var(ddof=1))
    nb = corrected_resampled_ttest(a, b, 1 / 9)
    assert nb.statistic == pytest.approx(t)
    assert nb.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 19))
    rk = corrected_repeated_kfold_ttest(a.reshape(2, 10), b.reshape(2, 10), n_folds=10)
    assert (rk.statistic, rk.pvalue) == pytest.approx((nb.statistic, nb.pvalue))
    assert abs(nb.statistic) < abs(plain.statistic)  # the correction widens the variance
    one_sided = corrected_resampled_ttest(a, b, 1 / 9, alternative="less")
    expected = nb.pvalue / 2 if t < 0 else 1 - nb.pvalue / 2
    assert one_sided.pvalue == pytest.approx(expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_wilcoxon_rank_sums_agree_with_scipy(seed):
    rng = np.random.default_rng(seed)
    a = np.round(rng.uniform(0.6, 0.9, size=15), 2)
    b = np.round(a + rng.normal(0, 0.03, size=15), 2)
    for zero_method in ("wilcox", "zsplit", "pratt"):
        ours = wilcoxon_signed_rank(a, b, zero_method=zero_method)
        d = np.round(a - b, 10)
        if zero_method == "zsplit" and np.sum(d == 0) % 2:   # Demsar: one of an odd number of zeros is ignored
            d = np.delete(d, np.flatnonzero(d == 0)[0])
        ref = stats.wilcoxon(d, zero_method=zero_method)
        assert ours.pvalue == pytest.approx(ref.pvalue)
        greater = stats.wilcoxon(d, zero_method=zero_method, alternative="greater")
        assert ours.r_plus == pytest.approx(greater.statistic)
        m = np.sum(d != 0) if zero_method == "wilcox" else d.size
        total = ours.r_plus + ours.r_minus
        if zero_method == "pratt":  # the zeros' ranks are dropped
            assert total == m * (m + 1) / 2 - stats.rankdata(np.abs(d))[d == 0].sum()
        else:
            assert total == m * (m + 1) / 2


@pytest.mark.parametrize("seed", SEEDS)
def test_sign_test_matches_binomtest(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 5, size=14).astype(float)
    b = rng.integers(0, 5, size=14).astype(float)
    d = a - b
    pos, neg, ties = (d > 0).sum(), (d < 0).sum(), (d == 0).sum()
    res = sign_test(a, b)
    assert (res.wins_a, res.wins_b, res.ties) == (pos + ties / 2, neg + ties / 2, ties)
    ref = stats.binomtest(int(pos + ties // 2), int(14 - ties % 2), 0.5)
    assert res.pvalue == pytest.approx(ref.pvalue)


@pytest.mark.parametrize("seed", SEEDS)
def test_tolerant_ranking_agrees_with_scipy_rankdata(seed):
    """With a tiny tolerance the single-linkage tie groups are scipy's exact ties."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.uniform(size=(5, 6)), 1)  # plenty of exact ties
    expected = stats.rankdata(-scores, axis=1)
    np.testing.assert_array_equal(rank_scores(scores, tie_tolerance=1e-6).to_numpy(), expected)
    np.testing.assert_array_equal(rank_scores(scores).to_numpy(), expected)
