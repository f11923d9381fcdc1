"""Compiled (numba) kernels of PART (:mod:`cvrepro.learners.part`): the whole decision list in one call.

Each rule's partial tree is grown with J48's kernels (:mod:`cvrepro.learners.tree_kernels`:
``find_split`` chooses a node's test, ``partition_rows`` and ``branch_orders`` hand its
branches their rows, weights and presorted orders) in WEKA's ``ClassifierDecList`` order;
the rule's coverage then reweights the rows for the next rule. Every sum keeps the order
of the straightforward Python (sequential sums, :func:`np_sum` where that was
``ndarray.sum``), so the rules and probabilities have the same bits. The partial tree is
walked with an explicit stack: numba cannot cache recursive functions.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .java import SMALL
from .tree_kernels import (
    MAX_DEPTH,
    branch_orders,
    find_split,
    np_sum,
    partition_rows,
    pessimistic_errors,
    restrict_presort,
    stops_growing,
    xlog2x,
)

__all__ = ["part_rules", "predict_rules"]

_START, _LOOP, _AFTER, _FINISH = 0, 1, 2, 3     # the states of a partial-tree node on the stack


@njit(cache=True)
def _total_wrong(dist):
    """A node's total weight (summed in order) and training errors (the total less the top class,
    ties within 1e-6 to the lowest class, as WEKA's ``Utils.maxIndex``)."""
    total, top, top_v = 0.0, 0, 0.0
    for c in range(dist.shape[0]):
        total += dist[c]
        if dist[c] - top_v > SMALL:
            top, top_v = c, dist[c]
    return total, total - dist[top]


@njit(cache=True)
def _subset_entropy(bag, n, min_obj):
    """The entropy ``ClassifierDecList.chooseIndex`` ranks an unexpanded subset by (inf: too light)."""
    if n - min_obj < -SMALL:
        return np.inf
    s = 0.0
    for c in range(bag.shape[0]):
        s += xlog2x(bag[c])
    return (-s + xlog2x(n)) / n


@njit(cache=True)
def _choose_index(built, entropy):
    """Unexpanded subset of lowest entropy (a pure one at once); -1 if all are too light."""
    best, best_val = -1, np.inf
    for i in range(entropy.shape[0]):
        if built[i]:
            continue
        if entropy[i] < SMALL:
            return i
        if entropy[i] - best_val < -SMALL:
            best, best_val = i, entropy[i]
    return best


@njit(cache=True)
def _choose_last_index(built, weight, rule_total, min_obj):
    """The expanded subset whose rule leaf covers the most weight (``weight``, ``rule_total``: per subset)."""
    best, best_val = 0, np.inf
    for i in range(weight.shape[0]):
        if not built[i] or weight[i] - min_obj <= -SMALL:
            continue
        size = -rule_total[i]
        if size - best_val < -SMALL:
            best, best_val = i, size
    return best


