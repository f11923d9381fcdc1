"""Count the fits of each study's design, total and distinct, without fitting anything.

    PYTHONPATH=lib .venv/bin/python tools/count_fits.py [profile] [--steps]    # default: paper

``--steps``: as tools/paper_run.py runs the design (each ``PAPER_ORDER`` step, then the whole).

A fit is identified by its training data (a catalog name, a sample's id or an
outer training set's id), its learner (:func:`cvrepro.engine.inputs.learner_hash`
of its parameters), its training rows (partitioner, k, partition seed, fold;
or the whole data) and, for a learner that takes the engine's per-fold seeds,
the seed those derive from. Each study's plan below mirrors its ``run`` (read it
beside the study's ``SHARED_FITS``); a repeat of a fit is *served* when both
parts ask the same cache for the same key (the engine's store: data set name and
content, learner name and parameters, partitioner, k, seed; a task map's key),
else it is *computed twice*.
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict
from dataclasses import dataclass

WHOLE = ("whole",)    # training rows: all rows of the data


@dataclass(frozen=True)
class Fits:
    """Fits of one learner on one data set: ``folds`` fits per partition seed in ``seeds``."""

    study: str
    part: str
    data: str
    learner: str
    rows: tuple            # (partitioner, k[, what shapes the partition]) or WHOLE
    seeds: tuple
    folds: int
    learner_seed: object   # the engine seed the learner's per-fold seeds derive from, None if fixed
    cache: tuple           # the cache key of the part (seed excepted): equal keys are computed once

    @property
    def key(self) -> tuple:
        return (self.data, self.learner, self.rows, self.learner_seed)


_IDS: dict = {}   # id(est) -> (est, identity, engine-seeded): each learner object is looked at once


def _learner(name, est) -> tuple:
    from cvrepro.engine.inputs import learner_hash
    if id(est) not in _IDS:
        seeded = any(v is None for k, v in est.get_params(deep=True).items()
                     if k == "random_state" or k.endswith("__random_state"))
        _IDS[id(est)] = (est, f"{type(est).__name__}:{learner_hash(name, est)}", seeded)
    return _IDS[id(est)]


def learner_id(name, est) -> str:
    """The learner's class and the hash of its parameters (the engine's store key)."""
    return _learner(name, est)[1]


def engine_seeded(est) -> bool:
    """Whether the engine sets the learner's random_state per fold (a ``random_state`` left None)."""
    return _learner(type(est).__name__, est)[2]


def engine_fits(study, part, store, data, name, est, partitioner, k, iterations, seed, pparams=None,
                rows_params=()) -> Fits:
    """The fits of one cell of :func:`cvrepro.runner.run_cv` (data id, learner, partitioner, k)."""
    lid = learner_id(name, est)
    return Fits(study, part, data, lid, (partitioner, k, *rows_params), tuple(range(seed, seed + iterations)), k,
                seed if engine_seeded(est) else None,
                ("engine", store, data, name, lid, partitioner, k, seed, repr(pparams)))


# --------------------------------------------------------------------------- #
# The plans: each mirrors its study's run()
# --------------------------------------------------------------------------- #
def raeder2010(p) -> list[Fits]:
    from cvrepro.studies import raeder2010 as s
    out = []
    grids = [("grid", p["datasets"], s.make_learners(p["learners"], p["c45_laplace"]))]
    if p.get("true_test_datasets"):
        grids.append(("true-test CV", p["true_test_datasets"], s.make_learners(s.TRUE_TEST_LEARNERS,
                                                                               p["c45_laplace"])))
    for part, datasets, models in grids:
        out += [engine_fits("raeder2010", part, "raeder2010", f"catalog:{d}", n, e, s.PARTITIONER, k,
                            p["iterations"], p["seed"])
                for d in datasets for n, e in models.items() for k in p["folds"]]
    for d in p.get("true_test_datasets") or []:
        for n, e in s.make_learners(s.TRUE_TEST_LEARNERS, p["c45_laplace"]).items():
            out.append(Fits("raeder2010", "true-test fit", f"catalog:{d}:train", learner_id(n, e), WHOLE, (0,), 1,
                            None, ("uncached", d, n)))
    return out


