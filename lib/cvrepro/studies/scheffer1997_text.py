"""Scheffer & Herbrich (1997): what the notebook shows: captions and sentences computed from the results."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import paramchannel as pc
from ..published import scheffer1997 as paper
from ..reporting import Captioned
from .scheffer1997_analysis import figure_settings_bias, pretty_name, rank_curves
from .scheffer1997_design import DEFAULTS, TARGET, tuned_keys
from .scheffer1997_runs import ChannelRun, TuningRun


def gain_check_note(checks: dict) -> str:
    """The chi-square check of Figure 3 (``checks``: data set -> :func:`gain_check` table), and what it is:
    a check of our simulation against the formula, not evidence about a learner."""
    fits = all(t.attrs["pvalue"] > 0.01 for t in checks.values())
    return ("Chi-square goodness of fit of the simulated extra hits to the formula: "
            + ", ".join(f"{d} p = {t.attrs['pvalue']:.3f} ({t.attrs['n']:,} orderings, c = {t.attrs['c']})"
                        for d, t in checks.items())
            + (". No significant departure" if fits else ". The simulation departs from the formula (p <= 0.01)")
            + ". This checks our simulation, not a learner: given a learner's hits on the test set, the hits "
            "among the first c objects of a random ordering are hypergeometric for any learner, so the formula "
            "holds by construction; the evidence about C4.5 is its hit count and StatLog's ranks (Table 4).")


def describe_channel(summary: pd.DataFrame, greedy: pd.DataFrame) -> str:
    """Tables 4 and 5 in words: per data set our C4.5's hits and rank against StatLog's, the extra hits
    the next rank needs and the c that buys them; and whether the real greedy searches gained c - X."""
    lines = [f"on {r['data set']} our C4.5 has {r['C4.5 hits ours']} hits "
             f"({r['C4.5 hits ours'] - r['C4.5 hits paper']:+d} against StatLog's C4.5), rank {r['rank ours']} "
             f"(StatLog's: {r['rank paper']}); the next rank needs z = {r['z for the next rank ours']:.0f} extra "
             f"hits, which 90 % of orderings reach at c = {r['c for 90 % (formula)']} (simulated "
             f"{r['c for 90 % (simulated)']}; the paper's c for its own z: {r['c paper']})"
             for _, r in summary.iterrows()]
    agree, searches = int(greedy["agree"].sum()), int(greedy["orderings"].sum())
    return ("In short: " + "; ".join(lines) + ". "
            + (f"All {agree} of {searches}" if agree == searches else f"Only {agree} of {searches}")
            + " real searches found exactly c - X extra hits.")


BIAS_CAPTION = ("Table 9. Mean bias of each protocol (accuracy; ± half-width of the 95 % t interval). Against the "
                "held-out truth at the training size on the pool samples (the setting refitted on each outer "
                "training set); 'paired': less the default setting's CV error against its own truth, which has "
                "mean 0 and shares the test folds' noise; naive minus nested on every unit. An interval that "
                "contains 0 leaves the bias unresolved at this scale: it does not show a protocol unbiased.")


def _signed(mean: float, half: float) -> str:
    word = ("above" if mean > 0 else "below") if np.isfinite(half) and abs(mean) > half else "not resolved from"
    return f"{mean:+.4f} ± {half:.4f} ({word} 0)"


def bias_note(bias: pd.DataFrame, n_estimates: int) -> str:
    """The sentence under Table 9: each protocol's bias over all tuned learners, resolved from 0 or not."""
    a = bias.set_index("family").loc["all"]
    return (f"(Every nested CV, {n_estimates} of them, is written to `estimates.csv`.) Over all tuned learners, "
            f"naive minus the held-out truth: {_signed(a['naive - truth'], a['naive - truth ±'])}; paired with the "
            f"default setting: {_signed(a['naive - truth, paired'], a['naive - truth, paired ±'])}; nested minus "
            f"the truth: {_signed(a['nested - truth'], a['nested - truth ±'])}; per-fold tuning: "
            f"{_signed(a['per_fold - truth'], a['per_fold - truth ±'])}. Naive minus nested over all units: "
            f"{_signed(a['naive - nested'], a['naive - nested ±'])}.")


def describe_profile(params: dict, profile: str) -> str:
    """The notebook's opening sentence: the scale of the channel and tuning experiments."""
    return (f"Profile **{profile}**: {params['outer_folds']} x {params['inner_folds']} nested CV; pools "
            f"{', '.join(params['pool_datasets'])} ({params['pool_samples']} samples of {params['sample_size']} "
            f"each); small sets {', '.join(params['cv_datasets'])} ({params['cv_repetitions']} repetitions); "
            f"{params['mc_orderings']:,} random orderings of each test set, {params['greedy_orderings']} real greedy "
            "searches.")


