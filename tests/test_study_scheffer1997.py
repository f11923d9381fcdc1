"""Scheffer & Herbrich (1997) study: the benchmark table against the paper's printed numbers,
StatLog ranks, the channel on a real learner against the formulas, and the engine's nested CV
against the library's."""
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

from cvrepro import paramchannel as pc
from cvrepro.nested import nested_cv
from cvrepro.partition import SCV
from cvrepro.published import scheffer1997 as paper
from cvrepro.studies import scheffer1997 as study

# ------------------------------------------------------------------ the paper's numbers ---


@pytest.fixture(scope="module")
def bench():
    return study.benchmark_table().set_index(["benchmark", "setting"])


def test_benchmark_table_reproduces_and_flags_the_printed_numbers(bench):
    """The same findings as tests/test_paramchannel.py, as the table reports them."""
    expected = {
        ("Landsat", "one-shot"): (60, "params(10)"),
        ("Landsat (c = 16)", "one-shot"): (16, "-"),
        ("DNA", "one-shot"): (85, "bits (truncated), params(10)"),
        ("mesh, 26 %", "per-fold"): (5, "P (truncated)"),
        ("mesh, 31 %", "per-fold"): (8, "P"),
        ("diabetes", "per-fold"): (3, "c, P"),
        ("diabetes", "fixed"): (7, "-"),
        ("heart (k-NN)", "fixed"): (13, "c, P, bits (truncated)"),
    }
    for key, (c, flags) in expected.items():
        assert bench.loc[key, "c ours"] == c, key
        assert bench.loc[key, "does not follow"] == flags, key
    assert bench.loc[("heart (C4.5)", "fixed"), "does not follow"] == "not computable"
    assert round(bench.loc[("mesh, 31 %", "per-fold"), "P ours"], 3) == 0.977
    assert round(bench.loc[("heart (k-NN)", "fixed"), "P ours"], 3) == 0.766
    assert round(bench.loc[("Landsat (c = 16)", "one-shot"), "P ours"], 2) == 0.02
    assert bench.loc[("Landsat", "one-shot"), "trials ours"] == 360
    assert bench.loc[("DNA", "one-shot"), "params(10) ours"] == 39
    flagged = bench[bench["does not follow"] != "-"]
    assert (flagged["note"].str.len() > 0).all()                    # every mismatch is explained


def test_statlog_ranks_give_the_papers_ranks_and_z():
    """C4.5 is 10th on both sets; z = 6 (Landsat, to tie Bay-tree) and z = 4 (DNA, to beat IndCart)."""
    assert study.statlog_rank(0.850, "landsat")[0] == 10
    assert study.statlog_rank(0.853, "landsat")[0] == 9          # a tie shares the better rank
    assert study.statlog_rank(0.924, "dna")[0] == 10
    assert study.hits_for_rank("landsat", 2000, 9) - 1700 == 6
    assert study.hits_for_rank("dna", 1186, 9) - 1096 == 4
    assert study.statlog_rank(1.0, "dna")[0] == 1
    assert study.statlog_rank(0.5, "dna")[0] == 21                  # Default and not-run entries unranked
    specs = study.curve_specs().set_index("curve")
    assert specs.loc["Landsat", "z"] == 6 and specs.loc["DNA", "z"] == 4
    assert round(specs.loc["DNA", "entropy"], 4) == 1.4908
    with pytest.raises(ValueError, match="no StatLog table"):
        paper.statlog("heart")


def test_effort_curves_follow_the_probability_curves():
    curves = study.probability_curves(200, 40)
    effort = study.effort_curves(curves, targets=[0.9]).set_index("curve")
    assert effort.loc["Landsat", "c"] == 60 and effort.loc["Landsat", "trials"] == 360
    assert effort.loc["DNA", "c"] == 85 and round(effort.loc["DNA", "bits"], 1) == 126.7
    assert "diabetes (fixed)" not in effort.index                   # never reaches 90 %
    assert effort.loc["heart k-NN (fixed)", "c"] == 13


