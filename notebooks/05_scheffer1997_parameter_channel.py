# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 05 · Scheffer & Herbrich (1997): tuning on the test set is a communication channel
#
# Scheffer, T., & Herbrich, R. (1997). *Unbiased assessment of learning algorithms.* IJCAI-97, pp. 798-803.
#
# **What the paper claims.** When a learner's parameters are adjusted until the error on the test set
# (or the averaged error on the test folds of a cross-validation) is minimal, the parameters become a
# channel that carries information about the test labels into the learner. With c labels leaked, the
# hypothesis gains c - X hits, X being the hits it already had on those objects. The paper computes the
# probability that this over-ranks C4.5 (or FOIL) on StatLog benchmarks in three settings: one-shot
# training and test (Sec. 2: hard when the test set is large), cross-validation with parameters tuned
# per fold (Sec. 3: easy), and cross-validation with one setting for all folds (Sec. 4: depends on the
# default rate against the hit rate). It concludes that only nested assessment is unbiased (Sec. 5) and
# that a learner with more parameters will probably be ranked above an equally good one with fewer.
#
# **What this notebook does.** (1) Recomputes every number of Secs. 2.4, 3.1 and 4.1 and sets it beside
# the printed one, naming the printed numbers that do not follow from the formulas. (2) Draws the
# probability of being over-ranked and the trials and bits it costs. (3) Runs the channel on a real
# learner: our C4.5 (WEKA's J48) on StatLog's Landsat and DNA splits, with c extra parameters tuned by
# the paper's greedy search, and checks the formula's distribution of extra hits by simulation over
# random orderings of the test set, with the StatLog ranks the channel buys. (4) Measures Sec. 5: naive
# tuning against nested cross-validation for C4.5, IBk, SMO and the MLP on small data sets and on samples
# of large ones, where held-out data gives the truth. (5) Checks each claim.
#
# The `quick` profile uses 5 x 5 nested CV and smaller grids; `paper` runs 10 x 10 with the full grids
# (resumable: the engine caches every fold in `store`).

# %% tags=["parameters"]
profile = "quick"                    # smoke | quick | paper
pool_datasets = None                 # large catalog sets sampled for a held-out truth; None: the profile's
cv_datasets = None                   # small catalog sets assessed by repeated CV; None: the profile's
mc_orderings = None                  # random test-set orderings of the channel simulation
n_jobs = 2                           # local workers
backend = "loky"                     # "loky", "dask" or a scheduler address
progress = False                     # progress bars of the engine (off keeps the document clean)
store = "../results/scheffer1997"    # result cache (resumable); None keeps results in memory
shipped = "../results/paper"         # at profile paper: the shipped tables, read instead of computing; None: compute
output_dir = "../figures/scheffer1997"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time
import warnings

import matplotlib

matplotlib.use("Agg")

from cvrepro.profiles import check_run_options, study_parameters
from cvrepro.reporting import save_table, say, show, show_figure, show_table, show_verdict_changes
from cvrepro.studies import scheffer1997 as study
from cvrepro.verdicts import summary_sentence

started = time.time()
params = study_parameters("scheffer1997", profile, pool_datasets=pool_datasets, cv_datasets=cv_datasets,
                          mc_orderings=mc_orderings)
check_run_options(store, n_jobs, backend, progress)   # a bad run option fails here, before any work
out = output_dir
say(study.describe_profile(params, profile))

# %% [markdown]
# ## 1. The paper's benchmarks, recomputed (Secs. 2.4, 3.1, 4.1)
#
# For each printed statement: the extra hits z needed to move up one rank, the leaked labels c, the
# probability of succeeding, the learning trials (c x |classes|) and the channel width (c x H bits). Ours
# are computed with `cvrepro.paramchannel` from the paper's hit counts; `c ours` is the smallest c that
# reaches the printed probability, `P ours` is the formula at the printed c. Landsat and DNA use StatLog's
# published results to find z and our test files for H; diabetes uses StatLog's 12 folds, heart its 9
# folds of 30. The FEM **mesh** data set is not available; its rows use the printed counts.

# %%
bench = study.benchmark_table()
show_table(bench, out, "benchmarks",
           "Table 1. Secs. 2.4, 3.1 and 4.1: ours beside the printed numbers. 'does not follow' names the "
           "printed quantities that differ from the formulas; the note explains each.", digits=3)
