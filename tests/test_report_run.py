"""run.json traces a run: profile, every parameter, seeds, commit, versions, cores, wall and CPU time."""
import json
import subprocess
import time
from pathlib import Path

import pandas as pd

from cvrepro.reporting import record_run

ROOT = Path(__file__).resolve().parents[1]


def test_run_json_records_what_traces_the_run(tmp_path):
    claims = pd.DataFrame({"claim": ["c"], "where": ["Table I"], "verdict": ["holds"], "evidence": ["e"]})
    params = {"profile": "smoke", "seed": 7, "iterations": 3, "datasets": ["iris"], "learners": None}
    record_run(tmp_path, "raeder2010", "smoke", claims, started=time.time() - 2.0, params=params)
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["study"] == "raeder2010" and run["profile"] == "smoke"
    assert run["parameters"] == params and run["seeds"] == {"seed": 7}
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert run["commit"] == head and isinstance(run["dirty"], bool)
    assert run["python"].count(".") == 2
    assert {"numpy", "scikit-learn", "pandas", "cvrepro"} <= set(run["packages"])
    assert run["cores"] >= 1 and 1 <= run["cores_usable"] <= run["cores"]
    assert run["seconds"] >= 2.0 and run["cpu_seconds"] > 0


def test_latex_tables_use_booktabs_a_label_and_numeric_alignment(tmp_path):
    from cvrepro.reporting import save_table

    table = pd.DataFrame({"learner": ["C4.5", "NB_x"], "auc": [0.81234, 0.7], "n": [10, 200]})
    tex = save_table(table, tmp_path, "table_1", caption="Table 1. AUC & 5% of $x_1$")[2].read_text()
    assert r"\begin{tabular}{lrr}" in tex                       # text left, numbers right
    assert tex.index(r"\toprule") < tex.index(r"\midrule") < tex.index(r"\bottomrule")
    assert r"\label{tab:table_1}" in tex and r"\caption{Table 1. AUC \& 5\% of \$x\_1\$}" in tex
    assert r"NB\_x & 0.7000 & 200 \\" in tex


def test_a_shown_table_is_displayed_once_and_a_captioned_item_shows_with_its_caption(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from IPython.core.formatters import DisplayFormatter

    from cvrepro import reporting

    shown = []
    monkeypatch.setattr(reporting, "_display", shown.append)
    table = pd.DataFrame({"learner": ["NB"], "auc": [0.5]})
    returned = reporting.show_table(table, tmp_path, "t", "Table 1. AUC")
    assert DisplayFormatter().format(returned) == ({}, {})              # a cell's last line adds nothing
    assert DisplayFormatter().format(table)[0]                           # a plain DataFrame still displays
    assert type(returned[["auc"]] * 2) is pd.DataFrame and returned.equals(table)
    assert len(shown) == 2                                               # the caption, then the table, once
    shown.clear()
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    assert reporting.show(reporting.Captioned(fig, "f", "Figure 1. A line"), tmp_path) is None
    assert [type(x).__name__ for x in shown] == ["Image", "Markdown"] and "Figure 1. A line" in shown[1].data
    assert (tmp_path / "f.png").exists() and (tmp_path / "f.pdf").exists()


def test_empty_panels_are_hidden_and_a_learner_keeps_its_colour(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cvrepro.reporting import learner_colors, save_figure

    fig, axes = plt.subplots(2, 3)
    axes[0, 0].plot([0, 1], label="NB")
    axes[0, 2].legend(*axes[0, 0].get_legend_handles_labels())            # a legend panel: kept
    axes[0, 1].text(0.5, 0.5, "nothing at this profile")                  # empty for a reason: kept
    save_figure(fig, tmp_path, "grid")
    assert [ax.get_visible() for ax in axes.flat] == [True, True, True, False, False, False]
    plt.close(fig)
    some, all_ = learner_colors(["NB", "C4.5"]), learner_colors(["C4.5", "HDDT", "MLP", "5-NN", "NB", "SMO", "X"])
    assert some["NB"] == all_["NB"] and some["C4.5"] == all_["C4.5"]
    assert len(set(all_.values())) == len(all_)


def test_make_all_writes_its_overview_and_report_under_build_not_into_tracked_files():
    dry = subprocess.run(["make", "-n", "-W", "pyproject.toml", "all"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert "tools/overview.py\n" in dry and "--readme" not in dry and "tools/report.py" in dry
    outputs = [line.split()[-1] for line in dry.splitlines() if line.strip().startswith("-p profile")]
    assert outputs and all(path.startswith("build/notebooks/") for path in outputs)
    ignored = subprocess.run(["git", "check-ignore", "build/overview.md", "build/report/index.html"], cwd=ROOT,
                             capture_output=True, text=True).stdout.split()
    assert ignored == ["build/overview.md", "build/report/index.html"]
