"""Stopping rules and the reproducibility metric R on sequences with known behaviour."""
import numpy as np
import pytest
from scipy import stats

from cvrepro.convergence import (
    FixedIterations,
    KSCriterion,
    PearsonCriterion,
    RankCriterion,
    StopResult,
    ks_statistic,
    random_orderings,
    replay_orderings,
    replay_reproducibility,
    reproducibility,
)

N_INSTANCES = 40


def noisy_runs(n_runs=120, seed=0, noise=0.15, n=N_INSTANCES):
    """Stored iterations: per-instance probabilities scattered around a fixed truth."""
    rng = np.random.default_rng(seed)
    truth = rng.uniform(0.05, 0.95, n)
    probas = np.clip(truth + rng.normal(0, noise, (n_runs, n)), 0, 1)
    estimates = 0.8 + rng.normal(0, 0.02, n_runs)
    return estimates, probas


def algorithm5(probas, threshold, correlation):
    """Moreno-Torres et al.'s Algorithm 5 transcribed: Conv = k."""
    e0 = probas[:1].mean(axis=0)
    e1 = probas[:2].mean(axis=0)
    k = 2
    while correlation(e0, e1) < threshold:
        k += 1
        if k > len(probas):
            return None
        e0, e1 = e1, probas[:k].mean(axis=0)
    return k


@pytest.mark.parametrize("rule", [RankCriterion(), PearsonCriterion(), KSCriterion(0.1)])
def test_constant_sequence_stops_at_once(rule):
    p = np.linspace(0.1, 0.9, N_INSTANCES)
    assert not rule.update(0.8, p)
    assert rule.update(0.8, p)
    assert (rule.n_iterations, rule.capped, rule.estimate) == (2, False, 0.8)


def test_fixed_iterations():
    rule = FixedIterations(10)
    stops = [rule.update(0.5 + t, None) for t in range(10)]
    assert stops == [False] * 9 + [True]
    assert (rule.n_iterations, rule.capped, rule.estimate) == (10, False, 5.0)
    capped = FixedIterations(10, max_iterations=4)
    assert capped.replay(np.arange(20.0)) == StopResult(4, 1.5, True)


@pytest.mark.parametrize("rule_class", [RankCriterion, PearsonCriterion])
def test_drifting_running_mean_never_stops_before_the_cap(rule_class):
    """Each iteration outweighs all before it and reverses the ordering."""
    u = np.linspace(0.1, 0.9, N_INSTANCES)
    rule = rule_class(max_iterations=30)
    for t in range(30):
        stopped = rule.update(0.8, 2.0 ** t * (u if t % 2 else u[::-1]))
        assert stopped == (t == 29)
    assert rule.capped and rule.n_iterations == 30
    assert rule.last_correlation < 0


def test_ks_never_stops_when_odd_and_even_iterations_disagree():
    rule = KSCriterion(0.2, max_iterations=50)
    result = rule.replay(np.tile([0.7, 0.8], 40))
    assert result == StopResult(50, 0.75, True)
    assert rule.last_statistic == 1.0


def test_ks_statistic_is_scipys_two_sample_d():
    rule = KSCriterion(0.1)
    for e in [0.1, 0.2, 0.3]:
        rule.update(e)
    assert rule.last_statistic == stats.ks_2samp([0.2], [0.1, 0.3]).statistic == 0.5


@pytest.mark.parametrize("seed", range(5))
def test_ks_statistic_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=7 + seed), np.round(rng.normal(0.3, 1, 9), 1)
    assert ks_statistic(a, b) == pytest.approx(stats.ks_2samp(a, b).statistic, abs=1e-15)


def test_ks_cannot_see_a_steady_drift():
    """A known limitation: odd and even iterations drift together, so D stays small."""
    result = KSCriterion(0.2, max_iterations=200).replay(np.linspace(0.6, 0.9, 200))
    assert not result.capped and result.n_iterations < 30


def test_order_reversal_changes_the_stop_but_not_the_limit():
    estimates, probas = noisy_runs()
    probas[:10] = probas[0]  # a stable start: forwards, the rule stops at once
    rule = RankCriterion(0.999)
    forward = rule.replay(estimates, probas)
    backward = rule.replay(estimates, probas, order=np.arange(len(estimates))[::-1])
    assert forward == StopResult(2, estimates[:2].mean(), False)
    assert not backward.capped and backward.n_iterations > 2
    # The limit (everything consumed) does not depend on the order.
    # D > 0 between odd and even iterations of distinct estimates: it consumes everything.
    estimates, probas = noisy_runs()
    never = KSCriterion(1e-9, max_iterations=len(estimates))
    limits = [never.replay(estimates, probas, order) for order in random_orderings(len(estimates), 3, 0)]
    assert all(r.capped and r.n_iterations == len(estimates) for r in limits)
    np.testing.assert_allclose([r.estimate for r in limits], estimates.mean())


@pytest.mark.parametrize("rule, correlation", [
    (PearsonCriterion(0.9999), lambda x, y: np.corrcoef(x, y)[0, 1]),
    (RankCriterion(0.9995), lambda x, y: stats.spearmanr(x, y).statistic)])
