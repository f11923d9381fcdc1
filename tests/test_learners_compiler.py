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


CACHE_PROBE = "import cvrepro.learners, numba.core.config as c; print(c.CACHE_DIR)"


def test_numba_cache_is_keyed_by_the_learner_sources(tmp_path):
    from pathlib import Path

    import cvrepro.learners
    from cvrepro.learners.compiler import source_digest

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    for code in (CACHE_PROBE, "import numba; " + CACHE_PROBE):     # numba imported before us, or not
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        folder = Path(cvrepro.learners.__file__).parent
        assert out.stdout.strip() == str(tmp_path / "cvrepro" / "numba" / source_digest(folder))
    # a change in any learner module (e.g. a kernel others call) gives another cache directory
    copy = tmp_path / "copy"
    copy.mkdir()
    for source in folder.glob("*.py"):
        (copy / source.name).write_bytes(source.read_bytes())
    before = source_digest(copy)
    (copy / "java.py").write_bytes((folder / "java.py").read_bytes() + b"\n")
    assert source_digest(copy) != before


def test_user_cache_dir_wins(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", CACHE_PROBE], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path)
