"""Scheffer & Herbrich (1997): the tables and figures read from the results: the channel on our C4.5
(extra hits, greedy searches, StatLog ranks bought) and naive against nested tuning (estimates, biases,
rankings, cost).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from .. import paramchannel as pc
from ..published import scheffer1997 as paper
from .scheffer1997_benchmarks import hits_for_rank, statlog_rank, statlog_rates
from .scheffer1997_design import DEFAULTS, TARGET, tuned_keys
from .scheffer1997_runs import ChannelRun, TuningRun


def pretty_name(dataset: str) -> str:
    return {"landsat": "Landsat", "dna": "DNA"}.get(dataset, dataset)


def channel_summary(runs: list[ChannelRun]) -> pd.DataFrame:
    """Per data set: our C4.5's test hits and StatLog rank beside StatLog's C4.5, the extra hits
    it needs for the next rank, and the c that reaches it with 90 % (formula and simulation)."""
    rows = []
    for r in runs:
        name = pretty_name(r.dataset)
        acc = r.hits / r.test_size
        rank = int(statlog_rank(acc, r.dataset)[0])
        z = hits_for_rank(r.dataset, r.test_size, rank - 1) - r.hits if rank > 1 else np.nan
        c90 = pc.smallest_c(lambda c, z=z, r=r: pc.one_shot_probability(z, c, r.test_size, r.hits), TARGET,
                            c_max=r.test_size) if np.isfinite(z) else None
        g = r.gains
        sim = g.assign(up=g["extra_hits"] >= z).groupby("c")["up"].mean() if np.isfinite(z) else None
        c90_sim = int(sim[sim >= TARGET].index[0]) if sim is not None and (sim >= TARGET).any() else None
        paper_hits = round(paper.C45_STATLOG[r.dataset] / 100 * r.test_size)
        rows.append({"data set": name, "test size": r.test_size, "C4.5 hits ours": r.hits,
                     "C4.5 hits paper": paper_hits, "accuracy ours": acc,
                     "accuracy StatLog": paper.C45_STATLOG[r.dataset] / 100,
                     "rank ours": rank, "rank paper": paper.STATED[f"{r.dataset}_c45_rank"],
                     "z for the next rank ours": z,
                     "z paper": int(paper.BENCHMARKS.set_index("benchmark").loc[name, "z"]),
                     "c for 90 % (formula)": c90, "c for 90 % (simulated)": c90_sim,
                     "c paper": r.paper_c, "trials": pc.trials_needed(c90, r.classes) if c90 else np.nan,
                     "bits": pc.channel_bits(c90, r.entropy) if c90 else np.nan})
    return pd.DataFrame(rows)


def gain_check(run: ChannelRun, c: int | None = None) -> pd.DataFrame:
    """Observed distribution of the extra hits at c (default: the paper's c) over the orderings
    against the hypergeometric one of Sec. 2.3 (with our C4.5's hits): ``extra_hits, observed,
    expected``, plus a chi-square goodness-of-fit p-value (cells pooled to >= 5 expected) in
    ``attrs['pvalue']``."""
    c = run.paper_c if c is None else c
    obs = run.gains.loc[run.gains["c"] == c, "extra_hits"].to_numpy()
    pmf = pc.cv_gain_pmf(c, [run.test_size], [run.hits])
    counts = np.bincount(obs, minlength=len(pmf))[:len(pmf)]
    table = pd.DataFrame({"extra_hits": pmf.index, "observed": counts / len(obs), "expected": pmf.to_numpy()})
    table = table[(table["observed"] > 0) | (table["expected"] > 1e-6)].reset_index(drop=True)
    table.attrs["pvalue"] = _chisquare(counts, pmf.to_numpy() * len(obs))
    table.attrs["n"] = len(obs)
    table.attrs["c"] = c
    return table


def _chisquare(counts: np.ndarray, expected: np.ndarray, min_expected: float = 5.0) -> float:
    """Chi-square goodness-of-fit p-value after pooling neighbouring cells to >= ``min_expected``."""
    obs_cells, exp_cells, o_acc, e_acc = [], [], 0.0, 0.0
    for o, e in zip(counts, expected):
        o_acc, e_acc = o_acc + o, e_acc + e
        if e_acc >= min_expected:
            obs_cells.append(o_acc)
            exp_cells.append(e_acc)
            o_acc = e_acc = 0.0
    if obs_cells:
        obs_cells[-1] += o_acc
        exp_cells[-1] += e_acc
    if len(obs_cells) < 2:
        return float("nan")
    exp = np.asarray(exp_cells)
    return float(stats.chisquare(obs_cells, exp * np.sum(obs_cells) / exp.sum()).pvalue)


def greedy_check(runs: list[ChannelRun]) -> pd.DataFrame:
    """The real greedy searches: trials, seconds and whether each found exactly the formula's c - X."""
    parts = [r.greedy.assign(**{"data set": pretty_name(r.dataset)}) for r in runs if len(r.greedy)]
    if not parts:
        return pd.DataFrame(columns=["data set", "orderings", "c", "trials", "agree", "mean extra hits",
                                     "seconds per search"])
    g = pd.concat(parts)
    return pd.DataFrame([{"data set": d, "orderings": len(t), "c": int(t["c"].iloc[0]),
                          "trials": int(t["trials"].iloc[0]),
                          "agree": int((t["extra_hits_search"] == t["extra_hits_formula"]).sum()),
                          "mean extra hits": t["extra_hits_search"].mean(), "seconds per search": t["seconds"].mean()}
                         for d, t in g.groupby("data set", sort=False)])


def rank_curves(run: ChannelRun, ranks_up: int = 3) -> pd.DataFrame:
    """P(C4.5 plus c leaked labels reaches each of the next ``ranks_up`` attainable StatLog ranks)
    against c, simulated over the orderings and from the formula (``c, step, rank, simulated,
    formula, z``). Tied algorithms make one step (beating one of them ranks with both)."""
    acc = run.hits / run.test_size
    above = np.unique(statlog_rates(run.dataset)[statlog_rates(run.dataset) > acc + 1e-9])[:ranks_up]
    rows = []
    for step, rate in enumerate(above, start=1):
        z = int(math.ceil(rate * run.test_size - 1e-9)) - run.hits
        rank = int(statlog_rank(rate, run.dataset)[0])
        sim = run.gains.assign(up=run.gains["extra_hits"] >= z).groupby("c")["up"].mean()
        cs = sim.index.to_numpy()
        # Sec. 2.3 for every c at once: P(c - X >= z) = P(X <= c - z), X ~ hypergeometric(m, hits, c)
        formula = stats.hypergeom.cdf(cs - z, run.test_size, run.hits, cs)
        rows += [(int(c), step, rank, float(p), float(f), z) for c, p, f in zip(cs, sim.to_numpy(), formula)]
    return pd.DataFrame(rows, columns=["c", "step", "rank", "simulated", "formula", "z"])


def rank_table(runs: list[ChannelRun], c_values=(16, 60, 85, 150)) -> pd.DataFrame:
    """StatLog ranks bought at a few c: the mean rank and the share of orderings that move up."""
    rows = []
    for r in runs:
        rank0 = int(statlog_rank(r.hits / r.test_size, r.dataset)[0])
        for c in c_values:
            if c > r.gains["c"].max():
                continue
            extra = r.gains.loc[r.gains["c"] == c, "extra_hits"].to_numpy()
            ranks = statlog_rank((r.hits + extra) / r.test_size, r.dataset)
            rows.append({"data set": pretty_name(r.dataset), "c": c, "trials": pc.trials_needed(c, r.classes),
                         "bits": pc.channel_bits(c, r.entropy), "rank without channel": rank0,
                         "mean rank": ranks.mean(), "best rank": int(ranks.min()),
                         "P(up >= 1 place)": float(np.mean(ranks < rank0)),
                         "mean extra hits": extra.mean()})
    return pd.DataFrame(rows)


def figure_gain_check(runs: list[ChannelRun]):
    """Observed extra hits at the paper's c against the hypergeometric distribution, per data set."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(runs), figsize=(6 * len(runs), 4), squeeze=False)
    for ax, r in zip(axes[0], runs):
        t = gain_check(r)
        ax.bar(t["extra_hits"], t["observed"], width=0.8, alpha=0.5, label=f"{t.attrs['n']} random orderings")
        ax.plot(t["extra_hits"], t["expected"], "ko-", ms=3, label="Sec. 2.3 (hypergeometric)")
        ax.set(title=f"{pretty_name(r.dataset)}: c = {t.attrs['c']} leaked labels, C4.5 {r.hits}/{r.test_size} hits",
               xlabel="extra hits c - X", ylabel="probability")
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure_ranks(runs: list[ChannelRun]):
    """P(moving up j StatLog places) against c: simulation (lines) and formula (dots)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(runs), figsize=(6 * len(runs), 4), squeeze=False)
    for ax, r in zip(axes[0], runs):
        curves = rank_curves(r)
        for j, g in curves.groupby("step"):
            ax.plot(g["c"], g["simulated"], color=f"C{j - 1}",
                    label=f"rank {int(g['rank'].iloc[0])} (z = {int(g['z'].iloc[0])})")
            every = g.iloc[::10]
            ax.plot(every["c"], every["formula"], "o", color=f"C{j - 1}", ms=3)
        ax.axvline(r.paper_c, color="grey", ls=":", lw=0.8)
        ax.axhline(TARGET, color="grey", ls=":", lw=0.8)
        rank0 = int(statlog_rank(r.hits / r.test_size, r.dataset)[0])
        ax.set(title=f"{pretty_name(r.dataset)}: our C4.5 ranks {rank0} in StatLog", xlabel="leaked labels c",
               ylabel="P(ranked at least this high)", ylim=(-0.02, 1.02))
        ax.legend(fontsize=8, title="lines: simulated; dots: formula", title_fontsize=8)
    fig.tight_layout()
    return fig


def _default_index(run: TuningRun, family: str) -> int:
    defaults = {k: DEFAULTS[family][k] for k in run.settings[family][0]}
    return run.settings[family].index(defaults)


def _describe(setting: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items())


def estimates_table(run: TuningRun) -> pd.DataFrame:
    """One row per (unit, repetition, family): the default setting's CV accuracy, the naive,
    nested and per-fold estimates of the tuned learner, and (pool samples) the held-out truth of
    the deployed setting (the one the outer CV prefers) and of the default."""
    kinds = run.units.set_index("unit")
    rows = []
    for (unit, it, family), res in run.results.items():
        s = res.summary()
        d = 0 if family == "MLP-seed" else _default_index(run, family)
        truth = run.truth.get((unit, family))
        rows.append({"unit": unit, "dataset": kinds.loc[unit, "dataset"], "kind": kinds.loc[unit, "kind"],
                     "repetition": it, "family": family, "settings": len(res.settings),
                     "parameters": len(tuned_keys(run.settings[family])),
                     "default": float(res.outer_means()[d]), "naive": s["naive"], "nested": s["nested"],
                     "per_fold": s["per_fold"],
                     "chosen": _describe(res.settings["params"].iloc[int(s["naive_setting"])]),
                     "truth": np.nan if truth is None else float(truth[int(s["naive_setting"])]),
                     "truth_default": np.nan if truth is None else float(truth[d])})
    t = pd.DataFrame(rows)
    t["naive - nested"] = t["naive"] - t["nested"]
    t["naive - truth"] = t["naive"] - t["truth"]
    # the default setting's CV minus its truth has mean 0 (nothing chosen, truth at the training size) and shares
    # the test folds' noise with the naive estimate: subtracting it leaves the choice's bias, measured more sharply
    t["naive - truth, paired"] = t["naive - truth"] - (t["default"] - t["truth_default"])
    t["nested - truth"] = t["nested"] - t["truth"]
    t["per_fold - truth"] = t["per_fold"] - t["truth"]
    return t


def mean_ci(values) -> tuple[float, float, int]:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) < 2:
        return (float(v.mean()) if len(v) else np.nan), np.nan, len(v)
    return float(v.mean()), float(stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))), len(v)