@njit(cache=True)
def _partial_tree(XT, y, rows, w, order, known, slot, numeric, nominal, n_values, K, min_obj, nlogn, counted,
                  all_order, all_known, cf, z):
    """One rule from a partial tree on (rows, w): its tests (attribute, threshold, branch, fraction) and leaf.

    A node stops as J48's (``stops_growing``, ``find_split``), else splits and expands its
    branches in order of increasing entropy until one does not end as a leaf; a node whose
    branches all are leaves is pruned to a leaf when its pessimistic error is at most theirs
    plus 0.1. The rule follows, from the root, the expanded branch whose rule covers the
    most weight. Per split, its branches' weights, entropies, expanded flags and rule
    weights (``_choose_index``, ``_choose_last_index``) are arrays of the node's.
    """
    S = numeric.shape[0]
    dist0 = np.zeros(K)
    for p in range(rows.shape[0]):
        dist0[y[rows[p]]] += w[p]
    n_rows, n_w, n_order, n_known, n_dist = [rows], [w], [order], [known], [dist0]
    empty, no = np.empty(0), np.empty(0, np.bool_)
    n_frac, n_weight, n_entropy, n_rule, n_done = [empty], [empty], [empty], [empty], [no]
    attr, point, first, kids, index, parent = [-1], [np.nan], [0], [0], [0], [-1]
    state, expanded, pending, depth = [_START], [0], [0], [0]
    stack = [0]
    while stack:
        i = stack[-1]
        if state[i] == _START:
            if depth[i] > MAX_DEPTH:
                raise RecursionError("partial tree deeper than MAX_DEPTH (a split that does not divide its rows?)")
            a, thr = -1, np.nan
            if not stops_growing(n_dist[i], min_obj):
                a, thr = find_split(XT, y, n_rows[i], n_w[i], n_order[i], n_known[i], slot, nominal, n_values, K,
                                    min_obj, 0, nlogn, counted, all_order, all_known)
            if a < 0:
                stack.pop()
                if parent[i] >= 0:
                    n_rule[parent[i]][i - first[parent[i]]] = _total_wrong(n_dist[i])[0]
                continue
            n_sub = n_values[a] if nominal[a] else 2
            sub, frac, r, ww, off = partition_rows(XT[a], n_rows[i], n_w[i], nominal[a], thr, n_sub)
            if S > 0:
                child_order, child_known = branch_orders(XT, n_rows[i], n_order[i], n_known[i], numeric, sub, frac,
                                                         off)
            else:                                   # no numeric attribute: nothing to sort
                child_order, child_known = np.empty(0, np.int64), np.zeros((n_sub, 0), np.int64)
            attr[i], point[i], n_frac[i], first[i], kids[i] = a, thr, frac, len(attr), n_sub
            weight, entropy, rule = np.empty(n_sub), np.empty(n_sub), np.empty(n_sub)
            bags = np.zeros((n_sub, K))
            for b in range(n_sub):
                lo, hi = off[b], off[b + 1]
                bag = bags[b]
                for p in range(lo, hi):
                    bag[y[r[p]]] += ww[p]
                weight[b] = np_sum(bag)
                entropy[b] = _subset_entropy(bag, weight[b], min_obj)
                rule[b] = _total_wrong(bag)[0]
                n_rows.append(r[lo:hi])
                n_w.append(ww[lo:hi])
                n_order.append(child_order[S * lo:S * hi].reshape(S, hi - lo))
                n_known.append(child_known[b])
                n_dist.append(bag)
                for arr in (n_frac, n_weight, n_entropy, n_rule):
                    arr.append(empty)
                n_done.append(no)
                for lst in (attr, first, kids, index, state, expanded, pending, depth):
                    lst.append(0)
                attr[-1], state[-1], depth[-1] = -1, _START, depth[i] + 1
                parent.append(i)
                point.append(np.nan)
            n_weight[i], n_entropy[i], n_rule[i], n_done[i] = weight, entropy, rule, np.zeros(n_sub, np.bool_)
            state[i] = _LOOP
        lo, n_sub, done = first[i], kids[i], n_done[i]
        if state[i] == _AFTER:
            state[i] = _LOOP if expanded[i] < n_sub and attr[pending[i]] < 0 else _FINISH
        if state[i] == _LOOP:
            expanded[i] += 1
            ind = _choose_index(done, n_entropy[i])
            if ind >= 0:
                done[ind], pending[i], state[i] = True, lo + ind, _AFTER
                stack.append(lo + ind)
                continue
            done[:] = True                      # the rest become leaves
            state[i] = _FINISH
        # _FINISH: prune to a leaf, or point the rule at the heaviest expanded branch
        total, wrong = _total_wrong(n_dist[i])
        all_leaves = True
        errors_tree = 0.0
        for b in range(n_sub):
            if not done[b] or attr[lo + b] >= 0:
                all_leaves = False
                break
            t, e = _total_wrong(n_dist[lo + b])
            errors_tree += pessimistic_errors(t, e, cf, z)
        if all_leaves and pessimistic_errors(total, wrong, cf, z) - (errors_tree + 0.1) < SMALL:
            attr[i] = -1
            rule_total = total
        else:
            index[i] = _choose_last_index(done, n_weight[i], n_rule[i], min_obj)
            rule_total = n_rule[i][index[i]]
        stack.pop()
        if parent[i] >= 0:
            n_rule[parent[i]][i - first[parent[i]]] = rule_total
    # the rule: the path from the root
    c_attr, c_point, c_index, c_frac = [0], [0.0], [0], [0.0]
    for lst in (c_attr, c_index):
        lst.pop()
    for lst in (c_point, c_frac):
        lst.pop()
    i = 0
    while attr[i] >= 0:
        c_attr.append(attr[i])
        c_point.append(point[i])
        c_index.append(index[i])
        c_frac.append(n_frac[i][index[i]])
        i = first[i] + index[i]
    return np.array(c_attr), np.array(c_point), np.array(c_index), np.array(c_frac), n_dist[i]


