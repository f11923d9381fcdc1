"""Vanwinckelen & Blockeel (2012): each claim of the paper checked on our results (verdict and evidence)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..published import vanwinckelen2012 as paper
from ..verdicts import DOES_NOT_HOLD, HOLDS, PARTLY, UNDECIDED, Claim, claims_table, from_fraction
from .vanwinckelen2012_analysis import running_estimates
from .vanwinckelen2012_picks import pick_rates, win_shares
from .vanwinckelen2012_runs import Experiment


def _converged_elsewhere(exp: Experiment) -> tuple[float, int, float, float]:
    """Share of (population, learner, k, sample) cells whose RCV_R lies more than two internal
    standard errors from eps_c and from eps_u; their count; and the median distances (pp)."""
    run = running_estimates(exp)
    last = run[run.r == run.groupby(["population", "learner", "k", "sample"]).r.transform("max")]
    spread = exp.iterations.groupby(["population", "learner", "k", "sample"])["error"].agg(["std", "size"])
    last = last.merge(spread.reset_index(), on=["population", "learner", "k", "sample"])
    last = last[last["size"] > 1]
    se = last["std"] / np.sqrt(last["size"])
    away_c = (last.rcv - last.eps_c).abs() > 2 * se
    away_u = (last.rcv - last.eps_u).abs() > 2 * se
    both = away_c & away_u
    return (float(both.mean()) if len(both) else float("nan"), len(both),
            100 * float((last.rcv - last.eps_c).abs().median()), 100 * float((last.rcv - last.eps_u).abs().median()))


def claims(exp: Experiment, dec: pd.DataFrame, ours: pd.DataFrame, probs: pd.DataFrame,
           rates: pd.DataFrame) -> pd.DataFrame:
    """Each claim of the paper checked on our results (verdict and evidence)."""
    p = exp.params
    run = running_estimates(exp)
    shares = win_shares(exp.conditional, p["sample_size"])
    matchups = (f"; on our matchups, whose eps_c win shares lie a mean {shares.distance.mean():.2f} from the "
                "paper's (Table A3)") if len(shares) else ""
    rates_k = pick_rates(ours)
    return claims_table([_convergence_claim(run, dec), _elsewhere_claim(exp), *_bias_claims(exp),
                         _folds_claim(ours, rates_k, matchups), *_repetition_claims(ours, rates_k, matchups),
                         _asymmetry_claim(ours, matchups), worked_examples_claim(probs, shares),
                         *_test_claims(rates, p), _mse_claim(run)])


def _convergence_claim(run: pd.DataFrame, dec: pd.DataFrame) -> Claim:
    """1. Repeated CV reduces the internal variance (``run``: :func:`running_estimates`)."""
    R = run.groupby(["population", "learner", "k", "sample"]).r.transform("max")
    long = run[R >= 4]                       # cells with enough repetitions to see convergence
    R = R[R >= 4]
    last = long[long.r == R].set_index(["population", "learner", "k", "sample"]).rcv
    first = long[long.r == 1].set_index(["population", "learner", "k", "sample"]).rcv
    half = long[long.r == np.maximum(1, R // 2)].set_index(["population", "learner", "k", "sample"]).rcv
    if long.empty:
        return Claim("Repeated CV reduces the internal variance: the estimate converges as repetitions grow",
                     "Sec. 5.1, Fig. 2", UNDECIDED, "fewer than 4 repetitions in every cell")
    r_min = int(R.min())
    d1, dh = float((first - last).abs().median()), float((half - last).abs().median())
    internal = dec["internal var"].median()
    return Claim(
        "Repeated CV reduces the internal variance: the estimate converges as repetitions grow",
        "Sec. 5.1, Fig. 2", HOLDS if dh < d1 else DOES_NOT_HOLD,
        f"median distance to the final RCV: {100 * d1:.2f} pp after one repetition, {100 * dh:.2f} pp "
        f"after half of them (cells with {r_min} or more repetitions); a single CV's internal standard "
        f"deviation is {np.sqrt(internal):.2f} pp (median over cells), {np.sqrt(internal / r_min):.2f} pp for "
        f"the mean of {r_min}")


def _elsewhere_claim(exp: Experiment) -> Claim:
    """2. Repeated CV converges to a value that is neither eps_c nor eps_u."""
    share, n, med_c, med_u = _converged_elsewhere(exp)
    return Claim(
        "Repeated CV converges to a value that is neither the conditional nor the unconditional error",
        "Sec. 5.1, Fig. 2", from_fraction(share, holds_at=0.75),
        f"in {share:.0%} of {n} sample cells the final RCV lies more than two internal standard errors from "
        f"both eps_c and eps_u (median distance {med_c:.2f} pp from eps_c, {med_u:.2f} pp from eps_u)")


def _bias_claims(exp: Experiment) -> list[Claim]:
    """3. The bias differs per problem, and CV is pessimistic for eps_c."""
    from scipy import stats as sps

    t = exp.iterations.merge(exp.conditional[["population", "sample", "learner", "error"]]
                             .rename(columns={"error": "eps_c"}), on=["population", "sample", "learner"])
    per_sample = t.assign(d=t.error - t.eps_c).groupby(["population", "learner", "k", "sample"]).d.mean()
    cell = per_sample.groupby(["population", "learner", "k"]).agg(["mean", "std", "size"])
    se = cell["std"] / np.sqrt(cell["size"])
    z = (cell["mean"] - cell["mean"].mean()) / se
    chi2 = float((z ** 2).sum())
    pv = float(sps.chi2.sf(chi2, len(cell) - 1)) if len(cell) > 1 else float("nan")
    pessimistic = float((cell["mean"] > 0).mean())
    return [Claim(
        "The estimator's bias differs per problem (population, learner, k)", "Sec. 5.1",
        UNDECIDED if not np.isfinite(pv) else HOLDS if pv < 0.01 else DOES_NOT_HOLD,
        f"bias (CV minus eps_c) ranges from {100 * cell['mean'].min():+.2f} to {100 * cell['mean'].max():+.2f} pp "
        f"over {len(cell)} cells; homogeneity test chi2 = {chi2:.0f} on {len(cell) - 1} df, p = {pv:.2g}"),
        Claim(
        "CV is pessimistically biased for the conditional error (its training sets are smaller)", "Sec. 4.1",
        from_fraction(pessimistic, holds_at=0.75),
        f"the mean CV error exceeds the mean eps_c in {pessimistic:.0%} of {len(cell)} cells")]


def _folds_claim(ours: pd.DataFrame, rates_k: pd.DataFrame, matchups: str) -> Claim:
    """4. 10- and 30-fold pick the winner more often than 2-fold (``rates_k``: :func:`pick_rates`)."""
    single = rates_k[~rates_k.repeated].pivot(index="population", columns="k", values="ours")
    ks = [k for k in (10, 30) if k in single.columns]
    if 2 not in single.columns or not ks:
        return Claim("10- and 30-fold CV pick the model with the lower conditional error more often than "
                     "2-fold", "Sec. 5.2, Tables 1-3", UNDECIDED, "the run has no 2-fold or no 10/30-fold CV")
    better = [(single[k] > single[2]).mean() for k in ks]
    frac = float(np.mean([(single[k] > single[2]).to_numpy() for k in ks]))
    mean_k = {k: single[k].mean() for k in single.columns}
    per_pair = ours[~ours.repeated].assign(
        picks=(ours[paper.READING_A[0]] + ours[paper.READING_A[3]]) / ours.samples
    ).pivot_table(index=["population", "L1", "L2"], columns="k", values="picks")
    pair_frac = float(np.mean([(per_pair[k] >= per_pair[2]).mean() for k in ks]))
    return Claim(
        "10- and 30-fold CV pick the model with the lower conditional error more often than 2-fold",
        "Sec. 5.2, Tables 1-3", from_fraction(frac),
        "mean share of samples where CV picks the winner (no repetition): " +
        ", ".join(f"{k}-fold {v:.1%}" for k, v in mean_k.items()) +
        f"; higher than 2-fold in {frac:.0%} of the population x k comparisons "
        f"({', '.join(f'{k}-fold: {b:.0%}' for k, b in zip(ks, better))}); at least as high for "
        f"{pair_frac:.0%} of the pairs" + matchups)


def _repetition_claims(ours: pd.DataFrame, rates_k: pd.DataFrame, matchups: str) -> list[Claim]:
    """5. Repetition helps slightly (no claim when the run has no repeated tables)."""
    rep = rates_k.pivot_table(index=["population", "k"], columns="repeated", values="ours")
    if not (True in rep.columns and False in rep.columns and (ours[ours.repeated].repetitions > 1).any()):
        return []
    gain = rep[True] - rep[False]
    n_reps = sorted(ours[ours.repeated].repetitions.unique())
    verdict = (HOLDS if 0 < gain.mean() <= 0.05 and (gain > 0).mean() >= 0.5 else
               PARTLY if gain.mean() > 0 else DOES_NOT_HOLD)
    return [Claim(
        "Repeated CV picks the winner slightly more often than a single CV", "Sec. 5.2, Tables 1-3", verdict,
        f"with {'/'.join(map(str, n_reps))} repetitions the share of samples where CV picks the winner changes "
        f"by {100 * gain.mean():+.1f} pp on average (from {100 * gain.min():+.1f} to {100 * gain.max():+.1f} pp "
        f"over {len(gain)} population x k cells; higher in {(gain > 0).mean():.0%})" + matchups)]


def _asymmetry_claim(ours: pd.DataFrame, matchups: str) -> Claim:
    """6. Bias toward the majority winner (asymmetry of the conditional probabilities)."""
    asym = _asymmetry(ours)
    if len(asym) == 0:
        return Claim("When one learner wins on most samples, CV picks it more readily than the other "
                     "(asymmetric conditional probabilities)", "Sec. 5.2", UNDECIDED,
                     "no table with a clear majority winner and at least 3 minority wins")
    frac = float((asym.majority_recall > asym.minority_recall).mean())
    return Claim(
        "When one learner wins on most samples, CV picks it more readily than the other "
        "(asymmetric conditional probabilities)", "Sec. 5.2", from_fraction(frac, holds_at=0.75),
        f"in {frac:.0%} of {len(asym)} tables with a majority winner (60-97 % of the samples, no repetition), "
        f"P(CV picks the winner | it wins) is higher for the majority winner (median "
        f"{asym.majority_recall.median():.2f}) than for the minority winner ({asym.minority_recall.median():.2f})"
        + matchups)


def worked_examples_claim(probs: pd.DataFrame, shares: pd.DataFrame | None = None, min_cases: int = 5) -> Claim:
    """The printed probabilities against ours: is each printed value inside the 95 % Clopper-Pearson
    interval of our fraction? Fractions over fewer than ``min_cases`` samples are not judged, nor the
    examples whose matchup is not the paper's: the share of samples on which L1 wins in the example's
    printed table (2-fold, a + c) outside the 95 % interval of ours (``shares``, :func:`win_shares`); the
    conditional probabilities depend on that share, so they then test our matchup, not the paper's."""
    from scipy.stats import binomtest

    claim = "The two worked examples' conditional probabilities (NB vs C4.5 on adult, NB vs RF on kr-vs-k, 2-fold)"
    inside, judged, other = [], 0, {}
    tables = paper.contingency_tables().query("k == 2 and repetitions == 1").set_index(["L1", "L2", "population"])
    for comparison in probs.comparison.unique():
        l1, rest = comparison.split(" vs ")
        l2, pop = rest.split(", ")[:2]
        row = None if shares is None else shares[(shares.L1 == l1) & (shares.L2 == l2) & (shares.population == pop)]
        if row is None or row.empty:
            continue
        t = tables.loc[(l1, l2, pop)]
        theirs, n = (t.a + t.c) / 100, int(row.samples.iloc[0])
        ci = binomtest(int(round(row.ours.iloc[0] * n)), n).proportion_ci(0.95)
        if not ci.low <= theirs <= ci.high:
            other[comparison] = f"{l1} wins on {row.ours.iloc[0]:.0%} of our samples, {theirs:.0%} of the paper's"
    for r in probs.dropna(subset=["ours"]).to_dict("records"):
        num, den = (int(x) for x in r["ours (fraction)"].split("/"))
        if den < min_cases or r["comparison"] in other:
            continue
        judged += 1
        ci = binomtest(num, den).proportion_ci(0.95)
        inside.append(ci.low <= r["paper"] <= ci.high)
    apart = ("; not judged, the matchup being not the paper's: " + "; ".join(f"{c} ({v})" for c, v in other.items())
             if other else "")
    if not judged:
        return Claim(claim, "Sec. 5.2", UNDECIDED,
                     f"no probability rests on {min_cases} or more samples of a matchup like the paper's" + apart)
    frac = float(np.mean(inside))
    return Claim(claim, "Sec. 5.2", from_fraction(frac, holds_at=0.75),
                 f"{sum(inside)} of {judged} printed probabilities (those resting on {min_cases} or more of our "
                 f"samples, of {len(probs)}) lie inside the 95 % interval of ours" + apart)


