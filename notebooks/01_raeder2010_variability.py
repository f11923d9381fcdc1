# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 01 · Raeder, Hoens & Chawla (2010): variability of cross-validation estimates
#
# *Consequences of variability in classifier performance estimates*, ICDM 2010. Six classifiers (C4.5, HDDT, MLP, 5-NN, NB, SMO) are evaluated by stratified 2-, 5- and 10-fold cross-validation repeated with seeds 0, 1, 2, ... (the same folds for every classifier within an iteration), AUROC averaged over the folds. The paper ran 500 iterations on 20 data sets and asked: which k is optimistic or pessimistic (Table I), how long estimates take to settle (Figure 1), whether one seed can reverse a significance test (Table II), how skewed the estimates are (Figure 2), when to stop repeating CV (Table III), and how CV estimates compare with a true test set (Tables IV-V).
#
# This notebook re-runs each of them, shows our numbers beside the published ones, and ends with every claim of the paper checked on our results. Its procedure lives in `cvrepro.studies.raeder2010`; where the paper admits more than one reading, the table of readings below says which one we take, and each result that depends on one says so. The `quick` profile runs 20 iterations instead of 500 (claims whose evidence is capped or trivial at that scale are marked undecided); `paper` runs the full grid (resumable: every iteration is cached in `store`).

# %% tags=["parameters"]
profile = "quick"                  # smoke | quick | paper
datasets = None                    # catalog names; None: the profile's
learners = None                    # e.g. ['C4.5', 'HDDT', 'MLP', '5-NN', 'NB', 'SMO']
folds = None                       # e.g. [2, 5, 10]
iterations = None                  # CV repetitions (the paper: 500)
seed = None                        # iteration i uses seed + i (the paper: 0)
true_test_datasets = None          # sets with a separate test set (Tables IV-V)
c45_laplace = None                 # C4.5 with Laplace leaves (J48 -A): see the readings
replay_sampling = None             # Table III orderings: 'replacement' (our reading), 'permutation', 'cycle'
replay_pairing = None              # 'shared' orderings for both learners (our reading) or 'independent'
ks_ties = None                     # KS with equal estimates: 'merge' (our reading) or 'ecdf'
n_jobs = 2                         # local workers
backend = "loky"                   # "loky", "dask" or a scheduler address
store = "../results/raeder2010"    # result cache (resumable); None keeps results in memory
shipped = "../results/paper"       # at profile paper: the shipped tables, read instead of computing; None: compute
output_dir = "../figures/raeder2010"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time

import matplotlib

matplotlib.use("Agg")
from cvrepro.profiles import check_run_options, study_parameters
from cvrepro.published import raeder2010 as paper
from cvrepro.reporting import record_run, save_table, say, show, show_figure, show_table, show_verdict_changes
from cvrepro.studies import raeder2010 as study

started = time.time()
params = study_parameters("raeder2010", profile, datasets=datasets, learners=learners, folds=folds,
                          iterations=iterations, seed=seed, true_test_datasets=true_test_datasets,
                          c45_laplace=c45_laplace, replay_sampling=replay_sampling,
                          replay_pairing=replay_pairing, ks_ties=ks_ties)
check_run_options(store, n_jobs, backend)   # a bad run option fails here, before any work
out = output_dir
say(study.describe_profile(params, profile))

# %% [markdown]
# ## Data sets, learners and our readings of the paper

# %%
show_table(study.stand_ins(), out, "stand_ins_datasets",
           "Data sets: the paper's name, the catalog data set used for it, and whether it is the original data, "
           "a stand-in or missing. Rows with the same catalog data set count once in our tests; missing ones are "
           "left out of every table.")
show_table(study.learners_table(params["learners"], params["c45_laplace"]), out, "stand_ins_learners",
           "Learners: our implementations of the WEKA 3.6 classifiers the paper used, and how each reads the paper.")
show_table(study.readings(), out, "readings",
           "Our readings: where the paper can be read more than one way, what it says, the reading we take "
           "(each result that depends on one says so), and the alternative this notebook offers.")
say(study.describe_stand_ins(params["datasets"]))

# %% [markdown]
# ## The grid
# One run of repeated stratified CV for every data set, learner and k, and for the true-test sets; cached in `store`.

# %%
results = study.run(params, store=store, n_jobs=n_jobs, backend=backend, shipped=shipped)
failures = results.cv.failures
save_table(failures, out, "failures")
if len(failures):
    show_table(failures, out, "failures", "Folds that failed (their metrics are NaN and left out of every table).")
say(study.describe_grid(results))

# %% [markdown]
# ## Table I: which k is optimistic?

