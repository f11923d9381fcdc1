"""The flu domain (cvrepro.drift): its distributions, the scenarios' kinds of change, and pD."""
import numpy as np
import pytest
from scipy import stats

from cvrepro.drift import AGES, SCENARIOS, FluDomain, performance_deterioration, trivial_error


@pytest.fixture(scope="module")
def sample():
    return FluDomain().sample(40_000, random_state=0)


def test_marginals_follow_the_parameters(sample):
    dom = FluDomain()
    ages = sample["age"].value_counts(normalize=True).reindex(AGES).to_numpy()
    assert ages == pytest.approx(dom.age_weights, abs=0.01)
    sd = np.sqrt(dom.social_var)
    expected = [stats.norm.cdf(1.5, 2, sd), stats.norm.cdf(2.5, 2, sd) - stats.norm.cdf(1.5, 2, sd),
                stats.norm.sf(2.5, 2, sd)]
    for column in ("social", "severity"):
        got = sample[column].value_counts(normalize=True, sort=False).to_numpy()
        assert got == pytest.approx(expected, abs=0.01)


def test_class_follows_p_normal(sample):
    dom = FluDomain()
    codes = [sample[c].cat.codes.to_numpy() for c in ("age", "severity", "health", "social")]
    p = dom.p_normal(*codes)
    normal = (sample["class"] == "NormalRemission").to_numpy()
    bins = np.digitize(p, [0.2, 0.4, 0.6, 0.8])
    for b in range(5):
        hit = bins == b
        if hit.sum() > 500:                                  # within 4 standard errors of the expected rate
            se = np.sqrt(np.sum(p[hit] * (1 - p[hit]))) / hit.sum()
            assert abs(normal[hit].mean() - p[hit].mean()) < 4 * se


def test_health_is_worse_for_the_old_and_the_poor(sample):
    poor_health = sample["health"] == "Poor"
    assert poor_health[sample.age == "Elderly"].mean() > 2 * poor_health[sample.age == "YoungAdult"].mean()
    assert poor_health[sample.social == "Poor"].mean() > poor_health[sample.social == "Rich"].mean()


def test_population_drifts_keep_the_class_definition_and_class_changes_do_not():
    dom = FluDomain()
    grid = np.array(np.meshgrid(range(6), range(3), range(3), range(3))).reshape(4, -1)
    for scenario in SCENARIOS.values():
        train, test = scenario.domains(dom)
        same = np.allclose(train.p_normal(*grid), test.p_normal(*grid))
        assert same == (scenario.kind != "class definition"), scenario.name
        if scenario.kind == "non-represented":
            assert scenario.train_exclude


def test_excluded_groups_do_not_occur_and_sampling_is_seeded():
    a = FluDomain().sample(500, random_state=3, exclude={"age": ("Infant", "Elderly")})
    assert not a.age.isin(["Infant", "Elderly"]).any() and len(a) == 500
    assert a.equals(FluDomain().sample(500, random_state=3, exclude={"age": ("Infant", "Elderly")}))
    with pytest.raises(ValueError, match="unknown attribute"):
        FluDomain().sample(10, exclude={"weight": ("x",)})
    with pytest.raises(ValueError, match="6 probabilities"):
        FluDomain(age_weights=(0.5, 0.5))


def test_performance_deterioration():
    assert performance_deterioration(0.2, 0.2, 0.4) == 0.0
    assert performance_deterioration(0.4, 0.2, 0.4) == 1.0
    assert performance_deterioration(0.3, 0.2, 0.4) == pytest.approx(0.5)
    assert performance_deterioration(0.5, 0.2, 0.4) == 1.0            # worse than trivial
    assert performance_deterioration(0.1, 0.2, 0.4) == pytest.approx(-0.5)
    assert np.isnan(performance_deterioration(0.3, 0.45, 0.4))
    assert trivial_error(["a", "a", "b", "a"]) == 0.25


def test_class_definition_changes_move_complications_the_way_their_names_say():
    """MC ("more complications") lowers P(NormalRemission) for no patient's attributes raises it, and raises
    P(complications) in the population; FC ("fewer complications") the reverse (FC once lowered four ages' logits)."""
    dom = FluDomain()
    grid = np.array(np.meshgrid(range(6), range(3), range(3), range(3))).reshape(4, -1)
    base = dom.p_normal(*grid)
    rate = (dom.sample(100_000, random_state=5)["class"] == "Complications").mean()
    for name, sign in (("MC", -1), ("FC", +1)):
        _, test = SCENARIOS[name].domains(dom)
        change = sign * (test.p_normal(*grid) - base)
        assert (change >= 0).all() and (change > 0).any(), name
        changed = (test.sample(100_000, random_state=5)["class"] == "Complications").mean()
        assert sign * (rate - changed) > 0.01, (name, rate, changed)     # s.e. of the difference ~0.002
