"""The package as a user installs it: a non-editable wheel, used from a folder outside the checkout."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel pip builds from pyproject.toml (as `pip install .` does), installed into a folder of its own."""
    tmp = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            str(ROOT), "-w", str(tmp)],
                           capture_output=True, text=True, timeout=600)
    if build.returncode != 0:
        pytest.fail(f"could not build the wheel (setuptools from requirements.lock):\n{build.stderr[-2000:]}")
    wheel = next(tmp.glob("cvrepro-*.whl"))
    site = tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("CVREPRO_DATA", None)
    return site, env


def test_the_wheel_finds_its_data_and_runs_the_command_outside_the_checkout(installed, tmp_path):
    site, env = installed
    where = subprocess.run([sys.executable, "-c", "import cvrepro.datasets as d; print(d.__file__); "
                            "print(d.data_dir()); print(d.load_dataset('vote'))"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert where.returncode == 0, where.stderr
    module, data, loaded = where.stdout.splitlines()[:3]
    assert module.startswith(str(site)) and data.startswith(str(site)) and "Dataset('vote'" in loaded
    # The compiled kernels are checked by the learner tests; compiling them again for this copy's paths
    # would cost minutes, so here they run as Python (the same numbers, seconds on 699 rows).
    done = subprocess.run([sys.executable, "-m", "cvrepro", "compare", "breast-w", "--learners", "NB,C4.5",
                           "--k", "3", "--stopping", "2", "--report", "out"],
                          cwd=tmp_path, env={**env, "NUMBA_DISABLE_JIT": "1"}, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "breast-w: " in done.stdout and (tmp_path / "out" / "report.html").exists()
