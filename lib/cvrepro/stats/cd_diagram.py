"""Critical-difference diagrams (Demsar 2006) with matplotlib."""
import numpy as np
import pandas as pd

from ._checks import score_table
from .multiple import average_ranks as _average_ranks
from .multiple import critical_difference as _critical_difference


def cliques(average_ranks, critical_difference):
    """Maximal groups (two or more learners, best first) whose average ranks all
    lie within ``critical_difference`` of each other: the bars of the diagram."""
    ranks = pd.Series(average_ranks, dtype=float).sort_values(kind="stable")
    names, r = list(ranks.index), ranks.to_numpy()
    groups = []
    for i in range(len(r)):
        j = int(np.searchsorted(r, r[i] + critical_difference, side="right")) - 1
        if j > i and not (groups and groups[-1][1] >= j):
            groups.append((i, j))
    return [tuple(names[i:j + 1]) for i, j in groups]


def plot_critical_difference(average_ranks, critical_difference, control=None, ax=None):
    """Draw a CD diagram from average ranks (rank 1 at the left).

    Without ``control`` (Nemenyi): bars join learners that are not
    significantly different.  With ``control`` (Bonferroni-Dunn): a bar spans
    the control's rank +- CD; learners outside it differ from the control.
    Returns the matplotlib Axes.
    """
    import matplotlib.pyplot as plt

    ranks = pd.Series(average_ranks, dtype=float).sort_values(kind="stable")
    k = len(ranks)
    if k < 2:
        raise ValueError("need at least two learners")
    if control is not None and control not in ranks.index:
        raise ValueError(f"control {control!r} is not one of {list(ranks.index)}")
    groups = cliques(ranks, critical_difference) if control is None else []
    top = 0.4 + 0.2 * max(len(groups), 1)  # room for the bars under the axis
    half = (k + 1) // 2
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 1.2 + 0.3 * half + 0.2 * len(groups)))
    lo, hi = 1, max(k, int(np.ceil(ranks.max())))
    ax.set_xlim(lo - 0.8, hi + 0.8)
    ax.set_ylim(-(top + 0.6 * half + 0.5), 2)
    ax.axis("off")
    ax.hlines(0, lo, hi, color="k", lw=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, 0, 0.15, color="k", lw=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize=9)
    ax.hlines(1.3, lo, lo + critical_difference, color="k", lw=1.5)
    ax.text(lo + critical_difference / 2, 1.45, f"CD = {critical_difference:.3f}",
            ha="center", va="bottom", fontsize=9)
    for pos, (name, r) in enumerate(ranks.items()):
        left = pos < half
        depth = -top - 0.6 * (pos if left else k - 1 - pos)
        end = lo - 0.5 if left else hi + 0.5
        ax.plot([r, r, end], [0, depth, depth], color="k", lw=0.8)
        ax.text(end + (-0.05 if left else 0.05), depth, f"{name} ({r:.2f})",
                ha="right" if left else "left", va="center", fontsize=9)
    for level, group in enumerate(groups):
        y = -0.3 - 0.2 * level
        ax.hlines(y, ranks[group[0]] - 0.03, ranks[group[-1]] + 0.03, color="k", lw=3)
    if control is not None:
        c = ranks[control]
        ax.hlines(-0.3, max(lo, c - critical_difference), min(hi, c + critical_difference),
                  color="tab:red", lw=3)
    return ax


def cd_diagram(scores, alpha=0.05, test="nemenyi", control=None, higher_is_better=True,
               tie_tolerance=0.0, ax=None):
    """Rank the ``scores`` table (data sets x learners), compute the CD of
    ``test`` ("nemenyi" or "bonferroni-dunn", which needs ``control``) at
    ``alpha`` and draw the diagram.  Returns the matplotlib Axes."""
    table = score_table(scores)
    if test == "bonferroni-dunn" and control is None:
        raise ValueError("the Bonferroni-Dunn diagram needs a control learner")
    n, k = table.shape
    cd = _critical_difference(k, n, alpha, test)
    ranks = _average_ranks(table, higher_is_better, tie_tolerance)
    return plot_critical_difference(ranks, cd, control if test == "bonferroni-dunn" else None, ax)
