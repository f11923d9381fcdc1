"""The KEEL bridge's files (cvrepro.reference.keel): .dat headers and rows, configuration files, outputs."""
import numpy as np
import pandas as pd
import pytest

from cvrepro.reference import keel


def _frame():
    X = pd.DataFrame({
        "n": [1.5, np.nan, -2.0],
        "i": [3.0, 7.0, np.nan],
        "c": pd.Categorical(["b", None, "a"], categories=["b", "a", "z"]),
        "s": pd.Categorical(["x y", "x,y", "x y"], categories=["x y", "x,y"]),
    })
    y = pd.Series(pd.Categorical(["pos", "neg", "pos"], categories=["pos", "neg"]))
    return X, y


def test_header_declares_types_ranges_and_values_in_order():
    X, y = _frame()
    header = keel.dat_header(X, y).splitlines()
    assert header[0] == "@relation cvrepro"
    assert header[1] == "@attribute a0 real [-2.0, 1.5]"
    assert header[2] == "@attribute a1 integer [3, 7]"
    assert header[3] == "@attribute a2 {b, a, z}"               # declared order, unused value kept
    assert header[4] == "@attribute a3 {v0, v1}"                # values that are not plain tokens
    assert header[5] == "@attribute class {pos, neg}"
    assert header[6:] == ["@inputs a0, a1, a2, a3", "@outputs class", "@data"]


def test_declared_bounds_widen_to_the_data():
    X, y = _frame()
    header = keel.dat_header(X, y, bounds=np.array([[-1.0, 10.0], [0.0, 5.0], [np.nan] * 2, [np.nan] * 2]))
    assert "@attribute a0 real [-2.0, 10.0]" in header
    assert "@attribute a1 integer [0, 7]" in header


def test_rows_mark_missing_values(tmp_path):
    X, y = _frame()
    keel.write_dat(tmp_path / "d.dat", X, y)
    rows = (tmp_path / "d.dat").read_text().split("@data\n")[1].splitlines()
    assert rows == ["1.5, 3, b, v0, pos", "?, 7, ?, v1, neg", "-2.0, ?, a, v0, pos"]


def test_config_in_keels_format(tmp_path):
    algo = keel.ALGORITHMS["KNN-C"]
    keel.write_config(tmp_path / "c.txt", algo, "tr.dat", "te.dat", ["o.tra", "o.tst", "o.txt"], {"K Value": 3})
    assert (tmp_path / "c.txt").read_text().splitlines() == [
        "algorithm = K Nearest Neighbors Classifier", 'inputData = "tr.dat" "tr.dat" "te.dat"',
        'outputData = "o.tra" "o.tst" "o.txt"', "", "K Value = 3", "Distance Function = Euclidean"]
    lda = keel.ALGORITHMS["LDA-C"]
    keel.write_config(tmp_path / "l.txt", lda, "tr.dat", "te.dat", ["o.tra", "o.tst"], seed=7)
    assert "seed = 7" in (tmp_path / "l.txt").read_text().splitlines()
    with pytest.raises(ValueError, match="no parameter 'k'"):
        keel.write_config(tmp_path / "x.txt", algo, "a", "b", ["c", "d"], {"k": 3})


def test_read_predictions(tmp_path):
    out = tmp_path / "r.tst"
    out.write_text("@relation x\n@attribute class {a, b}\n@data\na b\nb b\na unclassified\n")
    assert keel.read_predictions(out) == (["a", "b", "a"], ["b", "b", "unclassified"])


def test_available_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(keel.ENV, raising=False)
    assert keel.find_classes() is None and not keel.available()
    monkeypatch.setenv(keel.ENV, str(tmp_path))
    assert keel.find_classes() == str(tmp_path)
