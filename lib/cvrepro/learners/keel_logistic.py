"""KEEL's Logistic (a port of WEKA's), for the logistic models KEEL's SMO fits to its SVM outputs.

KEEL's SMO with "FitLogisticModels" turns each binary machine's output into a
probability with a logistic regression fitted to the machine's outputs on its
own training instances (Moreno-Torres et al.'s SVM, :mod:`cvrepro.learners.keel_svm`).
The outputs of a C = 100 machine usually separate its training classes, so the
maximum-likelihood fit does not exist and the ridge (1e-8) alone keeps it
finite: the fitted threshold then depends on where the optimiser stops. So we
follow KEEL's optimiser, not just its objective:

* data: one attribute, standardised by its mean and sample standard deviation
  (sums in instance order), class 0 (the machine's first class) against
  class 1 (the reference class);
* objective: the negative log-likelihood plus ``1e-8`` times the squared
  standardised slope; start: the null model (intercept ``log(n0 + 1) - log(n1 +
  1)``, slope 0);
* optimiser (WEKA's ``Optimization.findArgmin`` without bounds): quasi-Newton
  with the BFGS update of an ``L D L'`` factorisation of the Hessian
  approximation, a line search with sufficient-decrease (1e-4) and curvature
  (0.9) conditions, quadratic then cubic backtracking, step doubling and
  interval shrinking, steps capped at ``100 max(|g|, 2)``; stop when the step
  or the scaled gradient is below ``sqrt(machine epsilon)``; restart after 200
  iterations;
* result: back on the original scale, ``P(class 0 | x) = 1 / (1 + exp(-(b0 +
  b1 x)))`` and ``P(class 1 | x) = 1 / (exp(b0 + b1 x) + 1)``.

The arithmetic follows KEEL's order; ``exp`` and ``log`` may differ from Java's
in the last bit.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import libm

__all__ = ["LogisticModel", "fit_logistic"]

_RIDGE = 1e-8
_ALF, _BETA, _TOLX, _STPMX, _MAXITS = 1.0e-4, 0.9, 1.0e-6, 100.0, 200
_EPS = 2.0 ** -52
_ZERO = np.sqrt(_EPS)


@njit(cache=True)
def _objective(z, cls, x0, x1):
    nll = 0.0
    for i in range(z.shape[0]):
        e = 0.0 + 1.0 * x0
        e = e + z[i] * x1
        mx = e
        denom = np.exp(-mx)
        num = -mx if cls[i] == 1 else e - mx
        denom += np.exp(e - mx)
        nll -= 1.0 * (num - np.log(denom))
    nll += _RIDGE * x1 * x1
    return nll


@njit(cache=True)
def _gradient(z, cls, x0, x1):
    g0 = 0.0
    g1 = 0.0
    for i in range(z.shape[0]):
        e = 0.0 + 1.0 * x0
        e = e + z[i] * x1
        mx = e
        denom = np.exp(-mx)
        num = np.exp(e - mx)
        denom += num
        num = num / denom
        first = 1.0 * num
        g0 += first * 1.0
        g1 += first * z[i]
        if cls[i] != 1:
            g0 -= 1.0 * 1.0
            g1 -= 1.0 * z[i]
    g1 += 2 * _RIDGE * x1
    return np.array([g0, g1])


class _Search:
    """WEKA's quasi-Newton minimiser, unconstrained, for the two parameters."""

    def __init__(self, z, cls):
        self.z, self.cls = z, cls
        self.f = 0.0
        self.slope = 0.0
        self.x = None

    def obj(self, x):
        return _objective(self.z, self.cls, x[0], x[1])

    def grad(self, x):
        return _gradient(self.z, self.cls, x[0], x[1])

    def lnsrch(self, xold, gradient, direct, stpmax):
        n = len(xold)
        fold = self.f
        maxalam = 1.0
        s = 0.0
        for i in range(n):
            s += direct[i] * direct[i]
        s = np.sqrt(s)
        if s > stpmax:
            for i in range(n):
                direct[i] *= stpmax / s
        else:
            maxalam = stpmax / s
        self.slope = 0.0
        x = xold.copy()
        for i in range(n):
            self.slope += gradient[i] * direct[i]
        if abs(self.slope) <= _ZERO:
            return x
        if self.slope > _ZERO:
            raise FloatingPointError("KEEL's logistic optimiser: g'p positive")
        test = 0.0
        for i in range(n):
            t = abs(direct[i]) / max(abs(x[i]), 1.0)
            if t > test:
                test = t
        if not test > _ZERO:
            return x
        alamin = _TOLX / test
        alpha = np.inf
        alam = min(alpha, 1.0)
        init_f = fold
        hi = lo = alam
        new_slope = 0.0
        fhi = flo = self.f
        alam2 = 0.0
        k = 0
        while True:
            for i in range(n):
                x[i] = xold[i] + alam * direct[i]
            self.f = self.obj(x)
            if np.isnan(self.f):
                raise FloatingPointError("KEEL's logistic optimiser: objective is NaN")
            while np.isinf(self.f):
                alam *= 0.5
                if alam <= _EPS:
                    return x
                for i in range(n):
                    x[i] = xold[i] + alam * direct[i]
                self.f = self.obj(x)
                init_f = np.inf
            if self.f <= fold + _ALF * alam * self.slope:
                g = self.grad(x)
                new_slope = 0.0
                for i in range(n):
                    new_slope += g[i] * direct[i]
                if new_slope >= _BETA * self.slope:
                    return x
                if k == 0:
                    upper = min(alpha, maxalam)
                    while not (alam >= upper or self.f > fold + _ALF * alam * self.slope):
                        lo = alam
                        flo = self.f
                        alam *= 2.0
                        if alam >= upper:
                            alam = upper
                        for i in range(n):
                            x[i] = xold[i] + alam * direct[i]
                        self.f = self.obj(x)
                        g = self.grad(x)
                        new_slope = 0.0
                        for i in range(n):
                            new_slope += g[i] * direct[i]
                        if new_slope >= _BETA * self.slope:
                            return x
                    hi = alam
                    fhi = self.f
                    break
                hi, lo, flo = alam2, alam, self.f
                break
            elif alam < alamin:
                if init_f < fold:
                    alam = min(1.0, alpha)
                    for i in range(n):
                        x[i] = xold[i] + alam * direct[i]
                else:
                    x = xold.copy()
                    self.f = fold
                return x
            else:
                if k == 0:
                    if not np.isinf(init_f):
                        init_f = self.f
                    tmplam = -0.5 * alam * self.slope / ((self.f - fold) / alam - self.slope)
                else:
                    rhs1 = self.f - fold - alam * self.slope
                    rhs2 = fhi - fold - alam2 * self.slope
                    a = (rhs1 / (alam * alam) - rhs2 / (alam2 * alam2)) / (alam - alam2)
                    b = (-alam2 * rhs1 / (alam * alam) + alam * rhs2 / (alam2 * alam2)) / (alam - alam2)
                    if a == 0.0:
                        tmplam = -self.slope / (2.0 * b)
                    else:
                        disc = b * b - 3.0 * a * self.slope
                        if disc < 0.0:
                            disc = 0.0
                        numerator = -b + np.sqrt(disc)
                        if numerator >= np.finfo(float).max:
                            numerator = np.finfo(float).max
                        tmplam = numerator / (3.0 * a)
                    if tmplam > 0.5 * alam:
                        tmplam = 0.5 * alam
            alam2 = alam
            fhi = self.f
            alam = max(tmplam, 0.1 * alam)
            k += 1
        ldiff = hi - lo
        while new_slope < _BETA * self.slope and ldiff >= alamin:
            lincr = -0.5 * new_slope * ldiff * ldiff / (fhi - flo - new_slope * ldiff)
            if lincr < 0.2 * ldiff:
                lincr = 0.2 * ldiff
            alam = lo + lincr
            if alam >= hi:
                alam = hi
                lincr = ldiff
            for i in range(n):
                x[i] = xold[i] + alam * direct[i]
            self.f = self.obj(x)
            if self.f > fold + _ALF * alam * self.slope:
                ldiff = lincr
                fhi = self.f
            else:
                g = self.grad(x)
                new_slope = 0.0
                for i in range(n):
                    new_slope += g[i] * direct[i]
                if new_slope < _BETA * self.slope:
                    lo = alam
                    ldiff -= lincr
                    flo = self.f
        if new_slope < _BETA * self.slope:
            alam = lo
            for i in range(n):
                x[i] = xold[i] + alam * direct[i]
            self.f = flo
        return x

    def argmin(self, init):
        n = len(init)
        self.f = self.obj(init)
        grad = self.grad(init)
        L = np.eye(n)
        D = np.ones(n)
        direct = -grad
        s = 0.0
        for i in range(n):
            s += grad[i] * grad[i]
        x = np.array(init, dtype=float)
        stpmax = _STPMX * max(np.sqrt(s), n)
        for _ in range(_MAXITS):
            old_x, old_grad = x, grad
            x = self.lnsrch(x, grad, direct, stpmax)
            finish = False
            test = 0.0
            dx = x - old_x
            for h in range(n):
                t = abs(dx[h]) / max(abs(x[h]), 1.0)
                if t > test:
                    test = t
            if test < _ZERO:
                finish = True
            grad = self.grad(x)
            test = denom = dx_sq = dg_sq = 0.0
            dg = np.empty(n)
            for g in range(n):
                dg[g] = grad[g] - old_grad[g]
                denom += dx[g] * dg[g]
                dx_sq += dx[g] * dx[g]
                dg_sq += dg[g] * dg[g]
                t = abs(grad[g]) * max(abs(direct[g]), 1.0) / max(abs(self.f), 1.0)
                if t > test:
                    test = t
            if test < _ZERO:
                finish = True
            if abs(denom + 0.0) < _ZERO:
                finish = True
            if finish:
                self.f = self.obj(x)
                return x
            if not denom < max(_ZERO * np.sqrt(dx_sq) * np.sqrt(dg_sq), _ZERO):
                _update(L, D, dg, 1.0 / denom)
                _update(L, D, old_grad, 1.0 / self.slope)
            LD = np.zeros((n, n))
            for k in range(n):
                for j in range(k, n):
                    LD[j, k] = L[j, k] * D[k]
            direct = _solve(L, _solve(LD, -grad, True), False)
            if np.isnan(direct).any():
                raise FloatingPointError("KEEL's logistic optimiser: direction is NaN")
        self.x = x
        return None


