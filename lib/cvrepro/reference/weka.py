"""Run the real WEKA 3.6 on the same data and folds as our learners.

WEKA is not a dependency: :func:`find_jar` looks for Debian's package jar
(``$CVREPRO_WEKA_JAR``, else ``/usr/share/java/weka.jar``) and ``java``; the
callers fall back to recorded fixtures (``tests/fixtures/weka``) when it is
absent. Each fold is written as ARFF files (attributes renamed ``a0..``,
missing values ``?``).

:func:`run_folds` is the full-precision path: one JVM trains WEKA's
classifier on every fold and prints each test instance's
``distributionForInstance`` with ``Double.toString`` (which round-trips to the
same double) and the model's ``toString()``. It runs a small Java program of
ours (:data:`RUNNER_SOURCE`, calls to WEKA's public API only) with Java's
single-file source launcher (``java -cp weka.jar Runner.java``, Java >= 11):
nothing is compiled to disk. WEKA 3.6's own command line (:func:`predictions`,
``-p 0 -distribution``) prints probabilities with 3 decimals only, and 3.6 has
no ``-classifications``/``-decimals`` options.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["find_jar", "available", "write_arff", "predictions", "correctly_classified", "printed_model",
           "run_folds", "run_jobs", "WekaJob", "WekaFold", "STRICT_EXP", "RUNNER_SOURCE"]

DEBIAN_JAR = "/usr/share/java/weka.jar"
# JVM options under which Math.exp is fdlibm's (StrictMath.exp) instead of HotSpot's intrinsic;
# our MLP follows that arithmetic bit for bit (see cvrepro.learners.mlp).
STRICT_EXP = ("-XX:+UnlockDiagnosticVMOptions", "-XX:-UseLibmIntrinsic")

_END = "\u0001END"
RUNNER_SOURCE = """
import java.io.*;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;

/** Jobs (classifier, options, train ARFF, test ARFF), one per line of a tab-separated file: train each,
 *  print its model and the test rows' full-precision class distributions. */
public class CvreproWekaRunner {
  public static void main(String[] args) throws Exception {
    BufferedReader jobs = new BufferedReader(new InputStreamReader(new FileInputStream(args[0]), "UTF-8"));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    String job;
    while ((job = jobs.readLine()) != null) {
      String[] f = job.split("\\t", -1);
      Instances train = read(f[2]);
      Instances test = read(f[3]);
      Classifier classifier = Classifier.forName(f[0], Utils.splitOptions(f[1]));
      classifier.buildClassifier(train);
      out.println("MODEL");
      out.println(classifier.toString());
      out.println("END_MARK");
      for (int i = 0; i < test.numInstances(); i++) {
        double[] dist = classifier.distributionForInstance(test.instance(i));
        StringBuilder line = new StringBuilder();
        for (int j = 0; j < dist.length; j++) {
          if (j > 0) line.append(' ');
          line.append(Double.toString(dist[j]));
        }
        out.println(line);
      }
      out.println("END_MARK");
    }
    out.flush();
  }

  static Instances read(String path) throws Exception {
    Reader reader = new BufferedReader(new InputStreamReader(new FileInputStream(path), "UTF-8"));
    Instances data = new Instances(reader);
    reader.close();
    data.setClassIndex(data.numAttributes() - 1);
    return data;
  }
}
""".replace("END_MARK", _END)


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
    """Write ``X`` (categoricals nominal, NaN as ``?``) and class ``y`` as an ARFF file.

    Attributes are named ``a0, a1, ...`` (WEKA prints these names in its models);
    numeric values are written with ``repr`` so that WEKA reads the same doubles.
    """
    lines = ["@relation cvrepro"]
    columns = []
    for j, name in enumerate(X.columns):
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            lines.append(f"@attribute a{j} {{{','.join(_quote(v) for v in col.cat.categories)}}}")
            text = np.array([_quote(v) for v in col.cat.categories] + ["?"], dtype=object)
            columns.append(text[np.where(col.cat.codes.to_numpy() < 0, len(text) - 1, col.cat.codes.to_numpy())])
        else:
            lines.append(f"@attribute a{j} numeric")
            values = col.to_numpy(dtype=np.float64, na_value=np.nan)
            columns.append(np.array(["?" if v != v else repr(float(v)) for v in values], dtype=object))
    lines.append(f"@attribute class {{{','.join(_quote(v) for v in y.cat.categories)}}}")
    lines.append("@data")
    labels = np.array([_quote(v) for v in y.cat.categories], dtype=object)
    columns.append(labels[y.cat.codes.to_numpy()])
    lines.extend(",".join(row) for row in zip(*columns))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class WekaFold:
    """WEKA's output on one fold: class probabilities of the test rows and the printed model."""

    proba: np.ndarray
    model: str


