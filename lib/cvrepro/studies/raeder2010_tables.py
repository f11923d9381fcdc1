"""Raeder et al. (2010), the tables: Table I (ranks), Table II (one seed against another), Table III (stopping
rules and reproducibility), Tables IV-V (estimates against a true test set), each beside the paper's, from tidy
tables to tidy tables; and how far our numbers lie from the published ones."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..convergence import KS_TIES, PAIRINGS, SAMPLINGS, replay_reproducibility
from ..progress import progress_bar
from ..stats import bonferroni_dunn_test, critical_difference, friedman_test, sign_test, wilcoxon_signed_rank
from .raeder2010_design import (
    CANONICAL_REPEATS,
    N_ORDERINGS,
    REPLAY_CAP,
    REPLAY_VARIANTS,
    STOPPING_RULES,
    TABLE_2_ALPHAS,
    TABLE_3_PARTS,
    TABLE_3_STORED,
    TRUE_TEST_LEARNERS,
    stopping_rules,
    to_paper_names,
)

KEYS = ["dataset", "learner", "k"]


def sorted_iterations(iterations: pd.DataFrame) -> pd.DataFrame:
    t = iterations.copy()
    for c in ("dataset", "learner"):
        t[c] = t[c].astype(str)
    return t.sort_values(KEYS + ["iteration"])


def estimates(iterations: pd.DataFrame, metric: str = "auroc") -> pd.DataFrame:
    """Canonical and steady-state estimate per (dataset, learner, k), and the iterations they use."""
    t = sorted_iterations(iterations)

    def one(g):
        k = int(g["k"].iloc[0])
        values = g[metric].to_numpy()
        return pd.Series({"canonical": values[:CANONICAL_REPEATS.get(k, 1)].mean(),
                          "steady_state": values.mean(), "n_iterations": len(values)})

    return t.groupby(KEYS, sort=False)[["k", metric]].apply(one).reset_index()


def table_1(est: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, dict]:
    """Average ranks of the k-fold estimates per learner, Friedman and Bonferroni-Dunn.

    Returns a long table (estimate, folds, learner, average_rank,
    significant: differs from the control at ``alpha``, control,
    friedman_pvalue) and a dict with the critical distance, the number of data
    sets and iterations.
    """
    rows, n_datasets = [], None
    for kind, control in (("canonical", 2), ("steady_state", 10)):
        for learner, g in est.groupby("learner", sort=False):
            scores = g.pivot(index="dataset", columns="k", values=kind).dropna()
            scores.columns = [f"{k}-fold" for k in scores.columns]
            n_datasets = len(scores)
            fried = friedman_test(scores)
            bd = bonferroni_dunn_test(scores, f"{control}-fold", alpha=alpha)
            for col in scores.columns:
                rows.append({"estimate": kind.replace("_", "-"), "folds": int(col.split("-")[0]),
                             "learner": learner, "average_rank": fried.average_ranks[col],
                             "significant": bool(bd.reject.get(col, False)),
                             "control": col == f"{control}-fold",
                             "friedman_pvalue": fried.pvalue})
    n_folds = est["k"].nunique()
    cd = critical_difference(n_folds, n_datasets, alpha, "bonferroni-dunn")
    return pd.DataFrame(rows), {"critical_distance": cd, "n_datasets": n_datasets, "alpha": alpha,
                                "n_iterations": int(est["n_iterations"].min())}


def table_1_shown(ranks: pd.DataFrame, learners) -> pd.DataFrame:
    """Table I as printed: average ranks per estimate and folds, a ``*`` where the
    estimate differs significantly from the control (2-fold canonical, 10-fold steady-state)."""
    shown = ranks.assign(rank=ranks.average_rank.map("{:.2f}".format) + np.where(ranks.significant, "*", ""))
    table = shown.pivot(index=["estimate", "folds"], columns="learner", values="rank")
    return table[[c for c in learners if c in table.columns]].reset_index()


def table_1_vs_paper(ranks: pd.DataFrame) -> pd.DataFrame:
    """Our average ranks beside the paper's (Table I), with the difference."""
    from ..published import raeder2010 as paper
    from ..reporting import beside

    published = paper.table_1().melt(id_vars=["estimate", "folds"], var_name="learner",
                                     value_name="average_rank")
    return beside(ranks, published, ["estimate", "folds", "learner"], ["average_rank"])


