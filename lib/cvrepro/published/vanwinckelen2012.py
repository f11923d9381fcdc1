"""Vanwinckelen & Blockeel (2012), the published numbers, table by table.

Transcribed from the paper (Vanwinckelen & Blockeel, "Look before you leap", 2012)
so that every reproduced table can sit beside the original.

Tables 1-3 (appendix): for each pair of learners (L1, L2), population and
number of folds, two 2x2 contingency tables over 100 samples, the first
without repetition of the cross-validation, the second with 30 repetitions.
Each table is printed as a 2x2 matrix; the text extraction of the paper
glues its two rows together (``[25 377 31]`` is ``25 37 / 7 31``). We read
the four counts in printed order ``a b / c d`` and store them as such.

What the rows and columns mean is not consistent within the paper:

* Section 5.2 defines the matrix on errors: rows ``eps^1 > eps^2`` /
  ``eps^1 <= eps^2`` (the CV estimates), columns ``eps_c,1 > eps_c,2`` /
  ``eps_c,1 <= eps_c,2`` (the conditional errors);
* the first worked example (NB vs C4.5 on adult, 2-fold, ``25 37 / 7 31``)
  reads the first row as "CV says L1 wins" and the first column as "L1 wins
  on the conditional error" (C4.5 wins 37 + 31 = 68 samples, as the text
  says): reading **A**, used here for the differences;
* the second worked example (NB vs RF on kr-vs-k, 2-fold, ``33 62 / 2 3``)
  keeps the columns of reading A but reads the first row as "CV says L2 wins"
  (rows flipped).

Some printed tables are also row-flipped relative to their neighbours (e.g.
4NN vs 10NN on adult, 10-fold: ``11 88 / 0 1`` without repetition, ``1 0 / 7 92``
with). The study therefore compares each table as printed and with its rows
flipped (see :func:`cvrepro.studies.vanwinckelen2012.table_contingency`).

Twelve printed tables split into four counts summing to 100 in two ways
(``[29 558 8]``: 29 5 58 8 or 29 55 8 8); we take the split closest to the
same cell's other table (same pair, population and folds), see
``AMBIGUOUS``. ``[00 1000]`` is read as ``0 0 / 0 100``, consistent with
the same cell's neighbours (e.g. 4NN vs LR on nursery: ``0 0 / 2 98``
without repetition). The paper has no 30-fold results on kr-vs-k ("because
of time restrictions").
"""
from __future__ import annotations

from io import StringIO

import pandas as pd

__all__ = ["LEARNERS", "POPULATIONS", "TABLE_POPULATIONS", "FOLDS", "TABLE_REPETITIONS", "N_SAMPLES",
           "FIGURE_2", "figure_2", "contingency_tables", "conditional_probabilities", "AMBIGUOUS",
           "READING_A"]

# The paper's learners (Section 5.1), in the order of Tables 1-3 (the tables write DT for C4.5).
LEARNERS = ("NB", "C4.5", "4NN", "10NN", "LR", "RF")
POPULATIONS = ("abalone", "adult", "kr-vs-k", "mushroom", "nursery")
TABLE_POPULATIONS = ("adult", "kr-vs-k", "nursery")
FOLDS = (2, 10, 30)
TABLE_REPETITIONS = (1, 30)       # "computed with 1 and 30 repetitions"
N_SAMPLES = 100                   # "Based on the results for 100 samples from D"
FIGURE_2_REPETITIONS = 50         # Figure 2's horizontal axis: 0..50 repetitions

READING_A = ("cv L1, true L1", "cv L1, true L2", "cv L2, true L1", "cv L2, true L2")

# Figure 2: the six panels and the range of their vertical axes (accuracy, %), read from the tick labels.
_FIGURE_2 = """learner	population	k	axis_low	axis_high
4NN	kr-vs-k	2	10	30
10NN	nursery	2	60	80
C4.5	nursery	10	80	90
RF	kr-vs-k	10	20	30
LR	adult	10	70	90
NB	nursery	2	80	90
"""
FIGURE_2 = pd.read_csv(StringIO(_FIGURE_2), sep="\t")

