"""Vanwinckelen & Blockeel's shipped tables (cvrepro.shipped): what the notebook computes from them is what it
computes from the run itself, at the smoke profile labelled `paper` and shipped to a temporary folder."""
from __future__ import annotations

import pandas as pd
import pytest
from shipped_roundtrip import assert_round_trip, ship_and_read_back

from cvrepro import shipped
from cvrepro.profiles import study_parameters
from cvrepro.studies import vanwinckelen2012 as study

# the smoke profile made smaller where only the amount of work changes (every table, test and claim stays);
# no extension, as at paper
SMALLER = dict(learners=["NB", "C4.5", "4NN"], n_samples=3, curve_samples=3, repetitions={2: 6, 10: 4},
               table_repetitions=4, extensions=[])


def _outputs(exp, params) -> dict:
    """Every table, figure's data, sentence and claim the notebook computes from the results."""
    eps = study.unconditional(exp)
    shares = study.win_shares_by_n(exp)
    fig2 = study.figure_2_table(exp)
    final = study.final_estimates(exp)
    dec = study.decomposition(exp)
    ours = study.contingency(exp)
    table = study.table_contingency(ours)
    rates, readings = study.pick_rates(ours), study.reading_summary(table)
    probs = study.conditional_probabilities(ours)
    groups = study.pair_groups(exp)
    decisions = study.test_decisions(exp, groups)
    rej = study.rejection_rates(decisions)
    claims = study.claims(exp, dec, ours, probs, rej)
    run = study.describe_experiment(exp, eps).split("; ", 2)          # its middle part: computed or read
    words = [run[0], run[2],
             study.describe_win_shares(study.win_share_distances(shares)), study.describe_figure_2(fig2),
             study.describe_final_estimates(final), study.describe_decomposition(dec),
             study.describe_pick_rates(rates), study.describe_reading_summary(readings, params["n_samples"]),
             study.describe_conditional_probabilities(probs, params["table_populations"]),
             study.describe_rejections(rej, params["alpha"]),
             study.describe_conclusion(claims, final, dec, rates, rej, params["sample_size"], params["alpha"])]
    return {"unconditional": eps, "small classes": exp.small_classes, "win shares": shares, "figure 2": fig2,
            "curves": study.running_estimates(exp), "final": final, "decomposition": dec, "contingency": table,
            "pick rates": rates, "readings": readings, "probabilities": probs, "groups": groups,
            "decisions": decisions, "rejections": rej, "claims": claims, "sentences": pd.DataFrame({"text": words})}


@pytest.fixture(scope="module")
def smoke_shipped(tmp_path_factory):
    """The smoke design labelled `paper`, run, shipped to a temporary folder and read back."""
    return ship_and_read_back(study, {**study_parameters("vanwinckelen2012", "smoke"), **SMALLER, "profile": "paper"},
                              tmp_path_factory)


def test_the_shipped_tables_give_every_table_figure_and_claim_of_the_run(smoke_shipped):
    params, results, again, _ = smoke_shipped
    assert_round_trip(study, _outputs, params, results, again)
    assert len(again.folds) < len(results.folds)             # only the folds the tests read are shipped
    assert "shipped paper-scale tables" in study.describe_experiment(again, study.unconditional(again))


def test_the_slice_check_recomputes_and_catches_a_changed_number(smoke_shipped):
    params, _, _, root = smoke_shipped
    tables = shipped.load(study.STUDY_ID, params, root=root)
    same = study.recompute_slice(params, tables, n_cells=2, random_state=2)
    assert len(same) == 4 and (same.shipped == same.recomputed).all(), same
    iterations = tables["iterations"].assign(error=tables["iterations"].error + 1e-12)
    conditional = tables["conditional"].assign(error=tables["conditional"].error * (1 + 1e-12))
    differs = study.recompute_slice(params, {**tables, "iterations": iterations, "conditional": conditional},
                                    n_cells=2, random_state=2)
    assert (differs.shipped != differs.recomputed).all(), differs
