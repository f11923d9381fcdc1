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
import os
import platform
import subprocess
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import shipped as shipped_results
from .profiles import study_parameters
from .studies import STUDIES
from .verdicts import changes, summary_sentence

__all__ = ["save_table", "latex_table", "save_figure", "hide_empty_panels", "panel_grid", "learner_colors",
           "legend_outside", "beside",
           "show_table", "ShownTable", "Captioned", "show", "show_figure", "say", "record_run", "record_notebook",
           "run_record",
           "write_overview", "show_verdict_changes", "profile_label", "cpu_seconds"]


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
    paths[2].write_text(latex_table(table, shown, name, caption, index=index))
    return paths


def latex_table(table: pd.DataFrame, shown: pd.DataFrame, name: str, caption: str | None = None, *,
                index: bool = False) -> str:
    """``shown`` (``table`` as text) as a booktabs LaTeX table labelled ``tab:<name>``.

    Numeric columns of ``table`` are right-aligned (equal decimals line up), text columns left-aligned.
    Needs ``\\usepackage{booktabs}``.
    """
    align = "".join("r" if pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c])
                    else "l" for c in table.columns)
    styler = shown.style.format(escape="latex").format_index(escape="latex", axis=1)
    if index:
        styler = styler.format_index(escape="latex", axis=0)
        align = "l" * table.index.nlevels + align
    else:
        styler = styler.hide(axis="index")
    label = "tab:" + "".join(ch if ch.isalnum() or ch in "-_:" else "-" for ch in name)
    return "% needs \\usepackage{booktabs}\n" + styler.to_latex(
        caption=None if caption is None else latex_escape(caption), label=label, hrules=True,
        column_format=align, position_float="centering")


def _cell(value, digits: int) -> str:
    """A table cell as text: floats with ``digits`` decimals, missing values empty."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (float, np.floating)):
        return f"{value:.{digits}f}"
    return str(value)


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(LATEX_SPECIAL.get(ch, ch) for ch in text)


def save_figure(fig, folder: str | Path, name: str, *, dpi: int = 150) -> list[Path]:
    """Write a matplotlib figure as ``name``.png and .pdf under ``folder`` (empty panels hidden)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    hide_empty_panels(fig)
    paths = [folder / f"{name}.png", folder / f"{name}.pdf"]
    fig.savefig(paths[0], dpi=dpi, bbox_inches="tight")
    fig.savefig(paths[1], bbox_inches="tight")
    return paths


def hide_empty_panels(fig) -> int:
    """Hide the axes of ``fig`` with nothing drawn (unused grid slots); return how many.

    A panel that is empty for a reason should say so with ``ax.text``: text counts as drawn.
    """
    empty = [ax for ax in fig.axes if ax.get_visible() and not (
        ax.lines or ax.patches or ax.collections or ax.images or ax.texts or ax.tables or ax.artists
        or ax.get_legend() is not None)]
    for ax in empty:
        ax.set_visible(False)
    return len(empty)


def panel_grid(n: int, cols: int, panel: tuple[float, float] = (5.0, 4.0)):
    """A figure with ``n`` panels, ``cols`` to a row, the last row centred: no empty grid slot.

    Returns the figure and the list of its ``n`` axes, row by row.
    """
    import matplotlib.pyplot as plt

    if n < 1 or cols < 1:
        raise ValueError(f"panel_grid needs n >= 1 and cols >= 1, got n={n}, cols={cols}")
    cols = min(cols, n)
    rows = -(-n // cols)
    fig = plt.figure(figsize=(panel[0] * cols, panel[1] * rows), layout="constrained")
    grid = fig.add_gridspec(rows, 2 * cols)
    axes = []
    for i in range(n):
        row, col = divmod(i, cols)
        left = (cols - (n - row * cols)) if row == rows - 1 else 0       # centre a short last row
        start = 2 * col + left
        axes.append(fig.add_subplot(grid[row, start:start + 2]))
    return fig, axes


def legend_outside(target, **kwargs):
    """A legend beside the data: right of an axes, or one legend below all panels of a figure
    (every label once; the figure needs ``layout="constrained"``, as :func:`panel_grid` makes it)."""
    kwargs.setdefault("fontsize", 8)
    kwargs.setdefault("frameon", False)
    if hasattr(target, "plot"):                                                    # an axes
        return target.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)
    found = {}
    for ax in target.axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            found.setdefault(label, handle)
    kwargs.setdefault("ncols", min(len(found), 6) or 1)
    return target.legend(list(found.values()), list(found), loc="outside lower center", **kwargs)


