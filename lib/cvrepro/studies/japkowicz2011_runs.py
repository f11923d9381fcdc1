"""Japkowicz & Shah (2011): the study's design (data sets, learners, profiles) and procedure (the runs, as
tasks of :func:`cvrepro.engine.map_tasks`, and the shipped tables). :mod:`.japkowicz2011` is the study's
public face.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .. import shipped as shipped_results
from ..datasets import load_dataset
from ..drift import SCENARIOS, FluDomain, performance_deterioration, trivial_error
from ..engine.taskmap import Task, fingerprint, map_tasks
from ..learners.base import TabularClassifier
from ..stats import bootstrap_error, label_permutation_test
from ..wekaeval import WekaCVPredictions, WekaStratifiedKFold, weka_cross_validate
from .japkowicz2011_simulation import simulate, simulation_chunk, simulation_truth

# --------------------------------------------------------------------------- design

# The eight classifiers of "Which classifier is better?", by the tutorial's labels: our learner
# (a registry name or an explicit constructor), the WEKA class and options it stands for.
EIGHT = ("NB", "C4.5", "3NN", "Ripp", "SVM", "Bagg", "Boost", "RanF")


@dataclass(frozen=True)
class LearnerChoice:
    """What runs for one of the tutorial's classifier labels, and the WEKA it stands for."""

    registry: str                 # a cvrepro.learners name ("" when built directly)
    weka_class: str
    weka_options: tuple = ()
    note: str = ""
    fallback: str = ""            # the registry name to run while ``registry`` is not registered

    def runs(self) -> str:
        """The registry name that runs: ``registry`` if registered, else ``fallback``."""
        if self.registry and self.fallback and _registry_row(self.registry) is None:
            return self.fallback
        return self.registry


LEARNERS: dict[str, LearnerChoice] = {
    "NB": LearnerChoice("NB-normal", "weka.classifiers.bayes.NaiveBayes"),
    "C4.5": LearnerChoice("C4.5", "weka.classifiers.trees.J48"),
    "3NN": LearnerChoice("", "weka.classifiers.lazy.IBk", (),
                         "IBk with WEKA's default k = 1: the printed '3NN' row is this one, to every digit"),
    "IBk -K 3": LearnerChoice("", "weka.classifiers.lazy.IBk", ("-K", "3"),
                              "what '3NN' says; it does not give the printed row"),
    "Ripp": LearnerChoice("JRip", "weka.classifiers.rules.JRip", fallback="RIPPER"),
    "SVM": LearnerChoice("SMO", "weka.classifiers.functions.SMO"),
    "Bagg": LearnerChoice("Bagging", "weka.classifiers.meta.Bagging", (),
                          "WEKA 3.6.14's bags (Walker's method); the tutorial's 3.6.x drew other bags"),
    "Boost": LearnerChoice("Boosting", "weka.classifiers.meta.AdaBoostM1"),
    "RanF": LearnerChoice("RF", "weka.classifiers.trees.RandomForest", ("-I", "10"),
                          "10 trees, the tutorial's WEKA default (3.6.14: 100); 3.6.14's bags"),
}


EXPLORER_LEARNERS = EIGHT + ("IBk -K 3",)

# The positive class of the binary measures, per data set (the slides' choice: Breast Cancer's
# recurrence, Labour's good contracts, Liver's selector 1, the minority or the first class).
POSITIVE = {"breast-cancer": "recurrence-events", "labor": "good", "bupa": "1"}

# "Illustration of the sign test": the tutorial's domains and classifiers.
SIGN_DOMAINS = {"Anneal": "anneal", "Audiology": "audiology", "Balance Scale": "balance-scale",
                "Breast Cancer": "breast-cancer", "Contact Lenses": "contact-lenses", "Pima Diabetes": "pima",
                "Glass": "glass", "Hepatitis": "hepatitis", "Hypothyroid": "hypothyroid",
                "Tic-Tac-Toe": "tic-tac-toe"}

SIGN_LEARNERS = {"NB": "NB", "SVM": "SVM", "Adaboost": "Boost", "Rand Forest": "RanF"}

# Recent research 1: the visualization framework's domains (binary ones concatenated; Anneal apart).
VIS_DOMAINS = {"BC": "breast-cancer", "La": "labor", "Li": "bupa"}

VIS_MULTICLASS = "anneal"

# Recent research 2: the flu domain's simple / complex pairs.
FLU_LEARNERS = ("1R", "DT", "SimpleNN", "MLP")

FLU_PAIRS = (("1R", "DT"), ("SimpleNN", "MLP"))

# The tutorial's two-classifiers-one-domain example and the resampling pairs.
LABOR_PAIR = ("C4.5", "NB")


def _scale(explorer_datasets, ttest_runs, sign_domains, sign_runs, n_bootstrap, n_permutations,
           resampling_pairs, sim_replications, sim_n, sim_truth_samples, flu_train, flu_test, flu_repetitions,
           flu_scenarios=None, boot_truth=(0, 0)):
    return {"explorer_datasets": explorer_datasets, "ttest_runs": ttest_runs, "sign_domains": sign_domains,
            "sign_runs": sign_runs, "n_bootstrap": n_bootstrap, "n_permutations": n_permutations,
            "resampling_pairs": resampling_pairs, "sim_replications": sim_replications, "sim_n": sim_n,
            "sim_separations": [1.0, 0.8, 0.6, 0.4], "sim_truth_samples": sim_truth_samples,
            "flu_train": flu_train, "flu_test": flu_test, "flu_repetitions": flu_repetitions,
            "flu_scenarios": flu_scenarios, "cost_pair": ["NB", "C4.5"], "alpha": 0.05, "seed": 1,
            "weka_reference": True, "boot_truth_pool": BOOT_TRUTH_POOL, "boot_truth_size": BOOT_TRUTH_SIZE,
            "boot_truth_samples": boot_truth[0], "boot_truth_bootstrap": boot_truth[1]}


