"""Vanwinckelen & Blockeel (2012): what repeated cross-validation estimates.

Vanwinckelen, G., & Blockeel, H. Look before you leap: some insights into
learner evaluation with cross-validation (extended version of their
BeneLearn 2012 paper "On estimating model accuracy with repeated
cross-validation").

Definitions (Secs. 2-3 of the paper), for a learner L and a large data set D
standing for the population:

- a sample T is N rows of D drawn without replacement; D \\ T is the rest;
- the conditional error eps_c(L, T) is the error on D \\ T of the model L
  learns from T (Def. 5); the unconditional error eps_u(L, N) is its mean
  over samples (Def. 6), here over the run's samples;
- CV_k(L, T, pi) is the error of stratified k-fold CV on T with the random
  partition pi (Def. 11); RCV_r is the mean of r such estimates with
  independent partitions (Def. 12);
- internal variance: Var_pi of the estimate on one sample; sample variance:
  Var_T of its mean over partitions; the total variance is their sum (the
  law of total variance, Sec. 3). Bias: E_{T,pi}[estimate] - eps_u, which
  equals E[estimate - eps_c(L, T)] since eps_u is the mean of eps_c (Def. 16).

Algorithm 1 (Sec. 5.1) is :func:`run`: for every population and sample, the
engine (:func:`cvrepro.runner.run_cv`) runs repeated stratified k-fold CV on
T for every learner (the same partitions for all learners, iteration i with
seed ``seed + i``), and :func:`conditional_errors` fits each learner once on
T and predicts the whole population once (the rows of T are then dropped),
so that nothing is fitted twice. Both are cached in ``store`` and resumable;
every sample, partition and learner seed derives from ``seed``, so the
numbers do not depend on the number of workers. Counted at ``paper``
(tools/count_fits.py): 2,212,620 fits, all distinct: one store cell per
sample, learner and k (the curve samples' 50 repetitions and the other
table samples' 30 are runs on different samples), the conditional fits on
whole samples (no CV fold has those rows), the RF twin with its own seed.

What the paper leaves open, and what we chose:

- N, the sample size, is not stated. Default 200: at N = 200 the accuracies
  of the six panels of Figure 2 (conditional error and the CV curves) fall
  inside the ranges of the panels' vertical axes, which they do not at 100
  or 500 (:func:`figure_2_calibration`, and the sweep over N in the notebook).
- The paper names no software; we choose WEKA 3.6's learners of its names
  (NaiveBayes, IBk with k = 4 and 10, Logistic, J48, RandomForest) and
  use the collection's WEKA-faithful ports of them with WEKA's defaults
  (``LR`` is WEKA's Logistic, ``RF`` WEKA's RandomForest with 10 trees;
  :func:`stand_ins` lists each with its status). One option is ours:
  LR = WEKA Logistic ``-R 1e-8 -M 500``, a WEKA option (the optimiser's
  maximum iterations) that WEKA's default leaves unbounded; chosen by
  measurement (``LR_MAX_ITER``). NB is WEKA's default
  NaiveBayes (normal densities: ``NB-normal``), identical to the kernel NB
  on the nominal populations (kr-vs-k, mushroom, nursery).
- Classes: every learner is told the population's classes, as WEKA is when
  it reads the population's file (:class:`PopulationClasses`, ``CLASSES``);
  with them our LR and NB predict as WEKA 3.6 on the study's samples
  (tools/record_vanwinckelen_weka.py), without them LR does not on kr-vs-k.
- 30-fold CV is left out where ``skip_folds`` says: the paper had none on
  kr-vs-k for its tables (time restrictions, Tables 1-3's footnote); no
  profile runs it there unless the extension ``"kr-vs-k 30-fold"`` is on
  (``EXTENSIONS``: what goes beyond the paper's design, each switched on by
  name; the ``paper`` profile runs none).
- adult is the UCI training and test files together (48,842 rows, missing
  values kept); mushroom is KEEL's 5,644 complete rows (a named stand-in).
- Samples are nested in N (sample s of size N is the first N rows of one
  random permutation of D, in file order), and the same samples serve the
  tables without and with repetition: the r-repetition estimate is the mean
  of the first r iterations of one run (the paper drew new samples for its
  30-repetition tables, whose conditional-error totals differ from the
  others'). Ties: "CV picks L1" means a strictly lower CV error, "L1 wins"
  a strictly lower conditional error; ties count for L2, as the paper's
  "<=" rows do. Ties are counted separately too.

The study's modules, by concern (this one is its public face: every name the notebook reads):
:mod:`.vanwinckelen2012_design` (populations, learners, profiles, the cells that run),
:mod:`.vanwinckelen2012_conditional` (the populations' samples and the conditional errors, the task map's
task), :mod:`.vanwinckelen2012_runs` (Algorithm 1, the sweep over N, the shipped tables),
:mod:`.vanwinckelen2012_analysis` (eps_u, the curves, the decomposition), :mod:`.vanwinckelen2012_picks`
(Tables 1-3), :mod:`.vanwinckelen2012_significance` (the tests on repeated-CV scores),
:mod:`.vanwinckelen2012_text` (captions and sentences) and :mod:`.vanwinckelen2012_claims` (the claims).
"""
from __future__ import annotations

