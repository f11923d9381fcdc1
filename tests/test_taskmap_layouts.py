"""The task map's layouts and iterator form (issue 31): run_cv's store (ChunkLayout) and the task map's own files
(FlatLayout) behind one iter_tasks, results yielded as they come, damage set aside and recomputed on that path."""
import os

import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB
from taskmap_tasks import computed, cv_iterations, noisy_stats, tasks, toy

from cvrepro.engine import iter_tasks, map_tasks
from cvrepro.engine.cvlayout import run_cv_task
from cvrepro.engine.inputs import check_inputs
from cvrepro.engine.planning import Plan
from cvrepro.engine.taskmap import FlatLayout, Task
from cvrepro.runner import run_cv
from cvrepro.store import ResultStore


def plan(store, iterations=4, batch_size=2) -> Plan:
    """run_cv's plan of a naive Bayes on toy data, k 2 and 3, tasks of ``batch_size`` iterations."""
    grid = check_inputs([("toy", *toy())], {"nb": GaussianNB()}, (2, 3), iterations, "scv", None, None, "auroc")
    return Plan(grid, None if store is None else ResultStore(store), iterations, 0, None, "auroc", batch_size, 1, True)


def timeless(chunk) -> pd.DataFrame:
    return chunk.tables["iterations"].drop(columns="seconds").reset_index(drop=True)


@pytest.fixture
def log(tmp_path, monkeypatch):
    path = tmp_path / "computed.log"
    monkeypatch.setenv("TASKMAP_LOG", str(path))
    return path


def test_both_layouts_round_trip_the_same_tables(tmp_path):
    """One round of run_cv's tasks through run_cv's store and through the task map's own files, computed and
    read back: every task's iterations table is the same four times, and the same as without a store."""
    cv = plan(tmp_path / "cv")
    jobs = cv.next_jobs()
    assert len(jobs) == 4                                        # k 2 and 3, iterations 0..1 and 2..3
    computed_cv = dict(iter_tasks(run_cv_task, jobs, layout=cv.layout, progress=False))
    flat = map_tasks(cv_iterations, jobs, tmp_path / "flat", ship="data", progress=False)
    read_cv, damaged = cv.layout.stored(cv.layout.keys(run_cv_task, [Task(j) for j in jobs]))
    read_flat = map_tasks(cv_iterations, jobs, tmp_path / "flat", ship="data", progress=False)
    memory = plan(None)
    in_memory = dict(iter_tasks(run_cv_task, memory.next_jobs(), layout=memory.layout, progress=False))
    assert damaged == 0 and len(read_cv) == 4 and len(list((tmp_path / "flat").glob("*/*.parquet"))) == 4
    for i, job in enumerate(jobs):
        task = job["task"]
        [chunk] = computed_cv[i]
        [stored] = read_cv[(task.cell, task.iterations[0], task.iterations[-1])]
        assert (chunk.first, chunk.last) == (stored.first, stored.last) == (task.iterations[0], task.iterations[-1])
        assert stored.where[0].root == tmp_path / "cv" and "instances" not in chunk.tables   # on disk only
        for table in (timeless(stored), flat[i], read_flat[i], timeless(in_memory[i][0])):
            pd.testing.assert_frame_equal(table, timeless(chunk))
        assert list(flat[i].iteration) == list(task.iterations)


def test_a_damaged_chunk_is_set_aside_and_recomputed_through_the_task_map(tmp_path, count_tasks):
    cv = plan(tmp_path)
    jobs = cv.next_jobs()
    first = dict(iter_tasks(run_cv_task, jobs, layout=cv.layout, progress=False))
    [path] = tmp_path.glob("iterations/**/k=3/**/it000002-000003.*.parquet")
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 3] ^= 16
    path.write_bytes(bytes(raw))
    count_tasks.clear()
    with pytest.warns(RuntimeWarning, match=r"damaged results chunk .*k=3.*checksum mismatch.*recomputed"):
        again = dict(iter_tasks(run_cv_task, jobs, layout=cv.layout, progress=False))
    assert count_tasks == [(("toy", "nb", "scv", 3), (2, 3))]   # that chunk only, through the task map
    assert (path.parent / f".{path.name}.damaged").exists() and not path.exists()
    assert len(list(path.parent.glob("it000002-000003.*.parquet"))) == 1          # written anew
    for i in first:
        pd.testing.assert_frame_equal(timeless(again[i][0]), timeless(first[i][0]))


