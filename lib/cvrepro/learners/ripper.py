"""RIPPER stand-in: the ``wittgenstein`` package's RIPPER in JRip's class order.

WEKA's JRip (and KEEL's Ripper) learn rules for the classes in increasing
order of frequency, each against the classes not yet covered, and make the
most frequent class the default. We do the same with wittgenstein's binary
RIPPER (k=2 optimisation rounds, as JRip's default -O 2). This is a stand-in,
not JRip: wittgenstein discretises numeric attributes into (10) bins instead
of searching thresholds, and its pruning and description-length details
differ. Predictions are hard (``predict_proba`` is one-hot), where JRip gives
the firing rule's training frequencies.
"""
from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pandas as pd

from .base import TabularClassifier

__all__ = ["Ripper"]


@contextlib.contextmanager
def _quiet():
    """wittgenstein prints its warnings through ``warnings.showwarning`` directly."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        warnings.showwarning = lambda *args, **kwargs: None      # restored by catch_warnings
        yield


class Ripper(TabularClassifier):
    """RIPPER rule list (wittgenstein), one binary rule set per class in JRip's order."""

    def __init__(self, k=2, random_state=None):
        self.k = k
        self.random_state = random_state

    def _frame(self, X):
        cols = {}
        for j, cats in enumerate(self.schema_.categories):
            if cats is None:
                cols[f"x{j}"] = X[:, j]
            else:
                codes = X[:, j]
                labels = np.array([str(c) for c in cats], dtype=object)
                cols[f"x{j}"] = np.where(np.isnan(codes), None, labels[np.nan_to_num(codes).astype(int)])
        return pd.DataFrame(cols)

    def _fit(self, X, y):
        import wittgenstein as lw

        counts = np.bincount(y, minlength=len(self.classes_))
        present = [c for c in np.argsort(counts, kind="stable") if counts[c] > 0]
        self.default_ = int(present[-1])
        self.models_ = []
        frame = self._frame(X)
        remaining = np.ones(len(y), dtype=bool)
        for c in present[:-1]:
            target = (y[remaining] == c).astype(int)
            model = lw.RIPPER(k=self.k, random_state=self.random_state)
            with _quiet():
                model.fit(frame[remaining].reset_index(drop=True), pd.Series(target, name="_class"), pos_class=1)
            self.models_.append((int(c), model))
            remaining &= y != c

    def _predict_codes(self, X):
        frame = self._frame(X)
        out = np.full(X.shape[0], -1)
        for c, model in self.models_:
            with _quiet():
                fires = np.asarray(model.predict(frame), dtype=bool)
            out[(out < 0) & fires] = c
        out[out < 0] = self.default_
        return out

    def _predict_proba(self, X):
        P = np.zeros((X.shape[0], len(self.classes_)))
        P[np.arange(X.shape[0]), self._predict_codes(X)] = 1.0
        return P
