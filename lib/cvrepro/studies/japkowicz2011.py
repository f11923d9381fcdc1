"""Japkowicz & Shah (2011), the tutorial re-run: measures, tests, resampling and two research studies.

Japkowicz, N., & Shah, M. (2011). *Evaluating Learning Algorithms: A
Classification Perspective.* Cambridge University Press; the tutorial based on
the book. Its tables come from WEKA's Explorer with default settings:
"Cross-validation, 10 folds", seed 1 (:mod:`cvrepro.wekaeval` reproduces the
folds and the pooled measures exactly); its tests are worked by hand on the
printed numbers. Definitions used here:

* the nine measures of "Which classifier is better?": percent correct, RMSE
  (WEKA's: mean over instances of the squared error averaged over classes),
  and of the positive class (Breast Cancer: recurrence-events) TP rate, FP
  rate, precision, recall, F-measure and ROC area, and Kononenko & Bratko's
  information score in bits *summed* over the instances (WEKA's "K&B
  Information Score", priors from each fold's training counts + 1);
* ranks: 1 is the best value of a measure (lowest RMSE and FPR), ties share the
  best rank (``method="min"``), as the slide does;
* cost curves: :mod:`cvrepro.curves`; the projection: :mod:`cvrepro.projection`;
  the flu domain and pD: :mod:`cvrepro.drift`;
* the simulation of the resampling tests (the tutorial only describes their
  type I error and power): two Gaussian naive Bayes classifiers, each on its
  own block of features; with equally informative blocks the two are exchangeable, so
  their true difference is exactly 0 (type I error); a less informative block
  gives a known positive difference (power), measured on large fresh samples.

Stand-ins and deviations (named in the notebook next to each result): the
tutorial's "3NN" is WEKA's IBk with its default k = 1 (it reproduces that row to
every digit; IBk -K 3 is shown beside it); JRip and OneR are the registry's WEKA
ports (where a registry lacks them, the RIPPER stand-in and :class:`NominalOneR`
run, named as stand-ins); Hypothyroid is Quinlan's two-class
UCI file; Anneal is read as WEKA's anneal.arff has it (UCI's "not applicable",
written "?", is a value, and class 4 is declared); Liver is the catalog's bupa in
UCI's row order (:func:`liver_in_uci_order`).

The study's modules, by concern (this one is its public face: every name the notebook reads):
:mod:`.japkowicz2011_runs` (design, data, learners, the runs and the shipped tables),
:mod:`.japkowicz2011_simulation` (the simulated study's procedure), :mod:`.japkowicz2011_analysis` (tables,
figures and the claims of each section) and :mod:`.japkowicz2011_text` (the claims, sentences and captions).
Every task runs through :func:`cvrepro.engine.map_tasks`, keyed by its module's source, so editing a
sentence recomputes nothing.

Shared fits (tools/count_fits.py): at ``paper`` 130,674 fits, 130,234 distinct. One cross-validation
per (data set, label, seed, k) serves the Explorer tables, the t-tests, the sign test and the
resampling pairs (``cv_jobs``). Two repeats remain, seconds in all: the permutation test scores the
true labels with the cross-validations' 10-fold seed-1 folds (40 fits), and the bootstrap truth fits
each sample twice, for the resubstitution error and for the true error (400 fits).
"""
from __future__ import annotations

