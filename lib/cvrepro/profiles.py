"""Run profiles: named bundles of scale parameters shared by every notebook.

``smoke`` runs in seconds to a couple of minutes and is what the tests execute;
``quick`` is the default of ``make all`` (minutes on 2 cores); ``paper`` is the
full scale of the published studies (resumable, for many cores or a cluster).

A profile scales each study's design up or down; what it means for a study is
that study module's ``SCALES[profile]`` (the design itself is fixed in the
module). A notebook asks for its parameters with :func:`study_parameters`,
which also validates the notebook's overrides so that a wrong parameter fails
in the notebook's first cells with a readable message.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .studies import STUDY_IDS, load_study

__all__ = ["Profile", "PROFILES", "get_profile", "study_parameters", "check_run_options"]


@dataclass(frozen=True)
class Profile:
    """A named scale. Each study says in its ``SCALES`` what the scale means for it."""

    name: str
    description: str

    def study(self, study: str) -> dict[str, Any]:
        """The parameters of ``study`` (a study id, or ``"datasets"`` for the catalog) at this profile."""
        if study in NOTEBOOK_SCALES:
            return copy.deepcopy(dict(NOTEBOOK_SCALES[study][self.name]))
        try:
            scales = load_study(study).SCALES
        except (ValueError, ModuleNotFoundError) as exc:
            if isinstance(exc, ModuleNotFoundError) and exc.name != f"cvrepro.studies.{study}":
                raise                                   # a study module's own import failed
            raise KeyError(
                f"profile {self.name!r} defines no parameters for study {study!r}; "
                f"known studies: {', '.join((*NOTEBOOK_SCALES, *STUDY_IDS))}"
            ) from None
        return copy.deepcopy(dict(scales[self.name]))


PROFILES: Mapping[str, Profile] = MappingProxyType({
    "smoke": Profile("smoke", "seconds to a couple of minutes; used by the test suite"),
    "quick": Profile("quick", "the default of `make all`: minutes on 2 cores, reduced iterations and data sets"),
    "paper": Profile("paper", "the published scale: every available data set, full iterations; resumable"),
})

# Notebook 00 (the data catalog) is not a study; its scale lives here.
CATALOG = "datasets"
CATALOG_SCALES = MappingProxyType({
    "smoke": {"datasets": ["sonar", "vote", "promoters", "twonorm"]},
    "quick": {"datasets": None},
    "paper": {"datasets": None},
})
# Notebook 06 (a comparison on the reader's own data, cvrepro.compare) is not a study either.
COMPARE = "compare"
_COMPARE = {"learners": ["NB", "C4.5", "5-NN"], "k": 10, "fixed_repetitions": 10,
            "grids": ["k-NN=5-NN:k=1,5,9"]}       # cvrepro.tuning.parse_grid texts: tuned inside nested CV
COMPARE_SCALES = MappingProxyType({
    "smoke": {**_COMPARE, "k": 3, "max_repetitions": 4, "fixed_repetitions": 3, "grids": ["k-NN=5-NN:k=1,5"]},
    "quick": {**_COMPARE, "max_repetitions": 20},
    "paper": {**_COMPARE, "max_repetitions": 50},
})
NOTEBOOK_SCALES = MappingProxyType({CATALOG: CATALOG_SCALES, COMPARE: COMPARE_SCALES})


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


def check_run_options(store=None, n_jobs: int = 1, backend: str = "loky", progress: bool = True) -> None:
    """Check a notebook's run options (``store``, ``n_jobs``, ``backend``, ``progress``) in its
    parameters cell, with the engine's own checks, so that ``store=5`` or ``n_jobs='two'`` fails
    at once with a message naming the parameter, not after the cells before ``study.run``."""
    from .engine.inputs import check_run_arguments
    check_run_arguments(1, n_jobs, backend, 0, None, store, progress, True, None, None)


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