LEARNER_ORDER = ("C4.5", "HDDT", "MLP", "5-NN", "NB", "SMO", "IBk", "JRip", "RIPPER", "PART", "SVM", "LR", "1R")


def learner_colors(learners) -> dict[str, tuple]:
    """One colour per learner, the same in every panel and figure of a study (tab10, then tab20).

    The learners of :data:`LEARNER_ORDER` keep their colour whatever subset is drawn; others follow.
    """
    import matplotlib as mpl

    palette = list(mpl.colormaps["tab10"].colors) + list(mpl.colormaps["tab20"].colors[1::2])
    others = sorted(set(learners) - set(LEARNER_ORDER))
    slots = {name: LEARNER_ORDER.index(name) for name in learners if name in LEARNER_ORDER}
    slots.update({name: len(LEARNER_ORDER) + i for i, name in enumerate(others)})
    return {name: palette[i % len(palette)] for name, i in slots.items()}


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
    """Write ``table`` (as :func:`save_table`) and display it once under its caption.

    Returns the table as a :class:`ShownTable`, which a cell's last line does not display again.
    """
    save_table(table, folder, name, index=index, digits=digits, caption=caption)
    say(f"**{caption}**")
    text = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]
    styler = table.style.format(precision=digits, na_rep="").set_properties(subset=text, **{"text-align": "left"})
    _display(styler if index else styler.hide(axis="index"))
    return ShownTable(table)


class ShownTable(pd.DataFrame):
    """A table :func:`show_table` has displayed: a DataFrame that a cell does not display twice.

    Anything computed from it is a plain DataFrame again.
    """

    @property
    def _constructor(self):
        return pd.DataFrame

    def _ipython_display_(self) -> None:
        """Shown already, under its caption: nothing more as a cell's value."""


@dataclass(frozen=True)
class Captioned:
    """A table (DataFrame) or a matplotlib figure with its file name and caption.

    What a study module can return so that a notebook cell is one call, ``show(study.table_x(...), out)``,
    and the caption lives beside the code that computes the result.
    """

    content: Any
    name: str
    caption: str
    index: bool = False
    digits: int = 4


def show(item: Captioned, folder: str | Path) -> None:
    """Write and display ``item`` once with its caption (:func:`show_table` or :func:`show_figure`)."""
    if isinstance(item.content, pd.DataFrame):
        show_table(item.content, folder, item.name, item.caption, index=item.index, digits=item.digits)
    else:
        show_figure(item.content, folder, item.name, item.caption)


def show_verdict_changes(study_id: str, claims: pd.DataFrame, profile: str, shipped, folder: str | Path) -> None:
    """At the ``paper`` profile read from shipped tables: every claim whose verdict differs from the quick
    profile's (shipped beside them), with the evidence at each scale as the reason; nothing otherwise."""
    quick = shipped_results.quick_claims(study_id, shipped) if profile == "paper" else None
    if quick is None:
        return
    changed = changes(quick, claims)
    if changed.empty:
        say(f"All {len(claims)} verdicts are the same at the quick profile and at the published scale.")
        return
    left = "; ".join(f"{key} {', '.join(map(str, values))}"
                     for key, values in shipped_results.missing(study_id, shipped).items())
    show_table(changed, folder, "verdicts_quick_vs_paper",
               f"The {len(changed)} of {len(claims)} claims whose verdict changed between the quick profile "
               "(`make all`) and the published scale, with each scale's evidence: the reason for the change."
               + (f" The published-scale run is a part of the design (not yet computed: {left}) while the quick "
                  "run covers its whole design, so a change may come from what the part leaves out as well as "
                  "from the scale." if left else ""))


