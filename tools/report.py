"""`make report`: a static HTML site of the collection, from the executed notebooks.

One page per executed notebook (nbconvert's Lab template, extended in
``tools/report_template/cvrepro``: code hidden until one click shows it; progress
bars, warnings and other stderr text, widget placeholders, stray plain-text
values and repeated outputs left out) and an index with the studies table and
the claims overview. Each folder of executed notebooks is a *layer* shown side
by side: by default ``build/notebooks`` (what `make all` runs) and, when it
exists, ``build/notebooks-paper`` (the paper profile). A study's claims and
run record are read from the ``output_dir`` its notebook wrote to.

    python tools/report.py [--layer LABEL=FOLDER ...] [--out build/report]
"""
from __future__ import annotations

import argparse
import ast
import copy
import html
import json
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import nbformat
import pandas as pd
from nbconvert import HTMLExporter

from cvrepro.studies import STUDIES

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = Path(__file__).resolve().parent / "report_template"
DEFAULT_LAYERS = {"main": ROOT / "build" / "notebooks", "paper": ROOT / "build" / "notebooks-paper"}
WIDGET = "application/vnd.jupyter.widget-view+json"


@dataclass
class Page:
    """One executed notebook and what its run wrote."""

    path: Path
    nb: nbformat.NotebookNode
    parameters: dict = field(default_factory=dict)
    output_dir: Path | None = None

    @property
    def name(self) -> str:
        return self.path.stem

    def file(self, name: str) -> Path | None:
        path = self.output_dir / name if self.output_dir else None
        return path if path is not None and path.exists() else None

    def run(self) -> dict:
        found = self.file("run.json")
        return json.loads(found.read_text()) if found else {}


def read_page(path: Path, notebooks_cwd: Path = ROOT / "notebooks") -> Page:
    """An executed notebook, its parameters (defaults with papermill's values) and its output folder."""
    nb = nbformat.read(path, as_version=4)
    parameters = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    try:
                        parameters[node.targets[0].id] = ast.literal_eval(node.value)
                    except ValueError:
                        pass
            break
    parameters.update(nb.metadata.get("papermill", {}).get("parameters", {}))
    out = parameters.get("output_dir")
    return Page(path, nb, parameters, (notebooks_cwd / out).resolve() if isinstance(out, str) else None)


def keep_output(output, seen: set) -> bool:
    """False for what a reader should not see: stderr, progress text, widgets, stray values, repeats."""
    kind = output.get("output_type")
    if kind == "stream":
        text = output.get("text", "")
        return output.get("name") != "stderr" and "\r" not in text and "%|" not in text
    if kind not in ("display_data", "execute_result"):
        return True                                            # errors stay visible
    data = output.get("data", {})
    if WIDGET in data or (kind == "execute_result" and set(data) <= {"text/plain"}):
        return False
    key = data.get("text/html") or data.get("image/png") or data.get("text/markdown")
    if isinstance(key, list):
        key = "".join(key)
    if key and len(key) > 200:
        if key in seen:
            return False
        seen.add(key)
    return True


