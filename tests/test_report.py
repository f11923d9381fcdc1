"""`make report` in a real browser: headless Chromium opens the index and a study page built from a
notebook executed at smoke; tables and figures render, and no code, progress text or warning shows."""
import copy
import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from browser import run_in_browser

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import report  # noqa: E402

NOTEBOOK = ROOT / "notebooks" / "04_japkowicz2011_evaluation_tutorial.ipynb"
NOISE = [nbformat.v4.new_output("stream", name="stderr", text="UserWarning: noisy\n 6%|6 | 3/50 [00:01<00:09]\r"),
         nbformat.v4.new_output("display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                                                      "text/plain": "HBox(children=(  6%|stuck))"}),
         nbformat.v4.new_output("execute_result", data={"text/plain": "{'stray': 'dict'}"}, execution_count=9)]


@pytest.fixture(scope="module")
def site(tmp_path_factory, smoke_notebook):
    """The report of one study notebook executed at smoke (the run test_notebooks checks), shown as two
    layers (main and paper); returns the index and the folder of the run."""
    ran = smoke_notebook(NOTEBOOK)
    tmp = tmp_path_factory.mktemp("report")
    executed = tmp / "main" / NOTEBOOK.name
    executed.parent.mkdir()
    nb = nbformat.read(ran / NOTEBOOK.name, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code" and c.outputs)
    table = next(o for c in nb.cells if c.cell_type == "code" for o in c.outputs if "text/html" in o.get("data", {}))
    first.outputs += [*copy.deepcopy(NOISE), copy.deepcopy(table)]      # what a reader must not see
    nbformat.write(nb, executed)
    (tmp / "paper").mkdir()
    shutil.copy(executed, tmp / "paper" / NOTEBOOK.name)
    index = report.build({"main": tmp / "main", "paper": tmp / "paper"}, tmp / "site")
    return index, ran


VISIBLE = """(() => {
  const shown = el => el.offsetParent !== null && el.getBoundingClientRect().width > 0;
  const tables = Array.from(document.querySelectorAll("table")).filter(t => shown(t) && t.rows.length > 1);
  const images = Array.from(document.images).filter(shown);
  const cells = Array.from(document.querySelectorAll(".jp-RenderedHTMLCommon td")).filter(shown);
  const numeric = cells.filter(td => /^-?[0-9.]+$/.test(td.textContent.trim()));
  return {text: document.body.innerText, tables: tables.length, images: images.length,
          misaligned: cells.filter(td => getComputedStyle(td).textAlign !==
                                         (td.classList.contains("cv-num") ? "right" : "left")).length,
          numeric: numeric.length, numeric_right: numeric.filter(td => td.classList.contains("cv-num")).length,
          broken: images.filter(i => !i.complete || i.naturalWidth === 0).length,
          links: Array.from(document.querySelectorAll("a")).map(a => a.getAttribute("href"))};
})()"""
HIDDEN_WORDS = ["refuse_unknown_parameters", "import ", "%|", "Warning", "stray", "HBox", "In ["]


@pytest.mark.xdist_group("smoke_04")
def test_report_index_and_study_page_in_a_browser(site, tmp_path):
    index, tmp = site
    page_file = index.parent / "main" / f"{NOTEBOOK.stem}.html"
    screens = Path(os.environ.get("CVREPRO_SCREENS", tmp_path))

    async def scenario(page):
        await page.open(index.as_uri())
        home = await page.js(VISIBLE)
        await page.screenshot(screens / "report-index.png")
        await page.open(page_file.as_uri())
        study = await page.js(VISIBLE)
        await page.screenshot(screens / "report-study.png")
        await page.js('document.getElementById("cv-toggle-code").click()')
        return home, study, await page.js("document.body.innerText")

    home, study, with_code = run_in_browser(scenario, tmp_path / "chromium")
    assert home["tables"] >= 2 and "Claims overview" in home["text"]            # studies table and claims
    assert f"main/{NOTEBOOK.stem}.html" in home["links"] and f"paper/{NOTEBOOK.stem}.html" in home["links"]
    assert "main (smoke)" in home["text"] and "paper (smoke)" in home["text"]      # the layers side by side
    assert any(v in home["text"] for v in ("holds", "partly", "does not hold", "undecided"))
    assert study["tables"] >= 3 and study["images"] >= 1 and study["broken"] == 0
    assert study["misaligned"] == 0 and study["numeric_right"] > study["numeric"] / 2    # text left, numbers right
    assert "Table 1" in study["text"] and "Figure 1" in study["text"]             # captions
    assert "../index.html" in study["links"] and f"../paper/{NOTEBOOK.stem}.html" in study["links"]
    shown = [w for w in HIDDEN_WORDS if w in study["text"]]
    assert not shown, f"visible on the study page: {shown}"
    assert "refuse_unknown_parameters" in with_code and "import " in with_code     # one click shows the code
    for href in home["links"]:
        if href and not href.startswith(("#", "http")):
            assert (index.parent / href.split("#")[0]).exists(), href


def test_report_drops_only_what_a_reader_should_not_see():
    seen = set()
    assert [report.keep_output(o, seen) for o in NOISE] == [False, False, False]
    table = nbformat.v4.new_output("display_data", data={"text/html": "<table>" + "x" * 300 + "</table>"})
    error = nbformat.v4.new_output("error", ename="ValueError", evalue="bad", traceback=[])
    assert report.keep_output(table, seen) and not report.keep_output(copy.deepcopy(table), seen)   # once
    assert report.keep_output(error, seen)                                   # failures stay visible


@pytest.mark.xdist_group("smoke_04")
def test_an_executed_notebooks_run_json_has_its_parameters(site):
    import json

    _, tmp = site
    run = json.loads((tmp / "figures" / "run.json").read_text())
    assert run["profile"] == "smoke" and run["parameters"]["profile"] == "smoke"
    assert run["parameters"]["store"] == str(tmp / "store")               # papermill's value, not the default
    assert {"n_jobs", "backend", "output_dir", "sim_replications"} <= set(run["parameters"])
    assert run["seconds"] > 0 and run["cpu_seconds"] > 0 and run["commit"]


def test_index_lists_every_executed_notebook_and_counts_verdicts_grammatically(tmp_path):
    """Notebook 06 (no study of its own) gets a row titled by its heading; the counts read as sentences."""
    import pandas as pd

    def page(name, heading):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {heading}\n\ntext")])
        return report.Page(tmp_path / f"{name}.ipynb", nb, {"profile": "smoke"}, tmp_path / name)

    pages = {"main": {"00_datasets": page("00_datasets", "00 · Data"),
                      "06_your_own_comparison": page("06_your_own_comparison", "06 · Your own comparison")}}
    rows = report.notebook_rows(pages)
    assert [r["number"] for r in rows] == [0, 1, 2, 3, 4, 5, 6]
    assert rows[-1]["title"] == "Your own comparison" and rows[-1]["notebook"] == "06_your_own_comparison"
    claims = pd.DataFrame({"verdict": ["holds", "partly", "partly", "undecided"]})
    assert report.page_summary(pages["main"]["00_datasets"], claims) == \
        "Profile smoke. Of 4 claims checked, 1 holds, 2 hold partly, 1 is undecided."
    assert report.page_summary(pages["main"]["00_datasets"], None) == "Profile smoke."
