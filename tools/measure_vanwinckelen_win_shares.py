"""Measure notebook 03's eps_c win shares against the paper's at several N (conditional errors only, no CV).

    nice .venv/bin/python tools/measure_vanwinckelen_win_shares.py --populations adult kr-vs-k \\
        --sizes 200 1000 --samples 10 --store results/vanwinckelen2012/conditional

For each population and N: the conditional error of the six learners (classes declared, as the study
fits them) on the first ``--samples`` samples, the share of samples on which each pair's L1 wins beside
the paper's (:func:`cvrepro.studies.vanwinckelen2012.win_shares`), and the mean distance per population
and N. The table it printed is quoted in lib/cvrepro/studies/vanwinckelen2012_text.py (above ``describe_win_shares``).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> None:
    sys.path.insert(0, str(ROOT / "lib"))
    import pandas as pd

    from cvrepro.studies import vanwinckelen2012 as study

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--populations", nargs="+", default=list(study.TABLE_POPULATIONS))
    ap.add_argument("--sizes", nargs="+", type=int, default=[200, 1000])
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--store", default=None, help="conditional-error cache (the study's store/conditional)")
    ap.add_argument("--n-jobs", type=int, default=2)
    args = ap.parse_args(argv)
    parts = []
    for size in args.sizes:
        cond = study.conditional_errors({pop: list(range(args.samples)) for pop in args.populations},
                                        study.make_learners(), size, 0, args.store, args.n_jobs, "loky", False)
        parts.append(study.win_shares(cond, size))
        print(cond.assign(accuracy=1 - cond.error).groupby(["population", "learner"]).accuracy.mean()
              .unstack().round(3).to_string(), flush=True)
    shares = pd.concat(parts, ignore_index=True)
    print(shares.round(2).to_string())
    print(study.win_share_distances(shares).round(2).to_string())


if __name__ == "__main__":
    main()
