"""The results store: whole-file checksums, a hive-style layout that DuckDB, pandas and pyarrow read
as the run's tables, no result stored twice by concurrent runs, older layouts refused clearly."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
import taskmap_tasks
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from cvrepro.engine import tasks as engine_tasks
from cvrepro.runner import run_cv
from cvrepro.store import KEY_COLUMNS, ResultStore, read_verified, verified_table

ROOT = Path(__file__).resolve().parents[1]
KEYS = ["dataset", "learner", "partitioner", "k"]


def toy(n=60, seed=0):
    return taskmap_tasks.toy(n, seed)


def data():
    return [("toy/one", *toy()), ("toy two", *toy(40, 1))]   # names that need encoding in a path


LEARNERS = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2, max_features=0.5)}


def sorted_rows(frame, by):
    """``frame`` as plain columns (categories as strings) in the order of ``by``."""
    out = frame.copy()
    for c in out.columns:
        if isinstance(out[c].dtype, pd.CategoricalDtype) or out[c].dtype == object or str(out[c].dtype) == "str":
            out[c] = out[c].astype(object).where(out[c].notna(), None)
    return out.sort_values(by, ignore_index=True)


def assert_same_table(got, want, by):
    pd.testing.assert_frame_equal(sorted_rows(got, by), sorted_rows(want, by), check_dtype=False,
                                  check_column_type=False)


# --------------------------------------------------------------------------- checksums
def test_every_bit_flip_of_a_stored_chunk_is_detected(tmp_path):
    """Flipping any single bit of any file of a chunk (data pages, schema, footer) fails its
    checksum: 0 flips are read back as data. Parquet's own page checksums let some through."""
    X, y = toy(12)
    run_cv([("toy", X, y)], {"nb": GaussianNB()}, folds=2, iterations=1, store=tmp_path, progress=False)
    files = sorted(tmp_path.glob("*/**/*.parquet"))
    assert [f.relative_to(tmp_path).parts[0] for f in files] == ["folds", "instances", "iterations"]
    flips = read_back = 0
    for f in files:
        raw = bytearray(f.read_bytes())
        assert read_verified(f).num_rows > 0
        for i in range(len(raw)):
            for bit in range(8):
                raw[i] ^= 1 << bit
                flips += 1
                try:
                    verified_table(f.name, raw)
                    read_back += 1
                except ValueError:
                    pass
                raw[i] ^= 1 << bit
    assert flips > 100_000 and read_back == 0
    # without the checksum: a flip in a column name stored in the footer reads back as other data
    its = tmp_path.glob("iterations/**/*.parquet").__next__().read_bytes()
    original = pq.read_table(pa.BufferReader(its))
    silent = 0
    for m in re.finditer(rb"auroc", its):
        raw = bytearray(its)
        raw[m.start()] ^= 1
        try:
            back = pq.read_table(pa.BufferReader(bytes(raw)), page_checksum_verification=True)
        except (OSError, pa.ArrowException):
            continue
        silent += not back.equals(original)
    assert silent > 0


def test_a_flipped_bit_in_the_schema_is_damage_and_recomputed(tmp_path, count_tasks):
    args = dict(datasets=data(), learners={"nb": GaussianNB()}, folds=2, iterations=4, batch_size=2,
                store=tmp_path, progress=False)
    clean = run_cv(**args)
    f = next(tmp_path.glob("iterations/dataset=toy%2Fone/**/it000002-*.parquet"))
    raw = bytearray(f.read_bytes())
    raw[raw.rfind(b"auroc")] ^= 1          # renames the column in the footer's schema
    f.write_bytes(bytes(raw))
    count_tasks.clear()
    with pytest.warns(RuntimeWarning, match="damaged results chunk.*checksum mismatch"):
        again = run_cv(**args)
    assert [its for _, its in count_tasks] == [(2, 3)]
    pd.testing.assert_frame_equal(clean.iterations.drop(columns="seconds"), again.iterations.drop(columns="seconds"))
    assert len(list(tmp_path.glob("**/.it000002-*.damaged"))) == 3      # the whole chunk moved aside


def test_a_file_in_another_cells_directory_is_damage(tmp_path, count_tasks):
    args = dict(datasets=data()[:1], learners={"nb": GaussianNB()}, folds=(2, 3), iterations=2,
                store=tmp_path, progress=False)
    clean = run_cv(**args)
    k2 = next(tmp_path.glob("folds/**/k=2/**/*.parquet"))
    k3 = next(tmp_path.glob("folds/**/k=3/**/*.parquet"))
    k3.unlink()
    shutil.copy(k2, k3.parent / k2.name)   # intact file, wrong cell
    count_tasks.clear()
    with pytest.warns(RuntimeWarning, match=r"key columns \['k'\] are not this cell's"):
        again = run_cv(**args)
    assert [c[3] for c, _ in count_tasks] == [3]
    pd.testing.assert_frame_equal(clean.folds.drop(columns=["fit_seconds", "predict_seconds"]),
                                  again.folds.drop(columns=["fit_seconds", "predict_seconds"]))


