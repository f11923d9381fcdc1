"""Record tests/fixtures/japkowicz2011/table_digests.json: a SHA-256 of every table that
``japkowicz2011.to_tables`` returns at a small design (every part, weka_reference off), computed by
the cvrepro on ``PYTHONPATH``.

The fixture was recorded from commit fbf666a, the study's own npz/JSON cache and joblib map, before its
tasks moved onto :func:`cvrepro.engine.map_tasks`::

    mkdir /tmp/base && git archive fbf666a lib | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/lib .venv/bin/python tools/record_japkowicz2011_digests.py

tests/test_shipped_japkowicz2011.py computes the same digests at the same design with the study as it
is: a change of procedure that moves any number, in any bit, shows there (re-record on purpose, naming
the change, when numbers are meant to move).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "japkowicz2011" / "table_digests.json"
DESIGN = dict(ttest_runs=2, sign_domains=["contact-lenses", "labor"], n_bootstrap=5, n_permutations=3,
              sim_replications=4, sim_n=60, sim_truth_samples=3, sim_separations=[1.0, 0.4], flu_train=200,
              flu_test=300, flu_scenarios=["none", "DP", "NR/Poor", "MC"], boot_truth_samples=2,
              boot_truth_bootstrap=5, weka_reference=False)


def table_digest(table: pd.DataFrame) -> str:
    """SHA-256 of a table's column names, dtypes and values, bit for bit (cells holding arrays included)."""
    h = hashlib.sha256(repr([(str(c), str(t)) for c, t in table.dtypes.items()]).encode())
    for name in table.columns:
        col = table[name]
        if col.dtype == object and len(col) and isinstance(col.iloc[0], np.ndarray):
            h.update(np.ascontiguousarray(np.stack(col.to_list())).tobytes())
        elif col.dtype.kind in "biuf":
            h.update(np.ascontiguousarray(col.to_numpy()).tobytes())
        else:
            h.update(repr(col.to_list()).encode())
    return h.hexdigest()


def main() -> None:
    from cvrepro.profiles import study_parameters
    from cvrepro.studies import japkowicz2011 as study

    params = {**study_parameters("japkowicz2011", "smoke"), **DESIGN}
    tables = study.to_tables(study.run(params, progress=False))
    OUT.write_text(json.dumps({"design": DESIGN, "digests": {k: table_digest(v) for k, v in sorted(tables.items())}},
                              indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