def _solve(t, b, lower):
    n = len(b)
    out = np.zeros(n)
    order = range(n) if lower else range(n - 1, -1, -1)
    for j in order:
        num = b[j]
        if lower:
            for k in range(j):
                num -= t[j, k] * out[k]
        else:
            for k in range(j + 1, n):
                num -= t[k, j] * out[k]
        out[j] = num / t[j, j]
    return out


def _update(L, D, v, coeff):
    """WEKA's rank-one update of the factorisation ``L D L'`` by ``coeff v v'``."""
    n = len(v)
    vp = np.array(v, dtype=float)
    if coeff > 0.0:
        t = coeff
        for j in range(n):
            p = vp[j]
            d = D[j]
            dbar = d + t * p * p
            D[j] = dbar
            b = p * t / dbar
            t *= d / dbar
            for r in range(j + 1, n):
                le = L[r, j]
                vp[r] -= p * le
                L[r, j] = le + b * vp[r]
        return
    P = _solve(L, v, True)
    t = 0.0
    for i in range(n):
        t += P[i] * P[i] / D[i]
    root = 1.0 + coeff * t
    root = 0.0 if root < 0.0 else np.sqrt(root)
    alpha, sigma = coeff, coeff / (1.0 + root)
    for j in range(n):
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
        if np.isnan(D[j]):
            raise FloatingPointError("KEEL's logistic optimiser: factor is NaN")
        b = alpha * P[j] / (rho * d)
        alpha /= rho
        rho = np.sqrt(rho)
        sigma *= (1.0 + rho) / (rho * (theta + rho))
        for r in range(j + 1, n):
            le = L[r, j]
            vp[r] -= P[j] * le
            L[r, j] = le + b * vp[r]


