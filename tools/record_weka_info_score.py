"""Record WEKA 3.6's K&B information score on a fold whose test part holds a class its training part lacks.

Run once with the jar (``CVREPRO_WEKA_JAR=/path/weka.jar python tools/record_weka_info_score.py``):
writes tests/fixtures/stats/weka_info_score.json, which tests/test_stats_oracles.py reads. For each
of the two folds, WEKA's NaiveBayes is trained on the other fold and ``new Evaluation(train)``
(priors: training class counts + 1) evaluates it on this fold; the fixture holds WEKA's predicted
distributions (full precision) and ``KBMeanInformation`` per fold, so the test feeds the same
probabilities to ``cvrepro.metrics.fold_metrics`` and compares the information score.
"""
from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from cvrepro.reference.weka import find_jar

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "stats" / "weka_info_score.json"
CLASSES = ["a", "b", "c"]
X = [0.1, 0.3, 1.2, 1.4, 2.5, 0.2, 0.25, 0.4, 1.1, 1.3, 1.0, 1.5]
Y = ["a", "a", "b", "b", "c", "a", "a", "a", "b", "b", "b", "b"]
FOLD = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]       # class c only in fold 0: fold 0's training part lacks it

SOURCE = """
import java.io.*;
import weka.classifiers.Evaluation;
import weka.classifiers.bayes.NaiveBayes;
import weka.core.Instances;

public class InfoScoreFold {
  public static void main(String[] args) throws Exception {
    for (int f = 0; f < 2; f++) {
      Instances train = new Instances(new FileReader(args[0] + "/train" + f + ".arff"));
      Instances test = new Instances(new FileReader(args[0] + "/test" + f + ".arff"));
      train.setClassIndex(1);
      test.setClassIndex(1);
      NaiveBayes nb = new NaiveBayes();
      nb.buildClassifier(train);
      Evaluation eval = new Evaluation(train);
      eval.evaluateModel(nb, test);
      System.out.println("FOLD " + f + " " + eval.KBMeanInformation() + " " + eval.KBInformation());
      for (int i = 0; i < test.numInstances(); i++) {
        double[] p = nb.distributionForInstance(test.instance(i));
        System.out.println("P " + p[0] + " " + p[1] + " " + p[2]);
      }
    }
  }
}
"""


def _arff(path: Path, rows) -> None:
    lines = ["@relation infoscore", "@attribute x numeric", "@attribute class {a,b,c}", "@data"]
    path.write_text("\n".join(lines + [f"{X[i]},{Y[i]}" for i in rows]) + "\n")


def main() -> None:
    jar = find_jar()
    if jar is None:
        raise SystemExit("needs java and weka.jar ($CVREPRO_WEKA_JAR or /usr/share/java/weka.jar)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for f in (0, 1):
            _arff(tmp / f"train{f}.arff", [i for i in range(len(X)) if FOLD[i] != f])
            _arff(tmp / f"test{f}.arff", [i for i in range(len(X)) if FOLD[i] == f])
        (tmp / "InfoScoreFold.java").write_text(SOURCE)
        out = subprocess.run(["java", "-cp", jar, str(tmp / "InfoScoreFold.java"), str(tmp)],
                             capture_output=True, text=True, check=True).stdout
    folds, proba = [], []
    for line in out.splitlines():
        words = line.split()
        if words[0] == "FOLD":
            folds.append({"fold": int(words[1]), "kb_mean_information": float(words[2]),
                          "kb_information": float(words[3])})
        else:
            proba.append([float(w) for w in words[1:]])
    order = [i for f in (0, 1) for i in range(len(X)) if FOLD[i] == f]   # WEKA's output order
    by_row = dict(zip(order, proba))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({
        "tool": "WEKA 3.6.14 (Debian weka), weka.classifiers.bayes.NaiveBayes, Evaluation(train).evaluateModel",
        "classes": CLASSES, "x": X, "y": Y, "fold": FOLD,
        "proba": [by_row[i] for i in range(len(X))], "folds": folds}, indent=1) + "\n")


if __name__ == "__main__":
    main()
