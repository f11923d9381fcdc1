"""Run the real WEKA 3.6 on the same data and folds as our learners.

WEKA is not a dependency: :func:`find_jar` looks for Debian's package jar
(``$CVREPRO_WEKA_JAR``, else ``/usr/share/java/weka.jar``) and ``java``; the
callers skip or fall back to recorded fixtures when it is absent. Each fold is
written as ARFF files (attributes renamed ``a0..``, missing values ``?``) and
classified by WEKA's command line.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["find_jar", "available", "write_arff", "predictions", "correctly_classified", "printed_model"]

DEBIAN_JAR = "/usr/share/java/weka.jar"


def find_jar() -> str | None:
    """Path of WEKA's jar ($CVREPRO_WEKA_JAR, else Debian's), or None."""
    for candidate in (os.environ.get("CVREPRO_WEKA_JAR"), DEBIAN_JAR):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def available() -> bool:
    """True when both the jar and ``java`` are found."""
    return find_jar() is not None and shutil.which("java") is not None


def _jar() -> str:
    jar = find_jar()
    if jar is None or shutil.which("java") is None:
        raise FileNotFoundError("WEKA needs java and weka.jar ($CVREPRO_WEKA_JAR or /usr/share/java/weka.jar)")
    return jar


def _quote(v) -> str:
    s = str(v)
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'" if re.search(r"[\s,'\"{}%?]", s) or not s else s


def write_arff(path, X: pd.DataFrame, y: pd.Series) -> None:
    """Write ``X`` (categoricals nominal, NaN as ``?``) and class ``y`` as an ARFF file."""
    lines = ["@relation cvrepro"]
    for j, name in enumerate(X.columns):
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            lines.append(f"@attribute a{j} {{{','.join(_quote(v) for v in col.cat.categories)}}}")
        else:
            lines.append(f"@attribute a{j} numeric")
    lines.append(f"@attribute class {{{','.join(_quote(v) for v in y.cat.categories)}}}")
    lines.append("@data")
    cols = [X[c] for c in X.columns]
    for i in range(len(X)):
        row = []
        for col in cols:
            v = col.iloc[i]
            if pd.isna(v):
                row.append("?")
            elif isinstance(col.dtype, pd.CategoricalDtype):
                row.append(_quote(v))
            else:
                row.append(repr(float(v)))
        row.append(_quote(y.iloc[i]))
        lines.append(",".join(row))
    Path(path).write_text("\n".join(lines) + "\n")


def predictions(classifier: str, options, train, test, java_options=()) -> tuple[np.ndarray, np.ndarray]:
    """(predicted class indices, probability matrix) from WEKA's ``-p 0 -distribution`` output.

    WEKA prints probabilities with 3 decimals here; compare within 6e-4.
    """
    out = subprocess.run(["java", *java_options, "-cp", _jar(), classifier, *options, "-t", str(train),
                          "-T", str(test), "-p", "0", "-distribution"],
                         capture_output=True, text=True, check=True).stdout
    pred, dist = [], []
    started = False
    for line in out.splitlines():
        if "inst#" in line:
            started = True
            continue
        parts = line.split()
        if started and parts:
            pred.append(int(parts[2].split(":")[0]) - 1)
            dist.append([float(v.replace("*", "")) for v in parts[-1].split(",")])
    return np.array(pred), np.array(dist)


def correctly_classified(classifier: str, options, train, test, java_options=()) -> int:
    """How many test instances WEKA's evaluation counts as correct (its ``-t train -T test`` summary).

    WEKA's ``Evaluation`` takes the class of highest ``distributionForInstance``,
    which is not always the class ``-p`` prints (``classifyInstance``; e.g.
    J48 -A).
    """
    out = subprocess.run(["java", *java_options, "-cp", _jar(), classifier, *options, "-t", str(train),
                          "-T", str(test), "-o"], capture_output=True, text=True, check=True).stdout
    test_part = out[out.index("=== Error on test data ==="):]
    return int(re.search(r"Correctly Classified Instances\s+(\d+)", test_part).group(1))


def printed_model(classifier: str, options, arff, start: str, java_options=()) -> str:
    """The model WEKA prints when trained on ``arff``, from the line ``start`` on."""
    out = subprocess.run(["java", *java_options, "-cp", _jar(), classifier, *options, "-t", str(arff), "-no-cv"],
                         capture_output=True, text=True, check=True).stdout
    return out[out.index(start):]
