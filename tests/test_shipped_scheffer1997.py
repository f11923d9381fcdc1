"""Scheffer & Herbrich's shipped tables (cvrepro.shipped): what the notebook computes from them is what it
computes from the run itself, at the smoke profile labelled `paper` and shipped to a temporary folder."""
from __future__ import annotations

import pandas as pd
import pytest
from shipped_roundtrip import assert_round_trip, ship_and_read_back

from cvrepro import shipped
from cvrepro.profiles import study_parameters
from cvrepro.studies import scheffer1997 as study


def _outputs(results, params) -> dict:
    """Every table, figure's data and claim the notebook computes from the results."""
    runs, tuning = results["channel"], results["tuning"]
    curves = study.probability_curves(params["c_max_one_shot"], params["c_max_cv"])
    summary = study.channel_summary(runs)
    checks = {r.dataset: study.gain_check(r) for r in runs}
    estimates = study.estimates_table(tuning)
    sbias = study.settings_bias(tuning)
    ranking = study.ranking_effect(tuning)
    claims = study.claims(curves, summary, {d: t.attrs["pvalue"] for d, t in checks.items()}, estimates, sbias,
                          ranking)   # as notebook 05 calls it
    out = {"summary": summary, "greedy": study.greedy_check(runs), "ranks": study.rank_table(runs),
           "facts": study.stated_facts({r.dataset: r.hits / r.test_size for r in runs}),
           "units": tuning.units, "estimates": estimates, "bias": study.bias_table(estimates), "settings bias": sbias,
           "parameters bias": study.parameters_bias(tuning), "ranking": ranking,
           "gains": study.tuning_gain_ranks(estimates), "cost": study.cost_table(tuning), "claims": claims,
           "seconds": pd.DataFrame({"s": [tuning.seconds], "failures": [len(tuning.failures)]})}
    for r in runs:
        out[f"gain check {r.dataset}"] = checks[r.dataset].assign(p=checks[r.dataset].attrs["pvalue"])
        out[f"rank curves {r.dataset}"] = study.rank_curves(r)
    return out


@pytest.fixture(scope="module")
def smoke_shipped(tmp_path_factory):
    """The smoke design labelled `paper`, run, shipped to a temporary folder and read back."""
    return ship_and_read_back(study, {**study_parameters("scheffer1997", "smoke"), "profile": "paper"},
                              tmp_path_factory)


def test_the_shipped_tables_give_every_table_figure_and_claim_of_the_run(smoke_shipped):
    params, results, again, _ = smoke_shipped
    assert_round_trip(study, _outputs, params, results, again)
    for a, b in zip(results["channel"], again["channel"]):               # the orderings' extra hits, recomputed
        pd.testing.assert_frame_equal(a.gains, b.gains)


def test_the_slice_check_recomputes_and_catches_a_changed_number(smoke_shipped):
    params, _, _, root = smoke_shipped
    tables = shipped.load(study.STUDY_ID, params, root=root)
    same = study.recompute_slice(params, tables, n_cells=2, random_state=5)
    assert len(same) == 3 and (same.shipped == same.recomputed).all(), same
    outer = tables["tuning_outer"].assign(score=tables["tuning_outer"].score + 1e-12)
    correct = tables["channel_correct"].assign(correct=~tables["channel_correct"].correct)
    differs = study.recompute_slice(params, {**tables, "tuning_outer": outer, "channel_correct": correct},
                                    n_cells=2, random_state=5)
    assert (differs.shipped != differs.recomputed).all(), differs


def test_a_part_runs_alone_and_an_unknown_part_is_refused():
    params = {**study_parameters("scheffer1997", "smoke"), "parts": ["channel"], "mc_orderings": 50}
    res = study.run(params, progress=False)
    assert res["tuning"] is None and [r.dataset for r in res["channel"]] == params["channel_datasets"]
    with pytest.raises(ValueError, match="unknown parts \\['tune'\\]"):
        study.run({**params, "parts": ["tune"]}, progress=False)
