"""Record autorank's analysis of one compare() results table, as a fixture for tests/test_compare.py.

Step 1 (the project's venv): compare() on a catalog comparison (4 learners, 8 data sets, 5-fold DOB-SCV,
3 fixed repetitions); its per-data-set mean AUROC table goes to tests/fixtures/autorank/means.csv and our
report's numbers to ours.json. Step 2 (a subprocess with autorank on its path, never the project's venv):
autorank on that table, once as it chooses (it tests normality and homoscedasticity first) and once
forced non-parametric (Friedman + Nemenyi, ours); its numbers and create_report text go to autorank.json.

    pip install --target /tmp/autorank-lib autorank==1.3.0
    PYTHONPATH=lib .venv/bin/python tools/record_autorank.py --autorank-lib /tmp/autorank-lib
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "autorank"
DATASETS = ["sonar", "heart", "bupa", "ionosphere", "haberman", "wdbc", "pima", "breast-w"]
LEARNERS = ["NB", "C4.5", "5-NN", "LR"]
DESIGN = {"k": 5, "stopping": 3, "metric": "auroc", "seed": 0, "partitioner": "dobscv"}


def ours(store) -> None:
    from cvrepro.compare import compare

    result = compare(DATASETS, LEARNERS, store=store, progress=False, **DESIGN)
    OUT.mkdir(parents=True, exist_ok=True)
    means = result.estimates.pivot(index="dataset", columns="learner", values="mean")
    means.loc[DATASETS, LEARNERS].to_csv(OUT / "means.csv", float_format="%.17g")
    doc = {"design": DESIGN | {"datasets": DATASETS, "learners": LEARNERS},
           "friedman": {"chi2": result.friedman.statistic, "p": result.friedman.pvalue,
                        "iman_davenport_f": result.friedman.iman_davenport,
                        "iman_davenport_p": result.friedman.iman_davenport_pvalue},
           "mean_ranks": result.ranks.set_index("learner")["average_rank"].to_dict(),
           "p_holm_vs_best": result.ranks.set_index("learner")["p_holm_vs_best"].to_dict(),
           "critical_difference": result.ranks.attrs["critical_difference"],
           "conclusions": result.conclusions()}
    (OUT / "ours.json").write_text(json.dumps(doc, indent=1, default=float) + "\n")


def _autorank_run(data, force_mode):
    from autorank import autorank, create_report

    res = autorank(data, alpha=0.05, verbose=False, force_mode=force_mode, random_state=0)
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        create_report(res)
    rank = res.rankdf
    return {"omnibus": res.omnibus, "posthoc": res.posthoc, "pvalue": float(res.pvalue),
            "cd": None if res.cd is None else float(res.cd), "all_normal": bool(res.all_normal),
            "pvals_shapiro": [float(p) for p in res.pvals_shapiro], "homoscedastic": bool(res.homoscedastic),
            "homogeneity_test": res.homogeneity_test, "pval_homogeneity": float(res.pval_homogeneity),
            "meanrank": {k: float(v) for k, v in rank["meanrank"].items()} if "meanrank" in rank else None,
            "mean": {k: float(v) for k, v in rank["mean"].items()} if "mean" in rank else None,
            "effect_size": {k: float(v) for k, v in rank["effect_size"].items()},
            "magnitude": rank["magnitude"].to_dict(), "order": list(rank.index), "report": text.getvalue()}


def theirs() -> None:
    import pandas as pd

    data = pd.read_csv(OUT / "means.csv", index_col="dataset")
    from importlib.metadata import version

    from scipy import stats

    # autorank keeps only the p-value of scipy's friedmanchisquare; its statistic, from the same call:
    chi2 = stats.friedmanchisquare(*data.transpose().values).statistic
    doc = {"autorank_version": version("autorank"), "scipy_version": version("scipy"),
           "friedman_statistic": float(chi2),
           "default": _autorank_run(data, None), "nonparametric": _autorank_run(data, "nonparametric")}
    (OUT / "autorank.json").write_text(json.dumps(doc, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--autorank-lib", help="a folder with autorank installed (pip install --target)")
    parser.add_argument("--store", default="results/autorank-comparison")
    parser.add_argument("--step", choices=("ours", "theirs", "both"), default="both")
    args = parser.parse_args()
    if args.step in ("ours", "both"):
        ours(args.store)
    if args.step == "theirs":
        theirs()
    elif args.step == "both":
        if not args.autorank_lib:
            raise SystemExit("--autorank-lib: the folder autorank was installed into (kept out of the project's venv)")
        env = dict(os.environ, PYTHONPATH=args.autorank_lib)
        subprocess.run([sys.executable, __file__, "--step", "theirs"], env=env, check=True)


if __name__ == "__main__":
    main()
