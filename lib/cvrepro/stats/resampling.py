"""Effect size, the label-permutation test of a CV score, and bootstrap error
estimates (e0, .632, .632+)."""
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import permutation_test_score
from sklearn.utils import check_random_state

from ..progress import progress_bar
from ._checks import as_scores, paired


def cohens_d(scores_a, scores_b, paired_samples=False):
    """Cohen's d: mean difference in standard-deviation units.

    Independent samples: ``(mean_a - mean_b) / s_pooled`` with
    ``s_pooled^2 = ((n_a - 1) s_a^2 + (n_b - 1) s_b^2) / (n_a + n_b - 2)``.
    ``paired_samples=True`` (the same folds or data sets): ``mean(d) / sd(d)``
    of the differences d = a - b (often written d_z).  Zero spread is a
    ``ValueError``.
    """
    if paired_samples:
        a, b = paired(scores_a, scores_b)
        d = a - b
        sd = d.std(ddof=1)
        diff = d.mean()
    else:
        a = as_scores(scores_a, "scores_a", min_size=2)
        b = as_scores(scores_b, "scores_b", min_size=2)
        pooled = ((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1)) / (a.size + b.size - 2)
        sd = np.sqrt(pooled)
        diff = a.mean() - b.mean()
    if sd <= 0:
        raise ValueError("the scores have zero spread: Cohen's d is undefined")
    return float(diff / sd)


@dataclass(frozen=True)
class PermutationTestResult:
    """statistic: the CV score on the true labels; pvalue: (C + 1) /
    (n_permutations + 1), C = permutations scoring at least as well;
    permutation_scores: CV scores on permuted labels."""
    statistic: float
    pvalue: float
    permutation_scores: np.ndarray
    n_permutations: int