# %%
est = study.estimates(results.iterations)
ranks, info = study.table_1(est)
show(study.captioned_table_1(ranks, info, params["learners"]), out)
table1_vs = study.table_1_vs_paper(ranks)
save_table(table1_vs, out, "table_1_vs_paper")
show_table(study.table_1_side_by_side(table1_vs, params["learners"]), out, "table_1_side_by_side",
           "Table I, ours beside the paper's: the average rank of each learner's k-fold estimate, ours then the "
           "paper's. Read down a column: in the paper 2-fold has the highest (most pessimistic) rank in both "
           "blocks, and steady-state 10-fold the lowest (most optimistic).", digits=2)
say(study.describe_table_1(ranks, info))

# %% [markdown]
# ## Figure 1: running-mean estimates against iterations

# %%
panels = study.figure_1_panels(params["datasets"], params["learners"], params["iterations"])
fig, leads = study.figure_1(results.iterations, panels)
show(study.captioned_figure_1(fig, panels, params["iterations"]), out)
show_table(leads.drop(columns=["dataset", "k"]), out, "figure_1_leads",
           "Figure 1's lead changes: how often the leading learner changes along each panel, and which learners "
           "lead at some point (and within the first 15 iterations, the paper's reading of panel (b)).")
settle = study.settling_iterations(results.iterations)
save_table(settle, out, "settling_iterations")
show_table(study.settling_by_learner(settle), out, "settling_by_learner",
           "Median iteration after which the running mean stays within 0.002 of its final value, per learner "
           "and k (all cells in `settling_iterations.csv`).", digits=1)
say(study.describe_figure_1(leads, settle, panels))

# %% [markdown]
# ## Table II: two seeds, opposite significant verdicts
# For every seed (one iteration of k-fold CV, the same seed for all data sets), the Wilcoxon signed-rank test of C4.5 against HDDT over the data sets; we show the seed where C4.5 wins most significantly and the one where HDDT does (our reading of how the paper chose its iterations 216 and 459). The caption of the paper's Table II says 10-fold and its text 5-fold: 10-fold is our reading, and 5-fold is run too.

# %%
searches = {}
for k in study.TABLE_2_FOLDS:
    if k not in params["folds"] or not {"C4.5", "HDDT"} <= set(params["learners"]):
        continue
    verdicts = study.seed_verdicts(results.iterations, "C4.5", "HDDT", k=k)
    save_table(verdicts, out, "table_2_all_seeds" if k == 10 else f"table_2_all_seeds_{k}fold")
    searches[k] = study.opposite_seeds(verdicts, alpha=0.05)
    table2 = study.table_2(results.iterations, verdicts, k=k)
    show(study.captioned_table_2(table2, verdicts, k), out)
    if k == 10:
        show_table(study.table_2_vs_paper(table2), out, "table_2_vs_paper",
                   "Table II, ours (10-fold) beside the paper's seeds 216 and 459, by the paper's data set names "
                   "(credit-a and crx are one file here). The seeds differ, so "
                   "compare the size of the differences, not the values.")
save_table(paper.table_2(), out, "table_2_paper", caption="Table II (paper, seeds 216 and 459)")
show_table(study.retest_table_2(paper.table_2()), out, "table_2_paper_retested",
           "The paper's own Table II values re-tested: Wilcoxon signed-rank (R+ = C4.5's wins) and sign test per "
           "seed. The paper marks both seeds significant at 0.05; by its own numbers only seed 216 is.")
say(study.describe_table_2(searches))

# %% [markdown]
# ## Figure 2: distributions of the 2-fold estimates

# %%
panels2 = study.figure_2_panels(params["datasets"], params["learners"])
show_figure(study.figure_2(results.iterations, panels2), out, "figure_2",
            "Figure 2. Histograms of the per-iteration 2-fold AUROC estimates: C4.5 and HDDT on breast-w (named by "
            "the paper) and on pima, sonar and tic-tac-toe (our reading: the paper does not name its other three), "
            "panels (a)-(d); (f) NB against MLP on breast-w (the paper's panel (f), whose data set it does not "
            "name: our reading; its text does not describe a panel (e), left out). Dashed: mean, dotted: median; a mean left of "
            "the median (negative skewness) is the left skew the paper describes.")
dists = study.distribution_summary(results.iterations, k=2)
save_table(dists, out, "figure_2_summary")
show_table(study.figure_2_cells(dists, panels2), out, "figure_2_panels_summary",
           "The cells of Figure 2: mean, median, standard deviation and skewness of the estimates, and "
           "D'Agostino's test of zero skewness (p-value; all cells in `figure_2_summary.csv`).")
say(study.describe_figure_2(dists))

