"""Learners of the studies, by the names the papers use.

``make_learner(name, random_state=None)`` returns a fresh scikit-learn
estimator; ``list_learners()`` tells, per name, what it is, which study uses
it, and whether it is faithful to the study's tool or a stand-in.

Every learner takes the catalog's frames (nominal attributes as pandas
categoricals, NaN for missing values) or plain numeric arrays.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..studies import STUDY_IDS
from .compiler import prefer_wide_vectors

prefer_wide_vectors()                 # before any learner module imports numba

__all__ = ["make_learner", "list_learners", "LEARNERS"]

RAEDER, MORENO, VANW, JAPK, SCHEFFER = STUDY_IDS


@dataclass(frozen=True)
class LearnerSpec:
    name: str
    description: str
    studies: tuple
    status: str          # "faithful" or "stand-in"
    note: str
    factory: Callable


def _c45(rs):
    from .tree import C45
    return C45()


def _hddt(rs):
    from .tree import HDDT
    return HDDT()


def _nb_kernel(rs):
    from .naive_bayes import WekaNaiveBayes
    return WekaNaiveBayes(kernel=True)


def _nb_normal(rs):
    from .naive_bayes import WekaNaiveBayes
    return WekaNaiveBayes(kernel=False)


def _knn(k):
    def make(rs):
        from .knn import IBk
        return IBk(k=k)
    return make


def _smo(rs):
    from .smo import SMO
    return SMO()                       # WEKA's default seed -W 1, as the studies ran it


def _mlp(rs):
    from .mlp import WekaMLP
    return WekaMLP(hidden_layers="3")   # WEKA's default seed -S 0, as the studies ran it


def _part(rs):
    from .part import PART
    return PART()


# --- KEEL's rule learners (keelb: cvrepro.learners.keel_ripper, furia) ---------------------------
def _keel_ripper(rs):
    from .keel_ripper import KeelRipper
    return KeelRipper()                # KEEL's experiment seed, as the study ran it


def _furia(rs):
    from .furia import FURIA
    return FURIA()                     # KEEL's experiment seed, as the study ran it


_KEEL_SEED_NOTE = ("seed 1286082570, the first seed KEEL's experiment generator hands a method (set seed=... to "
                   "vary it)")
# --- end of KEEL's rule learners ----------------------------------------------------------------


def _wrapped(make_estimator, normalize=False):
    def make(rs):
        from .wrapped import Wrapped
        return Wrapped(make_estimator(), normalize=normalize, random_state=rs)
    return make


def _lr():
    from sklearn.linear_model import LogisticRegression
    return LogisticRegression(C=1e8, max_iter=2000)     # WEKA Logistic: ridge 1e-8


def _rf():
    from sklearn.ensemble import RandomForestClassifier
    return RandomForestClassifier(n_estimators=10, max_features="log2")


def _bagging():
    from sklearn.ensemble import BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier
    return BaggingClassifier(DecisionTreeClassifier(), n_estimators=10)


def _boosting(rs):
    from .boosting import AdaBoostM1
    return AdaBoostM1()


# --- KEEL's learners, as Moreno-Torres et al. ran them (cvrepro.learners.keel_*) ---------------
def _keel_knn(k):
    def make(rs):
        from .keel_knn import KeelKNN
        return KeelKNN(k=k)
    return make


def _keel_lda(rs):
    from .keel_lda import KeelLDA
    return KeelLDA()


def _keel_svm(rs):
    from .keel_svm import KeelSVM
    return KeelSVM(random_state=rs)


def _keel_pdfc(rs):
    from .pdfc import PDFC
    return PDFC(random_state=rs)


_KEEL_NOTE = ("KEEL's reader: pass bounds=keel_bounds(whole data set) to reproduce KEEL's partitions "
              "(whole-data ranges in every fold); default: the training fold's ranges")
# --- end of KEEL's learners ---------------------------------------------------------------------


_SPECS = [
    LearnerSpec("C4.5", "C4.5 decision tree as WEKA J48 (CF 0.25, minNumObj 2, subtree raising)",
                (RAEDER, MORENO, JAPK, VANW), "faithful", "own implementation of J48 (same trees as WEKA "
                "3.6.14); KEEL's C4.5 (Moreno-Torres) is another port of C4.5 release 8", _c45),
    LearnerSpec("HDDT", "Hellinger distance decision tree (unpruned, Laplace leaves)",
                (RAEDER,), "faithful", "own implementation; choices documented in cvrepro.learners.tree.HDDT", _hddt),
    LearnerSpec("NB", "naive Bayes with kernel density estimates (WEKA NaiveBayes -K)",
                (RAEDER, VANW), "faithful", "own implementation of WEKA's KernelEstimator; Vanwinckelen & "
                "Blockeel do not name their NB (NB-normal is WEKA's default)", _nb_kernel),
    LearnerSpec("NB-normal", "naive Bayes with normal densities (WEKA NaiveBayes default)",
                (JAPK,), "faithful", "the tutorial used WEKA defaults, i.e. this NB", _nb_normal),
    LearnerSpec("MLP", "multilayer perceptron, WEKA -H 3 (one hidden layer of 3 sigmoid units)",
                (RAEDER,), "faithful", "own implementation of WEKA MultilayerPerceptron with its default "
                "seed -S 0 (set WekaMLP(random_state=...) to vary it)", _mlp),
    LearnerSpec("SMO", "linear SVM, C=1, [0,1]-normalised, hard vote (WEKA SMO defaults)",
                (RAEDER, JAPK), "faithful", "own implementation of WEKA's SMO, solver included (same weights)", _smo),
    LearnerSpec("IBk-1", "IBk with k=1 (WEKA)", (), "faithful", "WEKA IBk semantics", _knn(1)),
    LearnerSpec("IBk-3", "IBk with k=3 (WEKA IBk -K 3)", (JAPK,), "faithful",
                "WEKA IBk semantics; the tutorial's 3NN (Moreno-Torres's 3NN is KEEL's, name 3NN)", _knn(3)),
    LearnerSpec("4NN", "IBk with k=4", (VANW,), "faithful", "WEKA IBk semantics", _knn(4)),
    LearnerSpec("5-NN", "IBk with k=5", (RAEDER,), "faithful", "WEKA IBk semantics", _knn(5)),
    LearnerSpec("10NN", "IBk with k=10", (VANW,), "faithful", "WEKA IBk semantics", _knn(10)),
    LearnerSpec("PART", "PART rule learner (partial C4.5 trees)", (MORENO,), "faithful",
                "own implementation reusing the C4.5 engine; same rule lists as WEKA 3.6.14's PART "
                "(KEEL's PART, used by Moreno-Torres, is a port of it)", _part),
    LearnerSpec("LR", "logistic regression", (VANW,), "stand-in",
                "scikit-learn LogisticRegression (C=1e8, like WEKA's ridge 1e-8)", _wrapped(_lr, normalize=True)),
    LearnerSpec("RF", "random forest, 10 trees, log2 features", (VANW, JAPK), "stand-in",
                "scikit-learn RandomForest with WEKA 3.6's 10 trees; log2(M) features where WEKA "
                "takes int(log2(M)) + 1, CART trees instead of RandomTree", _wrapped(_rf)),
    LearnerSpec("Bagging", "bagging of 10 trees", (JAPK,), "stand-in",
                "scikit-learn Bagging of CART trees (WEKA: REPTree)", _wrapped(_bagging)),
    LearnerSpec("Boosting", "AdaBoostM1 of 10 decision stumps (WEKA defaults)", (JAPK,), "faithful",
                "own implementation of WEKA AdaBoostM1 with DecisionStump", _boosting),
    # KEEL's learners (Moreno-Torres et al.), checked against KEEL's compiled classes (tests/fixtures/keel)
    LearnerSpec("1NN", "KEEL's KNN, k=1, Euclidean (KNN-C defaults)", (MORENO,), "faithful",
                "own implementation of KEEL's KNN; same classes as compiled KEEL (KNN-C, K Value = 1) on all 1358 test "
                "instances of 14 folds of 8 data sets; " + _KEEL_NOTE, _keel_knn(1)),
    LearnerSpec("3NN", "KEEL's KNN, k=3, Euclidean", (MORENO,), "faithful",
                "own implementation of KEEL's KNN; same classes as compiled KEEL (KNN-C, K Value = 3) on all 1358 test "
                "instances of 14 folds of 8 data sets; " + _KEEL_NOTE, _keel_knn(3)),
    LearnerSpec("LDA", "KEEL's linear discriminant analysis (LDA-C), failures included", (MORENO,), "faithful",
                "own implementation of KEEL's ClassifierADLinear (class 0 for all when KEEL cannot invert the "
                "covariance: crx, mushroom); same classes as compiled KEEL (LDA-C) on all 1440 test "
                "instances of 17 folds of 9 data sets; " + _KEEL_NOTE,
                _keel_lda),
    LearnerSpec("SVM", "KEEL's SMO, Puk kernel (omega=sigma=1), C=100", (MORENO,), "faithful",
                "the SVM set-up that reproduces Moreno-Torres's Table III (KEEL's SMO/C_SVM defaults are "
                "linear: AUC 0.50 on banana vs 0.90); KEEL's dual problem solved by libsvm (solver='keel': "
                "WEKA's steps); same classes as compiled KEEL (SMO-C, Puk, C = 100) on all 546 test instances of 11 "
                "folds of 7 data sets; " + _KEEL_NOTE, _keel_svm),
    LearnerSpec("PDFC", "positive definite fuzzy classifier (KEEL PDFC-C: Gaussian PDRF, d=0.25, C=100)",
                (MORENO,), "faithful",
                "own implementation of KEEL's PDFC; its dual problem solved by libsvm (solver='keel': WEKA's "
                "steps); same classes as compiled KEEL (PDFC-C) on all 638 test instances of 12 folds of 8 "
                "data sets; " + _KEEL_NOTE, _keel_pdfc),
    # KEEL's rule learners (Moreno-Torres et al.), checked against KEEL's compiled classes (tests/fixtures/keel)
    LearnerSpec("RIPPER", "KEEL's Ripper (Ripper-C: grow_pct 0.66, K 2)", (MORENO,), "faithful",
                "own implementation of KEEL's Ripper (not WEKA's JRip); same rule lists and classes as compiled "
                "KEEL (Ripper-C) on all 329 folds compared (31 data sets; 19 folds, 1360 test instances, recorded "
                "as fixtures); " + _KEEL_SEED_NOTE + "; " + _KEEL_NOTE, _keel_ripper),
    LearnerSpec("FURIA", "KEEL's FURIA (FURIA-C: 2 optimisations, 3 folds): fuzzy unordered rules, stretching",
                (MORENO,), "faithful",
                "own implementation of KEEL's FURIA (a port of WEKA's); same fuzzy rules, certainty factors and "
                "classes as compiled KEEL (FURIA-C) on all 179 folds compared (16 data sets; 19 folds, 1360 test "
                "instances, recorded as fixtures); KEEL reads missing values as 0 (first nominal value); "
                + _KEEL_SEED_NOTE + "; " + _KEEL_NOTE, _furia),
]

_ALIASES = {"DT": "C4.5", "J48": "C4.5", "5NN": "5-NN", "1-NN": "1NN", "3-NN": "3NN", "4-NN": "4NN",
            "10-NN": "10NN", "IBk": "IBk-1", "Ripper": "RIPPER"}

LEARNERS = {s.name: s for s in _SPECS}


def _resolve(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"learner name must be a string, got {type(name).__name__}")
    if name in LEARNERS:
        return name
    if name in _ALIASES:
        return _ALIASES[name]
    raise ValueError(f"unknown learner {name!r}; known: {', '.join(list(LEARNERS) + list(_ALIASES))}")


def make_learner(name: str, random_state=None):
    """A fresh, unfitted estimator for the paper name ``name`` (aliases: DT, J48, 5NN, Ripper, ...).

    ``random_state`` seeds the stand-ins that are randomised (RF, Bagging).
    The faithful WEKA learners keep WEKA's default seeds (MLP -S 0, SMO -W 1)
    and KEEL's RIPPER and FURIA KEEL's experiment seed, as the studies ran
    them: their cross-validation seed varied, not the learners'.
    """
    return LEARNERS[_resolve(name)].factory(random_state)


def list_learners() -> pd.DataFrame:
    """One row per learner name: description, studies, faithful/stand-in status, note, aliases."""
    rows = []
    for s in _SPECS:
        aliases = [a for a, t in _ALIASES.items() if t == s.name]
        rows.append({"name": s.name, "description": s.description, "studies": ", ".join(s.studies),
                     "status": s.status, "note": s.note, "aliases": ", ".join(aliases)})
    return pd.DataFrame(rows)
