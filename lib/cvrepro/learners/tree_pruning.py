"""C4.5's collapsing and error-based pruning (WEKA J48's ``C45PruneableClassifierTree``), compiled.

One numba call takes the grown tree as :func:`~cvrepro.learners.tree_kernels.grow_tree`
returns it (nodes in creation order, an internal node's branches consecutive)
and does what J48 does after growing: ``collapse`` (a subtree whose leaves make
no fewer training errors than its root, within 1e-3, becomes a leaf), then,
unless unpruned, ``prune``: bottom up, a node becomes a leaf when its
pessimistic errors are no more than its subtree's and its largest branch's
(+ 0.1), or is replaced by its largest branch (subtree raising), whose
instances and class weights are then recomputed from the node's instances
(fractional instances for missing values) before that branch is pruned again.
It returns the final tree breadth first, as the prediction kernel reads it.

Every comparison, tie rule and sum is WEKA's and in WEKA's order, as the
node-by-node code it replaces had them; recursion is written as explicit
stacks (numba cannot cache recursive functions).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .java import SMALL
from .tree_kernels import np_sum, partition_rows, pessimistic_errors, subtree_errors

__all__ = ["c45_post_grow"]


@njit(cache=True)
def _max_bag(total, lo, n):
    """WEKA ``Distribution.maxBag`` over the branches' totals: ties go to the LAST branch (grOrEq)."""
    best, best_v = -1, 0.0
    for b in range(n):
        x = total[lo + b]
        if x > best_v - SMALL:
            best, best_v = b, x
    return best


@njit(cache=True)
def _set_dist(i, y, rows, w, dists, total, wrong):
    """Node ``i``'s class weights from its instances (``np.bincount`` order), total and training errors."""
    K = dists.shape[1]
    for c in range(K):
        dists[i, c] = 0.0
    for p in range(rows.shape[0]):
        dists[i, y[rows[p]]] += w[p]
    t = 0.0
    best, best_v = 0, 0.0
    for c in range(K):
        t += dists[i, c]
        if dists[i, c] - best_v > SMALL:
            best, best_v = c, dists[i, c]
    total[i], wrong[i] = t, t - dists[i, best]


@njit(cache=True)
def _collapse(attr, point, leaf, first, n_kids, wrong):
    """J48's ``collapse``: subtrees no better on the training data than their root become leaves."""
    N = attr.shape[0]
    sub_wrong = np.empty(N)
    for i in range(N - 1, -1, -1):          # branches are numbered after their node: children first
        if leaf[i]:
            sub_wrong[i] = wrong[i]
        else:
            s = 0.0
            for b in range(n_kids[i]):
                s += sub_wrong[first[i] + b]
            sub_wrong[i] = s
    stack = [0]                             # from the root
    while stack:
        i = stack.pop()
        if leaf[i]:
            continue
        if sub_wrong[i] >= wrong[i] - 1e-3:
            _make_leaf(i, attr, point, leaf, n_kids)
        else:
            for b in range(n_kids[i]):
                stack.append(first[i] + b)


@njit(cache=True)
def _make_leaf(i, attr, point, leaf, n_kids):
    attr[i], point[i], leaf[i], n_kids[i] = -1, np.nan, True, 0


@njit(cache=True)
def _new_distribution(top, node_rows, node_w, XT, y, attr, point, leaf, empty, first, n_kids, frac, dists, total,
                      wrong, nominal, n_values):
    """J48's ``newDistribution`` of the subtree at ``top`` from ``top``'s instances: every node's
    instances, class weights and (internal nodes) branch fractions."""
    stack = [top]
    while stack:
        i = stack.pop()
        rows, w = node_rows[i], node_w[i]
        _set_dist(i, y, rows, w, dists, total, wrong)
        if leaf[i]:
            if abs(np_sum(w)) >= SMALL:
                empty[i] = False
            continue
        a = attr[i]
        n_sub = n_values[a] if nominal[a] else 2
        _, fr, r, ww, off = partition_rows(XT[a], rows, w, nominal[a], point[i], n_sub)
        for b in range(n_sub):
            frac[i, b] = fr[b]
            c = first[i] + b
            node_rows[c] = r[off[b]:off[b + 1]]
            node_w[c] = ww[off[b]:off[b + 1]]
            stack.append(c)


