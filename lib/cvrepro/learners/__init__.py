"""Learners of the studies, by the names the papers use.

``make_learner(name, random_state=None)`` returns a fresh scikit-learn
estimator; ``list_learners()`` tells, per name, what it is, which study uses
it, whether it is faithful to the study's tool or a stand-in, and for the
faithful ones the reference it was checked against and on how many
train/test runs (the recorded reference outputs in ``tests/fixtures/weka``).

Every learner takes the catalog's frames (nominal attributes as pandas
categoricals, NaN for missing values) or plain numeric arrays.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..studies import STUDY_IDS
from .compiler import cache_by_source, prefer_wide_vectors

prefer_wide_vectors()                 # before any learner module imports numba
cache_by_source()                     # before any kernel is decorated

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


def _keel_part(rs):
    from .keel_part import KeelPART
    return KeelPART()                  # PART-C takes no seed


_KEEL_SEED_NOTE = ("seed 1286082570, the first seed KEEL's experiment generator hands a method (set seed=... to "
                   "vary it)")
# --- end of KEEL's rule learners ----------------------------------------------------------------


def _jrip(rs):
    from .jrip import JRip
    return JRip()                      # WEKA's default seed -S 1, as the studies ran it


def _oner(rs):
    from .oner import OneR
    return OneR()


# --- WEKA 3.6 learners added with issue 14 ------------------------------------------------
def _logistic(rs):
    from .logistic import WekaLogistic
    return WekaLogistic()


def _reptree(rs):
    from .reptree import REPTree
    return REPTree()                   # WEKA's default seed -S 1, as the studies ran it


def _random_tree(rs):
    from .random_tree import RandomTree
    return RandomTree()


def _bagging(rs):
    from .bagging import Bagging
    return Bagging()


def _random_forest(rs):
    from .bagging import RandomForest
    return RandomForest()              # 10 trees, the studies' WEKA 3.6 default


def _perceptron(rs):
    from .mlp import WekaMLP
    return WekaMLP(hidden_layers="0")


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
    LearnerSpec("JRip", "RIPPER as WEKA JRip -F 3 -N 2.0 -O 2 -S 1", (JAPK,), "faithful",
                "own implementation of WEKA 3.6.14's JRip (compiled with numba; same rule lists as WEKA)", _jrip),
    LearnerSpec("OneR", "1R, WEKA OneR -B 6", (JAPK,), "faithful",
                "own implementation of WEKA 3.6.14's OneR (the tutorial's changing-environments study)", _oner),
    LearnerSpec("Boosting", "AdaBoostM1 of 10 decision stumps (WEKA defaults)", (JAPK,), "faithful",
                "own implementation of WEKA AdaBoostM1 with DecisionStump", _boosting),
    # --- WEKA 3.6 learners added with issue 14 (Logistic, REPTree, Bagging, RandomTree, RandomForest, Perceptron)
    LearnerSpec("LR", "ridge logistic regression, WEKA Logistic -R 1e-8 -M -1", (VANW,), "faithful",
                "own implementation of WEKA's Logistic, quasi-Newton optimiser included; on (nearly) separable "
                "data the answer is where WEKA's optimiser stops, and a stock JVM's exp/log move it (see "
                "cvrepro.learners.logistic)", _logistic),
    LearnerSpec("RF", "random forest, WEKA RandomForest -I 10 -K 0 -S 1", (VANW, JAPK), "faithful",
                "own implementation of WEKA 3.6.14's RandomForest with the studies' 10 trees (3.6.14's default is "
                "100); K = int(log2(attributes)) + 1 (WEKA <= 3.6.10 counted the class)", _random_forest),
    LearnerSpec("Bagging", "bagging of 10 REPTrees, WEKA Bagging -P 100 -S 1 -I 10", (JAPK,), "faithful",
                "own implementation of WEKA 3.6.14's Bagging and REPTree (bootstrap by Walker's method as 3.6.9+; "
                "the tutorial's 3.6.x drew bags by sorted uniforms)", _bagging),
    LearnerSpec("REPTree", "reduced-error-pruned tree, WEKA REPTree -M 2 -V 0.001 -N 3 -S 1 -L -1", (), "faithful",
                "own implementation of WEKA's REPTree (Bagging's base learner)", _reptree),
    LearnerSpec("RandomTree", "random tree, WEKA RandomTree -K 0 -M 1.0 -S 1", (), "faithful",
                "own implementation of WEKA 3.6.14's RandomTree (RandomForest's base learner)", _random_tree),
    LearnerSpec("Perceptron", "simple perceptron, WEKA MultilayerPerceptron -H 0", (JAPK,), "faithful",
                "WekaMLP without hidden units (the tutorial's changing-environments study); exact against WEKA "
                "run with -XX:-UseLibmIntrinsic (see MLP)", _perceptron),
    # KEEL's learners (Moreno-Torres et al.), checked against KEEL's compiled classes (tests/fixtures/keel)
    LearnerSpec("1NN", "KEEL's KNN, k=1, Euclidean (KNN-C defaults)", (MORENO,), "faithful",
                "own implementation of KEEL's KNN (nominal values as ordinal indices, zero-distance "
                "neighbours skipped); " + _KEEL_NOTE, _keel_knn(1)),
    LearnerSpec("3NN", "KEEL's KNN, k=3, Euclidean", (MORENO,), "faithful",
                "own implementation of KEEL's KNN (nominal values as ordinal indices, zero-distance "
                "neighbours skipped); " + _KEEL_NOTE, _keel_knn(3)),
    LearnerSpec("LDA", "KEEL's linear discriminant analysis (LDA-C), failures included", (MORENO,), "faithful",
                "own implementation of KEEL's ClassifierADLinear (class 0 for all when KEEL cannot invert the "
                "covariance: crx, mushroom); " + _KEEL_NOTE,
                _keel_lda),
    LearnerSpec("SVM", "KEEL's SMO, Puk kernel (omega=sigma=1), C=100, logistic models", (MORENO,), "faithful",
                "the SVM set-up that reproduces Moreno-Torres's Table III (within 0.005 AUC on average over 18 "
                "sets; KEEL's SMO/C_SVM defaults are linear: AUC 0.50 on banana vs 0.90); own implementation, "
                "KEEL's dual problem solved by libsvm (solver='keel': WEKA's steps), KEEL's logistic "
                "optimiser ported; " + _KEEL_NOTE, _keel_svm),
    LearnerSpec("PDFC", "positive definite fuzzy classifier (KEEL PDFC-C: Gaussian PDRF, d=0.25, C=100)",
                (MORENO,), "faithful",
                "own implementation of KEEL's PDFC; its dual problem solved by libsvm (solver='keel': WEKA's "
                "steps); " + _KEEL_NOTE, _keel_pdfc),
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
    LearnerSpec("PART-C", "KEEL's PART (PART-C: itemsetsPerLeaf 2): rules from partial C4.5 trees, KEEL's way",
                (MORENO,), "faithful",
                "own implementation of KEEL's PART (not WEKA's, which is PART): the paper's PART column; KEEL "
                "keeps a leaf's rule only if it is not the partial tree's first leaf, so it often predicts its "
                "default class alone; same rule lists and classes as compiled KEEL (PART-C) on all 133 folds "
                "compared (36 data sets, 41475 test instances; 33 folds, 2813 test instances, recorded as "
                "fixtures; the study's DOB-SCV folds: 3702 of 3702, KEEL's crisp AUC 0.5 on 4 of 8 sets); "
                + _KEEL_NOTE, _keel_part),
]

_ALIASES = {"DT": "C4.5", "J48": "C4.5", "5NN": "5-NN", "1-NN": "1NN", "3-NN": "3NN", "4-NN": "4NN",
            "10-NN": "10NN", "IBk": "IBk-1", "Ripper": "RIPPER", "1R": "OneR"}
_ALIASES.update({"Logistic": "LR", "RandomForest": "RF", "SimplePerceptron": "Perceptron"})     # issue 14

LEARNERS = {s.name: s for s in _SPECS}

# --- reference checks (issue 14): per learner name, the tool it is checked against, the number of recorded
# train/test runs compared with it (tests/fixtures/weka, written by tools/record_weka_fixtures.py; a test
# keeps these counts equal to the fixtures) and what agrees. Stand-ins and HDDT have none.
_WEKA = "WEKA 3.6.14"
_STRICT = "on a JVM with -XX:-UseLibmIntrinsic (fdlibm exp/log, the arithmetic we follow)"
_BITS = "bit-identical probabilities"
_PARITY = {
    "C4.5": (f"{_WEKA} J48 (defaults and -U)", 30, "probabilities within 1e-15, same printed trees on these "
             "runs; on other folds with missing values up to 6.1e-15 (fractional weights summed in another "
             "order), which can move a printed leaf count in its last digit (3.62 for WEKA's 3.63)"),
    "NB": (f"{_WEKA} NaiveBayes -K", 12, "probabilities within 1e-14"),
    "NB-normal": (f"{_WEKA} NaiveBayes", 9, "probabilities within 1e-14"),
    "MLP": (f"{_WEKA} MultilayerPerceptron -H 3 {_STRICT}", 6,
            f"{_BITS} and weights; a stock JVM's WEKA differs (its exp intrinsic), up to 0.93 in probability "
            "on soybean and credit-g"),
    "SMO": (f"{_WEKA} SMO", 9, _BITS),
    "IBk-1": (f"{_WEKA} IBk -K 1", 6, "probabilities within 1e-15"),
    "IBk-3": (f"{_WEKA} IBk -K 3", 6, "probabilities within 1e-15"),
    "4NN": (f"{_WEKA} IBk -K 4", 6, "probabilities within 1e-15"),
    "5-NN": (f"{_WEKA} IBk -K 5", 12, "probabilities within 1e-15"),
    "10NN": (f"{_WEKA} IBk -K 10", 6, "probabilities within 1e-15"),
    "PART": (f"{_WEKA} PART", 18, "probabilities within 1e-15, same printed rules on these runs; on other "
             "folds with missing values up to 6.1e-15 (as C4.5)"),
    "Boosting": (f"{_WEKA} AdaBoostM1 (DecisionStump)", 9, "probabilities within 1e-13"),
    "LR": (f"{_WEKA} Logistic (defaults and -M 20) {_STRICT}", 33,
           f"{_BITS}, same printed model; on a stock JVM within 1e-9 where the optimum is well defined"),
    "RF": (f"{_WEKA} RandomForest -I 10", 18, f"{_BITS}, same out-of-bag error"),
    "Bagging": (f"{_WEKA} Bagging (REPTree; defaults and -P 60 -S 3)", 18, f"{_BITS}, same printed trees"),
    "REPTree": (f"{_WEKA} REPTree (defaults and -P)", 24, f"{_BITS}, same printed trees"),
    "RandomTree": (f"{_WEKA} RandomTree (defaults and -K 3 -S 7)", 24, f"{_BITS}, same printed trees"),
    "Perceptron": (f"{_WEKA} MultilayerPerceptron -H 0 {_STRICT}", 9, _BITS),
    "JRip": (f"{_WEKA} JRip (defaults, -F 4 -N 1.0 -O 1 -S 7, and -P -E)", 30, f"{_BITS}, same printed rules"),
    "OneR": (f"{_WEKA} OneR (-B 6 and -B 3)", 24, f"{_BITS}, same printed rules"),
    # KEEL (SCI2SUGR/KEEL, compiled): runs recorded in tests/fixtures/keel by tools/record_keel_fixtures.py;
    # KEEL writes classes only, so the classes are compared (a test keeps these counts equal to the fixtures)
    "1NN": ("KEEL KNN-C (K Value = 1)", 15, "same class on all 1508 test instances (9 data sets)"),
    "3NN": ("KEEL KNN-C (K Value = 3)", 15, "same class on all 1508 test instances (9 data sets)"),
    "LDA": ("KEEL LDA-C", 19, "same class on all 1740 test instances (9 data sets), failures included"),
    "SVM": ("KEEL SMO-C (Puk kernel, C = 100, FitLogisticModels)", 13,
            "same class on all 846 test instances (8 data sets)"),
    "PDFC": ("KEEL PDFC-C", 14, "same class on all 938 test instances (8 data sets)"),
    # KEEL's rule learners: runs recorded in tests/fixtures/keel by tools/record_keel_rules.py (rules and classes)
    "RIPPER": ("KEEL Ripper-C", 19, "same rule lists, same class on all 1360 test instances (12 data sets)"),
    "PART-C": ("KEEL PART-C", 33, "same rule lists and default rules, same class on all 2813 test instances "
               "(19 data sets)"),
    "FURIA": ("KEEL FURIA-C", 19, "same fuzzy rules and certainty factors, same class on all 1360 test "
              "instances (12 data sets)"),
}


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

    ``random_state`` is KEEL's seed for SVM and PDFC (None: KEEL's default).
    The other faithful learners keep their tools' default seeds (WEKA: MLP -S 0,
    SMO -W 1, REPTree, RandomTree, Bagging and RF -S 1; KEEL's RIPPER and FURIA:
    KEEL's experiment seed), as the studies ran them: their cross-validation
    seed varied, not the learners'.
    """
    return LEARNERS[_resolve(name)].factory(random_state)


def list_learners() -> pd.DataFrame:
    """One row per learner name: description, studies, faithful/stand-in status, the reference it is
    checked against, the number of recorded train/test runs it reproduces (``parity_cases``), what
    agrees (``parity``), note, aliases."""
    rows = []
    for s in _SPECS:
        aliases = [a for a, t in _ALIASES.items() if t == s.name]
        reference, cases, parity = _PARITY.get(s.name, ("", 0, ""))
        rows.append({"name": s.name, "description": s.description, "studies": ", ".join(s.studies),
                     "status": s.status, "reference": reference, "parity_cases": cases, "parity": parity,
                     "note": s.note, "aliases": ", ".join(aliases)})
    return pd.DataFrame(rows)
