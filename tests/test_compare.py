"""cvrepro.compare: the paired design, the tests it chooses, its sentences, report and command line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import baycomp
import numpy as np
import pandas as pd
import pytest

from cvrepro.cli import main
from cvrepro.compare import compare, pair_reproducibility
from cvrepro.datasets import load_dataset
from cvrepro.learners import make_learner
from cvrepro.stats import (
    aligned_ranks_test,
    bayesian_correlated_ttest,
    bayesian_sign,
    corrected_difference_ci,
    corrected_repeated_kfold_ttest,
    critical_difference,
    effect_size,
    friedman_test,
    paired_difference_ci,
    posthoc_test,
)
from cvrepro.tuning import parse_grid, setting_learners, split_learners, with_grids


@pytest.fixture(scope="module")
def one(tmp_path_factory):
    return compare("sonar", ["NB", "C4.5"], k=3, stopping=4, max_repetitions=6, progress=False,
                   store=tmp_path_factory.mktemp("store"))


MANY = dict(data=["sonar", "vote", "breast-w"], learners=["NB", "C4.5", "5-NN"], k=3, stopping="rank",
            max_repetitions=4, progress=False)


@pytest.fixture(scope="module")
def many_store(tmp_path_factory):
    return tmp_path_factory.mktemp("many")


@pytest.fixture(scope="module")
def many(many_store):
    return compare(**MANY, store=many_store)


def test_one_data_set_uses_the_corrected_and_the_bayesian_correlated_t_tests(one):
    assert set(one.estimates.repetitions) == {4} and len(one.folds) == 2 * 4 * 3
    wide = one.folds.pivot_table(index=["iteration", "fold"], columns="learner", values="auroc")
    t = corrected_repeated_kfold_ttest(wide["NB"], wide["C4.5"], 3)
    b = bayesian_correlated_ttest(wide["NB"], wide["C4.5"], 3, rope=0.01)
    row = one.pairwise.iloc[0]
    assert (row.a, row.b) == ("NB", "C4.5")
    assert row.p == t.pvalue and row.p_holm == t.pvalue          # one pair: Holm changes nothing
    assert (row.p_a_better, row.p_rope, row.p_b_better) == (b.p_a_better, b.p_rope, b.p_b_better)
    sentence = one.conclusions()[0]
    better = "NB" if row.difference > 0 else "C4.5"
    assert sentence.startswith(f"sonar: {better} scores") and "corrected t-test" in sentence


def test_every_learner_on_a_data_set_gets_the_repetitions_of_the_slowest(many):
    assert many.estimates.groupby("dataset").repetitions.nunique().eq(1).all()
    assert many.estimates.repetitions.max() == many.repetitions.n_repetitions.max()


def test_many_data_sets_rank_with_friedman_and_compare_pairs_with_baycomp(many):
    means = many.estimates.pivot(index="dataset", columns="learner", values="mean")[many.learners]
    fr = friedman_test(means)
    assert many.friedman.statistic == fr.statistic
    assert dict(zip(many.ranks.learner, many.ranks.average_rank)) == fr.average_ranks.to_dict()
    row = many.across.iloc[0]
    probs = baycomp.SignedRankTest.probs(means[row.a].to_numpy(), means[row.b].to_numpy(), rope=0.01,
                                         random_state=0)
    assert (row.p_a_better, row.p_rope, row.p_b_better) == tuple(probs)
    # three data sets: no Wilcoxon p-value can go below 0.25, and the conclusions say so
    assert many.conclusions()[0].startswith("With 3 data sets no Wilcoxon test can reach p < 0.05")
    assert (many.across.p >= 0.25).all()


def test_one_data_set_gives_the_corrected_interval_of_each_difference(one):
    wide = one.folds.pivot_table(index=["iteration", "fold"], columns="learner", values="auroc")
    ci = corrected_difference_ci(wide["NB"].to_numpy(), wide["C4.5"].to_numpy(), 3)
    row = one.pairwise.iloc[0]
    assert (row.ci_low, row.ci_high) == (ci.low, ci.high) and row.ci_low < row.difference < row.ci_high
    assert f"95% CI of NB's mean advantage over C4.5: [{ci.low:.4f}, {ci.high:.4f}]" in one.conclusions()[0]


def test_many_data_sets_add_intervals_effect_sizes_the_sign_test_and_all_pairs(many):
    means = many.estimates.pivot(index="dataset", columns="learner", values="mean")[many.learners]
    row = many.across.iloc[0]
    a, b = means[row.a].to_numpy(), means[row.b].to_numpy()
    ci, cliff, dz = paired_difference_ci(a, b), effect_size(a, b, "cliff"), effect_size(a, b, "cohen_paired")
    sign = bayesian_sign(a, b, rope=0.01)
    assert (row.ci_low, row.ci_high, row.cliffs_delta, row.cliff_magnitude) == (ci.low, ci.high, cliff.value,
                                                                                cliff.magnitude)
    assert (row.cohen_dz, row.dz_magnitude) == (dz.value, dz.magnitude)
    assert (row.sign_a_better, row.sign_rope, row.sign_b_better) == (sign.p_a_better, sign.p_rope, sign.p_b_better)
    want = posthoc_test(means, "friedman", "holm")
    assert many.posthoc[["a", "b", "z", "p", "p_adjusted"]].equals(want[["a", "b", "z", "p", "p_adjusted"]])
    assert many.omnibus is None and many.conclusions()[-1].startswith("All pairs (Friedman rank statistics, Holm)")


def test_posthoc_options_choose_the_rank_statistic_and_the_adjustment(many, many_store, tmp_path):
    other = compare(**MANY, store=many_store, posthoc="aligned", adjust="shaffer")   # the same runs, cached
    means = other.estimates.pivot(index="dataset", columns="learner", values="mean")[other.learners]
    want = posthoc_test(means, "aligned", "shaffer")
    assert other.posthoc.p_adjusted.tolist() == want.p_adjusted.tolist()
    assert other.omnibus.statistic == aligned_ranks_test(means).statistic
    assert "Friedman aligned rank statistics, Shaffer's static procedure; aligned ranks test p =" in \
        other.conclusions()[-1]
    assert other.across.equals(many.across) and other.ranks.equals(many.ranks)   # the defaults' tables stay
    folder = other.report(tmp_path / "many")
    assert (folder / "posterior_2.png").stat().st_size > 1000
    assert "## All pairs by ranks" in (folder / "report.md").read_text()
    with pytest.raises(ValueError, match="posthoc='nemenyi'"):
        compare(**MANY, posthoc="nemenyi")
    with pytest.raises(ValueError, match="up to 9 learners"):
        compare(**{**MANY, "learners": [f"L{i}" for i in range(10)]}, adjust="bergmann")


def test_report_writes_markdown_html_and_the_figure(one, tmp_path):
    folder = one.report(tmp_path / "out")
    html = (folder / "report.html").read_text()
    assert one.conclusions()[0] in html and "<table" in html
    assert (folder / "estimates.png").stat().st_size > 1000
    assert "## Pairs within each data set" in (folder / "report.md").read_text()


def test_bad_inputs_fail_early_and_name_the_fix():
    frame = load_dataset("vote").X.assign(party=load_dataset("vote").y)
    with pytest.raises(ValueError, match="target="):
        compare(frame, ["NB"], progress=False)
    with pytest.raises(ValueError, match="unknown stopping rule 'fast'"):
        compare("vote", ["NB", "C4.5"], stopping="fast", progress=False)
    with pytest.raises(ValueError, match=r"must lie in \[2, 30\]"):
        compare("vote", ["NB", "C4.5"], stopping=50, progress=False)
    with pytest.raises(ValueError, match="unknown metric"):
        compare("vote", ["NB", "C4.5"], metric="auc", progress=False)


def test_the_command_line_compares_a_csv_and_writes_the_report(tmp_path):
    ds = load_dataset("breast-w")
    ds.X.assign(diagnosis=ds.y).to_csv(tmp_path / "bw.csv", index=False)
    done = subprocess.run([sys.executable, "-m", "cvrepro", "compare", str(tmp_path / "bw.csv"), "--target",
                           "diagnosis", "--learners", "NB,C4.5", "--k", "3", "--stopping", "3",
                           "--report", str(tmp_path / "rep")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "bw: " in done.stdout and (tmp_path / "rep" / "report.html").exists()
    bad = subprocess.run([sys.executable, "-m", "cvrepro", "compare", str(tmp_path / "bw.csv"), "--target",
                          "nope", "--learners", "NB"], capture_output=True, text=True, timeout=600)
    assert bad.returncode != 0 and "no column 'nope'" in bad.stderr


# ---- reproducibility R of each sentence (Raeder et al. 2010, eqs. 1-2) ----

def _folds(rows):
    return pd.DataFrame(rows, columns=["dataset", "learner", "iteration", "fold", "auroc"])


def test_r_of_a_pair_on_a_constructed_case():
    # one data set, 10 repetitions: a ahead in 8, tied in 1, behind in 1: R' = 8.5/10, R = 2 R' - 1 = 0.7
    gaps = [0.1] * 8 + [0.0, -0.1]
    rows = [(d, learner, i, f, 0.5 + (gaps[i] if learner == "a" else 0.0) + 0.01 * f)
            for d in ["x"] for i in range(10) for f in range(3) for learner in ("a", "b")]
    assert pair_reproducibility(_folds(rows), "auroc", "a", "b") == pytest.approx((0.7, 10))
    assert pair_reproducibility(_folds(rows), "auroc", "b", "a", higher=False) == pytest.approx((0.7, 10))
    # three data sets, 4 repetitions; wins of a over b per repetition: 3-0, 2-1, 1-2, 1-1 (one tie):
    # a ahead in 2, behind in 1, tied in 1: R' = 2.5/4, R = 0.25
    sign = {0: [1, 1, 1], 1: [1, 1, -1], 2: [1, -1, -1], 3: [1, -1, 0]}
    rows = [(f"d{j}", learner, i, 0, 0.5 + (0.1 * sign[i][j] if learner == "a" else 0.0))
            for i in range(4) for j in range(3) for learner in ("a", "b")]
    assert pair_reproducibility(_folds(rows), "auroc", "a", "b") == pytest.approx((0.25, 4))


def test_every_sentence_carries_the_r_of_its_pair(one, many):
    r = one.pairwise.iloc[0]
    per_rep = one.folds.groupby(["learner", "iteration"], observed=True)["auroc"].mean().unstack("learner")
    ahead = np.mean(np.sign(per_rep[r.a] - per_rep[r.b]) * 0.5 + 0.5)
    assert r.R == pytest.approx(abs(2 * ahead - 1)) and r.R_repetitions == len(per_rep)
    assert f"R = {r.R:.2f} over {r.R_repetitions} repetitions" in one.conclusions()[0]
    assert {"R", "R_repetitions"} <= set(many.across.columns)
    for row, sentence in zip(many.across.itertuples(), many.conclusions()[-len(many.across) - 1:]):
        assert f"R = {row.R:.2f} over {row.R_repetitions} repetitions" in sentence
        assert 0 <= row.R <= 1


# ---- parameter grids: tuning inside nested CV beside the naive estimate (Scheffer & Herbrich 1997) ----

def test_grids_parse_from_the_command_line_syntax():
    assert parse_grid("SVM:C=0.1,1,10;solver=smo") == ("SVM", "SVM", {"C": [0.1, 1, 10], "solver": ["smo"]})
    assert with_grids(["NB", "5-NN"], ["k-NN=5-NN:k=1,5"]) == {"NB": None, "5-NN": None,
                                                                "k-NN": ("5-NN", {"k": [1, 5]})}
    with pytest.raises(ValueError, match="LEARNER:PARAM=V1,V2"):
        parse_grid("SVM C=1")
    with pytest.raises(ValueError, match="has no parameter"):
        compare("vote", {"k-NN": ("5-NN", {"C": [1, 2]})}, progress=False)
    with pytest.raises(ValueError, match="non-empty list of values"):
        compare("vote", {"k-NN": ("5-NN", {"k": []})}, progress=False)
    with pytest.raises(ValueError, match="appears twice"):
        compare("vote", ["5-NN", ("5-NN", {"k": [1, 5]})], progress=False)


def test_a_grid_is_tuned_inside_nested_cv_beside_the_naive_estimate(tmp_path):
    grids = {"k-NN": ("5-NN", {"k": [1, 5]})}
    common = dict(k=3, stopping=2, max_repetitions=3, progress=False, store=tmp_path)
    tuned = compare("sonar", {"NB": None, **grids}, **common)
    settings = compare("sonar", setting_learners(split_learners(grids)[1]), **common)   # cached: no new fits
    t = tuned.tuning.iloc[0]
    means = settings.estimates.set_index("learner")["mean"]
    assert t.naive == pytest.approx(means.max()) and t.naive_setting == means.idxmax()
    assert t.nested == pytest.approx(tuned.estimates.set_index("learner").loc["k-NN", "mean"])
    assert t.naive_minus_nested == pytest.approx(t.naive - t.nested)
    # every outer fold of the tuned learner scores as one of its settings did on that fold
    wide = settings.folds.pivot_table(index=["iteration", "fold"], columns="learner", values="auroc")
    got = tuned.folds[tuned.folds.learner == "k-NN"].set_index(["iteration", "fold"])["auroc"]
    assert all(np.isclose(wide.loc[i], v).any() for i, v in got.items())
    assert "naive" in tuned.conclusions()[-1] and f"{t.naive:.4f}" in tuned.conclusions()[-1]
    assert list(tuned.repetitions.learner) == ["NB", "k-NN"]
    assert "## Tuning: naive beside nested estimates" in (tuned.report(tmp_path / "rep") / "report.md").read_text()


def test_learners_with_the_same_score_on_every_fold_compare_as_equal():
    # e.g. a tuned learner whose inner CVs always chose another learner's setting
    same = compare("sonar", {"a": make_learner("NB"), "b": make_learner("NB")}, k=3, stopping=2, progress=False)
    r = same.pairwise.iloc[0]
    assert (r.difference, r.t, r.p, r.p_holm, r.ci_low, r.ci_high, r.p_rope) == (0, 0, 1, 1, 0, 0, 1)
    assert r.R == 0 and "not significant after Holm (p = 1)" in same.conclusions()[0]


def test_the_command_line_takes_a_grid(capsys):
    assert main(["compare", "breast-w", "--learners", "NB", "--grid", "k-NN=5-NN:k=1,5", "--k", "3",
                 "--stopping", "2", "--max-repetitions", "2"]) == 0
    assert "Tuning (Scheffer & Herbrich 1997)" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="LEARNER:PARAM"):
        main(["compare", "breast-w", "--learners", "NB", "--grid", "5-NN"])


# ---- the closing note: one comparison's table analysed by autorank (tools/record_autorank.py) ----

AUTORANK = Path(__file__).parent / "fixtures" / "autorank"


def test_friedman_on_a_compare_table_equals_autorank():
    means = pd.read_csv(AUTORANK / "means.csv", index_col="dataset")
    theirs = json.loads((AUTORANK / "autorank.json").read_text())
    ours = json.loads((AUTORANK / "ours.json").read_text())
    forced = theirs["nonparametric"]          # autorank forced to Friedman + Nemenyi, the tests compare() uses
    fr = friedman_test(means)
    assert (forced["omnibus"], forced["posthoc"]) == ("friedman", "nemenyi")
    assert fr.statistic == pytest.approx(theirs["friedman_statistic"], rel=1e-12)
    assert fr.pvalue == pytest.approx(forced["pvalue"], rel=1e-12)
    assert fr.average_ranks.to_dict() == pytest.approx(forced["meanrank"], abs=1e-12)
    # autorank's q_alpha comes from statsmodels' qsturng (an approximation); ours is scipy's exact quantile
    assert critical_difference(4, 8) == pytest.approx(forced["cd"], rel=1e-4)
    assert critical_difference(4, 8) != pytest.approx(forced["cd"], rel=1e-7)
    # compare()'s own report on that run said the same (the fixture's table is the one it computed)
    assert ours["friedman"]["p"] == pytest.approx(fr.pvalue, rel=1e-12)
    assert ours["mean_ranks"] == pytest.approx(fr.average_ranks.to_dict(), abs=1e-12)
    # left to itself autorank found every learner's scores normal and chose repeated-measures ANOVA + Tukey
    assert (theirs["default"]["omnibus"], theirs["default"]["posthoc"]) == ("anova", "tukeyhsd")
