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
import numpy as np
import pandas as pd

from cvrepro.profiles import study_parameters
from cvrepro.published import japkowicz2011 as paper
from cvrepro.reporting import record_run, say, show_figure, show_table
from cvrepro.studies import japkowicz2011 as study
from cvrepro.verdicts import summary_sentence

started = time.time()
params = study_parameters("japkowicz2011", profile, sim_replications=sim_replications,
                          flu_repetitions=flu_repetitions, weka_reference=weka_reference)
out = output_dir
say(f"Profile **{profile}**: WEKA 10-fold CV (seed 1) on {', '.join(params['explorer_datasets'])}; "
    f"{params['ttest_runs']} runs of 10-fold CV on Labour; {len(params['sign_domains'])} domains x "
    f"{params['sign_runs']} run(s) for the sign test; {params['n_bootstrap']} bootstrap samples and "
    f"{params['n_permutations']} permutations; {params['sim_replications']} simulated data sets per true "
    f"difference; flu domain {params['flu_train']:,} training / {params['flu_test']:,} test patients x "
    f"{params['flu_repetitions']} repetition(s).")

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
stand_ins = learners[learners.status != "faithful"]
say("Every classifier is faithful to WEKA 3.6.14 (same probabilities on recorded folds) except "
    + ", ".join(f"**{r.label}** ({r.runs}: {r.note})" for r in stand_ins.itertuples())
    + "; their rows below differ from WEKA for that reason." if len(stand_ins) else
    "Every classifier is faithful to WEKA 3.6.14.")

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
show_table(vs[~vs.agrees], out, "measures_vs_paper",
           "Table 1c. The cells that do not print as the slide's number: ours, "
           + ("the real WEKA's, " if weka is not None else "") + "printed (the full comparison is in "
           "measures_vs_paper_all.csv).", digits=4)
vs.to_csv(f"{out}/measures_vs_paper_all.csv", index=False)
per_row = vs.groupby("classifier", sort=False)["agrees"].sum()
exact_rows = [c for c, n in per_row.items() if n == len(study.MEASURE_NAMES)]
msg = (f"**{int(vs.agrees.sum())} of {len(vs)}** printed cells come out to the printed digit; all nine for "
       f"{', '.join(exact_rows) or 'no classifier'}. ")
if weka is not None:
    same_as_weka = vs.dropna(subset=["WEKA 3.6.14"])
    same_as_weka = same_as_weka[np.isclose(same_as_weka.ours, same_as_weka["WEKA 3.6.14"], rtol=0, atol=1e-9)]
    msg += (f"Ours equals the real WEKA 3.6.14 in {len(same_as_weka)} of {vs['WEKA 3.6.14'].notna().sum()} cells "
            f"(to 1e-9). ")
    weka_diff = vs[(~vs.agrees) & np.isclose(vs.ours, vs["WEKA 3.6.14"], rtol=0, atol=1e-9)]
    ours_diff = vs[(~vs.agrees) & ~np.isclose(vs.ours, vs["WEKA 3.6.14"], rtol=0, atol=1e-9)]
    msg += (f"Of the {int((~vs.agrees).sum())} cells that differ from the slide, {len(weka_diff)} are WEKA 3.6.14 "
            f"differing from the tutorial's WEKA ({', '.join(sorted(set(weka_diff.classifier)))}) and "
            f"{len(ours_diff)} are our learner differing from WEKA ({', '.join(sorted(set(ours_diff.classifier))) or 'none'}).")
say(msg)
notes = study.measures_notes(vs, learners)
say("Why the differing rows differ: " + " ".join(f"**{k}**: {v}" for k, v in notes.items()))

# %% [markdown]
# ### Ranking the results
# Rank 1 is the best value of each measure (lowest RMSE and FP rate), ties share the best rank. Three rankings side
# by side: of our numbers, of the printed numbers (recomputed), and the printed ranks.

# %%
side, wrong = study.table_ranks_vs_paper(ours, paper.measures_table(), paper.ranks_table())
show_table(side, out, "ranks_vs_paper", "Table 2. Ranks per measure: ours / of the printed values / printed.")
show_table(wrong, out, "ranks_printed_slips",
           "Table 2b. Printed ranks that do not follow from the printed values.")
