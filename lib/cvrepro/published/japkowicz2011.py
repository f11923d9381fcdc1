"""Japkowicz & Shah's tutorial (2011): the printed numbers, slide by slide.

Transcribed from the tutorial's slides (the text in
``japkowicz_tutorial_evaluating_learning_algorithms.txt`` of the collection's
papers), with the tutorial's names and rounding. Where a slide is internally
inconsistent the transcription keeps what is printed and a note says what the
slide's own numbers give.
"""
from __future__ import annotations

from io import StringIO

import numpy as np
import pandas as pd

__all__ = ["measures_table", "ranks_table", "CONFUSION_ACCURACY", "CONFUSION_PRECISION_RECALL",
           "KAPPA_EXAMPLE", "RMSE_EXAMPLE", "INFO_SCORE_EXAMPLE", "T_TEST", "sign_test_table",
           "SIGN_TEST", "wilcoxon_table", "WILCOXON", "friedman_table", "friedman_ranks", "FRIEDMAN_RANK_SUMS",
           "visualization_table", "VISUALIZATION", "anneal_confusion", "ANNEAL_ACCURACY", "FLU",
           "MEASURE_COLUMNS", "CLASSIFIERS", "NOTES"]

# "Which classifier is better? ... (e.g., UCI Breast Cancer)": WEKA defaults, 10-fold CV.
CLASSIFIERS = ["NB", "C4.5", "3NN", "Ripp", "SVM", "Bagg", "Boost", "RanF"]
MEASURE_COLUMNS = ["Acc", "RMSE", "TPR", "FPR", "Prec", "Rec", "F", "AUC", "Info S"]
_MEASURES = """Algo	Acc	RMSE	TPR	FPR	Prec	Rec	F	AUC	Info S
NB	71.7	.4534	.44	.16	.53	.44	.48	.7	48.11
C4.5	75.5	.4324	.27	.04	.74	.27	.4	.59	34.28
3NN	72.4	.5101	.32	.1	.56	.32	.41	.63	43.37
Ripp	71	.4494	.37	.14	.52	.37	.43	.6	22.34
SVM	69.6	.5515	.33	.15	.48	.33	.39	.59	54.89
Bagg	67.8	.4518	.17	.1	.4	.17	.23	.63	11.30
Boost	70.3	.4329	.42	.18	.5	.42	.46	.7	34.48
RanF	69.23	.47	.33	.15	.48	.33	.39	.63	20.78
"""
# "Ranking the results" (rank 1 = best for each measure).
_RANKS = """Algo	Acc	RMSE	TPR	FPR	Prec	Rec	F	AUC	Info S
NB	3	5	1	7	3	1	1	1	2
C4.5	1	1	7	1	1	7	5	7	5
3NN	2	7	6	2	2	6	4	3	3
Ripp	4	3	3	4	4	3	3	6	6
SVM	6	8	4	5	5	4	6	7	1
Bagg	8	4	8	2	8	8	8	3	8
Boost	5	2	2	8	7	2	2	1	4
RanF	7	6	4	5	5	4	7	3	7
"""

# "Issues with Accuracy": two classifiers of 60 % accuracy (rows: predicted Yes/No, columns: true Pos/Neg).
CONFUSION_ACCURACY = {
    "left": {"TP": 200, "FP": 100, "FN": 300, "TN": 400},
    "right": {"TP": 400, "FP": 300, "FN": 100, "TN": 200},
    "accuracy": 0.60,
}
# "Issues with Precision/Recall": the same precision (66.7 %) and recall (40 %) on different data.
CONFUSION_PRECISION_RECALL = {
    "left": {"TP": 200, "FP": 100, "FN": 300, "TN": 400},
    "right": {"TP": 200, "FP": 100, "FN": 300, "TN": 0},
    "precision": 0.667, "recall": 0.40,
}
# "Cohen's Kappa Measure: Example" (rows actual, columns predicted, classes A, B, C).
KAPPA_EXAMPLE = {
    "confusion": np.array([[60, 50, 10], [10, 100, 40], [30, 10, 90]]),
    "accuracy": 0.625, "chance_agreement": 0.33875, "kappa": 0.4329,
}
# "RMSE": five probabilistic predictions.
RMSE_EXAMPLE = {
    "proba": np.array([0.95, 0.6, 0.8, 0.75, 0.9]), "y": np.array([1, 0, 1, 0, 1]),
    "squared_errors": np.array([0.0025, 0.36, 0.04, 0.5625, 0.01]), "rmse": 0.4416,
}
# "Information Score": the same predictions, P(y=1) = 3/5; the slide's column "P(yi|f)" is the classifier's
# probability of class 1 (as in the RMSE example): x2's .6 scores 0 because P(y=0|f) = .4 is the prior of 0.
INFO_SCORE_EXAMPLE = {
    "proba": np.array([0.95, 0.6, 0.8, 0.75, 0.9]), "y": np.array([1, 0, 1, 0, 1]),
    "per_instance": np.array([0.66, 0.0, 0.42, 0.32, 0.59]), "mean": 0.40,
}