def bias_table(estimates: pd.DataFrame) -> pd.DataFrame:
    """Mean bias per family (and over all), with 95 % t intervals: against the held-out truth at the
    training size on the pool samples (also paired with the default setting's CV error against its truth),
    and naive minus nested on every unit."""
    rows = []
    fams = [*estimates["family"].unique(), "all"]
    for family in fams:
        e = estimates if family == "all" else estimates[estimates["family"] == family]
        if family == "all":
            e = e[e["family"] != "MLP-seed"]
        row = {"family": family, "settings": int(e["settings"].max()) if family != "all" else None,
               "units": len(e)}
        for col in ("naive - truth", "naive - truth, paired", "nested - truth", "per_fold - truth",
                    "naive - nested"):
            mean, half, n = mean_ci(e[col])
            row[col] = mean
            row[col + " ±"] = half
        rows.append(row)
    return pd.DataFrame(rows)


def _subset_rows(run: TuningRun, family: str, masks: np.ndarray, labels: dict) -> list[dict]:
    rows = []
    for (unit, it, fam), res in run.results.items():
        if fam != family:
            continue
        est = res.subset_estimates(masks)
        truth = run.truth.get((unit, family))
        for i, r in enumerate(est.itertuples()):
            t = np.nan if truth is None else truth[r.naive_setting]
            rows.append({"family": family, "unit": unit, "repetition": it, **{k: v[i] for k, v in labels.items()},
                         "naive - nested": r.naive - r.nested, "naive - truth": r.naive - t,
                         "nested - truth": r.nested - t, "per_fold - truth": r.per_fold - t})
    return rows


