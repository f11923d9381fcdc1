"""Learners with parameter grids in :func:`cvrepro.compare.compare`: tuning inside nested CV.

Scheffer & Herbrich (1997, Sec. 5): choosing the setting that scores best on the
test folds and reporting that score (the *naive* estimate, what
``GridSearchCV(cv=outer).best_score_`` reports) is optimistic; the unbiased
assessment chooses on an inner CV of each outer training set and scores the
choice on the outer test fold (the *nested* estimate). :func:`tune` runs both
through the cached engine, the way :mod:`cvrepro.studies.scheffer1997` does:
every setting is an engine learner on the outer folds (the same partitions as
the untuned learners), and on the k inner folds of each outer training set;
:func:`cvrepro.nested.nested_from_scores` does the choosing.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import ParameterGrid

from .engine.inputs import prepare_data
from .nested import nested_from_scores
from .runner import run_cv

__all__ = ["split_learners", "setting_name", "setting_learners", "tune", "parse_grid", "with_grids",
           "describe_tuning"]


def _is_grid(value) -> bool:
    return isinstance(value, dict) and bool(value) and all(
        isinstance(v, (list, tuple, np.ndarray)) for v in value.values())


def _grid_entry(name: str, base, grid) -> tuple:
    if not _is_grid(grid) or not all(len(v) for v in grid.values()):
        raise ValueError(f"learner {name!r}: a grid is a dict parameter -> non-empty list of values, e.g. "
                         f"{{'C': [0.1, 1, 10]}}, got {grid!r}")
    if base is None or isinstance(base, str):
        from .learners import make_learner
        base = make_learner(base or name)
    bad = sorted(set(grid) - set(base.get_params()))
    if bad:
        raise ValueError(f"learner {name!r} has no parameter(s) {bad}; it has {sorted(base.get_params())}")
    return base, grid


def split_learners(learners) -> tuple[dict, dict]:
    """``learners`` as (name -> estimator or None, name -> (estimator, grid)). Grids come as a dict value
    (``{"SVM": {"C": [0.1, 1, 10]}}``), or as a ``(name_or_estimator, grid)`` pair, a list item or a dict value."""
    items = learners.items() if isinstance(learners, dict) else [
        (item if isinstance(item, str) else _pair_name(item), item) for item in learners]
    plain, grids = {}, {}
    for name, value in items:
        if name in plain or name in grids:
            raise ValueError(f"learner name {name!r} appears twice; name a tuned learner apart, e.g. "
                             f"{{'{name}-tuned': ('{name}', grid)}}")
        if _is_grid(value):
            grids[name] = _grid_entry(name, name, value)
        elif isinstance(value, tuple) and len(value) == 2:
            grids[name] = _grid_entry(name, value[0], value[1])
        elif isinstance(value, str) and value == name:
            plain[name] = None
        else:
            plain[name] = value
    return plain, grids


def _pair_name(item) -> str:
    if not (isinstance(item, tuple) and len(item) == 2):
        raise TypeError(f"a learner is a name, or a (name_or_estimator, grid) pair, got {item!r}")
    return item[0] if isinstance(item[0], str) else type(item[0]).__name__


def setting_name(name: str, setting: dict) -> str:
    return f"{name}[" + ",".join(f"{k}={v!r}" for k, v in setting.items()) + "]"


def setting_learners(grids: dict) -> dict:
    """Every setting of every grid as an engine learner, named ``name[param=value,...]``."""
    return {setting_name(name, s): clone(base).set_params(**s)
            for name, (base, grid) in grids.items() for s in ParameterGrid(grid)}


def parse_grid(text: str) -> tuple[str, str, dict]:
    """``"SVM:C=0.1,1,10;sigma=0.5,1"`` as ``("SVM", "SVM", {"C": [0.1, 1, 10], "sigma": [0.5, 1]})``
    (name, learner, grid); ``"k-NN=5-NN:k=1,5"`` names the tuned learner k-NN. Values are numbers where
    they parse as numbers, else strings (``True``/``False``/``None`` as Python's)."""
    head, sep, rest = text.partition(":")
    name, _, learner = head.rpartition("=")
    if not sep or not learner.strip() or not rest:
        raise ValueError(f"--grid {text!r}: write [NAME=]LEARNER:PARAM=V1,V2[;PARAM=...], e.g. 'SVM:C=0.1,1,10'")
    grid = {}
    for part in rest.split(";"):
        key, eq, values = part.partition("=")
        if not eq or not key.strip() or not values.strip():
            raise ValueError(f"--grid {text!r}: {part!r} is not PARAM=V1,V2,...")
        grid[key.strip()] = [_value(v.strip()) for v in values.split(",")]
    return (name or learner).strip(), learner.strip(), grid


def with_grids(names, grids) -> dict:
    """Learner ``names`` with the ``grids`` (:func:`parse_grid` texts) applied: a grid for a listed learner
    tunes it in its place, another is added; what :func:`cvrepro.compare.compare` takes."""
    learners = dict.fromkeys(names)
    for text in grids or []:
        name, learner, grid = parse_grid(text)
        learners[name] = (learner, grid)
    return learners


def _value(text: str):
    special = {"True": True, "False": False, "None": None}
    if text in special:
        return special[text]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _inner_sets(outer, datasets, k: int) -> list:
    """One inner data set per (data set, repetition, outer fold): its outer training part."""
    data = {d.name: d for d in map(prepare_data, datasets)}
    inst = outer.instances
    first = inst[inst["learner"] == inst["learner"].iloc[0]]
    out = []
    for (name, it), g in first.groupby(["dataset", "iteration"], observed=True, sort=False):
        d, folds = data[str(name)], g.sort_values("instance")["fold"].to_numpy()
        for f in range(k):
            train = np.flatnonzero(folds != f)
            X = d.X.iloc[train].reset_index(drop=True) if hasattr(d.X, "iloc") else d.X[train]
            out.append((f"{name}|{it}|{f}", X, pd.Series(d.y[train])))
    return out


def tune(outer, datasets, grids: dict, *, metric: str, sign: float, k: int, partitioner: str, store, n_jobs: int,
         seed: int, progress: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tuned learners' fold scores (the nested CV's, in the layout of ``outer.folds``) and the tuning
    table, from ``outer`` (a run_cv of every setting on the outer folds) and an inner CV run here."""
    settings = {name: list(ParameterGrid(grid)) for name, (_, grid) in grids.items()}
    inner = run_cv(_inner_sets(outer, datasets, k), setting_learners(grids), folds=(k,), iterations=1,
                   partitioner=partitioner, store=store, n_jobs=n_jobs, seed=seed, progress=progress)
    ifolds = inner.folds.assign(dataset=inner.folds["dataset"].astype(str), learner=inner.folds["learner"].astype(str))
    parts = ifolds["dataset"].str.rsplit("|", n=2, expand=True)
    ifolds = ifolds.assign(dataset=parts[0], iteration=parts[1].astype(int), outer_fold=parts[2].astype(int))
    ofolds = outer.folds.assign(dataset=outer.folds["dataset"].astype(str), learner=outer.folds["learner"].astype(str))
    o_by = dict(tuple(ofolds.groupby(["dataset", "iteration", "learner"])))
    i_by = dict(tuple(ifolds.groupby(["dataset", "iteration", "learner"])))
    fold_rows, table = [], []
    for dataset, iteration in ofolds[["dataset", "iteration"]].drop_duplicates().itertuples(index=False):
        for name, ss in settings.items():
            o, i = [], []
            for s, setting in enumerate(ss):
                go, gi = o_by[(dataset, iteration, setting_name(name, setting))], i_by[
                    (dataset, iteration, setting_name(name, setting))]
                o.append(pd.DataFrame({"outer_fold": go["fold"].to_numpy(), "setting": s,
                                       "score": sign * go[metric].to_numpy()}))
                i.append(pd.DataFrame({"outer_fold": gi["outer_fold"].to_numpy(), "setting": s,
                                       "inner_fold": gi["fold"].to_numpy(), "score": sign * gi[metric].to_numpy()}))
            res = nested_from_scores(ss, pd.concat(o), pd.concat(i))
            chosen = res.folds()
            fold_rows.append(pd.DataFrame({"dataset": dataset, "learner": name, "iteration": iteration,
                                           "fold": chosen["outer_fold"], metric: sign * chosen["outer_score"],
                                           "chosen": [setting_name(name, ss[c]) for c in chosen["chosen"]]}))
            table.append((dataset, name, res.outer_matrix()))
    tuned = pd.concat(fold_rows, ignore_index=True)
    return tuned, _tuning_table(tuned, table, settings, metric, sign)


def _tuning_table(tuned: pd.DataFrame, outer: list, settings: dict, metric: str, sign: float) -> pd.DataFrame:
    """Per data set and tuned learner: the naive estimate (the best setting's mean outer score over all
    repetitions) beside the nested one (the mean outer score of the inner CV's choices)."""
    rows = []
    for (dataset, name), g in tuned.groupby(["dataset", "learner"], sort=False):
        scores = np.vstack([m for d, n, m in outer if d == dataset and n == name])   # (reps x folds) x settings
        means = scores.mean(axis=0)
        best = int(np.argmax(means))
        naive, nested = sign * float(means[best]), float(g[metric].mean())
        top = g["chosen"].value_counts()
        rows.append({"dataset": dataset, "learner": name, "settings": len(settings[name]),
                     "repetitions": int(g["iteration"].nunique()), "naive": naive, "nested": nested,
                     "naive_minus_nested": naive - nested, "naive_setting": setting_name(name, settings[name][best]),
                     "most_chosen": top.index[0], "chosen_share": float(top.iloc[0] / len(g))})
    return pd.DataFrame(rows)


def describe_tuning(table: pd.DataFrame, metric: str, higher: bool) -> str:
    """One sentence on the Scheffer-Herbrich bias: how far the naive estimates lie from the nested ones."""
    gap = np.round(table["naive_minus_nested"] * (1 if higher else -1), 10) + 0.0     # no -0.0000
    worst = table.loc[gap.idxmax()]
    return (f"Tuning (Scheffer & Herbrich 1997): the best setting's own cross-validation score (naive) lies "
            f"{gap.mean():+.4f} {metric} from the nested estimate on average over {len(table)} learner-data set "
            f"cell(s) (positive: naive optimistic; most: {worst.learner} on {worst.dataset}, naive {worst.naive:.4f} "
            f"vs nested {worst.nested:.4f}); the tests use the nested estimates.")
