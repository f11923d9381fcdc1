"""Raeder et al. (2010), the figures: Figure 1 (running means, settling, lead changes) and Figure 2 (the
distributions of the estimates and their skewness)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from .raeder2010_design import CV_ROWS
from .raeder2010_tables import KEYS, sorted_iterations

# (data set, learners, k, iterations shown) of the paper's four panels.
FIGURE_1_PANELS = (("twonorm", ("C4.5", "HDDT"), 10, 500), ("vote", ("C4.5", "MLP", "5-NN"), 5, 50),
                   ("crx", ("C4.5", "MLP", "5-NN"), 2, 100), ("crx", ("C4.5", "MLP", "5-NN"), 2, 30))


def running_means(iterations: pd.DataFrame, dataset: str, learners, k: int,
                  n_iterations: int | None = None, metric: str = "auroc") -> pd.DataFrame:
    """Running mean of ``metric`` over iterations (Figure 1), one column per learner."""
    t = sorted_iterations(iterations)
    t = t[(t.dataset == dataset) & (t.k == k) & t.learner.isin(list(learners))]
    wide = t.pivot(index="iteration", columns="learner", values=metric)[list(learners)]
    if n_iterations is not None:
        wide = wide.iloc[:n_iterations]
    means = wide.expanding().mean()
    means.index = np.arange(1, len(means) + 1)
    means.index.name = "iterations"
    return means


def settling_iterations(iterations: pd.DataFrame, tolerance: float = 0.002,
                        metric: str = "auroc") -> pd.DataFrame:
    """Per cell, the iteration after which the running mean stays within
    ``tolerance`` of its final value (how long an estimate takes to settle);
    ``censored`` when that is in the second half of the run (the run is too
    short to tell whether the estimate has settled)."""
    rows = []
    for (d, l, k), g in sorted_iterations(iterations).groupby(KEYS, sort=False):
        means = g[metric].expanding().mean().to_numpy()
        outside = np.flatnonzero(np.abs(means - means[-1]) > tolerance)
        settles = int(outside[-1] + 2) if outside.size else 1
        rows.append({"dataset": d, "learner": l, "k": k, "n_iterations": len(means),
                     "settles_at": settles, "censored": settles > len(means) / 2})
    return pd.DataFrame(rows)


def settling_by_learner(settle: pd.DataFrame) -> pd.DataFrame:
    """Median settling iteration per learner (rows) and k (columns ``2-fold``, ...)."""
    wide = settle.pivot_table(index="learner", columns="k", values="settles_at", aggfunc="median")
    wide.columns = [f"{k}-fold" for k in wide.columns]
    return wide.reset_index()


def lead_changes(means: pd.DataFrame) -> int:
    """How often the leading learner changes along running means (ties ignored)."""
    leader = means.to_numpy().argmax(axis=1)
    return int(np.count_nonzero(np.diff(leader)))


def figure_1_panels(datasets, learners, n_iterations: int) -> list[dict]:
    """Figure 1's panels with what this run has: twonorm 500 x 10-fold (C4.5, HDDT),
    vote 50 x 5-fold, crx 100 x 2-fold and its first 30 (C4.5, MLP, 5-NN).

    Each panel shows at most ``n_iterations``; a panel that would repeat an
    earlier one (crx's first 30 when the run has 30 iterations or fewer) is
    left out with a note. A missing data set is replaced by the run's first;
    missing learners are dropped."""
    catalog = dict(zip(CV_ROWS.paper, CV_ROWS.used))
    panels, shown = [], set()
    for dataset, wanted, k, n in FIGURE_1_PANELS:
        name = catalog.get(dataset) or dataset
        used = name if name in datasets else datasets[0]
        have = [l for l in wanted if l in learners] or list(learners[:3])
        n_shown = min(n, n_iterations)
        notes = ([] if used == dataset else [f"the paper's {dataset}"] if used == name
                 else [f"{used} in place of {dataset}"])
        if n_shown < n:
            notes.append(f"{n_shown} of the paper's {n} iterations")
        key = (used, tuple(have), k, n_shown)
        panel = {"dataset": used, "learners": have, "k": k, "n_iterations": n_shown, "paper_iterations": n,
                 "note": "; ".join(notes), "repeats": key in shown}
        shown.add(key)
        panels.append(panel)
    return panels


def _lead_holders(means: pd.DataFrame) -> list[str]:
    leader = means.to_numpy().argmax(axis=1)
    return [means.columns[i] for i in dict.fromkeys(leader)]


def figure_1(iterations: pd.DataFrame, panels: list[dict]):
    """Figure 1: running-mean AUROC against iterations, one panel per shown panel.

    Returns the figure and a table with, per panel, the lead changes and which
    learners led at some point (within the first 15 iterations too, as the paper
    reads its panel (b))."""
    from ..reporting import learner_colors, legend_outside, panel_grid

    drawn = [p for p in panels if not p["repeats"]]
    fig, axes = panel_grid(len(drawn), 2, (5.5, 4.0))
    colors = learner_colors([l for p in drawn for l in p["learners"]])
    rows = []
    for ax, p, letter in zip(axes, drawn, "abcd"):
        means = running_means(iterations, p["dataset"], p["learners"], p["k"], p["n_iterations"])
        title = f"({letter}) {p['dataset']}, {len(means)} x {p['k']}-fold"
        for learner in means.columns:
            ax.plot(means.index, means[learner], label=learner, lw=1.2, color=colors[learner])
        ax.set(title=title + (f"\n({p['note']})" if p["note"] else ""), xlabel="iterations",
               ylabel="running mean AUROC")
        ax.xaxis.get_major_locator().set_params(integer=True)
        rows.append({"panel": title, "dataset": p["dataset"], "k": p["k"], "lead changes": lead_changes(means),
                     "learners that led": ", ".join(_lead_holders(means)),
                     "led within 15 iterations": ", ".join(_lead_holders(means.iloc[:15]))})
    legend_outside(fig)
    return fig, pd.DataFrame(rows)


FIGURE_2_TREE_DATASETS = ("breast-w", "pima", "sonar", "tic-tac-toe")   # breast-w named; three are our reading


def distribution_summary(iterations: pd.DataFrame, k: int = 2, metric: str = "auroc") -> pd.DataFrame:
    """Mean, median, skewness of the per-iteration estimates (Figure 2), and D'Agostino's
    test of zero skewness (``skew_pvalue``, NaN below 8 iterations)."""
    t = sorted_iterations(iterations)
    t = t[t.k == k]
    g = t.groupby(["dataset", "learner"], sort=False)[metric]
    out = g.agg(mean="mean", median="median", std="std", n="size").reset_index()
    out["skewness"] = g.apply(lambda s: float(sps.skew(s, bias=False)) if s.nunique() > 2 else 0.0).to_numpy()
    out["skew_pvalue"] = g.apply(
        lambda s: float(sps.skewtest(s).pvalue) if len(s) >= 8 and s.nunique() > 2 else np.nan).to_numpy()
    return out


def figure_2_panels(datasets, learners) -> list[dict]:
    """Figure 2: C4.5 and HDDT on four data sets, panels (a)-(d), and NB against MLP on one, panel (f)
    as the paper letters it (its text does not describe a panel (e), which is left out); 2-fold."""
    trees = [l for l in ("C4.5", "HDDT") if l in learners]
    chosen = [d for d in FIGURE_2_TREE_DATASETS if d in datasets] + \
             [d for d in datasets if d not in FIGURE_2_TREE_DATASETS]
    panels = [{"dataset": d, "learners": trees, "letter": letter}
              for d, letter in zip(chosen[:4], "abcd")] if trees else []
    pair = [l for l in ("NB", "MLP") if l in learners]
    if pair:
        panels.append({"dataset": chosen[0], "learners": pair, "letter": "f"})
    return panels


def figure_2(iterations: pd.DataFrame, panels: list[dict], k: int = 2):
    """Figure 2: histograms of the per-iteration estimates, mean dashed, median dotted."""
    from ..reporting import learner_colors, legend_outside, panel_grid

    t = sorted_iterations(iterations)
    t = t[t.k == k]
    fig, axes = panel_grid(max(len(panels), 1), 3, (4.7, 4.0))
    colors = learner_colors([l for p in panels for l in p["learners"]])
    if not panels:
        axes[0].text(0.5, 0.5, "no panel: the run lacks C4.5 and HDDT, and NB and MLP", ha="center",
                     transform=axes[0].transAxes)
        axes[0].set_axis_off()
    for ax, p, letter in zip(axes, panels, "abcdef"):
        letter = p.get("letter", letter)
        cell = t[t.dataset == p["dataset"]]
        skews = []
        for learner in p["learners"]:
            v = cell[cell.learner == learner].auroc.to_numpy()
            skews.append(f"{learner} {sps.skew(v, bias=False) if np.unique(v).size > 2 else 0.0:+.2f}")
            ax.hist(v, bins=min(30, max(5, len(v) // 5)), alpha=0.45, color=colors[learner], density=True,
                    label=learner)
            ax.axvline(np.mean(v), color=colors[learner], ls="--", lw=1)
            ax.axvline(np.median(v), color=colors[learner], ls=":", lw=1.5)
        ax.set(title=f"({letter}) {p['dataset']}, {cell.iteration.nunique()} x {k}-fold\n"
                     f"skewness {', '.join(skews)}", xlabel="AUROC estimate", ylabel="density")
    if panels:
        axes[-1].plot([], [], color="0.3", ls="--", lw=1, label="mean")      # listed after the learners
        axes[-1].plot([], [], color="0.3", ls=":", lw=1.5, label="median")
        legend_outside(fig)
    return fig


def figure_2_cells(dists: pd.DataFrame, panels: list[dict]) -> pd.DataFrame:
    """The rows of :func:`distribution_summary` drawn in Figure 2's panels."""
    keep = {(p["dataset"], l) for p in panels for l in p["learners"]}
    return dists[[(d, l) in keep for d, l in zip(dists.dataset, dists.learner)]].reset_index(drop=True)


def skew_evidence(dists: pd.DataFrame) -> dict:
    good = dists[dists["mean"] >= dists["mean"].median()]
    significant = good["skew_pvalue"] < 0.05
    return {"good": len(good), "left": int((good.skewness < 0).sum()),
            "significant": int(significant.sum()),
            "significant left": int((significant & (good.skewness < 0)).sum()),
            "n": int(dists["n"].min()) if len(dists) else 0}
