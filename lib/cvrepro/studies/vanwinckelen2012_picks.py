"""Vanwinckelen & Blockeel (2012), Sec. 5.2 and Tables 1-3: which model does CV pick? Our 2x2 tables beside
the paper's, its readings, the worked examples' conditional probabilities, the win shares and pick rates.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ..published import vanwinckelen2012 as paper
from .vanwinckelen2012_conditional import conditional_errors
from .vanwinckelen2012_design import LEARNERS, TABLE_POPULATIONS, make_learners, runs_fold
from .vanwinckelen2012_runs import Experiment, store_folders


# --------------------------------------------------------------------------- #
# Tables 1-3: which model does CV pick?
# --------------------------------------------------------------------------- #
def pairs(learners=LEARNERS) -> list[tuple[str, str]]:
    """The learner pairs of Tables 1-3, in the paper's order."""
    return list(itertools.combinations(learners, 2))


def _cv_at(exp: Experiment, reps: int, k: int, pops) -> pd.DataFrame:
    """Per population, sample and learner: the mean CV error of the first ``reps`` iterations."""
    it = exp.iterations[(exp.iterations.k == k) & exp.iterations.population.isin(pops) &
                        (exp.iterations.iteration < reps)]
    return it.groupby(["population", "sample", "learner"])["error"].mean().unstack("learner")


def contingency(exp: Experiment) -> pd.DataFrame:
    """The 2x2 tables of Tables 1-3 on our samples: per pair, table population, k, and without
    repetition (``repeated`` False) and with ``min(table_repetitions, repetitions[k])``.

    ``cv L1, true L1`` counts samples where CV picks L1 (strictly lower CV error) and L1 has the
    lower conditional error, and so on (reading A of :mod:`cvrepro.published.vanwinckelen2012`);
    ``cv ties`` / ``true ties``: samples with equal CV / conditional errors (counted for L2).
    """
    p = exp.params
    cond = exp.conditional.pivot_table(index=["population", "sample"], columns="learner", values="error")
    rows = []
    for k in p["folds"]:
        reps_max = exp.repetitions[k]
        for repeated, reps in ((False, 1), (True, min(p["table_repetitions"], reps_max))):
            cv = _cv_at(exp, reps, k, p["table_populations"])
            for pop in p["table_populations"]:
                if not runs_fold(p, pop, k):
                    continue
                c, e = cv.loc[pop], cond.loc[pop]
                for l1, l2 in pairs(p["learners"]):
                    cv1 = (c[l1] < c[l2]).to_numpy()
                    true1 = (e[l1] < e[l2]).reindex(c.index).to_numpy()
                    rows.append({"L1": l1, "L2": l2, "population": pop, "k": int(k), "repeated": repeated,
                                 "repetitions": reps, "samples": len(c),
                                 paper.READING_A[0]: int((cv1 & true1).sum()),
                                 paper.READING_A[1]: int((cv1 & ~true1).sum()),
                                 paper.READING_A[2]: int((~cv1 & true1).sum()),
                                 paper.READING_A[3]: int((~cv1 & ~true1).sum()),
                                 "cv ties": int((c[l1] == c[l2]).sum()),
                                 "true ties": int((e[l1] == e[l2]).reindex(c.index).sum())})
    return pd.DataFrame(rows)


def _matrix(a, b, c, d) -> str:
    return f"{a:g} {b:g} / {c:g} {d:g}"


def table_contingency(ours: pd.DataFrame) -> pd.DataFrame:
    """Our tables (as counts per 100 samples) beside the published ones, by pair, population, k and
    repetition. ``picks winner``: % of samples where CV picks the learner with the lower eps_c (a + d);
    ``distance``: half the summed absolute differences of the four cells (per 100 samples) with the
    table as printed and with its rows flipped; ``closer``: which reading of the printed table is
    nearer ours."""
    pub = paper.contingency_tables()
    pub["repeated"] = pub["repetitions"] > 1
    cells = list(paper.READING_A)
    merged = ours.merge(pub[["L1", "L2", "population", "k", "repeated", "repetitions", *cells]],
                        on=["L1", "L2", "population", "k", "repeated"], how="left", suffixes=("", " paper"))
    rows = []
    for d in merged.to_dict("records"):
        scale = 100.0 / d["samples"]
        o = np.array([d[c] for c in cells], dtype=float) * scale
        row = {"L1": d["L1"], "L2": d["L2"], "population": d["population"], "k": d["k"],
               "repetitions": d["repetitions"], "ours (per 100)": _matrix(*np.round(o, 1)),
               "picks winner ours": o[0] + o[3]}
        if pd.isna(d["repetitions paper"]):
            row.update({"paper": "", "picks winner paper": np.nan, "picks winner diff": np.nan,
                        "distance": np.nan, "distance rows flipped": np.nan, "closer": ""})
        else:
            q = np.array([d[c + " paper"] for c in cells], dtype=float)
            flipped = q[[2, 3, 0, 1]]
            dist, dist_f = np.abs(o - q).sum() / 2, np.abs(o - flipped).sum() / 2
            row.update({"paper": _matrix(*q.astype(int)) + f" ({int(d['repetitions paper'])} rep.)",
                        "picks winner paper": q[0] + q[3], "picks winner diff": o[0] + o[3] - q[0] - q[3],
                        "distance": dist, "distance rows flipped": dist_f,
                        "closer": "as printed" if dist < dist_f else "rows flipped" if dist_f < dist else "tie"})
        rows.append(row)
    return pd.DataFrame(rows)


