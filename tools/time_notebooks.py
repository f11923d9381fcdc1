"""Measure what running a notebook at a profile costs, for the README's table of run times.

``python tools/time_notebooks.py 05_scheffer1997_parameter_channel --profile smoke quick``
runs each named notebook as ``make <name> PROFILE=<profile>`` does (papermill in
``notebooks/``), but into a fresh temporary store and output folder, so that
nothing is served from an earlier run's cache and your ``results/`` and
``figures/`` are left alone. It prints one Markdown row per notebook: the
wall-clock time, the CPU time of the run's processes (the kernel and the
workers it waited for) in brackets, and the load average while it ran (the
wall-clock time on a busy machine is longer than on an idle one; the CPU time
much less so).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNEL = "cvrepro"


def seconds(value: float) -> str:
    """A duration as a reader reads it: 40 s, 3.5 min, 1.2 h."""
    if value < 100:
        return f"{value:.0f} s"
    if value < 6000:
        return f"{value / 60:.1f} min"
    return f"{value / 3600:.1f} h"


def measure(name: str, profile: str) -> dict:
    """Run notebook ``name`` at ``profile`` into a temporary store; wall-clock and CPU seconds, load average."""
    papermill = Path(sys.executable).parent / "papermill"
    with tempfile.TemporaryDirectory(prefix=f"time-{name}-") as tmp:
        command = [str(papermill), "--log-level", "WARNING", "--kernel", KERNEL, "--cwd", "notebooks",
                   "-p", "profile", profile, "-p", "store", f"{tmp}/store", "-p", "output_dir", f"{tmp}/figures",
                   f"notebooks/{name}.ipynb", f"{tmp}/{name}.ipynb"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "load": (load + os.getloadavg()[0]) / 2}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", help="notebook names, e.g. 00_datasets")
    parser.add_argument("--profile", nargs="+", default=["smoke", "quick"])
    args = parser.parse_args(argv)
    print(f"| notebook | {' | '.join(args.profile)} |")
    print(f"|---|{'---|' * len(args.profile)}")
    for name in args.notebooks:
        cells = []
        for profile in args.profile:
            m = measure(name, profile)
            cells.append(f"{seconds(m['wall'])} ({seconds(m['cpu'])} CPU; load {m['load']:.0f})")
            print(f"  {name} {profile}: {cells[-1]}", file=sys.stderr, flush=True)
        print(f"| `{name}` | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
