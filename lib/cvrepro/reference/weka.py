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

__all__ = ["find_jar", "available", "write_arff", "predictions", "printed_model", "fold_outputs"]

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


def printed_model(classifier: str, options, arff, start: str, java_options=()) -> str:
    """The model WEKA prints when trained on ``arff``, from the line ``start`` on."""
    out = subprocess.run(["java", *java_options, "-cp", _jar(), classifier, *options, "-t", str(arff), "-no-cv"],
                         capture_output=True, text=True, check=True).stdout
    return out[out.index(start):]


# --- full-precision outputs -------------------------------------------------
# ``-p 0 -distribution`` rounds probabilities to 3 decimals. This small program of ours
# (run by java's source launcher, nothing compiled to disk) trains the classifier through
# WEKA's public API on each training file and prints the model (``toString()``, what the
# command line prints) and ``distributionForInstance`` of every test instance with
# ``Double.toString``, which reads back to the same double.
_RUNNER = r"""
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.Arrays;
import weka.classifiers.Classifier;
import weka.core.Instances;

public class CvreproWekaRunner {
  public static void main(String[] args) throws Exception {
    int sep = Arrays.asList(args).indexOf("--");
    String[] options = Arrays.copyOfRange(args, 1, sep);
    for (int i = sep + 1; i + 1 < args.length; i += 2) {
      Instances train = read(args[i]), test = read(args[i + 1]);
      Classifier classifier = Classifier.forName(args[0], options.clone());
      classifier.buildClassifier(train);
      System.out.println("@@model");
      System.out.println(classifier.toString());
      System.out.println("@@distributions");
      for (int r = 0; r < test.numInstances(); r++) {
        double[] dist = classifier.distributionForInstance(test.instance(r));
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < dist.length; c++) {
          line.append(c == 0 ? "" : ",").append(Double.toString(dist[c]));
        }
        System.out.println(line);
      }
      System.out.println("@@end");
    }
  }

  static Instances read(String path) throws Exception {
    BufferedReader reader = new BufferedReader(new FileReader(path));
    Instances data = new Instances(reader);
    reader.close();
    data.setClassIndex(data.numAttributes() - 1);
    return data;
  }
}
"""


def fold_outputs(classifier: str, options, folds, java_options=()) -> list[tuple[str, np.ndarray]]:
    """WEKA's printed model and full-precision probabilities for each ``(train, test)`` ARFF pair.

    One JVM serves all pairs. The model text is ``Classifier.toString()`` (what the command
    line prints after training); probabilities are ``distributionForInstance`` exactly.
    """
    import tempfile

    jar = _jar()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "CvreproWekaRunner.java"
        source.write_text(_RUNNER)
        args = [str(p) for pair in folds for p in pair]
        out = subprocess.run(["java", *java_options, "-cp", jar, str(source), classifier, *options, "--", *args],
                             capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"WEKA {classifier} failed: {out.stderr.strip()[-2000:]}")
    results = []
    for block in out.stdout.split("@@model\n")[1:]:
        model, rest = block.split("\n@@distributions\n")
        rows = rest.split("@@end")[0].strip().splitlines()
        results.append((model.rstrip("\n"), np.array([[float(v) for v in r.split(",")] for r in rows])))
    return results
