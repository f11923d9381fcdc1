"""Where the paper profile's time goes (issue 28, item 7): cells of an estimate, and one fit's parts.

``python bench/profile_paper_costs.py cells [Dataset:Learner ...] [--iterations=N]``
    Moreno-Torres's ``estimate_core_hours`` on single (data set, learner) cells at the ``paper`` profile,
    each with the CPU seconds it took (process and children) and the load average while it ran. Uses
    only the study's public estimate, so it also runs against an older checkout's ``lib`` (PYTHONPATH) to
    compare code versions at the same load.
``python bench/profile_paper_costs.py svm|pdfc [Dataset ...]``
    One training fold (9/10 of the data set, a DOB-SCV partition as the run draws it) of KEEL's SVM or
    PDFC on the batched path with the kernel matrix already kept (as every fit after a worker's first):
    CPU time per part of the algorithm (timers around the kernels and the solver), then cProfile's top.
``python bench/profile_paper_costs.py fit LEARNER Dataset ...``
    The same fold for any of the study's learners: CPU s per fit and cProfile's top (CPU clock).
``python bench/profile_paper_costs.py lr``
    Vanwinckelen's LR (WEKA Logistic) on 200-row kr-vs-k samples: the optimiser's parts.
"""
import cProfile
import io
import os
import pstats
import sys
import time
from collections import defaultdict

import numpy as np


def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def load1():
    return os.getloadavg()[0]


def estimate(learners, iterations, together):
    """The whole estimate (27 data sets) for each learner alone, as measured per PAPER_ORDER step on
    27 Nov, or for all of them in one call (``together``, as bench_moreno_paper.py on 23 Nov)."""
    from cvrepro.profiles import study_parameters
    from cvrepro.studies import moreno_torres2012 as study

    for group in [learners] if together else [[learner] for learner in learners]:
        params = study_parameters("moreno_torres2012", "paper", learners=group)
        before, t0, w0 = load1(), cpu(), time.perf_counter()
        hours = study.estimate_core_hours(params, n_jobs=2, iterations=iterations)
        spent, wall = cpu() - t0, time.perf_counter() - w0
        by = hours.groupby(level=1).sum()
        print(f"it={iterations} " + ", ".join(f"{k} {v:.2f}" for k, v in by.items()) + " core-h; top " +
              ", ".join(f"{k} {v:.2f}" for k, v in hours.groupby(level=0).sum().nlargest(3).items()) +
              f"; {spent:.0f} CPU s in {wall:.0f} s; load {before:.1f}->{load1():.1f}", flush=True)


def cells(args, iterations):
    from cvrepro.profiles import study_parameters
    from cvrepro.studies import moreno_torres2012 as study

    for cell in args:
        name, learner = cell.split(":")
        params = study_parameters("moreno_torres2012", "paper", datasets=[name], learners=[learner])
        before, t0, w0 = load1(), cpu(), time.perf_counter()
        hours = study.estimate_core_hours(params, n_jobs=2, iterations=iterations)
        spent, wall = cpu() - t0, time.perf_counter() - w0
        print(f"{name:10s} {learner:7s} it={iterations} {hours[(name, learner)]:.4f} core-h "
              f"(partitioning {hours[(name, 'partitioning')]:.4f}); {spent:.1f} CPU s in {wall:.1f} s; "
              f"load {before:.1f}->{load1():.1f}", flush=True)


class Timers:
    """CPU time of named callables, wrapped in place (module attributes), nested calls counted apart."""

    def __init__(self):
        self.seconds, self.calls, self._undo = defaultdict(float), defaultdict(int), []

    def wrap(self, owner, attr, label):
        fn = getattr(owner, attr)

        def timed(*a, **k):
            t0 = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                self.seconds[label] += time.process_time() - t0
                self.calls[label] += 1
        setattr(owner, attr, timed)
        self._undo.append((owner, attr, fn))

    def undo(self):
        for owner, attr, fn in reversed(self._undo):
            setattr(owner, attr, fn)
        self._undo.clear()


def one_fold(name, learner):
    """(fit_predict_folds of one 10-fold training set on the warm batched path, its arguments)."""
    from cvrepro.engine.inputs import prepare_data
    from cvrepro.engine.tasks import LearnerFactory, fit_predict_folds, learner_seeds
    from cvrepro.partition import make_partitioner
    from cvrepro.studies import moreno_torres2012 as study

    ds = study.load(name)
    data = prepare_data((name, ds.X, ds.y))
    folds = make_partitioner("dobscv", 10, study.SEED, metric=study.DISTANCE).fold_ids(ds.X, data.codes)
    splits = [(np.flatnonzero(folds != 0), np.flatnonzero(folds == 0))]
    make = LearnerFactory(learner, study.build_learners([learner], ds.X)[learner])
    seeds = learner_seeds(study.SEED, 0, 10)[:1]
    t0 = time.process_time()
    fit_predict_folds(make, data, splits, seeds)          # compiles, fills the kept matrix's rows
    cold = time.process_time() - t0
    return (lambda: fit_predict_folds(make, data, splits, seeds)), cold, len(splits[0][0]), len(ds.y)


