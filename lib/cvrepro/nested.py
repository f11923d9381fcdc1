"""Nested cross-validation: choose parameters on inner folds, assess on outer folds.

Scheffer & Herbrich (1997, Sec. 5): tuning a learner's parameters on the
test folds and reporting the same folds' accuracy is optimistically biased;
an unbiased assessment selects the parameters by an inner m-fold CV of each
outer training set and assesses the selected setting, refitted on that
training set, on the outer test fold (n x m learning trials per setting).

:func:`nested_cv` runs both protocols on the same outer folds for any
scikit-learn estimator and parameter grid; :func:`nested_from_scores` builds
the same result from score tables computed elsewhere (e.g. by the cached
engine :func:`cvrepro.runner.run_cv`).  A :class:`NestedCVResult` holds the
scores of every setting on every outer and inner fold and derives:

- ``naive_score``: the best setting's mean outer-fold score, i.e. what
  ``GridSearchCV(cv=outer).best_score_`` reports (tuning on the test folds);
- ``nested_score``: the mean over outer folds of the score of the setting the
  inner folds chose, i.e. ``cross_validate(GridSearchCV(cv=inner), cv=outer)``;
- ``per_fold_score``: the mean over outer folds of each fold's best setting
  (a different setting per fold, the setting of the paper's Sec. 3).

Ties go to the first setting in grid order, as in scikit-learn; the grid is
ordered as :class:`sklearn.model_selection.ParameterGrid` orders it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone, is_classifier
from sklearn.metrics import check_scoring
from sklearn.model_selection import ParameterGrid, check_cv

__all__ = ["NestedCVResult", "nested_cv", "nested_from_scores"]


@dataclass(frozen=True)
class NestedCVResult:
    """Scores of every parameter setting on the outer and inner folds of a nested CV.

    ``settings``: one row per setting (``setting`` 0..G-1, ``params`` dict);
    ``outer``: ``outer_fold, setting, score`` (fitted on the outer training set);
    ``inner``: ``outer_fold, setting, inner_fold, score`` (inner CV of each outer training set).
    """

    settings: pd.DataFrame
    outer: pd.DataFrame
    inner: pd.DataFrame

    def __post_init__(self):
        g = len(self.settings)
        if g == 0:
            raise ValueError("no parameter settings")
        if not np.array_equal(self.settings["setting"].to_numpy(), np.arange(g)):
            raise ValueError("settings must be numbered 0..G-1 in grid order")
        n_outer = self.outer["outer_fold"].nunique()
        if len(self.outer) != n_outer * g or self.outer.duplicated(["outer_fold", "setting"]).any():
            raise ValueError("outer needs exactly one score per (outer_fold, setting)")
        if set(self.inner["outer_fold"]) != set(self.outer["outer_fold"]):
            raise ValueError("inner and outer scores must cover the same outer folds")
        if self.inner.duplicated(["outer_fold", "setting", "inner_fold"]).any():
            raise ValueError("inner has more than one score per (outer_fold, setting, inner_fold)")
        counts = self.inner.groupby(["outer_fold", "setting"]).size()
        if len(counts) != n_outer * g:
            raise ValueError("inner needs scores for every (outer_fold, setting)")
        if not (np.isfinite(self.outer["score"]).all() and np.isfinite(self.inner["score"]).all()):
            raise ValueError("scores must be finite (a failed fit has no score to select on)")

    # ---------------------------------------------------------------- tables ---
    def outer_matrix(self) -> np.ndarray:
        """Outer scores as an (outer folds x settings) array."""
        return self.outer.pivot(index="outer_fold", columns="setting", values="score").to_numpy()

    def inner_means(self) -> np.ndarray:
        """Mean inner score of each setting on each outer training set: (outer folds x settings)."""
        m = self.inner.pivot_table(index=["outer_fold", "setting"], columns="inner_fold", values="score")
        return _fold_means(m.to_numpy()).reshape(-1, len(self.settings))

    def outer_means(self) -> np.ndarray:
        """Mean outer score of each setting (what the naive protocol compares)."""
        return _fold_means(self.outer_matrix().T)

    def folds(self) -> pd.DataFrame:
        """Per outer fold: the setting the inner CV chose, its inner and outer score,
        and the fold's best setting on its own test fold (per-fold tuning)."""
        outer, inner = self.outer_matrix(), self.inner_means()
        chosen = np.argmax(inner, axis=1)
        best = np.argmax(outer, axis=1)
        rows = np.arange(len(outer))
        return pd.DataFrame({
            "outer_fold": np.sort(self.outer["outer_fold"].unique()),
            "chosen": chosen, "inner_score": inner[rows, chosen], "outer_score": outer[rows, chosen],
            "best_on_test": best, "best_test_score": outer[rows, best]})

    def setting_scores(self) -> pd.DataFrame:
        """Per setting: mean outer score (what naive tuning compares) and mean inner score."""
        return self.settings.assign(outer_mean=self.outer_means(),
                                    inner_mean=self.inner_means().mean(axis=0))

    # -------------------------------------------------------------- estimates ---
    @property
    def naive_setting(self) -> int:
        """The setting with the best mean outer score (first among ties)."""
        return int(np.argmax(self.outer_means()))

    @property
    def naive_score(self) -> float:
        """The best mean outer score: tuning on the test folds and reporting them."""
        return float(self.outer_means()[self.naive_setting])

    @property
    def nested_score(self) -> float:
        """Mean outer score of the inner CV's choice: the unbiased assessment."""
        return float(self.folds()["outer_score"].mean())

    @property
    def per_fold_score(self) -> float:
        """Mean over outer folds of each fold's best setting (Sec. 3: parameters tuned per fold)."""
        return float(self.folds()["best_test_score"].mean())

    @property
    def n_outer(self) -> int:
        return int(self.outer["outer_fold"].nunique())

    @property
    def n_inner(self) -> float:
        """Inner folds per outer training set (their mean, should splitters differ)."""
        return float(self.inner.groupby(["outer_fold", "setting"]).size().mean())

    def trials(self) -> dict:
        """Learning trials: naive tuning n G, nested n m G + n (the chosen setting refitted)."""
        g = len(self.settings)
        return {"naive": self.n_outer * g, "nested": int(round(self.n_outer * self.n_inner * g)) + self.n_outer}

    def subset_estimates(self, masks) -> pd.DataFrame:
        """Naive, nested and per-fold estimates had only the settings in each row of ``masks``
        (boolean, subsets x settings) been tried; one row per subset, with the naive choice.
        The same numbers as :meth:`restrict` followed by the properties, for many subsets at once."""
        masks = np.atleast_2d(np.asarray(masks, dtype=bool))
        if masks.shape[1] != len(self.settings) or not masks.any(axis=1).all():
            raise ValueError(f"masks must be (subsets x {len(self.settings)}) with at least one setting per row")
        outer, inner, means = self.outer_matrix(), self.inner_means(), self.outer_means()
        off = np.where(masks, 0.0, -np.inf)                                 # subsets x settings
        naive_choice = np.argmax(means[None, :] + off, axis=1)
        chosen = np.argmax(inner[None, :, :] + off[:, None, :], axis=2)     # subsets x folds
        folds = np.arange(outer.shape[0])
        nested = outer[folds[None, :], chosen].mean(axis=1)
        per_fold = np.max(outer[None, :, :] + off[:, None, :], axis=2).mean(axis=1)
        return pd.DataFrame({"settings": masks.sum(axis=1), "naive": means[naive_choice],
                             "nested": nested, "per_fold": per_fold, "naive_setting": naive_choice})

    def restrict(self, settings) -> NestedCVResult:
        """The same folds with only ``settings`` (setting numbers) tried, renumbered in the given order."""
        keep = [int(s) for s in settings]
        if not keep or len(set(keep)) != len(keep) or not set(keep) <= set(range(len(self.settings))):
            raise ValueError(f"settings must be distinct setting numbers in 0..{len(self.settings) - 1}")
        new = {old: i for i, old in enumerate(keep)}
        sets = self.settings.set_index("setting").loc[keep].reset_index()
        sets["setting"] = np.arange(len(keep))

        def pick(t):
            t = t[t["setting"].isin(new)].copy()
            t["setting"] = t["setting"].map(new)
            return t.sort_values([c for c in ("outer_fold", "setting", "inner_fold") if c in t]).reset_index(drop=True)

        return NestedCVResult(sets, pick(self.outer), pick(self.inner))

    def summary(self) -> pd.Series:
        """The three estimates, the naive choice and the trials of each protocol."""
        trials = self.trials()
        return pd.Series({"settings": len(self.settings), "outer_folds": self.n_outer,
                          "inner_folds": self.n_inner, "naive": self.naive_score,
                          "nested": self.nested_score, "per_fold": self.per_fold_score,
                          "naive_setting": self.naive_setting,
                          "naive_trials": trials["naive"], "nested_trials": trials["nested"]})


