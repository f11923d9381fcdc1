"""Compiled core of :class:`cvrepro.learners.jrip.JRip`: RIPPER as WEKA 3.6's JRip runs it.

Everything a fit does after the class order is fixed happens here, in one numba
call: per class, the building stage (grow on 2/3 of the stratified data, prune
on the rest, stop by description length), ``optimizations`` rounds of
replacement/revision, and the description-length reduction of the rule set.

Data are row indices into the encoded matrix ``X`` (NaN = missing, nominal
values as codes); all instance weights are 1, so every count is an exact
integer and only the order of the rows that feed the random stratification
must follow WEKA's (which it does: the same lists, filtered the same way).
A rule is a float array ``[class, attr, value, split, attr, value, split, ...]``:
``value`` is the nominal code, or 0 (``x <= split``) / 1 (``x >= split``) for a
numeric attribute. A rule set's statistics (WEKA's ``RuleStats``) are four
typed lists: rules, per-rule counts ``[cover, uncover, tp, tn, fp, fn]``, the
rows each rule leaves uncovered, and per-rule class counts; their description
lengths are :mod:`cvrepro.learners.rule_stats`' (shared with FURIA).

``java.util.Random`` and ``Instances.randomize`` are the numba functions of
:mod:`cvrepro.learners.java` (the state is a one-element uint64 array).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, types
from numba.typed import List

from .java import randomize
from .rule_stats import (
    SMALL,
    check_stop,
    data_dl,
    gr,
    log2,
    n_antds,
    potential,
    relative_dl,
    ruleset_stats,
)

_LN2 = math.log(2.0)

_RULE = types.float64[::1]
_ROWS = types.int64[::1]
_COUNTS = types.float64[::1]


# --- rules --------------------------------------------------------------------

@njit(cache=True, error_model="numpy")
def _covers_at(rules, start, end, XT, nominal, r):
    """Whether row ``r`` satisfies every condition of the rule stored in ``rules[start:end]``.

    One loop over a flat array: this is the hot path (typed-list lookups and
    nested calls per row cost far more than the test itself).
    """
    for a in range(start + 1, end, 3):
        j = int(rules[a])
        x = XT[j, r]
        if x != x:
            return False
        if nominal[j]:
            if int(x) != int(rules[a + 1]):
                return False
        elif rules[a + 1] == 0:
            if x > rules[a + 2]:
                return False
        elif x < rules[a + 2]:
            return False
    return True


@njit(cache=True, error_model="numpy")
def _covers(rule, XT, nominal, r):
    return _covers_at(rule, 0, rule.shape[0], XT, nominal, r)


@njit(cache=True, error_model="numpy")
def _flatten(rules, start):
    """``rules[start:]`` as one flat array and offsets (for the per-row loops)."""
    offsets = np.zeros(max(len(rules) - start, 0) + 1, dtype=np.int64)
    for i in range(start, len(rules)):
        offsets[i - start + 1] = offsets[i - start] + rules[i].shape[0]
    flat = np.empty(offsets[-1])
    for i in range(start, len(rules)):
        flat[offsets[i - start]:offsets[i - start + 1]] = rules[i]
    return flat, offsets


@njit(cache=True, error_model="numpy")
def _with_antd(rule, j, value, split):
    out = np.empty(rule.shape[0] + 3)
    out[:rule.shape[0]] = rule
    out[rule.shape[0]] = j
    out[rule.shape[0] + 1] = value
    out[rule.shape[0] + 2] = split
    return out


@njit(cache=True, error_model="numpy")
def _sort_subset(rows, positive, nominal, ctx):
    """Each numeric attribute's known values of ``rows``, ascending, into the scratch lists of ``ctx``.

    With each value go its row and whether it is a positive (``positive[row]``).
    Small subsets are sorted by their presorted ranks; large ones are picked out of
    the presorted columns with a membership mask.
    """
    sorted_rows, sorted_vals, n_known, rank, member, sub_rows, sub_vals, sub_pos, sub_len = ctx[:9]
    s = rows.shape[0]
    for r in rows:
        member[r] = True
    for j in range(nominal.shape[0]):
        if nominal[j]:
            continue
        t = 0
        if s * (math.log(s + 1.0) + 1.0) < n_known[j]:
            ranks = np.empty(s, dtype=np.int64)
            for r in rows:
                if rank[j, r] >= 0:
                    ranks[t] = rank[j, r]
                    t += 1
            ranks = np.sort(ranks[:t])
            for i in range(t):
                r = sorted_rows[j, ranks[i]]
                sub_rows[j, i] = r
                sub_vals[j, i] = sorted_vals[j, ranks[i]]
                sub_pos[j, i] = positive[r]
        else:
            for i in range(n_known[j]):
                r = sorted_rows[j, i]
                if member[r]:
                    sub_rows[j, t] = r
                    sub_vals[j, t] = sorted_vals[j, i]
                    sub_pos[j, t] = positive[r]
                    t += 1
        sub_len[j] = t
    for r in rows:
        member[r] = False


@njit(cache=True, error_model="numpy")
def _keep_subset(rows, nominal, ctx):
    """Shrink the sorted scratch lists of ``ctx`` to the rows of ``rows`` (a subset of them)."""
    member, sub_rows, sub_vals, sub_pos, sub_len = ctx[4], ctx[5], ctx[6], ctx[7], ctx[8]
    for r in rows:
        member[r] = True
    for j in range(nominal.shape[0]):
        if nominal[j]:
            continue
        t = 0
        for i in range(sub_len[j]):
            r = sub_rows[j, i]
            if member[r]:
                sub_rows[j, t] = r
                sub_vals[j, t] = sub_vals[j, i]
                sub_pos[j, t] = sub_pos[j, i]
                t += 1
        sub_len[j] = t
    for r in rows:
        member[r] = False


@njit(cache=True, error_model="numpy")
def _numeric_split(vals, pos, log_def, floor):
    """WEKA's NumericAntd.splitData on values ``vals`` (ascending; ``pos``: positive or not).

    The best bag ``x <= v`` or ``x >= v``: returns (gain, bag 0/1, split value,
    covered range lo:hi, covered positives, accuracy rate). A bag's gain is
    ``p * (log2(r) - log_def)`` with ``r = (p + 1) / (t + 1) <= 1``; since
    ``ln r <= 2 (r - 1) / (r + 1)`` there, the gain is at most
    ``p * (2 (r - 1) / ((r + 1) ln 2) - log_def)``. Where that bound (with a margin
    far above rounding) cannot beat ``floor`` (the best gain of the attributes
    before) or this attribute's best so far, the logarithm is skipped: such a bag
    could not change the chosen condition, so the result is WEKA's exactly.
    """
    total = vals.shape[0]
    snd_cover, snd_accu = float(total), 0.0
    for i in range(total):
        snd_accu += pos[i]
    fst_cover, fst_accu = 0.0, 0.0
    crude = 0.0 - log_def
    gain, value, split, lo, hi, accu, rate = 0.0, 0, vals[total - 1], 0, 0, 0.0, 0.0
    prev = 0
    while prev < total:
        v0 = vals[prev]
        block_pos = float(pos[prev])
        end = prev + 1
        while end < total and not (vals[end] > v0):
            block_pos += pos[end]
            end += 1
        fst_cover += end - prev
        fst_accu += block_pos
        limit = max(gain, floor)
        fst_open = fst_accu * crude > limit                 # p * (0 - log_def) bounds the gain exactly
        snd_open = snd_accu * crude > limit
        if fst_open or snd_open:
            fst_rate = (fst_accu + 1.0) / (fst_cover + 1.0)
            snd_rate = (snd_accu + 1.0) / (snd_cover + 1.0)
            if fst_open:
                bound = fst_accu * (2.0 * (fst_rate - 1.0) / ((fst_rate + 1.0) * _LN2) - log_def)
                fst_open = bound + 1e-9 * (abs(bound) + 1.0) > limit
            if snd_open:
                bound = snd_accu * (2.0 * (snd_rate - 1.0) / ((snd_rate + 1.0) * _LN2) - log_def)
                snd_open = bound + 1e-9 * (abs(bound) + 1.0) > limit
        if fst_open or snd_open:
            fst_gain = fst_accu * (log2(fst_rate) - log_def) if fst_open else -math.inf
            snd_gain = snd_accu * (log2(snd_rate) - log_def) if snd_open else -math.inf
            if fst_gain > snd_gain:
                g, first, g_rate, g_accu = fst_gain, True, fst_rate, fst_accu
            else:
                g, first, g_rate, g_accu = snd_gain, False, snd_rate, snd_accu
            if g > gain:
                gain, split, rate, accu = g, v0, g_rate, g_accu
                value = 0 if first else 1
                lo, hi = (0, end) if first else (prev, total)
        snd_cover -= end - prev
        snd_accu -= block_pos
        prev = end
    return gain, value, split, lo, hi, accu, rate


@njit(cache=True, error_model="numpy")
def grow(rule, rows, XT, y, nominal, n_values, min_no, ctx):
    """Add conditions to ``rule`` by FOIL's information gain on ``rows`` (WEKA's RipperRule.grow).

    ``ctx``: the presorted columns and scratch lists (see :func:`fit_rules`).
    """
    sub_rows, sub_vals, sub_pos, sub_len, codes = ctx[5], ctx[6], ctx[7], ctx[8], ctx[9]
    cls = int(rule[0])
    n_attrs = XT.shape[0]
    if not gr(float(rows.shape[0]), 0.0):
        return rule
    def_accu = 0.0
    for r in rows:
        if y[r] == cls:
            def_accu += 1.0
    def_ac_rt = (def_accu + 1.0) / (rows.shape[0] + 1.0)
    used = np.zeros(n_attrs, dtype=np.bool_)
    for a in range(n_antds(rule, 1)):
        j = int(rule[1 + 3 * a])
        if nominal[j]:
            used[j] = True
    data = rows
    positive = np.zeros(y.shape[0], dtype=np.uint8)
    for r in rows:
        positive[r] = y[r] == cls
    _sort_subset(rows, positive, nominal, ctx)
    counts = np.zeros((max(n_values.max(), 1), 2))
    while data.shape[0] > 0 and (1.0 - def_ac_rt > SMALL):
        best_gain = 0.0
        best_j, best_value, best_split = -1, 0.0, 0.0
        best_accu, best_rate, best_lo, best_hi = 0.0, 0.0, 0, 0
        log_def = log2(def_ac_rt)
        for j in range(n_attrs):
            if used[j]:
                continue
            if nominal[j]:
                nv = n_values[j]
                counts[:nv] = 0.0                                # per value: covered, positives covered
                for r in data:
                    v = codes[j, r]
                    if v >= 0:
                        counts[v, 0] += 1.0
                        counts[v, 1] += positive[r]
                gain, value = 0.0, -1
                for v in range(nv):
                    g = counts[v, 1] * (log2((counts[v, 1] + 1.0) / (counts[v, 0] + 1.0)) - log_def)
                    if g > gain:
                        gain, value = g, v
                if value >= 0 and gain > best_gain:
                    best_gain, best_j, best_value, best_split = gain, j, float(value), math.nan
                    best_accu = counts[value, 1]
                    best_rate = (counts[value, 1] + 1.0) / (counts[value, 0] + 1.0)
            elif sub_len[j] > 0:
                n = sub_len[j]
                gain, value, split, lo, hi, accu, rate = _numeric_split(sub_vals[j, :n], sub_pos[j, :n], log_def,
                                                                        best_gain)
                if gain > best_gain:
                    best_gain, best_j, best_value, best_split = gain, j, float(value), split
                    best_accu, best_rate, best_lo, best_hi = accu, rate, lo, hi
        if best_j < 0:
            break
        if min_no - best_accu > SMALL:          # Utils.sm(accu, minNo): too little coverage
            break
        if nominal[best_j]:
            used[best_j] = True
        rule = _with_antd(rule, best_j, best_value, best_split)
        if nominal[best_j]:
            keep = np.empty(data.shape[0], dtype=np.int64)
            t = 0
            for r in data:
                if codes[best_j, r] == best_value:
                    keep[t] = r
                    t += 1
            data = keep[:t].copy()
        else:
            data = sub_rows[best_j, best_lo:best_hi].copy()
        def_ac_rt = best_rate
        _keep_subset(data, nominal, ctx)
    return rule


@njit(cache=True, error_model="numpy")
def prune(rule, rows, XT, y, nominal, use_whole):
    """Cut ``rule`` after the condition with the best pruning metric on ``rows`` (RipperRule.prune).

    ``use_whole``: accuracy of the rule on all of ``rows`` ((TP + TN) / N), as in the
    optimisation stage; else (p + 1) / (p + n + 2) on the covered rows.
    """
    total = float(rows.shape[0])
    if not gr(total, 0.0):
        return rule
    cls = int(rule[0])
    def_accu = 0.0
    for r in rows:
        if y[r] == cls:
            def_accu += 1.0
    size = n_antds(rule, 1)
    if size == 0:
        return rule
    worth_rt = np.zeros(size)
    data = rows
    tn = 0.0
    for a in range(size):
        nxt = np.empty(data.shape[0], dtype=np.int64)
        t = 0
        coverage, worth = 0.0, 0.0
        j, value, split = int(rule[1 + 3 * a]), rule[2 + 3 * a], rule[3 + 3 * a]
        for r in data:
            x = XT[j, r]
            if x != x:
                covered = False
            elif nominal[j]:
                covered = int(x) == int(value)
            else:
                covered = x <= split if value == 0 else x >= split
            if covered:
                coverage += 1.0
                nxt[t] = r
                t += 1
                if y[r] == cls:
                    worth += 1.0
            elif use_whole and y[r] != cls:
                tn += 1.0
        if use_whole:
            worth += tn
            worth_rt[a] = worth / total
        else:
            worth_rt[a] = (worth + 1.0) / (coverage + 2.0)
        data = nxt[:t]
    max_value = (def_accu + 1.0) / (total + 2.0)
    max_index = -1
    for i in range(size):
        if worth_rt[i] > max_value:
            max_value = worth_rt[i]
            max_index = i
    return rule[:1 + 3 * (max_index + 1)].copy()


# --- rule set statistics (WEKA's RuleStats) ------------------------------------

@njit(cache=True, error_model="numpy")
def simple_stats(rule, rows, XT, y, nominal, n_classes):
    """``[cover, uncover, tp, tn, fp, fn]`` of ``rule`` on ``rows``, the rows it leaves, its class counts."""
    stats = np.zeros(6)
    dist = np.zeros(n_classes)
    left = np.empty(rows.shape[0], dtype=np.int64)
    t = 0
    cls = int(rule[0])
    for r in rows:
        if _covers(rule, XT, nominal, r):
            stats[0] += 1.0
            if y[r] == cls:
                stats[2] += 1.0
            else:
                stats[4] += 1.0
            dist[y[r]] += 1.0
        else:
            left[t] = r
            t += 1
            stats[1] += 1.0
            if y[r] != cls:
                stats[3] += 1.0
            else:
                stats[5] += 1.0
    return stats, left[:t].copy(), dist


@njit(cache=True, error_model="numpy")
def _new_stats():
    return List.empty_list(_RULE), List.empty_list(_COUNTS), List.empty_list(_ROWS), \
        List.empty_list(_COUNTS)


@njit(cache=True, error_model="numpy")
def add_and_update(rules, stats, left, dists, data, rule, XT, y, nominal, n_classes):
    rows = left[len(left) - 1] if len(left) > 0 else data
    s, rest, dist = simple_stats(rule, rows, XT, y, nominal, n_classes)
    rules.append(rule)
    stats.append(s)
    left.append(rest)
    dists.append(dist)


@njit(cache=True, error_model="numpy")
def remove_last(rules, stats, left, dists):
    rules.pop()
    stats.pop()
    left.pop()
    dists.pop()


@njit(cache=True, error_model="numpy")
def count_data(rules, data, XT, y, nominal, n_classes):
    """Statistics of ``rules`` applied in order to ``data``."""
    stats, left, dists = List.empty_list(_COUNTS), List.empty_list(_ROWS), List.empty_list(_COUNTS)
    rows = data
    for i in range(len(rules)):
        s, rest, dist = simple_stats(rules[i], rows, XT, y, nominal, n_classes)
        stats.append(s)
        left.append(rest)
        dists.append(dist)
        rows = rest
    return stats, left, dists


@njit(cache=True, error_model="numpy")
def _chain_stats(rules, start, rows, XT, y, nominal, n_classes):
    """Counts of ``rules[start:]`` applied in turn to ``rows``."""
    after = List.empty_list(_COUNTS)
    data = rows
    for j in range(start, len(rules)):
        s, rest, _ = simple_stats(rules[j], data, XT, y, nominal, n_classes)
        after.append(s)
        data = rest
    return after


@njit(cache=True, error_model="numpy")
def relative_dl_on(rules, stats, rows, index, exp_fp_rate, check_err, total_conds, XT, y, nominal, n_classes):
    """DL of the rule set with rule ``index`` minus without it (RuleStats.relativeDL).

    ``rows``: the data rule ``index`` sees (what the rules before it leave).
    """
    after = _chain_stats(rules, index + 1, rows, XT, y, nominal, n_classes)
    return relative_dl(rules, 1, stats, index, after, exp_fp_rate, check_err, total_conds)


@njit(cache=True, error_model="numpy")
def reduce_dl(rules, stats, left, dists, data, exp_fp_rate, check_err, total_conds, XT, y, nominal, n_classes):
    """Delete, last to first, the rules whose removal does not lengthen the description."""
    rs = ruleset_stats(stats)
    need_update = False
    for k in range(len(stats) - 1, -1, -1):
        saved = potential(rules, 1, k, exp_fp_rate, rs, stats[k], check_err, total_conds)
        if saved == saved:
            if k == len(stats) - 1:
                remove_last(rules, stats, left, dists)
            else:
                rules.pop(k)
                need_update = True
    if need_update:
        new_stats, new_left, new_dists = count_data(rules, data, XT, y, nominal, n_classes)
        stats.clear()
        left.clear()
        dists.clear()
        for i in range(len(new_stats)):
            stats.append(new_stats[i])
            left.append(new_left[i])
            dists.append(new_dists[i])


# --- one class ---------------------------------------------------------------

@njit(cache=True, error_model="numpy")
def stratify(rows, y, n_classes, folds, state):
    """WEKA's RuleStats.stratify: shuffle each class's rows, then deal them out fold by fold."""
    counts = np.zeros(n_classes + 1, dtype=np.int64)
    for r in rows:
        counts[y[r] + 1] += 1
    starts = np.cumsum(counts)
    bags = np.empty(rows.shape[0], dtype=np.int64)
    fill = starts[:n_classes].copy()
    for r in rows:
        bags[fill[y[r]]] = r
        fill[y[r]] += 1
    for c in range(n_classes):                         # Instances.randomize, class by class
        randomize(bags[starts[c]:starts[c + 1]], state)
    out = np.empty(rows.shape[0], dtype=np.int64)
    t = 0
    for k in range(folds):
        for i in range(k, rows.shape[0], folds):
            out[t] = bags[i]
            t += 1
    return out


@njit(cache=True, error_model="numpy")
def _grow_prune(cls, rows, folds, XT, y, nominal, n_values, min_no, ctx, state, n_classes):
    """Stratify ``rows``, grow a rule for ``cls`` on the first folds-1 parts, prune it on the last."""
    data = stratify(rows, y, n_classes, folds, state)
    split = data.shape[0] * (folds - 1) // folds
    rule = grow(np.full(1, float(cls)), data[:split], XT, y, nominal, n_values, min_no, ctx)
    return data, data[:split], data[split:], rule


@njit(cache=True, error_model="numpy")
def _uncovered_by_successors(rows, succ, n_rules):
    """``rows`` that no rule after the current position covers (``succ[r] == n_rules``: none does)."""
    keep = np.empty(rows.shape[0], dtype=np.int64)
    t = 0
    for r in rows:
        if succ[r] >= n_rules:
            keep[t] = r
            t += 1
    return keep[:t].copy()


@njit(cache=True, error_model="numpy")
def _successor_stats(successor, rows, skip, y, cls, n_after):
    """Counts of the rules after a position, as a chain, on ``rows`` minus those with ``skip`` set.

    ``successor[i]``: which of the ``n_after`` following rules first covers ``rows[i]``
    (``n_after``: none). A chain's counts follow from it: a row reaches rule j
    exactly when no earlier rule covers it. Counts are integers, so these equal
    WEKA's sequential sums.
    """
    cov = np.zeros(n_after)
    pos = np.zeros(n_after)
    remaining, remaining_pos = 0.0, 0.0
    for i in range(rows.shape[0]):
        if skip[i]:
            continue
        positive = y[rows[i]] == cls
        remaining += 1.0
        if positive:
            remaining_pos += 1.0
        s = successor[i]
        if s < n_after:
            cov[s] += 1.0
            if positive:
                pos[s] += 1.0
    after = List.empty_list(_COUNTS)
    for j in range(n_after):
        s = np.empty(6)
        s[0] = cov[j]
        s[1] = remaining - cov[j]
        s[2] = pos[j]
        s[5] = remaining_pos - pos[j]
        s[3] = s[1] - s[5]
        s[4] = cov[j] - pos[j]
        after.append(s)
        remaining -= cov[j]
        remaining_pos -= pos[j]
    return after


@njit(cache=True, error_model="numpy")
def _advance_successors(succ, position, rows, flat, offsets, XT, nominal):
    """Make ``succ[r]`` the first of the round's original rules after ``position`` that covers row ``r``.

    ``succ`` holds that for an earlier position (-1: not searched yet); only rows
    whose successor is no longer after ``position`` are searched again.
    """
    n_rules = offsets.shape[0] - 1
    for r in rows:
        s = succ[r]
        if s > position:
            continue
        s = max(s, position) + 1
        while s < n_rules and not _covers_at(flat, offsets[s], offsets[s + 1], XT, nominal, r):
            s += 1
        succ[r] = s


@njit(cache=True, error_model="numpy")
def _variant_dls(ruleset, position, variants, new_data, succ, prev_stats, exp_fp_rate, check_err, total_conds,
                 XT, y, nominal, n_classes):
    """Relative DL at ``position`` of ``ruleset`` with each of ``variants`` there, counted on ``new_data``.

    ``succ[r]``: the first rule after ``position`` covering row ``r`` (``len(ruleset)``:
    none); the rules after ``position`` are still the round's original ones.
    (WEKA counts the rule set without the variant on the whole class data when
    ``position`` is 0; ``new_data`` holds the same rows then, so the counts agree.)
    """
    cls = int(ruleset[position][0])
    n = new_data.shape[0]
    n_after = len(ruleset) - position - 1
    successor = np.empty(n, dtype=np.int64)
    for i in range(n):
        successor[i] = min(succ[new_data[i]], len(ruleset)) - position - 1
    without = _successor_stats(successor, new_data, np.zeros(n, dtype=np.bool_), y, cls, n_after)
    out = np.empty(len(variants))
    for v in range(len(variants)):
        variant = variants[v]
        rules = List.empty_list(_RULE)
        for i in range(len(ruleset)):
            rules.append(variant if i == position else ruleset[i])
        covered = np.zeros(n, dtype=np.bool_)
        own = np.zeros(6)                                   # simple_stats of the variant, with its cover flags
        for i in range(n):
            r = new_data[i]
            covered[i] = _covers(variant, XT, nominal, r)
            positive = y[r] == cls
            if covered[i]:
                own[0] += 1.0
                own[2 if positive else 4] += 1.0
            else:
                own[1] += 1.0
                own[5 if positive else 3] += 1.0
        stats = List.empty_list(_COUNTS)
        for i in range(position):
            stats.append(prev_stats[i])
        stats.append(own)
        for s in _successor_stats(successor, new_data, covered, y, cls, n_after):
            stats.append(s)
        out[v] = relative_dl(rules, 1, stats, position, without, exp_fp_rate, check_err, total_conds)
    return out


@njit(cache=True, error_model="numpy")
def ruleset_for_class(cls, data, exp_fp_rate, def_dl, folds, min_no, optimizations, check_err, use_pruning,
                      total_conds, XT, y, nominal, n_values, ctx, state, n_classes):
    """Rules for class ``cls`` on ``data`` (rows), WEKA's JRip.rulesetForOneClass.

    Returns the rule set's statistics (rules, counts, rows left, class counts).
    """
    ruleset = List.empty_list(_RULE)
    rules, stats, left, dists = _new_stats()
    stats_data = data
    new_data = data
    dl = def_dl
    min_dl = def_dl
    stop = False
    has_positive = True
    first = True
    while not stop and has_positive:                                   # building stage
        if use_pruning:
            new_data, grow_rows, prune_rows, rule = _grow_prune(cls, new_data, folds, XT, y, nominal, n_values,
                                                                min_no, ctx, state, n_classes)
            rule = prune(rule, prune_rows, XT, y, nominal, False)
        else:
            rule = grow(np.full(1, float(cls)), new_data, XT, y, nominal, n_values, min_no, ctx)
        if first:
            stats_data = new_data
            first = False
        add_and_update(rules, stats, left, dists, stats_data, rule, XT, y, nominal, n_classes)
        last = len(rules) - 1
        seen = stats_data if last == 0 else left[last - 1]
        dl += relative_dl_on(rules, stats, seen, last, exp_fp_rate, check_err, total_conds, XT, y, nominal, n_classes)
        if dl != dl or math.isinf(dl):
            raise ValueError("JRip: description length is NaN or infinite in the building stage")
        if dl < min_dl:
            min_dl = dl
        rst = stats[last]
        stop = check_stop(rst, min_dl, dl, check_err)
        if not stop:
            ruleset.append(rule)
            new_data = left[last]
            has_positive = gr(rst[5], 0.0)
        else:
            remove_last(rules, stats, left, dists)

    if use_pruning:
        for _ in range(optimizations):                                  # optimisation stage
            new_data = data
            rules, stats, left, dists = _new_stats()
            stats_data = data
            position = 0
            stop = False
            has_positive = True
            dl = def_dl
            min_dl = def_dl
            flat, offsets = _flatten(ruleset, 0)             # the round's original rules
            succ = np.full(XT.shape[1], -1, dtype=np.int64)
            while not stop and has_positive:
                residual = position >= len(ruleset)
                new_data, grow_rows, prune_rows, replace = _grow_prune(cls, new_data, folds, XT, y, nominal,
                                                                       n_values, min_no, ctx, state, n_classes)
                if residual:
                    final = prune(replace, prune_rows, XT, y, nominal, False)
                else:
                    old = ruleset[position]
                    covers = False
                    for r in new_data:
                        if _covers(old, XT, nominal, r):
                            covers = True
                            break
                    if not covers:                       # no variant can be grown; the data are not filtered
                        add_and_update(rules, stats, left, dists, stats_data, old, XT, y, nominal, n_classes)
                        position += 1
                        continue
                    _advance_successors(succ, position, new_data, flat, offsets, XT, nominal)
                    prune_rows = _uncovered_by_successors(prune_rows, succ, len(ruleset))
                    replace = prune(replace, prune_rows, XT, y, nominal, True)
                    keep = np.empty(grow_rows.shape[0], dtype=np.int64)
                    t = 0
                    for r in grow_rows:
                        if _covers(old, XT, nominal, r):
                            keep[t] = r
                            t += 1
                    revision = grow(old.copy(), keep[:t].copy(), XT, y, nominal, n_values, min_no, ctx)
                    revision = prune(revision, prune_rows, XT, y, nominal, True)
                    prev_stats = List.empty_list(_COUNTS)
                    for c in range(position):
                        prev_stats.append(stats[c])
                    variants = List.empty_list(_RULE)
                    variants.append(replace)
                    variants.append(revision)
                    variants.append(old)
                    dls = _variant_dls(ruleset, position, variants, new_data, succ, prev_stats, exp_fp_rate,
                                       check_err, total_conds, XT, y, nominal, n_classes)
                    rep_dl, rev_dl, old_dl = dls[0], dls[1], dls[2]
                    for d in dls:
                        if d != d or math.isinf(d):
                            raise ValueError("JRip: description length in the optimisation stage is NaN or infinite")
                    if old_dl <= rev_dl and old_dl <= rep_dl:
                        final = old
                    elif rev_dl <= rep_dl:
                        final = revision
                    else:
                        final = replace
                add_and_update(rules, stats, left, dists, stats_data, final, XT, y, nominal, n_classes)
                rst = stats[position]
                if residual:
                    seen = stats_data if position == 0 else left[position - 1]
                    dl += relative_dl_on(rules, stats, seen, position, exp_fp_rate, check_err, total_conds, XT, y,
                                      nominal, n_classes)
                    if dl < min_dl:
                        min_dl = dl
                    stop = check_stop(rst, min_dl, dl, check_err)
                    if not stop:
                        ruleset.append(final)
                    else:
                        remove_last(rules, stats, left, dists)
                        position -= 1
                else:
                    ruleset[position] = final
                if len(rules) > 0:
                    new_data = left[position]
                has_positive = gr(rst[5], 0.0)
                position += 1
            # WEKA appends the rules not revisited from position + 1 on (rule ``position`` is dropped)
            for k in range(position + 1, len(ruleset)):
                add_and_update(rules, stats, left, dists, stats_data, ruleset[k], XT, y, nominal, n_classes)
            reduce_dl(rules, stats, left, dists, stats_data, exp_fp_rate, check_err, total_conds, XT, y, nominal,
                      n_classes)
            ruleset = List.empty_list(_RULE)
            for rule in rules:
                ruleset.append(rule)
    return rules, stats, left, dists


# --- the whole model ------------------------------------------------------------

@njit(cache=True, error_model="numpy")
def presort(XT, nominal):
    """Per numeric attribute: its rows with known values ascending, their values, their number, each row's rank."""
    m, n = XT.shape
    sorted_rows = np.zeros((m, n), dtype=np.int64)
    sorted_vals = np.zeros((m, n))
    n_known = np.zeros(m, dtype=np.int64)
    rank = np.full((m, n), -1, dtype=np.int64)
    for j in range(m):
        if nominal[j]:
            continue
        col = XT[j]
        known = np.flatnonzero(col == col)
        order = known[np.argsort(col[known], kind="mergesort")]
        n_known[j] = order.shape[0]
        sorted_rows[j, :order.shape[0]] = order
        sorted_vals[j, :order.shape[0]] = col[order]
        for i in range(order.shape[0]):
            rank[j, order[i]] = i
    return sorted_rows, sorted_vals, n_known, rank