# Tables 1-3: L1, L2, population, folds, then a b c d without repetition and a b c d with 30 repetitions.
_TABLES = """L1	L2	population	k	a1	b1	c1	d1	a30	b30	c30	d30
NB	C4.5	adult	2	25	37	7	31	14	48	1	37
NB	C4.5	adult	10	32	30	7	31	28	34	5	33
NB	C4.5	adult	30	32	30	6	32	37	25	4	34
NB	C4.5	kr-vs-k	2	36	48	8	8	30	54	8	8
NB	C4.5	kr-vs-k	10	29	55	8	8	15	69	8	8
NB	C4.5	nursery	2	53	12	24	11	61	4	27	8
NB	C4.5	nursery	10	52	13	13	22	52	13	11	24
NB	C4.5	nursery	30	50	15	12	23	49	16	9	26
NB	4NN	adult	2	51	24	5	20	50	25	3	22
NB	4NN	adult	10	67	8	1	24	69	6	1	24
NB	4NN	adult	30	70	5	1	24	71	4	1	24
NB	4NN	kr-vs-k	2	22	15	30	33	20	17	34	29
NB	4NN	kr-vs-k	10	19	18	20	43	17	20	19	44
NB	4NN	nursery	2	99	1	0	0	100	0	0	0
NB	4NN	nursery	10	97	3	0	0	100	0	0	0
NB	4NN	nursery	30	96	4	0	0	98	2	0	0
NB	10NN	adult	2	34	34	6	26	26	42	6	26
NB	10NN	adult	10	47	21	3	29	51	17	5	27
NB	10NN	adult	30	59	9	4	28	57	11	1	31
NB	10NN	kr-vs-k	2	23	16	38	23	20	19	36	25
NB	10NN	kr-vs-k	10	12	27	21	40	15	24	18	43
NB	10NN	nursery	2	99	0	1	0	99	0	1	0
NB	10NN	nursery	10	95	4	1	0	97	2	1	0
NB	10NN	nursery	30	94	5	1	0	95	4	1	0
NB	LR	adult	2	15	51	9	25	4	30	4	62
NB	LR	adult	10	13	21	12	54	12	22	12	54
NB	LR	adult	30	15	19	13	53	19	15	15	51
NB	LR	kr-vs-k	2	10	28	21	41	10	28	16	46
NB	LR	kr-vs-k	10	18	20	14	48	16	22	11	51
NB	LR	nursery	2	27	4	55	14	30	1	65	4
NB	LR	nursery	10	15	16	23	46	21	10	19	50
NB	LR	nursery	30	14	17	16	53	18	13	16	53
NB	RF	adult	2	5	30	8	57	2	33	4	61
NB	RF	adult	10	12	23	13	52	8	27	9	56
NB	RF	adult	30	11	24	15	50	14	21	11	54
NB	RF	kr-vs-k	2	33	62	2	3	19	76	2	3
NB	RF	kr-vs-k	10	20	75	3	2	18	77	3	2
NB	RF	nursery	2	42	16	25	17	52	6	32	10
NB	RF	nursery	10	47	11	14	28	48	10	12	30
NB	RF	nursery	30	42	16	10	32	48	10	10	32
C4.5	4NN	adult	2	84	16	0	0	98	2	0	0
C4.5	4NN	adult	10	91	9	0	0	96	4	0	0
C4.5	4NN	adult	30	91	9	0	0	91	9	0	0
C4.5	4NN	kr-vs-k	2	50	41	4	5	56	35	6	3
C4.5	4NN	kr-vs-k	10	55	36	3	6	55	36	5	4
C4.5	4NN	nursery	2	95	5	0	0	100	0	0	0
C4.5	4NN	nursery	10	95	5	0	0	100	0	0	0
C4.5	4NN	nursery	30	96	4	0	0	99	1	0	0
C4.5	10NN	adult	2	50	38	4	8	60	28	3	9
C4.5	10NN	adult	10	64	24	6	6	64	24	6	6
C4.5	10NN	adult	30	62	26	5	7	61	27	6	6
C4.5	10NN	kr-vs-k	2	57	33	6	4	54	36	5	5
C4.5	10NN	kr-vs-k	10	45	45	6	4	44	46	6	4
C4.5	10NN	nursery	2	96	4	0	0	100	0	0	0
C4.5	10NN	nursery	10	93	7	0	0	99	1	0	0
C4.5	10NN	nursery	30	94	6	0	0	98	2	0	0
C4.5	LR	adult	2	28	64	1	7	21	71	0	8
C4.5	LR	adult	10	31	61	1	7	26	66	2	6
C4.5	LR	adult	30	26	66	4	4	26	66	3	5
C4.5	LR	kr-vs-k	2	33	50	6	11	23	60	7	10
C4.5	LR	kr-vs-k	10	37	46	9	8	36	47	8	9
C4.5	LR	nursery	2	39	52	4	5	40	51	6	3
C4.5	LR	nursery	10	15	76	4	5	16	75	4	5
C4.5	LR	nursery	30	17	74	3	6	22	69	5	4
C4.5	RF	adult	2	14	79	2	5	0	7	2	91
C4.5	RF	adult	10	29	64	2	5	15	78	0	7
C4.5	RF	adult	30	24	69	2	5	20	73	1	6
C4.5	RF	kr-vs-k	2	11	18	28	43	6	23	8	63
C4.5	RF	kr-vs-k	10	13	16	29	42	21	50	9	20
C4.5	RF	nursery	2	24	43	7	26	5	28	7	60
C4.5	RF	nursery	10	13	20	24	43	14	19	15	52
C4.5	RF	nursery	30	15	18	23	44	18	15	22	45
4NN	10NN	adult	2	0	1	7	92	0	1	0	99
4NN	10NN	adult	10	11	88	0	1	1	0	7	92
4NN	10NN	adult	30	1	0	7	92	1	0	8	91
4NN	10NN	kr-vs-k	2	32	30	21	17	33	29	21	17
4NN	10NN	kr-vs-k	10	27	35	18	20	24	38	12	26
4NN	10NN	nursery	2	10	15	31	44	15	10	30	45
4NN	10NN	nursery	10	11	14	23	52	11	14	23	52
4NN	10NN	nursery	30	13	12	22	53	12	13	24	51
4NN	LR	adult	2	0	0	8	92	0	0	0	100
4NN	LR	adult	10	0	0	2	98	0	0	1	99
4NN	LR	adult	30	0	0	3	97	0	0	3	97
4NN	LR	kr-vs-k	2	18	25	15	42	19	24	9	48
4NN	LR	kr-vs-k	10	21	22	21	36	22	21	16	41
4NN	LR	nursery	2	0	0	2	98	0	0	0	100
4NN	LR	nursery	10	0	0	0	100	0	0	0	100
4NN	LR	nursery	30	0	0	0	100	0	0	0	100
4NN	RF	adult	2	0	0	2	98	0	0	0	100
4NN	RF	adult	10	0	0	3	97	0	0	1	99
4NN	RF	adult	30	0	0	3	97	0	0	2	98
4NN	RF	kr-vs-k	2	30	69	0	1	25	74	0	1
4NN	RF	kr-vs-k	10	32	67	0	1	26	73	0	1
4NN	RF	nursery	2	0	0	1	99	0	0	0	100
4NN	RF	nursery	10	0	0	0	100	0	0	0	100
4NN	RF	nursery	30	0	0	0	100	0	0	0	100
10NN	LR	adult	2	25	73	1	1	18	80	2	0
10NN	LR	adult	10	13	85	2	0	2	0	8	90
10NN	LR	adult	30	16	82	2	0	13	85	2	0
10NN	LR	kr-vs-k	2	20	42	8	30	13	25	10	52
10NN	LR	kr-vs-k	10	21	17	25	37	24	14	21	41
10NN	LR	nursery	2	0	0	0	100	0	0	0	100
10NN	LR	nursery	10	0	0	0	100	0	0	0	100
10NN	LR	nursery	30	0	0	0	100	0	0	0	100
10NN	RF	adult	2	19	80	0	1	14	85	0	1
10NN	RF	adult	10	11	88	1	0	10	89	0	1
10NN	RF	adult	30	18	81	0	1	16	83	1	0
10NN	RF	kr-vs-k	2	25	75	0	0	18	82	0	0
10NN	RF	kr-vs-k	10	43	57	0	0	36	64	0	0
10NN	RF	nursery	2	0	0	1	99	0	0	0	100
10NN	RF	nursery	10	0	0	2	98	0	0	0	100
10NN	RF	nursery	30	0	0	2	98	0	0	0	100
LR	RF	adult	2	18	37	15	30	14	41	19	26
LR	RF	adult	10	25	30	24	21	24	31	26	19
LR	RF	adult	30	28	27	25	20	28	27	28	17
LR	RF	kr-vs-k	2	47	49	2	2	43	53	2	2
LR	RF	kr-vs-k	10	40	56	1	3	32	64	2	2
LR	RF	nursery	2	28	55	5	12	24	59	3	14
LR	RF	nursery	10	61	22	9	8	66	17	12	5
LR	RF	nursery	30	57	26	12	5	70	13	12	5
"""

