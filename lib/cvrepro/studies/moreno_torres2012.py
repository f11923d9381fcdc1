"""Moreno-Torres, Saez & Herrera (2012): partition-induced covariate shift in k-fold CV.

Moreno-Torres, J. G., Saez, J. A., & Herrera, F. (2012). Study on the impact of
partition-induced dataset shift on k-fold cross-validation. IEEE Transactions on
Neural Networks and Learning Systems, 23(8), 1304-1312.

Definitions the code relies on (the paper's, Sections I, III and V):

* Schemes: "2x5" is 2-fold CV iterated five times, "5x2" 5-fold twice, "10x1"
  10-fold once; one *experiment* of a scheme is its k-fold partitions of the
  iterations, ten fits per data set and classifier. Its AUC is the mean over
  its iterations of the fold-averaged test AUC.
* Partitioners (Algorithms 1-4, :mod:`cvrepro.partition`): SCV, DB-SCV, DOB-SCV,
  MS-SCV, with the distance KEEL's DOB-SCV computes (``DISTANCE = "keel"``:
  sqrt(sum |a - b| / 4 * sd + sum VDM), neighbours at distance 0 skipped; our
  DOB-SCV draws KEEL's partitions, tests/fixtures/keel_partition). Textbook HVDM
  (``"hvdm"``) is the alternative reading of "HVDM"; the paper does not print
  its formula.
* "True" AUC (Table III): the mean over ``true_partitions`` independent SCV
  partitions (200 in the paper) of the scheme's k. Table III is printed for
  5x2; we compute the truth for every scheme (it is the reference of that
  scheme's Tables V/VI) and show the 5x2 one beside the paper.
* True verdicts (Table IV): Wilcoxon signed-ranks test over the data sets on the
  true AUCs, every pair of classifiers; R+ and R- with zero differences split
  (their R+ + R- is always n(n+1)/2), p exact under random signs of the observed
  (mid)ranks (:func:`wilcoxon_exact`: KEEL's printed p-values for integer T are
  the exact ones, those for half-integer T lie between the neighbouring exact
  values). Pairs with p <= 0.1 are "significant".
* Table V: for each significant pair, out of ``experiments`` single experiments
  of a partitioner and scheme, how many give a significant Wilcoxon test in the
  same direction with the true p-value as threshold. Table VI averages Table V.
  Other readings of "the same result" (:data:`AGREE_READINGS`) are computed
  beside it (:func:`agreement_readings`); the text supports this one ("the
  significance level is set to the same as the 'true' data achieved", Sec. VI-A).
* Table VII (Algorithm 5): experiments accumulated in a random order until the
  Pearson correlation between consecutive accumulated averages reaches 0.9999;
  Conv = the number of experiments used. The averaged vector is the
  experiment's out-of-fold class-1 probability of every example (the paper does
  not say; :class:`cvrepro.convergence.PearsonCriterion` documents the choice).
  Each (data set, classifier, partitioner, scheme) is replayed
  ``convergence_repetitions`` times (10 in the paper) on random orderings of the
  stored experiments; a replay that runs out of experiments is capped.

Which experiments are shared (no fit is done twice): one store of iterations
per (data set, classifier, partitioner, k), seeds ``SEED + i``: experiment e of
scheme k x r is iterations e*r .. e*r+r-1. The single experiments of Tables V/VI,
the fixed-budget analysis (consecutive experiments averaged) and Algorithm 5's
replays of Table VII all draw on this store: the replays reorder its first
``convergence_experiments`` experiments (the paper's "100 independent
experiments" serve both purposes), whose first ``experiments`` are the single
experiments (read back from the store, not refitted). The true SCV partitions
(Table III) are a separate store per k with seeds ``TRUE_SEED + i``: the paper
says "we created an extra 200 independent partitions using SCV" (Sec. V), and
the truth must be independent of the single SCV experiments it judges (drawn
from them, Table V would compare SCV's experiments with themselves; and 10x1's
store holds only 100 partitions). Their cost: ``true_partitions * k`` fits per
scheme, 3,400 of the 15,400 fits per data set and classifier at the paper
profile (22%). Across tasks, KEEL's SVM keeps its kernel matrix and KEEL's 1NN
and 3NN their neighbour order per data set in each worker
(:mod:`cvrepro.learners.keel_cache`, at most 1 GiB per worker), so the ~150 engine
tasks of a data set and classifier compute them once per worker. The measured
shift (:mod:`cvrepro.shift`) is taken on the first ``shift_partitions``
partitions of each experiment store (fold ids regenerated from the same seeds). Counted at the
``paper`` profile (tools/count_fits.py): 3,742,200 fits, all distinct.

Learners: the nine of Table II by the registry's names
(:func:`cvrepro.learners.make_learner`); KEEL's learners are built per data
set with ``bounds=keel_bounds(X)`` (KEEL scales with the whole data set's
ranges). Their faithful/stand-in status is read from
:func:`cvrepro.learners.list_learners` (Table II).

The study's modules, by concern (this one is its public face: every name the notebook, the tests and the
tools read): :mod:`.moreno_torres2012_design` (data sets, classifiers, partitioners, schemes, seeds,
``SCALES``, measured costs), :mod:`.moreno_torres2012_runs` (:func:`run`, the shipped tables and the cost
estimate), :mod:`.moreno_torres2012_tables` and :mod:`.moreno_torres2012_figures` (Tables I-VII, the measured
shift, the fixed-budget analysis and the figures), :mod:`.moreno_torres2012_text` (the notebook's sentences)
and :mod:`.moreno_torres2012_claims` (:func:`claims`).
"""
from __future__ import annotations

