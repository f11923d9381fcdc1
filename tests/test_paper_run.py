"""tools/paper_run.py's record of a paper run's time."""
import sys
from pathlib import Path

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
