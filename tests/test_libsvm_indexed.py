"""scikit-learn's libsvm on a kept kernel matrix read in place: SVC(kernel="precomputed")'s solution
bit for bit, whatever the order and subset of the rows."""
import numpy as np
import pytest
from sklearn.svm import SVC

from cvrepro.learners import libsvm_indexed
from cvrepro.learners.keel_smo import svm_outputs, svm_outputs_at
from cvrepro.learners.libsvm_indexed import svc_precomputed


def _problem(seed):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 300)), int(rng.integers(1, 6))
    Z = rng.normal(size=(n, d))
    Z[rng.integers(n)] = Z[0]                         # a duplicated instance
    G = np.exp(-rng.uniform(0.1, 3.0) * ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2))
    ids = rng.permutation(n)[:int(rng.integers(6, n))]    # a shuffled subset, as a training fold
    y = np.where(Z[ids, 0] + rng.normal(size=len(ids)) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    return G, ids, y, float(rng.choice([0.5, 1.0, 100.0]))


def _svc(K, y, C):
    svc = SVC(C=C, kernel="precomputed", tol=1e-3, cache_size=200).fit(K, y)
    alpha = np.zeros(len(y))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return alpha, -float(svc.intercept_[0]), svc.support_


@pytest.mark.parametrize("seed", range(12))
def test_equals_svc_on_the_copied_block(seed):
    G, ids, y, C = _problem(seed)
    alpha, b, support = svc_precomputed(G, ids, y, C, 1e-3)
    want_alpha, want_b, want_support = _svc(G[np.ix_(ids, ids)], y, C)
    assert np.array_equal(support, want_support)
    assert alpha.tobytes() == want_alpha.tobytes()
    assert np.float64(b).tobytes() == np.float64(want_b).tobytes()


def test_falls_back_to_svc_when_the_self_check_fails(monkeypatch):
    G, ids, y, C = _problem(3)
    monkeypatch.setattr(libsvm_indexed, "_checked", False)
    monkeypatch.setattr(libsvm_indexed, "_train", lambda *a: pytest.fail("svm_train called after a failed check"))
    alpha, b, support = svc_precomputed(G, ids, y, C, 1e-3)
    assert alpha.tobytes() == _svc(G[np.ix_(ids, ids)], y, C)[0].tobytes()


def test_self_check_passes_with_this_scikit_learn():
    assert libsvm_indexed._same_as_svc()


@pytest.mark.parametrize("bad, match", [
    (lambda G, ids, y: (G[:, :-1], ids, y), "square"),
    (lambda G, ids, y: (np.asfortranarray(G), ids, y), "C-contiguous"),
    (lambda G, ids, y: (G, ids[:-1], y), "row numbers"),
    (lambda G, ids, y: (G, np.r_[ids[:-1], len(G)], y), "row numbers"),
])
def test_bad_input_is_refused_before_libsvm_reads_it(bad, match):
    G, ids, y, C = _problem(1)
    with pytest.raises(ValueError, match=match):
        svc_precomputed(*bad(G, ids, y), C, 1e-3)


def test_outputs_read_in_place_equal_outputs_of_the_copied_block():
    rng = np.random.default_rng(5)
    M = rng.normal(size=(50, 50))
    rows, cols = rng.permutation(50)[:30], rng.permutation(50)[:12]
    coef = rng.normal(size=12)
    want = svm_outputs(np.ascontiguousarray(M[np.ix_(rows, cols)]), coef, 0.25)
    assert svm_outputs_at(M, rows, cols, coef, 0.25).tobytes() == want.tobytes()
