"""The task map (cvrepro.engine.map_tasks): a study's non-CV work on the same verified store as run_cv's:
cached by a key of the inputs and the function's code, resumable after kill -9, damage refused at the
checksum gate and recomputed, identical results whatever the backend and the number of workers."""
import importlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from taskmap_tasks import computed, noisy_stats, tasks

from cvrepro.engine import Task, map_tasks
from cvrepro.store import verified_table

HERE = Path(__file__).resolve().parent


def files(store) -> list[Path]:
    return sorted(Path(store).glob("*/*.parquet"))


def concat(tables) -> pd.DataFrame:
    return pd.concat(tables, ignore_index=True)


@pytest.fixture
def log(tmp_path, monkeypatch):
    path = tmp_path / "computed.log"
    monkeypatch.setenv("TASKMAP_LOG", str(path))
    return path


def test_only_missing_tasks_are_computed_in_task_order(tmp_path, log):
    first = map_tasks(noisy_stats, tasks(4), tmp_path, progress=False)
    assert computed(log) == [0, 1, 2, 3] and [t.task.iloc[0] for t in first] == [0, 1, 2, 3]
    log.unlink()
    more = tasks(6)[::-1] + [Task({"i": 2, "seed": 7, "delay": 0.0})]     # 5, 4 new; 2 asked twice
    again = map_tasks(noisy_stats, more, tmp_path, progress=False)
    assert computed(log) == [4, 5]
    assert [t.task.iloc[0] for t in again] == [5, 4, 3, 2, 1, 0, 2]
    for t in first:
        pd.testing.assert_frame_equal(t, again[5 - t.task.iloc[0]])
    assert len(files(tmp_path)) == 6
    fresh = map_tasks(noisy_stats, tasks(6), None, progress=False)   # no store: the same tables
    pd.testing.assert_frame_equal(concat(fresh), concat(again[:6][::-1]))


def test_bad_functions_and_results_are_named(tmp_path):
    with pytest.raises(TypeError, match="top-level function"):
        map_tasks(lambda i: pd.DataFrame({"i": [i]}), [{"i": 1}], tmp_path)
    with pytest.raises(TypeError, match="must return a pandas DataFrame"):
        map_tasks(computed, [{"log": "nowhere"}], None)
    with pytest.raises(ValueError, match="backend must be one of"):
        map_tasks(noisy_stats, tasks(1), None, n_jobs=2, backend="spark")


# --------------------------------------------------------------------------- code version (item 3)
def test_a_changed_module_recomputes_its_tasks_and_only_its(tmp_path, log, monkeypatch):
    source = ("import pandas as pd\n\nSHIFT = {shift}\n\n\ndef step(i):\n"
              "    open(__import__('os').environ['TASKMAP_LOG'], 'a').write(f'{{i}}\\n')\n"
              "    return pd.DataFrame({{'value': [i + SHIFT]}})\n")
    (tmp_path / "tm_edited.py").write_text(source.format(shift=0))
    (tmp_path / "tm_kept.py").write_text(source.format(shift=100).replace("[i + SHIFT]", "[i * 10 + SHIFT]"))
    monkeypatch.syspath_prepend(str(tmp_path))
    edited, kept = importlib.import_module("tm_edited"), importlib.import_module("tm_kept")
    store = tmp_path / "store"
    jobs = [{"i": 1}, {"i": 2}]
    assert concat(map_tasks(edited.step, jobs, store, progress=False)).value.tolist() == [1, 2]
    assert concat(map_tasks(kept.step, jobs, store, progress=False)).value.tolist() == [110, 120]
    assert computed(log) == [1, 1, 2, 2]
    log.unlink()
    (tmp_path / "tm_edited.py").write_text(source.format(shift=1000))   # the procedure changes
    edited = importlib.reload(edited)
    assert concat(map_tasks(edited.step, jobs, store, progress=False)).value.tolist() == [1001, 1002]
    assert computed(log) == [1, 2]                                       # recomputed, not the old store's
    log.unlink()
    assert concat(map_tasks(kept.step, jobs, store, progress=False)).value.tolist() == [110, 120]
    assert concat(map_tasks(edited.step, jobs, store, progress=False)).value.tolist() == [1001, 1002]
    assert computed(log) == []                                           # unchanged code: from the store


# --------------------------------------------------------------------------- reliability (item 5)
def run_in_process(store, out, n, delay, **popen):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    env.pop("TASKMAP_LOG", None)
    cmd = [sys.executable, "-c", "from taskmap_tasks import main; main()", str(store), str(out), str(n), str(delay)]
    return subprocess.Popen(cmd, env=env, **popen)