# Printed tables that split two ways into four counts summing to 100, and the split taken:
# the one closest to the same cell's other table (its rows flipped for 4NN-10NN on adult, 10-fold).
AMBIGUOUS = {
    ("NB", "C4.5", "kr-vs-k", 10, 1): ("[29 558 8]", "29 55 8 8", "29 5 58 8"),
    ("NB", "10NN", "adult", 30, 30): ("[57 111 31]", "57 11 1 31", "57 1 11 31"),
    ("NB", "RF", "adult", 2, 30): ("[2 334 61]", "2 33 4 61", "2 3 34 61"),
    ("NB", "RF", "kr-vs-k", 10, 30): ("[18 773 2]", "18 77 3 2", "18 7 73 2"),
    ("C4.5", "10NN", "kr-vs-k", 2, 1): ("[57 336 4]", "57 33 6 4", "57 3 36 4"),
    ("C4.5", "LR", "adult", 10, 30): ("[26 662 6]", "26 66 2 6", "26 6 62 6"),
    ("C4.5", "LR", "adult", 30, 1): ("[26 664 4]", "26 66 4 4", "26 6 64 4"),
    ("C4.5", "LR", "adult", 30, 30): ("[26 663 5]", "26 66 3 5", "26 6 63 5"),
    ("4NN", "10NN", "adult", 10, 1): ("[11 880 1]", "11 88 0 1", "11 8 80 1"),
    ("10NN", "RF", "adult", 10, 1): ("[11 881 0]", "11 88 1 0", "11 8 81 0"),
    ("LR", "RF", "nursery", 2, 1): ("[28 555 12]", "28 55 5 12", "28 5 55 12"),
    ("LR", "RF", "nursery", 10, 1): ("[61 229 8]", "61 22 9 8", "61 2 29 8"),
}