# %% [markdown]
# ## Table III: stopping rules and reproducibility
# Each rule (Fixed-10, Fixed-50, Rank at 0.9999, KS at 0.1 and 0.2) is replayed on 50 random orderings of the stored iterations of two learners; R (eqs. 1-2) measures how consistently one learner beats the other over the 50 final estimates (1: always the same winner, 0: each wins half), and the mean stopping iteration is the cost. Our readings: orderings draw the stored runs with replacement up to 1000 draws (the paper reaches 1000.00 iterations from 500 runs), both learners share each ordering, and the KS rule counts equal estimates as a difference (this reproduces the paper's 1000.00 for SMO). Replays that use at least as many draws as there are stored runs are counted in `exhausted` columns: at a reduced scale their R is trivial or reuses runs. Last, each part's distance from the paper when the replays draw from only the first 20, 50, 100 or 200 stored runs (20 is the quick profile's store; shipped with the paper tables), and why Table III(c) lies farther from the paper at 500 than at 20.

# %%
table3, table3_vs = {}, {}
replay = dict(n_orderings=params["n_orderings"], sampling=params["replay_sampling"],
              pairing=params["replay_pairing"], ks_ties=params["ks_ties"])
for part, (a, b, k) in study.TABLE_3_PARTS.items():
    if a not in params["learners"] or b not in params["learners"] or k not in params["folds"]:
        say(study.describe_table_3_left_out(part))
        continue
    table3[part] = study.table_3_for(results, part, params["datasets"], **replay)
    save_table(table3[part], out, f"table_3{part}", caption=f"Table III({part}) (ours): {a} vs {b}, {k}-fold")
    vs = table3_vs[part] = study.table_3_vs_paper(table3[part], part)
    save_table(vs, out, f"table_3{part}_vs_paper")
    show(study.captioned_table_3(vs, part, "R", params["n_orderings"], params["iterations"]), out)
    show(study.captioned_table_3(vs, part, "iterations", params["n_orderings"], params["iterations"]), out)
say(study.describe_table_3(table3, params["n_orderings"]))
by_stored = study.table_3_by_stored_for(results, table3)      # fewer stored runs: shipped at paper
show(study.captioned_table_3_by_stored(by_stored), out)
say(study.describe_table_3_scale(by_stored, results.iterations, "c"))

# %% [markdown]
# ### How much the readings of the replays matter
# Table III(a) and (b) again, under our reading and with each alternative changed in turn: permutations of the stored runs (each run once, capped at the number stored), independent orderings for the two learners, and the textbook KS statistic (equal estimates cancel).

# %%
for part in [p for p in ("a", "b") if p in table3]:
    a, b, k = study.TABLE_3_PARTS[part]
    ours = {**study.shipped_replays(results, part),
            (params["replay_sampling"], params["replay_pairing"], params["ks_ties"]): table3[part]}
    show(study.captioned_table_3_readings(study.table_3_readings(
        results.cv, a, b, k, params["datasets"], params["n_orderings"], reuse=ours), part), out)

# %% [markdown]
# ## Tables IV and V: estimates against a true test set

# %%
true_test, errors_vs = {}, {}
if results.true_test is not None:
    say(study.TRUE_TEST_NOTE)
    tt_est = study.estimates(results.true_test_cv.iterations)
    for kind, published in (("canonical", paper.table_4()), ("steady_state", paper.table_5())):
        true_test[kind] = study.true_test_table(tt_est, results.true_test, kind)
        show(study.captioned_true_test(true_test[kind], kind, params["iterations"]), out)
        show(study.captioned_true_test_paper(published, kind), out)
        errors_vs[kind] = study.true_test_errors_vs_paper(true_test[kind], published)
        show(study.captioned_true_test_errors(errors_vs[kind], kind, published), out)
    say(study.describe_true_test(true_test))
else:
    say("No true-test data set in this run: Tables IV and V are left out.")

# %% [markdown]
# ## Claims
# Each claim of the paper, checked on our results. A claim is *undecided* when the evidence it compares is capped or trivial at this run's scale (the reason opens its evidence), or when the run lacks what it needs.

# %%
claims = study.claims(ranks, info, settle, leads, searches, dists, table3, true_test or None,
                      n_orderings=params["n_orderings"])
show_table(claims, out, "claims", "The paper's claims: where it makes each, our verdict and the evidence.")
show_verdict_changes("raeder2010", claims, profile, shipped, out)     # at paper: what changed since quick
run_json = record_run(out, "raeder2010", profile, claims, started)

# %% [markdown]
# ## Conclusion

# %%
show(study.captioned_distance_from_paper(study.distance_from_paper(table1_vs.dropna(), table3_vs, errors_vs),
                                        profile, params["iterations"]), out)
say(study.describe_claims(claims, profile, params["iterations"]))
