"""The five papers' advice as one call: compare classifiers on your own data.

:func:`compare` partitions with DOB-SCV (Moreno-Torres et al. 2012: less
partition-induced covariate shift than plain stratified CV), repeats k-fold CV
until a stopping rule of Raeder et al. (2010) says the estimates have settled
(its repetitions are reported, with a cap), and then chooses the tests by the
design (Japkowicz & Shah; Demšar 2006; Benavoli et al. 2017):

* per data set and pair of learners: the corrected repeated k-fold t-test
  (Bouckaert & Frank 2004; the naive t-test's type I error is far above alpha,
  Vanwinckelen & Blockeel 2012), Holm-adjusted over the pairs, and the
  Bayesian correlated t-test with a region of practical equivalence (ROPE);
* across data sets (two or more): Friedman with the Iman-Davenport F, Holm's
  procedure against the best-ranked learner, Nemenyi's critical difference,
  and per pair the Wilcoxon signed-rank test and the Bayesian signed-rank test
  (baycomp) with the ROPE.

Beside them (:mod:`cvrepro.stats`): per pair a confidence interval of the mean
difference (corrected variance within a data set, paired t across data
sets), across data sets Cohen's d_z and Cliff's delta with magnitude labels
and the Bayesian sign test, and a table of all pairs by Friedman, aligned
ranks or Quade statistics with the adjustment the user chooses (``posthoc``,
``adjust``; Holm by default, Shaffer or Bergmann-Hommel for more power).

Every run goes through the engine's store (:func:`cvrepro.runner.run_cv`):
cached, resumable, the same numbers whatever the number of workers. The
result, :class:`Comparison`, holds tidy tables, states in words what can and
cannot be concluded (:meth:`Comparison.conclusions`), draws a figure and writes
a Markdown and HTML report. Learners with parameter grids are tuned inside
nested CV (:mod:`cvrepro.tuning`; Scheffer & Herbrich 1997), the naive estimate
shown beside the nested one. Every verdict sentence carries Raeder et al.'s
reproducibility R (:func:`pair_reproducibility`): how consistently the
repetitions, each a fresh random partitioning, order the pair.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import ParameterGrid

from .convergence import FixedIterations, KSCriterion, RankCriterion, reproducibility
from .reporting import Captioned, learner_colors
from .runner import run_cv
from .stats import (
    ADJUSTMENTS,
    PAIR_ADJUSTMENTS,
    RANK_TESTS,
    aligned_ranks_test,
    bayesian_correlated_ttest,
    bayesian_sign,
    bayesian_signed_rank,
    corrected_difference_ci,
    corrected_repeated_kfold_ttest,
    critical_difference,
    effect_size,
    friedman_test,
    holm,
    holm_test,
    paired_difference_ci,
    paired_ttest,
    posthoc_test,
    quade_test,
    wilcoxon_signed_rank,
)
from .tuning import describe_tuning, setting_learners, setting_name, split_learners, tune

__all__ = ["compare", "lessons", "describe_lessons", "describe_data", "captioned_lessons", "read_csv", "Comparison",
           "pair_reproducibility", "STOPPING_RULES", "CAPTIONS"]

STOPPING_RULES = ("rank", "ks")
_RANK_TEST_NAMES = {"friedman": "Friedman", "aligned": "Friedman aligned", "quade": "Quade"}
_ADJUST_NAMES = {"bonferroni": "Bonferroni", "holm": "Holm", "hommel": "Hommel", "bh": "Benjamini-Hochberg",
                 "finner": "Finner", "shaffer": "Shaffer's static procedure", "bergmann": "Bergmann-Hommel"}
_HIGHER_IS_BETTER = {"auroc", "accuracy", "kappa", "keel_auc", "f_measure", "precision", "recall", "info_score"}


CAPTIONS = {
    "estimates": "Mean {metric} of each learner over the repetitions of {k}-fold DOB-SCV, with the standard "
                 "deviation over repetitions and the number of repetitions (every learner on a data set gets "
                 "those of the slowest to settle).",
    "figure": "Mean {metric} per learner with +-1 standard deviation over repetitions.",
    "pairwise": "Every pair of learners on each data set: mean difference (a - b) with its confidence interval "
                "(ci_low, ci_high; corrected variance), the corrected repeated k-fold t-test (p, Holm-adjusted "
                "p_holm over the pairs) and the Bayesian correlated t-test (P(a better), P(equivalent within the "
                "ROPE), P(b better)) and R, Raeder et al.'s reproducibility of the pair's order over the "
                "repetitions (1: every repetition orders it the same way; 0: each way half the time).",
    "across": "Every pair over the data sets: wins, mean difference with its paired t interval, Cohen's d_z and "
              "Cliff's delta with magnitude labels, Wilcoxon (p, Holm-adjusted p_holm), the Bayesian signed-rank "
              "test (p_a_better, p_rope, p_b_better), the Bayesian sign test (sign_*) and R, the reproducibility of "
              "the order of the pair's wins over the repetitions.",
    "posthoc": "Every pair of learners over the data sets by the chosen rank statistic (mean ranks, z, unadjusted "
               "p) with the chosen adjustment (p_adjusted; reject: below alpha).",
    "tuning": "Learners tuned over a parameter grid, per data set: the naive estimate (the best setting's mean "
              "score on the same folds it was chosen on; Scheffer & Herbrich 1997) beside the nested one (the mean "
              "outer-fold score of the setting an inner {k}-fold CV of each training part chose), their gap, the "
              "naive choice and the inner CVs' most frequent choice with its share of the outer folds.",
    "lessons": "The verdict of each pair under compare()'s procedure beside the shortcuts the papers warn "
               "against, on the same data: plain stratified CV (Moreno-Torres et al. 2012), a fixed number of "
               "repetitions (Raeder et al. 2010), and the naive paired t-test on the same folds "
               "(Vanwinckelen & Blockeel 2012; Nadeau & Bengio 2003).",
}


def read_csv(path, target: str) -> tuple:
    """A researcher's CSV file as ``(name, X, y)`` for :func:`compare`: text columns become categorical
    attributes, ``target`` the class; the name is the file's stem."""
    frame = pd.read_csv(path)
    if target not in frame.columns:
        raise ValueError(f"{path}: no column {target!r} (columns: {', '.join(map(str, frame.columns))}); "
                         "name the class column with target=")
    y = frame.pop(target).astype(str).astype("category")
    for col in frame.select_dtypes(include=["object", "string"]).columns:
        frame[col] = frame[col].astype("category")
    return Path(path).stem, frame, y


