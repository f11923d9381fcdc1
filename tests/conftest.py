"""Fixtures shared by several test files."""
import pytest

from cvrepro.engine import tasks as engine_tasks

LONGEST_FIRST = ("test_notebooks.py", "test_report.py", "test_docs.py", "test_compare.py", "test_lab.py")
ONE_WORKER_PER_LEARNER = {"test_sklearn_estimator_checks": "estimator", "test_encoded_once_learners": "learner"}


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(items):
    """The files holding the longest tests first (each file's tests kept together and in order), so that
    pytest-xdist's workers start them early and finish together; each learner's many short checks on one
    worker, so that its numba kernels compile once, not on both workers at the same time; and each shipped
    study's tests on one worker, so that its module fixture runs the study once."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONGEST_FIRST)))
    for item in items:
        if item.path.name.startswith("test_shipped_"):   # one study's run, shared by the file's tests
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
        param = ONE_WORKER_PER_LEARNER.get(getattr(item, "originalname", None))
        if param and hasattr(item, "callspec") and param in item.callspec.params:
            value = item.callspec.params[param]
            name = value if isinstance(value, str) else type(value).__name__
            item.add_marker(pytest.mark.xdist_group(f"learner-{name}"))


@pytest.fixture
def count_tasks(monkeypatch):
    """The (cell, iterations) of every task the engine runs, in order (engine_tasks.run_task counted)."""
    seen = []
    real = engine_tasks.run_task

    def counting(data, est, task):
        seen.append((task.cell, task.iterations))
        return real(data, est, task)

    monkeypatch.setattr(engine_tasks, "run_task", counting)
    return seen


@pytest.fixture(scope="session")
def smoke_notebook(tmp_path_factory):
    """``execute(notebook)``: the notebook run once at the smoke profile in this session (this pytest-xdist
    worker), into a folder holding the executed copy, ``figures/`` and ``store/``; the notebook tests and the
    report test share a run (tests that need one run together carry the same ``xdist_group`` mark)."""
    import papermill
    from jupyter_client.kernelspec import KernelSpecManager

    kernel = "cvrepro" if "cvrepro" in KernelSpecManager().find_kernel_specs() else "python3"
    done = {}

    def execute(notebook):
        if notebook not in done:
            folder = tmp_path_factory.mktemp(notebook.stem)
            papermill.execute_notebook(
                str(notebook), str(folder / notebook.name), kernel_name=kernel, cwd=str(notebook.parent),
                parameters={"profile": "smoke", "output_dir": str(folder / "figures"),
                            "store": str(folder / "store")}, progress_bar=False)
            done[notebook] = folder
        return done[notebook]

    return execute