# "The t-statistic" (C4.5 vs NB on Labour): df = 9, two-sided, rejected at 0.001 (|t| > 4.781).
T_TEST = {"df": 9, "alpha": 0.001, "critical_t": 4.781, "rejected": True,
          "equal_variance": False, "better_test": "McNemar"}

# "Illustration of the sign test": accuracies (%) of NB, SVM, AdaBoost and Random Forest.
_SIGN = """Dataset	NB	SVM	Adaboost	Rand Forest
Anneal	96.43	99.44	83.63	99.55
Audiology	73.42	81.34	46.46	79.15
Balance Scale	72.30	91.51	72.31	80.97
Breast Cancer	71.70	66.16	70.28	69.99
Contact Lenses	71.67	71.67	71.67	71.67
Pima Diabetes	74.36	77.08	74.35	74.88
Glass	70.63	62.21	44.91	79.87
Hepatitis	83.21	80.63	82.54	84.58
Hypothyroid	98.22	93.58	93.21	99.39
Tic-Tac-Toe	69.62	99.90	72.54	93.94
"""
SIGN_TEST = {
    "NB vs SVM": {"wins_a": 4.5, "wins_b": 5.5, "critical_wins": 8, "alpha": 0.05, "rejected": False},
    # printed 1 and 8.5; the table gives 1.5 (AdaBoost wins Breast Cancer, Contact Lenses is a tie)
    "Ada vs RF": {"wins_a": 1.0, "wins_b": 8.5, "critical_wins": 8, "alpha": 0.05, "rejected": True},
}

# "Wilcoxon's signed-Rank Test: Illustration": NB vs SVM as fractions.
WILCOXON = {"WS1": 17, "WS2": 28, "T": 17, "V": 8, "n": 9, "alpha_printed": 0.005, "rejected": False,
            "ranks": [-3, -6, -8, 5, None, -2, 7, 1, 4, -9]}

# "Illustration of the Friedman test" (the last domain is printed "19", a typo for 10).
_FRIEDMAN = """Domain	fA	fB	fC
1	85.83	75.86	84.19
2	85.91	73.18	85.90
3	86.12	69.08	83.83
4	85.82	74.05	85.11
5	86.28	74.71	86.38
6	86.42	65.90	81.20
7	85.91	76.25	86.38
8	86.10	75.10	86.75
9	85.95	70.50	88.03
10	86.12	73.95	87.18
"""
_FRIEDMAN_RANKS = """Domain	fA	fB	fC
1	1	3	2
2	1.5	3	1.5
3	1	3	2
4	1	3	2
5	2	3	1
6	1	3	2
7	2	3	1
8	2	3	1
9	2	3	1
10	2	3	1
"""
FRIEDMAN_RANK_SUMS = {"fA": 15.5, "fB": 30.0, "fC": 14.5}

# Recent research 1: "Illustration on multiple domains" (Acc., F-measure, AUC).
_VISUALIZATION = """Classifier	Domain	Acc	F	AUC
NB	BC	71.7	.48	.7
NB	La	89.5	.92	.97
NB	Li	55.4	.6	.64
NB	Avg	72.2	.67	.77
SMO	BC	69.6	.39	.59
SMO	La	89.5	.92	.87
SMO	Li	58.3	.014	.5
SMO	Avg	72.46	.44	.65
Boost	BC	70.3	.46	.7
Boost	La	87.7	.91	.87
Boost	Li	66.1	.534	.68
Boost	Avg	74.7	.64	.75
"""
VISUALIZATION = {
    # the projection's labels: point 1 is the ideal classifier, 8 and 9 the farthest from it
    "three binary domains (L2)": {"farthest": ["SVM", "NB"]},
    "Anneal (L2)": {"farthest": ["Adaboost", "NB"], "note": "NB and AdaBoost at about the same distance"},
    "Anneal (L1)": {"farthest": ["NB", "Adaboost"], "note": "NB significantly closer to Ideal than AdaBoost"},
}
# "Illustration on a Multiclass domain: Anneal": confusion matrices (rows actual a..f, columns predicted).
_ANNEAL = {
    "Adaboost": [[0, 0, 8, 0, 0, 0], [0, 0, 99, 0, 0, 0], [0, 0, 684, 0, 0, 0], [0, 0, 0, 0, 0, 0],
                 [0, 0, 0, 0, 67, 0], [0, 0, 40, 0, 0, 0]],
    "NB": [[7, 0, 1, 0, 0, 0], [0, 99, 0, 0, 0, 0], [3, 38, 564, 0, 0, 79], [0, 0, 0, 0, 0, 0],
           [0, 0, 0, 0, 67, 0], [0, 0, 2, 0, 0, 38]],
}
ANNEAL_ACCURACY = {"NB": 86.3, "Adaboost": 83.6, "others": (97.4, 99.3)}

