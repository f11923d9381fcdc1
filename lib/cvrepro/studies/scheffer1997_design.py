"""Scheffer & Herbrich (1997): the study's design: the benchmarks' data sets, the tuned learners (their
defaults, grids and engine names) and what each profile scales. :mod:`.scheffer1997` is the study's public face.
"""
from __future__ import annotations

from sklearn.model_selection import ParameterGrid

TARGET = 0.9                               # the paper's "succeed with probability > 90 %"
CATALOG_NAMES = {"Landsat": "landsat", "DNA": "dna", "diabetes": "pima", "heart": "heart", "mesh": None}
MISSING_DATASETS = {
    "mesh": "FEM mesh design (Dolsak & Muggleton) is not in the catalog (no registry package ships it); "
            "its rows use the paper's printed counts: 277 instances, 13 classes, H = 2.87, FOIL 59 hits, "
            "5 given folds",
}
# StatLog's protocols: diabetes 12-fold CV (768 = 12 x 64), heart 9-fold CV (270 = 9 x 30).
STATLOG_FOLDS = {"diabetes": 12, "heart": 9}

# Sec. 5: learners with real parameters (scikit-learn parameter names of our learners) and their
# defaults (WEKA's, and the collection's MLP -H 3). Grids must contain the defaults.
DEFAULTS = {
    "C4.5": {"confidence": 0.25, "min_num_obj": 2},
    "IBk": {"k": 1},
    "SMO": {"C": 1.0},
    "MLP": {"hidden_layers": "3", "epochs": 500, "learning_rate": 0.3},
    "MLP-seed": {"random_state": 0},
}
GRIDS = {   # the paper profile's grids
    "C4.5": {"confidence": [0.05, 0.1, 0.25, 0.5], "min_num_obj": [1, 2, 5, 10, 20]},
    "IBk": {"k": [1, 3, 5, 7, 9, 11, 15, 21, 25, 31]},
    "SMO": {"C": [2.0 ** e for e in range(-5, 8)]},
    "MLP": {"hidden_layers": ["1", "3", "6"], "epochs": [100, 500], "learning_rate": [0.1, 0.3]},
}
ENGINE_LEARNER = {"C4.5": "C4.5", "IBk": "1NN", "SMO": "SMO", "MLP": "MLP", "MLP-seed": "MLP"}


def _scale(orderings, greedy, pools, samples, size, cv_sets, reps, outer, inner, grids, seeds) -> dict:
    return {"channel_datasets": ["landsat", "dna"], "mc_orderings": orderings, "greedy_orderings": greedy,
            "c_max_one_shot": 200, "c_max_cv": 40,
            "pool_datasets": pools, "pool_samples": samples, "sample_size": size,
            "cv_datasets": cv_sets, "cv_repetitions": reps, "outer_folds": outer, "inner_folds": inner,
            "grids": grids, "seeds": seeds, "subset_draws": 20, "seed": 0}


QUICK_GRIDS = {
    "C4.5": GRIDS["C4.5"],
    "IBk": {"k": [1, 3, 5, 7, 9, 15, 21, 31]},
    "SMO": {"C": [2.0 ** e for e in (-5, -3, -1, 0, 1, 3, 5, 7)]},
    "MLP": {"hidden_layers": ["1", "3"], "epochs": [100, 500], "learning_rate": [0.3]},
}
SMOKE_GRIDS = {
    "C4.5": {"confidence": [0.1, 0.25], "min_num_obj": [2, 10]},
    "IBk": {"k": [1, 5, 15]},
    "SMO": {"C": [0.1, 1.0]},
    "MLP": {"hidden_layers": ["3"], "epochs": [50, 500], "learning_rate": [0.3]},
}
SCALES = {
    "smoke": _scale(2000, 1, ["spambase"], 2, 150, ["heart"], 1, 3, 3, SMOKE_GRIDS, 2),
    "quick": _scale(20000, 5, ["magic", "spambase"], 6, 300, ["pima", "heart"], 3, 5, 5, QUICK_GRIDS, 4),
    "paper": _scale(100000, 30, ["magic", "spambase", "landsat"], 10, 300,
                    ["pima", "heart", "sonar", "ionosphere"], 3, 10, 10, GRIDS, 8),
}


STUDY_ID = "scheffer1997"
# The study's separable parts (a run with params["parts"] computes only those; the notebook needs both).
PARTS = ("channel", "tuning")
# The paper run in steps, cheapest first (tools/paper_run.py; estimate_core_hours, CPU): the channel (about
# 0.03 core-hours), then each pool's samples (magic 0.27, spambase 0.46, landsat 0.46), then the small data
# sets' repeated nested CVs (0.47 together).
PAPER_ORDER = ({"parts": ["channel"]},
               *({"parts": ["tuning"], "cv_datasets": [], "pool_datasets": [pool]}
                 for pool in SCALES["paper"]["pool_datasets"]),
               {"parts": ["tuning"], "pool_datasets": []})


def make_setting(family: str, setting: dict):
    """The estimator of ``family`` (C4.5, IBk, SMO, MLP, MLP-seed) with ``setting`` over its defaults.
    SMO keeps WEKA's seed -W 1 and the MLP its -S 0 unless the setting says otherwise, so every
    fold of every route fits the same model."""
    from ..learners import make_learner

    if family not in DEFAULTS:
        raise ValueError(f"unknown learner family {family!r}; known: {', '.join(DEFAULTS)}")
    est = make_learner(ENGINE_LEARNER[family])
    params = dict(DEFAULTS["MLP"]) if family == "MLP-seed" else {}
    params.update(DEFAULTS[family])
    params.update(setting)
    if family == "SMO":
        params.setdefault("random_state", 1)
    return est.set_params(**params)


def family_settings(grids: dict, seeds: int) -> dict[str, list[dict]]:
    """Every family's settings in grid order; MLP-seed is the default MLP with seeds 0..seeds
    (setting 0, seed 0, is the plain MLP: the 'equally good learner with fewer parameters')."""
    out = {}
    for family, grid in grids.items():
        settings = list(ParameterGrid(grid))
        defaults = {k: DEFAULTS[family][k] for k in grid}
        if defaults not in settings:
            raise ValueError(f"the {family} grid must contain its defaults {defaults}")
        out[family] = settings
    if seeds:
        out["MLP-seed"] = [{"random_state": s} for s in range(seeds + 1)]
    return out


def engine_name(family: str, setting: dict) -> str:
    """The engine's name of ``family``'s learner at ``setting``: its class and every parameter, so that a
    setting two families share is one learner (one store cell, one truth task)."""
    est = make_setting(family, setting)
    full = est.get_params(deep=False)
    return ENGINE_LEARNER[family] + "(" + ",".join(f"{k}={full[k]!r}" for k in sorted(full)) + ")"


def tuned_keys(settings: list[dict]) -> list[str]:
    """The parameters that take more than one value in ``settings`` (grid order)."""
    return [k for k in settings[0] if len({repr(s[k]) for s in settings}) > 1]
