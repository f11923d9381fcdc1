"""Ridge logistic regression as WEKA 3.6's ``Logistic`` (le Cessie & van Houwelingen 1992).

What WEKA does, and we do, with its defaults ``-R 1e-8 -M -1``:

* Filters, in WEKA's order: ReplaceMissingValues (training mean / mode),
  RemoveUseless (drops attributes with fewer than two distinct values after
  imputation, and nominal ones whose distinct values exceed 99 % of the
  instances), NominalToBinary (a nominal attribute with more than two
  declared values becomes one 0/1 attribute per value; a two-valued one stays
  a single 0/1 attribute).
* Each attribute standardised by its (weighted) training mean and standard
  deviation (``sqrt(|sum x^2 - W mean^2| / (W - 1))``; constant ones left as they are).
* K - 1 linear scores (the last class is the reference); the objective is
  the weighted multinomial negative log-likelihood plus ``ridge * ||B||^2``
  over the coefficients (intercepts not penalised); start: zero
  coefficients and intercepts ``log(n_k + 1) - log(n_K + 1)``.
* The minimiser is WEKA's ``weka.core.Optimization``: a quasi-Newton method
  keeping the BFGS approximation of the Hessian as a Cholesky factorisation
  ``L D L'`` updated by rank-one modifications (Gill, Golub, Murray &
  Saunders 1974), with its own line search (sufficient decrease
  ``ALF = 1e-4``, curvature ``BETA = 0.9``, quadratic then cubic backtracking,
  step doubling, ``STPMX = 100``, ``TOLX = 1e-6``) and its stopping rules
  (relative change of x or of the gradient below ``sqrt(machine epsilon)``).
  With ``-M -1`` it restarts (fresh Hessian) every 200 iterations until it
  converges. We run the same algorithm, step for step, in numba
  (:func:`find_argmin`); sums are taken in WEKA's order. For speed only the
  layout and the loop structure differ (a packed factor, each rank-one
  modification swept together with the substitution after it, the
  exponentials shared by objective and gradient): every number is WEKA's.
* Coefficients converted back to the original units; class probabilities
  ``exp(v_k) / (1 + sum_j exp(v_j))`` evaluated as WEKA does.

Why not ``scipy.optimize``: on data that are (nearly) separable, ridge 1e-8
leaves the optimum almost undefined (coefficients grow until the stopping
rule fires), so WEKA's answer *is* where its optimiser stops; only the same
line search and stopping rules land in the same place. Where the optimum is
well defined both give it (scipy's L-BFGS-B is the cross-check in the tests).

Reference and exactness: ``exp`` and ``log`` are fdlibm's (Java's
``StrictMath``; :func:`cvrepro.learners.mlp.java_exp`,
:func:`cvrepro.learners.java_math.java_log`), and every sum runs in WEKA's
order, so our probabilities and printed model are bit-identical to WEKA
3.6.14's on a JVM run with ``-XX:+UnlockDiagnosticVMOptions
-XX:-UseLibmIntrinsic`` (the parity tests' reference: it is the only JVM
arithmetic that is the same on every machine). A stock HotSpot JVM replaces
``Math.exp``/``Math.log`` by intrinsics that differ in the last bit now and
then. Where the optimum is well defined that moves WEKA's probabilities by
less than 1e-10 (labor, vote, crx, glass, breast-cancer, zoo, iris, pima,
credit-g: at most 9e-11 from ours, same predicted classes). On (nearly)
separable folds the last bits steer the optimiser: WEKA on a stock JVM and
WEKA on a strict one then differ by up to 0.004 in probability (soybean) and
up to 1.0 (segment, where a few test instances flip class), and ours equals
the strict one. The printed model also matches except where JDK 17's
``Double.toString`` prints a non-shortest digit string (odds ratios above
1e10); the numbers are equal.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
from numba import njit
from sklearn.exceptions import ConvergenceWarning

from .base import TabularClassifier
from .batched import EncodedFolds
from .java import java_exp
from .java_math import java_log
from .preprocessing import nominal_to_binary, replace_missing, replace_missing_stats
from .weka_format import double_to_string, java_double, pad_left, pad_right

__all__ = ["WekaLogistic", "find_argmin", "remove_useless", "standardize", "objective", "gradient"]

_ALF, _BETA, _TOLX, _STPMX, _MAXITS = 1.0e-4, 0.9, 1.0e-6, 100.0, 200
_EPS = 2.220446049250313e-16              # WEKA's m_Epsilon (machine precision, computed by halving)
_ZERO = math.sqrt(_EPS)                   # WEKA's m_Zero
_MAX_DOUBLE = 1.7976931348623157e308
_MAX_RESTARTS = 500                       # -M -1 restarts every 200 iterations "until convergence"
# error_model="numpy": a division by zero gives inf / nan, as in Java, instead of raising


# --- objective (WEKA's Logistic.OptEng), sums in WEKA's order ------------
# The objective and its gradient share one pass over the data: the per-row exponentials of the last point
# evaluated are kept in a workspace (``_workspace``), so the gradient WEKA asks for at the point whose
# objective it has just computed costs no exponential, and a repeated request costs nothing. Every number is
# the one WEKA computes, in its order: only repeats are skipped.

@njit(cache=True)
def _workspace(n, dim, n_k):
    """Buffers of one optimisation: (point, exps, denominators, gradient, [f, has point, has gradient],
    coefficients by attribute, scores of one row)."""
    return (np.empty(dim * n_k), np.empty((n, n_k)), np.empty(n), np.empty(dim * n_k), np.zeros(3),
            np.empty((dim, n_k)), np.empty(n_k))


@njit(cache=True, error_model="numpy")
def _same_point(x, cx):
    """``x`` equals ``cx`` bit for bit (the sign of zero included, NaN never)."""
    for i in range(x.shape[0]):
        a, b = x[i], cx[i]
        if not (a == b and (a != 0.0 or math.copysign(1.0, a) == math.copysign(1.0, b))):
            return False
    return True


@njit(cache=True, error_model="numpy")
def _scores(row, x, xt, s):
    """The K - 1 scores of one row, each summed over the attributes in order, as WEKA's loop: one class
    at a time when there are few, else all classes in one sweep over the row (``xt``: x by attribute)."""
    n_k = s.shape[0]
    dim = row.shape[0]
    if n_k < 4:
        for o in range(n_k):
            c = x[o * dim:(o + 1) * dim]
            acc = 0.0
            for j in range(dim):
                acc += row[j] * c[j]
            s[o] = acc
        return
    s[:] = 0.0
    for j in range(dim):
        d = row[j]
        xj = xt[j]
        for o in range(n_k):
            s[o] += d * xj[o]


@njit(cache=True, error_model="numpy")
def _evaluate(x, data, cls, weights, ridge, n_k, ws):
    """Objective at ``x``, keeping each row's ``exp(score - max)`` and denominator in ``ws``."""
    cx, E, den, _, meta, xt, s = ws
    if meta[1] == 1.0 and _same_point(x, cx):
        return meta[0]
    n, dim = data.shape
    for o in range(n_k):                     # coefficients by attribute, for :func:`_scores`
        for j in range(dim):
            xt[j, o] = x[o * dim + j]
    nll = 0.0
    for i in range(n):
        _scores(data[i], x, xt, s)
        mx = s[0]
        for o in range(1, n_k):
            if s[o] > mx:
                mx = s[o]
        denom = java_exp(-mx)
        num = -mx if cls[i] == n_k else s[cls[i]] - mx
        for o in range(n_k):
            e = java_exp(s[o] - mx)
            E[i, o] = e
            denom += e
        den[i] = denom
        nll -= weights[i] * (num - java_log(denom))
    for o in range(n_k):
        for r in range(1, dim):
            nll += ridge * x[o * dim + r] * x[o * dim + r]
    cx[:] = x
    meta[0], meta[1], meta[2] = nll, 1.0, 0.0
    return nll