ranks_ours = study.rank_measures(ours[ours.Algo.isin(study.EIGHT)]).set_index("Algo")
firsts = {m: ", ".join(ranks_ours.index[ranks_ours[m] == 1]) for m in study.MEASURE_NAMES.values()}
say(f"The printed ranks follow the printed values except in {len(wrong)} cells ("
    + "; ".join(f"{r.classifier} {r.measure}: printed {r['printed rank']}, by value {r['rank of the printed value']}"
                for _, r in wrong.iterrows()) + "). On our numbers the first place goes to "
    + "; ".join(f"{m}: {w}" for m, w in firsts.items())
    + f": {len(set(', '.join(firsts.values()).split(', ')))} different classifiers lead some measure.")

# %% [markdown]
# ## 2. The worked examples of the measures
# Each computed by `cvrepro.metrics` from the slide's confusion matrices and predictions.

# %%
examples = study.worked_examples()
show_table(examples, out, "worked_examples", "Table 3. Worked examples: ours beside the slide's numbers.", digits=5)
bad = examples[examples.agrees.eq(False)]
say(f"{int(examples.agrees.eq(True).sum())} of {int(examples.agrees.notna().sum())} printed numbers come out "
    "exactly (two 60 % classifiers, equal precision and recall, kappa 43.29 %, RMSE 0.4416). The information "
    f"score differs: Kononenko & Bratko's definition scores x4 (P(y=1|f) = .75 for a negative, below the prior .4 "
    f"of its class) as a loss, {examples.set_index('quantity').loc['IS(x4)', 'ours']:.2f} bits, and averages "
    f"{examples.set_index('quantity').loc['ISavg (Kononenko & Bratko)', 'ours']:.2f}; the slide's formula drops the "
    "loss branch's minus sign, and its 0.40 is the mean of the unsigned scores.")

# %% [markdown]
# ## 3. ROC and cost curves
# Two classifiers' pooled out-of-fold scores on Breast Cancer. Each ROC point is a line in cost space; a
# classifier's cost curve is the lower envelope of its lines (Drummond & Holte), and where two envelopes cross
# the preferred classifier changes.

# %%
rc = study.roc_cost_analysis(results, tuple(params["cost_pair"]))
show_figure(study.figure_roc_cost(rc), out, "figure_roc_cost",
            f"Figure 1. {' and '.join(rc['pair'])} on Breast Cancer (10-fold CV, seed 1): ROC curves with convex "
            "hulls (left); cost curves, the trivial classifiers (dotted) and each classifier's winning range of the "
            "probability cost PC(+) (right).")
show_table(rc["ranges"], out, "cost_curve_ranges", "Table 4. Operating ranges: where each cost curve is lowest.")
clever = rc["ranges"][rc["ranges"].winner != "trivial"]
say(f"The ROC hulls {'cross' if rc['roc_cross'] else 'do not cross'} (AUC "
    + ", ".join(f"{k} {v:.3f}" for k, v in rc["auc"].items()) + "). The cost curves say where: "
    + "; ".join(f"**{r.winner}** for PC(+) in [{r.pc_from:.2f}, {r.pc_to:.2f}] (by up to {r.max_advantage:.3f})"
                for r in clever.itertuples()) + ".")

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
say(f"{int(printed_tests.agrees.eq(True).sum())} of {int(printed_tests.agrees.notna().sum())} printed quantities "
    "come out. " + paper.NOTES["sign test"] + " " + paper.NOTES["wilcoxon"])

# %%
acc = study.accuracy_table(results)
printed_acc = paper.sign_test_table()
both = acc.merge(printed_acc, on="Dataset", how="left", suffixes=(" ours", " printed"))
show_table(both, out, "ten_domains_accuracy", f"Table 8. Accuracy (%) on the ten domains: ours ("
           f"{params['sign_runs']} x 10-fold CV) beside the printed table.", digits=2)
ours_tests = study.two_domain_tests(acc, params["alpha"])
show_table(ours_tests, out, "sign_wilcoxon_ours", "Table 9. The same tests on our accuracies, two-sided at alpha = "
           f"{params['alpha']} (no direction chosen in advance; the slides test one-sided).", digits=4)
say(study.ten_domain_note(acc, printed_acc, ours_tests, results.weka))

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
sig = fr["pairs"][fr["pairs"].significant]
say(f"Friedman: chi2 = {fr['friedman'].statistic:.2f}, p = {fr['friedman'].pvalue:.2g}; rank sums "
    + " / ".join(f"{v:g}" for v in fr["rank_sums"]["ours"]) + " as printed (exact ranks without the tie: "
    + " / ".join(f"{v:g}" for v in fr["exact_rank_sums"]) + f"). Nemenyi's CD = {fr['nemenyi'].critical_difference:.3f}"
    " separates " + ", ".join(f"{r.pair} (Cohen's d {r[study.D_POOLED]:.1f})" for _, r in sig.iterrows())
    + ": huge effects (|d| > 0.8 is 'large').")

