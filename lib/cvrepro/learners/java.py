"""Java's and WEKA's runtime arithmetic, emulated bit for bit for our ports of WEKA's learners.

* :class:`JavaRandom`: ``java.util.Random``, the generator WEKA seeds with
  ``-S`` / ``-W`` (weights of the MLP, shuffles of the MLP and SMO);
  :meth:`JavaRandom.shuffle` is WEKA's ``Instances.randomize``.
* :func:`java_exp`: ``StrictMath.exp`` (fdlibm's ``e_exp.c``); its constants
  are public (``LN2_HI`` ... ``EXP_P5``) for rewritten forms of the same
  function (:mod:`cvrepro.learners.mlp_batched`).
* ``SMALL``: the tolerance of WEKA's comparisons (``weka.core.Utils.SMALL``);
  :func:`weka_classify` is the class choice of ``classifyInstance`` in
  WEKA's trees and rule lists; :func:`weka_round_text` and :func:`weka_number_text` print numbers as
  J48's and PART's models print them.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["JavaRandom", "java_exp", "SMALL", "weka_classify", "weka_round_text", "weka_number_text",
           "LN2_HI", "LN2_LO", "INV_LN2", "EXP_P1", "EXP_P2", "EXP_P3", "EXP_P4", "EXP_P5"]

SMALL = 1e-6          # weka.core.Utils.SMALL: the tolerance of Utils.gr / sm / eq


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator WEKA seeds with -S."""

    _MULT, _MASK = 0x5DEECE66D, (1 << 48) - 1

    def __init__(self, seed: int):
        self._seed = (int(seed) ^ self._MULT) & self._MASK

    def _next(self, bits: int) -> int:
        self._seed = (self._seed * self._MULT + 0xB) & self._MASK
        r = self._seed >> (48 - bits)
        return r - (1 << 32) if bits == 32 and r >= (1 << 31) else r

    def next_double(self) -> float:
        return ((self._next(26) << 27) + self._next(27)) * (1.0 / (1 << 53))

    def next_int(self, bound: int) -> int:
        if bound & -bound == bound:
            return (bound * self._next(31)) >> 31
        while True:
            bits = self._next(31)
            val = bits % bound
            if bits - val + (bound - 1) < (1 << 31):
                return val

    def shuffle(self, a: np.ndarray) -> np.ndarray:
        """Shuffle ``a`` in place as WEKA's ``Instances.randomize`` does (last position first); returns ``a``."""
        for j in range(len(a) - 1, 0, -1):
            k = self.next_int(j + 1)
            a[j], a[k] = a[k], a[j]
        return a


# fdlibm's exp (Java's StrictMath.exp): argument reduction x = k ln2 + r, then a
# degree-5 minimax rational approximation of exp(r); constants of fdlibm's e_exp.c.
LN2_HI, LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
INV_LN2 = 1.44269504088896338700e+00
EXP_P1, EXP_P2, EXP_P3 = 1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05
EXP_P4, EXP_P5 = -1.65339022054652515390e-06, 4.13813679705723846039e-08


@njit(cache=True)
def java_exp(x):
    """``StrictMath.exp`` bit for bit (fdlibm), so training follows WEKA's arithmetic exactly."""
    if x != x:
        return x
    if x > 7.09782712893383973096e+02:
        return math.inf
    if x < -7.45133219101941108420e+02:
        return 0.0
    negative = x < 0
    ax = abs(x)
    k = 0
    hi = lo = 0.0
    if ax > 0.5 * 0.6931471805599453:
        if ax < 1.5 * 0.6931471805599453:
            hi = x + LN2_HI if negative else x - LN2_HI
            lo = -LN2_LO if negative else LN2_LO
            k = -1 if negative else 1
        else:
            k = int(INV_LN2 * x + (-0.5 if negative else 0.5))
            hi = x - k * LN2_HI
            lo = k * LN2_LO
        x = hi - lo
    elif ax < 3.725290298461914e-09:
        return 1.0 + x
    t = x * x
    c = x - t * (EXP_P1 + t * (EXP_P2 + t * (EXP_P3 + t * (EXP_P4 + t * EXP_P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    return math.ldexp(1.0 - ((lo - (x * c) / (2.0 - c)) - hi), k)


def weka_classify(P: np.ndarray) -> np.ndarray:
    """Per row of class probabilities, the class WEKA's J48 and PART ``classifyInstance`` pick.

    Classes are scanned in order and one is taken when it exceeds the best so
    far (starting from -1) by more than ``SMALL`` (``Utils.gr``): ties within
    1e-6 go to the lower class, near-ties chain upwards as WEKA's loop does.
    """
    P = np.asarray(P, dtype=float)
    best = np.zeros(P.shape[0], dtype=np.int64)
    top = np.full(P.shape[0], -1.0)
    for j in range(P.shape[1]):
        better = P[:, j] - top > SMALL
        best[better] = j
        top[better] = P[better, j]
    return best


def weka_round_text(x: float) -> str:
    """Java's ``Double.toString(Utils.roundDouble(x, 2))`` (weights in J48's leaves)."""
    return repr(math.floor(x * 100 + 0.5) / 100)


def weka_number_text(x: float) -> str:
    """WEKA's ``Utils.doubleToString(x, 6)``: round half up of x * 1e6, trailing zeros removed."""
    temp = x * 1e6
    units = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    if units == 0:
        return "0"
    sign, digits = ("-" if units < 0 else ""), str(abs(units)).rjust(7, "0")
    whole, frac = digits[:-6], digits[-6:].rstrip("0")
    return sign + whole + ("." + frac if frac else "")