@njit(cache=True, error_model="numpy")
def _gradient(x, data, cls, weights, ridge, n_k, ws):
    """Gradient at ``x`` (a new array), from the exponentials :func:`_evaluate` kept."""
    _evaluate(x, data, cls, weights, ridge, n_k, ws)
    _, E, den, grad, meta, _, num = ws
    if meta[2] == 1.0:
        return grad.copy()
    n, dim = data.shape
    grad[:] = 0.0
    for i in range(n):
        row = data[i]
        for o in range(n_k):
            num[o] = E[i, o] / den[i]
        for o in range(n_k):
            first = weights[i] * num[o]
            g = grad[o * dim:(o + 1) * dim]
            for q in range(dim):
                g[q] += first * row[q]
        if cls[i] != n_k:
            g = grad[cls[i] * dim:(cls[i] + 1) * dim]
            for p in range(dim):
                g[p] -= weights[i] * row[p]
    for o in range(n_k):
        for r in range(1, dim):
            grad[o * dim + r] += 2 * ridge * x[o * dim + r]
    meta[2] = 1.0
    return grad.copy()


@njit(cache=True, error_model="numpy")
def objective(x, data, cls, weights, ridge, n_k):
    """Weighted negative log-likelihood plus ``ridge * sum of squared coefficients``."""
    return _evaluate(x, data, cls, weights, ridge, n_k, _workspace(data.shape[0], data.shape[1], n_k))


