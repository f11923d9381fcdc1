"""KEEL's random numbers (``org.core.Randomize``): MT19937 as numba kernels.

KEEL's ``Randomize`` is one static Mersenne Twister (MT19937), seeded with
``init_genrand(seed & 0xffffffff)``, whose real numbers are the 53-bit
``genrand_res53`` (the same stream as ``numpy.random.RandomState(seed)``'s
``random_sample``). Its integer helpers truncate a scaled real:
``Randint(low, high) = (int)(low + (high - low) * res53())`` and
``RandintClosed(low, high) = (int)(low + (high + 1 - low) * res53())``.
KEEL's Ripper draws its grow/prune splits and FURIA its stratification
shuffles from it, so reproducing them needs the same stream, draw for draw.

The generator's state is a small int64 array (624 words, then the ``left``
and ``next`` counters of the reference C code) that the kernels update in place.
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["mt_new", "mt_res53", "mt_randint", "mt_randint_closed"]

_N, _M = 624, 397
_MASK32 = 0xFFFFFFFF


@njit(cache=True)
def mt_new(seed):
    """A fresh generator state seeded as ``init_genrand(seed)``."""
    st = np.empty(_N + 2, dtype=np.int64)
    st[0] = seed & _MASK32
    for j in range(1, _N):
        prev = st[j - 1]
        st[j] = (1812433253 * (prev ^ (prev >> 30)) + j) & _MASK32
    st[_N] = 1          # left
    st[_N + 1] = 0      # next
    return st


@njit(cache=True, inline="always")
def _twist(u, v):
    y = (u & 0x80000000) | (v & 0x7FFFFFFF)
    return (y >> 1) ^ (0x9908B0DF if (v & 1) != 0 else 0)


@njit(cache=True, inline="always")
def _int32(st):
    """The next 32-bit output (``genrand_int32``); inlined: a call per draw costs several times the draw."""
    left = st[_N] - 1
    if left == 0:                                   # next_state: regenerate the 624 words
        for p in range(_N - _M):
            st[p] = st[p + _M] ^ _twist(st[p], st[p + 1])
        for p in range(_N - _M, _N - 1):
            st[p] = st[p + _M - _N] ^ _twist(st[p], st[p + 1])
        st[_N - 1] = st[_M - 1] ^ _twist(st[_N - 1], st[0])
        left = _N
        st[_N + 1] = 0
    st[_N] = left
    k = st[_N + 1]
    st[_N + 1] = k + 1
    y = st[k]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit(cache=True)
def mt_res53(st):
    """A real in [0, 1) with 53-bit resolution (``genrand_res53``)."""
    a = _int32(st) >> 5
    b = _int32(st) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def mt_randint(st, low, high):
    """KEEL's ``Randint``: an int in [low, high)."""
    return int(low + (high - low) * mt_res53(st))


@njit(cache=True)
def mt_randint_closed(st, low, high):
    """KEEL's ``RandintClosed``: an int in [low, high]."""
    return int(low + ((high + 1) - low) * mt_res53(st))