PAPER_TABLES = {1: ("NB",), 2: ("C4.5",), 3: ("4NN", "10NN", "LR")}   # L1 of the pairs in Tables 1-3


def wide_contingency(table: pd.DataFrame, number: int) -> pd.DataFrame:
    """One of the paper's Tables 1-3 laid out as printed: a row per pair, population and
    repetition; per k, ours (per 100 samples) and the paper's table, and the difference in the
    share of samples where CV picks the winner (pp)."""
    t = table[table.L1.isin(PAPER_TABLES[number])].copy()
    t["pair"] = t.L1 + "-" + t.L2
    t["rep."] = np.where(t.repetitions > 1, "R", "1")
    rows = []
    for (pair, pop, _), g in t.groupby(["pair", "population", "rep."], sort=False):
        row = {"pair": pair, "population": pop, "repetitions": "/".join(map(str, sorted(set(g.repetitions))))}
        for r in g.itertuples(index=False):
            row[f"{r.k}-fold ours"] = r[list(t.columns).index("ours (per 100)")]
            row[f"{r.k}-fold paper"] = r.paper or "-"
            row[f"{r.k}-fold diff"] = r[list(t.columns).index("picks winner diff")]
        rows.append(row)
    return pd.DataFrame(rows)


def reading_summary(table: pd.DataFrame) -> pd.DataFrame:
    """How our tables compare with the published ones: mean distance (per 100 samples) as printed
    and with rows flipped, and how many tables each reading fits better, by population."""
    t = table.dropna(subset=["distance"])
    g = t.groupby("population", sort=False)
    out = g.agg(tables=("distance", "size"), distance=("distance", "mean"),
                **{"distance rows flipped": ("distance rows flipped", "mean")},
                **{"picks winner ours": ("picks winner ours", "mean")},
                **{"picks winner paper": ("picks winner paper", "mean")}).reset_index()
    counts = t.groupby(["population", "closer"]).size().unstack(fill_value=0)
    for c in ("as printed", "rows flipped", "tie"):
        out[f"closer: {c}"] = out["population"].map(counts[c] if c in counts else {}).fillna(0).astype(int)
    return out


_EVENTS = {
    "P(L1 wins | CV picks L1)": ("true1", "cv1"), "P(L2 wins | CV picks L1)": ("true2", "cv1"),
    "P(L1 wins | CV picks L2)": ("true1", "cv2"), "P(L2 wins | CV picks L2)": ("true2", "cv2"),
    "P(CV picks L1 | L1 wins)": ("cv1", "true1"), "P(CV picks L2 | L1 wins)": ("cv2", "true1"),
    "P(CV picks L1 | L2 wins)": ("cv1", "true2"), "P(CV picks L2 | L2 wins)": ("cv2", "true2"),
}


def conditional_probabilities(ours: pd.DataFrame) -> pd.DataFrame:
    """Sec. 5.2's two worked examples (2-fold, no repetition) on our samples beside the printed values."""
    pub = paper.conditional_probabilities()
    rows = []
    for r in pub.itertuples(index=False):
        cell = ours[(ours.L1 == r.L1) & (ours.L2 == r.L2) & (ours.population == r.population) &
                    (ours.k == r.k) & ~ours.repeated]
        value, frac = np.nan, ""
        if len(cell):
            c = cell.iloc[0]
            n = {"cv1": c[paper.READING_A[0]] + c[paper.READING_A[1]],
                 "cv2": c[paper.READING_A[2]] + c[paper.READING_A[3]],
                 "true1": c[paper.READING_A[0]] + c[paper.READING_A[2]],
                 "true2": c[paper.READING_A[1]] + c[paper.READING_A[3]]}
            joint = {("true1", "cv1"): c[paper.READING_A[0]], ("true2", "cv1"): c[paper.READING_A[1]],
                     ("true1", "cv2"): c[paper.READING_A[2]], ("true2", "cv2"): c[paper.READING_A[3]]}
            event, given = _EVENTS[r.event]
            num = joint.get((event, given), joint.get((given, event)))
            value = num / n[given] if n[given] else np.nan
            frac = f"{num}/{n[given]}"
        rows.append({"comparison": f"{r.L1} vs {r.L2}, {r.population}, {r.k}-fold", "event": r.event,
                     "ours": value, "ours (fraction)": frac, "paper": r.value,
                     "paper (fraction)": f"{r.numerator}/{r.denominator}", "diff": value - r.value,
                     "note": r.note})
    return pd.DataFrame(rows)


