"""tools/paper_run.py's record of a paper run's time."""
import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import paper_run  # noqa: E402


def _run(started: str, wall: float) -> dict:
    return {"started": started, "wall_seconds": wall, "cpu_seconds": 1.0}


def test_overlapping_invocations_count_their_wall_time_once():
    apart = [_run("2026-11-27 10:00:00", 600), _run("2026-11-27 12:00:00", 60)]
    assert paper_run.wall_seconds(apart) == 660
    # a part shipped from the store (one minute) while the run goes on (an hour): the hour
    inside = [_run("2026-11-27 10:00:00", 3600), _run("2026-11-27 10:30:00", 60)]
    assert paper_run.wall_seconds(inside) == 3600
    straddling = [_run("2026-11-27 10:00:00", 600), _run("2026-11-27 10:05:00", 600)]
    assert paper_run.wall_seconds(straddling) == 900
    assert paper_run.wall_seconds([]) == 0


def test_a_run_killed_mid_step_keeps_the_time_it_had_taken(tmp_path):
    earlier = [_run("2026-11-27 10:00:00", 600)]
    (tmp_path / "paper_run_times.json").write_text(json.dumps(earlier))
    record = paper_run.TimeRecord(tmp_path, every=0.05).__enter__()
    busy_until = time.time() + 0.4
    while time.time() < busy_until:          # a step that never returns (killed): only the heartbeat writes
        pass
    runs = json.loads((tmp_path / "paper_run_times.json").read_text())
    assert runs[0] == earlier[0] and len(runs) == 2
    assert 0.25 <= runs[1]["wall_seconds"] <= 1.0 and runs[1]["cpu_seconds"] > 0
    record.__exit__(None, None, None)
    assert record.totals["invocations"] == 2 and record.totals["wall_seconds"] >= 600.4


def test_a_part_added_from_a_store_counts_only_the_invocations_not_shipped_before(tmp_path):
    """A store that shipped some data sets and then computes more: the part added counts only the later
    invocations (counting every invocation of the store counted the earlier ones twice)."""
    earlier = [{**_run("2026-11-28 10:00:00", 600), "cpu_seconds": 500.0, "shipped": "results/paper-parts/SVM"},
               {**_run("2026-11-28 11:00:00", 300), "cpu_seconds": 200.0}]      # computed, stopped before shipping
    (tmp_path / "paper_run_times.json").write_text(json.dumps(earlier))
    with paper_run.TimeRecord(tmp_path) as record:
        pass
    assert record.totals["invocations"] == 3 and record.totals["cpu_seconds"] >= 700
    assert record.unshipped["invocations"] == 2 and 200 <= record.unshipped["cpu_seconds"] < 250
    assert 300 <= record.unshipped["wall_seconds"] < 310
    where = "results/paper-parts/SVM 2026-11-28 12:00:00"
    record.mark_shipped(where)
    runs = json.loads((tmp_path / "paper_run_times.json").read_text())
    assert [r["shipped"] for r in runs] == ["results/paper-parts/SVM", where, where]
    with paper_run.TimeRecord(tmp_path) as later:
        pass
    assert later.unshipped["invocations"] == 1 and later.unshipped["cpu_seconds"] < 50


def test_adding_to_the_shipped_part_needs_the_learners_to_add(tmp_path, capsys):
    with pytest.raises(SystemExit):
        paper_run.main(["moreno_torres2012", "--store", str(tmp_path), "--add-to-shipped"])
    assert "--add-to-shipped needs --learners or --datasets" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())            # refused before anything is computed or recorded


def test_a_part_of_the_design_names_what_it_leaves_out():
    params, missing = paper_run._design("moreno_torres2012", {"learners": "SVM,1NN", "datasets": "Banana"}, None)
    assert params["learners"] == ["1NN", "SVM"] and params["datasets"] == ["Banana"]
    assert "SVM" not in missing["learners"] and len(missing["learners"]) == 7 and len(missing["datasets"]) == 26
    assert paper_run._design("moreno_torres2012", {"learners": None, "datasets": None}, None)[1] == {}
