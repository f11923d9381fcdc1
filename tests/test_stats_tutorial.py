"""Published worked examples: the Japkowicz tutorial, Raeder et al.'s Table I
critical distance, Moreno-Torres et al.'s Table IV Wilcoxon p-values, and
Demsar's (2006) table of critical values."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cvrepro import metrics
from cvrepro.stats import (
    average_ranks,
    bonferroni_dunn_q,
    critical_difference,
    friedman_test,
    nemenyi_q,
    nemenyi_test,
    rank_scores,
    sign_test,
    sign_test_critical_wins,
    wilcoxon_critical_value,
    wilcoxon_signed_rank,
)

# Tutorial, "Illustration of the sign test" (accuracies in %).
TEN_DATASETS = pd.DataFrame(
    {"NB": [96.43, 73.42, 72.30, 71.70, 71.67, 74.36, 70.63, 83.21, 98.22, 69.62],
     "SVM": [99.44, 81.34, 91.51, 66.16, 71.67, 77.08, 62.21, 80.63, 93.58, 99.90],
     "Adaboost": [83.63, 46.46, 72.31, 70.28, 71.67, 74.35, 44.91, 82.54, 93.21, 72.54],
     "RandForest": [99.55, 79.15, 80.97, 69.99, 71.67, 74.88, 79.87, 84.58, 99.39, 93.94]},
    index=["Anneal", "Audiology", "Balance Scale", "Breast Cancer", "Contact Lenses",
           "Pima Diabetes", "Glass", "Hepatitis", "Hypothyroid", "Tic-Tac-Toe"])

# Tutorial, "Illustration of the Friedman test" (domain "19" is a typo for 10).
FRIEDMAN = pd.DataFrame(
    {"fA": [85.83, 85.91, 86.12, 85.82, 86.28, 86.42, 85.91, 86.10, 85.95, 86.12],
     "fB": [75.86, 73.18, 69.08, 74.05, 74.71, 65.90, 76.25, 75.10, 70.50, 73.95],
     "fC": [84.19, 85.90, 83.83, 85.11, 86.38, 81.20, 86.38, 86.75, 88.03, 87.18]})


def test_kappa_example():
    """Cohen's kappa example: P0 = 62.5 %, Pe = 0.33875, kappa = 43.29 %."""
    cm = np.array([[60, 50, 10], [10, 100, 40], [30, 10, 90]])
    y_true = np.repeat(np.repeat(np.arange(3), 3), cm.ravel())
    y_pred = np.repeat(np.tile(np.arange(3), 3), cm.ravel())
    assert np.mean(y_true == y_pred) == 0.625
    assert round(metrics.kappa(y_true, y_pred) * 100, 2) == 43.29


def test_rmse_example():
    y = np.array([1, 0, 1, 0, 1])
    p = np.array([0.95, 0.6, 0.8, 0.75, 0.9])
    assert round(metrics.rmse(y, np.column_stack([1 - p, p]), [0, 1]), 4) == 0.4416


def test_information_score_example():
    """The tutorial prints IS = 0.66, 0, .42, .32, .59 and ISavg = 0.40 (bits).

    x4 (P(y=0|f) = .25 below the prior .4) is a loss: Kononenko & Bratko's
    score is -0.32 there, and the tutorial's formula drops that minus sign.
    The magnitudes agree with the table; 0.40 is the mean of the unsigned
    values, while the proper (signed) mean is 0.27.
    """
    y = np.array([1, 0, 1, 0, 1])
    p = np.array([0.95, 0.6, 0.8, 0.75, 0.9])
    proba = np.column_stack([1 - p, p])
    per = metrics.information_score(y, proba, [0, 1], per_instance=True)
    np.testing.assert_allclose(np.abs(per), [0.66, 0, 0.42, 0.32, 0.59], atol=0.006)
    assert per[3] < 0
    assert round(np.mean(np.round(np.abs(per), 2)), 2) == 0.40
    assert round(metrics.information_score(y, proba, [0, 1]), 2) == 0.27


def test_sign_test_counts_nb_svm():
    """NB vs SVM: 4.5 / 5.5 wins; w_0.05 = 8 (one-tailed, normal approximation)."""
    res = sign_test(TEN_DATASETS["NB"], TEN_DATASETS["SVM"], alternative="greater",
                    critical="normal")
    assert (res.wins_a, res.wins_b, res.ties) == (4.5, 5.5, 1)
    assert res.critical_wins == 8
    assert max(res.wins_a, res.wins_b) < res.critical_wins


