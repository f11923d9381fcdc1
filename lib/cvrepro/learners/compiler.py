"""Compiler settings for the learners' numba kernels: full-width vectors on AVX-512 machines,
and an on-disk cache that cannot go stale.

LLVM compiles loops for 256-bit vectors on Intel CPUs with AVX-512
(``prefer-256-bit``, a tuning for the first AVX-512 parts, which lower their
clock on 512-bit instructions). The batched learners loop over independent
models, so 512-bit vectors make them faster (the batched MLP by about 15-20 %
on an Emerald Rapids machine) and give the same bits: numba does not
reassociate floating-point arithmetic, whatever the vector width.

:func:`prefer_wide_vectors` must run before numba is first imported (it sets
``NUMBA_CPU_FEATURES``); it leaves a value the user set, and the CPUs that
throttle, alone.

:func:`cache_by_source` keys numba's on-disk cache by the learners' source.
Numba invalidates a cached kernel when its own file changes, not when a
kernel it calls from another module does (e.g. ``java.py``, ``weka_trees.py``,
``rule_growing.py`` are called from many learners): after an update, a caller
would run stale machine code and give other numbers. With the cache directory
named by a digest of every learner module, any change starts a fresh cache.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

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


def source_digest(folder: Path) -> str:
    """A digest of the names and contents of the ``*.py`` files in ``folder``."""
    h = hashlib.blake2b(digest_size=8)
    for source in sorted(folder.glob("*.py")):
        h.update(source.name.encode() + b"\0" + source.read_bytes())
    return h.hexdigest()


def cache_by_source() -> Path | None:
    """Point numba's cache at ``<user cache>/cvrepro/numba/<digest of the learner sources>``;
    the directory, or None when the user set ``NUMBA_CACHE_DIR`` (left as it is)."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return None
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    path = base / "cvrepro" / "numba" / source_digest(Path(__file__).parent)
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    if "numba" in sys.modules:                 # numba read its settings already: the kernels are not built yet
        sys.modules["numba"].config.CACHE_DIR = str(path)
    return path