def tidy(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` with only the outputs a reader should see."""
    nb, seen = copy.deepcopy(nb), set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if keep_output(o, seen)]
    nb.metadata.pop("widgets", None)
    return nb


def run_line(run: dict) -> str:
    """The page's one-line run record (from run.json)."""
    if not run:
        return ""
    commit = (run.get("commit") or "unknown")[:10] + (" (with uncommitted changes)" if run.get("dirty") else "")
    parts = [f"profile <b>{html.escape(str(run.get('profile')))}</b>", f"commit {html.escape(commit)}",
             f"finished {html.escape(str(run.get('finished')))}"]
    if run.get("seconds") is not None:
        parts.append(f"{run['seconds'] / 60:.1f} min wall" +
                     (f", {run['cpu_seconds'] / 60:.1f} min CPU" if run.get("cpu_seconds") is not None else "") +
                     (f" on {run['cores']} cores" if run.get("cores") else ""))
    if run.get("seeds"):
        parts.append("seeds " + html.escape(", ".join(f"{k}={v}" for k, v in run["seeds"].items())))
    if run.get("python"):
        parts.append(f"Python {html.escape(run['python'])}")
    details = {k: run[k] for k in ("parameters", "packages", "platform", "commit", "dirty") if k in run}
    return (" · ".join(parts) + " <details><summary>parameters and versions</summary><pre>"
            + html.escape(json.dumps(details, indent=1, default=str)) + "</pre></details>")


def nav(pages: dict[str, dict[str, Page]], layer: str, here: str) -> str:
    """Links: the index, every page of this layer, and this page in the other layers."""
    links = ['<a href="../index.html">Index</a>', '<a href="../index.html#claims">Claims</a>']
    for name in sorted(pages[layer]):
        cls = ' class="cv-here"' if name == here else ""
        links.append(f'<a{cls} href="{name}.html">{html.escape(name[:2])}</a>')
    links += [f'<a href="../{other}/{here}.html">this study: {html.escape(other)}</a>'
              for other in pages if other != layer and here in pages[other]]
    return " ".join(links)


def write_pages(pages: dict[str, dict[str, Page]], out: Path) -> None:
    exporter = HTMLExporter(template_name="cvrepro", extra_template_basedirs=[str(TEMPLATES)])
    for layer, found in pages.items():
        (out / layer).mkdir(parents=True, exist_ok=True)
        for name, page in found.items():
            resources = {"cvrepro": {"nav": nav(pages, layer, name), "run": run_line(page.run())},
                         "metadata": {"name": f"{name} ({layer})"}}
            body, _ = exporter.from_notebook_node(tidy(page.nb), resources=resources)
            (out / layer / f"{name}.html").write_text(body)


def layer_label(layer: str, found: dict[str, Page]) -> str:
    profiles = sorted({str(p.parameters.get("profile")) for p in found.values()})
    return f"{layer} ({', '.join(profiles)})" if profiles and profiles != [layer] else layer


def index_context(pages: dict[str, dict[str, Page]], folders: dict[str, Path]) -> dict:
    """What the index shows: the studies table and every study's claims, one column per layer."""
    layers = [{"label": layer_label(k, v), "folder": _shown(folders[k])} for k, v in pages.items()]
    studies, claims = [], []
    for row in notebook_rows(pages):
        cells, tables = [], []
        for layer, found in pages.items():
            page = found.get(row["notebook"])
            table = _claims(page)
            tables.append(table)
            cells.append({"href": f"{layer}/{row['notebook']}.html" if page else None,
                          "notebook": row["notebook"], "summary": page_summary(page, table)})
        studies.append({**row, "cells": cells})
        if any(t is not None for t in tables):
            claims.append({**row, "rows": _claim_rows(tables)})
    return {"layers": layers, "studies": studies, "claims": claims}


def notebook_rows(pages: dict[str, dict[str, Page]]) -> list[dict]:
    """The index's rows in notebook order: the data catalog (00), the studies, and every other executed
    notebook (06, your own comparison), titled by its first heading."""
    studies = {s.notebook: {"number": s.number, "title": s.title, "citation": s.citation, "notebook": s.notebook,
                            "id": s.id} for s in STUDIES.values()}
    rows = []
    for name in sorted({n for v in pages.values() for n in v} | set(studies)):
        if name in studies:
            rows.append(studies[name])
            continue
        page = next(v[name] for v in pages.values() if name in v)
        number = int(name[:2])
        title, about = ("The benchmark data catalog", "every data set the studies use") if number == 0 else \
            (heading(page.nb) or name, "the studies' advice on a data set of one's own")
        rows.append({"number": number, "title": title, "citation": about, "notebook": name})
    return rows


def heading(nb: nbformat.NotebookNode) -> str | None:
    """The text of the notebook's first Markdown heading, without its number (``06 · ``)."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("# ").split(" · ", 1)[-1].strip()
    return None


def page_summary(page: Page | None, claims: pd.DataFrame | None) -> str:
    """One line under a notebook's link: profile and run time, then the claims' verdicts counted."""
    if page is None:
        return ""
    from cvrepro.reporting import profile_label
    from cvrepro.verdicts import summary_sentence

    run = page.run()
    label = profile_label(run["study"], run) if run.get("study") else page.parameters.get("profile")
    summary = f"Profile {label}"
    if run.get("seconds") is not None:
        summary += f", {run['seconds'] / 60:.1f} min"
    return summary + "." + (" " + summary_sentence(claims) if claims is not None else "")


def _claims(page: Page | None) -> pd.DataFrame | None:
    found = page.file("claims.csv") if page is not None else None
    return pd.read_csv(found) if found else None


def _claim_rows(tables: list[pd.DataFrame | None]) -> list[dict]:
    """One row per (claim, where), with each layer's verdict (None where that layer lacks the claim)."""
    order, verdicts = [], {}
    for i, table in enumerate(tables):
        for r in ([] if table is None else table.itertuples()):
            key = (r.claim, r.where)
            if key not in verdicts:
                order.append(key)
                verdicts[key] = [None] * len(tables)
            verdicts[key][i] = r.verdict
    return [{"claim": c, "where": w, "verdicts": verdicts[(c, w)]} for c, w in order]


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def build(folders: dict[str, Path], out: Path) -> Path:
    """Write the site under ``out``; return its index. Fails when no layer has an executed notebook."""
    pages = {layer: {p.stem: read_page(p) for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))}
             for layer, folder in folders.items() if folder.is_dir()}
    pages = {k: v for k, v in pages.items() if v}
    if not pages:
        raise SystemExit(f"no executed notebooks in {', '.join(map(_shown, folders.values()))}: run `make all` first")
    write_pages(pages, out)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES / "cvrepro"), autoescape=True)
    index = out / "index.html"
    index.write_text(env.get_template("index-page.html.j2").render(**index_context(pages, folders)))
    return index


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layer", action="append", metavar="LABEL=FOLDER",
                        help="a folder of executed notebooks and its column label (repeatable)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "report")
    args = parser.parse_args(argv)
    folders = dict(DEFAULT_LAYERS)
    if args.layer:
        folders = {label: Path(folder) for label, _, folder in (s.partition("=") for s in args.layer)}
    print(f"wrote {_shown(build(folders, args.out))}")


if __name__ == "__main__":
    main()
