"""What the KEEL fixture recorders share (tools/record_keel_fixtures.py, record_keel_rules.py, record_keel_part.py).

A case list names data sets as ``(data set, dropna, subsample size or None,
declared ranges "train" or "whole", folds to record)``; :func:`fold_cases`
turns it into the recorded folds (a stratified subsample drawn with seed 0,
then the first folds of a shuffled stratified 5-fold split, 3-fold where a
class has fewer than 5 instances), :func:`write_fixture` writes one
``tests/fixtures/keel/<key>.json`` and :func:`main` runs a recorder's keys
from the command line when KEEL is available. The tests rebuild a case's
fold from its ``dataset``, ``dropna``, ``rows``, ``ranges`` and ``test``
fields (tests/keel_rule_cases.py).
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners.keel_data import keel_bounds
from cvrepro.reference import keel

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "keel"


def subset(ds, size):
    """Positions of a stratified subsample of ``size`` instances (all if None), in data order."""
    if size is None or size >= len(ds.y):
        return None
    rng = np.random.default_rng(0)
    codes = ds.y.cat.codes.to_numpy()
    keep = []
    for c in np.unique(codes):
        members = np.flatnonzero(codes == c)
        keep.extend(rng.choice(members, max(1, round(size * len(members) / len(codes))), replace=False))
    return sorted(int(i) for i in keep)


def folds(y, n):
    """The test positions of the first ``n`` folds of a shuffled stratified split (5 folds, or 3)."""
    codes = y.cat.codes.to_numpy()
    k = 5 if np.bincount(codes)[np.bincount(codes) > 0].min() >= 5 else 3
    splitter = StratifiedKFold(k, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)      # classes smaller than k
        return [te for _, te in list(splitter.split(np.zeros(len(codes)), codes))[:n]]


def fold_cases(sets):
    """Per recorded fold of ``sets``: ``(case, X, y, train, test, bounds)``, where ``case`` holds the fields
    the fixtures keep (dataset, dropna, rows, fold, ranges, test) and ``bounds`` the declared ranges (None:
    the training fold's)."""
    for name, dropna, size, ranges, n_folds in sets:
        ds = load_dataset(name, dropna=dropna)
        rows = subset(ds, size)
        X = ds.X if rows is None else ds.X.iloc[rows]
        y = ds.y if rows is None else ds.y.iloc[rows]
        bounds = keel_bounds(X) if ranges == "whole" else None
        for f, test in enumerate(folds(y, n_folds)):
            train = np.setdiff1d(np.arange(len(y)), test)
            case = {"dataset": name, "dropna": dropna, "rows": rows, "fold": f, "ranges": ranges,
                    "test": [int(i) for i in test]}
            yield case, X, y, train, test, bounds


def write_fixture(key: str, payload: dict) -> None:
    """``tests/fixtures/keel/<key>.json``, compact."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{key}.json").write_text(json.dumps(payload, separators=(",", ":")) + "\n")


def main(record, keys) -> None:
    """``record(key)`` for the keys named on the command line (default: ``keys``); KEEL must be available."""
    if not keel.available():
        sys.exit("KEEL is not available: set CVREPRO_KEEL_CLASSES to KEEL's compiled classes")
    for key in sys.argv[1:] or keys:
        record(key)
