"""The C library's ``exp``, ``log`` and ``log2``, element by element: the same bits on every machine.

numpy computes float64 ``exp``, ``log``, ``log2`` (and ``log1p``, ``expm1``,
``power``) with its own SIMD code where the CPU has AVX-512 (``X86_V4`` under
``numpy.show_runtime()``'s ``found``) and with the C library's functions
elsewhere. The two differ in the last bit for some arguments (``exp``: 4.6 %
of arguments drawn uniformly from [-30, 30]; ``log``: 0.04 %), so a
learner's probabilities computed with ``np.exp`` differed between an AVX-512
machine and one without. What a run keeps (predictions, generated data, the
measures the studies ship) uses these functions instead: the C library's on
every machine, which is what numpy gives without AVX-512. They are slower than
numpy's (0.1-0.4 us per element against a few ns) and meant for the small arrays of
a fit or a prediction; a large kernel uses a compiled loop of the C library's
function instead (:func:`cvrepro.shift.gaussian_kernel`).
"""
from __future__ import annotations

import functools
import math

import numpy as np

__all__ = ["exp", "log", "log2", "log_integers"]


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:                            # numpy's value (and, like numpy, the overflow warning)
        return math.inf


def _logarithm(f):
    def apply(x: float) -> float:
        if x != x or x == math.inf:                  # NaN and inf as they are (no comparison that flags NaN)
            return x
        if x > 0:
            return f(x)
        return -math.inf if x == 0 else math.nan     # numpy's values (math raises for both)
    return apply


def _elementwise(f, name: str):
    one = np.frompyfunc(f, 1, 1)

    def apply(x) -> np.ndarray | float:
        a = np.asarray(x, dtype=np.float64)
        out = np.asarray(one(a), dtype=np.float64)
        return out if a.ndim else float(out)
    apply.__name__ = name
    apply.__doc__ = f"The C library's ``{name}`` of each element of ``x`` (float64; a float for a scalar)."
    return apply


exp = _elementwise(_exp, "exp")
log = _elementwise(_logarithm(math.log), "log")
log2 = _elementwise(_logarithm(math.log2), "log2")


@functools.lru_cache(maxsize=32)
def _log_integers(n: int) -> np.ndarray:
    return log(np.maximum(np.arange(n, dtype=np.float64), 1.0))


def log_integers(n: int) -> np.ndarray:
    """``log(max(i, 1))`` for ``i = 0 .. n - 1`` (the rule learners' table of logarithms), computed once per ``n``."""
    return _log_integers(n).copy()
