"""Record WEKA 3.6 itself on notebook 03's samples: tests/fixtures/vanwinckelen2012/weka-samples.json.gz.

    CVREPRO_WEKA_JAR=/path/weka.jar .venv/bin/python tools/record_vanwinckelen_weka.py

For each case (population, sample of the study's N, learner), WEKA is trained on the sample T as an
ARFF file that declares the population's attribute values and classes (what WEKA sees when it reads the
population's file) and predicts ``TEST_ROWS`` rows drawn from D \\ T. LR runs on the strict JVM
(fdlibm exp/log, the port's reference, see cvrepro.learners.logistic). Stored per case: the test rows,
WEKA's predicted class (index into the population's classes) and the probability of that class. It
prints WEKA's accuracy on those rows, the majority-class rate and the share of each predicted class:
the evidence for notebook 03's matchups (issue 34). tests/test_study_vanwinckelen2012.py compares our
learners, told the population's classes, with these files.
"""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "vanwinckelen2012" / "weka-samples.json.gz"
TEST_ROWS = 1000
N = 200
# (population, samples, learner of the study, WEKA class, options, strict JVM)
CASES = [
    ("adult", (0, 1, 2), "LR", "weka.classifiers.functions.Logistic", ("-R", "1e-8", "-M", "500"), True),
    ("kr-vs-k", (0, 1), "LR", "weka.classifiers.functions.Logistic", ("-R", "1e-8", "-M", "500"), True),
    ("kr-vs-k", (0, 1), "NB", "weka.classifiers.bayes.NaiveBayes", (), False),
    ("adult", (0,), "NB", "weka.classifiers.bayes.NaiveBayes", (), False),
]


def test_rows(n_population: int, sample_rows: np.ndarray, sample: int) -> np.ndarray:
    """``TEST_ROWS`` rows of D \\ T, sorted, seeded by the sample number."""
    rest = np.setdiff1d(np.arange(n_population), sample_rows)
    return np.sort(np.random.default_rng(sample).choice(rest, TEST_ROWS, replace=False))


def main() -> None:
    sys.path.insert(0, str(ROOT / "lib"))
    from cvrepro.reference.weka import STRICT_EXP, WekaJob, run_jobs
    from cvrepro.studies import vanwinckelen2012 as study

    records = []
    for pop, samples, learner, classifier, options, strict in CASES:
        X, y = study.population(pop)
        jobs, meta = [], []
        for s in samples:
            rows = study.sample_rows(len(y), N, 0, pop, s)
            test = test_rows(len(y), rows, s)
            jobs.append(WekaJob(classifier, options, X, y, rows, test))
            meta.append((s, test))
        for (s, test), fold in zip(meta, run_jobs(jobs, STRICT_EXP if strict else ())):
            pred = fold.proba.argmax(axis=1)
            truth = y.cat.codes.to_numpy()[test]
            print(f"{pop} sample {s} {learner}: WEKA accuracy {np.mean(pred == truth):.4f}, majority rate "
                  f"{np.bincount(truth).max() / len(truth):.4f}, predicted classes "
                  f"{dict(zip(*np.unique(np.asarray(y.cat.categories)[pred], return_counts=True)))}")
            records.append({"population": pop, "N": N, "sample": s, "learner": learner, "classifier": classifier,
                            "options": list(options), "strict_math": strict, "test_rows": test.tolist(),
                            "pred": pred.tolist(), "p_pred": fold.proba.max(axis=1).tolist()})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(OUT, "wt", encoding="utf-8") as fh:
        json.dump({"format": "cvrepro-vanwinckelen-weka/1", "weka": "3.6.14 (Debian weka 3.6.14-3)",
                   "cases": records}, fh)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
