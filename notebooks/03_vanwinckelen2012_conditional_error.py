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
seed = None                              # samples, partitions and learner seeds derive from it
extensions = None                        # beyond the paper's design: ["sweep", "kr-vs-k 30-fold",
                                         # "curves on every sample"]; None: the profile's (paper: none)
n_jobs = 2                               # local workers
backend = "loky"                         # "loky", "dask" or a scheduler address
progress = False                         # progress bars (off keeps the document clean)
store = "../results/vanwinckelen2012"    # result cache (resumable); None keeps results in memory
output_dir = "../figures/vanwinckelen2012"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time

import matplotlib
import pandas as pd

matplotlib.use("Agg")

from cvrepro.profiles import study_parameters
from cvrepro.reporting import record_run, save_table, say, show_figure, show_table
from cvrepro.studies import vanwinckelen2012 as study
from cvrepro.verdicts import summary_sentence

started = time.time()
params = study_parameters("vanwinckelen2012", profile, sample_size=sample_size, n_samples=n_samples,
                          curve_samples=curve_samples, repetitions=repetitions,
                          table_repetitions=table_repetitions, populations=populations, seed=seed,
                          extensions=extensions)
out = output_dir
reps = params["repetitions"]
others = [p for p in params["populations"] if p not in params["table_populations"]]
left_out = [p for p in study.POPULATIONS if p not in params["populations"] + params["table_populations"]]
say(f"Profile **{profile}**: samples of N = {params['sample_size']} rows; {params['n_samples']} samples of "
    f"{', '.join(params['table_populations'])} (the tables' populations)"
    + (f" and {params['curve_samples']} of {', '.join(others)}" if others else "") + "; "
    "stratified k-fold CV with " + ", ".join(f"k = {k}: {r} repetitions" for k, r in reps.items()) +
    f" on the first {params['curve_samples']} samples of each population (the curves), "
    f"{params['table_repetitions']} (fewer where k has fewer) on the other table samples; the tables use 1 and "
    f"{params['table_repetitions']} repetitions; "
    f"learners {', '.join(params['learners'])} (LR = WEKA Logistic -R 1e-8 -M {study.LR_MAX_ITER}: the iteration "
    "cap is our reading, Table 0)."
    + ("".join(f" No {', '.join(map(str, ks))}-fold CV on {pop}" + (" (as in the paper's tables)" if pop == "kr-vs-k"
                                                                    else "") + "."
               for pop, ks in params["skip_folds"].items() if ks and pop in params["populations"]))
    + (f" {', '.join(left_out)} {'is' if len(left_out) == 1 else 'are'} left out at this profile (quick and paper "
       "run every population)." if left_out else "")
    + " Extensions beyond the paper's design: " + (", ".join(f"{e} ({study.EXTENSIONS[e]})" for e in
                                                            params["extensions"]) or "none") + ".")

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
status = study.stand_ins().query("kind == 'learner'")
stand = status[status.status != "faithful"]
capped = status[status.status.str.contains("our -M")]
stand = stand[~stand.paper.isin(capped.paper)]
say(f"{(status.status == 'faithful').sum()} of {len(status)} learners are WEKA 3.6's with its defaults, "
    + ", ".join(f"{r.paper} is WEKA's with an option of ours ({r.status.split('with ')[-1]}: the iteration cap)"
                for r in capped.itertuples()) + "; "
    + (f"{', '.join(stand.paper)} {'is a stand-in' if len(stand) == 1 else 'are stand-ins'}."
       if len(stand) else "none is a stand-in.")
    + " adult is one population of its training and test files together; the paper's N is not stated, "
    f"so N = {params['sample_size']} here (Section 7 shows why, and what changes with N).")

# %% [markdown]
# ## 2. Algorithm 1
#
# For each population D and sample s: T is N rows drawn at random, D \ T the rest. Every learner is
# fitted once on T and predicts D \ T once (eps_c); the engine runs repeated stratified k-fold CV on T,
# iteration i with the same partition for every learner. eps_u is the mean of eps_c over the samples.

# %%
experiment = study.run(params, store=store, n_jobs=n_jobs, backend=backend, progress=progress)
eps = study.unconditional(experiment)
eps_table = eps.assign(accuracy=100 * (1 - eps.eps_u), sd=100 * eps.sd_eps_c).pivot(
    index="learner", columns="population", values="accuracy").reindex(
    [lr for lr in [*params["learners"], study.TWIN] if lr in set(eps.learner)])
