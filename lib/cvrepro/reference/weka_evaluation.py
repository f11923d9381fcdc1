"""WEKA's own cross-validation and evaluation (``Evaluation.crossValidateModel``), in full precision.

What the Explorer's "Cross-validation, 10 folds" (and the ``-t`` command line)
computes: :func:`cross_validate` runs, in one JVM, WEKA's
``crossValidateModel(classifier, data, folds, new Random(seed))`` for each job
and prints the pooled measures with ``Double.toString`` (exact doubles): percent
correct, kappa, K&B information score (bits), mean absolute and root mean
squared error, per class TP rate, FP rate, precision, recall, F-measure and ROC
area, and the confusion matrix. It is a small Java program of ours
(:data:`EVALUATION_SOURCE`, calls to WEKA's public API only) run with Java's
single-file source launcher, like :mod:`cvrepro.reference.weka`. Data are
written as ARFF by :func:`cvrepro.reference.weka.write_arff` (same rows, same
order, same value lists).
"""
from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .weka import find_jar, write_arff

__all__ = ["EvaluationJob", "cross_validate", "EVALUATION_SOURCE"]

EVALUATION_SOURCE = """
import java.io.*;
import java.util.Random;
import weka.classifiers.Classifier;
import weka.classifiers.Evaluation;
import weka.core.Instances;
import weka.core.Utils;

/** Jobs (classifier, options, ARFF, folds, seed), tab-separated, one per line: WEKA's cross-validation of each,
 *  its pooled measures printed in full precision. */
public class CvreproWekaEvaluation {
  public static void main(String[] args) throws Exception {
    BufferedReader jobs = new BufferedReader(new InputStreamReader(new FileInputStream(args[0]), "UTF-8"));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    String job;
    while ((job = jobs.readLine()) != null) {
      String[] f = job.split("\\\\t", -1);
      Reader reader = new BufferedReader(new InputStreamReader(new FileInputStream(f[2]), "UTF-8"));
      Instances data = new Instances(reader);
      reader.close();
      data.setClassIndex(data.numAttributes() - 1);
      Classifier classifier = Classifier.forName(f[0], Utils.splitOptions(f[1]));
      Evaluation eval = new Evaluation(data);
      eval.crossValidateModel(classifier, data, Integer.parseInt(f[3]), new Random(Long.parseLong(f[4])));
      out.println("JOB");
      out.println("pct_correct " + eval.pctCorrect());
      out.println("kappa " + eval.kappa());
      out.println("kb_information " + eval.KBInformation());
      out.println("mae " + eval.meanAbsoluteError());
      out.println("rmse " + eval.rootMeanSquaredError());
      out.println("unclassified " + eval.unclassified());
      for (int c = 0; c < data.numClasses(); c++) {
        out.println("class " + c + " " + eval.truePositiveRate(c) + " " + eval.falsePositiveRate(c) + " "
            + eval.precision(c) + " " + eval.recall(c) + " " + eval.fMeasure(c) + " " + eval.areaUnderROC(c));
      }
      double[][] cm = eval.confusionMatrix();
      for (int r = 0; r < cm.length; r++) {
        StringBuilder line = new StringBuilder("row");
        for (int c = 0; c < cm[r].length; c++) line.append(' ').append(cm[r][c]);
        out.println(line);
      }
    }
    out.flush();
  }
}
"""

PER_CLASS = ["tpr", "fpr", "precision", "recall", "f_measure", "auc"]


@dataclass(frozen=True)
class EvaluationJob:
    """One cross-validation: WEKA's ``classifier`` with ``options`` on ``X, y``, ``folds`` folds, ``seed``."""

    classifier: str
    options: tuple
    X: pd.DataFrame
    y: pd.Series
    folds: int = 10
    seed: int = 1


def cross_validate(jobs, java_options=(), timeout: float = 3600) -> list[dict]:
    """WEKA's pooled cross-validation measures of every :class:`EvaluationJob` (one JVM).

    Each result: ``accuracy`` (percent correct), ``kappa``, ``info_score``
    (K&B information, bits), ``mae``, ``rmse``, ``unclassified``,
    ``per_class`` (a table: tpr, fpr, precision, recall, f_measure, auc per
    class code) and ``confusion`` (rows actual, columns predicted).
    """
    jar = find_jar()
    if jar is None:
        raise FileNotFoundError("WEKA needs java and weka.jar ($CVREPRO_WEKA_JAR or /usr/share/java/weka.jar)")
    jobs = list(jobs)
    with tempfile.TemporaryDirectory(prefix="cvrepro-weka-eval-") as tmp:
        tmp = Path(tmp)
        source = tmp / "CvreproWekaEvaluation.java"
        source.write_text(EVALUATION_SOURCE, encoding="utf-8")
        lines, written = [], {}
        for job in jobs:
            key = id(job.X), id(job.y)
            if key not in written:
                written[key] = tmp / f"data{len(written)}.arff"
                write_arff(written[key], job.X, job.y)
            options = " ".join(str(o) for o in job.options)
            lines.append("\t".join([job.classifier, options, str(written[key]), str(job.folds), str(job.seed)]))
        (tmp / "jobs.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        proc = subprocess.run(["java", *java_options, "-cp", jar, str(source), str(tmp / "jobs.tsv")],
                              capture_output=True, text=True, encoding="utf-8", timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"WEKA failed:\n{proc.stderr[-3000:]}")
    results = [_parse(block) for block in proc.stdout.split("JOB\n")[1:]]
    if len(results) != len(jobs):
        raise RuntimeError(f"WEKA returned {len(results)} results for {len(jobs)} jobs:\n{proc.stderr[-3000:]}")
    return results


def _parse(block: str) -> dict:
    out, per_class, rows = {}, [], []
    for line in block.splitlines():
        key, *values = line.split()
        if key == "class":
            per_class.append([float(v) for v in values[1:]])
        elif key == "row":
            rows.append([float(v) for v in values])
        else:
            out[key] = float(values[0])
    return {"accuracy": out["pct_correct"], "kappa": out["kappa"], "info_score": out["kb_information"],
            "mae": out["mae"], "rmse": out["rmse"], "unclassified": int(out["unclassified"]),
            "per_class": pd.DataFrame(per_class, columns=PER_CLASS),
            "confusion": np.array(rows).astype(int)}
