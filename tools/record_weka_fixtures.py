"""Record the real WEKA 3.6's outputs as parity fixtures: tests/fixtures/weka/<case>--<data set>.json.gz.

Run once with the jar present (``CVREPRO_WEKA_JAR=/path/weka.jar .venv/bin/python
tools/record_weka_fixtures.py [case ids]``); the parity tests
(tests/test_learners_weka.py) compare our learners with these files on every
run, and with the live WEKA when the jar is found. The format is described in
tests/fixtures/weka/README.md. Each case names our learner (a registry name
and parameters) and the WEKA command line it must reproduce; folds are
``StratifiedKFold(3, shuffle=True, random_state=case.fold_seed)`` (0 unless the
case says otherwise) over the catalog's rows.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.reference.weka import STRICT_EXP, WekaJob, find_jar, run_jobs

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "weka"
FORMAT = "cvrepro-weka-fixture/1"
N_FOLDS = 3


@dataclass(frozen=True)
class Case:
    """One WEKA configuration and our learner that must reproduce it, on some data sets."""

    id: str
    learner: str                     # a name of cvrepro.learners.make_learner
    classifier: str                  # WEKA class
    options: tuple
    datasets: tuple
    params: dict = field(default_factory=dict)
    strict_math: bool = False        # run the JVM with STRICT_EXP (fdlibm exp/log), the learner's reference
    model: str = ""                  # how the tests compare printed models ("" = not compared)
    fold_seed: int = 0               # random_state of the StratifiedKFold that makes the folds


CASES = [
    Case("J48", "C4.5", "weka.classifiers.trees.J48", (),
         ("vote", "labor", "crx", "soybean", "credit-g", "segment", "chess", "banana"), model="j48"),
    Case("J48-U", "C4.5", "weka.classifiers.trees.J48", ("-U",), ("vote", "crx"), {"unpruned": True},
         model="j48"),
    Case("NaiveBayes-K", "NB", "weka.classifiers.bayes.NaiveBayes", ("-K",), ("vote", "labor", "pima", "glass")),
    Case("NaiveBayes", "NB-normal", "weka.classifiers.bayes.NaiveBayes", (), ("vote", "pima", "glass")),
    Case("IBk-K1", "IBk-1", "weka.classifiers.lazy.IBk", ("-K", "1"), ("vote", "glass")),
    Case("IBk-K3", "IBk-3", "weka.classifiers.lazy.IBk", ("-K", "3"), ("labor", "pima")),
    Case("IBk-K4", "4NN", "weka.classifiers.lazy.IBk", ("-K", "4"), ("glass", "breast-w")),
    Case("IBk-K5", "5-NN", "weka.classifiers.lazy.IBk", ("-K", "5"), ("vote", "labor", "pima", "glass")),
    Case("IBk-K10", "10NN", "weka.classifiers.lazy.IBk", ("-K", "10"), ("pima", "soybean")),
    Case("PART", "PART", "weka.classifiers.rules.PART", (), ("labor", "crx", "vote", "credit-g", "soybean", "segment"),
         model="part"),
    Case("SMO", "SMO", "weka.classifiers.functions.SMO", (), ("vote", "pima", "glass")),
    Case("MLP-H3", "MLP", "weka.classifiers.functions.MultilayerPerceptron", ("-H", "3"), ("labor", "glass"),
         strict_math=True, model="mlp"),
    Case("AdaBoostM1", "Boosting", "weka.classifiers.meta.AdaBoostM1", (), ("vote", "crx", "glass")),
    Case("Logistic", "LR", "weka.classifiers.functions.Logistic", (),
         ("labor", "vote", "crx", "glass", "breast-cancer", "zoo", "iris"), strict_math=True, model="logistic"),
    # -M: one search of at most that many iterations, its last iterate kept when it has not converged
    # (notebook 03 caps LR's iterations); 20 stops the search early on every fold of these sets
    Case("Logistic-M20", "LR", "weka.classifiers.functions.Logistic", ("-M", "20"),
         ("glass", "zoo", "vote", "breast-cancer"), {"max_iter": 20}, strict_math=True, model="logistic"),
    Case("REPTree", "REPTree", "weka.classifiers.trees.REPTree", (),
         ("vote", "labor", "soybean", "crx", "glass", "breast-w"), model="text"),
    Case("REPTree-P", "REPTree", "weka.classifiers.trees.REPTree", ("-P",), ("vote", "glass"), {"pruning": False},
         model="text"),
    Case("Bagging", "Bagging", "weka.classifiers.meta.Bagging", (), ("vote", "labor", "glass", "soybean"),
         model="text"),
    Case("Bagging-P60-S3", "Bagging", "weka.classifiers.meta.Bagging", ("-P", "60", "-S", "3"), ("vote", "glass"),
         {"bag_size_percent": 60, "random_state": 3}, model="text"),
    Case("RandomTree-K3-S7", "RandomTree", "weka.classifiers.trees.RandomTree", ("-K", "3", "-S", "7"),
         ("vote", "crx"), {"k_value": 3, "random_state": 7}, model="text"),
    Case("RandomTree", "RandomTree", "weka.classifiers.trees.RandomTree", (),
         ("vote", "labor", "soybean", "crx", "glass", "breast-w"), model="text"),
    Case("RandomForest-I10", "RF", "weka.classifiers.trees.RandomForest", ("-I", "10"),
         ("vote", "labor", "soybean", "crx", "glass", "breast-w"), model="text"),
    Case("Perceptron-H0", "Perceptron", "weka.classifiers.functions.MultilayerPerceptron", ("-H", "0"),
         ("labor", "glass", "iris"), strict_math=True),
    # JRip and OneR: folds of another seed than the ones used while porting them
    Case("JRip", "JRip", "weka.classifiers.rules.JRip", (), ("vote", "soybean", "crx", "glass", "labor", "segment"),
         model="text", fold_seed=777),
    Case("JRip-F4-N1-O1-S7", "JRip", "weka.classifiers.rules.JRip", ("-F", "4", "-N", "1.0", "-O", "1", "-S", "7"),
         ("glass", "vote"), {"folds": 4, "min_no": 1.0, "optimizations": 1, "random_state": 7}, model="text",
         fold_seed=777),
    Case("JRip-P-E", "JRip", "weka.classifiers.rules.JRip", ("-P", "-E"), ("crx", "soybean"),
         {"use_pruning": False, "check_error_rate": False}, model="text", fold_seed=777),
    Case("OneR", "OneR", "weka.classifiers.rules.OneR", (), ("vote", "soybean", "crx", "glass", "labor", "iris"),
         model="text", fold_seed=777),
    Case("OneR-B3", "OneR", "weka.classifiers.rules.OneR", ("-B", "3"), ("glass", "crx"), {"min_bucket_size": 3},
         model="text", fold_seed=777),
]


def folds_of(name: str, seed: int = 0) -> np.ndarray:
    """Fold number (0..N_FOLDS-1) of every row of data set ``name`` (the test fold it belongs to)."""
    ds = load_dataset(name)
    fold = np.empty(len(ds.y), dtype=np.int64)
    for k, (_, test) in enumerate(StratifiedKFold(N_FOLDS, shuffle=True, random_state=seed).split(ds.X, ds.y)):
        fold[test] = k
    return fold


def _java_version() -> str:
    proc = subprocess.run(["java", "-version"], capture_output=True, text=True)
    return proc.stderr.splitlines()[0] if proc.stderr else "unknown"


def record(cases, jar: str) -> list[Path]:
    """Run WEKA on every case and write its fixture files; returns the paths written."""
    OUT.mkdir(parents=True, exist_ok=True)
    jar_sha = hashlib.sha256(Path(jar).read_bytes()).hexdigest()
    written = []
    for strict in (False, True):
        batch = [(c, name) for c in cases if c.strict_math == strict for name in c.datasets]
        if not batch:
            continue
        jobs, meta = [], []
        for case, name in batch:
            ds = load_dataset(name)
            X = ds.X.set_axis([f"a{j}" for j in range(ds.X.shape[1])], axis=1)
            fold = folds_of(name, case.fold_seed)
            for k in range(N_FOLDS):
                jobs.append(WekaJob(case.classifier, case.options, X, ds.y, np.flatnonzero(fold != k),
                                    np.flatnonzero(fold == k)))
            meta.append((case, name, fold))
        print(f"running WEKA on {len(jobs)} folds ({'strict' if strict else 'stock'} JVM math)...", flush=True)
        results = run_jobs(jobs, STRICT_EXP if strict else ())
        for i, (case, name, fold) in enumerate(meta):
            runs = results[i * N_FOLDS:(i + 1) * N_FOLDS]
            doc = {
                "format": FORMAT,
                "case": case.id,
                "learner": case.learner,
                "params": case.params,
                "model_compare": case.model,
                "weka": {"classifier": case.classifier, "options": list(case.options),
                         "java_options": list(STRICT_EXP if strict else ()), "jar": Path(jar).name,
                         "jar_sha256": jar_sha, "java": _java_version()},
                "dataset": name,
                "n_rows": int(len(fold)),
                "folds": fold.tolist(),
                "runs": [{"proba": r.proba.tolist(), "model": r.model} for r in runs],
            }
            path = OUT / f"{case.id}--{name}.json.gz"
            with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as fh:
                json.dump(doc, fh, separators=(",", ":"))
            written.append(path)
            print(f"  {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)", flush=True)
    return written


def main(argv: list[str]) -> None:
    jar = find_jar()
    if jar is None:
        sys.exit("set CVREPRO_WEKA_JAR to WEKA 3.6's jar (Debian package weka: /usr/share/java/weka.jar)")
    wanted = set(argv)
    unknown = wanted - {c.id for c in CASES}
    if unknown:
        sys.exit(f"unknown case ids {sorted(unknown)}; known: {[c.id for c in CASES]}")
    record([c for c in CASES if not wanted or c.id in wanted], jar)


if __name__ == "__main__":
    main(sys.argv[1:])