@njit(cache=True, error_model="numpy")
def fit_rules(XT, y, nominal, n_values, class_counts, state, folds, min_no, optimizations, check_err,
              use_pruning, total_conds):
    """JRip's rule list on ``XT`` with classes ``y`` already in increasing-frequency order.

    Returns the rules (flat, with offsets), each rule's printed counts (cover, false
    positives) and its training class counts, in the order WEKA lists them; the last
    rule is the default rule.
    """
    m, n = XT.shape
    n_classes = class_counts.shape[0]
    sorted_rows, sorted_vals, n_known, rank = presort(XT, nominal)
    codes = np.full((m, n), -1, dtype=np.int32)                 # nominal values as integers, -1 missing
    for j in range(m):
        if nominal[j]:
            for r in range(n):
                if XT[j, r] == XT[j, r]:
                    codes[j, r] = int(XT[j, r])
    ctx = (sorted_rows, sorted_vals, n_known, rank, np.zeros(n, dtype=np.bool_), np.empty((m, n), dtype=np.int64),
           np.empty((m, n)), np.empty((m, n), dtype=np.uint8), np.zeros(m, dtype=np.int64), codes)
    all_rules = List.empty_list(_RULE)
    all_stats = List.empty_list(_COUNTS)
    all_dists = List.empty_list(_COUNTS)
    data = np.arange(n)
    for cls in range(n_classes - 1):
        if abs(class_counts[cls]) < SMALL:
            continue
        rest = 0.0
        for i in range(cls, n_classes):
            rest += class_counts[i]
        exp_fp_rate = class_counts[cls] / rest
        cls_weight = 0.0
        for r in data:
            if y[r] == cls:
                cls_weight += 1.0
        if not cls_weight > 0:
            continue
        def_dl = data_dl(exp_fp_rate, 0.0, float(data.shape[0]), 0.0, cls_weight)
        if def_dl != def_dl or math.isinf(def_dl):
            raise ValueError("JRip: default description length is NaN or infinite")
        rules, stats, left, dists = ruleset_for_class(cls, data, exp_fp_rate, def_dl, folds, min_no, optimizations,
                                                      check_err, use_pruning, total_conds, XT, y, nominal,
                                                      n_values, ctx, state, n_classes)
        for i in range(len(rules)):
            all_rules.append(rules[i])
            all_stats.append(stats[i])
            all_dists.append(dists[i])
        if len(rules) > 0:
            data = left[len(rules) - 1]
    default = np.full(1, float(n_classes - 1))
    s, _, dist = simple_stats(default, data, XT, y, nominal, n_classes)
    all_rules.append(default)
    all_stats.append(s)
    all_dists.append(dist)

    n_rules = len(all_rules)
    offsets = np.zeros(n_rules + 1, dtype=np.int64)
    for i in range(n_rules):
        offsets[i + 1] = offsets[i] + all_rules[i].shape[0]
    flat = np.empty(offsets[n_rules])
    printed = np.empty((n_rules, 2))
    class_dists = np.empty((n_rules, n_classes))
    for i in range(n_rules):
        flat[offsets[i]:offsets[i + 1]] = all_rules[i]
        printed[i, 0] = all_stats[i][0]
        printed[i, 1] = all_stats[i][4]
        class_dists[i] = all_dists[i]
    return flat, offsets, printed, class_dists


@njit(cache=True, error_model="numpy")
def first_covering_rule(flat, offsets, XT, nominal):
    """Index of the first rule covering each column (instance) of ``XT`` (the default rule covers all)."""
    n_rules = offsets.shape[0] - 1
    out = np.full(XT.shape[1], n_rules - 1, dtype=np.int64)
    for r in range(XT.shape[1]):
        for i in range(n_rules):
            if _covers_at(flat, offsets[i], offsets[i + 1], XT, nominal, r):
                out[r] = i
                break
    return out
