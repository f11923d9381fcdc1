"""The shipped benchmark data catalog, loaded by the names the papers use.

Every data set is a Parquet file under ``data/`` (converted once by
``data/convert.py`` from registry packages), listed in ``data/MANIFEST`` with
its origin, licence and SHA-256; loading verifies the checksum. Nominal
attributes are pandas categoricals and missing values are NaN, as in the
sources. Nothing is downloaded, except by :func:`load_openml` on request.

>>> ds = load_dataset("krkp")            # the paper's name; catalog name "chess"
>>> ds.X.shape, ds.y.value_counts().to_dict()
((3196, 36), {'nowin': 1527, 'won': 1669})
"""
from __future__ import annotations

import difflib
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .studies import STUDY_IDS
from .synthetic import make_ringnorm, make_threenorm, make_twonorm

__all__ = [
    "Dataset", "ChecksumError", "STUDIES", "STAND_INS", "data_dir",
    "list_datasets", "load_dataset", "load_openml", "resolve_name",
]

RAEDER, MORENO, VANWINCKELEN, JAPKOWICZ, SCHEFFER = STUDIES = STUDY_IDS


class ChecksumError(ValueError):
    """A shipped data file does not match the SHA-256 recorded in data/MANIFEST."""


@dataclass(frozen=True)
class Entry:
    """What the catalog knows of a data set beyond its file."""

    name: str
    description: str
    aliases: tuple[str, ...] = ()
    studies: tuple[str, ...] = ()
    has_test: bool = False
    generator: Callable | None = None
    notes: str = ""


def _keel(name: str, description: str, aliases=(), studies=(MORENO,), notes="") -> Entry:
    return Entry(name, description, tuple(aliases), tuple(studies), notes=notes)