show_table(eps_table.reset_index(), out, "unconditional_accuracy",
           "Table A. Unconditional accuracy 100 (1 - eps_u) per learner and population (mean of the conditional "
           f"accuracy over the samples; {study.TWIN} is RF with another seed; LR = WEKA Logistic -R 1e-8 "
           f"-M {study.LR_MAX_ITER}, our reading).", digits=2)
small = experiment.small_classes
save_table(small, out, "small_classes", caption="Samples with a class of fewer than k examples.")
n_fail = len(experiment.failures)
say(f"Algorithm 1's results took {experiment.seconds['cv, computed']:,.0f} s of cross-validation and "
    f"{experiment.seconds['conditional, computed']:,.0f} s of conditional errors to compute (worker seconds, as "
    f"recorded when each result was computed; this session: {experiment.seconds['cv'] + experiment.seconds['conditional']:,.0f} s "
    f"of wall time, reading the store where it held them; {len(experiment.iterations):,} CV "
    f"estimates, {len(experiment.conditional):,} conditional errors; {n_fail} failed folds). "
    + "Samples with a class of fewer than k examples (stratification spreads it over fewer folds): "
    + ", ".join(f"{r.population} k={r.k} {r.with_small_class}/{r.samples}" for r in small.itertuples()
                if r.with_small_class) + ".")
spread = eps.groupby("population").eps_u.agg(lambda s: 100 * (s.max() - s.min()))
say("Across learners, the unconditional accuracy spans " + ", ".join(
    f"{v:.1f} pp on {p}" for p, v in spread.items()) + "; the sample-to-sample standard deviation of the "
    f"conditional error is {100 * eps.sd_eps_c.median():.2f} pp (median over learners and populations).")

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
show_table(shares[shares.N == params["sample_size"]].drop(columns=["N", "samples"]), out, "win_shares_at_n",
           f"Table A2. Share of samples on which L1 has the lower conditional error at N = {params['sample_size']}: "
           "ours beside the paper's (a + c of its tables; mean, min, max) and their distance.", digits=2)
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
gap_c = (fig2[[c for c in fig2.columns if c.startswith("RCV_R, sample")][0]] -
         fig2[[c for c in fig2.columns if c.startswith("eps_c, sample")][0]])
say(f"On sample 0 the final repeated-CV accuracy differs from the sample's conditional accuracy by "
    f"{gap_c.abs().min():.1f} to {gap_c.abs().max():.1f} pp over the panels and from the unconditional one "
    f"by {(fig2[[c for c in fig2.columns if c.startswith('RCV_R, sample')][0]] - fig2.eps_u).abs().min():.1f} "
    f"to {(fig2[[c for c in fig2.columns if c.startswith('RCV_R, sample')][0]] - fig2.eps_u).abs().max():.1f} "
    f"pp. {int(fig2['in range'].sum())} of {len(fig2)} panels lie inside the paper's axis ranges.")

# %% [markdown]
# ### The same curves for every learner, population and k
#
# One grid per population: rows are k, columns the learners, sample 0.

# %%
for pop in params["populations"]:
    show_figure(study.plot_curves_grid(experiment, pop), out, f"curves_{pop}",
                f"Figure 2 for every learner and k on {pop} (sample 0): repeated CV (blue), conditional (green), "
                "unconditional (red) accuracy.")
run_est = study.running_estimates(experiment)
final = run_est[run_est.r == run_est.groupby(["population", "learner", "k", "sample"]).r.transform("max")]
closer_c = float(((final.rcv - final.eps_c).abs() < (final.rcv - final.eps_u).abs()).mean())
say(f"Over every population, learner, k and sample, the final repeated-CV estimate lies closer to the "
    f"sample's conditional error than to the unconditional error in {closer_c:.0%} of the cases; its median "
    f"distance is {100 * (final.rcv - final.eps_c).abs().median():.2f} pp from eps_c and "
    f"{100 * (final.rcv - final.eps_u).abs().median():.2f} pp from eps_u.")

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
show_figure(study.plot_decomposition(dec), out, "figure_1_decomposition",
            "Figure 1 made concrete: the single CV's mean squared error for eps_u as bias^2 (red) + internal "
            "variance (blue) + sample variance (orange), per learner; bars left to right are k = "
            + ", ".join(map(str, sorted(dec.k.unique()))) + " (labelled on top).")
