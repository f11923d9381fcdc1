"""KEEL's PART (PART-C, ``keel.Algorithms.Genetic_Rule_Learning.PART``), as Moreno-Torres et al. ran it.

KEEL's PART is its own rule learner on partial C4.5 trees, not WEKA's PART,
and it differs from WEKA's in ways that change the rules and, often, leave
one rule only:

- a partial tree is grown on the instances not yet covered with KEEL's C4.5
  split selection (C4.5 release 8's gain ratio among the attributes of at
  least average information gain; numeric cuts need ``minCut`` instances a
  side, where KEEL's ``minCut`` is ``0.1 * known / classes``, raised to
  ``itemsetsPerLeaf`` and set to 25 whenever it exceeds 5; missing values
  spread over the branches by weight). Comparisons are plain ``>``/``>=``
  (WEKA's have a 1e-6 tolerance);
- a node's subsets are expanded in increasing order of their class entropy
  (unweighted counts; ties and empty subsets ordered as KEEL's merge sort
  orders them) until one is not a leaf; the later ones stay unexplored.
  A node whose subsets are all leaves collapses into a leaf when its
  subtree's training errors are not below its own (less 1e-3). Nothing is
  pruned: KEEL's ``confidence`` parameter is read but never used;
- every leaf of the partial tree becomes a rule (the path's conditions,
  ``attr = v``, ``attr <= c`` or ``attr > c``; the class is the majority of
  the leaf's subset at its parent). The rule covering most of the remaining
  instances (unweighted; missing values never satisfy a condition; first
  on ties) is kept and its instances removed, but only if it is not the
  first leaf rule: when the first leaf covers most, KEEL stops. This is
  why PART-C often predicts one class: the default rule, the most frequent
  class of the instances left (lowest index on ties), is the only one;
- rules are learned while more than ``2 * itemsetsPerLeaf + 1`` instances
  remain, and applied in order.

KEEL's reader clamps test values into the declared ranges (``bounds``, see
:mod:`.keel_data`); missing values stay missing. KEEL writes only the
predicted class, so ``predict_proba`` is one-hot.

The split selection (KEEL's in-place sorts included, whose order the
weighted sums follow) is one numba call per node; the tree and the rules
are plain Python.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .base import TabularClassifier
from .keel_data import check_bounds, numeric_ranges

__all__ = ["KeelPART"]

_LN2 = math.log(2.0)


@njit(cache=True)
def _logf(x):
    """Cut.logFunc / Utilities.logFunc: x log2 x, 0 below 1e-6."""
    if x < 1e-6:
        return 0.0
    return x * math.log(x) / _LN2


@njit(cache=True)
def _swap(rows, w, i, j):
    r, v = rows[i], w[i]
    rows[i], w[i] = rows[j], w[j]
    rows[j], w[j] = r, v


@njit(cache=True)
def _keel_sort(X, rows, w, n, a):
    """MyDataset.sort: missing values to the end by KEEL's swaps, then KEEL's quicksort (1e-6 pivot
    tolerance) of the known ones, in place; returns the number of known values."""
    i, j = 0, n - 1
    while i <= j:
        if np.isnan(X[rows[j], a]):
            j -= 1
        else:
            if np.isnan(X[rows[i], a]):
                _swap(rows, w, i, j)
                j -= 1
            i += 1
    stack = [(0, j)]
    while len(stack):
        lo0, hi0 = stack.pop()
        if hi0 <= lo0:
            continue
        lo, hi = lo0, hi0
        mid = X[rows[(lo0 + hi0) // 2], a]
        mid_plus, mid_minus = mid + 1e-6, mid - 1e-6
        while lo <= hi:
            while X[rows[lo], a] < mid_minus and lo < hi0:
                lo += 1
            while X[rows[hi], a] > mid_plus and hi > lo0:
                hi -= 1
            if lo <= hi:
                _swap(rows, w, lo, hi)
                lo += 1
                hi -= 1
        if lo0 < hi:
            stack.append((lo0, hi))
        if lo < hi0:
            stack.append((lo, hi0))
    return j + 1


@njit(cache=True)
def _old_entropy(per_class, total):
    s = 0.0
    for c in range(per_class.shape[0]):
        s = s + _logf(per_class[c])
    return _logf(total) - s


@njit(cache=True)
def _info_gain(pcv, per_value, total, sum_w, old_ent):
    """Cut.infoGainCutCrit."""
    s = 0.0
    for b in range(per_value.shape[0]):
        for c in range(pcv.shape[1]):
            s = s + _logf(pcv[b, c])
        s = s - _logf(per_value[b])
    unknown_rate = (sum_w - total) / sum_w
    num = (1 - unknown_rate) * (old_ent - (-s))
    if num == 0:
        return 0.0
    return num / total


@njit(cache=True)
def _gain_ratio(per_value, total, sum_w, gain):
    """Cut.gainRatioCutCrit."""
    den = 0.0
    if total > 0:
        for b in range(per_value.shape[0]):
            den = den - _logf(per_value[b])
        den = den - _logf(sum_w - total)
        den = den + _logf(sum_w)
    if den == 0:
        return 0.0
    return gain / (den / sum_w)


@njit(cache=True)
def _cut_continuous(X, y, rows, w, n, a, ncls, m, sum_w):
    """Cut.cutContinuous (sorts the node's data by ``a``): (ok, info gain, gain ratio, cut point,
    per-class-per-bag, per-bag, per-class, total)."""
    known = _keel_sort(X, rows, w, n, a)
    pcv = np.zeros((2, ncls))
    pv = np.zeros(2)
    pc = np.zeros(ncls)
    total = 0.0
    for i in range(known):
        c = y[rows[i]]
        pcv[1, c] += w[i]
        pv[1] += w[i]
        pc[c] += w[i]
        total += w[i]
    fail = (False, 0.0, 0.0, 0.0, pcv, pv, pc, total)
    min_cut = 0.1 * total / ncls
    if min_cut <= m:
        min_cut = m
    elif min_cut > 5:
        min_cut = 25.0
    if known < 2 * min_cut:
        return fail
    default_ent = _old_entropy(pc, total)
    gain, cut_index, n_cuts, last = 0.0, -1, 0, 0
    for nxt in range(1, known):
        if X[rows[nxt - 1], a] + 1e-5 < X[rows[nxt], a]:
            for i in range(last, nxt):
                c = y[rows[i]]
                pcv[1, c] -= w[i]
                pcv[0, c] += w[i]
                pv[1] -= w[i]
                pv[0] += w[i]
            if pv[0] >= min_cut and pv[1] >= min_cut:
                g = _info_gain(pcv, pv, total, sum_w, default_ent)
                if g > gain:
                    gain, cut_index = g, nxt - 1
                n_cuts += 1
            last = nxt
    if n_cuts == 0:
        return fail
    gain = gain - (math.log(n_cuts) / _LN2) / sum_w
    if gain <= 0:
        return fail
    cut = (X[rows[cut_index + 1], a] + X[rows[cut_index], a]) / 2
    pcv = np.zeros((2, ncls))
    pv = np.zeros(2)
    pc = np.zeros(ncls)
    total = 0.0
    for b, start, end in ((0, 0, cut_index + 1), (1, cut_index + 1, known)):
        s = 0.0
        for i in range(start, end):
            c = y[rows[i]]
            s = s + w[i]
            pcv[b, c] += w[i]
            pc[c] += w[i]
        pv[b] += s
        total += s
    return True, gain, _gain_ratio(pv, total, sum_w, gain), cut, pcv, pv, pc, total


@njit(cache=True)
def _cut_nominal(X, y, rows, w, n, a, n_values, ncls, m, sum_w):
    """Cut.cutDiscret: (ok, info gain, gain ratio, per-class-per-value, per-value, per-class, total)."""
    pcv = np.zeros((n_values, ncls))
    pv = np.zeros(n_values)
    pc = np.zeros(ncls)
    total = 0.0
    for i in range(n):
        v = X[rows[i], a]
        if not np.isnan(v):
            b, c = int(v), y[rows[i]]
            pcv[b, c] += w[i]
            pv[b] += w[i]
            pc[c] += w[i]
            total += w[i]
    if np.sum(pv >= m) <= 1:
        return False, 0.0, 0.0, pcv, pv, pc, total
    gain = _info_gain(pcv, pv, total, sum_w, _old_entropy(pc, total))
    return True, gain, _gain_ratio(pv, total, sum_w, gain), pcv, pv, pc, total


@njit(cache=True)
def _max_class(pc):
    """Classification.maxClass: the first class of largest positive count, else 0."""
    best, arg = 0.0, 0
    for c in range(pc.shape[0]):
        if pc[c] > best:
            best, arg = pc[c], c
    return arg


@njit(cache=True)
def _select(X, y, rows, w, nominal, n_values, ncls, m, all_rows):
    """SelectCut.selectModel on the node's data (``rows``, weights ``w``; reordered in place by KEEL's
    sorts). Returns (attribute or -1 for a leaf, cut point, per-class-per-subset, per-subset, per-class,
    total), the distribution after the missing values are spread."""
    n, d = rows.shape[0], X.shape[1]
    pc = np.zeros(ncls)
    total = 0.0
    for i in range(n):
        pc[y[rows[i]]] += w[i]
        total += w[i]
    leaf = (-1, 0.0, pc.reshape((1, ncls)).copy(), np.array([total]), pc, total)
    if total < 2 * m or total == pc[_max_class(pc)]:
        return leaf
    n_all = all_rows.shape[0]
    multi_val = True
    for a in range(d):
        if not nominal[a] or n_values[a] < 0.3 * n_all:
            multi_val = False
            break
    ok = np.zeros(d, dtype=np.bool_)
    gains, ratios, cuts = np.zeros(d), np.zeros(d), np.zeros(d)
    dists = []
    avg, models = 0.0, 0
    for a in range(d):
        if nominal[a]:
            good, gain, ratio, pcv, pv, pca, tot = _cut_nominal(X, y, rows, w, n, a, n_values[a], ncls, m, total)
            cut = 0.0
        else:
            good, gain, ratio, cut, pcv, pv, pca, tot = _cut_continuous(X, y, rows, w, n, a, ncls, m, total)
        ok[a], gains[a], ratios[a], cuts[a] = good, gain, ratio, cut
        dists.append((pcv, pv, pca, tot))
        if ok[a] and (not nominal[a] or multi_val or n_values[a] < 0.3 * n_all):
            avg = avg + gains[a]
            models += 1
    if models == 0:
        return leaf
    avg = avg / models
    best, min_result = -1, 0.0
    for a in range(d):
        if ok[a] and gains[a] >= avg - 1e-3 and ratios[a] > min_result:
            best, min_result = a, ratios[a]
    if min_result == 0:
        return leaf
    pcv, pv, pca, tot = dists[best]
    nsub = pv.shape[0]
    probs = np.full(nsub, 1.0 / nsub) if tot == 0 else pv / tot
    for i in range(n):                                  # Classification.addWithUnknownValue
        if np.isnan(X[rows[i], best]):
            c = y[rows[i]]
            pca[c] += w[i]
            tot += w[i]
            for j in range(nsub):
                nw = probs[j] * w[i]
                pcv[j, c] += nw
                pv[j] += nw
    cut = cuts[best]
    if not nominal[best]:                               # Cut.setCutPoint: the largest value <= cut
        new_cut = -1.7976931348623157e308
        for r in all_rows:
            v = X[r, best]
            if not np.isnan(v) and v > new_cut and v <= cut:
                new_cut = v
        cut = new_cut
    return best, cut, pcv, pv, pca, tot


@njit(cache=True)
def _cut_dataset(X, y, rows, w, a, is_nominal, cut, pv, total, ncls):
    """Cut.cutDataset: each instance to its subset, one with a missing value to every subset of positive
    weight (its weight times the subset's share), in data order; and MyDataset.getEntropy of each subset
    (unweighted counts; NaN when it is empty). Returns (rows, weights, offsets, entropies)."""
    nsub, n = pv.shape[0], rows.shape[0]
    share = pv / total
    sub = np.empty(n, dtype=np.int64)
    size = np.zeros(nsub, dtype=np.int64)
    for i in range(n):
        x = X[rows[i], a]
        if np.isnan(x):
            sub[i] = -1
            for j in range(nsub):
                if share[j] > 0:
                    size[j] += 1
        else:
            sub[i] = int(x) if is_nominal else (0 if x <= cut else 1)
            size[sub[i]] += 1
    offsets = np.zeros(nsub + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(size)
    out_rows = np.empty(offsets[nsub], dtype=np.int64)
    out_w = np.empty(offsets[nsub])
    freq = np.zeros((nsub, ncls), dtype=np.int64)
    fill = offsets[:nsub].copy()
    for i in range(n):
        for j in range(nsub):
            if sub[i] == j or (sub[i] < 0 and share[j] > 0):
                out_rows[fill[j]] = rows[i]
                out_w[fill[j]] = w[i] if sub[i] == j else share[j] * w[i]
                fill[j] += 1
                freq[j, y[rows[i]]] += 1
    entropy = np.empty(nsub)
    for j in range(nsub):
        s = 0.0
        for c in range(ncls):
            s += _logf(float(freq[j, c]))
        entropy[j] = (_logf(float(size[j])) - s) / size[j] if size[j] > 0 else np.nan
    return out_rows, out_w, offsets, entropy


def _merge_order(values):
    """Utilities.mergeSort of (index, value) pairs: takes the left element only when strictly smaller."""
    items = list(enumerate(values))

    def sort(lo, hi):
        if lo == hi:
            return
        mid = (lo + hi) // 2
        sort(lo, mid)
        sort(mid + 1, hi)
        out, i, j = [], lo, mid + 1
        while i <= mid and j <= hi:
            if items[i][1] < items[j][1]:
                out.append(items[i])
                i += 1
            else:
                out.append(items[j])
                j += 1
        out += items[i:mid + 1] + items[j:hi + 1]
        items[lo:hi + 1] = out

    sort(0, len(items) - 1)
    return [k for k, _ in items]


class _Node:
    """A node of KEEL's partial tree: a leaf, or a cut with children (None: unexplored). Its majority
    classes come from ``_max_class.py_func``: on these few counts a numba call costs more."""

    __slots__ = ("attr", "cut", "pcv", "pv", "pc", "total", "children")

    def leaf_errors(self):
        return self.total - self.pc[_max_class.py_func(self.pc)]

    def label(self, i):
        """Cut.label: the majority class of subset ``i`` (the whole node's when it is empty)."""
        return _max_class.py_func(self.pcv[i]) if self.pv[i] > 0 else _max_class.py_func(self.pc)


class _Grower:
    """KEEL's C45 partial tree (Tree.buildNode) on the remaining instances."""

    def __init__(self, X, y, nominal, n_values, ncls, m, all_rows):
        self.X, self.y, self.nominal, self.n_values = X, y, nominal, n_values
        self.ncls, self.m, self.all_rows = ncls, m, all_rows

    def build(self, rows, w):
        node = _Node()
        node.attr, node.cut, node.pcv, node.pv, node.pc, node.total = _select(
            self.X, self.y, rows, w, self.nominal, self.n_values, self.ncls, float(self.m), self.all_rows)
        node.children = None
        if node.attr < 0:
            return node
        sub_rows, sub_w, at, entropy = _cut_dataset(self.X, self.y, rows, w, node.attr, self.nominal[node.attr],
                                                    node.cut, node.pv, node.total, self.ncls)
        node.children = [None] * len(entropy)
        for i in _merge_order(entropy.tolist()):
            child = self.build(sub_rows[at[i]:at[i + 1]], sub_w[at[i]:at[i + 1]])
            node.children[i] = child
            if child.children is not None:
                return node                             # a subtree: the remaining subsets stay unexplored
        errors = 0.0
        for child in node.children:
            errors += child.leaf_errors()
        if errors >= node.leaf_errors() - 1e-3:         # Tree.collapse
            node.attr, node.children = -1, None
        return node


def _leaf_rules(node, conds, nominal, out):
    """PART.convert: one (class, conditions) per explored leaf, children in index order."""
    for i, child in enumerate(node.children):
        if child is None:
            continue
        if nominal[node.attr]:
            cond = (node.attr, "=", float(i))
        else:
            cond = (node.attr, "<=" if i == 0 else ">", float(node.cut))
        if child.children is None:
            out.append((node.label(i), conds + [cond]))
        else:
            _leaf_rules(child, conds + [cond], nominal, out)
    return out


def _covered(conds, X):
    """Rows of ``X`` that satisfy every condition (a missing value satisfies none)."""
    ok = np.ones(X.shape[0], dtype=bool)
    for a, op, v in conds:
        x = X[:, a]
        ok &= (x == v) if op == "=" else (x <= v) if op == "<=" else (x > v)   # NaN compares False
    return ok


class KeelPART(TabularClassifier):
    """KEEL's PART (PART-C defaults: itemsetsPerLeaf 2; KEEL's confidence 0.25 is never used).

    ``bounds``: declared ``[min, max]`` per attribute (``keel_bounds`` of the
    whole data set reproduces KEEL's partitions); KEEL clamps test values into
    them. Default: the training fold's ranges (see :mod:`.keel_data`).

    ``rules_`` lists the learned rules in their order as
    ``(class index, [(attribute, op, value), ...])`` with op one of
    ``"<="``, ``">"``, ``"="`` (value: a nominal code for ``"="``);
    ``default_`` is the default class index.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True      # KEEL's PART often keeps its default rule only
        return tags

    def __init__(self, min_itemsets=2, bounds=None):
        self.min_itemsets = min_itemsets
        self.bounds = bounds

    def _fit(self, X, y):
        m = self.min_itemsets
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
            raise ValueError(f"min_itemsets must be a positive integer (KEEL's itemsetsPerLeaf), got {m!r}")
        nominal = self.schema_.nominal
        bounds = check_bounds(self.bounds, X.shape[1])
        self.lo_, self.hi_ = numeric_ranges(X, nominal, bounds)
        X = np.ascontiguousarray(X, dtype=np.float64)
        y = np.ascontiguousarray(y, dtype=np.int64)
        n_values = np.asarray(self.schema_.n_values, dtype=np.int64)
        ncls = len(self.classes_)
        remaining = np.arange(X.shape[0], dtype=np.int64)
        rules = []
        while remaining.shape[0] > 2 * m + 1:
            grower = _Grower(X, y, nominal, n_values, ncls, int(m), remaining)
            root = grower.build(remaining.copy(), np.ones(remaining.shape[0]))
            candidates = [] if root.children is None else _leaf_rules(root, [], nominal, [])
            if not candidates:
                break
            covers = [_covered(conds, X[remaining]) for _, conds in candidates]
            best = int(np.argmax([c.sum() for c in covers]))
            if best == 0:                               # KEEL keeps a rule only if it is not the first leaf's
                break
            rules.append(candidates[best])
            remaining = remaining[~covers[best]]
        self.rules_ = [(int(c), conds) for c, conds in rules]
        self.default_ = int(np.argmax(np.bincount(y[remaining], minlength=ncls)))
        return self

    def _predict_codes(self, X):
        numeric = ~self.schema_.nominal
        X = X.copy()
        X[:, numeric] = np.clip(X[:, numeric], self.lo_[numeric], self.hi_[numeric])   # NaN stays NaN
        out = np.full(X.shape[0], self.default_, dtype=np.int64)
        free = np.ones(X.shape[0], dtype=bool)
        for c, conds in self.rules_:
            hit = free & _covered(conds, X)
            out[hit] = c
            free &= ~hit
        return out

    def _predict_proba(self, X):
        codes = self._predict_codes(X)
        P = np.zeros((X.shape[0], len(self.classes_)))
        P[np.arange(X.shape[0]), codes] = 1.0
        return P
