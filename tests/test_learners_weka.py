"""Parity with the real WEKA (3.6, Debian's weka.jar): same folds, same predictions.

Skipped unless ``java`` and the jar are found ($CVREPRO_WEKA_JAR, or
/usr/share/java/weka.jar). Each fold is written as train/test ARFF files and
classified by WEKA (``-t train -T test -p 0 -distribution``) and by us.
"""
import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners import make_learner
from cvrepro.reference.weka import available, find_jar, predictions, write_arff

JAR = find_jar()
pytestmark = [
    pytest.mark.weka,
    pytest.mark.skipif(not available(),
                       reason="needs java and weka.jar ($CVREPRO_WEKA_JAR or /usr/share/java/weka.jar)"),
]
weka_predictions = predictions


def _folds(name, n_splits=3):
    ds = load_dataset(name)
    for tr, te in StratifiedKFold(n_splits, shuffle=True, random_state=0).split(ds.X, ds.y):
        yield ds, tr, te


CASES = [  # (our name, WEKA class, options, data sets)
    ("C4.5", "weka.classifiers.trees.J48", [], ["vote", "labor", "pima", "crx"]),
    ("NB", "weka.classifiers.bayes.NaiveBayes", ["-K"], ["vote", "labor", "pima"]),
    ("5-NN", "weka.classifiers.lazy.IBk", ["-K", "5"], ["vote", "labor", "pima"]),
    ("PART", "weka.classifiers.rules.PART", [], ["labor", "crx"]),
    ("MLP", "weka.classifiers.functions.MultilayerPerceptron", ["-H", "3"], ["labor"]),
]


CASES.append(("SMO", "weka.classifiers.functions.SMO", [], ["vote", "pima", "glass"]))
CASES.append(("Boosting", "weka.classifiers.meta.AdaBoostM1", [], ["vote", "crx", "glass"]))
CASES.append(("C4.5 -U", "weka.classifiers.trees.J48", ["-U"], ["vote", "crx"]))
CASES.append(("C4.5 -A", "weka.classifiers.trees.J48", ["-A"], ["vote", "crx"]))
PARAMS = {"C4.5 -U": ("C4.5", {"unpruned": True}), "C4.5 -A": ("C4.5", {"laplace": True})}


@pytest.mark.parametrize("learner,classifier,options,datasets", CASES, ids=[c[0] for c in CASES])
def test_same_predictions_as_weka(tmp_path, learner, classifier, options, datasets):
    agree, n, max_diff = 0, 0, 0.0
    for name in datasets:
        for k, (ds, tr, te) in enumerate(_folds(name)):
            train, test = tmp_path / f"{name}{k}-train.arff", tmp_path / f"{name}{k}-test.arff"
            write_arff(train, ds.X.iloc[tr], ds.y.iloc[tr])
            write_arff(test, ds.X.iloc[te], ds.y.iloc[te])
            pred, dist = weka_predictions(classifier, options, train, test)
            base_name, params = PARAMS.get(learner, (learner, {}))
            model = make_learner(base_name).set_params(**params).fit(ds.X.iloc[tr], ds.y.iloc[tr])
            ours = model.predict(ds.X.iloc[te])
            codes = pd.Categorical(ours, categories=ds.y.cat.categories).codes
            agree += int((codes == pred).sum())
            n += len(te)
            max_diff = max(max_diff, float(np.abs(model.predict_proba(ds.X.iloc[te]) - dist).max()))
    print(f"{learner}: {agree}/{n} same predicted class, max |p - p_weka| = {max_diff:.4f}")
    assert agree / n >= 0.95
    assert max_diff <= 6e-4        # WEKA prints probabilities with 3 decimals


def _printed_model(classifier, arff, start):
    out = subprocess.run(["java", "-cp", JAR, classifier, "-t", str(arff), "-no-cv"],
                         capture_output=True, text=True, check=True).stdout
    body = out[out.index(start):].split("------------------\n", 1)[1]
    return body[:body.index("Number of")].strip()


J48_SETS = ["vote", "credit-g", "soybean", "segment", "chess", "crx", "banana"]
PART_SETS = ["credit-g", "soybean", "segment"]
PRINTERS = {"C4.5": ("weka.classifiers.trees.J48", "J48 pruned tree"),
            "PART": ("weka.classifiers.rules.PART", "PART decision list")}


@pytest.mark.parametrize("learner,name", [("C4.5", n) for n in J48_SETS] + [("PART", n) for n in PART_SETS])
def test_prints_the_same_model_as_weka(tmp_path, learner, name):
    """J48's tree and PART's rule list, as WEKA prints them."""
    ds = load_dataset(name)
    X = ds.X.set_axis([f"a{j}" for j in range(ds.X.shape[1])], axis=1)
    write_arff(tmp_path / "data.arff", X, ds.y)
    ours = make_learner(learner).fit(X, ds.y).to_text()
    classifier, header = PRINTERS[learner]
    printed = _printed_model(classifier, tmp_path / "data.arff", header)
    assert ours[:ours.index("Number of")].strip() == printed


def test_mlp_weights_bit_identical_to_weka_with_strict_exp(tmp_path):
    """With the JVM's exp intrinsic off, Math.exp is fdlibm's, as ours: 500 epochs, same bits."""
    ds = load_dataset("labor")
    X = ds.X.set_axis([f"a{j}" for j in range(ds.X.shape[1])], axis=1)
    write_arff(tmp_path / "labor.arff", X, ds.y)
    out = subprocess.run(["java", "-XX:+UnlockDiagnosticVMOptions", "-XX:-UseLibmIntrinsic", "-cp", JAR,
                          "weka.classifiers.functions.MultilayerPerceptron", "-H", "3", "-t",
                          str(tmp_path / "labor.arff"), "-no-cv"], capture_output=True, text=True, check=True).stdout
    nodes = re.split(r"Sigmoid Node \d+\n", out.split("Class ")[0])[1:]
    weka = [[float(line.split()[-1]) for line in node.strip().splitlines()[1:]] for node in nodes]
    model = make_learner("MLP").fit(X, ds.y)
    ours = [list(w) for w in model.W2_] + [list(w) for w in model.W1_]
    assert ours == weka