# --------------------------------------------------------------------------- layout and readers
def test_layout_is_hive_style_with_keys_in_every_file(tmp_path):
    run_cv(data(), LEARNERS, folds=(2, 3), iterations=3, batch_size=2, store=tmp_path, progress=False)
    assert (tmp_path / "_store.json").exists()
    for f in tmp_path.glob("*/**/*.parquet"):
        parts = f.relative_to(tmp_path).parts
        assert parts[0] in ("folds", "iterations", "instances")
        assert [p.split("=")[0] for p in parts[1:-1]] == list(KEY_COLUMNS)
        assert re.fullmatch(r"it\d{6}-\d{6}\.[0-9a-f]{16}\.parquet", parts[-1])
        t = pq.read_table(f)
        assert t.column_names[:6] == list(KEY_COLUMNS)
        assert {p.split("=")[0]: p.split("=")[1] for p in parts[1:-1]}["dataset"] in ("toy%2Fone", "toy%20two")
        assert t["dataset"].unique().to_pylist()[0] in ("toy/one", "toy two")
    assert {p.name for p in tmp_path.glob("iterations/*")} == {"dataset=toy%2Fone", "dataset=toy%20two"}


def test_duckdb_pandas_and_pyarrow_read_the_runs_tables(tmp_path):
    res = run_cv(data(), LEARNERS, folds=(2, 3), iterations=3, batch_size=2, store=tmp_path, progress=False)
    root = tmp_path.as_posix()

    def duck(kind):
        return duckdb.sql(f"SELECT * EXCLUDE (seed, config) FROM read_parquet('{root}/{kind}/**/*.parquet')").df()

    assert_same_table(duck("iterations"), res.iterations, KEYS + ["iteration"])
    assert_same_table(duck("folds").drop(columns=["failure_kind", "failure_message"]), res.folds,
                      KEYS + ["iteration", "fold"])
    assert_same_table(duck("instances"), res.instances, KEYS + ["iteration", "instance"])
    # the hive keys prune directories: one data set, one k
    one = duckdb.sql(f"SELECT count(*) FROM read_parquet('{root}/iterations/**/*.parquet') "
                     "WHERE dataset = 'toy two' AND k = 3").fetchall()[0][0]
    assert one == 2 * 3
    by_pandas = pd.read_parquet(tmp_path / "iterations", partitioning=None).drop(columns=["seed", "config"])
    assert_same_table(by_pandas, res.iterations, KEYS + ["iteration"])
    by_arrow = pads.dataset(tmp_path / "iterations", format="parquet").to_table().to_pandas()
    assert_same_table(by_arrow.drop(columns=["seed", "config"]), res.iterations, KEYS + ["iteration"])


