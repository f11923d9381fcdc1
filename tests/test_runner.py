"""The repeated-CV engine: tables, reproducibility, cache/resume, failures, stopping."""
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

from cvrepro import metrics as M
from cvrepro.datasets import load_dataset
from cvrepro.engine import tasks as engine_tasks
from cvrepro.partition import make_partitioner
from cvrepro.runner import CVFailureWarning, learner_seed, run_cv

TIMING = ["fit_seconds", "predict_seconds"]


class Codes(TransformerMixin, BaseEstimator):
    """Catalog frames to numbers: category codes, missing values -1 (cheap, for tests)."""

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        if isinstance(X, pd.DataFrame):
            X = np.column_stack([X[c].cat.codes.to_numpy(float) if X[c].dtype == "category"
                                 else X[c].to_numpy(float) for c in X.columns])
        return np.nan_to_num(np.asarray(X, dtype=float), nan=-1.0)


def frame_learner(est):
    """A scikit-learn estimator that accepts the catalog's frames (categoricals, NaN)."""
    return make_pipeline(Codes(), est)


LEARNERS = {"nb": frame_learner(GaussianNB()),
            "tree": frame_learner(DecisionTreeClassifier(max_depth=3, max_features=0.5))}


class SeedEcho(ClassifierMixin, BaseEstimator):
    """Predicts (r, 1 - r) with r = random_state mod 1000 / 1000: shows the seed it got."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        r = (self.random_state % 1000) / 1000
        return np.tile([r, 1 - r], (len(X), 1))


class Flaky(SeedEcho):
    """Raises for seeds = 0 mod 5, predicts NaN for seeds = 1 mod 5."""

    def fit(self, X, y):
        if self.random_state % 5 == 0:
            raise RuntimeError("boom")
        return super().fit(X, y)

    def predict_proba(self, X):
        p = super().predict_proba(X)
        return p * np.nan if self.random_state % 5 == 1 else p


@pytest.fixture(scope="module")
def labor():
    return load_dataset("labor")


def same(a, b):
    """Equal result tables, timing columns aside."""
    pd.testing.assert_frame_equal(a.folds.drop(columns=TIMING), b.folds.drop(columns=TIMING))
    pd.testing.assert_frame_equal(a.iterations.drop(columns="seconds"), b.iterations.drop(columns="seconds"))
    pd.testing.assert_frame_equal(a.instances, b.instances)
    pd.testing.assert_frame_equal(a.failures, b.failures)


# --------------------------------------------------------------------------- tables
def test_tables(labor):
    res = run_cv([labor, "sonar"], LEARNERS, folds=(2, 5), iterations=3, partitioner="dobscv",
                 progress=False)
    assert len(res.folds) == 2 * 2 * (2 + 5) * 3
    assert len(res.iterations) == 2 * 2 * 2 * 3
    assert len(res.instances) == 2 * 2 * 3 * (57 + 208)
    assert res.failures.empty
    assert (res.instances[["p_0", "p_1"]].dtypes == np.float32).all()
    assert list(res.folds.dataset.cat.categories) == ["labor", "sonar"]
    inst = res.instances[(res.instances.dataset == "labor") & (res.instances.k == 5)]
    for it in range(3):   # iteration i partitions with seed i, the same folds for every learner
        ref = make_partitioner("dobscv", 5, it).fold_ids(labor.X, labor.y)
        for ln in LEARNERS:
            got = inst[(inst.learner == ln) & (inst.iteration == it)].sort_values("instance")
            assert np.array_equal(got.fold.to_numpy(), ref)
    # fold metrics recomputed from the stored probabilities
    classes = res.classes["labor"]
    y = labor.y.to_numpy()
    one = inst[(inst.learner == "tree") & (inst.iteration == 1)].sort_values("instance")
    P = one[["p_0", "p_1"]].to_numpy(dtype=float)
    f = res.folds.query("dataset == 'labor' and learner == 'tree' and k == 5 and iteration == 1")
    for _, row in f.iterrows():
        test = one.fold.to_numpy() == row.fold
        assert row.n_test == test.sum() and row.n_train == len(y) - test.sum()
        assert row.auroc == pytest.approx(M.auroc(y[test], P[test], classes), abs=1e-6)
        assert row.accuracy == pytest.approx(M.accuracy(y[test], M.predict_labels(P[test], classes)))
        assert row.keel_auc == pytest.approx(M.keel_auc(y[test], M.predict_labels(P[test], classes),
                                                        labels=classes), abs=1e-12)
    it_row = res.iterations.query("dataset == 'labor' and learner == 'tree' and k == 5 and iteration == 1")
    assert it_row.accuracy.item() == pytest.approx(f.accuracy.mean())
    assert it_row.auroc_pooled.item() == pytest.approx(M.auroc(y, P, classes), abs=1e-6)
    assert it_row.keel_auc.item() == pytest.approx(f.keel_auc.mean())
    assert it_row.keel_auc_pooled.item() == pytest.approx(
        M.keel_auc(y, M.predict_labels(P, classes), labels=classes), abs=1e-12)
    assert res.oof("labor", "tree", 5).shape == (3, 57, 2)


def test_learner_seeds_derive_from_seed_iteration_fold(labor):
    res = run_cv([labor], {"echo": SeedEcho()}, folds=3, iterations=2, seed=4, progress=False)
    inst = res.instances
    expect = [(learner_seed(4, i, f) % 1000) / 1000 for i, f in zip(inst.iteration, inst.fold)]
    assert np.allclose(inst.p_0, expect, atol=1e-6)
    assert len(set(np.round(expect, 3))) == 6   # a different seed per (iteration, fold)
    # iteration i of seed s uses partition seed s + i
    ref = make_partitioner("scv", 3, 4 + 1).fold_ids(labor.X, labor.y)
    assert np.array_equal(inst[inst.iteration == 1].sort_values("instance").fold, ref)


# --------------------------------------------------------------------------- determinism
def test_identical_for_n_jobs_and_dask(labor):
    args = dict(datasets=[labor, "bupa"], learners=LEARNERS, folds=(2, 5), iterations=4,
                partitioner="dbscv", progress=False)
    one = run_cv(**args, n_jobs=1)
    two = run_cv(**args, n_jobs=2)
    same(one, two)
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster):
        via_dask = run_cv(**args, backend="dask")
    same(one, via_dask)
    with pytest.raises(ValueError, match="Client"):
        run_cv(**args, backend="dask")


# --------------------------------------------------------------------------- store
@pytest.fixture
def count_tasks(monkeypatch):
    seen = []
    real = engine_tasks.run_task

    def counting(data, est, task):
        seen.append((task.cell, task.iterations))
        return real(data, est, task)

    monkeypatch.setattr(engine_tasks, "run_task", counting)
    return seen


def test_store_is_a_cache_and_extends(tmp_path, labor, count_tasks):
    args = dict(datasets=[labor], learners=LEARNERS, folds=(2, 3), progress=False, batch_size=2)
    first = run_cv(**args, iterations=3, store=tmp_path)
    assert sum(len(its) for _, its in count_tasks) == 2 * 2 * 3
    count_tasks.clear()
    again = run_cv(**args, iterations=3, store=tmp_path)
    assert count_tasks == []                      # nothing recomputed
    same(first, again)
    pd.testing.assert_frame_equal(first.folds, again.folds)   # timings come from the store too
    more = run_cv(**args, iterations=5, store=tmp_path)
    assert sorted({its for _, its in count_tasks}) == [(3,), (4,)]   # only the new iterations
    count_tasks.clear()
    same(more, run_cv(**args, iterations=5))      # same as computing it all without a store
    count_tasks.clear()
    fewer = run_cv(**args, iterations=2, store=tmp_path)
    assert count_tasks == [] and fewer.iterations.iteration.max() == 1
    # a different learner configuration is a different cell, not a stale hit
    run_cv(**{**args, "learners": {"nb": frame_learner(GaussianNB(var_smoothing=1e-3))}},
           iterations=1, store=tmp_path)
    assert len(count_tasks) == 2


def test_default_tasks_hold_as_many_splits_whatever_k(labor, count_tasks):
    """2-fold tasks take 5 times the iterations of 10-fold ones (batched learners are faster on bigger calls)."""
    run_cv([labor], {"nb": LEARNERS["nb"]}, folds=(2, 10), iterations=30, progress=False)
    sizes = {cell[3]: sorted(len(its) for c, its in count_tasks if c == cell) for cell, _ in count_tasks}
    assert sizes == {2: [30], 10: [10, 10, 10]}


def test_damaged_files_are_recomputed(tmp_path, labor, count_tasks):
    args = dict(datasets=[labor], learners={"nb": LEARNERS["nb"]}, folds=2, iterations=4,
                progress=False, batch_size=2, store=tmp_path)
    clean = run_cv(**args)
    inst = next((tmp_path / "instances").rglob("it000000-*.parquet"))
    inst.write_bytes(inst.read_bytes()[:-200])                   # truncated
    its = next((tmp_path / "iterations").rglob("it000002-*.parquet"))
    raw = bytearray(its.read_bytes())
    meta = pq.read_metadata(its).row_group(0)
    chunk = next(meta.column(j) for j in range(meta.num_columns) if meta.column(j).path_in_schema == "accuracy")
    raw[chunk.data_page_offset + chunk.total_compressed_size // 2] ^= 0xFF   # one flipped byte in a data page
    its.write_bytes(bytes(raw))
    count_tasks.clear()
    with pytest.warns(RuntimeWarning, match="damaged"):
        again = run_cv(**args)
    assert sorted(its for _, its in count_tasks) == [(0, 1), (2, 3)]
    same(clean, again)
    assert len(list(tmp_path.rglob("*.damaged"))) >= 2


_KILLED_RUN = textwrap.dedent("""
    import sys, time
    import numpy as np
    from sklearn.naive_bayes import GaussianNB
    from cvrepro.runner import run_cv

    class SlowNB(GaussianNB):
        def fit(self, X, y):
            time.sleep(0.05)
            return super().fit(X, y)

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3)); y = np.repeat([0, 1], 40); X[y == 1] += 1
    res = run_cv([("toy", X, y)], {"nb": SlowNB()}, folds=2, iterations=12, batch_size=1,
                 store=sys.argv[1], progress=False)
    res.iterations.to_parquet(sys.argv[2])