def settings_bias(run: TuningRun, draws: int | None = None, seed: int | None = None) -> pd.DataFrame:
    """Bias against the number of settings tried: for t = 1, 2, 4, ... up to the grid, ``draws``
    random subsets of t settings per unit (the same subsets for every unit of a family); mean per
    (family, t)."""
    draws = run.params["subset_draws"] if draws is None else draws
    rng = np.random.default_rng(run.params["seed"] if seed is None else seed)
    rows = []
    for family, ss in run.settings.items():
        if family == "MLP-seed":
            continue
        g = len(ss)
        sizes = sorted({min(2 ** j, g) for j in range(int(math.ceil(math.log2(g))) + 1)})
        masks, ts = [], []
        for t in sizes:
            for _ in range(1 if t == g else draws):
                m = np.zeros(g, dtype=bool)
                m[rng.choice(g, t, replace=False)] = True
                masks.append(m)
                ts.append(t)
        rows += _subset_rows(run, family, np.array(masks), {"tried": ts})
    t = pd.DataFrame(rows)
    return t.groupby(["family", "tried"], as_index=False)[
        ["naive - nested", "naive - truth", "nested - truth", "per_fold - truth"]].mean()


def parameters_bias(run: TuningRun) -> pd.DataFrame:
    """Bias against the number of parameters tuned: for p = 0, 1, ..., the settings that vary the
    first p parameters of the grid and keep the others at their defaults; mean per (family, p)."""
    rows = []
    for family, ss in run.settings.items():
        keys = tuned_keys(ss)
        if family == "MLP-seed" or len(keys) < 2:
            continue
        masks, ps, counts = [], [], []
        for p in range(len(keys) + 1):
            m = np.array([all(s[k] == DEFAULTS[family][k] for k in keys[p:]) for s in ss])
            if p == 0:
                m &= np.array([all(s[k] == DEFAULTS[family][k] for k in ss[0]) for s in ss])
            masks.append(m)
            ps.append(p)
            counts.append(int(m.sum()))
        rows += _subset_rows(run, family, np.array(masks), {"parameters": ps, "settings": counts})
    t = pd.DataFrame(rows)
    if t.empty:
        return t
    out = t.groupby(["family", "parameters", "settings"], as_index=False)[
        ["naive - nested", "naive - truth", "nested - truth"]].mean()
    out["tuned"] = [", ".join(tuned_keys(run.settings[f])[:p]) or "(defaults)" for f, p in
                    zip(out["family"], out["parameters"])]
    return out