SOLVER = "libsvm solver (svm_train on the kept matrix in place, libsvm_indexed)"


def kernel_fit(name, learner, repeat=5):
    """KEEL's SVM or PDFC: CPU s per warm fit and its parts (timers around the kernels and libsvm)."""
    from cvrepro.learners import keel_cache, keel_smo, keel_svm, libsvm_indexed, libsvm_rbf, pdfc

    run, cold, n_train, n = one_fold(name, learner)
    solves = []
    train = libsvm_indexed._train

    def counted(*a, **k):
        out = train(*a, **k)
        solves.append((out[3], int(len(out[2]))))
        return out
    libsvm_indexed._train = counted
    timers = Timers()
    timers.wrap(keel_smo, "_block", "kernel block (KernelRows, no kept matrix: computed; else test rows)")
    timers.wrap(keel_smo, "_fill_block", "kept matrix's rows filled and checked finite (KernelRows)")
    timers.wrap(libsvm_rbf, "_gather", "kernel block copy (libsvm RBF, kept matrix -> scratch)")
    timers.wrap(libsvm_rbf, "_fill", "kernel rows filled (first use)")
    timers.wrap(libsvm_rbf, "_values", "kernel values (no kept matrix)")
    timers.wrap(keel_smo, "svc_precomputed", SOLVER)
    timers.wrap(keel_smo, "binary_kernel_smo", "KEEL's SMO steps (NaN kernels)")
    timers.wrap(keel_svm, "fit_logistic", "KEEL logistic model (fitLogistic)")
    timers.wrap(keel_svm, "svm_outputs_at", "SVM outputs on the training pair")
    timers.wrap(keel_svm, "svm_outputs", "SVM outputs on test rows")
    timers.wrap(pdfc, "fuzzy_outputs", "PDFC rule outputs on test rows")
    timers.wrap(keel_cache, "digest", "kept matrix's key (hash of the data, once per call)")
    each = []
    for _ in range(repeat):
        t0 = time.process_time()
        run()
        each.append(time.process_time() - t0)
    total = sum(each) / repeat
    timers.undo()
    libsvm_indexed._train = train
    print(f"\n{learner} on {name} (n={n}, training fold {n_train}): {total:.3f} CPU s per fit warm "
          f"(each: {', '.join(f'{t:.3f}' for t in each)}; first call {cold:.2f} s incl. kernel rows); "
          f"load {load1():.1f}")
    for label, sec in sorted(timers.seconds.items(), key=lambda kv: -kv[1]):
        per = sec / repeat
        print(f"  {per:8.4f} s {100 * per / total:5.1f} %  {label} ({timers.calls[label] // repeat} calls/fit)")
    solver = timers.seconds[SOLVER]
    if solves:
        its, svs = solves[-1]
        print(f"  libsvm: {its} iterations, {svs} support vectors per solve, "
              f"{1e6 * solver / repeat / its:.1f} us per iteration ({n_train} rows)")
    rest = total - sum(timers.seconds.values()) / repeat
    print(f"  {rest:8.4f} s {100 * rest / total:5.1f} %  rest (shuffles, Python)")
    top_profile(run)


def top_profile(run, lines=12):
    """cProfile (CPU clock) of one call of ``run``, by own time; numba kernels count in their caller."""
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    run()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(lines)
    print("\n".join(line for line in out.getvalue().splitlines()[2:] if line.strip()))


def any_fit(name, learner, repeat=3):
    """A learner without kernel timers (the rule learners): CPU s per warm fit, then cProfile's top."""
    run, cold, n_train, n = one_fold(name, learner)
    each = []
    for _ in range(repeat):
        t0 = time.process_time()
        run()
        each.append(time.process_time() - t0)
    print(f"\n{learner} on {name} (n={n}, training fold {n_train}): {sum(each) / repeat:.3f} CPU s per fit "
          f"(each: {', '.join(f'{t:.3f}' for t in each)}; first call {cold:.2f} s); load {load1():.1f}")
    top_profile(run, 15)