def table_1_side_by_side(vs: pd.DataFrame, learners) -> pd.DataFrame:
    """:func:`table_1_vs_paper` as a wide table: per learner, our average rank and the paper's."""
    wide = vs.dropna().pivot(index=["estimate", "folds"], columns="learner",
                             values=["average_rank ours", "average_rank paper"])
    out = wide.index.to_frame(index=False)
    for learner in [l for l in learners if ("average_rank ours", l) in wide.columns]:
        out[f"{learner} ours"] = wide[("average_rank ours", learner)].to_numpy()
        out[f"{learner} paper"] = wide[("average_rank paper", learner)].to_numpy()
    return out


def table_1_checks(ranks: pd.DataFrame, cd: float) -> dict:
    """The Table I facts the claims use, from a long rank table (ours or the paper's)."""
    wide = ranks.pivot_table(index=["estimate", "learner"], columns="folds", values="average_rank")
    canon, steady = wide.loc["canonical"], wide.loc["steady-state"]
    return {"canonical 2 last": canon[2] >= canon.max(axis=1) - 1e-12,
            "steady 2 last": steady[2] >= steady.max(axis=1) - 1e-12,
            "steady 10 first": steady[10] <= steady.min(axis=1) + 1e-12,
            "canonical 2 vs 5": canon[2] - canon[5] > cd,
            "canonical 5 ~ 10": (canon[5] - canon[10]).abs() <= cd}


def paper_table_1_long() -> pd.DataFrame:
    from ..published import raeder2010 as paper

    return paper.table_1().melt(id_vars=["estimate", "folds"], var_name="learner", value_name="average_rank")


def seed_verdicts(iterations: pd.DataFrame, a: str = "C4.5", b: str = "HDDT", k: int = 10,
                  metric: str = "auroc") -> pd.DataFrame:
    """Wilcoxon signed-rank test of ``a`` against ``b`` over data sets, per seed.

    One row per iteration (seed): R+ (a's wins), R-, p-value, the leader and
    the average ranks, as Table II reports them for two seeds.
    """
    t = sorted_iterations(iterations)
    t = t[(t.k == k) & t.learner.isin([a, b])]
    rows = []
    for seed, g in t.groupby("iteration"):
        wide = g.pivot(index="dataset", columns="learner", values=metric).dropna()
        if wide.shape[1] < 2 or len(wide) < 2:
            continue
        ranks = wide[[a, b]].rank(axis=1, ascending=False).mean()
        try:
            w = wilcoxon_signed_rank(wide[a], wide[b])
            r_plus, r_minus, p = w.r_plus, w.r_minus, w.pvalue
        except ValueError:  # every difference zero: no verdict
            r_plus = r_minus = 0.0
            p = 1.0
        rows.append({"seed": int(seed), "n_datasets": len(wide), "R+": r_plus, "R-": r_minus,
                     "pvalue": p, "leader": a if r_plus > r_minus else b if r_minus > r_plus else "tie",
                     f"rank {a}": ranks[a], f"rank {b}": ranks[b]})
    return pd.DataFrame(rows)


def opposite_seeds(verdicts: pd.DataFrame, a: str = "C4.5", b: str = "HDDT",
                   alpha: float = 0.05) -> dict:
    """The seed where ``a`` wins most significantly and the one where ``b`` does.

    ``found`` is True when both are significant at ``alpha`` (the paper's
    Table II); ``counts`` tells how often each verdict occurs over all seeds.
    """
    best = {}
    for who in (a, b):
        mine = verdicts[verdicts.leader == who] if len(verdicts) else verdicts
        best[who] = None if mine.empty else mine.loc[mine.pvalue.idxmin()]
    found = all(r is not None and r.pvalue < alpha for r in best.values())
    sig = verdicts.pvalue < alpha if len(verdicts) else pd.Series(dtype=bool)
    leader = verdicts.leader if len(verdicts) else pd.Series(dtype=str)
    counts = {f"{a} significantly better": int((sig & (leader == a)).sum()),
              f"{b} significantly better": int((sig & (leader == b)).sum()),
              "no significant difference": int((~sig).sum()), "seeds": len(verdicts)}
    return {"found": found, "seeds": {w: (None if r is None else int(r.seed)) for w, r in best.items()},
            "pvalues": {w: (None if r is None else float(r.pvalue)) for w, r in best.items()},
            "counts": counts, "alpha": alpha}