def moreno_torres2012(p) -> list[Fits]:
    from cvrepro.learners import make_learner
    from cvrepro.studies import moreno_torres2012 as s
    out = []
    E, T = p["experiments"], p["true_partitions"]
    C = max(E, p["convergence_experiments"])
    conv_sets = p["convergence_datasets"] or p["datasets"]
    conv_learners = [n for n in (p["convergence_learners"] or p["learners"]) if n in p["learners"]]
    names = s.catalog_names()
    models = {}
    for n in p["learners"]:
        est = make_learner(s.IMPLEMENTATION.get(n, n))
        models[n] = est   # KEEL's learners get the data set's bounds: one learner per data set, as the data is
    pp = {"metric": s.DISTANCE}
    for d in p["datasets"]:
        data = f"catalog:{names[d]}:dropna"
        for part, key in s.PARTITIONERS.items():
            shape = () if key == "scv" else (s.DISTANCE,)        # SCV ignores the distance
            for k, r in s.SCHEMES.values():
                cells = [("single experiments", p["learners"], E * r, s.SEED)]
                if part == "SCV":
                    cells.append(("true partitions", p["learners"], T, s.TRUE_SEED))
                if d in conv_sets and conv_learners and C != E:
                    cells.append(("convergence pool", conv_learners, C * r, s.SEED))
                out += [engine_fits("moreno_torres2012", what, "moreno_torres2012", data, n, models[n], key, k, its,
                                    seed, pp, shape) for what, learners, its, seed in cells for n in learners]
    return out


