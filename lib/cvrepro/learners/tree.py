"""One decision-tree engine with a pluggable split criterion: C4.5 (WEKA J48) and HDDT.

The engine grows a tree the way WEKA's ``C45PruneableClassifierTree`` does:
multiway splits on nominal attributes (one branch per declared value, empty
branches kept), binary splits on numeric ones, fractional instances for
missing values (in training an instance goes down every branch with weight
``w * n_b / n``; in testing the children's predictions are summed with those
weights, skipping empty children), and leaf class frequencies as
probabilities. The facts are in ``/work/shared/REFERENCE_ALGORITHMS.md``.

Speed without changing a bit: numeric attributes are sorted once per fit
(once per data set in ``fit_predict_folds``) and each split hands its
branches their sorted orders; growing the whole tree (per node: the split
search over all attributes and thresholds, the choice, the partition into
branches) is one numba call, and so is the subtree-raising error estimate
while pruning. Every sum keeps the order of the straightforward code
(``_np_sum`` where that was ``np.sum``). Prediction runs on the tree as
arrays, in numba; pruning and printing walk node objects in Python (built
from the grown tree's arrays).
"""
from __future__ import annotations

import contextlib
import functools
import math
import sys

import numpy as np
from numba import njit
from scipy.stats import norm

from .base import TabularClassifier
from .batched import encoded_folds

__all__ = ["C45", "HDDT", "add_errs"]

_LN2 = math.log(2.0)
_SMALL = 1e-6          # WEKA's Utils.SMALL: tolerance of gr / sm / eq
_C45, _HELLINGER = 0, 1
_MAX_DEPTH = 10000     # deeper trees exceed the recursion limit of pruning and printing (``_deep_recursion``)


# --- split criteria (numba) ------------------------------------------------

@njit(cache=True)
def known_order(values):
    """Indices of the non-missing values, sorted by value (stable, as WEKA's sort)."""
    known = np.flatnonzero(values == values)
    return known[np.argsort(values[known], kind="mergesort")]


@njit(cache=True)
def _logf(x):
    if x < 1e-6:
        return 0.0
    return x * math.log(x) / _LN2


@njit(cache=True)
def _nlogn_table(n):
    """``_logf`` of 0, 1, ..., n: class counts are whole numbers unless values are missing."""
    table = np.empty(n + 1)
    for i in range(n + 1):
        table[i] = _logf(float(i))
    return table


@njit(cache=True)
def _logf_of(x, table):
    """``_logf(x)``, looked up for whole numbers (same bits, no log)."""
    i = int(x)
    if i == x and i < table.shape[0]:
        return table[i]
    return _logf(x)


@njit(cache=True)
def _info_gain(bags, perbag, known, total, old_ent):
    """WEKA InfoGainSplitCrit.splitCritValue: gain per known instance, times the known fraction."""
    new_ent = 0.0
    for i in range(bags.shape[0]):
        for j in range(bags.shape[1]):
            new_ent += _logf(bags[i, j])
        new_ent -= _logf(perbag[i])
    return _gain(new_ent, known, total, old_ent)


@njit(cache=True)
def _gain(new_ent, known, total, old_ent):
    """The gain from ``new_ent`` = sum n_ij log n_ij - sum n_i log n_i (as ``_info_gain`` sums it)."""
    num = old_ent + new_ent          # oldEnt - newEnt, with newEnt = -(sum n_ij log n_ij - sum n_i log n_i)
    if abs(num) < _SMALL:
        return 0.0
    unknown_rate = (total - known) / total
    num = (1.0 - unknown_rate) * num
    if abs(num) < _SMALL:
        return 0.0
    return num / known


@njit(cache=True)
def _gain_ratio(perbag, known, total, gain):
    """WEKA GainRatioSplitCrit: split information counts missing values as an extra branch."""
    split_ent = 0.0
    if known > _SMALL:
        for i in range(perbag.shape[0]):
            split_ent -= _logf(perbag[i])
        split_ent -= _logf(total - known)
        split_ent += _logf(total)
    if abs(split_ent) < _SMALL:
        return 0.0
    return gain / (split_ent / total)


@njit(cache=True)
def _old_ent(perclass, known):
    s = 0.0
    for j in range(perclass.shape[0]):
        s += _logf(perclass[j])
    return _logf(known) - s


@njit(cache=True)
def _hellinger(bags, perclass):
    """Hellinger distance between the class-conditional branch distributions.

    Two classes: Cieslak & Chawla's d_H. More classes: the largest
    one-vs-rest distance over the classes present at the node, as in the
    multi-class HDDT of Hoens, Qian, Chawla et al. (PAKDD 2012).
    """
    perbag = np.zeros(bags.shape[0])
    for i in range(bags.shape[0]):
        for j in range(bags.shape[1]):
            perbag[i] += bags[i, j]
    return _hellinger_of(bags, perbag, perclass)


@njit(cache=True)
def _hellinger_of(bags, perbag, perclass):
    """``_hellinger`` given the branch totals ``perbag`` (summed over the classes in order)."""
    K = bags.shape[1]
    total = perclass.sum()
    best = 0.0
    for c in range(K if K > 2 else 1):
        rest = total - perclass[c]
        if perclass[c] <= 0 or rest <= _SMALL:
            continue
        s = 0.0
        for i in range(bags.shape[0]):
            d = math.sqrt(bags[i, c] / perclass[c]) - math.sqrt(max(perbag[i] - bags[i, c], 0.0) / rest)
            s += d * d
        if math.sqrt(s) > best:
            best = math.sqrt(s)
    return best


@njit(cache=True)
def _presort(XT, rows, numeric):
    """Per numeric attribute, the positions in ``rows`` of its known values sorted by value.

    Row ``s`` of ``order`` holds attribute ``numeric[s]``; its first ``known[s]``
    entries are used. Ties stay in position order (a stable sort).
    """
    n = rows.shape[0]
    order = np.empty((numeric.shape[0], n), np.int64)
    known = np.zeros(numeric.shape[0], np.int64)
    vals = np.empty(n)
    for s in range(numeric.shape[0]):
        for r in range(n):
            vals[r] = XT[numeric[s], rows[r]]
        o = known_order(vals)
        order[s, :o.shape[0]] = o
        known[s] = o.shape[0]
    return order, known


