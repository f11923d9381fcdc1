"""`make paper`: every study notebook at the `paper` profile from its shipped tables, fitting nothing.

Each study with shipped results (results/paper/<study>/, checked against its
manifest first) is executed with papermill into build/notebooks-paper/, its
tables and figures into figures/paper/<study>/, and the claims overview (paper
beside what `make all` ran) into figures/paper/README.md. A study not shipped yet is listed as
such (computing it is tools/paper_run.py's job, hours to core-hours).

    tools/make_paper.py [study ...]    (default: every study; e.g. moreno_torres2012)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import papermill

from cvrepro import shipped
from cvrepro.reporting import write_overview
from cvrepro.studies import STUDIES

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "notebooks-paper"
FIGURES = ROOT / "figures" / "paper"


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(STUDIES))
    if unknown:
        print(f"unknown study {', '.join(unknown)}; the studies: {', '.join(STUDIES)}", file=sys.stderr)
        return 2
    BUILD.mkdir(parents=True, exist_ok=True)
    missing = []
    for study in (STUDIES[name] for name in names or STUDIES):
        if not shipped.available(study.id):
            missing.append(study.id)
            print(f"{study.id}: no shipped paper results yet (tools/paper_run.py computes them)", flush=True)
            continue
        shipped.verify(study.id)
        started = time.time()
        papermill.execute_notebook(
            ROOT / "notebooks" / f"{study.notebook}.ipynb", BUILD / f"{study.notebook}.ipynb",
            parameters={"profile": "paper", "output_dir": f"../figures/paper/{study.id}", "store": None,
                        **shipped.overrides(study.id)},        # a part shipped: that part
            cwd=ROOT / "notebooks", kernel_name="cvrepro", progress_bar=False, log_output=False)
        print(f"{study.id}: executed at paper from its shipped tables in {time.time() - started:.0f} s",
              flush=True)
    FIGURES.mkdir(parents=True, exist_ok=True)
    write_overview(ROOT / "figures", target=FIGURES / "README.md")   # beside what `make all` ran
    print(f"wrote {FIGURES / 'README.md'}; not shipped yet: {', '.join(missing) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