def vanwinckelen2012(p) -> list[Fits]:
    from cvrepro.studies import vanwinckelen2012 as s
    p = s.check_params(p)
    out = []
    pops = list(dict.fromkeys(p["populations"] + p["table_populations"]))
    test_pops = list(p["table_populations"]) if p["twin"] else []
    models = s.make_learners(p["learners"])
    twin = s.make_learners([], twin=True) if test_pops else {}
    for k in p["folds"]:
        for pop in pops:
            if not s.runs_fold(p, pop, k):
                continue
            learners = {**models, **(twin if pop in test_pops and k in (2, p["test_folds"]) else {})}
            for reps, samples in s.repetition_groups(p, pop, k).items():
                out += [engine_fits("vanwinckelen2012", "repeated CV", "vanwinckelen2012/cv",
                                    s.sample_name(pop, p, smp), n, e, "scv", k, reps, p["seed"],
                                    {"small_classes": "warn"})
                        for smp in samples for n, e in learners.items()]
    for group, pop_list in ((models, pops), (twin, test_pops)):
        for pop in pop_list:
            n_samples = p["n_samples"] if group is twin else s.population_samples(p, pop)
            for smp in range(n_samples):
                for n, e in group.items():
                    seed = s.conditional_seed(p["seed"], pop, smp) if engine_seeded(e) else None
                    out.append(Fits("vanwinckelen2012", "conditional error", s.sample_name(pop, p, smp),
                                    learner_id(n, e), WHOLE, (0,), 1, seed,
                                    ("taskmap", "conditional", pop, n, smp // s.SAMPLES_PER_TASK)))
    return out


def japkowicz2011(p) -> list[Fits]:
    from cvrepro.studies import japkowicz2011 as s
    from cvrepro.studies import japkowicz2011_runs as runs
    out = []
    parts = p.get("parts") or s.PARTS
    ids = {label: learner_id(label, s.make_learner_for(label))
           for label in (*s.EXPLORER_LEARNERS, *s.FLU_LEARNERS)}
    # WEKA's CV folds (weka_cross_validate), cached per job
    for d, label, seed, k in runs.cv_jobs(p) if "cross-validations" in parts else []:
        out.append(Fits("japkowicz2011", "cross-validations", f"japkowicz:{d}", ids[label], ("weka-cv", k), (seed,),
                        k, None, ("cache", "cv", d, label, k, seed)))
    pairs = p["resampling_pairs"] if "resampling" in parts else []
    for d, label in dict.fromkeys((d, x) for d, a, b in pairs for x in (a, b)):
        cache = ("cache", "resampling", d, label)
        out.append(Fits("japkowicz2011", "permutation test (true labels)", f"japkowicz:{d}", ids[label],
                        ("weka-cv", 10), (1,), 10, None, cache))
        out.append(Fits("japkowicz2011", "bootstrap (resubstitution)", f"japkowicz:{d}", ids[label], WHOLE, (0,), 1,
                        None, cache))
        # the bootstrap samples and the permuted labels: other data, each once
        out.append(Fits("japkowicz2011", "bootstrap samples", f"japkowicz:{d}:bootstrap", ids[label], ("bootstrap",),
                        tuple(range(p["n_bootstrap"])), 1, None, cache))
        out.append(Fits("japkowicz2011", "permutations", f"japkowicz:{d}:permuted", ids[label], ("weka-cv", 10),
                        tuple(range(p["n_permutations"])), 10, None, cache))
    labels = list(dict.fromkeys(x for _, a, b in p["resampling_pairs"] for x in (a, b))) \
        if "bootstrap truth" in parts else []
    for label in labels:
        for smp in range(p["boot_truth_samples"]):
            data = f"{p['boot_truth_pool']}:n{p['boot_truth_size']}:s{smp}"
            cache = ("cache", "boot-truth", label, smp // 10)
            out.append(Fits("japkowicz2011", "bootstrap truth (resubstitution)", data, ids[label], WHOLE, (0,), 1,
                            None, cache + ("bootstrap",)))
            out.append(Fits("japkowicz2011", "bootstrap truth (true error)", data, ids[label], WHOLE, (0,), 1,
                            None, cache + ("truth",)))
            out.append(Fits("japkowicz2011", "bootstrap truth samples", data + ":bootstrap", ids[label],
                            ("bootstrap",), tuple(range(p["boot_truth_bootstrap"])), 1, None, cache))
    n_scenarios = len(p["flu_scenarios"] or runs.SCENARIOS)
    # the baseline, the scenarios' own training sets and ideal models: each on a sample of its own
    for r in range(p["flu_repetitions"] if "flu" in parts else 0):
        for label in s.FLU_LEARNERS:
            out.append(Fits("japkowicz2011", "flu", f"flu:r{r}", ids[label], ("flu models",),
                            tuple(range(1 + 2 * n_scenarios)), 1, None, ("cache", "flu", r, label)))
    return out


def scheffer1997(p) -> list[Fits]:
    from cvrepro.studies import scheffer1997 as s
    parts = p.get("parts") or s.PARTS
    out = [Fits("scheffer1997", "channel", f"catalog:{d}:train", "ParameterChannel(C4.5)", WHOLE, (0,), 1, None,
                ("uncached", d)) for d in (p["channel_datasets"] if "channel" in parts else [])]
    if "tuning" not in parts:
        return out
    settings = s.family_settings(p["grids"], p["seeds"])
    names = {(f, i): s.engine_name(f, st) for f, ss in settings.items() for i, st in enumerate(ss)}
    learners = {}
    for (f, i), name in names.items():
        learners.setdefault(name, s.make_setting(f, settings[f][i]))
    units = [(f"pool:{d}~{smp}", 1) for d in p["pool_datasets"] for smp in range(p["pool_samples"])]
    units += [(f"catalog:{d}", p["cv_repetitions"]) for d in p["cv_datasets"]]
    n_outer, n_inner, seed = p["outer_folds"], p["inner_folds"], p["seed"]
    for unit, reps in units:
        out += [engine_fits("scheffer1997", "outer CV", "scheffer1997", unit, n, e, "scv", n_outer, reps, seed)
                for n, e in learners.items()]
        for it in range(reps):
            for f in range(n_outer):
                inner = f"{unit}|scv{n_outer}|s{seed + it}|f{f}"
                out += [engine_fits("scheffer1997", "inner CV", "scheffer1997", inner, n, e, "scv", n_inner, 1, seed)
                        for n, e in learners.items()]
    for unit, _ in units[:len(p["pool_datasets"]) * p["pool_samples"]]:
        for name, est in learners.items():   # the held-out truth refits every setting on each outer training set
            out.append(Fits("scheffer1997", "held-out truth", unit, learner_id(name, est), ("scv", n_outer), (seed,),
                            n_outer, None, ("taskmap", "truth", unit, name)))
    return out


PLANS = {"raeder2010": raeder2010, "moreno_torres2012": moreno_torres2012, "vanwinckelen2012": vanwinckelen2012,
         "japkowicz2011": japkowicz2011, "scheffer1997": scheffer1997}


# --------------------------------------------------------------------------- #
# Counting
# --------------------------------------------------------------------------- #
def tally(groups: list[Fits]) -> dict:
    """``total`` fits, ``distinct`` fits, repeats ``served`` by a cache (same key) and repeats
    ``twice`` (computed again), the last two by (first part, repeating part)."""
    by_key = defaultdict(list)
    for g in groups:
        by_key[g.key].append(g)
    total = sum(len(g.seeds) * g.folds for g in groups)
    distinct, served, twice = 0, Counter(), Counter()
    for gs in by_key.values():
        if len(gs) == 1:
            distinct += len(gs[0].seeds) * gs[0].folds
            continue
        seen: dict = {}   # seed -> (the first group, every cache that holds the fit)
        for g in gs:
            for seed in g.seeds:
                if seed not in seen:
                    seen[seed] = (g, {g.cache})
                    distinct += g.folds
                    continue
                a, caches = seen[seed]
                where = served if g.cache in caches else twice
                where[(f"{a.study}: {a.part}", f"{g.study}: {g.part}")] += g.folds
                caches.add(g.cache)
    return {"total": total, "distinct": distinct, "served": dict(served), "twice": dict(twice)}


def plan(study: str, profile: str = "paper", steps: bool = False) -> list[Fits]:
    """The fits of ``study``'s design at ``profile``; ``steps``: as tools/paper_run.py runs it, each step of
    the study's ``PAPER_ORDER`` and then the whole design, into one store (what no cache holds is redone)."""
    import dataclasses

    from cvrepro.profiles import study_parameters
    from cvrepro.studies import load_study
    params = study_parameters(study, profile)
    order = getattr(load_study(study), "PAPER_ORDER", ()) if steps else ()
    runs = [{**params, **(dict(step) if isinstance(step, dict) else {"learners": list(step)})} for step in order]
    out = []
    for i, p in enumerate([*runs, params]):
        out += [g if g.cache[0] != "uncached" else dataclasses.replace(g, cache=(*g.cache, i))
                for g in PLANS[study](p)]
    return out


def main(argv) -> int:
    steps = "--steps" in argv
    argv = [a for a in argv if a != "--steps"]
    profile = argv[1] if len(argv) > 1 else "paper"
    every = []
    for study in PLANS:
        groups = plan(study, profile, steps)
        every += groups
        t = tally(groups)
        print(f"{study}: {t['total']:,} fits, {t['distinct']:,} distinct")
        for kind in ("served", "twice"):
            for (a, b), n in t[kind].items():
                print(f"    {n:,} repeated, {'served by the cache' if kind == 'served' else 'COMPUTED TWICE'}: "
                      f"{a} -> {b}")
    t = tally(every)
    print(f"all studies: {t['total']:,} fits, {t['distinct']:,} distinct")
    for (a, b), n in t["twice"].items():
        if a.split(":")[0] != b.split(":")[0]:
            print(f"    {n:,} repeated across studies (other stores): {a} -> {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