@njit(cache=True)
def _restrict(order, known, rows):
    """``_presort`` of the rows ``rows`` (strictly increasing) from the presort of all rows."""
    pos = np.full(order.shape[1], -1, np.int64)
    for i in range(rows.shape[0]):
        pos[rows[i]] = i
    sub = np.empty((order.shape[0], rows.shape[0]), np.int64)
    sub_known = np.zeros(order.shape[0], np.int64)
    for s in range(order.shape[0]):
        j = 0
        for t in range(known[s]):
            p = pos[order[s, t]]
            if p >= 0:
                sub[s, j] = p
                j += 1
        sub_known[s] = j
    return sub, sub_known


@njit(cache=True)
def _node_splits(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj, criterion, nlogn):
    """Best split of every attribute at one node.

    ``order``/``known`` are the node's presorted numeric attributes (see
    ``_presort``; ``slot[a]`` is attribute ``a``'s row; ``nlogn`` is
    ``_nlogn_table(len(y))``). Returns per attribute:
    number of subsets (0 = no valid split), the primary score (C4.5: info gain
    after MDL correction; HDDT: Hellinger distance times the known fraction),
    the secondary score (C4.5: gain ratio; HDDT: same as primary) and the
    midpoint threshold (numeric only).

    When all weights are 1 and an attribute has no missing value at the node,
    its scan counts classes in integers: sums of ones are exact, so the class
    weights have the same bits, with shorter dependency chains.
    """
    d = XT.shape[0]
    n = rows.shape[0]
    n_sub = np.zeros(d, np.int64)
    score = np.zeros(d)
    ratio = np.zeros(d)
    point = np.full(d, np.nan)
    total = 0.0
    unit = True
    for r in range(n):
        total += w[r]
        unit = unit and w[r] == 1.0
    vals = np.empty(n)
    cls = np.empty(n, np.int64)
    wt = np.empty(n)
    node_y = np.empty(n, np.int64)          # class of each position, gathered once for all attributes
    node_count = np.zeros(K, np.int64)
    for r in range(n):
        node_y[r] = y[rows[r]]
        node_count[node_y[r]] += 1
    # work arrays of the numeric scan, allocated once
    left, right, class_w = np.empty(K), np.empty(K), np.empty(K)
    log_left, log_right = np.empty(K), np.empty(K)     # n log n per class and side, updated as classes move
    moved = np.zeros(K, np.bool_)
    count = np.empty(K, np.int64)           # left side's class counts, when counting
    sides, side_w = np.empty((2, K)), np.empty(2)
    for a in range(d):
        if nominal[a]:
            nv = n_values[a]
            bags = np.zeros((nv, K))
            perbag = np.zeros(nv)
            perclass = np.zeros(K)
            known_w = 0.0
            for r in range(n):
                v = XT[a, rows[r]]
                if v != v:
                    continue
                b = int(v)
                bags[b, node_y[r]] += w[r]
                perbag[b] += w[r]
                perclass[node_y[r]] += w[r]
                known_w += w[r]
            big = 0
            for b in range(nv):
                if perbag[b] > min_obj - _SMALL:
                    big += 1
            if big <= 1:
                continue
            n_sub[a] = nv
            if criterion == _C45:
                g = _info_gain(bags, perbag, known_w, total, _old_ent(perclass, known_w))
                score[a] = g
                ratio[a] = _gain_ratio(perbag, known_w, total, g)
            else:
                h = _hellinger(bags, perclass) * known_w / total
                score[a] = h
                ratio[a] = h
            continue
        # numeric attribute: its known values in sorted order
        s = slot[a]
        m = known[s]
        counting = unit and m == n
        for t in range(m):
            p = order[s, t]
            vals[t] = XT[a, rows[p]]
            cls[t] = node_y[p]
            wt[t] = w[p]
        if counting:
            for c in range(K):
                right[c] = float(node_count[c])
        else:
            right[:] = 0.0
            for t in range(m):
                right[cls[t]] += wt[t]
        known_w = right.sum()
        if criterion == _C45:
            min_split = 0.1 * known_w / K
            if min_split - min_obj < _SMALL:
                min_split = min_obj
            elif min_split - 25.0 > _SMALL:
                min_split = 25.0
        else:
            min_split = min_obj
        if m - 2.0 * min_split < -_SMALL:
            continue
        class_w[:] = right
        old_ent = _old_ent(class_w, known_w)
        left[:] = 0.0
        count[:] = 0
        log_left[:] = 0.0
        for c in range(K):
            log_right[c] = _logf_of(right[c], nlogn)
        best = 0.0
        best_at = -1
        n_cand = 0
        last = 0
        for nxt in range(1, m):
            if vals[nxt - 1] + 1e-5 < vals[nxt]:
                if counting:
                    for t in range(last, nxt):
                        count[cls[t]] += 1
                        moved[cls[t]] = True
                    for c in range(K):
                        if moved[c]:
                            left[c] = float(count[c])
                            right[c] = float(node_count[c] - count[c])
                else:
                    for t in range(last, nxt):
                        left[cls[t]] += wt[t]
                        right[cls[t]] -= wt[t]
                        moved[cls[t]] = True
                for c in range(K):
                    if moved[c]:
                        log_left[c] = _logf_of(left[c], nlogn)
                        log_right[c] = _logf_of(right[c], nlogn)
                        moved[c] = False
                lw = left.sum()
                rw = right.sum()
                if lw > min_split - _SMALL and rw > min_split - _SMALL:
                    if criterion == _C45:
                        new_ent = 0.0           # _info_gain's sum, from the cached terms
                        for c in range(K):
                            new_ent += log_left[c]
                        new_ent -= _logf_of(lw, nlogn)
                        for c in range(K):
                            new_ent += log_right[c]
                        new_ent -= _logf_of(rw, nlogn)
                        sc = _gain(new_ent, known_w, total, old_ent)
                    else:
                        sides[0] = left
                        sides[1] = right
                        side_w[0] = lw
                        side_w[1] = rw
                        sc = _hellinger_of(sides, side_w, class_w) * known_w / total
                    if sc - best > _SMALL:
                        best = sc
                        best_at = nxt - 1
                    n_cand += 1
                last = nxt
        if n_cand == 0 or best_at < 0:
            continue
        if criterion == _C45:
            best = best - math.log(n_cand) / _LN2 / total
        if best < _SMALL:
            continue
        lo = vals[best_at]
        hi = vals[best_at + 1]
        sp = (lo + hi) / 2.0
        if sp == hi:
            sp = lo
        n_sub[a] = 2
        score[a] = best
        point[a] = sp
        if criterion == _C45:
            side_w[:] = 0.0
            for t in range(m):
                side_w[0 if t <= best_at else 1] += wt[t]
            ratio[a] = _gain_ratio(side_w, known_w, total, best)
        else:
            ratio[a] = best
    return n_sub, score, ratio, point


