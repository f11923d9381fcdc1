"""Effect size, permutation test, bootstrap estimates and the CD diagram."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from mlxtend.evaluate import bootstrap_point632_score  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.model_selection import StratifiedKFold, permutation_test_score  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from cvrepro.stats import (  # noqa: E402
    average_ranks,
    bootstrap_error,
    cd_diagram,
    cliques,
    cohens_d,
    critical_difference,
    label_permutation_test,
    plot_critical_difference,
)


@pytest.mark.parametrize("seed", range(5))
def test_cohens_d_against_t_statistics(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0.8, 0.05, 12), rng.normal(0.78, 0.05, 12)
    # Independent samples: t = d sqrt(n_a n_b / (n_a + n_b)).
    t = stats.ttest_ind(a, b).statistic
    assert cohens_d(a, b) == pytest.approx(t / np.sqrt(12 * 12 / 24))
    # Paired: t = d_z sqrt(n).
    assert cohens_d(a, b, paired_samples=True) == pytest.approx(stats.ttest_rel(a, b).statistic / np.sqrt(12))


def test_cohens_d_unequal_sizes_by_hand():
    # means 2.5 and 5; variances 5/3 and 1; pooled = (3 * 5/3 + 2 * 1) / 5 = 1.4
    assert cohens_d([1, 2, 3, 4], [4, 5, 6]) == pytest.approx(-2.5 / np.sqrt(1.4))


@pytest.fixture(scope="module")
def small_data():
    return make_classification(n_samples=80, n_features=5, n_informative=3, random_state=0)


def test_permutation_test_wraps_scikit_learn(small_data):
    X, y = small_data
    est, cv = KNeighborsClassifier(3), StratifiedKFold(3)
    res = label_permutation_test(est, X, y, cv=cv, n_permutations=19, random_state=0)
    score, perm, p = permutation_test_score(est, X, y, cv=cv, n_permutations=19, random_state=0)
    assert (res.statistic, res.pvalue) == (score, p)
    np.testing.assert_array_equal(res.permutation_scores, perm)
    assert res.pvalue == (np.sum(perm >= score) + 1) / 20
    assert res.pvalue == 1 / 20  # a real signal beats every permutation


def test_bootstrap_e0_matches_mlxtend_out_of_bag(small_data):
    X, y = small_data
    est = KNeighborsClassifier(3)
    ours = bootstrap_error(est, X, y, n_bootstrap=25, random_state=3)
    ref = bootstrap_point632_score(est, X, y, n_splits=25, method="oob", random_seed=3)
    np.testing.assert_allclose(ours.oob_errors, 1 - ref)
    assert ours.e0 == pytest.approx(np.mean(1 - ref))


def test_bootstrap_632_and_632_plus_formulas(small_data):
    X, y = small_data
    res = bootstrap_error(KNeighborsClassifier(1), X, y, n_bootstrap=25, random_state=0)
    assert res.resubstitution == 0.0  # 1-NN recalls its training data
    assert res.e632 == pytest.approx(0.632 * res.e0)
    p = np.bincount(y) / y.size
    q = np.bincount(KNeighborsClassifier(1).fit(X, y).predict(X)) / y.size
    gamma = np.sum(p * (1 - q))
    assert res.no_information == pytest.approx(gamma)
    r = min(res.e0, gamma) / gamma
    assert res.relative_overfitting == pytest.approx(r)
    w = 0.632 / (1 - 0.368 * r)
    assert res.e632_plus == pytest.approx(w * min(res.e0, gamma))
    assert res.e632 <= res.e632_plus <= res.e0


def test_bootstrap_632_plus_on_noise_is_the_no_information_rate():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), rng.integers(0, 2, 60)
    res = bootstrap_error(DecisionTreeClassifier(random_state=0), X, y, n_bootstrap=30, random_state=0)
    # Overfit to noise: R' close to 1, so .632+ moves from .632 towards gamma.
    assert res.relative_overfitting > 0.8
    assert abs(res.e632_plus - res.no_information) < abs(res.e632 - res.no_information)


def test_cliques():
    ranks = pd.Series({"A": 1.0, "B": 1.5, "C": 2.8, "D": 3.0})
    assert cliques(ranks, 1.0) == [("A", "B"), ("C", "D")]
    assert cliques(pd.Series({"A": 1.0, "B": 1.8, "C": 2.6}), 1.0) == [("A", "B"), ("B", "C")]
    assert cliques(ranks, 0.1) == []
    assert cliques(ranks, 5.0) == [("A", "B", "C", "D")]


def test_cd_diagram_draws_names_ranks_and_cd():
    scores = pd.DataFrame(np.random.default_rng(0).normal(size=(10, 4)) + [0, 0.2, 1, 2],
                          columns=["nb", "c45", "knn", "svm"])
    ax = cd_diagram(scores, alpha=0.1)
    texts = [t.get_text() for t in ax.texts]
    assert any(t.startswith("CD = ") for t in texts)
    for name in scores.columns:
        assert any(t.startswith(name + " (") for t in texts)
    ranks = average_ranks(scores)
    thick = [c for c in ax.collections if c.get_linewidth()[0] == 3]
    assert len(thick) == len(cliques(ranks, critical_difference(4, 10, 0.1))) > 0
    plt.close(ax.figure)
    ax = cd_diagram(scores, test="bonferroni-dunn", control="svm")
    cd = critical_difference(4, 10, 0.05, "bonferroni-dunn")
    xs = ax.collections[-1].get_segments()[0][:, 0]  # the control's +- CD bar
    assert xs.min() == pytest.approx(max(1, ranks["svm"] - cd))
    assert xs.max() == pytest.approx(min(4, ranks["svm"] + cd))
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="control"):
        cd_diagram(scores, test="bonferroni-dunn")
    with pytest.raises(ValueError, match="control 'x'"):
        plot_critical_difference(pd.Series({"a": 1.0, "b": 2.0}), 0.5, control="x")
