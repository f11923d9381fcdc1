"""compiler.prefer_wide_vectors: numba gets full-width vectors on AVX-512 CPUs, unless told otherwise.

(That the kernels give the same bits under it is what the batched and WEKA-parity tests check:
they run under the setting this machine gets.)
"""
import os
import subprocess
import sys

import llvmlite.binding as llvm

from cvrepro.learners.compiler import _THROTTLING

PROBE = ("import cvrepro.learners, numba.core.config as c; "
         "print(c.CPU_FEATURES or '')")


def _numba_features(env_extra=None, code=PROBE):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CPU_FEATURES"}
    env.update(env_extra or {})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_wide_vectors_on_avx512_hosts_only():
    features = llvm.get_host_cpu_features()
    wide = bool(features.get("avx512f")) and llvm.get_host_cpu_name() not in _THROTTLING
    got = _numba_features()
    assert got.endswith(",-prefer-256-bit") == wide
    if wide:
        assert got == features.flatten() + ",-prefer-256-bit"


def test_user_setting_wins():
    assert _numba_features({"NUMBA_CPU_FEATURES": "+avx2"}) == "+avx2"


def test_no_change_once_numba_is_imported():
    assert _numba_features(code="import numba; " + PROBE) == ""
