# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 03 · Vanwinckelen & Blockeel (2012): what does repeated cross-validation estimate?
#
# Vanwinckelen, G., & Blockeel, H. *Look before you leap: some insights into learner evaluation with
# cross-validation* (extended version of "On estimating model accuracy with repeated cross-validation",
# BeneLearn 2012).
#
# **What the paper claims.** The error of the model a learner builds from one data set T (the
# *conditional* error eps_c) and the expected error of the learner over data sets of that size (the
# *unconditional* error eps_u) are different targets. Repeated cross-validation on T removes the
# *internal* variance (over partitions of T) and converges, but to a value that is neither eps_c nor
# eps_u, with a bias that differs per problem (Sec. 5.1, Figure 2). Comparing two learners, 10- and
# 30-fold CV pick the model with the lower conditional error more often than 2-fold, repetition helps
# slightly, and when one learner wins on most samples CV is biased toward it (Sec. 5.2, Tables 1-3).
# A test that uses only the internal variance ignores the *sample* variance and, with enough
# repetitions, detects any difference, a type I error for a question about learners (Secs. 4, 6).
#
# **What this notebook does.** Algorithm 1 with large UCI data sets as populations: draw a sample T of
# N rows, learn on T and test on the rest of the population (eps_c), estimate by repeated stratified
# k-fold CV on T, over many samples (eps_u is the mean of eps_c). Then: (1) Figure 2 and the same curves
# for every learner, population and k; (2) Figure 1 made concrete: the estimator's error decomposed into
# bias, internal and sample variance; (3) Tables 1-3 beside the paper's, and the conditional
# probabilities of Sec. 5.2; (4) the tests of Secs. 4-6 measured: how often the naive paired t-test,
# the corrected resampled t-test, the 5x2cv tests and the Bayesian correlated t-test declare a
# difference on pairs with equal eps_u, against the number of repetitions; (5) how the findings depend
# on the sample size N, which the paper does not state; (6) every claim checked.
#
# The `quick` profile runs fewer samples and repetitions than the paper; `paper` runs the paper's design
# and no more: 100 samples of adult, kr-vs-k and nursery with 1 and 30 repetitions of 2-, 10- and 30-fold
# CV for Tables 1-3 (no 30-fold CV on kr-vs-k, as the paper), 50-repetition curves on 10 samples of every
# population. What goes beyond it is a named extension with its own switch (`extensions`: the N sweep of
# Section 7, 30-fold CV on kr-vs-k, 50 repetitions on every sample). Resumable: every CV fold and every
# conditional error is cached in `store`.

# %% tags=["parameters"]
profile = "quick"                        # smoke | quick | paper
sample_size = None                       # N, rows per sample (the paper does not say; default 200)
n_samples = None                         # samples of the table populations (the paper: 100)
curve_samples = None                     # samples of the other populations (curves, decomposition)
repetitions = None                       # {k: repetitions} (the paper: 50 for the curves)
table_repetitions = None                 # repetitions of the "with repetition" tables (the paper: 30)
populations = None                       # catalog names of the populations; None: the profile's
learners = None                          # of NB, C4.5, 4NN, 10NN, LR, RF; None: the profile's (all six)
seed = None                              # samples, partitions and learner seeds derive from it
extensions = None                        # beyond the paper's design: ["sweep", "kr-vs-k 30-fold",
                                         # "curves on every sample"]; None: the profile's (paper: none)
n_jobs = 2                               # local workers
backend = "loky"                         # "loky", "dask" or a scheduler address
progress = False                         # progress bars (off keeps the document clean)
store = "../results/vanwinckelen2012"    # result cache (resumable); None keeps results in memory
shipped = "../results/paper"             # at paper: the shipped tables, read instead of computing; None: compute
output_dir = "../figures/vanwinckelen2012"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time

import matplotlib

matplotlib.use("Agg")

from cvrepro.profiles import check_run_options, study_parameters
from cvrepro.reporting import record_run, save_table, say, show, show_figure, show_table, show_verdict_changes
from cvrepro.studies import vanwinckelen2012 as study

started = time.time()
params = study_parameters("vanwinckelen2012", profile, sample_size=sample_size, n_samples=n_samples,
                          curve_samples=curve_samples, repetitions=repetitions,
                          table_repetitions=table_repetitions, populations=populations, learners=learners,
                          seed=seed, extensions=extensions)
check_run_options(store, n_jobs, backend, progress)   # a bad run option fails here, before any work
out = output_dir
say(study.describe_profile(params, profile))

