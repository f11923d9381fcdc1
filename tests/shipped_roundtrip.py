"""What the per-study shipped-results tests share: a small design labelled `paper`, shipped and read back."""
import pandas as pd

from cvrepro import shipped


def ship_and_read_back(study, params: dict, tmp_path_factory):
    """Run ``params`` with ``study`` (its module), ship its tables to a temporary folder and run it again from
    them: ``(params, results, read back, folder)``."""
    results = study.run(params, progress=False)
    root = tmp_path_factory.mktemp("shipped")
    shipped.save(study.STUDY_ID, study.to_tables(results), params, root=root)
    return params, results, study.run(params, shipped=root), root


def assert_round_trip(study, outputs, params: dict, results, again) -> None:
    """``outputs(results, params)`` (every table, figure's data, sentence and claim the notebook computes) the
    same from the run and from its shipped tables, and ``to_tables`` giving the same tables again."""
    ours, theirs = outputs(results, params), outputs(again, params)
    for name in ours:
        pd.testing.assert_frame_equal(ours[name], theirs[name], obj=name)
    for name, table in study.to_tables(results).items():
        pd.testing.assert_frame_equal(table, study.to_tables(again)[name], obj=name)