def describe_benchmarks(bench: pd.DataFrame) -> str:
    """Table 1 read: which printed statements follow from the formulas, and what the others get wrong."""
    follows = bench[bench["does not follow"] == "-"]["benchmark"].tolist()
    broken = bench[bench["does not follow"] != "-"]
    return (f"{len(follows)} of {len(bench)} printed statements follow from the formulas exactly"
            + (f" ({', '.join(follows)})" if follows else "") + ("." if broken.empty else ". The others: "
            + "; ".join(f"**{r['benchmark']} ({r['setting']})**: {r['does not follow']}" for _, r in broken.iterrows())
            + "."))


def labels_for_target(curves: pd.DataFrame) -> pd.Series:
    """Per curve, the smallest c whose probability reaches :data:`TARGET` (inf: never)."""
    return (curves[curves["probability"] >= TARGET].groupby("curve", sort=False)["c"].min()
            .reindex(list(dict.fromkeys(curves["curve"]))).astype(float).fillna(np.inf))


def describe_probability(curves: pd.DataFrame) -> str:
    """Figure 1 read: the labels each curve needs for a 90 % chance, by setting."""
    c90 = labels_for_target(curves)
    peak = curves.groupby("curve")["probability"].max()
    setting = curves.drop_duplicates("curve").set_index("curve")["setting"]
    reach = [n for n in c90.index if setting[n] == "fixed" and np.isfinite(c90[n])]
    never = [n for n in c90.index if setting[n] == "fixed" and not np.isfinite(c90[n])]
    one_shot = c90[[n for n in c90.index if setting[n] == "one-shot"]]
    per_fold = c90[[n for n in c90.index if setting[n] == "per-fold"]]

    def count(v):
        return "never" if not np.isfinite(v) else str(int(v))

    return ("Labels needed for a 90 % chance: " + ", ".join(
        f"{name} {int(c) if np.isfinite(c) else 'never (at most ' + format(peak[name], '.1%') + ')'}"
        for name, c in c90.items()) + f". One-shot testing needs at least {count(one_shot.min())} labels, per-fold "
        f"tuning at most {count(per_fold.max())}; with fixed parameters {', '.join(reach) or 'no benchmark'} "
        f"reach{'es' if len(reach) == 1 else ''} 90 % and {', '.join(never) or 'none'} never "
        f"do{'es' if len(never) == 1 else ''}.")


def describe_effort(effort: pd.DataFrame) -> str:
    """Figure 2 read: trials and bits at 90 %, and the ten-valued parameters those bits make."""
    at90 = effort[np.isclose(effort["target"], TARGET)].set_index("curve")
    return "At 90 %: " + ", ".join(
        f"{n} {int(r.trials)} trials / {r.bits:.0f} bits ({int(np.ceil(r.bits / np.log2(10)))} ten-valued "
        "parameters)" for n, r in at90.iterrows()) + "."


def captioned_statlog() -> Captioned:
    """Table 2: StatLog's test success rates on the two one-shot benchmarks, with its source."""
    wide = paper.statlog().pivot(index="algorithm", columns="dataset", values="success").reset_index()
    return Captioned(wide.sort_values("landsat", ascending=False), "statlog_results",
                     f"Table 2. StatLog test success rates (%) on the two one-shot benchmarks. Source: "
                     f"{paper.STATLOG_SOURCE}. 0.0 marks algorithms that were not run; they and Default are not "
                     "ranked.", digits=1)


def describe_facts(facts: pd.DataFrame) -> str:
    """Table 3 read: whether the printed Landsat default error follows from the test set."""
    default = facts.set_index("quantity").loc["Landsat default error"]
    same = abs(default["paper"] - default["ours"]) < 5e-4
    return ("StatLog's table gives the paper's ranks and errors exactly. "
            + (f"The printed Landsat default error {default['paper']:.3f} follows from the test set's majority class."
               if same else f"The printed Landsat default error {default['paper']:.3f} does not follow: the test "
               f"set's majority class leaves {default['ours']:.3f} (StatLog's Default row 24.0 % success, i.e. "
               "0.760 error)."))


def describe_ranks(runs: list[ChannelRun]) -> str:
    """Figure 4 read: per data set, how often the paper's c buys a StatLog place, and the c for half and 90 %."""
    parts = []
    for r in runs:
        up = rank_curves(r)
        step1 = up[up["step"] == 1].set_index("c")["simulated"]
        half, most = step1[step1 >= 0.5].index.min(), step1[step1 >= TARGET].index.min()
        head = (f"on {pretty_name(r.dataset)}, the paper's c = {r.paper_c} moves our C4.5 up at least one place in "
                f"{step1.get(r.paper_c, np.nan):.0%} of orderings")
        parts.append(head + (f"; c = {half} does so in half of them and c = {most} in 90 % "
                             f"({pc.channel_bits(most, r.entropy):.0f} bits)" if np.isfinite(most) else ""))
    return "StatLog places bought: " + "; ".join(parts) + "."


