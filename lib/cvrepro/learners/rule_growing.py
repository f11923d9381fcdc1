"""The candidate cut points of the KEEL rule learners' growing loops (KEEL's Ripper and FURIA).

Both grow a rule one condition at a time and score, per numeric attribute,
a cut after each distinct value of the instances the rule still covers. They
keep, per numeric attribute, those instances in value order ("cut-point
lists"): picked out of a per-fit presort, or sorted directly when they are
few, then filtered in place as each new condition shrinks the coverage.
Instances are marked by ``lab`` (0: not covered; 1 or 2: covered positive or
negative). Sorts are stable, so ties keep the instance order of the presort.

Numba caches compiled callers on disk by their own source file only: after
changing this module, clear the callers' caches (``__pycache__/*.nbi`` and
``*.nbc`` of :mod:`.keel_ripper` and :mod:`.furia`).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["sorting_is_cheaper", "cut_lists", "filter_cut_lists"]


@njit(cache=True, inline="always")
def sorting_is_cheaper(m, n):
    """Whether sorting ``m`` instances costs less than a pass over a presort of ``n``."""
    return m * (int(math.log2(m + 1)) + 1) * 4 < n


@njit(cache=True, inline="always")
def _known(MT, a, i):
    """Whether instance ``i`` has a value of attribute ``a`` (``MT``: missing mask by column, or None)."""
    if MT is None:
        return True
    return not MT[a, i]


@njit(cache=True)
def cut_lists(XT, MT, nominal, sort_idx, sort_val, sort_len, act, m, lab, L):
    """Per numeric attribute ``a``, the covered instances ``act[:m]`` with a known value, in value order:
    instances ``S[a, :L[a]]`` and their values ``SV[a, :L[a]]``; returns ``(S, SV)`` and sets ``L``.

    ``XT``/``MT``: values and missing mask (or None: nothing missing) by
    column; ``sort_idx[a, :sort_len[a]]``/``sort_val``: the presort of the
    known values. Filters the presort, or sorts ``act[:m]`` when that is
    cheaper. ``S`` has a spare column for :func:`filter_cut_lists`' writes.
    """
    d, n = XT.shape
    S = np.empty((d, m + 1), dtype=sort_idx.dtype)
    SV = np.empty((d, m + 1))
    few = sorting_is_cheaper(m, n)
    vals = np.empty(m)
    ids = np.empty(m, dtype=sort_idx.dtype)
    for a in range(d):
        if nominal[a]:
            continue
        c = 0
        if few:
            for t in range(m):
                i = act[t]
                if _known(MT, a, i):
                    vals[c] = XT[a, i]
                    ids[c] = i
                    c += 1
            o = np.argsort(vals[:c], kind="mergesort")
            for q in range(c):
                S[a, q] = ids[o[q]]
                SV[a, q] = vals[o[q]]
        else:
            for t in range(sort_len[a]):            # branch-free: write every entry, advance on covered ones
                i = sort_idx[a, t]
                S[a, c] = i
                SV[a, c] = sort_val[a, t]
                c += lab[i] != 0
        L[a] = c
    return S, SV


@njit(cache=True)
def filter_cut_lists(S, SV, L, lab, nominal):
    """Keep, in place and in order, the entries of the cut-point lists whose instance is still covered."""
    for a in range(nominal.shape[0]):
        if nominal[a]:
            continue
        c = 0
        for t in range(L[a]):
            i = S[a, t]
            S[a, c] = i
            SV[a, c] = SV[a, t]
            c += lab[i] != 0
        L[a] = c
