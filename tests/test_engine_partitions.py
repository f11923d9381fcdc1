"""The per-worker cache of drawn partitions (cvrepro.engine.partitions): reused, bounded, invisible in results."""
import re

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from cvrepro.engine import partitions
from cvrepro.engine.inputs import prepare_data
from cvrepro.partition import encode, make_partitioner
from cvrepro.runner import run_cv

TIMING = ["fit_seconds", "predict_seconds", "seconds"]


def mixed_data(n=90, seed=3):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "c": rng.integers(0, 3, size=n).astype(float)})
    y = np.where(X.a + rng.normal(scale=0.8, size=n) > 0, "pos", "neg")
    return ("mixed", X, y)


LEARNERS = {"NB": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=3)}


def store_contents(root):
    """Every stored file (checksum left out of the name) -> its table without the timing columns."""
    out = {}
    for path in sorted(root.rglob("*.parquet")):
        table = pq.read_table(path).to_pandas()
        name = re.sub(r"\.[0-9a-f]+\.parquet$", "", str(path.relative_to(root)))
        out[name] = table.drop(columns=[c for c in TIMING if c in table.columns])
    return out


@pytest.fixture
def fresh_cache():
    partitions.clear()
    yield
    partitions.clear()


def test_every_learner_reuses_the_partitions_drawn_once(fresh_cache):
    run_cv([mixed_data()], LEARNERS, folds=(5,), iterations=4, partitioner="dobscv",
           partitioner_params={"metric": "hvdm"}, progress=False)
    s = partitions.stats()
    assert (s["draws"], s["hits"]) == (4, 4)          # 4 partitions drawn, reused by the second learner
    assert 0 < s["bytes"] <= partitions.CACHE_BUDGET


def test_a_kept_partition_equals_a_fresh_draw(fresh_cache):
    data = prepare_data(mixed_data())
    for name in ("dobscv", "dbscv", "msscv", "scv"):
        fresh = make_partitioner(name, 5, 11, metric="hvdm").fold_ids(data.X, data.codes)
        first = partitions.fold_ids(data, name, 5, 11, {"metric": "hvdm"})
        again = partitions.fold_ids(data, name, 5, 11, {"metric": "hvdm"})
        assert again.dtype == first.dtype == fresh.dtype == np.int64
        assert (first == fresh).all() and (again == fresh).all()
    assert partitions.stats()["hits"] == 4
    # another seed, k, metric or data set is another partition
    other = prepare_data(("other", data.X, data.y[::-1].copy()))
    for args in ((data, "dobscv", 5, 12, {"metric": "hvdm"}), (data, "dobscv", 3, 11, {"metric": "hvdm"}),
                 (data, "dobscv", 5, 11, {"metric": "heom"}), (other, "dobscv", 5, 11, {"metric": "hvdm"})):
        partitions.fold_ids(*args)
    assert partitions.stats()["hits"] == 4


def test_the_cache_is_bounded(fresh_cache, monkeypatch):
    data = prepare_data(mixed_data())
    monkeypatch.setattr(partitions, "CACHE_BUDGET", 5 * len(data.codes))   # 5 fold assignments, no encoding
    for seed in range(12):
        partitions.fold_ids(data, "scv", 5, seed, {})
    s = partitions.stats()
    assert s["entries"] == 5 and s["bytes"] <= partitions.CACHE_BUDGET
    partitions.fold_ids(data, "scv", 5, 11, {})       # the most recent ones are kept
    partitions.fold_ids(data, "scv", 5, 0, {})        # the oldest are gone
    assert partitions.stats()["hits"] == 1


@pytest.mark.parametrize("n_jobs, backend", [(1, "loky"), (2, "loky"), (2, "threading")])
def test_runs_with_and_without_the_cache_store_the_same(tmp_path, monkeypatch, fresh_cache, n_jobs, backend):
    args = dict(datasets=[mixed_data()], learners=LEARNERS, folds=(2, 5), iterations=3, partitioner="dobscv",
                partitioner_params={"metric": "hvdm"}, progress=False)
    monkeypatch.setattr(partitions, "CACHE_BUDGET", 0)        # nothing kept: every task draws
    off = run_cv(**args, store=tmp_path / "off")
    assert partitions.stats()["hits"] == 0 and partitions.stats()["entries"] == 0
    monkeypatch.undo()
    on = run_cv(**args, store=tmp_path / "on", n_jobs=n_jobs, backend=backend)
    if backend == "threading" or n_jobs == 1:   # in this process
        assert partitions.stats()["hits"] > 0
    kept_off, kept_on = store_contents(tmp_path / "off"), store_contents(tmp_path / "on")
    assert kept_off.keys() == kept_on.keys() and len(kept_on) == 3 * 2 * 2   # kinds x learners x k
    for name in kept_off:
        pd.testing.assert_frame_equal(kept_off[name], kept_on[name])
    for kind in ("iterations", "folds"):
        a, b = getattr(off, kind), getattr(on, kind)
        pd.testing.assert_frame_equal(a.drop(columns=[c for c in TIMING if c in a]),
                                      b.drop(columns=[c for c in TIMING if c in b]))
    assert not on.iterations.auroc.isna().any()


def test_kept_class_blocks_give_the_same_draws_within_their_byte_limit():
    data = prepare_data(mixed_data())
    counts = np.bincount(data.codes)
    plain, kept = encode(data.X, data.codes, "hvdm"), encode(data.X, data.codes, "hvdm")
    assert kept.keep_class_blocks(data.codes, max_bytes=8 * counts.max() ** 2) == 8 * counts[0] ** 2
    assert len(kept.kept_blocks) == 1                      # the second class did not fit
    assert kept.keep_class_blocks(data.codes) == 8 * (counts ** 2).sum()
    for name in ("dobscv", "dbscv", "msscv"):
        for seed in range(3):
            splitter = make_partitioner(name, 5, seed, metric="hvdm")
            assert (splitter.fold_ids(data.X, data.codes, encoded=kept)
                    == splitter.fold_ids(data.X, data.codes, encoded=plain)).all()
