import pytest

from cvrepro.profiles import PROFILES, get_profile, study_parameters


def test_three_profiles_cover_the_same_studies():
    assert list(PROFILES) == ["smoke", "quick", "paper"]
    studies = {name: set(p.studies) for name, p in PROFILES.items()}
    assert studies["smoke"] == studies["quick"] == studies["paper"]


def test_unknown_profile_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown profile 'fast'.*smoke, quick, paper"):
        get_profile("fast")
    with pytest.raises(TypeError, match="profile must be a string"):
        get_profile(3)


def test_overrides_are_type_checked_and_applied():
    params = study_parameters("datasets", "smoke", datasets=("sonar",))
    assert params["datasets"] == ["sonar"] and params["profile"] == "smoke"
    assert study_parameters("datasets", "smoke", datasets=None)["datasets"] == \
        get_profile("smoke").study("datasets")["datasets"]
    with pytest.raises(TypeError, match="parameter 'datasets' must be list"):
        study_parameters("datasets", "smoke", datasets="sonar")
    with pytest.raises(ValueError, match="unknown parameter 'iterations'"):
        study_parameters("datasets", "smoke", iterations=5)


def test_unknown_study_is_named():
    with pytest.raises(KeyError, match="no parameters for study 'nope'"):
        get_profile("quick").study("nope")
