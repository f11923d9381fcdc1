"""Moreno-Torres, Saez & Herrera (2012), the published numbers, table by table.

Transcribed from the paper (IEEE TNNLS 23(8), 2012) so that every reproduced
table can sit beside the original. Names are the paper's (data sets as Table I
prints them, classifiers as Table II abbreviates them, "C45" written "C4.5").

Notation of the schemes, as the paper defines it (Section I): "2x5" is 2-fold
cross-validation iterated five times, "5x2" 5-fold iterated twice, "10x1"
10-fold once; every scheme fits ten models per data set and classifier.

Transcription notes:

* Table I prints Sonar as "3 (60/0/0)": the total is a misprint for 60.
* Table IV: three cells of the text we have lost their p-values (LDA vs PART,
  LDA vs PDFC, PDFC vs RIPPER, printed in bold in the paper); they are None
  here (their R+/R- are kept). ">0.2" is KEEL's output for p above 0.2 and is
  kept as the string.
"""
from __future__ import annotations

from io import StringIO

import pandas as pd

__all__ = ["LEARNERS", "PARTITIONERS", "SCHEMES", "table_1", "table_2", "table_3", "table_4",
           "table_4_long", "table_5", "table_6", "table_7", "TABLE_5_SCHEME", "TABLE_4_ALPHA"]

LEARNERS = ("1NN", "3NN", "C4.5", "FURIA", "LDA", "PART", "PDFC", "RIPPER", "SVM")
PARTITIONERS = ("DOB-SCV", "DB-SCV", "SCV", "MS-SCV")
SCHEMES = ("2x5", "5x2", "10x1")
TABLE_4_ALPHA = 0.1         # pairs with p <= 0.1 are "significant" (bold in Table IV)
TABLE_5_SCHEME = ("DOB-SCV", "5x2")   # Table V is printed for DOB-SCV 5x2 only

# Table I: data sets, attributes (real / integer / nominal) and examples after removing incomplete ones.
_TABLE_1 = """dataset	attributes	real	integer	nominal	examples
Appendicitis	7	7	0	0	106
Australian	14	3	5	6	690
Banana	2	2	0	0	5300
Bands	19	13	6	0	365
Breast	9	0	0	9	277
Bupa	6	1	5	0	345
Chess	36	0	0	36	3196
Crx	15	3	3	9	653
German	20	0	7	13	1000
Haberman	3	0	3	0	306
Heart	13	1	12	0	270
Hepatitis	19	2	17	0	80
Housevotes	16	0	0	16	232
Ionosphere	33	32	1	0	351
Mammographic	5	0	5	0	830
Monk-2	6	0	6	0	432
Mushroom	22	0	0	22	5644
Phoneme	5	5	0	0	5404
Pima	8	8	0	0	768
Saheart	9	5	3	1	462
Sonar	3	60	0	0	208
Spambase	57	57	0	0	4597
Spectfheart	44	0	44	0	267
Tic-tac-toe	9	0	0	9	958
Titanic	3	3	0	0	2201
Wdbc	30	30	0	0	569
Wisconsin	9	0	9	0	683
"""

# Table II: the nine classifiers (KEEL's implementations, default parameters).
_TABLE_2 = """abbreviation	algorithm	type
1NN	Nearest neighbor k = 1	Lazy learner
3NN	Nearest neighbor k = 3	Lazy learner
C4.5	C4.5	Decision tree
FURIA	Fuzzy unordered rule induction algorithm	Fuzzy rule-based (Mamdani)
LDA	Linear discriminant analysis	Statistical
PART	PART	Partial decision tree
PDFC	Positive definite fuzzy classifier	Fuzzy rule-based (TSK)
RIPPER	Repeated incremental pruning to produce error reduction	Rule-based
SVM	Support vector machine	Support vector machine
"""

