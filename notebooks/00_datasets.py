# ---
# jupyter:
#   kernelspec:
#     display_name: Python (cvrepro)
#     language: python
#     name: cvrepro
# ---

# %% [markdown]
# # 00 · The benchmark data catalog
#
# Every data set the five studies use that can be had here, shipped under `data/` with its origin, licence and checksum (`data/MANIFEST`). This notebook writes the catalog summary (CSV, Markdown, LaTeX) and one overview figure to `figures/datasets/`, and lists the paper data sets that are **not** available, with the stand-in each study uses instead.

# %% tags=["parameters"]
profile = "quick"      # smoke | quick | paper (defined in cvrepro.profiles)
datasets = None        # a list of names to restrict the summary, or None for the profile's choice
output_dir = "../figures/datasets"

# %%
import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from cvrepro.datasets import STAND_INS, list_datasets, resolve_name
from cvrepro.profiles import study_parameters
from cvrepro.reporting import save_figure, save_table

params = study_parameters("datasets", profile, datasets=datasets)
params

# %% [markdown]
# ## The catalog

# %%
catalog = list_datasets()
if params["datasets"]:
    wanted = [resolve_name(n) for n in params["datasets"]]
    catalog = catalog[catalog["name"].isin(wanted)].reset_index(drop=True)
columns = ["name", "aliases", "n_instances", "n_test", "n_features", "n_nominal", "n_classes",
           "minority_fraction", "missing_values", "studies", "source", "licence"]
summary = catalog[columns]
save_table(summary, output_dir, "catalog", caption="Shipped data sets")
print(f"{len(summary)} data sets")
summary

# %% [markdown]
# ## Size against class balance, by study

# %%
by_study = catalog.assign(study=catalog["studies"].str.split(", ")).explode("study")
by_study["study"] = by_study["study"].replace("", "none (general use)")
fig, ax = plt.subplots(figsize=(8, 5))
sns.scatterplot(data=by_study, x="n_instances", y="minority_fraction", hue="study",
                style="study", s=70, alpha=0.8, ax=ax)
ax.set(xscale="log", xlabel="instances (log scale)", ylabel="minority-class fraction",
       title="Shipped data sets: size and class balance")
for row in catalog.itertuples():
    ax.annotate(row.name, (row.n_instances, row.minority_fraction), fontsize=6, alpha=0.7,
                xytext=(3, 3), textcoords='offset points')
ax.legend(fontsize=7, loc='lower left')
save_figure(fig, output_dir, "size_vs_balance")
fig

# %% [markdown]
# ## Paper data sets that are not available here

# %%
missing = pd.DataFrame(
    [{"paper name": name, "stand-in used": stand_in or "none: left out, said in the study"}
     for name, stand_in in STAND_INS.items()])
save_table(missing, output_dir, "not_available")
missing

# %% [markdown]
# ## Data sets per study

# %%
per_study = by_study.groupby("study")["name"].agg(["count", lambda s: ", ".join(sorted(s))])
per_study.columns = ["data sets", "names"]
save_table(per_study.reset_index(), output_dir, "per_study")
per_study