CATALOG: tuple[Entry, ...] = (
    # Moreno-Torres et al. 2012, Table I: the 24 of their 27 KEEL sets found here.
    _keel("australian", "Statlog Australian credit approval (KEEL)"),
    _keel("banana", "Banana-shaped two-class problem (KEEL)"),
    _keel("bands", "Cylinder bands, missing-value rows removed (KEEL)"),
    _keel("breast", "Ljubljana breast cancer, missing-value rows removed (KEEL)"),
    _keel("bupa", "BUPA liver disorders (KEEL)", aliases=("liver", "liver-disorders"),
          studies=(MORENO, RAEDER, JAPKOWICZ)),
    _keel("chess", "King-rook vs king-pawn (KEEL)", aliases=("krkp", "kr-vs-kp"),
          studies=(MORENO, RAEDER)),
    _keel("crx", "Credit approval, missing-value rows removed (KEEL)", aliases=("credit-a",),
          studies=(MORENO, RAEDER),
          notes="KEEL's file lost the decimal points of A2, A3, A8; Raeder et al. had the UCI file (690 rows)"),
    _keel("german", "Statlog German credit (KEEL)"),
    _keel("haberman", "Haberman's survival (KEEL)"),
    _keel("heart", "Statlog heart disease (KEEL)", aliases=("statlog-heart",),
          studies=(MORENO, SCHEFFER, RAEDER),
          notes="stand-in for Raeder et al.'s heart-c and heart-h (Cleveland, Hungarian)"),
    _keel("housevotes", "Congressional voting records 1984, incomplete rows removed (KEEL)"),
    _keel("ionosphere-keel", "Ionosphere, constant attribute removed (KEEL, 33 attributes)"),
    _keel("mammographic", "Mammographic mass, missing-value rows removed (KEEL)"),
    _keel("monk-2", "MONK's problem 2 (KEEL)"),
    _keel("mushroom", "Mushroom, missing-value rows removed (KEEL)",
          studies=(MORENO, VANWINCKELEN)),
    _keel("phoneme", "ELENA phoneme (KEEL)"),
    _keel("pima-keel", "Pima Indians diabetes (KEEL)"),
    _keel("saheart", "South African heart disease (KEEL)"),
    _keel("sonar-keel", "Sonar, mines vs rocks (KEEL)"),
    _keel("spambase", "Spambase (KEEL)"),
    _keel("tic-tac-toe", "Tic-tac-toe endgame (KEEL)", aliases=("tictactoe",),
          studies=(MORENO, RAEDER, JAPKOWICZ)),
    _keel("titanic", "Titanic survival (KEEL)"),
    _keel("wdbc", "Wisconsin diagnostic breast cancer (KEEL)"),
    _keel("wisconsin", "Wisconsin breast cancer, missing-value rows removed (KEEL)"),
    # Raeder et al. 2010 (UCI files, as WEKA reads them).
    Entry("breast-w", "Wisconsin breast cancer (UCI, mlbench BreastCancer)", ("breast-wisconsin",),
          (RAEDER,)),
    Entry("ionosphere", "Ionosphere radar returns (UCI, mlbench)", ("ion",), (RAEDER,)),
    Entry("pima", "Pima Indians diabetes (UCI, mlbench)", ("diabetes", "pima-indians-diabetes"),
          (RAEDER, JAPKOWICZ, SCHEFFER)),
    Entry("promoters", "E. coli promoter gene sequences (UCI, kernlab promotergene)",
          ("promotergene", "molecular-biology-promoters"), (RAEDER,)),
    Entry("sonar", "Sonar, mines vs rocks (UCI, mlbench)", (), (RAEDER,)),
    Entry("vote", "Congressional voting records 1984 (UCI, mlbench HouseVotes84)",
          ("house-votes-84",), (RAEDER,)),
    Entry("vote1", "vote without the physician-fee-freeze attribute", (), (RAEDER,)),
    Entry("twonorm", "Breiman's twonorm, generated (default 300 x 20)", (), (RAEDER, VANWINCKELEN),
          generator=make_twonorm),
    Entry("threenorm", "Breiman's threenorm, generated (default 300 x 20)", (), (RAEDER,),
          generator=make_threenorm),
    Entry("ringnorm", "Breiman's ringnorm, generated (default 300 x 20)", (), (RAEDER,),
          generator=make_ringnorm),
    # True test sets: Raeder Tables IV-V stand-ins, Scheffer & Herbrich's Landsat and DNA.
    Entry("landsat", "Statlog Landsat satellite image (mlbench Satellite)", ("satimage", "satellite"),
          (SCHEFFER, RAEDER), has_test=True),
    Entry("dna", "Statlog DNA splice junctions (mlbench DNA)", ("splice-statlog",),
          (SCHEFFER, RAEDER), has_test=True),
    Entry("segment", "Image segmentation, WEKA's segment-challenge / segment-test", (),
          (RAEDER,), has_test=True),
    # Vanwinckelen & Blockeel 2012: large "populations".
    Entry("letter", "Letter recognition (mlbench LetterRecognition)", ("letter-recognition",),
          (VANWINCKELEN,)),
    Entry("shuttle", "Statlog shuttle, training and test files combined (mlbench)", (), (VANWINCKELEN,)),
    _keel("magic", "MAGIC gamma telescope (KEEL)", studies=(VANWINCKELEN,)),
    _keel("penbased", "Pen-based handwritten digits (KEEL)", aliases=("pendigits",),
          studies=(VANWINCKELEN,)),
    _keel("twonorm-keel", "DELVE's fixed twonorm sample, 7400 x 20 (KEEL)", studies=(VANWINCKELEN,)),
    # Japkowicz & Shah tutorial examples (WEKA's ARFF files).
    Entry("breast-cancer", "Ljubljana breast cancer (WEKA)", (), (JAPKOWICZ,)),
    Entry("labor", "Labor negotiations (WEKA)", ("labour", "labor-neg"), (JAPKOWICZ,)),
    Entry("contact-lenses", "Contact lenses (WEKA)", (), (JAPKOWICZ,)),
    Entry("glass", "Glass identification (mlbench)", (), (JAPKOWICZ,)),
    # Small textbook and general sets.
    Entry("weather-nominal", "Quinlan's weather (play tennis), nominal (WEKA)", ("weather",)),
    Entry("weather-numeric", "Quinlan's weather, numeric temperature and humidity (WEKA)"),
    Entry("iris", "Fisher's iris (WEKA)"),
    Entry("credit-g", "Statlog German credit, UCI coding (WEKA)"),
    Entry("vehicle", "Statlog vehicle silhouettes (mlbench)"),
    Entry("zoo", "Zoo (mlbench)"),
    Entry("soybean", "Soybean (large), 19 classes (mlbench)"),
)

