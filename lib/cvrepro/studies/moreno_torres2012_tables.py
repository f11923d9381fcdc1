"""Moreno-Torres et al. (2012), the tables: Tables I-VII beside the paper's, the true and single-experiment
Wilcoxon verdicts (with the exact test KEEL reports), Table VI's bootstrap, and beyond the paper the measured
shift and the verdicts at a fixed budget of fits; from tidy tables to tidy tables."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from numba import njit
from scipy import stats

from ..published import moreno_torres2012 as published
from .moreno_torres2012_design import (
    ALPHA,
    DATASETS,
    IMPLEMENTATION,
    KEEL_TREE_CASES,
    LEARNERS,
    PARTITIONERS,
    SCHEMES,
    TABLE_3_SCHEME,
    dataset_table,
    load,
)
from .moreno_torres2012_runs import MorenoRun


def wilcoxon_exact(a, b) -> tuple[float, float, float]:
    """(R+, R-, p) of the two-sided Wilcoxon signed-ranks test of ``a`` against ``b``.

    R+ sums the ranks of |a - b| where a wins, zero differences split evenly (as
    in Table IV, where R+ + R- = n(n+1)/2); p is exact: twice the probability,
    under independent random signs of the non-zero differences' (mid)ranks, of
    a rank sum at most min(R+, R-). Without ties or zeros this is scipy's
    ``wilcoxon(method="exact")``. Differences are rounded to 12 decimals first.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError("a and b must be equal-length 1-d arrays of finite scores")
    (r_plus, r_minus, p), = wilcoxon_columns(a[:, None], b[:, None])
    return r_plus, r_minus, p


def wilcoxon_columns(A, B) -> list[tuple[float, float, float]]:
    """:func:`wilcoxon_exact` of every column of ``A`` against the same column of ``B`` (n x m each)."""
    d = np.asarray(A, dtype=float) - np.asarray(B, dtype=float)
    if d.ndim != 2 or d.shape[0] < 1 or not np.all(np.isfinite(d)):
        raise ValueError("a and b must be equal-length 1-d arrays of finite scores")
    return _signed_rank_tests(np.ascontiguousarray(np.round(d, 12).T)).tolist()


@njit(cache=True)
def _signed_rank_tests(D):
    """:func:`_signed_rank_test` of every row of ``D``: an m x 3 array."""
    out = np.empty((D.shape[0], 3))
    for k in range(D.shape[0]):
        out[k, 0], out[k, 1], out[k, 2] = _signed_rank_test(D[k])
    return out


@njit(cache=True)
def _signed_rank_test(d):
    """(R+, R-, p) of :func:`wilcoxon_exact` on the rounded differences ``d``: average ranks of |d|,
    zeros split, and the null distribution of the non-zero (mid)ranks' sum built one rank at a
    time (``pmf[i]`` = 0.5 (pmf[i] + pmf[i - r])): for up to 52 differences every value is a multiple
    of 2^-n, so the sums are exact in any order."""
    n = d.shape[0]
    mag = np.abs(d)
    order = np.argsort(mag)
    ranks = np.empty(n)
    i = 0
    while i < n:                                   # ties share the mean of their positions
        j = i
        while j + 1 < n and mag[order[j + 1]] == mag[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j + 2) / 2.0
        i = j + 1
    zero = plus = minus = 0.0
    doubled = np.zeros(n, dtype=np.int64)             # the non-zero differences' midranks times 2
    for k in range(n):
        if d[k] > 0:
            plus += ranks[k]
        elif d[k] < 0:
            minus += ranks[k]
        else:
            zero += ranks[k]
        if d[k] != 0:
            doubled[k] = int(round(2 * ranks[k]))
    zero /= 2
    plus += zero
    minus += zero
    total = doubled.sum()
    if total == 0:
        return plus, minus, 1.0
    pmf = np.zeros(total + 1)
    pmf[0] = 1.0
    top = 0
    for r in doubled:
        if r == 0:
            continue
        top += r
        for v in range(top, r - 1, -1):                # in place from the top: pmf[v - r] is still the old one
            pmf[v] = 0.5 * (pmf[v] + pmf[v - r])
        for v in range(min(r, top + 1)):
            pmf[v] *= 0.5
    observed = int(round(2 * (min(plus, minus) - zero)))
    tail = 0.0
    for v in range(observed + 1):
        tail += pmf[v]
    return plus, minus, min(1.0, 2.0 * tail)


