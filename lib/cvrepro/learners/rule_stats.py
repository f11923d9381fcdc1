"""WEKA 3.6's ``RuleStats`` arithmetic: the description lengths JRip and FURIA build and prune rule sets by.

KEEL's FURIA is a port of WEKA's FURIA, which reuses JRip's ``RuleStats``;
:mod:`.jrip_kernels` and :mod:`.furia` both count with these functions.
A rule set's statistics are per-rule arrays ``[cover, uncover, tp, tn, fp,
fn]`` (each rule counted on the data the rules before it leave). Rules are
float arrays of ``[attribute, value, split]`` triples after ``header``
leading slots (JRip stores the class first: 1; FURIA: 0).

Numba caches compiled callers on disk by their own source file only: after
changing this module, clear the callers' caches (``__pycache__/*.nbi`` and
``*.nbc`` of :mod:`.jrip_kernels` and :mod:`.furia`).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["SMALL", "log2", "gr", "gr_or_eq", "subset_dl", "data_dl", "theory_dl", "n_antds", "potential",
           "ruleset_stats", "dl_if_exists", "dl_if_deleted", "relative_dl", "check_stop"]

SMALL = 1e-6                        # WEKA's Utils.SMALL tolerance
_LN2 = math.log(2.0)                # Utils.log2(x) is Math.log(x) / Math.log(2)
_MAX_DL_SURPLUS = 64.0


@njit(cache=True, error_model="numpy")
def log2(x):
    """WEKA's ``Utils.log2`` (-inf at 0, NaN below)."""
    if x == 0.0:
        return -math.inf
    if x < 0.0 or x != x:
        return math.nan
    return math.log(x) / _LN2


@njit(cache=True, error_model="numpy")
def gr(a, b):
    """``Utils.gr``: ``a`` greater than ``b`` by more than SMALL."""
    return a - b > SMALL


@njit(cache=True, error_model="numpy")
def gr_or_eq(a, b):
    """``Utils.grOrEq``."""
    return (b - a < SMALL) or (a >= b)


@njit(cache=True, error_model="numpy")
def subset_dl(t, k, p):
    """Bits to name ``k`` of ``t`` elements when each is chosen with probability ``p``."""
    rt = -k * log2(p) if gr(p, 0.0) else 0.0
    rt -= (t - k) * log2(1 - p)
    return rt


@njit(cache=True, error_model="numpy")
def data_dl(exp_fp_over_err, cover, uncover, fp, fn):
    """Description length of a rule set's errors (WEKA's RuleStats.dataDL)."""
    total_bits = log2(cover + uncover + 1.0)
    if gr(cover, uncover):
        exp_err = exp_fp_over_err * (fp + fn)
        cover_bits = subset_dl(cover, fp, exp_err / cover)
        uncover_bits = subset_dl(uncover, fn, fn / uncover) if gr(uncover, 0.0) else 0.0
    else:
        exp_err = (1.0 - exp_fp_over_err) * (fp + fn)
        cover_bits = subset_dl(cover, fp, fp / cover) if gr(cover, 0.0) else 0.0
        uncover_bits = subset_dl(uncover, fn, exp_err / uncover)
    return total_bits + cover_bits + uncover_bits


@njit(cache=True, error_model="numpy")
def theory_dl(n_antds, total_conds):
    """Description length of one rule with ``n_antds`` conditions (half of Cohen's, as WEKA)."""
    k = float(n_antds)
    if k == 0:
        return 0.0
    tdl = log2(k)
    if k > 1:
        tdl += 2.0 * log2(tdl)
    tdl += subset_dl(total_conds, k, k / total_conds)
    return 0.5 * tdl


@njit(cache=True, inline="always")
def n_antds(rule, header):
    """Number of conditions of ``rule``."""
    return (rule.shape[0] - header) // 3


