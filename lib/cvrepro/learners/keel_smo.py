"""KEEL's SMO machinery (package ``keel.Algorithms.SVM.SMO``), shared by its SVM and PDFC.

KEEL's SMO is a port of WEKA's: what differs from :mod:`cvrepro.learners.smo`
(WEKA 3.6's SMO with the linear kernel) is how data reach it and the kernels.

* Input (:func:`smo_input`, KEEL's ``InstancesKEEL2Weka`` with its defaults
  "Normalize" and "ConvertNominalAttributesToBinary"): values as KEEL's
  reader gives them (missing 0.0, test values clamped into the declared
  ranges, :mod:`cvrepro.learners.keel_data`); numeric attributes scaled by
  ``(x - min) / (max - min)`` over the declared (or training) range; a
  nominal attribute with more than two declared values becomes one 0/1
  indicator per value (all 0 if missing), one with two values stays its value
  index (0/1).
* Kernels: Puk (Pearson VII, ``1 / (1 + (f sqrt(|x - y|^2))^2)^omega``, ``f = 2
  sqrt(2^(1/omega) - 1) / sigma``, with ``|x - y|^2`` computed as WEKA does,
  ``-2 x.y + x.x + y.y``) and PDFC's positive-definite reference function
  kernel (Gaussian: the product over attributes of ``exp(-d (x_k - y_k)^2)``,
  :data:`PDRF_GAUSSIAN`; :data:`RBF` is the same function as ``exp(-d |x -
  y|^2)``, equal up to rounding and one ``exp`` per pair instead of one per
  attribute); all are 1 for an instance with itself.
* Solver (:func:`binary_kernel_smo`): WEKA's ``BinarySMO`` (Platt's SMO with
  Keerthi et al.'s two thresholds), step for step, including the order of
  WEKA's linked-list sets (which fixes the order of sums), for any kernel.
* Order of the training instances: each binary problem's instances (first
  class, then the other) are shuffled by KEEL's ``Instances.randomize()``:
  Fisher-Yates from the end with ``Randomize.Randint(0, j + 1)`` from KEEL's
  Mersenne Twister (``init_genrand(seed)``, 53-bit draws), one stream per run,
  seeded by the configuration's seed (:class:`KeelRandom`, numpy's
  ``RandomState`` is the same generator).

Kernel values are read from a matrix over the rows of one encoded data set,
each row filled on first use (:class:`KernelRows`), so that the folds of a
cross-validation, and the binary problems of one fit, share them; the batched
path keeps that matrix across calls on the same data and kernel
(:mod:`cvrepro.learners.keel_cache`), so the tasks of a study share it too. Kernel
values and therefore the solutions equal KEEL's up to the last bits of
``exp`` (Java's and the C library's may differ by an ulp): the predicted
classes agree with KEEL's except, rarely, for instances on the boundary.
"""
from __future__ import annotations

import threading

import numpy as np
from numba import njit

from . import keel_cache
from .base import TabularClassifier
from .batched import MEMORY_BUDGET, FoldBatch
from .keel_data import check_bounds, numeric_ranges, read_values
from .libsvm_indexed import svc_precomputed
from .libsvm_rbf import LibsvmRBFRows
from .smo_steps import (
    DOUBLE_MAX,
    add_pair_thresholds,
    class_ends,
    new_sets,
    newton_alpha2,
    objective_alpha2,
    pair_bounds,
    place,
    settle,
)

__all__ = ["smo_input", "KernelRows", "binary_kernel_smo", "KeelRandom", "KeelKernelClassifier",
           "svm_outputs", "svm_outputs_at", "fuzzy_outputs", "scratch_square", "PUK", "PDRF_GAUSSIAN", "RBF",
           "DEFAULT_SEED"]

PUK, PDRF_GAUSSIAN, RBF = 0, 1, 2
DEFAULT_SEED = 12345678          # KEEL's experiment graphs start from this seed
_CACHE_MB = 200