# Recent research 2 (changing environments): the verdicts the slides state; no number is printed.
FLU = {
    "population drift": {"all classifiers drop": True, "simpler suffer": "much more"},
    "non-represented": {"all classifiers drop": True, "simpler suffer": "slightly more"},
    "class definition": {"all classifiers drop": True,
                         "simpler suffer": "not necessarily (SimpleNN does not, 1R does)"},
    "complex remain the better choice": True,
}

NOTES = {
    "3NN": "The '3NN' row equals WEKA's IBk with its default k = 1 to every printed digit; IBk -K 3 "
           "gives 73.8 % (WEKA 3.6.14 and ours).",
    "ranks": "The printed ranks follow the printed values with ties sharing the better rank, except "
             "Prec (Boost .5 is printed 7th, SVM and RanF .48 5th: by value Boost is 5th and SVM, RanF 6th) "
             "and F (RanF .39 printed 7th, tied with SVM's .39 at 6th).",
    "sign test": "Ada vs RF: the table gives AdaBoost 1.5 wins (Breast Cancer, half of Contact Lenses), "
                 "the slide prints 1; w0.05 = 8 is Demsar's normal approximation (exactly, 9 of 10 are needed).",
    "wilcoxon": "V = 8 is the one-sided critical value at alpha = 0.05; the slide's '0.005' is a typo "
                "(at 0.005, V = 1).",
    "information score": "The slide's formula drops the minus sign of the second branch: x4 (P = .25 < prior .4) "
                         "scores -0.32 bits in Kononenko & Bratko's definition, so the mean is 0.27, not 0.40.",
    "friedman": "Domain 2 ties fA (85.91) and fC (85.90), a tolerance of 0.01; with exact ranks the sums are "
                "15 / 30 / 15 instead of 15.5 / 30 / 14.5.",
}


def _read(text: str, as_text: bool = False) -> pd.DataFrame:
    return pd.read_csv(StringIO(text), sep="\t", dtype=str if as_text else None)


def measures_table(as_text: bool = False) -> pd.DataFrame:
    """The nine measures of the eight classifiers on UCI Breast Cancer, as printed (``as_text``: the
    printed strings, whose decimals say how the slide rounded)."""
    return _read(_MEASURES, as_text)


def ranks_table() -> pd.DataFrame:
    """The printed ranks of the eight classifiers under each measure."""
    return _read(_RANKS)


def sign_test_table() -> pd.DataFrame:
    """Accuracies (%) of NB, SVM, AdaBoost and RF on ten UCI domains, as printed."""
    return _read(_SIGN)


def wilcoxon_table() -> pd.DataFrame:
    """The Wilcoxon illustration: NB and SVM as fractions, the difference and the signed rank."""
    t = sign_test_table()[["Dataset", "NB", "SVM"]].copy()
    t[["NB", "SVM"]] = t[["NB", "SVM"]] / 100
    t["NB-SVM"] = (t["NB"] - t["SVM"]).round(4)
    t["signed rank"] = WILCOXON["ranks"]
    return t


def friedman_table() -> pd.DataFrame:
    """The Friedman illustration's scores (domains 1-10, classifiers fA, fB, fC)."""
    return _read(_FRIEDMAN)


def friedman_ranks() -> pd.DataFrame:
    """The printed ranks of the Friedman illustration."""
    return _read(_FRIEDMAN_RANKS)


def visualization_table(as_text: bool = False) -> pd.DataFrame:
    """Accuracy, F-measure and AUC of NB, SMO and AdaBoost on Breast Cancer, Labour and Liver."""
    return _read(_VISUALIZATION, as_text)


def anneal_confusion(classifier: str) -> np.ndarray:
    """The printed Anneal confusion matrix of "NB" or "Adaboost" (6 x 6, class d has no example)."""
    return np.array(_ANNEAL[classifier])
