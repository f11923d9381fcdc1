"""Write data/examples/wine.csv, the researcher's CSV of notebook 06, from scikit-learn's copy of UCI wine.

UCI Wine (Forina et al.; 178 wines, 13 chemical measurements, 3 cultivars; CC BY 4.0) is used by none
of the five studies. scikit-learn ships it (sklearn/datasets/data/wine_data.csv); this script writes it
as a plain CSV with a header and the class column ``cultivar``, and records its SHA-256 in
data/examples/MANIFEST.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import sklearn
from sklearn.datasets import load_wine

FOLDER = Path(__file__).resolve().parents[1] / "data" / "examples"


def main() -> None:
    wine = load_wine(as_frame=True)
    frame = wine.frame.rename(columns={"target": "cultivar"})
    frame["cultivar"] = frame["cultivar"].map(dict(enumerate(wine.target_names)))
    FOLDER.mkdir(parents=True, exist_ok=True)
    path = FOLDER / "wine.csv"
    frame.to_csv(path, index=False, lineterminator="\n")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    (FOLDER / "MANIFEST").write_text(
        "file\tsha256\tpackage\tversion\tpath_in_package\tlicence\tnotes\n"
        f"wine.csv\t{digest}\tscikit-learn (PyPI)\t{sklearn.__version__}\tsklearn/datasets/data/wine_data.csv\t"
        "CC BY 4.0 (UCI Machine Learning Repository)\tUCI Wine, 178 rows, 13 attributes, class column "
        "'cultivar' (class_0..class_2); used by no study\n")
    print(f"wrote {path} ({digest})")


if __name__ == "__main__":
    main()
