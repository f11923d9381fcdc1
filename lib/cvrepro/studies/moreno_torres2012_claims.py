"""Moreno-Torres et al. (2012), the claims: the paper's claims (Sec. VI), each tested as worded with a 95%
bootstrap interval."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..verdicts import DOES_NOT_HOLD, HOLDS, UNDECIDED, Claim, claims_table, from_interval, from_parts
from .moreno_torres2012_design import PARTITIONERS, SCHEMES
from .moreno_torres2012_runs import MorenoRun
from .moreno_torres2012_tables import budget_table, convergence_bootstrap, table_6_bootstrap

MUCH = 10.0            # percentage points: our reading of "much worse" and of "similar" (Table VI)


def _interval(samples) -> tuple[float, float]:
    return tuple(float(x) for x in np.percentile(samples, [2.5, 97.5]))


def _difference(stats_: dict, a: str, b: str, margin: float = 0.0):
    """(verdict that a - b > margin, evidence) from two (estimate, resamples) entries."""
    d = stats_[a][0] - stats_[b][0]
    lo, hi = _interval(stats_[a][1] - stats_[b][1])
    return from_interval(lo, hi, margin), f"{a} - {b} {d:+.1f} (95% interval {lo:+.1f} to {hi:+.1f})"


def claims(result: MorenoRun, metric: str | None = None) -> pd.DataFrame:
    """The paper's claims (Sec. VI), each tested as worded on ``result`` with a 95% bootstrap
    interval: Table VI's average row (single experiments resampled; the truth held fixed) and
    Table VII's means ((data set, classifier) units resampled). A claim is undecided when the
    interval cannot separate the effect; "much worse" and "similar" read as ``MUCH`` points."""
    rel = table_6_bootstrap(result, metric)
    out = []
    noise = (f"single experiments resampled ({result.params['experiments']} per cell), the truth "
             f"({result.params['true_partitions']} SCV partitions per scheme) held fixed")
    claim = "MS-SCV produces a much worse accuracy than all other partitioning strategies"
    where = "Sec. VI-A (1), Table VI"
    claim_2 = ("SCV has a lower accuracy than both DB-SCV and DOB-SCV", "Sec. VI-A (2), Table VI")
    claim_3 = ("DOB-SCV and DB-SCV obtain similar results, with a slight advantage for DOB-SCV",
               "Sec. VI-A (3), Table VI")
    if "MS-SCV" not in rel:
        out += [Claim(c, w, UNDECIDED, "no pair of classifiers differs significantly in the truth at this "
                      "scale, so Table VI is empty") for c, w in ((claim, where), claim_2, claim_3)]
    else:
        parts = [_difference(rel, p, "MS-SCV", MUCH) for p in ("DOB-SCV", "DB-SCV", "SCV")]
        bt = budget_table(result, metric)
        one = bt[bt["budget (fits)"] == 10].groupby("partitioner")[["agree %", "false alarms %"]].mean()
        out.append(Claim(claim, where, from_parts(v for v, _ in parts),
                         f"Table VI average (% agreeing), 'much' read as more than {MUCH:.0f} points: "
                         + "; ".join(e for _, e in parts) + f"; {noise}. Over every pair of classifiers a "
                         "single experiment agrees with the truth " + ", ".join(
                             f"{p} {one.loc[p, 'agree %']:.0f}%" for p in PARTITIONERS if p in one.index)
                         + " (false alarms " + ", ".join(f"{p} {one.loc[p, 'false alarms %']:.0f}%"
                                                         for p in PARTITIONERS if p in one.index) + ")"))
        parts = [_difference(rel, p, "SCV") for p in ("DB-SCV", "DOB-SCV")]
        out.append(Claim(*claim_2, from_parts(v for v, _ in parts),
                         "Table VI average: " + "; ".join(e for _, e in parts) + f"; {noise}"))
        _, e = _difference(rel, "DOB-SCV", "DB-SCV")
        lo, hi = _interval(rel["DOB-SCV"][1] - rel["DB-SCV"][1])
        v = HOLDS if 0 < lo and hi < MUCH else DOES_NOT_HOLD if hi <= 0 or lo >= MUCH else UNDECIDED
        out.append(Claim(*claim_3, v, f"Table VI average: {e}; 'similar' read as within "
                         f"{MUCH:.0f} points; {noise}"))
    out += _convergence_claims(result)
    return claims_table(out)


def _convergence_claims(result: MorenoRun) -> list:
    """Sec. VI-B's three claims on Table VII, each difference with a paired 95% interval."""
    c = result.convergence
    capped = float(c.capped.mean()) if len(c) else 1.0
    words = [("Covariate shift hampers stability: MS-SCV needs more experiments to converge than the other "
              "methods", "Sec. VI-B (1), Table VII"),
             ("DB-SCV and DOB-SCV converge faster than SCV", "Sec. VI-B (2), Table VII"),
             ("2x5 converges faster than 5x2 and 10x1, and 5x2 faster than 10x1", "Sec. VI-B (3), Table VII")]
    if capped > 0.5:
        why = (f"{100 * capped:.0f}% of the replays ran out of stored experiments "
               f"({result.params['convergence_experiments']}) before converging")
        return [Claim(cl, wh, UNDECIDED, why) for cl, wh in words]
    units = c.groupby(["dataset", "learner"]).ngroups
    noise = (f"paired bootstrap over {units} (data set, classifier) units, "
             f"{100 * capped:.0f}% of replays capped")
    part, scheme = convergence_bootstrap(result, "partitioner"), convergence_bootstrap(result, "scheme")
    checks = [[_difference(part, "MS-SCV", p) for p in ("DOB-SCV", "DB-SCV", "SCV")],
              [_difference(part, "SCV", p) for p in ("DB-SCV", "DOB-SCV")],
              [_difference(scheme, a, b) for a, b in (("5x2", "2x5"), ("10x1", "2x5"), ("10x1", "5x2"))]]
    out = [Claim(cl, wh, from_parts(v for v, _ in parts),
                 "mean experiments to converge: " + "; ".join(e for _, e in parts) + f"; {noise}")
           for (cl, wh), parts in zip(words, checks)]
    alt = result.convergence_by_iteration
    if alt is not None and len(alt):
        m = alt.groupby("scheme").n_experiments.mean()
        last = out[-1]
        out[-1] = Claim(last.claim, last.where, last.verdict, last.evidence + "; read with single CV iterations "
                        "as Algorithm 5's unit instead of experiments (not the text's reading): " + ", ".join(
                            f"{sc} {m[sc]:.1f}" for sc in SCHEMES if sc in m.index))
    return out
