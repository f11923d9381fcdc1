"""Notebook sources: every notebook is a jupytext percent file paired with an .ipynb
generated from it (no outputs, a tagged parameters cell), and the two are in sync."""
import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("sync_notebooks", ROOT / "tools" / "sync_notebooks.py")
sync = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sync)


def test_every_notebook_has_a_source_and_is_in_sync():
    assert sync.sources(), "no notebook sources found"
    assert sync.out_of_sync() == []


def test_committed_notebooks_have_no_outputs_and_a_tagged_parameters_cell():
    for source in sync.sources():
        nb = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(not c.outputs and c.execution_count is None for c in code), source.name
        tagged = [c for c in code if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1 and "profile" in tagged[0].source, source.name


def test_a_changed_source_is_reported(tmp_path, monkeypatch):
    for source in sync.sources()[:1]:
        (tmp_path / source.name).write_text(source.read_text() + "\n# %%\nprint('new cell')\n")
        (tmp_path / source.with_suffix(".ipynb").name).write_text(source.with_suffix(".ipynb").read_text())
    monkeypatch.setattr(sync, "NOTEBOOKS", tmp_path)
    assert len(sync.out_of_sync()) == 1


def test_every_study_notebook_lists_its_changed_verdicts_after_its_claims():
    from cvrepro.studies import STUDIES

    for study_id in STUDIES:
        source = next(s for s in sync.sources() if study_id in s.name).read_text()
        call = f'show_verdict_changes("{study_id}", claims, profile, shipped, out)'
        assert call in source, study_id
        assert source.index("claims = study.claims(") < source.index(call), study_id


def test_every_study_notebook_checks_its_run_options_before_any_work():
    """A bad ``store``, ``n_jobs`` or ``backend`` (papermill's ``-p n_jobs two``) fails in the set-up cell, not
    after the tables that come before the study's run (notebooks 04 and 05 compute many first)."""
    from cvrepro.profiles import check_run_options
    from cvrepro.studies import STUDIES

    for study_id in STUDIES:
        source = next(s for s in sync.sources() if study_id in s.name).read_text()
        call = source.index("check_run_options(store, n_jobs, backend")
        assert call < source.index("say(study.describe_profile(params, profile))") < source.index("study.run("), \
            study_id
    with pytest.raises(TypeError, match="n_jobs"):
        check_run_options(store=None, n_jobs="two")