class LogisticModel:
    """A fitted one-attribute logistic model: ``P(class 0 | x) = 1 / (1 + exp(-(b0 + b1 x)))``."""

    def __init__(self, b0: float, b1: float):
        self.b0, self.b1 = b0, b1

    def proba(self, x) -> np.ndarray:
        """``(n, 2)``: KEEL's probabilities of class 0 and class 1 for values ``x``."""
        x = np.asarray(x, dtype=float)
        with np.errstate(over="ignore"):
            v = (0.0 + self.b0 * 1.0) + self.b1 * x
            return np.column_stack([1.0 / (1.0 + libm.exp(-v)), 1.0 / (libm.exp(v) + 1.0)])


def fit_logistic(x, second) -> LogisticModel:
    """KEEL's Logistic fitted to values ``x`` (instance order matters: sums run in it) with
    labels ``second`` (True: class 1, the reference class)."""
    x = np.asarray(x, dtype=float)
    cls = np.asarray(second, dtype=np.int64)
    n = len(x)
    mean = 0.0
    sq = 0.0
    for v in x:
        mean += 1.0 * v
        sq += 1.0 * v * v
    mean = mean / n
    sd = np.sqrt(abs(sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    z = (x - mean) / sd if sd != 0 else x.copy()
    counts = np.bincount(cls, minlength=2)
    init = np.array([libm.log(counts[0] + 1.0) - libm.log(counts[1] + 1.0), 0.0])
    search = _Search(np.ascontiguousarray(z), cls)
    par = search.argmin(init)
    while par is None:
        par = search.argmin(search.x)
    b0, b1 = par[0], par[1]
    if sd != 0:
        b1 /= sd
        b0 -= b1 * mean
    return LogisticModel(b0, b1)