def table_1(result: MorenoRun | None = None, datasets=None) -> pd.DataFrame:
    """Table I beside ours: attributes (real/integer/nominal; integer = numeric with whole values
    only, KEEL's declared types are not kept by the catalog) and complete examples."""
    paper = published.table_1()
    if result is not None:
        ours = result.datasets
    else:
        ours = pd.DataFrame([dataset_table(n, load(n)) for n in (datasets or DATASETS)])
    cols = ["attributes", "real", "integer", "nominal", "examples"]
    out = ours.merge(paper, on="dataset", suffixes=(" ours", " paper"))
    out["examples diff"] = out["examples ours"] - out["examples paper"]
    out["types agree"] = [all(r[f"{c} ours"] == r[f"{c} paper"] for c in cols[1:4]) for _, r in out.iterrows()]
    return out[["dataset"] + [f"{c} {s}" for c in cols for s in ("ours", "paper")] + ["examples diff",
                                                                                        "types agree"]]


PAPER_AGREEMENT = 0.95   # share of test instances with KEEL's class below which ours is not the paper's classifier


def table_2() -> pd.DataFrame:
    """Table II: the nine classifiers, our implementation and its status against the classifier the
    paper ran: the registry's status, except that a WEKA learner standing for a KEEL one (C4.5, PART)
    is a stand-in when it predicts KEEL's class on fewer than ``PAPER_AGREEMENT`` of the test
    instances (:func:`keel_tree_agreement`); ``registry status`` keeps the registry's word."""
    from ..learners import list_learners

    reg = list_learners().set_index("name")
    keel = keel_tree_agreement()
    rows = []
    for r in published.table_2().itertuples():
        spec = reg.loc[IMPLEMENTATION.get(r.abbreviation, r.abbreviation)]
        parity, status = spec.parity, spec.status
        if r.abbreviation in keel.index and r.abbreviation not in IMPLEMENTATION:
            k = keel.loc[r.abbreviation]
            parity = (f"{parity}; against KEEL's {k.keel} (the paper's): same class on "
                      f"{k.agreement:.1%} of {k.test_instances} test instances ({k.datasets} data sets)")
            if k.agreement < PAPER_AGREEMENT:
                status = f"stand-in (not KEEL's {k.keel}, which the paper ran)"
        rows.append({"abbreviation": r.abbreviation, "algorithm (paper)": r.algorithm, "type": r.type,
                     "ours": spec.description, "status": status, "registry status": spec.status,
                     "checked against": spec.reference, "parity": parity})
    return pd.DataFrame(rows)


def keel_tree_agreement(by_dataset: bool = False) -> pd.DataFrame:
    """Our C4.5 and PART (WEKA's J48 and PART) against KEEL's C45-C and PART-C, which the paper ran: per
    learner, the share of test instances with the same class, and KEEL's crisp AUC of both (fold means
    averaged over data sets; ``by_dataset``: per data set). Recorded by tools/compare_keel_c45_part.py
    on DOB-SCV 5-fold partitions (:data:`KEEL_TREE_CASES`)."""
    t = pd.DataFrame(KEEL_TREE_CASES, columns=["dataset", "learner", "keel", "test_instances", "agreement",
                                               "keel_auc_ours", "keel_auc_keel"])
    if by_dataset:
        return t
    t["same"] = t.agreement * t.test_instances
    g = t.groupby("learner", sort=False)
    out = pd.DataFrame({"keel": g.keel.first(), "datasets": g.size(), "test_instances": g.test_instances.sum(),
                        "agreement": g.same.sum() / g.test_instances.sum(),
                        "keel_auc_ours": g.keel_auc_ours.mean(), "keel_auc_keel": g.keel_auc_keel.mean()})
    return out