# %% [markdown]
# ## 1. Populations and learners
#
# The paper names its populations and learners but no software. We choose WEKA 3.6's learners of those
# names (NaiveBayes, IBk with 4 and 10 neighbours, Logistic, J48, RandomForest) with WEKA's defaults, from
# the collection's WEKA ports, except one option of ours: LR's optimiser stops after at most
# `study.LR_MAX_ITER` iterations (WEKA's `-M`; its default runs until convergence, which on kr-vs-k and
# abalone takes thousands of iterations for a change in the conditional error of about 0.002). Each row
# says what is used for the paper's population or learner and whether it is faithful (same predictions as
# WEKA 3.6.14) or a stand-in.
#
# **Classes.** WEKA reads the population's file, so its learners are told every class of the population,
# whether the sample holds it or not (LR keeps a score for each, NB's Laplace prior counts them). Ours are
# told the same (`study.PopulationClasses`; on kr-vs-k samples our LR is bit-identical to WEKA 3.6 only so,
# tests/fixtures/vanwinckelen2012/weka-samples.json.gz). In CV a fold is scored against the classes of its
# training set (a model's vote for a class absent from it goes to the most probable present one).

# %%
show_table(study.stand_ins(), out, "stand_ins",
           "Table 0. The paper's populations and learners, what is used here, and its status.")
say(study.describe_stand_ins(params["sample_size"]))

# %% [markdown]
# ## 2. Algorithm 1
#
# For each population D and sample s: T is N rows drawn at random, D \ T the rest. Every learner is
# fitted once on T and predicts D \ T once (eps_c); the engine runs repeated stratified k-fold CV on T,
# iteration i with the same partition for every learner. eps_u is the mean of eps_c over the samples.

# %%
experiment = study.run(params, store=store, n_jobs=n_jobs, backend=backend, progress=progress,
                       shipped=shipped)
eps = study.unconditional(experiment)
show(study.captioned_unconditional(eps, params["learners"]), out)
save_table(experiment.small_classes, out, "small_classes", caption="Samples with a class of fewer than k examples.")
say(study.describe_experiment(experiment, eps))

# %% [markdown]
# ### Who wins on the conditional error: our matchups beside the paper's
#
# Before any CV result: per table population, pair and N, the share of samples on which L1 has the lower
# conditional error (eps_c does not depend on CV). The paper's share is its tables' first column, a + c,
# which both readings of its rows share (mean, min and max over its no-repetition and 30-repetition
# tables, which drew different samples). With the sweep extension, the same at each N of the sweep.

# %%
shares = study.win_shares_by_n(experiment, store=store, n_jobs=n_jobs, backend=backend)
save_table(shares, out, "win_shares", caption="eps_c win shares per pair, population and N, ours beside the paper's.")
show(study.captioned_win_shares(shares, params["sample_size"]), out)
win_dist = study.win_share_distances(shares)
show_table(win_dist, out, "win_share_distances",
           "Table A3. Mean distance of our win shares from the paper's over the 15 pairs, per population and N "
           "(pairs near the paper: within 0.1 of the range of its tables).", digits=2)
say(study.describe_win_shares(win_dist))

# %% [markdown]
# ## 3. Figure 2: repeated CV against the number of repetitions
#
# The paper's six panels, for one sample (sample 0): the repeated-CV accuracy after r repetitions (blue),
# the sample's conditional accuracy (green) and the unconditional accuracy (red). The paper's panels are
# "a random selection"; its vertical axis ranges are given in each title for comparison.

# %%
show_figure(study.plot_figure_2(experiment), out, "figure_2",
            "Figure 2 (ours). Repeated-CV accuracy against repetitions for sample 0 (blue), the sample's "
            "conditional accuracy (green) and the unconditional accuracy (red).")
fig2 = study.figure_2_table(experiment)
show_table(fig2, out, "figure_2_numbers",
           "Table B. Figure 2 in numbers (accuracy, %): sample 0 after one and after all repetitions and its "
           "conditional accuracy; over all samples the mean final RCV and eps_u; the published panel's axis "
           "range and whether ours falls inside it.", digits=2)
say(study.describe_figure_2(fig2))

# %% [markdown]
# ### The same curves for every learner, population and k
#
# One grid per population: rows are k, columns the learners, sample 0.

# %%
for pop in params["populations"]:
    show(study.captioned_curves_grid(experiment, pop), out)
final = study.final_estimates(experiment)
say(study.describe_final_estimates(final))

