"""Every study notebook runs end to end through papermill at the smoke profile."""
from pathlib import Path

import papermill
import pytest
from jupyter_client.kernelspec import KernelSpecManager

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9]*.ipynb"))
KERNEL = "cvrepro" if "cvrepro" in KernelSpecManager().find_kernel_specs() else "python3"


def run(notebook: Path, tmp_path: Path, **parameters):
    return papermill.execute_notebook(
        str(notebook), str(tmp_path / notebook.name), kernel_name=KERNEL, cwd=str(notebook.parent),
        parameters={"profile": "smoke", "output_dir": str(tmp_path / "figures"),
                    "store": str(tmp_path / "store"), **parameters},
        progress_bar=False,
    )


def _shared_group(notebook: Path):
    """Notebooks whose smoke run another test reads too: run on the same pytest-xdist worker, once."""
    group = {"00_datasets": "smoke_00", "04_japkowicz2011_evaluation_tutorial": "smoke_04"}.get(notebook.stem)
    return [pytest.mark.xdist_group(group)] if group else []


@pytest.mark.slow
@pytest.mark.parametrize("notebook", [pytest.param(nb, id=nb.stem, marks=_shared_group(nb)) for nb in NOTEBOOKS])
def test_notebook_runs_at_smoke_profile(notebook, smoke_notebook):
    folder = smoke_notebook(notebook)
    written = {p.suffix for p in (folder / "figures").rglob("*")}
    assert {".csv", ".md", ".tex"} <= written  # tables in all three formats
    assert {".png", ".pdf"} <= written          # figures in both formats


@pytest.mark.xdist_group("smoke_00")
def test_catalog_notebook_writes_every_smoke_data_set(smoke_notebook):
    import pandas as pd

    from cvrepro.profiles import get_profile

    table = pd.read_csv(smoke_notebook(NOTEBOOKS[0]) / "figures" / "catalog.csv")
    assert sorted(table["name"]) == sorted(get_profile("smoke").study("datasets")["datasets"])


def test_wrong_parameter_type_fails_in_the_parameters_cell(tmp_path):
    with pytest.raises(papermill.PapermillExecutionError, match="parameter 'datasets' must be list"):
        run(NOTEBOOKS[0], tmp_path, datasets=5)
