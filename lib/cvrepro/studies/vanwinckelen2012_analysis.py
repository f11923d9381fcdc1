"""Vanwinckelen & Blockeel (2012): what repeated CV estimates: eps_u, the repeated-CV curves (Figure 2), the
decomposition of the single CV's error (Figure 1 made concrete) and the findings against N (Section 7).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..published import vanwinckelen2012 as paper
from .vanwinckelen2012_picks import contingency, pick_rates
from .vanwinckelen2012_runs import Experiment


# --------------------------------------------------------------------------- #
# eps_u, repeated-CV curves, Figure 2
# --------------------------------------------------------------------------- #
def unconditional(exp: Experiment) -> pd.DataFrame:
    """eps_u per population and learner: the mean conditional error over the samples, with the
    sample standard deviation of eps_c (Def. 15) and the number of samples."""
    g = exp.conditional.groupby(["population", "learner"], sort=False)["error"]
    return g.agg(eps_u="mean", sd_eps_c="std", samples="size").reset_index()


def running_estimates(exp: Experiment) -> pd.DataFrame:
    """RCV_r for r = 1..R on every sample (the mean of the first r iterations), with eps_c and eps_u."""
    t = exp.iterations.sort_values(["population", "learner", "k", "sample", "iteration"]).copy()
    t["r"] = t.groupby(["population", "learner", "k", "sample"]).cumcount() + 1
    t["rcv"] = t.groupby(["population", "learner", "k", "sample"])["error"].cumsum() / t["r"]
    cond = exp.conditional[["population", "sample", "learner", "error"]].rename(columns={"error": "eps_c"})
    t = t.merge(cond, on=["population", "sample", "learner"], how="left")
    return t.merge(unconditional(exp)[["population", "learner", "eps_u"]], on=["population", "learner"], how="left")


def figure_2_table(exp: Experiment, sample: int = 0) -> pd.DataFrame:
    """Figure 2's panels in numbers (accuracy, %): for the drawn sample, CV after one and after all
    repetitions and eps_c; over all samples, the mean of RCV_R and of eps_c (eps_u); and the
    published panel's axis range. ``in range``: eps_u and the mean RCV_R both lie inside it."""
    run = running_estimates(exp)
    rows = []
    for panel in paper.figure_2().itertuples():
        cell = run[(run.population == panel.population) & (run.learner == panel.learner) & (run.k == panel.k)]
        if cell.empty:
            continue
        last = cell[cell.r == cell.r.max()]
        one = cell[cell["sample"] == sample]
        rows.append({"panel": f"{panel.learner} on {panel.population}, {panel.k}fcv",
                     "repetitions": int(cell.r.max()),
                     "CV (1 rep.), sample": 100 * (1 - one[one.r == 1].rcv.iloc[0]),
                     f"RCV_R, sample {sample}": 100 * (1 - one[one.r == one.r.max()].rcv.iloc[0]),
                     f"eps_c, sample {sample}": 100 * (1 - one.eps_c.iloc[0]),
                     "RCV_R, mean over samples": 100 * (1 - last.rcv.mean()),
                     "eps_u": 100 * (1 - last.eps_u.iloc[0]),
                     "paper axis low": panel.axis_low, "paper axis high": panel.axis_high})
    t = pd.DataFrame(rows)
    if len(t):
        t["in range"] = [bool(r["paper axis low"] <= min(r["eps_u"], r["RCV_R, mean over samples"]) and
                              max(r["eps_u"], r["RCV_R, mean over samples"]) <= r["paper axis high"])
                         for _, r in t.iterrows()]
    return t


def figure_2_calibration(exp: Experiment) -> float:
    """Share of Figure 2's panels (present in the run) whose eps_u and mean RCV_R accuracies lie
    inside the published panel's vertical axis range: how well N matches the paper's."""
    t = figure_2_table(exp)
    return float(t["in range"].mean()) if len(t) else float("nan")


def _panel(ax, cell, title, ylabel=True):
    ax.plot(cell.r, 100 * (1 - cell.rcv), color="C0", lw=1.4, label="repeated CV")
    ax.axhline(100 * (1 - cell.eps_c.iloc[0]), color="C2", lw=1.4, label="conditional")
    ax.axhline(100 * (1 - cell.eps_u.iloc[0]), color="C3", lw=1.4, label="unconditional")
    ax.set_title(title, fontsize=9)
    ax.xaxis.get_major_locator().set_params(integer=True)         # repetitions are whole numbers
    if ylabel:
        ax.set_ylabel("accuracy (%)")


