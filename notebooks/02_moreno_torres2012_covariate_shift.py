# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 02 · Moreno-Torres, Sáez & Herrera (2012): partition-induced covariate shift
#
# Moreno-Torres, J. G., Sáez, J. A., & Herrera, F. (2012). *Study on the impact of partition-induced dataset
# shift on k-fold cross-validation.* IEEE Transactions on Neural Networks and Learning Systems, 23(8), 1304-1312.
#
# **What the paper claims.** How the folds of a cross-validation are drawn can make a test fold cover a
# region of the data that its training folds do not (partition-induced covariate shift). Comparing nine
# KEEL classifiers on 27 KEEL data sets with four partitioners (SCV; DB-SCV; their DOB-SCV; MS-SCV, which
# maximises the shift) and three schemes (2x5, 5x2, 10x1), it finds that MS-SCV makes a single
# cross-validation far less reliable and slower to converge, that plain SCV is less reliable and converges
# more slowly than DB-SCV and DOB-SCV, that DOB-SCV is slightly better than DB-SCV, and that 2x5 converges
# faster than 5x2, which converges faster than 10x1. It recommends DOB-SCV.
#
# **What this notebook does.** It runs the paper's design through `cvrepro.studies.moreno_torres2012`:
# 100 single experiments per partitioner and scheme, a "truth" from 200 further SCV partitions, the
# Wilcoxon tests of every classifier pair (Tables III-VI), Algorithm 5's convergence count (Table VII), and
# the paper's illustrations (Figures 1-4). Beyond the paper it measures the covariate shift each
# partitioner induces (`cvrepro.shift`) and sets it against reliability and convergence data set by data
# set, and asks which partitioner and scheme get the true verdicts right most often for a fixed budget of
# fits. AUC is reported both from probabilities and as KEEL computes it from crisp predictions.
#
# **Stand-ins.** All 27 data sets are KEEL's files. Table II lists each classifier's implementation and
# its parity with KEEL; learners marked *stand-in* there are not KEEL's algorithm. C4.5 is WEKA's J48, which
# predicts as KEEL's C45-C; PART is our port of KEEL's PART-C, which the paper ran (WEKA's PART is another
# algorithm: Table II). The `quick` profile runs
# all nine classifiers on fewer data sets, with fewer experiments (printed below); `paper` is the full design
# (resumable).

# %% tags=["parameters"]
profile = "quick"                          # smoke | quick | paper
datasets = None                            # paper names (Table I); None: the profile's
learners = None                            # registry names (Table II); None: the profile's
experiments = None                         # single experiments per partitioner and scheme; None: the profile's
n_jobs = 2                                 # local workers
backend = "loky"                           # "loky", "dask" or a scheduler address
progress = False                           # the design's progress bar (off keeps the document clean)
store = "../results/moreno_torres2012"     # result cache (resumable); None keeps results in memory
shipped = "../results/paper"               # at paper: the shipped tables, read instead of computing; None: compute
output_dir = "../figures/moreno_torres2012"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time
import warnings

import matplotlib

matplotlib.use("Agg")
import pandas as pd

from cvrepro.profiles import check_run_options, study_parameters
from cvrepro.reporting import record_run, save_table, say, show_figure, show_table, show_verdict_changes
from cvrepro.studies import moreno_torres2012 as study

warnings.filterwarnings("ignore", category=RuntimeWarning)
pd.set_option("display.max_colwidth", 120)
started = time.time()
params = study_parameters("moreno_torres2012", profile, datasets=datasets, learners=learners,
                          experiments=experiments)
check_run_options(store, n_jobs, backend, progress)   # a bad run option fails here, before any work
out = output_dir
say(study.describe_profile(params, profile))
result = study.run(params, store=store, n_jobs=n_jobs, backend=backend, progress=progress,
                   shipped=shipped)
say(study.describe_run(result, store))

# %% [markdown]
# ## Table I: the data sets
# Attributes as real / integer / nominal and examples after removing incomplete ones, ours beside the
# paper's. *Integer* here means a numeric attribute whose values are all whole numbers (the catalog keeps
# KEEL's values, not its declared types).

# %%
t1 = study.table_1(result)
show_table(t1, out, "table_1", "Table I: data sets, ours beside Moreno-Torres et al.'s")
say(study.describe_table_1(t1))

# %% [markdown]
# ## Table II: the classifiers
# KEEL's nine classifiers with default parameters, as the paper ran them; our implementation of each and
# what it has been checked against (`cvrepro.learners.list_learners()`).

