"""The Gaussian (RBF) kernel exactly as scikit-learn's libsvm computes it, as a precomputed matrix.

scikit-learn's ``SVC(kernel="rbf")`` (its dense libsvm) evaluates
``exp(-gamma * (x_square[i] + x_square[j] - 2 * dot(x_i, x_j)))`` with ``dot``
and ``x_square[i] = dot(x_i, x_i)`` from the BLAS ``ddot`` of
``scipy.linalg.cython_blas``, every time its solver needs a kernel column.
:class:`LibsvmRBFRows` computes the same values, with the same ``ddot`` and the
same expression, once per pair of rows of a data set, and keeps them in a
matrix; ``SVC(kernel="precomputed")`` on a block of that matrix (or libsvm
reading the block in place, :mod:`cvrepro.learners.libsvm_indexed`) then reads
the values libsvm would have computed, so its solution (support vectors, dual
coefficients, intercept) is the ``kernel="rbf"`` one bit for bit
(tests/test_keel_batched.py checks it on several data sets) and the matrix is
shared by the folds and tasks of a cross-validation, where libsvm recomputes
the kernel in every fit. PDFC (:mod:`cvrepro.learners.pdfc`) trains on it.

The numba functions that call ``ddot`` are compiled in each process (numba
does not cache functions that call a C function by address).
"""
from __future__ import annotations

import ctypes

import numpy as np
from numba import njit

from .batched import MEMORY_BUDGET

__all__ = ["LibsvmRBFRows", "blas_ddot"]


def blas_ddot():
    """``scipy.linalg.cython_blas.ddot`` (the BLAS scikit-learn's libsvm calls) as a ctypes function
    of five pointers: n, x, incx, y, incy."""
    from scipy.linalg import cython_blas

    capsule = cython_blas.__pyx_capi__["ddot"]
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get_pointer(capsule, get_name(capsule))
    return ctypes.CFUNCTYPE(ctypes.c_double, *[ctypes.c_void_p] * 5)(address)


_ddot = blas_ddot()


@njit(cache=False)
def _self_products(Z, ints):
    n, d = Z.shape
    ints[0], ints[1] = d, 1
    p, base = ints.ctypes.data, Z.ctypes.data
    out = np.empty(n)
    for i in range(n):
        row = base + i * d * 8
        out[i] = _ddot(p, row, p + 4, row, p + 4)
    return out


@njit(cache=False)
def _values(Z, xs, gamma, a, b, out, ints):
    """``out[r, c]`` = libsvm's RBF of rows ``a[r]`` and ``b[c]`` of ``Z``."""
    d = Z.shape[1]
    ints[0], ints[1] = d, 1
    p, base = ints.ctypes.data, Z.ctypes.data
    for r in range(a.shape[0]):
        i = a[r]
        x = base + i * d * 8
        o = out[r]
        for c in range(b.shape[0]):
            j = b[c]
            o[c] = np.exp(-gamma * (xs[i] + xs[j] - 2 * _ddot(p, x, p + 4, base + j * d * 8, p + 4)))


@njit(cache=False)
def _fill(Z, xs, gamma, todo, G, filled, ints):
    """Rows ``todo`` of the matrix ``G`` (whole rows), marked as filled."""
    n, d = Z.shape
    ints[0], ints[1] = d, 1
    p, base = ints.ctypes.data, Z.ctypes.data
    for r in range(todo.shape[0]):
        i = todo[r]
        if filled[i]:
            continue
        x = base + i * d * 8
        o = G[i]
        for j in range(n):
            o[j] = np.exp(-gamma * (xs[i] + xs[j] - 2 * _ddot(p, x, p + 4, base + j * d * 8, p + 4)))
        filled[i] = True


@njit(cache=True)
def _gather(G, a, b, out):
    for r in range(a.shape[0]):
        row = G[a[r]]
        o = out[r]
        for c in range(b.shape[0]):
            o[c] = row[b[c]]


class LibsvmRBFRows:
    """libsvm's RBF kernel (``gamma``) over the rows of ``Z``: a matrix filled row by row on first
    use when it fits in ``budget`` bytes, else values computed each time."""

    def __init__(self, Z: np.ndarray, gamma: float, budget: int = MEMORY_BUDGET):
        self.Z = np.ascontiguousarray(Z, dtype=np.float64)
        self.gamma = float(gamma)
        self._ints = np.zeros(2, dtype=np.int32)
        self.xs = _self_products(self.Z, self._ints)
        n = len(self.Z)
        self.G = np.empty((n, n)) if 8 * n * n <= budget else None
        self.filled = np.zeros(n, dtype=np.bool_)

    def fill(self, ids: np.ndarray) -> None:
        """Fill the kept matrix's rows ``ids`` (``G`` must be kept)."""
        _fill(self.Z, self.xs, self.gamma, np.asarray(ids, np.int64), self.G, self.filled, self._ints)

    def rows(self, a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Kernel values ``K(a_i, b_j)`` (rows of ``Z``), as a matrix (written into ``out`` if given)."""
        a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
        if out is None:
            out = np.empty((len(a), len(b)))
        if self.G is None:
            _values(self.Z, self.xs, self.gamma, a, b, out, self._ints)
            return out
        _fill(self.Z, self.xs, self.gamma, a, self.G, self.filled, self._ints)
        _gather(self.G, a, b, out)
        return out