say(study.describe_benchmarks(bench))

# %% [markdown]
# ## 2. The probability of being over-ranked against the leaked labels c
#
# One curve per benchmark and setting; circles mark the (c, probability) pairs the paper prints.

# %%
curves = study.probability_curves(params["c_max_one_shot"], params["c_max_cv"])
show_figure(study.figure_probability(curves), out, "figure_probability",
            "Figure 1. P(extra hits >= z) against c. Left: one test set (hypergeometric, Sec. 2.3); middle: "
            "parameters tuned per fold (sum over folds, Sec. 3); right: one setting for all folds (eq. 14, "
            "Sec. 4). Dotted: the paper's 90 % target. Circles: printed values.")
say(study.describe_probability(curves))

# %% [markdown]
# ## 3. What it costs: trials and bits against the target probability

# %%
effort = study.effort_curves(curves)
show_figure(study.figure_effort(effort), out, "figure_effort",
            "Figure 2. Learning trials of the greedy search (c x |classes|, left) and channel width (c x H bits, "
            "right) needed to be over-ranked with a given probability; solid one-shot, dashed per-fold, dotted "
            "fixed parameters. A curve ends where the probability cannot reach the target.")
say(study.describe_effort(effort))

# %% [markdown]
# ## 4. The channel on a real learner: our C4.5 on Landsat and DNA
#
# `ParameterChannel` gives any learner c extra parameters: the labels of the first c objects it
# classifies. The paper's greedy search (Sec. 2.2) tries every label for objects 1..c and keeps the one
# with the best test accuracy: c x |classes| real fit-and-predict trials. We fit our C4.5 (J48 defaults)
# on StatLog's training file, and present the test file in many random orders: on each, the search gains
# c - X hits, X the hits C4.5 had on the first c objects. The ranks are StatLog's (Michie, Spiegelhalter &
# Taylor 1994), embedded with their source in `cvrepro.published.scheffer1997`.

# %%
with warnings.catch_warnings(record=True) as caught:     # shown once below, not scattered in the outputs
    warnings.simplefilter("always")
    results = study.run(params, store=store, n_jobs=n_jobs, backend=backend, progress=progress, shipped=shipped)
if caught:
    say(f"**{len(caught)} warnings during the runs**: " + "; ".join(sorted({str(w.message)[:200] for w in caught})))
runs, tuning = results["channel"], results["tuning"]
show(study.captioned_statlog(), out)
facts = study.stated_facts({("Landsat" if r.dataset == "landsat" else "DNA"): r.hits / r.test_size for r in runs})
show_table(facts, out, "stated_facts", "Table 3. The facts the benchmarks rest on: printed, StatLog's, ours.",
           digits=3)
say(study.describe_facts(facts))

# %%
summary = study.channel_summary(runs)
show_table(summary, out, "channel_summary",
           "Table 4. Our C4.5 on StatLog's splits beside StatLog's C4.5: test hits, StatLog rank, extra hits for "
           "the next rank, and the c that reaches it with 90 % by the formula and in the simulation.", digits=4)
greedy = study.greedy_check(runs)
show_table(greedy, out, "greedy_searches",
           "Table 5. The paper's greedy search run for real (ParameterChannel around our C4.5) at the paper's c: "
           "trials per search and how many searches gained exactly the formula's c - X hits.", digits=2)
say(study.describe_channel(summary, greedy))

# %%
show_figure(study.figure_gain_check(runs), out, "figure_gain_check",
            "Figure 3. Extra hits from the paper's c leaked labels over random orderings of the test set (bars) "
            "against the hypergeometric distribution of Sec. 2.3 with our C4.5's hits (line).")
checks = {r.dataset: study.gain_check(r) for r in runs}
say(study.gain_check_note(checks))

# %%
show_figure(study.figure_ranks(runs), out, "figure_ranks",
            "Figure 4. Probability that C4.5 with c leaked labels reaches each of the next StatLog ranks (tied "
            "algorithms count as one step): simulation over orderings (lines), formula (dots). Dotted vertical: "
            "the paper's c.")
ranks = study.rank_table(runs)
show_table(ranks, out, "rank_table", "Table 6. StatLog ranks bought by c leaked labels (mean over orderings).",
           digits=3)
