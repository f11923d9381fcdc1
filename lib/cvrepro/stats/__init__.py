"""Statistical tests for comparing learners; each returns a frozen result
object with ``statistic`` and ``pvalue`` plus the test's other quantities.

Two learners, one data set (per-fold scores): :func:`paired_ttest`,
:func:`corrected_resampled_ttest` (Nadeau & Bengio),
:func:`corrected_repeated_kfold_ttest` (Bouckaert & Frank, WEKA's corrected
tester), :func:`paired_ttest_5x2cv` (Dietterich), :func:`combined_ftest_5x2cv`
(Alpaydin), :func:`bayesian_correlated_ttest` (Corani & Benavoli),
:func:`mcnemar` on :func:`contingency_table`, :func:`sign_test`.

Two learners, many data sets: :func:`sign_test`, :func:`wilcoxon_signed_rank`.

Many learners, many data sets: :func:`rank_scores`, :func:`average_ranks`,
:func:`friedman_test` (with Iman-Davenport), :func:`nemenyi_test`,
:func:`bonferroni_dunn_test`, :func:`holm_test`, :func:`critical_difference`,
:func:`cd_diagram`.

Post-hoc breadth: :func:`aligned_ranks_test` (Friedman aligned ranks),
:func:`quade_test`, :func:`posthoc_test` (all pairs, any adjustment),
:func:`adjust_pvalues` (Holm, Hommel, Benjamini-Hochberg, Finner),
:func:`shaffer`, :func:`bergmann_hommel`, :func:`effect_size` (Cohen's d,
Cliff's delta, magnitude labels), :func:`paired_difference_ci`,
:func:`corrected_difference_ci`, :func:`bayesian_signed_rank`,
:func:`bayesian_sign` (baycomp, with posterior plots).

Effect size and resampling: :func:`cohens_d`, :func:`label_permutation_test`,
:func:`bootstrap_error` (e0, .632, .632+), :func:`efron_632_plus`.
"""
from .adjust import (
    ADJUSTMENTS,
    PAIR_ADJUSTMENTS,
    adjust_pvalues,
    bergmann_hommel,
    exhaustive_sets,
    finner,
    shaffer,
)
from .bayes_across import BayesianAcrossResult, bayesian_sign, bayesian_signed_rank
from .bayesian import BayesianTTestResult, bayesian_correlated_ttest
from .cd_diagram import (
    cd_diagram,
    cliques,
    plot_critical_difference,
)
from .effect import EffectSize, cliffs_delta, effect_size, magnitude
from .intervals import DifferenceInterval, corrected_difference_ci, paired_difference_ci
from .multiple import (
    ControlResult,
    FriedmanResult,
    NemenyiResult,
    average_ranks,
    bonferroni_dunn_q,
    bonferroni_dunn_test,
    critical_difference,
    friedman_test,
    holm,
    holm_test,
    nemenyi_q,
    nemenyi_test,
    rank_scores,
)
from .pairwise import (
    McNemarResult,
    SignTestResult,
    WilcoxonResult,
    contingency_table,
    mcnemar,
    sign_test,
    sign_test_critical_wins,
    wilcoxon_critical_value,
    wilcoxon_signed_rank,
)
from .posthoc import RANK_TESTS, pairwise_rank_statistics, posthoc_test
from .ranktests import (
    RankTestResult,
    aligned_ranks,
    aligned_ranks_test,
    quade_mean_ranks,
    quade_test,
    quade_weights,
)
from .resampling import (
    BootstrapResult,
    PermutationTestResult,
    bootstrap_error,
    cohens_d,
    efron_632_plus,
    label_permutation_test,
)
from .ttests import (
    FTestResult,
    TTestResult,
    combined_ftest_5x2cv,
    corrected_repeated_kfold_ttest,
    corrected_resampled_ttest,
    paired_ttest,
    paired_ttest_5x2cv,
)

__all__ = [
    "ADJUSTMENTS",
    "PAIR_ADJUSTMENTS",
    "RANK_TESTS",
    "BayesianAcrossResult",
    "DifferenceInterval",
    "EffectSize",
    "RankTestResult",
    "adjust_pvalues",
    "aligned_ranks",
    "aligned_ranks_test",
    "bayesian_sign",
    "bayesian_signed_rank",
    "bergmann_hommel",
    "cliffs_delta",
    "corrected_difference_ci",
    "effect_size",
    "exhaustive_sets",
    "finner",
    "magnitude",
    "paired_difference_ci",
    "pairwise_rank_statistics",
    "posthoc_test",
    "quade_mean_ranks",
    "quade_test",
    "quade_weights",
    "shaffer",
    "BayesianTTestResult",
    "BootstrapResult",
    "ControlResult",
    "FTestResult",
    "FriedmanResult",
    "McNemarResult",
    "NemenyiResult",
    "PermutationTestResult",
    "SignTestResult",
    "TTestResult",
    "WilcoxonResult",
    "average_ranks",
    "bayesian_correlated_ttest",
    "bonferroni_dunn_q",
    "bonferroni_dunn_test",
    "bootstrap_error",
    "cd_diagram",
    "cliques",
    "cohens_d",
    "combined_ftest_5x2cv",
    "contingency_table",
    "corrected_repeated_kfold_ttest",
    "corrected_resampled_ttest",
    "critical_difference",
    "efron_632_plus",
    "friedman_test",
    "holm",
    "holm_test",
    "label_permutation_test",
    "mcnemar",
    "nemenyi_q",
    "nemenyi_test",
    "paired_ttest",
    "paired_ttest_5x2cv",
    "plot_critical_difference",
    "rank_scores",
    "sign_test",
    "sign_test_critical_wins",
    "wilcoxon_critical_value",
    "wilcoxon_signed_rank",
]
