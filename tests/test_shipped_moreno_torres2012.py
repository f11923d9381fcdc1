"""Moreno-Torres et al.'s shipped tables (cvrepro.shipped): what the notebook computes from them is what it
computes from the run itself, at the smoke profile labelled `paper` and shipped to a temporary folder."""
from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from shipped_roundtrip import assert_round_trip, ship_and_read_back

from cvrepro import shipped
from cvrepro.profiles import study_parameters
from cvrepro.studies import moreno_torres2012 as study

# the smoke profile made smaller where only the amount of work changes (every table and claim stays); Algorithm 5
# on a pool of 10 experiments of one data set, where some replays converge before the cap (1NN 10x1; 1NN 2x5
# counted by iteration) and others are capped
SMALLER = dict(learners=["1NN", "LDA"], experiments=2, true_partitions=4, convergence_experiments=10,
               convergence_datasets=["Hepatitis"], convergence_repetitions=2, shift_partitions=1)
CONVERGENCE = ("convergence", "convergence_by_iteration")


def _outputs(result, params) -> dict:
    """Every table, figure's data, sentence and claim the notebook computes from the results."""
    t3, t4, t5, t6 = study.table_3(result), study.table_4(result), study.table_5(result), study.table_6(result)
    readings, t7r = study.agreement_readings(result), study.table_7_readings(result)
    st, rel, bt = study.shift_table(result), study.shift_relations(result), study.budget_table(result)
    claims = study.claims(result)
    words = [study.describe_table_3(t3, params["metric"]), study.describe_table_4(t4, len(params["datasets"])),
             study.describe_table_5(t5), study.describe_table_6(t6, readings), study.describe_convergence(result, t7r),
             study.describe_shift(st), study.describe_shift_relations(rel), study.describe_budget(bt),
             study.describe_conclusion(claims, bt, t3, params, "paper", 1.0)]
    return {"table 1": study.table_1(result), "table 3": t3, "table 4": t4, "table 5": t5,
            "table 5 shown": study.table_5_shown(t5), "table 6": t6,
            "table 6 intervals": study.table_6_intervals(result),
            "readings": readings, "table 7": study.table_7(result), "table 7 readings": t7r, "shift": st,
            "shift relations": rel, "budget": bt, "claims": claims, "sentences": pd.DataFrame({"text": words})}


@pytest.fixture(scope="module")
def smoke_shipped(tmp_path_factory):
    """The smoke design labelled `paper`, run, shipped to a temporary folder and read back."""
    return ship_and_read_back(study, {**study_parameters("moreno_torres2012", "smoke"), **SMALLER, "profile": "paper"},
                              tmp_path_factory)


def test_the_shipped_tables_give_every_table_figure_and_claim_of_the_run(smoke_shipped):
    params, results, again, _ = smoke_shipped
    assert_round_trip(study, _outputs, params, results, again)
    assert again.shipped and not results.shipped
    assert "shipped paper-scale tables" in study.describe_run(again, "store")
    assert "shipped" not in study.describe_run(results, "store")
    # two of the nine classifiers shipped: the opening sentence names the others, the run says they are computing
    assert "classifiers 3NN, C4.5, FURIA, PART, PDFC, RIPPER, SVM." in study.describe_profile(again.params, "paper")
    assert "left out above are still computing" in study.describe_run(again, "store")
    whole = dataclasses.replace(again, params={**again.params, "learners": list(study.LEARNERS)})
    assert "Only part" not in study.describe_run(whole, "store")
    # an undecided verdict at the published scale is not sent to the paper profile again
    claims, t3, bt = study.claims(again), study.table_3(again), study.budget_table(again)
    assert (claims.verdict == "undecided").any()
    at = {profile: study.describe_conclusion(claims, bt, t3, again.params, profile, 1.0)
          for profile in ("quick", "paper")}
    assert "need the paper profile" in at["quick"] and "need the paper profile" not in at["paper"]
    assert "stay so at the published scale" in at["paper"] and "computed so far" in at["paper"]
    assert "computed so far" not in study.describe_conclusion(claims, bt, t3, whole.params, "paper", 1.0)


def test_the_slice_check_recomputes_and_catches_a_changed_number(smoke_shipped):
    params, _, _, root = smoke_shipped
    tables = shipped.load(study.STUDY_ID, params, root=root)
    # Algorithm 5's rows drawn among the replays that converged before the cap (a capped one stops anyway)
    converged = {name: tables[name][~tables[name].capped] for name in CONVERGENCE}
    assert all(len(t) for t in converged.values())
    same = study.recompute_slice(params, {**tables, **converged}, n_cells=2, random_state=4)
    assert len(same) == 6 and (same.shipped == same.recomputed).all(), same
    assert same.cell.str.contains("Algorithm 5's experiments").sum() == 1
    assert same.cell.str.contains("Algorithm 5's single iterations").sum() == 1
    experiments = tables["experiments"].assign(keel_auc=tables["experiments"].keel_auc + 1e-12)
    truth = tables["truth"].assign(auc=tables["truth"].auc * (1 + 1e-12))
    shift = tables["shift"].assign(mmd=tables["shift"].mmd + 1e-12)
    fewer = converged["convergence"].assign(n_experiments=converged["convergence"].n_experiments - 1)
    flipped = converged["convergence_by_iteration"].assign(capped=True)
    differs = study.recompute_slice(params, {**tables, "experiments": experiments, "truth": truth, "shift": shift,
                                             "convergence": fewer, "convergence_by_iteration": flipped},
                                    n_cells=2, random_state=4)
    assert len(differs) == 6 and (differs.shipped != differs.recomputed).all(), differs
    more = {name: t.assign(n_experiments=t.n_experiments + 1) for name, t in converged.items()}
    later = study.recompute_slice(params, {**tables, **more}, n_cells=0, random_state=4)
    assert (later.shipped != later.recomputed).tolist() == [False, True, True, False], later


