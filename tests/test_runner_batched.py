"""The engine's batched path: one call per task, same tables as fold-by-fold fitting."""
import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.naive_bayes import GaussianNB

from cvrepro.runner import run_cv

CALLS = []


class BatchedNB(ClassifierMixin, BaseEstimator):
    """GaussianNB with a batched path that fits each split itself (a reference batcher)."""

    def __init__(self, random_state=None, fail=False):
        self.random_state = random_state
        self.fail = fail

    def fit(self, X, y):
        self.model_ = GaussianNB().fit(np.asarray(X, dtype=float), y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(np.asarray(X, dtype=float))

    def fit_predict_folds(self, X, y, splits, random_states, classes):
        CALLS.append(len(splits))
        if self.fail:
            raise RuntimeError("batched path broken")
        X = np.asarray(X, dtype=float)
        out = []
        for (train, test), rs in zip(splits, random_states):
            m = clone(self).set_params(random_state=rs).fit(X[train], y[train])
            p = np.zeros((len(test), len(classes)))
            for j, c in enumerate(m.classes_):
                p[:, list(classes).index(c)] = m.predict_proba(X[test])[:, j]
            out.append(p)
        return out


def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + rng.normal(scale=0.5, size=60) > 0, "a", "b")
    return [("toy", X, y)]


def test_batched_path_is_one_call_per_task_and_equals_fold_by_fold():
    CALLS.clear()
    batched = run_cv(data(), {"nb": BatchedNB()}, folds=(5,), iterations=4, batch_size=4, progress=False)
    assert CALLS == [20]  # 4 iterations x 5 folds in one call
    plain = run_cv(data(), {"nb": BatchedNB()}, folds=(5,), iterations=4, batch_size=4,
                   progress=False, batched=False)
    assert CALLS == [20]  # not called again
    cols = ["iteration", "auroc", "accuracy", "rmse"]
    pd.testing.assert_frame_equal(batched.iterations[cols], plain.iterations[cols])
    np.testing.assert_array_equal(batched.oof("toy", "nb", 5), plain.oof("toy", "nb", 5))


def test_a_failing_batched_call_falls_back_to_fold_by_fold():
    CALLS.clear()
    res = run_cv(data(), {"nb": BatchedNB(fail=True)}, folds=(2,), iterations=3, progress=False)
    assert CALLS and res.failures.empty
    assert res.iterations.auroc.notna().all()


def test_batched_fit_time_is_shared_by_the_folds():
    res = run_cv(data(), {"nb": BatchedNB()}, folds=(2,), iterations=2, batch_size=2, progress=False)
    fit = res.folds.fit_seconds.to_numpy()
    assert np.allclose(fit, fit[0]) and (res.folds.predict_seconds == 0).all()


class SeedRecorder(BatchedNB):
    """Records the random_state each fold's copy is fitted with."""

    seen = []

    def fit(self, X, y):
        SeedRecorder.seen.append(self.random_state)
        return super().fit(X, y)


def test_a_fixed_random_state_is_kept_and_none_is_seeded_per_fold():
    SeedRecorder.seen = []
    run_cv(data(), {"fixed": SeedRecorder(random_state=7)}, folds=(2,), iterations=2, progress=False,
           batched=False)
    assert SeedRecorder.seen == [7, 7, 7, 7]
    SeedRecorder.seen = []
    run_cv(data(), {"free": SeedRecorder()}, folds=(2,), iterations=2, progress=False, batched=False)
    assert len(set(SeedRecorder.seen)) == 4 and None not in SeedRecorder.seen
    SeedRecorder.seen = []  # the batched path passes the same seeds
    run_cv(data(), {"free": SeedRecorder()}, folds=(2,), iterations=2, progress=False, batch_size=2)
    assert len(set(SeedRecorder.seen)) == 4


def test_batched_mlp_built_by_name_equals_fold_by_fold():
    from cvrepro.datasets import load_dataset

    ds = load_dataset("iris")
    args = dict(folds=(3,), iterations=1, progress=False)
    a = run_cv([("iris", ds.X, ds.y)], ["MLP"], **args)
    b = run_cv([("iris", ds.X, ds.y)], ["MLP"], batched=False, **args)
    np.testing.assert_array_equal(a.oof("iris", "MLP", 3), b.oof("iris", "MLP", 3))