share = dec.groupby("k")["internal share"].median()
say("The internal variance is " + ", ".join(f"{v:.0%} of the total at k = {k}" for k, v in share.items())
    + " (median over populations and learners): what repeated CV removes is "
    + ("most" if share.median() > 0.5 else "the smaller part") + " of the estimator's variance; the rest, the "
    f"sample variance, no repetition on one sample can reduce. The squared bias is larger than the variance "
    f"in {(dec.bias ** 2 > dec['total var']).mean():.0%} of the cells. Over samples, E_pi[CV] correlates with eps_c at "
    f"a median {dec['corr'].median():+.2f}: a sample on which the model is good is not reliably one on which CV "
    "says so.")

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
    show_table(study.wide_contingency(table, number), out, f"table_{number}",
               f"Table {number} (ours beside the paper). Per k: our table (per 100 samples), the paper's, and the "
               "difference in the share of samples on which CV picks the winner (a + d, pp). Repetitions: 1, and "
               f"ours / the paper's repeated count (the paper: 30). LR = WEKA Logistic -R 1e-8 -M {study.LR_MAX_ITER} "
               "(our reading).", digits=1)
rates = study.pick_rates(ours)
pct = [c for c in rates.columns if c.startswith(("ours", "paper", "diff"))]
show_table(rates.assign(**{c: 100 * rates[c] for c in pct}), out,
           "pick_rates", "Table D. How often CV picks the learner with the lower conditional error (%, mean over "
           "the 15 pairs), per population, k and repetition; ours beside the paper's under three readings of its "
           "tables: as printed (a + d; diff is against it), every table's rows flipped (b + c, the reading of its "
           "second worked example), each table in the orientation with the larger diagonal.", digits=1)
single = rates[~rates.repeated].pivot(index="population", columns="k", values="ours")
say("Without repetition, CV picks the winner in " + "; ".join(
    f"{pop}: " + ", ".join(f"{v:.0%} at {k}-fold" for k, v in row.dropna().items()) for pop, row in single.iterrows())
    + " of the samples (the paper: " + "; ".join(
    f"{pop}: " + ", ".join(f"{v:.0%}" for v in row.dropna()) for pop, row in
    rates[~rates.repeated].pivot(index="population", columns="k", values="paper").iterrows()) + ").")

# %%
readings = study.reading_summary(table)
show_table(readings, out, "reading_summary",
           "Table E. Our tables against the paper's, read as printed and with the rows flipped: mean distance "
           "(half the summed absolute differences of the four cells, per 100 samples), the mean share of "
           "picking the winner, and how many tables each reading fits better.", digits=1)
say("Read as printed, our tables are on average " + ", ".join(
    f"{r['distance']:.0f} samples in 100 away from the paper's on {r['population']} (rows flipped: "
    f"{r['distance rows flipped']:.0f})" for _, r in readings.iterrows()) + ". " +
    ("The printed reading fits better overall." if readings.distance.mean() < readings["distance rows flipped"].mean()
     else "The row-flipped reading fits better overall.") +
    " The paper does not state its sample size N; with few samples per table, a count moves by "
    f"{100 / params['n_samples']:.0f} per 100 samples with each sample, so distances of that order are noise.")

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
def recall(g, event):
    r = g.loc[event]
    ours = "no sample" if pd.isna(r["ours"]) else f"{r['ours']:.0%} ({r['ours (fraction)']})"
    return f"{ours}; paper {r['paper']:.0%} ({r['paper (fraction)']})"


for comparison, g in probs.groupby("comparison", sort=False):
    g = g.set_index("event")
    if g.ours.isna().all():
        say(f"**{comparison}**: not in this run (its population is not among {', '.join(params['table_populations'])}).")
        continue
    say(f"**{comparison}**: when L1 wins, CV picks it in {recall(g, 'P(CV picks L1 | L1 wins)')}; when L2 wins, CV "
        f"picks L2 in {recall(g, 'P(CV picks L2 | L2 wins)')}.")

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
naive = rej[rej.test == "paired t (naive)"]
group_names = {"same learner, another seed": "RF against itself with another seed",
               "near-equal eps_u": "pairs with near-equal eps_u", "in between": "pairs in between",
               "different eps_u": "pairs with different eps_u"}
lines = []
for g in [g for g in group_names if g in set(naive.group)]:
    d = naive[naive.group == g].sort_values("repetitions")
    lines.append(f"{group_names[g]}: {d.rejection_rate.iloc[0]:.0%} at r = {d.repetitions.iloc[0]}, "
                 f"{d.rejection_rate.iloc[-1]:.0%} at r = {d.repetitions.iloc[-1]}")
