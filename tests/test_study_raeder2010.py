"""Raeder et al. 2010 analyses: published oracles and constructed cases with known answers."""
import numpy as np
import pandas as pd
import pytest

from cvrepro.published import raeder2010 as paper
from cvrepro.studies import raeder2010 as study


def grid(values) -> pd.DataFrame:
    """An engine-shaped iterations table from {(dataset, learner, k): [auroc per iteration]}."""
    rows = [{"dataset": d, "learner": l, "k": k, "iteration": i, "auroc": v}
            for (d, l, k), vs in values.items() for i, v in enumerate(vs)]
    return pd.DataFrame(rows)


def test_canonical_is_5x2_2x5_1x10_and_steady_state_is_the_mean_of_all():
    it = grid({("d", "A", 2): [0.1, 0.2, 0.3, 0.4, 0.5, 0.9],
               ("d", "A", 5): [0.5, 0.7, 0.0, 0.0, 0.0, 0.0],
               ("d", "A", 10): [0.8, 0.2, 0.2, 0.2, 0.2, 0.2]})
    est = study.estimates(it).set_index("k")
    assert est.loc[2, "canonical"] == pytest.approx(0.3)
    assert est.loc[5, "canonical"] == pytest.approx(0.6)
    assert est.loc[10, "canonical"] == pytest.approx(0.8)
    assert est.loc[2, "steady_state"] == pytest.approx(np.mean([0.1, 0.2, 0.3, 0.4, 0.5, 0.9]))


def test_table_1_ranks_and_the_published_critical_distance():
    rng = np.random.default_rng(0)
    values = {}
    for d in range(20):  # the paper's 20 data sets
        base = rng.uniform(0.7, 0.9)
        for k, shift in ((2, 0.0), (5, 0.01), (10, 0.02)):  # more folds, more optimistic
            values[(f"d{d}", "A", k)] = [base + shift] * 5
    ranks, info = study.table_1(study.estimates(grid(values)))
    assert info["critical_distance"] == pytest.approx(paper.TABLE_1_CRITICAL_DISTANCE, abs=5e-4)
    canon = ranks[ranks.estimate == "canonical"].set_index("folds")
    assert canon.average_rank.to_dict() == {2: 3.0, 5: 2.0, 10: 1.0}
    assert bool(canon.loc[10, "significant"]) and not bool(canon.loc[2, "significant"])  # 2-fold is the control


def test_running_means_and_lead_changes():
    it = grid({("d", "A", 2): [1.0, 0.0, 0.0, 0.0], ("d", "B", 2): [0.0, 0.6, 0.6, 0.6]})
    means = study.running_means(it, "d", ["A", "B"], 2)
    np.testing.assert_allclose(means["A"], [1.0, 0.5, 1 / 3, 0.25])
    np.testing.assert_allclose(means["B"], [0.0, 0.3, 0.4, 0.45])
    assert study.lead_changes(means) == 1  # A leads, then B from the fourth iteration
    settle = study.settling_iterations(it, tolerance=0.01).set_index("learner")
    assert settle.loc["B", "settles_at"] == 4 and settle.loc["A", "settles_at"] == 4


def test_seed_search_finds_opposite_significant_seeds():
    values = {}
    for d in range(10):
        values[(f"d{d}", "C4.5", 10)] = [0.80 + 0.01 * d, 0.70, 0.75]
        values[(f"d{d}", "HDDT", 10)] = [0.70, 0.80 + 0.01 * d, 0.75]
    verdicts = study.seed_verdicts(grid(values))
    assert verdicts.loc[0, "R+"] == 55 and verdicts.loc[1, "R-"] == 55  # n(n+1)/2 for n = 10
    found = study.opposite_seeds(verdicts, alpha=0.05)
    assert found["found"] and found["seeds"] == {"C4.5": 0, "HDDT": 1}
    assert found["counts"]["no significant difference"] == 1  # seed 2: all ties, no verdict


def test_table_2_average_ranks_reproduce_the_published_ones():
    published = paper.table_2()
    long = []
    for seed in (216, 459):
        for learner in ("C4.5", "HDDT"):
            for d, v in zip(published.dataset, published[f"{learner}@{seed}"]):
                long.append({"dataset": d, "learner": learner, "k": 10, "iteration": seed, "auroc": v})
    table = study.table_2(pd.DataFrame(long), [216, 459])
    assert table.loc["avg. rank"].round(2).to_dict() == paper.TABLE_2_AVG_RANKS


def test_the_published_table_2_second_seed_is_not_significant_by_its_own_numbers():
    """The paper marks seed 459 significant at 0.05; its values give Wilcoxon p = 0.23."""
    retest = study.retest_table_2(paper.table_2()).set_index("seed")
    assert retest.loc[216, "wilcoxon p"] < 0.05
    assert (retest.loc[216, "R+"], retest.loc[216, "R-"]) == (155, 16)
    assert retest.loc[459, "wilcoxon p"] > 0.10 and retest.loc[459, "sign test p"] < 0.10


