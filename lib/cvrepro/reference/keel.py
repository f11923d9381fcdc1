"""Run KEEL's compiled classification algorithms on the same data and folds as our learners.

KEEL is not a dependency and is not shipped: its Java sources compile with the
machine's ``javac`` outside this repository, and ``$CVREPRO_KEEL_CLASSES``
names the directory of compiled classes (or a jar). :func:`available` tells
whether it and ``java`` are found; callers skip, or fall back to recorded
fixtures, when they are not.

A run is what KEEL's experiment module does for one partition: the training
and test folds are written as KEEL ``.dat`` files (:func:`write_dat`), a
configuration file names them, the output files and the algorithm's
parameters (:func:`write_config`, in the format KEEL's experiment generator
writes), ``java -cp <classes> <main class> config.txt`` runs the algorithm,
and the ``.tra`` / ``.tst`` outputs (one ``expected predicted`` pair per
instance) are read back (:func:`read_predictions`). :func:`run` does all of it
in a temporary directory.

Data conventions (what KEEL's ``keel.Dataset`` reader makes of the files):

* Nominal attributes (pandas categoricals) are declared with all their
  categories, in order, so that KEEL's value indices are the category codes.
  Values that are not plain tokens are written as ``v<code>``.
* Numeric attributes are declared ``integer`` when every known value in the
  whole frame is a whole number, else ``real``, with a range ``[min, max]``.
  KEEL normalises by the declared range and clamps test values into it, so
  the range is part of the experiment: by default it is the training fold's
  (``bounds=None``); KEEL's own partitions declare the whole data set's
  ranges in every fold (pass ``bounds``, see
  :func:`cvrepro.learners.keel_data.keel_bounds`).
* Missing values are written as ``?``.

:data:`ALGORITHMS` lists the algorithms this module knows, with KEEL's main
class and default parameters (from KEEL's method descriptors,
``dist/algorithm/methods/<name>.xml``).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "KeelAlgorithm", "ALGORITHMS", "KeelRun", "find_classes", "available", "dat_header",
    "write_dat", "write_config", "read_predictions", "run",
]

ENV = "CVREPRO_KEEL_CLASSES"


@dataclass(frozen=True)
class KeelAlgorithm:
    """A KEEL method: its descriptor name, main class, parameters (name, default) in the
    descriptor's order, whether the configuration takes a seed, and how many extra
    output files it writes."""

    name: str
    title: str
    main: str
    parameters: tuple
    seed: bool
    extra_outputs: int


ALGORITHMS: dict[str, KeelAlgorithm] = {a.name: a for a in (
    KeelAlgorithm("KNN-C", "K Nearest Neighbors Classifier", "keel.Algorithms.Lazy_Learning.KNN.Main",
                  (("K Value", 1), ("Distance Function", "Euclidean")), False, 1),
    KeelAlgorithm("LDA-C", "Linear Discriminant Analysis",
                  "keel.Algorithms.Statistical_Classifiers.ClassifierADLinear.ClassifierADLinear",
                  (("subAlgorithm", "ClasifADLinear"), ("dataformat", "keel"), ("outlabel", "ADL")), True, 0),
    KeelAlgorithm("C_SVM-C", "C_SVM", "keel.Algorithms.SVM.C_SVM.Main",
                  (("KERNELtype", "RBF"), ("C", 100.0), ("eps", 0.001), ("degree", 1), ("gamma", 0.01),
                   ("coef0", 0.0), ("nu", 0.1), ("p", 1.0), ("shrinking", 1)), True, 0),
    KeelAlgorithm("PDFC-C", "Positive Definite Fuzzy Classifier",
                  "keel.Algorithms.Fuzzy_Rule_Learning.Hybrid.PDFCS.Main",
                  (("C", 100.0), ("d", 0.25), ("toleranceParameter", 0.001), ("epsilon", 1.0e-12),
                   ("PDRFtype", "Gaussian"), ("ConvertNominalAttributesToBinary", "True"),
                   ("PreprocessType", "Normalize")), True, 1),
    KeelAlgorithm("SMO-C", "SMO", "keel.Algorithms.SVM.SMO.Main",
                  (("C", 1.0), ("toleranceParameter", 0.001), ("epsilon", 1.0e-12), ("RBFKernel_gamma", 0.01),
                   ("-Normalized-PolyKernel_exponent", 1), ("-Normalized-PolyKernel_useLowerOrder", "False"),
                   ("PukKernel_omega", 1.0), ("PukKernel_sigma", 1.0), ("StringKernel_lambda", 0.5),
                   ("StringKernel_subsequenceLength", 3), ("StringKernel_maxSubsequenceLength", 9),
                   ("StringKernel_normalize", "False"), ("StringKernel_pruning", "None"),
                   ("KERNELtype", "PolyKernel"), ("FitLogisticModels", "False"),
                   ("ConvertNominalAttributesToBinary", "True"), ("PreprocessType", "Normalize")), True, 1),
)}


def find_classes() -> str | None:
    """The compiled KEEL classes (directory or jar) named by ``$CVREPRO_KEEL_CLASSES``, or None."""
    path = os.environ.get(ENV)
    return path if path and Path(path).exists() else None


def available() -> bool:
    """True when the compiled classes and ``java`` are found."""
    return find_classes() is not None and shutil.which("java") is not None


def _classes() -> str:
    path = find_classes()
    if path is None or shutil.which("java") is None:
        raise FileNotFoundError(f"KEEL needs java and its compiled classes (${ENV})")
    return path


_TOKEN = re.compile(r"^[A-Za-z0-9_.+\-]+$")


def _labels(categories) -> list[str]:
    """KEEL-safe names of nominal values: the value itself when it is a plain token, else ``v<code>``."""
    names = [str(c) for c in categories]
    safe = [n if _TOKEN.match(n) and n.lower() != "null" else f"v{i}" for i, n in enumerate(names)]
    if len(set(safe)) != len(safe):
        safe = [f"v{i}" for i in range(len(names))]
    return safe


def _is_integer(col: pd.Series) -> bool:
    known = col.dropna().to_numpy(dtype=float)
    return bool(known.size) and bool(np.all(known == np.round(known))) and bool(np.all(np.abs(known) < 2 ** 31))


def _number(v: float, integer: bool) -> str:
    return str(int(v)) if integer else repr(float(v))


def _categorical_y(y) -> pd.Series:
    y = pd.Series(y).reset_index(drop=True)
    if not isinstance(y.dtype, pd.CategoricalDtype):
        y = y.astype("category")
    return y


def dat_header(X: pd.DataFrame, y, bounds=None, integer=None, relation: str = "cvrepro") -> str:
    """KEEL header (``@relation`` to ``@data``) of attributes ``X`` and class ``y``.

    ``bounds``: ``(n_attributes, 2)`` declared ``[min, max]`` per attribute (rows of
    nominal attributes ignored); default: ``X``'s own ranges. ``integer``: which
    numeric attributes to declare ``integer`` (default: whole-number columns).
    """
    y = _categorical_y(y)
    lines = [f"@relation {relation}"]
    names = [f"a{j}" for j in range(X.shape[1])]
    for j, name in enumerate(X.columns):
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            lines.append(f"@attribute {names[j]} {{{', '.join(_labels(col.cat.categories))}}}")
            continue
        as_int = _is_integer(col) if integer is None else bool(integer[j])
        known = col.dropna().to_numpy(dtype=float)
        if bounds is not None and np.isfinite(bounds[j]).all():
            lo, hi = float(bounds[j][0]), float(bounds[j][1])
            if known.size:
                lo, hi = min(lo, known.min()), max(hi, known.max())
        elif known.size:
            lo, hi = float(known.min()), float(known.max())
        else:
            lo, hi = 0.0, 0.0
        kind = "integer" if as_int else "real"
        lines.append(f"@attribute {names[j]} {kind} [{_number(lo, as_int)}, {_number(hi, as_int)}]")
    lines.append(f"@attribute class {{{', '.join(_labels(y.cat.categories))}}}")
    lines.append(f"@inputs {', '.join(names)}")
    lines.append("@outputs class")
    lines.append("@data")
    return "\n".join(lines) + "\n"


def write_dat(path, X: pd.DataFrame, y, bounds=None, integer=None, header: str | None = None) -> None:
    """Write ``X`` and ``y`` as a KEEL ``.dat`` file (header from :func:`dat_header` unless given)."""
    X = pd.DataFrame(X).reset_index(drop=True)
    y = _categorical_y(y)
    if header is None:
        header = dat_header(X, y, bounds, integer)
    ints = {}
    for line in header.splitlines():
        m = re.match(r"@attribute a(\d+) (integer|real)", line)
        if m:
            ints[int(m.group(1))] = m.group(2) == "integer"
    cols = []
    for j, name in enumerate(X.columns):
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            labels = np.array(_labels(col.cat.categories) + ["?"], dtype=object)
            codes = col.cat.codes.to_numpy()
            cols.append(labels[np.where(codes < 0, len(labels) - 1, codes)])
        else:
            values = col.to_numpy(dtype=float)
            cols.append(np.array(["?" if np.isnan(v) else _number(v, ints.get(j, False)) for v in values],
                                 dtype=object))
    cols.append(np.array(_labels(y.cat.categories), dtype=object)[y.cat.codes.to_numpy()])
    rows = [", ".join(r) for r in zip(*cols)] if len(X) else []
    Path(path).write_text(header + "\n".join(rows) + ("\n" if rows else ""))


def write_config(path, algorithm: KeelAlgorithm, train, test, outputs, params: dict | None = None,
                 seed: int = 12345678) -> None:
    """KEEL configuration file as KEEL's experiment generator writes it.

    ``outputs``: the ``.tra``, ``.tst`` and any extra output paths. ``params``
    override the algorithm's defaults by name.
    """
    values = dict(algorithm.parameters)
    for k, v in (params or {}).items():
        if k not in values:
            raise ValueError(f"{algorithm.name} has no parameter {k!r}; known: {', '.join(values)}")
        values[k] = v
    lines = [f"algorithm = {algorithm.title}",
             f'inputData = "{train}" "{train}" "{test}"',
             "outputData = " + " ".join(f'"{o}"' for o in outputs), ""]
    if algorithm.seed:
        lines.append(f"seed = {int(seed)}")
    lines += [f"{k} = {v}" for k, v in values.items()]
    Path(path).write_text("\n".join(lines) + "\n")


def read_predictions(path) -> tuple[list[str], list[str]]:
    """``(expected, predicted)`` class labels from a KEEL ``.tra`` / ``.tst`` output file."""
    expected, predicted = [], []
    started = False
    for line in Path(path).read_text().splitlines():
        if not started:
            started = line.strip().lower() == "@data"
            continue
        parts = line.split()
        if len(parts) >= 2:
            expected.append(parts[0])
            predicted.append(parts[1])
    return expected, predicted


@dataclass
class KeelRun:
    """What one KEEL run printed: predicted class indices (into ``classes``; -1 for
    "unclassified" or an unknown label) on the test and training folds, the extra
    output files' text, and the console output."""

    classes: list
    test_pred: np.ndarray
    train_pred: np.ndarray
    test_expected: np.ndarray
    extra: list = field(default_factory=list)
    stdout: str = ""


