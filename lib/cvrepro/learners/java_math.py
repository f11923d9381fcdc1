"""Java's strict logarithm, bit for bit, for learners that follow WEKA's arithmetic.

``java_log`` is fdlibm's ``__ieee754_log`` (Java's ``StrictMath.log``, and
``Math.log`` when the JVM runs without its libm intrinsics,
``-XX:-UseLibmIntrinsic``): the argument is reduced to ``2^k (1 + f)`` with
``1 + f`` in ``[sqrt(2)/2, sqrt(2))``, and ``log(1 + f)`` comes from
``s = f / (2 + f)`` and a degree-14 polynomial in ``s`` (coefficients
``LG1..LG7`` from fdlibm's ``e_log.c``). Its companion ``java_exp`` lives in
:mod:`cvrepro.learners.mlp`.
"""
from __future__ import annotations

import math

from numba import njit

__all__ = ["java_log"]

_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
_LG1, _LG2, _LG3 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01
_LG4, _LG5 = 2.222219843214978396e-01, 1.818357216161805012e-01
_LG6, _LG7 = 1.531383769920937332e-01, 1.479819860511658591e-01


@njit(cache=True)
def java_log(x):
    """``StrictMath.log(x)`` bit for bit (fdlibm)."""
    if x != x or x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    if math.isinf(x):
        return x
    m, e = math.frexp(x)                     # x = m 2^e, m in [0.5, 1): exact, subnormals included
    m *= 2.0
    k = e - 1
    hx = int((m - 1.0) * 1048576.0)          # the top 20 bits of the significand
    if (hx + 0x95F64) & 0x100000:            # significand >= sqrt(2): use m / 2
        m *= 0.5
        k += 1
    f = m - 1.0
    dk = float(k)
    if ((2 + hx) & 0x000FFFFF) < 3:          # |f| < 2^-20
        if f == 0.0:
            return 0.0 if k == 0 else dk * _LN2_HI + dk * _LN2_LO
        R = f * f * (0.5 - 0.33333333333333333 * f)
        if k == 0:
            return f - R
        return dk * _LN2_HI - ((R - dk * _LN2_LO) - f)
    s = f / (2.0 + f)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    R = t2 + t1
    if i >= 0 and j >= 0 and (i | j) != 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + R))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + R) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - R)
    return dk * _LN2_HI - ((s * (f - R) - dk * _LN2_LO) - f)
