"""cvrepro.libm: the C library's exp, log and log2 element by element, and what it is for: the numbers a run
keeps are the same whether numpy computes with its AVX-512 loops (which differ from the C library in the last
bit) or without them, as on a machine without AVX-512."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from cvrepro import libm

# what the collection keeps that went through numpy's exp, log or log2 before cvrepro.libm
KEPT = r"""
import hashlib, json
import numpy as np
from cvrepro import metrics
from cvrepro.drift import FluDomain
from cvrepro.learners.keel_lda import KeelLDA
from cvrepro.learners.keel_logistic import fit_logistic
from cvrepro.studies import japkowicz2011 as jap
from cvrepro.studies.japkowicz2011_simulation import gaussian_nb_cv
from cvrepro.wekaeval import weka_cross_validate, weka_measures

def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.float64).tobytes()).hexdigest()

X, y = jap.load("bupa")
boost = weka_cross_validate(jap.make_learner_for("Boost"), X, y)
out = {"boost proba": digest(boost.proba), "weka info score": repr(weka_measures(boost)["info_score"]),
       "info score": repr(metrics.evaluate(boost.y, boost.proba, [0, 1])["info_score"])}
out["LDA proba"] = digest(KeelLDA().fit(X, y).predict_proba(X))
x = X.iloc[:, 0].to_numpy(dtype=float)
out["logistic proba"] = digest(fit_logistic(x, y.cat.codes.to_numpy() == 1).proba(x))
out["flu sample"] = digest(FluDomain().sample(400, random_state=0).select_dtypes("number"))
Z = np.random.default_rng(0).normal(size=(300, 6))
out["simulation NB"] = digest(gaussian_nb_cv(Z, (Z[:, 0] + Z[:, 1] > 0).astype(int), np.arange(300) % 10, 10))
print(json.dumps(out))
"""
NO_AVX512 = "AVX512_SPR AVX512_ICL X86_V4"          # numpy's dispatch as on a machine without AVX-512


def _kept(extra_env: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", KEPT], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **extra_env})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _numpy_uses_avx512() -> bool:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    return "X86_V4" in __cpu_dispatch__ and bool(__cpu_features__.get("AVX512_SKX"))


def _bits(values) -> bytes:
    return np.asarray(values, dtype=np.float64).tobytes()


def test_each_element_is_the_c_librarys():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-700, 700, 20_000), rng.uniform(-30, 30, 20_000)]).reshape(200, 200)
    p = np.exp(rng.uniform(-690, 700, 40_000)).reshape(200, 200)
    assert libm.exp(x).shape == (200, 200)
    assert _bits(libm.exp(x)) == _bits([math.exp(v) for v in x.ravel()])
    assert _bits(libm.log(p)) == _bits([math.log(v) for v in p.ravel()])
    assert _bits(libm.log2(p)) == _bits([math.log2(v) for v in p.ravel()])
    assert type(libm.exp(np.float64(1.0))) is float and libm.log2(8) == 3.0


def test_the_table_of_logarithms_of_integers():
    table = libm.log_integers(12)
    assert _bits(table) == _bits([0.0] + [math.log(i) for i in range(1, 12)])
    table[5] = 0.0                                   # the caller's copy: the cached table is untouched
    assert libm.log_integers(12)[5] == math.log(5)


def test_the_edges_are_numpys():
    edges = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 800.0, -800.0, 5e-324])
    with np.errstate(all="ignore"):
        for ours, theirs in ((libm.exp, np.exp), (libm.log, np.log), (libm.log2, np.log2)):
            np.testing.assert_array_equal(ours(edges), theirs(edges), err_msg=ours.__name__)


@pytest.mark.skipif(not _numpy_uses_avx512(), reason="numpy computes without AVX-512 here: both runs would be "
                                                      "the same code (an AVX-512 machine checks this)")
def test_what_a_run_keeps_does_not_change_with_numpys_avx512_loops():
    with_avx512, without = _kept({}), _kept({"NPY_DISABLE_CPU_FEATURES": NO_AVX512})
    assert with_avx512 == without