@njit(cache=True, error_model="numpy")
def potential(rules, header, k, exp_fp_rate, ruleset_stat, rule_stat, check_err, total_conds):
    """DL saved by deleting rule ``k``; updates ``ruleset_stat`` and returns it, or NaN if kept."""
    pcov = ruleset_stat[0] - rule_stat[0]
    puncov = ruleset_stat[1] + rule_stat[0]
    pfp = ruleset_stat[4] - rule_stat[4]
    pfn = ruleset_stat[5] + rule_stat[2]
    with_data = data_dl(exp_fp_rate, ruleset_stat[0], ruleset_stat[1], ruleset_stat[4], ruleset_stat[5])
    with_theory = theory_dl(n_antds(rules[k], header), total_conds)
    without_data = data_dl(exp_fp_rate, pcov, puncov, pfp, pfn)
    saved = with_data + with_theory - without_data
    err = rule_stat[4] / rule_stat[0]
    over_err = check_err and gr_or_eq(err, 0.5)
    if gr_or_eq(saved, 0.0) or over_err:
        ruleset_stat[0] = pcov
        ruleset_stat[1] = puncov
        ruleset_stat[4] = pfp
        ruleset_stat[5] = pfn
        return saved
    return math.nan


@njit(cache=True, error_model="numpy")
def ruleset_stats(stats):
    """RuleStats.getSimpleStats of the whole rule set: summed cover, TP and FP; the last rule's uncover,
    TN and FN."""
    rs = np.zeros(6)
    n = len(stats)
    for j in range(n):
        rs[0] += stats[j][0]
        rs[2] += stats[j][2]
        rs[4] += stats[j][4]
        if j == n - 1:
            rs[1] = stats[j][1]
            rs[3] = stats[j][3]
            rs[5] = stats[j][5]
    return rs


@njit(cache=True, error_model="numpy")
def dl_if_exists(rules, header, stats, index, exp_fp_rate, check_err, total_conds):
    """RuleStats.minDataDLIfExists: the data DL with rule ``index``, less what later deletions save."""
    rs = ruleset_stats(stats)
    total = 0.0
    for k in range(index + 1, len(stats)):
        saved = potential(rules, header, k, exp_fp_rate, rs, stats[k], check_err, total_conds)
        if saved == saved:
            total += saved
    return data_dl(exp_fp_rate, rs[0], rs[1], rs[4], rs[5]) - total


@njit(cache=True, error_model="numpy")
def dl_if_deleted(rules, header, stats, index, after, exp_fp_rate, check_err, total_conds):
    """RuleStats.minDataDLIfDeleted: the data DL without rule ``index``; ``after``: the counts of the rules
    after it on the data it sees."""
    rs = np.zeros(6)
    for j in range(index):
        rs[0] += stats[j][0]
        rs[2] += stats[j][2]
        rs[4] += stats[j][4]
    for s in after:
        rs[0] += s[0]
        rs[2] += s[2]
        rs[4] += s[4]
    if len(after) > 0:
        last = after[len(after) - 1]
        rs[1], rs[3], rs[5] = last[1], last[3], last[5]
    elif index > 0:
        prev = stats[index - 1]
        rs[1], rs[3], rs[5] = prev[1], prev[3], prev[5]
    else:
        first = stats[0]
        rs[1] = first[0] + first[1]
        rs[3] = first[3] + first[4]
        rs[5] = first[2] + first[5]
    total = 0.0
    for k in range(index + 1, len(rules)):
        saved = potential(rules, header, k, exp_fp_rate, rs, after[k - index - 1], check_err, total_conds)
        if saved == saved:
            total += saved
    return data_dl(exp_fp_rate, rs[0], rs[1], rs[4], rs[5]) - total


@njit(cache=True, error_model="numpy")
def relative_dl(rules, header, stats, index, after, exp_fp_rate, check_err, total_conds):
    """RuleStats.relativeDL: the DL of the rule set with rule ``index`` minus without it."""
    return (dl_if_exists(rules, header, stats, index, exp_fp_rate, check_err, total_conds)
            + theory_dl(n_antds(rules[index], header), total_conds)
            - dl_if_deleted(rules, header, stats, index, after, exp_fp_rate, check_err, total_conds))


@njit(cache=True, error_model="numpy")
def check_stop(rst, min_dl, dl, check_err):
    """Whether rule growing stops: the DL is 64 bits over the least, no positive covered, or (when
    ``check_err``) an error rate of at least 1/2."""
    if dl > min_dl + _MAX_DL_SURPLUS:
        return True
    if not gr(rst[2], 0.0):
        return True
    if rst[4] / rst[0] >= 0.5:
        return check_err
    return False
