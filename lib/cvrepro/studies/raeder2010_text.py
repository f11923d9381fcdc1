"""Raeder et al. (2010), what the notebook says: the sentences that read each table and figure
(``describe_*``), computed from the results, and each table and figure with its caption (``captioned_*``)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from ..reporting import Captioned
from .raeder2010_design import (
    DATASETS,
    N_ORDERINGS,
    PAPER_ITERATIONS,
    REPLAY_CAP,
    STOPPING_RULES,
    TABLE_2_FOLDS,
    TABLE_3_PARTS,
    stand_ins,
)
from .raeder2010_figures import skew_evidence
from .raeder2010_runs import Results
from .raeder2010_tables import (
    MAE_ROW,
    MSE_ROW,
    distance_by_stored,
    error_rows,
    opposite_seeds,
    rule_flags,
    table_1_checks,
    table_1_shown,
    table_1_vs_paper,
    table_3_shown,
    table_3_vs_paper,
)


def describe_profile(params: dict, profile: str) -> str:
    """The notebook's opening sentence: what this profile runs, against the paper's design."""
    return (f"Profile **{profile}**: {len(params['datasets'])} data sets, learners {', '.join(params['learners'])}, "
            f"{', '.join(map(str, params['folds']))}-fold CV, {params['iterations']} iterations from seed "
            f"{params['seed']} (the paper: {PAPER_ITERATIONS}); true-test sets: "
            f"{', '.join(params['true_test_datasets']) or 'none'}.")


def describe_grid(results: Results) -> str:
    """How many CV iterations the grid holds and how many folds failed."""
    failed = len(results.cv.failures)
    return (f"{len(results.iterations)} CV iterations (data set x learner x k x iteration) "
            + (f"and {len(results.true_test_cv.iterations)} on the true-test sets; " if results.true_test_cv
               else "; ")
            + (f"{failed} folds failed (listed in `failures.csv`)." if failed else "no fold failed."))


def describe_stand_ins(datasets) -> str:
    """One sentence counting the paper's data sets by status, and which this run uses."""
    table = stand_ins()
    counts = table.status.value_counts()
    used = [d for d in DATASETS if d in datasets]
    return (f"Of the paper's {len(table)} data sets, {counts.get('original', 0)} are used as they are, "
            f"{counts.get('stand-in', 0)} through a stand-in and {counts.get('missing', 0)} are missing "
            f"({', '.join(table[table.status == 'missing'].paper)}); this run uses {len(used)} catalog data sets"
            + ("" if len(used) == len(DATASETS) else f" of the design's {len(DATASETS)}") + ".")


def describe_table_1(ranks: pd.DataFrame, info: dict) -> str:
    """Two sentences reading Table I: where 2-fold and 10-fold rank, and against the paper."""
    ours = table_1_checks(ranks, info["critical_distance"])
    n = len(ours["canonical 2 last"])
    vs = table_1_vs_paper(ranks).dropna()
    return (f"Over {info['n_datasets']} data sets and {info['n_iterations']} iterations, 2-fold CV gives the lowest "
            f"(most pessimistic) canonical estimate for {int(ours['canonical 2 last'].sum())} of {n} learners and "
            f"the lowest steady-state estimate for {int(ours['steady 2 last'].sum())} of {n}; steady-state 10-fold "
            f"ranks first for {int(ours['steady 10 first'].sum())} of {n} (critical distance "
            f"{info['critical_distance']:.3f}). Our average ranks lie within {vs['average_rank diff'].abs().max():.2f} "
            f"of the paper's (mean absolute difference {vs['average_rank diff'].abs().mean():.2f}).")


def describe_figure_1(leads: pd.DataFrame, settle: pd.DataFrame, panels: list[dict]) -> str:
    """Sentences reading Figure 1 and the settling iterations."""
    changed = int((leads["lead changes"] > 0).sum())
    skipped = [p for p in panels if p["repeats"]]
    text = (f"The leading learner changes in {changed} of {len(leads)} panels. Over all cells of the run, "
            f"the running mean stays within 0.002 of its final value after a median of "
            f"{settle.settles_at.median():.0f} iterations (range {settle.settles_at.min()}-"
            f"{settle.settles_at.max()}); in {int(settle.censored.sum())} of {len(settle)} cells it still moves "
            f"in the second half of the run, so the run is too short to tell when those settle.")
    if skipped:
        text += (f" Panel (d), the first 30 iterations of {skipped[0]['dataset']}, is left out: this run has "
                 f"{skipped[0]['n_iterations']} iterations, so it would repeat panel (c).")
    return text