def label_permutation_test(estimator, X, y, cv=None, n_permutations=100, scoring=None,
                           groups=None, random_state=None, n_jobs=None, progress=True):
    """Is a cross-validated score better than on label-permuted ("bogus") data?

    A thin wrapper of scikit-learn's ``permutation_test_score`` (Ojala &
    Garriga 2010).  The Japkowicz tutorial describes bogus data as labels
    randomly left or switched; permuting the labels keeps the class
    distribution, which is the standard form of this test.

    ``progress`` shows a bar (:mod:`cvrepro.progress`) for runs longer than a
    few seconds: the permutations then go through ``permutation_test_score``
    in up to ten parts drawing from one random generator, which gives the
    same permutations, scores and p-value as a single call; each part also
    scores the true labels (at most ten extra CV runs, 10 % of the default
    100 permutations).
    """
    if n_permutations < 1:
        raise ValueError(f"n_permutations must be >= 1, got {n_permutations}")
    if not progress:
        score, perm, p = permutation_test_score(
            estimator, X, y, groups=groups, cv=cv, n_permutations=n_permutations,
            scoring=scoring, random_state=random_state, n_jobs=n_jobs)
        return PermutationTestResult(float(score), float(p), np.asarray(perm), n_permutations)
    rng = check_random_state(random_state)   # one generator: parts draw what one call would
    part = max(10, -(-n_permutations // 10))
    score, scores = None, []
    with progress_bar(total=n_permutations, desc="permutation test", unit="perm") as bar:
        while len(scores) < n_permutations:
            m = min(part, n_permutations - len(scores))
            s, perm, _ = permutation_test_score(
                estimator, X, y, groups=groups, cv=cv, n_permutations=m,
                scoring=scoring, random_state=rng, n_jobs=n_jobs)
            score = s if score is None else score
            scores.extend(np.atleast_1d(perm))
            bar.update(m)
    scores = np.asarray(scores)
    pvalue = (np.sum(scores >= score) + 1.0) / (n_permutations + 1)
    return PermutationTestResult(float(score), float(pvalue), scores, n_permutations)


@dataclass(frozen=True)
class BootstrapResult:
    """Error-rate estimates.  e0: mean out-of-bag error over the bootstrap
    samples; resubstitution: training error of the model fit on all data;
    e632 = 0.368 resubstitution + 0.632 e0; e632_plus: Efron & Tibshirani's
    .632+; no_information: their gamma; relative_overfitting: their R';
    oob_errors: the per-sample out-of-bag errors."""
    e0: float
    e632: float
    e632_plus: float
    resubstitution: float
    no_information: float
    relative_overfitting: float
    oob_errors: np.ndarray


def _take(data, idx):
    return data.iloc[idx] if hasattr(data, "iloc") else data[idx]


def bootstrap_error(estimator, X, y, n_bootstrap=200, random_state=None, progress=True):
    """Bootstrap estimates of the misclassification error: e0, .632 and .632+.

    Each of ``n_bootstrap`` samples draws n indices with replacement
    (``RandomState.randint(0, n, n)``, the draws mlxtend's
    ``BootstrapOutOfBag`` makes for the same integer seed), fits a clone of
    ``estimator`` and measures its error on the instances not drawn.  e0 is the
    mean of these per-sample errors, as in the Japkowicz tutorial's ``e0Boot``
    (Efron & Tibshirani's Err(1) averages per instance instead: a deviation);
    a sample that leaves no instance out (possible only for tiny n) is skipped.
    The resubstitution error is that of the model fit on all data (Efron
    1983; mlxtend instead uses each bootstrap model's error on all data).
    .632+ (Efron & Tibshirani 1997): gamma = sum_k p_k (1 - q_k) from the
    class proportions p_k and the full-data model's prediction proportions
    q_k; then :func:`efron_632_plus` (their eqs. 30-32).  ``progress`` shows a bar over the
    samples when they take more than a few seconds (:mod:`cvrepro.progress`).
    """
    y_arr = np.asarray(y)
    n = y_arr.shape[0]
    if n < 2 or (hasattr(X, "shape") and X.shape[0] != n):
        raise ValueError(f"X and y must have the same number (>= 2) of rows, got {n} labels")
    if n_bootstrap < 1:
        raise ValueError(f"n_bootstrap must be >= 1, got {n_bootstrap}")
    rng = check_random_state(random_state)
    errors = []
    for _ in progress_bar(range(n_bootstrap), desc="bootstrap", unit="sample", enabled=progress):
        train = rng.randint(0, n, n)
        test = np.setdiff1d(np.arange(n), train)
        if test.size == 0:
            continue
        model = clone(estimator).fit(_take(X, train), y_arr[train])
        errors.append(np.mean(model.predict(_take(X, test)) != y_arr[test]))
    if not errors:
        raise ValueError("no bootstrap sample left any instance out of bag")
    e0 = float(np.mean(errors))
    full_pred = clone(estimator).fit(X, y_arr).predict(X)
    err = float(np.mean(full_pred != y_arr))
    classes = np.unique(np.concatenate([y_arr, full_pred]))
    p = np.array([np.mean(y_arr == c) for c in classes])
    q = np.array([np.mean(full_pred == c) for c in classes])
    gamma = float(np.sum(p * (1 - q)))
    plus, r = efron_632_plus(err, e0, gamma)
    return BootstrapResult(e0, 0.368 * err + 0.632 * e0, plus, err, gamma, r, np.asarray(errors))


def efron_632_plus(err, err1, gamma):
    """Efron & Tibshirani's (1997) .632+ estimate and its R', eqs. 30-32.

    ``err``: resubstitution error; ``err1``: the bootstrap out-of-bag error;
    ``gamma``: the no-information error rate.  ``err1' = min(err1, gamma)``;
    ``R' = (err1' - err) / (gamma - err)`` if err1 > err and gamma > err,
    else 0 (so 0 <= R' <= 1); the estimate is
    ``Err(.632) + (err1' - err) 0.368 0.632 R' / (1 - 0.368 R')`` with
    ``Err(.632) = 0.368 err + 0.632 err1``.  When err1 > gamma it is Err(.632)
    plus the increment, not gamma (eq. 32 keeps the unclipped err1 in
    Err(.632)).  Returns ``(estimate, R')``.
    """
    err1_prime = min(err1, gamma)
    r = (err1_prime - err) / (gamma - err) if err1 > err and gamma > err else 0.0
    e632 = 0.368 * err + 0.632 * err1
    return float(e632 + (err1_prime - err) * 0.368 * 0.632 * r / (1 - 0.368 * r)), float(r)