def table_2(iterations: pd.DataFrame, verdicts: pd.DataFrame, a: str = "C4.5", b: str = "HDDT", k: int = 10,
            alphas=TABLE_2_ALPHAS, metric: str = "auroc") -> pd.DataFrame:
    """Table II: per-data-set AUROC of ``a`` and ``b`` at the two seeds with opposite verdicts
    (the seeds :func:`opposite_seeds` picks at the largest alpha), their average ranks,
    and one row per alpha marking the seed whose leader is significantly better ("yes")."""
    chosen = opposite_seeds(verdicts, a, b, alpha=max(alphas))["seeds"]
    seeds = list(dict.fromkeys(s for s in chosen.values() if s is not None))
    t = sorted_iterations(iterations)
    t = t[(t.k == k) & t.learner.isin([a, b])]
    parts = []
    for seed in seeds:
        wide = t[t.iteration == seed].pivot(index="dataset", columns="learner", values=metric)[[a, b]]
        wide.columns = [f"{c}, seed {seed}" for c in wide.columns]
        parts.append(wide)
    if not parts:
        return pd.DataFrame()
    table = pd.concat(parts, axis=1)
    table.loc["avg. rank"] = pd.concat([p.rank(axis=1, ascending=False).mean() for p in parts])
    table = table.astype(object)            # the significance rows hold text
    by_seed = verdicts.set_index("seed")
    for alpha in alphas:
        table.loc[f"significant at alpha = {alpha:.2f}"] = [
            "yes" if by_seed.loc[int(c.split("seed ")[1]), "pvalue"] < alpha
            and by_seed.loc[int(c.split("seed ")[1]), "leader"] == c.split(",")[0] else ""
            for c in table.columns]
    return table.rename_axis("dataset").reset_index()


def table_2_vs_paper(ours: pd.DataFrame) -> pd.DataFrame:
    """Our Table II data rows beside the paper's (its seeds 216 and 459), by the paper's data set names."""
    from ..published import raeder2010 as paper

    body = ours[~ours.dataset.isin(["avg. rank"]) & ~ours.dataset.str.startswith("significant")]
    published = paper.table_2()
    published.columns = ["dataset"] + [f"paper {c.replace('@', ', seed ')}" for c in published.columns[1:]]
    return to_paper_names(body).merge(published, on="dataset", how="right")


def retest_table_2(published: pd.DataFrame, a: str = "C4.5", b: str = "HDDT") -> pd.DataFrame:
    """The paper's own Table II values re-tested: Wilcoxon (R+, R-, p) and sign test per seed."""
    rows = []
    for seed in sorted({int(c.split("@")[1]) for c in published.columns if "@" in c}):
        x, y = published[f"{a}@{seed}"], published[f"{b}@{seed}"]
        w, s = wilcoxon_signed_rank(x, y), sign_test(x, y)
        rows.append({"seed": seed, "R+": w.r_plus, "R-": w.r_minus, "wilcoxon p": w.pvalue,
                     f"{a} wins": int((x > y).sum()), f"{b} wins": int((y > x).sum()),
                     "sign test p": s.pvalue})
    return pd.DataFrame(rows)


def _check_reading(name, value, options):
    if value not in options:
        raise ValueError(f"{name} must be one of {options}, got {value!r}")