def describe_table_2_seeds(verdicts: pd.DataFrame, a: str = "C4.5", b: str = "HDDT", alpha: float = 0.10) -> str:
    """Which seeds :func:`table_2` shows and why, for its caption (``alpha``: the largest of Table II's)."""
    s = opposite_seeds(verdicts, a, b, alpha=alpha)
    parts = []
    for who in (a, b):
        seed, p = s["seeds"][who], s["pvalues"][who]
        parts.append(f"{who} leads at no seed" if seed is None else
                     f"seed {seed}, where {who} leads with the smallest Wilcoxon p ({p:.3f})")
    return "Shown: " + "; ".join(parts) + "."


def describe_table_2(searches: dict, a: str = "C4.5", b: str = "HDDT") -> str:
    """Sentences reading the seed search: ``searches`` maps k to :func:`opposite_seeds` at alpha 0.05."""
    parts = []
    for k, s in searches.items():
        c = s["counts"]
        reading = " (our reading of the paper's fold count)" if k == TABLE_2_FOLDS[0] else ""
        outcome = (f"so seeds {s['seeds'][a]} (p = {s['pvalues'][a]:.3f}) and {s['seeds'][b]} "
                   f"(p = {s['pvalues'][b]:.3f}) give opposite significant verdicts, as the paper's seeds 216 and 459 "
                   "do" if s["found"] else "so no two seeds give opposite significant verdicts")
        parts.append(f"At {k}-fold{reading}, over {c['seeds']} seeds, {a} is significantly better "
                     f"(Wilcoxon, alpha = {s['alpha']:.2f}) at {c[f'{a} significantly better']}, {b} at "
                     f"{c[f'{b} significantly better']}, neither at {c['no significant difference']}: {outcome}.")
    return " ".join(parts)


def describe_figure_2(dists: pd.DataFrame) -> str:
    """Sentences reading the skewness of the estimate distributions."""
    e = skew_evidence(dists)
    rho = sps.spearmanr(dists["mean"], dists["skewness"]).statistic if len(dists) > 2 else np.nan
    return (f"Of the {e['good']} 2-fold cells with an above-median mean AUROC, {e['left']} are left-skewed "
            f"(mean below median); with {e['n']} iterations per cell, {e['significant']} have a skewness "
            f"that D'Agostino's test tells from zero at 0.05 ({e['significant left']} of them left). Across all "
            f"cells, Spearman's correlation between mean and skewness is {rho:.2f}.")


def describe_table_3(tables: dict, n_orderings: int = N_ORDERINGS) -> str:
    """Sentences reading Table III: the least and most reproducible rules, and what is capped."""
    parts = []
    for part, t in tables.items():
        a, b, k = TABLE_3_PARTS[part]
        mean_r = {r: t[f"R {r}"].mean() for r in STOPPING_RULES}
        flags = rule_flags(t, STOPPING_RULES, n_orderings)
        short = [r for r, f in flags.items() if f > 0.5]
        rank_its = np.mean([t[f"{a}-Rank"].mean(), t[f"{b}-Rank"].mean()])
        ks_its = np.mean([t[f"{a}-KS-0.1"].mean(), t[f"{b}-KS-0.1"].mean()])
        low, high = min(mean_r, key=mean_r.get), max(mean_r, key=mean_r.get)
        spread = (f"every rule has mean R {mean_r[low]:.2f}" if mean_r[high] - mean_r[low] < 0.005 else
                  f"mean R is lowest for {low} ({mean_r[low]:.2f}) and highest for {high} ({mean_r[high]:.2f})")
        text = (f"({part}) {a} vs {b}, {k}-fold: {spread}; Rank stops after {rank_its:.1f} iterations on average, "
                f"KS-0.1 after {ks_its:.1f}.")
        if short:
            text += (f" With {int(t['stored'].min())} stored runs, most replays of {', '.join(short)} use at least "
                     f"as many draws as there are runs: their R is trivial or reuses runs at this scale.")
        if part == "b" and "tic-tac-toe" in set(t.dataset):
            row = t.set_index("dataset").loc["tic-tac-toe"]
            text += (f" SMO on tic-tac-toe, whose AUROC is the same in every run, stops after {row['SMO-Rank']:.2f} "
                     f"iterations under Rank and {row['SMO-KS-0.1']:.2f} under KS-0.1 (the paper: 2.00 and 1000.00).")
        parts.append(text)
    return " ".join(parts)