@njit(cache=True)
def _coverage(XT, rows, nominal, attr, point, index, frac):
    """Fraction of each row (column ``rows[q]`` of ``XT``) covered by a rule's tests, multiplied in order
    (missing values: the branch's training fraction)."""
    cover = np.ones(rows.shape[0])
    for j in range(attr.shape[0]):
        a, t, b, f = attr[j], point[j], index[j], frac[j]
        for q in range(rows.shape[0]):
            v = XT[a, rows[q]]
            if v != v:
                cover[q] *= f
            elif nominal[a]:
                cover[q] *= 1.0 if v == b else 0.0
            elif b == 1:
                cover[q] *= 1.0 if v - t >= SMALL else 0.0        # WEKA's Utils.smOrEq, as the split's test
            else:
                cover[q] *= 1.0 if v - t < SMALL else 0.0
    return cover


@njit(cache=True)
def part_rules(XT, y, order, known, slot, numeric, nominal, n_values, K, min_obj, nlogn, counted, cf, z):
    """WEKA PART's decision list on all rows of ``XT`` (``order``/``known``: their presort).

    Rules are made until no row is left: covered rows drop out, a row covered
    in part (missing values) stays with weight ``w * (1 - coverage)``. Returns
    the rules' tests, concatenated (rule ``k``'s are ``start[k]:start[k + 1]``
    of attribute, threshold, branch and training fraction), and their leaves'
    class weights and frequencies.
    """
    n = y.shape[0]
    rows, w = np.arange(n), np.ones(n)
    c_attr, c_point, c_index, c_frac = [np.empty(0, np.int64)], [np.empty(0)], [np.empty(0, np.int64)], [np.empty(0)]
    dists, start = [np.empty(0)], [0]
    for lst in (c_attr, c_index):
        lst.pop()
    for lst in (c_point, c_frac, dists):
        lst.pop()
    sub_order, sub_known = order, known         # the rows' presort, restricted rule by rule
    while rows.shape[0] > 0:
        a, p, b, f, dist = _partial_tree(XT, y, rows, w, sub_order, sub_known, slot, numeric, nominal, n_values, K,
                                         min_obj, nlogn, counted, order, known, cf, z)
        c_attr.append(a)
        c_point.append(p)
        c_index.append(b)
        c_frac.append(f)
        dists.append(dist)
        start.append(start[-1] + a.shape[0])
        cover = _coverage(XT, rows, nominal, a, p, b, f)
        keep = cover - 1 < -SMALL
        rows, w = rows[keep], w[keep] * (1 - cover[keep])
        sub_order, sub_known = restrict_presort(sub_order, sub_known, np.flatnonzero(keep))
    R, m = len(dists), start[-1]
    out_attr, out_index = np.empty(m, np.int64), np.empty(m, np.int64)
    out_point, out_frac, out_dist, probs = np.empty(m), np.empty(m), np.empty((R, K)), np.zeros((R, K))
    for k in range(R):
        total = np_sum(dists[k])
        if abs(total) >= SMALL:                 # leaf frequencies (an empty leaf: zeros)
            probs[k] = dists[k] / total
        lo, hi = start[k], start[k + 1]
        out_attr[lo:hi], out_point[lo:hi] = c_attr[k], c_point[k]
        out_index[lo:hi], out_frac[lo:hi] = c_index[k], c_frac[k]
        out_dist[k] = dists[k]
    return np.array(start), out_attr, out_point, out_index, out_frac, out_dist, probs


@njit(cache=True)
def predict_rules(XT, nominal, start, attr, point, index, frac, probs):
    """Class probabilities of each column of ``XT`` from the decision list (WEKA's ``MakeDecList``).

    Rule by rule, a row still uncovered by weight ``u > 1e-6`` and covered by fraction
    ``c > 1e-6`` adds ``u * c`` times the rule's probabilities and keeps ``u * (1 - c)``.
    """
    n, K = XT.shape[1], probs.shape[1]
    out = np.zeros((n, K))
    u = np.ones(n)
    rows = np.arange(n)
    for k in range(start.shape[0] - 1):
        rows = rows[u[rows] > SMALL]
        if rows.shape[0] == 0:
            break
        lo, hi = start[k], start[k + 1]
        cover = _coverage(XT, rows, nominal, attr[lo:hi], point[lo:hi], index[lo:hi], frac[lo:hi])
        for q in range(rows.shape[0]):
            c = cover[q]
            if c > SMALL:
                i = rows[q]
                for j in range(K):
                    out[i, j] += (u[i] * c) * probs[k, j]
                u[i] *= 1 - c
    return out
