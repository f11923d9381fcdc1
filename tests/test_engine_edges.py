"""Issue 32: the last bad inputs of the engine and the store, each a clear early error or a
correct result (never a silent wrong number), and the verified path for external readers."""
import os
import threading

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.naive_bayes import GaussianNB
from taskmap_tasks import toy

from cvrepro import store as store_module
from cvrepro.engine.inputs import check_inputs, learner_hash
from cvrepro.profiles import check_run_options
from cvrepro.runner import CVFailureWarning, run_cv
from cvrepro.store import ResultStore, verify


def run(store=None, iterations=2, **kw):
    args = dict(datasets=[("toy", *toy())], learners={"nb": GaussianNB()}, folds=2, iterations=iterations,
                batch_size=2, store=store, progress=False)
    args.update(kw)
    return run_cv(**args)


# ------------------------------------------------------------------ 1. key range against content
def test_a_chunk_renamed_to_another_iteration_range_is_damage(tmp_path, count_tasks):
    clean = run(tmp_path, iterations=4)
    for old in tmp_path.glob("**/it000002-000003.*.parquet"):
        old.unlink()
    for f in tmp_path.glob("**/it000000-000001.*.parquet"):
        f.rename(f.with_name(f.name.replace("it000000-000001", "it000002-000003")))
    count_tasks.clear()
    with pytest.warns(RuntimeWarning, match=r"holds iterations \[0, 1\], its name says 2..3"):
        again = run(tmp_path, iterations=4)
    assert sorted(its for _, its in count_tasks) == [(0, 1), (2, 3)]
    assert len(again.iterations) == 4
    pd.testing.assert_frame_equal(clean.iterations.drop(columns="seconds"), again.iterations.drop(columns="seconds"))


# ------------------------------------------------------------------ 2. verified reads for DuckDB / pandas
def test_verify_checks_every_file_before_an_external_read(tmp_path):
    run(tmp_path)
    assert verify(tmp_path) == 3       # folds, iterations, instances of one chunk
    f = next(tmp_path.glob("iterations/**/*.parquet"))
    raw = bytearray(f.read_bytes())
    raw[len(raw) // 2] ^= 4
    f.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match=r"(?s)1 of 3 files.*iterations/dataset=toy.*checksum mismatch"):
        verify(tmp_path)
    with pytest.raises(ValueError, match="not a cvrepro results store"):
        verify(tmp_path / "iterations")


def test_verify_finds_a_renamed_range_and_a_moved_file(tmp_path):
    run(tmp_path, iterations=4)
    f = next(tmp_path.glob("folds/**/it000000-000001.*.parquet"))
    f.rename(f.with_name(f.name.replace("it000000-000001", "it000004-000005")))
    with pytest.raises(ValueError, match="its name says 4..5"):
        verify(tmp_path)


