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
    average_ranks,
    ks_path,
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
    with pytest.raises(ValueError, match=r"iteration indices in 0\.\.2"):
        FixedIterations(2).replay([0.1, 0.2, 0.3], order=[0, 3, 1])
    with pytest.raises(ValueError, match="ties must be one of"):
        KSCriterion(0.1, ties="exact")
    with pytest.raises(ValueError, match="sampling must be one of"):
        random_orderings(5, 2, 0, sampling="bootstrap")
    with pytest.raises(ValueError, match="at most n_stored=5"):
        random_orderings(5, 2, 0, sampling="permutation", length=6)
    with pytest.raises(ValueError, match="pairing must be one of"):
        replay_reproducibility(FixedIterations(2), [0.1, 0.2], [0.3, 0.4], pairing="paired")


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
                                  n_orderings=10, random_state=0, sampling="permutation")
    assert cell.R == 1.0
    assert len(cell.runs) == 10 and cell.capped_a == cell.capped_b == 0
    assert cell.iterations_a == cell.runs["n_iterations_a"].mean()
    # Same orderings for both learners, each learner stopping on its own.
    orderings = random_orderings(len(est_a), 10, 0)
    runs_b = replay_orderings(RankCriterion(0.999), est_b, prob_b, orderings)
    np.testing.assert_array_equal(cell.runs["n_iterations_b"], runs_b["n_iterations"])
    same = replay_reproducibility(FixedIterations(10), est_a, est_a, n_orderings=10, random_state=0)
    assert same.R == 0.0 and same.iterations_a == 10


# --- Raeder et al.'s Table III readings: orderings, pairing, equal estimates ------------------

def test_permutations_are_unchanged_and_the_other_samplings_have_their_shape():
    rng = np.random.RandomState(3)
    expected = np.array([rng.permutation(7) for _ in range(4)])
    np.testing.assert_array_equal(random_orderings(7, 4, 3), expected)  # the default, as before
    drawn = random_orderings(7, 4, 3, sampling="replacement", length=1000)
    assert drawn.shape == (4, 1000) and drawn.min() == 0 and drawn.max() == 6
    assert all(np.unique(row).size == 7 for row in drawn)  # every run drawn, many times
    cycled = random_orderings(7, 4, 3, sampling="cycle", length=16)
    np.testing.assert_array_equal(cycled[:, :7], expected)
    np.testing.assert_array_equal(cycled[:, 7:14], expected)
    np.testing.assert_array_equal(cycled[:, 14:], expected[:, :2])


def test_replay_accepts_repeated_runs():
    result = FixedIterations(4).replay([0.1, 0.2, 0.3], order=[2, 2, 0, 2, 1])
    assert result == StopResult(4, pytest.approx((0.3 * 3 + 0.1) / 4), False)


def overlapping_learners(n_runs=20, seed=0):
    """Two learners whose per-run estimates overlap: neither wins every run."""
    rng = np.random.default_rng(seed)
    return 0.80 + rng.normal(0, 0.02, n_runs), 0.80 + rng.normal(0, 0.02, n_runs)


def test_with_permutations_a_rule_that_runs_to_the_end_is_reproducible_by_construction():
    """Raeder et al. reach 1000 iterations from 500 runs, so they cannot permute: permuting makes a
    rule that consumes every stored run see the same runs in every ordering, hence R = 1."""
    a, b = overlapping_learners()
    never = FixedIterations(5000, max_iterations=1000)  # never stops before the cap
    permuted = replay_reproducibility(never, a, b, n_orderings=50, random_state=0, sampling="permutation")
    assert permuted.R == 1.0 and permuted.iterations_a == 20 and permuted.capped_a == 50
    assert permuted.exhausted_a == permuted.exhausted_b == 50
    assert permuted.runs.estimate_a.round(12).nunique() == 1  # every ordering: the same 20 runs, one estimate
    drawn = replay_reproducibility(never, a, b, n_orderings=50, random_state=0)  # the default: with replacement
    assert drawn.iterations_a == drawn.iterations_b == 1000 and drawn.capped_a == 50
    assert drawn.runs.estimate_a.nunique() == 50   # the final estimates vary from ordering to ordering
    short = replay_reproducibility(FixedIterations(10, max_iterations=1000), a, b, n_orderings=50, random_state=0)
    assert short.R < 1.0


def test_fixed_rules_longer_than_the_stored_runs_are_flagged_as_exhausted():
    a, b = overlapping_learners()
    ten = replay_reproducibility(FixedIterations(10, max_iterations=1000), a, b, n_orderings=50, random_state=0)
    fifty = replay_reproducibility(FixedIterations(50, max_iterations=1000), a, b, n_orderings=50, random_state=0)
    assert (ten.exhausted_a, ten.capped_a) == (0, 0)
    assert (fifty.exhausted_a, fifty.exhausted_b, fifty.capped_a) == (50, 50, 0)
    # Permuted, Fixed-50 on 20 runs is capped: it uses all 20 in every ordering, so R is trivially 1.
    capped = replay_reproducibility(FixedIterations(50, max_iterations=20), a, b, n_orderings=50, random_state=0,
                                    sampling="permutation")
    assert capped.R == 1.0 and capped.capped_a == 50 and capped.iterations_a == 20