@njit(cache=True, error_model="numpy")
def gradient(x, data, cls, weights, ridge, n_k):
    """Gradient of :func:`objective`."""
    return _gradient(x, data, cls, weights, ridge, n_k, _workspace(data.shape[0], data.shape[1], n_k))


# --- WEKA's Optimization (no bounds: every variable free) -----------------

@njit(cache=True, error_model="numpy")
def _slope(g, d):
    s = 0.0
    for i in range(g.shape[0]):
        s += g[i] * d[i]
    return s


@njit(cache=True, error_model="numpy")
def _step(xold, direct, alam, x):
    for i in range(x.shape[0]):
        x[i] = xold[i] + alam * direct[i]


@njit(cache=True, error_model="numpy")
def _line_search(xold, grad, direct, stpmax, f, state, data, cls, weights, ridge, n_k, ws):
    """WEKA's ``lnsrch``: a new point along ``direct`` (scaled in place if longer than ``stpmax``).

    ``state`` holds WEKA's fields ``[m_f, m_Slope]`` and is updated.
    Returns the new point, or raises on a NaN objective.
    """
    n = xold.shape[0]
    fold = f
    alam2 = 0.0
    maxalam = 1.0
    x = xold.copy()
    s = 0.0
    for i in range(n):
        s += direct[i] * direct[i]
    s = math.sqrt(s)
    if s > stpmax:
        for i in range(n):
            direct[i] *= stpmax / s
    else:
        maxalam = stpmax / s
    slope = _slope(grad, direct)
    state[1] = slope
    if abs(slope) <= _ZERO:
        return x
    if slope > _ZERO:
        raise ValueError("g'*p positive in WEKA's line search")
    test = 0.0
    for i in range(n):
        t = abs(direct[i]) / max(abs(x[i]), 1.0)
        if t > test:
            test = t
    if test > _ZERO:
        alamin = _TOLX / test
    else:
        return x
    alam = 1.0                               # min(alpha = +inf, 1)
    init_f = fold
    hi = alam
    lo = alam
    new_slope = 0.0
    fhi = f
    flo = f
    tmplam = 0.0
    k = 0
    searching = True
    while searching:
        _step(xold, direct, alam, x)
        f = _evaluate(x, data, cls, weights, ridge, n_k, ws)
        if f != f:
            raise ValueError("Objective function value is NaN")
        while math.isinf(f):
            alam *= 0.5
            if alam <= _EPS:
                state[0] = f
                return x
            _step(xold, direct, alam, x)
            f = _evaluate(x, data, cls, weights, ridge, n_k, ws)
            if f != f:
                raise ValueError("Objective function value is NaN")
            init_f = math.inf
        if f <= fold + _ALF * alam * slope:          # sufficient decrease
            new_grad = _gradient(x, data, cls, weights, ridge, n_k, ws)
            new_slope = _slope(new_grad, direct)
            if new_slope >= _BETA * slope:
                state[0] = f
                return x
            elif k == 0:                             # first time: increase the step
                upper = maxalam
                while not (alam >= upper or f > fold + _ALF * alam * slope):
                    lo = alam
                    flo = f
                    alam *= 2.0
                    if alam >= upper:
                        alam = upper
                    _step(xold, direct, alam, x)
                    f = _evaluate(x, data, cls, weights, ridge, n_k, ws)
                    if f != f:
                        raise ValueError("Objective function value is NaN")
                    new_grad = _gradient(x, data, cls, weights, ridge, n_k, ws)
                    new_slope = _slope(new_grad, direct)
                    if new_slope >= _BETA * slope:
                        state[0] = f
                        return x
                hi = alam
                fhi = f
                searching = False
                break
            else:
                hi = alam2
                lo = alam
                flo = f
                searching = False
                break
        elif alam < alamin:                          # no feasible step
            if init_f < fold:
                alam = 1.0
                _step(xold, direct, alam, x)
            else:
                for i in range(n):
                    x[i] = xold[i]
                f = fold
            state[0] = f
            return x
        else:                                        # backtrack
            if k == 0:
                if not math.isinf(init_f):
                    init_f = f
                tmplam = -0.5 * alam * slope / ((f - fold) / alam - slope)
            else:
                rhs1 = f - fold - alam * slope
                rhs2 = fhi - fold - alam2 * slope
                a = (rhs1 / (alam * alam) - rhs2 / (alam2 * alam2)) / (alam - alam2)
                b = (-alam2 * rhs1 / (alam * alam) + alam * rhs2 / (alam2 * alam2)) / (alam - alam2)
                if a == 0.0:
                    tmplam = -slope / (2.0 * b)
                else:
                    disc = b * b - 3.0 * a * slope
                    if disc < 0.0:
                        disc = 0.0
                    numerator = -b + math.sqrt(disc)
                    if numerator >= _MAX_DOUBLE:
                        numerator = _MAX_DOUBLE
                    tmplam = numerator / (3.0 * a)
                if tmplam > 0.5 * alam:
                    tmplam = 0.5 * alam
        alam2 = alam
        fhi = f
        alam = max(tmplam, 0.1 * alam)
        k += 1
    ldiff = hi - lo
    while new_slope < _BETA * slope and ldiff >= alamin:   # zoom in for the curvature condition
        lincr = -0.5 * new_slope * ldiff * ldiff / (fhi - flo - new_slope * ldiff)
        if lincr < 0.2 * ldiff:
            lincr = 0.2 * ldiff
        alam = lo + lincr
        if alam >= hi:
            alam = hi
            lincr = ldiff
        _step(xold, direct, alam, x)
        f = _evaluate(x, data, cls, weights, ridge, n_k, ws)
        if f != f:
            raise ValueError("Objective function value is NaN")
        if f > fold + _ALF * alam * slope:
            ldiff = lincr
            fhi = f
        else:
            new_grad = _gradient(x, data, cls, weights, ridge, n_k, ws)
            new_slope = _slope(new_grad, direct)
            if new_slope < _BETA * slope:
                lo = alam
                ldiff -= lincr
                flo = f
    if new_slope < _BETA * slope:
        alam = lo
        _step(xold, direct, alam, x)
        f = flo
    state[0] = f
    return x


