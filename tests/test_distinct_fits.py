"""No fit done twice: each study's ``paper`` design counted by tools/count_fits.py (planning only, no fit).

The counts are exact, so that a change of a design, or a new repeat, is noticed here. A repeat the
design still makes is asserted with its count and named (see each study module's "Shared fits").
"""
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("count_fits", ROOT / "tools" / "count_fits.py")
count_fits = importlib.util.module_from_spec(spec)
sys.modules["count_fits"] = count_fits      # its dataclass looks its module up
spec.loader.exec_module(count_fits)

PAPER = {   # study: (fits, distinct fits, repeats computed twice)
    "raeder2010": (892_509, 892_509, {}),
    "moreno_torres2012": (3_742_200, 3_742_200, {}),
    "vanwinckelen2012": (2_212_620, 2_212_620, {}),
    "japkowicz2011": (130_674, 130_234, {
        # the permutation test's true-label CV: the 10-fold seed-1 WEKA folds of the cross-validations
        ("japkowicz2011: cross-validations", "japkowicz2011: permutation test (true labels)"): 40,
        # bootstrap_error fits the sample for the resubstitution error; the truth fits it again
        ("japkowicz2011: bootstrap truth (resubstitution)", "japkowicz2011: bootstrap truth (true error)"): 400}),
    "scheffer1997": (309_962, 291_062, {
        # the held-out truth refits each setting on the outer training sets (the engine predicts no held-out rows)
        ("scheffer1997: outer CV", "scheffer1997: held-out truth"): 18_900}),
}


@pytest.fixture(scope="module")
def plans():
    return {study: count_fits.plan(study, "paper") for study in PAPER}


@pytest.mark.parametrize("study", list(PAPER))
def test_paper_design_fits_each_fit_once(plans, study):
    total, distinct, twice = PAPER[study]
    t = count_fits.tally(plans[study])
    assert (t["total"], t["distinct"]) == (total, distinct)
    assert t["twice"] == twice
    assert sum(t["served"].values()) + sum(twice.values()) == total - distinct


def test_moreno_torres_count_is_the_papers_arithmetic(plans):
    """15,400 fits per data set and classifier (the module's docstring): 4 partitioners x 3 schemes x 100
    experiments x 10 fits, plus 200 true SCV partitions of each scheme's k (2 + 5 + 10)."""
    from cvrepro.studies import moreno_torres2012 as s
    p = s.SCALES["paper"]
    per_cell = (len(s.PARTITIONERS) * len(s.SCHEMES) * p["experiments"] * 10
                + p["true_partitions"] * sum(k for k, _ in s.SCHEMES.values()))
    assert per_cell == 15_400
    assert PAPER["moreno_torres2012"][0] == per_cell * len(p["datasets"]) * len(p["learners"])


def test_paper_run_steps_are_served_by_the_store():
    """tools/paper_run.py runs each PAPER_ORDER step, then the whole design, into one store: every repeat is
    read back, but for the uncached true-test fits (Raeder: 9 per step) and channel (Scheffer: 2 fits)."""
    twice = {study: count_fits.tally(count_fits.plan(study, "paper", steps=True))["twice"]
             for study in ("raeder2010", "scheffer1997")}
    assert twice["raeder2010"] == {("raeder2010: true-test fit", "raeder2010: true-test fit"): 54}
    assert twice["scheffer1997"][("scheffer1997: channel", "scheffer1997: channel")] == 2


def test_studies_share_only_the_mlp_cells(plans):
    """Across studies (different stores): Scheffer's default MLP is Raeder's MLP, on pima, sonar and ionosphere
    at 10 folds and seeds 0-2."""
    every = [g for groups in plans.values() for g in groups]
    t = count_fits.tally(every)
    across = {k: n for k, n in t["twice"].items() if k[0].split(":")[0] != k[1].split(":")[0]}
    assert across == {("raeder2010: grid", "scheffer1997: outer CV"): 90}


def test_tally_tells_served_from_computed_twice():
    F = count_fits.Fits
    a = F("s", "a", "d", "L", ("scv", 2), (0, 1, 2), 2, None, ("engine", "x"))
    b = F("s", "b", "d", "L", ("scv", 2), (1, 2, 3), 2, None, ("engine", "x"))      # same cache: served
    c = F("s", "c", "d", "L", ("scv", 2), (3, 4), 2, None, ("taskmap", "y"))        # other cache: computed again
    d = F("s", "d", "d", "L", ("scv", 2), (0,), 2, 7, ("engine", "x"))              # other learner seeds: distinct
    t = count_fits.tally([a, b, c, d])
    assert (t["total"], t["distinct"]) == (18, 12)
    assert t["served"] == {("s: a", "s: b"): 4} and t["twice"] == {("s: b", "s: c"): 2}


def test_scheffer_truth_runs_a_shared_setting_once(monkeypatch):
    """MLP's default and MLP-seed's seed 0 are one learner: one truth task per pool sample, both families
    read its accuracy."""
    from cvrepro.engine import taskmap
    from cvrepro.studies import scheffer1997 as s

    seen = []

    def fake_map(func, tasks, store=None, **kwargs):
        seen.extend(tasks)
        return [pd.DataFrame({"accuracy": [float(i)]}) for i in range(len(tasks))]

    monkeypatch.setattr(taskmap, "map_tasks", fake_map)
    settings = s.family_settings({"MLP": {"hidden_layers": ["1", "3"], "epochs": [500], "learning_rate": [0.3]}}, 2)
    units = [{"unit": "u", "kind": "pool", "X": None, "y": None, "X_hold": None, "y_hold": None}]
    truth = s.truths(units, settings, None, 1, "loky", False, {("u", 0): np.zeros(4, dtype=int)})
    assert len(seen) == 4                       # MLP -H 1, MLP -H 3 (= MLP-seed 0), MLP-seed 1 and 2
    default = settings["MLP"].index({"hidden_layers": "3", "epochs": 500, "learning_rate": 0.3})
    assert truth[("u", "MLP")][default] == truth[("u", "MLP-seed")][0]
    assert [len(truth[("u", f)]) for f in ("MLP", "MLP-seed")] == [2, 3]