def _stopping_factory(stopping, cap: int):
    if isinstance(stopping, bool) or not isinstance(stopping, (int, str)):
        raise TypeError(f"stopping must be 'rank', 'ks' or a number of repetitions, got {stopping!r}")
    if isinstance(stopping, int):
        if not 2 <= stopping <= cap:
            raise ValueError(f"stopping={stopping}: a fixed number of repetitions must lie in [2, {cap}] "
                             "(max_repetitions)")
        return lambda: FixedIterations(stopping)
    if stopping == "rank":
        return lambda: RankCriterion(max_iterations=cap)
    if stopping == "ks":
        return lambda: KSCriterion(max_iterations=cap)
    raise ValueError(f"unknown stopping rule {stopping!r}; use one of {STOPPING_RULES} or an integer")


def _as_datasets(data, target):
    """A list of what run_cv takes, from names, (name, X, y) tuples, Datasets or DataFrames with ``target``."""
    items = data if isinstance(data, (list, tuple)) and not _is_triple(data) else [data]
    out = []
    for i, item in enumerate(items):
        if isinstance(item, pd.DataFrame):
            if target is None or target not in item.columns:
                raise ValueError(f"data set {i} is a DataFrame: name its class column with target= "
                                 f"(columns: {list(item.columns)[:10]})")
            out.append((f"data{i}" if len(items) > 1 else "data", item.drop(columns=[target]), item[target]))
        else:
            out.append(item)
    if not out:
        raise ValueError("data is empty: give one or more data sets")
    return out


def _is_triple(x) -> bool:
    return isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], str) and not isinstance(x[1], str)