def test_docs_duckdb_example_gives_the_iterations_table(tmp_path, monkeypatch):
    """The store example of docs/engine.md, run as written, in a fresh directory."""
    text = (ROOT / "docs" / "engine.md").read_text()
    section = text[text.index("## The results store"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "duckdb" in code and "read_parquet" in code
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(code, "docs/engine.md", "exec"), scope)
    res, table = scope["res"], scope["table"]
    assert len(table) == len(res.iterations) > 0
    assert_same_table(table, res.iterations, KEYS + ["iteration"])


# --------------------------------------------------------------------------- concurrent writers
def test_write_skips_what_a_concurrent_run_stored(tmp_path):
    X, y = toy()
    res = run_cv([("toy", X, y)], {"nb": GaussianNB()}, folds=2, iterations=10, progress=False)
    folds = res.folds.drop(columns=KEYS).assign(failure_kind=None, failure_message=None)
    tables = {"folds": folds, "iterations": res.iterations.drop(columns=KEYS),
              "instances": res.instances.drop(columns=KEYS)}
    store = ResultStore(tmp_path)
    cell = store.cell("toy", "d", "nb", "l", "scv", 2, 0, "p")

    def part(a, b):
        return {kind: t[(t.iteration >= a) & (t.iteration <= b)] for kind, t in tables.items()}

    assert store.write(cell, 2, 4, part(2, 4)) == [(2, 4)]
    assert store.write(cell, 0, 9, part(0, 9)) == [(0, 1), (5, 9)]     # 2..4 were there already
    assert store.write(cell, 5, 6, part(5, 6)) == []
    assert store.chunks(cell) == [(0, 1), (2, 4), (5, 9)]
    assert len(list(tmp_path.glob("instances/**/*.parquet"))) == 3
    back = pd.concat([store.read(cell, a, b, "iterations") for a, b in store.chunks(cell)], ignore_index=True)
    pd.testing.assert_frame_equal(back, tables["iterations"].reset_index(drop=True))


def test_a_run_reads_what_a_concurrent_run_stored_first(tmp_path, monkeypatch):
    """A task whose iterations another run stored meanwhile writes nothing twice and the run uses
    the stored chunk: one row per result on disk, same tables as a run alone."""
    real = engine_tasks.run_task
    store = ResultStore(tmp_path)

    def racing(data, est, task):
        if task.iterations == (0, 1, 2, 3):   # the other run finishes iterations 1..2 first
            other = engine_tasks.Task(task.cell, (1, 2), task.seed, task.partitioner_params, task.batched)
            from cvrepro.engine.inputs import learner_hash
            from cvrepro.store import short_hash
            cell = store.cell("toy", data.fingerprint, "nb", learner_hash("nb", est), "scv", 2, 0,
                              short_hash(repr(task.partitioner_params)))
            store.write(cell, 1, 2, real(data, est, other))
        return real(data, est, task)

    monkeypatch.setattr(engine_tasks, "run_task", racing)
    args = dict(datasets=[("toy", *toy())], learners={"nb": GaussianNB()}, folds=2, iterations=6, progress=False)
    res = run_cv(**args, batch_size=4, store=tmp_path)
    monkeypatch.setattr(engine_tasks, "run_task", real)
    alone = run_cv(**args)
    for kind in ("iterations", "instances"):
        pd.testing.assert_frame_equal(getattr(res, kind).drop(columns="seconds", errors="ignore"),
                                      getattr(alone, kind).drop(columns="seconds", errors="ignore"))
    names = sorted(p.name[:15] for p in tmp_path.glob("folds/**/*.parquet"))
    assert names == ["it000000-000000", "it000001-000002", "it000003-000003", "it000004-000005"]
    files = f"{tmp_path.as_posix()}/iterations/**/*.parquet"
    rows = duckdb.sql(f"SELECT iteration, count(*) FROM read_parquet('{files}') GROUP BY iteration ORDER BY iteration")
    rows = rows.fetchall()
    assert rows == [(i, 1) for i in range(6)]


SLOW_RUN = Path(__file__).resolve().parent / "slow_run.py"     # a slow NB run, as a separate process


def test_two_processes_into_one_store_leave_each_result_once(tmp_path):
    store = tmp_path / "store"
    procs = [subprocess.Popen([sys.executable, str(SLOW_RUN), str(store), str(tmp_path / f"{batch}.pq"), "instances",
                               "--n", "40", "--sleep", "0.02", "--folds", "2", "3", "--batch-size", str(batch)])
             for batch in (2, 3)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "2.pq"), pd.read_parquet(tmp_path / "3.pq"))
    root = store.as_posix()
    for kind, per_row, n in (("iterations", "iteration", 2 * 12), ("folds", "iteration, fold", 12 * 5),
                             ("instances", "iteration, instance", 2 * 12 * 40)):
        total, distinct = duckdb.sql(
            f"SELECT count(*), count(DISTINCT (k, {per_row})) FROM read_parquet('{root}/{kind}/**/*.parquet')"
        ).fetchall()[0]
        assert total == distinct == n, kind
    assert not list(store.rglob("*.tmp"))


# --------------------------------------------------------------------------- older stores
def test_an_older_store_layout_is_refused_with_how_to_rebuild(tmp_path):
    old = tmp_path / "results"
    (old / "labor__0123456789" / "nb__abcdef0123" / "scv_k2_seed0__fedcba9876").mkdir(parents=True)
    with pytest.raises(ValueError, match=r"older cvrepro.*Delete it \(rm -r .*results'\)"):
        run_cv(data(), LEARNERS, folds=2, iterations=1, store=old, progress=False)
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "_store.json").write_text('{"version": 99}')
    with pytest.raises(ValueError, match="format version 99"):
        ResultStore(tmp_path / "new")


def test_a_store_of_older_metric_definitions_is_refused_not_mixed(tmp_path):
    from cvrepro.metrics import METRICS_VERSION
    from cvrepro.store import ResultStore

    ResultStore(tmp_path / "s")
    marker = tmp_path / "s" / "_store.json"
    doc = json.loads(marker.read_text())
    assert doc["metrics"] == METRICS_VERSION
    del doc["metrics"]                       # a store written before the definitions were recorded
    marker.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"definitions version 1 and .* \(info_score"):
        ResultStore(tmp_path / "s")
