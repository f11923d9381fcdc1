"""Add Raeder et al.'s Table III replayed on the first n stored runs (``replays_by_stored``) to its shipped tables.

    .venv/bin/python tools/ship_raeder_by_stored.py --store ~/cvrepro-results/raeder2010-paper

Reads the paper run's store (the out-of-fold probabilities of the two learners of each part of Table III; a cell
the store lacks would be computed and written there) and adds the table to ``results/paper/raeder2010/`` with its
checksum; a full ``tools/paper_run.py raeder2010 --ship`` writes it too (``to_tables``).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from cvrepro import shipped
from cvrepro.profiles import study_parameters
from cvrepro.runner import run_cv
from cvrepro.studies import raeder2010 as study


def by_stored(store: Path) -> pd.DataFrame:
    """``replays_by_stored`` of the paper design, reading each part's two learners and k from ``store``."""
    p = study_parameters(study.STUDY_ID, "paper")
    frames = []
    for part, (a, b, k) in study.TABLE_3_PARTS.items():
        cv = run_cv(p["datasets"], study.make_learners([a, b], p["c45_laplace"]), folds=(k,),
                    iterations=p["iterations"], partitioner=study.PARTITIONER, store=store, seed=p["seed"],
                    progress=False)
        frames.append(study.table_3_by_stored(cv, part, p["datasets"], study.TABLE_3_STORED, p["n_orderings"],
                                              p["replay_sampling"], p["replay_pairing"], p["ks_ties"])
                      .assign(part=part))
    return pd.concat(frames, ignore_index=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="the paper run's result store")
    args = parser.parse_args(argv)
    started = time.process_time()
    table = by_stored(args.store.expanduser().resolve())
    folder = shipped.add_table(study.STUDY_ID, "replays_by_stored", table,
                               f"tools/ship_raeder_by_stored.py, {time.process_time() - started:.0f} s CPU")
    print(f"added replays_by_stored ({len(table)} rows) to {folder}")


if __name__ == "__main__":
    sys.exit(main())