@dataclass
class Comparison:
    """What :func:`compare` found. Tables: ``folds`` (per-fold scores), ``estimates`` (per data set and
    learner: mean, standard deviation over repetitions, repetitions), ``repetitions`` (what the stopping
    rule decided per cell), ``pairwise`` (per data set and pair), ``across`` (per pair over data sets, or
    empty), ``ranks`` (Friedman/Holm, or empty), ``posthoc`` (all pairs by the chosen rank statistic and
    adjustment, or empty), ``tuning`` (learners given a grid: naive beside nested estimates, or empty);
    ``friedman``: the Friedman result (or None); ``omnibus``: the aligned ranks or Quade test when chosen
    (or None)."""

    metric: str
    k: int
    partitioner: str
    stopping: str
    rope: float
    alpha: float
    folds: pd.DataFrame
    estimates: pd.DataFrame
    repetitions: pd.DataFrame
    pairwise: pd.DataFrame
    across: pd.DataFrame = field(default_factory=pd.DataFrame)
    ranks: pd.DataFrame = field(default_factory=pd.DataFrame)
    friedman: object = None
    posthoc: pd.DataFrame = field(default_factory=pd.DataFrame)
    omnibus: object = None
    confidence: float = 0.95
    tuning: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def datasets(self) -> list[str]:
        return list(dict.fromkeys(self.estimates.dataset))

    @property
    def learners(self) -> list[str]:
        return list(dict.fromkeys(self.estimates.learner))

    def conclusions(self) -> list[str]:
        """What can and cannot be concluded, one sentence per pair of learners (and one on tuning)."""
        tuning = ([describe_tuning(self.tuning, self.metric, self.metric in _HIGHER_IS_BETTER)]
                  if len(self.tuning) else [])
        if len(self.datasets) > 1:
            n = len(self.datasets)
            floor = 2.0 / 2 ** n          # the smallest two-sided exact Wilcoxon p-value with n pairs
            caveat = ([f"With {n} data sets no Wilcoxon test can reach p < {self.alpha} (its smallest "
                       f"p-value is {floor:.3g}): add data sets, or read the Bayesian probabilities."]
                      if floor >= self.alpha else [])
            return (caveat + [_across_sentence(r, self) for r in self.across.itertuples()]
                    + [_posthoc_sentence(self)] + tuning)
        return [_single_sentence(r, self) for r in self.pairwise.itertuples()] + tuning

    def design(self) -> str:
        """The procedure in one paragraph."""
        reps = self.estimates.groupby("dataset", sort=False).repetitions.max()
        capped = int(self.repetitions.capped.sum())
        return (f"{len(self.learners)} learners on {len(self.datasets)} data set(s); {self.k}-fold "
                f"{self.partitioner.upper()} cross-validation repeated until the {self.stopping} stopping rule "
                f"stopped every learner ({capped} of {len(self.repetitions)} learner-data set cells reached the "
                f"cap instead; repetitions used: {', '.join(map(str, reps.unique()))}); metric {self.metric}; "
                f"alpha {self.alpha}; ROPE +-{self.rope}.")

    def summary(self) -> str:
        """The design, the estimates and the conclusions as plain text."""
        est = self.estimates.pivot(index="dataset", columns="learner", values="mean")[self.learners]
        return "\n".join([self.design(), "", est.round(4).to_string(), "", *self.conclusions()])

    def plot(self):
        """Mean metric per data set and learner with +-1 standard deviation over repetitions."""
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(self.datasets) + 2), 3.2))
        width = 0.8 / len(self.learners)
        x = np.arange(len(self.datasets))
        colors = learner_colors(self.learners)
        for j, learner in enumerate(self.learners):
            t = self.estimates[self.estimates.learner == learner].set_index("dataset").loc[self.datasets]
            ax.errorbar(x + (j - (len(self.learners) - 1) / 2) * width, t["mean"], yerr=t["sd"], fmt="o",
                        capsize=3, label=learner, color=colors[learner])
        ax.set_xticks(x, self.datasets, rotation=30, ha="right")
        ax.set_ylabel(self.metric)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
        fig.tight_layout()
        return fig

    def plot_posterior(self, a: str, b: str, test: str = "signed-rank"):
        """baycomp's posterior of ``a`` against ``b`` over the data sets (``test``: "signed-rank" or "sign")."""
        if len(self.datasets) < 2:
            raise ValueError("a posterior over data sets needs two or more data sets; on one data set the "
                             "pairwise table holds the Bayesian correlated t-test")
        tests = {"signed-rank": bayesian_signed_rank, "sign": bayesian_sign}
        if test not in tests:
            raise ValueError(f"test must be 'signed-rank' or 'sign', got {test!r}")
        sign = 1.0 if self.metric in _HIGHER_IS_BETTER else -1.0
        means = self.estimates.pivot(index="dataset", columns="learner", values="mean")
        return tests[test](sign * means[a].to_numpy(), sign * means[b].to_numpy(), rope=self.rope).plot((a, b))

    def captioned(self, what: str) -> Captioned:
        """``"estimates"``, ``"pairwise"``, ``"tuning"`` (tables) or ``"figure"`` (:meth:`plot`) with its caption."""
        if what not in ("estimates", "pairwise", "tuning", "figure"):
            raise ValueError(f"what must be 'estimates', 'pairwise', 'tuning' or 'figure', got {what!r}")
        caption = CAPTIONS[what].format(metric=self.metric, k=self.k)
        if what == "figure":
            return Captioned(self.plot(), "estimates", caption)
        return Captioned(getattr(self, what), what, caption)

    def report(self, path) -> Path:
        """Write ``report.md``, ``report.html`` and ``estimates.png`` into folder ``path``; returns it."""
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        fig = self.plot()
        fig.savefig(folder / "estimates.png", dpi=150, bbox_inches="tight")
        sections = [("Estimates", self.estimates), ("Repetitions", self.repetitions),
                    ("Pairs within each data set", self.pairwise), ("Pairs across data sets", self.across),
                    ("Ranks", self.ranks), ("All pairs by ranks", self.posthoc),
                    ("Tuning: naive beside nested estimates", self.tuning)]
        figures = []
        for r in self.across.itertuples():
            name = f"posterior_{len(figures)}.png"
            self.plot_posterior(r.a, r.b).savefig(folder / name, dpi=120, bbox_inches="tight")
            figures.append((f"{r.a} vs {r.b}", name))
        md = ["# Classifier comparison", "", self.design(), "", "## Conclusions", "",
              *[f"- {s}" for s in self.conclusions()], "", "![estimates](estimates.png)", ""]
        html = ["<!doctype html><meta charset='utf-8'><title>Classifier comparison</title>",
                "<h1>Classifier comparison</h1>", f"<p>{self.design()}</p>", "<h2>Conclusions</h2><ul>",
                *[f"<li>{s}</li>" for s in self.conclusions()], "</ul><img src='estimates.png' alt='estimates'>"]
        for title, table in sections:
            if len(table):
                md += [f"## {title}", "", table.round(4).to_markdown(index=False), ""]
                html += [f"<h2>{title}</h2>", table.round(4).to_html(index=False, border=0)]
        if figures:
            md += ["## Bayesian signed-rank posteriors", "", *[f"![{t}]({n})" for t, n in figures], ""]
            html += ["<h2>Bayesian signed-rank posteriors</h2>", *[f"<img src='{n}' alt='{t}'>" for t, n in figures]]
        (folder / "report.md").write_text("\n".join(md) + "\n", encoding="utf-8")
        (folder / "report.html").write_text("\n".join(html) + "\n", encoding="utf-8")
        return folder