def show_figure(fig, folder: str | Path, name: str, caption: str) -> list[Path]:
    """Write ``fig`` (as :func:`save_figure`), display it once with its caption, and close it."""
    import matplotlib.pyplot as plt
    from IPython.display import Image

    paths = save_figure(fig, folder, name)
    plt.close(fig)
    _display(Image(filename=str(paths[0])))
    say(f"*{caption}*")
    return paths


KEY_PACKAGES = ("cvrepro", "numpy", "scipy", "scikit-learn", "pandas", "matplotlib", "numba", "joblib",
                "papermill", "dask", "distributed")


def record_run(folder: str | Path, study_id: str, profile: str, claims: pd.DataFrame,
               started: float | None = None, params: dict | None = None) -> dict:
    """End a study notebook: write its claims (``claims.*``) and ``run.json``; return the record.

    ``params`` are the run's parameters (by default, in a notebook, the kernel's
    ``params`` and its parameters cell's values); see :func:`run_record`.
    """
    study = STUDIES[study_id]
    save_table(claims, folder, "claims", caption=f"Claims of {study.title}, checked on our results")
    return record_notebook(folder, study.notebook, profile, started, params, study=study_id)


def record_notebook(folder: str | Path, notebook: str, profile: str, started: float | None = None,
                    params: dict | None = None, **extra) -> dict:
    """End any notebook (a study's, or 06's own comparison): write ``run.json`` (:func:`run_record`)."""
    record = {**extra, "notebook": notebook,
              **run_record(profile, _notebook_parameters() if params is None else params, started)}
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / "run.json").write_text(json.dumps(record, indent=2, default=str) + "\n")
    return record


def run_record(profile: str, params: dict, started: float | None = None) -> dict:
    """What a run needs to be traced: profile, parameters, seeds, commit, versions, cores, times.

    ``started`` is the run's ``time.time()`` at its start (wall time); the CPU
    time is this process's and its child processes' (joblib's workers included).
    """
    params = {k: params[k] for k in sorted(params)}
    versions = {}
    for name in KEY_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return {"profile": profile, "parameters": params,
            "seeds": {k: v for k, v in params.items() if "seed" in k.lower()},
            **_git_state(), "python": platform.python_version(), "packages": versions,
            "platform": platform.platform(), "cores": os.cpu_count(),
            "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
            "seconds": None if started is None else round(time.time() - started, 1),
            "cpu_seconds": round(cpu_seconds(), 1)}


def _git_state() -> dict:
    """The commit of the checkout this library lives in, and whether its tracked files differ from it."""
    here = Path(__file__).resolve().parent

    def git(*args):
        done = subprocess.run(["git", *args], cwd=here, capture_output=True, text=True, timeout=30)
        return done.stdout.strip() if done.returncode == 0 else None

    try:
        commit = git("rev-parse", "HEAD")
        status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    except (OSError, subprocess.SubprocessError):
        commit = status = None
    return {"commit": commit, "dirty": None if status is None else bool(status)}


def cpu_seconds() -> float:
    """CPU time of this process and its children, live ones (worker pools) included."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:4])                     # user, system, reaped children's user and system
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def _notebook_parameters() -> dict:
    """In a notebook: its parameters cell's names with their values, updated by the kernel's ``params``.

    The parameters cell is the first executed cell that assigns ``profile``.
    """
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return {}
    ns = shell.user_ns
    names = next((found for cell in ns.get("In", []) if "profile" in (found := _assigned(cell))), [])
    values = {k: ns[k] for k in names if k in ns}
    values.update(ns.get("params") or {})
    return values


def _assigned(source) -> list[str]:
    from .nbparams import assigned_names

    try:
        return assigned_names(source) if isinstance(source, str) else []
    except SyntaxError:
        return []


OVERVIEW_START, OVERVIEW_END = "<!-- claims overview: start -->", "<!-- claims overview: end -->"


def _layer(folder: Path) -> tuple[dict, pd.DataFrame] | None:
    """A study's executed-notebook record (``run.json``) and claims in ``folder``, or None when not run."""
    run_file, claims_file = folder / "run.json", folder / "claims.csv"
    if not run_file.exists() or not claims_file.exists():
        return None
    return json.loads(run_file.read_text()), pd.read_csv(claims_file)


