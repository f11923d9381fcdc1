"""One implementation under run_cv's store and the task map: the verified-file layer (cvrepro.verified) and
the dispatcher (cvrepro.engine.backends.map_unordered); a store written before they were shared reads back."""
import importlib.util
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from cvrepro.engine import tasks as engine_tasks
from cvrepro.engine.backends import map_unordered
from cvrepro.engine.inputs import prepare_data
from cvrepro.runner import run_cv
from cvrepro.store import verify
from cvrepro.verified import encode, remove_stale_temporaries, set_aside, verified_table, write_checksummed, wrong_keys

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("record_store_fixture", ROOT / "tools" / "record_store_fixture.py")
record = importlib.util.module_from_spec(spec)
spec.loader.exec_module(record)
TIMINGS = ["seconds", "fit_seconds", "predict_seconds"]


def stored(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*") if p.is_file() and p.name != ".lock")


def test_a_store_written_before_the_shared_layer_is_read_back_without_recomputing(tmp_path, monkeypatch):
    """tests/fixtures/store_v2 was written by cvrepro at 7030fd4 (tools/record_store_fixture.py): today's
    run_cv reads every chunk of it, fits nothing, writes nothing, and its numbers are today's."""
    store = tmp_path / "store"
    shutil.copytree(record.FIXTURE, store)
    before = stored(store)
    assert verify(store) == 12

    def no_fit(*args):
        raise AssertionError("a chunk of the older store was recomputed instead of read")
    monkeypatch.setattr(engine_tasks, "run_task", no_fit)
    old = run_cv(**record.run_arguments(), store=store)
    assert stored(store) == before
    monkeypatch.undo()
    now = run_cv(**record.run_arguments())
    for kind in ("folds", "iterations", "instances", "failures"):
        pd.testing.assert_frame_equal(getattr(old, kind).drop(columns=TIMINGS, errors="ignore"),
                                      getattr(now, kind).drop(columns=TIMINGS, errors="ignore"))
    assert len(old.iterations) == 6 and len(old.instances) == 6 * 40


def test_the_gate_refuses_damage_and_misplaced_keys(tmp_path):
    frame = pd.DataFrame({"x": np.arange(5.0)})
    data = encode(frame, [(pa.field("key", pa.string()), pa.array(["a"] * 5))])
    path = write_checksummed(tmp_path, "a", data, tmp_path)
    assert path.read_bytes() == data and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    table = verified_table(path.name, data)
    assert table.column_names == ["key", "x"] and wrong_keys(table, {"key": "a"}) == []
    assert wrong_keys(table, {"key": "b", "other": 1}) == ["key", "other"]
    assert wrong_keys(table.slice(0, 0), {"key": "b"}) == []            # an empty table holds any key
    with pytest.raises(ValueError, match="checksum mismatch"):
        verified_table(path.name, data[:-1])
    with pytest.raises(ValueError, match="not named <stem>.<checksum>.parquet"):
        verified_table("a.parquet", data)
    set_aside(path)
    assert not path.exists() and (tmp_path / f".{path.name}.damaged").read_bytes() == data


def test_only_a_killed_writers_temporary_files_are_removed(tmp_path):
    old, young = tmp_path / ".a.1234.tmp", tmp_path / ".b.5678.tmp"
    for f in (old, young):
        f.write_bytes(b"half a file")
    os.utime(old, (time.time() - 120, time.time() - 120))
    remove_stale_temporaries(tmp_path)
    assert not old.exists() and young.exists()                         # a live writer's file is kept


def probe(data, i):
    """What a worker received: the data set whole, whatever travelled (the object, a file, a scatter)."""
    return data.name, data.fingerprint, int(data.codes.sum()), float(np.asarray(data.X).sum()), i


def test_one_dispatcher_ships_data_sets_and_gives_the_same_results_everywhere():
    rng = np.random.default_rng(0)
    sets = [prepare_data((name, rng.normal(size=(30, 2)), rng.integers(0, 2, 30))) for name in ("a", "b")]
    calls = [(sets[i % 2], i) for i in range(6)]
    want = sorted(probe(*c) for c in calls)
    runs = {(n, b): list(map_unordered(probe, calls, n, b, ship_first=True))
            for n, b in [(1, "loky"), (2, "loky"), (2, "threading")]}
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None):
        runs["dask"] = list(map_unordered(probe, calls, 2, "dask", ship_first=True))
    for got in runs.values():
        assert all(out[-1] == i for i, out in got) and sorted(out for _, out in got) == want