# %%
t2 = study.table_2()
keel_trees = study.keel_tree_agreement()
show_table(t2, out, "table_2",
           "Table II: the classifiers, our implementation and its parity status. C4.5 is WEKA's J48 (the parity "
           "column adds how often it predicts KEEL's C45-C class, which the paper ran, on the same DOB-SCV "
           "folds); PART is our port of KEEL's PART-C")
say(study.describe_table_2(t2))
show_table(keel_trees.reset_index().round(3), out, "table_2_keel_trees",
           "WEKA's J48 and PART against KEEL's C45-C and PART-C on the same folds: share of test instances with "
           "the same class, and KEEL's crisp AUC of each (mean over data sets): why C4.5 runs as J48 and PART "
           "as our port of PART-C")
say(study.describe_keel_trees())

# %% [markdown]
# ## Figure 1: partition-induced covariate shift
# A sample of 400 examples of KEEL's Banana (two attributes), split into three folds. MS-SCV (top) deals
# each class's nearest-neighbour chain into contiguous blocks, so a test fold is a region its training
# folds lack; SCV (bottom) deals at random.

# %%
figure_1_files = show_figure(
    study.figure_1(), out, "figure_1",
    "Figure 1: full data, training folds and test fold of one MS-SCV (top) and one SCV (bottom) partition")

# %% [markdown]
# ## Figures 2-4: DB-SCV's spiral and DOB-SCV on an eight-example data set
# The paper draws an artificial one-class data set of eight examples in four folds, without coordinates.
# Our layout: examples 0-3 on an inner quadrilateral, 4-7 each outside one side and farther out than the
# last, so that the nearest-unassigned-neighbour chain from example 0 (circled) runs once round the inside
# and spirals round the outside. Colours are folds, arrows the chain; DOB-SCV starts from the same example.
# Each title gives the partition's measured shift (`cvrepro.shift`, averaged over the four folds): the MMD
# between training and test covariates, and the mean distance from a test example to its nearest training
# example (NN).

# %%
parts = study.artificial_partitions()
show_figure(study.figure_2_4(), out, "figures_2_4",
            "Figures 2-4: the artificial data, DB-SCV with its chain, DOB-SCV, and for contrast MS-SCV and SCV")
say(study.describe_figures_2_4(parts))

# %% [markdown]
# ## Table III: the "true" AUC
# The mean over the true SCV partitions (5-fold, as for the paper's 5x2 example) of the fold-averaged test
# AUC: `auc` from the classifiers' probabilities, `keel_auc` as KEEL computes it from crisp predictions
# ((TPR + TNR) / 2). Both beside the paper's Table III.

# %%
t3 = study.table_3(result)
show_table(t3, out, "table_3", "Table III: true AUC (5-fold SCV), from probabilities and KEEL's crisp AUC, beside the paper")
say(study.describe_table_3(t3, params["metric"]))
say(study.knn_distance_gap())

# %% [markdown]
# ## Table IV: the true comparisons
# Wilcoxon signed-ranks test over the data sets on the true AUCs, for every pair of classifiers: R+ (row
# wins), R- and the exact p-value; pairs with p <= 0.1 are the "significant" ones that Tables V and VI
# examine. The paper's numbers come from 27 data sets and nine classifiers; ours from the profile's.

# %%
t4 = study.table_4(result)
show_table(t4, out, "table_4", "Table IV: Wilcoxon tests on the true AUCs (ours, 5x2 truth), beside the paper's")
say(study.describe_table_4(t4, len(params["datasets"])))

# %% [markdown]
# ## Table V: how often does a single experiment find the true difference?
# For each pair significant in the truth of a scheme, the number of single experiments (out of the run's)
# whose Wilcoxon test is significant at the true p-value with the same winner. The paper prints this for
# DOB-SCV 5x2 only; we compute it for every partitioner and scheme (`table_5_all`).

# %%
t5 = study.table_5(result)
save_table(t5, out, "table_5_all", caption="Table V for every partitioner and scheme")
show_table(study.table_5_shown(t5), out, "table_5",
           "Table V: DOB-SCV 5x2, single experiments agreeing with the true verdict, beside the paper")
say(study.describe_table_5(t5))

# %% [markdown]
# ## Table VI: single-experiment reliability by partitioner and scheme
# The mean of Table V (as a percentage of the experiments) per partitioner and scheme, beside the paper's.
# "The same result" is read as the paper's text says (Sec. VI-A: a significant test at the true p-value,
# with the true winner); two other readings and the agreement over every pair (true differences and
# non-differences) are shown beside it: the paper's measure counts only the truly different pairs, so a
# partitioner that exaggerates differences scores well on it.