def _fold_means(scores: np.ndarray) -> np.ndarray:
    """Row means of a (candidates x folds) array, summed exactly as GridSearchCV sums them
    (np.average over contiguous rows), so that ties between settings break the same way."""
    return np.average(np.ascontiguousarray(scores, dtype=float), axis=1)


def _grid(param_grid) -> pd.DataFrame:
    grid = list(ParameterGrid(param_grid))
    return pd.DataFrame({"setting": np.arange(len(grid)), "params": grid})


def nested_from_scores(settings, outer: pd.DataFrame, inner: pd.DataFrame) -> NestedCVResult:
    """A :class:`NestedCVResult` from score tables computed elsewhere.

    ``settings``: a parameter grid (dict or list of dicts, ordered as
    ParameterGrid orders it) or a list of setting descriptions;
    ``outer``: columns ``outer_fold, setting, score``; ``inner``: ``outer_fold,
    setting, inner_fold, score``; ``setting`` numbers index ``settings``.
    """
    if isinstance(settings, (dict, ParameterGrid)) or (
            isinstance(settings, list) and settings and all(isinstance(s, dict) for s in settings)
            and all(isinstance(v, (list, tuple, np.ndarray)) for s in settings for v in s.values())):
        table = _grid(settings)
    else:
        table = pd.DataFrame({"setting": np.arange(len(settings)), "params": list(settings)})
    for name, t, cols in (("outer", outer, ["outer_fold", "setting", "score"]),
                          ("inner", inner, ["outer_fold", "setting", "inner_fold", "score"])):
        missing = [c for c in cols if c not in t]
        if missing:
            raise ValueError(f"{name} scores lack columns {missing}")
    outer = outer[["outer_fold", "setting", "score"]].sort_values(["outer_fold", "setting"]).reset_index(drop=True)
    inner = inner[["outer_fold", "setting", "inner_fold", "score"]].sort_values(
        ["outer_fold", "setting", "inner_fold"]).reset_index(drop=True)
    bad = set(outer["setting"]) | set(inner["setting"])
    if not bad <= set(range(len(table))):
        raise ValueError(f"setting numbers {sorted(bad - set(range(len(table))))} are not in the grid")
    return NestedCVResult(table, outer, inner)