@dataclass(frozen=True)
class WekaJob:
    """One training and test run: WEKA's ``classifier`` with ``options`` on rows ``train`` / ``test`` of ``X, y``."""

    classifier: str
    options: tuple
    X: pd.DataFrame
    y: pd.Series
    train: np.ndarray
    test: np.ndarray


def run_jobs(jobs, java_options=(), timeout: float = 3600) -> list[WekaFold]:
    """Run every :class:`WekaJob` in one JVM; per job, WEKA's test-row distributions and printed model."""
    jar = _jar()
    with tempfile.TemporaryDirectory(prefix="cvrepro-weka-") as tmp:
        tmp = Path(tmp)
        runner = tmp / "CvreproWekaRunner.java"
        runner.write_text(RUNNER_SOURCE, encoding="utf-8")
        lines = []
        for k, job in enumerate(jobs):
            paths = []
            for part, rows in (("train", job.train), ("test", job.test)):
                path = tmp / f"job{k}-{part}.arff"
                rows = np.asarray(rows)
                write_arff(path, job.X.iloc[rows], job.y.iloc[rows])
                paths.append(str(path))
            lines.append("\t".join([job.classifier, " ".join(_java_quote(o) for o in job.options), *paths]))
        (tmp / "jobs.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        proc = subprocess.run(["java", *java_options, "-cp", jar, str(runner), str(tmp / "jobs.tsv")],
                              capture_output=True, text=True, encoding="utf-8", timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"WEKA failed:\n{proc.stderr[-3000:]}")
    results = _parse_runner_output(proc.stdout)
    if len(results) != len(jobs):
        raise RuntimeError(f"WEKA returned {len(results)} results for {len(jobs)} jobs:\n{proc.stderr[-3000:]}")
    return results


def run_folds(classifier: str, options, X: pd.DataFrame, y: pd.Series, folds, java_options=(),
              timeout: float = 3600) -> list[WekaFold]:
    """Train WEKA's ``classifier`` (with command-line ``options``) on each ``(train, test)`` fold of ``X, y``.

    ``folds`` are pairs of row-index arrays. Returns, per fold, the test rows'
    ``distributionForInstance`` in full precision and ``toString()`` of the
    model. One JVM serves all folds.
    """
    jobs = [WekaJob(classifier, tuple(options), X, y, np.asarray(tr), np.asarray(te)) for tr, te in folds]
    return run_jobs(jobs, java_options, timeout)


def _java_quote(option: str) -> str:
    """One option as ``Utils.splitOptions`` reads it back (quoted if it has spaces or quotes)."""
    option = str(option)
    if re.search(r"[\s\"\\]", option) or not option:
        return '"' + option.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return option


def _parse_runner_output(text: str) -> list[WekaFold]:
    out = []
    blocks = text.split("MODEL\n")[1:]
    for block in blocks:
        model, rest = block.split(_END + "\n", 1)
        rows, _ = rest.split(_END + "\n", 1) if _END in rest else (rest, "")
        proba = np.array([[float(v) for v in line.split()] for line in rows.splitlines() if line.strip()])
        out.append(WekaFold(proba=proba, model=model.rstrip("\n")))
    return out


def predictions(classifier: str, options, train, test, java_options=()) -> tuple[np.ndarray, np.ndarray]:
    """(predicted class indices, probability matrix) from WEKA's ``-p 0 -distribution`` output.

    WEKA prints probabilities with 3 decimals here; compare within 6e-4. Prefer :func:`run_folds`.
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
