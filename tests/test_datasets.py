"""The shipped catalog against the counts its sources publish."""
import hashlib
import shutil

import numpy as np
import pandas as pd
import pytest

from cvrepro import datasets
from cvrepro.datasets import ChecksumError, list_datasets, load_dataset, load_openml
from cvrepro.synthetic import make_ringnorm, make_threenorm, make_twonorm

# (instances, attributes, class counts) as the sources document them: UCI/StatLog
# descriptions, WEKA's ARFF headers, R mlbench/kernlab help pages.
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
}
PUBLISHED_TEST = {
    "landsat": (2000, {"red soil": 461, "cotton crop": 224, "grey soil": 397,
                       "damp grey soil": 211, "vegetation stubble": 237, "very damp grey soil": 470}),
    "dna": (1186, {"ei": 303, "ie": 280, "n": 603}),
    "segment": (810, None),
}
# Moreno-Torres et al. 2012, Table I: examples and attributes (R/I/N) after their
# removal of incomplete examples. Sonar's row prints "3 (60/0/0)": 60 attributes.
MORENO_TABLE_I = {
    "australian": (690, 14, 6), "banana": (5300, 2, 0), "bands": (365, 19, 0),
    "breast": (277, 9, 9), "bupa": (345, 6, 0), "chess": (3196, 36, 36),
    "crx": (653, 15, 9), "german": (1000, 20, 13), "haberman": (306, 3, 0),
    "heart": (270, 13, 0), "housevotes": (232, 16, 16), "ionosphere-keel": (351, 33, 0),
    "mammographic": (830, 5, 0), "monk-2": (432, 6, 0), "mushroom": (5644, 22, 22),
    "phoneme": (5404, 5, 0), "pima-keel": (768, 8, 0), "saheart": (462, 9, 1),
    "sonar-keel": (208, 60, 0), "spambase": (4597, 57, 0), "tic-tac-toe": (958, 9, 9),
    "titanic": (2201, 3, 0), "wdbc": (569, 30, 0), "wisconsin": (683, 9, 0),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_shape_and_class_counts_match_the_source(name):
    n, d, counts = PUBLISHED[name]
    ds = load_dataset(name)
    assert ds.X.shape == (n, d)
    if counts is not None:
        assert ds.y.value_counts().to_dict() == counts


@pytest.mark.parametrize("name", sorted(PUBLISHED_TEST))
def test_true_test_sets_match_the_source(name):
    n, counts = PUBLISHED_TEST[name]
    test = load_dataset(name, split="test")
    assert len(test.y) == n
    assert list(test.X.columns) == list(load_dataset(name).X.columns)
    if counts is not None:
        assert test.y.value_counts().to_dict() == counts


@pytest.mark.parametrize("name", sorted(MORENO_TABLE_I))
def test_keel_sets_match_moreno_torres_table_1(name):
    n, d, n_nominal = MORENO_TABLE_I[name]
    ds = load_dataset(name)
    assert ds.X.shape == (n, d)
    assert len(ds.nominal) == n_nominal
    assert ds.y.nunique() == 2
    assert ds.X.isna().sum().sum() == 0  # KEEL's files had incomplete rows removed


def test_catalog_has_at_least_40_sets_and_all_24_keel_sets_of_moreno_torres():
    table = list_datasets()
    assert len(table) >= 40
    moreno = set(list_datasets("moreno_torres2012")["name"])
    assert set(MORENO_TABLE_I) <= moreno
    columns = {"name", "aliases", "n_instances", "n_features", "n_nominal", "n_classes",
               "minority_fraction", "missing_values", "has_test_set", "source", "licence", "studies"}
    assert columns <= set(table.columns)
    assert table["name"].is_unique


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


def test_vote1_is_vote_without_physician_fee_freeze():
    vote, vote1 = load_dataset("vote"), load_dataset("vote1")
    assert "physician-fee-freeze" in vote.X.columns
    pd.testing.assert_frame_equal(vote.X.drop(columns="physician-fee-freeze"), vote1.X)


@pytest.mark.parametrize("alias,name", [
    ("breast-w", "breast-w"), ("krkp", "chess"), ("credit-a", "crx"), ("crx", "crx"),
    ("ion", "ionosphere"), ("promoters", "promoters"), ("vote1", "vote1"),
    ("Landsat", "landsat"), ("DNA", "dna"), ("diabetes", "pima"), ("liver", "bupa"),
])
def test_paper_names_are_aliases(alias, name):
    assert load_dataset(alias).name == name


def test_unknown_name_suggests_close_matches():
    with pytest.raises(KeyError, match="did you mean.*'sonar'"):
        load_dataset("sonr")


def test_unavailable_paper_set_names_its_stand_in():
    with pytest.raises(KeyError, match="not available.*'heart'"):
        load_dataset("heart-c")
    with pytest.raises(KeyError, match="horse-colic.*no stand-in"):
        load_dataset("horse-colic")


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
    with pytest.raises(ChecksumError, match="sonar.parquet"):
        load_dataset("sonar")


def test_manifest_records_origin_licence_and_checksum_of_every_file():
    folder = datasets.data_dir()
    manifest = pd.read_csv(folder / "MANIFEST", sep="\t", dtype=str, keep_default_na=False)
    assert set(manifest["file"]) == {p.name for p in folder.glob("*.parquet")}
    for row in manifest.itertuples():
        assert row.package and row.version and row.path_in_package and row.licence
        assert hashlib.sha256((folder / row.file).read_bytes()).hexdigest() == row.sha256


def test_damaged_keel_crx_is_flagged():
    crx = load_dataset("crx")
    assert "decimal points" in crx.meta["notes"]
    assert crx.X["A2"].max() > 1000  # the damage itself: 30.83 stored as 3083


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