def test_sign_test_counts_ada_rf():
    """The tutorial prints 1 / 8.5 for Ada vs RF; its table gives 1.5 / 8.5 (Ada wins
    Breast Cancer, Contact Lenses ties), which does add up to 10 data sets."""
    res = sign_test(TEN_DATASETS["Adaboost"], TEN_DATASETS["RandForest"], alternative="less",
                    critical="normal")
    assert (res.wins_a, res.wins_b, res.ties) == (1.5, 8.5, 1)
    assert res.wins_b >= res.critical_wins == 8  # the tutorial's conclusion
    # The tie is dropped for the p-value: 8 of 9, P = 10 / 512.
    assert res.pvalue == pytest.approx(10 / 512)


def test_sign_test_exact_critical_value_differs_from_tutorial():
    """Exactly, P(X >= 8 | n = 10) = 56/1024 > 0.05, so 9 wins are needed."""
    assert sign_test_critical_wins(10, 0.05, "greater", "exact") == 9
    assert sign_test_critical_wins(10, 0.05, "greater", "normal") == 8
    assert stats.binom.sf(7, 10, 0.5) == pytest.approx(56 / 1024)


def test_wilcoxon_example():
    """NB - SVM as fractions: the zero difference is removed, WS1 = 17, WS2 = 28."""
    nb, svm = TEN_DATASETS["NB"] / 100, TEN_DATASETS["SVM"] / 100
    res = wilcoxon_signed_rank(nb, svm, alternative="less")
    assert (res.r_plus, res.r_minus, res.statistic, res.n) == (17, 28, 17, 9)
    # "V = 8 for the 1-sided test": the exact critical value at alpha = 0.05
    # (the tutorial's "0.005" is a typo: at 0.005 it is 1); 17 > 8, not rejected.
    assert res.critical_value == 8
    assert wilcoxon_critical_value(9, 0.005, "less") == 1
    assert res.pvalue > 0.05


def test_friedman_example_rank_sums_with_tie_tolerance():
    """Rank sums 15.5, 30, 14.5: the tutorial ties 85.91 and 85.90 (tolerance 0.01)."""
    res = friedman_test(FRIEDMAN, tie_tolerance=0.01)
    assert res.rank_sums.tolist() == [15.5, 30.0, 14.5]
    assert res.statistic == pytest.approx(15.05)
    exact = rank_scores(FRIEDMAN).sum()
    assert exact.tolist() == [15.0, 30.0, 15.0]  # without tolerance: no tie


def test_nemenyi_on_the_friedman_example():
    """The tutorial's Nemenyi slide lost its numbers; from its rank sums (average
    ranks 1.55, 3.0, 1.45, N = 10, k = 3): q = |R_i - R_j| / sqrt(k(k+1)/6N) is
    3.24 (A-B), 3.47 (B-C), 0.22 (A-C) against q_0.05 = 2.343, CD = 1.048: fB
    differs from fA and fC, fA and fC do not differ."""
    res = nemenyi_test(FRIEDMAN, tie_tolerance=0.01)
    assert res.average_ranks.tolist() == [1.55, 3.0, 1.45]
    q = res.statistic
    pairs = [("fA", "fB"), ("fB", "fC"), ("fA", "fC")]
    assert [round(q.loc[i, j], 2) for i, j in pairs] == [3.24, 3.47, 0.22]
    assert round(res.critical_difference, 3) == 1.048
    assert res.reject.loc["fA", "fB"] and res.reject.loc["fB", "fC"] and not res.reject.loc["fA", "fC"]


def test_friedman_tie_tolerance_is_chained():
    ranks = rank_scores(pd.DataFrame([[1.00, 1.01, 1.02, 2.0]]), tie_tolerance=0.01)
    assert ranks.iloc[0].tolist() == [3.0, 3.0, 3.0, 1.0]


def test_two_sided_t_critical_value_of_the_tutorial():
    """Paired t-test on 10 folds: df = 9, |t| > 4.781 rejects at 0.001 (two-sided)."""
    assert stats.t.isf(0.0005, 9) == pytest.approx(4.781, abs=5e-4)


def test_raeder_table1_bonferroni_dunn_critical_distance():
    """Table I: 3 CV schemes over 20 data sets, CD = 0.709 at alpha = 0.05."""
    assert round(critical_difference(3, 20, 0.05, "bonferroni-dunn"), 3) == 0.709


def test_raeder_table1_average_ranks_are_ranks():
    table1 = pd.DataFrame({"2": [2.50, 2.30, 2.50, 2.85, 2.65, 2.60],
                           "5": [1.60, 1.85, 1.95, 1.73, 1.95, 1.65],
                           "10": [1.90, 1.85, 1.55, 1.43, 1.40, 1.75]})
    np.testing.assert_allclose(table1.sum(axis=1), 6.0, atol=0.011)


@pytest.mark.parametrize("k, q_nemenyi, q_bd", [
    (2, 1.960, 1.960), (3, 2.343, 2.241), (4, 2.569, 2.394), (5, 2.728, 2.498),
    (6, 2.850, 2.576), (7, 2.949, 2.638), (8, 3.031, 2.690), (10, 3.164, 2.773)])