def _single_sentence(r, c: Comparison) -> str:
    better, worse, diff = (r.a, r.b, r.difference) if r.difference >= 0 else (r.b, r.a, -r.difference)
    p_better = r.p_a_better if better == r.a else r.p_b_better
    verdict = (f"significant after Holm (p = {r.p_holm:.3g})" if r.p_holm < c.alpha
               else f"not significant after Holm (p = {r.p_holm:.3g})")
    return (f"{r.dataset}: {better} scores {diff:.4f} {c.metric} above {worse} over {r.repetitions} repetitions "
            f"of {c.k}-fold CV; corrected t-test {verdict}; P({better} practically better) = {p_better:.2f}, "
            f"P(equivalent within +-{c.rope}) = {r.p_rope:.2f}; {_interval_clause(r, c)} (corrected variance); "
            f"{_r_clause(r)}.")


def _r_clause(r) -> str:
    return f"R = {r.R:.2f} over {r.R_repetitions} repetitions"


def _interval_clause(r, c: Comparison) -> str:
    return f"{c.confidence:.0%} CI of {r.a}'s mean advantage over {r.b}: [{r.ci_low:.4f}, {r.ci_high:.4f}]"


def _posthoc_sentence(c: Comparison) -> str:
    t = c.posthoc
    method = f"{_RANK_TEST_NAMES[t.attrs['test']]} rank statistics, {_ADJUST_NAMES[t.attrs['adjust']]}"
    if c.omnibus is not None:
        method += f"; {c.omnibus.test} test p = {c.omnibus.pvalue:.3g}"
    found = t[t.reject]
    if found.empty:
        return f"All pairs ({method}): no pair differs significantly (smallest adjusted p = {t.p_adjusted.min():.3g})."
    reps = {(r.a, r.b): _r_clause(r) for r in c.across.itertuples()}
    pairs = "; ".join(f"{r.a if r.z < 0 else r.b} over {r.b if r.z < 0 else r.a} (p = {r.p_adjusted:.3g}; "
                      f"{reps[(r.a, r.b)] if (r.a, r.b) in reps else reps[(r.b, r.a)]})" for r in found.itertuples())
    return f"All pairs ({method}): significant at {c.alpha}: {pairs}."


