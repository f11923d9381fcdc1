"""Raeder, Hoens & Chawla (2010): consequences of variability in classifier performance estimates.

Raeder, T., Hoens, T. R., & Chawla, N. V. (2010). Consequences of variability
in classifier performance estimates. ICDM 2010, pp. 421-430.

Six learners (C4.5, HDDT, MLP, 5-NN, NB, SMO; WEKA defaults) are evaluated
by 500 iterations of stratified 2-, 5- and 10-fold cross-validation on 20
data sets, with AUROC. Definitions the code relies on:

- iteration i: one run of k-fold CV whose folds come from seed ``seed + i``
  (the paper: seeds 0..499), the same folds for every learner; its estimate
  is the AUROC averaged over the k folds (multi-class: one-vs-rest average);
- canonical estimate: the mean of the first ``CANONICAL_REPEATS[k]``
  iterations (5x2-fold, 2x5-fold, 1x10-fold);
- steady-state estimate: the mean of all iterations (500 in the paper);
- ranks (Table I): rank 1 is the highest AUROC (the most optimistic estimate);
- reproducibility R (eqs. 1-2) and the stopping rules Fixed-t, Rank and KS-t
  (Sec. V): :mod:`cvrepro.convergence`;
- the true-test error (Tables IV-V): the paper's bottom row is labelled
  "MSE", but its printed values are the mean absolute error of the rows above
  (recomputed from the printed cells, the mean absolute error matches all 18
  printed values; the mean squared error would be about 20 times smaller), so
  we report the mean absolute error under the paper's label and the MSE
  beside it.

Where the paper admits more than one reading, ``READINGS`` says which one we
take (each is labelled "our reading" in the notebook, next to its result),
and the alternative is offered as a parameter.

Shared fits (counted by tools/count_fits.py, checked by tests/test_distinct_fits.py): at ``paper``
892,509 fits, all distinct. The grid and the true-test part's CV share no cell (the true-test sets are
not grid sets); Tables II-III and their replays read the stored iterations; the ``PAPER_ORDER`` steps
and the final run share one store. Repeats left: the nine true-test fits on the training sets are not
cached, so each step redoes them (54 fits, seconds); Scheffer's default MLP is this MLP, and its
outer CV on pima, sonar and ionosphere (10-fold, seeds 0-2) is 90 of our fits, in the other study's store.

The study's modules, by concern (this one is its public face: every name the notebook, the tests and the
tools read): :mod:`.raeder2010_design` (data sets with the paper's names and what stands in for each,
learners, partitioner, folds, seeds, readings, iterations per profile in ``SCALES``), :mod:`.raeder2010_runs`
(the one entry point :func:`run`, the shipped tables and the cost), :mod:`.raeder2010_tables` and
:mod:`.raeder2010_figures` (the analyses behind every table and figure, ``table_*`` and ``figure_*``, from
tidy tables to tidy tables and drawings), :mod:`.raeder2010_text` (the sentences that interpret them,
``describe_*``, and the captions, ``captioned_*``) and :mod:`.raeder2010_claims` (:func:`claims`).
"""
from __future__ import annotations

