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

from importlib.resources import files
from io import StringIO

import pandas as pd

__all__ = ["LEARNERS", "POPULATIONS", "TABLE_POPULATIONS", "FOLDS", "TABLE_REPETITIONS", "N_SAMPLES",
           "FIGURE_2", "figure_2", "contingency_tables", "WORKED_EXAMPLES", "conditional_probabilities", "AMBIGUOUS",
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

# Tables 1-3 as data, transcribed into vanwinckelen2012_tables.tsv (next to this module): L1, L2,
# population, folds, then a b c d without repetition and a b c d with 30 repetitions.
TABLES_FILE = "vanwinckelen2012_tables.tsv"

# Printed tables that split two ways into four counts summing to 100, and the split taken:
# the one closest to the same cell's other table (its rows flipped for 4NN-10NN on adult, 10-fold).
AMBIGUOUS_FILE = "vanwinckelen2012_ambiguous.tsv"   # columns: L1 L2 population k repetitions printed taken other


def _read(name: str) -> pd.DataFrame:
    """A transcribed table stored next to this module (tab-separated)."""
    with files(__package__).joinpath(name).open() as fh:
        return pd.read_csv(fh, sep="\t")


AMBIGUOUS = {(r.L1, r.L2, r.population, int(r.k), int(r.repetitions)): (r.printed, r.taken, r.other)
             for r in _read(AMBIGUOUS_FILE).itertuples()}


def figure_2() -> pd.DataFrame:
    """Figure 2's six panels: learner, population, k and the vertical axis range (accuracy, %)."""
    return FIGURE_2.copy()


def contingency_tables() -> pd.DataFrame:
    """Tables 1-3 as a tidy table: one row per (L1, L2, population, k, repetitions).

    Columns ``a, b, c, d`` are the printed counts (``a b / c d``); the
    ``READING_A`` columns name them as the paper's first worked example reads
    them (rows: which learner CV picks; columns: which has the lower conditional error).
    """
    wide = _read(TABLES_FILE)
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
# fraction and value, per worked example (2-fold, no repetition). Three printed entries are slips
# (noted): one value does not follow from its fraction, two fractions not from their table.
WORKED_EXAMPLES = {
    # table 25 37 / 7 31
    ("NB", "C4.5", "adult", 2): """event	numerator	denominator	value	note
P(L1 wins | CV picks L1)	25	62	0.40
P(L2 wins | CV picks L1)	37	62	0.60
P(L1 wins | CV picks L2)	7	38	0.18
P(L2 wins | CV picks L2)	31	38	0.82
P(CV picks L1 | L1 wins)	25	32	0.78
P(CV picks L2 | L1 wins)	7	32	0.22
P(CV picks L1 | L2 wins)	37	68	0.54
P(CV picks L2 | L2 wins)	31	68	0.56	31/68 is 0.46; the paper prints 0.56
""",
    # table 33 62 / 2 3, read with its rows flipped
    ("NB", "RF", "kr-vs-k", 2): """event	numerator	denominator	value	note
P(L1 wins | CV picks L1)	2	5	0.40
P(L2 wins | CV picks L1)	3	5	0.60
P(L1 wins | CV picks L2)	33	95	0.35
P(L2 wins | CV picks L2)	62	95	0.65
P(CV picks L1 | L1 wins)	2	40	0.05	the table's NB-wins column holds 35, not 40 (2/35 = 0.06)
P(CV picks L2 | L1 wins)	38	40	0.95	the table gives 33/35 = 0.94
P(CV picks L1 | L2 wins)	3	65	0.05
P(CV picks L2 | L2 wins)	62	65	0.95
""",
}


def conditional_probabilities() -> pd.DataFrame:
    """Section 5.2's two worked examples: event, printed fraction and printed value (no repetition)."""
    parts = [pd.read_csv(StringIO(text), sep="\t", keep_default_na=False, dtype={"note": str})
             .assign(L1=l1, L2=l2, population=pop, k=k)
             for (l1, l2, pop, k), text in WORKED_EXAMPLES.items()]
    return pd.concat(parts, ignore_index=True)[["L1", "L2", "population", "k", "event", "numerator",
                                                "denominator", "value", "note"]]