top = rej.sort_values("repetitions").groupby(["group", "test"], sort=False).tail(1)
null_top = top[top.group.isin(["same learner, another seed", "near-equal eps_u"])]
kept = null_top.groupby("test").rejection_rate.max().reindex([t for t in study.TESTS if t in set(null_top.test)])
power = top[top.group == "different eps_u"].set_index("test").rejection_rate
say("The naive paired t-test declares a difference on " + "; ".join(lines) + ". At the most repetitions, the "
    "largest rejection rate on the null pairs is " + ", ".join(f"{t} {v:.0%}" for t, v in kept.items()) +
    f"; tests within twice the nominal 5 %: {', '.join(kept[kept <= 2 * params['alpha']].index) or 'none'}. "
    "Power on the pairs that differ: " + ", ".join(
        f"{t} {power[t]:.0%}" for t in study.TESTS if t in power.index) + ".")

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
    show_table(sweep_table, out, "sweep_sample_size",
               f"Table I. The findings against N ({params['sweep_samples']} samples of "
               f"{', '.join(params['sweep_populations'])}, repetitions {params['sweep_repetitions']}).", digits=3)
    show_figure(study.plot_sweep(sweep_table), out, "figure_sweep",
                "Figure 4. The findings against the sample size N: unconditional accuracy, CV bias against eps_c, the "
                "internal share of the single CV's variance, how often CV picks the winner.")
    lo, hi = sweep_table.iloc[0], sweep_table.iloc[-1]
    say(f"From N = {int(lo.N)} to N = {int(hi.N)}, the mean unconditional accuracy rises from "
        f"{lo['accuracy (eps_u)']:.1f} % to {hi['accuracy (eps_u)']:.1f} %, the mean absolute bias of CV changes from "
        f"{lo['|bias| (pp)']:.2f} to {hi['|bias| (pp)']:.2f} pp and the internal share of the variance from "
        f"{lo['internal share']:.0%} to {hi['internal share']:.0%}; "
        + ", ".join(f"{c.split(', ')[1]} CV picks the winner {lo[c]:.0%} -> {hi[c]:.0%}"
                    for c in sweep_table.columns if c.startswith("picks winner")) +
        ". Figure 2's panels inside the paper's ranges: " + ", ".join(
            f"N = {int(r['N'])}: {r['Figure 2 panels in range']:.0%}" for _, r in sweep_table.iterrows())
        + " (the panels on the sweep's populations).")
else:
    say("The sweep over N is an extension beyond the paper's design (`extensions=['sweep']`); off at this profile.")

# %% [markdown]
# ## 8. Claims

# %%
claims = study.claims(experiment, dec, ours, probs, rej)
show_table(claims, out, "claims_table", "Table J. The paper's claims, checked on our results.")
for c in claims.itertuples():
    say(f"- **{c.verdict}**: {c.claim} ({c.where}). {c.evidence}.")

# %% [markdown]
# ## Conclusion

# %%
verdict = claims.set_index("claim")["verdict"]
test_verdict = verdict[[c for c in verdict.index if c.startswith("A test that uses only the internal")][0]]
say(summary_sentence(claims) + f" At N = {params['sample_size']} and this profile's scale, repeated CV settles "
    f"{100 * (final.rcv - final.eps_c).abs().median():.1f} pp (median) from the sample's conditional error and "
    f"{100 * (final.rcv - final.eps_u).abs().median():.1f} pp from the unconditional error; the internal variance "
    f"it removes is {dec['internal share'].median():.0%} (median) of the single estimate's variance; CV picks the "
    f"model with the lower conditional error in {rates[~rates.repeated].ours.mean():.0%} of the samples without "
    f"repetition (the paper: {rates[~rates.repeated].paper.mean():.0%} with its tables read as printed, "
    f"{rates[~rates.repeated]['paper, rows flipped'].mean():.0%} with every table's rows flipped, "
    f"{rates[~rates.repeated]['paper, larger diagonal'].mean():.0%} with each table in the "
    "orientation that favours CV). The paper's warning that a test on the "
    f"internal variance rejects a true null more often as repetitions grow: **{test_verdict}** here (the naive "
    f"paired t-test on {'; '.join(lines[:2])}); the corrected and Bayesian tests stay near the nominal level. On "
    "one sample, repetition buys a more precise estimate of that sample's CV value, not evidence about the "
    "learners.")
record_run(out, "vanwinckelen2012", profile, claims, started)
