"""Changing environments: the simulated flu domain of Alaiz-Rodriguez & Japkowicz (2008).

Alaiz-Rodriguez, R., & Japkowicz, N. (2008). Assessing the impact of changing
environments on classifier performance. Canadian AI 2008, LNCS 5032, 13-24;
as the Japkowicz & Shah tutorial presents it. Patients with the flu are
described by four nominal attributes and a class:

* ``age``: Infant, Teenager, YoungAdult, Adult, OldAdult, Elderly. A region of
  negative growth: many young adults and adults, few others. The age band is
  drawn from ``age_weights``, the age in years uniformly inside the band, the
  Elderly band's years as 65 + an exponential (the band has no upper end);
* ``social``: Rich (1), MiddleClass (2), Poor (3): a normal variable around 2
  with variance 0.75, cut at 1.5 and 2.5;
* ``severity`` of the flu symptoms: Light, Medium, Strong, the same
  distribution as social status (its own draw);
* ``health``: Good, Medium, Poor, from an unobserved binary variable
  "delicate" (its probability grows with age) and social status: delicate and
  poorer people have worse health;
* class ``Complications`` or ``NormalRemission``: complications are likelier
  with stronger symptoms, for infants and the elderly, with poorer health, and
  (the tutorial's dashed lines) for poor people.

The slides give the shapes, not the numbers; every number we chose is a field
of :class:`FluDomain` with its default documented there. A :class:`Scenario`
changes some fields for the test population (population drift: p(x)
changes, p(class | x) does not) or the class definition (p(class | x)
changes), or removes groups from the training population
(non-represented cases). :func:`performance_deterioration` is the paper's pD.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from . import libm

__all__ = ["AGES", "LEVELS_SOCIAL", "LEVELS_SEVERITY", "LEVELS_HEALTH", "CLASSES", "FluDomain", "Scenario",
           "SCENARIOS", "performance_deterioration", "trivial_error"]

AGES = ("Infant", "Teenager", "YoungAdult", "Adult", "OldAdult", "Elderly")
AGE_BANDS = ((0.0, 4.0), (4.0, 20.0), (20.0, 35.0), (35.0, 50.0), (50.0, 65.0), (65.0, None))
LEVELS_SOCIAL = ("Rich", "MiddleClass", "Poor")
LEVELS_SEVERITY = ("Light", "Medium", "Strong")
LEVELS_HEALTH = ("Good", "Medium", "Poor")
CLASSES = ("Complications", "NormalRemission")


@dataclass(frozen=True)
class FluDomain:
    """The flu domain's generating process; defaults are the training population ("NGP").

    Population (p(x)):

    * ``age_weights``: probability of each age band, Infant..Elderly (negative
      growth: 0.05, 0.10, 0.30, 0.30, 0.15, 0.10);
    * ``elderly_scale``: years beyond 65 of the Elderly, exponential (10);
    * ``social_mean``, ``social_var``: the normal social-status variable (2, 0.75);
    * ``severity_mean``, ``severity_var``: the symptoms' variable (2, 0.75);
    * ``delicate_base``, ``delicate_per_year``: P(delicate) = base + per_year x
      age, capped at 0.95 (0.05, 0.008: 5 % of newborns, 57 % at 65);
    * ``health_shift``: added to the health score (0; a decline is > 0).
      Health score = 1.2 delicate + 0.5 (social - 2) + shift + N(0, 0.5):
      Good below 0.5, Medium below 1.2, else Poor.

    Class (p(class | x)), with s, h the severity and health levels minus 1
    (0, 1, 2): logit P(NormalRemission) = ``age_logit[age]`` -
    ``severity_weight`` s - ``health_weight`` h - ``interaction_weight`` s h
    - ``frailty_weight`` s [Infant or Elderly] - ``poor_penalty`` [Poor and
    h > 0], with ``age_logit`` = (1.5, 3.0, 3.5, 3.5, 2.5, 1.0), weights 1.0,
    0.8, 0.6, 1.2 and penalty 1.2: complications compound when strong symptoms
    meet poor health or a fragile age, and poverty hurts those whose health is
    not good (the tutorial's dashed curves).
    """

    age_weights: tuple = (0.05, 0.10, 0.30, 0.30, 0.15, 0.10)
    elderly_scale: float = 10.0
    social_mean: float = 2.0
    social_var: float = 0.75
    severity_mean: float = 2.0
    severity_var: float = 0.75
    delicate_base: float = 0.05
    delicate_per_year: float = 0.008
    health_shift: float = 0.0
    age_logit: tuple = (1.5, 3.0, 3.5, 3.5, 2.5, 1.0)
    severity_weight: float = 1.0
    health_weight: float = 0.8
    interaction_weight: float = 0.6
    frailty_weight: float = 1.2
    poor_penalty: float = 1.2

    def __post_init__(self):
        w = np.asarray(self.age_weights, dtype=float)
        if w.shape != (6,) or (w < 0).any() or not np.isclose(w.sum(), 1.0):
            raise ValueError(f"age_weights must be 6 probabilities summing to 1, got {self.age_weights}")
        if len(self.age_logit) != 6:
            raise ValueError(f"age_logit needs one value per age band, got {self.age_logit}")
        for name in ("social_var", "severity_var", "elderly_scale"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")

    def p_normal(self, age, severity, health, social) -> np.ndarray:
        """P(NormalRemission | x) for level codes (age 0..5; the others 0..2)."""
        age, s, h, social = (np.asarray(v) for v in (age, severity, health, social))
        fragile = (age == 0) | (age == 5)
        logit = (np.asarray(self.age_logit)[age] - self.severity_weight * s - self.health_weight * h
                 - self.interaction_weight * s * h - self.frailty_weight * s * fragile
                 - self.poor_penalty * ((social == 2) & (h > 0)))
        return 1.0 / (1.0 + libm.exp(-logit))

    def sample(self, n: int, random_state=None, exclude=None) -> pd.DataFrame:
        """``n`` patients: columns age, severity, health, social (categoricals) and ``class``.

        ``exclude`` maps an attribute to values that must not occur (rejection
        sampling: the remaining groups keep their relative frequencies).
        """
        if not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        rng = np.random.default_rng(random_state)
        parts, have = [], 0
        while have < n:
            part = self._draw(max(2 * (n - have), 64), rng)
            for column, values in (exclude or {}).items():
                if column not in part:
                    raise ValueError(f"cannot exclude values of unknown attribute {column!r}")
                part = part[~part[column].isin(list(values))]
            parts.append(part)
            have += len(part)
            if len(parts) > 1000:
                raise ValueError(f"excluding {exclude} leaves (almost) no patient to sample")
        return pd.concat(parts, ignore_index=True).iloc[:n].reset_index(drop=True)

    def _draw(self, n: int, rng) -> pd.DataFrame:
        band = rng.choice(6, size=n, p=np.asarray(self.age_weights) / np.sum(self.age_weights))
        years = np.empty(n)
        for b, (lo, hi) in enumerate(AGE_BANDS):
            hit = band == b
            years[hit] = (lo + rng.exponential(self.elderly_scale, hit.sum()) if hi is None
                          else rng.uniform(lo, hi, hit.sum()))
        social = _three_levels(rng.normal(self.social_mean, np.sqrt(self.social_var), n))
        severity = _three_levels(rng.normal(self.severity_mean, np.sqrt(self.severity_var), n))
        delicate = rng.random(n) < np.minimum(self.delicate_base + self.delicate_per_year * years, 0.95)
        score = 1.2 * delicate + 0.5 * (social - 1) + self.health_shift + rng.normal(0.0, 0.5, n)
        health = np.digitize(score, [0.5, 1.2])
        normal = rng.random(n) < self.p_normal(band, severity, health, social)
        return pd.DataFrame({
            "age": pd.Categorical.from_codes(band, AGES),
            "severity": pd.Categorical.from_codes(severity, LEVELS_SEVERITY),
            "health": pd.Categorical.from_codes(health, LEVELS_HEALTH),
            "social": pd.Categorical.from_codes(social, LEVELS_SOCIAL),
            "class": pd.Categorical.from_codes(normal.astype(int), CLASSES),
        })


def _three_levels(z: np.ndarray) -> np.ndarray:
    """A normal variable around 2 cut at 1.5 and 2.5: codes 0, 1, 2 (levels 1, 2, 3)."""
    return np.digitize(z, [1.5, 2.5])


@dataclass(frozen=True)
class Scenario:
    """A change between training and test: ``kind`` is "none", "population drift",
    "non-represented" or "class definition"; ``test`` changes the FluDomain fields
    of the test population; ``train_exclude`` removes groups from the training set."""

    name: str
    kind: str
    description: str
    test: dict = field(default_factory=dict)
    train_exclude: dict = field(default_factory=dict)

    def domains(self, base: FluDomain) -> tuple[FluDomain, FluDomain]:
        """(training domain, test domain) of this scenario around ``base``."""
        return base, replace(base, **self.test)


def _logit_plus(delta: tuple) -> tuple:
    return tuple(a + d for a, d in zip(FluDomain().age_logit, delta))


SCENARIOS: dict[str, Scenario] = {s.name: s for s in (
    Scenario("none", "none", "training and test from the same population (NGP)"),
    # population drifts with full representation
    Scenario("DP", "population drift", "developing population: high birth and death rates",
             {"age_weights": (0.20, 0.30, 0.25, 0.15, 0.07, 0.03), "elderly_scale": 5.0}),
    Scenario("ZGP", "population drift", "zero-growth population: similar birth and death rates",
             {"age_weights": (0.12, 0.17, 0.18, 0.18, 0.18, 0.17)}),
    Scenario("NGP/W", "population drift", "winter: stronger flu symptoms", {"severity_mean": 2.5}),
    Scenario("NGP/SW", "population drift", "soft winter: milder flu symptoms", {"severity_mean": 1.5}),
    Scenario("NGP/DW", "population drift", "drastic winter: much stronger symptoms, general health declines",
             {"severity_mean": 2.8, "health_shift": 0.6}),
    Scenario("NGP/P", "population drift", "a much poorer population", {"social_mean": 2.7}),
    Scenario("NGP/P+DW", "population drift", "much poorer, and a drastic winter",
             {"social_mean": 2.7, "severity_mean": 2.8, "health_shift": 0.6}),
    # population drifts with groups missing from the training set
    Scenario("NR/Elderly", "non-represented", "no elderly patient in the training set",
             train_exclude={"age": ("Elderly",)}),
    Scenario("NR/Infant", "non-represented", "no infant in the training set", train_exclude={"age": ("Infant",)}),
    Scenario("NR/Infant+Elderly", "non-represented", "neither infants nor elderly in the training set",
             train_exclude={"age": ("Infant", "Elderly")}),
    Scenario("NR/Poor", "non-represented", "no poor patient in the training set",
             train_exclude={"social": ("Poor",)}),
    Scenario("NR/Strong+DW", "non-represented", "no strong symptoms in training; tested in a drastic winter",
             {"severity_mean": 2.8, "health_shift": 0.6}, {"severity": ("Strong",)}),
    # class-definition changes
    Scenario("MC", "class definition", "more complications: normal remission less likely for older adults, "
             "the elderly, the poor and strong symptoms",
             {"age_logit": _logit_plus((0.0, 0.0, 0.0, 0.0, -1.5, -1.5)), "poor_penalty": 2.0,
              "severity_weight": 2.2}),
    Scenario("FC", "class definition", "fewer complications: the ages with a high chance of normal remission "
             "widen from young adults and adults to teenagers and old adults (raised to the adults' level)",
             {"age_logit": (1.5, 3.5, 3.5, 3.5, 3.5, 1.0)}),
)}


def trivial_error(y) -> float:
    """Error rate of the trivial classifier (the majority class) on labels ``y``."""
    counts = pd.Series(np.asarray(y)).value_counts()
    if counts.empty:
        raise ValueError("no labels")
    return float(1.0 - counts.iloc[0] / counts.sum())


def performance_deterioration(error_test: float, error_ideal: float, error_trivial: float) -> float:
    """The paper's pD: (E_test - E_ideal) / (E0 - E_ideal) if E_test <= E0, else 1.

    0 is no deterioration, 1 is as bad as the trivial classifier (or worse);
    below 0 the changed environment happened to suit the classifier. E_ideal
    >= E0 (a classifier no better than trivial even when trained on the test
    population) leaves pD undefined: NaN.
    """
    if error_test > error_trivial:
        return 1.0
    if error_trivial <= error_ideal:
        return float("nan")
    return float((error_test - error_ideal) / (error_trivial - error_ideal))
