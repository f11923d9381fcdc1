"""SMO's kernel cache: WEKA's bits (serial dot products), with or without the cache, per fold or shared."""
import numpy as np
from sklearn.model_selection import StratifiedKFold

from cvrepro.datasets import load_dataset
from cvrepro.learners import smo
from cvrepro.learners.batched import FoldBatch
from cvrepro.learners.smo import SMO, _kernel, binary_smo, kernel_cache


def serial_dot(a, b):
    """WEKA's dotProd: products added one attribute after another."""
    s = 0.0
    for x, z in zip(a.tolist(), b.tolist()):
        s += x * z
    return s


def test_cached_rows_are_serial_dot_products():
    rng = np.random.default_rng(0)
    S = rng.normal(size=(40, 23)) * 10.0 ** rng.integers(-8, 8, size=(40, 23))   # sums that depend on order
    S[3, 5] = -0.0
    cache = kernel_cache(S)
    for g in (0, 3, 39):
        _kernel(*cache, g, 0)
        row = cache[2][g]
        want = np.array([serial_dot(S[g], S[h]) for h in range(len(S))])
        assert row.tobytes() == want.tobytes()
        assert (row != S @ S[g]).any()              # another summation order gives other bits here
    assert cache[3].sum() == 3                       # only the rows asked for were filled
    assert _kernel(*kernel_cache(S, budget=0), 7, 9) == serial_dot(S[7], S[9])


def test_solver_gives_the_same_bits_with_and_without_cache():
    ds = load_dataset("heart")
    batch = FoldBatch(ds.X, ds.y, ds.y.cat.categories)
    Z = batch.model(SMO(), 1, batch.classes).filters_fit(batch.Xe)[1]
    y = np.where(ds.y.cat.codes.to_numpy() == 0, -1.0, 1.0)
    rows = np.random.default_rng(1).permutation(len(y))[:200]
    cached, plain = kernel_cache(Z), kernel_cache(Z, budget=0)
    assert cached[2].size and not plain[2].size
    w1, b1 = binary_smo(cached, rows, y[rows], 1.0, 1e-3, 1e-12)
    w2, b2 = binary_smo(plain, rows, y[rows], 1.0, 1e-3, 1e-12)
    assert w1.tobytes() == w2.tobytes() and b1 == b2
    assert cached[3][rows].any() and not cached[3][np.setdiff1d(np.arange(len(y)), rows)].any()


def test_batched_folds_fit_the_same_machines_as_per_fold_fits(monkeypatch):
    # glass: 6 classes (15 pairs share a fold's cache); some folds normalise as the whole data does
    ds = load_dataset("glass")
    y, classes = ds.y.to_numpy(), np.unique(ds.y.to_numpy())
    splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(ds.X, y))
    batch = FoldBatch(ds.X, y, classes)
    m = batch.model(SMO(), 1, batch.classes)
    whole = m.filters_fit(batch.Xe)[1]
    shared = [np.array_equal(m.filters_fit(batch.Xe[tr])[1], whole[tr]) for tr, _ in splits]
    assert any(shared) and not all(shared)           # both paths are exercised
    machines = []
    monkeypatch.setattr(smo, "binary_smo", lambda *a: machines.append(binary_smo(*a)) or machines[-1])
    seeds = [1, 2, 3, 4, 5]
    got = SMO().fit_predict_folds(ds.X, y, splits, seeds, classes)
    batched, machines[:] = machines[:], []
    for (tr, te), rs, g in zip(splits, seeds, got):
        ref = SMO(random_state=rs).fit(ds.X.iloc[tr], y[tr])
        want = np.zeros_like(g)
        want[:, np.searchsorted(classes, ref.classes_)] = ref.predict_proba(ds.X.iloc[te])
        assert g.tobytes() == want.tobytes()
    assert len(batched) == len(machines) == 5 * 15
    for (w1, b1), (w2, b2) in zip(batched, machines):
        assert w1.tobytes() == w2.tobytes() and b1 == b2
