"""Run one study at the `paper` profile into a store outside the checkout, then ship its compact tables.

    .venv/bin/python tools/paper_run.py raeder2010 --store ~/cvrepro-results/raeder2010-paper --n-jobs 2
    .venv/bin/python tools/paper_run.py raeder2010 --store ~/cvrepro-results/raeder2010-paper --ship
    .venv/bin/python tools/paper_run.py raeder2010 --quick-claims figures/raeder2010
    .venv/bin/python tools/paper_run.py moreno_torres2012 --store ~/other-store --learners FURIA --add-to-shipped
    .venv/bin/python tools/paper_run.py moreno_torres2012 --add-from results/paper-parts/SVM

The run is resumable (kill it and start it again: only what is missing is
computed); a study's ``PAPER_ORDER`` (cheapest first: learner groups, or dicts of
parameters that select a part of the design) is run step by step before the
whole design, so the cheap parts finish first. Every invocation adds its wall
and CPU time (this process and its workers) to ``<store>/paper_run_times.json``,
rewritten every five minutes (a killed run keeps its time), and marks them shipped when
it ships (a part added later counts only the invocations after); ``--ship`` computes
what is missing, then writes the study's :func:`to_tables` under
``results/paper/<study>/`` with a manifest (SHA-256 per file, the commit, the
parameters, the run times: CPU summed over the invocations, wall the time they
cover, overlapping ones once); ``--quick-claims`` ships the claims of `make
all`'s quick run beside them (the paper notebook lists the verdicts that changed
with the scale). ``--learners`` and ``--datasets`` select a part of the design;
``--add-to-shipped`` adds such a part, computed in a store of their own, to the part already
shipped (:func:`cvrepro.shipped.add_part`), so a store lost between machines costs only what it
held that was not shipped yet; ``--root results/paper-parts/SVM`` ships some data sets of a
learner apart, and ``--add-from`` adds them to ``results/paper`` once they are whole.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

from cvrepro import shipped
from cvrepro.profiles import study_parameters
from cvrepro.reporting import cpu_seconds
from cvrepro.studies import load_study


class TimeRecord:
    """This invocation's wall and CPU time (this process and its workers, live ones included) in
    ``<store>/paper_run_times.json``: its entry is rewritten at each step and every ``every`` seconds
    between, so a run killed mid-step keeps what it had taken to within ``every`` seconds. Closed, it
    holds the sums over every invocation of the store (``totals``) and over those not shipped yet
    (``unshipped``)."""

    def __init__(self, store: Path, every: float = 300.0):
        self.path, self.every = store / "paper_run_times.json", every
        self.started, self.cpu0 = time.time(), cpu_seconds()
        self._lock, self._stop = threading.Lock(), threading.Event()
        self._beat = threading.Thread(target=self._keep_writing, daemon=True)
        self.totals: dict = {}               # the sums over every invocation, once the record is closed
        self.unshipped: dict = {}            # ... over those not shipped yet (this one included)

    def __enter__(self) -> TimeRecord:
        self.write()
        self._beat.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._beat.join()
        runs = self.write()
        self.totals, self.unshipped = _totals(runs), _totals([r for r in runs if "shipped" not in r])

    def _keep_writing(self) -> None:
        while not self._stop.wait(self.every):
            self.write()

    def write(self) -> list[dict]:
        """Rewrite this invocation's entry; every invocation's, as written."""
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))
        with self._lock:
            runs = [r for r in self._runs() if r.get("started") != since]
            runs.append({"started": since, "updated": time.strftime("%Y-%m-%d %H:%M:%S"),
                         "wall_seconds": round(time.time() - self.started, 1),
                         "cpu_seconds": round(cpu_seconds() - self.cpu0, 1),
                         "cores": os.cpu_count(), "load": os.getloadavg()[0]})
            self._save(runs)
        return runs

    def mark_shipped(self, where: str) -> None:
        """Mark every invocation not shipped yet as shipped to ``where``: a part added later from this
        store counts only the invocations after it."""
        with self._lock:
            self._save([r if "shipped" in r else {**r, "shipped": where} for r in self._runs()])

    def _runs(self) -> list[dict]:
        return json.loads(self.path.read_text()) if self.path.exists() else []

    def _save(self, runs: list[dict]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(runs, indent=2) + "\n")
        os.replace(tmp, self.path)


def _totals(runs: list[dict]) -> dict:
    return {"wall_seconds": wall_seconds(runs), "cpu_seconds": round(sum(r["cpu_seconds"] for r in runs), 1),
            "invocations": len(runs)}


def wall_seconds(runs: list[dict]) -> float:
    """The wall time the invocations ``runs`` cover together: overlapping ones (a part shipped while another
    part computes) count once."""
    spans = sorted((start, start + r["wall_seconds"]) for r in runs
                   for start in [time.mktime(time.strptime(r["started"], "%Y-%m-%d %H:%M:%S"))])
    total, reach = 0.0, float("-inf")
    for start, end in spans:
        total += max(0.0, end - max(start, reach))
        reach = max(reach, end)
    return round(total, 1)


def _overrides(step) -> dict:
    """A PAPER_ORDER step as parameters: a dict of them (a part of the design), or a group of learners."""
    return dict(step) if isinstance(step, dict) else {"learners": list(step)}


def main(argv=None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.add_from is not None:
        return _add_from(args.study, args.add_from, args.root)
    if args.store is None:
        if args.quick_claims is None:
            parser.error("--store is required (or --quick-claims alone, to add the quick claims only)")
        return _ship_quick_claims(args.study, args.quick_claims)
    if args.add_to_shipped and not (args.learners or args.datasets):
        parser.error("--add-to-shipped needs --learners or --datasets (the part to add to the shipped part)")
    module = load_study(args.study)
    params, missing = _design(args.study, {"learners": args.learners, "datasets": args.datasets}, parser)
    store = args.store.expanduser().resolve()
    store.mkdir(parents=True, exist_ok=True)
    common = dict(store=store, n_jobs=args.n_jobs, backend=args.backend)
    with TimeRecord(store) as record:
        for step in [] if missing else getattr(module, "PAPER_ORDER", []):
            module.run({**params, **_overrides(step)}, **common)
            record.write()
            print(f"{args.study}: {_overrides(step)} done after {time.time() - record.started:.0f} s", flush=True)
        results = module.run(params, **common)
    print(f"{args.study}: the paper design is complete in {store} ({record.totals})", flush=True)
    totals = record.unshipped if args.add_to_shipped else record.totals     # a part adds what was not shipped
    times = dict(wall_seconds=totals["wall_seconds"], cpu_seconds=totals["cpu_seconds"],
                 note=f"{totals['invocations']} invocation(s) of tools/paper_run.py, {args.n_jobs} workers, "
                      f"{os.cpu_count()} cores")
    if args.add_to_shipped:
        folder = shipped.add_part(args.study, module.to_tables(results), params, study_parameters(args.study, "paper"),
                                  root=args.root, **times)
        print(f"added to {folder}; missing: {shipped.missing(args.study, args.root) or 'none'}")
    elif args.ship:
        folder = shipped.save(args.study, module.to_tables(results), params, missing=missing, root=args.root, **times)
        print(f"shipped {folder} ({sum(p.stat().st_size for p in folder.iterdir()) / 1e6:.1f} MB)")
    if args.add_to_shipped or args.ship:
        record.mark_shipped(f"{folder} {time.strftime('%Y-%m-%d %H:%M:%S')}")
    if args.quick_claims is not None:
        _ship_quick_claims(args.study, args.quick_claims)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study")
    parser.add_argument("--store", type=Path, help="result store (outside the checkout)")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--backend", default="loky", help="loky, dask or a Dask scheduler address")
    parser.add_argument("--ship", action="store_true", help="then write results/paper/<study>/")
    parser.add_argument("--learners", help="comma-separated: compute and ship only these of the design's "
                                           "learners (a part; the manifest names the others missing)")
    parser.add_argument("--datasets", help="comma-separated: only these of the design's data sets (a part)")
    parser.add_argument("--root", type=Path, default=None,
                        help="where to ship (default results/paper; e.g. results/paper-parts/SVM for some data "
                             "sets of a learner, added to results/paper with --add-from once whole)")
    parser.add_argument("--add-to-shipped", action="store_true",
                        help="with --learners or --datasets: add them to the part already shipped (computed "
                             "from another store, e.g. one kept on another machine) instead of shipping them alone")
    parser.add_argument("--add-from", type=Path, metavar="ROOT",
                        help="add the part shipped under ROOT (e.g. results/paper-parts/SVM) to the part "
                             "shipped under --root, computing nothing")
    parser.add_argument("--quick-claims", type=Path, metavar="FOLDER",
                        help="ship the quick profile's claims from FOLDER (claims.csv and run.json of `make all`, "
                             "e.g. figures/raeder2010) beside the paper tables; alone, only that")
    return parser


def _design(study: str, parts: dict, parser) -> tuple[dict, dict]:
    """The paper design, or its part with only the comma-separated values of ``parts`` (learners, data sets);
    and what that part leaves out."""
    params, missing = study_parameters(study, "paper"), {}
    for key, chosen in parts.items():
        if not chosen:
            continue
        if not isinstance(params.get(key), list):
            parser.error(f"--{key}: the paper design of {study} has no list of {key}")
        chosen = chosen.split(",")
        unknown = sorted(set(chosen) - set(params[key]))
        if unknown:
            parser.error(f"--{key}: {', '.join(unknown)} not in the paper design ({', '.join(params[key])})")
        missing[key] = [name for name in params[key] if name not in chosen]
        params = {**params, key: [name for name in params[key] if name in chosen]}
    return params, {key: values for key, values in missing.items() if values}


def _add_from(study: str, part_root: Path, root: Path | None) -> None:
    """Add the part shipped under ``part_root`` (verified) to the part shipped under ``root``."""
    tables = shipped.load(study, root=part_root)          # verified
    doc = shipped.manifest(study, part_root)
    folder = shipped.add_part(study, tables, doc["parameters"],
                              study_parameters(study, "paper"), wall_seconds=doc["wall_seconds"],
                              cpu_seconds=doc["cpu_seconds"], root=root,
                              note=f"from {part_root}, {doc['commit']}: {doc['note']}")
    print(f"added the part of {part_root} to {folder}; missing: {shipped.missing(study, root) or 'none'}")


def _ship_quick_claims(study: str, folder: Path) -> None:
    import pandas as pd

    run = json.loads((folder / "run.json").read_text())
    shipped.add_quick_claims(study, pd.read_csv(folder / "claims.csv"), run)
    print(f"{study}: the quick profile's claims ({run.get('finished')}, commit {str(run.get('commit'))[:8]}) "
          f"shipped beside the paper tables")


if __name__ == "__main__":
    sys.exit(main())