def plot_figure_2(exp: Experiment, sample: int = 0):
    """Figure 2: the six published panels for one sample: RCV accuracy against repetitions (blue),
    the sample's conditional accuracy (green), the unconditional accuracy (red)."""
    import matplotlib.pyplot as plt

    run = running_estimates(exp)
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5))
    for ax, panel in zip(axes.flat, paper.figure_2().itertuples()):
        cell = run[(run.population == panel.population) & (run.learner == panel.learner) &
                   (run.k == panel.k) & (run["sample"] == sample)]
        title = f"{panel.learner} on {panel.population}, {panel.k}fcv"
        if cell.empty:
            ax.text(0.5, 0.5, f"{title}:\nnot in this run", ha="center", va="center", transform=ax.transAxes)
            ax.axis("off")
            continue
        _panel(ax, cell, f"{title}\n(paper's axis: {panel.axis_low}-{panel.axis_high} %)")
        ax.set_xlabel("repetitions")
    drawn = [ax for ax in axes.flat if ax.lines]
    handles, labels = drawn[0].get_legend_handles_labels() if drawn else ([], [])
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def plot_curves_grid(exp: Experiment, population_name: str, sample: int = 0):
    """Figure 2 for every learner (columns) and k (rows) on one population and sample."""
    import matplotlib.pyplot as plt

    run = running_estimates(exp)
    run = run[(run.population == population_name) & (run["sample"] == sample)]
    ks = sorted(run.k.unique())
    learners = [l for l in exp.params["learners"] if l in set(run.learner)]
    fig, axes = plt.subplots(len(ks), len(learners), figsize=(2.3 * len(learners), 1.9 * len(ks) + 0.6),
                             squeeze=False, sharex=True)
    for i, k in enumerate(ks):
        for j, learner in enumerate(learners):
            cell = run[(run.k == k) & (run.learner == learner)]
            _panel(axes[i, j], cell, f"{learner}, {k}fcv", ylabel=j == 0)
            axes[i, j].tick_params(labelsize=7)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False, fontsize=8)
    fig.suptitle(f"{population_name}, sample {sample}", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


# --------------------------------------------------------------------------- #
# Figure 1 made concrete: bias, internal and sample variance
# --------------------------------------------------------------------------- #
def decomposition(exp: Experiment) -> pd.DataFrame:
    """The single CV estimate's error decomposed per population, learner and k (Sec. 3).

    ``bias`` = E[CV] - eps_u (= E[CV - eps_c]); ``internal var`` = E_T[Var_pi(CV)];
    ``sample var`` = Var_T(E_pi[CV]), estimated without the internal variance left in a mean of R
    partitions (Var_T of the means minus internal / R; negative by chance when it is small);
    ``total var`` = internal + sample (law of total variance); ``var_eps_c`` = Var_T(eps_c) (Def. 15);
    ``mse_u`` = bias^2 + total, the mean squared error for eps_u; ``mse_c`` = E[(CV - eps_c)^2];
    ``corr`` = correlation over samples of E_pi[CV] and eps_c. Variances in squared percentage
    points, bias in percentage points.
    """
    t = exp.iterations.merge(exp.conditional[["population", "sample", "learner", "error"]]
                             .rename(columns={"error": "eps_c"}), on=["population", "sample", "learner"])
    rows = []
    for (pop, learner, k), g in t.groupby(["population", "learner", "k"], sort=False):
        per = g.groupby("sample").agg(mean=("error", "mean"), var=("error", "var"), n=("error", "size"),
                                      eps_c=("eps_c", "first"))
        R = int(per.n.min())
        internal = float(per["var"].mean()) if R > 1 else float("nan")
        sample = float(per["mean"].var() - (internal / R if R > 1 else 0.0))
        eps_u = float(per.eps_c.mean())
        bias = float(g.error.mean() - eps_u)
        total = internal + sample
        rows.append({"population": pop, "learner": learner, "k": int(k), "samples": len(per), "repetitions": R,
                     "eps_u": 100 * eps_u, "bias": 100 * bias, "internal var": 1e4 * internal,
                     "sample var": 1e4 * sample, "total var": 1e4 * total, "var_eps_c": 1e4 * float(per.eps_c.var()),
                     "mse_u": 1e4 * (bias ** 2 + total), "mse_c": 1e4 * float(((g.error - g.eps_c) ** 2).mean()),
                     "internal share": internal / total if total > 0 else float("nan"),
                     "corr": float(np.corrcoef(per["mean"], per.eps_c)[0, 1]) if per.eps_c.std() > 0
                     and per["mean"].std() > 0 else float("nan")})
    return pd.DataFrame(rows)


def plot_decomposition(dec: pd.DataFrame):
    """Bar chart of the decomposition: per population, learner and k, the single CV's mean squared
    error for eps_u as bias^2 + internal variance + sample variance (squared percentage points)."""
    import matplotlib.pyplot as plt

    pops = list(dict.fromkeys(dec.population))
    fig, axes = plt.subplots(len(pops), 1, figsize=(11, 2.4 * len(pops) + 0.5), squeeze=False)
    colors = {"bias^2": "C3", "internal": "C0", "sample": "C1"}
    for ax, pop in zip(axes[:, 0], pops):
        d = dec[dec.population == pop]
        learners = list(dict.fromkeys(d.learner))
        ks = sorted(d.k.unique())
        width = 0.8 / len(ks)
        for i, learner in enumerate(learners):
            for j, k in enumerate(ks):
                row = d[(d.learner == learner) & (d.k == k)]
                if row.empty:
                    continue
                r = row.iloc[0]
                x = i + (j - (len(ks) - 1) / 2) * width
                bottom = 0.0
                for part, value in (("bias^2", r["bias"] ** 2), ("internal", r["internal var"]),
                                    ("sample", max(r["sample var"], 0.0))):
                    value = 0.0 if not np.isfinite(value) else value
                    ax.bar(x, value, width * 0.92, bottom=bottom, color=colors[part],
                           label=part if (i == 0 and j == 0) else None)
                    bottom += value
                ax.text(x, bottom, str(k), ha="center", va="bottom", fontsize=6)
        ax.set_xticks(range(len(learners)), learners)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.08)                 # room for the k labels on top
        ax.set_ylabel("pp$^2$")
        ax.set_title(pop, fontsize=9, loc="left")
    axes[0, 0].legend(fontsize=8, ncol=3, loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def final_estimates(exp: Experiment) -> pd.DataFrame:
    """The repeated-CV estimate after all repetitions, per population, learner, k and sample."""
    run_est = running_estimates(exp)
    last = run_est.groupby(["population", "learner", "k", "sample"]).r.transform("max")
    return run_est[run_est.r == last]


def sweep_summary(experiments: dict) -> pd.DataFrame:
    """Per N: eps_u (accuracy, mean over learners and populations), the mean bias of CV against eps_c,
    the internal share of the single CV's variance, how often CV picks the winner per k, the RF twin-free
    share of Figure 2's panels inside the paper's axis ranges."""
    rows = []
    for size, exp in sorted(experiments.items()):
        dec = decomposition(exp)
        ours = contingency(exp)
        picks = pick_rates(ours)
        row = {"N": size, "accuracy (eps_u)": 100 * (1 - unconditional(exp).eps_u.mean()),
               "bias (pp)": dec.bias.mean(), "|bias| (pp)": dec.bias.abs().mean(),
               "internal share": dec["internal share"].mean(),
               "sd of eps_c (pp)": float(np.sqrt(dec.var_eps_c.mean()))}
        for k, g in picks[~picks.repeated].groupby("k"):
            row[f"picks winner, {k}-fold"] = g.ours.mean()
        row["Figure 2 panels in range"] = figure_2_calibration(exp)
        rows.append(row)
    return pd.DataFrame(rows)


def plot_sweep(summary: pd.DataFrame):
    """The findings against N: accuracy, bias, internal share, pick rates (legends below their panels)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(15, 3.8))
    s = summary.sort_values("N")
    below = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.2), "ncols": 2, "fontsize": 8, "frameon": False}
    axes[0].plot(s.N, s["accuracy (eps_u)"], "-o")
    axes[0].set(ylabel="mean unconditional accuracy (%)")
    axes[1].plot(s.N, s["bias (pp)"], "-o", label="mean bias")
    axes[1].plot(s.N, s["|bias| (pp)"], "-o", label="mean |bias|")
    axes[1].axhline(0, color="grey", lw=0.8)
    axes[1].set(ylabel="CV minus eps_c (pp)")
    axes[1].legend(**below)
    axes[2].plot(s.N, s["internal share"], "-o")          # above 1 where the sample variance is negative by chance
    axes[2].set(ylabel="internal / total variance", ylim=(0, max(1.0, 1.05 * float(s["internal share"].max()))))
    for c in [c for c in s.columns if c.startswith("picks winner")]:
        axes[3].plot(s.N, s[c], "-o", label=c.replace("picks winner, ", ""))
    axes[3].set(ylabel="CV picks the winner (share)", ylim=(0.4, 1.0))
    axes[3].legend(**below)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xticks(list(s.N), [str(int(n)) for n in s.N])
        ax.minorticks_off()
        ax.set_xlabel("sample size N")
    fig.tight_layout()
    return fig