def _asymmetry(ours: pd.DataFrame) -> pd.DataFrame:
    """Per table (no repetition) with a majority winner: the recall of CV for the majority and the
    minority winner (P(CV picks X | X wins))."""
    rows = []
    a, b, c, d = paper.READING_A
    for v in ours[~ours.repeated].to_dict("records"):
        n1 = v[a] + v[c]           # L1 wins
        n2 = v[b] + v[d]           # L2 wins (or tie)
        n = n1 + n2
        if n == 0:
            continue
        major_is_1 = n1 > n2
        share = max(n1, n2) / n
        minority = min(n1, n2)
        if not 0.6 <= share <= 0.97 or minority < 3:
            continue
        rec1, rec2 = v[a] / n1, v[d] / n2
        rows.append({"L1": v["L1"], "L2": v["L2"], "population": v["population"], "k": v["k"],
                     "majority_share": share, "majority_recall": rec1 if major_is_1 else rec2,
                     "minority_recall": rec2 if major_is_1 else rec1})
    return pd.DataFrame(rows)


def _test_claims(rates: pd.DataFrame, p: dict) -> list[Claim]:
    out = []
    naive = rates[rates.test == "paired t (naive)"]
    where = "Secs. 4.2, 6"
    claim = "A test that uses only the internal variance rejects a true null more often as repetitions grow"
    parts, verdicts = [], []
    for group in ("same learner, another seed", "near-equal eps_u"):
        g = naive[naive.group == group].sort_values("repetitions")
        if len(g) < 2:
            continue
        lo, hi = g.iloc[0], g.iloc[-1]
        grows = hi.rejection_rate > lo.rejection_rate and hi.rejection_rate > p["alpha"]
        verdicts.append(grows)
        parts.append(f"{group}: {lo.rejection_rate:.0%} at r = {int(lo.repetitions)}, {hi.rejection_rate:.0%} at "
                     f"r = {int(hi.repetitions)} ({int(hi.cases)} cases)")
    if not verdicts:
        out.append(Claim(claim, where, UNDECIDED, "no null pair or fewer than two repetition counts in this run"))
    else:
        verdict = HOLDS if all(verdicts) else PARTLY if any(verdicts) else DOES_NOT_HOLD
        out.append(Claim(claim, where, verdict, "naive paired t-test's rejection rate, " + "; ".join(parts)))
    # which test keeps its level: a two-sided binomial test of each null group's rejection count against alpha
    from scipy.stats import binomtest

    null = rates[rates.group.isin(["same learner, another seed", "near-equal eps_u"])]
    if len(null):
        departs, parts = {}, []
        order = {"same learner, another seed": 0, "near-equal eps_u": 1}
        for test, g in null.groupby("test", sort=False):
            g = g.sort_values("repetitions").groupby("group", sort=False).tail(1)   # each group at its most r
            g = g.sort_values("group", key=lambda c: c.map(order))             # in the order the evidence names
            off = []
            for r in g.itertuples():
                hits = int(round(r.rejection_rate * r.cases))
                if binomtest(hits, int(r.cases), p["alpha"]).pvalue < 0.05:
                    off.append("liberal" if r.rejection_rate > p["alpha"] else "conservative")
            departs[test] = bool(off)
            parts.append(f"{test} " + "/".join(f"{v:.0%}" for v in g.rejection_rate) +
                         (f" ({', '.join(sorted(set(off)))})" if off else " (nominal)"))
        share = float(np.mean(list(departs.values())))
        out.append(Claim(
            "No variance estimate from one sample is reliable: every test's type I error departs from the nominal "
            "level on some null pairs", "Sec. 4.2 (Bengio & Grandvalet)",
            HOLDS if share == 1 else PARTLY if share > 0 else DOES_NOT_HOLD,
            f"rejection rate on the null pairs (same learner with another seed / near-equal eps_u, at the most "
            f"repetitions; binomial test against {p['alpha']:.0%} at 0.05): " + "; ".join(parts)))
    return out