def test_distribution_skewness_sign():
    left = 1 - np.random.default_rng(1).exponential(0.02, 200)  # long tail to the left
    it = grid({("d", "A", 2): list(left)})
    summary = study.distribution_summary(it).iloc[0]
    assert summary.skewness < -1 and summary["mean"] < summary["median"]


class _Results:
    """The two things table_3 reads from CVResults."""

    def __init__(self, iterations, proba):
        self.iterations, self._proba = iterations, proba

    def oof(self, dataset, learner, k):
        return self._proba[learner]


def test_table_3_separated_learners_are_perfectly_reproducible():
    rng = np.random.default_rng(2)
    n_it = 60
    it = grid({("d", "A", 2): list(0.9 + 0.01 * rng.random(n_it)),
               ("d", "B", 2): list(0.7 + 0.01 * rng.random(n_it))})
    proba = {l: rng.random((n_it, 30, 2)) for l in "AB"}
    row = study.table_3(_Results(it, proba), ["d"], "A", "B", 2, n_orderings=10).iloc[0]
    for rule in study.STOPPING_RULES:
        assert row[f"R {rule}"] == 1.0
    assert row["A-KS-0.1"] <= n_it and row["A-Rank"] <= n_it


def test_true_test_table_mse_row():
    est = pd.DataFrame({"dataset": ["x", "y"], "learner": ["NB", "NB"], "k": [2, 2],
                        "canonical": [0.8, 0.6], "steady_state": [0.7, 0.7]})
    actual = pd.DataFrame({"dataset": ["x", "y"], "learner": ["NB", "NB"], "auroc": [0.9, 0.9]})
    table = study.true_test_table(est, actual, "canonical", learners=("NB",))
    assert table.loc["MSE", "2-fold NB"] == pytest.approx((0.1 ** 2 + 0.3 ** 2) / 2)


def test_every_paper_data_set_has_a_stand_in_or_is_marked_missing():
    table = study.stand_ins()
    assert set(table.paper) == set(study.PAPER_DATASETS)
    assert set(table[table["used here"] == "-"].paper) == {"NCAAF", "horse-colic"}
    from cvrepro.datasets import load_dataset

    for name in set(study.PAPER_DATASETS.values()) - {None}:
        load_dataset(name)


def test_claims_verdicts_from_constructed_results():
    ranks = pd.DataFrame([
        {"estimate": e, "folds": k, "learner": l, "average_rank": r, "significant": sig}
        for l in ("A", "B")
        for e, k, r, sig in [("canonical", 2, 3.0, False), ("canonical", 5, 1.5, True),
                             ("canonical", 10, 1.5, False), ("steady-state", 2, 3.0, True),
                             ("steady-state", 5, 2.0, False), ("steady-state", 10, 1.0, False)]])
    settle = pd.DataFrame({"learner": ["A", "B"], "settles_at": [3, 40]})
    dists = pd.DataFrame({"mean": [0.9, 0.8, 0.7, 0.6], "skewness": [-1.0, -0.5, 0.2, 0.4]})
    search = {"found": False, "seeds": {}, "pvalues": {},
              "counts": {"seeds": 5, "no significant difference": 5}}
    out = study.claims(ranks, settle, {"p": 0}, search, dists, {}, None).set_index("where")
    verdicts = dict(zip(out.claim, out.verdict))
    assert verdicts["2-fold CV is the most pessimistic canonical estimator for every classifier"] == "holds"
    assert verdicts["steady-state 10-fold is the most optimistic estimator for every classifier"] == "holds"
    assert verdicts["two seeds give opposite significant Wilcoxon verdicts for C4.5 vs HDDT"] == "does not hold"
    assert verdicts["estimate distributions of good classifiers are left-skewed"] == "holds"
    assert verdicts["with few iterations the leading classifier changes"] == "does not hold"


def test_stopping_claims_are_undecided_when_the_replays_hit_the_cap():
    a = pd.DataFrame({"dataset": ["d"], "R Fixed-10": [0.8], "R Fixed-50": [1.0], "R Rank": [1.0],
                      "R KS-0.1": [1.0], "R KS-0.2": [1.0], "C4.5-Rank": [20.0], "HDDT-Rank": [20.0],
                      "C4.5-KS-0.1": [20.0], "HDDT-KS-0.1": [20.0], "capped Rank": [100],
                      "capped KS-0.1": [100]})
    ranks = pd.DataFrame([{"estimate": e, "folds": k, "learner": "A", "average_rank": r,
                           "significant": False}
                          for e in ("canonical", "steady-state") for k, r in ((2, 3.0), (5, 2.0), (10, 1.0))])
    out = study.claims(ranks, pd.DataFrame({"learner": ["A"], "settles_at": [1]}), {},
                       {"found": False, "seeds": {}, "pvalues": {}, "counts": {"seeds": 0}},
                       pd.DataFrame({"mean": [0.9], "skewness": [-1.0]}), {"a": a}, None)
    verdicts = dict(zip(out.claim, out.verdict))
    assert verdicts["Rank stops earlier than KS-0.1 with comparable R"].startswith("undecided")
    assert verdicts["Fixed-10 is the least reproducible rule for the unstable pair"] == "holds"
