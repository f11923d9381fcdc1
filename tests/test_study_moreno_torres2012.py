"""Moreno-Torres, Saez & Herrera (2012): the study's procedure against the paper's own numbers,
scipy, hand-derived partitions and a literal reading of Algorithm 5. Fast: no engine run."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cvrepro.convergence import random_orderings
from cvrepro.profiles import study_parameters
from cvrepro.published import moreno_torres2012 as paper
from cvrepro.studies import moreno_torres2012 as study
from cvrepro.verdicts import from_interval, from_parts


def _differences_with_lost_ranks(n, t):
    """Differences 1..n (ranks 1..n, no ties) whose negative ranks sum to ``t`` (largest first)."""
    d, left = np.arange(1.0, n + 1), t
    for r in range(n, 0, -1):
        if r <= left:
            d[r - 1], left = -r, left - r
    assert left == 0
    return d


def test_table_4_integer_p_values_are_exact_wilcoxon():
    """Every printed p of Table IV whose T = min(R+, R-) is whole follows from R+/R- and n = 27."""
    t = paper.table_4_long()
    checked = 0
    for r in t.itertuples():
        T = min(r._3, r._4)
        assert r._3 + r._4 == 27 * 28 / 2                      # zero differences split, as we do
        if T != int(T) or r.p_text == "":
            continue
        rp, rm, p = study.wilcoxon_exact(_differences_with_lost_ranks(27, int(T)), np.zeros(27))
        assert min(rp, rm) == T
        if r.p_text == ">0.2":
            assert p > 0.2, (r.row, r.column)
        else:
            assert p == pytest.approx(r.p, rel=5e-3), (r.row, r.column)
        checked += 1
    assert checked >= 15


def test_wilcoxon_exact_is_scipys_without_ties_and_splits_zeros():
    rng = np.random.default_rng(3)
    for n in (5, 12, 27):
        a, b = rng.random(n), rng.random(n)
        rp, rm, p = study.wilcoxon_exact(a, b)
        ref = stats.wilcoxon(a, b, method="exact")
        assert p == pytest.approx(ref.pvalue, rel=1e-12)
        assert min(rp, rm) == ref.statistic and rp + rm == n * (n + 1) / 2
    # zeros: ranked and split evenly between R+ and R- (Table IV's R+ + R- = n(n+1)/2)
    rp, rm, _ = study.wilcoxon_exact([1, 2, 3, 4], [1, 1, 1, 1])
    assert (rp, rm) == (9.5, 0.5)                               # d = 0, 1, 2, 3: rank 1 split
    with pytest.raises(ValueError, match="finite"):
        study.wilcoxon_exact([1.0, np.nan], [0.0, 0.0])


def _enumerated_p(d):
    """The exact two-sided p by enumerating every sign pattern of the non-zero differences' midranks."""
    ranks = stats.rankdata(np.abs(d))
    zero = ranks[d == 0].sum() / 2
    observed = min(ranks[d > 0].sum(), ranks[d < 0].sum())
    r = ranks[d != 0]
    sums = np.array([r[np.array(signs, bool)].sum() for signs in np.ndindex(*(2,) * len(r))]) if len(r) else [0]
    return min(1.0, 2 * float(np.mean(np.asarray(sums) <= observed + 1e-9))), zero


def test_wilcoxon_exact_with_ties_and_zeros_equals_enumerating_the_signs():
    rng = np.random.default_rng(5)
    for _ in range(60):
        n = int(rng.integers(1, 13))
        a, b = rng.integers(0, 4, n) / 4, rng.integers(0, 4, n) / 4      # many tied and zero differences
        rp, rm, p = study.wilcoxon_exact(a, b)
        want, zero = _enumerated_p(np.round(a - b, 12))
        assert p == pytest.approx(want, abs=1e-12)
        assert rp + rm == n * (n + 1) / 2 and min(rp, rm) >= zero