def describe_paper_error_row(published: pd.DataFrame) -> str:
    """How the paper's printed "MSE" row compares with the errors recomputed from its printed cells."""
    body = published.set_index("dataset")
    printed = body.loc["MSE"].dropna()
    rows = error_rows(body.drop(index="MSE")).loc[:, printed.index].astype(float)
    mae, mse = rows.loc[MAE_ROW], rows.loc[MSE_ROW]
    exact = int((mae.round(3) == printed).sum())
    return (f"Recomputed from the paper's printed cells, the mean absolute error gives {exact} of its "
            f"{len(printed)} \"MSE\" values to the third decimal and all within {(mae - printed).abs().max():.4f} "
            f"(the cells are rounded to 0.001), while the mean squared error would be {mse.min():.4f} to "
            f"{mse.max():.4f}: the row is a mean absolute error.")


def describe_true_test(tables: dict) -> str:
    """Sentences reading Tables IV-V: which k has the lowest error, and how often CV underestimates."""
    parts = []
    for kind, table in tables.items():
        t = table.set_index("dataset")
        mae = t.loc[MAE_ROW].dropna()
        learners = [c.split(" ", 1)[1] for c in mae.index if c.startswith("2-fold")]
        best = {l: mae[[c for c in mae.index if c.endswith(" " + l)]].idxmin().split(" ")[0] for l in learners}
        body = t.drop(index=[MAE_ROW, MSE_ROW])
        under = np.mean([(body[c] < body[f"actual {c.split(' ', 1)[1]}"]).mean()
                         for c in body.columns if not c.startswith("actual")])
        parts.append(f"{kind.replace('_', '-').capitalize()}: the lowest mean absolute error is at "
                     + ", ".join(f"{k} for {l}" for l, k in best.items())
                     + f"; {under:.0%} of the estimates lie below the true-test AUROC.")
    return " ".join(parts)


def describe_claims(claims: pd.DataFrame, profile: str, n_iterations: int) -> str:
    """The notebook's conclusion: the verdict counts, then each claim by verdict with where the paper
    makes it and our evidence (for an undecided claim: why it is undecided)."""
    from ..verdicts import summary_sentence

    lines = [summary_sentence(claims)]
    for verdict, label in (("holds", "Holds"), ("partly", "Holds partly"), ("does not hold", "Does not hold"),
                           ("undecided", "Undecided")):
        for r in claims[claims.verdict == verdict].itertuples():
            shown = r.evidence.split(". ")[0] if verdict == "undecided" else r.evidence
            lines.append(f"- **{label}**: {r.claim} (*{r.where}*): {shown.rstrip('.')}.")
    if (claims.verdict == "undecided").any():
        lines.append(f"\nA claim is undecided when the evidence it compares is capped or trivial at the `{profile}` "
                     f"profile ({n_iterations} iterations; the paper: {PAPER_ITERATIONS}) or missing from this run; "
                     "the `paper` profile decides those that depend on the scale.")
    return "\n".join(lines)


def captioned_table_1(ranks: pd.DataFrame, info: dict, learners) -> Captioned:
    """Table I (ours) as shown, with its caption."""
    from ..published import raeder2010 as published

    return Captioned(table_1_shown(ranks, learners), "table_1",
                     f"Table I (ours). Average rank of the 2-, 5- and 10-fold AUROC estimates of each learner over "
                     f"{info['n_datasets']} data sets, rank 1 = highest (most optimistic). Canonical = 5x2, 2x5, "
                     f"1x10-fold; steady-state = mean of all {info['n_iterations']} iterations. `*`: differs from the "
                     f"control (2-fold canonical, 10-fold steady-state) by more than the Bonferroni-Dunn critical "
                     f"distance {info['critical_distance']:.3f} (alpha 0.05; the paper: "
                     f"{published.TABLE_1_CRITICAL_DISTANCE} with 20 data sets).")


