"""The documentation says what the code does: every Python example runs as written, generated parts are current.

Each page (README.md, docs/*.md) runs in a fresh namespace, its ```python
blocks in order, in an empty working directory that holds a copy of the
notebooks (so relative paths such as ``notebooks/...`` and ``results/...``
behave as in the project's folder without touching it). A block written with
``>>>`` prompts is a doctest: its printed output is compared. A block preceded
by ``<!-- not run: <reason> -->`` is skipped; few blocks may be, each with a
reason (a cluster address, a paper-scale run).
"""
from __future__ import annotations

import doctest
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import matplotlib
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<reason>[^>]*?)\s*-->\Z")
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<code>.*?)^```[ \t]*$", re.S | re.M)
MAX_NOT_RUN = 3                     # across all pages: skipping is the exception

sys.path.insert(0, str(ROOT / "tools"))
import clean  # noqa: E402
import docs_tables  # noqa: E402


def blocks(page: Path) -> list[dict]:
    """The fenced code blocks of ``page``: language, code, line, and the reason it is not run (or None)."""
    text = page.read_text()
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()]
        skip = NOT_RUN.search(before.rstrip())
        info = m.group("info").strip().split()
        out.append({"language": info[0] if info else "", "code": m.group("code"),
                    "line": before.count("\n") + 1, "not_run": skip.group("reason") if skip else None})
    return out


def python_blocks(page: Path) -> list[dict]:
    return [b for b in blocks(page) if b["language"] == "python"]


def run_block(block: dict, scope: dict, page: Path) -> None:
    label = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name
    name = f"{label}:{block['line']}"
    code = block["code"]
    if code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(code, scope, name, str(page), block["line"])
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
        runner.run(test, clear_globs=False)
        scope.update(test.globs)           # the doctest ran on a copy: later blocks see its names
        assert runner.failures == 0, f"doctest at {name} failed (its output is printed above)"
    else:
        exec(compile(code, name, "exec"), scope)


@pytest.fixture
def project_like(tmp_path, monkeypatch):
    """An empty working directory with a copy of the notebooks, as the project's folder looks to a snippet."""
    (tmp_path / "notebooks").mkdir()
    for nb in (ROOT / "notebooks").glob("[0-9]*.ipynb"):
        shutil.copy(nb, tmp_path / "notebooks" / nb.name)
    monkeypatch.chdir(tmp_path)
    matplotlib.use("Agg")
    return tmp_path


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_python_example_runs_as_written(page, project_like):
    scope = {"__name__": "__main__"}
    ran = 0
    for block in python_blocks(page):
        if block["not_run"] is None:
            run_block(block, scope, page)
            ran += 1
    import matplotlib.pyplot as plt
    plt.close("all")
    assert ran or not python_blocks(page)


def test_few_examples_are_not_run_and_each_says_why():
    skipped = [(p.name, b["line"], b["not_run"]) for p in PAGES for b in python_blocks(p) if b["not_run"] is not None]
    assert len(skipped) <= MAX_NOT_RUN, skipped
    assert all(reason for *_, reason in skipped), skipped


def test_every_code_block_names_its_language():
    unnamed = [(p.name, b["line"]) for p in PAGES for b in blocks(p) if not b["language"]]
    assert not unnamed, f"code blocks without a language (```python, ```sh, ```text): {unnamed}"


def test_extractor_finds_blocks_and_reasons(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```python\nx = 1\n```\n\n<!-- not run: needs a cluster -->\n```python\ny = 2\n```\n"
                    "\n```sh\nmake all\n```\n\n```python\n>>> x + 1\n2\n```\n")
    found = blocks(page)
    assert [b["language"] for b in found] == ["python", "python", "sh", "python"]
    assert [b["not_run"] for b in found] == [None, "needs a cluster", None, None]
    scope = {}
    run_block(found[0], scope, page)
    run_block(found[3], scope, page)
    with pytest.raises(AssertionError, match="doctest at"):
        run_block({**found[3], "code": ">>> x + 1\n3\n"}, scope, page)


# --------------------------------------------------------------------------- generated parts and links
def test_generated_tables_are_current():
    """README's study table and references, docs/learners.md's table: as the code gives them now."""
    assert docs_tables.stale() == [], "run `make docs` (tools/docs_tables.py) and commit the result"


def test_study_status_follows_the_notebooks(tmp_path):
    """A study is marked available exactly when its notebook exists (checked on a copy with one more notebook)."""
    from cvrepro.studies import STUDIES

    table = docs_tables.studies_table(ROOT)
    for s in STUDIES.values():
        row = next(line for line in table.splitlines() if s.notebook in line)
        there = (ROOT / "notebooks" / f"{s.notebook}.ipynb").exists()
        assert row.endswith(f"| {'available' if there else 'in preparation'} |"), row
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / f"{STUDIES['vanwinckelen2012'].notebook}.ipynb").write_text("{}")
    rows = docs_tables.studies_table(tmp_path).splitlines()
    assert sum(line.endswith("| available |") for line in rows) == 1
    assert next(r for r in rows if "vanwinckelen2012" in r).endswith("| available |")


