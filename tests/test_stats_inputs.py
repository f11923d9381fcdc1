"""Bad input gives a clear error or a documented result, never a silent p-value."""
import numpy as np
import pandas as pd
import pytest

from cvrepro import stats as cs

A = [0.81, 0.79, 0.84, 0.80, 0.83]
B = [0.78, 0.80, 0.82, 0.77, 0.80]
PAIRED = [cs.paired_ttest, cs.sign_test, cs.wilcoxon_signed_rank,
          lambda a, b: cs.corrected_resampled_ttest(a, b, 0.25),
          lambda a, b: cs.cohens_d(a, b, paired_samples=True)]


@pytest.mark.parametrize("test", PAIRED)
def test_unequal_lengths(test):
    with pytest.raises(ValueError, match="equal length"):
        test(A, B[:-1])


@pytest.mark.parametrize("test", PAIRED)
def test_nan_scores(test):
    with pytest.raises(ValueError, match="NaN"):
        test(A[:-1] + [np.nan], B)


@pytest.mark.parametrize("test", PAIRED)
def test_single_pair(test):
    with pytest.raises(ValueError, match="at least 2"):
        test(A[:1], B[:1])


@pytest.mark.parametrize("test", [cs.paired_ttest, cs.wilcoxon_signed_rank,
                                  lambda a, b: cs.corrected_resampled_ttest(a, b, 0.25)])
def test_all_zero_differences_are_an_error(test):
    with pytest.raises(ValueError, match="zero"):
        test(A, A)


def test_all_zero_differences_sign_test_documented_result():
    res = cs.sign_test(A, A)
    assert (res.wins_a, res.wins_b, res.ties, res.pvalue) == (2.5, 2.5, 5, 1.0)


def test_constant_nonzero_differences_are_an_error():
    with pytest.raises(ValueError, match="zero variance"):
        cs.paired_ttest(A, np.array(A) - 0.01)


def test_5x2_shape_and_degenerate_variance():
    with pytest.raises(ValueError, match=r"shape \(5, 2\)"):
        cs.paired_ttest_5x2cv(np.zeros((2, 5)), np.zeros((2, 5)))
    a = np.full((5, 2), 0.8)
    with pytest.raises(ValueError, match="variance estimate is zero"):
        cs.combined_ftest_5x2cv(a, a - 0.01)


def test_repeated_kfold_needs_whole_repetitions():
    with pytest.raises(ValueError, match="r x 10"):
        cs.corrected_repeated_kfold_ttest(np.arange(15.0), np.arange(15.0) ** 2, n_folds=10)


def test_mcnemar_bad_tables_and_no_discordant_pairs():
    with pytest.raises(ValueError, match="2 x 2"):
        cs.mcnemar(np.ones((3, 2)))
    with pytest.raises(ValueError, match="non-negative integer"):
        cs.mcnemar([[1, -2], [3, 4]])
    res = cs.mcnemar([[10, 0], [0, 5]])
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("test", [cs.friedman_test, cs.nemenyi_test,
                                  lambda s: cs.holm_test(s, "learner_0"),
                                  lambda s: cs.bonferroni_dunn_test(s, "learner_0")])
def test_multiple_comparisons_need_two_datasets_and_no_nan(test):
    with pytest.raises(ValueError, match="at least 2 data sets"):
        test(np.array([[0.8, 0.7, 0.9]]))
    with pytest.raises(ValueError, match="NaN"):
        test(np.array([[0.8, 0.7, 0.9], [0.8, np.nan, 0.6]]))
    with pytest.raises(ValueError, match="2-d"):
        test(np.array([0.8, 0.7, 0.9]))


def test_unknown_control_and_one_learner():
    scores = pd.DataFrame({"a": [1.0, 2.0], "b": [2.0, 1.0]})
    with pytest.raises(ValueError, match="control 'c'"):
        cs.holm_test(scores, "c")
    with pytest.raises(ValueError, match="at least 2 learners"):
        cs.friedman_test(scores[["a"]])


def test_friedman_perfect_agreement_documented_infinite_f():
    scores = np.array([[3.0, 2.0, 1.0]] * 5)
    res = cs.friedman_test(scores)
    assert res.statistic == pytest.approx(10.0)  # N (k - 1)
    assert res.iman_davenport == np.inf and res.iman_davenport_pvalue == 0.0


def test_bad_alpha_and_options():
    with pytest.raises(ValueError, match="alpha"):
        cs.sign_test(A, B, alpha=1.5)
    with pytest.raises(ValueError, match="zero_method"):
        cs.wilcoxon_signed_rank(A, B, zero_method="drop")
    with pytest.raises(ValueError, match="alternative"):
        cs.paired_ttest(A, B, alternative="bigger")
    with pytest.raises(ValueError, match="tie_tolerance"):
        cs.rank_scores([[1.0, 2.0]], tie_tolerance=-1)


def test_float_noise_does_not_break_ties():
    """0.3 - 0.2 and 0.2 - 0.1 differ in binary floating point; rounded, they tie."""
    a, b = [0.3, 0.2, 0.9, 0.5], [0.2, 0.1, 0.5, 0.6]
    res = cs.wilcoxon_signed_rank(a, b)
    assert (res.r_plus, res.r_minus) == (8.0, 2.0)
    raw = cs.wilcoxon_signed_rank(a, b, decimals=None)
    assert (raw.r_plus, raw.r_minus) != (8.0, 2.0)