# %% [markdown]
# ## 4. Figure 1 made concrete: bias, internal variance, sample variance
#
# Sec. 3 decomposes the variance of the CV estimator by the law of total variance:
# Var = Var_T(E_pi[CV]) + E_T[Var_pi(CV)], the *sample* variance (over samples, of the mean over
# partitions) plus the *internal* variance (over partitions of one sample). With the bias
# E[CV] - eps_u, the mean squared error of a single CV for eps_u is bias^2 + internal + sample. We
# estimate the internal variance from the repetitions on each sample and the sample variance from the
# per-sample means (less the internal variance a mean of R partitions keeps). Var(eps_c) is the sample
# variance of the target itself (Def. 15); corr is the correlation over samples between the mean CV
# estimate and eps_c. Variances in squared percentage points.

# %%
dec = study.decomposition(experiment)
show_table(dec, out, "decomposition",
           "Table C. The single CV estimate's error per population, learner and k: eps_u (%), bias (pp), internal, "
           "sample and total variance, Var(eps_c), MSE against eps_u and eps_c (pp^2), the internal share of the "
           "variance and the correlation of E_pi[CV] with eps_c over samples.", digits=2)
show(study.captioned_decomposition_figure(dec), out)
say(study.describe_decomposition(dec))

# %% [markdown]
# ## 5. Tables 1-3: does CV pick the model with the lower conditional error?
#
# For each pair of learners (L1, L2), table population and k, over the samples: rows say which learner
# CV picks (lower CV error, ties to L2), columns which one has the lower conditional error (ties to L2),
# without repetition and with repetition. Counts are per 100 samples, `a b / c d` as the paper prints
# them: a = CV picks L1 and L1 wins, b = CV picks L1 and L2 wins, c = CV picks L2 and L1 wins, d = CV
# picks L2 and L2 wins; a + d is how often CV picks the winner. The paper drew new samples for its
# repeated tables; ours are the same samples. *How to read the printed tables is ambiguous*: the paper's
# first worked example reads them as above, its second with the rows flipped, and some printed tables
# are row-flipped against their neighbours (see `cvrepro.published.vanwinckelen2012`); Table E compares
# both readings.
#
# *Which N, sample count and reading reproduce the paper's tables?* A reading flips rows only: the columns,
# which learner has the lower conditional error, are the same under both, and no CV setting changes them.
# Tables A2-A3 give their distance from the paper's at each N run; where it is large, no reading and no
# number of samples brings our tables near the paper's, and the verdicts below that rest on the tables test
# CV on our matchups (their evidence gives the distance; the worked examples are judged only on a matchup
# like the paper's).

# %%
ours = study.contingency(experiment)
table = study.table_contingency(ours)
save_table(table, out, "tables_1_3_long",
           caption="Tables 1-3, one row per pair, population, k and repetition: ours (per 100 samples) beside the "
                   "paper's, the share picking the winner, the distance with the printed and the row-flipped table.")
for number in (1, 2, 3):
    show(study.captioned_contingency(table, number), out)
rates = study.pick_rates(ours)
pct = [c for c in rates.columns if c.startswith(("ours", "paper", "diff"))]
show_table(rates.assign(**{c: 100 * rates[c] for c in pct}), out,
           "pick_rates", "Table D. How often CV picks the learner with the lower conditional error (%, mean over "
           "the 15 pairs), per population, k and repetition; ours beside the paper's under three readings of its "
           "tables: as printed (a + d; diff is against it), every table's rows flipped (b + c, the reading of its "
           "second worked example), each table in the orientation with the larger diagonal.", digits=1)
say(study.describe_pick_rates(rates))

# %%
readings = study.reading_summary(table)
show_table(readings, out, "reading_summary",
           "Table E. Our tables against the paper's, read as printed and with the rows flipped: mean distance "
           "(half the summed absolute differences of the four cells, per 100 samples), the mean share of "
           "picking the winner, and how many tables each reading fits better.", digits=1)
say(study.describe_reading_summary(readings, params["n_samples"]))

# %% [markdown]
# ### The conditional probabilities of Sec. 5.2
#
# The paper's two worked examples, 2-fold CV without repetition: NB against C4.5 on adult and NB against
# RF on kr-vs-k. "L1 wins" means L1 has the lower conditional error.

# %%
probs = study.conditional_probabilities(ours)
show_table(probs, out, "conditional_probabilities",
           "Table F. Sec. 5.2's conditional probabilities: ours (with the counts) beside the printed values; the "
           "note names printed values that do not follow from their own fractions.", digits=2)
