"""Speed of our learners: C4.5 fit+predict against scikit-learn's DecisionTreeClassifier
(target: within 5x on the same data), and HDDT, kernel NB, IBk, SMO, MLP times.

Each timing is the median over repeats of fit on a 90 % split + predict on the rest.
scikit-learn's tree gets the same rows, with nominal attributes one-hot coded and
missing values filled (it needs numbers), criterion "entropy".
"""
import time

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier
from timing import numeric_matrix, timed

from cvrepro.datasets import load_dataset
from cvrepro.learners import make_learner

DATASETS = ["sonar", "pima", "vote", "crx", "breast-w", "tic-tac-toe", "chess", "segment", "landsat"]
REPEATS = 5


def main():
    rows = []
    for name in DATASETS:
        ds = load_dataset(name)
        rng = np.random.default_rng(0)
        perm = rng.permutation(len(ds.y))
        cut = int(0.9 * len(perm))
        tr, te = perm[:cut], perm[cut:]
        Xtr, Xte, ytr = ds.X.iloc[tr], ds.X.iloc[te], ds.y.iloc[tr]
        Ztr, Zte = numeric_matrix(ds.X)[tr], numeric_matrix(ds.X)[te]
        for learner in ["C4.5", "HDDT", "NB", "5-NN", "SMO", "MLP"]:
            make_learner(learner).fit(Xtr.iloc[:50], ytr.iloc[:50])      # numba compilation
        sk = timed(lambda: DecisionTreeClassifier(criterion="entropy", random_state=0), Ztr, ytr, Zte, REPEATS)
        row = {"dataset": name, "n": len(ds.y), "d": ds.X.shape[1], "sklearn_tree_ms": 1e3 * sk}
        for learner in ["C4.5", "HDDT", "NB", "5-NN", "SMO"]:
            row[f"{learner}_ms"] = 1e3 * timed(lambda learner=learner: make_learner(learner), Xtr, ytr, Xte, REPEATS)
        row["C4.5/sklearn"] = row["C4.5_ms"] / row["sklearn_tree_ms"]
        rows.append(row)
        print(pd.DataFrame([row]).round(2).to_string(index=False, header=len(rows) == 1), flush=True)
    table = pd.DataFrame(rows)
    ratio = np.exp(np.log(table["C4.5/sklearn"]).mean())
    print(f"\ngeometric mean C4.5 / sklearn tree time: {ratio:.2f}x (target <= 5x)")
    mlp = load_dataset("pima")
    t = time.perf_counter()
    make_learner("MLP").fit(mlp.X, mlp.y)
    print(f"MLP -H 3, 500 epochs on pima (768 x 8): {1e3 * (time.perf_counter() - t):.0f} ms")


if __name__ == "__main__":
    main()