def figure_2() -> pd.DataFrame:
    """Figure 2's six panels: learner, population, k and the vertical axis range (accuracy, %)."""
    return FIGURE_2.copy()


def contingency_tables() -> pd.DataFrame:
    """Tables 1-3 as a tidy table: one row per (L1, L2, population, k, repetitions).

    Columns ``a, b, c, d`` are the printed counts (``a b / c d``); the
    ``READING_A`` columns name them as the paper's first worked example reads
    them (rows: which learner CV picks; columns: which has the lower conditional error).
    """
    wide = pd.read_csv(StringIO(_TABLES), sep="\t")
    rows = []
    for r in wide.itertuples(index=False):
        for reps in TABLE_REPETITIONS:
            counts = [getattr(r, f"{x}{reps}") for x in "abcd"]
            rows.append({"L1": r.L1, "L2": r.L2, "population": r.population, "k": int(r.k),
                         "repetitions": reps, **dict(zip("abcd", counts)),
                         **dict(zip(READING_A, counts))})
    return pd.DataFrame(rows)


# Section 5.2's conditional probabilities, as printed: the event (in the paper's words, "L1 > L2"
# meaning L1 has the lower conditional error, "CV L1 > CV L2" that CV picks L1), the printed
# fraction and value. Two printed values do not follow from their own fractions (noted).
_PROBABILITIES = [
    # NB vs C4.5 on adult, 2-fold, no repetition; table 25 37 / 7 31
    ("NB", "C4.5", "adult", 2, "P(L1 wins | CV picks L1)", 25, 62, 0.40, ""),
    ("NB", "C4.5", "adult", 2, "P(L2 wins | CV picks L1)", 37, 62, 0.60, ""),
    ("NB", "C4.5", "adult", 2, "P(L1 wins | CV picks L2)", 7, 38, 0.18, ""),
    ("NB", "C4.5", "adult", 2, "P(L2 wins | CV picks L2)", 31, 38, 0.82, ""),
    ("NB", "C4.5", "adult", 2, "P(CV picks L1 | L1 wins)", 25, 32, 0.78, ""),
    ("NB", "C4.5", "adult", 2, "P(CV picks L2 | L1 wins)", 7, 32, 0.22, ""),
    ("NB", "C4.5", "adult", 2, "P(CV picks L1 | L2 wins)", 37, 68, 0.54, ""),
    ("NB", "C4.5", "adult", 2, "P(CV picks L2 | L2 wins)", 31, 68, 0.56, "31/68 is 0.46; the paper prints 0.56"),
    # NB vs RF on kr-vs-k, 2-fold, no repetition; table 33 62 / 2 3 read with its rows flipped
    ("NB", "RF", "kr-vs-k", 2, "P(L1 wins | CV picks L1)", 2, 5, 0.40, ""),
    ("NB", "RF", "kr-vs-k", 2, "P(L2 wins | CV picks L1)", 3, 5, 0.60, ""),
    ("NB", "RF", "kr-vs-k", 2, "P(L1 wins | CV picks L2)", 33, 95, 0.35, ""),
    ("NB", "RF", "kr-vs-k", 2, "P(L2 wins | CV picks L2)", 62, 95, 0.65, ""),
    ("NB", "RF", "kr-vs-k", 2, "P(CV picks L1 | L1 wins)", 2, 40, 0.05,
     "the table's NB-wins column holds 35, not 40 (2/35 = 0.06)"),
    ("NB", "RF", "kr-vs-k", 2, "P(CV picks L2 | L1 wins)", 38, 40, 0.95,
     "the table gives 33/35 = 0.94"),
    ("NB", "RF", "kr-vs-k", 2, "P(CV picks L1 | L2 wins)", 3, 65, 0.05, ""),
    ("NB", "RF", "kr-vs-k", 2, "P(CV picks L2 | L2 wins)", 62, 65, 0.95, ""),
]


def conditional_probabilities() -> pd.DataFrame:
    """Section 5.2's two worked examples: event, printed fraction and printed value (no repetition)."""
    return pd.DataFrame(_PROBABILITIES, columns=["L1", "L2", "population", "k", "event", "numerator",
                                                 "denominator", "value", "note"])
