"""Moreno-Torres's paper run on a many-core machine: what it costs there, and how it scales (issue 29).

    python bench/bench_moreno_many_cores.py OUT_FOLDER [--deadline SECONDS] [--datasets A,B]

1. ``estimate_core_hours`` at the ``paper`` profile for each learner alone, one process per learner, all at
   once (CPU time, so running them side by side does not inflate it while they fit the cores);
2. the run itself, ``PAPER_ORDER`` step by step (cheapest first) with one worker per core, into a store
   under /tmp, until the deadline: each finished step's wall and CPU seconds.
Writes ``OUT_FOLDER/moreno_many_cores.json`` (the machine, the versions, both parts) after every step.

Recorded: ``bench/moreno_many_cores_h200host_2026-11-27.json`` (the device machine of 27 Nov: 16-core Xeon under
gVisor, `nproc` 1, 9 estimates side by side): the estimate gives 27.0 core-hours for the nine learners plus
0.37 of partitioning, as on our 2-core machine (26); step 1 (1NN, 3NN, LDA: 0.83 core-hours by the estimate)
did not finish in 314 s on 16 workers there, so the machine gave well under 16 cores (not a scaling figure).
"""
import json
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _machine() -> dict:
    import numba
    import numpy
    import pandas
    import scipy
    import sklearn

    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "versions": {m.__name__: m.__version__ for m in (numpy, scipy, sklearn, pandas, numba)}}


def _estimate(params: dict) -> tuple[str, dict, float]:
    from cvrepro.studies import moreno_torres2012 as study

    t0 = time.process_time()
    hours = study.estimate_core_hours(params, n_jobs=os.cpu_count(), iterations=2)
    learner, = params["learners"]
    return learner, {k: round(float(v), 4) for k, v in hours.groupby(level=1).sum().items()}, \
        round(time.process_time() - t0, 1)


def main(argv=None) -> None:
    args = argv if argv is not None else sys.argv[1:]
    out = Path(args[0])
    deadline = time.time() + (float(args[args.index("--deadline") + 1]) if "--deadline" in args else 480)
    chosen = {"datasets": args[args.index("--datasets") + 1].split(",")} if "--datasets" in args else {}
    out.mkdir(parents=True, exist_ok=True)
    from cvrepro.profiles import study_parameters
    from cvrepro.studies import moreno_torres2012 as study

    report = {"machine": _machine(), "estimate": {}, "steps": []}

    def save():
        (out / "moreno_many_cores.json").write_text(json.dumps(report, indent=2) + "\n")

    w0 = time.time()
    params = study_parameters("moreno_torres2012", "paper", **chosen)
    each = [{**params, "learners": [learner]} for learner in params["learners"]]
    with ProcessPoolExecutor(len(each)) as pool:
        for learner, hours, cpu_s in pool.map(_estimate, each):
            report["estimate"][learner] = {"core_hours": hours, "cpu_seconds": cpu_s}
            print(f"estimate {learner}: {hours} ({cpu_s} CPU s)", flush=True)
    report["estimate_wall_seconds"] = round(time.time() - w0, 1)
    save()
    for step in study.PAPER_ORDER:
        if time.time() > deadline:
            break
        c0, t0 = _cpu(), time.time()
        left = deadline - t0
        code = ("from cvrepro.profiles import study_parameters; "
                "from cvrepro.studies import moreno_torres2012 as s; "
                f"p = study_parameters('moreno_torres2012', 'paper', **{chosen!r}); "
                f"s.run({{**p, 'learners': {list(step)!r}}}, "
                f"store='/tmp/moreno-store', n_jobs={os.cpu_count()}, progress=False)")
        try:
            rc = subprocess.run([sys.executable, "-c", code], timeout=left).returncode
        except subprocess.TimeoutExpired:
            rc = "timed out"
        report["steps"].append({"learners": list(step), "finished": rc == 0, "rc": rc,
                                "wall_seconds": round(time.time() - t0, 1),
                                "cpu_seconds": round(_cpu() - c0, 1)})
        print(report["steps"][-1], flush=True)
        save()


if __name__ == "__main__":
    main()