def _across_sentence(r, c: Comparison) -> str:
    better, worse = (r.a, r.b) if r.wins_a >= r.wins_b else (r.b, r.a)
    wins = max(r.wins_a, r.wins_b)
    p_better = r.p_a_better if better == r.a else r.p_b_better
    verdict = "significant" if r.p_holm < c.alpha else "not significant"
    sign_better = r.sign_a_better if better == r.a else r.sign_b_better
    return (f"{better} beats {worse} on {wins} of {r.n_datasets} data sets; Wilcoxon {verdict} after Holm "
            f"(p = {r.p_holm:.3g}); P({better} practically better) = {p_better:.2f}, P(equivalent within "
            f"+-{c.rope}) = {r.p_rope:.2f} (Bayesian signed-rank; sign test: {sign_better:.2f}); "
            f"{_interval_clause(r, c)}; Cliff's delta {r.cliffs_delta:+.2f} ({r.cliff_magnitude}), Cohen's d_z "
            f"{r.cohen_dz:+.2f} ({r.dz_magnitude}); {_r_clause(r)}.")


def _within_tests(sa, sb, k: int, rope: float, confidence: float) -> dict:
    """The corrected t-test, its interval and the Bayesian correlated t-test of one pair on one data set;
    two learners with the same score on every fold (a tuned learner that always chose another's setting)
    differ by nothing: t = 0, p = 1, interval [0, 0], P(equivalent) = 1."""
    if np.array_equal(sa, sb):
        return {"ci_low": 0.0, "ci_high": 0.0, "t": 0.0, "p": 1.0, "p_a_better": 0.0, "p_rope": 1.0,
                "p_b_better": 0.0}
    t = corrected_repeated_kfold_ttest(sa, sb, k)
    bayes = bayesian_correlated_ttest(sa, sb, k, rope=rope)
    ci = corrected_difference_ci(sa, sb, k, confidence)
    return {"ci_low": ci.low, "ci_high": ci.high, "t": t.statistic, "p": t.pvalue, "p_a_better": bayes.p_a_better,
            "p_rope": bayes.p_rope, "p_b_better": bayes.p_b_better}


def _pairwise_within(folds: pd.DataFrame, metric: str, k: int, rope: float, sign: float,
                     confidence: float) -> pd.DataFrame:
    rows = []
    for dataset, g in folds.groupby("dataset", sort=False, observed=True):
        wide = g.pivot_table(index=["iteration", "fold"], columns="learner", values=metric, observed=True)
        pairs = list(combinations(list(dict.fromkeys(g.learner)), 2))
        for a, b in pairs:
            sa, sb = sign * wide[a].to_numpy(), sign * wide[b].to_numpy()
            rows.append({"dataset": dataset, "a": a, "b": b, "repetitions": len(sa) // k,
                         "difference": float(np.mean(sa - sb)), **_within_tests(sa, sb, k, rope, confidence)})
    table = pd.DataFrame(rows)
    table = _with_r(table, [folds[folds.dataset == r.dataset] for r in table.itertuples()], metric, sign)
    table["p_holm"] = np.nan
    for _, idx in table.groupby("dataset", sort=False).groups.items():
        table.loc[idx, "p_holm"] = holm(table.loc[idx, "p"].to_numpy())[0]
    return table


def _unless_constant(f, *args):
    """f(*args), or None where the differences are constant (t interval and d_z undefined)."""
    try:
        return f(*args)
    except ValueError as err:
        if "zero" in str(err) or "constant" in str(err):
            return None
        raise


def _effects_and_interval(sa, sb, confidence: float) -> dict:
    ci = _unless_constant(paired_difference_ci, sa, sb, confidence)
    dz = _unless_constant(effect_size, sa, sb, "cohen_paired")
    cliff = effect_size(sa, sb, "cliff")
    return {"ci_low": ci.low if ci else np.nan, "ci_high": ci.high if ci else np.nan,
            "cohen_dz": dz.value if dz else np.nan, "dz_magnitude": dz.magnitude if dz else "undefined",
            "cliffs_delta": cliff.value, "cliff_magnitude": cliff.magnitude}