# %%
if len(acc) >= 3:
    scores = acc.set_index("Dataset")
    from cvrepro.stats import friedman_test, nemenyi_test
    ne_ours = nemenyi_test(scores, alpha=params["alpha"])
    show_figure(study.figure_cd(ne_ours.average_ranks, ne_ours.critical_difference,
                                f"our NB, SVM, AdaBoost, RF on {len(scores)} domains"), out, "figure_cd_ours",
                "Figure 3b. The same diagram for our four classifiers on the ten domains.")
    fr_ours = friedman_test(scores)
    say(f"On our ten-domain accuracies Friedman gives p = {fr_ours.pvalue:.2g}; average ranks "
        + ", ".join(f"{k} {v:.2f}" for k, v in ne_ours.average_ranks.items()) + ".")

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
wide = sim.pivot_table(index="test", columns="true difference", values="rejection rate", sort=False)
wide.columns = [f"diff {c:.3f}" for c in wide.columns]
show_table(wide.reset_index(), out, "simulation_rejections", f"Table 15. Rejection rate at alpha = "
           f"{params['alpha']} ({params['sim_replications']} data sets per column): type I error in the first "
           "column, power in the others.", digits=3)
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
titles = {"binary": "Breast Cancer, Labour, Liver (L2)", "binary_l1": "Breast Cancer, Labour, Liver (L1)",
          "anneal_l2": "Anneal (L2)", "anneal_l1": "Anneal (L1)"}
if vis:
    show_figure(study.figure_visualization(list(vis.values()), [titles[k] for k in vis]), out, "figure_visualization",
                "Figure 5. The framework's pictures: each classifier projected from its concatenated confusion "
                "matrices; grey lines are the spanning tree; the distance to point 1 (Ideal) is exact.")
    dist = pd.concat([v["table"].set_index("name")["distance to Ideal"].rename(titles[k]) for k, v in vis.items()],
                     axis=1)
    show_table(dist.reset_index(names="classifier"), out, "visualization_distances",
               "Table 16. Distance of each classifier to the ideal one.", digits=1)
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
from cvrepro.drift import SCENARIOS

show_table(pd.DataFrame([{"scenario": s.name, "kind": s.kind, "description": s.description,
                          "test population changes": ", ".join(f"{k}={v}" for k, v in s.test.items()),
                          "removed from training": ", ".join(f"{k}: {'+'.join(v)}" for k, v in s.train_exclude.items())}
                         for s in SCENARIOS.values() if s.name in (params["flu_scenarios"] or SCENARIOS)]),
           out, "flu_scenarios", "Table 19. The scenarios and the parameters each changes.")
flu = study.flu_table(results)
show_table(flu, out, "flu_results", f"Table 20. Error per scenario and classifier (means over "
           f"{params['flu_repetitions']} repetition(s)) and pD (median, and its range).", digits=3)
show_figure(study.figure_flu(flu), out, "figure_flu",
            "Figure 6. Performance deterioration pD per scenario (median over the repetitions); hatched bars are the simple classifiers (1R, the "
            "simple perceptron), plain their complex partners (decision tree, MLP); dotted: the largest |pD| "
            "without any change.")
say(study.flu_note(flu, results.flu))
say(study.flu_domain_note(study.flu_domain_consequences()))

# %% [markdown]
# ## Claims
# Each claim of the tutorial, checked on our results (also written to `claims.csv` / `claims.md`).

# %%
claims = study.claims(ours, examples, lab, printed_tests, ours_tests, fr, sim, est, rc, vis, results.flu,
                      params["alpha"], boot_truth, comparisons)
for r in claims.itertuples():
    say(f"- **{r.verdict}**: {r.claim} (*{r.where}*). Evidence: {r.evidence}.")

# %% [markdown]
# ## Conclusion

# %%
summary = study.reproduction_summary(vs, wrong, examples, printed_tests, fr, vt,
                                     an if study.VIS_MULTICLASS in params["explorer_datasets"] else None)
show_table(summary, out, "reproduction_summary", "Table 21. Which printed numbers we reproduce exactly, which "
           "differ, and why.")
say(summary_sentence(claims) + " " + study.claims_sentence(claims) + " " + study.conclusion(summary, claims, results))
record_run(out, "japkowicz2011", profile, claims, started)