# The Cholesky factor L (unit lower triangular) is kept transposed and packed, U = L' row after row
# from its diagonal (:func:`_row`), so that every loop below runs along contiguous memory; the
# operations and their order are WEKA's. Step j of WEKA's rank-one modification and of its forward
# substitution reads and writes only row j of U (column j of L) and D[j], so a modification and the
# substitution that follows it run in one sweep over U (:func:`_update_and_direction`), each element
# getting WEKA's operations in WEKA's order. Loops run over slices starting at 0, which numba vectorises.

@njit(cache=True, error_model="numpy")
def _row(U, n, j):
    """Row j of the packed factor, from its diagonal element (``L[j, j]``) to ``L[n - 1, j]``."""
    start = j * n - (j * (j - 1)) // 2
    return U[start:start + n - j]


@njit(cache=True, error_model="numpy")
def _forward_row(U, D, j, acc, out, scaled):
    """Step j of the forward substitution with ``L D`` (``scaled``; element ``L[j, k] * D[k]``, as WEKA
    forms it) or ``L``: ``out[j]``, and row j's terms taken off ``acc``."""
    row = _row(U, D.shape[0], j)
    d = D[j]
    o = acc[j] / (row[0] * d) if scaled else acc[j] / row[0]
    out[j] = o
    _sweep_row(row[1:], acc[j + 1:], 0.0, 0.0, acc[j + 1:], o, d, 2 if scaled else 1, False)


@njit(cache=True, error_model="numpy")
def _sweep_row(tail, vp, p, b, rest, o, d, solve, modify):
    """The rest of a row: WEKA's modification ``vp[r] -= p * l; l += b * vp[r]`` (``modify``), then the
    forward substitution's ``rest[r] -= l * o`` (``solve`` 1) or ``(l * d) * o`` (``solve`` 2)."""
    if modify and solve == 0:
        for r in range(tail.shape[0]):
            el = tail[r]
            v = vp[r] - p * el
            vp[r] = v
            tail[r] = el + b * v
    elif modify and solve == 1:
        for r in range(tail.shape[0]):
            el = tail[r]
            v = vp[r] - p * el
            vp[r] = v
            el = el + b * v
            tail[r] = el
            rest[r] -= el * o
    elif modify:
        for r in range(tail.shape[0]):
            el = tail[r]
            v = vp[r] - p * el
            vp[r] = v
            el = el + b * v
            tail[r] = el
            rest[r] -= (el * d) * o
    elif solve == 1:
        for r in range(tail.shape[0]):
            rest[r] -= tail[r] * o
    else:
        for r in range(tail.shape[0]):
            rest[r] -= (tail[r] * d) * o