def captioned_figure_1(fig, panels: list[dict], n_iterations: int) -> Captioned:
    """Figure 1 (from :func:`figure_1`) with its caption, which says whether panel (d) is drawn."""
    d = (", (d) its first 30 iterations" if not panels[-1]["repeats"] else
         " (the paper's (d), its first 30 iterations, would repeat (c) with this run's "
         f"{n_iterations} iterations and is left out)")
    return Captioned(fig, "figure_1",
                     "Figure 1. Running mean of the AUROC estimate against the number of CV iterations averaged, "
                     "as the paper's panels: (a) twonorm 10-fold, C4.5 and HDDT; (b) vote 5-fold, (c) crx (UCI "
                     f"credit-a) 2-fold{d}, C4.5, MLP (one hidden layer of 3 units: our reading) and 5-NN; each "
                     "learner has one colour in every panel. Where lines cross, the leading learner changes; a flat "
                     "line has settled. Panels show at most the iterations of this run (noted in their titles).")


def captioned_table_2(table: pd.DataFrame, verdicts: pd.DataFrame, k: int) -> Captioned:
    """Table II (ours) at ``k`` folds with its caption: which reading ``k`` is, and the seeds shown."""
    reading = "our reading of the paper's fold count" if k == TABLE_2_FOLDS[0] else "the paper's text"
    return Captioned(table, "table_2" if k == TABLE_2_FOLDS[0] else f"table_2_{k}fold",
                     f"Table II (ours, {k}-fold: {reading}). {k}-fold AUROC of C4.5 and HDDT at the seed most "
                     "favourable to each, their average rank (1 = better) and whether the leader of that seed is "
                     "significantly better (Wilcoxon signed-rank over the data sets) at alpha 0.10 and 0.05. "
                     + describe_table_2_seeds(verdicts))


def describe_table_3_left_out(part: str) -> str:
    """Why Table III(``part``) is not in this run."""
    a, b, k = TABLE_3_PARTS[part]
    return f"Table III({part}) is left out: it needs {a}, {b} and {k}-fold."


def captioned_table_3(vs: pd.DataFrame, part: str, what: str, n_orderings: int, n_iterations: int) -> Captioned:
    """Table III(``part``)'s reproducibility R (``what="R"``) or stopping iterations, ours beside the paper's."""
    a, b, k = TABLE_3_PARTS[part]
    caption = (f"Table III({part}), reproducibility R: {a} vs {b}, {k}-fold, ours beside the paper's, per rule. "
               f"{n_orderings} orderings of {n_iterations} stored runs (the paper: {N_ORDERINGS} of "
               f"{PAPER_ITERATIONS}); rows by the paper's names." if what == "R" else
               f"Table III({part}), mean stopping iteration of the adaptive rules per learner, ours beside the "
               f"paper's (capped at {REPLAY_CAP}).")
    return Captioned(table_3_shown(vs, what), f"table_3{part}_{what}", caption, digits=2)


def captioned_table_3_readings(table: pd.DataFrame, part: str) -> Captioned:
    """Table III(``part``) under each reading of the replays (:func:`table_3_readings`)."""
    return Captioned(table, f"table_3{part}_readings",
                     f"Table III({part}) under each reading: mean R over the data sets, mean stopping iteration per "
                     "learner, and the share of replays that use at least as many draws as there are stored runs.",
                     digits=2)


def _true_test_label(kind: str, n_iterations: int) -> str:
    return ("canonical (5x2, 2x5, 1x10-fold)" if kind == "canonical" else
            f"steady-state ({n_iterations} iterations)")


def captioned_true_test(table: pd.DataFrame, kind: str, n_iterations: int) -> Captioned:
    """Table IV (``kind="canonical"``) or V (``"steady_state"``), ours, with its caption."""
    number = "IV" if kind == "canonical" else "V"
    return Captioned(table, f"table_{number.lower()}",
                     f"Table {number} (ours): {_true_test_label(kind, n_iterations)} AUROC estimates of HDDT, C4.5 "
                     "and NB beside the AUROC of the model trained on the whole training set and scored on the test "
                     "set ('actual'). Bottom rows: the mean absolute error of each column against its learner's "
                     "actual AUROC (what the paper prints under 'MSE') and the mean squared error.", digits=5)