from .japkowicz2011_analysis import (
    D_PAIRED,
    D_POOLED,
    MEASURE_NAMES,
    TUTORIAL_TTEST,
    accuracy_table,
    anneal_confusions,
    boot_truth_note,
    boot_truth_table,
    bootstrap_claim,
    compare_tests,
    confusion_vectors,
    equal_variance,
    figure_cd,
    figure_flu,
    figure_labor_assumptions,
    figure_roc_cost,
    figure_simulation,
    figure_visualization,
    flu_table,
    friedman_printed,
    labor_tests,
    measures_of,
    poor_ideal_fits,
    printed_match,
    printed_two_domain_tests,
    rank_measures,
    resampling_table,
    roc_cost_analysis,
    simulation_table,
    table_measures,
    table_measures_vs_paper,
    table_ranks_vs_paper,
    two_domain_tests,
    variance_claim,
    visualization,
    visualization_table_vs_paper,
    worked_examples,
)
from .japkowicz2011_runs import (
    BOOT_TRUTH_SIZE,
    EIGHT,
    EXPLORER_LEARNERS,
    FLU_LEARNERS,
    LABOR_PAIR,
    LEARNERS,
    LIVER_UCI_DIGEST,
    NB_DISCRETIZED,
    PAPER_ORDER,
    PARTS,
    POSITIVE,
    SCALES,
    SIGN_DOMAINS,
    SIGN_LEARNERS,
    STUDY_ID,
    VIS_DOMAINS,
    VIS_MULTICLASS,
    LearnerChoice,
    NominalOneR,
    Results,
    anneal_as_weka,
    boot_truth_chunk,
    datasets_table,
    estimate_core_hours,
    from_tables,
    learners_table,
    liver_in_uci_order,
    load,
    make_learner_for,
    recompute_slice,
    run,
    to_tables,
)
from .japkowicz2011_simulation import (
    SIM_TESTS,
    gaussian_nb_cv,
    gaussian_nb_predict,
    simulation_chunk,
    simulation_truth,
)
from .japkowicz2011_text import (
    FLU_OPEN,
    NOT_COVERED,
    PRINTED_CHECKS,
    VIS_TITLES,
    anneal_sentence,
    captioned_flu,
    captioned_measures_vs_paper,
    captioned_roc_cost,
    captioned_simulation_rejections,
    captioned_ten_domains,
    captioned_two_domain_tests,
    captioned_visualization,
    captioned_visualization_distances,
    claims,
    claims_sentence,
    comparison_claims,
    conclusion,
    correction_sentence,
    describe_claims,
    describe_friedman,
    describe_learners,
    describe_measures,
    describe_printed_tests,
    describe_profile,
    describe_ranks,
    describe_roc_cost,
    describe_worked_examples,
    flu_claims,
    flu_domain_consequences,
    flu_domain_note,
    flu_note,
    flu_scenarios_table,
    friedman_ours,
    labor_note,
    measures_notes,
    reproduction_summary,
    resampling_note,
    shapiro_sentence,
    simulation_note,
    ten_domain_note,
    type_one_claim,
    visualization_note,
    visualization_table_note,
)

__all__ = [
    "EIGHT", "LEARNERS", "LearnerChoice", "SCALES", "SIGN_DOMAINS", "SIGN_LEARNERS", "VIS_DOMAINS", "FLU_LEARNERS",
    "POSITIVE", "NominalOneR", "Results", "load", "anneal_as_weka", "liver_in_uci_order", "make_learner_for",
    "learners_table", "datasets_table", "run", "measures_of", "table_measures", "table_measures_vs_paper",
    "rank_measures", "table_ranks_vs_paper", "worked_examples", "roc_cost_analysis", "figure_roc_cost",
    "labor_tests", "figure_labor_assumptions", "printed_two_domain_tests", "accuracy_table", "two_domain_tests",
    "friedman_printed", "figure_cd", "resampling_table", "simulation_table", "figure_simulation",
    "confusion_vectors", "visualization", "figure_visualization", "visualization_table_vs_paper",
    "anneal_confusions", "flu_table", "poor_ideal_fits", "figure_flu", "claims", "printed_match",
    "estimate_core_hours", "STUDY_ID", "PARTS", "PAPER_ORDER", "to_tables", "from_tables", "recompute_slice",
    "measures_notes", "labor_note", "ten_domain_note", "resampling_note", "simulation_note", "visualization_note",
    "visualization_table_note", "flu_note", "reproduction_summary", "conclusion", "TUTORIAL_TTEST", "NB_DISCRETIZED",
    "gaussian_nb_predict", "gaussian_nb_cv", "simulation_chunk", "simulation_truth", "LIVER_UCI_DIGEST",
    "MEASURE_NAMES", "D_POOLED", "D_PAIRED", "SIM_TESTS", "shapiro_sentence", "correction_sentence",
    "anneal_sentence", "describe_profile", "describe_learners", "captioned_measures_vs_paper", "describe_measures",
    "describe_ranks", "describe_worked_examples", "captioned_roc_cost", "describe_roc_cost",
    "describe_printed_tests", "captioned_ten_domains", "captioned_two_domain_tests", "describe_friedman",
    "friedman_ours", "captioned_simulation_rejections", "VIS_TITLES", "captioned_visualization",
    "captioned_visualization_distances", "flu_scenarios_table", "captioned_flu", "describe_claims",
    "BOOT_TRUTH_SIZE", "EXPLORER_LEARNERS", "FLU_OPEN", "LABOR_PAIR", "NOT_COVERED", "PRINTED_CHECKS",
    "VIS_MULTICLASS", "boot_truth_chunk", "boot_truth_note", "boot_truth_table", "bootstrap_claim",
    "claims_sentence", "compare_tests", "comparison_claims", "equal_variance", "flu_claims",
    "flu_domain_consequences", "flu_domain_note", "type_one_claim", "variance_claim",
]