say(study.describe_conditional_probabilities(probs, params["table_populations"]))

# %% [markdown]
# ## 6. Sections 4-6 measured: testing on repeated-CV scores
#
# The paper argues that a test using only the internal variance (the spread over folds and
# repetitions of one sample) detects any difference once the repetitions are many, because on one
# sample two different learners practically always differ, while the question about learners is
# about eps_u; and that no unbiased estimator of the CV estimator's variance exists (Bengio &
# Grandvalet 2004). We test on every sample, for r = 1, 2, ... repetitions of 10-fold CV, with the
# naive paired t-test over the r x 10 fold accuracies, the corrected repeated k-fold t-test (Nadeau &
# Bengio's correction as Bouckaert & Frank apply it), the Bayesian correlated t-test (Corani &
# Benavoli; a difference when one learner is better beyond a rope of 1 pp with posterior probability
# above 95 %), and Dietterich's 5x2cv t-test and Alpaydin's 5x2cv F-test (five repetitions of 2-fold
# CV). Pairs: RF against itself with another seed (equal eps_u by construction), pairs whose eps_u
# difference is small against its sample-to-sample spread (effect below 0.25: near-equal), and pairs
# that differ (effect of 1 or more). The rejection rate is the share of samples on which a test
# declares a difference at 5 %.

# %%
groups = study.pair_groups(experiment)
show_table(groups, out, "pair_groups",
           "Table G. The tested pairs: eps_u(L1) - eps_u(L2) (pp), the standard deviation of the conditional "
           "difference over samples (pp), their ratio (effect) and the group.", digits=2)
decisions = study.test_decisions(experiment, groups)
rej = study.rejection_rates(decisions)
save_table(decisions, out, "test_decisions", caption="Every test's p-value and decision on every sample and pair.")
show_table(rej.assign(rejection_rate=100 * rej.rejection_rate), out, "rejection_rates",
           "Table H. Rejection rate (%) per group of pairs, test and repetitions of 10-fold CV (the 5x2cv tests "
           "at r = 5: five repetitions of 2-fold CV).", digits=1)
show_figure(study.plot_rejections(rej, params["alpha"]), out, "figure_rejections",
            "Figure 3. Share of samples on which each test declares a difference, against the repetitions of "
            "10-fold CV, per group of pairs; dashed: the nominal 5 %. The first panels are type I errors for "
            "the question about learners (eps_u equal), the last is power.")
say(study.describe_rejections(rej, params["alpha"]))

# %% [markdown]
# ## 7. The sample size N
#
# The paper does not state N. With the extension `sweep` (on at smoke and quick, off at paper, whose design it
# goes beyond) we run Algorithm 1 at several N on a small scale (a few samples and repetitions, two
# populations) and follow the findings: the unconditional accuracy,
# the CV bias against eps_c, the internal share of the variance, how often CV picks the winner, and how
# many of Figure 2's panels fall inside the paper's axis ranges: our default N = 200 is the size at which
# they do (Table B for the full run, the last column of Table I across N).
#
# For the whole notebook at several N, a Makefile-independent recipe (papermill; each N writes its own
# folder and `tools/sweep_vanwinckelen_n.py` tabulates the claims' verdicts across N):
#
# ```
# .venv/bin/python tools/sweep_vanwinckelen_n.py --sizes 100 200 500 --profile quick
# ```

# %%
sweep = study.sweep(params, store=store, n_jobs=n_jobs, backend=backend)
if sweep:
    sweep_table = study.sweep_summary(sweep)
    show(study.captioned_sweep(sweep_table, params), out)
    show_figure(study.plot_sweep(sweep_table), out, "figure_sweep",
                "Figure 4. The findings against the sample size N: unconditional accuracy, CV bias against eps_c, the "
                "internal share of the single CV's variance, how often CV picks the winner.")
    say(study.describe_sweep(sweep_table))
else:
    say("The sweep over N is an extension beyond the paper's design (`extensions=['sweep']`); off at this profile.")

# %% [markdown]
# ## 8. Claims

# %%
claims = study.claims(experiment, dec, ours, probs, rej)
show_table(claims, out, "claims_table", "Table J. The paper's claims, checked on our results.")
show_verdict_changes("vanwinckelen2012", claims, profile, shipped, out)  # at paper: what changed since quick

# %% [markdown]
# ## Conclusion

# %%
say(study.describe_conclusion(claims, final, dec, rates, rej, params["sample_size"], params["alpha"]))
run_json = record_run(out, "vanwinckelen2012", profile, claims, started)
