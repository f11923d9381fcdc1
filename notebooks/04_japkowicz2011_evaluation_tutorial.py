# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 04 · Japkowicz & Shah (2011): evaluating learning algorithms, the tutorial re-run
#
# Japkowicz, N., & Shah, M. (2011). *Evaluating Learning Algorithms: A Classification Perspective.* Cambridge
# University Press, and the tutorial based on it.
#
# **What the tutorial says.** Performance measures disagree (eight WEKA classifiers on UCI Breast Cancer rank
# differently under nine measures); accuracy hides the kind of errors and is optimistic against a chance-corrected
# measure; cost curves tell where each classifier is preferable, ROC curves only that it sometimes is. The choice
# of a statistical test depends on the setting: a paired t-test for two classifiers on one domain if its
# assumptions hold (they do not for C4.5 and NB on Labour), sign and Wilcoxon tests for two classifiers on many
# domains, Friedman's and Nemenyi's tests for many. Resampling re-uses data and so breaks the independence the
# tests assume; 5x2cv and corrected 10x10 schemes trade type I error against power. Two research studies close
# it: a visualization of classifiers as points projected from their confusion matrices, and a simulated flu
# domain to test whether simple classifiers are more robust to changing environments.
#
# **What this notebook does.** Re-runs every table with WEKA-faithful classifiers on the same data, folds and
# seed as WEKA's Explorer (`cvrepro.wekaeval`), each number beside the printed one and, when the WEKA 3.6.14 jar
# is found, beside the real WEKA's; recomputes every worked example with the library; rebuilds the two
# research studies; adds the simulation the tutorial only describes (type I error and power of each test when the
# true difference is known); and checks each claim. The procedure lives in `cvrepro.studies.japkowicz2011`, the
# printed numbers in `cvrepro.published.japkowicz2011`.
#
# The `quick` profile runs one 10-fold CV per domain for the sign test and 200 simulated data sets per
# difference; `paper` runs WEKA's Experimenter scale (10 x 10 CV) and 1,000 simulated data sets (resumable).

# %% tags=["parameters"]
profile = "quick"                     # smoke | quick | paper
sim_replications = None               # simulated data sets per true difference; None: the profile's
flu_repetitions = None                # repetitions of the flu experiments; None: the profile's
weka_reference = None                 # compare with the real WEKA when its jar is found (CVREPRO_WEKA_JAR)
n_jobs = 2                            # local workers
backend = "loky"                      # joblib backend: "loky", or "dask" with a running client
progress = False                      # progress bars (off keeps the document clean)
store = "../results/japkowicz2011"    # result cache (resumable); None keeps results in memory
shipped = "../results/paper"          # at profile paper: the shipped tables, read instead of computing; None: compute
output_dir = "../figures/japkowicz2011"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time
import warnings

import matplotlib

matplotlib.use("Agg")
from cvrepro.profiles import check_run_options, study_parameters
from cvrepro.published import japkowicz2011 as paper
from cvrepro.reporting import record_run, say, show, show_figure, show_table, show_verdict_changes
from cvrepro.studies import japkowicz2011 as study
from cvrepro.verdicts import summary_sentence

started = time.time()
params = study_parameters("japkowicz2011", profile, sim_replications=sim_replications,
                          flu_repetitions=flu_repetitions, weka_reference=weka_reference)
check_run_options(store, n_jobs, backend, progress)   # a bad run option fails here, before any work
out = output_dir
say(study.describe_profile(params, profile))

# %% [markdown]
# ## Data and classifiers
#
# The tutorial's data sets and what stands for each; Anneal and Liver are read as the tutorial's WEKA read them
# (the difference decides whether the printed numbers come out). The classifiers by the tutorial's labels: what
# runs, whether it is faithful to WEKA 3.6.14, and the WEKA command it stands for.

# %%
show_table(study.datasets_table(), out, "stand_ins_datasets",
           "Table 0a. The tutorial's data sets, the catalog set used for each, and how it is read.")
learners = study.learners_table()
show_table(learners, out, "stand_ins_learners",
           "Table 0b. The classifiers: tutorial label, our learner, status against WEKA 3.6.14, the WEKA command.")
say(study.describe_learners(learners))

# %%
with warnings.catch_warnings(record=True) as caught:     # shown once below, not scattered in the outputs
    warnings.simplefilter("always")
    results = study.run(params, store=store, n_jobs=n_jobs, backend=backend, progress=progress, shipped=shipped)