def _compare(a, b, tol: float = 1e-12) -> tuple[float, float, float]:
    a, b = np.asarray(a, float), np.asarray(b, float)
    ok = np.isfinite(a) & np.isfinite(b)
    a, b = a[ok], b[ok]
    if not len(a):
        return np.nan, np.nan, np.nan
    return float(np.mean(b > a + tol)), float(np.mean(np.abs(b - a) <= tol)), float(np.mean(b - a))


def ranking_effect(run: TuningRun) -> pd.DataFrame:
    """The abstract's claim, on a pair of equally good learners: the MLP with its seed fixed
    (A, no parameter) against the same MLP whose seed is a parameter with t values (B, seeds
    1..t). Per protocol: how often B is ranked above A, tied, and the mean difference B - A."""
    if "MLP-seed" not in run.settings:
        return pd.DataFrame()
    t = len(run.settings["MLP-seed"]) - 1
    a_mask = np.zeros(t + 1, dtype=bool)
    a_mask[0] = True
    b_mask = ~a_mask
    rows = {"naive": ([], []), "nested": ([], []), "held-out truth": ([], [])}
    for (unit, _, fam), res in run.results.items():
        if fam != "MLP-seed":
            continue
        est = res.subset_estimates(np.array([a_mask, b_mask]))
        rows["naive"][0].append(est.naive[0])
        rows["naive"][1].append(est.naive[1])
        rows["nested"][0].append(est.nested[0])
        rows["nested"][1].append(est.nested[1])
        truth = run.truth.get((unit, fam))
        rows["held-out truth"][0].append(np.nan if truth is None else truth[0])
        rows["held-out truth"][1].append(np.nan if truth is None else truth[est.naive_setting[1]])
    out = []
    for protocol, (a, b) in rows.items():
        above, tied, diff = _compare(a, b)
        n = int(np.sum(np.isfinite(np.asarray(a, float)) & np.isfinite(np.asarray(b, float))))
        out.append({"protocol": protocol, "pairs": n, "seed values of B": t, "B ranked above A": above,
                    "tied": tied, "A ranked above B": 1 - above - tied if n else np.nan, "mean B - A": diff})
    return pd.DataFrame(out)