def _pairwise_across(means: pd.DataFrame, rope: float, sign: float, confidence: float) -> pd.DataFrame:
    rows = []
    for a, b in combinations(means.columns, 2):
        sa, sb = sign * means[a].to_numpy(), sign * means[b].to_numpy()
        w = wilcoxon_signed_rank(sa, sb)
        sr, st = bayesian_signed_rank(sa, sb, rope=rope), bayesian_sign(sa, sb, rope=rope)
        rows.append({"a": a, "b": b, "n_datasets": len(sa), "wins_a": int(np.sum(sa > sb)),
                     "wins_b": int(np.sum(sb > sa)), "mean_difference": float(np.mean(sa - sb)),
                     **_effects_and_interval(sa, sb, confidence),
                     "p": w.pvalue, "p_a_better": sr.p_a_better, "p_rope": sr.p_rope, "p_b_better": sr.p_b_better,
                     "sign_a_better": st.p_a_better, "sign_rope": st.p_rope, "sign_b_better": st.p_b_better})
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p"].to_numpy())[0] if len(table) else []
    return table


def _ranks(means: pd.DataFrame, alpha: float, higher: bool):
    fr = friedman_test(means, higher_is_better=higher)
    best = fr.average_ranks.idxmin()
    control = holm_test(means, best, alpha=alpha, higher_is_better=higher)
    table = pd.DataFrame({"learner": fr.average_ranks.index, "average_rank": fr.average_ranks.to_numpy()})
    table["p_holm_vs_best"] = table.learner.map(control.pvalue)
    table.attrs["critical_difference"] = critical_difference(means.shape[1], means.shape[0], alpha)
    return table.sort_values("average_rank", ignore_index=True), fr


def _all_pairs(means: pd.DataFrame, test: str, adjust: str, alpha: float, higher: bool):
    omnibus = {"aligned": aligned_ranks_test, "quade": quade_test}.get(test)
    table = posthoc_test(means, test=test, adjust=adjust, alpha=alpha, higher_is_better=higher)
    return table, omnibus(means, higher) if omnibus else None


def _check_posthoc(posthoc: str, adjust: str, learners, confidence: float) -> None:
    if posthoc not in RANK_TESTS:
        raise ValueError(f"posthoc={posthoc!r}: use one of {RANK_TESTS}")
    if adjust not in ADJUSTMENTS + PAIR_ADJUSTMENTS:
        raise ValueError(f"adjust={adjust!r}: use one of {ADJUSTMENTS + PAIR_ADJUSTMENTS}")
    if adjust == "bergmann" and len(learners) > 9:
        raise ValueError(f"adjust='bergmann' handles up to 9 learners, got {len(learners)}: use adjust='shaffer'")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def compare(data, learners, *, target=None, metric: str = "auroc", k: int = 10, partitioner: str = "dobscv",
            stopping="rank", max_repetitions: int = 30, rope: float = 0.01, alpha: float = 0.05, store=None,
            n_jobs: int = 1, seed: int = 0, progress: bool = True, posthoc: str = "friedman",
            adjust: str = "holm", confidence: float = 0.95) -> Comparison:
    """Compare ``learners`` on ``data`` as the five papers advise; returns a :class:`Comparison`.

    ``data``: a catalog name, a ``(name, X, y)`` tuple, a Dataset or a DataFrame (with ``target``, the
    class column), or a list of them. ``learners``: names (:func:`cvrepro.learners.make_learner`) or a
    dict name -> scikit-learn estimator; a learner with a parameter grid (a dict value ``{"C": [0.1, 1]}``
    under a learner name, or a ``(name_or_estimator, grid)`` pair) is tuned inside nested CV, its naive
    estimate beside the nested one in ``tuning`` (:mod:`cvrepro.tuning`). ``stopping``: ``"rank"``
    (Raeder et al.'s rank criterion), ``"ks"`` or a fixed number of repetitions; ``max_repetitions``
    caps it. Every learner on a data set gets the repetitions of the slowest to settle, so the tests
    are paired. ``store``: the engine's
    results folder (None: a temporary one). ``rope``: half-width of practical equivalence in the
    metric's unit. ``posthoc`` ("friedman", "aligned", "quade") and ``adjust`` ("holm", "hommel", "bh",
    "finner", "bonferroni", "shaffer", "bergmann") choose the all-pairs table over data sets;
    ``confidence``: the level of the intervals of mean differences.
    """
    if metric not in _HIGHER_IS_BETTER | {"error_rate", "rmse", "fpr"}:
        raise ValueError(f"unknown metric {metric!r}; e.g. auroc, accuracy, error_rate, rmse")
    factory = _stopping_factory(stopping, max_repetitions)
    _check_posthoc(posthoc, adjust, learners, confidence)
    datasets = _as_datasets(data, target)
    sign = 1.0 if metric in _HIGHER_IS_BETTER else -1.0
    plain, grids = split_learners(learners)
    with tempfile.TemporaryDirectory(prefix="cvrepro-compare-") as tmp:
        common = dict(partitioner=partitioner, store=store if store is not None else tmp, n_jobs=n_jobs, seed=seed,
                      progress=progress)
        engine = {**plain, **setting_learners(grids)}
        first = run_cv(datasets, engine, folds=(k,), iterations=max_repetitions, stopping=factory, **common)
        reps = max(2, int(first.stopping.n_iterations.max()))
        cv = run_cv(datasets, engine, folds=(k,), iterations=reps, **common)
        folds = cv.folds[cv.folds.learner.isin(list(plain))][["dataset", "learner", "iteration", "fold", metric]]
        stopped = first.stopping.rename(columns={"n_iterations": "n_repetitions"})[
            ["dataset", "learner", "n_repetitions", "capped"]]
        tuning = pd.DataFrame()
        if grids:
            tuned, tuning = tune(cv, datasets, grids, metric=metric, sign=sign, k=k, **common)
            folds = pd.concat([folds.astype({"dataset": str, "learner": str}), tuned[folds.columns]],
                              ignore_index=True)
            stopped = _stopped_with_grids(stopped, grids)
    per_rep = folds.groupby(["dataset", "learner", "iteration"], sort=False, observed=True)[metric].mean()
    estimates = per_rep.groupby(["dataset", "learner"], sort=False, observed=True).agg(
        ["mean", "std", "size"]).reset_index().rename(columns={"std": "sd", "size": "repetitions"})
    result = Comparison(metric, k, partitioner, str(stopping), rope, alpha, folds, estimates, stopped,
                        _pairwise_within(folds, metric, k, rope, sign, confidence), confidence=confidence,
                        tuning=tuning)
    if estimates.dataset.nunique() > 1 and estimates.learner.nunique() > 1:
        means = estimates.pivot(index="dataset", columns="learner", values="mean")[result.learners]
        higher = metric in _HIGHER_IS_BETTER
        result.across = _pairwise_across(means, rope, sign, confidence)
        result.across = _with_r(result.across, [folds] * len(result.across), metric, sign)
        result.ranks, result.friedman = _ranks(means, alpha, higher)
        result.posthoc, result.omnibus = _all_pairs(means, posthoc, adjust, alpha, higher)
    return result