# ------------------------------------------------------------- the channel on a learner ---

class CountingTree(ClassifierMixin, BaseEstimator):
    """A decision tree that counts its fits (class attribute), to check the channel's reuse."""

    fits = 0

    def __init__(self, max_depth=2):
        self.max_depth = max_depth

    def fit(self, X, y):
        type(self).fits += 1
        self.tree_ = DecisionTreeClassifier(max_depth=self.max_depth, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def _toy(seed=0, n=300):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    y = pd.Series(np.where(X["a"] + rng.normal(scale=1.0, size=n) > 0, "yes", "no"))
    return X[:200], y[:200], X[200:].reset_index(drop=True), y[200:].reset_index(drop=True)


def test_greedy_search_finds_c_minus_x_in_c_times_classes_trials():
    X_tr, y_tr, X_te, y_te = _toy()
    CountingTree.fits = 0
    model = pc.ParameterChannel(CountingTree())
    search = pc.greedy_channel_search(model, X_tr, y_tr, X_te, y_te, c=12)
    correct = model.fit(X_tr, y_tr).own_predict(X_te) == y_te.to_numpy()
    assert search.n_trials == 12 * 2
    assert search.extra_hits == 12 - correct[:12].sum()
    assert search.hits_after == int(correct.sum()) + search.extra_hits
    assert list(search.labels) == list(y_te[:12])                  # the leaked labels are the true ones
    assert CountingTree.fits == 1                                   # only the labels changed: one real fit
    model.set_params(estimator=CountingTree(max_depth=3)).fit(X_tr, y_tr)
    assert CountingTree.fits == 2                                   # the learner's own parameters refit


def test_channel_gains_match_the_search_and_the_hypergeometric_law():
    X_tr, y_tr, X_te, y_te = _toy(1)
    model = pc.ParameterChannel(DecisionTreeClassifier(max_depth=2, random_state=0)).fit(X_tr, y_tr)
    correct = model.predict(X_te) == y_te.to_numpy()
    orderings = pc.random_orderings(len(y_te), 20000, random_state=0, length=30)
    gains = pc.channel_gains(correct, [10, 30], orderings)
    for o in range(3):                                              # the real search on the same orderings
        head = orderings[o]
        order = np.concatenate([head, np.setdiff1d(np.arange(len(y_te)), head)])
        s = pc.greedy_channel_search(model, X_tr, y_tr, X_te.iloc[order], y_te[order], 10)
        assert s.extra_hits == gains.query("ordering == @o and c == 10")["extra_hits"].item()
    hits, m = int(correct.sum()), len(correct)
    for c in (10, 30):
        g = gains.loc[gains["c"] == c, "extra_hits"]
        assert g.mean() == pytest.approx(c * (1 - hits / m), abs=0.05)
        for z in (2, 5, 8):
            assert np.mean(g >= z) == pytest.approx(pc.one_shot_probability(z, c, m, hits), abs=0.012)


def test_random_orderings_are_uniform_permutation_prefixes():
    o = pc.random_orderings(50, 4000, random_state=1, length=5)
    assert o.shape == (4000, 5) and all(len(set(r)) == 5 for r in o[:100])
    first = np.bincount(o[:, 0], minlength=50) / 4000
    assert np.abs(first - 1 / 50).max() < 0.012
    assert np.array_equal(pc.random_orderings(50, 3, random_state=1), pc.random_orderings(50, 3, random_state=1))


def test_channel_bad_input():
    X_tr, y_tr, X_te, y_te = _toy()
    model = pc.ParameterChannel(DecisionTreeClassifier())
    with pytest.raises(ValueError, match="not fitted"):
        model.predict(X_te)
    model.fit(X_tr, y_tr).set_params(labels=("maybe",))
    with pytest.raises(ValueError, match="not a class"):
        model.predict(X_te)
    with pytest.raises(ValueError, match="needs an estimator"):
        pc.ParameterChannel().fit(X_tr, y_tr)
    with pytest.raises(ValueError, match="c must be"):
        pc.greedy_channel_search(model, X_tr, y_tr, X_te, y_te, len(y_te) + 1)
    with pytest.raises(ValueError, match="orderings"):
        pc.channel_gains([True, False], [1], [[0, 2]])


def test_gain_check_accepts_the_formula_and_rejects_a_wrong_one():
    correct = np.r_[np.ones(150, bool), np.zeros(50, bool)]
    orderings = pc.random_orderings(200, 5000, random_state=2, length=40)
    run = study.ChannelRun("toy", 200, 150, 2, 1.0, 40, pc.channel_gains(correct, [40], orderings),
                           pd.DataFrame(), 0.0)
    assert study.gain_check(run).attrs["pvalue"] > 0.001
    wrong = study.ChannelRun("toy", 200, 120, 2, 1.0, 40, run.gains, pd.DataFrame(), 0.0)
    assert study.gain_check(wrong).attrs["pvalue"] < 1e-6


# ------------------------------------------------------------------ nested CV on the engine ---

def test_engine_route_equals_the_library_nested_cv(tmp_path):
    params = study.SCALES["smoke"] | {
        "pool_datasets": [], "cv_datasets": ["heart"], "cv_repetitions": 1, "outer_folds": 3, "inner_folds": 3,
        "grids": {"C4.5": {"confidence": [0.1, 0.25], "min_num_obj": [2, 10]}}, "seeds": 0}
    run = study.run_tuning(params, store=tmp_path, n_jobs=1, progress=False)
    res = run.results[("heart", 0, "C4.5")]
    from cvrepro.datasets import load_dataset
    ds = load_dataset("heart")
    lib = nested_cv(study.make_setting("C4.5", {}), params["grids"]["C4.5"], ds.X, ds.y,
                    outer_cv=SCV(3, random_state=0), inner_cv=SCV(3, random_state=0))
    assert res.naive_score == pytest.approx(lib.naive_score)
    assert res.nested_score == pytest.approx(lib.nested_score)
    assert res.per_fold_score == pytest.approx(lib.per_fold_score)
    np.testing.assert_array_equal(res.folds()["chosen"], lib.folds()["chosen"])
    again = study.run_tuning(params, store=tmp_path, n_jobs=1, progress=False)   # from the store
    assert again.results[("heart", 0, "C4.5")].nested_score == res.nested_score


def _fake_run(b_better: bool):
    """A TuningRun by hand: 8 units, MLP-seed with seeds 0..2; B's seeds score higher on the outer
    folds when ``b_better``; inner scores favour seed 1."""
    settings = {"MLP-seed": [{"random_state": s} for s in range(3)]}
    run = study.TuningRun(params={"subset_draws": 2, "seed": 0}, units=pd.DataFrame(), settings=settings)
    from cvrepro.nested import nested_from_scores
    for u in range(8):
        outer = pd.DataFrame([(f, s, 0.7 + (0.05 * (s > 0) if b_better else 0) + 0.01 * f) for f in range(2)
                              for s in range(3)], columns=["outer_fold", "setting", "score"])
        inner = pd.DataFrame([(f, s, 0, 0.6 + 0.1 * (s == 1)) for f in range(2) for s in range(3)],
                             columns=["outer_fold", "setting", "inner_fold", "score"])
        run.results[(f"u{u}", 0, "MLP-seed")] = nested_from_scores(settings["MLP-seed"], outer, inner)
        run.truth[(f"u{u}", "MLP-seed")] = np.array([0.8, 0.8, 0.8])
    return run


def test_ranking_effect_counts_each_protocol():
    r = study.ranking_effect(_fake_run(True)).set_index("protocol")
    assert r.loc["naive", "B ranked above A"] == 1.0 and r.loc["naive", "pairs"] == 8
    assert r.loc["held-out truth", "tied"] == 1.0
    assert r.loc["naive", "mean B - A"] == pytest.approx(0.05)
    flat = study.ranking_effect(_fake_run(False)).set_index("protocol")
    assert flat.loc["naive", "tied"] == 1.0 and flat.loc["nested", "tied"] == 1.0


def test_claims_on_the_formulas_hold():
    curves = study.probability_curves(200, 40)
    channel = pd.DataFrame({"data set": ["Landsat"], "bits": [333.0]})
    empty = pd.DataFrame(columns=["unit", "kind", "family", "naive - truth", "nested - truth", "per_fold - truth",
                                  "naive - nested"])
    claims = study.claims(curves, channel, {"landsat": 0.3}, empty, pd.DataFrame(columns=["family", "tried"]),
                          pd.DataFrame()).set_index("where")
    assert claims.loc["Secs. 2.4, 6", "verdict"] == "holds"
    assert claims.loc["Sec. 3.1", "verdict"] == "holds"
    assert claims.loc["Secs. 4, 4.1", "verdict"] == "holds"
    assert claims.loc["Sec. 5", "verdict"] == "undecided"
    bad = study.claims(curves, channel, {"landsat": 1e-9}, empty, pd.DataFrame(columns=["family", "tried"]),
                       pd.DataFrame()).set_index("where")
    assert bad.loc["Secs. 2.4, 6", "verdict"] == "partly"      # the simulation disagreeing with the formula


def test_grids_must_contain_the_defaults():
    with pytest.raises(ValueError, match="must contain its defaults"):
        study.family_settings({"IBk": {"k": [3, 5]}}, 0)
    with pytest.raises(ValueError, match="unknown learner family"):
        study.make_setting("RF", {})
    assert math.isclose(study.make_setting("SMO", {"C": 2.0}).C, 2.0)


def test_rank_curves_follow_statlog_steps_and_the_formula():
    correct = np.r_[np.ones(1707, bool), np.zeros(293, bool)]         # our C4.5 on Landsat: 1707 of 2000
    orderings = pc.random_orderings(2000, 3000, random_state=3, length=150)
    run = study.ChannelRun("landsat", 2000, 1707, 6, 2.5, 60, pc.channel_gains(correct, np.arange(151), orderings),
                           pd.DataFrame(), 0.0)
    curves = study.rank_curves(run)
    assert list(curves.drop_duplicates("step")[["rank", "z"]].itertuples(index=False, name=None)) == \
        [(8, 15), (6, 17), (5, 29)]                                     # BackProp; IndCart and Cart tied; Alloc80
    for c in (30, 100, 150):
        row = curves[(curves["step"] == 1) & (curves["c"] == c)].iloc[0]
        assert row["formula"] == pytest.approx(pc.one_shot_probability(15, c, 2000, 1707), abs=1e-12)
        assert row["simulated"] == pytest.approx(row["formula"], abs=0.03)


def test_truth_is_at_the_training_size_of_the_outer_folds(tmp_path):
    """The truth the naive estimate is compared with: the setting refitted on each outer training set, scored on
    the held-out rows, averaged over the folds (it once refitted on the whole sample: 25 % more data)."""
    params = study.SCALES["smoke"] | {
        "pool_datasets": ["spambase"], "pool_samples": 1, "sample_size": 120, "cv_datasets": [], "outer_folds": 3,
        "inner_folds": 2, "grids": {"C4.5": {"confidence": [0.25], "min_num_obj": [2, 10]}}, "seeds": 0}
    run = study.run_tuning(params, store=tmp_path, n_jobs=1, progress=False)
    from cvrepro.datasets import load_dataset
    ds = load_dataset("spambase")
    pick = np.zeros(len(ds.y), dtype=bool)                      # the design's sample: seeded by (seed, sample)
    pick[np.random.default_rng([params["seed"], 0]).choice(len(ds.y), 120, replace=False)] = True
    X, y, Xh, yh = (v.reset_index(drop=True) for v in (ds.X[pick], ds.y[pick], ds.X[~pick], ds.y[~pick]))
    truth = run.truth[("spambase~0", "C4.5")]
    assert truth.tolist() == [0.8114809023899934, 0.7792420519693247]   # as before the task map (issue 31)
    whole = [np.mean(study.make_setting("C4.5", s).fit(X, y).predict(Xh) == yh.to_numpy())
             for s in run.settings["C4.5"]]
    assert not np.allclose(truth, whole)
    folds = np.arange(120) % 3
    manual = np.mean([np.mean(study.make_setting("C4.5", {"confidence": 0.25, "min_num_obj": 10})
                              .fit(X[folds != f], y[folds != f]).predict(Xh) == yh.to_numpy()) for f in range(3)])
    assert study.truth_at_training_size("C4.5", {"confidence": 0.25, "min_num_obj": 10}, X, y, folds, Xh, yh) \
        == pytest.approx(manual)
    row = study.estimates_table(run).iloc[0]
    assert row["naive - truth, paired"] == pytest.approx(row["naive - truth"] - (row["default"] - row["truth_default"]))


def test_conclusion_counts_six_printed_slips_and_table_9_does_not_read_as_unbiased():
    bench = study.benchmark_table()
    assert len(study.printed_slips(bench)) == 6 and len(bench) == 9          # heart (C4.5) is not computable
    claims = pd.DataFrame({"where": ["Sec. 5"], "verdict": ["holds"], "claim": ["x"], "evidence": ["y"]})
    bias = pd.DataFrame([{"family": "all", **{c: v for col, m, h in (
        ("naive - truth", 0.006, 0.0075), ("naive - truth, paired", 0.012, 0.004), ("nested - truth", -0.002, 0.006),
        ("per_fold - truth", 0.03, 0.01), ("naive - nested", 0.012, 0.002)) for c, v in ((col, m), (col + " ±", h))}}])
    text = study.conclusion(bench, claims, bias, True)
    assert "6 contain printed numbers that do not" in text and "1 cannot be recomputed" in text
    note = study.bias_note(bias, 40)
    assert "+0.0060 ± 0.0075 (not resolved from 0)" in note and "+0.0120 ± 0.0020 (above 0)" in note
    assert "does not show a protocol unbiased" in study.BIAS_CAPTION


def test_formula_checks_are_counted_apart():
    curves = study.probability_curves(200, 40)
    channel = pd.DataFrame({"data set": ["Landsat"], "bits": [333.0]})
    empty = pd.DataFrame(columns=["unit", "kind", "family", "naive - truth", "naive - truth, paired",
                                  "nested - truth", "per_fold - truth", "naive - nested"])
    claims = study.claims(curves, channel, {"landsat": 0.3}, empty, pd.DataFrame(columns=["family", "tried"]),
                          pd.DataFrame())
    assert claims["where"].isin(study.FORMULA_CHECKS).sum() == 3 and len(claims) == 6
    text = study.claims_sentence(claims)
    assert "Measured on real learners and data: Of 3 claims checked, 3 are undecided." in text
    assert "printed counts: Of 3 claims checked, 3 hold." in text


def test_channel_and_facts_sentences_follow_the_numbers():
    summary = pd.DataFrame(columns=["data set"])
    greedy = pd.DataFrame({"agree": [3, 2], "orderings": [3, 3]})
    assert "Only 5 of 6 real searches" in study.describe_channel(summary, greedy)
    assert "All 6 of 6 real searches" in study.describe_channel(summary, greedy.assign(agree=[3, 3]))
    facts = pd.DataFrame({"quantity": ["Landsat default error"], "paper": [0.75], "ours": [0.769]})
    assert "does not follow" in study.describe_facts(facts)
    assert "follows from the test set's majority class" in study.describe_facts(facts.assign(ours=0.75))
    bench = pd.DataFrame({"benchmark": ["A", "B"], "setting": ["one-shot", "fixed"], "does not follow": ["-", "P"]})
    assert study.describe_benchmarks(bench).startswith("1 of 2 printed statements follow")
    assert study.describe_benchmarks(bench.assign(**{"does not follow": "-"})).endswith("exactly (A, B).")
