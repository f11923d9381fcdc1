"""PART against WEKA 3.6.14's printed decision lists (``weka.classifiers.rules.PART -t file.arff``)."""
import numpy as np
import pytest

from cvrepro.datasets import load_dataset
from cvrepro.learners.part import PART

WEKA_PART = {
    "weather-nominal": """
outlook = overcast: yes (4.0)

humidity = high: no (5.0/1.0)

: yes (5.0/1.0)

Number of Rules  : \t3
""",
    # numeric tests, missing values (fractional weights carried from rule to rule)
    "labor": """
wage-increase-first-year > 2.5 AND
longterm-disability-assistance = yes AND
statutory-holidays > 10: good (25.67)

wage-increase-first-year <= 4 AND
working-hours > 36: bad (19.4/1.58)

: good (11.93/2.18)

Number of Rules  : \t3
""",
}


@pytest.mark.parametrize("name", sorted(WEKA_PART))
def test_part_reproduces_weka_rules(name):
    ds = load_dataset(name)
    assert PART().fit(ds.X, ds.y).to_text().strip() == WEKA_PART[name].strip()


def test_part_decision_list_semantics():
    ds = load_dataset("weather-nominal")
    model = PART().fit(ds.X, ds.y)
    P = model.predict_proba(ds.X)
    assert P.sum(axis=1) == pytest.approx(1.0)
    overcast = (ds.X["outlook"] == "overcast").to_numpy()
    assert np.all(model.predict(ds.X)[overcast] == "yes")
    # first rule covers overcast rows completely: their distribution is the rule's leaf (4 yes / 0 no)
    yes = list(model.classes_).index("yes")
    assert P[overcast, yes] == pytest.approx(1.0)
    # a row matching no earlier rule falls to the default rule: yes (5.0/1.0) -> 4/5
    row = ds.X.iloc[[0]].copy()
    row.loc[row.index[0], ["outlook", "humidity"]] = ["sunny", "normal"]
    assert model.predict_proba(row)[0, yes] == pytest.approx(4 / 5)