def test_parts_computed_apart_added_to_the_shipped_part_equal_the_run_over_both(smoke_shipped, tmp_path):
    params, results, _, _ = smoke_shipped
    design = {**params, "learners": ["1NN", "C4.5", "LDA"]}
    first, second = ["Hepatitis", "Heart"], ["Appendicitis", "Haberman"]     # not in the design's order
    parts = {("1NN", tuple(sets)): study.run({**params, "learners": ["1NN"], "datasets": sets}, progress=False)
             for sets in (first, second)}
    lda = study.run({**params, "learners": ["LDA"]}, progress=False)
    # 1NN's data sets apart (a learner too long for one session), then 1NN whole added to LDA's part
    apart, main = tmp_path / "apart", tmp_path / "main"
    shipped.save(study.STUDY_ID, study.to_tables(parts["1NN", tuple(first)]), parts["1NN", tuple(first)].params,
                 wall_seconds=1.0, cpu_seconds=2.0, root=apart)
    later = parts["1NN", tuple(second)]
    shipped.add_part(study.STUDY_ID, study.to_tables(later), later.params, design, wall_seconds=1.0,
                     cpu_seconds=2.0, note="the rest", root=apart)
    doc = shipped.manifest(study.STUDY_ID, apart)
    assert doc["parameters"]["datasets"] == params["datasets"] and doc["missing"] == {"learners": ["C4.5", "LDA"]}
    assert [p["datasets"] for p in doc["parts"]] == [first, second] and doc["note"].endswith("(the rest).")
    shipped.save(study.STUDY_ID, study.to_tables(lda), lda.params, wall_seconds=10.0, cpu_seconds=20.0,
                 missing={"learners": ["1NN", "C4.5"]}, root=main)
    shipped.add_table(study.STUDY_ID, "shift", study.to_tables(lda)["shift"], note="measured again", root=main)
    whole = shipped.load(study.STUDY_ID, root=apart)
    shipped.add_part(study.STUDY_ID, whole, doc["parameters"], design, wall_seconds=2.0, cpu_seconds=4.0,
                     note="1NN", root=main)
    doc = shipped.manifest(study.STUDY_ID, main)
    assert doc["parameters"]["learners"] == ["1NN", "LDA"] and doc["missing"] == {"learners": ["C4.5"]}
    assert (doc["wall_seconds"], doc["cpu_seconds"]) == (12.0, 24.0)
    assert doc["files"]["shift.parquet"]["note"] == "measured again"       # a shared table kept keeps its entry
    merged = shipped.load(study.STUDY_ID, params, root=main)          # the design over both, verified
    for name, table in study.to_tables(results).items():
        if name != "seconds":           # the last invocation's, the part added
            pd.testing.assert_frame_equal(merged[name], table, check_exact=True, obj=name)
    assert merged["seconds"].equals(study.to_tables(later)["seconds"])
    # a classifier shipped already, another design or another measured shift: refused, the shipped part unchanged
    files = {p.name: p.read_bytes() for p in (main / study.STUDY_ID).iterdir()}
    with pytest.raises(shipped.ShippedResultsError, match=r"learners \['1NN'\] are shipped already"):
        shipped.add_part(study.STUDY_ID, whole, params | {"learners": ["1NN"]}, design, wall_seconds=1.0,
                         cpu_seconds=1.0, note="", root=main)
    c45 = {**params, "learners": ["C4.5"]}
    with pytest.raises(shipped.ShippedResultsError, match="parameter 'experiments' differs"):
        shipped.add_part(study.STUDY_ID, whole, {**c45, "experiments": 3}, design, wall_seconds=1.0,
                         cpu_seconds=1.0, note="", root=main)
    with pytest.raises(shipped.ShippedResultsError, match="exactly one of learners, datasets"):
        shipped.add_part(study.STUDY_ID, whole, {**c45, "datasets": first}, design, wall_seconds=1.0,
                         cpu_seconds=1.0, note="", root=main)
    moved = {**whole, "shift": whole["shift"].assign(mmd=whole["shift"].mmd + 1e-12),
             "experiments": whole["experiments"].assign(learner="C4.5")}
    with pytest.raises(shipped.ShippedResultsError, match="'shift' .* differs"):
        shipped.add_part(study.STUDY_ID, moved, c45, design, wall_seconds=1.0, cpu_seconds=1.0, note="", root=main)
    assert files == {p.name: p.read_bytes() for p in (main / study.STUDY_ID).iterdir()}