def table_3(cv, a: str, b: str, k: int, datasets=None, n_orderings: int = N_ORDERINGS,
            random_state: int = 0, sampling: str = "replacement", pairing: str = "shared",
            ks_ties: str = "merge", cap: int = REPLAY_CAP, metric: str = "auroc",
            progress: bool = True, n_stored: int | None = None) -> pd.DataFrame:
    """Reproducibility R and mean stopping iteration of each rule (Table III).

    Each rule is replayed on ``n_orderings`` random orderings of the stored
    iterations of ``a`` and ``b`` (``sampling``, ``pairing``, ``ks_ties``:
    see :mod:`cvrepro.convergence`; with sampling "permutation" the cap is the
    number stored). Per rule: ``R <rule>``, the mean iterations of each
    learner (``<learner>-<rule>``, adaptive rules as in the paper, fixed ones
    too), ``capped <rule>`` (replays, of both learners, stopped by the cap) and
    ``exhausted <rule>`` (replays that used at least as many draws as there are
    stored runs: trivial or reusing runs at this scale). ``progress``: one bar
    over the data sets (:mod:`cvrepro.progress`), shown when the replays take a while. ``n_stored``: replay
    only the first ``n_stored`` stored iterations of each cell (seeds ``0 .. n_stored - 1``; default all).
    """
    _check_reading("sampling", sampling, SAMPLINGS)
    _check_reading("pairing", pairing, PAIRINGS)
    _check_reading("ks_ties", ks_ties, KS_TIES)
    t = sorted_iterations(cv.iterations)
    datasets = list(dict.fromkeys(t.dataset)) if datasets is None else list(datasets)
    rows = []
    for dataset in progress_bar(datasets, desc=f"Table III replays, {a} vs {b}, {k}-fold", unit="data set",
                                enabled=progress):
        cell = t[(t.dataset == dataset) & (t.k == k)]
        est = {l: cell[cell.learner == l][metric].to_numpy()[:n_stored] for l in (a, b)}
        if min(len(v) for v in est.values()) == 0:
            continue
        proba = {}
        for l in (a, b):
            p = cv.oof(dataset, l, k)[:n_stored]
            proba[l] = p[:, :, 1] if p.shape[2] == 2 else p.reshape(p.shape[0], -1)
        stored = len(est[a])
        rules = stopping_rules(stored if sampling == "permutation" else cap, ks_ties)
        row = {"dataset": dataset, "stored": stored}
        for name, rule in rules.items():
            r = replay_reproducibility(rule, est[a], est[b], proba[a], proba[b], n_orderings=n_orderings,
                                       random_state=random_state, sampling=sampling, pairing=pairing,
                                       progress=False)
            row[f"R {name}"] = r.R
            row[f"{a}-{name}"] = r.iterations_a
            row[f"{b}-{name}"] = r.iterations_b
            row[f"capped {name}"] = r.capped_a + r.capped_b
            row[f"exhausted {name}"] = r.exhausted_a + r.exhausted_b
        rows.append(row)
    out = pd.DataFrame(rows)
    order = ["dataset", "stored"] + [f"R {n}" for n in STOPPING_RULES] + \
        [f"{l}-{n}" for n in STOPPING_RULES for l in (a, b)] + \
        [f"{f} {n}" for f in ("capped", "exhausted") for n in STOPPING_RULES]
    return out[order] if len(out) else out


def table_3_vs_paper(ours: pd.DataFrame, part: str) -> pd.DataFrame:
    """Table III (``part`` a, b or c): our R and mean iterations beside the paper's, by the paper's names."""
    from ..published import raeder2010 as paper
    from ..reporting import beside

    published = paper.table_3(part)
    vs = beside(to_paper_names(ours), published, "dataset")
    order = {d: i for i, d in enumerate(published.dataset)}
    return vs.sort_values("dataset", key=lambda s: s.map(order).fillna(len(order))).reset_index(drop=True)


def table_3_shown(vs: pd.DataFrame, what: str = "R") -> pd.DataFrame:
    """A readable slice of :func:`table_3_vs_paper`: R of each rule (``what="R"``) or the mean
    iterations of the adaptive rules (``"iterations"``), ours beside the paper's, rounded to 2 decimals."""
    if what == "R":
        cols = [f"R {r}" for r in STOPPING_RULES]
    elif what == "iterations":
        cols = [c[:-len(" paper")] for c in vs.columns if c.endswith(" paper") and not c.startswith("R ")]
    else:
        raise ValueError(f"what must be 'R' or 'iterations', got {what!r}")
    out = vs[["dataset"]].copy()
    for c in cols:
        for side in ("ours", "paper"):
            out[f"{c} {side}"] = vs[f"{c} {side}"].round(2)
    return out


