# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 06 · Your own comparison
#
# The five studies' advice as one call on a researcher's own data: `cvrepro.compare` partitions with DOB-SCV (Moreno-Torres et al.), repeats k-fold cross-validation until Raeder et al.'s stopping rule says the estimates have settled, and chooses the tests by the design (per data set: the corrected repeated k-fold t-test and the Bayesian correlated t-test; across data sets: Friedman, Holm, Nemenyi, Wilcoxon and the Bayesian signed-rank test). Learners given a parameter grid are tuned inside nested cross-validation (Scheffer & Herbrich), the naive estimate shown beside the nested one, and every sentence carries Raeder et al.'s reproducibility R: how consistently the repetitions, each a fresh random partitioning, order the pair. The data here is a CSV file as a researcher would have it: UCI Wine (178 wines, 13 measurements, 3 cultivars), used by none of the studies, shipped in `data/examples/`. Point `csv` and `target` at your own file (or run `cvrepro compare your.csv --target class --learners NB,C4.5,5-NN --grid "k-NN=5-NN:k=1,5,9" --report out/`).
#
# The last section shows what the advice changed: the same comparison with the shortcuts the papers warn against.

# %% tags=["parameters"]
profile = "quick"                   # smoke | quick | paper
csv = "../data/examples/wine.csv"   # the researcher's data: a CSV file with a header
target = "cultivar"                 # its class column
learners = None                     # e.g. ['NB', 'C4.5', '5-NN'] (names of cvrepro.learners)
grids = None                        # learners tuned inside nested CV (--grid texts of the cvrepro command)
k = None                            # folds
max_repetitions = None              # cap of the stopping rule
fixed_repetitions = None            # the fixed-repetition shortcut it is compared with
n_jobs = 2
store = "../results/compare"        # result cache (resumable); None keeps results in memory
output_dir = "../figures/compare"

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import time

import matplotlib

matplotlib.use("Agg")
from cvrepro.compare import captioned_lessons, describe_data, describe_lessons, lessons, read_csv
from cvrepro.profiles import study_parameters
from cvrepro.reporting import record_notebook, say, show
from cvrepro.tuning import with_grids

started = time.time()
params = study_parameters("compare", profile, learners=learners, grids=grids, k=k, max_repetitions=max_repetitions,
                          fixed_repetitions=fixed_repetitions)
chosen = with_grids(params["learners"], params["grids"])
out = output_dir
data = read_csv(csv, target)
say(describe_data(data, chosen, profile))

# %% [markdown]
# ## The one call

# %%
result, shortcuts = lessons(data, chosen, k=params["k"], max_repetitions=params["max_repetitions"],
                            fixed_repetitions=params["fixed_repetitions"], store=store, n_jobs=n_jobs)
say(result.design())
for what in ("estimates", "figure", "pairwise"):
    show(result.captioned(what), out)
say("\n\n".join(result.conclusions()))

# %% [markdown]
# ## What each paper's lesson changed
#
# DOB-SCV against plain stratified CV (Moreno-Torres et al.), the stopping rule against a fixed number of repetitions (Raeder et al.), the corrected against the naive t-test (Vanwinckelen & Blockeel), and, for the learners given a grid, nested against naive tuning (Scheffer & Herbrich).

# %%
show(captioned_lessons(shortcuts), out)
if len(result.tuning):
    show(result.captioned("tuning"), out)
say(describe_lessons(shortcuts, result))
say(f"The report (Markdown and HTML with the figure): `{result.report(f'{out}/report') / 'report.html'}`.")
run_json = record_notebook(out, "06_your_own_comparison", profile, started)