@njit(cache=True)
def _prune(node_rows, node_w, XT, y, attr, point, leaf, empty, first, n_kids, frac, dists, total, wrong,
           nominal, n_values, K, raising, cf, z):
    """J48's ``prune`` from the root, with subtree raising when ``raising``."""
    N = attr.shape[0]
    stack, next_branch = np.empty(N + 1, np.int64), np.empty(N + 1, np.int64)
    err_leaf, err_tree = np.empty(N + 1), np.empty(N + 1)
    stack[0], next_branch[0], top = 0, -1, 1
    returned, value = False, 0.0
    while top > 0:
        f = top - 1
        i = stack[f]
        if next_branch[f] < 0:                 # entering the node
            err_leaf[f] = pessimistic_errors(total[i], wrong[i], cf, z)
            if leaf[i]:
                top, returned, value = f, True, err_leaf[f]
                continue
            next_branch[f], err_tree[f] = 0, 0.0
        elif returned:                          # a branch's estimate, summed in branch order
            err_tree[f] += value
            next_branch[f] += 1
            returned = False
        if next_branch[f] < n_kids[i]:
            stack[top], next_branch[top] = first[i] + next_branch[f], -1
            top += 1
            continue
        largest = first[i] + _max_bag(total, first[i], n_kids[i])
        err_branch = (subtree_errors(XT, y, node_rows[i], node_w[i], largest, attr, point, leaf, first, nominal,
                                     n_values, K, cf, z) if raising else np.inf)
        if err_leaf[f] - (err_tree[f] + 0.1) < SMALL and err_leaf[f] - (err_branch + 0.1) < SMALL:
            _make_leaf(i, attr, point, leaf, n_kids)
            top, returned, value = f, True, err_leaf[f]
        elif err_branch - (err_tree[f] + 0.1) < SMALL:        # raise the largest branch, prune it again
            attr[i], point[i], leaf[i] = attr[largest], point[largest], leaf[largest]
            first[i], n_kids[i] = first[largest], n_kids[largest]
            _new_distribution(i, node_rows, node_w, XT, y, attr, point, leaf, empty, first, n_kids, frac, dists,
                              total, wrong, nominal, n_values)
            next_branch[f] = -1
        else:
            top, returned, value = f, True, err_tree[f]


@njit(cache=True)
def _breadth_first(attr, point, leaf, empty, first, n_kids, frac, dists, total, wrong):
    """The tree reachable from node 0, breadth first (siblings consecutive), as the model's arrays;
    a leaf's ``first`` is the count of nodes queued so far, as the Python walk numbered it."""
    order = [0]
    new_first = [0]
    new_first.pop()
    k = 0
    while k < len(order):
        i = order[k]
        new_first.append(len(order))
        if not leaf[i]:
            for b in range(n_kids[i]):
                order.append(first[i] + b)
        k += 1
    M = len(order)
    idx = np.array(order)
    kids = np.zeros(M, np.int64)
    for j in range(M):
        if not leaf[idx[j]]:
            kids[j] = n_kids[idx[j]]
    width = max(kids.max(), 1)
    out_frac = np.zeros((M, width))
    out_attr, out_point = np.empty(M, np.int64), np.empty(M)
    for j in range(M):
        i = idx[j]
        out_attr[j], out_point[j] = attr[i], point[i]
        for b in range(kids[j]):
            out_frac[j, b] = frac[i, b]
    return (out_attr, out_point, leaf[idx], empty[idx], np.array(new_first), kids, out_frac, dists[idx],
            total[idx], wrong[idx])


@njit(cache=True)
def c45_post_grow(XT, y, all_rows, all_w, start, dists, total, wrong, empty, attr, point, frac, first, n_kids,
                  nominal, n_values, K, unpruned, raising, cf, z):
    """What J48 does after growing (collapse; prune unless ``unpruned``), on ``grow_tree``'s arrays
    (changed in place); returns the final tree breadth first: attribute, threshold, leaf, empty,
    first branch, number of branches, branch fractions, class weights, their totals and errors."""
    leaf = attr < 0
    _collapse(attr, point, leaf, first, n_kids, wrong)
    if not unpruned:
        node_rows = [all_rows[start[0]:start[1]]]
        node_w = [all_w[start[0]:start[1]]]
        for i in range(1, attr.shape[0]):
            node_rows.append(all_rows[start[i]:start[i + 1]])
            node_w.append(all_w[start[i]:start[i + 1]])
        _prune(node_rows, node_w, XT, y, attr, point, leaf, empty, first, n_kids, frac, dists, total, wrong,
               nominal, n_values, K, raising, cf, z)
    return _breadth_first(attr, point, leaf, empty, first, n_kids, frac, dists, total, wrong)
