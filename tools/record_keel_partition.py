"""Record KEEL's DOB-SCV partitions (``DistanceBased_best``) as fixtures for tests/test_partition.py.

KEEL's partition generator seeds ``org.core.Randomize`` and builds a
``DistanceBased_best`` on the data file; this script does the same through a
small driver (written here, compiled against KEEL's classes) and records, per
case (data set, seed, k), the fold of every example, and for each data set
KEEL's distance (``distancia``) from its first rows to every row. The data go
to KEEL exactly as :func:`cvrepro.reference.keel.write_dat` writes them (the
class order is our categorical order, so KEEL's class index is our code).

Incomplete data sets (hepatitis and labor with their missing values) give only
distances: KEEL's distance of an incomplete example to itself is
sqrt(number of missing values) > 0, so such a seed can be its own neighbour and
KEEL puts it in two folds (hepatitis, seed 1, k = 10: 162 placements of 155
examples), which a fold assignment cannot represent. The paper removed
incomplete examples, so its partitions never met this.

Needs java/javac and KEEL's compiled classes (src/org/core, src/keel/Dataset and
``DistanceBased_best``), named by ``$CVREPRO_KEEL_CLASSES``:

    CVREPRO_KEEL_CLASSES=/path/to/classes python tools/record_keel_partition.py
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from cvrepro.datasets import load_dataset
from cvrepro.reference import keel

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "keel_partition" / "dobscv.json"
DISTANCE_ROWS = 4

# (catalog name, dropna): numeric (haberman, bupa, ionosphere), mixed with missing values
# (hepatitis kept incomplete, labor), nominal with duplicates (housevotes), many classes (glass)
CASES = [("haberman", True), ("bupa", True), ("hepatitis", False), ("labor", False),
         ("housevotes", True), ("glass", True), ("ionosphere", True)]
SEEDS = (1, 12345678)
KS = (10, 5, 2)

DRIVER = r"""
import java.util.Vector;
import org.core.Randomize;
import keel.GraphInterKeel.datacf.partitionData.PartitioningSchemes.DistanceBased_best;

public class RecordDobscv {
    public static void main(String[] args) {
        int k = Integer.parseInt(args[2]);
        Randomize.setSeed(Long.parseLong(args[1]));
        DistanceBased_best scheme = new DistanceBased_best(args[0], k);
        Vector[] parts = scheme.getPartitions();
        for (int f = 0; f < parts.length; f++) {
            StringBuilder line = new StringBuilder("FOLD " + f);
            for (Object i : parts[f]) line.append(' ').append(i);
            System.out.println(line);
        }
        int rows = Integer.parseInt(args[3]);
        int n = scheme.getInstances().length;
        for (int i = 0; i < rows; i++) {
            StringBuilder line = new StringBuilder("DIST " + i);
            for (int j = 0; j < n; j++) line.append(' ').append(scheme.distancia(i, j));
            System.out.println(line);
        }
    }
}
"""


def compile_driver(classes: str, where: Path) -> None:
    (where / "RecordDobscv.java").write_text(DRIVER)
    subprocess.run(["javac", "-nowarn", "-cp", classes, "-d", str(where), str(where / "RecordDobscv.java")],
                   check=True)


def run_keel(classes: str, where: Path, dat: Path, seed: int, k: int, rows: int):
    out = subprocess.run(["java", "-cp", f"{classes}:{where}", "RecordDobscv", str(dat), str(seed), str(k),
                          str(rows)], check=True, capture_output=True, text=True).stdout
    folds, dist = {}, []
    for line in out.splitlines():
        if line.startswith("FOLD "):
            f, *rows_ = line.split()[1:]
            for r in rows_:
                folds.setdefault(int(r), []).append(int(f))
        elif line.startswith("DIST "):
            dist.append([float(v) for v in line.split()[2:]])
    return folds, dist


def main() -> None:
    classes = keel.find_classes()
    if classes is None:
        sys.exit(f"set ${keel.ENV} to KEEL's compiled classes")
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        compile_driver(classes, where)
        for name, dropna in CASES:
            ds = load_dataset(name, dropna=dropna)
            dat = where / f"{name}.dat"
            keel.write_dat(dat, ds.X, ds.y)
            complete = not ds.X.isna().any().any()
            _, distances = run_keel(classes, where, dat, 1, 2, DISTANCE_ROWS)
            cases.append({"dataset": name, "dropna": dropna, "distances": distances})
            for seed in SEEDS if complete else ():
                for k in KS:
                    folds, _ = run_keel(classes, where, dat, seed, k, 0)
                    if sorted(folds) != list(range(len(ds.y))) or any(len(f) != 1 for f in folds.values()):
                        raise RuntimeError(f"{name}: KEEL did not place every example once")
                    cases.append({"dataset": name, "dropna": dropna, "seed": seed, "k": k,
                                  "folds": [folds[i][0] for i in range(len(ds.y))]})
                    print(name, seed, k, flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"source": "KEEL DistanceBased_best (GitHub SCI2SUGR/KEEL), "
                                         "Randomize.setSeed(seed) then new DistanceBased_best(file, k)",
                               "cases": cases}, separators=(",", ":")) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
