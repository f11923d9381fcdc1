"""Write the source notebooks (without outputs) from the cell lists below.

Notebooks are generated so that they stay thin and reviewable; edit here, then
run `python tools/make_notebooks.py`. JupyterLab users may also edit the .ipynb
directly (strip outputs before committing).
"""
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def parameters(source: str):
    cell = new_code_cell(source)
    cell.metadata["tags"] = ["parameters"]
    return cell


def write(name: str, cells) -> None:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "cvrepro", "display_name": "Python (cvrepro)", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.write(nb, NOTEBOOKS / f"{name}.ipynb")


write("00_datasets", [
    new_markdown_cell(
        "# 00 · The benchmark data catalog\n\n"
        "Every data set the five studies use that can be had here, shipped under `data/` with its "
        "origin, licence and checksum (`data/MANIFEST`). This notebook writes the catalog summary "
        "(CSV, Markdown, LaTeX) and one overview figure to `figures/datasets/`, and lists the paper "
        "data sets that are **not** available, with the stand-in each study uses instead."),
    parameters(
        'profile = "quick"      # smoke | quick | paper (defined in cvrepro.profiles)\n'
        "datasets = None        # a list of names to restrict the summary, or None for the profile's choice\n"
        'output_dir = "../figures/datasets"'),
    new_code_cell(
        "import matplotlib\n"
        "matplotlib.use('Agg')\n"
        "import matplotlib.pyplot as plt\n"
        "import pandas as pd\n"
        "import seaborn as sns\n"
        "from IPython.display import Markdown, display\n\n"
        "from cvrepro.datasets import STAND_INS, STUDIES, list_datasets, resolve_name\n"
        "from cvrepro.profiles import study_parameters\n"
        "from cvrepro.reporting import save_figure, save_table\n\n"
        'params = study_parameters("datasets", profile, datasets=datasets)\n'
        "params"),
    new_markdown_cell("## The catalog"),
    new_code_cell(
        "catalog = list_datasets()\n"
        'if params["datasets"]:\n'
        '    wanted = [resolve_name(n) for n in params["datasets"]]\n'
        '    catalog = catalog[catalog["name"].isin(wanted)].reset_index(drop=True)\n'
        'columns = ["name", "aliases", "n_instances", "n_test", "n_features", "n_nominal", "n_classes",\n'
        '           "minority_fraction", "missing_values", "studies", "source", "licence"]\n'
        "summary = catalog[columns]\n"
        'save_table(summary, output_dir, "catalog", caption="Shipped data sets")\n'
        'print(f"{len(summary)} data sets")\n'
        "summary"),
    new_markdown_cell("## Size against class balance, by study"),
    new_code_cell(
        'by_study = catalog.assign(study=catalog["studies"].str.split(", ")).explode("study")\n'
        'by_study["study"] = by_study["study"].replace("", "none (general use)")\n'
        "fig, ax = plt.subplots(figsize=(8, 5))\n"
        'sns.scatterplot(data=by_study, x="n_instances", y="minority_fraction", hue="study",\n'
        '                style="study", s=70, alpha=0.8, ax=ax)\n'
        'ax.set(xscale="log", xlabel="instances (log scale)", ylabel="minority-class fraction",\n'
        '       title="Shipped data sets: size and class balance")\n'
        "for row in catalog.itertuples():\n"
        "    ax.annotate(row.name, (row.n_instances, row.minority_fraction), fontsize=6, alpha=0.7,\n"
        "                xytext=(3, 3), textcoords='offset points')\n"
        "ax.legend(fontsize=7, loc='lower left')\n"
        'save_figure(fig, output_dir, "size_vs_balance")\n'
        "fig"),
    new_markdown_cell("## Paper data sets that are not available here"),
    new_code_cell(
        "missing = pd.DataFrame(\n"
        '    [{"paper name": name, "stand-in used": stand_in or "none: left out, said in the study"}\n'
        "     for name, stand_in in STAND_INS.items()])\n"
        'save_table(missing, output_dir, "not_available")\n'
        "missing"),
    new_markdown_cell("## Data sets per study"),
    new_code_cell(
        'per_study = by_study.groupby("study")["name"].agg(["count", lambda s: ", ".join(sorted(s))])\n'
        'per_study.columns = ["data sets", "names"]\n'
        'save_table(per_study.reset_index(), output_dir, "per_study")\n'
        "per_study"),
])
