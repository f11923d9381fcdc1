"""What WEKA 3.6's REPTree and RandomTree share: sorting, entropies, Java's random numbers and the grown tree.

* :func:`weka_sort`: ``weka.core.Utils.sort(double[])`` (and
  ``Instances.sort``): a median-of-three quicksort that is *not* stable,
  missing values (NaN) treated as ``Double.MAX_VALUE``. The order of tied
  values decides in which order fractional weights are summed, and in
  RandomTree the order of a node's instances, so we sort as WEKA does.
* :func:`entropy_over_columns`, :func:`entropy_conditioned_on_rows`: WEKA's
  ``ContingencyTables`` (``x ln x``, 0 for ``x <= 0``, in bits).
* ``java_random_*``: ``java.util.Random`` (the 48-bit linear congruential
  generator) as numba functions on a one-element state array, so that
  resampling and attribute draws run inside compiled loops.
* :class:`GrownTree`: a tree as flat arrays (attribute, split point,
  branch proportions, class distributions, children) with WEKA's
  ``distributionForInstance`` (a missing value sends the instance down every
  branch weighted by the branch's training proportion; an empty branch defers
  to its parent's distribution) and its text layout.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .weka_format import double_to_string

__all__ = ["weka_sort", "entropy_over_columns", "entropy_conditioned_on_rows", "GrownTree",
           "java_random_seed", "java_random_next", "java_random_next_int", "java_random_next_double",
           "java_random_next_int32", "max_index", "SMALL", "randomize", "stratify", "cv_split"]

SMALL = 1e-6                       # weka.core.Utils.SMALL (gr, eq)
_MAX_DOUBLE = 1.7976931348623157e308
_LN2 = math.log(2.0)


# --- Utils.sort -----------------------------------------------------------

@njit(cache=True)
def _cond_swap(a, index, left, right):
    if a[index[left]] > a[index[right]]:
        t = index[left]
        index[left] = index[right]
        index[right] = t


@njit(cache=True)
def weka_sort(values):
    """Indices that sort ``values`` as ``Utils.sort`` does (NaN as the largest double; not stable)."""
    n = values.shape[0]
    index = np.arange(n)
    if n < 2:
        return index
    a = np.where(values != values, _MAX_DOUBLE, values)
    stack = [(0, n - 1)]
    while len(stack) > 0:
        left, right = stack.pop()
        diff = right - left
        if diff <= 0:
            continue
        if diff == 1:
            _cond_swap(a, index, left, right)
            continue
        if diff == 2:
            _cond_swap(a, index, left, left + 1)
            _cond_swap(a, index, left, right)
            _cond_swap(a, index, left + 1, right)
            continue
        c = (left + right) // 2                    # median of three, moved next to the right end
        _cond_swap(a, index, left, c)
        _cond_swap(a, index, left, right)
        _cond_swap(a, index, c, right)
        t = index[c]
        index[c] = index[right - 1]
        index[right - 1] = t
        pivot = a[index[right - 1]]
        lo, hi = left, right - 1
        while True:
            lo += 1
            while a[index[lo]] < pivot:
                lo += 1
            hi -= 1
            while a[index[hi]] > pivot:
                hi -= 1
            if lo >= hi:
                break
            t = index[lo]
            index[lo] = index[hi]
            index[hi] = t
        t = index[lo]
        index[lo] = index[right - 1]
        index[right - 1] = t
        stack.append((lo + 1, right))
        stack.append((left, lo - 1))
    return index


# --- ContingencyTables ----------------------------------------------------

@njit(cache=True)
def _ln_func(x):
    return 0.0 if x <= 0 else x * math.log(x)


@njit(cache=True)
def entropy_over_columns(m):
    """Entropy (bits) of the column totals of ``m``."""
    value = 0.0
    total = 0.0
    for j in range(m.shape[1]):
        col = 0.0
        for i in range(m.shape[0]):
            col += m[i, j]
        value -= _ln_func(col)
        total += col
    if abs(total) < SMALL:
        return 0.0
    return (value + _ln_func(total)) / (total * _LN2)


@njit(cache=True)
def entropy_conditioned_on_rows(m):
    """Entropy (bits) of the columns given the rows of ``m``."""
    value = 0.0
    total = 0.0
    for i in range(m.shape[0]):
        row = 0.0
        for j in range(m.shape[1]):
            value = value + _ln_func(m[i, j])
            row += m[i, j]
        value = value - _ln_func(row)
        total += row
    if abs(total) < SMALL:
        return 0.0
    return -value / (total * _LN2)


@njit(cache=True)
def max_index(v):
    """``Utils.maxIndex``: first index of the largest value."""
    best = 0
    top = 0.0
    for i in range(v.shape[0]):
        if i == 0 or v[i] > top:
            best = i
            top = v[i]
    return best


# --- java.util.Random -----------------------------------------------------

_MULT = np.uint64(0x5DEECE66D)
_MASK = np.uint64((1 << 48) - 1)


@njit(cache=True)
def java_random_seed(seed):
    """A state array for ``new Random(seed)`` (``seed`` a Java long)."""
    return np.array([(np.uint64(np.int64(seed)) ^ _MULT) & _MASK], dtype=np.uint64)


@njit(cache=True)
def java_random_next(state, bits):
    """``Random.next(bits)`` (a non-negative int for bits < 32, a signed int for bits == 32)."""
    state[0] = (state[0] * _MULT + np.uint64(0xB)) & _MASK
    r = np.int64(state[0] >> np.uint64(48 - bits))
    if bits == 32 and r >= 2147483648:
        r -= 4294967296
    return r


@njit(cache=True)
def java_random_next_int(state, bound):
    """``Random.nextInt(bound)``."""
    if bound & -bound == bound:
        return (bound * java_random_next(state, 31)) >> 31
    while True:
        bits = java_random_next(state, 31)
        val = bits % bound
        if bits - val + (bound - 1) < 2147483648:
            return val


@njit(cache=True)
def java_random_next_int32(state):
    """``Random.nextInt()`` (any int)."""
    return java_random_next(state, 32)


@njit(cache=True)
def java_random_next_double(state):
    """``Random.nextDouble()``."""
    return ((java_random_next(state, 26) << 27) + java_random_next(state, 27)) * (1.0 / 9007199254740992.0)


# --- the grown tree ---------------------------------------------------------

@njit(cache=True)
def _distribution_row(x, att, split, first, nkids, prop, probs, has, nominal, frames, acc, out):
    """WEKA's recursive ``distributionForInstance`` for one row, run on an explicit stack (numba cannot
    cache recursive functions): into ``out``; returns True for WEKA's null.

    A frame is (node, next child, kind): kind 1 sums ``prop * child`` over the branches (missing
    value), kind 0 passes its one child's result up (its own distribution if the child is null).
    """
    K = out.shape[0]
    top = 0
    frames[0, 0] = 0
    frames[0, 1] = -1
    is_null = False
    ret = np.empty(K)
    while True:
        node = frames[top, 0]
        if frames[top, 1] == -1:                     # first visit
            a = att[node]
            if a < 0:
                is_null = not has[node]
                if not is_null:
                    ret[:] = probs[node]
            else:
                v = x[a]
                if v != v:
                    frames[top, 2] = 1
                    acc[top, :] = 0.0
                    b = 0
                    while b < nkids[node] and prop[node, b] == 0:
                        b += 1
                    frames[top, 1] = b
                    if b < nkids[node]:
                        top += 1
                        frames[top, 0] = first[node] + b
                        frames[top, 1] = -1
                        continue
                    ret[:] = 0.0
                    is_null = False
                else:
                    frames[top, 2] = 0
                    frames[top, 1] = 0
                    b = int(v) if nominal[a] else (0 if v < split[node] else 1)
                    top += 1
                    frames[top, 0] = first[node] + b
                    frames[top, 1] = -1
                    continue
        elif frames[top, 2] == 1:                    # a branch's result arrived: add it, go to the next
            b = frames[top, 1]
            if not is_null:
                for c in range(K):
                    acc[top, c] += prop[node, b] * ret[c]
            b += 1
            while b < nkids[node] and prop[node, b] == 0:
                b += 1
            frames[top, 1] = b
            if b < nkids[node]:
                top += 1
                frames[top, 0] = first[node] + b
                frames[top, 1] = -1
                continue
            ret[:] = acc[top]
            is_null = False
        else:                                        # the one child's result arrived
            if is_null and has[node]:
                ret[:] = probs[node]
                is_null = False
        if top == 0:
            break
        top -= 1
    if not is_null:
        out[:] = ret
    return is_null


@njit(cache=True)
def _distribution_rows(X, att, split, first, nkids, prop, probs, has, nominal):
    n_nodes, K = probs.shape
    out = np.zeros((X.shape[0], K))
    row = np.empty(K)
    frames = np.zeros((n_nodes + 1, 3), dtype=np.int64)
    acc = np.zeros((n_nodes + 1, K))
    for i in range(X.shape[0]):
        if not _distribution_row(X[i], att, split, first, nkids, prop, probs, has, nominal, frames, acc, row):
            out[i] = row
    return out


@dataclass
class GrownTree:
    """A WEKA tree as flat arrays; node 0 is the root, a node's children are consecutive.

    ``attribute`` is -1 at leaves; ``split`` is the numeric split point
    (``x < split`` goes to branch 0); ``first_child`` / ``n_children`` locate
    the children; ``prop`` (rows aligned with nodes, ``n_children`` columns
    used) holds the branch proportions for missing values; ``probs`` the
    class distribution a node returns (``has_probs`` False: WEKA's null).
    """

    attribute: np.ndarray
    split: np.ndarray
    first_child: np.ndarray
    n_children: np.ndarray
    prop: np.ndarray
    probs: np.ndarray
    has_probs: np.ndarray

    def n_nodes(self, node: int = 0) -> int:
        """Nodes of the subtree at ``node`` (WEKA's ``numNodes``)."""
        if self.attribute[node] < 0:
            return 1
        first = self.first_child[node]
        return 1 + sum(self.n_nodes(first + b) for b in range(self.n_children[node]))

    def distribution(self, X: np.ndarray, nominal: np.ndarray) -> np.ndarray:
        """WEKA's ``distributionForInstance`` for every row of ``X`` (rows the root leaves null: 0)."""
        return _distribution_rows(np.ascontiguousarray(X, dtype=np.float64), self.attribute, self.split,
                                  self.first_child, self.n_children, self.prop, self.probs, self.has_probs,
                                  np.asarray(nominal, dtype=np.bool_))

    def lines(self, names, categories, nominal, leaf_text, node=0, level=0):
        """WEKA's tree layout (``name = value`` / ``name < split`` / ``>=``), one entry per printed line."""
        out = []
        att = self.attribute[node]
        first = self.first_child[node]
        if nominal[att]:
            tests = [f"{names[att]} = {v}" for v in categories[att]]
        else:
            point = double_to_string(self.split[node], 2)
            tests = [f"{names[att]} < {point}", f"{names[att]} >= {point}"]
        for b, test in enumerate(tests):
            child = first + b
            prefix = "|   " * level + test
            if self.attribute[child] < 0:
                out.append(prefix + leaf_text(child, node))
            else:
                out.append(prefix)
                out.extend(self.lines(names, categories, nominal, leaf_text, child, level + 1))
        return out


# --- Instances.randomize / stratify / trainCV / testCV on index arrays ----

@njit(cache=True)
def randomize(order, state):
    """``Instances.randomize(random)``: in place, from the last position down."""
    for j in range(order.shape[0] - 1, 0, -1):
        k = java_random_next_int(state, j + 1)
        t = order[j]
        order[j] = order[k]
        order[k] = t


@njit(cache=True)
def stratify(order, y, n_folds):
    """``Instances.stratify(n_folds)``: group by class (WEKA's pass), then deal out into folds."""
    n = order.shape[0]
    index = 1
    while index < n:
        c = y[order[index - 1]]
        for j in range(index, n):
            if y[order[j]] == c:
                t = order[index]
                order[index] = order[j]
                order[j] = t
                index += 1
        index += 1
    out = np.empty(n, dtype=order.dtype)
    p = 0
    start = 0
    while p < n:
        j = start
        while j < n:
            out[p] = order[j]
            p += 1
            j += n_folds
        start += 1
    order[:] = out


def cv_split(order: np.ndarray, n_folds: int, fold: int) -> tuple[np.ndarray, np.ndarray]:
    """``Instances.trainCV(n_folds, fold)`` and ``testCV(n_folds, fold)`` of an ordered index array."""
    n = len(order)
    if n_folds < 2:
        raise ValueError("number of folds must be at least 2")
    if n_folds > n:
        raise ValueError(f"cannot have more folds ({n_folds}) than instances ({n})")
    size = n // n_folds
    if fold < n % n_folds:
        size += 1
        offset = fold
    else:
        offset = n % n_folds
    first = fold * (n // n_folds) + offset
    return np.concatenate([order[:first], order[first + size:]]), order[first:first + size].copy()