def test_stopping_iteration_matches_algorithm5_transcription(rule, correlation):
    for seed in range(3):
        estimates, probas = noisy_runs(seed=seed)
        expected = algorithm5(probas, rule.threshold, correlation)
        assert expected is not None
        assert rule.replay(estimates, probas).n_iterations == expected


def test_online_updates_equal_offline_replay():
    estimates, probas = noisy_runs(seed=4)
    order = np.random.default_rng(1).permutation(len(estimates))
    rule = RankCriterion(0.999)
    offline = rule.replay(estimates, probas, order)
    rule.reset()
    for t in order:
        if rule.update(estimates[t], probas[t]):
            break
    assert StopResult(rule.n_iterations, rule.estimate, rule.capped) == offline
    assert offline.estimate == pytest.approx(estimates[order[:offline.n_iterations]].mean())
    with pytest.raises(RuntimeError, match="reset"):
        rule.update(0.8, probas[0])


def test_rank_criterion_ignores_monotone_nonlinearity_pearson_does_not():
    x = np.linspace(0.05, 0.95, N_INSTANCES)
    for rule, stops_at_two in [(RankCriterion(), True), (PearsonCriterion(), False)]:
        rule.update(0.8, x)
        assert rule.update(0.8, x ** 3) == stops_at_two


def test_binary_matrix_and_multiclass_probabilities():
    estimates, probas = noisy_runs(seed=2)
    as_matrix = np.stack([1 - probas, probas], axis=2)
    rule = RankCriterion(0.999)
    assert rule.replay(estimates, as_matrix) == rule.replay(estimates, probas)
    three = np.stack([probas / 2, probas / 2, 1 - probas], axis=2)
    assert rule.replay(estimates, three).n_iterations >= 2


def test_capped_only_when_the_criterion_is_not_met():
    p = np.linspace(0.1, 0.9, N_INSTANCES)
    rule = RankCriterion(max_iterations=2)
    rule.update(0.8, p)
    assert rule.update(0.8, p) and not rule.capped  # converged on the last allowed one
    exhausted = RankCriterion(1.0, max_iterations=1000).replay(*noisy_runs(n_runs=5))
    assert exhausted.capped and exhausted.n_iterations == 5


def test_bad_input():
    with pytest.raises(ValueError, match="max_iterations"):
        RankCriterion(max_iterations=0)
    with pytest.raises(ValueError, match="threshold"):
        KSCriterion(0.0)
    with pytest.raises(ValueError, match="out-of-fold probabilities"):
        RankCriterion().update(0.8, None)
    with pytest.raises(ValueError, match="NaN"):
        RankCriterion().update(0.8, np.array([0.1, np.nan]))
    with pytest.raises(ValueError, match="finite"):
        FixedIterations(3).update(np.nan)
    rule = PearsonCriterion()
    rule.update(0.8, np.ones(3))
    with pytest.raises(ValueError, match="earlier iterations"):
        rule.update(0.8, np.ones(4))
    assert rule.n_iterations == 1  # the rejected iteration did not count
    with pytest.raises(ValueError, match="distinct iteration indices"):
        FixedIterations(2).replay([0.1, 0.2, 0.3], order=[0, 0, 1])


def test_reproducibility_metric():
    assert reproducibility([0.9, 0.8, 0.85], [0.7, 0.6, 0.65]) == 1.0
    assert reproducibility([0.7, 0.6, 0.65], [0.9, 0.8, 0.85]) == 1.0  # winner irrelevant
    assert reproducibility([0.5, 0.6], [0.5, 0.6]) == 0.0  # all ties
    assert reproducibility([0.9, 0.1], [0.5, 0.5]) == 0.0  # each wins half
    # I = 1, 0, 1/2, 0: R'(i, j) = 0.375, R = max(-0.25, 0.25).
    assert reproducibility([1, 2, 3, 4], [0, 3, 3, 5]) == 0.25
    with pytest.raises(ValueError, match="equal length"):
        reproducibility([1, 2], [1])


def test_reproducibility_over_50_orderings_is_a_multiple_of_0_04():
    """As every entry of Raeder et al.'s Table III: R = |2 k / 50 - 1|."""
    rng = np.random.default_rng(0)
    r = reproducibility(rng.normal(size=50), rng.normal(size=50))
    assert round(r * 25, 9) == round(r * 25)


def test_replay_reproducibility_table3_cell():
    est_a, prob_a = noisy_runs(seed=0)
    est_b, prob_b = est_a - 0.05, noisy_runs(seed=1)[1]  # b always worse by 0.05
    cell = replay_reproducibility(RankCriterion(0.999), est_a, est_b, prob_a, prob_b,
                                  n_orderings=10, random_state=0)
    assert cell.R == 1.0
    assert len(cell.runs) == 10 and cell.capped_a == cell.capped_b == 0
    assert cell.iterations_a == cell.runs["n_iterations_a"].mean()
    # Same orderings for both learners, each learner stopping on its own.
    orderings = random_orderings(len(est_a), 10, 0)
    runs_b = replay_orderings(RankCriterion(0.999), est_b, prob_b, orderings)
    np.testing.assert_array_equal(cell.runs["n_iterations_b"], runs_b["n_iterations"])
    same = replay_reproducibility(FixedIterations(10), est_a, est_a, n_orderings=10, random_state=0)
    assert same.R == 0.0 and same.iterations_a == 10
