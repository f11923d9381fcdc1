"""Japkowicz & Shah's shipped tables (cvrepro.shipped): what the notebook computes from them is what it
computes from the run itself, at the smoke profile labelled `paper` and shipped to a temporary folder."""
from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from shipped_roundtrip import assert_round_trip

from cvrepro import shipped
from cvrepro.profiles import study_parameters
from cvrepro.studies import japkowicz2011 as study

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from record_japkowicz2011_digests import OUT as DIGESTS  # noqa: E402
from record_japkowicz2011_digests import table_digest  # noqa: E402

# the smoke profile made smaller where only the amount of work changes (every part and table stays)
SMALLER = dict(ttest_runs=2, sign_domains=["contact-lenses", "labor"], n_bootstrap=5, n_permutations=3,
               sim_replications=4, sim_n=60, sim_truth_samples=3, sim_separations=[1.0, 0.4], flu_train=200,
               flu_test=300, flu_scenarios=["none", "DP", "NR/Poor", "MC"], boot_truth_samples=2,
               boot_truth_bootstrap=5)


def _outputs(res) -> dict:
    """Every table, figure's data and claim the notebook computes from the results."""
    p = res.params
    ours = study.table_measures(res)
    lab = study.labor_tests(res)
    printed = study.printed_two_domain_tests(p["alpha"])
    acc = study.accuracy_table(res)
    tests = study.two_domain_tests(acc, p["alpha"])
    est, rtests = study.resampling_table(res, p["alpha"])
    sim = study.simulation_table(res, p["alpha"])
    comparisons = study.compare_tests(res, p["alpha"])
    rc = study.roc_cost_analysis(res, tuple(p["cost_pair"]))
    vis = {"binary": study.visualization(res, study.VIS_DOMAINS)}
    boot = study.boot_truth_table(res)
    claims = study.claims(ours, study.worked_examples(), lab, printed, tests, study.friedman_printed(p["alpha"]),
                          sim, est, rc, vis, res.flu, p["alpha"], boot, comparisons)
    return {"measures": ours, "labour tests": lab["tests"], "labour checks": lab["checks"],
            "labour scores": lab["scores"], "labour runs": lab["run_accuracy"], "accuracy": acc, "tests": tests,
            "resampling": est, "resampling tests": rtests, "simulation": sim, "comparisons": comparisons,
            "roc ranges": rc["ranges"], "cost curves": pd.concat(rc["cost"]), "vis": vis["binary"]["table"],
            "vis vs paper": study.visualization_table_vs_paper(res), "boot truth": boot,
            "flu": study.flu_table(res), "sim truth": res.sim_truth, "claims": claims}


@pytest.fixture(scope="module")
def smoke_shipped(tmp_path_factory):
    """The smoke design labelled `paper`, run into a store, read back from it (as a paper run ships),
    shipped to a temporary folder and read back."""
    params = {**study_parameters("japkowicz2011", "smoke"), "weka_reference": False, "profile": "paper"}
    params.update(SMALLER)
    store = tmp_path_factory.mktemp("store")
    study.run(params, store=store, progress=False)
    results = study.run(params, store=store, progress=False)           # from the store's files
    root = tmp_path_factory.mktemp("shipped")
    shipped.save(study.STUDY_ID, study.to_tables(results), params, root=root)
    return params, results, study.run(params, shipped=root), root


def test_the_shipped_tables_give_every_table_figure_and_claim_of_the_run(smoke_shipped):
    params, results, again, _ = smoke_shipped
    assert_round_trip(study, lambda r, _: _outputs(r), params, results, again)
    assert again.cv.keys() == {k for k in results.cv if k[2:] == (1, 10) and k[0] in results.params["explorer_datasets"]
                               and k[1] in study.EXPLORER_LEARNERS}



def test_the_task_map_changed_no_number(smoke_shipped):
    """Every table, read back from the task map's store, bit for bit what the study's own cache and joblib map
    computed before (commit fbf666a on a machine without AVX-512; tools/record_japkowicz2011_digests.py): on
    every machine, since the kept probabilities use the C library's exp (cvrepro.libm), not numpy's AVX-512 one."""
    params, results, _, _ = smoke_shipped
    recorded = json.loads(DIGESTS.read_text())
    assert recorded["design"] == {**SMALLER, "weka_reference": False}
    assert {k: table_digest(v) for k, v in study.to_tables(results).items()} == recorded["digests"]

def test_the_real_wekas_measures_survive_the_round_trip(smoke_shipped):
    params, results, _, _ = smoke_shipped
    per_class = pd.DataFrame(np.arange(12.0).reshape(2, 6) / 12, columns=["tpr", "fpr", "precision", "recall",
                                                                          "f_measure", "auc"])
    one = {"accuracy": 89.47, "kappa": 0.77, "info_score": 30.1, "mae": 0.1, "rmse": 0.3, "unclassified": 0,
           "per_class": per_class, "confusion": np.array([[17, 3], [3, 34]])}
    weka = {("labor", "NB"): one, ("bupa", "C4.5"): {**one, "accuracy": 60.0, "confusion": np.eye(2, dtype=int)}}
    back = study.from_tables(params, study.to_tables(replace(results, weka=weka, weka_version="weka-3.6.14.jar")))
    assert back.weka_version == "weka-3.6.14.jar" and back.weka.keys() == weka.keys()
    for key, got in back.weka.items():
        got = dict(got)
        pd.testing.assert_frame_equal(got.pop("per_class"), per_class)
        assert np.array_equal(got.pop("confusion"), weka[key]["confusion"])
        assert got == {k: v for k, v in weka[key].items() if k not in ("per_class", "confusion")}


def test_the_slice_check_recomputes_and_catches_a_changed_number(smoke_shipped):
    params, _, _, root = smoke_shipped
    tables = shipped.load(study.STUDY_ID, params, root=root)
    same = study.recompute_slice(params, tables, n_cells=2, random_state=3)
    assert len(same) == 5 and (same.shipped == same.recomputed).all(), same
    counts = tables["fold_counts"].assign(correct=tables["fold_counts"].correct + 1)
    sim = tables["simulation"].assign(**{c: tables["simulation"][c] * (1 + 1e-12) for c in study.SIM_TESTS
                                         if c in tables["simulation"]})
    one_ulp = tables["predictions"].assign(proba=[np.nextafter(p, 2.0) for p in tables["predictions"].proba])
    differs = study.recompute_slice(params, {**tables, "fold_counts": counts, "simulation": sim,
                                             "predictions": one_ulp}, n_cells=2, random_state=3)
    assert (differs.shipped != differs.recomputed).all(), differs


def test_a_part_runs_alone_and_an_unknown_part_is_refused():
    params = {**study_parameters("japkowicz2011", "smoke"), **SMALLER, "parts": ["simulation"]}
    res = study.run(params, progress=False)
    assert res.cv == {} and res.flu is None and len(res.simulation) == 4 * len(params["sim_separations"])
    with pytest.raises(ValueError, match="unknown parts \\['sims'\\]"):
        study.run({**params, "parts": ["sims"]}, progress=False)