def win_shares(conditional: pd.DataFrame, sample_size: int) -> pd.DataFrame:
    """Per table population and pair: the share of samples on which L1 has the strictly lower
    conditional error, ours (from ``conditional``: population, sample, learner, error) beside the
    paper's (its tables' first column, a + c, the same under either reading of the rows; mean, min
    and max over its no-repetition and 30-repetition tables). eps_c does not depend on CV."""
    pub = paper.contingency_tables().assign(share=lambda t: (t.a + t.c) / 100)
    pub = pub.groupby(["population", "L1", "L2"], sort=False).share.agg(["mean", "min", "max"])
    cond = conditional.pivot_table(index=["population", "sample"], columns="learner", values="error")
    rows = []
    for pop in [x for x in TABLE_POPULATIONS if x in cond.index.get_level_values(0)]:
        c = cond.loc[pop]
        for l1, l2 in pairs([x for x in LEARNERS if x in c.columns]):
            theirs = pub.loc[(pop, l1, l2)]
            ours = float((c[l1] < c[l2]).mean())
            rows.append({"population": pop, "N": int(sample_size), "samples": len(c), "L1": l1, "L2": l2,
                         "ours": ours, "paper": theirs["mean"], "paper min": theirs["min"],
                         "paper max": theirs["max"], "distance": abs(ours - theirs["mean"])})
    return pd.DataFrame(rows)


def win_shares_by_n(exp: Experiment, store=None, n_jobs: int = 1, backend="loky") -> pd.DataFrame:
    """:func:`win_shares` at the run's N (its samples) and, with the extension ``"sweep"``, at each N of
    ``sweep_sizes`` on the ``sweep_samples`` samples of the table populations among ``sweep_populations``
    (conditional errors only, no CV; cached in ``store/conditional`` as the sweep's are)."""
    p = exp.params
    parts = [win_shares(exp.conditional, p["sample_size"])]
    if "sweep" in p.get("extensions", []):
        pops = [x for x in p["sweep_populations"] if x in TABLE_POPULATIONS]
        _, cond_store = store_folders(store)
        for size in [n for n in p["sweep_sizes"] if int(n) != int(p["sample_size"])]:
            cond = conditional_errors({pop: list(range(p["sweep_samples"])) for pop in pops},
                                      make_learners(p["learners"]), int(size), p["seed"], cond_store, n_jobs,
                                      backend, False)
            parts.append(win_shares(cond, int(size)))
    return pd.concat(parts, ignore_index=True).sort_values(["population", "N"], kind="stable", ignore_index=True)


def win_share_distances(shares: pd.DataFrame) -> pd.DataFrame:
    """Per population and N: the mean |ours - paper| of the win shares over the 15 pairs, and how many
    pairs fall inside the range of the paper's tables (widened by 0.1 for our sampling noise)."""
    inside = (shares.ours >= shares["paper min"] - 0.1) & (shares.ours <= shares["paper max"] + 0.1)
    g = shares.assign(inside=inside).groupby(["population", "N"], sort=False)
    return g.agg(samples=("samples", "first"), pairs=("distance", "size"), distance=("distance", "mean"),
                 **{"pairs near the paper": ("inside", "sum")}).reset_index()


def pick_rates(ours: pd.DataFrame) -> pd.DataFrame:
    """Share of samples on which CV picks the learner with the lower conditional error, per
    population, k and repetition (mean over the pairs), ours and the paper's under three readings
    of its tables: as printed (a + d, reading A), every table's rows flipped (b + c, the second
    worked example's reading), and each table in the orientation with the larger diagonal."""
    t = ours.assign(picks=(ours[paper.READING_A[0]] + ours[paper.READING_A[3]]) / ours["samples"])
    mine = t.groupby(["population", "k", "repeated"], as_index=False).agg(ours=("picks", "mean"))
    pub = paper.contingency_tables()
    readings = {"paper": (pub.a + pub.d) / 100, "paper, rows flipped": (pub.b + pub.c) / 100}
    readings["paper, larger diagonal"] = np.maximum(*readings.values())
    pub = pub.assign(repeated=pub.repetitions > 1, **readings)
    theirs = pub.groupby(["population", "k", "repeated"], as_index=False)[list(readings)].mean()
    out = mine.merge(theirs, on=["population", "k", "repeated"], how="left")
    out["diff"] = out["ours"] - out["paper"]
    return out
