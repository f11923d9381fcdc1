"""run.json traces a run: profile, every parameter, seeds, commit, versions, cores, wall and CPU time."""
import json
import subprocess
import time
from pathlib import Path

import pandas as pd

from cvrepro.reporting import record_run

ROOT = Path(__file__).resolve().parents[1]


def test_run_json_records_what_traces_the_run(tmp_path):
    claims = pd.DataFrame({"claim": ["c"], "where": ["Table I"], "verdict": ["holds"], "evidence": ["e"]})
    params = {"profile": "smoke", "seed": 7, "iterations": 3, "datasets": ["iris"], "learners": None}
    record_run(tmp_path, "raeder2010", "smoke", claims, started=time.time() - 2.0, params=params)
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["study"] == "raeder2010" and run["profile"] == "smoke"
    assert run["parameters"] == params and run["seeds"] == {"seed": 7}
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert run["commit"] == head and isinstance(run["dirty"], bool)
    assert run["python"].count(".") == 2
    assert {"numpy", "scikit-learn", "pandas", "cvrepro"} <= set(run["packages"])
    assert run["cores"] >= 1 and 1 <= run["cores_usable"] <= run["cores"]
    assert run["seconds"] >= 2.0 and run["cpu_seconds"] > 0
