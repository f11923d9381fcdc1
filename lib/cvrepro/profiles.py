"""Run profiles: named bundles of scale parameters shared by every notebook.

``smoke`` runs in seconds to a couple of minutes and is what the tests execute;
``quick`` is the default of ``make all`` (minutes on 2 cores); ``paper`` is the
full scale of the published studies (resumable, for many cores or a cluster).

Each profile holds one mapping per study; a notebook asks for its own with
:func:`study_parameters`, which also validates the notebook's overrides so that
a wrong parameter fails in the notebook's first cells with a readable message.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["Profile", "PROFILES", "get_profile", "study_parameters"]


@dataclass(frozen=True)
class Profile:
    """A named scale: one mapping of parameters per study."""

    name: str
    description: str
    studies: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def study(self, study: str) -> dict[str, Any]:
        if study not in self.studies:
            raise KeyError(
                f"profile {self.name!r} defines no parameters for study {study!r}; "
                f"known studies: {', '.join(sorted(self.studies))}"
            )
        return dict(self.studies[study])

RAEDER_DATASETS = ["breast-w", "bupa", "crx", "heart", "ionosphere", "chess", "pima", "promoters",
                   "ringnorm", "sonar", "threenorm", "tic-tac-toe", "twonorm", "vote", "vote1"]
RAEDER_LEARNERS = ["C4.5", "HDDT", "MLP", "5-NN", "NB", "SMO"]


def _raeder(datasets, iterations, true_test, learners=RAEDER_LEARNERS, **extra) -> dict:
    """Raeder et al. 2010 at a given scale (see notebooks/01_raeder2010_variability)."""
    return {"datasets": datasets, "learners": learners, "folds": [2, 5, 10],
            "iterations": iterations, "true_test_datasets": true_test, "seed": 0,
            "n_orderings": 50, "c45_laplace": True, **extra}


def _freeze(d: dict) -> Mapping:
    return MappingProxyType({k: MappingProxyType(v) for k, v in d.items()})


PROFILES: Mapping[str, Profile] = MappingProxyType({
    "smoke": Profile(
        "smoke",
        "seconds to a couple of minutes; used by the test suite",
        _freeze({
            "datasets": {"datasets": ["sonar", "vote", "promoters", "twonorm"]},
            "raeder2010": _raeder(["sonar", "vote", "promoters", "breast-w"], 5, ["segment"],
                                  learners=["C4.5", "HDDT", "NB", "5-NN", "SMO"]),
        }),
    ),
    "quick": Profile(
        "quick",
        "the default of `make all`: minutes on 2 cores, reduced iterations and data sets",
        _freeze({
            "datasets": {"datasets": None},
            "raeder2010": _raeder(RAEDER_DATASETS, 20, ["segment", "dna", "landsat"]),
        }),
    ),
    "paper": Profile(
        "paper",
        "the published scale: every available data set, full iterations; resumable",
        _freeze({
            "datasets": {"datasets": None},
            "raeder2010": _raeder(RAEDER_DATASETS, 500, ["segment", "dna", "landsat"]),
        }),
    ),
})


def get_profile(name: str) -> Profile:
    """Return the profile called ``name``; an unknown name lists the valid ones."""
    if not isinstance(name, str):
        raise TypeError(f"profile must be a string such as 'quick', got {type(name).__name__}: {name!r}")
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(
            f"unknown profile {name!r}; valid profiles are: {', '.join(PROFILES)}"
        ) from None


def study_parameters(study: str, profile: str, **overrides: Any) -> dict[str, Any]:
    """Parameters of ``study`` at ``profile``, with non-None ``overrides`` applied.

    An override must have the type of the profile's value (lists for lists,
    ints for ints; None in the profile accepts anything), so that papermill
    parameters of the wrong type fail here rather than deep inside a run.
    """
    params = get_profile(profile).study(study)
    for key, value in overrides.items():
        if value is None:
            continue
        if key not in params:
            raise ValueError(
                f"unknown parameter {key!r} for study {study!r}; "
                f"valid parameters: {', '.join(sorted(params))}"
            )
        _check_type(key, value, params[key])
        params[key] = list(value) if isinstance(value, tuple) else value
    params["profile"] = profile
    return params


def _check_type(key: str, value: Any, default: Any) -> None:
    if default is None:
        return
    if isinstance(default, bool) or isinstance(value, bool):
        ok = isinstance(value, bool) and isinstance(default, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float))
    elif isinstance(default, (list, tuple)):
        ok = isinstance(value, (list, tuple))
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise TypeError(
            f"parameter {key!r} must be {type(default).__name__} "
            f"(like {default!r}), got {type(value).__name__}: {value!r}"
        )