def test_every_learner_has_a_row_on_the_learners_page():
    from cvrepro.learners import list_learners

    page = (ROOT / "docs" / "learners.md").read_text()
    missing = [n for n in list_learners()["name"] if f"| `{n}` |" not in page]
    assert not missing, f"docs/learners.md lacks {missing}: run `make docs`"


def test_links_between_pages_resolve():
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken, broken


def test_readme_gives_the_run_times_of_every_notebook():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("<!-- run times:"):]
    table = section[:section.index("\n\n", section.index("| notebook |"))]
    rows = {line.split("|")[1].strip(" `"): line for line in table.splitlines()[3:]}
    names = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(rows) == names, "README's run-times table: one row per notebook (tools/time_notebooks.py)"
    for row in rows.values():
        smoke, quick = row.split("|")[2:4]
        assert re.search(r"\d (s|min|h) \(", smoke) and re.search(r"\d (s|min|h) \(", quick), row


def test_readme_links_every_docs_page():
    readme = (ROOT / "README.md").read_text()
    unlinked = [p.name for p in PAGES[1:] if f"(docs/{p.name})" not in readme]
    assert not unlinked, f"README.md does not link {unlinked}"


def test_readme_ends_with_the_claims_overview():
    from cvrepro.reporting import OVERVIEW_END, OVERVIEW_START

    readme = (ROOT / "README.md").read_text()
    assert readme.count(OVERVIEW_START) == 1 and readme.rstrip().endswith(OVERVIEW_END)


# --------------------------------------------------------------------------- citation and licence
def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_citation_file_matches_the_package_and_cites_the_five_papers():
    from cvrepro.studies import STUDIES

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    assert str(cff["version"]) == pyproject()["version"]
    assert cff["license"] == pyproject()["license"] == "BSD-3-Clause"
    assert {"message", "title", "authors", "type"} <= set(cff)
    titles = [r["title"] for r in cff["references"]]
    assert len(titles) == len(STUDIES)
    for s, title in zip(STUDIES.values(), titles):
        assert title.rstrip(".").lower() in s.citation.lower(), (s.id, title)


def test_bibtex_file_holds_the_five_papers_and_the_readmes_entry():
    from cvrepro.studies import STUDIES

    text = (ROOT / "docs" / "references.bib").read_text()
    entries = dict(re.findall(r"^@\w+\{(\w+),\n(.*?)^\}", text, re.S | re.M))
    assert list(entries) == [*STUDIES, "cvrepro"]
    for sid, study in STUDIES.items():
        title = re.search(r"title\s*=\s*\{(.*)\},", entries[sid]).group(1)
        plain = re.sub(r"[{}$]", "", title).lower()
        assert plain in study.citation.lower(), (sid, title)
    readme_entry = next(b["code"] for b in blocks(ROOT / "README.md") if b["language"] == "bibtex")
    assert readme_entry.strip() in text
    version = re.search(r"version\s*=\s*\{([^}]*)\}", readme_entry).group(1)
    assert version == pyproject()["version"]


def test_licence_file_is_the_bsd_3_clause_text():
    text = (ROOT / "LICENSE").read_text()
    assert pyproject()["license"] == "BSD-3-Clause"
    assert text.startswith("BSD 3-Clause License") and "Copyright (c)" in text and "the cvrepro authors" in text
    assert "Neither the name of the copyright holder nor the names of its" in text


# --------------------------------------------------------------------------- make clean
def test_make_clean_keeps_the_stores_and_clean_results_removes_them(tmp_path):
    from cvrepro.studies import STUDIES

    for path in ["figures/README.md", "notebooks/00_datasets.py"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    made = ["build/notebooks/00_datasets.ipynb", "figures/datasets/catalog.csv", "figures/raeder2010/run.json",
            *(f"results/{sid}/_store.json" for sid in STUDIES)]
    own = ["results/my-experiment/_store.json", "results/notes.txt", "data/MANIFEST"]
    for path in made + own:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x")
    stores = made[3:]

    def run(*flags):
        return subprocess.run([sys.executable, str(ROOT / "tools" / "clean.py"), *flags, str(tmp_path)],
                              capture_output=True, text=True, check=True).stdout

    out = run()                                                  # make clean: the stores stay, and it says so
    assert all(not (tmp_path / p).exists() for p in made[:3]), out
    assert all((tmp_path / p).exists() for p in stores + own + ["figures/README.md", "notebooks/00_datasets.py"]), out
    assert "removed build" in out and "kept results/raeder2010 (a result store" in out
    assert "kept results/my-experiment" in out and "kept results/notes.txt" in out
    assert "would remove results/raeder2010" in run("--results", "--dry-run")
    assert all((tmp_path / p).exists() for p in stores)
    out = run("--results")                                       # make clean-results
    assert all(not (tmp_path / p).exists() for p in stores) and "removed results/raeder2010" in out
    assert all((tmp_path / p).exists() for p in own), out


def test_clean_targets_include_every_notebooks_default_store():
    targets = {p.relative_to(ROOT).as_posix() for p in clean.targets(ROOT) + clean.stores(ROOT)}
    for source in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py")):
        defaults = clean.notebook_defaults(source)
        for key in ("store", "output_dir"):
            if defaults.get(key):
                path = (ROOT / "notebooks" / defaults[key]).resolve().relative_to(ROOT).as_posix()
                assert path in targets or path.startswith("figures/"), (source.name, key, path)