def test_demsar_critical_values(k, q_nemenyi, q_bd):
    # Demsar printed three decimals from older tables (2.3437 -> 2.343, 2.9483 -> 2.949).
    assert nemenyi_q(k, 0.05) == pytest.approx(q_nemenyi, abs=1e-3)
    assert bonferroni_dunn_q(k, 0.05) == pytest.approx(q_bd, abs=6e-4)


def _signed_ranks(n, r_minus):
    """Differences 1..n with the ranks of a subset summing to r_minus negated."""
    d, rest = np.arange(1.0, n + 1), r_minus
    for r in range(n, 0, -1):
        if r <= rest:
            d[r - 1], rest = -r, rest - r
    return d


@pytest.mark.parametrize("r_plus, r_minus, printed", [
    (375, 3, 7.45e-08), (377, 1, 2.98e-08), (378, 0, 1.49e-08), (261, 117, 0.0859),
    (278, 100, 0.0319), (295, 83, 9.61e-03), (293, 85, 1.12e-02), (273, 105, 0.0435),
    (270, 108, 0.0521), (254, 124, 0.1225)])
def test_moreno_torres_table4_exact_pvalues(r_plus, r_minus, printed):
    """Table IV cells without tied ranks: n = 27 (R+ + R- = 378), exact p-values."""
    d = _signed_ranks(27, r_minus)
    res = wilcoxon_signed_rank(d, np.zeros(27))
    assert (res.r_plus, res.r_minus) == (r_plus, r_minus)
    assert res.pvalue == pytest.approx(printed, rel=6e-3)


def test_average_ranks_direction():
    scores = pd.DataFrame({"good": [0.9, 0.8], "bad": [0.1, 0.2]})
    assert average_ranks(scores).tolist() == [1.0, 2.0]
    assert average_ranks(1 - scores, higher_is_better=False).tolist() == [1.0, 2.0]


# Raeder et al., Table II: 10-fold AUROC of C4.5 and HDDT, CV seeds 216 and 459.
RAEDER_TABLE2 = pd.DataFrame(
    [[0.9784, 0.9753, 0.9768, 0.9820], [0.6936, 0.6913, 0.6521, 0.6531],
     [0.8996, 0.8967, 0.9044, 0.8967], [0.8993, 0.8877, 0.9021, 0.8898],
     [0.8431, 0.8181, 0.8161, 0.8333], [0.8756, 0.8290, 0.8376, 0.8404],
     [0.8646, 0.8848, 0.8742, 0.8928], [0.9353, 0.9301, 0.9247, 0.9371],
     [0.9992, 0.9993, 0.9988, 0.9991], [0.7781, 0.7717, 0.7661, 0.7696],
     [0.8654, 0.8514, 0.8676, 0.8774], [0.8699, 0.8533, 0.8669, 0.8727],
     [0.8053, 0.7929, 0.8076, 0.8127], [0.7964, 0.7575, 0.7419, 0.7311],
     [0.9354, 0.9254, 0.9342, 0.9273], [0.8051, 0.8023, 0.7722, 0.7962],
     [0.9843, 0.9824, 0.9828, 0.9835], [0.9451, 0.9343, 0.9497, 0.9426]],
    index=["breast-w", "bupa", "credit-a", "crx", "heart-c", "heart-h", "horse-colic", "ion",
           "krkp", "pima", "promoters", "ringnorm", "sonar", "threenorm", "tic-tac-toe",
           "twonorm", "vote", "vote1"],
    columns=["C4.5@216", "HDDT@216", "C4.5@459", "HDDT@459"])


def test_raeder_table2_ranks_and_significance():
    """Average ranks 1.11/1.89 and 1.72/1.28 follow.  Seed 216: C4.5 is better by
    Wilcoxon (p = 0.0013).  Seed 459: the paper marks HDDT better at 0.05, but
    Wilcoxon gives p = 0.23 (0.11 one-sided); only a one-sided sign test on
    HDDT's 13 wins of 18 reaches it (p = 0.048)."""
    t216, t459 = RAEDER_TABLE2.iloc[:, :2], RAEDER_TABLE2.iloc[:, 2:]
    assert average_ranks(t216).round(2).tolist() == [1.11, 1.89]
    assert average_ranks(t459).round(2).tolist() == [1.72, 1.28]
    w216 = wilcoxon_signed_rank(*t216.T.to_numpy())
    assert (w216.r_plus, w216.r_minus) == (155, 16) and w216.pvalue < 0.05
    w459 = wilcoxon_signed_rank(*t459.T.to_numpy())
    assert (w459.r_plus, w459.r_minus) == (57, 114) and round(w459.pvalue, 2) == 0.23
    s459 = sign_test(*t459.T.to_numpy(), alternative="less")
    assert s459.wins_b == 13 and round(s459.pvalue, 3) == 0.048