def smo_input(Xe: np.ndarray, nominal: np.ndarray, n_values: np.ndarray, lo, hi, test: bool) -> np.ndarray:
    """KEEL's ``InstancesKEEL2Weka`` (normalise, nominal to binary) of encoded data ``Xe`` (NaN
    for missing): a missing value reads as 0 (so a two-valued nominal one becomes its first
    value), except that a many-valued nominal one gets no indicator set."""
    V = read_values(Xe, nominal, lo, hi, test)
    blocks = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(V.shape[1]):
            if not nominal[j]:
                blocks.append(((V[:, j] - lo[j]) / (hi[j] - lo[j]))[:, None])
            elif n_values[j] > 2:
                blocks.append((Xe[:, j][:, None] == np.arange(n_values[j])[None, :]).astype(float))  # NaN: no 1
            else:
                blocks.append(V[:, j][:, None])
    return np.ascontiguousarray(np.hstack(blocks)) if blocks else np.zeros((V.shape[0], 0))


class KeelRandom:
    """KEEL's ``org.core.Randomize``: MT19937 seeded by ``init_genrand(seed & 0xffffffff)``,
    53-bit uniform draws (``genrand_res53``)."""

    def __init__(self, seed):
        self._rs = np.random.RandomState(int(seed) & 0xFFFFFFFF)

    def shuffled(self, order: np.ndarray) -> np.ndarray:
        """``order`` shuffled as KEEL's ``Instances.randomize()`` shuffles instances."""
        order = np.array(order, dtype=np.int64, copy=True)
        n = len(order)
        if n > 1:
            draws = self._rs.random_sample(n - 1)
            _fisher_yates(order, draws)
        return order


@njit(cache=True)
def _fisher_yates(order, draws):
    n = order.shape[0]
    for t in range(n - 1):
        j = n - 1 - t
        r = int((j + 1) * draws[t])
        tmp = order[j]
        order[j] = order[r]
        order[r] = tmp


# --- kernels --------------------------------------------------------------------------------------

@njit(cache=True)
def _value(Z, P, kind, p0, p1, a, b):
    """Kernel of rows ``a`` (first argument, WEKA's ``inst1``) and ``b`` of ``Z``."""
    d = Z.shape[1]
    if kind == PUK:
        dot = 0.0
        for k in range(d):
            dot += Z[a, k] * Z[b, k]
        sq = (-2.0 * dot + P[a]) + P[b]
        inter = p0 * np.sqrt(sq)
        base = 1.0 + inter * inter
        return 1.0 / (base if p1 == 1.0 else base ** p1)
    if kind == RBF:
        sq = 0.0
        for k in range(d):
            u = Z[a, k] - Z[b, k]
            sq += u * u
        return np.exp(-p0 * sq)
    prod = 1.0
    one = np.exp(-p0)                      # the factor of a 0/1 attribute that differs
    for k in range(d):
        u = Z[a, k] - Z[b, k]
        if u != 0.0:                       # exp(-d * 0) = 1 leaves the product unchanged
            uu = u * u
            prod *= one if uu == 1.0 else np.exp(-p0 * uu)
    return prod


@njit(cache=True)
def _row_values(z, pz, ZT, P, kind, p0, p1, row):
    """Kernel of instance ``z`` (first argument; ``pz`` its z.z) with every column of ``ZT``
    (instances attribute-major, ``P`` their self products): :func:`_value`'s arithmetic,
    vectorised over the columns."""
    d, n = ZT.shape
    if kind == PUK:
        row[:] = 0.0
        for k in range(d):
            a = z[k]
            col = ZT[k]
            for h in range(n):
                row[h] += a * col[h]
        for h in range(n):
            sq = (-2.0 * row[h] + pz) + P[h]
            inter = p0 * np.sqrt(sq)
            base = 1.0 + inter * inter
            row[h] = 1.0 / (base if p1 == 1.0 else base ** p1)
    elif kind == RBF:
        row[:] = 0.0
        for k in range(d):
            a = z[k]
            col = ZT[k]
            for h in range(n):
                u = a - col[h]
                row[h] += u * u
        for h in range(n):
            row[h] = np.exp(-p0 * row[h])
    else:
        row[:] = 1.0
        one = np.exp(-p0)
        for k in range(d):
            a = z[k]
            col = ZT[k]
            for h in range(n):
                u = a - col[h]
                if u != 0.0:
                    uu = u * u
                    row[h] *= one if uu == 1.0 else np.exp(-p0 * uu)


@njit(cache=True)
def _fill(G, filled, Z, ZT, P, kind, p0, p1, g):
    """Row ``g`` of the kernel matrix."""
    _row_values(Z[g], P[g], ZT, P, kind, p0, p1, G[g])
    filled[g] = True