def test_cli_verify(tmp_path):
    import subprocess
    import sys
    run(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-m", "cvrepro.store", "verify", str(tmp_path)], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 0 and "3 files verified" in out.stdout


# ------------------------------------------------------------------ 3. probabilities that are not
class Improper(ClassifierMixin, BaseEstimator):
    """A user's learner whose predict_proba is not a probability distribution."""

    def __init__(self, scale=2.0):
        self.scale = scale

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.tile([0.5 * self.scale, 0.1], (len(X), 1))


@pytest.mark.parametrize("scale", [2.0, -1.0, 1.01])
def test_improper_probabilities_are_a_failure_not_numbers(scale):
    with pytest.warns(CVFailureWarning, match="bad_probabilities"):
        res = run(learners={"bad": Improper(scale)})
    assert (res.failures.kind == "bad_probabilities").all() and len(res.failures) == 4
    assert "not probabilities" in res.failures.message[0]
    assert res.iterations[["rmse", "info_score", "auroc"]].isna().all().all()


# ------------------------------------------------------------------ 4. X and y that do not fit
def test_x_without_columns_and_y_of_another_index_are_errors():
    X, y = toy()
    with pytest.raises(ValueError, match="no columns"):
        run(datasets=[("empty", X[:, :0], y)])
    with pytest.raises(ValueError, match="no columns"):
        run(datasets=[("empty", pd.DataFrame(index=range(len(y))), y)])
    frame, labels = pd.DataFrame(X), pd.Series(y)
    with pytest.raises(ValueError, match=r"y's index differs from X's.*y.loc\[X.index\]"):
        run(datasets=[("shuffled", frame, labels.sample(frac=1, random_state=0))])
    run(datasets=[("aligned", frame, labels)])       # same index: fine


def test_unclear_inputs_get_messages_that_name_the_fix():
    X, y = toy()
    with pytest.raises(ValueError, match="has no rows"):
        run(datasets=[("none", X[:0], y[:0])])
    with pytest.raises(ValueError, match=r"y must be one-dimensional.*y.iloc\[:, 0\]"):
        run(datasets=[("frame", pd.DataFrame(X), pd.DataFrame({"label": y}))])
    frame = pd.DataFrame(X, columns=["a", "a", "b"])
    frame["b"] = "text"
    with pytest.raises(ValueError, match=r"duplicated column names \['a'\]"):
        run(datasets=[("dup", frame, y)])


# ------------------------------------------------------------------ 5. user code and the cache
class Mine(ClassifierMixin, BaseEstimator):
    def __init__(self, c=1.0):
        self.c = c

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.full((len(X), 2), 0.5)


def test_user_code_learners_are_keyed_by_their_source(monkeypatch):
    before = learner_hash("mine", Mine())
    assert learner_hash("mine", Mine(2.0)) != before
    assert learner_hash("nb", GaussianNB()) == learner_hash("nb", GaussianNB())
    import inspect
    real = inspect.getsource
    monkeypatch.setattr(inspect, "getsource", lambda obj: real(obj) + "# edited" if obj is Mine else real(obj))
    assert learner_hash("mine", Mine()) != before       # a changed body: a new cell
    monkeypatch.setattr(inspect, "getsource", lambda obj: (_ for _ in ()).throw(OSError("no source")))
    with pytest.warns(UserWarning, match="keyed by its parameters only"):
        learner_hash("mine", Mine())


def test_a_library_learners_results_revision_rekeys_its_stored_results_only(tmp_path, count_tasks, monkeypatch):
    """cvrepro's learners are keyed by their parameters (no code digest: paper stores stay valid across
    refactors); a fix that changes a learner's results raises its class's ``results_revision``, and only that
    learner's results are recomputed. Revision 0 is the key as it always was."""
    from cvrepro.learners import make_learner

    nb, knn = make_learner("NB"), make_learner("5-NN")
    before = learner_hash("NB", nb)
    monkeypatch.setattr(type(nb), "results_revision", 0, raising=False)
    assert learner_hash("NB", nb) == before
    run(tmp_path, learners={"NB": nb, "5-NN": knn})
    assert len(count_tasks) == 2
    run(tmp_path, learners={"NB": nb, "5-NN": knn})
    assert len(count_tasks) == 2                            # all read back
    monkeypatch.setattr(type(nb), "results_revision", 1)
    assert learner_hash("NB", nb) != before
    run(tmp_path, learners={"NB": nb, "5-NN": knn})
    assert [cell[1] for cell, _ in count_tasks[2:]] == ["NB"]


# ------------------------------------------------------------------ late: fail before any work
def test_late_errors_now_come_before_any_task(count_tasks):
    with pytest.raises(ValueError, match="unknown learner 'nope'"):
        run(learners=["NB", "nope"])
    with pytest.raises(ValueError, match=r"partitioner_params \['typo'\]"):
        run(partitioner_params={"typo": 1})
    with pytest.raises(ValueError, match=r"partitioner_params\['metric'\]"):
        run(partitioner="dbscv", partitioner_params={"metric": "euclid"})
    for metric in ("heom", "hvdm", "keel"):               # every distance of cvrepro.partition passes
        check_inputs(["vote"], ["NB"], (2,), 1, "dobscv", {"metric": metric}, None, "auroc")
    with pytest.raises(TypeError, match="learner 'locked' cannot be pickled"):
        run(learners={"locked": Improper(threading.Lock())})
    with pytest.raises(TypeError, match="learner 'locked' cannot be pickled"):
        run(learners={"locked": Improper(threading.Lock())}, n_jobs=2)
    assert count_tasks == []


def test_read_only_store_reads_what_it_holds_and_refuses_more_before_computing(tmp_path, monkeypatch,
                                                                               count_tasks):
    clean = run(tmp_path)
    folder = next(tmp_path.glob("folds/**/it000000-000001.*.parquet")).parent
    (folder / ".it000002-000003.dead.tmp").write_bytes(b"a killed writer's file")
    monkeypatch.setattr(store_module.os, "access", lambda path, mode: False)   # as a read-only mount
    count_tasks.clear()
    again = run(tmp_path)
    pd.testing.assert_frame_equal(clean.iterations.drop(columns="seconds"), again.iterations.drop(columns="seconds"))
    with pytest.raises(PermissionError, match="read-only and lacks 1 task"):
        run(tmp_path, iterations=4)
    assert count_tasks == []


def test_damaged_marker_is_named_as_such_not_as_a_version(tmp_path):
    ResultStore(tmp_path)
    (tmp_path / "_store.json").write_text('{"format": "cvrepro-res')
    with pytest.raises(ValueError, match=r"_store.json is damaged.*delete just that file"):
        ResultStore(tmp_path)


def test_full_disk_names_the_store(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OSError, match=f"results store '{tmp_path}'.*No space left"):
        run(tmp_path)


def test_notebook_run_options_are_checked_at_once():
    with pytest.raises(TypeError, match="store must be None or a directory path"):
        check_run_options(store=5)
    with pytest.raises(TypeError, match="n_jobs must be an integer"):
        check_run_options(n_jobs="two")
    check_run_options(store="results", n_jobs=2, backend="loky")


def test_a_killed_creators_marker_file_is_removed(tmp_path):
    ResultStore(tmp_path)
    tmp = tmp_path / "._store.json.0123.tmp"
    tmp.write_text("{")
    os.utime(tmp, (0, 0))               # left long ago
    fresh = tmp_path / "._store.json.4567.tmp"
    fresh.write_text("{")               # a creator at work now: kept
    ResultStore(tmp_path)
    assert not tmp.exists() and fresh.exists()
