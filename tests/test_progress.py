"""Progress bars: few whole lines where output is captured (papermill without widgets, logs), one
widget that follows a growing total in Jupyter, nothing for short work."""
import functools
import io
import sys

import numpy as np
import pytest

from cvrepro.progress import display_mode, progress_bar


class Clock:
    """A tqdm time source moved by hand: bars see long work without the test waiting."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def lines_of(text):
    return [line for line in text.replace("\r", "\n").split("\n") if line.strip()]


def test_not_a_terminal_means_lines():
    assert display_mode(io.StringIO()) == "lines"


@pytest.mark.parametrize("n", [10, 7380, 100_000])
def test_a_long_loop_prints_a_handful_of_lines_when_output_is_captured(n, monkeypatch):
    """Under papermill-like conditions (a stream that keeps every write, no widgets) a loop of n
    steps prints at most 6 lines (first, quarters, last), however long it is."""
    clock = Clock()
    out = io.StringIO()
    bar = progress_bar(total=n, desc="tasks", file=out, delay=2.0)
    bar._time = clock
    bar.start_t = bar.last_print_t = clock.now
    for _ in range(n):
        clock.now += 3600 / n     # an hour of work
        bar.update()
    bar.close()
    shown = lines_of(out.getvalue())
    assert 2 <= len(shown) <= 6
    assert shown[-1].startswith("tasks: 100%") and f"{n}/{n}" in shown[-1]
    assert "\r" not in out.getvalue()          # whole lines: a captured stream keeps them readable


def test_short_work_prints_nothing():
    out = io.StringIO()
    for _ in progress_bar(range(1000), file=out, delay=2.0):
        pass
    assert out.getvalue() == ""
    bar = progress_bar(total=0, file=out)      # as the engine does: total grows, explicit refreshes
    bar.total += 5
    bar.refresh()
    bar.update(5)
    bar.close()
    assert out.getvalue() == ""


def test_a_growing_total_keeps_lines_few():
    clock = Clock()
    out = io.StringIO()
    bar = progress_bar(total=0, file=out, delay=0.5, unit="task")
    bar._time = clock
    bar.start_t = bar.last_print_t = clock.now
    for _ in range(20):                        # 20 rounds of a stopping rule, each adds tasks
        bar.total += 50
        bar.refresh()
        for _ in range(50):
            clock.now += 0.1
            bar.update()
    bar.close()
    assert 2 <= len(lines_of(out.getvalue())) <= 6


def test_disabled_and_off():
    out = io.StringIO()
    for _ in progress_bar(range(10), file=out, enabled=False, delay=0):
        pass
    for _ in progress_bar(range(10), file=out, mode="off", delay=0):
        pass
    assert out.getvalue() == ""
    with pytest.raises(ValueError, match="mode must be one of"):
        progress_bar(range(3), mode="fancy")


def test_widget_bar_follows_a_growing_total(capsys):
    bar = progress_bar(total=0, mode="widget", delay=0, desc="cross-validation")
    bar.total += 40
    bar.refresh()
    bar.update(10)
    bar.refresh()
    assert bar.container.children[1].max == 40 and bar.container.children[1].value == 10
    bar.update(30)
    bar.close()
    assert bar.container.children[1].bar_style == "success"


def test_the_engine_prints_few_lines_to_a_captured_stream(monkeypatch):
    """run_cv's bar with stderr captured as papermill does (not a terminal, no widgets; the bar's
    2-second delay set to 0 so that the short run shows): a few whole lines for 20 tasks."""
    from sklearn.naive_bayes import GaussianNB

    import cvrepro.runner as runner

    captured = io.StringIO()
    monkeypatch.setattr(sys, "stderr", captured)
    monkeypatch.setattr(runner, "progress_bar", functools.partial(progress_bar, delay=0))
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), np.repeat([0, 1], 20)
    runner.run_cv([("toy", X, y)], {"nb": GaussianNB()}, folds=(2, 3), iterations=10, batch_size=1)
    shown = lines_of(captured.getvalue())
    assert 2 <= len(shown) <= 6, shown
    assert all(line.startswith("cross-validation:") for line in shown)
    assert "20/20" in shown[-1]


# --------------------------------------------------------------------------- library loops
def test_permutation_test_in_parts_equals_one_call():
    """With a bar, the permutations run in parts from one generator: same scores and p-value."""
    from sklearn.datasets import make_classification
    from sklearn.model_selection import GroupKFold, StratifiedKFold, permutation_test_score
    from sklearn.neighbors import KNeighborsClassifier

    from cvrepro.stats import label_permutation_test

    X, y = make_classification(n_samples=60, n_features=4, n_informative=2, random_state=1)
    groups = np.repeat(np.arange(3), 20)
    for kw, cv in (({}, StratifiedKFold(3)), ({"groups": groups}, GroupKFold(3))):
        est = KNeighborsClassifier(3)
        res = label_permutation_test(est, X, y, cv=cv, n_permutations=25, random_state=4, **kw)
        score, perm, p = permutation_test_score(est, X, y, cv=cv, n_permutations=25, random_state=4, **kw)
        assert (res.statistic, res.pvalue) == (score, p)
        np.testing.assert_array_equal(res.permutation_scores, perm)


def test_library_loops_report_progress(monkeypatch):
    from sklearn.tree import DecisionTreeClassifier

    import cvrepro.convergence as conv
    import cvrepro.stats.resampling as resampling

    bars = []

    def recording(iterable=None, **kw):
        bars.append((kw.get("desc"), kw.get("total") or len(iterable), kw.get("enabled", True)))
        return progress_bar(iterable, **kw)

    monkeypatch.setattr(resampling, "progress_bar", recording)
    monkeypatch.setattr(conv, "progress_bar", recording)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 2)), np.repeat([0, 1], 15)
    resampling.bootstrap_error(DecisionTreeClassifier(random_state=0), X, y, n_bootstrap=7, random_state=0)
    resampling.label_permutation_test(DecisionTreeClassifier(random_state=0), X, y, cv=3, n_permutations=12)
    conv.replay_orderings(conv.FixedIterations(5), rng.normal(size=20), n_orderings=9, random_state=0,
                          progress=False)
    assert bars == [("bootstrap", 7, True), ("permutation test", 12, True), ("stopping-rule replays", 9, False)]