def _mse_claim(run: pd.DataFrame) -> Claim:
    """Ten to twenty repetitions give a more accurate estimate of eps_c and eps_u than one."""
    R = int(run.r.max())
    target = 10 if R >= 10 else R
    if R < 2:
        return Claim("Ten to twenty repetitions give a more accurate estimate of eps_c and eps_u than none",
                     "Sec. 6", UNDECIDED, "one repetition only")
    reached = run.groupby(["population", "learner", "k", "sample"]).r.transform("max") >= target
    at = {r: run[(run.r == r) & reached] for r in (1, target)}        # the same cells at 1 and at target
    mse = {(r, e): float(((t.rcv - t[e]) ** 2).mean()) for r, t in at.items() for e in ("eps_c", "eps_u")}
    cells = run[run.r == 1].groupby(["population", "learner", "k"]).size()
    better = []
    for key in cells.index:
        sel = {r: t[(t.population == key[0]) & (t.learner == key[1]) & (t.k == key[2])] for r, t in at.items()}
        if len(sel[target]) and len(sel[target]) == len(sel[1]):
            mse_r = ((sel[target].rcv - sel[target].eps_c) ** 2).mean()
            better.append(mse_r < ((sel[1].rcv - sel[1].eps_c) ** 2).mean())
    frac = float(np.mean(better)) if better else float("nan")
    return Claim(
        "Ten to twenty repetitions give a more accurate estimate of eps_c and eps_u than none", "Sec. 6",
        from_fraction(frac, holds_at=0.75) if target >= 10 else UNDECIDED,
        f"mean squared error against eps_c {1e4 * mse[(1, 'eps_c')]:.2f} pp^2 after one repetition, "
        f"{1e4 * mse[(target, 'eps_c')]:.2f} after {target}; against eps_u {1e4 * mse[(1, 'eps_u')]:.2f} and "
        f"{1e4 * mse[(target, 'eps_u')]:.2f}; lower after {target} repetitions in {frac:.0%} of the "
        f"{len(better)} population x learner x k cells" + ("" if target >= 10 else
                                                             f" (only {R} repetitions: undecided)"))