def tuning_gain_ranks(estimates: pd.DataFrame) -> pd.DataFrame:
    """Each learner with its parameters tuned (B) against itself at its defaults (A): how often
    and by how much B looks better, by the naive protocol, by nested CV and on held-out data."""
    rows = []
    for family, e in estimates[estimates["family"] != "MLP-seed"].groupby("family", sort=False):
        for protocol, a, b in (("naive", e["default"], e["naive"]), ("nested", e["default"], e["nested"]),
                               ("held-out truth", e["truth_default"], e["truth"])):
            above, tied, diff = _compare(a, b)
            rows.append({"family": family, "parameters": int(e["parameters"].iloc[0]),
                         "settings": int(e["settings"].iloc[0]), "protocol": protocol,
                         "tuned ranked above default": above, "tied": tied, "mean gain": diff})
    return pd.DataFrame(rows)


def cost_table(run: TuningRun) -> pd.DataFrame:
    """The price of unbiased assessment: trials of the naive protocol (n G) and of nested CV
    (n m G + n), and the measured fit-and-predict seconds of each route."""
    n, m = run.params["outer_folds"], run.params["inner_folds"]
    sec = run.fit_seconds.groupby(["family", "route"])["seconds"].sum().unstack(fill_value=0.0)
    units = len(run.results) // max(1, len(run.settings))
    rows = []
    for family, ss in run.settings.items():
        g = len(ss)
        rows.append({"family": family, "settings G": g, "naive trials n G": n * g,
                     "nested trials n m G + n": n * m * g + n, "ratio": (n * m * g + n) / (n * g),
                     "units": units,
                     "seconds outer (all units)": sec.loc[family, "outer"] if family in sec.index else np.nan,
                     "seconds inner (all units)": sec.loc[family, "inner"] if family in sec.index else np.nan})
    return pd.DataFrame(rows)


def figure_settings_bias(bias: pd.DataFrame):
    """Bias against the number of settings tried: naive and nested against the held-out truth
    (pool samples), and naive minus nested (every unit); one legend below both panels."""
    from ..reporting import learner_colors, legend_outside, panel_grid

    fig, axes = panel_grid(2, 2, (6.0, 4.3))
    colors = learner_colors(list(dict.fromkeys(bias["family"])))
    for family, g in bias.groupby("family", sort=False):
        color = colors[family]
        axes[0].plot(g["tried"], g["naive - truth"], "o-", color=color, label=f"{family} naive")
        axes[0].plot(g["tried"], g["nested - truth"], "s--", color=color, label=f"{family} nested", alpha=0.7)
        axes[1].plot(g["tried"], g["naive - nested"], "o-", color=color)
    for ax, title in zip(axes, ("estimate minus held-out truth (pool samples)",
                                "naive minus nested estimate (all units)")):
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(xscale="log", xlabel="settings tried", ylabel="accuracy difference", title=title)
        ticks = sorted(bias["tried"].unique())
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
    legend_outside(fig, ncols=len(colors))                    # one column per learner: naive over nested
    return fig


def figure_parameters_bias(pbias: pd.DataFrame):
    """Bias against the number of parameters tuned (other parameters at their defaults); legend outside."""
    import matplotlib.pyplot as plt

    from ..reporting import learner_colors, legend_outside

    fig, ax = plt.subplots(figsize=(6.5, 4.3))
    colors = learner_colors(list(dict.fromkeys(pbias["family"])))
    for family, g in pbias.groupby("family", sort=False):
        color = colors[family]
        ax.plot(g["parameters"], g["naive - nested"], "o-", color=color, label=f"{family}: naive - nested")
        if g["naive - truth"].notna().any():
            ax.plot(g["parameters"], g["naive - truth"], "s--", color=color, alpha=0.7,
                    label=f"{family}: naive - truth")
        for p, s, y in zip(g["parameters"], g["settings"], g["naive - nested"]):
            ax.annotate(f"{s}", (p, y), textcoords="offset points", xytext=(4, 4), fontsize=7, color=color)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(xlabel="parameters tuned (numbers: settings)", ylabel="optimistic bias (accuracy)")
    ax.xaxis.set_major_locator(plt.matplotlib.ticker.MaxNLocator(integer=True))
    legend_outside(ax)
    fig.tight_layout()
    return fig
