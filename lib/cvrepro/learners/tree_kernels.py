"""Compiled (numba) kernels of the decision-tree engine (:mod:`cvrepro.learners.tree_engine`).

Split criteria (C4.5's gain and gain ratio as WEKA's J48 computes them, the
Hellinger distance of HDDT), the presort of numeric attributes and its
restriction to a subset of rows, the partition of weighted rows by a test
(fractional instances for missing values), growing a whole tree in one call,
prediction on the tree as arrays, and C4.5's pessimistic error estimate.

Speed without changing a bit: numeric attributes are sorted once per fit
(once per data set in ``fit_predict_folds``) and each split hands its
branches their sorted orders; growing the whole tree (per node: the split
search over all attributes and thresholds, the choice, the partition into
branches) is one numba call, and so is the subtree-raising error estimate
while pruning. Every sum keeps the order of the straightforward code
(:func:`np_sum` where that was ``np.sum``). Recursion is written as explicit
stacks: numba cannot cache recursive functions.
"""
from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit
from scipy.stats import norm

from .java import SMALL

__all__ = [
    "C45_CRITERION", "HELLINGER_CRITERION", "MAX_DEPTH", "known_order", "xlog2x", "nlogn_table", "hellinger",
    "presort", "restrict_presort", "node_splits", "branch_codes", "branch_rows", "partition_rows",
    "branch_orders", "weka_split_point", "find_split", "stops_growing", "grow_tree", "predict_rows",
    "z_score", "add_errs", "pessimistic_errors", "np_sum", "subtree_errors", "node_probs",
]

_LN2 = math.log(2.0)
C45_CRITERION, HELLINGER_CRITERION = 0, 1   # split criteria: J48's gain ratio, HDDT's Hellinger distance
MAX_DEPTH = 10000     # deeper trees exceed the recursion limit of pruning and printing (``deep_recursion``)


# --- split criteria (numba) ------------------------------------------------

@njit(cache=True)
def known_order(values):
    """Indices of the non-missing values, sorted by value (stable, as WEKA's sort)."""
    known = np.flatnonzero(values == values)
    return known[np.argsort(values[known], kind="mergesort")]


@njit(cache=True)
def xlog2x(x):
    if x < 1e-6:
        return 0.0
    return x * math.log(x) / _LN2


@njit(cache=True)
def nlogn_table(n):
    """``xlog2x`` of 0, 1, ..., n: class counts are whole numbers unless values are missing."""
    table = np.empty(n + 1)
    for i in range(n + 1):
        table[i] = xlog2x(float(i))
    return table


@njit(cache=True)
def _logf_of(x, table):
    """``xlog2x(x)``, looked up for whole numbers (same bits, no log)."""
    i = int(x)
    if i == x and i < table.shape[0]:
        return table[i]
    return xlog2x(x)


@njit(cache=True)
def _info_gain(bags, perbag, known, total, old_ent):
    """WEKA InfoGainSplitCrit.splitCritValue: gain per known instance, times the known fraction."""
    new_ent = 0.0
    for i in range(bags.shape[0]):
        for j in range(bags.shape[1]):
            new_ent += xlog2x(bags[i, j])
        new_ent -= xlog2x(perbag[i])
    return _gain(new_ent, known, total, old_ent)


@njit(cache=True)
def _gain(new_ent, known, total, old_ent):
    """The gain from ``new_ent`` = sum n_ij log n_ij - sum n_i log n_i (as ``_info_gain`` sums it)."""
    num = old_ent + new_ent          # oldEnt - newEnt, with newEnt = -(sum n_ij log n_ij - sum n_i log n_i)
    if abs(num) < SMALL:
        return 0.0
    unknown_rate = (total - known) / total
    num = (1.0 - unknown_rate) * num
    if abs(num) < SMALL:
        return 0.0
    return num / known


@njit(cache=True)
def _gain_ratio(perbag, known, total, gain):
    """WEKA GainRatioSplitCrit: split information counts missing values as an extra branch."""
    split_ent = 0.0
    if known > SMALL:
        for i in range(perbag.shape[0]):
            split_ent -= xlog2x(perbag[i])
        split_ent -= xlog2x(total - known)
        split_ent += xlog2x(total)
    if abs(split_ent) < SMALL:
        return 0.0
    return gain / (split_ent / total)


