import pytest

from cvrepro.profiles import CATALOG_SCALES, PROFILES, get_profile, study_parameters
from cvrepro.studies import STUDY_IDS, load_study


def test_every_study_module_scales_its_design_at_the_three_profiles():
    assert list(PROFILES) == ["smoke", "quick", "paper"]
    assert list(CATALOG_SCALES) == list(PROFILES)
    for study_id in STUDY_IDS:
        try:
            study = load_study(study_id)
        except ModuleNotFoundError:
            continue                                   # registered, not yet written
        assert list(study.SCALES) == list(PROFILES), study_id
        keys = {name: set(study.SCALES[name]) for name in PROFILES}
        assert keys["smoke"] == keys["quick"] == keys["paper"], study_id


def test_profile_parameters_are_copies():
    params = study_parameters("raeder2010", "smoke")
    params["datasets"].append("bupa")
    assert "bupa" not in study_parameters("raeder2010", "smoke")["datasets"]


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