def captioned_tuning_design(tuning: TuningRun) -> Captioned:
    """Table 7: the learners, the parameters tuned and the number of settings."""
    design = pd.DataFrame([{"learner": f, "parameters tuned": ", ".join(tuned_keys(ss)), "settings": len(ss),
                            "defaults": str(DEFAULTS[f])} for f, ss in tuning.settings.items()])
    return Captioned(design, "tuning_design", "Table 7. Learners, the parameters tuned and the number of settings.")


def describe_tuning(tuning: TuningRun) -> str:
    """The tuning experiment's size, failures and time."""
    failed = 0 if tuning.failures is None else len(tuning.failures)
    return (f"{len(tuning.results)} nested CVs ({len(tuning.units)} units, {tuning.units['repetitions'].sum()} outer "
            f"CVs, {len(tuning.settings)} learners), {failed} failed folds; the tuning experiment took "
            f"{tuning.seconds:.0f} s.")


def captioned_settings_bias(sbias: pd.DataFrame, draws: int) -> Captioned:
    """Figure 5 (:func:`figure_settings_bias`) with its caption."""
    return Captioned(figure_settings_bias(sbias), "figure_settings_bias",
                     f"Figure 5. Bias against the number of settings tried ({draws} random subsets of each size, "
                     "the same for every unit). Left: naive (solid) and nested (dashed) minus the held-out truth. "
                     "Right: naive minus nested on every unit. One colour per learner in Figures 5 and 6.")


def describe_settings_bias(sbias: pd.DataFrame) -> str:
    """Figure 5 read: naive minus nested from one setting to the whole grid, per learner."""
    growth = {f: g.sort_values("tried")["naive - nested"].iloc[[0, -1]].tolist()
              for f, g in sbias.groupby("family", sort=False)}
    rising = [f for f, (a, b) in growth.items() if b > a]
    return ("Naive minus nested from one setting to the whole grid: "
            + ", ".join(f"{f} {a:.4f} to {b:.4f}" for f, (a, b) in growth.items())
            + ". With one setting there is nothing to choose and both protocols agree; the gap grows with the "
            f"settings tried for {len(rising)} of {len(growth)} learners ({', '.join(rising) or 'none'}).")


def describe_parameters_bias(pbias: pd.DataFrame) -> str:
    """Figure 6 read: naive minus nested as more parameters are tuned, per learner."""
    return "More parameters tuned: " + "; ".join(
        f"{f}: " + ", ".join(f"{int(p)} ({int(s)} settings) {b:.4f}" for p, s, b in
                             zip(g["parameters"], g["settings"], g["naive - nested"]))
        for f, g in pbias.groupby("family", sort=False)) + " (naive minus nested)."


def describe_ranking(ranking: pd.DataFrame, gains: pd.DataFrame) -> str:
    """Tables 12-13 read: how often the tuned-seed MLP ranks above its twin, and the mean gains of tuning."""
    if not len(ranking):
        text = "No MLP-seed experiment at these parameters."
    else:
        r = ranking.set_index("protocol")
        text = (f"The MLP with a tuned seed is ranked above the identical MLP with a fixed seed in "
                f"{r.loc['naive', 'B ranked above A']:.0%} of {int(r.loc['naive', 'pairs'])} comparisons by the naive "
                f"protocol (mean advantage {r.loc['naive', 'mean B - A']:+.4f}), "
                f"{r.loc['nested', 'B ranked above A']:.0%} by nested CV ({r.loc['nested', 'mean B - A']:+.4f}) and "
                f"{r.loc['held-out truth', 'B ranked above A']:.0%} of the pool samples on held-out data "
                f"({r.loc['held-out truth', 'mean B - A']:+.4f}).")
    g = gains.pivot(index="family", columns="protocol", values="mean gain")
    return text + "\n\nMean gain of tuning over the defaults, naive / nested / held-out: " + ", ".join(
        f"{f} {row['naive']:+.4f} / {row['nested']:+.4f} / {row['held-out truth']:+.4f}"
        for f, row in g.iterrows()) + "."


def describe_cost(cost: pd.DataFrame, inner_folds: int) -> str:
    """Table 14 read: nested CV's cost against the naive protocol's."""
    return (f"Nested CV costs about m = {inner_folds} times the trials of the naive protocol "
            f"({cost['ratio'].min():.1f}-{cost['ratio'].max():.1f} here).")