if caught:
    say(f"**{len(caught)} warnings during the runs**: " + "; ".join(sorted({str(w.message)[:200] for w in caught})))
say(f"Real WEKA: **{results.weka_version}** ran the same cross-validations (its own `crossValidateModel`)."
    if results.weka else
    "Real WEKA: **not found** (set `CVREPRO_WEKA_JAR` to WEKA 3.6's jar to add its column); the tables below show "
    "ours beside the printed numbers only.")

# %% [markdown]
# ## 1. Which classifier is better? Nine measures on UCI Breast Cancer
#
# Eight WEKA classifiers with default settings, 10-fold cross-validation as WEKA's Explorer runs it (rows
# randomized with `java.util.Random(1)`, stratified, each training fold shuffled again), the measures pooled over
# the folds as WEKA's `Evaluation` does. TPR, FPR, precision, recall, F and AUC are those of the recurrence class;
# Info S is Kononenko & Bratko's information score in bits, summed over the instances.

# %%
ours = study.table_measures(results)
weka = study.table_measures(results, source="weka") if results.weka else None
show_table(ours, out, "measures_ours", "Table 1a (ours). The nine measures (and kappa) on Breast Cancer; "
           "'IBk -K 3' is added below the eight.", digits=4)
show_table(paper.measures_table(), out, "measures_paper", "Table 1b (printed).", digits=4)
vs = study.table_measures_vs_paper(ours, paper.measures_table(as_text=True), weka)
show(study.captioned_measures_vs_paper(vs, weka), out)
vs.to_csv(f"{out}/measures_vs_paper_all.csv", index=False)
say(study.describe_measures(vs))
say("Why the differing rows differ: " + " ".join(f"**{k}**: {v}" for k, v in study.measures_notes(vs, learners).items()))

# %% [markdown]
# ### Ranking the results
# Rank 1 is the best value of each measure (lowest RMSE and FP rate), ties share the best rank. Three rankings side
# by side: of our numbers, of the printed numbers (recomputed), and the printed ranks.

# %%
side, wrong = study.table_ranks_vs_paper(ours, paper.measures_table(), paper.ranks_table())
show_table(side, out, "ranks_vs_paper", "Table 2. Ranks per measure: ours / of the printed values / printed.")
show_table(wrong, out, "ranks_printed_slips",
           "Table 2b. Printed ranks that do not follow from the printed values.")
say(study.describe_ranks(ours, wrong))

# %% [markdown]
# ## 2. The worked examples of the measures
# Each computed by `cvrepro.metrics` from the slide's confusion matrices and predictions.

# %%
examples = study.worked_examples()
show_table(examples, out, "worked_examples", "Table 3. Worked examples: ours beside the slide's numbers.", digits=5)
say(study.describe_worked_examples(examples))

# %% [markdown]
# ## 3. ROC and cost curves
# Two classifiers' pooled out-of-fold scores on Breast Cancer. Each ROC point is a line in cost space; a
# classifier's cost curve is the lower envelope of its lines (Drummond & Holte), and where two envelopes cross
# the preferred classifier changes.

# %%
rc = study.roc_cost_analysis(results, tuple(params["cost_pair"]))
show(study.captioned_roc_cost(rc), out)
show_table(rc["ranges"], out, "cost_curve_ranges", "Table 4. Operating ranges: where each cost curve is lowest.")
say(study.describe_roc_cost(rc))

# %% [markdown]
# ## 4. Two classifiers, one domain: C4.5 and NB on Labour
# WEKA's 10-fold CV repeated with seeds 1..r (the Experimenter's runs). The tutorial's t-test has df = 9: ten
# paired values, here the ten runs' accuracies (and, as the other reading, the ten folds of run 1).

# %%
lab = study.labor_tests(results)
show_table(lab["tests"], out, "labour_tests", "Table 5. C4.5 vs NB on Labour: the tests.", digits=4)
show_table(lab["checks"], out, "labour_assumptions", "Table 6. The t-test's assumptions: normality and equal "
           "variance of the accuracies.", digits=4)
show_figure(study.figure_labor_assumptions(lab), out, "figure_labour_assumptions",
            "Figure 2. C4.5 and NB on Labour: per-fold accuracies (left; C4.5 spreads wider) and normal Q-Q plots "
            "(right).")
say(study.labor_note(lab, params["alpha"]))

