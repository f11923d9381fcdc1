"""Write the notebooks' tables and figures in the formats the studies publish.

Tables go out as CSV (for machines), Markdown (for reading) and LaTeX (for
papers); figures as PNG and PDF. Every writer returns the paths it wrote.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["save_table", "save_figure"]


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