@njit(cache=True)
def _best_gain_ratio(n_sub, gain, ratio, counted):
    """J48's choice: the best gain ratio among attributes with at least average gain (-1: none).

    The average runs over the valid attributes marked ``counted``.
    """
    avg = 0.0
    n = 0
    for a in range(n_sub.shape[0]):
        if n_sub[a] > 0 and counted[a]:
            avg += gain[a]
            n += 1
    if n == 0:
        return -1
    avg /= n
    best, best_ratio = -1, 0.0
    for a in range(n_sub.shape[0]):
        if n_sub[a] > 0 and gain[a] >= avg - 1e-3 and ratio[a] - best_ratio > _SMALL:
            best, best_ratio = a, ratio[a]
    if best < 0 or abs(best_ratio) < _SMALL:
        return -1
    return best


@njit(cache=True)
def _best_score(n_sub, score):
    """The valid attribute of highest score (first of ties within 1e-6; -1: none)."""
    best, best_score = -1, 0.0
    for a in range(n_sub.shape[0]):
        if n_sub[a] > 0 and score[a] - best_score > _SMALL:
            best, best_score = a, score[a]
    return best


@njit(cache=True)
def _branch_codes(col, rows, w, nominal, point, n_sub):
    """Branch of each position (-1: missing value) and the known weight per branch."""
    sub = np.empty(rows.shape[0], np.int64)
    perbag = np.zeros(n_sub)
    for p in range(rows.shape[0]):
        v = col[rows[p]]
        if v != v:
            sub[p] = -1
            continue
        b = int(v) if nominal else (1 if v > point else 0)
        sub[p] = b
        perbag[b] += w[p]
    return sub, perbag


@njit(cache=True)
def _branches(rows, w, sub, frac):
    """All branches' rows and weights, concatenated (branch b is ``off[b]:off[b + 1]``).

    A branch holds its known rows in order, then (if its fraction is not
    negligible) every missing row, weighted by the fraction.
    """
    n_sub = frac.shape[0]
    cnt = np.zeros(n_sub, np.int64)
    n_miss = 0
    for p in range(rows.shape[0]):
        if sub[p] < 0:
            n_miss += 1
        else:
            cnt[sub[p]] += 1
    off = np.zeros(n_sub + 1, np.int64)
    for b in range(n_sub):
        off[b + 1] = off[b] + cnt[b] + (n_miss if frac[b] > _SMALL else 0)
    r = np.empty(off[n_sub], np.int64)
    ww = np.empty(off[n_sub])
    fill = off[:n_sub].copy()
    for p in range(rows.shape[0]):
        b = sub[p]
        if b >= 0:
            r[fill[b]] = rows[p]
            ww[fill[b]] = w[p]
            fill[b] += 1
    for b in range(n_sub):
        if n_miss > 0 and frac[b] > _SMALL:
            for p in range(rows.shape[0]):
                if sub[p] < 0:
                    r[fill[b]] = rows[p]
                    ww[fill[b]] = w[p] * frac[b]
                    fill[b] += 1
    return r, ww, off


@njit(cache=True)
def _partition_rows(col, rows, w, nominal, point, n_sub):
    """Split (rows, w) by a test on ``col``; missing values go everywhere, weighted.

    The branch fractions come from this data (WEKA's resetDistribution).
    Returns each position's branch (-1: missing), the fractions, and the
    branches' rows and weights as ``_branches`` concatenates them.
    """
    sub, perbag = _branch_codes(col, rows, w, nominal, point, n_sub)
    tot = _np_sum(perbag)
    frac = perbag / tot if tot > 0 else np.zeros(n_sub)
    r, ww, off = _branches(rows, w, sub, frac)
    return sub, frac, r, ww, off


@njit(cache=True)
def _grow_split(XT, y, rows, w, order, known, numeric, attr, nominal, point, n_sub, K):
    """``_partition_rows`` for growing, plus each branch's presorted orders and class weights."""
    sub, frac, r, ww, off = _partition_rows(XT[attr], rows, w, nominal, point, n_sub)
    child_order, child_known = _branch_orders(XT, rows, order, known, numeric, sub, frac, off)
    dists = np.zeros((n_sub, K))
    for b in range(n_sub):
        for p in range(off[b], off[b + 1]):
            dists[b, y[r[p]]] += ww[p]
    return frac, r, ww, off, child_order, child_known, dists


@njit(cache=True)
def _branch_orders(XT, rows, order, known, numeric, sub, frac, off):
    """The branches' presorted orders (as ``_presort`` on each branch), in linear time from the node's.

    Branch b's order is ``out[S * off[b]:S * off[b + 1]]`` as an (S, size)
    array (contiguous, so numba compiles one version), its known counts ``m[b]``.
    Ties must stay in the branch's position order: within a run of equal
    values, the branch's known rows come before the missing rows appended
    to it.
    """
    n_sub = off.shape[0] - 1
    n = rows.shape[0]
    newpos = np.empty(n, np.int64)      # known row: position in its branch; missing: rank among the missing
    cnt = np.zeros(n_sub, np.int64)
    n_miss = 0
    for p in range(n):
        if sub[p] >= 0:
            newpos[p] = cnt[sub[p]]
            cnt[sub[p]] += 1
    for p in range(n):
        if sub[p] < 0:
            newpos[p] = n_miss
            n_miss += 1
    take = (frac > _SMALL) & (n_miss > 0)
    S = numeric.shape[0]
    out = np.empty(S * off[n_sub], np.int64)
    m = np.empty((n_sub, S), np.int64)
    start = np.empty(n_sub, np.int64)
    fill = np.empty(n_sub, np.int64)
    for s in range(S):
        for b in range(n_sub):
            start[b] = S * off[b] + s * (off[b + 1] - off[b])
        fill[:] = start
        if n_miss == 0 and n_sub == 2:  # the most common case: two branches, kept in registers, no branching
            f0, f1 = start[0], start[1]
            for t in range(known[s]):
                p = order[s, t]
                b = sub[p]
                out[f1 if b else f0] = newpos[p]
                f0 += 1 - b
                f1 += b
            fill[0], fill[1] = f0, f1
        elif n_miss == 0:               # the common case, in one pass
            for t in range(known[s]):
                p = order[s, t]
                out[fill[sub[p]]] = newpos[p]
                fill[sub[p]] += 1
        t0 = 0 if n_miss > 0 else known[s]
        while t0 < known[s]:
            t1 = t0 + 1
            if n_miss > 0:
                v = XT[numeric[s], rows[order[s, t0]]]
                while t1 < known[s] and XT[numeric[s], rows[order[s, t1]]] == v:
                    t1 += 1
            for t in range(t0, t1):
                p = order[s, t]
                if sub[p] >= 0:
                    out[fill[sub[p]]] = newpos[p]
                    fill[sub[p]] += 1
            if n_miss > 0:
                for t in range(t0, t1):
                    p = order[s, t]
                    if sub[p] < 0:
                        for b in range(n_sub):
                            if take[b]:
                                out[fill[b]] = cnt[b] + newpos[p]
                                fill[b] += 1
            t0 = t1
        for b in range(n_sub):
            m[b, s] = fill[b] - start[b]
    return out, m