def test_single_verdicts_are_the_pairwise_tests_of_each_experiment():
    """Grouped at once, as :func:`true_verdicts` tests one table: per (partitioner, scheme,
    experiment), the data sets with every classifier's score; a classifier missing from one group
    is left out of that group only."""
    run = _fake_run(n_sets=7, experiments=4)
    e = run.experiments.copy()
    e.loc[(e.dataset == "d3") & (e.learner == "LDA") & (e.experiment == 1), "keel_auc"] = np.nan
    e = e[~((e.learner == "C4.5") & (e.experiment == 2) & (e.partitioner == "SCV"))]
    run.experiments = e.assign(keel_auc=e.keel_auc + np.random.default_rng(1).normal(0, 0.02, len(e)))
    for budget in (2, 1):
        got = study.single_verdicts(run, budget=budget)
        g = run.experiments.assign(experiment=run.experiments.experiment // budget)
        g = g.groupby(["partitioner", "scheme", "experiment", "dataset", "learner"]).keel_auc.mean().reset_index()
        n_groups = 0
        for (part, scheme, x), group in g.groupby(["partitioner", "scheme", "experiment"]):
            wide = group.pivot(index="dataset", columns="learner", values="keel_auc").dropna()
            want = study.true_verdicts(study.MorenoRun(
                {"metric": "keel_auc"}, None, wide.stack().rename("keel_auc").reset_index().assign(scheme="s"),
                None, None, None), scheme="s")
            mine = got[(got.partitioner == part) & (got.scheme == scheme) & (got.experiment == x)]
            pd.testing.assert_frame_equal(mine[want.columns].reset_index(drop=True), want)
            n_groups += 1
        assert n_groups == got.groupby(["partitioner", "scheme", "experiment"]).ngroups == 4 * 3 * 4 // budget
    alone = got[(got.partitioner == "SCV") & (got.experiment == 2)]
    assert set(alone.row) | set(alone.column) == {"1NN", "LDA"}        # C4.5 is missing from these groups only
    assert len(got[(got.partitioner == "DB-SCV") & (got.experiment == 2)]) == 3 * 3


def test_table_6_follows_from_table_5_and_table_4():
    """The paper's DOB-SCV 5x2 cell of Table VI is the mean of Table V, whose pairs are Table IV's
    significant ones (p <= 0.1, the three with lost p-values among them)."""
    t5, t4 = paper.table_5(), paper.table_4_long()
    assert t5["count"].mean() == pytest.approx(paper.table_6().set_index("scheme").loc["5x2", "DOB-SCV"], abs=5e-4)
    significant = t4[[text == "" or (text != ">0.2" and p <= paper.TABLE_4_ALPHA)
                      for p, text in zip(t4.p, t4.p_text)]]
    assert set(zip(significant.row, significant.column)) == set(zip(t5.row, t5.column))
    t6 = paper.table_6().set_index("scheme")
    assert (t6.loc[["2x5", "5x2", "10x1"]].mean() - t6.loc["Average"]).abs().max() < 5e-3


def _fake_run(n_sets=8, experiments=4):
    """A MorenoRun whose truth says A > B on every data set and B ~ C; experiments copy the truth,
    except MS-SCV, whose experiments reverse A and B."""
    rng = np.random.default_rng(0)
    sets = [f"d{i}" for i in range(n_sets)]
    base = rng.uniform(0.6, 0.8, n_sets)
    truth_rows, exp_rows = [], []
    for scheme in study.SCHEMES:
        for i, d in enumerate(sets):
            scores = {"1NN": base[i] + 0.05 + 0.001 * i, "C4.5": base[i], "LDA": base[i] + rng.normal(0, 0.01)}
            for learner, v in scores.items():
                truth_rows.append({"dataset": d, "learner": learner, "scheme": scheme, "auc": v, "keel_auc": v})
                for part in study.PARTITIONERS:
                    w = v
                    if part == "MS-SCV" and learner in ("1NN", "C4.5"):
                        w = scores["C4.5" if learner == "1NN" else "1NN"]
                    for e in range(experiments):
                        exp_rows.append({"dataset": d, "learner": learner, "partitioner": part, "scheme": scheme,
                                         "experiment": e, "auc": w, "keel_auc": w})
    params = {"metric": "keel_auc", "experiments": experiments, "budgets": [1, 2], "true_partitions": 20,
              "convergence_experiments": 20}
    conv = pd.DataFrame([{"dataset": d, "learner": "1NN", "partitioner": p, "scheme": s, "repetition": 0,
                          "n_experiments": {"2x5": 5, "5x2": 8, "10x1": 12}[s] + (9 if p == "MS-SCV" else 0),
                          "capped": False} for d in sets for p in study.PARTITIONERS for s in study.SCHEMES])
    return study.MorenoRun(params, pd.DataFrame(exp_rows), pd.DataFrame(truth_rows), conv, pd.DataFrame(),
                           pd.DataFrame())


def test_tables_5_6_7_and_claims_on_a_constructed_run():
    run = _fake_run()
    t4 = study.true_verdicts(run)
    sig = t4[t4.significant]
    assert {(r.row, r.column, r.winner) for r in sig.itertuples()} >= {("1NN", "C4.5", "1NN")}
    assert sig.p.min() == pytest.approx(2 / 2 ** 8)            # 8 data sets, all one way: exact p
    t5 = study.table_5(run)
    pair = t5[(t5.row == "1NN") & (t5.column == "C4.5")].set_index(["partitioner", "scheme"])
    assert (pair.loc[[p for p in study.PARTITIONERS if p != "MS-SCV"], "percent"] == 100).all()
    assert (pair.loc["MS-SCV", "percent"] == 0).all()          # reversed winner: never agrees
    t6 = study.table_6(run).set_index(["scheme", "partitioner"])
    assert t6.loc[("5x2", "MS-SCV"), "ours"] < t6.loc[("5x2", "SCV"), "ours"]
    t7 = study.table_7(run).set_index(["scheme", "partitioner"])
    assert t7.loc[("10x1", "MS-SCV"), "mean"] == 21 and t7.loc[("2x5", "DOB-SCV"), "mean"] == 5
    claims = study.claims(run).set_index("claim")
    verdicts = claims.verdict.tolist()
    # MS-SCV 0% against 100%: much worse; SCV = DB-SCV = DOB-SCV exactly (no noise): no advantage
    assert verdicts[:3] == ["holds", "does not hold", "does not hold"]
    assert verdicts[3:] == ["holds", "does not hold", "holds"]   # MS-SCV +9; all equal; 5 < 8 < 12
    assert "95% interval" in claims.evidence.iloc[0] and "agrees with the truth" in claims.evidence.iloc[0]
    readings = study.agreement_readings(run).set_index("partitioner")
    cols = [c for c in readings.columns if c.startswith("Table VI")]
    assert readings.loc["MS-SCV", cols[0]] < 50 and readings.loc["SCV", cols[0]] == 100
    assert readings.loc["MS-SCV", cols[2]] > readings.loc["MS-SCV", cols[0]]   # either winner: reversed pair counts
    assert readings.loc["SCV", "all pairs: agree %"] == 100
    budget = study.budget_table(run)
    assert set(budget["budget (fits)"]) == {10, 20}
    assert (budget[budget.partitioner == "DOB-SCV"]["agree %"] == 100).all()
    dob = budget[budget.partitioner == "DOB-SCV"]
    assert (dob["false alarms %"].fillna(0) == 0).all() and (dob["found %"] == 100).all()
    ms = budget[(budget.partitioner == "MS-SCV") & (budget["budget (fits)"] == 10)]
    assert (ms["found %"] < 100).all()                         # the reversed pair is never found


def test_experiments_are_consecutive_iterations():
    its = pd.DataFrame({"dataset": "d", "learner": "L", "iteration": np.arange(10),
                        "auroc": np.arange(10.0), "keel_auc": np.arange(10.0) * 2})
    e = study.experiment_auc(its, repeats=5, count=2)
    assert e.auc.tolist() == [2.0, 7.0] and e.keel_auc.tolist() == [4.0, 14.0]
    assert study.experiment_auc(its, repeats=2, count=3).experiment.tolist() == [0, 1, 2]


def _algorithm_5(vectors, threshold=study.THRESHOLD):
    """Algorithm 5 as printed: accumulate estimates until the Pearson correlation of consecutive
    accumulated averages reaches the threshold; Conv = the number accumulated."""
    previous = vectors[0]
    for k in range(2, len(vectors) + 1):
        current = np.mean(vectors[:k], axis=0)
        if np.corrcoef(previous, current)[0, 1] >= threshold:
            return k
        previous = current
    return len(vectors)


def test_algorithm_5_hand_cases_and_a_literal_reading():
    same = np.tile([0.1, 0.5, 0.9, 0.3], (6, 1))
    assert study.convergence_counts(same, 3).n_experiments.tolist() == [2, 2, 2]
    # a vector and its mirror image: their average is constant (no correlation): never converges
    x = np.array([0.0, 1.0, 0.2, 0.8])
    out = study.convergence_counts(np.array([x, 1 - x]), 2)
    assert out.capped.all() and (out.n_experiments == 2).all()
    rng = np.random.default_rng(1)
    probas = rng.random((40, 30)) * 0.3 + np.linspace(0, 0.7, 30)
    counts = study.convergence_counts(probas, 4, seed=7)
    orders = random_orderings(40, 4, 7)
    assert counts.n_experiments.tolist() == [_algorithm_5(probas[o]) for o in orders]
    capped = study.convergence_counts(rng.random((3, 30)), 2)
    assert capped.capped.all() and (capped.n_experiments == 3).all()


def test_artificial_set_db_scv_spirals_and_dob_scv_spreads():
    """Hand-derived: from example 0 the chain is 0..7 (inside, then round the outside); DB-SCV deals it
    round-robin ({i, i+4} share a fold), MS-SCV in blocks; DOB-SCV puts 0 and its three nearest
    (1, 3, 5) in four folds, then the other four in four folds."""
    assert study.nn_chain(study.ARTIFICIAL, 0) == list(range(8))
    parts = study.artificial_partitions()
    db, dob, ms = parts["DB-SCV"], parts["DOB-SCV"], parts["MS-SCV"]
    assert all(db[i] == db[i + 4] for i in range(4)) and len(set(db[:4])) == 4
    assert all(ms[2 * i] == ms[2 * i + 1] for i in range(4)) and len(set(ms)) == 4
    assert parts["dob_group"] == [0, 1, 3, 5]
    assert sorted(dob[[0, 1, 3, 5]]) == [0, 1, 2, 3] and sorted(dob[[2, 4, 6, 7]]) == [0, 1, 2, 3]
    assert sorted(np.bincount(parts["SCV"])) == [2, 2, 2, 2]
    # the paper's point, measured: DB-SCV's spiral leaves each test fold's region out of training
    assert study.artificial_shift(db)["mmd"] > 3 * study.artificial_shift(dob)["mmd"]


def test_design_and_profiles_name_the_papers_sets_and_learners():
    names = study.catalog_names()
    assert set(names) == set(study.DATASETS) and len(study.DATASETS) == 27
    assert study.LEARNERS == tuple(paper.table_2().abbreviation)
    for profile in ("smoke", "quick", "paper"):
        p = study_parameters("moreno_torres2012", profile)
        assert set(p["datasets"]) <= set(study.DATASETS) and set(p["learners"]) <= set(study.LEARNERS)
        assert p["convergence_experiments"] >= 1 and p["metric"] in ("auc", "keel_auc")
    paper_scale = study.SCALES["paper"]
    assert (paper_scale["experiments"], paper_scale["true_partitions"], paper_scale["convergence_repetitions"]) \
        == (100, 200, 10)


def test_table_1_counts_and_keel_bounds_learners():
    t1 = study.table_1(datasets=["Hepatitis", "Appendicitis", "Haberman"]).set_index("dataset")
    assert (t1["examples diff"] == 0).all()
    assert t1.loc["Appendicitis", "real ours"] == 7
    ds = study.load("Haberman")
    models = study.build_learners(["1NN", "C4.5"], ds.X)
    assert np.array_equal(models["1NN"].get_params()["bounds"][:, 0], ds.X.min().to_numpy())
    assert "bounds" not in models["C4.5"].get_params()


def test_table_2_reads_status_from_the_registry_and_part_runs_keels_part_c():
    from cvrepro.learners import list_learners
    from cvrepro.learners.keel_part import KeelPART

    t2 = study.table_2().set_index("abbreviation")
    reg = list_learners().set_index("name")
    assert list(t2.index) == list(study.LEARNERS)
    runs = {n: study.IMPLEMENTATION.get(n, n) for n in t2.index}
    assert all(t2.loc[n, "registry status"] == reg.loc[runs[n], "status"] for n in t2.index)
    assert all(t2.loc[n, "status"] == reg.loc[runs[n], "status"] for n in t2.index)
    assert t2.loc["PART", "status"] == "faithful" and "KEEL" in t2.loc["PART", "checked against"]
    ds = study.load("Haberman")
    assert isinstance(study.build_learners(["PART"], ds.X)["PART"], KeelPART)
    assert "PART-C" in study.describe_keel_trees() and "not WEKA's PART" in study.describe_keel_trees()


def test_claim_intervals_separate_effects_only_beyond_the_noise():
    """A noisy run whose partitioners differ by far less than the noise: undecided, not a verdict."""
    run = _fake_run(experiments=6)
    rng = np.random.default_rng(5)
    e = run.experiments
    e["keel_auc"] = e.keel_auc + rng.normal(0, 0.03, len(e))
    run.experiments = e
    boot = study.table_6_bootstrap(run)
    widths = []
    for est, samples in boot.values():
        lo, hi = np.percentile(samples, [2.5, 97.5])
        assert lo <= est <= hi
        widths.append(hi - lo)
    assert max(widths) > 10                              # 6 experiments: intervals of tens of points
    verdicts = study.claims(run).set_index("where").verdict
    assert verdicts["Sec. VI-A (3), Table VI"] == "undecided"
    assert from_interval(1.0, 3.0) == "holds" and from_interval(-1.0, 3.0) == "undecided"
    assert from_parts(["holds", "does not hold"]) == "partly"
    assert from_parts(["holds", "undecided"]) == "undecided"


def test_keel_tree_agreement_matches_its_fixture_and_table_2():
    fixture = pd.read_csv(Path(__file__).parent / "fixtures" / "moreno_torres2012" / "keel_c45_part.csv")
    cases = study.keel_tree_agreement(by_dataset=True)
    assert np.allclose(cases[["agreement", "keel_auc_ours", "keel_auc_keel"]],
                       fixture[["agreement", "keel_auc_ours", "keel_auc_keel"]], atol=1e-5)
    summary = study.keel_tree_agreement()
    assert summary.loc["C4.5", "agreement"] > 0.99          # WEKA's J48 and KEEL's C45-C: same trees, nearly
    assert summary.loc["PART", "keel_auc_keel"] < 0.6       # KEEL's PART-C: near one-class, as the paper's column
    parity = study.table_2().set_index("abbreviation").parity
    assert "C45-C" in parity["C4.5"]


def test_estimate_core_hours_covers_every_learner_and_the_partitioning():
    params = study_parameters("moreno_torres2012", "paper", datasets=["Appendicitis"], learners=["LDA", "C4.5"])
    hours = study.estimate_core_hours(params)
    assert set(hours.index) == {("Appendicitis", n) for n in ("LDA", "C4.5", "partitioning")}
    assert (hours > 0).all() and hours.sum() < 1      # a 106-example data set: minutes, not hours


def test_knn_distance_fixture_is_reproduced_and_read():
    """Two rows of tools/measure_moreno_knn_distance.py's fixture, recomputed; the sentence reads it."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
    from measure_moreno_knn_distance import OUT, measure

    t = pd.read_csv(OUT).set_index(["dataset", "learner", "distance", "values"]).auc.sort_index()
    assert measure("Ionosphere", 1, "manhattan") == pytest.approx(t["Ionosphere", "1NN", "manhattan", "catalog"],
                                                                 abs=1e-6)
    assert measure("Tic-tac-toe", 1, "euclidean", values=("x", "b", "o")) == pytest.approx(
        t["Tic-tac-toe", "1NN", "euclidean", "x b o"], abs=1e-6)
    text = study.knn_distance_gap()
    assert "Manhattan" in text and "Euclidean" in text and "on 27 data sets" in text
    tic = t["Tic-tac-toe", "1NN", "euclidean"]
    assert f"from {tic.min():.2f} to {tic.max():.2f}" in text and "Tic-tac-toe (0.59 against 0.91)" in text


def test_table_7_readings_side_by_side():
    run = _fake_run()
    alt = run.convergence.copy()
    alt["n_experiments"] = alt.scheme.map({"2x5": 2, "5x2": 4, "10x1": 12})
    run.convergence_by_iteration = alt
    t = study.table_7_readings(run).set_index(["scheme", "partitioner"])
    assert t.loc[("2x5", "SCV"), "per experiment (the text's)"] == 5 and t.loc[("2x5", "SCV"), "per iteration"] == 2
    text = study.describe_table_7(t.reset_index())
    assert "accumulating experiment" in text and "accumulating iteration" in text and "the paper" in text
    assert "2x5 < 5x2 < 10x1" in text


def test_interpretation_sentences_follow_the_numbers():
    run = _fake_run()
    text = study.describe_table_6(study.table_6(run), study.agreement_readings(run))
    order = text.split("Our order ")[1].split(" ")[0:7]
    assert order[-1] == "MS-SCV" and "false alarms" in text
    assert "MS-SCV raises false alarms well above SCV's." in text     # and scores below SCV on Table VI
    assert "MS-SCV" not in study.best_by_budget(study.budget_table(run)).split("most often with ")[1][:8]
    st = pd.DataFrame({"scheme": "5x2", "partitioner": ["SCV", "DOB-SCV", "DB-SCV", "MS-SCV"],
                       "nn_vs_scv": [1.0, 0.98, 0.97, 1.3]})
    text = study.describe_shift(st)
    assert "MS-SCV induces more shift" in text and "DOB-SCV, DB-SCV less" in text
    st["nn_vs_scv"] = [1.0, 1.1, 1.2, 0.9]
    assert "MS-SCV less" in study.describe_shift(st)


def test_figures_2_4_sentence_follows_the_measured_shift():
    """The sentence names DB-SCV the most shifted only when its MMD is the largest."""
    parts = study.artificial_partitions()
    assert "DB-SCV's partition is the most shifted of the four" in study.describe_figures_2_4(parts)
    swapped = {**parts, "DB-SCV": parts["SCV"], "SCV": parts["DB-SCV"]}
    text = study.describe_figures_2_4(swapped)
    assert "SCV's partition is the most shifted, not DB-SCV's" in text


def test_table_sentences_count_what_the_tables_hold():
    t2 = pd.DataFrame({"abbreviation": ["A", "B", "C"], "status": ["faithful", "stand-in", "faithful"]})
    assert study.describe_table_2(t2).startswith("2 of 3 classifiers") and "B is a stand-in" in \
        study.describe_table_2(t2)
    assert study.describe_table_2(t2.assign(status="faithful")).endswith("paper ran.")
    t3 = pd.DataFrame({"learner": ["A", "B"], "auc diff": [0.1, -0.1], "keel_auc diff": [0.01, 0.0]})
    assert "**keel_auc** reproduces" in study.describe_table_3(t3, "keel_auc")
    assert "**auc** reproduces" in study.describe_table_3(t3.rename(columns={"auc diff": "keel_auc diff",
                                                                             "keel_auc diff": "auc diff"}), "auc")


def test_table_6_intervals_hold_the_estimates_and_the_figure_draws_them():
    """Each cell's 95 % interval holds Table VI's estimate; the bars carry one error bar per drawn cell."""
    run = _fake_run(experiments=6)
    t6, iv = study.table_6(run), study.table_6_intervals(run)
    both = t6.merge(iv, on=["scheme", "partitioner"]).dropna(subset=["ours"])
    assert len(both) and ((both.low <= both.ours + 1e-9) & (both.ours <= both.high + 1e-9)).all()
    fig = study.figure_table_6(t6, iv)
    assert len(fig.axes[0].containers) > 4 and fig.legends        # bars and error bars; the legend below
    empty = study.figure_table_6(t6.assign(ours=np.nan), iv.iloc[:0])
    assert "no pair of classifiers differs" in empty.axes[0].texts[0].get_text()


def test_shift_relations_sentence_says_when_no_cell_converged():
    rel = pd.DataFrame({"convergence": [np.nan, np.nan]})
    rel.attrs.update(rho_error=0.5, positive_error=0.9, rho_convergence=np.nan, positive_convergence=np.nan)
    assert "cannot be computed: in 0 of 2 cells" in study.describe_shift_relations(rel)
    rel = rel.assign(convergence=[3.0, 4.0])
    rel.attrs.update(rho_error=0.5, positive_error=0.9, rho_convergence=0.25, positive_convergence=0.5)
    assert "experiments to converge 0.25 (positive in 50%" in study.describe_shift_relations(rel)


def test_the_opening_sentence_names_what_a_profile_or_a_part_leaves_out():
    whole = study_parameters("moreno_torres2012", "paper")
    assert "Left out" not in study.describe_profile(whole, "paper")
    part = study.describe_profile({**whole, "learners": ["1NN", "3NN", "LDA", "C4.5"]}, "paper")
    assert part.endswith("on every data set with every classifier. Left out at this profile: classifiers FURIA, "
                         "PART, PDFC, RIPPER, SVM."), part
    smoke = study.describe_profile(study_parameters("moreno_torres2012", "smoke"), "smoke")
    assert "Left out at this profile: data sets Australian," in smoke and "; classifiers 3NN, FURIA" in smoke
