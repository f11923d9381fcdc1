"""What WEKA 3.6's REPTree and RandomTree share: sorting, entropies, the numeric split, Java's random
numbers and the grown tree.

* :func:`weka_sort`: ``weka.core.Utils.sort(double[])`` (and
  ``Instances.sort``): a median-of-three quicksort that is *not* stable,
  missing values (NaN) treated as ``Double.MAX_VALUE``. The order of tied
  values decides in which order fractional weights are summed, and in
  RandomTree the order of a node's instances, so we sort as WEKA does.
* :func:`entropy_over_columns`, :func:`entropy_conditioned_on_rows`: WEKA's
  ``ContingencyTables`` (``x ln x``, 0 for ``x <= 0``, in bits);
  :func:`numeric_split`: the best midpoint split of a numeric attribute, as
  both trees' ``distribution`` methods scan it.
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

from .java import SMALL
from .weka_format import double_to_string

__all__ = ["weka_sort", "entropy_over_columns", "entropy_conditioned_on_rows", "GrownTree", "max_index",
           "stratify", "cv_split", "weight_sum", "numeric_split", "node_arrays", "more_node_arrays", "branch_sizes",
           "weka_seed",
           "WekaTreeOutput"]

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
def weight_sum(v):
    """Sum of ``v`` in index order (WEKA's ``Utils.sum``)."""
    s = 0.0
    for x in v:
        s += x
    return s


@njit(cache=True)
def numeric_split(X, y, ids, ws, a, K):
    """The best binary split on numeric attribute ``a`` of the instances ``ids`` (weights ``ws``), sorted
    by its value with missing values last: ``(table, split point, known)``.

    The split point is the midpoint (or the larger value, if the midpoint
    rounds down to the smaller) between consecutive distinct values of highest
    information gain (the first of equal gains); ``table`` (2 x ``K``) holds
    the known instances' weights on each side of it (all on side 1 and split
    NaN when no split exists); ``known`` is the number of known values, whose
    instances come first in ``ids``.
    """
    m = ids.shape[0]
    known = m
    curr = np.zeros((2, K))
    dist = np.zeros((2, K))
    for j in range(m):
        if X[ids[j], a] != X[ids[j], a]:
            known = j
            break
        curr[1, y[ids[j]]] += ws[j]
    prior = entropy_over_columns(curr)
    dist[:, :] = curr
    split = np.nan
    curr_split = X[ids[0], a]
    best = -_MAX_DOUBLE
    for i in range(known):
        v = X[ids[i], a]
        if v > curr_split:
            val = prior - entropy_conditioned_on_rows(curr)
            if val > best:
                best = val
                split = (v + curr_split) / 2.0
                if split <= curr_split:
                    split = v
                dist[:, :] = curr
            curr_split = v
        c = y[ids[i]]
        curr[0, c] += ws[i]
        curr[1, c] -= ws[i]
    return dist, split, known


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


# --- the grown tree ---------------------------------------------------------

@njit(cache=True)
def _empty_nodes(cap, width, K):
    return (np.full(cap, -1, dtype=np.int64), np.full(cap, np.nan), np.zeros(cap, dtype=np.int64),
            np.zeros(cap, dtype=np.int64), np.zeros((cap, width)), np.zeros((cap, K)))


@njit(cache=True)
def node_arrays(nominal, n_values, K):
    """Room for 64 nodes of a tree being grown: attribute (-1: leaf), split point, first child, number
    of children, branch proportions (as many columns as the widest split), class counts (``K`` columns)."""
    width = 2
    for a in range(nominal.shape[0]):
        if nominal[a] and n_values[a] > width:
            width = n_values[a]
    return _empty_nodes(64, width, K)


@njit(cache=True)
def more_node_arrays(att, split, first, nkids, prop, dist, need):
    """``node_arrays`` with room for at least ``need`` nodes (at least twice as many), contents kept."""
    cap = att.shape[0]
    add = max(2 * cap, need) - cap
    more = _empty_nodes(add, prop.shape[1], dist.shape[1])
    return (np.concatenate((att, more[0])), np.concatenate((split, more[1])), np.concatenate((first, more[2])),
            np.concatenate((nkids, more[3])), np.concatenate((prop, more[4])), np.concatenate((dist, more[5])))


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


@njit(cache=True)
def branch_sizes(X, rows, a, is_nominal, split, props):
    """How many of ``rows`` go down each branch of a split on attribute ``a`` (``x < split``: branch 0;
    a missing value goes down every branch of positive proportion ``props``)."""
    nb = props.shape[0]
    sizes = np.zeros(nb, dtype=np.int64)
    for r in rows:
        v = X[r, a]
        if v != v:
            for b in range(nb):
                if props[b] > 0:
                    sizes[b] += 1
        elif is_nominal:
            sizes[int(v)] += 1
        else:
            sizes[0 if v < split else 1] += 1
    return sizes


# --- Instances.randomize / stratify / trainCV / testCV on index arrays ----

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


def weka_seed(random_state) -> int:
    """WEKA's ``-S`` for ``random_state`` (an int; None means WEKA's default 1)."""
    seed = 1 if random_state is None else random_state
    if not isinstance(seed, (int, np.integer)):
        raise ValueError(f"random_state must be an int seed (WEKA's -S), got {seed!r}")
    return int(seed)


class WekaTreeOutput:
    """Probabilities and printout of a classifier whose ``model_`` has a :class:`GrownTree` ``tree`` and a
    ``to_text(names, categories, nominal, classes)`` (REPTree, RandomTree)."""

    def _predict_proba(self, X):
        return self.model_.tree.distribution(X, self.schema_.nominal)

    def to_text(self) -> str:
        """The tree as WEKA 3.6 prints it."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))]))
        return self.model_.to_text(names, self.schema_.categories, self.schema_.nominal,
                                   [str(c) for c in self.classes_])
