"""cvrepro.shift: the two covariate-shift measures against brute force, and their meaning."""
import numpy as np
import pandas as pd
import pytest

from cvrepro.partition import make_partitioner, mixed_distances
from cvrepro.shift import ShiftMeter, partition_shift


def mixed(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.uniform(0, 10, n),
                      "c": pd.Categorical(rng.choice(["x", "y", "z"], n))})
    y = pd.Series(rng.choice(["p", "q"], n))
    return X, y


def test_nn_distance_is_the_brute_force_nearest_same_class_training_distance():
    X, y = mixed()
    folds = np.arange(len(y)) % 4
    D = mixed_distances(X, y, np.arange(len(y)), np.arange(len(y)), metric="keel")
    per_fold = []
    for f in range(4):
        d = [min(D[i, j] for j in range(len(y)) if folds[j] != f and y[j] == y[i])
             for i in range(len(y)) if folds[i] == f]
        per_fold.append(np.mean(d))
    assert ShiftMeter(X, y).nn_distance(folds) == pytest.approx(np.mean(per_fold), rel=1e-6)


def test_mmd_is_the_unbiased_statistic_with_the_median_bandwidth():
    X, y = mixed(30, seed=1)
    folds = np.arange(len(y)) % 3
    D = mixed_distances(X, y, np.arange(len(y)), np.arange(len(y)), metric="keel")
    sigma = np.median(D[np.triu_indices(len(y), 1)])
    K = np.exp(-D ** 2 / (2 * sigma ** 2))
    values = []
    for f in range(3):
        t, r = np.flatnonzero(folds == f), np.flatnonzero(folds != f)
        ktt = (K[np.ix_(t, t)].sum() - len(t)) / (len(t) * (len(t) - 1))
        krr = (K[np.ix_(r, r)].sum() - len(r)) / (len(r) * (len(r) - 1))
        values.append(ktt + krr - 2 * K[np.ix_(t, r)].mean())
    meter = ShiftMeter(X, y)
    assert meter.bandwidth == pytest.approx(sigma, rel=1e-6)
    assert meter.mmd(folds) == pytest.approx(np.mean(values), abs=1e-6)


def test_a_partition_that_cuts_a_region_out_of_training_shows_more_shift():
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(0, 0.3, (40, 2)), rng.normal(5, 0.3, (40, 2))])   # two far clusters
    y = np.zeros(80, dtype=int)
    cut = np.repeat([0, 1], 40)            # fold 0 = one cluster: the other is never seen in training
    mixed_folds = np.arange(80) % 2        # both clusters in both folds
    meter = ShiftMeter(X, y)      # KEEL's distance grows as the square root of a numeric gap
    assert meter.nn_distance(cut) > 5 * meter.nn_distance(mixed_folds)
    hvdm = ShiftMeter(X, y, metric="hvdm")
    assert hvdm.nn_distance(cut) > 10 * hvdm.nn_distance(mixed_folds)
    assert meter.mmd(cut) > 0.5 and abs(meter.mmd(mixed_folds)) < 0.05


def test_ms_scv_shifts_more_than_dob_scv_on_average():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(200, 3)))
    y = rng.integers(0, 2, 200)
    meter = ShiftMeter(X, y)
    score = {name: np.mean([meter.nn_distance(make_partitioner(name, 5, s, metric="keel").fold_ids(X, y))
                            for s in range(5)]) for name in ("dobscv", "msscv")}
    assert score["msscv"] > 1.2 * score["dobscv"]


def test_partition_shift_equals_the_meter_and_bad_folds_are_refused():
    X, y = mixed()
    folds = np.arange(len(y)) % 4
    assert partition_shift(X, y, folds) == ShiftMeter(X, y).measure(folds)
    meter = ShiftMeter(X, y)
    with pytest.raises(ValueError, match="one fold id per example"):
        meter.mmd(folds[:-1])
    with pytest.raises(ValueError, match="non-empty folds"):
        meter.nn_distance(np.where(folds == 1, 2, folds))
    with pytest.raises(ValueError, match="rows but y has"):
        ShiftMeter(X.iloc[:-1], y)


def test_the_gaussian_kernel_is_the_c_librarys_exp_rounded_to_float32():
    import math

    from cvrepro.shift import gaussian_kernel

    squared = np.random.default_rng(2).uniform(0, 40, (60, 70))
    expected = np.array([[np.float32(math.exp(-v / 3.5)) for v in row] for row in squared], dtype=np.float32)
    assert gaussian_kernel(squared, 3.5).dtype == np.float32
    assert gaussian_kernel(squared, 3.5).tobytes() == expected.tobytes()


def test_fold_kernel_sums_are_float64_sums_of_the_float32_kernel():
    """Each block within 1e-12 of the exactly rounded sum (math.fsum): a float32 product (the earlier code, whose
    rounding depended on the machine's BLAS) is 1e-7 off; the fixed order makes it the same on every machine."""
    import math

    from cvrepro.shift import fold_kernel_sums

    rng = np.random.default_rng(3)
    kernel = rng.random((700, 700), dtype=np.float32)
    folds = rng.integers(0, 5, 700)
    block = fold_kernel_sums(kernel, folds, 5)
    for a in range(5):
        for b in range(5):
            exact = math.fsum(kernel[np.ix_(folds == a, folds == b)].astype(np.float64).ravel())
            assert block[a, b] == pytest.approx(exact, rel=1e-12)
    member = np.eye(5, dtype=np.float32)[folds]
    assert np.abs(member.T @ (kernel @ member) - block).max() / block.max() > 1e-9      # float32's error is seen
