"""Record WEKA 3.6's own 10-fold cross-validations for the Japkowicz tutorial study:
tests/fixtures/japkowicz2011/weka_explorer.json.

Run with the jar present (``CVREPRO_WEKA_JAR=/path/weka.jar .venv/bin/python
tools/record_japkowicz2011_weka.py``). For each case (data set as the study
reads it, tutorial label, seed) WEKA runs ``Evaluation.crossValidateModel``
with ``new Random(seed)`` (:mod:`cvrepro.reference.weka_evaluation`) and the
file keeps its pooled measures and confusion matrix; the tests
(tests/test_study_japkowicz2011.py) require our WEKA-style cross-validation
(:mod:`cvrepro.wekaeval`) with our learners to give the same numbers, and
compare with the live WEKA when the jar is found; without it, that the
fixture was recorded from the data and WEKA options the study uses now
(``data_sha256``: the ARFF file WEKA read).
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
from pathlib import Path

from cvrepro.reference.weka import find_jar, write_arff
from cvrepro.reference.weka_evaluation import EvaluationJob, cross_validate
from cvrepro.studies.japkowicz2011 import EXPLORER_LEARNERS, LEARNERS, load

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "japkowicz2011" / "weka_explorer.json"
FORMAT = "cvrepro-weka-evaluation/1"

CASES = ([("breast-cancer", label, 1) for label in EXPLORER_LEARNERS]
         + [("labor", label, seed) for label in ("C4.5", "NB") for seed in (1, 2)]
         + [("bupa", label, 1) for label in ("NB", "SVM", "Boost")]
         + [("anneal", label, 1) for label in ("NB", "Boost")])


def jobs():
    """Every case as a WEKA evaluation job."""
    data = {d: load(d) for d in dict.fromkeys(c[0] for c in CASES)}
    return [EvaluationJob(LEARNERS[label].weka_class, LEARNERS[label].weka_options, *data[d], 10, seed)
            for d, label, seed in CASES]


def data_digest(X, y) -> str:
    """SHA-256 of the ARFF file WEKA reads for ``X, y`` (what the fixture's numbers were computed from)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.arff"
        write_arff(path, X, y)
        return hashlib.sha256(path.read_bytes()).hexdigest()


def record(path: Path = OUT) -> dict:
    """Run WEKA on every case and write the fixture; returns its content."""
    jar = find_jar()
    if jar is None:
        raise SystemExit("WEKA's jar was not found: set CVREPRO_WEKA_JAR")
    todo = jobs()
    results = cross_validate(todo)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    content = {
        "format": FORMAT, "weka": {"jar": Path(jar).name,
                                   "jar_sha256": hashlib.sha256(Path(jar).read_bytes()).hexdigest(), "java": java},
        "cases": [{"dataset": d, "label": label, "seed": seed, "folds": 10,
                   "weka_class": LEARNERS[label].weka_class, "weka_options": list(LEARNERS[label].weka_options),
                   "accuracy": r["accuracy"], "kappa": r["kappa"], "info_score": r["info_score"], "mae": r["mae"],
                   "rmse": r["rmse"], "unclassified": r["unclassified"],
                   "per_class": r["per_class"].to_dict(orient="list"), "confusion": r["confusion"].tolist(),
                   "data_sha256": data_digest(job.X, job.y)}
                  for (d, label, seed), r, job in zip(CASES, results, todo)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=1) + "\n")
    return content


if __name__ == "__main__":
    out = record()
    print(f"wrote {OUT.relative_to(ROOT)}: {len(out['cases'])} cases")