# %% [markdown]
# ## 5. Two classifiers, many domains: the sign test and Wilcoxon's signed-rank test
# First on the printed accuracies (the slides' worked examples), then on our own run of the ten domains.

# %%
printed_tests = study.printed_two_domain_tests(params["alpha"])
show_table(printed_tests, out, "sign_wilcoxon_printed", "Table 7. The sign test and Wilcoxon's test recomputed "
           "on the printed accuracies.", digits=4)
say(study.describe_printed_tests(printed_tests))

# %%
acc = study.accuracy_table(results)
show(study.captioned_ten_domains(acc, params["sign_runs"]), out)
ours_tests = study.two_domain_tests(acc, params["alpha"])
show(study.captioned_two_domain_tests(ours_tests, params["alpha"]), out)
say(study.ten_domain_note(acc, paper.sign_test_table(), ours_tests, results.weka))

# %% [markdown]
# ## 6. Many classifiers, many domains: Friedman, Nemenyi, effect size
# On the printed fA / fB / fC table (the slide's ranks tie 85.91 and 85.90; a tolerance of 0.01 reproduces them).

# %%
fr = study.friedman_printed(params["alpha"])
show_table(fr["rank_sums"].reset_index(names="classifier"), out, "friedman_rank_sums",
           "Table 10. Friedman rank sums: ours beside the printed ones.")
show_table(fr["pairs"], out, "nemenyi_pairs", "Table 11. Nemenyi post-hoc test and Cohen's d for each pair.",
           digits=3)
show_figure(study.figure_cd(fr["nemenyi"].average_ranks, fr["nemenyi"].critical_difference,
                            "printed fA / fB / fC, 10 domains, Nemenyi alpha = 0.05"), out, "figure_cd",
            "Figure 3. Critical-difference diagram of the Friedman example (bars join classifiers not significantly "
            "different).")
say(study.describe_friedman(fr))

# %%
if len(acc) >= 3:
    cd_ours, cd_text = study.friedman_ours(acc, params["alpha"])
    show(cd_ours, out)
    say(cd_text)

# %% [markdown]
# ## 7. Resampling
# The bootstrap error estimates (e0, .632, .632+), the label-permutation test ("could this accuracy come from bogus
# data?"), and the repeated-CV tests (Dietterich's 5x2cv t, Alpaydin's 5x2cv F, the 10 x 10 naive and corrected t)
# on the same classifier pair.

# %%
est, tests = study.resampling_table(results, params["alpha"])
show_table(est, out, "resampling_estimates", "Table 12. Error estimates and the permutation test.", digits=4)
show_table(tests, out, "resampling_tests", "Table 13. Tests built on repeated cross-validation.", digits=4)
say(study.resampling_note(est, tests))

# %% [markdown]
# ### The bootstrap against a truth
# Whether e0 is pessimistic needs the true error, which Labour cannot give. Samples of Labour's size from a large
# data set can: each estimator on the sample against the error of the model fit on it, measured on the rest.

# %%
boot_truth = study.boot_truth_table(results)
show_table(boot_truth, out, "bootstrap_truth", "Table 12b. Bias of the bootstrap estimators against the held-out "
           "true error (mean over the samples, ± half-width of the 95 % t interval; positive: pessimistic).", digits=4)
say(study.boot_truth_note(boot_truth))

# %% [markdown]
# ### How often do the tests err? A simulation
# The tutorial reports Dietterich's, Alpaydin's and Bouckaert's findings without numbers. Here: two Gaussian naive
# Bayes classifiers, each on its own block of two features; block A separates the classes by 1 standard deviation,
# block B by 1 (the null: the two classifiers are exchangeable, true difference exactly 0) or less (a known
# positive difference, measured on large fresh samples). Each simulated data set has `sim_n` examples.

# %%
sim = study.simulation_table(results, params["alpha"])
show_table(results.sim_truth, out, "simulation_truth", "Table 14. True accuracies of A and B (training sets of "
           "0.9 n, scored on 20,000 fresh examples) and their difference.", digits=4)
show(study.captioned_simulation_rejections(sim, params["alpha"], params["sim_replications"]), out)
show_figure(study.figure_simulation(sim, params["alpha"]), out, "figure_simulation",
            "Figure 4. Type I error (left, 95 % Wilson intervals; dotted: alpha) and power (right) of each test.")