# The bootstrap claim's truth: samples of Labour's size (57) from a large set, each estimator against the
# error of the model fit on the sample, measured on the rest of the set (Labour itself has no held-out truth).
BOOT_TRUTH_POOL = "spambase"

BOOT_TRUTH_SIZE = 57

SCALES = {
    "smoke": _scale(["breast-cancer", "labor", "bupa"], 3, ["breast-cancer", "contact-lenses", "labor"], 1,
                    20, 10, [["labor", "C4.5", "NB"]], 20, 100, 20, 300, 1000, 1,
                    ["none", "DP", "NGP/DW", "NR/Elderly", "MC", "FC"], boot_truth=(4, 10)),
    "quick": _scale(["breast-cancer", "labor", "bupa", "anneal"], 10, list(SIGN_DOMAINS.values()), 1,
                    100, 100, [["labor", "C4.5", "NB"]], 200, 200, 200, 1000, 5000, 3, boot_truth=(60, 50)),
    "paper": _scale(["breast-cancer", "labor", "bupa", "anneal"], 10, list(SIGN_DOMAINS.values()), 10,
                    1000, 1000, [["labor", "C4.5", "NB"], ["breast-cancer", "NB", "C4.5"]], 1000, 200, 1000,
                    5000, 20000, 10, boot_truth=(200, 200)),
}

# --------------------------------------------------------------------------- data

# anneal.names lists "not applicable" first for these attributes and last for the others.
_ANNEAL_DASH_FIRST = {"family", "steel", "temper_rolling", "condition", "formability", "non-ageing",
                      "surface-quality", "enamelability", "oil", "packing"}

# UCI row positions of the catalog's (KEEL's) last 35 bupa rows: KEEL moved them to the end.
_LIVER_UCI_POSITIONS_OF_TAIL = (4, 12, 22, 23, 24, 31, 37, 49, 84, 89, 92, 99, 114, 118, 125, 148, 149, 152,
                                156, 157, 159, 188, 194, 207, 215, 226, 234, 251, 256, 276, 278, 281, 296, 319,
                                337)

# SHA-256 (cvrepro.datasets.content_digest) of UCI's bupa in its own order: data/CROSSCHECK's orange3 copy.
LIVER_UCI_DIGEST = "ad3ce10189151359c19596aa58c6b9da11a538c1eb03d17c79d83d1e21be67d4"

DATA_NOTES = {
    "anneal": "WEKA's anneal.arff: UCI's '?' is 'not applicable', a value of its own (anneal.names), and class 4 "
              "(no example) is declared; read so, WEKA's NB gives the printed 86.3 % and confusion matrix exactly "
              "(with '?' as missing: 75.8 %)",
    "bupa": "the catalog's bupa (KEEL's copy) put back in UCI's row order, which WEKA's folds depend on: NB, SMO and "
            "AdaBoost then give the printed 55.4 / 58.3 / 66.1 % (KEEL's order: 53.9 / 58.3 / 67.0 %)",
}


def anneal_as_weka(X: pd.DataFrame, y: pd.Series) -> tuple[pd.DataFrame, pd.Series]:
    """Anneal as WEKA's anneal.arff holds it: a missing nominal value is the value "-" (not
    applicable, placed where anneal.names lists it) and the class declares UCI's empty class 4."""
    X = X.copy()
    for name in X.columns:
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            values = list(col.cat.categories)
            values = ["-", *values] if name in _ANNEAL_DASH_FIRST else [*values, "-"]
            X[name] = pd.Categorical(col.astype(object).where(col.notna(), "-"), categories=values)
    classes = list(y.cat.categories)
    if "4" not in classes:
        classes.insert(classes.index("5") if "5" in classes else len(classes), "4")
    return X, pd.Series(pd.Categorical(y.astype(str), categories=classes), name=y.name)


def liver_in_uci_order(X: pd.DataFrame, y: pd.Series) -> tuple[pd.DataFrame, pd.Series]:
    """The catalog's bupa rows in the UCI file's order (KEEL moved 35 rows to the end)."""
    n = len(X)
    tail = np.array(_LIVER_UCI_POSITIONS_OF_TAIL)
    if n != 345:
        raise ValueError(f"expected the 345 rows of bupa, got {n}")
    order = np.empty(n, dtype=np.int64)
    order[tail] = np.arange(n - len(tail), n)
    order[np.setdiff1d(np.arange(n), tail)] = np.arange(n - len(tail))
    return X.iloc[order].reset_index(drop=True), y.iloc[order].reset_index(drop=True)