@njit(cache=True)
def _weka_split_point(values, sorted_idx, point):
    """C45Split.setSplitPoint: the largest training value below ``point``, as WEKA's tolerant scan finds it.

    WEKA scans all training values in row order and keeps a value that
    exceeds the kept one by more than 1e-6 and ``point`` by less. Let ``top``
    be the largest such admissible value (``sorted_idx`` sorts the known
    ``values``; admissibility is monotone in the value, so bisection finds it).
    When ``top`` exceeds every smaller admissible value by more than 1e-6,
    the scan keeps ``top`` when it first meets it (whatever it kept before
    is one of those) and nothing after: the answer is ``top``. Otherwise
    (values closer than WEKA's tolerance) this scans as WEKA does.
    """
    lo, hi = 0, sorted_idx.shape[0]         # admissible: the sorted positions before ``hi``
    while lo < hi:
        mid = (lo + hi) // 2
        if values[sorted_idx[mid]] - point < _SMALL:
            lo = mid + 1
        else:
            hi = mid
    if hi == 0:
        return point
    top = values[sorted_idx[hi - 1]]
    k = hi - 1
    while k >= 0 and values[sorted_idx[k]] == top:
        k -= 1
    if np.isfinite(top) and (k < 0 or top - values[sorted_idx[k]] > _SMALL):
        return top
    best = -np.inf
    for v in values:
        if v == v and v - best > _SMALL and v - point < _SMALL:
            best = v
    return best if best > -np.inf else point


@njit(cache=True)
def _find_split(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj, criterion, nlogn, counted,
                all_order, all_known):
    """The node's split: attribute (-1: none) and, for a numeric one, the threshold J48 uses.

    C4.5 takes the best gain ratio among attributes of at least average gain
    (``counted`` ones averaged), HDDT the largest distance. J48 moves the
    midpoint threshold to the largest training value below it
    (``_weka_split_point``; ``all_order``/``all_known`` presort all training rows).
    """
    n_sub, score, ratio, mid = _node_splits(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj,
                                            criterion, nlogn)
    best = _best_gain_ratio(n_sub, score, ratio, counted) if criterion == _C45 else _best_score(n_sub, score)
    if best < 0 or nominal[best]:
        return best, np.nan
    s = slot[best]
    return best, _weka_split_point(XT[best], all_order[s, :all_known[s]], mid[best])


@njit(cache=True)
def _stops(dist, min_obj):
    """J48's leaf rule: too little weight (< 2 min_num_obj) or a pure node (``dist.sum()`` as numpy sums)."""
    total = _np_sum(dist)
    return total - 2.0 * min_obj < -_SMALL or abs(total - dist[_top(dist)]) < _SMALL


@njit(cache=True)
def _grow_tree(XT, y, w, dist, order, known, slot, numeric, nominal, n_values, K, min_obj, criterion, nlogn,
               counted):
    """The whole unpruned tree on all rows, weights ``w`` and class weights ``dist``: one call instead of one per node.

    A node stops by ``_stops``, else splits by ``_find_split`` and ``_grow_split``
    (``order``/``known`` is the rows' presort). Nodes are numbered in creation
    order; an internal node's branches are consecutive. Returns the nodes'
    rows and weights (node i's are ``start[i]:start[i + 1]`` of the first two
    arrays, concatenated so that Python gets few arrays back), and per node:
    class weights, their total and training errors (as ``_Node.set_dist``),
    whether it is empty, the test (attribute, -1 for a leaf, and threshold),
    branch fractions, first branch and number of branches. An explicit
    stack, not recursion: numba cannot cache recursive functions. A split
    whose branch keeps all its rows would grow forever; past ``_MAX_DEPTH``
    levels this raises RecursionError, as the recursive growing did.
    """
    rows = np.arange(w.shape[0])
    all_order, all_known = order, known
    S = numeric.shape[0]
    node_rows, node_w, node_dist = [rows], [w], [dist]
    node_frac = [np.empty(0)]
    attr, point, first, n_kids = [-1], [np.nan], [0], [0]
    todo, todo_order, todo_known, todo_depth = [0], [order], [known], [0]
    while todo:
        i, order, known, depth = todo.pop(), todo_order.pop(), todo_known.pop(), todo_depth.pop()
        if depth > _MAX_DEPTH:
            raise RecursionError("tree deeper than _MAX_DEPTH (a split that does not divide its rows?)")
        rows, w, dist = node_rows[i], node_w[i], node_dist[i]
        if _stops(dist, min_obj):
            continue
        a, thr = _find_split(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj, criterion, nlogn,
                             counted, all_order, all_known)
        if a < 0:
            continue
        n_sub = n_values[a] if nominal[a] else 2
        frac, r, ww, off, child_order, child_known, dists = _grow_split(XT, y, rows, w, order, known, numeric, a,
                                                                        nominal[a], thr, n_sub, K)
        attr[i], point[i], node_frac[i] = a, thr, frac
        first[i], n_kids[i] = len(attr), n_sub
        for b in range(n_sub):
            lo, hi = off[b], off[b + 1]
            node_rows.append(r[lo:hi])
            node_w.append(ww[lo:hi])
            node_dist.append(dists[b].copy())
            node_frac.append(np.empty(0))
            attr.append(-1)
            point.append(np.nan)
            first.append(0)
            n_kids.append(0)
        for b in range(n_sub - 1, -1, -1):          # branch 0 comes off the stack first, as in the recursion
            lo, hi = off[b], off[b + 1]
            todo.append(first[i] + b)
            todo_order.append(child_order[S * lo:S * hi].reshape(S, hi - lo))
            todo_known.append(child_known[b])
            todo_depth.append(depth + 1)
    N = len(attr)
    kids = np.array(n_kids)
    start = np.zeros(N + 1, np.int64)
    for i in range(N):
        start[i + 1] = start[i] + node_rows[i].shape[0]
    all_rows, all_w = np.empty(start[N], np.int64), np.empty(start[N])
    dists, frac = np.empty((N, K)), np.zeros((N, max(kids.max(), 1)))
    total, wrong, empty = np.empty(N), np.empty(N), np.empty(N, np.bool_)
    for i in range(N):
        all_rows[start[i]:start[i + 1]] = node_rows[i]
        all_w[start[i]:start[i + 1]] = node_w[i]
        dists[i] = node_dist[i]
        frac[i, :kids[i]] = node_frac[i]
        t = 0.0
        for c in range(K):
            t += dists[i, c]
        total[i] = t
        wrong[i] = t - dists[i, _top(dists[i])]
        empty[i] = abs(_np_sum(dists[i])) < _SMALL
    return (all_rows, all_w, start, dists, total, wrong, empty, np.array(attr), np.array(point), frac,
            np.array(first), kids)