@njit(cache=True, error_model="numpy")
def _solve_lower(U, D, b, scaled):
    """Forward substitution with ``L D`` (``scaled``) or ``L``."""
    acc = b.copy()
    out = np.zeros(b.shape[0])
    for k in range(b.shape[0]):
        _forward_row(U, D, k, acc, out, scaled)
    return out


@njit(cache=True, error_model="numpy")
def _solve_upper(U, b):
    """Back substitution with ``L'`` (each sum in WEKA's order: a chain no reordering may shorten)."""
    n = b.shape[0]
    out = np.zeros(n)
    for j in range(n - 1, -1, -1):
        row = _row(U, n, j)
        tail, done = row[1:], out[j + 1:]
        num = b[j]
        for k in range(tail.shape[0]):
            num -= tail[k] * done[k]
        out[j] = num / row[0]
    return out


@njit(cache=True, error_model="numpy")
def _update_row(U, D, vp, t, j, acc, out):
    """Step j of WEKA's ``updateCholeskyFactor`` for ``coeff > 0`` (``t`` starts at coeff; returns t),
    with step j of the forward substitution with ``L`` of ``acc`` into ``out`` when ``acc`` is given."""
    n = D.shape[0]
    row = _row(U, n, j)
    p = vp[j]
    d = D[j]
    dbarj = d + t * p * p
    D[j] = dbarj
    b = p * t / dbarj
    t *= d / dbarj
    if acc is None:
        _sweep_row(row[1:], vp[j + 1:], p, b, vp[j + 1:], 0.0, 0.0, 0, True)
    else:
        o = acc[j] / row[0]
        out[j] = o
        _sweep_row(row[1:], vp[j + 1:], p, b, acc[j + 1:], o, 0.0, 1, True)
    return t


@njit(cache=True, error_model="numpy")
def _downdate_start(D, P, coeff, state):
    """WEKA's set-up of the ``coeff <= 0`` branch from ``P = L^-1 v``: ``state = [t, alpha, sigma]``."""
    t = 0.0
    for i in range(P.shape[0]):
        t += P[i] * P[i] / D[i]
    root = 1.0 + coeff * t
    root = 0.0 if root < 0.0 else math.sqrt(root)
    state[0], state[1], state[2] = t, coeff, coeff / (1.0 + root)


@njit(cache=True, error_model="numpy")
def _downdate_row(U, D, vp, P, state, j, acc, out):
    """Step j of WEKA's ``updateCholeskyFactor`` for ``coeff <= 0``, with step j of the forward
    substitution with ``L D`` of ``acc`` into ``out`` when ``acc`` is given."""
    n = D.shape[0]
    row = _row(U, n, j)
    t, alpha, sigma = state[0], state[1], state[2]
    d = D[j]
    p = P[j] * P[j] / d
    theta = 1.0 + sigma * p
    t -= p
    if t < 0.0:
        t = 0.0
    plus = sigma * sigma * p * t
    if j < n - 1 and plus <= _ZERO:
        plus = _ZERO
    rho = theta * theta + plus
    D[j] = rho * d
    if D[j] != D[j]:
        raise ValueError("NaN in WEKA's Cholesky update")
    b = alpha * P[j] / (rho * d)
    alpha /= rho
    rho = math.sqrt(rho)
    sigma *= (1.0 + rho) / (rho * (theta + rho))
    if j < n - 1 and (sigma != sigma or math.isinf(sigma)):
        raise ValueError("sigma NaN/Inf in WEKA's Cholesky update")
    state[0], state[1], state[2] = t, alpha, sigma
    if acc is None:
        _sweep_row(row[1:], vp[j + 1:], P[j], b, vp[j + 1:], 0.0, 0.0, 0, True)
    else:
        dj = D[j]
        o = acc[j] / (row[0] * dj)
        out[j] = o
        _sweep_row(row[1:], vp[j + 1:], P[j], b, acc[j + 1:], o, dj, 2, True)


@njit(cache=True, error_model="numpy")
def _update_cholesky(U, D, v, coeff):
    """WEKA's ``updateCholeskyFactor``: ``L D L' + coeff v v'`` as a new ``L D L'``, in place."""
    vp = v.copy()
    if coeff > 0.0:
        t = coeff
        for j in range(v.shape[0]):
            t = _update_row(U, D, vp, t, j, None, None)
    else:
        P = _solve_lower(U, D, v, False)
        state = np.empty(3)
        _downdate_start(D, P, coeff, state)
        for j in range(v.shape[0]):
            _downdate_row(U, D, vp, P, state, j, None, None)