def load(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """A catalog data set as the tutorial's WEKA read it (Anneal and Liver adjusted, see DATA_NOTES)."""
    d = load_dataset(name)
    X, y = d.X, d.y
    if d.name == "anneal":
        X, y = anneal_as_weka(X, y)
    elif d.name == "bupa":
        X, y = liver_in_uci_order(X, y)
    return X, y


def datasets_table() -> pd.DataFrame:
    """The tutorial's data sets, the catalog set used for each and how it was read."""
    from ..datasets import paper_datasets

    t = paper_datasets("japkowicz2011")[["paper_name", "dataset", "status", "note"]].copy()
    t["read as"] = t["dataset"].map(DATA_NOTES).fillna("as in the catalog")
    return t


# --------------------------------------------------------------------------- learners

class NominalOneR(TabularClassifier):
    """1R on nominal attributes (Holte 1993), as WEKA's OneR treats them: per attribute, each value
    predicts its majority class (ties to the lowest class; a missing value is a value of its own, an
    unseen one predicts class 0); the attribute with the most training instances right wins (the
    first on ties). A stand-in for WEKA's OneR while that is not in the registry (numeric
    attributes are refused, not bucketed)."""

    def _fit(self, X, y):
        if not self.schema_.nominal.all():
            raise ValueError("NominalOneR takes nominal attributes only")
        K = len(self.classes_)
        best = (-1, 0, None)
        for j in range(X.shape[1]):
            codes = np.where(np.isnan(X[:, j]), self.schema_.n_values[j], X[:, j]).astype(np.int64)
            counts = np.zeros((self.schema_.n_values[j] + 1, K))
            np.add.at(counts, (codes, y), 1.0)
            right = counts.max(axis=1).sum()
            if right > best[0]:
                best = (right, j, counts.argmax(axis=1))
        self.attribute_, self.rule_ = best[1], best[2]

    def _predict_proba(self, X):
        j = self.attribute_
        codes = np.where(np.isnan(X[:, j]), self.schema_.n_values[j], X[:, j]).astype(np.int64)
        P = np.zeros((len(X), len(self.classes_)))
        P[np.arange(len(X)), self.rule_[codes]] = 1.0
        return P


def _registry_row(name: str):
    from ..learners import list_learners

    table = list_learners()
    hit = table[(table["name"] == name) | table["aliases"].str.split(", ").apply(lambda a: name in a)]
    return None if hit.empty else hit.iloc[0]


def status_of(label: str) -> str:
    """"faithful" or "stand-in": the registry's status of what runs for one of the eight labels."""
    name = LEARNERS[label].runs()
    if not name:
        return "faithful"                     # IBk built directly
    row = _registry_row(name)
    return "not registered" if row is None else row["status"]


def runs_name(label: str) -> str:
    """The registry's own name of the learner that runs for one of the eight labels (aliases resolved)."""
    name = LEARNERS[label].runs()
    row = _registry_row(name) if name else None
    return name if row is None else row["name"]


def make_learner_for(label: str):
    """A fresh estimator for one of the tutorial's labels (the eight, "IBk -K 3", or the flu study's)."""
    from ..learners import make_learner
    from ..learners.knn import IBk
    from ..learners.mlp import WekaMLP

    if label == "3NN":
        return IBk(k=1)
    if label == "IBk -K 3":
        return IBk(k=3)
    if label in LEARNERS:                       # seed 1 for a randomised stand-in, as WEKA's defaults (-S 1)
        return make_learner(LEARNERS[label].runs(), random_state=1)
    if label == "1R":
        row = _registry_row("OneR")
        return make_learner("OneR", random_state=1) if row is not None else NominalOneR()
    if label == "DT":
        return make_learner("C4.5", random_state=1)
    if label == "SimpleNN":
        return make_learner("Perceptron", random_state=1)
    if label == "MLP":
        return WekaMLP(hidden_layers="a")
    raise ValueError(f"unknown classifier label {label!r}; known: {', '.join([*LEARNERS, *FLU_LEARNERS])}")


def learners_table() -> pd.DataFrame:
    """Every classifier label of the study: what runs, its status, the WEKA it stands for."""
    rows = []
    for label, choice in LEARNERS.items():
        registry = choice.runs() or ("IBk-3" if "3" in choice.weka_options else "IBk-1")
        row = _registry_row(registry)
        rows.append({"label": label, "runs": type(make_learner_for(label)).__name__, "registry": registry,
                     "status": status_of(label),
                     "WEKA": " ".join([choice.weka_class.split(".")[-1], *choice.weka_options]),
                     "note": choice.note or (row["note"] if row is not None else "")})
    flu = {"1R": ("OneR", "weka.classifiers.rules.OneR"), "DT": ("C4.5", "J48"),
           "SimpleNN": ("Perceptron", "MultilayerPerceptron -H 0"), "MLP": ("MLP", "MultilayerPerceptron -H a")}
    for label, (registry, weka) in flu.items():
        row = _registry_row(registry)
        runs = type(make_learner_for(label)).__name__
        stand_in = runs == "NominalOneR"
        rows.append({"label": label, "runs": runs, "registry": registry if not stand_in else "-",
                     "status": "stand-in" if stand_in else (row["status"] if row is not None else "faithful"),
                     "WEKA": weka.split(".")[-1],
                     "note": ("WEKA's 1R rules on nominal attributes (the flu domain has only those); WEKA's OneR is "
                              "not in the registry yet") if stand_in else
                             ("WekaMLP with WEKA's default hidden layer 'a'" if label == "MLP" else "")})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- the runs

@dataclass
class Results:
    """Everything :func:`run` computed. ``cv``: WEKA-style cross-validations keyed by
    (data set, label, seed, folds); ``weka``: the real WEKA's measures keyed by (data set, label), or
    None; ``resampling``, ``simulation``, ``sim_truth``, ``flu``: tidy tables; ``fold_counts``: the
    instances and correct predictions of each fold of each cross-validation (``dataset, label, seed,
    folds, fold, n, correct``), which stands in for ``cv`` where shipped results keep no predictions."""

    params: dict
    cv: dict = field(default_factory=dict)
    weka: dict | None = None
    weka_version: str | None = None
    resampling: pd.DataFrame | None = None
    simulation: pd.DataFrame | None = None
    sim_truth: pd.DataFrame | None = None
    flu: pd.DataFrame | None = None
    boot_truth: pd.DataFrame | None = None
    fold_counts: pd.DataFrame | None = None

    def predictions(self, dataset: str, label: str, seed: int = 1, folds: int = 10) -> WekaCVPredictions:
        return self.cv[(dataset, label, seed, folds)]

    def _counts(self, dataset, label, seed, folds) -> tuple[np.ndarray, np.ndarray]:
        """(instances, correct predictions) per fold of one cross-validation."""
        key = (dataset, label, seed, folds)
        if key in self.cv:
            return _counts_of(self.cv[key])
        t = self.fold_counts
        t = t[(t.dataset == dataset) & (t.label == label) & (t.seed == seed) & (t.folds == folds)]
        if not len(t):
            raise KeyError(f"no cross-validation {key} in these results")
        t = t.sort_values("fold")
        return t["n"].to_numpy(), t["correct"].to_numpy(dtype=float)

    def fold_accuracies(self, dataset: str, label: str, seed: int = 1, folds: int = 10) -> np.ndarray:
        """Percent correct of each fold (WEKA's per-fold percent_correct)."""
        n, right = self._counts(dataset, label, seed, folds)
        return 100.0 * right / n

    def accuracy(self, dataset: str, label: str, seed: int = 1, folds: int = 10) -> float:
        """Percent correct over every instance of one cross-validation."""
        n, right = self._counts(dataset, label, seed, folds)
        return float(100 * (right.sum() / n.sum()))


def _counts_of(pred: WekaCVPredictions) -> tuple[np.ndarray, np.ndarray]:
    right = pred.predicted() == pred.y
    k = int(pred.fold.max()) + 1
    return np.bincount(pred.fold, minlength=k), np.bincount(pred.fold, weights=right, minlength=k)


def _cv_task(dataset, label, seed, folds) -> pd.DataFrame:
    """One WEKA-style cross-validation as a task table (:func:`_cv_table`)."""
    X, y = load(dataset)
    return _cv_table(weka_cross_validate(make_learner_for(label), X, y, n_folds=folds, seed=seed))


def _cv_table(pred: WekaCVPredictions) -> pd.DataFrame:
    """Per prediction: its row, class code, fold, distribution over the classes (``p <class>``) and its
    fold's priors (``prior <class>``); :func:`_predictions` reads it back."""
    if len(np.unique(pred.fold)) != len(pred.priors):
        raise ValueError("a fold without predictions: its priors would not be kept")
    names = [str(c) for c in pred.classes]
    return pd.DataFrame({"row": pred.rows, "y": pred.y, "fold": pred.fold,
                         **{f"p {c}": pred.proba[:, j] for j, c in enumerate(names)},
                         **{f"prior {c}": pred.priors[pred.fold, j] for j, c in enumerate(names)}})


def _predictions(table: pd.DataFrame) -> WekaCVPredictions:
    classes = np.asarray([c[2:] for c in table.columns if c.startswith("p ")], dtype=object)
    fold = table["fold"].to_numpy()
    _, first = np.unique(fold, return_index=True)
    priors = table[[f"prior {c}" for c in classes]].to_numpy()[first]
    return WekaCVPredictions(table["row"].to_numpy(), table["y"].to_numpy(),
                             table[[f"p {c}" for c in classes]].to_numpy(), fold, priors, classes)


@lru_cache(maxsize=16)
def _data_key(name: str) -> str:
    X, y = load(name)
    return fingerprint(X) + fingerprint(y)


def _keyed(kwargs: dict, label: str, dataset: str | None = None) -> Task:
    """A task whose key also holds what its function reads by name: the learner (class and parameters)
    and the data set's content."""
    return Task(kwargs, key=(make_learner_for(label),) + ((_data_key(dataset),) if dataset else ()))


def cv_jobs(params) -> list[tuple]:
    """Every (data set, label, seed, folds) cross-validation the study needs."""
    jobs = [(d, label, 1, 10) for d in params["explorer_datasets"] for label in EXPLORER_LEARNERS]
    jobs += [("labor", label, s, 10) for label in LABOR_PAIR for s in range(1, params["ttest_runs"] + 1)]
    jobs += [(d, label, s, 10) for d in params["sign_domains"] for label in SIGN_LEARNERS.values()
             for s in range(1, params["sign_runs"] + 1)]
    for dataset, a, b in params["resampling_pairs"]:
        jobs += [(dataset, label, s, 2) for label in (a, b) for s in range(1, 6)]
        jobs += [(dataset, label, s, 10) for label in (a, b) for s in range(1, params["ttest_runs"] + 1)]
    return list(dict.fromkeys(jobs))


STUDY_ID = "japkowicz2011"

# The study's separable parts (a run with params["parts"] computes only those; the notebook needs all).
PARTS = ("cross-validations", "resampling", "bootstrap truth", "simulation", "flu")

# The paper run part by part, cheapest first (tools/paper_run.py; estimate_core_hours, CPU): the
# cross-validations and the simulation (about 0.03 core-hours each), the flu domain (0.1), the bootstrap
# and permutation tests (0.2), the bootstrap against a held-out truth (0.4).
PAPER_ORDER = tuple({"parts": [part]} for part in ("cross-validations", "simulation", "flu", "resampling",
                                                    "bootstrap truth"))


def run(params: dict, store=None, n_jobs: int = 1, backend: str = "loky", progress: bool = True,
        shipped=None) -> Results:
    """All of the study's experiments at ``params`` (a profile's :data:`SCALES` entry).

    Every task goes through the task map (:func:`cvrepro.engine.map_tasks`: cached under ``store``,
    checksummed, resumable after a kill; stores of the former npz/JSON cache are not read); every task
    is seeded by its own inputs, so the numbers do not depend on ``n_jobs`` or ``backend``.
    ``params["parts"]`` (default: all of :data:`PARTS`) limits the run to those parts. ``shipped``: a
    folder of shipped results (:mod:`cvrepro.shipped`); at the ``paper`` profile, when it holds this
    study, its tables are read (checksums verified, same design) instead of computing anything.
    """
    tables = shipped_results.tables_for(STUDY_ID, params, shipped)
    if tables is not None:
        return from_tables(params, tables)
    parts = params.get("parts") or PARTS
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown parts {sorted(unknown)} in params['parts']; known: {', '.join(PARTS)}")
    results = Results(params)
    engine = {"store": store, "n_jobs": n_jobs, "backend": backend, "progress": progress}
    if "cross-validations" in parts:
        jobs = cv_jobs(params)
        tasks = [_keyed(dict(dataset=d, label=label, seed=s, folds=k), label, d) for d, label, s, k in jobs]
        tables = map_tasks(_cv_task, tasks, **engine, desc="cross-validations")
        results.cv = {job: _predictions(t) for job, t in zip(jobs, tables)}
        if params.get("weka_reference", True):
            results.weka, results.weka_version = weka_reference(params)
    if "resampling" in parts:
        results.resampling = _resampling(params, engine)
    if "bootstrap truth" in parts:
        results.boot_truth = _boot_truth(params, engine)
    if "simulation" in parts:
        results.simulation, results.sim_truth = simulate(params, engine)
    if "flu" in parts:
        results.flu = _flu(params, engine)
    return results


# --------------------------------------------------------------------------- shipped results

_TIDY = ("resampling", "boot_truth", "simulation", "sim_truth", "flu")


def _explorer_keys(params) -> list[tuple]:
    """The cross-validations whose predictions the notebook reads (measures, ROC and cost curves,
    confusion matrices, McNemar): 10-fold, seed 1, on the Explorer data sets."""
    return [(d, label, 1, 10) for d in params["explorer_datasets"] for label in EXPLORER_LEARNERS]


def to_tables(results: Results) -> dict[str, pd.DataFrame]:
    """The smallest tables the notebook needs (what is shipped for the paper profile): the predictions of
    the Explorer runs (``predictions``, ``priors``, ``classes``), the instances and correct predictions of
    every fold of every cross-validation (``fold_counts``), the real WEKA's measures when it ran, and the
    resampling, bootstrap-truth, simulation and flu tables."""
    preds, priors, classes, counts = [], [], [], [results.fold_counts]       # shipped results hold their counts
    for (d, label, seed, folds), pred in results.cv.items() if results.fold_counts is None else ():
        n, right = _counts_of(pred)
        counts.append(pd.DataFrame({"dataset": d, "label": label, "seed": seed, "folds": folds,
                                    "fold": np.arange(len(n)), "n": n, "correct": right.astype(int)}))
    for d, label, seed, folds in _explorer_keys(results.params):
        pred = results.predictions(d, label, seed, folds)
        preds.append(pd.DataFrame({"dataset": d, "label": label, "row": pred.rows, "y": pred.y, "fold": pred.fold,
                                   "proba": list(pred.proba)}))
        priors.append(pd.DataFrame({"dataset": d, "label": label, "fold": np.arange(len(pred.priors)),
                                    "priors": list(pred.priors)}))
        if d not in {c.dataset.iloc[0] for c in classes}:
            classes.append(pd.DataFrame({"dataset": d, "code": np.arange(len(pred.classes)),
                                         "class": np.asarray(pred.classes).astype(str)}))
    tables = {"predictions": pd.concat(preds, ignore_index=True), "priors": pd.concat(priors, ignore_index=True),
              "classes": pd.concat(classes, ignore_index=True), "fold_counts": pd.concat(counts, ignore_index=True)}
    tables.update({name: getattr(results, name) for name in _TIDY})
    if results.weka:
        tables.update(_weka_tables(results.weka, results.weka_version))
    return tables


def _weka_tables(weka: dict, version: str) -> dict[str, pd.DataFrame]:
    scalars, per_class, confusion = [], [], []
    for (d, label), r in weka.items():
        scalars.append({"dataset": d, "label": label, "version": version,
                        **{k: v for k, v in r.items() if k not in ("per_class", "confusion")}})
        per_class.append(r["per_class"].assign(dataset=d, label=label, code=np.arange(len(r["per_class"]))))
        cm = np.asarray(r["confusion"])
        actual, predicted = np.indices(cm.shape)
        confusion.append(pd.DataFrame({"dataset": d, "label": label, "actual": actual.ravel(),
                                       "predicted": predicted.ravel(), "count": cm.ravel()}))
    return {"weka": pd.DataFrame(scalars), "weka_per_class": pd.concat(per_class, ignore_index=True),
            "weka_confusion": pd.concat(confusion, ignore_index=True)}


def _weka_from_tables(tables) -> tuple[dict | None, str | None]:
    if "weka" not in tables:
        return None, None
    per_class = {k: g for k, g in tables["weka_per_class"].groupby(["dataset", "label"], sort=False)}
    confusion = {k: g for k, g in tables["weka_confusion"].groupby(["dataset", "label"], sort=False)}
    out = {}
    for r in tables["weka"].to_dict("records"):
        key = (r.pop("dataset"), r.pop("label"))
        r.pop("version")
        pc_ = per_class[key].sort_values("code")
        cm = confusion[key]
        matrix = np.zeros((cm.actual.max() + 1, cm.predicted.max() + 1), dtype=int)
        matrix[cm.actual, cm.predicted] = cm["count"]
        out[key] = {**r, "unclassified": int(r["unclassified"]), "confusion": matrix,
                    "per_class": pc_.drop(columns=["dataset", "label", "code"]).reset_index(drop=True)}
    return out, str(tables["weka"]["version"].iloc[0])


def from_tables(params: dict, tables: dict[str, pd.DataFrame]) -> Results:
    """:class:`Results` rebuilt from :func:`to_tables`' tables: the Explorer runs' predictions, the fold
    counts of the other cross-validations, and the tidy tables."""
    classes = {d: g.sort_values("code")["class"].to_numpy() for d, g in tables["classes"].groupby("dataset")}
    priors = {k: g.sort_values("fold") for k, g in tables["priors"].groupby(["dataset", "label"], sort=False)}
    cv = {}
    for (d, label), g in tables["predictions"].groupby(["dataset", "label"], sort=False):
        cv[(d, label, 1, 10)] = WekaCVPredictions(g["row"].to_numpy(), g["y"].to_numpy(), np.stack(g["proba"]),
                                                  g["fold"].to_numpy(), np.stack(priors[(d, label)]["priors"]),
                                                  classes[d])
    weka, version = _weka_from_tables(tables)
    return Results(params, cv, weka, version, **{name: tables[name] for name in _TIDY},
                   fold_counts=tables["fold_counts"])


def recompute_slice(params: dict, tables: dict[str, pd.DataFrame], n_cells: int = 2,
                    random_state: int = 0) -> pd.DataFrame:
    """Recompute ``n_cells`` cross-validations (data set, label, seed, folds drawn from
    ``tables["fold_counts"]``: their correct predictions), one Explorer cross-validation (its
    out-of-fold probabilities, bit for bit) and ``n_cells`` simulated data sets (their p-values) from
    scratch, beside the shipped numbers: the check that shipped numbers are what the ``paper`` profile
    computes."""
    counts = tables["fold_counts"]
    runs = counts[["dataset", "label", "seed", "folds"]].drop_duplicates().sample(n_cells, random_state=random_state)
    rows = []
    for r in runs.itertuples():
        shipped_ = counts[(counts.dataset == r.dataset) & (counts.label == r.label) & (counts.seed == r.seed)
                          & (counts.folds == r.folds)].sort_values("fold")["correct"].tolist()
        _, right = _counts_of(_predictions(_cv_task(r.dataset, r.label, int(r.seed), int(r.folds))))
        rows.append({"cell": f"CV {r.dataset} {r.label} seed {r.seed}, {r.folds} folds: correct per fold",
                     "shipped": str(shipped_), "recomputed": str(right.astype(int).tolist())})
    preds = tables["predictions"]
    explorer = preds[["dataset", "label"]].drop_duplicates().sample(min(1, n_cells), random_state=random_state)
    for d, label in explorer.itertuples(index=False):
        g = preds[(preds.dataset == d) & (preds.label == label)]
        again = _predictions(_cv_task(d, label, 1, 10))
        rows.append({"cell": f"CV {d} {label} seed 1, 10 folds: out-of-fold rows and probabilities (content hash)",
                     "shipped": _probabilities_hash(g["row"].to_numpy(), np.stack(g["proba"].to_list())),
                     "recomputed": _probabilities_hash(again.rows, again.proba)})
    sim = tables["simulation"].sample(n_cells, random_state=random_state)
    for _, r in sim.iterrows():
        i = int(r["replication"])
        again = simulation_chunk(r["separation_b"], i, i + 1, params["sim_n"], params["seed"])
        rows.append({"cell": f"simulated data set {i}, separation {r['separation_b']:g}: p-values",
                     "shipped": str(r.tolist()), "recomputed": str(again.iloc[0][sim.columns].tolist())})
    return pd.DataFrame(rows)


def _probabilities_hash(rows: np.ndarray, proba: np.ndarray) -> str:
    return f"{fingerprint(np.asarray(rows, dtype=np.int64))} {fingerprint(np.asarray(proba, dtype=np.float64))}"


def weka_reference(params) -> tuple[dict | None, str | None]:
    """The real WEKA's own 10-fold cross-validation (seed 1) of the eight (and IBk -K 3) on the
    Explorer data sets and the sign-test domains, when its jar and java are found; else (None, None)."""
    from ..reference.weka import available, find_jar
    from ..reference.weka_evaluation import EvaluationJob, cross_validate

    if not available():
        return None, None
    keys, jobs, data = [], [], {}
    wanted = [(d, label) for d in params["explorer_datasets"] for label in EXPLORER_LEARNERS]
    wanted += [(d, label) for d in params["sign_domains"] for label in SIGN_LEARNERS.values()]
    wanted += [(d, NB_DISCRETIZED) for d in params["sign_domains"]]
    for dataset, label in dict.fromkeys(wanted):
        if dataset not in data:
            data[dataset] = load(dataset)
        choice = LEARNERS[label] if label in LEARNERS else LearnerChoice("", "weka.classifiers.bayes.NaiveBayes",
                                                                         ("-D",))
        keys.append((dataset, label))
        jobs.append(EvaluationJob(choice.weka_class, choice.weka_options, *data[dataset], 10, 1))
    out = cross_validate(jobs)
    return dict(zip(keys, out)), Path(find_jar()).name


# The printed sign-test table's NB column is not WEKA's default NB: it follows NaiveBayes -D (supervised
# discretization), which we have no port of. Measured with WEKA 3.6.14 (1 x 10-fold CV, seed 1, data read as
# here); the notebook re-measures it when the jar is found.
NB_DISCRETIZED = "NB -D (WEKA only)"

NB_DISCRETIZED_MEASURED = {"anneal": 96.6592, "glass": 74.2991, "balance-scale": 71.52, "hepatitis": 83.2258,
                           "pima": 74.349, "audiology": 72.5664}

NB_DEFAULT_MEASURED = {"anneal": 86.3029, "glass": 49.5327, "balance-scale": 90.56, "hepatitis": 84.5161,
                       "pima": 76.3021, "audiology": 72.5664}


# --------------------------------------------------------------------------- resampling

def _resampling_task(dataset, label, n_bootstrap, n_permutations, seed) -> pd.DataFrame:
    X, y = load(dataset)
    est = make_learner_for(label)
    boot = bootstrap_error(est, X, y, n_bootstrap=n_bootstrap, random_state=seed, progress=False)
    perm = label_permutation_test(est, X, y, cv=WekaStratifiedKFold(10, 1), n_permutations=n_permutations,
                                  random_state=seed, progress=False)
    return pd.DataFrame([{"dataset": dataset, "classifier": label, "e0": boot.e0, "e632": boot.e632,
                          "e632_plus": boot.e632_plus, "resubstitution": boot.resubstitution,
                          "permutation accuracy": perm.statistic, "permutation p": perm.pvalue,
                          "permuted mean accuracy": float(np.mean(perm.permutation_scores)),
                          "permutations": perm.n_permutations}])


def _resampling(params, engine) -> pd.DataFrame:
    """Bootstrap and permutation test of each classifier of the resampling pairs (one task each)."""
    jobs = list(dict.fromkeys((d, label) for d, a, b in params["resampling_pairs"] for label in (a, b)))
    tasks = [_keyed(dict(dataset=d, label=label, n_bootstrap=params["n_bootstrap"],
                         n_permutations=params["n_permutations"], seed=params["seed"]), label, d) for d, label in jobs]
    parts = map_tasks(_resampling_task, tasks, **engine, desc="bootstrap and permutations")
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


_BOOT_TRUTH_PARAMS = ("boot_truth_pool", "boot_truth_size", "boot_truth_bootstrap", "seed")


def boot_truth_chunk(label, start, stop, params) -> pd.DataFrame:
    """Samples ``start``..``stop`` - 1 of the bootstrap truth design: e0, .632, .632+ of ``label`` on a sample
    of ``boot_truth_size`` rows of ``boot_truth_pool``, and the true error (the model fit on the sample, scored
    on every other row of the pool)."""
    X, y = load(params["boot_truth_pool"])
    rows = []
    for sample in range(start, stop):
        rng = np.random.default_rng([params["seed"], sample])
        pick = np.zeros(len(y), dtype=bool)
        pick[rng.choice(len(y), params["boot_truth_size"], replace=False)] = True
        Xs, ys = X[pick].reset_index(drop=True), y[pick].reset_index(drop=True)
        boot = bootstrap_error(make_learner_for(label), Xs, ys, n_bootstrap=params["boot_truth_bootstrap"],
                               random_state=sample, progress=False)
        model = make_learner_for(label).fit(Xs, ys)
        truth = float(np.mean(np.asarray(model.predict(X[~pick])) != y[~pick].to_numpy()))
        rows.append({"classifier": label, "sample": sample, "e0": boot.e0, ".632": boot.e632,
                     ".632+": boot.e632_plus, "resubstitution": boot.resubstitution, "true error": truth})
    return pd.DataFrame(rows)


def _boot_truth(params, engine) -> pd.DataFrame:
    labels = list(dict.fromkeys(label for _, a, b in params["resampling_pairs"] for label in (a, b)))
    m, step = params["boot_truth_samples"], 10
    design = {k: params[k] for k in _BOOT_TRUTH_PARAMS}
    tasks = [_keyed(dict(label=label, start=i, stop=min(i + step, m), params=design), label,
                    params["boot_truth_pool"]) for label in labels for i in range(0, m, step)]
    parts = map_tasks(boot_truth_chunk, tasks, **engine, desc="bootstrap against a held-out truth")
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


# --------------------------------------------------------------------------- research 2: the flu domain

def _flu_task(repetition, label, scenarios, n_train, n_test, seed) -> pd.DataFrame:
    base = FluDomain()

    def seeds(*parts):
        return [seed, repetition, *[int(hashlib.sha256(str(p).encode()).hexdigest()[:8], 16) for p in parts]]

    def fit(frame):
        return make_learner_for(label).fit(frame.drop(columns="class"), frame["class"])

    def error(model, frame):
        return float(np.mean(model.predict(frame.drop(columns="class")) != frame["class"].to_numpy()))

    baseline = fit(base.sample(n_train, seeds("train")))
    rows = []
    for name in scenarios:
        sc = SCENARIOS[name]
        train_domain, test_domain = sc.domains(base)
        model = fit(train_domain.sample(n_train, seeds("train"), exclude=sc.train_exclude)) \
            if sc.train_exclude else baseline
        test = test_domain.sample(n_test, seeds("test", name))
        ideal = fit(test_domain.sample(n_train, seeds("ideal", name)))
        e_test, e_ideal, e0 = error(model, test), error(ideal, test), trivial_error(test["class"])
        rows.append({"scenario": name, "kind": sc.kind, "repetition": repetition, "classifier": label,
                     "error": e_test, "ideal error": e_ideal, "trivial error": e0,
                     "pD": performance_deterioration(e_test, e_ideal, e0)})
    return pd.DataFrame(rows)


def _flu(params, engine) -> pd.DataFrame:
    scenarios = list(params["flu_scenarios"] or SCENARIOS)
    tasks = [_keyed(dict(repetition=r, label=label, scenarios=scenarios, n_train=params["flu_train"],
                         n_test=params["flu_test"], seed=params["seed"]), label)
             for r in range(params["flu_repetitions"]) for label in FLU_LEARNERS]
    return pd.concat(map_tasks(_flu_task, tasks, **engine, desc="flu domain"), ignore_index=True)


# --------------------------------------------------------------------------- bench

def estimate_core_hours(params: dict, n_jobs: int = 2) -> pd.Series:
    """Core-hours of the study at ``params``, by (task, learner): the WEKA-style cross-validations (one
    10-fold run each, scaled by the runs the profile asks for), the bootstrap and permutation test
    (a few samples each, scaled), the simulation (one chunk, scaled) and the flu domain (two scenarios at
    the profile's sizes, scaled to every scenario and repetition); for ``make bench``."""
    import time

    def timed(function, *args, **kwargs):
        start = time.perf_counter()
        function(*args, **kwargs)
        return (time.perf_counter() - start) / 3600

    counts: dict = {}
    for d, label, _, folds in cv_jobs(params):
        counts[(d, label)] = counts.get((d, label), 0) + folds / 10
    out = {}
    for (d, label), n in counts.items():
        X, y = load(d)
        out[(d, label)] = timed(weka_cross_validate, make_learner_for(label), X, y) * n
    for d, label in dict.fromkeys((d, lab) for d, a, b in params["resampling_pairs"] for lab in (a, b)):
        X, y = load(d)
        est = make_learner_for(label)
        boot = timed(bootstrap_error, est, X, y, n_bootstrap=5, random_state=1, progress=False) / 5
        perm = timed(label_permutation_test, est, X, y, cv=WekaStratifiedKFold(10, 1), n_permutations=2,
                     random_state=1, progress=False) / 3
        out[(f"resampling: {d}", label)] = boot * params["n_bootstrap"] + perm * (params["n_permutations"] + 1)
        if params["boot_truth_samples"]:
            probe = {**params, "boot_truth_bootstrap": 5}
            per_sample = timed(boot_truth_chunk, label, 0, 2, probe) / 2 / 6      # per fit
            out[("bootstrap truth", label)] = (per_sample * params["boot_truth_samples"]
                                               * (params["boot_truth_bootstrap"] + 1))
    reps, separations = params["sim_replications"], len(params["sim_separations"])
    out[("simulation", "Gaussian NB")] = (timed(simulation_chunk, 1.0, 0, 5, params["sim_n"], 0) / 5 * reps
                                          + timed(simulation_truth, 1.0, int(0.9 * params["sim_n"]), 5, 0) / 5
                                          * params["sim_truth_samples"]) * separations
    scenarios = len(params["flu_scenarios"] or SCENARIOS)
    for label in FLU_LEARNERS:           # a run fits once for the baseline and once per scenario (the ideal)
        per_fit = timed(_flu_task, 0, label, ["none", "DP"], params["flu_train"], params["flu_test"], 0) / 3
        out[("flu domain", label)] = per_fit * (1 + 1.3 * scenarios) * params["flu_repetitions"]
    return pd.Series(out)