from .raeder2010_claims import claims
from .raeder2010_design import (
    C45_LAPLACE_NOTE,
    CANONICAL_REPEATS,
    DATASETS,
    FOLDS,
    HEART_H_NOTE,
    LEARNERS,
    N_ORDERINGS,
    PAPER_DATASETS,
    PAPER_ITERATIONS,
    PAPER_ORDER,
    PAPER_TABLE_2_SEEDS,
    PARTITIONER,
    READING_COLUMNS,
    READINGS,
    REPLAY_CAP,
    REPLAY_VARIANTS,
    SCALES,
    SEED,
    STOPPING_RULES,
    STUDY_ID,
    TABLE_2_ALPHAS,
    TABLE_2_FOLDS,
    TABLE_2_PAIR,
    TABLE_3_PARTS,
    TABLE_3_STORED,
    TRUE_TEST_DATASETS,
    TRUE_TEST_LEARNERS,
    TRUE_TEST_NOTE,
    learners_table,
    make_learners,
    readings,
    stand_ins,
    stopping_rules,
    to_paper_names,
)
from .raeder2010_figures import (
    FIGURE_1_PANELS,
    FIGURE_2_TREE_DATASETS,
    distribution_summary,
    figure_1,
    figure_1_panels,
    figure_2,
    figure_2_cells,
    figure_2_panels,
    lead_changes,
    running_means,
    settling_by_learner,
    settling_iterations,
)
from .raeder2010_runs import (
    SHIPPED_COLUMNS,
    SLICE_REPLAY_WORK,
    Results,
    estimate_core_hours,
    from_tables,
    recompute_replay,
    recompute_slice,
    replays,
    replays_by_stored,
    run,
    shipped_replays,
    table_3_by_stored_for,
    table_3_for,
    to_tables,
    true_test_performance,
)
from .raeder2010_tables import (
    KEYS,
    MAE_ROW,
    MSE_ROW,
    distance_by_stored,
    distance_from_paper,
    error_rows,
    estimates,
    opposite_seeds,
    retest_table_2,
    seed_verdicts,
    table_1,
    table_1_shown,
    table_1_side_by_side,
    table_1_vs_paper,
    table_2,
    table_2_vs_paper,
    table_3,
    table_3_by_stored,
    table_3_readings,
    table_3_shown,
    table_3_vs_paper,
    true_test_errors_vs_paper,
    true_test_table,
)
from .raeder2010_text import (
    captioned_distance_from_paper,
    captioned_figure_1,
    captioned_table_1,
    captioned_table_2,
    captioned_table_3,
    captioned_table_3_by_stored,
    captioned_table_3_readings,
    captioned_true_test,
    captioned_true_test_errors,
    captioned_true_test_paper,
    describe_claims,
    describe_figure_1,
    describe_figure_2,
    describe_grid,
    describe_paper_error_row,
    describe_profile,
    describe_stand_ins,
    describe_table_1,
    describe_table_2,
    describe_table_2_seeds,
    describe_table_3,
    describe_table_3_left_out,
    describe_table_3_scale,
    describe_true_test,
)

__all__ = [
    "PAPER_DATASETS", "HEART_H_NOTE", "DATASETS", "LEARNERS", "FOLDS", "PARTITIONER", "SEED",
    "PAPER_ITERATIONS", "CANONICAL_REPEATS", "TRUE_TEST_DATASETS", "TRUE_TEST_LEARNERS", "TABLE_2_PAIR",
    "TABLE_2_FOLDS", "TABLE_3_PARTS", "REPLAY_VARIANTS", "replays", "shipped_replays", "table_3_for",
    "REPLAY_CAP", "STOPPING_RULES", "READINGS", "SCALES", "C45_LAPLACE_NOTE",
    "Results", "run", "to_tables", "from_tables", "recompute_slice", "make_learners", "stand_ins",
    "learners_table", "readings", "to_paper_names",
    "describe_stand_ins", "estimates", "table_1", "table_1_shown", "table_1_vs_paper", "table_1_side_by_side",
    "running_means", "settling_iterations", "settling_by_learner", "lead_changes", "figure_1_panels",
    "figure_1", "seed_verdicts", "opposite_seeds", "table_2", "table_2_vs_paper", "describe_table_2_seeds",
    "retest_table_2",
    "distribution_summary", "figure_2_panels", "figure_2", "figure_2_cells", "stopping_rules", "table_3",
    "table_3_vs_paper", "table_3_shown", "table_3_readings", "true_test_performance", "true_test_table",
    "error_rows", "true_test_errors_vs_paper", "claims", "describe_table_1", "describe_figure_1",
    "describe_table_2", "describe_figure_2", "describe_table_3", "distance_from_paper", "describe_true_test",
    "estimate_core_hours", "describe_paper_error_row", "describe_claims", "describe_profile", "describe_grid",
    "captioned_table_1", "captioned_figure_1", "captioned_table_2", "describe_table_3_left_out",
    "captioned_table_3", "captioned_table_3_readings", "captioned_true_test", "captioned_true_test_paper",
    "captioned_true_test_errors", "captioned_distance_from_paper",
    "TRUE_TEST_NOTE", "MAE_ROW", "MSE_ROW", "N_ORDERINGS", "FIGURE_1_PANELS",
]
# the other public names the module had before it was split by concern
__all__ += [
    "FIGURE_2_TREE_DATASETS", "KEYS", "PAPER_ORDER", "PAPER_TABLE_2_SEEDS", "READING_COLUMNS", "SHIPPED_COLUMNS",
    "STUDY_ID", "TABLE_2_ALPHAS"
]
# Table III on fewer stored runs (why its distance from the paper moves with the scale), and the replay slice
__all__ += [
    "TABLE_3_STORED", "table_3_by_stored", "distance_by_stored", "replays_by_stored", "table_3_by_stored_for",
    "captioned_table_3_by_stored", "describe_table_3_scale", "recompute_replay", "SLICE_REPLAY_WORK",
]