def test_a_chunk_a_concurrent_run_stored_is_read_not_computed(tmp_path, count_tasks):
    """A task whose exact iterations another run stored after the plan was made is read from the store."""
    cv = plan(tmp_path)
    jobs = cv.next_jobs()
    other = jobs[1]
    task = other["task"]
    cv.store.write(cv.store_cells[task.cell], task.iterations[0], task.iterations[-1],
                   run_cv_task(other["data"], other["est"], task))
    count_tasks.clear()
    got = list(iter_tasks(run_cv_task, jobs, layout=cv.layout, progress=False))
    assert got[0][0] == 1 and got[0][1][0].where is not None    # the stored task first
    assert sorted(count_tasks) == sorted((j["task"].cell, j["task"].iterations) for j in jobs if j is not other)
    alone = run_cv([("toy", *toy())], {"nb": GaussianNB()}, folds=(2, 3), iterations=4, batch_size=2, progress=False)
    again = run_cv([("toy", *toy())], {"nb": GaussianNB()}, folds=(2, 3), iterations=4, batch_size=2, progress=False,
                   store=tmp_path)
    for kind in ("iterations", "instances"):
        pd.testing.assert_frame_equal(getattr(again, kind).drop(columns="seconds", errors="ignore"),
                                      getattr(alone, kind).drop(columns="seconds", errors="ignore"))


class CountingBar:
    """A caller's progress bar: what the task map does to it."""

    def __init__(self, total):
        self.total, self.n, self.refreshed, self.closed = total, 0, 0, False

    def update(self, n):
        self.n += n

    def refresh(self):
        self.refreshed += 1

    def close(self):
        self.closed = True


def test_the_iterator_yields_stored_tasks_first_then_each_task_once(tmp_path, log):
    map_tasks(noisy_stats, tasks(2), tmp_path, progress=False)
    log.unlink()
    bar = CountingBar(total=10)
    asked = tasks(4)[::-1] + [tasks(4)[0]]                          # 3, 2, 1, 0, 0: 1 and 0 stored, 0 twice
    got = list(iter_tasks(noisy_stats, asked, tmp_path, progress=bar))
    assert [i for i, _ in got[:3]] == [2, 3, 4]                       # stored ones first, in task order
    assert sorted(i for i, _ in got) == [0, 1, 2, 3, 4] and computed(log) == [2, 3]
    by_index = dict(got)
    assert by_index[3] is by_index[4]                               # one key, one result
    assert [by_index[i].task.iloc[0] for i in range(5)] == [3, 2, 1, 0, 0]
    assert (bar.total, bar.n, bar.refreshed, bar.closed) == (12, 2, 1, False)   # the caller's bar: grown, not closed
    tables = map_tasks(noisy_stats, asked, tmp_path, progress=False)
    assert tables[3] is not tables[4] and tables[3].equals(tables[4])            # map_tasks: a repeat's own copy
    for i in range(5):
        pd.testing.assert_frame_equal(tables[i], by_index[i])


def test_a_read_only_store_is_read_and_refuses_more_before_computing(tmp_path, log, monkeypatch):
    map_tasks(noisy_stats, tasks(2), tmp_path, progress=False)
    log.unlink()
    monkeypatch.setattr(os, "access", lambda path, mode: False)    # as a read-only mount
    assert not FlatLayout(tmp_path).writable and FlatLayout(None).writable
    assert len(map_tasks(noisy_stats, tasks(2), tmp_path, progress=False)) == 2
    with pytest.raises(PermissionError, match=r"read-only and lacks 1 task\(s\) of results \(e.g. task [0-9a-f]{16}"):
        map_tasks(noisy_stats, tasks(3), tmp_path, progress=False)
    assert computed(log) == []
    with pytest.raises(TypeError, match="a store or a layout, not both"):
        map_tasks(noisy_stats, tasks(1), tmp_path, layout=FlatLayout(tmp_path))
