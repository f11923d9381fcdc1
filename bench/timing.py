"""Helpers shared by the learner benchmarks: a median fit + predict time, and the numeric
matrix scikit-learn's learners get."""
import time

import numpy as np
import pandas as pd


def timed(make, Xtr, ytr, Xte, repeats, method="predict"):
    """Median seconds over ``repeats`` of ``make()`` fitted on (Xtr, ytr) then ``method``(Xte)."""
    times = []
    for _ in range(repeats):
        model = make()
        t = time.perf_counter()
        model.fit(Xtr, ytr)
        getattr(model, method)(Xte)
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def numeric_matrix(X):
    """``X`` as numbers for scikit-learn: nominal attributes one-hot coded, missing values the mean."""
    Z = pd.get_dummies(X, dummy_na=False).astype(float)
    return Z.fillna(Z.mean()).to_numpy()