def profile_label(study_id: str, run: dict) -> str:
    """A run's profile as a reader should see it: ``paper``, or at ``paper`` with a part of the design only
    (a part shipped while the rest computes), ``paper, part: 4 of 9 learners``."""
    profile = str(run.get("profile"))
    ran = run.get("parameters") or {}
    if profile != "paper" or not ran:
        return profile

    def values(items: list) -> set:
        return {json.dumps(item, sort_keys=True, default=str) for item in items}

    full = study_parameters(study_id, "paper")
    parts = [f"{len(ran[key])} of {len(value)} {key}" for key, value in full.items()
             if isinstance(value, list) and isinstance(ran.get(key), list) and values(ran[key]) < values(value)]
    return profile + (f", part: {', '.join(parts)}" if parts else "")


def write_overview(figures: str | Path, readme: str | Path | None = None,
                   target: str | Path | None = None) -> str:
    """Build the collection overview from every study's ``run.json`` and ``claims.csv``: the profile a
    notebook ran at under ``figures/<study>/`` (``make all``) beside the published scale under
    ``figures/paper/<study>/`` (``make paper``, from the shipped tables).

    Writes ``target`` (default ``figures/README.md``) and, when ``readme`` is
    given, replaces the part of that file between the overview markers.
    Returns the Markdown.
    """
    figures = Path(figures)
    target = figures / "README.md" if target is None else Path(target)
    lines = ["# Results overview", "",
             "Written by `make all` (tools/overview.py) and `make paper`: every study, the verdicts of its notebook "
             "at the profile `make all` ran (`quick` by default) and at the published scale (`paper`, from the "
             "shipped tables), for every claim of the paper (holds / partly / does not hold / undecided). Details "
             "and evidence are in each study's `claims.md` and in its executed notebook.", "",
             "| study | notebook | claims (make all) | claims at the published scale (make paper) |",
             "|---|---|---|---|"]
    sections = []
    for study in STUDIES.values():
        main, paper = _layer(figures / study.id), _layer(figures / "paper" / study.id)
        cells = [f"{summary_sentence(layer[1])} ({profile_label(study.id, layer[0])})" if layer else "not run"
                 for layer in (main, paper)]
        lines.append(f"| {study.title} ({study.id}) | {study.notebook} | {cells[0]} | {cells[1]} |")
        if main is None and paper is None:
            continue
        runs = [run for run, _ in filter(None, (main, paper))]
        sections += ["", f"## {study.number:02d} {study.title}", ""]
        sections += [f"Profile `{profile_label(study.id, run)}`, finished {run['finished']}." for run in runs]
        sections += ["", "| claim | where | " + " | ".join(run["profile"] for run in runs) + " |",
                     "|---|---|" + "---|" * len(runs)]
        sections += [f"| {claim} | {where} | " + " | ".join(f"**{v}**" for v in verdicts) + " |"
                     for (claim, where), verdicts in _verdicts_side_by_side(main, paper).items()]
    text = "\n".join(lines + sections) + "\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    if readme is not None:
        readme = Path(readme)
        body = readme.read_text()
        if OVERVIEW_START in body and OVERVIEW_END in body:
            head, rest = body.split(OVERVIEW_START, 1)
            tail = rest.split(OVERVIEW_END, 1)[1]
            table = "\n".join(lines[4:])
            readme.write_text(f"{head}{OVERVIEW_START}\n{table}\n{OVERVIEW_END}{tail}")
    return text


def _verdicts_side_by_side(*layers) -> dict[tuple[str, str], list[str]]:
    """(claim, where) -> its verdict in each layer that ran ("not checked" where a layer lacks the claim)."""
    ran = [layer[1] for layer in layers if layer]
    keys = list(dict.fromkeys((r.claim, r.where) for claims in ran for r in claims.itertuples()))
    found = [{(r.claim, r.where): r.verdict for r in claims.itertuples()} for claims in ran]
    return {key: [f.get(key, "not checked") for f in found] for key in keys}
