"""Record WEKA 3.6's per-fit time in one warm JVM (issue 28, item 3): bench/weka_warm_fit_times.json.

Run with the jar present (``CVREPRO_WEKA_JAR=/path/weka.jar .venv/bin/python tools/record_weka_timings.py``).
``bench/bench_fit_cost.py`` reads the file and prints our per-fit time beside WEKA's without the jar.

Cases (:data:`DATA`): 200-row samples of Vanwinckelen & Blockeel's populations drawn as that study draws them
(``sample_rows(n, 200, 0, population, 0)``, the population's classes declared), and small UCI sets whole.
Each case is split by ``StratifiedKFold(10, shuffle=True, random_state=0)``; a fit is WEKA's
``buildClassifier`` on a training fold plus ``distributionForInstance`` on every row of its test fold (as the
Experimenter does), with the options our learners mirror (:data:`LEARNERS`, see cvrepro.learners). One JVM
runs every case: first ``WARMUP`` rounds of all folds of every (case, learner) (JIT compilation), then
``ROUNDS`` timed rounds; a fit's time is the thread CPU time of the harness (ThreadMXBean; the JIT and GC
threads are not counted), the figure kept is the median over all timed fits (minimum and wall-clock
median beside it). The machine's load average is recorded with the figures.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.reference.weka import find_jar, write_arff
from cvrepro.studies.vanwinckelen2012 import sample_rows

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "weka_warm_fit_times.json"
FORMAT = "cvrepro-weka-warm-fit-times/1"
N_FOLDS, WARMUP, ROUNDS = 10, 30, 20
SAMPLE = 200
# case name -> (data set, sample size or None for the whole set)
DATA = {"kr-vs-k/200": ("kr-vs-k", SAMPLE), "adult/200": ("adult", SAMPLE), "nursery/200": ("nursery", SAMPLE),
        "abalone/200": ("abalone", SAMPLE), "sonar": ("sonar", None), "vote": ("vote", None),
        "breast-w": ("breast-w", None), "pima": ("pima", None), "crx": ("crx", None)}
# our learner (cvrepro.learners.make_learner name) -> WEKA classifier and options it mirrors
LEARNERS = {"NB-normal": ("weka.classifiers.bayes.NaiveBayes", ()),
            "NB": ("weka.classifiers.bayes.NaiveBayes", ("-K",)),
            "C4.5": ("weka.classifiers.trees.J48", ("-C", "0.25", "-M", "2")),
            "4NN": ("weka.classifiers.lazy.IBk", ("-K", "4")),
            "10NN": ("weka.classifiers.lazy.IBk", ("-K", "10")),
            "RF": ("weka.classifiers.trees.RandomForest", ("-I", "10", "-K", "0", "-S", "1"))}

HARNESS = r"""
import java.io.*;
import java.lang.management.*;
import java.util.*;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;

/** Jobs (classifier, options, ARFF, fold of every row), one per tab-separated line. Pass 1: WARMUP rounds of
 *  every job's folds; pass 2: ROUNDS timed rounds. Prints per job: RESULT median/min thread CPU ns, median
 *  wall ns, fits. A fit is buildClassifier on the training fold + distributionForInstance on the test fold. */
public class CvreproWarmTimer {
  static ThreadMXBean bean = ManagementFactory.getThreadMXBean();
  static double sink = 0;

  public static void main(String[] args) throws Exception {
    int warmup = Integer.parseInt(args[1]), rounds = Integer.parseInt(args[2]);
    List<String[]> jobs = new ArrayList<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(args[0]), "UTF-8"));
    for (String line; (line = in.readLine()) != null; ) jobs.add(line.split("\t", -1));
    List<Instances[][]> splits = new ArrayList<>();
    for (String[] f : jobs) splits.add(split(f[2], f[3]));
    for (int j = 0; j < jobs.size(); j++)
      for (int r = 0; r < warmup; r++) for (Instances[] s : splits.get(j)) fit(jobs.get(j), s, null);
    for (int j = 0; j < jobs.size(); j++) {
      List<long[]> t = new ArrayList<>();
      for (int r = 0; r < rounds; r++)
        for (Instances[] s : splits.get(j)) { long[] x = new long[2]; fit(jobs.get(j), s, x); t.add(x); }
      long[] cpu = new long[t.size()], wall = new long[t.size()];
      for (int i = 0; i < t.size(); i++) { cpu[i] = t.get(i)[0]; wall[i] = t.get(i)[1]; }
      Arrays.sort(cpu); Arrays.sort(wall);
      System.out.println("RESULT\t" + median(cpu) + "\t" + cpu[0] + "\t" + median(wall) + "\t" + cpu.length);
    }
    System.err.println(sink);
  }

  static double median(long[] a) { int n = a.length; return n % 2 == 1 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]); }

  static void fit(String[] job, Instances[] s, long[] t) throws Exception {
    Classifier c = Classifier.forName(job[0], Utils.splitOptions(job[1]));
    long cpu0 = bean.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
    c.buildClassifier(s[0]);
    for (int i = 0; i < s[1].numInstances(); i++) sink += c.distributionForInstance(s[1].instance(i))[0];
    long cpu1 = bean.getCurrentThreadCpuTime(), wall1 = System.nanoTime();
    if (t != null) { t[0] = cpu1 - cpu0; t[1] = wall1 - wall0; }
  }

  static Instances[][] split(String arff, String folds) throws Exception {
    Reader reader = new BufferedReader(new InputStreamReader(new FileInputStream(arff), "UTF-8"));
    Instances data = new Instances(reader);
    reader.close();
    data.setClassIndex(data.numAttributes() - 1);
    String[] fold = folds.split(",");
    int k = 0;
    for (String v : fold) k = Math.max(k, Integer.parseInt(v) + 1);
    Instances[][] out = new Instances[k][];
    for (int f = 0; f < k; f++) {
      Instances train = new Instances(data, 0), test = new Instances(data, 0);
      for (int i = 0; i < fold.length; i++) (Integer.parseInt(fold[i]) == f ? test : train).add(data.instance(i));
      out[f] = new Instances[] {train, test};
    }
    return out;
  }
}
"""


def case_data(name: str):
    """``(X, y, rows)`` of case ``name``: a sample's rows of its population (classes declared) or a whole set."""
    dataset, size = DATA[name]
    ds = load_dataset(dataset)
    if size is None:
        return ds.X, ds.y, None
    rows = sample_rows(len(ds.y), size, 0, dataset, 0)
    return ds.X.iloc[rows], ds.y.iloc[rows], rows


