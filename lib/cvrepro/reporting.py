"""Write the notebooks' tables and figures, and show them as a document would.

Tables go out as CSV (for machines), Markdown (for reading) and LaTeX (for
papers); figures as PNG and PDF. Every writer returns the paths it wrote.

In a notebook, :func:`show_table` and :func:`show_figure` write and display
with a caption, :func:`say` displays a sentence computed from a result, and
:func:`record_run` ends a study notebook by writing its claims and the run's
profile, from which :func:`write_overview` builds ``figures/README.md``: every
study, the profile it ran at, and every claim with its verdict.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .studies import STUDIES
from .verdicts import summary_sentence

__all__ = ["save_table", "save_figure", "beside", "show_table", "show_figure", "say", "record_run",
           "write_overview"]


def save_table(table: pd.DataFrame, folder: str | Path, name: str, *, index: bool = False,
               digits: int = 4, caption: str | None = None) -> list[Path]:
    """Write ``table`` as ``name``.csv, .md and .tex under ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{name}.{ext}" for ext in ("csv", "md", "tex")]
    table.to_csv(paths[0], index=index)
    shown = table.map(lambda v: _cell(v, digits))
    markdown = shown.to_markdown(index=index, disable_numparse=True)
    paths[1].write_text((f"{caption}\n\n" if caption else "") + markdown + "\n")
    styler = shown.style.format(escape="latex").format_index(escape="latex", axis=1)
    if not index:
        styler = styler.hide(axis="index")
    paths[2].write_text(styler.to_latex(caption=caption, hrules=True))
    return paths


def _cell(value, digits: int) -> str:
    """A table cell as text: floats with ``digits`` decimals, missing values empty."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (float, np.floating)):
        return f"{value:.{digits}f}"
    return str(value)


def save_figure(fig, folder: str | Path, name: str, *, dpi: int = 150) -> list[Path]:
    """Write a matplotlib figure as ``name``.png and .pdf under ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{name}.png", folder / f"{name}.pdf"]
    fig.savefig(paths[0], dpi=dpi, bbox_inches="tight")
    fig.savefig(paths[1], bbox_inches="tight")
    return paths


def beside(ours: pd.DataFrame, paper: pd.DataFrame, key, columns=None) -> pd.DataFrame:
    """Our numbers next to the published ones: ``<col> ours``, ``<col> paper``, ``<col> diff``.

    Rows are matched on ``key`` (a column name or list of names); rows present
    on one side only keep NaN on the other.
    """
    key = [key] if isinstance(key, str) else list(key)
    columns = columns or [c for c in paper.columns if c not in key and c in ours.columns]
    merged = ours[key + columns].merge(paper[key + columns], on=key, how="outer",
                                       suffixes=(" ours", " paper"))
    out = merged[key].copy()
    for c in columns:
        out[f"{c} ours"] = merged[f"{c} ours"]
        out[f"{c} paper"] = merged[f"{c} paper"]
        out[f"{c} diff"] = merged[f"{c} ours"] - merged[f"{c} paper"]
    return out


def _display(obj) -> None:
    from IPython.display import display

    display(obj)


def say(text: str) -> None:
    """Display ``text`` (Markdown) in the notebook: interpretations computed from results."""
    from IPython.display import Markdown

    _display(Markdown(text))


def show_table(table: pd.DataFrame, folder: str | Path, name: str, caption: str, *, index: bool = False,
               digits: int = 4) -> pd.DataFrame:
    """Write ``table`` (as :func:`save_table`) and display it under its caption."""
    save_table(table, folder, name, index=index, digits=digits, caption=caption)
    say(f"**{caption}**")
    styler = table.style.format(precision=digits, na_rep="")
    _display(styler if index else styler.hide(axis="index"))
    return table


def show_figure(fig, folder: str | Path, name: str, caption: str) -> list[Path]:
    """Write ``fig`` (as :func:`save_figure`), display it once with its caption, and close it."""
    import matplotlib.pyplot as plt
    from IPython.display import Image

    paths = save_figure(fig, folder, name)
    plt.close(fig)
    _display(Image(filename=str(paths[0])))
    say(f"*{caption}*")
    return paths


def record_run(folder: str | Path, study_id: str, profile: str, claims: pd.DataFrame,
               started: float | None = None) -> None:
    """End a study notebook: write its claims (``claims.*``) and ``run.json`` (study, profile, time)."""
    study = STUDIES[study_id]
    save_table(claims, folder, "claims", caption=f"Claims of {study.title}, checked on our results")
    record = {"study": study_id, "notebook": study.notebook, "profile": profile,
              "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
              "seconds": None if started is None else round(time.time() - started, 1)}
    (Path(folder) / "run.json").write_text(json.dumps(record, indent=2) + "\n")


OVERVIEW_START, OVERVIEW_END = "<!-- claims overview: start -->", "<!-- claims overview: end -->"


def write_overview(figures: str | Path, readme: str | Path | None = None) -> str:
    """Build the collection overview from every study's ``run.json`` and ``claims.csv``.

    Writes ``figures/README.md`` and, when ``readme`` is given, replaces the
    part of that file between the overview markers. Returns the Markdown.
    """
    figures = Path(figures)
    lines = ["# Results overview", "",
             "Written by `make all`: every study, the profile its notebook ran at, and every claim of the "
             "paper with our verdict (holds / partly / does not hold / undecided). Details and evidence are "
             "in each study's `claims.md` and in its executed notebook.", "",
             "| study | notebook | profile | claims |", "|---|---|---|---|"]
    sections = []
    for study in STUDIES.values():
        run_file, claims_file = figures / study.id / "run.json", figures / study.id / "claims.csv"
        if not run_file.exists() or not claims_file.exists():
            lines.append(f"| {study.citation.split('(')[0].strip()} ({study.id}) | {study.notebook} | not run | |")
            continue
        run = json.loads(run_file.read_text())
        claims = pd.read_csv(claims_file)
        lines.append(f"| {study.title} ({study.id}) | {study.notebook} | {run['profile']} | "
                     f"{summary_sentence(claims)} |")
        sections += ["", f"## {study.number:02d} {study.title}", "",
                     f"Profile `{run['profile']}`, finished {run['finished']}.", "",
                     "| claim | where | verdict |", "|---|---|---|"]
        sections += [f"| {r.claim} | {r.where} | **{r.verdict}** |" for r in claims.itertuples()]
    text = "\n".join(lines + sections) + "\n"
    (figures / "README.md").write_text(text)
    if readme is not None:
        readme = Path(readme)
        body = readme.read_text()
        if OVERVIEW_START in body and OVERVIEW_END in body:
            head, rest = body.split(OVERVIEW_START, 1)
            tail = rest.split(OVERVIEW_END, 1)[1]
            table = "\n".join(lines[4:])
            readme.write_text(f"{head}{OVERVIEW_START}\n{table}\n{OVERVIEW_END}{tail}")
    return text
