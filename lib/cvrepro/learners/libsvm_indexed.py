"""scikit-learn's libsvm on the rows of a kept kernel matrix, read in place by index.

``SVC(kernel="precomputed").fit(K, y)`` needs the training set's kernel block
``K`` as its own array: a learner that keeps the kernel matrix ``G`` of a whole
data set copies ``G[ids][:, ids]`` out for every fit (one pass over m x m
values), and ``SVC.fit`` scans it twice more (finiteness, and the variance
behind ``gamma="scale"``, which a precomputed kernel never uses). libsvm's
dense precomputed kernel reads ``K(i, j)`` as ``x[i].values[x[j].ind]``:
pointing instance ``i``'s values at row ``ids[i]`` of ``G`` and its ``ind`` at
``ids[j]``'s column reads the same values in place. :func:`svc_precomputed`
calls the ``svm_train`` compiled in scikit-learn with every parameter ``SVC``
passes (scikit-learn 1.9's structures, ``sklearn/svm/src/libsvm/svm.h``), so
its solution is ``SVC``'s bit for bit (tests/test_libsvm_indexed.py checks
it); another scikit-learn version, or a one-time self-check that finds any
difference, falls back to ``SVC`` on the copied block.
"""
from __future__ import annotations

import ctypes
import threading
from ctypes import POINTER, c_double, c_int, c_void_p

import numpy as np
import sklearn

__all__ = ["svc_precomputed"]


class _Parameter(ctypes.Structure):
    _fields_ = [("svm_type", c_int), ("kernel_type", c_int), ("degree", c_int), ("gamma", c_double),
                ("coef0", c_double), ("cache_size", c_double), ("eps", c_double), ("C", c_double),
                ("nr_weight", c_int), ("weight_label", c_void_p), ("weight", c_void_p), ("nu", c_double),
                ("p", c_double), ("shrinking", c_int), ("probability", c_int), ("max_iter", c_int),
                ("random_seed", c_int)]


class _Problem(ctypes.Structure):
    _fields_ = [("l", c_int), ("y", c_void_p), ("x", c_void_p), ("W", c_void_p)]


class _Model(ctypes.Structure):
    _fields_ = [("param", _Parameter), ("nr_class", c_int), ("l", c_int), ("SV", c_void_p),
                ("sv_coef", POINTER(POINTER(c_double))), ("n_iter", POINTER(c_int)), ("sv_ind", POINTER(c_int)),
                ("rho", POINTER(c_double)), ("probA", c_void_p), ("probB", c_void_p), ("label", POINTER(c_int)),
                ("nSV", POINTER(c_int)), ("free_sv", c_int)]


class _Blas(ctypes.Structure):
    _fields_ = [("dot", c_void_p)]


_LAYOUT_VERSION = "1.9."
_NODE = np.dtype([("dim", np.int32), ("ind", np.int32), ("values", np.uintp)])   # struct svm_node
_C_SVC, _PRECOMPUTED = 0, 4
_lock = threading.Lock()
_library = None
_checked = None          # None: not yet; True: equal to SVC; False: use SVC


def _libsvm():
    global _library
    if _library is None:
        from sklearn.svm import _libsvm as module

        library = ctypes.CDLL(module.__file__)
        library.svm_train.restype = POINTER(_Model)
        library.svm_train.argtypes = [POINTER(_Problem), POINTER(_Parameter), POINTER(c_int), POINTER(_Blas)]
        library.svm_free_and_destroy_model.argtypes = [POINTER(POINTER(_Model))]
        library.svm_free_and_destroy_model.restype = None
        _library = (library, module)
    return _library