# Table III: averaged "true" AUC in the test set (200 SCV partitions).
_TABLE_3 = """dataset	1NN	3NN	C4.5	FURIA	LDA	PART	PDFC	RIPPER	SVM
Appendicitis	0.7506	0.7450	0.7054	0.7265	0.7323	0.7028	0.7278	0.7305	0.6744
Australian	0.8228	0.8474	0.8449	0.8579	0.8649	0.6443	0.8262	0.8206	0.8045
Banana	0.8695	0.8822	0.8855	0.8780	0.5171	0.5617	0.8942	0.6637	0.9004
Bands	0.6904	0.6632	0.6211	0.6047	0.6021	0.5115	0.7068	0.6113	0.7060
Breast	0.5827	0.5842	0.5965	0.6255	0.6115	0.5049	0.6433	0.6151	0.5904
Bupa	0.6050	0.6266	0.6310	0.6554	0.6579	0.5206	0.6914	0.6349	0.6825
Chess	0.9692	0.9692	0.9930	0.9931	0.8510	0.8218	0.9955	0.9926	0.9839
Crx	0.8189	0.8542	0.8539	0.8653	0.5000	0.5561	0.8277	0.8272	0.8035
German	0.6275	0.6349	0.6303	0.6070	0.6438	0.5000	0.6490	0.6434	0.7056
Haberman	0.5462	0.5501	0.5745	0.5864	0.5637	0.5015	0.5575	0.5970	0.5564
Heart	0.7681	0.8038	0.7809	0.7970	0.8365	0.5254	0.8035	0.7539	0.7869
Hepatitis	0.7412	0.7085	0.6588	0.6810	0.7168	0.5857	0.7244	0.7217	0.7410
Housevotes	0.9505	0.9561	0.9646	0.9633	0.9712	0.9620	0.9506	0.9591	0.9483
Ionosphere	0.8750	0.8536	0.8736	0.8805	0.8205	0.8074	0.9352	0.8828	0.9308
Mammographic	0.7550	0.8107	0.8317	0.8342	0.8252	0.7722	0.8181	0.7453	0.8078
Monk-2	0.7419	0.9509	1.0000	1.0000	0.7756	0.5027	1.0000	0.9995	0.9611
Mushroom	1.0000	1.0000	1.0000	1.0000	0.5000	0.8905	1.0000	1.0000	1.0000
Phoneme	0.8690	0.8490	0.8331	0.8071	0.6837	0.5159	0.8474	0.8268	0.8377
Pima	0.6513	0.6713	0.7047	0.7005	0.7235	0.5044	0.6777	0.7029	0.6837
Saheart	0.5938	0.6067	0.6336	0.6375	0.6772	0.5050	0.6007	0.6250	0.6019
Sonar	0.8575	0.8344	0.7354	0.7796	0.7377	0.5416	0.8735	0.7297	0.8709
Spambase	0.8969	0.8981	0.9214	0.9278	0.8695	0.6334	0.9439	0.9230	0.9339
Spectfheart	0.6217	0.6369	0.6201	0.6008	0.5607	0.5000	0.6666	0.6505	0.7589
Tic-tac-toe	0.9104	0.8956	0.8152	0.9765	0.6510	0.5000	0.9884	0.9731	0.8856
Titanic	0.5227	0.5493	0.6911	0.6754	0.6996	0.5001	0.6826	0.6699	0.6824
Wdbc	0.9534	0.9642	0.9330	0.9452	0.9429	0.8149	0.9695	0.9299	0.9540
Wisconsin	0.9570	0.9640	0.9482	0.9568	0.9509	0.5473	0.9620	0.9606	0.9690
"""

# Table IV: Wilcoxon signed-ranks test on Table III, R+ (row wins) / R- / p, upper triangle.
_TABLE_4 = """row	column	R+	R-	p
1NN	3NN	119.5	258.5	0.1001
1NN	C4.5	150	228	>0.2
1NN	FURIA	120.5	257.5	0.1029
1NN	LDA	235	143	>0.2
1NN	PART	375	3	7.45E-08
1NN	PDFC	38.5	339.5	9.90E-05
1NN	RIPPER	143.5	234.5	>0.2
1NN	SVM	85.0	293.0	1.12E-02
3NN	C4.5	185	193	>0.2
3NN	FURIA	143.5	234.5	>0.2
3NN	LDA	261.0	117.0	0.0859
3NN	PART	377	1	2.98E-08
3NN	PDFC	68.5	309.5	2.84E-03
3NN	RIPPER	193.5	184.5	>0.2
3NN	SVM	120	258	0.1004
C4.5	FURIA	120.5	257.5	0.1029
C4.5	LDA	242	136	>0.2
C4.5	PART	378	0	1.49E-08
C4.5	PDFC	90.5	287.5	1.68E-02
C4.5	RIPPER	180	198	>0.2
C4.5	SVM	146	232	>0.2
FURIA	LDA	278.0	100.0	0.0319
FURIA	PART	378	0	1.49E-08
FURIA	PDFC	108.0	270.0	0.0521
FURIA	RIPPER	245.5	132.5	0.1814
FURIA	SVM	185	193	>0.2
LDA	PART	340.0	38.0
LDA	PDFC	77.0	301.0
LDA	RIPPER	124	254	0.1225
LDA	SVM	83.0	295.0	9.61E-03
PART	PDFC	1	377	2.98E-08
PART	RIPPER	3	375	7.45E-08
PART	SVM	3	375	7.45E-08
PDFC	RIPPER	310.5	67.5
PDFC	SVM	273.0	105.0	0.0435
RIPPER	SVM	139	239	>0.2
"""