@njit(cache=True, error_model="numpy")
def _update_and_direction(U, D, dgrad, c1, old_grad, c2, grad):
    """WEKA's BFGS step: ``updateCholeskyFactor(dgrad, c1)``, ``updateCholeskyFactor(old_grad, c2)``,
    then the direction ``L'^-1 (L D)^-1 (-grad)``. In the usual signs (c1 > 0, c2 <= 0) the first
    modification sweeps U together with the forward substitution the second needs, and the second
    together with the direction's forward substitution: three sweeps over U instead of five."""
    n = grad.shape[0]
    if not (c1 > 0.0 and not c2 > 0.0):
        _update_cholesky(U, D, dgrad, c1)
        _update_cholesky(U, D, old_grad, c2)
        return _solve_upper(U, _solve_lower(U, D, -grad, True))
    vp = dgrad.copy()
    acc = old_grad.copy()
    P = np.empty(n)
    t = c1
    for j in range(n):
        t = _update_row(U, D, vp, t, j, acc, P)
    state = np.empty(3)
    _downdate_start(D, P, c2, state)
    vp[:] = old_grad
    acc = -grad
    y = np.empty(n)
    for j in range(n):
        _downdate_row(U, D, vp, P, state, j, acc, y)
    return _solve_upper(U, y)


