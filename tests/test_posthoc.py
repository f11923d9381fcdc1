"""Post-hoc breadth (issue 33, item 2) against R, recorded by tools/record_posthoc_r.R in
tests/fixtures/posthoc/r_posthoc.json: scmamp 0.3.2's sources (Calvo & Santafe; aligned ranks, Quade,
pairwise rank statistics, Shaffer, Bergmann-Hommel, Finner, Bayesian signed-rank) on Garcia & Herrera's
(2008) table and on seeded tables; R's stats (quade.test, p.adjust, t.test); effsize 0.8.1 (Cohen's d,
Cliff's delta and their magnitude labels)."""
import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cvrepro.stats import (
    adjust_pvalues,
    aligned_ranks_test,
    bayesian_sign,
    bayesian_signed_rank,
    bergmann_hommel,
    corrected_difference_ci,
    corrected_repeated_kfold_ttest,
    effect_size,
    exhaustive_sets,
    magnitude,
    paired_difference_ci,
    posthoc_test,
    quade_test,
    shaffer,
)

R = json.loads((Path(__file__).parent / "fixtures" / "posthoc" / "r_posthoc.json").read_text())
RANK = R["rank_cases"]
ids = lambda c: c["id"]  # noqa: E731


def _table(case):
    return pd.DataFrame(case["scores"], columns=case["learners"])


@pytest.mark.parametrize("case", RANK, ids=ids)
def test_aligned_ranks_and_quade_tests_equal_r(case):
    """Friedman's aligned ranks (scmamp) and Quade's F (R's stats::quade.test; scmamp's quadeTest, whose A
    assumes no ties, where there are none). R saw the scores scaled to integers (exact ties); ours are the
    decimal ones, so the ties that float noise hides must be found here too."""
    table = _table(case)
    al = aligned_ranks_test(table)
    assert al.statistic == pytest.approx(case["aligned_statistic"], rel=1e-12)
    assert al.pvalue == pytest.approx(case["aligned_pvalue"], rel=1e-9, abs=1e-15)
    qu = quade_test(table)
    for src in ("quade_stats", "quade") if case["id"].startswith("uniform") else ("quade_stats",):
        assert qu.statistic == pytest.approx(case[f"{src}_statistic"], rel=1e-12)
        assert qu.pvalue == pytest.approx(case[f"{src}_pvalue"], rel=1e-9, abs=1e-15)
    if not case["id"].startswith("uniform"):      # ties: the no-ties A of scmamp differs from R's
        assert qu.statistic != pytest.approx(case["quade_statistic"], rel=1e-6)