# Table V: DOB-SCV 5x2, out of 100 single experiments, how many give the "true" significant verdict
# (only the pairs significant in Table IV; upper triangle, the paper prints the symmetric matrix).
_TABLE_5 = """row	column	count
1NN	PART	71
1NN	PDFC	42
1NN	SVM	23
3NN	LDA	96
3NN	PART	82
3NN	PDFC	40
C4.5	PART	30
C4.5	PDFC	60
FURIA	LDA	72
FURIA	PART	37
FURIA	PDFC	49
LDA	PART	48
LDA	PDFC	91
LDA	SVM	51
PART	PDFC	66
PART	RIPPER	59
PART	SVM	56
PDFC	RIPPER	27
PDFC	SVM	58
"""

# Table VI: average of the Table V counts per partitioner and scheme.
_TABLE_6 = """scheme	DOB-SCV	DB-SCV	SCV	MS-SCV
2x5	52.687	51.250	31.500	1.250
5x2	55.684	52.737	39.789	0.000
10x1	49.857	51.095	45.333	1.762
Average	52.743	51.694	38.874	1.004
"""

# Table VII: experiments needed to converge (Algorithm 5), mean and standard deviation.
_TABLE_7 = """scheme	partitioner	mean	sd
2x5	DOB-SCV	16.71	12.01
2x5	DB-SCV	16.82	11.67
2x5	SCV	18.39	11.88
2x5	MS-SCV	31.42	13.23
5x2	DOB-SCV	33.46	24.05
5x2	DB-SCV	34.86	23.85
5x2	SCV	37.16	24.41
5x2	MS-SCV	62.58	26.17
10x1	DOB-SCV	53.98	32.08
10x1	DB-SCV	54.70	32.17
10x1	SCV	59.73	32.14
10x1	MS-SCV	85.77	27.14
"""


def _read(text: str, **kw) -> pd.DataFrame:
    return pd.read_csv(StringIO(text), sep="\t", **kw)


def table_1() -> pd.DataFrame:
    """Table I: dataset, attributes, real, integer, nominal, examples."""
    return _read(_TABLE_1)


def table_2() -> pd.DataFrame:
    """Table II: abbreviation, algorithm, type."""
    return _read(_TABLE_2)


def table_3() -> pd.DataFrame:
    """Table III: one row per data set, one column per classifier (true AUC)."""
    return _read(_TABLE_3)


def table_4_long() -> pd.DataFrame:
    """Table IV, one row per pair (upper triangle): row, column, R+, R-, p (float or None),
    p_text (as printed: a number, ">0.2", or "" where the text lost it)."""
    t = _read(_TABLE_4, dtype={"p": str}, keep_default_na=False)
    t["p_text"] = t["p"]
    t["p"] = [None if v in ("", ">0.2") else float(v) for v in t["p_text"]]
    return t


def table_4() -> pd.DataFrame:
    """Table IV as printed: a 9 x 9 matrix of "R+/R-/p" strings (R+ of the row)."""
    long = table_4_long()
    out = pd.DataFrame("-", index=list(LEARNERS), columns=list(LEARNERS))
    for r in long.itertuples():
        out.loc[r.row, r.column] = f"{r._3:g}/{r._4:g}/{r.p_text}"
        out.loc[r.column, r.row] = f"{r._4:g}/{r._3:g}/{r.p_text}"
    return out


def table_5() -> pd.DataFrame:
    """Table V (DOB-SCV 5x2): row, column, count out of 100."""
    return _read(_TABLE_5)


def table_6() -> pd.DataFrame:
    """Table VI: one row per scheme (and the average), one column per partitioner."""
    return _read(_TABLE_6)


def table_7() -> pd.DataFrame:
    """Table VII: scheme, partitioner, mean, sd of the experiments needed to converge."""
    return _read(_TABLE_7)
