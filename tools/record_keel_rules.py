"""Record KEEL's Ripper and FURIA on chosen folds: classes and rule sets (tests/fixtures/keel/*.json).

Needs java and KEEL's compiled classes ($CVREPRO_KEEL_CLASSES, see
cvrepro.reference.keel). For each case (data set, fold, declared ranges) it
writes the fold (test positions; training = the rest, in order), KEEL's
predicted class index per test instance and KEEL's printed rule set, parsed
(cvrepro.reference.keel_rules). tests/test_learners_keel_rules.py compares
KeelRipper and FURIA with these fixtures, and with KEEL itself when it is
available.

The cases cover nominal attributes, missing values (labor, vote, soybean,
breast-cancer), many classes (glass, zoo, soybean: 19), ties and duplicates
(tic-tac-toe, zoo), and both kinds of declared ranges (the training fold's,
the whole data set's). Seed: KEEL's first experiment seed (1286082570).

    CVREPRO_KEEL_CLASSES=/path/to/classes python tools/record_keel_rules.py [ripper] [furia]
"""
from __future__ import annotations

from keel_fixture_cases import fold_cases, main, write_fixture

from cvrepro.learners.keel_ripper import KEEL_DEFAULT_SEED
from cvrepro.reference import keel
from cvrepro.reference.keel_rules import declared_labels, parse_furia, parse_ripper

# (data set, dropna, subsample size or None, declared ranges, folds to record)
RULE_SETS = [("iris", False, None, "train", 2), ("glass", False, None, "train", 2),
             ("labor", False, None, "train", 2), ("vote", False, None, "train", 2),
             ("soybean", False, None, "train", 2), ("breast-cancer", False, None, "whole", 2),
             ("zoo", False, None, "whole", 2), ("crx", True, None, "whole", 1),
             ("heart", False, None, "whole", 1), ("tic-tac-toe", False, None, "train", 1),
             ("haberman", False, None, "whole", 1), ("banana", False, 600, "train", 1)]

ALGORITHMS = {  # fixture file: (KEEL algorithm, our learner, rule parser)
    "ripper": ("Ripper-C", "KeelRipper", parse_ripper),
    "furia": ("FURIA-C", "FURIA", parse_furia),
}


def record(key):
    algorithm, learner, parse = ALGORITHMS[key]
    cases = []
    for case, X, y, train, test, bounds in fold_cases(RULE_SETS):
        run = keel.run(algorithm, X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test],
                       seed=KEEL_DEFAULT_SEED, bounds=bounds)
        nominal, classes = declared_labels(keel.dat_header(X.iloc[train], y.iloc[train]))
        rules = parse(run.extra[0], nominal, classes)
        case.update({"keel_pred": run.test_pred.tolist(), "keel_rules": rules})
        cases.append(case)
        print(f"{key} {case['dataset']} fold {case['fold']}: {len(test)} test instances, {len(rules)} rules",
              flush=True)
    write_fixture(key, {"algorithm": algorithm, "params": dict(keel.ALGORITHMS[algorithm].parameters),
                        "seed": KEEL_DEFAULT_SEED, "learner": learner, "cases": cases})


if __name__ == "__main__":
    main(record, ALGORITHMS)