@pytest.mark.parametrize("test", ["friedman", "aligned", "quade"])
@pytest.mark.parametrize("case", RANK, ids=ids)
def test_pairwise_rank_pvalues_equal_scmamp(case, test):
    """Unadjusted two-sided p-values of all pairs (friedmanPost, friedmanAlignedRanksPost, quadePost)."""
    got = posthoc_test(_table(case), test=test, adjust="bonferroni")
    assert list(zip(got.a, got.b)) == list(combinations(case["learners"], 2))
    np.testing.assert_allclose(got.p, case[f"{test}_p"], rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("method", ["holm", "hommel", "bh", "finner", "shaffer", "bergmann"])
@pytest.mark.parametrize("case", RANK, ids=ids)
def test_adjusted_pvalues_equal_r(case, method):
    """R's p.adjust (holm, hommel, BH), scmamp's adjustFinner, adjustShaffer and adjustBergmannHommel on
    the Friedman post-hoc p-values; also through posthoc_test on the scores. Bergmann-Hommel: the closed
    test's APV (max |I| min p_I over scmamp's exhaustive sets, in R); its running maximum is scmamp's."""
    raw, k = np.array(case["friedman_p"]), len(case["learners"])
    want = case["bergmann" if method == "bergmann" else method]
    direct = {"shaffer": lambda: shaffer(raw, k), "bergmann": lambda: bergmann_hommel(raw, k)}
    got = direct.get(method, lambda: adjust_pvalues(raw, method))()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(posthoc_test(_table(case), adjust=method).p_adjusted, want, rtol=1e-9, atol=1e-15)
    if method == "bergmann":
        np.testing.assert_allclose(bergmann_hommel(raw, k, monotone=True), case["bergmann_scmamp"], rtol=1e-12)


def test_garcia_herrera_2008_shaffer_and_bergmann_are_less_conservative_than_holm():
    """On the paper's own table (5 classifiers, 30 data sets) the three keep the same order of strength
    the paper shows: Bergmann-Hommel <= Shaffer <= Holm, with at least one strict step."""
    case = RANK[0]
    assert case["id"] == "garcia_herrera_2008" and len(case["scores"]) == 30
    raw = np.array(case["friedman_p"])
    h, s, b = adjust_pvalues(raw, "holm"), shaffer(raw, 5), bergmann_hommel(raw, 5)
    assert np.all(b <= s + 1e-15) and np.all(s <= h + 1e-15) and np.any(b < h)


@pytest.mark.parametrize("entry", R["exhaustive_sets"], ids=lambda e: f"k{e['k']}")
def test_exhaustive_sets_equal_scmamps(entry):
    """Our sets (from the partitions of the learners) are scmamp's precomputed ones without repeats."""
    k = entry["k"]
    sets = exhaustive_sets(k)
    assert len(sets) == entry["count"]
    if "sets" in entry:
        pairs = [f"{i}-{j}" for i, j in combinations(range(k), 2)]
        ours = {" ".join(sorted(p for p, inside in zip(pairs, row) if inside)) for row in sets}
        assert ours == set(entry["sets"])


def test_bad_inputs_name_the_fix():
    with pytest.raises(ValueError, match="shaffer"):
        exhaustive_sets(10)
    with pytest.raises(ValueError, match="all pairs of 4"):
        shaffer([0.1, 0.2], 4)
    with pytest.raises(ValueError, match="unknown adjustment"):
        adjust_pvalues([0.1], "fdr")
    with pytest.raises(ValueError, match="rank test"):
        posthoc_test(_table(RANK[1]), test="nemenyi")


@pytest.mark.parametrize("i", range(len(R["effect_cases"])))
def test_effect_sizes_and_labels_equal_effsize(i):
    """effsize::cohen.d (pooled; paired with within = FALSE: d_z) and cliff.delta, with their labels."""
    case = R["effect_cases"][i]
    for measure in ("cohen", "cohen_paired", "cliff"):
        got = effect_size(case["a"], case["b"], measure)
        assert got.value == pytest.approx(case[measure], rel=1e-12, abs=1e-15)
        assert got.magnitude == case[f"{measure}_magnitude"]


def test_effect_size_labels_cover_every_class_and_thresholds_belong_above():
    labels = {R["effect_cases"][i][f"{m}_magnitude"] for i in range(len(R["effect_cases"])) for m in ("cohen", "cliff")}
    assert labels == {"negligible", "small", "medium", "large"}
    assert [magnitude(v, "cliff") for v in (0.1469, 0.147, -0.33, 0.474)] == ["negligible", "small", "medium",
                                                                               "large"]


@pytest.mark.parametrize("i", range(len(R["interval_cases"])))
def test_difference_intervals_equal_r(i):
    """Paired: R's t.test conf.int; corrected: mean +- qt * sqrt((1/n + 1/(k - 1)) var(d)) in R."""
    case = R["interval_cases"][i]
    for level in (0.9, 0.95, 0.99):
        p = paired_difference_ci(case["a"], case["b"], level)
        c = corrected_difference_ci(case["a"], case["b"], int(case["k"]), level)
        np.testing.assert_allclose([p.low, p.high], case[f"paired_{level:g}"], rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose([c.low, c.high], case[f"corrected_{level:g}"], rtol=1e-10, atol=1e-14)


def test_corrected_interval_inverts_the_corrected_t_test():
    """Shifting a by the lower bound puts the corrected t-test's two-sided p exactly at 1 - confidence."""
    case = R["interval_cases"][0]
    a, b, k = np.array(case["a"]), np.array(case["b"]), int(case["k"])
    ci = corrected_difference_ci(a, b, k, 0.95)
    assert corrected_repeated_kfold_ttest(a - ci.low, b, k).pvalue == pytest.approx(0.05, rel=1e-9)


@pytest.mark.parametrize("i", range(len(R["bayes_cases"])))
def test_bayesian_signed_rank_and_sign_tests_equal_r(i):
    """scmamp's bSignedRankTest (20,000 draws) and R's Dirichlet sign-test posterior (200,000 draws) against
    baycomp (50,000 draws): Monte Carlo agreement within 0.015, in the order (a better, rope, b better)."""
    case = R["bayes_cases"][i]
    sr = bayesian_signed_rank(case["a"], case["b"], rope=case["rope"])
    sg = bayesian_sign(case["a"], case["b"], rope=case["rope"])
    np.testing.assert_allclose([sr.p_a_better, sr.p_rope, sr.p_b_better], case["signed_rank"], atol=0.015)
    np.testing.assert_allclose([sg.p_a_better, sg.p_rope, sg.p_b_better], case["sign"], atol=0.015)


def test_bayesian_posterior_plot_names_the_learners():
    case = R["bayes_cases"][2]
    fig = bayesian_signed_rank(case["a"], case["b"], rope=case["rope"], nsamples=2000).plot(("SVM", "NB"))
    texts = " ".join(t.get_text() for ax in fig.axes for t in ax.texts)
    assert "p(SVM)" in texts and "p(NB)" in texts
