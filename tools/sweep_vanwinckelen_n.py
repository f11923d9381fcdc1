"""Run notebook 03 (Vanwinckelen & Blockeel) at several sample sizes N with papermill, and tabulate
how each claim's verdict depends on N.

    .venv/bin/python tools/sweep_vanwinckelen_n.py --sizes 100 200 500 --profile quick

Each N writes its tables and figures to ``figures/vanwinckelen2012/sweep/N<N>/`` and its executed
notebook to ``build/notebooks/sweep/``; all N share the result store (results/vanwinckelen2012), so
a second run with more sizes only computes what is new. The verdicts of every claim at every N go to
``figures/vanwinckelen2012/sweep/claims_by_n.csv`` (and ``.md``). Independent of the Makefile.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "03_vanwinckelen2012_conditional_error.ipynb"


def main(argv: list[str]) -> int:
    import pandas as pd
    import papermill

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500], help="sample sizes N")
    parser.add_argument("--profile", default="quick", choices=["smoke", "quick", "paper"])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--store", default=str(ROOT / "results" / "vanwinckelen2012"))
    args = parser.parse_args(argv)

    base = ROOT / "figures" / "vanwinckelen2012" / "sweep"
    built = ROOT / "build" / "notebooks" / "sweep"
    built.mkdir(parents=True, exist_ok=True)
    tables = []
    for size in args.sizes:
        out = base / f"N{size}"
        print(f"N = {size}: {out}", flush=True)
        papermill.execute_notebook(
            str(NOTEBOOK), str(built / f"{NOTEBOOK.stem}_N{size}.ipynb"), kernel_name="cvrepro",
            cwd=str(NOTEBOOK.parent), progress_bar=False,
            parameters={"profile": args.profile, "sample_size": size, "n_jobs": args.n_jobs, "store": args.store,
                        "output_dir": str(out)})
        claims = pd.read_csv(out / "claims.csv")
        tables.append(claims.assign(N=size)[["N", "claim", "verdict"]])
    wide = pd.concat(tables).pivot(index="claim", columns="N", values="verdict").reset_index()
    wide.columns = ["claim", *[f"N = {n}" for n in wide.columns[1:]]]
    wide.to_csv(base / "claims_by_n.csv", index=False)
    (base / "claims_by_n.md").write_text(wide.to_markdown(index=False) + "\n")
    print(wide.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