@njit(cache=True, error_model="numpy")
def find_argmin(x0, data, cls, weights, ridge, n_k, max_its):
    """WEKA's ``Optimization.findArgmin`` without bounds: ``(x, f, converged, iterations)``.

    ``converged`` is False when ``max_its`` iterations ran out (WEKA returns
    null and the caller restarts from ``x``).
    """
    n = x0.shape[0]
    ws = _workspace(data.shape[0], data.shape[1], n_k)
    f = _evaluate(x0, data, cls, weights, ridge, n_k, ws)
    if f != f:
        raise ValueError("Objective function value is NaN")
    grad = _gradient(x0, data, cls, weights, ridge, n_k, ws)
    U = np.zeros(n * (n + 1) // 2)             # the packed factor of the identity, WEKA's start
    for j in range(n):
        U[j * n - (j * (j - 1)) // 2] = 1.0
    D = np.ones(n)
    direct = -grad
    s = 0.0
    for i in range(n):
        s += grad[i] * grad[i]
    x = x0.copy()
    stpmax = _STPMX * max(math.sqrt(s), float(n))
    state = np.array([f, 0.0])
    delta_x = np.zeros(n)
    delta_grad = np.zeros(n)
    for step in range(max_its):
        old_x = x
        old_grad = grad
        x = _line_search(x, grad, direct, stpmax, state[0], state, data, cls, weights, ridge, n_k, ws)
        finish = False
        test = 0.0
        for h in range(n):
            delta_x[h] = x[h] - old_x[h]
            t = abs(delta_x[h]) / max(abs(x[h]), 1.0)
            if t > test:
                test = t
        if test < _ZERO:
            finish = True
        grad = _gradient(x, data, cls, weights, ridge, n_k, ws)
        test = 0.0
        denom = 0.0
        dx_sq = 0.0
        dg_sq = 0.0
        for g in range(n):
            delta_grad[g] = grad[g] - old_grad[g]
            denom += delta_x[g] * delta_grad[g]
            dx_sq += delta_x[g] * delta_x[g]
            dg_sq += delta_grad[g] * delta_grad[g]
            t = abs(grad[g]) * max(abs(direct[g]), 1.0) / max(abs(state[0]), 1.0)
            if t > test:
                test = t
        if test < _ZERO:
            finish = True
        if abs(denom) < _ZERO:
            finish = True
        if finish:
            f = _evaluate(x, data, cls, weights, ridge, n_k, ws)
            if f != f:
                raise ValueError("Objective function value is NaN")
            return x, f, True, step + 1
        if not denom < max(_ZERO * math.sqrt(dx_sq) * math.sqrt(dg_sq), _ZERO):
            direct = _update_and_direction(U, D, delta_grad, 1.0 / denom, old_grad, 1.0 / state[1], grad)
        else:
            direct = _solve_upper(U, _solve_lower(U, D, -grad, True))
        for m in range(n):
            if direct[m] != direct[m]:
                raise ValueError("direction is NaN in WEKA's optimiser")
    return x, state[0], False, max_its


# --- filters and statistics ----------------------------------------------

def remove_useless(X: np.ndarray, nominal: np.ndarray, max_variance_percent: float = 99.0) -> np.ndarray:
    """WEKA's RemoveUseless: which attributes to keep (bool mask).

    Dropped: all missing, fewer than two distinct values, or nominal with
    ``100 * distinct / known > max_variance_percent`` (nearly an identifier).
    """
    keep = np.ones(X.shape[1], dtype=bool)
    for j in range(X.shape[1]):
        col = X[:, j]
        known = col[~np.isnan(col)]
        if known.size == 0:
            keep[j] = False
            continue
        distinct = np.unique(known).size
        if distinct < 2:
            keep[j] = False
        elif nominal[j] and distinct / known.size * 100.0 > max_variance_percent:
            keep[j] = False
    return keep


@njit(cache=True, error_model="numpy")
def standardize(Z, w):
    """WEKA's design matrix: intercept column of 1, then each column standardised by its weighted
    mean and standard deviation (sums in row order). Returns (data, mean, sd)."""
    n, m = Z.shape
    data = np.empty((n, m + 1))
    mean = np.zeros(m + 1)
    sd = np.zeros(m + 1)
    total = 0.0
    for i in range(n):
        total += w[i]
        data[i, 0] = 1.0
        for j in range(m):
            v = Z[i, j]
            data[i, j + 1] = v
            mean[j + 1] += w[i] * v
            sd[j + 1] += w[i] * v * v
    mean[0] = 0.0
    sd[0] = 1.0
    for j in range(1, m + 1):
        mean[j] = mean[j] / total
        if total > 1:
            sd[j] = math.sqrt(abs(sd[j] - total * mean[j] * mean[j]) / (total - 1))
        else:
            sd[j] = 0.0
    for i in range(n):
        for j in range(m + 1):
            if sd[j] != 0:
                data[i, j] = (data[i, j] - mean[j]) / sd[j]
    return data, mean, sd


@njit(cache=True, error_model="numpy")
def _probabilities(Z, par):
    """WEKA's ``evaluateProbability`` for every row of ``Z`` (original units; ``par``: (1 + m) x (K - 1))."""
    n, m = Z.shape
    n_k = par.shape[1]
    K = n_k + 1
    out = np.empty((n, K))
    v = np.zeros(K)
    for i in range(n):
        for j in range(n_k):
            s = par[0, j]
            for k in range(m):
                s += par[k + 1, j] * Z[i, k]
            v[j] = s
        v[K - 1] = 0.0
        for c in range(K):
            s = 0.0
            for j in range(n_k):
                s += java_exp(v[j] - v[c])
            out[i, c] = 1.0 / (s + java_exp(-v[c]))
    return out


class WekaLogistic(EncodedFolds, TabularClassifier):
    """WEKA 3.6 ``Logistic -R ridge -M max_iter``: multinomial ridge logistic regression.

    Parameters
    ----------
    ridge : float, WEKA's ``-R`` (default 1e-8).
    max_iter : int, WEKA's ``-M``: iterations of the optimiser; -1 (default) = until it converges.

    Attributes: ``coef_`` ((1 + attributes after filtering) x (K - 1), intercept
    first, original units, as WEKA's ``coefficients()``), ``n_iter_`` (optimiser
    iterations over all restarts), ``converged_`` (False when ``-M`` or the port's
    cap of -M -1 stopped the search first: WEKA then keeps the last iterate), ``log_likelihood_``. ``attribute_names()``
    names the model's inputs, ``to_text()`` prints the model as WEKA does.
    A single class is fitted trivially (probability 1; WEKA refuses a unary class).
    """

    def __init__(self, ridge=1e-8, max_iter=-1):
        self.ridge = ridge
        self.max_iter = max_iter

    def _check_options(self):
        if not (isinstance(self.ridge, (int, float, np.floating)) and self.ridge >= 0):
            raise ValueError(f"ridge must be a non-negative number, got {self.ridge!r}")
        if not isinstance(self.max_iter, (int, np.integer)) or (self.max_iter < 1 and self.max_iter != -1):
            raise ValueError(f"max_iter must be -1 (until convergence) or a positive integer, got {self.max_iter!r}")

    def filters_fit(self, X):
        """WEKA's ReplaceMissingValues and RemoveUseless, fitted on encoded training data: (fill, keep)."""
        nominal = self.schema_.nominal
        fill = replace_missing_stats(X, nominal)
        keep = remove_useless(replace_missing(X, fill), nominal)
        return fill, keep

    def filters_apply(self, X):
        """The fitted filters and NominalToBinary applied to encoded data: the model's numeric inputs."""
        fill, keep = self.filters_
        nominal, n_values = self.schema_.nominal, self.schema_.n_values
        Xk = replace_missing(X, fill)[:, keep]
        return np.ascontiguousarray(nominal_to_binary(Xk, nominal[keep], n_values[keep]))

    def _fit(self, X, y):
        self._check_options()
        self.filters_ = self.filters_fit(X)
        Z = self.filters_apply(X)
        K = len(self.classes_)
        n_k = K - 1
        if n_k == 0:                        # one class: nothing to fit (WEKA refuses a unary class)
            self.coef_ = np.zeros((Z.shape[1] + 1, 0))
            self.n_iter_, self.n_restarts_, self.log_likelihood_, self.converged_ = 1, 0, 0.0, True
            return
        w = np.ones(len(y))
        data, mean, sd = standardize(Z, w)
        dim = data.shape[1]
        counts = np.bincount(y, minlength=K).astype(float)
        x = np.zeros(dim * n_k)
        for p in range(n_k):
            x[p * dim] = java_log(counts[p] + 1.0) - java_log(counts[n_k] + 1.0)
        ridge = float(self.ridge)
        cls = np.ascontiguousarray(y, dtype=np.int64)
        its = _MAXITS if self.max_iter == -1 else int(self.max_iter)
        x, f, done, n_iter = find_argmin(x, data, cls, w, ridge, n_k, its)
        restarts = 0
        while not done and self.max_iter == -1:
            restarts += 1
            if restarts > _MAX_RESTARTS:
                warnings.warn(f"WEKA Logistic did not converge in {_MAX_RESTARTS * _MAXITS} iterations",
                              ConvergenceWarning, stacklevel=3)
                break
            x, f, done, more = find_argmin(x, data, cls, w, ridge, n_k, its)
            n_iter += more
        self.n_restarts_ = restarts
        self.converged_ = bool(done)
        self.n_iter_ = int(n_iter)
        self.log_likelihood_ = -f
        par = np.zeros((dim, n_k))
        for i in range(n_k):
            par[0, i] = x[i * dim]
            for j in range(1, dim):
                par[j, i] = x[i * dim + j]
                if sd[j] != 0:
                    par[j, i] /= sd[j]
                    par[0, i] -= par[j, i] * mean[j]
        self.coef_ = par

    def _predict_proba(self, X):
        return _probabilities(self.filters_apply(X), self.coef_)

    def attribute_names(self) -> list[str]:
        """Names of the model's inputs after RemoveUseless and NominalToBinary (WEKA's ``name=value``)."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(len(self.schema_.nominal))]))
        out = []
        for j in np.flatnonzero(self.filters_[1]):
            cats = self.schema_.categories[j]
            if self.schema_.nominal[j] and len(cats) > 2:
                out.extend(f"{names[j]}={v}" for v in cats)
            else:
                out.append(str(names[j]))
        return out

    def to_text(self) -> str:
        """The model as WEKA 3.6 prints it (coefficients and odds ratios)."""
        par, K = self.coef_, len(self.classes_)
        names = self.attribute_names()
        att_len = max([len(n) for n in names] + [len("Intercept"), len("Variable")]) + 2
        classes = [str(c) for c in self.classes_]
        col = max([len(c) for c in classes[:-1]] + [0])

        def odds(v):
            o = java_exp(float(v))
            return " " + (java_double(o) if o > 1e10 else double_to_string(o, 4, 12))

        for j in range(1, par.shape[0]):
            for k in range(K - 1):
                col = max(col, len(double_to_string(par[j, k], 4, 12).strip()), len(odds(par[j, k]).strip()))
        col = max(col, len("Class")) + 2
        rule = "=" * (att_len + (K - 1) * col)

        def header():
            return [pad_left(" ", att_len) + pad_left("Class", col),
                    pad_right("Variable", att_len) + "".join(pad_left(c, col) for c in classes[:-1]), rule]

        lines = [f"Logistic Regression with ridge parameter of {java_double(self.ridge)}", "Coefficients..."]
        lines += header()
        for j, name in enumerate(names, start=1):
            lines.append(pad_right(name, att_len)
                         + "".join(pad_left(double_to_string(par[j, k], 4, 12).strip(), col) for k in range(K - 1)))
        lines.append(pad_right("Intercept", att_len)
                     + "".join(pad_left(double_to_string(par[0, k], 4, 10).strip(), col) for k in range(K - 1)))
        lines += ["", "", "Odds Ratios..."] + header()
        for j, name in enumerate(names, start=1):
            lines.append(pad_right(name, att_len)
                         + "".join(pad_left(odds(par[j, k]).strip(), col) for k in range(K - 1)))
        return "\n".join(lines) + "\n"
