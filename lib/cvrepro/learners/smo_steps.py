"""The steps of WEKA's ``BinarySMO`` that do not depend on the kernel, shared by its two ports.

WEKA 3.6's SMO (:mod:`cvrepro.learners.smo`: linear kernel, outputs through the
weight vector) and KEEL's port of it (:mod:`cvrepro.learners.keel_smo`: any
kernel, outputs through the support vectors) move the multipliers by the same
steps: the sets I0..I4 (Keerthi et al.'s index sets, WEKA's ``SMOset`` lists),
the choice of the second multiplier, the bounds and the new value of a pair,
and the two thresholds ``b_up`` / ``b_low`` (kept as ``state = [b_up, b_low]``
with their indices ``idx``). Each function here is one such step with WEKA's
operations in WEKA's order, so both solvers keep their bits; the solvers keep
what depends on the kernel (kernel values, outputs, the error updates).

Sets: an array of ``n_sets`` doubly linked lists over the instances, each
iterated from its latest insertion (which fixes the order of WEKA's sums);
sets 0..4 are I0..I4, a sixth set (when there is one) holds the support
vectors (multiplier > 0).
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["M_DEL", "DOUBLE_MAX", "new_sets", "place", "class_ends",
           "pair_bounds", "newton_alpha2", "objective_alpha2", "settle", "add_pair_thresholds"]

M_DEL = 1000 * 5e-324                 # WEKA's m_Del = 1000 * Double.MIN_VALUE
DOUBLE_MAX = 1.7976931348623157e308   # Double.MAX_VALUE


@njit(cache=True)
def new_sets(n, n_sets):
    """Empty sets over n instances: ``(member, next, previous, first, count)``."""
    return (np.zeros((n_sets, n), np.bool_), np.full((n_sets, n), -1, np.int64),
            np.full((n_sets, n), -1, np.int64), np.full(n_sets, -1, np.int64), np.zeros(n_sets, np.int64))


@njit(cache=True)
def place(sets, nxt, prv, first, count, i, a, y, C):
    """Move index i to the sets its new multiplier ``a`` puts it in (WEKA's order of updates).

    The insertions and deletions are written out here rather than called: calls
    that pass these arrays cost more than the updates.
    """
    for k in range(sets.shape[0]):
        if k == 0:
            member = a > 0 and a < C
        elif k == 1:
            member = y == 1 and a == 0
        elif k == 2:
            member = y == -1 and a == C
        elif k == 3:
            member = y == 1 and a == C
        elif k == 4:
            member = y == -1 and a == 0
        else:
            member = a > 0
        if member and not sets[k, i]:          # insert at the head
            if count[k] == 0:
                nxt[k, i] = -1
            else:
                prv[k, first[k]] = i
                nxt[k, i] = first[k]
            prv[k, i] = -1
            first[k] = i
            sets[k, i] = True
            count[k] += 1
        elif not member and sets[k, i]:        # delete
            if first[k] == i:
                first[k] = nxt[k, i]
            else:
                nxt[k, prv[k, i]] = nxt[k, i]
            if nxt[k, i] != -1:
                prv[k, nxt[k, i]] = prv[k, i]
            sets[k, i] = False
            count[k] -= 1


@njit(cache=True)
def class_ends(y):
    """``(i_low, i_up)``: the last instance of class -1 and of class +1 (-1 if none), WEKA's
    starting indices of b_low and b_up."""
    i_low, i_up = -1, -1
    for i in range(y.shape[0]):
        if y[i] == -1:
            i_low = i
        else:
            i_up = i
    return i_low, i_up


@njit(cache=True)
def pair_bounds(alph1, alph2, y1, y2, C):
    """takeStep: ``(L, H)``, the range of the second multiplier on the pair's constraint line."""
    if y1 != y2:
        return max(0.0, alph2 - alph1), min(C, C + alph2 - alph1)
    return max(0.0, alph1 + alph2 - C), min(C, alph1 + alph2)


@njit(cache=True)
def newton_alpha2(alph2, y2, F1, F2, eta, L, H):
    """takeStep with ``eta < 0``: the unconstrained optimum of the second multiplier, clipped
    to [L, H]."""
    a2 = alph2 - y2 * (F1 - F2) / eta
    if a2 < L:
        a2 = L
    elif a2 > H:
        a2 = H
    return a2


@njit(cache=True)
def objective_alpha2(alph1, alph2, y1, y2, k11, k12, k22, f1, f2, L, H, eps):
    """takeStep with ``eta >= 0``: the end of [L, H] where the objective is larger (by more than
    ``eps``), else the multiplier unchanged; ``f1``, ``f2`` are the outputs (b = 0)."""
    s = y1 * y2
    v1 = f1 + 0.0 - y1 * alph1 * k11 - y2 * alph2 * k12
    v2 = f2 + 0.0 - y1 * alph1 * k12 - y2 * alph2 * k22
    gamma = alph1 + s * alph2
    Lobj = ((gamma - s * L) + L - 0.5 * k11 * (gamma - s * L) * (gamma - s * L) - 0.5 * k22 * L * L
            - s * k12 * (gamma - s * L) * L - y1 * (gamma - s * L) * v1 - y2 * L * v2)
    Hobj = ((gamma - s * H) + H - 0.5 * k11 * (gamma - s * H) * (gamma - s * H) - 0.5 * k22 * H * H
            - s * k12 * (gamma - s * H) * H - y1 * (gamma - s * H) * v1 - y2 * H * v2)
    if Lobj > Hobj + eps:
        return L
    if Lobj < Hobj - eps:
        return H
    return alph2


@njit(cache=True)
def settle(alph1, alph2, s, a2, C, eps):
    """takeStep's end: ``(moved, a1, a2)``; not moved when the second multiplier changed by
    less than WEKA's relative ``eps``; else both multipliers, each set to C or 0 within
    ``m_Del`` of it (the first from the second: ``a1 = alph1 + s (alph2 - a2)``)."""
    if abs(a2 - alph2) < eps * (a2 + alph2 + eps):
        return False, alph1, a2
    if a2 > C - M_DEL * C:
        a2 = C
    elif a2 <= M_DEL * C:
        a2 = 0.0
    a1 = alph1 + s * (alph2 - a2)
    if a1 > C - M_DEL * C:
        a1 = C
    elif a1 <= M_DEL * C:
        a1 = 0.0
    return True, a1, a2


@njit(cache=True)
def add_pair_thresholds(sets, errors, state, idx, i1, i2):
    """takeStep's end: after b_up / b_low are recomputed over I0, the stepped pair's errors
    (i1, then i2; those not in I0) may still lower b_up (I1, I2) or raise b_low (I3, I4)."""
    for i in (i1, i2):
        if not sets[0, i]:
            if sets[3, i] or sets[4, i]:
                if errors[i] > state[1]:
                    state[1] = errors[i]
                    idx[1] = i
            else:
                if errors[i] < state[0]:
                    state[0] = errors[i]
                    idx[0] = i
