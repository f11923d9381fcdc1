"""Every learner of a study runs on every shipped data set of that study.

Run on a stratified sample of at most 80 instances per data set (all
attributes, declared values and classes kept), so the whole grid stays fast;
the bench runs the full sizes.
"""
import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from cvrepro.datasets import list_datasets, load_dataset
from cvrepro.learners import make_learner

STUDY_LEARNERS = {
    "raeder2010": ["C4.5", "HDDT", "NB", "MLP", "5-NN", "SMO"],
    "moreno_torres2012": ["1NN", "3NN", "C4.5", "LDA", "PART", "RIPPER", "SVM", "PDFC"],   # FURIA = RIPPER
    "vanwinckelen2012": ["NB", "4NN", "10NN", "LR", "DT", "RF"],
    "japkowicz2011": ["NB-normal", "C4.5", "IBk-3", "RIPPER", "SMO", "Bagging", "Boosting", "RF"],
}


def _datasets(study):
    table = list_datasets()
    return sorted(table.loc[table["studies"].str.contains(study, regex=False), "name"])


def _sample(ds, n=80):
    if len(ds.y) <= n:
        return ds.X, ds.y
    counts = ds.y.value_counts()
    keep = ds.y.isin(counts[counts >= 2].index).to_numpy()
    X, y = ds.X[keep], ds.y[keep]
    Xs, _, ys, _ = train_test_split(X, y, train_size=n, stratify=y, random_state=0)
    return Xs, ys


CASES = [(study, name) for study in STUDY_LEARNERS for name in _datasets(study)]


@pytest.mark.parametrize("study,dataset", CASES, ids=[f"{s}-{d}" for s, d in CASES])
def test_learners_run_on_study_datasets(study, dataset):
    X, y = _sample(load_dataset(dataset))
    half = len(y) // 2
    for learner in STUDY_LEARNERS[study]:
        model = make_learner(learner, random_state=0).fit(X.iloc[:half], y.iloc[:half])
        P = model.predict_proba(X.iloc[half:])
        assert P.shape == (len(y) - half, len(model.classes_)), learner
        assert np.all(np.isfinite(P)) and np.all(P >= 0) and np.all(P.sum(axis=1) <= 1 + 1e-9), learner
        assert set(model.predict(X.iloc[half:])) <= set(model.classes_), learner