def rule_flags(table: pd.DataFrame, rules, n_orderings: int) -> dict:
    """Share of the replays (both learners) of each rule that were capped or exhausted the stored runs."""
    out = {}
    for rule in rules:
        col = f"exhausted {rule}"
        out[rule] = float(table[col].sum()) / (2 * n_orderings * len(table)) if col in table and len(table) else 0.0
    return out


def table_3_readings(cv, a: str, b: str, k: int, datasets=None, n_orderings: int = N_ORDERINGS,
                     random_state: int = 0, reuse: dict | None = None, progress: bool = True) -> pd.DataFrame:
    """Table III under each reading of the replays: mean R and mean iterations per rule
    over the data sets, for our reading (with replacement, shared orderings, KS
    ties merged) and each alternative changed one at a time. ``reuse`` maps a
    reading ``(sampling, pairing, ks_ties)`` to its :func:`table_3` computed
    before (same ``n_orderings`` and ``random_state``), which is not recomputed."""
    reuse = reuse or {}
    rows = []
    for label, sampling, pairing, ties in progress_bar(REPLAY_VARIANTS, desc=f"Table III readings, {a} vs {b}",
                                                       unit="reading", enabled=progress):
        t = reuse.get((sampling, pairing, ties))
        if t is None:
            t = table_3(cv, a, b, k, datasets, n_orderings, random_state, sampling, pairing, ties,
                        progress=False)
        for rule in STOPPING_RULES:
            rows.append({"reading": label, "rule": rule, "mean R": t[f"R {rule}"].mean(),
                         f"{a} iterations": t[f"{a}-{rule}"].mean(), f"{b} iterations": t[f"{b}-{rule}"].mean(),
                         "replays exhausting the stored runs":
                             t[f"exhausted {rule}"].sum() / (2 * n_orderings * len(t))})
    return pd.DataFrame(rows)


def paper_table_3(part: str) -> pd.DataFrame:
    from ..published import raeder2010 as paper

    return paper.table_3(part)


MAE_ROW = "MSE (paper's label) = mean absolute error"
MSE_ROW = "mean squared error"


def true_test_table(est: pd.DataFrame, actual: pd.DataFrame, kind: str,
                    learners=TRUE_TEST_LEARNERS) -> pd.DataFrame:
    """Tables IV (``kind="canonical"``) and V (``"steady_state"``): the k-fold estimates beside
    the true-test AUROC, one row per data set, then the error rows (:func:`error_rows`)."""
    est = est[est.learner.isin(learners)]
    wide = est.pivot_table(index="dataset", columns=["k", "learner"], values=kind)
    wide.columns = [f"{k}-fold {l}" for k, l in wide.columns]
    truth = actual.pivot(index="dataset", columns="learner", values="auroc")
    truth.columns = [f"actual {c}" for c in truth.columns]
    table = wide.join(truth, how="inner")
    order = [f"{k}-fold {l}" for k in sorted(est.k.unique()) for l in learners] + \
            [f"actual {l}" for l in learners]
    table = table[[c for c in order if c in table.columns]]
    return pd.concat([table, error_rows(table)]).rename_axis("dataset").reset_index()


def error_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The error of each estimate column against its learner's ``actual`` column: the mean
    absolute error (what the paper prints under "MSE") and the mean squared error."""
    mae, mse = {}, {}
    for col in table.columns:
        if col.startswith("actual") or col == "dataset":
            continue
        learner = col.split(" ", 1)[1]
        diff = (table[col] - table[f"actual {learner}"]).dropna()
        mae[col], mse[col] = float(np.mean(np.abs(diff))), float(np.mean(diff ** 2))
    return pd.DataFrame([mae, mse], index=[MAE_ROW, MSE_ROW], columns=table.columns)


def true_test_errors_vs_paper(ours: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Per estimate column: our mean absolute error beside the paper's printed "MSE" row (which is
    a mean absolute error), the difference, and both mean squared errors (the paper's recomputed
    from its cells)."""
    ours = ours.set_index("dataset")
    body = published.set_index("dataset")
    printed = body.loc["MSE"]
    recomputed = error_rows(body.drop(index="MSE"))
    rows = []
    for col in [c for c in ours.columns if not c.startswith("actual")]:
        rows.append({"column": col, "MAE ours": ours.loc[MAE_ROW, col], "MAE paper (printed 'MSE')": printed[col],
                     "MAE diff": ours.loc[MAE_ROW, col] - printed[col], "MSE ours": ours.loc[MSE_ROW, col],
                     "MSE paper (recomputed)": recomputed.loc[MSE_ROW, col]})
    return pd.DataFrame(rows)


