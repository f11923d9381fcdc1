"""FURIA (Hühn & Hüllermeier 2009) as KEEL runs it (``keel.Algorithms.Fuzzy_Rule_Learning.Hybrid.FURIA``).

KEEL's FURIA is a port of WEKA's FURIA; Moreno-Torres et al. ran it with
KEEL's defaults (2 optimisation runs, 3 folds: 2 grow, 1 prune). What it does:

- **Unordered rule sets**, one per class (classes in index order, every class
  against all the others), learned like RIPPER: a building stage that grows
  rules *without pruning* on all the remaining data, kept while the
  description length stays within 64 bits of the best and the rule's error
  is below 1/2; then 2 optimisation runs that, for each rule, stratify the
  uncovered data (KEEL's MT19937 shuffles each class, folds are dealt
  round-robin), grow a replacement and a revision on 2/3 and prune them
  on 1/3 (accuracy ``(p + n') / T``), and keep the variant of least
  description length; residual positives get new rules; finally rules
  that increase the description length are deleted.
- **Growing** adds the condition of highest information gain
  ``p (log2((p+1)/(t+1)) - log2(rate))``; numeric conditions are
  ``x <= v`` or ``x >= v`` (both sides include the value ``v``) and may
  repeat; nominal ones ``x = v`` are used once; growing stops when fewer
  than 2 positives would remain covered.
- **Fuzzification**: each numeric condition becomes a trapezoid whose
  support is stretched, one condition at a time (the purest first), to
  the training value that maximises the fuzzy purity of the instances the
  rule's other conditions cover; conditions never fuzzified this way get
  the nearest training value beyond their split point as support.
- **Certainty factors**: per rule (and per prefix of it, for stretching)
  ``(sum of memberships of its class + 2 * prior) / (sum of memberships + 2)``.
- **Prediction**: the class with the largest sum of membership x certainty
  over covering rules; if no rule covers the instance, **rule stretching**:
  each rule is cut before its first condition that fails, weighted by
  ``(k' + 1) / (k + 2)`` (conditions left / before), and the best cut rule
  decides; ties between classes go to the more frequent class; if nothing
  applies, the class prior. ``predict_proba`` is KEEL's (and WEKA's)
  ``distributionForInstance``: one-hot on the winning class (prior-weighted
  between tied classes, or the prior when no rule applies), not the votes.

KEEL reads missing values as the value 0 (numeric) or the first declared
value (nominal), without marking them missing (its ``Instance`` leaves the
slot at 0.0); so does this class, in training and prediction.

The instance order matters to KEEL's result: the stratification shuffles
the data in its current order, and the sums of fuzzy memberships run in
that order. KEEL's data set is reordered in place by the quicksorts (WEKA's
``Instances.quickSort``, not stable) of the first growing step of each
class; we emulate those sorts (from the last attribute whose values are all
distinct, which fixes the order by itself). Everything else depends only on
which instances are involved, so growing uses presorted attributes and
instance masks.

Randomness: KEEL's MT19937 (:mod:`.keel_random`); the default seed
1286082570 is the first seed KEEL's experiment generator gives a method.
"""
from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic
from numba.typed import List

from .. import libm
from .base import TabularClassifier
from .keel_data import check_bounds, numeric_ranges, read_values
from .keel_random import mt_new, mt_randint_closed
from .keel_ripper import KEEL_DEFAULT_SEED, num_all_conditions
from .rule_growing import cut_lists, filter_cut_lists
from .rule_stats import SMALL, check_stop, data_dl, log2, potential, relative_dl, ruleset_stats

__all__ = ["FURIA", "furia_bundle"]

_LN2 = math.log(2.0)
_RULE = types.float64[::1]
_MASK = types.bool_[::1]
_BITS = types.uint64[::1]
_STATS = types.float64[::1]
_NAN = float("nan")
_EPS = 2.220446049250313e-16        # double precision's machine epsilon
_ERR_NONE, _ERR_DL = 0, 1


def furia_bundle(values: np.ndarray, nominal: np.ndarray, n_values: np.ndarray) -> tuple:
    """Arrays the kernels read: values by column, attribute types, stable presort per numeric
    attribute (indices, values), whether its values are all distinct, log(0..n+1), and the presort's
    length per attribute (n: no value is missing)."""
    n, d = values.shape
    XT = np.ascontiguousarray(values.T)
    order = np.zeros((d, n), dtype=np.int64)
    sorted_values = np.zeros((d, n))
    distinct = np.zeros(d, dtype=np.bool_)
    for a in range(d):
        if nominal[a]:
            continue
        o = np.argsort(XT[a], kind="mergesort")
        order[a] = o
        sorted_values[a] = XT[a, o]
        distinct[a] = n < 2 or bool(np.all(np.diff(sorted_values[a]) > 0))
    log_int = libm.log_integers(n + 2)
    return (XT, np.ascontiguousarray(nominal, dtype=np.bool_), np.ascontiguousarray(n_values, dtype=np.int64),
            order, sorted_values, distinct, log_int, np.full(d, n, dtype=np.int64))


# --- small helpers ----------------------------------------------------------

@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM's ctpop)."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)
    return types.uint64(types.uint64), codegen