# %%
t6 = study.table_6(result)
show_table(t6, out, "table_6", "Table VI: mean % of single experiments agreeing with the true verdict, beside the paper")
show_figure(study.figure_table_6(t6, study.table_6_intervals(result)), out, "table_6_bars",
            "Table VI as bars: ours (left, with 95 % bootstrap intervals over the single experiments), the paper's "
            "(right)")
readings = study.agreement_readings(result)
show_table(readings.round(1), out, "table_6_readings",
           "Table VI's average under each reading of 'the same result', beside the agreement and false alarms "
           "over every pair of classifiers (one experiment, 10 fits); the first reading is the paper's")
say(study.describe_table_6(t6, readings))

# %% [markdown]
# ## Table VII: experiments needed to converge (Algorithm 5)
# Experiments accumulated in random order until the Pearson correlation between consecutive accumulated
# averages (of every example's out-of-fold probability) reaches 0.9999; mean and sd over data sets,
# classifiers and replays. `capped` is the share of replays that ran out of stored experiments (their count
# is the pool size, an underestimate). Algorithm 5 accumulates "a different instance of DOB-SCV 5x2
# cross-validation" at each step, so the unit is a whole experiment; accumulating single k-fold iterations
# is shown beside it.

# %%
t7 = study.table_7(result)
show_table(t7, out, "table_7", "Table VII: experiments to converge, mean and sd, beside the paper")
t7r = study.table_7_readings(result)
show_table(t7r, out, "table_7_readings", "Algorithm 5 read two ways: accumulating whole k x r experiments (the "
           "text's unit, Table VII) or single k-fold iterations (counted in experiments), beside the paper")
say(study.describe_convergence(result, t7r))

# %% [markdown]
# ## Beyond the paper (1): how much shift does each partitioner induce?
# For the first partitions of every experiment store: the mean distance from a test example to its nearest
# same-class training example (the distance KEEL's DOB-SCV computes) and the squared MMD between training and test
# covariates, averaged over folds; `nn_vs_scv` is the distance relative to SCV on the same data set.

# %%
st = study.shift_table(result)
show_table(st, out, "shift", "Measured covariate shift per partitioner and scheme (mean over data sets)")
say(study.describe_shift(st))

# %% [markdown]
# ## Beyond the paper (2): does more shift mean less reliable and slower, data set by data set?
# Per data set, partitioner and scheme: the measured shift (relative to SCV) against the mean absolute error
# of a single experiment's AUC from the true AUC, and against the experiments needed to converge (only on
# the convergence data sets at reduced profiles).

# %%
rel = study.shift_relations(result)
save_table(rel, out, "shift_relations", caption="Shift, single-experiment error and convergence per data set")
show_figure(study.figure_shift(rel), out, "shift_relations",
            "Measured shift against single-experiment error (left) and experiments to converge (right)")
say(study.describe_shift_relations(rel))

# %% [markdown]
# ## Beyond the paper (3): which partitioner gets the verdicts right for a fixed budget of fits?
# Every scheme costs 10 fits per experiment; averaging b consecutive experiments costs 10 b fits. For each
# budget, over every pair of classifiers (not only the truly different ones of Table V): `agree %`, the
# tests whose verdict (significant with the true winner, or not significant) agrees with the truth;
# `found %`, the truly different pairs found (p <= 0.1, true winner); `false alarms %`, the pairs that do not
# differ in the truth but test significant. Table V's criterion sees only `found`.

# %%
bt = study.budget_table(result)
show_table(bt, out, "budget", "Agreement with the true verdicts for a fixed budget of fits")
say(study.describe_budget(bt))

# %% [markdown]
# ## Claims
# Each claim of the paper in its words, tested on our results (`study.claims`): every effect with a 95%
# bootstrap interval (Table VI: single experiments resampled, the truth held fixed; Table VII: (data set,
# classifier) units resampled, paired); a claim is undecided when its interval cannot separate the effect.

# %%
claims = study.claims(result)
show_table(claims, out, "claims_table", "The paper's claims with our verdicts")
show_verdict_changes("moreno_torres2012", claims, profile, shipped, out)  # at paper: what changed since quick

# %% [markdown]
# ## Conclusion

# %%
say(study.describe_conclusion(claims, bt, t3, params, profile, (time.time() - started) / 60))
run_json = record_run(out, "moreno_torres2012", profile, claims, started)