def captioned_true_test_paper(table: pd.DataFrame, kind: str) -> Captioned:
    """The paper's Table IV or V, for comparison with ours."""
    number = "IV" if kind == "canonical" else "V"
    return Captioned(table, f"table_{number.lower()}_paper",
                     f"Table {number} (paper): its {kind.replace('_', '-')} estimates on its seven true-test data "
                     "sets, for comparison with ours above (other data sets); its bottom row, labelled 'MSE', is a "
                     "mean absolute error.", digits=3)


def captioned_true_test_errors(errors: pd.DataFrame, kind: str, paper_table: pd.DataFrame) -> Captioned:
    """Table IV's or V's error row, ours beside the paper's (:func:`true_test_errors_vs_paper`)."""
    number = "IV" if kind == "canonical" else "V"
    return Captioned(errors, f"table_{number.lower()}_errors_vs_paper",
                     f"Table {number}'s error row, ours beside the paper's (other data sets: compare sizes, not "
                     "values). " + describe_paper_error_row(paper_table) + " Its mean squared error, recomputed "
                     "from the same cells, is shown beside ours.", digits=5)


def captioned_distance_from_paper(table: pd.DataFrame, profile: str, n_iterations: int) -> Captioned:
    """:func:`distance_from_paper` with its caption, naming the run's scale."""
    return Captioned(table, "distance_from_paper",
                     f"How far our numbers lie from the published ones, table by table, at the {profile} profile "
                     f"({n_iterations} iterations; the paper: {PAPER_ITERATIONS}): cells compared, mean and largest "
                     "absolute difference. Table II is left out (other seeds); Tables IV-V compare other data sets.",
                     digits=3)


def captioned_table_3_by_stored(long: pd.DataFrame) -> Captioned:
    """Each part of Table III's distance from the paper when replayed on the first n stored runs
    (``long``: :func:`table_3_by_stored_for`)."""
    parts = [distance_by_stored(long[long.part == part].drop(columns="part"), part)
             for part in dict.fromkeys(long.part)]
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    return Captioned(table, "table_3_by_stored",
                     "Table III replayed on the first n stored runs of each cell (n = 20 is what the quick profile "
                     "stores): mean |ours - paper| of R and of the adaptive rules' mean iterations, each learner's "
                     f"mean Rank iterations, and the Rank replays stopped by the cap ({REPLAY_CAP} draws).", digits=3)


def _mean_difference(iterations: pd.DataFrame, a: str, b: str, k: int, dataset: str, n: int | None = None):
    """Mean of ``a``'s minus ``b``'s AUROC over the first ``n`` seeds (default all) of one cell, and the share
    of those seeds ``a`` wins."""
    t = iterations[(iterations.k == k) & (iterations.dataset.astype(str) == dataset)]
    wide = t.assign(learner=t.learner.astype(str)).pivot(index="iteration", columns="learner", values="auroc")
    d = (wide[a] - wide[b]).sort_index().to_numpy()[:n]
    return float(d.mean()), float((d > 0).mean())


def describe_table_3_scale(long: pd.DataFrame, iterations: pd.DataFrame, part: str = "c") -> str:
    """Why Table III(``part``)'s distance from the paper changes with the number of stored runs the replays draw
    from (``long``: :func:`table_3_by_stored_for`; ``iterations``: the run's per-iteration AUROC)."""
    rows = long[long.part == part].drop(columns="part")
    if rows.stored.nunique() < 2:
        return ""
    dist = distance_by_stored(rows, part).set_index("stored runs")
    lo, hi = int(dist.index.min()), int(dist.index.max())
    r_col, i_col = "|ours - paper|, R", "|ours - paper|, mean iterations, Rank"
    small, full = (rows[rows.stored == n].set_index("dataset") for n in (lo, hi))
    return (f"Table III({part}) replayed on the first {lo} stored runs (the quick profile's) lies "
            f"{dist.loc[lo, r_col]:.3f} from the paper in R and {dist.loc[lo, i_col]:.1f} in Rank iterations, on all "
            f"{hi} {dist.loc[hi, r_col]:.3f} and {dist.loc[hi, i_col]:.1f}. Not a horizon: every ordering is "
            f"{REPLAY_CAP} draws at any n, and {int(dist['capped Rank'].sum())} Rank replays reach it. The replays "
            "draw with replacement from the stored runs, so they take the stored runs' mean for the truth, and with "
            "few runs its sampling error separates what ties." + _tied_learners(small, full, iterations, part)
            + _rank_growth(small, full, dist, part)
            + f" The paper replayed {PAPER_ITERATIONS} stored runs, as the paper profile does: its distance is the "
            "one to compare, and what remains of it comes from our learners on these data sets, not the replays.")