from .moreno_torres2012_claims import (
    MUCH,
    claims,
)
from .moreno_torres2012_design import (
    ALPHA,
    DATASETS,
    DISTANCE,
    IMPLEMENTATION,
    KEEL_TREE_CASES,
    LEARNERS,
    METRICS,
    PAPER_CORE_HOURS,
    PAPER_ORDER,
    PARTITIONERS,
    QUICK_DATASETS,
    SCALES,
    SCHEMES,
    SEED,
    STUDY_ID,
    TABLE_3_SCHEME,
    THRESHOLD,
    TRUE_SEED,
    build_learners,
    catalog_names,
    load,
)
from .moreno_torres2012_figures import (
    ARTIFICIAL,
    ARTIFICIAL_START,
    artificial_partitions,
    artificial_shift,
    figure_1,
    figure_2_4,
    figure_shift,
    figure_table_6,
    nn_chain,
)
from .moreno_torres2012_runs import (
    MorenoRun,
    convergence_counts,
    estimate_core_hours,
    experiment_auc,
    from_tables,
    recompute_slice,
    run,
    to_tables,
)
from .moreno_torres2012_tables import (
    AGREE_READINGS,
    BOOTSTRAP,
    PAPER_AGREEMENT,
    agreement_hits,
    agreement_readings,
    budget_table,
    convergence_bootstrap,
    keel_tree_agreement,
    shift_relations,
    shift_table,
    single_verdicts,
    table_1,
    table_2,
    table_3,
    table_3_errors,
    table_4,
    table_5,
    table_5_shown,
    table_6,
    table_6_bootstrap,
    table_6_intervals,
    table_7,
    table_7_readings,
    true_verdicts,
    wilcoxon_exact,
)
from .moreno_torres2012_text import (
    best_by_budget,
    describe_budget,
    describe_conclusion,
    describe_convergence,
    describe_figures_2_4,
    describe_keel_trees,
    describe_profile,
    describe_run,
    describe_shift,
    describe_shift_relations,
    describe_table_1,
    describe_table_2,
    describe_table_3,
    describe_table_4,
    describe_table_5,
    describe_table_6,
    describe_table_7,
    knn_distance_gap,
)

__all__ = ["DATASETS", "LEARNERS", "IMPLEMENTATION", "PARTITIONERS", "SCHEMES", "DISTANCE", "ALPHA", "THRESHOLD",
           "SCALES",
           "catalog_names", "load", "build_learners", "wilcoxon_exact", "experiment_auc", "convergence_counts",
           "MorenoRun", "run", "KEEL_TREE_CASES", "keel_tree_agreement", "describe_keel_trees", "PAPER_CORE_HOURS",
           "table_1", "table_2", "table_3", "table_4", "true_verdicts", "single_verdicts", "table_5",
           "table_6", "table_7", "shift_table", "shift_relations", "budget_table",
           "ARTIFICIAL", "nn_chain", "artificial_partitions", "artificial_shift", "figure_1", "figure_2_4",
           "figure_table_6", "table_6_intervals", "figure_shift", "claims", "estimate_core_hours",
           "describe_profile", "describe_run", "describe_table_1", "describe_table_2", "describe_figures_2_4",
           "table_3_errors", "describe_table_3", "describe_table_4", "table_5_shown", "describe_table_5",
           "describe_convergence", "describe_shift_relations", "describe_conclusion", "STUDY_ID", "PAPER_ORDER",
           "to_tables", "from_tables", "recompute_slice"]
# the other public names the module had before it was split by concern
__all__ += [
    "AGREE_READINGS", "ARTIFICIAL_START", "BOOTSTRAP", "METRICS", "MUCH", "PAPER_AGREEMENT", "QUICK_DATASETS",
    "SEED", "TABLE_3_SCHEME", "TRUE_SEED", "agreement_hits", "agreement_readings", "best_by_budget",
    "convergence_bootstrap", "describe_budget", "describe_shift", "describe_table_6", "describe_table_7",
    "knn_distance_gap", "table_6_bootstrap", "table_7_readings"
]
