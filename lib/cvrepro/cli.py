"""The ``cvrepro`` command: compare classifiers on a CSV file, verify shipped results, run a study notebook.

    cvrepro compare data.csv --target class --learners C4.5,NB,5-NN --report out/
    cvrepro compare data.csv --learners NB,SVM --grid "SVM:C=0.1,1,10;sigma=0.5,1" --k 5
    cvrepro verify-shipped [STUDY ...]
    cvrepro run 01_raeder2010_variability --profile smoke
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["main"]


def _compare(args) -> int:
    from .compare import compare, read_csv
    from .tuning import with_grids

    frames = []
    for path in args.data:
        if Path(path).suffix.lower() == ".csv":
            try:
                frames.append(read_csv(path, args.target))
            except ValueError as exc:
                raise SystemExit(str(exc)) from None
        else:
            frames.append(path)                       # a catalog name
    stopping = int(args.stopping) if args.stopping.isdigit() else args.stopping
    try:
        learners = with_grids(args.learners.split(","), args.grid)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    result = compare(frames, learners, metric=args.metric, k=args.k, stopping=stopping,
                     max_repetitions=args.max_repetitions, rope=args.rope, alpha=args.alpha, store=args.store,
                     n_jobs=args.n_jobs, seed=args.seed, progress=sys.stderr.isatty(), posthoc=args.posthoc,
                     adjust=args.adjust)
    print(result.summary())
    if args.report:
        folder = result.report(args.report)
        print(f"\nreport: {folder / 'report.html'}")
    return 0


def _verify_shipped(args) -> int:
    from . import shipped
    from .studies import STUDY_IDS

    bad = 0
    studies = args.studies or [s for s in STUDY_IDS if shipped.available(s)]
    folders = [(study, None) for study in studies] + [(study, root) for root in shipped.part_roots()
                                                      for study in args.studies or STUDY_IDS
                                                      if shipped.available(study, root)]
    for study, root in folders:
        name = study if root is None else f"{study} (part apart, {root.name})"
        try:
            doc = shipped.verify(study, root)
            print(f"{name}: {len(doc['files'])} files match their manifest")
        except shipped.ShippedResultsError as exc:
            bad += 1
            print(f"{name}: {exc}", file=sys.stderr)
    return 1 if bad else 0


def _run(args) -> int:
    import papermill

    notebooks = Path(args.notebooks)
    source = notebooks / f"{args.notebook}.ipynb"
    if not source.exists():
        known = sorted(p.stem for p in notebooks.glob("[0-9][0-9]_*.ipynb"))
        raise SystemExit(f"no notebook {source}; known: {', '.join(known) or 'none (run from the project folder)'}")
    out = Path(args.output or f"build/notebooks/{args.notebook}.ipynb")
    out.parent.mkdir(parents=True, exist_ok=True)
    papermill.execute_notebook(source, out, parameters={"profile": args.profile}, cwd=notebooks,
                               kernel_name="cvrepro", progress_bar=sys.stderr.isatty())
    print(f"executed {out}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cvrepro", description="Cross-validation done as five papers advise.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare", help="compare classifiers on CSV files or catalog data sets")
    c.add_argument("data", nargs="+", help="CSV files (with --target) or catalog data set names")
    c.add_argument("--target", default="class", help="the class column of the CSV files (default: class)")
    c.add_argument("--learners", required=True, help="comma-separated learner names, e.g. C4.5,NB,5-NN")
    c.add_argument("--grid", action="append", metavar="[NAME=]LEARNER:PARAM=V1,V2[;PARAM=...]",
                   help="tune LEARNER over this grid inside nested CV (repeatable), e.g. 'SVM:C=0.1,1,10' or "
                        "'k-NN=5-NN:k=1,5,9'; the naive estimate is shown beside the nested one")
    c.add_argument("--metric", default="auroc")
    c.add_argument("--k", type=int, default=10, help="folds (default 10)")
    c.add_argument("--stopping", default="rank", help="rank, ks or a fixed number of repetitions")
    c.add_argument("--max-repetitions", type=int, default=30)
    c.add_argument("--rope", type=float, default=0.01)
    c.add_argument("--alpha", type=float, default=0.05)
    c.add_argument("--posthoc", default="friedman", choices=("friedman", "aligned", "quade"),
                   help="rank statistic of the all-pairs table over data sets (default friedman)")
    c.add_argument("--adjust", default="holm",
                   choices=("holm", "hommel", "bh", "finner", "bonferroni", "shaffer", "bergmann"),
                   help="p-value adjustment of that table (default holm)")
    c.add_argument("--store", default=None, help="results store (cached, resumable); default: temporary")
    c.add_argument("--n-jobs", type=int, default=1)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--report", default=None, help="folder for report.md, report.html and the figure")
    c.set_defaults(func=_compare)
    v = sub.add_parser("verify-shipped", help="check the shipped paper-scale tables against their manifests")
    v.add_argument("studies", nargs="*")
    v.set_defaults(func=_verify_shipped)
    r = sub.add_parser("run", help="execute a study notebook at a profile (from the project folder)")
    r.add_argument("notebook", help="e.g. 01_raeder2010_variability")
    r.add_argument("--profile", default="quick", choices=("smoke", "quick", "paper"))
    r.add_argument("--notebooks", default="notebooks")
    r.add_argument("--output", default=None)
    r.set_defaults(func=_run)
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