say(study.simulation_note(sim, params["alpha"]))
comparisons = study.compare_tests(results, params["alpha"])
show_table(comparisons, out, "simulation_comparisons", "Table 15b. The tutorial's comparisons of the tests (Dietterich, "
           "Alpaydin, Bouckaert) on the same simulated data sets: difference of the rejection rates, a - b, with a 95 % "
           "interval for paired proportions; type I error under the null, power pooled over the true differences.",
           digits=3)

# %% [markdown]
# ## 8. Recent research 1: classifiers as points
# Each classifier's confusion matrices on Breast Cancer, Labour and Liver concatenated into one vector (and, apart,
# Anneal's 6 x 6 matrix); the ideal classifier puts every example on the diagonal. Distances to it in L2 and L1;
# the picture is the minimal-cost-spanning-tree projection (`cvrepro.projection`), which keeps every tree edge and
# every distance to the ideal classifier exact. Points are numbered as in the slides: 1 is Ideal, then by distance.

# %%
vis = {}
if all(d in params["explorer_datasets"] for d in study.VIS_DOMAINS.values()):
    vis["binary"] = study.visualization(results, study.VIS_DOMAINS)
    vis["binary_l1"] = study.visualization(results, study.VIS_DOMAINS, metric="cityblock")
if study.VIS_MULTICLASS in params["explorer_datasets"]:
    vis["anneal_l2"] = study.visualization(results, {"An": study.VIS_MULTICLASS})
    vis["anneal_l1"] = study.visualization(results, {"An": study.VIS_MULTICLASS}, metric="cityblock")
if vis:
    show(study.captioned_visualization(vis), out)
    show(study.captioned_visualization_distances(vis), out)
    say(study.visualization_note(vis))
vt = study.visualization_table_vs_paper(results)
show_table(vt, out, "visualization_vs_paper", "Table 17. Accuracy, F-measure and AUC of NB, SMO and AdaBoost on "
           "Breast Cancer (BC), Labour (La) and Liver (Li): ours beside the printed table.", digits=3)
if study.VIS_MULTICLASS in params["explorer_datasets"]:
    an = study.anneal_confusions(results)
    show_table(an, out, "anneal_vs_paper", "Table 18. Anneal: accuracy and the printed confusion matrices.", digits=2)
say(study.visualization_table_note(vt))

# %% [markdown]
# ## 9. Recent research 2: changing environments (the flu domain)
# The simulated domain as the slides describe it (`cvrepro.drift`; every number the slides leave open is a
# documented parameter of `FluDomain`). Each classifier is trained on the negative-growth population (NGP) and
# tested on a changed one; its ideal error is that of the same classifier trained on the changed population; pD =
# (E_test - E_ideal) / (E0 - E_ideal), E0 the trivial classifier's error. The scenario "none" measures pD's noise.

# %%
show(study.flu_scenarios_table(params["flu_scenarios"]), out)
flu = study.flu_table(results)
show(study.captioned_flu(flu, params["flu_repetitions"]), out)
show_figure(study.figure_flu(flu), out, "figure_flu",
            "Figure 6. Performance deterioration pD per scenario (median over the repetitions); hatched bars are the "
            "simple classifiers (1R, the simple perceptron), plain their complex partners (decision tree, MLP); "
            "dotted: the largest |pD| without any change.")
say(study.flu_note(flu, results.flu))
say(study.flu_domain_note(study.flu_domain_consequences()))

# %% [markdown]
# ## Claims
# Each claim of the tutorial, checked on our results (also written to `claims.csv` / `claims.md`).

# %%
claims = study.claims(ours, examples, lab, printed_tests, ours_tests, fr, sim, est, rc, vis, results.flu,
                      params["alpha"], boot_truth, comparisons)
say(study.describe_claims(claims))
show_verdict_changes("japkowicz2011", claims, profile, shipped, out)  # at paper: what changed since quick

# %% [markdown]
# ## Conclusion

# %%
summary = study.reproduction_summary(vs, wrong, examples, printed_tests, fr, vt,
                                     an if study.VIS_MULTICLASS in params["explorer_datasets"] else None)
show_table(summary, out, "reproduction_summary", "Table 21. Which printed numbers we reproduce exactly, which "
           "differ, and why.")
say(summary_sentence(claims) + " " + study.claims_sentence(claims) + " " + study.conclusion(summary, claims, results))
run_json = record_run(out, "japkowicz2011", profile, claims, started)
