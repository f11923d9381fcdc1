"""Statistics at their edges against recorded oracles (issue 32): R 4.2.2
(tools/record_stats_r.R), WEKA 3.6 (tools/record_weka_info_score.py) and the
defining papers' formulas in exact arithmetic (tools/record_stats_definitions.py)."""
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from cvrepro import metrics as M
from cvrepro.convergence import KSCriterion, ks_path, ks_statistic
from cvrepro.stats import (
    bayesian_correlated_ttest,
    bootstrap_error,
    corrected_repeated_kfold_ttest,
    corrected_resampled_ttest,
    efron_632_plus,
    mcnemar,
    paired_ttest,
    wilcoxon_signed_rank,
)

FIXTURES = Path(__file__).parent / "fixtures" / "stats"
R = json.loads((FIXTURES / "r_reference.json").read_text())
PAPERS = json.loads((FIXTURES / "definitions.json").read_text())
WEKA = json.loads((FIXTURES / "weka_info_score.json").read_text())


@pytest.mark.parametrize("case", R["t_test_paired"], ids=lambda c: c["id"])
def test_t_tests_refuse_what_r_calls_essentially_constant(case):
    """Item 6: accuracies c/50 against (c-1)/50 differ by 1/50 up to float noise; R's t.test
    stops ("data are essentially constant"), so every t-based test here raises; where R
    computes, the plain paired t-test gives R's t."""
    a, b = np.array(case["a"]), np.array(case["b"])
    k = 10 if a.size % 10 == 0 else a.size
    tests = [lambda: paired_ttest(a, b), lambda: corrected_resampled_ttest(a, b, 1 / 9),
             lambda: corrected_repeated_kfold_ttest(a, b, n_folds=k),
             lambda: bayesian_correlated_ttest(a, b, n_folds=k)]
    if case["error"]:
        assert case["error"] == "data are essentially constant"
        for test in tests:
            with pytest.raises(ValueError, match="essentially constant"):
                test()
    else:
        assert paired_ttest(a, b).statistic == pytest.approx(case["statistic"], rel=1e-6)
        assert paired_ttest(a, b).pvalue == pytest.approx(case["pvalue"], rel=1e-5)
        for test in tests[1:]:
            test()   # defined: no error


@pytest.mark.parametrize("case", R["mcnemar_test"], ids=lambda c: f"b{c['b']}-c{c['c']}-{c['correct']}")
def test_mcnemar_chi_squared_equals_r(case):
    """Item 7: R's mcnemar.test applies the continuity correction only when b != c,
    so b = c = 1 gives statistic 0, p = 1 (not 1 / (b + c) = 0.5, p = 0.48)."""
    table = [[10, case["b"]], [case["c"], 10]]
    got = mcnemar(table, exact=False, correction=case["correct"])
    assert got.statistic == pytest.approx(case["statistic"], abs=1e-15)
    assert got.pvalue == pytest.approx(case["pvalue"], rel=1e-12)


@pytest.mark.parametrize("case", PAPERS["efron_tibshirani1997_632_plus"], ids=lambda c: c["note"])
def test_632_plus_is_efron_tibshirani_eq_32(case):
    """Item 8: when Err(1) > gamma, eq. 32 is Err(.632) plus the increment (0.74016 for
    err 0, Err(1) 0.88, gamma 0.5), not gamma (0.5)."""
    value, r = efron_632_plus(case["err"], case["err1"], case["gamma"])
    assert value == pytest.approx(case["e632_plus"], rel=1e-12)
    assert r == pytest.approx(case["r_prime"], rel=1e-12)


def test_632_plus_of_1nn_on_alternating_labels_is_above_gamma():
    """Item 8 end to end: 1-NN on alternating labels, out-of-bag error near 0.9 > gamma = 0.5."""
    X, y = np.arange(40.0).reshape(-1, 1), np.arange(40) % 2
    res = bootstrap_error(KNeighborsClassifier(1), X, y, n_bootstrap=50, random_state=0, progress=False)
    assert res.resubstitution == 0 and res.no_information == 0.5 and res.e0 > 0.8
    assert res.relative_overfitting == 1.0
    # eq. 32 with err = 0, R' = 1: .632 Err(1) + (gamma - 0) .368 .632 / .632
    assert res.e632_plus == pytest.approx(0.632 * res.e0 + 0.5 * 0.368, rel=1e-12)
    assert res.e632_plus > res.no_information


def test_information_score_per_fold_equals_weka():
    """Item 9: fold 0's test part holds class c, its training part does not; WEKA's
    Laplace prior gives a finite mean information score (the old prior 0 gave +inf)."""
    codes = np.array([WEKA["classes"].index(v) for v in WEKA["y"]])
    got = M.fold_metrics(codes, np.array(WEKA["proba"]), np.array(WEKA["fold"]), 2)["info_score"]
    want = [f["kb_mean_information"] for f in WEKA["folds"]]
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("case", PAPERS["raeder2010_ks_rule"], ids=lambda c: str(c["threshold"]))
def test_ks_rule_compares_d_exactly(case):
    """Item 10: after 9 iterations D = 3/5 - 2/4 ... is exactly 1/5 (float 0.19999999999999996):
    not below 0.2, so the rule must not stop there."""
    seq = np.array(case["estimates"])
    exact = [eval(f) for f in case["d_exact"]]   # "p/q" strings
    np.testing.assert_allclose(ks_path(seq)[1:], exact, rtol=1e-15)
    rule = KSCriterion(case["threshold"], max_iterations=len(seq))
    res = rule.replay(seq)
    stop = case["first_stop"]
    assert (res.n_iterations, res.capped) == ((stop, False) if stop else (len(seq), True))
    fed = KSCriterion(case["threshold"], max_iterations=len(seq))
    n = next(i + 1 for i, v in enumerate(seq) if fed.update(v))   # one iteration at a time
    assert n == res.n_iterations
    assert ks_statistic(seq[:9:2], seq[1:9:2]) == 0.2


@pytest.mark.parametrize("case", PAPERS["demsar2006_zsplit"], ids=lambda c: str(c["d"]))
def test_wilcoxon_zsplit_follows_demsar(case):
    """Item 11: zsplit splits the zeros' ranks, and with an odd number of zeros ignores one
    (Demsar 2006, Sec. 3.1.3)."""
    d = np.array(case["d"])
    res = wilcoxon_signed_rank(d, np.zeros_like(d), zero_method="zsplit", method="approx")
    assert (res.r_plus, res.r_minus, res.n) == (case["r_plus"], case["r_minus"], case["n"])
