"""Measure what capping WEKA Logistic's iterations (``-M m``) changes in notebook 03's LR.

    nice .venv/bin/python tools/measure_vanwinckelen_lr_cap.py --samples 20 --n-jobs 2

For each population (kr-vs-k, abalone: the two where WEKA's Logistic is slow) and each of the first
``--samples`` samples of the study's sample size N, LR is fitted with ``-M -1`` (until convergence,
the uncapped reference) and with ``-M m`` for every m: on the whole sample (its conditional error
eps_c on D \\ T) and on the ten training sets of one stratified 10-fold partition of the sample (its
CV estimate). Printed: CPU seconds per fit, the share of fits stopped by the cap, and the mean / max
|difference| from the uncapped fit in eps_c and in the CV estimate. Per-sample rows go to
``--out`` (CSV; a rerun skips the samples already there). The table it printed is quoted in
lib/cvrepro/studies/vanwinckelen2012_design.py (``LR_MAX_ITER``).
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CAPS = (100, 200, 500, 1000)


def measure(pop: str, sample: int, caps, sample_size: int, seed: int) -> list[dict]:
    """One sample: for -M -1 and every cap, eps_c, the 10-fold CV error, CPU seconds and cap hits."""
    from sklearn.model_selection import StratifiedKFold
    from threadpoolctl import threadpool_limits

    from cvrepro.learners.logistic import WekaLogistic
    from cvrepro.studies import vanwinckelen2012 as vb

    X, y = vb.population(pop)
    labels = y.to_numpy()
    idx = vb.sample_rows(len(labels), sample_size, seed, pop, sample)
    held = np.ones(len(labels), dtype=bool)
    held[idx] = False
    XT, yT = X.iloc[idx].reset_index(drop=True), labels[idx]
    Xheld, yheld = X[held].reset_index(drop=True), labels[held]
    rows = []
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        folds = list(StratifiedKFold(10, shuffle=True, random_state=sample).split(XT, yT))
        for m in (-1, *caps):
            seconds, hits, fits = 0.0, 0, 0

            def fit(Xa, ya, m=m):
                nonlocal seconds, hits, fits
                started = time.process_time()
                model = WekaLogistic(ridge=1e-8, max_iter=m).fit(Xa, ya)
                seconds += time.process_time() - started
                hits += not model.converged_
                fits += 1
                return model

            cond = float(np.mean(fit(XT, yT).predict(Xheld) != yheld))
            wrong = 0
            for train, test in folds:
                model = fit(XT.iloc[train], yT[train])
                wrong += int(np.sum(model.predict(XT.iloc[test]) != yT[test]))
            rows.append({"population": pop, "sample": sample, "max_iter": m, "eps_c": cond,
                         "cv": wrong / len(yT), "fits": fits, "cap_hits": hits, "seconds": seconds})
    return rows


def summarise(table):
    """Per population and cap: seconds per fit, share of capped fits, mean / max |diff| from -M -1."""
    import pandas as pd

    ref = table[table.max_iter == -1].set_index(["population", "sample"])[["eps_c", "cv"]]
    out = []
    for (pop, m), g in table.groupby(["population", "max_iter"]):
        g = g.set_index(["population", "sample"])
        d = (g[["eps_c", "cv"]] - ref.loc[g.index]).abs()
        out.append({"population": pop, "M": m, "samples": len(g),
                    "s/fit": g.seconds.sum() / g.fits.sum(), "capped": g.cap_hits.sum() / g.fits.sum(),
                    "mean |d eps_c|": d.eps_c.mean(), "max |d eps_c|": d.eps_c.max(),
                    "mean |d CV|": d.cv.mean(), "max |d CV|": d.cv.max()})
    return pd.DataFrame(out)


def main(argv: list[str]) -> int:
    import pandas as pd
    from joblib import Parallel, delayed

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--populations", nargs="+", default=["kr-vs-k", "abalone"])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--caps", type=int, nargs="+", default=list(CAPS))
    parser.add_argument("--sample-size", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", default=str(ROOT / "build" / "lr_cap.csv"))
    args = parser.parse_args(argv)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = pd.read_csv(out) if out.exists() else pd.DataFrame(columns=["population", "sample"])
    have = set(zip(done["population"], done["sample"]))
    tasks = [(pop, s) for s in range(args.samples) for pop in args.populations if (pop, s) not in have]
    for rows in Parallel(n_jobs=args.n_jobs, return_as="generator_unordered")(
            delayed(measure)(pop, s, args.caps, args.sample_size, args.seed) for pop, s in tasks):
        pd.DataFrame(rows).to_csv(out, mode="a", header=not out.exists(), index=False)
        print(f"{rows[0]['population']} sample {rows[0]['sample']}: "
              + ", ".join(f"M{r['max_iter']} {r['seconds']:.1f}s" for r in rows), flush=True)
    table = pd.read_csv(out)
    table = table[table.population.isin(args.populations) & (table["sample"] < args.samples)]
    with pd.option_context("display.width", 200, "display.float_format", "{:.4f}".format):
        print(summarise(table).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
