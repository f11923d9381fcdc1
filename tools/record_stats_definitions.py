"""Record the defining papers' values for three statistics edge cases (issue 32) in exact arithmetic.

Run: ``python tools/record_stats_definitions.py``; writes tests/fixtures/stats/definitions.json, which
tests/test_stats_oracles.py reads. No cvrepro code is used: each value is the paper's formula
evaluated with ``fractions.Fraction`` (R has no function for these three):

* Efron & Tibshirani (1997), eqs. 30-32, the .632+ estimate:
  ``Err(.632+) = Err(.632) + (Err(1)' - err) .368 .632 R' / (1 - .368 R')`` with
  ``Err(.632) = .368 err + .632 Err(1)``, ``Err(1)' = min(Err(1), gamma)``,
  ``R' = (Err(1)' - err) / (gamma - err)`` if Err(1) > err and gamma > err, else 0.
* Demsar (2006), Sec. 3.1.3, Wilcoxon signed ranks: "Ranks of d_i = 0 are split evenly among the
  sums; if there is an odd number of them, one is ignored."
* Raeder, Hoens & Chawla (2010), Sec. V, the KS criterion: D between the empirical CDFs of the odd
  and even iterations (a rational number), stop at the first iteration with D < threshold.
"""
from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "stats" / "definitions.json"


def e632_plus(err, err1, gamma):
    err1p = min(err1, gamma)
    r = (err1p - err) / (gamma - err) if err1 > err and gamma > err else F(0)
    e632 = F("0.368") * err + F("0.632") * err1
    return e632 + (err1p - err) * F("0.368") * F("0.632") * r / (1 - F("0.368") * r), r


def demsar_rank_sums(d):
    d = list(d)
    zeros = [i for i, v in enumerate(d) if v == 0]
    if len(zeros) % 2:
        del d[zeros[0]]
    ordered = sorted(abs(v) for v in d)
    rank = {a: F(sum(i + 1 for i, b in enumerate(ordered) if b == a), ordered.count(a)) for a in set(ordered)}
    plus = sum((rank[abs(v)] for v in d if v > 0), F(0)) + sum((rank[F(0)] for v in d if v == 0), F(0)) / 2
    minus = sum((rank[abs(v)] for v in d if v < 0), F(0)) + sum((rank[F(0)] for v in d if v == 0), F(0)) / 2
    return plus, minus, len(d)


def ks_stop(seq, threshold):
    """(iteration of the first stop or None, exact D after each iteration from the second)."""
    path, stop = [], None
    for n in range(2, len(seq) + 1):
        odd, even = seq[0:n:2], seq[1:n:2]
        d = max(abs(F(sum(v <= x for v in odd), len(odd)) - F(sum(v <= x for v in even), len(even)))
                for x in set(odd) | set(even))
        path.append(d)
        if stop is None and d < threshold:
            stop = n
    return stop, path


def main():
    plus = []
    for err, err1, gamma, note in [("0", "0.88", "0.5", "Err(1) > gamma (1-NN on alternating labels, issue 32)"),
                                   ("0", "0.6", "0.5", "Err(1) > gamma"),
                                   ("0.1", "0.3", "0.5", "err < Err(1) < gamma"),
                                   ("0.2", "0.15", "0.5", "Err(1) <= err: R' = 0, .632"),
                                   ("0.05", "0.4", "0.4", "Err(1) = gamma: R' = 1")]:
        value, r = e632_plus(F(err), F(err1), F(gamma))
        plus.append({"err": float(err), "err1": float(err1), "gamma": float(gamma), "e632_plus": float(value),
                     "r_prime": float(r), "note": note})
    wil = []
    for d in (["0", "0", "0", "0.1", "-0.2", "0.3", "0.4"], ["0", "0.1", "-0.2", "0.3", "0.4", "-0.5"],
              ["0", "0", "0.1", "-0.2", "0.3"], ["0", "0", "0", "0", "0", "-0.1", "0.2", "0.3"]):
        p, m, n = demsar_rank_sums([F(v) for v in d])
        wil.append({"d": [float(v) for v in d], "r_plus": float(p), "r_minus": float(m), "n": n})
    seq = [0.73, 0.76, 0.84, 0.84, 0.84, 0.85, 0.72, 0.72, 0.87, 0.77, 0.81, 0.8]
    ks = []
    for threshold in ("0.2", "0.3", "0.1"):
        stop, path = ks_stop([F(str(v)) for v in seq], F(threshold))
        ks.append({"estimates": seq, "threshold": float(threshold), "first_stop": stop,
                   "d_exact": [f"{d.numerator}/{d.denominator}" for d in path]})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"efron_tibshirani1997_632_plus": plus, "demsar2006_zsplit": wil,
                               "raeder2010_ks_rule": ks}, indent=1) + "\n")


if __name__ == "__main__":
    main()