def _train(G, ids, y, C, tol, cache_mb):
    """``(alpha, b, support, iterations)`` from libsvm's ``svm_train`` on ``G[ids][:, ids]`` read in
    place, with the arguments ``SVC(C=C, kernel="precomputed", tol=tol, cache_size=cache_mb)`` gives."""
    library, module = _libsvm()
    m = len(ids)
    nodes = np.empty(m, _NODE)
    nodes["dim"] = G.shape[1]
    nodes["ind"] = ids
    nodes["values"] = G.ctypes.data + ids.astype(np.uintp) * np.uintp(G.strides[0])
    labels = (y > 0).astype(np.float64)         # SVC's classes_ index of each label, as float
    weights = np.ones(m)                        # SVC's sample_weight when none is given
    class_label, class_weight = np.arange(2, dtype=np.int32), np.ones(2)   # SVC's class_weight_ (balanced off)
    problem = _Problem(m, labels.ctypes.data, nodes.ctypes.data, weights.ctypes.data)
    param = _Parameter(_C_SVC, _PRECOMPUTED, 3, 1.0, 0.0, float(cache_mb), float(tol), float(C), 2,
                       class_label.ctypes.data, class_weight.ctypes.data, 0.5, 0.0, 1, 0, -1, -1)
    status = c_int(0)
    module.set_verbosity_wrap(0)                # libsvm prints its progress unless told not to
    model = library.svm_train(ctypes.byref(problem), ctypes.byref(param), ctypes.byref(status),
                              ctypes.byref(_Blas(None)))
    try:
        fitted = model.contents
        n_sv = fitted.l
        support = np.ctypeslib.as_array(fitted.sv_ind, (n_sv,)).astype(np.int64) if n_sv else np.zeros(0, np.int64)
        coef = np.ctypeslib.as_array(fitted.sv_coef[0], (n_sv,)).copy() if n_sv else np.zeros(0)
        rho, iterations = float(fitted.rho[0]), int(fitted.n_iter[0])
    finally:
        library.svm_free_and_destroy_model(ctypes.byref(model))
    alpha = np.zeros(m)
    alpha[support] = np.abs(coef)
    return alpha, (-rho if rho != 0 else 0.0), support, iterations   # SVC: intercept_ = rho, -0.0 for 0


def _svc_solution(K, y, C, tol, cache_mb):
    """``(alpha, b, support)`` from ``SVC(kernel="precomputed")`` on the block ``K``, as the callers read it."""
    from sklearn.svm import SVC

    svc = SVC(C=C, kernel="precomputed", tol=tol, cache_size=cache_mb).fit(K, y)
    alpha = np.zeros(len(y))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return alpha, -float(svc.intercept_[0]), svc.support_.astype(np.int64)


def _same_as_svc() -> bool:
    """One small problem solved both ways (scikit-learn's SVC and :func:`_train`): equal in every bit."""
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(40, 3))
    G = np.exp(-0.5 * ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2))
    ids = rng.permutation(40)[:30]
    y = np.where(Z[ids, 0] + 0.3 * rng.normal(size=30) > 0, 1.0, -1.0)
    alpha, b, support, _ = _train(G, ids, y, 10.0, 1e-3, 200)
    want_alpha, want_b, want_support = _svc_solution(G[np.ix_(ids, ids)], y, 10.0, 1e-3, 200)
    return (np.array_equal(support, want_support) and alpha.tobytes() == want_alpha.tobytes()
            and np.float64(b).tobytes() == np.float64(want_b).tobytes())


def svc_precomputed(G: np.ndarray, ids: np.ndarray, y: np.ndarray, C: float, tol: float, cache_mb: float = 200.0):
    """``(alpha over ids, b, support positions)`` of ``SVC(C, kernel="precomputed", tol,
    cache_size=cache_mb).fit(G[ids][:, ids], y)`` (labels -1/+1; ``alpha`` = ``|dual_coef_|`` at
    ``support_``, ``b`` = ``-intercept_``), computed on ``G``'s rows in place. ``G``: a C-contiguous
    float64 matrix whose rows ``ids`` are filled and finite; ``y`` has both labels."""
    global _checked
    G, ids, y = np.asarray(G), np.asarray(ids, np.int64), np.asarray(y, np.float64)
    if G.dtype != np.float64 or not G.flags.c_contiguous or G.shape[0] != G.shape[1]:
        raise ValueError("svc_precomputed: G must be a square C-contiguous float64 matrix")
    if len(ids) != len(y) or len(ids) == 0 or ids.min() < 0 or ids.max() >= len(G):
        raise ValueError(f"svc_precomputed: ids must be {len(y)} row numbers of G (0 to {len(G) - 1})")
    with _lock:
        if _checked is None:            # the structures above are scikit-learn 1.9's: other versions use SVC
            _checked = sklearn.__version__.startswith(_LAYOUT_VERSION) and _same_as_svc()
    if not _checked:
        return _svc_solution(G[np.ix_(ids, ids)], y, C, tol, cache_mb)
    alpha, b, support, _ = _train(G, ids, y, C, tol, cache_mb)
    return alpha, b, support
