"""cvrepro.compare: the paired design, the tests it chooses, its sentences, report and command line."""
from __future__ import annotations

import subprocess
import sys

import baycomp
import pytest

from cvrepro.compare import compare
from cvrepro.datasets import load_dataset
from cvrepro.stats import bayesian_correlated_ttest, corrected_repeated_kfold_ttest, friedman_test


@pytest.fixture(scope="module")
def one(tmp_path_factory):
    return compare("sonar", ["NB", "C4.5"], k=3, stopping=4, max_repetitions=6, progress=False,
                   store=tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def many():
    return compare(["sonar", "vote", "breast-w"], ["NB", "C4.5", "5-NN"], k=3, stopping="rank",
                   max_repetitions=4, progress=False)


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