def _pivot_truth(result: MorenoRun, metric: str, scheme: str = TABLE_3_SCHEME) -> pd.DataFrame:
    t = result.truth[result.truth.scheme == scheme]
    return t.pivot(index="dataset", columns="learner", values=metric)


def table_3(result: MorenoRun) -> pd.DataFrame:
    """Table III in long form: dataset, learner, true AUC from probabilities (``auc``), KEEL's crisp
    AUC (``keel_auc``), the paper's, and the differences (5x2 truth: SCV with k=5)."""
    t = result.truth[result.truth.scheme == TABLE_3_SCHEME]
    paper = published.table_3().melt(id_vars="dataset", var_name="learner", value_name="paper")
    out = t.merge(paper, on=["dataset", "learner"], how="left")
    out["auc diff"] = out.auc - out.paper
    out["keel_auc diff"] = out.keel_auc - out.paper
    return out[["dataset", "learner", "auc", "keel_auc", "paper", "auc diff", "keel_auc diff"]]


def table_3_errors(t3: pd.DataFrame) -> dict[str, float]:
    """Mean absolute difference of Table III from the paper's, for AUC from probabilities and KEEL's AUC."""
    return {m: float(t3[f"{m} diff"].abs().mean()) for m in ("auc", "keel_auc")}


def true_verdicts(result: MorenoRun, metric: str | None = None, scheme: str = TABLE_3_SCHEME) -> pd.DataFrame:
    """Table IV: Wilcoxon test of every pair on the true AUCs (``metric``, default the run's):
    row, column, R+, R-, p, significant (p <= 0.1), winner."""
    metric = metric or result.params["metric"]
    wide = _pivot_truth(result, metric, scheme).dropna()
    return _pairwise(wide)


def _pairwise(wide: pd.DataFrame) -> pd.DataFrame:
    names = [n for n in LEARNERS if n in wide.columns]
    return pd.DataFrame(_pair_tests(wide[names].to_numpy(dtype=float), names), columns=PAIR_COLUMNS)


PAIR_COLUMNS = ["row", "column", "R+", "R-", "p", "significant", "winner"]


def _pair_tests(block: np.ndarray, names: list[str], key: tuple = ()) -> list[tuple]:
    """One row (``key`` first, then :data:`PAIR_COLUMNS`) per pair of the columns ``names`` of ``block``
    (data sets x classifiers, no NaN): :func:`wilcoxon_exact` of the first against the second."""
    pairs = list(combinations(range(len(names)), 2))
    if not pairs:
        return []
    first, second = np.array(pairs).T
    tests = wilcoxon_columns(block[:, first], block[:, second])
    return [(*key, names[i], names[j], rp, rm, p, p <= ALPHA, names[i] if rp > rm else names[j] if rm > rp else "")
            for (i, j), (rp, rm, p) in zip(pairs, tests)]


def table_4(result: MorenoRun) -> pd.DataFrame:
    """Table IV beside the paper: ours (R+, R-, p, significant) and the paper's (R+, R-, p as printed)
    for the pairs of the run's learners."""
    ours = true_verdicts(result)
    paper = published.table_4_long().rename(columns={"R+": "R+ paper", "R-": "R- paper", "p": "p paper"})
    out = ours.merge(paper[["row", "column", "R+ paper", "R- paper", "p_text"]], on=["row", "column"], how="left")
    out["significant paper"] = [None if not isinstance(t, str) else (t != ">0.2" and (t == "" or float(t) <= ALPHA))
                                for t in out.p_text]
    return out.rename(columns={"p_text": "p paper"})