def table_3_differences(vs: pd.DataFrame) -> dict:
    """Our minus the paper's values of a :func:`table_3_vs_paper` table, flat per quantity: R (every rule)
    and the mean iterations of each adaptive rule (both learners)."""
    out = {"R": vs[[c for c in vs.columns if c.startswith("R ") and c.endswith(" diff")]].to_numpy().ravel()}
    for rule in ("Rank", "KS-0.1", "KS-0.2"):
        out[f"mean iterations, {rule}"] = vs[[c for c in vs.columns if c.endswith(f"-{rule} diff")]].to_numpy().ravel()
    return out


def table_3_by_stored(cv, part: str, datasets=None, sizes=TABLE_3_STORED, n_orderings: int = N_ORDERINGS,
                      sampling: str = "replacement", pairing: str = "shared", ks_ties: str = "merge") -> pd.DataFrame:
    """Table III(``part``) replayed on the first n stored runs of each cell, for each n of ``sizes`` below
    the number stored (n = 20 is what the ``quick`` profile stores: the same seeds, the same replays);
    one long table, ``stored`` saying n. Empty when every size reaches the number stored."""
    a, b, k = TABLE_3_PARTS[part]
    have = int(cv.iterations.iteration.nunique())
    frames = [table_3(cv, a, b, k, datasets, n_orderings, 0, sampling, pairing, ks_ties, progress=False,
                      n_stored=n) for n in sizes if n < have]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["dataset", "stored"])


def distance_by_stored(by_stored: pd.DataFrame, part: str) -> pd.DataFrame:
    """How far Table III(``part``) lies from the paper's when replayed on n stored runs (``by_stored``:
    :func:`table_3_by_stored`'s rows, those of every n together): per n, the mean |ours - paper| of R and
    of each adaptive rule's mean iterations, each learner's mean Rank iterations over the data sets,
    and the Rank replays stopped by the cap."""
    a, b, _ = TABLE_3_PARTS[part]
    rows = []
    for n, t in by_stored.groupby("stored"):
        row = {"part": part, "stored runs": int(n)}
        for quantity, diffs in table_3_differences(table_3_vs_paper(t.drop(columns="stored"), part)).items():
            row[f"|ours - paper|, {quantity}"] = float(np.nanmean(np.abs(diffs.astype(float))))
        row.update({f"{a}-Rank": t[f"{a}-Rank"].mean(), f"{b}-Rank": t[f"{b}-Rank"].mean(),
                    "capped Rank": int(t["capped Rank"].sum())})
        rows.append(row)
    return pd.DataFrame(rows)


def distance_from_paper(table1_vs: pd.DataFrame, table3_vs: dict, errors_vs: dict) -> pd.DataFrame:
    """How far our numbers lie from the published ones, table by table: the number of cells
    compared and the mean and largest absolute difference (``*_vs_paper`` tables as input)."""
    rows = []

    def add(table, quantity, diffs):
        d = np.abs(pd.Series(diffs, dtype=float).dropna())
        if len(d):
            rows.append({"table": table, "quantity": quantity, "cells": len(d), "mean |ours - paper|": d.mean(),
                         "max |ours - paper|": d.max()})

    add("Table I", "average rank", table1_vs["average_rank diff"])
    for part, vs in table3_vs.items():
        for quantity, diffs in table_3_differences(vs).items():
            add(f"Table III({part})", quantity, diffs)
    for kind, vs in errors_vs.items():
        add("Table IV" if kind == "canonical" else "Table V", "error row (other data sets)", vs["MAE diff"])
    return pd.DataFrame(rows)