def logistic_fit(name="kr-vs-k", rows=180, samples=5):
    """WEKA Logistic -M 500 as Vanwinckelen fits it (10-fold training sets of 200-row samples): the fit,
    its optimiser's iterations, and the kernels timed apart on the same data (the BFGS algebra on a
    factor of the same size, one objective plus gradient, the rest: line-search evaluations, filters)."""
    from cvrepro.datasets import load_dataset
    from cvrepro.learners import logistic
    from cvrepro.studies import vanwinckelen2012 as study

    ds = load_dataset(name)
    rng = np.random.default_rng(0)
    seen = []
    find = logistic.find_argmin

    def capture(*a):
        out = find(*a)
        seen.append((a, out[3]))
        return out
    fit_s = evals = algebra = 0.0
    its = 0
    for s in range(samples):
        idx = rng.choice(len(ds.y), rows, replace=False)
        X, y = ds.X.iloc[idx], np.asarray(ds.y)[idx]
        lr = study.make_learners(["LR"])["LR"]
        if s == 0:
            lr.fit(X, y)                                      # compile
        logistic.find_argmin = capture
        t0 = time.process_time()
        lr.fit(X, y)
        fit_s += time.process_time() - t0
        logistic.find_argmin = find
        (x0, data, cls, w, ridge, n_k, _), n_it = seen[-1]
        its += n_it
        reps = 20
        logistic.objective(x0, data, cls, w, ridge, n_k)          # compile
        logistic.gradient(x0, data, cls, w, ridge, n_k)
        t0 = time.process_time()
        for _ in range(reps):
            logistic.objective(x0, data, cls, w, ridge, n_k)
            logistic.gradient(x0, data, cls, w, ridge, n_k)
        evals += (time.process_time() - t0) / reps * n_it
        n = len(x0)
        g = rng.standard_normal((3, n))
        g[0] = g[1] + 0.1 * g[0]          # a positive-definite BFGS step on the identity: (dgrad, 1/|dgrad|^2),
        c1, c2 = 1 / (g[0] @ g[0]), -1 / (g[1] @ g[1])      # (old_grad, -1/|old_grad|^2)
        U0 = np.zeros(n * (n + 1) // 2)
        U0[[j * n - (j * (j - 1)) // 2 for j in range(n)]] = 1.0
        D0 = np.ones(n)
        steps = ((g[0], c1, g[1], c2), (g[1], -c2, g[0], -c1))   # each undoes the other: U stays warm, PD
        logistic._update_and_direction(U0, D0, *steps[0], g[2])   # compile
        logistic._update_and_direction(U0, D0, *steps[1], g[2])
        t0 = time.process_time()
        for r in range(reps):
            logistic._update_and_direction(U0, D0, *steps[r % 2], g[2])
        algebra += (time.process_time() - t0) / reps * n_it
    shape = f"{data.shape[0]} x {data.shape[1]}, {n_k + 1} classes, {len(x0)} parameters"
    print(f"\nLR (WEKA Logistic -R 1e-8 -M 500) on {name}, {rows} rows ({shape}), {samples} samples: "
          f"{fit_s / samples:.4f} CPU s per fit, {its / samples:.0f} iterations; load {load1():.1f}")
    per = fit_s / its
    print(f"  per iteration {1e3 * per:.3f} ms: BFGS algebra (update, downdate, solves: _update_and_direction) "
          f"{1e3 * algebra / its:.3f} ms ({100 * algebra / fit_s:.0f} %), one objective + one gradient "
          f"{1e3 * evals / its:.3f} ms ({100 * evals / fit_s:.0f} %); both timed as separate calls on the same "
          f"sizes (in the fit the gradient reuses the objective's exponentials and the line search adds "
          f"evaluations, so the shares are approximate)")


def main(argv):
    what = argv[0] if argv else "cells"
    rest = [a for a in argv[1:] if not a.startswith("--")]
    iterations = next((int(a.split("=")[1]) for a in argv if a.startswith("--iterations=")), 1)
    if what == "estimate":
        estimate(rest or ["LDA", "1NN", "C4.5", "SVM", "PDFC"], iterations, "--together" in argv)
    elif what == "cells":
        cells(rest or ["Banana:SVM", "Banana:PDFC", "Pima:C4.5", "Pima:FURIA", "Phoneme:1NN"], iterations)
    elif what in ("svm", "pdfc"):
        for name in rest or ["Banana", "Mushroom"]:
            kernel_fit(name, what.upper())
    elif what == "fit":
        for name in rest[1:]:
            any_fit(name, rest[0])
    elif what == "lr":
        logistic_fit()
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
