"""Compiler settings for the learners' numba kernels: full-width vectors on AVX-512 machines.

LLVM compiles loops for 256-bit vectors on Intel CPUs with AVX-512
(``prefer-256-bit``, a tuning for the first AVX-512 parts, which lower their
clock on 512-bit instructions). The batched learners loop over independent
models, so 512-bit vectors make them faster (the batched MLP by about 15-20 %
on an Emerald Rapids machine) and give the same bits: numba does not
reassociate floating-point arithmetic, whatever the vector width.

:func:`prefer_wide_vectors` must run before numba is first imported (it sets
``NUMBA_CPU_FEATURES``); it leaves a value the user set, and the CPUs that
throttle, alone.
"""
from __future__ import annotations

import os
import sys

_THROTTLING = {"skylake-avx512", "cascadelake", "cooperlake"}


def prefer_wide_vectors() -> bool:
    """Let numba use 512-bit vectors where the CPU has them; True if the setting was made here."""
    if "numba" in sys.modules or "NUMBA_CPU_FEATURES" in os.environ:
        return False
    import llvmlite.binding as llvm

    features = llvm.get_host_cpu_features()
    if not features.get("avx512f") or llvm.get_host_cpu_name() in _THROTTLING:
        return False
    os.environ["NUMBA_CPU_FEATURES"] = features.flatten() + ",-prefer-256-bit"
    return True