@njit(cache=True)
def _k(G, filled, Z, ZT, P, kind, p0, p1, g, h):
    if G.shape[0] == 0:
        return _value(Z, P, kind, p0, p1, g, h)
    if not filled[g]:
        _fill(G, filled, Z, ZT, P, kind, p0, p1, g)
    return G[g, h]


class KernelRows:
    """A kernel over the rows of ``Z`` (an encoded data set): kind (:data:`PUK`,
    :data:`PDRF_GAUSSIAN`) and parameters; its matrix is filled row by row on first
    use when it fits in ``budget`` bytes, else values are computed each time."""

    def __init__(self, Z: np.ndarray, kind: int, p0: float, p1: float = 1.0, budget: int = MEMORY_BUDGET):
        self.Z = np.ascontiguousarray(Z, dtype=float)
        self.ZT = np.ascontiguousarray(self.Z.T)
        self.P = np.array([_dot_self(r) for r in self.Z]) if kind == PUK else np.zeros(len(self.Z))
        self.kind, self.p0, self.p1 = int(kind), float(p0), float(p1)
        n = len(self.Z)
        big = 8 * n * n > budget
        self.G = np.zeros((0, 0)) if big else np.empty((n, n))
        self.filled = np.zeros(0 if big else n, dtype=np.bool_)
        self.row_state = np.zeros(0 if big else n, dtype=np.int8)   # 0 not looked at, 1 finite, 2 not

    @property
    def kept(self) -> bool:
        """Whether the matrix ``G`` is kept (else values are computed each time)."""
        return self.G.shape[0] > 0

    def fill_block(self, ids: np.ndarray) -> bool:
        """Fill the kept matrix's rows ``ids``; True when the block ``G[ids][:, ids]`` is finite."""
        return _fill_block(*self.args(), np.asarray(ids, np.int64), self.row_state)

    def args(self):
        """The arrays and parameters the numba functions take, in their order."""
        return self.G, self.filled, self.Z, self.ZT, self.P, self.kind, self.p0, self.p1

    def rows(self, a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Kernel values ``K(a_i, b_j)`` (rows of ``Z``), as a matrix (written into ``out`` if given)."""
        a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
        if out is None:
            out = np.empty((len(a), len(b)))
        _block(*self.args(), a, b, out)
        return out


_scratch = threading.local()


def scratch_square(m: int) -> np.ndarray:
    """A C-contiguous ``(m, m)`` array over this thread's reused scratch memory (grown as needed),
    for a training set's kernel block: writing into memory already touched costs half the time
    of a fresh allocation of that size. Valid until the next call in the thread."""
    buf = getattr(_scratch, "buffer", None)
    if buf is None or buf.size < m * m:
        buf = np.empty(m * m)
        _scratch.buffer = buf
    return buf[:m * m].reshape(m, m)


def _dot_self(r):
    s = 0.0
    for v in r:
        s += v * v
    return s


@njit(cache=True)
def _block(G, filled, Z, ZT, P, kind, p0, p1, a, b, out):
    if G.shape[0] == 0:                    # no matrix: compute the block, vectorised over b
        d = Z.shape[1]
        ZbT = np.empty((d, b.shape[0]))
        Pb = np.empty(b.shape[0])
        for j in range(b.shape[0]):
            Pb[j] = P[b[j]]
            for k in range(d):
                ZbT[k, j] = Z[b[j], k]
        for i in range(a.shape[0]):
            _row_values(Z[a[i]], P[a[i]], ZbT, Pb, kind, p0, p1, out[i])
        return
    for i in range(a.shape[0]):
        if not filled[a[i]]:
            _fill(G, filled, Z, ZT, P, kind, p0, p1, a[i])
        row = G[a[i]]
        o = out[i]
        for j in range(b.shape[0]):
            o[j] = row[b[j]]


@njit(cache=True)
def _fill_block(G, filled, Z, ZT, P, kind, p0, p1, ids, row_state):
    """Fill rows ``ids``; True when ``G[ids][:, ids]`` is finite (each row is looked at whole once,
    the block only when a row is not finite everywhere)."""
    finite = True
    for i in range(ids.shape[0]):
        g = ids[i]
        if not filled[g]:
            _fill(G, filled, Z, ZT, P, kind, p0, p1, g)
        if row_state[g] == 0:
            row_state[g] = 1
            for v in G[g]:
                if not np.isfinite(v):
                    row_state[g] = 2
                    break
        finite = finite and row_state[g] == 1
    if finite:
        return True
    for i in range(ids.shape[0]):
        if row_state[ids[i]] == 2:
            row = G[ids[i]]
            for j in range(ids.shape[0]):
                if not np.isfinite(row[ids[j]]):
                    return False
    return True


# --- WEKA's BinarySMO with any kernel (its kernel-free steps: :mod:`cvrepro.learners.smo_steps`) -----

@njit(cache=True)
def _kl(G, filled, Z, ZT, P, kind, p0, p1, ids, i, j):
    """Kernel of local instances i, j (1 for an instance with itself, as WEKA's kernels say)."""
    if i == j:
        return 1.0
    return _k(G, filled, Z, ZT, P, kind, p0, p1, ids[i], ids[j])


@njit(cache=True)
def _output(G, filled, Z, ZT, P, kind, p0, p1, ids, i, alpha, y, first, nxt):
    """WEKA's SVMOutput of local instance i during training (b is still 0): the sum over
    the support-vector set in its list order."""
    s = 0.0
    j = first[5]
    while j != -1:
        s += y[j] * alpha[j] * _kl(G, filled, Z, ZT, P, kind, p0, p1, ids, i, j)
        j = nxt[5, j]
    return s


@njit(cache=True)
def binary_kernel_smo(G, filled, Z, ZT, P, kind, p0, p1, ids, y, C, tol, eps):
    """WEKA's BinarySMO on the rows ``ids`` of a :class:`KernelRows` (in that order), labels
    ``y`` = -1 / +1. Returns ``(alpha, b, support vectors in WEKA's list order)``; with one
    class only, no multipliers and b = -1 (only +1) or 1 (only -1), as WEKA."""
    n = ids.shape[0]
    alpha = np.zeros(n)
    i_low, i_up = class_ends(y)
    if i_low == -1 or i_up == -1:
        return np.zeros(0), (-1.0 if i_up != -1 else 1.0), np.zeros(0, np.int64)
    errors = np.zeros(n)
    sets, nxt, prv, first, count = new_sets(n, 6)      # I0..I4 and the support vectors
    errors[i_low] = 1.0
    errors[i_up] = -1.0
    for i in range(n):
        place(sets, nxt, prv, first, count, i, 0.0, y[i], C)
    state = np.array([-1.0, 1.0])        # b_up, b_low
    idx = np.array([i_up, i_low])
    num_changed = 0
    examine_all = True
    while num_changed > 0 or examine_all:
        num_changed = 0
        for i2 in range(n):
            if not examine_all and not (alpha[i2] > 0 and alpha[i2] < C):
                continue
            if sets[0, i2]:
                F2 = errors[i2]
            else:
                F2 = (_output(G, filled, Z, ZT, P, kind, p0, p1, ids, i2, alpha, y, first, nxt) - 0.0) + 0.0 - y[i2]
                errors[i2] = F2
                if (sets[1, i2] or sets[2, i2]) and F2 < state[0]:
                    state[0] = F2
                    idx[0] = i2
                elif (sets[3, i2] or sets[4, i2]) and F2 > state[1]:
                    state[1] = F2
                    idx[1] = i2
            optimal = True
            i1 = -1
            if sets[0, i2] or sets[1, i2] or sets[2, i2]:
                if state[1] - F2 > 2 * tol:
                    optimal = False
                    i1 = idx[1]
            if sets[0, i2] or sets[3, i2] or sets[4, i2]:
                if F2 - state[0] > 2 * tol:
                    optimal = False
                    i1 = idx[0]
            if not optimal and sets[0, i2]:
                i1 = idx[1] if state[1] - F2 > F2 - state[0] else idx[0]
            if not optimal and _take_step(i1, i2, F2, G, filled, Z, ZT, P, kind, p0, p1, ids, y, C, eps, alpha,
                                          errors, sets, nxt, prv, first, count, state, idx):
                num_changed += 1
            if not examine_all and state[0] > state[1] - 2 * tol:
                num_changed = 0
                break
        if examine_all:
            examine_all = False
        elif num_changed == 0:
            examine_all = True
    sv = np.empty(count[5], np.int64)
    j, t = first[5], 0
    while j != -1:
        sv[t] = j
        t += 1
        j = nxt[5, j]
    return alpha, (state[1] + state[0]) / 2.0, sv


@njit(cache=True)
def _take_step(i1, i2, F2, G, filled, Z, ZT, P, kind, p0, p1, ids, y, C, eps, alpha, errors,
               sets, nxt, prv, first, count, state, idx):
    if i1 == i2:
        return False
    alph1 = alpha[i1]
    alph2 = alpha[i2]
    y1 = y[i1]
    y2 = y[i2]
    L, H = pair_bounds(alph1, alph2, y1, y2, C)
    if L >= H:
        return False
    k11 = 1.0
    k12 = _kl(G, filled, Z, ZT, P, kind, p0, p1, ids, i1, i2)
    k22 = 1.0
    eta = 2 * k12 - k11 - k22
    if eta < 0:
        a2 = newton_alpha2(alph2, y2, errors[i1], F2, eta, L, H)
    else:
        f1 = _output(G, filled, Z, ZT, P, kind, p0, p1, ids, i1, alpha, y, first, nxt) - 0.0
        f2 = _output(G, filled, Z, ZT, P, kind, p0, p1, ids, i2, alpha, y, first, nxt) - 0.0
        a2 = objective_alpha2(alph1, alph2, y1, y2, k11, k12, k22, f1, f2, L, H, eps)
    moved, a1, a2 = settle(alph1, alph2, y1 * y2, a2, C, eps)
    if not moved:
        return False
    place(sets, nxt, prv, first, count, i1, a1, y1, C)
    place(sets, nxt, prv, first, count, i2, a2, y2, C)
    d1 = y1 * (a1 - alph1)
    d2 = y2 * (a2 - alph2)
    errors[i1] += d1 * k11 + d2 * k12
    errors[i2] += d1 * k12 + d2 * k22
    alpha[i1] = a1
    alpha[i2] = a2
    # one pass over I0 (WEKA makes two): update each error, then compare it (same values, same order)
    b_up, b_low, i_up, i_low = DOUBLE_MAX, -DOUBLE_MAX, -1, -1
    j = first[0]
    while j != -1:
        if j != i1 and j != i2:
            errors[j] += (d1 * _kl(G, filled, Z, ZT, P, kind, p0, p1, ids, i1, j)
                          + d2 * _kl(G, filled, Z, ZT, P, kind, p0, p1, ids, i2, j))
        e = errors[j]
        if e < b_up:
            b_up, i_up = e, j
        if e > b_low:
            b_low, i_low = e, j
        j = nxt[0, j]
    state[0], state[1], idx[0], idx[1] = b_up, b_low, i_up, i_low
    add_pair_thresholds(sets, errors, state, idx, i1, i2)
    return True


# --- outputs of trained machines ------------------------------------------------------------------

@njit(cache=True)
def svm_outputs(K, coef, b):
    """WEKA's SVMOutput from the kernel block ``K`` (instances x support vectors, in WEKA's
    list order): the sum of ``coef`` (y alpha) times the kernel, minus b."""
    out = np.empty(K.shape[0])
    for t in range(K.shape[0]):
        s = 0.0
        for v in range(K.shape[1]):
            s += coef[v] * K[t, v]
        out[t] = s - b
    return out


@njit(cache=True)
def svm_outputs_at(M, rows, cols, coef, b):
    """:func:`svm_outputs` of the block ``M[rows][:, cols]`` (same sums, same order), read in place,
    each row's values in ascending column order (the columns of a kept matrix come shuffled)."""
    order = np.argsort(cols)
    ascending = cols[order]
    values = np.empty(cols.shape[0])
    out = np.empty(rows.shape[0])
    for t in range(rows.shape[0]):
        row = M[rows[t]]
        for k in range(order.shape[0]):
            values[order[k]] = row[ascending[k]]
        s = 0.0
        for v in range(cols.shape[0]):
            s += coef[v] * values[v]
        out[t] = s - b
    return out


@njit(cache=True)
def fuzzy_outputs(K, coef, b0):
    """PDFC's fuzzy rule base output (Chen & Wang 2003) from the kernel block ``K`` (instances x
    rule centres, in order): ``(b0 + sum_i coef_i K(x, z_i)) / (1 + sum_i K(x, z_i))``."""
    out = np.empty(K.shape[0])
    for t in range(K.shape[0]):
        num = b0
        den = 1.0
        for v in range(K.shape[1]):
            num += coef[v] * K[t, v]
            den += K[t, v]
        out[t] = num / den
    return out


# --- the learners' shared plumbing -----------------------------------------------------------------

class KeelKernelClassifier(TabularClassifier):
    """Base of KEEL's SMO-based learners: KEEL's input (:func:`smo_input`), a kernel over the
    encoded rows, KEEL's random stream, and the batched path.

    Subclasses define ``_kernel()`` -> ``(kind, p0, p1)``, ``_train(rows, ids, codes, K,
    rng)`` -> model (on rows ``ids`` of a :class:`KernelRows`, in training order) and
    ``_proba(rows, model, test_rows, K)``; and have ``bounds`` and ``random_state``
    parameters (None: KEEL's default seed, :data:`DEFAULT_SEED`).
    """

    def _solve(self, rows, ids, y):
        """``(alpha over ids, b, support vectors in summation order, kernel)`` of one binary problem:
        WEKA's BinarySMO step for step (``solver="keel"``), or the same dual problem solved
        by libsvm (``solver="libsvm"``, scikit-learn's ``SVC(kernel="precomputed")`` on the same
        kernel values, read in place from the kept matrix, :mod:`~cvrepro.learners.libsvm_indexed`;
        KEEL's steps when a kernel value is NaN, e.g. an attribute of zero range, which libsvm
        refuses). ``kernel`` is ``(M, index)`` with this learner's kernel of training instances
        ``i, j`` at ``M[index[i], index[j]]`` (``M`` may be this thread's scratch memory,
        :func:`scratch_square`: valid until the next solve), or None."""
        C, tol, eps = float(self.C), float(self.tol), float(self.eps)
        if self.solver == "keel" or len(ids) == 0 or (y == y[0]).all():
            return (*binary_kernel_smo(*rows.args(), ids, y, C, tol, eps), None)
        kind = self._kernel()[0]
        if kind in (PDRF_GAUSSIAN, RBF):   # the Gaussian PDRF kernel is exp(-d |x - y|^2) up to rounding
            if not np.isfinite(rows.Z[ids]).all():     # a zero range (0/0): KEEL's steps, NaN and all
                return (*binary_kernel_smo(*rows.args(), ids, y, C, tol, eps), None)
            # SVC(kernel="rbf", gamma=p0) on rows.Z[ids], bit for bit, from kernel values kept across fits
            gaussian = self._libsvm_rbf(rows)
            if gaussian.G is not None:
                gaussian.fill(ids)
                return (*svc_precomputed(gaussian.G, ids, y, C, tol, _CACHE_MB), None)
            K = gaussian.rows(ids, ids, out=scratch_square(len(ids)))
            return (*svc_precomputed(K, np.arange(len(ids)), y, C, tol, _CACHE_MB), None)
        if rows.kept:
            M, index = rows.G, ids
            finite = rows.fill_block(ids)
        else:
            M, index = rows.rows(ids, ids, out=scratch_square(len(ids))), np.arange(len(ids))
            finite = np.isfinite(M).all()
        if not finite:
            return (*binary_kernel_smo(*rows.args(), ids, y, C, tol, eps), None)
        return (*svc_precomputed(M, index, y, C, tol, _CACHE_MB), (M, index))

    def _libsvm_rbf(self, rows):
        """libsvm's RBF kernel over ``rows.Z`` (:class:`~cvrepro.learners.libsvm_rbf.LibsvmRBFRows`),
        made on first use and kept with ``rows``; the batched path puts a kept one there."""
        found = getattr(rows, "libsvm_rbf", None)
        if found is None:
            found = rows.libsvm_rbf = LibsvmRBFRows(rows.Z, self._kernel()[1])
        return found

    def _shared_budget(self) -> int:
        """Bytes the batched path may give the kernel matrix shared by the folds (0: compute the
        needed blocks each time); subclasses whose training does not read the matrix return 0."""
        return MEMORY_BUDGET

    def _shared_rows(self, Z):
        """The kernel over the encoded data set ``Z`` that the folds share; when its matrix is kept
        (:meth:`_shared_budget`), the same one for every call on the same ``Z`` and kernel in this
        process (:mod:`cvrepro.learners.keel_cache`), with the rows earlier calls filled. A Gaussian
        kernel solved by libsvm gets libsvm's RBF values, kept the same way (:meth:`_libsvm_rbf`)."""
        kernel, budget, n = self._kernel(), self._shared_budget(), len(Z)
        if 8 * n * n > budget:                     # no matrix: nothing worth keeping
            rows = KernelRows(Z, *kernel, budget=budget)
        else:
            key = keel_cache.digest("keel_smo kernel", Z, *kernel)
            rows = keel_cache.cached(key, 8 * n * n + 16 * Z.size, lambda: KernelRows(Z, *kernel, budget=budget))
        if self.solver == "libsvm" and kernel[0] in (PDRF_GAUSSIAN, RBF) and 8 * n * n <= MEMORY_BUDGET:
            key = keel_cache.digest("libsvm rbf", rows.Z, kernel[1])
            rows.libsvm_rbf = keel_cache.cached(key, 8 * n * n + 8 * Z.size, lambda: LibsvmRBFRows(rows.Z, kernel[1]))
        return rows

    def _check_solver(self):
        if self.solver not in ("libsvm", "keel"):
            raise ValueError(f"solver must be 'libsvm' or 'keel', got {self.solver!r}")

    def _seed(self, random_state):
        if random_state is None:
            return DEFAULT_SEED
        if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
            return int(random_state)
        raise ValueError(f"random_state must be an int or None (KEEL's seed), got {random_state!r}")

    def _check_params(self, n_features):
        self._check_solver()
        for name in self._POSITIVE:
            v = getattr(self, name)
            if not isinstance(v, (int, float, np.integer, np.floating)) or isinstance(v, bool) or not v > 0:
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        return check_bounds(self.bounds, n_features)

    @staticmethod
    def _encode_rows(Xe, schema, lo, hi, test):
        return smo_input(Xe, schema.nominal, schema.n_values, lo, hi, test)

    def _fit(self, X, y):
        bounds = self._check_params(X.shape[1])
        seed = self._seed(self.random_state)
        self.lo_, self.hi_ = numeric_ranges(X, self.schema_.nominal, bounds)
        self.Z_ = self._encode_rows(X, self.schema_, self.lo_, self.hi_, False)
        rows = KernelRows(self.Z_, *self._kernel())
        self.model_ = self._train(rows, np.arange(len(y), dtype=np.int64), np.asarray(y, np.int64),
                                  len(self.classes_), KeelRandom(seed))

    def test_rows(self, Xe):
        """``(rows, test_rows)``: a kernel over the training rows followed by the encoded test
        data ``Xe``, and the test instances' rows in it (no matrix: only test x model pairs)."""
        Zt = self._encode_rows(Xe, self.schema_, self.lo_, self.hi_, True)
        rows = KernelRows(np.vstack([self.Z_, Zt]), *self._kernel(), budget=0)
        n = self.Z_.shape[0]
        return rows, np.arange(n, n + Zt.shape[0], dtype=np.int64)

    def _predict_proba(self, X):
        rows, test_rows = self.test_rows(X)
        return self._proba(rows, self.model_, test_rows, len(self.classes_))

    def fit_predict_folds(self, X, y, splits, random_states, classes):
        """Out-of-fold probabilities of every split (see :mod:`cvrepro.learners.batched`), the
        per-fold numbers exactly: folds whose ranges are the whole data set's (all of them when
        ``bounds`` covers the data) share one encoding and one kernel matrix, filled row by row."""
        batch = FoldBatch(X, y, classes)
        if not batch.exact:
            return batch.per_fold(self, splits, random_states)
        Xe, nominal = batch.Xe, batch.schema.nominal
        bounds = self._check_params(Xe.shape[1])
        seeds = [self._seed(rs) for rs in random_states]
        glo, ghi = numeric_ranges(Xe, nominal, bounds)
        shared = None
        out = []
        for (train, test), seed, rs in zip(splits, seeds, random_states):
            train, test = np.asarray(train, np.int64), np.asarray(test, np.int64)
            fold_classes, codes = batch.target(train)
            lo, hi = numeric_ranges(Xe[train], nominal, bounds)
            if np.array_equal(lo, glo) and np.array_equal(hi, ghi):
                if shared is None:
                    shared = self._shared_rows(self._encode_rows(Xe, batch.schema, glo, ghi, False))
                model = self._train(shared, train, codes, len(fold_classes), KeelRandom(seed))
                proba = self._proba(shared, model, test, len(fold_classes))
            else:
                m = batch.model(self, rs, fold_classes)
                m._fit(Xe[train], codes)
                proba = m._predict_proba(Xe[test])
            out.append(batch.place(np.asarray(proba, dtype=float), fold_classes))
        return out