say(study.describe_ranks(runs))

# %% [markdown]
# ## 5. Unbiased assessment, measured (Sec. 5)
#
# For each learner and grid of real parameters, on each unit (a small data set with repeated outer CV,
# or a sample of a large data set whose remaining rows give the truth), the engine scores every setting
# on the outer folds and on inner folds of every outer training set (stratified, the same folds for all
# settings). From these scores (`cvrepro.nested`):
#
# - **naive**: the best setting's mean outer-fold accuracy (tune on the test folds, report them);
# - **per-fold**: each outer fold's best setting (Sec. 3's setting);
# - **nested**: each outer fold's accuracy of the setting its inner CV chose;
# - **truth** (samples only): the held-out accuracy of the setting the outer CV prefers, refitted on each
#   outer training set and scored on the rest of the pool, averaged over the folds: the truth of what the
#   outer CV's mean estimates, at its training size (fitting on the whole sample would add the gain of 25 %
#   more data to the comparison).
#
# MLP-seed is the collection's MLP (-H 3) whose random seed is a parameter: setting 0 is the plain MLP.

# %%
show(study.captioned_tuning_design(tuning), out)
show_table(tuning.units, out, "tuning_units",
           "Table 8. Units: samples of large data sets (pool, the rest held out) and small data sets (cv).")
say(study.describe_tuning(tuning))

# %%
estimates = study.estimates_table(tuning)
bias = study.bias_table(estimates)
show_table(bias, out, "bias", study.BIAS_CAPTION, digits=4)
save_table(estimates, out, "estimates", caption="Every nested CV: the default setting's CV accuracy, the naive, "
           "nested and per-fold estimates, the setting chosen, and the truth of the deployed and of the default setting.")
say(study.bias_note(bias, len(estimates)))

# %%
sbias = study.settings_bias(tuning)
show(study.captioned_settings_bias(sbias, params["subset_draws"]), out)
show_table(sbias, out, "settings_bias", "Table 10. The numbers of Figure 5.", digits=4)
say(study.describe_settings_bias(sbias))

# %%
pbias = study.parameters_bias(tuning)
if len(pbias):
    show_figure(study.figure_parameters_bias(pbias), out, "figure_parameters_bias",
                "Figure 6. Bias against the number of parameters tuned (the rest at their defaults); numbers: "
                "settings. Solid: naive minus nested; dashed: naive minus held-out truth.")
    show_table(pbias, out, "parameters_bias", "Table 11. The numbers of Figure 6.", digits=4)
    say(study.describe_parameters_bias(pbias))

# %%
ranking = study.ranking_effect(tuning)
show_table(ranking, out, "ranking_effect",
           "Table 12. The abstract's ranking effect: the MLP whose seed is a parameter (B) against the same MLP "
           "with its seed fixed (A), equally good by construction. How often B is ranked above A.", digits=3)
gains = study.tuning_gain_ranks(estimates)
show_table(gains, out, "tuning_gains",
           "Table 13. Each learner tuned (B) against itself at its defaults (A): how often and by how much tuning "
           "looks better by each protocol.", digits=4)
say(study.describe_ranking(ranking, gains))

# %%
cost = study.cost_table(tuning)
show_table(cost, out, "cost", "Table 14. The price of unbiased assessment: trials of each protocol per unit and "
           "measured seconds of fitting and predicting.", digits=1)
say(study.describe_cost(cost, params["inner_folds"]))

# %% [markdown]
# ## 6. Claims

# %%
claims = study.claims(curves, summary, {d: t.attrs["pvalue"] for d, t in checks.items()}, estimates, sbias, ranking)
show_table(claims, out, "claims_table", "Table 15. The paper's claims, checked on our results.")
show_verdict_changes("scheffer1997", claims, profile, shipped, out)   # at paper: what changed since quick

# %% [markdown]
# ## Conclusion

# %%
formula_fits = all(t.attrs["pvalue"] > 0.01 for t in checks.values())
say(summary_sentence(claims) + " " + study.claims_sentence(claims) + " "
    + study.conclusion(bench, claims, bias, formula_fits))
from cvrepro.reporting import record_run  # noqa: E402

run_json = record_run(out, "scheffer1997", profile, claims, started)