@pytest.mark.parametrize("kill_after", [1, 5, 9])
def test_resume_after_kill_9_computes_only_the_missing_tasks(tmp_path, log, kill_after):
    """Killed after the first task, midway and before the last: the next run computes exactly the tasks the
    killed one had not stored, removes a killed writer's temporary file, and gives the tables of a fresh run."""
    store, n, delay = tmp_path / "store", 10, 0.15
    proc = run_in_process(store, tmp_path / "killed.pkl", n, delay)
    deadline = time.time() + 60
    while len(files(store)) < kill_after and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    held = {int(verified_table(f.name, f.read_bytes())["task"][0].as_py()) for f in files(store)}
    assert kill_after <= len(held) < n
    folder = files(store)[0].parent
    stale = folder / ".0123456789abcdef.deadbeef.tmp"                   # a write cut short by a kill
    stale.write_bytes(b"half a file")
    os.utime(stale, (time.time() - 120, time.time() - 120))
    resumed = concat(map_tasks(noisy_stats, tasks(n, delay), store, progress=False))
    assert computed(log) == sorted(set(range(n)) - held)
    assert not stale.exists() and len(files(store)) == n
    pd.testing.assert_frame_equal(resumed, concat(map_tasks(noisy_stats, tasks(n, delay), None, progress=False)))


def test_every_bit_flip_of_a_task_file_is_refused_and_a_damaged_file_recomputed(tmp_path, log):
    clean = map_tasks(noisy_stats, tasks(3), tmp_path, progress=False)
    path = files(tmp_path)[1]
    raw = bytearray(path.read_bytes())
    victim, intact = verified_table(path.name, bytes(raw))["task"][0].as_py(), bytes(raw)
    flips = read_back = 0
    for i in range(len(raw)):
        for bit in range(8):
            raw[i] ^= 1 << bit
            flips += 1
            try:
                verified_table(path.name, bytes(raw))
                read_back += 1
            except ValueError:
                pass
            raw[i] ^= 1 << bit
    assert flips == 8 * len(raw) > 4000 and read_back == 0
    raw[len(raw) // 2] ^= 4
    path.write_bytes(bytes(raw))
    with pytest.warns(RuntimeWarning, match=rf"damaged task file .*{path.name} \(checksum mismatch"):
        again = map_tasks(noisy_stats, tasks(3), tmp_path, progress=False)
    damaged = path.parent / f".{path.name}.damaged"
    assert damaged.exists() and computed(log) == sorted([0, 1, 2, victim])
    assert path.read_bytes() == intact                    # recomputed into the same bytes, the same name
    pd.testing.assert_frame_equal(concat(again), concat(clean))
    # an intact file under another task's name (its key inside differs) is damage too
    first, second = files(tmp_path)[:2]
    second.unlink()
    (first.parent / (second.name.split(".")[0] + "." + first.name.split(".", 1)[1])).write_bytes(first.read_bytes())
    with pytest.warns(RuntimeWarning, match="task_key column is not the key"):
        third = map_tasks(noisy_stats, tasks(3), tmp_path, progress=False)
    pd.testing.assert_frame_equal(concat(third), concat(clean))


BACKENDS = [(1, "loky"), (2, "loky"), (2, "threading")]


def test_results_and_files_are_identical_whatever_the_backend_and_workers(tmp_path):
    runs = {}
    for n_jobs, backend in BACKENDS:
        store = tmp_path / f"{backend}{n_jobs}"
        tables = map_tasks(noisy_stats, tasks(8, 0.01), store, n_jobs=n_jobs, backend=backend, progress=False)
        runs[(n_jobs, backend)] = (concat(tables), [f.name for f in files(store)])
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None):
        tables = map_tasks(noisy_stats, tasks(8, 0.01), tmp_path / "dask", n_jobs=2, backend="dask", progress=False)
        runs[(2, "dask")] = (concat(tables), [f.name for f in files(tmp_path / "dask")])
    want, names = runs[(1, "loky")]
    assert len(names) == 8
    for got, got_names in runs.values():
        pd.testing.assert_frame_equal(got, want)
        assert got_names == names        # byte-identical files: the same checksums


def test_a_long_map_draws_a_bar_and_ends_with_a_summary_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CVREPRO_PROGRESS", "lines")
    map_tasks(noisy_stats, tasks(1), tmp_path, progress=False)
    map_tasks(noisy_stats, tasks(4, 0.0)[:1] + tasks(4, 0.75)[1:], tmp_path, desc="toy")
    err = capsys.readouterr().err
    assert "toy: 100%" in err and err.splitlines()[-1].startswith("toy: 4 tasks, 1 from the store, 3 computed in")
    map_tasks(noisy_stats, tasks(1), tmp_path)           # quick: no bar, no line
    assert capsys.readouterr().err == ""