from .vanwinckelen2012_analysis import (
    decomposition,
    figure_2_calibration,
    figure_2_table,
    final_estimates,
    plot_curves_grid,
    plot_decomposition,
    plot_figure_2,
    plot_sweep,
    running_estimates,
    sweep_summary,
    unconditional,
)
from .vanwinckelen2012_claims import (
    claims,
    worked_examples_claim,
)
from .vanwinckelen2012_conditional import (
    CHUNK_ROWS,
    CLASSES,
    SAMPLES_PER_TASK,
    conditional_errors,
    conditional_seed,
    population,
    sample_rows,
)
from .vanwinckelen2012_design import (
    CATALOG_LEARNERS,
    EXTENSIONS,
    FOLDS,
    LEARNERS,
    LR_MAX_ITER,
    PAPER_ORDER,
    POPULATIONS,
    R_GRID,
    SAMPLE_SIZE,
    SCALES,
    STUDY_ID,
    TABLE_POPULATIONS,
    TESTS,
    TWIN,
    PopulationClasses,
    check_params,
    declared,
    make_learners,
    population_samples,
    repetition_groups,
    runs_fold,
    sample_name,
    sample_repetitions,
    stand_ins,
)
from .vanwinckelen2012_picks import (
    PAPER_TABLES,
    conditional_probabilities,
    contingency,
    pairs,
    pick_rates,
    reading_summary,
    table_contingency,
    wide_contingency,
    win_share_distances,
    win_shares,
    win_shares_by_n,
)
from .vanwinckelen2012_runs import (
    SMALL_CLASS_WARNING,
    Experiment,
    estimate_core_hours,
    from_tables,
    recompute_slice,
    run,
    sweep,
    to_tables,
)
from .vanwinckelen2012_significance import (
    pair_groups,
    plot_rejections,
    rejection_rates,
    test_decisions,
)
from .vanwinckelen2012_text import (
    GROUP_NAMES,
    WEKA_EVIDENCE,
    captioned_contingency,
    captioned_curves_grid,
    captioned_decomposition_figure,
    captioned_sweep,
    captioned_unconditional,
    captioned_win_shares,
    describe_conclusion,
    describe_conditional_probabilities,
    describe_decomposition,
    describe_experiment,
    describe_figure_2,
    describe_final_estimates,
    describe_pick_rates,
    describe_profile,
    describe_reading_summary,
    describe_rejections,
    describe_stand_ins,
    describe_sweep,
    describe_win_shares,
    naive_rejections,
    null_rejections,
)

__all__ = [
    "CATALOG_LEARNERS", "CHUNK_ROWS", "CLASSES", "EXTENSIONS", "Experiment", "FOLDS", "GROUP_NAMES", "LEARNERS",
    "LR_MAX_ITER", "PAPER_ORDER", "PAPER_TABLES", "POPULATIONS", "PopulationClasses", "R_GRID", "SAMPLES_PER_TASK",
    "SAMPLE_SIZE", "SCALES", "SMALL_CLASS_WARNING", "STUDY_ID", "TABLE_POPULATIONS", "TESTS", "TWIN",
    "WEKA_EVIDENCE", "captioned_contingency", "captioned_curves_grid", "captioned_decomposition_figure",
    "captioned_sweep", "captioned_unconditional", "captioned_win_shares", "check_params", "claims",
    "conditional_errors", "conditional_probabilities", "conditional_seed", "contingency", "declared",
    "decomposition", "describe_conclusion", "describe_conditional_probabilities", "describe_decomposition",
    "describe_experiment", "describe_figure_2", "describe_final_estimates", "describe_pick_rates",
    "describe_profile", "describe_reading_summary", "describe_rejections", "describe_stand_ins", "describe_sweep",
    "describe_win_shares", "estimate_core_hours", "figure_2_calibration", "figure_2_table", "final_estimates",
    "from_tables", "make_learners", "naive_rejections", "null_rejections", "pair_groups", "pairs", "pick_rates",
    "plot_curves_grid", "plot_decomposition", "plot_figure_2", "plot_rejections", "plot_sweep", "population",
    "population_samples", "reading_summary", "recompute_slice", "rejection_rates", "repetition_groups", "run",
    "running_estimates", "runs_fold", "sample_name", "sample_repetitions", "sample_rows", "stand_ins", "sweep",
    "sweep_summary", "table_contingency", "test_decisions", "to_tables", "unconditional", "wide_contingency",
    "win_share_distances", "win_shares", "win_shares_by_n", "worked_examples_claim",
]