# Paper names with no data set here: the nearest stand-in in the catalog, or None.
STAND_INS: dict[str, str | None] = {
    "heart-c": "heart", "heart-h": "heart", "heart-disease": "heart",
    "horse-colic": None, "ncaaf": None, "college-football": None,
    "appendicitis": None, "hepatitis": None, "spectfheart": None,
    "adult": None, "nursery": None, "kr-vs-k": None, "abalone": None, "mesh": None,
    "kddpe": None, "compustat": None, "ozone": None, "text": None, "wrds": None,
    "anneal": None, "audiology": None, "balance-scale": None, "hypothyroid": None,
}

_BY_NAME = {e.name: e for e in CATALOG}
_ALIASES = {a: e.name for e in CATALOG for a in e.aliases}


@dataclass
class Dataset:
    """A loaded data set: attributes ``X``, class ``y`` and what is known of them."""

    name: str
    X: pd.DataFrame
    y: pd.Series
    split: str
    meta: dict = field(default_factory=dict)

    @property
    def nominal(self) -> list[str]:
        """Names of the nominal (categorical) attributes."""
        return [c for c in self.X.columns if isinstance(self.X[c].dtype, pd.CategoricalDtype)]

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}: {v}" for k, v in self.y.value_counts(sort=False).items())
        return f"Dataset({self.name!r}, split={self.split!r}, X={self.X.shape}, classes {{{counts}}})"


def data_dir() -> Path:
    """The data folder: $CVREPRO_DATA, else ``data/`` at the project root."""
    env = os.environ.get("CVREPRO_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "data"


@cache
def _manifest(folder: str) -> pd.DataFrame:
    path = Path(folder) / "MANIFEST"
    if not path.exists():
        raise FileNotFoundError(f"no data manifest at {path}; set CVREPRO_DATA to the data folder")
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False).set_index("file")