def _indices(labels, safe) -> np.ndarray:
    where = {s: i for i, s in enumerate(safe)}
    return np.array([where.get(v, -1) for v in labels], dtype=np.int64)


def run(algorithm: str, X_train: pd.DataFrame, y_train, X_test: pd.DataFrame, y_test=None,
        params: dict | None = None, seed: int = 12345678, bounds=None, workdir=None,
        timeout: float = 600.0) -> KeelRun:
    """Train KEEL's ``algorithm`` (a key of :data:`ALGORITHMS`) on one fold, classify the other.

    ``X_train`` / ``X_test`` are frames with the same columns (categoricals for
    nominal attributes), ``y_*`` class vectors; ``y_test`` defaults to the
    first class (KEEL needs a class in the file; it does not affect predictions).
    ``bounds``: declared numeric ranges, see :func:`dat_header`; default the
    training fold's. Both files carry the same header, as in KEEL's partitions.
    """
    algo = ALGORITHMS[algorithm]
    classes_path = _classes()
    X_train = pd.DataFrame(X_train).reset_index(drop=True)
    X_test = pd.DataFrame(X_test).reset_index(drop=True)
    y_train = _categorical_y(y_train)
    if y_test is None:
        y_test = pd.Categorical.from_codes(np.zeros(len(X_test), dtype=int), y_train.cat.categories)
    y_test = pd.Series(y_test).reset_index(drop=True).astype(y_train.dtype)
    both = pd.concat([X_train, X_test], ignore_index=True)
    integer = [not isinstance(both[c].dtype, pd.CategoricalDtype) and _is_integer(both[c]) for c in both.columns]
    header = dat_header(X_train, y_train, bounds, integer)
    safe = _labels(y_train.cat.categories)
    with tempfile.TemporaryDirectory(prefix="keel-", dir=workdir) as tmp:
        d = Path(tmp)
        (d / "data").mkdir()
        (d / "cfg").mkdir()
        train, test = d / "data" / "train.dat", d / "data" / "test.dat"
        write_dat(train, X_train, y_train, header=header)
        write_dat(test, X_test, y_test, header=header)
        outputs = [d / "result0s0.tra", d / "result0s0.tst"] + [d / f"result0s0e{k}.txt"
                                                               for k in range(algo.extra_outputs)]
        config = d / "cfg" / "config0s0.txt"
        write_config(config, algo, train, test, outputs, params, seed)
        proc = subprocess.run(["java", "-Xss16m", "-cp", classes_path, algo.main, str(config)],
                              capture_output=True, text=True, timeout=timeout, cwd=d)
        if not outputs[1].exists():
            raise RuntimeError(f"KEEL {algorithm} wrote no test output; stderr:\n{proc.stderr[-2000:]}")
        exp_te, pred_te = read_predictions(outputs[1])
        _, pred_tr = read_predictions(outputs[0]) if outputs[0].exists() else ([], [])
        extra = [p.read_text() if p.exists() else "" for p in outputs[2:]]
    if len(pred_te) != len(X_test):
        raise RuntimeError(f"KEEL {algorithm} classified {len(pred_te)} of {len(X_test)} test instances")
    return KeelRun(list(y_train.cat.categories), _indices(pred_te, safe), _indices(pred_tr, safe),
                   _indices(exp_te, safe), extra, proc.stdout)