def case_folds(y) -> np.ndarray:
    """The test fold (0..N_FOLDS-1) of every row of a case."""
    fold = np.empty(len(y), dtype=np.int64)
    for k, (_, test) in enumerate(StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(np.zeros(len(y)), y)):
        fold[test] = k
    return fold


def _java_version() -> str:
    proc = subprocess.run(["java", "-version"], capture_output=True, text=True)
    return proc.stderr.splitlines()[0] if proc.stderr else "unknown"


def record(jar: str) -> dict:
    """Run the harness on every (case, learner) in one JVM; the fixture's document."""
    cases, jobs = {}, []
    with tempfile.TemporaryDirectory(prefix="cvrepro-weka-timer-") as tmp:
        tmp = Path(tmp)
        for name in DATA:
            X, y, rows = case_data(name)
            fold = case_folds(y)
            arff = tmp / f"{name.replace('/', '-')}.arff"
            write_arff(arff, X.set_axis([f"a{j}" for j in range(X.shape[1])], axis=1), y)
            cases[name] = {"dataset": DATA[name][0], "rows": None if rows is None else rows.tolist(),
                           "n": int(len(y)), "d": int(X.shape[1]), "folds": fold.tolist()}
            for learner, (classifier, options) in LEARNERS.items():
                jobs.append((name, learner, "\t".join([classifier, " ".join(options), str(arff),
                                                       ",".join(map(str, fold))])))
        (tmp / "jobs.tsv").write_text("\n".join(j[2] for j in jobs) + "\n", encoding="utf-8")
        (tmp / "CvreproWarmTimer.java").write_text(HARNESS, encoding="utf-8")
        subprocess.run(["javac", "-nowarn", "-cp", jar, "-d", str(tmp), str(tmp / "CvreproWarmTimer.java")],
                       check=True, capture_output=True)
        load_before = os.getloadavg()
        proc = subprocess.run(["java", "-cp", f"{jar}{os.pathsep}{tmp}", "CvreproWarmTimer", str(tmp / "jobs.tsv"),
                               str(WARMUP), str(ROUNDS)], capture_output=True, text=True, timeout=3600)
        if proc.returncode != 0:
            raise RuntimeError(f"the harness failed:\n{proc.stderr[-3000:]}")
    results = [line.split("\t")[1:] for line in proc.stdout.splitlines() if line.startswith("RESULT\t")]
    if len(results) != len(jobs):
        raise RuntimeError(f"{len(results)} results for {len(jobs)} jobs:\n{proc.stderr[-3000:]}")
    timings = [{"case": name, "learner": learner, "weka": " ".join([LEARNERS[learner][0], *LEARNERS[learner][1]]),
                "cpu_ms_median": float(r[0]) / 1e6, "cpu_ms_min": float(r[1]) / 1e6,
                "wall_ms_median": float(r[2]) / 1e6, "fits": int(r[3])}
               for (name, learner, _), r in zip(jobs, results)]
    return {"format": FORMAT, "jar": Path(jar).name, "java": _java_version(), "warmup_rounds": WARMUP,
            "rounds": ROUNDS, "n_folds": N_FOLDS, "cpu_count": os.cpu_count(),
            "load_average": {"before": [round(v, 2) for v in load_before],
                             "after": [round(v, 2) for v in os.getloadavg()]},
            "cases": cases, "timings": timings}


def main() -> None:
    jar = find_jar()
    if jar is None:
        sys.exit("set CVREPRO_WEKA_JAR to WEKA 3.6's jar (Debian package weka: /usr/share/java/weka.jar)")
    doc = record(jar)
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    for t in doc["timings"]:
        print(f"{t['case']:12s} {t['learner']:10s} {t['cpu_ms_median']:8.3f} ms (min {t['cpu_ms_min']:.3f})")
    print(f"load {doc['load_average']}; wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
