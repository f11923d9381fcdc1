"""Fixtures shared by several test files."""
import pytest

from cvrepro.engine import tasks as engine_tasks


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