@njit(cache=True)
def _predict_rows(X, nominal, attr, point, leaf, empty, first, n_kids, frac, probs):
    """Class probabilities of each row: the leaves it reaches, weighted (WEKA's getProbs).

    A missing value sends the row down every non-empty branch, weighted by the
    branch's training fraction; a known value leading to an empty branch takes
    the node's own probabilities. Each row's leaves are added depth first, in
    branch order (the order of the recursive definition).
    """
    out = np.zeros((X.shape[0], probs.shape[1]))
    stack, weight = np.empty(attr.shape[0], np.int64), np.empty(attr.shape[0])
    for i in range(X.shape[0]):
        stack[0], weight[0], top = 0, 1.0, 1
        while top > 0:
            top -= 1
            node, wt = stack[top], weight[top]
            if leaf[node]:
                for k in range(probs.shape[1]):
                    out[i, k] += wt * probs[node, k]
                continue
            v = X[i, attr[node]]
            if v != v:
                for b in range(n_kids[node] - 1, -1, -1):       # pushed in reverse: branch 0 comes out first
                    if not empty[first[node] + b] and frac[node, b] != 0:
                        stack[top], weight[top] = first[node] + b, wt * frac[node, b]
                        top += 1
                continue
            b = int(v) if nominal[attr[node]] else (1 if v > point[node] else 0)
            if empty[first[node] + b]:
                for k in range(probs.shape[1]):
                    out[i, k] += wt * probs[node, k]
            else:
                stack[top], weight[top] = first[node] + b, wt
                top += 1
    return out


# --- pessimistic error estimate ---------------------------------------------

@functools.cache
def _z_score(cf: float) -> float:
    return float(norm.ppf(1 - cf))


def add_errs(N: float, e: float, cf: float = 0.25) -> float:
    """WEKA ``Stats.addErrs``: extra errors of the upper confidence limit (C4.5 pruning)."""
    return _add_errs(float(N), float(e), float(cf), _z_score(float(cf)))


@njit(cache=True)
def _add_errs(N, e, cf, z):
    """``add_errs`` with ``z`` the normal quantile of ``1 - cf``."""
    if cf > 0.5:
        return 0.0
    if e < 1:
        base = N * (1 - cf ** (1 / N))
        if e == 0:
            return base
        return base + e * (_add_errs_normal(N, 1.0, z) - base)
    return _add_errs_normal(N, e, z)


@njit(cache=True)
def _add_errs_normal(N, e, z):
    """``add_errs`` for e >= 1: the normal approximation of the upper limit."""
    if e + 0.5 >= N:
        return max(N - e, 0.0)
    f = (e + 0.5) / N
    r = (f + z * z / (2 * N) + z * math.sqrt(f / N - f * f / N + z * z / (4 * N * N))) / (1 + z * z / N)
    return r * N - e


@njit(cache=True)
def _pessimistic(total, wrong, cf, z):
    """C4.5's pessimistic errors: e + addErrs(N, e, CF); 0 for an empty distribution."""
    if abs(total) < _SMALL:
        return 0.0
    return wrong + _add_errs(total, wrong, cf, z)


@njit(cache=True)
def _np_sum(a):
    """``np.sum(a)`` bit for bit: numpy's pairwise order (halves down to blocks of <= 128 values)."""
    todo, values = [(0, a.shape[0], False)], [0.0]
    values.pop()
    while todo:                         # an explicit stack: numba cannot cache recursive functions
        lo, n, combine = todo.pop()
        if combine:
            right = values.pop()
            values.append(values.pop() + right)
        elif n > 128:
            half = n // 2 - (n // 2) % 8
            todo.append((lo, n, True))
            todo.append((lo + half, n - half, False))
            todo.append((lo, half, False))
        else:
            values.append(_np_block_sum(a, lo, n))
    return values[0]