def _stopped_with_grids(stopped: pd.DataFrame, grids: dict) -> pd.DataFrame:
    """The stopping table with each tuned learner's settings as one row: the most repetitions any needed."""
    stopped = stopped.astype({"dataset": str, "learner": str})
    owner = {setting_name(name, s): name for name, (_, grid) in grids.items() for s in ParameterGrid(grid)}
    stopped["learner"] = stopped.learner.map(lambda n: owner.get(n, n))
    return stopped.groupby(["dataset", "learner"], sort=False).agg(
        n_repetitions=("n_repetitions", "max"), capped=("capped", "any")).reset_index()


def pair_reproducibility(folds: pd.DataFrame, metric: str, a: str, b: str, higher: bool = True) -> tuple[float, int]:
    """Raeder et al.'s reproducibility R (:func:`cvrepro.convergence.reproducibility`) of the order of
    learners ``a`` and ``b``, and the repetitions it is computed over; each repetition of k-fold CV is one
    random partitioning. One data set in ``folds``: each repetition's fold-averaged ``metric``; several:
    each repetition's wins of ``a`` and of ``b`` over the data sets (repetitions that all data sets have).
    R = 1: every repetition orders the pair the same way; 0: each way half the time."""
    sign = 1.0 if higher else -1.0
    pair = folds[folds.learner.isin([a, b])].astype({"dataset": str, "learner": str})
    per_rep = pair.groupby(["dataset", "iteration", "learner"])[metric].mean().unstack("learner")
    if per_rep.index.get_level_values("dataset").nunique() == 1:
        return reproducibility(sign * per_rep[a], sign * per_rep[b]), len(per_rep)
    diff = np.round(sign * (per_rep[a] - per_rep[b]), 10).unstack("dataset").dropna()
    if diff.empty:
        raise ValueError(f"no repetition is shared by all data sets for {a} and {b}")
    return reproducibility((diff > 0).sum(axis=1), (diff < 0).sum(axis=1)), len(diff)


def _with_r(table: pd.DataFrame, folds: list, metric: str, sign: float) -> pd.DataFrame:
    """``table`` (pairs a, b) with R and the repetitions it is computed over, from each row's ``folds``."""
    r = [pair_reproducibility(f, metric, row.a, row.b, sign > 0) for f, row in zip(folds, table.itertuples())]
    return table.assign(R=[x for x, _ in r], R_repetitions=[n for _, n in r])