def test_shared_orderings_pair_the_learners_by_seed_independent_ones_do_not():
    """b is a's run minus 0.001 on every seed: with shared orderings a wins every comparison."""
    a = 0.80 + np.random.default_rng(1).normal(0, 0.02, 40)
    b = a - 0.001
    rule = FixedIterations(10, max_iterations=1000)
    shared = replay_reproducibility(rule, a, b, n_orderings=50, random_state=0, pairing="shared")
    independent = replay_reproducibility(rule, a, b, n_orderings=50, random_state=0, pairing="independent")
    assert shared.R == 1.0
    assert independent.R < 0.5
    np.testing.assert_allclose(shared.runs.estimate_a - shared.runs.estimate_b, 0.001)


def test_ks_statistic_ties():
    constant = np.full(5, 0.9)
    assert ks_statistic(constant, constant) == 0.0                      # the ECDFs coincide
    assert ks_statistic(constant, constant, ties="merge") == 1.0        # equal values not grouped
    # Partial ties: a = {1, 2}, b = {2, 3}; merged a1 a2 b2 b3 -> running difference 1/2, 1, 1/2, 0.
    assert ks_statistic([1, 2], [2, 3]) == 0.5 and ks_statistic([1, 2], [2, 3], ties="merge") == 1.0
    rng = np.random.default_rng(0)
    for _ in range(5):  # no value shared: the two readings agree (and agree with scipy)
        a, b = rng.normal(size=9), rng.normal(0.5, 1, 12)
        assert ks_statistic(a, b, ties="merge") == pytest.approx(ks_statistic(a, b)) \
            == pytest.approx(stats.ks_2samp(a, b).statistic)


def constant_up_to_noise(n=30):
    """A learner whose AUROC is the same in every run up to float noise (our SMO on tic-tac-toe):
    the odd runs a hair above the even ones, so unrounded they never mix."""
    return 0.9 + np.where(np.arange(n) % 2 == 0, 1.1e-16, -1.1e-16)


def test_ks_on_a_constant_sample_rounds_first_then_stops_at_once_or_never():
    estimates = constant_up_to_noise()
    assert np.unique(estimates).size == 2
    assert KSCriterion(0.1, max_iterations=1000).replay(estimates) == StopResult(2, pytest.approx(0.9), False)
    merged = KSCriterion(0.1, max_iterations=1000, ties="merge").replay(estimates, order=np.arange(30).repeat(34))
    assert merged.capped and merged.n_iterations == 1000   # the paper's 1000.00 (SMO on tic-tac-toe)
    raw = KSCriterion(0.1, max_iterations=30, decimals=None).replay(estimates)
    assert raw.capped  # unrounded, the noise separates odd from even runs: D = 1 throughout


def test_r_counts_estimates_equal_up_to_noise_as_ties():
    a = constant_up_to_noise(50)
    b = np.full(50, 0.9)
    assert reproducibility(a, b) == 0.0                   # all ties: I = 1/2 each
    assert reproducibility(a, b, decimals=None) == 0.0    # half above, half below
    assert reproducibility(a[::2], b[::2], decimals=None) == 1.0  # noise alone would decide the winner


@pytest.mark.parametrize("ties", ["ecdf", "merge"])
@pytest.mark.parametrize("threshold", [0.1, 0.2, 0.5])
def test_ks_replay_all_at_once_equals_feeding_one_iteration_at_a_time(ties, threshold):
    rng = np.random.default_rng(int(threshold * 10))
    for trial in range(6):
        stored = np.round(rng.normal(0.8, 0.02, 30), 2 if trial % 2 else 4)  # many ties, or few
        order = rng.integers(0, 30, 300)
        rule = KSCriterion(threshold, max_iterations=250, ties=ties)
        fast = rule.replay(stored, order=order)
        slow = KSCriterion(threshold, max_iterations=250, ties=ties)
        for t in order:
            if slow.update(stored[t]):
                break
        assert fast == StopResult(slow.n_iterations, slow.estimate, slow.capped)
        assert rule.last_statistic == slow.last_statistic


@pytest.mark.parametrize("seed", range(4))
def test_ks_path_is_the_statistic_of_every_prefix(seed):
    rng = np.random.default_rng(seed)
    v = np.round(rng.normal(size=40), 1)
    for ties in ("ecdf", "merge"):
        path = ks_path(v, ties)
        assert np.isnan(path[0])
        expected = [ks_statistic(v[:t][0::2], v[:t][1::2], ties) for t in range(2, 41)]
        np.testing.assert_array_equal(path[1:], expected)


@pytest.mark.parametrize("rule_class", [RankCriterion, PearsonCriterion])
@pytest.mark.parametrize("classes", [1, 2, 3])
def test_correlation_replay_all_at_once_equals_feeding_one_iteration_at_a_time(rule_class, classes):
    rng = np.random.default_rng(classes)
    estimates, probas = noisy_runs(n_runs=25, seed=classes)
    probas = np.round(probas, 1)  # ties between instances
    if classes > 1:
        probas = np.stack([1 - probas] + [probas / (classes - 1)] * (classes - 1), axis=2)
    for threshold in (0.99, 0.999, 0.99999):
        order = rng.integers(0, 25, 400)
        fast = rule_class(threshold, max_iterations=300).replay(estimates, probas, order)
        slow = rule_class(threshold, max_iterations=300)
        for t in order:
            if slow.update(estimates[t], probas[t]):
                break
        assert fast == StopResult(slow.n_iterations, slow.estimate, slow.capped)


def test_average_ranks_are_scipys():
    rng = np.random.default_rng(0)
    rows = np.round(rng.random((6, 50)), 1)
    np.testing.assert_array_equal(average_ranks(rows), stats.rankdata(rows, axis=1))