@njit(cache=True)
def _to_bits(mask):
    """A boolean mask as a bitset (64 instances per word; unused bits 0)."""
    n = mask.shape[0]
    bits = np.zeros((n + 63) // 64, dtype=np.uint64)
    for i in range(n):
        if mask[i]:
            bits[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return bits


@njit(cache=True, inline="always")
def _bit(bits, i):
    return (bits[i >> 6] >> np.uint64(i & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _to_mask(bits, n):
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        out[i] = _bit(bits, i)
    return out


@njit(cache=True, inline="always")
def _antd_covers(att, value, split, x, is_nominal):
    """Crisp coverage of one antecedent: ``x = v`` (nominal), ``x <= split`` (bag 0), ``x >= split`` (bag 1)."""
    if is_nominal:
        return int(x) == int(value)
    if int(value) == 0:
        return x <= split
    return x >= split


@njit(cache=True)
def _rule_covers(rule, XT, nominal, i):
    for j in range(rule.shape[0] // 3):
        a = int(rule[3 * j])
        if not _antd_covers(a, rule[3 * j + 1], rule[3 * j + 2], XT[a, i], nominal[a]):
            return False
    return True


@njit(cache=True)
def _rule_coverage(rule, XT, nominal, mask):
    """Instances of ``mask`` the (crisp) rule covers."""
    out = np.zeros(mask.shape[0], dtype=np.bool_)
    for i in range(mask.shape[0]):
        if mask[i] and _rule_covers(rule, XT, nominal, i):
            out[i] = True
    return out


# --- WEKA's quicksort (instance order) and KEEL's stratification --------------

@njit(cache=True)
def _weka_quicksort(idx, v):
    """``Instances.quickSort`` on ``idx`` by the values ``v`` (kept aligned), in place."""
    n = idx.shape[0]
    if n < 2:
        return
    stack = np.empty(2 * n + 4, dtype=np.int64)
    top = 0
    stack[0] = 0
    stack[1] = n - 1
    top = 2
    while top > 0:
        right = stack[top - 1]
        left = stack[top - 2]
        top -= 2
        if left >= right:
            continue
        lo = left
        hi = right
        pivot = v[(lo + hi) // 2]
        while lo < hi:
            while v[lo] < pivot and lo < hi:
                lo += 1
            while v[hi] > pivot and lo < hi:
                hi -= 1
            if lo < hi:
                tv = v[lo]
                v[lo] = v[hi]
                v[hi] = tv
                ti = idx[lo]
                idx[lo] = idx[hi]
                idx[hi] = ti
                lo += 1
                hi -= 1
        if lo == hi and v[hi] > pivot:
            hi -= 1
        middle = hi
        stack[top] = left
        stack[top + 1] = middle
        stack[top + 2] = middle + 1
        stack[top + 3] = right
        top += 4
    return


@njit(cache=True)
def _sorts_of_first_step(order, D):
    """The data order after the first growing step of a class: a quicksort per numeric attribute."""
    XT, nominal, sort_idx, distinct = D[0], D[1], D[3], D[5]
    d = XT.shape[0]
    start = 0
    for a in range(d):
        if not nominal[a] and distinct[a]:
            start = a
    if not nominal[start] and distinct[start]:
        order = sort_idx[start].copy()           # all values distinct: the sorted order, whatever came before
        start += 1
    else:
        order = order.copy()
        start = 0
    v = np.empty(order.shape[0])
    for a in range(start, d):
        if nominal[a]:
            continue
        for t in range(order.shape[0]):
            v[t] = XT[a, order[t]]
        _weka_quicksort(order, v)
    return order


@njit(cache=True)
def _stratify(order, y, n_classes, folds, rng):
    """KEEL's RuleStats.stratify: shuffle each class (data order), deal the folds round-robin."""
    n = order.shape[0]
    counts = np.zeros(n_classes, dtype=np.int64)
    for t in range(n):
        counts[y[order[t]]] += 1
    starts = np.zeros(n_classes + 1, dtype=np.int64)
    for c in range(n_classes):
        starts[c + 1] = starts[c] + counts[c]
    bags = np.empty(n, dtype=np.int64)
    fill = starts[:n_classes].copy()
    for t in range(n):
        c = y[order[t]]
        bags[fill[c]] = order[t]
        fill[c] += 1
    for c in range(n_classes):
        s = starts[c]
        for j in range(counts[c] - 1, 0, -1):    # Instances.randomize
            r = mt_randint_closed(rng, 0, j)
            tmp = bags[s + j]
            bags[s + j] = bags[s + r]
            bags[s + r] = tmp
    out = np.empty(n, dtype=np.int64)
    q = 0
    for k in range(folds):
        offset = k
        bag = 0
        while True:
            stop = False
            while offset >= counts[bag]:
                offset -= counts[bag]
                bag += 1
                if bag >= n_classes:
                    stop = True
                    break
            if stop:
                break
            out[q] = bags[starts[bag] + offset]
            q += 1
            offset += folds
    return out


# --- growing and pruning (depend only on which instances) ---------------------

@njit(cache=True, inline="always")
def _gain_may_beat(a, c, l2def, bar, log_int):
    """Whether ``a * (log2((a+1)/(c+1)) - l2def)`` may exceed ``bar`` (table estimate, 1e-9 margin)."""
    if a * (0.0 - l2def) <= bar:
        return False
    log2r = (log_int[a + 1] - log_int[c + 1]) / _LN2
    g = a * (log2r - l2def)
    return g + 1e-9 * (a * (abs(log2r) + abs(l2def)) + 1.0) > bar


@njit(cache=True, inline="always")
def _gain(a, c, l2def, bar, log_int):
    """FURIA's information gain of a bag with ``a`` positives of ``c`` (-inf where it cannot beat ``bar``)."""
    if not _gain_may_beat(a, c, l2def, bar, log_int):
        return -np.inf
    return a * (log2((a + 1.0) / (c + 1.0)) - l2def)


@njit(cache=True)
def _grow(base, D, members, y, cl):
    """RipperRule.grow: extend ``base`` on the instances of ``members`` (class ``cl`` positive).

    Candidate conditions of a numeric attribute come from its instances in
    value order (:mod:`.rule_growing`'s cut-point lists, filtered as the coverage shrinks); the
    information gain is computed exactly only where it may beat the best
    so far (``_gain``).
    """
    XT, nominal, n_values, sort_idx, sort_val, log_int, sort_len = D[0], D[1], D[2], D[3], D[4], D[6], D[7]
    d, n = XT.shape
    lab = np.zeros(n, dtype=np.int8)          # 1: active positive, 2: active negative
    act = np.empty(n, dtype=np.int64)         # the active instances, in index order
    m = 0
    P = 0
    for i in range(n):
        if members[i]:
            act[m] = i
            m += 1
            if y[i] == cl:
                lab[i] = 1
                P += 1
            else:
                lab[i] = 2
    k0 = base.shape[0] // 3
    new = np.empty(3 * (k0 + 64))
    new[:3 * k0] = base
    k = k0
    if not m > SMALL:
        return new[:3 * k].copy()
    def_acc_rate = (P + 1.0) / (m + 1.0)
    used = np.zeros(d, dtype=np.bool_)
    num_unused = d + 1                          # WEKA counts the class attribute too
    for j in range(k0):
        a = int(base[3 * j])
        if nominal[a] and not used[a]:
            used[a] = True
            num_unused -= 1
    max_values = 1
    for a in range(d):
        max_values = max(max_values, n_values[a])
    cov = np.empty(max_values)
    acc = np.empty(max_values)
    S = np.empty((0, 0), dtype=np.int64)
    SV = np.empty((0, 0))
    L = np.zeros(d, dtype=np.int64)
    listed = False
    while m > 0 and num_unused > 0 and 1.0 - def_acc_rate > SMALL:
        if not listed:
            S, SV = cut_lists(XT, None, nominal, sort_idx, sort_val, sort_len, act, m, lab, L)
            listed = True
        l2def = log2(def_acc_rate)
        best_gain = 0.0
        best_att = -1
        best_value = 0.0
        best_split = 0.0
        best_rate = 0.0
        best_accu = 0.0
        for a in range(d):
            if used[a]:
                continue
            att_gain = 0.0
            value = 0.0
            split = 0.0
            rate = 0.0
            accu = 0.0
            if nominal[a]:
                for v in range(n_values[a]):
                    cov[v] = 0.0
                    acc[v] = 0.0
                for t in range(m):
                    i = act[t]
                    v = int(XT[a, i])
                    cov[v] += 1.0
                    acc[v] += lab[i] & 1
                for v in range(n_values[a]):
                    g = _gain(int(acc[v]), int(cov[v]), l2def, max(att_gain, best_gain), log_int)
                    if g > att_gain:
                        att_gain = g
                        accu = acc[v]
                        rate = (acc[v] + 1.0) / (cov[v] + 1.0)
                        value = float(v)
            else:
                fc = 0                              # first bag (x <= key): cover, positives
                fa = 0
                idx_row = S[a]
                val_row = SV[a]
                length = L[a]
                t = 0
                while t < length:
                    key = val_row[t]
                    gc = 0
                    gp = 0
                    while t < length and val_row[t] == key:     # listed instances are all active (lab 1 or 2)
                        gc += 1
                        gp += 2 - lab[idx_row[t]]
                        t += 1
                    sc = m - fc                     # second bag (x >= key) includes this group
                    sa = P - fa
                    fc += gc
                    fa += gp
                    bar = max(att_gain, best_gain)
                    fst = _gain(fa, fc, l2def, bar, log_int)
                    snd = _gain(sa, sc, l2def, bar, log_int)
                    if fst > snd:
                        g = fst
                    else:
                        g = snd
                    if g > att_gain:
                        att_gain = g
                        split = key
                        if fst > snd:
                            value = 0.0
                            accu = float(fa)
                            rate = (fa + 1.0) / (fc + 1.0)
                        else:
                            value = 1.0
                            accu = float(sa)
                            rate = (sa + 1.0) / (sc + 1.0)
            if att_gain > best_gain:
                best_gain = att_gain
                best_att = a
                best_value = value
                best_split = split
                best_rate = rate
                best_accu = accu
        if best_att == -1:
            break
        if 2.0 - best_accu > SMALL:           # too few positives covered
            break
        if nominal[best_att]:
            used[best_att] = True
            num_unused -= 1
        if 3 * (k + 1) > new.shape[0]:
            bigger = np.empty(2 * new.shape[0])
            bigger[:new.shape[0]] = new
            new = bigger
        new[3 * k] = best_att
        new[3 * k + 1] = best_value
        new[3 * k + 2] = best_split
        k += 1
        m2 = 0
        P = 0
        for t in range(m):
            i = act[t]
            if _antd_covers(best_att, best_value, best_split, XT[best_att, i], nominal[best_att]):
                act[m2] = i
                m2 += 1
                P += lab[i] & 1
            else:
                lab[i] = 0
        m = m2
        filter_cut_lists(S, SV, L, lab, nominal)
        def_acc_rate = best_rate
    return new[:3 * k].copy()


@njit(cache=True)
def _prune(rule, XT, nominal, prune_mask, y, cl):
    """RipperRule.prune with the whole-data accuracy ``(p + n') / T``; no change if no prefix beats the default."""
    n = prune_mask.shape[0]
    total = 0.0
    def_accu = 0.0
    for i in range(n):
        if prune_mask[i]:
            total += 1.0
            if y[i] == cl:
                def_accu += 1.0
    if not total > SMALL:
        return rule
    size = rule.shape[0] // 3
    if size == 0:
        return rule
    data = prune_mask.copy()
    tn = 0.0
    max_value = (def_accu + 1.0) / (total + 2.0)
    max_index = -1
    for x in range(size):
        a = int(rule[3 * x])
        worth = 0.0
        for i in range(n):
            if data[i]:
                if _antd_covers(a, rule[3 * x + 1], rule[3 * x + 2], XT[a, i], nominal[a]):
                    if y[i] == cl:
                        worth += 1.0
                else:
                    data[i] = False
                    if y[i] != cl:
                        tn += 1.0
        worth += tn
        rt = worth / total
        if rt > max_value:
            max_value = rt
            max_index = x
    if max_index == -1:
        return rule
    return rule[:3 * (max_index + 1)].copy()


# --- RuleStats on bitsets (description lengths: .rule_stats) -----------------

@njit(cache=True)
def _simple_stats(cov, data, pos):
    """computeSimpleStats of a rule covering ``cov`` over ``data`` (bitsets; ``pos``: the class's
    instances): (coverage, uncovered, TP, TN, FP, FN) and the uncovered instances."""
    unc = np.empty(data.shape[0], dtype=np.uint64)
    c = 0
    tp = 0
    u = 0
    fn = 0
    for w in range(data.shape[0]):
        covered = data[w] & cov[w]
        c += _popcount(covered)
        tp += _popcount(covered & pos[w])
        left = data[w] & ~cov[w]
        unc[w] = left
        u += _popcount(left)
        fn += _popcount(left & pos[w])
    st = np.zeros(6)
    st[0] = float(c)
    st[1] = float(u)
    st[2] = float(tp)
    st[3] = float(u - fn)
    st[4] = float(c - tp)
    st[5] = float(fn)
    return st, unc


@njit(cache=True, error_model="numpy")
def _relative_dl(rules, covs, stats, unc, all_mask, index, exp_fp, pos, total_conds):
    """RuleStats.relativeDL of the rule at ``index`` (the rules after it counted on the data it leaves)."""
    data = all_mask if index == 0 else unc[index - 1]
    after = List.empty_list(_STATS)
    for j in range(index + 1, len(rules)):
        st, u = _simple_stats(covs[j], data, pos)
        after.append(st)
        data = u
    return relative_dl(rules, 0, stats, index, after, exp_fp, True, total_conds)


@njit(cache=True)
def _add_and_update(rules, covs, stats, unc, all_mask, rule, cov, pos):
    data = all_mask if len(unc) == 0 else unc[len(unc) - 1]
    rules.append(rule)
    covs.append(cov)
    st, u = _simple_stats(cov, data, pos)
    stats.append(st)
    unc.append(u)


@njit(cache=True)
def _remove_last(rules, covs, stats, unc):
    rules.pop()
    covs.pop()
    stats.pop()
    unc.pop()


@njit(cache=True)
def _count_data_from(covs, index, uncovered, prev_stats, pos):
    """RuleStats.countData(index, uncovered, prevRuleStats): stats and filtered data from ``index`` on."""
    stats = List.empty_list(_STATS)
    unc = List.empty_list(_BITS)
    dummy = np.zeros(0, dtype=np.uint64)
    for i in range(index):
        stats.append(prev_stats[i])
        unc.append(uncovered if i + 1 == index else dummy)
    data = uncovered
    for j in range(index, len(covs)):
        st, u = _simple_stats(covs[j], data, pos)
        stats.append(st)
        unc.append(u)
        data = u
    return stats, unc


@njit(cache=True, error_model="numpy")
def _reduce_dl(rules, covs, stats, unc, all_mask, exp_fp, pos, total_conds):
    """RuleStats.reduceDL: delete rules (last first) whose deletion does not increase the DL."""
    need_update = False
    rs = ruleset_stats(stats)
    for k in range(len(stats) - 1, -1, -1):
        rule_st = stats[k]
        p = potential(rules, 0, k, exp_fp, rs, rule_st, True, total_conds)
        if not math.isnan(p):
            if k == len(stats) - 1:
                _remove_last(rules, covs, stats, unc)
            else:
                rules.pop(k)
                covs.pop(k)
                need_update = True
    if need_update:
        while len(stats) > 0:
            stats.pop()
            unc.pop()
        data = all_mask
        for j in range(len(rules)):
            st, u = _simple_stats(covs[j], data, pos)
            stats.append(st)
            unc.append(u)
            data = u


@njit(cache=True, error_model="numpy")
def _ruleset_for_class(D, y, n_classes, cl, exp_fp, def_dl, order, total_conds, optimizations, folds, rng, err):
    """rulesetForOneClass: the building stage, then the optimisation runs; returns the rules.

    Every rule travels with its (crisp) coverage of all instances, computed
    once as a bitset, so that RuleStats' counts are popcounts.
    """
    XT, nominal = D[0], D[1]
    n = XT.shape[1]
    all_bits = _to_bits(np.ones(n, dtype=np.bool_))
    pos = _to_bits(y == cl)
    empty = np.empty(0)
    ruleset = List.empty_list(_RULE)
    rs_covs = List.empty_list(_BITS)
    b_rules = List.empty_list(_RULE)
    b_covs = List.empty_list(_BITS)
    b_stats = List.empty_list(_STATS)
    b_unc = List.empty_list(_BITS)
    every = np.ones(n, dtype=np.bool_)
    new_data = every
    dl = def_dl
    min_dl = def_dl
    stop = False
    has_positive = True
    while not stop and has_positive:                              # building stage
        one = _grow(empty, D, new_data, y, cl)
        one_cov = _to_bits(_rule_coverage(one, XT, nominal, every))
        _add_and_update(b_rules, b_covs, b_stats, b_unc, all_bits, one, one_cov, pos)
        last = len(b_rules) - 1
        dl += _relative_dl(b_rules, b_covs, b_stats, b_unc, all_bits, last, exp_fp, pos, total_conds)
        if math.isnan(dl) or math.isinf(dl):
            err[0] = _ERR_DL
            return ruleset
        if dl < min_dl:
            min_dl = dl
        rst = b_stats[last]
        stop = check_stop(rst, min_dl, dl, True)
        if not stop:
            ruleset.append(one)
            rs_covs.append(one_cov)
            new_data = _to_mask(b_unc[last], n)
            has_positive = rst[5] - 0.0 > SMALL
        else:
            _remove_last(b_rules, b_covs, b_stats, b_unc)
    for _ in range(optimizations):                                 # optimisation stage
        new_order = order.copy()
        f_rules = List.empty_list(_RULE)
        f_covs = List.empty_list(_BITS)
        f_stats = List.empty_list(_STATS)
        f_unc = List.empty_list(_BITS)
        position = 0
        stop = False
        has_positive = True
        dl = def_dl
        min_dl = def_dl
        while not stop and has_positive:
            is_residual = position >= len(ruleset)
            new_order = _stratify(new_order, y, n_classes, folds, rng)
            n_new = new_order.shape[0]
            splits = n_new * (folds - 1) // folds
            new_mask = np.zeros(n, dtype=np.bool_)
            grow_mask = np.zeros(n, dtype=np.bool_)
            prune_mask = np.zeros(n, dtype=np.bool_)
            for t in range(n_new):
                new_mask[new_order[t]] = True
                if t < splits:
                    grow_mask[new_order[t]] = True
                else:
                    prune_mask[new_order[t]] = True
            if is_residual:
                final = _grow(empty, D, new_mask, y, cl)
                final_cov = _to_bits(_rule_coverage(final, XT, nominal, every))
            else:
                old, old_cov = ruleset[position], rs_covs[position]
                covers = False
                for t in range(n_new):
                    if _bit(old_cov, new_order[t]):
                        covers = True
                        break
                if not covers:                                     # no variants: keep it, data unchanged
                    _add_and_update(f_rules, f_covs, f_stats, f_unc, all_bits, old, old_cov, pos)
                    position += 1
                    continue
                replace = _grow(empty, D, grow_mask, y, cl)
                if position + 1 < len(ruleset):                   # rmCoveredBySuccessives
                    later = np.zeros(all_bits.shape[0], dtype=np.uint64)
                    for j in range(position + 1, len(ruleset)):
                        later |= rs_covs[j]
                    for i in range(n):
                        if prune_mask[i] and _bit(later, i):
                            prune_mask[i] = False
                replace = _prune(replace, XT, nominal, prune_mask, y, cl)
                replace_cov = _to_bits(_rule_coverage(replace, XT, nominal, every))
                rev_grow = grow_mask.copy()
                for i in range(n):
                    if rev_grow[i] and not _bit(old_cov, i):
                        rev_grow[i] = False
                revision = _grow(old, D, rev_grow, y, cl)
                revision = _prune(revision, XT, nominal, prune_mask, y, cl)
                revision_cov = _to_bits(_rule_coverage(revision, XT, nominal, every))
                new_bits = _to_bits(new_mask)
                prev = List.empty_list(_STATS)
                for c in range(position):
                    prev.append(f_stats[c])
                temp = List.empty_list(_RULE)
                temp_covs = List.empty_list(_BITS)
                for r in range(len(ruleset)):
                    temp.append(ruleset[r])
                    temp_covs.append(rs_covs[r])
                temp[position] = replace
                temp_covs[position] = replace_cov
                st, un = _count_data_from(temp_covs, position, new_bits, prev, pos)
                rep_dl = _relative_dl(temp, temp_covs, st, un, all_bits, position, exp_fp, pos, total_conds)
                if math.isnan(rep_dl) or math.isinf(rep_dl):
                    err[0] = _ERR_DL
                    return ruleset
                temp[position] = revision
                temp_covs[position] = revision_cov
                st, un = _count_data_from(temp_covs, position, new_bits, prev, pos)
                rev_dl = _relative_dl(temp, temp_covs, st, un, all_bits, position, exp_fp, pos, total_conds)
                if math.isnan(rev_dl) or math.isinf(rev_dl):
                    err[0] = _ERR_DL
                    return ruleset
                st, un = _count_data_from(rs_covs, position, new_bits, prev, pos)
                old_dl = _relative_dl(ruleset, rs_covs, st, un, all_bits, position, exp_fp, pos, total_conds)
                if math.isnan(old_dl) or math.isinf(old_dl):
                    err[0] = _ERR_DL
                    return ruleset
                if old_dl <= rev_dl and old_dl <= rep_dl:
                    final, final_cov = old, old_cov
                elif rev_dl <= rep_dl:
                    final, final_cov = revision, revision_cov
                else:
                    final, final_cov = replace, replace_cov
            _add_and_update(f_rules, f_covs, f_stats, f_unc, all_bits, final, final_cov, pos)
            rst = f_stats[position]
            if is_residual:
                dl += _relative_dl(f_rules, f_covs, f_stats, f_unc, all_bits, position, exp_fp, pos, total_conds)
                if dl < min_dl:
                    min_dl = dl
                stop = check_stop(rst, min_dl, dl, True)
                if not stop:
                    ruleset.append(final)
                    rs_covs.append(final_cov)
                else:
                    _remove_last(f_rules, f_covs, f_stats, f_unc)
                    position -= 1
            else:
                ruleset[position] = final
                rs_covs[position] = final_cov
            if len(f_rules) > 0:                                   # the data not covered, in data order
                unc_bits = f_unc[position]
                q = 0
                for t in range(order.shape[0]):
                    if _bit(unc_bits, order[t]):
                        q += 1
                new_order = np.empty(q, dtype=np.int64)
                q = 0
                for t in range(order.shape[0]):
                    if _bit(unc_bits, order[t]):
                        new_order[q] = order[t]
                        q += 1
            has_positive = rst[5] - 0.0 > SMALL
            position += 1
        if len(ruleset) > position + 1:                            # WEKA skips the rule at ``position``
            for k in range(position + 1, len(ruleset)):
                _add_and_update(f_rules, f_covs, f_stats, f_unc, all_bits, ruleset[k], rs_covs[k], pos)
        _reduce_dl(f_rules, f_covs, f_stats, f_unc, all_bits, exp_fp, pos, total_conds)
        ruleset = f_rules
        rs_covs = f_covs
    return ruleset


# --- fuzzification and certainty ----------------------------------------------

@njit(cache=True, inline="always")
def _fuzzy_covers(a, value, split, bound, fuzzy, x, is_nominal):
    """Membership of ``x`` in one (possibly fuzzy) antecedent (NumericAntd/NominalAntd.covers)."""
    if is_nominal:
        return 1.0 if int(x) == int(value) else 0.0
    if int(value) == 0:
        if x <= split:
            return 1.0
        if fuzzy and x > split and x < bound:
            return 1 - ((x - split) / (bound - split))
        return 0.0
    if x >= split:
        return 1.0
    if fuzzy and x < split and x > bound:
        return 1 - ((split - x) / (split - bound))
    return 0.0


@njit(cache=True)
def _purity_le(sx, pos, first, k, sp, b, count, count_pos):
    """Fuzzy purity of ``x <= sp`` with support ``b`` over the sorted ``sx``: the sums run in value
    order as KEEL's, the crisp part (``first`` instances with x <= sp, ``count_pos`` of the class)
    first, then the memberships of ``sp < x < b`` (positions ``first .. k-1``), then zeros."""
    cover = float(count)
    accu = float(count_pos)
    for t in range(first, k):
        mu = _fuzzy_covers(0, 0.0, sp, b, True, sx[t], False)
        cover += mu
        if pos[t]:
            accu += mu
    return accu, cover


@njit(cache=True)
def _purity_ge(sx, pos, k, last, m, sp, b):
    """Fuzzy purity of ``x >= sp`` with support ``b``: zeros, the memberships of ``b < x < sp``
    (positions ``k+1 .. last-1``), then one per instance from ``last`` on, added one at a time."""
    cover = 0.0
    accu = 0.0
    for t in range(k + 1, last):
        mu = _fuzzy_covers(0, 1.0, sp, b, True, sx[t], False)
        cover += mu
        if pos[t]:
            accu += mu
    for t in range(last, m):
        cover += 1.0
        if pos[t]:
            accu += 1.0
    return accu, cover


@njit(cache=True)
def _support_bounds(att, value, split, bound, fuzzy, XT, nominal, sort_idx, sort_val, y, cl):
    """findAndSetSupportBoundForKnownAntecedents (all weights one), in place on ``bound``/``fuzzy``.

    KEEL sums memberships over the instances sorted by value; only the
    non-trivial terms are computed here, in the same order (see
    ``_purity_le``/``_purity_ge``), and only for candidates whose purity,
    estimated from prefix sums with a bound on its rounding error, may
    reach the best one or decide KEEL's early stop.
    """
    K = att.shape[0]
    n = XT.shape[1]
    max_purity = -np.inf
    finished = np.zeros(K, dtype=np.bool_)
    n_finished = 0
    zero = np.zeros((K, n), dtype=np.bool_)        # antecedent k does not cover instance i (current state)
    zeros_of = np.zeros(n, dtype=np.int64)
    for k in range(K):
        for i in range(n):
            if _fuzzy_covers(att[k], value[k], split[k], bound[k], fuzzy[k], XT[att[k], i], nominal[att[k]]) == 0:
                zero[k, i] = True
                zeros_of[i] += 1
    sx = np.empty(n + 1)                       # one spare slot for the branch-free filter
    sy = np.empty(n + 1, dtype=np.bool_)
    while n_finished < K:
        max_all = -np.inf
        best_j = -1
        best_bound = _NAN
        for j in range(K):
            if finished[j]:
                continue
            a = att[j]
            m = 0
            if not nominal[a]:                  # the instances the other antecedents cover, in value order
                for t in range(n):              # (the stable presort filtered: ties in index order)
                    i = sort_idx[a, t]
                    sx[m] = sort_val[a, t]
                    sy[m] = y[i] == cl
                    m += zeros_of[i] - int(zero[j, i]) == 0
            if nominal[a] or m == 0:
                finished[j] = True
                n_finished += 1
                continue
            sp = split[j]
            # prefix sums of (x - sp) over all and over the class's instances, and of the class count:
            # estimates of every candidate's sums in O(1); KEEL's sums (in its order) are computed only
            # where the estimate, within its error bound, cannot decide a comparison
            dist = np.zeros(m + 1)
            dist_pos = np.zeros(m + 1)
            n_pos = np.zeros(m + 1, dtype=np.int64)
            total = 0.0
            for t in range(m):
                dist[t + 1] = dist[t] + (sx[t] - sp)
                dist_pos[t + 1] = dist_pos[t] + ((sx[t] - sp) if sy[t] else 0.0)
                n_pos[t + 1] = n_pos[t] + (1 if sy[t] else 0)
                total += abs(sx[t] - sp)
            max_this = 0.0
            best_found = _NAN
            last_accu = 0.0                     # KEEL's sums of the last candidate (exact when last_known)
            last_cover = 0.0
            last_known = True
            last_k = -1
            last_err = 0.0
            if int(value[j]) == 0:
                first = 0                       # instances with x <= sp, of the class
                first_pos = 0
                while first < m and sx[first] <= sp:
                    if sy[first]:
                        first_pos += 1
                    first += 1
                for k in range(1, m):
                    r = m - k - 1
                    if not last_known:          # KEEL's stopping test on estimates, exact where they cannot tell
                        est = (last_accu + r) / (last_cover + r)
                        margin = 4.0 * last_err / (last_cover + r - last_err) if last_cover + r > 2.0 * last_err \
                            else np.inf
                        if est < max_this - margin:
                            break
                        if not est > max_this + margin:
                            last_accu, last_cover = _purity_le(sx, sy, first, last_k, sp, sx[last_k], first,
                                                               first_pos)
                            last_known = True
                    if last_known and (last_accu + r) / (last_cover + r) < max_this:
                        break
                    if sp < sx[k] and sx[k] != sx[k - 1]:
                        b = sx[k]
                        w = 1.0 / (b - sp)
                        cover = first + (k - first) - (dist[k] - dist[first]) * w
                        accu = first_pos + (n_pos[k] - n_pos[first]) - (dist_pos[k] - dist_pos[first]) * w
                        err = 4.0 * (m + 2) * _EPS * (total * w + m + 2)
                        exact = cover <= 2.0 * err
                        if not exact:
                            margin = 4.0 * err / (cover - err)
                            exact = accu / cover >= max_this - margin
                        if exact:
                            accu, cover = _purity_le(sx, sy, first, k, sp, b, first, first_pos)
                            purity = accu / cover
                            if purity >= max_this:
                                max_this = purity
                                best_found = b
                        last_accu = accu
                        last_cover = cover
                        last_known = exact
                        last_k = k
                        last_err = err
            else:
                last = m                        # instances with x >= sp start at ``last``
                while last > 0 and sx[last - 1] >= sp:
                    last -= 1
                for k in range(m - 2, -1, -1):
                    if not last_known:
                        est = (last_accu + k) / (last_cover + k)
                        margin = 4.0 * last_err / (last_cover + k - last_err) if last_cover + k > 2.0 * last_err \
                            else np.inf
                        if est < max_this - margin:
                            break
                        if not est > max_this + margin:
                            last_accu, last_cover = _purity_ge(sx, sy, last_k, last, m, sp, sx[last_k])
                            last_known = True
                    if last_known and (last_accu + k) / (last_cover + k) < max_this:
                        break
                    if sp > sx[k] and sx[k] != sx[k + 1]:
                        b = sx[k]
                        w = 1.0 / (sp - b)
                        lo = k + 1
                        hi = max(last, lo)
                        cover = (hi - lo) + (dist[hi] - dist[lo]) * w + (m - last)
                        accu = (n_pos[hi] - n_pos[lo]) + (dist_pos[hi] - dist_pos[lo]) * w + (n_pos[m] - n_pos[last])
                        err = 4.0 * (m + 2) * _EPS * (total * w + m + 2)
                        exact = cover <= 2.0 * err
                        if not exact:
                            margin = 4.0 * err / (cover - err)
                            exact = accu / cover >= max_this - margin
                        if exact:
                            accu, cover = _purity_ge(sx, sy, k, last, m, sp, b)
                            purity = accu / cover
                            if purity >= max_this:
                                max_this = purity
                                best_found = b
                        last_accu = accu
                        last_cover = cover
                        last_known = exact
                        last_k = k
                        last_err = err
            if max_this > max_all:
                best_j = j
                best_bound = best_found
                max_all = max_this
        if best_j == -1:
            return
        if max_purity <= max_all:
            if math.isnan(best_bound):
                bound[best_j] = split[best_j]
            else:
                bound[best_j] = best_bound
                fuzzy[best_j] = True
                a = att[best_j]                 # its memberships changed: update which instances it covers
                for i in range(n):
                    z = _fuzzy_covers(a, value[best_j], split[best_j], bound[best_j], True, XT[a, i], False) == 0
                    if z != zero[best_j, i]:
                        zeros_of[i] += 1 if z else -1
                        zero[best_j, i] = z
            max_purity = max_all
        finished[best_j] = True
        n_finished += 1


@njit(cache=True, error_model="numpy")
def _furia_fit(D, y, n_classes, total_conds, optimizations, folds, seed):
    """FURIA's buildClassifier; returns the rules (flat arrays) and an error code."""
    XT, nominal = D[0], D[1]
    n = XT.shape[1]
    err = np.zeros(1, dtype=np.int64)
    prior = np.zeros(n_classes)
    for i in range(n):
        prior[y[i]] += 1.0
    prior_sum = 0.0
    for c in range(n_classes):
        prior_sum += prior[c]
    rng = mt_new(seed)
    order = np.arange(n)
    all_rules = List.empty_list(_RULE)
    owners = List.empty_list(types.int64)
    for cl in range(n_classes):
        if prior[cl] - 0.0 < SMALL and 0.0 - prior[cl] < SMALL:
            continue
        exp_fp = prior[cl] / prior_sum
        def_dl = data_dl(exp_fp, 0.0, float(n), 0.0, prior[cl])
        if n > 0 and 1.0 - (prior[cl] + 1.0) / (n + 1.0) > SMALL:
            order = _sorts_of_first_step(order, D)                # the first growing step sorts the data
        rules = _ruleset_for_class(D, y, n_classes, cl, exp_fp, def_dl, order, total_conds, optimizations,
                                   folds, rng, err)
        if err[0] != _ERR_NONE:
            break
        for r in rules:
            all_rules.append(r)
            owners.append(cl)
    # flatten, merging repeated conditions (same attribute and bag/value: the later one takes the place)
    n_rules = len(all_rules)
    offsets = np.zeros(n_rules + 1, dtype=np.int64)
    merged = List.empty_list(_RULE)
    for r in range(n_rules):
        rule = all_rules[r]
        k = rule.shape[0] // 3
        att = List.empty_list(types.float64)
        val = List.empty_list(types.float64)
        spl = List.empty_list(types.float64)
        for j in range(k):
            att.append(rule[3 * j])
            val.append(rule[3 * j + 1])
            spl.append(rule[3 * j + 2])
        j = 0
        while j < len(att):
            a0 = att[j]
            v0 = val[j]
            q = j + 1
            while q < len(att):
                if att[q] == a0 and val[q] == v0:
                    att[j] = att[q]
                    val[j] = val[q]
                    spl[j] = spl[q]
                    att.pop(q)
                    val.pop(q)
                    spl.pop(q)
                else:
                    q += 1
            j += 1
        out = np.empty(3 * len(att))
        for j in range(len(att)):
            out[3 * j] = att[j]
            out[3 * j + 1] = val[j]
            out[3 * j + 2] = spl[j]
        merged.append(out)
        offsets[r + 1] = offsets[r] + len(att)
    total = offsets[n_rules]
    A = np.empty(total, dtype=np.int64)
    V = np.empty(total)
    S = np.empty(total)
    B = np.full(total, _NAN)
    F = np.zeros(total, dtype=np.bool_)
    owner = np.empty(n_rules, dtype=np.int64)
    for r in range(n_rules):
        owner[r] = owners[r]
        for j in range(offsets[r + 1] - offsets[r]):
            A[offsets[r] + j] = int(merged[r][3 * j])
            V[offsets[r] + j] = merged[r][3 * j + 1]
            S[offsets[r] + j] = merged[r][3 * j + 2]
    for r in range(n_rules):                                       # fuzzification
        lo, hi = offsets[r], offsets[r + 1]
        _support_bounds(A[lo:hi], V[lo:hi], S[lo:hi], B[lo:hi], F[lo:hi], XT, nominal, D[3], D[4], y, owner[r])
    for r in range(n_rules):                                       # never fuzzified: nearest value beyond
        for j in range(offsets[r], offsets[r + 1]):
            a = A[j]
            if nominal[a] or F[j]:
                continue
            for i in range(n):
                x = XT[a, i]
                if (int(V[j]) == 1 and S[j] > x and (B[j] < x or not F[j])) or \
                        (int(V[j]) == 0 and S[j] < x and (B[j] > x or not F[j])):
                    B[j] = x
                    F[j] = True
    conf = np.zeros(total)                                         # certainty factors of every prefix
    acc = np.empty(total)
    cov = np.empty(total)
    for r in range(n_rules):
        lo, hi = offsets[r], offsets[r + 1]
        cl = owner[r]
        for j in range(lo, hi):
            acc[j] = 0.0
            cov[j] = 0.0
        for t in range(n):                  # data order; the prefix products 1 * mu_1 * mu_2 ... as KEEL's
            i = order[t]
            m = 1.0
            for j in range(lo, hi):
                m *= _fuzzy_covers(A[j], V[j], S[j], B[j], F[j], XT[A[j], i], nominal[A[j]])
                cov[j] += m
                if y[i] == cl:
                    acc[j] += m
        for j in range(lo, hi):
            conf[j] = (acc[j] + 2.0 * (prior[cl] / prior_sum)) / (cov[j] + 2.0)
    return owner, offsets, A, V, S, B, F, conf, prior, err[0]


@njit(cache=True, error_model="numpy")
def _furia_distribution(XT, nominal, owner, offsets, A, V, S, B, F, conf, prior, n_classes):
    """distributionForInstance for every instance (columns of ``XT``)."""
    n = XT.shape[1]
    out = np.zeros((n, n_classes))
    prior_sum = 0.0
    for c in range(n_classes):
        prior_sum += prior[c]
    votes = np.zeros(n_classes)
    for i in range(n):
        for c in range(n_classes):
            votes[c] = 0.0
        for r in range(owner.shape[0]):
            lo, hi = offsets[r], offsets[r + 1]
            if hi == lo:
                continue
            mu = 1.0
            for j in range(lo, hi):
                mu *= _fuzzy_covers(A[j], V[j], S[j], B[j], F[j], XT[A[j], i], nominal[A[j]])
            if mu != 0:
                votes[owner[r]] += mu * conf[hi - 1]
        total = 0.0
        for c in range(n_classes):
            total += votes[c]
        if total == 0:                                             # rule stretching
            max_conf = -np.inf
            for r in range(owner.shape[0]):
                lo, hi = offsets[r], offsets[r + 1]
                before = hi - lo
                cut = hi
                for j in range(lo, hi):
                    if _fuzzy_covers(A[j], V[j], S[j], B[j], F[j], XT[A[j], i], nominal[A[j]]) == 0:
                        cut = j
                        break
                after = cut - lo
                if after == 0:
                    continue
                second = (after + 1.0) / (before + 2.0)
                mu = 1.0
                for j in range(lo, cut):
                    mu *= _fuzzy_covers(A[j], V[j], S[j], B[j], F[j], XT[A[j], i], nominal[A[j]])
                score = conf[cut - 1] * second * mu
                if score >= max_conf:
                    max_conf = score
                    for c in range(n_classes):
                        votes[c] = 0.0
                    votes[owner[r]] = 1.0
        best = 0
        for c in range(1, n_classes):
            if votes[c] > votes[best]:
                best = c
        ties = 0.0
        for c in range(n_classes):
            if votes[c] == votes[best] and votes[c] > 0:
                ties += 1.0
        if ties > 0:
            for c in range(n_classes):
                if votes[c] == votes[best] and votes[c] > 0:
                    votes[c] = 1.0 * (prior[c] / prior_sum)
                else:
                    votes[c] = 0.0
        total = 0.0
        for c in range(n_classes):
            total += votes[c]
        if total == 0:
            for c in range(n_classes):
                votes[c] = prior[c]
            total = prior_sum
        for c in range(n_classes):
            out[i, c] = votes[c] / total
    return out


class FURIA(TabularClassifier):
    """KEEL's FURIA: fuzzy unordered rules (2 optimisation runs, 3 folds, KEEL's MT19937 ``seed``).

    ``rules_`` lists the rules as ``(class index, certainty, [antecedent, ...])``
    where a numeric antecedent is ``(attribute, "<=" or ">=", split, support)``
    (``support`` is where the trapezoid reaches 0; NaN if crisp) and a nominal
    one ``(attribute, "=", value code, nan)``.

    ``bounds``: declared ``[min, max]`` per attribute (``keel_bounds`` of the
    whole data set reproduces KEEL's partitions); KEEL clamps test values
    into them. Default: the training fold's ranges (see :mod:`.keel_data`).
    """

    def __init__(self, optimizations=2, folds=3, seed=KEEL_DEFAULT_SEED, bounds=None):
        self.optimizations = optimizations
        self.folds = folds
        self.seed = seed
        self.bounds = bounds

    def _check_params(self):
        for name, low in (("optimizations", 0), ("folds", 2)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)):
            raise ValueError(f"seed must be an integer (KEEL's long seed), got {self.seed!r}")

    def _fit(self, X, y):
        self._check_params()
        nominal = self.schema_.nominal
        self.lo_, self.hi_ = numeric_ranges(X, nominal, check_bounds(self.bounds, X.shape[1]))
        values = read_values(X, nominal, self.lo_, self.hi_, test=False)
        n_values = self.schema_.n_values
        D = furia_bundle(values, nominal, n_values)
        total_conds = num_all_conditions(values, nominal, n_values)
        out = _furia_fit(D, np.ascontiguousarray(y, dtype=np.int64), len(self.classes_), total_conds,
                         int(self.optimizations), int(self.folds), int(self.seed))
        if out[-1] != _ERR_NONE:
            raise RuntimeError("KEEL's FURIA fails on this training set: a description length is NaN or "
                               "infinite (KEEL stops with 'Should never happen'); no model")
        (self._owner, self._offsets, self._att, self._value, self._split, self._bound, self._fuzzy,
         self._conf, self.prior_) = out[:-1]
        return self

    @property
    def rules_(self):
        out = []
        for r in range(self._owner.shape[0]):
            lo, hi = self._offsets[r], self._offsets[r + 1]
            antds = []
            for j in range(lo, hi):
                a = int(self._att[j])
                if self.schema_.nominal[a]:
                    antds.append((a, "=", float(self._value[j]), float("nan")))
                else:
                    op = "<=" if int(self._value[j]) == 0 else ">="
                    support = float(self._bound[j]) if self._fuzzy[j] else float("nan")
                    antds.append((a, op, float(self._split[j]), support))
            conf = float(self._conf[hi - 1]) if hi > lo else float("nan")
            out.append((int(self._owner[r]), conf, antds))
        return out

    def _predict_proba(self, X):
        values = read_values(X, self.schema_.nominal, self.lo_, self.hi_, test=True)
        return _furia_distribution(np.ascontiguousarray(values.T), self.schema_.nominal, self._owner, self._offsets,
                                   self._att, self._value, self._split, self._bound, self._fuzzy, self._conf,
                                   self.prior_, len(self.classes_))

    def _predict_codes(self, X):
        P = self._predict_proba(X)
        return np.argmax(P, axis=1)