def _verdict(p: float, difference: float, a: str, b: str, alpha: float) -> str:
    if p >= alpha:
        return f"no difference (p = {p:.3g})"
    return f"{a if difference > 0 else b} better (p = {p:.3g})"


def lessons(data, learners, *, target=None, metric: str = "auroc", k: int = 10, max_repetitions: int = 30,
            fixed_repetitions: int = 10, rope: float = 0.01, alpha: float = 0.05, store=None, n_jobs: int = 1,
            seed: int = 0, progress: bool = True) -> tuple[Comparison, pd.DataFrame]:
    """:func:`compare`, and what its advice changed: per data set and pair, its verdict (corrected t-test,
    Holm) beside the verdicts of the shortcuts the papers warn against: plain stratified CV instead of
    DOB-SCV (Moreno-Torres et al.), a fixed number of repetitions instead of a stopping rule (Raeder et
    al.), and the naive paired t-test on the same folds (Vanwinckelen & Blockeel; Nadeau & Bengio)."""
    common = dict(target=target, metric=metric, k=k, max_repetitions=max_repetitions, rope=rope, alpha=alpha,
                  store=store, n_jobs=n_jobs, seed=seed, progress=progress)
    ours = compare(data, learners, **common)
    scv = compare(data, learners, partitioner="scv", **common)
    fixed = compare(data, learners, stopping=min(fixed_repetitions, max_repetitions), **common)
    sign = 1.0 if metric in _HIGHER_IS_BETTER else -1.0
    rows = []
    for r, s, f in zip(ours.pairwise.itertuples(), scv.pairwise.itertuples(), fixed.pairwise.itertuples()):
        g = ours.folds[ours.folds.dataset == r.dataset]
        wide = g.pivot_table(index=["iteration", "fold"], columns="learner", values=metric, observed=True)
        sa, sb = sign * wide[r.a].to_numpy(), sign * wide[r.b].to_numpy()
        naive_p = 1.0 if np.array_equal(sa, sb) else paired_ttest(sa, sb).pvalue     # identical scores: no difference
        rows.append({"dataset": r.dataset, "pair": f"{r.a} vs {r.b}",
                     "compare() (DOB-SCV, stopping rule, corrected t)": _verdict(r.p_holm, r.difference, r.a, r.b,
                                                                                 alpha),
                     "SCV instead of DOB-SCV": _verdict(s.p_holm, s.difference, r.a, r.b, alpha),
                     f"{fixed.estimates.repetitions.max()} fixed repetitions": _verdict(f.p_holm, f.difference, r.a,
                                                                                        r.b, alpha),
                     "naive paired t-test": _verdict(naive_p, r.difference, r.a, r.b, alpha)})
    return ours, pd.DataFrame(rows)


def describe_lessons(table: pd.DataFrame, result: Comparison | None = None) -> str:
    """Per shortcut, how many verdicts of :func:`lessons`' table differ from compare()'s, and which; with
    ``result`` (:func:`lessons`' Comparison) also what tuning inside nested CV changed."""
    ours = table.columns[2]
    parts = []
    for col in table.columns[3:]:
        changed = table[table[col].str.split(" \\(").str[0] != table[ours].str.split(" \\(").str[0]]
        which = "; ".join(f"{r.pair} on {r.dataset}: {r[col]} instead of {r[ours]}"
                          for _, r in changed.iterrows())
        parts.append(f"{col}: {len(changed)} of {len(table)} verdicts change" + (f" ({which})" if which else ""))
    if result is not None and len(result.tuning):
        return "; ".join(parts) + ". " + describe_tuning(result.tuning, result.metric,
                                                         result.metric in _HIGHER_IS_BETTER)
    return ("; ".join(parts) + ". Not applied here: tuning inside nested cross-validation (Scheffer & "
            "Herbrich 1997): give a learner a parameter grid to see the naive estimate beside the nested one.")


def describe_data(data: tuple, learners, profile: str) -> str:
    """One sentence on a ``(name, X, y)`` data set (:func:`read_csv`), the learners and the profile."""
    name, X, y = data
    return (f"Data **{name}**: {X.shape[0]} rows, {X.shape[1]} attributes, classes "
            f"{', '.join(map(str, y.cat.categories))}; learners {', '.join(learners)}; profile **{profile}**.")


def captioned_lessons(table: pd.DataFrame) -> Captioned:
    """:func:`lessons`' table of shortcuts with its caption."""
    return Captioned(table, "lessons", CAPTIONS["lessons"])