@njit(cache=True)
def _old_ent(perclass, known):
    s = 0.0
    for j in range(perclass.shape[0]):
        s += xlog2x(perclass[j])
    return xlog2x(known) - s


@njit(cache=True)
def hellinger(bags, perclass):
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
    """``hellinger`` given the branch totals ``perbag`` (summed over the classes in order)."""
    K = bags.shape[1]
    total = perclass.sum()
    best = 0.0
    for c in range(K if K > 2 else 1):
        rest = total - perclass[c]
        if perclass[c] <= 0 or rest <= SMALL:
            continue
        s = 0.0
        for i in range(bags.shape[0]):
            d = math.sqrt(bags[i, c] / perclass[c]) - math.sqrt(max(perbag[i] - bags[i, c], 0.0) / rest)
            s += d * d
        if math.sqrt(s) > best:
            best = math.sqrt(s)
    return best


@njit(cache=True)
def presort(XT, rows, numeric):
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
def restrict_presort(order, known, rows):
    """``presort`` of the rows ``rows`` (strictly increasing) from the presort of all rows."""
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
def node_splits(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj, criterion, nlogn):
    """Best split of every attribute at one node.

    ``order``/``known`` are the node's presorted numeric attributes (see
    ``presort``; ``slot[a]`` is attribute ``a``'s row; ``nlogn`` is
    ``nlogn_table(len(y))``). Returns per attribute:
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
                if perbag[b] > min_obj - SMALL:
                    big += 1
            if big <= 1:
                continue
            n_sub[a] = nv
            if criterion == C45_CRITERION:
                g = _info_gain(bags, perbag, known_w, total, _old_ent(perclass, known_w))
                score[a] = g
                ratio[a] = _gain_ratio(perbag, known_w, total, g)
            else:
                h = hellinger(bags, perclass) * known_w / total
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
        if criterion == C45_CRITERION:
            min_split = 0.1 * known_w / K
            if min_split - min_obj < SMALL:
                min_split = min_obj
            elif min_split - 25.0 > SMALL:
                min_split = 25.0
        else:
            min_split = min_obj
        if m - 2.0 * min_split < -SMALL:
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
                if lw > min_split - SMALL and rw > min_split - SMALL:
                    if criterion == C45_CRITERION:
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
                    if sc - best > SMALL:
                        best = sc
                        best_at = nxt - 1
                    n_cand += 1
                last = nxt
        if n_cand == 0 or best_at < 0:
            continue
        if criterion == C45_CRITERION:
            best = best - math.log(n_cand) / _LN2 / total
        if best < SMALL:
            continue
        lo = vals[best_at]
        hi = vals[best_at + 1]
        sp = (lo + hi) / 2.0
        if sp == hi:
            sp = lo
        n_sub[a] = 2
        score[a] = best
        point[a] = sp
        if criterion == C45_CRITERION:
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
        if n_sub[a] > 0 and gain[a] >= avg - 1e-3 and ratio[a] - best_ratio > SMALL:
            best, best_ratio = a, ratio[a]
    if best < 0 or abs(best_ratio) < SMALL:
        return -1
    return best


@njit(cache=True)
def _best_score(n_sub, score):
    """The valid attribute of highest score (first of ties within 1e-6; -1: none)."""
    best, best_score = -1, 0.0
    for a in range(n_sub.shape[0]):
        if n_sub[a] > 0 and score[a] - best_score > SMALL:
            best, best_score = a, score[a]
    return best


@njit(cache=True)
def branch_codes(col, rows, w, nominal, point, n_sub):
    """Branch of each position (-1: missing value) and the known weight per branch."""
    sub = np.empty(rows.shape[0], np.int64)
    perbag = np.zeros(n_sub)
    for p in range(rows.shape[0]):
        v = col[rows[p]]
        if v != v:
            sub[p] = -1
            continue
        b = int(v) if nominal else (0 if v - point < SMALL else 1)     # C45Split.whichSubset: Utils.smOrEq
        sub[p] = b
        perbag[b] += w[p]
    return sub, perbag


@njit(cache=True)
def branch_rows(rows, w, sub, frac):
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
        off[b + 1] = off[b] + cnt[b] + (n_miss if frac[b] > SMALL else 0)
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
        if n_miss > 0 and frac[b] > SMALL:
            for p in range(rows.shape[0]):
                if sub[p] < 0:
                    r[fill[b]] = rows[p]
                    ww[fill[b]] = w[p] * frac[b]
                    fill[b] += 1
    return r, ww, off


@njit(cache=True)
def partition_rows(col, rows, w, nominal, point, n_sub):
    """Split (rows, w) by a test on ``col``; missing values go everywhere, weighted.

    The branch fractions come from this data (WEKA's resetDistribution).
    Returns each position's branch (-1: missing), the fractions, and the
    branches' rows and weights as ``branch_rows`` concatenates them.
    """
    sub, perbag = branch_codes(col, rows, w, nominal, point, n_sub)
    tot = np_sum(perbag)
    frac = perbag / tot if tot > 0 else np.zeros(n_sub)
    r, ww, off = branch_rows(rows, w, sub, frac)
    return sub, frac, r, ww, off


@njit(cache=True)
def _grow_split(XT, y, rows, w, order, known, numeric, attr, nominal, point, n_sub, K):
    """``partition_rows`` for growing, plus each branch's presorted orders and class weights."""
    sub, frac, r, ww, off = partition_rows(XT[attr], rows, w, nominal, point, n_sub)
    child_order, child_known = branch_orders(XT, rows, order, known, numeric, sub, frac, off)
    dists = np.zeros((n_sub, K))
    for b in range(n_sub):
        for p in range(off[b], off[b + 1]):
            dists[b, y[r[p]]] += ww[p]
    return frac, r, ww, off, child_order, child_known, dists


@njit(cache=True)
def branch_orders(XT, rows, order, known, numeric, sub, frac, off):
    """The branches' presorted orders (as ``presort`` on each branch), in linear time from the node's.

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
    take = (frac > SMALL) & (n_miss > 0)
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
def weka_split_point(values, sorted_idx, point):
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
        if values[sorted_idx[mid]] - point < SMALL:
            lo = mid + 1
        else:
            hi = mid
    if hi == 0:
        return point
    top = values[sorted_idx[hi - 1]]
    k = hi - 1
    while k >= 0 and values[sorted_idx[k]] == top:
        k -= 1
    if np.isfinite(top) and (k < 0 or top - values[sorted_idx[k]] > SMALL):
        return top
    best = -np.inf
    for v in values:
        if v == v and v - best > SMALL and v - point < SMALL:
            best = v
    return best if best > -np.inf else point


@njit(cache=True)
def find_split(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj, criterion, nlogn, counted,
                all_order, all_known):
    """The node's split: attribute (-1: none) and, for a numeric one, the threshold J48 uses.

    C4.5 takes the best gain ratio among attributes of at least average gain
    (``counted`` ones averaged), HDDT the largest distance. J48 moves the
    midpoint threshold to the largest training value below it
    (``weka_split_point``; ``all_order``/``all_known`` presort all training rows).
    """
    n_sub, score, ratio, mid = node_splits(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj,
                                            criterion, nlogn)
    best = _best_gain_ratio(n_sub, score, ratio, counted) if criterion == C45_CRITERION else _best_score(n_sub, score)
    if best < 0 or nominal[best]:
        return best, np.nan
    s = slot[best]
    return best, weka_split_point(XT[best], all_order[s, :all_known[s]], mid[best])


@njit(cache=True)
def stops_growing(dist, min_obj):
    """J48's leaf rule: too little weight (< 2 min_num_obj) or a pure node (``dist.sum()`` as numpy sums)."""
    total = np_sum(dist)
    return total - 2.0 * min_obj < -SMALL or abs(total - dist[_top(dist)]) < SMALL


@njit(cache=True)
def grow_tree(XT, y, w, dist, order, known, slot, numeric, nominal, n_values, K, min_obj, criterion, nlogn,
               counted):
    """The whole unpruned tree on all rows, weights ``w`` and class weights ``dist``: one call instead of one per node.

    A node stops by ``stops_growing``, else splits by ``find_split`` and ``_grow_split``
    (``order``/``known`` is the rows' presort). Nodes are numbered in creation
    order; an internal node's branches are consecutive. Returns the nodes'
    rows and weights (node i's are ``start[i]:start[i + 1]`` of the first two
    arrays, concatenated so that Python gets few arrays back), and per node:
    class weights, their total and training errors (as ``Node.set_dist``),
    whether it is empty, the test (attribute, -1 for a leaf, and threshold),
    branch fractions, first branch and number of branches. An explicit
    stack, not recursion: numba cannot cache recursive functions. A split
    whose branch keeps all its rows would grow forever; past ``MAX_DEPTH``
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
        if depth > MAX_DEPTH:
            raise RecursionError("tree deeper than MAX_DEPTH (a split that does not divide its rows?)")
        rows, w, dist = node_rows[i], node_w[i], node_dist[i]
        if stops_growing(dist, min_obj):
            continue
        a, thr = find_split(XT, y, rows, w, order, known, slot, nominal, n_values, K, min_obj, criterion, nlogn,
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
        empty[i] = abs(np_sum(dists[i])) < SMALL
    return (all_rows, all_w, start, dists, total, wrong, empty, np.array(attr), np.array(point), frac,
            np.array(first), kids)


@njit(cache=True)
def predict_rows(X, nominal, attr, point, leaf, empty, first, n_kids, frac, probs):
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
            b = int(v) if nominal[attr[node]] else (0 if v - point[node] < SMALL else 1)   # Utils.smOrEq
            if empty[first[node] + b]:
                for k in range(probs.shape[1]):
                    out[i, k] += wt * probs[node, k]
            else:
                stack[top], weight[top] = first[node] + b, wt
                top += 1
    return out


# --- pessimistic error estimate ---------------------------------------------

@functools.cache
def z_score(cf: float) -> float:
    return float(norm.ppf(1 - cf))


def add_errs(N: float, e: float, cf: float = 0.25) -> float:
    """WEKA ``Stats.addErrs``: extra errors of the upper confidence limit (C4.5 pruning)."""
    return _add_errs(float(N), float(e), float(cf), z_score(float(cf)))


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
def pessimistic_errors(total, wrong, cf, z):
    """C4.5's pessimistic errors: e + addErrs(N, e, CF); 0 for an empty distribution."""
    if abs(total) < SMALL:
        return 0.0
    return wrong + _add_errs(total, wrong, cf, z)


@njit(cache=True)
def np_sum(a):
    """``np.sum(a)`` bit for bit: numpy's pairwise order (halves down to blocks of <= 128 values)."""
    if a.shape[0] <= 128:               # one block (class and branch weights): no stack
        return _np_block_sum(a, 0, a.shape[0])
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
    """Index of the largest value, ties (within 1e-6) to the lowest index (WEKA's ``Utils.gr`` loop)."""
    best, best_v = 0, 0.0
    for i in range(v.shape[0]):
        if v[i] - best_v > SMALL:
            best, best_v = i, v[i]
    return best


@njit(cache=True)
def subtree_errors(XT, y, rows, w, root, attr, point, leaf, first, nominal, n_values, K, cf, z):
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
            errors[k] = pessimistic_errors(np_sum(dist), total - dist[_top(dist)], cf, z)
        else:
            a = attr[i]
            n_sub = n_values[a] if nominal[a] else 2
            _, _, br, bw, off = partition_rows(XT[a], r, ww, nominal[a], point[i], n_sub)
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


@njit(cache=True)
def node_probs(dists, laplace):
    """Per row of class weights ``dists``: ``(dist + 1) / (total + K)`` if ``laplace``, else ``dist / total``
    (0 when the total is 0); totals summed as ``dist.sum()`` sums them."""
    n, K = dists.shape
    out = np.zeros((n, K))
    for i in range(n):
        total = np_sum(dists[i])
        if laplace:
            out[i] = (dists[i] + 1) / (total + K)
        elif not abs(total) < SMALL:
            out[i] = dists[i] / total
    return out
