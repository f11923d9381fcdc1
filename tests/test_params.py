"""A parameter a notebook does not define fails in the notebook's cell after its parameters cell."""
from pathlib import Path

import papermill
import pytest
from jupyter_client.kernelspec import KernelSpecManager

from cvrepro.nbparams import assigned_names, refuse_unknown_parameters, unknown_parameters

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9]*.ipynb"))
KERNEL = "cvrepro" if "cvrepro" in KernelSpecManager().find_kernel_specs() else "python3"
PARAMS_CELL = 'profile = "quick"   # smoke | quick | paper\nseed = None\niterations = None\nstore: str = "x"\n'


def test_assigned_names_reads_plain_and_annotated_assignments():
    assert assigned_names(PARAMS_CELL) == ["profile", "seed", "iterations", "store"]


def test_unknown_parameter_is_named_with_the_closest_known_ones():
    history = ["", PARAMS_CELL, '# Parameters\nprofile = "smoke"\nseeds = 3\n', "refuse_unknown_parameters()"]
    assert unknown_parameters(history) == {"seeds": ["seed"]}
    with pytest.raises(ValueError, match=r"unknown parameter 'seeds': did you mean 'seed'\?.*profile, seed"):
        refuse_unknown_parameters(history)


def test_known_parameters_and_no_injection_pass():
    refuse_unknown_parameters(["", PARAMS_CELL, '# Parameters\nprofile = "smoke"\nseed = 3\n', "check"])
    refuse_unknown_parameters(["", PARAMS_CELL, "check"])          # run by hand: nothing injected
    assert unknown_parameters(["", PARAMS_CELL, "# Parameters\nzzz = 1\n", "check"]) == {"zzz": []}


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[nb.stem for nb in NOTEBOOKS])
def test_every_notebook_refuses_a_misspelt_parameter_before_its_imports(notebook, tmp_path):
    out = tmp_path / notebook.name
    with pytest.raises(papermill.PapermillExecutionError, match="unknown parameter 'profle'.*'profile'"):
        papermill.execute_notebook(str(notebook), str(out), kernel_name=KERNEL, cwd=str(notebook.parent),
                                   parameters={"profle": "smoke"}, progress_bar=False)
    import nbformat

    code = [c for c in nbformat.read(out, as_version=4).cells if c.cell_type == "code"]
    failed = next(i for i, c in enumerate(code) if any(o.get("output_type") == "error" for o in c.outputs))
    assert "refuse_unknown_parameters()" in code[failed].source
    assert failed == 2                                      # parameters, injected, then this check
    assert all(c.execution_count is None for c in code[failed + 1:])   # nothing after it ran


def test_make_passes_extra_parameters_to_papermill():
    import subprocess

    root = NOTEBOOKS[0].parents[1]
    dry = subprocess.run(["make", "-n", "-W", "notebooks/00_datasets.ipynb", "00_datasets", "PARAMS=-p seeds 3"],
                         cwd=root, capture_output=True, text=True, check=True).stdout
    assert "-p profile quick -p seeds 3 notebooks/00_datasets.ipynb" in dry
