"""Record KEEL's PART (PART-C) on chosen folds: classes and rule lists (tests/fixtures/keel/part.json).

Needs java and KEEL's compiled classes ($CVREPRO_KEEL_CLASSES, see
cvrepro.reference.keel). For each case (data set, fold, declared ranges) it
writes the fold (test positions; training = the rest, in order), KEEL's
predicted class index per test instance and KEEL's printed rule list with its
default rule, parsed (cvrepro.reference.keel_rules.parse_part).
tests/test_learners_keel_part.py compares KeelPART with these fixtures, and
with KEEL itself when it is available.

The folds are not those KeelPART was ported on (random halves of other
seeds). The cases cover Moreno-Torres et al.'s data sets with the whole data
set's ranges (as KEEL's partitions declare them), nominal attributes, missing
values (labor, vote, soybean, breast-cancer, crx, horse-colic), many classes
(glass, zoo, soybean: 19), ties and duplicates (tic-tac-toe, zoo, monk-2),
and both kinds of declared ranges. PART-C takes no seed.

    CVREPRO_KEEL_CLASSES=/path/to/classes python tools/record_keel_part.py
"""
from __future__ import annotations

from keel_fixture_cases import fold_cases, main, write_fixture

from cvrepro.reference import keel
from cvrepro.reference.keel_rules import declared_labels, parse_part

# (data set, dropna, subsample size or None, declared ranges, folds to record)
PART_SETS = [("haberman", False, None, "whole", 2), ("heart", False, None, "whole", 2),
             ("bupa", False, None, "whole", 2), ("pima-keel", False, None, "whole", 2),
             ("sonar-keel", False, None, "whole", 2), ("wisconsin", False, None, "whole", 2),
             ("australian", False, None, "whole", 2), ("monk-2", False, None, "whole", 2),
             ("labor", False, None, "train", 2), ("vote", False, None, "train", 2),
             ("soybean", False, None, "train", 2), ("glass", False, None, "train", 2),
             ("zoo", False, None, "whole", 2), ("breast-cancer", False, None, "whole", 2),
             ("crx", False, None, "whole", 1), ("horse-colic", False, None, "train", 1),
             ("tic-tac-toe", False, None, "train", 1), ("mushroom", False, 800, "whole", 1),
             ("iris", False, None, "train", 1)]


def record(key):
    cases = []
    for case, X, y, train, test, bounds in fold_cases(PART_SETS):
        run = keel.run("PART-C", X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test], bounds=bounds)
        nominal, classes = declared_labels(keel.dat_header(X.iloc[train], y.iloc[train]))
        rules = parse_part(run.extra[0], nominal, classes)
        case.update({"keel_pred": run.test_pred.tolist(), "keel_rules": rules})
        cases.append(case)
        print(f"{key} {case['dataset']} fold {case['fold']}: {len(test)} test instances, {len(rules)} rules",
              flush=True)
    write_fixture(key, {"algorithm": "PART-C", "params": dict(keel.ALGORITHMS["PART-C"].parameters),
                        "learner": "KeelPART", "cases": cases})


if __name__ == "__main__":
    main(record, ["part"])