def _rows(X, index):
    return X.iloc[index] if hasattr(X, "iloc") else np.asarray(X)[index]


def _fit_and_score(estimator, params, X, y, train, test, scorer) -> float:
    model = clone(estimator).set_params(**params)
    model.fit(_rows(X, train), _rows(y, train))
    return float(scorer(model, _rows(X, test), _rows(y, test)))


def nested_cv(estimator, param_grid, X, y, *, outer_cv=5, inner_cv=5, scoring=None,
              n_jobs=None) -> NestedCVResult:
    """Nested CV of ``estimator`` over ``param_grid``, with every setting also scored on the outer folds.

    ``outer_cv`` / ``inner_cv``: an int (stratified k-fold for classifiers, as
    scikit-learn's ``cv=``), a splitter (any ``BaseCrossValidator``, e.g.
    :class:`cvrepro.partition.SCV`) or an iterable of splits for the outer
    loop; the inner splitter is applied to each outer training set.
    ``scoring``: as scikit-learn's (None: the estimator's ``score``).
    Costs n G + n m G fits: the naive protocol's n G and the nested one's n m G
    (its n refits of the chosen setting are among the n G).
    """
    classifier = is_classifier(estimator)
    outer_splitter = check_cv(outer_cv, y, classifier=classifier)
    outer_splits = list(outer_splitter.split(X, y))
    settings = _grid(param_grid)
    scorer = check_scoring(estimator, scoring=scoring)
    jobs, keys = [], []
    for f, (train, test) in enumerate(outer_splits):
        X_train, y_train = _rows(X, train), _rows(y, train)
        inner_splits = list(check_cv(inner_cv, y_train, classifier=classifier).split(X_train, y_train))
        if len(inner_splits) < 2:
            raise ValueError("the inner CV needs at least 2 folds")
        for s, params in enumerate(settings["params"]):
            jobs.append((params, X, y, train, test))
            keys.append(("outer", f, s, -1))
            for j, (itrain, itest) in enumerate(inner_splits):
                jobs.append((params, X_train, y_train, itrain, itest))
                keys.append(("inner", f, s, j))
    scores = Parallel(n_jobs=n_jobs)(delayed(_fit_and_score)(estimator, p, Xs, ys, tr, te, scorer)
                                     for p, Xs, ys, tr, te in jobs)
    table = pd.DataFrame(keys, columns=["kind", "outer_fold", "setting", "inner_fold"]).assign(score=scores)
    outer = table[table["kind"] == "outer"].drop(columns=["kind", "inner_fold"])
    inner = table[table["kind"] == "inner"].drop(columns="kind")
    return nested_from_scores(param_grid, outer, inner)
