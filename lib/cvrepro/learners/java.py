"""Java's and WEKA's runtime arithmetic, emulated bit for bit for our ports of WEKA's learners.

* ``java_random_*``: ``java.util.Random``, the generator WEKA seeds with
  ``-S`` / ``-W``, as numba functions on a one-element state array;
  :func:`randomize` is WEKA's ``Instances.randomize``; :class:`JavaRandom`
  wraps them for Python-level callers (MLP weights, MLP and SMO shuffles).
  The one implementation of Java's generator here (trees, forests, JRip use it).
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

from .weka_format import double_to_string, java_double

__all__ = ["JavaRandom", "java_random_seed", "java_random_next", "java_random_next_int", "java_random_next_int32",
           "java_random_next_double", "randomize", "java_exp", "SMALL", "weka_classify", "weka_round_text",
           "weka_number_text",
           "LN2_HI", "LN2_LO", "INV_LN2", "EXP_P1", "EXP_P2", "EXP_P3", "EXP_P4", "EXP_P5"]

SMALL = 1e-6          # weka.core.Utils.SMALL: the tolerance of Utils.gr / sm / eq


# --- java.util.Random: the 48-bit linear congruential generator, as numba functions on a one-element
# uint64 state array (so that resampling and shuffles run inside compiled loops) ---------------------

_MULT = np.uint64(0x5DEECE66D)
_MASK = np.uint64((1 << 48) - 1)


@njit(cache=True)
def java_random_seed(seed):
    """A state array for ``new Random(seed)`` (``seed`` a Java long)."""
    return np.array([(np.uint64(np.int64(seed)) ^ _MULT) & _MASK], dtype=np.uint64)


@njit(cache=True)
def java_random_next(state, bits):
    """``Random.next(bits)`` (a non-negative int for bits < 32, a signed int for bits == 32)."""
    state[0] = (state[0] * _MULT + np.uint64(0xB)) & _MASK
    r = np.int64(state[0] >> np.uint64(48 - bits))
    if bits == 32 and r >= 2147483648:
        r -= 4294967296
    return r


@njit(cache=True)
def java_random_next_int(state, bound):
    """``Random.nextInt(bound)``."""
    if bound & -bound == bound:
        return (bound * java_random_next(state, 31)) >> 31
    while True:
        bits = java_random_next(state, 31)
        val = bits % bound
        if bits - val + (bound - 1) < 2147483648:
            return val


@njit(cache=True)
def java_random_next_int32(state):
    """``Random.nextInt()`` (any int)."""
    return java_random_next(state, 32)


@njit(cache=True)
def java_random_next_double(state):
    """``Random.nextDouble()``."""
    return ((java_random_next(state, 26) << 27) + java_random_next(state, 27)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def randomize(order, state):
    """``Instances.randomize(random)``: shuffle ``order`` in place, from the last position down."""
    for j in range(order.shape[0] - 1, 0, -1):
        k = java_random_next_int(state, j + 1)
        t = order[j]
        order[j] = order[k]
        order[k] = t


class JavaRandom:
    """``java.util.Random`` as an object (for Python-level callers; the same functions as above)."""

    def __init__(self, seed: int):
        self._state = java_random_seed(int(seed))

    def _next(self, bits: int) -> int:
        return int(java_random_next(self._state, bits))

    def next_double(self) -> float:
        return float(java_random_next_double(self._state))

    def next_int(self, bound: int) -> int:
        return int(java_random_next_int(self._state, bound))

    def shuffle(self, a: np.ndarray) -> np.ndarray:
        """Shuffle ``a`` in place as WEKA's ``Instances.randomize`` does (last position first); returns ``a``."""
        randomize(a, self._state)
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
    return java_double(math.floor(x * 100 + 0.5) / 100)


def weka_number_text(x: float) -> str:
    """WEKA's ``Utils.doubleToString(x, 6)``: round half up of x * 1e6, trailing zeros removed."""
    return double_to_string(x, 6)