def resolve_name(name: str) -> str:
    """The catalog name for ``name`` (case-insensitive; paper aliases accepted)."""
    if not isinstance(name, str):
        raise TypeError(f"data set name must be a string, got {type(name).__name__}: {name!r}")
    key = name.strip().lower()
    if key in _BY_NAME:
        return key
    if key in _ALIASES:
        return _ALIASES[key]
    if key in STAND_INS:
        stand_in = STAND_INS[key]
        hint = (f"; the nearest stand-in is {stand_in!r}, load it by that name" if stand_in
                else "; no stand-in ships with cvrepro (try load_openml if you are online)")
        raise KeyError(f"data set {name!r} is not available here{hint}")
    known = sorted(_BY_NAME) + sorted(_ALIASES)
    close = difflib.get_close_matches(key, known, n=4, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise KeyError(f"unknown data set {name!r}{hint} (list_datasets() shows them all)")


def _read(filename: str) -> pd.DataFrame:
    folder = data_dir()
    manifest = _manifest(str(folder))
    if filename not in manifest.index:
        raise FileNotFoundError(f"{filename} is not listed in {folder / 'MANIFEST'}")
    path = folder / filename
    payload = path.read_bytes()
    digest = hashlib.sha256(payload).hexdigest()
    expected = manifest.loc[filename, "sha256"]
    if digest != expected:
        raise ChecksumError(
            f"checksum mismatch for {path}: SHA-256 {digest} but data/MANIFEST says {expected}; "
            "the file is damaged or was changed (restore it with git checkout)"
        )
    return _cached_frame(str(path), digest)


@lru_cache(maxsize=64)
def _cached_frame(path: str, digest: str) -> pd.DataFrame:
    return pd.read_parquet(path)


def load_dataset(name: str, split: str = "train", dropna: bool = False, *,
                 n_samples: int = 300, n_features: int = 20, random_state=0) -> Dataset:
    """Load a catalog data set by its name or a paper's alias.

    ``split="test"`` returns the separate test set of the sets that have one
    (landsat, dna, segment); ``dropna=True`` removes incomplete examples, as
    Moreno-Torres et al. did. Generated sets (twonorm, threenorm, ringnorm)
    take ``n_samples``, ``n_features`` and ``random_state``.
    """
    entry = _BY_NAME[resolve_name(name)]
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    if split == "test" and not entry.has_test:
        with_test = [e.name for e in CATALOG if e.has_test]
        raise ValueError(f"data set {entry.name!r} has no separate test set; these do: {', '.join(with_test)}")
    meta = {"description": entry.description, "studies": entry.studies, "notes": entry.notes}
    if entry.generator is not None:
        if split == "test":
            raise ValueError("generated data sets have no fixed test set; draw another sample instead")
        X, y = entry.generator(n_samples, n_features, random_state)
        frame = pd.DataFrame(X, columns=[f"x{i + 1}" for i in range(X.shape[1])])
        frame["class"] = pd.Categorical(y.astype(str), categories=["1", "2"])
        meta.update(source="generated by cvrepro.synthetic", licence="none (synthetic)",
                    n_samples=n_samples, random_state=random_state)
    else:
        filename = f"{entry.name}{'-test' if split == 'test' else ''}.parquet"
        frame = _read(filename)
        row = _manifest(str(data_dir())).loc[filename]
        meta.update(source=f"{row['package']} {row['version']}: {row['path_in_package']}",
                    licence=row["licence"], file=filename, sha256=row["sha256"])
        if row["notes"]:
            meta["notes"] = "; ".join(filter(None, [entry.notes, row["notes"]]))
    if dropna:
        frame = frame.dropna().reset_index(drop=True)
    X = frame.drop(columns="class")
    y = frame["class"].rename("class")
    return Dataset(entry.name, X, y, split, meta)


def list_datasets(study: str | None = None) -> pd.DataFrame:
    """One row per catalog data set (optionally only those of ``study``)."""
    if study is not None and study not in STUDIES:
        raise ValueError(f"unknown study {study!r}; studies are: {', '.join(STUDIES)}")
    rows = [_summary(e.name) for e in CATALOG if study is None or study in e.studies]
    return pd.DataFrame(rows)


@cache
def _summary(name: str) -> dict:
    entry = _BY_NAME[name]
    ds = load_dataset(name)
    counts = ds.y.value_counts()
    return {
        "name": name,
        "aliases": ", ".join(entry.aliases),
        "n_instances": len(ds.y),
        "n_test": len(load_dataset(name, split="test").y) if entry.has_test else 0,
        "n_features": ds.X.shape[1],
        "n_nominal": len(ds.nominal),
        "n_classes": int((counts > 0).sum()),
        "minority_fraction": round(float(counts[counts > 0].min() / counts.sum()), 4),
        "missing_values": int(ds.X.isna().sum().sum()),
        "has_test_set": entry.has_test,
        "source": ds.meta["source"],
        "licence": ds.meta["licence"],
        "studies": ", ".join(entry.studies),
        "description": entry.description,
    }


def load_openml(data_id: int, cache_dir: str | os.PathLike | None = None) -> Dataset:
    """Load an OpenML data set (needs the network the first time), cached as Parquet.

    The first call fetches with scikit-learn's ``fetch_openml`` and writes
    ``openml-<id>.parquet`` into ``cache_dir`` (default ``~/.cache/cvrepro``);
    later calls read that file and work offline.
    """
    if not isinstance(data_id, (int, np.integer)) or data_id <= 0:
        raise ValueError(f"data_id must be a positive integer, got {data_id!r}")
    cache = Path(cache_dir) if cache_dir is not None else Path.home() / ".cache" / "cvrepro"
    path = cache / f"openml-{data_id}.parquet"
    if not path.exists():
        from sklearn.datasets import fetch_openml

        try:
            bunch = fetch_openml(data_id=int(data_id), as_frame=True, parser="auto",
                                 data_home=str(cache / "sklearn"))
        except Exception as exc:  # network errors come in many types
            raise ConnectionError(
                f"could not fetch OpenML data set {data_id} and no cache at {path}: {exc}") from exc
        frame = bunch.frame.copy()
        target = bunch.target.name if hasattr(bunch.target, "name") else "class"
        frame["class"] = frame.pop(target).astype("category")
        for c in frame.columns:
            if frame[c].dtype == object:
                frame[c] = frame[c].astype("category")
        cache.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    frame = pd.read_parquet(path)
    X = frame.drop(columns="class")
    return Dataset(f"openml-{data_id}", X, frame["class"], "train",
                   {"source": f"OpenML data set {data_id}", "licence": "see OpenML", "file": str(path)})