""")


def test_resume_after_kill_9(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(_KILLED_RUN)
    store = tmp_path / "store"
    proc = subprocess.Popen([sys.executable, str(script), str(store), str(tmp_path / "a.parquet")])
    deadline = time.time() + 60
    while len(list(store.glob("folds/**/*.parquet"))) < 3 and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = len(list(store.glob("folds/**/*.parquet")))
    assert 3 <= done < 12
    cell = next(store.glob("instances/**/*.parquet")).parent
    (cell / ".it000011-000011.deadbeef.tmp").write_bytes(b"half a file")   # a write cut short
    stray = cell / "it000011-000011.0123456789abcdef.parquet"             # a chunk whose folds file never came
    stray.write_bytes(b"PAR1")
    subprocess.run([sys.executable, str(script), str(store), str(tmp_path / "b.parquet")], check=True)
    resumed = pd.read_parquet(tmp_path / "b.parquet")
    assert resumed.iteration.tolist() == list(range(12))
    assert not stray.exists() and not list(store.rglob("*.tmp"))   # what the killed run left is gone
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = np.repeat([0, 1], 40)
    X[y == 1] += 1
    fresh = run_cv([("toy", X, y)], {"nb": GaussianNB()}, folds=2, iterations=12, progress=False)
    pd.testing.assert_frame_equal(resumed.drop(columns="seconds"), fresh.iterations.drop(columns="seconds"),
                                  check_categorical=False)


# --------------------------------------------------------------------------- failures
def test_failures_are_recorded_and_the_run_continues(labor, tmp_path):
    X = np.random.default_rng(0).normal(size=(21, 2))
    y = np.array(["a"] * 20 + ["b"])   # k = 2: one training fold holds only class a
    args = dict(datasets=[labor, ("tiny", X, y)], learners={"flaky": Flaky(), "nb": LEARNERS["nb"]},
                folds=2, iterations=5, progress=False, partitioner_params={"small_classes": "warn"},
                store=tmp_path)
    with pytest.warns(CVFailureWarning, match="failed"), \
            pytest.warns(UserWarning, match="fewer folds"):
        res = run_cv(**args)
    with pytest.warns(CVFailureWarning, match="failed"):   # failures are cached too, and reported
        same(res, run_cv(**args))
    fl = res.failures
    labor_flaky = fl[(fl.dataset == "labor") & (fl.learner == "flaky")]
    seeds = [learner_seed(0, i, f) for i in range(5) for f in range(2)]
    assert len(labor_flaky) == sum(s % 5 in (0, 1) for s in seeds) > 0
    assert set(labor_flaky.kind) <= {"error", "nan_prediction"}
    assert labor_flaky[labor_flaky.kind == "error"].message.str.contains("RuntimeError: boom").all()
    tiny = fl[(fl.dataset == "tiny") & (fl.learner == "nb")]
    assert (tiny.kind == "single_class").all() and len(tiny) == 5
    assert not fl[(fl.dataset == "labor") & (fl.learner == "nb")].size
    folds = res.folds.merge(fl[["dataset", "learner", "iteration", "fold"]], how="left", indicator=True)
    assert folds[folds._merge == "both"].auroc.isna().all()
    assert folds[(folds._merge == "left_only") & (folds.dataset == "labor")].auroc.notna().all()
    it = res.iterations
    bad = set(zip(labor_flaky.iteration))
    rows = it[(it.dataset == "labor") & (it.learner == "flaky")]
    assert rows[rows.iteration.isin([b[0] for b in bad])].auroc.isna().all()
    assert len(res.folds) == 2 * 2 * 2 * 5     # nothing lost


# --------------------------------------------------------------------------- stopping
class StopAfterStable:
    """Stops when two successive estimates differ by less than ``tol``, or at ``cap``."""

    def __init__(self, tol=0.02, cap=6, log=None):
        self.tol, self.cap, self.log = tol, cap, log

    def reset(self):
        self.last, self.n_iterations, self.capped = None, 0, False

    def update(self, estimate, oof_proba):
        if self.log is not None:
            self.log.append((estimate, np.array(oof_proba)))
        self.n_iterations += 1
        stop = self.last is not None and abs(estimate - self.last) < self.tol
        self.last = estimate
        if self.n_iterations >= self.cap and not stop:
            self.capped = stop = True
        return stop


@pytest.mark.parametrize("batch_size", [1, 4])
def test_adaptive_stopping(labor, batch_size):
    log = []
    res = run_cv([labor], {"nb": LEARNERS["nb"]}, folds=2, iterations=20,
                 stopping=lambda: StopAfterStable(log=log), batch_size=batch_size, progress=False)
    n = res.iterations.iteration.max() + 1
    assert 2 <= n <= 6 and len(log) == n
    assert res.stopping.n_iterations.item() == n
    assert np.allclose([e for e, _ in log], res.iterations.auroc)
    assert log[0][1].shape == (57,)
    assert np.allclose(log[-1][1], res.oof("labor", "nb", 2)[-1][:, 1])
    full = run_cv([labor], {"nb": LEARNERS["nb"]}, folds=2, iterations=n, progress=False)
    same(res, full)   # stopping only truncates; it never changes what is computed


def test_stopping_multiclass_sees_the_matrix_and_caps():
    ds = load_dataset("iris")
    log = []
    res = run_cv([ds], {"nb": GaussianNB()}, folds=3, iterations=3, progress=False,
                 stopping=lambda: StopAfterStable(tol=0, log=log))
    assert log[0][1].shape == (150, 3)
    assert res.stopping.capped.item() and res.stopping.n_iterations.item() == 3


# --------------------------------------------------------------------------- bad input
def test_bad_input(labor):
    ok = dict(datasets=[labor], learners=LEARNERS, progress=False)
    with pytest.raises(ValueError, match="unknown partitioner"):
        run_cv(**ok, partitioner="loo")
    with pytest.raises(ValueError, match="fewer than k=30"):
        run_cv(**ok, folds=30)
    with pytest.raises(ValueError, match="no data sets"):
        run_cv([], LEARNERS, progress=False)
    with pytest.raises(ValueError, match="unique"):
        run_cv([labor, labor], LEARNERS, progress=False)
    with pytest.raises(TypeError, match="learners"):
        run_cv([labor], GaussianNB(), progress=False)
    with pytest.raises(ValueError, match="iterations"):
        run_cv(**ok, iterations=0)
    with pytest.raises(ValueError, match="rows"):
        run_cv([("x", np.zeros((3, 1)), [0, 1])], LEARNERS, progress=False)


@pytest.mark.parametrize("arg, value, error, words", [
    ("n_jobs", "two", TypeError, "n_jobs must be an integer"),
    ("n_jobs", 2.0, TypeError, "n_jobs must be an integer"),
    ("n_jobs", 0, ValueError, "n_jobs must not be 0"),
    ("batch_size", "5", TypeError, "batch_size must be None or an integer"),
    ("batch_size", 0, ValueError, "batch_size must be None or an integer >= 1"),
    ("iterations", 2.5, TypeError, "iterations must be an integer"),
    ("iterations", True, TypeError, "iterations must be an integer"),
    ("seed", -1, ValueError, "seed must be an integer in"),
    ("seed", "0", TypeError, "seed must be an integer in"),
    ("folds", "5", ValueError, "folds must be an integer"),
    ("backend", "lokky", ValueError, "backend must be one of"),
    ("backend", 2, TypeError, "backend must be a string"),
    ("store", 3, TypeError, "store must be None or a directory path"),
    ("progress", "yes", TypeError, "progress must be True or False"),
    ("stopping", 3, TypeError, "stopping must be None or a factory"),
    ("partitioner_params", [("metric", "hvdm")], TypeError, "partitioner_params must be None or a dict"),
])
def test_bad_arguments_are_named_before_any_work(labor, arg, value, error, words, count_tasks):
    args = dict(datasets=[labor], learners=LEARNERS, folds=2, iterations=2, progress=False)
    with pytest.raises(error, match=words):
        run_cv(**{**args, arg: value})
    assert count_tasks == []


def test_text_columns_are_rejected_up_front(labor, count_tasks):
    X = labor.X.copy()
    X["note"] = [f"free text {i}" for i in range(len(X))]
    with pytest.raises(TypeError, match=r"column 'note' .* neither numeric nor categorical.*astype\('category'\)"):
        run_cv([("labor", X, labor.y)], LEARNERS, folds=2, iterations=1, progress=False)
    X["note"] = X["note"].astype("category")      # declared values: accepted
    res = run_cv([("labor", X, labor.y)], {"nb": LEARNERS["nb"]}, folds=2, iterations=1, progress=False)
    assert res.failures.empty
    text = np.array([["a", 1.0]] * 4 + [["b", 2.0]] * 4, dtype=object)
    with pytest.raises(TypeError, match="column 0 of X"):
        run_cv([("np", text, [0, 1] * 4)], LEARNERS, folds=2, iterations=1, progress=False)
    assert count_tasks[:1] == [(("labor", "nb", "scv", 2), (0,))]   # only the good call ran


def test_stopping_with_store_recomputes_nothing(tmp_path, labor, count_tasks):
    args = dict(datasets=[labor], learners={"nb": LEARNERS["nb"]}, folds=2, iterations=20,
                stopping=lambda: StopAfterStable(), batch_size=3, progress=False, store=tmp_path)
    first = run_cv(**args)
    assert count_tasks
    count_tasks.clear()
    again = run_cv(**args)
    assert count_tasks == []
    same(first, again)
    pd.testing.assert_frame_equal(first.stopping, again.stopping)


# --------------------------------------------------------------------------- user-written learners
_MAIN_LEARNER = textwrap.dedent("""
    import sys
    import numpy as np
    import pandas as pd
    from sklearn.base import BaseEstimator, ClassifierMixin
    from cvrepro.runner import run_cv

    class Centroid(ClassifierMixin, BaseEstimator):   # defined in __main__, as in a notebook
        def __init__(self, noise=0.1, random_state=None):
            self.noise, self.random_state = noise, random_state

        def fit(self, X, y):
            self.classes_ = np.unique(y)
            self.centres_ = np.array([X[y == c].mean(axis=0) for c in self.classes_])
            self.jitter_ = np.random.default_rng(self.random_state).normal(scale=self.noise)
            return self

        def predict_proba(self, X):
            d = -((X[:, None, :] - self.centres_[None]) ** 2).sum(axis=2) + self.jitter_ * np.arange(2)
            e = np.exp(d - d.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)

    if __name__ == "__main__":
        from distributed import Client, LocalCluster
        rng = np.random.default_rng(0)
        X = rng.normal(size=(60, 3)); y = np.repeat([0, 1], 30); X[y == 1] += 0.7
        args = dict(datasets=[("toy", X, y)], learners={"centroid": Centroid()}, folds=3, iterations=4,
                    progress=False)
        runs = {"one": run_cv(**args, n_jobs=1), "two": run_cv(**args, n_jobs=2)}
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster):
            runs["dask"] = run_cv(**args, backend="dask")
        for name, res in runs.items():
            assert res.failures.empty, (name, res.failures)
            pd.testing.assert_frame_equal(res.iterations.drop(columns="seconds"),
                                          runs["one"].iterations.drop(columns="seconds"))
        print("same", sorted(runs), runs["one"].iterations.auroc.round(4).tolist())
""")


def test_learner_defined_in_main_runs_on_every_backend(tmp_path):
    """A class written in a script or notebook (``__main__``) works with joblib workers and a
    dask cluster in other processes (it is pickled by value), with the same tables as in process."""
    script = tmp_path / "notebook_like.py"
    script.write_text(_MAIN_LEARNER)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("same ['dask', 'one', 'two']")