@njit(cache=True)
def _np_block_sum(a, lo, n):
    """numpy's sum of a block of at most 128 values: 8 accumulators, then the rest."""
    if n < 8:
        res = -0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r = a[lo:lo + 8].copy()
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] += a[lo + i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for j in range(i, n):
        res += a[lo + j]
    return res


@njit(cache=True)
def _top(v):
    """``_max_index`` in numba."""
    best, best_v = 0, 0.0
    for i in range(v.shape[0]):
        if v[i] - best_v > _SMALL:
            best, best_v = i, v[i]
    return best


@njit(cache=True)
def _subtree_errors(XT, y, rows, w, root, attr, point, leaf, first, nominal, n_values, K, cf, z):
    """Pessimistic errors of the subtree at node ``root`` on (rows, w) (WEKA's getEstimatedErrorsForBranch).

    The tree is flat: node ``i`` tests ``attr[i]`` (threshold ``point[i]``)
    unless ``leaf[i]``; its branches are nodes ``first[i]``, ``first[i] + 1``, ...
    Branch fractions for missing values come from the data, as WEKA resets
    them. The data goes down breadth first; the errors are then summed up
    branch by branch, in WEKA's order. (Not recursive: numba cannot cache
    recursive functions.)
    """
    nodes, data_r, data_w = [root], [rows], [w]
    kids = [0]                              # queue position of an internal node's first branch
    errors = [0.0]
    k = 0
    while k < len(nodes):
        i, r, ww = nodes[k], data_r[k], data_w[k]
        if leaf[i]:
            dist = np.zeros(K)
            for p in range(r.shape[0]):
                dist[y[r[p]]] += ww[p]
            total = 0.0
            for c in range(K):
                total += dist[c]
            errors[k] = _pessimistic(_np_sum(dist), total - dist[_top(dist)], cf, z)
        else:
            a = attr[i]
            n_sub = n_values[a] if nominal[a] else 2
            _, _, br, bw, off = _partition_rows(XT[a], r, ww, nominal[a], point[i], n_sub)
            kids[k] = len(nodes)
            for b in range(n_sub):
                nodes.append(first[i] + b)
                data_r.append(br[off[b]:off[b + 1]])
                data_w.append(bw[off[b]:off[b + 1]])
                kids.append(0)
                errors.append(0.0)
        k += 1
    for k in range(len(nodes) - 1, -1, -1):
        i = nodes[k]
        if not leaf[i]:
            for b in range(n_values[attr[i]] if nominal[attr[i]] else 2):
                errors[k] += errors[kids[k] + b]
    return errors[0]


def _max_bag(perbag: np.ndarray) -> int:
    """WEKA ``Distribution.maxBag``: ties go to the LAST branch (its loop uses grOrEq)."""
    best, best_v = -1, 0.0
    for i, x in enumerate(perbag):
        if x > best_v - _SMALL:
            best, best_v = i, x
    return best


def _num_incorrect(dist) -> float:
    v = dist.tolist() if isinstance(dist, np.ndarray) else dist
    return float(sum(v) - v[_max_index(v)])


def _max_index(v) -> int:
    """Index of the largest value; ties (within 1e-6) to the lowest index, as WEKA's Utils.gr loop."""
    best, best_v = 0, 0.0
    for i, x in enumerate(v.tolist() if isinstance(v, np.ndarray) else v):
        if x - best_v > _SMALL:
            best, best_v = i, x
    return best


# --- tree nodes ---------------------------------------------------------------

class _Node:
    """One node; ``rows``/``w`` are the training instances (and weights) that reached it."""

    __slots__ = ("dist", "attr", "point", "children", "is_leaf", "is_empty", "frac", "rows", "w", "index",
                 "uid", "total", "wrong", "sub_wrong")

    def __init__(self, rows, w, dist, total=None, wrong=None, is_empty=False):
        """A leaf; ``total``/``wrong`` as ``set_dist`` computes them, when already known (``_grow_tree``)."""
        self.rows, self.w = rows, w
        if total is None:
            self.set_dist(dist)
        else:
            self.dist, self.total, self.wrong = dist, total, wrong
        self.make_leaf()
        self.is_empty = is_empty

    def set_dist(self, dist):
        """Class weights at the node, with their total and training errors (cached for pruning)."""
        self.dist = dist
        v = dist.tolist()
        self.total = float(sum(v))
        self.wrong = self.total - v[_max_index(v)]

    def make_leaf(self):
        self.attr, self.point, self.children, self.frac = -1, np.nan, None, None
        self.is_leaf = True

    def leaves(self):
        if self.is_leaf:
            yield self
        else:
            for c in self.children:
                yield from c.leaves()

    def n_nodes(self) -> int:
        return 1 if self.is_leaf else 1 + sum(c.n_nodes() for c in self.children)


@contextlib.contextmanager
def _deep_recursion(limit: int = 20000):
    """Growing, pruning and prediction recurse once per tree level; allow deep trees."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class _TreeEngine(TabularClassifier):
    """Grows (and for C4.5 prunes) a tree; subclasses fix the criterion and options."""

    _criterion = _C45

    # -- growing --
    def _fit(self, X, y):
        self._setup(X, y)
        rows = np.arange(X.shape[0])
        presorted = self.__dict__.pop("_presorted", None)      # handed over by fit_predict_folds
        with _deep_recursion():
            self.tree_ = self._grow(np.ones(X.shape[0]), presorted or self._presort(rows))
            self._post_grow()
            self._teardown()
            self._strip(self.tree_)
            self._model = self._model_arrays()
            self.n_leaves_ = sum(1 for _ in self.tree_.leaves())
            self.tree_size_ = self.tree_.n_nodes()

    def fit_predict_folds(self, X, y, splits, random_states, classes) -> list[np.ndarray]:
        """Out-of-fold probabilities of every split, as fitting each split alone gives them.

        As :func:`~cvrepro.learners.batched.encoded_folds`, and the numeric
        attributes are sorted once: each fold's presort is read off the whole
        data set's (for training rows in increasing order, as the engine gives).
        """
        whole = []                                     # the whole data set's presort, made on first use

        def presorted(batch, model, train):
            if not whole:
                XT = np.ascontiguousarray(batch.Xe.T)
                whole.extend(_presort(XT, np.arange(XT.shape[1]), np.flatnonzero(~batch.schema.nominal)))
            if len(train) and (np.diff(train) > 0).all():
                model._presorted = _restrict(*whole, train)

        return encoded_folds(self, X, y, splits, random_states, classes, before_fit=presorted)

    def _setup(self, X, y):
        """Training-time state shared by the growing routines (dropped after fit)."""
        if self.min_num_obj < 1:
            raise ValueError(f"min_num_obj must be >= 1, got {self.min_num_obj!r}")
        self._X = X
        self._XT = np.ascontiguousarray(X.T)
        self._y = y
        self._K = len(self.classes_)
        self._nominal = self.schema_.nominal
        self._n_values = self.schema_.n_values
        self._nlogn = _nlogn_table(X.shape[0])
        self._counted = np.ones(len(self._nominal), np.bool_)     # attributes in C4.5's average gain
        self._numeric = np.flatnonzero(~self._nominal)
        self._slot = np.full(len(self._nominal), -1, np.int64)
        self._slot[self._numeric] = np.arange(len(self._numeric))

    def _presort(self, rows):
        return _presort(self._XT, rows, self._numeric)

    def _teardown(self):
        del self._X, self._XT, self._y, self._nlogn
        self.__dict__.pop("_flat", None)
        self.__dict__.pop("_all_sorted", None)

    def _stops(self, dist) -> bool:
        """J48's leaf rule: too little weight (< 2 min_num_obj) or a pure node."""
        return _stops(dist, float(self.min_num_obj))

    def _post_grow(self):
        pass

    def _dist(self, rows, w):
        return np.bincount(self._y[rows], weights=w, minlength=self._K).astype(np.float64)

    def _grow(self, w, presorted):
        """The tree on all rows with weights ``w`` (``presorted`` as ``_presort`` gives it), from ``_grow_tree``."""
        rows, ws, start, dists, total, wrong, empty, attr, point, frac, first, n_kids = _grow_tree(
            self._XT, self._y, w, self._dist(np.arange(len(w)), w), *presorted, self._slot, self._numeric,
            self._nominal, self._n_values, self._K, float(self.min_num_obj), self._criterion, self._nlogn,
            self._counted)
        start = start.tolist()
        nodes = [_Node(rows[lo:hi], ws[lo:hi], dist, *rest)
                 for lo, hi, dist, *rest in zip(start[:-1], start[1:], dists, total.tolist(), wrong.tolist(),
                                                empty.tolist())]
        for i in np.flatnonzero(attr >= 0).tolist():
            node, lo, k = nodes[i], int(first[i]), int(n_kids[i])
            node.is_leaf, node.attr, node.point, node.frac = False, int(attr[i]), float(point[i]), frac[i, :k]
            node.children = nodes[lo:lo + k]
        return nodes[0]

    def _make_split(self, node, attr, rows, w):
        """Turn ``node`` into a test on ``attr`` (chosen by ``_select``); return the branches' data."""
        node.is_leaf, node.attr = False, attr
        if not self._nominal[attr]:
            node.point = self._point
        return self._split(node, rows, w)

    def _split(self, node, rows, w):
        """The branches' (rows, w) under the node's test (``_partition_rows``); sets the node's fractions."""
        nominal = self._nominal[node.attr]
        _, node.frac, r, ww, off = _partition_rows(self._XT[node.attr], rows, w, nominal, node.point,
                                                    self._n_values[node.attr] if nominal else 2)
        return [(r[off[b]:off[b + 1]], ww[off[b]:off[b + 1]]) for b in range(len(off) - 1)]

    def _select(self, rows, w):
        """The attribute to split on (-1: none; PART's, node by node); its threshold goes to ``self._point``."""
        order, known = self._presort(rows)
        if "_all_sorted" not in self.__dict__:
            self._all_sorted = self._presort(np.arange(len(self._y)))
        best, self._point = _find_split(self._XT, self._y, rows, w, order, known, self._slot, self._nominal,
                                        self._n_values, self._K, float(self.min_num_obj), self._criterion,
                                        self._nlogn, self._counted, *self._all_sorted)
        return best

    def _strip(self, node):
        node.rows = node.w = None
        if not node.is_leaf:
            for c in node.children:
                self._strip(c)

    # -- prediction --
    def _leaf_probs(self, dist):
        total = dist.sum()
        if self._laplace:
            return (dist + 1) / (total + self._K)
        if abs(total) < _SMALL:
            return np.zeros_like(dist)
        return dist / total

    def _predict_proba(self, X):
        return _predict_rows(X, self.schema_.nominal, *self._model)

    def _model_arrays(self):
        """The fitted tree as arrays for ``_predict_rows`` (per node: test, branches, fractions, probabilities)."""
        nodes, first = self._bfs()
        frac = np.zeros((len(nodes), max(len(n.children) if n.children else 0 for n in nodes) or 1))
        for i, n in enumerate(nodes):
            if not n.is_leaf:
                frac[i, :len(n.children)] = n.frac
        return (np.array([n.attr for n in nodes]), np.array([n.point for n in nodes]),
                np.array([n.is_leaf for n in nodes]), np.array([n.is_empty for n in nodes]), first,
                np.array([0 if n.is_leaf else len(n.children) for n in nodes]), frac,
                np.array([self._leaf_probs(n.dist) for n in nodes]))

    def _bfs(self):
        """The nodes breadth first (numbered by ``uid``; siblings consecutive) and each one's first branch."""
        nodes, first = [self.tree_], []
        for i, node in enumerate(nodes):        # grows while we walk it
            node.uid = i
            first.append(len(nodes))
            if not node.is_leaf:
                nodes.extend(node.children)
        return nodes, np.array(first)

    def _predict_codes(self, X):
        P = self._predict_proba(X)
        top = P.max(axis=1, keepdims=True)
        return np.argmax(P > top - _SMALL, axis=1)

    # -- printing --
    def to_text(self) -> str:
        """The tree in J48's printed format (``J48 pruned tree`` body and sizes)."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))]))
        lines = []
        if self.tree_.is_leaf:
            lines.append(": " + self._label(self.tree_.dist, self.tree_.dist))
        else:
            with _deep_recursion():
                self._dump(self.tree_, 0, names, lines)
        body = "".join(lines)
        return (f"{body}\n\nNumber of Leaves  : \t{self.n_leaves_}\n\n"
                f"Size of the tree : \t{self.tree_size_}\n")

    def _label(self, dist, parent_dist):
        cls = self.classes_[_max_index(dist if dist.sum() > _SMALL else parent_dist)]
        text = f"{cls} ({_jround(dist.sum())}"
        wrong = _num_incorrect(dist)
        if wrong > _SMALL:
            text += f"/{_jround(wrong)}"
        return text + ")"

    def _dump(self, node, depth, names, lines):
        for b, child in enumerate(node.children):
            lines.append("\n" + "|   " * depth + str(names[node.attr]))
            if self.schema_.nominal[node.attr]:
                lines.append(f" = {self.schema_.categories[node.attr][b]}")
            else:
                lines.append((" <= " if b == 0 else " > ") + _jnum(node.point))
            if child.is_leaf:
                lines.append(": " + self._label(child.dist, node.dist))
            else:
                self._dump(child, depth + 1, names, lines)


def _jround(x: float) -> str:
    """Java's ``Double.toString(Utils.roundDouble(x, 2))``."""
    return repr(math.floor(x * 100 + 0.5) / 100)


def _jnum(x: float) -> str:
    """WEKA's ``Utils.doubleToString(x, 6)``: round half up of x * 1e6, trailing zeros removed."""
    temp = x * 1e6
    units = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    if units == 0:
        return "0"
    sign, digits = ("-" if units < 0 else ""), str(abs(units)).rjust(7, "0")
    whole, frac = digits[:-6], digits[-6:].rstrip("0")
    return sign + whole + ("." + frac if frac else "")


class C45(_TreeEngine):
    """C4.5 decision tree following WEKA J48 (release 8) with its defaults.

    Gain ratio with the average-gain filter and the MDL correction for numeric
    thresholds, multiway nominal splits, fractional instances for missing
    values, collapsing, error-based pruning (confidence ``confidence``) with
    subtree raising, ``min_num_obj`` instances per branch, leaf frequencies as
    probabilities (``laplace=True``: J48 -A).

    ``unpruned=True`` is J48 -U (no pruning; the tree is still collapsed, as
    WEKA 3.6 does). ``to_text()`` prints the tree as J48 does; on all 52
    catalog data sets our trees print identically to WEKA 3.6.14's. Possible
    deviation: WEKA decides ties of floating-point scores with its 1e-6
    tolerance, as we do, but may sum weights in another order, so scores
    equal up to the last bits could break differently.
    """

    _criterion = _C45

    def __init__(self, confidence=0.25, min_num_obj=2, laplace=False, unpruned=False,
                 subtree_raising=True):
        self.confidence = confidence
        self.min_num_obj = min_num_obj
        self.laplace = laplace
        self.unpruned = unpruned
        self.subtree_raising = subtree_raising

    @property
    def _laplace(self):
        return self.laplace

    def _setup(self, X, y):
        if not 0 < self.confidence <= 0.5:
            raise ValueError(f"confidence must be in (0, 0.5], got {self.confidence!r}")
        super()._setup(X, y)
        # the average gain leaves out nominal attributes with many values (>= 30 % of the instances), unless all are
        many = self._nominal & (self._n_values - 0.3 * X.shape[0] >= -_SMALL)
        self._counted = ~many | bool(many.all())

    def _post_grow(self):
        self._collapse(self.tree_)          # WEKA 3.6 collapses even with -U
        if not self.unpruned:
            if self.subtree_raising:
                self._flatten()
            self._prune(self.tree_)

    # -- pruning (C45PruneableClassifierTree) --
    def _training_errors(self, node):
        """Training errors of the subtree's leaves, cached in ``sub_wrong`` for collapse."""
        node.sub_wrong = node.wrong if node.is_leaf else sum(self._training_errors(c) for c in node.children)
        return node.sub_wrong

    def _collapse(self, node, top=True):
        if top:
            self._training_errors(node)
        if node.is_leaf:
            return
        if node.sub_wrong >= node.wrong - 1e-3:
            node.make_leaf()
        else:
            for c in node.children:
                self._collapse(c, top=False)

    def _estimate(self, total, wrong):
        """C4.5's pessimistic errors: e + addErrs(N, e, CF); 0 for an empty distribution."""
        return _pessimistic(total, wrong, float(self.confidence), _z_score(float(self.confidence)))

    def _flatten(self):
        """The tree's tests as arrays for ``_subtree_errors``."""
        nodes, first = self._bfs()
        self._flat = (np.array([n.attr for n in nodes]), np.array([n.point for n in nodes]),
                      np.array([n.is_leaf for n in nodes]), first)

    def _errors_for_branch(self, node, rows, w):
        cf = float(self.confidence)
        return _subtree_errors(self._XT, self._y, rows, w, node.uid, *self._flat, self._nominal, self._n_values,
                               self._K, cf, _z_score(cf))

    def _new_distribution(self, node, rows, w):
        node.rows, node.w = rows, w
        node.set_dist(self._dist(rows, w))
        if node.is_leaf:
            if abs(w.sum()) >= _SMALL:
                node.is_empty = False
            return
        for c, (r, ww) in zip(node.children, self._split(node, rows, w)):
            self._new_distribution(c, r, ww)

    def _prune(self, node) -> float:
        """WEKA's prune(); returns the estimated errors of the pruned subtree."""
        err_leaf = self._estimate(node.total, node.wrong)
        if node.is_leaf:
            return err_leaf
        err_tree = sum(self._prune(c) for c in node.children)
        largest = _max_bag([c.total for c in node.children])
        if self.subtree_raising:
            err_branch = self._errors_for_branch(node.children[largest], node.rows, node.w)
        else:
            err_branch = np.inf
        if err_leaf - (err_tree + 0.1) < _SMALL and err_leaf - (err_branch + 0.1) < _SMALL:
            node.make_leaf()
            if self.subtree_raising:
                self._flat[2][node.uid] = True
            return err_leaf
        if err_branch - (err_tree + 0.1) < _SMALL:
            child = node.children[largest]
            node.attr, node.point, node.children = child.attr, child.point, child.children
            node.is_leaf = child.is_leaf
            for a in self._flat:
                a[node.uid] = a[child.uid]
            self._new_distribution(node, node.rows, node.w)
            return self._prune(node)
        return err_tree


class HDDT(_TreeEngine):
    """Hellinger distance decision tree (Cieslak & Chawla 2008), on the C4.5 engine.

    Choices where the papers leave room (documented, tested):

    - split score: Hellinger distance between the two classes' branch
      distributions; with more than two classes, the largest one-vs-rest
      distance (Hoens, Qian, Chawla et al., PAKDD 2012, multi-class HDDT);
    - nominal attributes: multiway split (one branch per value, as C4.5);
      numeric attributes: every threshold between distinct values (binary;
      values closer than 1e-5 are not separated, as in J48);
    - missing values: C4.5's fractional instances; the distance is computed
      on known values and multiplied by the known fraction (as WEKA's HTree);
    - stopping: as J48 (pure node, or weight < 2 * ``min_num_obj``; each
      branch of a numeric split and two branches of a nominal one need
      ``min_num_obj``); no MDL correction, no gain-ratio filter;
    - unpruned, no collapse; leaves give Laplace-smoothed frequencies
      (C4.4 style), thresholds are moved to actual training values as in J48.
    """

    _criterion = _HELLINGER
    _laplace = True

    def __init__(self, min_num_obj=2):
        self.min_num_obj = min_num_obj