def single_verdicts(result: MorenoRun, metric: str | None = None, budget: int = 1) -> pd.DataFrame:
    """For every partitioner, scheme, pair and experiment (``budget`` consecutive experiments
    averaged): R+, R-, p of the Wilcoxon test over the data sets with every classifier's score."""
    metric = metric or result.params["metric"]
    keys = ["partitioner", "scheme", "experiment"]
    e = result.experiments.assign(experiment=result.experiments.experiment // budget)
    e = e.groupby(keys + ["dataset", "learner"])[metric].mean()
    wide = e.unstack("learner")                                          # rows: keys + dataset
    names = [n for n in LEARNERS if n in wide.columns]
    in_group = e.groupby(keys + ["learner"]).size().unstack("learner").reindex(columns=names).notna()
    group_of = wide.index.droplevel("dataset")
    starts = np.flatnonzero(~group_of.duplicated())
    values = wide[names].to_numpy(dtype=float)
    rows = []
    for lo, hi in zip(starts, np.append(starts[1:], len(values))):
        key = group_of[lo]
        cols = np.flatnonzero(in_group.loc[key].to_numpy())              # the group's classifiers
        block = values[lo:hi][:, cols]
        rows += _pair_tests(block[~np.isnan(block).any(axis=1)], [names[j] for j in cols], key)
    out = pd.DataFrame(rows, columns=keys + PAIR_COLUMNS).astype({"experiment": np.int64})
    return out[PAIR_COLUMNS + keys]


# Readings of "the same result" (Table V, step 3): a single experiment's test agrees with a truly
# significant pair when ... (the first is the paper's: "the significance level is set to the same as the
# 'true' data achieved", Sec. VI-A, and a "right result" has the true winner)
AGREE_READINGS = {
    "paper": "p <= the true p, same winner",
    "alpha": "p <= 0.1, same winner",
    "any winner": "p <= the true p, either winner",
}


def agreement_hits(result: MorenoRun, metric: str | None = None, reading: str = "paper") -> pd.DataFrame:
    """One row per (partitioner, scheme, truly significant pair, experiment): ``hit``, whether that
    single experiment's Wilcoxon test gives the same result as the truth under ``reading``
    (:data:`AGREE_READINGS`)."""
    if reading not in AGREE_READINGS:
        raise ValueError(f"reading must be one of {list(AGREE_READINGS)}, got {reading!r}")
    metric = metric or result.params["metric"]
    singles = single_verdicts(result, metric)
    parts = []
    for scheme in SCHEMES:
        truth = true_verdicts(result, metric, scheme)
        truth = truth[truth.significant][["row", "column", "p", "winner"]]
        s = singles[singles.scheme == scheme].merge(truth, on=["row", "column"], suffixes=("", "_true"))
        threshold = ALPHA if reading == "alpha" else s.p_true + 1e-12
        same = (s.winner == s.winner_true) | (reading == "any winner")
        parts.append(s.assign(hit=(s.p <= threshold) & same)[
            ["partitioner", "scheme", "row", "column", "p_true", "experiment", "hit"]])
    cols = ["partitioner", "scheme", "row", "column", "p_true", "experiment", "hit"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=cols)


def table_5(result: MorenoRun, metric: str | None = None, reading: str = "paper") -> pd.DataFrame:
    """Table V for every partitioner and scheme: for each pair significant in the truth of that
    scheme, how many single experiments give a significant test (p <= the true p) with the same
    winner, out of the run's experiments (``count``; ``percent`` = count per 100). ``reading``:
    another reading of "the same result" (:data:`AGREE_READINGS`)."""
    h = agreement_hits(result, metric, reading)
    if h.empty:
        return pd.DataFrame(columns=["partitioner", "scheme", "row", "column", "true p", "count", "experiments",
                                     "percent"])
    g = h.groupby(["partitioner", "scheme", "row", "column"], sort=False)
    out = g.agg(**{"true p": ("p_true", "first"), "count": ("hit", "sum"), "experiments": ("hit", "size")})
    out = out.reset_index()
    out["count"] = out["count"].astype(int)
    out["percent"] = 100.0 * out["count"] / out.experiments
    return out[["partitioner", "scheme", "row", "column", "true p", "count", "experiments", "percent"]]


def table_5_shown(t5: pd.DataFrame) -> pd.DataFrame:
    """Table V as the paper prints it: DOB-SCV 5x2, beside the paper's counts."""
    dob = t5[(t5.partitioner == "DOB-SCV") & (t5.scheme == "5x2")]
    pub5 = published.table_5().rename(columns={"count": "paper (of 100)"})
    return dob.merge(pub5, on=["row", "column"], how="outer")[
        ["row", "column", "true p", "count", "experiments", "percent", "paper (of 100)"]]


def table_6(result: MorenoRun, metric: str | None = None, reading: str = "paper") -> pd.DataFrame:
    """Table VI: mean of Table V (percent) per scheme and partitioner, with the average row, in
    long form beside the paper: scheme, partitioner, ours, paper, diff, pairs (significant pairs)."""
    t5 = table_5(result, metric, reading)
    ours = t5.groupby(["scheme", "partitioner"]).agg(ours=("percent", "mean"), pairs=("percent", "size"))
    ours = ours.reset_index()
    avg = ours.groupby("partitioner").agg(ours=("ours", "mean"), pairs=("pairs", "sum")).reset_index()
    avg["scheme"] = "Average"
    ours = pd.concat([ours, avg], ignore_index=True)
    paper = published.table_6().melt(id_vars="scheme", var_name="partitioner", value_name="paper")
    out = paper.merge(ours, on=["scheme", "partitioner"], how="left")
    out["diff"] = out.ours - out.paper
    return out[["scheme", "partitioner", "ours", "paper", "diff", "pairs"]]


def agreement_readings(result: MorenoRun, metric: str | None = None) -> pd.DataFrame:
    """Table VI's average row under each reading of "the same result" (:data:`AGREE_READINGS`),
    beside the paper's, and, over every pair of classifiers (true differences and non-differences)
    for one experiment (10 fits), the share of tests that agree with the truth and the false-alarm
    rate (:func:`budget_table`): one row per partitioner."""
    out = pd.DataFrame(index=pd.Index(list(PARTITIONERS), name="partitioner"))
    for key, words in AGREE_READINGS.items():
        t6 = table_6(result, metric, key)
        avg = t6[t6.scheme == "Average"].set_index("partitioner")
        if key == "paper":
            out["paper's Table VI"] = avg.paper
        out[f"Table VI: {words}" + (" (the paper's reading)" if key == "paper" else "")] = avg.ours
    bt = budget_table(result, metric)
    one = bt[bt["budget (fits)"] == 10].groupby("partitioner")[["agree %", "false alarms %"]].mean()
    out["all pairs: agree %"] = one["agree %"]
    out["all pairs: false alarms %"] = one["false alarms %"]
    return out.reset_index()


def table_7(result: MorenoRun) -> pd.DataFrame:
    """Table VII: experiments to converge (Algorithm 5), mean and sd over data sets, classifiers and
    repetitions, the share of capped replays, beside the paper."""
    c = result.convergence
    ours = c.groupby(["scheme", "partitioner"]).agg(mean=("n_experiments", "mean"), sd=("n_experiments", "std"),
                                                     capped=("capped", "mean")).reset_index()
    paper = published.table_7().rename(columns={"mean": "mean paper", "sd": "sd paper"})
    out = paper.merge(ours, on=["scheme", "partitioner"], how="left")
    out["mean diff"] = out["mean"] - out["mean paper"]
    return out[["scheme", "partitioner", "mean", "sd", "mean paper", "sd paper", "mean diff", "capped"]]


def table_7_readings(result: MorenoRun) -> pd.DataFrame:
    """Table VII's means under both readings of Algorithm 5's unit (:func:`run` replays both): per scheme
    and partitioner, experiments to converge accumulating experiments (the text's reading, Table
    VII) and accumulating single CV iterations, beside the paper's; with each reading's scheme order."""
    out = table_7(result)[["scheme", "partitioner", "mean", "mean paper"]].rename(
        columns={"mean": "per experiment (the text's)"})
    alt = result.convergence_by_iteration
    if alt is not None and len(alt):
        m = alt.groupby(["scheme", "partitioner"]).n_experiments.mean().rename("per iteration").reset_index()
        out = out.merge(m, on=["scheme", "partitioner"], how="left")
    return out


def shift_table(result: MorenoRun) -> pd.DataFrame:
    """Measured shift per partitioner and scheme (mean over data sets and partitions), and relative
    to SCV on the same data set and scheme (ratio of nearest-neighbour distances, MMD difference)."""
    s = result.shift.groupby(["dataset", "scheme", "partitioner"])[["nn_distance", "mmd"]].mean().reset_index()
    scv = s[s.partitioner == "SCV"].set_index(["dataset", "scheme"])
    key = list(zip(s.dataset, s.scheme))
    s["nn_vs_scv"] = s.nn_distance.to_numpy() / scv.loc[key, "nn_distance"].to_numpy()
    s["mmd_minus_scv"] = s.mmd.to_numpy() - scv.loc[key, "mmd"].to_numpy()
    out = s.groupby(["scheme", "partitioner"])[["nn_distance", "mmd", "nn_vs_scv", "mmd_minus_scv"]].mean()
    return out.reset_index()


def shift_relations(result: MorenoRun, metric: str | None = None) -> pd.DataFrame:
    """Per data set, partitioner and scheme: measured shift (nearest-neighbour distance relative to
    SCV), single-experiment error (mean |experiment AUC - true AUC| over classifiers and
    experiments) and mean experiments to converge; plus the Spearman correlations of shift with
    each, within data set and scheme (``rho_error``, ``rho_convergence`` in ``attrs``)."""
    metric = metric or result.params["metric"]
    s = result.shift.groupby(["dataset", "scheme", "partitioner"])[["nn_distance", "mmd"]].mean()
    e = result.experiments.merge(result.truth, on=["dataset", "learner", "scheme"], suffixes=("", "_true"))
    e["error"] = (e[metric] - e[f"{metric}_true"]).abs()
    err = e.groupby(["dataset", "scheme", "partitioner"]).error.mean()
    grouped = result.convergence.groupby(["dataset", "scheme", "partitioner"])
    conv = grouped.n_experiments.mean().where(grouped.capped.mean() <= 0.5)   # mostly capped: unknown
    out = pd.concat([s, err, conv.rename("convergence")], axis=1).reset_index()
    scv = out[out.partitioner == "SCV"].set_index(["dataset", "scheme"])
    key = list(zip(out.dataset, out.scheme))
    out["shift_vs_scv"] = out.nn_distance.to_numpy() / scv.loc[key, "nn_distance"].to_numpy()
    rho_e, rho_c = [], []
    for _, g in out.groupby(["dataset", "scheme"]):
        if g.shift_vs_scv.nunique() > 1 and g.error.nunique() > 1:
            rho_e.append(stats.spearmanr(g.shift_vs_scv, g.error).statistic)
        c = g.dropna(subset=["convergence"])
        if c.shift_vs_scv.nunique() > 1 and c.convergence.nunique() > 1:
            rho_c.append(stats.spearmanr(c.shift_vs_scv, c.convergence).statistic)
    out.attrs["rho_error"] = float(np.nanmean(rho_e)) if rho_e else float("nan")
    out.attrs["rho_convergence"] = float(np.nanmean(rho_c)) if rho_c else float("nan")
    out.attrs["positive_error"] = float(np.mean(np.array(rho_e) > 0)) if rho_e else float("nan")
    out.attrs["positive_convergence"] = float(np.mean(np.array(rho_c) > 0)) if rho_c else float("nan")
    return out


def budget_table(result: MorenoRun, metric: str | None = None) -> pd.DataFrame:
    """For a budget of ``b`` experiments (10 b fits per data set and classifier, the AUCs of b
    consecutive experiments averaged), per partitioner and scheme, over every pair of classifiers:
    ``agree %``, tests whose verdict (significant at p <= 0.1 with the same winner, or not
    significant) agrees with the truth; ``found %``, among truly different pairs, tests significant
    with the true winner; ``false alarms %``, among pairs not different in the truth, tests
    significant at p <= 0.1."""
    metric = metric or result.params["metric"]
    rows = []
    E = result.params["experiments"]
    for b in result.params["budgets"]:
        if b > E:
            continue
        singles = single_verdicts(result, metric, budget=b)
        singles = singles[singles.experiment < E // b]
        for scheme in SCHEMES:
            truth = true_verdicts(result, metric, scheme).set_index(["row", "column"])
            s = singles[singles.scheme == scheme]
            t = truth.loc[list(zip(s.row, s.column))]
            true_sig = t.significant.to_numpy()
            said_sig = s.p.to_numpy() <= ALPHA
            found = said_sig & (s.winner.to_numpy() == t.winner.to_numpy())
            frame = pd.DataFrame({"partitioner": s.partitioner.to_numpy(), "true_sig": true_sig,
                                  "agree": np.where(true_sig, found, ~said_sig), "found": found,
                                  "alarm": said_sig & ~true_sig})
            for part, g in frame.groupby("partitioner"):
                sig, non = g[g.true_sig], g[~g.true_sig]
                rows.append({"budget (fits)": 10 * b, "scheme": scheme, "partitioner": part,
                             "agree %": 100 * g.agree.mean(),
                             "found %": 100 * sig.found.mean() if len(sig) else np.nan,
                             "false alarms %": 100 * non.alarm.mean() if len(non) else np.nan, "tests": len(g)})
    return pd.DataFrame(rows)


BOOTSTRAP = 2000       # resamples behind every claim's 95% interval


def _resampled_hits(result: MorenoRun, metric: str | None, seed: int):
    """Per partitioner: the hits of :func:`agreement_hits` (cells x experiments), each cell's scheme, and
    ``BOOTSTRAP`` resamples of each cell's share of hits (cells x resamples), the single experiments drawn
    with replacement (independently per partitioner; the truth is held fixed)."""
    h = agreement_hits(result, metric)
    rng = np.random.default_rng(seed)
    for part, g in h.groupby("partitioner"):
        wide = g.pivot_table(index=["scheme", "row", "column"], columns="experiment", values="hit",
                             aggfunc="first").astype(float)
        m = wide.to_numpy()
        schemes = wide.index.get_level_values("scheme").to_numpy()
        cells = m[:, rng.integers(0, m.shape[1], (BOOTSTRAP, m.shape[1]))].mean(axis=2)
        yield part, m, schemes, cells


def table_6_intervals(result: MorenoRun, metric: str | None = None, seed: int = 0) -> pd.DataFrame:
    """95 % bootstrap intervals of Table VI's cells (ours) and average row, the single experiments
    resampled as in :func:`table_6_bootstrap`: scheme, partitioner, low, high (percent)."""
    rows = []
    for part, _, schemes, cells in _resampled_hits(result, metric, seed):
        boots = {s: cells[schemes == s].mean(axis=0) for s in dict.fromkeys(schemes)}
        boots["Average"] = np.mean(list(boots.values()), axis=0)
        rows += [{"scheme": s, "partitioner": part, "low": 100 * np.percentile(b, 2.5),
                  "high": 100 * np.percentile(b, 97.5)} for s, b in boots.items()]
    return pd.DataFrame(rows, columns=["scheme", "partitioner", "low", "high"])


def table_6_bootstrap(result: MorenoRun, metric: str | None = None, seed: int = 0) -> dict:
    """Table VI's average row per partitioner, and ``BOOTSTRAP`` resamples of it, each drawing the
    single experiments with replacement (independently per partitioner; the truth is held fixed):
    {partitioner: (estimate, resamples)}."""
    out = {}
    for part, m, schemes, cells in _resampled_hits(result, metric, seed):
        boot = np.mean([cells[schemes == s].mean(axis=0) for s in np.unique(schemes)], axis=0)
        est = np.mean([m[schemes == s].mean() for s in np.unique(schemes)])
        out[part] = (100 * est, 100 * boot)
    return out


def convergence_bootstrap(result: MorenoRun, by: str, seed: int = 0) -> dict:
    """Mean experiments to converge per ``by`` ("partitioner" or "scheme"), and ``BOOTSTRAP``
    resamples drawing the (data set, classifier) units with replacement (paired across ``by``):
    {value: (estimate, resamples)}."""
    c = result.convergence
    unit = c.groupby(["dataset", "learner", by]).n_experiments.mean().unstack(by)
    m = unit.to_numpy()
    idx = np.random.default_rng(seed).integers(0, len(m), (BOOTSTRAP, len(m)))
    boot = m[idx].mean(axis=1)                                           # resamples x values
    return {v: (float(m[:, j].mean()), boot[:, j]) for j, v in enumerate(unit.columns)}
