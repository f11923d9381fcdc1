"""Japkowicz & Shah (2011), the simulated study of the resampling tests: its procedure (the data, the
two Gaussian naive Bayes classifiers, their cross-validations on the library's stratified folds
(:class:`cvrepro.partition.SCV`) and the tests' p-values), as tasks of :func:`cvrepro.engine.map_tasks`.
The tables and claims that read it: :mod:`.japkowicz2011_analysis`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import libm
from ..engine.taskmap import map_tasks
from ..partition import SCV
from ..stats import (
    combined_ftest_5x2cv,
    corrected_repeated_kfold_ttest,
    mcnemar,
    paired_ttest,
    paired_ttest_5x2cv,
    sign_test,
    wilcoxon_signed_rank,
)

# --------------------------------------------------------------------------- the simulation

SIM_TESTS = ("t-test, 10 folds (df 9)", "t-test, 10 x 10 folds (naive)", "corrected t-test, 10 x 10",
             "5x2cv t-test", "5x2cv F-test", "McNemar (10-fold predictions)", "sign test, 10 folds",
             "Wilcoxon, 10 folds (normal approximation)")
SIM_FEATURES = 2          # features per block
SIM_SEPARATION_A = 1.0    # class-mean separation of block A's features (in standard deviations)


def _sim_sample(n, separation_b, rng):
    """n examples: balanced classes, block A (separation 1) then block B (``separation_b``)."""
    y = rng.permutation(np.arange(n) % 2)
    sign = 2 * y[:, None] - 1
    A = rng.normal(size=(n, SIM_FEATURES)) + sign * SIM_SEPARATION_A / 2
    B = rng.normal(size=(n, SIM_FEATURES)) + sign * separation_b / 2
    return np.hstack([A, B]), y


def gaussian_nb_predict(X_train, y_train, X_test) -> np.ndarray:
    """Two-class Gaussian naive Bayes (scikit-learn's ``GaussianNB`` with its default var_smoothing):
    predicted labels. Written out because the simulation fits it hundreds of thousands of times; tested
    equal to ``GaussianNB``. Not the library's NB: ``WekaNaiveBayes(kernel=False)`` is WEKA's (values
    rounded to a precision, Laplace prior), measured on the same data and folds: 0.61 % of the predictions
    and 165 of 400 CV accuracies differ (by up to 0.04), at 97 times the time (71 against 0.73 ms a CV)."""
    eps = 1e-9 * X_train.var(axis=0).max()
    scores = []
    for c in (0, 1):
        Xc = X_train[y_train == c]
        mu, var = Xc.mean(axis=0), Xc.var(axis=0) + eps
        log_prior = libm.log(len(Xc) / len(X_train))
        scores.append(log_prior - 0.5 * np.sum(libm.log(2 * np.pi * var)) - 0.5 * (((X_test - mu) ** 2) / var).sum(1))
    return (scores[1] > scores[0]).astype(int)


def gaussian_nb_cv(X, y, fold, k) -> np.ndarray:
    """Out-of-fold predictions of :func:`gaussian_nb_predict` for every fold of one k-fold assignment at
    once (training statistics = all rows minus the fold's, from per-fold sums); equal to calling it per fold."""
    n, d = X.shape
    F = np.zeros((k, n))
    F[fold, np.arange(n)] = 1.0
    Y = np.stack([y == 0, y == 1]).astype(float)                          # 2 x n
    cnt = (F[:, None, :] * Y[None]).sum(-1)                               # k x 2: rows of class c in fold f
    s1 = np.einsum("fn,cn,nd->fcd", F, Y, X)
    s2 = np.einsum("fn,cn,nd->fcd", F, Y, X * X)
    n_tr = cnt.sum(0)[None] - cnt                                         # k x 2
    m1 = (s1.sum(0)[None] - s1) / n_tr[..., None]
    var = (s2.sum(0)[None] - s2) / n_tr[..., None] - m1 ** 2
    t1, t2 = s1.sum(1), s2.sum(1)                                         # per fold, both classes
    all_n = n_tr.sum(1)[:, None]
    overall = ((t2.sum(0)[None] - t2) / all_n) - ((t1.sum(0)[None] - t1) / all_n) ** 2
    var = var + 1e-9 * overall.max(axis=1)[:, None, None]
    log_prior = libm.log(n_tr / all_n)
    log_var = libm.log(2 * np.pi * var).sum(-1)                           # k x 2
    mu, v = m1[fold], var[fold]                                           # n x 2 x d
    ll = log_prior[fold] - 0.5 * log_var[fold] - 0.5 * (((X[:, None, :] - mu) ** 2) / v).sum(-1)
    return (ll[:, 1] > ll[:, 0]).astype(int)


def _sim_cv(X, y, k, runs, rng):
    """Per run and fold: the accuracies of A and B (runs x k each), and the first run's correctness per row."""
    acc = np.empty((2, runs, k))
    first = None
    for r in range(runs):
        fold = SCV(k, random_state=rng).fold_ids(None, y)
        sizes = np.bincount(fold, minlength=k)
        right = [gaussian_nb_cv(X[:, cols], y, fold, k) == y
                 for cols in (slice(0, SIM_FEATURES), slice(SIM_FEATURES, None))]
        for j in (0, 1):
            acc[j, r] = np.bincount(fold, weights=right[j], minlength=k) / sizes
        if first is None:
            first = right
    return acc, first


def _sim_pvalues(X, y, rng) -> dict:
    """p-values of every simulated test for one data set (A better than B is the alternative's direction)."""
    (a10, b10), (right_a, right_b) = _sim_cv(X, y, 10, 10, rng)
    (a2, b2), _ = _sim_cv(X, y, 2, 5, rng)
    out = {}

    def p(f):
        try:
            return float(f().pvalue)
        except ValueError:          # zero variance: no evidence of a difference
            return 1.0

    out[SIM_TESTS[0]] = p(lambda: paired_ttest(a10[0], b10[0]))
    out[SIM_TESTS[1]] = p(lambda: paired_ttest(a10.ravel(), b10.ravel()))
    out[SIM_TESTS[2]] = p(lambda: corrected_repeated_kfold_ttest(a10, b10, 10))
    out[SIM_TESTS[3]] = p(lambda: paired_ttest_5x2cv(a2, b2))
    out[SIM_TESTS[4]] = p(lambda: combined_ftest_5x2cv(a2, b2))
    out[SIM_TESTS[5]] = mcnemar(np.array([[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                                          [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]])).pvalue
    out[SIM_TESTS[6]] = p(lambda: sign_test(a10[0], b10[0]))
    # normal approximation: tied fold accuracies send scipy's exact method to a 1,024-pairing permutation test
    out[SIM_TESTS[7]] = p(lambda: wilcoxon_signed_rank(a10[0], b10[0], method="asymptotic"))
    out["difference (10 x 10 CV)"] = float(a10.mean() - b10.mean())
    return out


def simulation_chunk(separation_b, start, stop, n, seed) -> pd.DataFrame:
    """p-values of every simulated test on data sets ``start..stop-1`` of size ``n`` (block B's separation
    ``separation_b``), each seeded by its own index."""
    rows = []
    for r in range(start, stop):
        rng = np.random.default_rng([seed, int(round(separation_b * 1000)), n, r])
        X, y = _sim_sample(n, separation_b, rng)
        rows.append({"separation_b": separation_b, "replication": r, **_sim_pvalues(X, y, rng)})
    return pd.DataFrame(rows)


def simulation_truth(separation_b, n_train, samples, seed) -> dict:
    """True accuracies of A and B trained on ``n_train`` examples: mean over ``samples`` training sets, each
    scored on 20,000 fresh examples."""
    rng = np.random.default_rng([seed, int(round(separation_b * 1000)), n_train, 999_999])
    acc = np.empty((samples, 2))
    for i in range(samples):
        X, y = _sim_sample(n_train, separation_b, rng)
        Xt, yt = _sim_sample(20_000, separation_b, rng)
        acc[i] = (np.mean(gaussian_nb_predict(X[:, :SIM_FEATURES], y, Xt[:, :SIM_FEATURES]) == yt),
                  np.mean(gaussian_nb_predict(X[:, SIM_FEATURES:], y, Xt[:, SIM_FEATURES:]) == yt))
    d = acc[:, 0] - acc[:, 1]
    return {"separation_b": separation_b, "accuracy A": acc[:, 0].mean(), "accuracy B": acc[:, 1].mean(),
            "true difference": 0.0 if separation_b == SIM_SEPARATION_A else d.mean(),
            "Monte Carlo se": d.std(ddof=1) / np.sqrt(samples)}


def _simulation_truth_task(separation_b, n_train, samples, seed) -> pd.DataFrame:
    return pd.DataFrame([simulation_truth(separation_b, n_train, samples, seed)])


def simulate(params, engine) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(p-values of every simulated data set, true accuracies per separation) at ``params``, through the task
    map (``engine``: the keyword arguments of :func:`~cvrepro.engine.map_tasks`)."""
    reps, n, seed = params["sim_replications"], params["sim_n"], params["seed"]
    chunk = 50
    tasks = [dict(separation_b=sep, start=s, stop=min(s + chunk, reps), n=n, seed=seed)
             for sep in params["sim_separations"] for s in range(0, reps, chunk)]
    parts = map_tasks(simulation_chunk, tasks, **engine, desc="simulated data sets")
    truth = map_tasks(_simulation_truth_task, [dict(separation_b=sep, n_train=int(n * 0.9),
                                                    samples=params["sim_truth_samples"], seed=seed)
                                               for sep in params["sim_separations"]], **engine,
                      desc="simulation truths")
    return pd.concat(parts, ignore_index=True), pd.concat(truth, ignore_index=True)