def _tied_learners(small: pd.DataFrame, full: pd.DataFrame, iterations: pd.DataFrame, part: str) -> str:
    """The data sets where R (mean over the rules) falls by more than 0.2 from few to all stored runs."""
    a, b, k = TABLE_3_PARTS[part]
    lo, hi = int(small.stored.iloc[0]), int(full.stored.iloc[0])
    r_cols = [f"R {r}" for r in STOPPING_RULES]
    drop = (small[r_cols].mean(axis=1) - full[r_cols].mean(axis=1)).dropna()
    tied = list(drop[drop > 0.2].index)
    if not tied:
        return ""
    said = []
    for d in tied:
        (m_lo, _), (m_hi, won) = (_mean_difference(iterations, a, b, k, d, n) for n in (lo, hi))
        said.append(f"{d} ({a} ahead in {won:.0%} of the {hi} seeds; mean AUROC difference {m_lo:+.4f} over the "
                    f"first {lo}, {m_hi:+.4f} over all)")
    vs_tied = table_3_vs_paper(full.loc[tied].reset_index(), part)
    r_lo, r_hi, r_paper = (t.mean(axis=1).mean() for t in (small.loc[tied, r_cols], full.loc[tied, r_cols],
                                                            vs_tied[[c + " paper" for c in r_cols]]))
    share = _share(vs_tied, table_3_vs_paper(full.reset_index(), part), [c + " diff" for c in r_cols])
    return (f" Learners: {a} and {b} tie at {k}-fold on {', '.join(said)}; R averaged over the rules falls there "
            f"from {r_lo:.2f} to {r_hi:.2f} (the paper: {r_paper:.2f}); they hold {share:.0%} of the R distance on all "
            f"{hi} runs.")


def _share(some: pd.DataFrame, every: pd.DataFrame, cols) -> float:
    """The part of the summed |ours - paper| over ``cols`` of ``every`` row that ``some`` rows hold."""
    return float(np.nansum(np.abs(some[cols].to_numpy(float))) / np.nansum(np.abs(every[cols].to_numpy(float))))


def _rank_growth(small: pd.DataFrame, full: pd.DataFrame, dist: pd.DataFrame, part: str, n_shown: int = 4) -> str:
    """How the Rank rule's mean iterations grow from few to all stored runs, and where most."""
    a, b, _ = TABLE_3_PARTS[part]
    lo, hi = dist.index.min(), dist.index.max()
    vs_lo, vs_hi = (table_3_vs_paper(t.reset_index(), part).set_index("dataset") for t in (small, full))
    grow = pd.concat({l: vs_hi[f"{l}-Rank ours"] - vs_lo[f"{l}-Rank ours"] for l in (a, b)}, axis=1)
    top = grow.max(axis=1).dropna().sort_values(ascending=False).index[:n_shown]
    most = []
    for d in top:
        col = f"{grow.loc[d].idxmax()}-Rank"
        most.append(f"{d} ({col} {vs_lo.loc[d, col + ' ours']:.1f} -> {vs_hi.loc[d, col + ' ours']:.1f}, the paper "
                    f"{vs_hi.loc[d, col + ' paper']:.2f})")
    rank_cols = [f"{l}-Rank diff" for l in (a, b)]
    share = _share(vs_hi.loc[top], vs_hi, rank_cols)
    growth = " and ".join(f"from {dist.loc[lo, f'{l}-Rank']:.1f} to {dist.loc[hi, f'{l}-Rank']:.1f} for {l}"
                          for l in (a, b))
    return (" Instances: Rank stops when the running means of the instances' probabilities stop crossing, and with "
            f"few runs those means lie further apart; mean Rank iterations grow {growth}, most on {', '.join(most)}; "
            f"these rows hold {share:.0%} of the Rank-iteration distance on all {hi} runs.")
