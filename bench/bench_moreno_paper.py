"""Moreno-Torres et al.'s paper profile in core-hours: the study's estimate by learner and data set.

Runs :func:`cvrepro.studies.moreno_torres2012.estimate_core_hours` at the ``paper`` profile (the
engine's path, CPU time) and prints the core-hours by learner, the costliest data sets, and the
CPU seconds per fit of the paper run (its core-hours over its 15,400 fits per data set and learner)
on the five largest data sets. ``python bench/bench_moreno_paper.py [out.csv] [--learners=SVM,PDFC]
[data set ...]`` (paper names; default all 27 and all nine learners) writes the Series to ``out.csv``.
"""
import sys
import time

from cvrepro.profiles import study_parameters
from cvrepro.studies import moreno_torres2012 as study

LARGEST = ["Mushroom", "Banana", "Phoneme", "Spambase", "Chess"]


def main(argv):
    out = next((a for a in argv if a.endswith(".csv")), None)
    learners = next((a.split("=", 1)[1].split(",") for a in argv if a.startswith("--learners=")), None)
    names = [a for a in argv if not a.endswith(".csv") and not a.startswith("--")]
    overrides = {**({"datasets": names} if names else {}), **({"learners": learners} if learners else {})}
    params = study_parameters("moreno_torres2012", "paper", **overrides)
    fits = len(study.SCHEMES) * len(study.PARTITIONERS) * params["experiments"] * 10 + params["true_partitions"] * sum(
        k for k, _ in study.SCHEMES.values())
    started = time.process_time()
    hours = study.estimate_core_hours(params, n_jobs=2)
    if out:
        hours.rename_axis(["dataset", "learner"]).to_csv(out)
    print(f"paper profile, {len(params['datasets'])} data sets: {hours.sum():.2f} core-hours "
          f"(measured in {time.process_time() - started:.0f} CPU s)")
    print("by learner: " + ", ".join(f"{k} {v:.2f}" for k, v in hours.groupby(level=1).sum().items()))
    top = hours.groupby(level=0).sum().sort_values(ascending=False).head(8)
    print("costliest data sets: " + ", ".join(f"{k} {v:.2f}" for k, v in top.items()))
    wide = hours.unstack() * 3600 / fits
    print(f"CPU seconds per fit of the paper run ({fits} fits per data set and learner):")
    print(wide.reindex([n for n in LARGEST if n in wide.index]).drop(columns="partitioning").round(4).to_string())


if __name__ == "__main__":
    main(sys.argv[1:])
